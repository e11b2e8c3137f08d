"""Graph2Seq reference harness: model, baselines, graph families, problems and solvers.

Reproduces "Graph2Seq: Scalable Learning Dynamics for Graphs" (Venkatakrishnan, Alizadeh,
Viswanath; arXiv:1802.04948).  Importing :mod:`g2s` does not import torch; only
:mod:`g2s.nn`, :mod:`g2s.rl` and :mod:`g2s.evaluate` need it.
"""

__version__ = "0.1.0"
