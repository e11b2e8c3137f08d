"""Graph2Seq is an instance of the infinity-local-gather model (Section 3.2): after t rounds a
vertex's state ``x_v(t)`` depends only on the inputs within distance ``t - 1`` of ``v``, so a
fixed depth sees a fixed neighbourhood and the unbounded sequence ``(x_v(t))_t`` the whole
component: the local step of the model is the sequence, the gather step reads it.

Measured on the model itself (random weights, float64): changing the input ``c_u`` of one
vertex ``u`` changes ``x_v(t)`` only if ``dist(u, v) <= t - 1``, and the radius is reached (on
a path the input at distance exactly ``t - 1`` does change it).  Hypothesis draws the graphs,
the perturbed vertex and ``t``.  Seq2Vec's reader is not local: its forgetting gate reads
``sum_{u in V} x_u(t)`` at every step (Appendix C), a gather over the whole graph, so a vertex's
read ``y_v(t)`` moves with an input at any distance; the last test shows that.
"""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from g2s.nn.batch import batch_graphs  # noqa: E402
from g2s.nn.model import build_model  # noqa: E402


def _states(model, G, c, T):
    batch = batch_graphs([G], dtype=torch.float64)
    with torch.no_grad():
        return [(x.clone(), y.clone()) for x, y in model.encoder.rounds(batch, c, T)]


def _perturbed(G, u, T, seed=0):
    torch.manual_seed(seed)
    model = build_model({"encoder": "g2s_rnn", "dim": 16}).double()
    c = torch.zeros(G.number_of_nodes(), dtype=torch.float64)
    c_moved = c.clone()
    c_moved[u] = 1.0
    return _states(model, G, c, T), _states(model, G, c_moved, T)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(6, 14), p=st.floats(0.15, 0.5), graph_seed=st.integers(0, 10_000),
       u=st.integers(0, 13), T=st.integers(1, 5))
def test_graph2seq_state_depends_only_on_a_ball_that_grows_with_t(n, p, graph_seed, u, T):
    G = nx.convert_node_labels_to_integers(nx.gnp_random_graph(n, p, seed=graph_seed))
    u = u % n
    base, moved = _perturbed(G, u, T, graph_seed)
    dist = nx.single_source_shortest_path_length(G, u)
    for t in range(1, T + 1):
        for v in G:
            if dist.get(v, float("inf")) > t - 1:
                assert torch.equal(base[t - 1][0][v], moved[t - 1][0][v]), (t, v)


def test_the_radius_is_reached_on_a_path():
    base, moved = _perturbed(nx.path_graph(8), 0, 6)
    for t in range(1, 7):
        assert not torch.equal(base[t - 1][0][t - 1], moved[t - 1][0][t - 1])


def test_the_seq2vec_reader_gathers_over_the_whole_graph():
    """Two components: an input in one moves the other's reads through the shared gate."""
    G = nx.disjoint_union(nx.path_graph(4), nx.path_graph(4))
    base, moved = _perturbed(G, 0, 3)
    assert all(torch.equal(base[t][0][7], moved[t][0][7]) for t in range(3))  # x: local
    assert not torch.equal(base[2][1][7], moved[2][1][7])                     # y: global
