"""Corpus summaries, rank correlations, and loading saved results.

:func:`summarize` turns per-document :class:`~stability.results.StabilityResult` lists into
per-segmenter summaries (mean, standard deviation and bootstrap confidence interval over
documents, as in Lamprier et al.'s Table 3, plus micro averages). :func:`correlations` measures
whether the stability scores rank documents and segmenters the way reference metrics do (Kendall's
tau-b), the evidence a user needs before trusting the stability score on their data.
:func:`count_marks` marks the segmenters whose headline is least to be trusted among
content-aware ones: those placing far fewer (:func:`few_boundaries`) or far more
(:func:`many_boundaries`) boundaries than the others (:data:`COUNT_MARKS`).
:func:`load_results` (from :mod:`stability.store`) reads a run back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .catalogue import MULTI_REFERENCE, REFERENCE, STABILITY, oriented, stability_measure
from .permutations import Stream
from .stats import derived_rng, kendall_tau
from .results import (Failure, SegmenterSummary, StabilityResult, Stat, is_content_blind, is_term_blind, layout_only_over,
                      resolved_values, term_blind_share)
from .matching import boundary_ratio
from .scores import restart_precision_recall
from .stats import f1_score
from .store import load_results  # noqa: F401  (kept importable from here)

__all__ = ["summarize", "correlations", "count_marks", "few_boundaries", "many_boundaries", "CountMark",
           "COUNT_MARKS", "FEW_BOUNDARIES_SHARE", "MANY_BOUNDARIES_FACTOR", "FEW_BOUNDARIES_OTHERS", "load_results"]

#: A content-aware segmenter whose mean number of boundaries per document is below this share of
#: the median of the content-aware segmenters of the run is marked "few boundaries"...
FEW_BOUNDARIES_SHARE = 0.5
#: One above this multiple of that median is marked "many boundaries"...
MANY_BOUNDARIES_FACTOR = 2.0
#: ... when there are at least this many others (with one, "the others" is a single segmenter,
#: which may as well be the one placing too many, or too few).
FEW_BOUNDARIES_OTHERS = 2


@dataclass(frozen=True)
class CountMark:
    """A caveat on the headline from how many boundaries a segmenter places, relative to the
    content-aware segmenters of the same run (their median number per document, see
    :func:`count_marks`).

    Attributes
    ----------
    name : str
        The flag reports print (``"few boundaries"``).
    key : str
        Its key in JSON reports and in :func:`count_marks`.
    factor : float
        Below 1: marked under ``factor`` times the median; above 1: over it.
    why : str
        Why the headline may mislead for such a segmenter (the reports' note).
    """

    name: str
    key: str
    factor: float
    why: str

    def applies(self, mean: float, median: float) -> bool:
        """Whether a segmenter placing ``mean`` boundaries a document gets the mark."""
        if self.factor < 1:
            return mean < self.factor * median
        return median > 0 and mean > self.factor * median

    @property
    def rule(self) -> str:
        """The threshold in words: ``"under 0.5 times"``, ``"over 2 times"``."""
        return f"{'under' if self.factor < 1 else 'over'} {self.factor:g} times"


#: The count marks, declared once: the flags, notes, one-line result, JSON and the study read them.
COUNT_MARKS = (
    CountMark("few boundaries", "few_boundaries", FEW_BOUNDARIES_SHARE,
              "The stability test cannot see boundaries a segmenter missed, so the headline may rank such a "
              "segmenter too high"),
    CountMark("many boundaries", "many_boundaries", MANY_BOUNDARIES_FACTOR,
              "Boundaries placed inside topics can still come back under permutation, and the correction "
              "stretches what remains above a high chance level, so the headline's rank of such a segmenter is "
              "unreliable (in the validation studies mostly too high on meeting transcripts and novels, either "
              "way on Wikipedia articles, clinical chapters and technical documentation)"),
)

def _stat_rng(seed: int, label: str, what: str) -> np.random.Generator:
    return derived_rng(seed, label, int(Stream.BOOTSTRAP), what)


def summarize(
    documents: Mapping[str, Sequence[StabilityResult]],
    failures: Sequence[Failure] = (),
    *,
    seed: int = 0,
    confidence: float = 0.95,
    n_bootstrap: int = 1000,
    content_margin: float = 0.05,
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, SegmenterSummary]:
    """Per-segmenter corpus summaries.

    Macro scores are means over documents with their sample standard deviation (ddof=1) and a
    percentile bootstrap confidence interval of the mean (NaNs, e.g. an undefined
    chance-corrected score, are left out and ``n`` says how many values remain). Micro scores pool
    the matched, predicted and initial boundary counts of every restart of every document. A
    segmenter is ``content_blind`` at corpus level when its mean shuffle-control F1 is at least its
    mean F1 minus ``content_margin``, and ``layout_only`` when its mean layout-control F1 is at least
    ``1 - content_margin`` (scores of a control that no document ran are left out), and
    ``term_blind`` when it saw next to no shared term on most of its documents
    (:func:`stability.results.is_term_blind`). A segmenter
    without a document scored (it failed on every one) has NaN micro scores, not the 1.0 of
    "nothing predicted, nothing to find", and its parameters from ``params`` (label -> the run
    record's), as its results would carry them.
    """
    out: dict[str, SegmenterSummary] = {}
    for label, docs in documents.items():
        macro = {
            name: Stat.of([m.value(r) for r in docs], _stat_rng(seed, label, name), confidence, n_bootstrap)
            for name, m in STABILITY.items() if m.present(docs)
        }
        metric_names = sorted({k for r in docs for k in r.reference_metrics})
        reference = {
            name: Stat.of([r.reference_metrics.get(name, float("nan")) for r in docs],
                          _stat_rng(seed, label, name), confidence, n_bootstrap)
            for name in metric_names
        }
        blind = [r.content_blind for r in docs if r.content_blind is not None]
        layout = [r.layout_only for r in docs if r.layout_only is not None]
        determ = [r.deterministic for r in docs if r.deterministic is not None]
        term_blind = term_blind_share(docs)
        out[label] = SegmenterSummary(
            segmenter=label,
            params=dict(docs[0].params) if docs else dict((params or {}).get(label) or {}),
            n_documents=len(docs),
            n_failed=sum(1 for f in failures if f.segmenter == label),
            macro=macro,
            micro=_micro(docs),
            content_blind_share=float(np.mean(blind)) if blind else float("nan"),
            nondeterministic_share=float(1 - np.mean(determ)) if determ else float("nan"),
            content_blind=None if not blind else is_content_blind(macro["shuffle_f1"].mean, macro["f1"].mean,
                                                                  content_margin),
            deterministic=None if not determ else bool(all(determ)),
            reference=reference,
            layout_only_share=float(np.mean(layout)) if layout else float("nan"),
            layout_only=layout_only_over(docs, content_margin),
            term_blind_share=term_blind,
            resolved_params=resolved_values(docs),
            term_blind=is_term_blind(term_blind),
        )
    return out


def _micro(docs: Sequence[StabilityResult]) -> dict[str, float]:
    """Precision, recall and F1 of the matched, found and initial boundaries pooled over every
    restart of every document of ``docs``; NaN without a document (not the 1.0 of "nothing
    predicted, nothing to find")."""
    if not docs:
        return {"precision": float("nan"), "recall": float("nan"), "f1": float("nan")}
    matched = predicted = initial = 0
    for r in docs:
        counts = restart_precision_recall(r.segmentation.boundaries, r.restart_boundaries, r.tolerance)
        matched += int(counts.matched.sum())
        predicted += int(counts.predicted.sum())
        initial += counts.initial * len(r.restart_boundaries)
    precision, recall = boundary_ratio(matched, predicted, initial), boundary_ratio(matched, initial, predicted)
    return {"precision": precision, "recall": recall, "f1": f1_score(precision, recall)}


def count_marks(summary: Mapping[str, SegmenterSummary]) -> dict[str, dict[str, tuple[float, float]]]:
    """The segmenters of a run marked by each :data:`COUNT_MARKS` entry: key -> {label: (its mean
    boundaries a document, the median)}.

    Among the content-aware segmenters (not flagged content-blind, layout-only or term-blind), each one's mean
    number of boundaries per document is compared with the median of them all, when each has at
    least :data:`FEW_BOUNDARIES_OTHERS` others. The median includes the segmenter itself, so that
    with three segmenters one placing far too many cannot make the other two look sparse. A caveat
    on the headline, relative to the segmenters run together, not a score.
    """
    counts = {label: s.macro["n_boundaries"].mean for label, s in summary.items()
              if "n_boundaries" in s.macro and not s.content_blind and not s.layout_only and not s.term_blind}
    counts = {label: m for label, m in counts.items() if not np.isnan(m)}
    marked: dict[str, dict[str, tuple[float, float]]] = {mark.key: {} for mark in COUNT_MARKS}
    if len(counts) < FEW_BOUNDARIES_OTHERS + 1:
        return marked
    median = float(np.median(list(counts.values())))  # of all of them: one outlier cannot move it
    for label, mean in counts.items():
        for mark in COUNT_MARKS:
            if mark.applies(mean, median):
                marked[mark.key][label] = (float(mean), median)
    return marked


def few_boundaries(summary: Mapping[str, SegmenterSummary]) -> dict[str, tuple[float, float]]:
    """The segmenters placing far fewer boundaries than the others of the same run.

    The stability test sees only the boundaries a segmenter placed: a boundary it missed lies
    inside one of its segments, where the permutations erase it, while reference metrics count
    it. A segmenter placing a few strong boundaries can therefore score above ones that find
    most of the topic shifts (docs/validation.md: the largest disagreement with B on Choi's
    corpus). Those whose mean number of boundaries per document is below
    :data:`FEW_BOUNDARIES_SHARE` of the median of the content-aware segmenters
    (:func:`count_marks`): label -> (its mean, that median).

    Examples
    --------
    >>> def seg(bounds, blind=False):
    ...     stat = Stat(bounds, 0.0, (bounds, bounds), 3)
    ...     return SegmenterSummary("", {}, 3, 0, {"n_boundaries": stat}, {}, 0.0, 0.0, blind, True)
    >>> few_boundaries({"sparse": seg(1.5), "a": seg(9.0), "b": seg(10.0), "none": seg(0.0, blind=True)})
    {'sparse': (1.5, 9.0)}
    >>> few_boundaries({"sparse": seg(1.5), "a": seg(9.0)})  # one other: it may be the one placing too many
    {}
    """
    return count_marks(summary)["few_boundaries"]


def many_boundaries(summary: Mapping[str, SegmenterSummary]) -> dict[str, tuple[float, float]]:
    """The segmenters placing far more boundaries than the others of the same run.

    A segmenter cutting a transcript into many small pieces places most boundaries inside topics.
    Many of them still come back when units are permuted within those small segments, and with
    that many boundaries the shuffle control and the chance level are high too, so the correction
    divides a small margin by a small remainder (docs/validation-dialogue.md: TextTiling on
    meeting transcripts, ranked too high; on Wiki-50 two of the same settings were ranked too low
    and on Elements one too high, so the mark says the rank is unreliable, not in which direction). Those whose mean number
    of boundaries per document is above :data:`MANY_BOUNDARIES_FACTOR` times the median of the
    content-aware segmenters (:func:`count_marks`): label -> (its mean, that median).

    Examples
    --------
    >>> def seg(bounds):
    ...     stat = Stat(bounds, 0.0, (bounds, bounds), 3)
    ...     return SegmenterSummary("", {}, 3, 0, {"n_boundaries": stat}, {}, 0.0, 0.0, False, True)
    >>> many_boundaries({"dense": seg(30.0), "a": seg(9.0), "b": seg(10.0)})
    {'dense': (30.0, 10.0)}
    >>> many_boundaries({"dense": seg(30.0), "a": seg(0.0), "b": seg(0.0)})  # the median is 0: no scale
    {}
    >>> few_boundaries({"dense": seg(30.0), "a": seg(9.0), "b": seg(10.0)})  # not moved by the outlier
    {}
    """
    return count_marks(summary)["many_boundaries"]


def _nanmean(values: ArrayLike) -> float:
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    return float(x.mean()) if x.size else float("nan")


def _correlated_metrics(rows: Sequence[StabilityResult]) -> list[str]:
    """Reference metrics present in ``rows`` that rank quality (parameters and descriptions of the
    references themselves are never correlated), in catalogue order."""
    present = {k for r in rows for k in r.reference_metrics}
    return [name for table in (REFERENCE, MULTI_REFERENCE) for name, m in table.items()
            if name in present and m.ranked]


def correlations(
    documents: Mapping[str, Sequence[StabilityResult]],
    scores: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Kendall's tau between stability scores and reference metrics, oriented so that **positive
    means agreement** (metrics where lower is better are negated first, as the catalogue says).

    Returns a dictionary with ``"documents"``: ``{score: {metric: tau}}`` over every
    (segmenter, document) pair, and ``"segmenters"``: the same over the segmenters' mean scores
    (needs at least two segmenters), both means over the documents with reference metrics. Empty when no document has reference metrics. ``scores``
    defaults to the catalogue's stability scores marked ``correlate``; only the reference metrics
    with a direction are correlated.
    """
    if not any(r.reference_metrics for docs in documents.values() for r in docs):
        return {}
    names = _correlated_scores(scores)
    out: dict[str, dict[str, dict[str, float]]] = {"documents": {score: {} for score in names}, "segmenters": {}}
    if sum(1 for docs in documents.values() if docs) >= 2:
        out["segmenters"] = {score: {} for score in names}
    for over, score, metric, x, y in _correlated(documents, scores):
        out[over][score][metric] = kendall_tau(x, y)
    return out


def ranked_counts(
    documents: Mapping[str, Sequence[StabilityResult]],
    scores: Sequence[str] | None = None,
) -> dict[str, dict[str, int]]:
    """How many items each score's correlations of :func:`correlations` rank: ``{over: {score:
    n}}``, the fewest over its reference metrics of the items where both values are defined (a
    segmenter whose score is undefined everywhere, one placing no boundary, is not ranked)."""
    out: dict[str, dict[str, int]] = {}
    for over, score, _, x, y in _correlated(documents, scores):
        defined = int(np.sum(~(np.isnan(np.asarray(x, dtype=float)) | np.isnan(np.asarray(y, dtype=float)))))
        found = out.setdefault(over, {})
        found[score] = min(found.get(score, defined), defined)
    return out


def _correlated_scores(scores: Sequence[str] | None) -> list[str]:
    """The scores :func:`correlations` correlates: ``scores``, or the catalogue's marked ``correlate``."""
    return [n for n, m in STABILITY.items() if m.correlate] if scores is None else list(scores)


def _correlated(
    documents: Mapping[str, Sequence[StabilityResult]], scores: Sequence[str] | None
) -> Iterator[tuple[str, str, str, Any, Any]]:
    """``(over, score, metric, x, y)`` of every rank correlation :func:`correlations` computes."""
    rows = [r for docs in documents.values() for r in docs if r.reference_metrics]
    if not rows:
        return
    names = _correlated_scores(scores)
    metrics = _correlated_metrics(rows)
    labels = [label for label, docs in documents.items() if docs]

    def metric_values(m: str, results: Sequence[StabilityResult]) -> np.ndarray:
        return oriented(m, [r.reference_metrics.get(m, float("nan")) for r in results])

    # the metrics' side, the same for every score: read once
    per_doc = {m: metric_values(m, rows) for m in metrics}
    per_seg = {m: [_nanmean(metric_values(m, documents[label])) for label in labels] for m in metrics}
    for score in names:
        value = stability_measure(score).value
        x = [value(r) for r in rows]
        for m in metrics:
            yield "documents", score, m, x, per_doc[m]
        if len(labels) >= 2:
            # each segmenter's mean over its documents with references: over the same documents
            # as the metrics when only some have one (annotated after the run, say)
            xs = [_nanmean([value(r) for r in documents[label] if r.reference_metrics]) for label in labels]
            for m in metrics:
                yield "segmenters", score, m, xs, per_seg[m]
