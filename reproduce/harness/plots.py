"""Shared plotting of the approximation-ratio figures (rliable's habit: these functions take an
``ax``, draw, and return it; only scripts write files)."""

from __future__ import annotations

__all__ = ["ratio_panel", "interval_bars", "null_curve", "recipe_curves"]


def ratio_panel(ax, sizes, title: str, bar: float, bar_label: str | None = None,
                unit_line: bool = True, title_size: float | None = None):
    """Style one panel of approximation ratio against graph size: the claim's ``bar`` (dotted),
    the ratio-1 line (``unit_line``), a log2 size axis ticked at ``sizes``, the title and the
    x label."""
    ax.axhline(bar, color="grey", ls=":", lw=1, label=bar_label)
    if unit_line:
        ax.axhline(1.0, color="black", lw=0.5)
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [str(n) for n in sizes])
    ax.set_title(title, **({} if title_size is None else {"fontsize": title_size}))
    ax.set_xlabel("number of vertices")
    return ax


def null_curve(ax, points: dict, style: dict):
    """The trivial solver's mean ratio per size (``n -> {mean}``) as a thin line, when the
    JSON has it (one written before the null baseline was run has not)."""
    if points:
        ns = sorted(int(n) for n in points)
        ax.plot(ns, [points[str(n)]["mean"] for n in ns], zorder=1, **style)
    return ax


def interval_bars(points: dict, intervals: dict | None, sizes) -> tuple[list, list]:
    """Means and error bars of one curve (``n -> {mean, std}`` and ``n -> {low, high}``): the
    stored 95% bootstrap interval of each point as asymmetric bars, or the standard deviation
    for a JSON written before intervals were stored."""
    means = [points[str(n)]["mean"] for n in sizes]
    ivs = intervals or {}
    if all(str(n) in ivs for n in sizes):
        return means, [[m - ivs[str(n)]["low"] for m, n in zip(means, sizes)],
                       [ivs[str(n)]["high"] - m for m, n in zip(means, sizes)]]
    return means, [points[str(n)]["std"] for n in sizes]


def recipe_curves(ax, points: dict, seeds: dict):
    """G2S-RNN's seed mean under each recipe other than the shipped one that ``points``
    (one panel's ``model -> n -> {mean}``) has: the variants and the untrained null, one thin
    line each in ``settings.RECIPE_STYLES``, labelled with the recipe's label and the seed
    count of ``seeds[model]``."""
    from g2s.rl.recipes import PAPER, RECIPES
    from reproduce.harness.settings import RECIPE_STYLES
    from reproduce.harness.verdicts.recipes import model_name
    for r in RECIPES.values():
        name = model_name(r.name)
        series = points.get(name)
        if r.name == PAPER or not series:
            continue
        ns = sorted(int(n) for n in series)
        colour, style = RECIPE_STYLES[r.name]
        ax.plot(ns, [series[str(n)]["mean"] for n in ns], color=colour, ls=style, lw=1.2,
                marker=".", label=f"G2S-RNN {r.label} ({len(seeds.get(name, []))} seeds)")
    return ax
