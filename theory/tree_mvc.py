"""Minimum vertex cover on trees: the exact dynamic programme and Appendix Algorithm 1.

arXiv:1802.04948, Appendix B.4 ("Sequential heuristic to compute MVC on trees") presents
Algorithm 1, a synchronous local update on states ``[x_v, y_v]`` whose time-averaged output
it says computes the minimum vertex cover of "any unweighted, undirected tree".
:func:`sequential_heuristic_states` implements the pseudo-code literally;
:func:`min_vertex_cover_tree` is the exact reference (the textbook tree DP) it is measured
against, and :func:`sequential_heuristic_limit` computes the exact ``NumRounds -> inf`` limit
of the algorithm's output by detecting the cycle of its finite-state dynamics.

Reading of the pseudo-code (what is implemented, see also the ledger):

* activation: ``x_v(i) = +1`` iff ``sum_{u in N(v)} x_u(i-1) >= -eps``.  For
  ``0 < eps < 1/Delta`` this is exactly the prose rule "v is a leaf or some neighbour is
  active" (a leaf with an inactive neighbour sums to exactly ``-eps``); an isolated vertex
  (sum 0) is active too.
* selection: an active ``v`` sets ``y_v(i) = eps`` iff ``sum_u y_u(i-1) < 0``, which for
  ``eps < 1/Delta`` is "some neighbour has ``y = -1``", the prose rule (2).
* output: ``sum_v (1/R) sum_{i=1..R} (y_v(i) + 1)/(1 + eps)``.  An undecided vertex
  (``y = 0``) contributes ``1/(1+eps)``, i.e. counts almost as a cover vertex.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import networkx as nx
import numpy as np

__all__ = [
    "min_vertex_cover_tree",
    "default_epsilon",
    "sequential_heuristic_states",
    "tree_mvc_sequential_heuristic",
    "HeuristicLimit",
    "sequential_heuristic_limit",
]


def _check_forest(T: nx.Graph) -> None:
    if T.is_directed() or T.is_multigraph():
        raise ValueError("expected a simple undirected graph")
    # a graph is a forest iff it has n - (its components) edges (each cycle, a self-loop too,
    # adds one); cheaper than nx.is_forest's per-component check on many small trees
    n = T.number_of_nodes()
    if n and T.number_of_edges() != n - nx.number_connected_components(T):
        raise ValueError("expected a tree (or a forest)")


def min_vertex_cover_tree(T: nx.Graph) -> tuple[int, set]:
    """Exact minimum vertex cover of a tree (or forest) by dynamic programming.

    For each vertex ``v`` rooted below its parent, ``in(v) = 1 + sum_c min(in(c), out(c))``
    and ``out(v) = sum_c in(c)`` over its children ``c``; the optimum of a component rooted
    at ``r`` is ``min(in(r), out(r))``.  Runs in ``O(n)`` without recursion.

    Returns
    -------
    (size, cover) : the optimum ``tau(T)`` and one minimum cover.
    """
    _check_forest(T)
    cover: set = set()
    total = 0
    for comp in nx.connected_components(T):
        root = min(comp, key=repr)
        order = list(nx.dfs_preorder_nodes(T, root))
        parent = {root: None}
        for u, w in nx.dfs_edges(T, root):
            parent[w] = u
        take: dict = {}
        skip: dict = {}
        for v in reversed(order):
            kids = [c for c in T.neighbors(v) if c != parent[v]]
            take[v] = 1 + sum(min(take[c], skip[c]) for c in kids)
            skip[v] = sum(take[c] for c in kids)
        total += min(take[root], skip[root])
        # reconstruct top-down: a vertex is taken if its parent is skipped or taking is optimal
        chosen = {root: take[root] <= skip[root]}
        for v in order:
            if chosen[v]:
                cover.add(v)
            for c in T.neighbors(v):
                if c != parent[v]:
                    chosen[c] = True if not chosen[v] else take[c] <= skip[c]
    return total, cover


def default_epsilon(T: nx.Graph) -> float:
    """``eps = 1/(2 Delta)``: strictly below one over the maximum degree, as the appendix asks."""
    delta = max((d for _, d in T.degree()), default=1)
    return 1.0 / (2 * max(delta, 1))


def sequential_heuristic_states(T: nx.Graph, num_rounds: int, eps: float | None = None
                                ) -> tuple[list, np.ndarray, np.ndarray]:
    """Run Appendix Algorithm 1 literally; return ``(nodes, x, y)``.

    ``x`` and ``y`` have shape ``(num_rounds + 1, n)``: row ``i`` is ``x_v(i)``, ``y_v(i)``
    (row 0 the initial ``-eps`` and ``0``), columns in the order of ``nodes``.  Every vertex
    updates synchronously from its neighbours' round ``i - 1`` states (Algorithm 1).
    """
    _check_forest(T)
    if eps is None:
        eps = default_epsilon(T)
    delta = max((d for _, d in T.degree()), default=0)
    if not 0 < eps or (delta > 0 and eps >= 1.0 / delta):
        raise ValueError(f"eps must lie in (0, 1/Delta) = (0, {1 / max(delta, 1)}); got {eps}")
    nodes = list(T.nodes)
    A = nx.to_numpy_array(T, nodelist=nodes, dtype=float)
    n = len(nodes)
    x = np.empty((num_rounds + 1, n))
    y = np.empty((num_rounds + 1, n))
    x[0], y[0] = -eps, 0.0
    for i in range(1, num_rounds + 1):
        active = A @ x[i - 1] >= -eps
        chosen = A @ y[i - 1] < 0
        x[i] = np.where(active, 1.0, -eps)
        y[i] = np.where(active, np.where(chosen, eps, -1.0), 0.0)
    return nodes, x, y


def tree_mvc_sequential_heuristic(T: nx.Graph, num_rounds: int, eps: float | None = None
                                  ) -> float:
    """The output of Appendix Algorithm 1 after ``num_rounds`` rounds.

    ``sum_v ybar_v`` with ``ybar_v = (1/R) sum_{i=1}^{R} (y_v(i) + 1)/(1 + eps)``.
    """
    if num_rounds < 1:
        raise ValueError("num_rounds must be at least 1")
    if eps is None:
        eps = default_epsilon(T)
    _, _, y = sequential_heuristic_states(T, num_rounds, eps)
    return float(((y[1:] + 1.0) / (1.0 + eps)).sum() / num_rounds)


@dataclass(frozen=True)
class HeuristicLimit:
    """Exact long-run behaviour of Algorithm 1 on one tree.

    Attributes
    ----------
    limit : the ``NumRounds -> inf`` limit of the output (mean cover count over the cycle).
    transient : rounds before the state sequence enters its cycle.
    period : length of that cycle (1: a fixed point).
    cycle_covers : the vertex sets with ``y = eps`` at each round of the cycle.
    """

    limit: Fraction
    transient: int
    period: int
    cycle_covers: tuple


def sequential_heuristic_limit(T: nx.Graph, eps: float | None = None) -> HeuristicLimit:
    """Detect the cycle of Algorithm 1's deterministic finite-state dynamics.

    The state ``(x(i), y(i))`` determines ``(x(i+1), y(i+1))``, so the sequence is eventually
    periodic; the output's limit is the average over that cycle of
    ``sum_v (y_v + 1)/(1 + eps)``, which is an exact cover count once every vertex is active.
    """
    if eps is None:
        eps = default_epsilon(T)
    n = T.number_of_nodes()
    horizon = 2 * n + 4  # transient <= diameter + 1 and period <= 2 (see tests); generous bound
    while True:
        nodes, x, y = sequential_heuristic_states(T, horizon, eps)
        seen: dict = {}
        for i in range(horizon + 1):
            key = (x[i].tobytes(), y[i].tobytes())
            if key in seen:
                start, period = seen[key], i - seen[key]
                rows = y[start:i]
                if np.any(rows == 0.0):
                    raise AssertionError("an undecided vertex inside the cycle")  # pragma: no cover
                covers = tuple(frozenset(nodes[j] for j in np.flatnonzero(r > 0)) for r in rows)
                limit = Fraction(sum(len(c) for c in covers), period)
                return HeuristicLimit(limit, start, period, covers)
            seen[key] = i
        horizon *= 2  # pragma: no cover - never needed on trees
