"""The headline claims of the abstract and introduction, decided from the figures' JSON.

``abs-sota`` and ``intro-three-problems`` rest on Figures 3 and 4 together, so they are not one
script's ``derive_verdicts``: :func:`headline_verdicts` re-derives both figures' verdicts with the
scripts' own rules (an edited number is caught) and applies the two rules below.  The ledger's
``pytest:`` checks of those claims run ``tests/reproduce/test_headline_claims.py``, which tests
each rule on hand-made inputs and then on the committed JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

from reproduce.common import DEFAULT_OUT
from reproduce.harness import settings as S

__all__ = ["THRESHOLD_CLAIMS", "three_problems_verdict", "sota_verdict", "beaten_share",
           "headline_verdicts"]

#: the per-problem threshold claims of Section 5 ("strong scalability and generalization")
THRESHOLD_CLAIMS = (("figure3", "fig3-g2s-within-10pct"), ("figure4", "fig4-maxcut"),
                    ("figure4", "fig4-mis-er"), ("figure4", "fig4-mis-bipartite"))


def three_problems_verdict(verdicts: dict) -> str:
    """``intro-three-problems`` ("strong scalability and generalization in each of minimum
    vertex cover, maximum cut and maximum independent set"), from ``verdicts[figure][claim]``
    of :data:`THRESHOLD_CLAIMS`: refuted if any per-problem threshold claim is refuted;
    confirmed only if all are confirmed (paper scale); inconclusive if any is inconclusive;
    qualified otherwise."""
    kinds = [verdicts[fig][claim]["verdict"] for fig, claim in THRESHOLD_CLAIMS]
    if "refuted" in kinds:
        return "refuted"
    if all(k == "confirmed" for k in kinds):
        return "confirmed"
    return "inconclusive" if "inconclusive" in kinds else "qualified"


def sota_verdict(share: dict) -> str:
    """``abs-sota`` ("as well or better than the best non-learning heuristic" on all three
    problems), from ``share[problem]``: the fraction of (family, size) points where some
    heuristic's ratio is lower than G2S-RNN's beyond the noise (:func:`beaten_share`), or None
    where that could not be decided (fewer than ``S.MIN_SEEDS`` seeds).  Refuted when it
    exceeds one half on some problem; qualified when it is positive anywhere; inconclusive
    when some problem is undecided; confirmed otherwise."""
    known = [v for v in share.values() if v is not None]
    if known and max(known) > S.MAJORITY:
        return "refuted"
    if known and max(known) > 0:
        return "qualified"
    return "inconclusive" if len(known) < len(share) else "confirmed"


def beaten_share(results: dict) -> dict:
    """Per problem, the fraction of G2S-RNN's (family, size) points where some heuristic is
    better beyond the noise: the paired comparisons of
    :func:`reproduce.harness.verdicts.comparison_claim` (one Bonferroni family per problem, at least
    ``S.MIN_SEEDS`` G2S-RNN seeds, else None).  MVC from Figure 3, max cut and MIS from
    Figure 4.  (Before the interval rules: a plotted mean below G2S-RNN's, without intervals.)"""
    from reproduce.harness import verdicts as rule
    per_problem = {"mvc": results["figure3"]["instances"],
                   **{p: results["figure4"]["instances"][p] for p in ("maxcut", "mis")}}
    share = {}
    for problem, rows in per_problem.items():
        g2s = rule.seed_keys(rows, "g2s_rnn")
        got = rule.comparison_claim(rows, g2s, {h: [h] for h in S.HEURISTICS[problem]}, 0.0)
        points = {(r["family"], r["n"]) for r in rows if g2s[0] in r["results"]}
        beaten = {p.split(":", 1)[1] for p in got["intervals"]
                  if p in got["failing"].split(", ")}
        share[problem] = None if len(g2s) < S.MIN_SEEDS else len(beaten) / len(points)
    return share


def headline_verdicts(folder: Path = DEFAULT_OUT) -> dict:
    """``{"abs-sota": ..., "intro-three-problems": ...}`` from ``folder``'s figure3.json and
    figure4.json, with both figures' verdicts re-derived by their scripts."""
    from reproduce import figure3, figure4
    results = {name: json.loads((Path(folder) / f"{name}.json").read_text())
               for name in ("figure3", "figure4")}
    verdicts = {"figure3": figure3.derive_verdicts(results["figure3"]),
                "figure4": figure4.derive_verdicts(results["figure4"])}
    return {"abs-sota": sota_verdict(beaten_share(results)),
            "intro-three-problems": three_problems_verdict(verdicts)}
