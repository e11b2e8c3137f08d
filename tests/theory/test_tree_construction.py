"""Theorem 2's construction (arXiv:1802.04948, Appendix B.3, Figure 5).

Invariants, one test each:
- k = 2, chains of 3: MVC(G1) = 9, MVC(G2) = 10 (exact tree DP);
- the proof's bijection maps every vertex to one with an isomorphic rooted k-ball, both for
  plain induced balls and for balls labelled with global degrees;
- for a range of k and odd chain lengths m > k the k-ball multisets agree and the MVCs differ;
- the boundaries of the construction: odd m >= k already suffices for plain balls (m > k is
  needed once boundary degrees are visible), and even m gives equal MVCs;
- every deterministic message-passing network with at most k rounds (random weights) gives the
  same embeddings on corresponding vertices, hence the same multiset; a longer sequence
  (m + 1 rounds) tells the graphs apart.
"""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from theory.local_gather import (
    ball_multiset,
    gcn_two_layer,
    message_passing_embeddings,
    rooted_ball,
    structure2vec,
)
from theory.tree_construction import (
    IMBALANCED_TREE,
    chain_tree,
    node_roles,
    theorem2_bijection,
    theorem2_pair,
)
from theory.tree_mvc import min_vertex_cover_tree


def test_binary_trees_shapes():
    G1, G2 = theorem2_pair(2, 1)
    assert G1.number_of_nodes() == G2.number_of_nodes() == 7
    assert max(nx.shortest_path_length(G1, (0, 0)).values()) == 2
    assert max(nx.shortest_path_length(G2, (0, 0)).values()) == 3
    roles = node_roles(IMBALANCED_TREE)
    assert sorted(roles.values()).count("leaf") == 4


def test_mvc_9_vs_10():
    G1, G2 = theorem2_pair(2)
    assert G1.number_of_nodes() == G2.number_of_nodes() == 21
    assert nx.is_tree(G1) and nx.is_tree(G2)
    assert min_vertex_cover_tree(G1)[0] == 9
    assert min_vertex_cover_tree(G2)[0] == 10


@pytest.mark.parametrize("degree_labels", [False, True])
def test_bijection_preserves_rooted_k_balls(degree_labels):
    G1, G2 = theorem2_pair(2, 3)
    phi = theorem2_bijection(3)
    assert sorted(phi.values()) == sorted(G2.nodes)
    for v in G1:
        assert rooted_ball(G1, v, 2, degree_labels) == rooted_ball(G2, phi[v], 2, degree_labels)


def test_balls_differ_one_radius_further():
    G1, G2 = theorem2_pair(2, 3)
    assert ball_multiset(G1, 3, degree_labels=True) != ball_multiset(G2, 3, degree_labels=True)
    assert ball_multiset(G1, 4) != ball_multiset(G2, 4)


@st.composite
def k_and_chain(draw):
    k = draw(st.integers(1, 5))
    m = k + 1 + 2 * draw(st.integers(0, 2)) + (1 if k % 2 == 1 else 0)  # odd, > k
    return k, m


@given(k_and_chain())
def test_multisets_agree_while_mvc_differs(km):
    k, m = km
    G1, G2 = theorem2_pair(k, m)
    phi = theorem2_bijection(m)
    for labels in (False, True):
        assert ball_multiset(G1, k, labels) == ball_multiset(G2, k, labels)
        assert all(rooted_ball(G1, v, k, labels) == rooted_ball(G2, phi[v], k, labels)
                   for v in G1)
    assert min_vertex_cover_tree(G2)[0] == min_vertex_cover_tree(G1)[0] + 1


@pytest.mark.parametrize("k", [1, 3, 5])
def test_odd_chain_equal_to_k_suffices_for_plain_balls_only(k):
    G1, G2 = theorem2_pair(k, k)
    assert ball_multiset(G1, k) == ball_multiset(G2, k)
    assert ball_multiset(G1, k, True) != ball_multiset(G2, k, True)
    assert min_vertex_cover_tree(G2)[0] != min_vertex_cover_tree(G1)[0]


@pytest.mark.parametrize("m", [2, 4, 6])
def test_even_chains_give_equal_mvc(m):
    G1, G2 = theorem2_pair(1, m)
    assert min_vertex_cover_tree(G1)[0] == min_vertex_cover_tree(G2)[0]


def _random_mp_weights(rng, rounds, d=4):
    # scale 1/d keeps tanh out of saturation, where differences would round away
    return [(rng.normal(size=(d, d)) / d, rng.normal(size=(d, d)) / d, rng.normal(size=d) / d)
            for _ in range(rounds)]


@pytest.mark.parametrize("k,m", [(1, 3), (2, 3), (3, 5)])
def test_k_round_message_passing_cannot_tell_g1_from_g2(k, m):
    G1, G2 = theorem2_pair(k, m)
    phi = theorem2_bijection(m)
    n1, n2 = list(G1), [phi[v] for v in G1]
    rng = np.random.default_rng(k * 100 + m)
    for _ in range(25):
        w = _random_mp_weights(rng, k)
        e1 = message_passing_embeddings(G1, w, n1)
        e2 = message_passing_embeddings(G2, w, n2)
        np.testing.assert_allclose(e1, e2, rtol=0, atol=1e-12)


@pytest.mark.parametrize("k,m", [(1, 3), (2, 3), (3, 5)])
def test_longer_sequence_tells_g1_from_g2(k, m):
    G1, G2 = theorem2_pair(k, m)
    rng = np.random.default_rng(k * 100 + m)
    for _ in range(25):
        w = _random_mp_weights(rng, m + 1)
        s1 = message_passing_embeddings(G1, w).sum(axis=1)  # gather: sum over vertices
        s2 = message_passing_embeddings(G2, w).sum(axis=1)
        assert np.abs(s1[:k] - s2[:k]).max() < 1e-12  # the first k rounds agree
        # round m + 1 separates them; the gap is small (information from m + 1 hops away is
        # damped by m + 1 tanh layers) but far above float64 rounding (~1e-14)
        assert np.abs(s1[-1] - s2[-1]).max() > 1e-10


def test_gcn_and_structure2vec_agree_on_corresponding_vertices():
    """The two named models of Proposition 2 at depth 2 on G1/G2 (k = 2, m = 3)."""
    G1, G2 = theorem2_pair(2, 3)
    phi = theorem2_bijection(3)
    n1, n2 = list(G1), [phi[v] for v in G1]
    rng = np.random.default_rng(7)
    for _ in range(10):
        X = np.ones((21, 3))
        W0, W1 = rng.normal(size=(3, 5)), rng.normal(size=(5, 2))
        np.testing.assert_allclose(gcn_two_layer(G1, X, W0, W1, n1),
                                   gcn_two_layer(G2, X, W0, W1, n2), atol=1e-12)
        th = (rng.normal(size=4), rng.normal(size=(4, 4)), rng.normal(size=(4, 4)),
              rng.normal(size=4))
        np.testing.assert_allclose(structure2vec(G1, np.ones(21), *th, rounds=2, nodes=n1),
                                   structure2vec(G2, np.ones(21), *th, rounds=2, nodes=n2),
                                   atol=1e-12)


def test_chain_tree_rejects_empty_chains():
    with pytest.raises(ValueError):
        chain_tree(IMBALANCED_TREE, 0)
