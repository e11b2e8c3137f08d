"""The literal Algorithm 2's decision for one rollout step, from cheaper scores.

Used by :mod:`g2s.algorithm2.fast` (its module docstring gives the argument, steps 2-3):

* :class:`ExactScores` -- the literal's own float64 arithmetic on one state, read at several
  depths of one evolution: bit for bit the literal's rounded scores, so its argmax *is* the
  literal's decision;
* :class:`Decider` -- the float32 screen: one survivor within the adaptive error margin of the
  maximum is the literal's choice; anything else (and every calibration) is decided by
  :class:`ExactScores`.
"""

from __future__ import annotations

import numpy as np
import torch

from g2s.algorithm2.evolve import neighbour_sum_into
from g2s.algorithm2.quantise import SCORE_QUANTUM, quantise

__all__ = ["RELATIVE_MARGIN", "Decider", "ExactScores"]

#: float32 scores within this fraction of the score scale of the maximum are re-checked (the
#: floor of the adaptive margin, which is kept at 10x the largest float32 error measured in the
#: run).  Largest float32 errors measured (relative to the scale): 1.0e-6 on sparse ER
#: n = 25,000 (4.2e-6 in an earlier probe), 7.0e-6 on ER(3,200, 0.15), 1.2e-5 on bipartite
#: n = 3,200.  It was 1e-4 until every undecided float32 screen was rescored in float64 and the
#: first :data:`_WARM` float32 decisions of a run were all rescored, so that the margin has
#: measured errors behind it before the floor matters; 2e-5 sends a third as many decisions to
#: the re-check at n = 25,000.
RELATIVE_MARGIN = 2e-5

#: every this many float32 decisions, one is re-checked to keep measuring float32's error
_CALIBRATE = 64
#: the first this many float32 decisions of a run are all re-checked (measuring the error; the
#: count is part of the resume state)
_WARM = 16
#: a rollout moves to float64 when more than this many of its last :data:`_WINDOW` float32
#: decisions needed the exact scores
_WINDOW, _SWITCH = 32, 8


class ExactScores:
    """The literal's rounded scores of one state at several depths, from one evolution.

    Each round performs the literal's floating-point operations
    (:meth:`g2s.nn.model.G2SRNNEncoder.rounds`: :class:`g2s.nn.graph2seq.Graph2Seq`, the
    neighbour sum, :class:`g2s.nn.seq2vec.Seq2Vec`; then the Q-network's vertex term and
    :func:`g2s.algorithm2.quantise.quantise`) on the same operands, in the same order, on a
    one-column state of the literal's shape and dtype -- the linear maps are the model's own weights
    through the product ``nn.Linear`` computes, ``x @ W.t()`` -- but writes every result into
    buffers kept between calls instead of a fresh tensor per operation (at 25,000 vertices the
    literal's round is mostly allocation and elementwise work; this one takes half its time).
    IEEE arithmetic rounds each operation the same wherever its result is stored, ``+`` and
    ``*`` commute exactly, and the one fused operation, ``z + c w`` as ``addcmul``, adds an
    exact product (``c`` is 0 or 1), so every value is the literal's bit for bit.  ``y(t)``
    after ``t`` rounds does not depend on how many rounds follow, so depth ``t`` of a deeper
    evolution has the bits the literal gets with ``T = t``.  ``tests/g2s/test_algorithm2.py``
    compares scores bit for bit at every depth.  Returns ``{t: (k, raw, scale)}``: the rounded
    score, the score and the per-vertex scale ``|w_{Q,3}|^T relu(W_{Q,4} y_v)``.
    """

    def __init__(self, model, batch):
        if batch.num_graphs != 1:
            raise ValueError("ExactScores evolves one graph")
        self.model, self.batch = model, batch
        self.product, _ = neighbour_sum_into(batch, model.encoder.dim)
        self.w3abs = model.qnet.w_Q3.weight.detach().abs().reshape(-1)
        shape = (batch.num_nodes, model.encoder.dim)
        self.buffers = [torch.empty(shape, dtype=batch.adj.dtype, device=batch.device)
                        for _ in range(4)]

    @torch.no_grad()
    def __call__(self, c: torch.Tensor, depths) -> dict:
        enc, batch = self.model.encoder, self.batch
        g, r = enc.graph2seq, enc.seq2vec
        want, out = set(depths), {}
        c1 = c.to(g.w_G2.dtype).unsqueeze(-1)                       # (N, 1), 0 or 1
        x, nbr, i, y = self.buffers                                 # reused: no page faults
        nbr.zero_()                                                 # x(0)'s neighbour sum
        y.zero_()
        WG1, W4 = g.W_G1.weight.t(), r.W_4.weight.t()               # the modules' own maps
        for t in range(1, max(want) + 1):
            # Graph2Seq: x(t) = relu(W_G1 nbr + c w_G2 + w_G3)
            torch.mm(nbr, WG1, out=x).addcmul_(c1, g.w_G2).add_(g.w_G3).relu_()
            self.product(x, nbr)
            # Seq2Vec: i = relu(W_4 nbr + c w_5 + b_6 [+ W_self x]); y = f i + (1 - f) y
            torch.mm(nbr, W4, out=i).addcmul_(c1, r.w_5).add_(r.b_6)
            if r.W_self is not None:
                i.add_(r.W_self(x))
            f = torch.sigmoid(r.W_7(batch.graph_sum(x)) + r.b_8)    # (1, d): one graph
            y.mul_(1.0 - f).add_(i.relu_().mul_(f))
            if t in want:
                raw, h = self.model.qnet.vertex_term_parts(y)
                out[t] = (quantise(raw), raw, h @ self.w3abs)
        return out


def choose(k: torch.Tensor, cand: torch.Tensor) -> int:
    """The literal's argmax: the first candidate of the largest rounded score."""
    return int(torch.argmax(k.masked_fill(~cand, float("-inf"))))


class Decider:
    """Float32-screened decisions (module docstring of :mod:`g2s.algorithm2.fast`, step 2).

    The margin adapts: every exact rescoring measures the float32 error on every candidate of
    that state, and the margin is kept at ``10x`` the largest ratio of that error to the score
    scale (the largest ``|w_{Q,3}|^T relu(W_{Q,4} y_v)`` over the candidates) seen in this run,
    never below :data:`RELATIVE_MARGIN`.  Every :data:`_CALIBRATE` th float32 decision (and
    each of the first :data:`_WARM`) is rescored even when its winner is clear, so the error
    keeps being measured as the states (and the magnitudes) change.
    """

    def __init__(self, counts, ratios, R):
        self.counts, self.ratios = counts, ratios
        self.recent = [[] for _ in range(R)]

    def margin(self) -> float:
        return max(RELATIVE_MARGIN, 10 * self.ratios["float32"])

    def wants_float64(self, r: int) -> bool:
        """More than :data:`_SWITCH` of rollout ``r``'s last :data:`_WINDOW` float32 decisions
        needed the exact scores (at least half a window seen)."""
        w = self.recent[r][-_WINDOW:]
        return len(w) >= _WINDOW // 2 and sum(w) > _SWITCH

    def wants_float32(self, r: int) -> bool:
        """At most ``_SWITCH // 2`` of rollout ``r``'s last :data:`_WINDOW` float64 decisions
        would have been left open by the float32 screen (:meth:`note_float64`): a whole window
        seen, and half the threshold of :meth:`wants_float64`, so a rollout does not flap."""
        w = self.recent[r][-_WINDOW:]
        return len(w) >= _WINDOW and sum(w) <= _SWITCH // 2

    def switched(self, r: int) -> None:
        """Rollout ``r`` changed precision: its window starts again."""
        self.recent[r] = []

    def note_float64(self, r, raw, scale, cand) -> None:
        """Would the float32 screen have settled this float64 decision?  Yes when the best
        candidate's exact score leads the second's by more than ``2 delta + q`` plus twice the
        largest float32 error measured (``2 e``): float32 scores within ``e`` of the exact ones
        then leave one survivor.  Recorded for :meth:`wants_float32`; costs one ``topk``."""
        if int(cand.sum()) < 2:
            self.recent[r].append(False)
            return
        big = float(scale.masked_fill(~cand, 0).max())
        top2 = torch.topk(raw.masked_fill(~cand, float("-inf")), 2).values
        lead = float(top2[0] - top2[1])
        need = 2 * (self.margin() + self.ratios["float32"]) * big + SCORE_QUANTUM
        self.recent[r].append(not (np.isfinite(lead) and lead > need))

    def many(self, flat, cand_all, exact) -> dict:
        """Decisions for several rollouts at once (``flat``: ``(r, (score, scale))`` from the
        float32 evolution): one device-to-host transfer settles every rollout whose screen
        leaves one survivor; the others, and calibrations, are decided by ``exact(r)``, the
        literal's scores of rollout ``r``'s state (``(k, raw, scale)``)."""
        rs = [r for r, _ in flat]
        score = torch.stack([sc for _, (sc, _) in flat], 1)
        scale = torch.stack([b for _, (_, b) in flat], 1)
        cand = cand_all[:, rs]
        big = scale.masked_fill(~cand, 0).max(0).values
        masked = score.masked_fill(~cand, float("-inf"))
        top = masked.max(0).values
        # a candidate less than one quantum below the top can round to the same k and win
        # on a smaller index
        close = masked >= (top - 2 * self.margin() * big - SCORE_QUANTUM).unsqueeze(0)
        pack = torch.stack([close.sum(0).to(torch.float64), close.to(torch.uint8).argmax(0)
                            .to(torch.float64), top.to(torch.float64), big.to(torch.float64)])
        count, first, top, big = pack.cpu().numpy()
        out = {}
        for j, r in enumerate(rs):
            k = self.counts["decisions"] + 1
            seen = self.counts["float32_decisions"]
            calibrate = k % _CALIBRATE == 0 or seen < _WARM
            self.counts["float32_decisions"] = seen + 1
            settled = count[j] == 1 and np.isfinite(top[j]) and np.isfinite(big[j])
            if settled and not calibrate:
                self.counts["decisions"] += 1
                self.counts["screen_unique"] += 1
                self.recent[r].append(False)
                out[r] = int(first[j])
            else:
                out[r] = self._rescore(r, cand[:, j], flat[j][1][0], exact(r), not settled)
        return out

    def _rescore(self, r, cand, s32, exact, needed) -> int:
        """A float32 decision the screen did not settle (``needed``) or a calibration, from the
        literal's scores; only a needed one counts towards moving the rollout to float64."""
        self.counts["float64_rescores"] += 1
        self.counts["decisions"] += 1
        k, raw, scale = exact
        big = float(scale.masked_fill(~cand, 0).max())
        if big and np.isfinite(big):
            err = (s32.to(raw.dtype) - raw).abs().masked_fill(~cand, 0)
            ratio = float(err.max()) / big
            if np.isfinite(ratio):
                self.ratios["float32"] = max(self.ratios["float32"], ratio)
        self.recent[r].append(needed)
        return choose(k, cand)
