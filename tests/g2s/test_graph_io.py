"""Graph files: round-trips in every format, and every refused input gives a clear error.

* write then read gives the same graph (up to the 0..n-1 relabelling) in every format;
* malformed files, directed graphs, self-loops, out-of-range DIMACS vertices and empty graphs
  raise GraphFormatError with a message naming the problem;
* duplicate edges are normalised with a warning; labels are kept for reporting.
"""

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from g2s.io.files import read_graph, write_graph
from g2s.io.input_graph import FORMATS, GraphFormatError
from tests.strategies import graphs

EXT = {"edgelist": ".txt", "dimacs": ".dimacs", "graph6": ".g6", "sparse6": ".s6",
       "graphml": ".graphml",
       "mtx": ".mtx", "metis": ".graph"}


@settings(max_examples=25)
@given(graphs(min_n=1, max_n=12), st.sampled_from(FORMATS))
def test_round_trip(tmp_path_factory, G, fmt):
    if fmt == "edgelist" and any(d == 0 for _, d in G.degree()):
        G = G.subgraph([v for v in G if G.degree(v) > 0]).copy()
        G = nx.convert_node_labels_to_integers(G)
        if G.number_of_nodes() == 0:
            return
    path = tmp_path_factory.mktemp("io") / f"g{EXT[fmt]}"
    write_graph(G, path)
    back = read_graph(path).graph
    assert back.number_of_nodes() == G.number_of_nodes()
    assert nx.is_isomorphic(back, G)
    assert sorted(map(sorted, back.edges())) == sorted(map(sorted, G.edges()))


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize("name,text,match", [
    ("a.txt", "0 1\n1\n", "line 2"),
    ("a.txt", "0 1 2 3\n", "line 1"),
    ("a.txt", "0 0\n", "self-loop"),
    ("a.txt", "# only a comment\n", "no vertices"),
    ("a.dimacs", "e 1 2\n", "before"),
    ("a.dimacs", "p edge 3 1\ne 1 4\n", "out of range"),
    ("a.dimacs", "p edge x 1\n", "integers"),
    ("a.dimacs", "p edge 3 1\ne 2 2\n", "self-loop"),
    ("a.dimacs", "p edge 3 1\nq 1 2\n", "unknown DIMACS"),
    ("a.dimacs", "p edge 0 0\n", "no vertices"),
    ("a.g6", "not a graph6!!\n", "graph6"),
    ("a.graphml", "<graphml><broken", "GraphML"),
])
def test_bad_files_are_refused(tmp_path, name, text, match):
    with pytest.raises(GraphFormatError, match=match):
        read_graph(_write(tmp_path, name, text))


def test_directed_graphml_refused(tmp_path):
    D = nx.DiGraph([(0, 1)])
    p = tmp_path / "d.graphml"
    nx.write_graphml(D, p)
    with pytest.raises(GraphFormatError, match="directed"):
        read_graph(p)


def test_missing_file_and_unknown_format(tmp_path):
    with pytest.raises(GraphFormatError, match="no such file"):
        read_graph(tmp_path / "nope.txt")
    with pytest.raises(GraphFormatError, match="unknown format"):
        read_graph(_write(tmp_path, "a.txt", "0 1\n"), fmt="pajek")


def test_duplicates_normalised_with_warning_and_labels_kept(tmp_path):
    g = read_graph(_write(tmp_path, "a.txt", "a b\nb a\nb c  # comment\n\n"))
    assert g.graph.number_of_edges() == 2
    assert any("duplicate" in w for w in g.warnings)
    assert g.labels == ["a", "b", "c"] and g.to_labels({1}) == ["b"]


def test_dimacs_isolated_vertices_and_count_warning(tmp_path):
    g = read_graph(_write(tmp_path, "a.col", "c hi\np edge 5 2\ne 1 2\n"))
    assert g.graph.number_of_nodes() == 5 and g.graph.number_of_edges() == 1
    assert any("declares 2" in w for w in g.warnings)


def test_sniffing_without_extension(tmp_path):
    assert read_graph(_write(tmp_path, "x", "p edge 2 1\ne 1 2\n")).graph.number_of_edges() == 1
    assert read_graph(_write(tmp_path, "y", "1 2\n2 3\n")).graph.number_of_edges() == 2
