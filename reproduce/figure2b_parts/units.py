"""Figure 2(b)'s units of work (a model, a heuristic, the reference's proven bound or the best
known cover on one graph, each cached) and :func:`compute`, which runs the missing ones through
the engine and builds the per-graph rows; units computed elsewhere come in through
:mod:`reproduce.harness.unit_import`.

The yardstick of a row (``reference``) is the best cover known: the state-of-the-art solver's
(``best_known``, :data:`BEST_KNOWN_BUDGET` seconds) or CP-SAT's, whichever is smaller, beside
CP-SAT's proven bound; on a bipartite graph König's cover is optimal and no solver is run.  The
reference is never beaten silently: when a method's cover is smaller than a reference not
proven optimal, it becomes the reference (``best_known_by`` names the method), the row records
``reference_improved`` and the JSON counts such rows in ``references_improved``."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np

from reproduce.common import Run
from reproduce.figure2b_parts.config import (
    BEST_KNOWN_BUDGET,
    FAMILIES,
    HEURISTICS,
    METHODS,
    MODELS,
    PAPER,
    PROFILES,
    RECIPE_MAX_N,
    RECIPE_MODELS,
    REFERENCE_LIMIT,
    SEEDS,
    TAG,
    label,
    recipe_runs,
    seed_of,
)
from reproduce.harness import settings as S

__all__ = ["compute", "unit"]


def _instance(family: str, n: int, index: int):
    from g2s.reference.certificates import instance_graph
    return instance_graph(family, n, index)


def _trivial_draws(family: str, n: int, index: int, G) -> list[int]:
    """The null baseline's cover sizes on one graph: the draws of every grid's trivial-solver
    unit (:func:`reproduce.harness.unit_check.trivial_unit`: the complement of a random maximal
    independent set, :data:`g2s.heuristics.TRIVIAL_DRAWS` draws seeded by the graph's name,
    each checked); the row's ``trivial_cover`` is their mean.  (It once read the smaller side
    off a bipartite generator's labels: a second trivial solver, which knows what no solver is
    told.)"""
    from reproduce.harness.unit_check import trivial_unit
    return trivial_unit("mvc", family, n, index, G)["draws"]


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
    todo = set(args.methods) if args.methods is not None else \
        set(METHODS) | set(RECIPE_MODELS) | {"reference"}
    families = set(args.families or FAMILIES)      # model units computed now
    limit = args.reference_time_limit or REFERENCE_LIMIT[args.profile]
    budget = BEST_KNOWN_BUDGET[args.profile]
    rows, jobs, keys, known = [], [], {}, {}
    # result name -> the model it runs: seed 0 first (the table's pairing), then seeds 1, 2, ..
    # (a seed a model does not ship, such as Structure2Vec's beyond its three, is left out)
    runs = {label(m, seed): (m, seed) for seed in sorted(seeds) for m in MODELS
            if seed == 0 or any(checkpoint_path(m, "mvc", t, seed).exists()
                                for t in FAMILIES.values())}
    # G2S-RNN under the other recipes (the variants, the untrained null), per family: its own
    # training set's recipes, every seed up to RECIPE_MAX_N vertices (--recipe-max-n)
    variants = recipe_runs(seeds)
    recipe_max_n = getattr(args, "recipe_max_n", None) or RECIPE_MAX_N[args.profile]
    base = {lab: m for lab, (m, _) in runs.items()}
    base.update({lab: m for per in variants.values() for lab, (m, _s, _r) in per.items()})
    recipe_labels = sorted({lab for per in variants.values() for lab in per},
                           key=lambda lab: (RECIPE_MODELS.index(base[lab]), seed_of(lab)))
    methods = [*(m for m in runs if base[m] == m), *HEURISTICS,
               *(m for m in runs if base[m] != m), *recipe_labels]
    paths = {f: {**{lab: checkpoint_path(m, "mvc", trained_on, seed)
                    for lab, (m, seed) in runs.items()},
                 **{lab: checkpoint_path("g2s_rnn", "mvc", trained_on, seed, recipe=r)
                    for lab, (_m, seed, r) in variants[f].items()}}
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
                draws = _trivial_draws(family, n, index, G)
                row["trivial_cover"] = float(np.mean(draws))
                row["trivial_draws"] = draws
                # König's cover of a bipartite graph is optimal: no best-known search there
                extra = [] if nx.is_bipartite(G) else ["best_known"]
                for m in methods + ["reference", *extra]:
                    method = base.get(m, m)
                    key = {"tag": TAG, "family": family, "n": n, "index": index,
                           "method": method}
                    if m in base:
                        if m not in hashes[family]:
                            continue
                        key["checkpoint"] = hashes[family][m]
                    if m == "reference":
                        key["time_limit"] = limit
                    if m == "best_known":
                        key["budget"] = budget
                    keys[(family, n, index, m)] = key
                    # the best known cover is part of the reference (--methods reference)
                    asked = "reference" if m == "best_known" else method
                    wanted = asked in todo and (m not in base or (
                        family in families and (args.max_n is None or n <= args.max_n)
                        and (m not in variants[family] or n <= recipe_max_n)))
                    if wanted and not run.cache.contains(key) and _k(key) not in known:
                        resume = run.cache.resume_path(key, ".state") if m in base else None
                        jobs.append(Job(key, unit, (method, family, n, index,
                                                    str(paths[family][m]) if m in base else None,
                                                    args.device, resume and str(resume),
                                                    budget if m == "best_known" else limit),
                                        memory=unit_memory(n, G.number_of_edges(),
                                                           m in base)))
                rows.append(row)
    # the largest graphs first: the 25,000-vertex covers take hours, so a run cut short (or
    # resumed over several sessions) has its longest units started first
    jobs.sort(key=lambda job: -job.key["n"])
    known.update({_k(job.key): v for job, v in zip(jobs, run_jobs(run, jobs))})
    for row in rows:
        G = None
        for m in methods + ["reference", "best_known"]:
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
                                                                     "method")},
                                    "best_known_by": value["method"]}
            elif m == "best_known":
                row["best_known"] = {**entry, "by": value["by"], "budget": budget}
            else:
                row["results"][m] = {**entry, **{k: value.get(k) for k in ("best_T", "seconds",
                                                                          "device")}}
    improved = sum(_best_known_reference(row) for row in rows)
    return {"sizes": list(sizes), "graphs_per_size": count, "families": list(FAMILIES),
            "methods": methods, "seeds": sorted(seeds), "best_known_budget": budget,
            "references_improved": improved,
            "paper": {f"{f}/{n}": v for (f, n), v in PAPER.items()},
            "reference_time_limit": limit, "instances": rows}


def _best_known_reference(row: dict) -> bool:
    """Make ``row["reference"]`` the best cover known: the best-known solver's when it is smaller
    than CP-SAT's, then any method's that is smaller still (recorded in ``reference_improved``:
    the reference is never beaten silently).  A cover below a proven optimum or bound is a
    defect: an error.  Returns whether a method's cover improved the reference."""
    ref = row.get("reference")
    if ref is None:
        return False
    bk = row.get("best_known")
    if bk is not None and bk["objective"] < ref["objective"]:
        ref.update(objective=bk["objective"], best_known_by=bk["by"])
    found = {m: r["objective"] for m, r in row["results"].items() if "objective" in r}
    best = min(found.items(), key=lambda kv: (kv[1], kv[0]), default=None)
    where = f"figure2b {row['family']}/{row['n']}/{row['index']}"
    if best is not None and best[1] < ref["bound"]:
        raise AssertionError(f"{where}: {best[0]}'s cover {best[1]} is below the proven "
                             f"bound {ref['bound']}")
    improved = best is not None and best[1] < ref["objective"]
    if improved:
        row["reference_improved"] = {"by": best[0], "objective_before": ref["objective"]}
        ref.update(objective=best[1], best_known_by=best[0])
    ref["status"] = "optimal" if ref["objective"] == ref["bound"] else "time_limit"
    return improved


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
    if method == "best_known":
        return _best_known(G, limit)
    t0 = time.time()
    best_T = None
    if checkpoint is not None:      # a model: G2S-RNN under any recipe, or Structure2Vec
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
            "seconds": round(time.time() - t0, 2), "device": device if checkpoint is not None
            else "cpu"}


def _best_known(G, budget):
    from g2s.reference.best_known import best_known_solution
    r = best_known_solution("mvc", G, time_limit=budget, seed=0)
    return {"solution": sorted(r.solution), "objective": r.objective, "by": r.by,
            "seconds": round(r.seconds, 2)}


def _reference(G, limit):
    from g2s.reference.solver import solve_reference
    r = solve_reference("mvc", G, time_limit=limit)
    return {"solution": sorted(r.solution), "bound": r.bound, "status": r.status,
            "method": r.method}
