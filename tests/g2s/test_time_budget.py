"""``--time-limit`` for the model methods, as a user meets it.

Invariants:
* a budget too small for Algorithm 2 (or a baseline's rollout) still returns a feasible
  answer, marked ``"status": "time_limit"``, well within the time an unbudgeted run takes;
* without ``--time-limit`` the same command reports ``"status": "complete"``.
"""

import json
import subprocess
import sys

import pytest

from g2s.graphs import make_graph

pytestmark = pytest.mark.torch


def _solve(path, *extra):
    out = subprocess.run([sys.executable, "-m", "g2s.cli", "solve", "--problem", "mvc",
                          str(path), *extra], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory):
    G = make_graph("er", 300, seed=3)
    path = tmp_path_factory.mktemp("budget") / "er300.txt"
    path.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    return path


@pytest.mark.parametrize("method", ["g2s", "s2v"])
def test_a_small_budget_cuts_the_model_short_and_stays_feasible(graph_file, method):
    cut = _solve(graph_file, "--method", method, "--time-limit", "0.2")
    assert cut["status"] == "time_limit" and cut["feasible"]
    assert cut["objective"] == len(cut["solution"]) <= 300


def test_without_a_budget_the_run_completes(graph_file):
    full = _solve(graph_file, "--method", "s2v")
    assert full["status"] == "complete" and full["feasible"]
