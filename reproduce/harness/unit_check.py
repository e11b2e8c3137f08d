"""Why a cached or imported grid unit cannot be trusted: its shape, and its solution re-checked
feasible on its instance with the objective recomputed (:func:`validate_unit`).

Every path by which a unit's result reaches a figure goes through it: the cache of the grid
(:mod:`reproduce.harness.grid`), units computed elsewhere (:mod:`reproduce.harness.unit_import`)
and the drift check (:mod:`reproduce.harness.rederive`), so an edited objective is caught even
with a valid checksum.  The null baseline's unit (:func:`trivial_unit`) lives here too: a
cached one is checked by recomputing it outright.
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["validate_unit", "trivial_unit"]


def validate_unit(key: dict, value) -> str | None:
    """Why a cached unit cannot be trusted (None when it can): its shape, and its solution
    re-checked feasible on the instance with its objective recomputed (an edited objective
    is caught even with a valid checksum)."""
    from g2s.graphs import instance_edges
    from g2s.heuristics import TRIVIAL
    from g2s.problems import InfeasibleSolution, check_solution
    if isinstance(key, dict) and key.get("method") == TRIVIAL and "checkpoint" not in key:
        return _validate_trivial(key, value)
    if not isinstance(value, dict) or not isinstance(value.get("objective"), int) \
            or not isinstance(value.get("solution"), list):
        return "not a unit result (objective and solution)"
    try:
        # the instance as an edge array, built once per process: a 3,200-vertex bipartite
        # graph has 1.9 million edges, seconds to build as a networkx graph for every method
        G = instance_edges(key["family"], key["n"], key["index"])
    except (KeyError, TypeError):
        return "malformed unit key"
    if not all(isinstance(v, int) and v in G for v in value["solution"]):
        return "solution names vertices outside the instance"
    try:
        recomputed = check_solution(key["problem"], G, set(value["solution"]))
    except InfeasibleSolution:
        return "cached solution is infeasible"
    if recomputed != value["objective"]:
        return f"cached objective {value['objective']} != {recomputed} recomputed"
    return None


def _validate_trivial(key: dict, value) -> str | None:
    """A cached trivial-solver unit (mean of its draws) is recomputed outright: its draws take
    milliseconds, and a draw that is not the best one has no solution to check."""
    from g2s.graphs import instance_edges
    if not isinstance(value, dict) or not isinstance(value.get("draws"), list):
        return "not a trivial-solver unit (objective and draws)"
    try:
        fresh = trivial_unit(key["problem"], key["family"], key["n"], key["index"],
                             instance_edges(key["family"], key["n"], key["index"]))
    except (KeyError, TypeError, ValueError):
        return "malformed unit key"
    for field in ("objective", "draws", "solution"):
        if value.get(field) != fresh[field]:
            return f"cached {field} differs from its recomputation"
    return None


def trivial_unit(problem: str, family: str, n: int, index: int, G,
                 t0: float | None = None) -> dict:
    """The null baseline's unit on certified graph ``G`` (family, size, index; a networkx
    graph or, ten times faster on large graphs, its :class:`~g2s.edge_array.EdgeArray`:
    the same answer), for the grids and Figure 2(b) alike: :data:`g2s.heuristics.TRIVIAL_DRAWS`
    draws of the trivial solver
    (:func:`g2s.heuristics.trivial_draws`, seeded by the graph's name), each checked feasible;
    ``objective`` is their mean, ``draws`` each draw's objective, and ``solution`` the best
    draw's (so a draw that beats the reference improves it).  ``time_s`` counts from ``t0``
    (default: now)."""
    from g2s.heuristics import trivial_draws
    t0 = time.time() if t0 is None else t0
    from g2s.problems import SENSE, check_solution
    runs = [(check_solution(problem, G, S), S)
            for _, S in trivial_draws(problem, G, f"{problem}/{family}/{n}/{index}")]
    objs = [o for o, _ in runs]
    sign = 1 if SENSE[problem] == "min" else -1
    best = min(runs, key=lambda r: sign * r[0])[1]
    return {"objective": float(np.mean(objs)), "draws": objs, "best_T": None,
            "time_s": round(time.time() - t0, 3), "solution": sorted(best)}
