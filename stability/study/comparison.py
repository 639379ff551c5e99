"""The second number of a comparison in the study: how :data:`stability.comparison.STABILITY_X_AGREEMENT`
ranks the configurations of a corpus against the :data:`~stability.study.decision.PLACEMENT`
references, beside the headline (``stability validate --comparison``).

The score of a configuration depends on the others (their headline weighs their vote), so a
bootstrap resample of documents recomputes every configuration's headline, the voters' weights,
the agreement and the score from the resample's documents. The per-document agreement of two
configurations does not depend on the resample: it is computed once
(:func:`stability.comparison.pairwise_agreement`), and each resample only reweighs it
(:func:`stability.comparison.comparison_scores`, the same function the reports use with the run
itself as the only row). The resamples are those of the headline's correlations across all
configurations (stream ``("across", "all")``), so the two numbers are paired resample by resample.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..catalogue import HEADLINE, oriented
from ..comparison import comparison_scores, is_voter, pairwise_agreement
from ..stats import defined_row_means, kendall_tau_rows
from .analysis import Study, score_matrix
from .correlations import document_weights, weighted_means
from .decision import PLACEMENT, Placement, placement_agreement

__all__ = ["comparison_placement", "comparison_rows"]


def comparison_placement(study: Study) -> Placement:
    """The score's Kendall tau-b against each :data:`~stability.study.decision.PLACEMENT` reference of
    ``study`` across all configurations, with the ceilings and the bootstrap replicates of the mean
    (paired with the headline's, :meth:`~stability.study.analysis.Study.agreement_samples`)."""
    metrics = [m for m in PLACEMENT if m in study.metrics]
    if not metrics:
        return Placement(study.name, {}, {}, np.zeros(0))
    labels, documents, result = study.labels, study.documents, study.result
    headline = score_matrix(result, HEADLINE.name, labels=labels)[1]
    pairs, present = pairwise_agreement(result.documents, labels, documents)
    voters = np.array([is_voter(result.documents[label]) for label in labels], dtype=bool)
    settings = study.settings
    weights = np.vstack([np.ones((1, len(documents))),
                         document_weights(len(documents), settings["n_bootstrap"], settings["seed"], ("across", "all"))])
    scores = comparison_scores(weighted_means(headline, weights), pairs, present, voters, weights)
    taus = {}
    for m in metrics:
        reference = oriented(m, score_matrix(result, m, reference=True, labels=labels)[1])
        taus[m] = kendall_tau_rows(scores, weighted_means(reference, weights))
    return Placement(study.name, {m: float(taus[m][0]) for m in metrics}, {m: study.ceilings[m] for m in metrics},
                     defined_row_means([taus[m][1:] for m in metrics]))


def comparison_rows(studies: Sequence[Study]) -> list[tuple[Placement, Placement]]:
    """Per corpus, :func:`comparison_placement` and the headline's
    :func:`~stability.study.decision.placement_agreement`, whose replicates are paired."""
    return [(comparison_placement(st), placement_agreement([st], HEADLINE.name)[0]) for st in studies]
