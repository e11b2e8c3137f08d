"""Appendix A's filters have K weights (k = 0..K-1) and so read K-1 hops, not K.

Ledger entry: ``appendixA-index-inconsistencies``.  Invariant: with weights W_0..W_{K-1}, the
output at a vertex changes when the features of a vertex at distance K-1 change and does not
when any vertex at distance >= K changes (both for A~ and the unnormalised A, whose powers only
reach K-1 hops).
"""

import networkx as nx
import numpy as np
import pytest

from theory.spectral_spatial import graph_operators, spatial_filter


@pytest.mark.parametrize("kind", ["normalized", "unnormalized"])
@pytest.mark.parametrize("K", [1, 2, 3, 4, 5])
def test_filter_with_K_weights_reads_exactly_K_minus_1_hops(K, kind):
    n, d = 9, 3
    G = nx.path_graph(n)                      # vertex u is at distance u from vertex 0
    A, _ = graph_operators(G, kind)
    rng = np.random.default_rng(K)
    weights = [rng.normal(size=(d, d)) for _ in range(K)]
    bias = rng.normal(size=d)
    X = rng.normal(size=(d, n))
    base = spatial_filter(A, X, weights, bias)[:, 0]
    reach = []
    for u in range(n):
        X2 = X.copy()
        X2[:, u] += rng.normal(size=d)
        if not np.allclose(spatial_filter(A, X2, weights, bias)[:, 0], base, rtol=0, atol=1e-12):
            reach.append(u)
    assert max(reach) == K - 1
