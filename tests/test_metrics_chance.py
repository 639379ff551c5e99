"""The chance-corrected boundary F1 (``f1_corrected``, ``f1_1_corrected``) and its expectation.

``expected_f1`` keeps the reference and places the hypothesis's boundaries at random; it is checked
against every placement enumerated (brute force, Hypothesis) and a count done by hand.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stability import Segmentation
from stability.catalogue import REFERENCE, TOLERANT, reference_measure, reference_measures
from stability.exceptions import InvalidParameterError
from stability.matching import count_matches, expected_matches
from stability.metrics import boundary_prf, chance_corrected_f1, compute_all, expected_f1


def _placements(n: int, h: int):
    return [Segmentation(list(c), n) for c in combinations(range(1, n), h)]


def test_hand_count_within_one_unit():
    """Reference {3, 7} of 9 units (8 gaps), 2 hypothesis boundaries, tolerance 1. The gaps within
    one unit of 3 are {2, 3, 4}, of 7 {6, 7, 8}; {1, 5} reach neither. Of the C(8, 2) = 28
    placements, 3 x 3 = 9 put one boundary in each window (2 matches); 3 + 3 put both in one window
    and 6 x 2 = 12 one in a window and one outside (1 match, 18 in all); {1, 5} matches none. So
    E[X] = (2 * 9 + 18) / 28 = 9 / 7 and E[F1] = 2 E[X] / (h + r) = (18 / 7) / 4 = 9 / 14."""
    ref = Segmentation([3, 7], 9)
    assert expected_f1(ref, 2, tolerance=1) == pytest.approx(9 / 14, rel=1e-14)
    # the hypothesis {3, 6}: both found within one unit, F1 = 1, the best there is
    assert chance_corrected_f1(ref, Segmentation([3, 6], 9), 1) == pytest.approx(1.0, rel=1e-14)
    # {1, 5}: none found, F1 = 0: (0 - 9/14) / (1 - 9/14) = -9/5
    assert chance_corrected_f1(ref, Segmentation([1, 5], 9), 1) == pytest.approx(-9 / 5, rel=1e-13)
    # {2, 5}: one found, F1 = 2 * 1 / 4 = 1/2: (1/2 - 9/14) / (5/14) = -2/5
    parts = chance_corrected_f1(ref, Segmentation([2, 5], 9), 1, return_parts=True)
    assert (parts.f1, parts.tolerance) == (0.5, 1) and parts.value == pytest.approx(-2 / 5, rel=1e-13)


def test_hand_count_exact():
    """No tolerance: the overlap is hypergeometric, E[X] = h r / (n - 1) = 2 * 2 / 8 = 1/2, so
    E[F1] = 2 (1/2) / 4 = 1/4; {3, 6} has F1 = 1/2: (1/2 - 1/4) / (3/4) = 1/3."""
    ref = Segmentation([3, 7], 9)
    assert expected_f1(ref, 2) == 0.25
    assert chance_corrected_f1(ref, Segmentation([3, 6], 9)) == pytest.approx(1 / 3, rel=1e-15)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 10).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.integers(1, n - 1)).map(sorted), st.integers(0, n - 1), st.integers(0, 4))))
def test_expectation_is_the_mean_over_every_placement(case):
    """E[F1] against the mean of boundary_prf's F1 over every set of h gaps (the reference fixed),
    at tolerances 0 to 4: the same matching as the reported F1. The corrected score averages to 0
    over the placements (it is linear in F1), and is NaN exactly when every placement gives F1 = 1."""
    n, boundaries, h, tolerance = case
    ref = Segmentation(boundaries, n)
    hyps = _placements(n, h)
    f1s = np.array([boundary_prf(ref, hyp, tolerance).f1 for hyp in hyps])
    expected = expected_f1(ref, h, tolerance)
    assert expected == pytest.approx(f1s.mean(), rel=1e-12, abs=1e-12)
    corrected = np.array([chance_corrected_f1(ref, hyp, tolerance) for hyp in hyps])
    if np.all(f1s == 1.0):
        assert np.isnan(corrected).all()
    else:
        assert not np.isnan(corrected).any()
        assert corrected.mean() == pytest.approx(0.0, abs=1e-9)
        assert np.allclose(corrected, (f1s - f1s.mean()) / (1 - f1s.mean()), rtol=1e-9, atol=1e-9)
        assert corrected.max() <= 1.0 + 1e-12


def test_edge_cases():
    """Empty sets follow boundary_prf's zero rule (F1 = 1 when both are empty, 0 when one is); the
    corrected value is 0 when the F1 cannot depend on the placement and is 0, NaN when every
    placement gives F1 = 1 (as the harness's corrected_f1 is when its chance level is 1)."""
    empty, some, every = Segmentation([], 9), Segmentation([3, 7], 9), Segmentation(list(range(1, 9)), 9)
    assert math.isnan(chance_corrected_f1(empty, empty))                 # both empty: F1 = E = 1
    assert chance_corrected_f1(some, empty) == 0.0                       # F1 = E = 0
    assert chance_corrected_f1(empty, some) == 0.0
    assert math.isnan(chance_corrected_f1(every, every))                 # every gap both: forced
    assert chance_corrected_f1(some, every) == 0.0                       # the only placement: F1 = E
    assert math.isnan(chance_corrected_f1(Segmentation([], 1), Segmentation([], 1)))  # no gap
    # a tolerance reaching every gap: any one boundary matches the one reference boundary
    assert math.isnan(chance_corrected_f1(Segmentation([1], 3), Segmentation([2], 3), 1))
    with pytest.raises(InvalidParameterError, match="n_hyp_boundaries must be an integer in 0..8"):
        expected_f1(some, 9)
    with pytest.raises(InvalidParameterError, match="tolerance must be an integer >= 0"):
        chance_corrected_f1(some, some, -1)


def test_dense_hypotheses_get_no_credit_for_chance():
    """The case the score is for. Against 18 reference boundaries in 99 gaps (one every 5 or 6
    units), a boundary at every other gap (49) scores an F1 within one unit of 0.54, close to the
    0.67 of a hypothesis placing every other reference boundary exactly (9); but 49 boundaries
    placed at random already score 0.47 on average, 9 score 0.33: corrected, 0.13 against 0.50.
    (Values of this implementation; the expectation itself is checked by brute force above.)"""
    n = 100
    boundaries = [4, 9, 15, 20, 26, 31, 37, 42, 47, 53, 58, 63, 69, 74, 79, 85, 90, 95]
    ref = Segmentation(boundaries, n)
    dense, half = Segmentation(list(range(2, 100, 2)), n), Segmentation(boundaries[::2], n)
    assert boundary_prf(ref, dense, 1).f1 == pytest.approx(0.537, abs=1e-3)  # 2 * 18 / 67: every one found
    assert boundary_prf(ref, half, 1).f1 == pytest.approx(2 / 3)  # 2 * 9 / 27
    assert expected_f1(ref, 49, 1) == pytest.approx(0.470, abs=1e-3)
    assert expected_f1(ref, 9, 1) == pytest.approx(0.335, abs=1e-3)
    assert chance_corrected_f1(ref, dense, 1) == pytest.approx(0.127, abs=1e-3)
    assert chance_corrected_f1(ref, half, 1) == pytest.approx(0.499, abs=1e-3)
    assert chance_corrected_f1(ref, ref, 1) == pytest.approx(1.0, rel=1e-12)


def test_long_stretches_out_of_reach_are_crossed_exactly():
    """expected_matches crosses a stretch of gaps out of reach of every reference in one step (its
    cost then does not grow with the document): the values against every placement enumerated
    (stretches of 112 and 79 gaps here, longer than the 68 it steps through at 2 boundaries), and
    on a document of 2**62 units with two references, by hand: each reference has 3 gaps in
    reach, 2 boundaries match min(2, ...) = the references with a boundary in reach, so
    E[X] = 2 (1 - C(G - 3, 2) / C(G, 2)) ~ 12 / G, and one boundary E[X] = 6 / G."""
    reference, gaps = [5, 120], 200
    brute = [np.mean([count_matches(reference, list(c), 1) for c in combinations(range(1, gaps + 1), m)])
             for m in (0, 1, 2)]
    assert expected_matches(reference, gaps, 1, [0, 1, 2]) == pytest.approx(brute, rel=1e-12, abs=1e-15)
    big = 2**62 - 1
    assert expected_matches([5, 2**61], big, 1, [1, 2]) == pytest.approx([6 / big, 12 / big], rel=1e-9)
    with pytest.raises(InvalidParameterError, match="at most 2\\*\\*24 gaps"):
        expected_matches([2**40], big, 2**30, [1])


def test_exact_expectation_on_a_document_of_2_62_units():
    """With no tolerance the expected matches are the hypergeometric mean h r / G, written once
    (stability.matching.expected_intersection) and exact at any size: drawing every gap of a
    document of 2**62 units matches all 3 references, E[X] = (2**62 - 1) * 3 / (2**62 - 1) = 3, and
    E[F1] = 2 E[X] / (h + r) = 6 / (2**62 + 2). The product h r computed in int64 overflowed
    (E[X] = -1, a negative expected F1)."""
    gaps = 2**62 - 1
    assert expected_matches([1, 2, 3], gaps, 0, [gaps, 1]).tolist() == [3.0, 3 / gaps]
    assert expected_f1(Segmentation([1, 2, 3], 2**62), gaps) == 6 / (2**62 + 2)


def test_harness_chance_level_is_the_same_expectation():
    """The harness's chance level and the reference F1's expectation come from one expected
    intersection: with one restart of h boundaries against B0 = the reference, the harness's
    expected STP and STR are E[X] / h and E[X] / r, each rounded once from the exact fraction (so
    r / G and h / G to the last bit, as the inline formula gave), and its F1 is E[F1] (to rounding:
    eq. 11 of the two against 2 E[X] / (h + r))."""
    from fractions import Fraction

    from stability.scores import chance_scores

    for n, ref, h in ((9, [3, 7], 2), (101, [10, 20, 30], 7), (2**62, [1, 2, 3], 5)):
        p, r, f = chance_scores(ref, np.array([h]), n)
        assert (p, r) == (float(Fraction(len(ref), n - 1)), float(Fraction(h, n - 1)))
        assert f == pytest.approx(expected_f1(Segmentation(ref, n), h), rel=1e-15)


def test_catalogue_entries():
    """Both scores are catalogued once: by name and alias, f1_corrected at the report's tolerance
    (like f1), f1_1_corrected within one unit whatever it is (like f1_1); in the full reports by
    default only the first, in the compact terminal table neither."""
    assert [m.name for m in reference_measures("cf1,cf1_1,f1_corrected")] == ["f1_corrected", "f1_1_corrected"]
    assert reference_measure("f1_1_corrected").direction == "higher"
    assert "f1_corrected" in TOLERANT and "f1_1_corrected" not in TOLERANT
    assert REFERENCE["f1_corrected"].report and not REFERENCE["f1_1_corrected"].report
    assert not REFERENCE["f1_corrected"].compact and not REFERENCE["f1_1_corrected"].compact
    ref, hyp = Segmentation([3], 9), Segmentation([6], 9)  # 3 units apart
    scores = compute_all(ref, hyp, tolerance=3)
    assert scores["f1_corrected"] == chance_corrected_f1(ref, hyp, 3) == 1.0
    assert scores["f1_1_corrected"] == chance_corrected_f1(ref, hyp, 1) < 0
    assert compute_all(ref, hyp, names=["cf1_1"]) == {"f1_1_corrected": chance_corrected_f1(ref, hyp, 1)}
