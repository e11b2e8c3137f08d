"""Figure 5's verdict rules (Theorem 2 and Appendix Algorithm 1) on hand-made JSON.

* theorem2-mvc-9-vs-10: confirmed exactly when the trees' minimum covers are 9 and 10;
* theorem2-bijection-k-balls: confirmed when the bijection's balls are isomorphic, plain and
  with degrees;
* theorem2-general-k: confirmed when every (k, m) case has equal ball multisets and MVCs m, m+1;
* algorithm1-on-g1-g2: confirmed when Algorithm 1's limits are the two MVCs;
* algorithm1-any-tree: refuted by one tree whose limit is not its MVC.
"""

from reproduce.figure5 import derive_verdicts


def _result(mvc=(9, 10), plain=True, limit=(9.0, 10.0), wrong=0, equal=True):
    row = {"n": 10, "trees": 106, "wrong": wrong, "below_mvc": 0, "max_excess": 0.5 * wrong}
    ce = {"n": 10, "mvc": 4, "limit": 4.5} if wrong else None
    return {"mvc": list(mvc), "first_differing_radius": 3,
            "bijection_balls_isomorphic": {"plain": plain, "degrees": plain},
            "grid": [{"k": 2, "m": 3, "multisets_equal": equal, "degree_multisets_equal": equal,
                      "mvc": [9, 10]}],
            "algorithm1": {"rounds": [1, 10], "limit": list(limit),
                           "output": {"G1": [8.0, 9.01], "G2": [9.0, 10.01]}},
            "survey": {"rows": [row], "smallest_counterexample": ce,
                       "smallest_wrong_fixed_point": None}}


def test_theorem2_rules():
    v = derive_verdicts(_result())
    assert [v[k]["verdict"] for k in ("theorem2-mvc-9-vs-10", "theorem2-bijection-k-balls",
                                      "theorem2-general-k")] == ["confirmed"] * 3
    assert derive_verdicts(_result(mvc=(9, 9)))["theorem2-mvc-9-vs-10"]["verdict"] == "refuted"
    assert derive_verdicts(_result(plain=False))["theorem2-bijection-k-balls"]["verdict"] == \
        "refuted"
    assert derive_verdicts(_result(equal=False))["theorem2-general-k"]["verdict"] == "refuted"


def test_algorithm1_rules():
    v = derive_verdicts(_result())
    assert v["algorithm1-on-g1-g2"]["verdict"] == "confirmed"
    assert v["algorithm1-any-tree"]["verdict"] == "confirmed"
    assert derive_verdicts(_result(limit=(9.5, 10.0)))["algorithm1-on-g1-g2"]["verdict"] == \
        "refuted"
    got = derive_verdicts(_result(wrong=2))["algorithm1-any-tree"]
    assert got["verdict"] == "refuted" and got["smallest_n"] == 10
