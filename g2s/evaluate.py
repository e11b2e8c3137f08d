"""A trained model on a graph: Algorithm 2 (:mod:`g2s.algorithm2`) for G2S-RNN, one greedy
rollout for the fixed-depth baselines, the best solution checked feasible.

:func:`solve_with_model` applies a loaded model to a networkx graph (the figures, the grid,
validation); :func:`solve_g2s` is ``g2s solve --method g2s|s2v|...``: a shipped or given
checkpoint, loaded and checked (:mod:`g2s.nn.checkpoints`), on a user's graph.  A deadline
cuts the learned policy short and completes the solution with the problem's greedy rule, so a
feasible answer always comes back.
"""

from __future__ import annotations

import time
from pathlib import Path

import networkx as nx
import torch

from g2s.algorithm2.fast import SAVE_EVERY_S, algorithm2_exact
from g2s.algorithm2.literal import algorithm2_literal, greedy_rollout
from g2s.nn.batch import batch_edge_arrays, edge_array
from g2s.nn.checkpoints import check_t_max, default_t_max, load_checkpoint, shipped_checkpoint
from g2s.nn.model import QModel
from g2s.problems import check_solution, utility

__all__ = ["complete_with_heuristic", "solve_with_model", "solve_g2s"]


def _best(problem: str, G: nx.Graph, columns: list) -> tuple[int, list]:
    """Index of the best solution (ties to the smallest index) and every utility (``None`` for
    a ``None`` column: a rollout pruned because it could not win)."""
    values = [None if S is None else utility(problem, G, S) for S in columns]
    best = None
    for i, v in enumerate(values):
        if v is not None and (best is None or v > values[best]):
            best = i
    return best, values


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
                     resume=None, save_every_s: float = SAVE_EVERY_S,
                     screen: bool = False, progress=None) -> tuple[set, dict]:
    """Apply a model to a networkx graph: Algorithm 2 (variable depth) or one greedy rollout.

    Returns the best solution (original vertex labels, checked feasible) and an info dict.
    ``fast`` runs :func:`g2s.algorithm2.fast.algorithm2_exact` (the literal algorithm's solutions,
    faster), else :func:`algorithm2_literal`; ``prune``, ``deadline``, ``resume``,
    ``save_every_s``, ``screen`` (the float32 screen) and ``progress`` are passed to the fast path
    (``utility_per_T`` is ``None`` for a pruned ``T``; ``status`` is ``"time_limit"`` when the
    deadline cut the learned policy short).
    """
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
                               resume=resume, save_every_s=save_every_s, screen=screen,
                               progress=progress)
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
              deadline: float | None = None, screen: bool = False,
              progress=None) -> tuple[set, dict]:
    """``g2s solve --method g2s|s2v|...``: a shipped (or given) checkpoint on a user's graph.

    ``t_max`` defaults to the ``T_max`` stored in the checkpoint's model config; ``deadline``
    (a ``time.monotonic()`` value, from ``--time-limit``) cuts the learned policy short and
    completes the solution greedily (``status: time_limit``); ``screen`` is Algorithm 2's
    float32 screen (``--float32-screen``); ``progress(step, running)``: Algorithm 2's greedy
    steps so far (:func:`g2s.algorithm2.fast.algorithm2_exact`)."""
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
                               screen=screen, progress=progress)
    info["checkpoint"] = str(path)
    return S, info
