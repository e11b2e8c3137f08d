"""The Q-network of arXiv:1802.04948, Eq. (2), shared by G2S-RNN and every baseline encoder.

.. math::

    \\tilde Q(G, S, v) = \\mathbf{w}_{Q,1}^\\top \\mathrm{relu}\\Big(\\mathbf{W}_{Q,2}
        \\sum_{u \\in V} \\mathbf{y}_u\\Big)
      + \\mathbf{w}_{Q,3}^\\top \\mathrm{relu}\\big(\\mathbf{W}_{Q,4} \\mathbf{y}_v\\big).

**Ambiguity.**  The text below Eq. (2) says ``W_{Q,1}, W_{Q,3}`` are ``d x d`` matrices and
``w_{Q,2}, w_{Q,4}`` vectors, the opposite of the equation's own notation; since ``Q`` is a
scalar, the outer factors must be vectors.  We follow the equation: ``w_{Q,1}, w_{Q,3}`` in
``R^d`` and ``W_{Q,2}, W_{Q,4}`` in ``R^{d x d}``, with no biases (none are written).

The first term (``Q_1`` in Appendix E) is the same for every vertex of a graph, so it never
changes which vertex the greedy policy picks, but it carries the value of the state, which the
Bellman targets of Eq. (4) need.

Shapes: ``y`` ``(N, ..., d)`` -> ``Q`` ``(N, ...)``.
"""

from __future__ import annotations

import torch
from torch import nn

from g2s.nn.batch import GraphBatch

__all__ = ["QNetwork"]


class QNetwork(nn.Module):
    """Eq. (2): graph term over ``sum_u y_u`` plus vertex term over ``y_v``."""

    def __init__(self, dim: int = 16):
        super().__init__()
        self.W_Q2 = nn.Linear(dim, dim, bias=False)
        self.w_Q1 = nn.Linear(dim, 1, bias=False)
        self.W_Q4 = nn.Linear(dim, dim, bias=False)
        self.w_Q3 = nn.Linear(dim, 1, bias=False)

    def graph_term(self, batch: GraphBatch, y: torch.Tensor) -> torch.Tensor:
        """``w_{Q,1}^T relu(W_{Q,2} sum_u y_u)`` per graph: ``(B, ...)``."""
        return self.w_Q1(torch.relu(self.W_Q2(batch.graph_sum(y)))).squeeze(-1)

    def vertex_term(self, y: torch.Tensor) -> torch.Tensor:
        """``w_{Q,3}^T relu(W_{Q,4} y_v)`` per vertex: ``(N, ...)``."""
        return self.vertex_term_parts(y)[0]

    def vertex_term_parts(self, y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """:meth:`vertex_term` and its hidden layer ``relu(W_{Q,4} y_v)`` (``(N, ..., d)``),
        from which :mod:`g2s.algorithm2.fast` takes the score's scale."""
        h = torch.relu(self.W_Q4(y))
        return self.w_Q3(h).squeeze(-1), h

    def forward(self, batch: GraphBatch, y: torch.Tensor) -> torch.Tensor:
        return batch.broadcast(self.graph_term(batch, y)) + self.vertex_term(y)
