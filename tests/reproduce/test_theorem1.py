"""theorem1.derive_verdicts: Theorem 1 is confirmed only when every curve reaches 95% exact
recovery, qualified when errors fall with t but some curve stays short of 95%, and
not-reproduced otherwise; the sigma = 0 remark is qualified when zero noise breaks recovery."""

from reproduce.theorem1 import derive_verdicts


def _curve(kind, errors, length):
    pts = [{"T": 250 * 2 ** i, "error_rate": e, "graphs": 50, "graphs_with_false_edges": 1,
            "nominal_familywise_alpha": 0.04} for i, e in enumerate(errors)]
    return {"kind": kind, "n": 6, "d": 2, "points": pts, "length_for_95": length}


def _result(curves, err_sigma0=1.0):
    sig = [{"sigma": s, "error_rate": e} for s, e in ((1.0, 0.06), (0.01, 0.8), (0.0, err_sigma0))]
    burn = [{"sigma": s, "error_rate": e} for s, e in ((1.0, 0.06), (0.01, 0.02),
                                                      (0.0, err_sigma0))]
    prop1 = [{"graph": g, "T": 1000, "exact_rate": 1.0, "draws": 10} for g in ("R1", "R2")]
    comp = [{"T": 250, "error_rate": 0.1}, {"T": 500, "error_rate": 0.0}]
    return {"curves": curves, "sigma_sweep": {"points": sig, "points_after_burn_in": burn,
                                              "T": 500, "burn_in": 200},
            "proposition1_recovery": prop1,
            "estimator_comparison": {"kde": comp, "knn": comp}}


def test_theorem_verdicts():
    all_reach = [_curve("directed", [0.5, 0.04], 500), _curve("undirected", [0.4, 0.0], 500)]
    assert derive_verdicts(_result(all_reach))["theorem1-graph-recovery"]["verdict"] == "confirmed"
    short = [_curve("directed", [0.5, 0.04], 500), _curve("undirected", [0.6, 0.2], None)]
    assert derive_verdicts(_result(short))["theorem1-graph-recovery"]["verdict"] == "qualified"
    rising = [_curve("directed", [0.2, 0.6], None)]
    got = derive_verdicts(_result(rising))["theorem1-graph-recovery"]["verdict"]
    assert got == "not-reproduced"


def test_sigma_zero_remark():
    curves = [_curve("directed", [0.5, 0.04], 500)]
    assert derive_verdicts(_result(curves))["sigma-zero-noise-did-not-matter"]["verdict"] == \
        "qualified"
    assert derive_verdicts(_result(curves, err_sigma0=0.05))[
        "sigma-zero-noise-did-not-matter"]["verdict"] == "pending"


def _rc(n, d, exact_by_t, graphs=80):
    return {"n": n, "d": d, "points": [{"T": T, "graphs": graphs, "exact": k}
                                       for T, k in exact_by_t]}


def test_rate_interval_is_wilson():
    from reproduce.theorem1 import rate_interval
    lo, hi = rate_interval(50, 50)
    assert abs(lo - 50 / (50 + 1.959964 ** 2)) < 1e-4 and hi == 1.0
    assert rate_interval(80, 80)[0] >= 0.95 > rate_interval(50, 50)[0]  # 73+ graphs needed
    lo, hi = rate_interval(0, 40)
    assert lo == 0.0 and 0.08 < hi < 0.1


def test_recovery_verdict_outcomes():
    """Hand-made inputs for every outcome of the issue-16 rule (decided on intervals)."""
    from reproduce.theorem1 import recovery_verdict
    all_exact = [_rc(6, 1, [(500, 40), (2000, 80)]), _rc(20, 2, [(1000, 10), (4000, 80)])]
    v = recovery_verdict(all_exact)
    assert v["verdict"] == "confirmed" and v["settings"]["n=6 d=1"]["t_reached"] == 2000
    # 50/50 exact is a point estimate of 1.0 but its lower end is 0.929 < 0.95
    few = [_rc(6, 1, [(500, 10, ), (2000, 50)], graphs=50)]
    assert recovery_verdict(few)["verdict"] == "not-reproduced"
    # n = 6 reaches, n = 20 improves but stays short: qualified, evidence stops at n = 20
    v = recovery_verdict([_rc(6, 1, [(500, 40), (2000, 80)]), _rc(20, 1, [(1000, 5), (4000, 60)])])
    assert v["verdict"] == "qualified" and v["stops_at"] == ["n=20 d=1 t=4000"]
    # short and not improving: inconclusive
    flat = [_rc(6, 1, [(500, 40), (2000, 80)]), _rc(20, 1, [(1000, 55), (4000, 60)])]
    assert recovery_verdict(flat)["verdict"] == "not-reproduced"
    # significantly worse with more data: refuted
    worse = [_rc(6, 1, [(500, 40), (2000, 80)]), _rc(20, 1, [(1000, 70), (4000, 20)])]
    assert recovery_verdict(worse)["verdict"] == "refuted"
