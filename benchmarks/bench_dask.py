"""The cost of the work-unit engine: Dask against the plain serial loop.

One grid of small units (Figure 3-like: G2S-RNN, Algorithm 2 with ``T_max = 15``, and the
greedy / list / matching heuristics on certified ER graphs of 25 and 50 vertices), timed in one
run as:

* ``serial_loop``: ``[evaluate_unit(*args) for args in units]``, no cache, no engine;
* ``engine_serial``: :func:`reproduce.harness.engine.run_jobs` in this process (the cache writes);
* ``dask_1``: a warm Dask ``LocalCluster`` of one single-threaded worker: the engine's
  per-unit overhead on Dask is ``(dask_1 - serial_loop) / units``;
* ``dask_2``: two warm workers: the speed-up over the serial loop;
* ``cold``: the same from nothing (cluster start-up and the workers' imports included), for
  Dask and for the local process pool (whose workers live only as long as the run).

Every run starts from an empty cache, and all give the same results (checked).  The machine's
load average is recorded before and after: on a shared 2-core machine the speed-up of two
workers is bounded by the cores the other jobs leave.

Usage: ``python benchmarks/bench_dask.py [--sizes 25 50] [--count 5] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from g2s.fsutil import atomic_write_json  # noqa: E402
from reproduce.common import Run  # noqa: E402
from reproduce.harness import engine  # noqa: E402
from reproduce.harness.grid import CODE_TAG, evaluate_unit, sha  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "dask.json"


def units(sizes, count):
    from g2s.nn.checkpoints import checkpoint_path
    ck = checkpoint_path("g2s_rnn", "mvc", "er15", 0)
    methods = {"g2s_rnn_s0": str(ck), "greedy": None, "list": None, "matching": None}
    out = []
    for n in sizes:
        for i in range(count):
            for m, path in methods.items():
                key = {"tag": CODE_TAG, "problem": "mvc", "family": "er", "n": n, "index": i,
                       "method": m, "t_max": 15, **({"checkpoint": sha(ck)} if path else {})}
                out.append((key, ("mvc", "er", n, i, m, path, "cpu", 15)))
    return out


def strip(values):
    return [{k: v for k, v in r.items() if k != "time_s"} for r in values]


def timed_jobs(grid, workers=1, scheduler=None):
    with tempfile.TemporaryDirectory() as tmp:
        args = argparse.Namespace(out=Path(tmp), cache_dir=None, no_cache=False,
                                  workers=workers, scheduler=scheduler, profile="smoke", seed=0)
        run = Run("bench", args)
        jobs = [engine.Job(k, evaluate_unit, a) for k, a in grid]
        t0 = time.perf_counter()
        values = engine.run_jobs(run, jobs, desc=f"workers={workers} {scheduler or ''}")
        return time.perf_counter() - t0, values


def note(r: dict) -> str:
    """The benchmark's finding in one paragraph, from its numbers."""
    return (f"{r['grid']['units']} units of {1000 * r['mean_unit_s']:.0f} ms on average. "
            f"Engine overhead against the serial loop: x{r['engine_serial_ratio']} in this "
            f"process (the cache writes), x{r['dask_1_worker_ratio']} on a warm 1-worker "
            f"LocalCluster ({r['dask_overhead_per_unit_ms']} ms per unit). Speed-up with 2 "
            f"local Dask workers: x{r['dask_2_workers_speedup']}. From cold (cluster start and "
            f"the workers' imports included): Dask 2 workers {r['cold_s']['dask_2_workers']} s, "
            f"process pool 2 workers {r['cold_s']['process_pool_2_workers']} s, serial loop "
            f"{r['serial_loop_s']} s warm. Shared machine with {r['cpus']} cores and load "
            f"average {r['load_average_before'][0]} -> {r['load_average_after'][0]} (a "
            f"training run at nice 10 and other jobs): the second worker finds little free "
            f"CPU, so the speed-up is bounded by the load, not by the engine; one run, noisy.")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[25, 50])
    p.add_argument("--count", type=int, default=5)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    import distributed
    import torch
    torch.set_num_threads(1)
    grid = units(args.sizes, args.count)
    load_before = os.getloadavg()
    evaluate_unit(*grid[0][1])                        # warm imports and caches
    t0 = time.perf_counter()
    reference = [evaluate_unit(*a) for _, a in grid]
    serial_loop = time.perf_counter() - t0
    engine_serial, v = timed_jobs(grid)
    assert strip(v) == strip(reference)
    res = {}
    for w in (1, 2):
        t0 = time.perf_counter()
        with distributed.LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                                      dashboard_address=":0") as cluster:
            startup = time.perf_counter() - t0
            cold, v = timed_jobs(grid, w, cluster.scheduler_address)   # workers import torch
            assert strip(v) == strip(reference)
            warm, v = timed_jobs(grid, w, cluster.scheduler_address)   # fresh cache, warm
            assert strip(v) == strip(reference)
            res[w] = {"startup": startup, "cold": startup + cold, "warm": warm}
    t0 = time.perf_counter()
    _, v = timed_jobs(grid, workers=2)
    pool_2 = time.perf_counter() - t0
    assert strip(v) == strip(reference)
    n = len(grid)
    out = {
        "grid": {"family": "er", "sizes": args.sizes, "graphs_per_size": args.count,
                 "methods": ["g2s_rnn_s0 (Algorithm 2, T_max 15)", "greedy", "list",
                             "matching"], "units": n},
        "serial_loop_s": round(serial_loop, 3),
        "mean_unit_s": round(serial_loop / n, 4),
        "engine_serial_s": round(engine_serial, 3),
        "engine_serial_ratio": round(engine_serial / serial_loop, 3),
        "dask_1_worker_s": round(res[1]["warm"], 3),
        "dask_1_worker_ratio": round(res[1]["warm"] / serial_loop, 3),
        "dask_overhead_per_unit_ms": round(1000 * (res[1]["warm"] - serial_loop) / n, 2),
        "dask_2_workers_s": round(res[2]["warm"], 3),
        "dask_2_workers_speedup": round(serial_loop / res[2]["warm"], 3),
        "dask_cluster_startup_s": {str(w): round(r["startup"], 2) for w, r in res.items()},
        "cold_s": {"dask_1_worker": round(res[1]["cold"], 3),
                   "dask_2_workers": round(res[2]["cold"], 3),
                   "process_pool_2_workers": round(pool_2, 3)},
        "identical_results": True,
        "cpus": os.cpu_count(), "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "machine": platform.machine(), "python": platform.python_version(),
        "dask": distributed.__version__, "torch": torch.__version__,
    }
    out["note"] = note(out)
    atomic_write_json(args.out, out)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
