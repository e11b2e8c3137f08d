"""graph6 and sparse6 (Brendan McKay's formats, ``.g6``, ``.s6``): one graph per file.

Read and written by networkx; the vertex count in the header is checked against
:data:`g2s.io.input_graph.MAX_VERTICES` before networkx allocates the vertices.  A file holds
exactly one graph (one line; an optional ``>>graph6<<`` / ``>>sparse6<<`` header is accepted).
"""

from __future__ import annotations

import networkx as nx

from g2s.io.input_graph import (
    MAX_VERTICES,
    GraphFormatError,
    InputGraph,
    from_networkx,
    too_many_vertices,
)

__all__ = ["read_graph6", "read_sparse6", "graph6_bytes", "sparse6_bytes"]


def _check_header(fmt: str, line: str) -> None:
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


def _read(fmt: str, text: str) -> InputGraph:
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if len(lines) != 1:
        raise GraphFormatError(f"{fmt}: expected one graph, found {len(lines)} lines")
    parse = nx.from_graph6_bytes if fmt == "graph6" else nx.from_sparse6_bytes
    _check_header(fmt, lines[0])
    try:
        H = parse(lines[0].encode())
    except (nx.NetworkXError, ValueError, IndexError) as exc:
        raise GraphFormatError(f"{fmt}: {str(exc)[:200]}") from None
    return from_networkx(H)


def read_graph6(raw: bytes, text: str) -> InputGraph:
    """The graph of a graph6 file (its decoded ``text``)."""
    return _read("graph6", text)


def read_sparse6(raw: bytes, text: str) -> InputGraph:
    """The graph of a sparse6 file (its decoded ``text``)."""
    return _read("sparse6", text)


def graph6_bytes(G: nx.Graph) -> bytes:
    """``G`` as graph6 (vertices in sorted order), without the header."""
    return nx.to_graph6_bytes(nx.convert_node_labels_to_integers(G, ordering="sorted"),
                              header=False)


def sparse6_bytes(G: nx.Graph) -> bytes:
    """``G`` as sparse6 (vertices in sorted order), without the header."""
    return nx.to_sparse6_bytes(nx.convert_node_labels_to_integers(G, ordering="sorted"),
                               header=False)
