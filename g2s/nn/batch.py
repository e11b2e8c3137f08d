"""Block-diagonal batching of graphs with a torch sparse CSR adjacency.

Many small graphs (training) and one large graph (testing, up to 25,000 vertices) share one
representation: the disjoint union of the graphs, vertices numbered consecutively, with

* ``adj``: the ``N x N`` symmetric 0/1 adjacency as a sparse CSR tensor, so that one product
  ``adj @ X`` computes every neighbour sum ``sum_{u in Gamma(v)} x_u`` of Section 4 in
  ``O(|E| d)`` time and memory (no dense ``N x N`` matrix is ever formed);
* ``graph_index``: the graph each vertex belongs to, for the per-graph sums ``sum_{u in V}``
  of the Seq2Vec forgetting gate (Appendix C) and of the Q-network, Eq. (2).

Tensors with extra middle dimensions (``N x R x d``: ``R`` rollouts sharing one graph, used by
the fast Algorithm 2 of :mod:`g2s.algorithm2.fast`) are supported by
:meth:`GraphBatch.neighbour_sum` and :meth:`GraphBatch.graph_sum`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
import torch

__all__ = ["GraphBatch", "batch_graphs", "batch_edge_arrays", "edge_array"]


@dataclass
class GraphBatch:
    """The disjoint union of ``num_graphs`` graphs (block-diagonal adjacency).

    Attributes
    ----------
    adj : torch.Tensor
        ``(N, N)`` sparse CSR, float, symmetric, zero diagonal.
    graph_index : torch.Tensor
        ``(N,)`` long: graph of each vertex (non-decreasing).
    ptr : torch.Tensor
        ``(B + 1,)`` long: vertices of graph ``b`` are ``ptr[b] .. ptr[b+1]-1``.
    edges : torch.Tensor
        ``(2, M)`` long: each undirected edge once, ``u < v``, global vertex numbers.
    """

    adj: torch.Tensor
    graph_index: torch.Tensor
    ptr: torch.Tensor
    edges: torch.Tensor

    @property
    def num_nodes(self) -> int:
        return int(self.graph_index.numel())

    @property
    def num_graphs(self) -> int:
        return int(self.ptr.numel() - 1)

    @property
    def device(self) -> torch.device:
        return self.graph_index.device

    def degree(self) -> torch.Tensor:
        """``(N,)`` float degrees."""
        return self.neighbour_sum(torch.ones(self.num_nodes, device=self.device,
                                             dtype=self.adj.dtype))

    def neighbour_sum(self, x: torch.Tensor) -> torch.Tensor:
        """``sum_{u in Gamma(v)} x_u`` for every ``v``: one sparse product."""
        flat = x.reshape(x.shape[0], -1) if x.dim() != 2 else x
        if flat.dtype != self.adj.dtype:
            raise TypeError(f"adjacency is {self.adj.dtype}, features are {flat.dtype}")
        out = self.adj @ flat
        return out.reshape(x.shape)

    def graph_sum(self, x: torch.Tensor) -> torch.Tensor:
        """``sum_{u in V(G_b)} x_u`` per graph: ``(N, ...) -> (B, ...)``."""
        if self.num_graphs == 1:
            return x.sum(0, keepdim=True)
        out = x.new_zeros((self.num_graphs,) + tuple(x.shape[1:]))
        return out.index_add_(0, self.graph_index, x)

    def broadcast(self, g: torch.Tensor) -> torch.Tensor:
        """Per-graph values ``(B, ...)`` copied to each vertex ``(N, ...)``."""
        if self.num_graphs == 1:
            return g.expand((self.num_nodes,) + tuple(g.shape[1:]))
        return g.index_select(0, self.graph_index)

    def to(self, device=None, dtype=None) -> GraphBatch:
        """Move to ``device`` and/or cast the adjacency values to ``dtype``."""
        adj = self.adj
        if dtype is not None and adj.dtype != dtype:
            adj = _csr(adj.crow_indices(), adj.col_indices(), self.num_nodes, dtype, adj.device)
        return GraphBatch(adj.to(device) if device is not None else adj,
                          self.graph_index.to(device), self.ptr.to(device), self.edges.to(device))


def _csr(crow, col, n, dtype, device) -> torch.Tensor:
    values = torch.ones(col.numel(), dtype=dtype, device=device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # "sparse CSR support is in beta"
        return torch.sparse_csr_tensor(crow.to(device), col.to(device), values, (n, n),
                                       device=device, check_invariants=False)


def edge_array(G: nx.Graph) -> tuple[int, np.ndarray]:
    """``(n, edges)`` of a graph on vertices ``0..n-1``; ``edges`` is ``(M, 2)`` int64, ``u < v``.

    Graphs with other labels are relabelled in sorted order (the caller maps solutions back).
    """
    nodes = sorted(G.nodes)
    if nodes != list(range(len(nodes))):
        index = {v: i for i, v in enumerate(nodes)}
        pairs = [(index[u], index[v]) for u, v in G.edges() if u != v]
    else:
        pairs = [(u, v) for u, v in G.edges() if u != v]
    e = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    e = np.sort(e, axis=1)
    return len(nodes), e


def batch_edge_arrays(graphs: Sequence[tuple[int, np.ndarray]], device="cpu",
                      dtype=torch.float32) -> GraphBatch:
    """Block-diagonal batch from ``(n, edges)`` pairs (see :func:`edge_array`)."""
    sizes = np.array([n for n, _ in graphs], dtype=np.int64)
    ptr = np.concatenate([[0], np.cumsum(sizes)])
    if graphs:
        und = np.concatenate([e.reshape(-1, 2) + off for (_, e), off in zip(graphs, ptr[:-1])])
    else:
        und = np.zeros((0, 2), dtype=np.int64)
    N = int(ptr[-1])
    both = np.concatenate([und, und[:, ::-1]])
    order = np.lexsort((both[:, 1], both[:, 0]))
    both = both[order]
    crow = np.zeros(N + 1, dtype=np.int64)
    np.add.at(crow, both[:, 0] + 1, 1)
    crow = np.cumsum(crow)
    adj = _csr(torch.from_numpy(crow), torch.from_numpy(np.ascontiguousarray(both[:, 1])), N,
               dtype, device)
    graph_index = torch.from_numpy(np.repeat(np.arange(len(graphs)), sizes)).to(device)
    return GraphBatch(adj, graph_index, torch.from_numpy(ptr).to(device),
                      torch.from_numpy(np.ascontiguousarray(und.T)).to(device))


def batch_graphs(graphs: Sequence[nx.Graph], device="cpu", dtype=torch.float32) -> GraphBatch:
    """Block-diagonal batch of networkx graphs (vertices relabelled ``0..n-1`` in sorted order)."""
    return batch_edge_arrays([edge_array(G) for G in graphs], device=device, dtype=dtype)
