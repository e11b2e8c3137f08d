"""Appendix D.3's units of work on the shipped models, each cached on disk by the checkpoints'
hashes (:func:`compute`): per-layer states on the test graphs (:func:`state_unit`), Algorithm
2's per-``T`` covers (:func:`depth_unit`), per-layer Q-values at ``S = {}`` on planted-cover-15
graphs (:func:`latch_unit`), and Figure 7's example (:func:`example_unit`).

Every per-round state comes from the encoders themselves (``G2SRNNEncoder.rounds``,
``Structure2Vec.rounds``) and every rollout from :func:`g2s.algorithm2.literal.greedy_rollout`.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

import numpy as np
import torch

from reproduce.appendix_d3_parts.measures import (
    abs_cos,
    abs_spearman,
    layer_sets,
    minimum_covers,
    principal_direction,
    q_semantics,
    zero_counts,
)
from reproduce.common import Run
from reproduce.harness import settings as S

__all__ = ["NAME", "PROBLEM", "checkpoint", "load_model", "one_graph_batch", "greedy_states",
           "state_unit", "depth_unit", "latch_unit", "example_unit", "compute"]

NAME = "appendix_d3"
PROBLEM = "mvc"
VERSION = 2         # bump when a unit's computation changes (cache key)
LATCH_VERSION = 4   # the same, for the latching units only
T_MAX, REF_LAYER = S.T_MAX, S.D3_REF_LAYER

_MODELS: dict = {}

def checkpoint(kind: str, seed: int = 0) -> Path:
    """``shipped`` / ``early20k``: the ER-15 G2S-RNN seeds; ``s2v``: the ER-15 Structure2Vec
    seeds; ``planted_g2s`` / ``planted_s2v``: the models trained on planted-cover-15 graphs."""
    from g2s.nn.checkpoints import CHECKPOINT_DIR, checkpoint_path
    if kind == "s2v":
        return checkpoint_path("s2v", PROBLEM, S.ER15, seed)
    if kind in S.D3_PLANTED:
        encoder, trained_on = S.D3_PLANTED[kind]
        return checkpoint_path(encoder, PROBLEM, trained_on, seed)
    folder = S.D3_VARIANTS[kind]
    return checkpoint_path("g2s_rnn", PROBLEM, S.ER15, seed,
                           None if folder is None else CHECKPOINT_DIR / folder)

def variant_seeds(variant: str, seeds) -> list[int]:
    """The seeds measured for ``variant``: every seed for the shipped weights; for an
    early-stopped variant, the seeds whose early weights are kept (three: they are context in
    the evidence and a dashed curve, and decide no verdict)."""
    if S.D3_VARIANTS[variant] is None:
        return list(seeds)
    return [s for s in seeds if checkpoint(variant, s).exists()]


def load_model(path: Path):
    """``(model, sha)``: the checkpoint is copied first (baselines may be rewritten while we
    run), hashed, and loaded from the copy, so the hash names exactly the weights used."""
    from g2s.nn.checkpoints import load_checkpoint
    if path not in _MODELS:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / path.name
            shutil.copyfile(path, copy)
            sha = hashlib.sha256(copy.read_bytes()).hexdigest()[:16]
            model, _ = load_checkpoint(copy)
        _MODELS[path] = (model, sha)
    return _MODELS[path]

def one_graph_batch(G):
    from g2s.nn.batch import batch_edge_arrays, edge_array
    n, edges = edge_array(G)
    return batch_edge_arrays([(n, edges)], dtype=torch.float64), n, edges

def layer_states(model, batch, c, rounds: int) -> list:
    """Each round's vertex embedding at the selected set ``c``: G2S-RNN's ``y(1..rounds)``,
    Structure2Vec's ``mu^(1..rounds)`` (rounds past its trained depth run the same tied-weight
    recurrence)."""
    enc = model.encoder
    if model.variable_depth:
        return [y for _, y in enc.rounds(batch, c, rounds)]
    return list(enc.rounds(batch, c, rounds))

@torch.no_grad()
def greedy_states(model, batch, T: int) -> torch.Tensor:
    """``(N, R)`` indicators of the states ``S`` visited by the greedy policy of G2S-RNN(T).

    Deliberately not :func:`g2s.algorithm2.literal.greedy_rollout`: that rollout rounds scores to
    :data:`g2s.algorithm2.quantise.SCORE_QUANTUM` before the argmax, and on regular graphs (every
    vertex tied up to rounding noise) it visits other states than this unrounded argmax, which made
    the committed ``rollout`` curves.  Switching needs a rollout that reports the states it
    visits and a ``VERSION`` bump with regenerated data.
    """
    from g2s.rl.env import candidate_mask
    c = torch.zeros(batch.num_nodes, dtype=torch.bool)
    seen = []
    while True:
        cand = candidate_mask(PROBLEM, batch, c)
        if not bool(cand.any()):
            return torch.stack(seen, 1)
        seen.append(c.clone())
        q = model.qnet.vertex_term(model.embed(batch, c.to(torch.float64), T=T))
        c[int(torch.argmax(q.masked_fill(~cand, float("-inf"))))] = True


@torch.no_grad()
def state_unit(model, family: str, n: int, index: int) -> dict:
    """Zero dimensions and principal components of ``x(1..T_MAX)`` on one test graph."""
    from g2s.reference.certificates import instance_graph
    G = instance_graph(family, n, index)
    batch, n, _ = one_graph_batch(G)
    deg = batch.degree().numpy()
    out = {"zeros": [], "dead": [], "rollout": [], "rho_degree": []}
    pcs = []
    for x, _ in model.encoder.rounds(batch, torch.zeros(n), T_MAX):
        z, dead = zero_counts(x)
        out["zeros"].append(z)
        out["dead"].append(dead)
        pc = principal_direction(x.numpy())
        pcs.append(pc)
        out["rho_degree"].append(None if pc is None else abs_spearman(pc[1], deg))
    visited = greedy_states(model, batch, S.D3_T_ROLLOUT)
    out["rollout"] = [zero_counts(x)[0] for x, _ in model.encoder.rounds(batch, visited, T_MAX)]
    out["pca_defined"] = [pc is not None for pc in pcs]
    out["cos_next"] = [abs_cos(pcs[t], pcs[t + 1]) for t in range(T_MAX - 1)]
    out["cos_skip"] = [abs_cos(pcs[t], pcs[t + 2]) for t in range(T_MAX - 2)]
    out["cos_ref"] = [abs_cos(pc, pcs[REF_LAYER - 1]) for pc in pcs]
    return out

def depth_unit(model, family: str, n: int, index: int) -> dict:
    """Algorithm 2's cover size for each ``T = 1..T_DEPTH`` and the reference optimum."""
    from g2s.evaluate import solve_with_model
    from g2s.reference.certificates import instance_graph, reference
    G = instance_graph(family, n, index)
    _, info = solve_with_model(model, PROBLEM, G, t_max=S.D3_T_DEPTH)
    try:
        ref = reference(PROBLEM, family, n, index, solve_missing=False)  # never writes
        opt, status = ref.objective, ref.status
    except KeyError:
        opt, status = None, "none"
    return {"cover": [-u for u in info["utility_per_T"]], "opt": opt, "status": status}

@torch.no_grad()
def latch_unit(models: dict, family: str, index: int) -> dict:
    """Per-layer ``Q_2`` top-k sets and the D.3 (5) semantics of ``Q_1``, ``Q_2`` at ``S = {}``
    for every model on one size-15 graph."""
    from g2s.graphs import instance_seed, make_graph
    G = make_graph(family, S.D3_LATCH_N, seed=instance_seed(family, S.D3_LATCH_N, index))
    batch, n, edges = one_graph_batch(G)
    covers = minimum_covers(n, edges)
    k = len(next(iter(covers)))
    c = torch.zeros(n)
    out = {"k": k, "n_min_covers": len(covers), "models": {}}
    for name, model in models.items():
        ys = layer_states(model, batch, c, T_MAX)
        q = np.stack([model.qnet.vertex_term(y).numpy() for y in ys])
        if not k:
            out["models"][name] = None
            continue
        q1 = np.array([float(model.qnet.graph_term(batch, y)[0]) for y in ys])
        out["models"][name] = {**layer_sets(q, k, covers),
                               "semantics": q_semantics(q1, q, k, covers)}
    return out

@torch.no_grad()
def example_unit(model) -> dict:
    """Figure 7: PC1 scores per layer and the projection on layer 10's direction, ER n = 10."""
    from g2s.graphs import instance_seed, make_graph
    G = make_graph("er", 10, seed=instance_seed("er", 10, 0))
    batch, n, edges = one_graph_batch(G)
    pcs = [principal_direction(x.numpy())
           for x, _ in model.encoder.rounds(batch, torch.zeros(n), T_MAX)]
    ref = pcs[REF_LAYER - 1]
    scores = [None if pc is None else  # sign fixed by layer 10's direction, as in Fig. 7(b)
              (pc[1] * (1.0 if ref is None else np.sign(pc[0] @ ref[0] or 1))).tolist()
              for pc in pcs]
    return {"edges": edges.tolist(), "degree": batch.degree().tolist(), "scores": scores,
            "cos_ref": [abs_cos(pc, ref) for pc in pcs]}

def graphs_per_size(family: str, count: int) -> int:
    return 1 if family == "greedy_worst" else count   # the worst case is deterministic

def state_job(path: str, sha: str, family: str, n: int, index: int) -> dict:
    """:func:`state_unit` of the checkpoint at ``path`` (a job: runs on any worker)."""
    return state_unit(_model(path, sha), family, n, index)


def depth_job(path: str, sha: str, family: str, n: int, index: int) -> dict:
    """:func:`depth_unit` of the checkpoint at ``path`` (a job)."""
    return depth_unit(_model(path, sha), family, n, index)


def latch_job(paths: dict, shas: dict, family: str, index: int) -> dict:
    """:func:`latch_unit` of the checkpoints ``name -> path`` (a job)."""
    return latch_unit({k: _model(p, shas[k]) for k, p in paths.items()}, family, index)


def _model(path: str, sha: str):
    """The model at ``path``, refused unless its weights are those the key names."""
    model, got = load_model(Path(path))
    if got != sha:
        raise RuntimeError(f"{path} changed while the run was going (sha {got}, key {sha})")
    return model


class _Slot(int):
    """Where the value of job number ``int(self)`` goes in the raw result."""


def _fill(obj, values):
    if isinstance(obj, _Slot):
        return values[obj]
    if isinstance(obj, dict):
        return {k: _fill(v, values) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_fill(v, values) for v in obj]
    return obj


def compute(run: Run) -> dict:
    """Every unit of work (cached on disk, keyed by the checkpoints' hashes), run through
    :func:`reproduce.harness.engine.run_jobs` (``--workers``, ``--scheduler``)."""
    from reproduce.harness.engine import Job, run_jobs
    P = S.D3_PROFILES[run.args.profile]
    raw = {"states": {}, "depth": {}, "latch": {}, "checkpoints": {}}
    jobs = []

    def job(kind, key, fn, *args):
        jobs.append(Job({"name": NAME, "unit": kind, "version": VERSION, **key}, fn, args))
        return _Slot(len(jobs) - 1)

    for variant in P["variants"]:
        for seed in variant_seeds(variant, P["seeds"]):
            path = checkpoint(variant, seed)
            sha = load_model(path)[1]
            raw["checkpoints"][f"{variant}_s{seed}"] = sha
            for f in S.D3_FAMILIES:
                for n in P["sizes"]:
                    units = [job("state", {"sha": sha, "family": f, "n": n, "index": i},
                                 state_job, str(path), sha, f, n, i)
                             for i in range(graphs_per_size(f, P["count"]))]
                    raw["states"].setdefault(variant, {}).setdefault(f, {}) \
                        .setdefault(str(n), []).append(units)
            if variant == "shipped":
                for f in S.D3_FAMILIES:
                    for n in P["depth_sizes"]:
                        units = [job("depth", {"sha": sha, "family": f, "n": n, "index": i},
                                     depth_job, str(path), sha, f, n, i)
                                 for i in range(graphs_per_size(f, P["depth_count"]))]
                        raw["depth"].setdefault(f, {}).setdefault(str(n), []).append(units)
    paths = {f"g2s_s{s}": checkpoint("shipped", s) for s in P["seeds"]}
    models = {k: load_model(p) for k, p in paths.items()}
    # the latching models, every seed: ER-15 Structure2Vec and the planted-cover-15 models
    # (named kind_s<seed>; the latching summary pools them by kind and keeps each seed apart)
    for kind in ("s2v", *S.D3_PLANTED):
        for seed in P["seeds"]:
            name, path = f"{kind}_s{seed}", checkpoint(kind, seed)
            try:
                models[name] = load_model(path)
            except (OSError, RuntimeError, KeyError) as exc:  # not shipped / being retrained
                raw.setdefault("latch_missing", {})[name] = repr(exc)
                continue
            paths[name] = path
            raw["checkpoints"][name] = models[name][1]
    shas = {k: v[1] for k, v in models.items()}
    paths = {k: str(p) for k, p in paths.items()}
    for f in ("planted", "er"):
        raw["latch"][f] = [job("latch", {"shas": shas, "family": f, "index": i,
                                         "latch_version": LATCH_VERSION},
                               latch_job, paths, shas, f, i)
                           for i in range(P["latch_count"])]
    raw = _fill(raw, run_jobs(run, jobs, desc=NAME))
    raw["pca_example"] = example_unit(models["g2s_s0"][0])
    return raw
