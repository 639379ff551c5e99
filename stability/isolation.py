"""Containing what a segmenter does: escapes, timeouts, dead workers, and interrupts.

A segmenter is user code: it may raise ``SystemExit`` or ``KeyboardInterrupt``, hang, or kill
the process it runs in. The engine (:mod:`stability.engine`) runs every call through
:class:`Guarded` and its task lists through :func:`run_pool`, so that each of these becomes a
per-document :class:`~stability.results.Failure` and the other documents are kept:

* **Escapes.** ``SystemExit``, ``KeyboardInterrupt`` and other ``BaseException`` raised by the
  segmenter become :class:`SegmenterEscape` (an ordinary exception, recorded as a failure). A
  ``KeyboardInterrupt`` that comes from a real SIGINT/SIGTERM/SIGHUP (see :func:`interruptible`) is not
  converted: it stops the run.
* **Timeouts.** With ``timeout`` set, each segmenter call gets a ``SIGALRM`` timer
  (``signal.setitimer``) in the process that runs it; a call still running after ``timeout``
  seconds is interrupted with :class:`SegmenterTimeout`. The timer needs the main thread of
  that process: it works in-process (``n_jobs=1``, from the main thread) and in loky or
  multiprocessing workers, not with the threading or dask backends (refused by
  :class:`~stability.settings.Settings`), nor on platforms without ``SIGALRM``. Code that holds
  the GIL in C for longer is interrupted only when it returns to Python.
* **Dead workers.** With the loky backend (the default when ``n_jobs != 1``; ``backend="loky"``
  with ``n_jobs=1`` runs in one worker process, an isolation mode), a worker that dies
  (``os._exit``, a segfault, the OOM killer) loses its tasks: they are run again one at a time,
  and a task that kills its worker alone is recorded as a ``"crash"`` failure (the engine narrows
  it down to the restart). In-process (``n_jobs=1`` without a backend), such a segmenter ends the
  whole process, as any Python call would; with a results file, the marker the store wrote before
  the call (:mod:`stability.store`) makes the next resume record that pair as a crash failure
  instead of dying on it again.
* **Interrupts.** During a run, SIGINT, SIGTERM and SIGHUP raise ``KeyboardInterrupt`` in the main
  thread; the worker processes are killed at once and the results already stored stay on disk.
* **Output.** Within :func:`printing_to_stderr` (the command line's runs), what a segmenter prints
  goes to stderr, in this process and in the workers it starts, so that stdout carries the report
  alone.
"""

from __future__ import annotations

import contextlib
import functools
import re
import signal
import threading
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from functools import partial
from itertools import islice
from typing import Any

__all__ = ["Guarded", "SegmenterEscape", "SegmenterTimeout", "interruptible", "interrupted", "printing_to_stderr",
           "run_pool", "WorkerCrash", "is_crash", "submit", "result_or_crash"]


class SegmenterEscape(Exception):
    """A segmenter raised ``SystemExit``, ``KeyboardInterrupt`` or another ``BaseException``."""

    kind = "exception"


class SegmenterTimeout(Exception):
    """A segmenter call ran longer than the ``timeout`` setting."""

    kind = "timeout"


class WorkerCrash(Exception):
    """The worker process running a task died."""

    kind = "crash"


class _Alarm(BaseException):
    """Raised by the timer; a BaseException so that ``except Exception`` in user code lets it pass."""


# -- interrupts ------------------------------------------------------------------------------------
_SIGNAL: dict[str, int | None] = {"received": None}  # the signal number of a real interrupt during the current run

#: The signals that stop a run cleanly (finished pairs kept, workers stopped, the results file's
#: lock and marker removed): Ctrl-C, a service manager's or CI runner's stop, and the hang-up of a
#: closed terminal or ssh session (where the platform has it).
INTERRUPTS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def interrupted() -> int | None:
    """The signal (one of :data:`INTERRUPTS`) that interrupted the current run, if any."""
    return _SIGNAL["received"]


def _on_signal(signum: int, frame: Any) -> None:
    _SIGNAL["received"] = signum
    raise KeyboardInterrupt


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """During the block, the signals of :data:`INTERRUPTS` raise ``KeyboardInterrupt`` (main
    thread only; elsewhere, and when already inside such a block, nothing changes)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is _on_signal:
        yield
        return
    _SIGNAL["received"] = None
    previous = {s: signal.signal(s, _on_signal) for s in INTERRUPTS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def printing_to_stderr() -> Iterator[None]:
    """During the block, what is printed to stdout goes to stderr: ``sys.stdout`` and, when it is
    the process's file descriptor 1, that descriptor too (worker processes started in the block
    inherit it), so that a segmenter printing progress cannot mix its lines into a report written
    to stdout (JSON, CSV) afterwards."""
    import os
    import sys

    sys.stdout.flush()
    try:
        saved = os.dup(1) if sys.stdout.fileno() == 1 and sys.stderr.fileno() == 2 else None
    except (AttributeError, OSError, ValueError):  # a stream without a descriptor (a test's buffer)
        saved = None
    if saved is not None:
        os.dup2(2, 1)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        if saved is not None:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


# -- one call --------------------------------------------------------------------------------------
@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    if seconds is None:
        yield
        return
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        raise SegmenterTimeout("the timeout needs the main thread of a process with SIGALRM "
                               "(use n_jobs=1 from the main thread, or the loky backend)")

    rang: list[bool] = []

    def ring(signum: int, frame: Any) -> None:
        rang.append(True)
        raise _Alarm

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Alarm:
        raise SegmenterTimeout(f"the call exceeded the timeout of {seconds:g} s") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if rang:  # the segmenter caught the timer's exception (a bare ``except:``) and returned something else
        raise SegmenterTimeout(f"the call exceeded the timeout of {seconds:g} s (the segmenter caught the timer's "
                               "interrupt, a bare 'except:'?, and returned: what it returned is not used)")


def _contained(function: Callable, timeout: float | None, *args: Any) -> Any:
    try:
        if timeout is None:
            out = function(*args)
        else:
            with _deadline(timeout):
                out = function(*args)
        if interrupted() is not None:  # Ctrl-C or SIGTERM during the call, caught by it (a bare ``except:``)
            raise KeyboardInterrupt
        return out
    except Exception:
        raise
    except KeyboardInterrupt:
        if interrupted() is not None:
            raise
        raise SegmenterEscape("KeyboardInterrupt raised by the segmenter") from None
    except _Alarm:  # the timer rang between the call's end and its cancellation
        raise SegmenterTimeout(f"the call exceeded the timeout of {timeout:g} s") from None
    except BaseException as exc:
        raise SegmenterEscape(f"{type(exc).__name__} raised by the segmenter: {exc}") from None


class Guarded:
    """A segmenter whose calls (``__call__``, and its fast-path methods ``prepare``,
    ``segment_prepared`` and ``segment_batch`` when it has them) are contained: escapes and
    timeouts become ordinary exceptions (see above; a timeout bounds each call, so one whole
    batch for ``segment_batch``).

    Examples
    --------
    >>> import sys
    >>> Guarded(lambda units: sys.exit(3), None)(["a"])
    Traceback (most recent call last):
    ...
    stability.isolation.SegmenterEscape: SystemExit raised by the segmenter: 3
    """

    METHODS = ("prepare", "segment_prepared", "segment_batch")

    def __init__(self, segmenter: Callable, timeout: float | None) -> None:
        self.segmenter = segmenter
        self.timeout = timeout
        for name in self.METHODS:
            method = getattr(segmenter, name, None)
            if callable(method):
                setattr(self, name, partial(_contained, method, timeout))

    def __call__(self, units: Sequence[str]) -> Any:
        return _contained(self.segmenter, self.timeout, units)

    def __getstate__(self) -> dict[str, Any]:
        return {"segmenter": self.segmenter, "timeout": self.timeout}

    def __setstate__(self, state: dict[str, Any]) -> None:
        type(self).__init__(self, state["segmenter"], state["timeout"])


# -- task lists in worker processes ------------------------------------------------------------------
def is_crash(exc: BaseException) -> bool:
    """Whether ``exc`` says a worker process died (loky's TerminatedWorkerError, BrokenProcessPool)."""
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(exc, BrokenProcessPool)


def crash_message(exc: BaseException) -> str:
    """A one-line description of a dead worker, with its exit code when loky gives it."""
    codes = re.search(r"exit codes of the workers are \{([^}]*)\}", str(exc))
    how = f" ({codes.group(1)})" if codes else ""
    return f"the worker process running the segmenter died{how}"


#: The environment variables that size the thread pools of numerical libraries in a process:
#: OpenMP, OpenBLAS, MKL, BLIS, Apple's Accelerate, numexpr and numba.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "NUMBA_NUM_THREADS")


def worker_threads(n_jobs: int, cores: int | None = None, environ: Any = None) -> dict[str, str]:
    """The environment a pool of ``n_jobs`` worker processes starts with: each numerical
    library's threads set to the worker's share of the ``cores`` (``cores // n_jobs``, at least
    1), except where ``environ`` (this process's) already sets a variable, which the workers
    then inherit as it is.

    Without it every worker's numpy sizes its BLAS pool to the whole machine: 16 workers on 16
    cores ran up to 256 threads, and C99's matrix products spent their time contending (a 16-job
    run 4.9 times faster than one job, where 16 independent processes of the same machine
    reached 13.4 times; benchmarks/cores.py). joblib's own loky backend does the same.

    >>> worker_threads(4, cores=16, environ={"MKL_NUM_THREADS": "2"})["OMP_NUM_THREADS"]
    '4'
    >>> "MKL_NUM_THREADS" in worker_threads(4, cores=16, environ={"MKL_NUM_THREADS": "2"})
    False
    """
    import os

    environ = os.environ if environ is None else environ
    share = str(max(1, (cores or _cores()) // max(1, n_jobs)))
    return {name: share for name in THREAD_VARIABLES if name not in environ}


@functools.cache
def _cores() -> int:
    """This machine's core count, read once: the pool is fetched for every task submitted."""
    import os

    return os.cpu_count() or 1


#: A segmenter whose pickle is at least this many bytes goes to each worker process once
#: (:func:`ship_once`, :func:`unpickled_once`) rather than with every task.
SHIP_ONCE_BYTES = 1 << 20
#: How many bytes of pickled segmenters a worker process keeps read (the most recently used; the
#: last one read whatever its size): a grid of configurations each holding its own copy of a
#: large model must not hold them all in every worker.
SHIPPED_KEPT_BYTES = 1 << 30
_RECEIVED: "OrderedDict[str, tuple[Any, int]]" = OrderedDict()  # in a worker: digest -> (segmenter, its size)


def ships_once(data: bytes) -> bool:
    """Whether a segmenter of pickle ``data`` goes to each worker once (:data:`SHIP_ONCE_BYTES`)."""
    return len(data) >= SHIP_ONCE_BYTES


def _kept(digest: str, load: Callable[[], tuple[Any, int]]) -> Any:
    """In a worker: the segmenter of ``digest``, ``load()`` (the segmenter, its pickle's size)
    the first time (again when :data:`SHIPPED_KEPT_BYTES` made room for others since)."""
    found = _RECEIVED.pop(digest, None)
    if found is None:
        found = load()
    _RECEIVED[digest] = found  # the most recent last
    while len(_RECEIVED) > 1 and sum(size for _, size in _RECEIVED.values()) > SHIPPED_KEPT_BYTES:
        _RECEIVED.popitem(last=False)
    return found[0]


class Shipped:
    """A segmenter that worker processes read once each from a file written by the main process,
    where tasks carry only its path and digest (in a :class:`Guarded`, which a worker makes again
    around what it read): pickled with every task, a segmenter holding a model of 100 MB was sent
    and read some 140 times over 500 short documents with two jobs (ten times the run's time).
    In-process it is never used: :func:`ship_once` makes one only for worker processes on this
    machine (loky's)."""

    def __init__(self, path: str, digest: str) -> None:
        self.path, self.digest = path, digest

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return _received, (self.path, self.digest)


def _received(path: str, digest: str) -> Any:
    """In a worker: the segmenter of ``digest``, read from ``path`` the first time (see :func:`_kept`)."""
    import os
    import pickle

    def load() -> tuple[Any, int]:
        with open(path, "rb") as file:
            return pickle.load(file), os.fstat(file.fileno()).st_size

    return _kept(digest, load)


def digest_of(data: bytes) -> str:
    """The name a worker keeps the segmenter of pickle ``data`` under."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def ship_once(data: bytes, folder: Callable[[], str]) -> Shipped:
    """A :class:`Shipped` handle to a file in ``folder()`` holding a segmenter's pickle ``data``
    (:func:`~stability.segmenter.pickled`), which the tasks sent to loky's worker processes carry
    instead of the segmenter (each worker then reads it once and keeps it, as a run in this
    process keeps its one object)."""
    import os

    digest = digest_of(data)
    path = os.path.join(folder(), f"{digest}.pickle")
    with open(path, "wb") as file:
        file.write(data)
    return Shipped(path, digest)


class _Unpickled(Guarded):
    """In a Dask worker: a :class:`Guarded` segmenter made by :func:`unpickled_once`. Dask hands
    it to another worker that needs it as its pickle, which that worker reads only if it has not
    the segmenter of the same digest yet (Dask may drop a worker's copy between rounds and send it
    again)."""

    def __init__(self, segmenter: Callable, timeout: float | None, digest: str) -> None:
        super().__init__(segmenter, timeout)
        self.digest = digest

    def __reduce__(self) -> tuple[Any, tuple[bytes, str, float | None]]:
        from joblib.externals.loky.backend.reduction import dumps

        return unpickled_once, (dumps(self.segmenter), self.digest, self.timeout)


def unpickled_once(data: bytes, digest: str, timeout: float | None) -> Guarded:
    """In a Dask worker: the segmenter of pickle ``data``, guarded with ``timeout``, read once in
    each worker process (kept by ``digest``, see :func:`_kept`).

    The engine submits it once a segmenter (its pickle is the task's argument), and the tasks
    carry its future, which Dask resolves on the worker that runs them: a segmenter holding a
    model is no longer sent with every task (``benchmarks/model_workers.py --backend dask``). A
    worker that dies with it makes Dask run this again, as for a document's units."""
    import pickle

    return _Unpickled(_kept(digest, lambda: (pickle.loads(data), len(data))), timeout, digest)


def _executor(n_jobs: int) -> Any:
    """loky's reusable pool of ``n_jobs`` worker processes, made by joblib's factory: a process has
    one such pool, which joblib's loky backend (``Parallel(backend="loky")``, scikit-learn's
    ``n_jobs``) takes over, and it needs joblib's kind of it; made by loky's own factory, every
    joblib call after a run failed with ``AttributeError: '_ReusablePoolExecutor' object has no
    attribute '_temp_folder_manager'``. ``max_nbytes=None``: arguments are pickled whole, not
    handed over as memory maps (read-only, which a segmenter may not expect)."""
    from joblib.executor import get_memmapping_executor

    return get_memmapping_executor(n_jobs, env=worker_threads(n_jobs), max_nbytes=None)


def result_or_crash(future: Any) -> tuple[Any, bool]:
    """``(future.result(), False)``, or ``(None, True)`` when the worker process running it died;
    any other error is raised."""
    try:
        return future.result(), False
    except Exception as exc:
        if not is_crash(exc):
            raise
        return None, True


#: How many dead pools one submission replaces before it gives up (see :func:`submit`).
SUBMIT_ATTEMPTS = 3


def submit(function: Callable, task: tuple, n_jobs: int) -> Any:
    """Hand ``function(*task)`` to the worker processes (those of :func:`run_pool`) without
    waiting; returns its future. A worker's death shows as :func:`is_crash` from ``result()``.

    A worker can die between fetching the pool and submitting to it (another task killed it):
    the pool then refuses the task, which never ran, and it goes to a new pool instead.
    """
    for attempt in range(1, SUBMIT_ATTEMPTS + 1):
        try:
            return _executor(n_jobs).submit(function, *task)
        except Exception as exc:
            if not is_crash(exc) or attempt == SUBMIT_ATTEMPTS:
                raise


def submit_alone(function: Callable, task: tuple, n_jobs: int) -> Any:
    """Run one task alone in a worker process; raises :class:`WorkerCrash` if the worker dies."""
    future = submit(function, task, n_jobs)
    try:
        return future.result()
    except Exception as exc:
        if is_crash(exc):
            raise WorkerCrash(crash_message(exc)) from None
        raise


def rerun_alone(tasks: list[tuple], alone: Callable[[tuple], Any],
                on_crash: Callable[[tuple, WorkerCrash], Any]) -> Generator[Any, None, None]:
    """The results of tasks lost with a dead worker, each run again by ``alone`` with nothing
    else in flight; ``on_crash(task, crash)`` for one that kills its worker even so (loky's pool
    and the Dask cluster alike)."""
    for task in tasks:
        try:
            result = alone(task)
        except WorkerCrash as crash:
            result = on_crash(task, crash)
        yield result


def run_pool(function: Callable, tasks: list[tuple], n_jobs: int,
             on_crash: Callable[[tuple, WorkerCrash], Any]) -> Generator[Any, None, None]:
    """``function(*task)`` for every task in loky worker processes, in completion order.

    At most ``2 * n_jobs`` tasks are in flight. When a worker dies, the tasks lost with it are
    run again one at a time at the end; ``on_crash(task, crash)`` gives the result of a task
    that kills its worker when run alone. On any other exit (an interrupt, the consumer closing
    the generator) the workers are killed at once.
    """
    upcoming = iter(range(len(tasks)))
    futures: dict[Any, int] = {}
    lost: list[int] = []
    finished = False
    try:
        while True:
            for i in islice(upcoming, max(0, 2 * n_jobs - len(futures))):
                futures[submit(function, tasks[i], n_jobs)] = i  # a new pool after a crash
            if not futures:
                break
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                i = futures.pop(future)
                result, crashed = result_or_crash(future)
                if crashed:
                    lost.append(i)
                    continue
                yield result
        yield from rerun_alone([tasks[i] for i in sorted(lost)], lambda task: submit_alone(function, task, n_jobs),
                               on_crash)
        finished = True
    finally:
        if not finished:
            with _teardown_race_ignored():
                _executor(n_jobs).shutdown(wait=True, kill_workers=True)


@contextlib.contextmanager
def _teardown_race_ignored() -> Iterator[None]:
    """While the workers are killed, drop the one error loky's manager thread can hit then.

    A task submitted just before an interrupt can still have its id queued when
    ``shutdown(kill_workers=True)`` cancels the pending tasks; the manager thread then looks the id
    up and dies with ``KeyError`` (joblib 1.6, ``add_call_item_to_queue``), after the workers are
    killed. Its traceback would come before the line that says what is saved and says nothing a
    user can act on. Any other exception, of that thread or another, is reported as usual.
    """
    previous = threading.excepthook

    def hook(args: Any) -> None:
        thread = getattr(args.thread, "name", "")
        if not (thread == "ExecutorManagerThread" and issubclass(args.exc_type, KeyError)):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous
