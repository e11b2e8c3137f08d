"""The decision rule's primitives: bootstrap intervals and the confirmed / refuted /
inconclusive decision (the package docstring says what is resampled and why)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence

import numpy as np
from scipy import stats

__all__ = [
    "FAMILY_CONFIDENCE", "N_RESAMPLES", "SEED", "METHOD", "VERDICTS",
    "per_point_confidence", "sorted_median", "interval_over_graphs", "intervals_over_graphs",
    "interval_seed_mean", "paired_difference",
    "rate_interval", "interval_of_rate", "interval_of_seed_rates", "bound_verdict",
    "comparison_verdict",
]

FAMILY_CONFIDENCE = 0.95  # simultaneous confidence over the points a claim ranges over
N_RESAMPLES = 9999        # bootstrap replicates per interval (scipy's default)
SEED = 20180214           # default resampling seed (fixed; any value would do)
METHOD = "percentile"     # see the module docstring for why not BCa
VERDICTS = ("confirmed", "refuted", "inconclusive")
#: at most this many resampled values per ``scipy.stats.bootstrap`` call of
#: :func:`intervals_over_graphs` (8 bytes each: 16 MB; larger calls, out of the cache, were
#: slower per value); more rows are split into several calls
BATCH_VALUES = 2**21

#: the intervals :func:`intervals_over_graphs` has computed in this process, by (statistic,
#: resamples, seed, the sample's bytes): ``{level: (low, high)}``.  Why: the claims of one
#: figure bootstrap the same per-graph sample again and again (a baseline's or heuristic's
#: points under each training recipe's view of the JSON, a seed's points in several claims):
#: a third of the requests repeat one before.  The interval of a sample is a function of
#: these alone (every call resamples from ``default_rng(seed)``), so a repeat is the same
#: floats; at most :data:`_ENDS_MAX` samples are kept (then the memo starts afresh)
_ENDS: dict[tuple, dict[float, tuple[float, float]]] = {}
_ENDS_MAX = 200_000

_RNG_ARG = "rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state"


def per_point_confidence(k: int, family_confidence: float = FAMILY_CONFIDENCE) -> float:
    """Bonferroni: per-point confidence ``1 - (1 - family_confidence) / k`` for k points."""
    if k < 1:
        raise ValueError("a claim ranges over at least one point")
    return 1.0 - (1.0 - family_confidence) / k


def _record(estimate, low, high, confidence, n_resamples, seed, n_graphs, n_seeds, resampled):
    return {"estimate": float(estimate), "low": float(low), "high": float(high),
            "confidence": float(confidence), "method": METHOD, "n_resamples": int(n_resamples),
            "seed": int(seed), "n_graphs": int(n_graphs), "n_seeds": int(n_seeds),
            "resampled": resampled}


def _bootstrap(data, statistic, confidence, n_resamples, seed, result=False, **kw):
    res = stats.bootstrap(data, statistic, n_resamples=n_resamples, method=METHOD,
                          confidence_level=confidence, vectorized=True,
                          **{_RNG_ARG: np.random.default_rng(seed)}, **kw)
    if result:
        return res
    return res.confidence_interval.low, res.confidence_interval.high


def sorted_median(x, axis: int = -1):
    """``np.median(x, axis)``, the same floats, by a sort instead of a partition.

    Why: a bootstrap of a median reduces a ``(resamples, n)`` block of a few to a few hundred
    values per row; numpy's partition-based median is several times slower there than a sort
    of the rows (measured: 3.8 ms against 0.7 ms for 9,999 rows of 20).  The middle value (odd
    ``n``) or the mean of the two middle values (even ``n``, their sum halved as ``np.median``
    does) are the same numbers.  A block with a NaN is left to ``np.median`` (which returns
    NaN where the sort would not)."""
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        return np.median(x, axis=axis)
    s = np.sort(np.moveaxis(x, axis, -1), axis=-1)
    n = s.shape[-1]
    if np.isnan(s[..., -1]).any():   # a sort puts NaN last
        return np.median(x, axis=axis)
    if n % 2:
        return s[..., n // 2].copy()
    return (s[..., n // 2 - 1] + s[..., n // 2]) / 2


def interval_over_graphs(values: Sequence[float], *, confidence: float = FAMILY_CONFIDENCE,
                         n_resamples: int = N_RESAMPLES, seed: int = SEED,
                         statistic: str = "mean") -> dict:
    """Percentile bootstrap interval of the mean (or ``statistic="median"``) of one model's
    per-graph values at one point.

    One value gives the degenerate interval [x, x] (nothing to resample; ``n_graphs = 1``).
    Many samples or levels at once: :func:`intervals_over_graphs` (the same intervals).
    """
    return intervals_over_graphs([values], [[confidence]], n_resamples=n_resamples, seed=seed,
                                 statistic=statistic)[0][0]


def intervals_over_graphs(samples: Sequence[Sequence[float]],
                          confidences: Sequence[Sequence[float]], *,
                          n_resamples: int = N_RESAMPLES, seed: int = SEED,
                          statistic: str = "mean") -> list[list[dict]]:
    """:func:`interval_over_graphs` of many samples, each at one or more levels, in a few
    ``scipy.stats.bootstrap`` calls: ``out[i][j]`` is the interval of ``samples[i]`` at
    ``confidences[i][j]``, the same floats as ``interval_over_graphs(samples[i],
    confidence=confidences[i][j])``.

    Why the same: every interval resamples from ``np.random.default_rng(seed)``, so every
    sample of ``n`` values is resampled with the same ``(n_resamples, n)`` matrix of indices.
    The samples of one size are stacked into one ``(k, n)`` array and resampled along its last
    axis in one call (scipy draws that matrix once and applies it to every row; rows are
    independent in the mean or median and in the percentiles); the other levels re-read the
    same bootstrap distribution (``bootstrap_result``, no new draws).  At most
    :data:`BATCH_VALUES` resampled values per call (more rows: several calls).
    """
    if statistic not in ("mean", "median"):
        raise ValueError(f"unknown statistic {statistic!r}")
    if len(confidences) != len(samples):
        raise ValueError("need one list of confidence levels per sample")
    stat = np.mean if statistic == "mean" else sorted_median
    xs = [np.asarray(v, dtype=float) for v in samples]
    if any(x.ndim != 1 or x.size == 0 for x in xs):
        raise ValueError("need a non-empty 1-d sample of per-graph values")
    def by_row(s, axis):   # (rows, resamples, n): each row's (resamples, n) block reduced on
        # its own, as a one-sample call reduces it (numpy may sum a stacked array in
        # another order, and the last bits of a mean would differ; a median picks values,
        # so one sort of the stacked array gives the same floats)
        if stat is sorted_median:
            return stat(s, axis=axis)
        return np.stack([stat(block, axis=axis) for block in s])

    ends: list[dict] = [{} for _ in xs]          # ends[i][level] = (low, high)
    keys = [(statistic, n_resamples, seed, x.tobytes()) for x in xs]
    by_size: dict[int, list[int]] = {}
    for i, x in enumerate(xs):
        if x.size == 1 or np.all(x == x[0]):
            ends[i] = {c: (stat(x), stat(x)) for c in confidences[i]}
            continue
        known = _ENDS.get(keys[i], {})
        ends[i] = {c: known[c] for c in confidences[i] if c in known}
        if len(ends[i]) < len(set(confidences[i])):
            by_size.setdefault(x.size, []).append(i)
    for size, rows in by_size.items():
        per_call = max(1, BATCH_VALUES // (max(n_resamples, 1) * size))
        for start in range(0, len(rows), per_call):
            chunk = rows[start:start + per_call]
            data = (np.stack([xs[i] for i in chunk]),)
            res = None
            for c in sorted({c for i in chunk for c in confidences[i] if c not in ends[i]}):
                if res is None:
                    res = _bootstrap(data, by_row, c, n_resamples, seed, result=True, axis=-1)
                else:    # the same bootstrap distribution at another level: no new draws
                    res = _bootstrap(data, by_row, c, 0, seed, result=True, axis=-1,
                                     bootstrap_result=res)
                for r, i in enumerate(chunk):
                    ends[i][c] = (res.confidence_interval.low[r],
                                  res.confidence_interval.high[r])
    for i in (i for rows in by_size.values() for i in rows):
        if len(_ENDS) >= _ENDS_MAX:
            _ENDS.clear()
        _ENDS.setdefault(keys[i], {}).update(ends[i])
    out = []
    for i, x in enumerate(xs):
        recs = []
        for c in confidences[i]:
            rec = _record(stat(x), *ends[i][c], c, n_resamples, seed, x.size, 1, "graphs")
            if statistic != "mean":
                rec["statistic"] = statistic
            recs.append(rec)
        out.append(recs)
    return out


def rate_interval(k: int, m: int, confidence: float = FAMILY_CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a binomial rate ``k / m`` (``scipy.stats.binomtest``).

    For claims about a fraction of independent cases (a recovered graph, a latched rollout):
    one Bernoulli outcome per case.  Why Wilson, not the bootstrap: rates here often sit at 0
    or 1, where a percentile bootstrap (and the Wald interval) collapses to ``[1, 1]`` whatever
    the number of cases; Wilson keeps near-nominal coverage at the boundary, where
    Clopper-Pearson is conservative.  All ``m`` cases positive give the lower end
    ``m / (m + z^2)``: 0.929 for 50 cases at 95%.  ``m = 0`` gives ``(0, 1)``.
    """
    if m == 0:
        return (0.0, 1.0)
    ci = stats.binomtest(int(k), int(m)).proportion_ci(confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def interval_of_rate(k: int, m: int, *, confidence: float = FAMILY_CONFIDENCE,
                     n_seeds: int = 1) -> dict:
    """:func:`rate_interval` as an interval record (for :func:`bound_verdict`): the estimate
    ``k / m``, ``n_graphs = m`` cases; ``method`` says Wilson."""
    low, high = rate_interval(k, m, confidence)
    rec = _record(k / m if m else 0.0, low, high, confidence, 0, 0, m, n_seeds,
                  "none (Wilson score interval of a binomial rate)")
    rec["method"] = "wilson"
    return rec


def interval_of_seed_rates(per_seed: Sequence[Sequence[float]], *,
                           confidence: float = FAMILY_CONFIDENCE, n_resamples: int = N_RESAMPLES,
                           seed: int = SEED) -> dict:
    """Interval of a rate measured on several training seeds (``per_seed[i]``: seed i's 0/1
    outcome, or fraction, per case): the hull of the Wilson interval over the pooled cases
    (:func:`interval_of_rate`) and the two-level bootstrap of the seed mean
    (:func:`interval_seed_mean`).

    Why the hull: each one alone is too narrow somewhere.  The pooled Wilson interval treats
    every (graph, seed) case as independent and so ignores how much the seeds disagree; the
    two-level bootstrap carries that spread, but collapses to a point when every case is 0 (or
    every case 1), where Wilson keeps its coverage.  With one seed this is the Wilson interval
    (seed variability unknown; ``n_seeds`` says so).  The estimate is the seed mean.
    """
    seeds = _as_seeds(per_seed)
    pooled = np.concatenate(seeds)
    if np.any((pooled < 0) | (pooled > 1)):
        raise ValueError("a rate's outcomes lie in [0, 1]")
    wilson = interval_of_rate(int(round(pooled.sum())), pooled.size, confidence=confidence,
                              n_seeds=len(seeds))
    if len(seeds) == 1:
        return wilson
    boot = interval_seed_mean(seeds, confidence=confidence, n_resamples=n_resamples, seed=seed)
    rec = _record(boot["estimate"], min(wilson["low"], boot["low"]),
                  max(wilson["high"], boot["high"]), confidence, n_resamples, seed,
                  boot["n_graphs"], len(seeds),
                  "hull of the Wilson interval over pooled cases and the two-level bootstrap "
                  "(seeds, then cases within each drawn seed)")
    rec["method"] = "wilson+percentile"
    return rec


def _as_seeds(per_seed) -> list[np.ndarray]:
    seeds = [np.asarray(v, dtype=float).ravel() for v in per_seed]
    if not seeds or any(s.size == 0 for s in seeds):
        raise ValueError("need at least one seed, each with at least one value")
    return seeds


def _padded(seeds: list[np.ndarray]):
    sizes = np.array([s.size for s in seeds])
    table = np.zeros((len(seeds), sizes.max()))
    for i, s in enumerate(seeds):
        table[i, :s.size] = s
    return table, sizes


def _inner_means(table, sizes, chosen, rng):
    """Mean of a with-replacement resample of each chosen seed's own graphs.

    ``chosen``: integer seed indices of any shape; returns an array of the same shape.
    """
    n = sizes[chosen]
    draws = np.floor(rng.random((*chosen.shape, sizes.max())) * n[..., None]).astype(int)
    vals = table[chosen[..., None], draws]
    mask = np.arange(sizes.max()) < n[..., None]
    return (vals * mask).sum(axis=-1) / n


def interval_seed_mean(per_seed: Sequence[Sequence[float]], *,
                       confidence: float = FAMILY_CONFIDENCE, n_resamples: int = N_RESAMPLES,
                       seed: int = SEED) -> dict:
    """Two-level bootstrap interval of a seed mean: resample seeds, then graphs within seed.

    ``per_seed[i]`` holds seed i's per-graph values at one point.  The estimate is the mean over
    seeds of each seed's mean over its graphs.  ``scipy.stats.bootstrap`` draws the seeds (over
    their indices) and takes the percentile interval; the within-seed graph draw happens in the
    vectorised statistic from ``np.random.default_rng(seed + 1)``.
    """
    seeds = _as_seeds(per_seed)
    if len(seeds) == 1:
        return interval_over_graphs(seeds[0], confidence=confidence, n_resamples=n_resamples,
                                    seed=seed)
    table, sizes = _padded(seeds)
    estimate = np.mean([s.mean() for s in seeds])
    n_graphs = int(sizes.max())
    if all(np.all(s == seeds[0][0]) for s in seeds):
        low = high = estimate
    else:
        inner = np.random.default_rng(seed + 1)

        def seed_mean(idx, axis=-1):
            chosen = np.asarray(idx).astype(int)
            return _inner_means(table, sizes, chosen, inner).mean(axis=-1)

        low, high = _bootstrap((np.arange(len(seeds), dtype=float),), seed_mean, confidence,
                               n_resamples, seed)
    return _record(estimate, low, high, confidence, n_resamples, seed, n_graphs, len(seeds),
                   "seeds, then graphs within each drawn seed")


def paired_difference(a_per_seed, b_per_seed, *, confidence: float = FAMILY_CONFIDENCE,
                      n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict:
    """Paired bootstrap interval of ``mean(A) - mean(B)`` over the graphs both methods ran.

    ``a_per_seed``: seeds x graphs for A (a 1-d sequence is one seed), same for B; column j of
    both is graph j.  Per replicate, scipy draws one resample of graph indices, used for A and B
    alike; each method's seeds are then drawn independently with replacement.  Negative = A has
    the lower (better) ratio.
    """
    a = np.atleast_2d(np.asarray(a_per_seed, dtype=float))
    b = np.atleast_2d(np.asarray(b_per_seed, dtype=float))
    if a.shape[1] != b.shape[1] or a.shape[1] == 0:
        raise ValueError("A and B must be evaluated on the same (non-empty) list of graphs")
    n = a.shape[1]
    estimate = a.mean() - b.mean()
    if a.shape[0] == 1 and b.shape[0] == 1:
        if n == 1 or np.all(a[0] - b[0] == a[0, 0] - b[0, 0]):
            low = high = estimate
        else:
            low, high = _bootstrap((a[0], b[0]), lambda x, y, axis: x.mean(axis) - y.mean(axis),
                                   confidence, n_resamples, seed, paired=True)
        resampled = "graphs (paired)"
    else:
        inner = np.random.default_rng(seed + 1)

        def diff(idx, axis=-1):
            g = np.asarray(idx).astype(int)              # (..., n) resampled graph indices
            out = []
            for m in (a, b):
                s = inner.integers(0, m.shape[0], size=(*g.shape[:-1], m.shape[0]))
                out.append(m[s[..., :, None], g[..., None, :]].mean(axis=(-1, -2)))
            return out[0] - out[1]

        if n > 1:
            low, high = _bootstrap((np.arange(n, dtype=float),), diff, confidence, n_resamples,
                                   seed)
            resampled = "graphs (paired, shared by A and B), then each method's seeds"
        else:   # one shared graph: only the seeds vary; scipy resamples each method's seeds
            samples = [m[:, 0] for m in (a, b)]
            shift = [m.mean() if m.size < 2 else 0.0 for m in samples]
            varying = [m for m in samples if m.size >= 2]

            def seeds_diff(*xs, axis=-1):
                it = iter(xs)
                ma, mb = (next(it).mean(axis=axis) if m.size >= 2 else sh
                          for m, sh in zip(samples, shift))
                return ma - mb

            low, high = _bootstrap(tuple(varying), seeds_diff, confidence, n_resamples, seed)
            resampled = "each method's seeds (one shared graph)"
    rec = _record(estimate, low, high, confidence, n_resamples, seed, n,
                  max(a.shape[0], b.shape[0]), resampled)
    rec["n_seeds_a"], rec["n_seeds_b"] = int(a.shape[0]), int(b.shape[0])
    return rec


def bound_verdict(intervals: Mapping[str, dict], bound: float, *, direction: str = "<=",
                  min_seeds: int = 1) -> dict:
    """Decide "value <= bound at every point" (or ``>=``, ``<``, ``>``) from per-point intervals.

    ``<=``: confirmed when every upper end <= bound, refuted when some lower end > bound,
    inconclusive otherwise (strict ``<``: confirmed when every upper < bound, refuted when some
    lower >= bound).  The intervals should be Bonferroni intervals for ``len(intervals)`` points
    (:func:`per_point_confidence`).  A confirmed or refuted verdict with fewer than
    ``min_seeds`` seeds at a deciding point becomes inconclusive.
    """
    if not intervals:
        raise ValueError("a bound claim needs at least one point")
    if direction not in ("<=", "<", ">=", ">"):
        raise ValueError(f"unknown direction {direction!r}")
    upper_first = direction in ("<=", "<")
    strict = direction in ("<", ">")

    def holds(iv):   # the whole interval is on the claimed side
        end = iv["high"] if upper_first else iv["low"]
        if upper_first:
            return end < bound if strict else end <= bound
        return end > bound if strict else end >= bound

    def fails(iv):   # the whole interval is on the other side
        end = iv["low"] if upper_first else iv["high"]
        if upper_first:
            return end >= bound if strict else end > bound
        return end <= bound if strict else end < bound

    failing = sorted(p for p, iv in intervals.items() if fails(iv))
    unresolved = sorted(p for p, iv in intervals.items() if not holds(iv) and not fails(iv))
    if failing:
        verdict, deciding = "refuted", failing
    elif not unresolved:
        verdict, deciding = "confirmed", sorted(intervals)
    else:
        verdict, deciding = "inconclusive", unresolved
    few = sorted(p for p in deciding if intervals[p].get("n_seeds", 1) < min_seeds)
    why = ""
    if verdict != "inconclusive" and few:
        why = f"{verdict} on fewer than {min_seeds} seeds at {', '.join(map(str, few))}"
        verdict = "inconclusive"
    worst_key = max if upper_first else min
    worst = worst_key(intervals, key=lambda p: intervals[p]["estimate"])
    return {"verdict": verdict, "bound": bound, "direction": direction, "points": len(intervals),
            "failing": failing, "unresolved": unresolved, "worst": str(worst),
            "worst_interval": [intervals[worst]["low"], intervals[worst]["high"]],
            "confidence": intervals[worst]["confidence"], "why": why}


def comparison_verdict(differences: Mapping[str, dict], *, margin: float = 0.0,
                       min_seeds: int = 1) -> dict:
    """Decide "A better than B (lower by more than ``margin``) at every point".

    ``differences``: per-point :func:`paired_difference` records (A - B).  Confirmed when every
    upper end < -margin, refuted when some lower end >= -margin (A is not better there),
    inconclusive otherwise.
    """
    return bound_verdict(differences, -margin, direction="<", min_seeds=min_seeds)
