"""A graph as a numpy array of its edges: what verification reads.

The largest evaluation graphs (random bipartite at 3,200 vertices) have 1.9 million edges.  As
a :class:`networkx.Graph` such a graph takes seconds to build and about half a gigabyte; a
Python loop over its edges (a feasibility check) takes a second.  As an ``(m, 2)`` integer
array it is built in milliseconds, and the checks are numpy operations over it.

:class:`EdgeArray` holds the vertex count, the edges as positions ``0..n-1`` (in the order
they were added, or networkx lists them), the vertex labels when they are not ``0..n-1``, the
graph attributes and the node attributes.  It answers the few questions a verification asks of
a graph the way networkx does (``number_of_nodes``, ``number_of_edges``, ``v in G``, iteration
over the vertices, ``G.graph``, and ``degree`` and ``neighbors``, which the heuristics of
:data:`g2s.heuristics.ON_EDGE_ARRAYS` read), and computes on the array what is derived from the
edges alone:

* :meth:`EdgeArray.mask`: which vertices of a set ``S`` are in the graph, as a boolean vector
  (the feasibility predicates of :mod:`g2s.problems` compare its values at both ends of every
  edge);
* :attr:`EdgeArray.fingerprint`: :func:`g2s.graphs.graph_fingerprint`'s hash;
* :attr:`EdgeArray.coloring`: a proper 2-colouring, or ``None`` when the graph has an odd cycle
  (BFS depths from one root per component, ``scipy.sparse.csgraph``: a graph is bipartite iff
  no edge joins two vertices at the same depth);
* :attr:`EdgeArray.matching_number`: the size of a maximum matching of a bipartite graph
  (Hopcroft-Karp, :func:`scipy.sparse.csgraph.maximum_bipartite_matching`).

:meth:`EdgeArray.of` converts a networkx graph (``O(m)``, through ``G.edges()``, so self-loops
and the edges of a multigraph count as networkx lists them) and returns an EdgeArray as is.
An EdgeArray is never modified after construction; its derived values are computed once.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from itertools import chain

import networkx as nx
import numpy as np
from scipy import sparse
from scipy.sparse import csgraph

__all__ = ["EdgeArray"]


class EdgeArray:
    """An undirected graph on ``n`` vertices as an ``(m, 2)`` array of vertex positions.

    ``labels``: the vertex labels by position (``None``: vertex ``i`` is labelled ``i``);
    ``graph``: graph attributes (e.g. ``optimal_cover``); ``node_attrs``: ``{name: values by
    position}`` (e.g. ``bipartite``), set on every vertex by :meth:`to_networkx`.
    """

    def __init__(self, n: int, edges, *, labels=None, graph=None, node_attrs=None):
        self.n = int(n)
        e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        self.edges = e.astype(np.int32) if self.n < 2**31 - 1 else e
        self.edges.flags.writeable = False
        self.labels = None if labels is None else list(labels)
        if self.labels is not None and len(self.labels) != self.n:
            raise ValueError("need one label per vertex")
        self.graph = dict(graph or {})
        self.node_attrs = {k: list(v) for k, v in (node_attrs or {}).items()}

    @classmethod
    def of(cls, G) -> EdgeArray:
        """``G`` as an EdgeArray (``G`` itself when it is one)."""
        if isinstance(G, EdgeArray):
            return G
        nodes = list(G)
        n, m = len(nodes), G.number_of_edges()
        if nodes == list(range(n)):
            flat = np.fromiter(chain.from_iterable(e[:2] for e in G.edges()), dtype=np.int64,
                               count=2 * m)
            labels = None
        else:
            pos = {v: i for i, v in enumerate(nodes)}
            flat = np.fromiter((pos[x] for e in G.edges() for x in e[:2]), dtype=np.int64,
                               count=2 * m)
            labels = nodes
        return cls(n, flat, labels=labels, graph=G.graph)

    # the parts of networkx's reading interface a verification uses
    @property
    def nodes(self):
        return range(self.n) if self.labels is None else self.labels

    def __iter__(self):
        return iter(self.nodes)

    def __len__(self) -> int:
        return self.n

    def __contains__(self, v) -> bool:
        try:
            return v in self._position
        except TypeError:  # unhashable: no vertex
            return False

    def number_of_nodes(self) -> int:
        return self.n

    def number_of_edges(self) -> int:
        return int(self.edges.shape[0])

    @cached_property
    def _neighbour_csr(self) -> sparse.csr_array:
        """Both directions of every edge, by position (built once)."""
        e = self.edges
        both = np.concatenate([e, e[:, ::-1]]) if e.size else e
        ones = np.ones(both.shape[0], dtype=np.int8)
        return sparse.csr_array((ones, (both[:, 0], both[:, 1])), shape=(self.n, self.n))

    @cached_property
    def _degrees(self) -> list:
        """Degree by position, as networkx counts it: distinct neighbours, a self-loop twice."""
        A = self._neighbour_csr
        deg = np.diff(A.indptr)
        loops = self.edges[self.edges[:, 0] == self.edges[:, 1], 0]
        deg[np.unique(loops)] += 1
        return deg.tolist()

    def degree(self, v=None):
        """``G.degree(v)`` as networkx gives it; without ``v``, ``(vertex, degree)`` pairs in
        vertex order (what ``dict(G.degree())`` reads)."""
        if v is None:
            return list(zip(self.nodes, self._degrees))
        return self._degrees[self._position[v]]

    def neighbors(self, v) -> list:
        """The neighbours of vertex ``v`` (as :meth:`networkx.Graph.neighbors`, in position
        order): what the heuristics read, so they run on the edge array without a networkx
        copy of the graph."""
        i = self._position[v]
        A = self._neighbour_csr
        at = A.indices[A.indptr[i]:A.indptr[i + 1]].tolist()
        return at if self.labels is None else [self.labels[j] for j in at]

    @cached_property
    def _position(self) -> dict:
        return {v: i for i, v in enumerate(self.nodes)}

    def mask(self, S) -> np.ndarray:
        """Boolean vector over the vertex positions: ``True`` at the vertices of ``S``
        (members of ``S`` that are no vertex of the graph are ignored)."""
        pos = self._position
        out = np.zeros(self.n, dtype=bool)
        out[[pos[v] for v in S if v in pos]] = True
        return out

    def to_networkx(self) -> nx.Graph:
        """The :class:`networkx.Graph`: vertices in position order, edges in array order."""
        G = nx.Graph()
        G.add_nodes_from(self.nodes)
        e = self.edges.tolist()
        if self.labels is not None:
            e = [(self.labels[u], self.labels[v]) for u, v in e]
        G.add_edges_from(e)
        for name, values in self.node_attrs.items():
            nx.set_node_attributes(G, dict(zip(self.nodes, values)), name)
        G.graph.update(self.graph)
        return G

    @cached_property
    def fingerprint(self) -> str:
        """SHA-256 (16 hex digits) of ``"n;u,v;u,v;..."`` over the edges with ``u <= v``,
        sorted (labels compared as labels): :func:`g2s.graphs.graph_fingerprint`."""
        if self.labels is None or all(type(v) is int for v in self.labels):
            lab = (np.arange(self.n, dtype=np.int64) if self.labels is None
                   else np.asarray(self.labels, dtype=np.int64))
            u, v = lab[self.edges[:, 0]], lab[self.edges[:, 1]]
            lo, hi = np.minimum(u, v), np.maximum(u, v)
            order = np.lexsort((hi, lo))
            flat = np.column_stack([lo[order], hi[order]]).ravel().tolist()
            # one %-format over every pair (a C loop: about twice as fast as joining an
            # f-string per edge, the same text)
            body = ("%d,%d;" * (len(flat) // 2) % tuple(flat))[:-1]
        else:
            lab = self.labels
            pairs = sorted((min(lab[a], lab[b]), max(lab[a], lab[b])) for a, b in self.edges)
            body = ";".join(f"{u},{v}" for u, v in pairs)
        payload = f"{self.n};" + body
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def _adjacency(self, extra=None) -> sparse.csr_array:
        e = self.edges if extra is None else np.vstack([self.edges, extra])
        size = self.n + (extra is not None)
        ones = np.ones(e.shape[0], dtype=np.int8)
        return sparse.csr_array((ones, (e[:, 0], e[:, 1])), shape=(size, size))

    @cached_property
    def coloring(self) -> np.ndarray | None:
        """A proper 2-colouring (0/1 by position), or ``None`` when the graph is not
        bipartite: BFS depth parity from one root per component (a virtual vertex joined to
        each component's first vertex is the one BFS source)."""
        if self.n == 0:
            return np.zeros(0, dtype=np.int8)
        _, comp = csgraph.connected_components(self._adjacency(), directed=False)
        roots = np.unique(comp, return_index=True)[1]
        virtual = np.column_stack([np.full(roots.size, self.n), roots])
        depth = csgraph.shortest_path(self._adjacency(virtual), method="D", directed=False,
                                      unweighted=True, indices=self.n)[:self.n]
        if np.any(depth[self.edges[:, 0]] == depth[self.edges[:, 1]]):
            return None
        return (depth.astype(np.int64) % 2).astype(np.int8)

    @cached_property
    def matching_number(self) -> int:
        """The size of a maximum matching (``ValueError`` unless bipartite): ``tau(G)`` by
        König's theorem."""
        color = self.coloring
        if color is None:
            raise ValueError("the matching number here is for bipartite graphs")
        rows = np.flatnonzero(color == 0)
        cols = np.flatnonzero(color == 1)
        at = np.full(self.n, -1, dtype=np.int64)
        at[rows], at[cols] = np.arange(rows.size), np.arange(cols.size)
        u, v = self.edges[:, 0], self.edges[:, 1]
        r = np.where(color[u] == 0, at[u], at[v])
        c = np.where(color[u] == 0, at[v], at[u])
        B = sparse.csr_array((np.ones(r.size, dtype=np.int8), (r, c)),
                             shape=(rows.size, cols.size))
        if B.nnz == 0:
            return 0
        match = csgraph.maximum_bipartite_matching(B, perm_type="column")
        return int(np.count_nonzero(match >= 0))
