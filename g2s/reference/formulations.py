"""The 0/1 program(s) of one component for :func:`g2s.reference.solver.solve_reference`.

MVC and MIS are solved by the problem's own program and, with ``formulation="both"``, then by
the complementary one (Gallai: ``tau(G) = n - alpha(G)``) on the rest of the time limit,
keeping the better solution and the tighter bound (:mod:`g2s.reference.solver`' docstring gives the
argument); max cut by its one program, its bound capped by the eigenvalue bound.  Also the
comparisons of objectives and bounds in a problem's sense.
"""

from __future__ import annotations

import math
import time

from g2s.problems import SENSE, check_solution
from g2s.reference.exact import max_cut_eigenvalue_bound
from g2s.reference.programs import PROGRAMS as _PROGRAMS

__all__ = ["int_bound", "better", "tighter", "run_program", "solve_program"]

_COMPLEMENT = {"mvc": "mis", "mis": "mvc"}


def int_bound(problem: str, value: float) -> int:
    """Round a solver's bound to the integer bound it implies (objectives are integers)."""
    if SENSE[problem] == "min":
        return math.ceil(value - 1e-6)
    return math.floor(value + 1e-6)


def better(problem: str, a: int, b: int) -> bool:
    return a < b if SENSE[problem] == "min" else a > b


def tighter(problem: str, a: int, b: int) -> bool:
    """Bound ``a`` is strictly tighter than ``b`` (larger lower / smaller upper bound)."""
    return a > b if SENSE[problem] == "min" else a < b


def run_program(problem, form, G, method, time_limit, hint, seed, workers):
    """Program ``form`` on ``G``, as ``(solution of problem or None, integer bound on problem)``.

    ``form`` is ``problem`` itself or its complement (MVC <-> MIS): then the solution is
    complemented and the bound is ``n`` minus the complementary program's (Gallai).
    """
    if form == problem:
        S, raw = _PROGRAMS[method](problem, G, time_limit, hint, seed, workers)
        return S, int_bound(problem, raw)
    flip = None if hint is None else set(G) - hint
    S, raw = _PROGRAMS[method](form, G, time_limit, flip, seed, workers)
    return (None if S is None else set(G) - S), G.number_of_nodes() - int_bound(form, raw)


def solve_program(problem, G, method, time_limit, hint, seed, workers, formulation,
                  hint_by="hint"):
    """The 0/1 program(s) of one component (module docstring); also says what gave what.

    ``hint_by`` names what found ``hint`` (a best-known solver, a heuristic, the caller); a
    program's answer replaces the hint only when strictly better, so a warm-started program
    that merely returns its hint does not claim the solution."""
    if problem == "maxcut":
        forms = ["maxcut"]
    elif formulation == "both":
        forms = [problem, _COMPLEMENT[problem]]
    else:
        forms = [formulation]
    start = time.perf_counter()
    # max cut's eigenvalue bound first, inside the limit (a dense eigensolve: 0.7 s at 1,000
    # vertices), so the programs get what is left
    spectral = max_cut_eigenvalue_bound(G) if problem == "maxcut" else None
    S = hint if hint is not None else (set(G) if problem == "mvc" else set())
    value, solution_from = check_solution(problem, G, S), hint_by
    bound = bound_from = None
    bounds = dict.fromkeys(forms)
    for k, form in enumerate(forms):
        share = (time_limit - (time.perf_counter() - start)) / (len(forms) - k)
        if k and share <= 0:  # the first program used the whole limit: the second is not run
            break
        T, b = run_program(problem, form, G, method, max(share, 0.01), S, seed, workers)
        bounds[form] = b
        if T is not None:
            t_value = check_solution(problem, G, T)
            if better(problem, t_value, value):
                S, value, solution_from = T, t_value, form
        if bound is None or tighter(problem, b, bound):
            bound, bound_from = b, form
        if bound == value:  # proven optimal: the other program has nothing left to add
            break
    if problem == "maxcut":  # the LP bound of max cut is weak on dense graphs
        if spectral is not None and spectral < bound:
            bound, bound_from = spectral, "eigenvalue"
    return S, bound, solution_from, bound_from, bounds
