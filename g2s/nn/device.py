"""Resolve a user's ``--device`` string to a usable :class:`torch.device`, with a clear error."""

from __future__ import annotations

import argparse

import torch

from g2s import argtypes

__all__ = ["resolve_device"]


def resolve_device(name) -> torch.device:
    """``"cpu"``, ``"cuda"`` or ``"cuda:N"``; raise ``ValueError`` when it cannot be used here.
    The names accepted are :func:`g2s.argtypes.device`'s, which the command lines check first."""
    try:
        argtypes.device(str(name))
    except argparse.ArgumentTypeError:
        raise ValueError(f"unknown device {name!r}; use cpu, cuda or cuda:N") from None
    dev = torch.device(name)
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device {name!r} requested but CUDA is not available here; "
                             "use --device cpu")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(f"device {name!r}: only {torch.cuda.device_count()} CUDA "
                             "device(s) present")
    else:  # 'cpu:0' names the same CPU, but torch.load cannot map a checkpoint to it
        dev = torch.device("cpu")
    return dev
