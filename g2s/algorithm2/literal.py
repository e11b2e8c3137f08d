"""Algorithm 2 of arXiv:1802.04948 (Appendix C) as written: the best of G2S-RNN(1), ...,
G2S-RNN(T_max), one rollout after the other.

For each ``T = 1..T_max`` the greedy policy of G2S-RNN(T) (the network whose Graph2Seq sequence
is truncated to ``T``) builds a solution from ``S = {}`` by repeatedly adding the candidate
(:mod:`g2s.rl.env`) of largest ``Q``; the solution with the largest ``f`` is returned
(:func:`g2s.evaluate.solve_with_model`).  Its decisions define the answer:
:func:`g2s.algorithm2.fast.algorithm2_exact` returns the same solutions faster
(``tests/g2s/test_evaluate.py``; ratios in ``benchmarks/results/algorithm2.json``).

Evaluation runs in float64 and scores are rounded (:mod:`g2s.algorithm2.quantise`) before the
argmax, so that exact ties are broken by index and not by rounding noise.

Conventions (ours; the paper is silent): the greedy policy takes the candidate with the largest
vertex term of Eq. (2) -- the graph term is the same for every vertex, so this is ``argmax Q`` --
with ties to the smallest vertex index; Algorithm 2 starts from ``v_opt = -inf`` (the paper's
``v_opt = 0`` would never accept an MVC solution, whose ``f = -|S|`` is negative) and keeps the
smallest ``T`` among equally good solutions.  Fixed-depth encoders (the baselines) are evaluated
with one greedy rollout.
"""

from __future__ import annotations

import time

import torch

from g2s.algorithm2.quantise import quantise
from g2s.nn.batch import GraphBatch
from g2s.nn.model import QModel
from g2s.rl.env import candidate_mask

__all__ = ["greedy_rollout", "algorithm2_literal"]


def _vertex_scores(model: QModel, batch: GraphBatch, c: torch.Tensor, T=None, reads=None):
    y = model.embed(batch, c, T=T, reads=reads)
    return quantise(model.qnet.vertex_term(y))


@torch.no_grad()
def greedy_rollout(model: QModel, problem: str, batch: GraphBatch, T: int | None = None,
                   max_steps: int | None = None, start: torch.Tensor | None = None,
                   deadline: float | None = None):
    """Bool ``(N,)`` solution of the greedy policy of ``model`` (depth ``T``) on a 1-graph batch.

    ``max_steps`` truncates the episode and ``start`` (a bool ``(N,)`` indicator) starts it from
    a partial solution (benchmarks only; the result may be infeasible); after ``deadline`` (a
    ``time.monotonic()`` value) the partial solution is returned (see
    :func:`complete_with_heuristic`).
    """
    c = torch.zeros(batch.num_nodes, dtype=torch.bool, device=batch.device) if start is None \
        else start.to(device=batch.device, dtype=torch.bool).clone()
    steps = 0
    while max_steps is None or steps < max_steps:
        steps += 1
        cand = candidate_mask(problem, batch, c)
        if not bool(cand.any()) or (deadline is not None and time.monotonic() > deadline):
            return c
        score = _vertex_scores(model, batch, c.to(batch.adj.dtype), T=T)
        a = torch.argmax(score.masked_fill(~cand, float("-inf")))
        c[a] = True
    return c


def algorithm2_literal(model: QModel, problem: str, batch: GraphBatch, t_max: int = 15,
                       max_steps: int | None = None, starts=None):
    """Algorithm 2 as written: ``t_max`` independent rollouts. Returns the ``t_max`` solutions.

    ``starts[T - 1]``, if given, is the partial solution rollout ``T`` starts from (benchmarks).
    """
    return [set(torch.nonzero(greedy_rollout(model, problem, batch, T, max_steps,
                                             None if starts is None else starts[T - 1]))
                .squeeze(1).tolist()) for T in range(1, t_max + 1)]
