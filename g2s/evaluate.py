"""Algorithm 2 of arXiv:1802.04948 (Appendix C): the best of G2S-RNN(1), ..., G2S-RNN(T_max).

For each ``T = 1..T_max`` the greedy policy of G2S-RNN(T) (the network whose Graph2Seq sequence
is truncated to ``T``) builds a solution from ``S = {}`` by repeatedly adding the candidate
(:mod:`g2s.rl.env`) of largest ``Q``; the solution with the largest ``f`` is returned.

* :func:`algorithm2_literal` runs the ``T_max`` rollouts one after the other.
* :func:`algorithm2_fast` returns the same solutions faster: :mod:`g2s.algorithm2` evolves
  each distinct state once with this module's own float64 operations, read at every depth a
  rollout in it needs (optionally after a float32 screen), and keeps candidates incrementally
  (``tests/g2s/test_evaluate.py``; ratios in ``benchmarks/results/algorithm2.json``).

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

from g2s.checkpoints import check_t_max, default_t_max, load_checkpoint, shipped_checkpoint
from g2s.nn.batch import GraphBatch, batch_edge_arrays, edge_array
from g2s.nn.model import QModel
from g2s.problems import check_solution, utility
from g2s.rl.env import candidate_mask

__all__ = ["greedy_rollout", "algorithm2_literal", "algorithm2_fast", "complete_with_heuristic",
           "solve_with_model", "solve_g2s"]


#: scores are rounded to multiples of this before the argmax, so that float rounding noise
#: (which depends on tensor layout) cannot break exact ties differently in the two paths
SCORE_QUANTUM = 2.0 ** -30


def quantise(score: torch.Tensor) -> torch.Tensor:
    """The literal's rounded score ``round(s / q)``: its argmax (first index of the largest)
    is the greedy choice."""
    return torch.round(score / SCORE_QUANTUM)


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


def _best(problem: str, G: nx.Graph, columns: list) -> tuple[int, list]:
    """Index of the best solution (ties to the smallest index) and every utility (``None`` for
    a ``None`` column: a rollout pruned because it could not win)."""
    values = [None if S is None else utility(problem, G, S) for S in columns]
    best = None
    for i, v in enumerate(values):
        if v is not None and (best is None or v > values[best]):
            best = i
    return best, values


def algorithm2_literal(model: QModel, problem: str, batch: GraphBatch, t_max: int = 15,
                       max_steps: int | None = None, starts=None):
    """Algorithm 2 as written: ``t_max`` independent rollouts. Returns the ``t_max`` solutions.

    ``starts[T - 1]``, if given, is the partial solution rollout ``T`` starts from (benchmarks).
    """
    return [set(torch.nonzero(greedy_rollout(model, problem, batch, T, max_steps,
                                             None if starts is None else starts[T - 1]))
                .squeeze(1).tolist()) for T in range(1, t_max + 1)]


def algorithm2_fast(model: QModel, problem: str, batch: GraphBatch, t_max: int = 15,
                    max_steps: int | None = None, stats: dict | None = None):
    """The literal algorithm's ``t_max`` solutions from :func:`g2s.algorithm2.algorithm2_exact`.

    ``stats``, if given, receives its decision counters and ``evolution_steps``: the number of
    (state, t) evolution steps computed, each one ``x(t), y(t)`` for all vertices (the literal
    computes ``sum_T T |S_T|`` of them; rollouts in one state share theirs).
    """
    from g2s.algorithm2 import algorithm2_exact
    res = algorithm2_exact(model, problem, batch, t_max, max_steps=max_steps)
    if stats is not None:
        stats.update(res.stats)
        stats["evolution_steps"] = (res.stats["evolution_steps_float32"]
                                    + res.stats["evolution_steps_float64"])
    return res.solutions


def complete_with_heuristic(problem: str, G: nx.Graph, S: set) -> set:
    """A feasible solution containing the partial solution ``S`` (a rollout cut short by a
    deadline): MVC covers the uncovered edges with the greedy heuristic, MIS adds the greedy
    independent set of the vertices still free; any set is a cut, so max cut keeps ``S``."""
    from g2s.heuristics import max_independent_set_greedy, min_vertex_cover_greedy
    S = set(S)
    if problem == "mvc":
        return S | min_vertex_cover_greedy(G.subgraph(set(G) - S).copy())
    if problem == "mis":
        blocked = S | {u for v in S for u in G[v]}
        return S | max_independent_set_greedy(G.subgraph(set(G) - blocked).copy())
    return S


def solve_with_model(model: QModel, problem: str, G: nx.Graph, t_max: int = 15, device="cpu",
                     fast: bool = True, prune: bool = False, deadline: float | None = None,
                     resume=None, save_every_s: float = 300.0,
                     screen: bool = False) -> tuple[set, dict]:
    """Apply a model to a networkx graph: Algorithm 2 (variable depth) or one greedy rollout.

    Returns the best solution (original vertex labels, checked feasible) and an info dict.
    ``fast`` runs :func:`g2s.algorithm2.algorithm2_exact` (the literal algorithm's solutions,
    faster), else :func:`algorithm2_literal`; ``prune``, ``deadline``, ``resume``,
    ``save_every_s`` and ``screen`` (the float32 screen) are passed to the fast path
    (``utility_per_T`` is ``None`` for a pruned ``T``; ``status`` is ``"time_limit"`` when the
    deadline cut the learned policy short).
    """
    from g2s.algorithm2 import algorithm2_exact

    t0 = time.time()
    nodes = sorted(G.nodes)
    n, edges = edge_array(G)
    dtype = next(model.parameters()).dtype
    batch = batch_edge_arrays([(n, edges)], device=device, dtype=dtype)
    H = nx.Graph()
    H.add_nodes_from(range(n))
    H.add_edges_from(map(tuple, edges.tolist()))
    status = "complete"
    if model.variable_depth and fast:
        res = algorithm2_exact(model, problem, batch, t_max, prune=prune, deadline=deadline,
                               resume=resume, save_every_s=save_every_s, screen=screen)
        columns, status = res.solutions, res.status
    elif model.variable_depth:
        columns = algorithm2_literal(model, problem, batch, t_max)
    else:
        c = greedy_rollout(model, problem, batch, deadline=deadline)
        columns = [set(torch.nonzero(c).squeeze(1).tolist())]
        if deadline is not None and time.monotonic() > deadline:
            columns, status = [complete_with_heuristic(problem, H, columns[0])], "time_limit"
    best, values = _best(problem, H, columns)
    S = {nodes[i] for i in columns[best]}
    value = check_solution(problem, G, S)
    info = {"objective": value, "best_T": best + 1 if model.variable_depth else None,
            "utility_per_T": values, "time_s": round(time.time() - t0, 4), "n": n,
            "edges": int(len(edges)), "status": status}
    return S, info


def solve_g2s(problem: str, G: nx.Graph, checkpoint=None, t_max: int | None = None,
              device="cpu", encoder: str = "g2s_rnn",
              deadline: float | None = None, screen: bool = False) -> tuple[set, dict]:
    """``g2s solve --method g2s|s2v|...``: a shipped (or given) checkpoint on a user's graph.

    ``t_max`` defaults to the ``T_max`` stored in the checkpoint's model config; ``deadline``
    (a ``time.monotonic()`` value, from ``--time-limit``) cuts the learned policy short and
    completes the solution greedily (``status: time_limit``); ``screen`` is Algorithm 2's
    float32 screen (``--float32-screen``)."""
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
    stored = default_t_max(meta, path)  # checked even when --t-max overrides it
    t_max = stored if t_max is None else t_max
    check_t_max(t_max, G.number_of_nodes())
    S, info = solve_with_model(model, problem, G, t_max=t_max, device=device, deadline=deadline,
                               screen=screen)
    info["checkpoint"] = str(path)
    return S, info
