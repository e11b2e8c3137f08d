"""Re-derive the summarised numbers of a figure JSON from its raw per-instance records.

``reproduce/claims.py --check`` re-derives each verdict from the committed JSON, but a verdict
reads only a few summarised numbers (a worst mean, a count of beaten points), so an edit that
does not flip it -- a raw ``instances[...].objective``, a plotted mean that is not the worst --
would pass.  :func:`drift` closes that gap for the evaluation-grid figures (every JSON with
``instances`` rows and ``points``): each number that is computed from others is recomputed and
compared, from the bottom up:

1. each instance's reference (objective, bound, status) against its stored certificate
   (:mod:`g2s.reference.certificates`), when one is stored;
2. each result's ``ratio`` / ``ratio_vs_bound`` from its ``objective`` and the reference, and a
   seed-mean entry (``g2s_rnn`` without an objective) as the mean ratio of its ``g2s_rnn_sK``;
3. each plotted ``points[...][family][method][n]`` (mean, std, count) from the rows;
4. each ``seed_spread`` cell (per-seed means, min, max) from the plotted per-seed means;
5. where the run's unit cache is present (``OUT/.cache/SCRIPT``), each objective against the
   cached unit, whose solution is re-checked feasible
(:func:`reproduce.harness.unit_check.validate_unit`); 6. in a JSON that records
   ``reference_beaten``, that count from the rows, and that no result beats its row's reference (a
   better one becomes the reference when the run writes).

6. every stored rate and its Wilson interval against the counts stored beside it
   (``errors`` or ``exact`` of ``graphs``, ``graphs_with_false_edges``), in any JSON: Theorem 1
   stores counts, not per-graph records, and its verdicts read the rates;
7. given the script's ``summarise(raw)``, every key it returns against the stored one (Figure
   2(b)'s ``cells`` from its ``instances``), so an edited raw objective is drift even where no
   plotted ``points`` exist;
8. given the script's ``recompute(payload)`` (a script of seconds whose numbers are computed
   facts, not samples: Figure 5; or the pooled numbers again from the per-case records the
   payload keeps: Appendix D.3), every key against a fresh computation;
9. an audit like the rebuild's (:mod:`reproduce.harness.rebuild`): a fresh random sample of
   :data:`AUDIT_UNITS` cheap units per grid (a heuristic or the trivial solver whose
   committed time is under :data:`reproduce.harness.rebuild.CHEAP_UNIT_S`, on a row with a
   stored certificate) is recomputed (:func:`reproduce.harness.grid.evaluate_unit`), never
   read from a cache, and each objective must equal the committed one; the seed is drawn per
   call and named in every mismatch, so a failure can be replayed (``audit_seed``).  Model
   units are not recomputed here (seconds each, and torch); the rebuild samples those;
10. given the script's ``audit(payload, seed)``, its own audit of committed units too long to
   recompute whole, with the same fresh seed: Figure 2(b)'s covers of 10,000 and 25,000
   vertices (hours each) are each checked against their committed unit, and one drawn at
   random has the first greedy steps of its winning rollout replayed
   (:func:`reproduce.figure2b_parts.units.audit`).

Any disagreement is drift.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from reproduce.harness.contract import reference_beaten

__all__ = ["drift", "reference_mismatches", "AUDIT_UNITS"]

TOL = 1e-9
#: cheap units recomputed per grid by each drift check (step 9)
AUDIT_UNITS = 12
_SEED = re.compile(r"^(?P<prefix>.+)_s(?P<seed>\d+)$")


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=TOL, abs_tol=TOL)
    return a == b


def _groups(payload: dict):
    """``(problem, rows, points)`` per problem: ``instances`` is a list (one problem), or a
    dict keyed by problem (then ``points`` is too) or by family (``points`` is shared)."""
    from g2s.problems import PROBLEMS
    inst, points = payload.get("instances"), payload.get("points")
    if not isinstance(points, dict):
        return []
    if isinstance(inst, list):
        return [(payload.get("problem"), inst, points)]
    if isinstance(inst, dict):
        if inst and all(k in PROBLEMS for k in inst):
            return [(k, rows, points.get(k, {})) for k, rows in inst.items()]
        return [(payload.get("problem"), [r for rows in inst.values() for r in rows], points)]
    return []


def _where(row: dict) -> str:
    return f"instances {row.get('family')}/{row.get('n')}/{row.get('index')}"


def _check_references(problem: str, rows: list, out: list) -> None:
    """Step 1: each row's reference against its stored certificate, when one is stored."""
    from g2s.reference.certificates import reference
    for row in rows:
        ref = row["reference"]
        try:
            cert = reference(problem, row["family"], row["n"], row["index"], solve_missing=False)
        except KeyError:
            continue
        for k in ("objective", "bound", "status"):
            if not _close(ref.get(k), getattr(cert, k)):
                out.append(f"{_where(row)}: reference {k} {ref.get(k)!r} != certificate "
                           f"{getattr(cert, k)!r}")


def reference_mismatches(payload: dict) -> list[str]:
    """Step 1 alone: the rows of an evaluation-grid JSON whose reference no longer matches
    the stored certificate (a later run improved it)."""
    out: list[str] = []
    for problem, rows, _ in _groups(payload):
        if problem is not None and all(isinstance(r, dict) and "results" in r for r in rows):
            _check_references(problem, rows, out)
    return out


def _check_rows(problem: str, rows: list, out: list) -> None:
    """Step 2: each result's ratios from its objective and the row's reference."""
    from g2s.problems import approximation_ratio
    for row in rows:
        where = _where(row)
        ref = row["reference"]
        res = row["results"]
        for m, r in res.items():
            if "objective" in r:
                want = approximation_ratio(problem, r["objective"], ref["objective"])
                if not _close(r.get("ratio"), want):
                    out.append(f"{where}/{m}: ratio {r.get('ratio')!r} != {want!r} from its "
                               "objective")
                if "ratio_vs_bound" in r and ref.get("bound") is not None:
                    want = approximation_ratio(problem, r["objective"], ref["bound"])
                    if not _close(r["ratio_vs_bound"], want):
                        out.append(f"{where}/{m}: ratio_vs_bound {r['ratio_vs_bound']!r} != "
                                   f"{want!r}")
            else:
                seeds = [x["ratio"] for k, x in sorted(res.items())
                         if (s := _SEED.match(k)) and s["prefix"] == m]
                if seeds and not _close(r.get("ratio"), sum(seeds) / len(seeds)):
                    out.append(f"{where}/{m}: seed-mean ratio {r.get('ratio')!r} != mean of "
                               f"{len(seeds)} seed ratio(s)")


def _check_points(rows: list, points: dict, out: list) -> None:
    import numpy as np
    for f, methods in points.items():
        if not isinstance(methods, dict):
            continue
        for m, cells in methods.items():
            for n, cell in (cells or {}).items():
                vals = [r["results"][m]["ratio"] for r in rows
                        if r["family"] == f and str(r["n"]) == str(n) and m in r["results"]]
                want = {"mean": float(np.mean(vals)) if vals else None,
                        "std": float(np.std(vals)) if vals else None, "count": len(vals)}
                for k, v in want.items():
                    if k in cell and not _close(cell[k], v):
                        out.append(f"points {f}/{m}/{n}: {k} {cell[k]!r} != {v!r} from the "
                                   "instances")


def _check_spread(spread, points: dict, out: list, path=()) -> None:
    if not isinstance(spread, dict):
        return
    if "per_seed_mean" in spread:
        per = spread["per_seed_mean"]
        where = "seed_spread " + "/".join(path)
        if per and (not _close(spread.get("min"), min(per)) or
                    not _close(spread.get("max"), max(per))):
            out.append(f"{where}: min/max do not match its per-seed means")
        if len(path) >= 2:
            f, n = path[-2], path[-1]
            prefix = path[-3] if len(path) >= 3 else "g2s_rnn"
            cells = points.get(f, {})
            mine = sorted((int(s["seed"]), m) for m in cells
                          if (s := _SEED.match(m)) and s["prefix"] == prefix)
            means = [cells[m][n]["mean"] for _, m in mine if n in cells[m]]
            if means and (len(means) != len(per) or
                          not all(_close(a, b) for a, b in zip(per, means))):
                out.append(f"{where}: per-seed means do not match the plotted {prefix}_sK "
                           "means")
        return
    for k, v in spread.items():
        _check_spread(v, points, out, (*path, str(k)))


def _recorded_hashes(payload: dict, problem: str, family: str) -> dict:
    """method -> checkpoint hash the payload records for one (problem, family): a flat
    ``checkpoint_sha256_16`` / ``hashes`` map, one keyed by family (Figure 2) or by problem,
    or ``checkpoints[problem][method]["sha256_16"]`` (Figure 4)."""
    h = payload.get("checkpoint_sha256_16") or payload.get("hashes") or {}
    for group in (family, problem):
        if isinstance(h.get(group), dict):
            h = h[group]
            break
    h = {m: v for m, v in h.items() if isinstance(v, str)}
    ck = (payload.get("checkpoints") or {}).get(problem)
    if isinstance(ck, dict):
        h.update({m: v["sha256_16"] for m, v in ck.items()
                  if isinstance(v, dict) and isinstance(v.get("sha256_16"), str)})
    return h


def _check_cache(problem: str, rows: list, payload: dict, cache_dir: Path, out: list) -> None:
    """Objectives against the run's cached units (same problem, instance, method, t_max and
    checkpoint hash), each unit's solution re-checked.  A cache shared by several runs (the
    early-weights variants) holds units of other checkpoints under the same method name: a
    model result is compared only with the unit of the checkpoint hash the payload records,
    and one whose hash is not recorded is not compared."""
    if cache_dir is None or not Path(cache_dir).is_dir():
        return
    from reproduce.harness.unit_check import validate_unit
    units = {}
    for p in Path(cache_dir).glob("*.json"):
        try:
            entry = json.loads(p.read_bytes())
            k = entry["key"]
            ident = (k["problem"], k["family"], k["n"], k["index"], k["method"])
        except (ValueError, KeyError, TypeError):
            continue
        if "t_max" in payload and k.get("t_max") != payload["t_max"]:
            continue
        units.setdefault(ident, {})[k.get("checkpoint")] = (k, entry.get("value"))
    for row in rows:
        hashes = _recorded_hashes(payload, problem, row["family"])
        for m, r in row["results"].items():
            found = units.get((problem, row["family"], row["n"], row["index"], m), {})
            hit = found.get(hashes.get(m))
            if hit is None or "objective" not in r:
                continue
            key, value = hit
            why = validate_unit(key, value)
            where = f"instances {row['family']}/{row['n']}/{row['index']}/{m}"
            if why:
                out.append(f"{where}: cached unit refused ({why})")
            elif value["objective"] != r["objective"]:
                out.append(f"{where}: objective {r['objective']} != {value['objective']} in "
                           "the cached solution")


#: (count, total, rate, interval, complement): a stored rate and its interval follow from the
#: stored counts (``complement``: the rate of the other outcome, ``1 - count / total``)
_RATES = (("errors", "graphs", "error_rate", "error_ci95", False),
          ("exact", "graphs", "error_rate", "error_ci95", True),
          ("exact", "graphs", "exact_rate", "exact_ci95", False),
          ("graphs_with_false_edges", "graphs", "false_edge_graph_rate", "false_edge_graph_ci95",
           False))


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_rates(obj, out: list, path: str = "") -> None:
    from reproduce.harness.verdicts.rule import rate_interval
    if isinstance(obj, list):
        for i, v in enumerate(obj):
            _check_rates(v, out, f"{path}[{i}]")
        return
    if not isinstance(obj, dict):
        return
    for count, total, rate, ci, complement in _RATES:
        if not (rate in obj and _count(obj.get(count)) and _count(obj.get(total))
                and obj[total] > 0):
            continue
        k, m = obj[count], obj[total]
        want = 1 - k / m if complement else k / m
        if not _close(obj[rate], want):
            out.append(f"{path or '.'}: {rate} {obj[rate]!r} != {want!r} from {count} {k} of "
                       f"{total} {m}")
        if isinstance(obj.get(ci), list) and len(obj[ci]) == 2:
            lo, hi = rate_interval(k, m)
            want_ci = [1 - hi, 1 - lo] if complement else [lo, hi]
            if not all(_close(a, b) for a, b in zip(obj[ci], want_ci)):
                out.append(f"{path or '.'}: {ci} {obj[ci]!r} != the Wilson interval of "
                           f"{count} {k} of {total} {m}")
    for key, v in obj.items():
        _check_rates(v, out, f"{path}.{key}")


def _same(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return _close(a, b)
    return a == b


def _audit(problem: str, rows: list, payload: dict, seed: int, out: list) -> None:
    """Step 9: a random sample of the cheap committed units recomputed."""
    import numpy as np

    from g2s.heuristics import HEURISTIC_METHODS
    from g2s.reference.certificates import load_certificates
    from reproduce.harness.grid import evaluate_unit
    from reproduce.harness.rebuild import cheap
    stored: dict = {}
    units = []
    for row in rows:
        f = row.get("family")
        if f not in stored:
            try:
                stored[f] = load_certificates(problem, f)
            except (ValueError, TypeError):
                stored[f] = {}
        if f"{row.get('n')}/{row.get('index')}" not in stored[f]:
            continue                       # not a certified instance: nothing to compare
        for m, r in sorted(row["results"].items()):
            if m in HEURISTIC_METHODS and isinstance(r, dict) and "objective" in r \
                    and cheap(None, None, r):
                units.append((f, row["n"], row["index"], m, r["objective"]))
    if not units:
        return
    rng = np.random.default_rng(seed)
    for j in sorted(rng.choice(len(units), min(AUDIT_UNITS, len(units)), replace=False)):
        f, n, i, m, want = units[j]
        got = evaluate_unit(problem, f, n, i, m, None, "cpu", payload.get("t_max", 15))
        if got["objective"] != want:
            out.append(f"instances {f}/{n}/{i}/{m}: committed objective {want} != "
                       f"{got['objective']} recomputed (audit seed {seed})")


def drift(payload: dict, cache_dir: Path | None = None, summarise=None,
          recompute=None, audit_seed: int | None = None, audit=None) -> list[str]:
    """Every summarised number of ``payload`` that its raw records do not reproduce;
    ``summarise``: the script's ``summarise(raw)``, whose every key is recomputed;
    ``recompute``: the script's ``recompute(payload)``, the whole payload computed again (a
    script cheap and deterministic enough, whose raw numbers are themselves computed facts:
    Figure 5's trees), every key of which must equal the stored one; ``audit``: the script's
    ``audit(payload, seed)``, its own audit of committed units too long to recompute whole
    (Figure 2(b)'s covers), whose lines are drift; ``audit_seed``: the seed of step 9's sample
    and of ``audit``'s (default: a fresh one, :func:`reproduce.harness.rebuild.fresh_seed`)."""
    from reproduce.harness.rebuild import fresh_seed
    seed = fresh_seed() if audit_seed is None else audit_seed
    out: list[str] = []
    if audit is not None:
        out.extend(audit(payload, seed))
    if recompute is not None:
        fresh = json.loads(json.dumps(recompute(payload)))
        for key, value in fresh.items():
            if not _same(payload.get(key), value):
                out.append(f"{key} differs from a fresh computation (the script's recompute)")
    _check_rates({k: v for k, v in payload.items() if k != "provenance"}, out)
    try:  # a JSON without every key summarise reads (Figure 3 stores no 'methods') is skipped
        again = json.loads(json.dumps(summarise(payload))) if summarise is not None else {}
    except KeyError:
        again = {}
    for key, value in again.items():
        if not _same(payload.get(key), value):
            out.append(f"{key} does not follow from the raw records (the script's "
                       "summarise gives other numbers)")
    for problem, rows, points in _groups(payload):
        if problem is None or not all(isinstance(r, dict) and "results" in r for r in rows):
            continue
        _check_references(problem, rows, out)
        _check_rows(problem, rows, out)
        _check_points(rows, points, out)
        _check_cache(problem, rows, payload, cache_dir, out)
        if "seed_spread" in payload:
            _check_spread(payload["seed_spread"], points, out)
        if "reference_beaten" in payload:
            _check_never_beaten(problem, rows, out)
        _audit(problem, rows, payload, seed, out)
    if "reference_beaten" in payload:
        if payload["reference_beaten"] != reference_beaten(payload):
            out.append("reference_beaten does not match the rows' improved references")
    return out


def _check_never_beaten(problem: str, rows: list, out: list) -> None:
    """In a JSON written since the reference is never beaten silently (it has
    ``reference_beaten``), no method result is better than its row's reference: a better one
    was made the reference when the run wrote the JSON."""
    from g2s.reference.formulations import better
    for row in rows:
        ref = row["reference"]["objective"]
        for m, r in row["results"].items():
            if "objective" in r and better(problem, r["objective"], ref):
                out.append(f"instances {row['family']}/{row['n']}/{row['index']}/{m}: objective "
                           f"{r['objective']} beats the reference {ref} silently")
