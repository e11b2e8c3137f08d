"""What a Dask worker runs for one unit of work (see :mod:`reproduce.harness.engine`).

The client sends :func:`call` by value (its code, not its name), so neither the scheduler nor
a worker needs more than the installed dependencies: on the worker it puts the client's
checkout on ``sys.path`` (workers share the checkout, as they share the cache), checks that
the sources it would import are the client's (:func:`code_digest`), then imports and runs the
unit's function.  It uses no module globals, for that reason.
"""

from __future__ import annotations

import hashlib
import os

__all__ = ["PACKAGES", "code_digest", "call"]

#: the packages whose sources determine a unit's result
PACKAGES = ("g2s", "theory", "reproduce")

_DIGESTS: dict = {}


def code_digest(root: str) -> str:
    """SHA-256 (16 hex digits) of every ``.py`` file of :data:`PACKAGES` under ``root``, with
    its relative path: two checkouts with one digest run the same code."""
    h = hashlib.sha256()
    for pkg in PACKAGES:
        for dirpath, dirnames, files in os.walk(os.path.join(root, pkg)):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(dirpath, name)
                h.update(os.path.relpath(path, root).encode() + b"\0")
                with open(path, "rb") as fh:
                    h.update(fh.read() + b"\0")
    return h.hexdigest()[:16]


def call(root: str, digest: str, target: str, args: tuple):
    """Run ``target`` (``"module:function"``) on ``args`` from the checkout at ``root``, after
    checking that its sources have the client's ``digest`` (computed once per process)."""
    import importlib
    import sys
    if root not in sys.path:
        sys.path.insert(0, root)
    # the imported copy holds the memo
    worker = importlib.import_module("reproduce.harness._worker")
    mine = worker._DIGESTS.get(root)
    if mine is None:
        mine = worker._DIGESTS[root] = worker.code_digest(root)
    if mine != digest:
        raise RuntimeError(f"this worker's sources under {root} (digest {mine}) differ from the "
                           f"client's ({digest}); restart the workers from the same checkout")
    module, _, name = target.partition(":")
    fn = importlib.import_module(module)
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn(*args)
