"""The noisy Graph2Seq dynamical system of Eq. (1) of arXiv:1802.04948 (Section 3.1).

.. math::

    \\mathbf{x}_v(t+1) = \\mathrm{relu}\\Big(\\mathbf{W}_1
    \\sum_{u \\in \\Gamma(v)} \\mathbf{x}_u(t) + \\mathbf{b}_1\\Big) + \\mathbf{n}_v(t+1), \\qquad
    \\mathbf{n}_v(t+1) \\sim \\mathcal{N}(\\mathbf{0}, \\sigma^2 \\mathbf{I}_d),

with :math:`u \\in \\Gamma(v)` when the graph has an edge :math:`u \\to v` (an undirected edge is
both directions).  States are arrays of shape ``(n, d)``; a trajectory of length ``T`` has shape
``(T + 1, n, d)`` (times ``0..T``), a batch of ``R`` independent runs ``(R, T + 1, n, d)``.

How the parameters are drawn "generically" (:func:`draw_generic_parameters`)
----------------------------------------------------------------------------
``W0`` has i.i.d. standard normal entries and is rescaled to
``W1 = gamma * W0 / (rho(A) * rho(|W0|))`` (``rho`` = spectral radius, ``|.|`` entrywise,
``rho(A)`` replaced by 1 when it is below 1, e.g. for acyclic graphs).  Because relu is
1-Lipschitz coordinatewise, two trajectories driven by the same noise satisfy
``|e(t+1)| <= (A^T kron |W1|) |e(t)|`` entrywise, and ``rho(A^T kron |W1|) = rho(A) rho(|W1|)
<= gamma < 1``: the map is a contraction in a weighted sup-norm, so the noisy chain is bounded in
every moment and geometrically ergodic, and the noise-free map has a unique fixed point ``x*``.
``b1`` has i.i.d. entries uniform on ``bias_range`` (positive).  A draw is kept only when every
pre-activation at the noise-free fixed point is at least ``min_margin`` (*liveness*: the relu of
every vertex and coordinate is active there); otherwise it is redrawn.  Without liveness an edge
can carry exponentially little information (a relu dead on the whole typical set), which is
invisible to any estimator at practical lengths -- Theorem 1's proof only needs ``W1 != 0``
(the Gaussian noise reaches every state), so this is a finite-sample, not a limit, condition.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np

__all__ = [
    "G2SParameters",
    "in_neighbour_matrix",
    "draw_generic_parameters",
    "noise_free_fixed_point",
    "relu_margin",
    "simulate_trajectory",
    "simulate_independent_trajectories",
    "random_bounded_indegree_digraph",
    "recovery_instance",
]


@dataclass(frozen=True)
class G2SParameters:
    """Parameters of Eq. (1)."""

    W: np.ndarray  # (d, d) the matrix W_1
    b: np.ndarray  # (d,) the bias b_1
    sigma: float  # standard deviation of the additive Gaussian noise n_v(t)

    @property
    def d(self) -> int:
        return int(self.W.shape[0])


def random_bounded_indegree_digraph(n: int, max_in_degree: int = 3, *,
                                    seed=None) -> nx.DiGraph:
    """Random directed graph on ``0..n-1`` with in-degrees at most ``max_in_degree``.

    Each vertex ``v`` independently draws its in-degree ``k_v`` uniformly from
    ``{0, 1, ..., min(max_in_degree, n - 1)}`` and then ``k_v`` parents uniformly without
    replacement from the other vertices (no self-loops; mean in-degree ``max_in_degree / 2``).
    """
    rng = _rng(seed)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    kmax = min(max_in_degree, n - 1)
    for v in range(n):
        k = int(rng.integers(kmax + 1))
        others = [u for u in range(n) if u != v]
        G.add_edges_from((int(u), v) for u in rng.choice(others, size=k, replace=False))
    return G


def in_neighbour_matrix(G: nx.Graph | nx.DiGraph, nodes=None) -> np.ndarray:
    """``M[v, u] = 1`` iff ``u in Gamma(v)`` (an edge ``u -> v``; undirected edges both ways).

    Rows and columns follow ``nodes`` (default ``sorted(G)``).  Self-loops are ignored: Eq. (1)
    sums over neighbours only.
    """
    nodes = sorted(G) if nodes is None else list(nodes)
    index = {v: i for i, v in enumerate(nodes)}
    M = np.zeros((len(nodes), len(nodes)))
    for u, v in G.edges():
        if u == v:
            continue
        M[index[v], index[u]] = 1.0
        if not G.is_directed():
            M[index[u], index[v]] = 1.0
    return M


def _as_matrix(G_or_M) -> np.ndarray:
    if isinstance(G_or_M, nx.Graph):
        return in_neighbour_matrix(G_or_M)
    return np.asarray(G_or_M, dtype=float)


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _step(M: np.ndarray, X: np.ndarray, W: np.ndarray, b: np.ndarray) -> np.ndarray:
    """relu(W sum_{u in Gamma(v)} x_u + b) for every vertex; ``X`` is ``(..., n, d)``."""
    return np.maximum((M @ X) @ W.T + b, 0.0)


def noise_free_fixed_point(G_or_M, W, b, *, tol: float = 1e-12, max_iter: int = 10_000):
    """The fixed point ``x*`` of the noise-free map (unique under the contraction above)."""
    M = _as_matrix(G_or_M)
    X = np.zeros((M.shape[0], len(b)))
    for _ in range(max_iter):
        X_new = _step(M, X, W, b)
        if np.max(np.abs(X_new - X)) < tol:
            return X_new
        X = X_new
    return X


def relu_margin(G_or_M, W, b) -> float:
    """Smallest pre-activation ``(W sum_{u in Gamma(v)} x*_u + b)_i`` over ``v`` and ``i``."""
    M = _as_matrix(G_or_M)
    X = noise_free_fixed_point(M, W, b)
    return float(np.min((M @ X) @ np.asarray(W).T + b))


def draw_generic_parameters(G_or_M, d: int, *, sigma: float = 1.0, gamma: float = 0.9,
                            bias_range: tuple[float, float] = (0.5, 1.5),
                            min_margin: float = 0.2, max_tries: int = 1000,
                            seed=None) -> G2SParameters:
    """Draw ``(W_1, b_1)`` as described in the module docstring (bounded, relu alive).

    Parameters
    ----------
    G_or_M : graph or in-neighbour matrix
    d : state dimension
    sigma : noise standard deviation (kept in the returned parameters; not used in the draw, so
        the same ``(W_1, b_1)`` can be reused across noise levels)
    gamma : contraction factor ``rho(A) rho(|W_1|)`` (``< 1``)
    bias_range : interval of the uniform bias entries
    min_margin : required pre-activation at the noise-free fixed point
    seed : int, Generator or None
    """
    if not 0 < gamma < 1:
        raise ValueError("gamma must lie in (0, 1) for the dynamics to be contractive")
    M = _as_matrix(G_or_M)
    rng = _rng(seed)
    rho_A = max(1.0, float(np.max(np.abs(np.linalg.eigvals(M))))) if M.size else 1.0
    for _ in range(max_tries):
        W0 = rng.standard_normal((d, d))
        rho_W = float(np.max(np.abs(np.linalg.eigvals(np.abs(W0)))))
        W = gamma * W0 / (rho_A * rho_W)
        b = rng.uniform(*bias_range, size=d)
        if relu_margin(M, W, b) >= min_margin:
            return G2SParameters(W=W, b=b, sigma=float(sigma))
    raise RuntimeError(f"no live parameter draw in {max_tries} tries")


def _initial_state(x0, shape, rng) -> np.ndarray:
    if isinstance(x0, str):
        if x0 == "zero":
            return np.zeros(shape)
        if x0 == "random":
            return rng.standard_normal(shape)
        raise ValueError(f"unknown initial state {x0!r}; use 'zero', 'random' or an array")
    return np.broadcast_to(np.asarray(x0, dtype=float), shape).copy()


def simulate_independent_trajectories(G_or_M, params: G2SParameters, T: int, runs: int, *,
                                      x0="zero", seed=None) -> np.ndarray:
    """``runs`` independent trajectories of Eq. (1), shape ``(runs, T + 1, n, d)``.

    ``x0`` is ``"zero"``, ``"random"`` (i.i.d. standard normal per vertex and run) or an array
    broadcastable to ``(runs, n, d)`` (e.g. one common state ``(d,)`` for every vertex).  The
    runs are advanced together (vectorised over runs and vertices).  ``sigma = 0`` gives the
    deterministic rule of Proposition 1.
    """
    M = _as_matrix(G_or_M)
    rng = _rng(seed)
    n, d = M.shape[0], params.d
    out = np.empty((runs, T + 1, n, d))
    out[:, 0] = _initial_state(x0, (runs, n, d), rng)
    for t in range(T):
        out[:, t + 1] = _step(M, out[:, t], params.W, params.b)
        if params.sigma > 0:
            out[:, t + 1] += params.sigma * rng.standard_normal((runs, n, d))
    return out


def simulate_trajectory(G_or_M, params: G2SParameters, T: int, *, x0="zero",
                        seed=None) -> np.ndarray:
    """One trajectory ``x(0..T)`` of Eq. (1), shape ``(T + 1, n, d)``."""
    x0 = x0 if isinstance(x0, str) else np.asarray(x0, dtype=float)[None]
    return simulate_independent_trajectories(G_or_M, params, T, 1, x0=x0, seed=seed)[0]


def recovery_instance(n: int, d: int, T: int, graph: int, *, seed: int = 0,
                      max_in_degree: int = 3, sigma: float = 1.0):
    """The ``graph``-th graph-recovery instance: ``(G, params, X)``.

    ``G`` from :func:`random_bounded_indegree_digraph`, generic parameters
    (:func:`draw_generic_parameters`), one trajectory of ``T`` transitions from the zero state;
    all drawn from ``np.random.default_rng([seed, n, d, graph, max_in_degree])``, so every
    consumer (reproduce/theorem1.py, benchmarks/bench_graph_recovery.py) sees the same data, and
    a shorter ``T`` is a prefix of a longer one.
    """
    rng = np.random.default_rng([seed, n, d, graph, max_in_degree])
    G = random_bounded_indegree_digraph(n, max_in_degree, seed=rng)
    params = draw_generic_parameters(G, d, sigma=sigma, seed=rng)
    return G, params, simulate_trajectory(G, params, T, seed=rng)
