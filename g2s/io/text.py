"""Edge lists and DIMACS: the two line-based text formats (readers and writers).

Both read the decoded text (:func:`g2s.io.input_graph.decode_text`) and follow the rules of
:mod:`g2s.io.files`' docstring: a malformed line is refused naming it, a self-loop is refused,
duplicate edges are dropped with a warning (:func:`g2s.io.input_graph.from_networkx`).
"""

from __future__ import annotations

import io
import re

import networkx as nx

from g2s.io.input_graph import (
    MAX_VERTICES,
    GraphFormatError,
    InputGraph,
    from_networkx,
    quote,
    too_many_vertices,
)

__all__ = ["read_edgelist", "read_dimacs", "edgelist_bytes", "dimacs_bytes"]

_CANONICAL_INT = re.compile(r"-?[1-9][0-9]*|0")
_BLANKS = re.compile(r"[ \t]+")


def _token(tok: str):
    """An integer label when written canonically, else the string itself (``01`` != ``1``)."""
    return int(tok) if _CANONICAL_INT.fullmatch(tok) else tok


def _lines(text: str):
    """The lines of ``text`` one at a time (a list of them would take ~50 bytes a line more);
    line ends are already ``\n`` (:func:`g2s.io.input_graph.normalize_line_ends`)."""
    return (line.rstrip("\n") for line in io.StringIO(text, newline="\n"))


def _is_number(tok: str) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


def _duplicates(dup: int) -> list:
    return [f"dropped {dup} duplicate edge(s)"] if dup else []


def read_edgelist(raw: bytes, text: str) -> InputGraph:
    """The graph of an edge list (its decoded ``text``): ``u v [weight]`` per line."""
    # a simple graph plus a count: a MultiGraph would store every duplicate line
    H = nx.Graph()
    weighted = dup = 0
    for lineno, raw in enumerate(_lines(text), 1):
        line = raw.split("#", 1)[0].split("%", 1)[0].strip(" \t\r")
        if not line:
            continue
        parts = _BLANKS.split(line)
        if len(parts) < 2:
            raise GraphFormatError(f"line {lineno}: expected 'u v', got {quote(raw.strip())}")
        if len(parts) > 3:
            raise GraphFormatError(f"line {lineno}: expected 'u v' or 'u v weight', got "
                                   f"{quote(raw.strip())}")
        if len(parts) == 3:
            if not _is_number(parts[2]):
                raise GraphFormatError(f"line {lineno}: the third column (a weight) must be a "
                                       f"number, got {quote(parts[2])}")
            weighted += 1
        u, v = _token(parts[0]), _token(parts[1])
        if u == v:
            raise GraphFormatError(f"line {lineno}: self-loop at vertex {quote(u)}: only simple "
                                   "graphs are supported")
        if H.has_edge(u, v):
            dup += 1
            continue
        H.add_edge(u, v)
        if len(H) > MAX_VERTICES:
            raise too_many_vertices(len(H), f"line {lineno}: the edge list has more than ")
    warnings = [f"ignored the third column (edge weights) on {weighted} line(s): the problems "
                "are unweighted"] if weighted else []
    return from_networkx(H, warnings + _duplicates(dup))


def read_dimacs(raw: bytes, text: str) -> InputGraph:
    """The graph of a DIMACS file (its decoded ``text``): ``p edge N M``, then ``e u v`` lines."""
    n = m_declared = None
    H = nx.Graph()
    warnings = []
    dup = 0
    for lineno, raw in enumerate(_lines(text), 1):
        parts = raw.split()
        if not parts or parts[0] == "c":
            continue
        if parts[0] == "p":
            if n is not None:
                raise GraphFormatError(f"line {lineno}: second 'p' line")
            if len(parts) != 4 or parts[1] not in ("edge", "col"):
                raise GraphFormatError(f"line {lineno}: expected 'p edge N M', got "
                                       f"{quote(raw.strip())}")
            if not (parts[2].isascii() and parts[2].isdigit() and parts[3].isascii()
                    and parts[3].isdigit()):
                raise GraphFormatError(f"line {lineno}: N and M must be non-negative integers")
            n, m_declared = int(parts[2]), int(parts[3])
            if n > MAX_VERTICES:
                raise too_many_vertices(n, f"line {lineno}: 'p' line declares ")
        elif parts[0] == "e":
            if n is None:
                raise GraphFormatError(f"line {lineno}: 'e' line before the 'p edge N M' line")
            if len(parts) != 3:
                raise GraphFormatError(f"line {lineno}: expected 'e u v', got "
                                       f"{quote(raw.strip())}")
            try:
                u, v = int(parts[1]), int(parts[2])
            except ValueError:
                raise GraphFormatError(f"line {lineno}: vertices must be integers") from None
            if not (1 <= u <= n and 1 <= v <= n):
                raise GraphFormatError(f"line {lineno}: vertex out of range 1..{n}")
            if u == v:
                raise GraphFormatError(f"line {lineno}: self-loop at vertex {u}: only simple "
                                       "graphs are supported")
            if H.has_edge(u, v):
                dup += 1
            H.add_edge(u, v)
        else:
            raise GraphFormatError(f"line {lineno}: unknown DIMACS line type {quote(parts[0])}")
    if n is None:
        raise GraphFormatError("no 'p edge N M' line")
    H.add_nodes_from(range(1, n + 1))  # the declared isolated vertices, once N is checked
    if H.number_of_edges() + dup != m_declared:
        warnings.append(f"'p' line declares {m_declared} edges, file has "
                        f"{H.number_of_edges() + dup}")
    return from_networkx(H, warnings + _duplicates(dup))


def edgelist_bytes(G: nx.Graph) -> bytes:
    """``G`` as an edge list, one ``u v`` line per edge (it cannot hold isolated vertices)."""
    if any(G.degree(v) == 0 for v in G):
        raise GraphFormatError("an edge list cannot hold isolated vertices; use DIMACS, "
                               "graph6 or GraphML")
    return "".join(f"{u} {v}\n" for u, v in sorted(G.edges())).encode()


def dimacs_bytes(G: nx.Graph) -> bytes:
    """``G`` as DIMACS (vertices in sorted order, numbered from 1)."""
    idx = {v: i + 1 for i, v in enumerate(sorted(G.nodes))}
    lines = [f"p edge {G.number_of_nodes()} {G.number_of_edges()}"]
    lines += [f"e {idx[u]} {idx[v]}" for u, v in sorted(G.edges())]
    return ("\n".join(lines) + "\n").encode()
