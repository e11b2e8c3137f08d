"""Speed of the neural baselines: one training iteration and one forward pass.

* training iteration: one Adam step on the Q-learning loss of Eq. (4) (:func:`g2s.rl.dqn.
  _td_loss`, which runs the model on the states and on the next states) for a minibatch of 64
  transitions on ER(15, 0.15) graphs, as :func:`g2s.rl.dqn.train` does every iteration (the
  epsilon-greedy step and validation are not included);
* forward pass: the encoder + Q-network on one ER(n, 0.15) graph (the paper's test family) at
  ``n = 100, 400, 1600`` with ``c = 0``.  A greedy rollout costs about ``|S|`` forward passes.

The WL kernel embedding is measured only where tractable (``--wl-sizes``, default 50-300): its
cost grows about as ``|V| |E|`` per pass (each vertex's 5-ball is the whole graph at these
densities), so the JSON also records the log-log slope of its forward time against ``n``.

Usage::

    OMP_NUM_THREADS=1 python benchmarks/bench_baselines.py [--repeats 3] \\
        [--out benchmarks/results/baselines.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import networkx as nx
import numpy as np
import torch

import g2s.nn.baselines  # noqa: F401  registers the encoders
from g2s.nn.baselines import BASELINES
from g2s.nn.batch import batch_graphs, edge_array
from g2s.nn.model import ModelConfig, QModel
from g2s.rl.dqn import _td_loss
from g2s.rl.replay import Transition

SIZES = (100, 400, 1600)


def _transitions(count: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        G = nx.gnp_random_graph(15, 0.15, seed=int(rng.integers(2**31)))
        g = edge_array(G)
        S = np.zeros(15, dtype=bool)
        for a in rng.permutation(15)[: int(rng.integers(1, 8))]:
            out.append(Transition(g, S.copy(), int(a), -1.0))
            S[a] = True
    return out[:count]


def _best_of(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def time_training_iteration(name: str, repeats: int) -> float:
    torch.manual_seed(0)
    model = QModel(ModelConfig(encoder=name))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    counter = iter(range(1, 10**6))

    def step():                                  # fresh states: no embedding-cache hits
        loss = _td_loss(model, model, "mvc", _transitions(64, next(counter)), 5, "cpu")
        opt.zero_grad()
        loss.backward()
        opt.step()

    step()
    return _best_of(step, repeats)


@torch.no_grad()
def time_forward(name: str, n: int, repeats: int) -> float:
    torch.manual_seed(0)
    model = QModel(ModelConfig(encoder=name))
    if hasattr(model.encoder, "cache_size"):
        model.encoder.cache_size = 0                    # time the computation, not the cache
    batch = batch_graphs([nx.gnp_random_graph(n, 0.15, seed=n)])
    c = torch.zeros(n)
    return _best_of(lambda: model(batch, c), repeats)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--wl-sizes", type=int, nargs="+", default=[50, 100, 200, 300])
    p.add_argument("--out", default="benchmarks/results/baselines.json")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    rows = {}
    for name in BASELINES:
        row = {"train_iteration_s": round(time_training_iteration(name, args.repeats), 5)}
        sizes = args.wl_sizes if name == "wl_embed" else SIZES
        row["forward_s"] = {str(n): round(time_forward(name, n, 1 if n > 200 else args.repeats),
                                          5) for n in sizes}
        rows[name] = row
        print(name, row, flush=True)
    wl = rows["wl_embed"]["forward_s"]
    ns = np.array([int(k) for k in wl], dtype=float)
    slope = float(np.polyfit(np.log(ns), np.log([wl[k] for k in wl]), 1)[0])
    result = {"encoders": rows, "wl_embed_loglog_slope": round(slope, 3),
              "wl_embed_sizes_skipped": [n for n in SIZES if n not in args.wl_sizes],
              "graphs": "ER(n, 0.15); training: 64 transitions on ER(15, 0.15)",
              "torch_threads": torch.get_num_threads(), "torch": str(torch.__version__),
              "python": platform.python_version(), "machine": platform.machine(),
              "note": "best of --repeats wall-clock runs on a shared machine"}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
