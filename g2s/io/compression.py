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
    :data:`g2s.io.input_graph.MAX_INPUT_MIB` MiB), or at a NUL byte in the final, uncompressed
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
