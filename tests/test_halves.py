"""The study's comparison on halves of the documents (stability.study.halves)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from stability.exceptions import InvalidParameterError
from stability.stats import kendall_tau
from stability.study.analysis import ceiling
from stability.study.halves import ideal_values, split_halves

B = "boundary_similarity"


def test_two_documents_by_hand():
    # With two documents every split puts one in each half, and both directions are compared, so
    # the result does not depend on the draws. Configurations 0, 1, 2; configuration 2 content-blind.
    score = np.array([[0.3, 0.2, 0.1], [0.3, 0.2, 0.1]])
    ref = np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])
    out = split_halves(score, {B: ref}, [False, False, True], n_splits=7)
    assert out.half == 1 and out.n_splits == 7 and out.tau["score"][B].size == 14
    # score against document 0's ranking: -1; against document 1's: +1
    assert sorted(set(out.tau["score"][B].tolist())) == [-1.0, 1.0] and out.mean("score") == pytest.approx(0.0)
    # ideal from document 0: (0.1, 0.2, -0.9) against (0.3, 0.2, 0.1): pairs (0,1) discordant,
    # (0,2) and (1,2) concordant: 1/3. From document 1: (0.3, 0.2, -0.8) against (0.1, 0.2, 0.3): -1.
    assert sorted(set(out.tau["ideal"][B].round(12).tolist())) == [-1.0, round(1 / 3, 12)]
    assert out.mean("ideal") == pytest.approx(-1 / 3)
    # the references of one document against the other's: reversed both ways
    assert out.tau["reference"][B].tolist() == [-1.0] * 14


def test_every_split_has_two_equal_halves_and_is_seeded():
    rng = np.random.default_rng(3)
    score, ref = rng.random((9, 5)), rng.random((9, 5))
    first = split_halves(score, {B: ref}, [False] * 5, n_splits=30, seed=4)
    again = split_halves(score, {B: ref}, [False] * 5, n_splits=30, seed=4)
    other = split_halves(score, {B: ref}, [False] * 5, n_splits=30, seed=5)
    assert first.half == 4  # nine documents: one left out of every split
    assert np.array_equal(first.tau["score"][B], again.tau["score"][B])
    assert not np.array_equal(first.tau["score"][B], other.tau["score"][B])


def test_undefined_documents_are_left_out_of_the_means():
    # document 1 of configuration 0 is NaN (a failure): the half holding it averages the other one
    score = np.array([[0.9, 0.1], [np.nan, 0.2], [0.8, 0.3], [0.7, 0.0]])
    out = split_halves(score, {B: score}, [False, False], n_splits=20)
    assert not np.isnan(out.tau["score"][B]).any()
    assert np.array_equal(out.tau["score"][B], out.tau["reference"][B])


@given(arrays(float, st.tuples(st.integers(2, 12), st.integers(3, 6)), elements=st.floats(0, 1)),
       st.integers(0, 2**32 - 1))
def test_a_score_equal_to_the_reference_is_the_reference(matrix, seed):
    blind = [False] * matrix.shape[1]
    out = split_halves(matrix, {B: matrix, "f1_1": matrix}, blind, n_splits=5, seed=seed)
    for metric in (B, "f1_1"):
        # nothing flagged: the ideal is the reference itself, and so is the score
        assert np.array_equal(out.tau["score"][metric], out.tau["reference"][metric], equal_nan=True)
        assert np.array_equal(out.tau["ideal"][metric], out.tau["reference"][metric], equal_nan=True)


@given(arrays(float, st.integers(3, 10), elements=st.floats(0, 1)), st.lists(st.booleans(), min_size=10, max_size=10))
def test_the_ideal_is_the_ceilings(means, flags):
    blind = flags[:means.size]
    ideal = ideal_values(means, blind)
    if all(blind):
        assert np.isnan(ideal).all() and np.isnan(ceiling(means, blind, B))
        return
    aware = means[~np.asarray(blind)]
    assert (ideal[np.asarray(blind)] < aware.min()).all()  # content-blind below every other one
    assert np.array_equal(ideal[~np.asarray(blind)], aware)
    assert ceiling(means, blind, B) == kendall_tau(ideal, means) or np.isnan(ceiling(means, blind, B))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: split_halves(np.zeros(4), {B: np.zeros(4)}, [False]), r"score.*\(documents, configurations\)"),
    (lambda: split_halves(np.zeros((4, 3)), {B: np.zeros((4, 2))}, [False] * 3), r"references.*\(4, 3\)"),
    (lambda: split_halves(np.zeros((4, 3)), {B: np.zeros((4, 3))}, [False] * 2), r"blind.*one flag.*\(3\).*2"),
    (lambda: split_halves(np.zeros((1, 3)), {B: np.zeros((1, 3))}, [False] * 3), r"score.*at least 2 documents"),
    (lambda: split_halves(np.zeros((4, 3)), {B: np.zeros((4, 3))}, [False] * 3, n_splits=0), r"n_splits"),
])
def test_bad_input_names_what_was_wrong(call, message):
    with pytest.raises(InvalidParameterError, match=message):
        call()
