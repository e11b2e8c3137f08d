"""Claims about a training recipe: each training seed decided on its own graphs, then "k of n
seeds hold" with a Wilson interval, and one verdict word.

Written and committed before the ten-seed data it decides are computed (the rule comes first;
a revision after seeing data must say so here and in the claim's evidence).  It replaces the
two-level bootstrap over seeds for claims about trained models: with 3 seeds that bootstrap's
interval is essentially [lowest seed mean, highest seed mean], so its "confirmed" meant "all
seeds pass" at a confidence it did not have.

Step 1 -- one seed, over graphs (:func:`seed_decision`)
--------------------------------------------------------
A threshold claim "the ratio is <= b (or >= b) at every informative point" is decided for one
seed from its per-graph values at each point (family, size), with the percentile bootstrap of
the mean over graphs (:func:`reproduce.harness.verdicts.rule.interval_over_graphs`,
``scipy.stats``):

* the seed **holds** when at every informative point the interval at confidence
  ``1 - alpha`` lies on the claim's side of b (upper end <= b for "<=").  "Holds at every
  point" is an intersection of per-point hypotheses, so the intersection-union test at level
  alpha needs no multiplicity correction (Berger 1982, Technometrics 24: the IUT is level alpha
  when every component test is);
* the seed **fails** when at some informative point the interval at the Bonferroni confidence
  ``1 - alpha / k`` (k informative points) lies wholly on the wrong side of b.  "Fails
  somewhere" is a union over points, so a refutation needs the correction;
* otherwise it is **undecided** on its graphs (more graphs would decide it).

The record keeps the deciding point: for "holds" the point nearest the bar (largest upper end
for "<="), for "fails" the point furthest past it -- not merely the worst estimate.

A seed is decided only on points it has run in full: a point where it has fewer graphs than
the most any seed (or pair) of the claim ran there -- none at all included -- is
**incomplete** for it, counts neither way, and keeps it from holding (it is undecided unless
it fails at a complete point).  Added before the last units of a resumable run were
computed: until then a seed missing its largest size, or with one of its three graphs there,
was decided on what it had, so a run stopped part-way could read "holds".

Informative points (:func:`informative_points`): a point where a trivial solver's mean ratio
already meets the bar tells nothing about the model; only the other points count.  A claim
with no informative point is ``uninformative``.

Step 2 -- the seeds (:func:`seeds_verdict`)
-------------------------------------------
With k seeds holding, f failing and u undecided of n = k + f + u, the fraction of seeds for
which the claim holds is estimated with a Wilson score interval (95%, :func:`wilson`;
Wilson keeps its coverage at 0 and 1, where the bootstrap collapses).  Undecided seeds are
counted both ways: the interval runs from Wilson's lower end of k/n (undecided as failing) to
its upper end of (k + u)/n (undecided as holding).  Then, with one meaning each:

* ``confirmed``: the lower end is above 1/2 -- a seed trained by this recipe typically
  satisfies the claim;
* ``refuted``: the upper end is below 1/2 -- a seed trained by this recipe typically does not;
* ``seed-dependent``: some seeds hold and some fail, and the interval contains 1/2 however
  the undecided seeds resolve: whether the claim holds depends on the seed;
* ``undecided``: otherwise -- the data do not decide: fewer than ``MIN_SEEDS`` seeds, seeds
  that agree but are too few for the interval to leave 1/2, or undecided seeds that would
  decide the verdict if resolved (more seeds or more graphs would decide);
* ``uninformative``: no informative point (step 1).

A second line says whether **some** seed holds (the paper's number is achievable with this
recipe) -- how a reader tells "the paper picked a lucky model" from "the recipe works".

With 10 seeds, 9 or 10 holding is ``confirmed`` and 0 or 1 ``refuted``; with 3 seeds no claim
can be confirmed or refuted (Wilson's interval of 3 of 3 is [0.44, 1]): three seeds cannot
show what a recipe typically does, and the verdict (``undecided`` when they agree,
``seed-dependent`` when they do not) says so.

Pairs of seeds: "A is better than B" (:func:`pair_claim`)
----------------------------------------------------------
Written before the ten-seed data (the three-seed JSON had been seen), revising the
comparisons of G2S-RNN with the baselines: those were decided by the two-level paired
bootstrap of the two seed means (:func:`reproduce.harness.verdicts.paired_difference`), the
interval over three seeds a side that this module replaces for claims about trained models.
A comparison of two training recipes is decided on pairs of seeds as a threshold claim is
decided on seeds:

* one pair (seed i of A, seed j of B), over the graphs both ran: at each (family, size)
  point, the paired per-graph differences A - B of the ratio (lower is better), with step 1's
  two intervals of their mean and bar 0 (:func:`seed_decision`, ``strict``).  The pair
  **holds** when at every informative point the ``1 - alpha`` interval lies wholly below 0
  (A better beyond the noise; a tie is not "better"), **fails** when at some informative
  point the Bonferroni interval (``1 - alpha / k``) lies wholly above 0 (B better beyond the
  noise), and is **undecided** otherwise.  A point is informative for a pair unless both
  found solutions of the same value, at least as good as the reference (ratio <= 1), on
  every graph there: neither can be better than the best known.  A pair with no informative
  point is undecided;
* the seeds of A (revised after the ten-seed data had been seen; see "Revisions" below):
  each seed of A is one trial, and it **holds** when every one of its pairs holds (it is
  better than every trained B model), **fails** when some pair fails (some B model is better
  beyond the noise), and is **undecided** otherwise (or when it lacks a pair the other A seeds
  have); then step 2 over A's seeds.  The B seeds are the comparators, not the trials, so the
  verdict reads "a typical seed of A beats each of B's trained models" -- conditional on B's
  seeds, which the evidence names.  Before, the n_A x n_B pairs were the trials with
  Wilson's interval as if from min(n_A, n_B) of them: with 10 x 3 seeds, enumerating every
  outcome gave only seed-dependent (435 cases) or undecided (61), never confirmed or refuted,
  so a three-seed baseline made every comparison undecidable by construction.  Each pair's
  decision is still reported, and the pair counts with it.

A trained model against fixed methods: "no heuristic beats A" (:func:`versus_fixed_claim`)
---------------------------------------------------------------------------------------------
Written after the ten-seed data had been seen (the claim was decided on the seed mean by the
two-level bootstrap until then).  A heuristic is deterministic: it has no training seeds, so
the seeds of A are the only replication and each is decided on its own, as in step 1, on its
paired per-graph differences A - H at every (heuristic, family, size) point, all points one
family: the seed **holds** when every point's ``1 - alpha`` interval has its upper end at or
below 0 (no heuristic can be better there; the intersection-union test needs no correction),
**fails** when at some point the Bonferroni interval lies wholly above 0 (a heuristic better
beyond the noise), and is **undecided** otherwise.  Then step 2 over A's seeds.

A rate over graphs: "on most graphs the property holds" (:func:`rate_claim`)
----------------------------------------------------------------------------
Written after the pooled rates of Appendix D.3 (5)-(6) had been seen (they were decided on
the pooled (graph, seed) rate, its Wilson interval widened by the two-level bootstrap of the
seed mean).  Each seed on its own: its outcomes over its graphs (1 where the property holds)
give a Wilson interval of its rate (``1 - alpha``, one point, no correction); the seed
**holds** when the lower end is at least the bar (``strict``: above it), **fails** when the
upper end is below it (``strict``: at most it), else is **undecided**.  Then step 2.
:func:`mostly_verdict` reads two such claims as D.3 (5) does: "mostly" (bar 0.8) decides,
and where it is refuted, "at least sometimes" (above 0.2) tells a narrower claim that holds
(``qualified``) from one that fails too (``refuted``).

Revisions after the data they decide had been seen (each also in its claims' rule history)
---------------------------------------------------------------------------------------------
All four were made together, after the ten-seed data had been seen, because each let a verdict
word follow from how the rule was built rather than from the data:

* **Failures count at every point.**  A threshold claim's informative points may make a seed
  hold, but every point may make it fail (Bonferroni over all of them): before, only the
  informative points were tested both ways, so a seed far past the bar at a point the trivial
  solver also meets was not counted as failing.  A claim with no informative point is
  ``uninformative`` only while no seed fails.
* **Borderline endpoints decide nothing** (:func:`mc_margin`): an interval endpoint within
  :data:`MC_SIGMAS` Monte Carlo standard errors of the bar neither holds nor fails, so no
  decision turns on the resampling seed (before, an upper end of 1.040 at a bar of 1.04 held
  with 9,999 resamples and not with 2,000).
* **Pairs of seeds: A's seeds are the trials** (above).
* **What an undecided verdict can still become** is reported (``reachable``: the words
  step 2 gives when the undecided seeds resolve; "cannot be decided with n seeds" when even
  all n holding would not confirm).

Several comparisons read as one claim ("A is better than every B"; also several types of one
threshold claim) by :func:`combined_verdict`: refuted when one is refuted, confirmed when all
are confirmed, uninformative when all are uninformative, else seed-dependent when one is, else
undecided when one is not confirmed, qualified or uninformative, else qualified.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import exp, pi, sqrt

import numpy as np
from scipy.special import ndtri

from reproduce.harness.settings import EPS, MIN_SEEDS
from reproduce.harness.verdicts.records import seed_label
from reproduce.harness.verdicts.rule import N_RESAMPLES, SEED, intervals_over_graphs

__all__ = ["ALPHA", "MC_SIGMAS", "mc_margin", "SEED_CONFIDENCE", "MIN_SEEDS", "SEED_VERDICTS",
           "seed_decision", "reachable_text",
           "seeds_verdict", "seed_claim", "graphs_required", "pair_claim", "pair_claims",
           "versus_fixed_claim",
           "rate_claim", "mostly_verdict", "combined_verdict",
           "informative_points", "null_text", "wilson", "fraction_text", "some_seed_text"]

#: per-seed test level over graphs (step 1)
ALPHA = 0.05
#: Monte Carlo standard errors an interval endpoint must clear the bar by (borderline rule)
MC_SIGMAS = 3.0
#: confidence of the Wilson interval of the fraction of seeds that hold (step 2)
SEED_CONFIDENCE = 0.95
# MIN_SEEDS (reproduce.harness.settings): fewer seeds than this are ``undecided`` whatever they
# show, the same minimum for every rule that decides on seeds
#: the verdict words of this rule, each with one meaning (module docstring)
SEED_VERDICTS = ("confirmed", "refuted", "seed-dependent", "undecided", "uninformative")


def wilson(k: float, n: float, confidence: float = SEED_CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` trials (``(0, 1)`` when ``n == 0``).

    Newcombe's (1998) closed form, term for term as ``scipy.stats.binomtest(k, n)
    .proportion_ci(method="wilson")`` computes it (the same floats for whole counts); ``k``
    may be fractional: the fraction ``k / n`` as if from ``n`` trials (pairs of seeds, module
    docstring)."""
    if n == 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    p = k / n
    z = ndtri(0.5 + 0.5 * confidence)
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * sqrt(4 * n * p * (1 - p) + z**2)
    return (0.0 if k == 0 else float(center - delta)), (1.0 if k == n else float(center + delta))


def _meets(value: float, bar: float, direction: str, strict: bool = False) -> bool:
    if strict:
        return value < bar if direction == "<=" else value > bar
    return value <= bar if direction == "<=" else value >= bar


def informative_points(null_means: Mapping[str, float], bar: float,
                       direction: str = "<=") -> list[str]:
    """The points where the trivial solver's mean ratio misses the bar (only they count)."""
    if direction not in ("<=", ">="):
        raise ValueError(f"direction must be '<=' or '>=', got {direction!r}")
    return [p for p, v in null_means.items() if not _meets(v, bar, direction)]


def graphs_required(per_unit: Iterable[Mapping[str, Sequence[float]]]) -> dict[str, int]:
    """``{point: the most graphs any unit (seed or pair) has there}``: what a complete run of
    the point holds (module docstring, step 1)."""
    out: dict[str, int] = {}
    for values in per_unit:
        for p, v in values.items():
            out[p] = max(out.get(p, 0), len(v))
    return out


def mc_margin(values: Sequence[float], confidence: float,
              n_resamples: int = N_RESAMPLES) -> float:
    """How far a percentile-bootstrap endpoint of the mean of ``values`` may move with the
    resampling seed: :data:`MC_SIGMAS` Monte Carlo standard errors of the sample quantile at
    ``q = (1 + confidence) / 2`` of ``n_resamples`` draws, ``sqrt(q (1 - q) / B) / phi(z_q)``
    times the bootstrap distribution's spread (its normal approximation, ``sd / sqrt(n)``).
    An endpoint nearer the bar than this is *borderline*: the decision would turn on the
    resampling seed."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return 0.0
    q = 0.5 + 0.5 * confidence
    z = float(ndtri(q))
    density = exp(-0.5 * z * z) / sqrt(2 * pi)
    return MC_SIGMAS * sqrt(q * (1 - q) / n_resamples) / density * \
        float(x.std(ddof=1)) / sqrt(len(x))


def seed_decision(values: Mapping[str, Sequence[float]], bar: float, *, direction: str = "<=",
                  points: Sequence[str] | None = None,
                  fail_points: Sequence[str] | None = None, alpha: float = ALPHA,
                  strict: bool = False, required: Mapping[str, int] | None = None,
                  n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict:
    """Step 1 (module docstring): ``holds`` / ``fails`` / ``undecided`` for one seed.

    ``values[point]`` are the seed's per-graph values at that point; ``points`` are the points
    that may make it hold (the informative ones; default: every point of ``values`` or
    ``required``), ``fail_points`` those that may make it fail (default ``points``; a threshold
    claim passes every point: an uninformative point never hides a failure); ``strict``:
    holding needs the interval strictly on the claim's side (a difference "A better than B"
    must exclude a tie); ``required[point]``: the graphs a complete run has there
    (:func:`graphs_required`) -- a point with fewer is incomplete, counts neither way and keeps
    the seed from holding.  An endpoint within :func:`mc_margin` of the bar is borderline and
    decides nothing.  Returns the decision, the deciding point, every complete point's two
    intervals, ``incomplete`` (``{point: "k of m graphs"}``) and ``borderline`` (points).
    """
    if direction not in ("<=", ">="):
        raise ValueError(f"direction must be '<=' or '>=', got {direction!r}")
    required = required or {}
    wanted = list(points) if points is not None else \
        list(values) + [p for p in required if p not in values]
    fail_wanted = wanted if fail_points is None else list(fail_points)
    every = list(dict.fromkeys([*wanted, *fail_wanted]))
    incomplete = {p: f"{len(values.get(p, ()))} of {required[p]} graphs" for p in every
                  if len(values.get(p, ())) < required.get(p, 0)}
    pts = [p for p in wanted if p not in incomplete and len(values.get(p, ())) > 0]
    fpts = [p for p in fail_wanted if p not in incomplete and len(values.get(p, ())) > 0]
    why = "incomplete: " + ", ".join(f"{p} {c}" for p, c in incomplete.items())
    if not pts and not fpts:
        return {"decision": "undecided", "deciding_point": None, "points": {},
                "incomplete": incomplete, "borderline": [],
                "why": why if incomplete else "no informative point with data"}
    k = len(fpts) or 1
    hold_conf, fail_conf = 1 - alpha, 1 - alpha / k
    recs = {}
    decided = list(dict.fromkeys([*pts, *fpts]))
    # every point's two intervals in a few bootstrap calls (the same as one call each)
    both = intervals_over_graphs([values[p] for p in decided],
                                 [(hold_conf, fail_conf)] * len(decided),
                                 n_resamples=n_resamples, seed=seed)
    for p, (hold, fail) in zip(decided, both):
        recs[p] = {"hold": hold, "fail": fail}
        recs[p]["hold"]["margin"] = mc_margin(values[p], hold_conf, n_resamples)
        recs[p]["fail"]["margin"] = mc_margin(values[p], fail_conf, n_resamples)
    le = direction == "<="
    sign = 1 if le else -1

    def near(p):  # the end of the "hold" interval on the far side from the claim
        r = recs[p]["hold"]
        return r["high"] if le else -r["low"]

    def past(p):  # how far the "fail" interval lies past the bar
        r = recs[p]["fail"]
        return r["low"] - bar if le else bar - r["high"]

    def holds_at(p):   # the hold interval on the claim's side, beyond the Monte Carlo error
        r = recs[p]["hold"]
        return _meets(r["high" if le else "low"] + sign * r["margin"], bar, direction, strict)

    failing = [p for p in fpts if past(p) > recs[p]["fail"]["margin"]]
    def gap(p):        # the hold interval's far end from the bar (positive: on its side)
        r = recs[p]["hold"]
        return bar - r["high"] if le else r["low"] - bar
    # within the Monte Carlo error of the bar, on either side: another resampling seed could
    # have decided the other way, so the point decides nothing
    borderline = sorted({p for p in fpts if abs(past(p)) <= recs[p]["fail"]["margin"] > 0} |
                        {p for p in pts if abs(gap(p)) <= recs[p]["hold"]["margin"] > 0},
                        key=every.index)
    if failing:
        decision, point = "fails", max(failing, key=past)
    elif incomplete or not pts:
        decision, point = "undecided", None
    elif all(holds_at(p) for p in pts):
        decision, point = "holds", max(pts, key=near)
    else:
        decision = "undecided"
        point = max((p for p in pts if not holds_at(p)), key=near)
    out = {"decision": decision, "deciding_point": point, "n_points": k,
           "confidence_hold": hold_conf, "confidence_fail": fail_conf, "points": recs,
           "incomplete": incomplete, "borderline": borderline}
    if point is None:
        out["why"] = why if incomplete else "no informative point"
    return out


def seeds_verdict(decisions: Mapping[str, str] | Sequence[str], *,
                  n_informative: int | None = None, min_seeds: int = MIN_SEEDS,
                  confidence: float = SEED_CONFIDENCE, trials: int | None = None) -> dict:
    """Step 2 (module docstring): the verdict word from the seeds' decisions.

    ``decisions``: each seed's ``holds`` / ``fails`` / ``undecided`` (a mapping seed -> decision
    keeps the seed names in the record).  ``n_informative=0`` makes the claim
    ``uninformative``.  ``trials``: the independent trials the Wilson interval of the fraction
    rests on, and what ``min_seeds`` is compared with (default: one per decision; pairs of
    seeds: the smaller side's seed count, :func:`pair_claim`).
    """
    named = dict(decisions) if isinstance(decisions, Mapping) else dict(enumerate(decisions))
    bad = {d for d in named.values() if d not in ("holds", "fails", "undecided")}
    if bad:
        raise ValueError(f"unknown seed decision(s) {sorted(bad)}")
    k = sum(d == "holds" for d in named.values())
    f = sum(d == "fails" for d in named.values())
    u = sum(d == "undecided" for d in named.values())
    n = k + f + u
    m = n if trials is None else trials

    def word(k, f, u):
        return _word(k, f, u, n_informative=n_informative, min_seeds=min_seeds, m=m,
                     scaled=trials is not None, confidence=confidence)
    verdict, (low, high) = word(k, f, u)
    # what resolving the undecided seeds could still make it (j of them holding)
    reachable = sorted({word(k + j, f + u - j, 0)[0] for j in range(u + 1)},
                       key=SEED_VERDICTS.index)
    # whether this many trials could ever decide: all holding confirms, none refutes
    decidable = _word(m, 0, 0, n_informative=1, min_seeds=min_seeds, m=m, scaled=False,
                      confidence=confidence)[0] == "confirmed"
    return {"verdict": verdict, "k": k, "fails": f, "undecided": u, "n": n,
            "k_of_n": f"{k} of {n}", "fraction_interval": [round(low, 4), round(high, 4)],
            "confidence": confidence, "some_seed_holds": k > 0,
            "reachable": reachable, "decidable": decidable, "trials": m,
            "seeds": {str(s): d for s, d in named.items()}}


def _word(k: int, f: int, u: int, *, n_informative, min_seeds: int, m: int, scaled: bool,
          confidence: float) -> tuple[str, tuple[float, float]]:
    """Step 2's word for ``k`` holding, ``f`` failing and ``u`` undecided of ``k + f + u``,
    the Wilson interval from ``m`` trials (``scaled``: the counts rescaled to ``m``)."""
    n = k + f + u

    def ci(count):  # Wilson's interval of the fraction count / n, from m trials
        return wilson(count * m / n if scaled and n else count, m if scaled or not n else n,
                      confidence)

    low, _ = ci(k)
    _, high = ci(k + u)
    if n_informative == 0 and not f:
        verdict = "uninformative"    # nothing could hold and nothing failed
    elif m < min_seeds:
        verdict = "undecided"
    elif low > 0.5:
        verdict = "confirmed"
    elif high < 0.5:
        verdict = "refuted"
    elif k and f and not (ci(k + u)[0] > 0.5 or ci(k)[1] < 0.5):
        verdict = "seed-dependent"
    else:
        verdict = "undecided"
    return verdict, (low, high)


def reachable_text(verdict: Mapping) -> str:
    """What an undecided verdict could still become, as evidence shows it: the words step 2
    gives when the undecided seeds resolve, or that the seeds can never decide."""
    if not verdict.get("decidable", True):
        m = verdict.get("trials")
        return f"cannot be decided with {m} seed{'s' * (m != 1)}"
    words = [w for w in verdict.get("reachable", ()) if w != verdict["verdict"]]
    if verdict["verdict"] != "undecided":
        return "decided"
    return "could still become " + (", ".join(words) if words else "nothing else")


def fraction_text(verdict: Mapping) -> str:
    """The Wilson interval of :func:`seeds_verdict`'s fraction as evidence shows it."""
    low, high = verdict["fraction_interval"]
    return f"[{low:.2f}, {high:.2f}]"


def some_seed_text(decisions: Mapping[str, str]) -> str:
    """The second line of a seed verdict: which seeds hold, if any (module docstring)."""
    holding = [s for s, d in decisions.items() if d == "holds"]
    return "yes: " + ", ".join(holding) if holding else "no seed holds"


def null_text(means: Mapping[str, float]) -> str:
    """The trivial solver's mean ratio per point, by family: ``"er 25 1.000, 50 1.012;
    regular 25 1.040"`` (the evidence beside the count of points it meets)."""
    by_family: dict[str, list[str]] = {}
    for p in sorted(means, key=_point_key):
        family, n = _point_key(p)
        by_family.setdefault(family, []).append(f"{n} {means[p]:.3f}")
    return "; ".join(f"{f} {', '.join(v)}" for f, v in by_family.items()) or "none"


def _point_key(point: str) -> tuple[str, int]:
    family, n = point.split("@")
    return family, int(n)


def _point_values(instances: Sequence[Mapping], key: str, families=None,
                  field: str = "ratio") -> dict[str, list[float]]:
    """``{"family@n": [per-graph value of result key]}`` from a figure JSON's records."""
    out: dict[str, list[float]] = {}
    for rec in instances:
        r = rec.get("results", {}).get(key)
        if not isinstance(r, Mapping) or r.get(field) is None:
            continue
        if families is not None and rec["family"] not in families:
            continue
        out.setdefault(f"{rec['family']}@{int(rec['n'])}", []).append(float(r[field]))
    return dict(sorted(out.items(), key=lambda kv: _point_key(kv[0])))


def seed_claim(instances: Sequence[Mapping], keys: Sequence[str], bar: float, *,
               direction: str = "<=", null_key: str | None = None, families=None,
               min_seeds: int = MIN_SEEDS, n_resamples: int = N_RESAMPLES,
               seed: int = SEED) -> dict:
    """A threshold claim about a trained model, decided by this module's two steps from a
    figure JSON's per-instance records: each seed key of ``keys`` on its own graphs
    (:func:`seed_decision` at the informative points), then :func:`seeds_verdict`.

    ``null_key``: the trivial solver's result key; a point where its mean meets the bar is
    uninformative.  A JSON without it (written before the null baseline) has every point
    counted, and the record says so.  Returns the verdict object with the evidence fields the
    ledger shows: ``k_of_n``, ``fraction_interval``, ``some_seed_holds``, ``informative``
    ("i of p points"), ``per_seed`` (each seed's decision and deciding point).
    """
    per_seed = {k: _point_values(instances, k, families) for k in keys}
    points = sorted({p for v in per_seed.values() for p in v}, key=_point_key)
    null = _point_values(instances, null_key, families) if null_key else {}
    if null:
        means = {p: sum(null[p]) / len(null[p]) for p in points if p in null}
        # a point with no trivial run counts
        keep = set(informative_points(means, bar, direction)) | {p for p in points
                                                                 if p not in null}
        informative = [p for p in points if p in keep]
        null_note = (f"{len(points) - len(informative)} met by the trivial solver; its mean "
                     f"ratio: {null_text(means)}")
    else:
        informative = list(points)
        null_note = "no trivial-solver run in this JSON: every point counted"
    decisions, notes, borderline = {}, [], []
    required = graphs_required(per_seed.values())
    for k, values in per_seed.items():
        if not values:
            continue
        # informative points may make it hold; every point may make it fail
        d = seed_decision(values, bar, direction=direction, points=informative,
                          fail_points=points, required=required, n_resamples=n_resamples,
                          seed=seed)
        label = seed_label(k)
        decisions[label] = d["decision"]
        borderline += [f"{label} {q}" for q in d["borderline"]]
        p = d["deciding_point"]
        if p is not None:
            iv = d["points"][p]["hold" if d["decision"] != "fails" else "fail"]
            notes.append(f"{label} {d['decision']} ({p}: {iv['estimate']:.3f} "
                         f"[{iv['low']:.3f}, {iv['high']:.3f}])")
        elif d["incomplete"]:
            notes.append(f"{label} {d['decision']} ({d['why']})")
        else:
            notes.append(f"{label} {d['decision']}")
    if not decisions:
        return {"verdict": "undecided", "k_of_n": "0 of 0", "why": "no records of this model",
                "informative": f"0 of {len(points)} points", "per_seed": "none"}
    out = seeds_verdict(decisions, n_informative=len(informative), min_seeds=min_seeds)
    out.update(informative=f"{len(informative)} of {len(points)} points ({null_note})",
               per_seed="; ".join(notes), bar=bar, direction=direction,
               fraction_interval=fraction_text(out), some_seed=some_seed_text(decisions),
               reachable=reachable_text(out), borderline=", ".join(borderline) or "none")
    del out["seeds"]
    return out


def _difference_note(label: str, d: dict) -> tuple[float, str]:
    """``(estimate, "label decision (point: +0.012 [low, high])")`` of a decision on
    differences (:func:`seed_decision` with bar 0) at its deciding point: the interval that
    decided it (the Bonferroni one for a failure)."""
    p = d["deciding_point"]
    iv = d["points"][p]["hold" if d["decision"] != "fails" else "fail"]
    return iv["estimate"], (f"{label} {d['decision']} ({p}: {iv['estimate']:+.3f} "
                            f"[{iv['low']:+.3f}, {iv['high']:+.3f}])")


def _pair_differences(instances: Sequence[Mapping], a: str, b: str, families=None,
                      field: str = "ratio", best: float = 1.0) -> tuple[dict, list[str]]:
    """``({"family@n": [A - B per graph both ran]}, informative points)`` for one pair of seed
    keys; a point is uninformative when on every graph A and B have the same value, no worse
    than ``best`` (the reference's ratio, 1): neither can be better there."""
    diffs: dict[str, list[float]] = {}
    ceiling: dict[str, bool] = {}
    for rec in instances:
        res = rec.get("results", {})
        ra, rb = res.get(a), res.get(b)
        if not (isinstance(ra, Mapping) and isinstance(rb, Mapping)) or \
                ra.get(field) is None or rb.get(field) is None:
            continue
        if families is not None and rec["family"] not in families:
            continue
        va, vb = float(ra[field]), float(rb[field])
        p = f"{rec['family']}@{int(rec['n'])}"
        diffs.setdefault(p, []).append(va - vb)
        at_best = abs(va - vb) <= EPS and va <= best + EPS
        ceiling[p] = ceiling.get(p, True) and at_best
    diffs = dict(sorted(diffs.items(), key=lambda kv: _point_key(kv[0])))
    return diffs, [p for p in diffs if not ceiling[p]]


def pair_claim(instances: Sequence[Mapping], a_keys: Sequence[str], b_keys: Sequence[str], *,
               families=None, min_seeds: int = MIN_SEEDS, n_resamples: int = N_RESAMPLES,
               seed: int = SEED) -> dict:
    """"A is better than B" (lower ratio) from a figure JSON's per-instance records, decided
    on pairs of seeds (module docstring): each pair (seed key of ``a_keys``, seed key of
    ``b_keys``) by :func:`seed_decision` on its paired differences at its informative points
    (bar 0, strict), then :func:`seeds_verdict` over the pairs with min(n_A, n_B) trials.

    Returns the verdict object with ``k_of_n`` (pairs), ``fails``, ``undecided``,
    ``fraction_interval``, ``seeds`` ("n_A x n_B"), ``informative`` (pairs with an informative
    point), ``per_pair`` (each pair's decision and deciding point: A - B there with its
    interval) and ``worst_pair`` (the pair whose deciding difference is largest).
    """
    decisions, notes, worst, ran, n_informative = {}, [], None, (set(), set()), 0
    by_a: dict[str, list[str]] = {}
    pairs = {(a, b): _pair_differences(instances, a, b, families)
             for a in a_keys for b in b_keys}
    required = graphs_required(diffs for diffs, _ in pairs.values())
    for (a, b), (diffs, informative) in pairs.items():
        if not diffs:
            continue
        # a point the pair has not run in full is kept, so that it is seen as incomplete
        points = informative + [p for p in required if p not in diffs or
                                len(diffs[p]) < required[p]]
        d = seed_decision(diffs, 0.0, points=points, strict=True, required=required,
                          n_resamples=n_resamples, seed=seed)
        label = f"{seed_label(a)} vs {seed_label(b)}"
        decisions[label] = d["decision"]
        by_a.setdefault(a, []).append(d["decision"])
        ran[0].add(a)
        ran[1].add(b)
        n_informative += bool(informative)
        if d["deciding_point"] is None:
            why = d["why"] if d["incomplete"] else "no informative point"
            notes.append(f"{label} undecided ({why})")
            continue
        estimate, note = _difference_note(label, d)
        notes.append(note)
        if worst is None or estimate > worst[0]:
            worst = (estimate, note)
    if not decisions:
        return {"verdict": "undecided", "k_of_n": "0 of 0", "why": "no shared records",
                "per_pair": "none"}
    sides = (len(ran[0]), len(ran[1]))
    # each A seed is one trial: it holds when it beats every B seed, fails when some B seed
    # beats it, is undecided otherwise (or when it lacks a pair the others have)
    per_a = {seed_label(a): ("fails" if "fails" in ds else
                             "holds" if len(ds) == sides[1] and set(ds) == {"holds"} else
                             "undecided") for a, ds in by_a.items()}
    out = seeds_verdict(per_a, n_informative=n_informative, min_seeds=min_seeds)
    pairs_k = sum(d == "holds" for d in decisions.values())
    pairs_f = sum(d == "fails" for d in decisions.values())
    out.update(reachable=reachable_text(out))
    del out["seeds"], out["some_seed_holds"]
    out.update(fraction_interval=fraction_text(out), seeds=f"{sides[0]} x {sides[1]}",
               a_seeds=", ".join(f"{s} {d}" for s, d in per_a.items()),
               pairs_k=pairs_k, pairs_n=len(decisions),
               pairs_k_of_n=f"{pairs_k} of {len(decisions)}", pairs_fail=pairs_f,
               informative=f"{n_informative} of {len(decisions)} pairs",
               per_pair="; ".join(notes), worst_pair=worst[1] if worst else "none")
    return out


def versus_fixed_claim(instances: Sequence[Mapping], a_keys: Sequence[str],
                       fixed: Sequence[str], *, families=None, min_seeds: int = MIN_SEEDS,
                       n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict:
    """"No method of ``fixed`` (deterministic: heuristics) is better than A" from a figure
    JSON's per-instance records, each seed key of ``a_keys`` decided on its own (module
    docstring) on the paired differences A - H at every (H, family, size) point, then
    :func:`seeds_verdict` over A's seeds.

    Returns the verdict object with ``k_of_n``, ``fraction_interval``, ``some_seed``,
    ``per_seed`` (each seed's decision and deciding point ``H:family@n`` with A - H there) and
    ``beaten_by`` (per fixed method, how many seeds it beats beyond the noise somewhere).
    """
    decisions, notes, beaten = {}, [], {h: 0 for h in fixed}
    per_seed = {}
    for a in a_keys:
        per_seed[a] = {}
        for h in fixed:
            diffs, _ = _pair_differences(instances, a, h, families)
            per_seed[a].update({f"{h}:{p}": v for p, v in diffs.items()})
    required = graphs_required(per_seed.values())
    for a, values in per_seed.items():
        if not values:
            continue
        d = seed_decision(values, 0.0, required=required, n_resamples=n_resamples, seed=seed)
        label = seed_label(a)
        decisions[label] = d["decision"]
        if d["decision"] == "fails":
            for h in fixed:
                beaten[h] += any(q.startswith(f"{h}:") and d["points"][q]["fail"]["low"] > 0
                                 for q in d["points"])
        notes.append(_difference_note(label, d)[1] if d["deciding_point"] is not None
                     else f"{label} {d['decision']} ({d['why']})" if d["incomplete"]
                     else f"{label} {d['decision']}")
    if not decisions:
        return {"verdict": "undecided", "k_of_n": "0 of 0", "why": "no shared records",
                "per_seed": "none", "fraction_interval": "none", "some_seed": "none",
                "beaten_by": "none"}
    out = seeds_verdict(decisions, min_seeds=min_seeds)
    del out["seeds"]
    out.update(fraction_interval=fraction_text(out), some_seed=some_seed_text(decisions),
               per_seed="; ".join(notes),
               beaten_by=", ".join(f"{h} {n} of {len(decisions)} seed"
                                   f"{'s' * (len(decisions) != 1)}" for h, n in beaten.items()))
    return out


def rate_claim(outcomes: Mapping[str, Sequence[float]], bar: float, *, strict: bool = False,
               alpha: float = ALPHA, min_seeds: int = MIN_SEEDS) -> dict:
    """"The property holds on at least a fraction ``bar`` of graphs" (``strict``: more than
    ``bar``), each seed on its own (module docstring): ``outcomes[seed]`` are the seed's
    per-graph outcomes (1 holds, 0 not).  Returns :func:`seeds_verdict`'s object with
    ``fraction_interval``, ``some_seed`` and ``per_seed`` (each seed's rate, its interval and
    decision)."""
    decisions, notes = {}, []
    for label, vals in outcomes.items():
        n = len(vals)
        if n == 0:
            continue
        k = float(sum(vals))
        low, high = wilson(k, n, 1 - alpha)
        holds = low > bar if strict else low >= bar
        fails = high <= bar if strict else high < bar
        decisions[label] = "holds" if holds else "fails" if fails else "undecided"
        notes.append(f"{label} {k / n:.2f} [{low:.2f}, {high:.2f}] {decisions[label]}")
    if not decisions:
        return {"verdict": "undecided", "k_of_n": "0 of 0", "why": "no per-graph outcomes",
                "fraction_interval": "none", "some_seed": "none", "per_seed": "none"}
    out = seeds_verdict(decisions, min_seeds=min_seeds)
    del out["seeds"]
    out.update(fraction_interval=fraction_text(out), some_seed=some_seed_text(decisions),
               per_seed="; ".join(notes), bar=bar)
    return out


def mostly_verdict(mostly: Mapping, sometimes: Mapping) -> str:
    """A strong reading and a narrower one of the same claim, each a :func:`seeds_verdict`
    object (D.3 (5)'s "mostly" and "at least sometimes" of :func:`rate_claim`, module
    docstring; also "in every cell" and "in some cell"): ``mostly`` decides; where it is
    refuted, ``sometimes`` confirmed makes the claim ``qualified`` (the narrower reading holds)
    and otherwise it stays ``refuted``: the claim as stated is refuted, and a narrower reading
    qualifies it only when that reading is itself confirmed (revised after the data had been
    seen: before, an undecided or seed-dependent narrower reading gave the headline its word)."""
    if mostly["verdict"] != "refuted":
        return mostly["verdict"]
    return "qualified" if sometimes["verdict"] == "confirmed" else "refuted"


def pair_claims(tables: Mapping[str, tuple], *, min_seeds: int = MIN_SEEDS,
                n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict:
    """Several comparisons read as one claim, "A is better than every B": ``tables[tag] =
    (records, A's seed keys, B's seed keys)``, each decided by :func:`pair_claim`, combined
    by :func:`combined_verdict` (``pending`` with no comparison).  Evidence: ``comparisons``,
    ``pairs`` (all comparisons' pairs) and ``pairs_holding``, ``by_verdict`` (how many
    comparisons got each word), ``confirmed_for`` / ``refuted_for`` (tags), and
    ``per_comparison``: each tag's verdict, pairs holding with the interval of the fraction,
    failing and undecided pairs, seeds a side, and the pair with the largest difference."""
    got = {t: pair_claim(rec, a, b, min_seeds=min_seeds, n_resamples=n_resamples, seed=seed)
           for t, (rec, a, b) in tables.items()}
    got = {t: g for t, g in got.items() if g.get("n")}

    def tags(word):
        return ", ".join(t for t, g in got.items() if g["verdict"] == word) or "none"
    words = [g["verdict"] for g in got.values()]
    return {"verdict": combined_verdict(words) if got else "pending", "comparisons": len(got),
            "pairs": sum(g["pairs_n"] for g in got.values()),
            "pairs_holding": sum(g["pairs_k"] for g in got.values()),
            "by_verdict": ", ".join(f"{words.count(w)} {w}" for w in SEED_VERDICTS
                                    if w in words) or "none",
            "confirmed_for": tags("confirmed"), "refuted_for": tags("refuted"),
            "per_comparison": "; ".join(
                f"{t}: {g['verdict']} (seeds better than every baseline seed {g['k_of_n']} "
                f"{g['fraction_interval']}, beaten {g['fails']}, undecided {g['undecided']}; "
                f"pairs holding {g['pairs_k_of_n']}, failing {g['pairs_fail']}; seeds "
                f"{g['seeds']}; largest A - B: {g['worst_pair']})" for t, g in got.items())
            or "none"}


def combined_verdict(kinds: Sequence[str]) -> str:
    """One verdict from several parts' verdicts (module docstring; also the headline claim
    over three problems): any refuted refutes; all confirmed confirm; all uninformative is
    uninformative; otherwise the weakest word in use -- seed-dependent, then undecided (also
    for an inconclusive or pending part) -- and qualified when every part is confirmed,
    qualified or uninformative (the claim holds where it could be tested).  (One rule for
    Figure 2's types, the baseline comparisons and the three problems since before the
    ten-seed data; before, the headline read a confirmed-plus-uninformative mix as
    uninformative and Figure 2 read confirmed-plus-qualified as undecided.)"""
    if "refuted" in kinds:
        return "refuted"
    if all(k == "confirmed" for k in kinds):
        return "confirmed"
    if all(k == "uninformative" for k in kinds):
        return "uninformative"
    if "seed-dependent" in kinds:
        return "seed-dependent"
    if any(k not in ("confirmed", "qualified", "uninformative") for k in kinds):
        return "undecided"
    return "qualified"
