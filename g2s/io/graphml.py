"""GraphML (``.graphml``, ``.xml``): read and written by networkx, with what it would get wrong
refused or said.

* a directed graph (``edgedefault="directed"``) is refused (by
  :func:`g2s.io.input_graph.from_networkx`);
* a ``<graph>`` inside a ``<node>`` (a hierarchical graph) is refused: networkx merges a yFiles
  group's inner graph into the outer one and drops any other, silently;
* edge attributes (weights) and every graph after the first are ignored with one warning each:
  the problems are unweighted;
* what networkx itself warns about (a ``<port>``, which it does not support) is one of the
  result's warnings, not a line of its own on stderr.

XML declares its own encoding and line ends, so the file's bytes are parsed as they are.
"""

from __future__ import annotations

import io
import warnings as pywarnings

import networkx as nx

from g2s.io.input_graph import GraphFormatError, InputGraph, from_networkx, quote

__all__ = ["read_graphml", "graphml_bytes"]


def _refuse_nested(raw: bytes) -> None:
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


def read_graphml(raw: bytes, text: str | None = None) -> InputGraph:
    """The first graph of a GraphML file (its ``raw`` bytes; ``text`` is not used)."""
    from networkx.readwrite.graphml import GraphMLReader
    _refuse_nested(raw)
    with pywarnings.catch_warnings(record=True) as caught:  # networkx's own ("GraphML port
        pywarnings.simplefilter("always")                  # tag not supported"): reported
        try:
            graphs = list(GraphMLReader()(path=io.BytesIO(raw)))
        except Exception as exc:  # noqa: BLE001 - networkx raises many parser types
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise GraphFormatError(f"GraphML: {first[:200]}") from None
    if not graphs:
        raise GraphFormatError("GraphML: no <graph> element")
    H = graphs[0]
    warnings = list(dict.fromkeys(f"GraphML: {w.message} (ignored)" for w in caught))
    if len(graphs) > 1:
        warnings.append(f"the GraphML file holds {len(graphs)} graphs; read the first only")
    attrs = sorted({k for *_, d in H.edges(data=True) for k in d} - {"id"})
    if attrs:
        warnings.append(f"ignored GraphML edge attribute(s) {', '.join(attrs)}: the problems "
                        "are unweighted")
    return from_networkx(H, warnings)


def graphml_bytes(G: nx.Graph) -> bytes:
    """``G`` as GraphML."""
    buf = io.BytesIO()
    nx.write_graphml(G, buf)
    return buf.getvalue()
