"""Algorithm 2 of arXiv:1802.04948 (the best of G2S-RNN(1..T_max)): ``literal`` as written,
``fast`` (its decisions, faster) on ``evolve`` (the arithmetic) and ``decide`` (one step's
decision), both rounding scores by ``quantise``."""
