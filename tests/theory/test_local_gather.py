"""The k-local-gather model and Proposition 2 (arXiv:1802.04948, Section 3.2, Appendix B.2).

Invariants, one test each:
- rooted balls compare equal exactly when isomorphic as rooted graphs (relabelling, moving the
  root, trees and non-trees);
- a k-local-gather algorithm gives the same output on graphs with equal ball multisets;
- L-round Structure2Vec is L-local: changing the graph outside v's induced L-ball never
  changes mu_v; the radius is tight (a change just outside the (L-1)-ball does);
- the two-layer GCN is 2-local only when the ball records global degrees: changes that keep the
  degrees of the 2-ball's vertices never change r(v), but attaching a leaf just outside the
  plain 2-ball does; with plain balls it is 3-local (so still inside Proposition 2's 4-local).
"""

import networkx as nx
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import graphs
from theory.local_gather import (
    ball_multiset,
    gcn_two_layer,
    k_ball,
    local_gather,
    rooted_ball,
    structure2vec,
)


@st.composite
def graph_and_perturbation(draw, k, keep_degrees):
    """A random graph, its vertex 0, features, and a valid change outside 0's k-ball.

    The change adds/removes edges and vertices and rewrites features only where that leaves
    the induced k-ball (and, with ``keep_degrees``, the degrees of its vertices) unchanged.
    """
    G = draw(graphs(min_n=3, max_n=13))
    n = G.number_of_nodes()
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    feats = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), float)
    dist = nx.single_source_shortest_path_length(G, 0)
    d = {u: dist.get(u, np.inf) for u in G}
    lo = k + 1 if keep_degrees else k  # vertices whose degree may change
    H = G.copy()
    for u, w in pairs:
        touches_outside = d[u] > k or d[w] > k
        if touches_outside and min(d[u], d[w]) >= lo and draw(st.booleans()):
            if H.has_edge(u, w):
                H.remove_edge(u, w)
            else:
                H.add_edge(u, w)
    anchors = [u for u in G if d[u] >= lo]
    new_feats = list(feats)
    for extra in range(draw(st.integers(0, 3)) if anchors else 0):
        H.add_edge(n + extra, draw(st.sampled_from(anchors)))
        new_feats.append(float(draw(st.integers(0, 3))))
    new_feats = np.array(new_feats)
    for u in G:
        if d[u] > k:
            new_feats[u] = float(draw(st.integers(0, 3)))
    return G, feats, H, new_feats


def _s2v_params(rng, p=3):
    return (rng.normal(size=p), rng.normal(size=(p, p)), rng.normal(size=(p, p)),
            np.abs(rng.normal(size=p)))


def _same_ball(G, H, v, k):
    a, b = k_ball(G, v, k), k_ball(H, v, k)
    return set(a) == set(b) and {frozenset(e) for e in a.edges} == {frozenset(e) for e in b.edges}


def test_rooted_ball_equality_is_rooted_isomorphism():
    P = nx.path_graph(5)
    relabelled = nx.relabel_nodes(P, {i: 10 - i for i in P})
    assert rooted_ball(P, 2, 2) == rooted_ball(relabelled, 8, 2)
    assert rooted_ball(P, 0, 4) != rooted_ball(P, 2, 4)  # same graph, different root
    C = nx.cycle_graph(5)
    assert rooted_ball(C, 0, 2) != rooted_ball(P, 2, 2)  # a cycle is not a path
    C2 = nx.relabel_nodes(C, {i: (3 * i) % 5 for i in C})
    assert rooted_ball(C, 0, 2) == rooted_ball(C2, 0, 2)
    assert hash(rooted_ball(C, 0, 2)) == hash(rooted_ball(C2, 0, 2))
    assert rooted_ball(P, 2, 1, degree_labels=True) != rooted_ball(nx.path_graph(3), 1, 1,
                                                                     degree_labels=True)


def test_local_gather_sees_only_ball_multisets():
    """Two non-isomorphic graphs with equal 1-ball multisets (C8 vs two 4-cycles)."""
    G, H = nx.cycle_graph(8), nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))
    assert ball_multiset(G, 1) == ball_multiset(H, 1)
    def represent(ball):
        return ball.key
    def gather(reps):
        return tuple(sorted(reps))
    assert local_gather(G, 1, represent, gather) == local_gather(H, 1, represent, gather)
    assert ball_multiset(G, 2) != ball_multiset(H, 2)


@st.composite
def s2v_case(draw):
    L = draw(st.integers(1, 4))
    return (L,) + draw(graph_and_perturbation(L, keep_degrees=False))


@given(s2v_case(), st.integers(0, 2**32 - 1))
def test_structure2vec_is_L_local(case, seed):
    L, G, x, H, y = case
    assert _same_ball(G, H, 0, L)
    th = _s2v_params(np.random.default_rng(seed))
    a = structure2vec(G, x, *th, rounds=L, nodes=list(G))[0]
    b = structure2vec(H, y, *th, rounds=L, nodes=list(H))[0]
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def _positive_s2v(rng, p=3):
    return (np.abs(rng.normal(size=p)), np.abs(rng.normal(size=(p, p))),
            np.abs(rng.normal(size=(p, p))), np.abs(rng.normal(size=p)))


def test_structure2vec_radius_is_tight():
    rng = np.random.default_rng(0)
    for L in range(1, 6):
        G = nx.path_graph(L + 3)  # vertex 0 at one end, vertex L - 1 at distance L - 1
        H = G.copy()
        H.add_edge(L - 1, "leaf")  # new vertex at distance L: outside the (L-1)-ball
        assert _same_ball(G, H, 0, L - 1)
        th = _positive_s2v(rng)
        a = structure2vec(G, np.ones(L + 3), *th, rounds=L, nodes=list(G))[0]
        b = structure2vec(H, np.ones(L + 4), *th, rounds=L, nodes=list(H))[0]
        assert np.abs(a - b).max() > 1e-9


def _gcn_weights(seed, c=2):
    rng = np.random.default_rng(seed)
    return np.abs(rng.normal(size=(c, 4))), rng.normal(size=(4, 2))


def _gcn_at_0(G, feats, W0, W1):
    X = np.stack([feats, np.ones_like(feats)], axis=1)
    return gcn_two_layer(G, X, W0, W1, nodes=list(G))[0]


@given(graph_and_perturbation(2, keep_degrees=True), st.integers(0, 2**32 - 1))
def test_gcn_is_2_local_with_boundary_degrees(case, seed):
    G, x, H, y = case
    assert rooted_ball(G, 0, 2, degree_labels=True) == rooted_ball(H, 0, 2, degree_labels=True)
    W0, W1 = _gcn_weights(seed)
    np.testing.assert_allclose(_gcn_at_0(G, x, W0, W1), _gcn_at_0(H, y, W0, W1),
                               rtol=1e-12, atol=1e-12)


@given(graph_and_perturbation(3, keep_degrees=False), st.integers(0, 2**32 - 1))
def test_gcn_is_3_local_with_plain_balls(case, seed):
    G, x, H, y = case
    W0, W1 = _gcn_weights(seed)
    np.testing.assert_allclose(_gcn_at_0(G, x, W0, W1), _gcn_at_0(H, y, W0, W1),
                               rtol=1e-12, atol=1e-12)


def test_gcn_is_not_2_local_with_plain_balls():
    """Counterexample to the proof's "2-local": a leaf attached at distance 3 changes r(0)."""
    G = nx.path_graph(4)
    H = G.copy()
    H.add_edge(2, 4)  # vertex 4 at distance 3; the plain 2-ball {0, 1, 2} is unchanged
    assert _same_ball(G, H, 0, 2)
    W0, W1 = _gcn_weights(1)
    a = _gcn_at_0(G, np.ones(4), W0, W1)
    b = _gcn_at_0(H, np.ones(5), W0, W1)
    assert np.abs(a - b).max() > 1e-3


def test_gcn_degree_radius_is_tight():
    """With degree labels, radius 1 is not enough: an edge between two distance-2 vertices."""
    G = nx.star_graph(3)
    G.add_edges_from([(1, 4), (2, 5)])
    H = G.copy()
    H.add_edge(4, 5)
    assert rooted_ball(G, 0, 1, degree_labels=True) == rooted_ball(H, 0, 1, degree_labels=True)
    W0, W1 = _gcn_weights(2)
    assert np.abs(_gcn_at_0(G, np.ones(6), W0, W1) - _gcn_at_0(H, np.ones(6), W0, W1)).max() > 1e-3
