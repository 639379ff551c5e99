"""The second number of a comparison in the study: how :data:`stability.comparison.STABILITY_X_AGREEMENT`
ranks the configurations of a corpus against the :data:`~stability.study.decision.PLACEMENT`
references, beside the headline (``stability validate --comparison``).

The score of a configuration depends on the others (their headline weighs their vote), so a
bootstrap resample of documents recomputes every configuration's headline, the voters' weights,
the agreement and the score from the resample's documents. The per-document agreement of two
configurations does not depend on the resample: it is computed once, a ``(configurations,
configurations, documents)`` array, and each resample only reweighs it. The resamples are those of
the headline's correlations across all configurations (stream ``("across", "all")``), so the two
numbers are paired resample by resample.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..catalogue import HEADLINE, oriented
from ..comparison import MIN_OTHER_VOTERS, boundary_agreement, is_voter
from ..results import CorpusResult
from ..stats import kendall_tau_rows
from .analysis import Study, score_matrix
from .correlations import document_weights, weighted_means
from .decision import PLACEMENT, Placement, placement_agreement

__all__ = ["pairwise_agreement", "resampled_comparison", "comparison_placement", "comparison_rows"]

#: Resamples reweighed at once (each holds a configurations x configurations x documents block).
_BLOCK_CELLS = 2**22


def pairwise_agreement(result: CorpusResult, labels: Sequence[str], documents: Sequence[str]
                       ) -> tuple[np.ndarray, np.ndarray]:
    """``(F, present)``: ``F[c, v, d]`` the boundary F1 within one unit between configurations ``c``
    and ``v`` on document ``d`` (:func:`stability.comparison.boundary_agreement`; 0 on the
    diagonal and where either has no result), ``present[c, d]`` whether ``c`` has a result there."""
    by_document = [{str(r.document): r.segmentation.boundaries for r in result.documents[label]} for label in labels]
    present = np.array([[doc in own for doc in documents] for own in by_document], dtype=bool).reshape(
        len(labels), len(documents))
    pairs = np.zeros((len(labels), len(labels), len(documents)))
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            for d, doc in enumerate(documents):
                if present[i, d] and present[j, d]:
                    pairs[i, j, d] = pairs[j, i, d] = boundary_agreement(by_document[i][doc], by_document[j][doc])
    return pairs, present


def resampled_comparison(headline: np.ndarray, pairs: np.ndarray, present: np.ndarray, voters: np.ndarray,
                         weights: np.ndarray) -> np.ndarray:
    """The score of every configuration in every resample, shape ``(resamples, configurations)``.

    ``headline`` is the ``(documents, configurations)`` matrix of the per-document headline (NaN
    where a configuration has no result), ``pairs`` and ``present`` come from
    :func:`pairwise_agreement`, ``voters`` marks the configurations that vote, ``weights[b, d]`` is
    the multiplicity of document ``d`` in resample ``b`` (``np.ones((1, D))``: the sample itself,
    which gives :func:`stability.comparison.stability_x_agreement`). NaN where a configuration has
    fewer than :data:`~stability.comparison.MIN_OTHER_VOTERS` other voters of positive headline.
    """
    n_conf, n_docs = present.shape
    own = present & ~np.isnan(headline.T)
    block = max(1, _BLOCK_CELLS // max(1, n_conf * n_conf * n_docs))
    out = np.empty((weights.shape[0], n_conf))
    for start in range(0, weights.shape[0], block):
        w_docs = weights[start:start + block]
        t = weighted_means(headline, w_docs)                               # (b, c)
        vote = np.where(voters[None, :] & (t > 0), t, 0.0)                 # (b, v)
        numerator = np.einsum("bv,cvd->bcd", vote, pairs)                  # the diagonal of pairs is 0
        total = vote @ present                                             # (b, d): every present voter
        denominator = total[:, None, :] - vote[:, :, None] * present[None, :, :]  # without c itself
        with np.errstate(invalid="ignore", divide="ignore"):
            per_document = np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1.0), 0.0)
            counts = w_docs @ own.T                                        # (b, c)
            mean = np.einsum("bd,bcd->bc", w_docs, per_document * own[None, :, :]) / counts
        others = (vote > 0).sum(axis=1, keepdims=True) - (vote > 0)
        score = np.maximum(t, 0.0) * np.where(counts > 0, mean, np.nan)
        out[start:start + block] = np.where(others >= MIN_OTHER_VOTERS, score, np.nan)
    return out


def comparison_placement(study: Study) -> Placement:
    """The score's Kendall tau-b against each :data:`~stability.study.decision.PLACEMENT` reference of
    ``study`` across all configurations, with the ceilings and the bootstrap replicates of the mean
    (paired with the headline's, :meth:`~stability.study.analysis.Study.agreement_samples`)."""
    metrics = [m for m in PLACEMENT if m in study.metrics]
    labels, documents, result = study.labels, study.documents, study.result
    headline = score_matrix(result, HEADLINE.name, labels=labels)[1]
    pairs, present = pairwise_agreement(result, labels, documents)
    voters = np.array([is_voter(result.documents[label]) for label in labels], dtype=bool)
    settings = study.settings
    weights = np.vstack([np.ones((1, len(documents))),
                         document_weights(len(documents), settings["n_bootstrap"], settings["seed"], ("across", "all"))])
    scores = resampled_comparison(headline, pairs, present, voters, weights)
    taus = {}
    for m in metrics:
        reference = oriented(m, score_matrix(result, m, reference=True, labels=labels)[1])
        taus[m] = kendall_tau_rows(scores, weighted_means(reference, weights))
    if not metrics:
        return Placement(study.name, {}, {}, np.zeros(0))
    stacked = np.column_stack([taus[m][1:] for m in metrics])
    counts = np.sum(~np.isnan(stacked), axis=1)
    samples = np.where(counts > 0, np.nansum(stacked, axis=1) / np.maximum(counts, 1), np.nan)
    return Placement(study.name, {m: float(taus[m][0]) for m in metrics}, {m: study.ceilings[m] for m in metrics},
                     samples)


def comparison_rows(studies: Sequence[Study]) -> list[tuple[Placement, Placement]]:
    """Per corpus, :func:`comparison_placement` and the headline's
    :func:`~stability.study.decision.placement_agreement`, whose replicates are paired."""
    return [(comparison_placement(st), placement_agreement([st], HEADLINE.name)[0]) for st in studies]
