"""Speed-up of the fast Algorithm 2 (shared sparse products, shared evolutions) over the literal.

Both paths run the shipped MVC checkpoint (float64, 1 CPU thread) on seeded graphs and must
return identical solutions.  At n = 400 whole episodes are timed; at n = 3,200 and 25,000
(sparse ER, average degree 7.5: the paper's stress test) both paths are truncated after the
same number of greedy steps (a whole episode takes hours on a CPU), so the figure there is the
per-step speed-up; the peak resident memory is recorded too.

``work_ratio`` is the number of evolution steps (one ``x(t), y(t)`` for every vertex) the
literal algorithm computes, ``sum_T T |S_T|``, over the number the fast path computes (one
evolution per distinct state, shared by every ``T`` that reads it).  Both paths do the same
arithmetic per evolution step, so once that arithmetic dominates the per-call overhead the
speed-up cannot exceed ``work_ratio``.
Writes ``benchmarks/results/algorithm2.json``.

Usage: ``python benchmarks/bench_algorithm2.py [--steps 5] [--device cpu]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import time
from pathlib import Path

import torch

from g2s.checkpoints import default_checkpoint, load_checkpoint
from g2s.evaluate import algorithm2_fast, algorithm2_literal
from g2s.graphs import instance_seed, make_graph
from g2s.nn.batch import batch_graphs

OUT = Path(__file__).resolve().parent / "results" / "algorithm2.json"
CASES = [("regular", 400, None), ("regular", 3200, "steps"), ("bipartite", 3200, "steps"),
         ("sparse_er", 25_000, "steps")]


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=5, help="greedy steps timed at n >= 3,200")
    p.add_argument("--device", default="cpu")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    path = default_checkpoint("mvc")
    model, _ = load_checkpoint(path, device=args.device)
    rows = []
    for family, n, mode in CASES:
        G = make_graph(family, n, seed=instance_seed(family, n, 0, base=424242))
        batch = batch_graphs([G], device=args.device, dtype=torch.float64)
        steps = args.steps if mode == "steps" else None
        t0 = time.perf_counter()
        lit = algorithm2_literal(model, "mvc", batch, 15, max_steps=steps)
        t1 = time.perf_counter()
        stats: dict = {}
        fast = algorithm2_fast(model, "mvc", batch, 15, max_steps=steps, stats=stats)
        t2 = time.perf_counter()
        # evolution steps (one x(t), y(t) for every vertex): the literal rollout T makes
        # |S_T| model calls of T steps each; the fast path's count comes from its dedup
        lit_steps = sum(T * len(S) for T, S in enumerate(lit, start=1))
        row = {"family": family, "n": n, "edges": G.number_of_edges(),
               "greedy_steps": "whole episode" if steps is None else steps,
               "literal_s": round(t1 - t0, 3), "fast_s": round(t2 - t1, 3),
               "speedup": round((t1 - t0) / (t2 - t1), 2), "identical": lit == fast,
               "evolution_steps_literal": lit_steps,
               "evolution_steps_fast": stats["evolution_steps"],
               "work_ratio": round(lit_steps / stats["evolution_steps"], 2),
               "fast_s_per_step": round((t2 - t1) / max(len(fast[-1]), 1), 4),
               "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}
        print(row, flush=True)
        rows.append(row)
    result = {"checkpoint": path.name, "t_max": 15, "dtype": "float64", "threads": 1,
              "device": args.device, "machine": platform.processor() or platform.machine(),
              "torch": str(torch.__version__), "target_speedup": 10, "cases": rows,
              "note": "shared machine (2 cores, other jobs running): timings are noisy"}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
