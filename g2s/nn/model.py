"""G2S-RNN (arXiv:1802.04948, Section 4, Fig. 1): Graph2Seq -> Seq2Vec -> Q-network.

An *encoder* maps ``(batch, c)`` (a :class:`~g2s.nn.batch.GraphBatch` and the indicator ``c``
of the selected set ``S``) to one embedding ``y_v`` in ``R^d`` per vertex; the Q-network of
Eq. (2) (:class:`~g2s.nn.qnet.QNetwork`) sits on top.  :class:`QModel` pairs any encoder with
the Q-network, so the baseline encoders (Structure2Vec, GraphSAGE, WL) reuse the training loop
(:mod:`g2s.rl.dqn`) and the evaluation (:mod:`g2s.evaluate`) unchanged.  An encoder declares
``variable_depth``: G2S-RNN's sequence length ``T`` is chosen per call (``T = 5`` in training,
``T = 1..T_max`` in Algorithm 2); fixed-depth encoders ignore ``T``.

:data:`ENCODERS` (name -> class taking ``config``) holds G2S-RNN's encoder and the baselines of
:mod:`g2s.nn.baselines`; a new encoder is added there.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields

import torch
from torch import nn

from g2s.nn.baselines import BASELINES
from g2s.nn.batch import GraphBatch
from g2s.nn.graph2seq import Graph2Seq
from g2s.nn.qnet import QNetwork
from g2s.nn.seq2vec import Seq2Vec

__all__ = ["ModelConfig", "G2SRNNEncoder", "QModel", "ENCODERS", "build_model"]


@dataclass
class ModelConfig:
    encoder: str = "g2s_rnn"     # key of ENCODERS; "g2s_rnn" is the paper's Graph2Seq + Seq2Vec
    dim: int = 16                # vertex embedding dimension d ("16" for every model, Section 5)
    T_train: int = 5             # Graph2Seq sequence length during training (Section 5: T = 5)
    T_max: int = 15              # Algorithm 2 tries T = 1..T_max at test time (Section 5: 15)
    seq2vec_self_term: bool = False  # add W x_v(t) to the Seq2Vec input (Section 4 item (i))
    extra: dict = field(default_factory=dict)  # encoder-specific settings of other encoders

    @classmethod
    def from_dict(cls, d: dict) -> ModelConfig:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def to_dict(self) -> dict:
        return asdict(self)


class G2SRNNEncoder(nn.Module):
    """Graph2Seq evolution read by Seq2Vec; returns ``y_v(T)`` (Section 4, Appendix C).

    Cost ``O(|E| d T + |V| d^2 T)``: one sparse product per step (Section 5's
    ``O(|E| T_max + |V|)`` for fixed ``d``, summed over ``T = 1..T_max`` in Algorithm 2).
    """

    variable_depth = True

    def __init__(self, config: ModelConfig):
        super().__init__()
        self.dim = config.dim
        self.default_T = config.T_train
        self.graph2seq = Graph2Seq(config.dim)
        self.seq2vec = Seq2Vec(config.dim, self_term=config.seq2vec_self_term)

    def forward(self, batch: GraphBatch, c: torch.Tensor, T: int | None = None,
                lengths: Sequence[int] | None = None, reads=None) -> torch.Tensor:
        """Embeddings ``y(T)``: ``c`` ``(N, ...)`` -> ``(N, ..., d)``.

        With ``lengths`` (``c`` is ``(N, R)``), column ``r`` is an independent evolution read
        at ``y(lengths[r])``.  More generally ``reads = (columns, times)`` (two ``(J,)`` long
        tensors) returns ``(N, J, d)`` with ``y(times[j])`` of evolution ``columns[j]``: one
        evolution serves every read of it.  All columns share each sparse product, and a
        column stops being computed after its last read (the fast Algorithm 2).
        """
        if lengths is not None:
            idx = torch.arange(len(lengths), device=c.device)
            reads = (idx, torch.as_tensor(list(lengths), device=c.device))
        if reads is None:
            T = self.default_T if T is None else int(T)
            if T < 1:
                raise ValueError("sequence length T must be >= 1")
        elif c.dim() != 2:
            raise ValueError("reads need c of shape (N, R)")
        if reads is None:
            return deque(self.rounds(batch, c, T), maxlen=1)[0][1]  # y(T)
        dtype = self.graph2seq.w_G2.dtype
        c = c.to(dtype)
        y = torch.zeros(tuple(c.shape) + (self.dim,), dtype=dtype, device=c.device)
        nbr = torch.zeros_like(y)                      # sum_{u in Gamma(v)} x_u(0) = 0
        cols, times = reads
        if int(times.min()) < 1:
            raise ValueError("sequence lengths must be >= 1")
        last = torch.zeros(c.shape[1], dtype=times.dtype, device=c.device)
        last = last.scatter_reduce(0, cols, times, "amax")
        out = y.new_empty((c.shape[0], cols.numel(), self.dim))
        active = torch.nonzero(last > 0).squeeze(1)
        c, y, nbr = c[:, active], y[:, active], nbr[:, active]
        for t in range(1, int(times.max()) + 1):
            x = self.graph2seq(nbr, c)
            nbr = batch.neighbour_sum(x)
            y = self.seq2vec(batch, x, nbr, y, c)
            now = torch.nonzero(times == t).squeeze(1)
            if now.numel():
                pos = torch.searchsorted(active, cols[now])
                out[:, now] = y[:, pos]
            keep = last[active] > t
            if not bool(keep.all()):
                active, c, y, nbr = active[keep], c[:, keep], y[:, keep], nbr[:, keep]
        return out

    def rounds(self, batch: GraphBatch, c: torch.Tensor, T: int):
        """Yield ``(x(t), y(t))`` for ``t = 1..T``: each Graph2Seq state and the Seq2Vec read
        of it, one round at a time (``forward`` returns the last ``y``; Appendix D.3's analysis
        inspects every round).  ``c`` ``(N, ...)`` -> two ``(N, ..., d)`` tensors per round."""
        dtype = self.graph2seq.w_G2.dtype
        c = c.to(dtype)
        y = torch.zeros(tuple(c.shape) + (self.dim,), dtype=dtype, device=c.device)
        nbr = torch.zeros_like(y)                      # sum_{u in Gamma(v)} x_u(0) = 0
        for _ in range(T):
            x = self.graph2seq(nbr, c)                 # x(t), t = 1..T
            nbr = batch.neighbour_sum(x)
            y = self.seq2vec(batch, x, nbr, y, c)      # y(t) reads x(t)
            yield x, y


#: encoder name -> class(config): the paper's G2S-RNN, then the baselines in Appendix D's order
ENCODERS: dict[str, type[nn.Module]] = {"g2s_rnn": G2SRNNEncoder, **BASELINES}


class QModel(nn.Module):
    """An encoder followed by the Q-network of Eq. (2): ``Q(G, S, v)`` for every vertex."""

    def __init__(self, config: ModelConfig, encoder: nn.Module | None = None):
        super().__init__()
        self.config = config
        if encoder is None and config.encoder not in ENCODERS:
            raise ValueError(f"unknown encoder {config.encoder!r}; expected one of "
                             f"{', '.join(sorted(ENCODERS))}")
        self.encoder = encoder if encoder is not None else ENCODERS[config.encoder](config)
        self.qnet = QNetwork(config.dim)

    @property
    def variable_depth(self) -> bool:
        return bool(getattr(self.encoder, "variable_depth", False))

    def embed(self, batch: GraphBatch, c: torch.Tensor, T: int | None = None,
              lengths: Sequence[int] | None = None, reads=None) -> torch.Tensor:
        """Vertex embeddings ``y``: variable-depth encoders take ``T`` (or per-column
        ``lengths``/``reads``, the shared-work Algorithm 2); fixed-depth ones ignore them."""
        if lengths is not None or reads is not None:
            return self.encoder(batch, c, lengths=lengths, reads=reads)
        if self.variable_depth:
            return self.encoder(batch, c, T=T)
        return self.encoder(batch, c)

    def forward(self, batch: GraphBatch, c: torch.Tensor, T: int | None = None,
                lengths: Sequence[int] | None = None) -> torch.Tensor:
        """``Q`` values ``(N, ...)`` for selected-set indicator ``c`` ``(N, ...)``."""
        return self.qnet(batch, self.embed(batch, c, T=T, lengths=lengths))


def build_model(config: ModelConfig | dict | None = None) -> QModel:
    """A freshly initialised model (callers seed it inside ``torch.random.fork_rng``)."""
    if config is None:
        config = ModelConfig()
    elif isinstance(config, dict):
        config = ModelConfig.from_dict(config)
    return QModel(config)
