"""What a long computation is doing, on stderr: a spinner with the phase's name.

One convention for everything shown while working (this spinner and the restarts bar of
:class:`stability.engine.Progress`): ``show=None`` means "only when stderr is a terminal", so
piped output, logs, CI and tests never hold a spinner's frames. A library function reports its
phases through a callback ``on_phase(phase, detail)`` (``phase`` one of its declared names,
``detail`` the corpus and counts); :class:`Status` is the callback the command line passes.

Examples
--------
>>> seen = []
>>> status = Status(show=False, on_phase=lambda phase, detail: seen.append((phase, detail)))
>>> status("correlations", "5 scores x 3 metrics")
>>> status.stop()
>>> seen
[('correlations', '5 scores x 3 metrics')]
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["PhaseCallback", "Status", "colored", "in_notebook", "no_phase", "shown"]

#: ``on_phase(phase, detail)``: a long phase starts (``detail``: the corpus and counts, or ``""``).
PhaseCallback = Callable[[str, str], None]


def in_notebook(stream: Any = None) -> bool:
    """Whether ``stream`` (default: stderr) is the output of a Jupyter kernel (ipykernel's stream:
    Jupyter, VS Code and Colab notebooks): no terminal, yet a line written again after a carriage
    return shows as one line that changes.

    >>> import io
    >>> in_notebook(io.StringIO())
    False
    """
    stream = sys.stderr if stream is None else stream
    return type(stream).__module__.split(".")[0] == "ipykernel"


def shown(show: bool | None) -> bool:
    """Whether to draw progress: ``show`` when given, else whether stderr is a terminal."""
    return sys.stderr.isatty() if show is None else bool(show)


def colored(stream: Any = None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to write ANSI styles (bold, colours) to ``stream`` (default: stdout), by the
    conventions of terminal programs: never when ``NO_COLOR`` is set and not empty
    (no-color.org), always when ``FORCE_COLOR`` is (force-color.org: a CI log that shows
    colours), else when the stream is a terminal that is not ``TERM=dumb``.

    >>> import io
    >>> colored(io.StringIO(), {"FORCE_COLOR": "1"}), colored(io.StringIO(), {})
    (True, False)
    >>> colored(io.StringIO(), {"FORCE_COLOR": "1", "NO_COLOR": "1"})
    False
    """
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and environ.get("TERM") != "dumb"


def no_phase(phase: str, detail: str) -> None:
    """The callback that reports nothing."""


class Status:
    """A spinner on stderr naming the current phase (drawn only when :func:`shown`), and an
    optional ``on_phase`` callback called with every phase too.

    The spinner starts at the first phase and :meth:`stop` removes it (it must be stopped while
    a progress bar runs: the terminal shows one live display at a time); a later phase starts it
    again.
    """

    def __init__(self, show: bool | None = None, on_phase: PhaseCallback | None = None) -> None:
        self._show = shown(show)
        self._on_phase = on_phase or no_phase
        self._status: Any = None

    def __call__(self, phase: str, detail: str = "") -> None:
        self._on_phase(phase, detail)
        if not self._show:
            return
        from rich.markup import escape

        text = escape(f"{phase}: {detail}" if detail else phase)  # names and paths are not markup
        if self._status is None:
            from rich.console import Console

            self._status = Console(stderr=True, emoji=False).status(text)
            self._status.start()
        else:
            self._status.update(text)

    def stop(self) -> None:
        """Remove the spinner (nothing when none is drawn)."""
        if self._status is not None:
            self._status.stop()
            self._status = None
