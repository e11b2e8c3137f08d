"""Algorithm 2's arithmetic (:mod:`g2s.algorithm2.fast`): the float32 screen (step 2 of its
docstring) and the sparse product both paths use.

* :func:`neighbour_sum_into` -- the neighbour sum into a reused buffer, with ``int32`` indices,
  checked bit for bit against the literal's ``A @ x``;
* :class:`Weights` -- G2S-RNN's parameters as plain tensors in one dtype, laid out for
  :func:`evaluate`;
* :class:`Screen` -- the float32 evolution of one graph: one state at a time into reused
  buffers, or several stacked by :func:`evaluate`;
* :func:`evaluate` -- the lean evolution of stacked states: one ``16 x 32`` product per step
  serves ``W_{G,1}`` and ``W_4``, in-place ``relu``, ``lerp`` for the gate; scores and scales
  at the depths each state is read at;
* :func:`candidates` -- the MDP's candidates from ``|Gamma(v) cap S|``;
* :func:`complete_greedily` -- the problem's greedy rule that finishes a rollout after a deadline.
"""

from __future__ import annotations

import dataclasses
import heapq
from dataclasses import dataclass, field

import numpy as np
import torch

from g2s.nn.model import QModel

__all__ = ["Weights", "Screen", "evaluate", "candidates", "complete_greedily",
           "neighbour_sum_into"]


def _int32(batch):
    A = batch.adj
    if A.layout != torch.sparse_csr or A.crow_indices().dtype == torch.int32 \
            or A._nnz() >= 2 ** 31:
        return batch
    A32 = torch.sparse_csr_tensor(A.crow_indices().to(torch.int32),
                                  A.col_indices().to(torch.int32), A.values(), A.shape,
                                  check_invariants=False)
    return dataclasses.replace(batch, adj=A32)


def _product(batch):
    A = batch.adj
    if A.layout == torch.sparse_csr:
        return lambda x, out: torch.addmm(out, A, x, beta=0, out=out)
    return lambda x, out: out.copy_(batch.neighbour_sum(x))


def _same_sums(batch, product, dtype, width: int = 16) -> bool:
    g = torch.Generator(device="cpu").manual_seed(0)
    x = torch.randn(batch.num_nodes, width, generator=g, dtype=torch.float64)
    x = x.to(batch.adj.device, dtype)
    out = torch.empty_like(x)
    try:
        return torch.equal(batch.neighbour_sum(x), product(x, out))
    except (RuntimeError, NotImplementedError):     # a layout or device the kernel lacks
        return False


def neighbour_sum_into(batch, width: int = 16):
    """``(product, A)``: ``product(x, out)`` writes ``batch.neighbour_sum(x)`` into ``out`` bit
    for bit, where that was checked to hold (random ``(N, width)`` features, once per call
    here), multiplying by ``A`` (the adjacency with ``int32`` CSR indices, else ``batch.adj``);
    else the plain product copied into ``out``.

    Two things make it faster than ``A @ x``.  MKL's sparse product takes 32-bit indices: given
    64-bit ones, torch converts them on every call.  And ``A @ x`` allocates and zero-fills a
    fresh result (and copies into it): at 25,000 vertices the float64 product took 2.2 ms so
    and 1.1 ms into a reused buffer.  The sum over each row runs in the same order either way,
    so the values are the same; the check makes that a measured fact on the device and library
    at hand, not an assumption."""
    for b in (_int32(batch), batch):
        product = _product(b)
        if _same_sums(batch, product, batch.adj.dtype, width):
            return product, b.adj
    return (lambda x, out: out.copy_(batch.neighbour_sum(x))), batch.adj


@dataclass
class Weights:
    """G2S-RNN's parameters as plain tensors in one dtype, laid out for the lean evolution."""
    Wcat: torch.Tensor        # (d, 2d): [W_{G,1}^T | W_4^T]
    w2: torch.Tensor
    w3: torch.Tensor
    w5: torch.Tensor
    b6: torch.Tensor
    W7t: torch.Tensor
    b8: torch.Tensor
    WQ4t: torch.Tensor
    wQ3: torch.Tensor
    Wself_t: torch.Tensor | None
    WG1t: torch.Tensor = field(init=False)   # W_{G,1}^T and W_4^T, contiguous (derived from
    W4t: torch.Tensor = field(init=False)    # Wcat; the one-column path uses them)

    def __post_init__(self):
        d = self.w2.numel()
        self.WG1t = self.Wcat[:, :d].contiguous()
        self.W4t = self.Wcat[:, d:].contiguous()

    @classmethod
    def of(cls, model: QModel, dtype, device) -> Weights:
        g, r, q = model.encoder.graph2seq, model.encoder.seq2vec, model.qnet

        def t(p):
            return p.detach().to(device=device, dtype=dtype)

        return cls(torch.cat([t(g.W_G1.weight).T, t(r.W_4.weight).T], 1).contiguous(),
                   t(g.w_G2), t(g.w_G3), t(r.w_5), t(r.b_6), t(r.W_7.weight).T.contiguous(),
                   t(r.b_8), t(q.W_Q4.weight).T.contiguous(), t(q.w_Q3.weight).reshape(-1),
                   None if r.W_self is None else t(r.W_self.weight).T.contiguous())


def evaluate(A, W: Weights, c: torch.Tensor, want: dict[int, list[int]]):
    """Scores ``(N,)`` and scales ``(N,)`` at the depths ``want[j]`` of the columns of ``c``.

    ``c``: ``(N, k)`` bool, columns sorted by decreasing ``max(want[j])``.  One stacked
    evolution serves every column; a column stops being computed after its deepest read.
    """
    N, k = c.shape
    d = W.w2.numel()
    dtype = W.Wcat.dtype
    last = [max(want[j]) for j in range(k)]
    cf = c.to(dtype).unsqueeze(-1)                               # (N, k, 1)
    B1 = torch.addcmul(W.w3.expand(N, k, d), cf, W.w2.expand(N, k, d))
    B4 = torch.addcmul(W.b6.expand(N, k, d), cf, W.w5.expand(N, k, d))
    x = torch.relu(B1)                                           # x(1) = relu(w2 c + w3)
    y = torch.zeros_like(x)
    out = {}
    m = k
    for t in range(1, max(last) + 1):
        while m and last[m - 1] < t:
            m -= 1
        if m < x.shape[1]:
            x, y = x[:, :m].contiguous(), y[:, :m].contiguous()
            B1, B4 = B1[:, :m].contiguous(), B4[:, :m].contiguous()
        s = (A @ x.reshape(N, m * d)).reshape(N * m, d)           # s(t) = A x(t)
        f = torch.sigmoid(torch.addmm(W.b8, x.sum(0), W.W7t))      # (m, d): the gate
        P = s @ W.Wcat                                            # [W_{G,1} s | W_4 s]
        i = P[:, d:].reshape(N, m, d).add_(B4)
        if W.Wself_t is not None:
            i.add_((x.reshape(N * m, d) @ W.Wself_t).reshape(N, m, d))
        y.lerp_(i.relu_(), f.expand(N, m, d))                     # y(t) = f i + (1-f) y(t-1)
        for j in range(m):
            if t in want[j]:
                h = torch.relu(y[:, j] @ W.WQ4t)
                out[(j, t)] = (h @ W.wQ3, h @ W.wQ3.abs())
        if t < last[0]:
            x = P[:, :d].reshape(N, m, d).add_(B1).relu_()          # x(t+1)
    return out


class Screen:
    """The float32 screen's evolution of ``batch`` (float32, one graph): :func:`evaluate`'s
    arithmetic, one state at a time into reused buffers on a CPU (a fresh ``(N, d)`` tensor per
    operation costs page faults: at 25,000 vertices most of a step's time), stacked states via
    :func:`evaluate`."""

    def __init__(self, batch, W: Weights):
        d = W.w2.numel()
        self.W = W
        self.product, self.A = neighbour_sum_into(batch, d)
        self.buf = [torch.empty((batch.num_nodes, d), dtype=W.Wcat.dtype,
                                device=batch.device) for _ in range(6)]

    def __call__(self, c: torch.Tensor, want: dict[int, list[int]]):
        if c.shape[1] > 1:
            return evaluate(self.A, self.W, c, want)
        W, N = self.W, c.shape[0]
        d = W.w2.numel()
        x, _, _, y, B1, B4 = self.buf                              # s, i: round's scratch
        cf = c.to(W.Wcat.dtype).reshape(N, 1)
        torch.addcmul(W.w3.expand(N, d), cf, W.w2.expand(N, d), out=B1)
        torch.addcmul(W.b6.expand(N, d), cf, W.w5.expand(N, d), out=B4)
        x.copy_(B1).relu_()                                       # x(1) = relu(w2 c + w3)
        y.zero_()
        out, depths = {}, want[0]
        last = max(depths)
        for t in range(1, last + 1):
            self.round(x, y, B1, B4, x if t < last else None)
            if t in depths:
                h = torch.relu(y @ W.WQ4t)
                out[(0, t)] = (h @ W.wQ3, h @ W.wQ3.abs())
        return out

    def round(self, x, y, B1, B4, x_next=None) -> None:
        """One round of one state, in place: ``y(t)`` into ``y`` from ``x(t)`` and ``y(t-1)``;
        ``x(t+1)`` into ``x_next`` (which may be ``x``) unless it is ``None``.  ``B1`` and
        ``B4`` are the state's biases (``w_{G,3} + c w_{G,2}``, ``b_6 + c w_5``)."""
        W, s, i = self.W, self.buf[1], self.buf[2]
        self.product(x, s)                                        # s(t) = A x(t)
        f = torch.sigmoid(torch.addmm(W.b8, x.sum(0, keepdim=True), W.W7t))   # the gate
        torch.addmm(B4, s, W.W4t, out=i)
        if W.Wself_t is not None:
            i.addmm_(x, W.Wself_t)
        y.lerp_(i.relu_(), f)                                     # y(t) = f i + (1-f) y(t-1)
        if x_next is not None:
            torch.addmm(B1, s, W.WG1t, out=x_next).relu_()        # x(t+1)


def candidates(problem: str, sel: torch.Tensor, inside: torch.Tensor, deg: torch.Tensor):
    """The MDP's candidates (:func:`g2s.rl.env.candidate_mask`) from ``|Gamma(v) cap S|``."""
    if problem == "mvc":
        return ~sel & (inside < deg)                  # some incident edge is uncovered
    if problem == "mis":
        return ~sel & (inside == 0)                   # no neighbour in S
    return ~sel & (deg - 2 * inside > 0)              # max cut: positive gain


def complete_greedily(problem: str, sel, inside, deg, crow, col) -> list[int]:
    """The vertices the problem's greedy rule adds, in order, to finish one rollout after a
    deadline (``sel``, ``inside`` = ``|Gamma(v) cap S|`` and ``deg`` as numpy arrays, the
    adjacency as CSR ``crow``/``col``; none of them is modified).

    The rule: repeatedly add the candidate with the largest key -- MVC its uncovered edges
    ``deg - inside``, max cut its gain ``deg - 2 inside``, MIS minus its candidate neighbours
    -- ties to the smallest index (``argmax``'s first maximum).  Keys change only at the
    neighbours of an added vertex (for MIS, at the neighbours of every vertex that stops being
    a candidate), so a heap with lazily discarded stale entries makes the same choices as
    re-reading every key at every step, in ``O((n + m) log n)`` instead of ``O(n)`` per added
    vertex (before, a whole-graph pass per vertex: 25 s on a 10,000-vertex sparse graph)."""
    sel = np.array(sel, dtype=bool)
    inside = np.array(inside, dtype=np.int64)
    deg = np.asarray(deg, dtype=np.int64)
    crow, col = np.asarray(crow), np.asarray(col)
    if problem == "mis":
        cand = ~sel & (inside == 0)
        # key = -(candidate neighbours): per vertex, the candidates among its neighbours
        key = -np.add.reduceat(np.append(cand[col], False).astype(np.int64), crow[:-1]) \
            if len(col) else np.zeros(len(deg), dtype=np.int64)
        key[crow[:-1] == crow[1:]] = 0                     # reduceat's value for no neighbours
    else:
        key = deg - (1 if problem == "mvc" else 2) * inside
        cand = ~sel & (key > 0)
    heap = [(-int(key[v]), int(v)) for v in np.flatnonzero(cand)]
    heapq.heapify(heap)
    added = []

    def push(v):
        heapq.heappush(heap, (-int(key[v]), v))

    while heap:
        negk, a = heapq.heappop(heap)
        if not cand[a] or -negk != key[a]:
            continue                                       # taken, no longer a candidate, stale
        added.append(a)
        sel[a], cand[a] = True, False
        nbrs = col[crow[a]:crow[a + 1]].tolist()
        if problem == "mis":
            gone = [a] + [u for u in nbrs if cand[u]]
            for u in gone[1:]:
                cand[u] = False
            for u in gone:                                 # their neighbours lose a candidate
                for w in col[crow[u]:crow[u + 1]].tolist():
                    key[w] += 1
                    if cand[w]:
                        push(w)
        else:
            step = 1 if problem == "mvc" else 2
            for u in nbrs:
                key[u] -= step
                if cand[u]:
                    if key[u] > 0:
                        push(u)
                    else:
                        cand[u] = False
    return added
