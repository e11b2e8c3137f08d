"""Theorem 1 of arXiv:1802.04948 measured, in parts; the script is ``reproduce/theorem1.py``
(its docstring gives the experiment and the profiles).

* :mod:`~reproduce.theorem1_parts.config`: the script's name, target, burn-in, in-degree bound,
  profiles;
* :mod:`~reproduce.theorem1_parts.measures`: the intervals (Wilson, paired bootstrap) and one
  aggregated recovery point;
* :mod:`~reproduce.theorem1_parts.units`: the cached units of work and
  :func:`~reproduce.theorem1_parts.units.compute`;
* :mod:`~reproduce.theorem1_parts.rules`: the verdict rules
  (:func:`~reproduce.theorem1_parts.rules.derive_verdicts`);
* :mod:`~reproduce.theorem1_parts.plot`: the figure.
"""
