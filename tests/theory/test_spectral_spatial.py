"""Appendix A: spectral and spatial filters are equivalent (arXiv:1802.04948).

Invariants, one test each:
- symbolically (non-commutative W, X, A; L = 1 - A), the corrected re-parametrisation gives
  identical filters in both directions for every K = 1..8;
- the two maps are inverse to each other (binomial inversion), exactly, for K up to 16;
- the paper's printed recursion is right only for K = 1 and becomes right after flipping the
  sign of each odd-index W'_k (its Eq. (mat binom thm) expands (A - I)^k, not (I - A)^k);
- numerically, for random graphs, K, d, weights and biases, the filters agree within
  rtol = 1e-9 of the filter's scale for the normalised (A~, I - A~) and unnormalised
  (A, I - A) pairs, under a ReLU;
- with the combinatorial Laplacian L = D - A the equivalence holds on regular graphs; for K = 2
  it fails on every graph with an edge and unequal degrees (smallest: the path on 3 vertices).
"""

import networkx as nx
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from tests.strategies import graphs
from theory.spectral_spatial import (
    binomial_transform_matrix,
    graph_operators,
    paper_spectral_from_spatial,
    spatial_filter,
    spatial_from_spectral,
    spectral_filter,
    spectral_from_spatial,
    symbolic_filter_difference,
)

RTOL = 1e-9


@pytest.mark.parametrize("K", range(1, 9))
@pytest.mark.parametrize("direction", ["spatial->spectral", "spectral->spatial"])
def test_symbolic_equivalence(K, direction):
    assert symbolic_filter_difference(K, direction) == 0


@pytest.mark.parametrize("K", range(2, 9))
def test_paper_recursion_has_a_sign_error(K):
    assert symbolic_filter_difference(K, formula="paper") != 0
    X, A = sp.symbols("X A", commutative=False)
    W = list(sp.symbols(f"W0:{K}", commutative=False))
    flipped = [(-1) ** k * w for k, w in enumerate(paper_spectral_from_spatial(W))]
    assert all(sp.expand(a - b) == 0 for a, b in zip(flipped, spectral_from_spatial(W)))


def test_paper_recursion_is_right_for_K_1_and_wrong_for_K_2():
    assert symbolic_filter_difference(1, formula="paper") == 0
    X, A = sp.symbols("X A", commutative=False)
    W1 = sp.Symbol("W1", commutative=False)
    assert symbolic_filter_difference(2, formula="paper") == sp.expand(2 * W1 * X - 2 * W1 * X * A)


@pytest.mark.parametrize("K", [1, 2, 5, 16])
def test_binomial_inversion_identity(K):
    """sum_j C(k,j) (-1)^j C(j,i) (-1)^i = delta_ki: the transform is an involution."""
    T = sp.Matrix(binomial_transform_matrix(K))
    assert T * T == sp.eye(K)
    P = sp.Matrix(binomial_transform_matrix(K, sign="paper"))
    assert P.inv() == sp.Matrix(K, K, lambda k, i: sp.binomial(k, i) if i <= k else 0)


@st.composite
def filter_case(draw):
    G = draw(graphs(min_n=2, max_n=9))
    K = draw(st.integers(1, 6))
    d, d_out = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    return G, K, d, d_out, seed


def _scale(M, X, weights):
    """Sum of |W_k| |X| |M|^k: bounds every term, so rtol is relative to the filter's size."""
    s, XP = 0.0, np.abs(X)
    for k, W in enumerate(weights):
        if k:
            XP = XP @ np.abs(M)
        s += (np.abs(W) @ XP).max()
    return s


def _relu(z):
    return np.maximum(z, 0.0)


def _assert_conversion_keeps_the_filter(kind, case, given_domain):
    """Random weights in `given_domain`, converted to the other domain, give the same output."""
    G, K, d, d_out, seed = case
    rng = np.random.default_rng(seed)
    A, L = graph_operators(G, kind)
    X = rng.normal(size=(d, G.number_of_nodes()))
    given_weights = [rng.normal(size=(d_out, d)) for _ in range(K)]
    b = rng.normal(size=d_out)
    if given_domain == "spatial":
        W, Wp = given_weights, spectral_from_spatial(given_weights)
    else:
        W, Wp = spatial_from_spectral(given_weights), given_weights
    scale = max(_scale(A, X, W), _scale(L, X, Wp))
    np.testing.assert_allclose(spectral_filter(L, X, Wp, b, _relu),
                               spatial_filter(A, X, W, b, _relu), rtol=0, atol=RTOL * scale)


@pytest.mark.parametrize("kind", ["normalized", "unnormalized"])
@given(case=filter_case())
def test_numeric_spatial_to_spectral(kind, case):
    _assert_conversion_keeps_the_filter(kind, case, "spatial")


@pytest.mark.parametrize("kind", ["normalized", "unnormalized"])
@given(case=filter_case())
def test_numeric_spectral_to_spatial(kind, case):
    _assert_conversion_keeps_the_filter(kind, case, "spectral")


def _best_spatial_residual(A, L, K):
    """Smallest relative residual of q(L) = L (scalar d = 1, W'_1 = 1) by sum_{k<K} w_k A^k."""
    target = L.ravel()
    basis = np.stack([np.linalg.matrix_power(A, k).ravel() for k in range(K)], axis=1)
    coef, *_ = np.linalg.lstsq(basis, target, rcond=None)
    return np.linalg.norm(basis @ coef - target) / np.linalg.norm(target)


def test_combinatorial_laplacian_breaks_equivalence_on_path():
    A, L = graph_operators(nx.path_graph(3), "combinatorial")
    assert _best_spatial_residual(A, L, 2) > 0.1


@given(case=filter_case())
def test_combinatorial_laplacian_breaks_equivalence_when_degrees_differ(case):
    G = case[0]
    degrees = {d for _, d in G.degree()}
    if G.number_of_edges() == 0 or len(degrees) == 1:
        G = nx.path_graph(G.number_of_nodes() + 1)  # make the input valid, do not filter
    A, L = graph_operators(G, "combinatorial")
    assert _best_spatial_residual(A, L, 2) > 1e-6


@given(st.integers(1, 4), st.integers(5, 12), st.integers(0, 2**32 - 1))
def test_combinatorial_laplacian_fine_on_regular_graphs(r, n, seed):
    n += (n * r) % 2
    G = nx.random_regular_graph(r, n, seed=seed)
    A, L = graph_operators(G, "combinatorial")
    assert _best_spatial_residual(A, L, 2) < 1e-12  # D - A = r I - A
