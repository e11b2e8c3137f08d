"""``benchmarks/device_check.py`` as run on a machine: without CUDA, and with bad options, it
is one line on stderr and a non-zero exit before any process starts or any file is written.

Invariants:

* no CUDA device (``--device cuda``, the default): one line, exit 1, no output folder, no
  worker started (the command ends within seconds of its imports);
* every option is validated at the parser (exit 2): worker counts, limits, budgets, seeds that
  name no shipped model, an ``--out`` that is a file or a device;
* a ``--skip-done`` file that is not a units.jsonl is one line naming the file and line;
* ``--help`` describes the command in whole sentences.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.g2s.test_bad_inputs import assert_one_line_error, snapshot

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "benchmarks" / "device_check.py")


def _run(*args, cwd):
    p = subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True,
                       text=True, timeout=180, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def _cuda() -> bool:
    import torch
    return torch.cuda.is_available()


@pytest.mark.torch
@pytest.mark.skipif(_cuda(), reason="the machine has CUDA")
def test_no_cuda_is_one_line_and_starts_nothing(tmp_path):
    out = tmp_path / "out"
    rc, stdout, err = _run("--out", out, "--budget-s", "5", cwd=tmp_path)
    assert_one_line_error(rc, err, 1, "no CUDA device")
    assert not out.exists() and stdout == ""


@pytest.mark.parametrize("args,needle", [
    (["--workers", "0"], "--workers"),
    (["--workers", "-1"], "--workers"),
    (["--limit", "-1"], "--limit"),
    (["--budget-s", "-1"], "--budget-s"),
    (["--budget-s", "nan"], "--budget-s"),
    (["--save-every-s", "0"], "--save-every-s"),
    (["--grace-s", "-1"], "--grace-s"),
    (["--seeds", "99999"], "no shipped model of these units has training seed 99999"),
    (["--encoders", "bogus"], "--encoders"),
    (["--device", "tpu"], "--device"),
    (["--resume-dir", "{file}"], "--resume-dir"),
    (["--out", "{file}"], "--out"),
    (["--out", "/dev/full"], "--out"),
])
def test_bad_options_are_refused_before_anything_starts(tmp_path, args, needle):
    f = tmp_path / "a_file"
    f.write_text("keep\n")
    argv = ["--out", tmp_path / "out", *[a.format(file=f) for a in args]]
    before = snapshot(tmp_path)
    rc, stdout, err = _run(*argv, cwd=tmp_path)
    assert_one_line_error(rc, err, 2, needle)
    assert snapshot(tmp_path) == before and stdout == ""


@pytest.mark.torch
def test_a_garbage_skip_done_file_is_one_line_naming_it(tmp_path):
    bad = tmp_path / "units.jsonl"
    bad.write_text('{"family": "er", "n": 25, "index": 0, "checkpoint": "x"}\nnot json\n')
    before = snapshot(tmp_path)
    rc, _, err = _run("--out", tmp_path / "out", "--skip-done", bad, cwd=tmp_path)
    assert_one_line_error(rc, err, 1, f"--skip-done {bad}: line 2")
    assert snapshot(tmp_path) == before


def test_help_describes_the_command_in_whole_sentences(tmp_path):
    p = subprocess.run([sys.executable, SCRIPT, "--help"], capture_output=True, text=True,
                       timeout=60, cwd=tmp_path)
    assert p.returncode == 0
    text = " ".join(p.stdout.split())
    assert "timed at the paper's scale, and the model units of the paper-scale runs." in text
