"""Algorithm 2 of arXiv:1802.04948 (Appendix C) at the paper's scale: the literal algorithm's
decisions, computed faster.

Algorithm 2 runs the greedy policy of G2S-RNN(T) for ``T = 1..T_max`` and keeps the best
solution.  Each greedy step of rollout ``T`` evaluates the Graph2Seq evolution ``x(1..T)``,
the Seq2Vec reader ``y(1..T)`` and the vertex term of Eq. (2) for every vertex, then adds the
candidate of largest score (ties to the smallest vertex index) -- ``sum_T T`` evolution steps
of ``O(|E| d + |V| d^2)`` per greedy step.  :func:`g2s.evaluate.algorithm2_literal` does this
in float64 and rounds scores to multiples of :data:`g2s.evaluate.SCORE_QUANTUM` before the
argmax, so that exact ties (symmetric vertices) are broken by index and not by rounding noise.
Its decisions define the answer; this module reproduces them faster.

How a decision is made here (per rollout and greedy step):

1. **A lean evolution** (one stacked ``16 x 32`` product per step serves ``W_{G,1}`` and
   ``W_4``, in-place ``relu``, ``lerp`` for the gate, reused layouts) gives a score ``s(v)`` for
   every vertex and its scale, the largest absolute term sum ``|w_{Q,3}|^T relu(W_{Q,4} y_v)``
   over the candidates.  Its arithmetic differs from the literal's in order, not in precision.
2. **Float64 (default).**  The literal decides by ``k(v) = round(s_lit(v) / q)``.  Where
   ``s(v) / q`` is farther than the noise bound ``eps`` from a rounding boundary, ``k(v)`` is
   certain; when every candidate that could reach the largest certain ``k`` is certain, the
   literal's choice is the first candidate of the largest ``k``.  ``eps`` is
   ``max(2e-11, 10 x the largest measured |s - s_lit|)`` times the scale: the measured
   difference is ~1e-15 of the scale (at most 1.7e-12 seen), and every re-check and every
   64th decision measures it again on every candidate.
3. **Float32 screen (``screen=True``).**  Float32 sparse products are 2-7x faster in MKL.
   ``C`` is the set of candidates with ``s32(v) >= max s32 - 2 delta - q``, ``delta`` being
   :data:`RELATIVE_MARGIN` (or 10x the largest float32 error measured so far) times the scale.
   One survivor is the literal's choice whenever every float32 score is within ``delta`` of its
   float64 value.  Otherwise (and for every 64th float32 decision and the first 16 of a run,
   which keep measuring the float32 error) the state is rescored in float64 by the lean
   evolution and decided by the rule of step 2.  Several survivors of one 1-WL colour (after
   ``T`` rounds of refinement from ``c``) are an exact tie: Graph2Seq is a message-passing
   network, ``x_v(t)`` depends on ``c_v`` and the multiset of the neighbours' ``x(t-1)`` and
   the gate and the Q-network add only per-graph terms, so the literal takes the smallest
   index (colours are compared through a 64-bit multiset hash; a false tie needs a 64-bit
   collision; used only where the literal's own float64 noise cannot split a tie).
4. **Otherwise** the literal's own float64 computation (the operations of
   :func:`g2s.evaluate._vertex_scores` on the float64 model) decides, bit for bit as the
   literal would.

The bounds in 2 and 3 are *empirical*, not proven: a rigorous a-priori bound through 15 rounds
of ``relu(W A x)`` grows like ``(||W|| deg)^t`` and is useless on dense graphs.  They adapt to
the errors measured during the run, and the tests and the benchmark compare every solution
with the literal algorithm.  A decision can differ from the literal's only if an error exceeds
its bound (never seen), on a hash collision, or when the literal's own float64 rounding splits
an exact tie across a quantum boundary (its answer then depends on its summation order).

Further levers, each answer-preserving:

* rollouts in the same state share one evolution (all start from ``S = {}``; G2S-RNN(T)'s
  sequence is a prefix of G2S-RNN(T+1)'s), read at every depth they need;
* candidates are kept incrementally (``|Gamma(v) cap S|`` per rollout) instead of one sparse
  product per step;
* ``prune=True`` (MVC): the rollouts move in lock-step and add one vertex per step, so once a
  rollout completes a cover at step ``k`` no unfinished rollout can beat it (they are larger)
  nor tie it (ties go to the smallest ``T``, and finishers at step ``k`` are all kept): they
  stop, and their solutions are reported as ``None``.

Measured and not used: keeping each state's ``x(1..T)`` and reader inputs between greedy steps
and recomputing only the rows within ``t`` hops of the added vertex (exact, relative difference
6e-16) saved nothing at n = 25,000 (139-175 against 140-186 ms per greedy step of 15 rollouts,
float32): the ``t``-hop balls of sparse ER with average degree 7.5 hold about 8, 60, 430, 3,200
and 15,000 vertices for ``t = 1..5``, so the deeper steps of ``T = 6..15`` touch the whole
graph anyway, and the gate and the reader are global.  A lower float64 noise floor would cut
the literal's re-checks on dense bipartite graphs, but the lean float64 scores differ from the
literal's by up to 1.3e-12 of the scale (3 problems x 4 models x 7 graphs, every decision
checked), within an order of magnitude of the 2e-11 floor.

``resume=PATH`` saves the rollout state atomically every ``save_every_s`` seconds and resumes
from it (refusing a file made for another graph, model, problem or ``t_max``); decisions are
deterministic, so a resumed run returns the same solutions.  ``deadline`` (a
``time.monotonic()`` value) stops the learned policy and completes each unfinished rollout with
the problem's greedy rule (MVC: most uncovered edges; max cut: largest positive gain; MIS:
fewest candidate neighbours; ties to the smallest index), so a feasible answer always returns.
"""

from __future__ import annotations

import hashlib
import io
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import torch

from g2s.algorithm2_decide import RELATIVE_MARGIN, Decider, wl_hash
from g2s.algorithm2_evolve import Weights as _Weights
from g2s.algorithm2_evolve import candidates as _candidates
from g2s.algorithm2_evolve import complete_greedily as _complete_greedily
from g2s.algorithm2_evolve import evaluate as _evaluate
from g2s.nn.batch import GraphBatch
from g2s.nn.model import QModel

__all__ = ["RELATIVE_MARGIN", "Algorithm2Result", "algorithm2_exact", "wl_hash"]


@dataclass
class Algorithm2Result:
    """The ``t_max`` solutions (``None`` for rollouts pruned by ``prune=True``) and counters."""
    solutions: list
    status: str = "complete"           # or "time_limit"
    stats: dict = field(default_factory=dict)


def _fingerprint(model: QModel, problem: str, batch: GraphBatch, t_max: int) -> str:
    h = hashlib.sha256(f"{problem}|{t_max}|{batch.num_nodes}".encode())
    h.update(batch.edges.cpu().numpy().tobytes())
    for k, v in sorted(model.state_dict().items()):
        h.update(k.encode())
        h.update(v.detach().cpu().to(torch.float64).numpy().tobytes())
    return h.hexdigest()


def _tmp(path: Path) -> Path:
    """Where a state is written before it atomically replaces ``path``: a run killed while
    writing leaves only this file, which the next run removes."""
    return path.with_name(path.name + ".tmp")


def _save_state(path: Path, state: dict) -> None:
    buf = io.BytesIO()
    torch.save(state, buf)
    tmp = _tmp(path)
    with open(tmp, "wb") as fh:
        fh.write(buf.getvalue())
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


@torch.no_grad()
def algorithm2_exact(model: QModel, problem: str, batch: GraphBatch, t_max: int = 15, *,
                     prune: bool = False, max_steps: int | None = None,
                     deadline: float | None = None, resume=None, save_every_s: float = 300.0,
                     batched: bool | None = None, screen: bool | None = None,
                     stats: dict | None = None) -> Algorithm2Result:
    """Algorithm 2's ``t_max`` greedy rollouts with the literal algorithm's decisions.

    ``model`` is the float64 model and ``batch`` a one-graph float64 batch (as for
    :func:`g2s.evaluate.algorithm2_literal`); the float32 copy is made here.  ``batched``
    evaluates every distinct state in one stacked evolution (default on CUDA); on a CPU one
    state at a time keeps the working set in cache.  By default every evolution runs in
    float64 and a decision is settled where the literal's rounded score is certain (module
    docstring); ``screen=True`` screens in float32 first (about twice as fast per evolution on
    sparse, irregular graphs, but graphs full of exact ties send many decisions to the
    re-check), switching a rollout to float64 once more than a quarter of its recent float32
    decisions needed the re-check.  ``max_steps`` truncates
    the episode (benchmarks only).  See the module docstring for the exactness argument.
    """
    if not model.variable_depth:
        raise ValueError("Algorithm 2 needs a variable-depth encoder")
    if batch.num_graphs != 1:
        raise ValueError("algorithm2_exact runs on one graph")
    if t_max < 1:
        raise ValueError("t_max must be >= 1")
    device = batch.device
    batched = device.type != "cpu" if batched is None else batched
    screen = False if screen is None else screen
    N, R = batch.num_nodes, t_max
    weights = {dt: _Weights.of(model, dt, device) for dt in (torch.float32, torch.float64)}
    adj = {dt: batch.to(dtype=dt).adj for dt in (torch.float32, torch.float64)}
    crow = batch.adj.crow_indices().cpu().numpy()
    col = batch.adj.col_indices().cpu().numpy()
    A_u64 = sp.csr_matrix((np.ones(col.size, dtype=np.uint64), col, crow), shape=(N, N))
    crow_t, col_t = batch.adj.crow_indices(), batch.adj.col_indices()
    deg = (crow_t[1:] - crow_t[:-1]).to(torch.int32)

    sel = torch.zeros((N, R), dtype=torch.bool, device=device)
    inside = torch.zeros((N, R), dtype=torch.int32, device=device)
    group = [0] * R                     # rollouts with one group id are in one state
    live, pruned = [True] * R, [False] * R
    f64 = [not screen] * R              # rollouts screened in float64
    step = 0
    counts = {"decisions": 0, "float32_decisions": 0, "screen_unique": 0, "wl_ties": 0,
              "float64_rescores": 0, "float64_rechecks": 0,
              "evolution_steps_float32": 0, "evolution_steps_float64": 0, "greedy_steps": 0,
              "switched_to_float64": 0}
    ratios = {"float32": 0.0, "float64": 0.0}
    path = Path(resume) if resume is not None else None
    fp = _fingerprint(model, problem, batch, t_max) if path is not None else None
    if path is not None:
        _tmp(path).unlink(missing_ok=True)      # a half-written state of a killed run
    if path is not None and path.exists():
        state = torch.load(path, map_location="cpu", weights_only=True)   # then to device
        if state.get("fingerprint") != fp:
            raise ValueError(f"resume file {path} was made for another graph, model, problem "
                             f"or t_max")
        bits = np.unpackbits(state["sel_bits"].numpy(), axis=0, count=N).astype(bool)
        sel = torch.from_numpy(bits).to(device)
        inside = (adj[torch.float32] @ sel.to(torch.float32)).round().to(torch.int32)
        group, live, pruned = list(state["group"]), list(state["live"]), list(state["pruned"])
        step = int(state["step"])
        # each rollout's precision is a speed choice, not part of the answer: a resume with
        # another ``screen`` starts from that setting (before, a float64 state forced float64)
        if state.get("screen", False) == screen:
            f64 = list(state["f64"])
        counts.update({k: int(v) for k, v in state["counts"].items()})
        ratios.update({k: float(v) for k, v in state["ratios"].items()})
    decide = Decider(model, problem, batch, A_u64, counts, ratios, R)
    last_save = time.monotonic()
    status = "complete"

    crow_np = crow.tolist()

    def cand_of(r):
        return _candidates(problem, sel[:, r], inside[:, r], deg)

    def add(r, a):
        sel[a, r] = True
        inside[col_t[crow_np[a]:crow_np[a + 1]], r] += 1

    def rescore(r):  # rollout r's float64 scores (a float32 decision the screen left open)
        counts["evolution_steps_float64"] += r + 1
        c = sel[:, r:r + 1].contiguous()
        return _evaluate(adj[torch.float64], weights[torch.float64], c, {0: [r + 1]})[(0, r + 1)]

    def save():      # the selected sets, bit-packed: |Gamma(v) cap S| is recomputed on load
        packed = torch.from_numpy(np.packbits(sel.cpu().numpy(), axis=0))
        _save_state(path, {"fingerprint": fp, "sel_bits": packed, "group": group,
                           "live": live, "pruned": pruned, "f64": f64, "screen": screen,
                           "step": step,
                           "counts": counts, "ratios": ratios})

    while any(live) and (max_steps is None or step < max_steps):
        if deadline is not None and time.monotonic() > deadline:
            status = "time_limit"
            break
        cand_all = _candidates(problem, sel, inside, deg.unsqueeze(1))      # (N, R)
        live = [a and b for a, b in zip(live, cand_all.any(0).tolist())]
        rs = [r for r in range(R) if live[r]]
        if not rs:
            break
        # distinct states: one evolution each (per precision), read at every depth it serves
        groups: dict[int, list[int]] = {}
        for r in rs:
            groups.setdefault(group[r], []).append(r)
        order = sorted(groups.values(), key=lambda g: -max(g))
        choice: dict[int, int] = {}
        # this step's precision per rollout (a rollout switched below moves at the next step;
        # before, it was evaluated and decided a second time in float64 within the same step)
        split = {double: [g for g in ([r for r in g if f64[r] == double] for g in order) if g]
                 for double in (False, True)}
        for double in (False, True):
            todo = split[double]
            dt = torch.float64 if double else torch.float32
            for chunk in ([todo] if batched else [[g] for g in todo]):
                if not chunk:
                    continue
                cols = torch.stack([sel[:, g[0]] for g in chunk], 1)
                want = {j: [r + 1 for r in g] for j, g in enumerate(chunk)}
                counts["evolution_steps_" + ("float64" if double else "float32")] += \
                    sum(max(w) for w in want.values())
                res = _evaluate(adj[dt], weights[dt], cols, want)
                flat = [(r, res[(j, r + 1)]) for j, g in enumerate(chunk) for r in g]
                choice.update(decide.many(flat, sel, cand_all, double, rescore))
                if not double:
                    for r, _ in flat:
                        if decide.wants_float64(r):
                            f64[r] = True
                            counts["switched_to_float64"] += 1
        # apply the choices; a group whose rollouts chose differently splits
        new_group: dict[tuple, int] = {}
        for r in rs:
            group[r] = new_group.setdefault((group[r], choice[r]),
                                            len(new_group) + 1000 * (step + 1))
            add(r, choice[r])
        step += 1
        counts["greedy_steps"] = step
        if prune and problem == "mvc":
            left = _candidates(problem, sel, inside, deg.unsqueeze(1)).any(0).tolist()
            if not all(left[r] for r in rs):  # a cover is complete: every unfinished rollout
                for r in rs:                  # is larger, so it cannot win (docstring)
                    if left[r]:
                        live[r], pruned[r] = False, True
        if path is not None and time.monotonic() - last_save > save_every_s:
            save()
            last_save = time.monotonic()

    if status == "time_limit":
        for r in range(R):
            if live[r]:
                _complete_greedily(problem, inside[:, r], deg, adj[torch.float32],
                                   lambda r=r: cand_of(r), lambda a, r=r: add(r, a))
    finished = not any(live) or status == "time_limit"
    if path is not None and path.exists() and finished:
        path.unlink()
    sols = [None if pruned[r] else set(torch.nonzero(sel[:, r]).squeeze(1).tolist())
            for r in range(R)]
    out = dict(counts, max_error_ratio_float32=ratios["float32"],
               max_error_ratio_float64=ratios["float64"])
    if stats is not None:
        stats.update(out)
    return Algorithm2Result(sols, status, out)
