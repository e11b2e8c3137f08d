"""Appendix D.3 (5)-(6)'s verdict rules, on the Q-values at ``S = {}`` of size-15 planted-cover
graphs: latching (D.3 (6)), the paper's reading of ``Q_1`` and ``Q_2`` (D.3 (5)) and their
closeness to integers (D.3 (5)(a)).  Pure functions of the JSON the script writes; every
threshold is a named setting of :mod:`reproduce.harness.settings`."""

from __future__ import annotations

import numpy as np

from reproduce.appendix_d3_parts.sides import EARLY, T5, TAIL
from reproduce.appendix_d3_parts.sides import combine as _combine
from reproduce.appendix_d3_parts.sides import interval_text as _fmt_iv
from reproduce.appendix_d3_parts.sides import rounded as _r
from reproduce.appendix_d3_parts.sides import side as _side
from reproduce.common import verdict
from reproduce.harness import settings as S
from reproduce.harness import verdicts as rule

__all__ = ["latching_verdict", "semantics_verdict", "integers_verdict"]



def _mostly_or_rarely(holds: dict, weaker: dict) -> str:
    """The D.3 (5) verdict from two rate intervals: confirmed when ``holds`` is at least
    ``D3_MOSTLY`` (lower end), refuted when the ``weaker`` reading's upper end is at most
    ``D3_RARELY``, qualified when ``holds`` falls short and ``weaker`` is decidedly above the
    rare bar, else inconclusive."""
    if holds["low"] >= S.D3_MOSTLY:
        return "confirmed"
    if weaker["high"] <= S.D3_RARELY:
        return "refuted"
    if holds["high"] < S.D3_MOSTLY and weaker["low"] > S.D3_RARELY:
        return "qualified"
    return "inconclusive"

def _seed_rate(summary: dict, key: str, count: int, cases: int, conf: float) -> dict:
    """The interval of a rate the latching summary ``summary`` pools over seeds: with each
    seed's per-case outcomes (``per_seed``),
    :func:`reproduce.harness.verdicts.interval_of_seed_rates` (Wilson over pooled cases, widened by
    the two-level bootstrap of the seed mean); without them, the Wilson interval of ``count`` of
    ``cases``."""
    per = summary.get("per_seed")
    if per:
        return rule.interval_of_seed_rates([v[key] for _, v in sorted(per.items())],
                                           confidence=conf)
    return rule.interval_of_rate(count, cases, confidence=conf)


def _seed_mean(summary: dict, key: str, pooled: list, conf: float) -> dict:
    """The two-level bootstrap interval of a per-case mean over seeds (over graphs when the
    summary keeps no seeds apart)."""
    per = summary.get("per_seed")
    if per:
        return rule.interval_seed_mean([v[key] for _, v in sorted(per.items())],
                                       confidence=conf)
    return rule.interval_over_graphs(pooled, confidence=conf)


def _n_seeds(summary: dict) -> int:
    """The training seeds a latching summary pools (1 when it keeps none apart)."""
    return len(summary.get("per_seed") or {}) or 1


def _per_seed(summary: dict, key: str) -> str | None:
    """Each seed's rate, ``s0 0.13, s1 0.40, ...`` (evidence)."""
    per = summary.get("per_seed")
    return None if not per else ", ".join(
        f"{m.rsplit('_', 1)[-1]} {np.mean(v[key]):.2f}" for m, v in sorted(per.items()))


def latching_verdict(result: dict) -> dict:
    """Rule, on the size-15 planted-cover graphs at ``S = {}``, with the models trained on
    planted-cover-15 graphs (the paper's setup) where shipped, else the ER-15 ones (``basis``):
    G2S-RNN *latches* when, for at least 80% of (graph, seed) cases, its top-k set of per-layer
    ``Q_2`` is the same at every layer 10..15 and is a minimum vertex cover; the fixed-depth
    GCNN (Structure2Vec) *oscillates* when on average at least half the vertices change side
    (``Q_2`` above or below its layer mean, the paper's visualisation) between consecutive
    rounds 1..5.  Each sub-claim is decided on an interval, Bonferroni over the two: the
    latched fraction's Wilson interval (:func:`reproduce.harness.verdicts.interval_of_rate`) and the
    bootstrap interval of the mean flip over cases; a sub-claim holds when its interval is
    above the threshold, fails when below, else is undecided.  Confirmed: both hold; refuted:
    both fail (or G2S-RNN fails and no GCNN ran); qualified: one holds and one fails (or
    G2S-RNN holds and no GCNN ran); inconclusive: one undecided.  The other basis is reported
    as context.  (Revised after the point-estimate data had been seen: the same thresholds,
    decided on intervals.)  With several training seeds per model (seeds 1-2 of the
    planted-cover models, added before their data were computed), the latched
    fraction's interval is :func:`reproduce.harness.verdicts.interval_of_seed_rates` (the Wilson
    interval widened by the two-level bootstrap of the seed mean) and the flip's the two-level
    bootstrap of the seed mean; the thresholds and outcomes are unchanged."""
    lat = result["latching"]["planted"]
    planted = lat.get("planted_g2s") is not None
    gcnn_planted = planted and lat.get("planted_s2v") is not None
    g = lat["planted_g2s"] if planted else lat["g2s"]
    s = lat["planted_s2v"] if gcnn_planted else lat["s2v"]
    conf = rule.per_point_confidence(2)
    g_iv = _seed_rate(g, "latched", g["latched_count"], g["cases"], conf)
    sides = [_side(g_iv, S.D3_LATCHED, strict=False)]
    s_iv = None
    if s is not None:
        s_iv = _seed_mean(s, "flip_early", s["flip_early_cases"], conf)
        sides.append(_side(s_iv, S.D3_OSCILLATES, strict=False))
    elif sides[0] != "undecided":      # no GCNN: G2S-RNN alone cannot confirm
        sides.append("fails")
    kind = _combine(sides)
    er = result["latching"].get("er", {}).get("g2s")
    return verdict(
        kind, basis="planted-trained" if planted else "ER-trained",
        g2s_latched_interval=_fmt_iv(g_iv),
        s2v_flip_interval=None if s_iv is None else _fmt_iv(s_iv),
        interval_confidence=round(conf, 4),
        gcnn="none" if s is None else "planted-trained" if gcnn_planted else "ER-trained",
        g2s_latched=_r(g["latched_fraction"], 2), g2s_stable=_r(g["stable_fraction"], 2),
        g2s_cover_t15=_r(g["is_min_cover"][-1], 2), g2s_cover_t5=_r(g["is_min_cover"][T5], 2),
        g2s_cover_best=_r(max(g["is_min_cover"]), 2), g2s_overlap_t15=_r(g["overlap"][-1]),
        g2s_flip_early=_r(np.mean(g["flip"][EARLY])), g2s_flip_tail=_r(np.mean(g["flip"][TAIL])),
        s2v_flip_early=None if s is None else _r(s["flip_early"]),
        s2v_cover_t5=None if s is None else _r(s["is_min_cover"][T5], 2),
        s2v_overlap_t5=None if s is None else _r(s["overlap"][T5]),
        s2v_stable_ext=None if s is None else _r(s["stable_fraction"], 2),
        g2s_latched_unique=_r(g.get("latched_fraction_unique"), 2),
        g2s_cover_t5_unique=_r(g.get("cover_t5_unique"), 2),
        s2v_latched_unique=None if s is None else _r(s.get("latched_fraction_unique"), 2),
        unique_graphs=g.get("unique_cases"),
        er_trained_g2s_latched=_r(lat["g2s"]["latched_fraction"], 2),
        er_trained_s2v_flip_early=None if lat["s2v"] is None else _r(lat["s2v"]["flip_early"]),
        er_g2s_latched=None if er is None else _r(er["latched_fraction"], 2),
        g2s_seeds=_n_seeds(g),
        s2v_seeds=None if s is None else _n_seeds(s),
        g2s_latched_per_seed=_per_seed(g, "latched"),
        s2v_flip_per_seed=None if s is None else _per_seed(s, "flip_early"),
        graphs=lat["cases"], cases=g["cases"], profile=result["profile"])

def semantics_verdict(result: dict) -> dict:
    """Rule for D.3 (5), on the planted-cover-15-trained G2S-RNN at ``S = {}`` on size-15
    planted-cover graphs, at its training depth ``T = 5`` (``T_ROLLOUT``; the depth whose
    Q-values Q-learning fitted).  On a graph the claim *holds as written* when ``Q_1`` is within
    ``Q1_TOL`` of ``-(MVC) - 1`` and every ``Q_2(v)`` within ``Q2_TOL`` of ``u(v)`` (1 when
    ``v`` is in some minimum cover, else 0); it *holds up to the split* when that is so after
    moving an integer between the two terms (:func:`q_semantics`).  Both fractions get Wilson
    intervals (:func:`reproduce.harness.verdicts.interval_of_rate`, Bonferroni over the two).
    Confirmed: holds as written on >= 80% of graphs (lower end); refuted: holds up to the split
    on <= 20% (upper end); qualified: decidedly neither (as written below 80%, up to the split
    above 20%); inconclusive otherwise.  (Revised after the point-estimate data had been seen:
    the same thresholds, decided on intervals.)  With several planted-cover seeds (added before
    their data were computed, so that no verdict rests on one seed) each fraction's interval is
    :func:`reproduce.harness.verdicts.interval_of_seed_rates` over the seeds' per-graph outcomes.
    Context: every layer, the total ``Q`` against the optimal ``Q*``, the ER-trained seeds.

    (Revised once, after the first measurement: it compared ``Q_2`` with one minimum cover's
    indicator, which no Q-function can match on graphs with several minimum covers, since
    ``Q*(S = {}, v)`` only says whether ``v`` is in *some* minimum cover.)"""
    lat = result["latching"]["planted"]
    model = lat.get("planted_g2s") or {}
    sem = model.get("semantics")
    er = (lat.get("g2s") or {}).get("semantics")
    t = S.D3_T_ROLLOUT - 1
    base = dict(layer=S.D3_T_ROLLOUT, q1_tol=S.D3_Q1_TOL, q2_tol=S.D3_Q2_TOL,
                profile=result["profile"],
                er_trained_holds=None if er is None else _r(er["holds"][t], 2),
                er_trained_holds_shifted=None if er is None else _r(er["holds_shifted"][t], 2),
                er_trained_q_holds=None if er is None else _r(er["q_holds"][t], 2))
    if sem is None:
        return verdict("pending", **base)
    literal, shifted = sem["holds"][t], sem["holds_shifted"][t]
    conf = rule.per_point_confidence(2)
    lit_iv = _seed_rate(model, "holds", sem["holds_count"][t], sem["cases"], conf)
    sh_iv = _seed_rate(model, "holds_shifted", sem["holds_shifted_count"][t], sem["cases"], conf)
    kind = _mostly_or_rarely(lit_iv, sh_iv)
    return verdict(
        kind, **base, holds=_r(literal, 2), holds_shifted=_r(shifted, 2),
        holds_interval=_fmt_iv(lit_iv), holds_shifted_interval=_fmt_iv(sh_iv),
        interval_confidence=round(conf, 4),
        q_holds=_r(sem["q_holds"][t], 2), median_shift=_r(sem["median_shift"][t], 2),
        median_q1=_r(sem["median_q1"][t]), median_q1_err=_r(sem["median_q1_err"][t]),
        median_q2_err=_r(sem["median_q2_err"][t]),
        median_q_err=_r(sem["median_q_err"][t]), median_int_err=_r(sem["median_int_err"][t]),
        holds_shifted_layers=", ".join(f"{x:.1f}" for x in sem["holds_shifted"]),
        seeds=_n_seeds(model),
        holds_per_seed=_per_seed(model, "holds"),
        holds_shifted_per_seed=_per_seed(model, "holds_shifted"),
        graphs=sem["cases"])

def integers_verdict(result: dict) -> dict:
    """Rule for D.3 (5)(a), "the values of Q_1 and Q_2(.) are close to being integers", on the
    planted-cover-15-trained G2S-RNN at ``S = {}`` on size-15 planted-cover graphs at its
    training depth ``T = 5`` (as :func:`semantics_verdict`).  On a graph the claim holds when
    ``Q_1`` and every ``Q_2(v)`` lie within ``D3_INT_TOL`` of an integer (``int_err`` of
    :func:`q_semantics`).  The fraction of (graph, seed) cases where it holds gets
    :func:`reproduce.harness.verdicts.interval_of_seed_rates` (Wilson over pooled cases, widened
    by the two-level bootstrap of the seed mean).  Confirmed: lower end >= ``D3_MOSTLY``;
    refuted: upper end <= ``D3_RARELY``; qualified: decidedly neither (upper end below
    ``D3_MOSTLY``, lower end above ``D3_RARELY``); inconclusive otherwise; pending while the
    JSON has no per-case outcome (``int_close``, added to the summary after the committed run;
    a regenerated run records it).  Context: the median per-graph distance per layer, which
    the committed JSON has.  (Written after that median had been seen, before any per-case
    fraction was computed.)"""
    lat = result["latching"]["planted"]
    model = lat.get("planted_g2s") or {}
    sem = model.get("semantics")
    t = S.D3_T_ROLLOUT - 1
    er = (lat.get("g2s") or {}).get("semantics") or {}
    base = dict(layer=S.D3_T_ROLLOUT, int_tol=S.D3_INT_TOL, profile=result["profile"],
                interval_confidence=rule.FAMILY_CONFIDENCE,
                graphs=None if sem is None else sem["cases"],
                median_int_err=None if sem is None else _r(sem["median_int_err"][t]),
                median_int_err_layers=None if sem is None else
                ", ".join(f"{x:.2f}" for x in sem["median_int_err"]),
                er_trained_median_int_err=_r(er["median_int_err"][t]) if er else None)
    per = model.get("per_seed") or {}
    if sem is None or "int_close_count" not in sem or \
            any("int_close" not in v for v in per.values()):
        absent = "not in this JSON"
        return verdict("pending", **base, close=absent, close_interval=absent,
                       close_per_seed=absent, close_layers=absent, seeds=_n_seeds(model),
                       er_trained_close=absent,
                       status="Pending: this JSON has no per-graph outcome (int_close, added "
                              "to the summary after the run was written); a regenerated run "
                              "of reproduce/appendix_d3.py records it")
    iv = _seed_rate(model, "int_close", sem["int_close_count"][t], sem["cases"],
                    rule.FAMILY_CONFIDENCE)
    kind = _mostly_or_rarely(iv, iv)
    return verdict(
        kind, **base, close=_r(sem["int_close"][t], 2), close_interval=_fmt_iv(iv),
        seeds=_n_seeds(model), close_per_seed=_per_seed(model, "int_close"),
        close_layers=", ".join(f"{x:.2f}" for x in sem["int_close"]),
        er_trained_close=_r(er["int_close"][t], 2) if "int_close" in er else None,
        status="Decided on the per-graph outcomes")
