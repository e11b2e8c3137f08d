"""Import grid units computed elsewhere (a GPU machine, a cluster, another checkout).

``--import-units FILE`` of the grid scripts (Figures 2, 3, 4, 6) reads JSON lines, each one
model unit: ``problem``, ``family``, ``n``, ``index``, ``checkpoint_sha`` (the first 16 hex
digits of the checkpoint file's SHA-256, as :func:`reproduce.harness.grid.sha`), ``t_max``,
``fingerprint`` (:func:`g2s.graphs.graph_fingerprint` of the instance), ``solution``,
``objective``, ``best_T`` and optionally ``seconds`` and ``device``.  Each line is matched to
the grid's units by (problem, family, n, index, checkpoint sha, t_max); its fingerprint is
compared with the local instance's; its solution is re-checked feasible and its objective
recomputed (:func:`reproduce.harness.unit_check.validate_unit`); only then is it written to the
cache under the unit's key, so the run uses it instead of computing the unit.  Anything else is
reported and skipped; a unit already soundly cached is kept.

Figure 2(b) (``reproduce/figure2b.py``) imports through the same function: its checkpoints
differ per family (``hashes`` a function of the unit), its cache keys name no problem (it is
MVC only: the problem is added for the re-check), its cached values have their own fields
(``value``) and it uses imported units without a cache too (``keep``).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from reproduce.harness.unit_check import validate_unit

__all__ = ["REQUIRED", "MATCH", "import_units"]

#: the fields every imported line must have
REQUIRED = ("problem", "family", "n", "index", "checkpoint_sha", "t_max", "fingerprint",
            "solution", "objective", "best_T")
#: the fields that name the unit
MATCH = ("problem", "family", "n", "index", "checkpoint_sha", "t_max")


def import_units(run, path, problem: str, units, key, hashes, t_max: int, *,
                 value=None, keep: dict | None = None) -> Counter:
    """Cache the lines of ``path`` that match a unit of this grid (``units``: ``(family, n,
    index, method)``; ``key(unit)``: its cache key; ``hashes``: method -> checkpoint sha, or a
    function of the unit giving it, None for a unit without a checkpoint).  ``value(rec,
    file_name)``: the cache value of an accepted line ``rec`` (default: the grid's fields);
    ``keep``: a dict that also receives each accepted value under its unit (then a disabled
    cache, ``--no-cache``, is no reason to skip it).  Prints one summary line and one line per
    rejected match; returns the counts."""
    from g2s.graphs import instance_edges

    def check(k: dict, v) -> str | None:     # a key without "problem" is this problem's
        return validate_unit({"problem": problem, **k}, v)

    sha_of = hashes if callable(hashes) else (lambda u: hashes.get(u[3]))
    by_match: dict = {}
    for u in units:
        sha = sha_of(u)
        if sha is not None:
            by_match.setdefault((problem, u[0], u[1], u[2], sha, t_max), []).append(u)
    counts, fingerprints = Counter(), {}
    name = Path(path).name
    for lineno, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip():
            continue
        where = f"{name}:{lineno}"
        try:
            rec = json.loads(line)
        except ValueError as exc:
            _skip(counts, "unreadable", f"{where}: not JSON ({exc})")
            continue
        missing = [k for k in REQUIRED if not isinstance(rec, dict) or k not in rec]
        if missing:
            _skip(counts, "unreadable", f"{where}: missing {', '.join(missing)}")
            continue
        match = tuple(rec[k] for k in MATCH)
        try:
            matched = by_match.get(match, [])
        except TypeError:            # an unhashable field (a list where a number belongs)
            matched = []
        if not matched:
            counts["no unit of this grid"] += 1
            continue
        f, n, i = match[1:4]
        if (f, n, i) not in fingerprints:
            fingerprints[(f, n, i)] = instance_edges(f, n, i).fingerprint
        if rec["fingerprint"] != fingerprints[(f, n, i)]:
            _skip(counts, "other graph", f"{where}: another graph (fingerprint "
                  f"{rec['fingerprint']} != local {fingerprints[(f, n, i)]}, {f} n={n} #{i}); "
                  f"skipped")
            continue
        entry = _grid_value(rec, name) if value is None else value(rec, name)
        for u in matched:
            problem_ = check(key(u), entry)
            if problem_:
                _skip(counts, "invalid", f"{where}: {problem_} ({f} n={n} #{i}, {u[3]}); "
                      f"skipped")
            elif run.cache.contains(key(u), check):
                counts["already cached"] += 1
            elif not run.cache.enabled and keep is None:
                _skip(counts, "no cache", f"{where}: --no-cache, nothing to import into")
            else:
                entry["solution"] = sorted(entry["solution"])
                stored = run.cache.put(key(u), entry)
                if keep is not None:
                    keep[u] = stored
                counts["imported"] += 1
    print(f"import-units {name}: " + (", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
                                      or "empty"), file=sys.stderr)
    return counts


def _grid_value(rec: dict, file_name: str) -> dict:
    """The cache value of an accepted line, as the grid scripts store a unit."""
    return {"objective": rec["objective"], "best_T": rec["best_T"],
            "time_s": rec.get("seconds", rec.get("time_s")), "solution": rec["solution"],
            "imported": {"file": file_name, "device": rec.get("device")}}


def _skip(counts: Counter, why: str, message: str) -> None:
    counts[why] += 1
    print(f"import-units: {message}", file=sys.stderr)
