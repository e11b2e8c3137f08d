"""Headline claims of the abstract and introduction (rules in :mod:`reproduce.headline`).

The ledger's ``pytest:`` checks of ``abs-sota`` and ``intro-three-problems`` pass exactly when
the recorded verdict is right: each rule is tested on hand-made inputs, then applied to the
figures' committed JSON (re-derived by the figure scripts' own ``derive_verdicts``).
"""

from reproduce.headline import headline_verdicts, sota_verdict, three_problems_verdict


def test_rules_on_hand_made_inputs():
    ok = {"verdict": "qualified"}
    v = {"figure3": {"fig3-g2s-within-10pct": ok},
         "figure4": {"fig4-maxcut": ok, "fig4-mis-er": ok, "fig4-mis-bipartite": ok}}
    assert three_problems_verdict(v) == "qualified"
    v["figure3"]["fig3-g2s-within-10pct"] = {"verdict": "inconclusive"}
    assert three_problems_verdict(v) == "inconclusive"
    v["figure4"]["fig4-maxcut"] = {"verdict": "refuted"}
    assert three_problems_verdict(v) == "refuted"
    assert sota_verdict({"mvc": 0.0, "maxcut": 0.0, "mis": 0.0}) == "confirmed"
    assert sota_verdict({"mvc": 0.2, "maxcut": 0.0, "mis": 0.0}) == "qualified"
    assert sota_verdict({"mvc": 0.2, "maxcut": 0.6, "mis": 0.0}) == "refuted"
    assert sota_verdict({"mvc": 0.0, "maxcut": None, "mis": 0.0}) == "inconclusive"
    assert sota_verdict({"mvc": 0.2, "maxcut": None, "mis": 0.0}) == "qualified"


def test_intro_three_problems_on_the_committed_json():
    assert headline_verdicts()["intro-three-problems"] == "inconclusive"


def test_abs_sota_on_the_committed_json():
    assert headline_verdicts()["abs-sota"] == "qualified"
