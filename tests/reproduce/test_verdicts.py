"""The decision rule (reproduce/harness/verdicts/) on hand-made inputs.

Invariants, one test each:

* every outcome of a bound claim (confirmed / refuted / inconclusive), for <=, >= and strict <;
* a comparison is confirmed, refuted (A worse, or tied) or inconclusive;
* a verdict resting on fewer seeds than required is inconclusive;
* Bonferroni: per-point confidence 1 - 0.05 / k, and a wider interval at a higher level;
* the interval over graphs is scipy's percentile bootstrap of the mean, reproducible from the
  stored seed and resample count;
* the two-level interval over seeds covers the seed means' spread and reduces to the one-level
  interval for one seed;
* the paired comparison sees a consistent small difference that an unpaired one would not;
* figure-JSON instance records become seeds x graphs samples with the pairing kept.
"""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reproduce.harness import verdicts as V


def iv(low, high, n_seeds=3):
    return {"estimate": (low + high) / 2, "low": low, "high": high, "confidence": 0.99,
            "n_seeds": n_seeds}


@pytest.mark.parametrize("points, verdict", [
    ({"er@25": iv(1.00, 1.05), "er@50": iv(1.02, 1.09)}, "confirmed"),
    ({"er@25": iv(1.00, 1.05), "er@50": iv(1.11, 1.20)}, "refuted"),
    ({"er@25": iv(1.00, 1.05), "er@50": iv(1.08, 1.12)}, "inconclusive"),
    ({"er@25": iv(1.08, 1.12), "er@50": iv(1.11, 1.20)}, "refuted"),   # refuted wins
    ({"er@25": iv(1.00, 1.10)}, "confirmed"),                          # upper == bound holds
])
def test_bound_claim_outcomes(points, verdict):
    assert V.bound_verdict(points, 1.10)["verdict"] == verdict


def test_bound_claim_reports_deciding_points():
    got = V.bound_verdict({"a@1": iv(1.0, 1.05), "b@2": iv(1.08, 1.12), "c@3": iv(1.2, 1.3)},
                          1.10)
    assert got["failing"] == ["c@3"] and got["unresolved"] == ["b@2"]
    assert got["worst"] == "c@3" and got["worst_interval"] == [1.2, 1.3]


@pytest.mark.parametrize("low, high, verdict", [
    (8.5, 9.5, "confirmed"), (6.0, 7.9, "refuted"), (7.5, 8.5, "inconclusive")])
def test_lower_bound_claim_outcomes(low, high, verdict):
    assert V.bound_verdict({"p": iv(low, high)}, 8, direction=">=")["verdict"] == verdict


def test_strict_bound_treats_the_bound_itself_as_failing():
    assert V.bound_verdict({"p": iv(1.0, 1.0)}, 1.0, direction="<")["verdict"] == "refuted"
    assert V.bound_verdict({"p": iv(1.0, 1.0)}, 1.0, direction="<=")["verdict"] == "confirmed"


@pytest.mark.parametrize("a, b, verdict", [
    ([1.00, 1.01, 1.02, 1.00, 1.01], [1.10, 1.12, 1.11, 1.13, 1.10], "confirmed"),
    ([1.10, 1.12, 1.11, 1.13, 1.10], [1.00, 1.01, 1.02, 1.00, 1.01], "refuted"),
    ([1.00, 1.10, 1.00, 1.10, 1.05], [1.05, 1.05, 1.05, 1.05, 1.05], "inconclusive"),
    ([1.00, 1.10, 1.00], [1.00, 1.10, 1.00], "refuted"),   # a tie is not "better"
])
def test_comparison_outcomes(a, b, verdict):
    d = V.paired_difference(a, b, n_resamples=999)
    assert V.comparison_verdict({"p": d})["verdict"] == verdict


def test_comparison_margin():
    d = V.paired_difference([1.00, 1.01, 1.00], [1.02, 1.03, 1.02], n_resamples=999)
    assert V.comparison_verdict({"p": d})["verdict"] == "confirmed"
    assert V.comparison_verdict({"p": d}, margin=0.05)["verdict"] == "refuted"


def test_too_few_seeds_is_inconclusive():
    points = {"er@25": iv(1.0, 1.05, n_seeds=1), "er@50": iv(1.0, 1.05, n_seeds=3)}
    assert V.bound_verdict(points, 1.10)["verdict"] == "confirmed"
    got = V.bound_verdict(points, 1.10, min_seeds=3)
    assert got["verdict"] == "inconclusive" and "er@25" in got["why"]
    refuted = {"er@25": iv(1.2, 1.3, n_seeds=1)}
    assert V.bound_verdict(refuted, 1.10, min_seeds=2)["verdict"] == "inconclusive"


def test_bonferroni_levels_and_widths():
    assert V.per_point_confidence(1) == pytest.approx(0.95)
    assert V.per_point_confidence(5) == pytest.approx(0.99)
    assert V.per_point_confidence(20) == pytest.approx(0.9975)
    with pytest.raises(ValueError):
        V.per_point_confidence(0)
    x = np.random.default_rng(1).normal(1.05, 0.05, size=20)
    narrow = V.interval_over_graphs(x, confidence=V.per_point_confidence(1))
    wide = V.interval_over_graphs(x, confidence=V.per_point_confidence(20))
    assert wide["low"] < narrow["low"] < narrow["high"] < wide["high"]


def test_interval_over_graphs_is_scipys_percentile_bootstrap():
    x = np.array([1.154, 1.080, 1.077, 1.02, 1.10])
    got = V.interval_over_graphs(x, n_resamples=2000, seed=7)
    ref = stats.bootstrap((x,), np.mean, n_resamples=2000, method="percentile",
                          **{V._RNG_ARG: np.random.default_rng(7)})
    assert got["low"] == pytest.approx(ref.confidence_interval.low)
    assert got["high"] == pytest.approx(ref.confidence_interval.high)
    assert got["estimate"] == pytest.approx(x.mean())
    again = V.interval_over_graphs(x, n_resamples=2000, seed=7)
    assert json.loads(json.dumps(got)) == again      # JSON-storable and reproducible
    assert (got["n_resamples"], got["seed"], got["method"]) == (2000, 7, "percentile")
    assert (got["n_graphs"], got["n_seeds"]) == (5, 1)


def test_batched_intervals_are_one_scipy_call_per_sample_and_level(monkeypatch):
    """:func:`intervals_over_graphs` (samples of one size resampled together, other levels
    read from the same bootstrap distribution) gives, bit for bit, the interval of one
    ``scipy.stats.bootstrap`` call per sample and level -- also when the rows of one size
    are split over several calls."""
    rng = np.random.default_rng(3)
    samples = [rng.random(n).round(2) for n in (2, 5, 5, 20, 20, 20, 5, 3)] + [[0.4] * 6, [1.0]]
    levels = [(0.95, 0.99), (0.995,), (0.95, 0.95), (0.99,), (0.95, 0.9975), (0.99,),
              (0.9,), (0.95,), (0.95, 0.99), (0.99,)]
    for statistic, fn in (("mean", np.mean), ("median", np.median)):
        for batch in (10**9, 2 * 1500 * 20):   # every row of a size at once; two per call
            monkeypatch.setattr(V.rule, "BATCH_VALUES", batch)
            monkeypatch.setattr(V.rule, "_ENDS", {})     # computed, not remembered
            got = V.intervals_over_graphs(samples, levels, n_resamples=1500, seed=11,
                                          statistic=statistic)
            for x, cs, recs in zip(samples, levels, got):
                for c, rec in zip(cs, recs):
                    x = np.asarray(x, dtype=float)
                    if np.all(x == x[0]):
                        low = high = fn(x)
                    else:
                        ref = stats.bootstrap((x,), fn, n_resamples=1500, method="percentile",
                                              confidence_level=c,
                                              **{V._RNG_ARG: np.random.default_rng(11)})
                        low, high = ref.confidence_interval
                    assert (rec["low"], rec["high"], rec["confidence"]) == (low, high, c)
                    assert rec == V.interval_over_graphs(x, confidence=c, n_resamples=1500,
                                                         seed=11, statistic=statistic)


def test_a_repeated_interval_is_remembered_with_the_same_floats(monkeypatch):
    """A sample bootstrapped before (same values, statistic, resamples and seed) is not
    bootstrapped again: its interval at a level seen before comes from the process's memo, one
    at a new level is computed alone, and both are the floats a fresh computation gives."""
    monkeypatch.setattr(V.rule, "_ENDS", {})
    calls = []
    real = V.rule._bootstrap
    monkeypatch.setattr(V.rule, "_bootstrap",
                        lambda data, *a, **k: calls.append(data[0].shape) or real(data, *a, **k))
    rng = np.random.default_rng(5)
    a, b = rng.random(12), rng.random(12)
    first = V.intervals_over_graphs([a, b], [[0.95], [0.99]], n_resamples=999, seed=4)
    assert len(calls) == 2                       # two levels: one draw, one re-read
    again = V.intervals_over_graphs([b, a], [[0.99], [0.95]], n_resamples=999, seed=4)
    assert again == first[::-1] and len(calls) == 2
    calls.clear()
    more = V.intervals_over_graphs([a, b], [[0.95, 0.9], [0.99]], n_resamples=999, seed=4)
    assert calls == [(1, 12)]                    # only a at 0.9 is new
    monkeypatch.setattr(V.rule, "_ENDS", {})
    fresh = V.intervals_over_graphs([a, b], [[0.95, 0.9], [0.99]], n_resamples=999, seed=4)
    assert more == fresh and more[0][0] == first[0][0]
    # another seed, resample count or statistic is another interval
    other = V.intervals_over_graphs([a], [[0.95]], n_resamples=999, seed=5)
    assert other[0][0]["low"] != first[0][0]["low"]
    assert V.intervals_over_graphs([a], [[0.95]], n_resamples=999, seed=4,
                                   statistic="median")[0][0]["statistic"] == "median"


def test_paper_example_fig4_mis_er_is_inconclusive():
    """Figure 4's example (MIS, ER): per-graph ratios 1.154, 1.080, 1.077 against 1.10 (5 sizes)."""
    conf = V.per_point_confidence(5)
    point = V.interval_over_graphs([1.154, 1.080, 1.077], confidence=conf)
    assert point["estimate"] > 1.10 and point["low"] < 1.10 < point["high"]
    others = {f"er@{n}": V.interval_over_graphs([1.0, 1.01, 1.0], confidence=conf)
              for n in (25, 50, 100, 400)}
    assert V.bound_verdict({**others, "er@200": point}, 1.10)["verdict"] == "inconclusive"


def test_degenerate_samples():
    one = V.interval_over_graphs([1.2])
    assert (one["low"], one["high"], one["n_graphs"]) == (1.2, 1.2, 1)
    const = V.interval_seed_mean([[1.0, 1.0], [1.0, 1.0]])
    assert (const["low"], const["high"], const["n_seeds"]) == (1.0, 1.0, 2)
    with pytest.raises(ValueError):
        V.interval_over_graphs([])


def test_two_level_interval():
    per_seed = [[1.00, 1.02, 1.01], [1.30, 1.28, 1.32], [1.10, 1.12, 1.09]]
    got = V.interval_seed_mean(per_seed, n_resamples=4000)
    means = [np.mean(s) for s in per_seed]
    assert got["estimate"] == pytest.approx(np.mean(means))
    assert got["n_seeds"] == 3 and got["resampled"].startswith("seeds")
    # seed spread dominates: the interval reaches towards the extreme seed means
    assert got["low"] < 1.05 and got["high"] > 1.25
    pooled = V.interval_over_graphs(np.concatenate(per_seed), n_resamples=4000)
    assert got["high"] - got["low"] > pooled["high"] - pooled["low"]
    single = V.interval_seed_mean([per_seed[0]], n_resamples=999, seed=3)
    assert single == V.interval_over_graphs(per_seed[0], n_resamples=999, seed=3)
    # one deterministic graph per seed (the greedy worst case): seeds are the replication
    worst = V.interval_seed_mean([[1.0], [1.1], [1.5]], n_resamples=999)
    assert worst["low"] == pytest.approx(1.0) and worst["high"] == pytest.approx(1.5)


def test_two_level_interval_unequal_graph_counts():
    got = V.interval_seed_mean([[1.0, 1.0, 1.0, 1.0], [2.0]], n_resamples=999)
    assert got["estimate"] == pytest.approx(1.5)    # each seed weighs the same
    assert 1.0 <= got["low"] <= got["high"] <= 2.0


def test_pairing_detects_a_consistent_small_difference():
    rng = np.random.default_rng(0)
    hard = rng.uniform(1.0, 1.5, size=15)              # graphs differ a lot in difficulty
    a, b = hard, hard + 0.02                            # A always 0.02 better
    paired = V.paired_difference(a, b, n_resamples=2000)
    assert paired["high"] < 0
    ua = V.interval_over_graphs(a, n_resamples=2000)
    ub = V.interval_over_graphs(b, n_resamples=2000)
    assert ua["high"] > ub["low"]                       # unpaired intervals overlap
    multi = V.paired_difference([a, a + 0.001], [b, b - 0.001, b], n_resamples=2000)
    assert multi["high"] < 0 and (multi["n_seeds_a"], multi["n_seeds_b"]) == (2, 3)
    with pytest.raises(ValueError):
        V.paired_difference([1.0, 1.0], [1.0])


def test_paired_difference_on_one_shared_graph_resamples_seeds():
    d = V.paired_difference([[1.0], [1.1]], [[1.3], [1.2], [1.25]], n_resamples=999)
    assert d["estimate"] == pytest.approx(1.05 - 1.25)
    assert -0.3 <= d["low"] <= d["high"] < 0


def test_point_samples_from_instance_records():
    instances = [
        {"family": "er", "n": 25, "results": {"m_s0": {"ratio": 1.0}, "m_s1": {"ratio": 1.1}}},
        {"family": "er", "n": 25, "results": {"m_s0": {"ratio": 1.2}, "m_s1": {"ratio": 1.3}}},
        {"family": "er", "n": 50, "results": {"m_s0": {"ratio": 1.0}}},   # s1 missing: dropped
        {"family": "regular", "n": 25, "results": {"m_s0": {"ratio": 1.0},
                                                   "m_s1": {"ratio": 1.0}}},
    ]
    got = V.point_samples(instances, ["m_s0", "m_s1"])
    assert list(got) == [("er", 25), ("regular", 25)]
    np.testing.assert_array_equal(got[("er", 25)], [[1.0, 1.2], [1.1, 1.3]])
    ivs = V.point_intervals(got, n_resamples=999)
    assert set(ivs) == {"er@25", "regular@25"}
    assert all(r["confidence"] == pytest.approx(0.975) for r in ivs.values())
    assert V.bound_verdict(ivs, 1.5)["verdict"] == "confirmed"


def test_bound_claim_from_instance_records():
    def rec(fam, n, a, b):
        return {"family": fam, "n": n, "results": {"a_s0": {"ratio": a}, "a_s1": {"ratio": b}}}
    ok = [rec("er", 25, 1.0, 1.01), rec("er", 25, 1.02, 1.0), rec("er", 50, 1.0, 1.0),
          rec("er", 50, 1.01, 1.02), rec("regular", 25, 1.3, 1.3)]
    got = V.bound_claim(ok, {"A": ["a_s0", "a_s1"]}, 1.10, families=["er"], n_resamples=999)
    assert got["verdict"] == "confirmed" and got["points"] == 2
    assert got["sample"] == "2 graphs x 2 seeds" and got["level"] == "97.50%"
    assert (got["n_resamples"], got["resampling_seed"]) == (999, V.SEED)
    assert set(got["intervals"]) == {"A:er@25", "A:er@50"}
    bad = V.bound_claim(ok, {"A": ["a_s0", "a_s1"]}, 1.10, n_resamples=999)
    assert bad["verdict"] == "refuted" and bad["failing"] == "A:regular@25"
    assert V.bound_claim(ok, {"B": ["b_s0"]}, 1.10)["verdict"] == "pending"


def test_median_interval_and_wilson_rate_records():
    """The median variant (Appendix D.3's PCA rule) brackets the sample median; the Wilson rate
    record (Theorem 1, D.3) has the rate as estimate and never leaves [0, 1]."""
    from reproduce.harness.verdicts import interval_of_rate, interval_over_graphs
    iv = interval_over_graphs(list(range(1, 10)) + [100.0], statistic="median")
    assert iv["estimate"] == 5.5 and iv["low"] <= 5.5 <= iv["high"] < 100
    assert iv["statistic"] == "median"
    with pytest.raises(ValueError, match="statistic"):
        interval_over_graphs([1.0, 2.0], statistic="mode")
    rate = interval_of_rate(50, 50)
    assert rate["estimate"] == 1.0 and rate["high"] == 1.0 and 0.92 < rate["low"] < 0.93
    assert interval_of_rate(0, 30)["low"] == 0.0


def test_rate_over_seeds_keeps_both_the_boundary_and_the_seed_spread():
    """The rate over several seeds is never narrower than either the pooled Wilson interval
    (all cases 1: the bootstrap alone would give [1, 1]) or the two-level bootstrap (seeds that
    disagree: pooled Wilson alone would treat 90 cases as independent)."""
    from reproduce.harness.verdicts import (
        interval_of_rate,
        interval_of_seed_rates,
        interval_seed_mean,
    )
    all_one = interval_of_seed_rates([[1] * 30] * 3)
    assert all_one["high"] == 1.0 and all_one["low"] == interval_of_rate(90, 90)["low"] < 0.97
    split = [[1] * 30, [0] * 30, [1] * 15 + [0] * 15]
    got = interval_of_seed_rates(split)
    wilson, boot = interval_of_rate(45, 90), interval_seed_mean(split)
    assert got["estimate"] == pytest.approx(0.5) and got["n_seeds"] == 3
    assert got["low"] == min(wilson["low"], boot["low"]) < 0.1      # the seeds' spread
    assert got["high"] == max(wilson["high"], boot["high"]) > 0.9
    assert wilson["high"] < 0.65                                    # what pooling alone says
    assert interval_of_seed_rates([[1, 0, 1]]) == interval_of_rate(2, 3)  # one seed: Wilson
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        interval_of_seed_rates([[2, 0], [1, 1]])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4), st.integers(1, 60), st.integers(0, 2**32 - 1), st.booleans(),
       st.booleans())
def test_sorted_median_is_numpys_median_bit_for_bit(rows, n, seed, ties, nan):
    """The bootstrap's median statistic (a sort of each row) returns exactly np.median's
    floats, for any row length (odd and even), ties, and a NaN (left to np.median)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 3, n)) * 10.0 ** rng.integers(-3, 4)
    if ties:
        x = x.round(1)
    if nan:
        x[0, 0, rng.integers(n)] = np.nan
    for axis in (-1, 1):
        got, want = V.rule.sorted_median(x, axis=axis), np.median(x, axis=axis)
        np.testing.assert_array_equal(got, want)
        assert got.shape == want.shape
