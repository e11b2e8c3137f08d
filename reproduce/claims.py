"""The claims ledger: re-derive every verdict, render CLAIMS.md, fail on drift.

``python reproduce/claims.py``            re-derive verdicts and (re)write CLAIMS.md (the
                                          summary), docs/claims/AREA.md (every claim's
                                          evidence, rule and rule history, by area),
                                          RESULTS.md (the figures with their verdicts) and
                                          the README's findings
``python reproduce/claims.py --check``    re-derive, and exit 1 when any verdict drifted or
                                          CLAIMS.md / RESULTS.md / the README's findings
                                          are stale (what CI runs)
``python reproduce/claims.py --refresh NAME``  after a rule changed: store the current rule's
                                          verdicts in the committed ``paper_figures/NAME.json``
                                          (its data untouched; ``provenance.verdicts_refreshed``
                                          records the commit of the rule), then re-derive

The ledger is ``reproduce/claims.toml``: one ``[[claim]]`` table per claim of the paper with
``id``, ``where``, ``group`` (experiments, theory or setup: the summary's sections, in paper
order inside each), ``short`` (the claim in at most 80 characters, for the summary),
``statement``, ``paper_value``, ``ours`` (our value for the summary; placeholders like
``evidence``'s), ``check``, ``tolerance``, ``verdict``, ``evidence``.  A ``check`` is one of

* ``""``: not checked yet (verdict must be ``pending``), or a reading of the paper that no
  check could contradict (verdict ``recorded``: shown apart from the tested verdicts);
* ``"pytest:NODEID [NODEID ...]"``: tests that pass exactly when the recorded verdict is right
  (for a refuted claim they assert the counterexample).  Any failure is drift;
* ``"json:NAME#KEY"``: ``paper_figures/NAME.json["verdicts"][KEY]``.  ``NAME`` may name a
  subfolder, ``DIR/SCRIPT``, for a variant run of ``reproduce/SCRIPT.py`` written with
  ``--out``.  The verdict is re-derived by calling ``reproduce/SCRIPT.py:derive_verdicts`` on
  the committed JSON (so editing a number in the JSON, or the rule, is caught);
  ``rule_test`` names the tests of that rule (hand-made inputs for each outcome),
  which ``--check`` runs too, so a reader goes claim -> rule -> test in one hop; and
  ``{field}`` placeholders in ``evidence`` are filled from the derived object, so no number
  in CLAIMS.md is typed by hand.  ``{field:noun}`` writes a count with its noun in the right
  number (``{seeds:seed}`` -> "1 seed" / "3 seeds"; ``{n:vertex|vertices}`` for irregular
  plurals).  Literal braces in such evidence are doubled (``S = {{}}``); the evidence of other
  checks is shown as written.  A ``recorded`` entry (a conformance check of our setup, a
  measurement) may still carry a check: its tests must pass; a ``json:`` one is recorded
  only while its rule cannot decide (``RECORDABLE``: a variant with one to three seeds), the
  rule's own word filling ``{rule_verdict}``, and it drifts once the rule decides.

Every claim with a ``json:`` check lists ``rule_history``: each revision of its decision rule,
oldest first, as ``{commit = "...", data_seen = true|false, change = "..."}`` -- the commit
(which must exist in git), whether the data the claim decides had been seen by then, and what
changed.  Its line on every page says when its rule was revised after its data.

A claim may list ``variants``: ids of claims that re-check it with a choice the paper leaves
unstated (training length, checkpoint selection: the ``*-early-weights`` entries).  CLAIMS.md
links them; they never change the claim's verdict (a one-seed variant can decide nothing, and
letting it soften a refutation made ``refuted`` unreachable).

Verdicts: the words of :data:`reproduce.claims_render.VERDICT_MEANING`, each with its one
meaning, which CLAIMS.md shows as its legend.
``--check`` also fails when evidence cannot be rendered (a missing field, a stray brace) or a
count disagrees with its noun ("1 seeds", "3 seed"), and when a figure JSON was written from a
tree with uncommitted changes (a ``+dirty`` commit in its provenance).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

if not __package__:  # run as python reproduce/claims.py
    import _bootstrap  # noqa: F401

from g2s.argtypes import OneLineParser, available_cpus  # noqa: E402
from reproduce.claims_render import (  # noqa: F401 - re-exported: the ledger's rendering
    AREA_PAGES,
    COUNT_NOUNS,
    FINDINGS_END,
    FINDINGS_START,
    GROUPS,
    README_FINDINGS,
    SHORT_MAX,
    VERDICTS,
    evidence_problems,
    evidence_text,
    render,
    render_findings,
    render_pages,
    render_results,
    with_findings,
)

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "reproduce" / "claims.toml"
CLAIMS_MD = ROOT / "CLAIMS.md"
RESULTS_MD = ROOT / "RESULTS.md"
README = ROOT / "README.md"
FIGURES = ROOT / "paper_figures"
#: what a check can find (one list, reproduce.common's), and "recorded": a reading of the paper
UNCHECKED = ("pending", "recorded")  # verdicts that need no check
REQUIRED = ("id", "where", "group", "short", "statement", "paper_value", "ours", "check",
            "tolerance", "verdict", "evidence")


class LedgerError(Exception):
    pass


def load_ledger(path: Path = LEDGER) -> list[dict]:
    """Parse and validate the ledger (schema, unique ids, verdict names, check syntax)."""
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise LedgerError(f"{path.name}: {exc}") from None
    claims = data.get("claim", [])
    seen = set()
    for c in claims:
        missing = [k for k in REQUIRED if k not in c]
        if missing:
            raise LedgerError(f"claim {c.get('id', '?')}: missing {', '.join(missing)}")
        if c["id"] in seen:
            raise LedgerError(f"duplicate claim id {c['id']}")
        seen.add(c["id"])
        if c["verdict"] not in VERDICTS:
            raise LedgerError(f"claim {c['id']}: unknown verdict {c['verdict']!r}")
        if c["group"] not in GROUPS:
            raise LedgerError(f"claim {c['id']}: group must be one of {', '.join(GROUPS)}")
        if len(c["short"]) > SHORT_MAX or not c["short"].strip():
            raise LedgerError(f"claim {c['id']}: short must be 1 to {SHORT_MAX} characters")
        chk = c["check"]
        if not chk and c["verdict"] not in UNCHECKED:
            raise LedgerError(f"claim {c['id']}: verdict {c['verdict']} needs a check")
        if chk and not chk.startswith(("pytest:", "json:")):
            raise LedgerError(f"claim {c['id']}: check must start with pytest: or json:")
        if chk.startswith("json:") and "#" not in chk:
            raise LedgerError(f"claim {c['id']}: json check must be json:NAME#KEY")
        for v in c.get("variants", []):
            if v == c["id"] or v not in {x.get("id") for x in claims}:
                raise LedgerError(f"claim {c['id']}: variant {v!r} is not another claim")
        if chk.startswith("json:") and not c.get("rule_test", "").split():
            raise LedgerError(f"claim {c['id']}: a json check needs rule_test, the tests of "
                              "its decision rule")
        _check_history(c)
    unknown = unknown_commits({r["commit"] for c in claims for r in c.get("rule_history", [])})
    if unknown:
        owners = [c["id"] for c in claims
                  if any(r["commit"] in unknown for r in c.get("rule_history", []))]
        raise LedgerError(f"claim {owners[0]}: rule_history names {sorted(unknown)[0]!r}, not a "
                          "commit of this repository")
    return claims


#: the fields of one ``rule_history`` entry: the commit that revised the rule, whether the
#: data the claim decides today had been seen by then, and what changed
HISTORY_FIELDS = ("commit", "data_seen", "change")


def _check_history(claim: dict) -> None:
    """A claim's ``rule_history``: required for a ``json:`` check (a rule decides it from
    committed data, so when the rule changed relative to that data must be on record)."""
    rows = claim.get("rule_history")
    if rows is None:
        if claim["check"].startswith("json:"):
            raise LedgerError(f"claim {claim['id']}: a json check needs rule_history, each "
                              "revision of its rule with its commit and whether its data had "
                              "been seen")
        return
    if not isinstance(rows, list) or (claim["check"].startswith("json:") and not rows):
        raise LedgerError(f"claim {claim['id']}: rule_history must be a non-empty list")
    for r in rows:
        if not isinstance(r, dict) or sorted(r) != sorted(HISTORY_FIELDS):
            raise LedgerError(f"claim {claim['id']}: each rule_history entry has exactly "
                              f"{', '.join(HISTORY_FIELDS)}")
        if not isinstance(r["data_seen"], bool):
            raise LedgerError(f"claim {claim['id']}: rule_history data_seen must be true or "
                              "false")
        if not isinstance(r["commit"], str) or not re.fullmatch(r"[0-9a-f]{7,40}", r["commit"]):
            raise LedgerError(f"claim {claim['id']}: rule_history commit {r['commit']!r} is "
                              "not a commit id (7 to 40 hex digits)")
        if not isinstance(r["change"], str) or not r["change"].strip():
            raise LedgerError(f"claim {claim['id']}: rule_history change must say what changed")


def unknown_commits(commits: set[str]) -> set[str]:
    """The ids in ``commits`` that name no commit of the repository (one ``git cat-file``)."""
    if not commits:
        return set()
    names = sorted(commits)
    try:
        proc = subprocess.run(["git", "cat-file", "--batch-check"], cwd=ROOT, text=True,
                              input="".join(f"{n}^{{commit}}\n" for n in names),
                              capture_output=True)
    except OSError as exc:
        raise LedgerError(f"rule_history: cannot run git to verify its commits ({exc})") from None
    if proc.returncode != 0:
        raise LedgerError("rule_history: git cannot verify its commits "
                          f"({proc.stderr.strip()[:120]})")
    lines = proc.stdout.splitlines()
    return {n for n, line in zip(names, lines) if line.split()[1:2] != ["commit"]}


def _load_script(name: str):
    """The module of ``reproduce/NAME.py``, imported as ``reproduce.NAME``."""
    return importlib.import_module(f"reproduce.{name}")


def _derive_figure(name: str, cache: dict, figures: Path | None = None,
                   rules: bool = True) -> None:
    """Fill ``cache`` with one committed figure JSON's stored and re-derived verdicts, its
    provenance and its drift (everything :func:`derive_json` reads for ``name``), from the
    folder ``figures`` (default :data:`FIGURES`).  ``rules=False``: the provenance and the
    re-derivation of its numbers only (its verdicts are left ``None``)."""
    if name not in cache:
        path = (FIGURES if figures is None else figures) / f"{name}.json"
        if not path.exists():
            cache[name] = None
        else:
            payload = json.loads(path.read_text())
            stored = payload.pop("verdicts", {})
            module = _load_script(Path(name).name)
            cache[(name, "dirty")] = dirty_provenance(payload.get("provenance", {}))
            # every summarised number must follow from the raw per-instance records (and
            # those from the cached solutions where present): an edit that flips no verdict
            # is drift too
            from reproduce.harness.rederive import drift
            cache[(name, "rederive")] = drift(payload, path.parent / ".cache" / Path(name).name,
                                              summarise=_one_argument_summarise(module),
                                              recompute=getattr(module, "recompute", None),
                                              audit=getattr(module, "audit", None))
            # a JSON that drifts or comes from a dirty tree reads drift whatever its rules
            # say (derive_json), so they are run only on one that does not
            clean = not cache[(name, "dirty")] and not cache[(name, "rederive")]
            cache[name] = (stored, module.derive_verdicts(payload) if clean and rules
                           else None)


def _derive_figure_alone(name: str, figures: Path) -> dict:
    """:func:`_derive_figure` in a worker process: the cache entries of ``name``."""
    cache: dict = {}
    _derive_figure(name, cache, figures)
    return cache


def derive_figures(names, cache: dict, workers: int = 1) -> None:
    """:func:`_derive_figure` for every figure JSON of ``names`` not in ``cache``, on
    ``workers`` processes (each figure is independent; the largest JSONs start first)."""
    todo = sorted({n for n in names if n not in cache},
                  key=lambda n: -(FIGURES / f"{n}.json").stat().st_size
                  if (FIGURES / f"{n}.json").exists() else 0)
    if workers <= 1 or len(todo) <= 1:
        for name in todo:
            _derive_figure(name, cache)
        return
    from reproduce.harness.engine import LocalPool
    # spawn: a worker imports the scripts afresh (no state of this process is copied); a
    # signal ends the workers at once, each silent (LocalPool)
    pool = LocalPool(min(workers, len(todo)))
    try:
        futures = [pool.submit(_derive_figure_alone, name, FIGURES) for name in todo]
        for future in futures:
            cache.update(future.result())
    finally:
        pool.shutdown()


def derive_json(check: str, cache: dict) -> dict:
    """Re-derive one JSON-backed verdict from the committed figure JSON."""
    name, key = check[len("json:"):].split("#", 1)
    _derive_figure(name, cache)
    if cache[name] is None:
        return {"verdict": "drift", "why": f"paper_figures/{name}.json is missing"}
    dirty = cache[(name, "dirty")]
    if dirty:
        return {"verdict": "drift", "why": f"{name}.json was written from a tree with "
                                           f"uncommitted changes ({dirty}); regenerate it "
                                           "from a clean checkout"}
    bad = cache.get((name, "rederive"))
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        return {"verdict": "drift", "why": f"{name}.json: {bad[0]}{more}"}
    stored, derived = cache[name]
    if key not in derived:
        return {"verdict": "drift", "why": f"{name}.derive_verdicts has no key {key}"}
    got = json.loads(json.dumps(derived[key]))
    if stored.get(key) != got:
        return {**got, "verdict": "drift",
                "why": f"{name}.json's stored verdict differs from the re-derived one"}
    return got


#: the rule's words that say its data cannot decide: only then may a ``json:`` entry be
#: ``recorded`` (listed as a measurement, as the variants with one to three seeds are)
RECORDABLE = ("undecided",)


def as_recorded(claim: dict, got: dict) -> dict:
    """A ``recorded`` entry with a ``json:`` check: its derived object with the verdict
    ``recorded`` and the rule's own word kept as ``rule_verdict``, as long as the rule cannot
    decide (:data:`RECORDABLE`); a rule that decides makes it drift (the ledger must then carry
    the rule's word).  Any other entry, and a ``recorded`` word from the rule itself, pass
    unchanged."""
    word = got.get("verdict")
    if claim["verdict"] != "recorded" or word in ("recorded", "drift"):
        return got
    if word in RECORDABLE:
        return {**got, "verdict": "recorded", "rule_verdict": word}
    return {**got, "verdict": "drift",
            "why": f"the rule now decides ({word}): a recorded entry is one its data cannot "
                   "decide; give it the rule's word"}


def _one_argument_summarise(module):
    """The script's ``summarise(raw)`` when it takes the raw result alone (the figures whose
    summarised keys follow from the JSON's own records), else None."""
    import inspect
    fn = getattr(module, "summarise", None)
    if fn is None or len(inspect.signature(fn).parameters) != 1:
        return None
    return fn


def dirty_provenance(provenance) -> str | None:
    """The first ``git_commit`` in a JSON's provenance (the run's, or a verdict refresh's) that
    names a tree with uncommitted changes (``...+dirty``): such numbers cannot be traced to a
    commit."""
    if isinstance(provenance, dict):
        for key, value in provenance.items():
            if key == "git_commit" and isinstance(value, str) and value.endswith("+dirty"):
                return value
            found = dirty_provenance(value)
            if found:
                return found
    return None


def refresh_verdicts(name: str, commit: str | None = None) -> Path:
    """Re-apply the current ``derive_verdicts`` of ``reproduce/SCRIPT.py`` to the committed
    ``paper_figures/NAME.json`` and store the result (nothing else in the file changes but
    ``provenance.verdicts_refreshed``, which records the git commit whose rule decided).
    ``commit``: that commit, read once before a batch of refreshes (the first refreshed file
    would otherwise make the tree look modified to the next)."""
    from g2s.fsutil import atomic_write_json
    from reproduce.common import git_commit
    commit = git_commit() if commit is None else commit
    path = FIGURES / f"{name}.json"
    if not path.is_file():
        raise LedgerError(f"--refresh: {path} does not exist")
    payload = json.loads(path.read_text())
    payload.pop("verdicts", None)
    payload.setdefault("provenance", {})["verdicts_refreshed"] = {
        "git_commit": commit, "why": "decision rule changed; data not regenerated"}
    as_written = json.loads(json.dumps(payload, sort_keys=True))
    payload["verdicts"] = _load_script(Path(name).name).derive_verdicts(as_written)
    atomic_write_json(path, payload)
    return path


def _parallel() -> list[str]:
    """pytest-xdist's options to run the tests on every CPU (the suite's own setting), or none
    where it is not installed."""
    import importlib.util
    if importlib.util.find_spec("xdist") is None or available_cpus() < 2:
        return []
    return ["-n", str(available_cpus()), "--dist", "loadgroup"]


def run_pytest(node_ids: list[str]) -> dict[str, str]:
    """Run the given tests once; map each node id to passed/failed/skipped/missing."""
    if not node_ids:
        return {}
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts="]
    files = sorted({n.split("::")[0] for n in node_ids if (ROOT / n.split("::")[0]).exists()})
    collected = subprocess.run([*base, "--collect-only", *files], cwd=ROOT, capture_output=True,
                               text=True).stdout.splitlines() if files else []
    known = {line.strip() for line in collected if "::" in line}
    known |= {k.split("[")[0] for k in known}  # a bare name selects every parametrization
    runnable = sorted({n for n in node_ids if n in known})
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "junit.xml"
        cmd = [*base, f"--junitxml={xml}", "-o", "junit_family=xunit1", *_parallel(),
               *runnable]
        if runnable:
            subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        outcome = {}
        if xml.exists():
            for case in ET.parse(xml).getroot().iter("testcase"):
                file = case.get("file") or ""
                # pytest-xdist's --dist loadgroup names a grouped test NAME@GROUP (its
                # parametrization, if any, before the @): the ledger names the test alone
                name = re.sub(r"@[^\[\]@]*$", "", case.get("name", ""))
                status = "passed"
                for child in case:
                    if child.tag in ("failure", "error"):
                        status = "failed"
                    elif child.tag == "skipped":
                        status = "skipped"
                outcome[f"{file}::{name}"] = status
    result = {}
    for nid in node_ids:
        path, _, test = nid.partition("::")
        matches = [s for k, s in outcome.items()
                   if k.split("::")[0] == path and (k.split("::", 1)[1] == test
                                                    or k.split("::", 1)[1].startswith(test + "["))]
        if not matches:
            result[nid] = "missing"
        elif all(s == "passed" for s in matches):
            result[nid] = "passed"
        else:
            result[nid] = "failed" if "failed" in matches else "skipped"
    return result


def _test_ids(claim: dict) -> list[str]:
    """The pytest node ids a claim rests on: its ``pytest:`` check, or the ``rule_test`` of
    its ``json:`` check."""
    if claim["check"].startswith("pytest:"):
        return claim["check"][len("pytest:"):].split()
    return claim.get("rule_test", "").split() if claim["check"].startswith("json:") else []


def derive_all(claims: list[dict], skip_pytest: bool = False,
               workers: int = 1) -> dict[str, dict]:
    """The re-derived verdict object of every claim (``verdict == 'drift'`` on failure); the
    figure JSONs are re-derived on ``workers`` processes."""
    node_ids = [n for c in claims for n in _test_ids(c)]
    outcomes = {} if skip_pytest else run_pytest(sorted(set(node_ids)))
    cache: dict = {}
    derive_figures([c["check"][len("json:"):].split("#", 1)[0] for c in claims
                    if c["check"].startswith("json:")], cache, workers)
    derived = {}
    for c in claims:
        chk = c["check"]
        if not chk:
            derived[c["id"]] = {"verdict": c["verdict"]}  # pending or recorded
        elif chk.startswith("json:"):
            derived[c["id"]] = as_recorded(c, derive_json(chk, cache))
            bad = [] if skip_pytest else [f"rule test {n} {outcomes[n]}" for n in _test_ids(c)
                                          if outcomes[n] != "passed"]
            if bad:
                derived[c["id"]] = {**derived[c["id"]], "verdict": "drift",
                                    "why": "; ".join(bad)}
        elif skip_pytest:
            derived[c["id"]] = {"verdict": c["verdict"]}
        else:
            bad = {n: s for n in chk[len("pytest:"):].split() if (s := outcomes[n]) != "passed"}
            derived[c["id"]] = ({"verdict": c["verdict"]} if not bad else
                                {"verdict": "drift", "why": "; ".join(f"{n} {s}" for n, s in
                                                                      bad.items())})
    return derived


#: a claim's line on the ledger's pages (reproduce.claims_render.claim_line, a list item)
_LINE = re.compile(r"^- \*\*(?P<verdict>[a-z-]+)\*\*: .*?(?: -- ours: (?P<ours>.*?))?"
                   r"(?: \(rule revised [^)]*after its data[^)]*\))? \(\[(?P<id>[^\]]+)\]"
                   r"\([^)]*#claim-[^)]*\)\)$")
_CELL = r"((?:\\\||[^|])*)"   # a table cell: any text, escaped pipes included
#: a row of the earlier summary tables (``| [id](#claim-id): short | paper | ours | **verdict** |``)
_SUMMARY_ROW = re.compile(r"^\| \[(?P<id>[^\]]+)\]\(#claim-[^)]*\): " + _CELL + r"\| "
                          + _CELL + r" \| " + _CELL + r" \| \*\*(?P<verdict>[a-z-]+)\*\* \|$")


#: a row of the earlier ledger, one table with every field (``| id | where | claim | paper |
#: **verdict** | evidence | check |``): read so that a regeneration can be compared with it
_FULL_ROW = re.compile(r"^\| (?P<id>[A-Za-z0-9][A-Za-z0-9.-]*) \| " + _CELL + r"\| " + _CELL
                       + r"\| " + _CELL + r"\| \*\*(?P<verdict>[a-z-]+)\*\* \| " + _CELL
                       + r"\| " + _CELL + r"\|$")


def summary_rows(text: str) -> dict[str, tuple[str, str]]:
    """``id -> (ours, verdict)`` from rendered ledger pages: the claims' lines of the area
    pages, or, for a ledger rendered before them, CLAIMS.md's summary tables or its earlier
    one full table (no "ours" column there)."""
    rows = {m["id"]: ((m["ours"] or "").strip(), m["verdict"])
            for line in text.splitlines() if (m := _LINE.match(line))}
    rows = rows or {m["id"]: (m[4].strip(), m["verdict"])
                    for line in text.splitlines() if (m := _SUMMARY_ROW.match(line))}
    return rows or {m["id"]: ("", m["verdict"])
                    for line in text.splitlines() if (m := _FULL_ROW.match(line))}


def changes(before: str, after: str) -> list[str]:
    """Markdown rows of every claim whose verdict changed between two rendered CLAIMS.md texts
    (added and removed claims included): the before/after table of a regeneration."""
    def cell(row):
        if row is None:
            return "(not in the ledger)"
        return f"**{row[1]}**" + (f": {row[0]}" if row[0] else "")

    old, new = summary_rows(before), summary_rows(after)
    rows = ["| claim | before | after |", "|---|---|---|"]
    for cid in [*new, *(c for c in old if c not in new)]:
        o, n = old.get(cid), new.get(cid)
        if o is None or n is None or o[1] != n[1]:
            rows.append(f"| {cid} | {cell(o)} | {cell(n)} |")
    return rows


def _revision(text: str) -> str:
    """``--changes-since``'s value (an argparse type): a git revision, never empty (git would
    read the index) and never starting with ``-`` (git would take it for an option)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the revision is empty; give one, e.g. HEAD~1")
    if text.startswith("-"):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} starts with '-': not a revision")
    return text


def _changes_since(rev: str) -> int:
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           cwd=ROOT, capture_output=True, text=True)
    if found.returncode != 0:
        print(f"claims: error: {rev[:40]!r} is not a commit of this repository",
              file=sys.stderr)
        return 1
    proc = subprocess.run(["git", "show", f"{found.stdout.strip()}:CLAIMS.md"], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"claims: error: no CLAIMS.md at {rev[:40]!r} ({proc.stderr.strip()[:120]})",
              file=sys.stderr)
        return 1
    before = proc.stdout + "".join(
        subprocess.run(["git", "show", f"{found.stdout.strip()}:{page}"], cwd=ROOT,
                       capture_output=True, text=True).stdout for page in AREA_PAGES.values())
    if not summary_rows(before):
        print(f"claims: error: the CLAIMS.md at {rev[:40]!r} has no table of verdicts to "
              "compare", file=sys.stderr)
        return 1
    rows = changes(before, "".join((ROOT / page).read_text() for page in AREA_PAGES.values()
                                   if (ROOT / page).exists()))
    print("\n".join(rows) if len(rows) > 2 else f"claims: no verdict changed since {rev}")
    return 0


def _shown(path: Path) -> str:
    """A page's name as the messages show it: its path under CLAIMS.md's folder."""
    try:
        return path.relative_to(CLAIMS_MD.parent).as_posix()
    except ValueError:
        return path.name


def main(argv=None) -> int:
    p = OneLineParser(prog="reproduce/claims.py", description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true",
                   help="fail (exit 1) when a verdict drifted or CLAIMS.md is out of date")
    p.add_argument("--skip-pytest", action="store_true",
                   help="trust pytest-backed verdicts (quick render; never used by CI)")
    p.add_argument("--refresh", nargs="+", default=[], metavar="NAME",
                   help="re-apply the current rules to these committed figure JSONs "
                        "(e.g. figure3 figure3_early20k/figure3) before re-deriving")
    p.add_argument("--changes-since", metavar="REV", default=None, type=_revision,
                   help="print the claims whose verdict changed since git revision REV (a "
                        "Markdown table: before and after, from the rendered CLAIMS.md) and "
                        "exit; it checks nothing, so it cannot be combined with --check or "
                        "--refresh")
    args = p.parse_args(argv)
    if args.changes_since is not None and (args.check or args.refresh):
        p.error("--changes-since only prints what changed; it cannot be combined with "
                f"{'--check' if args.check else '--refresh'} (run them one after the other)")
    if args.changes_since is not None:
        return _changes_since(args.changes_since)
    if args.check and args.refresh:
        p.error("--refresh writes files; it cannot be combined with --check")
    try:
        from reproduce.common import git_commit
        commit = git_commit()
        for name in args.refresh:
            print(f"claims: refreshed the verdicts of {refresh_verdicts(name, commit)}")
        claims = load_ledger()
    except LedgerError as exc:
        print(f"claims: error: {exc}", file=sys.stderr)
        return 1
    derived = derive_all(claims, skip_pytest=args.skip_pytest, workers=available_cpus())
    drift = [(c, derived[c["id"]]) for c in claims if derived[c["id"]]["verdict"] != c["verdict"]]
    for c, d in drift:
        print(f"claims: drift: {c['id']}: ledger says {c['verdict']}, check gives "
              f"{d['verdict']} ({d.get('why', '')})", file=sys.stderr)
    bad = {c["id"]: p for c in claims if (p := evidence_problems(c, derived[c["id"]]))}
    for cid, problems in bad.items():
        print(f"claims: evidence: {cid}: {'; '.join(problems)}", file=sys.stderr)
    # CLAIMS.md and the area pages beside it (docs/claims/ under CLAIMS.md's folder)
    pages = {CLAIMS_MD.parent / path: text
             for path, text in render_pages(claims, derived).items()}
    pages |= {RESULTS_MD: render_results(claims, derived,
                                        lambda name: (FIGURES / f"{name}.png").exists())}
    try:
        pages[README] = with_findings(README.read_text(),
                                       render_findings(claims, derived, README_FINDINGS))
    except (OSError, ValueError) as exc:
        print(f"claims: error: {exc}", file=sys.stderr)
        return 1
    if args.check:
        stale = [_shown(p) for p, text in pages.items()
                 if not p.exists() or p.read_text() != text]
        for name in stale:
            print(f"claims: {name} is out of date; run python reproduce/claims.py",
                  file=sys.stderr)
        ok = not drift and not stale and not bad
        pages_state = " and ".join(stale) + " stale" if stale else "pages up to date"
        print(f"claims: {len(claims)} claims, {len(drift)} drifted, {pages_state}")
        return 0 if ok else 1
    for path, text in pages.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    print(f"claims: wrote {', '.join(_shown(p) for p in pages)} ({len(claims)} claims, "
          f"{len(drift)} drifted)")
    return 1 if drift or bad else 0


if __name__ == "__main__":
    sys.exit(main())
