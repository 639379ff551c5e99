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
   about 0.3 ms of IPC here), each chunk ships the document once, builds its permutations from
   keyed seeds (:mod:`stability.permutations`), runs the segmenter (all the chunk's orders at once
   through its batched path, else through its fast path, else plain calls) and returns the raw
   boundaries. Results come back with
   ``return_as="generator_unordered"`` and are put back in place by their keys, so the outcome is
   bit-identical for any ``n_jobs``, backend, chunking and completion order.
3. **Stopping.** A fixed number of restarts is one round. With ``ci_width`` set, rounds of
   ``check_every`` restarts continue (after ``min_restarts``) until the bootstrap interval of F1
   is at most ``ci_width`` wide, or ``n_restarts`` is reached; the decision depends only on the
   restarts' results, hence only on the seed.

A pair is *finished* as soon as its last chunk is back and its streams need no more restarts (or
it failed); the engine says so at once through ``on_done``, so a corpus run can store it without
waiting for the other pairs. Failures of one pair never lose the results of the others.
"""

from __future__ import annotations

import math
import sys
import traceback
from contextlib import closing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .corpus import Document
from .exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError
from .isolation import Guarded, SegmenterTimeout, WorkerCrash, interruptible, run_pool, submit_alone
from .permutations import Stream, layout_units, restart_order, stream_rng
from .results import Failure, RestartScores, StabilityResult
from .scores import RestartCounts, boundary_confidence, chance_scores, restart_precision_recall, spurious_boundaries
from .segmentation import Segmentation, check_boundaries
from .segmenter import apply_order, for_document, has_batch_path, has_fast_path, segmenter_params
from .settings import Settings
from .stats import bootstrap_f1, derived_rng, f1_array, f1_score

__all__ = ["Pair", "Engine", "Progress"]

# ----------------------------------------------------------------------------------------------
# worker-side functions (module level: picklable for every joblib backend)
# ----------------------------------------------------------------------------------------------
def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class _InvalidOutput(Exception):
    """Raised inside a task when a segmenter's output is not a valid boundary list."""


def _checked(raw: Any, n_units: int) -> tuple[int, ...]:
    """Validate a segmenter's output; unsorted output is sorted silently (documented)."""
    try:
        return check_boundaries(raw, n_units, "boundaries", sort=True)
    except (InvalidSegmentationError, InvalidTypeError) as exc:
        raise _InvalidOutput(f"returned invalid boundaries: {exc}") from None


def _call(segmenter: Callable, units: Sequence[str], n_units: int) -> tuple[int, ...]:
    return _checked(segmenter(units), n_units)


def _problem(restart: int | None, exc: BaseException) -> dict[str, Any]:
    """A task failure as plain data (user exceptions may not pickle)."""
    invalid = isinstance(exc, _InvalidOutput)
    kind = "output" if invalid else exc.kind if isinstance(exc, (SegmenterTimeout, WorkerCrash)) else "exception"
    return {
        "restart": restart,
        "kind": kind,
        "error": _describe(exc) if kind == "exception" else str(exc),
        "traceback": traceback.format_exc() if kind == "exception" else "",
    }


def _initial_task(
    index: int, segmenter: Callable, units: tuple[str, ...], twice: bool
) -> tuple[int, Any, Any, dict[str, Any] | None]:
    """``B0`` (and a second unpermuted call for the determinism check) of one pair."""
    try:
        first = _call(segmenter, list(units), len(units))
        second = _call(segmenter, list(units), len(units)) if twice else None
    except Exception as exc:
        return index, None, None, _problem(None, exc)
    return index, first, second, None


def _restart_task(
    index: int,
    stream: Stream,
    segmenter: Callable,
    units: tuple[str, ...],
    initial: tuple[int, ...],
    seed: int,
    key: int,
    restarts: range,
) -> tuple[int, Stream, range, list[tuple[int, ...]], dict[str, Any] | None]:
    """Run one chunk of restarts of one stream; returns the raw boundaries, keyed.

    The segmenter's batched path (``segment_batch``) runs the whole chunk when it has one; if the
    batch raises, the chunk is run again restart by restart so that a failure names its restart
    (and when every single restart succeeds, the batch's own error is the chunk's failure).
    """
    n = len(units)
    labels = Segmentation(initial, n).label_array()
    out: list[tuple[int, ...]] = []
    restart: int | None = restarts.start
    try:
        if stream == Stream.LAYOUT:
            for restart in restarts:
                out.append(_call(segmenter, layout_units(units, stream_rng(seed, key, stream, restart)), n))
            return index, stream, restarts, out, None
        orders = [restart_order(seed, key, stream, r, labels) for r in restarts]
        prepared = segmenter.prepare(units) if has_fast_path(segmenter) else None
        batch_error = None
        if has_batch_path(segmenter) and orders:
            try:
                return index, stream, restarts, _batch(segmenter, prepared, orders, n), None
            except Exception as exc:  # noqa: BLE001 - located below, restart by restart
                batch_error = exc
        for restart, order in zip(restarts, orders):
            if prepared is None:
                out.append(_call(segmenter, apply_order(units, order), n))
            else:
                out.append(_checked(segmenter.segment_prepared(prepared, order), n))
        if batch_error is not None:
            restart = None
            raise batch_error
    except Exception as exc:
        return index, stream, restarts, out, _problem(restart, exc)
    return index, stream, restarts, out, None


def _batch(segmenter: Any, prepared: Any, orders: list[np.ndarray], n: int) -> list[tuple[int, ...]]:
    """Every order of a chunk through ``segment_batch``, each output checked."""
    raw = list(segmenter.segment_batch(prepared, np.stack(orders)))
    if len(raw) != len(orders):
        raise _InvalidOutput(f"segment_batch returned {len(raw)} results for {len(orders)} orders")
    return [_checked(b, n) for b in raw]


def _initial_crashed(task: tuple, crash: WorkerCrash, n_jobs: int) -> tuple:
    """The result of an initial task whose worker died when run alone."""
    return task[0], None, None, _problem(None, crash)


def _restart_crashed(task: tuple, crash: WorkerCrash, n_jobs: int) -> tuple:
    """The result of a chunk of restarts whose worker died when run alone: its restarts are run
    again one at a time, alone, to find the first that kills the worker."""
    index, stream, *_, restarts = task
    out: list[tuple[int, ...]] = []
    for restart in restarts:
        try:
            _, _, _, got, problem = submit_alone(_restart_task, (*task[:-1], range(restart, restart + 1)), n_jobs)
        except WorkerCrash as again:
            return index, stream, restarts, out, _problem(restart, again)
        out.extend(got)
        if problem is not None:
            return index, stream, restarts, out, problem
    return index, stream, restarts, out, None


_ON_CRASH = {_initial_task: _initial_crashed, _restart_task: _restart_crashed}


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
    resolved: Callable | None = None
    initial: tuple[int, ...] | None = None
    second: tuple[int, ...] | None = None
    error: Failure | None = None
    streams: dict[Stream, _StreamState] = field(default_factory=dict)
    outstanding: int = 0  # chunks of the current round not yet back


#: ``on_call(pair index, stream name or None, restarts or None)``: told before each in-process task
OnCall = Callable[[int, "str | None", "range | None"], None]


def _in_process(tasks: list[tuple], n_jobs: int, backend: str | None) -> bool:
    """Whether :func:`_run` runs ``tasks`` in this process (no worker to contain a crash)."""
    return not tasks or backend == "sequential" or (n_jobs == 1 and backend is None)


def _run(function: Callable, tasks: list[tuple], n_jobs: int, backend: str | None) -> Iterator[Any]:
    """Run ``function(*task)`` for every task; results in completion order.

    In-process for ``n_jobs=1`` (without a backend) and the sequential backend; in loky worker
    processes that may die without losing the run (:func:`stability.isolation.run_pool`) for the
    default and loky backends; on the Dask cluster of the active client for ``dask``; through
    joblib otherwise.
    """
    if _in_process(tasks, n_jobs, backend):
        return (function(*task) for task in tasks)
    if backend in (None, "loky"):
        on_crash = _ON_CRASH[function]
        return run_pool(function, tasks, n_jobs, lambda task, crash: on_crash(task, crash, n_jobs))
    if backend == "dask":
        return _drain_dask(function, tasks)
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered", batch_size=1)
    return parallel(delayed(function)(*task) for task in tasks)


def _drain_dask(function: Callable, tasks: list[tuple]) -> Iterator[Any]:
    """Every task submitted to the active ``distributed.Client`` (see
    stability.config.run_experiment), results as they complete; cancelled if not all read.

    Submitted directly rather than through joblib's dask backend, which runs the tasks in this
    process when the cluster has a single worker (it counts one worker as ``n_jobs=1``), where
    the futures of the scattered units (:func:`_scatter_units`) would not be resolved.
    """
    from distributed import as_completed, get_client

    client = get_client()
    futures = [client.submit(function, *task, pure=False) for task in tasks]
    left = len(futures)
    try:
        for _, result in as_completed(futures, with_results=True):
            left -= 1
            yield result
    finally:
        if left:
            client.cancel(futures)


class _ShippedUnits(tuple):
    """A document's units sent to a Dask cluster as one pickle (dask serializes a plain tuple
    item by item: 2 s instead of 0.05 s for 20,000 units)."""

    __slots__ = ()


def _scatter_units(pairs: list[Pair]) -> dict[int, Any]:
    """Every pair's units sent to the Dask cluster once, as futures that its tasks carry instead.

    joblib's dask backend scatters an argument by itself only when it can be weakly referenced
    (a tuple of units cannot), so without this each chunk of restarts would send its document
    again; a future is resolved to the units on the worker. They go to one worker, the others
    fetch them from it when they need them (a broadcast would send every document to every
    worker). One 20,000-unit document, 100 restarts and the shuffle control of ``even`` on two
    local workers, ``n_jobs=8``: 1.0-1.7 s instead of 3.2-4.4 s (load 3.5-8 on 2 cores).
    """
    from distributed import get_client

    if not pairs:
        return {}
    try:
        client = get_client()
    except ValueError:
        raise InvalidParameterError(
            "backend 'dask' runs inside a distributed.Client: create one first (or run a config "
            "with backend = 'dask', which starts or joins a cluster)") from None
    shipped = [_ShippedUnits(pair.doc.units) for pair in pairs]
    return dict(enumerate(client.scatter(shipped, hash=False)))


def _chunks(restarts: range, n_chunks: int) -> list[range]:
    n_chunks = max(1, min(n_chunks, len(restarts)))
    edges = np.linspace(restarts.start, restarts.stop, n_chunks + 1).round().astype(int)
    return [range(int(a), int(b)) for a, b in zip(edges, edges[1:]) if b > a]


class Progress:
    """A rich progress bar of restarts on stderr; by default only when stderr is a terminal
    (:func:`stability.status.shown`)."""

    def __init__(self, show: bool | None, description: str = "restarts") -> None:
        from .status import shown

        self._bar = None
        if shown(show):
            from rich.console import Console
            from rich.markup import escape
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(escape(description), total=0)  # a label is not markup
            self._total = 0

    def add_total(self, amount: int) -> None:
        if self._bar is not None:
            self._total += amount
            self._bar.update(self._task, total=self._total)

    def advance(self, amount: int) -> None:
        if self._bar is not None and amount:
            self._bar.advance(self._task, amount)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def _reference_metrics(doc: Document, boundaries: tuple[int, ...], options: Mapping[str, Any] | None) -> dict[str, float]:
    """Reference metrics of ``B0`` when the document has references (``options=None``: none)."""
    if options is None or not doc.references:
        return {}
    from .metrics import compute_all, multi_reference_metrics

    hypothesis = Segmentation(boundaries, doc.n_units)
    single = {k: v for k, v in options.items() if k in ("k", "tolerance", "gamma")}
    values = compute_all(doc.references[0], hypothesis, times=doc.times, **single)
    if len(doc.references) >= 2:
        multi = {k: v for k, v in options.items() if k in ("window_limit", "tolerance")}
        values.update(multi_reference_metrics(doc.references, hypothesis, **multi))
    names = options.get("names")
    return {k: float(v) for k, v in values.items() if names is None or k in names}


# ----------------------------------------------------------------------------------------------
# the engine
# ----------------------------------------------------------------------------------------------
_Work = tuple[int, Stream, range]  # (pair index, stream, restarts)
#: Each stream's name: the ``scope`` of its :class:`~stability.results.RestartScores`, and the
#: ``stream`` of a failure.
_STREAM_NAMES = {Stream.WITHIN: "within", Stream.SHUFFLE: "shuffle", Stream.LAYOUT: "layout"}


def _failure_order(failure: Failure) -> tuple[int, ...]:
    if failure.restart is None:
        return (0,)
    return (1, list(_STREAM_NAMES.values()).index(failure.stream), failure.restart)


def _no_op(index: int) -> None:
    return None


class Engine:
    """Runs pairs to completion with one :class:`~stability.settings.Settings`."""

    def __init__(self, settings: Settings, progress: Progress, on_call: OnCall | None = None) -> None:
        self.settings = settings
        self.n_jobs = settings.effective_jobs()
        self.progress = progress
        self.on_call = on_call
        self._shipped: dict[int, Any] = {}  # pair index -> its units scattered to a Dask cluster

    def _execute(self, function: Callable, tasks: list[tuple]) -> Iterator[Any]:
        """:func:`_run`; in-process, ``on_call`` first learns which pair, stream and restarts each
        task is about to run (a segmenter that ends the process leaves that behind)."""
        s = self.settings
        if self.on_call is None or not _in_process(tasks, self.n_jobs, s.backend):
            return _run(function, tasks, self.n_jobs, s.backend)
        return self._announced(function, tasks)

    def _announced(self, function: Callable, tasks: list[tuple]) -> Iterator[Any]:
        for task in tasks:
            if function is _initial_task:
                self.on_call(task[0], None, None)
            else:
                self.on_call(task[0], _STREAM_NAMES[task[1]], task[-1])
            yield function(*task)

    def run(self, pairs: list[Pair], on_done: Callable[[int], None] = _no_op) -> None:
        """Evaluate ``pairs``; ``on_done(i)`` is called as soon as ``pairs[i]`` is finished.

        SIGINT and SIGTERM interrupt it with ``KeyboardInterrupt`` (worker processes killed); a
        segmenter's own escapes, timeouts and crashes are the pair's failure
        (:mod:`stability.isolation`).
        """
        with interruptible():
            self._run_pairs(pairs, on_done)

    def _run_pairs(self, pairs: list[Pair], on_done: Callable[[int], None]) -> None:
        self._shipped = _scatter_units(pairs) if self.settings.backend == "dask" else {}

        def done(index: int) -> None:
            self._shipped.pop(index, None)  # the cluster may forget the pair's units
            on_done(index)

        self._run_rounds(pairs, done)

    def _units(self, index: int, pair: Pair) -> Any:
        """The units of ``pair`` as its tasks carry them (a future of them with dask)."""
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
                pair.resolved = Guarded(for_document(pair.segmenter, pair.doc), s.timeout)
            except Exception as exc:
                self._fail(pair, {"restart": None, "kind": "exception", "error": _describe(exc)})
                self.progress.advance(s.restart_budget())
                on_done(i)
                continue
            tasks.append((i, pair.resolved, self._units(i, pair), s.determinism_check))
        with closing(self._execute(_initial_task, tasks)) as results:
            self._initial_results(pairs, results, on_done)

    def _initial_results(self, pairs: list[Pair], results: Iterator[Any], on_done: Callable[[int], None]) -> None:
        s = self.settings
        for i, first, second, problem in results:
            pair = pairs[i]
            if problem is not None:
                self._fail(pair, problem)
                self.progress.advance(s.restart_budget())
                on_done(i)
            else:
                pair.initial, pair.second = first, second

    def _round(self, pairs: list[Pair], todo: list[_Work], on_done: Callable[[int], None]) -> list[_Work]:
        """Run one round of restarts; returns the next round's work, in pair order."""
        s = self.settings
        per_item = 1 if self.n_jobs == 1 else max(1, math.ceil(4 * self.n_jobs / len(todo)))
        tasks = []
        for i, stream, restarts in todo:
            pair = pairs[i]
            for chunk in _chunks(restarts, min(per_item, max(1, len(restarts) // 5))):
                tasks.append((i, stream, pair.resolved, self._units(i, pair), pair.initial, s.seed, pair.key, chunk))
                pair.outstanding += 1
        with closing(self._execute(_restart_task, tasks)) as results:
            return self._restart_results(pairs, results, on_done)

    def _restart_results(self, pairs: list[Pair], results: Iterator[Any], on_done: Callable[[int], None]) -> list[_Work]:
        following: list[_Work] = []
        for i, stream, chunk, boundaries, problem in results:
            pair = pairs[i]
            state = pair.streams[stream]
            for r, b in zip(chunk, boundaries):
                state.boundaries[r] = b
            self.progress.advance(len(boundaries))
            if problem is not None:
                self._fail(pair, {**problem, "stream": _STREAM_NAMES[stream]})
            pair.outstanding -= 1
            if pair.outstanding == 0:
                more = self._advance(pair)
                following.extend((i, stream, restarts) for stream, restarts in more)
                if not more:
                    on_done(i)
        return sorted(following, key=lambda work: (work[0], int(work[1])))

    def _advance(self, pair: Pair) -> list[tuple[Stream, range]]:
        """The restarts ``pair`` still needs once its round is back (none: it is finished)."""
        if pair.error is not None:
            return []
        s = self.settings
        more = []
        for stream, state in pair.streams.items():
            if state.done:
                continue
            if state.target >= s.n_restarts:
                state.done = True
                continue
            if s.ci_width is not None:
                counts = restart_precision_recall(pair.initial, state.boundaries, s.tolerance)
                low, high = self._interval(pair, stream, counts, check=True)
                if high - low <= s.ci_width:
                    state.done = state.stopped_early = True
                    self.progress.advance(s.n_restarts - state.target)
                    continue
            step = min(s.check_every, s.n_restarts - state.target)
            more.append((stream, range(state.target, state.target + step)))
            state.boundaries.extend([None] * step)
            state.target += step
        return more

    def _interval(self, pair: Pair, stream: Stream, counts: RestartCounts, check: bool = False) -> tuple[float, float]:
        """Bootstrap interval of the F1 of ``counts`` (the stream's restarts matched against B0)."""
        s = self.settings
        index = (1 + counts.matched.size) * 2 + int(stream) if check else int(stream)
        # the first two streams keep their original keys; a later one adds its number to the key
        later = () if stream in (Stream.WITHIN, Stream.SHUFFLE) else (int(stream),)
        rng = derived_rng(s.seed, pair.key, int(Stream.BOOTSTRAP), index, *later)
        return bootstrap_f1(counts.precision, counts.recall, rng, s.confidence, s.n_bootstrap)

    # -- assembling results -------------------------------------------------------------------
    def scores(self, pair: Pair, stream: Stream) -> RestartScores:
        """The scores of one stream of a finished pair."""
        s = self.settings
        restarts = pair.streams[stream].boundaries
        initial = pair.initial
        counts = restart_precision_recall(initial, restarts, s.tolerance)
        p, r = counts.precision, counts.recall
        stp, st_r = float(p.mean()), float(r.mean())
        f1 = f1_score(stp, st_r)
        chance_rng = stream_rng(s.seed, pair.key, Stream.CHANCE, int(stream))
        c_p, c_r, c_f1 = chance_scores(initial, counts.predicted, pair.doc.n_units, s.tolerance, chance_rng)
        corrected = (f1 - c_f1) / (1.0 - c_f1) if c_f1 < 1.0 else float("nan")
        return RestartScores(
            scope=_STREAM_NAMES[stream],
            n_restarts=len(restarts),
            restart_precision=p,
            restart_recall=r,
            restart_boundaries=tuple(restarts),
            precision=stp,
            recall=st_r,
            f1=f1,
            f1_ci=self._interval(pair, stream, counts),
            precision_std=float(p.std()),
            recall_std=float(r.std()),
            f1_std=float(f1_array(p, r).std()),
            boundary_confidence=boundary_confidence(initial, restarts, s.tolerance),
            spurious_boundaries=spurious_boundaries(initial, restarts, s.tolerance),
            chance_precision=c_p,
            chance_recall=c_r,
            chance_f1=c_f1,
            corrected_f1=float(corrected),
        )

    def _self_agreement(self, pair: Pair) -> tuple[bool | None, float]:
        if pair.second is None:
            return None, float("nan")
        counts = restart_precision_recall(pair.initial, [pair.second], self.settings.tolerance)
        return pair.second == pair.initial, f1_score(float(counts.precision[0]), float(counts.recall[0]))

    def result(self, pair: Pair) -> StabilityResult:
        """The :class:`~stability.results.StabilityResult` of a finished pair without error."""
        s = self.settings
        within = self.scores(pair, Stream.WITHIN)
        shuffle, layout = (self.scores(pair, c) if c in pair.streams else None for c in (Stream.SHUFFLE, Stream.LAYOUT))
        deterministic, self_f1 = self._self_agreement(pair)
        content_blind = None if shuffle is None else bool(shuffle.f1 >= within.f1 - s.content_margin)
        layout_only = None if layout is None else bool(layout.f1 >= 1.0 - s.content_margin)
        fields = {name: getattr(within, name) for name in RestartScores.__dataclass_fields__}
        return StabilityResult(
            **fields,
            segmenter=pair.label,
            params=segmenter_params(pair.segmenter),
            document=pair.doc.id,
            segmentation=Segmentation(pair.initial, pair.doc.n_units),
            seed=s.seed,
            tolerance=s.tolerance,
            deterministic=deterministic,
            self_agreement_f1=self_f1,
            shuffle=shuffle,
            content_blind=content_blind,
            content_margin=s.content_margin,
            layout=layout,
            layout_only=layout_only,
            stopped_early=pair.streams[Stream.WITHIN].stopped_early,
            reference_metrics=_reference_metrics(pair.doc, pair.initial, s.metrics),
            references=tuple(ref.boundaries for ref in pair.doc.references),
        )
