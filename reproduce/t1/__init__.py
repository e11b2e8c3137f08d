"""Theorem 1 of arXiv:1802.04948 measured, in parts; the script is ``reproduce/theorem1.py``
(its docstring gives the experiment and the profiles).

* :mod:`~reproduce.t1.config`: the script's name, target, burn-in, in-degree bound, profiles;
* :mod:`~reproduce.t1.measures`: the intervals (Wilson, paired bootstrap) and one aggregated
  recovery point;
* :mod:`~reproduce.t1.units`: the cached units of work and :func:`~reproduce.t1.units.compute`;
* :mod:`~reproduce.t1.rules`: the verdict rules (:func:`~reproduce.t1.rules.derive_verdicts`);
* :mod:`~reproduce.t1.plot`: the figure.
"""
