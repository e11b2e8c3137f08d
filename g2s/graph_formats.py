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
from contextlib import ExitStack
from pathlib import PurePath

import networkx as nx

from g2s.graph_io import (
    _EXTENSIONS,
    MAX_INPUT_MIB,
    MAX_VERTICES,
    NUL_MESSAGE,
    QUOTE_CHARS,
    GraphFormatError,
    InputGraph,
    from_networkx,
    quote,
    too_many_vertices,
)
from g2s.graph_metis import metis_bytes, read_metis

__all__ = ["COMPRESSIONS", "MAX_LAYERS", "NEW_FORMATS", "compression_of", "decompress",
           "sniff_format", "read_matrix_market", "read_metis", "metis_bytes",
           "matrix_market_bytes", "READERS", "WRITERS", "read_limited", "input_too_large",
           "CHUNK_BYTES"]

#: formats this module adds to :data:`g2s.graph_io.FORMATS`
NEW_FORMATS = ("mtx", "metis")
#: compression formats recognised by magic bytes
COMPRESSIONS = ("gzip", "bzip2", "xz", "zip")
#: at most this many nested compression layers are undone
MAX_LAYERS = 3
_SUFFIXES = {".gz": "gzip", ".gzip": "gzip", ".z": "gzip", ".bz2": "bzip2", ".bz": "bzip2",
             ".xz": "xz", ".lzma": "xz", ".zip": "zip"}


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()  # cut: a parser's message may quote a whole line of the input
    return text.splitlines()[0][:200] if text else type(exc).__name__


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


#: compressed input is unpacked in chunks of this many bytes
CHUNK_BYTES = 2**20


def input_too_large(what: str, limit: int) -> GraphFormatError:
    """The refusal of input beyond ``limit`` bytes (:data:`g2s.graph_io.MAX_INPUT_MIB`)."""
    return GraphFormatError(f"{what}: more than {limit / 2**20:g} MiB of input (the limit; "
                            "--max-input-mib raises it)")


def read_limited(fh, limit: int, what: str, check_nul: bool = False) -> bytes:
    """All of the binary stream ``fh``, refused as soon as it passes ``limit`` bytes.

    With ``check_nul``, content that is not itself compressed is refused at its first NUL byte
    (as :func:`g2s.graph_io.decode_text` would, but without unpacking the rest first).
    """
    buf = bytearray()
    while True:
        chunk = fh.read(min(CHUNK_BYTES, limit + 1 - len(buf)))
        if not chunk:
            return bytes(buf)
        if not buf:  # content that is itself compressed (a nested layer) is binary
            check_nul = check_nul and compression_of(chunk) is None
        if check_nul:
            at = chunk.find(b"\x00")
            if at >= 0:
                line = buf.count(b"\n") + chunk.count(b"\n", 0, at) + 1
                raise GraphFormatError(f"{what}: line {line}: {NUL_MESSAGE}")
        buf += chunk
        if len(buf) > limit:
            raise input_too_large(what, limit)


def _zip_member(zf: zipfile.ZipFile, name: str) -> zipfile.ZipInfo:
    members = [i for i in zf.infolist()
               if not i.is_dir() and not i.filename.startswith("__MACOSX/")]
    if not members:
        raise GraphFormatError(f"zip: {name} holds no file")
    if len(members) > 1:
        shown = ", ".join(i.filename[:QUOTE_CHARS] for i in members[:5])
        more = f" and {len(members) - 5} more" if len(members) > 5 else ""
        raise GraphFormatError(f"zip: {name} holds {len(members)} files ({shown}{more}); "
                               "extract the one graph to solve")
    return members[0]


def _open_layer(kind: str, raw: bytes, name: str, stack: ExitStack):
    """A stream of the unpacked content of ``raw`` and the inner file name."""
    if kind == "zip":
        zf = stack.enter_context(zipfile.ZipFile(io.BytesIO(raw)))
        member = _zip_member(zf, name)
        return stack.enter_context(zf.open(member)), PurePath(member.filename).name
    opener = {"gzip": gzip.GzipFile, "bzip2": bz2.BZ2File, "xz": lzma.LZMAFile}[kind]
    return stack.enter_context(opener(fileobj=io.BytesIO(raw)) if kind == "gzip"
                               else opener(io.BytesIO(raw))), _strip_suffix(name)


def decompress(raw: bytes, name: str, limit: int | None = None,
               fmt: str | None = None) -> tuple[bytes, str]:
    """Undo compression found by magic bytes; return ``(content, inner file name)``.

    The inner name drops the compression suffix (``g.clq.gz`` -> ``g.clq``) or is the zip
    member's name; it decides the format when no ``--format`` is given.  Uncompressed input is
    returned unchanged (a ``.gz`` suffix on a plain file is dropped from the name only).

    Each layer is unpacked as a stream and refused once it passes ``limit`` bytes (default
    :data:`g2s.graph_io.MAX_INPUT_MIB` MiB), or at a NUL byte in the final, uncompressed
    content unless that is GraphML (``fmt``, else the inner name), which may be UTF-16.
    """
    limit = MAX_INPUT_MIB * 2**20 if limit is None else limit
    name = PurePath(name).name
    for _ in range(MAX_LAYERS):
        kind = compression_of(raw)
        if kind is None:
            return raw, _strip_suffix(name)
        try:
            with ExitStack() as stack:
                fh, inner = _open_layer(kind, raw, name, stack)
                xml = (fmt or _EXTENSIONS.get(PurePath(inner).suffix.lower())) == "graphml"
                raw = read_limited(fh, limit, inner, check_nul=not xml)
                name = inner
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

def _check_size_line(text: str, layout: str, size: int) -> None:
    """Refuse, before scipy allocates anything, a size line declaring more than
    :data:`g2s.graph_io.MAX_VERTICES` rows, a non-square matrix, or a dense (``array``) matrix
    with more values than the file's ``size`` bytes can hold (scipy allocates it whole)."""
    for lineno, line in enumerate(text.lstrip().split("\n")[1:], 2):
        parts = line.split()
        if not parts or parts[0].startswith("%"):
            continue
        if not 2 <= len(parts) <= 3 or not all(t.isascii() and t.isdigit() for t in parts):
            raise GraphFormatError(f"MatrixMarket: line {lineno}: expected the size line 'ROWS "
                                   f"COLUMNS [ENTRIES]', got {quote(line.strip())}")
        rows, cols = int(parts[0]), int(parts[1])
        if rows != cols:
            raise GraphFormatError(f"MatrixMarket: an adjacency matrix is square; this one is "
                                   f"{rows} x {cols}")
        if rows > MAX_VERTICES:
            raise too_many_vertices(rows, f"MatrixMarket: line {lineno}: the size line declares ")
        if layout == "array" and rows * rows > size // 2:  # a value and a separator each
            raise GraphFormatError(f"MatrixMarket: line {lineno}: a dense {rows} x {rows} matrix "
                                   f"needs {rows * rows} values; the file is {size} bytes")
        return


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
                               f"FIELD SYMMETRY', got {quote(' '.join(banner))}")
    symmetry = banner[4].lower()
    _check_size_line(text, banner[2].lower(), len(raw))
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
