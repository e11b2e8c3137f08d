"""The common start of the fixed-depth baseline encoders (:mod:`g2s.nn.baselines`).

Structure2Vec, GraphSAGE and the WL kernel NN run a fixed number of message-passing rounds
(``variable_depth = False``: :class:`g2s.nn.model.QModel` calls them without ``T``), have the
embedding width ``config.dim`` and read their depth from ``config.extra[depth_key]``, else a
default.  Holds no parameters, so the subclasses' ``state_dict`` is theirs alone.
"""

from __future__ import annotations

from torch import nn

__all__ = ["FixedDepthEncoder"]


class FixedDepthEncoder(nn.Module):
    """Sets ``dim = config.dim`` and ``depth = int(config.extra.get(depth_key, default))``."""

    variable_depth = False

    def __init__(self, config, depth_key: str, default_depth: int):
        super().__init__()
        self.dim = config.dim
        self.depth = int(config.extra.get(depth_key, default_depth))
