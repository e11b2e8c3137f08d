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

from reproduce import settings as S
from reproduce.common import DEFAULT_OUT

__all__ = ["THRESHOLD_CLAIMS", "three_problems_verdict", "sota_verdict", "beaten_share",
           "headline_verdicts"]

#: the per-problem threshold claims of Section 5 ("strong scalability and generalization")
THRESHOLD_CLAIMS = (("figure3", "fig3-g2s-within-10pct"), ("figure4", "fig4-maxcut"),
                    ("figure4", "fig4-mis-er"), ("figure4", "fig4-mis-bipartite"))


def three_problems_verdict(verdicts: dict) -> str:
    """``intro-three-problems`` ("strong scalability and generalization in each of minimum
    vertex cover, maximum cut and maximum independent set"), from ``verdicts[figure][claim]``
    of :data:`THRESHOLD_CLAIMS`: refuted if any per-problem threshold claim is refuted;
    confirmed only if all are confirmed (paper scale); qualified otherwise."""
    kinds = [verdicts[fig][claim]["verdict"] for fig, claim in THRESHOLD_CLAIMS]
    if "refuted" in kinds:
        return "refuted"
    return "confirmed" if all(k == "confirmed" for k in kinds) else "qualified"


def sota_verdict(share: dict) -> str:
    """``abs-sota`` ("as well or better than the best non-learning heuristic" on all three
    problems), from ``share[problem]``, the fraction of plotted points where some heuristic
    has a lower mean ratio than G2S-RNN: refuted when it exceeds one half on some problem;
    qualified when it is positive anywhere; confirmed otherwise."""
    worst = max(share.values())
    if worst > S.MAJORITY:
        return "refuted"
    return "qualified" if worst > 0 else "confirmed"


def beaten_share(verdicts: dict, figure4: dict) -> dict:
    """Per problem, the fraction of plotted G2S-RNN points where a heuristic's mean ratio is
    lower: MVC from Figure 3's ``fig3-g2s-beats-heuristics`` verdict, max cut and MIS from
    Figure 4's points."""
    mvc = verdicts["figure3"]["fig3-g2s-beats-heuristics"]
    share = {"mvc": mvc["beaten_points"] / mvc["points"]}
    for problem in ("maxcut", "mis"):
        panels = figure4["points"][problem]
        pts = [(f, n) for f in panels for n in panels[f]["g2s_rnn"]]
        beaten = sum(any(panels[f][h][n]["mean"] < panels[f]["g2s_rnn"][n]["mean"] - S.EPS
                         for h in S.HEURISTICS[problem]) for f, n in pts)
        share[problem] = beaten / len(pts)
    return share


def headline_verdicts(folder: Path = DEFAULT_OUT) -> dict:
    """``{"abs-sota": ..., "intro-three-problems": ...}`` from ``folder``'s figure3.json and
    figure4.json, with both figures' verdicts re-derived by their scripts."""
    from reproduce import figure3, figure4
    results = {name: json.loads((Path(folder) / f"{name}.json").read_text())
               for name in ("figure3", "figure4")}
    verdicts = {"figure3": figure3.derive_verdicts(results["figure3"]),
                "figure4": figure4.derive_verdicts(results["figure4"])}
    return {"abs-sota": sota_verdict(beaten_share(verdicts, results["figure4"])),
            "intro-three-problems": three_problems_verdict(verdicts)}
