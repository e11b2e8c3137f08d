"""How good is each reference candidate?  Its solution against the best of all, and the bound.

Every approximation ratio of the figures divides by a reference solution, so the reference must
be at least as good as every method it judges.  This benchmark measures, on the project's own
evaluation graphs (:func:`g2s.reference.certificates.instance_graph`: same generator, same seeds),
per problem, family and size:

* ``stored``: the committed certificate (CP-SAT with a 30 s limit started from the best
  classical heuristic; exact methods where the family allows) -- or, for the sparse ER graphs
  of Figure 2(b), the reference committed in ``paper_figures/figure2b.json`` (CP-SAT, 240 s);
* ``heuristic``: the best classical heuristic (:func:`g2s.heuristics.best_heuristic`);
* the state-of-the-art solver of :mod:`g2s.reference.best_known` at each budget of ``--budgets``
  (CHILS for MIS and MVC, on the MIS view; simulated annealing plus single-flip local search
  for max cut).

The best of all candidates is the graph's ``best_known`` (with who found it); the proven bound
is the stored one (a proven bound stays valid whatever solution is found later).  Each
candidate's ratio is :func:`g2s.problems.approximation_ratio` against the best known (>= 1,
1 = the best).  For sparse ER with average degree c the best cover density is compared with
the replica-symmetric estimate of Weigt & Hartmann (PRL 84, 6118, 2000), which is exact for
c <= e and a lower estimate above it: ``x_RS(c) = 1 - (2 W(c) + W(c)^2) / (2c)``.

Writes ``benchmarks/results/reference.json``.  Single-threaded solvers; the budgets are wall
clock, so a loaded machine can find less in the same budget (the JSON records load).

Usage::

    python benchmarks/bench_reference.py                 # about 15 minutes on one core
    python benchmarks/bench_reference.py --quick         # a few graphs, seconds
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import lambertw

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from g2s.fsutil import atomic_write_text  # noqa: E402
from g2s.graphs import SIZE_LADDER, graph_fingerprint  # noqa: E402
from g2s.heuristics import best_heuristic  # noqa: E402
from g2s.problems import SENSE, approximation_ratio, check_solution  # noqa: E402
from g2s.reference.best_known import (  # noqa: E402
    BEST_KNOWN_SOLVER,
    annealed_cut,
    chils_independent_set,
    solver_versions,
)
from g2s.reference.certificates import instance_graph, load_certificates  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "reference.json"
#: (problem, family, sizes, graphs per size) measured by default
CASES = (
    ("mvc", "er", SIZE_LADDER, 3),
    ("mvc", "regular", SIZE_LADDER, 3),
    ("mis", "er", SIZE_LADDER[:5], 3),
    ("maxcut", "er", SIZE_LADDER[:5], 3),
    ("maxcut", "grid", SIZE_LADDER[:5], 1),
    ("mvc", "sparse_er", (10_000, 25_000), 1),
)
QUICK = (("mvc", "er", (25, 200), 1), ("mis", "er", (200,), 1), ("maxcut", "er", (200,), 1))
#: the average degree of Figure 2(b)'s sparse ER graphs (:func:`g2s.graphs.sparse_erdos_renyi`)
SPARSE_DEGREE = 7.5


def weigt_hartmann_cover_density(c: float) -> float:
    """Replica-symmetric minimum vertex cover density of G(n, c/n) (Weigt & Hartmann 2000)."""
    w = float(np.real(lambertw(c)))
    return 1.0 - (2.0 * w + w * w) / (2.0 * c)


def _stored(problem: str, family: str, n: int, index: int, G) -> dict | None:
    """The committed reference of one graph (certificate, or Figure 2(b)'s JSON)."""
    if family == "sparse_er":
        doc = json.loads((ROOT / "paper_figures" / "figure2b.json").read_text())
        for row in doc["instances"]:
            if (row["family"], row["n"], row["index"]) == (family, n, index):
                assert row["fingerprint"] == graph_fingerprint(G)
                ref = row["reference"]
                return {"objective": ref["objective"], "bound": ref["bound"],
                        "status": ref["status"], "method": ref["method"],
                        "time_limit": doc["reference_time_limit"]}
        return None
    entry = load_certificates(problem, family).get(f"{n}/{index}")
    if entry is None:
        return None
    if entry["fingerprint"] != graph_fingerprint(G):
        raise SystemExit(f"{problem}/{family}/{n}/{index}: the certificate's graph drifted")
    return {k: entry.get(k) for k in ("objective", "bound", "status", "method", "time_limit")}


def _solver(problem: str, G, budget: float, seed: int) -> set:
    if problem == "maxcut":
        return annealed_cut(G, budget, seed)
    independent = chils_independent_set(G, budget, seed)
    return independent if problem == "mis" else set(G.nodes) - independent


def measure_graph(problem: str, family: str, n: int, index: int, budgets, seed: int) -> dict:
    """Every candidate on one graph, the best known and the bound."""
    G = instance_graph(family, n, index)
    cands = {}
    stored = _stored(problem, family, n, index, G)
    if stored is not None:
        cands["stored"] = {"objective": stored["objective"], "seconds": None}
    t0 = time.perf_counter()
    H = best_heuristic(problem, G)
    cands["heuristic"] = {"objective": check_solution(problem, G, H),
                          "seconds": round(time.perf_counter() - t0, 3)}
    name = BEST_KNOWN_SOLVER[problem]
    for b in budgets:
        t0 = time.perf_counter()
        S = _solver(problem, G, b, seed)
        cands[f"{name}@{b:g}s"] = {"objective": check_solution(problem, G, S),
                                   "seconds": round(time.perf_counter() - t0, 3)}
    better = min if SENSE[problem] == "min" else max
    best = better(c["objective"] for c in cands.values())
    best_by = next(k for k, c in cands.items() if c["objective"] == best)
    for c in cands.values():
        c["ratio"] = round(approximation_ratio(problem, c["objective"], best), 6)
    row = {"problem": problem, "family": family, "n": n, "index": index,
           "edges": G.number_of_edges(), "fingerprint": graph_fingerprint(G),
           "best_known": best, "best_known_by": best_by, "candidates": cands}
    if stored is not None:
        bound = stored["bound"]
        row.update(bound=bound, bound_by=stored["method"], stored_status=stored["status"],
                   stored_time_limit=stored["time_limit"],
                   gap=round(abs(best - bound) / max(best, 1), 6),
                   optimal=best == bound)
    return row


def summarise(rows: list) -> list:
    """Per (problem, family, n): each candidate's mean ratio against the best known and how
    often it was the best, the mean gap of the best known to the proven bound."""
    out = []
    keys = sorted({(r["problem"], r["family"], r["n"]) for r in rows},
                  key=lambda k: (k[0], k[1], k[2]))
    for p, f, n in keys:
        group = [r for r in rows if (r["problem"], r["family"], r["n"]) == (p, f, n)]
        names = list(group[0]["candidates"])
        cell = {"problem": p, "family": f, "n": n, "graphs": len(group), "candidates": {}}
        for name in names:
            ratios = [r["candidates"][name]["ratio"] for r in group if name in r["candidates"]]
            cell["candidates"][name] = {
                "mean_ratio": round(float(np.mean(ratios)), 6),
                "worst_ratio": round(float(np.max(ratios)), 6),
                "best_on": int(sum(x == 1.0 for x in ratios))}
        gaps = [r["gap"] for r in group if "gap" in r]
        if gaps:
            cell["mean_gap_to_bound"] = round(float(np.mean(gaps)), 6)
            cell["proven_optimal"] = int(sum(r["optimal"] for r in group if "optimal" in r))
        if f == "sparse_er":
            dens = [r["best_known"] / r["n"] for r in group]
            x_rs = weigt_hartmann_cover_density(SPARSE_DEGREE)
            cell["cover_density"] = round(float(np.mean(dens)), 6)
            cell["weigt_hartmann_rs_density"] = round(x_rs, 6)
            cell["above_rs_relative"] = round(float(np.mean(dens)) / x_rs - 1, 6)
        out.append(cell)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    p.add_argument("--budgets", type=float, nargs="+", default=[1.0, 5.0],
                   help="seconds for the state-of-the-art solver, one run each (default 1 5)")
    p.add_argument("--sparse-budgets", type=float, nargs="+", default=[10.0, 60.0],
                   help="seconds for the 10,000 / 25,000-vertex graphs (default 10 60)")
    p.add_argument("--seed", type=int, default=0, help="solver seed (default 0)")
    p.add_argument("--quick", action="store_true", help="a few graphs only; prints, writes "
                   "nothing unless --out is given")
    p.add_argument("--out", type=Path, default=None, help=f"JSON path (default {OUT})")
    args = p.parse_args(argv)
    cases = QUICK if args.quick else CASES
    rows, start = [], time.time()
    for problem, family, sizes, count in cases:
        budgets = args.sparse_budgets if family.startswith("sparse") else args.budgets
        for n in sizes:
            for index in range(count):
                row = measure_graph(problem, family, n, index, budgets, args.seed)
                rows.append(row)
                c = " ".join(f"{k}={v['objective']}" for k, v in row["candidates"].items())
                print(f"{problem:6s} {family:9s} n={n:<6d} #{index} best={row['best_known']} "
                      f"({row['best_known_by']}) bound={row.get('bound')}  {c}", flush=True)
    result = {"what": __doc__.splitlines()[0], "seed": args.seed, "budgets": args.budgets,
              "sparse_budgets": args.sparse_budgets, "versions": solver_versions(),
              "load_average": list(os.getloadavg()), "wall_s": round(time.time() - start, 1),
              "summary": summarise(rows), "graphs": rows}
    out = args.out or (None if args.quick else OUT)
    if out is not None:
        atomic_write_text(Path(out), json.dumps(result, indent=1) + "\n")
        print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
