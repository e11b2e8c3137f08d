"""Q-learning for G2S-RNN (arXiv:1802.04948, Appendix C.1, Eq. (4); settings of Section 5).

Each iteration takes one epsilon-greedy step in ``n_envs`` parallel episodes on fresh training
graphs, stores the transitions in the replay buffer, and makes one Adam step on a minibatch of
the empirical loss Eq. (4) (its mean rather than its sum):

.. math::  \\big(\\tilde Q(G,S,a) - [f(S+a) - f(S)] - \\max_{a'} \\tilde Q(G, S+a, a')\\big)^2,

the max running over the candidates of ``S + a`` (zero when ``S + a`` is terminal), undiscounted.
Paper settings are the defaults: Adam, learning rate 1e-3, epsilon 1.0 -> 0.05 linearly over
10,000 iterations, 100,000 iterations, ``T = 5``, ER graphs with 15 vertices and ``p = 0.15``.

Options added to make training work, each off or neutral by default (the shipped recipe,
``paper`` of :mod:`g2s.rl.recipes`; the other recipes set them): ``target_update`` (0: targets
use the current weights, as Eq. (4) is written; k > 0: a target network copied every k
iterations), ``t_train_max`` (0: ``T = T_train`` at every step; k: ``T`` uniform on ``1..k``,
drawn once per iteration for acting and learning), ``n_max`` (training graph sizes uniform on
``n..n_max``), ``grad_clip`` (0: none), and the validation that selects the shipped weights
(:mod:`g2s.rl.validation`): ``exact`` (the greedy policy at ``T_train`` on fixed graphs of the
training size solved by enumeration, every ``validate_every`` iterations; ties go to the
latest) or ``algorithm2`` (Algorithm 2 on larger graphs of the training family every
``select_every`` iterations; the exact curve is still recorded).  The JSON records the curves,
the best and the final validation ratio.

:func:`train` is the loop; each iteration acts (:func:`g2s.rl.qstep.act`, one step of every
episode through :class:`g2s.rl.env.VertexSelectionEnv`), learns (:func:`g2s.rl.qstep.learn`),
and at its intervals validates (:mod:`g2s.rl.validation`) and saves a resume point
(:mod:`g2s.rl.resume`, atomic).

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

import numpy as np
import torch
from tqdm import tqdm

from g2s.fsutil import atomic_write_text
from g2s.graphs import as_rng
from g2s.nn.model import ModelConfig, QModel, build_model
from g2s.rl.config import TrainConfig
from g2s.rl.qstep import act, learn, td_loss
from g2s.rl.replay import ReplayBuffer
from g2s.rl.resume import (
    TrainingInterrupted,
    check_resume_config,
    load_resume,
    save_atomic,
)
from g2s.rl.validation import (
    algorithm2_validation_set,
    exact_validation_set,
    greedy_objectives,
    validate_algorithm2,
    validate_exact,
)

__all__ = ["TrainingInterrupted", "check_resume_config", "greedy_objectives", "train"]

_td_loss = td_loss  # the name tests/g2s/test_baselines.py and benchmarks/bench_baselines.py use


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
        selection = st.get("selection_curve", [])
        vset = st.get("validation_set")
    else:
        selection, vset = [], None
    target = copy.deepcopy(model) if cfg.target_update > 0 else model
    validation = exact_validation_set(cfg)
    if cfg.validation == "algorithm2" and vset is None:
        vset = algorithm2_validation_set(cfg)
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
        T = mcfg.T_train if cfg.t_train_max == 0 else int(rng.integers(1, cfg.t_train_max + 1))
        envs = act(model, cfg, T, envs, eps, rng, buf, dev)
        loss = learn(model, target, opt, cfg, T, buf, rng, dev)
        if loss is not None:
            losses.append(loss)
        if cfg.target_update > 0 and (it + 1) % cfg.target_update == 0:
            target.load_state_dict(model.state_dict())
        if (it + 1) % cfg.validate_every == 0 or it + 1 == cfg.iterations:
            ratio = validate_exact(model, cfg, mcfg.T_train, validation, dev)
            curve.append({"iteration": it + 1, "val_ratio": ratio,
                          "loss": float(np.mean(losses)) if losses else None})
            losses = []
            bar.set_postfix(val=f"{ratio:.4f}", eps=f"{eps:.2f}")
            if cfg.validation == "exact":
                best = _keep_best(best, it + 1, ratio, model)
        if cfg.validation == "algorithm2" and (
                (it + 1) % cfg.select_every == 0 or it + 1 == cfg.iterations):
            point = validate_algorithm2(model, cfg, mcfg.T_max, vset, dev)
            selection.append({"iteration": it + 1, **point})
            bar.set_postfix(val=f"{ratio:.4f}", alg2=f"{point['val_ratio']:.4f}")
            best = _keep_best(best, it + 1, point["val_ratio"], model)
        timed = cfg.checkpoint_seconds > 0 and time.monotonic() - last_save >= \
            cfg.checkpoint_seconds
        if stop or timed or (it + 1) % cfg.checkpoint_every == 0 or it + 1 == cfg.iterations:
            save_atomic(state_path, {"model": model.state_dict(), "optimizer": opt.state_dict(),
                               "rng": json.dumps(rng.bit_generator.state), "curve": curve,
                               "iteration": it + 1, "best": best,
                               "elapsed_s": elapsed + time.time() - t0,
                               "segments": history(it + 1),
                               "selection_curve": selection, "validation_set": vset,
                               "train_config": asdict(cfg), "model_config": mcfg.to_dict()})
            last_save = time.monotonic()
        if stop:
            bar.close()
            name = signal.Signals(stop[0]).name
            raise TrainingInterrupted(f"{name}: resume point saved at iteration {it + 1} to "
                                      f"{state_path}; rerun the command to continue", stop[0])
    return _write_checkpoint(out, model, cfg, mcfg, curve, best, elapsed + time.time() - t0,
                             history(max(cfg.iterations, start)), selection, vset)


def _segment(first: int, last: int, seconds: float, started: str | None,
             torch_version: str | None, device: str | None) -> dict:
    """One uninterrupted stretch of a training: iterations ``first`` to ``last``, how long it
    took, when it began (UTC), and the torch version and device it ran on (None: not known, a
    stretch saved before segments were recorded)."""
    return {"iterations": [first, last], "seconds": round(seconds, 1), "started_utc": started,
            "torch_version": torch_version, "device": device}


def _write_checkpoint(out: Path, model: QModel, cfg: TrainConfig, mcfg: ModelConfig,
                      curve: list, best: dict | None, elapsed: float,
                      segments: list | None = None, selection: list | None = None,
                      vset: dict | None = None) -> dict:
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
    meta["recipe"], meta["validation"] = cfg.recipe, cfg.validation
    if cfg.validation == "algorithm2":   # the curve that selected, and its yardstick
        meta.update({"selection_curve": selection or [], "validation_set": vset,
                     "final_val_ratio": selection[-1]["val_ratio"] if selection else None,
                     "exact_final_val_ratio": curve[-1]["val_ratio"] if curve else None})
    state = chosen["state"] if chosen else model.state_dict()
    save_atomic(out, {"state_dict": {k: v.cpu() for k, v in state.items()}, "meta": meta})
    atomic_write_text(out.with_suffix(".json"), json.dumps(meta, indent=1) + "\n")
    return meta
