"""Appendix D.3 checks (reproduce/appendix_d3.py).

* the measuring helpers on hand-made inputs: zero coordinates, principal directions (sign-free
  alignment, degenerate states), Spearman with constant inputs, minimum covers, top-k sets;
* the layer-wise traces agree with the encoders they unroll (G2S-RNN, Structure2Vec);
* each verdict rule on synthetic results (confirmed / qualified / refuted);
* the smoke profile runs and its stored verdicts re-derive identically from the JSON file.
"""

import copy
import json

import networkx as nx
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from reproduce import appendix_d3 as d3  # noqa: E402
from reproduce.appendix_d3_parts import measures, rules  # noqa: E402
from reproduce.appendix_d3_parts import summary as pooled  # noqa: E402
from reproduce.harness import settings as S  # noqa: E402

L = d3.T_MAX


# ------------------------------------------------------------------ helpers
def test_zero_counts_per_vertex_and_dead_dimensions():
    x = torch.tensor([[0.0, 1.0, 0.0, 2.0],
                      [0.0, 0.0, 3.0, 0.0],
                      [0.0, 5.0, 0.0, 0.0]])
    mean_zeros, dead = measures.zero_counts(x)
    assert mean_zeros == pytest.approx((2 + 3 + 3) / 3)
    assert dead == 1                        # only the first coordinate is zero everywhere
    rollouts = torch.stack([x, torch.zeros_like(x)], 1)   # (n, R, d)
    assert measures.zero_counts(rollouts) == (pytest.approx((8 + 12) / 6), 1)


def test_principal_direction_alignment_and_degenerate_states():
    rng = np.random.default_rng(0)
    u = np.array([3.0, 4.0, 0.0]) / 5
    X = rng.normal(size=(20, 1)) * u + 1e-3 * rng.normal(size=(20, 3)) + 7.0
    pc = measures.principal_direction(X)
    assert abs(pc[0] @ u) == pytest.approx(1.0, abs=1e-4)
    flipped = (-pc[0], -pc[1])
    assert measures.abs_cos(pc, flipped) == pytest.approx(1.0)   # a direction has no sign
    other = measures.principal_direction(rng.normal(size=(20, 1)) * np.array([0.0, 0.0, 1.0]))
    assert measures.abs_cos(pc, other) == pytest.approx(0.0, abs=1e-3)
    assert measures.principal_direction(np.ones((5, 3)) * 2.0) is None   # identical vertex states
    assert measures.abs_cos(None, pc) is None


def test_abs_spearman():
    a = np.array([1.0, 2.0, 3.0, 4.0])
    assert measures.abs_spearman(a, -a ** 3) == pytest.approx(1.0)
    assert measures.abs_spearman(a, np.ones(4)) is None          # a regular graph's degrees


def test_minimum_covers_pinned():
    def covers(G):
        n, e = len(G), np.array(sorted(G.edges()), dtype=np.int64).reshape(-1, 2)
        return {tuple(sorted(c)) for c in measures.minimum_covers(n, e)}
    assert covers(nx.path_graph(3)) == {(1,)}
    assert covers(nx.path_graph(4)) == {(0, 2), (1, 2), (1, 3)}
    assert covers(nx.star_graph(4)) == {(0,)}
    assert len(covers(nx.complete_graph(4))) == 4           # any 3 of 4 vertices


def test_layer_sets_on_constructed_q():
    covers = [frozenset({0, 1})]
    q = np.array([[3.0, 2.0, 1.0, 0.0],      # top-2 {0, 1}: the cover
                  [0.0, 1.0, 2.0, 3.0],      # {2, 3}: its complement, every vertex flips
                  [0.0, 1.0, 2.0, 3.0]])
    got = measures.layer_sets(q, 2, covers)
    assert got["top"] == [[0, 1], [2, 3], [2, 3]]
    assert got["overlap"] == [1.0, 0.0, 0.0]
    assert got["is_min_cover"] == [True, False, False]
    assert got["flip"] == [1.0, 0.0] and got["change"] == [1.0, 0.0]


# ------------------------------------------------------------------ verdict rules
def _result(zeros=9.0, cos=0.995, rho=0.8, best=None, latched=1.0, s2v_flip=0.6,
            regular_zeros=None, planted=None, cases=300, depth_spread=0.01, ref=None):
    best = best or {"er": 5, "regular": 5, "bipartite": 4, "greedy_worst": 15}

    def curve(b):
        return [1.0 if t == b else 1.2 for t in range(1, d3.T_DEPTH + 1)]

    def col(z):     # 10 seeds x 10 graphs, each within +-0.05 of z at every layer
        cases = [[[z + 0.01 * ((g + k) % 11 - 5) for _ in range(L)] for g in range(10)]
                 for k in range(10)]
        return {"zeros": [z] * L, "dead": [z - 1] * L, "rollout": [z] * L,
                "zeros_cases": cases}

    collapse = {f: {"50": col(regular_zeros if f == "regular" and regular_zeros else zeros)}
                for f in d3.FAMILIES}
    def pca_cell(f):     # 10 seeds x 10 graphs (seed after seed, as the collapse cells),
        undefined = f == "regular"   # each within +-0.002 (cos) / +-0.02 (rho) of the level
        jit = [0.001 * (i % 3 - 1) for i in range(100)]
        return {"cases": 100, "undefined_at_ref": 100 if undefined else 0,
                "cos_next": [None] + [cos] * (L - 2), "cos_skip": [cos] * (L - 2),
                "cos_ref": [cos] * L, "rho_degree": [None] + [rho] * (L - 1),
                "cos_next_cases": [[None] + [min(1.0, cos + j)] * (L - 2) for j in jit],
                "rho_degree_cases": [[None] + [rho + 10 * j] * (L - 1) for j in jit],
                # Figure 7(c)'s projection on layer 10 per case, when ``ref`` is given
                **({} if ref is None else {"cos_ref_cases": [
                    [1.0 if t == S.D3_REF_LAYER else min(1.0, ref + j) for t in range(1, L + 1)]
                    for j in jit]})}
    pca = {f: {"50": pca_cell(f)} for f in d3.FAMILIES}
    def depth_cases(b):  # 10 seeds x 6 graphs x T: the curve plus noise of +-spread
        return [[[r + depth_spread * (((g * 7 + k * 3 + t) % 5) - 2) / 2
                  for t, r in enumerate(curve(b))] for g in range(6)] for k in range(10)]

    depth = {f: {"50": {"ratio": curve(b), "best_T": [b], "per_seed_best_T": [[b]] * 10,
                        "ratio_cases": depth_cases(b)}}
             for f, b in best.items()}

    def ones(frac, n):
        return [1] * round(frac * n) + [0] * (n - round(frac * n))

    def lat(frac, flip, name, seeds, sem=(0.5, 0.5)):
        """A model's latching summary with ``seeds`` seeds of ``cases // seeds`` graphs each,
        every seed at the same rates (a rate may be a tuple: one per seed)."""
        n = cases // seeds
        each = [frac] * seeds if not isinstance(frac, tuple) else list(frac)
        per = {f"{name}_s{k}": {"latched": ones(each[k], n),
                                "flip_early": [flip + 0.02 * (i % 3 - 1) for i in range(n)],
                                "holds": ones(sem[0], n), "holds_shifted": ones(sem[1], n)}
               for k in range(seeds)}
        mean = float(np.mean(each))
        return {"overlap": [0.9] * L, "is_min_cover": [mean] * L, "flip": [flip] * (L - 1),
                "change": [flip] * (L - 1), "stable_fraction": mean, "latched_fraction": mean,
                "flip_early": flip, "cases": cases, "latched_count": round(mean * cases),
                "flip_early_cases": [flip + 0.02 * (i % 3 - 1) for i in range(cases)],
                "per_seed": per}
    latching = {"planted": {"cases": cases // 10, "g2s": lat(latched, 0.1, "g2s", 10),
                            "s2v": lat(0.2, s2v_flip, "s2v", 5)}}
    if planted is not None:     # (latched fraction, GCNN flips, semantics holds at T = 5)
        p_latched, p_flip, (literal, shifted) = planted
        sem = {"holds": [0.0] * 4 + [literal] + [0.5] * (L - 5),
               "holds_shifted": [0.0] * 4 + [shifted] + [0.5] * (L - 5), "q_holds": [0.9] * L,
               **{f"median_{k}": [0.1] * L for k in ("q1_err", "q2_err", "q_err", "int_err",
                                                     "shift")},
               "median_q1": [-6.0] * L, "cases": cases,
               "holds_count": [0] * 4 + [round(literal * cases)] + [cases // 2] * (L - 5),
               "holds_shifted_count": [0] * 4 + [round(shifted * cases)]
               + [cases // 2] * (L - 5)}
        latching["planted"]["planted_g2s"] = {
            **lat(p_latched, 0.1, "planted_g2s", 10, (literal, shifted)), "semantics": sem}
        latching["planted"]["planted_s2v"] = lat(0.2, p_flip, "planted_s2v", 5)
    return {"profile": "ci", "collapse": {"shipped": collapse}, "pca": {"shipped": pca},
            "depth": depth, "latching": latching,
            "pca_example": {"cos_ref": [None] + [cos] * (L - 1)}}


def _v(result, claim):
    """The claim's verdict by its rule alone (``derive_verdicts`` runs every rule; the
    claims check and :func:`test_smoke_run_rederives` read it whole)."""
    return rules.RULES[claim](result)


def test_collapse_rule():
    """"On an average" over each seed's graphs of the paper's scope (up to 50 vertices), at
    every layer 5..10, then k of n seeds; the per-cell readings and the sizes beyond 50 are
    shown beside it."""
    v = _v(_result(zeros=9.0), "d3-dimension-collapse")
    assert v["verdict"] == "confirmed" and v["zeros_t5"] == 9.0
    assert v["average_k_of_n"] == "10 of 10" and v["every_cell_k_of_n"] == "10 of 10"
    assert _v(_result(zeros=3.0), "d3-dimension-collapse")["verdict"] == "refuted"
    # at the threshold each seed's interval straddles 8: the data cannot decide "more than 8"
    assert _v(_result(zeros=8.0), "d3-dimension-collapse")["verdict"] == "undecided"
    r = _result(zeros=8.0)                      # every case 7.9: not "more than 8"
    for f in r["collapse"]["shipped"]:
        cell = r["collapse"]["shipped"][f]["50"]
        cell["zeros_cases"] = [[[7.9] * L for _ in seed] for seed in cell["zeros_cases"]]
    assert _v(r, "d3-dimension-collapse")["verdict"] == "refuted"
    # one family below 8 (7.5), three above (9): on average over the graphs, 8.6 > 8 holds;
    # per cell, only "in some cell" holds (qualified)
    mixed = _v(_result(zeros=9.0, regular_zeros=7.5), "d3-dimension-collapse")
    assert mixed["verdict"] == "confirmed" and mixed["per_cell_verdict"] == "qualified"
    assert mixed["every_cell_k_of_n"] == "0 of 10" and mixed["some_cell_k_of_n"] == "10 of 10"
    assert mixed["worst_cell"] == "regular n=50"
    assert mixed["per_seed"].startswith("s0 3 of 4 cells hold, 1 fail")
    # half the seeds collapse in every cell, half in none: it depends on the seed
    r = _result(zeros=9.0)
    for f in r["collapse"]["shipped"]:
        cell = r["collapse"]["shipped"][f]["50"]
        for seed in cell["zeros_cases"][5:]:
            for case in seed:
                case[:] = [3.0] * L
    assert _v(r, "d3-dimension-collapse")["verdict"] == "seed-dependent"
    # a size beyond the paper's 50 vertices does not decide; it is shown beside
    r = _result(zeros=9.0)
    for f in r["collapse"]["shipped"]:
        big = copy.deepcopy(r["collapse"]["shipped"][f]["50"])
        big["zeros"] = [3.0] * L
        big["zeros_cases"] = [[[3.0] * L for _ in seed] for seed in big["zeros_cases"]]
        r["collapse"]["shipped"][f]["200"] = big
    v = _v(r, "d3-dimension-collapse")
    assert v["verdict"] == "confirmed" and v["scope_n"] == 50 and v["cells"] == 4
    assert v["beyond_scope"] == "qualified" and v["max_n"] == 200


def test_pca_alignment_rule():
    """D.3 (2) alone (the degree correlation, D.3 (3), does not enter it), each seed on its own
    graphs per cell, then k of n seeds "in every cell" and "in some cell"."""
    v = _v(_result(), "d3-pca-alignment")
    assert v["verdict"] == "confirmed" and v["degenerate"] == "regular"
    assert v["every_cell_k_of_n"] == "10 of 10" and v["cells"] == 3
    assert _v(_result(cos=0.5), "d3-pca-alignment")["verdict"] == "refuted"
    assert _v(_result(rho=0.1), "d3-pca-alignment")["verdict"] == "confirmed"
    r = _result()
    for case in r["pca"]["shipped"]["er"]["50"]["cos_next_cases"]:
        case[7] = 0.3
    v = _v(r, "d3-pca-alignment")
    assert v["verdict"] == "qualified" and v["per_seed"].startswith("s0 2 of 3 cells hold")
    # at the threshold each seed's median interval straddles 0.99: undecided
    assert _v(_result(cos=0.99), "d3-pca-alignment")["verdict"] == "undecided"
    # half the seeds not aligned anywhere: it depends on the seed
    r = _result()
    for f in ("er", "bipartite", "greedy_worst"):
        for case in r["pca"]["shipped"][f]["50"]["cos_next_cases"][50:]:
            case[7] = 0.3
    assert _v(r, "d3-pca-alignment")["verdict"] == "seed-dependent"
    r = _result()
    for f in d3.FAMILIES:
        r["pca"]["shipped"][f]["50"]["undefined_at_ref"] = 100
    assert _v(r, "d3-pca-alignment")["verdict"] == "not-reproduced"
    # a pair past the paper's 10 layers (12 -> 13) does not decide; it is shown beside
    r = _result()
    for f in ("er", "bipartite", "greedy_worst"):
        for case in r["pca"]["shipped"][f]["50"]["cos_next_cases"]:
            case[11] = 0.3
    v = _v(r, "d3-pca-alignment")
    assert v["verdict"] == "confirmed" and v["scope_layer"] == 10
    assert v["beyond_scope"] == "refuted"
    r = _result()       # cases that do not split into the seeds' graphs are an error
    r["pca"]["shipped"]["er"]["50"]["cos_next_cases"].pop()
    with pytest.raises(ValueError, match="PCA cases"):
        _v(r, "d3-pca-alignment")


def test_pca_alignment_is_decided_by_the_projection_on_layer_10_where_stored():
    """Figure 7(c)'s measure, |cos| of layer t's direction with layer 10's, decides D.3 (2)
    once the JSON stores it per case; the consecutive-layer reading is shown beside.  A JSON
    without it is decided on consecutive layers and says so."""
    v = _v(_result(cos=0.995, ref=0.5), "d3-pca-alignment")
    assert v["verdict"] == "refuted" and "projection" in v["measure"]
    assert v["consecutive_reading"].startswith("confirmed")
    v = _v(_result(cos=0.5, ref=0.995), "d3-pca-alignment")
    assert v["verdict"] == "confirmed" and v["consecutive_reading"].startswith("refuted")
    # one layer before 10 off the direction of layer 10 fails the cell
    r = _result(ref=0.995)
    for case in r["pca"]["shipped"]["er"]["50"]["cos_ref_cases"]:
        case[6] = 0.3                                   # layer 7
    v = _v(r, "d3-pca-alignment")
    assert v["verdict"] == "qualified" and v["per_seed"].startswith("s0 2 of 3 cells hold")
    assert "consecutive" in _v(_result(), "d3-pca-alignment")["measure"]
    # the pooled median is re-derived from the stored cases: an edit is drift
    from reproduce.appendix_d3_parts.summary import repool
    r = _result(ref=0.995)
    r["pca"]["shipped"]["er"]["50"]["cos_ref"] = [0.0] * L
    assert repool(r)["pca"]["shipped"]["er"]["50"]["cos_ref"][6] == pytest.approx(0.995, abs=0.01)


def test_pca_connectivity_rule():
    """D.3 (3) alone: the alignment of the directions (D.3 (2)) does not enter its verdict."""
    v = _v(_result(), "d3-pca-connectivity")
    assert v["verdict"] == "confirmed" and v["every_cell_k_of_n"] == "10 of 10"
    assert _v(_result(rho=0.1), "d3-pca-connectivity")["verdict"] == "refuted"
    assert _v(_result(cos=0.5), "d3-pca-connectivity")["verdict"] == "confirmed"
    r = _result()
    for case in r["pca"]["shipped"]["er"]["50"]["rho_degree_cases"]:
        case[S.D3_REF_LAYER - 1] = 0.1
    v = _v(r, "d3-pca-connectivity")
    assert v["verdict"] == "qualified" and v["per_seed"].startswith("s0 2 of 3 cells hold, 1 fail")
    # at the threshold each seed's median interval straddles 0.5: undecided
    assert _v(_result(rho=0.5), "d3-pca-connectivity")["verdict"] == "undecided"
    r = _result()
    for f in d3.FAMILIES:
        r["pca"]["shipped"][f]["50"]["undefined_at_ref"] = 100
    assert _v(r, "d3-pca-connectivity")["verdict"] == "not-reproduced"


def test_depth_rule():
    """Each seed's plausibly best depths on its own graphs, then k of n seeds: as stated, and
    where that is refuted, whether the worst case needs more layers than the others."""
    v = _v(_result(), "d3-optimal-depth")
    assert v["verdict"] == "confirmed" and v["best_greedy_worst"] == 15 and v["n"] == 50
    assert v["stated_k_of_n"] == "10 of 10"
    later = {"er": 5, "regular": 6, "bipartite": 7, "greedy_worst": 11}
    v = _v(_result(best=later), "d3-optimal-depth")
    assert v["verdict"] == "qualified" and v["worst_needs_more_k_of_n"] == "10 of 10"
    inverted = {"er": 5, "regular": 9, "bipartite": 12, "greedy_worst": 3}
    assert _v(_result(best=inverted), "d3-optimal-depth")["verdict"] == "refuted"
    r = _result()   # ties: the smallest best T decides (Algorithm 2's rule)
    r["depth"]["bipartite"]["50"]["best_T"] = [4, 9, 15]
    assert _v(r, "d3-optimal-depth")["ties_bipartite"] == "4,9,15"
    # the interval decides: noise as large as the dip leaves every depth plausibly best
    v = _v(_result(depth_spread=0.4), "d3-optimal-depth")
    first = v["per_seed_plausible"].split("; ")[0]
    assert v["verdict"] == "undecided" and first.startswith("s0 bipartite 1-")
    assert first.count("undecided") == 3       # many depths plausible, claimed ones among them


def _tail_result(shapes: dict, seeds: int = 10, graphs: int = 6, depths: int = d3.T_DEPTH):
    """A result whose depth curves follow ``shapes[family](T, graph, seed)`` (families left
    out are flat at 1.1 from T = 10 on)."""
    r = _result()

    def flat(t, g, k):
        return 1.0 + 0.1 * (t >= 10)
    for f in r["depth"]:
        shape = shapes.get(f, flat)
        cases = [[[shape(t, g, k) for t in range(1, depths + 1)] for g in range(graphs)]
                 for k in range(seeds)]
        r["depth"][f]["50"]["ratio_cases"] = cases
        r["depth"][f]["50"]["ratio"] = np.asarray(cases).mean(axis=(0, 1)).tolist()
    return r


def test_no_convergence_rule():
    """D.3 (4): the curves past T_max either keep moving by more than the margin (the claim
    holds) or stay within it of the last depth (they converge: the claim fails)."""
    m = S.D3_CONVERGED_MARGIN
    assert S.D3_TAIL_FROM == d3.T_MAX + 1

    def zigzag(t, g, k):      # 5 margins apart between odd and even depths, on every graph
        return 1.1 + 5 * m * (t % 2)

    def drift_once(t, g, k):  # flat but for one tail depth, 3 margins above the last
        return 1.1 + 3 * m * (t == 20)

    def noisy(t, g, k):       # a mean step of 2 margins at T = 18, lost in per-graph noise
        return 1.1 + (t == 18) * (2 * m + 40 * m * ((g + k) % 3 - 1))

    v = _v(_tail_result({}), "d3-no-convergence")
    assert v["verdict"] == "refuted" and v["some_family_k_of_n"] == "0 of 10"
    assert v["tail"] == "16-24" and v["last"] == d3.T_DEPTH and v["n"] == 50
    assert v["seeds_moving"] == "er 0, regular 0, bipartite 0, greedy_worst 0"
    v = _v(_tail_result({f: zigzag for f in d3.FAMILIES}), "d3-no-convergence")
    assert v["verdict"] == "confirmed" and v["every_family_k_of_n"] == "10 of 10"
    v = _v(_tail_result({"bipartite": drift_once}), "d3-no-convergence")
    assert v["verdict"] == "qualified" and v["seeds_moving"].endswith("bipartite 10, "
                                                                       "greedy_worst 0")
    # a mean difference beyond the margin that a seed's graphs do not pin down: that family is
    # undecided for each seed, so "in every family" is refuted and the narrower reading, not
    # itself confirmed, does not qualify it
    noisy_v = _v(_tail_result({"er": noisy}), "d3-no-convergence")
    assert noisy_v["verdict"] == "refuted" and "er undecided" in noisy_v["per_seed"]
    # two seeds decide nothing, however clear the curves
    two = _tail_result({f: zigzag for f in d3.FAMILIES}, seeds=2)
    assert _v(two, "d3-no-convergence")["verdict"] == "undecided"
    short = _tail_result({}, depths=d3.T_MAX)      # no depth past T_max was run
    assert _v(short, "d3-no-convergence")["verdict"] == "not-reproduced"


def test_plausible_best_depths():
    from reproduce.appendix_d3_parts.rules import plausible_best_depths
    # depth 3 is best by a wide margin on every graph and seed: only it is plausibly best
    cases = [[[1.0 + 0.5 * (t != 3) + 0.01 * g for t in range(1, 9)] for g in range(8)]
             for _ in range(3)]
    assert plausible_best_depths(cases, 0.99) == ([3], 3)
    # depths 3 and 4 tie on average but differ per graph: both stay, the rest are dropped
    cases = [[[1.0 + 0.5 * (t not in (3, 4)) + (0.05 if (t == 3) == (g % 2 == 0) else 0)
               for t in range(1, 9)] for g in range(8)] for _ in range(3)]
    assert plausible_best_depths(cases, 0.99)[0] == [3, 4]


def test_latching_rule():
    """Each part by the seed rule: G2S-RNN's seeds latch on at least 80% of their graphs, the
    GCNN's seeds flip at least half the vertices on average; both confirmed confirm, and a
    refuted part refutes the conjunction."""
    v = _v(_result(), "d3-latching")
    assert v["verdict"] == "confirmed" and v["g2s_k_of_n"] == "10 of 10"
    assert v["s2v_k_of_n"] == "5 of 5"
    # 80% of 30 graphs is not beyond 80%: each seed undecided
    v = _v(_result(latched=0.8), "d3-latching")
    assert v["g2s_verdict"] == "undecided" and v["verdict"] == "undecided"
    assert _v(_result(s2v_flip=0.5), "d3-latching")["verdict"] == "undecided"
    assert _v(_result(latched=0.1), "d3-latching")["verdict"] == "refuted"
    assert _v(_result(s2v_flip=0.1), "d3-latching")["verdict"] == "refuted"
    v = _v(_result(latched=0.1, s2v_flip=0.1), "d3-latching")
    assert v["verdict"] == "refuted" and v["g2s_latched"] == 0.1
    assert v["g2s_per_seed"].startswith("s0 0.10 [")
    # half the G2S-RNN seeds latch: it depends on the seed
    v = _v(_result(latched=(1.0,) * 5 + (0.1,) * 5), "d3-latching")
    assert v["g2s_verdict"] == "seed-dependent" and v["verdict"] == "seed-dependent"
    r = _result()
    r["latching"]["planted"]["s2v"] = None          # no GCNN checkpoint could be loaded
    assert _v(r, "d3-latching")["verdict"] == "qualified"


def test_latching_rule_uses_the_planted_trained_models_when_shipped():
    v = _v(_result(latched=1.0, s2v_flip=0.6, planted=(0.1, 0.1, (0.5, 0.5))), "d3-latching")
    assert v["verdict"] == "refuted" and v["basis"] == "planted-trained"
    assert v["er_trained_g2s_latched"] == 1.0       # the ER-trained basis is context
    v = _v(_result(latched=0.1, s2v_flip=0.1, planted=(1.0, 0.6, (0.5, 0.5))), "d3-latching")
    assert v["verdict"] == "confirmed" and v["gcnn"] == "planted-trained"
    r = _result(planted=(1.0, 0.6, (0.5, 0.5)))
    r["latching"]["planted"]["planted_s2v"] = None   # no planted GCNN: the ER-trained one
    v = _v(r, "d3-latching")
    assert v["basis"] == "planted-trained" and v["gcnn"] == "ER-trained"
    r["latching"]["planted"]["s2v"] = None           # no GCNN at all
    v = _v(r, "d3-latching")
    assert v["gcnn"] == "none" and v["s2v_flip_early"] is None and v["verdict"] == "qualified"


def test_latching_and_semantics_rules_count_seeds_not_pooled_cases():
    """Each seed is decided on its own graphs: seven seeds at 100% and three at 0% latched
    (70% pooled, below 80%) is 7 of 10 seeds: seed-dependent, not refuted; a summary that keeps
    no seeds apart decides nothing."""
    r = _result(latched=(1.0,) * 7 + (0.0,) * 3)
    v = _v(r, "d3-latching")
    assert v["g2s_k_of_n"] == "7 of 10" and v["g2s_verdict"] == "seed-dependent"
    del r["latching"]["planted"]["g2s"]["per_seed"]
    assert _v(r, "d3-latching")["g2s_verdict"] == "undecided"


def test_latch_summary_over_unique_cover_graphs():
    def case(top_tail, cover):
        return {"top": [[0, 1]] * 9 + top_tail, "is_min_cover": [cover] * L,
                "overlap": [1.0] * L, "flip": [0.0] * (L - 1), "change": [0.0] * (L - 1)}
    latched = case([[0, 1]] * (L - 9), True)
    wandering = case([[0, 1], [0, 2]] * 3, True)
    got = pooled.latch_summary([latched, wandering, wandering], [True, False, True])
    assert got["latched_fraction"] == pytest.approx(1 / 3)
    assert got["unique_cases"] == 2 and got["latched_fraction_unique"] == 0.5
    assert pooled.latch_summary([latched])["latched_fraction_unique"] is None


def test_q_semantics_rule():
    """As written on most graphs (>= 80%) by most seeds confirms; where that is refuted, the
    split reading on a decided share of graphs (> 20%) qualifies it only when that reading is
    itself confirmed; otherwise the claim as stated is refuted."""
    assert _v(_result(), "d3-q-semantics")["verdict"] == "pending"   # no planted model
    for literal, shifted, kind in ((1.0, 1.0, "confirmed"), (0.0, 0.9, "qualified"),
                                   (0.0, 0.5, "qualified"), (0.0, 0.0, "refuted"),
                                   (0.8, 0.9, "undecided"), (0.0, 0.2, "refuted")):
        v = _v(_result(planted=(1.0, 0.6, (literal, shifted))), "d3-q-semantics")
        assert v["verdict"] == kind, (literal, shifted, v["verdict"])
        assert v["holds"] == literal and v["layer"] == 5 and v["holds_shifted"] == shifted
    v = _v(_result(planted=(1.0, 0.6, (0.0, 0.5))), "d3-q-semantics")
    assert v["k_of_n"] == "0 of 10" and v["shifted_k_of_n"] == "10 of 10"


def _with_int_close(r, per_seed_rates, n=30):
    """``r`` with D.3 (5)(a)'s outcome at T = 5: each seed's fraction of graphs whose Q-values
    are close to integers."""
    model = r["latching"]["planted"]["planted_g2s"]
    cases = [[1] * round(x * n) + [0] * (n - round(x * n)) for x in per_seed_rates]
    t = S.D3_T_ROLLOUT - 1
    pooled_rate = float(np.mean([c for seed in cases for c in seed]))
    model["semantics"]["int_close"] = [0.5] * L
    model["semantics"]["int_close"][t] = pooled_rate
    model["semantics"]["int_close_count"] = [n] * L
    model["semantics"]["int_close_count"][t] = sum(map(sum, cases))
    model["semantics"]["cases"] = n * len(cases)
    model["per_seed"] = {f"planted_g2s_s{i}": {"latched": [1] * n, "flip_early": [0.1] * n,
                                               "holds": [1] * n, "holds_shifted": [1] * n,
                                               "int_close": c}
                         for i, c in enumerate(cases)}
    return r


def test_q_integers_rule():
    """D.3 (5)(a): pending without the planted-cover model or without the per-case outcome
    (a JSON that predates it); else each seed on its own graphs, read as D.3 (5)."""
    assert _v(_result(), "d3-q-integers")["verdict"] == "pending"    # no planted model
    r = _result(planted=(1.0, 0.6, (0.5, 0.5)))
    v = _v(r, "d3-q-integers")          # the summary has no int_close field: pending
    assert v["verdict"] == "pending" and v["median_int_err"] == 0.1 and v["layer"] == 5
    for rates, kind in (((1.0,) * 10, "confirmed"), ((0.0,) * 10, "refuted"),
                        ((0.5,) * 10, "qualified"), ((1.0,) * 5 + (0.0,) * 5, "seed-dependent"),
                        ((0.8,) * 10, "undecided")):
        v = _v(_with_int_close(_result(planted=(1.0, 0.6, (0.5, 0.5))), rates),
               "d3-q-integers")
        assert v["verdict"] == kind, (rates, v)
        assert v["seeds"] == 10 and v["int_tol"] == S.D3_INT_TOL
    r = _with_int_close(_result(planted=(1.0, 0.6, (0.5, 0.5))), (1.0,) * 10)
    del r["latching"]["planted"]["planted_g2s"]["per_seed"]["planted_g2s_s2"]["int_close"]
    assert _v(r, "d3-q-integers")["verdict"] == "pending"       # a seed without the outcome


def test_q_semantics_measures_on_constructed_values():
    # k = 2, minimum covers {0, 1} and {0, 2} (so u = 1, 1, 1, 0); layer 0 is the paper's
    # reading exactly, layer 1 the same with the split shifted by one, layer 2 is far off
    covers = [frozenset({0, 1}), frozenset({0, 2})]
    q1 = np.array([-3.0, -2.0, 0.0])
    q2 = np.array([[1.0, 1.0, 1.0, 0.0],
                   [0.0, 0.0, 0.0, -1.0],
                   [0.3, 0.3, 0.3, 0.3]])
    got = measures.q_semantics(q1, q2, 2, covers)
    assert got["q1_err"] == [0.0, 1.0, 3.0] and got["q2_err"] == [0.0, 1.0, 0.7]
    assert got["shift"] == [0.0, -1.0, 0.0]
    assert got["q1_err_shifted"] == [0.0, 0.0, 3.0] and got["q2_err_shifted"] == [0.0, 0.0, 0.7]
    assert got["q_err"] == [0.0, 0.0, 3.3] and got["int_err"] == [0.0, 0.0, 0.3]
    summary = pooled.semantics_summary([got])
    assert summary["holds"] == [1.0, 0.0, 0.0] and summary["holds_shifted"] == [1.0, 1.0, 0.0]
    assert summary["q_holds"] == [1.0, 1.0, 0.0]
    # D.3 (5)(a): layers 0-1 are integers, layer 2 is 0.3 from one (beyond INT_TOL = 0.25)
    assert summary["int_close"] == [1.0, 1.0, 0.0] and summary["int_close_count"] == [1, 1, 0]
    near = measures.q_semantics(q1 + 0.2, q2 - 0.2, 2, covers)     # 0.2 off: still close
    assert pooled.semantics_summary([near])["int_close"] == [1.0, 1.0, 1.0]
    assert got["int_err"][2] > S.D3_INT_TOL >= near["int_err"][2]


# ------------------------------------------------------------------ smoke run
def test_smoke_run_rederives(tmp_path):
    d3.main(["--profile", "smoke", "--out", str(tmp_path), "--no-cache"])
    payload = json.loads((tmp_path / "appendix_d3.json").read_text())
    stored = payload.pop("verdicts")
    assert set(stored) == {"d3-dimension-collapse", "d3-pca-alignment", "d3-pca-connectivity",
                           "d3-optimal-depth", "d3-no-convergence", "d3-latching",
                           "d3-q-semantics", "d3-q-integers"}
    assert json.loads(json.dumps(d3.derive_verdicts(payload))) == stored
    assert all(v["verdict"] in ("confirmed", "qualified", "refuted", "inconclusive",
                                "not-reproduced", "pending", "seed-dependent", "undecided",
                                "uninformative")
               for v in stored.values())
    assert (tmp_path / "appendix_d3.png").exists() and (tmp_path / "appendix_d3.pdf").exists()
    assert payload["provenance"]["profile"] == "smoke"


def test_early_variant_measures_only_seeds_with_early_weights():
    """Before: the ci profile asked the early-stopped variant for every shipped seed, and a
    seed trained without kept early weights stopped the run (checkpoint missing)."""
    from reproduce.appendix_d3_parts.units import checkpoint, variant_seeds
    assert variant_seeds("shipped", [0, 1, 7]) == [0, 1, 7]
    early = variant_seeds("early20k", range(12))
    assert early and all(checkpoint("early20k", s).exists() for s in early)
    assert not checkpoint("early20k", 11).exists() and 11 not in early


def test_repool_reproduces_the_summary():
    """The claims check's re-pooling gives back every number the script pooled, and an edited
    case moves a pooled number."""
    import copy
    from pathlib import Path

    from reproduce.harness.rederive import _same
    root = Path(d3.__file__).resolve().parents[1]
    stored = json.loads((root / "paper_figures" / "appendix_d3.json").read_text())
    again = pooled.repool(stored)
    assert set(again) == {"collapse", "pca", "depth", "latching"}
    assert all(_same(section, stored[key]) for key, section in again.items())
    edited = copy.deepcopy(stored)
    edited["depth"]["er"]["50"]["ratio_cases"][1][0][4] += 0.5
    assert not _same(pooled.repool(edited)["depth"], stored["depth"])
