"""The reproduce contract: atomic writes, a resumable unit cache, provenance in every JSON."""

import argparse
import json

from reproduce.common import Run, UnitCache, make_parser


def test_unit_cache_computes_once(tmp_path):
    cache = UnitCache(tmp_path)
    calls = []
    key = {"family": "er", "n": 25, "seed": 1}
    for _ in range(3):
        assert cache.get_or_compute(key, lambda: calls.append(1) or {"x": 2}) == {"x": 2}
    assert len(calls) == 1
    (next(tmp_path.glob("*.json"))).write_text("{corrupt")
    assert cache.get_or_compute(key, lambda: calls.append(1) or {"x": 2}) == {"x": 2}
    assert len(calls) == 2  # a corrupt entry is recomputed, not trusted
    assert not list(tmp_path.glob("*.tmp"))


def test_run_writes_json_with_provenance(tmp_path):
    args = make_parser("demo", "d").parse_args(["--profile", "smoke", "--out", str(tmp_path)])
    assert isinstance(args, argparse.Namespace)
    run = Run("demo", args)
    run.write({"points": [1, 2]}, derive=lambda r: {"k": {"verdict": "confirmed"}})
    data = json.loads((tmp_path / "demo.json").read_text())
    prov = data["provenance"]
    assert data["points"] == [1, 2] and data["verdicts"]["k"]["verdict"] == "confirmed"
    assert prov["profile"] == "smoke" and prov["seed"] == 0 and "git_commit" in prov
    assert prov["wall_time_s"] >= 0


def test_provenance_names_the_tree_the_run_started_from(tmp_path, monkeypatch):
    """A run's own writes (a unit cache that ships with the figures) must not make its JSON
    read as written from a dirty tree: the commit is taken when the run starts."""
    from reproduce.harness import contract
    states = iter(["abc", "abc+dirty"])
    monkeypatch.setattr(contract, "git_commit", lambda: next(states))
    args = make_parser("demo", "d").parse_args(["--profile", "smoke", "--out", str(tmp_path)])
    run = Run("demo", args)           # the tree is clean here; the run then writes its cache
    run.write({"points": [1]})
    assert json.loads((tmp_path / "demo.json").read_text())["provenance"]["git_commit"] == "abc"


def test_validate_unit_rechecks_the_cached_solution():
    """A cached grid unit is trusted only when its solution is feasible on the instance and its
    objective recomputes; the instance graph kept between calls is the right one for each key."""
    from g2s.heuristics import greedy
    from g2s.reference.certificates import instance_graph
    from reproduce.harness.unit_check import validate_unit
    for index in (0, 1, 0):                      # a different instance, then the first again
        key = {"problem": "mvc", "family": "er", "n": 25, "index": index}
        cover = sorted(greedy("mvc", instance_graph("er", 25, index)))
        assert validate_unit(key, {"objective": len(cover), "solution": cover}) is None
        assert "infeasible" in validate_unit(key, {"objective": len(cover) - 1,
                                                   "solution": cover[1:]})
        assert "recomputed" in validate_unit(key, {"objective": len(cover) + 1,
                                                   "solution": cover})
    assert validate_unit({"family": "er"}, {"objective": 1, "solution": [0]}) == \
        "malformed unit key"


def test_a_cached_trivial_unit_is_recomputed_and_any_edited_draw_caught():
    """The trivial solver's unit (the mean of its draws) is trusted from the cache only when
    a recomputation gives the same draws: an edit to a draw that is not the best one, which
    no solution could reveal, is caught, and so is an edited mean."""
    from reproduce.harness.grid import evaluate_unit
    from reproduce.harness.unit_check import validate_unit
    key = {"problem": "mis", "family": "er", "n": 25, "index": 2, "method": "trivial",
           "t_max": 15}
    value = evaluate_unit("mis", "er", 25, 2, "trivial", None, "cpu", 15)
    assert validate_unit(key, value) is None
    worst = min(range(len(value["draws"])), key=lambda d: value["draws"][d])
    edited = {**value, "draws": [v + (d == worst) for d, v in enumerate(value["draws"])]}
    assert "draws differs" in validate_unit(key, edited)
    bumped = {**value, "objective": 1.0 + value["objective"]}
    assert "objective differs" in validate_unit(key, bumped)
    assert "not a trivial-solver unit" in validate_unit(key, {"objective": 3, "solution": [0]})
