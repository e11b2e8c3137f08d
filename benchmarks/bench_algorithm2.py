"""Algorithm 2: the exact fast path (:mod:`g2s.algorithm2.fast`) against the literal algorithm.

Ratios are measured in one process on the same machine, on the shipped MVC checkpoint, with
the same thread count for both paths.  What is measured:

* **Per greedy step at the paper's scale** (sparse ER n = 25,000, average degree 7.5; ER
  n = 3,200, p = 0.15; bipartite n = 3,200, p = 0.75).  A whole episode there takes hours on
  a CPU, and its first steps are unrepresentative (all 15 rollouts share ``S = {}``), so the
  fast path first advances ``--warmup`` greedy steps (the rollouts diverge), saving its
  state; then both paths continue for ``--steps`` steps from that same state (the literal via
  ``starts=``), alternately ``--repeats`` times, and must reach identical states.
* **Whole episodes at n = 400** (ER p = 0.15 and 4-regular): both paths from ``S = {}`` to the
  end; the 15 solutions must be identical.
* **The floor**: in the same process, the time of the products no evolution step can skip, and
  the ratio against the literal that a path doing only those could reach (``floor`` of each
  per-step row): the float32 ceiling bounds any path that evolves every (state, depth) pair.
* **Levers** (CPU; ``levers`` of each per-step row): the seconds per round of the float32
  screen and of the literal's float64 arithmetic, the screened step's time split into float32
  rounds, float64 rounds (re-checks and rollouts in float64) and the rest, the ratios those
  parts allow, and three levers measured: ``torch.compile`` of a round's dense part, a
  reverse Cuthill-McKee vertex order for the sparse product, and a hand-written fused round
  (``benchmarks/fused_round.py``: one compiled C++ pass, built where a compiler is present).
* **Growth with |V| and |E|**: the time of one model pass at ``T = 15`` on sparse ER with
  average degree 7.5 at several n (|E| grows with n) and on ER with fixed n and growing p
  (|E| alone grows); least-squares exponents of time ~ |V|^a and ~ |E|^b.  Section 5 states
  ``O(|E| T_max + |V|)`` per pass, i.e. exponent 1 once |E| dominates.

Also recorded: the decision counters of the float64 and the float32-screened runs (settled by the
screen, rescored by the literal's float64 arithmetic, rollouts switched between precisions) and
the largest float32 error seen (relative to the score scale; ``g2s.algorithm2.fast`` keeps its
margin at ten times it).  Writes
``benchmarks/results/algorithm2.json``.

Usage: ``python benchmarks/bench_algorithm2.py [--steps 4] [--warmup 40] [--threads 1]
[--device cpu] [--quick]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from g2s import argtypes
from g2s.algorithm2.fast import algorithm2_exact
from g2s.algorithm2.literal import algorithm2_literal
from g2s.graphs import instance_seed, make_graph
from g2s.nn.batch import batch_graphs
from g2s.nn.checkpoints import default_checkpoint, load_checkpoint

OUT = Path(__file__).resolve().parent / "results" / "algorithm2.json"
STEP_CASES = [("sparse_er", 25_000), ("er", 3200), ("bipartite", 3200)]
EPISODE_CASES = [("er", 400), ("regular", 400)]
TARGETS = {("sparse_er", 25_000): 8.0, ("er", 3200): 5.0, ("bipartite", 3200): 5.0}


def _graph(family, n, device, index=0):
    G = make_graph(family, n, seed=instance_seed(family, n, index, base=424242))
    return G, batch_graphs([G], device=device, dtype=torch.float64)


def _state(path, n, t_max):
    st = torch.load(path, weights_only=True)
    sel = torch.from_numpy(np.unpackbits(st["sel_bits"].numpy(), axis=0, count=n).astype(bool))
    return [sel[:, r].clone() for r in range(t_max)], int(st["step"])


def _timed_counts(stats: dict, before: dict) -> dict:
    """The decision counters of the timed steps (``stats`` less the warm-up state's counts);
    the largest errors seen are kept as they are."""
    return {k: v if k.startswith("max_error") else v - before.get(k, 0)
            for k, v in stats.items()}


def _median_time(f, k=15) -> float:
    f()
    times = []
    for _ in range(k):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def floor(batch, literal_s_per_step: float, f64_steps_per_greedy_step: float) -> dict:
    """What the arithmetic allows, measured in this process: the two products every float32
    evolution step needs (the sparse product ``A x`` and the stacked ``16 x 32`` map, both into
    reused buffers as the fast path computes them), and the float64 sparse product of the exact
    path.  ``ceiling_float32_every_pass`` is
    the largest ratio a path that evolves all ``sum_T T = 120`` (state, depth) pairs of a greedy
    step in float32 could reach if it did nothing else; ``ceiling_float64`` the same for the
    float64 path with the evolution steps it made per greedy step here (states shared)."""
    from g2s.algorithm2.evolve import neighbour_sum_into
    b32 = batch.to(dtype=torch.float32)
    (prod32, _), (prod64, _) = neighbour_sum_into(b32), neighbour_sum_into(batch)
    N, dev = batch.num_nodes, batch.device
    x32, out32 = torch.rand(N, 16, device=dev), torch.empty(N, 16, device=dev)
    W, out2 = torch.rand(16, 32, device=dev), torch.empty(N, 32, device=dev)
    x64, out64 = x32.to(torch.float64), torch.empty(N, 16, dtype=torch.float64, device=dev)
    sparse32 = _median_time(lambda: prod32(x32, out32))
    dense32 = _median_time(lambda: torch.mm(x32, W, out=out2))
    sparse64 = _median_time(lambda: prod64(x64, out64))
    per_pass32 = sparse32 + dense32
    return {"float32_sparse_product_s": round(sparse32, 6),
            "float32_16x32_product_s": round(dense32, 6),
            "float64_sparse_product_s": round(sparse64, 6),
            "ceiling_float32_every_pass": round(literal_s_per_step / (120 * per_pass32), 2),
            "float64_steps_per_greedy_step": round(f64_steps_per_greedy_step, 1),
            "ceiling_float64": round(literal_s_per_step
                                     / (f64_steps_per_greedy_step * sparse64), 2)}


def _round_times(model, batch, c) -> tuple[float, float]:
    """Seconds per evolution round of one state (``T = 15``, median of 5): the float32 screen
    (:class:`g2s.algorithm2.evolve.Screen`) and the literal's float64 arithmetic
    (:class:`g2s.algorithm2.decide.ExactScores`), the two kinds of round a screened run makes."""
    from g2s.algorithm2.decide import ExactScores
    from g2s.algorithm2.evolve import Screen, Weights
    screen = Screen(batch.to(dtype=torch.float32),
                    Weights.of(model, torch.float32, batch.device))
    exact = ExactScores(model, batch)
    t32 = _median_time(lambda: screen(c.unsqueeze(1), {0: [15]}), 5) / 15
    t64 = _median_time(lambda: exact(c, [15]), 5) / 15
    return t32, t64


def _compiled_round_ratio(batch) -> dict:
    """``torch.compile`` (inductor) of one float32 round's dense part (the gate, the stacked
    ``16 x 32`` map, ``relu``, the ``lerp``) against the eager in-place operations the screen
    runs, same inputs: > 1 means compiled is faster.  Records the error where the CPU build
    cannot compile (no C++ compiler)."""
    N, d = batch.num_nodes, 16
    g = torch.Generator(device="cpu").manual_seed(0)
    s, x = torch.randn(N, d, generator=g), torch.randn(N, d, generator=g).relu()
    y, Wcat = torch.zeros(N, d), torch.randn(d, 2 * d, generator=g) / 4
    B1, B4 = torch.randn(N, d, generator=g), torch.randn(N, d, generator=g)
    W7t, b8 = torch.randn(d, d, generator=g) / 4, torch.randn(d, generator=g)
    WG1t, W4t = Wcat[:, :d].contiguous(), Wcat[:, d:].contiguous()
    xo, i = torch.empty(N, d), torch.empty(N, d)

    def eager():
        f = torch.sigmoid(torch.addmm(b8, x.sum(0, keepdim=True), W7t))
        torch.addmm(B4, s, W4t, out=i)
        y.lerp_(i.relu_(), f)
        torch.addmm(B1, s, WG1t, out=xo).relu_()

    def pure(s, x, y):
        f = torch.sigmoid(x.sum(0, keepdim=True) @ W7t + b8)
        P = s @ Wcat
        return (P[:, :d] + B1).relu(), y + f * ((P[:, d:] + B4).relu() - y)

    try:
        compiled = torch.compile(pure, dynamic=False)
        t0 = time.perf_counter()
        compiled(s, x, y)
        compile_s = time.perf_counter() - t0
        t_c = _median_time(lambda: compiled(s, x, y))
    except Exception as e:          # noqa: BLE001 -- recorded, not raised: a measurement
        return {"torch_compile_error": f"{type(e).__name__}: {str(e)[:200]}"}
    t_e = _median_time(eager)
    return {"dense_round_eager_in_place_s": round(t_e, 6),
            "dense_round_torch_compile_s": round(t_c, 6), "torch_compile_s": round(compile_s, 1),
            "torch_compile_speedup": round(t_e / t_c, 2)}


def _reordered_product_ratio(batch) -> float:
    """The float32 sparse product after a reverse Cuthill-McKee relabelling of the vertices
    (neighbours' rows nearer in memory) against the graph's own order: > 1 means faster."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import reverse_cuthill_mckee

    from g2s.algorithm2.evolve import neighbour_sum_into
    A, N = batch.adj, batch.num_nodes
    M = sp.csr_matrix((A.values().numpy(), A.col_indices().numpy(), A.crow_indices().numpy()),
                      shape=(N, N))
    p = reverse_cuthill_mckee(M, symmetric_mode=True)
    Mp = M[p][:, p].tocsr()
    Mp.sort_indices()
    times = []
    for m in (M, Mp):
        adj = torch.sparse_csr_tensor(torch.from_numpy(m.indptr.astype(np.int64)),
                                      torch.from_numpy(m.indices.astype(np.int64)),
                                      torch.from_numpy(m.data.astype(np.float32)), (N, N),
                                      check_invariants=False)
        prod, _ = neighbour_sum_into(dataclasses.replace(batch, adj=adj))
        x, out = torch.rand(N, 16), torch.empty(N, 16)
        times.append(_median_time(lambda p=prod, a=x, o=out: p(a, o)))
    return round(times[0] / times[1], 2)


def levers(model, batch, row: dict) -> dict:
    """Where a float32-screened greedy step's time goes, and two levers measured (CPU only).

    ``as_run``: the screened run's timed evolution rounds times the measured seconds per round
    of each kind: float32, and float64 (re-checks of undecided float32 screens, and rollouts
    that run in float64: on the dense 3,200-vertex graphs all of them, after the warm-up);
    ``rest`` is the remainder of its seconds per greedy step (decisions, candidate masks,
    Python).  ``ceiling_float32_screen_rounds_only`` is the ratio against the literal if the
    rest were free; ``..._float32_rounds_only`` if the float64 rounds were free too.  Levers:
    ``torch.compile`` of the round's dense part, a cache-friendlier vertex order for the sparse
    product, and a hand-written fused AVX2 round (``fused_round``, :mod:`fused_round`) with the
    ratio the screened step would reach with its float32 rounds at that kernel's speed and
    everything else as run."""
    from fused_round import measure as fused_measure

    from g2s.algorithm2.evolve import Weights
    c = torch.from_numpy(np.random.default_rng(0).random(batch.num_nodes) < 0.3)
    t32, t64 = _round_times(model, batch, c)
    k = row["greedy_steps_timed"]
    st = row["decisions_float32_screen"]
    ev32 = st["evolution_steps_float32"] / k * t32
    ev64 = st["evolution_steps_float64"] / k * t64
    per_step = min(row["float32_screen_s"]) / k
    lit = row["literal_s_per_step"]
    b32 = batch.to(dtype=torch.float32)
    fused = fused_measure(b32, Weights.of(model, torch.float32, batch.device), c,
                          lambda f: _median_time(f, 21))
    if "fused_round_speedup" in fused:    # the float32 rounds at the fused kernel's speed
        fused["ceiling_float32_screen_with_fused_rounds"] = round(
            lit / (ev32 / fused["fused_round_speedup"] + ev64 + (per_step - ev32 - ev64)), 2)
    return {"float32_round_s": round(t32, 6), "float64_exact_round_s": round(t64, 6),
            "as_run_per_greedy_step": {"float32_rounds_s": round(ev32, 4),
                                       "float64_rounds_s": round(ev64, 4),
                                       "rest_s": round(per_step - ev32 - ev64, 4),
                                       "total_s": round(per_step, 4)},
            "ceiling_float32_screen_rounds_only": round(lit / (ev32 + ev64), 2),
            # None where the timed steps made no float32 round (every rollout in float64)
            "ceiling_float32_screen_float32_rounds_only": round(lit / ev32, 2) if ev32 else None,
            **_compiled_round_ratio(batch),
            "reordered_sparse_product_speedup": _reordered_product_ratio(b32),
            "fused_round": fused}


def per_step(model, family, n, args, tmp: Path) -> dict:
    G, batch = _graph(family, n, args.device)
    base = tmp / f"{family}{n}.state"
    # to the diverged state with the float32 screen, so that the state carries the float32
    # errors measured on the way and the timed float32 run starts past its first 16 decisions
    # (always rescored in float64: a once-per-run cost); the other paths ignore it
    algorithm2_exact(model, "mvc", batch, 15, max_steps=args.warmup, resume=base,
                     save_every_s=-1, screen=True)
    starts, step0 = _state(base, n, 15)
    lit_t, fast_t, f32_t, same, counts = [], [], [], True, {}
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        lit = algorithm2_literal(model, "mvc", batch, 15, max_steps=args.steps, starts=starts)
        lit_t.append(time.perf_counter() - t0)
        work = tmp / "work.state"
        shutil.copyfile(base, work)
        st: dict = {}
        t0 = time.perf_counter()
        res = algorithm2_exact(model, "mvc", batch, 15, max_steps=step0 + args.steps,
                               resume=work, save_every_s=float("inf"), stats=st)
        fast_t.append(time.perf_counter() - t0)
        same = same and res.solutions == lit
        shutil.copyfile(base, work)
        t0 = time.perf_counter()
        st32: dict = {}
        res32 = algorithm2_exact(model, "mvc", batch, 15, max_steps=step0 + args.steps,
                                 resume=work, save_every_s=float("inf"), screen=True,
                                 stats=st32)
        f32_t.append(time.perf_counter() - t0)
        same = same and res32.solutions == lit
        before = torch.load(base, weights_only=True)["counts"]
        counts, counts32 = _timed_counts(st, before), _timed_counts(st32, before)
    row = {"family": family, "n": n, "edges": G.number_of_edges(), "warmup_steps": step0,
           "greedy_steps_timed": args.steps, "literal_s": [round(t, 3) for t in lit_t],
           "fast_s": [round(t, 3) for t in fast_t],
           "literal_s_per_step": round(min(lit_t) / args.steps, 4),
           "fast_s_per_step": round(min(fast_t) / args.steps, 4),
           "speedup": round(min(lit_t) / min(fast_t), 2),
           "speedup_median": round(float(np.median(np.array(lit_t) / np.array(fast_t))), 2),
           "float32_screen_s": [round(t, 3) for t in f32_t],
           "speedup_float32_screen": round(min(lit_t) / min(f32_t), 2),
           "target": TARGETS.get((family, n)), "identical": same, "decisions": counts,
           "decisions_float32_screen": counts32}
    row["floor"] = floor(batch, row["literal_s_per_step"],
                         counts["evolution_steps_float64"] / args.steps)
    if args.device == "cpu":
        row["levers"] = levers(model, batch, row)
    print(row, flush=True)
    return row


def whole_episode(model, family, n, args) -> dict:
    G, batch = _graph(family, n, args.device)
    times: dict = {"literal": [], "fast": [], "float32_screen": [], "fast_pruned": []}
    st: dict = {}
    for _ in range(args.repeats):            # alternated, the minimum of each is kept
        t0 = time.perf_counter()
        lit = algorithm2_literal(model, "mvc", batch, 15)
        times["literal"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        res = algorithm2_exact(model, "mvc", batch, 15, stats=st)
        times["fast"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        res32 = algorithm2_exact(model, "mvc", batch, 15, screen=True)
        times["float32_screen"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        pr = algorithm2_exact(model, "mvc", batch, 15, prune=True)
        times["fast_pruned"].append(time.perf_counter() - t0)
    best = min(len(S) for S in lit)
    T_best = [len(S) for S in lit].index(best)
    lit_s = min(times["literal"])
    row = {"family": family, "n": n, "edges": G.number_of_edges(),
           **{f"{k}_s": [round(t, 3) for t in v] for k, v in times.items()},
           **{f"speedup_{k}": round(lit_s / min(v), 2) for k, v in times.items()
              if k != "literal"},
           "identical": res.solutions == lit and res32.solutions == lit,
           "pruned_same_answer": pr.solutions[T_best] == lit[T_best]
           and all(S is None or len(S) >= best for S in pr.solutions),
           "decisions": st}
    print(row, flush=True)
    return row


def growth(model, args) -> dict:
    """Time of one Graph2Seq + Seq2Vec pass at ``T = 15`` as Algorithm 2's float64 path runs it
    (:class:`g2s.algorithm2.decide.ExactScores`: the literal's operations), median of 3, on the
    state of a random 30% selection, against |V| (sparse ER, |E| ~ 3.75 |V|) and against |E|
    (ER with n = 1,600 and growing p): Section 5's ``O(|E| T_max + |V|)`` per pass."""
    from g2s.algorithm2.decide import ExactScores

    def pass_time(G):
        b = batch_graphs([G], device=args.device, dtype=torch.float64)
        exact = ExactScores(model, b)
        c = torch.from_numpy(np.random.default_rng(0).random(G.number_of_nodes()) < 0.3)
        c = c.to(args.device)
        times = []
        for _ in range(4):
            t0 = time.perf_counter()
            exact(c, [15])
            times.append(time.perf_counter() - t0)
        return G.number_of_nodes(), G.number_of_edges(), float(np.median(times[1:]))

    from g2s.graphs import erdos_renyi, sparse_erdos_renyi
    sizes = [2000, 4000, 8000, 16000, 32000] if not args.quick else [500, 1000, 2000]
    v_rows = [pass_time(sparse_erdos_renyi(n, seed=1)) for n in sizes]
    ps = [0.01, 0.02, 0.04, 0.08, 0.16] if not args.quick else [0.02, 0.04]
    e_rows = [pass_time(erdos_renyi(1600, p=p, seed=1)) for p in ps]

    def slope(x, y):
        return round(float(np.polyfit(np.log(x), np.log(y), 1)[0]), 3)

    out = {"sparse_er_by_n": [{"n": n, "edges": m, "s_per_pass": round(t, 5)}
                              for n, m, t in v_rows],
           "er_1600_by_p": [{"p": p, "edges": m, "s_per_pass": round(t, 5)}
                            for p, (_, m, t) in zip(ps, e_rows)],
           "exponent_in_V_sparse_er": slope([r[0] for r in v_rows], [r[2] for r in v_rows]),
           "exponent_in_E_fixed_V": slope([r[1] for r in e_rows], [r[2] for r in e_rows]),
           "exponent_in_E_fixed_V_top3": slope([r[1] for r in e_rows[-3:]],
                                               [r[2] for r in e_rows[-3:]])}
    print(out, flush=True)
    return out


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=4, help="greedy steps timed per repeat")
    p.add_argument("--warmup", type=int, default=40, help="greedy steps before timing")
    p.add_argument("--repeats", type=int, default=2, help="alternated repeats per path")
    p.add_argument("--threads", type=int, default=1, help="torch threads for both paths")
    p.add_argument("--device", type=argtypes.device, default="cpu",
                   help="cpu, cuda or cuda:N (default cpu)")
    p.add_argument("--quick", action="store_true", help="small sizes only (a smoke test)")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    path = default_checkpoint("mvc")
    model, _ = load_checkpoint(path, device=args.device)
    cases = [("sparse_er", 2000), ("er", 400)] if args.quick else STEP_CASES
    with tempfile.TemporaryDirectory() as tmp:
        steps = [per_step(model, f, n, args, Path(tmp)) for f, n in cases]
    episodes = [whole_episode(model, f, n if not args.quick else 60, args)
                for f, n in EPISODE_CASES]
    result = {"checkpoint": path.name, "t_max": 15, "threads": args.threads,
              "device": args.device, "machine": platform.processor() or platform.machine(),
              "torch": str(torch.__version__), "quick": args.quick, "per_step": steps,
              "whole_episode": episodes, "growth": growth(model, args),
              "note": "2-core machine shared with other jobs: absolute times are noisy, "
                      "ratios are of alternated runs in one process"}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
