"""``g2s solve`` on the files users meet: what is read with a warning, what is refused in
one line before anything large is allocated.

Invariants:

* a zip of one graph and documentation (how BHOSLIB ships its instances) is read, the
  warning naming the member read and the files left out; a zip of two graphs is refused;
* a MatrixMarket size line declaring more entries than its vertices allow, or than the file
  can hold, is refused before scipy allocates them;
* a folder, a FIFO, ``/dev/zero`` or a terminal as the input file is named as such (never
  "no such file"), and never read forever;
* ``--debug`` is accepted after the sub-command too;
* networkx's own GraphML warning (``<port>``) is one of the JSON ``warnings``;
* integer labels above 2^53 are written as strings, with a warning.
"""

from __future__ import annotations

import os
import zipfile

import pytest

from tests.g2s.test_bad_inputs import refused, run, solve_json

SOLVE = ["solve", "--problem", "mvc", "--method", "greedy"]
CLQ = "c a triangle and a pendant\np edge 4 4\ne 1 2\ne 2 3\ne 1 3\ne 3 4\n"


def _zip(path, members: dict):
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in members.items():
            zf.writestr(name, text)
    return path


def test_a_zip_of_one_graph_and_its_readme_is_read_with_a_warning(tmp_path):
    z = _zip(tmp_path / "frb.zip", {"frb30-15-1.clq": CLQ, "readme.html": "<p>BHOSLIB</p>",
                                    "notes.txt": "about", "LICENSE": "free"})
    result, err = solve_json(*SOLVE[1:], z, cwd=tmp_path)
    assert result["n"] == 4 and result["objective"] == 2
    note = [w for w in result["warnings"] if w.startswith("zip: read frb30-15-1.clq")]
    assert len(note) == 1 and "left out 3 documentation files" in note[0]


@pytest.mark.parametrize("members", [
    {"a.clq": CLQ, "b.clq": CLQ},                      # two graphs
    {"a.clq": CLQ, "b.clq": CLQ, "readme.txt": "x"},   # two graphs and a readme
    {"a.clq": CLQ, "data.bin": "x"},                   # something that is no documentation
])
def test_a_zip_with_more_than_one_graph_or_other_files_is_refused(tmp_path, members):
    z = _zip(tmp_path / "g.zip", members)
    refused(tmp_path, [*SOLVE, z], 1, "holds", "extract the one graph")


@pytest.mark.parametrize("size_line,needle", [
    ("4 4 2000000000", "a simple graph on 4 vertices has at most 12"),
    ("100000 100000 2000000000", "room for at most"),
])
def test_a_matrix_market_entry_count_is_checked_before_allocation(tmp_path, size_line, needle):
    p = tmp_path / "g.mtx"
    p.write_text(f"%%MatrixMarket matrix coordinate pattern symmetric\n{size_line}\n2 1\n")
    refused(tmp_path, [*SOLVE, p], 1, "MatrixMarket: line 2: the size line declares", needle)


def test_a_folder_is_named_as_a_folder(tmp_path):
    (tmp_path / "d").mkdir()
    refused(tmp_path, [*SOLVE, tmp_path / "d"], 1, "is a folder, not a graph file")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_refused_not_read_forever(tmp_path):
    refused(tmp_path, [*SOLVE, "/dev/zero"], 1, "not a regular file", "give - as the file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    refused(tmp_path, [*SOLVE, tmp_path / "pipe"], 1, "not a regular file")


def test_debug_is_accepted_after_the_command(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("0 1\n1 2\n")
    result, _ = solve_json(*SOLVE[1:], p, "--debug")
    assert result["objective"] == 1


def test_a_graphml_port_is_a_json_warning_not_a_raw_one(tmp_path):
    p = tmp_path / "g.graphml"
    p.write_text('<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
                 '<graph edgedefault="undirected"><node id="a"><port name="p"/></node>'
                 '<node id="b"/><edge source="a" target="b"/></graph></graphml>')
    result, err = solve_json(*SOLVE[1:], p)
    assert any("port" in w for w in result["warnings"])
    assert "UserWarning" not in err and "graphml.py" not in err


def test_labels_above_2_53_are_written_as_strings(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("9007199254740993 9007199254740995\n1 2\n")
    result, _ = solve_json(*SOLVE[1:], p)
    big = [v for v in result["solution"] if not isinstance(v, int)]
    assert big and all(isinstance(v, str) and int(v) > 2**53 for v in big)
    assert any("above 2^53" in w for w in result["warnings"])
    assert 1 in result["solution"] or 2 in result["solution"]   # small ones stay numbers
    rc, _, _ = run(*SOLVE, p)
    assert rc == 0


@pytest.mark.parametrize("value", ["1e308", "nan", "inf", "-inf", "0", "604801"])
def test_a_time_limit_that_is_not_finite_or_beyond_a_week_is_refused(tmp_path, value):
    p = tmp_path / "g.txt"
    p.write_text("0 1\n1 2\n")
    refused(tmp_path, ["solve", "--problem", "maxcut", "--method", "reference",
                       f"--time-limit={value}", p], 2, "argument --time-limit")


def test_max_cut_rows_are_bounded_by_memory_not_by_the_time_limit():
    """The program's triangle budget stops at MAX_TRIANGLES however long the limit (an hour
    used to allow 3.6 million triangles, 5.7 GB on 500 vertices), and the rows follow it."""
    import networkx as nx

    from g2s.reference import programs
    assert programs.triangle_budget(3600) == programs.triangle_budget(1e300) == \
        programs.MAX_TRIANGLES
    assert programs.triangle_budget(0.5) == 500
    # the rows stop at the budget on a graph with more triangles than it (about 25,000 here;
    # the ceiling itself would take a graph of a million rows), and hold every triangle below
    G = nx.gnp_random_graph(60, 0.9, seed=0)
    idx = {v: i for i, v in enumerate(G)}
    triangles = sum(nx.triangles(G).values()) // 3
    assert triangles > 2_000
    _, _, rows = programs._cut_structure(G, idx, 2_000)
    assert len(rows) == 4 * 2_000
    _, _, rows = programs._cut_structure(G, idx, programs.triangle_budget(1e6))
    assert len(rows) == 4 * min(triangles, programs.MAX_TRIANGLES)
