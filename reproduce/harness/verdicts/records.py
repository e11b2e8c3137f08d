"""The decision rule applied to a figure JSON's per-instance records: a model's seed keys,
the samples of each (family, size) point, and a whole claim (a bound over every point) with the
evidence fields the ledger shows."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from reproduce.harness.verdicts.rule import (
    FAMILY_CONFIDENCE,
    METHOD,
    N_RESAMPLES,
    SEED,
    bound_verdict,
    interval_seed_mean,
    per_point_confidence,
)

__all__ = ["point_samples", "point_intervals", "bound_claim", "seed_keys", "seed_label"]


def point_samples(instances: Sequence[Mapping], methods: Sequence[str],
                  key: str = "ratio") -> dict[tuple[str, int], np.ndarray]:
    """Per-instance records of a figure JSON -> {(family, n): seeds x graphs array}.

    ``instances``: records with ``family``, ``n`` and ``results[method][key]`` (the figure
    JSONs' ``instances``); ``methods``: one key per seed of one model (e.g. ``g2s_rnn_s0``,
    ``g2s_rnn_s1``), or a single key for a one-seed model.  Instances a method did not run (or
    ran without ``key``) are left out for every seed, so columns stay paired.
    """
    out: dict[tuple[str, int], list] = {}
    for rec in instances:
        res = rec.get("results", {})
        vals = [res.get(m, {}).get(key) if isinstance(res.get(m), Mapping) else None
                for m in methods]
        if any(v is None for v in vals):
            continue
        out.setdefault((rec["family"], int(rec["n"])), []).append(vals)
    return {p: np.asarray(v, dtype=float).T for p, v in sorted(out.items())}


def point_intervals(samples: Mapping[tuple[str, int], np.ndarray], *,
                    family_confidence: float = FAMILY_CONFIDENCE, n_resamples: int = N_RESAMPLES,
                    seed: int = SEED) -> dict[str, dict]:
    """Bonferroni intervals (one per point) of the seed mean at every point of a claim.

    Keys are ``"family@n"``; per-point confidence is ``per_point_confidence(len(samples))``.
    """
    conf = per_point_confidence(len(samples), family_confidence)
    return {f"{fam}@{n}": interval_seed_mean(list(arr), confidence=conf,
                                             n_resamples=n_resamples, seed=seed)
            for (fam, n), arr in samples.items()}


def bound_claim(instances: Sequence[Mapping], models: Mapping[str, Sequence[str]], bound: float,
                *, families: Sequence[str] | None = None, direction: str = "<=",
                min_seeds: int = 1, key: str = "ratio", family_confidence: float =
                FAMILY_CONFIDENCE, n_resamples: int = N_RESAMPLES, seed: int = SEED) -> dict:
    """A bound claim decided from a figure JSON's per-instance records, ready for the ledger.

    ``models``: name -> the result keys of its seeds (e.g. ``{"ER-trained": ["g2s_rnn_s0",
    ...]}``); every (model, family, size) point is one member of the Bonferroni family.
    Returns :func:`bound_verdict`'s object plus evidence fields: ``worst`` (model:family@n),
    ``worst_mean``, ``interval`` ("[low, high]" of the worst point), ``level`` (per-point
    confidence), ``sample`` (graphs x seeds per point, smallest to largest), the resample count
    and seed, and ``intervals`` ({point: [low, high]}).
    """
    samples = {}
    for name, methods in models.items():
        for (fam, n), arr in point_samples(instances, methods, key).items():
            if families is None or fam in families:
                samples[(f"{name}:{fam}", n)] = arr
    if not samples:
        return {"verdict": "pending", "why": "no per-instance records for these models"}
    ivs = point_intervals(samples, family_confidence=family_confidence,
                          n_resamples=n_resamples, seed=seed)
    out = bound_verdict(ivs, bound, direction=direction, min_seeds=min_seeds)
    return _evidence(out, ivs, n_resamples, seed)


def seed_keys(instances: Sequence[Mapping], name: str) -> list[str]:
    """The result keys of a model's training seeds in a figure JSON's instance records.

    A model evaluated with several seeds stores each as ``NAME_sK`` (and its seed mean as
    ``NAME``); a one-seed model stored under ``NAME`` alone (formerly the baselines)
    is its own single seed.  Keys come sorted by seed number."""
    pattern = re.compile(rf"{re.escape(name)}_s(\d+)")
    found = {k for rec in instances for k in rec.get("results", {}) if pattern.fullmatch(k)}
    return sorted(found, key=lambda k: int(pattern.fullmatch(k).group(1))) or [name]


def seed_label(key: str) -> str:
    """A seed key's short name in evidence: ``g2s_rnn_s3`` -> ``s3``; a key without a seed
    suffix (a one-seed model) is its own label."""
    return f"s{key.rsplit('_s', 1)[1]}" if "_s" in key else key


def _evidence(out: dict, ivs: Mapping[str, dict], n_resamples: int, seed: int) -> dict:
    w = ivs[out["worst"]]

    def seeds(r):
        return f"{r['n_seeds']} seed{'s' * (r['n_seeds'] != 1)}"
    shapes = sorted({(r["n_graphs"], seeds(r)) for r in ivs.values()})
    sample = ", ".join(f"{g} graph{'s' * (g != 1)} x {s}" for g, s in shapes)
    out.update(worst_mean=round(w["estimate"], 4),
               interval=f"[{w['low']:.3f}, {w['high']:.3f}]",
               level=f"{100 * out.pop('confidence'):.2f}%", sample=sample,
               failing=", ".join(out["failing"]) or "none",
               unresolved=", ".join(out["unresolved"]) or "none",
               n_resamples=n_resamples, resampling_seed=seed, method=METHOD,
               intervals={p: [round(r["low"], 4), round(r["high"], 4)] for p, r in ivs.items()})
    del out["worst_interval"]
    return out
