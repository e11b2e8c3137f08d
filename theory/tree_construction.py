"""Theorem 2's pair of chain trees G1(m), G2(m) and the vertex bijection of its proof.

arXiv:1802.04948, Appendix B.3 (proof of Theorem 2, Figure 5): take the 7-node binary trees
``B1`` (completely balanced, depth 2) and ``B2`` (completely imbalanced, depth 3), replace every
node by a chain of ``m`` vertices (``m`` odd and larger than ``k``) and join the head of each
chain to the tail of its parent's chain.  For ``k = 2, m = 3`` the proof states
``MVC(G1) = 9`` and ``MVC(G2) = 10`` while corresponding vertices have the same ``k``-hop
neighbourhood.

Vertex ``(b, j)`` is position ``j`` (``0`` = head, ``m - 1`` = tail) of the chain that replaces
node ``b`` of the binary tree.  The bijection maps the chains of ``B1`` to those of ``B2`` by
role (root to root, the two interior nodes to the two interior nodes, the four leaves to the
four leaves) and positions within chains in order, as the proof describes.
"""

from __future__ import annotations

import networkx as nx

__all__ = [
    "BALANCED_TREE",
    "IMBALANCED_TREE",
    "BINARY_TREE_BIJECTION",
    "node_roles",
    "chain_tree",
    "theorem2_pair",
    "theorem2_bijection",
]

#: ``B1``: parent of each non-root node; root 0, interior 1, 2, leaves 3..6 (depth 2).
BALANCED_TREE: dict[int, int] = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2}
#: ``B2``: a caterpillar of depth 3; root 0, interior 2, 4, leaves 1, 3, 5, 6.
IMBALANCED_TREE: dict[int, int] = {1: 0, 2: 0, 3: 2, 4: 2, 5: 4, 6: 4}
#: ``B1 -> B2`` by role: root -> root, interior -> interior, leaf -> leaf (proof of Thm. 2).
BINARY_TREE_BIJECTION: dict[int, int] = {0: 0, 1: 2, 2: 4, 3: 1, 4: 3, 5: 5, 6: 6}


def node_roles(parents: dict[int, int]) -> dict[int, str]:
    """``root``, ``interior`` or ``leaf`` for each node of a binary tree given by parents."""
    nodes = {0} | set(parents)
    has_child = set(parents.values())
    return {b: "root" if b == 0 else ("interior" if b in has_child else "leaf") for b in nodes}


def chain_tree(parents: dict[int, int], chain_length: int) -> nx.Graph:
    """Replace every node of a rooted tree by a path of ``chain_length`` vertices.

    The head ``(b, 0)`` of each non-root chain is joined to the tail
    ``(parent(b), chain_length - 1)`` of its parent's chain (proof of Theorem 2).
    Node attributes: ``block`` (``b``), ``pos`` (``j``), ``role`` (of ``b``).
    """
    if chain_length < 1:
        raise ValueError("chain_length must be positive")
    roles = node_roles(parents)
    G = nx.Graph()
    for b in sorted(roles):
        for j in range(chain_length):
            G.add_node((b, j), block=b, pos=j, role=roles[b])
        nx.add_path(G, [(b, j) for j in range(chain_length)])
    for b, p in parents.items():
        G.add_edge((b, 0), (p, chain_length - 1))
    return G


def theorem2_pair(k: int = 2, chain_length: int | None = None) -> tuple[nx.Graph, nx.Graph]:
    """``(G1, G2)`` for locality radius ``k``; chains default to the smallest odd length > k.

    The proof asks for chains of "an odd number of nodes larger than k"; any ``chain_length``
    may be passed to probe that condition (the function does not enforce it).
    """
    if k < 1:
        raise ValueError("k must be positive")
    if chain_length is None:
        chain_length = k + 1 if k % 2 == 0 else k + 2
    return chain_tree(BALANCED_TREE, chain_length), chain_tree(IMBALANCED_TREE, chain_length)


def theorem2_bijection(chain_length: int) -> dict[tuple[int, int], tuple[int, int]]:
    """The proof's map ``V(G1) -> V(G2)``: chains by role, then head-to-head, tail-to-tail."""
    return {(b, j): (BINARY_TREE_BIJECTION[b], j)
            for b in BINARY_TREE_BIJECTION for j in range(chain_length)}
