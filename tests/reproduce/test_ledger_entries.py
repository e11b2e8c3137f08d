"""Checks behind ledger entries whose evidence states a fact of the committed outputs or of a
small computation.  Each test pins what the entry's evidence says, so the
entry drifts (``claims.py --check`` fails) when a regenerated output makes it stale.

* fig3-graphs-per-point: the committed Figure 3 averages the caption's 20 graphs per point (1
  for the deterministic greedy worst case);
* fig2-bipartite-sizes: the paper tests bipartite graphs of 24-3,200 vertices with equal parts;
  ours use the ladder 25-3,200, whose 25 has parts 12 and 13 (every other size is even);
* d3-q-semantics, d3-latching: the committed Appendix D.3 run uses one planted-cover seed;
* d3-graph-sizes: D.3's state study runs sizes 25-200 of the four Section 5 families, the depth
  study size 50;
* gurobi-reference: the max cut and MIS certificates ran 20 s per instance for the first 5
  graphs per size and 30 s (the default for new certificates) for graphs 5-19;
* d3-random-parameter-collapse (recorded): with randomly initialised Graph2Seq parameters (our
  default initialisation) about 8 of 16 coordinates are zero at layers 4-5, the claim's bar,
  by symmetry: no sample could decide "more than 8".
"""

import json
from pathlib import Path

import numpy as np
import pytest

from reproduce.harness import verdicts as V

ROOT = Path(__file__).resolve().parents[2]

FIGURES = ROOT / "paper_figures"


def _json(name):
    return json.loads((FIGURES / f"{name}.json").read_text())


def test_figure3_graphs_per_point():
    pts = _json("figure3")["points"]
    counts = {f: {v["count"] for v in pts[f]["g2s_rnn"].values()} for f in pts}
    assert counts == {"bipartite": {20}, "regular": {20}, "greedy_worst": {1}}
    from reproduce.harness import settings as S
    seeds = S.G2S_SEEDS[("mvc", S.ER15)]
    assert len(seeds) == 10  # the training seed is the unit: every shipped seed is evaluated
    g2s = sorted(k for k in _json("figure3")["checkpoints"] if k.startswith("g2s_rnn"))
    # beside them, every other recipe's seeds (the readings of the training recipe and the
    # learning null, the untrained initial weights under the same search): all it trains
    from g2s.nn.checkpoints import checkpoint_path
    every = [checkpoint_path("g2s_rnn", "mvc", S.ER15, s, recipe=r).name
             for (enc, p, t, r), got in S.TRAIN_TARGETS.items()
             if (enc, p, t) == ("g2s_rnn", "mvc", S.ER15) for s in got]
    assert len(every) == 10 + 3 * 10 + 5
    assert g2s == sorted(every)


def test_bipartite_sizes_differ_from_the_paper_only_at_the_smallest():
    from g2s.graphs import SIZE_LADDER, make_graph
    parts = {}
    for n in SIZE_LADDER[:5]:
        G = make_graph("bipartite", n, seed=0)
        side = [d for _, d in G.nodes(data="bipartite")]
        parts[n] = (side.count(0), side.count(1))
    assert parts[25] == (12, 13)
    assert all(a == b for n, (a, b) in parts.items() if n != 25)
    assert SIZE_LADDER[0] == 25 and SIZE_LADDER[-1] == 3200


def test_appendix_d3_uses_every_planted_seed():
    """d3-latching and d3-q-semantics rest on every shipped seed of the planted-cover models
    (the committed run once used seed 0 only, while seeds 1-2 were shipped)."""
    from reproduce.harness import settings as S
    from reproduce.harness.grid import seeds_by_model, shipped_seeds
    d3 = _json("appendix_d3")
    shipped = {kind: seeds_by_model(shipped_seeds(enc, "mvc", on,
                                                  S.TRAIN_TARGETS[(enc, "mvc", on, S.PAPER)]))[enc]
               for kind, (enc, on) in S.D3_PLANTED.items()}
    assert len(shipped["planted_g2s"]) == len(S.D3_SEEDS)      # ten seeds of each G2S-RNN
    want = sorted(f"{kind}_s{seed}" for kind, seeds in shipped.items() for seed in seeds)
    assert sorted(k for k in d3["checkpoints"] if k.startswith("planted")) == want
    assert sorted(d3["latching"]["planted"]["planted_g2s"]["per_seed"]) == sorted(
        f"planted_g2s_s{s}" for s in shipped["planted_g2s"])
    assert d3["verdicts"]["d3-latching"]["g2s_seeds"] == len(shipped["planted_g2s"])
    assert d3["verdicts"]["d3-latching"]["s2v_seeds"] == len(shipped["planted_s2v"])


def test_appendix_d3_graph_sizes():
    d3 = _json("appendix_d3")
    shipped = d3["collapse"]["shipped"]
    assert sorted(shipped) == ["bipartite", "er", "greedy_worst", "regular"]
    assert {int(n) for f in shipped for n in shipped[f]} == {25, 50, 100, 200}
    assert d3["paper_depth_n"] == 50 and all(list(v) == ["50"] for v in d3["depth"].values())


def test_certificate_time_limits():
    from g2s.reference.certificates import CERTIFICATE_DIR, DEFAULT_TIME_LIMIT
    assert DEFAULT_TIME_LIMIT == 30.0
    for name in ("maxcut_er", "maxcut_grid", "mis_er", "mis_structured_bipartite"):
        recs = json.loads((CERTIFICATE_DIR / f"{name}.json").read_text())["instances"]
        # instances 0-4 per size (the 3-graph era) ran 20 s; 5-19 (the 20-graph grid) 30 s
        limits = {(r["time_limit"], int(k.split("/")[1]) < 5) for k, r in recs.items()}
        assert limits <= {(20.0, True), (30.0, False)}, name


def _random_parameter_zeros(family, n, draws=100, layers=5):
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)   # tiny tensors: threads only add contention
    try:
        return _zeros(torch, family, n, draws, layers)
    finally:
        torch.set_num_threads(threads)


def _zeros(torch, family, n, draws, layers):
    from g2s.graphs import make_graph
    from g2s.nn.batch import batch_edge_arrays, edge_array
    from g2s.nn.graph2seq import Graph2Seq
    graphs = []
    for g in range(5):   # 5 graphs, each with 20 parameter draws
        size, edges = edge_array(make_graph(family, n, seed=g))
        graphs.append((size, batch_edge_arrays([(size, edges)], dtype=torch.float64)))
    out = []
    for s in range(draws):
        torch.manual_seed(s)
        step = Graph2Seq(16).double()
        size, batch = graphs[s % len(graphs)]
        c = torch.zeros(size, dtype=torch.float64)
        nbr = torch.zeros(size, 16, dtype=torch.float64)
        zeros = []
        with torch.no_grad():
            for _ in range(layers):
                x = step(nbr, c)
                nbr = batch.neighbour_sum(x)
                zeros.append(float((x == 0).sum(-1).double().mean()))
        out.append(np.mean(zeros[3:5]))  # layers 4 and 5
    return out


def test_random_parameter_dimension_collapse():
    """Recorded, not decided: the paper shows no random-parameter experiment and names no
    distribution.  Under our initialisation a relu of a roughly symmetric pre-activation zeroes
    about half the coordinates, so the mean is 8 of 16 by symmetry, the bar of the claim: no
    sample size could decide "more than 8" (before, this was an "inconclusive" verdict that
    its data could not change).  What is pinned: per (family, n) the mean over 100 random
    initialisations (5 graphs x 20 draws) has an interval containing 8, and the overall mean
    is within 0.3 of 8."""
    samples = {(f, n): _random_parameter_zeros(f, n)
               for f in ("er", "regular", "bipartite", "greedy_worst") for n in (25, 50)}
    conf = V.per_point_confidence(len(samples))
    ivs = {f"{f}@{n}": V.interval_over_graphs(v, confidence=conf, n_resamples=2000)
           for (f, n), v in samples.items()}
    assert all(iv["low"] <= 8 <= iv["high"] for iv in ivs.values())
    overall = np.mean([np.mean(v) for v in samples.values()])
    assert abs(overall - 8) <= 0.3
