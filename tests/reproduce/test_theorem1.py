"""theorem1: the recovery decision rule (recovery_verdict) on hand-made inputs for every outcome,
the rate intervals it rests on, and derive_verdicts wiring it and the sigma = 0 remark (qualified
when zero noise breaks recovery) into the ledger."""

from reproduce.theorem1 import derive_verdicts, recovery_point


def _units(m, exact, fp_graphs=0):
    """m per-graph recoveries: ``exact`` exact, the rest missing one edge; ``fp_graphs`` of the
    inexact ones have a false edge instead."""
    out = []
    for g in range(m):
        ok = g < exact
        fp = int(not ok and g - exact < fp_graphs)
        out.append({"exact": ok, "tp": 3 - int(not ok and not fp), "fp": fp,
                    "fn": int(not ok and not fp), "seconds": 1.0})
    return out


def _curve(n, d, exact_by_t, graphs=80):
    return {"n": n, "d": d, "points": [recovery_point(_units(graphs, k), n, d, T)
                                       for T, k in exact_by_t]}


def _sigma_points(pairs, graphs=50):
    return [{"sigma": s, "error_rate": e, "errors": round(e * graphs), "graphs": graphs}
            for s, e in pairs]


def _result(curves, err_sigma0=1.0):
    sig = _sigma_points(((1.0, 0.06), (0.01, 0.8), (0.0, err_sigma0)))
    burn = _sigma_points(((1.0, 0.06), (0.01, 0.02), (0.0, err_sigma0)))
    prop1 = [{"graph": g, "T": 1000, "exact_rate": 1.0, "draws": 10} for g in ("R1", "R2")]
    comp = [{"T": 250, "error_rate": 0.1}, {"T": 500, "error_rate": 0.0}]
    return {"recovery": {"curves": curves, "graph_family": "bounded"},
            "sigma_sweep": {"points": sig, "points_after_burn_in": burn, "T": 500,
                            "burn_in": 200},
            "proposition1_recovery": prop1,
            "estimator_comparison": {"kde": comp, "knn": comp}}


def test_recovery_point_rates_and_intervals():
    p = recovery_point(_units(50, 40, fp_graphs=4), 6, 1, 1000)
    assert p["exact"] == 40 and abs(p["error_rate"] - 0.2) < 1e-12
    assert p["error_ci95"][0] < 0.2 < p["error_ci95"][1]
    assert p["graphs_with_false_edges"] == 4 and p["precision"] < 1 and p["recall"] < 1
    assert p["precision_ci95"][0] <= p["precision"] <= p["precision_ci95"][1]
    assert p["recall_ci95"][0] <= p["recall"] <= p["recall_ci95"][1]
    perfect = recovery_point(_units(50, 50), 6, 1, 1000)
    assert perfect["precision_ci95"] == [1.0, 1.0] and perfect["error_ci95"][1] > 0.05


def test_theorem_verdicts():
    reach = [_curve(6, 1, [(500, 40), (2000, 80)]), _curve(12, 1, [(1000, 30), (3000, 80)])]
    got = derive_verdicts(_result(reach))
    assert got["theorem1-graph-recovery"]["verdict"] == "confirmed"
    assert got["theorem1-kde-plugin-consistent"]["verdict"] == "qualified"
    short = [_curve(6, 1, [(500, 40), (2000, 80)]), _curve(12, 1, [(1000, 10), (3000, 60)])]
    got = derive_verdicts(_result(short))["theorem1-graph-recovery"]
    assert got["verdict"] == "qualified" and got["stops_at"] == "n=12 d=1 t=3000"
    rising = [_curve(6, 1, [(500, 70), (2000, 20)])]
    assert derive_verdicts(_result(rising))["theorem1-graph-recovery"]["verdict"] == "refuted"


def test_sigma_zero_remark():
    curves = [_curve(6, 1, [(500, 40), (2000, 80)])]
    assert derive_verdicts(_result(curves))["sigma-zero-noise-did-not-matter"]["verdict"] == \
        "qualified"
    assert derive_verdicts(_result(curves, err_sigma0=0.05))[
        "sigma-zero-noise-did-not-matter"]["verdict"] == "pending"
    # decided on the interval: 30 of 50 (0.6) has a Wilson lower end below one half
    assert derive_verdicts(_result(curves, err_sigma0=0.6))[
        "sigma-zero-noise-did-not-matter"]["verdict"] == "pending"
    assert derive_verdicts(_result(curves, err_sigma0=0.8))[
        "sigma-zero-noise-did-not-matter"]["verdict"] == "qualified"


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
    """Hand-made inputs for every outcome of the recovery rule (decided on intervals)."""
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


def test_noise_breaks_symmetry_rule():
    """Qualified when noisy trajectories recover R1 and R2 in most draws beyond the noise (the
    Wilson lower end at the longest T above one half); not-reproduced otherwise."""
    curves = [_curve(6, 1, [(500, 80)])]
    assert derive_verdicts(_result(curves))["noise-breaks-symmetry"]["verdict"] == "qualified"
    for rate, kind in ((0.9, "qualified"), (0.8, "not-reproduced"), (0.5, "not-reproduced")):
        res = _result(curves)                     # 10 draws: 8/10 has lower end 0.49
        res["proposition1_recovery"][0]["exact_rate"] = rate
        assert derive_verdicts(res)["noise-breaks-symmetry"]["verdict"] == kind, rate
