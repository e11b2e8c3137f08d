"""The contract every reproduce script follows (see DESIGN.md, "Contracts").

``python reproduce/NAME.py [--profile smoke|ci|paper] [--out DIR] [--seed N] [--workers N]
[--scheduler ADDRESS]``
writes ``NAME.png``, ``NAME.pdf`` and ``NAME.json`` into ``--out`` (default ``paper_figures/``).
The JSON holds every plotted number plus provenance: profile, seed, package version, git commit
and wall time.  Finished units of long work are cached on disk (:class:`UnitCache`), keyed by
everything that determines them and written atomically, so a killed run loses nothing.

A script that backs ledger claims defines ``derive_verdicts(result) -> {claim_id: {...}}``: a
pure function of the JSON it wrote, so ``reproduce/claims.py --check`` can re-derive each verdict
from the committed numbers instead of trusting a stored string.

Scripts import these names through :mod:`reproduce.common`; the harness imports this module.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from g2s import argtypes
from g2s.argtypes import OneLineParser
from g2s.fsutil import atomic_write_bytes, atomic_write_json
from g2s.fsutil import jsonable as _jsonable
from g2s.reference.certificates import CertificateError
from reproduce.harness.engine import CONNECT_TIMEOUT_S, probe_scheduler, scheduler_address

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO_ROOT / "paper_figures"
PROFILES = ("smoke", "ci", "paper")
VERDICTS = ("confirmed", "qualified", "refuted", "seed-dependent", "undecided", "inconclusive",
            "uninformative", "not-reproduced", "pending", "recorded")


def make_parser(name: str, description: str, seed: bool = True,
                profiles: tuple = PROFILES, workers: int = 1) -> argparse.ArgumentParser:
    """The standard command line of a reproduce script.  ``seed=False`` leaves out ``--seed``
    for a script whose output no seed changes (its evaluation graphs are fixed, certified
    instances), so the option cannot suggest otherwise.  ``profiles``: the profiles the script
    offers (Figures 2 and 3 add ``scale``)."""
    p = OneLineParser(prog=f"reproduce/{name}.py", description=description)
    text = "smoke: seconds (CI); ci: minutes on 2 cores (default); paper: full scale"
    if "scale" in profiles:
        text += ("; scale: 800-3,200 vertices, 3 graphs per size (model units from a GPU via "
                 "--import-units; --max-n keeps a CPU run from computing them)")
    p.add_argument("--profile", choices=profiles, default="ci", help=text)
    p.add_argument("--out", type=argtypes.output_dir, default=DEFAULT_OUT,
                   help="output directory for NAME.png/.pdf/.json (default: paper_figures/)")
    if seed:
        p.add_argument("--seed", type=argtypes.seed, default=0,
                       help="master random seed (default: 0)")
    p.add_argument("--workers", type=argtypes.positive_int, default=workers,
                   action=argtypes.WorkersAction,
                   help=f"worker processes for independent units of work (default: {workers}; "
                        "at most the CPUs this process may use)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", type=scheduler_address,
                   help="run the units on a Dask cluster: a scheduler's address "
                        "(tcp://HOST:8786), or 'local' for a LocalCluster of --workers "
                        "processes (needs the cluster extra; see reproduce/harness/engine.py); "
                        f"connecting gives up after {CONNECT_TIMEOUT_S} s")
    p.add_argument("--cache-dir", type=argtypes.output_dir, default=None,
                   help="cache of finished work units (default: OUT/.cache/NAME)")
    p.add_argument("--no-cache", action="store_true", help="recompute every unit of work")
    return p


def git_commit() -> str:
    """The current commit, with ``+dirty`` when the tree has changes; ``unknown`` outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True,
                              text=True, check=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=REPO_ROOT, capture_output=True, text=True, timeout=10).stdout
        return head + ("+dirty" if dirty.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def package_version() -> str:
    try:
        import g2s
        return g2s.__version__
    except ImportError:  # pragma: no cover - the package is always importable in this repo
        return "unknown"


class UnitCache:
    """On-disk cache of finished units of work, one JSON file per unit, written atomically.

    The key is a dict of everything that determines the unit (problem, family, size, seed,
    profile-independent settings, code version tag); it is hashed into the file name.  Each
    entry stores its key and a SHA-256 of key and value; an entry that fails either check, or
    the caller's ``validate``, is recomputed with a warning instead of being trusted.
    """

    def __init__(self, root: Path | None, enabled: bool = True):
        self.root = Path(root) if root is not None else None
        self.enabled = enabled and root is not None

    def _path(self, key: dict) -> Path:
        blob = json.dumps(_jsonable(key), sort_keys=True).encode()
        digest = hashlib.sha256(blob).hexdigest()[:24]
        return self.root / f"{digest}.json"

    @staticmethod
    def _checksum(key: Any, value: Any) -> str:
        blob = json.dumps({"key": key, "value": value}, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()

    def _load(self, key: dict, validate=None):
        """``(True, value)`` for a sound entry; ``(False, None)`` when absent.  A corrupt entry
        (unreadable, wrong shape, another key, checksum mismatch, or refused by ``validate``)
        is reported in one warning line and treated as absent, so it is recomputed."""
        p = self._path(key)
        if not p.exists():
            return False, None
        try:
            entry = json.loads(p.read_bytes())
            if not isinstance(entry, dict) or not {"key", "value", "sha256"} <= set(entry):
                raise ValueError("not a cache entry (no key/value/sha256)")
            if entry["key"] != _jsonable(key):
                raise ValueError("written for another key")
            if entry["sha256"] != self._checksum(entry["key"], entry["value"]):
                raise ValueError("checksum mismatch (edited or damaged)")
            problem = validate(key, entry["value"]) if validate is not None else None
            if problem:
                raise ValueError(problem)
        except (ValueError, UnicodeDecodeError, TypeError, KeyError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"warning: corrupt cache entry {p} ({reason}); recomputing", file=sys.stderr)
            return False, None
        return True, entry["value"]

    def contains(self, key: dict, validate=None) -> bool:
        """Whether a sound finished unit for ``key`` is on disk (always False when disabled)."""
        return self.enabled and self._load(key, validate)[0]

    def resume_path(self, key: dict, suffix: str = ".pt") -> Path | None:
        """Where a long unit keeps its own resume state (``ROOT/resume/DIGEST.pt``, beside the
        cache, so a worker that shares the cache shares it); None when disabled."""
        return self.root / "resume" / (self._path(key).stem + suffix) if self.enabled else None

    def load(self, key: dict, validate=None) -> tuple[bool, Any]:
        """``(True, value)`` for a sound finished unit, else ``(False, None)`` (also when
        disabled)."""
        return self._load(key, validate) if self.enabled else (False, None)

    def put(self, key: dict, value: Any) -> Any:
        """Cache ``value`` for ``key`` (atomically; nothing when disabled); return it as
        stored (plain JSON types)."""
        return self._write(key, value) if self.enabled else _jsonable(value)

    def _write(self, key: dict, value: Any) -> Any:
        value, k = _jsonable(value), _jsonable(key)
        atomic_write_json(self._path(key), {"key": k, "value": value,
                                            "sha256": self._checksum(k, value)})
        return value

    def get_or_compute(self, key: dict, fn: Callable[[], Any], validate=None) -> Any:
        """The cached value of ``key``, else ``fn()`` (then cached).  ``validate(key, value)``
        returns why a cached value cannot be trusted (a string), or None."""
        if self.enabled:
            ok, value = self._load(key, validate)
            if ok:
                return value
        return self._write(key, fn()) if self.enabled else _jsonable(fn())


class Run:
    """Bookkeeping for one reproduce run: timing, provenance, and writing the three outputs."""

    def __init__(self, name: str, args: argparse.Namespace):
        self.name = name
        self.args = args
        self.t0 = time.time()
        # the tree the run starts from: its own writes to a committed unit cache (a figure
        # whose cache ships, such as Figure 2's scale run) must not make it read as dirty
        self.commit = git_commit()
        self.out = Path(args.out)
        cache_dir = args.cache_dir if args.cache_dir is not None else self.out / ".cache" / name
        self.cache = UnitCache(cache_dir, enabled=not args.no_cache)

    def provenance(self) -> dict:
        return {
            "script": f"reproduce/{self.name}.py",
            "profile": self.args.profile,
            "seed": getattr(self.args, "seed", None),
            "workers": self.args.workers,
            "scheduler": getattr(self.args, "scheduler", None),
            "package_version": package_version(),
            "git_commit": self.commit,
            "python": sys.version.split()[0],
            "wall_time_s": round(time.time() - self.t0, 3),
        }

    def write(self, result: dict, fig=None, derive: Callable[[dict], dict] | None = None) -> Path:
        """Write NAME.json (result + provenance [+ verdicts]) and, if given, NAME.png/NAME.pdf."""
        self.out.mkdir(parents=True, exist_ok=True)
        payload = dict(result)
        beaten = reference_beaten(payload)
        if beaten is not None:
            payload["reference_beaten"] = beaten
        payload["provenance"] = self.provenance()
        if derive is not None:
            # derive from exactly what the JSON file will hold (sorted keys, plain types), so
            # reproduce/claims.py re-deriving from the file gets the same answer, ties included
            as_written = json.loads(json.dumps(_jsonable(payload), sort_keys=True))
            payload["verdicts"] = derive(as_written)
        if fig is not None:
            for ext in ("png", "pdf"):  # written like the JSON: atomically, umask permissions
                buf = io.BytesIO()
                fig.savefig(buf, dpi=150, bbox_inches="tight", format=ext)
                atomic_write_bytes(self.out / f"{self.name}.{ext}", buf.getvalue())
        path = self.out / f"{self.name}.json"
        atomic_write_json(path, payload)
        print(f"wrote {path} ({payload['provenance']['wall_time_s']:.1f} s)")
        return path


def _instance_rows(payload: dict) -> list | None:
    """The evaluation rows of a figure JSON (``instances``: a list, or a dict of lists keyed by
    family or problem), or ``None`` when it has none with a reference."""
    inst = payload.get("instances")
    rows = inst if isinstance(inst, list) else \
        [r for v in inst.values() if isinstance(v, list) for r in v] \
        if isinstance(inst, dict) else []
    rows = [r for r in rows if isinstance(r, dict) and isinstance(r.get("reference"), dict)]
    return rows or None


def reference_beaten(payload: dict) -> dict | None:
    """How many rows' references a method beat (it then became the best known,
    :func:`reproduce.harness.grid.evaluate_grid`): the count a reader must see, whose target is
    zero; ``None`` for a JSON without evaluation rows."""
    rows = _instance_rows(payload)
    if rows is None:
        return None
    beaten = [{"family": r.get("family"), "n": r.get("n"), "index": r.get("index"),
               **r["reference"]["improved"]} for r in rows if r["reference"].get("improved")]
    return {"count": len(beaten), "rows": len(rows), "instances": beaten}


def verdict(kind: str, **values: Any) -> dict:
    """One derived verdict: ``{"verdict": kind, **values}`` (values feed the ledger's evidence)."""
    if kind not in VERDICTS:
        raise ValueError(f"unknown verdict {kind!r}; expected one of {VERDICTS}")
    return {"verdict": kind, **values}


def use_agg_backend() -> None:
    import matplotlib
    matplotlib.use("Agg")


def script_main(name: str, doc: str, argv, produce: Callable, derive: Callable | None = None,
                options: Callable | None = None, seed: bool = True,
                torch_threads: int | None = None, profiles: tuple = PROFILES,
                workers: int = 1) -> Path:
    """The entry of every reproduce script: parse the standard command line
    (:func:`make_parser`; ``options(parser)`` adds the script's own), optionally pin torch to
    ``torch_threads``, select the Agg backend, then ``result, fig = produce(args, run)`` and
    write NAME.json (with ``derive``'s verdicts), NAME.png and NAME.pdf."""
    p = make_parser(name, doc.splitlines()[0], seed=seed, profiles=profiles, workers=workers)
    if options is not None:
        options(p)
    args = p.parse_args(argv)
    if args.scheduler is not None:  # fail now, not after the work before the pool opens
        probe_scheduler(args.scheduler)
    if getattr(args, "device", "cpu") != "cpu":  # likewise: CUDA absent, or no such GPU
        args.device = _usable_device(f"reproduce/{name}.py", args.device)
    with interruptible(f"reproduce/{name}.py"):
        if torch_threads is not None:
            import torch
            torch.set_num_threads(torch_threads)
        use_agg_backend()
        run = Run(name, args)
        try:
            result, fig = produce(args, run)
        except CertificateError as exc:   # a stored certificate unreadable or not checking out
            raise SystemExit(f"reproduce/{name}.py: {' '.join(str(exc).split())}") from None
        return run.write(result, fig=fig, derive=derive)


def _usable_device(prog: str, name: str) -> str:
    """``name`` as torch names it (``cpu:0`` is ``cpu``), or one line and exit 1 when it
    cannot be used here.  Unchecked, a missing GPU surfaced only when the first checkpoint was
    loaded onto it, after the heuristics and references had run, as a traceback calling the
    checkpoint "truncated or corrupt"."""
    from g2s.nn.device import resolve_device
    try:
        return str(resolve_device(name))
    except ValueError as exc:
        raise SystemExit(f"{prog}: {exc}") from None


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM reached a script (:func:`interruptible`); ``signum`` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_interrupted(signum, frame):
    raise Interrupted(signum)


@contextlib.contextmanager
def interruptible(prog: str):
    """Ctrl-C (SIGINT) and SIGTERM inside the block end the script with one line on stderr
    and exit ``128 + signal`` (130, 143), never a traceback.  The signal unwinds the block as
    an exception, so a process pool open in it ends its workers on the way out
    (:meth:`reproduce.harness.engine.LocalPool.shutdown`) and every unit finished before it is
    already in the cache: a rerun resumes."""
    main = threading.current_thread() is threading.main_thread()
    previous = {}
    if main:
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, _raise_interrupted)
    try:
        yield
    except KeyboardInterrupt as exc:
        if main:     # a second signal while exiting must not print a traceback either
            for sig in previous:
                signal.signal(sig, signal.SIG_IGN)
        signum = getattr(exc, "signum", signal.SIGINT)
        print(f"{prog}: interrupted by {signal.Signals(signum).name}; finished units are "
              "cached, a rerun resumes", file=sys.stderr, flush=True)
        raise SystemExit(128 + signum) from None
    finally:
        if main and signal.getsignal(signal.SIGINT) is _raise_interrupted:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
