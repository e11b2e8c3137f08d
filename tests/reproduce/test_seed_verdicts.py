"""The seed-level rule (reproduce.harness.verdicts.seeds), with hand-made inputs for every outcome.

Invariants:

* one seed holds only when every informative point's interval lies on the claim's side, fails
  when one point's Bonferroni interval lies past the bar, and is undecided otherwise;
* the deciding point is the one nearest the bar (holds) or furthest past it (fails);
* k of n with a Wilson interval: 9-10 of 10 confirmed, 0-1 of 10 refuted, 3 of 3 never
  confirmed, seed-dependent only when seeds disagree, fewer than the minimum of seeds
  undecided, undecided seeds that could tip the verdict make it undecided, no informative
  point makes it uninformative;
* the trivial solver's points that meet the bar are not informative;
* a seed (or pair) is decided only on points it ran in full: with fewer graphs than the most
  any seed ran there, or none, a point keeps it from holding (a run stopped part-way never
  reads "holds"), while a failure at a complete point still fails it;
* a failure at a point the trivial solver meets still fails the seed: an uninformative point
  may stop a seed from holding, never hide a failure;
* an endpoint within the Monte Carlo error of the bar is borderline: no decision turns on the
  resampling seed;
* an undecided verdict names what it can still become, or that its seeds can never decide;
* pairs of seeds ("A better than B"): a pair holds only when A is better beyond the noise at
  every informative point (a tie is not better), fails when B is better beyond the noise
  somewhere, else is undecided; an A seed holds when all its pairs hold, fails when one
  fails; A's seeds are the trials, so every verdict word is reachable with ten A seeds and
  three B seeds (by enumeration); an undecided pair never makes its seed hold; a point where
  both reach the best known solution on every graph is not informative.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reproduce.harness.verdicts.seeds import (
    SEED_VERDICTS,
    combined_verdict,
    informative_points,
    mostly_verdict,
    pair_claim,
    rate_claim,
    seed_decision,
    seeds_verdict,
    versus_fixed_claim,
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


def test_wilson_is_scipys_for_whole_counts_and_monotone_between_them():
    from scipy import stats
    for n in (1, 3, 10, 30):
        for k in range(n + 1):
            ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
            assert wilson(k, n) == (ci.low, ci.high)
    ends = [wilson(k / 4, 3) for k in range(13)]   # fractions of 3 trials, in quarter steps
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(ends, ends[1:]))
    with pytest.raises(ValueError):
        wilson(4, 3)


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
    # the trivial solver meets the bar at n = 200: only n = 100 may make a seed hold, but the
    # seeds far past the bar at n = 200 still fail there (an uninformative point never hides
    # a failure)
    null = {("er", 100): 1.5, ("er", 200): 1.05}
    got = seed_claim(_records(half, null), list(half), 1.10, null_key="trivial")
    assert got["verdict"] == "seed-dependent" and got["k_of_n"] == "5 of 10"
    assert "s9 fails (er@200: 1.300" in got["per_seed"]
    assert got["informative"] == ("1 of 2 points (1 met by the trivial solver; its mean ratio: "
                                  "er 100 1.500, 200 1.050)")
    # nothing informative at all: no seed can hold, the failures still count
    easy = {("er", 100): 1.01, ("er", 200): 1.01}
    got = seed_claim(_records(half, easy), list(half), 1.10, null_key="trivial")
    assert got["verdict"] == "undecided" and got["fails"] == 5
    worse = {f"g2s_rnn_s{s}": (good if s < 1 else bad) for s in range(10)}
    got = seed_claim(_records(worse, easy), list(worse), 1.10, null_key="trivial")
    assert got["verdict"] == "refuted"
    got = seed_claim(_records(seeds, easy), list(seeds), 1.10, null_key="trivial")
    assert got["verdict"] == "uninformative"     # nothing could hold and nothing failed


def test_a_point_the_seed_has_not_run_in_full_keeps_it_from_holding():
    vals = _pts(a=1.01, b=1.02)
    full = {"a": 20, "b": 20}
    assert seed_decision(vals, 1.10, required=full, n_resamples=999)["decision"] == "holds"
    # the largest size not run at all, or one graph of twenty there
    for short in ({"a": vals["a"]}, {"a": vals["a"], "b": vals["b"][:1]}):
        rec = seed_decision(short, 1.10, required=full, n_resamples=999)
        assert rec["decision"] == "undecided" and list(rec["incomplete"]) == ["b"]
        assert rec["why"].startswith("incomplete: b ")
    # a failure where it ran in full still fails it
    rec = seed_decision({"a": _pts(a=1.3)["a"]}, 1.10, required=full, n_resamples=999)
    assert rec["decision"] == "fails" and rec["deciding_point"] == "a"
    # nothing is required where no seed ran
    assert seed_decision(vals, 1.10, required={}, n_resamples=999)["decision"] == "holds"


def test_seed_claim_does_not_decide_a_seed_on_part_of_its_run():
    from reproduce.harness.verdicts.seeds import seed_claim
    good = {("er", 100): 1.02, ("er", 200): 1.03}
    seeds = {f"g2s_rnn_s{s}": good for s in range(10)}
    recs = _records(seeds)
    # seed 8 has not run n = 200, seed 9 one graph of it
    for r in recs:
        if r["n"] == 200:
            r["results"].pop("g2s_rnn_s8")
            if r["index"] > 0:
                r["results"].pop("g2s_rnn_s9")
    got = seed_claim(recs, list(seeds), 1.10)
    assert got["k_of_n"] == "8 of 10" and got["undecided"] == 2
    assert got["verdict"] == "undecided"
    assert "s8 undecided (incomplete: er@200 0 of " in got["per_seed"]
    assert "s9 undecided (incomplete: er@200 1 of " in got["per_seed"]


def test_seed_claim_with_three_seeds_cannot_confirm():
    from reproduce.harness.verdicts.seeds import seed_claim
    good = {("er", 100): 1.02, ("er", 200): 1.03}
    seeds = {f"g2s_rnn_s{s}": good for s in range(3)}
    got = seed_claim(_records(seeds), list(seeds), 1.10)
    assert got["verdict"] == "undecided" and got["k_of_n"] == "3 of 3"


# ------------------------------------------------------------------ pairs of seeds
GRAPHS = 12
SPREAD = np.linspace(-0.004, 0.004, GRAPHS)     # per-graph spread shared by every method


def _pair_records(a_levels, b_levels, points=(("er", 100), ("er", 200)), b_points=None,
                  wobble=()):
    """Records of ``GRAPHS`` graphs per point: seed k of A (``g2s_rnn_sK``) at
    ``a_levels[k]``, seed k of B (``s2v_sK``) at ``b_levels[k]``, the same per-graph spread
    (none at level 1, the best known solution); a level may be a dict point -> level.  B runs
    only at ``b_points`` (default: all).  The A seeds in ``wobble`` alternate +-0.1 around
    their level from graph to graph (a mean difference near 0 with a wide interval)."""
    def ratio(lv, pt, i):
        lv = lv[pt] if isinstance(lv, dict) else lv
        return lv + (SPREAD[i] if lv > 1 else 0.0)
    recs = []
    for pt in points:
        for i in range(GRAPHS):
            res = {f"g2s_rnn_s{k}": {"ratio": ratio(lv, pt, i)
                                     + (0.1 * (-1) ** i if k in wobble else 0.0)}
                   for k, lv in enumerate(a_levels)}
            if b_points is None or pt in b_points:
                res.update({f"s2v_s{k}": {"ratio": ratio(lv, pt, i)}
                            for k, lv in enumerate(b_levels)})
            recs.append({"family": pt[0], "n": pt[1], "index": i, "results": res})
    return recs


def _pairs(a_levels, b_levels, **kw):
    keys_a = [f"g2s_rnn_s{k}" for k in range(len(a_levels))]
    keys_b = [f"s2v_s{k}" for k in range(len(b_levels))]
    return pair_claim(_pair_records(a_levels, b_levels, **kw), keys_a, keys_b, n_resamples=999)


def test_pair_claim_reaches_every_word():
    # every G2S-RNN seed better than every baseline seed, beyond the noise
    assert _pairs([1.02] * 5, [1.2] * 5)["verdict"] == "confirmed"
    # every baseline seed better
    assert _pairs([1.2] * 5, [1.02] * 5)["verdict"] == "refuted"
    # half the G2S-RNN seeds better than every baseline seed, half worse
    split = _pairs([1.02] * 3 + [1.3] * 3, [1.15] * 6)
    assert split["verdict"] == "seed-dependent" and split["k_of_n"] == "3 of 6"
    assert split["pairs_k_of_n"] == "18 of 36"
    # ten G2S-RNN seeds against three baseline seeds decide: A's seeds are the trials
    assert _pairs([1.02] * 10, [1.2] * 3)["verdict"] == "confirmed"
    assert _pairs([1.3] * 10, [1.2] * 3)["verdict"] == "refuted"
    # three G2S-RNN seeds cannot show what their recipe typically does, and say so
    three = _pairs([1.02] * 3, [1.2] * 3)
    assert three["verdict"] == "undecided" and three["reachable"] == \
        "cannot be decided with 3 seeds"
    # both find the best known solution on every graph everywhere: nothing to compare
    flat = _pairs([1.0] * 5, [1.0] * 5)
    assert flat["verdict"] == "uninformative" and flat["informative"] == "0 of 25 pairs"


def test_the_pair_rule_reaches_every_word_with_ten_and_three_seeds():
    """Every outcome of ten A seeds against three B seeds, by enumeration: each A seed holds
    (beats every B seed), fails or is undecided, so its decisions are a composition (k, f, u)
    of 10.  The rule reaches every word.  The rule it replaced, step 2 over the 30 pairs with
    Wilson's interval from the smaller side's 3 seeds, reached only two of them."""
    now, before = set(), set()
    for k in range(11):
        for f in range(11 - k):
            u = 10 - k - f
            now.add(seeds_verdict(["holds"] * k + ["fails"] * f + ["undecided"] * u,
                                  n_informative=1)["verdict"])
    for k in range(31):
        for f in range(31 - k):
            u = 30 - k - f
            before.add(seeds_verdict(["holds"] * k + ["fails"] * f + ["undecided"] * u,
                                     n_informative=1, trials=3)["verdict"])
    assert now == {"confirmed", "refuted", "seed-dependent", "undecided"}
    assert before == {"seed-dependent", "undecided"}


def test_pair_claim_counts_seeds_and_pairs_and_names_them():
    a_levels = [1.02, 1.02, 1.3, 1.02]          # seed 2 worse than the baseline
    b_levels = [1.15] * 3
    got = _pairs(a_levels, b_levels, b_points=(("er", 100),))   # B ran at one point only
    n_a, n_b = len(a_levels), len(b_levels)
    good = sum(lv < b_levels[0] for lv in a_levels)
    assert got["n"] == n_a and got["pairs_n"] == n_a * n_b and got["seeds"] == f"{n_a} x {n_b}"
    assert got["k_of_n"] == f"{good} of {n_a}" and got["fails"] == n_a - good
    assert got["pairs_k_of_n"] == f"{good * n_b} of {n_a * n_b}"
    assert got["pairs_fail"] == (n_a - good) * n_b and got["undecided"] == 0
    assert "s2 fails" in got["a_seeds"] and "s0 holds" in got["a_seeds"]
    # each pair is named once, decided at the one point both ran
    for a in range(n_a):
        for b in range(n_b):
            assert got["per_pair"].count(f"s{a} vs s{b} ") == 1
    assert "er@200" not in got["per_pair"]
    assert got["worst_pair"].startswith("s2 vs s") and "fails (er@100: +0.150" in \
        got["worst_pair"]
    # Wilson's interval rests on A's seeds, not on the 12 pairs
    assert got["fraction_interval"] == "[{:.2f}, {:.2f}]".format(*wilson(good, n_a))


def test_an_undecided_pair_keeps_its_seed_from_holding():
    """Three G2S-RNN seeds better than each of four baseline seeds, the fourth G2S-RNN seed
    straddling them: its four pairs are undecided, so it is undecided, never holding."""
    got = _pairs([1.02] * 4, [1.2] * 4)
    assert got["verdict"] == "confirmed" and got["k_of_n"] == "4 of 4"
    got = _pairs([1.02, 1.02, 1.02, 1.2], [1.2] * 4, wobble=(3,))
    assert got["pairs_k_of_n"] == "12 of 16" and got["undecided"] == 1 and got["fails"] == 0
    assert got["k_of_n"] == "3 of 4" and got["verdict"] == "undecided"


def test_a_tie_at_the_best_known_solution_is_uninformative_elsewhere_not_better():
    both_best = {("er", 100): 1.0, ("er", 200): 1.02}
    worse_at_200 = {("er", 100): 1.0, ("er", 200): 1.2}
    # at n = 100 both find the best known solution on every graph: only n = 200 decides
    got = _pairs([both_best] * 5, [worse_at_200] * 5)
    assert got["verdict"] == "confirmed" and "er@100" not in got["per_pair"]
    # but the same tie at a ratio above 1 is not "better": every seed undecided
    tie_above = {("er", 100): 1.2, ("er", 200): 1.02}
    got = _pairs([tie_above] * 5, [{("er", 100): 1.2, ("er", 200): 1.2}] * 5)
    assert got["undecided"] == 5 and got["verdict"] == "undecided"


def test_a_pair_missing_graphs_others_ran_is_undecided():
    recs = _pair_records([1.02] * 5, [1.2] * 5)
    for r in recs:       # G2S-RNN seed 4 has not run n = 200
        if r["n"] == 200:
            r["results"].pop("g2s_rnn_s4")
    got = pair_claim(recs, [f"g2s_rnn_s{k}" for k in range(5)],
                     [f"s2v_s{k}" for k in range(5)], n_resamples=999)
    assert got["pairs_k_of_n"] == "20 of 25" and got["k_of_n"] == "4 of 5"
    assert got["undecided"] == 1
    assert "s4 vs s0 undecided (incomplete: er@200 0 of " in got["per_pair"]


def test_an_undecided_verdict_says_what_it_can_still_become():
    # 1 holds, 7 fail, 2 undecided: confirmation is out of reach
    got = seeds_verdict(["holds"] + ["fails"] * 7 + ["undecided"] * 2, n_informative=1)
    assert got["verdict"] == "undecided" or "confirmed" not in got["reachable"]
    assert "confirmed" not in got["reachable"] and "refuted" in got["reachable"]
    from reproduce.harness.verdicts.seeds import reachable_text
    text = reachable_text(got)
    assert text.startswith("could still become") or text == "decided"
    undecided = seeds_verdict(["holds"] * 8 + ["undecided"] * 2, n_informative=1)
    assert undecided["verdict"] == "undecided"
    assert undecided["reachable"] == ["confirmed", "seed-dependent"]
    assert reachable_text(undecided) == "could still become confirmed, seed-dependent"
    assert reachable_text(seeds_verdict(["holds"] * 3, n_informative=1)) == \
        "cannot be decided with 3 seeds"


def test_a_borderline_endpoint_decides_nothing_whatever_the_resampling_seed():
    """An interval endpoint within the Monte Carlo error of the bar neither holds nor fails,
    so the decision is the same under every resampling seed; clear of it, the seed holds
    under every resampling seed."""
    from reproduce.harness.verdicts.rule import interval_over_graphs
    from reproduce.harness.verdicts.seeds import mc_margin
    vals = list(1.0 + 0.05 * np.random.default_rng(3).standard_normal(20))
    high = interval_over_graphs(vals, confidence=0.95, n_resamples=2000, seed=0)["high"]
    margin = mc_margin(vals, 0.95, 2000)
    assert 0 < margin < 0.01
    for bar in (high, high + 0.5 * margin, high - 0.5 * margin):   # at the bar: borderline
        got = {seed_decision({"a": vals}, bar, n_resamples=2000, seed=s)["decision"]
               for s in range(8)}
        assert got == {"undecided"}, bar
        rec = seed_decision({"a": vals}, bar, n_resamples=2000, seed=0)
        assert rec["borderline"] == ["a"]
    clear = high + 3 * margin
    assert {seed_decision({"a": vals}, clear, n_resamples=2000, seed=s)["decision"]
            for s in range(8)} == {"holds"}


def test_combined_verdict():
    assert combined_verdict(["confirmed", "refuted", "undecided"]) == "refuted"
    assert combined_verdict(["confirmed", "confirmed"]) == "confirmed"
    assert combined_verdict(["uninformative", "uninformative"]) == "uninformative"
    assert combined_verdict(["confirmed", "seed-dependent", "undecided"]) == "seed-dependent"
    # holds wherever it could be tested: a narrower statement
    assert combined_verdict(["confirmed", "uninformative"]) == "qualified"
    assert combined_verdict(["confirmed", "qualified"]) == "qualified"
    assert combined_verdict(["confirmed", "inconclusive"]) == "undecided"


# ------------------------------------------------------------------ against fixed methods
def _versus_fixed(a_levels, greedy, **kw):
    """G2S-RNN seeds at ``a_levels`` against one deterministic heuristic at ``greedy`` (the
    baseline's seed 0 of ``_pair_records`` renamed): a fixed method has no seeds."""
    recs = _pair_records(a_levels, [greedy], **kw)
    for r in recs:
        if "s2v_s0" in r["results"]:
            r["results"]["greedy"] = r["results"].pop("s2v_s0")
    keys = [f"g2s_rnn_s{k}" for k in range(len(a_levels))]
    return versus_fixed_claim(recs, keys, ["greedy"], n_resamples=999)


def test_versus_fixed_counts_the_trained_models_seeds():
    """A heuristic is deterministic, so the trials are A's seeds (not min(n_A, 1) = 1 as for
    two training recipes): ten seeds no worse than greedy confirm, ten beaten refute."""
    got = _versus_fixed([1.02] * 10, 1.2)
    assert got["verdict"] == "confirmed" and got["k_of_n"] == "10 of 10"
    got = _versus_fixed([1.2] * 10, 1.02)
    assert got["verdict"] == "refuted" and got["beaten_by"] == "greedy 10 of 10 seeds"
    assert "s0 fails (greedy:er@" in got["per_seed"]
    split = _versus_fixed([1.02] * 5 + [1.3] * 5, 1.15)
    assert split["verdict"] == "seed-dependent" and split["some_seed"].startswith("yes: s0")
    # a seed whose per-graph differences straddle 0 is undecided, not passing
    wob = _versus_fixed([1.02] * 9 + [1.2], 1.2, wobble=(9,))
    assert wob["undecided"] == 1 and wob["k_of_n"] == "9 of 10"
    # a tie on every graph is no heuristic doing better
    assert _versus_fixed([1.1] * 10, 1.1)["k_of_n"] == "10 of 10"
    # three seeds cannot decide
    assert _versus_fixed([1.02] * 3, 1.2)["verdict"] == "undecided"


def test_versus_fixed_does_not_decide_a_seed_on_part_of_its_run():
    recs = _pair_records([1.02] * 10, [1.2])
    for r in recs:
        r["results"]["greedy"] = r["results"].pop("s2v_s0")
        if r["n"] == 200 and r["index"] > 0:      # seed 9: one graph at n = 200
            r["results"].pop("g2s_rnn_s9")
    got = versus_fixed_claim(recs, [f"g2s_rnn_s{k}" for k in range(10)], ["greedy"],
                             n_resamples=999)
    assert got["k_of_n"] == "9 of 10" and got["undecided"] == 1
    assert "s9 undecided (incomplete: greedy:er@200 1 of " in got["per_seed"]


# ------------------------------------------------------------------ a rate over graphs
def _rates(*rates, n=30):
    return {f"s{i}": [1] * round(r * n) + [0] * (n - round(r * n)) for i, r in enumerate(rates)}


def test_rate_claim_decides_each_seed_on_its_graphs():
    got = rate_claim(_rates(*[1.0] * 10), 0.8)
    assert got["verdict"] == "confirmed" and got["k_of_n"] == "10 of 10"
    assert got["per_seed"].startswith("s0 1.00 [0.89, 1.00] holds")
    # 80% of 30 graphs is not beyond 80%: undecided, not holding
    got = rate_claim(_rates(*[0.8] * 10), 0.8)
    assert got["undecided"] == 10 and got["verdict"] == "undecided"
    got = rate_claim(_rates(*[0.3] * 10), 0.8)
    assert got["verdict"] == "refuted" and got["fails"] == 10
    split = rate_claim(_rates(*[1.0] * 5, *[0.3] * 5), 0.8)
    assert split["verdict"] == "seed-dependent" and split["some_seed"].startswith("yes: s0")
    # the pooled rate of three seeds at 100%, 100% and 0% is 67%; by seed it depends on it
    assert rate_claim(_rates(1.0, 1.0, 0.0), 0.8)["verdict"] == "seed-dependent"
    # strict: "more than 0.2" fails at exactly 0 of 30 and holds well above
    assert rate_claim(_rates(*[0.0] * 10), 0.2, strict=True)["verdict"] == "refuted"
    assert rate_claim(_rates(*[0.5] * 10), 0.2, strict=True)["verdict"] == "confirmed"


def test_mostly_verdict_reads_the_narrower_claim_where_mostly_fails():
    def v(*rates):
        out = _rates(*rates)
        return mostly_verdict(rate_claim(out, 0.8), rate_claim(out, 0.2, strict=True))
    assert v(*[1.0] * 10) == "confirmed"
    assert v(*[0.5] * 10) == "qualified"           # decidedly between: holds sometimes
    assert v(*[0.0] * 10) == "refuted"             # rarely: fails the narrower claim too
    assert v(*[1.0] * 5, *[0.0] * 5) == "seed-dependent"
    # mostly refuted, the narrower reading split across seeds: the claim as stated is refuted,
    # and a narrower reading that is not itself confirmed does not qualify it
    assert v(*[0.5] * 5, *[0.0] * 5) == "refuted"


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.data(), st.floats(0.05, 0.95), st.booleans())
def test_a_seeds_rate_decision_is_scipys_wilson_interval_and_monotone(n, data, bar, strict):
    """For any graph count, bar and count of graphs where the property holds: the seed's
    decision is what scipy's Wilson interval (binomtest, 95%) says, and one more graph where
    the property holds never turns a holding seed into a failing or undecided one."""
    from scipy.stats import binomtest
    k = data.draw(st.integers(0, n))
    got = rate_claim({"s0": [1] * k + [0] * (n - k)}, bar, strict=strict, min_seeds=1)
    ci = binomtest(k, n).proportion_ci(0.95, method="wilson")
    holds = ci.low > bar if strict else ci.low >= bar
    fails = ci.high <= bar if strict else ci.high < bar
    want = "holds" if holds else "fails" if fails else "undecided"
    assert got["per_seed"].endswith(want)
    if k < n:
        more = rate_claim({"s0": [1] * (k + 1) + [0] * (n - k - 1)}, bar, strict=strict,
                          min_seeds=1)
        order = {"fails": 0, "undecided": 1, "holds": 2}
        assert order[more["per_seed"].rsplit(" ", 1)[1]] >= order[want]

