"""The rounding of Algorithm 2's scores, shared by the literal algorithm and its fast path.

Exact agreement of the two paths needs care with exact ties (symmetric vertices): float results
depend on tensor layout in the last bit, so scores are rounded to multiples of
:data:`SCORE_QUANTUM` before the argmax (first index of the largest), and a decision is the
argmax of the rounded scores in both :mod:`g2s.algorithm2.literal` and
:mod:`g2s.algorithm2.decide`.
"""

from __future__ import annotations

import torch

__all__ = ["SCORE_QUANTUM", "quantise"]

#: scores are rounded to multiples of this before the argmax, so that float rounding noise
#: (which depends on tensor layout) cannot break exact ties differently in the two paths
SCORE_QUANTUM = 2.0 ** -30


def quantise(score: torch.Tensor) -> torch.Tensor:
    """The literal's rounded score ``round(s / q)``: its argmax (first index of the largest)
    is the greedy choice."""
    return torch.round(score / SCORE_QUANTUM)
