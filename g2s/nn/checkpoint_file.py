"""Read a checkpoint file and check it before any weight is used: one clear error per fault.

A checkpoint is ``{"state_dict": {name: tensor}, "meta": {"model_config": ..., "train_config":
..., ...}}`` written by :func:`g2s.rl.dqn.train`.  It is read with
``torch.load(..., weights_only=True)``, so a file that would run code when unpickled is refused
by PyTorch's restricted unpickler, never executed.  Every way a file can be wrong raises
:class:`CheckpointError` (a ``ValueError``) with one line naming the file and the fault:

* not a PyTorch file, truncated, or random bytes;
* objects or code that ``weights_only`` loading refuses (a pickled class or function);
* no ``state_dict`` / ``meta``, or a ``meta`` without ``model_config`` / ``train_config``;
* an unknown encoder, or weights whose names or shapes contradict ``meta["model_config"]``;
* a NaN or infinite weight: the model would still return a feasible answer (every method's
  rollout ends in a feasible set), just a meaningless one, so it is refused rather than used.
"""

from __future__ import annotations

import pickle
import warnings
from pathlib import Path

import torch

__all__ = ["CheckpointError", "torch_load_checked", "read_checkpoint", "build_checked_model"]


class CheckpointError(ValueError):
    """The checkpoint file is unreadable, incomplete or inconsistent."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0].strip() if text else type(exc).__name__


def torch_load_checked(path, device="cpu", what: str = "checkpoint"):
    """``torch.load(path, weights_only=True)`` with every failure as one :class:`CheckpointError`
    line (``what`` names the kind of file), and torch's warnings kept off the terminal."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise CheckpointError(f"{what} {path}: cannot be read ({_first_line(exc)})") from None
    if not head:
        raise CheckpointError(f"{what} {path}: not a readable PyTorch checkpoint (truncated or "
                              "corrupt: empty file)")
    if head != b"PK\x03\x04" and head[:1] != b"\x80":  # torch.save's zip, or a legacy pickle
        raise CheckpointError(f"{what} {path}: not a PyTorch checkpoint file (unrecognised "
                              "content)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. torch's note on the pickle protocol
        try:
            return torch.load(path, map_location=device, weights_only=True)
        except pickle.UnpicklingError as exc:
            if "GLOBAL" in str(exc) or "global" in str(exc):
                raise CheckpointError(f"{what} {path}: holds objects or code that weights-only "
                                      "loading refuses; not loaded") from None
            raise CheckpointError(f"{what} {path}: not a PyTorch checkpoint file (unrecognised "
                                  "content)") from None
        except Exception as exc:  # noqa: BLE001 - zip, EOF, index and OS errors alike
            raise CheckpointError(f"{what} {path}: not a readable PyTorch checkpoint "
                                  f"(truncated or corrupt: {_first_line(exc)})") from None


def read_checkpoint(path, device="cpu") -> dict:
    """The checked payload of a checkpoint file (``state_dict`` and ``meta``)."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no such checkpoint: {path}")
    payload = torch_load_checked(path, device)
    if not isinstance(payload, dict):
        raise CheckpointError(f"checkpoint {path}: expected a dict with 'state_dict' and "
                              f"'meta', found {type(payload).__name__}")
    for key in ("state_dict", "meta"):
        if key not in payload:
            raise CheckpointError(f"checkpoint {path}: no {key!r} in the file (not written "
                                  "by 'g2s train')")
    meta, state = payload["meta"], payload["state_dict"]
    if not isinstance(meta, dict) or not isinstance(meta.get("model_config"), dict) \
            or not isinstance(meta.get("train_config"), dict):
        raise CheckpointError(f"checkpoint {path}: 'meta' lacks model_config / train_config")
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor)
                                              for v in state.values()):
        raise CheckpointError(f"checkpoint {path}: 'state_dict' is not a dict of tensors")
    bad = [k for k, v in state.items() if v.is_floating_point() and not bool(
        torch.isfinite(v).all())]
    if bad:
        raise CheckpointError(f"checkpoint {path}: NaN or infinite weights in {bad[0]}"
                              + (f" and {len(bad) - 1} more tensor(s)" if len(bad) > 1 else ""))
    return payload


def build_checked_model(payload: dict, path, device="cpu"):
    """The model of a checked payload with its weights loaded; contradictions are one line."""
    from g2s.nn.model import build_model
    try:
        model = build_model(payload["meta"]["model_config"]).to(device)
    except (ValueError, TypeError, KeyError) as exc:
        raise CheckpointError(f"checkpoint {Path(path)}: model_config cannot be built "
                              f"({_first_line(exc)})") from None
    want = model.state_dict()
    have = payload["state_dict"]
    faults = [f"{k} missing" for k in want if k not in have]
    faults += [f"unexpected {k}" for k in have if k not in want]
    faults += [f"{k} has shape {list(have[k].shape)}, model_config needs {list(v.shape)}"
               for k, v in want.items() if k in have and have[k].shape != v.shape]
    if faults:
        more = f" (and {len(faults) - 1} more)" if len(faults) > 1 else ""
        raise CheckpointError(f"checkpoint {Path(path)}: the weights contradict its "
                              f"model_config: {faults[0]}{more}")
    model.load_state_dict(have)
    return model
