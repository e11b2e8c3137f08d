"""Proposition 1 (arXiv:1802.04948, Section 3.1 and Appendix B.2).

Invariants checked:
* R1 and R2 are 4-regular on 8 vertices, not isomorphic, MVC(R1) = 5 and MVC(R2) = 6 (exact).
* Under every deterministic rule of Eq. (1)'s form from a common initial state, the
  trajectories of R1 and R2 coincide at every vertex and time, and so do those of any two
  k-regular graphs on the same vertex count (Hypothesis over d, W_1, b_1, x_0).
* With sigma > 0 the directed-information estimator tells R1 and R2 apart (noise breaks the
  symmetry); a vertex-specific initial state also breaks it.
"""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from g2s.problems import is_vertex_cover
from theory.directed_information import directed_information_graph, undirected_from_directed
from theory.dynamics import G2SParameters, simulate_trajectory
from theory.regular_graphs import (
    minimum_vertex_cover_size_exhaustive,
    proposition1_graphs,
    regular_graph_trajectory,
)

R1, R2 = proposition1_graphs()


def test_r1_r2_are_4_regular_on_8_vertices():
    for G in (R1, R2):
        assert G.number_of_nodes() == 8 and G.number_of_edges() == 16
        assert {deg for _, deg in G.degree()} == {4}


def test_r1_r2_not_isomorphic():
    assert not nx.is_isomorphic(R1, R2)


def test_mvc_sizes_exact():
    assert minimum_vertex_cover_size_exhaustive(R1) == 5
    assert minimum_vertex_cover_size_exhaustive(R2) == 6


def test_exhaustive_mvc_pins_known_optima():
    assert minimum_vertex_cover_size_exhaustive(nx.cycle_graph(5)) == 3
    assert minimum_vertex_cover_size_exhaustive(nx.complete_graph(5)) == 4
    assert minimum_vertex_cover_size_exhaustive(nx.star_graph(6)) == 1
    assert is_vertex_cover(R1, {1, 3, 5, 6, 7})  # a cover of size 5 exists


def _rule(d):
    f = st.floats(-1.0, 1.0, allow_nan=False, allow_infinity=False)
    return st.tuples(arrays(float, (d, d), elements=f), arrays(float, (d,), elements=f),
                     arrays(float, (d,), elements=st.floats(-2.0, 2.0)))


@given(st.integers(1, 3).flatmap(_rule))
def test_deterministic_trajectories_identical_on_r1_r2(rule):
    W, b, x0 = rule
    params = G2SParameters(W=W, b=b, sigma=0.0)
    X1 = simulate_trajectory(R1, params, 12, x0=x0)
    X2 = simulate_trajectory(R2, params, 12, x0=x0)
    y = regular_graph_trajectory(4, W, b, x0, 12)
    scale = 1.0 + np.abs(y).max()
    np.testing.assert_allclose(X1, X2, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(X1, np.broadcast_to(y[:, None, :], X1.shape), rtol=0,
                               atol=1e-9 * scale)


@given(st.integers(2, 4), st.integers(0, 3), st.integers(0, 10**6),
       st.integers(1, 2).flatmap(_rule))
def test_any_two_regular_graphs_same_deterministic_trajectory(k, extra, gseed, rule):
    n = 2 * (k + 1 + extra)  # even, > k: a k-regular graph exists
    W, b, x0 = rule
    G1 = nx.random_regular_graph(k, n, seed=gseed)
    G2 = nx.random_regular_graph(k, n, seed=gseed + 1)
    params = G2SParameters(W=W, b=b, sigma=0.0)
    X1 = simulate_trajectory(G1, params, 10, x0=x0)
    X2 = simulate_trajectory(G2, params, 10, x0=x0)
    scale = 1.0 + np.abs(X1).max()
    np.testing.assert_allclose(X1, X2, rtol=0, atol=1e-9 * scale)


def test_vertex_specific_initial_state_breaks_symmetry():
    params = G2SParameters(W=np.array([[0.2]]), b=np.array([0.5]), sigma=0.0)
    x0 = np.arange(8, dtype=float)[:, None] / 8
    assert not np.allclose(simulate_trajectory(R1, params, 3, x0=x0),
                           simulate_trajectory(R2, params, 3, x0=x0))


@pytest.mark.parametrize("which", [0, 1])
def test_noise_breaks_symmetry_estimator_recovers_r1_r2(which):
    """sigma = 1, d = 1, T = 1500 transitions: the DI graph (OR rule) is exactly R1 / R2."""
    G = (R1, R2)[which]
    params = G2SParameters(W=np.array([[0.2]]), b=np.array([1.0]), sigma=1.0)
    X = simulate_trajectory(G, params, 1500, seed=7 + which)
    est = undirected_from_directed(directed_information_graph(X, seed=which).graph)
    assert set(map(frozenset, est.edges())) == set(map(frozenset, G.edges()))
