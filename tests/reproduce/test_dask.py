"""The work-unit engine on a real Dask cluster (skipped without the ``cluster`` extra).

* Same results anywhere: a small grid run serially, on a 2-worker ``LocalCluster``, and on it
  with a worker killed mid-run gives byte-identical JSON (apart from unit times).
* The README's two terminals (``dask scheduler``, ``dask worker``) on loopback, driven by a
  script's ``--scheduler tcp://127.0.0.1:PORT``.
* Memory is declared: a unit larger than every worker's ``memory`` resource is refused.
* ``train_all.py --scheduler`` trains a (tiny) target on a worker.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from tests.reproduce.test_engine import ROOT, canonical, make_run, tiny_grid  # noqa: E402

#: every worker's ``memory`` resource in the LocalCluster
MEMORY = 4 * 2**30


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", resources={"memory": MEMORY},
                                  memory_limit=MEMORY) as c, distributed.Client(c) as client:
        yield c, client


def _slow_down(client, seconds: float) -> None:
    """Make every grid unit on the current workers take ``seconds`` longer (so a worker can
    be killed while it holds units)."""
    client.run(exec, f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
import reproduce.harness.grid as g
g.__dict__.setdefault("_unslowed", g.evaluate_unit)
g.evaluate_unit = lambda *a: (time.sleep({seconds}), g._unslowed(*a))[1]
""", {})


def _kill_a_busy_worker(client, cache: Path, done: dict) -> None:
    """After the client has cached its first result, SIGKILL a worker holding units."""
    pids = client.run(os.getpid)
    deadline = time.time() + 120
    while time.time() < deadline:
        if cache.exists() and any(cache.glob("*.json")):
            busy = [w for w, keys in client.processing().items() if keys and w in pids]
            if busy:
                done["cached_before"] = len(list(cache.glob("*.json")))
                os.kill(pids[busy[0]], signal.SIGKILL)
                done["killed"] = busy[0]
                return
        time.sleep(0.01)


def test_serial_two_workers_and_a_killed_worker_give_the_same_json(tmp_path, cluster):
    c, client = cluster
    serial = tiny_grid(make_run(tmp_path / "serial"))
    two = tiny_grid(make_run(tmp_path / "two", scheduler=c.scheduler_address))
    assert two == serial
    _slow_down(client, 0.4)
    done: dict = {}
    killer = threading.Thread(target=_kill_a_busy_worker,
                              args=(client, tmp_path / "killed" / ".cache" / "gridtest", done))
    killer.start()
    killed = tiny_grid(make_run(tmp_path / "killed", scheduler=c.scheduler_address))
    killer.join()
    assert done.get("killed"), "no worker was killed mid-run"
    assert done["cached_before"] < 12
    assert killed == serial
    client.wait_for_workers(2, timeout=60)   # the nanny restarted it


def test_a_unit_larger_than_every_worker_is_refused(tmp_path, cluster):
    from reproduce.harness.engine import DaskPool
    from reproduce.harness.grid import sha
    c, _ = cluster
    pool = DaskPool(c.scheduler_address)
    try:
        assert pool.memory_capacity() == MEMORY
        with pytest.raises(SystemExit, match="memory resource"):
            pool.submit(sha, __file__, memory=2 * MEMORY)
        assert pool.submit(sha, __file__, memory=MEMORY // 2).result() == sha(__file__)
    finally:
        pool.shutdown()


def test_train_all_runs_a_training_as_a_dask_job(tmp_path, cluster, monkeypatch, capsys):
    import reproduce.train_all as train_all
    c, _ = cluster
    out = tmp_path / "tiny_mvc_er6_s1.pt"
    config = {"problem": "mvc", "graphs": "er", "n": 6, "iterations": 4, "batch_size": 4,
              "warmup": 8, "validate_every": 2, "n_validation": 2, "checkpoint_every": 2,
              "replay_capacity": 100, "n_envs": 2, "eps_decay": 4}
    target = {"encoder": "g2s_rnn", "problem": "mvc", "trained_on": "er6", "seed": 1,
              "path": out, "config": config, "minutes": 0.0, "done": False}
    monkeypatch.setattr(train_all, "targets", lambda: [target])
    assert train_all.main(["--scheduler", c.scheduler_address]) == 0
    assert out.exists() and out.with_suffix(".json").exists()
    assert "finished tiny_mvc_er6_s1.pt" in capsys.readouterr().out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow    # a scheduler and a worker as separate commands: 40 s (CI runs it)
def test_two_terminals_on_loopback(tmp_path):
    """README: ``dask scheduler`` in one terminal, ``dask worker`` in another (started outside
    the checkout, no PYTHONPATH), and a script with ``--scheduler tcp://127.0.0.1:PORT``."""
    dask = shutil.which("dask")
    if dask is None:
        pytest.skip("no dask command")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--dashboard-address", ":0"], cwd=tmp_path, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        procs.append(subprocess.Popen([dask, "worker", address, "--nworkers", "2",
                                       "--nthreads", "1"], cwd=tmp_path, env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        serial = tmp_path / "serial"
        remote = tmp_path / "remote"
        for out, extra in ((serial, []), (remote, ["--scheduler", address])):
            proc = subprocess.run([sys.executable, str(ROOT / "reproduce" / "appendix_d3.py"),
                                   "--profile", "smoke", "--out", str(out), *extra],
                                  capture_output=True, text=True, timeout=600, cwd=tmp_path)
            assert proc.returncode == 0, proc.stderr[-2000:]
        assert f"dask: scheduler {address}" in proc.stderr
        assert "appendix_d3: 100%" in proc.stderr          # the progress bar ran to the end

        def load(d):
            import json
            doc = json.loads((d / "appendix_d3.json").read_text())
            doc.pop("provenance")
            return canonical(doc)
        assert load(remote) == load(serial)
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
