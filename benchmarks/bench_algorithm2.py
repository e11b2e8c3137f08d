"""Algorithm 2: the exact fast path (:mod:`g2s.algorithm2`) against the literal algorithm.

Ratios are measured in one process on the same machine, on the shipped MVC checkpoint, with
the same thread count for both paths.  Three kinds of measurement:

* **Per greedy step at the paper's scale** (sparse ER n = 25,000, average degree 7.5; ER
  n = 3,200, p = 0.15; bipartite n = 3,200, p = 0.75).  A whole episode there takes hours on
  a CPU, and its first steps are unrepresentative (all 15 rollouts share ``S = {}``), so the
  fast path first advances ``--warmup`` greedy steps (the rollouts diverge), saving its
  state; then both paths continue for ``--steps`` steps from that same state (the literal via
  ``starts=``), alternately ``--repeats`` times, and must reach identical states.
* **Whole episodes at n = 400** (ER p = 0.15 and 4-regular): both paths from ``S = {}`` to the
  end; the 15 solutions must be identical.
* **Growth with |V| and |E|**: the fast path's time per greedy step on sparse ER with average
  degree 7.5 at several n (|E| grows with n) and on ER with fixed n and growing p (|E| alone
  grows); least-squares exponents of time ~ |V|^a and ~ |E|^b.  Section 5 states
  ``O(|E| T_max + |V|)`` per greedy step, i.e. exponent 1 in |E|.

Also recorded: the decision counters (float32-unique, WL ties, float64 re-checks) and the
largest float32 error seen (relative to the score scale; ``g2s.algorithm2`` keeps its margin at
ten times it).  Writes ``benchmarks/results/algorithm2.json``.

Usage: ``python benchmarks/bench_algorithm2.py [--steps 4] [--warmup 40] [--threads 1]
[--device cpu] [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from g2s.algorithm2 import algorithm2_exact
from g2s.checkpoints import default_checkpoint, load_checkpoint
from g2s.evaluate import algorithm2_literal
from g2s.graphs import instance_seed, make_graph
from g2s.nn.batch import batch_graphs

OUT = Path(__file__).resolve().parent / "results" / "algorithm2.json"
STEP_CASES = [("sparse_er", 25_000), ("er", 3200), ("bipartite", 3200)]
EPISODE_CASES = [("er", 400), ("regular", 400)]
TARGETS = {("sparse_er", 25_000): 8.0, ("er", 3200): 5.0, ("bipartite", 3200): 5.0}


def _graph(family, n, device, index=0):
    G = make_graph(family, n, seed=instance_seed(family, n, index, base=424242))
    return G, batch_graphs([G], device=device, dtype=torch.float64)


def _state(path, n, t_max):
    st = torch.load(path, weights_only=True)
    sel = torch.from_numpy(np.unpackbits(st["sel_bits"].numpy(), axis=0, count=n).astype(bool))
    return [sel[:, r].clone() for r in range(t_max)], int(st["step"])


def per_step(model, family, n, args, tmp: Path) -> dict:
    G, batch = _graph(family, n, args.device)
    base = tmp / f"{family}{n}.state"
    algorithm2_exact(model, "mvc", batch, 15, max_steps=args.warmup, resume=base,
                     save_every_s=-1)
    starts, step0 = _state(base, n, 15)
    lit_t, fast_t, same, counts = [], [], True, {}
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        lit = algorithm2_literal(model, "mvc", batch, 15, max_steps=args.steps, starts=starts)
        lit_t.append(time.perf_counter() - t0)
        work = tmp / "work.state"
        shutil.copyfile(base, work)
        st: dict = {}
        t0 = time.perf_counter()
        res = algorithm2_exact(model, "mvc", batch, 15, max_steps=step0 + args.steps,
                               resume=work, save_every_s=float("inf"), stats=st)
        fast_t.append(time.perf_counter() - t0)
        same = same and res.solutions == lit
        counts = {k: st[k] - v for k, v in torch.load(base, weights_only=True)["counts"].items()}
        counts.update({k: st[k] for k in st if k.startswith("max_error")})
    row = {"family": family, "n": n, "edges": G.number_of_edges(), "warmup_steps": step0,
           "greedy_steps_timed": args.steps, "literal_s": [round(t, 3) for t in lit_t],
           "fast_s": [round(t, 3) for t in fast_t],
           "literal_s_per_step": round(min(lit_t) / args.steps, 4),
           "fast_s_per_step": round(min(fast_t) / args.steps, 4),
           "speedup": round(min(lit_t) / min(fast_t), 2),
           "speedup_median": round(float(np.median(np.array(lit_t) / np.array(fast_t))), 2),
           "target": TARGETS.get((family, n)), "identical": same, "decisions": counts}
    print(row, flush=True)
    return row


def whole_episode(model, family, n, args) -> dict:
    G, batch = _graph(family, n, args.device)
    t0 = time.perf_counter()
    lit = algorithm2_literal(model, "mvc", batch, 15)
    t1 = time.perf_counter()
    st: dict = {}
    res = algorithm2_exact(model, "mvc", batch, 15, stats=st)
    t2 = time.perf_counter()
    pr = algorithm2_exact(model, "mvc", batch, 15, prune=True)
    t3 = time.perf_counter()
    best = min(len(S) for S in lit)
    row = {"family": family, "n": n, "edges": G.number_of_edges(), "literal_s": round(t1 - t0, 3),
           "fast_s": round(t2 - t1, 3), "speedup": round((t1 - t0) / (t2 - t1), 2),
           "fast_pruned_s": round(t3 - t2, 3),
           "speedup_pruned": round((t1 - t0) / (t3 - t2), 2),
           "identical": res.solutions == lit,
           "pruned_same_answer": min(len(S) for S in pr.solutions if S is not None) == best
           and [S for S in pr.solutions if S is not None and len(S) == best][0]
           == [S for S in lit if len(S) == best][0],
           "decisions": st}
    print(row, flush=True)
    return row


def growth(model, args) -> dict:
    def step_time(family, n, p=None):
        if p is None:
            G, batch = _graph(family, n, args.device)
        else:
            from g2s.graphs import erdos_renyi
            G = erdos_renyi(n, p=p, seed=1)
            batch = batch_graphs([G], device=args.device, dtype=torch.float64)
        k = args.growth_steps
        algorithm2_exact(model, "mvc", batch, 15, max_steps=2)          # warm caches
        t0 = time.perf_counter()
        algorithm2_exact(model, "mvc", batch, 15, max_steps=2 + k)
        return G.number_of_nodes(), G.number_of_edges(), (time.perf_counter() - t0) / (2 + k)

    sizes = [1000, 2000, 4000, 8000, 16000] if not args.quick else [500, 1000, 2000]
    v_rows = [step_time("sparse_er", n) for n in sizes]
    ps = [0.02, 0.04, 0.08, 0.16] if not args.quick else [0.02, 0.04]
    e_rows = [step_time("er", 1600, p) for p in ps]

    def slope(x, y):
        return round(float(np.polyfit(np.log(x), np.log(y), 1)[0]), 3)

    out = {"sparse_er_by_n": [{"n": n, "edges": m, "s_per_step": round(t, 5)}
                              for n, m, t in v_rows],
           "er_1600_by_p": [{"p": p, "edges": m, "s_per_step": round(t, 5)}
                            for p, (_, m, t) in zip(ps, e_rows)],
           "exponent_in_V_sparse_er": slope([r[0] for r in v_rows], [r[2] for r in v_rows]),
           "exponent_in_E_fixed_V": slope([r[1] for r in e_rows], [r[2] for r in e_rows])}
    print(out, flush=True)
    return out


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=4, help="greedy steps timed per repeat")
    p.add_argument("--warmup", type=int, default=40, help="greedy steps before timing")
    p.add_argument("--repeats", type=int, default=2, help="alternated repeats per path")
    p.add_argument("--growth-steps", type=int, default=6, help="steps per growth point")
    p.add_argument("--threads", type=int, default=1, help="torch threads for both paths")
    p.add_argument("--device", default="cpu")
    p.add_argument("--quick", action="store_true", help="small sizes only (a smoke test)")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    path = default_checkpoint("mvc")
    model, _ = load_checkpoint(path, device=args.device)
    cases = [("sparse_er", 2000), ("er", 400)] if args.quick else STEP_CASES
    with tempfile.TemporaryDirectory() as tmp:
        steps = [per_step(model, f, n, args, Path(tmp)) for f, n in cases]
    episodes = [whole_episode(model, f, n if not args.quick else 60, args)
                for f, n in EPISODE_CASES]
    result = {"checkpoint": path.name, "t_max": 15, "threads": args.threads,
              "device": args.device, "machine": platform.processor() or platform.machine(),
              "torch": str(torch.__version__), "quick": args.quick, "per_step": steps,
              "whole_episode": episodes, "growth": growth(model, args),
              "note": "2-core machine shared with other jobs: absolute times are noisy, "
                      "ratios are of alternated runs in one process"}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
