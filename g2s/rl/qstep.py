"""One iteration of Q-learning (:func:`g2s.rl.dqn.train`): act, then learn.

* :func:`act` -- one epsilon-greedy step in each parallel training episode, through
  :class:`g2s.rl.env.VertexSelectionEnv`, its transitions pushed to the replay buffer;
* :func:`learn` -- one Adam step on a replay minibatch of the loss Eq. (4) (:func:`td_loss`:
  its mean, undiscounted, the max over the candidates of ``S + a``, zero when terminal).
"""

from __future__ import annotations

import numpy as np
import torch

from g2s.graphs import make_graph
from g2s.nn.batch import batch_edge_arrays, edge_array
from g2s.nn.model import QModel
from g2s.rl.config import TrainConfig
from g2s.rl.env import VertexSelectionEnv, candidate_mask
from g2s.rl.replay import ReplayBuffer, Transition

__all__ = ["segment_argmax", "td_loss", "act", "learn"]


def segment_argmax(batch, q: torch.Tensor) -> torch.Tensor:
    """Per graph, the global index of the largest ``q`` (ties: smallest index)."""
    mx = torch.full((batch.num_graphs,), float("-inf"), device=q.device, dtype=q.dtype)
    mx = mx.scatter_reduce(0, batch.graph_index, q, "amax")
    is_max = (q == mx[batch.graph_index]) & torch.isfinite(q)
    idx = torch.arange(q.numel(), device=q.device)
    big = torch.full_like(idx, q.numel())
    first = big[: batch.num_graphs].clone().scatter_reduce(
        0, batch.graph_index, torch.where(is_max, idx, big), "amin")
    return first


def td_loss(model, target_model, problem, samples, T, device):
    graphs = [s.graph for s in samples]
    batch = batch_edge_arrays(graphs, device=device)
    c = torch.from_numpy(np.concatenate([s.selected for s in samples])).to(device)
    a = batch.ptr[:-1] + torch.tensor([s.action for s in samples], device=device)
    r = torch.tensor([s.reward for s in samples], device=device, dtype=torch.float32)
    q = model(batch, c.float(), T=T)[a]
    with torch.no_grad():
        c2 = c.clone()
        c2[a] = True
        cand = candidate_mask(problem, batch, c2)
        q2 = target_model(batch, c2.float(), T=T).masked_fill(~cand, float("-inf"))
        nxt = torch.full((batch.num_graphs,), float("-inf"), device=device)
        nxt = nxt.scatter_reduce(0, batch.graph_index, q2, "amax")
        nxt = torch.where(torch.isfinite(nxt), nxt, torch.zeros_like(nxt))
    return torch.mean((q - (r + nxt)) ** 2)


def act(model: QModel, cfg: TrainConfig, T: int, episodes: list, eps: float, rng,
         buf: ReplayBuffer, device) -> list:
    """One epsilon-greedy step in each of the ``n_envs`` training episodes (a fresh training
    graph where the last one ended: ``n`` vertices, or uniform on ``n..n_max`` when
    ``n_max > n``), through :class:`g2s.rl.env.VertexSelectionEnv`; the
    transitions go to ``buf``.  Returns the episodes, ``None`` where one ended."""
    for k in range(cfg.n_envs):
        if episodes[k] is None:
            n = cfg.n if cfg.n_max <= cfg.n else int(rng.integers(cfg.n, cfg.n_max + 1))
            g = edge_array(make_graph(cfg.graphs, n, seed=rng))
            episodes[k] = (g, np.zeros(g[0], dtype=bool))
    batch = batch_edge_arrays([e[0] for e in episodes], device=device)
    env = VertexSelectionEnv(cfg.problem, batch,
                             torch.from_numpy(np.concatenate([e[1] for e in episodes])))
    cand = env.candidates()
    explore = rng.random(cfg.n_envs) < eps
    if not explore.all():
        with torch.no_grad():
            q = model(batch, env.c.float(), T=T).masked_fill(~cand, float("-inf"))
        greedy = segment_argmax(batch, q).cpu().numpy()
    ptr = batch.ptr.cpu().numpy()
    cand_np = cand.cpu().numpy()
    acts = []
    for k in range(cfg.n_envs):
        local = np.flatnonzero(cand_np[ptr[k]:ptr[k + 1]])
        if len(local) == 0:          # an edgeless training graph: nothing to learn
            acts.append(-1)
            continue
        acts.append(int(rng.choice(local)) if explore[k] else int(greedy[k] - ptr[k]))
    rew = env.step(torch.tensor([ptr[k] + a if a >= 0 else -1 for k, a in enumerate(acts)],
                                device=device)).cpu().numpy()
    done = env.done().cpu().numpy()
    c = env.c.cpu().numpy()
    for k, a in enumerate(acts):
        if a >= 0:
            buf.push(Transition(episodes[k][0], episodes[k][1], a, float(rew[k])))
    return [None if acts[k] < 0 or done[k] else (episodes[k][0], c[ptr[k]:ptr[k + 1]].copy())
            for k in range(cfg.n_envs)]


def learn(model: QModel, target: QModel, opt, cfg: TrainConfig, T: int, buf: ReplayBuffer,
           rng, device) -> float | None:
    """One Adam step on a replay minibatch of Eq. (4); None until ``warmup`` transitions."""
    if len(buf) < max(cfg.warmup, cfg.batch_size):
        return None
    loss = td_loss(model, target, cfg.problem, buf.sample(cfg.batch_size, seed=rng), T, device)
    opt.zero_grad()
    loss.backward()
    if cfg.grad_clip > 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
    opt.step()
    return loss.item()
