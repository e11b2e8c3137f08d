"""The ``g2s`` command: solve MVC / MaxCut / MIS on a graph file, train and evaluate models.

``g2s solve --problem {mvc,maxcut,mis} --method METHOD [options] FILE`` prints one JSON object:
``problem``, ``method``, ``file``, ``n``, ``m``, ``objective``, ``solution`` (in the file's
vertex labels), ``feasible``, ``status``, any normalisation ``warnings``, and three wall-clock
timings with one meaning each, for every method:

* ``read_s``: reading, unpacking, parsing and validating the graph file;
* ``solve_s``: the method itself (a neural method: loading its checkpoint and Algorithm 2);
* ``total_s``: the whole command from the start of reading to the JSON: ``read_s + solve_s``
  plus whatever else it did (importing torch for a neural method, the feasibility check); the
  Python interpreter's own start-up is not included.

``status`` is ``complete`` (the method ran to its end: the heuristics, and a neural method
within its budget), ``optimal`` or ``time_limit`` (the reference proved optimality / was cut
off; it adds ``bound``, ``bound_by`` (what proved the bound), ``best_known_by`` (what found
the solution), ``gap``, ``bounds`` and ``versions`` (the solvers' package versions), see
:func:`g2s.reference.solver.solve_reference`), or ``time_limit`` for a neural method that
``--time-limit`` cut short.

Exit codes: 0 success; 1 bad input (unreadable or refused graph file, a method that does not
apply); 2 bad command line; 3 an unexpected internal error (one line; ``--debug`` shows the
traceback); 130 interrupted.  Errors are always one line on stderr, never a traceback.
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_during_start_up(signum, frame):  # Ctrl-C while the imports below run
    # Exit here rather than raise: nothing is open or half-written yet, and an exception raised
    # from a signal handler can land in an import's weakref callback, where Python reports it
    # as "Exception ignored" and carries on with the command.
    sys.stderr.write("g2s: interrupted\n")
    sys.stderr.flush()
    os._exit(130)


# Python installs its own handler unless SIGINT was ignored when the process started (a
# command run in the background by a script): an ignored Ctrl-C stays ignored.
_OWN_SIGINT = signal.getsignal(signal.SIGINT) is signal.default_int_handler
if _OWN_SIGINT:
    try:
        signal.signal(signal.SIGINT, _interrupted_during_start_up)
    except ValueError:  # pragma: no cover - imported outside the main thread
        _OWN_SIGINT = False

import argparse  # noqa: E402 - after the start-up interrupt handler
import json  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

from g2s import __version__, argtypes  # noqa: E402
from g2s.fsutil import atomic_write_text  # noqa: E402
from g2s.io.files import read_graph  # noqa: E402
from g2s.io.input_graph import FORMATS, MAX_INPUT_MIB, GraphFormatError  # noqa: E402
from g2s.nn.checkpoints import MAX_ROLLOUT_CELLS, MAX_T_MAX  # noqa: E402
from g2s.optional import interrupted, reraise_interrupt  # noqa: E402
from g2s.problems import PROBLEMS, InfeasibleSolution, is_feasible, objective  # noqa: E402

__all__ = ["main", "run", "build_parser"]

#: the neural baselines (g2s.nn.baselines), applied with their shipped ER-15 checkpoints
MODEL_METHODS = ("s2v", "sage_gcn", "sage_mean", "sage_pool", "wl_nn", "wl_embed")
SOLVE_METHODS = ("greedy", "list", "list-left", "matching", "reference", "g2s", *MODEL_METHODS)
#: --method reference's limit when --time-limit is not given (the paper's Gurobi cut-off)
REFERENCE_TIME_LIMIT = 240.0
#: keys of a neural method's info that would repeat a JSON field (time_s: solve_s; edges: m)
SUPERSEDED_INFO = ("time_s", "edges", "n")
#: neural methods run with one torch thread below this many vertices: on small graphs each
#: sparse product is microseconds of work, and a second thread only adds synchronisation
#: (a 40-vertex graph took 8-32 s with 2 threads on a busy 2-core machine, 0.4 s with one)
THREADS_ONE_BELOW = 20_000


class CommandLineError(Exception):
    """Raised instead of argparse's multi-line usage dump."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):  # no abbreviations: a prefix must not pick an option
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):  # one line, exit code 2 (handled in main)
        raise CommandLineError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="g2s", description="Graph2Seq harness (arXiv:1802.04948): solve minimum "
                "vertex cover, max cut and maximum independent set on your graphs.")
    p.add_argument("--version", action="version", version=f"g2s {__version__}")
    p.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    s = sub.add_parser("solve", help="solve one problem on one graph file, print JSON")
    s.add_argument("file", type=Path,
                   help="graph file: edge list, DIMACS, graph6, sparse6, GraphML, MatrixMarket "
                        "(.mtx) or METIS (.graph), optionally gzip/bzip2/xz-compressed or in a "
                        "one-file zip; '-' reads standard input (format sniffed unless --format)")
    s.add_argument("--problem", required=True, choices=PROBLEMS, help="the problem to solve")
    s.add_argument("--method", default="greedy", choices=SOLVE_METHODS,
                   help="greedy (default), list (ListRight), list-left (ListLeft), matching "
                        "(MVC only), reference (best known solution and a proven bound), g2s "
                        "(trained G2S-RNN, Algorithm 2), or a neural baseline: s2v "
                        "(Structure2Vec), "
                        "sage_gcn / sage_mean / sage_pool (GraphSAGE), wl_nn (WL kernel NN), "
                        "wl_embed (WL kernel embedding; slow beyond ~200 vertices)")
    s.add_argument("--format", choices=FORMATS, default=None,
                   help="format of the (unpacked) file (default: a MatrixMarket banner, else the "
                        "extension, else sniffed)")
    s.add_argument("--max-input-mib", type=argtypes.positive_int, default=MAX_INPUT_MIB,
                   metavar="MIB", help="refuse a graph file that is, or unpacks to, more than "
                   f"MIB mebibytes (default {MAX_INPUT_MIB}; parsing takes several times the "
                   "text's size in memory)")
    s.add_argument("--time-limit", type=argtypes.time_limit, default=None,
                   help="time budget in seconds, for every method (the JSON's 'status' says how "
                        "it ended): reference stops its search (default 240, the paper's Gurobi "
                        "cut-off); g2s and the neural baselines stop their learned policy at it "
                        "and complete every unfinished rollout with the problem's greedy rule, "
                        "so the answer is still feasible (default: no limit); the heuristics "
                        "always finish")
    s.add_argument("--seed", type=argtypes.seed, default=None,
                   help="random seed; heuristics break ties by it (default: smallest label)")
    s.add_argument("--checkpoint", type=Path, default=None,
                   help="model weights for a neural method (default: the shipped one)")
    s.add_argument("--t-max", type=argtypes.int_from_1_to(MAX_T_MAX), default=None,
                   help="Algorithm 2's T_max for --method g2s (default: the checkpoint's, 15 "
                        f"for the shipped ones; at most {MAX_T_MAX}, and n * T_max at most "
                        f"{MAX_ROLLOUT_CELLS})")
    s.add_argument("--device", type=argtypes.device, default=None,
                   help="torch device for --method g2s and the neural baselines: cpu, cuda or "
                        "cuda:N (default cpu)")
    s.add_argument("--float32-screen", action="store_true",
                   help="--method g2s only: screen Algorithm 2's decisions in float32 first, "
                        "faster per step on large sparse graphs (benchmarks/results/"
                        "algorithm2.json), less over a whole cover with many tied candidates;"
                        " a decision the screen leaves open is scored in float64, so the answer "
                        "is the literal algorithm's within the screen's measured error bound "
                        "(default: float64 throughout, the literal's arithmetic bit for bit)")
    s.add_argument("--threads", type=argtypes.positive_int, default=None,
                   action=argtypes.ThreadsAction,
                   help="torch CPU threads for a neural method (default: 1 below "
                        f"{THREADS_ONE_BELOW} vertices, where more threads only add "
                        "overhead, else the available cores up to 8; more than the available "
                        "cores is lowered to their number, with a warning)")
    s.add_argument("--output", type=argtypes.output_file, default=None,
                   help="also write the JSON to this file (atomically; a new path or a "
                        "regular file other than the input; a symlink is followed)")

    # 'train' is dispatched in main() before parsing, so torch is imported only when training
    sub.add_parser("train", add_help=False,
                   help="train a model by Q-learning (needs torch; 'g2s train --help')")
    return p


def _train(argv: list) -> dict:
    try:
        from g2s import train as train_mod
    except ImportError as exc:
        reraise_interrupt(exc)
        raise ValueError(f"'g2s train' needs PyTorch ({exc}); install the CPU wheel with "
                         "'pip install torch==2.13.0'") from None
    from g2s.nn.device import resolve_device
    parser = train_mod.build_parser(_Parser(prog="g2s train",
                                            description=train_mod.__doc__.splitlines()[0]))
    args = parser.parse_args(argv)  # unknown flags and bad values first, then what is missing
    if args.out is None:
        raise CommandLineError("the following arguments are required: --out")
    resolve_device(args.device)
    return train_mod.main(args=args, parser=parser)


def _default_threads(n: int) -> int:
    if n < THREADS_ONE_BELOW:
        return 1
    return min(8, argtypes.available_cpus())


def _solve(args) -> dict:
    t_start = time.perf_counter()
    g = read_graph(args.file, args.format, max_input_mib=args.max_input_mib)
    read_s = time.perf_counter() - t_start
    G = g.graph
    for w in g.warnings:
        print(f"g2s: warning: {w}", file=sys.stderr)
    info: dict = {}
    if args.method == "g2s" or args.method in MODEL_METHODS:
        t_import = time.perf_counter()  # torch's import (~3 s) is reported apart from the solve
        try:
            import torch

            from g2s.evaluate import solve_g2s
        except ImportError as exc:
            reraise_interrupt(exc)
            raise ValueError(f"--method {args.method} needs PyTorch ({exc}); install the CPU "
                             "wheel with 'pip install torch==2.13.0'") from None
        info["import_s"] = round(time.perf_counter() - t_import, 6)
        info["threads"] = args.threads or _default_threads(G.number_of_nodes())
        torch.set_num_threads(info["threads"])
    t0 = time.perf_counter()
    if args.method == "reference":
        from g2s.reference.solver import solve_reference
        limit = REFERENCE_TIME_LIMIT if args.time_limit is None else args.time_limit
        res = solve_reference(args.problem, G, time_limit=limit,
                              seed=0 if args.seed is None else args.seed)
        S = set(res.solution)
        info = {"bound": res.bound, "status": res.status, "how": res.method,
                "bound_by": res.bound_by, "best_known_by": res.best_known_by,
                "gap": round(res.gap, 6), "bounds": res.bounds, "versions": res.versions}
    elif args.method == "g2s" or args.method in MODEL_METHODS:
        from g2s.nn.device import resolve_device
        args.device = str(resolve_device(args.device or "cpu"))  # 'cpu:0': 'cpu' (torch.load)
        encoder = "g2s_rnn" if args.method == "g2s" else args.method
        deadline = None if args.time_limit is None else \
            time.monotonic() + args.time_limit - (time.perf_counter() - t_start)
        # Algorithm 2 on a large graph is minutes to hours: a bar of its greedy steps (at most
        # one per vertex) on a terminal, none when standard error is a file or a pipe
        from tqdm import tqdm
        with tqdm(total=G.number_of_nodes(), desc="g2s: Algorithm 2", unit=" steps",
                  disable=None if args.method == "g2s" else True, leave=False,
                  file=sys.stderr) as bar:
            def progress(step, running):
                bar.update(step - bar.n)
                bar.set_postfix_str(f"{running} rollouts running", refresh=False)
            S, extra = solve_g2s(args.problem, G, checkpoint=args.checkpoint, t_max=args.t_max,
                                 device=args.device, encoder=encoder, deadline=deadline,
                                 screen=args.float32_screen, progress=progress)
        info.update(extra)
    else:
        from g2s.heuristics import run_heuristic
        S = run_heuristic(args.method, args.problem, G, seed=args.seed)
    solve_s = time.perf_counter() - t0
    feasible = is_feasible(args.problem, G, S)
    if not feasible:  # never report an infeasible answer as a result
        raise InfeasibleSolution(f"method {args.method} returned an infeasible solution")
    out = {
        "problem": args.problem, "method": args.method, "file": str(args.file),
        "n": G.number_of_nodes(), "m": G.number_of_edges(),
        "objective": objective(args.problem, G, S), "feasible": feasible,
        "solution": _json_safe_labels(g.to_labels(S), g.warnings), "warnings": g.warnings,
        "read_s": round(read_s, 6), "solve_s": round(solve_s, 6),
    }
    for key in SUPERSEDED_INFO:
        info.pop(key, None)
    out.update(info)
    out.setdefault("status", "complete")
    out["total_s"] = round(time.perf_counter() - t_start, 6)
    return out


def _check_method_options(args) -> None:
    """Options the chosen method would ignore, and a method that does not apply to the
    problem, are command-line errors, found before the graph file is read."""
    neural = args.method == "g2s" or args.method in MODEL_METHODS
    if args.float32_screen and args.method != "g2s":
        raise CommandLineError("--float32-screen applies to --method g2s only")
    if args.t_max is not None and args.method != "g2s":
        raise CommandLineError("--t-max applies to --method g2s only (Algorithm 2)")
    for flag, value in (("--checkpoint", args.checkpoint), ("--device", args.device),
                        ("--threads", args.threads)):
        if value is not None and not neural:
            raise CommandLineError(f"{flag} applies to --method g2s and the neural baselines "
                                   f"only, not --method {args.method}")
    from g2s.heuristics import HEURISTIC_METHODS
    problems = HEURISTIC_METHODS.get(args.method, (PROBLEMS,))[0]
    if args.problem not in problems:
        raise CommandLineError(f"--method {args.method} does not apply to --problem "
                               f"{args.problem} (only {', '.join(problems)})")


def _check_output(args) -> None:
    """``--output`` must not be the input file (or a link to it): it would be overwritten."""
    out = args.output
    if out is None or not out.exists() or not args.file.exists():
        return
    if os.path.samefile(out, args.file):
        raise CommandLineError(f"argument --output: {str(out)!r} is the input file; refusing "
                               "to overwrite it")


#: the largest integer every JSON reader holds exactly (JavaScript and most readers parse
#: numbers as IEEE doubles): integer labels beyond it are written as strings
JSON_SAFE_INT = 2**53


def _json_safe_labels(labels: list, warnings: list) -> list:
    """``labels`` with every integer of magnitude above :data:`JSON_SAFE_INT` as its decimal
    string (a double would round it to another vertex's label), said in ``warnings``."""
    big = [v for v in labels if isinstance(v, int) and abs(v) > JSON_SAFE_INT]
    if not big:
        return labels
    warnings.append(f"{len(big)} vertex label(s) above 2^53 (e.g. {big[0]}) written as strings: "
                    "a JSON reader that parses numbers as doubles would round them")
    return [str(v) if isinstance(v, int) and abs(v) > JSON_SAFE_INT else v for v in labels]


class _CtrlC:
    """What the process's Ctrl-C handler (:func:`_on_ctrl_c`) saw during one command.

    ``seen``: a Ctrl-C arrived.  The handler raises ``KeyboardInterrupt``, which stops the
    work, but an exception raised from a signal handler can be lost: where it lands in a
    weakref callback or a ``__del__`` (importlib's module locks have one), Python reports
    "Exception ignored" and goes on.  A command that finishes with ``seen`` set was still
    interrupted.  ``final``: the result is complete and being written; a Ctrl-C is recorded,
    not raised, so that what is shown and written is never cut in half."""

    seen = False
    final = False


def _on_ctrl_c(signum, frame):
    _CtrlC.seen = True
    if not _CtrlC.final:
        raise KeyboardInterrupt


def main(argv=None) -> int:
    """Run one ``g2s`` command in this process; its exit status (see the module docstring)."""
    try:
        return _main(argv)
    finally:
        _CtrlC.final = False  # the caller's later Ctrl-C raises again


def _main(argv=None) -> int:
    _CtrlC.seen = _CtrlC.final = False
    try:
        return _command(argv)
    except KeyboardInterrupt:  # landed while an error was being reported
        print("g2s: interrupted", file=sys.stderr)
        return 130
    finally:
        _CtrlC.final = True  # whatever happens next, the command's outcome is settled


def _command(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        parser = build_parser()
        rest = [a for a in argv if a != "--debug"]
        if rest and rest[0] == "train":
            _train(rest[1:])
            return 0
        args = parser.parse_args(rest)   # --debug anywhere, before or after the command
        if args.command is None:
            raise CommandLineError("a command is required (try 'g2s solve --help')")
        if args.command == "solve":
            _check_method_options(args)
            _check_output(args)
            result = _solve(args)
            _CtrlC.final = True
            if _CtrlC.seen:  # a Ctrl-C whose KeyboardInterrupt Python dropped
                raise KeyboardInterrupt
            text = json.dumps(result)
            print(text, flush=True)  # the result is shown even when --output cannot be written
            if args.output is not None:
                try:
                    atomic_write_text(args.output, text + "\n")
                except OSError as exc:
                    raise ValueError(f"cannot write --output {args.output}: "
                                     f"{exc.strerror or exc}") from None
        return 0
    except CommandLineError as exc:
        print(f"g2s: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # training saves a resume point first and says where
        print(f"g2s: interrupted{f' ({exc})' if str(exc) else ''}", file=sys.stderr)
        return getattr(exc, "exit_code", 130)
    except Exception as exc:  # noqa: BLE001 - last line of defence: one line, no traceback
        # a Ctrl-C that landed inside compiled code can come back as another error (pandas'
        # Cython, imported by OR-Tools: "SystemError: ... returned a result with an exception
        # set"); the command was interrupted, not broken
        if _CtrlC.seen or interrupted(exc) is not None:
            print("g2s: interrupted", file=sys.stderr)
            return 130
        if isinstance(exc, (GraphFormatError, ValueError, InfeasibleSolution,
                            FileNotFoundError)):
            print(f"g2s: error: {' '.join(str(exc).split())}", file=sys.stderr)
            return 1
        if debug:
            raise
        first = (str(exc).strip().splitlines() or [""])[0]
        print(f"g2s: internal error: {type(exc).__name__}: {first} (rerun with --debug)",
              file=sys.stderr)
        return 3


if _OWN_SIGINT:  # imports done: Ctrl-C raises KeyboardInterrupt, which main() reports
    signal.signal(signal.SIGINT, _on_ctrl_c)


def _quiet_interrupts(unraisable, _previous=sys.unraisablehook):
    """``sys.unraisablehook`` of the g2s process: a KeyboardInterrupt that Python could not
    raise (see :class:`_CtrlC`) is recorded by the handler, not printed as a traceback."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        return
    _previous(unraisable)


def run() -> None:
    """The console entry point (``g2s``, ``python -m g2s.cli``): the command, then exit.

    After an interruption the process ends at once with the command's own status (130),
    skipping Python's shutdown: after main() had printed "g2s: interrupted" and returned 130,
    the interpreter still ended the process by the signal itself now and then (exit status
    -2; about 1 run in 60 when Ctrl-C came 0.3-0.5 s after numpy loaded), as CPython does for
    a KeyboardInterrupt it counts as unhandled.  Everything main() shows or writes is complete
    and flushed by then."""
    sys.unraisablehook = _quiet_interrupts
    code = _main()  # its outcome is final: a Ctrl-C from here on is only recorded
    # ... and then ignored: Python restores SIGINT's default action before it finalises, and a
    # Ctrl-C during the shutdown would kill the process by the signal, with no message
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _CtrlC.seen or code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
