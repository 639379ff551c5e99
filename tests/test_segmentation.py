"""The segmentation model: conversions, validation and their round trips."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, strategies as st

from stability import InvalidSegmentationError, InvalidTypeError, Segmentation, as_segmentation
from stability.segmentation import check_boundaries

masses_strategy = st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=30)


@st.composite
def segmentations(draw):
    n = draw(st.integers(min_value=1, max_value=80))
    chosen = draw(st.sets(st.integers(min_value=1, max_value=max(1, n - 1)), max_size=n - 1)) if n > 1 else set()
    return Segmentation(sorted(chosen), n)


def test_design_example():
    # DESIGN.md: masses [3, 4, 2] <-> boundaries [3, 7], n = 9, gap string "00100010"
    s = Segmentation.from_masses([3, 4, 2])
    assert s.boundaries == (3, 7) and s.n_units == 9
    assert s.gaps == "00100010"
    assert s.labels == (0, 0, 0, 1, 1, 1, 1, 2, 2)
    assert s.segments == ((0, 3), (3, 7), (7, 9))
    assert Segmentation.from_gaps("00100010") == s
    assert Segmentation.from_labels([0, 0, 0, 1, 1, 1, 1, 2, 2]) == s
    assert Segmentation.from_labels(list("aaabbbbcc")) == s


@given(segmentations())
def test_round_trips(seg):
    assert Segmentation.from_masses(seg.masses) == seg
    assert Segmentation.from_gaps(seg.gaps) == seg
    assert Segmentation.from_labels(seg.labels) == seg
    assert Segmentation.from_gaps([int(c) for c in seg.gaps], boundary=1) == seg
    assert sum(seg.masses) == seg.n_units and len(seg.gaps) == seg.n_units - 1
    assert pickle.loads(pickle.dumps(seg)) == seg
    assert hash(Segmentation(seg.boundaries, seg.n_units)) == hash(seg)
    assert seg.label_array().tolist() == list(seg.labels)


@given(masses_strategy)
def test_masses_round_trip(masses):
    assert list(Segmentation.from_masses(masses).masses) == masses
    seg = Segmentation.from_masses(masses)
    assert as_segmentation(seg) is seg


def test_immutable():
    s = Segmentation([2], 4)
    with pytest.raises(AttributeError):
        s.n_units = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "boundaries, n, fragment",
    [
        ([0, 3], 9, "must lie in 1..8"),
        ([3, 9], 9, "received 9"),
        ([3, 3], 9, "3 is repeated"),
        ([5, 3], 9, "not sorted"),
        # one unit: no place for a boundary ("must lie in 1..0 for a document of 1 units" before)
        ([1], 1, r"^boundaries must be empty for a document of 1 unit, which has no place for a boundary \(a "
                 r"boundary b starts a segment at unit b\); received 1 in \[1\]$"),
        # and so with two, repeated or unsorted (the order check, made first, still said "in 1..0")
        ([1, 1], 1, r"^boundaries must be empty for a document of 1 unit, .* received 1 in \[1, 1\]$"),
        ([2, 1], 1, r"^boundaries must be empty for a document of 1 unit, .* received 2 in \[2, 1\]$"),
    ],
)
def test_boundary_errors_name_expectation_and_value(boundaries, n, fragment):
    with pytest.raises(InvalidSegmentationError, match=fragment):
        Segmentation(boundaries, n)


def test_type_errors():
    with pytest.raises(InvalidTypeError, match=r"boundaries\[0\] must be an integer; received float 1.5"):
        Segmentation([1.5], 4)
    with pytest.raises(InvalidTypeError, match="received bool"):
        Segmentation([True], 4)
    # a bare sequence or string is never guessed at: the message names the explicit constructors
    for bare in ("00100", [3, 0, 2], (3, 7), np.array([3, 4, 2])):
        with pytest.raises(InvalidTypeError, match="^reference must be a Segmentation; received .*"
                           "from_boundaries.*from_masses.*from_gaps"):
            as_segmentation(bare, name="reference")
    with pytest.raises(InvalidSegmentationError, match="element 2 is '2'"):
        Segmentation.from_gaps("0020")


def test_integer_gap_sequences_are_read_with_the_default_boundary():
    """nltk's lists of ints (``pk([0, 0, 1, 0], ..., boundary=1)``): from_gaps refused them under its
    default ``boundary="1"`` with "must contain only '1' (boundary) and '0' (no boundary) ...;
    element 0 is 0", a message that reads as a contradiction. DESIGN.md: "00100010" <-> [3, 7]."""
    s = Segmentation([3, 7], 9)
    assert Segmentation.from_gaps([0, 0, 1, 0, 0, 0, 1, 0]) == s
    assert Segmentation.from_gaps(np.array([0, 0, 1, 0, 0, 0, 1, 0])) == s
    assert Segmentation.from_gaps([0, 0, 1, 0, 0, 0, 1, 0], boundary=1) == s
    with pytest.raises(InvalidSegmentationError, match="element 1 is 2"):
        Segmentation.from_gaps([0, 2, 0])
    with pytest.raises(InvalidSegmentationError, match="element 1 is 1"):
        Segmentation.from_gaps(["0", 1, "0"])  # mixed strings and ints: not guessed at


def test_check_boundaries_sorts_on_request():
    assert check_boundaries(np.array([7, 3]), 9, sort=True) == (3, 7)
    assert check_boundaries([], 1) == ()
    with pytest.raises(InvalidTypeError):
        check_boundaries(np.array([1.0, 2.0]), 9)


def test_as_segmentation_checks_length():
    with pytest.raises(InvalidSegmentationError, match="must cover 10 units; received a segmentation of 9"):
        as_segmentation(Segmentation.from_masses([3, 4, 2]), "hypothesis", n_units=10)


@pytest.mark.parametrize("output", [{3, 7}, {3: 1, 7: 1}, (b for b in (3, 7)), "37"],
                         ids=["set", "dict", "generator", "string"])
def test_unordered_or_one_shot_containers_are_refused(output):
    # a set or dict has no defined order and a generator can be read once: reading them as
    # boundaries would be a silent guess (issue 12), so they are refused with the expected type
    with pytest.raises(InvalidTypeError, match="a sequence of integers"):
        check_boundaries(output, 10, sort=True)


@pytest.mark.parametrize("build, value", [
    (Segmentation.from_masses, {4, 3}),
    (Segmentation.from_masses, {4: "a", 3: "b"}),
    (Segmentation.from_labels, {"a", "b"}),
    (Segmentation.from_labels, {0: 1, 1: 1}),
])
def test_masses_and_labels_in_an_unordered_container_are_refused(build, value):
    """Their order is the segmentation: a set of sizes {4, 3} was read as 3, 4 and a dict's keys
    taken for the values, silently."""
    with pytest.raises(InvalidTypeError, match="has no order of its own"):
        build(value)


@pytest.mark.parametrize("labels", [[0, float("nan"), float("nan"), 1], np.array([1.0, 1.0, np.nan])])
def test_a_missing_label_is_refused_not_made_a_segment_of_its_own(labels):
    """NaN differs from itself, so each NaN label started a segment: a pandas column with missing
    labels became a boundary at every missing unit."""
    with pytest.raises(InvalidSegmentationError, match=r"labels\[\d\] is NaN"):
        Segmentation.from_labels(labels)


def test_a_boolean_gap_mask_is_read_with_the_default_boundary():
    """``np.arange(n - 1) % 4 == 3``, a numpy segmenter's natural mask, was refused ("element 0 is
    False") where the same mask of 0 and 1 was read."""
    s = Segmentation([3, 7], 9)
    assert Segmentation.from_gaps(np.array([False, False, True, False, False, False, True, False])) == s
    assert Segmentation.from_gaps([False, False, True, False, False, False, True, False]) == s


def test_an_error_after_a_silent_sort_quotes_the_values_as_given():
    # a segmenter returning [8, 4, 4] was told '4 is repeated in [4, 4, 8]': the sorted list, not
    # what it returned
    from stability.segmentation import check_boundaries

    with pytest.raises(InvalidSegmentationError, match=r"4 is repeated in \[8, 4, 4\]$"):
        check_boundaries([8, 4, 4], 9, sort=True)
    with pytest.raises(InvalidSegmentationError, match=r"received 9 in \[9, 3\]; 9 ends the last segment"):
        check_boundaries([9, 3], 9, sort=True)
    with pytest.raises(InvalidSegmentationError, match=r"4 is not sorted in \[8, 4\]$"):
        check_boundaries([8, 4], 9)  # without the sort, as before
