"""The one decision rule for empirical claims: bootstrap intervals, then confirmed / refuted /
inconclusive.

Fixed before the ci-profile data are regenerated (the rule is committed first, so that the data
cannot shape it).  A rule revised after seeing data must say so here and in the claim's
evidence.

What is resampled
-----------------
* **One model (one seed) over graphs** -- :func:`interval_over_graphs`: the per-graph values at a
  point (family, size) are resampled with replacement; the statistic is their mean.  Done by
  ``scipy.stats.bootstrap``.
* **A seed mean** -- :func:`interval_seed_mean` (two-level bootstrap): first the training seeds
  are resampled with replacement (by ``scipy.stats.bootstrap``, over the seed indices), then,
  for every drawn seed, that seed's per-graph values are resampled with replacement (inside the
  vectorised statistic, from a generator seeded by ``seed``); the statistic is the mean over the
  drawn seeds of each seed's mean over its drawn graphs, so every seed weighs the same whatever
  its graph count.  With one seed this is :func:`interval_over_graphs` (seed variability then
  unknown: the record's ``n_seeds`` says so).
* **A paired comparison "A better than B"** -- :func:`paired_difference`: the statistic is
  ``mean(A) - mean(B)`` over the instances both ran (lower ratio = better).  The graphs are the
  shared unit: ``scipy.stats.bootstrap`` resamples graph indices once per replicate and the same
  indices are used for A and B (and all their seeds), which keeps the pairing; the seeds of each
  method are then resampled independently (two models' seeds are separate training runs, not
  pairs).  With one seed each this is ``scipy.stats.bootstrap((a, b), ..., paired=True)``.

* **A rate** ("the fraction of cases where X holds is >= r") -- :func:`interval_of_rate`: the
  Wilson score interval of a binomial rate (``scipy.stats.binomtest``), one Bernoulli outcome
  per independent case (a recovered graph, a latched rollout); used by Theorem 1 and Appendix
  D.3.  Not the bootstrap: at rates of 0 or 1 the percentile interval collapses to a point.
  A rate over several training seeds -- :func:`interval_of_seed_rates`: the hull of that
  Wilson interval (pooled cases) and the two-level bootstrap of the seed mean, so that neither
  the spread between seeds nor the boundary is lost (added for Appendix D.3's latching and
  Q-semantics claims when their seeds 1-2 were run, before those data were computed).

Interval method: **percentile**, not BCa, because (1) BCa's acceleration is a jackknife over a
single sample and has no standard analogue for the two-level (seeds, then graphs) resampling, and
one method for every interval keeps the rule uniform; (2) BCa is undefined (NaN, scipy's
``DegenerateDataWarning``) on constant samples, which are common here (a ratio of 1.0 on every
small graph); (3) after the Bonferroni correction the per-point levels are 99-99.9%, where
BCa's adjusted quantiles move further into the tails that a few thousand resamples of 3-20
graphs resolve poorly.  The price: with few graphs the percentile interval is too narrow (with
n values it never leaves their range), so intervals from fewer graphs than the paper used must be
reported with their sample size (every record carries ``n_graphs`` and ``n_seeds``).

Multiple comparisons: a claim over k points ("at every size and family") is decided with
**Bonferroni** intervals, each at per-point confidence ``1 - 0.05 / k``
(:func:`per_point_confidence`), so all k hold simultaneously with probability >= 95%.

Outcomes (:func:`bound_verdict`): a bound claim "value <= b at every point" is

* ``confirmed`` when every point's upper end is <= b;
* ``refuted`` when some point's lower end is > b;
* ``inconclusive`` otherwise.

``>=`` claims mirror this; a comparison is a bound claim on the differences with b = -margin
(strict: "better" must exclude a tie, see :func:`comparison_verdict`).  With ``min_seeds``, a
verdict resting on fewer seeds at some point than required is reported ``inconclusive``.

Every interval record stores the resample count, the seed and the method, so the JSON can be
re-derived bit for bit.
"""

from reproduce.harness.verdicts.records import (  # noqa: F401 - the package's public names
    bound_claim,
    point_intervals,
    point_samples,
    seed_keys,
    seed_label,
)
from reproduce.harness.verdicts.rule import (  # noqa: F401
    _RNG_ARG,
    FAMILY_CONFIDENCE,
    METHOD,
    N_RESAMPLES,
    SEED,
    VERDICTS,
    bound_verdict,
    comparison_verdict,
    interval_of_rate,
    interval_of_seed_rates,
    interval_over_graphs,
    interval_seed_mean,
    intervals_over_graphs,
    paired_difference,
    per_point_confidence,
    rate_interval,
)

__all__ = [
    "FAMILY_CONFIDENCE", "N_RESAMPLES", "SEED", "METHOD", "VERDICTS",
    "per_point_confidence", "interval_over_graphs", "intervals_over_graphs",
    "interval_seed_mean", "paired_difference", "rate_interval", "interval_of_rate",
    "interval_of_seed_rates",
    "bound_verdict", "comparison_verdict", "point_samples", "point_intervals", "bound_claim",
    "seed_keys", "seed_label",
]
