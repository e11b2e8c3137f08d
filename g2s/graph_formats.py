"""Compressed graph files, MatrixMarket and METIS: readers behind :func:`g2s.graph_io.read_graph`.

Benchmark sets ship their graphs compressed and in the sparse-matrix world's formats; this module
reads them with the same validation as :mod:`g2s.graph_io` (one-line :class:`GraphFormatError`
messages that name the line; self-loops and graphs without vertices refused; duplicate edges
dropped with a warning) and returns the same :class:`~g2s.graph_io.InputGraph`.

Compression (:func:`decompress`) is recognised by its magic bytes, whatever the file is called:
gzip (``1f 8b``), bzip2 (``BZh`` and a block-size digit), xz (``fd 37 7a 58 5a 00``) and zip
(``PK 03 04``; an empty archive ``PK 05 06``).  A zip archive must hold exactly one file
(directories and ``__MACOSX/`` metadata are skipped); one with several is refused, naming them.
Up to :data:`MAX_LAYERS` layers are undone (``.zip`` of a ``.gz``).  The format of what is inside
is then taken from the inner name (``brock200_2.clq.gz`` -> ``.clq``), else sniffed.

MatrixMarket (``.mtx``; any file whose first line is the ``%%MatrixMarket`` banner) is parsed by
:func:`scipy.io.mmread`.  The matrix is the adjacency matrix of a graph on vertices ``1..N``:

* it must be square, ``N x N`` (``vector`` objects and rectangular matrices are refused);
* ``coordinate`` files: every listed off-diagonal entry is an edge, whatever its value
  (``pattern``, ``real``, ``integer`` and ``complex`` alike; weights are ignored, as an edge
  list's weight column is); ``array`` (dense) files: every nonzero off-diagonal entry is an edge;
* ``symmetric``, ``skew-symmetric`` and ``hermitian`` files list one triangle; ``general`` files
  list an undirected edge as the two entries ``(i, j)`` and ``(j, i)``.  An entry without its
  transpose is still read as an undirected edge, with a warning: MVC, max cut and MIS of a
  directed graph are those of its underlying undirected graph;
* a diagonal entry is a self-loop and is refused; an entry listed twice is dropped with a warning.

METIS (``.graph``, ``.metis``) is read by :mod:`g2s.graph_metis` (its docstring gives the
format); this module registers it in :data:`READERS` and :data:`WRITERS`.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zipfile
import zlib
from pathlib import PurePath

import networkx as nx

from g2s.graph_io import GraphFormatError, InputGraph, from_networkx
from g2s.graph_metis import metis_bytes, read_metis

__all__ = ["COMPRESSIONS", "MAX_LAYERS", "NEW_FORMATS", "compression_of", "decompress",
           "sniff_format", "read_matrix_market", "read_metis", "metis_bytes",
           "matrix_market_bytes", "READERS", "WRITERS"]

#: formats this module adds to :data:`g2s.graph_io.FORMATS`
NEW_FORMATS = ("mtx", "metis")
#: compression formats recognised by magic bytes
COMPRESSIONS = ("gzip", "bzip2", "xz", "zip")
#: at most this many nested compression layers are undone
MAX_LAYERS = 3
_SUFFIXES = {".gz": "gzip", ".gzip": "gzip", ".z": "gzip", ".bz2": "bzip2", ".bz": "bzip2",
             ".xz": "xz", ".lzma": "xz", ".zip": "zip"}


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def compression_of(raw: bytes) -> str | None:
    """``"gzip"``, ``"bzip2"``, ``"xz"``, ``"zip"`` from the magic bytes, else ``None``."""
    if raw[:2] == b"\x1f\x8b":
        return "gzip"
    if raw[:3] == b"BZh" and raw[3:4].isdigit() and raw[3:4] != b"0":
        return "bzip2"
    if raw[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if raw[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    return None


def _strip_suffix(name: str) -> str:
    p = PurePath(name)
    return p.stem if p.suffix.lower() in _SUFFIXES else p.name


def _unzip(raw: bytes, name: str) -> tuple[bytes, str]:
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        members = [i for i in zf.infolist()
                   if not i.is_dir() and not i.filename.startswith("__MACOSX/")]
        if not members:
            raise GraphFormatError(f"zip: {name} holds no file")
        if len(members) > 1:
            shown = ", ".join(i.filename for i in members[:5])
            more = f" and {len(members) - 5} more" if len(members) > 5 else ""
            raise GraphFormatError(f"zip: {name} holds {len(members)} files ({shown}{more}); "
                                   "extract the one graph to solve")
        return zf.read(members[0]), PurePath(members[0].filename).name


_UNPACK = {"gzip": lambda raw, name: (gzip.decompress(raw), _strip_suffix(name)),
           "bzip2": lambda raw, name: (bz2.decompress(raw), _strip_suffix(name)),
           "xz": lambda raw, name: (lzma.decompress(raw), _strip_suffix(name)),
           "zip": _unzip}


def decompress(raw: bytes, name: str) -> tuple[bytes, str]:
    """Undo compression found by magic bytes; return ``(content, inner file name)``.

    The inner name drops the compression suffix (``g.clq.gz`` -> ``g.clq``) or is the zip
    member's name; it decides the format when no ``--format`` is given.  Uncompressed input is
    returned unchanged (a ``.gz`` suffix on a plain file is dropped from the name only).
    """
    name = PurePath(name).name
    for _ in range(MAX_LAYERS):
        kind = compression_of(raw)
        if kind is None:
            return raw, _strip_suffix(name)
        try:
            raw, name = _UNPACK[kind](raw, name)
        except GraphFormatError:
            raise
        except (OSError, EOFError, ValueError, RuntimeError, NotImplementedError, zlib.error,
                lzma.LZMAError, zipfile.BadZipFile) as exc:
            raise GraphFormatError(f"{kind}: cannot decompress {name}: "
                                   f"{_first_line(exc)}") from None
    if compression_of(raw) is not None:
        raise GraphFormatError(f"{name}: more than {MAX_LAYERS} nested compression layers")
    return raw, name


def sniff_format(text: str) -> str | None:
    """``"mtx"`` when the text starts with the MatrixMarket banner (it outranks the extension)."""
    return "mtx" if text.lstrip()[:14].lower() == "%%matrixmarket" else None


# --- MatrixMarket --------------------------------------------------------------------------------

def read_matrix_market(raw: bytes, text: str | None = None) -> InputGraph:
    """The graph whose adjacency matrix a MatrixMarket file holds (module docstring)."""
    import numpy as np
    import scipy.io

    text = raw.decode("utf-8", errors="replace") if text is None else text
    banner = text.lstrip().split("\n", 1)[0].split()
    if not banner or banner[0].lower() != "%%matrixmarket":
        raise GraphFormatError("MatrixMarket: line 1: expected the '%%MatrixMarket matrix "
                               "coordinate pattern symmetric' banner")
    if len(banner) != 5 or banner[1].lower() != "matrix":
        raise GraphFormatError(f"MatrixMarket: line 1: expected '%%MatrixMarket matrix FORMAT "
                               f"FIELD SYMMETRY', got {' '.join(banner)!r}")
    symmetry = banner[4].lower()
    try:
        A = scipy.io.mmread(io.BytesIO(raw))
    except Exception as exc:  # noqa: BLE001 - scipy raises ValueError, OSError, ... per parser
        raise GraphFormatError(f"MatrixMarket: {_first_line(exc)}") from None
    if A.shape[0] != A.shape[1]:
        raise GraphFormatError(f"MatrixMarket: an adjacency matrix is square; this one is "
                               f"{A.shape[0]} x {A.shape[1]}")
    n = int(A.shape[0])
    if isinstance(A, np.ndarray):
        rows, cols = np.nonzero(A)
    else:
        A = A.tocoo()
        rows, cols = np.asarray(A.row), np.asarray(A.col)
    diag = rows == cols
    if diag.any():
        v = int(rows[diag][0]) + 1
        raise GraphFormatError(f"MatrixMarket: diagonal entry ({v}, {v}) is a self-loop at "
                               f"vertex {v}: only simple graphs are supported")
    warnings = []
    pairs = set(zip(rows.tolist(), cols.tolist()))
    # mmread mirrors a symmetric file's entries: count duplicates per listed entry
    dup = (len(rows) - len(pairs)) // (1 if symmetry == "general" else 2)
    if dup:
        warnings.append(f"dropped {dup} duplicate matrix entr{'y' if dup == 1 else 'ies'}")
    lonely = sum((j, i) not in pairs for i, j in pairs)
    if lonely:
        warnings.append(f"{lonely} off-diagonal entr{'y' if lonely == 1 else 'ies'} without "
                        "a transpose entry (an unsymmetric matrix): read as undirected edges")
    H = nx.Graph()
    H.add_nodes_from(range(1, n + 1))
    H.add_edges_from((i + 1, j + 1) for i, j in pairs)
    return from_networkx(H, warnings)


def matrix_market_bytes(G: nx.Graph) -> bytes:
    """``G`` as a ``coordinate pattern symmetric`` MatrixMarket file (vertices in sorted order)."""
    idx = {v: i + 1 for i, v in enumerate(sorted(G.nodes))}
    n = len(idx)
    entries = sorted((max(idx[u], idx[v]), min(idx[u], idx[v])) for u, v in G.edges())
    lines = ["%%MatrixMarket matrix coordinate pattern symmetric", f"{n} {n} {len(entries)}"]
    lines += [f"{i} {j}" for i, j in entries]
    return ("\n".join(lines) + "\n").encode()


#: format name -> reader ``(raw bytes, decoded text) -> InputGraph``
READERS = {"mtx": read_matrix_market, "metis": read_metis}
#: format name -> writer ``G -> bytes``
WRITERS = {"mtx": matrix_market_bytes, "metis": metis_bytes}
