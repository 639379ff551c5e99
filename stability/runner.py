"""The stability test of one document and the corpus runner: the public entry points.

:func:`stability_test` runs Lamprier et al.'s (2007) Algorithm 1 on one document, with the
controls of ``DESIGN.md``; :func:`evaluate` runs several segmenters over a corpus and keeps its
results file (:mod:`stability.store`). Both read one :class:`~stability.settings.Settings`
(given, or built from their keywords) and hand (segmenter, document) pairs to the engine
(:mod:`stability.engine`).
"""

from __future__ import annotations

import dataclasses
import functools

import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from itertools import chain, islice
from typing import Any, cast

from .checks import array_as_list, first_few
from .corpus import Document, as_documents, split_text
from .engine import Engine, Finding, OnTerms, Pair, Progress, Shipment, warn_terms
from .exceptions import (InvalidParameterError, InvalidTypeError, RunInterrupted, SegmenterError, SegmenterOutputError,
                         warn)
from .outcome import stored_headline_interval
from .permutations import doc_key
from .registry import get_segmenter
from .results import EXECUTION_SETTINGS, CorpusResult, Failure, StabilityResult, _jsonable
from .segmenter import for_document, parameter_defaults, segmenter_name, terms_problem
from .settings import Settings, SettingsWarning
from .store import (SEGMENTER_CODE, ResultsStore, ResultsWarning, ResultsWriteError, corpus_fingerprint,
                    document_hash, provenance as run_provenance, results_file, run_header)
from .summary import summarize

__all__ = ["stability_test", "evaluate", "resolve_segmenters", "Settings"]


def resolve_segmenters(segmenters: Any) -> dict[str, Callable]:
    """Normalise ``segmenters`` to an ordered mapping ``label -> segmenter``.

    Accepts a mapping ``label -> spec``, a sequence of specs, or a single spec, where a spec is
    anything :func:`stability.get_segmenter` accepts (a callable, a registered name or a
    ``"module:attribute"`` string).
    """
    items: list[tuple[str | None, Any, str | None]]  # (label, spec, where the caller gave it)
    if isinstance(segmenters, Mapping):
        items = [(str(label), spec, f"segmenters[{label!r}]") for label, spec in segmenters.items()]
    elif isinstance(segmenters, (str, bytes)) or callable(segmenters):
        items = [(None, segmenters, None)]
    elif isinstance(segmenters, Iterable):
        items = [(None, spec, f"segmenters[{i}]") for i, spec in enumerate(segmenters)]
    else:
        raise InvalidTypeError.make("segmenters", "a segmenter, a sequence of them or a mapping label -> segmenter", segmenters)
    resolved: dict[str, Callable] = {}
    for label, spec, place in items:
        try:
            segmenter = get_segmenter(spec)
        except InvalidTypeError as exc:
            if place is None or isinstance(spec, str) or callable(spec):
                raise  # the message names the segmenter already
            # "segmenter must be ...": say which entry of the caller's mapping or list it was
            raise InvalidTypeError(f"{place}{str(exc).removeprefix('segmenter')}", parameter="segmenters") from None
        if label is None:
            label = spec if isinstance(spec, str) else segmenter_name(segmenter)
        if label in resolved:
            raise InvalidParameterError(f"segmenter label {label!r} is used twice; give a mapping with distinct labels")
        resolved[label] = segmenter
    if not resolved:
        raise InvalidParameterError("segmenters must name at least one segmenter; received none")
    return resolved


def _segmenter_error(failure: Failure, message: str) -> SegmenterError:
    """The exception raised for a recorded failure (invalid output or an exception), with the
    segmenter's traceback when it raised."""
    error_class = SegmenterOutputError if failure.kind == "output" else SegmenterError
    return error_class(message, segmenter=failure.segmenter, document=failure.document or None,
                       restart=failure.restart, seed=failure.seed, stream=failure.stream,
                       traceback=failure.traceback)


def _check_timeout(settings: Settings) -> None:
    """Refuse, before any call, a ``timeout`` that no call could honour: its ``SIGALRM`` timer
    needs the main thread of the process running the calls (:mod:`stability.isolation`), so a run
    in this process started from another thread would record every pair as a timeout failure."""
    if settings.timeout is None:
        return
    if not hasattr(signal, "setitimer"):
        raise InvalidParameterError.make("timeout", "None on a platform without SIGALRM (the timeout's timer)",
                                         settings.timeout)
    in_process = settings.backend == "sequential" or (
        settings.effective_jobs() == 1 and settings.backend is None)
    if in_process and threading.current_thread() is not threading.main_thread():
        raise InvalidParameterError.make(
            "timeout", "None when the segmenter calls run in this process (n_jobs=1) from a thread other than "
            "the main thread (the timeout's SIGALRM timer needs the main thread); call from the main thread, or "
            "pass backend='loky' to run the calls in a worker process", settings.timeout)


def _splitter(splitter: Any) -> Callable[[str], list[str]] | None:
    """The sentence splitter for raw-text input (``None``: raw strings are refused)."""
    from .splitters import get_splitter

    return None if splitter is None else get_splitter(splitter)


def _one_document(units: Sequence[str] | Document | str, doc_id: str | None,
                  splitter: Any = None) -> tuple[Document, int]:
    """The document of :func:`stability_test` and the key of its random streams."""
    if isinstance(units, Document):
        doc = units if doc_id is None else Document(str(doc_id), units.units, units.references, units.times)
        return doc, doc_key(doc.id)
    if isinstance(units, str) and (split := _splitter(splitter)) is not None:
        units = split_text(split, units, "units")
    units = array_as_list(units)  # a numpy array or pandas Series of units
    if isinstance(units, (str, bytes)) or not isinstance(units, Sequence):
        raise InvalidTypeError.make(
            "units", "a sequence of strings (one per unit), a Document, or raw text with splitter=", units)
    doc = Document(id="" if doc_id is None else str(doc_id), units=tuple(units))
    return doc, doc_key(None if doc_id is None else doc.id)


def stability_test(
    segmenter: Any,
    units: Sequence[str] | Document | str,
    settings: Settings | None = None,
    *,
    doc_id: str | None = None,
    splitter: Any = None,
    **keywords: Any,
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
    units : sequence of str, Document or str
        The document's units (a Document's references also get their metrics, see ``metrics``),
        or raw text with ``splitter``.
    settings : Settings, optional
        The run's settings (default: the defaults of :class:`~stability.settings.Settings`).
    doc_id : str, optional
        Document id; it keys the random streams (defaults to the Document's id, else ``None``).
    splitter : str or callable, optional
        With raw text as ``units``: the sentence splitter that cuts it into units (a name of
        :func:`stability.splitters.available_splitters`, e.g. ``"auto"``, or ``text -> list[str]``).
    **keywords
        Settings by name (``n_restarts=10``...), replacing those of ``settings``; see
        :class:`~stability.settings.Settings` (corpus-run settings have no effect here).

    Returns
    -------
    StabilityResult

    Raises
    ------
    SegmenterError
        If the segmenter raises (:class:`SegmenterOutputError`: invalid boundaries), naming the
        segmenter, document, restart and seed.

    Examples
    --------
    >>> from stability import stability_test
    >>> even = lambda units: list(range(3, len(units), 3))
    >>> result = stability_test(even, ["w"] * 12, n_restarts=10)
    >>> result.f1, result.content_blind
    (1.0, True)
    """
    settings = Settings.build(settings, **keywords)
    _check_timeout(settings)
    doc, key = _one_document(units, doc_id, splitter)
    resolved = get_segmenter(segmenter)
    label = segmenter if isinstance(segmenter, str) else segmenter_name(resolved)
    return _test_pair(Pair(label, resolved, doc, key), settings)


def _test_pair(pair: Pair, settings: Settings) -> StabilityResult:
    """Run the engine on one pair; its failure is raised."""
    bar = Progress(settings.progress is True, pair.label)  # one document: no bar unless asked
    bar.add_total(settings.restart_budget())
    finished = False
    try:
        engine = Engine(settings, bar)
        engine.run([pair])
        finished = True
    finally:
        bar.close(finished)
    if pair.error is not None:
        failure = pair.error
        raise _segmenter_error(failure, failure.error)
    return engine.result(pair)


class _CorpusRun:
    """The state of one :func:`evaluate` call: results in corpus order, stored as they finish
    (:func:`_run_corpus` gives it its results file and progress display)."""

    def __init__(self, settings: Settings, segmenters: dict[str, Callable],
                 on_result: Callable[[StabilityResult], None] | None) -> None:
        self.settings = settings
        self.segmenters = segmenters
        self.store: ResultsStore | None = None
        self.on_result = on_result
        self.progress = Progress(False)
        self.results: dict[str, list[StabilityResult]] = {label: [] for label in segmenters}
        self.failures: list[Failure] = []
        self.n_documents = 0
        # what the documents tell of the run, said once at its end (a block's documents said per
        # block repeated the warning, its list cut, for each block of 64): (id, units) of those too
        # short for a window of k units; the ids of those of one unit
        self.k = _window(settings)
        self.short: list[tuple[str, int]] = []
        self.single: list[str] = []
        self.warned: set[tuple[str, str]] = set()  # (segmenter, kind of problem) warned about (warn_terms), once a run
        self.shipment = Shipment()  # how the segmenters reach the workers, block after block
        self.shipment.keep(segmenters.values())

    def block(self, docs: list[Document]) -> None:
        """Evaluate one block of documents; every pair is stored as soon as it and the pairs
        before it are finished, so the results file is in corpus order for any ``n_jobs``. If the
        run stops (an interrupt, an error) the pairs finished behind one still running are stored
        too, each with its document's place (:meth:`ResultsStore.add`), to be reused by a resume
        (:meth:`_keep_behind`: a failure to keep them does not replace what stopped the run)."""
        if self.k is not None:
            self.short += [(doc.id, doc.n_units) for doc in docs if doc.references and 2 <= doc.n_units <= self.k]
        self.single += [doc.id for doc in docs if doc.n_units == 1]
        slots: list[tuple[str, StabilityResult | Failure | int]] = []  # (document hash, value or pair)
        pairs: list[Pair] = []
        digests: list[str] = []  # of each pair's document
        checked: list[tuple[int, Finding]] = []  # (slot, what the terms check finds in a pair reused)
        slot_of: list[int] = []  # each new pair's slot
        marked: set[int] = set()  # slots of reused results whose term-blind mark the check changed: written again
        for doc in docs:
            digest = document_hash(doc) if self.store is not None else ""
            for label, segmenter in self.segmenters.items():
                kept = self.store.reuse(label, doc.id, digest) if self.store is not None else None
                if kept is None:
                    slot_of.append(len(slots))
                    slots.append((digest, len(pairs)))
                    pairs.append(Pair(label, segmenter, doc, doc_key(doc.id)))
                    digests.append(digest)
                else:
                    value, finding = _rechecked(kept, segmenter, doc, self.settings)
                    if finding is not None:
                        checked.append((len(slots), (label, doc.id, finding)))
                    if value is not kept:
                        marked.add(len(slots))
                    slots.append((digest, value))
        first_place = self.n_documents  # of the block's first document in the corpus
        self.n_documents += len(docs)
        self.progress.add_total(len(pairs) * self.settings.restart_budget())
        self.progress.add_pairs(len(pairs))
        engine = Engine(self.settings, self.progress, shipment=self.shipment)
        finished = [False] * len(pairs)
        position = 0

        def flush() -> None:
            nonlocal position
            while position < len(slots):
                digest, value = slots[position]
                if isinstance(value, int) and not finished[value]:
                    return
                position += 1  # taken before it is emitted: a run stopped in _emit (on_result raising,
                # an interrupt) must not emit it again as one finished behind (its restarts are gone)
                self._emit(engine, pairs, digest, value, again=position - 1 in marked)

        def on_done(index: int) -> None:
            finished[index] = True
            flush()

        try:
            self._run(pairs, digests, on_done, checked, slot_of)
        except BaseException as exc:
            if not isinstance(exc, ResultsWriteError):  # a file that cannot be written keeps nothing more
                # the pairs that finished behind one still running: written ahead of corpus order, each
                # with its document's place, so that a resume reuses them (nothing computed is lost);
                # one whose restarts are all back while a worker computed its result is scored here
                per_doc = len(self.segmenters)
                behind = [(slot, first_place + slot // per_doc) for slot in range(position, len(slots))
                          if isinstance(held := slots[slot][1], int) and (finished[held] or pairs[held].complete)]
                self._keep_behind(exc, engine, pairs, slots, behind)
            raise
        flush()  # slots kept from the results file after the last new pair

    def _keep_behind(self, stop: BaseException, engine: Engine, pairs: list[Pair],
                     slots: list[tuple[str, StabilityResult | Failure | int]], behind: list[tuple[int, int]]) -> None:
        """Keep, as the run stops on ``stop``, the pairs finished behind one still running (``behind``:
        (slot, its document's place in the corpus)), without letting a failure to keep them take the
        place of ``stop``: the user gets the error or the interrupt that stopped the run, with what could
        not be kept said in a note on it and a :class:`~stability.store.ResultsWarning`. A pair whose
        result cannot be computed is skipped and the others kept; a results file that cannot be written
        (:class:`ResultsWriteError`) keeps nothing after it (a line it cut would be followed by others,
        and the file unreadable); an interrupt while saving (a second Ctrl-C) stops saving at once and,
        when ``stop`` was an error, ends the run as the interruption (a Ctrl-C is never turned into an
        error that ``except Exception`` catches), the error named in its note."""
        lost: list[str] = []
        cut: BaseException | None = None  # what stopped the saving before its end
        done = 0
        try:
            for slot, place in behind:
                digest, held = slots[slot]
                pair = pairs[cast(int, held)]
                try:
                    self._emit(engine, pairs, digest, held, ahead=place)
                except ResultsWriteError:
                    raise
                except Exception as error:  # noqa: BLE001 - said in the note and the warning below
                    lost.append(f"segmenter {pair.label!r} on document {pair.doc.id!r} ({type(error).__name__}: {error})")
                done += 1
        except (ResultsWriteError, KeyboardInterrupt) as error:
            cut = error
        if not lost and cut is None:
            return
        where = f" in {self.store.path}" if self.store is not None else ""
        said = [f"{done - len(lost)} kept{where}"]
        if lost:
            said.append(f"{len(lost)} could not be scored and {'is' if len(lost) == 1 else 'are'} left out: "
                        + "; ".join(lost))
        if cut is not None:
            why = (f"{cut.filename} could not be written ({cut.strerror})" if isinstance(cut, ResultsWriteError)
                   else "saving them was interrupted")
            said.append(f"the last {len(behind) - done} not kept: {why}")
        resume = "; a resume computes the missing ones again" if self.store is not None else ""
        message = (f"as the run stopped ({type(stop).__name__}), {len(behind)} (segmenter, document) pair(s) had "
                   f"finished behind one still running: {'; '.join(said)}{resume}")
        stop.add_note(message)
        try:
            warn(message, ResultsWarning)
        except Warning:  # warnings made errors: the note on the exception says it, and must not replace it
            pass
        if isinstance(cut, KeyboardInterrupt) and not isinstance(stop, KeyboardInterrupt):
            cut.add_note(f"the run had stopped on {type(stop).__name__}: {stop}")
            cut.add_note(message)
            raise cut

    def _run(self, pairs: list[Pair], digests: list[str], on_done: Callable[[int], None],
             checked: list[tuple[int, Finding]], slot_of: list[int]) -> None:
        """Run the block's new pairs. With a results file, in-process calls are announced to the
        store's marker first; a pair that was running when a previous in-process run died, or whose
        recorded crash a resume retries (``store.contained``), runs alone in a worker process, where
        a crash becomes its failure. What the terms check found in the pairs reused (``checked``,
        by slot) is said with what the first engine finds in its own, even with none left to run,
        in corpus order (``slot_of``: each new pair's slot)."""
        unsaid = list(checked)

        def said(indices: list[int]) -> OnTerms:
            """How the engine of ``pairs[i] for i in indices`` says what the terms check found."""
            def say(found: list[tuple[int, tuple[str, str, bool]]]) -> None:
                own = [(slot_of[indices[j]], (pairs[indices[j]].label, pairs[indices[j]].doc.id, terms))
                       for j, terms in found]
                merged = sorted([*unsaid, *own], key=lambda item: item[0])
                unsaid.clear()
                warn_terms([finding for _, finding in merged], self.warned)
            return say

        store = self.store
        kept_apart = set() if store is None else store.contained
        suspect = [i for i, pair in enumerate(pairs) if (pair.label, pair.doc.id) in kept_apart]
        with warnings.catch_warnings():  # checked, and warned about, when the run began
            warnings.simplefilter("ignore", SettingsWarning)
            contained = dataclasses.replace(self.settings, n_jobs=1, backend="loky")
        for i in suspect:
            Engine(contained, self.progress, shipment=self.shipment, on_terms=said([i])).run(
                [pairs[i]], functools.partial(_first_done, on_done, i))
        rest = [i for i in range(len(pairs)) if i not in suspect]
        announce = None
        if store is not None:
            def announce(j: int, stream: str | None, restarts: range | None) -> None:
                pair = pairs[rest[j]]
                store.running(pair.label, pair.doc.id, digests[rest[j]], stream, restarts)

        Engine(self.settings, self.progress, announce, shipment=self.shipment, on_terms=said(rest)).run(
            [pairs[i] for i in rest], lambda j: on_done(rest[j]))

    def _emit(self, engine: Engine, pairs: list[Pair], digest: str, value: StabilityResult | Failure | int,
              again: bool = False, ahead: int | None = None) -> None:
        """Take one slot's outcome in corpus order: a new pair's (``value`` its index), stored; or one
        the results file holds, stored again when ``again`` (:func:`_rechecked` marked it). ``ahead``:
        a new pair taken out of corpus order as the run stops (its document's place in the corpus),
        stored with it and not handed to ``on_result`` (which sees results in corpus order)."""
        fresh = isinstance(value, int)
        if isinstance(value, int):
            pair = pairs[value]
            outcome = pair.error if pair.error is not None else engine.result(pair)
            pair.streams = {}  # the restarts are in the result now
        else:
            outcome = value
        if isinstance(outcome, Failure):
            self.failures.append(outcome)
        else:
            self.results[outcome.segmenter].append(outcome)
        if fresh:
            self.progress.pair_done()
        if (fresh or again) and self.store is not None:
            self.store.add(outcome, digest, ahead)  # of a pair's records, the file's last counts
        if fresh and ahead is None and isinstance(outcome, StabilityResult) and self.on_result is not None:
            self.on_result(outcome)


def _rechecked(kept: StabilityResult | Failure, segmenter: Any, doc: Document,
               settings: Settings) -> tuple[StabilityResult | Failure, tuple[str, str, bool] | None]:
    """What a resume reuses for a pair, with the terms check a fresh run makes on it
    (:func:`~stability.segmenter.terms_problem`, which reads only the segmenter's ``unit_terms``: about
    the cost of one segmentation of the document, where the pair cost two and two per restart).

    Returns the value to reuse and what the check found (``None``: nothing, or a failure recorded
    before the pair's first segmentation was made, where a fresh run checks nothing either). A
    fresh run warns about what it finds, and so does the resume, even one with nothing left to
    compute (:func:`stability.engine.warn_terms`). The result's mark follows the check, as a fresh
    run's would: one not marked term-blind that the check finds term-blind was written before the
    mark existed, where "not term-blind" and "not checked" read the same; one marked that the
    check does not find term-blind was written under an older threshold (under half of the units
    linked, before the 10% rule). Either is marked as a fresh run marks it (``term_blind``, and its
    headline interval again: (0, 0) where term-blind), and the resume writes it to the results
    file again, so that the warnings and the report say the same. A check that fails (the
    segmenter's terms cannot be read again) is found as ``("unread", error, False)``, said as the
    check's other findings are (once per segmenter), and the value is reused as the file holds it.
    """
    if isinstance(kept, Failure) and kept.stream is None:
        return kept, None
    try:
        found = terms_problem(for_document(segmenter, doc), doc.units)
    except Exception as exc:  # noqa: BLE001 - the run goes on with the result it has; the warning says why
        return kept, ("unread", f"{type(exc).__name__}: {exc}", False)
    mark = found[1] if found is not None and found[2] else None
    if not isinstance(kept, StabilityResult) or (kept.term_blind is None) == (mark is None):
        return kept, found
    marked = dataclasses.replace(kept, term_blind=mark)
    interval = stored_headline_interval(marked, settings.confidence, settings.n_bootstrap)
    return dataclasses.replace(marked, headline_ci=interval), found


def _first_done(on_done: Callable[[int], None], index: int, _: int) -> None:
    """``on_done(index)`` for the one pair of an engine run alone (whose own index is 0)."""
    on_done(index)


def _window(settings: Settings) -> int | None:
    """The run's window ``k`` of the metrics when it is a number of units (not a rule), else None."""
    k = settings.metrics.get("k") if isinstance(settings.metrics, dict) else None
    return k if isinstance(k, int) and not isinstance(k, bool) else None


def _warn_short_for_window(short: Sequence[tuple[str, int]], k: int | None) -> None:
    """Warn, naming them, about the documents with references too short for the run's window ``k``
    (an integer), ``short`` (id, units): their window metrics (Pk, WindowDiff and variants) are NaN,
    left out of means."""
    if short:
        shown = first_few([f"{doc_id!r} ({n_units} units)" for doc_id, n_units in short], form=str)
        warn(f"metrics k = {k} is longer than the {len(short)} document(s) {shown} can hold (a window of at most "
             "one unit fewer than the document): their window metrics are NaN, left out of the means; a rule "
             "('lamprier', 'nltk', 'segeval') gives each document its own window", SettingsWarning)


def _warn_single_units(single: Sequence[str], n_documents: int) -> None:
    """Warn, naming them, about the documents of one unit (``single``, their ids): no segmenter can
    place a boundary there, so each scores 0 on them, and a reference metric finds every segmenter
    right (no boundary in either); a run of such documents only flagged every segmenter
    content-blind, without a word of why."""
    from .readers.common import CorpusWarning

    if single:
        shown = first_few(single)
        warn(f"{len(single)} of {n_documents} document(s) hold a single unit ({shown}): no segmenter can place a "
             "boundary there: each scores 0 on them (the headline's no-credit rule) and, against a reference, is right "
             "(no boundary in either); read the corpus in smaller units (sentences rather than paragraphs or "
             "lines) to test them", CorpusWarning)


def _documents(documents: Iterable[Any], fingerprint: bool, split: Callable[[str], list[str]] | None = None,
               told: Sequence[str] = ()) -> tuple[Iterator[Document], dict[str, Any] | None]:
    """The corpus as a stream of Documents (raw strings cut by ``split``), and its fingerprint when
    it is a sequence and ``fingerprint`` is asked for. A sequence is known in full before the run,
    so all of it is validated before any segmenter runs (an invalid document near its end must not
    throw away the results of the documents before it); an iterator is validated as it is read.
    A corpus of no document is refused, as the command line refuses one, before anything is
    written: a run of nothing is a mistake (an empty list, a generator already consumed), not a
    result of NaN scores. ``told``: the labels of the segmenters told each document's reference
    count (:func:`check_reference_counts`)."""
    if isinstance(documents, Sequence) and not isinstance(documents, (str, bytes)):
        docs = list(as_documents(documents, split))
        if not docs:
            raise _no_document(documents)
        check_reference_counts(docs, told)
        return iter(docs), corpus_fingerprint(docs) if fingerprint else None
    stream = iter(as_documents(documents, split))
    first = next(stream, None)
    if first is None:
        raise _no_document(documents)
    return chain((first,), stream), None


def told_reference_count(segmenters: Mapping[str, Any]) -> list[str]:
    """The labels of the segmenters (resolved, :func:`resolve_segmenters`) told each document's
    reference count (``n_segments="reference"``, :class:`stability.registry.ReferenceCountSegmenter`)."""
    from .registry import ReferenceCountSegmenter

    return [label for label, segmenter in segmenters.items() if isinstance(segmenter, ReferenceCountSegmenter)]


def check_reference_counts(docs: Iterable[Document], told: Sequence[str]) -> None:
    """Refuse, before anything runs, segmenters told each document's reference count
    (``n_segments="reference"``; ``told``, their labels) over a corpus of which no document has a
    reference: each of its pairs would fail alike, and the run end with nothing of theirs. A
    corpus where only some documents have one runs; the others are failures of those documents
    (:class:`stability.registry.ReferenceCountSegmenter`). ``docs`` is read up to its first
    document with a reference, one document at a time (a stream of a corpus read again, as the
    command line gives it, is never held in memory)."""
    if not told:
        return
    n_documents = 0
    for doc in docs:
        if doc.references:
            return
        n_documents += 1
    from .registry import REFERENCE_COUNT
    from .reporting.corpus import label_list

    raise InvalidParameterError(
        f"{label_list(told)} {'takes' if len(told) == 1 else 'take'} n_segments={REFERENCE_COUNT!r}, the number "
        f"of segments of each document's first reference, and none of the {n_documents} document(s) has a "
        "reference segmentation; give it a number of segments, or a corpus with references", parameter="n_segments")


def _no_document(documents: Any) -> InvalidParameterError:
    if isinstance(documents, Sequence):
        return InvalidParameterError.make("documents", "a corpus of at least one document", documents)
    return InvalidParameterError(f"documents must be a corpus of at least one document; received a "
                                 f"{type(documents).__name__} that yielded none", parameter="documents")


def evaluate(
    segmenters: Any,
    documents: Iterable[Any],
    settings: Settings | None = None,
    *,
    output: str | os.PathLike | None = None,
    on_result: Callable[[StabilityResult], None] | None = None,
    splitter: Any = None,
    provenance: Mapping[str, Any] | None = None,
    **keywords: Any,
) -> CorpusResult:
    """Run the stability test of several segmenters over a corpus.

    Parameters
    ----------
    segmenters : mapping, sequence or single segmenter
        ``label -> segmenter`` (or specs whose labels are their names); see
        :func:`resolve_segmenters`.
    documents : iterable
        :class:`~stability.Document` objects, mappings with ``id``/``units``/``references`` keys,
        or bare lists of units (ids: their positions); read ``block_size`` at a time. A sequence
        (a list) is validated in full before any segmenter runs; an iterator as it is read.
    settings : Settings, optional
        The run's settings (default: the defaults of :class:`~stability.settings.Settings`).
    output : path, optional
        Results file (:mod:`stability.store`), one record per (segmenter, document) as soon as
        it is finished, or a folder to hold it as ``results.jsonl``, as ``stability run --out``
        writes it (a folder that exists, or a path ending in ``/``; :func:`~stability.store.results_file`).
        If the file exists: an error unless ``resume`` (compute only what is missing,
        if it holds the same settings, segmenter parameters and documents) or ``overwrite``.
    on_result : callable, optional
        Called with each new :class:`StabilityResult`, in corpus order (not with those a
        resume reuses). An exception it raises stops the run and propagates; the pairs finished
        before it are in ``output``, where ``resume=True`` continues.
    splitter : str or callable, optional
        Documents given as raw strings are cut into units by this sentence splitter (a name of
        :func:`stability.splitters.available_splitters` or ``text -> list[str]``); without it a
        raw string is refused.
    provenance : mapping, optional
        What else the run record keeps to reproduce the run, beside the versions of stability,
        Python and numpy (:func:`stability.store.provenance`) and where the segmenters' code comes
        from when not from stability (``segmenter_code``: a plugin's package and version, a local
        module's file digest; a resume computes again the pairs of a segmenter whose code changed, and
        warns under other versions of stability, Python or numpy), e.g. ``{"command": ...}``; it is
        in the result's ``settings["provenance"]`` and the results file's header, not compared on resume.
    **keywords
        Settings by name (``n_restarts=10``, ``resume=True``...), replacing those of
        ``settings``; see :class:`~stability.settings.Settings`.

    Returns
    -------
    CorpusResult
        Per-document results, per-segmenter summaries (the paper's Table 3: mean, std and
        bootstrap interval over documents; micro averages over all restarts), and failures.

    Raises
    ------
    RunInterrupted
        On Ctrl-C (SIGINT, a notebook's interrupt) or SIGTERM: a ``KeyboardInterrupt`` whose
        ``result`` is the :class:`CorpusResult` of the pairs finished before it (its notes, and a
        :class:`~stability.store.ResultsWarning`, say which of them could not be written to ``output``).
    SegmenterError
        With ``on_error="raise"``, the first failure of the run.
    InvalidParameterError
        When ``documents`` holds no document (before anything is run or written), or a setting
        or document is invalid, or a segmenter is told each document's reference count
        (``n_segments="reference"``) and ``documents``, a sequence, has no reference at all
        (an iterator fails document by document instead; :func:`check_reference_counts` checks
        one read ahead, as ``stability run`` does its corpus).

    Examples
    --------
    >>> from stability import evaluate
    >>> docs = [["a"] * 12, ["b"] * 15]
    >>> res = evaluate({"even": "even"}, docs, n_restarts=5, progress=False)
    >>> res.summary["even"].macro["f1"].mean
    1.0
    """
    settings = Settings.build(settings, **keywords)
    _check_timeout(settings)
    _check_run_arguments(output, on_result, settings)
    output = None if output is None else results_file(output)
    resolved = resolve_segmenters(segmenters)
    _warn_without_layout_control(settings, resolved)
    header = run_header(settings, resolved)
    origin = run_provenance(**dict(provenance or {}), **_segmenter_code(resolved))
    run = _CorpusRun(settings, resolved, on_result)
    try:
        _run_corpus(run, documents, output, header, _splitter(splitter), origin)
    except KeyboardInterrupt as stop:
        interrupted = _interrupted(run, header, origin, output)
        for note in getattr(stop, "__notes__", ()):  # what could not be kept as the run stopped
            interrupted.add_note(note)
        raise interrupted from None
    if run.failures and settings.on_error == "raise":
        first = run.failures[0]
        raise _segmenter_error(first, f"{first.error} ({len(run.failures)} failure(s) in the run)")
    return _corpus_result(run, header, origin, run.n_documents)


def _segmenter_code(segmenters: Mapping[str, Any]) -> dict[str, Any]:
    """``{SEGMENTER_CODE: {label: {package: version}}}`` for the segmenters whose code comes from
    outside stability (:func:`stability.registry.segmenter_code`), ``{}`` when none does (the
    record of a run of built-in segmenters is as before)."""
    from .registry import segmenter_code

    code = {label: found for label, s in segmenters.items() if (found := segmenter_code(s))}
    return {SEGMENTER_CODE: code} if code else {}


def _check_run_arguments(output: Any, on_result: Any, settings: Settings) -> None:
    """Refuse, before anything runs, an ``output`` that is not a path and an ``on_result`` that
    cannot be called: found later, they would end the run after its first finished pair, with
    pathlib's or Python's own error about an ``int`` rather than one naming the argument. And
    ``resume`` or ``overwrite`` without ``output``: there is no results file to continue or
    replace, and a fresh run in memory would pass for the continued one (the command line and
    configs refuse it too)."""
    if output is not None and not isinstance(output, (str, os.PathLike)):
        raise InvalidTypeError.make("output", "a path to the results file or its folder (a str or os.PathLike) or None",
                                    output)
    for name in ("resume", "overwrite"):
        if output is None and getattr(settings, name):
            raise InvalidParameterError(f"{name}=True needs output= (the results file of the run it "
                                        f"{'continues' if name == 'resume' else 'replaces'}); received output=None",
                                        parameter=name)
    if on_result is not None and not callable(on_result):
        raise InvalidTypeError.make("on_result", "a callable taking each new StabilityResult, or None", on_result)


def _warn_without_layout_control(settings: Settings, segmenters: Mapping[str, Callable]) -> None:
    """Warn when length-based segmenters (text chunkers, ``Segmenter.length_based``) run without
    the layout control: their stability comes from the units' lengths, which the test keeps, so
    the headline ranks them high whatever they do with the topics, and nothing in the report says so."""
    if settings.layout_control:
        return
    chunkers = [label for label, segmenter in segmenters.items() if getattr(segmenter, "length_based", False) is True]
    if chunkers:
        from .reporting.corpus import label_list

        one = len(chunkers) == 1
        its, it = ("its", "it") if one else ("their", "them")
        warn(f"{label_list(chunkers)} {'places' if one else 'place'} {its} boundaries by the units' lengths "
             f"({'a text chunker' if one else 'text chunkers'}), which the stability test keeps, so {its} stability "
             f"says nothing of the content and can rank {it} above topic segmenters; run the layout control to flag "
             f"{it} layout-only (layout_control=True)", SettingsWarning)


def _corpus_result(run: _CorpusRun, header: dict[str, Any], origin: dict[str, Any], n_documents: int) -> CorpusResult:
    """The :class:`CorpusResult` of what ``run`` has finished, summarised over documents."""
    s = run.settings
    summary = summarize(run.results, run.failures, seed=s.seed, confidence=s.confidence,
                        n_bootstrap=s.n_bootstrap, content_margin=s.content_margin,
                        params=header.get("segmenter_params"))
    extra = {**{name: getattr(s, name) for name in EXECUTION_SETTINGS}, "n_documents": n_documents,
             "provenance": run.store.provenance if run.store is not None else origin}
    return CorpusResult(run.results, summary, run.failures, {**header, **extra})


def _interrupted(run: _CorpusRun, header: dict[str, Any], origin: dict[str, Any],
                 output: str | os.PathLike | None) -> RunInterrupted:
    """The interrupt of a corpus run, holding the pairs finished before it (in corpus order, as
    the results file has them); its documents are those reached, as :func:`load_results` counts
    them in an interrupted run's file."""
    finished = run.failures + [r for docs in run.results.values() for r in docs]
    reached = len({f.document for f in run.failures} | {r.document for docs in run.results.values() for r in docs})
    where = (f"they are in {os.fspath(output)!r} too, and evaluate(..., output=..., resume=True) continues the run"
             if output is not None else "give output= to keep a run's results on disk as they finish and resume it")
    message = (f"evaluate was interrupted; {len(finished)} (segmenter, document) pairs finished before it, kept in "
               f"this exception's .result (a CorpusResult: `except KeyboardInterrupt as stop: partial = stop.result`); "
               f"{where}")
    return RunInterrupted(message, lambda: _corpus_result(run, header, origin, reached), finished=len(finished))


def _run_corpus(run: _CorpusRun, documents: Iterable[Any], output: str | os.PathLike | None,
                header: dict[str, Any], split: Callable[[str], list[str]] | None = None,
                origin: dict[str, Any] | None = None) -> None:
    """Evaluate the corpus block by block into ``run``, keeping the results file when there is one."""
    settings = run.settings
    docs, fingerprint = _documents(documents, output is not None, split, told_reference_count(run.segmenters))
    if output is not None:
        defaults = {label: _jsonable(parameter_defaults(s)) for label, s in run.segmenters.items()}
        run.store = ResultsStore(output, header, corpus=fingerprint, resume=settings.resume,
                                 overwrite=settings.overwrite, retry_failed=settings.retry_failed, provenance=origin,
                                 defaults=defaults)
    run.progress = Progress(settings.progress)
    finished = False
    try:
        with run.store if run.store is not None else nullcontext():
            # a block beyond sys.maxsize documents (islice's limit) is the whole corpus all the same
            while block := list(islice(docs, min(settings.block_size, sys.maxsize))):
                run.block(block)
            _warn_short_for_window(run.short, run.k)
            _warn_single_units(run.single, run.n_documents)
            if run.store is not None:
                run.store.finish()
        finished = True
    finally:
        run.progress.close(finished)
        run.shipment.close()
