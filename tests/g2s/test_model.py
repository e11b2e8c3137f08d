"""G2S-RNN model (arXiv:1802.04948, Section 4, Appendix C, Eq. (2)).

Invariants:
* shapes: ``(N,)`` Q-values for a batch of graphs, ``(N, R)`` for ``R`` rollouts;
* the sparse batched model equals a dense, per-graph transcription of the equations;
* batching is invisible: a graph's Q-values do not depend on the other graphs of the batch;
* permutation equivariance: relabelling the graph permutes the Q-values;
* the multi-rollout path (``lengths``) equals separate calls with each ``T``;
* one sparse product per Graph2Seq step: a forward pass of G2S-RNN(T) costs T products.
"""

import networkx as nx
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from g2s.graphs import erdos_renyi, random_bipartite
from g2s.nn.batch import GraphBatch, batch_graphs
from g2s.nn.model import ModelConfig, build_model
from tests.strategies import graphs

pytestmark = pytest.mark.torch


def _model(seed=0, **kw):
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        return build_model(ModelConfig(**kw)).double()


def _dense_q(model, G, S, T):
    """Q of Eq. (2) from the equations of Section 4 / Appendix C, dense numpy, one graph."""
    p = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    n = G.number_of_nodes()
    A = nx.to_numpy_array(G, nodelist=range(n))
    c = np.array([1.0 if v in S else 0.0 for v in range(n)])[:, None]
    d = model.config.dim
    x, y = np.zeros((n, d)), np.zeros((n, d))
    relu = lambda z: np.maximum(z, 0)  # noqa: E731
    for _ in range(T):
        x = relu(A @ x @ p["encoder.graph2seq.W_G1.weight"].T + c * p["encoder.graph2seq.w_G2"]
                 + p["encoder.graph2seq.w_G3"])
        i = relu(A @ x @ p["encoder.seq2vec.W_4.weight"].T + c * p["encoder.seq2vec.w_5"]
                 + p["encoder.seq2vec.b_6"])
        f = 1 / (1 + np.exp(-(x.sum(0) @ p["encoder.seq2vec.W_7.weight"].T
                              + p["encoder.seq2vec.b_8"])))
        y = f * i + (1 - f) * y
    g = p["qnet.w_Q1.weight"] @ relu(p["qnet.W_Q2.weight"] @ y.sum(0))
    return g + relu(y @ p["qnet.W_Q4.weight"].T) @ p["qnet.w_Q3.weight"][0]


def test_shapes_on_batched_graphs():
    gs = [erdos_renyi(15, seed=i) for i in range(3)] + [random_bipartite(8, seed=1)]
    batch = batch_graphs(gs)
    m = build_model()
    assert batch.num_nodes == 53 and batch.num_graphs == 4
    assert m(batch, torch.zeros(53)).shape == (53,)
    assert m(batch, torch.zeros(53, 3), lengths=[1, 4, 2]).shape == (53, 3)
    assert m.encoder(batch, torch.zeros(53), T=3).shape == (53, 16)
    with pytest.raises(ValueError):
        m(batch, torch.zeros(53), T=0)


@given(graphs(min_n=1, max_n=9), st.integers(1, 6), st.data())
def test_sparse_model_equals_dense_equations(G, T, data):
    S = set(data.draw(st.lists(st.sampled_from(range(G.number_of_nodes())), unique=True)))
    m = _model()
    b = batch_graphs([G], dtype=torch.float64)
    c = torch.tensor([1.0 if v in S else 0.0 for v in range(G.number_of_nodes())],
                     dtype=torch.float64)
    q = m(b, c, T=T).detach().numpy()
    np.testing.assert_allclose(q, _dense_q(m, G, S, T), rtol=1e-10, atol=1e-10)


def test_batching_is_invisible():
    gs = [erdos_renyi(12, p=0.3, seed=i) for i in range(4)]
    m = _model(1)
    b = batch_graphs(gs, dtype=torch.float64)
    q = m(b, torch.zeros(b.num_nodes, dtype=torch.float64), T=4)
    for i, G in enumerate(gs):
        alone = m(batch_graphs([G], dtype=torch.float64), torch.zeros(12, dtype=torch.float64),
                  T=4)
        torch.testing.assert_close(q[12 * i:12 * (i + 1)], alone, rtol=1e-12, atol=1e-12)


@given(graphs(min_n=2, max_n=10), st.randoms(use_true_random=False), st.integers(1, 5))
def test_permutation_equivariance(G, rnd, T):
    n = G.number_of_nodes()
    perm = list(range(n))
    rnd.shuffle(perm)
    H = nx.relabel_nodes(G, dict(enumerate(perm)))
    S = {v for v in range(n) if rnd.random() < 0.3}
    m = _model(2)
    cG = torch.tensor([float(v in S) for v in range(n)], dtype=torch.float64)
    cH = torch.zeros(n, dtype=torch.float64)
    cH[[perm[v] for v in S]] = 1.0
    qG = m(batch_graphs([G], dtype=torch.float64), cG, T=T)
    qH = m(batch_graphs([H], dtype=torch.float64), cH, T=T)
    torch.testing.assert_close(qH[perm], qG, rtol=1e-10, atol=1e-10)


def test_multi_rollout_equals_separate_calls():
    G = erdos_renyi(20, p=0.2, seed=3)
    b = batch_graphs([G], dtype=torch.float64)
    m = _model(3)
    gen = torch.Generator().manual_seed(0)
    c = (torch.rand(20, 4, generator=gen) < 0.3).double()
    lengths = [3, 1, 5, 2]
    q = m(b, c, lengths=lengths)
    for r, T in enumerate(lengths):
        torch.testing.assert_close(q[:, r], m(b, c[:, r], T=T), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("T", [1, 5, 15])
def test_one_sparse_product_per_step(T, monkeypatch):
    """Section 5: O(|E| T + |V|) per forward pass of G2S-RNN(T), i.e. T products with A."""
    calls = []
    orig = GraphBatch.neighbour_sum

    def counting(self, x):
        calls.append(x.shape)
        return orig(self, x)

    monkeypatch.setattr(GraphBatch, "neighbour_sum", counting)
    b = batch_graphs([erdos_renyi(30, seed=0)])
    build_model()(b, torch.zeros(30), T=T)
    assert len(calls) == T


def test_rounds_are_the_encoders_own_states():
    """``rounds`` yields every round of the encoder, its last is the forward output, and
    Structure2Vec's rounds past its trained depth continue the same recurrence."""
    G = nx.gnp_random_graph(12, 0.3, seed=1)
    batch = batch_graphs([G], dtype=torch.float64)
    c = torch.zeros(12)
    c[[0, 3]] = 1
    with torch.random.fork_rng():
        torch.manual_seed(0)
        g2s = build_model({"encoder": "g2s_rnn"}).double()
        s2v = build_model({"encoder": "s2v"}).double()
    with torch.no_grad():
        ys = [y for _, y in g2s.encoder.rounds(batch, c, 7)]
        assert len(ys) == 7 and torch.equal(ys[6], g2s.embed(batch, c.double(), T=7))
        assert torch.equal(ys[2], g2s.embed(batch, c.double(), T=3))
        mu = list(s2v.encoder.rounds(batch, c, 8))
        depth = s2v.encoder.depth
        assert len(mu) == 8 and torch.equal(mu[depth - 1], s2v.encoder(batch, c.double()))

