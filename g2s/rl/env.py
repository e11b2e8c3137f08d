"""The vertex-selection MDP of arXiv:1802.04948, Appendix C.1, vectorised over a graph batch.

State ``(G, S)``, action ``a`` among the candidates, reward ``f(S + a) - f(S)``; the episode of
a graph ends when it has no candidate left.  Candidates, rewards and episode ends are exactly
those of :mod:`g2s.problems` (its module docstring documents the choices; ``tests/g2s/
test_env.py`` checks the agreement on random graphs):

* MVC: candidates are vertices outside ``S`` with an uncovered edge; reward ``-1``.
* MIS: candidates are vertices outside ``S`` with no neighbour in ``S``; reward ``+1``.
* MaxCut: candidates are vertices outside ``S`` with positive gain
  ``deg(v) - 2 |Gamma(v) cap S|``; the reward is that gain.

Every graph of the batch (and every column of ``c`` when ``c`` is ``(N, R)``: ``R`` independent
episodes on the same graphs) moves in lock-step; all quantities come from one sparse product
with ``c``, so a step costs ``O(|E|)``.
"""

from __future__ import annotations

import torch

from g2s.nn.batch import GraphBatch
from g2s.problems import PROBLEMS

__all__ = ["candidate_mask", "rewards", "VertexSelectionEnv"]


def candidate_mask(problem: str, batch: GraphBatch, c: torch.Tensor) -> torch.Tensor:
    """Bool ``(N, ...)``: the actions :func:`g2s.problems.candidate_actions` offers."""
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}")
    sel = c.to(torch.bool)
    cf = sel.to(batch.adj.dtype)
    inside = batch.neighbour_sum(cf)                   # |Gamma(v) cap S|
    if problem == "mis":
        return ~sel & (inside == 0)
    deg = batch.degree().reshape((-1,) + (1,) * (c.dim() - 1))
    if problem == "mvc":
        return ~sel & (inside < deg)                   # some neighbour outside S: uncovered edge
    return ~sel & (deg - 2 * inside > 0)


def rewards(problem: str, batch: GraphBatch, c: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
    """``f(S + a) - f(S)`` for global vertex indices ``a`` (``(B,)``), given ``c`` (``(N,)``)."""
    if problem == "mvc":
        return torch.full(a.shape, -1.0, device=a.device)
    if problem == "mis":
        return torch.ones(a.shape, device=a.device)
    inside = batch.neighbour_sum(c.to(batch.adj.dtype))
    gain = batch.degree() - 2 * inside
    return gain[a].to(torch.float32)


class VertexSelectionEnv:
    """Lock-step episodes, one per graph of ``batch``, starting from ``S = {}`` (or from the
    sets of the indicator ``c``).

    Attributes
    ----------
    c : torch.Tensor
        ``(N,)`` bool indicator of the selected sets.
    """

    def __init__(self, problem: str, batch: GraphBatch, c: torch.Tensor | None = None):
        if problem not in PROBLEMS:
            raise ValueError(f"unknown problem {problem!r}")
        self.problem = problem
        self.batch = batch
        self.c = (torch.zeros(batch.num_nodes, dtype=torch.bool, device=batch.device)
                  if c is None else c.to(device=batch.device, dtype=torch.bool).clone())
        self.total_reward = torch.zeros(batch.num_graphs, device=batch.device)

    def candidates(self) -> torch.Tensor:
        """``(N,)`` bool mask of the actions offered now."""
        return candidate_mask(self.problem, self.batch, self.c)

    def done(self) -> torch.Tensor:
        """``(B,)`` bool: graphs whose episode has ended (no candidate left)."""
        cand = self.candidates().to(torch.float32)
        return self.batch.graph_sum(cand) == 0

    def step(self, actions: torch.Tensor) -> torch.Tensor:
        """Add ``actions[b]`` (a global vertex index, or -1 to skip graph ``b``) to ``S_b``.

        Returns the ``(B,)`` rewards (0 for skipped graphs).  Raises on a non-candidate action.
        """
        actions = actions.to(self.c.device)
        act = actions >= 0
        r = torch.zeros(self.batch.num_graphs, device=self.c.device)
        if bool(act.any()):
            a = actions[act]
            cand = self.candidates()
            if not bool(cand[a].all()):
                raise ValueError("action is not a candidate of the MDP")
            if not bool((self.batch.graph_index[a] == torch.nonzero(act).squeeze(1)).all()):
                raise ValueError("action belongs to another graph")
            r[act] = rewards(self.problem, self.batch, self.c, a)
            self.c[a] = True
        self.total_reward += r
        return r

    def solutions(self) -> list[set]:
        """The selected set of each graph, with local vertex numbers."""
        ptr = self.batch.ptr.tolist()
        idx = torch.nonzero(self.c).squeeze(1).tolist()
        out = [set() for _ in range(self.batch.num_graphs)]
        g = self.batch.graph_index[self.c].tolist()
        for v, b in zip(idx, g):
            out[b].add(v - ptr[b])
        return out
