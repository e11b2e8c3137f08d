"""Users' graph files: compressed input, MatrixMarket and METIS, through ``g2s solve``.

Invariants, one test each:

* a gzip / bzip2 / xz / single-file zip file is solved as its content is, found by magic bytes
  (a wrong or missing extension does not matter); the inner name decides the format;
* a zip holding several files, and truncated compressed data, are refused in one line, exit 1;
* MatrixMarket (coordinate pattern/real, symmetric/general, and dense array) and METIS files
  (with and without weights, comments, isolated vertices) give the graph they describe
  (write-then-read of both is in ``test_graph_io.test_round_trip``);
* malformed MatrixMarket / METIS files are refused with a one-line error naming the line or the
  problem (exit 1), never a misleading "self-loop" from the size line.
"""

import bz2
import gzip
import json
import lzma
import zipfile

import networkx as nx
import pytest

from g2s.cli import main
from g2s.io.compression import compression_of, decompress
from g2s.io.files import read_graph, write_graph
from g2s.io.input_graph import GraphFormatError
from tests.g2s.test_cli import run  # the g2s command in a subprocess


def solve(capsys, path, *extra, problem="mvc"):
    rc = main(["solve", "--problem", problem, "--method", "greedy", *extra, str(path)])
    out, err = capsys.readouterr()
    return rc, (json.loads(out) if rc == 0 else None), err


@pytest.fixture
def petersen_clq(tmp_path):
    p = tmp_path / "petersen.clq"
    write_graph(nx.petersen_graph(), p)
    return p


def _zip(path, members):
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


@pytest.mark.parametrize("kind,name", [("gzip", "g.clq.gz"), ("bzip2", "g.clq.bz2"),
                                       ("xz", "g.clq.xz"), ("zip", "g.zip"),
                                       ("gzip", "renamed.dat"), ("bzip2", "no_extension")])
def test_compressed_file_solved_like_its_content(tmp_path, petersen_clq, capsys, kind, name):
    raw = petersen_clq.read_bytes()
    path = tmp_path / name
    if kind == "zip":
        _zip(path, {"graphs/petersen.clq": raw, "graphs/": b""})
    else:
        path.write_bytes({"gzip": gzip.compress, "bzip2": bz2.compress,
                          "xz": lzma.compress}[kind](raw))
    assert compression_of(path.read_bytes()) == kind
    rc, out, _ = solve(capsys, path)
    assert rc == 0 and out["n"] == 10 and out["m"] == 15 and out["feasible"] is True
    _, plain, _ = solve(capsys, petersen_clq)
    assert out["solution"] == plain["solution"]


def test_inner_name_decides_the_format(tmp_path):
    raw = b"p edge 3 1\ne 1 2\n"
    data, name = decompress(gzip.compress(raw), "brock200_2.clq.gz")
    assert (data, name) == (raw, "brock200_2.clq")
    g = read_graph(_zip(tmp_path / "a.zip", {"dir/iso.col": raw}))
    assert g.graph.number_of_nodes() == 3  # read as DIMACS, isolated vertex 3 kept


@pytest.mark.parametrize("name,make,needle", [
    ("two.zip", lambda p: _zip(p, {"a.clq": b"p edge 2 1\ne 1 2\n", "b.txt": b"1 2\n"}),
     "holds 2 files (a.clq, b.txt)"),
    ("none.zip", lambda p: _zip(p, {}), "holds no file"),
    ("cut.gz", lambda p: p.write_bytes(gzip.compress(b"1 2\n" * 100)[:25]), "gzip: cannot"),
    ("bad.xz", lambda p: p.write_bytes(b"\xfd7zXZ\x00garbage"), "xz: cannot"),
])
def test_bad_compressed_files_refused_in_one_line(tmp_path, name, make, needle):
    path = tmp_path / name
    make(path)
    rc, out, err = run("solve", "--problem", "mvc", path)
    assert rc == 1 and needle in err and out == ""
    assert err.strip().count("\n") == 0 and "Traceback" not in err


MTX_CASES = {
    # the size line '4 4 3' is not an edge: the old edge-list reading called it a self-loop
    "pattern_symmetric": "%%MatrixMarket matrix coordinate pattern symmetric\n% c\n4 4 3\n"
                         "2 1\n3 2\n4 1\n",
    "real_general": "%%MatrixMarket matrix coordinate real general\n4 4 6\n1 2 0.5\n2 1 0.5\n"
                    "2 3 1\n3 2 1\n1 4 -2\n4 1 -2\n",
    "integer_skew": "%%MatrixMarket matrix coordinate integer skew-symmetric\n4 4 3\n2 1 1\n"
                    "3 2 4\n4 1 -7\n",
    "array_symmetric": "%%MatrixMarket matrix array real symmetric\n4 4\n0\n1\n0\n1\n0\n1\n0\n0"
                       "\n0\n0\n",
}


@pytest.mark.parametrize("case", sorted(MTX_CASES))
def test_matrix_market_variants_through_the_cli(tmp_path, capsys, case):
    path = tmp_path / "g.mtx"
    path.write_text(MTX_CASES[case])
    rc, out, err = solve(capsys, path)
    assert rc == 0, err
    assert (out["n"], out["m"]) == (4, 3) and out["warnings"] == []
    # the path 4-1-2-3 (labels 1..4 as in the file): its minimum cover has two vertices
    assert out["objective"] == 2


def test_matrix_market_found_by_banner_without_extension(tmp_path, capsys):
    path = tmp_path / "graph.txt"
    path.write_text(MTX_CASES["pattern_symmetric"])
    rc, out, _ = solve(capsys, path)
    assert rc == 0 and out["m"] == 3


def test_unsymmetric_matrix_read_as_undirected_with_warning(tmp_path, capsys):
    path = tmp_path / "g.mtx"
    path.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 1\n3 1\n")
    rc, out, err = solve(capsys, path)
    assert rc == 0 and out["m"] == 2
    assert "without a transpose" in err and len(out["warnings"]) == 1


METIS_CASES = {
    "plain": "4 3\n2 4\n1 3\n2\n1\n",
    "comments_and_isolated": "% generated\n5 3\n2 4\n1 3\n% vertex 3 next\n2\n1\n\n",
    "edge_weights": "4 3 1\n2 7 4 1\n1 7 3 2\n2 2\n1 1\n",
    "all_weights_ncon2": "4 3 111 2\n9 1 1 2 7 4 1\n9 1 1 1 7 3 2\n9 1 1 2 2\n9 1 1 1 1\n",
    "vertex_weights": "4 3 010\n5 2 4\n5 1 3\n5 2\n5 1\n",
    "crlf": "4 3\r\n2 4\r\n1 3\r\n2\r\n1\r\n",
}


@pytest.mark.parametrize("case", sorted(METIS_CASES))
def test_metis_variants_through_the_cli(tmp_path, capsys, case):
    path = tmp_path / "g.graph"
    path.write_bytes(METIS_CASES[case].encode())
    rc, out, err = solve(capsys, path)
    assert rc == 0, err
    assert out["m"] == 3 and out["warnings"] == [] and out["objective"] == 2
    assert out["n"] == (5 if case == "comments_and_isolated" else 4)


@pytest.mark.parametrize("name,text,needle", [
    ("a.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 2\n", "3 x 4"),
    ("a.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 2\n3 1\n",
     "self-loop at vertex 2"),
    ("a.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n", "MatrixMarket"),
    ("a.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n4 1\n", "Line 3"),
    ("a.mtx", "%%MatrixMarket vector coordinate real general\n3 1\n1 1.0\n", "MatrixMarket"),
    ("a.mtx", "1 2\n2 3\n", "banner"),
    ("a.graph", "3 1\n2\n1\n", "declares 3 vertices"),
    ("a.graph", "2 1\n2\n1\n5\n", "line 4"),
    ("a.graph", "2 1\n1\n\n", "self-loop at vertex 1"),
    ("a.graph", "2 1\n3\n\n", "out of range 1..2"),
    ("a.graph", "2 1 2\n2\n1\n", "fmt"),
    ("a.graph", "2 1 0 2\n2\n1\n", "ncon"),
    ("a.graph", "2 1\n2 x\n1\n", "line 2: expected integers"),
    ("a.graph", "2 1 001\n2\n1 4\n", "pairs"),
    ("a.graph", "% only a comment\n", "header"),
    ("a.graph", "0 0\n", "no vertices"),
])
def test_bad_matrix_market_and_metis_refused_in_one_line(tmp_path, name, text, needle):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(GraphFormatError, match="."):
        read_graph(path)
    rc, out, err = run("solve", "--problem", "mvc", path)
    assert rc == 1 and needle in err and out == ""
    assert err.strip().count("\n") == 0 and "Traceback" not in err


def test_metis_warnings_asymmetric_and_edge_count(tmp_path):
    path = tmp_path / "g.graph"
    path.write_text("3 5\n2 3 3\n1\n\n")  # 1-3 listed once, twice at vertex 1; m says 5
    g = read_graph(path)
    assert g.graph.number_of_edges() == 2
    text = " | ".join(g.warnings)
    assert "duplicate" in text and "without the reverse" in text and "declares 5" in text


@pytest.mark.parametrize("fmt", ["mtx", "metis"])
def test_format_flag_accepts_new_formats(tmp_path, capsys, fmt):
    path = tmp_path / "g.dat"
    write_graph(nx.cycle_graph(5), path, fmt=fmt)
    rc, out, _ = solve(capsys, path, "--format", fmt)
    assert rc == 0 and (out["n"], out["m"], out["objective"]) == (5, 5, 3)
