"""Claims under every training recipe (reproduce.harness.verdicts.recipes), hand-made inputs.

Invariants:
* a recipe's view renames its G2S-RNN keys to the shipped recipe's, drops the other recipes'
  and keeps everything else (the untrained null included);
* the robustness word: recipe-robust when every reading of the paper's recipe gives the same
  verdict, recipe-sensitive naming the reading that changes it, pending while a reading has
  no complete evaluation; the diagnostic recipe and the untrained null never count;
* refuted under the shipped recipe and confirmed under a reading the paper allows is
  not-reproduced, with the reason;
* the learning null: each trained seed against its own initialisation, holds when training
  lowered the ratio beyond the noise, fails when it raised it;
* each recipe's word is shown with the count and interval its own rule derived, never
  another recipe's.
"""

import numpy as np

from reproduce.harness.verdicts.recipes import (
    NULL_CLAIM_SUFFIX,
    null_claim,
    recipe_view,
    recipes_in,
    robustness,
    seeds_text,
    with_recipes,
)

RNG = np.random.default_rng(5)


def _records(levels: dict, graphs: int = 12) -> list:
    """``levels[key]`` -> the mean ratio of that result key on each of ``graphs`` graphs."""
    recs = []
    for i in range(graphs):
        res = {k: {"ratio": lv + 0.002 * RNG.standard_normal()} for k, lv in levels.items()}
        recs.append({"family": "er", "n": 100, "index": i, "results": res})
    return recs


def test_a_view_renames_one_recipe_and_keeps_the_rest():
    result = {"instances": _records({"g2s_rnn_s0": 1.2, "g2s_rnn_tvaried_s0": 1.05,
                                     "g2s_rnn_target_s0": 1.01, "g2s_rnn_untrained_s0": 1.3,
                                     "s2v_s0": 1.1}),
              "seeds": {"g2s_rnn": [0], "g2s_rnn_tvaried": [0]}}
    view = recipe_view(result, "tvaried")
    keys = set(view["instances"][0]["results"])
    assert keys == {"g2s_rnn_s0", "g2s_rnn_untrained_s0", "s2v_s0"}
    assert view["instances"][0]["results"]["g2s_rnn_s0"] == \
        result["instances"][0]["results"]["g2s_rnn_tvaried_s0"]
    assert view["seeds"] == {"g2s_rnn": [0]}
    assert recipe_view(result, "paper") is result
    assert recipes_in(result) == {"paper": [0], "tvaried": [0], "target": [0],
                                  "untrained": [0]}


def _derive(result):
    """A toy claim about a trained model: confirmed when G2S-RNN's mean ratio is at most 1.1,
    refuted otherwise; and one claim about no trained model."""
    vals = [r["results"]["g2s_rnn_s0"]["ratio"] for r in result["instances"]]
    return {"toy": {"verdict": "confirmed" if np.mean(vals) <= 1.1 else "refuted"},
            "other": {"verdict": "confirmed"}}


def test_robustness_words():
    full = {"paper": "refuted", "selected": "refuted", "tvaried": "refuted",
            "target": "refuted"}
    assert robustness(full)[0] == "recipe-robust"
    word, note = robustness({**full, "tvaried": "seed-dependent"})
    assert word == "recipe-sensitive" and "B seed-dependent" in note
    assert robustness({**full, "target": "pending"})[0] == "pending"
    # the diagnostic and the null never count
    assert robustness({**full, "sizes": "confirmed", "untrained": "confirmed"})[0] == \
        "recipe-robust"
    # only the readings trained for the claim's models count; none trained: untested
    assert robustness({**full, "tvaried": "confirmed"}, ("paper", "target"))[0] == \
        "recipe-robust"
    assert robustness({"paper": "refuted"}, ("paper",))[0] == "untested"


def test_refuted_as_shipped_and_confirmed_under_an_allowed_reading_is_not_reproduced():
    levels = {"g2s_rnn_s0": 1.3, "g2s_rnn_selected_s0": 1.3, "g2s_rnn_tvaried_s0": 1.3,
              "g2s_rnn_target_s0": 1.02, "g2s_rnn_sizes_s0": 1.3}
    result = {"instances": _records(levels)}
    targets = {r: (0,) for r in ("paper", "selected", "tvaried", "target", "sizes")}
    out = with_recipes(result, _derive, ["toy"], targets)
    toy = out["toy"]
    assert toy["verdict"] == "not-reproduced" and "C" in toy["why_not_reproduced"]
    assert toy["robustness"] == "recipe-sensitive" and "C confirmed" in toy["robustness_note"]
    assert "by_recipe" not in out["other"]           # not a claim about a trained model
    # confirmed only under the diagnostic beyond the paper: still refuted, and robust
    levels.update(g2s_rnn_target_s0=1.3, g2s_rnn_sizes_s0=1.02)
    out = with_recipes({"instances": _records(levels)}, _derive, ["toy"], targets)
    assert out["toy"]["verdict"] == "refuted" and out["toy"]["robustness"] == "recipe-robust"
    assert "D confirmed" in out["toy"]["by_recipe"]


def test_a_recipe_with_fewer_seeds_than_its_target_is_pending():
    result = {"instances": _records({"g2s_rnn_s0": 1.3, "g2s_rnn_selected_s0": 1.02})}
    out = with_recipes(result, _derive, ["toy"], {"paper": (0,), "selected": (0, 1)})
    assert "A' pending" in out["toy"]["by_recipe"]
    assert out["toy"]["verdict"] == "refuted" and out["toy"]["robustness"] == "pending"


def test_a_recipe_short_of_seeds_on_the_records_a_claim_reads_is_pending_there():
    """A figure that runs a variant on every seed at one size and on two seeds at another
    (Figure 2(b)): a claim that reads the larger size waits under the variant, with a note
    saying how many of its seeds ran there, while a claim that reads the smaller size is
    decided; the shipped recipe's word stays its rule's."""
    small = _records({**{f"g2s_rnn_s{s}": 1.3 for s in range(3)},
                      **{f"g2s_rnn_target_s{s}": 1.02 for s in range(3)}}, graphs=6)
    big = [dict(r, n=1000) for r in _records({**{f"g2s_rnn_s{s}": 1.3 for s in range(3)},
                                               "g2s_rnn_target_s1": 1.02}, graphs=6)]
    result = {"instances": small + big}
    targets = {"paper": (0, 1, 2), "target": (0, 1, 2)}
    reads = {"toy": lambda rec: rec["n"] == 1000, "other": lambda rec: rec["n"] == 100}

    def derive(res):     # each claim: G2S-RNN's mean ratio over its seeds at one size
        def word(n):
            vals = [v["ratio"] for r in res["instances"] if r["n"] == n
                    for k, v in r["results"].items() if k.startswith("g2s_rnn_s")]
            return {"verdict": "confirmed" if np.mean(vals) <= 1.1 else "refuted"}
        return {"toy": word(1000), "other": word(100)}
    out = with_recipes(result, derive, ["toy", "other"], targets, reads=reads)
    assert out["toy"]["by_recipe"] == "paper refuted, C pending"
    assert out["toy"]["robustness"] == "pending"
    assert "C has 1 of its 3 seeds on every graph the claim reads" in \
        out["toy"]["robustness_note"]
    assert out["other"]["by_recipe"] == "paper refuted, C confirmed"
    # without reads, the variant's two seeds on the larger graphs would decide it
    loose = with_recipes(result, derive, ["toy"], targets)
    assert loose["toy"]["by_recipe"] == "paper refuted, C confirmed"


def test_a_json_of_other_weights_is_judged_by_the_models_it_holds():
    """A JSON made with --checkpoint-dir (the early-stopped weights: three seeds of the paper's
    recipe, no variant) has no training target: its shipped-recipe verdict is decided on the
    seeds it holds, and with no variant in the folder the robustness word is untested, not a
    pending that no training could resolve."""
    result = {"instances": _records({"g2s_rnn_s0": 1.3})}
    targets = {"paper": tuple(range(10)), "selected": tuple(range(10))}
    shipped = with_recipes(result, _derive, ["toy"], targets)
    assert shipped["toy"]["by_recipe"] == "paper pending, A' pending"
    assert shipped["toy"]["robustness"] == "pending"
    other = with_recipes({**result, "checkpoint_dir": "g2s/checkpoints/early20k"}, _derive,
                         ["toy"], targets)
    assert other["toy"]["by_recipe"] == "paper refuted"
    assert other["toy"]["robustness"] == "untested"


def test_the_learning_null_pairs_each_seed_with_its_initialisation():
    better = {f"g2s_rnn_s{s}": 1.05 for s in range(5)}
    better.update({f"g2s_rnn_untrained_s{s}": 1.3 for s in range(5)})
    got = null_claim(_records(better), n_resamples=999)
    assert got["verdict"] == "confirmed" and got["k_of_n"] == "5 of 5"
    worse = {f"g2s_rnn_s{s}": 1.3 for s in range(5)}
    worse.update({f"g2s_rnn_untrained_s{s}": 1.05 for s in range(5)})
    got = null_claim(_records(worse), n_resamples=999)
    assert got["verdict"] == "refuted" and got["fails"] == 5
    # a trained seed without its initialisation is not paired with another's
    lone = {"g2s_rnn_s7": 1.05, "g2s_rnn_untrained_s0": 1.3}
    assert null_claim(_records(lone), n_resamples=999)["verdict"] == "pending"
    # three pairs cannot decide, and say so
    three = {k: v for k, v in better.items() if k[-1] in "012"}
    got = null_claim(_records(three), n_resamples=999)
    assert got["verdict"] == "undecided" and got["reachable"] == "cannot be decided with 3 seeds"


def test_a_learning_null_claim_shows_no_verdict_under_the_untrained_null_itself():
    """Under the untrained "recipe" a learning-null claim would compare the untrained model
    with itself: its by_recipe leaves that entry out, while another claim shows it."""
    levels = {"g2s_rnn_s0": 1.3, "g2s_rnn_untrained_s0": 1.02}
    targets = {"paper": (0,), "untrained": (0,)}
    def derive(result):
        return {"toy": _derive(result)["toy"], f"toy{NULL_CLAIM_SUFFIX}": _derive(result)["toy"]}
    out = with_recipes({"instances": _records(levels)}, derive,
                       ["toy", f"toy{NULL_CLAIM_SUFFIX}"], targets)
    assert "untrained" in out["toy"]["by_recipe"]
    assert "untrained" not in out[f"toy{NULL_CLAIM_SUFFIX}"]["by_recipe"]


def test_a_bare_name_is_a_seed_only_where_a_figure_says_so():
    """On the grids the bare name is the seed mean; on Figure 2(b) it is seed 0's cover."""
    result = {"instances": [{"results": {"g2s_rnn": {}, "g2s_rnn_s1": {},
                                         "g2s_rnn_target": {}, "g2s_rnn_target_s2": {}}}]}
    assert recipes_in(result) == {"paper": [1], "target": [2]}
    assert recipes_in(result, bare_seed=0) == {"paper": [0, 1], "target": [0, 2]}


def test_each_recipe_word_is_shown_with_the_rules_own_count_and_interval():
    """The recipes page's breakdown: each decided word with the k of n and interval its own
    rule derived under that recipe (a different count per recipe), a pending word with none,
    and the plain ``by_recipe`` words unchanged."""
    levels = {**{f"g2s_rnn_s{s}": 1.3 for s in range(4)},
              **{f"g2s_rnn_target_s{s}": 1.02 for s in range(3)}, "g2s_rnn_target_s3": 1.3}
    result = {"instances": _records(levels)}

    def derive(res):
        seeds = [k for k in res["instances"][0]["results"] if k.startswith("g2s_rnn_s")]
        k = sum(np.mean([r["results"][s]["ratio"] for r in res["instances"]]) <= 1.1
                for s in seeds)
        return {"toy": {"verdict": "seed-dependent" if 0 < k < len(seeds) else "refuted",
                        "k_of_n": f"{k} of {len(seeds)}",
                        "fraction_interval": [k / len(seeds) / 2, 0.5 + k / len(seeds) / 2]}}
    out = with_recipes(result, derive, ["toy"],
                       {"paper": range(4), "selected": range(4), "target": range(4)})
    assert out["toy"]["by_recipe"] == "paper refuted, A' pending, C seed-dependent"
    assert out["toy"]["by_recipe_seeds"] == ("paper refuted (0 of 4 hold [0.00, 0.50]), "
                                             "A' pending, C seed-dependent "
                                             "(3 of 4 hold [0.38, 0.88])")


def test_seeds_text_reads_each_shape_a_rule_gives():
    assert seeds_text({"k_of_n": "2 of 5", "fraction_interval": "[0.12, 0.88]"}) == \
        "2 of 5 hold [0.12, 0.88]"
    assert seeds_text({"k_of_n": "0 of 0", "fraction_interval": "none"}) == ""
    parts = {"mis_k_of_n": "4 of 5", "mis_fraction_interval": [0.38, 1.0],
             "maxcut_k_of_n": "1 of 5"}
    assert seeds_text(parts) == "mis 4 of 5 hold [0.38, 1.00]; maxcut 1 of 5 hold"
    assert seeds_text({"by_verdict": "2 refuted, 2 undecided", "comparisons": 4}) == \
        "comparisons (4): 2 refuted, 2 undecided"
    assert seeds_text({"verdict": "confirmed"}) == ""
