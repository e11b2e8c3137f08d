"""The engine without Dask: serial and process-pool runs of a grid agree, the client
caches as results arrive, workers refuse other code, and ``--import-units`` accepts only
units that match, are on the same graph and re-validate."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from reproduce.common import Run
from reproduce.harness import grid

ROOT = Path(__file__).resolve().parents[2]
TINY = dict(problem="mvc", families=("er",), sizes=[25, 50], count=2)


def make_run(tmp_path: Path, name="gridtest", **extra) -> Run:
    args = argparse.Namespace(out=tmp_path, cache_dir=None, no_cache=False, workers=1,
                              profile="smoke", seed=0, scheduler=None, import_units=None)
    for k, v in extra.items():
        setattr(args, k, v)
    return Run(name, args)


def shipped_model() -> Path:
    from g2s.nn.checkpoints import checkpoint_path
    return checkpoint_path("g2s_rnn", "mvc", "er15", 0)


def tiny_grid(run: Run) -> str:
    """The grid's JSON (as a figure writes it), without unit times."""
    methods = {"g2s_rnn_s0": shipped_model(), "greedy": None, "list": None}
    raw = grid.evaluate_grid(run, TINY["problem"], TINY["families"], TINY["sizes"],
                             TINY["count"], methods, t_max=15)
    raw["points"] = grid.summarise(raw, TINY["families"], list(methods))
    return canonical(raw)


def canonical(obj) -> str:
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k != "time_s"}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o
    return json.dumps(strip(json.loads(json.dumps(obj))), indent=1, sort_keys=True)


def test_process_pool_gives_the_serial_json_and_caches_every_unit(tmp_path):
    serial = tiny_grid(make_run(tmp_path / "serial"))
    pooled = tiny_grid(make_run(tmp_path / "pool", workers=2))
    assert pooled == serial
    assert len(list((tmp_path / "pool" / ".cache" / "gridtest").glob("*.json"))) == 12
    # a second run reads everything back: no pool is opened, no unit recomputed
    run = make_run(tmp_path / "pool", workers=2)
    import reproduce.harness.engine as engine
    original = engine.open_pool
    engine.open_pool = lambda args: pytest.fail("opened a pool with everything cached")
    try:
        assert tiny_grid(run) == serial
    finally:
        engine.open_pool = original


def test_a_worker_with_other_sources_refuses_to_run(tmp_path):
    from reproduce.harness import _worker
    digest = _worker.code_digest(str(ROOT))
    assert _worker.call(str(ROOT), digest, "reproduce.harness.grid:sha", (shipped_model(),)) == \
        grid.sha(shipped_model())
    with pytest.raises(RuntimeError, match="differ from the client"):
        _worker.call(str(ROOT), "0" * 16, "reproduce.harness.grid:sha", (shipped_model(),))


def test_unit_memory_grows_with_the_graph():
    small, large = grid.unit_memory(25, 40, True), grid.unit_memory(25_000, 94_000, True)
    assert small < 2**30 < large < 4 * 2**30
    assert grid.unit_memory(25, 40, False) < small
    assert grid.unit_memory(400, None, False) >= grid.unit_memory(400, 400 * 400 // 4, False)


def _line(run_dir: Path, **change) -> dict:
    """A unit line as a GPU machine writes it, from a unit computed here."""
    from g2s.graphs import graph_fingerprint
    from g2s.reference.certificates import instance_graph
    value = grid.evaluate_unit("mvc", "er", 25, 1, "g2s_rnn_s0", str(shipped_model()), "cpu",
                               15)
    rec = {"problem": "mvc", "family": "er", "n": 25, "index": 1,
           "checkpoint_sha": grid.sha(shipped_model()), "t_max": 15,
           "fingerprint": graph_fingerprint(instance_graph("er", 25, 1)),
           "solution": value["solution"], "objective": value["objective"],
           "best_T": value["best_T"], "seconds": 1.5, "device": "cuda"}
    rec.update(change)
    return rec


def test_import_units_caches_matching_valid_units_only(tmp_path, monkeypatch, capsys):
    good = _line(tmp_path)
    bad = {"objective": _line(tmp_path, objective=good["objective"] - 1),
           "infeasible": _line(tmp_path, solution=[], objective=0),
           "fingerprint": _line(tmp_path, fingerprint="0" * 16),
           "other checkpoint": _line(tmp_path, checkpoint_sha="f" * 16),
           "other t_max": _line(tmp_path, t_max=5)}
    path = tmp_path / "units.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [*bad.values(), good])
                    + "\nnot json\n" + json.dumps({"problem": "mvc"}) + "\n")
    run = make_run(tmp_path / "out", import_units=path)
    calls = []
    real = grid.evaluate_unit
    monkeypatch.setattr(grid, "evaluate_unit", lambda *a: calls.append(a) or real(*a))
    raw = grid.evaluate_grid(run, "mvc", ["er"], [25], 2, {"g2s_rnn_s0": shipped_model()})
    err = capsys.readouterr().err
    assert "1 imported" in err and "2 invalid" in err and "1 other graph" in err
    assert "2 no unit of this grid" in err and "2 unreadable" in err
    assert "cached objective" in err and "infeasible" in err
    # index 1 came from the file (not recomputed), index 0 was computed here
    assert [a[3] for a in calls] == [0]
    row = raw["instances"][1]["results"]["g2s_rnn_s0"]
    assert row["objective"] == good["objective"] and row["imported"]["device"] == "cuda"
    # importing again: the unit is already cached, nothing is overwritten
    grid.evaluate_grid(make_run(tmp_path / "out", import_units=path), "mvc", ["er"], [25], 2,
                       {"g2s_rnn_s0": shipped_model()})
    assert "1 already cached" in capsys.readouterr().err


def test_import_units_from_the_device_check(tmp_path, capsys):
    """The committed GPU units (benchmarks/results/device_units.jsonl): every G2S-RNN unit on
    the shipped ER-15 checkpoints matches Figure 2's ER grid at n = 800, has the local graph's
    fingerprint and re-validates."""
    from g2s.nn.checkpoints import checkpoint_path
    from reproduce.harness.unit_import import import_units
    path = ROOT / "benchmarks" / "results" / "device_units.jsonl"
    if not path.exists():
        pytest.skip("no device units committed")
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    methods = {f"g2s_rnn_s{s}": checkpoint_path("g2s_rnn", "mvc", "er15", s) for s in (0, 1, 2)}
    hashes = {m: grid.sha(p) for m, p in methods.items() if p.exists()}
    expected = sum(r["family"] == "er" and r["n"] == 800 and r["checkpoint_sha"] in hashes.values()
                   for r in lines)
    units = [("er", 800, i, m) for i in range(3) for m in hashes]

    def key(u):
        return {"tag": grid.CODE_TAG, "problem": "mvc", "family": "er", "n": 800, "index": u[2],
                "method": u[3], "t_max": 15, "checkpoint": hashes[u[3]]}
    counts = import_units(make_run(tmp_path), path, "mvc", units, key, hashes, 15)
    assert expected and counts["imported"] == expected and not counts["invalid"]
    assert not counts["other graph"]


def test_max_n_leaves_larger_model_units_to_the_cache(tmp_path):
    """``--max-n``: a model unit above the cap is not computed (its point is left out) unless
    it is cached; heuristics run at every size."""
    methods = {"g2s_rnn_s0": shipped_model(), "greedy": None}
    raw = grid.evaluate_grid(make_run(tmp_path, max_n=25), "mvc", ["er"], [25, 50], 1, methods)
    have = {(r["n"], m) for r in raw["instances"] for m in r["results"]}
    assert have == {(25, "g2s_rnn_s0"), (25, "greedy"), (50, "greedy")}
    # once the unit is cached (here: computed by a run without the cap), the capped run uses it
    grid.evaluate_grid(make_run(tmp_path), "mvc", ["er"], [50], 1, {"g2s_rnn_s0": shipped_model()})
    raw = grid.evaluate_grid(make_run(tmp_path, max_n=25), "mvc", ["er"], [25, 50], 1, methods)
    assert {(r["n"], m) for r in raw["instances"] for m in r["results"]} == \
        have | {(50, "g2s_rnn_s0")}


def test_families_and_models_choose_the_model_units_computed(tmp_path, capsys):
    """``--families`` and ``--models``: only the chosen model units are computed (a model name
    selects every seed of it, a seed name only that seed); the other model units' points are
    left out, heuristics run everywhere, and a name that selects nothing is said on stderr."""
    from g2s.nn.checkpoints import checkpoint_path
    methods = {"g2s_rnn_s0": shipped_model(), "g2s_rnn_s1": checkpoint_path("g2s_rnn", "mvc",
                                                                             "er15", 1),
               "greedy": None}

    def have(**chosen):
        raw = grid.evaluate_grid(make_run(tmp_path / str(len(chosen)) / "_".join(
            "".join(v) for v in chosen.values()), **chosen), "mvc", ["er", "regular"], [25], 1,
            methods)
        # a narrowed run audits only the units it may compute: the JSON does not claim more
        assert raw["units"]["models_audited"] is (not chosen)
        return {(r["family"], m) for r in raw["instances"] for m in r["results"]}
    heuristics = {("er", "greedy"), ("regular", "greedy")}
    assert have() == heuristics | {(f, m) for f in ("er", "regular")
                                   for m in ("g2s_rnn_s0", "g2s_rnn_s1")}
    assert have(families=["regular"]) == heuristics | {("regular", "g2s_rnn_s0"),
                                                       ("regular", "g2s_rnn_s1")}
    assert have(models=["g2s_rnn_s1"]) == heuristics | {("er", "g2s_rnn_s1"),
                                                        ("regular", "g2s_rnn_s1")}
    assert have(models=["g2s_rnn"], families=["er"]) == heuristics | {("er", "g2s_rnn_s0"),
                                                                      ("er", "g2s_rnn_s1")}
    capsys.readouterr()
    assert have(models=["s2v"], families=["bipartite"]) == heuristics
    err = capsys.readouterr().err
    assert "--models s2v: no model of this grid" in err
    assert "--families bipartite: not a family of this grid" in err


@pytest.mark.parametrize("argv, message", [
    (["--families", "nosuch"], "invalid choice: 'nosuch'"),
    (["--models", "g2s-rnn"], "not a model name"),
])
def test_families_and_models_refuse_bad_values(argv, message, capsys):
    parser = argparse.ArgumentParser()
    grid.add_model_options(parser)
    with pytest.raises(SystemExit) as exc:
        parser.parse_args(argv)
    assert exc.value.code == 2 and message in capsys.readouterr().err


_MASK_CHILD = '''
import signal, sys
def blocked():
    sys.exit(0 if {signal.SIGINT, signal.SIGTERM} <= signal.pthread_sigmask(signal.SIG_BLOCK, [])
             else 1)
'''

_MASK_PARENT = '''
import multiprocessing as mp, sys
sys.path.insert(0, sys.argv[1])
import child
from reproduce.harness.engine import signals_held
ctx = mp.get_context("spawn")
with signals_held():
    procs = [ctx.Process(target=child.blocked) for _ in range(2)]
    for p in procs:
        p.start()
for p in procs:
    p.join()
print([p.exitcode for p in procs])
'''


@pytest.mark.skipif(not hasattr(__import__("signal"), "pthread_sigmask"), reason="POSIX only")
def test_every_worker_started_while_signals_are_held_starts_with_them_blocked(tmp_path):
    """A worker must not see Ctrl-C before its start-up has ignored it: the resource tracker,
    which starts with the first worker, unblocks the signals in the starting thread, and so
    once left every worker after the first unprotected."""
    import subprocess
    import sys
    (tmp_path / "child.py").write_text(_MASK_CHILD)
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", _MASK_PARENT, str(tmp_path)], cwd=root,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[0,", "0]"], out.stdout


def test_unit_progress_says_how_far_a_long_unit_is(capsys, monkeypatch):
    """A unit's Algorithm 2 reports its greedy steps on standard error once a period, each on a
    line of its own, naming where a resumed run started; the first call (the starting step)
    and calls within a period print nothing."""
    from reproduce.harness import engine
    now = [1000.0]
    monkeypatch.setattr(engine.time, "monotonic", lambda: now[0])
    report = engine.unit_progress("sparse_er/25000 g2s_rnn_mvc_er15_target_s7", 25_000,
                                  every_s=300)
    report(2_742, 15)                  # resumed at step 2,742
    now[0] += 299
    report(2_800, 15)
    assert capsys.readouterr().err == ""
    now[0] += 2
    report(2_801, 14)
    now[0] += 300
    report(3_900, 9)
    lines = capsys.readouterr().err.split("\n")
    assert lines == ["", "sparse_er/25000 g2s_rnn_mvc_er15_target_s7: greedy step 2,801 of at "
                     "most 25,000, 14 rollouts running (5 min, resumed at step 2,742)",
                     "", "sparse_er/25000 g2s_rnn_mvc_er15_target_s7: greedy step 3,900 of at "
                     "most 25,000, 9 rollouts running (10 min, resumed at step 2,742)", ""]
    fresh = engine.unit_progress("er/3200 graph 0 g2s_rnn_s0", 3_200, every_s=0)
    fresh(0, 15)
    now[0] += 1
    fresh(1, 15)
    assert capsys.readouterr().err == ("\ner/3200 graph 0 g2s_rnn_s0: greedy step 1 of at most "
                                       "3,200, 15 rollouts running (0 min)\n")
