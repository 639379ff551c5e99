"""The headline stability score (issue 11, docs/validation-protocol.md): per document, per corpus,
and the reference-free cohesion contrast. Reference values are hand computations (comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stability.exceptions import InvalidParameterError
from stability.runner import stability_test
from stability.scores import (
    RestartCounts,
    cohesion_contrast,
    headline_corpus,
    headline_document,
    restart_f1,
    restart_precision_recall,
)


def counts(matched, predicted, initial):
    return RestartCounts(np.array(matched), np.array(predicted), initial)


# ---------------------------------------------------------------------------------------------
# hand-computed values
# ---------------------------------------------------------------------------------------------
def test_restart_f1_by_hand():
    # P = (1 + 1/3) / 2 = 2/3, R = (1/2 + 1/2) / 2 = 1/2, F1 = 2 (2/3)(1/2) / (2/3 + 1/2) = 4/7
    assert restart_f1(counts([1, 1], [1, 3], 2)) == pytest.approx(4 / 7)
    assert math.isnan(restart_f1(counts([], [], 2)))


def test_headline_document_by_hand():
    within = counts([2, 1], [2, 2], 2)   # P = R = 0.75, F = 0.75
    shuffle = counts([1, 0], [2, 2], 2)  # P = R = 0.25, S = 0.25
    assert headline_document(within, shuffle) == pytest.approx((0.75 - 0.25) / 0.75)


def test_no_boundary_document_gets_no_credit():
    # F = 1 by the zero rule, S < 1 (the shuffled text gets boundaries): today's score gives 1.
    within, shuffle = counts([0, 0], [0, 0], 0), counts([0, 0], [2, 0], 0)
    assert restart_f1(within) == 1.0 and restart_f1(shuffle) < 1.0
    assert headline_document(within, shuffle) == 0.0


def test_content_blind_segmenter_scores_zero():
    # the shuffle control reproduces the boundaries: S = 1
    within, shuffle = counts([3, 3], [3, 3], 3), counts([3, 3], [3, 3], 3)
    assert headline_document(within, shuffle) == 0.0
    assert headline_corpus([(within, shuffle)] * 4) == 0.0


def test_headline_corpus_is_the_ratio_of_the_means():
    a = (counts([2, 1], [2, 2], 2), counts([1, 1], [2, 2], 2))  # F = 0.75, S = 0.5
    empty = (counts([0], [0], 0), counts([0], [4], 0))          # no boundary: F = S = 0
    # mean F = 0.75 / 2 = 0.375, mean S = 0.25: (0.375 - 0.25) / 0.75 = 1/6
    assert headline_corpus([a, empty]) == pytest.approx(1 / 6)
    assert headline_corpus([empty, empty]) == 0.0
    assert math.isnan(headline_corpus([]))


def test_cohesion_contrast_by_hand():
    x = np.array([[2, 0], [1, 0], [1, 1], [0, 1]])
    # within: cos([2,0],[1,0]) = 1 and cos([1,1],[0,1]) = 1/sqrt2, W = (1 + 1/sqrt2) / 2;
    # across (h = 1): cos([1,0],[1,1]) = 1/sqrt2; K = 1 - A / W = 1 - 2 / (1 + sqrt2) = 3 - 2 sqrt2
    assert cohesion_contrast(x, [2]) == pytest.approx(3 - 2 * math.sqrt(2))
    assert cohesion_contrast(x, []) == 0.0


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="shuffle"):
        headline_document(counts([1], [1], 1), counts([1], [1], 2))
    with pytest.raises(InvalidParameterError, match="boundaries"):
        cohesion_contrast(np.ones((4, 2)), [2, 2])
    with pytest.raises(InvalidParameterError, match="term_counts"):
        cohesion_contrast(np.ones(4), [2])


# ---------------------------------------------------------------------------------------------
# against the stability test itself
# ---------------------------------------------------------------------------------------------
def _blocks(units):
    """A segmenter that cuts where the first word changes (content-based, deterministic)."""
    return [i for i in range(1, len(units)) if units[i].split()[0] != units[i - 1].split()[0]]


def test_headline_from_a_stability_result_matches_its_shuffle_corrected_score():
    units = [f"{w} x{i % 3}" for w in ("apple", "pear", "plum") for i in range(4)]
    result = stability_test(_blocks, units, n_restarts=20, seed=1)
    within = restart_precision_recall(result.segmentation.boundaries, result.restart_boundaries)
    shuffle = restart_precision_recall(result.segmentation.boundaries, result.shuffle.restart_boundaries)
    assert result.n_boundaries > 0
    assert headline_document(within, shuffle) == pytest.approx(result.shuffle_corrected)
    assert headline_corpus([(within, shuffle)]) == pytest.approx(result.shuffle_corrected)


# ---------------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------------
@st.composite
def restart_counts(draw, initial=None):
    m0 = draw(st.integers(0, 6)) if initial is None else initial
    n = draw(st.integers(1, 8))
    predicted = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
    matched = [draw(st.integers(0, min(m0, p))) for p in predicted]
    return counts(matched, predicted, m0)


@st.composite
def document_pair(draw):
    within = draw(restart_counts())
    return within, draw(restart_counts(initial=within.initial))


@settings(max_examples=200, deadline=None)
@given(st.lists(document_pair(), min_size=1, max_size=6), st.randoms())
def test_corpus_headline_invariants(docs, rnd):
    value = headline_corpus(docs)
    assert value <= 1.0 + 1e-12
    shuffled = list(docs)
    rnd.shuffle(shuffled)
    assert headline_corpus(shuffled) == pytest.approx(value)      # document order does not matter
    assert headline_corpus(docs * 2) == pytest.approx(value)      # nor repeating the corpus
    blind = [(w, w) for w, _ in docs]                             # shuffle control = the test itself
    assert headline_corpus(blind) == 0.0
    assert all(headline_document(w, s) == 0.0 for w, s in docs if w.initial == 0)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3), min_size=n, max_size=n),
    st.sets(st.integers(1, n - 1)))), st.integers(1, 5))
def test_cohesion_contrast_invariants(data, scale):
    rows, bounds = data
    x, b = np.array(rows), sorted(bounds)
    k = cohesion_contrast(x, b)
    assert 0.0 <= k <= 1.0
    assert cohesion_contrast(scale * x, b) == pytest.approx(k)     # cosines ignore the scale
    assert cohesion_contrast(x[:, ::-1], b) == pytest.approx(k)    # and the order of the terms
