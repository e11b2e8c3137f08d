"""Structure2Vec (Dai, Khalil, Zhang, Dilkina, Song, NeurIPS 2017, Eq. (3)), a fixed-depth encoder.

.. math::

    \\mu_v^{(t+1)} = \\mathrm{relu}\\Big(\\theta_1 x_v + \\theta_2 \\sum_{u \\in N(v)} \\mu_u^{(t)}
        + \\theta_3 \\sum_{u \\in N(v)} \\mathrm{relu}(\\theta_4\\, w(v, u))\\Big),
    \\qquad \\mu_v^{(0)} = 0,

with ``x_v = c_v`` (the selected-set indicator, as in Dai et al.) and unit edge weights
``w(v, u) = 1``, so the last term is ``deg(v) theta_3 relu(theta_4)``.  Shapes: ``theta_1,
theta_4`` in ``R^p``, ``theta_2, theta_3`` in ``R^{p x p}``; ``c`` ``(N,)`` or ``(N, R)`` ->
``mu^{(L)}`` ``(N, p)`` or ``(N, R, p)``, with ``p = 16`` (Section 5).

**Depth (ambiguity).**  arXiv:1802.04948 gives Structure2Vec a depth of 5 in Appendix D (the
experimental baseline) but calls it 4-local in Proposition 2 (Dai et al.'s own ``T = 4``).  We
follow Appendix D: ``L = 5`` rounds by default (``extra["s2v_depth"]`` overrides it).  After
``L`` rounds ``mu_v`` depends only on the rooted ``L``-ball of ``v`` (in fact on the ``(L-1)``-
ball plus the degrees of its vertices): it is ``L``-local (``tests/g2s/test_baselines.py``).

Cost ``O(L (|E| p + |V| p^2))``: one sparse product per round.
"""

from __future__ import annotations

from collections import deque

import torch
from torch import nn

from g2s.nn.batch import GraphBatch
from g2s.nn.fixed_depth import FixedDepthEncoder

__all__ = ["Structure2Vec", "S2V_DEFAULT_DEPTH"]

#: rounds of message passing (Appendix D of arXiv:1802.04948; Proposition 2 says 4)
S2V_DEFAULT_DEPTH = 5


class Structure2Vec(FixedDepthEncoder):
    """Dai et al. (2017) Eq. (3) with ``L`` rounds; ``forward(batch, c) -> mu^{(L)}``."""

    def __init__(self, config):
        super().__init__(config, "s2v_depth", S2V_DEFAULT_DEPTH)
        p = self.dim
        self.theta1 = nn.Parameter(torch.randn(p) * 0.1)
        self.theta2 = nn.Linear(p, p, bias=False)
        self.theta3 = nn.Linear(p, p, bias=False)
        self.theta4 = nn.Parameter(torch.randn(p) * 0.1)

    def forward(self, batch: GraphBatch, c: torch.Tensor) -> torch.Tensor:
        return deque(self.rounds(batch, c), maxlen=1)[0]           # mu^(L)

    def rounds(self, batch: GraphBatch, c: torch.Tensor, rounds: int | None = None):
        """Yield ``mu^(1), ..., mu^(rounds)`` (default: the trained depth ``L``; more rounds run
        the same tied-weight recurrence past it), each ``(N, ..., p)``."""
        dtype = self.theta1.dtype
        x = c.to(dtype).unsqueeze(-1)                              # (N, ..., 1)
        deg = batch.degree().to(dtype).reshape((-1,) + (1,) * c.dim())
        edge_term = deg * self.theta3(torch.relu(self.theta4))     # (N, ..., p)
        base = x * self.theta1 + edge_term
        mu = torch.relu(base)                                      # round 1: mu^(0) = 0
        yield mu
        for _ in range((self.depth if rounds is None else rounds) - 1):
            mu = torch.relu(base + self.theta2(batch.neighbour_sum(mu)))
            yield mu
