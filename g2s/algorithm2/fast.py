"""Algorithm 2 of arXiv:1802.04948 (Appendix C) at the paper's scale: the literal algorithm's
decisions, computed faster.

Algorithm 2 runs the greedy policy of G2S-RNN(T) for ``T = 1..T_max`` and keeps the best
solution.  Each greedy step of rollout ``T`` evaluates the Graph2Seq evolution ``x(1..T)``,
the Seq2Vec reader ``y(1..T)`` and the vertex term of Eq. (2) for every vertex, then adds the
candidate of largest score (ties to the smallest vertex index) -- ``sum_T T`` evolution steps
of ``O(|E| d + |V| d^2)`` per greedy step.  :func:`g2s.algorithm2.literal.algorithm2_literal` does
this in float64 and rounds scores to multiples of :data:`g2s.algorithm2.quantise.SCORE_QUANTUM`
before the argmax, so that exact ties (symmetric vertices) are broken by index and not by rounding
noise. Its decisions define the answer; this module reproduces them faster.

How a decision is made here (per rollout and greedy step):

1. **Float64: the literal's own arithmetic** (:class:`g2s.algorithm2.decide.ExactScores`).
   The state is evolved with the literal's floating-point operations (those of the model's
   ``rounds``, which the literal's ``embed`` runs) on the same operands in the same order, on a
   one-column state of the literal's shape and dtype, and read at every depth a rollout in that
   state needs; ``y(t)`` after ``t`` rounds does not depend on how many rounds follow, so depth
   ``t`` of a deeper evolution has the bits the literal gets with ``T = t``.  The rounded
   scores are therefore the literal's, bit for bit, and their argmax *is* its decision: no
   error bound, no tie rule, no fallback.  What differs is where results are stored (buffers
   kept for the run; in-place operations round exactly as out-of-place ones) and the
   adjacency's CSR indices, ``int32`` (the literal's are ``int64``, which MKL converts on every
   product); the row sums run in the same order, and
   :func:`g2s.algorithm2.evolve.neighbour_sum_into` checks on random features, per run, that
   the sums are identical before using it.  ``tests/g2s/test_algorithm2.py`` compares the
   scores bit for bit at every depth (shipped and random weights; regular, bipartite, ER and
   grid graphs).
2. **Float32 screen (``screen=True``).**  A lean float32 evolution
   (:func:`g2s.algorithm2.evolve.evaluate`; float32 sparse products are 2-7x faster in MKL)
   gives a score ``s32(v)`` for every vertex and the scale, the largest absolute term sum
   ``|w_{Q,3}|^T relu(W_{Q,4} y_v)`` over the candidates.  ``C`` is the set of candidates with
   ``s32(v) >= max s32 - 2 delta - q``, ``delta`` being :data:`RELATIVE_MARGIN` (or 10x the
   largest float32 error measured so far) times the scale.  One survivor is the literal's
   choice whenever every float32 score is within ``delta`` of the literal's value.  Otherwise
   (and for every 64th float32 decision and the first 16 of a run, which keep measuring the
   float32 error on every candidate) the state is scored by step 1 and decided exactly.  A
   rollout whose recent float32 decisions keep needing step 1 moves to float64; one whose
   recent float64 decisions all had a lead the screen would have settled moves back.

Only step 2's bound is *empirical*: a rigorous a-priori bound through 15 rounds of
``relu(W A x)`` grows like ``(||W|| deg)^t`` and is useless on dense graphs.  It adapts to the
float32 errors measured during the run (at most 1.2e-5 of the scale seen, against a margin of
at least 2e-5 and 10x the largest seen), and the tests and the benchmark compare every
solution with the literal algorithm.  A float32-screened decision can differ from the literal's
only if a float32 error exceeds that bound (never seen); the float64 path (the default) cannot
differ.

Formerly the float64 path was a lean re-implementation of the evolution (fewer
operations, a different summation order) decided where the literal's rounded score was certain
within an empirical noise bound of 2e-11 of the scale, with 1-WL colour classes for exact ties
and the literal's own computation as the fallback.  On dense bipartite graphs the top
candidates are exact float64 ties that are not 1-WL equivalent, so about one decision in five
fell through to the literal and was computed twice.  The float64 path is now the literal's
arithmetic, which is exact by construction and never computes a decision twice; it is faster
than the literal because it shares states, reads every depth from one evolution, and writes
into reused buffers (below).  Its ratios to the literal are in
``benchmarks/results/algorithm2.json`` (the former path's in that file's git history).

Memory, measured: ``A @ x`` allocates, zero-fills and copies a fresh ``(N, d)`` result, and on
this machine a fresh tensor of a few MB costs page faults; at 25,000 vertices that was half the
float64 product's time, and together with one fresh tensor per elementwise operation most of a
round's.  Both paths therefore write every product and activation into buffers kept for the
run (:func:`g2s.algorithm2.evolve.neighbour_sum_into`, :class:`g2s.algorithm2.evolve.Screen`).

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
graph anyway, and the gate and the reader are global.  Also measured (``levers`` in the
benchmark JSON): ``torch.compile`` (inductor) of a float32 round's dense part runs slower than
the eager in-place operations used here, and a reverse Cuthill-McKee vertex order speeds the
float32 sparse product by about 5% on sparse ER, where neighbours stay scattered in memory.
The screen's speed-up in the benchmark is measured on the first greedy steps; over a whole
cover of a sparse ER graph with 10,000 vertices (the shipped ER-15 model, seed 1) it had moved
all 15 rollouts to float64 by greedy step 4,530, with about 3% of the decisions made in float32,
so there it saves little: later in a cover many candidates tie, and ties go to float64.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from g2s.algorithm2.decide import RELATIVE_MARGIN, Decider, ExactScores, choose
from g2s.algorithm2.evolve import Screen as _Screen
from g2s.algorithm2.evolve import Weights as _Weights
from g2s.algorithm2.evolve import candidates as _candidates
from g2s.algorithm2.evolve import complete_greedily as _complete_greedily
from g2s.nn.batch import GraphBatch
from g2s.nn.model import QModel

__all__ = ["RELATIVE_MARGIN", "SAVE_EVERY_S", "Algorithm2Result", "algorithm2_exact"]

#: how often a run with ``resume=`` saves its rollout state (seconds): the work a kill loses
SAVE_EVERY_S = 300.0


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
                     deadline: float | None = None, resume=None, save_every_s: float = SAVE_EVERY_S,
                     batched: bool | None = None, screen: bool | None = None,
                     stats: dict | None = None,
                     progress: Callable[[int, int], None] | None = None) -> Algorithm2Result:
    """Algorithm 2's ``t_max`` greedy rollouts with the literal algorithm's decisions.

    ``model`` is the float64 model and ``batch`` a one-graph float64 batch (as for
    :func:`g2s.algorithm2.literal.algorithm2_literal`); the float32 copy is made here.  By default
    every distinct state is evolved once in float64 by the literal's own operations and read at
    every depth it serves (exact by construction, module docstring step 1).  ``screen=True``
    screens in float32 first (step 2: about twice as fast per greedy step as the float64 path
    on sparse graphs with 25,000 vertices; graphs full of exact ties send many decisions to the
    float64 scores), moving a rollout to float64 once more than a quarter of its recent float32
    decisions needed them and back once its float64 decisions show wide leads.  ``batched``
    evolves the float32 screens of every distinct state in one stacked evolution (default on
    CUDA); on a CPU one state at a time keeps the working set in cache (float64 states are
    always evolved one at a time, in the literal's shape).  ``max_steps`` truncates the episode
    (benchmarks only).  ``progress(step, running)`` is called after every greedy step (and once at
    the start, with the step a resume state starts from) with the greedy steps made so far and
    the rollouts still running: a cover of 25,000 vertices is hours on a CPU.
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
    exact = ExactScores(model, batch)
    made = []                           # the float32 screen, made when first needed

    def screen32() -> _Screen:
        if not made:
            made.append(_Screen(batch.to(dtype=torch.float32),
                                _Weights.of(model, torch.float32, device)))
        return made[0]
    crow_t, col_t = batch.adj.crow_indices(), batch.adj.col_indices()
    deg = (crow_t[1:] - crow_t[:-1]).to(torch.int32)

    sel = torch.zeros((N, R), dtype=torch.bool, device=device)
    inside = torch.zeros((N, R), dtype=torch.int32, device=device)
    group = [0] * R                     # rollouts with one group id are in one state
    live, pruned = [True] * R, [False] * R
    f64 = [not screen] * R              # rollouts screened in float64
    step = 0
    counts = {"decisions": 0, "float32_decisions": 0, "screen_unique": 0,
              "float64_rescores": 0, "evolution_steps_float32": 0,
              "evolution_steps_float64": 0, "greedy_steps": 0, "switched_to_float64": 0,
              "switched_to_float32": 0}
    ratios = {"float32": 0.0}
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
        A = exact.batch.adj          # |Gamma(v) cap S|: integers, exact in float64
        inside = (A @ sel.to(A.dtype)).round().to(torch.int32)
        group, live, pruned = list(state["group"]), list(state["live"]), list(state["pruned"])
        step = int(state["step"])
        # each rollout's precision is a speed choice, not part of the answer: a resume with
        # another ``screen`` starts from that setting (before, a float64 state forced float64)
        if state.get("screen", False) == screen:
            f64 = list(state["f64"])
        # (a state saved by an earlier version may carry counters that no longer exist)
        counts.update({k: int(v) for k, v in state["counts"].items() if k in counts})
        ratios.update({k: float(v) for k, v in state["ratios"].items() if k in ratios})
    decide = Decider(counts, ratios, R)
    if progress is not None:
        progress(step, sum(live))
    last_save = time.monotonic()
    status = "complete"

    crow_np = crow_t.cpu().tolist()

    def add(r, a):
        sel[a, r] = True
        inside[col_t[crow_np[a]:crow_np[a + 1]], r] += 1

    def rescore(r):  # the literal's scores of rollout r's state (a float32 decision)
        counts["evolution_steps_float64"] += r + 1
        return exact(sel[:, r], [r + 1])[r + 1]

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
        for g in split[True]:           # float64: the literal's own scores, read at each depth
            counts["evolution_steps_float64"] += max(g) + 1
            res = exact(sel[:, g[0]], [r + 1 for r in g])
            for r in g:
                counts["decisions"] += 1
                k, raw, scale = res[r + 1]
                choice[r] = choose(k, cand_all[:, r])
                if screen:              # back to the float32 screen once it would settle
                    decide.note_float64(r, raw, scale, cand_all[:, r])
                    if decide.wants_float32(r):
                        f64[r] = False
                        decide.switched(r)
                        counts["switched_to_float32"] += 1
        todo = split[False]
        for chunk in ([todo] if batched else [[g] for g in todo]) if todo else []:
            cols = torch.stack([sel[:, g[0]] for g in chunk], 1)
            want = {j: [r + 1 for r in g] for j, g in enumerate(chunk)}
            counts["evolution_steps_float32"] += sum(max(w) for w in want.values())
            res = screen32()(cols, want)
            flat = [(r, res[(j, r + 1)]) for j, g in enumerate(chunk) for r in g]
            choice.update(decide.many(flat, cand_all, rescore))
            for r, _ in flat:
                if decide.wants_float64(r):
                    f64[r] = True
                    decide.switched(r)
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
        if progress is not None:
            progress(step, sum(live))
        if path is not None and time.monotonic() - last_save > save_every_s:
            save()
            last_save = time.monotonic()

    if status == "time_limit":
        # rollouts in one group share their state, so they share its completion
        done: dict[int, list[int]] = {}
        crow_arr, col_arr, deg_arr = (t.cpu().numpy() for t in (crow_t, col_t, deg))
        for r in range(R):
            if live[r]:
                if group[r] not in done:
                    done[group[r]] = _complete_greedily(
                        problem, sel[:, r].cpu().numpy(), inside[:, r].cpu().numpy(), deg_arr,
                        crow_arr, col_arr)
                if done[group[r]]:
                    sel[done[group[r]], r] = True
    finished = not any(live) or status == "time_limit"
    if path is not None and path.exists() and finished:
        path.unlink()
    sols = [None if pruned[r] else set(torch.nonzero(sel[:, r]).squeeze(1).tolist())
            for r in range(R)]
    out = dict(counts, max_error_ratio_float32=ratios["float32"])
    if stats is not None:
        stats.update(out)
    return Algorithm2Result(sols, status, out)


def algorithm2_fast(model: QModel, problem: str, batch: GraphBatch, t_max: int = 15,
                    max_steps: int | None = None, stats: dict | None = None):
    """The literal algorithm's ``t_max`` solutions from :func:`algorithm2_exact`.

    ``stats``, if given, receives its decision counters and ``evolution_steps``: the number of
    (state, t) evolution steps computed, each one ``x(t), y(t)`` for all vertices (the literal
    computes ``sum_T T |S_T|`` of them; rollouts in one state share theirs).
    """
    res = algorithm2_exact(model, problem, batch, t_max, max_steps=max_steps)
    if stats is not None:
        stats.update(res.stats)
        stats["evolution_steps"] = (res.stats["evolution_steps_float32"]
                                    + res.stats["evolution_steps_float64"])
    return res.solutions
