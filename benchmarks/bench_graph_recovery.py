"""Graph recovery from Graph2Seq trajectories: speed of the harness's estimator, and the harness
beside tigramite's PCMCI on the same trajectories.

Writes ``benchmarks/results/graph_recovery.json`` (and the note's table, rendered from it, as
``graph_recovery.md``):

* ``speed``: seconds for one recovery by :func:`theory.parent_selection.selected_parents_graph`
  at n = 20, t = 5,000 (d = 1 and 2; goal <= 60 s), and the fitted exponents ``a`` of
  ``seconds ~ n^a`` (t = 2,000) and ``seconds ~ t^a`` (n = 20), least squares on log-log.
* ``comparison``: exact-recovery rate (Wilson 95% interval, ``scipy.stats.binomtest``), edge
  precision and recall (pooled over graphs) and seconds per graph for the harness's estimator
  ("DI (ours)"), PCMCI + ParCorr and PCMCI + CMIknn, on the same trajectories
  (:func:`theory.dynamics.recovery_instance`, seed 0, the graphs of reproduce/theorem1.py's ci
  profile), d = 1 (tigramite's variables are scalars), tau_min = tau_max = 1.  Same level: an
  edge ``u -> v`` is declared when its p-value is below ``alpha_t / (n (n - 1))``
  (Bonferroni, family-wise ``alpha_t`` = :func:`theory.directed_information.recovery_alpha`),
  for PCMCI the MCI p-value at lag 1; PCMCI's PC1 condition selection runs at
  ``pc_alpha = 0.05``.  CMIknn's p-values come from ``sig_samples`` shuffles with a normal fitted
  to them (``null_fit="normal"``, the analogue of our t fit to the surrogates): its default
  empirical p-value is at least ``1 / (sig_samples + 1)``, far above ``alpha_t / (n (n-1))``,
  and declares nothing (what an earlier run of this script measured).  CMIknn is slow (a k-NN
  shuffle test per pair), so it runs on fewer graphs, within a time budget per setting;
  ``graphs`` says how many.  Our rows reuse reproduce/theorem1.py's cached
  recoveries of the same instances when its ci run has them (same call, same seeds;
  ``from_theorem1_cache`` counts them, their seconds are the ones measured there).

tigramite is an optional benchmark-only dependency (``pip install -e .[bench]``); without it the
comparison is skipped with a message and only our rows are written.  Run with
``OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_graph_recovery.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np
from scipy.stats import binomtest

from theory.directed_information import recovery_alpha
from theory.dynamics import recovery_instance
from theory.parent_selection import selected_parents_graph

OUT = Path(__file__).resolve().parent / "results" / "graph_recovery.json"
SEED = 0  # reproduce/theorem1.py's default seed: the same trajectories
# (n, t): reproduce/theorem1.py's ci points (d = 1)
SETTINGS = [(6, 500), (6, 2000), (12, 1000), (12, 3000), (12, 10000), (20, 1000), (20, 3000),
            (20, 10000)]
# CMIknn only at the shortest t of each n (one graph at n = 6, t = 2000 took more than 200 s;
# so did one at t = 500 with 100 shuffles); within its budget, or skipped with the reason
ONLY = {"PCMCI + CMIknn": [(6, 500), (12, 1000), (20, 1000)]}
GRAPHS = {"DI (ours)": 50, "PCMCI + ParCorr": 50, "PCMCI + CMIknn": 3}
# seconds of computing per (setting, tool); recoveries reused from theorem1's cache are free
BUDGET_S = {"DI (ours)": 900, "PCMCI + ParCorr": 600, "PCMCI + CMIknn": 420}
PC_ALPHA = 0.05
CMIKNN_SHUFFLES = 20  # 100 shuffles: ~2.4 s per test at t = 500, ~300 s per graph at n = 6


def _edges_ours(X, graph, T):
    return set(selected_parents_graph(X, seed=[SEED, graph, T, 16]).graph.edges())


def _cached_ours(n, T, graph):
    """reproduce/theorem1.py's finished recovery of this very instance (same seeds, same
    estimator call), if its ci run has cached it: ``(exact, tp, fp, fn, seconds)``."""
    import sys
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:  # run as python benchmarks/bench_graph_recovery.py
        sys.path.insert(0, root)
    from reproduce.common import DEFAULT_OUT, UnitCache
    from reproduce.theorem1_parts.units import selected_key

    cache = UnitCache(DEFAULT_OUT / ".cache" / "theorem1")
    key = selected_key(n, 1, T, graph, SEED)
    if not cache.contains(key):
        return None
    u = cache.get_or_compute(key, lambda: None)
    return u["exact"], u["tp"], u["fp"], u["fn"], u["seconds"]


def _edges_pcmci(test_name):
    def run(X, graph, T):
        from tigramite import data_processing as pp
        from tigramite.independence_tests.cmiknn import CMIknn
        from tigramite.independence_tests.parcorr import ParCorr
        from tigramite.pcmci import PCMCI

        n = X.shape[1]
        level = recovery_alpha(T) / (n * (n - 1))
        test = ParCorr() if test_name == "parcorr" else CMIknn(
            significance="shuffle_test", sig_samples=CMIKNN_SHUFFLES,
            null_fit="normal",  # a normal fitted to the shuffles, as our t fit: p below 1/(B+1)
            sig_blocklength=1,  # i.i.d. shuffles; also avoids tigramite 5.2's np.corrcoef(ddof)
            seed=graph)
        res = PCMCI(dataframe=pp.DataFrame(X[:, :, 0]), cond_ind_test=test,
                    verbosity=0).run_pcmci(tau_min=1, tau_max=1, pc_alpha=PC_ALPHA,
                                           alpha_level=level)
        p = res["p_matrix"][:, :, 1]
        return {(u, v) for u in range(n) for v in range(n) if u != v and p[u, v] < level}
    return run


def _child(q, fn, args):
    try:
        q.put(fn(*args))
    except BaseException as exc:  # noqa: BLE001 - handed back to the parent
        q.put(exc)


def _with_timeout(fn, seconds, *args):
    """``fn(*args)`` in a forked child, or ``TimeoutError`` (the child terminated) after
    ``seconds``.  A child, not SIGALRM: interrupting tigramite's multi-threaded k-d tree with a
    signal crashed the interpreter (general protection fault in scipy's _ckdtree)."""
    import multiprocessing as mp
    import queue

    ctx = mp.get_context("fork")
    q = ctx.Queue()
    proc = ctx.Process(target=_child, args=(q, fn, args))
    proc.start()
    try:
        out = q.get(timeout=seconds)
    except queue.Empty:
        proc.terminate()
        proc.join()
        raise TimeoutError from None
    proc.join()
    if isinstance(out, BaseException):
        raise out
    return out


def compare(tools, settings, graphs, budget) -> list[dict]:
    rows = []
    for n, T in settings:
        for tool, fn in tools.items():
            if tool in ONLY and (n, T) not in ONLY[tool]:
                continue
            exact = tp = fp = fn_ = 0
            secs = []
            timed_out = False
            reused, spent = 0, 0.0   # spent: seconds computed here (reused ones are free)
            for g in range(graphs[tool]):
                hit = _cached_ours(n, T, g) if tool == "DI (ours)" else None
                if hit is not None:
                    exact, tp, fp, fn_ = (exact + hit[0], tp + hit[1], fp + hit[2],
                                          fn_ + hit[3])
                    secs.append(hit[4])
                    reused += 1
                    continue
                G, _, X = recovery_instance(n, 1, T, g, seed=SEED)
                t0 = time.perf_counter()
                try:
                    found = _with_timeout(fn, max(1, budget[tool] - spent), X, g, T)
                except TimeoutError:
                    timed_out = True
                    break
                secs.append(time.perf_counter() - t0)
                truth = set(G.edges())
                exact += found == truth
                tp += len(found & truth)
                fp += len(found - truth)
                fn_ += len(truth - found)
                spent += secs[-1]
                if spent > budget[tool]:
                    break
            m = len(secs)
            if m == 0:
                row = {"tool": tool, "n": n, "d": 1, "T": T, "graphs": 0,
                       "skipped": f"the first graph took longer than {budget[tool]} s"}
                print(row, flush=True)
                rows.append(row)
                continue
            exact = int(exact)
            ci = binomtest(exact, m).proportion_ci(0.95, method="wilson")
            row = {"tool": tool, "n": n, "d": 1, "T": T, "graphs": m, "exact": exact,
                   "exact_rate": exact / m, "exact_ci95": [float(ci.low), float(ci.high)],
                   "precision": tp / max(1, tp + fp), "recall": tp / max(1, tp + fn_),
                   "false_edges": fp, "missing_edges": fn_,
                   "seconds_per_graph": float(np.mean(secs)),
                   **({"from_theorem1_cache": reused} if reused else {}),
                   **({"stopped": f"graph {m + 1} ran past the {budget[tool]:g} s budget"}
                      if timed_out else {})}
            print(row, flush=True)
            rows.append(row)
    return rows


def _time_one(n, d, T, graph=0):
    _, _, X = recovery_instance(n, d, T, graph, seed=SEED)
    t0 = time.perf_counter()
    selected_parents_graph(X, seed=[SEED, graph, T, 16])
    return time.perf_counter() - t0


def _exponent(xs, ts):
    return float(np.polyfit(np.log(xs), np.log(ts), 1)[0])


def speed(quick: bool) -> dict:
    reps = 1 if quick else 2
    at_goal = {d: [_time_one(20, d, 5000, g) for g in range(reps)] for d in (1, 2)}
    ns, Ts = [6, 12, 20], [1000, 2000, 5000, 10000]
    t_n = [float(np.mean([_time_one(n, 1, 2000, g) for g in range(reps)])) for n in ns]
    t_T = [float(np.mean([_time_one(20, 1, T, g) for g in range(reps)])) for T in Ts]
    out = {"n20_t5000_seconds": {f"d={d}": [round(s, 2) for s in v] for d, v in at_goal.items()},
           "goal_seconds": 60,
           "seconds_by_n_at_t2000": dict(zip(map(str, ns), np.round(t_n, 2).tolist())),
           "exponent_n": round(_exponent(ns, t_n), 2),
           "seconds_by_t_at_n20": dict(zip(map(str, Ts), np.round(t_T, 2).tolist())),
           "exponent_t": round(_exponent(Ts, t_T), 2),
           "note": "d = 1 for the exponents; t >= query_points (1000) evaluates the plug-in at "
                   "1000 query rows, so the cost is linear in t there"}
    print(out, flush=True)
    return out


def render_markdown(result: dict) -> str:
    """The note's tables (``results/graph_recovery.md``), rendered from the JSON."""
    lines = ["# Graph recovery: the harness's DI estimator beside tigramite's PCMCI", "",
             f"Same trajectories (seed {result['seed']}, d = 1), same per-pair level "
             f"({result['level']}); PCMCI: tau_min = tau_max = 1, pc_alpha = "
             f"{result['pc_alpha']}; CMIknn: {result['cmiknn_sig_samples']} shuffles, normal fit. "
             f"tigramite: {result['tigramite']}. Machine: {result['cpus']} CPUs, load "
             f"{result['load_average_at_start'][0]:.1f} at start (shared).", "",
             "| n | t | tool | graphs | exact recovery [95% Wilson] | precision | recall | "
             "false edges | missing edges | s / graph |", "|---" * 10 + "|"]
    for r in result["comparison"]:
        if not r.get("graphs"):
            lines.append(f"| {r['n']} | {r['T']} | {r['tool']} | 0 | {r.get('skipped', '')} "
                         "| | | | | |")
            continue
        lo, hi = r["exact_ci95"]
        lines.append(f"| {r['n']} | {r['T']} | {r['tool']} | {r['graphs']} | "
                     f"{r['exact_rate']:.2f} [{lo:.2f}, {hi:.2f}] | {r['precision']:.3f} | "
                     f"{r['recall']:.3f} | {r['false_edges']} | {r['missing_edges']} | "
                     f"{r['seconds_per_graph']:.2f} |")
    sp = result.get("speed")
    if sp:
        lines += ["", "## Speed of one recovery (ours)", "",
                  f"n = 20, t = 5,000: {sp['n20_t5000_seconds']} s (goal <= "
                  f"{sp['goal_seconds']} s). Seconds by n at t = 2,000: "
                  f"{sp['seconds_by_n_at_t2000']} -> exponent in n {sp['exponent_n']}; by t at "
                  f"n = 20: {sp['seconds_by_t_at_n20']} -> exponent in t {sp['exponent_t']} "
                  f"({sp['note']})."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one graph per tool, no speed fit")
    ap.add_argument("--reuse-speed", action="store_true",
                    help="keep the speed entry of the existing JSON (rerun the comparison only)")
    ap.add_argument("--tools", nargs="+", choices=list(GRAPHS), metavar="TOOL",
                    help="rerun only these tools' rows (quoted names: " +
                         ", ".join(map(repr, GRAPHS)) + "); the other tools' rows are kept "
                         "from the existing JSON")
    ap.add_argument("--settings", nargs="+", metavar="N:T",
                    help="rerun only these (n, t) points (e.g. 20:1000); the other points' rows "
                         "are kept from the existing JSON")
    ap.add_argument("--budget", nargs="+", metavar="TOOL=SECONDS", default=[],
                    help="seconds of computing per (setting, tool), overriding the defaults " +
                         ", ".join(f"{k!r}={v}" for k, v in BUDGET_S.items()))
    args = ap.parse_args(argv)
    budget = dict(BUDGET_S)
    for item in args.budget:
        name, _, secs = item.rpartition("=")
        if name not in BUDGET_S or not secs.replace(".", "", 1).isdigit():
            ap.error(f"--budget: expected TOOL=SECONDS with TOOL one of {list(BUDGET_S)}, "
                     f"got {item!r}")
        budget[name] = float(secs)
    settings = SETTINGS
    if args.settings:
        try:
            settings = [tuple(int(v) for v in x.split(":")) for x in args.settings]
        except ValueError:
            ap.error("--settings: expected N:T pairs such as 20:1000")
        unknown = [x for x in settings if x not in SETTINGS]
        if unknown:
            ap.error(f"--settings: {unknown} not among the benchmark's points {SETTINGS}")
    tools = {"DI (ours)": _edges_ours}
    try:
        import tigramite  # noqa: F401
        from tigramite.pcmci import PCMCI  # noqa: F401
        status = "ok"
        tools["PCMCI + ParCorr"] = _edges_pcmci("parcorr")
        try:
            import numba  # noqa: F401  (CMIknn needs it)
            tools["PCMCI + CMIknn"] = _edges_pcmci("cmiknn")
        except ImportError:
            status = "ok; CMIknn skipped: numba is not installed"
    except ImportError:
        status = "not installed: comparison skipped (pip install -e .[bench])"
        print(f"tigramite {status}")
    graphs = {k: 1 for k in GRAPHS} if args.quick else GRAPHS
    result = {"machine": platform.processor() or platform.machine(),
              "cpus": os.cpu_count(), "load_average_at_start": os.getloadavg(),
              "threads": os.environ.get("OMP_NUM_THREADS", "unset"),
              "tigramite": status, "seed": SEED, "pc_alpha": PC_ALPHA,
              "cmiknn_sig_samples": CMIKNN_SHUFFLES,
              "level": "alpha_t / (n (n-1)) per pair, alpha_t = min(0.05, 10 / t)"}
    old = json.loads(OUT.read_text()) if OUT.exists() else {}
    ours = not args.tools or "DI (ours)" in args.tools   # the speed entry is ours alone
    if (args.reuse_speed or not ours) and "speed" in old:
        result["speed"] = {**old["speed"], "measured_with_load_average": old.get(
            "load_average_at_start")}
    elif not args.quick and ours:
        result["speed"] = speed(args.quick)
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(result, indent=1) + "\n")  # kept if the comparison dies
    kept = []
    if args.tools or args.settings:
        if args.tools:
            tools = {k: v for k, v in tools.items() if k in args.tools}
        kept = [r for r in old.get("comparison", [])
                if r["tool"] not in tools or (r["n"], r["T"]) not in settings]
    rows = compare(tools, settings, graphs, budget) + kept
    order = {t: i for i, t in enumerate(GRAPHS)}
    result["comparison"] = sorted(rows, key=lambda r: (r["n"], r["T"], order[r["tool"]]))
    result["load_average_at_end"] = os.getloadavg()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    OUT.with_suffix(".md").write_text(render_markdown(result))
    print(f"wrote {OUT} and {OUT.with_suffix('.md').name}")


if __name__ == "__main__":
    main()
