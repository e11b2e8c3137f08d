"""One command for a GPU machine: Algorithm 2 on CUDA, checked against the CPU, timed at the
paper's scale, and the model units of the paper-scale runs.

1. **Agreement.** On small graphs (every problem, its shipped G2S-RNN; ER, 4-regular and
   bipartite) the CUDA path (:func:`g2s.algorithm2.fast.algorithm2_exact`, float64: the literal's
   operations on CUDA, each distinct state once) must return exactly the literal CPU
   algorithm's ``T_max`` solutions.  The literal runs in CPU worker processes while the GPU works.
2. **Units.** Model units run on CUDA in ``--workers`` processes that share the GPU (the work is
   launch-bound, so several processes keep it busy), in priority order, until ``--budget-s``:
   G2S-RNN under the other training recipes on Figure 2(b)'s graphs (the untrained null, each
   variant's validation-selected and median seed at 25,000 vertices, every variant seed at
   10,000: :func:`unit_list`), then Figure 2(b)'s stress table (G2S-RNN and Structure2Vec on
   sparse ER and sparse bipartite graphs with 10,000 and 25,000 vertices, average degree
   7.5), then the ``scale`` profile's
   model units of Figures 2 and 3 (800, 1,600 and 3,200 vertices).  Each finished unit is
   appended to ``units.jsonl``: its key (problem, family, n, index, checkpoint SHA-256 prefix,
   ``t_max``), the graph's fingerprint, the solution, objective, best ``T`` and seconds.  MVC
   rollouts use ``prune=True`` (answer-preserving).  Locally, :mod:`reproduce.units` imports
   them after re-checking each solution on the CPU.
3. **Timing.** Each G2S-RNN unit records its wall time; ``device_check.json`` summarises the
   whole-cover times at 3,200 and 25,000 vertices.

4. **Resume.** A G2S-RNN unit saves its rollout state every ``--save-every-s`` seconds; at the
   end of the budget the running units are stopped and their states packed into
   ``OUT/resume_states.tar``.  Unpacked into ``benchmarks/results/device_resume/`` (committed),
   they seed the next run (``--resume-dir``) on a GPU or a CPU: a state is checked against the
   graph, the model and ``t_max``, and decisions do not depend on the device (the CPU and CUDA
   covers at 10,000 vertices were the same vertex sets).

Usage (on the GPU machine, from the repository root; MPS lets the workers share the GPU)::

    nvidia-cuda-mps-control -d
    PYTHONPATH=. python benchmarks/device_check.py --out "$OUT" --budget-s 480 --workers 6 \
        --resume-dir benchmarks/results/device_resume \
        --skip-done benchmarks/results/device_units.jsonl

Writes ``OUT/device_check.json``, ``OUT/units.jsonl``, ``OUT/progress.jsonl`` (per G2S-RNN
unit: greedy steps at start and at its last saved state) and ``OUT/resume_states.tar``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

AGREE_CASES = [("er", 60), ("regular", 60), ("bipartite", 40)]
TABLE = [("sparse_er", 10_000), ("sparse_bipartite", 10_000), ("sparse_er", 25_000),
         ("sparse_bipartite", 25_000)]
SCALE_SIZES = (800, 1600, 3200)
#: the encoders whose units the list holds (G2S-RNN and the baselines of Figures 2 and 3)
ENCODERS = ("g2s_rnn", "s2v", "sage_gcn", "sage_mean", "sage_pool", "wl_nn")


def _literal_job(job):
    import torch
    torch.set_num_threads(1)
    from g2s.algorithm2.literal import algorithm2_literal
    from g2s.graphs import make_graph
    from g2s.nn.batch import batch_graphs
    from g2s.nn.checkpoints import default_checkpoint, load_checkpoint
    problem, family, n = job
    model, _ = load_checkpoint(default_checkpoint(problem))
    b = batch_graphs([make_graph(family, n, seed=5)], dtype=torch.float64)
    return job, [sorted(S) for S in algorithm2_literal(model, problem, b, 15)]


def _cuda_solutions(job, device="cuda"):
    import torch

    from g2s.algorithm2.fast import algorithm2_exact
    from g2s.graphs import make_graph
    from g2s.nn.batch import batch_graphs
    from g2s.nn.checkpoints import default_checkpoint, load_checkpoint
    problem, family, n = job
    model, _ = load_checkpoint(default_checkpoint(problem), device=device)
    b = batch_graphs([make_graph(family, n, seed=5)], device=device, dtype=torch.float64)
    st: dict = {}
    res = algorithm2_exact(model, problem, b, 15, stats=st)
    return [sorted(S) for S in res.solutions], st


def unit_list(smoke: bool = False) -> list[dict]:
    """The model units, most important first: G2S-RNN under the other training recipes on
    Figure 2(b)'s graphs (the untrained null at 10,000 vertices, each variant's
    validation-selected and median seed at 25,000, then its training target's seeds there,
    every variant seed at 10,000), the G2S-RNN
    cells of Figure 2(b) at 25,000 vertices, every shipped training seed (``intro-25k`` and
    ``fig2-table``), the ``scale`` units of G2S-RNN on ER and bipartite graphs
    (``intro-scale-3200``: 3,200 first, then 1,600 and 800), the same under the other recipes
    trained for both models (C's seeds, then the untrained null's), then the baselines' scale units
    on the same graphs (``fig2-scalability`` at scale; formerly these came after the rest of
    Figure 2(b)), then the rest of Figure 2(b) (graphs 1-2 of each cell), then Figure 3's
    scale units (the ER-15 models on the other families)."""
    from g2s.nn.checkpoints import checkpoint_path
    from g2s.rl.recipes import PAPER_READINGS
    from g2s.rl.validation import validation_seeds
    from reproduce.harness import settings as S
    units, seen = [], set()

    def add(kind, problem, family, n, index, encoder, trained_on, seed, recipe=S.PAPER):
        path = checkpoint_path(encoder, problem, trained_on, seed, recipe=recipe)
        key = (family, n, index, str(path))
        if path.exists() and key not in seen:
            seen.add(key)
            units.append({"kind": kind, "problem": problem, "family": family, "n": n,
                          "index": index, "checkpoint": str(path.relative_to(ROOT)),
                          "encoder": encoder, "seed": seed, "recipe": recipe})

    train_for = {"sparse_er": S.ER15, "sparse_bipartite": S.BIPARTITE20,
                 "er": S.ER15, "bipartite": S.BIPARTITE20}
    table, scale_sizes = ([(f, 200) for f, _ in TABLE[:2]], (50,)) if smoke \
        else (TABLE, SCALE_SIZES)
    big = max(n for _, n in table)
    small = min(n for _, n in table)
    # G2S-RNN under the other training recipes on Figure 2(b)'s graphs: the untrained null's
    # cells of the smaller size (fig2b-training-beats-untrained waits on them), then each
    # variant's validation-selected and median seed on the largest cells (a cover there is
    # hours on a CPU), then the seeds of its training target there (a variant decides a claim
    # that reads those cells only with that many of its seeds on them:
    # reproduce.harness.verdicts.recipes.with_recipes), then every variant seed on the
    # smaller cells
    variants = {f: [r for r in S.G2S_RECIPES.get(("mvc", t), ()) if r not in (S.PAPER,
                                                                               S.UNTRAINED)]
                for f, t in train_for.items() if f.startswith("sparse_")}
    targets = S.recipe_targets(*(("mvc", train_for[f]) for f in variants))
    for family, n in table:
        if n == small:
            for s in S.G2S_RECIPE_SEEDS.get(("mvc", train_for[family], S.UNTRAINED), ()):
                add("table", "mvc", family, n, 0, "g2s_rnn", train_for[family], s, S.UNTRAINED)
    for family, n in table:
        if n == big:
            for r in variants[family]:
                chosen = validation_seeds("mvc", train_for[family], r)
                for s in sorted({chosen["selected"], chosen["median"]} if chosen else ()):
                    add("table", "mvc", family, n, 0, "g2s_rnn", train_for[family], s, r)
    for family, n in table:
        if n == big:
            for r in variants[family]:
                for s in targets.get(r, ()):
                    add("table", "mvc", family, n, 0, "g2s_rnn", train_for[family], s, r)
    for family, n in table:
        if n == small:
            for r in variants[family]:
                for s in S.G2S_RECIPE_SEEDS[("mvc", train_for[family], r)]:
                    add("table", "mvc", family, n, 0, "g2s_rnn", train_for[family], s, r)
    # every shipped training seed of G2S-RNN on the largest cells (the seed is the unit of
    # replication of intro-25k), the informative sparse ER cell's seeds before the bipartite's
    for family, n in table:
        if n == big:
            for s in S.G2S_SEEDS[("mvc", train_for[family])]:
                add("table", "mvc", family, n, 0, "g2s_rnn", train_for[family], s)
    for n in sorted(scale_sizes, reverse=True):
        for i in range(3):
            for family in ("er", "bipartite"):
                for s in S.G2S_SEEDS[("mvc", train_for[family])]:
                    add("scale", "mvc", family, n, i, "g2s_rnn", train_for[family], s)
    # the same scale units under the other recipes trained for both of Figure 2's models (a
    # reading decides intro-scale-3200 only with its target's seeds on every size; the
    # readings the paper allows before the untrained null, which is shown, never counted)
    both = S.recipe_targets(("mvc", train_for["er"]), ("mvc", train_for["bipartite"]))
    for r in sorted((r for r in both if r != S.PAPER), key=lambda r: r not in PAPER_READINGS):
        for n in sorted(scale_sizes, reverse=True):
            for i in range(3):
                for family in ("er", "bipartite"):
                    for s in both[r]:
                        add("scale", "mvc", family, n, i, "g2s_rnn", train_for[family], s, r)
    for n in sorted(scale_sizes, reverse=True):
        for i in range(3):
            for family in ("er", "bipartite"):
                for b in S.BASELINES:
                    if b != "wl_embed":
                        add("scale", "mvc", family, n, i, b, train_for[family],
                            S.BASELINE_SEED)
    for index in range(3):
        for family, n in table:
            for encoder in ("g2s_rnn", "s2v"):
                add("table", "mvc", family, n, index, encoder, train_for[family], 0)
    # Figure 3's scale units (models trained on ER-15 on every family); a loop over the scale
    # sizes of its own (an earlier version reused the table's last size here by mistake)
    for n in sorted(scale_sizes, reverse=True):
        for family, count in (("regular", 3), ("bipartite", 3), ("greedy_worst", 1)):
            for i in range(count):
                for s in S.G2S_SEEDS[("mvc", S.ER15)]:
                    add("scale", "mvc", family, n, i, "g2s_rnn", S.ER15, s)
                for b in S.BASELINES:
                    if b != "wl_embed":
                        add("scale", "mvc", family, n, i, b, S.ER15, S.BASELINE_SEED)
    return units


def state_name(u: dict) -> str:
    """The file name of a unit's Algorithm 2 rollout state (resumable across runs and devices:
    the state holds the selected sets and is checked against graph, model and ``t_max``)."""
    return f"{u['family']}_{u['n']}_{u['index']}_{Path(u['checkpoint']).stem}.state"


def _sha(path) -> str:
    import hashlib
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def run_unit(u: dict, device: str, resume: Path | None = None,
             save_every_s: float = 300.0) -> dict:
    import torch

    from g2s.evaluate import solve_with_model
    from g2s.graphs import graph_fingerprint
    from g2s.nn.checkpoints import load_checkpoint
    from g2s.reference.certificates import instance_graph
    G = instance_graph(u["family"], u["n"], u["index"])
    model, _ = load_checkpoint(ROOT / u["checkpoint"], device=device)
    if device == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    S, info = solve_with_model(model, u["problem"], G, t_max=15, device=device,
                               prune=u["problem"] == "mvc", resume=resume,
                               save_every_s=save_every_s)
    secs = time.perf_counter() - t0
    return dict(u, checkpoint_sha=_sha(ROOT / u["checkpoint"]), t_max=15,
                fingerprint=graph_fingerprint(G), edges=G.number_of_edges(),
                objective=info["objective"], best_T=info["best_T"], seconds=round(secs, 3),
                device=device, solution=sorted(S))


def _state_step(path: Path) -> int | None:
    import torch
    try:
        return int(torch.load(path, weights_only=True)["step"])
    except (OSError, RuntimeError, KeyError, EOFError):
        return None


def _worker(queue, lock, path, deadline, device, state_dir, seed_dir, save_every_s):
    import shutil

    from reproduce.harness.engine import worker_start
    worker_start()      # silent on Ctrl-C, ended with the client (as every pool worker)
    import torch
    torch.set_num_threads(1)
    while time.time() < deadline:
        try:
            u = queue.get_nowait()
        except Exception:
            return
        resume = None
        if u["encoder"] == "g2s_rnn":   # Algorithm 2: resumable within the graph
            resume = state_dir / state_name(u)
            seed = seed_dir / state_name(u) if seed_dir is not None else None
            if not resume.exists() and seed is not None and seed.exists():
                shutil.copyfile(seed, resume)
            with lock, open(path.with_name("progress.jsonl"), "a") as fh:
                fh.write(json.dumps({"state": resume.name, "started": time.time(),
                                     "step": _state_step(resume) if resume.exists() else 0})
                         + "\n")
        try:
            row = run_unit(u, device, resume, save_every_s)
        except Exception as exc:   # recorded, never fatal
            row = dict(u, error=f"{type(exc).__name__}: {exc}",
                       trace=traceback.format_exc()[-2000:])
        with lock, open(path, "a") as fh:
            fh.write(json.dumps(row) + "\n")
            fh.flush()


def _progress(out: Path, state_dir: Path) -> list[dict]:
    """Per G2S-RNN unit started: greedy steps at its start and at its last saved state (or
    finished), seconds, and seconds per greedy step; the unfinished states are packed into
    ``resume_states.tar`` (a run continues from them with ``--resume-dir``)."""
    import tarfile
    prog = out / "progress.jsonl"
    rows = [json.loads(x) for x in prog.read_text().splitlines()] if prog.exists() else []
    now, res = time.time(), []
    states = sorted(state_dir.glob("*.state"))
    for r in rows:
        st = state_dir / r["state"]
        end = _state_step(st) if st.exists() else None
        res.append({"state": r["state"], "step_start": r["step"], "step_saved": end,
                    "finished": not st.exists(),
                    "seconds_since_start": round(now - r["started"], 1),
                    "saved_at": round(st.stat().st_mtime - r["started"], 1) if st.exists()
                    else None})
        if end is not None and res[-1]["saved_at"]:
            res[-1]["s_per_step"] = round(res[-1]["saved_at"] / max(1, end - r["step"]), 4)
    if states:
        with tarfile.open(out / "resume_states.tar", "w") as tar:
            for st in states:
                tar.add(st, arcname=st.name)
        for st in states:
            st.unlink()
    state_dir.rmdir()
    return res


def _done_units(path: Path) -> set:
    """The units an earlier ``units.jsonl`` finished, or one line and exit 1 naming the file
    and line when it is not one."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"device_check: --skip-done {path}: cannot read it "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    done = set()
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            if "error" not in r:
                done.add((r["family"], r["n"], r["index"], r["checkpoint"]))
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"device_check: --skip-done {path}: line {k} is not a unit "
                             "record of units.jsonl") from None
    return done


def _existing_dir(text: str) -> Path:
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is not a folder")
    return path


def _readable_file(text: str) -> Path:
    path = Path(text)
    if path.exists() and not path.is_file():
        raise argparse.ArgumentTypeError(f"{text!r} is not a file")
    return path


def build_parser() -> argparse.ArgumentParser:
    from g2s import argtypes
    # the docstring's first paragraph, whole (its first line alone stops mid-sentence)
    p = argtypes.OneLineParser(prog="benchmarks/device_check.py",
                               description=" ".join(__doc__.split("\n\n")[0].split()))
    p.add_argument("--out", type=argtypes.output_dir, required=True,
                   help="folder for the JSON outputs (created if missing)")
    p.add_argument("--budget-s", type=argtypes.time_limit, default=480,
                   help="stop starting units after this many seconds (default 480)")
    p.add_argument("--workers", type=argtypes.positive_int,
                   default=min(6, argtypes.available_cpus()), action=argtypes.WorkersAction,
                   help="GPU worker processes (default 6, or the CPUs this process may use "
                        "when fewer; at most those CPUs)")
    p.add_argument("--device", default="cuda", choices=("cuda", "cpu"),
                   help="where the units run (default cuda; cpu: a local check)")
    p.add_argument("--limit", type=argtypes.positive_int, default=None,
                   help="at most this many units (tests)")
    p.add_argument("--smoke", action="store_true", help="small graphs only (a local check)")
    p.add_argument("--encoders", nargs="+", default=None, choices=ENCODERS,
                   help="only units of these encoders")
    p.add_argument("--seeds", type=argtypes.seed, nargs="+", default=None,
                   help="only units of models with these training seeds (each must name a "
                        "shipped model's seed)")
    p.add_argument("--skip-done", type=_readable_file, default=None,
                   help="a units.jsonl of an earlier run: skip the units it finished")
    p.add_argument("--resume-dir", type=_existing_dir, default=None,
                   help="rollout states of an earlier run (state_name files) to continue from")
    p.add_argument("--save-every-s", type=argtypes.positive_float, default=20.0,
                   help="save each G2S-RNN unit's rollout state this often (seconds, > 0)")
    p.add_argument("--grace-s", type=argtypes.nonnegative_float, default=30.0,
                   help="after --budget-s, wait this long for running units, then stop them "
                        "(their states, saved every --save-every-s, come back in "
                        "resume_states.tar)")
    return p


def main(argv=None) -> dict:
    p = build_parser()
    args = p.parse_args(argv)
    import signal

    def _raise(signum, frame):
        raise KeyboardInterrupt(signal.Signals(signum).name)
    # from here on (torch's import takes seconds) a signal ends the check in one line
    signal.signal(signal.SIGTERM, _raise)
    started: list = []      # the processes to end on a signal
    try:
        return _checked_run(p, args, started)
    except KeyboardInterrupt as exc:
        for proc in started:        # the agreement pool, then the unit workers
            proc.terminate()
        for proc in started:
            if isinstance(proc, mp.process.BaseProcess):
                proc.join(10)
        name = str(exc) or "SIGINT"
        where = (f"; the finished units are in {args.out / 'units.jsonl'}, the started ones "
                 f"resume from {args.out / 'resume'}" if started else
                 " before any unit started")
        sys.stderr.write(f"device_check: interrupted by {name}{where}\n")
        raise SystemExit(128 + signal.Signals[name]) from None


def _checked_run(p, args, started: list) -> dict:
    """:func:`main` after the command line: every input checked before a process starts or a
    file is written, then :func:`_run`."""
    units = unit_list(args.smoke)
    if args.encoders:
        units = [u for u in units if u["encoder"] in args.encoders]
    if args.seeds is not None:
        have = {u["seed"] for u in units}
        missing = [s for s in args.seeds if s not in have]
        if missing:
            p.error(f"argument --seeds: no shipped model of these units has training seed "
                    f"{missing[0]} (seeds: {', '.join(map(str, sorted(have)))})")
        units = [u for u in units if u["seed"] in args.seeds]
    if args.skip_done is not None and args.skip_done.exists():
        done = _done_units(args.skip_done)
        units = [u for u in units
                 if (u["family"], u["n"], u["index"], u["checkpoint"]) not in done]
    units = units[: args.limit]
    import torch
    if args.device == "cuda" and not torch.cuda.is_available():
        raise SystemExit("device_check: no CUDA device here (torch.cuda.is_available() is "
                         "False); run it on a GPU machine, or --device cpu for a local check")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        probe = args.out / ".device_check_write_test"
        probe.write_text("x")
        probe.unlink()
    except OSError as exc:
        raise SystemExit(f"device_check: --out {args.out}: cannot write there "
                         f"({exc.strerror or exc})") from None
    t_start = time.time()
    deadline = t_start + args.budget_s
    info = {"device": args.device, "torch": torch.__version__, "python": platform.python_version(),
            "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
            "cpu_count": os.cpu_count()}
    print(info, flush=True)
    return _run(args, units, info, t_start, deadline, started)


def _run(args, units, info, t_start, deadline, started) -> dict:
    """The agreement check and the units on their workers (``started``: every process, for
    :func:`main` to end on a signal)."""
    from reproduce.harness.engine import signals_held, worker_start
    ctx = mp.get_context("spawn")
    cases = [(f, n // 3) for f, n in AGREE_CASES] if args.smoke else AGREE_CASES
    jobs = [(pr, f, n) for pr in ("mvc", "maxcut", "mis") for f, n in cases]
    with signals_held():    # a worker inherits the mask until worker_start
        pool = ctx.Pool(min(len(jobs), max(1, (os.cpu_count() or 2) - args.workers - 1)),
                        initializer=worker_start)
    started.append(pool)
    literal = pool.map_async(_literal_job, jobs)
    # the units start at once; agreement is checked while they run
    queue, lock = ctx.Queue(), ctx.Lock()
    for u in units:
        queue.put(u)
    path = args.out / "units.jsonl"
    state_dir = args.out / "resume"
    state_dir.mkdir(exist_ok=True)
    procs = [ctx.Process(target=_worker, args=(queue, lock, path, deadline, args.device,
                                               state_dir, args.resume_dir, args.save_every_s))
             for _ in range(args.workers)]
    with signals_held():
        for pr in procs:
            pr.start()
    started.extend(procs)
    agree = []
    t0 = time.time()
    cuda = {job: _cuda_solutions(job, args.device) for job in jobs}
    info["agreement_cuda_s"] = round(time.time() - t0, 2)
    for job, lit in literal.get():
        sols, st = cuda[job]
        agree.append({"problem": job[0], "family": job[1], "n": job[2],
                      "identical": sols == lit, "decisions": st})
    pool.close()
    info["agreement"] = agree
    info["all_identical"] = all(a["identical"] for a in agree)
    print({k: info[k] for k in ("all_identical", "agreement_cuda_s")}, flush=True)
    (args.out / "device_check.json").write_text(json.dumps(info, indent=1) + "\n")
    for pr in procs:
        pr.join(max(0.0, deadline + args.grace_s - time.time()))
    for pr in procs:                 # a unit still running: its state was saved recently
        if pr.is_alive():
            pr.kill()
            pr.join()
    info["progress"] = _progress(args.out, state_dir)
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    done = [r for r in rows if "error" not in r]
    info["units_planned"], info["units_done"] = len(units), len(done)
    info["unit_errors"] = [{k: r[k] for k in ("family", "n", "index", "checkpoint", "error")}
                           for r in rows if "error" in r][:20]
    info["cover_seconds"] = [{k: r[k] for k in ("family", "n", "index", "encoder", "seconds",
                                                "objective", "edges")}
                             for r in done if r["encoder"] in ("g2s_rnn", "s2v")
                             and r["n"] >= 3200]
    info["wall_s"] = round(time.time() - t_start, 1)
    (args.out / "device_check.json").write_text(json.dumps(info, indent=1) + "\n")
    print({k: info[k] for k in ("units_planned", "units_done", "wall_s")}, flush=True)
    return info


if __name__ == "__main__":
    main()
