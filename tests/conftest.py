"""Hypothesis profiles (DESIGN.md): ``ci`` is derandomized and bounded, ``dev`` and
``thorough`` explore more.  Select with HYPOTHESIS_PROFILE=dev|thorough; CI uses ``ci``."""

import os
import sys

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=40, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _threads_per_worker() -> None:
    """pytest-xdist runs one test process per core, and torch (OpenMP) starts one thread per
    core in each: the workers' threads oversubscribe the cores, and OpenMP's spinning threads
    made the torch-heavy tests 5-10 times slower (Algorithm 2's module: 191 s against 29 s on
    two cores).  Each worker gets its share of the cores, and so do the processes it starts."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers <= 1:
        return
    threads = str(max(1, len(os.sched_getaffinity(0)) // workers))
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, threads)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(int(os.environ["OMP_NUM_THREADS"]))


_threads_per_worker()
