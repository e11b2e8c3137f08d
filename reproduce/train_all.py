"""Train every checkpoint the figures need that is not shipped yet (resumable).

The targets come from :data:`reproduce.settings.TRAIN_TARGETS`: for each (encoder, problem,
training set), the training seeds a verdict should rest on (issue 13: at least three for every
model).  Each missing checkpoint is trained with ``g2s train`` using the training configuration
of its shipped seed-0 sibling (read from that checkpoint's JSON sidecar) with only the seed
changed, written where :func:`g2s.checkpoints.checkpoint_path` says.  ``g2s train`` resumes
from ``OUT.resume.pt``, so a killed run continues where it stopped; finished checkpoints are
skipped.  Trainings run one after another (``--workers N`` runs N at once); ``--scheduler
ADDRESS`` sends each training to a Dask cluster as one job (``--scheduler local``: a
LocalCluster of ``--workers`` processes; see :mod:`reproduce.engine`).  A worker then runs
``g2s train`` on the shared checkout, so a pre-empted worker's training saves its resume point
(the training gets SIGTERM when its worker dies) and continues where it stopped on the worker
Dask re-runs it on; each training declares :data:`TRAIN_MEMORY`.

Usage::

    python reproduce/train_all.py --list          # what is missing, cheapest first
    python reproduce/train_all.py [--workers 1] [--only g2s_rnn] [--nice 10]
    python reproduce/train_all.py --scheduler tcp://HOST:8786
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

if not __package__:  # run as python reproduce/train_all.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from g2s.checkpoints import checkpoint_path  # noqa: E402
from reproduce import settings as S  # noqa: E402

#: the memory one training declares to a Dask cluster: the model, a 50,000-transition replay
#: buffer and exact validation on 15-22 vertices (a running ER-15 training peaks near 400 MiB)
TRAIN_MEMORY = 2**30


def targets() -> list[dict]:
    """Every (encoder, problem, trained_on, seed) of TRAIN_TARGETS, with its template config."""
    out = []
    for (encoder, problem, trained_on), seeds in S.TRAIN_TARGETS.items():
        template = checkpoint_path(encoder, problem, trained_on, 0).with_suffix(".json")
        meta = json.loads(template.read_text())
        for seed in seeds:
            path = checkpoint_path(encoder, problem, trained_on, seed)
            out.append({"encoder": encoder, "problem": problem, "trained_on": trained_on,
                        "seed": seed, "path": path, "config": meta["train_config"],
                        "minutes": meta.get("training_time_s", 0) / 60,
                        "done": path.exists() and path.with_suffix(".json").exists()})
    return sorted(out, key=lambda t: (t["done"], t["encoder"] != "g2s_rnn", t["minutes"]))


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


def main(argv=None) -> int:
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    p.add_argument("--list", action="store_true", help="print the targets and exit")
    p.add_argument("--workers", type=int, default=1, help="trainings at once (default 1)")
    p.add_argument("--only", nargs="*", default=None, help="only these encoders")
    p.add_argument("--nice", type=int, default=0, help="run trainings at this niceness")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run each training as a job on this Dask scheduler (tcp://HOST:8786), "
                        "or 'local' for a LocalCluster of --workers processes")
    args = p.parse_args(argv)
    todo = [t for t in targets() if not t["done"]
            and (args.only is None or t["encoder"] in args.only)]
    if args.list:
        for t in targets():
            print(f"{'done' if t['done'] else 'todo'}  {t['path'].name}  "
                  f"(seed 0 took {t['minutes']:.0f} min)")
        return 0

    if args.scheduler:
        return int(any(_on_dask(args, todo)))
    with ThreadPoolExecutor(max(1, args.workers)) as pool:
        codes = list(pool.map(functools.partial(train_target, nice=args.nice), todo))
    return int(any(codes))


def train_target(t: dict, nice: int = 0) -> int:
    """Train one target (``g2s train``, which resumes from ``OUT.resume.pt``); its exit code.
    Also the job a Dask worker runs."""
    print("training", t["path"].name, flush=True)
    rc = subprocess.call(command(t), preexec_fn=functools.partial(_prepare_child, nice))
    print("finished" if rc == 0 else f"failed ({rc})", t["path"].name, flush=True)
    return rc


def _prepare_child(nice: int) -> None:
    """In the training process: lower its priority, and (Linux) ask for SIGTERM when the
    process that started it dies, so the training saves its resume point instead of running on
    unowned (``prctl(PR_SET_PDEATHSIG)``)."""
    if nice:
        os.nice(nice)
    if sys.platform.startswith("linux"):
        import ctypes
        import signal
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)


def _on_dask(args, todo: list[dict]) -> list[int]:
    """Every target as one job on the Dask cluster of ``--scheduler``; the exit codes."""
    from reproduce.engine import DaskPool
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
