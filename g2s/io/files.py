"""Reading and writing graph files: edge list, DIMACS, graph6, sparse6, GraphML, MatrixMarket
and METIS.

The dispatcher of :mod:`g2s.io`: gzip, bzip2, xz and single-file zip input is unpacked first
(recognised by its magic bytes, :mod:`g2s.io.compression`), then the format is taken from
``--format``, the MatrixMarket banner, the extension or a sniff of the first line, and the
format's module reads it (:data:`READERS`: :mod:`g2s.io.text` for edge lists and DIMACS,
:mod:`g2s.io.graph6`, :mod:`g2s.io.graphml`, :mod:`g2s.io.matrix_market`, :mod:`g2s.io.metis`).

Every reader returns an :class:`~g2s.io.input_graph.InputGraph`: an undirected simple graph on
``0..n-1`` plus the original vertex labels, so answers can be reported in the file's own labels,
and the list of warnings issued while normalising.

What is normalised (with a warning) and what is refused
(:class:`~g2s.io.input_graph.GraphFormatError`):

* refused: a file that cannot be parsed (the message names the line), a graph with no vertices,
  a directed graph (GraphML ``edgedefault="directed"``), self-loops (MVC/MaxCut/MIS are defined
  on simple graphs and a loop changes what a solution means), DIMACS edges naming a vertex
  outside ``1..N``, an unknown format;
* normalised with a warning: duplicate edges, including ``u v`` and ``v u`` (an undirected
  edge is a set), and a DIMACS ``p`` line whose edge count disagrees with the ``e`` lines;
* accepted silently: comments (``#``/``%`` in edge lists, ``c`` in DIMACS), blank lines,
  isolated vertices (DIMACS, GraphML, graph6, sparse6), and graphs without edges.

Labels (edge lists) are kept exactly as written, so distinct byte strings stay distinct vertices:

* text formats must be UTF-8: other bytes are refused (never replaced by U+FFFD, which would
  merge distinct labels); a NUL byte (a binary or UTF-16 file) and a byte-order mark after the
  start are refused; a leading UTF-8 byte-order mark is dropped;
* fields are separated by ASCII blanks (space, tab) only and lines end at ``\n``, ``\r\n`` or
  a lone ``\r`` (old Mac files: read otherwise, ``1 2\r3 4`` would be one edge to a vertex
  ``2\r3`` with a weight ``4``), so a label may hold any other character but ``\r``;
* a label is read as an integer only when written canonically (``0``, ``7``, ``-3``): ``01``,
  ``+1``, ``1_0`` and non-ASCII digits stay strings, distinct from ``1`` and ``10``;
* a third column (an edge weight) is ignored with one warning, and so are GraphML edge
  attributes and any GraphML graph after the first: the problems are unweighted;
* a third column that is not a number is refused (it is not a weight, so the line is not an
  edge);
* every format allows at most :data:`~g2s.io.input_graph.MAX_VERTICES` vertices, checked from
  the header (DIMACS ``p`` line, MatrixMarket size line, METIS header) before anything is
  allocated, and while reading where there is no header (edge lists);
* a file may unpack to at most :data:`~g2s.io.input_graph.MAX_INPUT_MIB` MiB
  (``max_input_mib`` raises it): compressed input is unpacked as a stream and refused as soon
  as it passes the limit, or a NUL byte shows up, so a small compressed file cannot take
  gigabytes of memory;
* error messages quote at most :data:`~g2s.io.input_graph.QUOTE_CHARS` characters of the input
  (:func:`~g2s.io.input_graph.quote`), so one huge bad line gives a short message;
* GraphML nested graphs (a ``<graph>`` inside a ``<node>``) are refused: networkx flattens or
  drops them, which would give another graph than the file describes.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import networkx as nx

from g2s.io.compression import decompress, input_too_large, read_limited
from g2s.io.graph6 import graph6_bytes, read_graph6, read_sparse6, sparse6_bytes
from g2s.io.graphml import graphml_bytes, read_graphml
from g2s.io.input_graph import (
    EXTENSIONS,
    FORMATS,
    MAX_INPUT_MIB,
    GraphFormatError,
    InputGraph,
    decode_text,
    normalize_line_ends,
)
from g2s.io.matrix_market import matrix_market_bytes, read_matrix_market, sniff_format
from g2s.io.metis import metis_bytes, read_metis
from g2s.io.text import dimacs_bytes, edgelist_bytes, read_dimacs, read_edgelist

__all__ = ["READERS", "WRITERS", "read_graph", "write_graph", "detect_format"]

#: format name -> reader ``(raw bytes, decoded text) -> InputGraph``
READERS = {"edgelist": read_edgelist, "dimacs": read_dimacs, "graph6": read_graph6,
           "sparse6": read_sparse6, "graphml": read_graphml, "mtx": read_matrix_market,
           "metis": read_metis}
#: format name -> writer ``G -> bytes``
WRITERS = {"edgelist": edgelist_bytes, "dimacs": dimacs_bytes, "graph6": graph6_bytes,
           "sparse6": sparse6_bytes, "graphml": graphml_bytes, "mtx": matrix_market_bytes,
           "metis": metis_bytes}

_DIMACS_P = re.compile(r"p\s+(edge|col)\s+\S+\s+\S+")


def detect_format(path: Path, text: str | None = None) -> str:
    """Format from the extension, else by sniffing the first meaningful line."""
    ext = Path(path).suffix.lower()
    if ext in EXTENSIONS:
        return EXTENSIONS[ext]
    text = text if text is not None else Path(path).read_text(errors="replace")
    # DIMACS only when its 'p edge N M' line is the first line that is not a comment: an edge
    # list may well have vertices named p, e or c ('c 5' is an edge there, a comment in DIMACS)
    seen_c = False
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith(("#", "%")):
            continue
        if _DIMACS_P.fullmatch(s):
            return "dimacs"
        if s == "c" or s.startswith(("c ", "c\t")):
            seen_c = True
            continue
        if seen_c:
            return "edgelist"
        if s.startswith("<?xml") or s.startswith("<graphml"):
            return "graphml"
        printable = all(63 <= ord(ch) <= 126 for ch in s)
        # sparse6 is graph6's sparse sibling: one token, ':' then graph6's characters
        if s.startswith(">>sparse6<<") or (s[0] == ":" and len(s) > 1 and len(s.split()) == 1
                                           and all(63 <= ord(ch) <= 126 for ch in s[1:])):
            return "sparse6"
        if s.startswith(">>graph6<<") or (len(s.split()) == 1 and printable):
            return "graph6"
        return "edgelist"
    if seen_c:
        return "edgelist"
    raise GraphFormatError("the file is empty")


def _read_input(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` (standard input for ``-``), refused beyond ``limit`` bytes."""
    if str(path) == "-":
        return read_limited(sys.stdin.buffer, limit, "standard input")
    if not path.is_file():
        if not path.exists():
            raise GraphFormatError(f"no such file: {path}")
        if path.is_dir():
            raise GraphFormatError(f"{path} is a folder, not a graph file")
        # a FIFO, a terminal, /dev/stdin, /dev/zero: endless or one-shot; '-' reads a pipe
        raise GraphFormatError(f"{path} is not a regular file (a device, FIFO or socket); "
                               "to read standard input, give - as the file")
    try:
        if path.stat().st_size > limit:
            raise input_too_large(path.name, limit)
        with path.open("rb") as fh:
            return read_limited(fh, limit, path.name)
    except OSError as exc:
        raise GraphFormatError(f"cannot read {path}: {exc.strerror}") from None


def read_graph(path, fmt: str | None = None, max_input_mib: int = MAX_INPUT_MIB) -> InputGraph:
    """Read a graph file (format from ``fmt``, else the extension, else sniffed); ``-`` reads
    standard input.  The file may unpack to at most ``max_input_mib`` MiB."""
    path = Path(path)
    if fmt is not None and fmt not in FORMATS:
        raise GraphFormatError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    limit = max_input_mib * 2**20
    raw = _read_input(path, limit)
    notes: list = []
    raw, name = decompress(raw, path.name, limit=limit, fmt=fmt, notes=notes)
    text = raw.decode("utf-8", errors="replace")  # for sniffing only
    fmt = fmt or sniff_format(text) or detect_format(Path(name), text)
    if fmt != "graphml":  # XML declares its own encoding and line ends
        raw = normalize_line_ends(raw)
        text = decode_text(raw)
    graph = READERS[fmt](raw, text)
    graph.warnings[:0] = notes
    return graph


def write_graph(G: nx.Graph, path, fmt: str | None = None) -> None:
    """Write ``G`` (vertices ``0..n-1``) atomically in the given or extension-implied format."""
    path = Path(path)
    fmt = fmt or EXTENSIONS.get(path.suffix.lower(), "edgelist")
    if fmt not in WRITERS:
        raise GraphFormatError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    data = WRITERS[fmt](G)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
