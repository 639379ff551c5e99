"""Reading or writing a large result in one go, with Python's cyclic garbage collector paused.

Loading a results file (:func:`stability.store.load_results`) and building the JSON report
(:mod:`stability.reporting.formats.json`) each make millions of small dicts, lists and records,
none of them in a reference cycle, so the collector has nothing to free; yet it runs every 700 new
ones and, now and then, through every object alive: a sixth of loading the 10,000-document run of
``benchmarks/reporting_failures.py`` and two fifths of its JSON report. :func:`collector_paused`
pauses it, as :mod:`timeit` does while it times (a ``with`` block: as a decorator its frame
would stand between a warning and the caller's line, see :func:`stability.exceptions.warn`).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while the block runs, then as it was: enabled again
    if it was, even on an error; left alone if it was already paused.

    Examples
    --------
    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
