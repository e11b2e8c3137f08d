"""Hardening: every bad input, option and file gets a clear refusal, nothing is
silently wrong, nothing is overwritten that should not be.

Each case runs the real command in a subprocess, as a user would, and checks the exit code,
that stderr is exactly one line (never a traceback), and that the file system is unchanged
(no output, no temporary or resume file left behind) when the command is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import g2s
from tests.cli_child import default_sigint, run_cli_child

CHECKPOINTS = Path(g2s.__file__).parent / "checkpoints"


def run(*args, cwd=None, timeout=180):
    proc = subprocess.run([sys.executable, "-m", "g2s.cli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def snapshot(root: Path) -> dict:
    """Every path under ``root`` with its kind, mode, size and content hash."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            digest = hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) \
                else os.readlink(p) if stat.S_ISLNK(st.st_mode) else None
            out[str(p.relative_to(root))] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode),
                                             digest)
    return out


def assert_one_line_error(rc, err, code, *needles):
    assert rc == code, err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, err


def refused(tmp_path, args, code, *needles):
    """Run, expect a one-line refusal with exit ``code`` and an unchanged ``tmp_path``."""
    before = snapshot(tmp_path)
    rc, out, err = run(*args, cwd=tmp_path)
    assert_one_line_error(rc, err, code, *needles)
    assert out == ""
    assert snapshot(tmp_path) == before
    return err


def solve_json(*args, cwd=None):
    rc, out, err = run("solve", *args, cwd=cwd)
    assert rc == 0, err
    return json.loads(out), err


@pytest.fixture
def path_graph(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("0 1\n1 2\n")
    return p


# --- 1. labels: distinct byte strings stay distinct, or are refused -------------------------

def test_invalid_utf8_labels_are_refused_not_merged(tmp_path):
    """Before: both labels decoded to U+FFFD and merged (n = 3, MVC 1 'optimal')."""
    g = tmp_path / "g.txt"
    g.write_bytes(b"\xff 2\n\xfe 3\n")
    refused(tmp_path, ["solve", "--problem", "mvc", "--method", "reference", g], 1,
            "line 1", "not valid UTF-8")


@pytest.mark.parametrize("text,n", [
    ("01 1\n1 2\n+1 2\n", 4),             # 01, 1, +1 are three labels (int() merged them)
    ("1_0 10\n10 2\n", 3),                # int('1_0') == 10
    ("\u0661 1\n1 2\n", 3),               # Arabic-Indic one, int('\u0661') == 1
    ("\u00e9 1\ne\u0301 1\n", 3),         # NFC vs NFD e-acute: different strings
    ("a\u00a0b c\nc d\n", 3),             # a no-break space is part of a label, not a blank
])
def test_distinct_labels_stay_distinct(tmp_path, text, n):
    g = tmp_path / "g.txt"
    g.write_text(text, encoding="utf-8")
    res, _ = solve_json("--problem", "mvc", "--method", "reference", g)
    assert res["n"] == n


def test_leading_bom_is_dropped(tmp_path):
    g = tmp_path / "g.txt"
    g.write_bytes(b"\xef\xbb\xbf1 2\n2 3\n")
    res, _ = solve_json("--problem", "mvc", g)
    assert res["n"] == 3 and res["solution"] == [2]


@pytest.mark.parametrize("data,needle", [(b"1 2\n2 a\x00b\n", "NUL"),
                                         (b"1 2\n\xef\xbb\xbf2 3\n", "byte-order mark"),
                                         ("1 2\n".encode("utf-16"), "UTF-8")])
def test_nul_and_inner_bom_are_refused(tmp_path, data, needle):
    g = tmp_path / "g.txt"
    g.write_bytes(data)
    refused(tmp_path, ["solve", "--problem", "mvc", g], 1, needle)


# --- 2. --output writes only where it should ------------------------------------------------

@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_to_a_device_is_refused(tmp_path, path_graph):
    refused(tmp_path, ["solve", "--problem", "mvc", path_graph, "--output", "/dev/full"], 2,
            "--output", "not a regular file")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_output_equal_to_the_input_is_refused(tmp_path, path_graph):
    link = tmp_path / "link.txt"
    link.symlink_to(path_graph)
    for dest in (path_graph, link):
        refused(tmp_path, ["solve", "--problem", "mvc", path_graph, "--output", dest], 2,
                "--output", "input file")


def test_output_symlink_is_followed_and_kept(tmp_path, path_graph):
    target = tmp_path / "result.json"
    target.write_text("old\n")
    link = tmp_path / "out.json"
    link.symlink_to(target)
    res, _ = solve_json("--problem", "mvc", path_graph, "--output", link)
    assert link.is_symlink() and json.loads(target.read_text()) == res


def test_output_keeps_permissions(tmp_path, path_graph):
    existing = tmp_path / "a.json"
    existing.write_text("{}\n")
    existing.chmod(0o644)
    solve_json("--problem", "mvc", path_graph, "--output", existing)
    assert stat.S_IMODE(existing.stat().st_mode) == 0o644
    new = tmp_path / "b.json"
    solve_json("--problem", "mvc", path_graph, "--output", new)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~mask


def test_unusable_output_name_is_refused(tmp_path, path_graph):
    refused(tmp_path, ["solve", "--problem", "mvc", path_graph, "--output",
                       tmp_path / ("x" * 300 + ".json")], 2, "--output", "too long")


def test_write_failure_is_one_line_and_the_result_is_still_printed(tmp_path, path_graph):
    import resource

    def small_files():  # every regular file the command writes fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (16, 16))

    dest = tmp_path / "out.json"
    before = snapshot(tmp_path)
    proc = subprocess.run([sys.executable, "-B", "-m", "g2s.cli", "solve", "--problem", "mvc",
                           str(path_graph), "--output", str(dest)], capture_output=True,
                          text=True, timeout=120, preexec_fn=small_files)
    assert_one_line_error(proc.returncode, proc.stderr, 1, "cannot write --output")
    assert json.loads(proc.stdout)["feasible"] is True
    assert snapshot(tmp_path) == before


# --- 3. the checkpoint's encoder must be the method's ---------------------------------------

@pytest.mark.torch
def test_method_and_checkpoint_encoder_must_agree(tmp_path, path_graph):
    refused(tmp_path, ["solve", "--problem", "mvc", "--method", "g2s", "--checkpoint",
                       CHECKPOINTS / "s2v_mvc_er15_s0.pt", path_graph], 1,
            "holds a s2v model, not g2s_rnn")


# --- 4. a resume file for another configuration is refused ----------------------------------

TINY = ["--n", "6", "--n-validation", "2", "--validate-every", "10", "--warmup", "8",
        "--batch-size", "8", "--no-progress"]


@pytest.mark.torch
def test_resume_with_another_configuration_is_refused(tmp_path):
    rc, _, err = run("train", "--problem", "mvc", "--iterations", "20", *TINY, "--out", "x.pt",
                     cwd=tmp_path)
    assert rc == 0, err
    assert (tmp_path / "x.resume.pt").exists()
    refused(tmp_path, ["train", "--problem", "maxcut", "--iterations", "20", *TINY, "--out",
                       "x.pt"], 1, "another configuration", "problem ('mvc' there, 'maxcut'")
    refused(tmp_path, ["train", "--problem", "mvc", "--iterations", "10", *TINY, "--out",
                       "x.pt"], 1, "iterations (20 already done, 10 asked)")
    refused(tmp_path, ["train", "--problem", "mvc", "--iterations", "20", *TINY, "--out",
                       "x.pt", "--encoder", "s2v"], 1, "model encoder")


@pytest.mark.torch
def test_corrupt_resume_file_is_one_line(tmp_path):
    (tmp_path / "x.resume.pt").write_bytes(b"garbage")
    refused(tmp_path, ["train", "--iterations", "20", *TINY, "--out", "x.pt"], 1,
            "resume file", "--no-resume")


# --- 7. a DIMACS header cannot make us allocate without bound -------------------------------

def test_huge_dimacs_vertex_count_is_refused_before_allocating(tmp_path):
    g = tmp_path / "g.dimacs"
    g.write_text("p edge 1000000000000000000 1\ne 1 2\n")
    t0 = time.monotonic()
    refused(tmp_path, ["solve", "--problem", "mvc", g], 1, "declares 1000000000000000000 "
            "vertices", "at most")
    assert time.monotonic() - t0 < 60


# --- 8. every option value is checked by the parser: exit 2, the flag named -----------------

@pytest.mark.parametrize("args,flag", [
    (["solve", "--problem", "mvc", "--t-max", "0"], "--t-max"),
    (["solve", "--problem", "mvc", "--t-max", "-1"], "--t-max"),
    (["solve", "--problem", "mvc", "--time-limit", "nan"], "--time-limit"),
    (["solve", "--problem", "mvc", "--time-limit", "inf"], "--time-limit"),
    (["solve", "--problem", "mvc", "--time-limit", "-1"], "--time-limit"),
    (["solve", "--problem", "mvc", "--seed", "-1"], "--seed"),
    (["solve", "--problem", "mvc", "--seed", "99999999999"], "--seed"),
    (["solve", "--problem", "mvc", "--threads", "0"], "--threads"),
    (["solve", "--problem", "mvc", "--method", "g2s", "--device", "mps"], "--device"),
    (["solve", "--problem", "mvc", "--method", "g2s", "--device", "cuda:x"], "--device"),
    (["train", "--device", "gpu", "--out", "x.pt"], "--device"),
    (["train", "--eps-decay", "0", "--out", "x.pt"], "--eps-decay"),
    (["train", "--validate-every", "0", "--out", "x.pt"], "--validate-every"),
    (["train", "--checkpoint-every", "0", "--out", "x.pt"], "--checkpoint-every"),
    (["train", "--checkpoint-seconds", "-5", "--out", "x.pt"], "--checkpoint-seconds"),
    (["train", "--iterations", "-1", "--out", "x.pt"], "--iterations"),  # 0: the untrained null
    (["train", "--keep-best", "maybe", "--out", "x.pt"], "--keep-best"),
    (["train", "--lr", "nan", "--out", "x.pt"], "--lr"),
    (["train", "--eps-start", "2", "--out", "x.pt"], "--eps-start"),
    (["train", "--n", "40", "--out", "x.pt"], "--n"),
    (["train", "--seed", "-1", "--out", "x.pt"], "--seed"),
    (["train", "--threads", "0", "--out", "x.pt"], "--threads"),
    (["train", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_option_values_exit_2_naming_the_flag(tmp_path, path_graph, args, flag):
    full = [*args, path_graph] if args[0] == "solve" else args
    refused(tmp_path, full, 2, flag)


def test_train_without_out_names_it(tmp_path):
    refused(tmp_path, ["train", "--iterations", "5"], 2, "required: --out")


# --- 9, 17. bad checkpoints: one line each, exit 1 ------------------------------------------

def _bad_checkpoints(folder: Path) -> dict:
    import torch
    src = torch.load(CHECKPOINTS / "g2s_rnn_mvc_er15_s0.pt", weights_only=True)
    raw = (CHECKPOINTS / "g2s_rnn_mvc_er15_s0.pt").read_bytes()
    files = {"truncated.pt": raw[: len(raw) // 2], "random.pt": b"\x17" + os.urandom(4095),
             "empty.pt": b""}
    for name, data in files.items():
        (folder / name).write_bytes(data)

    class Code:
        def __reduce__(self):
            return (os.system, ("echo should-never-run",))

    torch.save({"state_dict": src["state_dict"], "meta": Code()}, folder / "code.pt")
    torch.save({"state_dict": src["state_dict"]}, folder / "nometa.pt")
    meta = dict(src["meta"], model_config=dict(src["meta"]["model_config"], dim=8))
    torch.save({"state_dict": src["state_dict"], "meta": meta}, folder / "dims.pt")
    for name, value in (("nan.pt", float("nan")), ("inf.pt", float("inf"))):
        sd = {k: v.clone() for k, v in src["state_dict"].items()}
        next(iter(sd.values())).view(-1)[0] = value
        torch.save({"state_dict": sd, "meta": src["meta"]}, folder / name)
    return {"truncated.pt": "truncated or corrupt", "random.pt": "not a PyTorch checkpoint",
            "empty.pt": "truncated or corrupt", "code.pt": "objects or code",
            "nometa.pt": "no 'meta'", "dims.pt": "contradict its model_config",
            "nan.pt": "NaN or infinite weights", "inf.pt": "NaN or infinite weights"}


@pytest.mark.torch
def test_bad_checkpoints_are_one_line(tmp_path, path_graph):
    folder = tmp_path / "ckpt"
    folder.mkdir()
    cases = _bad_checkpoints(folder)
    for name, needle in cases.items():
        err = refused(tmp_path, ["solve", "--problem", "mvc", "--method", "g2s",
                                 "--checkpoint", folder / name, path_graph], 1, needle)
        assert "should-never-run" not in err


# --- 10. --output / --out that cannot be a file ---------------------------------------------

def test_output_to_a_folder_or_under_a_file_is_refused(tmp_path, path_graph):
    refused(tmp_path, ["solve", "--problem", "mvc", path_graph, "--output", tmp_path], 2,
            "--output", "is a folder")
    refused(tmp_path, ["solve", "--problem", "mvc", path_graph, "--output",
                       path_graph / "x.json"], 2, "--output", "is not a folder")


def test_train_out_folder_leaves_nothing_behind(tmp_path):
    (tmp_path / "DIR").mkdir()
    refused(tmp_path, ["train", "--iterations", "5", "--out", "DIR"], 2, "--out", "folder")
    refused(tmp_path, ["train", "--iterations", "5", "--out", "m.json"], 2, "--out", "sidecar")


# --- 11. Ctrl-C during start-up -------------------------------------------------------------

def _wait_for_mapping(pid: int, needle: str, timeout: float = 60) -> bool:
    """Wait until the process has loaded a shared library whose path holds ``needle``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if needle in Path(f"/proc/{pid}/maps").read_text():
                return True
        except OSError:
            return False
        time.sleep(0.005)
    return False


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")
@pytest.mark.parametrize("delay", [0.0, 0.1, 0.3, 1.0])
def test_ctrl_c_during_start_up_is_one_line(tmp_path, path_graph, delay):
    """Interrupt while g2s's own imports run: numpy being mapped means g2s.cli is importing
    networkx (a window of about 0.6 s); ``delay`` moves the signal later from there.
    (A signal inside the interpreter's own start-up, before any g2s code runs, is Python's.)"""
    proc = subprocess.Popen([sys.executable, "-m", "g2s.cli", "solve", "--problem", "mvc",
                             "--method", "reference", str(path_graph)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    assert _wait_for_mapping(proc.pid, "numpy")
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err, err
    assert proc.returncode in (0, 130), err
    if proc.returncode == 130:
        assert err.strip() == "g2s: interrupted" and out == ""


def _run_cli_with(tmp_path, setup: str, *args: str, before: str = "", sigint=None):
    """``g2s solve --problem mvc ARGS g.txt`` (a path of 4 vertices) through ``run_cli_child``."""
    (tmp_path / "g.txt").write_text("0 1\n1 2\n2 3\n")
    return run_cli_child(["solve", "--problem", "mvc", *args, "g.txt"], cwd=tmp_path,
                         before=before, setup=setup, sigint=sigint)


def _ctrl_c_now():
    return ("def ctrl_c():\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    for _ in range(1000):  # the handler runs at the next bytecode boundary\n"
            "        time.sleep(0.001)\n")


def test_a_ctrl_c_python_drops_still_stops_the_command(tmp_path):
    """A KeyboardInterrupt raised where Python cannot raise it (a weakref callback or a
    ``__del__``, as in importlib's module locks) is printed as "Exception ignored" and lost;
    the command used to go on, print its answer and exit 0 after the traceback-like text."""
    setup = _ctrl_c_now() + (
        "class Lost:\n"
        "    def __del__(self):\n"
        "        ctrl_c()\n"
        "real = cli.read_graph\n"
        "def read_graph(*a, **k):\n"
        "    Lost()  # dropped at once: the interrupt lands in its __del__\n"
        "    return real(*a, **k)\n"
        "cli.read_graph = read_graph\n")
    proc = _run_cli_with(tmp_path, setup)
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert proc.stderr.strip() == "g2s: interrupted" and proc.stdout == ""


@pytest.mark.parametrize("chain", ["from exc", "from None"])
def test_a_ctrl_c_turned_into_another_error_is_an_interruption(tmp_path, chain):
    """pandas' Cython code (OR-Tools imports pandas) turns a KeyboardInterrupt raised inside it
    into ``SystemError: ... returned a result with an exception set``: g2s reported an internal
    error (exit 3) for a Ctrl-C."""
    setup = _ctrl_c_now() + (
        "real = cli.read_graph\n"
        "def read_graph(*a, **k):\n"
        "    try:\n"
        "        ctrl_c()\n"
        "    except KeyboardInterrupt as exc:\n"
        "        raise SystemError('returned a result with an exception set') " + chain + "\n"
        "cli.read_graph = read_graph\n")
    proc = _run_cli_with(tmp_path, setup)
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert proc.stderr.strip() == "g2s: interrupted" and proc.stdout == ""


def test_a_ctrl_c_while_the_result_is_written_does_not_cut_it(tmp_path):
    setup = _ctrl_c_now() + (
        "real = cli.atomic_write_text\n"
        "def write(*a, **k):\n"
        "    ctrl_c()\n"
        "    real(*a, **k)\n"
        "cli.atomic_write_text = write\n")
    proc = _run_cli_with(tmp_path, setup, "--output", "out.json")
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stderr == ""
    assert json.loads((tmp_path / "out.json").read_text()) == json.loads(proc.stdout)


def test_a_ctrl_c_ignored_at_start_stays_ignored(tmp_path):
    """A command started in the background by a script inherits an ignored SIGINT; g2s used
    to install its own start-up handler over it, so a stray Ctrl-C still stopped it."""
    before = _ctrl_c_now() + (  # Ctrl-C while g2s.cli imports networkx
        "class Finder:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'networkx':\n"
        "            ctrl_c()\n"
        "sys.meta_path.insert(0, Finder())\n")
    proc = _run_cli_with(tmp_path, "", before=before,
                         sigint=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert json.loads(proc.stdout)["objective"] == 2


def test_ctrl_c_after_a_cp_sat_solve_is_still_python_s(tmp_path):
    """CP-SAT's own SIGINT handler used to stay installed after a solve, so a later Ctrl-C
    killed the process by the signal with no message (CI saw exit status -2 above)."""
    script = ("import os, signal, time, networkx as nx\n"
              "from g2s.reference.programs import solve_cpsat\n"
              "S, bound = solve_cpsat('mvc', nx.path_graph(6), 10, None, 0, 1)\n"
              "assert len(S) == bound == 3\n"
              "try:\n"
              "    os.kill(os.getpid(), signal.SIGINT)\n"
              "    time.sleep(5)\n"
              "except KeyboardInterrupt:\n"
              "    print('KeyboardInterrupt')\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, preexec_fn=default_sigint)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    assert proc.stdout.strip() == "KeyboardInterrupt"


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")
def test_ctrl_c_during_a_long_reference_solve_stops_it_in_one_line(tmp_path):
    import networkx as nx

    g = tmp_path / "big.txt"
    G = nx.gnp_random_graph(300, 0.1, seed=3)  # max cut: CP-SAT runs far past 2 s here
    g.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    proc = subprocess.Popen([sys.executable, "-m", "g2s.cli", "solve", "--problem", "maxcut",
                             "--method", "reference", "--time-limit", "200", str(g)],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=default_sigint)
    assert _wait_for_mapping(proc.pid, "ortools")
    time.sleep(2.0)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert time.monotonic() - start < 60  # stopped, not run to its 200 s limit
    assert proc.returncode == 130, (proc.returncode, err)
    assert err.strip() == "g2s: interrupted" and out == ""


# --- 13. silent surprises now warn ----------------------------------------------------------

def test_edge_weights_and_extra_graphml_graphs_warn_once(tmp_path):
    g = tmp_path / "w.txt"
    g.write_text("1 2 5\n2 3 1.5\n")
    res, err = solve_json("--problem", "mvc", g)
    assert res["warnings"] == ["ignored the third column (edge weights) on 2 line(s): the "
                               "problems are unweighted"]
    assert err.count("warning") == 1
    x = tmp_path / "w.graphml"
    x.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
                 '<key id="d0" for="edge" attr.name="weight" attr.type="double"/>\n'
                 '<graph edgedefault="undirected"><node id="a"/><node id="b"/>'
                 '<edge source="a" target="b"><data key="d0">2.5</data></edge></graph>\n'
                 '<graph edgedefault="undirected"><node id="x"/></graph>\n</graphml>\n')
    res, err = solve_json("--problem", "mvc", x)
    assert any("2 graphs" in w for w in res["warnings"])
    assert any("weight" in w for w in res["warnings"])
    assert len(err.strip().splitlines()) == 2


@pytest.mark.parametrize("text", ["p 1\np 2\n", "e 1\ne 2\n", "c 1\nc 2\n"])
def test_edge_list_with_vertex_p_e_or_c_is_not_dimacs(tmp_path, text):
    g = tmp_path / "graph"  # no extension: sniffed
    g.write_text(text)
    res, _ = solve_json("--problem", "mvc", g)
    assert res["n"] == 3 and res["objective"] == 1


def test_dimacs_with_comments_is_still_sniffed(tmp_path):
    g = tmp_path / "graph"
    g.write_text("c a comment\np edge 3 2\ne 1 2\ne 2 3\n")
    res, _ = solve_json("--problem", "mvc", g)
    assert res["n"] == 3 and res["solution"] == [2]


# --- 15. training keeps its progress when stopped -------------------------------------------

@pytest.mark.torch
@pytest.mark.parametrize("sig,code,entry", [
    (signal.SIGINT, 130, ("g2s.cli", "train")), (signal.SIGTERM, 143, ("g2s.cli", "train")),
    # python -m g2s.train (what reproduce/train_all.py runs) printed a traceback here
    (signal.SIGTERM, 143, ("g2s.train",))])
def test_training_saves_a_resume_point_on_signals_and_on_time(tmp_path, sig, code, entry):
    import torch
    proc = subprocess.Popen([sys.executable, "-m", *entry, "--iterations",
                             "1000000", *TINY, "--checkpoint-every", "1000000",
                             "--checkpoint-seconds", "1", "--out", "x.pt"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    resume = tmp_path / "x.resume.pt"
    deadline = time.monotonic() + 150
    while not resume.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    assert resume.exists(), "no time-based resume point"  # the 1-second interval
    first = torch.load(resume, weights_only=True)["iteration"]
    time.sleep(1.5)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert_one_line_error(proc.returncode, err, code, "resume point saved at iteration")
    last = torch.load(resume, weights_only=True)
    assert last["iteration"] >= first
    assert f"iteration {last['iteration']} " in err
    assert not (tmp_path / "x.pt").exists()


# --- 16. threads and import time ------------------------------------------------------------

@pytest.mark.torch
def test_model_solve_reports_threads_and_import_time(tmp_path, path_graph):
    res, _ = solve_json("--problem", "mvc", "--method", "g2s", path_graph)
    assert res["threads"] == 1 and res["import_s"] >= 0
    res, _ = solve_json("--problem", "mvc", "--method", "g2s", "--threads", "2", path_graph)
    assert res["threads"] == 2


# --- 17. line ends: a lone carriage return ends a line in every text format -----------------

@pytest.mark.parametrize("name,data", [
    ("cr.txt", b"1 2\r3 4\r"),                                    # was n = 2, m = 1, 'optimal' 1
    ("cr.dimacs", b"p edge 4 2\re 1 2\re 3 4\r"),
    ("cr.graph", b"4 2\r2\r1\r4\r3\r"),                           # METIS refused it
    ("cr.mtx", b"%%MatrixMarket matrix coordinate pattern symmetric\r4 4 2\r2 1\r4 3\r"),
    ("mixed.txt", b"1 2\r\n3 4\r"),
])
def test_lone_carriage_return_ends_a_line(tmp_path, name, data):
    g = tmp_path / name
    g.write_bytes(data)
    res, err = solve_json("--problem", "mvc", "--method", "reference", g)
    assert (res["n"], res["m"], res["objective"]) == (4, 2, 2)
    assert res["warnings"] == [] and err == ""


def test_non_numeric_third_column_is_refused(tmp_path):
    g = tmp_path / "g.txt"
    g.write_text("1 2 3\n3 4 heavy\n")
    refused(tmp_path, ["solve", "--problem", "mvc", g], 1, "line 2", "must be a number",
            "'heavy'")


# --- 18. memory: limits checked before allocating, compressed input unpacked as a stream ----

def _gzip_stream(path: Path, chunk: bytes, times: int) -> Path:
    """gzip ``chunk * times`` into ``path`` without holding the whole content in memory."""
    import gzip
    with gzip.open(path, "wb", compresslevel=1) as fh:
        for _ in range(times):
            fh.write(chunk)
    return path


def _limit_memory(nbytes: int):
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))
    return limit


def test_gzip_bomb_of_zeros_is_refused_at_the_first_nul_within_bounded_memory(tmp_path):
    """Before: gzip.decompress unpacked the whole GiB first (3.2 GB of memory)."""
    bomb = _gzip_stream(tmp_path / "zeros.txt.gz", bytes(2**20), 1024)
    before = snapshot(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "g2s.cli", "solve", "--problem", "mvc", bomb],
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_memory(900 * 2**20))
    assert_one_line_error(proc.returncode, proc.stderr, 1, "zeros.txt: line 1", "NUL")
    assert snapshot(tmp_path) == before


def test_unpacked_size_limit_is_enforced_and_can_be_raised(tmp_path):
    g = _gzip_stream(tmp_path / "g.txt.gz", b"1 2\n2 3\n" * 1024, 200)  # 1.6 MB of text
    refused(tmp_path, ["solve", "--problem", "mvc", "--max-input-mib", "1", g], 1,
            "g.txt: more than 1 MiB", "--max-input-mib")
    plain = tmp_path / "plain.txt"
    plain.write_bytes(b"1 2\n" * 300_000)
    refused(tmp_path, ["solve", "--problem", "mvc", "--max-input-mib", "1", plain], 1,
            "plain.txt: more than 1 MiB")
    res, _ = solve_json("--problem", "mvc", "--max-input-mib", "2", g)
    assert (res["n"], res["m"]) == (3, 2)


def test_default_unpacked_size_limit(tmp_path):
    from g2s.io.input_graph import MAX_INPUT_MIB
    g = _gzip_stream(tmp_path / "g.txt.gz", b"1 2\n" * 2**18, MAX_INPUT_MIB + 1)
    t0 = time.monotonic()
    refused(tmp_path, ["solve", "--problem", "mvc", g], 1, f"more than {MAX_INPUT_MIB} MiB")
    assert time.monotonic() - t0 < 60


@pytest.mark.parametrize("name,text,needles", [
    ("big.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n1000000000 1000000000 2\n"
     "2 1\n3 1\n", ["declares 1000000000 vertices", "at most 5000000"]),
    ("edge.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n5000001 5000001 1\n2 1\n",
     ["declares 5000001 vertices"]),
    ("dense.mtx", "%%MatrixMarket matrix array real general\n100000 100000\n1\n",
     ["dense 100000 x 100000"]),
    ("big.graph", "5000001 0\n", ["declares 5000001 vertices", "at most 5000000"]),
])
def test_vertex_limit_holds_for_every_format_before_allocating(tmp_path, name, text, needles):
    """Before: the .mtx allocated 4.9 GB and died with MemoryError; 5,000,001 were accepted."""
    g = tmp_path / name
    g.write_text(text)
    before = snapshot(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "g2s.cli", "solve", "--problem", "mvc", g],
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_memory(1500 * 2**20))
    assert_one_line_error(proc.returncode, proc.stderr, 1, *needles)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("text", ["1 " + "x" * 100_000 + " 2 3\n", "p edge 3 1\ne " + "9" * 5000
                                  + "\n", "1 2 " + "w" * 100_000 + "\n"])
def test_error_messages_quote_a_short_part_of_the_input(tmp_path, text):
    g = tmp_path / ("g.dimacs" if text.startswith("p") else "g.txt")
    g.write_text(text)
    err = refused(tmp_path, ["solve", "--problem", "mvc", g], 1, "line")
    assert len(err) < 300, err


# --- 19. GraphML hierarchies and standard input ---------------------------------------------

def test_nested_graphml_is_refused(tmp_path):
    g = tmp_path / "nested.graphml"
    g.write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
                 '<graph edgedefault="undirected"><node id="a"/><node id="b">'
                 '<graph edgedefault="undirected"><node id="b:0"/><node id="b:1"/>'
                 '<edge source="b:0" target="b:1"/></graph></node>'
                 '<edge source="a" target="b"/></graph>\n</graphml>\n')
    refused(tmp_path, ["solve", "--problem", "mvc", g], 1, "nested <graph>", "'b'")


def test_standard_input_is_read_with_a_dash(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "g2s.cli", "solve", "--problem", "mvc", "-"],
                          input="1 2\r2 3\r", capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert (res["file"], res["n"], res["solution"]) == ("-", 3, [2])


# --- 20. --threads is capped by the CPUs the process may use ---------------------------------

def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


@pytest.mark.torch
def test_threads_above_the_cpu_count_are_lowered_with_a_warning(tmp_path, path_graph):
    """Before: --threads 10000 on a 40-vertex graph had not finished after 120 s."""
    t0 = time.monotonic()
    res, err = solve_json("--problem", "mvc", "--method", "g2s", "--threads", "10000",
                          path_graph)
    assert err.strip().splitlines() == [f"g2s: warning: --threads 10000 is more than the "
                                        f"{_cpus()} CPU(s) this process may use; using {_cpus()}"]
    assert res["threads"] == _cpus() and res["objective"] == 1
    assert time.monotonic() - t0 < 60


# --- 21. T_max is bounded, from the checkpoint and from --t-max -----------------------------

@pytest.mark.torch
@pytest.mark.parametrize("value", [10**9, 0, "15", 15.5])
def test_checkpoint_t_max_is_bounded_and_the_file_named(tmp_path, path_graph, value):
    """Before: T_max = 1e9 drove a 4-vertex solve into the OOM killer; 0 gave 't_max must be
    >= 1' without naming the file."""
    import torch
    src = torch.load(CHECKPOINTS / "g2s_rnn_mvc_er15_s0.pt", weights_only=True)
    meta = dict(src["meta"], model_config=dict(src["meta"]["model_config"], T_max=value))
    bad = tmp_path / "tmax.pt"
    torch.save({"state_dict": src["state_dict"], "meta": meta}, bad)
    t0 = time.monotonic()
    refused(tmp_path, ["solve", "--problem", "mvc", "--method", "g2s", "--checkpoint", bad,
                       path_graph], 1, "tmax.pt", "T_max must be an integer from 1 to 1000")
    assert time.monotonic() - t0 < 60


def test_t_max_flag_is_bounded_by_the_parser(tmp_path, path_graph):
    """Before: --t-max 1000000000 tried to allocate 16 GB."""
    refused(tmp_path, ["solve", "--problem", "mvc", "--method", "g2s", "--t-max",
                       "1000000000", path_graph], 2, "--t-max", "from 1 to 1000")


@pytest.mark.torch
def test_t_max_is_bounded_by_the_graph_size(tmp_path):
    from g2s.nn.checkpoints import MAX_ROLLOUT_CELLS
    n = MAX_ROLLOUT_CELLS // 1000 + 2
    g = tmp_path / "g.dimacs"
    g.write_text(f"p edge {n} 1\ne 1 2\n")
    refused(tmp_path, ["solve", "--problem", "mvc", "--method", "g2s", "--t-max", "1000", g],
            1, "rollout cells", "--t-max 999 or less")


# --- 22. options the method cannot use are command-line errors, found before reading -------

@pytest.mark.parametrize("args,needles", [
    (["--problem", "maxcut", "--method", "matching"], ["--method matching does not apply",
                                                      "only mvc"]),
    (["--problem", "maxcut", "--method", "list"], ["--method list does not apply"]),
    (["--problem", "mvc", "--method", "greedy", "--checkpoint", "x.pt"],
     ["--checkpoint applies to", "not --method greedy"]),
    (["--problem", "mvc", "--method", "reference", "--checkpoint", "x.pt"], ["--checkpoint"]),
    (["--problem", "mvc", "--method", "s2v", "--t-max", "3"], ["--t-max applies to"]),
    (["--problem", "mvc", "--method", "greedy", "--device", "cuda"],
     ["--device applies to", "not --method greedy"]),
    (["--problem", "mvc", "--method", "reference", "--threads", "2"],
     ["--threads applies to", "not --method reference"]),
])
def test_method_option_mismatch_exits_2_before_reading(tmp_path, args, needles):
    """Before: matching on maxcut exited 1 after reading the file; --checkpoint with a
    heuristic was ignored silently, and so were --device and --threads (which only a model
    uses: --device cuda with greedy exited 0 on a machine without CUDA)."""
    refused(tmp_path, ["solve", *args, tmp_path / "missing.txt"], 2, *needles)


@pytest.mark.torch
def test_device_cpu_0_is_the_cpu(tmp_path, path_graph):
    """Before: 'cpu:0' blamed the shipped checkpoint as 'truncated or corrupt'."""
    res, _ = solve_json("--problem", "mvc", "--method", "g2s", "--device", "cpu:0", path_graph)
    assert res["objective"] == 1


# --- 23. sparse6 is read as sparse6, not as an edge list -------------------------------------

@pytest.mark.parametrize("name", ["g.s6", "graph"])
def test_sparse6_is_recognised(tmp_path, name):
    import networkx as nx
    g = tmp_path / name
    g.write_bytes(nx.to_sparse6_bytes(nx.path_graph(5), header=name == "graph"))
    res, _ = solve_json("--problem", "mvc", "--method", "reference", g)
    assert (res["n"], res["m"], res["objective"]) == (5, 4, 2)


def test_sparse6_header_vertex_count_is_checked_before_allocating(tmp_path):
    g = tmp_path / "big.s6"
    g.write_bytes(b":~~@?????\n")   # declares 2**30 vertices
    t0 = time.monotonic()
    refused(tmp_path, ["solve", "--problem", "mvc", g], 1, "declares 1073741824", "at most")
    assert time.monotonic() - t0 < 60


def test_abbreviated_options_are_refused(tmp_path, path_graph):
    """An option prefix must not pick an option (argparse's default allow_abbrev)."""
    refused(tmp_path, ["solve", "--prob", "mvc", path_graph], 2, "--prob")
    refused(tmp_path, ["train", "--iter", "5", "--out", "x.pt"], 2, "--iter")


# --- 24. --output never bypasses a file's permissions, never replaces a link loop -----------

def _without_override(cmd: list) -> list:
    """``cmd`` as a user who cannot write a read-only file: root loses CAP_DAC_OVERRIDE (as in
    a container without it), anyone else is such a user already."""
    if os.geteuid() != 0:
        return cmd
    import shutil
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("needs setpriv to drop root's override capability")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search", *cmd]


@pytest.mark.parametrize("mode", [0o444, 0o000])
def test_output_that_echo_could_not_write_is_refused(tmp_path, path_graph, mode):
    """Before: a 0444 or 000 file was replaced through its folder."""
    dest = tmp_path / "ro.json"
    dest.write_text("keep\n")
    dest.chmod(mode)
    try:
        before = snapshot(tmp_path) if mode else None
        proc = subprocess.run(_without_override([sys.executable, "-m", "g2s.cli", "solve",
                                                 "--problem", "mvc", str(path_graph),
                                                 "--output", str(dest)]),
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert_one_line_error(proc.returncode, proc.stderr, 2, "--output", "not writable")
        if before is not None:
            assert snapshot(tmp_path) == before
        dest.chmod(0o644)
        assert dest.read_text() == "keep\n"
    finally:
        dest.chmod(0o644)


def test_output_symlink_loop_is_refused(tmp_path, path_graph):
    """Before: the loop was replaced by a regular file."""
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    refused(tmp_path, ["solve", "--problem", "mvc", path_graph, "--output", tmp_path / "a"], 2,
            "--output", "symbolic links")


def test_nested_compression_larger_than_a_chunk_is_not_taken_for_binary_text(tmp_path):
    """The NUL check while streaming applies to the final text, not to a compressed inner
    layer (a stored gzip holds NUL bytes in its block headers)."""
    import gzip
    import zipfile
    text = "".join(f"{i} {i + 1}\n" for i in range(100_000)).encode()
    inner = gzip.compress(text, compresslevel=0)
    assert len(inner) > 2**20 and b"\x00" in inner[2**20:]
    g = tmp_path / "g.zip"
    with zipfile.ZipFile(g, "w") as z:
        z.writestr("g.txt.gz", inner)
    res, _ = solve_json("--problem", "mvc", g)
    assert (res["n"], res["m"]) == (100_001, 100_000)
