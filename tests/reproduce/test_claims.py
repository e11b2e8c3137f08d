"""The ledger machinery catches drift.

* the committed ledger parses, ids are unique, verdicts are known, checks are well-formed;
* a JSON check whose committed numbers no longer support the stored verdict is drift;
* a failing pytest check is drift; a passing one keeps the recorded verdict;
* evidence placeholders are filled from the derived values; CLAIMS.md is rendered from it.
"""

import json
import sys
import textwrap

import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from reproduce import claims as C  # noqa: E402


def test_committed_ledger_is_valid():
    claims = C.load_ledger()
    assert len(claims) >= 25
    for c in claims:
        if c["check"].startswith("pytest:"):
            for node in c["check"][len("pytest:"):].split():
                path = C.ROOT / node.split("::")[0]
                assert path.exists(), f"{c['id']}: {path} missing"


def test_every_claim_has_where_and_statement():
    for c in C.load_ledger():
        assert c["where"].strip() and c["statement"].strip() and c["evidence"].strip()


def _ledger(tmp_path, body):
    p = tmp_path / "claims.toml"
    p.write_text(textwrap.dedent(body))
    return p


def test_schema_errors(tmp_path):
    with pytest.raises(C.LedgerError, match="missing"):
        C.load_ledger(_ledger(tmp_path, '[[claim]]\nid = "x"\n'))
    base = ('[[claim]]\nid="a"\nwhere="w"\nstatement="s"\npaper_value=""\ntolerance=""\n'
            'evidence="e"\n')
    with pytest.raises(C.LedgerError, match="needs a check"):
        C.load_ledger(_ledger(tmp_path, base + 'check=""\nverdict="confirmed"\n'))
    with pytest.raises(C.LedgerError, match="unknown verdict"):
        C.load_ledger(_ledger(tmp_path, base + 'check=""\nverdict="true"\n'))
    with pytest.raises(C.LedgerError, match="duplicate"):
        C.load_ledger(_ledger(tmp_path, (base + 'check=""\nverdict="pending"\n') * 2))


def test_json_check_rederives_and_detects_edits(tmp_path, monkeypatch):
    figs = tmp_path / "figs"
    figs.mkdir()
    scripts = tmp_path / "reproduce"
    scripts.mkdir()
    (scripts / "fake.py").write_text(
        "def derive_verdicts(r):\n"
        "    ok = max(r['ratios']) <= 1.1\n"
        "    return {'k': {'verdict': 'confirmed' if ok else 'refuted',"
        " 'worst': max(r['ratios'])}}\n")
    payload = {"ratios": [1.0, 1.05], "verdicts": {"k": {"verdict": "confirmed", "worst": 1.05}}}
    (figs / "fake.json").write_text(json.dumps(payload))
    monkeypatch.setattr(C, "FIGURES", figs)
    monkeypatch.setattr(C, "ROOT", tmp_path)
    got = C.derive_json("json:fake#k", {})
    assert got == {"verdict": "confirmed", "worst": 1.05}
    claim = {"evidence": "worst ratio {worst}"}
    assert C.evidence_text(claim, got) == "worst ratio 1.05"
    payload["ratios"][1] = 1.3  # someone edits a number but not the verdict
    (figs / "fake.json").write_text(json.dumps(payload))
    assert C.derive_json("json:fake#k", {})["verdict"] == "drift"
    assert C.derive_json("json:missing#k", {})["verdict"] == "drift"


def test_pytest_check_outcomes(tmp_path, monkeypatch):
    (tmp_path / "test_x.py").write_text(
        "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n")
    monkeypatch.setattr(C, "ROOT", tmp_path)
    out = C.run_pytest(["test_x.py::test_ok", "test_x.py::test_bad", "test_x.py::test_nope"])
    assert out == {"test_x.py::test_ok": "passed", "test_x.py::test_bad": "failed",
                   "test_x.py::test_nope": "missing"}
