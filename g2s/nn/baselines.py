"""The neural baselines of arXiv:1802.04948 (Section 5, Appendix D) as encoders.

:data:`BASELINES`, which :data:`g2s.nn.model.ENCODERS` includes:

========== =================================================== ==========
name       encoder                                             locality
========== =================================================== ==========
s2v        Structure2Vec (Dai et al. 2017), depth 5             5
sage_gcn   GraphSAGE, GCN aggregator (Hamilton et al. 2017)     2
sage_mean  GraphSAGE, mean aggregator                           2
sage_pool  GraphSAGE, pool aggregator                           2
wl_nn      WL kernel NN (Lei et al. 2017), depth 3, width 4     6
wl_embed   WL subtree feature map of the 5-ball (SHA labels)    5
========== =================================================== ==========

Each returns per-vertex embeddings of dimension ``config.dim`` for ``c`` of shape ``(N,)`` or
``(N, R)`` and has ``variable_depth = False``: :class:`g2s.nn.model.QModel` feeds them to the
same Q-network (Eq. (2)) and :mod:`g2s.rl.dqn` trains them exactly like G2S-RNN.
"""

from __future__ import annotations

from g2s.nn.graphsage import GraphSAGE
from g2s.nn.structure2vec import Structure2Vec
from g2s.nn.wl_embedding import WLEmbedding
from g2s.nn.wl_kernel_nn import WLKernelNN

__all__ = ["BASELINES", "encoder_locality"]


class SageGCN(GraphSAGE):
    def __init__(self, config):
        super().__init__(config, "gcn")


class SageMean(GraphSAGE):
    def __init__(self, config):
        super().__init__(config, "mean")


class SagePool(GraphSAGE):
    def __init__(self, config):
        super().__init__(config, "pool")


#: name -> encoder class, in the order of Appendix D
BASELINES = {"s2v": Structure2Vec, "sage_gcn": SageGCN, "sage_mean": SageMean,
             "sage_pool": SagePool, "wl_nn": WLKernelNN, "wl_embed": WLEmbedding}


def encoder_locality(encoder) -> int:
    """Radius ``L`` of the ball each embedding depends on (Section 3.2, Proposition 2)."""
    if isinstance(encoder, Structure2Vec | GraphSAGE):
        return encoder.depth
    if isinstance(encoder, WLKernelNN):
        return encoder.locality
    if isinstance(encoder, WLEmbedding):
        return encoder.radius
    raise TypeError(f"{type(encoder).__name__} has no fixed depth")


