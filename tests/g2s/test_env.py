"""The vectorised vertex-selection MDP agrees with g2s.problems (Appendix C.1).

Invariants, on random graphs and random candidate sequences, for every problem:
* the candidate mask equals ``problems.candidate_actions``;
* an episode has ended exactly when ``problems.is_terminal``;
* each reward equals ``problems.marginal_gain``, and their sum equals ``utility(S)``;
* a batch of graphs steps each graph exactly as it would alone; the end state is feasible.
"""

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from g2s import problems as P
from g2s.graphs import erdos_renyi
from g2s.nn.batch import batch_graphs
from g2s.rl.env import VertexSelectionEnv
from tests.strategies import graphs

pytestmark = pytest.mark.torch


@given(graphs(min_n=1, max_n=12), st.sampled_from(P.PROBLEMS), st.randoms(use_true_random=False))
def test_env_agrees_with_problems(G, problem, rnd):
    env = VertexSelectionEnv(problem, batch_graphs([G]))
    S = set()
    while True:
        cand = set(torch.nonzero(env.candidates()).squeeze(1).tolist())
        assert cand == P.candidate_actions(problem, G, S)
        assert bool(env.done()[0]) == P.is_terminal(problem, G, S)
        if not cand:
            break
        a = rnd.choice(sorted(cand))
        r = env.step(torch.tensor([a]))
        assert float(r[0]) == P.marginal_gain(problem, G, S, a)
        S.add(a)
    assert env.solutions()[0] == S
    assert float(env.total_reward[0]) == P.utility(problem, G, S)
    assert P.is_feasible(problem, G, S)


@pytest.mark.parametrize("problem", P.PROBLEMS)
def test_batch_steps_each_graph_independently(problem):
    gs = [erdos_renyi(n, p=0.3, seed=n) for n in (5, 9, 13)]
    env = VertexSelectionEnv(problem, batch_graphs(gs))
    rng = np.random.default_rng(0)
    S = [set() for _ in gs]
    ptr = env.batch.ptr.tolist()
    while not bool(env.done().all()):
        acts = []
        for b, G in enumerate(gs):
            cand = sorted(P.candidate_actions(problem, G, S[b]))
            if cand:
                a = int(rng.choice(cand))
                S[b].add(a)
                acts.append(ptr[b] + a)
            else:
                acts.append(-1)
        env.step(torch.tensor(acts))
    assert env.solutions() == S


def test_invalid_action_rejected():
    env = VertexSelectionEnv("mis", batch_graphs([erdos_renyi(6, p=1.0, seed=0)]))
    env.step(torch.tensor([0]))
    with pytest.raises(ValueError):
        env.step(torch.tensor([1]))      # neighbour of 0: not independent
