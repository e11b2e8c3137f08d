"""Plug-in estimators of conditional mutual information ``I(X; Y | Z)`` and a surrogate test.

Two estimators, both on samples standardised coordinatewise (zero mean, unit variance; CMI is
invariant under such per-variable affine maps):

* :func:`kde_cmi` -- Gaussian-kernel density plug-in with leave-one-out (LOO) evaluation.
  With ``S_A(i) = sum_{j != i} exp(-||a_i - a_j||^2 / (2 h^2))`` for a variable set ``A``,

  .. math:: \\hat I(X;Y|Z) = \\frac1N \\sum_i \\log
            \\frac{S_{XYZ}(i)\\, S_Z(i)}{S_{XZ}(i)\\, S_{YZ}(i)},

  which is ``H(XZ) + H(YZ) - H(XYZ) - H(Z)`` with LOO resubstitution entropies; the kernel
  normalising constants cancel because one bandwidth ``h`` is used in all four spaces (so each
  marginal KDE is the marginal of the joint KDE).  Bandwidth rule: Scott's,
  ``h = N^{-1/(D+4)}`` for standardised data, ``D = dim(X)+dim(Y)+dim(Z)`` (the joint space).
  LOO removes the resubstitution bias; the remaining smoothing bias grows with ``D`` and has no
  fixed sign, so the estimate is compared with surrogates, never with 0.
* :func:`knn_cmi` -- the k-nearest-neighbour estimator of Frenzel & Pompe (2007), the conditional
  form of Kraskov-Stoegbauer-Grassberger (KSG) estimator 1, max-norm:
  ``psi(k) - < psi(n_XZ + 1) + psi(n_YZ + 1) - psi(n_Z + 1) >``.

Both are O(N^2) and computed in row chunks, so memory is O(chunk * N).

:func:`cmi_surrogate_test` compares an estimate with surrogates in which ``X`` is permuted
*within nearest-neighbour sets of Z* (Runge 2018, "Conditional independence testing based on a
nearest-neighbor estimator of conditional mutual information"): the surrogates keep the X-Z and
Y-Z dependence and break only X-Y given Z, so they sample the null even when the data are
autocorrelated (a plain shuffle would also break X-Z and is not a valid null).  The p-value is
the upper tail of a normal fitted to the surrogates (t with ``B - 1`` d.o.f.), so p-values far
below ``1/B`` -- needed for Bonferroni over ``n(n-1)`` pairs -- are available from few surrogates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

__all__ = [
    "standardize",
    "scott_bandwidth",
    "kde_cmi",
    "knn_cmi",
    "local_neighbours",
    "local_permutation",
    "CMITest",
    "cmi_surrogate_test",
    "squared_distances",
    "chebyshev_distances",
    "loo_log_kernel_sums",
]

_CHUNK = 512


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _2d(a) -> np.ndarray:
    a = np.asarray(a, dtype=float)
    return a.reshape(len(a), -1)


def standardize(a) -> np.ndarray:
    """Columns shifted to mean 0 and scaled to std 1 (a constant column becomes 0)."""
    a = _2d(a)
    std = a.std(axis=0)
    return (a - a.mean(axis=0)) / np.where(std > 1e-12 * (1 + np.abs(a).max(axis=0)), std, 1.0)


def scott_bandwidth(n_samples: int, dim: int) -> float:
    """Scott's rule for a Gaussian product kernel on standardised data: ``N^{-1/(D+4)}``."""
    return float(n_samples) ** (-1.0 / (dim + 4))


def squared_distances(rows: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``||rows_i - points_j||^2`` as a ``(len(rows), len(points))`` array."""
    if rows.shape[1] == 1:
        return (rows - points.T) ** 2
    sq = (rows ** 2).sum(1)[:, None] + (points ** 2).sum(1)[None, :] - 2.0 * rows @ points.T
    return np.maximum(sq, 0.0, out=sq)


def chebyshev_distances(rows: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``max_k |rows_ik - points_jk|`` (max-norm), shape ``(len(rows), len(points))``."""
    out = np.abs(rows[:, :1] - points[:, 0][None, :])
    for k in range(1, rows.shape[1]):
        np.maximum(out, np.abs(rows[:, k:k + 1] - points[:, k][None, :]), out=out)
    return out


def loo_log_kernel_sums(sq: np.ndarray, bandwidth: float) -> np.ndarray:
    """``log sum_j exp(-sq_ij / (2 h^2))`` per row; entries to leave out must be ``inf``."""
    scale = 0.5 / bandwidth ** 2
    m = sq.min(axis=1)
    e = np.exp((m[:, None] - sq) * scale)
    return np.log(e.sum(axis=1)) - m * scale


def _diag(rows_start: int, rows: int):
    i = np.arange(rows)
    return i, i + rows_start


def _standardized(x, y, z):
    """``x``, ``y``, ``z`` standardised (``z=None``: an ``(N, 0)`` array)."""
    x, y = standardize(x), standardize(y)
    return x, y, (np.zeros((len(x), 0)) if z is None else standardize(z))


def _distance_blocks(x, y, z, distance, chunk: int):
    """Yield ``(rows, d_x, d_y, d_z)`` for consecutive blocks of at most ``chunk`` rows: the
    ``distance`` of each block row to every point, per variable, with ``d_z``'s self entries
    ``inf`` (all zero but those when ``z`` has no columns), so memory stays ``O(chunk N)``."""
    N = len(x)
    for r0 in range(0, N, chunk):
        r1 = min(N, r0 + chunk)
        dx, dy = distance(x[r0:r1], x), distance(y[r0:r1], y)
        dz = distance(z[r0:r1], z) if z.shape[1] else np.zeros_like(dx)
        dz[_diag(r0, r1 - r0)] = np.inf
        yield r1 - r0, dx, dy, dz


def kde_cmi(x, y, z=None, *, bandwidth: float | None = None, chunk: int = _CHUNK) -> float:
    """LOO Gaussian-KDE plug-in estimate of ``I(X;Y|Z)`` in nats (``z=None``: ``I(X;Y)``).

    Parameters
    ----------
    x, y, z : arrays of shape ``(N,)`` or ``(N, dim)``
    bandwidth : kernel bandwidth on the standardised data (default :func:`scott_bandwidth`)
    """
    x, y, z = _standardized(x, y, z)
    N = len(x)
    h = scott_bandwidth(N, x.shape[1] + y.shape[1] + z.shape[1]) if bandwidth is None else bandwidth
    total = 0.0
    for rows, sx, sy, sz in _distance_blocks(x, y, z, squared_distances, chunk):
        xz, yz = sx + sz, sy + sz
        xyz = xz + sy
        total += float(np.sum(loo_log_kernel_sums(xyz, h) - loo_log_kernel_sums(xz, h)
                              - loo_log_kernel_sums(yz, h)))
        if z.shape[1]:
            total += float(np.sum(loo_log_kernel_sums(sz, h)))
        else:
            total += rows * np.log(N - 1)
    return total / N


def knn_counts_cmi(d_xz, d_yz, d_z, d_xyz, k: int) -> np.ndarray:
    """Per-row Frenzel-Pompe terms from max-norm distance rows (self entries ``inf``)."""
    eps = np.partition(d_xyz, k - 1, axis=1)[:, k - 1][:, None]
    n_xz = (d_xz < eps).sum(1)
    n_yz = (d_yz < eps).sum(1)
    n_z = (d_z < eps).sum(1)
    return special.digamma(k) - special.digamma(n_xz + 1) - special.digamma(n_yz + 1) \
        + special.digamma(n_z + 1)


def knn_cmi(x, y, z=None, *, k: int = 5, chunk: int = _CHUNK) -> float:
    """Frenzel-Pompe / KSG k-nearest-neighbour estimate of ``I(X;Y|Z)`` in nats (max-norm).

    With ``z=None`` the counts ``n_Z`` are ``N - 1`` and the formula reduces to KSG estimator 1.
    """
    x, y, z = _standardized(x, y, z)
    total = 0.0
    for _, dx, dy, dz in _distance_blocks(x, y, z, chebyshev_distances, chunk):
        dxz, dyz = np.maximum(dx, dz), np.maximum(dy, dz)
        total += float(np.sum(knn_counts_cmi(dxz, dyz, dz, np.maximum(dxz, dy), k)))
    return total / len(x)


def local_neighbours(z, k_perm: int = 5, *, chunk: int = _CHUNK) -> np.ndarray:
    """Indices ``(N, k_perm)`` of the ``k_perm`` nearest neighbours of each ``z_i`` (itself
    included), Euclidean on standardised ``z``."""
    z = standardize(z)
    N = len(z)
    k = min(k_perm, N)
    nbrs = np.empty((N, k), dtype=np.int64)
    for r0 in range(0, N, chunk):
        r1 = min(N, r0 + chunk)
        sq = squared_distances(z[r0:r1], z)
        sq[np.arange(r1 - r0), np.arange(r0, r1)] = -1.0  # itself always first
        nbrs[r0:r1] = np.argpartition(sq, k - 1, axis=1)[:, :k]
    return nbrs


def local_permutation(z, k_perm: int = 5, *, seed=None, neighbours=None,
                      chunk: int = _CHUNK) -> np.ndarray:
    """A permutation ``pi`` with ``pi[i]`` among the ``k_perm`` nearest neighbours of ``z_i``.

    Runge's (2018) scheme: visit samples in random order, give each a random not-yet-used
    neighbour (itself included); when all are used, reuse one (about 10% of samples for
    ``k_perm = 5`` in two dimensions).
    ``neighbours`` (from :func:`local_neighbours`) skips the O(N^2) search when several
    surrogates share one ``z``.  ``z`` with no columns gives a uniform random permutation.
    """
    rng = _rng(seed)
    if neighbours is None:
        if np.size(z) == 0:
            return rng.permutation(len(z))
        neighbours = local_neighbours(z, k_perm, chunk=chunk)
    return _assign_without_reuse(neighbours, rng)


def _assign_without_reuse(nbrs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    N, k = nbrs.shape
    shuffled = np.take_along_axis(nbrs, rng.random((N, k)).argsort(axis=1), axis=1)
    used = np.zeros(N, dtype=bool)
    perm = np.empty(N, dtype=np.int64)
    for i in rng.permutation(N):
        for j in shuffled[i]:
            if not used[j]:
                break
        used[j] = True
        perm[i] = j
    return perm


@dataclass(frozen=True)
class CMITest:
    """Result of a surrogate test of ``I(X;Y|Z) > 0``."""

    statistic: float  # the CMI estimate (nats)
    null_mean: float  # mean of the surrogate estimates
    null_std: float  # standard deviation of the surrogate estimates
    pvalue: float  # upper-tail p-value of the statistic under the fitted null


def gaussian_tail_pvalue(statistic, null_mean, null_std, n_surrogates: int, df: int):
    """``P[T > (stat - mean) / (std sqrt(1 + 1/B))]``, ``T ~ t_df``; ``1`` where ``std == 0``."""
    statistic, null_mean, null_std = np.broadcast_arrays(statistic, null_mean, null_std)
    ok = null_std > 0
    score = np.where(ok, (statistic - null_mean) / np.where(ok, null_std, 1.0)
                     / np.sqrt(1.0 + 1.0 / n_surrogates), 0.0)
    return np.where(ok, stats.t.sf(score, df), 1.0)


def cmi_surrogate_test(x, y, z=None, *, estimator: str = "kde", n_surrogates: int = 19,
                       k_perm: int = 5, k: int = 5, bandwidth_factor: float = 1.0,
                       seed=None) -> CMITest:
    """Test ``I(X;Y|Z) > 0`` against local-permutation surrogates (module docstring).

    ``bandwidth_factor`` multiplies Scott's bandwidth of :func:`kde_cmi`; ``k`` is the
    neighbour count of :func:`knn_cmi`; ``k_perm`` the neighbourhood size of the permutation.
    """
    rng = _rng(seed)
    x = _2d(x)
    dim = x.shape[1] + _2d(y).shape[1] + (0 if z is None else _2d(z).shape[1])
    h = bandwidth_factor * scott_bandwidth(len(x), dim)
    est = {"kde": lambda a: kde_cmi(a, y, z, bandwidth=h),
           "knn": lambda a: knn_cmi(a, y, z, k=k)}[estimator]
    nbrs = None if z is None else local_neighbours(_2d(z), k_perm)
    statistic = est(x)
    null = np.array([est(x[local_permutation(np.zeros((len(x), 0)), seed=rng,
                                             neighbours=nbrs)])
                     for _ in range(n_surrogates)])
    mean, std = float(null.mean()), float(null.std(ddof=1))
    p = float(gaussian_tail_pvalue(statistic, mean, std, n_surrogates, n_surrogates - 1))
    return CMITest(statistic=float(statistic), null_mean=mean, null_std=std, pvalue=p)
