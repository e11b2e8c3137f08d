"""A grid figure rebuilt from its committed per-unit results, an unpredictable sample recomputed.

A grid script (:func:`reproduce.harness.grid.evaluate_grid`) evaluates *units*: one method
(a heuristic, or a checkpoint named by its SHA-256 prefix) on one certified graph (family,
size, index).  Every unit is deterministic, and the committed JSON of the script
(``paper_figures/NAME.json``, and ``paper_figures/*/NAME.json`` for its variants) already
holds each unit's objective, best ``T`` and time.  Recomputing all of them on a 2-core
machine takes over an hour for Figure 3, so by default a script takes a model unit from the
committed JSON when everything that determines it matches -- the problem, family, size and
index of the graph, the method, the checkpoint's hash, ``T_max`` and the grid's code tag --
and recomputes the rest:

* every *cheap* unit (:func:`cheap`: a heuristic or the trivial solver whose committed time is
  under :data:`CHEAP_UNIT_S`), always; the reference of every row is read from its certificate
  and re-verified anyway, never from the JSON;
* a random share of the other committed units (:data:`RECOMPUTE_SHARE`, at least one per
  method and size), drawn with a fresh seed each run (:func:`fresh_seed`), which the output
  records (``units.audit_seed``), so which units are checked cannot be known in advance and
  a failed audit can be replayed;
* the units with no committed match (a new checkpoint, a new size, a changed model).

A recomputed unit is computed, never read from the local unit cache (an edited cache entry
must not vouch for an edited JSON), and must give the committed objective and best ``T``
exactly; a mismatch stops the script with one line naming the unit, before anything is
written.  ``--full`` computes every unit.

Why this is honest: the figure's numbers are the committed ones only where a fresh
computation of an unpredictable sample of them, covering every method at every size, and of
every cheap unit, reproduces them bit for bit; a changed checkpoint, code tag or instance is
not reused at all.  What it cannot catch: an edited model unit outside this run's sample (a
share of :data:`RECOMPUTE_SHARE` per run; each rerun draws again, and CI's drift check,
:mod:`reproduce.harness.rederive`, draws its own sample of the cheap ones).
"""

from __future__ import annotations

import json
import math
import secrets
from collections import defaultdict
from pathlib import Path

import numpy as np

from g2s.heuristics import TRIVIAL

__all__ = ["RECOMPUTE_SHARE", "CHEAP_UNIT_S", "cheap", "fresh_seed", "committed_units", "plan",
           "check_recomputed", "describe"]

#: the share of the committed costly units recomputed as a check (at least one per method
#: and size)
RECOMPUTE_SHARE = 0.10
#: a unit without a checkpoint (a heuristic, the trivial solver) whose committed time is
#: below this many seconds is recomputed on every run (the committed ones take milliseconds at
#: up to 400 vertices; the greedy cover of a 3,200-vertex, 1.9-million-edge bipartite graph
#: takes seconds and is sampled instead)
CHEAP_UNIT_S = 1.0
#: the grid code tag of JSONs written before the tag was recorded (there was only ever one)
UNTAGGED = "grid-v1"


def _sources(name: str, out_root: Path) -> list[Path]:
    """The committed JSONs of script ``name``: the main one, then its variant folders'."""
    main = out_root / f"{name}.json"
    return [p for p in [main, *sorted(out_root.glob(f"*/{name}.json"))] if p.is_file()]


def _tables(data: dict):
    """``(problem, t_max, hashes, rows)`` of each unit table of a grid JSON: one table
    (Figures 3 and 6: hashes in ``checkpoint_sha256_16`` or ``hashes``), one per family
    (Figure 2: ``instances`` and ``checkpoint_sha256_16`` keyed by family) or one per problem
    (Figure 4: ``instances`` and ``checkpoints`` keyed by problem, hashes in ``sha256_16``)."""
    from g2s.problems import PROBLEMS
    inst, t_max = data.get("instances"), data.get("t_max")
    top = data.get("checkpoint_sha256_16") or data.get("hashes") or {}
    if isinstance(inst, list):
        yield data.get("problem"), t_max, top, inst
    elif isinstance(inst, dict):
        for k, rows in inst.items():
            if k in PROBLEMS:
                meta = (data.get("checkpoints") or {}).get(k) or {}
                yield k, t_max, {m: v.get("sha256_16") for m, v in meta.items()
                                 if isinstance(v, dict)}, rows
            else:
                yield data.get("problem"), t_max, top.get(k) or {}, rows


def committed_units(name: str, problem: str, t_max: int, tag: str, out_root: Path) -> dict:
    """``{(family, n, index, method, sha or None): value}`` from the committed JSONs of
    ``name`` made for ``problem`` with ``t_max`` and the grid code ``tag``; a value holds
    ``objective``, ``best_T``, ``time_s`` and ``source`` (the file).  The first file that has
    a unit wins.  An unreadable file or table is skipped (its units are then computed)."""
    found: dict = {}
    for path in _sources(name, out_root):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict) or data.get("unit_tag", UNTAGGED) != tag:
            continue
        for p, tm, hashes, rows in _tables(data):
            if p != problem or tm != t_max or not isinstance(rows, list):
                continue
            for row in rows:
                try:
                    f, n, i = row["family"], int(row["n"]), int(row["index"])
                    results = dict(row["results"])
                except (KeyError, TypeError, ValueError):
                    continue
                for m, r in results.items():
                    if not isinstance(r, dict) or "objective" not in r or "time_s" not in r:
                        continue         # a seed mean (g2s_rnn, s2v, ...) is no unit
                    if m == TRIVIAL and "draws" not in r:
                        continue         # one draw, the trivial solver's former definition
                    found.setdefault((f, n, i, m, hashes.get(m)),
                                     {"objective": r["objective"], "best_T": r.get("best_T"),
                                      "time_s": r["time_s"], "source": str(path),
                                      **({"draws": r["draws"]} if "draws" in r else {})})
    return found


def fresh_seed() -> int:
    """A seed for one run's audit sample, from the operating system's entropy (53 bits, so
    every JSON reader holds it exactly)."""
    return secrets.randbits(53)


def cheap(unit, sha, value: dict) -> bool:
    """Whether a committed unit is recomputed on every run: no checkpoint (a heuristic or the
    trivial solver) and a committed time under :data:`CHEAP_UNIT_S`."""
    t = value.get("time_s") if isinstance(value, dict) else None
    return sha is None and isinstance(t, (int, float)) and t < CHEAP_UNIT_S


def plan(units: list, sha_of, committed: dict, seed: int,
         share: float = RECOMPUTE_SHARE) -> tuple[dict, list, list]:
    """Split ``units`` (``(family, n, index, method)``; ``sha_of(unit)`` its checkpoint hash
    or None) into ``(reused, check, new)``: ``reused`` maps the units taken from the committed
    JSON to their values, ``check`` lists the committed units recomputed (every
    :func:`cheap` one, and of the others a share drawn with ``seed``, at least one per method
    and size), ``new`` those with no committed match."""
    reused, new, check = {}, [], []
    for u in units:
        v = committed.get((*u, sha_of(u)))
        if v is None:
            new.append(u)
        elif cheap(u, sha_of(u), v):
            check.append(u)
        else:
            reused[u] = v
    groups = defaultdict(list)
    for u in sorted(reused):
        groups[(u[3], u[1])].append(u)
    rng = np.random.default_rng(seed)
    for g in sorted(groups):
        members = groups[g]
        k = max(1, round(share * len(members)))
        check += [members[j] for j in sorted(rng.choice(len(members), k, replace=False))]
    for u in check:
        reused.pop(u, None)
    return reused, check, new


def check_recomputed(check: list, committed_of, results: dict, name: str) -> None:
    """Stop (exit 1, one line) when a recomputed unit differs from its committed value: the
    objective or the best ``T``.  ``committed_of(unit)`` is the committed value; the line
    names the first unit that differs and counts the others."""
    bad = []
    for u in check:
        want, got = committed_of(u), results[u]
        if want["objective"] != got["objective"] or want.get("best_T") != got.get("best_T") \
                or want.get("draws") != got.get("draws"):
            f, n, i, m = u
            bad.append(f"{m} on {f} n={n} #{i}: committed objective {want['objective']} "
                       f"(best T {want.get('best_T')}), recomputed {got['objective']} "
                       f"(best T {got.get('best_T')}) [{want['source']}]")
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise SystemExit(f"{name}: committed unit differs from its recomputation: {bad[0]}"
                         f"{more}; {len(bad)} of {len(check)} recomputed units differ, nothing "
                         f"written (run with --full to recompute every unit)")


def _estimate(units: list, times: dict, workers: int) -> str:
    """The wall time of computing ``units`` on ``workers``, from the committed unit times
    (a unit without one: the mean committed time of its method's model at its size)."""
    by_kind = defaultdict(list)
    for (_f, n, _i, m), t in times.items():
        by_kind[(m.rsplit("_s", 1)[0], n)].append(t)
    total, unknown = 0.0, 0
    for u in units:
        t = times.get(u)
        if t is None:
            same = by_kind.get((u[3].rsplit("_s", 1)[0], u[1]))
            t = None if not same else sum(same) / len(same)
        if t is None:
            unknown += 1
        else:
            total += t
    minutes = total / max(1, workers) / 60
    text = f"about {math.ceil(minutes)} min" if minutes >= 1 else "under a minute"
    if unknown:
        text += f" plus {unknown} units of unknown cost"
    return (f"{text} on {workers} worker{'s' if workers != 1 else ''} by the committed unit "
            f"times (measured where the JSON was made; one core of this machine may be slower)")


def describe(name: str, total: int, reused: dict, check: list, new: list, todo: list,
             times: dict, workers: int, full: bool, seed: int | None = None) -> str:
    """The line a grid script prints before it starts: how many units it computes (``todo``:
    the recomputed ones and those not in the local cache), where the others come from, the
    audit ``seed`` and the time estimate."""
    run = f"computing {len(todo):,} units, {_estimate(todo, times, workers)}"
    if full:
        return f"{name}: --full: {total:,} units; {run}"
    sources = sorted({Path(v["source"]).name if Path(v["source"]).parent.name == "paper_figures"
                      else "/".join(Path(v["source"]).parts[-2:]) for v in reused.values()})
    return (f"{name}: {total:,} units: {len(reused):,} taken from the committed "
            f"{', '.join(sources) or 'JSON'}, {len(check):,} committed ones recomputed as a "
            f"check (every cheap one, and {RECOMPUTE_SHARE:.0%} of the others, at least one per "
            f"method and size, drawn with audit seed {seed}), {len(new):,} not committed; "
            f"{run} (--full recomputes every unit)")
