"""Figure 2(b) of arXiv:1802.04948 in parts; the script is ``reproduce/figure2b.py`` (its
docstring gives the experiment).

* :mod:`~reproduce.figure2b_parts.config`: the profiles, families, methods and the paper's numbers;
* :mod:`~reproduce.figure2b_parts.units`: the cached units of work and
  :func:`~reproduce.figure2b_parts.units.compute` (imported units through
  :mod:`reproduce.harness.unit_import`);
* :mod:`~reproduce.figure2b_parts.rules`: the per-cell summary and the verdict rules.
"""
