"""Reference optimum for MVC, max cut and MIS: our stand-in for the paper's Gurobi (Section 5).

arXiv:1802.04948, Section 5: "We attempt to compute the optimal solution via the Gurobi
optimization package.  We run the Gurobi solver with a cut-off time of 240 s, and report
performance in the form of approximation ratios relative to the solution found".  We report
more than the paper did: the best solution found, a *proven* bound on the optimum (a lower bound
for MVC, an upper bound for max cut and MIS), and whether the two meet (``status="optimal"``).

Methods (``backend="auto"`` solves each connected component by the first that applies; the
three objectives are sums over components, so this is exact):

* ``trivial``: a component without edges.
* ``tree-dp`` (MVC, MIS on forests): the textbook dynamic program
  ``in(v) = 1 + sum_c out(c)``, ``out(v) = sum_c max(in(c), out(c))`` for a maximum independent
  set; a minimum cover is its complement (Gallai 1959: ``tau(G) + alpha(G) = n``).
* ``konig`` (MVC, MIS on bipartite graphs): Hopcroft-Karp maximum matching ``M`` and König's
  theorem, ``tau(G) = |M|`` (König 1931); the cover is built from ``M`` (networkx).
* ``bipartite-cut`` (max cut on bipartite graphs): one colour class cuts all ``|E|`` edges.
* ``enumeration`` (at most :data:`ENUMERATION_MAX_VERTICES` vertices): every subset, vectorised
  over integer bitmasks.
* ``cpsat`` (OR-Tools CP-SAT) or ``highs`` (scipy.optimize.milp): the 0/1 programs of
  :mod:`g2s.reference.programs`,
  ``min sum x_v s.t. x_u + x_v >= 1`` (MVC), ``max sum x_v s.t. x_u + x_v <= 1`` (MIS) and
  ``max sum y_uv s.t. y_uv <= x_u + x_v, y_uv <= 2 - x_u - x_v`` (max cut, one vertex per
  component fixed to side 0, plus the triangle inequalities ``y_uv + y_vw + y_uw <= 2`` and
  ``y_uv <= y_vw + y_uw``, valid because a triangle has 0 or 2 cut edges); the max-cut bound
  is the smaller of the solver's and the eigenvalue bound :func:`max_cut_eigenvalue_bound`.
  CP-SAT starts from a hint; scipy's HiGHS takes no start, but the hint is returned whenever
  it beats HiGHS's incumbent.  The time limit is wall clock, so results under a time limit
  can differ between runs and machines.

**Best known solution and proven bound, kept apart.**  A timed integer program proves bounds
well but, on hard instances, often returns little more than its hint.  So by default the hint
of a program component is the *best known solution* of
:func:`g2s.reference.best_known.best_known_solution` (a state-of-the-art solver -- CHILS for MIS and
MVC, simulated annealing for max cut -- against the classical heuristics), found in
:func:`best_known_budget` of the time limit; the programs then spend the rest warm-started from it,
to improve it if they can and to prove a bound.  The result says who found the solution
(``best_known_by``: the solver, ``heuristic``, ``hint`` for a caller's hint, a program's formulation
when it improved on its hint, or an exact method) and who proved the bound (``bound_by``), with the
seconds and the solver versions.

MVC and MIS are one problem seen from two sides (Gallai 1959: ``S`` is a cover iff ``V - S`` is
independent, so ``tau(G) = n - alpha(G)``), but the two 0/1 programs do not search alike: on a
dense 450-vertex graph CP-SAT's MIS program proved ``alpha <= 30`` (so ``tau >= 420``) in the
time its MVC program proved only ``tau >= 402``
(``benchmarks/results/reference_formulations.json``).  With ``formulation="both"`` (the
default) a program component of an MVC or MIS instance is solved by the problem's own program
on half the time limit, then -- unless that proved optimality -- by the complementary program
on the rest, started from the complement of the best solution so far.  The result keeps the
better solution and the tighter bound and says which program gave each (``solution_from``,
``bound_from``; ``bounds`` holds what each program proved on its own).  The combined bound is
by construction at least as tight as either program's; it need not match one program given the
whole time limit (``benchmarks/results/reference_formulations.json`` measures both).

Every returned solution passes :func:`g2s.problems.check_solution`.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import networkx as nx

from g2s.optional import reraise_interrupt
from g2s.problems import PROBLEMS, check_solution, is_feasible
from g2s.reference.best_known import best_known_solution, solver_versions
from g2s.reference.exact import (
    ENUMERATION_MAX_VERTICES,
    EXACT_METHODS,
    bipartite_matching_number,
    max_cut_eigenvalue_bound,
)
from g2s.reference.formulations import better, solve_program
from g2s.reference.programs import PROGRAMS as _PROGRAMS

__all__ = [
    "ReferenceResult", "solve_reference", "bipartite_matching_number",
    "max_cut_eigenvalue_bound", "BACKENDS", "FORMULATIONS",
    "ENUMERATION_MAX_VERTICES", "BEST_KNOWN_SHARE", "best_known_budget", "with_current_names",
]

#: the share of a program component's time limit spent finding its best known solution (the
#: rest goes to the warm-started programs, which prove the bound), and at most this many
#: seconds per vertex: CHILS stops only at its budget, and on the benchmark's graphs it found
#: its best within 0.05 s at 400 vertices (``benchmarks/results/reference.json``)
BEST_KNOWN_SHARE, BEST_KNOWN_SECONDS_PER_VERTEX = 0.25, 0.002


#: result fields stored under another name before the best known solution and the proven
#: bound were named apart: old name -> current name
RENAMED_FIELDS = {"solution_from": "best_known_by", "bound_from": "bound_by"}


def with_current_names(data: dict) -> dict:
    """A copy of a stored result (a certificate entry) with :data:`RENAMED_FIELDS` renamed; a
    current name already present wins."""
    out = {k: v for k, v in data.items() if k not in RENAMED_FIELDS}
    for old, new in RENAMED_FIELDS.items():
        if old in data and new not in data:
            out[new] = data[old]
    return out


def best_known_budget(n: int, time_limit: float) -> float:
    """Seconds for the best-known search on an ``n``-vertex component (constants above)."""
    return min(BEST_KNOWN_SHARE * time_limit, max(0.01, n * BEST_KNOWN_SECONDS_PER_VERTEX))

BACKENDS = ("auto", "cpsat", "highs", "enumeration", "konig", "tree-dp", "bipartite-cut")
#: which 0/1 programs solve MVC and MIS: both (module docstring), or only the one named
FORMULATIONS = ("both", "mvc", "mis")


@dataclass(frozen=True)
class ReferenceResult:
    """A reference solution with a proven bound on the optimum.

    ``bound`` is in the objective's units: ``bound <= OPT <= objective`` for MVC and
    ``objective <= OPT <= bound`` for max cut and MIS; ``status == "optimal"`` iff they meet.
    ``best_known_by`` and ``bound_by`` name what gave the solution and the bound (on a tie,
    what came first), joined by ``+`` over the components: a 0/1 program by its formulation
    (``mvc``, ``mis``, ``maxcut``: it improved on its start), the best-known solver
    (:data:`g2s.reference.best_known.BEST_KNOWN_SOLVER`) or ``heuristic`` (the start was not
    improved), ``hint`` (the caller's hint was not improved), ``eigenvalue`` (max cut's spectral
    bound), or an exact method.  ``versions`` holds the solver packages' versions.  ``bounds`` maps
    each 0/1 program run to the bound it proved alone, in this problem's units (``None`` where
    it was not run on a component because the other had proved optimality already or had used
    up the time limit; empty when no program ran).
    """

    problem: str
    objective: int
    solution: tuple
    bound: int
    status: str
    method: str
    seconds: float
    best_known_by: str = ""
    bound_by: str = ""
    bounds: dict = field(default_factory=dict)
    versions: dict = field(default_factory=dict)

    @property
    def gap(self) -> float:
        """Relative bound gap ``|objective - bound| / max(objective, 1)`` (0 when optimal)."""
        return abs(self.objective - self.bound) / max(abs(self.objective), 1)

    def to_json(self) -> dict:
        d = asdict(self)
        d["solution"] = list(self.solution)
        return d

    @classmethod
    def from_json(cls, data: dict) -> ReferenceResult:
        data = with_current_names(data)
        fields = ("problem", "objective", "bound", "status", "method", "seconds")
        kw = {k: data[k] for k in fields}
        kw.update({k: data[k] for k in ("best_known_by", "bound_by", "bounds", "versions")
                   if k in data})
        return cls(solution=tuple(data["solution"]), **kw)


def _sorted(S) -> tuple:
    try:
        return tuple(sorted(S))
    except TypeError:
        return tuple(sorted(S, key=repr))


_EXACT = EXACT_METHODS


def _auto_method(problem: str, G: nx.Graph, program: str) -> str:
    if G.number_of_edges() == 0:
        return "trivial"
    if problem != "maxcut" and nx.is_forest(G):
        return "tree-dp"
    if nx.is_bipartite(G):
        return "bipartite-cut" if problem == "maxcut" else "konig"
    return "enumeration" if G.number_of_nodes() <= ENUMERATION_MAX_VERTICES else program


def _solve_part(problem, G, method, time_limit, hint, seed, workers, formulation="both"):
    """Solve one (sub)graph: ``(solution, objective, bound, solution_from, bound_from, bounds)``."""
    bounds = {}
    if method == "trivial":
        S, bound = (set(G) if problem == "mis" else set()), None
        S_from = b_from = "trivial"
    elif method in _EXACT:
        S, bound = _EXACT[method](problem, G)
        S_from = b_from = method
    else:
        if hint is not None and not is_feasible(problem, G, hint & set(G)):
            raise ValueError("the hint is not a feasible solution")
        start = time.perf_counter()
        if hint is None:
            known = best_known_solution(problem, G,
                                        best_known_budget(G.number_of_nodes(), time_limit), seed)
            hint, hint_by = set(known.solution), known.by
        else:
            hint, hint_by = hint & set(G), "hint"
        left = max(time_limit - (time.perf_counter() - start), 0.01)
        S, bound, S_from, b_from, bounds = solve_program(problem, G, method, left, hint,
                                                         seed, workers, formulation, hint_by)
    value = check_solution(problem, G, S)
    bound = value if bound is None else bound
    if better(problem, value, bound):
        raise AssertionError(f"{method}: objective {value} beats its proven bound {bound}")
    return S, value, bound, S_from, b_from, bounds


def solve_reference(problem: str, G: nx.Graph, time_limit: float = 240.0, backend: str = "auto",
                    hint=None, seed: int = 0, workers: int = 1,
                    formulation: str = "both") -> ReferenceResult:
    """Best solution, proven bound and status for ``problem`` on ``G`` (module docstring).

    Parameters
    ----------
    problem : {"mvc", "maxcut", "mis"}
    G : networkx.Graph
        Undirected simple graph (no self-loops).
    time_limit : float
        Wall-clock seconds for the 0/1 programs (the paper's Gurobi cut-off was 240 s); with
        ``backend="auto"`` it is shared by the hard components in proportion to their size.
    backend : str
        ``"auto"`` (exact special cases per component, else CP-SAT, else HiGHS when OR-Tools is
        missing) or one method of :data:`BACKENDS` applied to the whole graph.
    hint : set, optional
        A feasible starting solution; default: the best known solution
        (:func:`g2s.reference.best_known.best_known_solution` in :func:`best_known_budget`).
    seed : int
        CP-SAT's and the best-known solver's seed (HiGHS runs with its default seed).
    workers : int
        CP-SAT search workers; 1 (default) for reproducible runs.
    formulation : {"both", "mvc", "mis"}
        For MVC and MIS: run both 0/1 programs within the time limit (default; module
        docstring), or only the one named (``formulation=problem``: the problem's own
        program alone).  Ignored for max cut.
    """
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r}; expected one of "
                         f"{', '.join(FORMULATIONS)}")
    if G.is_directed() or G.is_multigraph() or nx.number_of_selfloops(G):
        raise ValueError("the reference solver needs an undirected simple graph without loops")
    start = time.perf_counter()
    hint = None if hint is None else set(hint)
    if backend != "auto":
        parts = [(G, backend if G.number_of_nodes() else "trivial")]
    else:
        try:
            import ortools.sat.python.cp_model  # noqa: F401
            program = "cpsat"
        except ImportError as exc:
            reraise_interrupt(exc)  # Ctrl-C during the import is not a missing package
            program = "highs"
        # isolated vertices form one trivial part: a subgraph per vertex cost seconds on
        # graphs with hundreds of thousands of them, past any time limit
        # (real graphs, not views: a view filters all of G's vertices on every iteration)
        isolated = set(nx.isolates(G))
        rest = G.subgraph(set(G) - isolated).copy() if isolated else G
        comps = list(nx.connected_components(rest))
        # connected: the graph itself (a copy costs 0.8 s on 25,000 edges)
        comps = [rest] if len(comps) == 1 else [rest.subgraph(c).copy() for c in comps]
        parts = [(H, _auto_method(problem, H, program)) for H in comps]
        if isolated:
            alone = nx.Graph()
            alone.add_nodes_from(isolated)
            parts.append((alone, "trivial"))
        parts.sort(key=lambda p: (p[1] in _PROGRAMS, p[0].number_of_nodes()))
    hard_left = sum(H.number_of_nodes() for H, meth in parts if meth in _PROGRAMS)
    solution, value, bound, methods = set(), 0, 0, set()
    s_from, b_from, bounds, exact = set(), set(), {}, 0
    for H, meth in parts:
        budget = time_limit
        if meth in _PROGRAMS and backend == "auto":
            remaining = time_limit - (time.perf_counter() - start)
            budget = remaining * H.number_of_nodes() / hard_left
            hard_left -= H.number_of_nodes()
        S, v, b, sf, bf, bs = _solve_part(problem, H, meth, budget, hint, seed, workers,
                                          formulation)
        solution |= S
        value += v
        bound += b
        methods.add(meth)
        s_from.add(sf)
        b_from.add(bf)
        exact += b if meth not in _PROGRAMS else 0
        for form, fb in bs.items():  # a program skipped on any component has no bound alone
            total = bounds.get(form, 0)
            bounds[form] = None if fb is None or total is None else total + fb
    if check_solution(problem, G, solution) != value:
        raise AssertionError("component objectives do not add up")
    # components solved exactly count the same for every program
    bounds = {f: None if fb is None else fb + exact for f, fb in bounds.items()}

    def joined(names):
        return "+".join(sorted(names - {"trivial"})) or "trivial"

    return ReferenceResult(problem=problem, objective=value, solution=_sorted(solution),
                           bound=bound, status="optimal" if value == bound else "time_limit",
                           method=joined(methods), seconds=round(time.perf_counter() - start, 4),
                           best_known_by=joined(s_from), bound_by=joined(b_from),
                           bounds=bounds, versions=solver_versions())
