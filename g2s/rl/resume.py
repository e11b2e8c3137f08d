"""Resume points of Q-learning (:mod:`g2s.rl.dqn`): their configuration check, loading, and
atomic saving, and the exception a signal-interrupted run raises once its state is saved."""

from __future__ import annotations

import io
from dataclasses import asdict
from pathlib import Path

import torch

from g2s.fsutil import atomic_write_bytes
from g2s.nn.checkpoint_file import CheckpointError, torch_load_checked
from g2s.nn.model import ModelConfig
from g2s.rl.config import TrainConfig

__all__ = ["TrainingInterrupted", "RESUME_MAY_DIFFER", "check_resume_config", "load_resume",
           "save_atomic"]


class TrainingInterrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived; a resume point was saved first.  ``exit_code`` is
    ``128 + signal number`` (130 for Ctrl-C, 143 for SIGTERM)."""

    def __init__(self, message: str, signum: int):
        super().__init__(message)
        self.exit_code = 128 + int(signum)


#: fields that may differ between a resume point and the command that continues it: where
#: the run computes and how often it saves do not change what it learns
RESUME_MAY_DIFFER = ("device", "checkpoint_every", "checkpoint_seconds")


def check_resume_config(state: dict, cfg: TrainConfig, mcfg: ModelConfig, path: Path) -> None:
    """Refuse (``ValueError``, one line naming the fields) a resume point written for another
    configuration.  ``iterations`` may grow (the run is extended) but not fall below the
    iterations already done."""
    saved_t, saved_m = state.get("train_config"), state.get("model_config")
    if not isinstance(saved_t, dict) or not isinstance(saved_m, dict):
        raise ValueError(f"resume file {path} does not record its configuration (written by an "
                         "older version); pass --no-resume to start afresh, or delete it")
    now_t, now_m = asdict(cfg), mcfg.to_dict()
    diff = [f"{k} ({saved_t.get(k)!r} there, {now_t[k]!r} here)" for k in now_t
            if k not in RESUME_MAY_DIFFER and k != "iterations" and saved_t.get(k) != now_t[k]]
    diff += [f"model {k} ({saved_m.get(k)!r} there, {now_m[k]!r} here)" for k in now_m
             if saved_m.get(k) != now_m[k]]
    if cfg.iterations < state["iteration"]:
        diff.append(f"iterations ({state['iteration']} already done, {cfg.iterations} asked)")
    if diff:
        raise ValueError(f"resume file {path} was written for another configuration: "
                         f"{'; '.join(diff)}; use the same options, or --no-resume to start "
                         "afresh")


def load_resume(path: Path, dev) -> dict:
    try:
        st = torch_load_checked(path, dev, what="resume file")
    except CheckpointError as exc:
        raise ValueError(f"{exc}; delete it or pass --no-resume") from None
    if not isinstance(st, dict) or not {"model", "optimizer", "rng", "iteration"} <= set(st):
        raise ValueError(f"resume file {path} is not a g2s training state; delete it or pass "
                         "--no-resume")
    return st


def save_atomic(path: Path, payload: dict) -> None:
    """``torch.save`` written atomically (:func:`g2s.fsutil.atomic_write_bytes`)."""
    buf = io.BytesIO()
    torch.save(payload, buf)
    atomic_write_bytes(path, buf.getvalue())
