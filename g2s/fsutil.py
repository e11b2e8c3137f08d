"""Atomic file writes: readers see the old file or the whole new one, never a torn write."""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["atomic_write_bytes", "atomic_write_text", "atomic_write_json", "jsonable"]


def _new_file_mode() -> int:
    """The mode a plain ``open(path, "w")`` would give a new file: ``0o666`` less the umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_bytes(path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and ``os.replace``.

    Only a regular file (or a new path) is replaced: a folder, device, FIFO or socket at
    ``path`` raises :class:`IsADirectoryError` / :class:`OSError` and is left alone, and so
    does a file this process may not write (:class:`PermissionError`).  A
    symbolic link is followed, so the link stays and its target gets the new contents.  An
    existing file keeps its permission bits; a new one gets the usual umask permissions (not
    ``mkstemp``'s ``0600``).
    """
    path = Path(os.path.realpath(path))
    if path.exists() and not path.is_file():
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        raise OSError(errno.EINVAL, "not a regular file; refusing to replace it", str(path))
    if path.exists() and not os.access(path, os.W_OK):  # replacing it would bypass its mode
        raise PermissionError(errno.EACCES, "not writable; refusing to replace it", str(path))
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else _new_file_mode()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path, text: str) -> None:
    atomic_write_bytes(path, text.encode())


def jsonable(obj: Any) -> Any:
    """Convert numpy scalars/arrays and tuples to plain JSON types; NaN becomes null."""
    import numpy as np
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        seq = sorted(obj) if isinstance(obj, (set, frozenset)) else obj
        return [jsonable(v) for v in seq]
    if isinstance(obj, np.generic):
        return jsonable(obj.item())
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, float) and obj != obj:
        return None
    return obj


def atomic_write_json(path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(jsonable(obj), indent=1, sort_keys=True) + "\n")
