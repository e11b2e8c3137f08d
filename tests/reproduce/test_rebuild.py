"""A grid figure rebuilt from its committed per-unit results (reproduce/harness/rebuild.py).

* the plan: a unit is reused only when its method, graph and checkpoint hash match; every
  cheap unit (a heuristic under a second) is recomputed, and a share of the others drawn with
  the run's seed, at least one per method and size, the same share for the same seed;
* the three layouts of the committed grid JSONs are read (one table, one per family, one per
  problem); another problem, ``T_max`` or code tag is not reused;
* end to end (Figure 3, smoke profile): a committed objective that a recomputation does not
  give back stops the script with the list and writes nothing; untouched, the rebuilt JSON
  holds the committed objectives and says how many units came from where.
"""

import json
import shutil

import pytest

from reproduce.harness import rebuild
from reproduce.harness.contract import DEFAULT_OUT

pytestmark = pytest.mark.torch


def _units(methods=("greedy", "g2s_rnn_s0"), sizes=(25, 50), count=20):
    return [("er", n, i, m) for n in sizes for i in range(count) for m in methods]


def _committed(units, sha="abc", time_s=5.0):
    return {(*u, None if u[3] == "greedy" else sha):
            {"objective": 1, "best_T": None, "time_s": time_s, "source": "x.json"}
            for u in units}


def test_plan_reuses_matching_units_and_checks_a_share_of_each_method_and_size():
    units = _units()
    sha_of = lambda u: None if u[3] == "greedy" else "abc"  # noqa: E731
    reused, check, new = rebuild.plan(units, sha_of, _committed(units), seed=0)
    assert not new and len(reused) + len(check) == len(units)
    assert not set(reused) & set(check)
    for m in ("greedy", "g2s_rnn_s0"):
        for n in (25, 50):
            assert sum(1 for u in check if u[3] == m and u[1] == n) == 2   # 10% of 20
    again = rebuild.plan(units, sha_of, _committed(units), seed=0)
    assert again[1] == check                                            # seeded
    other = rebuild.plan(units, sha_of, _committed(units), seed=1)
    assert other[1] != check


def test_a_changed_checkpoint_or_a_missing_unit_is_computed_and_small_groups_are_checked():
    units = _units(count=3)
    committed = _committed(units[:-1], sha="abc")
    reused, check, new = rebuild.plan(units, lambda u: None if u[3] == "greedy" else "new",
                                      committed, seed=0)
    assert all(u[3] == "g2s_rnn_s0" for u in new) and len(new) == 6     # hash changed
    assert len(check) == 2 and all(u[3] == "greedy" for u in check)     # one per size


def test_every_cheap_unit_is_recomputed_and_the_sample_changes_with_the_seed():
    units = _units()
    sha_of = lambda u: None if u[3] == "greedy" else "abc"  # noqa: E731
    committed = _committed(units, time_s=0.01)      # greedy cheap; the model's 0.01 s too
    reused, check, _ = rebuild.plan(units, sha_of, committed, seed=0)
    assert {u for u in units if u[3] == "greedy"} <= set(check)       # all 40 of them
    assert sum(u[3] == "g2s_rnn_s0" for u in check) == 4                # a model is sampled
    seeds = {rebuild.fresh_seed() for _ in range(5)}
    assert len(seeds) == 5 and all(0 <= s < 2**53 for s in seeds)
    samples = {tuple(rebuild.plan(units, sha_of, committed, seed=s)[1]) for s in seeds}
    assert len(samples) > 1


def _write(tmp_path, name, data):
    (tmp_path / f"{name}.json").write_text(json.dumps(data))


def _row(f="er", n=25, i=0, **results):
    return {"family": f, "n": n, "index": i, "results": results}


def test_every_grid_layout_is_read_and_other_settings_are_not_reused(tmp_path):
    unit = {"objective": 7, "best_T": 3, "time_s": 0.1}
    _write(tmp_path, "one", {"problem": "mvc", "t_max": 15, "checkpoint_sha256_16": {"m": "h"},
                             "instances": [_row(m=unit, g2s_rnn={"ratio": 1.0})]})
    assert list(rebuild.committed_units("one", "mvc", 15, "grid-v1", tmp_path)) == \
        [("er", 25, 0, "m", "h")]                       # the seed mean is no unit
    _write(tmp_path, "fam", {"problem": "mvc", "t_max": 15,
                             "checkpoint_sha256_16": {"er": {"m": "h1"}, "bip": {"m": "h2"}},
                             "instances": {"er": [_row(m=unit)], "bip": [_row("bip", m=unit)]}})
    assert set(rebuild.committed_units("fam", "mvc", 15, "grid-v1", tmp_path)) == \
        {("er", 25, 0, "m", "h1"), ("bip", 25, 0, "m", "h2")}
    _write(tmp_path, "prob", {"t_max": 15, "unit_tag": "grid-v1",
                              "checkpoints": {"mis": {"m": {"sha256_16": "h3"}}},
                              "instances": {"mis": [_row(m=unit)], "maxcut": [_row(m=unit)]}})
    assert list(rebuild.committed_units("prob", "mis", 15, "grid-v1", tmp_path)) == \
        [("er", 25, 0, "m", "h3")]
    assert not rebuild.committed_units("prob", "mis", 10, "grid-v1", tmp_path)    # T_max
    assert not rebuild.committed_units("prob", "mis", 15, "grid-v2", tmp_path)    # code
    assert not rebuild.committed_units("one", "mis", 15, "grid-v1", tmp_path)     # problem
    (tmp_path / "bad.json").write_text("{not json")
    assert not rebuild.committed_units("bad", "mvc", 15, "grid-v1", tmp_path)


@pytest.fixture
def committed_figure3(tmp_path, monkeypatch):
    """A copy of the committed Figure 3 JSON as the committed output folder."""
    folder = tmp_path / "committed"
    folder.mkdir()
    shutil.copy(DEFAULT_OUT / "figure3.json", folder / "figure3.json")
    monkeypatch.setattr("reproduce.harness.grid.DEFAULT_OUT", folder)
    return folder / "figure3.json"


def test_a_committed_number_that_does_not_recompute_stops_the_script(committed_figure3,
                                                                     tmp_path, capsys):
    from reproduce import figure3
    data = json.loads(committed_figure3.read_text())
    for row in data["instances"]:          # every greedy cover at 25 vertices one too large
        if row["n"] == 25 and "greedy" in row["results"]:
            row["results"]["greedy"]["objective"] += 1
    committed_figure3.write_text(json.dumps(data))
    out = tmp_path / "out"
    with pytest.raises(SystemExit, match="committed unit differs from its recomputation: "
                                         "greedy on .* n=25 #"):
        figure3.main(["--profile", "smoke", "--out", str(out), "--no-cache"])
    assert not (out / "figure3.json").exists()


def test_the_rebuilt_figure_holds_the_committed_objectives(committed_figure3, tmp_path):
    from reproduce import figure3
    committed = json.loads(committed_figure3.read_text())
    want = {(r["family"], r["n"], r["index"], m): v["objective"]
            for r in committed["instances"] for m, v in r["results"].items()
            if "objective" in v}
    figure3.main(["--profile", "smoke", "--out", str(tmp_path / "out"), "--no-cache"])
    got = json.loads((tmp_path / "out" / "figure3.json").read_text())
    units = got["units"]
    assert units["from_committed"] + units["recomputed_check"] + units["computed_new"] == \
        units["total"] and units["from_committed"] > 0 and not units["full"]
    seen = 0
    for r in got["instances"]:
        for m, v in r["results"].items():
            k = (r["family"], r["n"], r["index"], m)
            if "objective" in v and k in want:
                assert v["objective"] == want[k], k
                seen += 1
    assert seen >= units["from_committed"] + units["recomputed_check"]


def _double(x):
    return 2 * x


def test_an_audited_unit_is_computed_not_read_from_the_cache(tmp_path):
    """A cache entry (a sound checksum, a wrong value) answers a plain job, never a fresh one."""
    from reproduce.harness.engine import Job, run_jobs
    from tests.reproduce.test_engine import make_run
    run = make_run(tmp_path)
    key = {"unit": "x"}
    run.cache.put(key, 99)
    assert run_jobs(run, [Job(key, _double, (3,))]) == [99]
    assert run_jobs(run, [Job(key, _double, (3,), fresh=True)]) == [6]
    assert run.cache.load(key) == (True, 6)               # the fresh value is cached


def _small_figure3(max_n=50):
    data = json.loads((DEFAULT_OUT / "figure3.json").read_text())
    data["instances"] = [r for r in data["instances"] if r["n"] <= max_n]
    return data


def _audit_lines(found, seed=None):
    tail = f"recomputed (audit seed {seed})" if seed is not None else "recomputed (audit seed"
    return [x for x in found if tail in x]


def test_the_drift_check_recomputes_a_fresh_sample_of_the_cheap_units():
    """Every cheap committed objective made one larger (ratios left as they were): the
    audit's sample, whatever its seed, names only edited units and gives their seed."""
    from g2s.heuristics import HEURISTIC_METHODS
    from reproduce.harness.rederive import AUDIT_UNITS, drift
    clean = _small_figure3()
    assert not _audit_lines(drift(clean, audit_seed=5))
    edited = _small_figure3()
    for r in edited["instances"]:
        for m, v in r["results"].items():
            if m in HEURISTIC_METHODS and "objective" in v and v["time_s"] < 1:
                v["objective"] += 1
    lines = _audit_lines(drift(edited, audit_seed=7), seed=7)
    assert len(lines) == AUDIT_UNITS
    assert all(line.startswith("instances ") and "committed objective" in line
               for line in lines)
    again = _audit_lines(drift(edited))             # a fresh seed: another sample
    named = lambda found: {x.split(":")[0] for x in found}  # noqa: E731
    assert len(again) == AUDIT_UNITS and named(again) != named(lines)
