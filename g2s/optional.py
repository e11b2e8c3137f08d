"""Optional dependencies: tell a missing package from an interrupted import.

A Ctrl-C that lands while a compiled extension initialises (OR-Tools' ``cp_model_helper``,
torch) is turned by the extension's loader into ``ImportError('initialization failed')``, with
the ``KeyboardInterrupt`` only as its cause.  Code that falls back when a package is missing
(``except ImportError``: HiGHS for CP-SAT, "needs PyTorch") then swallowed the interrupt:
``g2s solve --method reference`` went on with HiGHS and exited 0.  :func:`interrupted` finds
the interrupt in an ``ImportError``'s chain, and :func:`reraise_interrupt` re-raises it, so a
fallback only ever runs for a package that is really absent or broken.
"""

from __future__ import annotations

__all__ = ["interrupted", "reraise_interrupt"]


def interrupted(exc: BaseException) -> KeyboardInterrupt | None:
    """The ``KeyboardInterrupt`` in ``exc``'s chain of causes and (unsuppressed) contexts,
    or None: the chain Python itself would print."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ if exc.__cause__ is not None else \
            None if exc.__suppress_context__ else exc.__context__
    return None


def reraise_interrupt(exc: ImportError) -> None:
    """Re-raise the ``KeyboardInterrupt`` behind ``exc`` (an import cut short by Ctrl-C);
    return when ``exc`` is a genuine import failure, for the caller's fallback."""
    cause = interrupted(exc)
    if cause is not None:
        raise KeyboardInterrupt(*cause.args) from None
