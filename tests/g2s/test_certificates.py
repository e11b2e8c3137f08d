"""Tests of :mod:`g2s.reference.certificates`, the stored reference results of the evaluation
graphs.

Invariants:

* every stored certificate verifies: the generator still produces the fingerprinted graph, the
  solution is feasible with the stored objective, and the bound is valid and consistent with the
  status (checked without re-solving);
* the stored set covers :data:`g2s.reference.certificates.CERTIFIED_INSTANCES`;
* a stored bound is never beaten by a classical heuristic;
* a tampered certificate is rejected; a missing one is solved, stored and reloaded unchanged;
  MIS is derived exactly from MVC (Gallai).
"""

import json
import shutil

import pytest

from g2s.certificates import main as certificates_command
from g2s.graphs import graph_fingerprint
from g2s.problems import SENSE, check_solution
from g2s.reference import certificates as cert

STORED = sorted(cert.CERTIFICATE_DIR.glob("*.json"))


def test_certificates_are_stored():
    assert STORED, "no certificates stored"


@pytest.mark.parametrize("path", STORED, ids=[p.stem for p in STORED])
def test_every_stored_certificate_verifies(path, tmp_path):
    """``verify`` on each stored file alone (one test per file, so the files are checked on
    every core): every entry checks out, and each file has entries."""
    import shutil
    shutil.copy(path, tmp_path / path.name)
    summary = cert.verify_all(tmp_path)
    assert len(summary) == 1
    assert all(k > 0 for k, _ in summary.values())


@pytest.mark.parametrize(("problem", "family"), sorted(cert.CERTIFIED_INSTANCES))
def test_certified_instances_are_all_stored(problem, family):
    stored = cert.load_certificates(problem, family)
    missing = [k for k in cert.certified_keys(problem, family) if k not in stored]
    assert not missing, f"{problem}/{family}: missing {missing}"


@pytest.mark.parametrize("path", STORED, ids=[p.stem for p in STORED])
def test_stored_bounds_are_not_beaten_by_heuristics(path):
    """A proven bound must dominate every feasible solution, e.g. every heuristic's."""
    from g2s.heuristics import best_heuristic

    doc = json.loads(path.read_text())
    problem, family = doc["problem"], doc["family"]
    for key, entry in doc["instances"].items():
        n, index = map(int, key.split("/"))
        if n > 200:
            continue
        G = cert.instance_graph(family, n, index)
        value = check_solution(problem, G, best_heuristic(problem, G))
        assert (value >= entry["bound"]) if SENSE[problem] == "min" else (value <= entry["bound"])


@pytest.fixture
def scratch(tmp_path):
    """A copy of one stored certificate file in a temporary folder, cut to its graphs of up to
    50 vertices (the edits below are to ``25/0``; every stored entry is verified by
    :func:`test_every_stored_certificate_verifies`)."""
    src = cert.certificate_path("mvc", "er")
    if src.exists():
        doc = json.loads(src.read_text())
        doc["instances"] = {k: e for k, e in doc["instances"].items()
                            if int(k.split("/")[0]) <= 50}
        (tmp_path / src.name).write_text(json.dumps(doc))
    return tmp_path


def _tamper(directory, change):
    path = cert.certificate_path("mvc", "er", directory)
    doc = json.loads(path.read_text())
    change(doc["instances"]["25/0"])
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize(("change", "match"), [
    (lambda e: e.update(fingerprint="0" * 16), "fingerprint"),
    (lambda e: e.update(solution=e["solution"][1:]), "not feasible"),
    (lambda e: e.update(objective=e["objective"] - 1), "objective"),
    (lambda e: e.update(bound=e["objective"] + 1), "wrong side"),
    (lambda e: e.update(bound=e["objective"] - 1), "status"),
    (lambda e: e.update(bound=0, status="time_limit"), None),
])
def test_tampered_certificates_are_rejected(scratch, change, match):
    if not cert.certificate_path("mvc", "er", scratch).exists():
        pytest.skip("no stored mvc/er certificates")
    cert.verify_all(scratch)
    _tamper(scratch, change)
    if match is None:  # a weaker (but valid) bound is still a correct certificate
        assert cert.verify_all(scratch)
        return
    with pytest.raises(cert.CertificateError, match=match):
        cert.verify_all(scratch)


def test_bipartite_certificate_contradicting_konig_is_rejected(tmp_path):
    res = cert.reference("mvc", "bipartite", 25, 0, directory=tmp_path)
    path = cert.certificate_path("mvc", "bipartite", tmp_path)
    doc = json.loads(path.read_text())
    entry = doc["instances"]["25/0"]
    G = cert.instance_graph("bipartite", 25, 0)
    entry.update(solution=list(G), objective=25, bound=25, status="optimal")
    path.write_text(json.dumps(doc))
    assert res.objective < 25
    with pytest.raises(cert.CertificateError, match="contradicts"):
        cert.verify_all(tmp_path)


def test_missing_certificate_is_solved_stored_and_reloaded(tmp_path):
    first = cert.reference("maxcut", "er", 25, 3, time_limit=10, directory=tmp_path)
    entry = cert.load_certificates("maxcut", "er", tmp_path)["25/3"]
    assert entry["fingerprint"] == graph_fingerprint(cert.instance_graph("er", 25, 3))
    assert entry["time_limit"] == 10
    again = cert.reference("maxcut", "er", 25, 3, solve_missing=False, directory=tmp_path)
    assert again == first
    with pytest.raises(KeyError):
        cert.reference("maxcut", "er", 25, 4, solve_missing=False, directory=tmp_path)
    assert not list(tmp_path.glob("*.tmp"))


def test_mis_is_derived_from_mvc_by_complement(tmp_path):
    mvc = cert.reference("mvc", "regular", 50, 2, time_limit=10, directory=tmp_path)
    mis = cert.reference("mis", "regular", 50, 2, solve_missing=False, directory=tmp_path)
    assert mis.objective == 50 - mvc.objective and mis.bound == 50 - mvc.bound
    assert "complement of mvc" in mis.method
    assert set(mis.solution).isdisjoint(mvc.solution)
    assert cert.verify_all(tmp_path) == {"mis/regular": (1, int(mis.status == "optimal")),
                                         "mvc/regular": (1, int(mvc.status == "optimal"))}


def test_cli_build_verify_summary(tmp_path, capsys):
    args = ["--problem", "mvc", "--family", "greedy_worst", "--sizes", "25", "50",
            "--directory", str(tmp_path)]
    assert certificates_command(["build", *args]) == 0
    assert certificates_command(["verify", "--directory", str(tmp_path)]) == 0
    assert "mvc/greedy_worst: 2 verified, 2 optimal" in capsys.readouterr().out
    _ = certificates_command(["summary", "--directory", str(tmp_path)])
    assert "2/  2 optimal" in capsys.readouterr().out
    path = cert.certificate_path("mvc", "greedy_worst", tmp_path)
    doc = json.loads(path.read_text())
    doc["instances"]["50/0"]["objective"] += 1
    path.write_text(json.dumps(doc))
    assert certificates_command(["verify", "--directory", str(tmp_path)]) == 1


def test_cli_compare_counts_what_an_upgrade_changed(tmp_path, capsys):
    """compare: per size, the references that improved and how far the old one was."""
    before, after = tmp_path / "before", tmp_path / "after"
    for d in (before, after):
        d.mkdir()
        shutil.copy(cert.certificate_path("mvc", "er"), d)
    path = cert.certificate_path("mvc", "er", before)
    doc = json.loads(path.read_text())
    key = next(k for k, e in doc["instances"].items() if k.startswith("50/"))
    objective = doc["instances"][key]["objective"]
    doc["instances"][key]["objective"] = objective + 2      # the older cover was 2 larger
    path.write_text(json.dumps(doc))
    out = tmp_path / "compare.json"
    assert certificates_command(["compare", "--before", str(before), "--directory", str(after),
                                 "--json", str(out)]) == 0
    rows = {(r["family"], r["n"]): r for r in json.loads(out.read_text())["rows"]}
    row = rows[("er", 50)]
    assert row["improved"] == 1 and row["worse"] == 0
    assert row["old_vs_new_worst"] == pytest.approx((objective + 2) / objective)
    assert all(r["improved"] == 0 for k, r in rows.items() if k != ("er", 50))
    assert "improved" in capsys.readouterr().out
    assert certificates_command(["compare", "--before", str(tmp_path / "none"),
                                 "--directory", str(after)]) == 1
    assert "is not a folder" in capsys.readouterr().err
