"""Q-learning (Appendix C.1): ``dqn`` (the training loop) with ``config`` (its settings), ``env``
(the vertex-selection MDP), ``replay``, ``qstep`` (one iteration) and ``resume`` (resume points)."""
