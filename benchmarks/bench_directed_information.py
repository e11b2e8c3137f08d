"""Time one full graph recovery by the directed-information estimators (Theorem 1).

Writes ``benchmarks/results/directed_information.json``: seconds for one recovery of a random
directed G(n, 1/2) graph, d = 1, at n = 5, 8, 12 and t = 1000 transitions, for the
full-conditioning KDE and kNN estimators (``n_surrogates = 6``) and, at n = 5, the greedy
low-dimensional KDE variant.  Run with
``OMP_NUM_THREADS=1 python benchmarks/bench_directed_information.py``.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path

import networkx as nx
import numpy as np

from theory.directed_information import (
    directed_information_graph,
)
from theory.dynamics import draw_generic_parameters, simulate_trajectory
from theory.parent_selection import greedy_directed_information_graph

OUT = Path(__file__).resolve().parent / "results" / "directed_information.json"


def one(n: int, T: int, method: str, greedy: bool = False, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n, 0.5, seed=seed, directed=True)
    params = draw_generic_parameters(G, 1, seed=rng)
    X = simulate_trajectory(G, params, T, seed=rng)
    t0 = time.perf_counter()
    if greedy:
        found = set(greedy_directed_information_graph(X, method=method, seed=0).edges())
    else:
        found = set(directed_information_graph(X, method=method, seed=0).graph.edges())
    return {"n": n, "T": T, "d": 1, "method": method, "greedy": greedy,
            "seconds": round(time.perf_counter() - t0, 3), "exact": found == set(G.edges())}


def main() -> None:
    rows = [one(n, 1000, "kde") for n in (5, 8, 12)]
    rows += [one(n, 1000, "knn") for n in (5, 8)]
    rows.append(one(5, 1000, "kde", greedy=True))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"machine": platform.processor() or platform.machine(),
                               "threads": "OMP_NUM_THREADS as set by the caller",
                               "results": rows}, indent=1) + "\n")
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
