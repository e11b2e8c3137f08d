"""Minimum vertex cover, max cut and maximum independent set: the single source of truth.

Every solver, heuristic, RL environment and test imports its objective, feasibility predicate,
action set and episode end from here (arXiv:1802.04948, Section 5 and Appendix C.1).

A solution is a set of vertices ``S``.  For max cut, ``S`` is one side of the cut ``(S, V \\ S)``.

The vertex-selection MDP of Appendix C.1 adds one vertex at a time to ``S``; the reward of
action ``a`` is ``f(S + a) - f(S)`` where ``f`` is the objective written as a quantity to
*maximise* (:func:`utility`: ``-|S|`` for MVC, ``cut(S)`` for max cut, ``|S|`` for MIS).

Episode ends (the paper leaves them partly open; DESIGN.md asks us to decide):

* MVC: when ``S`` covers every edge.  Actions are the vertices that still touch an uncovered
  edge (adding any other vertex only lowers the utility).  Same as Dai et al. (2017), App. C.
* MIS: when no vertex can be added while keeping ``S`` independent, i.e. the paper's
  ``F_t = {}`` (Appendix C.1, literally).
* MaxCut: the paper does not say.  We end when no vertex outside ``S`` has a strictly positive
  marginal gain, following Dai et al. (2017), whose max-cut episode ends "when the cut weight
  cannot be improved".  Actions are the vertices outside ``S`` (all feasible: every subset is a
  cut).
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np

from g2s.edge_array import EdgeArray

__all__ = [
    "PROBLEMS",
    "SENSE",
    "objective",
    "utility",
    "is_feasible",
    "is_vertex_cover",
    "is_independent_set",
    "cut_size",
    "feasible_actions",
    "candidate_actions",
    "marginal_gain",
    "is_terminal",
    "approximation_ratio",
    "check_solution",
    "InfeasibleSolution",
]

PROBLEMS = ("mvc", "maxcut", "mis")
#: whether the natural objective is minimised or maximised
SENSE = {"mvc": "min", "maxcut": "max", "mis": "max"}


class InfeasibleSolution(ValueError):
    """A reported solution violates the problem's constraints."""


def _check_problem(problem: str) -> None:
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")


def _ends_in(G, S) -> tuple[np.ndarray, np.ndarray]:
    """For every edge of ``G`` (a networkx graph or an :class:`~g2s.edge_array.EdgeArray`):
    whether its first and its second end lie in ``S``, vectorised over the edge array."""
    E = EdgeArray.of(G)
    inside = E.mask(S)
    return inside[E.edges[:, 0]], inside[E.edges[:, 1]]


def is_vertex_cover(G: nx.Graph, S: Iterable) -> bool:
    """``True`` iff every edge of ``G`` has at least one endpoint in ``S``."""
    a, b = _ends_in(G, set(S))
    return bool(np.all(a | b))


def is_independent_set(G: nx.Graph, S: Iterable) -> bool:
    """``True`` iff no edge of ``G`` has both endpoints in ``S`` (and ``S`` is a vertex subset)."""
    S = set(S)
    if not all(v in G for v in S):
        return False
    a, b = _ends_in(G, S)
    return not bool(np.any(a & b))


def cut_size(G: nx.Graph, S: Iterable) -> int:
    """Number of edges with exactly one endpoint in ``S``."""
    a, b = _ends_in(G, set(S))
    return int(np.count_nonzero(a != b))


def is_feasible(problem: str, G: nx.Graph, S: Iterable) -> bool:
    """Feasibility predicate: a cover (MVC), an independent set (MIS), any vertex subset (cut)."""
    _check_problem(problem)
    S = set(S)
    if not all(v in G for v in S):
        return False
    if problem == "mvc":
        return is_vertex_cover(G, S)
    if problem == "mis":
        return is_independent_set(G, S)
    return True


def objective(problem: str, G: nx.Graph, S: Iterable) -> int:
    """The problem's natural objective: ``|S|`` (MVC, MIS) or the cut size (max cut)."""
    _check_problem(problem)
    S = set(S)
    if problem == "maxcut":
        return cut_size(G, S)
    return len(S)


def utility(problem: str, G: nx.Graph, S: Iterable) -> int:
    """``f(S)`` of Appendix C.1, the quantity the agent maximises: ``-|S|`` for MVC."""
    value = objective(problem, G, S)
    return -value if SENSE[problem] == "min" else value


def marginal_gain(problem: str, G: nx.Graph, S: Iterable, a) -> int:
    """The MDP reward ``f(S + a) - f(S)`` (Appendix C.1), computed locally in O(deg a)."""
    _check_problem(problem)
    S = set(S)
    if a in S:
        raise ValueError(f"vertex {a!r} is already in the solution")
    if problem == "mvc":
        return -1
    if problem == "mis":
        return 1
    inside = sum(1 for u in G.neighbors(a) if u in S)
    return G.degree(a) - 2 * inside


def feasible_actions(problem: str, G: nx.Graph, S: Iterable) -> set:
    """The paper's ``F_t``: vertices ``a`` outside ``S`` such that some feasible ``S' >= S + a``.

    For MVC and max cut this is every vertex outside ``S``; for MIS, the vertices outside
    ``S`` with no neighbour in ``S``.
    """
    _check_problem(problem)
    S = set(S)
    rest = set(G.nodes) - S
    if problem == "mis":
        return {a for a in rest if not any(u in S for u in G.neighbors(a))}
    return rest


def candidate_actions(problem: str, G: nx.Graph, S: Iterable) -> set:
    """The actions the MDP offers (module docstring); empty exactly when :func:`is_terminal`."""
    _check_problem(problem)
    S = set(S)
    if problem == "mvc":
        return {x for u, v in G.edges() if u not in S and v not in S for x in (u, v)}
    if problem == "mis":
        return feasible_actions(problem, G, S)
    return {a for a in set(G.nodes) - S if marginal_gain(problem, G, S, a) > 0}


def is_terminal(problem: str, G: nx.Graph, S: Iterable) -> bool:
    """Episode end (module docstring): no candidate action is left."""
    return not candidate_actions(problem, G, S)


def approximation_ratio(problem: str, value: float, reference: float) -> float:
    """Ratio >= 1 means worse than the reference: ``value/ref`` (min) or ``ref/value`` (max).

    This is the paper's convention (its y-axes show ratios >= 1 for all three problems).
    A zero reference (an edgeless graph) with a zero value counts as ratio 1.
    """
    _check_problem(problem)
    if SENSE[problem] == "min":
        num, den = value, reference
    else:
        num, den = reference, value
    if den == 0:
        return 1.0 if num == 0 else float("inf")
    return float(num) / float(den)


def check_solution(problem: str, G: nx.Graph, S: Iterable) -> int:
    """Return the objective of ``S`` after checking it is feasible; raise otherwise.

    Every reported solution goes through this before it is counted (DESIGN.md).
    """
    S = set(S)
    if not is_feasible(problem, G, S):
        raise InfeasibleSolution(f"solution of size {len(S)} is not feasible for {problem}")
    return objective(problem, G, S)
