"""CP-SAT vs HiGHS as the reference solver, at equal wall-clock time limits.

On the project's seeded evaluation instances (:func:`g2s.reference.certificates.instance_graph`) of
the NP-hard (problem, family) pairs, up to a few hundred vertices, both 0/1 programs of
:mod:`g2s.reference.solver` run with the same time limit and one CP-SAT worker.  Reported per
backend: the fraction of instances proven optimal, the mean relative bound gap
``|objective - bound| / objective``, the mean primal gap to the best solution either backend
found, and wall and CPU seconds (CPU > wall means the backend used more than one thread).

Usage::

    OMP_NUM_THREADS=1 python benchmarks/bench_solvers.py [--time-limit 10] [--count 2] \\
        [--sizes 50 100 200 400] [--out benchmarks/results/solvers.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

from g2s.fsutil import atomic_write_text
from g2s.problems import SENSE
from g2s.reference.certificates import instance_graph
from g2s.reference.solver import solve_reference

PAIRS = (("mvc", "er"), ("mvc", "regular"), ("mis", "er"), ("maxcut", "er"))
BACKENDS = ("cpsat", "highs")


def _versions() -> dict:
    import networkx
    import ortools
    import scipy

    return {"ortools": ortools.__version__, "scipy": scipy.__version__,
            "networkx": networkx.__version__, "python": platform.python_version(),
            "machine": platform.machine(), "processor": platform.processor()}


def run_instance(problem: str, family: str, n: int, index: int, time_limit: float) -> list:
    """Both backends on one instance; rows with objective, bound, status and timings."""
    G = instance_graph(family, n, index)
    rows = []
    for backend in BACKENDS:
        cpu = time.process_time()
        res = solve_reference(problem, G, time_limit=time_limit, backend=backend)
        rows.append({"problem": problem, "family": family, "n": n, "index": index,
                     "backend": backend, "objective": res.objective, "bound": res.bound,
                     "status": res.status, "gap": res.gap, "seconds": res.seconds,
                     "cpu_seconds": round(time.process_time() - cpu, 3)})
    pick = min if SENSE[problem] == "min" else max
    best = pick(r["objective"] for r in rows)
    for r in rows:
        r["primal_gap"] = abs(r["objective"] - best) / max(best, 1)
    return rows


def summarise(rows: list) -> dict:
    """Per backend (overall and per problem/family): proven-optimal fraction and mean gaps."""
    groups: dict = {}
    for r in rows:
        for key in (r["backend"], f"{r['backend']}:{r['problem']}/{r['family']}"):
            groups.setdefault(key, []).append(r)
    return {key: {"instances": len(g),
                  "proven_optimal_fraction": sum(r["status"] == "optimal" for r in g) / len(g),
                  "mean_bound_gap": statistics.fmean(r["gap"] for r in g),
                  "mean_primal_gap": statistics.fmean(r["primal_gap"] for r in g),
                  "mean_seconds": statistics.fmean(r["seconds"] for r in g),
                  "mean_cpu_seconds": statistics.fmean(r["cpu_seconds"] for r in g)}
            for key, g in sorted(groups.items())}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 400])
    parser.add_argument("--count", type=int, default=2, help="instances per size")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "results" / "solvers.json")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    start = time.perf_counter()
    jobs = [(p, f, n, i) for p, f in PAIRS for n in args.sizes for i in range(args.count)]
    rows = []
    for p, f, n, i in tqdm(jobs, desc="instances"):
        rows += run_instance(p, f, n, i, args.time_limit)
    result = {"benchmark": "reference solver backends at equal time limit",
              "time_limit": args.time_limit, "sizes": args.sizes, "count": args.count,
              "pairs": [list(p) for p in PAIRS], "versions": _versions(),
              "summary": summarise(rows), "rows": rows,
              "wall_seconds": round(time.perf_counter() - start, 1)}
    atomic_write_text(args.out, json.dumps(result, indent=1) + "\n")
    for key, s in result["summary"].items():
        print(f"{key:28s} n={s['instances']:2d} optimal={s['proven_optimal_fraction']:.2f} "
              f"bound_gap={s['mean_bound_gap']:.4f} primal_gap={s['mean_primal_gap']:.4f} "
              f"wall={s['mean_seconds']:.1f}s cpu={s['mean_cpu_seconds']:.1f}s")
    return result


if __name__ == "__main__":
    main()
