"""Validators for command-line option values, used as argparse ``type=`` functions.

Each one returns the parsed value or raises :class:`argparse.ArgumentTypeError`; argparse then
reports ``argument --FLAG: MESSAGE`` (the flag is always named) and the command exits with
code 2.  One place for these rules keeps ``g2s solve``, ``g2s train`` and the reproduce
scripts consistent.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from pathlib import Path

__all__ = ["positive_int", "int_from_1_to", "nonnegative_int",
           "positive_float", "nonnegative_float",
           "probability", "seed", "boolean", "output_file", "output_dir", "SEED_MAX",
           "available_cpus", "ThreadsAction", "WorkersAction", "OneLineParser",
           "MAX_SECONDS", "time_limit", "optional_time_limit", "device"]

#: seeds go to numpy, torch and CP-SAT; CP-SAT's ``random_seed`` is a signed 32-bit integer
SEED_MAX = 2**31 - 1


class OneLineParser(argparse.ArgumentParser):
    """Command-line errors as one line (``prog: error: ...``, exit 2), not a usage dump; no
    abbreviated options (``--seed`` must not silently mean ``--seeds``).  Sub-commands made by
    ``add_subparsers()`` are of the same class."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs):
        kwargs.setdefault("parser_class", type(self))
        return super().add_subparsers(**kwargs)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {' '.join(str(message).split())}\n")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _require(value, ok: bool, what: str, text: str):
    """``value`` when ``ok``, else the one-line refusal ``must be WHAT, got 'TEXT'``."""
    if not ok:
        raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """An integer >= 1."""
    value = _int(text)
    return _require(value, value >= 1, "a positive integer", text)


def int_from_1_to(hi: int):
    """A type function: an integer from 1 to ``hi``."""
    def check(text: str) -> int:
        value = _int(text)
        return _require(value, 1 <= value <= hi, f"an integer from 1 to {hi}", text)
    check.__name__ = f"int_from_1_to_{hi}"
    return check


def nonnegative_int(text: str) -> int:
    """An integer >= 0."""
    value = _int(text)
    return _require(value, value >= 0, "a non-negative integer", text)


def positive_float(text: str) -> float:
    """A finite number > 0 (``nan`` and ``inf`` are refused)."""
    value = _float(text)
    return _require(value, value > 0, "a positive number", text)


#: the longest time limit a command takes: a week (a larger finite one, 1e308, overflowed
#: the solvers' arithmetic)
MAX_SECONDS = 7 * 24 * 3600


def time_limit(text: str) -> float:
    """A time limit in seconds: a finite number > 0, at most :data:`MAX_SECONDS`."""
    value = _float(text)
    return _require(value, 0 < value <= MAX_SECONDS,
                    f"a number of seconds above 0 and at most {MAX_SECONDS:,} (a week)", text)


def optional_time_limit(text: str) -> float:
    """A time limit that 0 turns off: 0, or a :func:`time_limit`."""
    value = _float(text)
    return _require(value, 0 <= value <= MAX_SECONDS,
                    f"a number of seconds from 0 (off) to {MAX_SECONDS:,} (a week)", text)


def nonnegative_float(text: str) -> float:
    """A finite number >= 0."""
    value = _float(text)
    return _require(value, value >= 0, "a non-negative number", text)


def probability(text: str) -> float:
    """A number in ``[0, 1]``."""
    value = _float(text)
    return _require(value, 0 <= value <= 1, "between 0 and 1", text)


def seed(text: str) -> int:
    """A random seed: an integer in ``0 .. 2**31 - 1``."""
    value = _int(text)
    return _require(value, 0 <= value <= SEED_MAX, f"an integer from 0 to {SEED_MAX}", text)


_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


_DEVICE = re.compile(r"(cpu|cuda)(:[0-9]+)?")


def device(text: str) -> str:
    """A torch device name this project runs on: ``cpu``, ``cuda`` or ``cuda:N`` (``cpu:N``
    names the same CPU).  Only the spelling is checked here, without importing torch; whether
    CUDA is present is checked where the device is used
    (:func:`g2s.nn.device.resolve_device`).  An unchecked name failed only when a checkpoint
    was loaded onto it, after minutes of work, as a "truncated or corrupt" checkpoint."""
    return _require(text, _DEVICE.fullmatch(text) is not None, "cpu, cuda or cuda:N", text)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class ThreadsAction(argparse.Action):
    """A thread count (use with ``type=positive_int``) capped at :func:`available_cpus`, with a
    one-line warning on stderr: threads beyond the cores only wait on each other (10,000 torch
    threads on a 40-vertex graph ran for minutes, 64 made it ten times slower)."""

    def __call__(self, parser, namespace, value, option_string=None):
        cpus = available_cpus()
        if value > cpus:
            print(f"{parser.prog.split()[0]}: warning: {option_string} {value} is more than the "
                  f"{cpus} CPU(s) this process may use; using {cpus}", file=sys.stderr)
            value = cpus
        setattr(namespace, self.dest, value)


class WorkersAction(ThreadsAction):
    """A count of worker processes (``--workers``; use with ``type=positive_int``), capped at
    :func:`available_cpus` with the same one-line warning: a worker beyond the cores only
    waits for one, and each holds its own copy of the imports and of its unit's graph
    (``--workers 8`` on 2 CPUs started 8 workers holding 3.7 GB)."""


def boolean(text: str) -> bool:
    """``true/false``, ``yes/no``, ``on/off`` or ``1/0`` (any case); anything else is refused."""
    low = text.strip().lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def _check_parent(path: Path) -> None:
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if parent.exists() and not parent.is_dir():
        raise argparse.ArgumentTypeError(f"{str(path)!r}: {str(parent)!r} is not a folder")


def output_file(text: str) -> Path:
    """A path a result file may be written to: a new path or an existing regular file.

    Refused: an existing folder, a device, FIFO or socket, a path under a regular file, a
    loop of symbolic links, and an existing file this process may not write (``echo > FILE``
    would fail: read-only, or root without the override capability), since replacing it
    through its folder would bypass its permissions.  A symbolic link is followed (its target
    is checked by the same rules and written); missing folders on the way are created.
    """
    if not text:
        raise argparse.ArgumentTypeError("the path is empty")
    path = Path(text)
    try:
        if os.path.islink(path):
            try:
                os.stat(path)
            except FileNotFoundError:
                pass  # a dangling link: its target is created
        target = Path(os.path.realpath(path))
        if target.exists():
            if target.is_dir():
                raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
            if not target.is_file():
                raise argparse.ArgumentTypeError(f"{text!r} is not a regular file (a device, "
                                                 "FIFO or socket); refusing to replace it")
            if not os.access(target, os.W_OK):
                raise argparse.ArgumentTypeError(f"{text!r} is not writable (its permissions); "
                                                 "refusing to replace it")
        _check_parent(target)
    except OSError as exc:  # a name too long, a loop of links, ...
        raise argparse.ArgumentTypeError(f"{text!r}: {exc.strerror}") from None
    return path


def output_dir(text: str) -> Path:
    """A folder outputs are written into: an existing folder or a new path (not a file)."""
    if not text:
        raise argparse.ArgumentTypeError("the path is empty")
    path = Path(text)
    try:
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text!r} is a file, not a folder")
        _check_parent(path)
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc.strerror}") from None
    return path
