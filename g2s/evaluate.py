"""Algorithm 2 of arXiv:1802.04948 (Appendix C): the best of G2S-RNN(1), ..., G2S-RNN(T_max).

For each ``T = 1..T_max`` the greedy policy of G2S-RNN(T) (the network whose Graph2Seq sequence
is truncated to ``T``) builds a solution from ``S = {}`` by repeatedly adding the candidate
(:mod:`g2s.rl.env`) of largest ``Q``; the solution with the largest ``f`` is returned.

* :func:`algorithm2_literal` runs the ``T_max`` rollouts one after the other.
* :func:`algorithm2_fast` runs them in lock-step as the ``T_max`` columns of one ``(N, T_max)``
  indicator: each sparse product serves every rollout, rollouts in identical states share one
  evolution (G2S-RNN(T)'s sequence is a prefix of G2S-RNN(T+1)'s for the same ``S``), and
  rollout ``T`` stops being computed after ``T`` steps of the evolution and once its episode
  ends.  It returns the same solutions (``tests/g2s/test_evaluate.py``).  The work saved is
  per-call overhead and shared states only: both paths do ``sum_T T`` products per step, so the
  speed-up is modest (``benchmarks/results/algorithm2.json``).

Exact agreement needs care with exact ties (symmetric vertices): float results depend on tensor
layout in the last bit, so evaluation runs in float64 and scores are rounded to multiples of
:data:`SCORE_QUANTUM` before the argmax.

Conventions (ours; the paper is silent): the greedy policy takes the candidate with the largest
vertex term of Eq. (2) -- the graph term is the same for every vertex, so this is ``argmax Q`` --
with ties to the smallest vertex index; Algorithm 2 starts from ``v_opt = -inf`` (the paper's
``v_opt = 0`` would never accept an MVC solution, whose ``f = -|S|`` is negative) and keeps the
smallest ``T`` among equally good solutions.  Fixed-depth encoders (the baselines) are evaluated
with one greedy rollout.
"""

from __future__ import annotations

import time
from pathlib import Path

import networkx as nx
import torch

from g2s.checkpoints import default_t_max, load_checkpoint, shipped_checkpoint
from g2s.nn.batch import GraphBatch, batch_edge_arrays, edge_array
from g2s.nn.model import QModel
from g2s.problems import check_solution, utility
from g2s.rl.env import candidate_mask

__all__ = ["greedy_rollout", "algorithm2_literal", "algorithm2_fast", "solve_with_model",
           "solve_g2s"]


#: scores are rounded to multiples of this before the argmax, so that float rounding noise
#: (which depends on tensor layout) cannot break exact ties differently in the two paths
SCORE_QUANTUM = 2.0 ** -30


def _vertex_scores(model: QModel, batch: GraphBatch, c: torch.Tensor, T=None, reads=None):
    y = model.embed(batch, c, T=T, reads=reads)
    return torch.round(model.qnet.vertex_term(y) / SCORE_QUANTUM)


@torch.no_grad()
def greedy_rollout(model: QModel, problem: str, batch: GraphBatch, T: int | None = None,
                   max_steps: int | None = None):
    """Bool ``(N,)`` solution of the greedy policy of ``model`` (depth ``T``) on a 1-graph batch.

    ``max_steps`` truncates the episode (benchmarks only; the result may be infeasible).
    """
    c = torch.zeros(batch.num_nodes, dtype=torch.bool, device=batch.device)
    steps = 0
    while max_steps is None or steps < max_steps:
        steps += 1
        cand = candidate_mask(problem, batch, c)
        if not bool(cand.any()):
            return c
        score = _vertex_scores(model, batch, c.to(batch.adj.dtype), T=T)
        a = torch.argmax(score.masked_fill(~cand, float("-inf")))
        c[a] = True
    return c


def _best(problem: str, G: nx.Graph, columns: list) -> tuple[int, list]:
    values = [utility(problem, G, S) for S in columns]
    best = 0
    for i, v in enumerate(values):
        if v > values[best]:
            best = i
    return best, values


def algorithm2_literal(model: QModel, problem: str, batch: GraphBatch, t_max: int = 15,
                       max_steps: int | None = None):
    """Algorithm 2 as written: ``t_max`` independent rollouts. Returns the ``t_max`` solutions."""
    return [set(torch.nonzero(greedy_rollout(model, problem, batch, T, max_steps))
                .squeeze(1).tolist()) for T in range(1, t_max + 1)]


@torch.no_grad()
def algorithm2_fast(model: QModel, problem: str, batch: GraphBatch, t_max: int = 15,
                    max_steps: int | None = None, stats: dict | None = None):
    """The same ``t_max`` solutions, computed in lock-step sharing every sparse product.

    ``stats``, if given, receives ``evolution_steps``: the number of (state, t) evolution
    steps computed, each one ``x(t), y(t)`` for all vertices.  The literal algorithm computes
    ``sum_T T |S_T|`` of them; the ratio bounds the speed-up once the arithmetic dominates.
    """
    if not model.variable_depth:
        raise ValueError("Algorithm 2 needs a variable-depth encoder")
    R = t_max
    c = torch.zeros((batch.num_nodes, R), dtype=torch.bool, device=batch.device)
    lengths = torch.arange(1, R + 1, device=batch.device)
    steps = 0
    while max_steps is None or steps < max_steps:
        steps += 1
        cand = candidate_mask(problem, batch, c)
        live = cand.any(0)
        if not bool(live.any()):
            break
        cols = torch.nonzero(live).squeeze(1)
        # rollouts in the same state share one evolution (they all start from S = {})
        uniq, inv = torch.unique(c[:, cols].T, dim=0, return_inverse=True)
        if stats is not None:
            depth = torch.zeros(len(uniq), dtype=lengths.dtype, device=lengths.device)
            depth = depth.scatter_reduce(0, inv, lengths[cols], "amax")
            stats["evolution_steps"] = stats.get("evolution_steps", 0) + int(depth.sum())
        score = _vertex_scores(model, batch, uniq.T.to(batch.adj.dtype),
                               reads=(inv, lengths[cols]))
        a = torch.argmax(score.masked_fill(~cand[:, cols], float("-inf")), dim=0)
        c[a, cols] = True
    return [set(torch.nonzero(c[:, r]).squeeze(1).tolist()) for r in range(R)]


def solve_with_model(model: QModel, problem: str, G: nx.Graph, t_max: int = 15, device="cpu",
                     fast: bool = True) -> tuple[set, dict]:
    """Apply a model to a networkx graph: Algorithm 2 (variable depth) or one greedy rollout.

    Returns the best solution (original vertex labels, checked feasible) and an info dict.
    """
    t0 = time.time()
    nodes = sorted(G.nodes)
    n, edges = edge_array(G)
    dtype = next(model.parameters()).dtype
    batch = batch_edge_arrays([(n, edges)], device=device, dtype=dtype)
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(map(tuple, edges.tolist()))
    if model.variable_depth:
        run = algorithm2_fast if fast else algorithm2_literal
        columns = run(model, problem, batch, t_max)
    else:
        columns = [set(torch.nonzero(greedy_rollout(model, problem, batch)).squeeze(1).tolist())]
    best, values = _best(problem, H, columns)
    S = {nodes[i] for i in columns[best]}
    value = check_solution(problem, G, S)
    info = {"objective": value, "best_T": best + 1 if model.variable_depth else None,
            "utility_per_T": values, "time_s": round(time.time() - t0, 4), "n": n,
            "edges": int(len(edges))}
    return S, info


def solve_g2s(problem: str, G: nx.Graph, checkpoint=None, t_max: int | None = None,
              device="cpu", encoder: str = "g2s_rnn") -> tuple[set, dict]:
    """``g2s solve --method g2s|s2v|...``: a shipped (or given) checkpoint on a user's graph.

    ``t_max`` defaults to the ``T_max`` stored in the checkpoint's model config."""
    path = Path(checkpoint) if checkpoint is not None else shipped_checkpoint(encoder, problem)
    if not path.is_file():
        raise ValueError(f"no such checkpoint: {path}")
    model, meta = load_checkpoint(path, device=device)
    trained_for = meta["train_config"]["problem"]
    if trained_for != problem:
        raise ValueError(f"checkpoint {path.name} was trained for {trained_for}, not {problem}")
    holds = meta["model_config"].get("encoder", "g2s_rnn")
    if holds != encoder:  # never label one model's answer with another's name
        raise ValueError(f"checkpoint {path.name} holds a {holds} model, not {encoder}; pass "
                         f"--method {'g2s' if holds == 'g2s_rnn' else holds}")
    t_max = default_t_max(meta) if t_max is None else t_max
    S, info = solve_with_model(model, problem, G, t_max=t_max, device=device)
    info["checkpoint"] = str(path)
    return S, info
