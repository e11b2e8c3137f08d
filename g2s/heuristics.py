"""Classical (non-learning) heuristics of arXiv:1802.04948, Appendix D.1, items (5)-(7).

Every function is deterministic given ``seed``.  With ``seed=None`` ties are broken by the
smallest vertex label; with a seed, by a seeded random priority (a random permutation ranks the
vertices, and ties in the heuristic's key go to the higher-ranked vertex).

* :func:`min_vertex_cover_greedy`: repeatedly take a vertex of maximum degree in the residual
  graph (Johnson 1973; Williamson & Shmoys 2011, as greedy set cover); an
  ``H(Delta)``-approximation, ``Theta(log n)`` on
  :func:`g2s.graphs.greedy_worst_case_mvc` (Johnson 1973).
* :func:`max_independent_set_greedy`: repeatedly take a vertex of minimum residual degree and
  delete its closed neighbourhood; ``|S| >= n / (Delta + 1)`` and a ``(Delta+2)/3``-
  approximation (Halldorsson & Radhakrishnan 1997).
* :func:`max_cut_greedy`: place vertices one by one on the side that cuts more edges to the
  already-placed ones (Sahni & Gonzalez 1976, J. ACM 23); cuts at least ``|E|/2``.
* :func:`list_heuristic`: the paper cites Shimizu et al. (2016) for "a fast list-based
  algorithm for MVC and MIS" without defining it.  Two published unweighted list heuristics
  exist, both scanning the vertices sorted by non-increasing degree: ListLeft (Avis & Imamura
  2007, ORL 35: a vertex joins the cover iff it has a neighbour later in the list; ratio
  ``<= Delta/2 + 3/2``) and ListRight (Delbot & Laforest 2008, IPL 107: scan from the end; a
  vertex joins the cover iff some later neighbour is not in the cover).  We implement both;
  ``variant="right"`` is the default because Shimizu et al.'s list algorithm is a refinement of
  the right-to-left scan (our reading; recorded in the ledger as a choice).  For MIS the list
  heuristics return the complement of the cover, which is independent.
* :func:`min_vertex_cover_matching`: both endpoints of a maximal matching; a 2-approximation
  (Gavril's algorithm, in Garey & Johnson 1979, Sec. 6.1).
* :func:`max_cut_local_search`: single-vertex flips, each the flip that gains the most cut
  edges, until no flip gains: a local optimum, which cuts at least ``|E| / 2`` (every vertex
  has at least half its edges cut there).  It polishes the annealed cut of
  :mod:`g2s.reference.best_known`.
* :func:`trivial_solution`: the null baseline a threshold claim must beat to say anything.
  MIS: a random maximal independent set (vertices in a seeded random order, each taken when
  no neighbour was); MVC: its complement; max cut: a single-flip local optimum from a random
  cut.  Each is "trivial" in the sense that it uses no information beyond feasibility and
  one-vertex moves: no degrees, no look-ahead, no learning.  A bar that it already meets on
  a family cannot tell a good solver from a trivial one there.  The figures run it
  :data:`TRIVIAL_DRAWS` times per graph (:func:`trivial_draws`), each draw in its own random
  vertex order seeded by the graph's name, and report the mean: one draw in one vertex order
  shared by every graph of a size is bimodal on bipartite graphs (it either starts on the
  smaller side or not), so a single draw can make a point look informative or not by chance.
"""

from __future__ import annotations

import hashlib
import heapq

import networkx as nx
import numpy as np

from g2s.graphs import as_rng
from g2s.problems import PROBLEMS, objective

__all__ = [
    "min_vertex_cover_greedy",
    "max_independent_set_greedy",
    "max_cut_greedy",
    "list_heuristic",
    "min_vertex_cover_matching",
    "greedy",
    "best_heuristic",
    "max_cut_local_search",
    "random_maximal_independent_set",
    "trivial_solution",
    "trivial_draws",
    "TRIVIAL",
    "TRIVIAL_DRAWS",
    "HEURISTIC_METHODS",
    "ON_EDGE_ARRAYS",
    "run_heuristic",
]


def _rank(G: nx.Graph, seed) -> dict:
    """Tie-break priority of each vertex: its label order, or a seeded random permutation."""
    nodes = sorted(G.nodes)
    if seed is None:
        return {v: i for i, v in enumerate(nodes)}
    perm = as_rng(seed).permutation(len(nodes))
    return {v: int(perm[i]) for i, v in enumerate(nodes)}


def min_vertex_cover_greedy(G: nx.Graph, seed=None) -> set:
    """Max-degree greedy vertex cover on the residual graph; ties to the smallest rank."""
    rank = _rank(G, seed)
    deg = dict(G.degree())
    heap = [(-d, rank[v], v) for v, d in deg.items() if d > 0]
    heapq.heapify(heap)
    removed, cover = set(), set()
    while heap:
        negd, _, v = heapq.heappop(heap)
        if v in removed or -negd != deg[v]:
            continue  # stale entry
        if deg[v] == 0:
            break
        cover.add(v)
        removed.add(v)
        for u in G.neighbors(v):
            if u not in removed:
                deg[u] -= 1
                if deg[u] > 0:
                    heapq.heappush(heap, (-deg[u], rank[u], u))
        deg[v] = 0
    return cover


def max_independent_set_greedy(G: nx.Graph, seed=None) -> set:
    """Min-degree greedy independent set (closed-neighbourhood removal); ties to smallest rank."""
    rank = _rank(G, seed)
    deg = dict(G.degree())
    heap = [(d, rank[v], v) for v, d in deg.items()]
    heapq.heapify(heap)
    removed, chosen = set(), set()
    while heap:
        d, _, v = heapq.heappop(heap)
        if v in removed or d != deg[v]:
            continue
        chosen.add(v)
        gone = [v] + [u for u in G.neighbors(v) if u not in removed]
        removed.update(gone)
        for u in gone[1:]:
            for w in G.neighbors(u):
                if w not in removed:
                    deg[w] -= 1
                    heapq.heappush(heap, (deg[w], rank[w], w))
    return chosen


def max_cut_greedy(G: nx.Graph, seed=None) -> set:
    """Sahni-Gonzalez greedy cut: vertices in rank order, each to the side cutting more edges.

    Ties (equal edges to both sides) put the vertex on side 0 (outside ``S``).  Guarantees a
    cut of at least ``|E| / 2``.
    """
    rank = _rank(G, seed)
    side: dict = {}
    for v in sorted(G.nodes, key=rank.__getitem__):
        to_s = sum(1 for u in G.neighbors(v) if side.get(u) == 1)
        to_rest = sum(1 for u in G.neighbors(v) if side.get(u) == 0)
        side[v] = 1 if to_rest > to_s else 0  # joining S cuts the edges to the rest
    return {v for v, s in side.items() if s == 1}


def _degree_list(G: nx.Graph, seed) -> list:
    rank = _rank(G, seed)
    return sorted(G.nodes, key=lambda v: (-G.degree(v), rank[v]))


def _list_cover(G: nx.Graph, variant: str, seed) -> set:
    order = _degree_list(G, seed)
    pos = {v: i for i, v in enumerate(order)}
    if variant == "left":
        return {v for v in order if any(pos[u] > pos[v] for u in G.neighbors(v))}
    if variant == "right":
        cover: set = set()
        for v in reversed(order):
            if any(pos[u] > pos[v] and u not in cover for u in G.neighbors(v)):
                cover.add(v)
        return cover
    raise ValueError(f"unknown list variant {variant!r}; expected 'left' or 'right'")


def list_heuristic(problem: str, G: nx.Graph, variant: str = "right", seed=None) -> set:
    """ListLeft / ListRight list heuristic (module docstring) for ``mvc`` or ``mis``."""
    if problem not in ("mvc", "mis"):
        raise ValueError(f"the list heuristic is defined for mvc and mis, not {problem!r}")
    cover = _list_cover(G, variant, seed)
    return cover if problem == "mvc" else set(G.nodes) - cover


def min_vertex_cover_matching(G: nx.Graph, seed=None) -> set:
    """Both endpoints of a maximal matching built greedily over the edges in rank order."""
    rank = _rank(G, seed)
    edges = sorted(G.edges(), key=lambda e: tuple(sorted((rank[e[0]], rank[e[1]]))))
    matched: set = set()
    for u, v in edges:
        if u not in matched and v not in matched:
            matched.update((u, v))
    return matched


def greedy(problem: str, G: nx.Graph, seed=None) -> set:
    """The problem's greedy heuristic (module docstring)."""
    if problem == "mvc":
        return min_vertex_cover_greedy(G, seed)
    if problem == "mis":
        return max_independent_set_greedy(G, seed)
    if problem == "maxcut":
        return max_cut_greedy(G, seed)
    raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")


def random_maximal_independent_set(G: nx.Graph, seed=0) -> set:
    """A maximal independent set built in a seeded random vertex order (``None``: seed 0)."""
    nodes = sorted(G.nodes, key=repr)
    order = as_rng(0 if seed is None else seed).permutation(len(nodes))
    chosen: set = set()
    blocked: set = set()
    for i in order:
        v = nodes[i]
        if v not in blocked:
            chosen.add(v)
            blocked.add(v)
            blocked.update(G.neighbors(v))
    return chosen


def trivial_solution(problem: str, G: nx.Graph, seed=0) -> set:
    """The null baseline of a threshold claim (module docstring); seeded (``None``: 0)."""
    seed = 0 if seed is None else seed
    if problem == "mis":
        return random_maximal_independent_set(G, seed)
    if problem == "mvc":
        return set(G.nodes) - random_maximal_independent_set(G, seed)
    if problem == "maxcut":
        nodes = sorted(G.nodes, key=repr)
        coin = as_rng(seed).integers(0, 2, len(nodes))
        return max_cut_local_search(G, {v for v, c in zip(nodes, coin) if c})
    raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")


#: the null baseline's method name (:func:`trivial_solution`); not a classical heuristic, so
#: :func:`best_heuristic` leaves it out
TRIVIAL = "trivial"
#: independent draws of the trivial solver per graph in the figures (:func:`trivial_draws`);
#: their mean is the null baseline's objective on that graph
TRIVIAL_DRAWS = 8


def trivial_draws(problem: str, G: nx.Graph, name: str,
                  draws: int = TRIVIAL_DRAWS) -> list[tuple[int, set]]:
    """``draws`` independent runs of :func:`trivial_solution` on ``G``, as ``(objective,
    solution)``: draw ``d`` is seeded by child ``d`` of a seed sequence whose entropy is the
    SHA-256 of ``name`` (the graph's name, e.g. ``"mvc/bipartite/400/3"``), so two graphs of
    the same size get different vertex orders and every rerun the same ones."""
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 1:
        raise ValueError(f"draws must be a positive integer, got {draws!r}")
    entropy = int.from_bytes(hashlib.sha256(name.encode()).digest()[:16], "big")
    out = []
    for child in np.random.SeedSequence(entropy).spawn(draws):
        S = trivial_solution(problem, G, seed=int(child.generate_state(1)[0]))
        out.append((objective(problem, G, S), S))
    return out

#: method name -> (problems it applies to, function(problem, G, seed) -> set)
HEURISTIC_METHODS = {
    "greedy": (("mvc", "maxcut", "mis"), greedy),
    "list": (("mvc", "mis"), lambda p, G, seed=None: list_heuristic(p, G, "right", seed)),
    "list-left": (("mvc", "mis"), lambda p, G, seed=None: list_heuristic(p, G, "left", seed)),
    "matching": (("mvc",), lambda p, G, seed=None: min_vertex_cover_matching(G, seed)),
    TRIVIAL: (("mvc", "maxcut", "mis"), trivial_solution),
}


#: the heuristics that read a graph only through ``nodes``, ``degree`` and ``neighbors``, and
#: whose answer does not depend on the order of a vertex's neighbours (every choice is by a
#: total order of degree and rank): they run on an :class:`~g2s.edge_array.EdgeArray` as on
#: the networkx graph, so a check recomputes them without building one (seconds on the
#: largest graphs); the matching heuristic reads ``G.edges()`` and needs networkx
ON_EDGE_ARRAYS = frozenset({"greedy", "list", "list-left", TRIVIAL})


def run_heuristic(method: str, problem: str, G: nx.Graph, seed=None) -> set:
    """Run a named heuristic, with a clear error when it does not apply to ``problem``."""
    if method not in HEURISTIC_METHODS:
        raise ValueError(f"unknown heuristic {method!r}; expected one of "
                         f"{', '.join(HEURISTIC_METHODS)}")
    problems, fn = HEURISTIC_METHODS[method]
    if problem not in problems:
        raise ValueError(f"heuristic {method!r} does not apply to {problem!r} "
                         f"(only {', '.join(problems)})")
    return set(fn(problem, G, seed=seed))


def best_heuristic(problem: str, G: nx.Graph, seed=None) -> set:
    """The best solution among the applicable heuristics (used as a solver hint).

    For MVC the complement of the min-degree greedy independent set is a candidate too (a
    cover by Gallai's identity): on sparse ER graphs it is about 3% smaller than max-degree
    greedy's cover.  Ties keep the first candidate in :data:`HEURISTIC_METHODS` order.
    """
    candidates = [run_heuristic(method, problem, G, seed)
                  for method, (problems, _) in HEURISTIC_METHODS.items()
                  if problem in problems and method != TRIVIAL]
    if problem == "mvc":
        candidates.append(set(G.nodes) - max_independent_set_greedy(G, seed))
    best, best_val = None, None
    for S in candidates:
        val = objective(problem, G, S)
        better = best_val is None or (val < best_val if problem == "mvc" else val > best_val)
        if better:
            best, best_val = S, val
    return best


def max_cut_local_search(G: nx.Graph, S=()) -> set:
    """A local optimum of max cut under single-vertex flips, from the cut ``(S, V - S)``.

    Repeatedly flips the vertex whose move gains the most cut edges (ties: the smallest label
    order), until no flip gains; deterministic.  Each flip gains at least one edge, so at most
    ``|E|`` flips; each costs ``O(deg)`` to update the gains plus ``O(n)`` to find the next.
    """
    import numpy as np

    nodes = sorted(G.nodes, key=repr)
    idx = {v: i for i, v in enumerate(nodes)}
    side = np.zeros(len(nodes), dtype=np.int8)
    for v in S:
        side[idx[v]] = 1
    nbrs = [np.fromiter((idx[u] for u in G.neighbors(v)), dtype=np.int64) for v in nodes]
    # gain of flipping v: neighbours on its own side (become cut) minus those across
    gain = np.array([int(np.sum(side[nb] == side[i])) - int(np.sum(side[nb] != side[i]))
                     for i, nb in enumerate(nbrs)], dtype=np.int64)
    while len(nodes):
        i = int(np.argmax(gain))
        if gain[i] <= 0:
            break
        side[i] ^= 1
        gain[i] = -gain[i]
        nb = nbrs[i]
        # a neighbour on i's new side gains 2 (its edge to i is now uncut); across, loses 2
        gain[nb] += np.where(side[nb] == side[i], 2, -2)
    return {nodes[i] for i in np.flatnonzero(side)}
