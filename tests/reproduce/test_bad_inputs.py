"""Hardening of the reproduce scripts (issue 14): bad options are one-line refusals, corrupt
cache entries are recomputed with a warning, and ``claims.py --check`` catches any edited
number, not only one that flips a verdict."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.g2s.test_bad_inputs import assert_one_line_error, snapshot

ROOT = Path(__file__).resolve().parents[2]


def script(name, *args, cwd=None):
    proc = subprocess.run([sys.executable, str(ROOT / "reproduce" / f"{name}.py"),
                           *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("name,args,needles", [
    ("figure5", ["--out", "{file}"], ["--out", "is a file, not a folder"]),   # item 12
    ("figure5", ["--workers", "0"], ["--workers"]),                          # item 8
    ("figure5", ["--seed", "-1"], ["--seed"]),
    ("theorem1", ["--workers", "-2"], ["--workers"]),
    ("figure3", ["--seed", "1"], ["unrecognized arguments: --seed"]),        # item 14
    ("figure5", ["--profile", "huge"], ["--profile"]),
    # no abbreviations: --seed was taken for --seeds, --out-dir style prefixes for options
    ("figure2b", ["--profile", "smoke", "--out", "{dir}", "--seed", "1"],
     ["unrecognized arguments: --seed"]),
    ("figure5", ["--profile", "smoke", "--out", "{dir}", "--prof", "smoke"],
     ["unrecognized arguments: --prof"]),
    # --seed changed nothing in these (only the provenance): removed
    ("figure5", ["--profile", "smoke", "--out", "{dir}", "--seed", "1"],
     ["unrecognized arguments: --seed"]),
    ("appendix_d3", ["--profile", "smoke", "--out", "{dir}", "--seed", "1"],
     ["unrecognized arguments: --seed"]),
    # a training seed without checkpoints gave a figure with no model results, exit 0
    ("figure2b", ["--profile", "smoke", "--out", "{dir}", "--seeds", "0", "7"],
     ["argument --seeds", "no checkpoint of training seed 7"]),
])
def test_bad_options_are_one_line(tmp_path, name, args, needles):
    f = tmp_path / "a_file"
    f.write_text("keep me\n")
    before = snapshot(tmp_path)
    rc, out, err = script(name, *[a.format(file=f, dir=tmp_path / "out") for a in args],
                          cwd=tmp_path)
    assert_one_line_error(rc, err, 2, *needles)
    assert snapshot(tmp_path) == before


def _without_provenance(path: Path) -> dict:
    d = json.loads(path.read_text())
    d.pop("provenance")
    return d


@pytest.mark.parametrize("content", [os.urandom(64), b"[]", b"null", b'{"value": 3}',
                                     b'{"key": {}, "value": 1, "sha256": "0"}'])
def test_corrupt_cache_entries_are_recomputed_with_a_warning(tmp_path, content):
    rc, _, err = script("figure5", "--profile", "smoke", "--out", tmp_path)
    assert rc == 0, err
    clean = _without_provenance(tmp_path / "figure5.json")
    entries = list((tmp_path / ".cache" / "figure5").glob("*.json"))
    assert entries
    for e in entries:
        e.write_bytes(content)
    rc, _, err = script("figure5", "--profile", "smoke", "--out", tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    assert err.count("corrupt cache entry") == len(entries)
    assert _without_provenance(tmp_path / "figure5.json") == clean


def _grid_run(tmp_path):
    from reproduce.common import Run
    args = argparse.Namespace(out=tmp_path, cache_dir=None, no_cache=False, workers=1,
                              profile="smoke", seed=0)
    return Run("gridtest", args)


def test_plausible_but_wrong_cached_objective_is_recomputed(tmp_path, capsys):
    """An entry with objective 999 and a *valid* checksum is still refused: its solution is
    re-checked and its objective recomputed before it counts."""
    from reproduce.common import UnitCache
    from reproduce.grid import evaluate_grid
    first = evaluate_grid(_grid_run(tmp_path), "mvc", ["er"], [25], 1, {"greedy": None})
    (entry,) = (tmp_path / ".cache" / "gridtest").glob("*.json")
    doc = json.loads(entry.read_text())
    right = doc["value"]["objective"]
    for value in ({**doc["value"], "objective": 999},
                  {**doc["value"], "solution": doc["value"]["solution"][:1]},
                  {**doc["value"], "solution": [10**6]}):
        doc.update(value=value, sha256=UnitCache._checksum(doc["key"], value))
        entry.write_text(json.dumps(doc))
        again = evaluate_grid(_grid_run(tmp_path), "mvc", ["er"], [25], 1, {"greedy": None})
        assert "corrupt cache entry" in capsys.readouterr().err
        assert again["instances"][0]["results"]["greedy"]["objective"] == right
        for run_ in (again, first):
            run_["instances"][0]["results"]["greedy"].pop("time_s", None)
        assert again == first
        doc = json.loads(entry.read_text())


@pytest.fixture
def figures_copy(tmp_path, monkeypatch):
    import reproduce.claims as claims
    dest = tmp_path / "paper_figures"
    shutil.copytree(ROOT / "paper_figures", dest, ignore=shutil.ignore_patterns("*.png",
                                                                               "*.pdf"))
    monkeypatch.setattr(claims, "FIGURES", dest)
    return claims, dest


def _edit(path: Path, change) -> None:
    d = json.loads(path.read_text())
    change(d)
    path.write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")


@pytest.mark.parametrize("change", [
    lambda d: d["instances"][3]["results"]["greedy"].update(
        objective=d["instances"][3]["results"]["greedy"]["objective"] + 1),
    lambda d: d["points"]["regular"]["list"]["50"].update(
        mean=d["points"]["regular"]["list"]["50"]["mean"] + 0.001),
    lambda d: d["instances"][0]["reference"].update(
        objective=d["instances"][0]["reference"]["objective"] + 1),
], ids=["raw-objective", "non-worst-mean", "reference"])
def test_claims_check_catches_edits_that_flip_no_verdict(figures_copy, change):
    claims, dest = figures_copy
    check = "json:figure3#fig3-g2s-within-10pct"
    assert claims.derive_json(check, {})["verdict"] != "drift"
    _edit(dest / "figure3.json", change)
    got = claims.derive_json(check, {})
    assert got["verdict"] == "drift" and "figure3.json" in got["why"]


def test_figures_get_the_same_permissions_as_their_json(tmp_path):
    """Before: NAME.png and NAME.pdf were written 0600 (mkstemp's mode), the JSON 0644."""
    proc = subprocess.run([sys.executable, str(ROOT / "reproduce" / "figure5.py"), "--profile",
                           "smoke", "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=300, preexec_fn=lambda: os.umask(0o022))
    assert proc.returncode == 0, proc.stderr
    modes = {p.suffix: p.stat().st_mode & 0o777 for p in tmp_path.glob("figure5.*")}
    assert modes == {".json": 0o644, ".png": 0o644, ".pdf": 0o644}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".figure5")]
