"""Headline claims of the abstract and introduction, derived from the figures' committed JSON.

Each test re-derives the figure verdicts with the figure scripts' own ``derive_verdicts`` (so an
edited number is caught) and applies the headline's rule; the ledger's ``pytest:`` checks of
``abs-sota`` and ``intro-three-problems`` pass exactly when the recorded verdict is right.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from reproduce import figure3, figure4  # noqa: E402

#: the per-problem threshold claims of Section 5 ("strong scalability and generalization")
THRESHOLD_CLAIMS = (("figure3", "fig3-g2s-within-10pct"), ("figure4", "fig4-maxcut"),
                    ("figure4", "fig4-mis-er"), ("figure4", "fig4-mis-bipartite"))


def _verdicts() -> dict:
    out = {}
    for name, mod in (("figure3", figure3), ("figure4", figure4)):
        result = json.loads((ROOT / "paper_figures" / f"{name}.json").read_text())
        out[name] = mod.derive_verdicts(result)
    return out


def three_problems_verdict(v: dict) -> str:
    """Refuted if any per-problem threshold claim is refuted; confirmed only if all are
    confirmed (paper scale); qualified otherwise."""
    kinds = [v[fig][claim]["verdict"] for fig, claim in THRESHOLD_CLAIMS]
    if "refuted" in kinds:
        return "refuted"
    return "confirmed" if all(k == "confirmed" for k in kinds) else "qualified"


def sota_verdict(v: dict, beaten_at: dict) -> str:
    """"As well or better than the best non-learning heuristic on all three problems": refuted
    when on some problem a heuristic has a lower mean ratio at more than half of the plotted
    points; qualified when it is lower anywhere; confirmed otherwise."""
    share = max(beaten_at.values())
    if share > 0.5:
        return "refuted"
    return "qualified" if share > 0 else "confirmed"


def _beaten_share() -> dict:
    v = _verdicts()
    mvc = v["figure3"]["fig3-g2s-beats-heuristics"]
    share = {"mvc": mvc["beaten_points"] / mvc["points"]}
    result = json.loads((ROOT / "paper_figures" / "figure4.json").read_text())
    for problem in ("maxcut", "mis"):
        panels = result["points"][problem]
        pts = [(f, n) for f in panels for n in panels[f]["g2s_rnn"]]
        beaten = sum(any(panels[f][h][n]["mean"] < panels[f]["g2s_rnn"][n]["mean"] - 1e-12
                         for h in figure4.HEURISTICS[problem]) for f, n in pts)
        share[problem] = beaten / len(pts)
    return share


def test_rules_on_hand_made_inputs():
    ok = {"verdict": "qualified"}
    v = {"figure3": {"fig3-g2s-within-10pct": ok},
         "figure4": {"fig4-maxcut": ok, "fig4-mis-er": ok, "fig4-mis-bipartite": ok}}
    assert three_problems_verdict(v) == "qualified"
    v["figure4"]["fig4-maxcut"] = {"verdict": "refuted"}
    assert three_problems_verdict(v) == "refuted"
    assert sota_verdict({}, {"mvc": 0.0, "maxcut": 0.0, "mis": 0.0}) == "confirmed"
    assert sota_verdict({}, {"mvc": 0.2, "maxcut": 0.0, "mis": 0.0}) == "qualified"
    assert sota_verdict({}, {"mvc": 0.2, "maxcut": 0.6, "mis": 0.0}) == "refuted"


def test_intro_three_problems_is_refuted():
    assert three_problems_verdict(_verdicts()) == "refuted"


def test_abs_sota_is_refuted():
    assert sota_verdict(_verdicts(), _beaten_share()) == "refuted"
