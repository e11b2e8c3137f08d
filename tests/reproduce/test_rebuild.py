"""A grid figure rebuilt from its committed per-unit results (reproduce/harness/rebuild.py).

* the plan: a unit is reused only when its method, graph and checkpoint hash match; a seeded
  share is recomputed, at least one per method and size, the same share for the same seed;
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


def _committed(units, sha="abc"):
    return {(*u, None if u[3] == "greedy" else sha):
            {"objective": 1, "best_T": None, "time_s": 0.5, "source": "x.json"}
            for u in units}


def test_plan_reuses_matching_units_and_checks_a_share_of_each_method_and_size():
    units = _units()
    sha_of = lambda u: None if u[3] == "greedy" else "abc"  # noqa: E731
    reused, check, new = rebuild.plan(units, sha_of, _committed(units))
    assert not new and len(reused) + len(check) == len(units)
    assert not set(reused) & set(check)
    for m in ("greedy", "g2s_rnn_s0"):
        for n in (25, 50):
            assert sum(1 for u in check if u[3] == m and u[1] == n) == 2   # 10% of 20
    again = rebuild.plan(units, sha_of, _committed(units))
    assert again[1] == check                                            # seeded
    other = rebuild.plan(units, sha_of, _committed(units), seed=1)
    assert other[1] != check


def test_a_changed_checkpoint_or_a_missing_unit_is_computed_and_small_groups_are_checked():
    units = _units(count=3)
    committed = _committed(units[:-1], sha="abc")
    reused, check, new = rebuild.plan(units, lambda u: None if u[3] == "greedy" else "new",
                                      committed)
    assert all(u[3] == "g2s_rnn_s0" for u in new) and len(new) == 6     # hash changed
    assert len(check) == 2 and all(u[3] == "greedy" for u in check)     # one per size


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
    with pytest.raises(SystemExit, match="recomputed units differ from the committed"):
        figure3.main(["--profile", "smoke", "--out", str(out), "--no-cache"])
    assert "mismatch: greedy on" in capsys.readouterr().err
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
