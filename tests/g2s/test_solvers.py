"""Tests of :mod:`g2s.reference.solver`, the reference optimum (the paper's Gurobi, Section 5).

Invariants, one test each:

* every backend returns the brute-force optimum, with ``status="optimal"`` and
  ``bound == objective``, on every graph with at most 12 vertices;
* the exact special cases (König, tree DP, bipartite cut) agree with CP-SAT;
* under a time limit the bound is valid: no feasible solution (heuristic or solver) beats it;
* the optimum is additive over components and invariant under relabelling;
* known optima of named graphs; bad input is refused with a clear error;
* MVC and MIS by either 0/1 program (the problem's own or the complementary one, MVC = n - MIS)
  or both: the same optimum, a valid bound, and ``best_known_by`` / ``bound_by`` /
  ``bounds`` that name what was run.
"""

from itertools import combinations

import networkx as nx
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from g2s.graphs import greedy_worst_case_mvc, planted_vertex_cover, random_regular
from g2s.problems import PROBLEMS, SENSE, check_solution, is_feasible, objective
from g2s.reference.solver import (
    ENUMERATION_MAX_VERTICES,
    ReferenceResult,
    max_cut_eigenvalue_bound,
    solve_reference,
)

EXACT_BACKENDS = ("auto", "cpsat", "highs", "enumeration")


def _graph(n, edges):
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(edges)
    return G


@st.composite
def graphs(draw, max_n=12):
    """Any simple graph on ``0..n-1``: draw ``n``, then a subset of the vertex pairs."""
    n = draw(st.integers(0, max_n))
    pairs = list(combinations(range(n), 2))
    keep = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return _graph(n, [p for p, k in zip(pairs, keep) if k])


@st.composite
def bipartite_graphs(draw, max_side=14):
    """Sides ``0..a-1`` and ``a..a+b-1`` with a subset of the cross pairs."""
    a, b = draw(st.integers(0, max_side)), draw(st.integers(0, max_side))
    pairs = [(i, a + j) for i in range(a) for j in range(b)]
    keep = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return _graph(a + b, [p for p, k in zip(pairs, keep) if k])


@st.composite
def forests(draw, max_n=40):
    """Each vertex ``i >= 1`` joins a parent in ``0..i-1`` or starts a new tree."""
    n = draw(st.integers(0, max_n))
    parents = [draw(st.one_of(st.none(), st.integers(0, i - 1))) for i in range(1, n)]
    return _graph(n, [(p, i) for i, p in enumerate(parents, start=1) if p is not None])


def brute_force_optimum(problem, G):
    """Best objective over all vertex subsets, via the predicates of g2s.problems."""
    nodes = list(G)
    values = [objective(problem, G, S) for r in range(len(nodes) + 1)
              for S in combinations(nodes, r) if is_feasible(problem, G, S)]
    return min(values) if SENSE[problem] == "min" else max(values)


def _assert_consistent(res: ReferenceResult, problem, G):
    assert check_solution(problem, G, res.solution) == res.objective
    assert list(res.solution) == sorted(res.solution)
    if SENSE[problem] == "min":
        assert res.bound <= res.objective
    else:
        assert res.bound >= res.objective
    assert (res.status == "optimal") == (res.bound == res.objective)


@pytest.mark.parametrize("problem", PROBLEMS)
@given(G=graphs())
@example(G=nx.petersen_graph())
@example(G=_graph(3, []))
def test_every_backend_matches_brute_force(problem, G):
    """Invariant: objective == bound == brute-force optimum, for every exact backend."""
    best = brute_force_optimum(problem, G)
    for backend in EXACT_BACKENDS:
        res = solve_reference(problem, G, time_limit=30, backend=backend)
        _assert_consistent(res, problem, G)
        assert res.status == "optimal", backend
        assert res.objective == best, backend


@given(G=graphs())
@example(G=nx.complete_graph(4))
@example(G=nx.cycle_graph(5))
def test_max_cut_eigenvalue_bound_is_valid(G):
    """Invariant: Mohar-Poljak's n lambda_max(L) / 4 is at least the maximum cut."""
    assert max_cut_eigenvalue_bound(G) >= brute_force_optimum("maxcut", G)


@pytest.mark.parametrize("problem", ["mvc", "mis", "maxcut"])
@given(G=bipartite_graphs())
def test_bipartite_special_cases_agree_with_cpsat(problem, G):
    """Invariant: König (MVC, MIS) and the all-edges cut equal CP-SAT's proven optimum."""
    method = "bipartite-cut" if problem == "maxcut" else "konig"
    exact = solve_reference(problem, G, backend=method)
    cpsat = solve_reference(problem, G, time_limit=30, backend="cpsat")
    _assert_consistent(exact, problem, G)
    assert exact.status == "optimal"
    assert exact.method == (method if G.number_of_nodes() else "trivial")
    assert cpsat.status == "optimal" and cpsat.objective == exact.objective
    if problem == "maxcut":
        assert exact.objective == G.number_of_edges()


@pytest.mark.parametrize("problem", ["mvc", "mis"])
@given(G=forests())
def test_tree_dp_agrees_with_cpsat(problem, G):
    """Invariant: the forest dynamic program equals CP-SAT's proven optimum."""
    exact = solve_reference(problem, G, backend="tree-dp")
    cpsat = solve_reference(problem, G, time_limit=30, backend="cpsat")
    _assert_consistent(exact, problem, G)
    assert cpsat.status == "optimal" and cpsat.objective == exact.objective


def test_auto_picks_the_special_case_per_component():
    """A tree + an even cycle + a small odd wheel + a big regular graph: one method each."""
    parts = [nx.path_graph(30), nx.cycle_graph(40), nx.wheel_graph(8),
             random_regular(60, seed=1)]
    G = nx.convert_node_labels_to_integers(nx.disjoint_union_all(parts))
    res = solve_reference("mvc", G, time_limit=20)
    assert res.method == "cpsat+enumeration+konig+tree-dp"
    _assert_consistent(res, "mvc", G)
    singles = [solve_reference("mvc", H, time_limit=20) for H in parts]
    if res.status == "optimal":
        assert res.objective == sum(r.objective for r in singles)


@pytest.mark.parametrize("problem", PROBLEMS)
@given(G=graphs(max_n=9), H=graphs(max_n=9))
def test_objective_adds_over_disjoint_union_and_ignores_labels(problem, G, H):
    """Metamorphic: OPT(G + H) = OPT(G) + OPT(H); relabelling does not change OPT."""
    U = nx.disjoint_union(G, H)
    total = solve_reference(problem, U).objective
    assert total == solve_reference(problem, G).objective + solve_reference(problem, H).objective
    relabel = nx.relabel_nodes(U, {v: f"v{v}" for v in U})
    assert solve_reference(problem, relabel, backend="cpsat").objective == total


@pytest.mark.parametrize("problem", PROBLEMS)
@pytest.mark.parametrize("backend", ["cpsat", "highs"])
def test_bound_is_valid_under_a_short_time_limit(problem, backend):
    """Invariant: a time-limited bound is never beaten by any feasible solution we know."""
    from g2s.graphs import erdos_renyi
    from g2s.heuristics import best_heuristic, greedy

    G = erdos_renyi(150, seed=7)
    res = solve_reference(problem, G, time_limit=1.0, backend=backend)
    _assert_consistent(res, problem, G)
    for S in (best_heuristic(problem, G), greedy(problem, G, seed=3)):
        value = check_solution(problem, G, S)
        assert value >= res.bound if SENSE[problem] == "min" else value <= res.bound
        # the hint (best heuristic) is never lost
    hint_value = objective(problem, G, best_heuristic(problem, G))
    assert res.objective <= hint_value if SENSE[problem] == "min" else res.objective >= hint_value


@pytest.mark.parametrize("problem", PROBLEMS)
def test_bound_is_valid_when_cpsat_stops_before_proving_anything(problem):
    """Regression (dense-graph benchmark): CP-SAT stopped at once (status UNKNOWN) reports a
    "bound" of 0, which is no upper bound for MIS or max cut; the trivial bound is used."""
    from g2s.graphs import erdos_renyi

    # max cut's program has a row per triangle: a smaller graph keeps the model build short
    G = erdos_renyi(300, p=0.9, seed=0) if problem != "maxcut" else erdos_renyi(80, p=0.5, seed=0)
    res = solve_reference(problem, G, time_limit=0.001, backend="cpsat")
    _assert_consistent(res, problem, G)


@pytest.mark.parametrize("n", [25, 100, 400, 1600])
def test_greedy_worst_case_optimum_is_the_recorded_cover(n):
    """König proves the recorded side L optimal on Johnson's worst-case graphs."""
    G = greedy_worst_case_mvc(n)
    res = solve_reference("mvc", G)
    assert res.method == "konig" and res.status == "optimal"
    assert res.objective == len(G.graph["optimal_cover"])


@pytest.mark.parametrize("seed", range(3))
def test_planted_cover_is_optimal(seed):
    G = planted_vertex_cover(60, seed=seed)
    res = solve_reference("mvc", G, time_limit=30)
    assert res.status == "optimal" and res.objective == len(G.graph["optimal_cover"])


@pytest.mark.parametrize(("G", "values"), [
    (nx.petersen_graph(), {"mvc": 6, "mis": 4, "maxcut": 12}),
    (nx.cycle_graph(5), {"mvc": 3, "mis": 2, "maxcut": 4}),
    (nx.complete_graph(6), {"mvc": 5, "mis": 1, "maxcut": 9}),
    (nx.path_graph(7), {"mvc": 3, "mis": 4, "maxcut": 6}),
    (nx.empty_graph(0), {"mvc": 0, "mis": 0, "maxcut": 0}),
])
def test_known_optima_of_named_graphs(G, values):
    for problem, value in values.items():
        for backend in ("auto", "cpsat", "highs"):
            res = solve_reference(problem, G, time_limit=10, backend=backend)
            assert res.objective == value == res.bound, (problem, backend)


def test_result_json_round_trip():
    res = solve_reference("maxcut", nx.petersen_graph())
    again = ReferenceResult.from_json(res.to_json())
    assert again == res and again.gap == 0.0


@pytest.mark.parametrize("problem", ["mvc", "mis"])
@pytest.mark.parametrize("formulation", ["both", "mvc", "mis"])
@pytest.mark.parametrize("backend", ["cpsat", "highs"])
def test_either_formulation_gives_the_optimum(problem, formulation, backend):
    G = nx.petersen_graph()
    res = solve_reference(problem, G, time_limit=10, backend=backend, formulation=formulation)
    assert res.objective == res.bound == {"mvc": 6, "mis": 4}[problem]
    _assert_consistent(res, problem, G)
    ran = [problem] if formulation in ("both", problem) else [formulation]
    assert res.bound_by == ran[0] and res.best_known_by in (ran[0], "chils", "heuristic")
    if formulation == "both":  # the first program proves optimality: the second is skipped
        other = "mis" if problem == "mvc" else "mvc"
        assert res.bounds == {problem: res.bound, other: None}
    else:
        assert res.bounds == {formulation: res.bound}


def test_both_formulations_on_a_time_limited_dense_graph():
    """Each program alone proves a valid bound; the reported one is the tighter."""
    from g2s.graphs import erdos_renyi

    G = erdos_renyi(120, p=0.5, seed=5)
    res = solve_reference("mvc", G, time_limit=1.0, backend="cpsat")
    _assert_consistent(res, "mvc", G)
    proved = [b for b in res.bounds.values() if b is not None]
    assert res.bound == max(proved) and res.bounds[res.bound_by] == res.bound


@pytest.mark.parametrize(("G", "kwargs", "match"), [
    (nx.DiGraph([(0, 1)]), {}, "undirected"),
    (nx.MultiGraph([(0, 1), (0, 1)]), {}, "undirected"),
    (nx.Graph([(0, 0), (0, 1)]), {}, "loops"),
    (nx.path_graph(4), {"backend": "gurobi"}, "unknown backend"),
    (nx.path_graph(4), {"problem": "tsp"}, "unknown problem"),
    (nx.path_graph(4), {"formulation": "qubo"}, "unknown formulation"),
    (nx.cycle_graph(5), {"backend": "konig"}, "bipartite"),
    (nx.cycle_graph(5), {"backend": "tree-dp"}, "forest"),
    (nx.path_graph(ENUMERATION_MAX_VERTICES + 1), {"backend": "enumeration"}, "limited"),
    (nx.complete_graph(30), {"hint": {0}}, "hint"),
])
def test_bad_input_is_refused(G, kwargs, match):
    kwargs = {"problem": "mvc", **kwargs}
    with pytest.raises(ValueError, match=match):
        solve_reference(G=G, **kwargs)


@pytest.mark.parametrize("problem", ["mvc", "mis", "maxcut"])
def test_isolated_vertices_are_one_trivial_part(problem, monkeypatch):
    """Hundreds of thousands of isolated vertices made one subgraph each, which took the
    reference 33 s past a 2 s limit on 500,000 vertices and one edge; they are now one
    trivial part, so the number of subgraphs does not grow with them (and the answer is the
    same as for the graph without them, plus every isolated vertex for MIS)."""
    calls = []
    real = nx.Graph.subgraph

    def counting(self, nodes):
        calls.append(1)
        return real(self, nodes)

    monkeypatch.setattr(nx.Graph, "subgraph", counting)
    G = nx.empty_graph(5000)
    G.add_edges_from([(0, 1), (1, 2)])
    res = solve_reference(problem, G, time_limit=2)
    assert len(calls) <= 10   # one per vertex before: over 5,000
    assert res.status == "optimal"
    assert res.objective == {"mvc": 1, "mis": 4999, "maxcut": 2}[problem]


def test_max_cut_program_writes_triangle_rows_in_proportion_to_its_time_limit(monkeypatch):
    """Writing every triangle row of ER(400, 0.15) (about 36,000 triangles) took 6 s whatever
    the limit, so a 1 s reference ran 7 s; the rows only tighten the relaxation, so a program
    writes at most TRIANGLES_PER_SECOND per second of its limit, the first in edge order, and
    the model stays a function of the graph and the limit."""
    from g2s.reference.programs import TRIANGLES_PER_SECOND, _cut_structure, triangle_budget
    G = nx.gnp_random_graph(120, 0.3, seed=4)
    idx = {v: i for i, v in enumerate(G)}
    triangles = sum(nx.triangles(G).values()) // 3
    _, _, every = _cut_structure(G, idx, triangles)
    assert len(every) == 4 * triangles
    budget = triangle_budget(0.5)
    assert budget == TRIANGLES_PER_SECOND // 2 < triangles
    _, _, capped = _cut_structure(G, idx, budget)
    assert capped == every[:4 * budget]
    # exact without them: with no triangle row at all the optimum is the same
    from g2s.reference import programs
    H = nx.gnp_random_graph(14, 0.5, seed=1)
    S_full, bound_full = programs.solve_cpsat("maxcut", H, 5.0, None, 0, 1)
    monkeypatch.setattr(programs, "TRIANGLES_PER_SECOND", 0)
    S_bare, bound_bare = programs.solve_cpsat("maxcut", H, 5.0, None, 0, 1)
    assert check_solution("maxcut", H, S_bare) == check_solution("maxcut", H, S_full) \
        == round(bound_full) == round(bound_bare)
