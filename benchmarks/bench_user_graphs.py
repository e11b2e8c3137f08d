"""Which method to use on dense graphs like users' benchmark files.

Users bring DIMACS/BHOSLIB-like graphs: a few hundred vertices, dense, or the complements of
dense graphs.  This benchmark solves minimum vertex cover on generated graphs of that kind with
every ``g2s solve`` method and compares each answer with the reference:

* graphs: Erdős–Rényi ``G(n, p)`` for ``p`` in 0.5, 0.7, 0.9 and the complement of each (edge
  density ``1 - p``), ``n`` in 100, 200, 400, 800; one seeded graph per point (24 graphs);
* methods: ``greedy``, ``list``, ``list-left``, ``matching``, ``reference`` (CP-SAT, both 0/1
  programs, ``--time-limit`` seconds, one worker) and the shipped neural models (``g2s`` =
  G2S-RNN with Algorithm 2, and the ER-15 baselines).  The neural methods run on one CPU
  thread and only up to ``--model-max-n`` vertices (default 200; ``wl_embed`` up to
  ``--wl-embed-max-n``, default 100, as it took ~20 s on one 100-vertex graph), to keep the run
  to minutes on a 2-core machine: their cost grows about as ``n^3`` here (G2S-RNN took ~4 s at
  200 and ~25 s at 400 vertices, ``p = 0.5``);
* reported per graph and method: the cover size, ``ratio`` = size / best cover any method found
  (1.0 is the best known; larger is worse), ``ratio_bound`` = size / the reference's proven
  lower bound (an upper bound on the true approximation ratio), and solve seconds.  Every
  answer is checked to be a vertex cover before it is counted.

Writes ``results/user_graphs.json`` and renders ``results/user_graphs.md`` from it (the table
README's "Solving your own graphs" points to; ``--render-only`` re-renders it from the JSON).
Resumable: each finished graph is cached under ``results/.cache/user_graphs/`` (git-ignored),
keyed by the graph and every setting that changes its row.

Usage::

    OMP_NUM_THREADS=1 nice python benchmarks/bench_user_graphs.py [--time-limit 10] \\
        [--sizes 100 200 400 800] [--model-max-n 200] [--render-only]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import time
from pathlib import Path

import networkx as nx

from g2s.fsutil import atomic_write_text
from g2s.graphs import erdos_renyi
from g2s.heuristics import run_heuristic
from g2s.problems import check_solution
from g2s.reference.solver import solve_reference

RESULTS = Path(__file__).resolve().parent / "results"
PROBLEM = "mvc"
DENSITIES = (0.5, 0.7, 0.9)
HEURISTICS = ("greedy", "list", "list-left", "matching")
#: g2s solve method name -> encoder of the shipped checkpoint
MODELS = {"g2s": "g2s_rnn", "s2v": "s2v", "sage_gcn": "sage_gcn", "sage_mean": "sage_mean",
          "sage_pool": "sage_pool", "wl_nn": "wl_nn", "wl_embed": "wl_embed"}
METHODS = (*HEURISTICS, "reference", *MODELS)


def make_graphs(sizes) -> list:
    """``(name, family, p, G)``: ``G(n, p)`` and its complement for every size and density."""
    out = []
    for n in sizes:
        for p in DENSITIES:
            G = erdos_renyi(n, p=p, seed=1000 * n + round(100 * p))
            out.append((f"er-{n}-{p}", "er", p, G))
            out.append((f"er-{n}-{p}-complement", "complement", p, nx.complement(G)))
    return out


def _run(method: str, G: nx.Graph, time_limit: float) -> tuple[set, dict]:
    if method in HEURISTICS:
        return set(run_heuristic(method, PROBLEM, G)), {}
    if method == "reference":
        res = solve_reference(PROBLEM, G, time_limit=time_limit)
        return set(res.solution), {"bound": res.bound, "status": res.status,
                                   "bound_by": res.bound_by}
    from g2s.evaluate import solve_g2s
    S, _ = solve_g2s(PROBLEM, G, encoder=MODELS[method])
    return set(S), {}


def solve_graph(name, family, p, G, args) -> dict:
    row = {"graph": name, "family": family, "p": p, "n": G.number_of_nodes(),
           "m": G.number_of_edges(), "density": round(nx.density(G), 4), "methods": {}}
    for method in METHODS:
        limit = args.wl_embed_max_n if method == "wl_embed" else args.model_max_n
        if method in MODELS and G.number_of_nodes() > limit:
            continue
        t0 = time.perf_counter()
        S, extra = _run(method, G, args.time_limit)
        seconds = time.perf_counter() - t0
        size = check_solution(PROBLEM, G, S)  # raises unless S is a vertex cover
        row["methods"][method] = {"objective": size, "seconds": round(seconds, 3), **extra}
    best = min(r["objective"] for r in row["methods"].values())
    bound = row["methods"]["reference"]["bound"]
    row["best_known"], row["reference_bound"] = best, bound
    for r in row["methods"].values():
        r["ratio"] = round(r["objective"] / best, 4) if best else 1.0
        r["ratio_bound"] = round(r["objective"] / bound, 4) if bound else None
    return row


def cached_row(name, family, p, G, args) -> dict:
    """:func:`solve_graph`, cached on disk (written atomically) under a key of its settings."""
    key = json.dumps([name, args.time_limit, args.model_max_n, args.wl_embed_max_n, METHODS])
    digest = hashlib.sha1(key.encode()).hexdigest()[:12]
    path = RESULTS / ".cache" / "user_graphs" / f"{name}-{digest}.json"
    if path.exists():
        return json.loads(path.read_text())
    row = solve_graph(name, family, p, G, args)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(row))
    os.replace(tmp, path)
    return row


def summarise(rows: list) -> dict:
    """Per method: mean and worst ratio (all graphs, dense ones, complements), graphs where it is
    at least as good as greedy, mean seconds."""
    out = {}
    for method in METHODS:
        mine = [r for r in rows if method in r["methods"]]
        if not mine:
            continue

        def mean_ratio(family, mine=mine, method=method):
            vals = [r["methods"][method]["ratio"] for r in mine if family in (None, r["family"])]
            return round(statistics.fmean(vals), 4) if vals else None

        out[method] = {
            "graphs": len(mine), "max_n": max(r["n"] for r in mine),
            "mean_ratio": mean_ratio(None), "mean_ratio_er": mean_ratio("er"),
            "mean_ratio_complement": mean_ratio("complement"),
            "worst_ratio": max(r["methods"][method]["ratio"] for r in mine),
            "mean_ratio_bound": round(statistics.fmean(
                r["methods"][method]["ratio_bound"] for r in mine), 4),
            "best_known_on": sum(r["methods"][method]["ratio"] == 1.0 for r in mine),
            "at_least_as_good_as_greedy_on": sum(
                r["methods"][method]["objective"] <= r["methods"]["greedy"]["objective"]
                for r in mine),
            "mean_seconds": round(statistics.fmean(r["methods"][method]["seconds"]
                                                   for r in mine), 3)}
    return out


def render_markdown(result: dict) -> str:
    """The summary table of ``user_graphs.json`` (generated; never edited by hand)."""
    lines = ["<!-- generated by benchmarks/bench_user_graphs.py from user_graphs.json -->",
             f"Minimum vertex cover on {len(result['rows'])} generated graphs "
             f"(G(n, p), p in {', '.join(map(str, result['densities']))}, and their complements; "
             f"n in {', '.join(map(str, result['sizes']))}).  Ratio = cover size / best cover "
             "any method found (1 = best known; lower is better); size / proven bound is at "
             "least the true approximation ratio (the bound is the reference's proven lower "
             "bound on the minimum cover).  Reference: CP-SAT, "
             f"{result['time_limit']:g} s per graph, both 0/1 programs.  Neural methods only up to "
             f"{result['model_max_n']} vertices (wl_embed {result['wl_embed_max_n']}), one thread.",
             "",
             "| method | graphs | largest n | mean ratio | mean ratio, G(n,p) | mean ratio, "
             "complements | worst ratio | mean size / proven bound | best known on | "
             "as good as greedy on | mean s |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for method, s in result["summary"].items():
        lines.append(f"| {method} | {s['graphs']} | {s['max_n']} | {s['mean_ratio']:.4f} | "
                     f"{s['mean_ratio_er']:.4f} | {s['mean_ratio_complement']:.4f} | "
                     f"{s['worst_ratio']:.4f} | {s['mean_ratio_bound']:.4f} | "
                     f"{s['best_known_on']} | "
                     f"{s['at_least_as_good_as_greedy_on']} | {s['mean_seconds']:.2f} |")
    ref = result["rows"]
    proven = sum(r["methods"]["reference"]["status"] == "optimal" for r in ref)
    lines += ["", "Rows over fewer graphs average over the smaller graphs only; the 'as good as "
              "greedy on' column compares each method with greedy graph by graph.",
              "", f"The reference proved optimality on {proven} of {len(ref)} graphs; per-graph "
              "numbers, proven bounds and timings are in `user_graphs.json`.", ""]
    return "\n".join(lines)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400, 800])
    parser.add_argument("--model-max-n", type=int, default=200)
    parser.add_argument("--wl-embed-max-n", type=int, default=100)
    parser.add_argument("--out", type=Path, default=RESULTS / "user_graphs.json")
    parser.add_argument("--render-only", action="store_true",
                        help="only re-render the markdown table from the JSON")
    args = parser.parse_args(argv)
    md = args.out.with_suffix(".md")
    if args.render_only:  # the summary is recomputed from the stored per-graph rows
        result = json.loads(args.out.read_text())
        result["summary"] = summarise(result["rows"])
        args.out.write_text(json.dumps(result, indent=1) + "\n")
        md.write_text(render_markdown(result))
        return result
    import torch
    torch.set_num_threads(1)
    start = time.perf_counter()
    rows = []
    for name, family, p, G in make_graphs(args.sizes):
        rows.append(cached_row(name, family, p, G, args))
        ratios = " ".join(f"{k}={v['ratio']:.3f}" for k, v in rows[-1]["methods"].items())
        print(f"{name}: {ratios}", flush=True)
    import ortools
    result = {"benchmark": "MVC on dense G(n, p) and complements: every method vs the reference",
              "problem": PROBLEM, "sizes": args.sizes, "densities": list(DENSITIES),
              "time_limit": args.time_limit, "model_max_n": args.model_max_n,
              "wl_embed_max_n": args.wl_embed_max_n, "torch_threads": 1, "cpsat_workers": 1,
              "versions": {"torch": torch.__version__, "ortools": ortools.__version__,
                           "networkx": nx.__version__, "python": platform.python_version(),
                           "machine": platform.machine()},
              "summary": summarise(rows), "rows": rows,
              "wall_seconds": round(time.perf_counter() - start, 1)}
    atomic_write_text(args.out, json.dumps(result, indent=1) + "\n")
    md.write_text(render_markdown(result))
    print(render_markdown(result))
    return result


if __name__ == "__main__":
    main()
