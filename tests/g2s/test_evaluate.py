"""Algorithm 2 (arXiv:1802.04948, Appendix C) and the shipped checkpoints.

Invariants:
* the fast Algorithm 2 returns exactly the literal algorithm's ``T_max`` solutions (random
  weights and shipped weights; every problem; symmetric graphs where exact ties abound);
* Algorithm 2's answer is feasible, checked by ``g2s.problems``, and at least as good as every
  ``G2S-RNN(T)`` alone;
* shipped checkpoints load with ``torch.load(weights_only=True)``, carry their config, seed,
  iterations and validation curve, and give feasible solutions for their problem;
* ``solve_g2s`` handles vertex labels that are not ``0..n-1`` and rejects a checkpoint trained
  for another problem.
"""

import json

import networkx as nx
import pytest
import torch

from g2s import problems as P
from g2s.algorithm2.fast import algorithm2_fast
from g2s.algorithm2.literal import algorithm2_literal
from g2s.evaluate import solve_g2s, solve_with_model
from g2s.graphs import make_graph
from g2s.nn.batch import batch_graphs
from g2s.nn.checkpoints import CHECKPOINT_DIR, default_checkpoint, load_checkpoint
from g2s.nn.model import build_model

pytestmark = pytest.mark.torch

CASES = [("er", 20), ("regular", 16), ("bipartite", 16), ("greedy_worst", 20), ("grid", 16)]


def _random_model(seed):
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        return build_model().double().eval()


@pytest.mark.parametrize("problem", P.PROBLEMS)
@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow)])
def test_fast_equals_literal_random_weights(problem, seed):
    model = _random_model(seed)
    for family, n in CASES:
        b = batch_graphs([make_graph(family, n, seed=seed)], dtype=torch.float64)
        assert algorithm2_fast(model, problem, b, 15) == algorithm2_literal(model, problem, b, 15)


@pytest.mark.parametrize("problem", ["mvc", "maxcut", "mis"])
def test_fast_equals_literal_shipped(problem):
    path = default_checkpoint(problem)
    model, _ = load_checkpoint(path)
    for family, n in CASES[:3]:
        b = batch_graphs([make_graph(family, n, seed=7)], dtype=torch.float64)
        assert algorithm2_fast(model, problem, b, 15) == algorithm2_literal(model, problem, b, 15)


def test_best_of_T_is_feasible_and_no_worse_than_each_T():
    model = _random_model(3)
    G = make_graph("er", 40, seed=2)
    for problem in P.PROBLEMS:
        S, info = solve_with_model(model, problem, G, t_max=6)
        assert P.is_feasible(problem, G, S)
        assert len(info["utility_per_T"]) == 6
        assert P.utility(problem, G, S) == max(info["utility_per_T"])
        assert info["best_T"] == 1 + info["utility_per_T"].index(max(info["utility_per_T"]))


def _shipped():
    table = json.loads((CHECKPOINT_DIR / "defaults.json").read_text())
    names = set(table.values()) | {p.name for p in CHECKPOINT_DIR.glob("g2s_rnn_*.pt")
                                   if not p.name.endswith(".resume.pt")}
    return sorted(names)


@pytest.mark.parametrize("name", _shipped())
def test_checkpoint_loads_weights_only_and_solves(name):
    path = CHECKPOINT_DIR / name
    payload = torch.load(path, weights_only=True)
    meta = payload["meta"]
    for key in ("model_config", "train_config", "iterations", "seed", "validation_curve",
                "training_time_s"):
        assert key in meta
    if meta.get("recipe") == "untrained":   # the learning null: initial weights, never trained
        assert meta["iterations"] == 0 and meta["validation_curve"] == []
    else:
        assert meta["iterations"] == meta["validation_curve"][-1]["iteration"]
    problem = meta["train_config"]["problem"]
    model, _ = load_checkpoint(path)
    for family, n in [("er", 50), ("bipartite", 30)]:
        G = make_graph(family, n, seed=11)
        S, _ = solve_with_model(model, problem, G)
        assert P.is_feasible(problem, G, S)


def test_solve_g2s_relabelled_graph_and_wrong_problem():
    G = nx.relabel_nodes(make_graph("er", 25, seed=5), {i: f"v{i:02d}" for i in range(25)})
    S, info = solve_g2s("mvc", G)
    assert P.is_vertex_cover(G, S) and info["objective"] == len(S)
    with pytest.raises(ValueError, match="trained for"):
        solve_g2s("mis", G, checkpoint=default_checkpoint("mvc"))


def test_paper_v_opt_zero_rejects_every_mvc_solution():
    """Algorithm 2 starts from v_opt = 0 and keeps S only if f(S) > v_opt; for MVC f = -|S| < 0,
    so the literal pseudocode returns S = {}, which is not a cover.  We start from -inf."""
    G = make_graph("er", 30, seed=4)
    S, info = solve_with_model(_random_model(0), "mvc", G, t_max=5)
    assert all(u < 0 for u in info["utility_per_T"])       # the paper's test never passes
    assert not P.is_vertex_cover(G, set())                 # so its answer {} is infeasible
    assert P.is_vertex_cover(G, S)


def test_algorithm2_cost_is_one_pass_per_selected_vertex_and_T():
    """Section 5's O(|E| T_max + |V|) is the cost of one forward pass (T sparse products,
    tests/g2s/test_model.py::test_one_sparse_product_per_step); Algorithm 2 makes one pass per
    selected vertex and per T: sum_T |S_T| passes, sum_T T |S_T| sparse products."""
    model = _random_model(5)
    lengths = []
    orig = model.encoder.forward

    def recording(batch, c, T=None, lengths_=None, reads=None):
        lengths.append(T)
        return orig(batch, c, T=T)

    model.encoder.forward = recording
    G = make_graph("regular", 40, seed=1)
    sols = algorithm2_literal(model, "mvc", batch_graphs([G], dtype=torch.float64), 6)
    assert len(lengths) == sum(len(S) for S in sols)
    assert sum(lengths) == sum(T * len(S) for T, S in enumerate(sols, start=1))
    assert min(len(S) for S in sols) >= 20          # every cover of a 4-regular graph: >= n/2


def test_fast_path_counts_the_evolution_steps_it_shares():
    """The fast path computes one evolution per distinct state and shares it across the T that
    read it: all rollouts start from S = {} (one evolution of 15 steps instead of 120), later
    they diverge; with t_max = 1 there is nothing to share and the counts agree exactly."""
    model = _random_model(3)
    b = batch_graphs([make_graph("regular", 40, seed=2)], dtype=torch.float64)
    one: dict = {}
    sols = algorithm2_fast(model, "mvc", b, 1, stats=one)
    assert one["evolution_steps"] == len(sols[0])
    many: dict = {}
    sols = algorithm2_fast(model, "mvc", b, 15, stats=many)
    literal = sum(T * len(S) for T, S in enumerate(sols, start=1))
    assert 0 < many["evolution_steps"] <= literal - (120 - 15)


#: 4-regular graphs of growing size for the complexity test: |E| = 2 |V|, and every vertex cover
#: has at least |V| / 2 vertices (each vertex covers at most 4 of the 2 |V| edges)
GROWING = (12, 24, 48)


def test_algorithm2_work_is_not_o_of_e_t_max_plus_v():
    """Section 5, 'Testing': "The time complexity of G2S-RNN is O(|E| T_max + |V|)", stated
    for Algorithm 2 (G2S-RNN(1), ..., G2S-RNN(T_max), the best output).  Refuted as written:
    with the shipped MVC model and its T_max fixed, on 4-regular graphs of growing |V|, the
    evolution steps -- each one sparse product over all |E| edges
    (tests/g2s/test_model.py::test_one_sparse_product_per_step) -- grow in proportion to |V|:
    the literal algorithm's sum_T T |S_T| (its count: test_algorithm2_cost_is_one_pass_per_
    selected_vertex_and_T; the fast path returns its solutions) and the fast path's own count
    (rollouts in one state share an evolution), because each rollout adds one vertex per step
    and needs a new evolution at each new state.  So work / (|E| T_max + |V|) grows without
    bound; the bound holds for one step (every T at one state: T_max evolution steps)."""
    model, meta = load_checkpoint(default_checkpoint("mvc"))
    t_max = meta["model_config"]["T_max"]
    literal, fast = {}, {}
    for n in GROWING:
        b = batch_graphs([make_graph("regular", n, seed=n)], dtype=torch.float64)
        stats: dict = {}
        sols = algorithm2_fast(model, "mvc", b, t_max, stats=stats)
        assert min(len(S) for S in sols) >= n // 2          # every cover of a 4-regular graph
        literal[n] = sum(T * len(S) for T, S in enumerate(sols, start=1))
        fast[n] = stats["evolution_steps"]
        assert fast[n] >= max(len(S) for S in sols)         # one evolution per greedy step
    # the bound allows (|E| T_max + |V|) / |E| = T_max + 1/2 evolution steps; both exceed it
    assert min(fast.values()) > t_max + 0.5
    for steps in (literal, fast):       # steps per allowance grow linearly in |V|
        per_allowance = [steps[n] * 2 * n / (2 * n * t_max + n) for n in GROWING]
        assert all(b > a for a, b in zip(per_allowance, per_allowance[1:]))
        assert per_allowance[-1] >= 0.5 * (GROWING[-1] / GROWING[0]) * per_allowance[0]


@pytest.mark.slow
def test_25k_sparse_er_runs_and_fits_in_memory():
    """Section 1 / Fig. 2(b): G2S-RNN runs on 25,000-vertex graphs.  On one CPU core a few
    greedy steps of the fast Algorithm 2 run within 4 GiB of resident memory."""
    import resource
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    G = make_graph("sparse_er", 25_000, seed=0)
    b = batch_graphs([G], dtype=torch.float64)
    sols = algorithm2_fast(model, "mvc", b, 15, max_steps=2)
    assert all(len(S) == 2 for S in sols)
    rss_gib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    assert rss_gib < 4.0
