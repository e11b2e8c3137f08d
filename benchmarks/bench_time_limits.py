"""How far past ``--time-limit`` does ``g2s solve`` run?  The slack the docs state, measured.

A budget can be overrun only by work that has to finish before any answer exists, or that the
method cannot cut: for ``reference``, reading the graph into the solvers' forms, the first
batch of the best-known search, max cut's eigenvalue bound (a dense eigensolve) and writing the
0/1 program (its triangle rows are capped by the limit,
:data:`g2s.reference.programs.TRIANGLES_PER_SECOND`);
for ``g2s``, loading the checkpoint and Algorithm 2's first evolution (the learned policy needs
one full pass over the graph before it can rank any vertex; the greedy completion then finishes
the rollouts).  This benchmark runs ``g2s solve`` as a user would (a subprocess) on seeded
graphs and records, per method, graph and limit, the JSON's ``solve_s`` and the overrun
``solve_s - limit``.

Since that work grows with the graph, the slack is a function of size: a sweep over sparse
Erdos-Renyi graphs of 1,000 to 100,000 vertices (mean degree 7.5) at a 0.5 s limit gives, per
method and problem, the envelope ``slack(m) = a + b * m`` (``m`` edges) that holds on every
measured row: ``a`` the worst overrun on the smallest graph, ``b`` the smallest per-edge rate that
covers every larger one.  ``docs/solve.md`` states it from ``slack_envelope``.

Writes ``benchmarks/results/time_limits.json``.  About 6 minutes on one core.

Usage: ``python benchmarks/bench_time_limits.py [--quick]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import networkx as nx  # noqa: E402

from g2s.fsutil import atomic_write_text  # noqa: E402
from g2s.graphs import sparse_erdos_renyi  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "time_limits.json"
#: (name, graph builder) of the measured graphs
GRAPHS = {
    "er400_p0.15": lambda: nx.gnp_random_graph(400, 0.15, seed=1),
    "er1000_p0.05": lambda: nx.gnp_random_graph(1000, 0.05, seed=1),
    "sparse_er10000_d7.5": lambda: sparse_erdos_renyi(10_000, 7.5, seed=1),
    # many components: one edge among 500,000 isolated vertices (the exact tree path)
    "isolated500000_1edge": lambda: nx.Graph([(0, 1)] + [(v, v) for v in range(2, 500_000)]),
}
#: the size sweep: sparse ER of mean degree 7.5, one limit, every method and problem that has one
SWEEP_SIZES = (1_000, 10_000, 30_000, 100_000)
SWEEP_LIMIT = 0.5
for _n in SWEEP_SIZES:
    GRAPHS[f"sparse_er{_n}_d7.5"] = (lambda n: lambda: sparse_erdos_renyi(n, 7.5, seed=1))(_n)
SWEEP = [(m, p, f"sparse_er{n}_d7.5", (SWEEP_LIMIT,)) for n in SWEEP_SIZES
         for m, problems in (("reference", ("mvc", "mis", "maxcut")), ("g2s", ("mvc", "maxcut")))
         for p in problems]
#: (method, problem, graph, limits): every reference program, and G2S-RNN where its first
#: evolution is long
CASES = [("reference", p, g, (1.0, 5.0)) for p in ("mvc", "mis", "maxcut")
         for g in ("er400_p0.15", "er1000_p0.05")] + \
        [("reference", "mvc", "isolated500000_1edge", (2.0,))]
QUICK = [("reference", "maxcut", "er400_p0.15", (1.0,))]


def run_case(method: str, problem: str, path: Path, limit: float) -> dict:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "g2s.cli", "solve", "--problem", problem,
                        "--method", method, "--time-limit", str(limit), str(path)],
                       capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"{method} {problem} {path.name}: exit {p.returncode}: {p.stderr}")
    out = json.loads(p.stdout)
    return {"method": method, "problem": problem, "limit_s": limit, "edges": out.get("m"),
            "solve_s": out["solve_s"], "overrun_s": round(out["solve_s"] - limit, 3),
            "wall_s": round(wall, 3), "status": out.get("status")}


def slack_envelope(rows: list[dict]) -> dict:
    """Per method/problem, ``a + b * m`` bounding every sweep row's overrun (``m`` edges):
    ``a`` the worst overrun on the smallest swept graph (at least 0), ``b`` the least rate
    with ``a + b * m >= overrun`` on every larger one (seconds per million edges)."""
    out = {}
    swept = [r for r in rows if r["graph"].startswith("sparse_er") and r["limit_s"] == SWEEP_LIMIT
             and r["edges"] is not None]
    for key in sorted({f"{r['method']}/{r['problem']}" for r in swept}):
        mine = [r for r in swept if f"{r['method']}/{r['problem']}" == key]
        m0 = min(r["edges"] for r in mine)
        a = max(0.0, max(r["overrun_s"] for r in mine if r["edges"] == m0))
        b = max([0.0] + [(r["overrun_s"] - a) / (r["edges"] / 1e6) for r in mine
                         if r["edges"] > m0])
        out[key] = {"a_s": round(a, 3), "b_s_per_million_edges": round(b, 3),
                    "edges": sorted({r["edges"] for r in mine}),
                    "overrun_s": [r["overrun_s"] for r in sorted(mine, key=lambda r: r["edges"])]}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    ap.add_argument("--quick", action="store_true", help="one case; prints, writes nothing")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for method, problem, name, limits in (QUICK if args.quick else CASES + SWEEP):
            if name not in paths:
                G = GRAPHS[name]()
                G.remove_edges_from(list(nx.selfloop_edges(G)))   # (they only add vertices)
                index = {v: i for i, v in enumerate(G, 1)}
                paths[name] = Path(tmp) / f"{name}.dimacs"        # keeps isolated vertices
                paths[name].write_text(f"p edge {len(index)} {G.number_of_edges()}\n" + "".join(
                    f"e {index[u]} {index[v]}\n" for u, v in G.edges()))
            for limit in limits:
                row = {"graph": name, **run_case(method, problem, paths[name], limit)}
                rows.append(row)
                print(json.dumps(row), flush=True)
    if args.quick:
        return 0
    worst = {}
    for r in rows:
        key = f"{r['method']}/{r['problem']}"
        worst[key] = max(worst.get(key, float("-inf")), r["overrun_s"])
    result = {"what": __doc__.splitlines()[0], "load_average": list(os.getloadavg()),
              "worst_overrun_s": worst, "slack_envelope": slack_envelope(rows), "rows": rows}
    atomic_write_text(OUT, json.dumps(result, indent=1) + "\n")
    print("wrote", OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
