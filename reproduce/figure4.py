"""Figure 4 (arXiv:1802.04948, Section 5.2): max cut and maximum independent set.

Panels: (a) max cut on Erdos-Renyi (p = 0.15) and on square grid graphs; (b) MIS on
Erdos-Renyi graphs and on the structured bipartite graphs that trap greedy
(:func:`g2s.graphs.structured_bipartite_mis`, our choice of the paper's undefined family).
Models are trained on ER-15 (the shipped ``maxcut``/``mis`` checkpoints).  Each point is the
mean and standard deviation of the approximation ratio against the certified reference
(ratio >= 1 is worse; below 1 means the method beat a time-limited reference, as in the
paper's caption).  Curves: G2S-RNN (Algorithm 2, T_max = 15), greedy, for MIS the list
heuristic (ListRight), and every neural baseline with a shipped ER-15 checkpoint for the problem
(one greedy rollout at its fixed depth; the WL embedding only up to the sizes of Figure 3).

Usage: ``python reproduce/figure4.py [--profile smoke|ci|paper] [--device cpu]``.
"""

from __future__ import annotations

from pathlib import Path

if not __package__:  # run as python reproduce/figure4.py
    import _bootstrap  # noqa: F401

from reproduce import settings as S
from reproduce.common import Run, verdict
from reproduce.grid import evaluate_grid, model_script, summarise
from reproduce.plots import ratio_panel

NAME = "figure4"
#: panel -> (problem, family, title)
PANELS = (("maxcut", "er", "max cut: Erdos-Renyi"), ("maxcut", "grid", "max cut: grid"),
          ("mis", "er", "MIS: Erdos-Renyi"), ("mis", "structured_bipartite",
                                                 "MIS: structured bipartite"))
HEURISTICS = {p: S.HEURISTICS[p] for p in ("maxcut", "mis")}
#: claim id -> (problem, families, threshold on G2S-RNN's mean ratio)
CLAIMS = S.FIG4_BOUNDS
CLAIM_BASE = "fig4-g2s-vs-baselines"


def checkpoint(problem: str, directory=None) -> Path:
    """The G2S-RNN of ``problem`` trained on ER-15 (its first seed; the paper's one curve)."""
    from g2s.checkpoints import checkpoint_path
    seed = S.G2S_SEEDS[(problem, S.ER15)][0]
    return checkpoint_path("g2s_rnn", problem, S.ER15, seed, directory)


def baseline_paths(problem: str) -> dict:
    """The shipped ER-15 checkpoint of every neural baseline trained for ``problem``."""
    from g2s.checkpoints import checkpoint_path
    paths = {b: checkpoint_path(b, problem, S.ER15, S.BASELINE_SEED) for b in S.BASELINES}
    return {b: p for b, p in paths.items() if p.exists()}


def compute(run: Run, device: str, directory=None) -> dict:
    from g2s.checkpoints import read_meta
    sizes, count = S.GRID_PROFILES[run.args.profile]
    out = {"sizes": list(sizes), "points": {}, "instances": {}, "checkpoints": {}}
    for problem in ("maxcut", "mis"):
        families = [f for p, f, _ in PANELS if p == problem]
        baselines = baseline_paths(problem)
        methods = {"g2s_rnn": checkpoint(problem, directory), **baselines,
                   **{h: None for h in HEURISTICS[problem]}}
        raw = evaluate_grid(run, problem, families, sizes, count, methods, device=device,
                            t_max=S.T_MAX, single=S.SINGLE_GRAPH_FAMILIES,
                            max_size={"wl_embed": S.WL_EMBED_MAX[run.args.profile]})
        out["points"][problem] = summarise(raw, families, methods)
        out["instances"][problem] = raw["instances"]
        meta = read_meta(checkpoint(problem, directory))
        out["checkpoints"][problem] = {"path": str(checkpoint(problem, directory).name),
                                       "sha256_16": raw["hashes"]["g2s_rnn"],
                                       "iterations": meta["iterations"],
                                       "selected_iteration": meta["selected_iteration"]}
        out.setdefault("baselines", {})[problem] = {}
        for b, path in baselines.items():
            m = read_meta(path)
            out["baselines"][problem][b] = {
                "path": path.name, "sha256_16": raw["hashes"][b],
                **{k: m.get(k) for k in ("iterations", "training_time_s", "selected_iteration",
                                         "best_val_ratio", "final_val_ratio")}}
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
                        if v["mean"] < pts[(f, n)] - S.EPS)  # lower ratio is better
        vals = dict(worst_ratio=round(worst, 4), worst_at=f"{worst_key[0]} n={worst_key[1]}",
                    threshold=threshold, max_n=max_n, profile=result["profile"],
                    heuristic_better_at=", ".join(beaten) if beaten else "none")
        if worst > threshold:
            out[claim] = verdict("refuted", **vals)
        elif max_n < S.PAPER_MAX_N:
            out[claim] = verdict("qualified", **vals)
        else:
            out[claim] = verdict("confirmed", **vals)
    out[CLAIM_BASE] = baselines_verdict(result)
    out["gurobi-reference"] = reference_verdict(result)
    return out


def reference_verdict(result: dict) -> dict:
    """The caption: ratios below 1 come from the reference's time cut-off.  Refuted if any ratio
    below 1 is against a reference proven optimal (that would be a wrong "optimum"); otherwise
    qualified: the mechanism holds, but our reference is CP-SAT/HiGHS with a proven bound (and
    exact methods where the family allows), not Gurobi with 240 s."""
    below, on_proven, proven, total = [], 0, 0, 0
    for problem, rows in sorted(result.get("instances", {}).items()):
        for row in rows:
            total += 1
            optimal = row["reference"]["status"] == "optimal"
            proven += optimal
            for m, v in sorted(row["results"].items()):
                if v.get("ratio") is not None and v["ratio"] < 1 - S.EPS:
                    below.append(f"{m}@{problem}/{row['family']}/{row['n']}")
                    on_proven += optimal
    vals = dict(below_one=len(below), below_one_on_proven=on_proven, proven=proven,
                instances=total, where=", ".join(sorted(set(below))) if below else "none")
    if total == 0:
        return verdict("pending", **vals)
    return verdict("refuted" if on_proven else "qualified", **vals)


def baselines_verdict(result: dict) -> dict:
    """Section 1: G2S-RNN generalizes "significantly better" than the GCNN/WL baselines, here on
    max cut and MIS.  For each baseline and problem, both worst means are taken over the points
    where both were run (the WL embedding stops early); the baseline is *as good* when its worst
    mean is <= G2S-RNN's.  Refuted: on some problem at least half of the baselines are as good;
    qualified: some are, or none is but only sizes below the paper's 3,200 were run; confirmed:
    none is, up to 3,200 vertices."""
    rows, as_good, worst_problem_share = [], [], 0.0
    for problem in ("maxcut", "mis"):
        panels = result["points"][problem]
        names = sorted({m for f in panels.values() for m in f} & set(S.BASELINES))
        good = 0
        for b in names:
            common = [(f, n) for f, pts in sorted(panels.items()) for n in pts.get(b, {})
                      if n in pts["g2s_rnn"]]
            wb = max(panels[f][b][n]["mean"] for f, n in common)
            wg = max(panels[f]["g2s_rnn"][n]["mean"] for f, n in common)
            rows.append(f"{problem}: {b} {wb:.3f} vs {wg:.3f}")
            if wb <= wg + S.EPS:
                good += 1
                as_good.append(f"{b}@{problem}")
        if names:
            worst_problem_share = max(worst_problem_share, good / len(names))
    max_n = max((int(n) for p in result["points"].values() for f in p.values()
                 for n in f.get("g2s_rnn", {})), default=0)
    vals = dict(as_good=", ".join(as_good) if as_good else "none", count=len(as_good),
                worst_means="; ".join(rows), profile=result["profile"], max_n=max_n)
    if not rows:
        return verdict("pending", **vals)
    if not as_good:
        return verdict("confirmed" if max_n >= S.PAPER_MAX_N else "qualified", **vals)
    return verdict("refuted" if worst_problem_share >= S.MAJORITY else "qualified", **vals)


def plot(result: dict):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.6))
    labels = {"greedy": "greedy", "list": "list (ListRight)"}
    styles = {"g2s_rnn": (S.G2S_COLOUR, "o", "G2S-RNN"),
              **{h: (*S.HEURISTIC_STYLES[h], labels[h]) for h in labels},
              **{b: (col, "x", b) for b, col in S.BASELINE_COLOURS.items()}}
    bound = {(p, f): thr for p, families, thr in CLAIMS.values() for f in families}
    for ax, (problem, family, title) in zip(axes, PANELS):
        pts = result["points"][problem][family]
        for m, (col, mk, label) in styles.items():
            if m not in pts:
                continue
            sizes = sorted(int(n) for n in pts[m])
            ax.errorbar(sizes, [pts[m][str(n)]["mean"] for n in sizes],
                        [pts[m][str(n)]["std"] for n in sizes], color=col, marker=mk,
                        capsize=3, label=label, lw=2 if m == "g2s_rnn" else 1)
        thr = bound[(problem, family)]
        ratio_panel(ax, result["sizes"], title, thr, f"paper's bound {thr}")
        ax.legend(fontsize=6, ncol=2)
    axes[0].set_ylabel("approximation ratio (vs reference)")
    fig.tight_layout()
    return fig, axes


def produce(args, run: Run):
    """The JSON result and the figure."""
    result = compute(run, args.device, args.checkpoint_dir)
    result["profile"] = args.profile
    return result, plot(result)[0]


def main(argv=None) -> Path:
    return model_script(NAME, __doc__, argv, produce, derive_verdicts)


if __name__ == "__main__":
    main()
