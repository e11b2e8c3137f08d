"""Make the repository root importable when a script runs as ``python reproduce/NAME.py``.

Python then puts ``reproduce/`` itself, not the repository root, first on ``sys.path``, so
``import reproduce`` would fail.  Each script starts with::

    if not __package__:  # run as python reproduce/NAME.py
        import _bootstrap  # noqa: F401

which finds this module next to the script and adds the root once.  Imported as
``reproduce.NAME`` (tests, ``python -m reproduce.NAME``) a script skips it.

It also makes Ctrl-C (SIGINT) or SIGTERM while the script is still importing its modules
(torch, matplotlib: seconds) one line and exit ``128 + signal``, not a traceback out of the
middle of an import; the script's own handler
(:func:`reproduce.harness.contract.interruptible`) takes over when its work starts.  Nothing
has been started or written yet, so the process just ends.
"""

import os
import signal
import sys
from multiprocessing import parent_process
from pathlib import Path


def _interrupted_while_starting(signum, frame):
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "script"
    os.write(2, f"reproduce/{name}: interrupted by {signal.Signals(signum).name} while "
                f"starting; nothing was written\n".encode())
    os._exit(128 + signum)


if parent_process() is None:   # not in a pool worker, which re-imports the script
    for _sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_sig, _interrupted_while_starting)

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
