"""Fault-injection segmenters for the isolation tests (tests/test_faults.py).

Every unit of a document made by :func:`document` reads ``"<marker> <position>"``. A
:class:`Fault` segments evenly, except on documents of its marker, where it misbehaves: on the
initial call (``when="initial"``) or only on permuted units, i.e. on restarts (``when="restart"``).
Module-level classes, so loky can pickle them into worker processes.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import sys
import time
from pathlib import Path

from stability import Document


def document(marker: str, n_units: int = 12) -> Document:
    return Document(marker, tuple(f"{marker} {i}" for i in range(n_units)))


def corpus(*markers: str) -> list[Document]:
    return [document(m) for m in markers]


def _segfault() -> None:
    ctypes.string_at(0)  # reads address 0: SIGSEGV


def _hang() -> None:
    time.sleep(120)


class _Custom(BaseException):
    pass


#: what a faulty call does, by kind
ACTIONS = {
    "raise": lambda: (_ for _ in ()).throw(ValueError("bad document")),
    "sys_exit": lambda: sys.exit(3),
    "keyboard_interrupt": lambda: (_ for _ in ()).throw(KeyboardInterrupt()),
    "base_exception": lambda: (_ for _ in ()).throw(_Custom("custom")),
    "os_exit": lambda: os._exit(13),
    "segfault": _segfault,
    "sigkill": lambda: os.kill(os.getpid(), signal.SIGKILL),
    "hang": _hang,
}

#: invalid outputs, by kind
GARBAGE = {
    "dict": lambda n: {3: True},
    "string": lambda n: "3,6",
    "negative": lambda n: [-1],
    "too_large": lambda n: [n + 5],
    "float": lambda n: [2.5],
    "none": lambda n: None,
}


class Fault:
    """An even segmenter (a boundary every 3 units) that misbehaves on documents of ``marker``.

    ``log``: a file that gets one line per faulty call (to count calls across processes).
    """

    def __init__(self, kind: str, marker: str = "bad", when: str = "initial", log: str | None = None) -> None:
        self.kind, self.marker, self.when, self.log = kind, marker, when, log

    def _triggered(self, units) -> bool:
        if not units or not units[0].startswith(self.marker + " "):
            return False
        positions = [int(u.rsplit(" ", 1)[1]) for u in units]
        return self.when == "initial" or positions != sorted(positions)

    def __call__(self, units):
        if self._triggered(list(units)):
            if self.log is not None:
                with Path(self.log).open("a") as handle:
                    handle.write("call\n")
            if self.kind in GARBAGE:
                return GARBAGE[self.kind](len(units))
            ACTIONS[self.kind]()
        return list(range(3, len(units), 3))


def unreadable(units):
    """A plugin-style segmenter (``faults:unreadable``) raising on every document, naming it by
    its units' marker (:func:`document`)."""
    raise ValueError(f"no model for {units[0].rsplit(' ', 1)[0]!r}")


def slow(units):
    """An even segmenter that takes 50 ms a call (for interrupting a run mid-way)."""
    time.sleep(0.05)
    return list(range(3, len(units), 3))


def logged(units):
    """As :func:`slow`, and each call appends its document's marker (the first word of its units)
    as a line to the file named by ``STABILITY_TEST_CALLS`` (counting calls across processes)."""
    with open(os.environ["STABILITY_TEST_CALLS"], "a") as log:
        log.write(min(units).split()[0] + "\n")
    return slow(units)


def swallowing(units):
    """An even segmenter taking 50 ms a call that catches everything, as model code with a bare
    ``except:`` and a fallback does: Ctrl-C, SIGTERM and the timeout's timer included."""
    try:
        time.sleep(0.05)
    except:  # noqa: E722 (the point)
        pass
    return list(range(3, len(units), 3))


def swallowing_slow(units):
    """As :func:`swallowing`, 2 s a call (for the timeout)."""
    try:
        time.sleep(2)
    except:  # noqa: E722
        pass
    return list(range(3, len(units), 3))


class Model:
    """An even segmenter holding a "model" of ``mb`` megabytes; each time it is unpickled it
    leaves a file in ``log`` named ``<pid>-...`` (counting how often worker processes receive it),
    and each time it is pickled it adds one to ``Model.pickles`` (in the process that pickles it)."""

    pickles = 0

    def __init__(self, mb: int = 2, log: str | None = None):
        self.mb, self.log = mb, log
        self.weights = bytes(mb << 20)

    def __getstate__(self):
        Model.pickles += 1
        return self.__dict__

    def __setstate__(self, state):
        self.__dict__.update(state)
        if self.log:
            import tempfile
            tempfile.mkstemp(dir=self.log, prefix=f"{os.getpid()}-")

    def __call__(self, units):
        return list(range(3, len(units), 3))


def unpickled(log) -> tuple[int, int]:
    """How many times a :class:`Model` logging to ``log`` was unpickled: in this process, in others."""
    names = os.listdir(log)
    here = sum(name.startswith(f"{os.getpid()}-") for name in names)
    return here, len(names) - here


class Removing:
    """An even segmenter that removes the file or folder ``path`` when first called on a document
    of ``marker`` (any document by default): a corpus file or the output folder deleted during a
    run."""

    def __init__(self, path: str, marker: str = "") -> None:
        self.path, self.marker = path, marker

    def __call__(self, units):
        if units and units[0].startswith(self.marker):
            target = Path(self.path)
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink(missing_ok=True)
        return list(range(3, len(units), 3))


def _dies_once(once: str, home: int) -> None:
    """End this process the first time it is not ``home`` (the one that made the object being
    read): the first to create the file ``once`` dies, later ones go on."""
    if os.getpid() == home:
        return
    try:
        os.close(os.open(once, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return
    os._exit(13)


class LoadKills(Model):
    """A segmenter holding a model (:class:`Model`, shipped once to a Dask cluster) whose unpickling
    ends the first worker process that reads it (``once``: a file that worker creates): the
    worker that makes a shipped segmenter dies while making it."""

    def __init__(self, once: str, mb: int = 2, log: str | None = None):
        super().__init__(mb, log)
        self.once, self.home = once, os.getpid()

    def __setstate__(self, state):
        super().__setstate__(state)
        _dies_once(self.once, self.home)


class LoadKillsUnit(str):
    """A unit whose unpickling ends the first worker process that reads it (``once``: a file the
    first creates), read there as a plain string: the worker that makes a document's shipped units
    dies while making them."""

    def __new__(cls, text: str, once: str):
        unit = super().__new__(cls, text)
        unit.once, unit.home = once, os.getpid()
        return unit

    def __reduce__(self):
        return _unit_read, (str(self), self.once, self.home)


def _unit_read(text: str, once: str, home: int) -> str:
    _dies_once(once, home)
    return text


def held_first(units):
    """As :func:`logged`, but the restarts on the first document (marker ``u0``: units permuted, not
    in their order ``u0 0``, ``u0 1``...) wait as long as the file named by ``STABILITY_TEST_HOLD``
    exists (each other call takes 50 ms): the pairs after it finish while it runs."""
    hold = os.environ.get("STABILITY_TEST_HOLD")
    permuted = [int(unit.split()[1]) for unit in units] != list(range(len(units)))
    while min(units).split()[0] == "u0" and permuted and hold and os.path.exists(hold):
        time.sleep(0.05)
    return logged(units)
