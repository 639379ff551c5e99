"""The stability test and the parallel corpus runner.

:func:`stability_test` runs Lamprier et al.'s (2007) Algorithm 1 on one document, with the
controls of ``DESIGN.md``; :func:`evaluate` runs several segmenters over a corpus. Both share one
engine:

1. **Initial phase.** For every (segmenter, document) pair: ``B0 = segmenter(units)`` and, for the
   determinism check, a second call on the same, unpermuted units.
2. **Restart rounds.** For every pair and stream (within-segment permutations; shuffle control),
   the restarts of the round are cut into *chunks* (never one task per restart: a joblib task costs
   about 0.3 ms of IPC here), each chunk ships the document once, builds its permutations from
   keyed seeds (:mod:`stability.permutations`), runs the segmenter (through its fast path when it
   has one) and returns the raw boundaries. Results come back with
   ``return_as="generator_unordered"`` and are put back in place by their keys, so the outcome is
   bit-identical for any ``n_jobs``, backend, chunking and completion order.
3. **Stopping.** A fixed number of restarts is one round. With ``ci_width`` set, rounds of
   ``check_every`` restarts continue (after ``min_restarts``) until the bootstrap interval of F1
   is at most ``ci_width`` wide, or ``n_restarts`` is reached; the decision depends only on the
   restarts' results, hence only on the seed.

Failures of one segmenter on one document are recorded and never lose other results.
"""

from __future__ import annotations

import json
import math
import os
import sys
import traceback
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .corpus import Document, as_documents
from .exceptions import (
    InvalidParameterError,
    InvalidSegmentationError,
    InvalidTypeError,
    SegmenterError,
    SegmenterOutputError,
)
from .permutations import Stream, check_seed, doc_key, restart_order, stream_rng
from .registry import get_segmenter
from .results import CorpusResult, Failure, RestartScores, StabilityResult, _jsonable, iter_records
from .scores import (
    boundary_confidence,
    bootstrap_f1_interval,
    chance_scores,
    f1_score,
    restart_precision_recall,
    spurious_boundaries,
)
from .segmentation import Segmentation, check_boundaries
from .segmenter import apply_order, has_fast_path, segmenter_name, segmenter_params
from .summary import summarize

__all__ = ["stability_test", "evaluate", "resolve_segmenters", "RunSettings"]

_FORMAT_VERSION = 1


# ----------------------------------------------------------------------------------------------
# settings
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunSettings:
    """Validated settings shared by :func:`stability_test` and :func:`evaluate`."""

    n_restarts: int = 100
    seed: int = 0
    tolerance: int = 0
    ci_width: float | None = None
    min_restarts: int = 20
    check_every: int = 10
    shuffle_control: bool = True
    determinism_check: bool = True
    content_margin: float = 0.05
    confidence: float = 0.95
    n_bootstrap: int = 1000

    def __post_init__(self) -> None:
        for name in ("n_restarts", "min_restarts", "check_every", "n_bootstrap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise InvalidParameterError.make(name, "an integer >= 1", value)
        check_seed(self.seed)
        if isinstance(self.tolerance, bool) or not isinstance(self.tolerance, (int, np.integer)) or self.tolerance < 0:
            raise InvalidParameterError.make("tolerance", "an integer >= 0 (units)", self.tolerance)
        if self.ci_width is not None and not (isinstance(self.ci_width, (int, float)) and 0 < self.ci_width <= 1):
            raise InvalidParameterError.make("ci_width", "None or a width in (0, 1]", self.ci_width)
        if not (isinstance(self.confidence, float) and 0 < self.confidence < 1):
            raise InvalidParameterError.make("confidence", "a float in (0, 1)", self.confidence)
        if not (isinstance(self.content_margin, (int, float)) and 0 <= self.content_margin < 1):
            raise InvalidParameterError.make("content_margin", "a number in [0, 1)", self.content_margin)

    @property
    def streams(self) -> tuple[Stream, ...]:
        return (Stream.WITHIN, Stream.SHUFFLE) if self.shuffle_control else (Stream.WITHIN,)

    def first_round(self) -> int:
        return self.n_restarts if self.ci_width is None else min(self.min_restarts, self.n_restarts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_restarts": int(self.n_restarts),
            "seed": int(self.seed),
            "tolerance": int(self.tolerance),
            "ci_width": self.ci_width,
            "min_restarts": int(self.min_restarts),
            "check_every": int(self.check_every),
            "shuffle_control": self.shuffle_control,
            "determinism_check": self.determinism_check,
            "content_margin": self.content_margin,
            "confidence": self.confidence,
            "n_bootstrap": int(self.n_bootstrap),
        }


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
    return {
        "restart": restart,
        "kind": "output" if invalid else "exception",
        "error": str(exc) if invalid else _describe(exc),
        "traceback": "" if invalid else traceback.format_exc(),
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
    """Run one chunk of restarts of one stream; returns the raw boundaries, keyed."""
    n = len(units)
    labels = Segmentation(initial, n).label_array()
    out: list[tuple[int, ...]] = []
    restart = restarts.start
    try:
        if has_fast_path(segmenter):
            prepared = segmenter.prepare(units)
            for restart in restarts:
                order = restart_order(seed, key, stream, restart, labels)
                out.append(_checked(segmenter.segment_prepared(prepared, order), n))
        else:
            for restart in restarts:
                order = restart_order(seed, key, stream, restart, labels)
                out.append(_call(segmenter, apply_order(units, order), n))
    except Exception as exc:
        return index, stream, restarts, out, _problem(restart, exc)
    return index, stream, restarts, out, None


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
class _Pair:
    """One (segmenter, document) pair being evaluated."""

    label: str
    segmenter: Callable
    doc: Document
    key: int
    initial: tuple[int, ...] | None = None
    second: tuple[int, ...] | None = None
    error: Failure | None = None
    streams: dict[Stream, _StreamState] = field(default_factory=dict)

    def pending(self) -> bool:
        return self.error is None and any(not s.done for s in self.streams.values())


def _effective_jobs(n_jobs: int) -> int:
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs == 0:
        raise InvalidParameterError.make("n_jobs", "a non-zero integer (-1: all cores)", n_jobs)
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + int(n_jobs))
    return int(n_jobs)


def _run(function: Callable, tasks: list[tuple], n_jobs: int, backend: str | None) -> Iterator[Any]:
    """Run ``function(*task)`` for every task; results in completion order."""
    if not tasks:
        return iter(())
    if backend == "sequential" or (n_jobs == 1 and backend is None):
        return (function(*task) for task in tasks)
    from joblib import Parallel, delayed

    if backend == "dask":
        # joblib registers its dask backend only through parallel_config; the distributed
        # Client must already be active (see stability.config.run_experiment).
        return _drain_dask(function, tasks, n_jobs)
    parallel = Parallel(n_jobs=n_jobs, backend=backend, return_as="generator_unordered", batch_size=1)
    return parallel(delayed(function)(*task) for task in tasks)


def _drain_dask(function: Callable, tasks: list[tuple], n_jobs: int) -> Iterator[Any]:
    from joblib import Parallel, delayed, parallel_config

    with parallel_config(backend="dask", n_jobs=n_jobs):
        yield from Parallel(return_as="generator_unordered", batch_size=1)(delayed(function)(*task) for task in tasks)


def _chunks(restarts: range, n_chunks: int) -> list[range]:
    n_chunks = max(1, min(n_chunks, len(restarts)))
    edges = np.linspace(restarts.start, restarts.stop, n_chunks + 1).round().astype(int)
    return [range(int(a), int(b)) for a, b in zip(edges, edges[1:]) if b > a]


class _Progress:
    """A rich progress bar of restarts on stderr; by default only when stderr is a terminal."""

    def __init__(self, show: bool | None, description: str = "restarts") -> None:
        if show is None:
            show = sys.stderr.isatty()
        self._bar = None
        if show:
            from rich.console import Console
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
            self._task = self._bar.add_task(description, total=0)
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


# ----------------------------------------------------------------------------------------------
# the engine
# ----------------------------------------------------------------------------------------------
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


class _Engine:
    def __init__(
        self,
        settings: RunSettings,
        n_jobs: int,
        backend: str | None,
        progress: _Progress,
        metric_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.settings = settings
        self.n_jobs = _effective_jobs(n_jobs)
        self.backend = backend
        self.progress = progress
        self.metric_options = metric_options

    def run(self, pairs: list[_Pair]) -> None:
        self._initial(pairs)
        first = self.settings.first_round()
        for pair in pairs:
            if pair.error is None:
                pair.streams = {s: _StreamState([None] * first, first) for s in self.settings.streams}
        todo = [(p, s, range(0, first)) for p in pairs if p.error is None for s in p.streams]
        while todo:
            self._round(todo)
            todo = self._next_round(pairs)

    def _initial(self, pairs: list[_Pair]) -> None:
        s = self.settings
        tasks = [(i, p.segmenter, p.doc.units, s.determinism_check) for i, p in enumerate(pairs)]
        for i, first, second, problem in _run(_initial_task, tasks, self.n_jobs, self.backend):
            pair = pairs[i]
            if problem is not None:
                pair.error = Failure(pair.label, pair.doc.id, seed=s.seed, **problem)
                self.progress.advance(self._restart_budget())
            else:
                pair.initial, pair.second = first, second

    def _restart_budget(self) -> int:
        return self.settings.n_restarts * len(self.settings.streams)

    def _round(self, todo: list[tuple[_Pair, Stream, range]]) -> None:
        s = self.settings
        per_item = 1 if self.n_jobs == 1 else max(1, math.ceil(4 * self.n_jobs / len(todo)))
        tasks = []
        for i, (pair, stream, restarts) in enumerate(todo):
            for chunk in _chunks(restarts, min(per_item, max(1, len(restarts) // 5))):
                tasks.append((i, stream, pair.segmenter, pair.doc.units, pair.initial, s.seed, pair.key, chunk))
        for i, stream, chunk, boundaries, problem in _run(_restart_task, tasks, self.n_jobs, self.backend):
            pair = todo[i][0]
            state = pair.streams[stream]
            for r, b in zip(chunk, boundaries):
                state.boundaries[r] = b
            self.progress.advance(len(boundaries))
            if problem is not None and pair.error is None:
                pair.error = Failure(pair.label, pair.doc.id, seed=s.seed, **problem)

    def _next_round(self, pairs: list[_Pair]) -> list[tuple[_Pair, Stream, range]]:
        s = self.settings
        todo = []
        for pair in pairs:
            if pair.error is not None:
                continue
            for stream, state in pair.streams.items():
                if state.done:
                    continue
                if state.target >= s.n_restarts:
                    state.done = True
                    continue
                if s.ci_width is not None:
                    low, high = self._interval(pair, stream, state.boundaries, check=True)
                    if high - low <= s.ci_width:
                        state.done = state.stopped_early = True
                        self.progress.advance(s.n_restarts - state.target)
                        continue
                step = min(s.check_every, s.n_restarts - state.target)
                todo.append((pair, stream, range(state.target, state.target + step)))
                state.boundaries.extend([None] * step)
                state.target += step
        return todo

    def _interval(self, pair: _Pair, stream: Stream, restarts: list, check: bool = False) -> tuple[float, float]:
        s = self.settings
        counts = restart_precision_recall(pair.initial, restarts, s.tolerance)
        index = (1 + len(restarts)) * 2 + int(stream) if check else int(stream)
        rng = stream_rng(s.seed, pair.key, Stream.BOOTSTRAP, index)
        return bootstrap_f1_interval(counts.precision, counts.recall, rng, s.confidence, s.n_bootstrap)

    # -- assembling results -------------------------------------------------------------------
    def scores(self, pair: _Pair, stream: Stream) -> RestartScores:
        s = self.settings
        restarts = pair.streams[stream].boundaries
        initial = pair.initial
        counts = restart_precision_recall(initial, restarts, s.tolerance)
        p, r = counts.precision, counts.recall
        stp, st_r = float(p.mean()), float(r.mean())
        f1 = f1_score(stp, st_r)
        total = p + r
        per_restart_f1 = np.divide(2 * p * r, total, out=np.zeros_like(total), where=total > 0)
        chance_rng = stream_rng(s.seed, pair.key, Stream.CHANCE, int(stream))
        c_p, c_r, c_f1 = chance_scores(initial, counts.predicted, pair.doc.n_units, s.tolerance, chance_rng)
        corrected = (f1 - c_f1) / (1.0 - c_f1) if c_f1 < 1.0 else float("nan")
        return RestartScores(
            scope="within" if stream == Stream.WITHIN else "shuffle",
            n_restarts=len(restarts),
            restart_precision=p,
            restart_recall=r,
            restart_boundaries=tuple(restarts),
            precision=stp,
            recall=st_r,
            f1=f1,
            f1_ci=self._interval(pair, stream, restarts),
            precision_std=float(p.std()),
            recall_std=float(r.std()),
            f1_std=float(per_restart_f1.std()),
            boundary_confidence=boundary_confidence(initial, restarts, s.tolerance),
            spurious_boundaries=spurious_boundaries(initial, restarts, s.tolerance),
            chance_precision=c_p,
            chance_recall=c_r,
            chance_f1=c_f1,
            corrected_f1=float(corrected),
        )

    def result(self, pair: _Pair) -> StabilityResult:
        s = self.settings
        within = self.scores(pair, Stream.WITHIN)
        shuffle = self.scores(pair, Stream.SHUFFLE) if Stream.SHUFFLE in pair.streams else None
        deterministic = None
        self_f1 = float("nan")
        if pair.second is not None:
            deterministic = pair.second == pair.initial
            counts = restart_precision_recall(pair.initial, [pair.second], s.tolerance)
            self_f1 = f1_score(float(counts.precision[0]), float(counts.recall[0]))
        content_blind = None if shuffle is None else bool(shuffle.f1 >= within.f1 - s.content_margin)
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
            stopped_early=pair.streams[Stream.WITHIN].stopped_early,
            reference_metrics=_reference_metrics(pair.doc, pair.initial, self.metric_options),
            references=tuple(ref.boundaries for ref in pair.doc.references),
        )


# ----------------------------------------------------------------------------------------------
# public API
# ----------------------------------------------------------------------------------------------
def resolve_segmenters(segmenters: Any) -> dict[str, Callable]:
    """Normalise ``segmenters`` to an ordered mapping ``label -> segmenter``.

    Accepts a mapping ``label -> spec``, a sequence of specs, or a single spec, where a spec is
    anything :func:`stability.get_segmenter` accepts (a callable, a registered name or a
    ``"module:attribute"`` string).
    """
    if isinstance(segmenters, Mapping):
        items = [(str(label), spec) for label, spec in segmenters.items()]
    elif isinstance(segmenters, (str, bytes)) or callable(segmenters):
        items = [(None, segmenters)]
    elif isinstance(segmenters, Iterable):
        items = [(None, spec) for spec in segmenters]
    else:
        raise InvalidTypeError.make("segmenters", "a segmenter, a sequence of them or a mapping label -> segmenter", segmenters)
    resolved: dict[str, Callable] = {}
    for label, spec in items:
        segmenter = get_segmenter(spec)
        if label is None:
            label = spec if isinstance(spec, str) else segmenter_name(segmenter)
        if label in resolved:
            raise InvalidParameterError(f"segmenter label {label!r} is used twice; give a mapping with distinct labels")
        resolved[label] = segmenter
    if not resolved:
        raise InvalidParameterError("segmenters must name at least one segmenter; received none")
    return resolved


def stability_test(
    segmenter: Any,
    units: Sequence[str] | Document,
    *,
    n_restarts: int = 100,
    seed: int = 0,
    tolerance: int = 0,
    n_jobs: int = 1,
    backend: str | None = None,
    doc_id: str | None = None,
    ci_width: float | None = None,
    min_restarts: int = 20,
    check_every: int = 10,
    shuffle_control: bool = True,
    determinism_check: bool = True,
    content_margin: float = 0.05,
    confidence: float = 0.95,
    n_bootstrap: int = 1000,
    progress: bool | None = False,
    metrics: bool | Mapping[str, Any] = True,
) -> StabilityResult:
    """Run the stability test (Lamprier et al. 2007, section 5, Algorithm 1) on one document.

    ``B0 = segmenter(units)``; each restart permutes the units within every segment of ``B0``,
    re-segments, and compares the result ``Br`` with ``B0``: ``P_r = |B0 ∩ Br| / |Br|``,
    ``R_r = |B0 ∩ Br| / |B0|``. STP and STR are the means over restarts and F1 is eq. 11 applied to
    them (see :mod:`stability.scores` for the zero-division rule and the chance level).

    Parameters
    ----------
    segmenter : callable or str
        Any segmenter (see :func:`stability.get_segmenter`).
    units : sequence of str or Document
        The document's units.
    n_restarts : int, default 100
        Number of restarts (the paper's 100); the maximum when ``ci_width`` is set.
    seed : int, default 0
        Run seed. Restart ``r`` of document ``doc_id`` always gets the same permutation.
    tolerance : int, default 0
        Near-miss window in units for matching ``Br`` to ``B0`` (one-to-one); 0 = exact, as in the
        paper.
    n_jobs : int, default 1
        Worker processes (joblib; -1 = all cores). Results do not depend on it.
    backend : str, optional
        joblib backend (``"loky"`` by default when ``n_jobs != 1``, ``"threading"`` for segmenters
        that release the GIL, ``"dask"`` inside a ``distributed.Client``, ``"sequential"``).
    doc_id : str, optional
        Document id; it keys the random streams (defaults to the Document's id, else ``None``).
    ci_width : float, optional
        Adaptive stopping: after ``min_restarts``, every ``check_every`` restarts, stop once the
        ``confidence`` bootstrap interval of F1 is at most this wide.
    shuffle_control : bool, default True
        Also run the shuffle control (restarts permute the whole document) and set
        ``content_blind``.
    determinism_check : bool, default True
        Segment the unpermuted document a second time and set ``deterministic``.
    content_margin : float, default 0.05
        ``content_blind`` is set when the shuffle control's F1 is at least ``f1 - content_margin``.
    confidence : float, default 0.95
        Level of the bootstrap confidence intervals.
    n_bootstrap : int, default 1000
        Bootstrap resamples.
    progress : bool or None, default False
        Progress bar on stderr (``None``: only on a terminal).
    metrics : bool or mapping, default True
        When ``units`` is a Document with references, also compute the reference metrics of
        ``B0`` (see :func:`evaluate`).

    Returns
    -------
    StabilityResult

    Raises
    ------
    SegmenterError
        If the segmenter raises; :class:`SegmenterOutputError` if it returns invalid boundaries.
        The message names the segmenter, document, restart and seed.

    Examples
    --------
    >>> from stability import stability_test
    >>> even = lambda units: list(range(3, len(units), 3))
    >>> result = stability_test(even, ["w"] * 12, n_restarts=10)
    >>> result.f1, result.content_blind
    (1.0, True)
    """
    if isinstance(units, Document):
        doc = units if doc_id is None else Document(doc_id, units.units, units.references, units.times)
    else:
        if isinstance(units, (str, bytes)) or not isinstance(units, Sequence):
            raise InvalidTypeError.make("units", "a sequence of strings (one per unit) or a Document", units)
        doc = Document(id="" if doc_id is None else str(doc_id), units=tuple(units))
    key = doc_key(doc.id if (doc_id is not None or isinstance(units, Document)) else None)
    settings = RunSettings(
        n_restarts, seed, tolerance, ci_width, min_restarts, check_every, shuffle_control,
        determinism_check, content_margin, confidence, n_bootstrap,
    )
    resolved = get_segmenter(segmenter)
    label = segmenter if isinstance(segmenter, str) else segmenter_name(resolved)
    pair = _Pair(label, resolved, doc, key)
    bar = _Progress(progress, label)
    bar.add_total(settings.n_restarts * len(settings.streams))
    try:
        engine = _Engine(settings, n_jobs, backend, bar, _metric_options(metrics))
        engine.run([pair])
    finally:
        bar.close()
    if pair.error is not None:
        failure = pair.error
        error_class = SegmenterOutputError if failure.kind == "output" else SegmenterError
        raise error_class(
            failure.error + (f"\n{failure.traceback}" if failure.traceback else ""),
            segmenter=label, document=failure.document or None, restart=failure.restart, seed=failure.seed,
        )
    return engine.result(pair)


def _metric_options(metrics: Any) -> dict[str, Any] | None:
    """Validate the ``metrics`` argument: True (defaults), False/None (skip) or options."""
    if metrics is True:
        return {}
    if metrics is False or metrics is None:
        return None
    if isinstance(metrics, Mapping):
        unknown = set(metrics) - {"k", "tolerance", "gamma", "window_limit", "names"}
        if unknown:
            raise InvalidParameterError.make(
                "metrics", "True, False or a mapping with keys k, tolerance, gamma, window_limit, names", dict(metrics)
            )
        options = dict(metrics)
        if "names" in options:
            from .catalogue import MULTI_REFERENCE, REFERENCE

            known = set(REFERENCE) | set(MULTI_REFERENCE)
            names = options["names"]
            if isinstance(names, str) or not all(isinstance(n, str) and n in known for n in names):
                raise InvalidParameterError.make("metrics names", f"a list drawn from {', '.join(sorted(known))}", names)
            options["names"] = list(names)
        return options
    raise InvalidParameterError.make("metrics", "True, False or a mapping of metric options", metrics)


def _read_completed(
    path: Path, settings: dict[str, Any], params: Mapping[str, Any]
) -> dict[tuple[str, str], StabilityResult]:
    """Results already in a JSON-lines output file (for ``resume``), checking that they were
    computed with the same settings and, result by result, the same segmenter parameters."""
    done: dict[tuple[str, str], StabilityResult] = {}
    for _, record in iter_records(path):
        if record["type"] == "run":
            previous = {k: v for k, v in record.get("settings", {}).items() if k != "segmenter_params"}
            current = {k: v for k, v in settings.items() if k != "segmenter_params"}
            if previous != current:
                changed = sorted(k for k in set(previous) | set(current) if previous.get(k) != current.get(k))
                raise InvalidParameterError(
                    f"cannot resume {path}: it was written with different settings ({', '.join(changed)}); "
                    "use another output file or the same settings"
                )
        elif record["type"] == "result":
            result = StabilityResult.from_dict(record["result"])
            if result.segmenter in params and _jsonable(result.params) != params[result.segmenter]:
                raise InvalidParameterError(
                    f"cannot resume {path}: results of segmenter {result.segmenter!r} were computed with "
                    f"parameters {_jsonable(result.params)}, now {params[result.segmenter]}; "
                    "use another output file or the same parameters"
                )
            done[(result.segmenter, result.document or "")] = result
    return done


def evaluate(
    segmenters: Any,
    documents: Iterable[Any],
    *,
    n_restarts: int = 100,
    seed: int = 0,
    tolerance: int = 0,
    n_jobs: int = 1,
    backend: str | None = None,
    ci_width: float | None = None,
    min_restarts: int = 20,
    check_every: int = 10,
    shuffle_control: bool = True,
    determinism_check: bool = True,
    content_margin: float = 0.05,
    confidence: float = 0.95,
    n_bootstrap: int = 1000,
    output: str | os.PathLike | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: bool | None = None,
    on_error: str = "record",
    block_size: int = 64,
    on_result: Callable[[StabilityResult], None] | None = None,
    metrics: bool | Mapping[str, Any] = True,
) -> CorpusResult:
    """Run the stability test of several segmenters over a corpus.

    Parameters
    ----------
    segmenters : mapping, sequence or single segmenter
        ``label -> segmenter`` (or specs whose labels are their names); see
        :func:`resolve_segmenters`.
    documents : iterable
        :class:`~stability.Document` objects, mappings with ``id``/``units``/``references`` keys,
        or bare lists of units (ids are then their positions). Consumed lazily, ``block_size``
        documents at a time.
    output : path, optional
        JSON-lines file receiving a ``run`` record, then one ``result`` (or ``failure``) record per
        (segmenter, document) as soon as it completes.
    resume : bool, default False
        Reuse the results already in ``output`` (written with the same settings, segmenter labels
        and segmenter parameters) and compute only the missing ones. Without ``resume`` or ``overwrite``, an existing ``output`` is an error.
    on_error : {"record", "raise"}, default "record"
        A segmenter failing on a document is recorded in ``failures`` (and the output file) and
        the run goes on; ``"raise"`` raises at the end of the run, after writing every result.
    on_result : callable, optional
        Called with each :class:`StabilityResult` as it completes (in corpus order per block).
    metrics : bool or mapping, default True
        For documents with references, compute the reference metrics of every initial
        segmentation (:func:`stability.metrics.compute_all` against the first reference, plus
        :func:`stability.metrics.multi_reference_metrics` when there are several) into
        ``StabilityResult.reference_metrics``. A mapping gives their options (``k``,
        ``tolerance``, ``gamma``, ``window_limit``) and optionally ``names``, the metrics to
        keep (default: all); ``False`` skips them.

    The other parameters are those of :func:`stability_test`.

    Returns
    -------
    CorpusResult
        Per-document results, per-segmenter summaries (mean, std and bootstrap confidence interval
        over documents, as in the paper's Table 3; micro-averaged STP/STR/F1 over all restarts),
        and failures.

    Examples
    --------
    >>> from stability import evaluate
    >>> docs = [["a"] * 12, ["b"] * 15]
    >>> res = evaluate({"even": "even"}, docs, n_restarts=5, progress=False)
    >>> res.summary["even"].macro["f1"].mean
    1.0
    """
    settings = RunSettings(
        n_restarts, seed, tolerance, ci_width, min_restarts, check_every, shuffle_control,
        determinism_check, content_margin, confidence, n_bootstrap,
    )
    if on_error not in ("record", "raise"):
        raise InvalidParameterError.make("on_error", "'record' or 'raise'", on_error)
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
        raise InvalidParameterError.make("block_size", "an integer >= 1", block_size)
    metric_options = _metric_options(metrics)
    resolved = resolve_segmenters(segmenters)
    labels = list(resolved)
    settings_record = {**settings.to_dict(), "segmenters": labels, "format_version": _FORMAT_VERSION,
                       "metrics": metric_options,
                       "segmenter_params": {label: _jsonable(segmenter_params(resolved[label])) for label in labels}}

    completed: dict[tuple[str, str], StabilityResult] = {}
    handle = None
    if output is not None:
        path = Path(output)
        if path.exists() and resume:
            completed = _read_completed(path, settings_record, settings_record["segmenter_params"])
            handle = path.open("a", encoding="utf-8")
            if path.stat().st_size == 0:
                handle.write(json.dumps({"type": "run", "settings": settings_record}) + "\n")
        elif path.exists() and not overwrite:
            raise InvalidParameterError(
                f"output {str(path)!r} already exists; pass resume=True to continue it or overwrite=True to replace it"
            )
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = path.open("w", encoding="utf-8")
            handle.write(json.dumps({"type": "run", "settings": settings_record}) + "\n")
            handle.flush()

    results: dict[str, list[StabilityResult]] = {label: [] for label in labels}
    failures: list[Failure] = []
    bar = _Progress(progress)
    n_docs = 0
    try:
        stream = iter(as_documents(documents))
        while True:
            block = list(islice(stream, block_size))
            if not block:
                break
            pairs = [
                _Pair(label, resolved[label], doc, doc_key(doc.id))
                for doc in block
                for label in labels
                if (label, doc.id) not in completed
            ]
            engine = _Engine(settings, n_jobs, backend, bar, metric_options)
            bar.add_total(len(pairs) * engine._restart_budget())
            engine.run(pairs)
            by_key = {(p.label, p.doc.id): p for p in pairs}
            for doc in block:
                for label in labels:
                    if (label, doc.id) in completed:
                        results[label].append(completed[(label, doc.id)])
                        continue
                    pair = by_key[(label, doc.id)]
                    if pair.error is not None:
                        failures.append(pair.error)
                        if handle is not None:
                            handle.write(json.dumps({"type": "failure", "failure": pair.error.to_dict()}) + "\n")
                        continue
                    result = engine.result(pair)
                    results[label].append(result)
                    if handle is not None:
                        handle.write(json.dumps({"type": "result", "result": result.to_dict()}) + "\n")
                    if on_result is not None:
                        on_result(result)
                if handle is not None:
                    handle.flush()
            n_docs += len(block)
    finally:
        bar.close()
        if handle is not None:
            handle.close()
    summary = summarize(results, failures, seed=settings.seed, confidence=settings.confidence,
                        n_bootstrap=settings.n_bootstrap, content_margin=settings.content_margin)
    run_settings = {**settings_record, "n_jobs": n_jobs, "backend": backend, "n_documents": n_docs}
    corpus = CorpusResult(results, summary, failures, run_settings)
    if failures and on_error == "raise":
        first = failures[0]
        error_class = SegmenterOutputError if first.kind == "output" else SegmenterError
        raise error_class(
            f"{first.error} ({len(failures)} failure(s) in the run)",
            segmenter=first.segmenter, document=first.document, restart=first.restart, seed=first.seed,
        )
    return corpus
