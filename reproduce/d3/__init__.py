"""Appendix D.3 of arXiv:1802.04948 (Figures 7 and 8) in parts; the script is
``reproduce/appendix_d3.py``.

* :mod:`~reproduce.d3.measures`: pure functions of states and Q-values;
* :mod:`~reproduce.d3.units`: the cached units of work on the shipped models;
* :mod:`~reproduce.d3.summary`: units pooled into the plotted numbers;
* :mod:`~reproduce.d3.rules`: one verdict rule per claim;
* :mod:`~reproduce.d3.plot`: the figure.

Settings (depths, sizes, thresholds with the paper's sentences) are in
:mod:`reproduce.harness.settings`.
"""
