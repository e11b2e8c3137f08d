"""Numerical checks of the theory of Graph2Seq (arXiv:1802.04948).  Never imports torch."""
