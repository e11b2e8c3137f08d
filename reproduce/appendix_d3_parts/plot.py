"""Figures 7 and 8 of Appendix D.3 from the script's JSON: returns ``(fig, axes)``."""

from __future__ import annotations

import numpy as np

from reproduce.appendix_d3_parts.summary import LATCH_KINDS
from reproduce.harness import settings as S

__all__ = ["plot", "LATCH_COLOURS"]

#: the latching panels' colour per model kind
LATCH_COLOURS = dict(zip(LATCH_KINDS, ("C0", "C3", "C2", "C1")))
COLOURS = S.FAMILY_COLOURS

def plot(result: dict):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 4, figsize=(19, 8.5))
    ax = ax.ravel()
    L = result["layers"]
    col = result["collapse"]
    for f, by_n in col["shipped"].items():
        n = max(by_n, key=int)
        ax[0].plot(L, by_n[n]["zeros"], "o-", ms=3, color=COLOURS[f], label=f"{f} n={n}")
        ax[0].plot(L, by_n[n]["rollout"], ":", color=COLOURS[f])
        if "early20k" in col:
            ax[0].plot(L, col["early20k"][f][n]["zeros"], "--", color=COLOURS[f], lw=1)
    ax[0].axhline(S.D3_COLLAPSE_ZEROS, color="k", lw=0.8)
    ax[0].set(xlabel="layer t", ylabel="zero coordinates of x_v(t) (of 16)", ylim=(0, 16),
              title="(a) dimension collapse\nsolid S={}, dotted rollout, dashed early20k")
    ax[0].legend(fontsize=7)
    ex = result["pca_example"]
    deg = np.asarray(ex["degree"])
    for v in range(len(deg)):
        pts = [(t, s[v]) for t, s in zip(L, ex["scores"]) if s is not None]
        ax[1].plot(*zip(*pts), color=plt.cm.viridis(deg[v] / max(deg.max(), 1)), lw=1)
    ax[1].set(xlabel="layer t", ylabel="PC1 score", title="(b) Fig. 7(b): ER n=10, seed 0\n"
              "colour = degree (yellow high)")
    for f, by_n in result["pca"]["shipped"].items():
        n = max(by_n, key=int)
        cos = by_n[n]["cos_next"]
        ax[2].plot(L[:-1], [np.nan if c is None else c for c in cos], "o-", ms=3,
                   color=COLOURS[f], label=f"{f} n={n} (t, t+1)")
    ax[2].plot(L, [np.nan if c is None else c for c in ex["cos_ref"]], "k--",
               label=f"example: (t, {result['ref_layer']})")
    ax[2].set(xlabel="layer t", ylabel="|cos| of first principal directions", ylim=(0, 1.05),
              title="(c) PC alignment (median over graphs)")
    ax[2].legend(fontsize=7)
    for f, by_n in result["depth"].items():
        n = str(result["paper_depth_n"]) if str(result["paper_depth_n"]) in by_n else min(by_n)
        r = by_n[n]["ratio"]
        ax[3].plot(range(1, len(r) + 1), r, "o-", ms=3, color=COLOURS[f], label=f"{f} n={n}")
    ax[3].set(xlabel="number of layers T", ylabel="cover size / optimum",
              title="(d) Fig. 8(a): Algorithm 2's per-T covers")
    ax[3].legend(fontsize=7)
    lat = result["latching"]
    for f, ls in (("planted", "-"), ("er", ":")):
        for kind, c in LATCH_COLOURS.items():
            if lat.get(f, {}).get(kind):
                ax[4].plot(L, lat[f][kind]["overlap"], ls, color=c, label=f"{kind} {f}-15")
                ax[5].plot(L[:-1], lat[f][kind]["flip"], ls, color=c, label=f"{kind} {f}-15")
    for a in (ax[4], ax[5]):
        a.axvline(result["s2v_trained_depth"], color="0.6", lw=0.8)
        a.legend(fontsize=7)
    ax[4].set(xlabel="layer", ylabel="top-k overlap with nearest min cover", ylim=(0, 1.05),
              title="(e) per-layer Q2 top-k vs optimal covers")
    ax[5].set(xlabel="layer t (pair t -> t+1)", ylabel="fraction of vertices changing side",
              ylim=(0, 1.05), title="(f) side flips of centred Q2")
    ex = result["latch_example"]
    panels = [(ax[6], "planted_g2s_s0" if "planted_g2s_s0" in ex else "g2s_s0",
               "(g) Fig. 8(b): G2S-RNN"),
              (ax[7], "planted_s2v_s0" if "planted_s2v_s0" in ex else "s2v_s0",
               "(h) Fig. 8(c): Structure2Vec")]
    for a, m, title in panels:
        if m in ex:
            a.imshow(np.asarray(ex[m]).T > 0, cmap="YlGn", aspect="auto",
                     extent=(0.5, len(ex[m]) + 0.5, len(ex[m][0]) - 0.5, -0.5))
            a.axhline(ex["k"] - 0.5, color="r", lw=1)
        a.set(xlabel="layer", ylabel="vertex (planted cover above red line)",
              title=f"{title} ({m})\ncentred Q2 > 0 (green), planted-15 graph 0")
    fig.tight_layout()
    return fig, ax
