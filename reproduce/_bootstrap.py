"""Make the repository root importable when a script runs as ``python reproduce/NAME.py``.

Python then puts ``reproduce/`` itself, not the repository root, first on ``sys.path``, so
``import reproduce`` would fail.  Each script starts with::

    if not __package__:  # run as python reproduce/NAME.py
        import _bootstrap  # noqa: F401

which finds this module next to the script and adds the root once.  Imported as
``reproduce.NAME`` (tests, ``python -m reproduce.NAME``) a script skips it.
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
