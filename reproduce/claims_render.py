"""Rendering of the claims ledger (:mod:`reproduce.claims`): a claim's evidence with its
``{field}`` placeholders filled from the derived verdict, the checks on that text (unrenderable
fields, count grammar such as "1 seeds"), and CLAIMS.md itself."""

from __future__ import annotations

import re

from reproduce.common import VERDICTS as DERIVED_VERDICTS

__all__ = ["VERDICTS", "VERDICT_MEANING", "GROUPS", "SHORT_MAX", "COUNT_NOUNS", "anchor",
           "evidence_text", "evidence_problems", "legend", "ours_text", "render", "FIGURES",
           "render_results", "README_FINDINGS", "render_findings", "with_findings"]

#: every ledger verdict (``recorded``: a reading or a measurement, not a tested verdict)
VERDICTS = DERIVED_VERDICTS


def evidence_text(claim: dict, derived: dict) -> str:
    """The evidence as CLAIMS.md shows it: json-check evidence with its ``{field}`` filled."""
    if not claim["check"].startswith("json:"):
        return claim["evidence"]
    try:
        return claim["evidence"].format(**{k: _fmt(v) for k, v in derived.items()})
    except (KeyError, IndexError, ValueError) as exc:
        return f"{claim['evidence']} [evidence field missing: {exc}]"


COUNT_NOUNS = ("seed", "graph", "instance", "point", "case", "draw", "cell", "baseline",
               "model", "size", "family", "iteration", "layer", "round", "tree", "checkpoint")
_PLURAL = {"family": "families"}
_ONE_PLURAL = re.compile(r"(?<![+\-*/] )(?<![\d.])\b1 (" + "|".join(
    _PLURAL.get(n, n + "s") for n in COUNT_NOUNS) + r")\b")
_MANY_SINGULAR = re.compile(r"(?<![+\-*/] )(?<![\d.])\b(?!1\b)\d+ (" + "|".join(COUNT_NOUNS)
                            + r")\b(?![-'])")


def evidence_problems(claim: dict, derived: dict) -> list[str]:
    """What is wrong with a claim's rendered evidence, and with its summary cell ``ours``:
    unrenderable fields, count grammar."""
    problems = _text_problems(claim, derived)
    if claim.get("ours"):
        problems += [f"ours: {p}" for p in
                     _text_problems({**claim, "evidence": claim["ours"]}, derived)]
    return problems


def _text_problems(claim: dict, derived: dict) -> list[str]:
    text = evidence_text(claim, derived)
    problems = []
    if claim["check"].startswith("json:") and derived.get("verdict") != "drift":
        try:
            claim["evidence"].format(**{k: _fmt(v) for k, v in derived.items()})
        except (KeyError, IndexError, ValueError) as exc:
            problems.append(f"evidence cannot be rendered ({type(exc).__name__}: {exc}); "
                            "double literal braces, or add the field to derive_verdicts")
    problems += [f"count grammar: {m.group(0)!r}" for m in _ONE_PLURAL.finditer(text)]
    problems += [f"count grammar: {m.group(0)!r}" for m in _MANY_SINGULAR.finditer(text)]
    return problems


class _Count:
    """A derived value that ``{field:noun}`` / ``{field:noun|plural}`` writes with its noun."""

    def __init__(self, v):
        self.v = v

    def __format__(self, spec):
        one, _, many = spec.partition("|")
        if len(one) < 2 or not one.isalpha():   # an ordinary format spec (d, >3, ...)
            return format(self.v, spec)
        return f"{self.v} {one if self.v == 1 else (many or one + 's')}"

    def __str__(self):
        return str(self.v)


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, int) and not isinstance(v, bool):
        return _Count(v)
    return v


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


#: what each verdict word means: one exact meaning, shown as CLAIMS.md's legend (only the words
#: in use are listed, so the legend and the ledger cannot disagree)
VERDICT_MEANING = {
    "confirmed": "the claim holds as the paper states it: its check passed, its interval lies "
                 "on the claimed side of the bar, or (about a trained model) the interval of "
                 "the fraction of training seeds that satisfy it lies above one half",
    "qualified": "the check passed only for a narrower statement than the paper's (smaller "
                 "sizes, a substitute method, a corrected reading); the evidence says which",
    "refuted": "the claim fails: a counterexample, an interval wholly on the wrong side of the "
               "bar, or (about a trained model) the fraction of seeds that satisfy it lies "
               "below one half",
    "seed-dependent": "a claim about a trained model that some training seeds satisfy and "
                      "others fail, with one half inside the interval of the fraction that "
                      "holds: whether it holds depends on the seed",
    "undecided": "a claim about a trained model the seeds do not decide: too few seeds, or "
                 "seeds undecided on their own graphs (more seeds or graphs would decide)",
    "inconclusive": "a claim not about training seeds whose interval straddles its bar: more "
                    "samples would decide",
    "uninformative": "a trivial solver already meets the claim's bar at every point, so the "
                     "bar cannot tell a good method from a trivial one",
    "not-reproduced": "our re-implementation fails the claim, but a choice the paper leaves "
                      "unstated could decide it, or we cannot run what the paper ran",
    "pending": "the check waits for an artefact not produced yet (a model still training)",
    "recorded": "a reading of the paper, a definition or a measurement: listed, not tested",
}
#: the summary's groups, in order, with their headings
GROUPS = {"experiments": "Experiments", "theory": "Theory",
          "setup": "Setup, definitions and prior work"}
#: the longest one-line claim the summary shows
SHORT_MAX = 80


def anchor(claim_id: str) -> str:
    """The HTML anchor of a claim's evidence section (ids may hold dots, which GitHub drops
    from heading anchors, so an explicit one)."""
    return "claim-" + claim_id.replace(".", "-")


def ours_text(claim: dict, derived: dict) -> str:
    """The summary's "ours" cell: the ledger's ``ours`` with json placeholders filled."""
    return evidence_text({**claim, "evidence": claim.get("ours", "")}, derived)


def legend(words) -> list[str]:
    """The legend lines for the verdict words in use, in :data:`VERDICTS` order."""
    return [f"| **{v}** | {VERDICT_MEANING[v]} |" for v in VERDICTS if v in set(words)]


def _decided_by(claim: dict) -> str:
    chk = claim["check"]
    if chk.startswith("json:"):
        name, key = chk[len("json:"):].split("#", 1)
        script = name.rsplit("/", 1)[-1]
        tests = ", ".join(f"`{t}`" for t in claim.get("rule_test", "").split())
        return (f"`derive_verdicts` of `reproduce/{script}.py` on `paper_figures/{name}.json` "
                f"(key `{key}`); the rule's tests: {tests}")
    if chk.startswith("pytest:"):
        return "the tests " + ", ".join(f"`{t}`" for t in chk[len("pytest:"):].split())
    return "nothing: not tested"


def render(claims: list[dict], derived: dict) -> str:
    """CLAIMS.md: legend, one summary line per claim by group in paper order, then one
    evidence section per claim (anchored) naming the rule that decided it."""
    in_use = [c["verdict"] for c in claims]
    counts = {v: in_use.count(v) for v in VERDICTS if v in in_use}
    lines = [
        "# Claims ledger",
        "",
        "Generated by `python reproduce/claims.py` from `reproduce/claims.toml`; do not edit.",
        "Paper: Graph2Seq: Scalable Learning Dynamics for Graphs, arXiv:1802.04948.",
        "A verdict is what our check found, not what the paper says; `python reproduce/claims.py "
        "--check` re-derives every checked verdict (CI runs it).",
        "",
        "| verdict | meaning |", "|---|---|", *legend(in_use),
        "",
        f"{len(claims)} claims: " + ", ".join(f"{k} {v}" for v, k in counts.items()) + ".",
    ]
    for group, title in GROUPS.items():
        members = [c for c in claims if c.get("group") == group]
        if not members:
            continue
        lines += ["", f"## {title}", "", "| claim | paper | ours | verdict |", "|---|---|---|---|"]
        for c in members:
            lines.append("| " + " | ".join(_cell(x) for x in (
                f"[{c['id']}](#{anchor(c['id'])}): {c.get('short', '')}", c["paper_value"],
                ours_text(c, derived.get(c["id"], {})), f"**{c['verdict']}**")) + " |")
    lines += ["", "## Evidence, claim by claim", ""]
    for c in claims:
        lines += [f'<a id="{anchor(c["id"])}"></a>', f"### {c['id']}", "",
                  f"*{c['where']}* ({GROUPS.get(c.get('group'), '?').lower()})", "",
                  f"**Claim.** {c['statement']}", ""]
        if c["paper_value"]:
            lines += [f"**Paper's value.** {c['paper_value']}", ""]
        lines += [f"**Verdict: {c['verdict']}.** {evidence_text(c, derived.get(c['id'], {}))}", ""]
        if c["tolerance"]:
            lines += [f"**Rule.** {c['tolerance']}", ""]
        lines += [f"**Decided by** {_decided_by(c)}.", ""]
        if c.get("variants"):
            lines += ["**Variants.** " + ", ".join(f"[{v}](#{anchor(v)})" for v in c["variants"]),
                      ""]
    return "\n".join(lines).rstrip("\n") + "\n"


#: RESULTS.md's sections in the paper's order: the figure JSON (``paper_figures/NAME.json``,
#: with variant runs ``DIR/NAME``), the paper's figure or table, and what the paper shows there
FIGURES = (
    ("figure2", "Figure 2(a)", "MVC approximation ratio against graph size (25 to 3,200 "
     "vertices) for models trained on small ER and bipartite graphs: G2S-RNN scales, the "
     "other networks do not on at least one type."),
    ("figure2_scale/figure2", "Figure 2(a), largest sizes", "The same curves at 800 to 3,200 "
     "vertices, three graphs per size (the scale profile)."),
    ("figure2b", "Figure 2(b), table", "MVC cover sizes on sparse ER and bipartite graphs of "
     "10,000 and 25,000 vertices: G2S-RNN's cover is at least 100 vertices smaller than "
     "Structure2Vec's."),
    ("figure3", "Figure 3", "Generalization across graph types: a G2S-RNN model trained on ER "
     "is within 10% of optimal on every test family, the baselines are not."),
    ("figure3_early20k/figure3", "Figure 3, shorter training", "The same with the early "
     "(20,000-iteration) weights: a training length the paper does not state."),
    ("figure4", "Figure 4", "Max cut and maximum independent set: G2S-RNN within 4% (max cut) "
     "and 10% (MIS) of the reference and better than the heuristics."),
    ("figure4_early20k/figure4", "Figure 4, shorter training", "The same with the early "
     "weights."),
    ("timed_program", "Section 5, the reference", "The paper's yardstick: Gurobi with a 240 s "
     "cut-off. How far a timed 0/1 program is from the best known solution."),
    ("theorem1", "Theorem 1", "Directed information recovers the graph of a causal dynamical "
     "system from its time series."),
    ("figure5", "Figure 5, Theorem 2", "The proof's construction: any fixed-depth local-gather "
     "algorithm fails on some graph where an unbounded sequence succeeds."),
    ("figure6", "Figure 6", "Training on adversarial (planted-cover) graphs improves "
     "scalability and generalization."),
    ("appendix_d3", "Figures 7 and 8, Appendix D.3", "The trained model's internal dynamics: "
     "dimension collapse, principal components, the best depth, latching."),
)


def render_results(claims: list[dict], derived: dict, present) -> str:
    """RESULTS.md: per figure of the paper, what it claims, our figure (``present(name)``:
    whether ``paper_figures/NAME.png`` exists) and the claims its JSON decides, in plain
    words (the summary's ``ours`` and the verdict's meaning)."""
    lines = ["# Results, figure by figure", "",
             "Generated by `python reproduce/claims.py` from the committed figure JSONs and the "
             "claims ledger; do not edit. Each figure is regenerated by `python reproduce/"
             "NAME.py --profile paper`; [CLAIMS.md](CLAIMS.md) has every claim with its full "
             "evidence and the rule that decided it.", ""]
    for name, where, what in FIGURES:
        decided = [c for c in claims
                   if c["check"].startswith(f"json:{name}#")]
        lines += [f"## {where}", "", f"**The paper:** {what}", ""]
        if present(name):
            lines += [f"![{where}: our figure](paper_figures/{name}.png)", ""]
        else:
            lines += [f"*Our figure is not generated yet (`paper_figures/{name}.png`).*", ""]
        for c in decided:
            ours = ours_text(c, derived.get(c["id"], {}))
            lines.append(f"- **{c['verdict']}**: {c['short']}"
                         + (f" -- ours: {ours}" if ours else "")
                         + f" ([{c['id']}](CLAIMS.md#{anchor(c['id'])}))")
        if decided:
            lines.append("")
    lines += ["## What the verdict words mean", "", "| verdict | meaning |", "|---|---|",
              *legend([c["verdict"] for c in claims])]
    return "\n".join(lines).rstrip("\n") + "\n"


#: the README's five headline findings: the paper's central claims (scaling to 3,200 and to
#: 25,000 vertices, generalization across graph types, the three problems, state of the art),
#: shown whatever their verdict
README_FINDINGS = ("intro-scale-3200", "intro-25k", "fig3-g2s-within-10pct",
                   "intro-three-problems", "abs-sota")
#: the README block the findings replace (kept between these two lines)
FINDINGS_START = ("<!-- findings: generated by python reproduce/claims.py from the ledger; "
                  "do not edit -->")
FINDINGS_END = "<!-- /findings -->"


def render_findings(claims: list[dict], derived: dict, ids=README_FINDINGS) -> str:
    """The README's "What we found": the verdict counts and the claims ``ids`` (default
    :data:`README_FINDINGS`), each with our value and a link to its evidence."""
    by_id = {c["id"]: c for c in claims}
    in_use = [c["verdict"] for c in claims]
    counts = ", ".join(f"{in_use.count(v)} {v}" for v in VERDICTS if v in in_use)
    lines = [FINDINGS_START, f"Of the paper's {len(claims)} claims in our ledger: {counts}.", "",
             "| the paper says | verdict | ours |", "|---|---|---|"]
    for cid in ids:
        c = by_id[cid]
        lines.append("| " + " | ".join(_cell(x) for x in (
            f"[{c['short']}](CLAIMS.md#{anchor(cid)})", f"**{c['verdict']}**",
            ours_text(c, derived.get(cid, {})))) + " |")
    return "\n".join([*lines, FINDINGS_END])


def with_findings(readme: str, block: str) -> str:
    """``readme`` with the text between the findings markers replaced by ``block``."""
    start, end = readme.find(FINDINGS_START), readme.find(FINDINGS_END)
    if start < 0 or end < start:
        raise ValueError("README.md has no findings markers")
    return readme[:start] + block + readme[end + len(FINDINGS_END):]
