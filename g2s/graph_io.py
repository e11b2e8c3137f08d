"""Reading and writing graph files: edge list, DIMACS, graph6, sparse6, GraphML, MatrixMarket
and METIS.

gzip, bzip2, xz and single-file zip input is unpacked first (recognised by its magic bytes);
MatrixMarket, METIS and the unpacking live in :mod:`g2s.graph_formats`, the edge-list and
DIMACS parsers in :mod:`g2s.graph_text`.

Every reader returns an :class:`InputGraph`: an undirected simple graph on ``0..n-1`` plus the
original vertex labels, so answers can be reported in the file's own labels, and the list of
warnings issued while normalising.

What is normalised (with a warning) and what is refused (:class:`GraphFormatError`):

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
* every format allows at most :data:`MAX_VERTICES` vertices, checked from the header (DIMACS
  ``p`` line, MatrixMarket size line, METIS header) before anything is allocated, and while
  reading where there is no header (edge lists);
* a file may unpack to at most :data:`MAX_INPUT_MIB` MiB (``max_input_mib`` raises it):
  compressed input is unpacked as a stream and refused as soon as it passes the limit, or a NUL
  byte shows up, so a small compressed file cannot take gigabytes of memory;
* error messages quote at most :data:`QUOTE_CHARS` characters of the input (:func:`quote`), so
  one huge bad line gives a short message;
* GraphML nested graphs (a ``<graph>`` inside a ``<node>``) are refused: networkx flattens or
  drops them, which would give another graph than the file describes.
"""

from __future__ import annotations

import io
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

__all__ = ["GraphFormatError", "InputGraph", "FORMATS", "MAX_VERTICES", "read_graph",
           "write_graph", "detect_format", "from_networkx", "decode_text", "MAX_INPUT_MIB",
           "QUOTE_CHARS", "quote", "normalize_line_ends", "NUL_MESSAGE"]

class GraphFormatError(ValueError):
    """The input file is malformed or describes a graph the harness does not accept."""


#: the most vertices a file may declare (DIMACS ``p`` line): beyond it a 30-byte header would
#: allocate gigabytes before a single edge is read; networkx needs ~0.5 kB per vertex
MAX_VERTICES = 5_000_000
#: the most a graph file may hold once unpacked, in MiB (``g2s solve --max-input-mib`` raises
#: it): a 1 MB gzip can unpack to 1 GB, and parsing takes several times the text's size in memory
MAX_INPUT_MIB = 128
#: error messages quote at most this many characters of the offending input
QUOTE_CHARS = 40
#: what a NUL byte in a text file is taken for
NUL_MESSAGE = "a NUL byte (a binary or UTF-16 file?)"


def quote(text) -> str:
    """``repr(text)``, cut to :data:`QUOTE_CHARS` characters (saying how long it was)."""
    text = str(text)
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:QUOTE_CHARS]!r}... ({len(text)} characters)"


def too_many_vertices(n: int, where: str = "") -> GraphFormatError:
    """The refusal of a graph with ``n`` > :data:`MAX_VERTICES` vertices."""
    return GraphFormatError(f"{where}{n} vertices; at most {MAX_VERTICES} are accepted "
                            "(g2s.graph_io.MAX_VERTICES)")


def normalize_line_ends(raw: bytes) -> bytes:
    """``\r\n`` and a lone ``\r`` become ``\n`` (byte 0x0d never occurs inside a UTF-8
    multi-byte sequence, so this is safe before decoding)."""
    if b"\r" not in raw:
        return raw
    return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")

#: the last two (and gzip/bzip2/xz/zip input) are read by :mod:`g2s.graph_formats`
FORMATS = ("edgelist", "dimacs", "graph6", "sparse6", "graphml", "mtx", "metis")
_EXTENSIONS = {".txt": "edgelist", ".edges": "edgelist", ".edgelist": "edgelist", ".el": "edgelist",
               ".dimacs": "dimacs", ".col": "dimacs", ".clq": "dimacs",
               ".g6": "graph6", ".graph6": "graph6", ".s6": "sparse6", ".sparse6": "sparse6",
               ".graphml": "graphml", ".xml": "graphml",
               ".mtx": "mtx", ".mm": "mtx", ".graph": "metis", ".metis": "metis"}


@dataclass
class InputGraph:
    graph: nx.Graph                      # vertices 0..n-1
    labels: list                         # labels[i] is vertex i's label in the file
    warnings: list = field(default_factory=list)

    def to_labels(self, S) -> list:
        """Translate a vertex set of :attr:`graph` into sorted file labels."""
        out = [self.labels[v] for v in S]
        try:
            return sorted(out)
        except TypeError:
            return sorted(out, key=str)


def _sort_labels(labels):
    try:
        return sorted(labels)
    except TypeError:
        return sorted(labels, key=str)


def from_networkx(H: nx.Graph, warnings: list | None = None) -> InputGraph:
    """Validate and relabel a networkx graph (the common back end of every reader)."""
    warnings = list(warnings or [])
    if H.is_directed():
        raise GraphFormatError("directed graphs are not supported (the problems are undirected)")
    if H.number_of_nodes() == 0:
        raise GraphFormatError("the graph has no vertices")
    if H.number_of_nodes() > MAX_VERTICES:
        raise too_many_vertices(H.number_of_nodes(), "the graph has ")
    loops = list(nx.selfloop_edges(H))
    if loops:
        raise GraphFormatError(f"self-loop at vertex {quote(loops[0][0])}: only simple graphs "
                               "are supported")
    if H.is_multigraph():
        simple = nx.Graph(H)
        dup = H.number_of_edges() - simple.number_of_edges()
        if dup:
            warnings.append(f"dropped {dup} duplicate edge(s)")
        H = simple
    labels = _sort_labels(H.nodes)
    index = {v: i for i, v in enumerate(labels)}
    G = nx.Graph()
    G.add_nodes_from(range(len(labels)))
    G.add_edges_from((index[u], index[v]) for u, v in H.edges())
    return InputGraph(G, labels, warnings)


def decode_text(raw: bytes) -> str:
    """UTF-8 text of a graph file, refusing what would make distinct labels equal or garble
    them: invalid UTF-8, NUL bytes, and byte-order marks after the start (a leading one is
    dropped)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise GraphFormatError(f"line {line}: byte 0x{raw[exc.start]:02x} is not valid UTF-8; "
                               "re-encode the file as UTF-8 (labels are compared as text, and "
                               "replacing the byte would merge distinct labels)") from None
    for bad, what in (("\x00", NUL_MESSAGE),
                      ("\ufeff", "a byte-order mark inside the file (concatenated files?)")):
        at = text.find(bad)
        if at >= 0:
            raise GraphFormatError(f"line {text.count(chr(10), 0, at) + 1}: {what}")
    return text


_DIMACS_P = re.compile(r"p\s+(edge|col)\s+\S+\s+\S+")


def detect_format(path: Path, text: str | None = None) -> str:
    """Format from the extension, else by sniffing the first meaningful line."""
    ext = Path(path).suffix.lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
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
    from g2s.graph_formats import input_too_large, read_limited

    if str(path) == "-":
        return read_limited(sys.stdin.buffer, limit, "standard input")
    if not path.is_file():
        raise GraphFormatError(f"no such file: {path}")
    try:
        if path.stat().st_size > limit:
            raise input_too_large(path.name, limit)
        with path.open("rb") as fh:
            return read_limited(fh, limit, path.name)
    except OSError as exc:
        raise GraphFormatError(f"cannot read {path}: {exc.strerror}") from None


def _check_graph6_header(fmt: str, line: str) -> None:
    """The vertex count of a graph6/sparse6 header, checked before networkx allocates the
    vertices (a 10-byte sparse6 line may declare 2**36 of them)."""
    from networkx.readwrite.graph6 import data_to_n

    body = line.removeprefix(f">>{fmt}<<").removeprefix(":" if fmt == "sparse6" else "")
    data = [ord(c) - 63 for c in body[:8]]
    if not data or any(not 0 <= d <= 63 for d in data):
        return  # networkx reports the malformed line
    try:
        n, _ = data_to_n(data)
    except (IndexError, ValueError):
        return
    if n > MAX_VERTICES:
        raise too_many_vertices(n, f"{fmt}: the header declares ")


def _refuse_nested_graphml(raw: bytes) -> None:
    """A ``<graph>`` inside a ``<node>`` (a hierarchical graph) is refused: networkx merges a
    yFiles group's inner graph into the outer one and drops any other, silently."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(raw)
    except ET.ParseError:
        return  # the reader reports it
    ns = "{http://graphml.graphdrawing.org/xmlns}"
    for node_tag, graph_tag in ((f"{ns}node", f"{ns}graph"), ("node", "graph")):
        for node in root.iter(node_tag):
            if node.find(f".//{graph_tag}") is not None:
                raise GraphFormatError(f"GraphML: node {quote(node.get('id'))} holds a nested "
                                       "<graph> (a hierarchical graph), which is not supported; "
                                       "flatten it into one graph")


def read_graph(path, fmt: str | None = None, max_input_mib: int = MAX_INPUT_MIB) -> InputGraph:
    """Read a graph file (format from ``fmt``, else the extension, else sniffed); ``-`` reads
    standard input.  The file may unpack to at most ``max_input_mib`` MiB."""
    path = Path(path)
    if fmt is not None and fmt not in FORMATS:
        raise GraphFormatError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    limit = max_input_mib * 2**20
    raw = _read_input(path, limit)
    from g2s import graph_formats  # compressed input, MatrixMarket and METIS

    raw, name = graph_formats.decompress(raw, path.name, limit=limit, fmt=fmt)
    text = raw.decode("utf-8", errors="replace")  # for sniffing only
    fmt = fmt or graph_formats.sniff_format(text) or detect_format(Path(name), text)
    if fmt != "graphml":  # XML declares its own encoding and line ends
        raw = normalize_line_ends(raw)
        text = decode_text(raw)
    if fmt in graph_formats.READERS:
        return graph_formats.READERS[fmt](raw, text)
    if fmt in ("edgelist", "dimacs"):
        from g2s.graph_text import TEXT_READERS
        return TEXT_READERS[fmt](text)
    if fmt in ("graph6", "sparse6"):
        lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
        if len(lines) != 1:
            raise GraphFormatError(f"{fmt}: expected one graph, found {len(lines)} lines")
        parse = nx.from_graph6_bytes if fmt == "graph6" else nx.from_sparse6_bytes
        _check_graph6_header(fmt, lines[0])
        try:
            H = parse(lines[0].encode())
        except (nx.NetworkXError, ValueError, IndexError) as exc:
            raise GraphFormatError(f"{fmt}: {str(exc)[:200]}") from None
        return from_networkx(H)
    from networkx.readwrite.graphml import GraphMLReader
    _refuse_nested_graphml(raw)
    try:
        graphs = list(GraphMLReader()(path=io.BytesIO(raw)))
    except Exception as exc:  # noqa: BLE001 - networkx raises many parser types
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise GraphFormatError(f"GraphML: {first[:200]}") from None
    if not graphs:
        raise GraphFormatError("GraphML: no <graph> element")
    H, warnings = graphs[0], []
    if len(graphs) > 1:
        warnings.append(f"the GraphML file holds {len(graphs)} graphs; read the first only")
    attrs = sorted({k for *_, d in H.edges(data=True) for k in d} - {"id"})
    if attrs:
        warnings.append(f"ignored GraphML edge attribute(s) {', '.join(attrs)}: the problems "
                        "are unweighted")
    return from_networkx(H, warnings)


def write_graph(G: nx.Graph, path, fmt: str | None = None) -> None:
    """Write ``G`` (vertices ``0..n-1``) atomically in the given or extension-implied format."""
    path = Path(path)
    fmt = fmt or _EXTENSIONS.get(path.suffix.lower(), "edgelist")
    n = G.number_of_nodes()
    if fmt == "edgelist":
        data = "".join(f"{u} {v}\n" for u, v in sorted(G.edges())).encode()
        if any(G.degree(v) == 0 for v in G):
            raise GraphFormatError("an edge list cannot hold isolated vertices; use DIMACS, "
                                   "graph6 or GraphML")
    elif fmt == "dimacs":
        idx = {v: i + 1 for i, v in enumerate(sorted(G.nodes))}
        lines = [f"p edge {n} {G.number_of_edges()}"]
        lines += [f"e {idx[u]} {idx[v]}" for u, v in sorted(G.edges())]
        data = ("\n".join(lines) + "\n").encode()
    elif fmt == "graph6":
        data = nx.to_graph6_bytes(nx.convert_node_labels_to_integers(G, ordering="sorted"),
                                  header=False)
    elif fmt == "sparse6":
        data = nx.to_sparse6_bytes(nx.convert_node_labels_to_integers(G, ordering="sorted"),
                                   header=False)
    elif fmt == "graphml":
        buf = io.BytesIO()
        nx.write_graphml(G, buf)
        data = buf.getvalue()
    elif fmt in FORMATS:
        from g2s.graph_formats import WRITERS
        data = WRITERS[fmt](G)
    else:
        raise GraphFormatError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
