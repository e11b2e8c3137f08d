"""METIS graph files (``.graph``, ``.metis``): reader and writer.

METIS (``.graph``, ``.metis``), as documented in the METIS 5 manual (Karypis, "METIS: A Software
Package for Partitioning Unstructured Graphs ...", Section 4.1.1, "Graph file"):

* lines starting with ``%`` are comments; the first other line is the header
  ``n m [fmt [ncon]]``: ``n`` vertices, ``m`` undirected edges (each counted once), ``fmt`` a
  binary number of up to three digits ``[s][w][e]`` (``s``: vertex sizes, ``w``: vertex weights,
  ``e``: edge weights; ``1`` = ``001``, ``11`` = ``011``), ``ncon`` the number of weights per
  vertex (default 1; only with vertex weights);
* then exactly ``n`` vertex lines, line ``i`` describing vertex ``i``:
  ``[size] [w_1 ... w_ncon] v_1 [e_1] v_2 [e_2] ...`` with neighbours numbered ``1..n``.  An
  isolated vertex has an *empty* line, so blank lines count as vertices here (unlike every other
  format); trailing blank lines after the ``n``-th vertex are ignored;
* every number is an integer; sizes and weights are checked and then ignored;
* each edge should appear in both endpoints' lists; an entry without its reverse is read as an
  undirected edge with a warning, and an ``m`` that disagrees with the edges found gives a warning
  (as a DIMACS ``p`` line does); a neighbour outside ``1..n`` and a self-loop are refused.
"""

from __future__ import annotations

import networkx as nx

from g2s.io.input_graph import (
    MAX_VERTICES,
    GraphFormatError,
    InputGraph,
    from_networkx,
    quote,
    too_many_vertices,
)

__all__ = ["read_metis", "metis_bytes"]


def _ints(tokens: list, lineno: int) -> list:
    out = []
    for t in tokens:
        try:
            out.append(int(t))
        except ValueError:
            raise GraphFormatError(f"METIS: line {lineno}: expected integers, got "
                                   f"{quote(t)}") from None
    return out


def _metis_header(parts: list, lineno: int) -> tuple[int, int, bool, bool, bool, int]:
    if not 2 <= len(parts) <= 4:
        raise GraphFormatError(f"METIS: line {lineno}: expected the header 'n m [fmt [ncon]]', "
                               f"got {quote(' '.join(parts))}")
    n, m = _ints(parts[:2], lineno)
    if n < 0 or m < 0:
        raise GraphFormatError(f"METIS: line {lineno}: n and m must be non-negative")
    if n > MAX_VERTICES:
        raise too_many_vertices(n, f"METIS: line {lineno}: the header declares ")
    fmt = parts[2] if len(parts) > 2 else "0"
    if len(fmt) > 3 or set(fmt) - {"0", "1"}:
        raise GraphFormatError(f"METIS: line {lineno}: fmt must be a binary number of up to "
                               "three digits (sizes, vertex weights, edge weights), got "
                               f"{quote(fmt)}")
    sizes, vweights, eweights = (d == "1" for d in fmt.zfill(3))
    ncon = 1 if vweights else 0
    if len(parts) == 4:
        (ncon,) = _ints(parts[3:], lineno)
        if not vweights:
            raise GraphFormatError(f"METIS: line {lineno}: ncon is given but fmt {fmt!r} has no "
                                   "vertex weights")
        if ncon < 1:
            raise GraphFormatError(f"METIS: line {lineno}: ncon must be positive")
    return n, m, sizes, vweights, eweights, ncon


def read_metis(raw: bytes, text: str | None = None) -> InputGraph:
    """The graph of a METIS graph file (module docstring)."""
    text = raw.decode("utf-8", errors="replace") if text is None else text
    # lines end at "\n", "\r\n" or "\r" (as in g2s.io.input_graph): a form feed is not a line end
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if raw_lines and raw_lines[-1] == "":  # the newline ending the last line
        raw_lines.pop()
    lines = [(k, ln) for k, ln in enumerate(raw_lines, 1) if not ln.startswith("%")]
    while lines and not lines[0][1].strip():
        lines.pop(0)
    if not lines:
        raise GraphFormatError("METIS: no header line 'n m [fmt [ncon]]'")
    (hline, header), body = lines[0], lines[1:]
    n, m, sizes, vweights, eweights, ncon = _metis_header(header.split(), hline)
    skip = int(sizes) + ncon
    extra = [k for k, ln in body[n:] if ln.strip()]
    if extra:
        raise GraphFormatError(f"METIS: line {extra[0]}: more than the {n} vertex lines the "
                               "header declares")
    if len(body) < n:
        raise GraphFormatError(f"METIS: the header declares {n} vertices but the file has "
                               f"{len(body)} vertex lines (an isolated vertex still needs its "
                               "empty line)")
    H = nx.Graph()
    H.add_nodes_from(range(1, n + 1))
    entries, dup = set(), 0
    for u, (lineno, line) in enumerate(body[:n], 1):
        values = _ints(line.split(), lineno)
        if len(values) < skip:
            raise GraphFormatError(f"METIS: line {lineno}: expected {skip} vertex size/weight "
                                   f"value(s) first, got {len(values)}")
        adj = values[skip:]
        if eweights:
            if len(adj) % 2:
                raise GraphFormatError(f"METIS: line {lineno}: with edge weights (fmt ..1) the "
                                       "neighbours come as 'vertex weight' pairs; found an odd "
                                       "count")
            adj = adj[::2]
        for v in adj:
            if not 1 <= v <= n:
                raise GraphFormatError(f"METIS: line {lineno}: neighbour {v} of vertex {u} out "
                                       f"of range 1..{n}")
            if v == u:
                raise GraphFormatError(f"METIS: line {lineno}: self-loop at vertex {u}: only "
                                       "simple graphs are supported")
            if (u, v) in entries:
                dup += 1
            entries.add((u, v))
            H.add_edge(u, v)
    warnings = []
    if dup:
        warnings.append(f"dropped {dup} duplicate edge(s)")
    lonely = sum((v, u) not in entries for u, v in entries)
    if lonely:
        warnings.append(f"{lonely} adjacency entr{'y' if lonely == 1 else 'ies'} without the "
                        "reverse entry (METIS lists each edge at both ends): read as undirected "
                        "edges")
    if H.number_of_edges() != m:
        warnings.append(f"header declares {m} edges, file has {H.number_of_edges()}")
    return from_networkx(H, warnings)


def metis_bytes(G: nx.Graph) -> bytes:
    """``G`` as an unweighted METIS graph file (vertices in sorted order, numbered from 1)."""
    order = sorted(G.nodes)
    idx = {v: i + 1 for i, v in enumerate(order)}
    lines = [f"{len(order)} {G.number_of_edges()}"]
    lines += [" ".join(str(k) for k in sorted(idx[w] for w in G[v])) for v in order]
    return ("\n".join(lines) + "\n").encode()
