"""A score of a comparison: the headline weighted by agreement with the other segmenters of a run.

The headline (:data:`stability.catalogue.HEADLINE`) judges a segmenter alone: are its boundaries
more stable than once the content is destroyed? It cannot see the boundaries a segmenter missed,
nor tell boundaries that fall where topics change but move under permutation from boundaries
placed anywhere. When a run compares several segmenters, the others offer what one alone cannot:
a place where segmenters built on other ideas, each content-dependent by its own test, put a
boundary is likely a real shift. :data:`STABILITY_X_AGREEMENT` multiplies the headline by the
segmenter's agreement with the others (Amendment 6 of docs/validation-protocol.md, where it was
chosen by a rule written before the numbers):

* the **voters** are the segmenters given no reference information (not built with
  ``n_segments="reference"``, :data:`stability.registry.REFERENCE_COUNT`) and not flagged
  layout-only over the corpus by the layout control (:func:`layout_only`: a text chunker's
  boundaries come from the units' lengths, and its headline is high for that reason, so its vote
  would pull the consensus towards the other chunkers; it gets no score either) nor term-blind over
  the corpus (:func:`term_blind`: it saw next to no shared term in most documents, so its
  boundaries follow the units' lengths there too), each weighted by
  its headline over the corpus, ``w_v = max(T_v, 0)``: a content-blind segmenter has no vote;
* on a document, the agreement of segmenter ``c`` is the weighted mean over the other voters of
  the boundary F1 within one unit between its boundaries and theirs
  (:func:`boundary_agreement`), 0 where ``c`` places no boundary;
* ``A_c`` is its mean over documents, and the score is ``max(T_c, 0) * A_c``.

The score is relative to the segmenters compared: another set of segmenters gives another
consensus, and what all of them miss stays unseen. It exists only when at least
:data:`MIN_OTHER_VOTERS` other voters have a positive headline (otherwise ``None``).

Examples
--------
>>> boundary_agreement((3, 7), (4, 9))  # 4 matches 3 within one unit: 2 * 1 / (2 + 2)
0.5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .catalogue import HEADLINE, Measure
from .matching import count_matches
from .registry import REFERENCE_COUNT
from .results import StabilityResult, is_term_blind, layout_only_over, term_blind_share

__all__ = ["STABILITY_X_AGREEMENT", "COMPARISON_NOTE", "COMPARISON_BRIEF", "MIN_OTHER_VOTERS", "AGREEMENT_TOLERANCE",
           "boundary_agreement", "is_voter", "layout_only", "term_blind", "document_ids", "pairwise_agreement", "comparison_scores",
           "stability_x_agreement"]

#: The score needs at least this many voters besides the segmenter with a positive headline.
MIN_OTHER_VOTERS = 2
#: Boundaries of two segmenters agree when they are at most this many units apart.
AGREEMENT_TOLERANCE = 1


def stability_x_agreement(documents: Mapping[str, Sequence[StabilityResult]],
                          headlines: Mapping[str, float] | None = None) -> dict[str, float | None]:
    """The score of every segmenter of a run: ``max(T, 0) * A`` (see the module), ``None`` for a
    segmenter with fewer than :data:`MIN_OTHER_VOTERS` other voters of positive headline.

    Parameters
    ----------
    documents : mapping of str to sequence of StabilityResult
        Segmenter label -> its results, as in :attr:`stability.results.CorpusResult.documents`.
    headlines : mapping of str to float, optional
        Each segmenter's headline over the corpus, ``T``; default: the mean over its documents of
        the catalogue's headline (:data:`stability.catalogue.HEADLINE`). Given, e.g., to recompute
        the score from fewer restarts (:func:`stability.study.sensitivity.headline_at`).

    Returns
    -------
    dict
        Label -> the score, in the order of ``documents`` (computed in the order of the labels, so
        the same to the last bit whatever that order); ``None`` also for a segmenter flagged
        layout-only (:func:`layout_only`) or term-blind (:func:`term_blind`), whose headline comes
        from the units' lengths.
    """
    # computed in the order of the labels, not the order given: the weighted sums over voters and
    # documents then add the same numbers in the same order for any order of the run's segmenters
    # (the command line's), so the values are the same to the last bit
    labels = sorted(documents)
    ordered = {label: documents[label] for label in labels}
    if headlines is None:
        headlines = {label: _headline(docs) for label, docs in ordered.items()}
    pairs, present = pairwise_agreement(ordered, labels, document_ids(ordered))
    voters = np.array([is_voter(ordered[label]) for label in labels], dtype=bool)
    means = np.array([[headlines[label] for label in labels]], dtype=float)
    scores = dict(zip(labels, comparison_scores(means, pairs, present, voters, np.ones((1, present.shape[1])))[0]))
    # a layout-only or term-blind segmenter's headline says nothing about the content: nothing to weigh
    return {label: None if np.isnan(scores[label]) or not _content_seen(documents[label]) else float(scores[label])
            for label in documents}


#: The score's declaration: reports, JSON and CSV read its name, titles and meaning from here.
STABILITY_X_AGREEMENT = Measure(
    "stability_x_agreement", "×agreement", "stability × agreement with the other segmenters", "comparison",
    "higher", stability_x_agreement,
    "the headline times the mean boundary F1 within one unit against the other segmenters of the run, "
    "weighted by their headline; relative to the segmenters compared")

#: What a report says under the score.
COMPARISON_NOTE = (
    f"{STABILITY_X_AGREEMENT.short} = {STABILITY_X_AGREEMENT.title}: the headline times the segmenter's mean "
    f"boundary F1 within {AGREEMENT_TOLERANCE} unit against each other segmenter of this run that was not told "
    "the reference count nor flagged layout-only or term-blind, weighted by that segmenter's headline (0 where it "
    "places no "
    "boundary). It credits "
    "boundaries other content-dependent segmenters also find, and sees some of the boundaries a segmenter "
    "missed; it is relative to the segmenters compared (n/a with fewer than "
    f"{MIN_OTHER_VOTERS} others of positive headline, and for a layout-only or term-blind segmenter). In the validation studies (docs/validation-protocol.md, "
    "Amendments 6 and 7) it ranked segmenter configurations closer to B and boundary F1 within one unit than the "
    "headline on all eleven readings it was measured on, by 0.02 to 0.09 in Kendall tau (Choi's concatenations, "
    "two Wikipedia corpora, eight readings of technical documentation from four projects; on each of them the "
    "paired interval over documents reaches below 0); it was not measured on dialogue, clinical or fiction corpora."
)
#: The same in brief, under the compact table a terminal shows.
COMPARISON_BRIEF = (
    f"{STABILITY_X_AGREEMENT.short} = the headline times the segmenter's agreement with the other segmenters of "
    f"this run (boundary F1 within {AGREEMENT_TOLERANCE} unit, weighted by their headline): relative to the "
    f"segmenters compared, n/a with fewer than {MIN_OTHER_VOTERS} others of positive headline. In the validation "
    "studies it ranked configurations closer to the references than the headline on all eleven readings it was "
    "measured on, by 0.02 to 0.09 in Kendall tau (within the sampling noise on documentation; docs/validity.md)."
)


def _headline(docs: Sequence[StabilityResult]) -> float:
    values = [HEADLINE.value(r) for r in docs]
    return float(np.nanmean(values)) if values and not np.all(np.isnan(values)) else float("nan")


def layout_only(docs: Sequence[StabilityResult]) -> bool | None:
    """Whether a segmenter is layout-only over a corpus: its mean layout-control F1 over the
    documents that ran the control is at least ``1 - content_margin``, the documents' margin
    (:func:`stability.results.layout_only_over`, the rule of
    :attr:`stability.results.SegmenterSummary.layout_only`); ``None`` when no document ran it."""
    return layout_only_over(docs)


def term_blind(docs: Sequence[StabilityResult]) -> bool:
    """Whether a segmenter is term-blind over a corpus: it saw next to no term shared between
    units on most of its documents (the rule of
    :attr:`stability.results.SegmenterSummary.term_blind`)."""
    return is_term_blind(term_blind_share(docs))


def _content_seen(docs: Sequence[StabilityResult]) -> bool:
    """Neither layout-only (:func:`layout_only`) nor term-blind (:func:`term_blind`) over the corpus."""
    return not layout_only(docs) and not term_blind(docs)


def is_voter(docs: Sequence[StabilityResult]) -> bool:
    """Whether a segmenter's results may vote: it was not told each document's reference count,
    and it is neither layout-only (:func:`layout_only`) nor term-blind (:func:`term_blind`)."""
    return not any(r.params.get("n_segments") == REFERENCE_COUNT for r in docs) and _content_seen(docs)


def boundary_agreement(first: Sequence[int], second: Sequence[int], tolerance: int = AGREEMENT_TOLERANCE) -> float:
    """Boundary F1 of two segmentations of one document, matched one to one within ``tolerance``
    units (0 when both are empty)."""
    total = len(first) + len(second)
    return 0.0 if total == 0 else 2.0 * count_matches(second, first, tolerance) / total


def document_ids(documents: Mapping[str, Sequence[StabilityResult]]) -> list[str]:
    """Every document of a run once (as text), in the order the segmenters' results first name them."""
    ids: dict[str, None] = {}
    for docs in documents.values():
        for r in docs:
            ids.setdefault(str(r.document), None)
    return list(ids)


def pairwise_agreement(documents: Mapping[str, Sequence[StabilityResult]], labels: Sequence[str],
                       doc_ids: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(F, present)``: ``F[c, v, d]`` the :func:`boundary_agreement` of segmenters ``labels[c]``
    and ``labels[v]`` on document ``doc_ids[d]`` (0 on the diagonal and where either has no
    result), ``present[c, d]`` whether ``labels[c]`` has a result for it. ``F`` is symmetric, so
    each pair of segmenters is matched once."""
    by_document = [{str(r.document): r.segmentation.boundaries for r in documents[label]} for label in labels]
    present = np.array([[doc in own for doc in doc_ids] for own in by_document], dtype=bool).reshape(
        len(labels), len(doc_ids))
    pairs = np.zeros((len(labels), len(labels), len(doc_ids)))
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            for d in np.flatnonzero(present[i] & present[j]):
                doc = doc_ids[int(d)]
                pairs[i, j, d] = pairs[j, i, d] = boundary_agreement(by_document[i][doc], by_document[j][doc])
    return pairs, present


#: Rows of :func:`comparison_scores` computed at once (each holds a segmenters x segmenters x
#: documents block).
_BLOCK_CELLS = 2**22


def comparison_scores(headlines: np.ndarray, pairs: np.ndarray, present: np.ndarray, voters: np.ndarray,
                      doc_weights: np.ndarray) -> np.ndarray:
    """The score of every segmenter for each row of ``headlines`` and ``doc_weights``, shape
    ``(rows, segmenters)``; NaN where a segmenter has fewer than :data:`MIN_OTHER_VOTERS` other
    voters of positive headline.

    ``headlines[b, c]`` is segmenter ``c``'s ``T`` and ``doc_weights[b, d]`` the weight of document
    ``d`` in row ``b`` (one row of ones: the run itself; rows of multiplicities: bootstrap resamples of
    documents, as the validation study draws them); ``pairs``, ``present`` come from
    :func:`pairwise_agreement`, ``voters`` marks the segmenters that may vote (:func:`is_voter`).
    """
    n_seg, n_docs = present.shape
    block = max(1, _BLOCK_CELLS // max(1, n_seg * n_seg * n_docs))
    out = np.empty((headlines.shape[0], n_seg))
    others_of = 1.0 - np.eye(n_seg)                                            # (c, v): v is not c
    for start in range(0, headlines.shape[0], block):
        t, w_docs = headlines[start:start + block], doc_weights[start:start + block]
        with np.errstate(invalid="ignore"):
            vote = np.where(voters[None, :] & (t > 0), t, 0.0)                 # (b, v)
        numerator = np.einsum("bv,cvd->bcd", vote, pairs)                      # the diagonal of pairs is 0
        # the other present voters' weights, summed directly: "all less the segmenter's own" lost a
        # tiny weight beside a large one (1.0 + 1.18e-38 - 1.0 == 0)
        denominator = np.einsum("bv,cv,vd->bcd", vote, others_of, present)
        with np.errstate(invalid="ignore", divide="ignore"):
            per_document = np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), 0.0)
            counts = w_docs @ present.T                                        # (b, c)
            mean = np.einsum("bd,bcd->bc", w_docs, per_document * present[None, :, :]) / np.where(counts > 0, counts, 1)
            score = np.maximum(t, 0.0) * np.where(counts > 0, mean, np.nan)
        others = (vote > 0).sum(axis=1, keepdims=True) - (vote > 0)
        out[start:start + block] = np.where(others >= MIN_OTHER_VOTERS, score, np.nan)
    return out
