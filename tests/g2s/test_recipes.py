"""Training recipes (:mod:`g2s.rl.recipes`) and the validation that selects
(:mod:`g2s.rl.validation`).

Invariants:
* every shipped checkpoint's training config reads as the shipped recipe, ``paper``;
* a recipe's settings round-trip: resolving recipe r gives a config that reads as r;
* a flag that contradicts a recipe is refused, naming both values;
* the recipe is part of a checkpoint's name, the shipped recipe's names are unchanged, and the
  registry lists each recipe's files under it;
* the untrained null is the exact initial weights training seed s starts from;
* the Algorithm 2 validation graphs are disjoint from every certified evaluation graph;
* a run with ``validation = "algorithm2"`` selects on that curve, records it and its
  yardstick, and keeps both across a resume;
* ``t_train_max`` and ``n_max`` draw training depths and sizes from their ranges.
"""

import json
from dataclasses import asdict

import pytest
import torch

from g2s.graphs import graph_fingerprint
from g2s.nn.checkpoints import CHECKPOINT_DIR, checkpoint_path, read_meta, shipped
from g2s.nn.model import ModelConfig, build_model
from g2s.reference.certificates import CERTIFIED_INSTANCES, instance_graph
from g2s.rl.config import TrainConfig
from g2s.rl.dqn import train
from g2s.rl.recipes import (
    CUSTOM,
    PAPER,
    RECIPES,
    UNTRAINED,
    recipe_of,
    resolve_recipe,
)
from g2s.rl.validation import algorithm2_validation_graphs

pytestmark = pytest.mark.torch


def test_every_shipped_checkpoint_reads_as_its_recipe():
    for ident, path in shipped().items():
        assert recipe_of(read_meta(path)["train_config"]) == ident.recipe, path.name


@pytest.mark.parametrize("name", list(RECIPES))
def test_a_recipe_resolves_to_itself(name):
    values = resolve_recipe(asdict(TrainConfig()), name)
    assert values["recipe"] == name
    assert recipe_of(values) == name
    assert all(values[k] == v for k, v in RECIPES[name].settings.items())


def test_a_flag_against_the_recipe_is_refused():
    with pytest.raises(ValueError, match="target-update 1000, but --target-update 7"):
        resolve_recipe({**asdict(TrainConfig()), "target_update": 7}, "target")
    with pytest.raises(ValueError, match="positive number of iterations"):
        resolve_recipe({**asdict(TrainConfig()), "iterations": 0}, "selected")
    # a user's own settings read as custom, never as a recipe they do not follow
    assert recipe_of({**asdict(TrainConfig()), "target_update": 7}) == CUSTOM


def test_the_recipe_is_part_of_the_name():
    assert checkpoint_path("g2s_rnn", "mvc", "er15", 3).name == "g2s_rnn_mvc_er15_s3.pt"
    assert checkpoint_path("g2s_rnn", "mvc", "er15", 3, recipe=PAPER).name == \
        "g2s_rnn_mvc_er15_s3.pt"
    assert checkpoint_path("g2s_rnn", "mis", "er15", 1, recipe="tvaried").name == \
        "g2s_rnn_mis_er15_tvaried_s1.pt"
    with pytest.raises(ValueError):
        checkpoint_path("g2s_rnn", "mvc", "er15", 0, recipe="../x")
    for ident, path in shipped().items():
        assert checkpoint_path(ident.encoder, ident.problem, ident.trained_on, ident.seed,
                               recipe=ident.recipe) == path


def test_the_untrained_null_is_the_initial_weights_of_its_seed(tmp_path):
    for seed in (0, 3):
        path = checkpoint_path("g2s_rnn", "mvc", "er15", seed, recipe=UNTRAINED)
        if not path.exists():    # written by reproduce/train_all.py --recipes untrained
            path = tmp_path / f"u{seed}.pt"
            train(TrainConfig(**resolve_recipe({**asdict(TrainConfig()), "seed": seed},
                                               UNTRAINED)), path, progress=False)
        state = torch.load(path, weights_only=True)["state_dict"]
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            init = build_model(ModelConfig()).state_dict()
        assert state.keys() == init.keys()
        assert all(torch.equal(state[k], init[k]) for k in init)
        assert read_meta(path)["iterations"] == 0


def test_algorithm2_validation_graphs_are_no_evaluation_graph():
    evaluation = {}
    for (_problem, family), groups in CERTIFIED_INSTANCES.items():
        for sizes, count in groups:
            for n in sizes:
                if n == 50:
                    for i in range(count):
                        evaluation.setdefault(family, set()).add(
                            graph_fingerprint(instance_graph(family, 50, i)))
    assert evaluation, "no certified evaluation graph has 50 vertices"
    for family, prints in evaluation.items():
        if family in ("er", "bipartite"):
            mine = {graph_fingerprint(G) for G in algorithm2_validation_graphs(family, 50, 32)}
            assert len(mine) == 32 and not mine & prints


def _small(**kw):
    base = dict(problem="mis", iterations=200, batch_size=16, eps_decay=100, warmup=32,
                validate_every=100, n_validation=4, checkpoint_every=100, seed=1,
                validation="algorithm2", select_every=100, validation_n=20,
                validation_graphs=3)
    base.update(kw)
    return TrainConfig(**base)


def test_algorithm2_validation_selects_and_survives_a_resume(tmp_path):
    torch.set_num_threads(1)
    out = tmp_path / "v.pt"
    train(_small(iterations=100), out, progress=False)
    first = torch.load(out.with_suffix(".resume.pt"), weights_only=True)
    meta = train(_small(), out, progress=False)
    assert meta["validation"] == "algorithm2"
    assert [p["iteration"] for p in meta["selection_curve"]] == [100, 200]
    assert meta["validation_set"] == first["validation_set"]   # one yardstick across a resume
    assert len(meta["validation_set"]["best_known"]) == 3
    best = min(p["val_ratio"] for p in meta["selection_curve"])
    assert meta["best_val_ratio"] == best
    chosen = [p for p in meta["selection_curve"] if p["val_ratio"] == best][-1]
    assert meta["selected_iteration"] == chosen["iteration"]
    assert all(1 <= t <= 15 for p in meta["selection_curve"] for t in p["best_T"])
    assert json.loads(out.with_suffix(".json").read_text())["selection_curve"] == \
        meta["selection_curve"]


def test_training_depths_and_sizes_come_from_their_ranges(monkeypatch, tmp_path):
    import g2s.rl.dqn as dqn
    import g2s.rl.qstep as qstep
    depths, sizes = [], []
    real_act, real_graph = qstep.act, qstep.make_graph

    def act(model, cfg, T, *a, **k):
        depths.append(T)
        return real_act(model, cfg, T, *a, **k)

    def make_graph(family, n, seed=None):
        sizes.append(n)
        return real_graph(family, n, seed=seed)
    monkeypatch.setattr(dqn, "act", act)
    monkeypatch.setattr(qstep, "make_graph", make_graph)
    train(_small(iterations=60, validation="exact", t_train_max=3, n_max=25, n=15),
          tmp_path / "d.pt", progress=False)
    assert set(depths) == {1, 2, 3}
    assert min(sizes) >= 15 and max(sizes) <= 25 and len(set(sizes)) > 3
    depths.clear()
    train(_small(iterations=20, validation="exact"), tmp_path / "e.pt", progress=False)
    assert set(depths) == {ModelConfig().T_train}


def test_every_shipped_recipe_file_sits_in_the_checkpoint_folder():
    for ident, path in shipped().items():
        assert path.parent == CHECKPOINT_DIR and ident.recipe in RECIPES


def test_the_default_checkpoint_is_chosen_on_validation_across_recipes(tmp_path, monkeypatch):
    """``defaults.json`` per problem: the lowest Algorithm 2 validation ratio among the ER-15
    G2S-RNN checkpoints of every recipe the paper allows (here the shipped recipe's seeds 0
    and 1 and recipe A' as a renamed copy), never the untrained null; every score recorded."""
    import shutil

    import g2s.rl.validation as V
    from g2s.rl.validation import select_default_checkpoints
    names = ["g2s_rnn_mvc_er15_s0", "g2s_rnn_mvc_er15_s1", "g2s_rnn_mvc_er15_untrained_s0"]
    for name in names:
        for ext in (".pt", ".json"):
            shutil.copy(CHECKPOINT_DIR / f"{name}{ext}", tmp_path / f"{name}{ext}")
    for ext in (".pt", ".json"):      # the same weights under recipe A': tied, so not chosen
        shutil.copy(CHECKPOINT_DIR / f"g2s_rnn_mvc_er15_s1{ext}",
                    tmp_path / f"g2s_rnn_mvc_er15_selected_s1{ext}")
    original = V.algorithm2_validation_set

    def small(cfg, seconds=V.REFERENCE_SECONDS):    # 4 graphs keep the test short
        return original(TrainConfig.from_dict({**asdict(cfg), "validation_graphs": 4}), 0.1)
    monkeypatch.setattr(V, "algorithm2_validation_set", small)
    table = select_default_checkpoints(tmp_path)
    record = json.loads((tmp_path / "defaults_selection.json").read_text())["mvc"]
    assert set(record["scores"]) == {"g2s_rnn_mvc_er15_s0.pt", "g2s_rnn_mvc_er15_s1.pt",
                                     "g2s_rnn_mvc_er15_selected_s1.pt"}
    best = min(record["scores"].values())
    assert record["scores"][table["mvc"]] == best and record["chosen"] == table["mvc"]
    assert record["scores"]["g2s_rnn_mvc_er15_s1.pt"] == \
        record["scores"]["g2s_rnn_mvc_er15_selected_s1.pt"]
    assert table["mvc"] != "g2s_rnn_mvc_er15_selected_s1.pt"      # a tie: the paper's first
    assert json.loads((tmp_path / "defaults.json").read_text()) == table
    assert record["validation_set"]["graphs"] == 4 and len(record["validation_set"][
        "best_known"]) == 4


def _sidecars(folder, recipe, scores, validation="algorithm2"):
    """Checkpoint files of G2S-RNN MVC ER-15 under ``recipe``, seed -> sidecar score (the .pt
    is a placeholder: :func:`validation_seeds` reads the sidecars)."""
    for seed, score in scores.items():
        path = checkpoint_path("g2s_rnn", "mvc", "er15", seed, folder, recipe=recipe)
        path.write_bytes(b"")
        path.with_suffix(".json").write_text(json.dumps(
            {"validation": validation, "best_val_ratio": score, "seed": seed}))


def test_the_validation_seeds_are_the_best_and_the_median_score(tmp_path):
    """A recipe's validation-selected seed has the lowest validation score (ties: the smaller
    seed), its median seed the lower median; a recipe selected by the exact validation, or with
    no seed, has none; another recipe's or problem's files do not count."""
    from g2s.rl.validation import validation_seeds
    _sidecars(tmp_path, "tvaried", {0: 1.03, 1: 1.01, 2: 1.05, 3: 1.01, 4: 1.02, 5: 1.04})
    _sidecars(tmp_path, "target", {0: 1.0, 1: 1.0, 2: 1.0})
    _sidecars(tmp_path, "selected", {0: 0.5})
    (tmp_path / "g2s_rnn_mis_er15_tvaried_s9.pt").write_bytes(b"")
    got = validation_seeds("mvc", "er15", "tvaried", tmp_path)
    # sorted: s1 1.01, s3 1.01, s4 1.02, s0 1.03, s5 1.04, s2 1.05 -> lower median s4
    assert (got["selected"], got["median"]) == (1, 4)
    assert got["scores"] == {0: 1.03, 1: 1.01, 2: 1.05, 3: 1.01, 4: 1.02, 5: 1.04}
    tied = validation_seeds("mvc", "er15", "target", tmp_path)   # a saturated validation
    assert (tied["selected"], tied["median"]) == (0, 1)
    assert validation_seeds("mvc", "er15", "sizes", tmp_path) is None
    _sidecars(tmp_path, "paper", {0: 1.0, 1: 1.0}, validation="exact")
    assert validation_seeds("mvc", "er15", "paper", tmp_path) is None


def test_device_check_runs_the_recipes_on_figure2b_first():
    """``benchmarks/device_check.py``'s units start with G2S-RNN under the other recipes on
    Figure 2(b)'s graphs: the untrained null's 10,000-vertex cells, then each variant's
    validation-selected and median seed at 25,000 vertices, then the seeds of its training
    target for both families' models there (what a claim reading those graphs needs under
    the variant) and no other seed there; every unit names its recipe and a shipped
    checkpoint of that recipe."""
    import sys

    from g2s.nn.checkpoints import CheckpointId
    from g2s.rl.recipes import PAPER, UNTRAINED
    from g2s.rl.validation import validation_seeds
    sys.path.insert(0, str(CHECKPOINT_DIR.parents[1]))
    from benchmarks.device_check import unit_list
    units = unit_list()
    names = {p.name: ident for ident, p in shipped().items()}
    for u in units:
        ident: CheckpointId = names[u["checkpoint"].rsplit("/", 1)[-1]]
        assert ident.recipe == u["recipe"] and ident.seed == u["seed"]
    kinds = [u["recipe"] for u in units]
    first_paper = kinds.index(PAPER)
    assert all(r != PAPER for r in kinds[:first_paper])
    table = [u for u in units[first_paper:] if u["kind"] == "table"]
    assert all(u["recipe"] == PAPER for u in table)
    untrained = [u for u in units[:first_paper] if u["recipe"] == UNTRAINED]
    assert untrained and {u["n"] for u in untrained} == {10_000}
    assert untrained == units[:len(untrained)]
    from reproduce.harness import settings as S
    targets = S.recipe_targets(("mvc", S.ER15), ("mvc", S.BIPARTITE20))
    big = [u for u in units[:first_paper] if u["n"] == 25_000]
    chosen = [validation_seeds("mvc", names[u["checkpoint"].rsplit("/", 1)[-1]].trained_on,
                               u["recipe"]) for u in big]
    picked = [u["seed"] in (c["selected"], c["median"]) for u, c in zip(big, chosen)]
    assert picked == sorted(picked, reverse=True) and picked[0]   # the chosen seeds first
    assert all(u["seed"] in targets[u["recipe"]] for u, p in zip(big, picked) if not p)
    assert {(u["family"], u["seed"]) for u in big if u["recipe"] == "target"} >= {
        (f, s) for f in ("sparse_er", "sparse_bipartite") for s in targets["target"]}


def test_device_check_runs_the_recipes_at_scale_after_the_paper_recipe():
    """Figure 2's scale units (intro-scale-3200) under the other recipes trained for both of
    its models follow the shipped recipe's G2S-RNN scale units and come before the baselines':
    every target seed of each such recipe on every size, family and graph, the readings the
    paper allows before the untrained null."""
    import sys

    from g2s.rl.recipes import PAPER, PAPER_READINGS, UNTRAINED
    sys.path.insert(0, str(CHECKPOINT_DIR.parents[1]))
    from benchmarks.device_check import SCALE_SIZES, unit_list
    from reproduce.harness import settings as S
    # Figure 2's: ER graphs, and bipartite graphs with the bipartite-20 models (Figure 3 runs
    # the ER-15 models on bipartite graphs too)
    units = [u for u in unit_list() if u["kind"] == "scale" and (
        u["family"] == "er" or u["family"] == "bipartite" and S.BIPARTITE20 in u["checkpoint"])]
    targets = S.recipe_targets(("mvc", S.ER15), ("mvc", S.BIPARTITE20))
    others = [r for r in targets if r != PAPER]
    assert "target" in others and UNTRAINED in others
    order = [("g2s_rnn" if u["encoder"] == "g2s_rnn" else "baseline", u["recipe"])
             for u in units]
    blocks = [k for i, k in enumerate(order) if i == 0 or order[i - 1] != k]
    readings = [r for r in others if r in PAPER_READINGS]
    assert blocks == [("g2s_rnn", PAPER)] + [("g2s_rnn", r) for r in readings + [UNTRAINED]] \
        + [("baseline", PAPER)]
    for r in others:
        got = {(u["family"], u["n"], u["index"], u["seed"]) for u in units if u["recipe"] == r}
        assert got == {(f, n, i, s) for f in ("er", "bipartite") for n in SCALE_SIZES
                       for i in range(3) for s in targets[r]}
