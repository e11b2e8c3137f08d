"""``python -m g2s.certificates`` as a user runs it: bad input is one line on stderr and a
non-zero exit, never a traceback, never a false "verified".

Invariants:

* an entry claiming an optimum (or a bound) that the greedy heuristic beats fails ``verify``,
  the line naming the entry;
* ``verify`` / ``summary`` on a missing folder, a plain file or an empty folder fail;
* an empty, truncated or garbage certificate file is one line naming the file;
* every option of ``build`` / ``upgrade`` / ``compare`` is validated at the parser (exit 2)
  and nothing is written.
"""

import json
import subprocess
import sys

import pytest

from g2s.reference import certificates as cert


def _run(*args, cwd=None):
    """(exit code, stdout, stderr lines) of the command; no traceback ever."""
    p = subprocess.run([sys.executable, "-m", "g2s.certificates", *args], capture_output=True,
                       text=True, timeout=120, cwd=cwd)
    assert "Traceback" not in p.stderr, p.stderr
    return p.returncode, p.stdout, p.stderr.splitlines()


@pytest.fixture
def small_mvc_er(tmp_path):
    """A folder with the 25-vertex entries of the stored MVC / ER certificates."""
    doc = json.loads(cert.certificate_path("mvc", "er").read_text())
    doc["instances"] = {k: e for k, e in doc["instances"].items() if k.startswith("25/")}
    folder = tmp_path / "certs"
    folder.mkdir()
    (folder / "mvc_er.json").write_text(json.dumps(doc))
    return folder


def test_a_false_optimum_that_greedy_beats_fails_verify(small_mvc_er):
    rc, out, _ = _run("verify", "--directory", str(small_mvc_er))
    assert rc == 0 and "mvc/er: 20 verified" in out
    path = small_mvc_er / "mvc_er.json"
    doc = json.loads(path.read_text())
    e = doc["instances"]["25/0"]
    assert e["objective"] < 25
    e.update(objective=25, bound=25, solution=list(range(25)), status="optimal")
    path.write_text(json.dumps(doc))
    rc, out, err = _run("verify", "--directory", str(small_mvc_er))
    assert rc == 1 and len(err) == 1 and not out
    assert "mvc/er/25/0" in err[0] and "refuted by the greedy heuristic" in err[0]


def test_a_false_bound_that_greedy_beats_fails_verify(small_mvc_er):
    path = small_mvc_er / "mvc_er.json"
    doc = json.loads(path.read_text())
    e = doc["instances"]["25/1"]
    e.update(objective=25, bound=24, solution=list(range(25)), status="time_limit")
    path.write_text(json.dumps(doc))
    rc, _, err = _run("verify", "--directory", str(small_mvc_er))
    assert rc == 1 and len(err) == 1 and "mvc/er/25/1: bound 24 is refuted" in err[0]


def test_a_bound_below_what_the_eigenvalue_bound_proves_fails_verify(tmp_path):
    """A max cut bound credited to the eigenvalue bound is recomputed: one lowered below it
    (yet above the cut found, so no heuristic refutes it) fails, the line naming the entry."""
    doc = json.loads(cert.certificate_path("maxcut", "er").read_text())
    key = next(k for k, e in doc["instances"].items() if e.get("bound_by") == "eigenvalue")
    doc["instances"] = {key: doc["instances"][key]}
    folder = tmp_path / "certs"
    folder.mkdir()
    path = folder / "maxcut_er.json"
    path.write_text(json.dumps(doc))
    rc, out, _ = _run("verify", "--directory", str(folder))
    assert rc == 0 and "maxcut/er: 1 verified" in out
    e = doc["instances"][key]
    assert e["bound"] - 1 > e["objective"]
    e["bound"] -= 1
    path.write_text(json.dumps(doc))
    rc, _, err = _run("verify", "--directory", str(folder))
    assert rc == 1 and len(err) == 1, err
    assert f"maxcut/er/{key}: bound {e['bound']} is credited to the eigenvalue bound" in err[0]


def test_a_string_objective_is_named_as_such(small_mvc_er):
    path = small_mvc_er / "mvc_er.json"
    doc = json.loads(path.read_text())
    doc["instances"]["25/2"]["objective"] = str(doc["instances"]["25/2"]["objective"])
    path.write_text(json.dumps(doc))
    rc, _, err = _run("verify", "--directory", str(small_mvc_er))
    assert rc == 1 and len(err) == 1 and "objective '" in err[0] and "not an integer" in err[0]


@pytest.mark.parametrize("command", ["verify", "summary"])
@pytest.mark.parametrize("kind", ["missing", "file", "empty"])
def test_a_folder_that_holds_no_certificates_fails(tmp_path, command, kind):
    target = tmp_path / "x"
    if kind == "file":
        target.write_text("")
    elif kind == "empty":
        target.mkdir()
    rc, out, err = _run(command, "--directory", str(target))
    assert rc in (1, 2) and not out and len(err) == 1 and str(target) in err[0]


@pytest.mark.parametrize("command", ["verify", "summary"])
@pytest.mark.parametrize("text", ["", '{"problem": "mvc", "fam', "garbage\n", "[1, 2]"])
def test_an_unreadable_certificate_file_is_one_line_naming_it(tmp_path, command, text):
    (tmp_path / "mvc_er.json").write_text(text)
    rc, out, err = _run(command, "--directory", str(tmp_path))
    assert rc == 1 and not out and len(err) == 1
    assert "mvc_er.json: not a certificate file" in err[0]


@pytest.mark.parametrize("args", [
    ["build", "--problem", "mvc", "--family", "bogus", "--sizes", "25"],
    ["build", "--problem", "mvc", "--family", "er", "--sizes", "0"],
    ["build", "--problem", "mvc", "--family", "er", "--sizes", "-5"],
    ["build", "--problem", "mvc", "--family", "er", "--sizes", "100000000"],
    ["build", "--problem", "mvc", "--family", "er", "--sizes", "25", "--time-limit", "nan"],
    ["build", "--problem", "mvc", "--family", "er", "--sizes", "25", "--start", "-3"],
    ["build", "--problem", "mvc", "--family", "er", "--sizes", "25", "--count", "0"],
    ["upgrade", "--budget", "-1"],
    ["upgrade", "--budget", "nan"],
    ["upgrade", "--seed", "-1"],
    ["upgrade", "--family", "bogus"],
    ["upgrade", "--bound-time-limit", "inf"],
    ["upgrade", "--budget", "1e308"],
    ["upgrade", "--bound-time-limit", "1e308"],
])
def test_bad_build_and_upgrade_options_are_refused_and_write_nothing(tmp_path, args):
    out_dir = tmp_path / "certs"
    if args[0] == "upgrade":
        out_dir.mkdir()
    rc, out, err = _run(*args, "--directory", str(out_dir))
    assert rc == 2 and len(err) == 1 and "error: argument --" in err[0]
    assert not out_dir.exists() or not any(out_dir.iterdir())


def test_compare_json_must_be_a_file(tmp_path, small_mvc_er):
    rc, _, err = _run("compare", "--before", str(small_mvc_er), "--directory",
                      str(small_mvc_er), "--json", str(tmp_path))
    assert rc == 2 and len(err) == 1 and "--json" in err[0] and "is a folder" in err[0]
