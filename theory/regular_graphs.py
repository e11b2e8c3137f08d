"""Proposition 1 of arXiv:1802.04948 (Section 3.1, proof in Appendix B.2): noise is necessary.

The proof takes the 4-regular graphs ``R1`` and ``R2`` on vertices ``0..7`` (edge lists copied
from the proof) with minimum vertex covers of sizes 5 and 6.  Under the deterministic rule
(Eq. (1) with ``sigma = 0``) started from a state common to all vertices, every vertex of any
``k``-regular graph follows the same trajectory

.. math:: y(t+1) = \\mathrm{relu}(k \\mathbf{W}_1 y(t) + \\mathbf{b}_1), \\qquad y(0) = x_0,

(induction on ``t``: if all states equal ``y(t)``, each vertex sums ``k`` copies of it), so the
representation cannot tell ``R1`` from ``R2``.  The common initial state is essential: the
paper's "all zero" initial state is one; vertex-specific random initial states already break the
symmetry (and make the rule random).
"""

from __future__ import annotations

from itertools import combinations

import networkx as nx
import numpy as np

from g2s.problems import is_vertex_cover

__all__ = [
    "R1_EDGES",
    "R2_EDGES",
    "proposition1_graphs",
    "regular_graph_trajectory",
    "minimum_vertex_cover_size_exhaustive",
]

#: R1 of the proof of Proposition 1 (Appendix B.2)
R1_EDGES = ((0, 3), (0, 5), (0, 6), (0, 7), (1, 2), (1, 4), (1, 6), (1, 7),
            (2, 3), (2, 5), (2, 6), (3, 4), (3, 5), (4, 5), (4, 7), (6, 7))
#: R2 of the proof of Proposition 1 (Appendix B.2)
R2_EDGES = ((0, 1), (0, 2), (0, 4), (0, 7), (1, 4), (1, 5), (1, 6), (2, 3),
            (2, 4), (2, 7), (3, 5), (3, 6), (3, 7), (4, 6), (5, 6), (5, 7))


def proposition1_graphs() -> tuple[nx.Graph, nx.Graph]:
    """``(R1, R2)`` as undirected graphs on vertices ``0..7``."""
    graphs = []
    for edges in (R1_EDGES, R2_EDGES):
        G = nx.Graph()
        G.add_nodes_from(range(8))
        G.add_edges_from(edges)
        graphs.append(G)
    return graphs[0], graphs[1]


def regular_graph_trajectory(degree: int, W, b, x0, T: int) -> np.ndarray:
    """The common trajectory ``y(0..T)`` of every vertex of a ``degree``-regular graph.

    Deterministic rule (Eq. (1), ``sigma = 0``) from the common initial state ``x0``;
    shape ``(T + 1, d)``.
    """
    W, b = np.asarray(W, dtype=float), np.asarray(b, dtype=float)
    y = np.empty((T + 1, len(b)))
    y[0] = x0
    for t in range(T):
        y[t + 1] = np.maximum(degree * (W @ y[t]) + b, 0.0)
    return y


def minimum_vertex_cover_size_exhaustive(G: nx.Graph) -> int:
    """Exact MVC size by checking vertex subsets in increasing size (small graphs only)."""
    nodes = list(G)
    for size in range(len(nodes) + 1):
        if any(is_vertex_cover(G, S) for S in combinations(nodes, size)):
            return size
    raise AssertionError("the full vertex set is always a cover")  # pragma: no cover
