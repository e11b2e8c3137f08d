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

Informative points (:func:`informative_points`): a point where a trivial solver's mean ratio
already meets the bar tells nothing about the model; only the other points count.  A claim
with no informative point is ``uninformative``.

Step 2 -- the seeds (:func:`seeds_verdict`)
-------------------------------------------
With k seeds holding, f failing and u undecided of n = k + f + u, the fraction of seeds for
which the claim holds is estimated with a Wilson score interval (95%, ``scipy.stats.binomtest``;
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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scipy import stats

from reproduce.harness.settings import MIN_SEEDS
from reproduce.harness.verdicts.records import seed_label
from reproduce.harness.verdicts.rule import N_RESAMPLES, SEED, interval_over_graphs

__all__ = ["ALPHA", "SEED_CONFIDENCE", "MIN_SEEDS", "SEED_VERDICTS", "seed_decision",
           "seeds_verdict", "seed_claim", "informative_points", "wilson", "fraction_text",
           "some_seed_text"]

#: per-seed test level over graphs (step 1)
ALPHA = 0.05
#: confidence of the Wilson interval of the fraction of seeds that hold (step 2)
SEED_CONFIDENCE = 0.95
# MIN_SEEDS (reproduce.harness.settings): fewer seeds than this are ``undecided`` whatever they
# show, the same minimum for every rule that decides on seeds
#: the verdict words of this rule, each with one meaning (module docstring)
SEED_VERDICTS = ("confirmed", "refuted", "seed-dependent", "undecided", "uninformative")


def wilson(k: int, n: int, confidence: float = SEED_CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` trials (``(0, 1)`` when ``n == 0``)."""
    if n == 0:
        return 0.0, 1.0
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence,
                                                       method="wilson")
    return float(ci.low), float(ci.high)


def _meets(value: float, bar: float, direction: str) -> bool:
    return value <= bar if direction == "<=" else value >= bar


def informative_points(null_means: Mapping[str, float], bar: float,
                       direction: str = "<=") -> list[str]:
    """The points where the trivial solver's mean ratio misses the bar (only they count)."""
    if direction not in ("<=", ">="):
        raise ValueError(f"direction must be '<=' or '>=', got {direction!r}")
    return [p for p, v in null_means.items() if not _meets(v, bar, direction)]


def seed_decision(values: Mapping[str, Sequence[float]], bar: float, *, direction: str = "<=",
                  points: Sequence[str] | None = None, alpha: float = ALPHA,
                  n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict:
    """Step 1 (module docstring): ``holds`` / ``fails`` / ``undecided`` for one seed.

    ``values[point]`` are the seed's per-graph values at that point; ``points`` restricts the
    decision to the informative ones (default: all).  Returns the decision, the deciding point
    and every point's two intervals.
    """
    if direction not in ("<=", ">="):
        raise ValueError(f"direction must be '<=' or '>=', got {direction!r}")
    pts = [p for p in (values if points is None else points) if len(values.get(p, ())) > 0]
    if not pts:
        return {"decision": "undecided", "deciding_point": None, "points": {},
                "why": "no informative point with data"}
    k = len(pts)
    hold_conf, fail_conf = 1 - alpha, 1 - alpha / k
    recs = {}
    for p in pts:
        recs[p] = {"hold": interval_over_graphs(values[p], confidence=hold_conf,
                                                n_resamples=n_resamples, seed=seed),
                   "fail": interval_over_graphs(values[p], confidence=fail_conf,
                                                n_resamples=n_resamples, seed=seed)}
    le = direction == "<="

    def near(p):  # the end of the "hold" interval on the far side from the claim
        r = recs[p]["hold"]
        return r["high"] if le else -r["low"]

    def past(p):  # how far the "fail" interval lies past the bar
        r = recs[p]["fail"]
        return r["low"] - bar if le else bar - r["high"]

    failing = [p for p in pts if past(p) > 0]
    if failing:
        decision, point = "fails", max(failing, key=past)
    elif all(_meets(recs[p]["hold"]["high" if le else "low"], bar, direction) for p in pts):
        decision, point = "holds", max(pts, key=near)
    else:
        decision = "undecided"
        point = max((p for p in pts if not _meets(recs[p]["hold"]["high" if le else "low"],
                                                   bar, direction)), key=near)
    return {"decision": decision, "deciding_point": point, "n_points": k,
            "confidence_hold": hold_conf, "confidence_fail": fail_conf, "points": recs}


def seeds_verdict(decisions: Mapping[str, str] | Sequence[str], *,
                  n_informative: int | None = None, min_seeds: int = MIN_SEEDS,
                  confidence: float = SEED_CONFIDENCE) -> dict:
    """Step 2 (module docstring): the verdict word from the seeds' decisions.

    ``decisions``: each seed's ``holds`` / ``fails`` / ``undecided`` (a mapping seed -> decision
    keeps the seed names in the record).  ``n_informative=0`` makes the claim
    ``uninformative``.
    """
    named = dict(decisions) if isinstance(decisions, Mapping) else dict(enumerate(decisions))
    bad = {d for d in named.values() if d not in ("holds", "fails", "undecided")}
    if bad:
        raise ValueError(f"unknown seed decision(s) {sorted(bad)}")
    k = sum(d == "holds" for d in named.values())
    f = sum(d == "fails" for d in named.values())
    u = sum(d == "undecided" for d in named.values())
    n = k + f + u
    low, _ = wilson(k, n, confidence)
    _, high = wilson(k + u, n, confidence)
    if n_informative == 0:
        verdict = "uninformative"
    elif n < min_seeds:
        verdict = "undecided"
    elif low > 0.5:
        verdict = "confirmed"
    elif high < 0.5:
        verdict = "refuted"
    elif k and f and not (wilson(k + u, n, confidence)[0] > 0.5
                          or wilson(k, n, confidence)[1] < 0.5):
        verdict = "seed-dependent"
    else:
        verdict = "undecided"
    return {"verdict": verdict, "k": k, "fails": f, "undecided": u, "n": n,
            "k_of_n": f"{k} of {n}", "fraction_interval": [round(low, 4), round(high, 4)],
            "confidence": confidence, "some_seed_holds": k > 0,
            "seeds": {str(s): d for s, d in named.items()}}


def fraction_text(verdict: Mapping) -> str:
    """The Wilson interval of :func:`seeds_verdict`'s fraction as evidence shows it."""
    low, high = verdict["fraction_interval"]
    return f"[{low:.2f}, {high:.2f}]"


def some_seed_text(decisions: Mapping[str, str]) -> str:
    """The second line of a seed verdict: which seeds hold, if any (module docstring)."""
    holding = [s for s, d in decisions.items() if d == "holds"]
    return "yes: " + ", ".join(holding) if holding else "no seed holds"


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
        null_note = f"{len(points) - len(informative)} met by the trivial solver"
    else:
        informative = list(points)
        null_note = "no trivial-solver run in this JSON: every point counted"
    decisions, notes = {}, []
    for k, values in per_seed.items():
        if not values:
            continue
        d = seed_decision(values, bar, direction=direction, points=informative,
                          n_resamples=n_resamples, seed=seed)
        label = seed_label(k)
        decisions[label] = d["decision"]
        p = d["deciding_point"]
        if p is not None:
            iv = d["points"][p]["hold" if d["decision"] != "fails" else "fail"]
            notes.append(f"{label} {d['decision']} ({p}: {iv['estimate']:.3f} "
                         f"[{iv['low']:.3f}, {iv['high']:.3f}])")
        else:
            notes.append(f"{label} {d['decision']}")
    if not decisions:
        return {"verdict": "undecided", "k_of_n": "0 of 0", "why": "no records of this model",
                "informative": f"0 of {len(points)} points", "per_seed": "none"}
    out = seeds_verdict(decisions, n_informative=len(informative), min_seeds=min_seeds)
    out.update(informative=f"{len(informative)} of {len(points)} points ({null_note})",
               per_seed="; ".join(notes), bar=bar, direction=direction,
               fraction_interval=fraction_text(out), some_seed=some_seed_text(decisions))
    del out["seeds"]
    return out
