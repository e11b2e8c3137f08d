"""WL kernel NN (Lei, Jin, Barzilay, Jaakkola, ICML 2017, Section 5): WL relabelling + walk kernel.

Our reading of "depth 3 and width 4" (Appendix D of arXiv:1802.04948, which defers to Lei et
al. for details): ``L = 3`` rounds of the neural Weisfeiler-Lehman relabelling of Lei et al.'s
Section 5 (their deep graph-kernel construction), followed by their random-walk kernel module
with walks of ``n = 4`` vertices, whose state at ``v`` embeds the kernel between the labelled
walks ending at ``v`` and the learned reference walks:

.. math::

    h_v^{(0)} &= \\mathrm{relu}(W_{in} x_v + b_{in}), \\qquad x_v = (c_v, 1), \\\\
    h_v^{(l)} &= \\mathrm{relu}\\Big(U_1^{(l)} h_v^{(l-1)} + U_2^{(l)} \\sum_{u \\in N(v)}
        \\mathrm{relu}\\big(V^{(l)} h_u^{(l-1)}\\big)\\Big), \\quad l = 1..L, \\\\
    c_1[v] &= W^{(1)} h_v^{(L)}, \\qquad
    c_j[v] = \\sum_{u \\in N(v)} c_{j-1}[u] \\odot W^{(j)} h_v^{(L)}, \\quad j = 2..n, \\\\
    y_v &= c_n[v].

``y_v`` depends on the ``(L + n - 1)``-ball of ``v``: the encoder is 6-local
(``tests/g2s/test_baselines.py``).  ``extra["wl_depth"]`` and ``extra["wl_width"]`` override
``L`` and ``n``.  Shapes: ``c`` ``(N,)`` or ``(N, R)`` -> ``(N, d)`` or ``(N, R, d)``, ``d = 16``.
Cost ``O((L + n) (|E| d + |V| d^2))``.
"""

from __future__ import annotations

import torch
from torch import nn

from g2s.nn.batch import GraphBatch
from g2s.nn.fixed_depth import FixedDepthEncoder

__all__ = ["WLKernelNN", "WL_NN_DEFAULT_DEPTH", "WL_NN_DEFAULT_WIDTH"]

WL_NN_DEFAULT_DEPTH = 3   # Appendix D: depth 3
WL_NN_DEFAULT_WIDTH = 4   # Appendix D: width 4 (walks of 4 vertices)


class WLKernelNN(FixedDepthEncoder):
    """Lei et al. (2017): ``L`` neural WL relabellings, then an ``n``-vertex walk kernel."""

    def __init__(self, config):
        super().__init__(config, "wl_depth", WL_NN_DEFAULT_DEPTH)
        d = self.dim
        self.width = int(config.extra.get("wl_width", WL_NN_DEFAULT_WIDTH))
        self.W_in = nn.Linear(2, d)
        self.U1 = nn.ModuleList(nn.Linear(d, d, bias=False) for _ in range(self.depth))
        self.U2 = nn.ModuleList(nn.Linear(d, d, bias=False) for _ in range(self.depth))
        self.V = nn.ModuleList(nn.Linear(d, d, bias=False) for _ in range(self.depth))
        self.Wk = nn.ModuleList(nn.Linear(d, d, bias=False) for _ in range(self.width))

    @property
    def locality(self) -> int:
        """Radius ``L + n - 1`` of the ball each embedding depends on."""
        return self.depth + self.width - 1

    def forward(self, batch: GraphBatch, c: torch.Tensor) -> torch.Tensor:
        x = c.to(self.W_in.weight.dtype).unsqueeze(-1)
        h = torch.relu(self.W_in(torch.cat([x, torch.ones_like(x)], dim=-1)))
        for U1, U2, V in zip(self.U1, self.U2, self.V):
            h = torch.relu(U1(h) + U2(batch.neighbour_sum(torch.relu(V(h)))))
        cj = self.Wk[0](h)                                   # c_1[v]
        for W in self.Wk[1:]:
            cj = batch.neighbour_sum(cj) * W(h)              # c_j[v], j = 2..n
        return cj
