"""The reproduce scripts as processes: worker counts capped at the CPUs, signals ending every
process they started, pipes closed early, one line on stderr and the documented exit code.

Invariants:

* ``--workers`` above the CPUs this process may use is capped with a one-line warning
  (figure scripts, ``all.py``, ``train_all.py``);
* ``train_all.py --list`` into a reader that stops early exits 0 without a traceback;
* SIGINT / SIGTERM to a script that runs a process pool: one line, exit 130 / 143, and no
  worker or resource tracker left running;
* ``all.py``: an interrupted step is one line and exit 130; ``--from`` a step that ``--only``
  leaves out is a command-line error (exit 2).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from g2s.argtypes import available_cpus
from tests.g2s.test_bad_inputs import assert_one_line_error

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str) -> str:
    return str(ROOT / "reproduce" / f"{name}.py")


def test_train_all_list_into_a_closed_pipe_is_no_error():
    p = subprocess.Popen([sys.executable, _script("train_all"), "--list"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()                          # the reader is gone before the first line
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_train_all_workers_are_capped_at_the_cpus():
    p = subprocess.run([sys.executable, _script("train_all"), "--list", "--workers", "9999"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and f"--workers 9999 is more than the {available_cpus()}" in lines[0]
