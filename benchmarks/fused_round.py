"""A hand-written fused float32 round, to measure how far a compiled kernel could take the
float32 screen of :mod:`g2s.algorithm2.fast` (a benchmark lever, not part of the package).

One pass over the vertices does what :class:`g2s.algorithm2.evolve.Screen` does with five
library calls per round: the neighbour sum ``s_v = sum_{u in N(v)} x_u`` (AVX2 gathers of the
16 floats of each neighbour), the stacked ``16 x 32`` map ``[W_{G,1} s_v | W_4 s_v]`` (FMA),
the biases of ``c_v``, both ``relu``, the gate's ``lerp`` into ``y_v`` and the column sums of
``x(t+1)`` that the next round's gate needs.  It is built with ``torch.utils.cpp_extension``
(a C++ compiler, ninja and an AVX2/FMA CPU); :func:`measure` records why where it cannot be.
"""

from __future__ import annotations

import torch

SOURCE = r"""
#include <torch/extension.h>
#include <immintrin.h>

// one float32 round on an unweighted CSR graph (int32 indices), d = 16
void fused_round(torch::Tensor crow, torch::Tensor col, torch::Tensor x, torch::Tensor c,
                 torch::Tensor wcat, torch::Tensor bias, torch::Tensor f, torch::Tensor xn,
                 torch::Tensor y, torch::Tensor xsum) {
  const int n = x.size(0);
  const int* __restrict__ cr = crow.data_ptr<int>();
  const int* __restrict__ cl = col.data_ptr<int>();
  const float* __restrict__ X = x.data_ptr<float>();
  const bool* __restrict__ C = c.data_ptr<bool>();
  const float* __restrict__ W = wcat.data_ptr<float>();     // (16, 32) row-major
  const float* __restrict__ b = bias.data_ptr<float>();     // (2, 32): c = 0, c = 1
  const float* __restrict__ g = f.data_ptr<float>();        // (16,) the gate
  float* __restrict__ XN = xn.data_ptr<float>();
  float* __restrict__ Y = y.data_ptr<float>();
  __m256 w[16][4], bb[2][4];
  for (int k = 0; k < 16; ++k)
    for (int q = 0; q < 4; ++q) w[k][q] = _mm256_loadu_ps(W + 32 * k + 8 * q);
  for (int r = 0; r < 2; ++r)
    for (int q = 0; q < 4; ++q) bb[r][q] = _mm256_loadu_ps(b + 32 * r + 8 * q);
  const __m256 g0 = _mm256_loadu_ps(g), g1 = _mm256_loadu_ps(g + 8), z = _mm256_setzero_ps();
  __m256 a0 = z, a1 = z;
  alignas(32) float s[16], part[16];
  double total[16] = {0};
  for (int v = 0; v < n; ++v) {
    if ((v & 255) == 0) {          // the column sums: float32 blocks of 256 rows, in double
      _mm256_store_ps(part, a0);
      _mm256_store_ps(part + 8, a1);
      for (int k = 0; k < 16; ++k) total[k] += part[k];
      a0 = z;
      a1 = z;
    }
    __m256 s0 = z, s1 = z;
    for (int e = cr[v]; e < cr[v + 1]; ++e) {
      const float* xu = X + 16 * (long)cl[e];
      s0 = _mm256_add_ps(s0, _mm256_loadu_ps(xu));
      s1 = _mm256_add_ps(s1, _mm256_loadu_ps(xu + 8));
    }
    _mm256_store_ps(s, s0);
    _mm256_store_ps(s + 8, s1);
    const int r = C[v] ? 1 : 0;
    __m256 p0 = bb[r][0], p1 = bb[r][1], p2 = bb[r][2], p3 = bb[r][3];
    for (int k = 0; k < 16; ++k) {
      const __m256 sk = _mm256_set1_ps(s[k]);
      p0 = _mm256_fmadd_ps(sk, w[k][0], p0);
      p1 = _mm256_fmadd_ps(sk, w[k][1], p1);
      p2 = _mm256_fmadd_ps(sk, w[k][2], p2);
      p3 = _mm256_fmadd_ps(sk, w[k][3], p3);
    }
    p0 = _mm256_max_ps(p0, z); p1 = _mm256_max_ps(p1, z);
    p2 = _mm256_max_ps(p2, z); p3 = _mm256_max_ps(p3, z);
    float* xo = XN + 16 * (long)v;
    float* yo = Y + 16 * (long)v;
    _mm256_storeu_ps(xo, p0);
    _mm256_storeu_ps(xo + 8, p1);
    a0 = _mm256_add_ps(a0, p0);
    a1 = _mm256_add_ps(a1, p1);
    const __m256 y0 = _mm256_loadu_ps(yo), y1 = _mm256_loadu_ps(yo + 8);
    _mm256_storeu_ps(yo, _mm256_fmadd_ps(g0, _mm256_sub_ps(p2, y0), y0));
    _mm256_storeu_ps(yo + 8, _mm256_fmadd_ps(g1, _mm256_sub_ps(p3, y1), y1));
  }
  _mm256_store_ps(part, a0);
  _mm256_store_ps(part + 8, a1);
  float* out = xsum.data_ptr<float>();
  for (int k = 0; k < 16; ++k) out[k] = (float)(total[k] + part[k]);
}
"""


def build():
    """The compiled module (``torch.utils.cpp_extension.load_inline``; cached between runs)."""
    from torch.utils.cpp_extension import load_inline
    return load_inline("g2s_bench_fused_round", cpp_sources=[SOURCE], functions=["fused_round"],
        extra_cflags=["-O3", "-mavx2", "-mfma"], verbose=False)


def measure(batch32, W, c: torch.Tensor, timer) -> dict:
    """One float32 round of the state ``c`` (bool ``(N,)``) at depth 2 (``x(2)`` from ``x(1)``),
    fused against :meth:`g2s.algorithm2.evolve.Screen.round` (the neighbour sum into a reused
    buffer, two ``addmm``, ``relu``, ``lerp``) and the column sums, same process, same
    inputs: seconds of each, the speed-up, and the largest difference of ``x(t+1)``, ``y`` and
    the column sums of ``x(t+1)``, each relative to its largest magnitude (float32 sums in
    another order).  ``W``: :class:`~g2s.algorithm2.evolve.Weights` in float32; the graph
    must be unweighted; ``timer(f)``: the median seconds of a call of ``f`` (the calling
    benchmark's)."""
    from g2s.algorithm2.evolve import Screen
    A = batch32.adj
    if A.layout != torch.sparse_csr or A.device.type != "cpu" or W.Wself_t is not None \
            or not bool((A.values() == 1).all()):
        return {"fused_round_error": "needs an unweighted CSR graph on the CPU, no self term"}
    try:
        mod = build()
    except Exception as e:      # noqa: BLE001 -- recorded: no compiler, ninja or AVX2
        return {"fused_round_error": f"{type(e).__name__}: {str(e)[:200]}"}
    N, d = batch32.num_nodes, W.w2.numel()
    c = c.to(device="cpu", dtype=torch.bool).contiguous()     # the kernel reads (N,) bytes
    crow, col = A.crow_indices().to(torch.int32), A.col_indices().to(torch.int32)
    cf = c.to(torch.float32).reshape(N, 1)
    B1 = torch.addcmul(W.w3.expand(N, d), cf, W.w2.expand(N, d))
    B4 = torch.addcmul(W.b6.expand(N, d), cf, W.w5.expand(N, d))
    x = B1.relu()                                           # x(1)
    bias = torch.stack([torch.cat([W.w3, W.b6]), torch.cat([W.w3 + W.w2, W.b6 + W.w5])])
    y0 = torch.rand(N, d, generator=torch.Generator().manual_seed(0))
    screen = Screen(batch32, W)
    xe, ye, xf, yf = (torch.empty(N, d) for _ in range(4))
    xsum = torch.empty(d)

    def eager():                # the screen's own round, and the next gate's column sums
        ye.copy_(y0)
        screen.round(x, ye, B1, B4, xe)
        xe.sum(0)

    def fused():
        yf.copy_(y0)
        g = torch.sigmoid(torch.addmm(W.b8, x.sum(0, keepdim=True), W.W7t)).reshape(-1)
        mod.fused_round(crow, col, x, c, W.Wcat, bias, g.contiguous(), xf, yf, xsum)

    eager()
    fused()

    def rel(a, b):
        return float((a - b).abs().max() / b.abs().max().clamp_min(1e-30))

    diff = {"x": rel(xf, xe), "y": rel(yf, ye), "column_sums": rel(xsum, xe.sum(0))}
    t_e, t_f = timer(eager), timer(fused)
    return {"eager_round_s": round(t_e, 6), "fused_round_s": round(t_f, 6),
            "fused_round_speedup": round(t_e / t_f, 2),
            "fused_round_max_rel_diff": {k: float(f"{v:.2e}") for k, v in diff.items()}}
