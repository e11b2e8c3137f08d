"""Q-learning for G2S-RNN (arXiv:1802.04948, Appendix C.1, Eq. (4); settings of Section 5).

Each iteration takes one epsilon-greedy step in ``n_envs`` parallel episodes on fresh training
graphs, stores the transitions in the replay buffer, and makes one Adam step on a minibatch of
the empirical loss Eq. (4) (its mean rather than its sum):

.. math::  \\big(\\tilde Q(G,S,a) - [f(S+a) - f(S)] - \\max_{a'} \\tilde Q(G, S+a, a')\\big)^2,

the max running over the candidates of ``S + a`` (zero when ``S + a`` is terminal), undiscounted.
Paper settings are the defaults: Adam, learning rate 1e-3, epsilon 1.0 -> 0.05 linearly over
10,000 iterations, 100,000 iterations, ``T = 5``, ER graphs with 15 vertices and ``p = 0.15``.

Options added to make training work, each off or neutral by default unless stated:
``target_update`` (0: targets use the current weights, as Eq. (4) is written; k > 0: a target
network copied every k iterations), ``grad_clip`` (0: none), and ``keep_best`` (default on:
the shipped weights are those with the best validation ratio, measured every
``validate_every`` iterations on fixed ER graphs solved exactly by enumeration; the JSON
records both the best and the final validation ratio).  The default stays as Eq. (4) is
written.

:func:`train` is the loop; each iteration acts (:func:`g2s.rl.qstep.act`, one step of every
episode through :class:`g2s.rl.env.VertexSelectionEnv`), learns (:func:`g2s.rl.qstep.learn`),
and at its intervals validates (:func:`_validate`, the greedy rollout of :mod:`g2s.evaluate`
against the enumerated optimum) and saves a resume point (:mod:`g2s.rl.resume`, atomic).

Resume points are written every ``checkpoint_every`` iterations, every ``checkpoint_seconds``
of wall time, and when the run gets SIGINT (Ctrl-C) or SIGTERM (model, optimiser, curve, RNG
state and both configurations; loadable with ``weights_only=True``), and :func:`train` resumes
from them.  A resume point whose configuration differs from the requested one is refused
(:func:`check_resume_config`).  The replay buffer and the open episodes are not saved: after a
resume the buffer refills, so a resumed run is not bit-identical to an uninterrupted one.
"""

from __future__ import annotations

import copy
import json
import signal
import threading
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import networkx as nx
import numpy as np
import torch
from tqdm import tqdm

from g2s.algorithm2.literal import greedy_rollout
from g2s.fsutil import atomic_write_text
from g2s.graphs import as_rng, instance_seed, make_graph
from g2s.nn.batch import batch_edge_arrays, edge_array
from g2s.nn.model import ModelConfig, QModel, build_model
from g2s.problems import approximation_ratio, objective
from g2s.reference.exact import optimum_by_enumeration
from g2s.rl.config import TrainConfig
from g2s.rl.qstep import act, learn, td_loss
from g2s.rl.replay import ReplayBuffer
from g2s.rl.resume import (
    TrainingInterrupted,
    check_resume_config,
    load_resume,
    save_atomic,
)

__all__ = ["TrainingInterrupted", "check_resume_config", "greedy_objectives", "train"]

_td_loss = td_loss  # the name tests/g2s/test_baselines.py and benchmarks/bench_baselines.py use


@torch.no_grad()
def greedy_objectives(model: QModel, problem: str, graphs: list, T: int,
                      device="cpu") -> np.ndarray:
    """Objective of the greedy policy of ``model`` at depth ``T`` on each ``(n, edges)`` graph:
    :func:`g2s.algorithm2.literal.greedy_rollout`, the rollout Algorithm 2 runs, one graph at a
    time."""
    dtype = next(model.parameters()).dtype
    out = []
    for n, edges in graphs:
        batch = batch_edge_arrays([(n, edges)], device=device, dtype=dtype)
        S = torch.nonzero(greedy_rollout(model, problem, batch, T)).squeeze(1).tolist()
        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from(map(tuple, edges.tolist()))
        out.append(objective(problem, G, S))
    return np.asarray(out, dtype=float)


def _validation_set(cfg: TrainConfig):
    graphs = [edge_array(make_graph(cfg.graphs, cfg.n, seed=instance_seed(
        cfg.graphs, cfg.n, i, base=987_654))) for i in range(cfg.n_validation)]
    opt = np.array([optimum_by_enumeration(cfg.problem, n, e) for n, e in graphs], dtype=float)
    return graphs, opt


def _validate(model: QModel, cfg: TrainConfig, T: int, validation, device) -> float:
    """Mean approximation ratio of the greedy policy on the fixed validation graphs."""
    graphs, opt = validation
    values = greedy_objectives(model, cfg.problem, graphs, T, device)
    return float(np.mean([approximation_ratio(cfg.problem, v, o) for v, o in zip(values, opt)]))


def _keep_best(best: dict | None, iteration: int, ratio: float, model: QModel) -> dict:
    """The best validation so far; ties go to the later iteration: validation on ER-15
    saturates at ratio 1.0 early, and among equally good weights the more-trained are kept."""
    if best is None or ratio <= best["val_ratio"]:
        return {"iteration": iteration, "val_ratio": ratio,
                "state": {k: v.detach().clone() for k, v in model.state_dict().items()}}
    return best


def train(cfg: TrainConfig, out: str | Path, model_config: ModelConfig | None = None,
          resume: bool = True, progress: bool = True) -> dict:
    """Train with Q-learning; write ``out`` (weights + metadata) and ``out`` with ``.json``.

    Returns the metadata dict written to the JSON sidecar.  SIGINT and SIGTERM (when called
    from the main thread) finish the current iteration, save a resume point and raise
    :class:`TrainingInterrupted`; a second signal stops at once.
    """
    stop: list = []

    def on_signal(signum, frame):
        if stop:
            raise KeyboardInterrupt
        stop.append(signum)

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, on_signal)
    try:
        return _train(cfg, out, model_config, resume, progress, stop)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _train(cfg: TrainConfig, out: str | Path, model_config: ModelConfig | None, resume: bool,
           progress: bool, stop: list) -> dict:
    out = Path(out)
    state_path = out.with_suffix(".resume.pt")
    mcfg = model_config or ModelConfig()
    dev = torch.device(cfg.device)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(cfg.seed)
        model = build_model(mcfg).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    rng = as_rng(cfg.seed)
    curve, start, elapsed, best, segments = [], 0, 0.0, None, []
    if resume and state_path.exists():
        st = load_resume(state_path, dev)
        check_resume_config(st, cfg, mcfg, state_path)
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["optimizer"])
        rng.bit_generator.state = json.loads(st["rng"])
        curve, start, elapsed = st["curve"], st["iteration"], st["elapsed_s"]
        best = st.get("best")
        # a resume point saved before segments were recorded: its past as one unknown segment
        segments = list(st.get("segments") or [_segment(0, start, elapsed, None, None, None)])
    target = copy.deepcopy(model) if cfg.target_update > 0 else model
    validation = _validation_set(cfg)
    buf = ReplayBuffer(cfg.replay_capacity)
    envs = [None] * cfg.n_envs
    losses, t0 = [], time.time()
    began = datetime.now(UTC).isoformat(timespec="seconds")
    last_save = time.monotonic()

    def history(upto: int) -> list:    # the segments so far, this run's included
        return segments + [_segment(start, upto, time.time() - t0, began,
                                    str(torch.__version__), str(dev))]
    bar = tqdm(range(start, cfg.iterations), initial=start, total=cfg.iterations,
               disable=not progress, desc=f"train {cfg.problem} s{cfg.seed}", mininterval=2)
    it = start
    for it in bar:
        eps = max(cfg.eps_end, cfg.eps_start - (cfg.eps_start - cfg.eps_end) * it / cfg.eps_decay)
        envs = act(model, cfg, mcfg.T_train, envs, eps, rng, buf, dev)
        loss = learn(model, target, opt, cfg, mcfg.T_train, buf, rng, dev)
        if loss is not None:
            losses.append(loss)
        if cfg.target_update > 0 and (it + 1) % cfg.target_update == 0:
            target.load_state_dict(model.state_dict())
        if (it + 1) % cfg.validate_every == 0 or it + 1 == cfg.iterations:
            ratio = _validate(model, cfg, mcfg.T_train, validation, dev)
            curve.append({"iteration": it + 1, "val_ratio": ratio,
                          "loss": float(np.mean(losses)) if losses else None})
            losses = []
            bar.set_postfix(val=f"{ratio:.4f}", eps=f"{eps:.2f}")
            best = _keep_best(best, it + 1, ratio, model)
        timed = cfg.checkpoint_seconds > 0 and time.monotonic() - last_save >= \
            cfg.checkpoint_seconds
        if stop or timed or (it + 1) % cfg.checkpoint_every == 0 or it + 1 == cfg.iterations:
            save_atomic(state_path, {"model": model.state_dict(), "optimizer": opt.state_dict(),
                               "rng": json.dumps(rng.bit_generator.state), "curve": curve,
                               "iteration": it + 1, "best": best,
                               "elapsed_s": elapsed + time.time() - t0,
                               "segments": history(it + 1),
                               "train_config": asdict(cfg), "model_config": mcfg.to_dict()})
            last_save = time.monotonic()
        if stop:
            bar.close()
            name = signal.Signals(stop[0]).name
            raise TrainingInterrupted(f"{name}: resume point saved at iteration {it + 1} to "
                                      f"{state_path}; rerun the command to continue", stop[0])
    return _write_checkpoint(out, model, cfg, mcfg, curve, best, elapsed + time.time() - t0,
                             history(max(cfg.iterations, start)))


def _segment(first: int, last: int, seconds: float, started: str | None,
             torch_version: str | None, device: str | None) -> dict:
    """One uninterrupted stretch of a training: iterations ``first`` to ``last``, how long it
    took, when it began (UTC), and the torch version and device it ran on (None: not known, a
    stretch saved before segments were recorded)."""
    return {"iterations": [first, last], "seconds": round(seconds, 1), "started_utc": started,
            "torch_version": torch_version, "device": device}


def _write_checkpoint(out: Path, model: QModel, cfg: TrainConfig, mcfg: ModelConfig,
                      curve: list, best: dict | None, elapsed: float,
                      segments: list | None = None) -> dict:
    """Write the trained model (the best-validation weights under ``keep_best``) and its JSON
    sidecar, both atomically; return the metadata."""
    chosen = best if (cfg.keep_best and best is not None) else None
    meta = {"model_config": mcfg.to_dict(), "train_config": asdict(cfg),
            "iterations": cfg.iterations, "seed": cfg.seed, "training_time_s": round(elapsed, 1),
            "validation_curve": curve, "selected": "best" if chosen else "final",
            "selected_iteration": chosen["iteration"] if chosen else cfg.iterations,
            "best_val_ratio": best["val_ratio"] if best else None,
            "final_val_ratio": curve[-1]["val_ratio"] if curve else None,
            "torch_version": str(torch.__version__), "segments": segments or []}
    state = chosen["state"] if chosen else model.state_dict()
    save_atomic(out, {"state_dict": {k: v.cpu() for k, v in state.items()}, "meta": meta})
    atomic_write_text(out.with_suffix(".json"), json.dumps(meta, indent=1) + "\n")
    return meta
