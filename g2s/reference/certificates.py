"""Cached reference results ("certificates") for the project's seeded evaluation graphs.

The paper compares every method with Gurobi's answer under a 240 s cut-off (arXiv:1802.04948,
Section 5).  Re-solving NP-hard instances in CI is too slow, so the answers of
:func:`g2s.reference.solver.solve_reference` are stored in the repository, one JSON file per
``(problem, family)`` under ``g2s/data/certificates/``, keyed by ``"n/index"``.  An entry holds the
graph fingerprint, the solution, the proven bound, the status, the method, the solve time and the
time limit.  Loading an entry re-checks it without re-solving (:func:`verify_certificate`):

* the regenerated graph has the stored fingerprint (the generator did not drift);
* the solution is feasible and has the stored objective (:func:`g2s.problems.check_solution`);
* the bound lies on the right side of the objective, equals it iff ``status == "optimal"``,
  and does not contradict what is known for free: ``0 <= cut <= |E|``, ``alpha <= n``, König's
  theorem on bipartite graphs (``tau = nu``, a maximum matching, recomputed in O(E sqrt V)),
  and a generator's recorded optimal cover.

MIS and MVC on the same graph are complementary (Gallai 1959: ``alpha + tau = n``; ``S`` is
independent iff ``V - S`` is a cover), so a missing MIS entry is derived exactly from a stored
MVC entry of the same graph and vice versa.

Command line (:mod:`g2s.certificates`; resumable: each finished instance is written at once,
atomically)::

    python -m g2s.certificates build --problem mvc --family er --sizes 25 50 --count 5 \\
        --time-limit 30
    python -m g2s.certificates upgrade --budget 5 [--bound-time-limit 30]
    python -m g2s.certificates verify
    python -m g2s.certificates summary
    python -m g2s.certificates compare --before OLD_FOLDER [--json OUT]

``upgrade`` strengthens every stored entry that is not proven optimal (:func:`upgrade`): the
best known solution from the state-of-the-art solver, and optionally a tighter bound.
``compare`` says what the stored certificates changed against an older folder of them (per
size: references improved, the old reference's ratio against the new one, optimal counts).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

import networkx as nx

from g2s.edge_array import EdgeArray
from g2s.fsutil import atomic_write_text
from g2s.graphs import SIZE_LADDER, graph_fingerprint, instance_edges, instance_graph, instance_seed
from g2s.problems import PROBLEMS, SENSE, check_solution
from g2s.reference.best_known import best_known_solution, solver_versions
from g2s.reference.formulations import better, tighter
from g2s.reference.solver import (
    ReferenceResult,
    bipartite_matching_number,
    solve_reference,
    with_current_names,
)

__all__ = [
    "CERTIFICATE_DIR",
    "DEFAULT_TIME_LIMIT",
    "CERTIFIED_INSTANCES",
    "certified_keys",
    "CertificateError",
    "instance_graph",
    "certificate_path",
    "certificate_files",
    "read_certificate_file",
    "load_certificates",
    "verify_certificate",
    "reference",
    "verify_all",
    "record_improvement",
    "upgrade",
]

CERTIFICATE_DIR = Path(__file__).resolve().parent.parent / "data" / "certificates"
#: per-instance CP-SAT limit used for the stored certificates (the paper's Gurobi ran 240 s)
DEFAULT_TIME_LIMIT = 30.0
_COMPLEMENT = {"mvc": "mis", "mis": "mvc"}
_LADDER = SIZE_LADDER
#: the certified evaluation instances: (problem, family) -> blocks of (sizes, instances per
#: size).  The grid's 20 graphs per size up to 400 vertices, and the ``scale`` profile's 3
#: graphs per size at 800-3,200 vertices (Figures 2 and 3 there)
CERTIFIED_INSTANCES = {
    ("mvc", "greedy_worst"): ((_LADDER, 1),),
    ("mvc", "bipartite"): ((_LADDER[:5], 20), (_LADDER[5:], 3)),
    ("mvc", "regular"): ((_LADDER[:5], 20), (_LADDER[5:], 3)),
    ("mvc", "er"): ((_LADDER[:5], 20), (_LADDER[5:], 3)),
    ("maxcut", "er"): ((_LADDER[:5], 20),),
    ("maxcut", "grid"): ((_LADDER[:5], 20),),
    ("mis", "er"): ((_LADDER[:5], 20),),
    ("mis", "structured_bipartite"): ((_LADDER, 1),),
}


def certified_keys(problem: str, family: str) -> list[str]:
    """The ``"n/index"`` keys :data:`CERTIFIED_INSTANCES` promises for one problem and family."""
    return [f"{n}/{i}" for sizes, count in CERTIFIED_INSTANCES[problem, family]
            for n in sizes for i in range(count)]


class CertificateError(ValueError):
    """A stored certificate does not check out against its regenerated graph."""


def certificate_path(problem: str, family: str, directory: Path | None = None) -> Path:
    return Path(directory or CERTIFICATE_DIR) / f"{problem}_{family}.json"


def read_certificate_file(path: Path) -> dict:
    """One certificate file's document (``problem``, ``family``, ``instances``), or
    :class:`CertificateError` naming the file when it cannot be read or is not one (empty,
    truncated, not JSON, another shape)."""
    try:
        doc = json.loads(Path(path).read_bytes())
    except OSError as exc:
        raise CertificateError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:
        why = "empty" if not str(exc) or "Expecting value: line 1 column 1 (char 0)" in str(exc) \
            else f"not JSON: {exc}"
        raise CertificateError(f"{path}: not a certificate file ({why})") from None
    if not (isinstance(doc, dict) and isinstance(doc.get("instances"), dict)
            and doc.get("problem") in PROBLEMS and isinstance(doc.get("family"), str)
            and all(isinstance(e, dict) for e in doc["instances"].values())):
        raise CertificateError(f"{path}: not a certificate file (expected an object with "
                               "problem, family and instances)")
    return doc


def load_certificates(problem: str, family: str, directory: Path | None = None) -> dict:
    """All stored entries of one ``(problem, family)``: ``{"n/index": entry}``."""
    path = certificate_path(problem, family, directory)
    if not path.exists():
        return {}
    return read_certificate_file(path)["instances"]


@contextlib.contextmanager
def _locked(directory: Path):
    """Serialise read-modify-write of certificate files between processes (POSIX flock)."""
    directory.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX: no locking
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _store(problem: str, family: str, key: str, entry: dict, directory: Path | None) -> None:
    directory = Path(directory or CERTIFICATE_DIR)
    with _locked(directory):
        instances = load_certificates(problem, family, directory)
        instances[key] = entry
        ordered = dict(sorted(instances.items(),
                              key=lambda kv: tuple(map(int, kv[0].split("/")))))
        head = json.dumps({"problem": problem, "family": family, "format": 1})[:-1]
        body = ",\n".join(f"  {json.dumps(k)}: {json.dumps(e)}" for k, e in ordered.items())
        # one line per instance: small, reviewable diffs
        atomic_write_text(certificate_path(problem, family, directory),
                          f'{head}, "instances": {{\n{body}\n}}}}\n')


def verify_certificate(problem: str, family: str, key: str, entry: dict,
                       G: nx.Graph | None = None, heuristic: bool = False) -> ReferenceResult:
    """Re-check one stored entry (module docstring) and return it as a result; never re-solves.

    ``heuristic``: also refute a bound (an "optimal" claim is a bound equal to the objective)
    that a cheap search beats -- the greedy heuristic's solution
    (:func:`g2s.heuristics.greedy`, ``O(E log V)``) is feasible, so ``OPT`` is at least as
    good as it, and a lower bound on a cover above it (an upper bound on a cut below it) is
    false -- and check a bound proven by the eigenvalue bound against that bound recomputed.
    ``verify`` does this for every entry; a graph whose optimum is already known for free
    (König, a generator's recorded cover) needs no search."""
    n, index = map(int, key.split("/"))
    # the graph as an edge array: built once per process, its bipartite facts computed once
    E = instance_edges(family, n, index) if G is None else EdgeArray.of(G)
    where = f"{problem}/{family}/{key}"
    if graph_fingerprint(E) != entry["fingerprint"]:
        raise CertificateError(f"{where}: graph fingerprint changed (generator drifted)")
    for k in ("objective", "bound"):
        if not isinstance(entry.get(k), int) or isinstance(entry.get(k), bool):
            raise CertificateError(f"{where}: {k} {entry.get(k)!r} is not an integer")
    if not isinstance(entry.get("solution"), list):
        raise CertificateError(f"{where}: solution {entry.get('solution')!r:.40} is not a list")
    try:
        res = ReferenceResult.from_json({"problem": problem, **entry})
    except KeyError as exc:
        raise CertificateError(f"{where}: no {exc.args[0]!r} field") from None
    try:
        value = check_solution(problem, E, res.solution)
    except ValueError as exc:
        raise CertificateError(f"{where}: {exc}") from None
    if value != res.objective:
        raise CertificateError(f"{where}: objective {value} != stored {res.objective}")
    lo, hi = (res.bound, value) if SENSE[problem] == "min" else (value, res.bound)
    if lo > hi:
        raise CertificateError(f"{where}: bound {res.bound} on the wrong side of {value}")
    if (res.status == "optimal") != (res.bound == value):
        raise CertificateError(f"{where}: status {res.status} but bound {res.bound}, "
                               f"objective {value}")
    known = []  # (lower, upper) facts about OPT that cost no search
    if problem == "maxcut":
        known.append((0, E.number_of_edges()))
        if E.coloring is not None:
            known.append((E.number_of_edges(), E.number_of_edges()))
    else:
        known.append((0, E.number_of_nodes()))
        if E.coloring is not None:
            nu = bipartite_matching_number(E)  # König: tau = nu, alpha = |V| - nu
            k = nu if problem == "mvc" else E.number_of_nodes() - nu
            known.append((k, k))
        cover = E.graph.get("optimal_cover")
        if cover is not None:
            k = len(cover) if problem == "mvc" else E.number_of_nodes() - len(cover)
            known.append((k, k))
    for k_lo, k_hi in known:
        if lo > k_hi or hi < k_lo:
            raise CertificateError(f"{where}: [{lo}, {hi}] contradicts OPT in [{k_lo}, {k_hi}]")
    exact_known = any(a == b for a, b in known)
    if heuristic and (not exact_known or getattr(res, "bound_by", None) == "eigenvalue"):
        # the greedy heuristic runs on the edge array (g2s.heuristics.ON_EDGE_ARRAYS); a
        # networkx graph is built only for the eigenvalue bound's check
        _refute_bound(problem, E if G is None else G, res, where, exact_known=exact_known)
    return res


def _refute_bound(problem: str, G: nx.Graph, res: ReferenceResult, where: str,
                  exact_known: bool) -> None:
    """:func:`verify_certificate`'s ``heuristic`` checks: the bound against the greedy
    heuristic's objective and, when the eigenvalue bound proved it, against that bound."""
    from g2s.heuristics import greedy
    from g2s.reference.exact import max_cut_eigenvalue_bound
    claim = "optimal" if res.status == "optimal" else "bound"
    if not exact_known:
        found = check_solution(problem, G, greedy(problem, G, seed=0))
        if better(problem, found, res.bound):
            raise CertificateError(f"{where}: {claim} {res.bound} is refuted by the greedy "
                                   f"heuristic, which finds {found}")
    if getattr(res, "bound_by", None) == "eigenvalue":
        proven = max_cut_eigenvalue_bound(G.to_networkx() if isinstance(G, EdgeArray) else G)
        if proven is None or res.bound < proven:
            raise CertificateError(f"{where}: bound {res.bound} is credited to the eigenvalue "
                                   f"bound, which proves {proven}")


def _entry(G: nx.Graph, family: str, n: int, index: int, res: ReferenceResult,
           time_limit: float) -> dict:
    d = res.to_json()
    d.pop("problem")
    return {"fingerprint": graph_fingerprint(G), "seed": instance_seed(family, n, index),
            "num_nodes": G.number_of_nodes(), "num_edges": G.number_of_edges(), **d,
            "time_limit": time_limit}


def _complement(res: ReferenceResult, G: nx.Graph) -> ReferenceResult:
    """MIS <-> MVC on the same graph (Gallai): complement the solution, ``n - bound``."""
    n = G.number_of_nodes()
    other = _COMPLEMENT[res.problem]
    S = sorted(set(G) - set(res.solution))
    return ReferenceResult(problem=other, objective=n - res.objective, solution=tuple(S),
                           bound=n - res.bound, status=res.status,
                           method=f"{res.method} (complement of {res.problem})",
                           seconds=res.seconds)


def reference(problem: str, family: str, n: int, index: int,
              time_limit: float = DEFAULT_TIME_LIMIT, solve_missing: bool = True,
              directory: Path | None = None) -> ReferenceResult:
    """The certified reference result of one evaluation instance (stored, derived or solved).

    A stored entry is verified (:func:`verify_certificate`) and returned whatever its time
    limit was.  A missing one is derived from the complementary problem's entry (MVC <-> MIS),
    else solved with :func:`g2s.reference.solver.solve_reference` and stored atomically, unless
    ``solve_missing`` is false (then :class:`KeyError`).
    """
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem {problem!r}")
    key = f"{n}/{index}"
    G = instance_edges(family, n, index)
    stored = load_certificates(problem, family, directory).get(key)
    if stored is not None:
        return verify_certificate(problem, family, key, stored, G)
    other = load_certificates(_COMPLEMENT[problem], family, directory).get(key) \
        if problem in _COMPLEMENT else None
    if other is not None:
        res = _complement(verify_certificate(_COMPLEMENT[problem], family, key, other, G), G)
        limit = other["time_limit"]
    elif solve_missing:
        res, limit = solve_reference(problem, G.to_networkx(), time_limit=time_limit), time_limit
    else:
        raise KeyError(f"no certificate for {problem}/{family}/{key}")
    _store(problem, family, key, _entry(G, family, n, index, res, limit), directory)
    return res


def _stored_order(v) -> tuple:
    """Sort key for a stored solution: integer vertices in numeric order (as the solvers store
    them), any other labels after them by ``repr``."""
    return (0, v, "") if isinstance(v, int) else (1, 0, repr(v))


def record_improvement(problem: str, family: str, n: int, index: int, solution, by: str,
                       directory: Path | None = None) -> ReferenceResult | None:
    """Store ``solution`` as the best known of one instance if it beats the stored one.

    The reference is never beaten silently: a method that finds a better solution than a
    stored, not proven optimal, reference becomes the best known (recorded as found by ``by``;
    the proven bound is kept, and the status becomes ``optimal`` if the two now meet).  The
    complementary MVC / MIS entry of the same graph, when stored, is updated with the
    complement.  Returns the updated result, or ``None`` when ``solution`` is not better.
    Raises :class:`CertificateError` when it beats a proven bound (the bound or the solution
    check is wrong) and ``ValueError`` when it is infeasible.
    """
    key = f"{n}/{index}"
    G = instance_graph(family, n, index)
    entry = load_certificates(problem, family, directory).get(key)
    if entry is None:
        raise KeyError(f"no certificate for {problem}/{family}/{key}")
    res = verify_certificate(problem, family, key, entry, G)
    value = check_solution(problem, G, solution)
    if not better(problem, value, res.objective):
        return None
    if better(problem, value, res.bound):
        raise CertificateError(f"{problem}/{family}/{key}: {by}'s objective {value} beats the "
                               f"proven bound {res.bound}")
    updates = [(problem, sorted(solution, key=_stored_order), value, res.bound)]
    if problem in _COMPLEMENT and key in load_certificates(_COMPLEMENT[problem], family,
                                                           directory):
        other = load_certificates(_COMPLEMENT[problem], family, directory)[key]
        nv = G.number_of_nodes()
        updates.append((_COMPLEMENT[problem], sorted(set(G) - set(solution), key=_stored_order),
                        nv - value, other["bound"]))
    for prob, sol, val, bound in updates:
        stored = with_current_names(load_certificates(prob, family, directory)[key])
        stored.update(solution=sol, objective=val, best_known_by=by,
                      status="optimal" if val == bound else "time_limit")
        verify_certificate(prob, family, key, stored, G)
        _store(prob, family, key, stored, directory)
    return verify_certificate(problem, family, key,
                              load_certificates(problem, family, directory)[key], G)


def upgrade(problem: str, family: str, key: str, budget: float, seed: int = 0,
            bound_time_limit: float = 0.0, directory: Path | None = None) -> dict:
    """Strengthen one stored entry: the best known solution from the state-of-the-art solver
    (:func:`g2s.reference.best_known.best_known_solution`, ``budget`` seconds, competing with the
    stored solution), and, with ``bound_time_limit > 0``, the 0/1 programs warm-started from it for
    a tighter proven bound.  A proven bound stays valid whatever solution is found later, so
    the stored one is kept unless the new one is tighter.  Returns what changed."""
    n, index = map(int, key.split("/"))
    G = instance_graph(family, n, index)
    entry = load_certificates(problem, family, directory)[key]
    old = verify_certificate(problem, family, key, entry, G)
    change = {"key": key, "objective_before": old.objective, "bound_before": old.bound}
    res = None
    if old.status != "optimal":
        known = best_known_solution(problem, G, budget, seed, extra={"stored": old.solution})
        # record_improvement stores only a strictly better solution (and its complement)
        record_improvement(problem, family, n, index, known.solution, known.by, directory)
        current = verify_certificate(problem, family, key,
                                     load_certificates(problem, family, directory)[key], G)
        if bound_time_limit > 0 and current.status != "optimal":
            res = solve_reference(problem, G, time_limit=bound_time_limit,
                                  hint=set(current.solution), seed=seed)
            record_improvement(problem, family, n, index, res.solution, res.best_known_by,
                               directory)
    stored = with_current_names(load_certificates(problem, family, directory)[key])
    if res is not None:
        if tighter(problem, res.bound, stored["bound"]):
            stored.update(bound=res.bound, bound_by=res.bound_by)
        stored["bound_time_limit"] = bound_time_limit
    stored["status"] = "optimal" if stored["objective"] == stored["bound"] else "time_limit"
    stored["versions"] = solver_versions()
    verify_certificate(problem, family, key, stored, G)
    _store(problem, family, key, stored, directory)
    change.update(objective=stored["objective"], bound=stored["bound"],
                  best_known_by=stored.get("best_known_by"), status=stored["status"])
    return change


_KEY = re.compile(r"[1-9][0-9]*/(0|[1-9][0-9]*)")


def certificate_files(directory: Path | None = None) -> list[Path]:
    """The certificate files (``*.json``) of a folder, sorted; :class:`CertificateError` when
    the folder is missing, not a folder, or holds none (a mistyped path must not verify
    nothing and succeed)."""
    directory = Path(directory or CERTIFICATE_DIR)
    if not directory.is_dir():
        what = "is not a folder" if directory.exists() else "does not exist"
        raise CertificateError(f"{directory}: {what}")
    files = sorted(p for p in directory.glob("*.json") if p.is_file())
    if not files:
        raise CertificateError(f"{directory}: holds no certificate files (*.json)")
    return files


def verify_all(directory: Path | None = None) -> dict:
    """Re-check every stored certificate; ``{"problem/family": (checked, optimal)}``.

    Raises :class:`CertificateError` on one line: how many failed, the first three.
    """
    directory = Path(directory or CERTIFICATE_DIR)
    summary, failures = {}, []
    for path in certificate_files(directory):
        doc = read_certificate_file(path)
        problem, family = doc["problem"], doc["family"]
        optimal = 0
        for key, entry in doc["instances"].items():
            try:
                if not _KEY.fullmatch(key):
                    raise CertificateError(f"{problem}/{family}/{key}: not an 'n/index' key")
                res = verify_certificate(problem, family, key, entry, heuristic=True)
                optimal += res.status == "optimal"
            except CertificateError as exc:
                failures.append(str(exc))
            except ValueError as exc:   # an unknown family, a size its generator refuses
                failures.append(f"{problem}/{family}/{key}: {exc}")
        summary[f"{problem}/{family}"] = (len(doc["instances"]), optimal)
    if failures:
        more = f"; and {len(failures) - 3} more" if len(failures) > 3 else ""
        raise CertificateError(f"{len(failures)} certificate(s) failed: "
                               + "; ".join(failures[:3]) + more)
    return summary
