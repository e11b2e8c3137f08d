"""Appendix D.3 of arXiv:1802.04948 (Figures 7 and 8) in parts; the script is
``reproduce/appendix_d3.py``.

* :mod:`~reproduce.appendix_d3_parts.measures`: pure functions of states and Q-values;
* :mod:`~reproduce.appendix_d3_parts.units`: the cached units of work on the shipped models;
* :mod:`~reproduce.appendix_d3_parts.summary`: units pooled into the plotted numbers;
* :mod:`~reproduce.appendix_d3_parts.rules` (D.3 (1)-(4)) and
  :mod:`~reproduce.appendix_d3_parts.q_rules` (D.3 (5)-(6)): one verdict rule per claim,
  with :mod:`~reproduce.appendix_d3_parts.sides`, where a sub-claim stands on its interval;
* :mod:`~reproduce.appendix_d3_parts.plot`: the figure.

Settings (depths, sizes, thresholds with the paper's sentences) are in
:mod:`reproduce.harness.settings`.
"""
