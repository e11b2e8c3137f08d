"""``python -m g2s.certificates build | build-all | upgrade | verify | summary | compare``: the
command line of the stored reference results, :mod:`g2s.reference.certificates` (whose docstring
describes the commands; ``compare`` measures what an upgrade changed)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from g2s import argtypes
from g2s.graphs import FAMILIES
from g2s.io.input_graph import MAX_VERTICES
from g2s.problems import PROBLEMS
from g2s.reference import certificates
from g2s.reference.certificates import (
    CERTIFIED_INSTANCES,
    DEFAULT_TIME_LIMIT,
    CertificateError,
    certificate_files,
    certificate_path,
    load_certificates,
    read_certificate_file,
    reference,
    upgrade,
    verify_all,
)

__all__ = ["main"]


def _build(args) -> None:
    from tqdm import tqdm

    keys = [(n, i) for n in args.sizes for i in range(args.start, args.start + args.count)]
    bar = tqdm(keys, desc=f"{args.problem}/{args.family}", unit="graph")
    for n, i in bar:
        res = reference(args.problem, args.family, n, i, time_limit=args.time_limit,
                        directory=args.directory)
        bar.set_postfix_str(f"n={n} {res.status} gap={res.gap:.3f} {res.method}")


def _upgrade(args) -> None:
    from tqdm import tqdm

    todo = [(doc["problem"], doc["family"], key)
            for path in certificate_files(args.directory)
            for doc in [read_certificate_file(path)]
            if args.problem in (None, doc["problem"]) and args.family in (None, doc["family"])
            for key, e in doc["instances"].items() if e["status"] != "optimal"]
    improved = 0
    bar = tqdm(todo, desc="upgrade", unit="graph")
    for problem, family, key in bar:
        if load_certificates(problem, family, args.directory)[key]["status"] == "optimal":
            continue  # made optimal by its complementary entry's upgrade
        c = upgrade(problem, family, key, args.budget, args.seed, args.bound_time_limit,
                    args.directory)
        improved += c["objective"] != c["objective_before"]
        bar.set_postfix_str(f"{problem}/{family}/{key} {c['objective_before']}->"
                            f"{c['objective']} ({c['best_known_by']})")
    print(f"{improved} of {len(todo)} non-optimal entries improved; files under "
          f"{certificate_path('mvc', 'er', args.directory).parent}")


def _summary(directory: Path | None) -> None:
    for path in certificate_files(directory):
        doc = read_certificate_file(path)
        inst = doc["instances"].values()
        opt = sum(e.get("status") == "optimal" for e in inst)
        methods = sorted({str(e.get("method")) for e in inst})
        print(f"{doc['problem']:7s} {doc['family']:21s} {opt:3d}/{len(inst):3d} optimal  "
              f"{', '.join(methods)}")


def compare(before: Path, after: Path | None = None) -> list[dict]:
    """Per (problem, family, size), what the certificates in ``after`` (default: the package's)
    changed against those in ``before``: on the graphs both hold with the same fingerprint,
    how many references improved, the old reference's ratio against the new one
    (:func:`g2s.problems.approximation_ratio`: >= 1, how far the yardstick was from the new best
    known; mean and worst), the proven-optimal counts before and after, and the mean gap of the
    new best known to its proven bound."""
    from g2s.problems import approximation_ratio
    from g2s.reference.formulations import better
    rows: dict = {}
    for path in certificate_files(after):
        new = read_certificate_file(path)
        old_path = Path(before) / path.name
        if not old_path.exists():
            continue
        old, problem = read_certificate_file(old_path), new["problem"]
        for key, e in sorted(new["instances"].items()):
            o = old["instances"].get(key)
            if o is None or o.get("fingerprint") != e.get("fingerprint"):
                continue
            n = int(key.split("/")[0])
            r = rows.setdefault((problem, new["family"], n), {
                "problem": problem, "family": new["family"], "n": n, "graphs": 0,
                "improved": 0, "worse": 0, "ratios": [], "gaps": [],
                "optimal_before": 0, "optimal_after": 0})
            r["graphs"] += 1
            r["improved"] += better(problem, e["objective"], o["objective"])
            r["worse"] += better(problem, o["objective"], e["objective"])
            r["ratios"].append(approximation_ratio(problem, o["objective"], e["objective"]))
            if e.get("bound") is not None:
                r["gaps"].append(approximation_ratio(problem, e["objective"], e["bound"]))
            r["optimal_before"] += o["status"] == "optimal"
            r["optimal_after"] += e["status"] == "optimal"
    out = []
    for r in (rows[k] for k in sorted(rows)):
        ratios, gaps = r.pop("ratios"), r.pop("gaps")
        out.append({**r, "old_vs_new_mean": sum(ratios) / len(ratios),
                    "old_vs_new_worst": max(ratios),
                    "new_gap_to_bound_mean": sum(gaps) / len(gaps) if gaps else None})
    return out


def _compare(args) -> int:
    from g2s.fsutil import atomic_write_json
    if not Path(args.before).is_dir():
        print(f"python -m g2s.certificates compare: --before {str(args.before)[:80]!r} is not "
              "a folder of certificates", file=sys.stderr)
        return 1
    certificate_files(args.before)      # an empty folder shares nothing: say which
    rows = compare(args.before, args.directory)
    if not rows:
        print("python -m g2s.certificates compare: the two folders share no certificate",
              file=sys.stderr)
        return 1
    print(f"{'problem':7s} {'family':21s} {'n':>5s} {'graphs':>6s} {'improved':>8s} "
          f"{'old/new mean':>12s} {'worst':>6s} {'optimal':>9s} {'gap':>6s}")
    for r in rows:
        gap = "" if r["new_gap_to_bound_mean"] is None else f"{r['new_gap_to_bound_mean']:.3f}"
        print(f"{r['problem']:7s} {r['family']:21s} {r['n']:5d} {r['graphs']:6d} "
              f"{r['improved']:8d} {r['old_vs_new_mean']:12.4f} {r['old_vs_new_worst']:6.3f} "
              f"{r['optimal_before']:4d}>{r['optimal_after']:<4d} {gap:>6s}")
    if args.json is not None:
        atomic_write_json(args.json, {"before": args.before_label or str(args.before),
                                      "after": str(args.directory or "the package's folder"),
                                      "rows": rows})
    return 0


def _family(text: str) -> str:
    if text not in FAMILIES:
        raise argparse.ArgumentTypeError(f"unknown graph family {text!r}; expected one of "
                                         f"{', '.join(FAMILIES)}")
    return text


def _existing_dir(text: str) -> Path:
    """A certificate folder that is read: it must exist and be a folder."""
    path = Path(text)
    if not path.is_dir():
        what = "is not a folder" if path.exists() else "does not exist"
        raise argparse.ArgumentTypeError(f"{text!r} {what}")
    return path


#: a size the generators are asked for: at most the vertex limit of an input graph
_size = argtypes.int_from_1_to(MAX_VERTICES)


def build_parser() -> argparse.ArgumentParser:
    parser = argtypes.OneLineParser(prog="python -m g2s.certificates",
                                    description=certificates.__doc__,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="solve and store missing certificates (resumable)")
    b.add_argument("--problem", choices=PROBLEMS, required=True)
    b.add_argument("--family", type=_family, required=True,
                   help=f"a graph family: {', '.join(FAMILIES)}")
    b.add_argument("--sizes", type=_size, nargs="+", required=True,
                   help=f"vertex counts, 1 to {MAX_VERTICES:,} (the input graphs' limit)")
    b.add_argument("--count", type=argtypes.positive_int, default=1, help="instances per size")
    b.add_argument("--start", type=argtypes.nonnegative_int, default=0,
                   help="first instance index (default 0)")
    b.add_argument("--time-limit", type=argtypes.time_limit, default=DEFAULT_TIME_LIMIT)
    a = sub.add_parser("build-all", help="build every entry of CERTIFIED_INSTANCES")
    a.add_argument("--time-limit", type=argtypes.time_limit, default=DEFAULT_TIME_LIMIT)
    u = sub.add_parser("upgrade", help="strengthen every stored entry that is not proven "
                       "optimal: best known solution, optionally a tighter bound")
    u.add_argument("--budget", type=argtypes.time_limit, default=5.0,
                   help="seconds for the best-known solver per graph (default 5)")
    u.add_argument("--bound-time-limit", type=argtypes.optional_time_limit, default=0.0,
                   help="seconds for the warm-started 0/1 programs per graph, for a tighter "
                        "bound (default 0: keep the stored bounds)")
    u.add_argument("--seed", type=argtypes.seed, default=0, help="solver seed (default 0)")
    u.add_argument("--problem", choices=PROBLEMS, default=None, help="only this problem")
    u.add_argument("--family", type=_family, default=None, help="only this family")
    c = sub.add_parser("compare", help="what the certificates changed against an older folder "
                       "of them: improved references per size, old/new ratio, optimal counts")
    c.add_argument("--before", type=Path, required=True,
                   help="the older certificate folder (e.g. from git archive of an earlier "
                        "commit)")
    c.add_argument("--json", type=argtypes.output_file, default=None,
                   help="also write the rows to this JSON")
    c.add_argument("--before-label", default=None, metavar="TEXT",
                   help="what the older folder is, recorded in the JSON (e.g. 'main at abc123'; "
                        "default: its path)")
    v = sub.add_parser("verify", help="re-check every stored certificate (a claimed bound or "
                       "optimum is also tested against the greedy heuristic)")
    s = sub.add_parser("summary", help="count proven-optimal certificates per file")
    for p, kind in ((b, argtypes.output_dir), (a, argtypes.output_dir), (u, _existing_dir),
                    (c, _existing_dir), (v, _existing_dir), (s, _existing_dir)):
        p.add_argument("--directory", type=kind, default=None,
                       help="certificate folder (default: the package's data folder)")
    return parser


def main(argv=None) -> int:
    """The command; 0 success, 1 a certificate that fails or cannot be read (one line each),
    2 a bad command line, 130 interrupted."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "build":
            _build(args)
        elif args.command == "build-all":
            for (args.problem, args.family), blocks in CERTIFIED_INSTANCES.items():
                for args.sizes, args.count in blocks:
                    args.start = 0
                    _build(args)
        elif args.command == "upgrade":
            _upgrade(args)
        elif args.command == "compare":
            return _compare(args)
        elif args.command == "verify":
            for name, (k, opt) in verify_all(args.directory).items():
                print(f"{name}: {k} verified, {opt} optimal")
        else:
            _summary(args.directory)
    except CertificateError as exc:
        print(f"python -m g2s.certificates {args.command}: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:   # a size a family's generator refuses, ...
        print(f"python -m g2s.certificates {args.command}: error: {' '.join(str(exc).split())}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"python -m g2s.certificates {args.command}: interrupted (finished entries are "
              "stored)", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
