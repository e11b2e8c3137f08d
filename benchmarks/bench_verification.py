"""How long the verification loop takes: the claims check and the test suite.

Measures, in one run, the two commands every developer and CI run:

* ``python reproduce/claims.py --check --skip-pytest`` (every JSON-backed verdict re-derived
  from the committed data, the references re-checked against their certificates, the cached
  units re-validated); goal: under 30 s on a quiet 2-core machine;
* ``python -m pytest`` (the README's test command); goal: under 8 minutes there.

The machine is shared, so each command is timed beside a fixed reference workload (pure-Python
and numpy work of a fixed size, :func:`reference_workload`), run just before and just after the
command in the same process: the reported ``ratio`` is the command's seconds over the mean of
the two reference timings, which survives a busier machine better than the seconds alone (both
are recorded, with the load average).

How the check grows with the number of trained seeds (``--scaling``, in this checkout): the
seed rule on synthetic per-instance records (5 sizes x 20 graphs) with ``k`` seeds per model,
``seed_claim`` (each seed decided on its own: linear in ``k``) and ``pair_claim`` (every pair of
seeds of two models: quadratic), each as a ratio to the reference workload; and the grid
figures' verdicts against the number of training recipes (``recipe_scaling``): Figures 3 and 4
derived from their committed JSON with 0 to 4 synthetic recipe variants added (each a copy of
the shipped recipe's G2S-RNN results under the variant's name, every ratio scaled by a
different ``1 + 1e-9 j`` so that no sample repeats another, as real variant data will not).

``--root DIR`` measures another checkout (e.g. ``git worktree add /tmp/before <commit>`` for
the "before" numbers: the tree measured is put first on ``PYTHONPATH``); ``--label`` names the
entry written into ``benchmarks/results/verification.json`` (other labels in the file are
kept)::

    python benchmarks/bench_verification.py --label after
    python benchmarks/bench_verification.py --root /tmp/before --label before
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "results" / "verification.json"
CLAIMS = ("reproduce/claims.py", "--check", "--skip-pytest")
SUITE = ("-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=15")
GOALS_S = {"claims_check": 30.0, "suite": 480.0}


def reference_workload() -> float:
    """Seconds for a fixed workload like the verification's own (Python loops over dicts and
    numpy sorting and indexing): the yardstick the commands are divided by."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(0)
    for _ in range(24):
        x = rng.random(2_000_000)
        np.sort(x)
        x[rng.integers(0, x.size, 2_000_000)].sum()
    d = {}
    for i in range(9_000_000):
        d[i % 1000] = d.get(i % 1000, 0) + i
    return time.perf_counter() - t0


def _timed(cmd: list[str], root: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root), "MPLBACKEND": "Agg",
           "PYTHONDONTWRITEBYTECODE": "1"}
    ref_before = reference_workload()
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    ref_after = reference_workload()
    ref = (ref_before + ref_after) / 2
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    tail = [line for line in lines if " passed" in line or " failed" in line][-1:] or lines[-3:]
    # pytest --durations: the slowest tests, where the next speed-up is
    slowest = [line.strip() for line in lines
               if line.split()[0].endswith("s") and line.split()[0][:-1].replace(".", "").isdigit()
               and (" call " in line or " setup " in line)]
    return {"command": " ".join(cmd[1:] if cmd[0] == sys.executable else cmd),
            **({"slowest": slowest} if slowest else {}),
            "seconds": round(seconds, 1), "returncode": proc.returncode,
            "reference_seconds": [round(ref_before, 2), round(ref_after, 2)],
            "ratio": round(seconds / ref, 1), "load_average_1min_at_start": round(load, 2),
            "output_tail": tail}


def _records(seeds: int, sizes=(25, 50, 100, 200, 400), graphs: int = 20) -> list[dict]:
    rng = np.random.default_rng(0)
    rows = []
    for n in sizes:
        for i in range(graphs):
            res = {f"{m}_s{k}": {"ratio": float(1 + rng.gamma(2.0, 0.02))}
                   for m in ("a", "b") for k in range(seeds)}
            rows.append({"family": "er", "n": n, "index": i, "results": res})
    return rows


def scaling(seed_counts=(5, 10, 20)) -> list[dict]:
    """Seconds of the seed rule's two shapes of claim against the number of seeds."""
    sys.path.insert(0, str(ROOT))
    from reproduce.harness.verdicts.seeds import pair_claim, seed_claim
    out = []
    for k in seed_counts:
        rows = _records(k)
        a, b = [f"a_s{i}" for i in range(k)], [f"b_s{i}" for i in range(k)]
        ref = reference_workload()
        t0 = time.perf_counter()
        seed_claim(rows, a, 1.1)
        t1 = time.perf_counter()
        pair_claim(rows, a, b)
        t2 = time.perf_counter()
        out.append({"seeds_per_model": k, "seed_claim_seconds": round(t1 - t0, 2),
                    "pair_claim_seconds": round(t2 - t1, 2), "pairs": k * k,
                    "reference_seconds": round(ref, 2),
                    "seed_claim_ratio": round((t1 - t0) / ref, 3),
                    "pair_claim_ratio": round((t2 - t1) / ref, 3)})
    return out


def _with_variants(result: dict, recipes) -> dict:
    """``result`` with each shipped G2S-RNN seed's results copied under every recipe of
    ``recipes`` (``g2s_rnn_{recipe}_sK``), each copy's ratios scaled by ``1 + 1e-9 j``; the
    results of the variants already evaluated are left out first, so the series starts
    from the shipped recipe and the learning null alone."""
    import copy
    import re

    from g2s.rl.recipes import PAPER, RECIPES, UNTRAINED
    from reproduce.harness.verdicts.recipes import ENCODER, model_name
    out = copy.deepcopy(result)
    shipped = re.compile(rf"^{ENCODER}_s\d+$")
    evaluated = re.compile("^(" + "|".join(model_name(r) for r in RECIPES
                                           if r not in (PAPER, UNTRAINED)) + r")(_s\d+)?$")
    inst = out.get("instances", [])
    for row in (r for rows in inst.values() for r in rows) if isinstance(inst, dict) else inst:
        res = row["results"]
        for key in [k for k in res if evaluated.match(k)]:
            del res[key]
        for key in [k for k in res if shipped.match(k)]:
            for j, r in enumerate(recipes, start=1):
                got = dict(res[key])
                if isinstance(got.get("ratio"), float):
                    got["ratio"] *= 1 + 1e-9 * j
                res[key.replace(ENCODER, model_name(r), 1)] = got
    return out


def recipe_scaling(figures=("figure3", "figure4")) -> list[dict]:
    """Seconds of each grid figure's ``derive_verdicts`` against the number of recipe
    variants (synthetic, :func:`_with_variants`), each in a fresh process's state of the
    interval memo (cleared before every derivation)."""
    sys.path.insert(0, str(ROOT))
    from g2s.rl.recipes import PAPER, RECIPES, UNTRAINED
    from reproduce.claims import _load_script
    from reproduce.harness.verdicts import rule
    variants = [r for r in RECIPES if r not in (PAPER, UNTRAINED)]
    out = []
    for name in figures:
        module = _load_script(name)
        result = json.loads((ROOT / "paper_figures" / f"{name}.json").read_text())
        for k in range(len(variants) + 1):
            data = _with_variants(result, variants[:k])
            ref = reference_workload()
            rule._ENDS.clear()
            t0 = time.perf_counter()
            module.derive_verdicts(data)
            seconds = time.perf_counter() - t0
            out.append({"figure": name, "variants": k, "seconds": round(seconds, 2),
                        "reference_seconds": round(ref, 2), "ratio": round(seconds / ref, 3)})
    return out


def _commit(root: Path) -> str:
    proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                          text=True)
    return proc.stdout.strip() or "unknown"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    p.add_argument("--label", default="after", help="the entry to write (e.g. before, after)")
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--skip-suite", action="store_true", help="time the claims check only")
    p.add_argument("--scaling", action="store_true",
                   help="only time the seed rule against the number of seeds and the grid "
                        "figures' verdicts against the number of training recipes (this "
                        "checkout)")
    args = p.parse_args(argv)
    if args.scaling:
        doc = json.loads(args.out.read_text()) if args.out.exists() else {}
        doc["seed_scaling"] = scaling()
        doc["recipe_scaling"] = recipe_scaling()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(doc, indent=2) + "\n")
        print(json.dumps({k: doc[k] for k in ("seed_scaling", "recipe_scaling")}, indent=2))
        return 0
    root = args.root.resolve()
    entry = {"commit": _commit(root), "cpus": os.cpu_count(), "python": platform.python_version(),
             "claims_check": _timed([sys.executable, *CLAIMS], root)}
    if not args.skip_suite:
        entry["suite"] = _timed([sys.executable, *SUITE], root)
    entry["measured"] = time.strftime("%Y-%m-%d %H:%M:%S")
    doc = json.loads(args.out.read_text()) if args.out.exists() else {}
    doc.setdefault("goals_seconds_quiet_2_cores", GOALS_S)
    if args.skip_suite and "suite" in doc.get(args.label, {}):
        entry["suite"] = doc[args.label]["suite"]      # the claims check alone re-timed
    doc[args.label] = entry
    if "before" in doc and "after" in doc:
        doc["speedup"] = {k: round(doc["before"][k]["ratio"] / doc["after"][k]["ratio"], 1)
                          for k in GOALS_S if k in doc["before"] and k in doc["after"]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=2) + "\n")
    print(json.dumps(entry, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
