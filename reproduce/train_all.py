"""Train every checkpoint the figures need that is not shipped yet (resumable).

The targets come from :data:`reproduce.settings.TRAIN_TARGETS`: for each (encoder, problem,
training set), the training seeds a verdict should rest on (issue 13: at least three for every
model).  Each missing checkpoint is trained with ``g2s train`` using the training configuration
of its shipped seed-0 sibling (read from that checkpoint's JSON sidecar) with only the seed
changed, written where :func:`g2s.checkpoints.checkpoint_path` says.  ``g2s train`` resumes
from ``OUT.resume.pt``, so a killed run continues where it stopped; finished checkpoints are
skipped.  Trainings run one after another (``--workers N`` runs N at once).

Usage::

    python reproduce/train_all.py --list          # what is missing, cheapest first
    python reproduce/train_all.py [--workers 1] [--only g2s_rnn] [--nice 10]
"""

from __future__ import annotations

import argparse
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
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--list", action="store_true", help="print the targets and exit")
    p.add_argument("--workers", type=int, default=1, help="trainings at once (default 1)")
    p.add_argument("--only", nargs="*", default=None, help="only these encoders")
    p.add_argument("--nice", type=int, default=0, help="run trainings at this niceness")
    args = p.parse_args(argv)
    todo = [t for t in targets() if not t["done"]
            and (args.only is None or t["encoder"] in args.only)]
    if args.list:
        for t in targets():
            print(f"{'done' if t['done'] else 'todo'}  {t['path'].name}  "
                  f"(seed 0 took {t['minutes']:.0f} min)")
        return 0

    def train(t):
        cmd = command(t)
        print("training", t["path"].name, flush=True)
        rc = subprocess.call(cmd, preexec_fn=(lambda: os.nice(args.nice)) if args.nice else None)
        print("finished" if rc == 0 else f"failed ({rc})", t["path"].name, flush=True)
        return rc

    with ThreadPoolExecutor(max(1, args.workers)) as pool:
        codes = list(pool.map(train, todo))
    return int(any(codes))


if __name__ == "__main__":
    sys.exit(main())
