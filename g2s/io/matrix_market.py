"""MatrixMarket (``.mtx``, ``.mm``): a graph as its adjacency matrix, parsed by
:func:`scipy.io.mmread`.

Any file whose first line is the ``%%MatrixMarket`` banner is read as MatrixMarket, whatever it
is called (:func:`sniff_format`).  The matrix is the adjacency matrix of a graph on vertices
``1..N``:

* it must be square, ``N x N`` (``vector`` objects and rectangular matrices are refused);
* ``coordinate`` files: every listed off-diagonal entry is an edge, whatever its value
  (``pattern``, ``real``, ``integer`` and ``complex`` alike; weights are ignored, as an edge
  list's weight column is); ``array`` (dense) files: every nonzero off-diagonal entry is an edge;
* ``symmetric``, ``skew-symmetric`` and ``hermitian`` files list one triangle; ``general`` files
  list an undirected edge as the two entries ``(i, j)`` and ``(j, i)``.  An entry without its
  transpose is still read as an undirected edge, with a warning: MVC, max cut and MIS of a
  directed graph are those of its underlying undirected graph;
* a diagonal entry is a self-loop and is refused; an entry listed twice is dropped with a warning;
* the size line is checked before scipy allocates anything (at most
  :data:`~g2s.io.input_graph.MAX_VERTICES` rows; a dense matrix must fit in the file).
"""

from __future__ import annotations

import io

import networkx as nx

from g2s.io.input_graph import (
    MAX_VERTICES,
    GraphFormatError,
    InputGraph,
    first_line,
    from_networkx,
    quote,
    too_many_vertices,
)

__all__ = ["sniff_format", "read_matrix_market", "matrix_market_bytes"]


def sniff_format(text: str) -> str | None:
    """``"mtx"`` when the text starts with the MatrixMarket banner (it outranks the extension)."""
    return "mtx" if text.lstrip()[:14].lower() == "%%matrixmarket" else None


def _check_size_line(text: str, layout: str, size: int) -> None:
    """Refuse, before scipy allocates anything, a size line declaring more than
    :data:`g2s.io.input_graph.MAX_VERTICES` rows, a non-square matrix, a dense (``array``) matrix
    with more values than the file's ``size`` bytes can hold (scipy allocates it whole), or a
    coordinate matrix declaring more entries than a simple graph on its rows has, or than
    the file can hold (scipy allocates them before reading)."""
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
        if layout != "array" and len(parts) == 3:
            # scipy allocates the declared entries before reading one: at most one per
            # off-diagonal cell of a simple graph's matrix, and each entry line takes at
            # least 4 bytes ('I J' and its line end)
            entries, most = int(parts[2]), rows * (rows - 1)
            if entries > most:
                raise GraphFormatError(f"MatrixMarket: line {lineno}: the size line declares "
                                       f"{entries} entries; a simple graph on {rows} vertices "
                                       f"has at most {most}")
            if entries * 4 > size:
                raise GraphFormatError(f"MatrixMarket: line {lineno}: the size line declares "
                                       f"{entries} entries; the file is {size} bytes, room for "
                                       f"at most {size // 4}")
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
        raise GraphFormatError(f"MatrixMarket: {first_line(exc)}") from None
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
