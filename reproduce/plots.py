"""Shared plotting of the approximation-ratio figures (rliable's habit: these functions take an
``ax``, draw, and return it; only scripts write files)."""

from __future__ import annotations

__all__ = ["ratio_panel"]


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
