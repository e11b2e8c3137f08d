"""Train every checkpoint the figures need that is not shipped yet (resumable).

The targets come from :data:`reproduce.harness.settings.TRAIN_TARGETS`: for each (encoder,
problem, training set, recipe), the training seeds a verdict should rest on (at least three for
every model). Each missing checkpoint is trained with ``g2s train`` using the training
configuration of its shipped seed-0 sibling of the shipped recipe (read from that checkpoint's
JSON sidecar) with the recipe's settings applied (:func:`g2s.rl.recipes.resolve_recipe`) and
only the seed changed, written where :func:`g2s.nn.checkpoints.checkpoint_path` says. G2S-RNN
comes first, seed by seed across models and recipes (seed 0 of every one before seed 1 of any,
MVC on ER-15 first), so an unfinished round still compares the recipes on equal numbers of
seeds. ``g2s train`` resumes from ``OUT.resume.pt``, so a killed run continues where it stopped;
finished checkpoints are skipped. Trainings run one after another (``--workers N`` runs N at
once); ``--scheduler ADDRESS`` sends each training to a Dask cluster as one job (``--scheduler
local``: a LocalCluster of ``--workers`` processes; see :mod:`reproduce.harness.engine`). A
worker then runs ``g2s train`` on the shared checkout, so a pre-empted worker's training saves
its resume point (the training gets SIGTERM when its worker dies) and continues where it stopped
on the worker Dask re-runs it on; each training declares :data:`TRAIN_MEMORY`.

Interruption: each training runs in its own process group, so Ctrl-C (SIGINT) or SIGTERM
reaches this script alone, which passes it on once to every running training (each saves a
resume point where it is and exits), starts no further one, and exits ``128 + signal`` with
one line on stderr.  Options are checked when parsed (exit 2, one line).

Usage::

    python reproduce/train_all.py --list          # what is missing, cheapest first
    python reproduce/train_all.py [--workers 1] [--only g2s_rnn] [--nice 10]
    python reproduce/train_all.py --models mvc_er15 --workers 2   # one model's seeds first
    python reproduce/train_all.py --scheduler tcp://HOST:8786
    python reproduce/train_all.py --select-defaults   # choose g2s solve's checkpoints

``--select-defaults`` trains nothing: it writes ``g2s/checkpoints/defaults.json``, the G2S-RNN
checkpoint per problem that ``g2s solve --method g2s`` uses, chosen across every recipe the
paper allows and every seed by one Algorithm 2 validation
(:func:`g2s.rl.validation.select_default_checkpoints`), with every score in
``defaults_selection.json``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

if not __package__:  # run as python reproduce/train_all.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from g2s import argtypes  # noqa: E402
from g2s.nn.checkpoints import checkpoint_path  # noqa: E402
from g2s.rl.recipes import RECIPES, resolve_recipe  # noqa: E402
from reproduce.common import OneLineParser  # noqa: E402
from reproduce.harness import settings as S  # noqa: E402
from reproduce.harness.engine import (  # noqa: E402
    CONNECT_TIMEOUT_S,
    probe_scheduler,
    scheduler_address,
)

#: the memory one training declares to a Dask cluster: the model, a 50,000-transition replay
#: buffer and exact validation on 15-22 vertices (a running ER-15 training peaks near 400 MiB)
TRAIN_MEMORY = 2**30


def held(path: Path) -> Path:
    """Where a finished training is held back from the shipped folder: a shipped checkpoint
    joins ``settings.G2S_SEEDS`` at once, so one finished between two regenerations of the
    figures waits in ``pending/`` (its README says when to move it)."""
    return path.parent / "pending" / path.name


def _finished(path: Path) -> bool:
    return path.exists() and path.with_suffix(".json").exists()


def targets() -> list[dict]:
    """Every (encoder, problem, trained_on, recipe, seed) of TRAIN_TARGETS, with its config:
    the shipped seed-0 sibling's, with the recipe applied."""
    out = []
    order = list(RECIPES)
    for (encoder, problem, trained_on, recipe), seeds in S.TRAIN_TARGETS.items():
        template = checkpoint_path(encoder, problem, trained_on, 0).with_suffix(".json")
        meta = json.loads(template.read_text())
        config = resolve_recipe({**meta["train_config"], "recipe": recipe}, recipe)
        for seed in seeds:
            path = checkpoint_path(encoder, problem, trained_on, seed, recipe=recipe)
            out.append({"encoder": encoder, "problem": problem, "trained_on": trained_on,
                        "recipe": recipe, "seed": seed, "path": path, "config": config,
                        "minutes": meta.get("training_time_s", 0) / 60,
                        "done": _finished(path) or _finished(held(path))})
    return sorted(out, key=lambda t: (t["done"], t["encoder"] != "g2s_rnn", t["seed"],
                                      (t["problem"], t["trained_on"]) != ("mvc", S.ER15),
                                      order.index(t["recipe"]), t["minutes"]))


def command(t: dict) -> list[str]:
    """The ``g2s train`` command of one target: its template's config, its own seed."""
    cmd = [sys.executable, "-m", "g2s.train", "--encoder", t["encoder"], "--out", str(t["path"]),
           "--seed", str(t["seed"]), "--threads", "1", "--no-progress"]
    for key, value in t["config"].items():
        if key in ("seed", "device"):
            continue
        flag = "--" + key.replace("_", "-")
        cmd += [flag, ("true" if value else "false") if isinstance(value, bool) else str(value)]
    return cmd


#: the niceness range a training may be given: lowering it below 0 needs privileges and would
#: take the machine from other work
NICE_RANGE = (0, 19)


def _niceness(text: str) -> int:
    value = argtypes.nonnegative_int(text) if not text.lstrip().startswith("-") else -1
    if not NICE_RANGE[0] <= value <= NICE_RANGE[1]:
        raise argparse.ArgumentTypeError(f"must be an integer from {NICE_RANGE[0]} to "
                                         f"{NICE_RANGE[1]}, got {text[:40]!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    encoders = sorted({encoder for encoder, *_ in S.TRAIN_TARGETS})
    p = OneLineParser(prog="reproduce/train_all.py", description=__doc__.splitlines()[0])
    p.add_argument("--list", action="store_true", help="print the targets and exit")
    p.add_argument("--select-defaults", action="store_true",
                   help="train nothing; choose the checkpoint per problem that 'g2s solve "
                        "--method g2s' uses, by Algorithm 2 on the validation graphs across "
                        "every recipe the paper allows and every seed (defaults.json, with "
                        "every score in defaults_selection.json), and exit")
    p.add_argument("--workers", type=argtypes.positive_int, default=1,
                   action=argtypes.WorkersAction,
                   help="trainings at once (default 1; at most the CPUs this process may use)")
    p.add_argument("--only", nargs="+", default=None, choices=encoders, metavar="ENCODER",
                   help=f"only these encoders ({', '.join(encoders)})")
    p.add_argument("--models", nargs="+", default=None, metavar="TEXT",
                   help="only the targets whose checkpoint name contains one of these (e.g. "
                        "mvc_er15: the model most figures read, trained first)")
    p.add_argument("--recipes", nargs="+", default=None, choices=list(RECIPES),
                   metavar="RECIPE",
                   help="only these training recipes (" + ", ".join(
                       f"{r.name}: {r.summary}" for r in RECIPES.values()) + ")")
    p.add_argument("--nice", type=_niceness, default=0,
                   help=f"run trainings at this niceness ({NICE_RANGE[0]} to {NICE_RANGE[1]}, "
                        "default 0)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", type=scheduler_address,
                   help="run each training as a job on this Dask scheduler (tcp://HOST:8786), "
                        "or 'local' for a LocalCluster of --workers processes; connecting "
                        f"gives up after {CONNECT_TIMEOUT_S} s")
    return p


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.select_defaults:
        import torch

        from g2s.rl.validation import select_default_checkpoints
        # 50-vertex graphs: one thread is as fast, and on a loaded machine several threads
        # per process thrash (measured: minutes per checkpoint instead of seconds)
        torch.set_num_threads(1)
        for problem, name in select_default_checkpoints(progress=True).items():
            print(f"{problem}: {name}")
        return 0
    if args.scheduler is not None and not args.list:
        probe_scheduler(args.scheduler)
    every = targets()
    if args.models is not None:
        unknown = [m for m in args.models if not any(m in t["path"].name for t in every)]
        if unknown:
            parser.error(f"argument --models: no target's checkpoint name contains "
                         f"{unknown[0][:40]!r}")
    todo = [t for t in every if not t["done"]
            and (args.only is None or t["encoder"] in args.only)
            and (args.recipes is None or t["recipe"] in args.recipes)
            and (args.models is None or any(m in t["path"].name for m in args.models))]
    if args.list:
        try:
            for t in every:
                print(f"{'done' if t['done'] else 'todo'}  {t['path'].name}  "
                      f"(seed 0 took {t['minutes']:.0f} min)")
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped (``--list | head``): not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

    if args.scheduler:
        try:
            return int(any(_on_dask(args, todo)))
        except KeyboardInterrupt:
            print("train_all: interrupted; the trainings on the cluster keep their resume "
                  "points, rerun to continue", file=sys.stderr)
            return 130
    with _Interruptible() as stop:
        with ThreadPoolExecutor(args.workers) as pool:
            codes = list(pool.map(functools.partial(train_target, nice=args.nice), todo))
    if stop.signum is not None:
        print(f"train_all: interrupted by {signal.Signals(stop.signum).name}; each running "
              "training saved a resume point, rerun to continue", file=sys.stderr)
        return 128 + stop.signum
    return int(any(codes))


class _Interruptible:
    """SIGINT and SIGTERM handlers (main thread only) that pass the first signal on to every
    running training once and stop new ones from starting; the handlers are restored on exit."""

    def __init__(self):
        self.signum = None
        self.previous = {}

    def __enter__(self):
        _RUNNING.stop = None
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.previous[sig] = signal.signal(sig, self._on_signal)
        return self

    def _on_signal(self, signum, frame):
        if self.signum is None:  # a repeated signal is not passed on: it would stop a
            self.signum = signum  # training before it saved its resume point
            _RUNNING.stop_all(signum)

    def __exit__(self, *exc):
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        return False


class _Running:
    """The trainings started by this process, so a signal can be passed on to each once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.procs = set()
        self.stop = None

    def start(self, cmd, nice):
        with self.lock:
            if self.stop is not None:
                return None
            proc = subprocess.Popen(cmd, preexec_fn=functools.partial(_prepare_child, nice))
            self.procs.add(proc)
            return proc

    def stop_all(self, signum):
        with self.lock:
            self.stop = signum
            for proc in self.procs:
                if proc.poll() is None:
                    proc.send_signal(signum)

    def done(self, proc):
        with self.lock:
            self.procs.discard(proc)


_RUNNING = _Running()
#: exit codes of a training that a signal stopped after saving its resume point
_INTERRUPTED = {128 + signal.SIGINT, 128 + signal.SIGTERM, -signal.SIGINT, -signal.SIGTERM}


def train_target(t: dict, nice: int = 0) -> int:
    """Train one target (``g2s train``, which resumes from ``OUT.resume.pt``); its exit code.
    Also the job a Dask worker runs."""
    proc = _RUNNING.start(command(t), nice)
    if proc is None:  # interrupted before this one started
        return 0
    print("training", t["path"].name, flush=True)
    try:
        rc = proc.wait()
    finally:
        _RUNNING.done(proc)
    print("finished" if rc == 0 else "interrupted" if rc in _INTERRUPTED else f"failed ({rc})",
          t["path"].name, flush=True)
    return rc


def _prepare_child(nice: int) -> None:
    """In the training process: its own process group (a terminal's Ctrl-C reaches this
    script alone, which passes it on once: a second signal would stop the training before it
    saved), a lower priority, and (Linux) SIGTERM when the thread that started it dies, so the
    training saves its resume point instead of running on unowned
    (``prctl(PR_SET_PDEATHSIG)``)."""
    os.setpgid(0, 0)
    if nice:
        os.nice(nice)
    if sys.platform.startswith("linux"):
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)


def _on_dask(args, todo: list[dict]) -> list[int]:
    """Every target as one job on the Dask cluster of ``--scheduler``; the exit codes."""
    from reproduce.harness.engine import DaskPool
    pool = DaskPool(args.scheduler, args.workers)
    try:
        futures = [pool.submit(train_target, t, args.nice, memory=TRAIN_MEMORY) for t in todo]
        names = {id(f): t["path"].name for f, t in zip(futures, todo)}
        codes = []
        for f in pool.as_completed(futures):
            codes.append(f.result())
            print("finished" if codes[-1] == 0 else f"failed ({codes[-1]})", names[id(f)],
                  flush=True)
        return codes
    finally:
        pool.shutdown()


if __name__ == "__main__":
    sys.exit(main())
