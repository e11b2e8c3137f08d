"""Graph2Seq (arXiv:1802.04948, Section 4): a graph as a time series of vertex states.

.. math::

    \\mathbf{x}_v(t+1) = \\mathrm{relu}\\Big(\\mathbf{W}_{G,1} \\sum_{u\\in\\Gamma(v)}
    \\mathbf{x}_u(t) + \\mathbf{w}_{G,2}\\, c_v + \\mathbf{w}_{G,3}\\Big),
    \\qquad \\mathbf{x}_v(0) = \\mathbf{0},

the noiseless (``sigma^2 = 0``, Section 5 "Training") version of Eq. (1), where ``c_v = 1`` iff
``v`` is in the partial solution ``S``.  ``c`` does not change during one evolution (``S`` is
fixed while the network evaluates a state), so ``c_v(t) = c_v``.

Shapes: neighbour sums ``(N, ..., d)``, ``c`` ``(N, ...)`` -> ``x(t+1)`` ``(N, ..., d)``; the
middle dimensions hold independent evolutions on the same graph (rollouts of Algorithm 2).
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["Graph2Seq"]


class Graph2Seq(nn.Module):
    """One step of the Graph2Seq evolution (Section 4); ``W_{G,1}, w_{G,2}, w_{G,3}``."""

    def __init__(self, dim: int = 16):
        super().__init__()
        self.dim = dim
        self.W_G1 = nn.Linear(dim, dim, bias=False)
        self.w_G2 = nn.Parameter(torch.empty(dim))
        self.w_G3 = nn.Parameter(torch.empty(dim))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn.init.xavier_uniform_(self.W_G1.weight)
        nn.init.normal_(self.w_G2, std=0.1)
        nn.init.normal_(self.w_G3, std=0.1)

    def forward(self, neighbour_sum: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        """``x(t+1)`` from ``sum_{u in Gamma(v)} x_u(t)`` and the indicator ``c`` of ``S``."""
        return torch.relu(self.W_G1(neighbour_sum) + c.unsqueeze(-1) * self.w_G2 + self.w_G3)
