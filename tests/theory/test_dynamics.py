"""The noisy dynamics of Eq. (1) (arXiv:1802.04948, Section 3.1) and Properties 1-2 of App. B.1.

Invariants checked:
* Gamma(v) is the in-neighbourhood (edge u -> v); undirected edges count both ways.
* Every generic draw is contractive (rho(A) rho(|W_1|) <= gamma < 1) and live (relu
  pre-activation at the noise-free fixed point >= the margin), for random graphs (Hypothesis).
* One step of the simulation is relu(W_1 sum_{Gamma(v)} x_u + b_1) plus N(0, sigma^2 I) noise
  that is independent of the past (strict causality, Property 2); sigma = 0 is deterministic.
* Simulations are seeded and reproducible; independent runs are independent.
"""

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from theory.dynamics import (
    G2SParameters,
    draw_generic_parameters,
    in_neighbour_matrix,
    noise_free_fixed_point,
    relu_margin,
    simulate_independent_trajectories,
    simulate_trajectory,
)


def test_in_neighbour_matrix_directed_and_undirected():
    D = nx.DiGraph([(0, 1), (1, 2)])
    M = in_neighbour_matrix(D)
    assert M[1, 0] == 1 and M[0, 1] == 0 and M[2, 1] == 1 and M.sum() == 2
    U = in_neighbour_matrix(nx.Graph([(0, 1), (1, 2)]))
    np.testing.assert_array_equal(U, U.T)
    assert U.sum() == 4


@given(st.integers(2, 8), st.floats(0.1, 0.9), st.booleans(), st.integers(1, 3),
       st.integers(0, 10**6))
def test_generic_draw_is_contractive_and_live(n, p, directed, d, seed):
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    M = in_neighbour_matrix(G)
    params = draw_generic_parameters(G, d, gamma=0.9, seed=seed)
    rho_A = max(1.0, np.max(np.abs(np.linalg.eigvals(M))))
    rho_W = np.max(np.abs(np.linalg.eigvals(np.abs(params.W))))
    assert rho_A * rho_W <= 0.9 + 1e-9
    assert relu_margin(G, params.W, params.b) >= 0.2
    assert np.all(params.b > 0)


def test_fixed_point_is_fixed():
    G = nx.gnp_random_graph(6, 0.5, seed=1, directed=True)
    params = draw_generic_parameters(G, 2, seed=1)
    X = noise_free_fixed_point(G, params.W, params.b)
    M = in_neighbour_matrix(G)
    np.testing.assert_allclose(np.maximum(M @ X @ params.W.T + params.b, 0), X, atol=1e-10)


def test_one_step_is_eq1_plus_gaussian_noise():
    G = nx.gnp_random_graph(5, 0.5, seed=3, directed=True)
    params = draw_generic_parameters(G, 2, sigma=0.7, seed=3)
    X = simulate_trajectory(G, params, 20_000, x0="random", seed=4)
    M = in_neighbour_matrix(G)
    resid = X[1:] - np.maximum((M @ X[:-1]) @ params.W.T + params.b, 0.0)
    assert abs(resid.std() - 0.7) < 0.01
    assert abs(resid.mean()) < 0.01
    # strict causality (Property 2): the new noise is uncorrelated with the current state
    corr = np.corrcoef(resid.reshape(len(resid), -1).T, X[:-1].reshape(len(resid), -1).T)
    k = resid.shape[1] * resid.shape[2]
    assert np.abs(corr[:k, k:]).max() < 0.05


def test_sigma_zero_is_deterministic_and_converges():
    G = nx.cycle_graph(5)
    params = draw_generic_parameters(G, 2, sigma=0.0, seed=0)
    X = simulate_trajectory(G, params, 300, seed=1)
    np.testing.assert_array_equal(X, simulate_trajectory(G, params, 300, seed=2))
    np.testing.assert_allclose(X[-1], noise_free_fixed_point(G, params.W, params.b), atol=1e-9)


def test_seeded_and_bounded():
    G = nx.gnp_random_graph(8, 0.6, seed=2, directed=True)
    params = draw_generic_parameters(G, 2, seed=2)
    A = simulate_trajectory(G, params, 5000, seed=11)
    np.testing.assert_array_equal(A, simulate_trajectory(G, params, 5000, seed=11))
    assert np.isfinite(A).all() and np.abs(A).max() < 50
    # stationarity: the two halves have close means
    assert np.abs(A[100:2550].mean(0) - A[2550:].mean(0)).max() < 0.2


def test_independent_runs_shape_and_initial_states():
    G = nx.path_graph(4)
    params = G2SParameters(W=np.eye(2) * 0.3, b=np.ones(2), sigma=1.0)
    R = simulate_independent_trajectories(G, params, 10, 7, x0="random", seed=0)
    assert R.shape == (7, 11, 4, 2)
    assert not np.allclose(R[0, 0], R[1, 0])
    Z = simulate_independent_trajectories(G, params, 3, 2, x0="zero", seed=0)
    assert np.all(Z[:, 0] == 0)
    with pytest.raises(ValueError):
        simulate_trajectory(G, params, 3, x0="bogus")
