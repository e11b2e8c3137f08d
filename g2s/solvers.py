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
* ``cpsat`` (OR-Tools CP-SAT) or ``highs`` (scipy.optimize.milp): the 0/1 programs
  ``min sum x_v s.t. x_u + x_v >= 1`` (MVC), ``max sum x_v s.t. x_u + x_v <= 1`` (MIS) and
  ``max sum y_uv s.t. y_uv <= x_u + x_v, y_uv <= 2 - x_u - x_v`` (max cut, one vertex per
  component fixed to side 0, plus the triangle inequalities ``y_uv + y_vw + y_uw <= 2`` and
  ``y_uv <= y_vw + y_uw``, valid because a triangle has 0 or 2 cut edges); the max-cut bound
  is the smaller of the solver's and the eigenvalue bound :func:`max_cut_eigenvalue_bound`.
  CP-SAT starts from a hint (by default :func:`g2s.heuristics.best_heuristic`); scipy's HiGHS
  takes no start, but the hint is returned whenever it beats HiGHS's incumbent.  The time
  limit is wall clock, so results under a time limit can differ between runs and machines.

Every returned solution passes :func:`g2s.problems.check_solution`.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass

import networkx as nx
import numpy as np

from g2s.exact_solvers import (
    ENUMERATION_MAX_VERTICES,
    EXACT_METHODS,
    bipartite_matching_number,
    max_cut_eigenvalue_bound,
)
from g2s.problems import PROBLEMS, SENSE, check_solution, is_feasible

__all__ = [
    "ReferenceResult", "solve_reference", "bipartite_matching_number",
    "max_cut_eigenvalue_bound", "BACKENDS",
    "ENUMERATION_MAX_VERTICES",
]

BACKENDS = ("auto", "cpsat", "highs", "enumeration", "konig", "tree-dp", "bipartite-cut")


@dataclass(frozen=True)
class ReferenceResult:
    """A reference solution with a proven bound on the optimum.

    ``bound`` is in the objective's units: ``bound <= OPT <= objective`` for MVC and
    ``objective <= OPT <= bound`` for max cut and MIS; ``status == "optimal"`` iff they meet.
    """

    problem: str
    objective: int
    solution: tuple
    bound: int
    status: str
    method: str
    seconds: float

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
        fields = ("problem", "objective", "bound", "status", "method", "seconds")
        kw = {k: data[k] for k in fields}
        return cls(solution=tuple(data["solution"]), **kw)


def _sorted(S) -> tuple:
    try:
        return tuple(sorted(S))
    except TypeError:
        return tuple(sorted(S, key=repr))


def _int_bound(problem: str, value: float) -> int:
    """Round a solver's bound to the integer bound it implies (objectives are integers)."""
    if SENSE[problem] == "min":
        return math.ceil(value - 1e-6)
    return math.floor(value + 1e-6)


def _better(problem: str, a: int, b: int) -> bool:
    return a < b if SENSE[problem] == "min" else a > b


# --- 0/1 programs ------------------------------------------------------------------------------

def _cut_structure(G: nx.Graph, idx: dict):
    """Edge index, one fixed vertex per component, and the triangle inequality rows."""
    eidx = {frozenset(e): k for k, e in enumerate(G.edges())}
    fixed = [idx[min(c, key=repr)] for c in nx.connected_components(G)]
    rows = []  # (coefficients {edge: c}, upper bound)
    for u, v in G.edges():
        a, b = sorted((u, v), key=idx.__getitem__)
        for w in set(G[a]) & set(G[b]):
            if idx[w] > idx[b]:
                e = (eidx[frozenset((a, b))], eidx[frozenset((b, w))], eidx[frozenset((a, w))])
                rows.append(({e[0]: 1, e[1]: 1, e[2]: 1}, 2))
                rows += [({p: 1, q: -1, r: -1}, 0) for p, q, r in (e, e[1:] + e[:1], e[2:] + e[:2])]
    return eidx, fixed, rows


def _cpsat(problem, G, time_limit, hint, seed, workers):
    from ortools.sat.python import cp_model

    nodes = list(G)
    idx = {v: i for i, v in enumerate(nodes)}
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{i}") for i in range(len(nodes))]
    edges = [(idx[u], idx[v]) for u, v in G.edges()]
    if problem == "mvc":
        for i, j in edges:
            model.AddBoolOr([x[i], x[j]])
        model.Minimize(sum(x))
    elif problem == "mis":
        for i, j in edges:
            model.AddBoolOr([x[i].Not(), x[j].Not()])
        model.Maximize(sum(x))
    else:
        eidx, fixed, rows = _cut_structure(G, idx)
        y = [model.NewBoolVar(f"y{k}") for k in range(len(edges))]
        for k, (i, j) in enumerate(edges):
            model.Add(y[k] <= x[i] + x[j])
            model.Add(y[k] + x[i] + x[j] <= 2)
        for coef, ub in rows:
            model.Add(sum(c * y[k] for k, c in coef.items()) <= ub)
        for i in fixed:
            model.Add(x[i] == 0)
        model.Maximize(sum(y))
    if hint is not None:
        for i, v in enumerate(nodes):
            model.AddHint(x[i], v in hint)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    solver.parameters.linearization_level = 2  # full LP relaxation: far better bounds
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        raise RuntimeError(f"CP-SAT returned {solver.StatusName(status)}")
    S = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        S = {v for i, v in enumerate(nodes) if solver.BooleanValue(x[i])}
    return S, solver.BestObjectiveBound()


def _highs(problem, G, time_limit, hint, seed, workers):
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_array

    nodes = list(G)
    n, idx = len(nodes), {v: i for i, v in enumerate(nodes)}
    edges = [(idx[u], idx[v]) for u, v in G.edges()]
    m = len(edges)
    data, rows, cols, lo, hi = [], [], [], [], []

    def add_row(coef: dict, lb: float, ub: float) -> None:
        r = len(lo)
        for col, c in coef.items():
            rows.append(r)
            cols.append(col)
            data.append(c)
        lo.append(lb)
        hi.append(ub)

    ub = np.ones(n if problem != "maxcut" else n + m)
    if problem in ("mvc", "mis"):
        c = np.ones(n) if problem == "mvc" else -np.ones(n)
        for i, j in edges:
            add_row({i: 1, j: 1}, *((1, np.inf) if problem == "mvc" else (-np.inf, 1)))
    else:
        c = np.concatenate([np.zeros(n), -np.ones(m)])
        _, fixed, tri = _cut_structure(G, idx)
        for k, (i, j) in enumerate(edges):
            add_row({n + k: 1, i: -1, j: -1}, -np.inf, 0)
            add_row({n + k: 1, i: 1, j: 1}, -np.inf, 2)
        for coef, rhs in tri:
            add_row({n + k: cf for k, cf in coef.items()}, -np.inf, rhs)
        ub[fixed] = 0
    cons = []
    if lo:
        A = coo_array((data, (rows, cols)), shape=(len(lo), c.size)).tocsr()
        cons = [LinearConstraint(A, lo, hi)]
    opts = {"time_limit": float(time_limit), "disp": False, "mip_rel_gap": 0.0}
    res = milp(c, integrality=np.ones(c.size), bounds=Bounds(0, ub), constraints=cons,
               options=opts)
    if res.status not in (0, 1):
        raise RuntimeError(f"HiGHS failed: {res.message}")
    S = None if res.x is None else {v for i, v in enumerate(nodes) if res.x[i] > 0.5}
    dual = getattr(res, "mip_dual_bound", None)
    if dual is None or not np.isfinite(dual):
        dual = res.fun if res.status == 0 else (0.0 if problem == "mvc" else -float(c.size))
    return S, (dual if problem == "mvc" else -dual)


_EXACT = EXACT_METHODS
_PROGRAMS = {"cpsat": _cpsat, "highs": _highs}


def _default_hint(problem: str, G: nx.Graph):
    try:
        from g2s.heuristics import best_heuristic
    except ImportError:  # heuristics not available: fall back to a maximal matching cover
        cover = {x for e in nx.maximal_matching(G) for x in e}
        return cover if problem == "mvc" else set(G) - cover if problem == "mis" else None
    return set(best_heuristic(problem, G))


def _auto_method(problem: str, G: nx.Graph, program: str) -> str:
    if G.number_of_edges() == 0:
        return "trivial"
    if problem != "maxcut" and nx.is_forest(G):
        return "tree-dp"
    if nx.is_bipartite(G):
        return "bipartite-cut" if problem == "maxcut" else "konig"
    return "enumeration" if G.number_of_nodes() <= ENUMERATION_MAX_VERTICES else program


def _solve_part(problem, G, method, time_limit, hint, seed, workers):
    """Solve one (sub)graph; returns ``(solution, objective, integer bound)``."""
    if method == "trivial":
        S, bound = (set(G) if problem == "mis" else set()), None
    elif method in _EXACT:
        S, bound = _EXACT[method](problem, G)
    else:
        if hint is not None and not is_feasible(problem, G, hint & set(G)):
            raise ValueError("the hint is not a feasible solution")
        hint = _default_hint(problem, G) if hint is None else hint & set(G)
        S, raw = _PROGRAMS[method](problem, G, max(time_limit, 0.01), hint, seed, workers)
        bound = _int_bound(problem, raw)
        if problem == "maxcut":  # the LP bound of max cut is weak on dense graphs
            spectral = max_cut_eigenvalue_bound(G)
            bound = bound if spectral is None else min(bound, spectral)
        fallback = hint if hint is not None else (set(G) if problem == "mvc" else set())
        if S is None or _better(problem, check_solution(problem, G, fallback),
                                check_solution(problem, G, S)):
            S = fallback
    value = check_solution(problem, G, S)
    bound = value if bound is None else bound
    if _better(problem, value, bound):
        raise AssertionError(f"{method}: objective {value} beats its proven bound {bound}")
    return S, value, bound


def solve_reference(problem: str, G: nx.Graph, time_limit: float = 240.0, backend: str = "auto",
                    hint=None, seed: int = 0, workers: int = 1) -> ReferenceResult:
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
        A feasible starting solution; default: the best classical heuristic.
    seed : int
        CP-SAT's random seed (HiGHS runs with its default seed).
    workers : int
        CP-SAT search workers; 1 (default) for reproducible runs.
    """
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
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
        except ImportError:
            program = "highs"
        comps = [G.subgraph(c) for c in nx.connected_components(G)]
        parts = [(H, _auto_method(problem, H, program)) for H in comps]
        parts.sort(key=lambda p: (p[1] in _PROGRAMS, p[0].number_of_nodes()))
    hard_left = sum(H.number_of_nodes() for H, meth in parts if meth in _PROGRAMS)
    solution, value, bound, methods = set(), 0, 0, set()
    for H, meth in parts:
        budget = time_limit
        if meth in _PROGRAMS and backend == "auto":
            remaining = time_limit - (time.perf_counter() - start)
            budget = remaining * H.number_of_nodes() / hard_left
            hard_left -= H.number_of_nodes()
        S, v, b = _solve_part(problem, H, meth, budget, hint, seed, workers)
        solution |= S
        value += v
        bound += b
        methods.add(meth)
    if check_solution(problem, G, solution) != value:
        raise AssertionError("component objectives do not add up")
    method = "+".join(sorted(methods - {"trivial"})) or "trivial"
    return ReferenceResult(problem=problem, objective=value, solution=_sorted(solution),
                           bound=bound, status="optimal" if value == bound else "time_limit",
                           method=method, seconds=round(time.perf_counter() - start, 4))
