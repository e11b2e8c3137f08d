"""Theorem 1's figure from the script's JSON: :func:`plot` returns ``(fig, axes)``."""

from __future__ import annotations

import numpy as np

from reproduce.theorem1_parts.config import TARGET

__all__ = ["plot_recovery", "plot_tigramite", "plot"]


def _setting(part: dict) -> str:
    kind, n, d = part["setting"]
    return f"{kind}, n={n}, d={d}"


def _errbar(ax, x, est, ci, **kw):
    est = np.asarray(est, dtype=float)
    lo, hi = np.asarray([c[0] for c in ci]), np.asarray([c[1] for c in ci])
    return ax.errorbar(x, est, yerr=[np.maximum(est - lo, 0), np.maximum(hi - est, 0)],
                       capsize=3, **kw)


def plot_recovery(ax, curves, key="error_rate", ci_key="error_ci95"):
    """Exact-recovery error (or another per-point rate) against t, one line per (n, d)."""
    for c in curves:
        pts = c["points"]
        _errbar(ax, [p["T"] for p in pts], [p[key] for p in pts], [p[ci_key] for p in pts],
                marker="o" if c["d"] == 1 else "s", ls="-" if c["d"] == 1 else "--",
                label=f'n={c["n"]}, d={c["d"]}')
    ax.set(xscale="log", xlabel="trajectory length t")
    return ax


def plot_tigramite(ax, comparison):
    """Exact-recovery rate of the DI estimator and PCMCI on the same trajectories."""
    rows = [r for r in (comparison or {}).get("rows", []) if r.get("graphs")]
    if not rows:
        ax.text(0.5, 0.5, "no tigramite comparison\n(benchmarks/bench_graph_recovery.py)",
                ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return ax
    tools = sorted({r["tool"] for r in rows})
    settings = sorted({(r["n"], r["d"], r["T"]) for r in rows})
    width = 0.8 / len(tools)
    for i, tool in enumerate(tools):
        by = {(r["n"], r["d"], r["T"]): r for r in rows if r["tool"] == tool}
        xs = [j + i * width for j, s in enumerate(settings) if s in by]
        est = [by[s]["exact_rate"] for s in settings if s in by]
        ci = [by[s]["exact_ci95"] for s in settings if s in by]
        _errbar(ax, xs, est, ci, fmt="o", label=tool)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(settings))])
    ax.set_xticklabels([f"n={n}\nd={d}\nt={T}" for n, d, T in settings], fontsize=7)
    ax.set(ylabel="exact-recovery rate", ylim=(-0.02, 1.02),
           title="same trajectories: DI (ours) vs tigramite PCMCI")
    ax.legend(fontsize=7)
    return ax


def plot(result: dict):
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 4, figsize=(21, 8.4))
    curves = result["recovery"]["curves"]
    ax = plot_recovery(axes[0, 0], curves)
    ax.axhline(1 - TARGET, color="grey", lw=0.8, ls=":")
    ax.set(ylabel=r"$P[\hat G_t \neq G]$", ylim=(-0.02, 1.02),
           title="Theorem 1: exact-recovery error (Wilson 95%)")
    ax.legend(fontsize=7)
    ax = plot_recovery(axes[0, 1], curves, "recall", "recall_ci95")
    ax.set(ylabel="edge recall", title="edge recall (bootstrap 95% over graphs)")
    ax = plot_recovery(axes[0, 2], curves, "precision", "precision_ci95")
    ax.set(ylabel="edge precision", title="edge precision (bootstrap 95% over graphs)")
    ax = plot_recovery(axes[1, 0], curves, "false_edge_graph_rate", "false_edge_graph_ci95")
    Ts = sorted({p["T"] for c in curves for p in c["points"]})
    from theory.directed_information import recovery_alpha
    ax.plot(Ts, [recovery_alpha(T) for T in Ts], "k:", label=r"nominal $\alpha_t$")
    ax.set(ylabel="graphs with a false edge", title="level control (family-wise)")
    ax.legend(fontsize=7)
    plot_tigramite(axes[1, 1], result.get("tigramite"))
    ax = axes[1, 2]
    for m, ls in (("kde", "-"), ("knn", "--")):
        pts = result["estimator_comparison"][m]
        ax.plot([p["T"] for p in pts], [p["error_rate"] for p in pts], ls, marker="o",
                label=f'full conditioning, {m.upper()}')
    ax.set(xscale="log", xlabel="trajectory length t", ylabel="exact-recovery error",
           ylim=(-0.02, 1.02),
           title=f'KDE vs kNN plug-in, G(n,1/2), {_setting(result["estimator_comparison"])}')
    ax.legend(fontsize=7)
    ax = axes[1, 3]
    sweep = result["sigma_sweep"]
    xs = [p["sigma"] if p["sigma"] > 0 else 1e-4 for p in sweep["points"]]
    ax.plot(xs, [p["error_rate"] for p in sweep["points"]], "o-", label="all t from x(0) = 0")
    ax.plot(xs, [p["error_rate"] for p in sweep["points_after_burn_in"]], "s--",
            label=f'first {sweep["burn_in"]} steps discarded')
    ax.set(xscale="log", xlabel=r"noise $\sigma$ ($\sigma=0$ drawn at $10^{-4}$)",
           ylabel="exact-recovery error", ylim=(-0.02, 1.02),
           title=f'sigma -> 0, {_setting(sweep)}, t={sweep["T"]}')
    ax.legend(fontsize=7)
    prop1 = result["proposition1_recovery"]
    ax = axes[0, 3]
    for name in ("R1", "R2"):
        pts = [p for p in prop1 if p["graph"] == name]
        _errbar(ax, [p["T"] for p in pts], [p["exact_rate"] for p in pts],
                [p["exact_ci95"] for p in pts], marker="o", label=name)
    ax.set(xscale="log", xlabel="trajectory length t", ylabel="exact-recovery rate",
           ylim=(-0.02, 1.02), title="Proposition 1's R1, R2 with noise (sigma = 1)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig, axes
