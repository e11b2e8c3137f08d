"""The edge-array form of a graph (g2s.edge_array) agrees with networkx on everything the
verification reads.

* every family's :func:`make_edges` is :func:`make_graph`'s graph: the same vertices with the
  same attributes, the same edges, the same graph attributes, the same fingerprint;
* the fingerprint is the documented hash of the sorted edge list, for integer and other
  labels;
* the 2-colouring exists exactly when networkx finds the graph bipartite, is proper, and the
  matching number is networkx's Hopcroft-Karp matching size;
* the feasibility predicates and the cut size on an EdgeArray and on a networkx graph (any
  labels, sets naming vertices outside the graph) equal their definitions;
* :func:`instance_edges` is built once per process and cannot be modified.
"""

import hashlib

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from g2s import graphs as gr
from g2s import problems as P
from g2s.edge_array import EdgeArray
from tests.strategies import graphs


def _documented_fingerprint(G: nx.Graph) -> str:
    edges = sorted((min(u, v), max(u, v)) for u, v in G.edges())
    payload = f"{G.number_of_nodes()};" + ";".join(f"{u},{v}" for u, v in edges)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


@pytest.mark.parametrize("family", sorted(gr.FAMILIES))
@pytest.mark.parametrize("n", [10, 26, 100])
def test_make_edges_is_make_graph(family, n):
    for seed in (0, 3):
        G = gr.make_graph(family, n, seed)
        E = gr.make_edges(family, n, seed)
        H = E.to_networkx()
        assert list(H.nodes(data=True)) == list(G.nodes(data=True))
        assert {frozenset(e) for e in H.edges()} == {frozenset(e) for e in G.edges()}
        assert E.number_of_edges() == G.number_of_edges()
        assert H.graph == G.graph == E.graph
        assert E.fingerprint == gr.graph_fingerprint(G) == _documented_fingerprint(G)


@given(graphs(max_n=12), st.booleans())
def test_fingerprint_is_the_documented_hash(G, relabel):
    if relabel:   # labels that are not 0..n-1 (and compare as strings when sorted)
        G = nx.relabel_nodes(G, {v: f"v{v}" for v in G})
    assert EdgeArray.of(G).fingerprint == _documented_fingerprint(G)


@given(graphs(max_n=12), st.integers(0, 3))
def test_coloring_and_matching_agree_with_networkx(G, extra):
    G = G.copy()
    G.add_nodes_from(range(G.number_of_nodes(), G.number_of_nodes() + extra))  # isolated
    E = EdgeArray.of(G)
    assert (E.coloring is not None) == nx.is_bipartite(G)
    if E.coloring is None:
        with pytest.raises(ValueError, match="bipartite"):
            _ = E.matching_number
        return
    assert all(E.coloring[u] != E.coloring[v] for u, v in G.edges())
    top = {v for v, c in nx.bipartite.color(G).items() if c == 0}
    assert E.matching_number == len(nx.bipartite.hopcroft_karp_matching(G, top)) // 2


def test_odd_cycle_and_self_loop_are_not_bipartite():
    assert EdgeArray.of(nx.cycle_graph(5)).coloring is None
    assert EdgeArray.of(nx.cycle_graph(6)).matching_number == 3
    G = nx.path_graph(3)
    G.add_edge(1, 1)
    assert EdgeArray.of(G).coloring is None and not nx.is_bipartite(G)


@given(graphs(max_n=10), st.sets(st.integers(-2, 12)), st.booleans())
def test_predicates_follow_their_definitions(G, S, relabel):
    if relabel:
        G = nx.relabel_nodes(G, {v: ("v", v) for v in G})
        S = {("v", v) for v in S}
    cover = all(u in S or v in S for u, v in G.edges())
    independent = S <= set(G) and not any(u in S and v in S for u, v in G.edges())
    cut = sum((u in S) != (v in S) for u, v in G.edges())
    for graph in (G, EdgeArray.of(G)):
        assert P.is_vertex_cover(graph, S) == cover
        assert P.is_independent_set(graph, S) == independent
        assert P.cut_size(graph, S) == cut
        assert P.is_feasible("mvc", graph, S) == (S <= set(G) and cover)


def test_instance_edges_is_built_once_and_read_only():
    a = gr.instance_edges("er", 25, 0)
    assert gr.instance_edges("er", 25, 0) is a
    assert a.fingerprint == gr.graph_fingerprint(gr.instance_graph("er", 25, 0))
    with pytest.raises(ValueError):
        a.edges[0, 0] = 1
    assert isinstance(a.edges, np.ndarray) and a.edges.shape == (a.number_of_edges(), 2)
