"""Heuristics: feasible on every graph, deterministic given a seed, and their guarantees.

* every heuristic returns a feasible solution for its problem on every generated graph;
* matching cover <= 2 * OPT; greedy MIS >= n / (Delta + 1); greedy cut >= m / 2;
* same seed -> same answer; relabelling a graph (seed=None) keeps the objective of greedy
  when labels are relabelled monotonically (tie-breaking is by label order).
"""

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from g2s import heuristics as H
from g2s.problems import cut_size, is_feasible, objective
from tests.strategies import brute_force_optimum, graphs


@given(graphs(max_n=12), st.sampled_from(sorted(H.HEURISTIC_METHODS)),
       st.sampled_from(["mvc", "maxcut", "mis"]), st.one_of(st.none(), st.integers(0, 99)))
def test_every_heuristic_is_feasible(G, method, problem, seed):
    problems, _ = H.HEURISTIC_METHODS[method]
    if problem not in problems:
        with pytest.raises(ValueError, match="does not apply"):
            H.run_heuristic(method, problem, G, seed=seed)
        return
    S = H.run_heuristic(method, problem, G, seed=seed)
    assert is_feasible(problem, G, S)
    assert S == H.run_heuristic(method, problem, G, seed=seed)


@given(graphs(max_n=11))
def test_matching_cover_within_twice_optimum(G):
    opt, _ = brute_force_optimum("mvc", G)
    S = H.min_vertex_cover_matching(G)
    assert is_feasible("mvc", G, S) and len(S) <= 2 * opt


@given(graphs(max_n=30))
def test_greedy_mis_turan_bound(G):
    delta = max((d for _, d in G.degree()), default=0)
    assert len(H.max_independent_set_greedy(G)) * (delta + 1) >= G.number_of_nodes()


@given(graphs(max_n=30), st.one_of(st.none(), st.integers(0, 9)))
def test_greedy_cut_at_least_half_the_edges(G, seed):
    assert 2 * cut_size(G, H.max_cut_greedy(G, seed=seed)) >= G.number_of_edges()


@given(graphs(max_n=14))
def test_list_variants_are_feasible(G):
    for variant in ("left", "right"):
        assert is_feasible("mvc", G, H.list_heuristic("mvc", G, variant))
        assert is_feasible("mis", G, H.list_heuristic("mis", G, variant))


def test_greedy_mvc_known_values():
    assert H.min_vertex_cover_greedy(nx.star_graph(6)) == {0}
    assert len(H.min_vertex_cover_greedy(nx.complete_graph(5))) == 4
    assert H.max_independent_set_greedy(nx.star_graph(6)) == set(range(1, 7))


def test_best_heuristic_picks_the_best():
    G = nx.petersen_graph()
    best = H.best_heuristic("mvc", G)
    assert all(objective("mvc", G, best) <= objective("mvc", G, H.run_heuristic(m, "mvc", G))
               for m in ("greedy", "list", "list-left", "matching"))


def test_list_heuristic_rejects_maxcut_and_unknown_variant():
    with pytest.raises(ValueError):
        H.list_heuristic("maxcut", nx.path_graph(3))
    with pytest.raises(ValueError, match="variant"):
        H.list_heuristic("mvc", nx.path_graph(3), variant="middle")


@given(graphs(max_n=14), st.sampled_from(["mvc", "maxcut", "mis"]), st.text(max_size=12))
def test_trivial_draws_are_feasible_seeded_by_the_graphs_name_and_reproducible(G, problem, name):
    """Every draw of the null baseline is feasible and its objective is the solution's; the
    same name gives the same draws, and the draws are the configured number."""
    runs = H.trivial_draws(problem, G, name)
    assert len(runs) == H.TRIVIAL_DRAWS
    for value, S in runs:
        assert is_feasible(problem, G, S) and value == objective(problem, G, S)
    assert [v for v, _ in runs] == [v for v, _ in H.trivial_draws(problem, G, name)]


def test_trivial_draws_differ_between_graphs_of_one_size():
    """One vertex order shared by every graph of a size made the null baseline bimodal on
    bipartite graphs (a draw either starts on the smaller side or not): the draws' orders are
    seeded by the graph's name, so graphs of one size get different orders, and on a complete
    bipartite graph (a maximal independent set is one whole side) both sides occur."""
    G = nx.complete_bipartite_graph(3, 9)
    covers = {len(S) for i in range(6) for _, S in H.trivial_draws("mvc", G, f"mvc/kb/12/{i}")}
    assert covers == {3, 9}
    orders = {tuple(sorted(S)) for i in range(6)
              for S in [H.trivial_draws("mis", nx.path_graph(30), f"p/{i}", draws=1)[0][1]]}
    assert len(orders) > 1
    with pytest.raises(ValueError, match="positive integer"):
        H.trivial_draws("mvc", G, "x", draws=0)


@given(graphs(), st.integers(0, 2**32 - 1), st.sampled_from(["mvc", "mis", "maxcut"]))
def test_the_trivial_solver_gives_the_same_answer_on_the_edge_array(G, seed, problem):
    """The trivial solver reads only ``nodes`` and ``neighbors``: on a graph's edge array (the
    unit checks' fast path) it gives the networkx graph's answer, draw for draw."""
    from g2s.edge_array import EdgeArray
    E = EdgeArray.of(G)
    assert H.trivial_solution(problem, E, seed) == H.trivial_solution(problem, G, seed)
    assert H.trivial_draws(problem, E, "x/y/1/2", 3) == H.trivial_draws(problem, G, "x/y/1/2", 3)
    for v in G:
        assert sorted(E.neighbors(v), key=repr) == sorted(G.neighbors(v), key=repr)


@given(graphs(), st.sampled_from(sorted(H.ON_EDGE_ARRAYS)),
       st.sampled_from(["mvc", "mis", "maxcut"]), st.one_of(st.none(), st.integers(0, 2**32 - 1)),
       st.booleans())
def test_the_edge_array_heuristics_give_the_networkx_answer(G, method, problem, seed, relabel):
    """The heuristics that the checks recompute on a graph's edge array (no networkx copy)
    give exactly the networkx graph's answer, for any graph, labels and tie-break seed; the
    degrees they read are networkx's."""
    from g2s.edge_array import EdgeArray
    if problem not in H.HEURISTIC_METHODS[method][0]:
        return
    if relabel:
        G = nx.relabel_nodes(G, {v: 3 * v + 7 for v in G})
    E = EdgeArray.of(G)
    assert dict(E.degree()) == dict(G.degree())
    assert all(E.degree(v) == G.degree(v) for v in G)
    assert H.run_heuristic(method, problem, E, seed) == H.run_heuristic(method, problem, G, seed)


def test_edge_array_degrees_count_a_self_loop_twice_as_networkx_does():
    from g2s.edge_array import EdgeArray
    G = nx.Graph([(0, 0), (0, 1), (1, 2)])
    G.add_node(3)
    assert dict(EdgeArray.of(G).degree()) == dict(G.degree()) == {0: 3, 1: 2, 2: 1, 3: 0}
