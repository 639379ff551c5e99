"""The result of a finished (segmenter, document) pair: its streams' scores, the controls and the
reference metrics of ``B0``.

It is computed from plain data (:class:`Finished`: ``B0``, the restarts' boundaries, the
document), so the engine (:mod:`stability.engine`) can compute it where it likes: in-process with
one job, in its worker processes with several (:func:`score_task`), where the bootstrap
intervals, the largest part of the cost, run in parallel instead of in the main process. The
values are the same bit for bit wherever they are computed: every random draw comes from a
generator keyed by the run seed, the document and the stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .corpus import Document
from .permutations import Stream
from .results import RestartScores, StabilityResult, is_content_blind, is_layout_only
from .scores import (RestartCounts, boundary_confidence, chance_scores, headline_interval, restart_precision_recall,
                     spurious_boundaries)
from .segmentation import Segmentation
from .settings import Settings
from .stats import bootstrap_f1_samples, derived_rng, doc_key, f1_array, f1_score, percentile_interval

__all__ = ["Finished", "STREAM_NAMES", "f1_interval", "f1_samples", "stability_result", "score_task",
           "restarts_headline_interval", "stored_headline_interval"]

#: Each stream's name: the ``scope`` of its :class:`~stability.results.RestartScores`, and the
#: ``stream`` of a failure.
STREAM_NAMES = {Stream.WITHIN: "within", Stream.SHUFFLE: "shuffle", Stream.LAYOUT: "layout"}


@dataclass(frozen=True)
class Finished:
    """What the result of a finished pair is computed from."""

    label: str
    params: dict[str, Any]  # the segmenter's parameters, as recorded
    doc: Document
    key: int  # the document's key of the random streams
    initial: tuple[int, ...]  # B0
    second: tuple[int, ...] | None  # the determinism check's second call, if made
    restarts: dict[Stream, list[tuple[int, ...]]]  # every stream's restarts, in restart order
    stopped_early: bool  # the within stream stopped on its interval width
    term_blind: str | None = None  # why the segmenter saw next to no shared term (unit_terms_problem)
    resolved_params: dict[str, Any] = field(default_factory=dict)  # taken on this document, unlike params


def f1_samples(seed: int, key: int, stream: Stream, counts: RestartCounts, n_resamples: int,
               check: bool = False) -> np.ndarray:
    """The bootstrap replicates of the F1 of ``counts`` (a stream's restarts matched against
    B0) from the stream's own generator; ``check``: those of an adaptive-stopping check, on a
    generator of their own."""
    index = (1 + counts.matched.size) * 2 + int(stream) if check else int(stream)
    # the first two streams keep their original keys; a later one adds its number to the key
    later = () if stream in (Stream.WITHIN, Stream.SHUFFLE) else (int(stream),)
    rng = derived_rng(seed, key, int(Stream.BOOTSTRAP), index, *later)
    return bootstrap_f1_samples(counts.precision, counts.recall, rng, n_resamples)


def restarts_headline_interval(seed: int, key: int, initial: Sequence[int], n_units: int, tolerance: int,
                               within: Sequence[Sequence[int]], shuffle: Sequence[Sequence[int]],
                               confidence: float, n_bootstrap: int, check: bool = False, *,
                               term_blind: bool = False) -> tuple[float, float]:
    """The interval of a document's headline from the restarts of the test (``within``) and of
    the shuffle control: the replicates of their F1 (:func:`f1_samples`, ``check`` as there)
    paired, the chance level drawn as :func:`stream_scores` draws it; ``(0, 0)`` where the
    segmenter was ``term_blind`` (:func:`stability.scores.no_credit`). A finished pair's result
    computes the same from the replicates of its F1 intervals."""
    counts = [restart_precision_recall(initial, restarts, tolerance) for restarts in (within, shuffle)]
    samples = [f1_samples(seed, key, stream, c, n_bootstrap, check)
               for stream, c in zip((Stream.WITHIN, Stream.SHUFFLE), counts)]
    chance = chance_scores(initial, counts[0].predicted, n_units, tolerance)[2]
    return headline_interval(samples[0], samples[1], chance, len(initial), confidence, term_blind=term_blind)


def stored_headline_interval(result: StabilityResult, confidence: float, n_bootstrap: int,
                             n_restarts: int | None = None) -> tuple[float, float]:
    """The headline interval (``headline_ci``) a corpus run with the first ``n_restarts``
    restarts of ``result`` (default all) reports, recomputed from its stored restarts with the
    same generators, hence the same draws: for results files written before the interval
    existed, and for the study's comparison of half and all of the restarts. ``(nan, nan)``
    without the shuffle control; ``(0, 0)`` on a document the segmenter was term-blind on (its
    headline is 0 there)."""
    if result.shuffle is None:
        return float("nan"), float("nan")
    n = n_restarts
    return restarts_headline_interval(result.seed, doc_key(result.document), result.segmentation.boundaries,
                                      result.segmentation.n_units, result.tolerance, result.restart_boundaries[:n],
                                      result.shuffle.restart_boundaries[:n], confidence, n_bootstrap,
                                      term_blind=result.term_blind is not None)


def f1_interval(settings: Settings, key: int, stream: Stream, counts: RestartCounts,
                check: bool = False) -> tuple[float, float]:
    """Bootstrap interval of the F1 of ``counts`` (:func:`f1_samples`)."""
    s = settings
    return percentile_interval(f1_samples(s.seed, key, stream, counts, s.n_bootstrap, check), s.confidence)


def stream_scores(settings: Settings, finished: Finished, stream: Stream) -> RestartScores:
    """The scores of one stream of a finished pair."""
    return _stream_scores(settings, finished, stream)[0]


def _stream_scores(settings: Settings, finished: Finished, stream: Stream) -> tuple[RestartScores, np.ndarray]:
    """The scores of one stream and the bootstrap replicates of its F1 (shared with the
    headline's interval)."""
    s = settings
    restarts = finished.restarts[stream]
    initial = finished.initial
    counts = restart_precision_recall(initial, restarts, s.tolerance)
    p, r = counts.precision, counts.recall
    stp, st_r = float(p.mean()), float(r.mean())
    f1 = f1_score(stp, st_r)
    c_p, c_r, c_f1 = chance_scores(initial, counts.predicted, finished.doc.n_units, s.tolerance)
    corrected = (f1 - c_f1) / (1.0 - c_f1) if c_f1 < 1.0 else float("nan")
    samples = f1_samples(s.seed, finished.key, stream, counts, s.n_bootstrap)
    scores = RestartScores(
        scope=STREAM_NAMES[stream],
        n_restarts=len(restarts),
        restart_precision=p,
        restart_recall=r,
        restart_boundaries=tuple(restarts),
        precision=stp,
        recall=st_r,
        f1=f1,
        f1_ci=percentile_interval(samples, s.confidence),
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
    return scores, samples


def _self_agreement(settings: Settings, finished: Finished) -> tuple[bool | None, float]:
    if finished.second is None:
        return None, float("nan")
    counts = restart_precision_recall(finished.initial, [finished.second], settings.tolerance)
    return finished.second == finished.initial, f1_score(float(counts.precision[0]), float(counts.recall[0]))


def _reference_metrics(doc: Document, boundaries: tuple[int, ...], options: Mapping[str, Any] | None) -> dict[str, float]:
    """Reference metrics of ``B0`` when the document has references (``options=None``: none)."""
    if options is None or not doc.references:
        return {}
    return reference_values(doc.references, doc.times, Segmentation(boundaries, doc.n_units), options)


def reference_values(references: Sequence[Segmentation], times: Any, hypothesis: Segmentation,
                     options: Mapping[str, Any], long_window: str = "nan") -> dict[str, float]:
    """The reference metrics a run records for ``hypothesis`` (a segmenter's ``B0``) against a
    document's ``references`` (and unit ``times``), with the run's metric ``options``
    (:attr:`stability.Settings.metrics`): the single-reference metrics against the first, the
    multi-reference ones with two or more, only those ``names`` lists when it is given (the
    others are not computed). A window ``k`` that a short document cannot hold gives NaN window
    metrics there (:func:`stability.runner.evaluate` warns, naming the documents), or an error
    with ``long_window="raise"`` (``stability score``, whose window is asked for its documents)."""
    from .metrics import compute_all, multi_reference_metrics

    from .catalogue import REFERENCE

    names = options.get("names")
    single = {k: v for k, v in options.items() if k in ("k", "tolerance", "gamma")}
    # only the metrics asked for; a window k longer than a short document: its window metrics are NaN
    values = compute_all(references[0], hypothesis, times=times, long_window=long_window,
                         names=None if names is None else [name for name in names if name in REFERENCE], **single)
    if len(references) >= 2:
        multi = {k: v for k, v in options.items() if k in ("window_limit", "tolerance")}
        values.update(multi_reference_metrics(references, hypothesis, **multi))
    return {k: float(v) for k, v in values.items() if names is None or k in names}


def stability_result(settings: Settings, finished: Finished) -> StabilityResult:
    """The :class:`~stability.results.StabilityResult` of a finished pair."""
    s = settings
    within, within_samples = _stream_scores(s, finished, Stream.WITHIN)
    shuffle: RestartScores | None = None
    headline_ci = (float("nan"), float("nan"))
    if Stream.SHUFFLE in finished.restarts:
        shuffle, shuffle_samples = _stream_scores(s, finished, Stream.SHUFFLE)
        # the headline's interval pairs the replicates of the two F1 intervals, drawn independently
        headline_ci = headline_interval(within_samples, shuffle_samples, within.chance_f1, len(finished.initial),
                                        s.confidence, term_blind=finished.term_blind is not None)
    layout = stream_scores(s, finished, Stream.LAYOUT) if Stream.LAYOUT in finished.restarts else None
    deterministic, self_f1 = _self_agreement(s, finished)
    content_blind = None if shuffle is None else is_content_blind(shuffle.f1, within.f1, s.content_margin)
    layout_only = None if layout is None else is_layout_only(layout.f1, s.content_margin)
    fields = {name: getattr(within, name) for name in RestartScores.__dataclass_fields__}
    doc = finished.doc
    segmentation = Segmentation(finished.initial, doc.n_units)
    return StabilityResult(
        **fields,
        segmenter=finished.label,
        params=finished.params,
        document=doc.id,
        segmentation=segmentation,
        seed=s.seed,
        tolerance=s.tolerance,
        deterministic=deterministic,
        self_agreement_f1=self_f1,
        shuffle=shuffle,
        content_blind=content_blind,
        content_margin=s.content_margin,
        layout=layout,
        layout_only=layout_only,
        term_blind=finished.term_blind,
        resolved_params=finished.resolved_params,
        stopped_early=finished.stopped_early,
        headline_ci=headline_ci,
        reference_metrics=_reference_metrics(doc, finished.initial, s.metrics),
        references=tuple(ref.boundaries for ref in doc.references),
        boundary_times=None if doc.times is None else tuple(float(doc.times[b][0]) for b in segmentation.boundaries),
    )


def score_task(settings: Settings, batch: list[tuple[int, Finished]]) -> list[tuple[int, StabilityResult]]:
    """The results of a batch of finished pairs, keyed by their pair index (a worker's task)."""
    return [(index, stability_result(settings, finished)) for index, finished in batch]
