"""Best known solutions from state-of-the-art heuristic solvers: the yardstick's solution side.

A ratio is only as good as the solution it divides by.  A timed integer program (the paper's
Gurobi at 240 s, our CP-SAT) is the right tool for a *proven bound* but often returns little
more than its starting hint on hard instances: with one worker and 30 s, CP-SAT's max-cut
answer on ER(200-400, 0.15) was max-degree greedy's cut, and its MIS answers at 400 vertices
were smaller than greedy's.  So the best known solution comes from solvers built to find good
solutions, chosen by measurement (``benchmarks/bench_reference.py``), and the proven bound from
the integer program, kept apart (:mod:`g2s.reference.solver`):

* **MIS**: CHILS (Grossmann, Langedal and Schulz, 2025: concurrent hybrid iterated local search
  with the reductions of the KaMIS project), from the ``chils`` wheel.
* **MVC**: the complement of CHILS's independent set (Gallai 1959: ``S`` is a cover iff
  ``V - S`` is independent), since MIS local search on the complement view is where the state
  of the art is.
* **Max cut**: simulated annealing on the Ising form (``dwave-samplers``; an antiferromagnetic
  coupling ``J_uv = 1`` per edge, whose ground state is a maximum cut), each read polished to a
  single-flip local optimum (:func:`g2s.heuristics.max_cut_local_search`).

Every candidate competes with the classical heuristics (:func:`g2s.heuristics.best_heuristic`)
and with any ``extra`` solutions the caller already has; the best feasible one wins and is
recorded with the name of what found it (ties go to the earlier candidate: heuristics first).

Determinism: CHILS runs on one OpenMP thread with a fixed seed; the annealer runs a fixed
plan of reads (:data:`ANNEAL_READS` in batches of :data:`ANNEAL_BATCH`, seeds ``seed``,
``seed + 1``, ...) and stops early only when the time budget would be overrun.  CHILS stops at
its time budget, so on a much slower machine it may stop before finding what a faster one
finds; the stored certificates, not a re-run, are what the figures divide by.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata

import networkx as nx

from g2s.heuristics import best_heuristic, max_cut_local_search
from g2s.optional import reraise_interrupt
from g2s.problems import PROBLEMS, check_solution
from g2s.reference.formulations import better

__all__ = ["BestKnown", "best_known_solution", "chils_independent_set", "annealed_cut",
           "anneal_sweeps", "ANNEAL_SECONDS_PER_EDGE_SWEEP",
           "solver_versions", "BEST_KNOWN_SOLVER", "ANNEAL_READS", "ANNEAL_BATCH",
           "ANNEAL_SWEEPS", "DEFAULT_BUDGET"]

#: the state-of-the-art solver of each problem (module docstring)
BEST_KNOWN_SOLVER = {"mis": "chils", "mvc": "chils", "maxcut": "dwave-sa"}
#: CHILS: concurrent solutions it keeps (its own default is larger; 8 was as good on every
#: graph of the reference benchmark and keeps one thread busy, not many)
CHILS_SOLUTIONS = 8
#: the annealer's plan: reads, reads per batch, sweeps per read (dwave-samplers' default
#: geometric schedule).  32 x 1,000 matched 100 x 10,000 on every ER 100-400 graph measured.
ANNEAL_READS, ANNEAL_BATCH, ANNEAL_SWEEPS = 32, 8, 1000
#: seconds per (read x sweep x edge) of the annealer, measured on the project's 2-core machine
#: (32 reads x 1,000 sweeps on ER(400, 0.15), 12,000 edges: about 1 s), rounded up.  It sizes
#: the first batch's sweeps to the budget from the graph alone, so the plan stays
#: deterministic (it does not depend on how fast this machine is) and a small budget on a
#: large graph is not overrun by a full first batch.
ANNEAL_SECONDS_PER_EDGE_SWEEP = 3e-9
#: default seconds for the best-known search of one graph
DEFAULT_BUDGET = 5.0


@dataclass(frozen=True)
class BestKnown:
    """The best solution found, what found it, and every candidate's objective."""

    problem: str
    solution: frozenset
    objective: int
    by: str
    seconds: float
    candidates: dict = field(default_factory=dict)


@functools.lru_cache(maxsize=1)
def solver_versions() -> dict:
    """Installed versions of the solvers a reference may use (``None``: not installed)."""
    out = {}
    for name in ("chils", "dwave-samplers", "ortools", "scipy", "networkx"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _chils_module():
    """Import ``chils`` on one OpenMP thread (its bundled runtime reads the variable when it
    loads), for reproducible runs and so that it does not take the cores of other work."""
    if "chils" not in sys.modules:
        previous = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = "1"
        try:
            import chils  # noqa: F401  (read back from sys.modules below)
        finally:
            if previous is None:
                del os.environ["OMP_NUM_THREADS"]
            else:
                os.environ["OMP_NUM_THREADS"] = previous
    return sys.modules["chils"]


def chils_independent_set(G: nx.Graph, time_limit: float, seed: int = 0) -> set:
    """A large independent set of ``G`` from CHILS (module docstring) in ``time_limit`` s.

    Raises ``ImportError`` when the ``chils`` package is missing.
    """
    nodes = list(G.nodes)
    if not nodes:
        return set()
    chils = _chils_module()
    idx = {v: i for i, v in enumerate(nodes)}
    solver = chils.CHILS()
    for _ in nodes:
        solver.add_vertex(1)
    for u, v in G.edges():
        solver.add_edge(idx[u], idx[v])
    # the wrapper prints two lines of its own on Ctrl-C (then re-raises it): stdout may carry
    # a command's JSON and stderr gets the command's one line, so they go nowhere
    with contextlib.redirect_stdout(io.StringIO()):
        solver.run_full(float(max(time_limit, 0.01)), CHILS_SOLUTIONS, int(seed))
    S = {nodes[i] for i in range(len(nodes)) if solver.get_solution_vertex_configuration(i)}
    return S


def anneal_sweeps(edges: int, time_limit: float) -> int:
    """Sweeps per read of the annealer's batches for a graph of ``edges`` edges and a budget:
    :data:`ANNEAL_SWEEPS`, or fewer (at least 10) when a batch would not fit the budget by
    :data:`ANNEAL_SECONDS_PER_EDGE_SWEEP`.  A function of the inputs only."""
    per_sweep = ANNEAL_BATCH * max(edges, 1) * ANNEAL_SECONDS_PER_EDGE_SWEEP
    return int(min(ANNEAL_SWEEPS, max(10, time_limit / per_sweep)))


def annealed_cut(G: nx.Graph, time_limit: float, seed: int = 0) -> set:
    """One side of a large cut: simulated annealing (module docstring), best read polished.

    Runs :data:`ANNEAL_READS` reads in batches of :data:`ANNEAL_SWEEPS` sweeps, fewer sweeps
    (at least 10) when a batch would not fit ``time_limit`` by
    :data:`ANNEAL_SECONDS_PER_EDGE_SWEEP`; a batch that would end after ``time_limit`` (judged
    from the batches so far) is not started, but the first always runs.  Raises
    ``ImportError`` when ``dwave-samplers`` is missing.
    """
    if G.number_of_edges() == 0:
        return set()
    from dwave.samplers import SimulatedAnnealingSampler

    J = {(u, v): 1.0 for u, v in G.edges()}
    sweeps = anneal_sweeps(G.number_of_edges(), time_limit)
    sampler = SimulatedAnnealingSampler()
    start, best, best_cut = time.perf_counter(), set(), -1
    for k in range(ANNEAL_READS // ANNEAL_BATCH):
        elapsed = time.perf_counter() - start
        if k and elapsed * (k + 1) / k > time_limit:
            break
        samples = sampler.sample_ising({}, J, num_reads=ANNEAL_BATCH, num_sweeps=sweeps,
                                       seed=int(seed) + k)
        for record in samples.data(["sample"], sorted_by="energy"):
            S = max_cut_local_search(G, {v for v, s in record.sample.items() if s == 1})
            cut = check_solution("maxcut", G, S)
            if cut > best_cut:
                best, best_cut = S, cut
            break  # the lowest-energy read of the batch
    return best


def best_known_solution(problem: str, G: nx.Graph, time_limit: float = DEFAULT_BUDGET,
                        seed: int = 0, extra: dict | None = None) -> BestKnown:
    """The best solution of the heuristics, the state-of-the-art solver and ``extra``.

    Parameters
    ----------
    problem : {"mvc", "maxcut", "mis"}
    G : networkx.Graph
    time_limit : float
        Seconds for the state-of-the-art solver (the heuristics always run to the end).
    seed : int
        The solver's seed (the heuristics break ties by label).
    extra : dict, optional
        ``{name: solution}`` already known (e.g. a previous best known); each is checked
        feasible before it competes.

    Without the solver's package the heuristics (and ``extra``) still compete, and the
    result's ``candidates`` shows the solver as missing (objective ``None``).
    """
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}; expected one of {', '.join(PROBLEMS)}")
    start = time.perf_counter()
    found = [("heuristic", set(best_heuristic(problem, G)))]
    solver = BEST_KNOWN_SOLVER[problem]
    try:
        if problem == "maxcut":
            found.append((solver, annealed_cut(G, time_limit, seed)))
        else:
            independent = chils_independent_set(G, time_limit, seed)
            found.append((solver, independent if problem == "mis"
                          else set(G.nodes) - independent))
    except ImportError as exc:
        reraise_interrupt(exc)  # Ctrl-C during the import is not a missing package
        found.append((solver, None))
    for name, S in (extra or {}).items():
        found.append((name, set(S)))
    best, candidates = None, {}
    for name, S in found:
        value = None if S is None else check_solution(problem, G, S)
        candidates[name] = value
        if value is not None and (best is None or better(problem, value, best[2])):
            best = (name, S, value)
    name, S, value = best
    return BestKnown(problem=problem, solution=frozenset(S), objective=value, by=name,
                     seconds=round(time.perf_counter() - start, 4), candidates=candidates)
