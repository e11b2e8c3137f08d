"""The registry of trained models shipped with the package: names, listing, defaults, loading.

One checkpoint is one trained model, identified by five things and stored as
``CHECKPOINT_DIR / "{encoder}_{problem}_{trained_on}[_{recipe}]_s{seed}.pt"`` (weights and metadata,
loadable with ``torch.load(..., weights_only=True)``) next to a JSON sidecar with the same
metadata (model config, training config, validation curve):

* ``encoder``: a key of :data:`g2s.nn.model.ENCODERS` (``g2s_rnn``, ``s2v``, ``sage_gcn``, ...);
* ``problem``: ``mvc``, ``maxcut`` or ``mis``;
* ``trained_on``: the training set, the graph family and size (:func:`training_set`), e.g.
  ``er15`` (Section 5), ``bipartite20`` (Figure 2), ``planted15`` (Appendix D.2);
* ``recipe``: the training recipe (:data:`g2s.rl.recipes.RECIPES`); the shipped recipe,
  ``paper``, keeps the names it was first shipped under, with no tag;
* ``seed``: the training seed.

:func:`checkpoint_path` is the only place that builds a file name; every script and test asks
it.  A folder other than :data:`CHECKPOINT_DIR` (a retrained set, the early-stopped
``early20k`` weights) holds files named the same way.  ``defaults.json`` names, per problem, the
G2S-RNN checkpoint that ``g2s solve --method g2s`` uses
(:func:`g2s.rl.validation.select_default_checkpoints`).
The model config stored in a checkpoint carries ``T_max`` (Algorithm 2 tries ``T = 1..T_max``),
which :func:`default_t_max` reads and bounds by :data:`MAX_T_MAX`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import NamedTuple

__all__ = ["CHECKPOINT_DIR", "CheckpointId", "training_set", "checkpoint_path", "shipped",
           "read_meta", "default_checkpoint", "shipped_checkpoint", "load_checkpoint",
           "default_t_max", "MAX_T_MAX", "MAX_ROLLOUT_CELLS",
           "check_t_max"]

#: the largest ``T_max`` accepted from a checkpoint or ``--t-max`` (the paper uses 15): Algorithm
#: 2 keeps a state per rollout, so ``T_max = 1e9`` took 24 GB on a 4-vertex graph
MAX_T_MAX = 1000
#: the most (vertex, rollout) cells Algorithm 2 may keep, ``n * T_max``: its selection and
#: counts take 5 bytes a cell, so this is about 1.3 GB
MAX_ROLLOUT_CELLS = 2**28

CHECKPOINT_DIR = Path(__file__).resolve().parents[1] / "checkpoints"
DEFAULTS_FILE = "defaults.json"
_NAME = re.compile(r"^(?P<encoder>\w+?)_(?P<problem>mvc|maxcut|mis)_(?P<trained_on>[a-z_]+?\d+)"
                   r"(?:_(?P<recipe>[a-z][a-z0-9]*))?_s(?P<seed>\d+)\.pt$")
#: the recipe whose files carry no recipe tag (:data:`g2s.rl.recipes.PAPER`; kept here as text
#: so listing checkpoints needs no torch)
UNTAGGED_RECIPE = "paper"


class CheckpointId(NamedTuple):
    """What identifies a trained model (the parts of its file name)."""
    encoder: str
    problem: str
    trained_on: str
    seed: int
    recipe: str = UNTAGGED_RECIPE


def training_set(graphs: str, n: int) -> str:
    """The ``trained_on`` tag of a training set: graph family and size, e.g. ``er15``."""
    return f"{graphs}{int(n)}"


def checkpoint_path(encoder: str, problem: str, trained_on: str = "er15", seed: int = 0,
                    directory: str | Path | None = None,
                    recipe: str = UNTAGGED_RECIPE) -> Path:
    """Where the checkpoint of ``(encoder, problem, trained_on, recipe, seed)`` lives (present
    or not).

    ``directory`` replaces :data:`CHECKPOINT_DIR` (e.g. ``CHECKPOINT_DIR / "early20k"``).
    """
    folder = CHECKPOINT_DIR if directory is None else Path(directory)
    tag = "" if recipe == UNTAGGED_RECIPE else f"_{recipe}"
    if tag and not re.fullmatch(r"[a-z][a-z0-9]*", recipe):
        raise ValueError(f"recipe {recipe!r}: a recipe name is lower-case letters and digits")
    return folder / f"{encoder}_{problem}_{trained_on}{tag}_s{int(seed)}.pt"


def shipped(directory: str | Path | None = None) -> dict[CheckpointId, Path]:
    """Every checkpoint present in ``directory`` (default :data:`CHECKPOINT_DIR`), sorted."""
    folder = CHECKPOINT_DIR if directory is None else Path(directory)
    out = {}
    for path in sorted(folder.glob("*.pt")):
        m = _NAME.match(path.name)
        if m:
            out[CheckpointId(m["encoder"], m["problem"], m["trained_on"], int(m["seed"]),
                             m["recipe"] or UNTAGGED_RECIPE)] = path
    return out


def read_meta(path: str | Path) -> dict:
    """The metadata of a checkpoint from its JSON sidecar (no torch needed)."""
    return json.loads(Path(path).with_suffix(".json").read_text())


def default_checkpoint(problem: str) -> Path:
    """The shipped G2S-RNN checkpoint for ``problem`` named by ``checkpoints/defaults.json``."""
    table = json.loads((CHECKPOINT_DIR / DEFAULTS_FILE).read_text())
    return CHECKPOINT_DIR / table[problem]


def shipped_checkpoint(encoder: str, problem: str) -> Path:
    """The shipped ER-15 checkpoint of ``encoder`` for ``problem`` (G2S-RNN: the default seed)."""
    if encoder == "g2s_rnn":
        return default_checkpoint(problem)
    path = checkpoint_path(encoder, problem)
    if not path.exists():
        raise ValueError(f"no shipped {encoder} checkpoint for {problem}; train one with "
                         f"'g2s train' and pass --checkpoint")
    return path


def load_checkpoint(path, device="cpu", dtype=None):
    """Load ``(model, meta)`` with ``torch.load(..., weights_only=True)``.

    Evaluation runs in float64 by default (weights are trained in float32): it makes exact
    ties between symmetric vertices robust to rounding noise (see
    :data:`g2s.algorithm2.quantise.SCORE_QUANTUM`).
    """
    import torch

    from g2s.nn.checkpoint_file import build_checked_model, read_checkpoint
    payload = read_checkpoint(path, device=device)  # one-line CheckpointError on any fault
    model = build_checked_model(payload, path, device=device)
    model.to(torch.float64 if dtype is None else dtype).eval()
    return model, payload["meta"]


def default_t_max(meta: dict, path=None) -> int:
    """Algorithm 2's ``T_max`` stored in a checkpoint's model config (Section 5: 15), refused
    (naming ``path``) unless an integer from 1 to :data:`MAX_T_MAX`."""
    value = meta.get("model_config", {}).get("T_max")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_T_MAX:
        where = f"checkpoint {path}" if path is not None else "checkpoint"
        raise ValueError(f"{where}: invalid metadata: model_config T_max must be an integer "
                         f"from 1 to {MAX_T_MAX}, got {str(value)[:40]!r}")
    return value


def check_t_max(t_max: int, n: int) -> None:
    """Refuse a ``T_max`` whose ``n * T_max`` rollout cells exceed :data:`MAX_ROLLOUT_CELLS`."""
    if n * t_max > MAX_ROLLOUT_CELLS:
        raise ValueError(f"T_max {t_max} on {n} vertices needs {n * t_max} rollout cells; at "
                         f"most {MAX_ROLLOUT_CELLS} fit in memory (use --t-max "
                         f"{max(1, MAX_ROLLOUT_CELLS // n)} or less)")
