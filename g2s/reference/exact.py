"""Exact reference methods for special cases (used by :mod:`g2s.reference.solver`).

* ``enumeration``: every vertex subset, vectorised over integer bitmasks (small graphs;
  :func:`subset_values`, also behind the validation optimum of training and Appendix D.3);
* ``tree-dp`` (MVC, MIS on forests): ``in(v) = 1 + sum_c out(c)``,
  ``out(v) = sum_c max(in(c), out(c))``; a minimum cover is the complement of a maximum
  independent set (Gallai 1959: ``tau(G) + alpha(G) = n``);
* ``konig`` (MVC, MIS on bipartite graphs): maximum matching and König's theorem (1931);
* ``bipartite-cut`` (max cut on bipartite graphs): a colour class cuts every edge;
* :func:`max_cut_eigenvalue_bound`: the Mohar-Poljak bound ``n * lambda_max(L) / 4``.

Each method returns ``(solution, proven bound)``.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np

from g2s.edge_array import EdgeArray

__all__ = ["EXACT_METHODS", "ENUMERATION_MAX_VERTICES", "subset_values", "optimum_by_enumeration",
           "minimum_vertex_covers", "bipartite_matching_number", "max_cut_eigenvalue_bound"]

#: largest (component) size solved by exhaustive enumeration (2**20 subsets, ~0.3 s)
ENUMERATION_MAX_VERTICES = 20


def subset_values(problem: str, n: int, edges) -> tuple[np.ndarray, np.ndarray]:
    """Every subset of the vertices ``0..n-1`` as an integer bitmask, with its value.

    ``maxcut``: the number of edges the subset cuts.  ``mvc`` and ``mis``: the size of the
    subset when it is independent, else -1 (a minimum vertex cover is the complement of a
    maximum independent set, Gallai 1959).  ``O(2^n n)`` time and memory: small graphs only.
    """
    nbr = np.zeros(n, dtype=np.int64)
    for u, v in edges:
        nbr[u] |= 1 << int(v)
        nbr[v] |= 1 << int(u)
    masks = np.arange(1 << n, dtype=np.int64)
    if problem == "maxcut":
        value = np.zeros(masks.size, dtype=np.int64)
        for i in range(n):
            value += ((masks >> i) & 1) * np.bitwise_count(nbr[i] & ~masks)
    else:
        bad = np.zeros(masks.size, dtype=bool)
        for i in range(n):
            bad |= (((masks >> i) & 1) == 1) & ((masks & nbr[i]) != 0)
        value = np.where(bad, -1, np.bitwise_count(masks).astype(np.int64))
    return masks, value


def optimum_by_enumeration(problem: str, n: int, edges, max_vertices: int = 22) -> int:
    """The optimum objective of a small graph on ``0..n-1`` by enumerating every subset."""
    if n > max_vertices:
        raise ValueError(f"enumeration is for small graphs only ({max_vertices} vertices), got {n}")
    _, value = subset_values(problem, n, edges)
    best = int(value.max())
    return n - best if problem == "mvc" else best


def minimum_vertex_covers(n: int, edges) -> list[frozenset]:
    """Every minimum vertex cover of a small graph on ``0..n-1`` (ascending bitmask order)."""
    if n > ENUMERATION_MAX_VERTICES:
        raise ValueError(f"enumeration is limited to {ENUMERATION_MAX_VERTICES} vertices, got {n}")
    masks, value = subset_values("mvc", n, edges)
    covers = np.sort(masks[value == value.max()] ^ ((1 << n) - 1))
    return [frozenset(i for i in range(n) if int(m) >> i & 1) for m in covers]


def _enumeration(problem: str, G: nx.Graph):
    nodes = list(G)
    n = len(nodes)
    if n > ENUMERATION_MAX_VERTICES:
        raise ValueError(f"enumeration is limited to {ENUMERATION_MAX_VERTICES} vertices, got {n}")
    idx = {v: i for i, v in enumerate(nodes)}
    masks, value = subset_values(problem, n, [(idx[u], idx[v]) for u, v in G.edges()])
    best = int(masks[int(np.argmax(value))])
    S = {v for i, v in enumerate(nodes) if best >> i & 1}
    return (set(nodes) - S if problem == "mvc" else S), None


def _forest_independent_set(G: nx.Graph) -> set:
    take: set = set()
    for root in sorted(map(min, nx.connected_components(G)), key=repr):
        parent = {root: None}
        order = [root]
        for u, v in nx.dfs_edges(G, root):
            parent[v] = u
            order.append(v)
        incl = dict.fromkeys(order, 1)
        excl = dict.fromkeys(order, 0)
        for v in reversed(order[1:]):
            p = parent[v]
            incl[p] += excl[v]
            excl[p] += max(incl[v], excl[v])
        for v in order:
            p = parent[v]
            if (p is None or p not in take) and incl[v] >= excl[v]:
                take.add(v)
    return take


def _tree_dp(problem: str, G: nx.Graph):
    if problem == "maxcut" or not nx.is_forest(G):
        raise ValueError("tree-dp needs a forest and mvc or mis")
    S = _forest_independent_set(G)
    return (set(G) - S if problem == "mvc" else S), None


def _konig_cover(G: nx.Graph) -> tuple[set, int]:
    """Minimum vertex cover of a bipartite graph from a maximum matching (König 1931).

    With ``Z`` the vertices reachable from the unmatched top vertices by alternating paths
    (non-matching edges top -> bottom, matching edges bottom -> top), ``(T - Z) | (B & Z)``
    is a cover of size ``|M|``.  One breadth-first search, O(|E|).
    """
    top = {v for v, c in nx.bipartite.color(G).items() if c == 0}
    mate = nx.bipartite.hopcroft_karp_matching(G, top)
    frontier = [u for u in top if u not in mate]
    reached = set(frontier)
    while frontier:
        nxt = []
        for u in frontier:
            for w in G[u]:
                if w not in reached and mate.get(u) != w:
                    reached.add(w)
                    back = mate.get(w)
                    if back is not None and back not in reached:
                        reached.add(back)
                        nxt.append(back)
        frontier = nxt
    cover = (top - reached) | (reached - top)
    return cover, len(mate) // 2


def bipartite_matching_number(G) -> int:
    """Size of a maximum matching of a bipartite graph: ``tau(G)`` by König's theorem.

    ``G``: a networkx graph or an :class:`~g2s.edge_array.EdgeArray`; Hopcroft-Karp on its
    edge array (:attr:`g2s.edge_array.EdgeArray.matching_number`)."""
    return EdgeArray.of(G).matching_number


def _konig(problem: str, G: nx.Graph):
    if problem == "maxcut" or not nx.is_bipartite(G):
        raise ValueError("konig needs a bipartite graph and mvc or mis")
    cover, matched = _konig_cover(G)
    if len(cover) != matched:  # König: a cover of size |M| certifies optimality
        raise AssertionError("König cover size differs from the matching size")
    return (cover if problem == "mvc" else set(G) - cover), None


def _bipartite_cut(problem: str, G: nx.Graph):
    if problem != "maxcut" or not nx.is_bipartite(G):
        raise ValueError("bipartite-cut needs a bipartite graph and maxcut")
    return {v for v, c in nx.bipartite.color(G).items() if c == 0}, None


def max_cut_eigenvalue_bound(G: nx.Graph, max_vertices: int = 2000) -> int | None:
    """``sum over components C of floor(|C| lambda_max(L_C) / 4)`` (Mohar & Poljak 1990).

    Valid because ``cut(S) = s^T L s / 4 <= n lambda_max(L) / 4`` for ``s`` in ``{-1, 1}^n``.
    Dense eigenvalues; ``None`` for components above ``max_vertices``.  A relative safety
    margin of 1e-9 absorbs floating-point error.
    """
    total = 0
    for comp in nx.connected_components(G):
        if len(comp) > max_vertices:
            return None
        H = G.subgraph(comp)
        if H.number_of_edges():
            lam = np.linalg.eigvalsh(nx.laplacian_matrix(H).toarray().astype(float))[-1]
            total += math.floor(len(comp) * lam * (1 + 1e-9) / 4 + 1e-6)
    return total


EXACT_METHODS = {"enumeration": _enumeration, "tree-dp": _tree_dp, "konig": _konig,
                 "bipartite-cut": _bipartite_cut}
