"""Figure 3 (arXiv:1802.04948, Section 5.1): MVC with models trained on ER-15 graphs.

Panels: (left) the worst-case graphs for greedy, (centre) random 4-regular graphs, (right)
random bipartite graphs (p = 0.75), sizes 25 ... 3,200.  Each point is the mean and standard
deviation of the approximation ratio (method / reference, >= 1 is worse) over the evaluation
instances of :mod:`g2s.certificates`; the reference is the certified CP-SAT result (the
paper's Gurobi with a cut-off), and the JSON also gives each ratio against the proven bound.
Curves: G2S-RNN (Algorithm 2, T_max = 15) as the mean over the shipped MVC seeds with the
per-seed spread, and the greedy, list and matching heuristics.

Usage: ``python reproduce/figure3.py [--profile smoke|ci|paper] [--retrain] [--device cpu]``;
``--retrain`` first retrains the MVC checkpoints with their recorded settings.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from reproduce.common import Run, make_parser, use_agg_backend, verdict

NAME = "figure3"
PROBLEM = "mvc"
FAMILIES = ("greedy_worst", "regular", "bipartite")
TITLES = {"greedy_worst": "worst case for greedy", "regular": "random 4-regular",
          "bipartite": "random bipartite (p = 0.75)"}
#: profile -> (sizes, instances per size; greedy_worst has one graph per size)
PROFILES = {"smoke": ((25, 50), 2), "ci": ((25, 50, 100, 200, 400), 3),
            "paper": ((25, 50, 100, 200, 400, 800, 1600, 3200), 20)}
HEURISTICS = ("greedy", "list", "matching")
MVC_SEEDS = (0, 1, 2)
T_MAX = 15
CLAIM_WITHIN = "fig3-g2s-within-10pct"
CLAIM_HEUR = "fig3-g2s-beats-heuristics"
CODE_TAG = "fig3-v1"


def checkpoint_paths() -> dict:
    from g2s.evaluate import CHECKPOINT_DIR
    return {s: CHECKPOINT_DIR / f"g2s_rnn_mvc_er15_s{s}.pt" for s in MVC_SEEDS}


def checkpoint_summary() -> dict:
    """Seed, iterations, training time and validation ratios of each MVC checkpoint used."""
    import json
    out = {}
    for path in checkpoint_paths().values():
        m = json.loads(path.with_suffix(".json").read_text())
        out[path.name] = {k: m[k] for k in ("seed", "iterations", "training_time_s", "selected",
                                            "selected_iteration", "best_val_ratio",
                                            "final_val_ratio")}
    return out


def _sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def heuristic_solution(method: str, G):
    from g2s.heuristics import list_heuristic, min_vertex_cover_greedy, min_vertex_cover_matching
    if method == "greedy":
        return min_vertex_cover_greedy(G)
    if method == "list":
        return list_heuristic(PROBLEM, G)
    return min_vertex_cover_matching(G)


def evaluate_instance(family: str, n: int, index: int, method: str, ckpt: str | None,
                      device: str) -> dict:
    """One unit: a method on one certified instance; the solution is checked feasible."""
    import time

    from g2s.certificates import instance_graph
    from g2s.problems import check_solution
    G = instance_graph(family, n, index)
    t0 = time.time()
    if ckpt is None:
        S = heuristic_solution(method, G)
        info = {}
    else:
        from g2s.evaluate import load_checkpoint, solve_with_model
        model, _ = load_checkpoint(ckpt, device=device)
        S, info = solve_with_model(model, PROBLEM, G, t_max=T_MAX, device=device)
    return {"objective": check_solution(PROBLEM, G, S), "best_T": info.get("best_T"),
            "time_s": round(time.time() - t0, 3)}


def _unit(args):
    return evaluate_instance(*args)


def compute(run: Run, device: str) -> dict:
    from tqdm import tqdm

    from g2s.certificates import reference
    from g2s.problems import approximation_ratio
    sizes, count = PROFILES[run.args.profile]
    ckpts = checkpoint_paths()
    hashes = {s: _sha(p) for s, p in ckpts.items()}
    methods = [f"g2s_rnn_s{s}" for s in MVC_SEEDS] + list(HEURISTICS)
    instances = [(f, n, i) for f in FAMILIES for n in sizes
                 for i in range(1 if f == "greedy_worst" else count)]
    units = [(f, n, i, m) for f, n, i in instances for m in methods]

    def key(u):
        f, n, i, m = u
        k = {"tag": CODE_TAG, "family": f, "n": n, "index": i, "method": m, "t_max": T_MAX}
        if m.startswith("g2s_rnn"):
            k["checkpoint"] = hashes[int(m.rsplit("s", 1)[1])]
        return k

    def args(u):
        f, n, i, m = u
        ck = str(ckpts[int(m.rsplit("s", 1)[1])]) if m.startswith("g2s_rnn") else None
        return (f, n, i, m, ck, device)

    todo = [u for u in units if not (run.cache.enabled and run.cache._path(key(u)).exists())]
    if run.args.workers > 1 and todo:
        from multiprocessing import get_context
        with get_context("spawn").Pool(run.args.workers) as pool:
            for u, val in zip(todo, tqdm(pool.imap(_unit, [args(u) for u in todo]),
                                         total=len(todo), desc=NAME)):
                run.cache.get_or_compute(key(u), lambda val=val: val)
    results = {}
    for u in tqdm(units, desc=NAME, disable=bool(todo) and run.args.workers > 1):
        results[u] = run.cache.get_or_compute(key(u), lambda u=u: evaluate_instance(*args(u)))
    rows = []
    for f, n, i in instances:
        ref = reference(PROBLEM, f, n, i)
        row = {"family": f, "n": n, "index": i,
               "reference": {"objective": ref.objective, "bound": ref.bound,
                             "status": ref.status, "method": ref.method}, "results": {}}
        for m in methods:
            r = dict(results[(f, n, i, m)])
            r["ratio"] = approximation_ratio(PROBLEM, r["objective"], ref.objective)
            r["ratio_vs_bound"] = approximation_ratio(PROBLEM, r["objective"], ref.bound)
            row["results"][m] = r
        g2s = [row["results"][f"g2s_rnn_s{s}"]["ratio"] for s in MVC_SEEDS]
        row["results"]["g2s_rnn"] = {"ratio": float(np.mean(g2s))}
        rows.append(row)
    return {"instances": rows, "sizes": list(sizes), "methods": methods, "hashes": hashes}


def summarise(raw: dict) -> dict:
    """Per family, method and size: mean / std / count of the ratio; per-seed spread."""
    points, spread = {}, {}
    for f in FAMILIES:
        points[f], spread[f] = {}, {}
        for m in ["g2s_rnn"] + raw["methods"]:
            points[f][m] = {}
            for n in raw["sizes"]:
                vals = [r["results"][m]["ratio"] for r in raw["instances"]
                        if r["family"] == f and r["n"] == n]
                points[f][m][str(n)] = {"mean": float(np.mean(vals)), "std": float(np.std(vals)),
                                        "count": len(vals)}
        for n in raw["sizes"]:
            per_seed = [points[f][f"g2s_rnn_s{s}"][str(n)]["mean"] for s in MVC_SEEDS]
            spread[f][str(n)] = {"per_seed_mean": per_seed, "min": min(per_seed),
                                 "max": max(per_seed)}
    return {"points": points, "seed_spread": spread}


def derive_verdicts(result: dict) -> dict:
    """Verdicts of the Figure 3 claims, from the JSON alone."""
    pts = result["points"]
    g2s = {(f, n): v["mean"] for f in pts for n, v in pts[f]["g2s_rnn"].items()}
    worst_key = max(g2s, key=g2s.get)
    worst = g2s[worst_key]
    spread = result["seed_spread"]
    seed_worst = max(v["max"] for f in spread for v in spread[f].values())
    max_n = max(int(n) for _, n in g2s)
    vals = dict(worst_ratio=round(worst, 4), worst_at=f"{worst_key[0]} n={worst_key[1]}",
                worst_seed_ratio=round(seed_worst, 4), max_n=max_n, profile=result["profile"])
    if worst > 1.10:
        within = verdict("refuted", **vals)
    elif max_n < 3200 or seed_worst > 1.10:
        within = verdict("qualified", **vals)
    else:
        within = verdict("confirmed", **vals)
    beaten = []
    for f in sorted(pts):
        for n, v in sorted(pts[f]["g2s_rnn"].items(), key=lambda kv: int(kv[0])):
            for h in HEURISTICS:
                if pts[f][h][n]["mean"] < v["mean"] - 1e-12:
                    beaten.append(f"{h}@{f}/{n}")
    frac = len(beaten) / len(g2s)
    kind = "confirmed" if not beaten else ("qualified" if frac < 0.5 else "refuted")
    heur = verdict(kind, beaten_points=len(beaten), points=len(g2s),
                   beaten_at=", ".join(beaten) if beaten else "none")
    return {CLAIM_WITHIN: within, CLAIM_HEUR: heur}


def plot(result: dict):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), sharey=False)
    styles = {"greedy": ("tab:orange", "s"), "list": ("tab:green", "^"),
              "matching": ("tab:red", "v")}
    for ax, f in zip(axes, FAMILIES):
        sizes = sorted(int(n) for n in result["points"][f]["g2s_rnn"])
        g = result["points"][f]["g2s_rnn"]
        sp = result["seed_spread"][f]
        ax.fill_between(sizes, [sp[str(n)]["min"] for n in sizes],
                        [sp[str(n)]["max"] for n in sizes], color="tab:blue", alpha=0.2,
                        label="G2S-RNN seed range")
        ax.errorbar(sizes, [g[str(n)]["mean"] for n in sizes], [g[str(n)]["std"] for n in sizes],
                    color="tab:blue", marker="o", capsize=3, label="G2S-RNN (mean of seeds)")
        for h, (col, mk) in styles.items():
            p = result["points"][f][h]
            ax.errorbar(sizes, [p[str(n)]["mean"] for n in sizes],
                        [p[str(n)]["std"] for n in sizes], color=col, marker=mk, capsize=3,
                        alpha=0.8, label=h)
        ax.axhline(1.1, color="grey", ls=":", lw=1)
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes, [str(n) for n in sizes])
        ax.set_title(TITLES[f])
        ax.set_xlabel("number of vertices")
    axes[0].set_ylabel("approximation ratio (vs reference)")
    axes[-1].legend(fontsize=7)
    fig.tight_layout()
    return fig, axes


def retrain(device: str) -> None:
    """Retrain the MVC checkpoints with the settings recorded in their JSON sidecars."""
    import json

    from g2s.rl.dqn import TrainConfig, train
    from g2s.train import select_default_checkpoints
    for path in checkpoint_paths().values():
        meta = json.loads(path.with_suffix(".json").read_text())
        cfg = TrainConfig.from_dict({**meta["train_config"], "device": device})
        train(cfg, path, resume=False)
    select_default_checkpoints()


def main(argv=None) -> Path:
    p = make_parser(NAME, __doc__.splitlines()[0])
    p.add_argument("--retrain", action="store_true", help="retrain the MVC checkpoints first")
    p.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    args = p.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    if args.retrain:
        retrain(args.device)
    run = Run(NAME, args)
    raw = compute(run, args.device)
    result = {"problem": PROBLEM, "profile": args.profile, "families": list(FAMILIES),
              "sizes": raw["sizes"], "t_max": T_MAX, "instances": raw["instances"],
              "checkpoint_sha256_16": {str(k): v for k, v in raw["hashes"].items()},
              "checkpoints": checkpoint_summary(),
              **summarise(raw)}
    use_agg_backend()
    fig, _ = plot(result)
    return run.write(result, fig, derive=derive_verdicts)


if __name__ == "__main__":
    main()
