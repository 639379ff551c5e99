"""The ``stability`` command's entry point (the console script and ``python -m stability``).

It imports the command line (:mod:`stability.cli`, and with it numpy, typer and rich: some 0.3 s)
under the tool's interrupt handling (:func:`stability.isolation.interruptible`). This module and
the package's ``__init__`` import nothing beyond the standard library's ``signal`` and ``sys``
(the package's names are imported on first use), so that the handling covers nearly all of the
start-up: a Ctrl-C, SIGTERM or SIGHUP then ends as any other interrupt of the tool, with one
``interrupted:`` line on stderr and exit code 128 + the signal (130 for Ctrl-C), not Python's
``KeyboardInterrupt`` traceback. (The interpreter's own start, before this module runs, is
Python's.)
"""

from __future__ import annotations

import signal
import sys

#: What an interrupt before the command began says (:func:`stability.cli.main` says it too).
NOTHING_YET = "interrupted: nothing was computed yet"


def main() -> None:
    """Import the command line, then run it (:func:`stability.cli.main`)."""
    try:  # until isolation is imported, Python's own SIGINT handler raises the KeyboardInterrupt
        from .isolation import interruptible

        with interruptible():
            from .cli import main as command_line
        command_line()  # its own handling from its first line; an interrupt just before it lands below
    except KeyboardInterrupt:
        sys.stderr.write(NOTHING_YET + "\n")
        sys.stderr.flush()
        raise SystemExit(128 + _received()) from None


def _received() -> int:
    """The signal that interrupted the start-up: the one :mod:`stability.isolation` recorded, or
    SIGINT when it was not imported yet (Python's own handler raised the interrupt)."""
    isolation = sys.modules.get(f"{__package__}.isolation")
    recorded = isolation.interrupted() if isolation is not None and hasattr(isolation, "interrupted") else None
    return int(recorded or signal.SIGINT)
