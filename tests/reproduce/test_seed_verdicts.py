"""The seed-level rule (reproduce.harness.verdicts.seeds), with hand-made inputs for every outcome.

Invariants:

* one seed holds only when every informative point's interval lies on the claim's side, fails
  when one point's Bonferroni interval lies past the bar, and is undecided otherwise;
* the deciding point is the one nearest the bar (holds) or furthest past it (fails);
* k of n with a Wilson interval: 9-10 of 10 confirmed, 0-1 of 10 refuted, 3 of 3 never
  confirmed, seed-dependent only when seeds disagree, fewer than the minimum of seeds
  undecided, undecided seeds that could tip the verdict make it undecided, no informative
  point makes it uninformative;
* the trivial solver's points that meet the bar are not informative.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reproduce.harness.verdicts.seeds import (
    SEED_VERDICTS,
    informative_points,
    seed_decision,
    seeds_verdict,
    wilson,
)

RNG = np.random.default_rng(0)


def _pts(**means):
    return {p: list(m + 0.002 * RNG.standard_normal(20)) for p, m in means.items()}


def test_a_seed_well_inside_the_bar_holds_and_names_the_nearest_point():
    rec = seed_decision(_pts(a=1.01, b=1.05, c=1.02), 1.10, n_resamples=999)
    assert rec["decision"] == "holds" and rec["deciding_point"] == "b"


def test_a_seed_past_the_bar_at_one_point_fails_and_names_it():
    rec = seed_decision(_pts(a=1.01, b=1.2, c=1.3), 1.10, n_resamples=999)
    assert rec["decision"] == "fails" and rec["deciding_point"] == "c"


def test_a_seed_straddling_the_bar_is_undecided():
    vals = {"a": [1.0, 1.2] * 10}   # mean 1.1, wide interval
    assert seed_decision(vals, 1.10, n_resamples=999)["decision"] == "undecided"


def test_greater_equal_claims_mirror():
    assert seed_decision(_pts(a=0.99), 0.96, direction=">=", n_resamples=999)["decision"] \
        == "holds"
    assert seed_decision(_pts(a=0.90), 0.96, direction=">=", n_resamples=999)["decision"] \
        == "fails"


def test_only_informative_points_decide():
    vals = _pts(a=1.3, b=1.02)
    assert seed_decision(vals, 1.10, points=["b"], n_resamples=999)["decision"] == "holds"
    assert informative_points({"a": 1.05, "b": 1.2}, 1.10) == ["b"]
    assert informative_points({"a": 0.97, "b": 1.0}, 0.96, ">=") == []


@pytest.mark.parametrize("k, n, verdict", [
    (10, 10, "confirmed"), (9, 10, "confirmed"), (8, 10, "seed-dependent"),
    (5, 10, "seed-dependent"), (2, 10, "seed-dependent"), (1, 10, "refuted"),
    (0, 10, "refuted"), (3, 3, "undecided"), (0, 3, "undecided"), (2, 3, "seed-dependent"),
    (2, 2, "undecided"), (1, 1, "undecided"),
])
def test_k_of_n(k, n, verdict):
    rec = seeds_verdict(["holds"] * k + ["fails"] * (n - k))
    assert rec["verdict"] == verdict and rec["k_of_n"] == f"{k} of {n}"
    assert rec["some_seed_holds"] == (k > 0)


def test_undecided_seeds_that_could_tip_the_verdict_make_it_undecided():
    # 8 hold, 2 undecided: if both held it would be 10 of 10 (confirmed)
    assert seeds_verdict(["holds"] * 8 + ["undecided"] * 2)["verdict"] == "undecided"
    # 5 hold, 4 fail, 1 undecided: seed-dependent however it resolves
    assert seeds_verdict(["holds"] * 5 + ["fails"] * 4 + ["undecided"])["verdict"] \
        == "seed-dependent"


def test_no_informative_point_is_uninformative():
    assert seeds_verdict(["holds"] * 10, n_informative=0)["verdict"] == "uninformative"


@settings(max_examples=60)
@given(k=st.integers(0, 12), f=st.integers(0, 12), u=st.integers(0, 12))
def test_verdict_is_a_legend_word_and_monotone_in_holding_seeds(k, f, u):
    rec = seeds_verdict(["holds"] * k + ["fails"] * f + ["undecided"] * u)
    assert rec["verdict"] in SEED_VERDICTS
    lo, hi = rec["fraction_interval"]
    assert 0 <= lo <= hi <= 1
    if f:  # turning a failing seed into a holding one never makes the verdict worse
        better = seeds_verdict(["holds"] * (k + 1) + ["fails"] * (f - 1) + ["undecided"] * u)
        order = {"refuted": 0, "seed-dependent": 1, "undecided": 1, "confirmed": 2}
        assert order[better["verdict"]] >= order[rec["verdict"]]
    if rec["verdict"] == "seed-dependent":
        assert k and f


def test_wilson_matches_the_textbook_value():
    lo, hi = wilson(9, 10)
    assert lo == pytest.approx(0.5958, abs=1e-3) and hi == pytest.approx(0.9821, abs=1e-3)


def _records(per_seed: dict, null=None, graphs=6, points=(("er", 100), ("er", 200))):
    """Figure-JSON instance records: ``per_seed[key][(family, n)]`` a ratio level per seed,
    small per-graph noise around it; ``null`` the trivial solver's level per point."""
    recs = []
    for family, n in points:
        for i in range(graphs):
            res = {k: {"ratio": lv[(family, n)] + 0.002 * (i % 3 - 1)}
                   for k, lv in per_seed.items()}
            if null is not None:
                res["trivial"] = {"ratio": null[(family, n)]}
            recs.append({"family": family, "n": n, "index": i, "results": res})
    return recs


def test_seed_claim_counts_seeds_and_only_informative_points():
    from reproduce.harness.verdicts.seeds import seed_claim
    good = {("er", 100): 1.02, ("er", 200): 1.03}
    bad = {("er", 100): 1.02, ("er", 200): 1.30}
    seeds = {f"g2s_rnn_s{s}": good for s in range(10)}
    got = seed_claim(_records(seeds), list(seeds), 1.10)
    assert got["verdict"] == "confirmed" and got["k_of_n"] == "10 of 10"
    assert got["informative"].startswith("2 of 2 points (no trivial-solver run")
    half = {f"g2s_rnn_s{s}": (good if s < 5 else bad) for s in range(10)}
    got = seed_claim(_records(half), list(half), 1.10)
    assert got["verdict"] == "seed-dependent" and got["k_of_n"] == "5 of 10"
    assert "s9 fails (er@200: 1.300" in got["per_seed"] and got["some_seed"].startswith("yes")
    # the trivial solver meets the bar at n = 200: only n = 100 counts, where all hold
    null = {("er", 100): 1.5, ("er", 200): 1.05}
    got = seed_claim(_records(half, null), list(half), 1.10, null_key="trivial")
    assert got["verdict"] == "confirmed"
    assert got["informative"] == "1 of 2 points (1 met by the trivial solver)"
    # nothing informative at all
    easy = {("er", 100): 1.01, ("er", 200): 1.01}
    got = seed_claim(_records(half, easy), list(half), 1.10, null_key="trivial")
    assert got["verdict"] == "uninformative"


def test_seed_claim_with_three_seeds_cannot_confirm():
    from reproduce.harness.verdicts.seeds import seed_claim
    good = {("er", 100): 1.02, ("er", 200): 1.03}
    seeds = {f"g2s_rnn_s{s}": good for s in range(3)}
    got = seed_claim(_records(seeds), list(seeds), 1.10)
    assert got["verdict"] == "undecided" and got["k_of_n"] == "3 of 3"
