"""The worker side of the engine (:mod:`stability.engine`): the tasks its worker processes run.

Module-level functions of plain arguments, picklable for every joblib backend: the initial calls
of a pair (``B0`` and the determinism check, :func:`initial_task`), chunks of restarts
(:func:`restart_task`, whose chunks share one prepared state, :class:`Prepared`), batches of
either in one task (:func:`initial_batch`, :func:`restart_batch`: fewer tasks for the main
process), and what to do when a worker dies running one (:data:`ON_CRASH`: narrow it down to the
pair and the restart that kills it).
Failures come back as plain data (:func:`failure_of`), never as exceptions: a segmenter's
exception may not pickle.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .checks import array_as_list
from .exceptions import InvalidSegmentationError, InvalidTypeError
from .isolation import Guarded, SegmenterTimeout, WorkerCrash, submit_alone
from .permutations import Stream, layout_units, restart_orders, stream_rng
from .segmentation import Segmentation, as_sizes, check_boundaries
from .segmenter import apply_order, has_batch_path, has_fast_path, terms_problem, unit_table

__all__ = ["Chunk", "ChunkResult", "Prepared", "initial_task", "initial_batch", "restart_task", "restart_batch",
           "restart_chunk", "ON_CRASH", "describe", "checked", "CHUNKS_HINT", "TEXT_HINT", "text_hint"]


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class InvalidOutput(Exception):
    """Raised inside a task when a segmenter's output is not a valid boundary list."""


def checked(raw: Any, n_units: int) -> tuple[int, ...]:
    """Validate a segmenter's output: boundaries (unsorted output is sorted silently, documented)
    or a :class:`~stability.segmentation.Segmentation` of the document's units."""
    if isinstance(raw, Segmentation):
        if raw.n_units != n_units:
            raise InvalidOutput(f"returned invalid boundaries: a Segmentation of {raw.n_units} units for a "
                                f"document of {n_units} units; received {raw!r}")
        return raw.boundaries
    try:
        return check_boundaries(raw, n_units, "boundaries", sort=True)
    except (InvalidSegmentationError, InvalidTypeError) as exc:
        raise InvalidOutput(f"returned invalid boundaries: {exc}"
                            f"{_chunks_hint(raw) or _unit_chunks_hint(raw) or _nonzero_hint(raw)}"
                            f"{_masses_hint(raw, n_units) or _per_unit_hint(raw, n_units) or _gap_string_hint(raw, n_units)}"
                            f"{_factory_hint(raw)}"
                            ) from None


def _factory_hint(raw: Any) -> str:
    """What to name instead, when a segmenter returned a callable (a function that builds a
    segmenter, named as the segmenter: ``make(k=3)`` was called with the units as ``k``), else nothing."""
    if not callable(raw):
        return ""
    return ("; it returned a callable (a segmenter?): a function named as a segmenter is the segmenter itself, "
            "called with the units; one that builds a segmenter is not called with its parameters: name the "
            "segmenter's class instead (module:attribute, or the entry point), or a segmenter object built already")


#: Said when a segmenter returns strings: most likely a text chunker given as a segmenter.
CHUNKS_HINT = ("; it returned strings (chunk texts?): a segmenter returns boundaries, the indices of the units "
               "where a segment starts; a text chunker (text -> list of chunks) is evaluated through "
               "segmenters.chunkers.ChunkerSegmenter(chunker), which joins the units into a text and turns "
               "the chunks into boundaries")


#: Said when a segmenter fails using its units as one text (a string method called on the list,
#: a regular expression run on it): most likely a text chunker given as a segmenter.
TEXT_HINT = ("; it was given the document's units, a list of strings, and used them as one text: a segmenter "
             "is called with the units and returns boundaries; a text chunker (text -> list of chunks) is "
             "evaluated through segmenters.chunkers.ChunkerSegmenter(chunker), which joins the units into a text "
             "and turns the chunks into boundaries")
#: Python's words for a string operation given a list (``re``, ``+``, ``in``, ``str`` methods).
_TEXT_GIVEN_LIST = re.compile(r"(expected string|concatenate str|requires string|must be str)\b.*\blist\b")


def text_hint(exc: BaseException) -> str:
    """:data:`TEXT_HINT` when ``exc`` is a string operation failing on a list, else nothing."""
    if isinstance(exc, AttributeError):
        name = getattr(exc, "name", None)
        return TEXT_HINT if isinstance(getattr(exc, "obj", None), list) and name and hasattr(str, name) else ""
    if isinstance(exc, TypeError) and _TEXT_GIVEN_LIST.search(str(exc)):
        return TEXT_HINT
    return ""


def _chunks_hint(raw: Any) -> str:
    """:data:`CHUNKS_HINT` when ``raw`` is a list of strings, else nothing."""
    if isinstance(raw, (list, tuple)) and raw and all(isinstance(x, str) for x in raw):
        return CHUNKS_HINT
    return ""


def _unit_chunks_hint(raw: Any) -> str:
    """What to return instead, when ``raw`` is a list of lists of strings (the units cut into
    chunks, ``[units[:4], units[4:]]``), else nothing."""
    if not isinstance(raw, (list, tuple)) or not raw or not all(
            isinstance(chunk, (list, tuple)) and all(isinstance(x, str) for x in chunk) for chunk in raw):
        return ""
    return ("; it returned lists of strings (the units cut into chunks?): a segmenter returns boundaries, the "
            "index of the unit each chunk after the first starts at; return "
            "Segmentation.from_masses([len(chunk) for chunk in chunks]) to give chunks of units")


def _nonzero_hint(raw: Any) -> str:
    """What to return instead, when ``raw`` is what ``np.where(mask)`` and ``np.nonzero`` return
    for a one-dimensional mask (a tuple holding one array of indices), else nothing."""
    if not (isinstance(raw, tuple) and len(raw) == 1 and isinstance(raw[0], np.ndarray) and raw[0].ndim == 1
            and np.issubdtype(raw[0].dtype, np.integer)):
        return ""
    return ("; it returned a tuple holding one array of integers (what np.where and np.nonzero return): return "
            "that array, np.where(...)[0]")


def _masses_hint(raw: Any, n_units: int) -> str:
    """What to return instead, when invalid boundaries are segment sizes (:func:`as_sizes`), else
    nothing."""
    if as_sizes(raw, n_units) is None:
        return ""
    return (f"; its values sum to the document's {n_units} units: segment sizes? a segmenter returns boundaries "
            "(the units where a segment starts); return Segmentation.from_masses(sizes) to give sizes")


def _gap_string_hint(raw: Any, n_units: int) -> str:
    """What to return instead, when a segmenter returned nltk's and segeval's boundary string
    (``"0010"``, a character per gap), else nothing."""
    if not isinstance(raw, str) or len(raw) != n_units - 1 or not raw or set(raw) - {"0", "1"}:
        return ""
    return ("; it is a string of 0 and 1, one per gap between the document's units: a boundary string (nltk, "
            "segeval)? a segmenter returns boundaries (the units where a segment starts); return "
            "Segmentation.from_gaps(string) to give one")


def _per_unit_hint(raw: Any, n_units: int) -> str:
    """What to return instead, when invalid boundaries hold one value per gap, all 0 or 1 (or
    ``True``/``False``: a boundary mask, nltk's gap list), one integer per unit that never
    decreases (segment labels), or one 0 or 1 per unit otherwise (a flag per unit), else nothing."""
    if not isinstance(raw, (list, tuple, np.ndarray)) or isinstance(raw, np.ndarray) and raw.ndim != 1:
        return ""
    values = list(array_as_list(raw))
    if not values or not all(isinstance(v, (int, np.integer, bool, np.bool_)) for v in values):
        return ""
    if len(values) == n_units - 1 and {int(v) for v in values} <= {0, 1}:
        return (f"; it holds {n_units - 1} values of 0 and 1, one per gap between the document's {n_units} units: "
                "a boundary mask? a segmenter returns boundaries (the units where a segment starts); return "
                "Segmentation.from_gaps(mask) to give a mask")
    if len(values) == n_units and all(int(a) <= int(b) for a, b in zip(values, values[1:])):
        return (f"; it holds {n_units} values, one per unit, that never decrease: segment labels? a segmenter "
                "returns boundaries (the units where a segment starts); return Segmentation.from_labels(labels) "
                "to give labels")
    if len(values) == n_units and {int(v) for v in values} <= {0, 1}:
        return (f"; it holds {n_units} values of 0 and 1, one per unit: a mask of the units that start a segment? "
                "a segmenter returns boundaries, the units where a segment starts (1 to n-1): return "
                "[i for i, start in enumerate(mask) if start and i > 0] (or i + 1 for each unit that ends one)")
    return ""


def checked_call(segmenter: Callable, units: Sequence[str], n_units: int) -> tuple[int, ...]:
    return checked(segmenter(units), n_units)


def failure_of(restart: int | None, exc: BaseException) -> dict[str, Any]:
    """A task failure as plain data (user exceptions may not pickle)."""
    invalid = isinstance(exc, InvalidOutput)
    kind = "output" if invalid else exc.kind if isinstance(exc, (SegmenterTimeout, WorkerCrash)) else "exception"
    return {
        "restart": restart,
        "kind": kind,
        "error": describe(exc) + text_hint(exc) if kind == "exception" else str(exc),
        "traceback": traceback.format_exc() if kind == "exception" else "",
    }


def initial_task(
    index: int, segmenter: Callable, units: tuple[str, ...], twice: bool
) -> tuple[int, Any, Any, dict[str, Any] | None, tuple[str, str, bool] | None]:
    """``B0`` (and a second unpermuted call for the determinism check) of one pair, and what
    :func:`~stability.segmenter.terms_problem` finds in the units (the main process warns about
    it and flags the pair term-blind)."""
    try:
        first = checked_call(segmenter, list(units), len(units))
        second = checked_call(segmenter, list(units), len(units)) if twice else None
        # a list, as every call of the segmenter gets (and check_segmenter's): a tuple failed one using list methods
        found = terms_problem(segmenter.segmenter if isinstance(segmenter, Guarded) else segmenter, list(units))
    except Exception as exc:
        return index, None, None, failure_of(None, exc), None
    return index, first, second, None, found


def initial_batch(tasks: list[tuple]) -> list[tuple[int, Any, Any, dict[str, Any] | None, tuple[str, str, bool] | None]]:
    """:func:`initial_task` for each of ``tasks`` (its arguments), in one worker task: a pair's
    first segmentations are two calls, and a task of their own cost the main process more to
    hand out and take back than the worker spent on them."""
    return [initial_task(*task) for task in tasks]


class Prepared:
    """The prepared state of a task's document, made by the first chunk that needs it and handed
    to every chunk of the task (their segmenters share one :func:`~stability.segmenter.prepare_key`);
    a failure of ``prepare`` is raised again for each of them."""

    def __init__(self, segmenter: Any, units: tuple[str, ...]) -> None:
        self.segmenter, self.units = segmenter, units
        self.made = False
        self.state: Any = None
        self.error: Exception | None = None

    def get(self) -> Any:
        if not self.made:
            self.made = True
            try:
                # a list, as the plain call and check_segmenter's fast_path check give it: the document's tuple
                # failed a prepare using list methods on every document of a run, after the checks passed
                self.state = self.segmenter.prepare(list(self.units))
            except Exception as exc:  # noqa: BLE001 - raised again below, for every chunk
                self.error = exc
        if self.error is not None:
            raise self.error
        return self.state


#: One chunk of restarts of one stream of one pair, as shipped to a worker:
#: ``(pair index, stream, segmenter, B0, seed, document key, restarts)``.
Chunk = tuple[int, Stream, Callable, tuple[int, ...], int, int, range]
ChunkResult = tuple[int, Stream, range, list[tuple[int, ...]], "dict[str, Any] | None"]


def restart_task(units: tuple[str, ...], chunks: list[Chunk],
                 announce: Callable[[Chunk], None] | None = None) -> list[ChunkResult]:
    """Run chunks of restarts of one document; returns each chunk's raw boundaries, keyed.

    The chunks' segmenters share one prepared state (:class:`Prepared`): the engine puts chunks
    in one task only when their segmenters have the same prepare key, or a chunk alone.
    ``announce(chunk)``, in-process only, is told of each chunk just before it runs.
    """
    prepared = Prepared(chunks[0][2], units)
    results = []
    for chunk in chunks:
        if announce is not None:
            announce(chunk)
        results.append(restart_chunk(units, prepared, *chunk))
    return results


def restart_batch(tasks: list[tuple]) -> list[ChunkResult]:
    """:func:`restart_task` for each of ``tasks`` (its arguments: the chunks of one family of
    pairs), in one worker task; their chunk results, in order."""
    return [result for units, chunks in tasks for result in restart_task(units, chunks)]


def restart_chunk(
    units: tuple[str, ...],
    prepared: Prepared,
    index: int,
    stream: Stream,
    segmenter: Any,  # a callable, with the fast or batched restart paths or not
    initial: tuple[int, ...],
    seed: int,
    key: int,
    restarts: range,
) -> ChunkResult:
    """Run one chunk of restarts of one stream.

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
                out.append(checked_call(segmenter, layout_units(units, stream_rng(seed, key, stream, restart)), n))
            return index, stream, restarts, out, None
        orders = restart_orders(seed, key, stream, restarts, labels)
        state = prepared.get() if has_fast_path(segmenter) else None
        batch_error = None
        if has_batch_path(segmenter) and orders:
            try:
                return index, stream, restarts, batch_outputs(segmenter, state, orders, n), None
            except Exception as exc:  # noqa: BLE001 - located below, restart by restart
                batch_error = exc
        table = unit_table(units) if state is None and orders else units
        for restart, order in zip(restarts, orders):
            if state is None:
                out.append(checked_call(segmenter, apply_order(table, order), n))
            else:
                out.append(checked(segmenter.segment_prepared(state, order), n))
        if batch_error is not None:
            restart = None
            raise batch_error
    except Exception as exc:
        return index, stream, restarts, out, failure_of(restart, exc)
    return index, stream, restarts, out, None


def batch_outputs(segmenter: Any, prepared: Any, orders: list[np.ndarray], n: int) -> list[tuple[int, ...]]:
    """Every order of a chunk through ``segment_batch``, each output checked."""
    raw = segmenter.segment_batch(prepared, np.stack(orders))
    if isinstance(raw, (str, bytes)) or not isinstance(raw, (Sequence, np.ndarray)):
        # as for one output (stability.segmentation.check_boundaries): a generator or set is refused
        error = InvalidTypeError.make("segment_batch's result", "a sequence of boundaries, one per order "
                                      "(a list, tuple or array)", raw)
        raise InvalidOutput(f"returned invalid boundaries: {error}")
    raw = list(raw)
    if len(raw) != len(orders):
        raise InvalidOutput(f"segment_batch returned {len(raw)} results for {len(orders)} orders")
    return [checked(b, n) for b in raw]


def initial_crashed(task: tuple, crash: WorkerCrash, n_jobs: int, alone: Callable = submit_alone) -> tuple:
    """The result of an initial task whose worker died when run alone."""
    return task[0], None, None, failure_of(None, crash), None


def _each_alone(tasks: list[tuple], function: Callable, crashed: Callable, n_jobs: int, alone: Callable) -> list:
    """``function``'s result for each of ``tasks``, the tasks of a batch whose worker died when
    run alone: each is run again alone, and ``crashed(task, crash, n_jobs, alone)`` gives the
    result of one that kills its worker even so."""
    out = []
    for one in tasks:
        try:
            out.append(alone(function, one, n_jobs))
        except WorkerCrash as again:
            out.append(crashed(one, again, n_jobs, alone))
    return out


def initial_batch_crashed(task: tuple, crash: WorkerCrash, n_jobs: int,
                          alone: Callable = submit_alone) -> list[tuple]:
    """The results of a batch of initial tasks whose worker died when run alone: each pair's is
    run again alone, and those that kill the worker even so are crash failures."""
    return _each_alone(task[0], initial_task, initial_crashed, n_jobs, alone)


def restart_crashed(task: tuple, crash: WorkerCrash, n_jobs: int, alone: Callable = submit_alone) -> list[ChunkResult]:
    """The results of a task of restarts whose worker died when run alone: each of its chunks'
    restarts are run again one at a time, alone (``alone(function, task, n_jobs)``, which raises
    :class:`WorkerCrash`), to find the first that kills the worker."""
    units, chunks = task
    return [chunk_crashed(units, chunk, n_jobs, alone) for chunk in chunks]


def restart_batch_crashed(task: tuple, crash: WorkerCrash, n_jobs: int,
                          alone: Callable = submit_alone) -> list[ChunkResult]:
    """The results of a batch of restart tasks whose worker died when run alone: each family's
    task is run again alone, and one that kills the worker even so is narrowed down to its
    restart (:func:`restart_crashed`)."""
    return [result for results in _each_alone(task[0], restart_task, restart_crashed, n_jobs, alone)
            for result in results]


def chunk_crashed(units: tuple[str, ...], chunk: Chunk, n_jobs: int, alone: Callable = submit_alone) -> ChunkResult:
    index, stream, *_, restarts = chunk
    out: list[tuple[int, ...]] = []
    for restart in restarts:
        one = (units, [(*chunk[:-1], range(restart, restart + 1))])
        try:
            [(_, _, _, got, problem)] = alone(restart_task, one, n_jobs)
        except WorkerCrash as again:
            return index, stream, restarts, out, failure_of(restart, again)
        out.extend(got)
        if problem is not None:
            return index, stream, restarts, out, problem
    return index, stream, restarts, out, None


ON_CRASH = {initial_task: initial_crashed, initial_batch: initial_batch_crashed, restart_task: restart_crashed,
            restart_batch: restart_batch_crashed}
