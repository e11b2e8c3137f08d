"""Theorem 1's units of work (each cached under a key of all that determines it) and
:func:`compute`, which runs them (serially, ``--workers N`` or ``--scheduler``) and pools them
into the script's JSON."""

from __future__ import annotations

import time

import networkx as nx
import numpy as np

from reproduce.theorem1_parts.config import BURN_IN, MAX_IN_DEGREE, PROFILES, TARGET
from reproduce.theorem1_parts.measures import rate_interval, recovery_point

__all__ = ["selected_unit", "selected_key", "SELECTED_VERSION", "recovery_unit",
           "proposition1_unit", "load_tigramite_comparison", "compute"]


def selected_unit(n: int, d: int, T: int, graph: int, seed: int) -> dict:
    """Recover the ``graph``-th bounded-in-degree instance from T transitions by
    :func:`theory.parent_selection.selected_parents_graph` (its defaults)."""
    from theory.dynamics import recovery_instance
    from theory.parent_selection import selected_parents_graph

    G, _, X = recovery_instance(n, d, T, graph, seed=seed, max_in_degree=MAX_IN_DEGREE)
    t0 = time.perf_counter()
    est = selected_parents_graph(X, seed=[seed, graph, T, 16])
    elapsed = time.perf_counter() - t0
    truth, found = set(G.edges()), set(est.graph.edges())
    return {"exact": truth == found, "tp": len(truth & found), "fp": len(found - truth),
            "fn": len(truth - found), "edges": len(truth), "tests": est.tests,
            "seconds": elapsed}


def recovery_unit(kind: str, n: int, d: int, T: int, sigma: float, method: str, graph: int,
                  seed: int, burn_in: int = 0) -> dict:
    """Recover one random graph from T transitions (after ``burn_in`` discarded steps)."""
    from theory.directed_information import directed_information_graph, undirected_from_directed
    from theory.dynamics import draw_generic_parameters, simulate_trajectory

    rng = np.random.default_rng([seed, n, d, graph, int(kind == "directed")])
    G = nx.gnp_random_graph(n, 0.5, seed=int(rng.integers(2**31)), directed=kind == "directed")
    params = draw_generic_parameters(G, d, sigma=sigma, seed=rng)
    X = simulate_trajectory(G, params, T + burn_in, seed=rng)[burn_in:]  # same noise prefix
    t0 = time.perf_counter()
    est = directed_information_graph(X, method=method, seed=[seed, graph, T])
    elapsed = time.perf_counter() - t0
    if kind == "directed":
        truth, found = set(G.edges()), set(est.graph.edges())
    else:
        truth = set(map(frozenset, G.edges()))
        found = set(map(frozenset, undirected_from_directed(est.graph).edges()))
    return {"exact": truth == found, "missing": len(truth - found), "extra": len(found - truth),
            "edges": len(truth), "seconds": elapsed}


def proposition1_unit(which: int, T: int, draw: int, seed: int) -> dict:
    """Recover R1 (``which = 0``) or R2 from a noisy trajectory (sigma = 1, d = 1, zero start)
    by the full-conditioning estimator (OR rule for the undirected graph).  Not the
    selected-parent one: on these 4-regular graphs (in-degree 4, so every edge is weak) its
    greedy search recovered R1 / R2 in only 4 / 7 of 10 draws at t = 2000 (a ci-profile run)
    against 9 / 10 for full conditioning."""
    from theory.directed_information import directed_information_graph, undirected_from_directed
    from theory.dynamics import draw_generic_parameters, simulate_trajectory
    from theory.regular_graphs import proposition1_graphs

    G = proposition1_graphs()[which]
    rng = np.random.default_rng([seed, 88, which, draw])
    params = draw_generic_parameters(G, 1, seed=rng)
    X = simulate_trajectory(G, params, T, seed=rng)
    est = undirected_from_directed(directed_information_graph(X, seed=[seed, draw, T]).graph)
    return {"exact": set(map(frozenset, est.edges())) == set(map(frozenset, G.edges()))}


def _point(run, pool, kind, n, d, T, sigma, method, graphs, seed, burn_in=0) -> dict:
    keys = [dict(kind=kind, n=n, d=d, T=T, sigma=sigma, method=method, graph=g, seed=seed,
                 version=1, **({"burn_in": burn_in} if burn_in else {})) for g in range(graphs)]
    todo = [(k, (kind, n, d, T, sigma, method, k["graph"], seed, burn_in)) for k in keys]
    if pool is None:
        units = [run.cache.get_or_compute(k, lambda a=a: recovery_unit(*a)) for k, a in todo]
    else:
        futures = [pool.submit(recovery_unit, *a) for _, a in todo]
        units = [run.cache.get_or_compute(k, f.result) for (k, _), f in zip(todo, futures)]
    errors = sum(not u["exact"] for u in units)
    lo, hi = rate_interval(errors, graphs)
    from theory.directed_information import recovery_alpha
    return {"nominal_familywise_alpha": recovery_alpha(T), "burn_in": burn_in,
            "graphs_with_false_edges": int(sum(u["extra"] > 0 for u in units)),
            "kind": kind, "n": n, "d": d, "T": T, "sigma": sigma, "method": method,
            "graphs": graphs, "errors": errors, "error_rate": errors / graphs,
            "error_ci95": [lo, hi], "mean_seconds": float(np.mean([u["seconds"] for u in units])),
            "missing_edges": int(sum(u["missing"] for u in units)),
            "extra_edges": int(sum(u["extra"] for u in units))}


#: bumped whenever :func:`selected_unit`'s estimator changes (3: every forward step re-ranks
#: all n - 1 candidates)
SELECTED_VERSION = 3


def selected_key(n: int, d: int, T: int, graph: int, seed: int) -> dict:
    """The cache key of :func:`selected_unit` (also read by benchmarks/bench_graph_recovery.py)."""
    return dict(kind="selected", n=n, d=d, T=T, graph=graph, seed=seed, max_in=MAX_IN_DEGREE,
                version=SELECTED_VERSION)


def _selected_units(run, pool, n, d, T, graphs, seed, cached_only=False) -> list[dict]:
    """The first ``graphs`` recoveries at (n, d, T), from the cache or computed (resumable);
    ``cached_only``: just those already cached."""
    keys = [selected_key(n, d, T, g, seed) for g in range(graphs)]
    if cached_only:
        keys = [k for k in keys if run.cache.contains(k)]
    todo = [k for k in keys if not run.cache.contains(k)]
    futures = {} if pool is None else {
        id(k): pool.submit(selected_unit, n, d, T, k["graph"], seed) for k in todo}
    return [run.cache.get_or_compute(
        k, (lambda k=k: selected_unit(n, d, T, k["graph"], seed)) if id(k) not in futures
        else futures[id(k)].result) for k in keys]


def load_tigramite_comparison() -> dict | None:
    """The committed benchmark JSON (``benchmarks/bench_graph_recovery.py``), if present."""
    import json

    from reproduce.common import REPO_ROOT
    path = REPO_ROOT / "benchmarks" / "results" / "graph_recovery.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return {"source": "benchmarks/results/graph_recovery.json",
            "rows": data.get("comparison", []), "status": data.get("tigramite", "unknown")}


def compute(args, run) -> dict:
    prof = PROFILES[args.profile]
    g, seed = prof["graphs"], args.seed
    rec = prof["recovery"]
    from reproduce.harness.engine import open_pool
    pool = open_pool(args)  # None (serial), a process pool or a Dask client (--scheduler)
    try:
        from tqdm import tqdm
        kind, n, d = prof["knn"]
        knn = {m: [_point(run, pool, kind, n, d, T, 1.0, m, g, seed) for T in prof["knn_T"]]
               for m in ("kde", "knn")}
        kind, n, d = prof["sigma_setting"]
        sig = [_point(run, pool, kind, n, d, prof["sigma_T"], s, "kde", g, seed)
               for s in tqdm(prof["sigmas"], desc="sigma")]
        sig_burn = [_point(run, pool, kind, n, d, prof["sigma_T"], s, "kde", g, seed,
                           burn_in=BURN_IN) for s in tqdm(prof["sigmas"], desc="sigma, burn-in")]
        prop1 = []
        for which in (0, 1):
            for T in prof["prop1_T"]:
                ok = [run.cache.get_or_compute(
                    dict(kind="prop1", which=which, T=T, draw=r, seed=seed, version=1),
                    lambda w=which, T=T, r=r: proposition1_unit(w, T, r, seed))["exact"]
                    for r in range(prof["prop1_draws"])]
                prop1.append({"graph": ("R1", "R2")[which], "T": T, "draws": len(ok),
                              "exact_rate": float(np.mean(ok)),
                              "exact_ci95": rate_interval(int(sum(ok)), len(ok))})
        grid = [(n, d, T) for n, d in rec["settings"] for T in rec["T"][n]]
        final = {(n, d): max(rec["T"][n]) for n, d in rec["settings"]}
        partial = getattr(args, "partial", False)
        if not partial:
            # every point at `graphs` graphs first, then the longest t's up to `final_graphs`
            for n, d, T in tqdm(grid, desc="recovery"):
                _selected_units(run, pool, n, d, T, rec["graphs"], seed)
            for (n, d), T in tqdm(list(final.items()), desc="recovery, longest t"):
                _selected_units(run, pool, n, d, T, rec["final_graphs"], seed)
        curves = []
        for n, d in rec["settings"]:
            pts = []
            for T in rec["T"][n]:
                want = rec["final_graphs"] if T == final[(n, d)] else rec["graphs"]
                units = _selected_units(run, pool, n, d, T, want, seed, cached_only=partial)
                if units:
                    pts.append({**recovery_point(units, n, d, T), "graphs_planned": want})
            if pts:
                curves.append({"n": n, "d": d, "points": pts})
    finally:
        if pool is not None:
            pool.shutdown()
    planned = sum(rec["final_graphs"] if T == final[(n, d)] else rec["graphs"]
                  for n, d, T in grid)
    done = sum(p["graphs"] for c in curves for p in c["points"])
    return {"target_exact_recovery": TARGET,
            "complete": done == planned, "recoveries_done": done, "recoveries_planned": planned,
            "recovery": {"graph_family": f"random directed, in-degree uniform on "
                                         f"{{0..{MAX_IN_DEGREE}}}, parents uniform",
                         "estimator": "theory.parent_selection.selected_parents_graph "
                                      "(defaults)", "curves": curves},
            "tigramite": load_tigramite_comparison(),
            "estimator_comparison": {"setting": prof["knn"], **knn},
            "sigma_sweep": {"setting": prof["sigma_setting"], "T": prof["sigma_T"],
                            "points": sig, "burn_in": BURN_IN, "points_after_burn_in": sig_burn},
            "proposition1_recovery": prop1, "settings": {k: v for k, v in prof.items()}}
