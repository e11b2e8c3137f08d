"""Figure 6's verdict rules (reproduce/harness/verdicts/ intervals) on hand-made per-instance
records, and the script end to end.

* ``fig6-adversarial``: the planted-trained model within 1.01 beyond the noise on bipartite and
  the greedy worst case is qualified below 3,200 vertices and confirmed at 3,200; above 1.01
  beyond the noise on either refutes; fewer than 3 seeds is inconclusive; no planted model is
  pending;
* ``intro-adversarial``: paired differences planted - ER-trained; better on both hard families
  and worse nowhere confirms; worse on a hard family refutes; better on one hard family is
  qualified; nothing beyond the noise is inconclusive.
"""

import json

import numpy as np

from reproduce import figure6
from reproduce.figure6 import FAMILIES, derive_verdicts
from reproduce.harness import settings

JITTER = np.linspace(0.0, 0.004, 10)


def _result(planted=None, er=None, sizes=(25, 400), planted_seeds=3):
    """``planted`` / ``er``: family -> level (default planted 1.002 everywhere, ER-trained
    1.05 everywhere), 10 graphs per point; ``planted=False`` drops the planted model."""
    er = {f: 1.05 for f in FAMILIES} | (er or {})
    pl = None if planted is False else {f: 1.002 for f in FAMILIES} | (planted or {})
    seeds = {"g2s_rnn": [0, 1, 2], "planted": [] if pl is None else list(range(planted_seeds))}
    rows = []
    for f in FAMILIES:
        for n in sizes:
            for i, j in enumerate(JITTER):
                res = {f"g2s_rnn_s{s}": {"ratio": er[f] + j} for s in seeds["g2s_rnn"]}
                res.update({f"planted_s{s}": {"ratio": pl[f] + j} for s in seeds["planted"]})
                rows.append({"family": f, "n": n, "index": i, "results": res})
    return {"profile": "ci", "sizes": list(sizes), "instances": rows, "seeds": seeds,
            "missing_checkpoints": [] if pl else ["g2s_rnn_mvc_planted15_s0.pt"]}


def test_within_one_percent_is_qualified_below_3200_and_confirmed_at_3200():
    v = derive_verdicts(_result())
    assert v["fig6-adversarial"]["verdict"] == "qualified"
    assert v["fig6-adversarial"]["sample"] == "10 graphs x 3 seeds"
    assert derive_verdicts(_result(sizes=(25, 3200)))["fig6-adversarial"]["verdict"] == \
        "confirmed"
    one = derive_verdicts(_result(sizes=(25, 3200), planted_seeds=1))["fig6-adversarial"]
    assert one["verdict"] == "inconclusive"


def test_above_one_percent_on_a_hard_family_refutes():
    for f in ("bipartite", "greedy_worst"):
        v = derive_verdicts(_result(planted={f: 1.02}, sizes=(25, 3200)))["fig6-adversarial"]
        assert v["verdict"] == "refuted" and f in v["failing"]
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
    # better on only one hard family (equal on the other): qualified
    v = derive_verdicts(_result(planted={"bipartite": 1.05}))["intro-adversarial"]
    assert v["verdict"] == "qualified" and v["better_on"] == "er, regular, greedy_worst"
    # worse on a hard family: refuted
    v = derive_verdicts(_result(planted={"bipartite": 1.2}))
    assert v["intro-adversarial"]["verdict"] == "refuted"
    # equal everywhere: nothing beyond the noise
    v = derive_verdicts(_result(planted={f: 1.05 for f in FAMILIES}))
    assert v["intro-adversarial"]["verdict"] == "inconclusive"
    # one planted seed decides nothing
    v = derive_verdicts(_result(planted_seeds=1))["intro-adversarial"]
    assert v["verdict"] == "inconclusive" and "fewer than 3 seeds" in v["why"]


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
