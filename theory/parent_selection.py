"""Directed-information graph by greedy parent-set selection (Theorem 1 of arXiv:1802.04948).

The edge ``u -> v`` of Eq. (1) is the sign of a conditional mutual information (derivation in
:mod:`theory.directed_information`).  Since ``x_v(t+1)`` depends on the past only through its
in-neighbours ``x_{Gamma(v)}(t)``, conditioning on *all* other pasts (``(n+1) d`` dimensions) is
not needed: with ``Y = x_v(t+1)`` and ``Z_S = (x_v(t), x_S(t))``,

.. math:: u \\in \\Gamma(v) \\iff I(X_u(t); Y \\mid Z_S) > 0 \\quad
          \\text{for every } S \\supseteq \\Gamma(v) \\setminus \\{u\\},

so a small selected set ``S`` suffices (optimal causation entropy, Sun, Taylor & Bollt 2015;
the PC1 stage of PCMCI, Runge et al. 2019).  Per target ``v``:

1. *screen*: rank every candidate ``u`` by ``I(X_u; Y | X_v)`` and keep the ``max_candidates``
   best (the later rounds rank only these; the default keeps all ``n - 1``, so every forward
   step re-ranks every vertex given the parents selected so far, as PCMCI's PC1 stage does.
   A cut to 8 lost true parents: when one parent dominates ``x_v``, the ancestors of that
   parent outrank the weaker parents in the marginal screen, and a parent outside the kept
   set is never tested.  The default was changed after the t = 10,000 run of
   reproduce/theorem1.py had shown such never-tested parents;
   ``tests/theory/test_directed_information.py`` pins one such case);
2. *forward*: add the candidate with the largest ``I(X_u; Y | Z_S)`` while its surrogate test is
   significant, at most ``max_parents`` times;
3. *backward*: for ``|S| >= 2`` re-test every ``u in S`` given ``Z_{S - u}`` and drop those no
   longer significant.  The backward p-value (the forward one when ``|S| = 1``) is the edge's.

A non-edge ends up declared only through a significant test of a true null (``S - u`` contains
``Gamma(v)`` once the forward pass has found it), so Bonferroni at ``alpha_T / (n (n-1))`` per
pair keeps ``P[some false edge] <= alpha_T`` as in the full-conditioning estimator.

Density evaluation (the KDE plug-in of :func:`theory.cmi_estimators.kde_cmi`, vectorised)
-----------------------------------------------------------------------------------------
The Gaussian product kernel factorises over vertex blocks,
``K_{XYZ} = K_X * K_Y * prod_{w in S+v} K_w`` elementwise, so the kernel matrix of each vertex
block is computed once per row chunk and bandwidth and reused by every target and candidate;
a test adds only elementwise products and row sums.  The LOO plug-in average runs over ``M``
query rows (a seeded random subset of the ``N`` transitions; ``M = N`` gives exactly
:func:`~theory.cmi_estimators.kde_cmi`) against all ``N`` reference points.  The statistic and
its surrogates use the same rows, so the test stays calibrated; under the null every per-row
term tends to 0 as ``N`` grows, so a fixed ``M`` keeps the test consistent.  Bandwidth: Scott's
rule on the test's joint space, ``h = factor * N^{-1/(D+4)}``, ``D = d (|S| + 3)``.

Complexity, with ``N`` transitions, ``n`` vertices, ``d`` state dims, ``p = max_parents``,
``m = max_candidates``, ``B`` surrogates, ``M_r <= M`` ranking rows:
``O(n^2 M_r N)`` (screen) ``+ O(n m p M_r N)`` (ranking; ``m = n - 1`` by default, so
``O(n^2 p M_r N)``) ``+ O(n (2p+1) B M N)`` (tests)
``+ O(n p B N log N)`` (k-d-tree neighbours for the local permutations); memory
``O(n c N)`` for a chunk of ``c`` rows.  Linear in ``t`` at fixed ``M``, quadratic in ``n``
only through the cheap ranking passes, against ``O(n^2 B N^2)`` and ``(n+1) d`` dimensions for
:func:`theory.directed_information.directed_information_graph`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np
from scipy.spatial import cKDTree

from theory.cmi_estimators import gaussian_tail_pvalue, scott_bandwidth, standardize
from theory.directed_information import recovery_alpha, transition_samples

__all__ = ["ParentSetEstimate", "selected_parents_graph", "selected_cmi",
           "greedy_directed_information_graph"]

_BYTES = 48e6  # memory for the cached kernel blocks of one row chunk
# Kernel blocks are float32 (halves the time of exp and the products; the row sums are
# accumulated in float64): a plug-in estimate differs from the float64 kde_cmi by ~1e-6 nats.


@dataclass
class ParentSetEstimate:
    """Selected parents per target; ``pvalue[u, v]`` is the deciding test of ``u -> v``
    (1 where ``u`` was never tested), ``statistic[u, v]`` its CMI estimate (nats)."""

    graph: nx.DiGraph
    parents: dict[int, list[int]]
    statistic: np.ndarray
    pvalue: np.ndarray
    level: float  # per-pair level alpha_T / (n (n - 1))
    tests: int = 0  # surrogate tests run
    extra: dict = field(default_factory=dict)


def _rng(seed):
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _sq(a, b):
    """Squared Euclidean distances between rows of ``a (c, d)`` and ``b (N, d)``."""
    out = a[:, :1] - b[:, 0][None, :]
    out *= out
    for k in range(1, a.shape[1]):
        t = a[:, k:k + 1] - b[:, k][None, :]
        t *= t
        out += t
    return out


class _KernelBlocks:
    """Gaussian kernel blocks ``exp(-||a_r - a_j||^2 / 2h^2)`` of one row chunk ``r``, per
    vertex block of the past (``"p"``) or future (``"f"``), cached per bandwidth; a
    permutation ``perm`` gives a surrogate block of ``a[perm]`` (not cached)."""

    def __init__(self, P, F, r, cache):
        self.P, self.F, self.r, self.cache = P, F, r, cache

    def __call__(self, kind, w, h, perm=None):
        key = (kind, w, h)
        if perm is None and key in self.cache:
            return self.cache[key]
        A = self.P if kind == "p" else self.F
        a = A[:, w] if perm is None else A[perm, w]
        K = _sq(a[self.r], a)
        K *= np.float32(-0.5 / h ** 2)
        np.exp(K, out=K)
        if perm is None:
            self.cache[key] = K
        return K


def _plugin_terms(P, F, rows, jobs, chunk=None):
    """Mean LOO log-ratio ``log S_xyz S_z / (S_xz S_yz)`` over ``rows`` for every job.

    A job is ``(v, Z, h, xs)``: target ``v`` (``Y = F[:, v]``), conditioning vertices ``Z``,
    bandwidth ``h`` and a list ``xs`` of ``X`` columns, each a vertex ``u`` or a pair
    ``(u, perm)`` (``X = P[perm, u]``, a surrogate).  Returns one array per job.
    """
    N, n, _ = P.shape
    P, F = P.astype(np.float32), F.astype(np.float32)
    if chunk is None:
        chunk = int(max(8, min(512, _BYTES / (4 * N * (n + 2)))))
    out = [np.zeros(len(xs)) for _, _, _, xs in jobs]
    for r0 in range(0, len(rows), chunk):
        r = rows[r0:r0 + chunk]
        self_idx = (np.arange(len(r)), r)
        cache: dict = {}
        kern = _KernelBlocks(P, F, r, cache)
        for j, (v, Z, h, xs) in enumerate(jobs):
            Kz = kern("p", Z[0], h).copy()
            for w in Z[1:]:
                Kz *= kern("p", w, h)
            Kz[self_idx] = 0.0
            Kyz = Kz * kern("f", v, h)
            tiny = 1e-30
            base = (np.log(np.maximum(Kz.sum(1, dtype=np.float64), tiny))
                    - np.log(np.maximum(Kyz.sum(1, dtype=np.float64), tiny)))
            for i, x in enumerate(xs):
                Kx = kern("p", x, h) if np.isscalar(x) else kern("p", x[0], h, x[1])
                s_xz = np.einsum("ij,ij->i", Kx, Kz).astype(float)
                s_xyz = np.einsum("ij,ij->i", Kx, Kyz).astype(float)
                out[j][i] += float(np.sum(np.log(np.maximum(s_xyz, tiny))
                                          - np.log(np.maximum(s_xz, tiny)) + base))
    return [o / len(rows) for o in out]


def _local_permutations(z, k_perm, B, rng):
    """``B`` Runge (2018) local permutations within the ``k_perm`` nearest neighbours of ``z``
    (k-d tree search, itself included; see :func:`theory.cmi_estimators.local_permutation`)."""
    from theory.cmi_estimators import _assign_without_reuse

    N = len(z)
    k = min(k_perm, N)
    _, nbrs = cKDTree(z).query(z, k=k)
    nbrs = np.asarray(nbrs, dtype=np.int64).reshape(N, k)
    nbrs[:, 0] = np.arange(N)  # itself first, also with duplicated points
    return [_assign_without_reuse(nbrs, rng) for _ in range(B)]


def _bandwidth(factor, N, d, n_cond):
    return factor * scott_bandwidth(N, d * (n_cond + 2))


def selected_cmi(x, y, z, *, bandwidth: float, rows=None) -> float:
    """The product-kernel LOO KDE plug-in of ``I(X;Y|Z)`` over ``rows`` (default all): with
    all rows it equals :func:`theory.cmi_estimators.kde_cmi` at the same bandwidth (tested)."""
    x, y, z = (standardize(a) for a in (x, y, z))
    N = len(x)
    P = np.stack([x, z], axis=1) if x.shape[1] == z.shape[1] else None
    if P is None:
        raise ValueError("x and z must have the same number of columns (one vertex block each)")
    F = np.stack([y, y], axis=1)
    rows = np.arange(N) if rows is None else np.asarray(rows)
    return float(_plugin_terms(P, F, rows, [(0, [1], bandwidth, [0])])[0][0])


def selected_parents_graph(X, *, max_parents: int = 4, max_candidates: int | None = None,
                           max_tries: int = 1, n_surrogates: int = 10, k_perm: int = 5,
                           query_points: int = 1000, rank_points: int = 600,
                           alpha: float | None = None, bandwidth_factor: float = 2.0,
                           seed=None) -> ParentSetEstimate:
    """Estimate the graph of Eq. (1) by greedy parent-set selection (module docstring).

    Parameters
    ----------
    X : array ``(T+1, n, d)`` or ``(R, T+1, n, d)``
    max_parents : largest selected set ``p``
    max_candidates : candidates ``m`` kept per target after the screen (None: all ``n - 1``)
    max_tries : candidates tested, in ranked order, before a forward step gives up
    n_surrogates : local-permutation surrogates ``B`` per test (``t_{B-1}`` p-value)
    query_points, rank_points : LOO query rows ``M`` for tests and ``M_r`` for ranking
    alpha : family-wise level (default :func:`theory.directed_information.recovery_alpha`)
    seed : int, Generator or None (query rows and surrogates)

    Ranking uses the estimate minus one local-permutation surrogate (shared by the candidates
    of a target: it depends on ``Z`` only), which removes the plug-in's bias towards
    candidates correlated with ``Z`` (raw estimates of non-parents reach those of weak parents).
    """
    rng = _rng(seed)
    P, F = transition_samples(X)
    N, n, d = P.shape
    P = standardize(P.reshape(N, -1)).reshape(N, n, d)
    F = standardize(F.reshape(N, -1)).reshape(N, n, d)
    level = (recovery_alpha(N) if alpha is None else alpha) / max(1, n * (n - 1))
    rows = np.sort(rng.choice(N, size=min(N, query_points), replace=False))
    rank_rows = rows if rank_points >= len(rows) else np.sort(
        rng.choice(rows, size=rank_points, replace=False))
    stat, pval = np.ones((n, n)) * 0.0, np.ones((n, n))
    tests = 0

    def h(n_cond):
        return _bandwidth(bandwidth_factor, N, d, n_cond)

    def zperm(Z, B):
        return _local_permutations(P[:, Z].reshape(N, -1), k_perm, B, rng)

    def rank(specs):
        """specs: (v, S, candidates) -> candidates by debiased estimate, best first."""
        jobs = []
        for v, S, cand in specs:
            (pi,) = zperm([v, *S], 1)
            jobs.append((v, [v, *S], h(len(S) + 1), [*cand, *((u, pi) for u in cand)]))
        out = []
        for (_, _, cand), r in zip(specs, _plugin_terms(P, F, rank_rows, jobs)):
            score = r[:len(cand)] - r[len(cand):]
            out.append([cand[i] for i in np.argsort(-score)])
        return out

    def run_tests(specs):
        """specs: (u, v, S) -> (p-value, statistic), one batched pass over the rows."""
        nonlocal tests
        jobs = [(v, [v, *S], h(len(S) + 1), [u, *((u, pi) for pi in zperm([v, *S], n_surrogates))])
                for u, v, S in specs]
        tests += len(specs)
        out = []
        for r in _plugin_terms(P, F, rows, jobs):
            null = r[1:]
            p = float(gaussian_tail_pvalue(r[0], null.mean(), null.std(ddof=1),
                                           n_surrogates, n_surrogates - 1))
            out.append((p, float(r[0])))
        return out

    # 1. screen: every u != v given X_v, keep the max_candidates best
    screen = rank([(v, [], [u for u in range(n) if u != v]) for v in range(n)])
    cands = {v: screen[v][:max_candidates] for v in range(n)}   # None keeps them all
    S: dict[int, list[int]] = {v: [] for v in range(n)}
    order: dict[int, list[int] | None] = {v: cands[v] for v in range(n)}
    tried = {v: 0 for v in range(n)}
    decided: dict[tuple[int, int], tuple[float, float]] = {}
    active = [v for v in range(n) if cands[v]]
    # 2. forward: test ranked candidates; add the first significant, give up after max_tries
    while active:
        todo = [v for v in active if order[v] is None]
        for v, o in zip(todo, rank([(v, S[v], [u for u in cands[v] if u not in S[v]])
                                    for v in todo])):
            order[v], tried[v] = o, 0
        specs = [(order[v][tried[v]], v, list(S[v])) for v in active]
        still = []
        for (u, v, _), (p, s) in zip(specs, run_tests(specs)):
            if p < level:
                S[v].append(u)
                decided[(u, v)] = (p, s)
                order[v] = None
                if len(S[v]) < min(max_parents, len(cands[v])):
                    still.append(v)
            else:
                stat[u, v], pval[u, v] = s, p
                tried[v] += 1
                if tried[v] < min(max_tries, len(order[v])):
                    still.append(v)
        active = still
    # 3. backward (one pass, every member given the others)
    specs = [(u, v, [w for w in S[v] if w != u]) for v in range(n) if len(S[v]) >= 2
             for u in S[v]]
    for (u, v, _), (p, s) in zip(specs, run_tests(specs) if specs else []):
        decided[(u, v)] = (p, s)
    for (u, v), (p, s) in decided.items():
        stat[u, v], pval[u, v] = s, p
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    parents = {v: sorted(u for u in S[v] if pval[u, v] < level) for v in range(n)}
    G.add_edges_from((u, v) for v in range(n) for u in parents[v])
    return ParentSetEstimate(G, parents, stat, pval, level, tests,
                             {"query_points": len(rows), "rank_points": len(rank_rows)})


def greedy_directed_information_graph(X, *, method: str = "kde", seed=None,
                                      **options) -> nx.DiGraph:
    """Directed-information graph conditioning on a greedily selected candidate-parent set.

    The KDE plug-in with ``(|S| + 2) d``-dimensional tests instead of ``(n + 1) d``: see
    :func:`selected_parents_graph` (screen, forward, backward; same Bonferroni level as
    :func:`theory.directed_information.directed_information_graph`), whose ``options`` this
    passes on.
    """
    if method != "kde":
        raise ValueError("the greedy parent-set search uses the KDE plug-in (method='kde')")
    return selected_parents_graph(X, seed=seed, **options).graph
