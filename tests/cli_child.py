"""Run the ``g2s`` command in a fresh Python with test code injected around its import.

Tests of interrupts and failing imports need the real entry point (``g2s.cli.run``: its signal
handlers, its exit codes, its flushing) in a process of its own, with a fault planted at an
exact place.  ``before`` runs ahead of ``import g2s.cli as cli`` (to plant faults in the
imports), ``setup`` after it (to wrap what ``cli`` calls); both see ``os``, ``signal``,
``sys`` and ``time``.
"""

from __future__ import annotations

import signal
import subprocess
import sys


def default_sigint():
    """``preexec_fn``: the child starts with SIGINT's default action.  A process started in the
    background by a non-interactive shell (``nohup ... &``) inherits an ignored SIGINT, and
    Python then installs no handler, so a Ctrl-C test would see nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_cli_child(argv: list[str], *, cwd, before: str = "", setup: str = "", sigint=None,
                  timeout: float = 120) -> subprocess.CompletedProcess:
    """``g2s ARGV`` through ``g2s.cli.run()`` in a child started with SIGINT's action set by
    ``sigint`` (a ``preexec_fn``; default: Python's own handler)."""
    script = ("import os, signal, sys, time\n" + before + "\nimport g2s.cli as cli\n" + setup +
              f"\nsys.argv = ['g2s', *{list(argv)!r}]\ncli.run()\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, preexec_fn=sigint or default_sigint)
