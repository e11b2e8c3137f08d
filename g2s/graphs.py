"""Seeded generators for every graph family of arXiv:1802.04948 (Section 5, Appendix D).

Every generator returns an undirected simple :class:`networkx.Graph` on the vertices
``0..n-1`` and takes ``seed`` (int, :class:`numpy.random.Generator` or None).
:func:`make_edges` returns the same graph as an :class:`~g2s.edge_array.EdgeArray` (the
families drawn with numpy build the array without networkx: what verification reads), and
:func:`instance_edges` keeps each seeded evaluation graph of :func:`instance_graph` once per
process in that form.  The paper's test
sizes are :data:`SIZE_LADDER` (25 ... 3,200, doubling; Section 5).  Graph file I/O lives in
:mod:`g2s.io`.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable

import networkx as nx
import numpy as np

from g2s.edge_array import EdgeArray

__all__ = [
    "SIZE_LADDER",
    "FAMILIES",
    "as_rng",
    "erdos_renyi",
    "random_regular",
    "random_bipartite",
    "greedy_worst_case_mvc",
    "grid_2d",
    "planted_vertex_cover",
    "structured_bipartite_mis",
    "sparse_erdos_renyi",
    "sparse_random_bipartite",
    "make_graph",
    "make_edges",
    "instance_seed",
    "instance_graph",
    "instance_edges",
    "graph_fingerprint",
]

#: test sizes of Section 5: "number of vertices ranging from 25--3200 in exponential increments"
SIZE_LADDER = (25, 50, 100, 200, 400, 800, 1600, 3200)


def as_rng(seed) -> np.random.Generator:
    """A numpy Generator from an int, a Generator (returned as is) or None (fresh entropy)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def _nx_seed(seed) -> int:
    return int(as_rng(seed).integers(0, 2**31 - 1))


def _sides(n: int, a: int) -> dict:
    """The node attribute ``bipartite``: 0 on the vertices below ``a``, 1 from ``a`` on."""
    return {"bipartite": (np.arange(n) >= a).astype(int).tolist()}


def _erdos_renyi_edges(n: int, p: float = 0.15, seed=None) -> EdgeArray:
    if n < 1:
        raise ValueError("n must be positive")
    rng = as_rng(seed)
    iu, ju = np.triu_indices(n, k=1)
    keep = rng.random(iu.size) < p
    return EdgeArray(n, np.column_stack([iu[keep], ju[keep]]))


def erdos_renyi(n: int, p: float = 0.15, seed=None) -> nx.Graph:
    """G(n, p) of Erdos & Renyi (1959); the paper trains on n = 15, p = 0.15 (Section 5)."""
    return _erdos_renyi_edges(n, p, seed).to_networkx()


def random_regular(n: int, d: int = 4, seed=None) -> nx.Graph:
    """Uniform random ``d``-regular graph (Steger & Wormald 1999, via networkx); Section 5: d=4."""
    if n * d % 2 or d >= n:
        raise ValueError(f"no {d}-regular graph on {n} vertices")
    return nx.convert_node_labels_to_integers(nx.random_regular_graph(d, n, seed=_nx_seed(seed)))


def random_bipartite(n: int, p: float = 0.75, seed=None) -> nx.Graph:
    """Random bipartite graph with parts ``{0..n//2-1}`` and the rest, each cross edge w.p. ``p``.

    Section 5: "random bipartite graphs with equal sized partites and edge probability 0.75".
    The node attribute ``bipartite`` (0/1) records the side.
    """
    return _random_bipartite_edges(n, p, seed).to_networkx()


def _random_bipartite_edges(n: int, p: float = 0.75, seed=None) -> EdgeArray:
    rng = as_rng(seed)
    a = n // 2
    mask = rng.random((a, n - a)) < p
    ii, jj = np.nonzero(mask)
    return EdgeArray(n, np.column_stack([ii, jj + a]), node_attrs=_sides(n, a))


def greedy_worst_case_mvc(n: int, seed=None) -> nx.Graph:
    """Bipartite graph on which max-degree greedy MVC is a Theta(log n) approximation.

    The construction of Johnson (1973), as in Vazirani, *Approximation Algorithms*, Ex. 2.x /
    Williamson & Shmoys (2011): a side ``L`` of ``k`` vertices, and for each ``i = k, k-1, ..., 2``
    a group ``R_i`` of ``floor(k/i)`` vertices, each joined to ``i`` distinct vertices of ``L``
    (the groups' neighbourhoods are disjoint blocks of ``L``).  ``k`` is the largest value with
    ``k + sum_i floor(k/i) <= n``; the remaining ``m < k`` vertices are pendants ``R_1`` attached
    to ``L[0..m-1]``.  ``L`` is a cover of size ``k`` (optimal from n = 6 on: see the tests,
    König), while greedy takes all of ``R`` (``~ k ln k`` vertices).  ``optimal_cover`` is
    ``L``, or at n = 3 and 5, where ``L`` is one vertex too large, a König cover.

    Tie-breaking is explicit: ``R`` gets the smallest labels (``R_k`` first) and ``L`` the
    largest, and :func:`g2s.heuristics.min_vertex_cover_greedy` breaks degree ties by the
    smallest label, so whenever an ``L`` vertex ties with an ``R_i`` vertex greedy takes ``R_i``.
    The graph is deterministic; ``seed`` is accepted for a uniform interface and ignored.
    """
    return _greedy_worst_case_mvc_edges(n, seed).to_networkx()


def _greedy_worst_case_mvc_edges(n: int, seed=None) -> EdgeArray:
    del seed

    def size(k: int) -> int:
        return k + sum(k // i for i in range(2, k + 1))

    if n < 3:
        raise ValueError("greedy worst-case graph needs n >= 3")
    k = 1
    while size(k + 1) <= n:
        k += 1
    pendants = n - size(k)
    right_count = n - k
    L = list(range(right_count, n))
    edges, r = [], 0
    for i in range(k, 1, -1):
        for j in range(k // i):
            for t in range(i):
                edges.append((r, L[j * i + t]))
            r += 1
    for j in range(pendants):
        edges.append((r, L[j]))
        r += 1
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    # Konig: a maximum matching's size is the optimum.  L attains it from n = 6 on (tested);
    # at n = 3 and 5 the construction is a star or a small tree whose centre covers more
    right = range(right_count)
    matching = nx.bipartite.hopcroft_karp_matching(G, top_nodes=right)
    if len(matching) // 2 < len(L):
        L = sorted(nx.bipartite.to_vertex_cover(G, matching, top_nodes=right))
    return EdgeArray(n, edges, graph={"optimal_cover": L}, node_attrs=_sides(n, right_count))


def grid_2d(n: int, seed=None) -> nx.Graph:
    """Square 2-D grid with ``round(sqrt(n))`` vertices per side (Section 5, family (5))."""
    del seed
    side = max(1, round(math.sqrt(n)))
    return nx.convert_node_labels_to_integers(nx.grid_2d_graph(side, side), ordering="sorted")


def planted_vertex_cover(n: int, k: int | None = None, p: float = 0.15, seed=None) -> nx.Graph:
    """A graph whose planted set ``C = {0..k-1}`` is a *provably optimal* vertex cover.

    Appendix D.2's adversarial training family ("a small graph embedded within a larger graph
    such that the vertices of the planted graph constitute the optimal minimum vertex cover").
    Our construction: ``V \\ C`` is independent; edges inside ``C`` and between ``C`` and
    ``V \\ C`` appear w.p. ``p``; and a perfect matching joins ``C`` to ``k`` vertices of
    ``V \\ C``.  ``C`` covers every edge and the matching needs ``k`` distinct cover vertices,
    so ``MVC = k`` exactly (recorded as ``G.graph['optimal_cover']``).  Default ``k = n // 3``.
    """
    return _planted_vertex_cover_edges(n, k, p, seed).to_networkx()


def _planted_vertex_cover_edges(n: int, k: int | None = None, p: float = 0.15,
                                seed=None) -> EdgeArray:
    rng = as_rng(seed)
    k = n // 3 if k is None else k
    if not 0 <= 2 * k <= n:
        raise ValueError("planted cover needs 0 <= 2k <= n")
    iu, ju = np.triu_indices(k, k=1)
    keep = rng.random(iu.size) < p
    inner = np.column_stack([iu[keep], ju[keep]])
    cu, cw = np.nonzero(rng.random((k, n - k)) < p)
    cross = np.column_stack([cu, k + cw])
    partners = rng.permutation(np.arange(k, n))[:k]
    matching = np.column_stack([np.arange(k), partners])
    edges = np.vstack([inner, cross, matching])
    # a matching edge may repeat a cross edge: keep its first occurrence, as networkx does
    first = np.sort(np.unique(edges[:, 0] * n + edges[:, 1], return_index=True)[1])
    return EdgeArray(n, edges[first], graph={"optimal_cover": list(range(k))})


#: the 10-vertex gadget of :func:`structured_bipartite_mis` (found by a search over random
#: bipartite graphs with up to 12 vertices, maximising optimum / min-degree-greedy)
MIS_TRAP_GADGET = ((0, 3), (0, 4), (1, 2), (1, 3), (1, 9), (2, 8), (3, 8), (4, 7), (5, 7),
                   (5, 8), (6, 7), (6, 8), (8, 9))


def structured_bipartite_mis(n: int, seed=None) -> nx.Graph:
    """Disjoint copies of a 10-vertex bipartite gadget on which min-degree greedy MIS loses 1/3.

    The paper tests MIS on "worst-case bipartite graphs for the greedy heuristic" without
    defining them (Section 5.2); DESIGN.md asks us to choose.  Min-degree greedy is a
    ``(Delta+2)/3``-approximation (Halldorsson & Radhakrishnan 1997), so a bad family needs a
    degree structure that baits greedy.  We searched random connected bipartite graphs on up to
    12 vertices for the largest ``alpha(G) / |greedy(G)|`` under min-degree greedy with
    smallest-label tie-breaking (:func:`g2s.heuristics.max_independent_set_greedy`); the best is
    :data:`MIS_TRAP_GADGET` with ``alpha = 6`` and greedy ``4`` (ratio 1.5).  The graph holds
    ``n // 10`` disjoint copies (greedy processes each copy exactly as it would alone) and the
    remaining ``n mod 10`` vertices isolated (taken by every method).  Deterministic; ``seed``
    is ignored.
    """
    return _structured_bipartite_mis_edges(n, seed).to_networkx()


def _structured_bipartite_mis_edges(n: int, seed=None) -> EdgeArray:
    del seed
    size = 10
    gadget = np.asarray(MIS_TRAP_GADGET)
    offsets = np.repeat(np.arange(n // size) * size, len(gadget))
    return EdgeArray(n, np.tile(gadget, (n // size, 1)) + offsets[:, None])


def sparse_erdos_renyi(n: int, avg_degree: float = 7.5, seed=None) -> nx.Graph:
    """G(n, p) with ``p = avg_degree / (n - 1)``, sampled in O(n + m) (Batagelj & Brandes 2005).

    Section 5's stress test: "sparse ER ... graphs of sizes 10,000 and 25,000 with an average
    degree of 7.5".
    """
    p = avg_degree / max(n - 1, 1)
    return nx.convert_node_labels_to_integers(nx.fast_gnp_random_graph(n, p, seed=_nx_seed(seed)))


def sparse_random_bipartite(n: int, avg_degree: float = 7.5, seed=None) -> nx.Graph:
    """Random bipartite graph with equal parts and average degree ``avg_degree`` (Section 5)."""
    a = n // 2
    p = avg_degree * n / (2 * a * (n - a)) if a and n - a else 0.0
    B = nx.bipartite.random_graph(a, n - a, p, seed=_nx_seed(seed))
    return EdgeArray(n, list(B.edges()), node_attrs=_sides(n, a)).to_networkx()


#: name -> generator(n, seed); the names used by scripts, certificates and the CLI
FAMILIES: dict[str, Callable[..., nx.Graph]] = {
    "er": erdos_renyi,
    "regular": random_regular,
    "bipartite": random_bipartite,
    "greedy_worst": greedy_worst_case_mvc,
    "grid": grid_2d,
    "planted": planted_vertex_cover,
    "structured_bipartite": structured_bipartite_mis,
    "sparse_er": sparse_erdos_renyi,
    "sparse_bipartite": sparse_random_bipartite,
}


def make_graph(family: str, n: int, seed=None) -> nx.Graph:
    """Generate one graph of a named family (:data:`FAMILIES`)."""
    try:
        gen = FAMILIES[family]
    except KeyError:
        raise ValueError(f"unknown graph family {family!r}; expected one of "
                         f"{', '.join(FAMILIES)}") from None
    return gen(n, seed=seed)


#: the families drawn with numpy: their EdgeArray is built without networkx (the others are
#: drawn by networkx and converted)
_EDGE_BUILDERS: dict[str, Callable[..., EdgeArray]] = {
    "er": _erdos_renyi_edges,
    "bipartite": _random_bipartite_edges,
    "greedy_worst": _greedy_worst_case_mvc_edges,
    "planted": _planted_vertex_cover_edges,
    "structured_bipartite": _structured_bipartite_mis_edges,
}


def make_edges(family: str, n: int, seed=None) -> EdgeArray:
    """:func:`make_graph`'s graph as an :class:`~g2s.edge_array.EdgeArray` (the same vertices,
    edges in the same order, the same graph and node attributes)."""
    if family in _EDGE_BUILDERS:
        return _EDGE_BUILDERS[family](n, seed=seed)
    G = make_graph(family, n, seed)
    E = EdgeArray.of(G)
    attrs = {k for d in G.nodes.values() for k in d}
    E.node_attrs = {k: [G.nodes[v].get(k) for v in G] for k in sorted(attrs)}
    return E


def instance_seed(family: str, n: int, index: int, base: int = 0) -> int:
    """The seed of the ``index``-th evaluation graph of a family and size (stable across runs)."""
    h = hashlib.sha256(f"{base}:{family}:{n}:{index}".encode()).hexdigest()
    return int(h[:8], 16)


def instance_graph(family: str, n: int, index: int) -> nx.Graph:
    """The ``index``-th seeded evaluation graph of a family and size (a new graph each call)."""
    return make_graph(family, n, seed=instance_seed(family, n, index))


@functools.lru_cache(maxsize=4096)
def instance_edges(family: str, n: int, index: int) -> EdgeArray:
    """:func:`instance_graph` as an :class:`~g2s.edge_array.EdgeArray`, built once per
    process (never modified; its fingerprint, colouring and matching number are computed once
    too): what the certificate and unit checks read."""
    return make_edges(family, n, seed=instance_seed(family, n, index))


def graph_fingerprint(G) -> str:
    """SHA-256 of the sorted edge list and vertex count: detects a generator that drifted.

    ``G``: a networkx graph or an :class:`~g2s.edge_array.EdgeArray`
    (:attr:`~g2s.edge_array.EdgeArray.fingerprint`, computed on the edge array)."""
    return EdgeArray.of(G).fingerprint
