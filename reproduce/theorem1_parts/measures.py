"""Theorem 1's measures: the exact-recovery rate interval (Wilson), the paired bootstrap interval
of edge precision and recall over graphs, and one aggregated recovery point (pure functions of
per-graph recoveries; no I/O)."""

from __future__ import annotations

import numpy as np

# Wilson; one definition, in the rule module
from reproduce.harness.verdicts.rule import rate_interval

__all__ = ["rate_interval", "ratio_interval", "recovery_point"]


def ratio_interval(num, den, confidence: float = 0.95) -> list[float]:
    """Percentile bootstrap interval of ``sum(num) / sum(den)`` over graphs (paired).

    Edge precision and recall pool the edges of a graph, which share one trajectory, so the
    graphs (not the edges) are resampled: ``scipy.stats.bootstrap`` with ``paired=True``,
    percentile method and seed as in :mod:`reproduce.harness.verdicts`.  A constant per-graph ratio
    (e.g. no false edge anywhere) gives the degenerate interval ``[r, r]``.
    """
    from scipy import stats

    from reproduce.harness.verdicts import N_RESAMPLES, SEED
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    if den.sum() == 0:
        return [float("nan"), float("nan")]
    est = num.sum() / den.sum()
    keep = den > 0
    if keep.sum() < 2 or np.allclose(num[keep] / den[keep], est):
        return [float(est), float(est)]

    def stat(a, b, axis=-1):
        return a.sum(axis=axis) / np.maximum(b.sum(axis=axis), 1e-300)

    res = stats.bootstrap((num, den), stat, paired=True, vectorized=True, method="percentile",
                          confidence_level=confidence, n_resamples=N_RESAMPLES,
                          random_state=np.random.default_rng(SEED))
    return [float(res.confidence_interval.low), float(res.confidence_interval.high)]


def recovery_point(units: list[dict], n: int, d: int, T: int) -> dict:
    """Aggregate per-graph recoveries at one (n, d, t)."""
    from theory.directed_information import recovery_alpha
    m = len(units)
    exact = int(sum(u["exact"] for u in units))
    lo, hi = rate_interval(exact, m)
    tp, fp, fn = (np.array([u[k] for u in units]) for k in ("tp", "fp", "fn"))
    false_graphs = int(sum(u["fp"] > 0 for u in units))
    return {"n": n, "d": d, "T": T, "graphs": m, "exact": exact, "error_rate": 1 - exact / m,
            "error_ci95": [1 - hi, 1 - lo],
            "precision": float(tp.sum() / max(1, tp.sum() + fp.sum())),
            "precision_ci95": ratio_interval(tp, tp + fp),
            "recall": float(tp.sum() / max(1, tp.sum() + fn.sum())),
            "recall_ci95": ratio_interval(tp, tp + fn),
            "graphs_with_false_edges": false_graphs,
            "false_edge_graph_rate": false_graphs / m,
            "false_edge_graph_ci95": list(rate_interval(false_graphs, m)),
            "nominal_familywise_alpha": recovery_alpha(T),
            "missing_edges": int(fn.sum()), "extra_edges": int(fp.sum()),
            "mean_seconds": float(np.mean([u["seconds"] for u in units])),
            "max_seconds": float(np.max([u["seconds"] for u in units]))}
