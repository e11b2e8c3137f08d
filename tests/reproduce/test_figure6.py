"""Figure 6's verdict rules on hand-made plotted means, and the script end to end.

* ``fig6-adversarial``: the planted-trained model within 1.01 on bipartite and the greedy worst
  case is qualified below 3,200 vertices and confirmed at 3,200; above 1.01 on either refutes;
  no planted model is pending;
* ``intro-adversarial``: better (by more than the margin) on both hard families and worse on
  none confirms; better on neither refutes; anything between is qualified.
"""

import json

from reproduce import figure6, settings
from reproduce.figure6 import FAMILIES, derive_verdicts


def _series(v, sizes):
    return {str(n): {"mean": v, "std": 0.0, "count": 3} for n in sizes}


def _result(planted=None, er=None, sizes=(25, 400)):
    """``planted`` / ``er``: family -> worst mean (default planted 1.005 everywhere, ER-trained
    1.05 everywhere); ``planted=False`` drops the planted model."""
    er = {f: 1.05 for f in FAMILIES} | (er or {})
    pl = None if planted is False else {f: 1.005 for f in FAMILIES} | (planted or {})
    points = {f: {"g2s_rnn": _series(er[f], sizes)} for f in FAMILIES}
    if pl is not None:
        for f in FAMILIES:
            points[f]["planted"] = _series(pl[f], sizes)
    return {"profile": "ci", "points": points,
            "seeds": {"g2s_rnn": [0, 1, 2], "planted": [] if pl is None else [0]},
            "missing_checkpoints": [] if pl else ["g2s_rnn_mvc_planted15_s0.pt"]}


def test_within_one_percent_is_qualified_below_3200_and_confirmed_at_3200():
    v = derive_verdicts(_result())
    assert v["fig6-adversarial"]["verdict"] == "qualified"
    assert v["fig6-adversarial"]["planted_bipartite"] == "1.005@25"
    assert derive_verdicts(_result(sizes=(25, 3200)))["fig6-adversarial"]["verdict"] == \
        "confirmed"


def test_above_one_percent_on_a_hard_family_refutes():
    for f in ("bipartite", "greedy_worst"):
        v = derive_verdicts(_result(planted={f: 1.02}, sizes=(25, 3200)))["fig6-adversarial"]
        assert v["verdict"] == "refuted"
    # the ER and regular panels do not enter this claim
    v = derive_verdicts(_result(planted={"er": 1.3}, sizes=(25, 3200)))["fig6-adversarial"]
    assert v["verdict"] == "confirmed"


def test_no_planted_model_is_pending():
    v = derive_verdicts(_result(planted=False))
    assert v["fig6-adversarial"]["verdict"] == "pending"
    assert v["intro-adversarial"]["verdict"] == "pending"
    assert v["fig6-adversarial"]["missing"] == "g2s_rnn_mvc_planted15_s0.pt"


def test_intro_adversarial_rule():
    assert derive_verdicts(_result())["intro-adversarial"]["verdict"] == "confirmed"
    # better on the hard families but worse on ER: qualified
    v = derive_verdicts(_result(planted={"er": 1.2}))["intro-adversarial"]
    assert v["verdict"] == "qualified" and v["worse_on"] == "er"
    # better on only one hard family: qualified
    v = derive_verdicts(_result(planted={"bipartite": 1.05}))["intro-adversarial"]
    assert v["verdict"] == "qualified" and v["better_on"] == "er, regular, greedy_worst"
    # within the margin on both hard families: no boost, refuted
    v = derive_verdicts(_result(planted={"bipartite": 1.045, "greedy_worst": 1.055}))
    assert v["intro-adversarial"]["verdict"] == "refuted"


def test_one_graph_per_panel_end_to_end(tmp_path, monkeypatch):
    """Invariants: each present checkpoint is evaluated on every instance and each absent one
    is listed; the curves are the seed means; the stored verdicts are the re-derived ones."""
    monkeypatch.setitem(settings.GRID_PROFILES, "smoke", ((25,), 1))
    figure6.main(["--profile", "smoke", "--out", str(tmp_path)])
    out = json.loads((tmp_path / "figure6.json").read_text())
    assert (tmp_path / "figure6.png").exists()
    expected = figure6.checkpoint_paths()
    present = {f"{c}_s{s}" for c, seeds in out["seeds"].items() for s in seeds}
    assert present | {m for m, p in expected.items()
                      if p.name in out["missing_checkpoints"]} == set(expected)
    assert len(out["instances"]) == len(FAMILIES)
    for row in out["instances"]:
        assert all(m in row["results"] for m in present)
        for c, seeds in out["seeds"].items():
            if seeds:
                mean = sum(row["results"][f"{c}_s{s}"]["ratio"] for s in seeds) / len(seeds)
                assert abs(row["results"][c]["ratio"] - mean) < 1e-12
    payload = dict(out)
    stored = payload.pop("verdicts")
    assert stored == json.loads(json.dumps(derive_verdicts(payload)))
