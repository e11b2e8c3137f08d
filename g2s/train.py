"""Command-line entry for training: ``g2s train`` (and ``python -m g2s.train``).

``python -m g2s.train --problem mvc --graphs er --n 15 --iterations 100000 --seed 0 --out CKPT``
trains G2S-RNN with Q-learning (:mod:`g2s.rl.dqn`), shows a progress bar, validates
periodically, and resumes from ``CKPT`` with suffix ``.resume.pt`` after an interruption.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from pathlib import Path

import torch

from g2s import argtypes
from g2s.graphs import FAMILIES
from g2s.nn.model import ModelConfig
from g2s.rl.config import TrainConfig
from g2s.rl.dqn import train
from g2s.rl.recipes import CUSTOM, RECIPES, resolve_recipe

__all__ = ["build_parser", "main"]


def _field_comments(cls) -> dict:
    """``name -> comment`` from the ``name: type = default  # comment`` lines of a dataclass,
    so each flag's help text is the config field's own documentation (one source of truth)."""
    import inspect
    import re
    out = {}
    for line in inspect.getsource(cls).splitlines():
        m = re.match(r"\s+(\w+):\s*[^=]+=[^#]*#\s*(.+)$", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


_CHOICES = {"problem": ("mvc", "maxcut", "mis"), "graphs": tuple(FAMILIES),
            "validation": ("exact", "algorithm2"), "recipe": (*RECIPES, CUSTOM)}


def training_size(text: str) -> int:
    """``--n``: 1..22 (validation solves each graph exactly by enumerating all subsets)."""
    value = argtypes.positive_int(text)
    if value > 22:
        raise argparse.ArgumentTypeError(f"must be at most 22 (validation graphs are solved "
                                         f"exactly by enumeration), got {text!r}")
    return value

#: the parser's check of each TrainConfig field (argparse ``type=``): a bad value exits 2 with
#: a message naming the flag, before any file is written
_TYPES = {"n": training_size, "iterations": argtypes.nonnegative_int,
          "batch_size": argtypes.positive_int, "lr": argtypes.positive_float,
          "eps_start": argtypes.probability, "eps_end": argtypes.probability,
          "eps_decay": argtypes.positive_int, "replay_capacity": argtypes.positive_int,
          "n_envs": argtypes.positive_int, "warmup": argtypes.nonnegative_int,
          "target_update": argtypes.nonnegative_int, "grad_clip": argtypes.nonnegative_float,
          "t_train_max": argtypes.nonnegative_int, "n_max": argtypes.nonnegative_int,
          "select_every": argtypes.positive_int, "validation_n": argtypes.positive_int,
          "validation_graphs": argtypes.positive_int,
          "keep_best": argtypes.boolean, "validate_every": argtypes.positive_int,
          "n_validation": argtypes.positive_int, "checkpoint_every": argtypes.positive_int,
          "checkpoint_seconds": argtypes.nonnegative_float, "seed": argtypes.seed,
          "device": argtypes.device}


def checkpoint_out(text: str) -> Path:
    """``--out``: a ``.pt`` path (not a folder, not ``.json``: the sidecar is ``OUT.json``)."""
    path = argtypes.output_file(text)
    if path.suffix == ".json":
        raise argparse.ArgumentTypeError(f"{text!r}: the checkpoint's .json sidecar would "
                                         "overwrite it; use a .pt name")
    return path


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """Add the training options (one per :class:`TrainConfig` field) to ``parser``."""
    p = parser or argparse.ArgumentParser(allow_abbrev=False, prog="g2s train", description=__doc__)
    docs = _field_comments(TrainConfig)
    for f in fields(TrainConfig):
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{docs.get(f.name, '')} (default: {f.default})"
        if f.name == "recipe":  # None: the recipe the other flags match
            p.add_argument(flag, default=None, choices=_CHOICES["recipe"], help=(
                "the training recipe, which sets its fields (g2s.rl.recipes): " + "; ".join(
                    f"{r.name}: {r.summary}" for r in RECIPES.values())
                + f"; default: the one the other flags match, else {CUSTOM}"))
            continue
        if f.type in ("bool", bool):
            p.add_argument(flag, type=argtypes.boolean, default=f.default, help=help_text,
                           metavar="{true,false}")
        else:
            kind = {"int": int, "float": float, "str": str}.get(str(f.type), str)
            p.add_argument(flag, type=_TYPES.get(f.name, kind), default=f.default,
                           help=help_text, choices=_CHOICES.get(f.name))
    p.add_argument("--encoder", default="g2s_rnn",
                   choices=("g2s_rnn", "s2v", "sage_gcn", "sage_mean", "sage_pool", "wl_nn",
                            "wl_embed"),
                   help="g2s_rnn (G2S-RNN, default) or a neural baseline (Section 5)")
    p.add_argument("--out", type=checkpoint_out, default=None,
                   help="checkpoint path (.pt; required); a .json sidecar is written")
    p.add_argument("--no-resume", action="store_true", help="ignore an existing .resume.pt")
    p.add_argument("--threads", type=argtypes.positive_int, default=1,
                   action=argtypes.ThreadsAction,
                   help="torch CPU threads (default 1; more than the available cores is "
                        "lowered to their number, with a warning)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return p


def main(argv=None, args: argparse.Namespace | None = None,
         parser: argparse.ArgumentParser | None = None) -> dict:
    """Train from the command line ``argv`` (or already-parsed ``args`` of ``parser``)."""
    if args is None:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.out is None:
            parser.error("the following arguments are required: --out")
    values = {f.name: getattr(args, f.name) for f in fields(TrainConfig)}
    parser = parser or build_parser()
    try:
        values = resolve_recipe(values, values["recipe"])
    except ValueError as exc:
        parser.error(str(exc))
    if values["n_max"] and values["n_max"] <= values["n"]:
        parser.error(f"argument --n-max: must exceed --n ({values['n']}) or be 0, "
                     f"got {values['n_max']}")
    torch.set_num_threads(args.threads)
    cfg = TrainConfig.from_dict(values)
    meta = train(cfg, args.out, ModelConfig(encoder=args.encoder), resume=not args.no_resume,
                 progress=not args.no_progress)
    if meta["best_val_ratio"] is None:   # no validation ran: zero iterations
        print(f"wrote {args.out}: the initial weights of seed {meta['seed']} (0 iterations)")
    else:
        print(f"wrote {args.out}: {meta['iterations']} iterations, {meta['training_time_s']} s, "
              f"best val ratio {meta['best_val_ratio']:.4f} at {meta['selected_iteration']}, "
              f"final {meta['final_val_ratio']:.4f}")
    return meta


def run() -> None:
    """``python -m g2s.train``: :func:`main`; an interruption (Ctrl-C, SIGTERM) has saved a
    resume point and says where in one line, exit ``128 + signal`` (no traceback)."""
    from g2s.rl.resume import TrainingInterrupted
    try:
        main()
    except TrainingInterrupted as exc:
        print(f"g2s train: interrupted ({exc})", file=sys.stderr)
        raise SystemExit(exc.exit_code) from None


if __name__ == "__main__":
    run()
