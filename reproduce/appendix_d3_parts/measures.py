"""Appendix D.3's measures: pure functions of vertex states and Q-values (no model, no I/O).

* :func:`zero_counts` -- D.3 (1), dimension collapse;
* :func:`principal_direction`, :func:`abs_cos`, :func:`abs_spearman` -- D.3 (2)-(3), Figure 7;
* :func:`q_semantics` -- D.3 (5), the paper's reading of ``Q_1`` and ``Q_2``;
* :func:`layer_sets` -- D.3 (6), per-layer top-k sets against every minimum cover
  (:func:`minimum_covers`, exhaustive: :func:`g2s.reference.exact.minimum_vertex_covers`).
"""

from __future__ import annotations

import numpy as np
import torch

from g2s.reference.exact import minimum_vertex_covers as minimum_covers

__all__ = ["zero_counts", "principal_direction", "abs_cos", "abs_spearman", "minimum_covers",
           "q_semantics", "layer_sets"]

def zero_counts(x: torch.Tensor) -> tuple[float, int]:
    """``(mean over vertices of #exactly-zero coordinates, #coordinates zero on every vertex)``
    for states ``x`` of shape ``(n, ..., d)``."""
    z = x == 0
    return float(z.sum(-1).double().mean()), int(z.reshape(-1, x.shape[-1]).all(0).sum())

def principal_direction(X: np.ndarray, rel_tol: float = 1e-10):
    """First principal direction and scores of the rows of ``X`` (``None`` when the centred
    states have (numerically) no variance, e.g. every vertex of a regular graph)."""
    C = X - X.mean(0)
    if (C ** 2).sum() <= rel_tol * (1.0 + (X ** 2).sum()):
        return None
    _, _, vt = np.linalg.svd(C, full_matrices=False)
    return vt[0], C @ vt[0]

def abs_cos(a, b):
    return None if a is None or b is None else float(abs(a[0] @ b[0]))

def abs_spearman(a: np.ndarray, b: np.ndarray):
    """``|Spearman rho|`` (``None`` when either side is constant)."""
    from scipy.stats import spearmanr
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    return float(abs(spearmanr(a, b).statistic))

def q_semantics(q1: np.ndarray, q2: np.ndarray, k: int, covers: list[frozenset]) -> dict:
    """D.3 (5) per layer (``q1``: ``(L,)``, ``q2``: ``(L, n)``).  With ``u(v) = 1`` when ``v`` is
    in some minimum cover ("part of an optimum vertex cover"; the optimal ``Q*(S = {}, v)`` is
    ``u(v) - k - 1``): the paper's split, ``|Q_1 + k + 1|`` and ``max |Q_2 - u|``; the same
    after moving the integer ``s = round(mean(Q_2 - u))`` from ``Q_2`` to ``Q_1`` (the split
    of ``Q`` into its two terms is not fixed by the returns); the total ``max |Q - Q*|``; and
    the distance of ``Q_1``, ``Q_2`` to the nearest integers."""
    u = np.zeros(q2.shape[1])
    for C in covers:
        u[list(C)] = 1.0
    shift = np.round((q2 - u).mean(1))
    int_err = np.maximum(np.abs(q1 - np.round(q1)), np.abs(q2 - np.round(q2)).max(1))

    def r(a):
        return np.asarray(a, dtype=float).round(6).tolist()
    return {"q1": r(q1), "q1_err": r(np.abs(q1 + k + 1)), "q2_err": r(np.abs(q2 - u).max(1)),
            "shift": r(shift), "q1_err_shifted": r(np.abs(q1 + k + 1 + shift)),
            "q2_err_shifted": r(np.abs(q2 - u - shift[:, None]).max(1)),
            "q_err": r(np.abs(q1[:, None] + q2 - (u - k - 1)).max(1)), "int_err": r(int_err)}

def layer_sets(q: np.ndarray, k: int, covers: list[frozenset]) -> dict:
    """Per layer (rows of ``q``): top-``k`` set, its best overlap with a minimum cover, whether
    it is one, and the paper's side of each vertex (``Q_2`` above its layer mean)."""
    tops = [frozenset(np.argsort(-row, kind="stable")[:k].tolist()) for row in q]
    side = q > q.mean(1, keepdims=True)
    return {"top": [sorted(s) for s in tops],
            "overlap": [max(len(s & C) for C in covers) / k for s in tops],
            "is_min_cover": [s in covers for s in tops],
            "flip": [float((side[t] != side[t + 1]).mean()) for t in range(len(q) - 1)],
            "change": [len(tops[t] ^ tops[t + 1]) / (2 * k) for t in range(len(q) - 1)],
            "centred": (q - q.mean(1, keepdims=True)).round(6).tolist()}
