"""Figure 4's verdict rules (reproduce/harness/verdicts/ intervals) on hand-made per-instance
records.

* a threshold claim by the seed rule (each seed on its own graphs, then k of n seeds):
  refuted when the seeds typically fail, qualified when they typically hold only below 3,200
  vertices, confirmed at full scale, undecided with three seeds or seeds undecided on their
  graphs; heuristics better beyond the noise are named;
* G2S-RNN vs the baselines, on pairs of seeds (each pair on the graphs both ran, then k of n
  pairs): refuted when a baseline's seeds are typically better, qualified/confirmed when
  G2S-RNN's are typically better than every baseline's, undecided with three seeds on a side
  or ties, pending without baselines.
"""

import numpy as np

from reproduce.figure4 import derive_verdicts

JITTER = np.linspace(0.0, 0.008, 12)   # per-graph spread, never below a level
FAMILIES = {"maxcut": ("er", "grid"), "mis": ("er", "structured_bipartite")}


def _result(g2s_er=1.02, greedy_er=1.2, max_n=400, seeds=3, baselines=None, graphs=12,
            baseline_seeds=3):
    """Max cut on ER at the given levels, every other panel at G2S-RNN 1.0 / heuristics 1.2.
    ``baselines``: name -> (level, sizes it ran at), on every panel, with ``seeds`` seeds."""
    instances = {}
    for problem, fams in FAMILIES.items():
        rows = []
        for f in fams:
            hot = problem == "maxcut" and f == "er"
            for n in (25, max_n):
                for i in range(graphs):
                    j = JITTER[i]
                    res = {f"g2s_rnn_s{k}": {"ratio": (g2s_er if hot else 1.0) + j}
                           for k in range(seeds)}
                    res.update({h: {"ratio": (greedy_er if hot else 1.2) + j}
                                for h in ("greedy", "list")})
                    for b, (lvl, sizes) in (baselines or {}).items():
                        if n in sizes:
                            res.update({f"{b}_s{k}": {"ratio": lvl + j}
                                        for k in range(baseline_seeds)})
                    rows.append({"family": f, "n": n, "index": i, "results": res,
                                 "reference": {"status": "optimal"}})
        instances[problem] = rows
    return {"profile": "ci", "sizes": [25, max_n], "instances": instances}


def test_threshold_exceeded_is_refuted():
    v = derive_verdicts(_result(1.08, seeds=10))["fig4-maxcut"]
    assert v["verdict"] == "refuted" and v["k_of_n"] == "0 of 10"
    assert "s0 fails (er@25: 1.08" in v["per_seed"] and v["some_seed"] == "no seed holds"


def test_holds_below_paper_scale_is_qualified_and_full_scale_confirmed():
    assert derive_verdicts(_result(1.01, seeds=10))["fig4-maxcut"]["verdict"] == "qualified"
    got = derive_verdicts(_result(1.01, max_n=3200, seeds=10))["fig4-maxcut"]
    assert got["verdict"] == "confirmed" and got["k_of_n"] == "10 of 10"


def test_straddling_or_too_few_seeds_is_undecided():
    # every seed's interval straddles the bound: undecided on its graphs
    assert derive_verdicts(_result(1.036, seeds=10))["fig4-maxcut"]["verdict"] == "undecided"
    # three seeds that agree cannot show what the recipe typically does
    got = derive_verdicts(_result(1.08, seeds=3))["fig4-maxcut"]
    assert got["verdict"] == "undecided" and got["k_of_n"] == "0 of 3"


def test_better_heuristics_are_named():
    v = derive_verdicts(_result(1.03, 1.01))["fig4-maxcut"]
    assert v["heuristic_beats"] == "greedy 3 of 3 seeds"


def _versus(**kw):
    return derive_verdicts(_result(**kw))["fig4-g2s-vs-baselines"]


def test_baselines_compared_on_pairs_of_seeds():
    worse = {"s2v": (1.5, (25, 400)), "wl_embed": (1.3, (25,))}
    v = _versus(seeds=4, baseline_seeds=4, baselines=worse)
    assert v["verdict"] == "qualified" and v["refuted_for"] == "none"
    assert v["confirmed_for"] == "s2v@maxcut, wl_embed@maxcut, s2v@mis, wl_embed@mis"
    # 2 baselines x 2 problems, each 4 x 4 pairs of seeds
    assert v["comparisons"] == 4 and v["pairs"] == v["pairs_holding"] == 4 * 4 * 4
    assert v["by_verdict"] == "4 confirmed"
    assert v["per_comparison"].count("pairs holding 16 of 16") == 4
    full = _versus(max_n=3200, seeds=4, baseline_seeds=4, baselines={"s2v": (1.5, (25, 3200))})
    assert full["verdict"] == "confirmed"


def test_a_better_baseline_refutes():
    # the WL embedding, run at n = 25 only, is better than G2S-RNN there on both problems
    better = {"s2v": (1.5, (25, 400)), "wl_embed": (0.95, (25,))}
    v = _versus(seeds=4, baseline_seeds=4, baselines=better)
    assert v["verdict"] == "refuted"
    assert v["refuted_for"] == "wl_embed@maxcut, wl_embed@mis"
    assert v["confirmed_for"] == "s2v@maxcut, s2v@mis"


def test_ten_seeds_decide_against_three_baseline_seeds():
    # G2S-RNN's seeds are the trials: ten seeds each better than all three baseline seeds
    # confirm (qualified below 3,200 vertices); the pairs are reported beside them
    worse = {"s2v": (1.5, (25, 400))}
    v = _versus(seeds=10, baselines=worse, baseline_seeds=3)
    assert v["verdict"] == "qualified" and v["confirmed_for"] == "s2v@maxcut, s2v@mis"
    assert v["per_comparison"].count("pairs holding 30 of 30") == 2
    assert _versus(seeds=10, baselines=worse, baseline_seeds=1)["verdict"] == "qualified"
    # three G2S-RNN seeds cannot decide
    assert _versus(seeds=3, baselines=worse, baseline_seeds=3)["verdict"] == "undecided"


def test_a_tied_baseline_is_undecided():
    v = _versus(g2s_er=1.0, seeds=4, baseline_seeds=4, baselines={"s2v": (1.0, (25, 400))})
    assert v["verdict"] == "undecided" and "pairs holding 0 of 16" in v["per_comparison"]


def test_without_baselines_the_comparison_is_pending():
    assert derive_verdicts(_result())["fig4-g2s-vs-baselines"]["verdict"] == "pending"


def _instances(status, ratio):
    r = _result()
    r["instances"]["mis"].append({"family": "er", "n": 400, "index": 99,
                                  "reference": {"status": status},
                                  "results": {"greedy": {"ratio": ratio}}})
    return r


def test_ratio_below_one_needs_an_unproven_reference():
    v = derive_verdicts(_instances("time_limit", 0.9))["gurobi-reference"]
    assert v["verdict"] == "recorded" and v["below_one"] == 1
    assert v["where"] == "greedy@mis/er/400"
    assert derive_verdicts(_instances("optimal", 0.9))["gurobi-reference"]["verdict"] == "refuted"
    assert derive_verdicts(_instances("optimal", 1.0))["gurobi-reference"]["below_one"] == 0


def test_the_paper_bar_is_a_multiple_of_the_timed_program(monkeypatch):
    """The paper's bars multiply its timed integer program's answer; ours the best known.  A
    seed 8% above the best known on max cut fails the 1.04 bar, and holds under the paper's
    reading where the program itself falls 5% short at that size.  The headline verdict stays
    ours; the paper's reading is evidence, per program; without the timed run it says so."""
    from reproduce import figure4
    shortfalls = {("maxcut", "er", 400, "cpsat"): 1.05, ("maxcut", "er", 25, "cpsat"): 1.05,
                  ("maxcut", "er", 400, "highs"): None}
    monkeypatch.setattr(figure4, "timed_shortfalls", lambda: shortfalls)
    v = derive_verdicts(_result(1.08, seeds=10))["fig4-maxcut"]
    assert v["verdict"] == "refuted"
    cpsat, highs = v["paper_bar"].split("; ")
    assert cpsat.startswith("cpsat (shortfall at 25 x1.050, 400 x1.050): qualified, "
                            "seeds holding 10 of 10")
    # HiGHS found no solution at 400 (no bar there) and was not run at 25 (the strictest bar)
    assert highs.startswith("highs (shortfall at 400 no solution): refuted, seeds holding 0 "
                            "of 10")
    rows = figure4.paper_bar_view(_result(1.08, seeds=10)["instances"]["maxcut"], "maxcut",
                                  "cpsat", shortfalls)
    er400 = [r for r in rows if r["family"] == "er" and r["n"] == 400][0]
    assert abs(er400["results"]["g2s_rnn_s0"]["ratio"] - 1.08 / 1.05) < 1e-12
    monkeypatch.setattr(figure4, "timed_shortfalls", lambda: None)
    v = derive_verdicts(_result(1.08, seeds=10))["fig4-maxcut"]
    assert v["paper_bar"] == "not available (timed_program.json is missing)"
