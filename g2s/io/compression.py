"""Compressed graph files: gzip, bzip2, xz and single-file zip, unpacked before a reader sees
them (:func:`g2s.io.files.read_graph`).

Benchmark sets ship their graphs compressed.  Compression (:func:`decompress`) is recognised by
its magic bytes, whatever the file is called: gzip (``1f 8b``), bzip2 (``BZh`` and a block-size
digit), xz (``fd 37 7a 58 5a 00``) and zip (``PK 03 04``; an empty archive ``PK 05 06``).  A zip
archive must hold exactly one file (directories and ``__MACOSX/`` metadata are skipped); one
with several is refused, naming them.  Up to :data:`MAX_LAYERS` layers are undone (``.zip`` of
a ``.gz``).  The format of what is inside is then taken from the inner name
(``brock200_2.clq.gz`` -> ``.clq``), else sniffed.  Errors are one-line
:class:`~g2s.io.input_graph.GraphFormatError` messages, as every reader's.

Every layer is unpacked as a stream and refused as soon as it passes the size limit
(:data:`~g2s.io.input_graph.MAX_INPUT_MIB`), so a small compressed file (a "decompression
bomb") never takes more memory than the limit; :func:`read_limited` reads plain files the same
way.
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

from g2s.io.input_graph import (
    EXTENSIONS,
    MAX_INPUT_MIB,
    NUL_MESSAGE,
    QUOTE_CHARS,
    GraphFormatError,
    first_line,
)

__all__ = ["COMPRESSIONS", "MAX_LAYERS", "compression_of", "decompress", "read_limited",
           "input_too_large", "CHUNK_BYTES"]

#: compression formats recognised by magic bytes
COMPRESSIONS = ("gzip", "bzip2", "xz", "zip")
#: at most this many nested compression layers are undone
MAX_LAYERS = 3
_SUFFIXES = {".gz": "gzip", ".gzip": "gzip", ".z": "gzip", ".bz2": "bzip2", ".bz": "bzip2",
             ".xz": "xz", ".lzma": "xz", ".zip": "zip"}


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
    """The refusal of input beyond ``limit`` bytes (:data:`g2s.io.input_graph.MAX_INPUT_MIB`)."""
    return GraphFormatError(f"{what}: more than {limit / 2**20:g} MiB of input (the limit; "
                            "--max-input-mib raises it)")


def read_limited(fh, limit: int, what: str, check_nul: bool = False) -> bytes:
    """All of the binary stream ``fh``, refused as soon as it passes ``limit`` bytes.

    With ``check_nul``, content that is not itself compressed is refused at its first NUL byte
    (as :func:`g2s.io.input_graph.decode_text` would, but without unpacking the rest first).
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


#: the extensions of the documentation a benchmark ships beside its graph (BHOSLIB's zips
#: hold one ``.clq`` and a readme); a ``.txt`` beside a graph is documentation unless it reads
#: as an edge list (:func:`_looks_like_edge_list`)
DOC_EXTENSIONS = (".html", ".htm", ".txt", ".md", ".pdf", ".rst", ".tex", ".ps")
#: documentation files without an extension
DOC_NAMES = ("readme", "license", "licence", "copying", "authors", "changelog")


def _looks_like_edge_list(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bool:
    """Whether a ``.txt`` member reads as an edge list (its first 4 KiB: every line that is
    not blank or a comment holds two or three tokens), so it is a graph, not a readme."""
    with zf.open(info) as fh:
        head = fh.read(4096).decode("utf-8", errors="replace")
    lines = [ln for ln in head.splitlines()[:-1] or head.splitlines()
             if ln.strip() and not ln.lstrip().startswith(("#", "%"))]
    return bool(lines) and all(2 <= len(ln.split()) <= 3 for ln in lines)


def _is_documentation(filename: str, zf: zipfile.ZipFile | None = None,
                      info: zipfile.ZipInfo | None = None) -> bool:
    p = PurePath(filename)
    if p.suffix.lower() == ".txt" and zf is not None and _looks_like_edge_list(zf, info):
        return False
    return p.suffix.lower() in DOC_EXTENSIONS or (not p.suffix and p.name.lower() in DOC_NAMES)


def _zip_member(zf: zipfile.ZipFile, name: str, notes: list) -> zipfile.ZipInfo:
    """The graph member of a zip: its only file, or the only file with a graph format's
    extension when every other one is documentation (said in ``notes``)."""
    members = [i for i in zf.infolist()
               if not i.is_dir() and not i.filename.startswith("__MACOSX/")]
    if not members:
        raise GraphFormatError(f"zip: {name} holds no file")
    if len(members) == 1:
        return members[0]
    docs = [i for i in members if _is_documentation(i.filename, zf, i)]
    graphs = [i for i in members if i not in docs
              and PurePath(i.filename).suffix.lower() in EXTENSIONS]
    others = [i for i in members if i not in graphs]
    if len(graphs) == 1 and len(docs) == len(others):
        shown = ", ".join(PurePath(i.filename).name[:QUOTE_CHARS] for i in others[:3])
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        notes.append(f"zip: read {graphs[0].filename[:QUOTE_CHARS]}, the one graph in {name}; "
                     f"left out {len(others)} documentation file"
                     f"{'s' if len(others) > 1 else ''} ({shown}{more})")
        return graphs[0]
    shown = ", ".join(i.filename[:QUOTE_CHARS] for i in members[:5])
    more = f" and {len(members) - 5} more" if len(members) > 5 else ""
    raise GraphFormatError(f"zip: {name} holds {len(members)} files ({shown}{more}); "
                           "extract the one graph to solve")


def _open_layer(kind: str, raw: bytes, name: str, stack: ExitStack, notes: list):
    """A stream of the unpacked content of ``raw`` and the inner file name."""
    if kind == "zip":
        zf = stack.enter_context(zipfile.ZipFile(io.BytesIO(raw)))
        member = _zip_member(zf, name, notes)
        return stack.enter_context(zf.open(member)), PurePath(member.filename).name
    opener = {"gzip": gzip.GzipFile, "bzip2": bz2.BZ2File, "xz": lzma.LZMAFile}[kind]
    return stack.enter_context(opener(fileobj=io.BytesIO(raw)) if kind == "gzip"
                               else opener(io.BytesIO(raw))), _strip_suffix(name)


def decompress(raw: bytes, name: str, limit: int | None = None,
               fmt: str | None = None, notes: list | None = None) -> tuple[bytes, str]:
    """Undo compression found by magic bytes; return ``(content, inner file name)``.

    The inner name drops the compression suffix (``g.clq.gz`` -> ``g.clq``) or is the zip
    member's name; it decides the format when no ``--format`` is given.  Uncompressed input is
    returned unchanged (a ``.gz`` suffix on a plain file is dropped from the name only).

    Each layer is unpacked as a stream and refused once it passes ``limit`` bytes (default
    :data:`g2s.io.input_graph.MAX_INPUT_MIB` MiB), or at a NUL byte in the final, uncompressed
    content unless that is GraphML (``fmt``, else the inner name), which may be UTF-16.
    A zip of one graph and its documentation is read, with a line in ``notes`` (the warnings
    the caller reports) saying which member was read and which were left out.
    """
    limit = MAX_INPUT_MIB * 2**20 if limit is None else limit
    notes = [] if notes is None else notes
    name = PurePath(name).name
    for _ in range(MAX_LAYERS):
        kind = compression_of(raw)
        if kind is None:
            return raw, _strip_suffix(name)
        try:
            with ExitStack() as stack:
                fh, inner = _open_layer(kind, raw, name, stack, notes)
                xml = (fmt or EXTENSIONS.get(PurePath(inner).suffix.lower())) == "graphml"
                raw = read_limited(fh, limit, inner, check_nul=not xml)
                name = inner
        except GraphFormatError:
            raise
        except (OSError, EOFError, ValueError, RuntimeError, NotImplementedError, zlib.error,
                lzma.LZMAError, zipfile.BadZipFile) as exc:
            raise GraphFormatError(f"{kind}: cannot decompress {name}: "
                                   f"{first_line(exc)}") from None
    if compression_of(raw) is not None:
        raise GraphFormatError(f"{name}: more than {MAX_LAYERS} nested compression layers")
    return raw, name
