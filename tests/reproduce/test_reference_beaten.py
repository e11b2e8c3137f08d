"""The reference is never beaten silently (reproduce.harness.grid, reproduce.common,
reproduce.harness.rederive).

Invariants:

* a method whose solution beats a stored reference that is not proven optimal becomes the
  best known: the certificate is updated, the row records who and the objective before;
* a method that beats a proven optimum is an error, never a ratio below 1;
* the figure JSON counts the rows whose reference was beaten, and the claims check re-derives
  that count and refuses a JSON where a result beats its reference silently.
"""

from __future__ import annotations

import pytest

from g2s.reference import best_known as BK
from g2s.reference import certificates as C
from reproduce.common import reference_beaten
from reproduce.harness.grid import _never_beaten_silently
from reproduce.harness.rederive import drift

FAMILY, N, INDEX = "er", 50, 0


@pytest.fixture()
def weak_store(tmp_path, monkeypatch):
    """A certificate folder whose mvc/er/50/0 reference is deliberately weak."""
    import dataclasses

    from g2s.problems import check_solution
    from g2s.reference.solver import solve_reference
    monkeypatch.setattr(C, "CERTIFICATE_DIR", tmp_path)
    G = C.instance_graph(FAMILY, N, INDEX)
    opt = solve_reference("mvc", G)
    poor = set(G) - {min(G)}   # feasible, far from the optimum, beside the true bound
    res = dataclasses.replace(opt, solution=tuple(sorted(poor)),
                              objective=check_solution("mvc", G, poor), status="time_limit")
    C._store("mvc", FAMILY, f"{N}/{INDEX}", C._entry(G, FAMILY, N, INDEX, res, 0.01), tmp_path)
    return G, res


def _row(ref, results):
    return {"family": FAMILY, "n": N, "index": INDEX,
            "reference": {"objective": ref.objective, "bound": ref.bound, "status": ref.status,
                          "method": ref.method},
            "results": {m: {"objective": v["objective"]} for m, v in results.items()}}


def test_a_better_method_solution_becomes_the_reference(weak_store):
    G, weak = weak_store
    assert weak.status != "optimal"
    better = sorted(BK.best_known_solution("mvc", G, time_limit=0.2).solution)
    found = {"greedy": {"objective": weak.objective, "solution": list(weak.solution)},
             "g2s_rnn_s4": {"objective": len(better), "solution": better}}
    ref, improved = _never_beaten_silently("mvc", FAMILY, N, INDEX, weak, found)
    assert improved == {"by": "g2s_rnn_s4", "objective_before": weak.objective}
    assert ref.objective == len(better) and ref.best_known_by == "g2s_rnn_s4"
    stored = C.reference("mvc", FAMILY, N, INDEX, solve_missing=False)
    assert stored.objective == len(better)
    # nothing better now: the reference stays
    again, none = _never_beaten_silently("mvc", FAMILY, N, INDEX, ref, found)
    assert none is None and again == ref


def test_beating_a_proven_optimum_is_an_error(tmp_path, monkeypatch):
    from g2s.reference.solver import solve_reference
    monkeypatch.setattr(C, "CERTIFICATE_DIR", tmp_path)
    G = C.instance_graph(FAMILY, 25, 0)
    opt = solve_reference("mvc", G)
    assert opt.status == "optimal"
    fake = {"broken": {"objective": opt.objective - 1, "solution": list(opt.solution)[1:]}}
    with pytest.raises(AssertionError, match="proven optimum"):
        _never_beaten_silently("mvc", FAMILY, 25, 0, opt, fake)


def test_the_count_is_shown_and_rederived(weak_store):
    G, weak = weak_store
    better = sorted(BK.best_known_solution("mvc", G, time_limit=0.2).solution)
    found = {"g2s_rnn_s1": {"objective": len(better), "solution": better}}
    ref, improved = _never_beaten_silently("mvc", FAMILY, N, INDEX, weak, found)
    row = _row(ref, found)
    row["reference"]["improved"] = improved
    payload = {"problem": "mvc", "instances": [row], "points": {}}
    payload["reference_beaten"] = reference_beaten(payload)
    assert payload["reference_beaten"]["count"] == 1
    assert not [d for d in drift(payload) if "reference" in d and "ratio" not in d]
    tampered = dict(payload, reference_beaten={**payload["reference_beaten"], "count": 0})
    assert any("reference_beaten" in d for d in drift(tampered))
    # a result better than its row's reference, not recorded: drift
    silent = _row(weak, found)
    payload2 = {"problem": "mvc", "instances": [silent], "points": {}}
    payload2["reference_beaten"] = reference_beaten(payload2)
    assert any("silently" in d for d in drift(payload2))
