"""Appendix D.3's units pooled into the plotted numbers (:func:`summarise`): seed means and
medians over graphs per (family, size) and layer; the latching and Q-semantics statistics."""

from __future__ import annotations

import numpy as np

from reproduce.harness import settings as S

__all__ = ["summarise", "repool", "best_layers", "LATCH_KINDS", "semantics_summary",
           "latch_summary"]

T_MAX, REF_LAYER = S.T_MAX, S.D3_REF_LAYER
#: side flips between consecutive rounds 1 -> 2 .. L-1 -> L of the GCNN's trained depth L
EARLY = S.D3_GCNN_DEPTH - 1

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
                    # per seed, per graph, per layer: what the interval rule resamples
                    "zeros_cases": [[u["zeros"] for u in units] for units in per_seed],
                    "dead": _mean(seed_means["dead"]), "rollout": _mean(seed_means["rollout"])}
                cases = [u for units in per_seed for u in units]
                pca.setdefault(variant, {}).setdefault(f, {})[n] = {
                    "cases": len(cases),
                    "undefined_at_ref": sum(not u["pca_defined"][REF_LAYER - 1] for u in cases),
                    "cos_next": _median([u["cos_next"] for u in cases]),
                    "cos_skip": _median([u["cos_skip"] for u in cases]),
                    "cos_ref": _median([u["cos_ref"] for u in cases]),
                    "rho_degree": _median([u["rho_degree"] for u in cases]),
                    # per case (graph, seed): what the interval rule resamples
                    "cos_next_cases": [u["cos_next"] for u in cases],
                    "cos_ref_cases": [u["cos_ref"] for u in cases],
                    "rho_degree_cases": [u["rho_degree"] for u in cases]}
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
                # per seed, per graph, per T: what the depth rule's paired bootstrap resamples
                "ratio_cases": [[[float(x) for x in np.asarray(u["cover"]) / refs[i]]
                                 for i, u in enumerate(units)] for units in per_seed],
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
            if pairs:   # each seed's own per-case outcomes: what the two-level interval draws
                latch[f][kind]["per_seed"] = {
                    m: seed_cases([u["models"][m] for u in units if u["models"][m] is not None])
                    for m in names if m.startswith(kind)}
    ex = raw["latch"]["planted"][0]
    example = {"k": ex["k"], **{m: v["centred"] for m, v in ex["models"].items()
                                if m in EXAMPLE_MODELS and v is not None}}
    return {"profile": profile, "layers": list(range(1, T_MAX + 1)), "ref_layer": REF_LAYER,
            "paper_depth_n": S.D3_DEPTH_N, "collapse": collapse, "pca": pca, "depth": depth,
            "latching": latch, "pca_example": raw["pca_example"], "latch_example": example,
            "checkpoints": raw["checkpoints"], "latch_missing": raw.get("latch_missing", {}),
            "s2v_trained_depth": S.D3_GCNN_DEPTH}

def repool(result: dict) -> dict:
    """The pooled numbers of ``result`` (a written Appendix D.3 JSON) computed again from the
    per-case records it stores -- the numbers each unit measured, which the verdict rules
    resample -- with every other field copied: what the claims check compares with the stored
    JSON, so an edited case (one graph's zero count, one depth ratio, one seed's latched flag) or
    an edited pooled number is drift even when it flips no verdict.

    Re-derived: per (variant, family, size) the collapse ``zeros_per_seed`` and ``zeros``; the
    PCA ``cases``, ``cos_next``, ``cos_ref`` (where its cases are stored) and ``rho_degree``
    medians; the depth ``ratio_per_seed``,
    ``ratio``, ``best_T`` and ``per_seed_best_T``; per latching family and model kind the
    ``cases``, ``latched_count``, ``latched_fraction``, ``flip_early_cases``, ``flip_early`` and
    the Q-semantics counts at the rollout depth.  The plotted-only curves (dead dimensions,
    the rollout's zeros, ``cos_skip``, the latching overlap and flips, the
    Q-semantics medians) are pooled when the script writes and not kept per case: their cases
    would multiply the JSON's size, and no verdict reads them."""
    import copy
    out = {k: copy.deepcopy(result[k]) for k in ("collapse", "pca", "depth", "latching")
           if k in result}
    for fams in out.get("collapse", {}).values():
        for by_n in fams.values():
            for cell in by_n.values():
                cell["zeros_per_seed"] = [_mean(graphs) for graphs in cell["zeros_cases"]]
                cell["zeros"] = _mean(cell["zeros_per_seed"])
    for fams in out.get("pca", {}).values():
        for by_n in fams.values():
            for cell in by_n.values():
                cell["cases"] = len(cell["cos_next_cases"])
                cell["cos_next"] = _median(cell["cos_next_cases"])
                if "cos_ref_cases" in cell:     # stored since the projection decides D.3 (2)
                    cell["cos_ref"] = _median(cell["cos_ref_cases"])
                cell["rho_degree"] = _median(cell["rho_degree_cases"])
    for by_n in out.get("depth", {}).values():
        for cell in by_n.values():
            cell["ratio_per_seed"] = [_mean(graphs) for graphs in cell["ratio_cases"]]
            cell["ratio"] = _mean(cell["ratio_per_seed"])
            cell["best_T"] = best_layers(cell["ratio"])
            cell["per_seed_best_T"] = [best_layers(r) for r in cell["ratio_per_seed"]]
    t = S.D3_T_ROLLOUT - 1
    for fam in out.get("latching", {}).values():
        for kind in LATCH_KINDS:
            cell = fam.get(kind)
            if not cell or "per_seed" not in cell:
                continue
            seeds = [cell["per_seed"][m] for m in sorted(cell["per_seed"])]
            latched = [x for s in seeds for x in s["latched"]]
            cell["cases"] = len(latched)
            cell["latched_count"] = int(sum(latched))
            cell["latched_fraction"] = float(np.mean(latched))
            if len({len(s["flip_early"]) for s in seeds}) == 1:   # case-major, as pooled
                cell["flip_early_cases"] = [s["flip_early"][i]
                                            for i in range(len(seeds[0]["flip_early"]))
                                            for s in seeds]
            cell["flip_early"] = float(np.mean(cell["flip_early_cases"]))
            sem = cell.get("semantics")
            for key, count in (("holds", "holds_count"), ("holds_shifted", "holds_shifted_count"),
                               ("int_close", "int_close_count")):
                if sem and count in sem and all(key in s for s in seeds):
                    sem[count][t] = int(sum(x for s in seeds for x in s[key]))
                    sem[key][t] = sem[count][t] / sem["cases"]
    return out


def best_layers(curve) -> list[int]:
    """Every ``T`` whose mean ratio equals the minimum (exact ties up to 1e-9)."""
    lo = min(curve)
    return [t for t, r in enumerate(curve, start=1) if r <= lo + 1e-9]

#: model-name prefixes pooled by the latching summary: ER-15 G2S-RNN seeds, ER-15
#: Structure2Vec, and the planted-cover-15 models
LATCH_KINDS = ("g2s", "s2v", *S.D3_PLANTED)
#: the models whose per-layer Q2 on planted graph 0 Figure 8(b,c)'s panels show: seed 0 of each
EXAMPLE_MODELS = tuple(f"{kind}_s0" for kind in LATCH_KINDS)


def seed_cases(sets: list[dict]) -> dict:
    """One seed's per-graph outcomes (0/1 or a fraction per case) that the latching and
    Q-semantics rules resample: latched, early flips and, at the rollout depth ``T =
    D3_T_ROLLOUT``, whether D.3 (5) holds as written and up to the split, and whether its
    ``Q_1`` and ``Q_2`` are close to integers."""
    out = {"latched": [int(x) for x in _latched(sets, _stable(sets))],
           "flip_early": _flip_early(sets)}
    if all("semantics" in d for d in sets):
        sem = semantics_summary([d["semantics"] for d in sets], by_case=True)
        out["holds"], out["holds_shifted"] = sem["holds_cases"], sem["holds_shifted_cases"]
        out["int_close"] = sem["int_close_cases"]
    return out

def semantics_summary(sems: list[dict], by_case: bool = False) -> dict:
    """Per layer, over graphs: the fraction where D.3 (5) holds as written (``Q_1`` within
    ``Q1_TOL`` of ``-k - 1`` and ``Q_2`` within ``Q2_TOL`` of ``u``), where it holds after the
    integer shift ``s`` between the terms, where the total ``Q`` is within ``Q1_TOL`` of
    ``Q*``, where ``Q_1`` and every ``Q_2(v)`` are within ``INT_TOL`` of integers (D.3 (5)(a));
    and the median of each measure (see :func:`q_semantics`)."""
    keys = ("q1", "q1_err", "q2_err", "shift", "q1_err_shifted", "q2_err_shifted", "q_err",
            "int_err")
    a = {key: np.asarray([s[key] for s in sems]) for key in keys}
    holds = (a["q1_err"] <= S.D3_Q1_TOL) & (a["q2_err"] <= S.D3_Q2_TOL)
    shifted = (a["q1_err_shifted"] <= S.D3_Q1_TOL) & (a["q2_err_shifted"] <= S.D3_Q2_TOL)
    close = a["int_err"] <= S.D3_INT_TOL
    if by_case:   # each case's 0/1 outcome at the rollout depth (what the rule resamples)
        t = S.D3_T_ROLLOUT - 1
        return {"holds_cases": holds[:, t].astype(int).tolist(),
                "holds_shifted_cases": shifted[:, t].astype(int).tolist(),
                "int_close_cases": close[:, t].astype(int).tolist()}
    return {"holds": holds.mean(0).tolist(), "holds_shifted": shifted.mean(0).tolist(),
            "holds_count": holds.sum(0).astype(int).tolist(),
            "holds_shifted_count": shifted.sum(0).astype(int).tolist(),
            "int_close": close.mean(0).tolist(),
            "int_close_count": close.sum(0).astype(int).tolist(),
            "q_holds": (a["q_err"] <= S.D3_Q1_TOL).mean(0).tolist(),
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
    stable = _stable(sets)
    latched = _latched(sets, stable)
    flips = _flip_early(sets)
    only = [i for i, u in enumerate(unique or []) if u]
    return {"overlap": _mean([d["overlap"] for d in sets]),
            "is_min_cover": _mean([d["is_min_cover"] for d in sets]),
            "flip": _mean([d["flip"] for d in sets]), "change": _mean([d["change"] for d in sets]),
            "stable_fraction": float(np.mean(stable)),
            "latched_fraction": float(np.mean(latched)),
            "unique_cases": len(only),
            "latched_fraction_unique": float(np.mean([latched[i] for i in only]))
            if only else None,
            "cover_t5_unique": float(np.mean([sets[i]["is_min_cover"][S.D3_T_ROLLOUT - 1]
                                              for i in only])) if only else None,
            "flip_early": float(np.mean(flips)),
            "flip_early_cases": flips,
            "latched_count": int(sum(latched)),
            "cases": len(sets),
            "semantics": semantics_summary([d["semantics"] for d in sets])
            if all("semantics" in d for d in sets) else None}


def _stable(sets: list[dict]) -> list[bool]:
    """Per case: the top-k set is the same at every layer ``REF_LAYER..T_MAX``."""
    tail = slice(REF_LAYER - 1, T_MAX)
    return [len({tuple(s) for s in d["top"][tail]}) == 1 for d in sets]


def _latched(sets: list[dict], stable: list[bool]) -> list[bool]:
    """Per case: stable, and the set is a minimum cover."""
    return [bool(s and d["is_min_cover"][-1]) for s, d in zip(stable, sets)]


def _flip_early(sets: list[dict]) -> list[float]:
    """Per case: the mean fraction of vertices changing side between layers 1 -> 2 .. 4 -> 5."""
    return [float(np.mean(d["flip"][:EARLY])) for d in sets]
