"""The engine of the stability test: tasks, parallel execution, stopping, progress.

:func:`stability.stability_test` and :func:`stability.evaluate` (in :mod:`stability.runner`) hand
the engine a list of (segmenter, document) pairs:

1. **Initial phase.** For every pair: the segmenter is resolved for the document (see
   :func:`stability.segmenter.for_document`, e.g. ``n_segments="reference"``), then
   ``B0 = segmenter(units)`` and, for the determinism check, a second call on the same,
   unpermuted units.
2. **Restart rounds.** For every pair and stream (within-segment permutations; shuffle control;
   layout control, whose restarts are new units rather than a reordering, so always plain calls),
   the restarts of the round are cut into *chunks* (never one task per restart: a joblib task costs
   about 0.3 ms of IPC here). A task ships the document once with one chunk, or with the chunks
   of every pair on that document whose segmenters share a prepare key
   (:func:`stability.segmenter.prepare_key`: configurations of one class that differ only in
   parameters ``prepare`` does not read), which then share one ``prepare`` call. Each chunk
   builds its permutations from keyed seeds (:mod:`stability.permutations`), runs the segmenter
   (all the chunk's orders at once through its batched path, else through its fast path, else
   plain calls) and returns the raw boundaries. Results come back with
   ``return_as="generator_unordered"`` and are put back in place by their keys, so the outcome is
   bit-identical for any ``n_jobs``, backend, chunking and completion order.
3. **Stopping.** A fixed number of restarts is one round. With ``ci_width`` set, rounds of
   ``check_every`` restarts continue (after ``min_restarts``) until the bootstrap interval of F1
   (each stream on its own) or, with ``ci_score = "headline"``, of the document's headline (the
   test and the shuffle control together) is at most ``ci_width`` wide, or ``n_restarts`` is
   reached; the decision depends only on the restarts' results, hence only on the seed.

A pair is *finished* as soon as its last chunk is back and its streams need no more restarts (or
it failed); the engine says so at once through ``on_done``, so a corpus run can store it without
waiting for the other pairs. Failures of one pair never lose the results of the others.

4. **Results.** The result of a finished pair (matching, chance level, bootstrap intervals:
   :mod:`stability.outcome`) is computed in-process with one job; with several jobs in worker
   processes, each pair is handed to a worker as soon as it is finished, so that the main process
   only hands out tasks and collects results (its CPU time is the serial fraction of a parallel
   run; ``benchmarks/harness_overhead.py`` measures it). ``on_done`` follows as soon as the result
   is back (checked after every chunk's return), so results are still stored as pairs finish.
"""

from __future__ import annotations

import math
import pickle
import shutil
import sys
import tempfile
import threading
import time
from contextlib import closing
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from types import FunctionType
from typing import Any, cast

import numpy as np

from .checks import counted, first_few
from .corpus import Document
from .exceptions import ClusterError, InvalidParameterError, MissingDependencyError, UnknownSegmenterError, warn
from .isolation import (Guarded, WorkerCrash, digest_of, interruptible, rerun_alone, result_or_crash, run_pool,
                        ship_once, ships_once, submit, unpickled_once)
from .outcome import STREAM_NAMES, Finished, f1_interval, restarts_headline_interval, score_task, stability_result
from .permutations import Stream
from .results import Failure, StabilityResult
from .scores import restart_precision_recall
from .segmenter import (TERM_BLIND_LINKED, SegmenterWarning, for_document, pickled, prepare_key, resolved_params,
                        segmenter_params)
from .settings import Settings
from .tasks import ON_CRASH, Chunk, describe, initial_batch, initial_task, restart_batch, restart_task

__all__ = ["Pair", "Engine", "Progress", "Finding", "warn_terms"]

#: The streams of the headline, which adaptive stopping on it (``ci_score = "headline"``) stops together.
_HEADLINE_STREAMS = (Stream.WITHIN, Stream.SHUFFLE)

# ----------------------------------------------------------------------------------------------
# parent-side state
# ----------------------------------------------------------------------------------------------
@dataclass
class _StreamState:
    boundaries: list[tuple[int, ...] | None]
    target: int  # restarts scheduled so far
    done: bool = False
    stopped_early: bool = False


@dataclass
class Pair:
    """One (segmenter, document) pair being evaluated.

    ``segmenter`` is the segmenter as given (its parameters are recorded); ``resolved`` the one
    run on this document (see :func:`stability.segmenter.for_document`).
    """

    label: str
    segmenter: Callable
    doc: Document
    key: int
    resolved: Guarded | None = None  # guarded (stability.isolation.Guarded)
    share: Hashable | None = None  # prepare key of the resolved segmenter (None: not shared)
    initial: tuple[int, ...] | None = None
    second: tuple[int, ...] | None = None
    error: Failure | None = None
    streams: dict[Stream, _StreamState] = field(default_factory=dict)
    outstanding: int = 0  # chunks of the current round not yet back
    result: StabilityResult | None = None  # computed in a worker (several jobs), else on demand
    #: every restart back, none more needed: its result is known or being computed in a worker
    #: (:meth:`Engine.result` computes it here when the run stops first)
    complete: bool = False
    term_blind: str | None = None  # why the segmenter saw next to no shared term (unit_terms_problem)
    resolved_params: dict[str, Any] = field(default_factory=dict)  # what ``resolved`` took unlike ``segmenter``


def _first(pair: Pair) -> tuple[int, ...]:
    """The first segmentation of a pair past its first round (every pair whose restarts run)."""
    assert pair.initial is not None, "the pair has no first segmentation yet"
    return pair.initial


def _back(boundaries: list[tuple[int, ...] | None]) -> list[tuple[int, ...]]:
    """A stream's restarts once all of them are back (none is still ``None``)."""
    assert None not in boundaries, "a restart is not back yet"
    return cast("list[tuple[int, ...]]", boundaries)


def _finished(pair: Pair) -> Finished:
    """The plain data the result of a finished pair is computed from."""
    restarts = {stream: _back(state.boundaries) for stream, state in pair.streams.items()}
    return Finished(pair.label, segmenter_params(pair.segmenter), pair.doc, pair.key, _first(pair), pair.second,
                    restarts, pair.streams[Stream.WITHIN].stopped_early, pair.term_blind, pair.resolved_params)


#: ``on_call(pair index, stream name or None, restarts or None)``: told before each in-process task
OnCall = Callable[[int, "str | None", "range | None"], None]


def _in_process(tasks: list[tuple], n_jobs: int, backend: str | None) -> bool:
    """Whether :func:`_run` runs ``tasks`` in this process (no worker to contain a crash)."""
    return not tasks or backend == "sequential" or (n_jobs == 1 and backend is None)


def import_distributed() -> Any:
    """The ``distributed`` package, which the dask backend needs, or a
    :class:`~stability.exceptions.MissingDependencyError` naming the extra that installs it."""
    try:
        import distributed
    except ImportError:
        raise MissingDependencyError("backend 'dask' needs the optional package distributed; install the "
                                     "dask extra: pip install 'stability-harness[dask]'") from None
    return distributed


def _run(function: Callable, tasks: list[tuple], n_jobs: int, backend: str | None) -> Generator[Any, None, None]:
    """Run ``function(*task)`` for every task; results in completion order.

    In-process for ``n_jobs=1`` (without a backend) and the sequential backend; in loky worker
    processes that may die without losing the run (:func:`stability.isolation.run_pool`) for the
    default and loky backends; on the Dask cluster of the active client for ``dask``; through
    joblib otherwise.
    """
    if _in_process(tasks, n_jobs, backend):
        return (function(*task) for task in tasks)
    if backend in (None, "loky"):
        on_crash = ON_CRASH[function]
        return run_pool(function, tasks, n_jobs, lambda task, crash: on_crash(task, crash, n_jobs))
    if backend == "dask":
        return _drain_dask(function, tasks, n_jobs)
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered", batch_size=1)
    return parallel(delayed(function)(*task) for task in tasks)


def _drain_dask(function: Callable, tasks: list[tuple], n_jobs: int) -> Generator[Any, None, None]:
    """Every task submitted to the active ``distributed.Client`` (see
    stability.config.run_experiment), results as they complete; cancelled if not all read.

    Submitted directly rather than through joblib's dask backend, which runs the tasks in this
    process when the cluster has a single worker (it counts one worker as ``n_jobs=1``), where
    the futures of the shipped units (:func:`_scatter_units`) would not be resolved. Each task is
    submitted with the current future of each shipment it carries (:func:`_with_futures`).

    As with loky (:func:`stability.isolation.run_pool`), a task lost with a dead worker (Dask
    gave up on it, ``KilledWorker``, or it was cancelled) is run again alone at the end, and one
    that kills its worker alone is a crash (``ON_CRASH``).
    """
    from distributed import get_client

    client = get_client()
    futures: dict[Any, int] = {}  # submitted, not yet back
    waiting = iter(enumerate(tasks))
    threads, counted_at = 0, -math.inf  # the cluster's worker threads, and when they were counted

    def top_up() -> list[Any]:
        """The tasks submitted to have :data:`_DASK_IN_FLIGHT` a worker thread in flight (threads
        counted again every few seconds: workers join a cluster that grows); the first ranks first."""
        nonlocal threads, counted_at
        if time.monotonic() - counted_at >= _DASK_WORKER_CHECK:
            threads, counted_at = sum(client.nthreads().values()), time.monotonic()
        submitted = []
        for i, task in islice(waiting, max(0, _DASK_IN_FLIGHT * max(n_jobs, threads) - len(futures))):
            future = client.submit(function, *_with_futures(task), pure=False, priority=-i)
            futures[future] = i
            submitted.append(future)
        return submitted

    # A few tasks a worker thread at a time, the first submitted first: pairs then finish in
    # corpus order, as with loky, and are stored as they finish. All submitted at once, each
    # worker ran the tasks it was handed (those whose units it held) in its own order, and pairs
    # finished far out of order: Ctrl-C at 79% of the restarts left 1 of 24 pairs stored.
    lost: list[int] = []
    try:
        for future in _completed(client, top_up(), top_up):
            i = futures.pop(future)
            try:
                result = future.result()
            except Exception as exc:  # noqa: BLE001 - tasks return a segmenter's errors as data
                if not _dask_lost(future):
                    _raise_unloadable(exc)
                    raise
                _raise_disconnected(client, exc)
                lost.append(i)
                continue
            yield result
        yield from rerun_alone([tasks[i] for i in sorted(lost)], lambda task: _dask_alone(function, task, n_jobs),
                               lambda task, crash: ON_CRASH[function](task, crash, n_jobs, alone=_dask_alone))
    finally:
        if futures:
            _say_left_running(client, futures)
            client.cancel(list(futures))


def _say_left_running(client: Any, futures: Iterable[Any]) -> None:
    """As a Dask run stops early (Ctrl-C, an error), say on stderr which workers hold some of its
    ``futures`` (their tasks), on a cluster the run did not start (reached by address: one it
    started is closed with it). They are cancelled, but Dask cannot stop a task already running,
    which keeps its worker's thread until its segmenter returns: after Ctrl-C on a segmenter that
    hangs, for ever, and the next run on that cluster waited on that thread without a word."""
    if client.cluster is not None or client.status != "running":
        return
    keys = {future.key for future in futures}
    workers = sorted(worker for worker, held in client.processing().items() if keys.intersection(held))
    if workers:
        print(f"stability: the run stopped with tasks on the Dask {'worker' if len(workers) == 1 else 'workers'} "
              f"{', '.join(workers)}; they are cancelled, but Dask cannot stop a task already running: it goes on "
              "until its segmenter returns, and keeps its worker's thread busy until then (a segmenter that hangs: for "
              "ever, and later runs wait on that thread); if it does not end, restart the worker "
              f"(Client({client.scheduler.address!r}).restart_workers([...]), or its dask worker command)",
              file=sys.stderr, flush=True)


def _load_problem(data: bytes) -> str | None:
    """On a Dask worker: why ``data``, a segmenter's pickle, does not load there (``None``: it does)."""
    try:
        pickle.loads(data)
    except Exception as exc:  # noqa: BLE001 - said to the run, which stops before any task
        return f"{type(exc).__name__}: {exc}"
    return None


def _raise_unloadable(exc: BaseException) -> None:
    """A task the workers could not even load (a segmenter's module missing on the cluster, so
    the task graph does not deserialize there) as one clear error instead of Dask's traceback;
    nothing for any other error."""
    seen: BaseException | None = exc
    while seen is not None and not isinstance(seen, ImportError):
        seen = seen.__cause__ or seen.__context__
    if seen is not None:
        raise UnknownSegmenterError(
            f"the Dask cluster cannot load the run's tasks ({seen}): every segmenter's module must be "
            "importable on the cluster, its scheduler and every worker (install it there, or start them "
            "with it on their PYTHONPATH); the results finished so far are kept, resume=True goes on") from None


def _raise_disconnected(client: Any, error: BaseException | None = None) -> None:
    """A :class:`~stability.exceptions.ClusterError` when ``client`` has lost its scheduler: it
    gave up reconnecting (closed), or ``error`` (a task's) says the task was cancelled when the
    connection dropped (Dask cancels every future then; run again alone, each waited on a
    scheduler that was gone, and the run hung for ever once the client gave up). Nothing otherwise."""
    if getattr(error, "reason", None) == "scheduler-connection-lost" or client.status in ("closing", "closed"):
        raise ClusterError(
            f"lost the connection to the Dask scheduler at {client.scheduler.address}: it stopped, or the "
            "network to it failed; the results finished so far are kept, resume=True goes on once it runs again")


def _dask_lost(future: Any) -> bool:
    """Whether a Dask task did not end on its own: its worker died (``KilledWorker``), or it was
    cancelled or lost (data it needed was lost with a worker)."""
    from distributed import KilledWorker

    return future.status != "error" or isinstance(future.exception(), KilledWorker)


#: Seconds a Dask run waits while its cluster has no worker at all (they died and none came back,
#: or none ever joined) before it stops with :class:`~stability.exceptions.ClusterError`.
DASK_NO_WORKER_WAIT = 120.0
#: Tasks of a Dask run in flight at a time, per worker thread (one running, one ready to start).
_DASK_IN_FLIGHT = 2
_DASK_POLL = 0.005  # seconds between looks for finished tasks (cheap: a look at a queue)
_DASK_WORKER_CHECK = 2.0  # seconds between asking the scheduler for its workers


def _completed(client: Any, futures: list, more: Callable[[], list[Any]] = list) -> Iterator[Any]:
    """``futures`` as they finish (as ``distributed.as_completed``), with the futures ``more()``
    returns after each, and every few seconds while none finishes; but a cluster left without
    any worker for :data:`DASK_NO_WORKER_WAIT` seconds is an error instead of a wait forever (a
    worker killed by a segmenter over and over, and not restarted by its nanny, left a local
    cluster empty and the run waiting for ever)."""
    from distributed import as_completed

    done = as_completed(futures)
    checked, idle_since = time.monotonic(), None
    while not done.is_empty():
        batch = done.next_batch(block=False)
        if batch:
            for future in batch:
                yield future
                done.update(more())
            continue
        time.sleep(_DASK_POLL)
        now = time.monotonic()
        if now - checked < _DASK_WORKER_CHECK:
            continue
        checked = now
        _raise_disconnected(client)
        done.update(more())  # for workers that joined
        if client.scheduler_info().get("workers"):
            idle_since = None
        elif idle_since is None:
            idle_since = now
            _say_waiting(client)
        elif now - idle_since >= DASK_NO_WORKER_WAIT:
            raise ClusterError(
                f"the Dask cluster has had no worker for {now - idle_since:.0f} s ({done.count()} task(s) waiting): its "
                "workers died and none came back, or none joined; the results finished so far are kept, resume=True "
                "goes on once the cluster has workers")


def _say_waiting(client: Any) -> None:
    """Say, on stderr, that the run waits for a worker to join the cluster of ``client``, and how long at most."""
    address = client.scheduler.address
    print(f"stability: the Dask scheduler at {address} has no worker; waiting up to {DASK_NO_WORKER_WAIT:g} s "
          f"for one to join (start one with: dask worker {address})", file=sys.stderr, flush=True)


def _await_worker(client: Any) -> None:
    """Return once the cluster of ``client`` has a worker (said, and waited for up to
    :data:`DASK_NO_WORKER_WAIT` seconds, when it has none yet), else a :class:`~stability.exceptions.ClusterError`."""
    if client.scheduler_info().get("workers"):
        return
    _say_waiting(client)
    try:
        client.wait_for_workers(1, timeout=DASK_NO_WORKER_WAIT)
    except TimeoutError:
        raise ClusterError(
            f"no worker joined the Dask scheduler at {client.scheduler.address} in {DASK_NO_WORKER_WAIT:g} s: start "
            "workers (dask worker ADDRESS), then run again; nothing was run") from None


#: How many times in a row a shipment (:class:`_Shipped`) the cluster gave up on is shipped again.
_DASK_RESHIPS = 3


def _dask_alone(function: Callable, task: tuple, n_jobs: int) -> Any:
    """``function(*task)`` on the Dask cluster with nothing else submitted; raises
    :class:`WorkerCrash` if its worker dies (as :func:`stability.isolation.submit_alone`).

    A task whose document's units, or segmenter, the cluster gave up on (a segmenter killed the
    worker that was making them) is no crash of its own: it runs again with them shipped again
    (:meth:`_Shipped.current`). Each try after the first ships one of its shipments again, and
    each is shipped again at most :data:`_DASK_RESHIPS` times in a row; the tries are bounded
    all the same (a shipment made again, then lost with the worker running the task each time,
    would start its count anew), at :data:`_DASK_RESHIPS` per shipment, after which the task is a
    crash.
    """
    from distributed import get_client

    client = get_client()
    shipments = {id(shipped): shipped for shipped in _shipments(task)}
    for _ in range(_DASK_RESHIPS * len(shipments) + 1):
        future = client.submit(function, *_with_futures(task), pure=False)
        for _ in _completed(client, [future]):
            pass
        try:
            return future.result()
        except Exception as exc:  # noqa: BLE001 - tasks return a segmenter's errors as data
            error = exc
        if not _dask_lost(future):
            raise future.exception()
        _raise_disconnected(client, error)
        if not any(shipped.ships_again() for shipped in shipments.values()):
            break
    raise WorkerCrash("the worker process running the segmenter died")


def _submitted(function: Callable, *args: Any) -> Any:
    """``function(*args)`` submitted to the active client, as a task of its own."""
    from distributed import get_client

    return get_client().submit(function, *args, pure=False)


class _Shipped:
    """Something sent to the Dask cluster once for all the tasks that need it: a document's units
    (:func:`_scatter_units`) or a segmenter holding a model (:func:`_ship_segmenter`).

    It is the result of a task of its own, whose argument (a pickle) the scheduler keeps to make
    it again when a worker dies with it. The engine's tasks carry this object, and each is
    submitted with :attr:`future` in its place (:func:`_with_futures`): the one future that
    stands for it now. When the cluster gave that future up (a worker died while making it, or
    it was cancelled), ``again()`` sends it again, and every task submitted after, of this round
    or a later one, carries the new future; at most :data:`_DASK_RESHIPS` times in a row, so that
    one whose every making kills its worker (a model that cannot load there) does not kill that
    many workers for each task that needs it.

    Parameters
    ----------
    future : distributed.Future
        The future of the task that made it first.
    again : callable
        Submits that task again and returns its future.
    """

    __slots__ = ("future", "_ship", "_again")

    def __init__(self, future: Any, again: Callable[[], Any]) -> None:
        self.future = future
        self._ship = again
        self._again = 0  # times shipped again since its future was last seen with its value

    def _lost(self) -> bool:
        """Whether its future ended without its value (given up by the cluster, or cancelled)."""
        return self.future.status != "finished" and self.future.done()

    def ships_again(self) -> bool:
        """Whether its future was lost and :meth:`current` will ship it again."""
        return self._lost() and self._again < _DASK_RESHIPS

    def current(self) -> Any:
        """The future a task that needs it is submitted with, shipped again first when lost
        (:meth:`ships_again`)."""
        if self.future.status == "finished":
            self._again = 0
        elif self.ships_again():
            self._again += 1
            self.future = self._ship()
        return self.future


def _shipments(item: Any) -> list[_Shipped]:
    """The shipments in ``item``: a task, or a tuple or list in one (a segmenter's is in each
    chunk of a task of restarts, a task of a batch is in its list)."""
    if isinstance(item, _Shipped):
        return [item]
    if isinstance(item, (tuple, list)):
        return [shipped for inner in item for shipped in _shipments(inner)]
    return []


def _with_futures(item: Any) -> Any:
    """``item`` (as in :func:`_shipments`) as it is submitted: each shipment in it replaced by its
    current future (:meth:`_Shipped.current`), which Dask resolves to its value in the worker."""
    if isinstance(item, _Shipped):
        return item.current()
    if isinstance(item, (tuple, list)):
        inner = [_with_futures(one) for one in item]
        if any(new is not old for new, old in zip(inner, item)):
            return type(item)(inner)
    return item


class _ShippedUnits(tuple):
    """A document's units sent to a Dask cluster as one pickle (dask serializes a plain tuple
    item by item: 2 s instead of 0.05 s for 20,000 units)."""

    __slots__ = ()


def _scatter_units(pairs: list[Pair]) -> dict[int, _Shipped]:
    """Every pair's units sent to the Dask cluster once, as shipments (:class:`_Shipped`) that
    its tasks carry instead; pairs whose documents hold the same units (one document's
    segmenters, or two copies of a document) share one shipment.

    joblib's dask backend scatters an argument by itself only when it can be weakly referenced
    (a tuple of units cannot), so without this each chunk of restarts would send its document
    again; a future is resolved to the units on the worker. They go to one worker, the others
    fetch them from it when they need them (a broadcast would send every document to every
    worker). One 20,000-unit document, 100 restarts and the shuffle control of ``even`` on two
    local workers, ``n_jobs=8``: 1.0-1.7 s instead of 3.2-4.4 s (load 3.5-8 on 2 cores).

    Each is the result of a task that unpickles the units (one pickle: the task's only argument),
    not scattered data: when a segmenter kills the worker that holds them, the scheduler makes
    them again from the task instead of cancelling every task that needs them. A segmenter
    holding a model goes the same way (:func:`_ship_segmenter`).
    """
    get_client = import_distributed().get_client
    if not pairs:
        return {}
    try:
        get_client()
    except ValueError:
        raise InvalidParameterError(
            "backend 'dask' runs inside a distributed.Client: create one first (or run a config "
            "with backend = 'dask', which starts or joins a cluster)") from None
    shipped: dict[int, _Shipped] = {}
    by_units: dict[tuple[str, ...], _Shipped] = {}  # a document read by several segmenters: shipped once
    for i, pair in enumerate(pairs):
        if pair.doc.units not in by_units:
            ship = partial(_submitted, pickle.loads, pickle.dumps(_ShippedUnits(pair.doc.units)))
            by_units[pair.doc.units] = _Shipped(ship(), ship)
        shipped[i] = by_units[pair.doc.units]
    return shipped


#: What a graph that ships a segmenter's pickle may hold beside it before Dask's own warning of a
#: large graph (its default threshold, 10 MB) is said.
_GRAPH_BESIDE = 10 << 20


def _ship_segmenter(data: bytes, guarded: Guarded) -> _Shipped:
    """A segmenter whose pickle is ``data`` (:func:`~stability.segmenter.pickled`, a large one:
    :func:`~stability.isolation.ships_once`) sent to the Dask cluster once, as a shipment
    (:class:`_Shipped`) that the tasks carry instead of it; each worker reads it once
    (:func:`~stability.isolation.unpickled_once`).

    As a document's units (:func:`_scatter_units`), the result of a task whose argument is the
    pickle; to ship it again, the segmenter is pickled again rather than a second copy of its
    pickle kept in this process."""
    import dask.config

    digest = digest_of(data)

    def submitted(data: bytes) -> Any:
        # Dask warns of a graph over 10 MB ("embed the data into the graph without repetition",
        # which this is: once, the tasks carry its future); said at each run of a model, it is noise
        with dask.config.set({"distributed.admin.large-graph-warning-threshold": len(data) + _GRAPH_BESIDE}):
            return _submitted(unpickled_once, data, digest, guarded.timeout)

    def again() -> Any:
        fresh, problem = pickled(guarded.segmenter)
        assert fresh is not None, problem  # it pickled when the run began
        return submitted(fresh)

    return _Shipped(submitted(data), again)


def _chunks(restarts: range, n_chunks: int) -> list[range]:
    n_chunks = max(1, min(n_chunks, len(restarts)))
    edges = np.linspace(restarts.start, restarts.stop, n_chunks + 1).round().astype(int)
    return [range(int(a), int(b)) for a, b in zip(edges, edges[1:]) if b > a]


#: Seconds between two plain progress lines (progress asked for where stderr is no terminal).
LINE_EVERY = 10.0
#: Seconds between two rewrites of the one progress line of a notebook.
NOTEBOOK_EVERY = 1.0


class Progress:
    """A rich progress bar of restarts on stderr; by default only when stderr is a terminal
    (:func:`stability.status.shown`) or a notebook's (:func:`stability.status.in_notebook`). Beside
    the bar: the phase (first segmentations, then restarts), restarts per second, the (segmenter,
    document) pairs finished of those known so far, and the time left. Where stderr is no terminal
    it is plain text: in a notebook one line, rewritten every :data:`NOTEBOOK_EVERY` seconds;
    elsewhere (a CI log, when asked for) a new line every :data:`LINE_EVERY` seconds, written by a
    thread of its own while nothing advances (a corpus read before its first document, one long
    segmenter call), so that a CI service's no-output timeout never takes the run for a hung job."""

    def __init__(self, show: bool | None, description: str = "restarts") -> None:
        from .status import in_notebook, shown

        self._bar = None
        self._description = description
        self._pairs = [0, 0]  # finished, known
        #: a notebook's stderr: one line, rewritten after a carriage return
        self._notebook = in_notebook()
        #: asked for where stderr is no terminal (a CI log), or a notebook's: plain text
        self._lines = (bool(show) or (show is None and self._notebook)) and not sys.stderr.isatty()
        self._counts = [0, 0]  # restarts done, total
        self._clock = [time.monotonic()] * 2  # started, last line
        self._printing = threading.Lock()  # the heartbeat's line and advance()'s are one at a time
        self._stop = threading.Event()
        self._heartbeat: threading.Thread | None = None
        if self._lines and not self._notebook:
            self._heartbeat = threading.Thread(target=self._beat, name="stability-progress", daemon=True)
            self._heartbeat.start()
        if shown(show) and not self._lines:
            from rich.console import Console
            from rich.markup import escape
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._escape = escape
            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TextColumn("{task.fields[pairs]}"),
                TimeRemainingColumn(),
                console=Console(stderr=True, emoji=False),
                transient=True,
            )
            self._bar.start()
            # a label is not markup
            self._task = self._bar.add_task(escape(description), total=0, rate="", pairs="")
            self._total = 0

    def add_total(self, amount: int) -> None:
        self._counts[1] += amount
        if self._bar is not None:
            self._total += amount
            self._bar.update(self._task, total=self._total)

    def advance(self, amount: int) -> None:
        self._counts[0] += amount
        if self._lines:
            self._line_if_due()
        if self._bar is not None and amount:
            self._bar.advance(self._task, amount)
            speed = self._bar.tasks[0].speed
            if speed:
                self._bar.update(self._task, rate=f"{speed:,.0f}/s")

    def phase(self, name: str | None) -> None:
        """Show ``name`` as what runs now (None: back to the bar's own description)."""
        if self._bar is not None:
            self._bar.update(self._task, description=self._escape(name or self._description))

    def add_pairs(self, amount: int) -> None:
        self._pairs[1] += amount
        self._show_pairs()

    def pair_done(self) -> None:
        self._pairs[0] += 1
        self._show_pairs()

    def _show_pairs(self) -> None:
        if self._bar is not None and self._pairs[1] > 1:
            self._bar.update(self._task, pairs=f"pairs {self._pairs[0]}/{self._pairs[1]}")

    def _line_if_due(self) -> None:
        with self._printing:
            if self._lines and time.monotonic() - self._clock[1] >= (NOTEBOOK_EVERY if self._notebook else LINE_EVERY):
                self._line()

    def _beat(self) -> None:
        """The heartbeat thread: a line whenever :data:`LINE_EVERY` seconds passed without one."""
        while not self._stop.wait(max(LINE_EVERY / 4, 0.01)):
            self._line_if_due()

    def _line(self, end: str = "") -> None:
        """One plain progress line on stderr: restarts done of the total, pairs, rate, time."""
        now = time.monotonic()
        self._clock[1] = now
        done, total = self._counts
        elapsed = now - self._clock[0]
        share = f" ({done / total:.0%})" if total else ""
        pairs = f", pairs {self._pairs[0]}/{self._pairs[1]}" if self._pairs[1] > 1 else ""
        rate = f", {done / elapsed:,.0f}/s" if elapsed > 0 and done else ""
        text = f"{self._description} {done:,}/{total:,}{share}{pairs}{rate}, {elapsed:.0f} s{end}"
        if self._notebook:  # the line written again in place; a new line once done
            print(f"\r{text}", end="\n" if end else "", file=sys.stderr, flush=True)
        else:
            print(text, file=sys.stderr, flush=True)

    def close(self, finished: bool = True) -> None:
        """Remove the bar, or write the last plain line: ``done``, or ``stopped`` when the work
        did not finish (an interrupt, an error)."""
        self._stop.set()
        if self._heartbeat is not None:
            self._heartbeat.join()
        if self._lines:
            self._line(", done" if finished else ", stopped")
            self._lines = False
        if self._bar is not None:
            self._bar.stop()


# ----------------------------------------------------------------------------------------------
# the engine
# ----------------------------------------------------------------------------------------------
_Work = tuple[int, Stream, range]  # (pair index, stream, restarts)
#: Finished pairs whose results one worker task computes (several jobs): fewer tasks for the main
#: process to hand out, while a result waits for at most this many pairs.
_SCORE_BATCH = 4
#: At most this many families' restarts in one worker task (several jobs, many families): fewer
#: tasks for the main process, while what an interrupt loses and the progress steps stay small.
_RESTART_BATCH = 8


def _failure_order(failure: Failure) -> tuple[int, ...]:
    if failure.restart is None or failure.stream is None:  # a restart's failure names its stream
        return (0,)
    return (1, list(STREAM_NAMES.values()).index(failure.stream), failure.restart)


def _flattened(batches: Generator[list[Any], None, None]) -> Generator[Any, None, None]:
    """The items of each list ``batches`` yields; closing this closes ``batches`` (the pool's
    generator, which then stops its workers)."""
    with closing(batches):
        for batch in batches:
            yield from batch


def _batches(tasks: list[tuple], size: int) -> list[tuple[list[tuple]]]:
    """``tasks`` cut into batches of ``size``, each the one argument of a batch task."""
    return [(tasks[k:k + size],) for k in range(0, len(tasks), size)]


def _no_op(index: int) -> None:
    return None


def _families(pairs: list[Pair], todo: list[_Work]) -> list[list[_Work]]:
    """``todo`` cut into families whose chunks share one prepared state: the streams of one pair,
    and the work of pairs with the same document and prepare key (the layout stream, which does
    not prepare, stays alone). Fewer, larger tasks also cost the main process less."""
    families: dict[Hashable, list[_Work]] = {}
    for work in todo:
        i, stream, _ = work
        pair = pairs[i]
        if stream == Stream.LAYOUT:
            key: Hashable = ("layout", i)
        else:
            key = ("pair", i) if pair.share is None else (id(pair.doc), pair.share)
        families.setdefault(key, []).append(work)
    return list(families.values())


class Shipment:
    """How a run's segmenters reach worker processes, shared by the engines of its blocks: whether
    each pickles (:func:`~stability.segmenter.pickled`) and what the tasks carry for it: a big
    one is sent once, with the pickle of that check (:func:`~stability.isolation.ship_once`: a
    file in a folder of the run's, removed by :meth:`close`, for loky's workers;
    :func:`_ship_segmenter`: a shipment, for a Dask cluster's). Each is found once per segmenter
    object; the objects the run lasts with (:meth:`keep`) stay known from block to block, a copy
    made for one document (``n_segments = "reference"``) only while its pairs run."""

    def __init__(self) -> None:
        self.lasting: dict[int, tuple[Any, dict[str, Any]]] = {}  # id -> (the object, what is known of it)
        self._folder: str | None = None

    def keep(self, segmenters: Iterable[Any]) -> None:
        """Know these objects for the whole run (they live as long)."""
        for segmenter in segmenters:
            self.lasting.setdefault(id(segmenter), (segmenter, {}))

    def lasts(self, segmenter: Any) -> bool:
        """Whether ``segmenter`` is one of the objects the run lasts with (:meth:`keep`)."""
        entry = self.lasting.get(id(segmenter))
        return entry is not None and entry[0] is segmenter

    def known(self, segmenter: Any, local: dict[int, dict[str, Any]]) -> dict[str, Any]:
        """What is known of ``segmenter``: the run's entry when it lasts, else ``local``'s."""
        if self.lasts(segmenter):
            return self.lasting[id(segmenter)][1]
        return local.setdefault(id(segmenter), {})

    def folder(self) -> str:
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="stability-segmenters-")
        return self._folder

    def close(self) -> None:
        for _, known in self.lasting.values():
            known.pop("shipped", None)  # its file goes with the folder; its shipment, with the cluster's copy
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


#: What the terms check found for one (segmenter, document) pair: its label, the document's id
#: and :func:`~stability.segmenter.terms_problem`'s finding there (or, from a resume, that the
#: terms could not be read again: ``stability.runner._rechecked``).
Finding = tuple[str, "str | None", tuple[str, str, bool]]

#: What an engine hands what the terms check found in its pairs to (:attr:`Engine.on_terms`): a
#: list of (pair index, :func:`~stability.segmenter.terms_problem`'s finding), in pair order.
OnTerms = Callable[[list[tuple[int, tuple[str, str, bool]]]], None]


def warn_terms(findings: Iterable[Finding], warned: set[tuple[str, str]]) -> None:
    """Warn, once per segmenter and kind of problem (``warned`` holds those already said, and
    gets these), when it sees next to nothing of a document's units, or when its English stopword
    list holds too few of the document's words, or (kind ``"unread"``, found by a resume only) when
    its terms could not be read again. ``findings`` are in pair order (the corpus's); the
    first of each segmenter is named, with how many other documents read with it have the same
    problem (in a corpus of several languages, the Chinese documents on which a segmenter sees no
    term are not hidden behind a German one warned about first).

    Said after the first segmentations: by the engine (:meth:`Engine._warn_terms`), or by a corpus
    run for what its engines found together with what it found in the pairs it reuses (checked
    again: ``stability.runner._rechecked``), in corpus order, so that a resumed run, even one
    with nothing left to compute, says what a fresh run says."""
    by_kind: dict[tuple[str, str], list[tuple[str | None, str]]] = {}
    for label, doc_id, (kind, problem, _) in findings:
        by_kind.setdefault((label, kind), []).append((doc_id, problem))
    for (label, kind), found in by_kind.items():
        if (label, kind) in warned:
            continue
        warned.add((label, kind))
        doc_id, problem = found[0]
        where = f"{label} on document {doc_id!r}" if doc_id else label  # stability_test's: no id
        others = [other for other, _ in found[1:]]
        also = (f" (the same on {len(others)} more document(s): {first_few(others)})") if others else ""
        if kind == "terms":
            warn(f"{where}: {problem}{also}, so its boundaries say little about the content (they can follow "
                 "the units' lengths, which the shuffle control does not catch: the layout control does); where "
                 f"under {TERM_BLIND_LINKED:.0%} of its units share a term, the results mark the document "
                 "term-blind, with a headline of 0 there; "
                 "is its preprocessing set for the document's language (tokenizer, stopwords, stem: README, "
                 "'Documents not in English')? Said once per segmenter", SegmenterWarning)
        elif kind == "unread":
            warn(f"{where}: its terms could not be read again to check what a fresh run checks ({problem}){also}; "
                 "what the results file holds for it is reused as it is. Said once per segmenter", SegmenterWarning)
        else:
            warn(f"{where}: {problem} (English prose: a third to a half){also}, so the document is likely not "
                 "English prose: another language, whose function words the segmenter then compares as terms, "
                 "or lists of terms rather than sentences (then nothing needs changing); for another language "
                 "set its stopwords (for German stopwords=\"nltk:german\", or a list of words) and, where it "
                 "stems, its stemmer (for German stem=\"german\"): README, 'Documents not in English'. Said "
                 "once per segmenter",
                 SegmenterWarning)


class Engine:
    """Runs pairs to completion with one :class:`~stability.settings.Settings`."""

    def __init__(self, settings: Settings, progress: Progress, on_call: OnCall | None = None,
                 shipment: Shipment | None = None, on_terms: OnTerms | None = None) -> None:
        self.settings = settings
        #: How the segmenters reach the workers, shared by the engines of a corpus run (which
        #: closes it); an engine's own otherwise, closed at the end of :meth:`run`.
        self.shipment = Shipment() if shipment is None else shipment
        self._own_shipment = shipment is None
        #: (segmenter label, kind of problem) already warned about (:meth:`_warn_terms`).
        self.warned: set[tuple[str, str]] = set()
        #: Takes what the terms check found in this engine's pairs instead of the engine warning
        #: about it (:meth:`_warn_terms`): a corpus run says it with what it found in the pairs it
        #: reuses, in corpus order, once a run.
        self.on_terms = on_terms
        self.n_jobs = settings.effective_jobs()
        self.progress = progress
        #: Results computed in the worker processes (several jobs, process pool), else in this one.
        self.offload = self.n_jobs > 1 and settings.backend in (None, "loky")
        self.on_call = on_call
        self._shipped: dict[int, _Shipped] = {}  # pair index -> its units shipped to a Dask cluster
        self._known: dict[int, dict[str, Any]] = {}  # of this engine's segmenters the run does not last with

    def _execute(self, function: Callable, tasks: list[tuple]) -> Generator[Any, None, None]:
        """:func:`_run`; in-process, ``on_call`` first learns which pair, stream and restarts each
        task is about to run (a segmenter that ends the process leaves that behind)."""
        s = self.settings
        if self.on_call is None or not _in_process(tasks, self.n_jobs, s.backend):
            return _run(function, tasks, self.n_jobs, s.backend)
        return self._announced(function, tasks)

    def _batch_size(self, tasks: list[tuple]) -> int:
        """How many of ``tasks`` one worker task holds to make about four tasks a job."""
        return max(1, math.ceil(len(tasks) / (4 * self.n_jobs)))

    def _announced(self, function: Callable, tasks: list[tuple]) -> Generator[Any, None, None]:
        on_call = self.on_call
        assert on_call is not None  # _execute announces the tasks only to an on_call

        def announce_chunk(chunk: Chunk) -> None:
            on_call(chunk[0], STREAM_NAMES[chunk[1]], chunk[-1])

        for task in tasks:
            if function is initial_task:
                on_call(task[0], None, None)
                yield function(*task)
            else:  # a task of chunks: each announced before it runs
                yield function(*task, announce=announce_chunk)

    def run(self, pairs: list[Pair], on_done: Callable[[int], None] = _no_op) -> None:
        """Evaluate ``pairs``; ``on_done(i)`` is called as soon as ``pairs[i]`` is finished.

        SIGINT, SIGTERM and SIGHUP interrupt it with ``KeyboardInterrupt`` (worker processes killed); a
        segmenter's own escapes, timeouts and crashes are the pair's failure
        (:mod:`stability.isolation`).
        """
        with interruptible():
            self._run_pairs(pairs, on_done)

    def _run_pairs(self, pairs: list[Pair], on_done: Callable[[int], None]) -> None:
        self._shipped = _scatter_units(pairs) if self.settings.backend == "dask" else {}
        if self.settings.backend == "dask":
            self._check_cluster_loads(pairs)

        def done(index: int) -> None:
            self._shipped.pop(index, None)  # once no pair of this engine holds its shipment, the cluster may forget it
            on_done(index)

        try:
            self._run_rounds(pairs, done)
        finally:
            self._shipped.clear()
            self._known.clear()
            if self._own_shipment:
                self.shipment.close()

    def _check_cluster_loads(self, pairs: list[Pair]) -> None:
        """On a Dask cluster, before any task: every segmenter of ``pairs`` loads on every worker
        (once per segmenter a run), else an :class:`~stability.exceptions.UnknownSegmenterError`
        naming it, the worker, the error and what to do. A worker without a plugin's module
        failed the run at that segmenter's first task, after the others' work had started, and
        their pairs with it (on a local cluster, it killed the workers). What an object holds
        beyond its class is left to the check of each task (:func:`_raise_unloadable`)."""
        from distributed import get_client

        if not pairs:
            return
        client = get_client()
        _await_worker(client)  # a check on no worker at all would pass
        for pair in pairs:
            known = self.shipment.known(pair.segmenter, self._known)
            if known.get("loads"):
                continue
            segmenter = pair.segmenter
            # a function or class is sent by reference (its module's name); an object, by its class, not whole (a model)
            data, _ = pickled(segmenter if isinstance(segmenter, (type, FunctionType)) else type(segmenter))
            if data is None:  # a failure of each of its pairs (_unsendable)
                continue
            # a worker that is gone (died, its nanny starting another) is no problem of the segmenter's
            answers = client.run(_load_problem, data, on_error="ignore")
            problems = {worker: problem for worker, problem in answers.items() if problem}
            if problems:
                worker, problem = min(problems.items())
                raise UnknownSegmenterError(
                    f"segmenter {pair.label!r} cannot be loaded on the Dask cluster ({problem}, on "
                    f"{counted(len(problems), 'worker')} of {len(answers)}, e.g. {worker}): install the "
                    "package that provides it on every worker (or start them with its module on their PYTHONPATH), "
                    "then run again; nothing was run") from None
            known["loads"] = True

    def _carry(self, guarded: Guarded) -> Any:
        """What the tasks carry for a pair's (guarded) segmenter: itself, or when its pickle is
        big (a model), in loky's worker processes a handle each worker reads it from once
        (:func:`~stability.isolation.ship_once`), on a Dask cluster its shipment
        (:func:`_ship_segmenter`); sent once per segmenter object, whatever its pairs, with the
        pickle the pickling check made (:meth:`_unsendable`)."""
        dask = self.settings.backend == "dask"
        if not (self.offload or dask):
            return guarded
        segmenter = guarded.segmenter
        known = self.shipment.known(segmenter, self._known)
        if not known.get("big"):
            return guarded
        if "shipped" not in known:
            data = known.pop("pickle", None)
            if data is None:  # checked by an engine that did not ship it (a block of one job)
                data, problem = pickled(segmenter)
                assert data is not None, problem  # it pickled then
            known["shipped"] = (_ship_segmenter(data, guarded) if dask
                                else ship_once(data, self.shipment.folder))
        if dask:
            return known["shipped"]
        return Guarded(known["shipped"], guarded.timeout)  # made again around the segmenter in the worker

    def _units(self, index: int, pair: Pair) -> Any:
        """The units of ``pair`` as its tasks carry them (their shipment with dask: :class:`_Shipped`)."""
        return self._shipped.get(index, pair.doc.units)

    def _run_rounds(self, pairs: list[Pair], on_done: Callable[[int], None]) -> None:
        self._initial(pairs, on_done)
        first = self.settings.first_round()
        todo: list[_Work] = []
        for i, pair in enumerate(pairs):
            if pair.error is None:
                pair.streams = {s: _StreamState([None] * first, first) for s in self.settings.streams}
                todo.extend((i, s, range(0, first)) for s in pair.streams)
        while todo:
            todo = self._round(pairs, todo, on_done)

    def _fail(self, pair: Pair, problem: dict[str, Any]) -> None:
        """Record the pair's failure; of several (chunks failing in parallel), the first in
        (initial, then stream, then restart) order, so the record does not depend on ``n_jobs``."""
        failure = Failure(pair.label, pair.doc.id, seed=self.settings.seed, **problem)
        if pair.error is None or _failure_order(failure) < _failure_order(pair.error):
            pair.error = failure

    def _initial(self, pairs: list[Pair], on_done: Callable[[int], None]) -> None:
        s = self.settings
        tasks = []
        for i, pair in enumerate(pairs):
            try:
                resolved = for_document(pair.segmenter, pair.doc)
                pair.resolved_params = resolved_params(pair.segmenter, resolved)
                pair.share = prepare_key(resolved)
                pair.resolved = guarded = Guarded(resolved, s.timeout)
                problem = self._unsendable(resolved)
            except Exception as exc:
                problem = describe(exc)
            if problem is not None:
                self._fail(pair, {"restart": None, "kind": "exception", "error": problem})
                self.progress.advance(s.restart_budget())
                on_done(i)
                continue
            # every pair is judged (terms_problem): the warnings name each segmenter's documents by kind
            tasks.append((i, self._carry(guarded), self._units(i, pair), s.determinism_check))
        self.progress.phase(f"first segmentations ({len(tasks)})")
        if self.offload:  # worker processes: a few pairs a task, about four tasks a job
            results = _flattened(self._execute(initial_batch, _batches(tasks, self._batch_size(tasks))))
        else:
            results = self._execute(initial_task, tasks)
        with closing(results):
            self._initial_results(pairs, results, on_done)
        self.progress.phase(None)

    def _warn_terms(self, pairs: list[Pair], found: dict[int, tuple[str, str, bool]]) -> None:
        """:func:`warn_terms` for what the workers found in this engine's pairs (``found`` maps a
        pair's index to :func:`~stability.segmenter.terms_problem`'s finding), in pair order
        whatever order the workers finished in; handed to :attr:`on_terms` instead when there is one."""
        ordered = [(i, found[i]) for i in sorted(found)]
        if self.on_terms is not None:
            self.on_terms(ordered)
        else:
            warn_terms([(pairs[i].label, pairs[i].doc.id, terms) for i, terms in ordered], self.warned)

    def _unsendable(self, segmenter: Any) -> str | None:
        """Why ``segmenter`` cannot go to this run's worker processes (it does not pickle), once
        per segmenter object (:class:`Shipment`); ``None`` when it can, or when the run has no
        worker processes. A big pickle is kept for :meth:`_carry`, which sends it."""
        s = self.settings
        if s.backend in ("threading", "sequential") or (self.n_jobs == 1 and s.backend is None):
            return None
        known = self.shipment.known(segmenter, self._known)
        if "problem" not in known:
            data, problem = pickled(segmenter)
            known["problem"] = None if problem is None else (
                f"the segmenter cannot be sent to the worker processes (backend {s.backend or 'loky'}, "
                f"n_jobs {s.n_jobs}): pickling it fails with {problem}; run it in this process "
                "(n_jobs = 1 without a backend) or in threads (backend = 'threading'), or make it picklable")
            known["big"] = data is not None and ships_once(data)
            if known["big"] and (self.offload or s.backend == "dask"):
                known["pickle"] = data  # sent once by _carry, not pickled again
        return known["problem"]

    def _initial_results(self, pairs: list[Pair], results: Iterator[Any], on_done: Callable[[int], None]) -> None:
        s = self.settings
        found: dict[int, tuple[str, str, bool]] = {}
        for i, first, second, problem, terms in results:
            pair = pairs[i]
            if problem is not None:
                self._fail(pair, problem)
                self.progress.advance(s.restart_budget())
                on_done(i)
            else:
                pair.initial, pair.second = first, second
                if terms is not None:
                    found[i] = terms
                    pair.term_blind = terms[1] if terms[2] else None
        self._warn_terms(pairs, found)

    def _round(self, pairs: list[Pair], todo: list[_Work], on_done: Callable[[int], None]) -> list[_Work]:
        """Run one round of restarts; returns the next round's work, in pair order.

        The work of pairs that share prepared state (same document, same prepare key) forms one
        family; the ``j``-th chunks of a family's streams go in one task, which prepares the
        document once for all of them.
        """
        s = self.settings
        families = _families(pairs, todo)
        per_item = 1 if self.n_jobs == 1 else max(1, math.ceil(4 * self.n_jobs / len(families)))
        tasks: list[Any] = []
        for family in families:
            groups: dict[int, list[Chunk]] = {}
            for i, stream, restarts in family:
                pair = pairs[i]
                assert pair.resolved is not None  # resolved with its first segmentation
                for j, chunk in enumerate(_chunks(restarts, min(per_item, max(1, len(restarts) // 5)))):
                    groups.setdefault(j, []).append((i, stream, self._carry(pair.resolved), _first(pair), s.seed,
                                                     pair.key, chunk))
                    pair.outstanding += 1
            first = family[0][0]
            tasks.extend((self._units(first, pairs[first]), chunks) for chunks in groups.values())
        function: Callable = restart_task
        if self.offload and per_item == 1:  # many families: a few in a task, fewer tasks to hand out
            size = min(_RESTART_BATCH, self._batch_size(tasks))
            if size > 1:
                function, tasks = restart_batch, _batches(tasks, size)
        scoring: dict[Any, tuple] = {}  # results being computed in the workers: future -> task
        with closing(self._execute(function, tasks)) as results:
            following = self._restart_results(pairs, (r for task in results for r in task), on_done, scoring)
        self._collect(pairs, scoring, on_done, wait=True)
        return following

    def _restart_results(self, pairs: list[Pair], results: Iterator[Any], on_done: Callable[[int], None],
                         scoring: dict[Any, tuple]) -> list[_Work]:
        following: list[_Work] = []
        ready: list[int] = []  # finished pairs not yet handed to a worker
        for i, stream, chunk, boundaries, problem in results:
            pair = pairs[i]
            state = pair.streams[stream]
            for r, b in zip(chunk, boundaries):
                state.boundaries[r] = b
            self.progress.advance(len(boundaries))
            if problem is not None:
                self._fail(pair, {**problem, "stream": STREAM_NAMES[stream]})
            pair.outstanding -= 1
            if pair.outstanding == 0:
                more = self._advance(pair)
                following.extend((i, stream, restarts) for stream, restarts in more)
                if more:
                    continue
                pair.complete = True
                if self.offload and pair.error is None:
                    ready.append(i)
                else:
                    on_done(i)
            if len(ready) >= _SCORE_BATCH:
                self._submit(pairs, ready, scoring)
            self._collect(pairs, scoring, on_done)
        self._submit(pairs, ready, scoring)
        return sorted(following, key=lambda work: (work[0], int(work[1])))

    def _advance(self, pair: Pair) -> list[tuple[Stream, range]]:
        """The restarts ``pair`` still needs once its round is back (none: it is finished)."""
        if pair.error is not None:
            return []
        s = self.settings
        joint = s.ci_width is not None and s.ci_score == "headline"
        headline_precise = joint and self._headline_precise(pair)
        more = []
        for stream, state in pair.streams.items():
            if state.done:
                continue
            if state.target >= s.n_restarts:
                state.done = True
                continue
            if s.ci_width is not None:
                if joint and stream in _HEADLINE_STREAMS:
                    precise = headline_precise
                else:
                    counts = restart_precision_recall(_first(pair), _back(state.boundaries), s.tolerance)
                    low, high = f1_interval(s, pair.key, stream, counts, check=True)
                    precise = high - low <= s.ci_width
                if precise:
                    state.done = state.stopped_early = True
                    self.progress.advance(s.n_restarts - state.target)
                    continue
            step = min(s.check_every, s.n_restarts - state.target)
            more.append((stream, range(state.target, state.target + step)))
            state.boundaries.extend([None] * step)
            state.target += step
        return more

    def _headline_precise(self, pair: Pair) -> bool:
        """Adaptive stopping on the headline (``ci_score = "headline"``): whether the interval of
        the document's headline from the restarts so far is at most ``ci_width`` wide (the test
        and the shuffle control then stop together). It pairs the replicates of the two streams'
        F1 checks (each check has its own random stream), so the decision depends only on the
        seed and the restarts. On a document the segmenter is term-blind on, the headline is 0
        whatever the restarts (:attr:`~stability.results.StabilityResult.term_blind`): precise."""
        s = self.settings
        within, shuffle = (pair.streams[stream] for stream in _HEADLINE_STREAMS)
        if within.done or shuffle.done:
            return False
        low, high = restarts_headline_interval(s.seed, pair.key, _first(pair), pair.doc.n_units, s.tolerance,
                                               _back(within.boundaries), _back(shuffle.boundaries), s.confidence,
                                               s.n_bootstrap, check=True, term_blind=pair.term_blind is not None)
        assert s.ci_width is not None  # asked for with adaptive stopping only
        return high - low <= s.ci_width

    # -- results ------------------------------------------------------------------------------
    def result(self, pair: Pair) -> StabilityResult:
        """The :class:`~stability.results.StabilityResult` of a finished pair without error
        (computed in a worker when the engine runs several, else here)."""
        if pair.result is not None:
            return pair.result
        return stability_result(self.settings, _finished(pair))

    def _submit(self, pairs: list[Pair], ready: list[int], scoring: dict[Any, tuple]) -> None:
        """Hand the results of the finished pairs ``ready`` to a worker, in one task."""
        if ready:
            task = (self.settings, [(i, _finished(pairs[i])) for i in ready])
            scoring[submit(score_task, task, self.n_jobs)] = task
            ready.clear()

    def _collect(self, pairs: list[Pair], scoring: dict[Any, tuple], on_done: Callable[[int], None],
                 wait: bool = False) -> None:
        """Take the results the workers have computed (``wait``: all of them, waiting) and say
        each pair is done; a result whose worker died (a segmenter killed it in another task)
        is computed here instead."""
        for future in [f for f in scoring if wait or f.done()]:
            task = scoring.pop(future)
            batch, crashed = result_or_crash(future)
            for i, result in score_task(*task) if crashed else batch:
                pairs[i].result = result
                on_done(i)
