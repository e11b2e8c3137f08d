"""Figure 2(b) of arXiv:1802.04948: minimum vertex cover on sparse graphs of 10,000 and 25,000
vertices (average degree 7.5), the paper's stress test.

Per cell (family, size, graph): G2S-RNN (Algorithm 2, ``T_max = 15``; the ER-15 model on sparse ER
graphs and the bipartite-20 model on sparse bipartite graphs, as the paper pairs them),
Structure2Vec (likewise paired), the greedy, list and matching heuristics, the reference (exact by
König's theorem on bipartite graphs; on ER graphs the best cover known -- the state-of-the-art
solver's in 60 s, CP-SAT's, or a method's that beats both, counted -- beside CP-SAT's proven bound:
:mod:`reproduce.figure2b_parts.units`) and the trivial cover, the null baseline (the smaller
side of a bipartite graph; elsewhere the complement of a random maximal independent set, as on
every grid). Every unit is cached; G2S-RNN keeps its rollout state in the cache while it runs
(:mod:`g2s.algorithm2.fast`), so a killed run continues within the graph. A G2S-RNN cover at 25,000
vertices is hours on a CPU: ``--methods`` chooses what to compute now, and ``--import-units`` takes
units computed elsewhere (``benchmarks/device_check.py`` on a GPU), each re-checked here (graph
fingerprint, feasibility, objective). Cells not computed are reported as pending. Every shipped
training seed of each model runs (``--seeds``; seed 0 is the table's own pairing, seed ``k`` is
reported as ``g2s_rnn_sk`` / ``s2v_sk``): with one graph per cell the seeds are the only
replication, and every computed seed enters the rules. G2S-RNN under the other training recipes
(the variants and the untrained null, :mod:`g2s.rl.recipes`) runs on the 10,000-vertex graphs for
every seed it has (``g2s_rnn_RECIPE``, ``g2s_rnn_RECIPE_sK``; at 25,000 vertices only for the
seeds ``--seeds`` names, with ``--recipe-max-n 25000``); the table shows each recipe's median
cover, each claim about a trained model its verdict under every recipe, and
``fig2b-training-beats-untrained`` pairs each trained seed with its untrained initialisation.

Usage: ``python reproduce/figure2b.py [--profile smoke|ci|paper] [--methods ...]
[--import-units FILE] [--reference-time-limit S]``.
"""

from __future__ import annotations

if not __package__:  # run as python reproduce/figure2b.py
    import _bootstrap  # noqa: F401

import argparse
from pathlib import Path

from g2s import argtypes
from reproduce.common import script_main
from reproduce.figure2b_parts.config import (
    FAMILIES,
    HEURISTICS,
    MARGIN_NODES,
    METHODS,
    MODELS,
    NAME,
    PAPER,
    PAPER_TOLERANCE,
    PROFILES,
    RECIPE_MAX_N,
    RECIPE_MODELS,
    REFERENCE_LIMIT,
    SEEDS,
    TAG,
    has_model,
    label,
    recipe_runs,
    seed_labels,
    seed_of,
)
from reproduce.figure2b_parts.rules import NULL_CLAIM, derive_verdicts, summarise
from reproduce.figure2b_parts.units import audit, compute
from reproduce.harness.verdicts.recipes import model_name

# the script is the public entry point: everything below reproduce/figure2b_parts/ stays importable
# from here
__all__ = ["NAME", "PROFILES", "FAMILIES", "MODELS", "HEURISTICS", "METHODS", "PAPER",
           "MARGIN_NODES", "PAPER_TOLERANCE", "REFERENCE_LIMIT", "TAG", "SEEDS", "RECIPE_MAX_N",
           "RECIPE_MODELS", "NULL_CLAIM", "recipe_runs", "label",
           "seed_of", "seed_labels", "options", "audit", "compute",
           "summarise", "derive_verdicts", "plot", "produce", "main"]


def _trained_seed(text: str) -> int:
    """A training seed with at least one checkpoint of the figure's models: a seed without any
    would give a figure with no model results at all."""
    from g2s.nn.checkpoints import checkpoint_path
    seed = argtypes.nonnegative_int(text)
    paths = [checkpoint_path(m, "mvc", trained_on, seed)
             for m in MODELS for trained_on in FAMILIES.values()]
    if not any(path.exists() for path in paths):
        raise argparse.ArgumentTypeError(f"no checkpoint of training seed {seed} for "
                                         f"{' or '.join(MODELS)} (no {paths[0].name}, ...)")
    return seed


def options(p) -> None:
    p.add_argument("--methods", nargs="*", choices=METHODS + RECIPE_MODELS + ("reference",),
                   default=None,
                   help="compute only these (default: all; reference: CP-SAT's bound and the best "
                        "known cover; g2s_rnn_RECIPE: G2S-RNN under another training recipe, "
                        "g2s_rnn_untrained its untrained initialisations); the rest come from "
                        "the cache or --import-units, else stay pending")
    p.add_argument("--import-units", type=Path, default=None,
                   help="JSON lines of model units computed elsewhere (device_check.py)")
    p.add_argument("--reference-time-limit", type=argtypes.positive_float, default=None,
                   help="CP-SAT seconds per graph for the proven bound (default: 240, the "
                        "paper's cut-off; smoke: 5); the best known cover gets 60 s of the "
                        "state-of-the-art solver (smoke: 1)")
    p.add_argument("--device", type=argtypes.device, default="cpu",
                   help="cpu, cuda or cuda:N (default cpu)")
    p.add_argument("--seeds", type=_trained_seed, nargs="+", default=None,
                   help="training seeds of each model to run (default: 0 at smoke, every "
                        "shipped seed at ci and paper: G2S-RNN 0-9, Structure2Vec 0-2); seed 0 "
                        "is the table's pairing, seed k is reported as g2s_rnn_sK / s2v_sK")
    p.add_argument("--families", nargs="+", choices=tuple(FAMILIES), default=None,
                   help="compute model units only on these families (default: both; the "
                        "other's come from the cache or --import-units, else stay pending)")
    p.add_argument("--recipe-max-n", type=argtypes.positive_int, default=None,
                   help="compute G2S-RNN under the other recipes (variants, untrained null) "
                        "only up to this size (default: 10,000 at ci and paper, 150 at smoke; "
                        "a 25,000-vertex cover is hours on a CPU, so name the seeds with "
                        "--seeds)")
    p.add_argument("--max-n", type=argtypes.positive_int, default=None,
                   help="compute model units only up to this size (larger cells come from the "
                        "cache or --import-units, else stay pending)")


def plot(result: dict):
    import matplotlib.pyplot as plt

    from g2s.rl.recipes import RECIPES
    cells = result["cells"]
    keys = list(cells)
    # G2S-RNN under the other recipes: one column each, the median cover over its seeds
    # (every seed's cover is in the JSON's cells)
    medians = result.get("recipe_medians", {})
    shown = [m for m in RECIPE_MODELS if any(m in v for v in medians.values())]
    recipe_of = {model_name(r): r for r in RECIPES}
    cols = [m for m in result.get("methods", METHODS) if not any(
        m in seed_labels(result.get("methods", ()), r) for r in RECIPE_MODELS)]
    cols += ["reference", "trivial_cover"]
    fig, ax = plt.subplots()
    ax.axis("off")

    def median(k, m):
        if not has_model(k.split("/")[0], m):
            return "n/a"
        got = medians.get(k, {}).get(m)
        if got is None:
            return "-"
        sel = got.get("selected")
        return f"{got['median']:.0f} ({got['seeds']})" + (
            "" if sel is None else f"; s{sel['seed']} {sel['cover']:.0f}")
    text = [[k] + ["-" if cells[k].get(c) is None else f"{cells[k][c]:.0f}" for c in cols]
            + [median(k, m) for m in shown] for k in keys]
    # headers on two lines where they are long, and each column as wide as its longest line,
    # so no header runs into its neighbour
    heads = ["family/n"] + [c.replace("_", "_\n", 1) if len(c) > 8 else c for c in cols] + [
        f"{RECIPES[recipe_of[m]].label}\nmedian"
        + ("; sel." if any("selected" in v.get(m, {}) for v in medians.values()) else "")
        for m in shown]
    chars = [max(len(line) for cell in (h, *(row[i] for row in text))
                 for line in cell.splitlines()) + 3 for i, h in enumerate(heads)]
    fig.set_size_inches(max(7.0, 0.085 * sum(chars)), 2.6)   # 8 pt digits: ~0.07 inch
    fig.subplots_adjust(left=0.01, right=0.99)
    table = ax.table(cellText=text, colLabels=heads, loc="center",
                     colWidths=[c / sum(chars) for c in chars])
    table.auto_set_font_size(False)     # matplotlib's automatic size shrinks a wide table
    table.set_fontsize(8)
    table.scale(1.0, 1.4)
    for i in range(len(heads)):         # the header row holds two lines
        table[0, i].set_height(2 * table[1, 0].get_height())
    ax.set_title("Figure 2(b): MVC cover sizes on sparse graphs ('-': pending; n/a: that recipe "
                 "was not trained for the family's model; _sK: training seed K; other recipes: "
                 "median over seeds, their count in brackets;\nsK N: the seed its validation "
                 "selects and its cover, where it ran)", fontsize=9)
    return fig


def produce(args, run):
    raw = compute(args, run)
    result = {"problem": "mvc", "profile": args.profile, **raw, **summarise(raw)}
    return result, plot(result)


def main(argv=None) -> Path:
    return script_main(NAME, __doc__, argv, produce, derive_verdicts, options=options,
                       seed=False, torch_threads=1)


if __name__ == "__main__":
    main()
