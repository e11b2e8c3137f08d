"""The k-local-gather model of computation and Proposition 2 (arXiv:1802.04948, Section 3.2).

In the ``k``-local-gather model each vertex computes a representation ``r(v)`` that depends
only on the subgraph of vertices within distance ``k`` of ``v`` (its *rooted k-ball*), and a
gather function ``g`` maps the multiset ``{r(v) : v in V}`` to the output.  Proposition 2 says
that Kipf & Welling's GCN and Dai et al.'s Structure2Vec belong to the 4-local-gather model;
its proof says the two-layer GCN is 2-local and the 4-round Structure2Vec is 4-local.

The k-ball of ``v`` is the subgraph *induced* by ``{u : dist(u, v) <= k}``, rooted at ``v``
and carrying the vertices' input features.  With ``degree_labels=True`` every ball vertex is
additionally labelled with its degree in the whole graph; this is the strongest reading of
"depends only on the subgraph within distance k" under which a degree-normalised GCN of depth
``k`` is ``k``-local (without the labels it is only ``(k+1)``-local, see the tests).

:class:`RootedBall` compares equal exactly when two balls are isomorphic as rooted, labelled
graphs: for trees through an exact canonical string (Aho-Hopcroft-Ullman encoding), otherwise
through a VF2 isomorphism test, with a Weisfeiler-Lehman hash as the (invariant) hash.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable

import networkx as nx
import numpy as np

__all__ = [
    "k_ball",
    "RootedBall",
    "rooted_ball",
    "ball_multiset",
    "local_gather",
    "gcn_normalized_adjacency",
    "gcn_two_layer",
    "structure2vec",
    "message_passing_embeddings",
]


def k_ball(G: nx.Graph, v: Hashable, k: int) -> nx.Graph:
    """The subgraph of ``G`` induced by the vertices at distance at most ``k`` from ``v``."""
    if k < 0:
        raise ValueError("k must be non-negative")
    dist = nx.single_source_shortest_path_length(G, v, cutoff=k)
    return G.subgraph(dist).copy()


def _ahu(tree: nx.Graph, root: Hashable, label: dict) -> str:
    """Canonical string of a rooted labelled tree (children sorted); iterative post-order."""
    parent = {root: None}
    order = [root]
    for u in order:
        for w in tree.neighbors(u):
            if w not in parent:
                parent[w] = u
                order.append(w)
    code: dict = {}
    for u in reversed(order):
        kids = sorted(code[w] for w in tree.neighbors(u) if parent.get(w) == u and w != root)
        code[u] = "(" + label[u] + "".join(kids) + ")"
    return code[root]


class RootedBall:
    """A rooted, labelled k-ball; ``==`` is isomorphism fixing the root and the labels."""

    __slots__ = ("graph", "root", "is_tree", "key")

    def __init__(self, graph: nx.Graph, root: Hashable):
        self.graph = graph
        self.root = root
        self.is_tree = nx.is_tree(graph)
        labels = {u: graph.nodes[u]["label"] for u in graph}
        if self.is_tree:
            self.key = _ahu(graph, root, labels)
        else:
            marked = graph.copy()
            nx.set_node_attributes(marked, {u: f"{labels[u]}|{u == root}" for u in graph}, "wl")
            self.key = nx.weisfeiler_lehman_graph_hash(marked, node_attr="wl", iterations=4)

    def __hash__(self) -> int:
        return hash((self.is_tree, self.key))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RootedBall):
            return NotImplemented
        if self.is_tree != other.is_tree or self.key != other.key:
            return False
        if self.is_tree:
            return True  # the AHU string is a complete invariant of rooted labelled trees

        def match(a: dict, b: dict) -> bool:
            return a["label"] == b["label"] and a.get("_root") == b.get("_root")

        g1, g2 = self.graph.copy(), other.graph.copy()
        g1.nodes[self.root]["_root"] = True
        g2.nodes[other.root]["_root"] = True
        return nx.is_isomorphic(g1, g2, node_match=match)

    def __repr__(self) -> str:
        return f"RootedBall(n={self.graph.number_of_nodes()}, key={self.key[:40]!r})"


def rooted_ball(G: nx.Graph, v: Hashable, k: int, degree_labels: bool = False,
                feature: str | None = None) -> RootedBall:
    """The rooted ``k``-ball of ``v``; vertex labels are the ``feature`` attribute (if given)
    and, with ``degree_labels``, the vertex's degree in ``G``."""
    ball = k_ball(G, v, k)
    for u in ball:
        parts = []
        if feature is not None:
            parts.append(repr(G.nodes[u].get(feature)))
        if degree_labels:
            parts.append(str(G.degree(u)))
        ball.nodes[u]["label"] = ",".join(parts)
    return RootedBall(ball, v)


def ball_multiset(G: nx.Graph, k: int, degree_labels: bool = False) -> Counter:
    """The multiset ``{ball_k(v) : v in V}`` of rooted k-balls (isomorphism classes)."""
    return Counter(rooted_ball(G, v, k, degree_labels) for v in G)


def local_gather(G: nx.Graph, k: int, represent: Callable[[RootedBall], object],
                 gather: Callable[[list], object]) -> object:
    """Evaluate a k-local-gather algorithm: ``g({r(ball_k(v)) : v in V})`` (Section 3.2).

    ``represent`` sees only the rooted ball, so the result is k-local by construction; the
    multiset is passed to ``gather`` as a list in arbitrary order.
    """
    return gather([represent(rooted_ball(G, v, k)) for v in G])


def gcn_normalized_adjacency(G: nx.Graph, nodes: list) -> np.ndarray:
    """Kipf & Welling's renormalised ``D~^{-1/2} (A + I) D~^{-1/2}`` (their Eq. 2)."""
    A = nx.to_numpy_array(G, nodelist=nodes) + np.eye(len(nodes))
    s = 1.0 / np.sqrt(A.sum(axis=1))
    return s[:, None] * A * s[None, :]


def gcn_two_layer(G: nx.Graph, X: np.ndarray, W0: np.ndarray, W1: np.ndarray,
                  nodes: list | None = None) -> np.ndarray:
    """Kipf & Welling (2017), Eq. (9): ``Z = A_hat relu(A_hat X W0) W1`` (pre-softmax).

    ``X``: ``(n, c)`` features in the order of ``nodes``; returns ``(n, f)``.  The row-wise
    softmax of the paper is a per-vertex map and does not change locality.
    """
    nodes = list(G) if nodes is None else nodes
    A = gcn_normalized_adjacency(G, nodes)
    return A @ np.maximum(A @ X @ W0, 0.0) @ W1


def structure2vec(G: nx.Graph, x: np.ndarray, theta1: np.ndarray, theta2: np.ndarray,
                  theta3: np.ndarray, theta4: np.ndarray, rounds: int,
                  nodes: list | None = None) -> np.ndarray:
    """Dai et al. (2017), Eq. (3) on an unweighted graph (edge weights 1), ``mu^(0) = 0``:

    ``mu_v <- relu(theta1 x_v + theta2 sum_{u in N(v)} mu_u + theta3 sum_{u in N(v)}
    relu(theta4 w(v, u)))``.  Shapes: ``x`` ``(n,)``, ``theta1, theta4`` ``(p,)``,
    ``theta2, theta3`` ``(p, p)``; returns ``mu^(rounds)``, ``(n, p)``.
    """
    nodes = list(G) if nodes is None else nodes
    A = nx.to_numpy_array(G, nodelist=nodes)
    edge_term = A.sum(axis=1)[:, None] * np.maximum(theta4, 0.0)[None, :] @ theta3.T
    mu = np.zeros((len(nodes), theta2.shape[0]))
    for _ in range(rounds):
        mu = np.maximum(np.outer(x, theta1) + (A @ mu) @ theta2.T + edge_term, 0.0)
    return mu


def message_passing_embeddings(G: nx.Graph, weights: list[tuple[np.ndarray, np.ndarray,
                                                                   np.ndarray]],
                               nodes: list | None = None) -> np.ndarray:
    """A deterministic sum-aggregation message-passing network with ``len(weights)`` rounds.

    ``h_v^(t+1) = tanh(S_t h_v^(t) + M_t sum_{u in N(v)} h_u^(t) + b_t)``, ``h^(0) = 1``.
    Returns the stacked sequence ``(rounds, n, d)``; round ``t`` is ``t``-local.
    """
    nodes = list(G) if nodes is None else nodes
    A = nx.to_numpy_array(G, nodelist=nodes)
    h = np.ones((len(nodes), weights[0][0].shape[1]))
    seq = []
    for S, M, b in weights:
        h = np.tanh(h @ S.T + (A @ h) @ M.T + b[None, :])
        seq.append(h)
    return np.stack(seq)
