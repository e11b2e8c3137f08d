"""Exact tree MVC and Appendix Algorithm 1 (arXiv:1802.04948, Appendix B.4).

Invariants, one test each:
- the tree DP returns a vertex cover of the optimum size (brute force on small trees);
- relabelling a tree does not change the DP's optimum;
- Algorithm 1's pseudo-code activation (sum of neighbours' x >= -eps) is the prose rule
  "a leaf or a vertex with an active neighbour becomes active";
- its selection rule (sum of neighbours' y < 0) is the prose rule "some neighbour has y = -1";
- the dynamics enter a cycle of period 1 or 2 after at most diam(T) rounds, and the output
  converges to the cycle average at rate n (transient + period) / R;
- the limit is never below the optimum (observed; not a theorem of the paper);
- the paper's claim "computes the MVC of any tree" is refuted: the smallest counterexample is the
  9-vertex spider S(3,3,2) (limit 9/2, optimum 4), the smallest one with a wrong *fixed point* is
  S(5,5,2) (limit 7, optimum 6).
"""

from fractions import Fraction
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import example, find, given, settings
from hypothesis import strategies as st

from g2s.problems import is_vertex_cover
from theory.tree_mvc import (
    _check_forest,
    default_epsilon,
    min_vertex_cover_tree,
    sequential_heuristic_limit,
    sequential_heuristic_states,
    tree_mvc_sequential_heuristic,
)


@st.composite
def trees(draw, min_n=1, max_n=40):
    """Uniform-ish random labelled trees built directly from a Pruefer sequence."""
    n = draw(st.integers(min_n, max_n))
    if n == 1:
        return nx.empty_graph(1)
    seq = draw(st.lists(st.integers(0, n - 1), min_size=n - 2, max_size=n - 2))
    return nx.from_prufer_sequence(seq)


def spider(*legs):
    """A centre 0 with paths of the given lengths attached."""
    T = nx.Graph()
    T.add_node(0)
    nxt = 1
    for length in legs:
        prev = 0
        for _ in range(length):
            T.add_edge(prev, nxt)
            prev, nxt = nxt, nxt + 1
    return T


def brute_force_mvc(T):
    nodes = list(T)
    for size in range(len(nodes) + 1):
        for S in combinations(nodes, size):
            if is_vertex_cover(T, S):
                return size
    raise AssertionError("unreachable")


@given(trees(max_n=11))
@example(nx.empty_graph(1))
@example(nx.path_graph(2))
def test_tree_dp_is_optimal_cover(T):
    size, cover = min_vertex_cover_tree(T)
    assert is_vertex_cover(T, cover) and len(cover) == size
    assert size == brute_force_mvc(T)


@pytest.mark.parametrize("n", [2, 3, 7, 10])
def test_tree_dp_pins_paths_and_stars(n):
    assert min_vertex_cover_tree(nx.path_graph(n))[0] == n // 2
    assert min_vertex_cover_tree(nx.star_graph(n))[0] == 1


@given(trees(max_n=30), st.randoms(use_true_random=False))
def test_tree_dp_invariant_under_relabelling(T, rnd):
    perm = list(T)
    rnd.shuffle(perm)
    relabelled = nx.relabel_nodes(T, dict(zip(T, perm)))
    assert min_vertex_cover_tree(relabelled)[0] == min_vertex_cover_tree(T)[0]


def test_tree_dp_handles_forests_and_rejects_cycles():
    F = nx.disjoint_union(nx.path_graph(3), nx.path_graph(4))
    assert min_vertex_cover_tree(F)[0] == 3
    with pytest.raises(ValueError):
        min_vertex_cover_tree(nx.cycle_graph(4))


@given(trees(min_n=2, max_n=30))
def test_pseudocode_activation_is_the_prose_rule(T):
    rounds = nx.diameter(T) + 2
    nodes, x, _ = sequential_heuristic_states(T, rounds)
    leaves = [v for v in T if T.degree(v) <= 1]
    dist = nx.multi_source_dijkstra_path_length(T, leaves)
    for i in range(1, rounds + 1):
        for j, v in enumerate(nodes):
            # prose: active at round i iff within distance i - 1 of a leaf
            assert (x[i, j] == 1.0) == (dist[v] <= i - 1)


@given(trees(min_n=2, max_n=30))
def test_pseudocode_selection_is_the_prose_rule(T):
    rounds = nx.diameter(T) + 3
    nodes, x, y = sequential_heuristic_states(T, rounds)
    index = {v: j for j, v in enumerate(nodes)}
    for i in range(1, rounds + 1):
        for v in nodes:
            j = index[v]
            if x[i, j] != 1.0:
                assert y[i, j] == 0.0
                continue
            some_unchosen = any(y[i - 1, index[u]] == -1.0 for u in T.neighbors(v))
            assert (y[i, j] > 0) == some_unchosen


def test_epsilon_must_be_below_one_over_max_degree():
    T = nx.star_graph(4)
    assert default_epsilon(T) < 1 / 4
    with pytest.raises(ValueError):
        sequential_heuristic_states(T, 3, eps=0.25)


@given(trees(max_n=40))
def test_dynamics_cycle_quickly_and_output_converges(T):
    lim = sequential_heuristic_limit(T)
    diam = nx.diameter(T) if T.number_of_nodes() > 1 else 0
    assert lim.period in (1, 2)
    assert lim.transient <= diam + 1
    n = T.number_of_nodes()
    for R in (5, 50, 400):
        err = abs(tree_mvc_sequential_heuristic(T, R) - float(lim.limit))
        assert err <= n * (lim.transient + lim.period) / R + 1e-9


@given(trees(max_n=40))
def test_limit_never_below_optimum(T):
    assert sequential_heuristic_limit(T).limit >= min_vertex_cover_tree(T)[0]


def test_algorithm1_counterexample_found_on_random_trees():
    """The appendix's "any tree" claim fails: Hypothesis finds a tree where it is wrong."""
    T = find(trees(max_n=16),
             lambda t: sequential_heuristic_limit(t).limit != min_vertex_cover_tree(t)[0],
             settings=settings(max_examples=2000, derandomize=True, database=None))
    assert sequential_heuristic_limit(T).limit != min_vertex_cover_tree(T)[0]


def test_smallest_counterexample_is_spider_332():
    """Exhaustive over all trees with <= 9 vertices: exactly one failure, S(3,3,2)."""
    failures = [T for n in range(1, 10) for T in nx.nonisomorphic_trees(n)
                if sequential_heuristic_limit(T).limit != min_vertex_cover_tree(T)[0]]
    assert len(failures) == 1
    assert nx.is_isomorphic(failures[0], spider(3, 3, 2))


def test_spider_332_pinned():
    T = spider(3, 3, 2)
    lim = sequential_heuristic_limit(T)
    assert min_vertex_cover_tree(T)[0] == 4
    assert lim.limit == Fraction(9, 2) and lim.period == 2
    # the y = eps sets alternate between a 3-set that is not a cover and a 6-vertex cover
    small, large = sorted(lim.cycle_covers, key=len)
    assert (len(small), len(large)) == (3, 6)
    assert not is_vertex_cover(T, small) and is_vertex_cover(T, large)
    assert abs(tree_mvc_sequential_heuristic(T, 10_000) - 4.5) < 1e-2


def test_spider_552_converges_to_a_wrong_fixed_point():
    T = spider(5, 5, 2)
    lim = sequential_heuristic_limit(T)
    assert lim.period == 1 and lim.limit == 7
    assert min_vertex_cover_tree(T)[0] == 6
    assert is_vertex_cover(T, lim.cycle_covers[0])  # a cover, just not a minimum one


@given(st.integers(1, 9), st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=12))
def test_the_forest_check_is_networkx_is_forest(n, edges):
    """The cheap forest test (edges = vertices - components) accepts exactly the graphs
    networkx calls forests, self-loops included."""
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((u % n, v % n) for u, v in edges)
    if nx.is_forest(G):
        _check_forest(G)
    else:
        with pytest.raises(ValueError, match="expected a tree"):
            _check_forest(G)
