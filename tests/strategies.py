"""Hypothesis strategies that build valid graphs directly, and a brute-force optimum oracle."""

from __future__ import annotations

import itertools

import networkx as nx
from hypothesis import strategies as st

from g2s.problems import SENSE, is_feasible, objective


@st.composite
def graphs(draw, min_n: int = 1, max_n: int = 10, min_edges: int = 0):
    """A simple undirected graph on 0..n-1: draw n, then a subset of the vertex pairs."""
    n = draw(st.integers(min_n, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, min_size=min(min_edges, len(pairs)))
                  if pairs else st.just([]))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(chosen)
    return G


@st.composite
def bipartite_graphs(draw, max_side: int = 6):
    a = draw(st.integers(1, max_side))
    b = draw(st.integers(1, max_side))
    pairs = [(i, a + j) for i in range(a) for j in range(b)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True))
    G = nx.Graph()
    G.add_nodes_from(range(a + b))
    G.add_edges_from(chosen)
    return G


def brute_force_optimum(problem: str, G: nx.Graph) -> tuple[int, set]:
    """Exact optimum by enumerating every vertex subset (test oracle; n <= ~14)."""
    nodes = list(G.nodes)
    best_val, best = None, None
    for r in range(len(nodes) + 1):
        for S in itertools.combinations(nodes, r):
            if not is_feasible(problem, G, S):
                continue
            val = objective(problem, G, S)
            if best_val is None or (val < best_val if SENSE[problem] == "min" else val > best_val):
                best_val, best = val, set(S)
    return best_val, best
