"""Cases found by using the Python API as a new library user would (a script or a notebook):
messages that named the wrong thing or nothing, and a user's mistake that ended in a traceback
from deep inside. Each test fails on the code before its fix (see the docstrings)."""

from __future__ import annotations

import warnings

import pytest

from stability import evaluate
from stability.exceptions import InvalidSegmentationError

UNITS = [f"s{i} word{i % 4}" for i in range(12)]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_a_segmenter_repeating_a_boundary_is_not_told_to_sort_its_output():
    """A segmenter's boundaries are read in any order (README: "distinct integers in any order"),
    yet one returning ``[7, 3, 3]`` was told they "must be sorted, distinct integers"."""
    from stability.segmentation import check_boundaries

    run = evaluate({"dup": lambda units: [7, 3, 3]}, [UNITS], n_restarts=2, progress=False)
    error = run.failures[0].error
    assert "must be distinct integers, in any order, in 1..11; 3 is repeated in [7, 3, 3]" in error
    assert "sorted" not in error
    with pytest.raises(InvalidSegmentationError, match=r"must be sorted, distinct integers in 1\.\.8; 4 is not sorted"):
        check_boundaries([8, 4], 9)  # where the order is required, it is still said
