"""The rebuild's audit as a user meets it: ``python reproduce/figure3.py`` on a copy of the
committed output folder (the repository's own ``paper_figures/`` is never touched).

Invariants:

* an edited cheap unit (a heuristic) is caught wherever it is, even outside every unit the
  run computes for models: the script exits 1 with one line naming the unit and writes
  nothing;
* every run draws a fresh audit sample, records its seed, and recomputes it (the local unit
  cache never vouches for a committed number).
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reproduce.harness.contract import DEFAULT_OUT

pytestmark = pytest.mark.torch
ROOT = Path(__file__).resolve().parents[2]


def _figure3(committed: Path, *args) -> subprocess.CompletedProcess:
    """``reproduce/figure3.py ARGS`` with ``committed`` as the committed output folder."""
    script = str(ROOT / "reproduce" / "figure3.py")
    code = ("import runpy, sys; from pathlib import Path; "
            f"sys.path.insert(0, {str(ROOT / 'reproduce')!r}); "
            "import reproduce.harness.grid as g; "
            f"g.DEFAULT_OUT = Path({str(committed)!r}); "
            f"sys.argv = [{script!r}, *{list(map(str, args))!r}]; "
            f"runpy.run_path({script!r}, run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


@pytest.fixture
def committed(tmp_path):
    folder = tmp_path / "committed"
    folder.mkdir()
    shutil.copy(DEFAULT_OUT / "figure3.json", folder / "figure3.json")
    return folder


@pytest.mark.slow
def test_an_edited_heuristic_unit_is_caught_outside_the_models_computed(committed, tmp_path):
    """The edit that passed before: greedy's cover on bipartite n = 400 #0 made larger, the
    run computing only one seed's model units at 25 vertices."""
    path = committed / "figure3.json"
    data = json.loads(path.read_text())
    row = next(r for r in data["instances"]
               if (r["family"], r["n"], r["index"]) == ("bipartite", 400, 0))
    row["results"]["greedy"]["objective"] += 60
    path.write_text(json.dumps(data))
    out = tmp_path / "out"
    p = _figure3(committed, "--models", "g2s_rnn_s0", "--max-n", "25", "--families",
                 "bipartite", "--out", out, "--workers", "1")
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert "committed unit differs from its recomputation: greedy on bipartite n=400 #0" in last
    assert "nothing written" in last
    assert not out.exists() or not list(out.glob("figure3.*"))


@pytest.mark.slow
def test_each_run_draws_records_and_recomputes_a_fresh_sample(committed, tmp_path):
    out = tmp_path / "out"
    seeds, computing = [], []
    for _ in range(2):          # the second run has every unit in its local cache
        p = _figure3(committed, "--profile", "smoke", "--out", out, "--workers", "1")
        assert p.returncode == 0, p.stderr
        units = json.loads((out / "figure3.json").read_text())["units"]
        seeds.append(units["audit_seed"])
        line = next(ln for ln in p.stderr.splitlines() if "taken from the committed" in ln)
        assert f"audit seed {units['audit_seed']}" in line
        computing.append(int(line.split("computing ")[1].split()[0].replace(",", "")))
        assert computing[-1] >= units["recomputed_check"] > 0
    assert seeds[0] != seeds[1] and all(isinstance(s, int) for s in seeds)
