"""Make the repository root importable when a script runs as ``python reproduce/NAME.py``.

Python then puts ``reproduce/`` itself, not the repository root, first on ``sys.path``, so
``import reproduce`` would fail.  Each script starts with::

    if not __package__:  # run as python reproduce/NAME.py
        import _bootstrap  # noqa: F401

which finds this module next to the script and adds the root once.  Imported as
``reproduce.NAME`` (tests, ``python -m reproduce.NAME``) a script skips it.

It also makes Ctrl-C (SIGINT) or SIGTERM one line on stderr and exit ``128 + signal`` (130,
143) wherever it lands -- while the script still imports its modules (torch, matplotlib:
seconds), or in a script that does not run through
:func:`reproduce.harness.contract.script_main` (whose own handler,
:func:`reproduce.harness.contract.interruptible`, takes over there): the signal is raised as
``KeyboardInterrupt`` so ``finally`` blocks run (an atomic write removes its temporary file),
and an uncaught one, or an import that it cut short, is reported in one line instead of a
traceback.  A process-pool worker, which imports the script again, is left alone.
"""

import os
import signal
import sys
from multiprocessing import parent_process
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


class Signalled(KeyboardInterrupt):
    """SIGINT or SIGTERM, raised where the script was; ``signum`` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise(signum, frame):
    raise Signalled(signum)


def _one_line(kind, exc, tb):
    """``sys.excepthook``: an interrupt (or an import failure it caused) in one line."""
    from g2s.optional import interrupted
    cause = interrupted(exc)
    if cause is None:
        return sys.__excepthook__(kind, exc, tb)
    signum = getattr(cause, "signum", signal.SIGINT)
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "script"
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    os.write(2, f"reproduce/{name}: interrupted by {signal.Signals(signum).name}\n".encode())
    os._exit(128 + signum)


if parent_process() is None:   # not in a pool worker
    for _sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_sig, _raise)
    sys.excepthook = _one_line
