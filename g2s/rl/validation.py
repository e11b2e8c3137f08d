"""Validation during Q-learning (:mod:`g2s.rl.dqn`): what selects the shipped weights.

Two validation sets, both generated from seeds of their own (``instance_seed`` with a base no
evaluation graph uses), so they are disjoint from every evaluation graph of the figures:

* the **exact** set (``validation = "exact"``, the shipped recipe): ``n_validation`` graphs of
  the training family and size, solved by enumeration, and the greedy policy at ``T_train``.
  On ER-15 every G2S-RNN run reaches ratio 1.000 between iterations 1,000 and 13,000, so it
  cannot tell weights apart; it is still recorded, every ``validate_every`` iterations.
* the **Algorithm 2** set (``validation = "algorithm2"``, every other recipe): Algorithm 2
  (``T = 1..T_max``, float64, the path every figure runs) on ``validation_graphs`` graphs of the
  training family with ``validation_n`` vertices, against the best known solution of each
  (:func:`g2s.reference.best_known.best_known_solution`, computed once when the run starts and
  kept in its resume point and sidecar).  Measured on the shipped seeds, it is far from
  saturated (ER-50 mean ratios 1.03-1.14), so it can select.

A test-like diagnostic (graphs of the evaluation kind) is never used here: weights are chosen
on validation graphs only.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import networkx as nx
import numpy as np
import torch

from g2s.algorithm2.literal import greedy_rollout
from g2s.graphs import instance_seed, make_graph
from g2s.nn.batch import batch_edge_arrays, edge_array
from g2s.nn.model import QModel
from g2s.problems import approximation_ratio, objective
from g2s.reference.exact import optimum_by_enumeration
from g2s.rl.config import TrainConfig

__all__ = ["EXACT_BASE", "ALGORITHM2_BASE", "REFERENCE_SECONDS", "greedy_objectives",
           "exact_validation_set", "validate_exact", "algorithm2_validation_graphs",
           "algorithm2_validation_set", "validate_algorithm2",
           "select_default_checkpoints", "SELECTION_FILE", "validation_seeds"]

#: ``instance_seed`` bases of the two validation sets (evaluation graphs use base 0)
EXACT_BASE = 987_654
ALGORITHM2_BASE = 246_813
#: seconds of the state-of-the-art solver per Algorithm 2 validation graph (50 vertices: it
#: finds the optimum well within this; the yardstick is computed once per run)
REFERENCE_SECONDS = 0.5


@torch.no_grad()
def greedy_objectives(model: QModel, problem: str, graphs: list, T: int,
                      device="cpu") -> np.ndarray:
    """Objective of the greedy policy of ``model`` at depth ``T`` on each ``(n, edges)`` graph:
    :func:`g2s.algorithm2.literal.greedy_rollout`, the rollout Algorithm 2 runs, one graph at a
    time."""
    dtype = next(model.parameters()).dtype
    out = []
    for n, edges in graphs:
        batch = batch_edge_arrays([(n, edges)], device=device, dtype=dtype)
        S = torch.nonzero(greedy_rollout(model, problem, batch, T)).squeeze(1).tolist()
        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from(map(tuple, edges.tolist()))
        out.append(objective(problem, G, S))
    return np.asarray(out, dtype=float)


def exact_validation_set(cfg: TrainConfig):
    """The exact validation graphs (``(n, edges)``) and their enumerated optima."""
    graphs = [edge_array(make_graph(cfg.graphs, cfg.n, seed=instance_seed(
        cfg.graphs, cfg.n, i, base=EXACT_BASE))) for i in range(cfg.n_validation)]
    opt = np.array([optimum_by_enumeration(cfg.problem, n, e) for n, e in graphs], dtype=float)
    return graphs, opt


def validate_exact(model: QModel, cfg: TrainConfig, T: int, validation, device) -> float:
    """Mean approximation ratio of the greedy policy at ``T`` on the exact validation set."""
    graphs, opt = validation
    values = greedy_objectives(model, cfg.problem, graphs, T, device)
    return float(np.mean([approximation_ratio(cfg.problem, v, o) for v, o in zip(values, opt)]))


def algorithm2_validation_graphs(family: str, n: int, count: int) -> list[nx.Graph]:
    """The Algorithm 2 validation graphs of a training family (seeded, base
    :data:`ALGORITHM2_BASE`)."""
    return [make_graph(family, n, seed=instance_seed(family, n, i, base=ALGORITHM2_BASE))
            for i in range(count)]


def algorithm2_validation_set(cfg: TrainConfig, seconds: float = REFERENCE_SECONDS) -> dict:
    """The Algorithm 2 validation set of ``cfg``: its description and the best known
    objective of each graph (the yardstick, recorded so a resumed run and a reader use the
    same)."""
    from g2s.reference.best_known import best_known_solution
    graphs = algorithm2_validation_graphs(cfg.graphs, cfg.validation_n, cfg.validation_graphs)
    best = [int(best_known_solution(cfg.problem, G, time_limit=seconds, seed=0).objective)
            for G in graphs]
    return {"family": cfg.graphs, "n": cfg.validation_n, "graphs": cfg.validation_graphs,
            "base": ALGORITHM2_BASE, "best_known": best}


@torch.no_grad()
def validate_algorithm2(model: QModel, cfg: TrainConfig, t_max: int, vset: dict,
                        device="cpu") -> dict:
    """Algorithm 2 (``T = 1..t_max``, float64) of a copy of ``model`` on the validation graphs:
    the mean approximation ratio against the recorded best known, and how often each ``T`` won.
    """
    from g2s.evaluate import solve_with_model
    graphs = algorithm2_validation_graphs(vset["family"], vset["n"], vset["graphs"])
    evaluator = copy.deepcopy(model).to(torch.float64).eval()
    ratios, best_T = [], []
    for G, ref in zip(graphs, vset["best_known"]):
        _, info = solve_with_model(evaluator, cfg.problem, G, t_max=t_max, device=device)
        ratios.append(approximation_ratio(cfg.problem, info["objective"], ref))
        best_T.append(info["best_T"])
    return {"val_ratio": float(np.mean(ratios)), "best_T": best_T}


#: the record of how ``defaults.json`` was chosen (every candidate's validation score), in the
#: checkpoint folder beside it
SELECTION_FILE = "defaults_selection.json"


def select_default_checkpoints(directory=None, progress: bool = False) -> dict:
    """Write ``defaults.json``: per problem, the ER-15 G2S-RNN checkpoint ``g2s solve
    --method g2s`` uses, chosen on validation data only, across every training recipe the
    paper allows (:data:`g2s.rl.recipes.PAPER_READINGS`: the diagnostic and the untrained null
    are never candidates) and every seed.

    Every candidate is scored the same way, whatever validation selected its weights while
    it trained: Algorithm 2 (``T = 1..15``) on the Algorithm 2 validation graphs of its
    training family (:func:`g2s.rl.validation.algorithm2_validation_graphs`: 32 ER graphs of
    50 vertices, disjoint from every evaluation graph), the mean ratio to their best known
    solutions.  The smallest wins; ties go to the recipe listed first, then the smaller seed.
    ``defaults_selection.json`` records every candidate's score and the validation set."""
    from g2s.fsutil import atomic_write_text
    from g2s.nn.checkpoints import (
        CHECKPOINT_DIR,
        DEFAULTS_FILE,
        default_t_max,
        load_checkpoint,
        shipped,
        training_set,
    )
    from g2s.rl.recipes import PAPER_READINGS, SELECTION
    folder = Path(directory) if directory is not None else CHECKPOINT_DIR
    er15 = training_set("er", 15)
    candidates: dict[str, list] = {}
    for ident, path in shipped(folder).items():
        if ident.encoder == "g2s_rnn" and ident.trained_on == er15 \
                and ident.recipe in PAPER_READINGS:
            candidates.setdefault(ident.problem, []).append((ident, path))
    table, record = {}, {}
    for problem, items in sorted(candidates.items()):
        cfg = TrainConfig.from_dict({"problem": problem, "graphs": "er", "n": 15, **SELECTION})
        vset = algorithm2_validation_set(cfg)
        scores = {}
        for ident, path in items:
            model, meta = load_checkpoint(path)
            got = validate_algorithm2(model, cfg, default_t_max(meta, path), vset)
            scores[path.name] = (got["val_ratio"], PAPER_READINGS.index(ident.recipe),
                                 ident.seed)
            if progress:
                print(f"select: {path.name} {got['val_ratio']:.4f}", flush=True)
        name = min(scores, key=scores.get)
        table[problem] = name
        record[problem] = {"chosen": name, "validation_set": vset,
                           "scores": {k: round(v[0], 6) for k, v in sorted(scores.items())}}
    atomic_write_text(folder / DEFAULTS_FILE, json.dumps(table, indent=1) + "\n")
    atomic_write_text(folder / SELECTION_FILE, json.dumps(record, indent=1) + "\n")
    return table


def validation_seeds(problem: str, trained_on: str, recipe: str,
                     directory=None) -> dict | None:
    """A recipe's validation-selected training seed and its median seed, for the work too
    costly to run on every seed (a 25,000-vertex cover is hours on a CPU), chosen on
    validation data only: each shipped seed's score is the Algorithm 2 validation ratio its
    weights were selected by (its sidecar's ``best_val_ratio``; every seed of a recipe is scored
    on the same validation graphs of its training family, so the scores compare).

    ``{"selected": the seed with the lowest score (ties: the smaller seed), "median": the seed
    at the lower median of the sorted scores, "scores": {seed: score}}``; ``None`` when the
    recipe does not select on Algorithm 2 validation (``paper``'s exact validation saturates at
    1.000; ``untrained`` is not trained) or no seed of it is shipped."""
    from g2s.nn.checkpoints import read_meta, shipped
    scores = {}
    for ident, path in shipped(directory).items():
        if (ident.encoder, ident.problem, ident.trained_on, ident.recipe) != \
                ("g2s_rnn", problem, trained_on, recipe):
            continue
        meta = read_meta(path)
        if meta.get("validation") != "algorithm2" or meta.get("best_val_ratio") is None:
            return None
        scores[ident.seed] = float(meta["best_val_ratio"])
    if not scores:
        return None
    ranked = sorted(scores, key=lambda s: (scores[s], s))
    return {"selected": ranked[0], "median": ranked[(len(ranked) - 1) // 2],
            "scores": dict(sorted(scores.items()))}
