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

from reproduce.common import DEFAULT_OUT, Run, verdict
from reproduce.harness import settings as S
from reproduce.harness import verdicts as rule
from reproduce.harness.grid import (
    CODE_TAG,
    add_recipe_means,
    add_seed_mean,
    evaluate_grid,
    model_script,
    point_intervals,
    recipe_models,
    seeds_by_model,
    shipped_seeds,
    summarise,
)
from reproduce.harness.plots import interval_bars, null_curve, ratio_panel, recipe_curves
from reproduce.harness.verdicts.recipes import null_claim, null_parts, with_recipes
from reproduce.harness.verdicts.seeds import (
    pair_claims,
    seed_claim,
    versus_fixed_claim,
)

NAME = "figure4"
#: panel -> (problem, family, title)
PANELS = (("maxcut", "er", "max cut: Erdos-Renyi"), ("maxcut", "grid", "max cut: grid"),
          ("mis", "er", "MIS: Erdos-Renyi"), ("mis", "structured_bipartite",
                                                 "MIS: structured bipartite"))
HEURISTICS = {p: S.HEURISTICS[p] for p in ("maxcut", "mis")}
#: claim id -> (problem, families, threshold on G2S-RNN's mean ratio)
CLAIMS = S.FIG4_BOUNDS
CLAIM_BASE = "fig4-g2s-vs-baselines"
CLAIM_NULL = "fig4-training-beats-untrained"
#: the claims about the trained G2S-RNN, decided under every recipe (verdicts.recipes)
TRAINED_CLAIMS = (*CLAIMS, CLAIM_BASE, CLAIM_NULL)
#: the committed run of the paper's own yardstick (its integer program cut off at 240 s,
#: ``reproduce/timed_program.py``): the paper's bars are multiples of that program's answer,
#: ours of the best known solution, so each threshold claim also shows the paper's reading
TIMED_PROGRAM = DEFAULT_OUT / "timed_program.json"
#: the integer programs whose timed answers give the paper's reading (CP-SAT ours, HiGHS the
#: open-source stand-in for the paper's Gurobi)
TIMED_PROGRAMS = ("cpsat", "highs")


def timed_shortfalls() -> dict | None:
    """``{(problem, family, n, program): shortfall}`` from :data:`TIMED_PROGRAM`'s cells (the
    mean over graphs of best known / program answer; None where the program found no
    solution), or None when that file is absent."""
    import json
    try:
        cells = json.loads(TIMED_PROGRAM.read_text())["cells"]
    except FileNotFoundError:
        return None
    out = {}
    for key, cell in cells.items():
        problem, family, n, program = key.split("/")
        out[(problem, family, int(n), program)] = cell.get("shortfall")
    return out


def paper_bar_view(rows: list, problem: str, program: str, shortfalls: dict) -> list:
    """The rows with every ratio divided by the timed program's shortfall at its (family,
    size): the ratio against that program's answer instead of the best known.  A size where
    the program was not run counts as no shortfall (the program at the best known: the
    strictest bar); rows where it found no solution are dropped (no bar exists there)."""
    out = []
    for row in rows:
        f = shortfalls.get((problem, row["family"], int(row["n"]), program), 1.0)
        if f is None:
            continue
        res = {m: ({**v, "ratio": v["ratio"] / f} if v.get("ratio") is not None else v)
               for m, v in row["results"].items()}
        out.append({**row, "results": res})
    return out


def g2s_paths(problem: str, directory=None) -> dict:
    """The G2S-RNN seeds of ``problem`` trained on ER-15 that are shipped (or in
    ``directory``): ``{f"g2s_rnn_s{seed}": path}`` (the paper plots one curve; we plot the
    seed mean and decide on all seeds)."""
    return shipped_seeds("g2s_rnn", problem, S.ER15,
                         S.TRAIN_TARGETS[("g2s_rnn", problem, S.ER15, S.PAPER)], directory)


def baseline_paths(problem: str) -> dict:
    """Every shipped ER-15 checkpoint of the neural baselines for ``problem``, all seeds."""
    out = {}
    for b in S.BASELINES:
        out.update(shipped_seeds(b, problem, S.ER15, S.TRAIN_SEEDS))
    return out


def compute(run: Run, device: str, directory=None) -> dict:
    from g2s.nn.checkpoints import read_meta
    sizes, count = S.GRID_PROFILES[run.args.profile]
    cap = S.WL_EMBED_MAX[run.args.profile]
    out = {"sizes": list(sizes), "points": {}, "instances": {}, "checkpoints": {},
           "intervals": {}, "seeds": {}}
    for problem in ("maxcut", "mis"):
        families = [f for p, f, _ in PANELS if p == problem]
        g2s, baselines = g2s_paths(problem, directory), baseline_paths(problem)
        variants = recipe_models(problem, S.ER15, directory)
        if not g2s:
            raise FileNotFoundError(f"no G2S-RNN {problem} checkpoint (run reproduce/"
                                    "train_all.py)")
        methods = {**g2s, **baselines, **variants,
                   **{h: None for h in (*HEURISTICS[problem], S.NULL_BASELINE)}}
        raw = evaluate_grid(run, problem, families, sizes, count, methods, device=device,
                            t_max=S.T_MAX, single=S.SINGLE_GRAPH_FAMILIES,
                            max_size={k: cap for k in methods if k.startswith("wl_embed_")})
        shipped = seeds_by_model(baselines)
        seeds = {**seeds_by_model(g2s), **{b: shipped[b] for b in S.BASELINES if b in shipped}}
        for name, ss in seeds.items():
            add_seed_mean(raw["instances"], ss, prefix=name)
        seeds.update({m: raw["seeds"][m] for m in add_recipe_means(raw, variants)})
        models = [*seeds, *HEURISTICS[problem]]
        out["points"][problem] = summarise(raw, families, [*models, *g2s, *baselines,
                                                           S.NULL_BASELINE])
        out["intervals"][problem] = point_intervals(raw["instances"], families, models, sizes)
        out["instances"][problem] = raw["instances"]
        out["seeds"][problem] = seeds
        out["checkpoints"][problem] = {}
        for key, path in {**g2s, **baselines, **variants}.items():
            m = read_meta(path)
            out["checkpoints"][problem][key] = {
                "path": path.name, "sha256_16": raw["hashes"][key],
                **{k: m.get(k) for k in ("iterations", "training_time_s", "selected_iteration",
                                         "best_val_ratio", "final_val_ratio")}}
        out.setdefault("baselines", {})[problem] = [b for b in S.BASELINES if b in seeds]
        out.setdefault("units", {})[problem] = raw["units"]
    return out


def derive_verdicts(result: dict) -> dict:
    """Verdicts of the Figure 4 claims: :func:`shipped_verdicts`, each claim about the
    trained model also under every recipe with its robustness word
    (:func:`reproduce.harness.verdicts.recipes.with_recipes`)."""
    return with_recipes(result, shipped_verdicts, TRAINED_CLAIMS,
                        S.recipe_targets(("maxcut", S.ER15), ("mis", S.ER15)))


def null_verdict(result: dict) -> dict:
    """"Training beats the untrained model" on max cut and on MIS, each by
    :func:`reproduce.harness.verdicts.recipes.null_claim` (each trained seed against its own
    initialisation over every graph of the problem both ran), the two combined as every
    multi-part claim (:func:`~reproduce.harness.verdicts.seeds.combined_verdict`)."""
    kind, parts = null_parts({p: null_claim(result["instances"][p]) for p in ("maxcut", "mis")})
    return verdict(kind, profile=result["profile"], **parts)


def shipped_verdicts(result: dict) -> dict:
    """Each Section 5.2 threshold claim by the seed rule of :mod:`reproduce.harness.verdicts.seeds`:
    "G2S-RNN's ratio <= bound at every informative (family, size) point" decided for each
    training seed on its own graphs, then k of n seeds with a Wilson interval (a point where
    the trivial solver already meets the bound does not count); a confirmation below 3,200
    vertices is qualified.  The evidence also counts, per heuristic, the seeds it beats beyond
    the noise somewhere (:func:`reproduce.harness.verdicts.seeds.versus_fixed_claim`; evidence
    only, formerly the points where the two-level bootstrap of the seed mean put a heuristic
    ahead).  (Revised before the ten-seed data: the two-level bootstrap over three seeds
    amounted to "all seeds agree".)"""
    out = {}
    max_n = max(int(n) for n in result.get("sizes") or [0])
    shortfalls = timed_shortfalls()
    for claim, (problem, families, threshold) in CLAIMS.items():
        rows = result["instances"][problem]
        g2s = rule.seed_keys(rows, "g2s_rnn")
        got = seed_claim(rows, g2s, threshold, null_key=S.NULL_BASELINE, families=families)
        heur = versus_fixed_claim(rows, g2s, HEURISTICS[problem], families=families)
        kind = got.pop("verdict")
        if kind == "confirmed" and max_n < S.PAPER_MAX_N:
            kind, got["why"] = "qualified", f"confirmed on sizes up to {max_n} only"
        out[claim] = verdict(kind, **got, threshold=threshold, max_n=max_n,
                             profile=result["profile"], heuristic_beats=heur["beaten_by"],
                             paper_bar=_paper_bar_text(rows, problem, families, threshold,
                                                       g2s, shortfalls, max_n))
    out[CLAIM_BASE] = baselines_verdict(result)
    out["gurobi-reference"] = reference_verdict(result)
    out[CLAIM_NULL] = null_verdict(result)
    return out


def _paper_bar_text(rows, problem, families, threshold, g2s, shortfalls, max_n) -> str:
    """The claim under the paper's yardstick, per timed program: the same seed rule on the
    ratios against the program's answer (:func:`paper_bar_view`; a confirmation below 3,200
    vertices qualified), as evidence shows it."""
    if shortfalls is None:
        return f"not available ({TIMED_PROGRAM.name} is missing)"
    parts = []
    for program in TIMED_PROGRAMS:
        view = paper_bar_view(rows, problem, program, shortfalls)
        got = seed_claim(view, g2s, threshold, null_key=S.NULL_BASELINE, families=families)
        if got["verdict"] == "confirmed" and max_n < S.PAPER_MAX_N:
            got["verdict"] = "qualified"
        where = ", ".join(f"{n} x{x:.3f}" if x else f"{n} no solution"
                          for (p, f, n, q), x in sorted(shortfalls.items())
                          if p == problem and f in families and q == program)
        parts.append(f"{program} (shortfall at {where or 'no size measured'}): "
                     f"{got['verdict']}, seeds holding {got['k_of_n']}"
                     f" ({got.get('fails', 0)} fail, {got.get('undecided', 0)} undecided)")
    return "; ".join(parts)


def reference_verdict(result: dict) -> dict:
    """The caption: ratios below 1 come from the reference's time cut-off.  Refuted if any ratio
    below 1 is against a reference proven optimal (that would be a wrong "optimum"); otherwise
    ``recorded``: the counts, which say how often a method beat a reference that was not
    proven optimal (the reference is never beaten silently: such a solution becomes the best
    known); how far the paper's own timed reference falls short is measured by
    ``reproduce/timed_program.py``."""
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
    return verdict("refuted" if on_proven else "recorded", **vals)


def baselines_verdict(result: dict) -> dict:
    """Section 1: G2S-RNN generalizes "significantly better" than the GCNN/WL baselines, here on
    max cut and MIS.  Per problem and baseline B, "G2S-RNN is better than B" on pairs of seeds
    (:func:`reproduce.harness.verdicts.seeds.pair_claim`): each pair (G2S-RNN seed, B seed) by
    its paired per-graph differences at every informative (family, size) point both ran, then
    k of n pairs with a Wilson interval; the comparisons combined by
    :func:`~reproduce.harness.verdicts.seeds.combined_verdict` (refuted when one is refuted,
    confirmed when all are, qualified below 3,200 vertices).  (Revised before the ten-seed
    data: the comparisons were decided by the two-level bootstrap of the seed means.)"""
    max_n = max(int(n) for n in result.get("sizes") or [0])
    tables = {}
    for problem in ("maxcut", "mis"):
        inst = result["instances"][problem]
        g2s = rule.seed_keys(inst, "g2s_rnn")
        for b in S.BASELINES:
            tables[f"{b}@{problem}"] = (inst, g2s, rule.seed_keys(inst, b))
    got = pair_claims(tables)
    kind = got.pop("verdict")
    if kind == "confirmed" and max_n < S.PAPER_MAX_N:
        kind, got["why"] = "qualified", f"confirmed on sizes up to {max_n} only"
    return verdict(kind, **got, profile=result["profile"], max_n=max_n)


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
            ivs = result.get("intervals", {}).get(problem, {}).get(family, {}).get(m)
            ax.errorbar(sizes, *interval_bars(pts[m], ivs, sizes), color=col, marker=mk,
                        capsize=3, label=label, lw=2 if m == "g2s_rnn" else 1)
        recipe_curves(ax, pts, result.get("seeds", {}).get(problem, {}))
        null_curve(ax, pts.get(S.NULL_BASELINE), S.NULL_STYLE)
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
    result["t_max"], result["unit_tag"] = S.T_MAX, CODE_TAG
    return result, plot(result)[0]


def main(argv=None) -> Path:
    return model_script(NAME, __doc__, argv, produce, derive_verdicts)


if __name__ == "__main__":
    main()
