"""Theorem 1's settings: the script's name, the target exact-recovery rate, the burn-in of the
second sigma sweep, the in-degree bound of the recovery graphs and the profiles (described in
``reproduce/theorem1.py``'s docstring)."""

from __future__ import annotations

__all__ = ["NAME", "TARGET", "BURN_IN", "MAX_IN_DEGREE", "PROFILES"]

NAME = "theorem1"
TARGET = 0.95  # exact-recovery rate whose trajectory length is reported
BURN_IN = 200  # steps discarded in the second sigma sweep (removes the transient from x(0) = 0)

MAX_IN_DEGREE = 3  # in-degree bound of the recovery graphs

PROFILES = {
    "smoke": dict(graphs=4, recovery=dict(settings=[(4, 1)], T={4: [300, 600]}, graphs=4,
                                          final_graphs=4),
                  knn=("directed", 3, 1), knn_T=[200],
                  sigma_setting=("directed", 3, 1), sigma_T=300, sigmas=[1.0, 0.01, 0.0],
                  prop1_T=[300], prop1_draws=1),
    "ci": dict(graphs=50, recovery=dict(settings=[(n, d) for d in (1, 2) for n in (6, 12, 20)],
                                        T={6: [500, 1000, 2000], 12: [1000, 3000, 10000],
                                           20: [1000, 3000, 10000]}, graphs=50,
                                        final_graphs=80),
               knn=("directed", 3, 1), knn_T=[250, 500, 1000],
               sigma_setting=("directed", 4, 1), sigma_T=500,
               sigmas=[1.0, 0.1, 0.01, 0.001, 0.0], prop1_T=[250, 500, 1000, 2000],
               prop1_draws=10),
    "paper": dict(graphs=200, recovery=dict(settings=[(n, d) for d in (1, 2) for n in (6, 12, 20)],
                                            T={6: [250, 500, 1000, 2000, 5000],
                                               12: [500, 1000, 2000, 5000, 10000],
                                               20: [1000, 2000, 5000, 10000]},
                                            graphs=200, final_graphs=200),
                  knn=("directed", 4, 1), knn_T=[250, 500, 1000, 2000],
                  sigma_setting=("directed", 4, 1), sigma_T=1000,
                  sigmas=[1.0, 0.1, 0.01, 0.001, 0.0], prop1_T=[250, 500, 1000, 2000],
                  prop1_draws=50),
}
