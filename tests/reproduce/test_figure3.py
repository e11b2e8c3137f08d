"""Figure 3's verdict rules on synthetic plotted means.

* "within 10%": refuted by one mean above 1.10; qualified below the paper's scale or when a
  single seed exceeds 1.10; confirmed only at full scale;
* "baselines inconsistent": confirmed only when every baseline exceeds 1.10 somewhere and
  G2S-RNN does not; refuted when no baseline does.
"""

from reproduce.figure3 import baselines_verdict, derive_verdicts


def _series(v, sizes=(25, 400)):
    return {str(n): {"mean": v, "std": 0.0, "count": 3} for n in sizes}


def _result(g2s=1.02, seed_max=1.05, s2v=1.3, sage=1.2, sizes=(25, 400)):
    fam = {"g2s_rnn": _series(g2s, sizes), "greedy": _series(1.5, sizes),
           "list": _series(1.5, sizes), "matching": _series(1.9, sizes),
           "s2v": _series(s2v, sizes), "sage_mean": _series(sage, sizes)}
    spread = {str(n): {"min": 1.0, "max": seed_max, "per_seed_mean": [1.0, seed_max]}
              for n in sizes}
    return {"profile": "ci", "baselines": ["s2v", "sage_mean"],
            "points": {"greedy_worst": fam, "regular": fam, "bipartite": fam},
            "seed_spread": {"greedy_worst": spread, "regular": spread, "bipartite": spread}}


def test_within_10pct_rule():
    assert derive_verdicts(_result(g2s=1.12))["fig3-g2s-within-10pct"]["verdict"] == "refuted"
    assert derive_verdicts(_result())["fig3-g2s-within-10pct"]["verdict"] == "qualified"
    full = _result(sizes=(25, 3200))
    assert derive_verdicts(full)["fig3-g2s-within-10pct"]["verdict"] == "confirmed"
    seed_bad = _result(seed_max=1.2, sizes=(25, 3200))
    assert derive_verdicts(seed_bad)["fig3-g2s-within-10pct"]["verdict"] == "qualified"


def test_baselines_rule():
    assert baselines_verdict(_result())["verdict"] == "confirmed"
    assert baselines_verdict(_result(sage=1.05))["verdict"] == "qualified"
    assert baselines_verdict(_result(s2v=1.0, sage=1.05))["verdict"] == "refuted"
    assert baselines_verdict(_result(g2s=1.2))["verdict"] == "qualified"


def test_beats_heuristics_rule():
    """Confirmed when no heuristic has a lower mean anywhere; qualified when one does at fewer
    than half of the points; refuted from half on."""
    assert derive_verdicts(_result())["fig3-g2s-beats-heuristics"]["verdict"] == "confirmed"
    r = _result(g2s=1.02)
    r["points"]["regular"] = dict(r["points"]["regular"], greedy=_series(1.0))
    got = derive_verdicts(r)["fig3-g2s-beats-heuristics"]
    assert got["verdict"] == "qualified" and got["beaten_points"] == 2
    assert derive_verdicts(_result(g2s=1.6))["fig3-g2s-beats-heuristics"]["verdict"] == "refuted"
