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
from reproduce.harness.engine import unit_progress

__all__ = ["AUDIT_STEPS", "audit", "compute", "unit"]


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


def _models(seeds) -> tuple[dict, dict, dict, dict]:
    """The models a run with training seeds ``seeds`` evaluates: ``runs`` (result name ->
    (model, seed) of the shipped recipe: seed 0 first, the table's pairing, then seeds 1, 2, ..;
    a seed a model does not ship, such as Structure2Vec's beyond its three, is left out),
    ``variants`` (:func:`recipe_runs`: G2S-RNN under the other recipes, the variants and the
    untrained null, per family), ``base`` (result name -> the model's name in a unit key) and
    ``paths`` (per family, result name -> checkpoint)."""
    from g2s.nn.checkpoints import checkpoint_path
    runs = {label(m, seed): (m, seed) for seed in sorted(seeds) for m in MODELS
            if seed == 0 or any(checkpoint_path(m, "mvc", t, seed).exists()
                                for t in FAMILIES.values())}
    variants = recipe_runs(seeds)
    base = {lab: m for lab, (m, _) in runs.items()}
    base.update({lab: m for per in variants.values() for lab, (m, _s, _r) in per.items()})
    paths = {f: {**{lab: checkpoint_path(m, "mvc", trained_on, seed)
                    for lab, (m, seed) in runs.items()},
                 **{lab: checkpoint_path("g2s_rnn", "mvc", trained_on, seed, recipe=r)
                    for lab, (_m, seed, r) in variants[f].items()}}
             for f, trained_on in FAMILIES.items()}
    return runs, variants, base, paths


def _hashes(paths: dict) -> dict:
    """Per family, result name -> the checkpoint's hash (a unit key's ``checkpoint``), for the
    checkpoints that exist."""
    from reproduce.harness.grid import sha
    return {f: {m: sha(p) for m, p in ps.items() if p.exists()} for f, ps in paths.items()}


def _key(family: str, n: int, index: int, method: str, checkpoint: str | None = None,
         time_limit: float | None = None, budget: float | None = None) -> dict:
    """The cache key of one unit: a model's carries its checkpoint's hash, the reference its
    CP-SAT time limit, the best known cover its solver's budget."""
    key = {"tag": TAG, "family": family, "n": n, "index": index, "method": method}
    if checkpoint is not None:
        key["checkpoint"] = checkpoint
    if time_limit is not None:
        key["time_limit"] = time_limit
    if budget is not None:
        key["budget"] = budget
    return key


def _size(value) -> int | None:
    """The cover size of a cached unit (a heuristic's unit keeps its cover only)."""
    solution = value.get("solution") if isinstance(value, dict) else None
    return len(set(solution)) if isinstance(solution, list) else None


def _check(G, solution) -> int:
    from g2s.problems import check_solution
    return check_solution("mvc", G, set(solution))


def compute(args, run: Run) -> dict:
    """Every (family, size, graph) row; units not cached are computed through the engine
    (:func:`reproduce.harness.engine.run_jobs`: serially, ``--workers N`` or ``--scheduler``)."""
    from g2s.graphs import graph_fingerprint
    from reproduce.harness.engine import Job, run_jobs
    from reproduce.harness.grid import unit_memory
    sizes, count = PROFILES[args.profile]
    seeds = tuple(args.seeds) if args.seeds else SEEDS[args.profile]
    todo = set(args.methods) if args.methods is not None else \
        set(METHODS) | set(RECIPE_MODELS) | {"reference"}
    families = set(args.families or FAMILIES)      # model units computed now
    limit = args.reference_time_limit or REFERENCE_LIMIT[args.profile]
    budget = BEST_KNOWN_BUDGET[args.profile]
    rows, jobs, keys, known = [], [], {}, {}
    runs, variants, base, paths = _models(seeds)
    recipe_max_n = getattr(args, "recipe_max_n", None) or RECIPE_MAX_N[args.profile]
    recipe_labels = sorted({lab for per in variants.values() for lab in per},
                           key=lambda lab: (RECIPE_MODELS.index(base[lab]), seed_of(lab)))
    methods = [*(m for m in runs if base[m] == m), *HEURISTICS,
               *(m for m in runs if base[m] != m), *recipe_labels]
    hashes = _hashes(paths)
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
                    if m in base and m not in hashes[family]:
                        continue
                    key = _key(family, n, index, method, hashes[family].get(m),
                               limit if m == "reference" else None,
                               budget if m == "best_known" else None)
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
    checked = None
    if run.cache.enabled:
        # the units this run reused from the cache (hours each, never recomputed whole) are
        # audited by a fresh, unpredictable sample before anything is written
        from reproduce.harness.rebuild import fresh_seed
        checked = {"seed": fresh_seed(), "steps": AUDIT_STEPS}
        problems = audit({"instances": rows}, checked["seed"], run.cache.root)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise SystemExit(f"{run.name}: a cached unit fails its audit: {problems[0]}{more}; "
                             "nothing written")
    return {"sizes": list(sizes), "graphs_per_size": count, "families": list(FAMILIES),
            "methods": methods, "seeds": sorted(seeds), "best_known_budget": budget,
            "references_improved": improved, "audit": checked,
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
        return _key(f, n, i, base[m], hashes[f][m])

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
        S_, info = solve_with_model(
            model, "mvc", G, t_max=S.T_MAX, device=device, prune=True, resume=resume,
            progress=unit_progress(f"{family}/{n} {Path(checkpoint).stem}", n))
        best_T = info["best_T"]
    else:
        S_ = run_heuristic(method, "mvc", G)
    return {"solution": sorted(S_), "objective": len(S_), "best_T": best_T,
            "seconds": round(time.time() - t0, 2), "device": device if checkpoint is not None
            else "cpu"}


#: greedy steps of an audited model unit's winning rollout that :func:`audit` replays: a cover
#: that this rollout did not make holds each vertex the rollout picks with probability about
#: its density (two thirds on these sparse graphs), so 32 steps pass it with probability about
#: 1e-6; seconds at 25,000 vertices, where the whole cover is hours
AUDIT_STEPS = 32


def audit(payload: dict, seed: int, cache_dir: Path | None = None) -> list[str]:
    """The committed units behind ``payload``'s rows, checked and recomputed in part (drift
    lines; none when every check passes): a fresh, unpredictable audit of results that took
    hours (``seed``: the sample's; the ledger's check draws a new one every time).

    Every method result of every row must be the objective of its unit in ``cache_dir``
    (default :data:`UNITS_DIR`, the committed units the ``ci`` JSON is assembled from), the
    unit found by the key :func:`compute` gives it (the checkpoint's current hash, so a result
    of other weights is caught).  Then one model unit, drawn at random: its cover re-checked
    on its graph, and the first :data:`AUDIT_STEPS` greedy steps of its winning rollout
    (G2S-RNN at its recorded best ``T``; a fixed-depth model's one rollout) replayed by the
    literal algorithm (:func:`g2s.algorithm2.literal.greedy_rollout`, whose decisions define
    the answer; float64 on the CPU): every vertex it picks must be in the committed cover.  A
    heuristic's unit on the same graph, drawn at random, is recomputed whole."""
    import torch

    from g2s.algorithm2.literal import greedy_rollout
    from g2s.heuristics import run_heuristic
    from g2s.nn.batch import batch_edge_arrays, edge_array
    from g2s.nn.checkpoints import load_checkpoint
    from g2s.problems import InfeasibleSolution
    from reproduce.common import UnitCache
    from reproduce.figure2b_parts.config import UNITS_DIR
    cache = UnitCache(UNITS_DIR if cache_dir is None else cache_dir)
    _, _, base, paths = _models(S.G2S_TRAIN_SEEDS)
    hashes = _hashes(paths)
    out: list[str] = []
    models: list = []
    heuristics: dict = {}
    for row in payload.get("instances", []):
        f, n, i = row["family"], row["n"], row["index"]
        for lab, r in sorted(row.get("results", {}).items()):
            where = f"instances {f}/{n}/{i}/{lab}"
            if lab in base and lab not in hashes.get(f, {}):
                out.append(f"{where}: no checkpoint for this result")
                continue
            found, value = cache.load(_key(f, n, i, base.get(lab, lab), hashes[f].get(lab)))
            if not found:
                out.append(f"{where}: no committed unit for this result (of these weights)")
            elif _size(value) != r.get("objective"):
                out.append(f"{where}: objective {r.get('objective')} != {_size(value)} in its "
                           "committed unit")
            elif lab in base:
                models.append((row, lab, value))
            else:
                heuristics.setdefault((f, n, i), []).append((lab, value))
    if out or not models:
        return out
    rng = np.random.default_rng(seed)
    row, lab, value = models[int(rng.integers(len(models)))]
    f, n, i = row["family"], row["n"], row["index"]
    where = f"instances {f}/{n}/{i}/{lab}"
    G = _instance(f, n, i)
    try:
        _check(G, value["solution"])
    except (InfeasibleSolution, TypeError, KeyError) as exc:
        return [f"{where}: committed cover refused ({exc})"]
    model, _ = load_checkpoint(paths[f][lab], device="cpu")
    nodes = sorted(G.nodes)
    size, edges = edge_array(G)
    batch = batch_edge_arrays([(size, edges)], device="cpu",
                              dtype=next(model.parameters()).dtype)
    depth = value.get("best_T") if model.variable_depth else None
    if model.variable_depth and not isinstance(depth, int):
        return [f"{where}: committed unit records no best T"]
    picked = greedy_rollout(model, "mvc", batch, T=depth, max_steps=AUDIT_STEPS)
    outside = {nodes[v] for v in torch.nonzero(picked).squeeze(1).tolist()} - \
        set(value["solution"])
    if outside:
        out.append(f"{where}: the replayed rollout (T = {depth}) picks {len(outside)} of its "
                   f"first {AUDIT_STEPS} vertices outside the committed cover (audit seed "
                   f"{seed})")
    same_graph = heuristics.get((f, n, i), [])
    if same_graph:
        h, hv = same_graph[int(rng.integers(len(same_graph)))]
        fresh = run_heuristic(h, "mvc", G)
        if sorted(fresh) != hv.get("solution"):
            out.append(f"instances {f}/{n}/{i}/{h}: committed cover ({_size(hv)}) differs "
                       f"from its recomputation ({len(fresh)}; audit seed {seed})")
    return out


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
