"""Ctrl-C during the import of a compiled extension is an interrupt, not a missing package.

OR-Tools' and torch's extension loaders turn a ``KeyboardInterrupt`` raised while they
initialise into ``ImportError('initialization failed')`` (the interrupt only its cause). Before,
``g2s solve --method reference`` then fell back to HiGHS and exited 0 with a full answer
(about 1 run in 9 when Ctrl-C came 0.8-1.0 s after start). The subprocess below makes that
import fail the same way, deterministically, by wrapping ``__import__``.
"""

from __future__ import annotations

import json

import pytest

from g2s.optional import interrupted, reraise_interrupt
from tests.cli_child import run_cli_child

_FAIL_IMPORT = """
import builtins
real = builtins.__import__
def fake(name, *args, **kwargs):
    if name == "ortools.sat.python.cp_model":
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            {raise_}
    return real(name, *args, **kwargs)
builtins.__import__ = fake
"""


def _solve(tmp_path, raise_):
    path = tmp_path / "g.txt"
    n = 61  # an odd cycle with chords: not bipartite, no forest, past exhaustive enumeration
    path.write_text("".join(f"{i} {(i + 1) % n}\n{i} {(i + 7) % n}\n" for i in range(n)))
    return run_cli_child(["solve", "--problem", "mvc", "--method", "reference",
                          "--time-limit", "1", str(path)], cwd=tmp_path,
                         before=_FAIL_IMPORT.format(raise_=raise_))


def test_an_import_cut_short_by_ctrl_c_stops_the_reference_with_exit_130(tmp_path):
    p = _solve(tmp_path, 'raise ImportError("initialization failed") from exc')
    assert p.returncode == 130, (p.returncode, p.stderr)
    assert p.stdout == "" and p.stderr.strip() == "g2s: interrupted"


def test_a_missing_package_still_falls_back_to_highs(tmp_path):
    p = _solve(tmp_path, 'raise ImportError("No module named ortools") from None')
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["how"] == "highs"


def test_the_interrupt_is_found_anywhere_in_the_chain():
    try:
        try:
            raise KeyboardInterrupt("x")
        except KeyboardInterrupt as ki:
            try:
                raise RuntimeError("inner") from ki
            except RuntimeError as inner:
                raise ImportError("initialization failed") from inner
    except ImportError as exc:
        assert isinstance(interrupted(exc), KeyboardInterrupt)
        with pytest.raises(KeyboardInterrupt):
            reraise_interrupt(exc)
    plain = ImportError("No module named chils")
    assert interrupted(plain) is None
    reraise_interrupt(plain)  # returns: the caller's fallback runs
