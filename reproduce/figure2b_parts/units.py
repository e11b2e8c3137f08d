"""Figure 2(b)'s units of work (a model, a heuristic or the reference on one graph, each cached)
and :func:`compute`, which runs the missing ones through the engine and builds the per-graph
rows; units computed elsewhere come in through :mod:`reproduce.harness.unit_import`."""

from __future__ import annotations

import json
from pathlib import Path

from reproduce.common import Run
from reproduce.figure2b_parts.config import (
    FAMILIES,
    HEURISTICS,
    METHODS,
    MODELS,
    PAPER,
    PROFILES,
    REFERENCE_LIMIT,
    SEEDS,
    TAG,
    label,
)
from reproduce.harness import settings as S

__all__ = ["compute", "unit"]


def _instance(family: str, n: int, index: int):
    from g2s.reference.certificates import instance_graph
    return instance_graph(family, n, index)


def _check(G, solution) -> int:
    from g2s.problems import check_solution
    return check_solution("mvc", G, set(solution))


def compute(args, run: Run) -> dict:
    """Every (family, size, graph) row; units not cached are computed through the engine
    (:func:`reproduce.harness.engine.run_jobs`: serially, ``--workers N`` or ``--scheduler``)."""
    from g2s.graphs import graph_fingerprint
    from g2s.nn.checkpoints import checkpoint_path
    from reproduce.harness.engine import Job, run_jobs
    from reproduce.harness.grid import sha, unit_memory
    sizes, count = PROFILES[args.profile]
    seeds = tuple(args.seeds) if args.seeds else SEEDS[args.profile]
    todo = set(args.methods) if args.methods is not None else set(METHODS) | {"reference"}
    families = set(args.families or FAMILIES)      # model units computed now
    limit = args.reference_time_limit or REFERENCE_LIMIT[args.profile]
    rows, jobs, keys, known = [], [], {}, {}
    # result name -> the model it runs: seed 0 first (the table's pairing), then seeds 1, 2, ..
    runs = {label(m, seed): (m, seed) for seed in sorted(seeds) for m in MODELS}
    base = {lab: m for lab, (m, _) in runs.items()}
    methods = [*(m for m in base if base[m] == m), *HEURISTICS, *(m for m in base if base[m] != m)]
    paths = {f: {lab: checkpoint_path(m, "mvc", trained_on, seed)
                 for lab, (m, seed) in runs.items()}
             for f, trained_on in FAMILIES.items()}
    hashes = {f: {m: sha(p) for m, p in ps.items() if p.exists()} for f, ps in paths.items()}
    if args.import_units is not None:
        known.update(_import(run, args.import_units, sizes, count, hashes, base))
    for family in FAMILIES:
        for n in sizes:
            for index in range(count):
                G = _instance(family, n, index)
                fp = graph_fingerprint(G)
                row = {"family": family, "n": n, "index": index, "edges": G.number_of_edges(),
                       "fingerprint": fp, "results": {}}
                if family == "sparse_bipartite":
                    side = sum(1 for _, b in G.nodes(data="bipartite") if b == 0)
                    row["trivial_cover"] = min(side, n - side)
                for m in methods + ["reference"]:
                    method = base.get(m, m)
                    key = {"tag": TAG, "family": family, "n": n, "index": index,
                           "method": method}
                    if m in base:
                        if m not in hashes[family]:
                            continue
                        key["checkpoint"] = hashes[family][m]
                    if m == "reference":
                        key["time_limit"] = limit
                    keys[(family, n, index, m)] = key
                    wanted = method in todo and (m not in base or (
                        family in families and (args.max_n is None or n <= args.max_n)))
                    if wanted and not run.cache.contains(key) and _k(key) not in known:
                        resume = run.cache.resume_path(key, ".state") if m in base else None
                        jobs.append(Job(key, unit, (method, family, n, index,
                                                    str(paths[family][m]) if m in base else None,
                                                    args.device, resume and str(resume),
                                                    limit),
                                        memory=unit_memory(n, G.number_of_edges(),
                                                           m in base)))
                rows.append(row)
    known.update({_k(job.key): v for job, v in zip(jobs, run_jobs(run, jobs))})
    for row in rows:
        G = None
        for m in methods + ["reference"]:
            key = keys.get((row["family"], row["n"], row["index"], m))
            if key is None:
                continue
            found, value = (True, known[_k(key)]) if _k(key) in known else run.cache.load(key)
            if not found:
                continue
            G = G or _instance(row["family"], row["n"], row["index"])
            entry = {"objective": _check(G, value["solution"])}
            if m == "reference":
                row["reference"] = {**entry, **{k: value[k] for k in ("bound", "status",
                                                                     "method")}}
            else:
                row["results"][m] = {**entry, **{k: value.get(k) for k in ("best_T", "seconds",
                                                                          "device")}}
    return {"sizes": list(sizes), "graphs_per_size": count, "families": list(FAMILIES),
            "methods": methods, "seeds": sorted(seeds),
            "paper": {f"{f}/{n}": v for (f, n), v in PAPER.items()},
            "reference_time_limit": limit, "instances": rows}


def _import(run, path, sizes, count, hashes: dict, base: dict) -> dict:
    """The model units of ``path`` (``--import-units``) that match this run, through
    :func:`reproduce.harness.unit_import.import_units`: graph fingerprint, feasibility and objective
    re-checked, then cached; returns them by :func:`_k` of their key.  ``base``: result name
    (a model's seed) -> the model."""
    from reproduce.harness.unit_import import import_units
    units = [(f, n, i, m) for f in FAMILIES for n in sizes for i in range(count)
             for m in base if m in hashes[f]]

    def key(u):
        f, n, i, m = u
        return {"tag": TAG, "family": f, "n": n, "index": i, "method": base[m],
                "checkpoint": hashes[f][m]}

    kept: dict = {}
    import_units(run, path, "mvc", units, key, lambda u: hashes[u[0]].get(u[3]), S.T_MAX,
                 value=_imported_value, keep=kept)
    return {_k(key(u)): v for u, v in kept.items()}


def _imported_value(rec: dict, file_name: str) -> dict:
    """An imported line as this script caches a model unit."""
    return {"objective": rec["objective"], "best_T": rec.get("best_T"),
            "seconds": rec.get("seconds"), "device": rec.get("device"),
            "solution": rec["solution"]}


def _k(key: dict) -> str:
    return json.dumps(key, sort_keys=True)


def unit(method, family, n, index, checkpoint, device, resume, limit) -> dict:
    """One unit (a worker runs it): a model, a heuristic or the reference on one graph."""
    import time

    from g2s.heuristics import run_heuristic
    G = _instance(family, n, index)
    if method == "reference":
        return _reference(G, limit)
    t0 = time.time()
    best_T = None
    if method in MODELS:
        import torch

        from g2s.evaluate import solve_with_model
        from g2s.nn.checkpoints import load_checkpoint
        torch.set_num_threads(1)
        model, _ = load_checkpoint(checkpoint, device=device)
        if resume is not None:
            Path(resume).parent.mkdir(parents=True, exist_ok=True)
        S_, info = solve_with_model(model, "mvc", G, t_max=S.T_MAX, device=device, prune=True,
                                    resume=resume)
        best_T = info["best_T"]
    else:
        S_ = run_heuristic(method, "mvc", G)
    return {"solution": sorted(S_), "objective": len(S_), "best_T": best_T,
            "seconds": round(time.time() - t0, 2), "device": device if method in MODELS
            else "cpu"}


def _reference(G, limit):
    from g2s.reference.solver import solve_reference
    r = solve_reference("mvc", G, time_limit=limit)
    return {"solution": sorted(r.solution), "bound": r.bound, "status": r.status,
            "method": r.method}
