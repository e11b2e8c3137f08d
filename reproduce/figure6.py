"""Figure 6 (arXiv:1802.04948, Appendix D.2): MVC, ER-15- vs planted-cover-trained G2S-RNN.

Panels: Erdos-Renyi (p = 0.15), random 4-regular, random bipartite (p = 0.75) and the worst case
for greedy, sizes 25 ... 3,200 (the ``ci`` profile stops at 400, as in Figure 3).  Two curves:
G2S-RNN trained on ER-15 (the shipped MVC seeds, their mean with the per-seed spread, exactly
Figure 3's curve) and G2S-RNN trained on size-15 planted-vertex-cover graphs
(:func:`g2s.graphs.planted_vertex_cover`, ``g2s train --graphs planted --n 15``; Appendix D.2's
"adversarial" training family; three seeds, their mean and spread likewise).  Both use
Algorithm 2 with T_max = 15.  Each point is the mean and standard deviation of the approximation
ratio against the certified reference of :mod:`g2s.certificates`; the JSON also gives each ratio
against the proven bound.

Checkpoints that are absent are skipped and listed under ``missing_checkpoints``; a verdict
that needs one comes out ``pending``.  Checkpoints are evaluated from private copies (see
:func:`reproduce.grid.snapshot`).  The cache is keyed by checkpoint hash, so pointing
``--cache-dir`` at Figure 3's cache reuses its ER-trained evaluations.

Usage: ``python reproduce/figure6.py [--profile smoke|ci|paper] [--device cpu]``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

if not __package__:  # run as python reproduce/figure6.py
    import _bootstrap  # noqa: F401

from reproduce import grid
from reproduce import settings as S
from reproduce import verdicts as rule
from reproduce.common import Run, verdict
from reproduce.plots import ratio_panel

NAME = "figure6"
PROBLEM = "mvc"
FAMILIES = ("er", "regular", "bipartite", "greedy_worst")
TITLES = {"er": "(a) Erdos-Renyi (p = 0.15)", "regular": "(b) random 4-regular",
          "bipartite": "(c) random bipartite (p = 0.75)", "greedy_worst": "(d) greedy worst case"}
#: curve -> (training-set tag in the checkpoint names, seeds)
MODELS = {curve: (tag, S.G2S_SEEDS[(PROBLEM, tag)])
          for curve, tag in (("g2s_rnn", S.ER15), ("planted", S.PLANTED15))}
LABELS = {"g2s_rnn": "trained on ER-15", "planted": "trained on planted-cover-15"}
#: the families on which Appendix D.2 says the planted-trained model "stays 1% within optimal"
HARD = ("bipartite", "greedy_worst")
WITHIN = S.WITHIN_1PCT
#: a worst-mean difference below this is "no change" for intro-adversarial (3 graphs per size)
MARGIN = S.ADVERSARIAL_MARGIN
CLAIM_FIG6 = "fig6-adversarial"
CLAIM_INTRO = "intro-adversarial"


def checkpoint_paths(directory=None) -> dict:
    """Method name -> path of every model, present or not (``g2s_rnn_sS``, ``planted_sS``).

    ``directory`` (``--checkpoint-dir``) replaces the folder of both curves' checkpoints.
    """
    from g2s.checkpoints import checkpoint_path
    return {f"{curve}_s{s}": checkpoint_path("g2s_rnn", PROBLEM, tag, s, directory)
            for curve, (tag, seeds) in MODELS.items() for s in seeds}


def compute(run: Run, device: str, directory=None) -> dict:
    """Evaluate the present models on every family's certified instances."""
    sizes, count = S.GRID_PROFILES[run.args.profile]
    paths = checkpoint_paths(directory)
    with tempfile.TemporaryDirectory(prefix="figure6-ckpt-") as tmp:
        models, missing = grid.snapshot(paths, Path(tmp), "figure6")
        raw = grid.evaluate_grid(run, PROBLEM, FAMILIES, sizes, count, models, device=device,
                            t_max=S.T_MAX, single=S.SINGLE_GRAPH_FAMILIES)
        meta = {paths[m].name: grid.checkpoint_meta(p) for m, p in models.items()}
    seeds = {}
    for curve, (_, all_seeds) in MODELS.items():
        seeds[curve] = [s for s in all_seeds if f"{curve}_s{s}" in models]
        if seeds[curve]:
            grid.add_seed_mean(raw["instances"], seeds[curve], prefix=curve)
    raw["methods"] = [c for c in MODELS if seeds[c]] + list(models)
    raw.update(seeds=seeds, checkpoints=meta, missing_checkpoints=missing)
    return raw


def summarise(raw: dict) -> dict:
    """Per family, curve and size: mean / std / count of the ratio; per-seed spread."""
    points = grid.summarise(raw, FAMILIES, raw["methods"])
    spread = {c: {f: grid.seed_spread(points[f], raw["sizes"], raw["seeds"][c], prefix=c)
                  for f in FAMILIES} for c in MODELS if raw["seeds"][c]}
    return {"points": points, "seed_spread": spread}


def derive_verdicts(result: dict) -> dict:
    """The Appendix D.2 verdicts, from the JSON alone.  Rules (fixed before the run):

    ``fig6-adversarial`` ("the planted-trained model ... on bipartite and worst-case graphs ...
    staying 1% within optimal"): on each of ``HARD`` the planted-trained curve's worst plotted
    mean ratio is at most 1.01.  Refuted: above 1.01 on either; qualified: within on both but
    only sizes below the paper's 3,200 were run; confirmed otherwise; pending without the model.

    Both curves are seed means (as in Figure 3); each planted seed's worst is reported.

    ``intro-adversarial`` ("training over adversarially chosen graphs further boosts
    scalability and generalization"): per family, compare the two curves' worst plotted means;
    the planted model is *better* when lower by more than ``MARGIN`` and *worse* when higher by
    more than ``MARGIN``.  Confirmed: better on both ``HARD`` families and worse on none;
    refuted: better on neither ``HARD`` family; qualified otherwise; pending without both
    models.
    """
    pts = result["points"]
    worst = {c: {f: grid.worst_point(pts[f].get(c, {})) for f in FAMILIES} for c in MODELS}
    def sizes_above(seed):
        """``"family n"`` of each hard-family point where one planted seed exceeds 1.01."""
        return [f"{f} {n}" for f in HARD for n, v in
                sorted(pts[f].get(f"planted_s{seed}", {}).items(), key=lambda kv: int(kv[0]))
                if v["mean"] > WITHIN]
    above = {s: sizes_above(s) for s in result["seeds"]["planted"]}
    def seed_worst(f, s):
        return grid.fmt_worst(grid.worst_point(pts[f].get(f"planted_s{s}", {})))
    per_seed = {f: ", ".join(f"s{s} {seed_worst(f, s)}" for s in result["seeds"]["planted"])
                or "none" for f in HARD}
    pl, er = worst["planted"], worst["g2s_rnn"]
    present = [w[2] for w in pl.values() if w is not None]
    vals = dict(profile=result["profile"], max_n=max(present, default=0), within=WITHIN,
                margin=MARGIN, planted_seeds=len(result["seeds"]["planted"]),
                er_seeds=len(result["seeds"]["g2s_rnn"]),
                missing=", ".join(result["missing_checkpoints"]) or "none",
                **{f"planted_{f}": grid.fmt_worst(pl[f]) for f in FAMILIES},
                **{f"er_{f}": grid.fmt_worst(er[f]) for f in FAMILIES},
                **{f"planted_per_seed_{f}": per_seed[f] for f in HARD},
                planted_seed_sizes_above=("; ".join(f"s{s}: {', '.join(v) or 'none'}"
                                                    for s, v in above.items()) or "none"))
    if any(pl[f] is None for f in HARD):
        fig6 = verdict("pending", **vals)
    elif any(pl[f][0] > WITHIN for f in HARD):
        fig6 = verdict("refuted", **vals)
    elif vals["max_n"] < S.PAPER_MAX_N:
        fig6 = verdict("qualified", **vals)
    else:
        fig6 = verdict("confirmed", **vals)
    both = [f for f in FAMILIES if pl[f] is not None and er[f] is not None]
    better = [f for f in both if pl[f][0] < er[f][0] - MARGIN]
    worse = [f for f in both if pl[f][0] > er[f][0] + MARGIN]
    ivals = dict(vals, better_on=", ".join(better) or "none", worse_on=", ".join(worse) or "none")
    if any(f not in both for f in HARD):
        intro = verdict("pending", **ivals)
    elif all(f in better for f in HARD) and not worse:
        intro = verdict("confirmed", **ivals)
    elif not any(f in better for f in HARD):
        intro = verdict("refuted", **ivals)
    else:
        intro = verdict("qualified", **ivals)
    return {CLAIM_FIG6: fig6, CLAIM_INTRO: intro, CLAIM_GOOD: good_on_er_regular(result)}


CLAIM_GOOD = "d2-both-good-er-regular"
GOOD = S.WITHIN_10PCT   # Figure 2's "generalizes well" bar, reused, not tuned


def good_on_er_regular(result: dict) -> dict:
    """``d2-both-good-er-regular`` ("both models show good scalability in Erdos-Renyi and
    regular graphs"), decided by :mod:`reproduce.verdicts`: every (model, family, size) point of
    both models on ER and 4-regular graphs is a member of one Bonferroni family; the seed mean
    of each point gets a two-level (seeds, then graphs) percentile bootstrap interval; the claim
    "ratio <= 1.10 at every point" is confirmed / refuted / inconclusive by the rule.  Added
    after the ci data were seen (issue 13: the claim had no ledger entry); the bar is Figure 2's,
    fixed before."""
    seeds = result.get("seeds", {})
    models = {"ER-trained": [f"g2s_rnn_s{s}" for s in seeds.get("g2s_rnn", ())],
              "planted-trained": [f"planted_s{s}" for s in seeds.get("planted", ())]}
    if not all(models.values()):   # pending without both models
        return verdict("pending", why="a model is missing", profile=result["profile"])
    got = rule.bound_claim(result.get("instances", []), models, GOOD, families=["er", "regular"])
    return verdict(got.pop("verdict"), **got, profile=result["profile"],
                   max_n=max(result.get("sizes") or [0]))


def plot(result: dict):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(FAMILIES), figsize=(17, 3.8))
    sizes = result["sizes"]
    colours = {"g2s_rnn": S.G2S_COLOUR, "planted": S.PLANTED_COLOUR}
    for ax, f in zip(axes, FAMILIES):
        pts = result["points"][f]
        for c in MODELS:
            if c not in pts or not pts[c]:
                continue
            ns = sorted(int(n) for n in pts[c])
            k = len(result["seeds"][c])
            if k > 1:
                sp = result["seed_spread"][c][f]
                ax.fill_between(ns, [sp[str(n)]["min"] for n in ns],
                                [sp[str(n)]["max"] for n in ns], color=colours[c], alpha=0.2)
            ax.errorbar(ns, [pts[c][str(n)]["mean"] for n in ns],
                        [pts[c][str(n)]["std"] for n in ns], color=colours[c], marker="o",
                        capsize=3, lw=2, label=f"G2S-RNN {LABELS[c]} ({k} seed(s))")
        ratio_panel(ax, sizes, TITLES[f], WITHIN, f"{WITHIN} (within 1%)", title_size=10)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("approximation ratio (vs reference)")
    note = "; ".join(f"{name}: {m['iterations']} it." for name, m in result["checkpoints"].items())
    if result["missing_checkpoints"]:
        note += f"; missing: {', '.join(result['missing_checkpoints'])}"
    fig.suptitle(f"MVC, ER-trained vs planted-cover-trained G2S-RNN ({note})", fontsize=8)
    fig.tight_layout()
    return fig, axes


def produce(args, run: Run):
    """The JSON result and the figure."""
    raw = compute(run, args.device, args.checkpoint_dir)
    result = {"problem": PROBLEM, "profile": args.profile, "families": list(FAMILIES),
              "t_max": S.T_MAX, "within": WITHIN, "margin": MARGIN, **raw, **summarise(raw)}
    return result, plot(result)[0]


def main(argv=None) -> Path:
    return grid.model_script(NAME, __doc__, argv, produce, derive_verdicts)


if __name__ == "__main__":
    main()
