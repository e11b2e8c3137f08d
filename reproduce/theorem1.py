"""Theorem 1 of arXiv:1802.04948 measured: P[G_hat_t != G] against trajectory length t.

Recovery curves: random directed graphs with bounded in-degree
(:func:`theory.dynamics.random_bounded_indegree_digraph`: each vertex draws its in-degree
uniformly from {0, 1, 2, 3} and its parents uniformly from the other vertices), generic
parameters (:func:`theory.dynamics.draw_generic_parameters`), one noisy trajectory of Eq. (1)
from the zero state per graph (:func:`theory.dynamics.recovery_instance`; a shorter t is a prefix
of a longer one, so the points of a curve are paired).  The graph is estimated by the KDE
directed-information plug-in conditioned on a greedily selected parent set
(:func:`theory.parent_selection.selected_parents_graph`).  Per point: exact-recovery error with
a Wilson 95% interval (:func:`rate_interval`), edge precision and recall with percentile
bootstrap intervals over graphs (:func:`ratio_interval`), and the fraction of graphs with a
false edge against the nominal family-wise level.  The longest t of each setting has
``final_graphs`` graphs (a Wilson lower end >= 0.95 needs at least 73).  The verdict rule is
:func:`recovery_verdict`.  The tigramite (PCMCI) panel is read from the committed
``benchmarks/results/graph_recovery.json`` (``benchmarks/bench_graph_recovery.py``).

Also, with the full-conditioning estimator
(:func:`theory.directed_information.directed_information_graph`) on G(n, 1/2) graphs: KDE vs
kNN (KSG) plug-in on the same trajectories, and the error as sigma -> 0 (same graphs and
W_1, b_1); and Proposition 1's R1 / R2 recovered (full conditioning: n = 8 is small enough).

Profiles:

* smoke: recovery n = 4, d = 1, t in {300, 600}, 4 graphs; tiny versions of the rest.
* ci (resumable, every recovery cached; up to t = 3,000 the recovery units summed to ~4,160 s on
  the shared 2-core machine; the t = 10,000 points add 320 recoveries
  of ~15-40 s each, about 2.5 CPU-hours; ``--partial`` writes the JSON from what is cached):
  recovery n in {6, 12, 20} x d in {1, 2}; t in {500, 1000, 2000} (n = 6), {1000, 3000, 10000} (n =
  12, 20); 50 graphs per point, 80 at the longest t. kNN vs KDE: directed G(n, 1/2), n = 3, d = 1,
  t in {250, 500, 1000}, 50 graphs; sigma sweep: n = 4, d = 1, t = 500, sigma in {1, 0.1, 0.01,
  0.001, 0}, with and without a 200-step burn-in, 50 graphs; Proposition 1: R1 and R2 at t in {250,
  500, 1000, 2000}, 10 draws.
* paper: recovery t up to 10,000, 200 graphs per point; the rest as ci with more graphs.
"""

from __future__ import annotations

if not __package__:  # run as python reproduce/theorem1.py
    import _bootstrap  # noqa: F401

from reproduce.common import Run, script_main
from reproduce.theorem1_parts.config import BURN_IN, MAX_IN_DEGREE, NAME, PROFILES, TARGET
from reproduce.theorem1_parts.measures import rate_interval, ratio_interval, recovery_point
from reproduce.theorem1_parts.plot import plot, plot_recovery, plot_tigramite
from reproduce.theorem1_parts.rules import derive_verdicts, recovery_verdict
from reproduce.theorem1_parts.units import (
    compute,
    load_tigramite_comparison,
    proposition1_unit,
    recovery_unit,
    selected_unit,
)

# the script is the public entry point: everything below reproduce/theorem1_parts/ stays importable
# from here
__all__ = ["NAME", "TARGET", "BURN_IN", "MAX_IN_DEGREE", "PROFILES", "selected_unit",
           "recovery_unit", "proposition1_unit", "rate_interval", "recovery_verdict",
           "ratio_interval", "recovery_point", "load_tigramite_comparison", "compute",
           "derive_verdicts", "plot_recovery", "plot_tigramite", "plot", "produce", "main"]


def produce(args, run: Run):
    """The JSON result and the figure."""
    result = compute(args, run)
    return result, plot(result)[0]


def main(argv=None) -> int:
    script_main(NAME, __doc__, argv, produce, derive_verdicts, options=lambda p: p.add_argument(
        "--partial", action="store_true",
        help="recovery curves from the cached units only (an unfinished run); each point "
             "records its graph count, the JSON 'complete': false"))
    return 0


if __name__ == "__main__":
    main()
