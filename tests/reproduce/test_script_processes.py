"""The reproduce scripts as processes: worker counts capped at the CPUs, signals ending every
process they started, pipes closed early, one line on stderr and the documented exit code.

Invariants:

* ``--workers`` above the CPUs this process may use is capped with a one-line warning
  (figure scripts, ``all.py``, ``train_all.py``);
* ``train_all.py --list`` into a reader that stops early exits 0 without a traceback;
* SIGINT / SIGTERM to a script that runs a process pool: one line, exit 130 / 143, and no
  worker or resource tracker left running;
* ``all.py``: an interrupted step is one line and exit 130; ``--from`` a step that ``--only``
  leaves out is a command-line error (exit 2).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from g2s.argtypes import available_cpus
from tests.cli_child import default_sigint
from tests.g2s.test_bad_inputs import assert_one_line_error

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str) -> str:
    return str(ROOT / "reproduce" / f"{name}.py")


def test_train_all_list_into_a_closed_pipe_is_no_error():
    p = subprocess.Popen([sys.executable, _script("train_all"), "--list"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()                          # the reader is gone before the first line
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_train_all_workers_are_capped_at_the_cpus():
    p = subprocess.run([sys.executable, _script("train_all"), "--list", "--workers", "9999"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and f"--workers 9999 is more than the {available_cpus()}" in lines[0]


def _children() -> dict[int, list[int]]:
    """Every process's children, read from ``/proc`` (Linux; no third-party process library)."""
    tree: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:                        # the process ended while we read
            continue
        ppid = int(text[text.rindex(")") + 2:].split()[1])
        tree.setdefault(ppid, []).append(int(stat.parent.name))
    return tree


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _running(pid: int) -> bool:
    """``pid`` exists and is not a zombie waiting for its parent."""
    try:
        text = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def _descendants(pid: int) -> list[int]:
    tree, out, todo = _children(), [], [pid]
    while todo:
        kids = tree.get(todo.pop(), [])
        out += kids
        todo += kids
    return out


def _wait_gone(pids: list[int], timeout: float) -> list[str]:
    """The command lines of those of ``pids`` still running after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(_running(p) for p in pids):
        time.sleep(0.2)
    return [_cmdline(p) for p in pids if _running(p)]


def _workers_started(proc: subprocess.Popen, count: int, timeout: float = 120.0) -> list[int]:
    """The pool workers (and resource tracker) of ``proc`` once ``count`` workers run."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode()
        kids = _descendants(proc.pid)
        if sum("spawn_main" in _cmdline(k) for k in kids) >= count:
            return kids
        time.sleep(0.2)
    raise AssertionError(f"no {count} workers within {timeout} s")


def _interrupted(cmd: list[str], sig: int, workers: int,
                 env: dict | None = None) -> tuple[str, float]:
    """Run ``cmd`` in its own session, and once ``workers`` worker processes run, send it
    ``sig``: SIGINT to its process group (Ctrl-C at a terminal), SIGTERM to the script alone;
    the command starts with SIGINT's default action (a suite run in the background inherits
    it ignored).  Asserts the exit status 128 + sig, no traceback, and every process it
    started gone; returns its standard error and the seconds from the signal to the exit."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=default_sigint, env=env)
    try:
        kids = _workers_started(proc, workers)
        t0 = time.monotonic()
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        waited = time.monotonic() - t0
        err = err.decode()
        assert proc.returncode == 128 + sig, err
        assert "Traceback" not in err, err
        alive = _wait_gone(kids, timeout=15)
        assert not alive, alive
        return err, waited
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


_NEEDS_TWO_CPUS = pytest.mark.skipif(available_cpus() < 2 or sys.platform != "linux",
                                     reason="needs 2 CPUs for 2 workers, and Linux process "
                                            "groups")


@_NEEDS_TWO_CPUS
@pytest.mark.parametrize("name,args,sig", [
    ("figure3", ["--profile", "smoke", "--full", "--no-cache"], signal.SIGTERM),
    ("figure3", ["--profile", "smoke", "--full", "--no-cache"], signal.SIGINT),
    ("theorem1", ["--profile", "smoke", "--no-cache"], signal.SIGTERM),
])
def test_a_signal_ends_the_script_and_every_process_it_started(tmp_path, name, args, sig):
    out = tmp_path / "out"
    err, _ = _interrupted([sys.executable, _script(name), *args, "--workers", "2",
                           "--out", str(out)], sig, workers=2)
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"reproduce/{name}.py: interrupted by {signal.Signals(sig).name}")
    assert sum("interrupted" in line for line in err.splitlines()) == 1, err
    assert not (out / f"{name}.json").exists()


@_NEEDS_TWO_CPUS
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_script_while_its_workers_still_start(tmp_path, sig):
    """A worker holds SIGTERM blocked until its start-up is done (seconds; more on a loaded
    machine): a signal then must not wait for it.  The script once printed its one line and
    then hung until every worker had started.  Here each worker's start is made to last two
    minutes (a ``sitecustomize`` that only the spawned workers act on)."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import sys, time\n"
        "if '--multiprocessing-fork' in sys.argv:\n"
        "    time.sleep(120)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(hook), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    out = tmp_path / "out"
    err, waited = _interrupted([sys.executable, _script("figure3"), "--profile", "smoke",
                                "--full", "--no-cache", "--workers", "2", "--out", str(out)],
                               sig, workers=2, env=env)
    assert err.strip().splitlines()[-1].startswith(
        f"reproduce/figure3.py: interrupted by {signal.Signals(sig).name}"), err
    assert waited < 30, f"{waited:.0f} s from the signal to the exit"


@_NEEDS_TWO_CPUS
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_claims_check_and_its_workers_at_once(sig):
    """The claims check derives the figure JSONs on worker processes: a signal ends them at
    once (it used to wait for the queued figures, half a minute), each silent (a worker once
    printed its own traceback on Ctrl-C)."""
    err, waited = _interrupted([sys.executable, _script("claims"), "--check",
                                "--skip-pytest"], sig, workers=2)
    assert err.strip().splitlines()[-1].startswith(
        f"reproduce/claims.py: interrupted by {signal.Signals(sig).name}"), err
    assert sum("interrupted" in line for line in err.splitlines()) == 1, err
    assert waited < 15, f"{waited:.0f} s from the signal to the exit"


@_NEEDS_TWO_CPUS
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_device_check_and_its_workers(tmp_path, sig):
    """The device check (here on the CPU) starts unit workers and an agreement pool: a signal
    ends them all, in one line naming where the finished and the started units are."""
    out = tmp_path / "out"
    err, _ = _interrupted([sys.executable, str(ROOT / "benchmarks" / "device_check.py"),
                           "--device", "cpu", "--smoke", "--workers", "2", "--out", str(out)],
                          sig, workers=3)    # two unit workers and one agreement worker
    assert err.strip().splitlines() == [
        f"device_check: interrupted by {signal.Signals(sig).name}; the finished units are "
        f"in {out / 'units.jsonl'}, the started ones resume from {out / 'resume'}"], err


@_NEEDS_TWO_CPUS
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_all_py_interrupted_during_a_step_is_one_line_each_and_exit_128_plus_signal(sig):
    """Ctrl-C reaches all.py and its step (the process group); SIGTERM to all.py alone is
    passed on to the step.  The step (Theorem 1 at its default profile: minutes) is stopped
    long before it could write anything."""
    import hashlib

    committed = ROOT / "paper_figures" / "theorem1.json"
    before = hashlib.sha256(committed.read_bytes()).hexdigest()
    err, _ = _interrupted([sys.executable, _script("all"), "--only", "theorem1",
                           "--workers", "2"], sig, workers=2)
    lines = [ln for ln in err.splitlines() if "interrupted" in ln]
    name = signal.Signals(sig).name
    assert len(lines) == 2 and lines[0].startswith(f"reproduce/theorem1.py: interrupted "
                                                   f"by {name}"), err
    assert lines[1] == (f"reproduce/all.py: interrupted by {name} during theorem1; "
                        "continue with --from theorem1")
    assert hashlib.sha256(committed.read_bytes()).hexdigest() == before


def test_all_py_from_a_step_that_only_leaves_out_is_a_command_line_error():
    p = subprocess.run([sys.executable, _script("all"), "--from", "claims", "--only",
                        "figure2"], capture_output=True, text=True, timeout=60)
    assert_one_line_error(p.returncode, p.stderr, 2, "argument --from", "figure2")


def test_workers_above_the_cpus_are_capped_with_a_warning(tmp_path):
    """A figure script and all.py: one warning line, the run goes on with the CPU count
    (figure5's smoke profile takes seconds; all.py --dry-run starts nothing)."""
    cpus = available_cpus()
    p = subprocess.run([sys.executable, _script("figure5"), "--profile", "smoke", "--out",
                        str(tmp_path), "--workers", "64"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    warn = [ln for ln in p.stderr.splitlines() if "warning" in ln]
    assert len(warn) == 1 and f"--workers 64 is more than the {cpus} CPU(s)" in warn[0]
    import json
    assert json.loads((tmp_path / "figure5.json").read_text())["provenance"]["workers"] == cpus
    p = subprocess.run([sys.executable, _script("all"), "--dry-run", "--only", "figure3",
                        "--workers", "64"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and f"--workers {cpus}" in p.stdout and "--workers 64" not in \
        p.stdout
    assert len(p.stderr.strip().splitlines()) == 1 and "using" in p.stderr


def test_a_truncated_certificate_file_stops_a_figure_in_one_line_naming_it(tmp_path):
    """The figure reads its references from a copy of the certificates whose MVC / ER file
    is cut in half (the package's own files are never touched)."""
    import shutil

    from g2s.reference.certificates import CERTIFICATE_DIR
    certs = tmp_path / "certs"
    shutil.copytree(CERTIFICATE_DIR, certs)
    text = (certs / "mvc_er.json").read_text()
    (certs / "mvc_er.json").write_text(text[:len(text) // 2])
    out = tmp_path / "out"
    code = ("import runpy, sys; from pathlib import Path; "
            "import g2s.reference.certificates as c; "
            f"c.CERTIFICATE_DIR = Path({str(certs)!r}); "
            f"sys.path.insert(0, {str(ROOT / 'reproduce')!r}); "
            f"sys.argv = [{_script('figure2')!r}, '--profile', 'smoke', '--out', "
            f"{str(out)!r}, '--workers', '1']; "
            f"runpy.run_path({_script('figure2')!r}, run_name='__main__')")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300, cwd=ROOT)
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("reproduce/figure2.py: ") and "mvc_er.json: not a certificate file" \
        in last, p.stderr
    assert not (out / "figure2.json").exists()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_a_script_imports_is_one_line(tmp_path, sig):
    """Half a second in, the script is still importing numpy / torch / matplotlib."""
    proc = subprocess.Popen([sys.executable, _script("figure3"), "--profile", "smoke",
                             "--out", str(tmp_path / "out")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    time.sleep(0.5)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    err = err.decode()
    assert proc.returncode == 128 + sig, err
    assert_one_line_error(proc.returncode, err, 128 + sig,
                          f"reproduce/figure3.py: interrupted by {signal.Signals(sig).name}")
    assert not (tmp_path / "out" / "figure3.json").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/PID/maps")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_device_check_imports_torch_is_one_line(tmp_path, sig):
    """Torch's import takes seconds; a signal in it (seen as torch's library mapped into the
    process) ends the device check in one line, as a signal while its units run does."""
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "device_check.py"),
                             "--device", "cpu", "--smoke", "--workers", "1", "--out",
                             str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_sigint)
    try:
        deadline = time.monotonic() + 60
        maps = Path(f"/proc/{proc.pid}/maps")
        while "libtorch" not in maps.read_text():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = err.decode()
    assert_one_line_error(proc.returncode, err, 128 + sig,
                          f"device_check: interrupted by {signal.Signals(sig).name}")


def _claims(*args):
    return subprocess.run([sys.executable, _script("claims"), *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


@pytest.mark.parametrize("args,needle", [
    (["--check", "--changes-since", "HEAD~1"], "cannot be combined with --check"),
    (["--changes-since=--output=x.md"], "starts with '-'"),
    (["--changes-since", ""], "the revision is empty"),
    (["--changes-since", "   "], "the revision is empty"),
])
def test_claims_changes_since_refuses_what_it_would_misread(tmp_path, args, needle):
    """--check with --changes-since ran no check and exited 0; a value starting with '-'
    reached git as an option (and wrote a file); an empty one compared with the index."""
    before = sorted(p.name for p in ROOT.iterdir())
    p = _claims(*args)
    assert_one_line_error(p.returncode, p.stderr, 2, needle)
    assert sorted(q.name for q in ROOT.iterdir()) == before


def test_claims_changes_since_a_revision_that_is_no_commit_is_exit_1():
    p = _claims("--changes-since", "no-such-revision-anywhere")
    assert_one_line_error(p.returncode, p.stderr, 1, "is not a commit")
