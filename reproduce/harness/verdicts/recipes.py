"""Claims about a trained model under every training recipe, one word on robustness, and
the learning null ("training beats the untrained model").

Written and committed before any variant recipe's evaluation data existed (the rule comes
first; a revision after seeing data must say so here and in the claim's rule history).

A figure JSON holds G2S-RNN's results per recipe (:data:`g2s.rl.recipes.RECIPES`) under
``g2s_rnn_sK`` (the shipped recipe, ``paper``) and ``g2s_rnn_{recipe}_sK`` (the others).
:func:`recipe_view` turns a JSON into the one a figure would have written had recipe r been
the shipped one (its keys renamed to ``g2s_rnn...``), so every claim's own rule decides it under
every recipe with no rule knowing about recipes.  Then, per claim about a trained model
(:func:`with_recipes`):

* ``by_recipe``: the claim's verdict word under each recipe with data (``pending`` while a
  recipe has fewer evaluated seeds than its training target; ``untrained`` is the learning
  null, shown, never part of the robustness word, and left out of a claim that reads only
  graphs it is not run on);
* ``by_recipe_seeds``: the same, each decided word with the rule's own count of seeds that
  hold and its interval on the fraction (``C seed-dependent (4 of 5 hold [0.38, 0.96])``),
  so a reader sees how much each reading's word rests on; only what the rule derived is shown
  (a display of the rule's output: no word depends on it);
* ``robustness``: **recipe-robust** when the verdict is the same under every reading of the
  paper's recipe trained for the claim's models (:data:`g2s.rl.recipes.PAPER_READINGS`: the
  shipped one and the variants the paper allows, each complete); **recipe-sensitive** when
  some reading changes it (the evidence names which, and what it becomes); **pending** while
  a reading has no complete evaluation; **untested** when no variant of the model was trained;
  the diagnostic beyond the paper (``sizes``) is shown, never counted;
* the headline word stays the shipped recipe's, except that a claim refuted under it and
  confirmed under a reading the paper allows is **not-reproduced** (the paper's recipe can
  satisfy it; ours did not), with that reason.

Revised after Figure 4's variant data existed (no verdict word under any recipe changed with
it): a JSON made from other weights than the shipped ones (its ``checkpoint_dir``: the
early-stopped weights, three seeds of the paper's recipe and no variant) has no training
target, so it is judged by the recipes and seeds it holds; its claims read **untested**
instead of a ``pending`` that no training could resolve.

Revised before any variant's cover at 25,000 vertices existed (found on hand-made data; no
verdict word on the committed data changed with it): a recipe is judged on its target's seeds
alone.  Before, Figure 2(b)'s claims about both families' models read C with the ten seeds of
its sparse-ER model, five of which have no bipartite model: every C seed failing at 25,000
vertices would have read "undecided, 0 of 10" instead of "refuted, 0 of 5".

Extended before any variant's cover on Figure 2(b)'s graphs existed: a figure that runs the
variants on fewer seeds at some sizes passes which records each claim reads (``reads``), and a
variant decides such a claim only with its target's number of seeds on every one of them
(:func:`with_recipes`).

The learning null (:func:`null_claim`): each trained seed s is paired with the untrained
initialisation s it started from; over every graph of the figure both ran, the paired
per-graph differences (trained minus untrained ratio; lower is better) give a percentile
bootstrap interval of their mean (:func:`reproduce.harness.verdicts.seeds.seed_decision`, one
point, bar 0, strict, with its borderline rule): the seed **holds** (training helped) when the
95% interval lies below 0, **fails** (the untrained model did better) when it lies above,
else undecided; then :func:`~reproduce.harness.verdicts.seeds.seeds_verdict` over the pairs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from g2s.rl.recipes import PAPER, PAPER_READINGS, RECIPES, UNTRAINED
from reproduce.harness.verdicts.records import seed_label
from reproduce.harness.verdicts.seeds import (
    combined_verdict,
    fraction_text,
    reachable_text,
    seed_decision,
    seeds_verdict,
)

__all__ = ["ENCODER", "NULL_CLAIM_SUFFIX", "ROBUSTNESS_MEANING", "model_name", "recipe_of_key",
           "recipe_view",
           "recipes_in", "seeds_text", "with_recipes", "null_claim", "null_parts", "robustness"]

#: the robustness words :func:`robustness` gives, each with its one meaning (the ledger's
#: recipes page shows them as its legend)
ROBUSTNESS_MEANING = {
    "recipe-robust": "the same verdict under the shipped recipe and under every other reading "
                     "of the paper's training recipe trained for the claim's models: the "
                     "verdict belongs to the method, not to one reading of its recipe",
    "recipe-sensitive": "some reading the paper allows changes the verdict (the note names "
                        "which, and what it becomes)",
    "pending": "a reading trained for the claim's models is not evaluated on all its seeds yet",
    "untested": "no other reading of the recipe was trained for the claim's models",
}

ENCODER = "g2s_rnn"
#: every learning-null claim's id ends so (``fig3-training-beats-untrained``): its verdict under
#: the untrained "recipe" would compare the untrained model with itself, so its ``by_recipe``
#: leaves that entry out
NULL_CLAIM_SUFFIX = "-training-beats-untrained"
_KEY = re.compile(rf"^{ENCODER}(?:_(?!s\d+$)(?P<recipe>[a-z][a-z0-9]*?))?(?:_s(?P<seed>\d+))?$")


def model_name(recipe: str) -> str:
    """The result key prefix of G2S-RNN under ``recipe`` (``g2s_rnn`` for the shipped one)."""
    return ENCODER if recipe == PAPER else f"{ENCODER}_{recipe}"


def recipe_of_key(key: str) -> str | None:
    """The recipe of a G2S-RNN result key (``g2s_rnn_s3`` -> paper, ``g2s_rnn_tvaried_s3`` ->
    tvaried), None for any other key."""
    m = _KEY.match(key)
    if not m:
        return None
    r = m["recipe"] or PAPER
    return r if r in RECIPES else None


def _seed_of_key(key: str, bare_seed: int | None) -> int | None:
    """The training seed of a G2S-RNN result key (``bare_seed`` for a bare name)."""
    m = _KEY.match(key)
    return bare_seed if m is None or m["seed"] is None else int(m["seed"])


def _rename(obj, recipe: str, keep: Callable[[str], bool]):
    """``obj`` with every dict key of ``recipe``'s G2S-RNN that ``keep`` accepts renamed to the
    shipped recipe's, and every other G2S-RNN key of another recipe (or refused) dropped
    (recursively); other keys untouched."""
    if isinstance(obj, Mapping):
        out = {}
        for k, v in obj.items():
            r = recipe_of_key(k) if isinstance(k, str) else None
            if r is None:
                out[k] = _rename(v, recipe, keep)
            elif r == recipe and keep(k):
                prefix = model_name(recipe)
                out[ENCODER + k[len(prefix):]] = _rename(v, recipe, keep)
        # the untrained null stays under its own name in every view (the null claim reads it)
        if recipe != UNTRAINED:
            out.update({k: _rename(v, recipe, keep) for k, v in obj.items()
                        if isinstance(k, str) and recipe_of_key(k) == UNTRAINED})
        return out
    if isinstance(obj, list):
        return [_rename(v, recipe, keep) for v in obj]
    return obj


def recipe_view(result: dict, recipe: str, seeds: Iterable[int] | None = None, *,
                bare_seed: int | None = None) -> dict:
    """The JSON as if ``recipe`` were the shipped recipe (module docstring).  ``seeds``: keep
    only these training seeds of the recipe (its target: the seeds trained for every model the
    claims read), so that a seed trained for one family's model alone never enters a claim
    about both families' models as a seed that can never be decided.  A bare name is seed
    ``bare_seed``, or (None) a mean over seeds, kept as it is."""
    if recipe == PAPER and seeds is None:
        return result
    wanted = None if seeds is None else set(seeds)

    def keep(key: str) -> bool:
        s = _seed_of_key(key, bare_seed)
        return wanted is None or s is None or s in wanted
    return _rename(result, recipe, keep)


def _record_groups(result: dict) -> list[list]:
    """The JSON's instance records, one list per group (a figure of several problems keeps
    one list of records per problem)."""
    inst = result.get("instances", [])
    return [g for g in (inst.values() if isinstance(inst, Mapping) else [inst]) if g]


def _record_seeds(rec: Mapping, bare_seed: int | None) -> dict[str, set]:
    """``{recipe: seeds}`` of G2S-RNN with results in one instance record (``bare_seed``: as
    :func:`recipes_in`)."""
    found: dict[str, set] = {}
    for k in rec.get("results", {}):
        r = recipe_of_key(k)
        seed = None if r is None else _seed_of_key(k, bare_seed)
        if seed is not None:
            found.setdefault(r, set()).add(seed)
    return found


def recipes_in(result: dict, bare_seed: int | None = None) -> dict[str, list[int]]:
    """``{recipe: seeds}`` of G2S-RNN with results in the JSON's instance records; with
    several groups of records (problems), the seeds every group with G2S-RNN results has.
    A bare name (``g2s_rnn``, ``g2s_rnn_target``) is a seed mean on the grids, no seed; a
    figure whose bare name is one seed's result (Figure 2(b): seed 0) passes ``bare_seed``."""
    per_group = []
    for group in _record_groups(result):
        found: dict[str, set] = {}
        for rec in group:
            for r, seeds in _record_seeds(rec, bare_seed).items():
                found.setdefault(r, set()).update(seeds)
        if found:
            per_group.append(found)
    out = {}
    for r in RECIPES:
        sets = [g.get(r, set()) for g in per_group]
        if sets and set.intersection(*sets):
            out[r] = sorted(set.intersection(*sets))
    return out


def robustness(by_recipe: Mapping[str, str],
               readings: Iterable[str] = PAPER_READINGS) -> tuple[str, str]:
    """``(word, note)`` from the verdict words under each recipe (module docstring);
    ``readings``: the readings of the paper's recipe trained for this claim's models."""
    readings = [r for r in PAPER_READINGS if r != PAPER and r in tuple(readings)]
    if not readings:
        return "untested", "no variant of this model's recipe was trained"
    missing = [RECIPES[r].label for r in readings if by_recipe.get(r, "pending") == "pending"]
    base = by_recipe.get(PAPER)
    changed = [f"{RECIPES[r].label} {by_recipe[r]}" for r in readings
               if by_recipe.get(r, "pending") not in ("pending", base)]
    if changed:
        return "recipe-sensitive", (f"the shipped recipe gives {base}; " + ", ".join(changed)
                                    + (f" (pending: {', '.join(missing)})" if missing else ""))
    if missing:
        return "pending", f"no complete evaluation yet under {', '.join(missing)}"
    return "recipe-robust", f"{base} under every reading of the recipe"


def _seeds_on(result: dict, recipe: str, reads: Callable[[Mapping], bool],
              bare_seed: int | None) -> set:
    """The seeds of ``recipe`` with a result on every instance record ``reads`` selects (none
    when it selects no record)."""
    sets = [_record_seeds(rec, bare_seed).get(recipe, set())
            for group in _record_groups(result) for rec in group if reads(rec)]
    return set.intersection(*sets) if sets else set()


def _count(k, iv) -> str:
    """``4 of 5 hold [0.38, 0.96]`` from a rule's ``k_of_n`` and ``fraction_interval`` (a
    pair, or the text a rule wrote), each part only where given.  What holds (a seed, or a
    pair of seeds for a comparison of two trained models) is the rule's: its evidence says."""
    parts = []
    if isinstance(k, str) and k and k != "0 of 0":
        parts.append(f"{k} hold" if re.fullmatch(r"\d+ of \d+", k) else k)
    if isinstance(iv, (list, tuple)) and len(iv) == 2 and all(
            isinstance(x, (int, float)) for x in iv):
        parts.append(fraction_text({"fraction_interval": iv}))
    elif isinstance(iv, str) and iv and iv != "none":
        parts.append(iv)
    return " ".join(parts)


def seeds_text(derived: Mapping) -> str:
    """What a rule's verdict object says about how much decides it, in a few words: its
    ``k_of_n`` and ``fraction_interval`` (``4 of 5 hold [0.38, 0.96]``); for a claim of
    several parts, each part's (``PART_k_of_n``, ``PART_fraction_interval``); else its
    comparisons' ``by_verdict``; empty when the rule gave none of these.  A display of the
    rule's own output: no verdict depends on it."""
    if "k_of_n" in derived:
        return _count(derived.get("k_of_n"), derived.get("fraction_interval"))
    parts = [m[1] for key in derived if (m := re.fullmatch(r"(\w+?)_k_of_n", key))]
    if parts:
        shown = [(p, _count(derived[f"{p}_k_of_n"], derived.get(f"{p}_fraction_interval")))
                 for p in parts]
        return "; ".join(f"{p} {t}" for p, t in shown if t)
    if isinstance(derived.get("by_verdict"), str):
        n = derived.get("comparisons")
        return f"comparisons{f' ({n})' if n else ''}: {derived['by_verdict']}"
    return ""


def with_recipes(result: dict, derive: Callable[[dict], dict], claims: Iterable[str],
                 targets: Mapping[str, Iterable[int]] | None = None, *,
                 bare_seed: int | None = None,
                 reads: Mapping[str, Callable[[Mapping], bool]] | None = None) -> dict:
    """``derive(result)`` with, on each claim of ``claims`` (those about a trained model), its
    verdict under each recipe (``by_recipe``), the robustness word and note, and the headline
    word's one exception (module docstring).  ``targets[recipe]``: the seeds the recipe is
    trained with for every model the claims read (:func:`reproduce.harness.settings.
    recipe_targets`); a recipe evaluated on fewer is ``pending``, one without a target is not a
    reading of these models.  Default, and for a JSON made from other weights than the
    shipped ones (its ``checkpoint_dir``, e.g. the early-stopped weights, which no training
    target describes): every recipe in the JSON, complete as it is.
    ``bare_seed``: as :func:`recipes_in`.

    ``reads[claim]``: which instance records the claim's rule reads (a predicate), for a
    figure that runs the other recipes on fewer seeds at some sizes than at others (Figure
    2(b): every seed at 10,000 vertices, the validation-selected and the median seed at
    25,000).  A recipe other than the shipped one then gives that claim a verdict only when
    as many of its seeds as its target has a result on every such record, else ``pending``:
    a verdict put together from the two seeds that happen to have run would be a word of the
    assembly, not of the data (and two readings "undecided" for want of seeds would read
    recipe-robust).  The shipped recipe's word stays its rule's (the headline; the rule says
    what its missing seeds leave open).  Added before any variant's cover on those graphs.

    Every other recipe is judged on its target's seeds alone (:func:`recipe_view` with
    ``seeds``): a recipe trained with ten seeds for one family's model and five for the
    other's is a reading of a claim about both with five seeds, not ten of which five can
    never be decided."""
    out = derive(result)
    claims = [c for c in claims if c in out]
    present = recipes_in(result, bare_seed)
    if targets is None or result.get("checkpoint_dir") is not None:
        targets = present
    words: dict[str, dict[str, str]] = {c: {r: "pending" for r in targets} for c in claims}
    counts: dict[str, dict[str, str]] = {c: {} for c in claims}   # the rule's k of n, interval
    short: dict[str, list[str]] = {c: [] for c in claims}    # readings too few seeds leave open
    for r, seeds in present.items():
        if r not in targets:
            continue
        wanted = set(targets[r])
        full = len(set(seeds) & wanted) >= len(wanted)
        got = out if r == PAPER else \
            derive(recipe_view(result, r, wanted, bare_seed=bare_seed)) if full else {}
        for c in claims:
            complete = full
            if full and r != PAPER and reads and c in reads:
                on = len(_seeds_on(result, r, reads[c], bare_seed) & wanted)
                complete = on >= len(wanted)
                if not complete and r in PAPER_READINGS:
                    short[c].append(f"{RECIPES[r].label} has {on} of its {len(wanted)} "
                                    "seeds on every graph the claim reads")
                elif not on and r not in PAPER_READINGS:
                    # the untrained null (or a diagnostic) not run where the claim reads: no
                    # data, and none planned, so no word (``pending`` would wait for nothing)
                    del words[c][r]
                    continue
            words[c][r] = got[c]["verdict"] if complete and c in got else "pending"
            if complete and c in got:
                counts[c][r] = seeds_text(got[c])
    for c in claims:
        by = {r: w for r, w in words[c].items()
              if not (r == UNTRAINED and c.endswith(NULL_CLAIM_SUFFIX))}
        word, note = robustness(by, targets)
        if short[c]:
            note += " (" + "; ".join(short[c]) + ")"
        rec = out[c]
        rec["by_recipe"] = ", ".join(f"{RECIPES[r].label} {w}" for r, w in by.items()) or \
            "none"
        rec["by_recipe_seeds"] = ", ".join(
            f"{RECIPES[r].label} {w}" + (f" ({counts[c][r]})" if counts[c].get(r) else "")
            for r, w in by.items()) or "none"
        rec["robustness"], rec["robustness_note"] = word, note
        allowed = [r for r in PAPER_READINGS if r != PAPER and by.get(r) == "confirmed"]
        if rec["verdict"] == "refuted" and allowed:
            rec["verdict"] = "not-reproduced"
            rec["why_not_reproduced"] = (
                "refuted under the shipped recipe, confirmed under "
                + ", ".join(RECIPES[r].label for r in allowed) + ", which the paper allows")
    return out


def null_claim(instances, trained: str = ENCODER, null: str = model_name(UNTRAINED), *,
               n_resamples: int | None = None) -> dict:
    """"Training beats the untrained model": each seed of ``trained`` against the untrained
    initialisation of the same seed (module docstring)."""
    from reproduce.harness.verdicts.rule import N_RESAMPLES
    pat_t, pat_n = re.compile(rf"^{trained}_s(\d+)$"), re.compile(rf"^{null}_s(\d+)$")
    diffs: dict[int, list[float]] = {}
    for rec in instances:
        res = rec.get("results", {})
        t = {int(m[1]): v for k, v in res.items() if (m := pat_t.match(k))}
        u = {int(m[1]): v for k, v in res.items() if (m := pat_n.match(k))}
        for s in t.keys() & u.keys():
            if t[s].get("ratio") is not None and u[s].get("ratio") is not None:
                diffs.setdefault(s, []).append(float(t[s]["ratio"]) - float(u[s]["ratio"]))
    if not diffs:
        return {"verdict": "pending", "k_of_n": "0 of 0", "per_seed": "none",
                "why": "no seed with both a trained and an untrained run",
                "fraction_interval": "none", "reachable": "none", "graphs": 0, "fails": 0,
                "undecided": 0}
    decisions, notes = {}, []
    graphs = max(len(v) for v in diffs.values())
    for s in sorted(diffs):
        d = seed_decision({"all": diffs[s]}, 0.0, strict=True, required={"all": graphs},
                          n_resamples=n_resamples or N_RESAMPLES)
        label = seed_label(f"{trained}_s{s}")
        decisions[label] = d["decision"]
        if d["points"]:
            iv = d["points"]["all"]["hold" if d["decision"] != "fails" else "fail"]
            notes.append(f"{label} {d['decision']} ({iv['estimate']:+.3f} "
                         f"[{iv['low']:+.3f}, {iv['high']:+.3f}] over {len(diffs[s])} graphs)")
        else:
            notes.append(f"{label} {d['decision']} ({d.get('why', '')})")
    out = seeds_verdict(decisions, n_informative=1)
    low, high = out["fraction_interval"]
    out.update(per_seed="; ".join(notes), fraction_interval=f"[{low:.2f}, {high:.2f}]",
               reachable=reachable_text(out), graphs=graphs)
    del out["seeds"]
    return out


#: the fields of each part's learning-null verdict a multi-part claim's evidence shows
NULL_PART_FIELDS = ("verdict", "k_of_n", "fraction_interval", "per_seed", "reachable")


def null_parts(parts: Mapping[str, Mapping]) -> tuple[str, dict]:
    """Several parts' :func:`null_claim` verdicts (``parts[label]``: a panel, a problem, a
    model) read as one claim: ``pending`` while a part is, else
    :func:`~reproduce.harness.verdicts.seeds.combined_verdict`; and each part's
    :data:`NULL_PART_FIELDS` as ``{label}_{field}`` for the evidence."""
    kinds = [g["verdict"] for g in parts.values()]
    kind = "pending" if "pending" in kinds else combined_verdict(kinds)
    return kind, {f"{label}_{k}": g.get(k) for label, g in parts.items()
                  for k in NULL_PART_FIELDS}
