"""What every graph-file reader returns and refuses with: :class:`InputGraph`,
:class:`GraphFormatError`, the size limits, and the checks every format shares.

The bottom of :mod:`g2s.io`: each format module (:mod:`g2s.io.text`, :mod:`g2s.io.graph6`,
:mod:`g2s.io.graphml`, :mod:`g2s.io.matrix_market`, :mod:`g2s.io.metis`) builds a networkx
graph and hands it to :func:`from_networkx`, which validates and relabels it; the dispatcher
(:mod:`g2s.io.files`, whose docstring gives the rules) picks the format.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

__all__ = ["GraphFormatError", "InputGraph", "FORMATS", "EXTENSIONS", "MAX_VERTICES",
           "MAX_INPUT_MIB", "QUOTE_CHARS", "NUL_MESSAGE", "quote", "first_line",
           "too_many_vertices", "normalize_line_ends", "decode_text", "from_networkx"]


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

#: every format read and written (one module of :mod:`g2s.io` each; edge list and DIMACS share
#: :mod:`g2s.io.text`, graph6 and sparse6 :mod:`g2s.io.graph6`)
FORMATS = ("edgelist", "dimacs", "graph6", "sparse6", "graphml", "mtx", "metis")
#: file extension -> format (the format of a file named so, unless ``--format`` says otherwise)
EXTENSIONS = {".txt": "edgelist", ".edges": "edgelist", ".edgelist": "edgelist",
              ".el": "edgelist", ".dimacs": "dimacs", ".col": "dimacs", ".clq": "dimacs",
              ".g6": "graph6", ".graph6": "graph6", ".s6": "sparse6", ".sparse6": "sparse6",
              ".graphml": "graphml", ".xml": "graphml",
              ".mtx": "mtx", ".mm": "mtx", ".graph": "metis", ".metis": "metis"}


def quote(text) -> str:
    """``repr(text)``, cut to :data:`QUOTE_CHARS` characters (saying how long it was)."""
    text = str(text)
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:QUOTE_CHARS]!r}... ({len(text)} characters)"


def first_line(exc: BaseException) -> str:
    """The first line of a parser's message, cut (it may quote a whole line of the input)."""
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


def too_many_vertices(n: int, where: str = "") -> GraphFormatError:
    """The refusal of a graph with ``n`` > :data:`MAX_VERTICES` vertices."""
    return GraphFormatError(f"{where}{n} vertices; at most {MAX_VERTICES} are accepted "
                            "(g2s.io.input_graph.MAX_VERTICES)")


def normalize_line_ends(raw: bytes) -> bytes:
    """``\r\n`` and a lone ``\r`` become ``\n`` (byte 0x0d never occurs inside a UTF-8
    multi-byte sequence, so this is safe before decoding)."""
    if b"\r" not in raw:
        return raw
    return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


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
