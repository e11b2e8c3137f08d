"""Appendix D.3 (arXiv:1802.04948, Figures 7 and 8): the trained G2S-RNN's internal dynamics.

Four checks on the shipped MVC models (trained on ER-15; three seeds, plus the early-stopped
``early20k`` weights as a variant where cheap):

1. **Dimension collapse** (D.3 (1)).  For every vertex, the number of exactly-zero coordinates
   of the Graph2Seq state ``x_v(t)`` (``t = 1..15``), at the first step (``S = {}``) and
   averaged over the states of one greedy rollout of G2S-RNN(5); also the "dead" dimensions
   that are zero on every vertex of the graph.  ``x`` is a relu output, so zeros are exact.
2. **Principal components** (D.3 (2)-(3), Figure 7).  Per graph and layer, the first principal
   direction of the centred states ``{x_v(t)}``; its alignment ``|cos|`` with the next layer's
   and with layer 10's (Figure 7(c)), and the Spearman correlation ``|rho|`` of the PC1 scores
   with vertex degree ("how well the vertex is connected").  Absolute values because a
   principal direction has no sign.  On a regular graph every vertex has the same state
   (Graph2Seq refines like Weisfeiler-Lehman and all degrees are equal), so PCA is undefined
   there: such cases are recorded as degenerate and left out of the rule.
3. **Optimal depth** (D.3 (4), Figure 8(a)).  Algorithm 2's per-``T`` greedy covers for
   ``T = 1..25`` (the paper varies the depth "up to 25") on the four test families; the curve
   is the seed-mean of the per-graph mean of ``|S_T| / OPT`` (certified references of
   :mod:`g2s.certificates`, read only; the best cover found when none is stored).
4. **Latching** (D.3 (6), Figure 8(b,c)).  At ``S = {}`` on size-15 planted-cover graphs (the
   paper's example family; ER-15 as context), the vertex term ``Q_2`` of Eq. (2) applied to
   each layer's ``y(t)``; its top-``k`` set (``k`` = MVC size, ties to the smaller index) is
   compared with every minimum cover (enumerated), and the paper's visualisation (``Q_2``
   centred per layer and thresholded at 0) gives each vertex a side per layer.  The paper's
   fixed-depth GCNN is our shipped Structure2Vec (depth 5).  Its module only returns the last
   round, so its rounds are recomputed here from the module's own parameters and checked
   against its output; Structure2Vec ties weights across rounds, so rounds 6..15 are the same
   recurrence run past the trained depth (reported, not used by the rule).

5. **Q-function semantics** (D.3 (5)).  At ``S = {}`` on the same planted-cover-15 graphs, the
   graph term ``Q_1`` and vertex term ``Q_2`` of Eq. (2) per layer, against the paper's
   reading: ``Q_1 = -(MVC) - 1`` and ``Q_2(v)`` the 0/1 indicator of an optimal cover.

The paper's D.3 (5)-(6) models were trained on planted-cover graphs.  When the planted-cover-15
checkpoints (``g2s_rnn_mvc_planted15_s0``, ``s2v_mvc_planted15_s0``) are shipped, checks 4 and 5
use them and report the ER-15 models as context; otherwise check 4 uses the ER-15 models and
check 5 is pending.  Each verdict's rule is in :func:`derive_verdicts`.

Usage: ``python reproduce/appendix_d3.py [--profile smoke|ci|paper] [--out DIR]``.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import torch

from reproduce.common import Run, make_parser, use_agg_backend, verdict

NAME = "appendix_d3"
PROBLEM = "mvc"
FAMILIES = ("er", "regular", "bipartite", "greedy_worst")
T_MAX = 15          # layers observed (Algorithm 2's T_max)
T_DEPTH = 25        # Figure 8(a): "as we vary the number of layers up to 25"
T_ROLLOUT = 5       # the rollout whose states are also inspected: G2S-RNN(T_train)
REF_LAYER = 10      # Figure 7(c): projection on the principal direction of layer 10
PAPER_DEPTH_N = 50  # D.3 (4): "the four graph types being tested (with size 50)"
LATCH_N = 15        # D.3 (5)-(6): "planted vertex cover graph of size 15"
SEEDS = (0, 1, 2)
PROFILES = {
    "smoke": {"sizes": (25,), "count": 1, "seeds": (0,), "variants": ("shipped",),
              "depth_sizes": (25,), "depth_count": 1, "latch_count": 2},
    "ci": {"sizes": (25, 50, 100, 200), "count": 3, "seeds": SEEDS,
           "variants": ("shipped", "early20k"), "depth_sizes": (50,), "depth_count": 5,
           "latch_count": 30},
    "paper": {"sizes": (25, 50, 100, 200, 400), "count": 5, "seeds": SEEDS,
              "variants": ("shipped", "early20k"), "depth_sizes": (25, 50, 100),
              "depth_count": 5, "latch_count": 30},
}
VERSION = 2         # bump when a unit's computation changes (cache key)
LATCH_VERSION = 4   # the same, for the latching units only
#: model name -> checkpoint of the models trained on planted-cover-15 graphs (D.3 (5)-(6))
PLANTED = {"planted_g2s": "g2s_rnn_mvc_planted15_s0.pt",
           "planted_s2v": "s2v_mvc_planted15_s0.pt"}
#: D.3 (5) tolerances: Q_1 within this of -(MVC) - 1, and Q_2 within this of a cover's 0/1
Q1_TOL = 0.5
Q2_TOL = 0.25


# ----------------------------------------------------------------------------- models
_MODELS: dict = {}


def checkpoint(kind: str, seed: int = 0) -> Path:
    """``shipped`` / ``early20k``: the ER-15 G2S-RNN seeds; ``s2v``: ER-15 Structure2Vec;
    ``planted_g2s`` / ``planted_s2v``: the models trained on planted-cover-15 graphs."""
    from g2s.evaluate import CHECKPOINT_DIR
    if kind == "s2v":
        return CHECKPOINT_DIR / "s2v_mvc_er15_s0.pt"
    if kind in PLANTED:
        return CHECKPOINT_DIR / PLANTED[kind]
    folder = CHECKPOINT_DIR / "early20k" if kind == "early20k" else CHECKPOINT_DIR
    return folder / f"g2s_rnn_mvc_er15_s{seed}.pt"


def load_model(path: Path):
    """``(model, sha)``: the checkpoint is copied first (baselines may be rewritten while we
    run), hashed, and loaded from the copy, so the hash names exactly the weights used."""
    from g2s.evaluate import load_checkpoint
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


@torch.no_grad()
def g2s_states(model, batch, c, t_max: int):
    """Yield ``(x(t), y(t))`` for ``t = 1..t_max``: G2SRNNEncoder's loop, one layer at a time."""
    enc = model.encoder
    c = c.to(torch.float64)
    y = torch.zeros(tuple(c.shape) + (enc.dim,), dtype=torch.float64)
    nbr = torch.zeros_like(y)
    for _ in range(t_max):
        x = enc.graph2seq(nbr, c)
        nbr = batch.neighbour_sum(x)
        y = enc.seq2vec(batch, x, nbr, y, c)
        yield x, y


@torch.no_grad()
def s2v_rounds(model, batch, c, rounds: int) -> list:
    """Structure2Vec's ``mu^(1..rounds)`` from the module's parameters (its Eq. (3))."""
    enc = model.encoder
    x = c.to(torch.float64).unsqueeze(-1)
    base = x * enc.theta1 + batch.degree().unsqueeze(-1) * enc.theta3(torch.relu(enc.theta4))
    mu = [torch.relu(base)]
    for _ in range(rounds - 1):
        mu.append(torch.relu(base + enc.theta2(batch.neighbour_sum(mu[-1]))))
    if not torch.allclose(mu[enc.depth - 1], enc(batch, c.to(torch.float64)), atol=1e-10):
        raise RuntimeError("recomputed Structure2Vec rounds disagree with the module")
    return mu


# ----------------------------------------------------------------------------- measures
def zero_counts(x: torch.Tensor) -> tuple[float, int]:
    """``(mean over vertices of #exactly-zero coordinates, #coordinates zero on every vertex)``
    for states ``x`` of shape ``(n, ..., d)``."""
    z = x == 0
    return float(z.sum(-1).double().mean()), int(z.reshape(-1, x.shape[-1]).all(0).sum())


def principal_direction(X: np.ndarray, rel_tol: float = 1e-10):
    """First principal direction and scores of the rows of ``X`` (``None`` when the centred
    states have (numerically) no variance, e.g. every vertex of a regular graph)."""
    C = X - X.mean(0)
    if (C ** 2).sum() <= rel_tol * (1.0 + (X ** 2).sum()):
        return None
    _, _, vt = np.linalg.svd(C, full_matrices=False)
    return vt[0], C @ vt[0]


def abs_cos(a, b):
    return None if a is None or b is None else float(abs(a[0] @ b[0]))


def abs_spearman(a: np.ndarray, b: np.ndarray):
    """``|Spearman rho|`` (``None`` when either side is constant)."""
    from scipy.stats import spearmanr
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    return float(abs(spearmanr(a, b).statistic))


def minimum_covers(n: int, edges: np.ndarray) -> list[frozenset]:
    """Every minimum vertex cover of a small graph (enumeration over bitmasks, ``n <= 20``)."""
    masks = np.arange(1 << n, dtype=np.int64)
    ok = np.ones(masks.size, dtype=bool)
    for u, v in edges:
        ok &= (((masks >> u) | (masks >> v)) & 1).astype(bool)
    sizes = sum((masks >> i) & 1 for i in range(n))
    best = sizes[ok].min()
    return [frozenset(i for i in range(n) if m >> i & 1) for m in masks[ok & (sizes == best)]]


def q_semantics(q1: np.ndarray, q2: np.ndarray, k: int, covers: list[frozenset]) -> dict:
    """D.3 (5) per layer (``q1``: ``(L,)``, ``q2``: ``(L, n)``).  With ``u(v) = 1`` when ``v`` is
    in some minimum cover ("part of an optimum vertex cover"; the optimal ``Q*(S = {}, v)`` is
    ``u(v) - k - 1``): the paper's split, ``|Q_1 + k + 1|`` and ``max |Q_2 - u|``; the same
    after moving the integer ``s = round(mean(Q_2 - u))`` from ``Q_2`` to ``Q_1`` (the split
    of ``Q`` into its two terms is not fixed by the returns); the total ``max |Q - Q*|``; and
    the distance of ``Q_1``, ``Q_2`` to the nearest integers."""
    u = np.zeros(q2.shape[1])
    for C in covers:
        u[list(C)] = 1.0
    shift = np.round((q2 - u).mean(1))
    int_err = np.maximum(np.abs(q1 - np.round(q1)), np.abs(q2 - np.round(q2)).max(1))

    def r(a):
        return np.asarray(a, dtype=float).round(6).tolist()
    return {"q1": r(q1), "q1_err": r(np.abs(q1 + k + 1)), "q2_err": r(np.abs(q2 - u).max(1)),
            "shift": r(shift), "q1_err_shifted": r(np.abs(q1 + k + 1 + shift)),
            "q2_err_shifted": r(np.abs(q2 - u - shift[:, None]).max(1)),
            "q_err": r(np.abs(q1[:, None] + q2 - (u - k - 1)).max(1)), "int_err": r(int_err)}


def layer_sets(q: np.ndarray, k: int, covers: list[frozenset]) -> dict:
    """Per layer (rows of ``q``): top-``k`` set, its best overlap with a minimum cover, whether
    it is one, and the paper's side of each vertex (``Q_2`` above its layer mean)."""
    tops = [frozenset(np.argsort(-row, kind="stable")[:k].tolist()) for row in q]
    side = q > q.mean(1, keepdims=True)
    return {"top": [sorted(s) for s in tops],
            "overlap": [max(len(s & C) for C in covers) / k for s in tops],
            "is_min_cover": [s in covers for s in tops],
            "flip": [float((side[t] != side[t + 1]).mean()) for t in range(len(q) - 1)],
            "change": [len(tops[t] ^ tops[t + 1]) / (2 * k) for t in range(len(q) - 1)],
            "centred": (q - q.mean(1, keepdims=True)).round(6).tolist()}


# ----------------------------------------------------------------------------- units
@torch.no_grad()
def greedy_states(model, batch, T: int) -> torch.Tensor:
    """``(N, R)`` indicators of the states ``S`` visited by the greedy policy of G2S-RNN(T)."""
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
    from g2s.certificates import instance_graph
    G = instance_graph(family, n, index)
    batch, n, _ = one_graph_batch(G)
    deg = batch.degree().numpy()
    out = {"zeros": [], "dead": [], "rollout": [], "rho_degree": []}
    pcs = []
    for t, (x, y) in enumerate(g2s_states(model, batch, torch.zeros(n), T_MAX), start=1):
        z, dead = zero_counts(x)
        out["zeros"].append(z)
        out["dead"].append(dead)
        pc = principal_direction(x.numpy())
        pcs.append(pc)
        out["rho_degree"].append(None if pc is None else abs_spearman(pc[1], deg))
        if t == T_MAX:
            check = model.embed(batch, torch.zeros(n, dtype=torch.float64), T=T_MAX)
            if not torch.allclose(y, check, atol=1e-10):
                raise RuntimeError("layer-wise Graph2Seq trace disagrees with the encoder")
    out["rollout"] = [zero_counts(x)[0] for x, _ in
                      g2s_states(model, batch, greedy_states(model, batch, T_ROLLOUT), T_MAX)]
    out["pca_defined"] = [pc is not None for pc in pcs]
    out["cos_next"] = [abs_cos(pcs[t], pcs[t + 1]) for t in range(T_MAX - 1)]
    out["cos_skip"] = [abs_cos(pcs[t], pcs[t + 2]) for t in range(T_MAX - 2)]
    out["cos_ref"] = [abs_cos(pc, pcs[REF_LAYER - 1]) for pc in pcs]
    return out


def depth_unit(model, family: str, n: int, index: int) -> dict:
    """Algorithm 2's cover size for each ``T = 1..T_DEPTH`` and the reference optimum."""
    from g2s.certificates import instance_graph, reference
    from g2s.evaluate import solve_with_model
    G = instance_graph(family, n, index)
    _, info = solve_with_model(model, PROBLEM, G, t_max=T_DEPTH)
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
    G = make_graph(family, LATCH_N, seed=instance_seed(family, LATCH_N, index))
    batch, n, edges = one_graph_batch(G)
    covers = minimum_covers(n, edges)
    k = len(next(iter(covers)))
    c = torch.zeros(n)
    out = {"k": k, "n_min_covers": len(covers), "models": {}}
    for name, model in models.items():
        if name.endswith("s2v"):
            ys = s2v_rounds(model, batch, c, T_MAX)
        else:
            ys = [y for _, y in g2s_states(model, batch, c, T_MAX)]
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
    pcs = [principal_direction(x.numpy()) for x, _ in g2s_states(model, batch, torch.zeros(n),
                                                                   T_MAX)]
    ref = pcs[REF_LAYER - 1]
    scores = [None if pc is None else  # sign fixed by layer 10's direction, as in Fig. 7(b)
              (pc[1] * (1.0 if ref is None else np.sign(pc[0] @ ref[0] or 1))).tolist()
              for pc in pcs]
    return {"edges": edges.tolist(), "degree": batch.degree().tolist(), "scores": scores,
            "cos_ref": [abs_cos(pc, ref) for pc in pcs]}


def graphs_per_size(family: str, count: int) -> int:
    return 1 if family == "greedy_worst" else count   # the worst case is deterministic


def compute(run: Run) -> dict:
    """Every unit of work (cached on disk, keyed by the checkpoints' hashes)."""
    P = PROFILES[run.args.profile]
    raw = {"states": {}, "depth": {}, "latch": {}, "checkpoints": {}}

    def cached(kind, key, fn):
        return run.cache.get_or_compute({"name": NAME, "unit": kind, "version": VERSION, **key},
                                        fn)

    for variant in P["variants"]:
        for seed in P["seeds"]:
            model, sha = load_model(checkpoint(variant, seed))
            raw["checkpoints"][f"{variant}_s{seed}"] = sha
            for f in FAMILIES:
                for n in P["sizes"]:
                    units = [cached("state", {"sha": sha, "family": f, "n": n, "index": i},
                                    lambda m=model, f=f, n=n, i=i: state_unit(m, f, n, i))
                             for i in range(graphs_per_size(f, P["count"]))]
                    raw["states"].setdefault(variant, {}).setdefault(f, {}) \
                        .setdefault(str(n), []).append(units)
            if variant == "shipped":
                for f in FAMILIES:
                    for n in P["depth_sizes"]:
                        units = [cached("depth", {"sha": sha, "family": f, "n": n, "index": i},
                                        lambda m=model, f=f, n=n, i=i: depth_unit(m, f, n, i))
                                 for i in range(graphs_per_size(f, P["depth_count"]))]
                        raw["depth"].setdefault(f, {}).setdefault(str(n), []).append(units)
        print(f"  {variant}: states done")
    models = {f"g2s_s{s}": load_model(checkpoint("shipped", s)) for s in P["seeds"]}
    try:
        models["s2v"] = load_model(checkpoint("s2v"))
        raw["checkpoints"]["s2v"] = models["s2v"][1]
    except (OSError, RuntimeError, KeyError) as exc:  # being retrained: compare without it
        raw["s2v_error"] = repr(exc)
    for name in PLANTED:
        if checkpoint(name).exists():
            models[name] = load_model(checkpoint(name))
            raw["checkpoints"][name] = models[name][1]
    shas = {k: v[1] for k, v in models.items()}
    for f in ("planted", "er"):
        raw["latch"][f] = [cached("latch", {"shas": shas, "family": f, "index": i,
                                            "latch_version": LATCH_VERSION},
                                  lambda f=f, i=i: latch_unit({k: v[0] for k, v in
                                                               models.items()}, f, i))
                           for i in range(P["latch_count"])]
    raw["pca_example"] = example_unit(models["g2s_s0"][0])
    return raw


# ----------------------------------------------------------------------------- summaries
def _mean(rows):
    """Element-wise mean of equal-length lists."""
    return np.asarray(rows, dtype=float).mean(0).tolist()


def _median(rows):
    """Element-wise median of lists with ``None`` holes (``None`` where a column is empty)."""
    cols = zip(*rows)
    return [float(np.median(v)) if (v := [x for x in col if x is not None]) else None
            for col in cols]


def summarise(raw: dict, profile: str) -> dict:
    collapse, pca, depth, latch = {}, {}, {}, {}
    for variant, fams in raw["states"].items():
        for f, by_n in fams.items():
            for n, per_seed in by_n.items():
                seed_means = {k: [_mean([u[k] for u in units]) for units in per_seed]
                              for k in ("zeros", "dead", "rollout")}
                collapse.setdefault(variant, {}).setdefault(f, {})[n] = {
                    "zeros": _mean(seed_means["zeros"]), "zeros_per_seed": seed_means["zeros"],
                    "dead": _mean(seed_means["dead"]), "rollout": _mean(seed_means["rollout"])}
                cases = [u for units in per_seed for u in units]
                pca.setdefault(variant, {}).setdefault(f, {})[n] = {
                    "cases": len(cases),
                    "undefined_at_ref": sum(not u["pca_defined"][REF_LAYER - 1] for u in cases),
                    "cos_next": _median([u["cos_next"] for u in cases]),
                    "cos_skip": _median([u["cos_skip"] for u in cases]),
                    "cos_ref": _median([u["cos_ref"] for u in cases]),
                    "rho_degree": _median([u["rho_degree"] for u in cases])}
    for f, by_n in raw["depth"].items():
        for n, per_seed in by_n.items():
            found = [min(min(u["cover"]) for u in (units[i] for units in per_seed))
                     for i in range(len(per_seed[0]))]
            refs = [u["opt"] if u["opt"] is not None else found[i]
                    for i, u in enumerate(per_seed[0])]
            ratios = [_mean([np.asarray(u["cover"]) / refs[i] for i, u in enumerate(units)])
                      for units in per_seed]
            curve = _mean(ratios)
            depth.setdefault(f, {})[n] = {
                "ratio": curve, "ratio_per_seed": ratios, "best_T": best_layers(curve),
                "per_seed_best_T": [best_layers(r) for r in ratios],
                "reference": [u["status"] for u in per_seed[0]]}
    for f, units in raw["latch"].items():
        latch[f] = {"cases": len(units), "k": [u["k"] for u in units],
                    "n_min_covers": [u["n_min_covers"] for u in units]}
        names = sorted({m for u in units for m, v in u["models"].items() if v is not None})
        for kind in LATCH_KINDS:
            pairs = [(u["models"][m], u["n_min_covers"] == 1) for u in units for m in names
                     if m.startswith(kind) and u["models"][m] is not None]
            latch[f][kind] = latch_summary(*map(list, zip(*pairs))) if pairs else None
    ex = raw["latch"]["planted"][0]
    example = {"k": ex["k"], **{m: v["centred"] for m, v in ex["models"].items()
                                if m in ("g2s_s0", "s2v", *PLANTED) and v is not None}}
    return {"profile": profile, "layers": list(range(1, T_MAX + 1)), "ref_layer": REF_LAYER,
            "paper_depth_n": PAPER_DEPTH_N, "collapse": collapse, "pca": pca, "depth": depth,
            "latching": latch, "pca_example": raw["pca_example"], "latch_example": example,
            "checkpoints": raw["checkpoints"], "s2v_error": raw.get("s2v_error"),
            "s2v_trained_depth": 5}


def best_layers(curve) -> list[int]:
    """Every ``T`` whose mean ratio equals the minimum (exact ties up to 1e-9)."""
    lo = min(curve)
    return [t for t, r in enumerate(curve, start=1) if r <= lo + 1e-9]


#: model-name prefixes pooled by the latching summary: ER-15 G2S-RNN seeds, ER-15
#: Structure2Vec, and the planted-cover-15 models
LATCH_KINDS = ("g2s", "s2v", *PLANTED)
#: their colours in the latching panels
LATCH_COLOURS = dict(zip(LATCH_KINDS, ("C0", "C3", "C2", "C1")))


def semantics_summary(sems: list[dict]) -> dict:
    """Per layer, over graphs: the fraction where D.3 (5) holds as written (``Q_1`` within
    ``Q1_TOL`` of ``-k - 1`` and ``Q_2`` within ``Q2_TOL`` of ``u``), where it holds after the
    integer shift ``s`` between the terms, where the total ``Q`` is within ``Q1_TOL`` of
    ``Q*``; and the median of each measure (see :func:`q_semantics`)."""
    keys = ("q1", "q1_err", "q2_err", "shift", "q1_err_shifted", "q2_err_shifted", "q_err",
            "int_err")
    a = {key: np.asarray([s[key] for s in sems]) for key in keys}
    return {"holds": ((a["q1_err"] <= Q1_TOL) & (a["q2_err"] <= Q2_TOL)).mean(0).tolist(),
            "holds_shifted": ((a["q1_err_shifted"] <= Q1_TOL)
                              & (a["q2_err_shifted"] <= Q2_TOL)).mean(0).tolist(),
            "q_holds": (a["q_err"] <= Q1_TOL).mean(0).tolist(),
            **{f"median_{key}": np.median(v, 0).tolist() for key, v in a.items()},
            "cases": len(sems)}


def latch_summary(sets: list[dict], unique: list[bool] | None = None) -> dict:
    """Pooled per-layer statistics of :func:`layer_sets` outputs (one per graph and model).

    ``stable``: the top-k set is the same at every layer ``REF_LAYER..T_MAX``; ``latched``:
    stable and that set is a minimum cover; ``flip_early``: mean fraction of vertices changing
    side between consecutive layers ``1 -> 2 .. 4 -> 5`` (Structure2Vec's trained depth 5).
    ``unique`` flags the cases whose graph has a single minimum cover (as the paper's example
    does; with several, even the optimal Q-function leaves the top-k set open): the latched
    fraction and the T = 5 cover fraction are also given over those.
    """
    tail = slice(REF_LAYER - 1, T_MAX)
    stable = [len({tuple(s) for s in d["top"][tail]}) == 1 for d in sets]
    latched = [s and d["is_min_cover"][-1] for s, d in zip(stable, sets)]
    only = [i for i, u in enumerate(unique or []) if u]
    return {"overlap": _mean([d["overlap"] for d in sets]),
            "is_min_cover": _mean([d["is_min_cover"] for d in sets]),
            "flip": _mean([d["flip"] for d in sets]), "change": _mean([d["change"] for d in sets]),
            "stable_fraction": float(np.mean(stable)),
            "latched_fraction": float(np.mean(latched)),
            "unique_cases": len(only),
            "latched_fraction_unique": float(np.mean([latched[i] for i in only]))
            if only else None,
            "cover_t5_unique": float(np.mean([sets[i]["is_min_cover"][T_ROLLOUT - 1]
                                              for i in only])) if only else None,
            "flip_early": float(np.mean([np.mean(d["flip"][:4]) for d in sets])),
            "cases": len(sets),
            "semantics": semantics_summary([d["semantics"] for d in sets])
            if all("semantics" in d for d in sets) else None}


# ----------------------------------------------------------------------------- verdicts
def _r(x, nd=3):
    return None if x is None else round(float(x), nd)


def collapse_verdict(result: dict) -> dict:
    """Rule: a (family, size) cell of the shipped seeds holds when the seed-mean number of zero
    coordinates per vertex exceeds 8 at every layer 5..10 ("after 4 or 5 layers", through the
    paper's observed depth 10).  Confirmed: every cell; refuted: none; qualified: some."""
    col = result["collapse"]["shipped"]
    cells = {(f, n): v["zeros"] for f in col for n, v in col[f].items()}
    holds = {c: min(z[4:10]) > 8 for c, z in cells.items()}
    worst = min(sorted(cells, key=lambda c: (c[0], int(c[1]))), key=lambda c: min(cells[c][4:10]))
    kind = "confirmed" if all(holds.values()) else "qualified" if any(holds.values()) \
        else "refuted"
    early = result["collapse"].get("early20k")
    per_family = ", ".join(f"{f} {np.mean([v['zeros'][4] for v in col[f].values()]):.1f}"
                           for f in col)
    return verdict(
        kind, zeros_t1_6=", ".join(f"{np.mean([z[t] for z in cells.values()]):.1f}"
                                   for t in range(6)),
        zeros_t4=_r(np.mean([z[3] for z in cells.values()]), 2),
        zeros_t5=_r(np.mean([z[4] for z in cells.values()]), 2), per_family_t5=per_family,
        min_t5_10=_r(min(cells[worst][4:10]), 2), worst_cell=f"{worst[0]} n={worst[1]}",
        cells_holding=f"{sum(holds.values())} of {len(holds)}",
        dead_t5=_r(np.mean([v["dead"][4] for f in col for v in col[f].values()]), 2),
        rollout_t5=_r(np.mean([v["rollout"][4] for f in col for v in col[f].values()]), 2),
        early20k_t5=None if early is None else
        _r(np.mean([v["zeros"][4] for f in early for v in early[f].values()]), 2),
        max_n=max(int(n) for _, n in cells), profile=result["profile"])


def _family_median(values: dict, family: str) -> float:
    got = [v for (f, _), v in values.items() if f == family and v is not None]
    return float(np.median(got)) if got else float("nan")


def pca_verdict(result: dict) -> dict:
    """Rule, on the shipped seeds' (family, size) cells where PCA is defined at layer 10 for
    at least half the graphs: *aligned* when the median ``|cos|`` between the first principal
    directions of consecutive layers is >= 0.99 for every pair 5->6 .. 14->15; *correlated*
    when the median ``|Spearman rho|`` of layer-10 PC1 scores with degree is >= 0.5.
    Confirmed: every cell both; refuted: no cell aligned or no cell correlated; qualified:
    otherwise; not-reproduced when no cell is defined.  Context only: ``min_cos_skip``
    (layers ``t`` and ``t + 2``, 5..15: is a failure a period-2 oscillation?) and
    ``example_min_cos_ref`` (Figure 7(c)'s measure on its 10-vertex ER example)."""
    pca = result["pca"]["shipped"]
    cells = {(f, n): v for f in pca for n, v in pca[f].items()
             if v["undefined_at_ref"] * 2 <= v["cases"]}
    degenerate = sorted({f for f in pca for v in pca[f].values()} -
                        {f for f, _ in cells})
    if not cells:
        return verdict("not-reproduced", degenerate=", ".join(degenerate) or "none",
                       profile=result["profile"])
    tail = {c: v["cos_next"][4:T_MAX - 1] for c, v in cells.items()}
    aligned = {c: all(x is not None and x >= 0.99 for x in t) for c, t in tail.items()}
    rho = {c: v["rho_degree"][REF_LAYER - 1] for c, v in cells.items()}
    corr = {c: r is not None and r >= 0.5 for c, r in rho.items()}
    if all(aligned.values()) and all(corr.values()):
        kind = "confirmed"
    elif not any(aligned.values()) or not any(corr.values()):
        kind = "refuted"
    else:
        kind = "qualified"
    fams = sorted({f for f, _ in cells})
    return verdict(
        kind, cells_aligned=f"{sum(aligned.values())} of {len(cells)}",
        cells_correlated=f"{sum(corr.values())} of {len(cells)}",
        min_cos_next=_r(min((x for t in tail.values() for x in t if x is not None),
                            default=None)),
        rho_t10=", ".join(f"{f} {_family_median(rho, f):.2f}" for f in fams),
        min_cos_skip=_r(min((x for v in cells.values() for x in v["cos_skip"][4:T_MAX - 2]
                             if x is not None), default=None)),
        example_min_cos_ref=_r(min(x for x in result["pca_example"]["cos_ref"] if x is not None)),
        degenerate=", ".join(degenerate) or "none", profile=result["profile"])


def depth_verdict(result: dict) -> dict:
    """Rule, at size 50 (the paper's; the smallest size run when 50 is absent), on the
    seed-mean ratio-vs-T curve: the best depth of a family is the smallest ``T`` attaining
    the curve's minimum (Algorithm 2's tie rule; every tying ``T`` is reported).  Confirmed:
    bipartite and regular best in {4, 5} and greedy worst case best = 15; qualified: not that,
    but the worst case needs more layers than both; refuted otherwise."""
    dep = result["depth"]
    sizes = sorted({int(n) for f in dep for n in dep[f]})
    n = str(PAPER_DEPTH_N if PAPER_DEPTH_N in sizes else sizes[0])
    best = {f: dep[f][n]["best_T"] for f in dep}
    mb = {f: min(b) for f, b in best.items()}
    exact = mb["bipartite"] in (4, 5) and mb["regular"] in (4, 5) and mb["greedy_worst"] == 15
    later = mb["greedy_worst"] > max(mb["bipartite"], mb["regular"])
    kind = "confirmed" if exact else "qualified" if later else "refuted"

    def fmt(ts):
        return ",".join(map(str, ts)) if len(ts) <= 6 else f"{len(ts)} values {ts[0]}..{ts[-1]}"
    return verdict(
        kind, n=int(n), **{f"best_{f}": mb[f] for f in mb},
        **{f"ties_{f}": fmt(best[f]) for f in best},
        **{f"ratio_{f}": _r(min(dep[f][n]["ratio"])) for f in dep},
        **{f"ratio_t1_{f}": _r(dep[f][n]["ratio"][0]) for f in dep},
        per_seed=", ".join(f"{f} " + "/".join(str(min(b)) for b in dep[f][n]["per_seed_best_T"])
                           for f in dep), profile=result["profile"])


def latching_verdict(result: dict) -> dict:
    """Rule, on the size-15 planted-cover graphs at ``S = {}``, with the models trained on
    planted-cover-15 graphs (the paper's setup) where shipped, else the ER-15 ones (``basis``):
    G2S-RNN *latches* when, for at least 80% of (graph, seed) cases, its top-k set of per-layer
    ``Q_2`` is the same at every layer 10..15 and is a minimum vertex cover; the fixed-depth
    GCNN (Structure2Vec) *oscillates* when on average at least half the vertices change side
    (``Q_2`` above or below its layer mean, the paper's visualisation) between consecutive
    rounds 1..5.  Confirmed: both; refuted: neither; qualified: one (or G2S-RNN latches and no
    GCNN ran).  The other basis is reported as context."""
    lat = result["latching"]["planted"]
    planted = lat.get("planted_g2s") is not None
    gcnn_planted = planted and lat.get("planted_s2v") is not None
    g = lat["planted_g2s"] if planted else lat["g2s"]
    s = lat["planted_s2v"] if gcnn_planted else lat["s2v"]
    g_ok = g["latched_fraction"] >= 0.8
    s_ok = s is not None and s["flip_early"] >= 0.5
    kind = "confirmed" if g_ok and s_ok else "qualified" if g_ok or s_ok else "refuted"
    er = result["latching"].get("er", {}).get("g2s")
    return verdict(
        kind, basis="planted-trained" if planted else "ER-trained",
        gcnn="none" if s is None else "planted-trained" if gcnn_planted else "ER-trained",
        g2s_latched=_r(g["latched_fraction"], 2), g2s_stable=_r(g["stable_fraction"], 2),
        g2s_cover_t15=_r(g["is_min_cover"][-1], 2), g2s_cover_t5=_r(g["is_min_cover"][4], 2),
        g2s_cover_best=_r(max(g["is_min_cover"]), 2), g2s_overlap_t15=_r(g["overlap"][-1]),
        g2s_flip_early=_r(np.mean(g["flip"][:4])), g2s_flip_tail=_r(np.mean(g["flip"][9:])),
        s2v_flip_early=None if s is None else _r(s["flip_early"]),
        s2v_cover_t5=None if s is None else _r(s["is_min_cover"][4], 2),
        s2v_overlap_t5=None if s is None else _r(s["overlap"][4]),
        s2v_stable_ext=None if s is None else _r(s["stable_fraction"], 2),
        g2s_latched_unique=_r(g.get("latched_fraction_unique"), 2),
        g2s_cover_t5_unique=_r(g.get("cover_t5_unique"), 2),
        s2v_latched_unique=None if s is None else _r(s.get("latched_fraction_unique"), 2),
        unique_graphs=g.get("unique_cases"),
        er_trained_g2s_latched=_r(lat["g2s"]["latched_fraction"], 2),
        er_trained_s2v_flip_early=None if lat["s2v"] is None else _r(lat["s2v"]["flip_early"]),
        er_g2s_latched=None if er is None else _r(er["latched_fraction"], 2),
        graphs=lat["cases"], cases=g["cases"], profile=result["profile"])


def semantics_verdict(result: dict) -> dict:
    """Rule for D.3 (5), on the planted-cover-15-trained G2S-RNN at ``S = {}`` on size-15
    planted-cover graphs, at its training depth ``T = 5`` (``T_ROLLOUT``; the depth whose
    Q-values Q-learning fitted).  On a graph the claim *holds as written* when ``Q_1`` is within
    ``Q1_TOL`` of ``-(MVC) - 1`` and every ``Q_2(v)`` within ``Q2_TOL`` of ``u(v)`` (1 when
    ``v`` is in some minimum cover, else 0); it *holds up to the split* when that is so after
    moving an integer between the two terms (:func:`q_semantics`).  Confirmed: holds as written
    on >= 80% of graphs; refuted: holds up to the split on <= 20%; qualified otherwise.
    Context: every layer, the total ``Q`` against the optimal ``Q*``, the ER-trained seeds.

    (Revised once, after the first measurement: it compared ``Q_2`` with one minimum cover's
    indicator, which no Q-function can match on graphs with several minimum covers, since
    ``Q*(S = {}, v)`` only says whether ``v`` is in *some* minimum cover.)"""
    lat = result["latching"]["planted"]
    sem = (lat.get("planted_g2s") or {}).get("semantics")
    er = (lat.get("g2s") or {}).get("semantics")
    t = T_ROLLOUT - 1
    base = dict(layer=T_ROLLOUT, q1_tol=Q1_TOL, q2_tol=Q2_TOL, profile=result["profile"],
                er_trained_holds=None if er is None else _r(er["holds"][t], 2),
                er_trained_holds_shifted=None if er is None else _r(er["holds_shifted"][t], 2),
                er_trained_q_holds=None if er is None else _r(er["q_holds"][t], 2))
    if sem is None:
        return verdict("pending", **base)
    literal, shifted = sem["holds"][t], sem["holds_shifted"][t]
    kind = "confirmed" if literal >= 0.8 else "refuted" if shifted <= 0.2 else "qualified"
    return verdict(
        kind, **base, holds=_r(literal, 2), holds_shifted=_r(shifted, 2),
        q_holds=_r(sem["q_holds"][t], 2), median_shift=_r(sem["median_shift"][t], 2),
        median_q1=_r(sem["median_q1"][t]), median_q1_err=_r(sem["median_q1_err"][t]),
        median_q2_err=_r(sem["median_q2_err"][t]),
        median_q_err=_r(sem["median_q_err"][t]), median_int_err=_r(sem["median_int_err"][t]),
        holds_shifted_layers=", ".join(f"{x:.1f}" for x in sem["holds_shifted"]),
        graphs=sem["cases"])


def derive_verdicts(result: dict) -> dict:
    """Verdicts of the Appendix D.3 claims, from the JSON alone (rules in each helper)."""
    return {"d3-dimension-collapse": collapse_verdict(result),
            "d3-pca-alignment": pca_verdict(result),
            "d3-optimal-depth": depth_verdict(result),
            "d3-latching": latching_verdict(result),
            "d3-q-semantics": semantics_verdict(result)}


# ----------------------------------------------------------------------------- figure
COLOURS = {"er": "C0", "regular": "C1", "bipartite": "C2", "greedy_worst": "C3"}


def plot(result: dict):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 4, figsize=(19, 8.5))
    ax = ax.ravel()
    L = result["layers"]
    col = result["collapse"]
    for f, by_n in col["shipped"].items():
        n = max(by_n, key=int)
        ax[0].plot(L, by_n[n]["zeros"], "o-", ms=3, color=COLOURS[f], label=f"{f} n={n}")
        ax[0].plot(L, by_n[n]["rollout"], ":", color=COLOURS[f])
        if "early20k" in col:
            ax[0].plot(L, col["early20k"][f][n]["zeros"], "--", color=COLOURS[f], lw=1)
    ax[0].axhline(8, color="k", lw=0.8)
    ax[0].set(xlabel="layer t", ylabel="zero coordinates of x_v(t) (of 16)", ylim=(0, 16),
              title="(a) dimension collapse\nsolid S={}, dotted rollout, dashed early20k")
    ax[0].legend(fontsize=7)
    ex = result["pca_example"]
    deg = np.asarray(ex["degree"])
    for v in range(len(deg)):
        pts = [(t, s[v]) for t, s in zip(L, ex["scores"]) if s is not None]
        ax[1].plot(*zip(*pts), color=plt.cm.viridis(deg[v] / max(deg.max(), 1)), lw=1)
    ax[1].set(xlabel="layer t", ylabel="PC1 score", title="(b) Fig. 7(b): ER n=10, seed 0\n"
              "colour = degree (yellow high)")
    for f, by_n in result["pca"]["shipped"].items():
        n = max(by_n, key=int)
        cos = by_n[n]["cos_next"]
        ax[2].plot(L[:-1], [np.nan if c is None else c for c in cos], "o-", ms=3,
                   color=COLOURS[f], label=f"{f} n={n} (t, t+1)")
    ax[2].plot(L, [np.nan if c is None else c for c in ex["cos_ref"]], "k--",
               label=f"example: (t, {result['ref_layer']})")
    ax[2].set(xlabel="layer t", ylabel="|cos| of first principal directions", ylim=(0, 1.05),
              title="(c) PC alignment (median over graphs)")
    ax[2].legend(fontsize=7)
    for f, by_n in result["depth"].items():
        n = str(result["paper_depth_n"]) if str(result["paper_depth_n"]) in by_n else min(by_n)
        r = by_n[n]["ratio"]
        ax[3].plot(range(1, len(r) + 1), r, "o-", ms=3, color=COLOURS[f], label=f"{f} n={n}")
    ax[3].set(xlabel="number of layers T", ylabel="cover size / optimum",
              title="(d) Fig. 8(a): Algorithm 2's per-T covers")
    ax[3].legend(fontsize=7)
    lat = result["latching"]
    for f, ls in (("planted", "-"), ("er", ":")):
        for kind, c in LATCH_COLOURS.items():
            if lat.get(f, {}).get(kind):
                ax[4].plot(L, lat[f][kind]["overlap"], ls, color=c, label=f"{kind} {f}-15")
                ax[5].plot(L[:-1], lat[f][kind]["flip"], ls, color=c, label=f"{kind} {f}-15")
    for a in (ax[4], ax[5]):
        a.axvline(result["s2v_trained_depth"], color="0.6", lw=0.8)
        a.legend(fontsize=7)
    ax[4].set(xlabel="layer", ylabel="top-k overlap with nearest min cover", ylim=(0, 1.05),
              title="(e) per-layer Q2 top-k vs optimal covers")
    ax[5].set(xlabel="layer t (pair t -> t+1)", ylabel="fraction of vertices changing side",
              ylim=(0, 1.05), title="(f) side flips of centred Q2")
    ex = result["latch_example"]
    panels = [(ax[6], "planted_g2s" if "planted_g2s" in ex else "g2s_s0", "(g) Fig. 8(b): G2S-RNN"),
              (ax[7], "planted_s2v" if "planted_s2v" in ex else "s2v",
               "(h) Fig. 8(c): Structure2Vec")]
    for a, m, title in panels:
        if m in ex:
            a.imshow(np.asarray(ex[m]).T > 0, cmap="YlGn", aspect="auto",
                     extent=(0.5, len(ex[m]) + 0.5, len(ex[m][0]) - 0.5, -0.5))
            a.axhline(ex["k"] - 0.5, color="r", lw=1)
        a.set(xlabel="layer", ylabel="vertex (planted cover above red line)",
              title=f"{title} ({m})\ncentred Q2 > 0 (green), planted-15 graph 0")
    fig.tight_layout()
    return fig, ax


def main(argv=None) -> None:
    args = make_parser(NAME, __doc__.splitlines()[0]).parse_args(argv)
    torch.set_num_threads(1)
    use_agg_backend()
    run = Run(NAME, args)
    result = summarise(compute(run), args.profile)
    fig, _ = plot(result)
    run.write(result, fig=fig, derive=derive_verdicts)


if __name__ == "__main__":
    main()
