"""Directed-information graph of a Graph2Seq trajectory (Theorem 1 of arXiv:1802.04948, App. B.1).

Reduction of conditional directed information to a conditional mutual information
---------------------------------------------------------------------------------
Quinn, Coleman & Kiyavash (2015, Def. 3.4) define, for processes ``X_u, X_v`` and the rest
``X_R`` (``R = V minus {u, v}``), the causally conditioned directed information

.. math:: I(X_u \\to X_v \\| X_R) = \\sum_{t=1}^{T} I(X_u^{t-1}; X_v(t) \\mid X_v^{t-1}, X_R^{t-1}),

and the directed-information graph has ``u -> v`` iff it is positive.  Write ``Z = X_{V-u}``.
Under Eq. (1) (Markov of order one, ``X_v(t)`` depends on ``X_{Gamma(v)}(t-1)`` and fresh noise):

1. chain rule + Markov: ``I(X_u^{t-1}; X_v(t) | Z^{t-1}) = I(X_u(t-1); X_v(t) | Z^{t-1})``;
2. given ``Z(t-1), Z(t-2)``, ``X_u(t-1) = relu(W sum_{Gamma(u)} x(t-2) + b) + n_u(t-1)`` and
   ``X_v(t)`` are functions of ``Z(t-1), Z(t-2)`` and noise independent of ``Z^{t-3}``, so each
   term *equals* ``I(X_u(t-1); X_v(t) | Z(t-1), Z(t-2))`` exactly;
3. both vanish iff ``u not in Gamma(v)`` (then ``X_v(t)`` is a function of ``Z(t-1)`` and fresh
   noise), and both are positive when ``u in Gamma(v)`` and ``W_1 != 0``: the noise
   ``n_u(t-1)`` is independent of ``Z^{t-1}`` and moves the mean of ``X_v(t)``.

So the edge decision is the sign of the one-step CMI

.. math:: I_{uv} = I\\big(X_u(t);\\ X_v(t+1) \\,\\big|\\, X_{V \\setminus u}(t)\\big),

which is at least the exact DI term (it conditions on less), lives in ``(n+1) d`` dimensions
instead of ``(2n-1) d``, and is estimated from the ``T`` transition pairs
``(x(t), x(t+1))`` of a trajectory (pooling over ``t`` keeps it zero for non-edges: the
transition kernel is the same at every ``t``).  Each vertex's ``d``-dimensional state is one block.

Decisions: an edge ``u -> v`` is declared when the surrogate test of ``I_{uv} > 0``
(local permutation of ``X_u`` within neighbourhoods of ``X_{V-u}(t)``, see
:mod:`theory.cmi_estimators`) has ``p < alpha_T / (n (n-1))``: Bonferroni over all ordered
pairs, which bounds ``P[some false edge] <= alpha_T`` (aimed at exact recovery, unlike FDR), with
``alpha_T = min(0.05, 10 / T)``.  As ``alpha_T -> 0`` the threshold on the standardised statistic
grows like ``sqrt(2 log T)`` while it grows like ``sqrt(T)`` for a true edge, so
``P[G_hat != G] -> 0`` (Theorem 1) provided the plug-in is consistent.  For the full estimator
the surrogate spread is pooled over the ``n - 1`` candidate parents of each target.

:func:`directed_information_graph` conditions every test on all ``n - 1`` other pasts, which
costs ``O(n^2 B N^2)`` and ``(n + 1) d`` dimensions; past n ~ 8 use
:func:`theory.parent_selection.selected_parents_graph` (the same test conditioned on a small
selected parent set; :func:`theory.parent_selection.greedy_directed_information_graph` is its
graph), which builds on this module's samples and level.

An undirected graph is read off the directed estimate by the OR rule (``{u, v}`` when either
direction is declared); the Bonferroni bound covers both directions.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

from theory.cmi_estimators import (
    chebyshev_distances,
    gaussian_tail_pvalue,
    knn_counts_cmi,
    local_neighbours,
    local_permutation,
    loo_log_kernel_sums,
    scott_bandwidth,
    squared_distances,
    standardize,
)

__all__ = [
    "transition_samples",
    "recovery_alpha",
    "DIGraphEstimate",
    "directed_information_graph",
    "undirected_from_directed",
]


def transition_samples(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs ``(x(t), x(t+1))`` of a trajectory ``(T+1, n, d)`` or runs ``(R, T+1, n, d)``."""
    X = np.asarray(X, dtype=float)
    if X.ndim == 3:
        X = X[None]
    n, d = X.shape[2], X.shape[3]
    return X[:, :-1].reshape(-1, n, d), X[:, 1:].reshape(-1, n, d)


def recovery_alpha(T: int) -> float:
    """Family-wise level ``alpha_T = min(0.05, 10 / T)`` (module docstring)."""
    return min(0.05, 10.0 / T)


@dataclass
class DIGraphEstimate:
    """A directed-information graph estimate; arrays are indexed ``[u, v]`` (edge ``u -> v``)."""

    graph: nx.DiGraph
    statistic: np.ndarray  # CMI estimates I_uv (nats)
    null_mean: np.ndarray  # surrogate mean
    null_std: np.ndarray  # surrogate spread used in the test
    pvalue: np.ndarray
    level: float  # per-test level alpha_T / (n (n - 1))


def _blocks(P, F):
    N, n, d = P.shape
    return (standardize(P.reshape(N, -1)).reshape(N, n, d),
            standardize(F.reshape(N, -1)).reshape(N, n, d))


def _full_statistics(P, F, method, perms, k, chunk, bandwidth_factor=1.0):
    """CMI estimates ``est[u, v]`` and surrogates ``sur[u, v, b]`` with Z = all other pasts."""
    N, n, d = P.shape
    B = perms.shape[1]
    dist = squared_distances if method == "kde" else chebyshev_distances
    h = bandwidth_factor * scott_bandwidth(N, (n + 1) * d)
    est, sur = np.zeros((n, n)), np.zeros((n, n, B))
    for r0 in range(0, N, chunk):
        r1 = min(N, r0 + chunk)
        diag = (np.arange(r1 - r0), np.arange(r0, r1))
        bp = [dist(P[r0:r1, w], P[:, w]) for w in range(n)]
        bf = [dist(F[r0:r1, w], F[:, w]) for w in range(n)]
        for blk in bp + bf:
            blk[diag] = np.inf
        if method == "kde":
            _kde_chunk(P, bp, bf, perms, h, r0, r1, diag, est, sur)
        else:
            _knn_chunk(P, bp, bf, perms, k, r0, r1, diag, est, sur)
    return est / N, sur / N


def _sum_except(blocks, u):
    out = np.zeros_like(blocks[0])
    for w, blk in enumerate(blocks):
        if w != u:
            out += blk
    return out


def _kde_chunk(P, bp, bf, perms, h, r0, r1, diag, est, sur):
    n, B = perms.shape[:2]
    lse = loo_log_kernel_sums
    total = _sum_except(bp, -1)
    l_xz = lse(total, h).sum()
    l_xyz = [lse(total + bf[v], h).sum() for v in range(n)]
    for u in range(n):
        zu = _sum_except(bp, u)
        l_z = lse(zu, h).sum()
        l_yz = {v: lse(zu + bf[v], h).sum() for v in range(n) if v != u}
        for v in l_yz:
            est[u, v] += l_xyz[v] + l_z - l_xz - l_yz[v]
        for b in range(B):
            pi = perms[u, b]
            xpz = zu + squared_distances(P[pi[r0:r1], u], P[pi, u])
            xpz[diag] = np.inf
            l_xpz = lse(xpz, h).sum()
            for v in l_yz:
                sur[u, v, b] += lse(xpz + bf[v], h).sum() + l_z - l_xpz - l_yz[v]


def _knn_chunk(P, bp, bf, perms, k, r0, r1, diag, est, sur):
    n, B = perms.shape[:2]
    total = np.maximum.reduce(bp)
    for u in range(n):
        zu = np.maximum.reduce([blk for w, blk in enumerate(bp) if w != u])
        for v in range(n):
            if v == u:
                continue
            yz = np.maximum(zu, bf[v])
            est[u, v] += knn_counts_cmi(total, yz, zu, np.maximum(total, bf[v]), k).sum()
        for b in range(B):
            pi = perms[u, b]
            xpz = np.maximum(zu, chebyshev_distances(P[pi[r0:r1], u], P[pi, u]))
            xpz[diag] = np.inf
            for v in range(n):
                if v != u:
                    yz = np.maximum(zu, bf[v])
                    sur[u, v, b] += knn_counts_cmi(xpz, yz, zu, np.maximum(xpz, bf[v]), k).sum()


def _digraph(n, decide) -> nx.DiGraph:
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from((u, v) for u in range(n) for v in range(n) if u != v and decide[u, v])
    return G


def directed_information_graph(X, *, method: str = "kde", n_surrogates: int = 6,
                               k_perm: int = 5, k: int = 5, alpha: float | None = None,
                               bandwidth_factor: float = 2.0, chunk: int = 256,
                               seed=None) -> DIGraphEstimate:
    """Estimate the graph of Eq. (1) from a trajectory by full-conditioning CMI tests.

    Parameters
    ----------
    X : array ``(T+1, n, d)`` (one trajectory) or ``(R, T+1, n, d)`` (independent runs)
    method : ``"kde"`` (:func:`~theory.cmi_estimators.kde_cmi`) or ``"knn"``
        (:func:`~theory.cmi_estimators.knn_cmi`, ``k`` neighbours)
    n_surrogates : local-permutation surrogates ``B`` per candidate parent
    bandwidth_factor : KDE bandwidth ``h = factor * N^{-1/(D+4)}``, ``D = (n+1) d``
    alpha : family-wise level (default :func:`recovery_alpha` of the number of transitions)
    seed : int, Generator or None (drives the surrogates only)

    Returns
    -------
    DIGraphEstimate
        ``graph`` has ``u -> v`` iff ``I(X_u(t); X_v(t+1) | X_{V-u}(t))`` is significantly
        positive (module docstring).
    """
    rng = np.random.default_rng(seed) if not isinstance(seed, np.random.Generator) else seed
    P, F = _blocks(*transition_samples(X))
    N, n, d = P.shape
    alpha = recovery_alpha(N) if alpha is None else alpha
    perms = np.empty((n, n_surrogates, N), dtype=np.int64)
    for u in range(n):
        nbrs = local_neighbours(np.delete(P, u, axis=1).reshape(N, -1), k_perm)
        for b in range(n_surrogates):
            perms[u, b] = local_permutation(P[:, u], seed=rng, neighbours=nbrs)
    est, sur = _full_statistics(P, F, method, perms, k, chunk, bandwidth_factor)
    mean = sur.mean(axis=2)
    resid = ((sur - mean[:, :, None]) ** 2).sum(axis=2)  # [u, v]
    off = ~np.eye(n, dtype=bool)
    df = max(1, (n - 1) * (n_surrogates - 1))
    pooled = np.sqrt((resid * off).sum(axis=0) / df)  # per target v
    std = np.broadcast_to(pooled[None, :], (n, n)).copy()
    p = np.where(off, gaussian_tail_pvalue(est, mean, std, n_surrogates, df), 1.0)
    level = alpha / max(1, n * (n - 1))
    return DIGraphEstimate(_digraph(n, p < level), est, mean, std, p, level)


def undirected_from_directed(D: nx.DiGraph) -> nx.Graph:
    """OR rule: ``{u, v}`` is an edge when ``u -> v`` or ``v -> u`` was declared."""
    G = nx.Graph()
    G.add_nodes_from(D.nodes)
    G.add_edges_from((u, v) for u, v in D.edges() if u != v)
    return G
