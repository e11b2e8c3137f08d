"""Figure 4 (arXiv:1802.04948, Section 5.2): max cut and maximum independent set.

Panels: (a) max cut on Erdos-Renyi (p = 0.15) and on square grid graphs; (b) MIS on
Erdos-Renyi graphs and on the structured bipartite graphs that trap greedy
(:func:`g2s.graphs.structured_bipartite_mis`, our choice of the paper's undefined family).
Models are trained on ER-15 (the shipped ``maxcut``/``mis`` checkpoints).  Each point is the
mean and standard deviation of the approximation ratio against the certified reference
(ratio >= 1 is worse; below 1 means the method beat a time-limited reference, as in the
paper's caption).  Curves: G2S-RNN (Algorithm 2, T_max = 15), greedy, and for MIS the list
heuristic (ListRight).

Usage: ``python reproduce/figure4.py [--profile smoke|ci|paper] [--device cpu]``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reproduce.common import Run, make_parser, use_agg_backend, verdict
from reproduce.grid import add_model_options, evaluate_grid, summarise

NAME = "figure4"
#: panel -> (problem, family, title)
PANELS = (("maxcut", "er", "max cut: Erdos-Renyi"), ("maxcut", "grid", "max cut: grid"),
          ("mis", "er", "MIS: Erdos-Renyi"), ("mis", "structured_bipartite",
                                                 "MIS: structured bipartite"))
PROFILES = {"smoke": ((25, 50), 2), "ci": ((25, 50, 100, 200, 400), 3),
            "paper": ((25, 50, 100, 200, 400, 800, 1600, 3200), 20)}
HEURISTICS = {"maxcut": ("greedy",), "mis": ("greedy", "list")}
SINGLE = ("structured_bipartite",)
T_MAX = 15
#: claim id -> (problem, families, threshold on G2S-RNN's mean ratio)
CLAIMS = {"fig4-maxcut": ("maxcut", ("er", "grid"), 1.04),
          "fig4-mis-er": ("mis", ("er",), 1.10),
          "fig4-mis-bipartite": ("mis", ("structured_bipartite",), 1.08)}


def checkpoint(problem: str, directory=None) -> Path:
    from g2s.evaluate import CHECKPOINT_DIR
    directory = CHECKPOINT_DIR if directory is None else Path(directory)
    return directory / f"g2s_rnn_{problem}_er15_s0.pt"


def compute(run: Run, device: str, directory=None) -> dict:
    sizes, count = PROFILES[run.args.profile]
    out = {"sizes": list(sizes), "points": {}, "instances": {}, "checkpoints": {}}
    for problem in ("maxcut", "mis"):
        families = [f for p, f, _ in PANELS if p == problem]
        methods = {"g2s_rnn": checkpoint(problem, directory),
                   **{h: None for h in HEURISTICS[problem]}}
        raw = evaluate_grid(run, problem, families, sizes, count, methods, device=device,
                            t_max=T_MAX, single=SINGLE)
        out["points"][problem] = summarise(raw, families, methods)
        out["instances"][problem] = raw["instances"]
        meta = json.loads(checkpoint(problem, directory).with_suffix(".json").read_text())
        out["checkpoints"][problem] = {"path": str(checkpoint(problem, directory).name),
                                       "sha256_16": raw["hashes"]["g2s_rnn"],
                                       "iterations": meta["iterations"],
                                       "selected_iteration": meta["selected_iteration"]}
    return out


def derive_verdicts(result: dict) -> dict:
    """Each Section 5.2 threshold claim, from the plotted means alone."""
    out = {}
    for claim, (problem, families, threshold) in CLAIMS.items():
        pts = {(f, n): v["mean"] for f in families
               for n, v in result["points"][problem][f]["g2s_rnn"].items()}
        worst_key = max(sorted(pts, key=lambda k: (k[0], int(k[1]))), key=pts.get)
        worst = pts[worst_key]
        max_n = max(int(n) for _, n in pts)
        beaten = sorted(f"{h}@{f}/{n}" for f in families for h in HEURISTICS[problem]
                        for n, v in result["points"][problem][f][h].items()
                        if v["mean"] < pts[(f, n)] - 1e-12)  # lower ratio is better
        vals = dict(worst_ratio=round(worst, 4), worst_at=f"{worst_key[0]} n={worst_key[1]}",
                    threshold=threshold, max_n=max_n, profile=result["profile"],
                    heuristic_better_at=", ".join(beaten) if beaten else "none")
        if worst > threshold:
            out[claim] = verdict("refuted", **vals)
        elif max_n < 3200:
            out[claim] = verdict("qualified", **vals)
        else:
            out[claim] = verdict("confirmed", **vals)
    return out


def plot(result: dict):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.6))
    styles = {"g2s_rnn": ("tab:blue", "o", "G2S-RNN"), "greedy": ("tab:orange", "s", "greedy"),
              "list": ("tab:green", "^", "list (ListRight)")}
    for ax, (problem, family, title) in zip(axes, PANELS):
        pts = result["points"][problem][family]
        for m, (col, mk, label) in styles.items():
            if m not in pts:
                continue
            sizes = sorted(int(n) for n in pts[m])
            ax.errorbar(sizes, [pts[m][str(n)]["mean"] for n in sizes],
                        [pts[m][str(n)]["std"] for n in sizes], color=col, marker=mk,
                        capsize=3, label=label)
        thr = {"maxcut": 1.04, "mis": 1.10 if family == "er" else 1.08}[problem]
        ax.axhline(thr, color="grey", ls=":", lw=1, label=f"paper's bound {thr}")
        ax.axhline(1.0, color="black", lw=0.5)
        ax.set_xscale("log", base=2)
        ticks = result["sizes"]
        ax.set_xticks(ticks, [str(n) for n in ticks])
        ax.set_title(title)
        ax.set_xlabel("number of vertices")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("approximation ratio (vs reference)")
    fig.tight_layout()
    return fig, axes


def main(argv=None) -> Path:
    p = make_parser(NAME, __doc__.splitlines()[0])
    add_model_options(p)
    args = p.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    use_agg_backend()
    run = Run(NAME, args)
    result = compute(run, args.device, args.checkpoint_dir)
    result["profile"] = args.profile
    fig, _ = plot(result)
    return run.write(result, fig=fig, derive=derive_verdicts)


if __name__ == "__main__":
    main()
