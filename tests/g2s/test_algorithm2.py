"""The exact fast Algorithm 2 (:mod:`g2s.algorithm2.fast`) against the literal algorithm.

Invariants:
* every ``T``'s solution equals the float64 literal algorithm's, for random and shipped weights,
  every problem, symmetric graphs full of exact ties, with and without the float32 screen, one
  state at a time or all states stacked (the CUDA layout);
* ``prune=True`` keeps Algorithm 2's answer (the best solution and its smallest ``T``);
* a run killed (``kill -9``) after saving its resume state, run again, gives the answer of an
  uninterrupted run; a resume file made for another graph is refused;
* a deadline that has passed still returns a feasible solution per ``T``, marked
  ``time_limit``; the completion after a deadline (a heap with lazily discarded entries)
  makes the same choices as re-reading every key at every step, on any graph and partial
  solution;
* the float64 scores are the literal's, bit for bit, at every depth of one evolution;
* rollouts move between the float32 screen and float64 both ways without changing the answer.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from g2s import problems as P
from g2s.algorithm2.decide import ExactScores
from g2s.algorithm2.evolve import complete_greedily, neighbour_sum_into
from g2s.algorithm2.fast import algorithm2_exact
from g2s.algorithm2.literal import _vertex_scores, algorithm2_literal
from g2s.graphs import make_graph
from g2s.nn.batch import batch_graphs
from g2s.nn.checkpoints import default_checkpoint, load_checkpoint
from g2s.nn.model import build_model

pytestmark = pytest.mark.torch

CASES = [("er", 24), ("regular", 20), ("bipartite", 16), ("greedy_worst", 20), ("grid", 16)]
MODES = [dict(screen=True, batched=False), dict(screen=True, batched=True),
         dict(screen=False, batched=True)]


def _random_model(seed):
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        return build_model().double().eval()


def _batch(G):
    return batch_graphs([G], dtype=torch.float64)


@pytest.mark.parametrize("family,n", CASES, ids=[f for f, _ in CASES])
@pytest.mark.parametrize("problem", P.PROBLEMS)
def test_equals_literal_random_weights_every_mode(problem, family, n):
    """Every mode of the fast path gives the literal algorithm's solutions (one test per
    problem and graph, so they run on every core)."""
    model = _random_model(4)
    b = _batch(make_graph(family, n, seed=2))
    lit = algorithm2_literal(model, problem, b, 15)
    for mode in MODES:
        assert algorithm2_exact(model, problem, b, 15, **mode).solutions == lit, (family, mode)


@pytest.mark.parametrize("family,n", CASES, ids=[f for f, _ in CASES])
@pytest.mark.parametrize("problem", P.PROBLEMS)
def test_float32_rescored_in_float64_equals_literal(problem, family, n, monkeypatch):
    """With a float32 margin as wide as the scores, the screen never settles a decision: every
    one with two or more candidates is decided by the literal's own scores of that state, and
    the answer is the literal's."""
    import g2s.algorithm2.decide as decide
    monkeypatch.setattr(decide, "RELATIVE_MARGIN", 10.0)
    model = _random_model(7)
    b = _batch(make_graph(family, n, seed=3))
    st: dict = {}
    res = algorithm2_exact(model, problem, b, 15, screen=True, batched=False, stats=st)
    assert res.solutions == algorithm2_literal(model, problem, b, 15), family
    assert st["float64_rescores"] > 0


def test_each_decision_is_made_once():
    """A rollout that switches to float64 screening moves at the next step: it is not decided a
    second time in the step it switched (MVC adds one vertex per decision)."""
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    b = _batch(make_graph("regular", 60, seed=1))
    st: dict = {}
    res = algorithm2_exact(model, "mvc", b, 15, screen=True, stats=st)
    assert st["switched_to_float64"] > 0
    assert st["decisions"] == sum(len(S) for S in res.solutions)


def test_rollouts_move_back_to_float32_and_keep_the_answer():
    """A rollout moved to float64 by early near-ties returns to the float32 screen once its
    float64 decisions show leads the screen would settle (bipartite MVC: the first steps are
    full of ties, the later ones are not); switching is a speed choice, so the answer stays
    the literal's and every decision is made once."""
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    b = _batch(make_graph("bipartite", 80, seed=1))
    st: dict = {}
    res = algorithm2_exact(model, "mvc", b, 15, screen=True, stats=st)
    assert st["switched_to_float64"] > 0 and st["switched_to_float32"] > 0
    assert res.solutions == algorithm2_literal(model, "mvc", b, 15)
    assert st["decisions"] == sum(len(S) for S in res.solutions)


@pytest.mark.parametrize("problem", P.PROBLEMS)
def test_equals_literal_shipped_weights(problem):
    model, _ = load_checkpoint(default_checkpoint(problem))
    for family, n in [("er", 50), ("regular", 40), ("bipartite", 30)]:
        b = _batch(make_graph(family, n, seed=9))
        assert algorithm2_exact(model, problem, b, 15).solutions == \
            algorithm2_literal(model, problem, b, 15)


def test_prune_keeps_the_answer():
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    for family, n in [("regular", 60), ("er", 60), ("greedy_worst", 40)]:
        b = _batch(make_graph(family, n, seed=1))
        full = algorithm2_exact(model, "mvc", b, 15).solutions
        pruned = algorithm2_exact(model, "mvc", b, 15, prune=True).solutions
        best = min(len(S) for S in full)
        T_best = [len(S) for S in full].index(best)
        assert pruned[T_best] == full[T_best]
        assert all(S is None or len(S) >= best for S in pruned)
        assert all(S is None or S == full[i] for i, S in enumerate(pruned))


def test_resume_after_interrupt_gives_the_same_answer(tmp_path):
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    b = _batch(make_graph("er", 80, seed=3))
    whole = algorithm2_exact(model, "mvc", b, 15).solutions
    state = tmp_path / "run.state"
    part = algorithm2_exact(model, "mvc", b, 15, max_steps=7, resume=state, save_every_s=-1)
    assert state.exists() and all(len(S) == 7 for S in part.solutions)
    again = algorithm2_exact(model, "mvc", b, 15, resume=state, save_every_s=-1)
    assert again.solutions == whole and not state.exists()


def test_progress_reports_every_greedy_step_and_where_a_resume_starts(tmp_path):
    """``progress(step, running)``: once at the start (the step a resume state starts from),
    then after every greedy step; the steps count up by one to the episode's length and the
    running rollouts never grow; a callback changes no answer."""
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    b = _batch(make_graph("er", 80, seed=3))
    whole = algorithm2_exact(model, "mvc", b, 15, prune=True).solutions
    calls: list = []
    st: dict = {}
    got = algorithm2_exact(model, "mvc", b, 15, prune=True, stats=st,
                           progress=lambda step, running: calls.append((step, running)))
    assert got.solutions == whole
    steps = [c[0] for c in calls]
    assert steps == list(range(st["greedy_steps"] + 1))
    running = [c[1] for c in calls]
    assert running[0] == 15 and running == sorted(running, reverse=True)
    state = tmp_path / "run.state"
    algorithm2_exact(model, "mvc", b, 15, prune=True, max_steps=7, resume=state,
                     save_every_s=-1)
    calls.clear()
    again = algorithm2_exact(model, "mvc", b, 15, prune=True, resume=state,
                             progress=lambda step, running: calls.append((step, running)))
    assert again.solutions == whole
    assert [c[0] for c in calls] == list(range(7, st["greedy_steps"] + 1))


def test_a_float64_state_resumed_with_the_screen_screens_in_float32(tmp_path):
    """The precision is a speed choice: resuming a float64 run's state with ``screen=True``
    evolves in float32 from there on (it used to stay in float64) and gives the same answer."""
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    b = _batch(make_graph("er", 80, seed=3))
    whole = algorithm2_exact(model, "mvc", b, 15).solutions
    state = tmp_path / "run.state"
    algorithm2_exact(model, "mvc", b, 15, max_steps=7, resume=state, save_every_s=-1)
    st: dict = {}
    again = algorithm2_exact(model, "mvc", b, 15, resume=state, save_every_s=-1, screen=True,
                             stats=st)
    assert again.solutions == whole and st["evolution_steps_float32"] > 0


def test_resume_file_of_another_graph_is_refused(tmp_path):
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    state = tmp_path / "run.state"
    algorithm2_exact(model, "mvc", _batch(make_graph("er", 40, seed=1)), 15, max_steps=2,
                     resume=state, save_every_s=-1)
    with pytest.raises(ValueError, match="another graph"):
        algorithm2_exact(model, "mvc", _batch(make_graph("er", 40, seed=2)), 15, resume=state)


_KILLED_RUN = """
import sys, torch
from g2s.algorithm2.fast import algorithm2_exact
from g2s.nn.checkpoints import default_checkpoint, load_checkpoint
from g2s.graphs import make_graph
from g2s.nn.batch import batch_graphs
torch.set_num_threads(1)
model, _ = load_checkpoint(default_checkpoint("mvc"))
b = batch_graphs([make_graph("er", 300, seed=4)], dtype=torch.float64)
algorithm2_exact(model, "mvc", b, 15, resume=sys.argv[1], save_every_s=0.0)
"""


def test_kill_9_then_the_same_command_gives_the_same_answer(tmp_path):
    state = tmp_path / "run.state"
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_RUN, str(state)])
    t0 = time.time()
    while not state.exists() and proc.poll() is None and time.time() - t0 < 300:
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert state.exists(), "the run saved no resume state before it was killed"
    # atomic: a write cut short leaves at most the temporary file, never a damaged state
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    b = _batch(make_graph("er", 300, seed=4))
    until = int(torch.load(state, weights_only=True)["step"]) + 10
    resumed = algorithm2_exact(model, "mvc", b, 15, resume=state, max_steps=until,
                               save_every_s=float("inf"))
    fresh = algorithm2_exact(model, "mvc", b, 15, max_steps=until)
    assert resumed.solutions == fresh.solutions
    assert not list(tmp_path.glob("*.tmp"))         # the resumed run cleared a stale one


@pytest.mark.parametrize("problem", P.PROBLEMS)
def test_passed_deadline_still_returns_feasible_solutions(problem):
    model, _ = load_checkpoint(default_checkpoint(problem))
    G = make_graph("er", 60, seed=6)
    res = algorithm2_exact(model, problem, _batch(G), 15, deadline=time.monotonic() - 1)
    assert res.status == "time_limit"
    assert all(P.is_feasible(problem, G, S) for S in res.solutions)
    # nothing uncuttable starts after the deadline: no evolution, only the greedy completion
    assert res.stats["greedy_steps"] == 0
    assert res.stats["evolution_steps_float64"] == res.stats["evolution_steps_float32"] == 0


def _completion_by_rereading(problem, sel, inside, deg, G):
    """The greedy completion's definition: every step re-reads every candidate's key (MVC its
    uncovered edges, max cut its gain, MIS minus its candidate neighbours) and adds the first
    largest."""
    sel, inside, out = sel.copy(), inside.copy(), []
    while True:
        cand = {"mvc": ~sel & (inside < deg), "mis": ~sel & (inside == 0),
                "maxcut": ~sel & (deg - 2 * inside > 0)}[problem]
        if not cand.any():
            return out
        if problem == "mis":
            key = -np.array([sum(bool(cand[u]) for u in G[v]) for v in range(len(deg))])
        else:
            key = deg - (1 if problem == "mvc" else 2) * inside
        a = int(np.argmax(np.where(cand, key.astype(float), -np.inf)))
        out.append(a)
        sel[a] = True
        for u in G[a]:
            inside[u] += 1


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 25), p=st.floats(0.0, 1.0), seed=st.integers(0, 2**31),
       share=st.floats(0.0, 0.6), problem=st.sampled_from(P.PROBLEMS))
def test_completion_after_a_deadline_is_the_greedy_rule(n, p, seed, share, problem):
    G = nx.gnp_random_graph(n, p, seed=seed)
    rng = np.random.default_rng(seed)
    sel = np.zeros(n, dtype=bool)
    for v in np.flatnonzero(rng.random(n) < share):  # a partial solution the MDP could reach
        if problem != "mis" or not any(sel[u] for u in G[v]):
            sel[v] = True
    inside = np.array([sum(bool(sel[u]) for u in G[v]) for v in range(n)], dtype=np.int64)
    deg = np.array([G.degree(v) for v in range(n)], dtype=np.int64)
    A = nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr")
    got = complete_greedily(problem, sel, inside, deg, A.indptr, A.indices)
    assert got == _completion_by_rereading(problem, sel, inside, deg, G)
    done = set(np.flatnonzero(sel).tolist()) | set(got)
    assert P.is_feasible(problem, G, done)


@pytest.mark.parametrize("problem", P.PROBLEMS)
def test_exact_scores_are_the_literals_bit_for_bit(problem):
    """The float64 decisions rest on this: one evolution read at every depth, on the
    int32-index adjacency and in-place arithmetic, gives exactly the literal's rounded scores
    (and its raw scores) at each ``T`` -- no tolerance.  Shipped and random weights (with and
    without the Seq2Vec self term), regular (all ties), bipartite, ER and grid graphs, random
    states."""
    rng = np.random.default_rng(11)
    with torch.random.fork_rng():
        torch.manual_seed(6)                            # Section 4's W x_v(t) input term too
        self_term = build_model({"seq2vec_self_term": True}).double().eval()
    models = [load_checkpoint(default_checkpoint(problem))[0], _random_model(5), self_term]
    for model in models:
        for family, n in CASES + [("er", 200)]:
            b = _batch(make_graph(family, n, seed=4))
            exact = ExactScores(model, b)
            for _ in range(2):
                c = torch.from_numpy(rng.random(n) < 0.3)
                got = exact(c, range(1, 16))
                for T in (1, 2, 7, 15):
                    lit = _vertex_scores(model, b, c.to(torch.float64), T=T)
                    raw = model.qnet.vertex_term(model.embed(b, c.to(torch.float64), T=T))
                    assert torch.equal(got[T][0], lit), (family, T)
                    assert torch.equal(got[T][1], raw), (family, T)


def test_int32_indices_keep_the_neighbour_sums():
    """The int32-index adjacency and the product into a reused buffer are used only where their
    sums equal the literal's ``A @ x``; on these graphs they do, in both precisions."""
    for family, n in CASES:
        for dtype in (torch.float64, torch.float32):
            b = _batch(make_graph(family, n, seed=1)).to(dtype=dtype)
            into, A = neighbour_sum_into(b)
            assert A.crow_indices().dtype == torch.int32
            for _ in range(3):
                x = torch.randn(n, 16, dtype=dtype)
                out = torch.full((n, 16), float("nan"), dtype=dtype)
                assert torch.equal(b.neighbour_sum(x), A @ x)
                assert torch.equal(b.neighbour_sum(x), into(x, out))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_equals_cpu_literal():
    model, _ = load_checkpoint(default_checkpoint("mvc"))
    G = make_graph("er", 60, seed=5)
    lit = algorithm2_literal(model, "mvc", _batch(G), 15)
    gpu, _ = load_checkpoint(default_checkpoint("mvc"), device="cuda")
    b = batch_graphs([G], device="cuda", dtype=torch.float64)
    assert algorithm2_exact(gpu, "mvc", b, 15).solutions == lit


def test_no_resume_file_is_left_by_a_finished_run(tmp_path):
    model, _ = load_checkpoint(default_checkpoint("mis"))
    state = tmp_path / "s.state"
    algorithm2_exact(model, "mis", _batch(make_graph("er", 30, seed=1)), 15, resume=state,
                     save_every_s=-1)
    assert not state.exists() and os.listdir(tmp_path) == []
    assert Path(tmp_path).is_dir()
