"""Seq2Vec (arXiv:1802.04948, Appendix C): a gated recurrent reader of each vertex's sequence.

.. math::

    \\mathbf{i}_v(t) &= \\mathrm{relu}\\Big(\\mathbf{W}_4 \\sum_{u\\in\\Gamma(v)} \\mathbf{x}_u(t)
        + \\mathbf{w}_5 c_v + \\mathbf{b}_6\\Big) \\\\
    \\mathbf{f}_v(t) &= \\mathrm{sigmoid}\\Big(\\mathbf{W}_7 \\sum_{u\\in V} \\mathbf{x}_u(t)
        + \\mathbf{b}_8\\Big) \\\\
    \\mathbf{y}_v(t) &= \\mathbf{f}_v(t)\\odot\\mathbf{i}_v(t)
        + (\\mathbf{1}-\\mathbf{f}_v(t))\\odot\\mathbf{y}_v(t-1),
    \\qquad \\mathbf{y}_v(0) = \\mathbf{0}.

Choices where the paper is ambiguous (recorded in the ledger):

* **Typo.**  The Appendix writes ``sum_{u in Gamma(v)} x_v(t)``; summing a term that does not
  depend on ``u`` would only give ``deg(v) x_v(t)``.  We read it as ``x_u(t)`` (the neighbours'
  states), which is what Section 4's item (ii) describes.
* **Own state and global sum.**  Section 4 says the input uses (i) ``x_v(t)``, (ii) the
  neighbour sum and (iii) the global sum ``sum_{u in V} x_u(t)``.  The Appendix equations put
  (ii) in the input and (iii) in the forgetting gate and omit (i).  We follow the Appendix
  equations; ``self_term=True`` adds ``W_self x_v(t)`` to the input (Section 4's (i)).
* **Index range.**  The Appendix reads ``x(0..T-1)`` (``t = 0..T-1`` produces ``y(t+1)``), so
  ``x(0) = 0`` is read and ``x(T)`` never is; Section 4 says the GRU processes
  ``(x_v(t))_{t=1}^T``.  We read ``x(1..T)``: every computed state is used, and G2S-RNN(1)
  already sees the graph.  One sparse product per step serves both modules (the neighbour sum
  of ``x(t)`` feeds this reader at step ``t`` and Graph2Seq's step ``t -> t+1``).
"""

from __future__ import annotations

import torch
from torch import nn

from g2s.nn.batch import GraphBatch

__all__ = ["Seq2Vec"]


class Seq2Vec(nn.Module):
    """One step of the Appendix C gated reader: ``y(t)`` from ``y(t-1)`` and ``x(t)``."""

    def __init__(self, dim: int = 16, self_term: bool = False):
        super().__init__()
        self.dim = dim
        self.W_4 = nn.Linear(dim, dim, bias=False)
        self.w_5 = nn.Parameter(torch.empty(dim))
        self.b_6 = nn.Parameter(torch.zeros(dim))
        self.W_7 = nn.Linear(dim, dim, bias=False)
        self.b_8 = nn.Parameter(torch.zeros(dim))
        self.W_self = nn.Linear(dim, dim, bias=False) if self_term else None
        nn.init.xavier_uniform_(self.W_4.weight)
        nn.init.xavier_uniform_(self.W_7.weight)
        nn.init.normal_(self.w_5, std=0.1)

    def forward(self, batch: GraphBatch, x: torch.Tensor, neighbour_sum: torch.Tensor,
                y: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        """``y(t)``; ``x``, ``neighbour_sum``, ``y`` are ``(N, ..., d)``, ``c`` is ``(N, ...)``."""
        pre = self.W_4(neighbour_sum) + c.unsqueeze(-1) * self.w_5 + self.b_6
        if self.W_self is not None:
            pre = pre + self.W_self(x)
        i = torch.relu(pre)
        # the gate is the same for all vertices of a graph: compute it per graph, then copy
        f = batch.broadcast(torch.sigmoid(self.W_7(batch.graph_sum(x)) + self.b_8))
        return f * i + (1.0 - f) * y
