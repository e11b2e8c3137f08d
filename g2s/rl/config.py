"""The settings of one Q-learning run (:func:`g2s.rl.dqn.train`): :class:`TrainConfig`.

Every field is a flag of ``g2s train`` (:mod:`g2s.train` builds the parser from the fields and
takes each flag's help from the field's comment), is stored in the checkpoint's metadata and
JSON sidecar, and is checked when a run resumes (:mod:`g2s.rl.resume`).  The defaults are the
paper's settings (Section 5, Appendix C.1) where it states them, and the shipped recipe
(``paper`` of :mod:`g2s.rl.recipes`) where it is silent; a recipe sets some fields.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["TrainConfig"]


@dataclass
class TrainConfig:
    problem: str = "mvc"          # mvc | maxcut | mis
    graphs: str = "er"            # training graph family (g2s.graphs.FAMILIES)
    n: int = 15                   # training graph size (Section 5: 15 for ER, 20 for bipartite)
    iterations: int = 100_000     # gradient steps (Section 5: 100,000; 0: the initial weights)
    batch_size: int = 64          # transitions per gradient step
    lr: float = 1e-3              # Adam learning rate (Section 5)
    eps_start: float = 1.0        # exploration probability at iteration 0 (Section 5)
    eps_end: float = 0.05         # resting exploration probability (Section 5)
    eps_decay: int = 10_000       # iterations of the linear epsilon decay (Section 5)
    replay_capacity: int = 50_000  # transitions kept in the replay buffer
    n_envs: int = 4               # parallel training episodes (one step each per iteration)
    warmup: int = 200             # transitions collected before the first gradient step
    target_update: int = 0        # 0: targets from the current weights (Eq. 4); k: target net
    t_train_max: int = 0          # 0: T = the model's T_train every step; k: T uniform on 1..k
    n_max: int = 0                # 0: training graphs of n vertices; m > n: n..m per episode
    grad_clip: float = 0.0        # max gradient norm; 0 disables clipping
    keep_best: bool = True        # ship the best-validation weights (ties: the latest)
    validate_every: int = 1000    # iterations between validations
    n_validation: int = 64        # fixed validation graphs (same family and size)
    validation: str = "exact"     # exact: selects on the curve above; algorithm2: on Algorithm 2
    select_every: int = 5000      # iterations between Algorithm 2 validations (algorithm2)
    validation_n: int = 50        # vertices of each Algorithm 2 validation graph
    validation_graphs: int = 32   # Algorithm 2 validation graphs (training family, own seeds)
    recipe: str = "paper"         # the recipe these settings read (g2s.rl.recipes; or custom)
    checkpoint_every: int = 2000  # iterations between resumable checkpoints
    checkpoint_seconds: float = 300.0  # also save a resume point this often (s; 0: never)
    seed: int = 0                 # master seed: weights, graphs, exploration, sampling
    device: str = "cpu"           # cpu | cuda

    @classmethod
    def from_dict(cls, d: dict) -> TrainConfig:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})
