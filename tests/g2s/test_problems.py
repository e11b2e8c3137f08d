"""Invariants of g2s.problems, the single source of truth.

* feasibility predicates match their definitions; objectives match the natural counts;
* the MDP: marginal_gain equals f(S+a) - f(S); candidate actions are empty exactly at the
  episode end; following any candidate actions to the end yields a feasible solution;
* MIS and MVC are complements (Section 5); relabelling permutes answers.
"""

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from g2s import problems as P
from tests.strategies import brute_force_optimum, graphs


def test_named_graph_values():
    G = nx.petersen_graph()
    assert P.is_vertex_cover(G, set(range(10)))
    assert not P.is_vertex_cover(G, set())
    assert P.cut_size(G, {0}) == 3
    assert brute_force_optimum("mvc", nx.cycle_graph(5))[0] == 3
    assert brute_force_optimum("mis", nx.cycle_graph(5))[0] == 2
    assert brute_force_optimum("maxcut", nx.cycle_graph(5))[0] == 4
    assert brute_force_optimum("maxcut", nx.complete_graph(4))[0] == 4


def test_unknown_problem_and_vertex_rejected():
    G = nx.path_graph(3)
    with pytest.raises(ValueError, match="unknown problem"):
        P.objective("tsp", G, set())
    assert not P.is_feasible("maxcut", G, {7})
    with pytest.raises(P.InfeasibleSolution):
        P.check_solution("mvc", G, {0})


@given(graphs(max_n=9), st.sampled_from(P.PROBLEMS), st.data())
def test_marginal_gain_is_utility_difference(G, problem, data):
    S = set(data.draw(st.lists(st.sampled_from(sorted(G.nodes)), unique=True)))
    rest = sorted(set(G.nodes) - S)
    if not rest:
        return
    a = data.draw(st.sampled_from(rest))
    diff = P.utility(problem, G, S | {a}) - P.utility(problem, G, S)
    assert P.marginal_gain(problem, G, S, a) == diff


@given(graphs(max_n=9), st.sampled_from(P.PROBLEMS), st.randoms(use_true_random=False))
def test_any_episode_ends_feasible(G, problem, rnd):
    """Taking arbitrary candidate actions until none is left gives a feasible solution."""
    S: set = set()
    for _ in range(G.number_of_nodes() + 1):
        acts = sorted(P.candidate_actions(problem, G, S))
        if not acts:
            break
        S.add(rnd.choice(acts))
    assert P.is_terminal(problem, G, S)
    assert P.is_feasible(problem, G, S)
    if problem == "mis":  # maximal: nothing can be added
        assert not P.feasible_actions(problem, G, S)
    if problem == "maxcut":  # a local optimum of single-vertex additions
        assert all(P.marginal_gain(problem, G, S, a) <= 0 for a in set(G.nodes) - S)


@given(graphs(max_n=10))
def test_mis_complement_is_minimum_vertex_cover(G):
    """Section 5: the complement of a maximum independent set is a minimum vertex cover."""
    alpha, S = brute_force_optimum("mis", G)
    tau, _ = brute_force_optimum("mvc", G)
    assert P.is_vertex_cover(G, set(G.nodes) - S)
    assert len(G) - alpha == tau


@given(graphs(max_n=8), st.sampled_from(P.PROBLEMS), st.randoms(use_true_random=False))
def test_relabelling_permutes_optimum(G, problem, rnd):
    perm = list(G.nodes)
    rnd.shuffle(perm)
    H = nx.relabel_nodes(G, dict(zip(G.nodes, perm)))
    assert brute_force_optimum(problem, G)[0] == brute_force_optimum(problem, H)[0]


def test_approximation_ratio_convention():
    assert P.approximation_ratio("mvc", 12, 10) == pytest.approx(1.2)
    assert P.approximation_ratio("mis", 8, 10) == pytest.approx(1.25)
    assert P.approximation_ratio("maxcut", 0, 0) == 1.0
