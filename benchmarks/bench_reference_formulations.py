"""Reference bounds for MVC from its own 0/1 program, the MIS program, or both.

MVC and MIS are complements (Gallai: ``tau = n - alpha``), yet CP-SAT searches their programs
differently.  On generated dense instances this runs :func:`g2s.reference.solver.solve_reference`
for MVC three ways at the same wall-clock limit: ``formulation="mvc"`` (the behaviour before both
programs were run: "before"), ``"mis"`` (only the complementary program), and ``"both"`` (the
default since: half the time each, "after").  Reported: objective, proven bound, status, which
program gave each.

Instances: ``rb-30x15``, 30 disjoint 15-cliques with each pair of vertices in different cliques
joined with probability 0.25 (450 vertices, the shape of the BHOSLIB ``frb30-15`` graphs of
Xu & Li's Model RB, where ``alpha <= 30``) and ``er-200-0.5``, an Erdős–Rényi graph.  Wall-clock
limits make the numbers machine- and load-dependent: the JSON records the limit and the machine.

Usage::

    python benchmarks/bench_reference_formulations.py [--time-limit 30] \\
        [--out benchmarks/results/reference_formulations.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import networkx as nx
import numpy as np

from g2s.graphs import erdos_renyi
from g2s.reference.solver import solve_reference

RUNS = (("before", "mvc"), ("mis-only", "mis"), ("after", "both"))


def clique_union(cliques: int, size: int, p: float, seed: int) -> nx.Graph:
    """``cliques`` disjoint ``size``-cliques plus each cross pair with probability ``p``."""
    rng = np.random.default_rng(seed)
    n = cliques * size
    part = np.arange(n) // size
    iu, ju = np.triu_indices(n, 1)
    keep = (part[iu] == part[ju]) | (rng.random(iu.size) < p)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(iu[keep].tolist(), ju[keep].tolist()))
    return G


def instances() -> dict:
    return {"rb-30x15": clique_union(30, 15, 0.25, seed=0),
            "er-200-0.5": erdos_renyi(200, p=0.5, seed=0)}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results"
                        / "reference_formulations.json")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = []
    for name, G in instances().items():
        for label, formulation in RUNS:
            res = solve_reference("mvc", G, time_limit=args.time_limit, formulation=formulation)
            rows.append({"instance": name, "n": G.number_of_nodes(), "m": G.number_of_edges(),
                         "run": label, "formulation": formulation, "objective": res.objective,
                         "bound": res.bound, "status": res.status, "gap": round(res.gap, 4),
                         "bound_by": res.bound_by, "best_known_by": res.best_known_by,
                         "bounds": res.bounds, "seconds": res.seconds})
            print(f"{name:11s} {label:9s} objective={res.objective} bound={res.bound} "
                  f"({res.bound_by}) {res.status} {res.seconds:.1f}s", flush=True)
    by = {(r["instance"], r["run"]): r for r in rows}
    summary = {name: {"bound_before": by[name, "before"]["bound"],
                      "bound_after": by[name, "after"]["bound"],
                      "bound_mis_only": by[name, "mis-only"]["bound"],
                      "objective_before": by[name, "before"]["objective"],
                      "objective_after": by[name, "after"]["objective"],
                      "after_bound_by": by[name, "after"]["bound_by"]}
               for name in instances()}
    result = {"benchmark": "MVC reference bound: own program vs MIS program vs both",
              "problem": "mvc", "time_limit": args.time_limit, "workers": 1,
              "machine": {"python": platform.python_version(), "machine": platform.machine(),
                          "processor": platform.processor()},
              "summary": summary, "rows": rows,
              "wall_seconds": round(time.perf_counter() - start, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=1) + "\n")
    tmp.replace(args.out)
    return result


if __name__ == "__main__":
    main()
