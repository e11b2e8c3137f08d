"""Where units of work run: this process, a local process pool, or a Dask cluster.

Every grid of units in ``reproduce/`` (:func:`reproduce.harness.grid.evaluate_grid` and Figures 2,
3, 4, 6; Theorem 1's sweep; Appendix D.3's units; ``train_all.py``) runs through :func:`open_pool`
and :func:`run_jobs`, chosen by two options:

* ``--workers 1`` (default): one unit after another in this process;
* ``--workers N``: a local process pool (``concurrent.futures``, spawn).  It stays the
  default for one machine: it needs nothing beyond the core dependencies, and from cold
  (start-up and the workers' imports included) it finished the benchmark grid no later than a
  2-worker Dask ``LocalCluster`` (``benchmarks/results/dask.json``);
* ``--scheduler ADDRESS`` (``tcp://HOST:8786``): the units go to a running Dask scheduler
  (``pip install -e ".[cluster]"``); ``--scheduler local`` starts a Dask ``LocalCluster``
  of ``--workers`` single-threaded worker processes (to use Dask's dashboard on one machine).
  A malformed or empty address is a command-line error (exit 2, :func:`scheduler_address`); a
  scheduler that cannot be reached, or a server there that does not answer as a Dask
  scheduler, is one line on stderr and exit 1 within :data:`CONNECT_TIMEOUT_S` seconds.

Same results anywhere: a unit is a module-level function of its arguments, cached under a key
of everything that determines it (:class:`reproduce.harness.contract.UnitCache`), and it uses no
global state, so its result does not depend on the worker or the order.  This process (the client)
writes each result atomically as it arrives, so a killed client resumes from the cache; Dask
re-runs only the units a lost worker held.  Values are returned in submission order.  A Dask
worker refuses to run a unit when its sources differ from the client's
(:func:`reproduce.harness._worker.code_digest`), so a stale checkout cannot mix two code versions.

Memory: every job declares its peak memory in bytes (:attr:`Job.memory`).  When the workers
advertise a ``memory`` resource (``dask worker --resources memory=8e9``; ``--scheduler local``
gives each worker its memory limit) a running unit holds that much of it, so two
25,000-vertex units are never scheduled together on a worker too small for both, and a unit
larger than every worker's ``memory`` is refused before anything is submitted.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from g2s.optional import reraise_interrupt

__all__ = ["LOCAL", "DEFAULT_MEMORY", "Job", "open_pool", "run_jobs", "unit_progress", "DaskPool",
           "LocalPool", "worker_start", "signals_held",
           "CONNECT_TIMEOUT_S", "DEFAULT_PORT", "scheduler_address", "probe_scheduler"]

REPO_ROOT = Path(__file__).resolve().parents[2]
#: ``--scheduler local``: start a Dask LocalCluster in this process
LOCAL = "local"
#: seconds to reach a Dask scheduler and finish Dask's handshake with it; past them the
#: command fails in one line (a server that accepts the connection but never answers would
#: otherwise keep the client waiting for minutes)
CONNECT_TIMEOUT_S = 10
#: a Dask scheduler's port when the address names none
DEFAULT_PORT = 8786
_ADDRESS = re.compile(r"(?:(?P<scheme>tcp|tls)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)"
                      r"(?::(?P<port>[0-9]{1,5}))?/?")


def scheduler_address(text: str) -> str:
    """``--scheduler``'s value (an argparse type): ``local`` or ``[tcp|tls://]HOST[:PORT]``."""
    if text == LOCAL:
        return text
    if not text.strip():
        raise argparse.ArgumentTypeError("the address is empty; give tcp://HOST:PORT, or "
                                         "'local' for a LocalCluster")
    m = _ADDRESS.fullmatch(text)
    if m is None or not 1 <= int(m["port"] or DEFAULT_PORT) <= 65535:
        raise argparse.ArgumentTypeError(f"{text[:60]!r} is not a scheduler address; give "
                                         "tcp://HOST:PORT, or 'local' for a LocalCluster")
    return text


def probe_scheduler(address: str) -> None:
    """Exit 1 with one line unless something accepts TCP connections at ``address`` within
    :data:`CONNECT_TIMEOUT_S` seconds (``local`` needs no probe).  Scripts call it right after
    parsing, so a refused or unreachable address fails at once, not after the work that comes
    before the pool is opened (Dask itself retries a refused port until its timeout)."""
    if address == LOCAL:
        return
    m = _ADDRESS.fullmatch(address)
    host, port = m["host"].strip("[]"), int(m["port"] or DEFAULT_PORT)
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        raise SystemExit(f"--scheduler {address}: cannot connect "
                         f"({exc.strerror or type(exc).__name__})") from None


def _connect(distributed, address: str):
    """A Dask client of the scheduler at ``address``, or one line and exit 1 within
    :data:`CONNECT_TIMEOUT_S` seconds (refused, unreachable, or not a Dask scheduler)."""
    probe_scheduler(address)
    box: dict = {}

    def attempt():
        try:
            box["client"] = distributed.Client(address, timeout=f"{CONNECT_TIMEOUT_S}s")
        except BaseException as exc:  # noqa: BLE001 - a strange answer raises anything
            box["error"] = exc

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT_S)
    if "client" in box:
        return box["client"]
    if thread.is_alive():
        reason = f"no Dask scheduler answered within {CONNECT_TIMEOUT_S} s"
    else:
        exc = box["error"]
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:120]
        reason = f"not a Dask scheduler? {type(exc).__name__}: {first}"
    raise SystemExit(f"--scheduler {address}: cannot connect ({reason})")


#: the memory a job declares when it does not say (a Python process with numpy, torch loaded)
DEFAULT_MEMORY = 512 * 2**20


@dataclass
class Job:
    """One unit of work: ``fn(*args)`` (``fn`` importable at module level), cached under
    ``key`` (None: not cached) and re-checked by ``validate(key, value)`` when read back;
    ``fresh``: always computed, never read from the cache (an audit of committed results must
    not be vouched for by a cache entry), the result still cached."""
    key: dict | None
    fn: Callable
    args: tuple = ()
    memory: int = DEFAULT_MEMORY
    validate: Callable | None = None
    fresh: bool = False


#: what Dask's nanny sets in every worker (``distributed.nanny.pre-spawn-environ``): one thread
#: per numerical library, since the workers already fill the cores (several OpenMP threads
#: per worker spin against each other: figure3 --profile smoke took 15 min instead of 25 s
#: with 2 workers on the loaded 2-core machine)
SINGLE_THREAD_ENV = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                     "OPENBLAS_NUM_THREADS": "1"}


#: the signals a worker starts with blocked, and that it ignores (SIGINT) or dies of
_HELD = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def signals_held():
    """Block SIGINT and SIGTERM in this thread while workers may be started: a worker
    inherits the mask, so a Ctrl-C during its seconds of start-up (before
    :func:`worker_start`) cannot break its imports with a traceback; a signal to this
    process meanwhile is delivered once the block ends (or to another thread at once)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    # The resource tracker starts with the first worker, and unblocks SIGINT and SIGTERM in
    # this thread after it has started, which would leave the workers that follow unprotected:
    # it is started first, outside the block.
    from multiprocessing import resource_tracker
    resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def worker_start() -> None:
    """A local pool worker's start: one thread per numerical library; Ctrl-C ignored (the
    terminal sends it to the whole process group: the client ends the workers itself, so
    none prints a traceback of its own); and, on Linux, SIGTERM when the client dies, so a
    client killed outright leaves no worker computing."""
    import os
    os.environ.update(SINGLE_THREAD_ENV)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):   # started with them blocked (signals_held)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)    # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no prctl: best effort
            pass


class LocalPool:
    """The local process pool (spawn, so torch and threads start clean in every worker; one
    thread per worker, as Dask's workers), whose workers never outlive a signal to the client
    (:func:`worker_start`, :meth:`shutdown`); every script that starts processes uses it."""

    def __init__(self, workers: int):
        from multiprocessing import get_context
        with signals_held():
            self.pool = cf.ProcessPoolExecutor(workers, mp_context=get_context("spawn"),
                                               initializer=worker_start)

    def submit(self, fn, *args, memory: int | None = None):
        with signals_held():   # a worker may be started here
            return self.pool.submit(fn, *args)

    @staticmethod
    def as_completed(futures):
        return cf.as_completed(futures)

    def shutdown(self):
        """Wait for the workers to finish; while an exception propagates (Ctrl-C, SIGTERM, a
        failed unit) end them at once instead, so no worker and, once they are gone, no
        resource tracker outlives the client."""
        if sys.exc_info()[0] is None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            return
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        manager = getattr(self.pool, "_executor_manager_thread", None)
        for proc in processes:
            proc.terminate()
        self.pool.shutdown(wait=False, cancel_futures=True)
        # A worker still starting holds SIGTERM blocked until worker_start (signals_held), and
        # its start takes seconds, more on a loaded machine; the pool's manager thread, and
        # the interpreter's exit after it, wait for every worker without a limit.  So a
        # worker not gone after a short grace is killed outright.
        grace = time.monotonic() + 2.0
        for proc in processes:
            proc.join(max(0.0, grace - time.monotonic()))
        for proc in processes:
            if proc.is_alive():
                proc.kill()
                proc.join(10)
        # The pool's manager thread closes its wake-up pipe as it ends; the interpreter's exit
        # hook writes to that pipe, so it must find the thread already gone (else a write to
        # the closed pipe prints a traceback after the one-line message).
        if manager is not None and manager.is_alive():
            manager.join(10)


class DaskPool:
    """A Dask client (to ``address``, or to a LocalCluster of ``workers`` processes) with the
    interface of :class:`concurrent.futures.Executor` that the scripts use."""

    def __init__(self, address: str, workers: int = 1):
        try:
            import distributed
        except ImportError as exc:
            reraise_interrupt(exc)
            raise SystemExit('--scheduler needs Dask: pip install -e ".[cluster]"') from None
        from reproduce.harness import _worker
        self._distributed, self._call = distributed, _shipped_by_value(_worker.call)
        self.digest = _worker.code_digest(str(REPO_ROOT))
        self.cluster = None
        if address == LOCAL:
            from distributed.system import MEMORY_LIMIT
            per = int(MEMORY_LIMIT // workers)
            self.cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, memory_limit=per,
                resources={"memory": per})
            self.client = distributed.Client(self.cluster)
        else:
            self.client = _connect(distributed, scheduler_address(address))
        self._capacity = None
        print(f"dask: scheduler {self.client.scheduler.address}, dashboard "
              f"{self.client.dashboard_link}", file=sys.stderr, flush=True)

    def memory_capacity(self) -> int:
        """The largest ``memory`` resource of a worker (0 when the workers declare none);
        waits for the first worker to join."""
        if self._capacity is None:
            info = self.client.scheduler_info(n_workers=-1)["workers"]
            if not info:
                print("dask: waiting for a worker to join", file=sys.stderr, flush=True)
                self.client.wait_for_workers(1)
                info = self.client.scheduler_info(n_workers=-1)["workers"]
            caps = [w.get("resources", {}).get("memory", 0) for w in info.values()]
            self._capacity = int(max(caps)) if all(caps) else 0
            if not self._capacity:
                print("dask: the workers declare no 'memory' resource, so units are not "
                      "packed by memory (dask worker --resources memory=BYTES)",
                      file=sys.stderr, flush=True)
        return self._capacity

    def submit(self, fn, *args, memory: int | None = None):
        from dask.base import tokenize
        need, kw = int(memory or DEFAULT_MEMORY), {}
        cap = self.memory_capacity()
        if cap:
            if need > cap:
                raise SystemExit(f"a unit of {fn.__name__} declares {need / 2**30:.2f} GiB, more "
                                 f"than any worker's memory resource ({cap / 2**30:.2f} GiB)")
            kw["resources"] = {"memory": need}
        target = f"{fn.__module__}:{fn.__qualname__}"
        return self.client.submit(self._call, str(REPO_ROOT), self.digest, target, args,
                                  key=f"{fn.__name__}-{tokenize(target, args)}", **kw)

    def as_completed(self, futures):
        return self._distributed.as_completed(futures)

    def shutdown(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _shipped_by_value(fn):
    """A copy of ``fn`` (which uses no module globals) that plain pickle cannot name, so Dask
    sends its code (cloudpickle) and neither the scheduler nor a worker imports ``reproduce``
    to unpickle a task."""
    import builtins
    import types
    return types.FunctionType(fn.__code__, {"__builtins__": builtins, "__name__": "__main__"},
                              fn.__name__, fn.__defaults__)


def open_pool(args) -> LocalPool | DaskPool | None:
    """The pool ``args`` ask for (``--scheduler``, ``--workers``); None: run in this process.
    The caller calls ``shutdown()`` when done."""
    scheduler, workers = getattr(args, "scheduler", None), getattr(args, "workers", 1)
    if scheduler:
        return DaskPool(scheduler, workers)
    return LocalPool(workers) if workers > 1 else None


def run_jobs(run, jobs: list[Job], desc: str | None = None, pool=None) -> list[Any]:
    """The values of ``jobs``, in order: sound cached ones read back, the rest computed by
    ``pool`` (default: :func:`open_pool` of ``run.args``, opened only when something is
    missing) and cached by this process as each arrives, with a progress bar."""
    from tqdm import tqdm
    values, todo = [None] * len(jobs), []
    for i, job in enumerate(jobs):
        found, value = run.cache.load(job.key, job.validate) \
            if job.key is not None and not job.fresh else (False, None)
        if found:
            values[i] = value
        else:
            todo.append(i)
    if not todo:
        return values
    own = pool is None
    pool = open_pool(run.args) if own else pool
    bar = tqdm(total=len(jobs), initial=len(jobs) - len(todo), desc=desc or run.name)
    try:
        if pool is None:
            for i in todo:
                values[i] = _store(run, jobs[i], jobs[i].fn(*jobs[i].args))
                bar.update()
        else:
            futures = [pool.submit(jobs[i].fn, *jobs[i].args, memory=jobs[i].memory)
                       for i in todo]
            index = {id(f): i for f, i in zip(futures, todo)}
            for fut in pool.as_completed(futures):
                i = index[id(fut)]
                values[i] = _store(run, jobs[i], fut.result())
                bar.update()
    finally:
        bar.close()
        if own and pool is not None:
            pool.shutdown()
    return values


def unit_progress(label: str, n: int, every_s: float | None = None):
    """A ``progress(step, running)`` callback for Algorithm 2 inside a unit (a worker
    process): every ``every_s`` seconds one line on standard error with the greedy steps made
    (at most one per vertex of the ``n``), since the run's bar counts whole units and a cover
    of 25,000 vertices is hours on a CPU.  The line starts on a line of its own (the bar's
    line is unfinished).  Default period: that of Algorithm 2's resume state."""
    if every_s is None:
        from g2s.algorithm2.fast import SAVE_EVERY_S
        every_s = SAVE_EVERY_S
    start = last = time.monotonic()
    resumed_at: list[int] = []

    def report(step: int, running: int) -> None:
        nonlocal last
        if not resumed_at:          # the first call: the step a resume state starts from
            resumed_at.append(step)
            return
        now = time.monotonic()
        if now - last < every_s:
            return
        last = now
        since = f", resumed at step {resumed_at[0]:,}" if resumed_at[0] else ""
        print(f"\n{label}: greedy step {step:,} of at most {n:,}, {running} rollouts running "
              f"({(now - start) / 60:.0f} min{since})", file=sys.stderr, flush=True)
    return report


def _store(run, job: Job, value):
    return run.cache.put(job.key, value) if job.key is not None else value
