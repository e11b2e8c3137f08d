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
from reproduce.harness.verdicts.seeds import combined_verdict

__all__ = ["THRESHOLD_CLAIMS", "three_problems_verdict", "sota_verdict", "point_outcomes",
           "headline_verdicts"]

#: the per-problem threshold claims of Section 5 ("strong scalability and generalization")
THRESHOLD_CLAIMS = (("figure3", "fig3-g2s-within-10pct"), ("figure4", "fig4-maxcut"),
                    ("figure4", "fig4-mis-er"), ("figure4", "fig4-mis-bipartite"))


def three_problems_verdict(verdicts: dict) -> str:
    """``intro-three-problems`` ("strong scalability and generalization in each of minimum
    vertex cover, maximum cut and maximum independent set"), from ``verdicts[figure][claim]``
    of :data:`THRESHOLD_CLAIMS` (each by the seed rule), combined as every multi-part claim is
    (:func:`reproduce.harness.verdicts.seeds.combined_verdict`)."""
    return combined_verdict([verdicts[fig][claim]["verdict"] for fig, claim in THRESHOLD_CLAIMS])


def sota_verdict(outcomes: dict) -> str:
    """``abs-sota`` ("as well or better than the best non-learning heuristic" on all three
    problems), from ``outcomes[problem]`` (:func:`point_outcomes`): at each (family, size)
    point G2S-RNN is *beaten* (some heuristic lower beyond the noise), *not worse* (no
    heuristic can be lower: every paired interval's upper end <= 0) or *undecided*.  Refuted
    when more than half the points of some problem are beaten; undecided when some point is
    undecided or a problem rests on fewer than ``S.MIN_SEEDS`` seeds (an undecided point is
    not counted as passing); qualified when some point is beaten; confirmed when every point
    of every problem is not worse.  (Revised before the ten-seed data: undecided points used
    to count as passing.)"""
    known = [o for o in outcomes.values() if o is not None]
    if any(o["beaten"] > S.MAJORITY * o["points"] for o in known):
        return "refuted"
    if len(known) < len(outcomes) or any(o["undecided"] for o in known):
        return "undecided"
    return "qualified" if any(o["beaten"] for o in known) else "confirmed"


def point_outcomes(results: dict) -> dict:
    """Per problem, G2S-RNN's (family, size) points that some heuristic beats beyond the noise,
    those no heuristic can beat, and the undecided rest: the paired comparisons of
    :func:`reproduce.harness.verdicts.comparison_claim` (one Bonferroni family per problem; None
    with fewer than ``S.MIN_SEEDS`` G2S-RNN seeds).  MVC from Figure 3, max cut and MIS from
    Figure 4."""
    from reproduce.harness import verdicts as rule
    per_problem = {"mvc": results["figure3"]["instances"],
                   **{p: results["figure4"]["instances"][p] for p in ("maxcut", "mis")}}
    out = {}
    for problem, rows in per_problem.items():
        g2s = rule.seed_keys(rows, "g2s_rnn")
        got = rule.comparison_claim(rows, g2s, {h: [h] for h in S.HEURISTICS[problem]}, 0.0)
        points = {f"{r['family']}@{r['n']}" for r in rows if g2s[0] in r["results"]}
        failing = set(got["failing"].split(", "))
        beaten, clear = set(), {p: True for p in points}
        for p, (_low, high) in got["intervals"].items():
            point = p.split(":", 1)[1]
            if p in failing:
                beaten.add(point)
            if high > 0:
                clear[point] = False
        out[problem] = None if len(g2s) < S.MIN_SEEDS else {
            "points": len(points), "beaten": len(beaten),
            "not_worse": sum(1 for p, ok in clear.items() if ok and p not in beaten),
            "undecided": sum(1 for p, ok in clear.items() if not ok and p not in beaten)}
    return out


def headline_verdicts(folder: Path = DEFAULT_OUT) -> dict:
    """``{"abs-sota": ..., "intro-three-problems": ...}`` from ``folder``'s figure3.json and
    figure4.json, with both figures' verdicts re-derived by their scripts."""
    from reproduce import figure3, figure4
    results = {name: json.loads((Path(folder) / f"{name}.json").read_text())
               for name in ("figure3", "figure4")}
    verdicts = {"figure3": figure3.derive_verdicts(results["figure3"]),
                "figure4": figure4.derive_verdicts(results["figure4"])}
    return {"abs-sota": sota_verdict(point_outcomes(results)),
            "intro-three-problems": three_problems_verdict(verdicts)}
