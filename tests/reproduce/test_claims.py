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

#: the repository's first commit, a commit every checkout has
ROOT_COMMIT = C.subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=C.ROOT,
                               capture_output=True, text=True).stdout.split()[-1][:10]


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
    base = ('[[claim]]\nid="a"\nwhere="w"\ngroup="theory"\nshort="s"\nstatement="s"\n'
            'paper_value=""\nours=""\ntolerance=""\nevidence="e"\n')
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


def test_a_test_in_an_xdist_group_is_found(tmp_path, monkeypatch):
    """Under ``--dist loadgroup`` pytest-xdist reports a grouped test as ``NAME@GROUP``
    (``NAME[PARAMS]@GROUP`` when parametrized): the ledger's node id still finds it (it read
    ``missing``, a drift, wherever the claims ran their tests on two workers)."""
    (tmp_path / "test_g.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.xdist_group('shared')\ndef test_one():\n    assert True\n\n"
        "@pytest.mark.xdist_group('shared')\n@pytest.mark.parametrize('x', [1, 0])\n"
        "def test_two(x):\n    assert x\n")
    monkeypatch.setattr(C, "ROOT", tmp_path)
    monkeypatch.setattr(C, "_parallel", lambda: ["-n", "2", "--dist", "loadgroup"])
    out = C.run_pytest(["test_g.py::test_one", "test_g.py::test_two", "test_g.py::test_two[1]"])
    assert out == {"test_g.py::test_one": "passed", "test_g.py::test_two": "failed",
                   "test_g.py::test_two[1]": "passed"}


# ---------------------------------------------------------------- evidence defects

def _fake_figure(tmp_path, monkeypatch, derived):
    """What derive_json returns for a figure whose derive_verdicts gives ``derived``."""
    monkeypatch.setattr(C, "derive_all", lambda claims, skip_pytest=False, workers=1: {
        c["id"]: ({"verdict": c["verdict"]} if not c["check"].startswith("json:") else derived)
        for c in claims})
    return derived


def _claim(evidence, check="json:fake#k", verdict="confirmed"):
    claim = {"id": "x", "where": "w", "group": "experiments", "short": "s", "statement": "s",
             "paper_value": "", "ours": "", "check": check, "tolerance": "", "verdict": verdict,
             "evidence": evidence}
    if check.startswith("json:"):
        claim["rule_test"] = "tests/reproduce/test_fake.py::test_rule"
        claim["rule_history"] = [{"commit": ROOT_COMMIT, "data_seen": False,
                                  "change": "rule first stated"}]
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


def _toml(v):
    """A value as TOML writes it (inline tables for the entries of a list)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return json.dumps(v)


def _write_ledger(tmp_path, claims, monkeypatch=None):
    rows = []
    for c in claims:
        rows.append("[[claim]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in c.items()))
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
    monkeypatch.setattr(C, "RESULTS_MD", tmp_path / "RESULTS.md")
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{C.FINDINGS_START}\nold\n{C.FINDINGS_END}\nrest\n")
    monkeypatch.setattr(C, "README", readme)
    monkeypatch.setattr(C, "README_FINDINGS", ("x",))
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
    claims[1].update(id="y", group="theory", ours="worst {worst}")
    loaded = C.load_ledger(_write_ledger(tmp_path, claims))
    derived = {c["id"]: {"verdict": "recorded"} if c["verdict"] == "recorded"
               else {"verdict": "inconclusive", "worst": 1.05} for c in loaded}
    assert C.derive_all(loaded[:1], skip_pytest=True) == {"x": {"verdict": "recorded"}}
    pages = C.render_pages(loaded, derived)
    assert "2 claims: 1 inconclusive, 1 recorded." in pages["CLAIMS.md"]
    assert set(pages) == {"CLAIMS.md", C.AREA_PAGES["experiments"], C.AREA_PAGES["theory"]}
    theory = pages[C.AREA_PAGES["theory"]]
    lines, evidence = theory.split("## Evidence, claim by claim")
    assert "- **inconclusive**: s -- ours: worst 1.05 ([y](#claim-y))" in lines
    assert "[x]" not in theory and "[x](#claim-x)" in pages[C.AREA_PAGES["experiments"]]
    assert '<a id="claim-y"></a>' in evidence and "**Verdict: inconclusive.**" in evidence


def test_schema_requires_a_group_and_a_short_claim(tmp_path):
    claim = _claim("e", check="", verdict="recorded")
    with pytest.raises(C.LedgerError, match="group"):
        C.load_ledger(_write_ledger(tmp_path, [dict(claim, group="misc")]))
    with pytest.raises(C.LedgerError, match="short"):
        C.load_ledger(_write_ledger(tmp_path, [dict(claim, short="x" * (C.SHORT_MAX + 1))]))


def test_area_pages_list_every_claim_once_and_the_legend_exactly_the_words_in_use():
    """On the committed ledger and pages: each claim's line once on its area's page, its
    evidence section there once; the summary's legend is the verdicts in use, each with its
    meaning; every anchor resolves."""
    import re

    from reproduce.claims_render import AREA_PAGES, VERDICT_MEANING, anchor
    claims = C.load_ledger()
    summary = C.CLAIMS_MD.read_text()
    for c in claims:
        page = (C.ROOT / AREA_PAGES[c["group"]]).read_text()
        lines, evidence = page.split("## Evidence, claim by claim")
        assert lines.count(f"[{c['id']}](#{anchor(c['id'])})") == 1, c["id"]
        assert evidence.count(f'<a id="{anchor(c["id"])}"></a>') == 1, c["id"]
    legend = re.findall(r"^\| \*\*([a-z-]+)\*\* \| (.+) \|$", summary, re.M)
    assert [w for w, _ in legend] == [v for v in C.VERDICTS if v in {c["verdict"] for c in claims}]
    assert all(VERDICT_MEANING[w] == meaning for w, meaning in legend)
    assert set(VERDICT_MEANING) == set(C.VERDICTS)


def test_json_claims_name_the_tests_of_their_rule(tmp_path):
    claim = _claim("ratio {worst}")
    del claim["rule_test"]
    with pytest.raises(C.LedgerError, match="rule_test"):
        C.load_ledger(_write_ledger(tmp_path, [claim]))
    assert all(c["rule_test"].split() for c in C.load_ledger() if c["check"].startswith("json:"))


def test_variants_are_linked_but_never_change_a_verdict(tmp_path):
    main = _claim("ratio {worst}", verdict="refuted")
    early = dict(_claim("ratio {worst}", verdict="confirmed"), id="early")
    main["variants"] = ["early"]
    loaded = C.load_ledger(_write_ledger(tmp_path, [main, early]))
    derived = {"x": {"verdict": "refuted", "worst": 1.2},
               "early": {"verdict": "confirmed", "worst": 1.0}}
    text = C.render_pages(loaded, derived)[C.AREA_PAGES["experiments"]]
    assert "**Verdict: refuted.**" in text and "[early](#claim-early)" in text
    assert not hasattr(C, "apply_variants")
    base = ('[[claim]]\nid="a"\nwhere="w"\ngroup="theory"\nshort="s"\nstatement="s"\n'
            'paper_value=""\nours=""\ntolerance=""\nevidence="e"\ncheck=""\n'
            'verdict="pending"\nvariants=["zz"]\n')
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


def test_results_page_shows_every_figure_with_the_claims_it_decides():
    """RESULTS.md: a section per figure of the paper, its PNG embedded where generated, and
    every JSON-decided claim under the figure whose JSON decides it, linked to its evidence."""
    from reproduce.claims_render import FIGURES, claim_href
    text = (C.ROOT / "RESULTS.md").read_text()
    sections = text.split("\n## ")
    for name, where, _ in FIGURES:
        body = next(s for s in sections if s.startswith(where + "\n"))
        png = C.FIGURES / f"{name}.png"
        assert (f"(paper_figures/{name}.png)" in body) == png.exists(), name
    for c in C.load_ledger():
        if c["check"].startswith("json:"):
            name = c["check"][len("json:"):].split("#")[0]
            where = next(w for n, w, _ in FIGURES if n == name)
            body = next(s for s in sections if s.startswith(where + "\n"))
            assert f"({claim_href(c)})" in body, c["id"]


def test_changes_since_lists_every_changed_verdict_from_the_rendered_summaries():
    import reproduce.claims as C
    claims = C.load_ledger()
    text = "".join((C.ROOT / page).read_text() for page in C.AREA_PAGES.values())
    rows = C.summary_rows(text)
    assert set(rows) == {c["id"] for c in claims}
    assert C.changes(text, text) == C.changes("", "")[:2]
    first = claims[0]["id"]
    word = rows[first][1]
    other = "refuted" if word != "refuted" else "confirmed"
    edited = "\n".join(line.replace(f"- **{word}**:", f"- **{other}**:")
                        if f"([{first}](#" in line else line
                        for line in text.splitlines())
    got = C.changes(text, edited)
    assert len(got) == 3 and got[2].startswith(f"| {first} | **{word}**")
    assert f"| **{other}**" in got[2]


def test_changes_read_a_ledger_rendered_before_the_summary_tables():
    """A ledger of the earlier form (one full table, the verdict in its fifth column) is read,
    so a regeneration can be compared with a ledger from before the summaries existed."""
    import reproduce.claims as C
    old = "\n".join([
        "| id | where | claim | paper | verdict | evidence | check |",
        "|---|---|---|---|---|---|---|",
        "| fig4-maxcut | Section 5.2 | below 1.04 \\| of the program | 1.04 | **inconclusive** "
        "| worst 1.062 | `json:figure4#fig4-maxcut` |",
        "| hardness-mvc-1.3606 | Section 5 | 1.3606 | 1.3606 | **refuted** | typed | |",
    ])
    assert C.summary_rows(old) == {"fig4-maxcut": ("", "inconclusive"),
                                   "hardness-mvc-1.3606": ("", "refuted")}
    new = "\n".join([
        "| claim | paper | ours | verdict |", "|---|---|---|---|",
        "| [fig4-maxcut](#claim-fig4-maxcut): below 1.04 | 1.04 | seeds holding: 6 of 10 "
        "| **seed-dependent** |",
        "| [hardness-mvc-1.3606](#claim-hardness-mvc-1.3606): x | 1.3606 | y | **refuted** |",
    ])
    got = C.changes(old, new)
    assert got[2:] == ["| fig4-maxcut | **inconclusive** | **seed-dependent**: seeds holding: "
                       "6 of 10 |"]


def test_a_recorded_json_entry_stays_recorded_only_while_its_rule_cannot_decide(tmp_path):
    """A variant with one to three seeds is recorded (listed as a measurement); its derived
    fields still fill its evidence, the rule's own word is kept, and once the rule decides
    the entry drifts (the ledger must then carry the rule's word)."""
    claim = _claim("{k_of_n} seeds hold; the rule reads {rule_verdict}", verdict="recorded")
    got = C.as_recorded(claim, {"verdict": "undecided", "k_of_n": "2 of 3"})
    assert got["verdict"] == "recorded" and got["rule_verdict"] == "undecided"
    assert C.evidence_text(claim, got) == "2 of 3 seeds hold; the rule reads undecided"
    for decided in ("refuted", "confirmed", "seed-dependent"):
        assert C.as_recorded(claim, {"verdict": decided})["verdict"] == "drift"
    assert C.as_recorded(claim, {"verdict": "drift", "why": "x"})["why"] == "x"
    assert C.as_recorded({**claim, "verdict": "undecided"}, {"verdict": "undecided"}) == \
        {"verdict": "undecided"}
    assert C.as_recorded(claim, {"verdict": "recorded"}) == {"verdict": "recorded"}


def test_the_forced_entries_are_recorded():
    """Conformance checks of our setup and the early-weights variants (one to three seeds,
    which the seed rule cannot decide) carry no tested word."""
    claims = {c["id"]: c for c in C.load_ledger()}
    for cid in ("fig3-within-10pct-early-weights", "fig4-maxcut-early-weights",
                "fig4-mis-er-early-weights", "fig3-baselines-vs-early-weights"):
        assert claims[cid]["verdict"] == "recorded", cid
    conformance = [cid for cid, c in claims.items() if "conformance check" in c["evidence"]]
    assert {"g2s-25k-runs-on-cpu", "shared-hyperparameters", "baseline-s2v-depth-choice",
            "list-heuristic-definition"} <= set(conformance)
    assert all(claims[cid]["verdict"] == "recorded" for cid in conformance)


# ---------------------------------------------------------------- rule history

def test_rule_history_is_required_for_json_checks_and_names_real_commits(tmp_path):
    """A claim decided by a rule from committed data lists every revision of that rule with
    the commit and whether its data had been seen; a commit the repository lacks, a missing
    history, or a data_seen that is not a boolean is refused."""
    claim = _claim("ratio {worst}")
    del claim["rule_history"]
    with pytest.raises(C.LedgerError, match="needs rule_history"):
        C.load_ledger(_write_ledger(tmp_path, [claim]))
    for bad, match in ((dict(commit="0123456789", data_seen=False, change="x"), "not a commit"),
                       (dict(commit="eea8444", data_seen="yes", change="x"), "true or false"),
                       (dict(commit="HEAD", data_seen=True, change="x"), "7 to 40 hex"),
                       (dict(commit="eea8444", data_seen=True, change=" "), "what changed"),
                       (dict(commit="eea8444", data_seen=True), "exactly")):
        with pytest.raises(C.LedgerError, match=match):
            C.load_ledger(_write_ledger(tmp_path, [dict(claim, rule_history=[bad])]))
    ok = dict(claim, rule_history=[dict(commit="eea8444", data_seen=True, change="x")])
    assert C.load_ledger(_write_ledger(tmp_path, [ok]))[0]["rule_history"][0]["data_seen"]


def test_every_checked_claim_has_its_rule_history():
    """On the committed ledger: every claim with a check lists its rule's revisions; every
    commit named exists (load_ledger verifies); intro-25k discloses that eea8444 dropped the
    sparse-bipartite cell after that cell had refuted it."""
    claims = {c["id"]: c for c in C.load_ledger()}
    for cid, c in claims.items():
        if c["check"]:
            assert c.get("rule_history"), cid
    late = {r["commit"]: r for r in claims["intro-25k"]["rule_history"] if r["data_seen"]}
    assert any(k.startswith("eea8444") for k in late)
    assert "eea8444" in claims["intro-25k"]["tolerance"]


def test_a_rule_revised_after_its_data_says_so_on_every_page():
    from reproduce.claims_render import claim_line
    claim = dict(_claim("e"), rule_history=[
        {"commit": "aaaaaaa", "data_seen": False, "change": "first"},
        {"commit": "bbbbbbb", "data_seen": True, "change": "after"}])
    line = claim_line(claim, {"verdict": "confirmed"})
    assert "(rule revised after its data, last bbbbbbb)" in line and "aaaaaaa" not in line
    page = C.render_pages([claim], {"x": {"verdict": "confirmed"}})[C.AREA_PAGES["experiments"]]
    assert "- `bbbbbbb`, *after its data*: after" in page
    assert "- `aaaaaaa`, before its data: first" in page


def test_the_recipes_page_shows_every_trained_model_claim_with_its_robustness_word():
    """Every claim about a trained model (its derived verdict carries a robustness word) is a
    row of the recipes page: the ledger's verdict, the words under each recipe and the
    robustness word with its note; the page's legend has the words in use; CLAIMS.md links the
    page with the count of each word. A ledger with no such claim has no recipes page."""
    from reproduce.claims_render import RECIPES_PAGE
    from reproduce.harness.verdicts.recipes import ROBUSTNESS_MEANING
    trained = dict(_claim("e"), id="t1", verdict="refuted")
    other = dict(_claim("e"), id="t2", verdict="seed-dependent")
    plain = dict(_claim("e"), id="p", verdict="confirmed")
    derived = {"t1": {"verdict": "refuted", "by_recipe": "paper refuted, B confirmed",
                      "robustness": "recipe-sensitive", "robustness_note": "B confirmed"},
               "t2": {"verdict": "seed-dependent", "by_recipe": "paper seed-dependent",
                      "robustness": "untested", "robustness_note": "no variant"},
               "p": {"verdict": "confirmed"}}
    pages = C.render_pages([trained, other, plain], derived)
    page = pages[RECIPES_PAGE]
    assert "| [t1](experiments.md#claim-t1) | refuted | paper refuted, B confirmed | " \
           "**recipe-sensitive**: B confirmed |" in page
    assert "| [t2](experiments.md#claim-t2) | seed-dependent |" in page
    assert "[p](" not in page and "2 claims: 1 recipe-sensitive, 1 untested." in page
    assert f"| **recipe-sensitive** | {ROBUSTNESS_MEANING['recipe-sensitive']} |" in page
    assert "**recipe-robust**" not in page          # a word not in use has no legend line
    assert f"]({RECIPES_PAGE}): 1 recipe-sensitive, 1 untested" in pages["CLAIMS.md"]
    assert RECIPES_PAGE not in C.render_pages([plain], {"p": {"verdict": "confirmed"}})


# ---------------------------------------------------------------- what a reader sees

def _page(path):
    return (C.ROOT / path).read_text()


def test_the_summary_reads_in_two_minutes():
    """CLAIMS.md, the summary, stays under SUMMARY_MAX_WORDS words (about two minutes); every
    claim's evidence lives on its area's page, which the summary links."""
    from reproduce.claims_render import SUMMARY_MAX_WORDS, word_count
    assert word_count("A **bold** [link](docs/x.md#a) | --- | x_v(t) 1,000 -- 1.10") == 6
    summary = C.CLAIMS_MD.read_text()
    assert word_count(summary) <= SUMMARY_MAX_WORDS
    assert "Evidence, claim by claim" not in summary
    for path in C.AREA_PAGES.values():
        assert f"]({path})" in summary
    assert "](docs/claims/recipes.md)" in summary


def test_standing_is_counted_from_the_ledger():
    """How many experimental claims are confirmed is counted, never typed, and shown in the
    README and the summary alike."""
    from reproduce.claims_render import standing
    made = [dict(_claim("e", check="", verdict=v), group=g) for g, v in (
        ("experiments", "refuted"), ("experiments", "recorded"), ("theory", "confirmed"),
        ("setup", "confirmed"), ("setup", "confirmed"))]
    text = standing(made)
    assert text.startswith("**None of the paper's 2 experimental claims is confirmed** "
                           "(1 tested, 1 recorded")
    assert "The 3 confirmed verdicts are theory (1) and setup, definitions and prior work (2)." \
        in text
    made[0]["verdict"] = "confirmed"
    assert standing(made).startswith("**1 of the paper's 2 experimental claims is confirmed**")
    claims = C.load_ledger()
    assert standing(claims) in C.README.read_text() and standing(claims) in _page("CLAIMS.md")


def test_readme_carries_the_verdict_legend():
    from reproduce.claims_render import legend
    readme = C.README.read_text()
    for line in legend([c["verdict"] for c in C.load_ledger()]):
        assert line in readme


def _claim_lines(text):
    """``id -> line`` of every claim line on a page, its link target dropped."""
    import re
    out = {}
    for line in text.splitlines():
        m = re.match(r"^- (.*\(\[(?P<id>[^\]]+)\])\([^)]*#claim-[^)]*\)\)$", line)
        if m:
            out[m["id"]] = m[1]
    return out


def test_every_page_shows_a_claim_in_the_same_words():
    """README, RESULTS.md, CLAIMS.md and the area pages render a claim's line by one
    function: wherever two pages show a claim, they show the same text."""
    pages = {p: _claim_lines(_page(p)) for p in ("README.md", "RESULTS.md", "CLAIMS.md",
                                                *C.AREA_PAGES.values())}
    every = {cid for lines in pages.values() for cid in lines}
    assert set(C.README_FINDINGS) <= set(pages["README.md"]) & set(pages["CLAIMS.md"])
    for cid in every:
        shown = {p: lines[cid] for p, lines in pages.items() if cid in lines}
        assert len(set(shown.values())) == 1, (cid, shown)


def _evidence_sections(text):
    import re
    return {m["id"]: m["body"] for m in re.finditer(
        r'<a id="claim-[^"]*"></a>\n### (?P<id>\S+)\n(?P<body>.*?)(?=\n<a id=|\Z)', text, re.S)}


def test_a_summary_shows_no_number_its_evidence_lacks():
    """Our value in a claim's line never says more than its evidence: every number in it is
    one the claim's evidence section shows (a summary that reported a smaller shortfall than
    its evidence's moved bar is caught)."""
    import re
    num = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")

    def values(text):
        return {float(n.replace(",", "")) for n in num.findall(text)}
    for path in C.AREA_PAGES.values():
        text = _page(path)
        lines, sections = _claim_lines(text), _evidence_sections(text)
        for cid, line in lines.items():
            ours = line.split(" -- ours: ", 1)[1] if " -- ours: " in line else ""
            ours = re.sub(r" \(rule revised [^)]*after its data[^)]*\)", "", ours)
            ours = ours.rsplit(" ([", 1)[0]
            missing = values(ours) - values(sections[cid])
            assert not missing, (cid, sorted(missing))


def test_summaries_that_once_contradicted_their_evidence():
    claims = {c["id"]: c for c in C.load_ledger()}
    assert "{bars}" in claims["timed-program-yardstick"]["ours"]
    ours = claims["d3-latching"]["ours"]
    assert "G2S-RNN part {g2s_verdict}" in ours and "GCNN part {s2v_verdict}" in ours
    from reproduce.claims_render import FIGURES
    fig3 = next(what for name, _, what in FIGURES if name == "figure3")
    assert "In general" in fig3 and "every test family" not in fig3
