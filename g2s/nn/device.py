"""Resolve a user's ``--device`` string to a usable :class:`torch.device`, with a clear error."""

from __future__ import annotations

import torch

__all__ = ["resolve_device"]


def resolve_device(name) -> torch.device:
    """``"cpu"``, ``"cuda"`` or ``"cuda:N"``; raise ``ValueError`` when it cannot be used here."""
    try:
        dev = torch.device(name)
    except (RuntimeError, TypeError):
        raise ValueError(f"unknown device {name!r}; use cpu, cuda or cuda:N") from None
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(f"device {name!r} requested but CUDA is not available here; "
                             "use --device cpu")
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise ValueError(f"device {name!r}: only {torch.cuda.device_count()} CUDA "
                             "device(s) present")
    elif dev.type != "cpu":
        raise ValueError(f"unsupported device {name!r}; use cpu, cuda or cuda:N")
    else:  # 'cpu:0' names the same CPU, but torch.load cannot map a checkpoint to it
        dev = torch.device("cpu")
    return dev
