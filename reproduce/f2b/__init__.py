"""Figure 2(b) of arXiv:1802.04948 in parts; the script is ``reproduce/figure2b.py`` (its
docstring gives the experiment).

* :mod:`~reproduce.f2b.config`: the profiles, families, methods and the paper's numbers;
* :mod:`~reproduce.f2b.units`: the cached units of work and :func:`~reproduce.f2b.units.compute`
  (imported units through :mod:`reproduce.harness.unit_import`);
* :mod:`~reproduce.f2b.rules`: the per-cell summary and the verdict rules.
"""
