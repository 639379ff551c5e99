"""stability.study.comparison: the second number of a comparison in the validation study
(``stability validate --comparison``), checked against the library's score on explicit resamples."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from stability import evaluate, get_segmenter
from stability.catalogue import HEADLINE
from stability.comparison import comparison_scores, is_voter, pairwise_agreement, stability_x_agreement
from stability.stats import kendall_tau
from stability.study import analyze
from stability.study.analysis import score_matrix
from stability.study.comparison import comparison_placement
from stability.study.correlations import document_weights, weighted_means
from stability.study.decision import placement_agreement
from test_reporting import topical_corpus

N_BOOTSTRAP = 20


@pytest.fixture(scope="module")
def study():
    segmenters = {"c99": "c99", "u00": "u00", "tt": get_segmenter("texttiling", w=10, k=5),
                  "known": get_segmenter("c99", n_segments="reference"), "even": get_segmenter("even", n_segments="reference"),
                  "none": "none"}
    result = evaluate(segmenters, topical_corpus(600, 6, n_topics=5), n_restarts=4, progress=False,
                      metrics={"names": ["f1_1", "boundary_similarity", "windowdiff"]})
    return analyze(result, name="topics", n_bootstrap=N_BOOTSTRAP, n_orders=5, n_splits=5)


def test_the_estimate_ranks_the_librarys_scores(study):
    values = stability_x_agreement(study.result.documents)
    placement = comparison_placement(study)
    assert set(placement.tau) == {"boundary_similarity", "f1_1"}
    for metric, tau in placement.tau.items():
        means = study.means["reference"][metric]
        labels = [label for label in study.labels if values[label] is not None]
        assert tau == kendall_tau([values[k] for k in labels], [means[k] for k in labels])
    assert placement.ceiling == {m: study.ceilings[m] for m in placement.tau}


def _resampled(study):
    """The resamples of the headline's correlations and the score of every configuration in each."""
    result, labels, documents = study.result, study.labels, study.documents
    weights = document_weights(len(documents), N_BOOTSTRAP, study.settings["seed"], ("across", "all"))
    headline = score_matrix(result, HEADLINE.name, labels=labels)[1]
    pairs, present = pairwise_agreement(result.documents, labels, documents)
    voters = np.array([is_voter(result.documents[label]) for label in labels])
    return weights, comparison_scores(weighted_means(headline, weights), pairs, present, voters, weights)


def test_a_resample_equals_the_library_on_the_explicit_resample(study):
    result, labels, documents = study.result, study.labels, study.documents
    weights, fast = _resampled(study)
    for b in (0, 7):
        explicit = {label: [replace(r, document=f"{r.document}#{copy}")
                            for r in result.documents[label]
                            for copy in range(int(weights[b, documents.index(str(r.document))]))]
                    for label in labels}
        slow = stability_x_agreement(explicit)
        for j, label in enumerate(labels):
            expected = np.nan if slow[label] is None else slow[label]
            assert fast[b, j] == pytest.approx(expected, abs=1e-12, nan_ok=True), (b, label)


def test_its_replicates_use_the_headlines_resamples(study):
    # the replicate b is the mean tau of the scores of resample b (the headline's resample b of
    # documents) with the reference means of that resample
    result, labels = study.result, study.labels
    weights, scores = _resampled(study)
    mine = comparison_placement(study)
    for b in range(N_BOOTSTRAP):
        taus = []
        for metric in mine.tau:
            matrix = score_matrix(result, metric, reference=True, labels=labels)[1]
            means = (weights[b] @ matrix) / weights[b].sum()
            taus.append(kendall_tau(scores[b], means))
        assert mine.samples[b] == pytest.approx(np.nanmean(taus), abs=1e-12)
    head = placement_agreement([study], HEADLINE.name)[0]
    assert head.samples.shape == mine.samples.shape == (N_BOOTSTRAP,)
