"""The literal Algorithm 2's decision for one rollout step, from cheaper scores.

Used by :mod:`g2s.algorithm2` (its module docstring gives the argument, steps 2-4): the
float64 rule (the literal's rounded score where it is certain), the float32 screen, the 1-WL
tie test (:func:`wl_hash`), and the literal's own float64 computation as the fallback, with
the error bounds measured and adapted during the run.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
import torch

__all__ = ["RELATIVE_MARGIN", "Decider", "wl_hash"]

#: float32 scores within this fraction of the score scale of the maximum are re-checked (the
#: floor of the adaptive margin, which is kept at 10x the largest float32 error measured in the
#: run).  Largest float32 errors measured (relative to the scale): 1.0e-6 on sparse ER
#: n = 25,000 (4.2e-6 in an earlier probe), 7.0e-6 on ER(3,200, 0.15), 1.2e-5 on bipartite
#: n = 3,200.  It was 1e-4 until every undecided float32 screen was rescored in float64 by the
#: lean evolution (about half the literal's cost) and the first :data:`_WARM` float32 decisions
#: of a run were all rescored, so that the margin has measured errors behind it before the floor
#: matters; 2e-5 sends a third as many decisions to the re-check at n = 25,000.
RELATIVE_MARGIN = 2e-5


def _splitmix(z: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def wl_hash(adj: sp.csr_matrix, c: np.ndarray, rounds: int) -> np.ndarray:
    """64-bit hash of each vertex's 1-WL colour after ``rounds`` refinements from ``c``.

    ``h_0(v) = mix(c_v)``,
    ``h_t(v) = mix(h_{t-1}(v) xor mix(sum_{u in Gamma(v)} mix'(h_{t-1}(u))))`` with wrapping
    ``uint64`` sums: equal colours give equal hashes; different colours collide with
    probability about ``2^-64`` per pair.  ``adj`` has ``uint64`` ones as values.
    """
    h = _splitmix(c.astype(np.uint64))
    for _ in range(rounds):
        with np.errstate(over="ignore"):
            agg = adj @ _splitmix(h ^ np.uint64(0x5851F42D4C957F2D))
        h = _splitmix(h ^ _splitmix(agg))
    return h


#: the literal's float64 rounding noise, relative to the score scale (generous: float32 shows
#: at most ~7.5e4 ulps of error against float64; the same in float64 is ~8e-12)
_F64_NOISE = 1e-10
#: the float64 screen's noise bound never goes below this (relative to the scale; the largest
#: difference measured between this module's float64 arithmetic and the literal's is 1.7e-12,
#: typically ~1e-15; the bound also adapts to 10x the largest difference seen in the run)
_F64_MARGIN = 2e-11
#: every this many float32 decisions, one is re-checked to keep measuring float32's error
_CALIBRATE = 64
#: the first this many float32 decisions of a run are all re-checked (measuring the error; the
#: count is part of the resume state)
_WARM = 16
#: a rollout moves to float64 screening when more than this many of its last
#: :data:`_WINDOW` float32 decisions needed the literal's re-check
_WINDOW, _SWITCH = 32, 8


class Decider:
    """The literal's choice for one rollout step (module docstring, steps 1-4).

    Margins adapt: every re-check measures the screen's error on every candidate of that state,
    and the margin of that precision is kept at ``10x`` the largest ratio of that error to the
    score scale (the largest ``|w_{Q,3}|^T relu(W_{Q,4} y_v)`` over the candidates) seen in
    this run, never below :data:`RELATIVE_MARGIN` (float32) or :data:`_F64_MARGIN` (float64).
    Every :data:`_CALIBRATE` th float32 decision (and each of the first :data:`_WARM`) is
    re-checked even when its winner is clear, so the error keeps being measured as the states
    (and the magnitudes) change.  A float32 re-check is a float64 rescoring of that state by the
    lean evolution (:meth:`many`'s ``rescore``), decided by the float64 rule; only what that
    rule cannot settle reaches the literal's own computation.
    """

    def __init__(self, model, problem, batch, A_u64, counts, ratios, R):
        from g2s.evaluate import SCORE_QUANTUM, _vertex_scores
        self.model, self.problem, self.batch, self.A_u64 = model, problem, batch, A_u64
        self.counts, self.ratios = counts, ratios
        self.q = SCORE_QUANTUM
        self.exact_scores = _vertex_scores
        self.recent = [[] for _ in range(R)]

    def margin(self, double: bool) -> float:
        if double:
            return max(_F64_MARGIN, 10 * self.ratios["float64"])
        return max(RELATIVE_MARGIN, 10 * self.ratios["float32"])

    def wants_float64(self, r: int) -> bool:
        w = self.recent[r][-_WINDOW:]
        return len(w) >= _WINDOW // 2 and sum(w) > _SWITCH

    def literal(self, c, cand, T, score, big, double):
        """The literal's decision, from its own float64 computation of this state (the
        operations of :func:`g2s.evaluate._vertex_scores`, whose rounding is applied here)."""
        self.counts["float64_rechecks"] += 1
        model = self.model
        raw = model.qnet.vertex_term(model.embed(self.batch, c.to(self.batch.adj.dtype), T=T))
        if big and np.isfinite(big):
            err = (score.to(raw.dtype) - raw).abs().masked_fill(~cand, 0)
            ratio = float(err.max()) / big
            key = "float64" if double else "float32"
            if np.isfinite(ratio):
                self.ratios[key] = max(self.ratios[key], ratio)
        exact = torch.round(raw / self.q)
        return int(torch.argmax(exact.masked_fill(~cand, float("-inf"))))

    def _certain(self, score, scale, cand):
        """The float64 rule on stacked columns: ``(close, top, big)``, the candidates that could
        reach the largest certain rounded score ``top`` (per column) and the score scale;
        ``top`` is NaN when one of them lies within the noise bound of a rounding boundary
        (then only the literal decides)."""
        big = scale.masked_fill(~cand, 0).max(0).values
        # the literal's rounded score k = round(s / q) is certain where s / q is farther than
        # the noise bound from a rounding boundary; the literal's argmax is then the first
        # candidate of the largest k, unless an uncertain candidate could reach it
        eps = (self.margin(True) * big / self.q).unsqueeze(0)
        x = score / self.q
        lo = torch.round(x - eps).masked_fill(~cand, float("-inf"))
        hi = torch.round(x + eps).masked_fill(~cand, float("-inf"))
        top = lo.max(0).values
        close = hi >= top.unsqueeze(0)
        unsure = (close & (lo != hi)).any(0)
        return close, top.masked_fill(unsure, float("nan")), big   # NaN: the slow path

    def many(self, flat, sel, cand_all, double, rescore=None) -> dict:
        """Decisions for several rollouts at once: one device-to-host transfer settles every
        rollout whose screen leaves one survivor.  A float32 screen that leaves several (and
        every :data:`_CALIBRATE` th float32 decision) goes to ``rescore(r)``, the float64
        scores of rollout ``r``'s state from the lean evolution, which measure the float32
        error on every candidate and decide by the float64 rule; what that rule cannot
        settle goes through :meth:`__call__` (WL ties, then the literal)."""
        rs = [r for r, _ in flat]
        score = torch.stack([sc for _, (sc, _) in flat], 1)
        scale = torch.stack([b for _, (_, b) in flat], 1)
        cand = cand_all[:, rs]
        if double:
            close, top, big = self._certain(score, scale, cand)
        else:
            big = scale.masked_fill(~cand, 0).max(0).values
            masked = score.masked_fill(~cand, float("-inf"))
            top = masked.max(0).values
            close = masked >= (top - 2 * self.margin(False) * big - self.q).unsqueeze(0)
        pack = torch.stack([close.sum(0).to(torch.float64), close.to(torch.uint8).argmax(0)
                            .to(torch.float64), top.to(torch.float64), big.to(torch.float64)])
        count, first, top, big = pack.cpu().numpy()
        out = {}
        for j, r in enumerate(rs):
            k = self.counts["decisions"] + 1
            seen = self.counts["float32_decisions"]
            calibrate = not double and (k % _CALIBRATE == 0 or seen < _WARM)
            self.counts["float32_decisions"] = seen + (not double)
            settled = count[j] == 1 or (double and count[j] >= 1)   # first of the largest k
            settled = settled and np.isfinite(top[j]) and np.isfinite(big[j])
            if settled and not calibrate:
                self.counts["decisions"] += 1
                self.counts["screen_unique"] += 1
                self.recent[r].append(False)
                out[r] = int(first[j])
            elif not double and rescore is not None:
                out[r] = self._cascade(r, sel, cand[:, j], flat[j][1], rescore(r),
                                       needed=not settled)
            else:
                out[r] = self(r, sel[:, r], cand[:, j], flat[j][1][0], flat[j][1][1], r + 1,
                              double)
        return out

    def _cascade(self, r, sel, cand, screened, exact, needed=True):
        """A float32 decision the screen did not settle (``needed``) or a calibration, from the
        float64 scores ``exact``; only a needed one counts towards switching the rollout to
        float64 screening."""
        self.counts["float64_rescores"] += 1
        (s32, _), (s64, b64) = screened, exact
        big = float(b64.masked_fill(~cand, 0).max())
        if big and np.isfinite(big):
            err = (s32.to(s64.dtype) - s64).abs().masked_fill(~cand, 0)
            ratio = float(err.max()) / big
            if np.isfinite(ratio):
                self.ratios["float32"] = max(self.ratios["float32"], ratio)
        close, top, big64 = self._certain(s64.unsqueeze(1), b64.unsqueeze(1), cand.unsqueeze(1))
        if bool(torch.isfinite(top).all()) and bool(torch.isfinite(big64).all()):
            self.counts["decisions"] += 1
            self.recent[r].append(needed)
            return int(close[:, 0].to(torch.uint8).argmax())
        return self(r, sel[:, r], cand, s64, b64, r + 1, True)     # records ``recent``

    def __call__(self, r, c, cand, score, scale, T, double):
        counts = self.counts
        counts["decisions"] += 1
        masked = score.masked_fill(~cand, float("-inf"))
        top = float(masked.max())
        big = float(scale.masked_fill(~cand, 0).max())
        recheck = not (np.isfinite(top) and np.isfinite(big)) or \
            (not double and counts["decisions"] % _CALIBRATE == 0)
        if not recheck:
            close = torch.nonzero(masked >= top - 2 * self.margin(double) * big - self.q)
            close = close.squeeze(1)
            if close.numel() == 1:
                counts["screen_unique"] += 1
                self.recent[r].append(False)
                return int(close[0])
            if big * _F64_NOISE < self.q / 4:     # the literal's rounding cannot split a tie
                idx = close.cpu().numpy()
                h = wl_hash(self.A_u64, c.cpu().numpy(), T)[idx]
                if (h == h[0]).all():
                    counts["wl_ties"] += 1
                    self.recent[r].append(False)
                    return int(idx.min())
        self.recent[r].append(True)
        return self.literal(c, cand, T, score, big, double)
