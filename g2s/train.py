"""Command-line entry for training: ``g2s train`` (and ``python -m g2s.train``).

``python -m g2s.train --problem mvc --graphs er --n 15 --iterations 100000 --seed 0 --out CKPT``
trains G2S-RNN with Q-learning (:mod:`g2s.rl.dqn`), shows a progress bar, validates
periodically, and resumes from ``CKPT`` with suffix ``.resume.pt`` after an interruption.
"""

from __future__ import annotations

import argparse
from dataclasses import fields

import torch

from g2s.nn.model import ModelConfig
from g2s.rl.dqn import TrainConfig, train

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


_CHOICES = {"problem": ("mvc", "maxcut", "mis")}


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """Add the training options (one per :class:`TrainConfig` field) to ``parser``."""
    p = parser or argparse.ArgumentParser(prog="g2s train", description=__doc__)
    docs = _field_comments(TrainConfig)
    for f in fields(TrainConfig):
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{docs.get(f.name, '')} (default: {f.default})"
        if f.type in ("bool", bool):
            p.add_argument(flag, type=lambda s: s.lower() in ("1", "true", "yes"),
                           default=f.default, help=help_text, metavar="{true,false}")
        else:
            kind = {"int": int, "float": float, "str": str}.get(str(f.type), str)
            p.add_argument(flag, type=kind, default=f.default, help=help_text,
                           choices=_CHOICES.get(f.name))
    p.add_argument("--encoder", default="g2s_rnn",
                   choices=("g2s_rnn", "s2v", "sage_gcn", "sage_mean", "sage_pool", "wl_nn",
                            "wl_embed"),
                   help="g2s_rnn (G2S-RNN, default) or a neural baseline (Section 5)")
    p.add_argument("--out", required=True, help="checkpoint path (.pt); a .json sidecar is written")
    p.add_argument("--no-resume", action="store_true", help="ignore an existing .resume.pt")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return p


def main(argv=None, args: argparse.Namespace | None = None) -> dict:
    if args is None:
        args = build_parser().parse_args(argv)
    torch.set_num_threads(args.threads)
    cfg = TrainConfig.from_dict({f.name: getattr(args, f.name) for f in fields(TrainConfig)})
    meta = train(cfg, args.out, ModelConfig(encoder=args.encoder), resume=not args.no_resume,
                 progress=not args.no_progress)
    print(f"wrote {args.out}: {meta['iterations']} iterations, {meta['training_time_s']} s, "
          f"best val ratio {meta['best_val_ratio']:.4f} at {meta['selected_iteration']}, "
          f"final {meta['final_val_ratio']:.4f}")
    return meta


if __name__ == "__main__":
    main()
