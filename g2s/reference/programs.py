"""The 0/1 programs behind :func:`g2s.reference.solver.solve_reference`, for CP-SAT and HiGHS.

``min sum x_v s.t. x_u + x_v >= 1`` (MVC), ``max sum x_v s.t. x_u + x_v <= 1`` (MIS) and
``max sum y_uv s.t. y_uv <= x_u + x_v, y_uv <= 2 - x_u - x_v`` (max cut, one vertex per component
fixed to side 0, plus the triangle inequalities ``y_uv + y_vw + y_uw <= 2`` and
``y_uv <= y_vw + y_uw``, valid because a triangle has 0 or 2 cut edges).  The triangle rows only
tighten the relaxation (the program is exact without them), and writing them is what takes time
on dense graphs (36,000 triangles on ER(400, 0.15): 6 s in Python, whatever the time limit), so
a program gets at most :data:`TRIANGLES_PER_SECOND` triangles per second of its limit, the
first ones in edge order: the model is a function of the graph and the limit, and a short
limit is not overrun by building it.  Each solver function
takes ``(problem, G, time_limit, hint, seed, workers)`` and returns ``(solution or None, the
solver's raw bound on the optimum)``; :mod:`g2s.reference.solver` rounds the bound, adds the exact
special cases and checks every answer.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

__all__ = ["PROGRAMS", "solve_cpsat", "solve_highs", "TRIANGLES_PER_SECOND", "MAX_TRIANGLES",
           "triangle_budget"]

#: triangles of max cut's program per second of its time limit: about a sixth of a second's
#: model building at the rate measured on ER(400, 0.15) (36,000 triangles, 144,000 rows, 6 s),
#: so the rows take a small share of any limit; the paper's 240 s covers every triangle of the
#: evaluation graphs up to 400 vertices
TRIANGLES_PER_SECOND = 1000
#: the most triangles max cut's program writes whatever the limit: its memory, not the time
#: limit, bounds it.  Each triangle is four rows, 1.3 KiB as Python objects (measured: 400,000
#: rows of G(500, 0.5) held 127 MiB) and as much again in the solver's model, so the ceiling
#: keeps the rows near 650 MiB; it still covers the paper's 240 s (240,000 triangles).  Before
#: it, ``--time-limit 3600`` on 500 vertices and 62,000 edges grew to 5.7 GB and died
MAX_TRIANGLES = 250_000


def triangle_budget(time_limit: float) -> int:
    """How many triangles max cut's program may write for ``time_limit`` seconds:
    :data:`TRIANGLES_PER_SECOND` per second, at most :data:`MAX_TRIANGLES`."""
    if not time_limit > 0:
        return 0
    return int(min(MAX_TRIANGLES, TRIANGLES_PER_SECOND * min(time_limit, MAX_TRIANGLES)))


def _cut_structure(G: nx.Graph, idx: dict, max_triangles: int):
    """Edge index, one fixed vertex per component, and the triangle inequality rows of the
    first ``max_triangles`` triangles (module docstring)."""
    eidx = {frozenset(e): k for k, e in enumerate(G.edges())}
    fixed = [idx[min(c, key=repr)] for c in nx.connected_components(G)]
    rows = []  # (coefficients {edge: c}, upper bound)
    for u, v in G.edges():
        a, b = sorted((u, v), key=idx.__getitem__)
        for w in set(G[a]) & set(G[b]):
            if idx[w] > idx[b]:
                if len(rows) >= 4 * max_triangles:
                    return eidx, fixed, rows
                e = (eidx[frozenset((a, b))], eidx[frozenset((b, w))], eidx[frozenset((a, w))])
                rows.append(({e[0]: 1, e[1]: 1, e[2]: 1}, 2))
                rows += [({p: 1, q: -1, r: -1}, 0) for p, q, r in (e, e[1:] + e[:1], e[2:] + e[:2])]
    return eidx, fixed, rows


def _solve_interruptibly(solver, model):
    """``solver.Solve(model)`` that leaves Ctrl-C to Python.

    CP-SAT's own SIGINT handler (``catch_sigint_signal``, on by default) stays installed as the
    C-level handler after the solve: a later Ctrl-C then killed the process by the signal, with
    no message and exit status -2 (seen by tests/g2s/test_bad_inputs.py in CI). Here CP-SAT does
    not touch SIGINT; the solve runs in a worker thread so that the main thread, waiting on it,
    receives KeyboardInterrupt at once, stops the search and re-raises."""
    import threading

    solver.parameters.catch_sigint_signal = False
    box, done = {}, threading.Event()

    def work():
        try:
            box["status"] = solver.Solve(model)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            box["error"] = exc
        finally:
            done.set()

    # an Event, not Thread.join: a KeyboardInterrupt inside join() marks a live thread as
    # stopped (CPython 3.11), and the still-running solver then aborted the process at exit
    threading.Thread(target=work, name="cp-sat", daemon=True).start()
    try:
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        solver.stop_search()
        while not done.wait(0.05):
            pass
        raise
    if "error" in box:
        raise box["error"]
    return box["status"]


def solve_cpsat(problem, G, time_limit, hint, seed, workers):
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
        eidx, fixed, rows = _cut_structure(G, idx, triangle_budget(time_limit))
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
    status = _solve_interruptibly(solver, model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        raise RuntimeError(f"CP-SAT returned {solver.StatusName(status)}")
    if status == cp_model.UNKNOWN:  # stopped before proving anything: BestObjectiveBound()
        # is then 0, not a bound, for a maximisation; only the trivial bound holds
        return None, {"mvc": 0, "mis": len(nodes), "maxcut": len(edges)}[problem]
    S = {v for i, v in enumerate(nodes) if solver.BooleanValue(x[i])}
    return S, solver.BestObjectiveBound()


def solve_highs(problem, G, time_limit, hint, seed, workers):
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
        _, fixed, tri = _cut_structure(G, idx, triangle_budget(time_limit))
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


#: backend name -> solver function
PROGRAMS = {"cpsat": solve_cpsat, "highs": solve_highs}
