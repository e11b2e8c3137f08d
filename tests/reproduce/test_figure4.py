"""Figure 4's verdict rule: a threshold claim is refuted as soon as one plotted mean exceeds it,
qualified when it holds only below the paper's largest size, and heuristics that do better
(lower ratio) are named."""

from reproduce.figure4 import derive_verdicts


def _result(g2s_er, greedy_er, max_n=400):
    def series(v):
        return {str(n): {"mean": v, "std": 0.0, "count": 3} for n in (25, max_n)}
    panel = {"g2s_rnn": series(g2s_er), "greedy": series(greedy_er), "list": series(1.5)}
    ok = {"g2s_rnn": series(1.0), "greedy": series(1.2), "list": series(1.2)}
    return {"profile": "ci",
            "points": {"maxcut": {"er": panel, "grid": ok},
                       "mis": {"er": ok, "structured_bipartite": ok}}}


def test_threshold_exceeded_is_refuted():
    v = derive_verdicts(_result(1.05, 1.2))["fig4-maxcut"]
    assert v["verdict"] == "refuted" and v["worst_ratio"] == 1.05


def test_holds_below_paper_scale_is_qualified_and_full_scale_confirmed():
    assert derive_verdicts(_result(1.01, 1.2))["fig4-maxcut"]["verdict"] == "qualified"
    assert derive_verdicts(_result(1.01, 1.2, 3200))["fig4-maxcut"]["verdict"] == "confirmed"


def test_better_heuristics_are_named():
    v = derive_verdicts(_result(1.03, 1.01))["fig4-maxcut"]
    assert v["heuristic_better_at"] == "greedy@er/25, greedy@er/400"
