"""Experience replay (Mnih et al. 2013), as used for Q-learning in arXiv:1802.04948, Section 5.

A transition is ``(graph, S, a, r)``: the state ``(G, S)``, the action ``a`` and the reward
``r = f(S + a) - f(S)``.  The next state ``S + a``, its candidates and whether it is terminal are
recomputed from these when the transition is replayed (:mod:`g2s.rl.dqn`), so they are not
stored.  Graphs are stored as ``(n, edges)`` pairs shared by all transitions of an episode.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from g2s.graphs import as_rng

__all__ = ["Transition", "ReplayBuffer"]


@dataclass(frozen=True)
class Transition:
    graph: tuple            # (n, edges (M, 2) int64 array), see g2s.nn.batch.edge_array
    selected: np.ndarray    # (n,) bool: S
    action: int             # local vertex index a, a not in S
    reward: float           # f(S + a) - f(S)


class ReplayBuffer:
    """Fixed-capacity ring buffer with uniform sampling."""

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError("capacity must be positive")
        self.capacity = int(capacity)
        self._items: list[Transition] = []
        self._next = 0

    def __len__(self) -> int:
        return len(self._items)

    def push(self, t: Transition) -> None:
        if len(self._items) < self.capacity:
            self._items.append(t)
        else:
            self._items[self._next] = t
        self._next = (self._next + 1) % self.capacity

    def sample(self, k: int, seed=None) -> list[Transition]:
        """``k`` transitions drawn uniformly with replacement."""
        if not self._items:
            raise ValueError("empty replay buffer")
        idx = as_rng(seed).integers(0, len(self._items), size=k)
        return [self._items[i] for i in idx]
