"""GraphSAGE (Hamilton, Ying, Leskovec, NeurIPS 2017, Algorithm 1): GCN, mean, pool aggregators.

For ``k = 1..K`` (``K = 2``, Appendix D of arXiv:1802.04948), Algorithm 1 lines 4-7:

.. math::

    h^k_{N(v)} = \\mathrm{AGG}_k(\\{h^{k-1}_u : u \\in N(v)\\}), \\quad
    h^k_v = \\sigma\\big(W^k [h^{k-1}_v \\,\\|\\, h^k_{N(v)}]\\big), \\quad
    h^k_v \\leftarrow h^k_v / \\lVert h^k_v \\rVert_2,

with ``sigma = relu`` and the aggregators of their Section 3.3:

* mean: ``AGG = mean_{u in N(v)} h_u``;
* pool: ``AGG = max_{u in N(v)} relu(W_pool h_u + b)`` (element-wise max);
* GCN: no concatenation, ``h^k_v = sigma(W^k mean({h^{k-1}_v} cup {h^{k-1}_u : u in N(v)}))``.

Input features ``h^0_v = x_v = (c_v, 1, deg(v))`` (our choice): the selected-set indicator,
a constant (so the empty ``S`` does not give all-zero embeddings) and the degree.  Without the
degree the mean, GCN and pool aggregators see identical neighbours everywhere and cannot count
them (every vertex of the initial state gets the same embedding); Structure2Vec reads the
degree through its ``theta_3`` term and G2S-RNN through its sums, so the comparison stays fair.
``W^k`` carries a bias.  An isolated vertex aggregates to ``0``; a zero vector is left
unnormalised.  ``z_v = h^K_v`` is ``K``-local when the ball records its vertices' degrees
(``ball_degree_labels``); with plain induced balls it is ``(K+1)``-local, like the GCN in
:mod:`theory.local_gather` (``tests/g2s/test_baselines.py``).  Shapes: ``c`` ``(N,)`` or
``(N, R)`` -> ``(N, d)`` or ``(N, R, d)``, ``d = 16``.  Cost ``O(K (|E| d + |V| d^2))``.
"""

from __future__ import annotations

import torch
from torch import nn

from g2s.nn.batch import GraphBatch
from g2s.nn.fixed_depth import FixedDepthEncoder

__all__ = ["GraphSAGE", "SAGE_DEFAULT_DEPTH", "AGGREGATORS"]

SAGE_DEFAULT_DEPTH = 2          # Appendix D: "depth restricted to 2"
AGGREGATORS = ("gcn", "mean", "pool")


def neighbour_max(batch: GraphBatch, h: torch.Tensor) -> torch.Tensor:
    """``max_{u in N(v)} h_u`` element-wise (``0`` for isolated ``v``); ``h`` ``(N, ..., d)``."""
    src = torch.cat([batch.edges[0], batch.edges[1]])
    dst = torch.cat([batch.edges[1], batch.edges[0]])
    flat = h.reshape(h.shape[0], -1)
    out = flat.new_zeros(flat.shape)
    if src.numel():
        idx = dst.unsqueeze(1).expand(-1, flat.shape[1])
        out = out.scatter_reduce(0, idx, flat.index_select(0, src), "amax", include_self=False)
    return out.reshape(h.shape)


class GraphSAGE(FixedDepthEncoder):
    """Hamilton et al. (2017) Algorithm 1 with aggregator ``gcn``, ``mean`` or ``pool``."""

    ball_degree_labels = True   # reads deg(v) of the ball's vertices: local w.r.t. degree labels

    def __init__(self, config, aggregator: str):
        if aggregator not in AGGREGATORS:
            raise ValueError(f"aggregator must be one of {AGGREGATORS}")
        super().__init__(config, "sage_depth", SAGE_DEFAULT_DEPTH)
        d = self.dim
        self.aggregator = aggregator
        sizes = [3] + [d] * self.depth
        width = 1 if aggregator == "gcn" else 2
        self.W = nn.ModuleList(nn.Linear(width * a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        if aggregator == "pool":
            self.W_pool = nn.ModuleList(nn.Linear(a, a) for a in sizes[:-1])

    def _aggregate(self, batch: GraphBatch, h: torch.Tensor, k: int, inv_deg) -> torch.Tensor:
        if self.aggregator == "pool":
            return neighbour_max(batch, torch.relu(self.W_pool[k](h)))
        return batch.neighbour_sum(h) * inv_deg

    def forward(self, batch: GraphBatch, c: torch.Tensor) -> torch.Tensor:
        dtype = self.W[0].weight.dtype
        x = c.to(dtype).unsqueeze(-1)
        deg = batch.degree().to(dtype).reshape((-1,) + (1,) * c.dim())
        h = torch.cat([x, torch.ones_like(x), deg.expand_as(x)], dim=-1)   # (c_v, 1, deg v)
        inv_deg = 1.0 / deg.clamp(min=1.0)
        inv_deg_self = 1.0 / (deg + 1.0)
        for k, W in enumerate(self.W):
            if self.aggregator == "gcn":
                h = torch.relu(W((h + batch.neighbour_sum(h)) * inv_deg_self))
            else:
                h = torch.relu(W(torch.cat([h, self._aggregate(batch, h, k, inv_deg)], dim=-1)))
            norm = h.norm(dim=-1, keepdim=True)
            h = h / torch.where(norm > 0, norm, torch.ones_like(norm))
        return h
