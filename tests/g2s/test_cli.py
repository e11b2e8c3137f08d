"""The g2s command: JSON on success; one-line errors and non-zero exits on bad input.

Runs the real console entry point in a subprocess so that what a user sees is what is tested:
no traceback ever reaches stderr, and a failed run writes no --output file.
"""

import json
import subprocess
import sys

import networkx as nx
import pytest

from g2s.cli import main
from g2s.nn.checkpoints import checkpoint_path


def run(*args):
    proc = subprocess.run([sys.executable, "-m", "g2s.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def petersen(tmp_path):
    import networkx as nx
    p = tmp_path / "petersen.txt"
    p.write_text("".join(f"{u} {v}\n" for u, v in nx.petersen_graph().edges()))
    return p


@pytest.mark.parametrize("problem,method", [("mvc", "greedy"), ("mvc", "list"),
                                            ("mvc", "matching"), ("mis", "greedy"),
                                            ("maxcut", "greedy"), ("mis", "list-left")])
def test_solve_prints_feasible_json(petersen, problem, method, capsys):
    assert main(["solve", "--problem", problem, "--method", method, str(petersen)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["feasible"] is True and out["n"] == 10 and out["m"] == 15
    assert out["objective"] == (len(out["solution"]) if problem != "maxcut" else out["objective"])


def test_output_file_written_atomically(petersen, tmp_path, capsys):
    dest = tmp_path / "res.json"
    assert main(["solve", "--problem", "mvc", str(petersen), "--output", str(dest)]) == 0
    assert json.loads(dest.read_text())["feasible"] is True


@pytest.mark.parametrize("args,code,needle", [
    (["solve", "--problem", "mvc", "MISSING.txt"], 1, "no such file"),
    (["solve", "--problem", "tsp", "x.txt"], 2, "invalid choice"),
    (["solve", "--problem", "mvc", "--bogus", "x.txt"], 2, "unrecognized"),
    # a method that does not apply is a command-line error, found before reading the file
    (["solve", "--problem", "maxcut", "--method", "matching", "{graph}"], 2, "does not apply"),
    (["solve", "--problem", "mvc", "{loop}"], 1, "self-loop"),
    (["solve", "--problem", "mvc", "--time-limit", "-1", "--method", "reference", "{graph}"], 2,
     "time-limit"),
    (["solve", "--problem", "mvc", "--float32-screen", "{graph}"], 2, "--method g2s only"),
    ([], 2, "command is required"),
])
def test_errors_are_one_line(tmp_path, args, code, needle):
    graph = tmp_path / "g.txt"
    graph.write_text("0 1\n1 2\n")
    loop = tmp_path / "loop.txt"
    loop.write_text("0 1\n1 1\n")
    dest = tmp_path / "out.json"
    args = [a.format(graph=graph, loop=loop) for a in args]
    rc, out, err = run(*args, *(["--output", dest] if args and args[0] == "solve" else []))
    assert rc == code
    assert needle in err
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert out == "" and not dest.exists()


@pytest.mark.torch
@pytest.mark.parametrize("method", ["g2s", "s2v"])
def test_neural_methods_give_feasible_json(petersen, method, capsys):
    assert main(["solve", "--problem", "mvc", "--method", method, str(petersen)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["feasible"] is True and out["method"] == method


@pytest.mark.torch
def test_float32_screen_gives_the_same_answer(tmp_path, capsys):
    """``--float32-screen`` is a speed choice: the same solution as the float64 default."""
    graph = tmp_path / "er.txt"
    G = nx.gnp_random_graph(60, 0.15, seed=3)
    graph.write_text("".join(f"{u} {v}\n" for u, v in G.edges))
    outs = []
    for extra in ([], ["--float32-screen"]):
        assert main(["solve", "--problem", "mvc", "--method", "g2s", *extra, str(graph)]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["solution"] == outs[1]["solution"] and outs[1]["feasible"] is True


@pytest.mark.torch
@pytest.mark.parametrize("args,needle", [
    (["solve", "--problem", "mvc", "--method", "g2s", "--device", "banana"], "cpu, cuda or cuda:N"),
    (["solve", "--problem", "maxcut", "--method", "sage_gcn", "--checkpoint",
      str(checkpoint_path("sage_gcn", "mvc"))], "trained for mvc, not maxcut"),
    (["solve", "--problem", "mvc", "--method", "g2s", "--checkpoint", "NOPE.pt"],
     "no such checkpoint"),
    (["train", "--problem", "tsp", "--out", "x.pt"], "invalid choice"),
])
def test_neural_method_errors_are_one_line(petersen, args, needle):
    full = [*args, str(petersen)] if args[0] == "solve" else args
    rc, out, err = run(*full)
    assert rc in (1, 2) and needle in err
    assert err.strip().count("\n") == 0 and "Traceback" not in err


@pytest.mark.torch
def test_cuda_request_without_cuda_is_a_clear_error(petersen):
    import torch
    if torch.cuda.is_available():
        pytest.skip("CUDA present: the request is valid here")
    rc, _, err = run("solve", "--problem", "mvc", "--method", "g2s", "--device", "cuda", petersen)
    assert rc == 1 and "CUDA is not available" in err and "Traceback" not in err


def _check_timing(out):
    """The timing fields read_s, solve_s, total_s: one meaning each; no duplicate fields."""
    assert not {"seconds", "time_s", "edges"} & set(out)
    assert all(isinstance(out[k], float) and out[k] >= 0 for k in ("read_s", "solve_s", "total_s"))
    assert out["read_s"] + out["solve_s"] <= out["total_s"] + 1e-5  # each rounded to 1e-6
    assert out["status"] in ("complete", "optimal", "time_limit")


@pytest.mark.parametrize("method", ["greedy", "list-left", "matching", "reference"])
def test_timing_fields_and_status(tmp_path, method, capsys):
    import gzip

    import networkx as nx

    from g2s.io.matrix_market import matrix_market_bytes
    path = tmp_path / "g.mtx.gz"  # read_s covers unpacking and parsing
    path.write_bytes(gzip.compress(matrix_market_bytes(nx.gnp_random_graph(60, 0.3, seed=1))))
    assert main(["solve", "--problem", "mvc", "--method", method, str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    _check_timing(out)
    assert out["n"] == 60 and out["read_s"] > 0
    if method != "reference":
        assert out["status"] == "complete" and "bound" not in out


@pytest.mark.torch
@pytest.mark.parametrize("method", ["g2s", "sage_mean"])
def test_neural_timing_fields_and_status(petersen, method, capsys):
    assert main(["solve", "--problem", "mvc", "--method", method, str(petersen)]) == 0
    out = json.loads(capsys.readouterr().out)
    _check_timing(out)
    assert out["n"] == 10 and out["m"] == 15


@pytest.mark.parametrize("problem", ["mvc", "mis"])
def test_reference_bound_is_the_tighter_of_both_formulations(tmp_path, problem, capsys):
    """MVC = n - MIS, and the reference runs both 0/1 programs.

    ``bounds`` holds what each program proved alone (``None``: skipped because the first one
    proved optimality); the reported ``bound`` is at least as tight as every one of them, is
    valid for the reported solution, and ``bound_by`` names the program that gave it.
    """
    from g2s.graphs import erdos_renyi
    from g2s.io.files import write_graph
    path = tmp_path / "dense.dimacs"
    write_graph(erdos_renyi(200, 0.5, seed=3), path)
    assert main(["solve", "--problem", problem, "--method", "reference", "--time-limit", "2",
                 str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    proved = {f: b for f, b in out["bounds"].items() if b is not None}
    assert set(out["bounds"]) == {"mvc", "mis"} and problem in proved
    tightest = max(proved.values()) if problem == "mvc" else min(proved.values())
    assert out["bound"] == tightest and proved[out["bound_by"]] == tightest
    assert all(out["bound"] >= b if problem == "mvc" else out["bound"] <= b
               for b in proved.values())
    assert out["bound"] <= out["objective"] if problem == "mvc" else \
        out["bound"] >= out["objective"]
    assert out["best_known_by"] in ("mvc", "mis", "chils", "heuristic")
    assert out["versions"]["ortools"] and "chils" in out["versions"]
    assert out["status"] == ("optimal" if out["bound"] == out["objective"] else "time_limit")


def test_g2s_solve_shows_algorithm2_steps_on_a_terminal_only(tmp_path):
    """Algorithm 2 on a large graph is minutes to hours: on a terminal ``g2s solve --method
    g2s`` draws a bar of its greedy steps on standard error (cleared when done); into a file or
    a pipe, standard error stays empty; standard output is the JSON either way."""
    import os
    import pty
    g = tmp_path / "er.txt"
    G = nx.gnp_random_graph(300, 0.05, seed=1)
    g.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    cmd = [sys.executable, "-m", "g2s.cli", "solve", "--problem", "mvc", "--method", "g2s",
           str(g)]
    primary, secondary = pty.openpty()
    import fcntl
    import struct
    import termios
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=secondary, timeout=300)
        os.close(secondary)
        secondary = None
        seen = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:                    # the terminal's other side is closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if secondary is not None:
            os.close(secondary)
        os.close(primary)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["feasible"] is True
    text = seen.decode(errors="replace")
    assert "g2s: Algorithm 2" in text and "/300" in text and "rollouts running" in text
    code, out, err = run("solve", "--problem", "mvc", "--method", "g2s", g)
    assert code == 0 and err == "" and json.loads(out)["feasible"] is True
