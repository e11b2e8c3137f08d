"""The ledger machinery catches drift.

* the committed ledger parses, ids are unique, verdicts are known, checks are well-formed;
* a JSON check whose committed numbers no longer support the stored verdict is drift;
* a failing pytest check is drift; a passing one keeps the recorded verdict;
* evidence placeholders are filled from the derived values; CLAIMS.md is rendered from it.
"""

import json
import textwrap

import pytest

from reproduce import claims as C


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


def _module(path):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"_fake_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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
    monkeypatch.setattr(C, "_load_script", lambda name: _module(scripts / f"{name}.py"))
    got = C.derive_json("json:fake#k", {})
    assert got == {"verdict": "confirmed", "worst": 1.05}
    claim = {"evidence": "worst ratio {worst}", "check": "json:fake#k"}
    assert C.evidence_text(claim, got) == "worst ratio 1.05"
    payload["ratios"][1] = 1.3  # someone edits a number but not the verdict
    (figs / "fake.json").write_text(json.dumps(payload))
    assert C.derive_json("json:fake#k", {})["verdict"] == "drift"
    assert C.derive_json("json:missing#k", {})["verdict"] == "drift"
    # numbers from a tree with uncommitted changes cannot be traced: drift, even when they
    # re-derive (the run's provenance, or a verdict refresh's)
    payload["ratios"][1] = 1.05
    for provenance in ({"git_commit": "abc+dirty"},
                       {"git_commit": "abc", "verdicts_refreshed": {"git_commit": "def+dirty"}}):
        (figs / "fake.json").write_text(json.dumps({**payload, "provenance": provenance}))
        got = C.derive_json("json:fake#k", {})
        assert got["verdict"] == "drift" and "uncommitted" in got["why"]
    (figs / "fake.json").write_text(json.dumps({**payload, "provenance": {"git_commit": "abc"}}))
    assert C.derive_json("json:fake#k", {})["verdict"] == "confirmed"


def test_pytest_check_outcomes(tmp_path, monkeypatch):
    (tmp_path / "test_x.py").write_text(
        "def test_ok():\n    assert True\n\ndef test_bad():\n    assert False\n")
    monkeypatch.setattr(C, "ROOT", tmp_path)
    out = C.run_pytest(["test_x.py::test_ok", "test_x.py::test_bad", "test_x.py::test_nope"])
    assert out == {"test_x.py::test_ok": "passed", "test_x.py::test_bad": "failed",
                   "test_x.py::test_nope": "missing"}


# ---------------------------------------------------------------- evidence defects

def _fake_figure(tmp_path, monkeypatch, derived):
    """What derive_json returns for a figure whose derive_verdicts gives ``derived``."""
    monkeypatch.setattr(C, "derive_all", lambda claims, skip_pytest=False: {
        c["id"]: ({"verdict": c["verdict"]} if not c["check"].startswith("json:") else derived)
        for c in claims})
    return derived


def _claim(evidence, check="json:fake#k", verdict="confirmed"):
    claim = {"id": "x", "where": "w", "statement": "s", "paper_value": "", "check": check,
             "tolerance": "", "verdict": verdict, "evidence": evidence}
    if check.startswith("json:"):
        claim["rule_test"] = "tests/reproduce/test_fake.py::test_rule"
    return claim


@pytest.mark.parametrize("evidence, problem", [
    ("worst {worst} ({profile} profile)", "KeyError: 'profile'"),             # missing field
    ("at S = {} the ratio is {worst}", "IndexError: Replacement index 0"),    # literal braces
    ("in {(1,3), (2,3)} and {worst}", "KeyError"),                           # a set literal
    ("ratio {worst} ({seeds} seeds)", "count grammar: '1 seeds'"),
    ("ratio {worst} over {graphs} graph", "count grammar: '3 graph'"),
])
def test_evidence_defects_are_reported(tmp_path, monkeypatch, evidence, problem):
    got = _fake_figure(tmp_path, monkeypatch,
                       {"verdict": "confirmed", "worst": 1.05, "seeds": 1, "graphs": 3})
    problems = C.evidence_problems(_claim(evidence), got)
    assert problems and problem in problems[0]


def test_count_nouns_agree_with_their_numbers(tmp_path, monkeypatch):
    got = _fake_figure(tmp_path, monkeypatch, {"verdict": "confirmed", "one": 1, "three": 3})
    claim = _claim("{one:seed} and {three:seed}; {three:vertex|vertices}; S = {{}}; {three:>2}")
    assert C.evidence_text(claim, got) == "1 seed and 3 seeds; 3 vertices; S = {};  3"
    assert C.evidence_problems(claim, got) == []


def test_non_json_evidence_is_shown_as_written():
    claim = _claim("returns S = {} and sums over {(1,3), (2,3)}; m + 1 rounds", check="pytest:t.py")
    assert C.evidence_text(claim, {"verdict": "confirmed"}) == claim["evidence"]
    assert C.evidence_problems(claim, {"verdict": "confirmed"}) == []
    assert C.evidence_problems(_claim("over 1 seeds", check="pytest:t.py"), {}) == \
        ["count grammar: '1 seeds'"]


def _write_ledger(tmp_path, claims, monkeypatch=None):
    rows = []
    for c in claims:
        rows.append("[[claim]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in c.items()))
    path = tmp_path / "claims.toml"
    path.write_text("\n".join(rows))
    if monkeypatch is not None:   # main() reads the ledger through load_ledger's default path
        load = C.load_ledger
        monkeypatch.setattr(C, "load_ledger", lambda p=path: load(p))
    return path


def test_check_fails_on_evidence_defects(tmp_path, monkeypatch, capsys):
    _fake_figure(tmp_path, monkeypatch, {"verdict": "confirmed", "worst": 1.05, "seeds": 1})
    md = tmp_path / "CLAIMS.md"
    monkeypatch.setattr(C, "CLAIMS_MD", md)
    for evidence in ("worst {worst} ({profile} profile)", "S = {} at {worst}",
                     "worst {worst} over {seeds} seeds"):
        _write_ledger(tmp_path, [_claim(evidence)], monkeypatch)
        assert C.main([]) == 1                       # writes CLAIMS.md, reports the defect
        assert C.main(["--check"]) == 1              # CLAIMS.md is up to date, still fails
        assert "claims: evidence: x:" in capsys.readouterr().err
    _write_ledger(tmp_path, [_claim("{seeds:seed}, {worst}")], monkeypatch)
    assert C.main([]) == 0 and C.main(["--check"]) == 0


def test_recorded_and_inconclusive_verdicts(tmp_path):
    claims = [_claim("reading of the paper", check="", verdict="recorded"),
              _claim("interval straddles the bound at {worst}", verdict="inconclusive")]
    claims[1]["id"] = "y"
    loaded = C.load_ledger(_write_ledger(tmp_path, claims))
    derived = {c["id"]: {"verdict": "recorded"} if c["verdict"] == "recorded"
               else {"verdict": "inconclusive", "worst": 1.05} for c in loaded}
    assert C.derive_all(loaded[:1], skip_pytest=True) == {"x": {"verdict": "recorded"}}
    text = C.render(loaded, derived)
    assert "| inconclusive | 1 |" in text and "| total tested | 1 |" in text
    assert "| recorded (not tested; listed apart below) | 1 |" in text
    tested, recorded = text.split("## Recorded")
    assert "| y |" in tested and "| x |" not in tested and "| x |" in recorded


def test_json_claims_name_the_tests_of_their_rule(tmp_path):
    claim = _claim("ratio {worst}")
    del claim["rule_test"]
    with pytest.raises(C.LedgerError, match="rule_test"):
        C.load_ledger(_write_ledger(tmp_path, [claim]))
    assert all(c["rule_test"].split() for c in C.load_ledger() if c["check"].startswith("json:"))


def test_a_refuted_claim_with_a_variant_that_holds_is_not_reproduced(tmp_path):
    derived = {"main": {"verdict": "refuted", "worst": 1.2},
               "early": {"verdict": "qualified"}, "late": {"verdict": "refuted"}}
    C.apply_variants({"id": "main", "variants": ["early", "late"]}, derived)
    assert derived["main"]["verdict"] == "not-reproduced"
    assert derived["main"]["variants"] == "early: qualified, late: refuted"
    assert derived["main"]["worst"] == 1.2
    every = {"main": {"verdict": "refuted"}, "late": {"verdict": "refuted"}}
    C.apply_variants({"id": "main", "variants": ["late"]}, every)
    assert every["main"]["verdict"] == "refuted"          # fails for every variant: refuted
    kept = {"main": {"verdict": "inconclusive"}, "early": {"verdict": "confirmed"}}
    C.apply_variants({"id": "main", "variants": ["early"]}, kept)
    assert kept["main"]["verdict"] == "inconclusive"      # only a refutation is softened
    base = ('[[claim]]\nid="a"\nwhere="w"\nstatement="s"\npaper_value=""\ntolerance=""\n'
            'evidence="e"\ncheck=""\nverdict="pending"\nvariants=["zz"]\n')
    with pytest.raises(C.LedgerError, match="variant"):
        C.load_ledger(_ledger(tmp_path, base))


def test_a_shared_unit_cache_compares_each_result_with_its_own_checkpoint(tmp_path):
    """Two runs (shipped and early-stopped weights) share one unit cache: a result is compared
    only with the unit of the checkpoint hash its JSON records (a false drift before)."""
    from g2s.heuristics import greedy
    from g2s.reference.certificates import instance_graph
    from reproduce.harness.rederive import _check_cache
    G = instance_graph("er", 25, 0)
    cover = sorted(greedy("mvc", G))
    worse = sorted(set(cover) | (set(G) - set(cover)))[:len(cover) + 2]
    worse = sorted(set(worse) | set(cover))
    for name, sol, ck in (("a", cover, "aaaa"), ("b", worse, "bbbb")):
        key = {"problem": "mvc", "family": "er", "n": 25, "index": 0, "method": "m_s0",
               "t_max": 15, "checkpoint": ck}
        (tmp_path / f"{name}.json").write_text(json.dumps(
            {"key": key, "value": {"objective": len(sol), "solution": sol}}))
    rows = [{"family": "er", "n": 25, "index": 0,
             "results": {"m_s0": {"objective": len(cover)}}}]
    out = []
    _check_cache("mvc", rows, {"t_max": 15, "checkpoint_sha256_16": {"m_s0": "aaaa"}},
                 tmp_path, out)
    assert out == []
    _check_cache("mvc", rows, {"t_max": 15, "checkpoint_sha256_16": {"m_s0": "bbbb"}},
                 tmp_path, out)
    assert out and "in the cached solution" in out[0]
    out = []   # per problem, as Figure 4 records it
    _check_cache("mvc", rows, {"t_max": 15, "checkpoints": {"mvc": {"m_s0": {
        "sha256_16": "bbbb"}}}}, tmp_path, out)
    assert len(out) == 1
