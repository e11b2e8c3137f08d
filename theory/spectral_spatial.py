"""Appendix A: local spectral and spatial graph filters are equivalent (arXiv:1802.04948).

Spatial filter, Eq. (spatial update) in matrix form (Eq. spatial mat version)::

    Y = sigma( sum_{k=0}^{K-1} W_k X A^k + b_0 1^T )

Spectral filter, Eq. (spectral update) / (spectral mat version) with ``L = I - A``::

    Y = sigma( sum_{k=0}^{K-1} W'_k X L^k + b'_0 1^T )

``X`` is ``d x n`` (one column per vertex), ``W_k`` are ``d' x d``.  Because the weights act on
the feature side and the graph matrices on the vertex side, both filters are fixed by the
coefficient sequence of a polynomial in one commuting variable ``a`` (for ``A``) with
non-commutative matrix coefficients.  Writing ``(1 - a)^k = sum_i C(k,i) (-1)^i a^i``:

* spectral -> spatial: ``W_i = sum_{k>=i} C(k,i) (-1)^i W'_k``  (:func:`spatial_from_spectral`)
* spatial -> spectral: ``W'_i = (-1)^i sum_{k>=i} C(k,i) W_k``  (:func:`spectral_from_spatial`)

The paper's Eq. (mat binom thm) expands ``(I - A)^k`` as ``sum_i C(k,i) (-1)^(k-i) A^i``, which
is the expansion of ``(A - I)^k``; its recursion (:func:`paper_spectral_from_spatial`) therefore
gives the right filter only after flipping the sign of every odd-index ``W'_k``.  The existence
claim of the proposition survives; the explicit formula does not (see tests and ledger).

Which ``A`` and ``L``: normalised (``A~ = D^{-1/2} A D^{-1/2}``, ``L~ = I - A~``, the
paper's choice; isolated vertices get ``D^{-1/2} = 0``), unnormalised with ``L = I - A``
(an algebraic identity, so equivalent too), and the combinatorial Laplacian ``L = D - A``, which
is a polynomial in ``A`` only on regular graphs: there the proposition fails in general.
"""

from __future__ import annotations

from math import comb

import networkx as nx
import numpy as np
import sympy as sp

__all__ = [
    "normalized_adjacency",
    "graph_operators",
    "spatial_filter",
    "spectral_filter",
    "spatial_from_spectral",
    "spectral_from_spatial",
    "paper_spectral_from_spatial",
    "binomial_transform_matrix",
    "symbolic_filter_difference",
]


def normalized_adjacency(G: nx.Graph, nodes: list | None = None) -> np.ndarray:
    """``D^{-1/2} A D^{-1/2}`` with ``D^{-1/2} = 0`` on isolated vertices (Appendix A)."""
    nodes = list(G) if nodes is None else nodes
    A = nx.to_numpy_array(G, nodelist=nodes)
    deg = A.sum(axis=1)
    s = np.divide(1.0, np.sqrt(deg), out=np.zeros_like(deg), where=deg > 0)
    return s[:, None] * A * s[None, :]


def graph_operators(G: nx.Graph, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """``(A, L)`` for ``kind`` in ``normalized`` (``A~, I - A~``), ``unnormalized``
    (``A, I - A``) or ``combinatorial`` (``A, D - A``)."""
    nodes = list(G)
    if kind == "normalized":
        A = normalized_adjacency(G, nodes)
        return A, np.eye(len(nodes)) - A
    A = nx.to_numpy_array(G, nodelist=nodes)
    if kind == "unnormalized":
        return A, np.eye(len(nodes)) - A
    if kind == "combinatorial":
        return A, np.diag(A.sum(axis=1)) - A
    raise ValueError(f"unknown kind {kind!r}")


def _polynomial_filter(M: np.ndarray, X: np.ndarray, weights: list, bias: np.ndarray,
                       sigma) -> np.ndarray:
    out = np.repeat(bias[:, None], X.shape[1], axis=1).astype(float)
    XP = X.astype(float)
    for k, W in enumerate(weights):
        if k:
            XP = XP @ M
        out = out + W @ XP
    return sigma(out)


def spatial_filter(A, X, weights, bias, sigma=lambda z: z):
    """Eq. (spatial mat version): ``sigma(sum_{k=0}^{K-1} W_k X A^k + b_0 1^T)``."""
    return _polynomial_filter(A, X, weights, bias, sigma)


def spectral_filter(L, X, weights, bias, sigma=lambda z: z):
    """Eq. (spectral mat version), first line: ``sigma(sum_k W'_k X L^k + b'_0 1^T)``."""
    return _polynomial_filter(L, X, weights, bias, sigma)


def binomial_transform_matrix(K: int, sign: str = "correct") -> list[list[int]]:
    """``T[k][i]``: coefficient of ``A^i`` in the expansion of ``L^k`` (integers).

    ``sign="correct"``: ``(I - A)^k``, ``T[k][i] = C(k,i) (-1)^i``;
    ``sign="paper"``: Eq. (mat binom thm) as printed, ``C(k,i) (-1)^(k-i)``.
    """
    if sign == "correct":
        return [[comb(k, i) * (-1) ** i if i <= k else 0 for i in range(K)] for k in range(K)]
    if sign == "paper":
        return [[comb(k, i) * (-1) ** (k - i) if i <= k else 0 for i in range(K)]
                for k in range(K)]
    raise ValueError(sign)


def spatial_from_spectral(weights_spectral: list) -> list:
    """``W_i = sum_{k=i}^{K-1} C(k,i) (-1)^i W'_k``: the spatial filter equal to a spectral one."""
    K = len(weights_spectral)
    T = binomial_transform_matrix(K)
    return [sum(T[k][i] * weights_spectral[k] for k in range(i, K)) for i in range(K)]


def spectral_from_spatial(weights_spatial: list) -> list:
    """``W'_i = (-1)^i sum_{k=i}^{K-1} C(k,i) W_k``: the inverse of :func:`spatial_from_spectral`
    (substitute ``a = 1 - l`` in ``sum_k W_k a^k``)."""
    K = len(weights_spatial)
    return [(-1) ** i * sum(comb(k, i) * weights_spatial[k] for k in range(i, K))
            for i in range(K)]


def paper_spectral_from_spatial(weights_spatial: list) -> list:
    """The proof's recursion, literally: ``W'_{K-1} = W_{K-1}`` and
    ``W'_k = W_k - sum_{i=k+1}^{K-1} W'_i C(i,k) (-1)^(i-k)`` for ``k = K-2, ..., 0``."""
    K = len(weights_spatial)
    out: list = [None] * K
    for k in range(K - 1, -1, -1):
        out[k] = weights_spatial[k] - sum(comb(i, k) * (-1) ** (i - k) * out[i]
                                          for i in range(k + 1, K))
    return out


def symbolic_filter_difference(K: int, direction: str = "spatial->spectral",
                               formula: str = "correct") -> sp.Expr:
    """Expanded ``spectral - spatial`` pre-activation with non-commutative ``X``, ``A``, ``W``.

    ``W_k`` (or ``W'_k``) and ``X`` are non-commutative symbols and ``A`` a non-commutative
    symbol for the graph matrix, ``L = 1 - A``; the filters are ``sum_k W_k X A^k`` and
    ``sum_k W'_k X L^k``.  The difference simplifies to ``0`` exactly when the
    re-parametrisation is right.  ``formula`` picks ``correct`` or ``paper`` (the printed
    recursion; only with ``direction="spatial->spectral"``).
    """
    X, A = sp.symbols("X A", commutative=False)
    W = list(sp.symbols(f"W0:{K}", commutative=False))
    if direction == "spatial->spectral":
        spatial = W
        spectral = (paper_spectral_from_spatial(W) if formula == "paper"
                    else spectral_from_spatial(W))
    elif direction == "spectral->spatial":
        spectral = W
        spatial = spatial_from_spectral(W)
    else:
        raise ValueError(direction)
    lhs = sum((spectral[k] * X * (1 - A) ** k for k in range(K)), sp.Integer(0))
    rhs = sum((spatial[k] * X * A ** k for k in range(K)), sp.Integer(0))
    return sp.expand(lhs - rhs)
