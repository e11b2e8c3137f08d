"""WL kernel embedding (Shervashidze et al., JMLR 2011, WL subtree kernel): parameter-free.

Appendix D of arXiv:1802.04948: "the feature map corresponding to WL subtree kernel of the
subgraph in a 5-hop neighborhood around each vertex is used as its vertex embedding", with "a
standard SHA hash function for label shortening at each step" instead of a learned dictionary.

For each vertex ``v``, on the subgraph ``B_v`` induced by the ``r``-ball of ``v`` (``r = 5``),
WL relabelling (Shervashidze et al., Algorithm 2) with SHA-256 as the compression function:

.. math::

    \\ell^{(0)}(u) = \\mathrm{SHA}(\\,[u = v],\\; c_u), \\qquad
    \\ell^{(i)}(u) = \\mathrm{SHA}\\big(\\ell^{(i-1)}(u),\\;
        \\mathrm{sort}\\{\\ell^{(i-1)}(w) : w \\in N(u) \\cap B_v\\}\\big), \\quad i = 1..h,

and the subtree feature map ``phi(B_v)`` counts every label of every ``u in B_v`` at every
iteration ``0..h``.  To obtain ``d = 16`` coordinates (Section 5: every model uses 16) the
labels are feature-hashed: ``y_v[k] = #{(i, u) : l^(i)(u) = k mod d}``, raw counts.

Our choices (the paper is silent): the root is marked in the initial label (without it all
vertices of a small connected graph share one embedding), the initial label carries ``c_u``
(the state ``S``), ``h = 5`` iterations (``extra["wl_iterations"]``), labels are the first 8
bytes of the SHA-256 digest, and the ``d`` buckets are those labels modulo ``d``.  ``y_v``
depends exactly on the induced ``r``-ball of ``v``: the encoder is ``r``-local.

Cost: ``|B_v|`` can be ``|V|``, so one forward pass is ``O(h |V| |E|)`` SHA-hashed signatures
(``O(h |V|^2 Delta)`` memory), which is why the paper restricts it to small test graphs.
Embeddings of small graphs (``n <= 64``) are cached by ``(graph, c)``: 250,000 entries, enough
for both states of every transition in a full replay buffer (50,000), about 300 MB at n = 15;
with the old 50,000 the cache thrashed once the buffer filled and training slowed 5x.
Shapes: ``c`` ``(N,)`` or ``(N, R)`` -> ``(N, d)`` or ``(N, R, d)``, float, no gradient.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np
import torch
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import shortest_path
from torch import nn

from g2s.nn.batch import GraphBatch

__all__ = ["WLEmbedding", "wl_ball_features", "WL_RADIUS", "WL_ITERATIONS"]

WL_RADIUS = 5        # Appendix D: 5-hop neighbourhood
WL_ITERATIONS = 5    # WL iterations h (our choice; the paper is silent)
_PAD = np.iinfo(np.int64).max


def _sha_label(data: bytes) -> int:
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "little", signed=True)


_MEMO: dict = {}        # signature bytes -> label; a pure function, so safe to share
_MEMO_LIMIT = 1_000_000


def _labels(sigs: np.ndarray) -> np.ndarray:
    """SHA label of each signature row ``[own label, sorted neighbour labels, PAD...]``.

    The hashed bytes are the row with its ``PAD`` tail removed (padding sorts last), so a label
    does not depend on the padded width.  Memoised across calls: training revisits the same
    signatures constantly, and SHA-256 per row dominated the cost.
    """
    if len(_MEMO) > _MEMO_LIMIT:
        _MEMO.clear()
    width = 8 * sigs.shape[1]
    ends = ((sigs != _PAD).sum(1) * 8 + np.arange(len(sigs)) * width).tolist()
    buf = np.ascontiguousarray(sigs).tobytes()
    memo, out = _MEMO, []
    for i, end in enumerate(ends):
        key = buf[i * width:end]
        lab = memo.get(key)
        if lab is None:
            lab = memo[key] = _sha_label(key)
        out.append(lab)
    return np.array(out, dtype=np.int64)


def wl_ball_features(n: int, edges: np.ndarray, c: np.ndarray, dim: int = 16,
                     radius: int = WL_RADIUS, iterations: int = WL_ITERATIONS) -> np.ndarray:
    """Hashed WL subtree feature map of every vertex's ``radius``-ball.

    Parameters
    ----------
    n, edges : int, (M, 2) int array
        One graph on ``0..n-1`` (see :func:`g2s.nn.batch.edge_array`).
    c : (n,) or (n, R) array
        Selected-set indicator(s); each column is an independent state.

    Returns
    -------
    (n, dim) or (n, R, dim) float array of label counts.
    """
    c = np.asarray(c)
    cols = c.reshape(n, -1).astype(np.int64).T                    # (R, n)
    R = cols.shape[0]
    if n == 0:
        return np.zeros(c.shape + (dim,))
    A = csr_matrix((np.ones(2 * len(edges)), (np.r_[edges[:, 0], edges[:, 1]],
                                               np.r_[edges[:, 1], edges[:, 0]])), shape=(n, n))
    dist = shortest_path(A, unweighted=True, directed=False)
    roots, members = np.nonzero(dist <= radius)                   # in-ball pairs (v, u)
    P = len(roots)
    pos = np.full((n, n), -1, dtype=np.int64)
    pos[roots, members] = np.arange(P)
    deg = np.diff(A.indptr)
    width = int(deg.max()) if len(deg) else 0
    nbr = np.full((n, max(width, 1)), -1, dtype=np.int64)
    for u in range(n):
        nbr[u, :deg[u]] = A.indices[A.indptr[u]:A.indptr[u + 1]]
    nb_u = nbr[members]                                           # (P, width)
    nb_pos = np.where(nb_u >= 0, pos[roots[:, None], np.maximum(nb_u, 0)], -1)
    valid = nb_pos >= 0
    init = {(r, s): _sha_label(f"wl0|{r}|{s}".encode()) for r in (0, 1) for s in (0, 1)}
    is_root = (roots == members).astype(np.int64)
    lab = np.where(is_root[None, :] == 1,
                   np.where(cols[:, members] == 1, init[(1, 1)], init[(1, 0)]),
                   np.where(cols[:, members] == 1, init[(0, 1)], init[(0, 0)]))
    counts = np.zeros((R * n, dim))
    flat_root = (np.arange(R)[:, None] * n + roots[None, :]).ravel()

    def add(labels):
        np.add.at(counts, (flat_root, (labels.ravel() % dim)), 1.0)

    add(lab)
    for _ in range(iterations):
        nb = np.where(valid[None], lab[:, np.maximum(nb_pos, 0)], _PAD)   # (R, P, width)
        nb.sort(axis=-1)
        sig = np.concatenate([lab[..., None], nb], axis=-1).reshape(R * P, -1)
        rows = np.ascontiguousarray(sig).view(np.dtype((np.void, 8 * sig.shape[1]))).ravel()
        uniq, inverse = np.unique(rows, return_inverse=True)
        lab = _labels(uniq.view(np.int64).reshape(len(uniq), -1))[inverse.ravel()].reshape(R, P)
        add(lab)
    out = counts.reshape(R, n, dim).transpose(1, 0, 2)
    return out[:, 0] if c.ndim == 1 else out


class WLEmbedding(nn.Module):
    """Parameter-free encoder: ``y_v`` = hashed WL subtree features of ``v``'s 5-ball."""

    variable_depth = False

    def __init__(self, config, cache_size: int = 250_000):
        super().__init__()
        self.dim = config.dim
        self.radius = int(config.extra.get("wl_radius", WL_RADIUS))
        self.iterations = int(config.extra.get("wl_iterations", WL_ITERATIONS))
        self.register_buffer("_probe", torch.zeros(()), persistent=False)
        self._cache: OrderedDict = OrderedDict()
        self.cache_size = cache_size

    def _graph_features(self, n, edges, c) -> np.ndarray:
        small = n <= 64 and c.ndim == 1
        if small:
            key = (n, edges.tobytes(), np.packbits(c.astype(bool)).tobytes())
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        # counts are small integers: float32 holds them exactly at half the memory
        feats = wl_ball_features(n, edges, c, self.dim, self.radius,
                                 self.iterations).astype(np.float32)
        if small:
            self._cache[key] = feats
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return feats

    @torch.no_grad()
    def forward(self, batch: GraphBatch, c: torch.Tensor) -> torch.Tensor:
        ptr = batch.ptr.cpu().numpy()
        edges = batch.edges.cpu().numpy().T
        graph_of_edge = np.searchsorted(ptr, edges[:, 0], side="right") - 1
        c_np = c.detach().cpu().numpy()
        out = np.zeros(tuple(c.shape) + (self.dim,), dtype=np.float32)
        starts = np.searchsorted(graph_of_edge, np.arange(len(ptr)))
        for b in range(len(ptr) - 1):
            lo, hi = ptr[b], ptr[b + 1]
            e = edges[starts[b]:starts[b + 1]] - lo
            out[lo:hi] = self._graph_features(int(hi - lo), np.ascontiguousarray(e),
                                              c_np[lo:hi])
        return torch.from_numpy(out).to(device=self._probe.device, dtype=self._probe.dtype)
