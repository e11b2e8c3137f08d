"""The training recipes of G2S-RNN: the readings of the paper's training procedure we try.

A trained model is ``(encoder, problem, training set, recipe, seed)``.  A recipe is data: a
name and the :class:`g2s.rl.config.TrainConfig` fields it sets, nothing else.  Every other part
(``g2s train --recipe``, ``reproduce/train_all.py``, the checkpoint registry, the grid, the
figures and the claims) reads this table; no part branches on a recipe's name.

The paper (arXiv:1802.04948) leaves open parts of its recipe (see ``docs/training.md`` for the
table of every element, the paper's words, our choice and the closest reference
implementation's):

* ``paper`` -- the reading shipped first and still the one most files are named for (its
  checkpoints keep their names, with no recipe tag): ``T = 5`` at every training step
  (Section 5: "During training we truncate the Graph2Seq representation to 5 observations"),
  targets from the current weights as Eq. (4) is written, weights selected by the greedy policy
  at ``T = 5`` on 64 ER-15 graphs solved exactly (a validation that saturates at ratio 1.000
  early, so it selects nothing: ties go to the latest weights).
* ``selected`` (A') -- ``paper`` with the validation that can see: Algorithm 2 (``T = 1..15``)
  on 32 larger graphs of the training family (50 vertices), every 5,000 iterations, against
  their best known solutions; the shipped weights are the best of these.  It isolates what
  selection changes.
* ``tvaried`` (B) -- ``selected`` with ``T`` drawn uniformly from ``1..5`` at every training
  iteration (act and learn at the same ``T``): Section 4, "the value of T is not fixed, and is
  varied both during training and testing", with Section 5's truncation at 5 as its cap.
* ``target`` (C) -- ``tvaried`` with a target network copied every 1,000 iterations, the period
  of S2V-DQN (Dai et al., 2017), the paper's closest relative; the paper is silent on targets.
* ``untrained`` (the learning null) -- the random weights seed s's training starts from, with
  no training at all (``iterations = 0``), under the same Algorithm 2: what the search over
  ``T = 1..15`` achieves without learning, so a figure tells what training adds.
* ``sizes`` (D, a diagnostic beyond the paper) -- ``target`` with training graphs of 15 to 60
  vertices drawn uniformly per episode (the paper trains on one size); for max cut and MIS,
  whose verdicts at larger sizes might come from training on 15 vertices only.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from g2s.rl.config import TrainConfig

__all__ = ["Recipe", "RECIPES", "PAPER", "UNTRAINED", "PAPER_READINGS", "CUSTOM", "recipe",
           "recipe_names", "SELECTION", "GOVERNED", "resolve_recipe", "recipe_of"]


@dataclass(frozen=True)
class Recipe:
    name: str            # file-name tag (none for the shipped recipe) and key everywhere
    label: str           # the short label figures and tables show
    summary: str         # one line for legends and --help
    settings: dict = field(default_factory=dict)  # TrainConfig fields the recipe sets
    paper_allows: bool = True  # False: a diagnostic beyond the paper's readings
    trained: bool = True  # False: zero training iterations (the learning null)


#: the validation that can see (every recipe but ``paper``): Algorithm 2 at T = 1..T_max on
#: 32 graphs of the training family with 50 vertices, every 5,000 iterations
SELECTION = {"validation": "algorithm2", "select_every": 5000, "validation_n": 50,
             "validation_graphs": 32}

PAPER = "paper"
#: the learning null: the architecture with the random weights training seed s starts from,
#: under the same Algorithm 2 (zero training iterations)
UNTRAINED = "untrained"
#: the ``recipe`` of a run whose settings match no recipe of the table (a user's own run)
CUSTOM = "custom"
RECIPES: dict[str, Recipe] = {r.name: r for r in (
    Recipe(PAPER, "paper", "T = 5 in training, no target network, saturated validation"),
    Recipe("selected", "A'", "paper + Algorithm 2 validation on 50-vertex graphs",
           dict(SELECTION)),
    Recipe("tvaried", "B", "A' + T uniform on 1..5 per training iteration",
           {**SELECTION, "t_train_max": 5}),
    Recipe("target", "C", "B + target network copied every 1,000 iterations",
           {**SELECTION, "t_train_max": 5, "target_update": 1000}),
    Recipe("sizes", "D", "C + training graphs of 15-60 vertices (diagnostic)",
           {**SELECTION, "t_train_max": 5, "target_update": 1000, "n_max": 60},
           paper_allows=False),
    Recipe(UNTRAINED, "untrained", "the initial weights of seed s, never trained (the null)",
           {"iterations": 0}, paper_allows=False, trained=False),
)}
#: the recipes that read the paper's training procedure (the shipped one and the variants it
#: allows); a verdict is recipe-robust when it is the same under each of them
PAPER_READINGS = tuple(r.name for r in RECIPES.values() if r.paper_allows)


def recipe_names() -> tuple[str, ...]:
    return tuple(RECIPES)


def recipe(name: str) -> Recipe:
    """The recipe called ``name`` (``ValueError`` naming the known ones otherwise)."""
    try:
        return RECIPES[name]
    except KeyError:
        raise ValueError(f"unknown recipe {name!r}; expected one of "
                         f"{', '.join(RECIPES)}") from None


#: every TrainConfig field some trained recipe sets (the untrained one sets the iteration
#: count to 0; a trained recipe takes any positive count: a baseline may train longer)
GOVERNED = tuple(sorted({k for r in RECIPES.values() if r.trained for k in r.settings}))
_DEFAULTS = {f.name: f.default for f in fields(TrainConfig)}


def _expected(r: Recipe) -> dict:
    return {**{k: r.settings.get(k, _DEFAULTS[k]) for k in GOVERNED}, **r.settings}


def _matches(r: Recipe, values: dict) -> bool:
    trained = values.get("iterations", _DEFAULTS["iterations"]) > 0
    return trained == r.trained and all(
        values.get(k, _DEFAULTS[k]) == v for k, v in _expected(r).items())


def recipe_of(values: dict) -> str:
    """The recipe whose settings ``values`` (TrainConfig fields) match, else :data:`CUSTOM`."""
    for r in RECIPES.values():
        if _matches(r, values):
            return r.name
    return CUSTOM


def resolve_recipe(values: dict, name: str | None) -> dict:
    """``values`` (TrainConfig fields, defaults where not given) with recipe ``name`` applied.

    ``name`` None: the recipe the settings match (:func:`recipe_of`).  A field given a value
    other than its default and the recipe's is refused (``ValueError`` naming both), so a file
    never carries a recipe's name with settings the recipe does not have.
    """
    if name is None or name == CUSTOM:
        found = recipe_of(values)
        if name == CUSTOM and found != CUSTOM:
            raise ValueError(f"these settings are recipe {found!r}; pass --recipe {found}")
        return {**values, "recipe": found}
    r = recipe(name)
    for k, v in _expected(r).items():
        given = values.get(k, _DEFAULTS[k])
        if given != _DEFAULTS[k] and given != v:
            flag = "--" + k.replace("_", "-")
            raise ValueError(f"recipe {name!r} sets {flag} {v}, but {flag} {given} was given")
    out = {**values, **_expected(r), "recipe": name}
    if not _matches(r, out):
        raise ValueError(f"recipe {name!r} trains for a positive number of iterations, but "
                         f"--iterations {out['iterations']} was given")
    return out
