"""Rendering of the claims ledger (:mod:`reproduce.claims`): a claim's evidence with its
``{field}`` placeholders filled from the derived verdict, the checks on that text (unrenderable
fields, count grammar such as "1 seeds"), and the pages: CLAIMS.md (a summary read in two
minutes), one page per area with every claim's evidence, rule and rule history
(:data:`AREA_PAGES`), RESULTS.md and the README's findings.  Every page shows a claim through
one function, :func:`claim_line`, so the same claim reads the same everywhere."""

from __future__ import annotations

import posixpath
import re

from reproduce.common import VERDICTS as DERIVED_VERDICTS
from reproduce.harness.verdicts.recipes import ROBUSTNESS_MEANING

__all__ = ["VERDICTS", "VERDICT_MEANING", "GROUPS", "AREA_PAGES", "SHORT_MAX", "COUNT_NOUNS",
           "anchor", "claim_href", "claim_line", "standing", "evidence_text",
           "evidence_problems", "legend", "ours_text", "render", "render_area", "render_pages",
           "FIGURES", "render_results", "README_FINDINGS", "render_findings", "with_findings",
           "revised_after_data", "word_count", "SUMMARY_MAX_WORDS", "RECIPES_PAGE",
           "render_recipes"]

#: every ledger verdict (``recorded``: a reading or a measurement, not a tested verdict)
VERDICTS = DERIVED_VERDICTS


def evidence_text(claim: dict, derived: dict, recipes: bool = True) -> str:
    """The evidence as the area pages show it: json-check evidence with its ``{field}``
    filled, and (``recipes``) the claim's verdict under every training recipe appended."""
    if not claim["check"].startswith("json:"):
        return claim["evidence"]
    try:
        text = claim["evidence"].format(**{k: _fmt(v) for k, v in derived.items()})
    except (KeyError, IndexError, ValueError) as exc:
        return f"{claim['evidence']} [evidence field missing: {exc}]"
    return text + (recipe_text(derived) if recipes else "")


def recipe_text(derived: dict) -> str:
    """A claim about a trained model, under every training recipe (derived by
    :func:`reproduce.harness.verdicts.recipes.with_recipes`): its verdict per recipe and the
    robustness word, appended to its evidence; empty for any other claim."""
    if "robustness" not in derived:
        return ""
    why = derived.get("why_not_reproduced")
    return (f" Training recipes (docs/training.md): {derived['by_recipe']}; "
            f"{derived['robustness']}: {derived['robustness_note']}."
            + (f" Not reproduced: {why}." if why else ""))


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
    "recorded": "a reading of the paper, a definition, a conformance check of our setup or a "
                "measurement (a variant with too few seeds to decide): listed, not a verdict "
                "on the paper",
}
#: the summary's groups, in order, with their headings
GROUPS = {"experiments": "Experiments", "theory": "Theory",
          "setup": "Setup, definitions and prior work"}
#: the longest one-line claim the summary shows
SHORT_MAX = 80


#: where each area's claims live with their full evidence (paths from the repository root)
AREA_PAGES = {"experiments": "docs/claims/experiments.md", "theory": "docs/claims/theory.md",
              "setup": "docs/claims/setup.md"}
#: every claim about a trained model under every training recipe, with its robustness word
RECIPES_PAGE = "docs/claims/recipes.md"
#: the summary (CLAIMS.md) is read in two minutes: at most this many words
SUMMARY_MAX_WORDS = 600


def anchor(claim_id: str) -> str:
    """The HTML anchor of a claim's evidence section (ids may hold dots, which GitHub drops
    from heading anchors, so an explicit one)."""
    return "claim-" + claim_id.replace(".", "-")


def claim_href(claim: dict, here: str = "") -> str:
    """The link to a claim's evidence from the page ``here`` (a path from the repository
    root; ``""``: a page at the root)."""
    page = AREA_PAGES[claim["group"]]
    if here == page:
        return f"#{anchor(claim['id'])}"
    rel = posixpath.relpath(page, posixpath.dirname(here) or ".")
    return f"{rel}#{anchor(claim['id'])}"


def ours_text(claim: dict, derived: dict) -> str:
    """The summary's "ours": the ledger's ``ours`` with json placeholders filled (the recipes
    stay in the evidence)."""
    return evidence_text({**claim, "evidence": claim.get("ours", "")}, derived, recipes=False)


def revised_after_data(claim: dict) -> list[str]:
    """The commits of the rule revisions made after the data the claim decides had been seen
    (its ``rule_history`` entries with ``data_seen``)."""
    return [r["commit"] for r in claim.get("rule_history", []) if r.get("data_seen")]


def claim_line(claim: dict, derived: dict, here: str = "") -> str:
    """A claim as every page shows it (README, RESULTS.md, CLAIMS.md and its area page): the
    verdict, the claim in a line, our value, whether its rule was revised after its data, and
    the link to its evidence (relative to ``here``)."""
    ours = ours_text(claim, derived)
    late = revised_after_data(claim)
    times = f" {len(late)}x" if len(late) > 1 else ""
    return (f"**{claim['verdict']}**: {claim['short']}" + (f" -- ours: {ours}" if ours else "")
            + (f" (rule revised{times} after its data, last {late[-1][:7]})" if late else "")
            + f" ([{claim['id']}]({claim_href(claim, here)}))")


def legend(words) -> list[str]:
    """The legend lines for the verdict words in use, in :data:`VERDICTS` order."""
    return [f"| **{v}** | {VERDICT_MEANING[v]} |" for v in VERDICTS if v in set(words)]


def _counts(claims) -> str:
    in_use = [c["verdict"] for c in claims]
    return ", ".join(f"{in_use.count(v)} {v}" for v in VERDICTS if v in in_use)


def standing(claims: list[dict]) -> str:
    """How many of the paper's experimental claims are confirmed, and where the confirmed
    verdicts are: counted from the ledger, for the README and the summary alike."""
    exp = [c for c in claims if c["group"] == "experiments"]
    tested = [c for c in exp if c["verdict"] != "recorded"]
    confirmed = [c for c in exp if c["verdict"] == "confirmed"]
    elsewhere = [c for c in claims if c["verdict"] == "confirmed" and c["group"] != "experiments"]
    by_group = " and ".join(f"{GROUPS[g].lower()} ({sum(c['group'] == g for c in elsewhere)})"
                            for g in GROUPS if g != "experiments"
                            and any(c["group"] == g for c in elsewhere))
    head = ("None" if not confirmed else f"{len(confirmed)}") + \
        f" of the paper's {len(exp)} experimental claims " + \
        ("is" if len(confirmed) == 1 or not confirmed else "are") + " confirmed"
    return (f"**{head}** ({len(tested)} tested, {len(exp) - len(tested)} recorded: "
            "measurements, conformance checks, variants with too few seeds). "
            + (f"The {len(elsewhere)} confirmed verdicts are {by_group}." if elsewhere
               and not confirmed else f"The other {len(elsewhere)} confirmed verdicts are "
               f"{by_group}." if elsewhere else ""))


def word_count(markdown: str) -> int:
    """Words a reader reads on a Markdown page: link targets, table rules and markup left out."""
    text = re.sub(r"\]\([^)]*\)", "]", markdown)
    text = re.sub(r"<[^>]+>|[|*`#\[\]_-]{2,}|[|*`#\[\]]", " ", text)
    return len(re.findall(r"[\w.,'/^+=<>()-]*\w[\w.,'/^+=<>()-]*", text))


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


def _history(claim: dict) -> list[str]:
    rows = claim.get("rule_history", [])
    if not rows:
        return []
    return ["**Rule history** (each revision of the decision rule, oldest first; *after its "
            "data*: the data the claim decides today had been seen):", "",
            *(f"- `{r['commit']}`, {'*after its data*' if r['data_seen'] else 'before its data'}"
              f": {r['change']}" for r in rows), ""]


def render_area(claims: list[dict], derived: dict, group: str) -> str:
    """An area's page (:data:`AREA_PAGES`): its claims in paper order, one line each, then
    one evidence section per claim (anchored) with its rule, rule history and deciding check."""
    here = AREA_PAGES[group]
    members = [c for c in claims if c["group"] == group]
    lines = [f"# Claims ledger: {GROUPS[group]}", "",
             "Generated by `python reproduce/claims.py` from `reproduce/claims.toml`; do not "
             f"edit. The summary of every area is [CLAIMS.md]"
             f"({posixpath.relpath('CLAIMS.md', posixpath.dirname(here))}).", "",
             f"{len(members)} claims: {_counts(members)}.", "",
             *(f"- {claim_line(c, derived.get(c['id'], {}), here)}" for c in members),
             "", "## Evidence, claim by claim", ""]
    for c in members:
        d = derived.get(c["id"], {})
        lines += [f'<a id="{anchor(c["id"])}"></a>', f"### {c['id']}", "",
                  f"*{c['where']}*", "", f"**Claim.** {c['statement']}", ""]
        if c["paper_value"]:
            lines += [f"**Paper's value.** {c['paper_value']}", ""]
        lines += [f"**Verdict: {c['verdict']}.** {evidence_text(c, d)}", ""]
        if c["tolerance"]:
            lines += [f"**Rule.** {c['tolerance']}", ""]
        lines += _history(c)
        lines += [f"**Decided by** {_decided_by(c)}.", ""]
        if c.get("variants"):
            by_id = {x["id"]: x for x in claims}
            lines += ["**Variants.** " + ", ".join(f"[{v}]({claim_href(by_id[v], here)})"
                                                   for v in c["variants"]), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def render(claims: list[dict], derived: dict, headline=None) -> str:
    """CLAIMS.md, the summary a reader finishes in two minutes: where the experimental claims
    stand, the counts per area, the headline claims (:data:`README_FINDINGS`), the links to
    the area pages and the legend of the words in use."""
    headline = README_FINDINGS if headline is None else headline
    by_id = {c["id"]: c for c in claims}
    late = [c for c in claims if revised_after_data(c)]
    lines = [
        "# Claims ledger", "",
        "Generated by `python reproduce/claims.py` from `reproduce/claims.toml`; do not edit. "
        "Paper: Graph2Seq (arXiv:1802.04948). A verdict is what our check found, not what the "
        "paper says; CI re-derives each (`claims.py --check`).", "",
        standing(claims), "",
        f"{len(claims)} claims: {_counts(claims)}.", "",
        "## The headline claims", "",
        *(f"- {claim_line(by_id[cid], derived.get(cid, {}))}" for cid in headline
          if cid in by_id), "",
        "## Every claim, by area", "",
        "Each page has every claim's evidence, rule, rule history and check.", "",
    ]
    for group, title in GROUPS.items():
        members = [c for c in claims if c["group"] == group]
        if members:
            lines.append(f"- [{title}]({AREA_PAGES[group]}): {_counts(members)}")
    trained = [derived[c["id"]]["robustness"] for c in claims
               if "robustness" in derived.get(c["id"], {})]
    if trained:
        lines.append(f"- [Trained-model claims by training recipe]({RECIPES_PAGE}): "
                     + ", ".join(f"{trained.count(w)} {w}" for w in ROBUSTNESS_MEANING
                                 if w in trained))
    lines += ["", f"{len(late)} of the {len(claims)} claims have a rule revised after their "
              "data had been seen; their lines say so.", "",
              "## What the verdict words mean", "", "| verdict | meaning |", "|---|---|",
              *legend([c["verdict"] for c in claims])]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_recipes(claims: list[dict], derived: dict) -> str:
    """The recipes page (:data:`RECIPES_PAGE`): every claim about a trained model, its verdict
    under the shipped recipe, under each other recipe trained for its models, and its
    robustness word (:func:`reproduce.harness.verdicts.recipes.with_recipes`), with the legend
    of those words."""
    here = RECIPES_PAGE
    rows = [(c, derived[c["id"]]) for c in claims if "robustness" in derived.get(c["id"], {})]
    words = [d["robustness"] for _, d in rows]
    training = posixpath.relpath("docs/training.md", posixpath.dirname(here))
    lines = ["# Claims ledger: claims about a trained model, by training recipe", "",
             "Generated by `python reproduce/claims.py` from `reproduce/claims.toml`; do not "
             f"edit. The summary of every area is [CLAIMS.md]"
             f"({posixpath.relpath('CLAIMS.md', posixpath.dirname(here))}).", "",
             "Each claim about a trained G2S-RNN is decided by its own rule under the shipped "
             "recipe (paper) and under every other reading of the paper's training recipe "
             f"trained for its models ([the recipes and every element of them]({training}): "
             "A' a validation that can see, B the depth T varied in training, C B with a "
             "target network). The diagnostic beyond the paper (D, training sizes varied) and "
             "the untrained null are shown, never counted in the robustness word; a claim "
             "refuted under paper and confirmed under a reading the paper allows reads "
             "not-reproduced. After each word, where the claim's rule gives them: how many of "
             "the recipe's seeds hold (k of n; pairs of seeds for a comparison of two trained "
             "models, as the claim's evidence says) and the 95% Wilson interval on the "
             "fraction that hold (the seed rule, docs/reproducing.md); for a claim of several "
             "parts, each part's; for a claim over comparisons, how they were decided.", "",
             f"{len(rows)} claims: " + ", ".join(f"{words.count(w)} {w}"
                                                for w in ROBUSTNESS_MEANING if w in words)
             + ".", "",
             "| robustness | meaning |", "|---|---|",
             *(f"| **{w}** | {m} |" for w, m in ROBUSTNESS_MEANING.items() if w in words), "",
             "| claim | verdict | under each recipe | robustness |", "|---|---|---|---|",
             *(f"| [{c['id']}]({claim_href(c, here)}) | {c['verdict']} | "
               f"{d.get('by_recipe_seeds', d['by_recipe'])} | "
               f"**{d['robustness']}**: {d['robustness_note']} |" for c, d in rows)]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_pages(claims: list[dict], derived: dict) -> dict[str, str]:
    """Every ledger page by its path from the repository root: CLAIMS.md, the area pages and
    the recipes page."""
    pages = {"CLAIMS.md": render(claims, derived)}
    for group, path in AREA_PAGES.items():
        if any(c["group"] == group for c in claims):
            pages[path] = render_area(claims, derived, group)
    if any("robustness" in derived.get(c["id"], {}) for c in claims):
        pages[RECIPES_PAGE] = render_recipes(claims, derived)
    return pages


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
    ("figure3", "Figure 3", "Generalization across graph types: 'In general, G2S-RNN has a "
     "performance that is within 10% of the optimal, across the range of graph types and "
     "sizes considered' (Section 5.1), for a model trained on ER; the other networks are "
     "inconsistent."),
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
    whether ``paper_figures/NAME.png`` exists) and the claims its JSON decides, each by
    :func:`claim_line`."""
    lines = ["# Results, figure by figure", "",
             "Generated by `python reproduce/claims.py` from the committed figure JSONs and the "
             "claims ledger; do not edit. Each figure is regenerated by `python reproduce/"
             "NAME.py --profile paper`; [CLAIMS.md](CLAIMS.md) summarises every claim and links "
             "its full evidence and the rule that decided it.", ""]
    for name, where, what in FIGURES:
        decided = [c for c in claims
                   if c["check"].startswith(f"json:{name}#")]
        lines += [f"## {where}", "", f"**The paper:** {what}", ""]
        if present(name):
            lines += [f"![{where}: our figure](paper_figures/{name}.png)", ""]
        else:
            lines += [f"*Our figure is not generated yet (`paper_figures/{name}.png`).*", ""]
        lines += [f"- {claim_line(c, derived.get(c['id'], {}))}" for c in decided]
        if decided:
            lines.append("")
    lines += ["## What the verdict words mean", "", "| verdict | meaning |", "|---|---|",
              *legend([c["verdict"] for c in claims])]
    return "\n".join(lines).rstrip("\n") + "\n"


#: the README's five headline findings (and the summary's): the paper's central claims
#: (scaling to 3,200 and to 25,000 vertices, generalization across graph types, the three
#: problems, state of the art), shown whatever their verdict
README_FINDINGS = ("intro-scale-3200", "intro-25k", "fig3-g2s-within-10pct",
                   "intro-three-problems", "abs-sota")
#: the README block the findings replace (kept between these two lines)
FINDINGS_START = ("<!-- findings: generated by python reproduce/claims.py from the ledger; "
                  "do not edit -->")
FINDINGS_END = "<!-- /findings -->"


def render_findings(claims: list[dict], derived: dict, ids=README_FINDINGS) -> str:
    """The README's "What we found": where the experimental claims stand, the verdict counts,
    the claims ``ids`` (default :data:`README_FINDINGS`) by :func:`claim_line`, and the
    legend of the words in use."""
    by_id = {c["id"]: c for c in claims}
    lines = [FINDINGS_START, standing(claims), "",
             f"Of the paper's {len(claims)} claims in our ledger: {_counts(claims)}.", "",
             *(f"- {claim_line(by_id[cid], derived.get(cid, {}))}" for cid in ids), "",
             "| verdict | meaning |", "|---|---|", *legend([c["verdict"] for c in claims])]
    return "\n".join([*lines, FINDINGS_END])


def with_findings(readme: str, block: str) -> str:
    """``readme`` with the text between the findings markers replaced by ``block``."""
    start, end = readme.find(FINDINGS_START), readme.find(FINDINGS_END)
    if start < 0 or end < start:
        raise ValueError("README.md has no findings markers")
    return readme[:start] + block + readme[end + len(FINDINGS_END):]
