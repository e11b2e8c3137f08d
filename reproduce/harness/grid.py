"""The evaluation grid shared by the figure scripts: methods x certified instances -> ratios.

A *method* is a classical heuristic (``g2s.heuristics.HEURISTIC_METHODS``) or a trained model
checkpoint (G2S-RNN: Algorithm 2 with ``T = 1..T_max``; fixed-depth baselines: one greedy
rollout).  Instances are the seeded evaluation graphs of :mod:`g2s.reference.certificates`, whose
certified reference gives each ratio's denominator (and the proven bound a second ratio).
Each (instance, method) pair is one cached unit of work, so an interrupted run resumes.  By
default a script takes the model units its committed JSON already holds from there and
recomputes every cheap unit and a freshly drawn sample of the others as a check
(:mod:`reproduce.harness.rebuild`); ``--full`` computes all.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from g2s.argtypes import device, positive_int
from g2s.graphs import FAMILIES as GRAPH_FAMILIES
from g2s.heuristics import TRIVIAL
from reproduce.harness import rebuild
from reproduce.harness.contract import DEFAULT_OUT, REPO_ROOT, Run, script_main
from reproduce.harness.engine import Job, run_jobs, unit_progress
from reproduce.harness.unit_check import trivial_unit, validate_unit
from reproduce.harness.unit_import import import_units

__all__ = ["add_model_options", "model_script", "sha", "evaluate_unit", "evaluate_grid",
           "summarise", "snapshot", "checkpoint_meta", "worst_point", "fmt_worst", "CODE_TAG",
           "shipped_seeds", "seeds_by_model", "add_seed_mean", "seed_spread", "recipe_models",
           "add_recipe_means",
           "point_intervals"]

CODE_TAG = "grid-v1"

_MODEL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def add_model_options(parser) -> None:
    """``--device``, ``--checkpoint-dir`` and ``--import-units``, shared by the scripts that
    evaluate models."""
    parser.add_argument("--device", type=device, default="cpu",
                        help="cpu, cuda or cuda:N (default cpu)")
    parser.add_argument("--checkpoint-dir", type=Path, default=None,
                        help="evaluate the G2S-RNN checkpoints in this folder instead of the "
                             "shipped ones (e.g. g2s/checkpoints/early20k, with --out to keep "
                             "both)")
    parser.add_argument("--import-units", type=_readable_file, default=None, metavar="FILE",
                        help="JSON lines of model units computed elsewhere (a GPU machine, a "
                             "cluster): each matched to a unit of this grid, its graph "
                             "fingerprint compared and its solution re-checked, then cached "
                             "(reproduce/harness/unit_import.py)")
    parser.add_argument("--full", action="store_true",
                        help="compute every unit; by default the units the committed JSON "
                             "already holds (same graph, method, checkpoint hash, T_max) are "
                             "taken from it and a seeded 10%% of them, at least one per method "
                             "and size, are recomputed and must match "
                             "(reproduce/harness/rebuild.py)")
    parser.add_argument("--max-n", type=positive_int, default=None, metavar="N",
                        help="compute model units only up to N vertices; larger ones come from "
                             "the cache or --import-units, else their points are left out "
                             "(default: compute every unit)")
    parser.add_argument("--families", nargs="+", default=None, metavar="FAMILY",
                        choices=sorted(GRAPH_FAMILIES),
                        help="compute model units only on these graph families; the others' "
                             "come from the committed JSON, the cache or --import-units, else "
                             "their points are left out (default: every family)")
    parser.add_argument("--models", nargs="+", type=_model_name, default=None, metavar="NAME",
                        help="compute only these models' units: a seed (g2s_rnn_s3) or every "
                             "seed of a model (g2s_rnn); the others' come from the committed "
                             "JSON, the cache or --import-units, else their points are left out "
                             "(default: every model; heuristics always run)")
    parser.add_argument("--heuristics-only", action="store_true",
                        help="compute no model unit: the heuristics and the trivial solver "
                             "(milliseconds a unit) are computed, every model unit comes from "
                             "the committed JSON, the cache or --import-units, with no model "
                             "unit audited this run (the JSON's units say so); for a change "
                             "to a heuristic or to the trivial solver")


def _model_name(text: str) -> str:
    if not _MODEL_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: not a model name (letters, digits and _, e.g. g2s_rnn or g2s_rnn_s3)")
    return text


def _names_model(name: str, method: str) -> bool:
    """Whether ``--models`` entry ``name`` selects grid method ``method``: the method itself
    (``g2s_rnn_s3``) or, for a model, every seed of it (``g2s_rnn`` selects ``g2s_rnn_sK``)."""
    if method == name:
        return True
    head, _, seed = method.rpartition("_s")
    return head == name and seed.isdigit()


def _readable_file(text: str) -> Path:
    import argparse
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text}: no such file")
    return path


def _cpus() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def model_script(name: str, doc: str, argv, produce, derive, extra=None,
                 profiles=None) -> Path:
    """:func:`reproduce.harness.contract.script_main` for a model-evaluating script: the standard
    options plus :func:`add_model_options` (``extra(parser)`` adds more), torch on one thread;
    ``profiles`` replaces the standard profile choices."""
    def options(p):
        if extra is not None:
            extra(p)
        add_model_options(p)
    # no --seed: these scripts evaluate the fixed, certified instances of g2s.reference.certificates
    # and the shipped weights, so no seed would change their output
    more = {} if profiles is None else {"profiles": profiles}

    def produce_recorded(args, run):
        # the weights a JSON was made from, when not the shipped ones: its claims about a
        # trained model are then judged by the models that folder holds
        # (:func:`reproduce.harness.verdicts.recipes.with_recipes`)
        result, figure = produce(args, run)
        result["checkpoint_dir"] = _repo_relative(args.checkpoint_dir)
        return result, figure
    # every core by default: the units are independent, one torch thread each
    return script_main(name, doc, argv, produce_recorded, derive, options=options, seed=False,
                       torch_threads=1, workers=_cpus(), **more)


def _repo_relative(directory) -> str | None:
    """``--checkpoint-dir`` as recorded in a JSON: None for the shipped checkpoints, else the
    folder relative to the repository when inside it (the JSON names no local path)."""
    if directory is None:
        return None
    path = Path(directory).resolve()
    return path.relative_to(REPO_ROOT).as_posix() if path.is_relative_to(REPO_ROOT) \
        else path.name


def shipped_seeds(encoder: str, problem: str, trained_on: str, seeds, directory=None) -> dict:
    """``{f"{encoder}_s{seed}": checkpoint}`` for the seeds whose checkpoint is shipped (in
    ``directory``, default the package's checkpoint folder)."""
    from g2s.nn.checkpoints import checkpoint_path
    paths = {s: checkpoint_path(encoder, problem, trained_on, s, directory) for s in seeds}
    return {f"{encoder}_s{s}": p for s, p in paths.items() if p.exists()}


def recipe_models(problem: str, trained_on: str, directory=None) -> dict:
    """Every G2S-RNN model of ``(problem, trained_on)`` under the recipes other than the
    shipped one (:data:`g2s.rl.recipes.RECIPES`, the untrained null included), for the seeds
    of ``settings.TRAIN_TARGETS`` whose checkpoint is shipped: ``{f"g2s_rnn_{recipe}_s{seed}":
    path}`` (:func:`reproduce.harness.verdicts.recipes.model_name`).  ``directory`` (a
    ``--checkpoint-dir`` of other weights) has no variants: then none."""
    if directory is not None:
        return {}
    from g2s.nn.checkpoints import checkpoint_path
    from reproduce.harness import settings as S
    from reproduce.harness.verdicts.recipes import model_name
    out = {}
    for r in S.G2S_RECIPES.get((problem, trained_on), ()):
        if r == S.PAPER:
            continue
        for s in S.G2S_RECIPE_SEEDS[(problem, trained_on, r)]:
            out[f"{model_name(r)}_s{s}"] = checkpoint_path("g2s_rnn", problem, trained_on, s,
                                                          recipe=r)
    return out


def add_recipe_means(raw: dict, recipe_paths: dict) -> list[str]:
    """For each recipe model of ``recipe_paths`` (:func:`recipe_models`) with results in
    ``raw["instances"]``: its seeds under ``raw["seeds"][name]`` and its seed mean per
    instance (:func:`add_seed_mean`); returns the model names, in recipe order."""
    names = []
    for name, seeds in seeds_by_model(recipe_paths).items():
        ran = [s for s in seeds if any(f"{name}_s{s}" in r["results"]
                                       for r in raw["instances"])]
        if ran:
            raw.setdefault("seeds", {})[name] = ran
            add_seed_mean(raw["instances"], ran, prefix=name)
            names.append(name)
    return names


def seeds_by_model(keys) -> dict[str, list[int]]:
    """``{model: sorted seeds}`` of result keys ``MODEL_sSEED`` (as :func:`shipped_seeds`
    names them), models in first-seen order."""
    out: dict[str, list[int]] = {}
    for k in keys:
        name, seed = k.rsplit("_s", 1)
        out.setdefault(name, []).append(int(seed))
    return {name: sorted(seeds) for name, seeds in out.items()}


def add_seed_mean(instances: list, seeds, prefix: str = "g2s_rnn") -> None:
    """Add ``results[prefix]`` to each instance row that has every seed: the mean ratio of
    ``prefix_sS`` over ``seeds`` (the curve of a model trained with several seeds)."""
    for row in instances:
        got = [row["results"].get(f"{prefix}_s{s}") for s in seeds]
        if got and all(g is not None for g in got):
            row["results"][prefix] = {"ratio": float(np.mean([g["ratio"] for g in got]))}


def point_intervals(instances: list, families, models, sizes) -> dict:
    """The plotted uncertainty: ``intervals[family][model][n]``, a 95% percentile bootstrap
    interval of the point's mean ratio (:func:`reproduce.harness.verdicts.interval_seed_mean`: over
    graphs for one seed, seeds then graphs for a seed mean), with its resample count, seed and
    sample size.  A model's seeds are :func:`reproduce.harness.verdicts.seed_keys`."""
    from reproduce.harness import verdicts as rule
    out = {}
    for f in families:
        out[f] = {}
        rows = [r for r in instances if r["family"] == f]
        for m in models:
            keys = rule.seed_keys(rows, m)
            out[f][m] = {}
            for n in sizes:
                arr = rule.point_samples([r for r in rows if r["n"] == n], keys).get((f, n))
                if arr is not None:
                    rec = rule.interval_seed_mean(list(arr))
                    out[f][m][str(n)] = {k: rec[k] for k in ("estimate", "low", "high",
                                                             "confidence", "n_graphs",
                                                             "n_seeds", "n_resamples", "seed",
                                                             "method")}
    return out


def seed_spread(points: dict, sizes, seeds, prefix: str = "g2s_rnn") -> dict:
    """Per size, the per-seed mean ratios of ``prefix_sS`` and their min / max (one family's
    ``points`` as :func:`summarise` returns them), over the seeds with a point at that size."""
    out = {}
    for n in sizes:     # a seed without a point at n (``--max-n``, not imported) is left out
        per_seed = [points[f"{prefix}_s{s}"][str(n)]["mean"] for s in seeds
                    if str(n) in points.get(f"{prefix}_s{s}", {})]
        if per_seed:
            out[str(n)] = {"per_seed_mean": per_seed, "min": min(per_seed),
                           "max": max(per_seed)}
    return out


#: the training facts of a checkpoint that the figure JSONs record
META_KEYS = ("seed", "iterations", "training_time_s", "selected", "selected_iteration",
             "best_val_ratio", "final_val_ratio", "recipe")


def snapshot(paths: dict, folder: Path, tag: str) -> tuple[dict, list]:
    """Copy the present checkpoints (name -> path) into ``folder`` as ``tag_NAME``; return
    (name -> copy, names of the absent files).  Evaluating copies keeps a checkpoint that a
    training run rewrites mid-evaluation from mixing two weights under one cache key."""
    copies, missing = {}, []
    for name, path in paths.items():
        dest = Path(folder) / f"{tag}_{path.name}"
        try:
            shutil.copyfile(path, dest)
        except FileNotFoundError:
            missing.append(path.name)
            continue
        copies[name] = dest
    return copies, missing


def checkpoint_meta(path: Path) -> dict:
    """The :data:`META_KEYS` of a checkpoint's stored metadata."""
    import torch
    meta = torch.load(path, map_location="cpu", weights_only=True)["meta"]
    return {k: meta.get(k) for k in META_KEYS}


def worst_point(series: dict):
    """(worst mean, at size, largest size) of one plotted curve (``n -> {mean, ...}``); None
    when it was not run.  Ties go to the smallest size."""
    if not series:
        return None
    n, v = max(sorted(series.items(), key=lambda kv: int(kv[0])), key=lambda kv: kv[1]["mean"])
    return v["mean"], int(n), max(int(k) for k in series)


def fmt_worst(w) -> str:
    """``worst_point`` as ``"1.234@400"`` (``"absent"`` for None)."""
    return "absent" if w is None else f"{w[0]:.3f}@{w[1]}"


def sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def evaluate_unit(problem: str, family: str, n: int, index: int, method: str,
                  checkpoint: str | None, device: str, t_max: int,
                  resume: str | None = None) -> dict:
    """One method on one certified instance; the solution is checked feasible.  ``resume``:
    where Algorithm 2 keeps its resume state (:func:`g2s.algorithm2.fast.algorithm2_exact`, saved
    every 5 minutes, removed when done), so a pre-empted long unit continues; decisions are
    deterministic, so the answer does not depend on it."""
    from g2s.heuristics import ON_EDGE_ARRAYS
    from g2s.problems import check_solution
    from g2s.reference.certificates import instance_graph
    if checkpoint is None and method in ON_EDGE_ARRAYS:   # the same answer, no networkx copy
        from g2s.graphs import instance_edges
        G = instance_edges(family, n, index)
    else:
        G = instance_graph(family, n, index)
    t0 = time.time()
    if checkpoint is None and method == TRIVIAL:
        return trivial_unit(problem, family, n, index, G, t0)
    if checkpoint is None:
        from g2s.heuristics import run_heuristic
        S, info = run_heuristic(method, problem, G), {}
    else:
        from g2s.evaluate import solve_with_model
        from g2s.nn.checkpoints import load_checkpoint
        model, _ = load_checkpoint(checkpoint, device=device)
        if resume is not None:
            Path(resume).parent.mkdir(parents=True, exist_ok=True)
        # MVC's rollouts stop once another has a smaller cover: the same best solution and
        # best T (ties go to the smallest T); measured on 400-vertex graphs, 1.8x faster on
        # the bipartite and greedy-worst-case ones, 1.1x on ER and regular
        S, info = solve_with_model(model, problem, G, t_max=t_max, device=device,
                                   prune=problem == "mvc",
                                   resume=resume if model.variable_depth else None,
                                   progress=unit_progress(
                                       f"{family}/{n} graph {index} {method}", n))
    return {"objective": check_solution(problem, G, S), "best_T": info.get("best_T"),
            "time_s": round(time.time() - t0, 3), "solution": sorted(S)}


#: peak memory of one unit (Algorithm 2, one torch thread, measured when the grid was built:
#: 265 MiB at n = 400, 871 MiB at n = 3,200 with 1.9M edges, 1,303 MiB at n = 25,000 with 94k
#: edges; benchmarks/results/algorithm2.json never held these, as this comment used to say;
#: the reused buffers added later are ten (N, 16) tensors, 12 MiB at n = 25,000), rounded up: a
#: base process, per vertex (the T_max rollouts' states) and per edge (the sparse adjacency in
#: two precisions); a heuristic needs the graph only
MEMORY_BASE, MEMORY_PER_VERTEX, MEMORY_PER_EDGE = 320 * 2**20, 40 * 2**10, 400


def unit_memory(n: int, edges: int | None, model: bool) -> int:
    """The memory (bytes) a grid unit declares to the engine
    (:class:`reproduce.harness.engine.Job`); ``edges`` None (not certified yet): the densest
    family's ``n^2 / 4``."""
    m = n * n // 4 if edges is None else edges
    return MEMORY_BASE + MEMORY_PER_EDGE * m + (MEMORY_PER_VERTEX * n if model else 0)


def _edge_counts(problem: str, instances) -> dict:
    """``(family, n, index) -> edges`` from the stored certificates (None when absent)."""
    from g2s.reference.certificates import load_certificates
    stored = {f: load_certificates(problem, f) for f in {f for f, _, _ in instances}}
    return {(f, n, i): stored[f].get(f"{n}/{i}", {}).get("num_edges")
            for f, n, i in instances}


def _resume_path(run: Run, key: dict, checkpoint) -> str | None:
    """Where a model unit keeps its resume state (:meth:`UnitCache.resume_path`)."""
    path = run.cache.resume_path(key) if checkpoint is not None else None
    return None if path is None else str(path)


def evaluate_grid(run: Run, problem: str, families, sizes, count: int, methods: dict,
                  device: str = "cpu", t_max: int = 15, single: tuple = (),
                  max_size: dict | None = None) -> dict:
    """Evaluate ``methods`` (name -> checkpoint path, or None for a heuristic of that name).

    ``single`` lists families with one graph per size (the deterministic constructions);
    ``max_size`` optionally caps the sizes a method is run at (``{name: n}``; e.g. the WL
    embedding, which the paper restricts to small graphs).  Unless ``--full``, units the
    committed JSON of ``run.name`` holds are taken from it, every cheap one and a freshly
    drawn sample of the others recomputed and compared (:mod:`reproduce.harness.rebuild`);
    the result's ``units`` says how many of each and the sample's ``audit_seed``.
    """
    from g2s.problems import approximation_ratio
    from g2s.reference.certificates import reference
    from g2s.reference.formulations import better
    max_size = max_size or {}
    hashes = {m: sha(p) for m, p in methods.items() if p is not None}
    instances = [(f, n, i) for f in families for n in sizes
                 for i in range(1 if f in single else count)]
    units = [(f, n, i, m) for f, n, i in instances for m in methods
             if n <= max_size.get(m, float("inf"))]

    def key(u):
        f, n, i, m = u
        k = {"tag": CODE_TAG, "problem": problem, "family": f, "n": n, "index": i,
             "method": m, "t_max": t_max}
        if m in hashes:
            k["checkpoint"] = hashes[m]
        return k

    def args(u):
        f, n, i, m = u
        ck = None if methods[m] is None else str(methods[m])
        return (problem, f, n, i, m, ck, device, t_max)

    refs: dict = {}

    def ref_of(instance):     # the certified reference (verified when read: read each once)
        if instance not in refs:
            refs[instance] = reference(problem, *instance)
        return refs[instance]

    full = getattr(run.args, "full", True)
    committed = rebuild.committed_units(run.name, problem, t_max, CODE_TAG, DEFAULT_OUT)
    sha_of = lambda u: hashes.get(u[3])  # noqa: E731
    audit_seed = None
    if full:
        reused, check, new = {}, [], list(units)
    else:
        audit_seed = rebuild.fresh_seed()
        reused, check, new = rebuild.plan(units, sha_of, committed, audit_seed)
        # a committed unit better than today's reference is recomputed: the reference is
        # improved from its solution, which the JSON does not keep
        for u in list(reused):
            if better(problem, reused[u]["objective"], ref_of(u[:3]).objective):
                del reused[u]
                check.append(u)
    computed = [u for u in units if u not in reused]
    if getattr(run.args, "import_units", None) is not None:
        import_units(run, run.args.import_units, problem, computed, key, hashes, t_max)
    allowed = _computable(run, families, methods)
    if allowed is not None:  # the others' model units only from the cache (or the import)
        # a check is computed, never read from the cache: one this run may not compute is a
        # committed unit again
        audited = set(check)
        computed = [u for u in computed if methods[u[3]] is None or allowed(u)
                    or (u not in audited and run.cache.contains(key(u), validate_unit))]
        kept = set(computed)
        for u in audited - kept:
            reused[u] = committed[(*u, sha_of(u))]
        check = [u for u in check if u in kept]
    audited = set(check)
    todo = [u for u in computed
            if u in audited or not run.cache.contains(key(u), validate_unit)]
    times = {u[:4]: v["time_s"] for u, v in committed.items()}
    print(rebuild.describe(run.name, len(units), reused, check, new, todo, times,
                           getattr(run.args, "workers", 1), full, audit_seed), file=sys.stderr)
    edges = _edge_counts(problem, instances)
    jobs = [Job(key(u), evaluate_unit, args(u) + (_resume_path(run, key(u), methods[u[3]]),),
                memory=unit_memory(u[1], edges.get(u[:3]), methods[u[3]] is not None),
                validate=validate_unit, fresh=u in audited) for u in computed]
    results = dict(zip(computed, run_jobs(run, jobs)))
    rebuild.check_recomputed(check, lambda u: committed[(*u, sha_of(u))], results, run.name)
    for u, v in reused.items():
        results[u] = {"objective": v["objective"], "best_T": v["best_T"],
                      "time_s": v["time_s"], "solution": None,
                      **({"draws": v["draws"]} if "draws" in v else {})}
    rows = []
    for f, n, i in instances:
        ref = ref_of((f, n, i))
        found = {m: results[(f, n, i, m)] for m in methods if (f, n, i, m) in results}
        ref, improved = _never_beaten_silently(problem, f, n, i, ref, found)
        row = {"family": f, "n": n, "index": i,
               "reference": {"objective": ref.objective, "bound": ref.bound,
                             "status": ref.status, "method": ref.method,
                             "best_known_by": ref.best_known_by}, "results": {}}
        if improved is not None:
            row["reference"]["improved"] = improved
        for m in methods:
            if (f, n, i, m) not in results:
                continue
            r = {k: v for k, v in results[(f, n, i, m)].items() if k != "solution"}
            r["ratio"] = approximation_ratio(problem, r["objective"], ref.objective)
            r["ratio_vs_bound"] = approximation_ratio(problem, r["objective"], ref.bound)
            row["results"][m] = r
        rows.append(row)
    return {"problem": problem, "instances": rows, "sizes": list(sizes),
            "methods": list(methods), "hashes": hashes,
            "units": {"tag": CODE_TAG, "total": len(units), "from_committed": len(reused),
                      "recomputed_check": len(check), "computed_new": len(new),
                      "full": bool(full), "audit_seed": audit_seed,
                      # every model's committed units were audited (the seeded 10%) or recomputed
                      # only when this run could compute every model unit (--models,
                      # --families, --max-n and --heuristics-only narrow it)
                      "models_audited": allowed is None}}


def _computable(run: Run, families, methods: dict):
    """The model units this run may compute, by ``--max-n``, ``--families`` and ``--models``
    (``unit -> bool``), or None when every one may be.  An entry that selects nothing in this
    grid is said on stderr (a figure may evaluate several grids, so it is not an error)."""
    cap = getattr(run.args, "max_n", None)
    fams = getattr(run.args, "families", None)
    models = getattr(run.args, "models", None)
    if getattr(run.args, "heuristics_only", False):
        return lambda u: False
    if cap is None and fams is None and models is None:
        return None
    for name in fams or ():
        if name not in families:
            print(f"{run.name}: --families {name}: not a family of this grid "
                  f"({', '.join(families)})", file=sys.stderr)
    for name in models or ():
        if not any(_names_model(name, m) for m in methods if methods[m] is not None):
            print(f"{run.name}: --models {name}: no model of this grid has that name",
                  file=sys.stderr)

    def allowed(u) -> bool:
        f, n, _, m = u
        return ((cap is None or n <= cap) and (fams is None or f in fams)
                and (models is None or any(_names_model(x, m) for x in models)))
    return allowed


def _never_beaten_silently(problem, family, n, index, ref, found: dict):
    """The reference is never beaten silently: if a method's solution beats a reference that
    is not proven optimal, it becomes the best known (stored in the certificate, recorded as
    found by that method) and the row says so (``improved``: by whom, and the objective
    before).  Beating a proven optimum is a defect of the solver or of the check: an error.
    Returns ``(reference, improved or None)``."""
    from g2s.problems import SENSE
    from g2s.reference.certificates import record_improvement
    from g2s.reference.formulations import better
    sign = 1 if SENSE[problem] == "min" else -1  # the best first; ties: the first name
    best = min(found.items(), key=lambda kv: (sign * kv[1]["objective"], kv[0]), default=None)
    if best is None or not better(problem, best[1]["objective"], ref.objective):
        return ref, None
    method, value = best
    if ref.status == "optimal":
        raise AssertionError(f"{problem}/{family}/{n}/{index}: {method} found "
                             f"{value['objective']}, better than the proven optimum "
                             f"{ref.objective}")
    new = record_improvement(problem, family, n, index, value["solution"], method)
    return new, {"by": method, "objective_before": ref.objective}


def summarise(raw: dict, families, methods) -> dict:
    """``points[family][method][n] = {mean, std, count}`` of the ratio (absent: not run)."""
    points = {}
    for f in families:
        points[f] = {}
        for m in methods:
            points[f][m] = {}
            for n in raw["sizes"]:
                vals = [r["results"][m]["ratio"] for r in raw["instances"]
                        if r["family"] == f and r["n"] == n and m in r["results"]]
                if vals:
                    points[f][m][str(n)] = {"mean": float(np.mean(vals)),
                                            "std": float(np.std(vals)), "count": len(vals)}
    return points
