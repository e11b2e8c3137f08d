"""Regenerate every figure of the paper, then the claims ledger, with one command.

The steps run in an order that respects what each reads:

* the evaluation grids first (Figures 2, 3, 4, 6 and their variants): a method that beats a
  stored reference records the better solution in the certificates
  (:mod:`g2s.reference.certificates`), which every later step reads;
* then the scripts that read those certificates without evaluating methods on them
  (Appendix D.3's depth curves, the timed program's best known), and the ones that read none;
* last the ledger (``claims.py``), re-deriving every verdict and writing CLAIMS.md,
  RESULTS.md and the README's findings.

A grid figure written before another one improved a reference it shares (the same certified
graph in two figures) no longer matches the certificate; after the grids, every grid JSON is
compared with the certificates (:func:`reproduce.harness.rederive.drift`) and each stale one is
written again -- cheaply, since the grid figures rebuild from their committed units and only
the reference changes -- until none is stale (at most ``--passes`` times).

Each step is the script's own command line (printed before it runs, so a step can be run by
hand), with ``--workers`` passed on where the script takes it.  A step that fails stops the
run with one line naming it (exit 1); ``--from STEP`` continues from there (the scripts keep
their finished units in their caches, so an interrupted step resumes too).  ``--dry-run``
prints the steps and exits.

Usage::

    python reproduce/all.py                    # every figure, then the ledger
    python reproduce/all.py --dry-run          # the steps, in order
    python reproduce/all.py --from figure6     # resume at a step
    python reproduce/all.py --only figure3 figure4 --full
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

if not __package__:  # run as python reproduce/all.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from g2s import argtypes  # noqa: E402
from reproduce.common import OneLineParser  # noqa: E402
from reproduce.figure2b_parts.config import UNITS_DIR as FIGURE2B_UNITS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "paper_figures"

#: every step: (name, script, extra arguments, JSON it writes, whether it evaluates a grid of
#: methods on certified graphs and rebuilds from its committed units)
STEPS = (
    ("figure2", "figure2.py", (), "figure2.json", True),
    ("figure2_scale", "figure2.py",
     ("--profile", "scale", "--max-n", "400",
      "--import-units", "benchmarks/results/device_units.jsonl",
      "--out", "paper_figures/figure2_scale"), "figure2_scale/figure2.json", True),
    ("figure3", "figure3.py", (), "figure3.json", True),
    ("figure3_early20k", "figure3.py",
     ("--checkpoint-dir", "g2s/checkpoints/early20k", "--out", "paper_figures/figure3_early20k"),
     "figure3_early20k/figure3.json", True),
    ("figure4", "figure4.py", (), "figure4.json", True),
    ("figure4_early20k", "figure4.py",
     ("--checkpoint-dir", "g2s/checkpoints/early20k", "--out", "paper_figures/figure4_early20k"),
     "figure4_early20k/figure4.json", True),
    ("figure6", "figure6.py", (), "figure6.json", True),
    ("figure2b", "figure2b.py", ("--cache-dir", str(FIGURE2B_UNITS.relative_to(ROOT))),
     "figure2b.json", False),
    ("appendix_d3", "appendix_d3.py", (), "appendix_d3.json", False),
    # the paper's 240 s cut-off (about 100 CPU-minutes; its units are cached per program run)
    ("timed_program", "timed_program.py", ("--profile", "paper"), "timed_program.json", False),
    ("figure5", "figure5.py", (), "figure5.json", False),
    ("theorem1", "theorem1.py", (), "theorem1.json", False),
    ("claims", "claims.py", (), None, False),
)
NAMES = tuple(s[0] for s in STEPS)
#: the scripts that take --workers (every figure script; the ledger does not)
_NO_WORKERS = {"claims"}


def command(step: tuple, workers: int | None, full: bool) -> list[str]:
    name, script, extra, _, grid = step
    cmd = [sys.executable, str(Path("reproduce") / script), *extra]
    if workers is not None and name not in _NO_WORKERS:
        cmd += ["--workers", str(workers)]
    if full and grid:
        cmd.append("--full")
    return cmd


def stale_references(step: tuple) -> list[str]:
    """The rows of a grid JSON whose reference no longer matches the stored certificate."""
    from reproduce.harness.rederive import reference_mismatches
    path = FIGURES / step[3]
    if not path.exists():
        return [f"{path.relative_to(ROOT)} is missing"]
    return reference_mismatches(json.loads(path.read_text()))


def build_parser() -> OneLineParser:
    p = OneLineParser(prog="reproduce/all.py", description=__doc__.splitlines()[0])
    p.add_argument("--dry-run", action="store_true", help="print the steps in order and exit")
    p.add_argument("--from", dest="start", choices=NAMES, default=None, metavar="STEP",
                   help="start at this step (after an interrupted run); steps: "
                        + ", ".join(NAMES))
    p.add_argument("--only", nargs="+", choices=NAMES, default=None, metavar="STEP",
                   help="run only these steps (in the order above)")
    p.add_argument("--workers", type=argtypes.positive_int, default=None,
                   action=argtypes.WorkersAction,
                   help="passed to every figure script (default: each script's own; at most "
                        "the CPUs this process may use)")
    p.add_argument("--full", action="store_true",
                   help="the grid figures recompute every unit instead of rebuilding from the "
                        "committed ones (hours)")
    p.add_argument("--passes", type=argtypes.positive_int, default=3,
                   help="at most this many rewrites of grid figures whose references another "
                        "grid improved (default 3)")
    return p


class StepInterrupted(Exception):
    """A step ended by SIGINT / SIGTERM (to it, or to this process and passed on to it)."""

    def __init__(self, step: str, signum: int):
        super().__init__(step)
        self.step, self.signum = step, signum


#: what a step's exit status is when a signal ended it: its own one-line exit 128 + signal,
#: or the signal itself (negative) when it died before installing its handler
_INTERRUPTED = {128 + signal.SIGINT: signal.SIGINT, 128 + signal.SIGTERM: signal.SIGTERM,
                -signal.SIGINT: signal.SIGINT, -signal.SIGTERM: signal.SIGTERM}
def _call(cmd: list[str], step: str) -> int:
    """Run one step; SIGINT / SIGTERM to this process is passed on to it (Ctrl-C at a
    terminal reaches it anyway), and once it has exited, :class:`StepInterrupted`."""
    got: list[int] = []
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def forward(signum, frame):
        got.append(signum)
        if proc.poll() is None:
            proc.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        rc = proc.wait()      # the step ends its own workers first (one line, 130 / 143)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if got or rc in _INTERRUPTED:
        raise StepInterrupted(step, got[0] if got else _INTERRUPTED[rc])
    return rc


def _run(step: tuple, args, index: int, total: int) -> None:
    cmd = command(step, args.workers, args.full)
    shown = " ".join(["python", *cmd[1:]])
    print(f"[{index}/{total}] {step[0]}: {shown}", flush=True)
    t0 = time.time()
    rc = _call(cmd, step[0])
    if rc != 0:
        sys.exit(f"reproduce/all.py: step {step[0]} failed (exit {rc}); fix it and continue "
                 f"with --from {step[0]}")
    print(f"[{index}/{total}] {step[0]} done in {(time.time() - t0) / 60:.1f} min", flush=True)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    steps = [s for s in STEPS if args.only is None or s[0] in args.only]
    if args.start is not None:
        names = [s[0] for s in steps]
        if args.start not in names:
            parser.error(f"argument --from: {args.start} is not one of the --only steps "
                         f"({', '.join(names)})")
        steps = steps[names.index(args.start):]
    if args.dry_run:
        for i, step in enumerate(steps, 1):
            print(f"[{i}/{len(steps)}] {step[0]}: "
                  + " ".join(["python", *command(step, args.workers, args.full)[1:]]))
        return 0
    last_grid = max((i for i, s in enumerate(steps) if s[4]), default=None)
    try:
        for i, step in enumerate(steps):
            _run(step, args, i + 1, len(steps))
            if i == last_grid:
                _refresh_stale(steps, args)
    except StepInterrupted as exc:
        print(f"reproduce/all.py: interrupted by {signal.Signals(exc.signum).name} during "
              f"{exc.step}; continue with --from {exc.step}", file=sys.stderr, flush=True)
        return 128 + exc.signum
    except KeyboardInterrupt:      # between steps
        print("reproduce/all.py: interrupted; continue with --from the step shown last",
              file=sys.stderr, flush=True)
        return 130
    return 0


def _refresh_stale(steps: list, args) -> None:
    """Rewrite the grid figures whose references a later grid improved, until none is stale."""
    grids = [s for s in steps if s[4]]
    for attempt in range(args.passes + 1):
        stale = [(s, bad) for s in grids if (bad := stale_references(s))]
        if not stale:
            return
        if attempt == args.passes:
            sys.exit(f"reproduce/all.py: grid references still changing after {args.passes} "
                     "passes; run again with --only and the grid steps")
        for j, (step, bad) in enumerate(stale, 1):
            print(f"{step[0]}: {len(bad)} reference(s) improved since it was written "
                  f"({bad[0]}); writing it again", flush=True)
            _run(step, args, j, len(stale))


if __name__ == "__main__":
    sys.exit(main())
