"""Boundary P/R/F1, GHD, and Fournier's B and S.

Reference values: nltk 3.10 (ghd) and segeval 2.0.11 (B, S) run inside the tests, an exhaustive
maximum-matching search, the blog seed's examples (003) and hand computations in comments.
"""

from __future__ import annotations

import random
import sys
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import segeval
from nltk.metrics.segmentation import ghd as nltk_ghd

from stability.exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError
from stability.metrics import (
    boundary_edit_counts,
    boundary_prf,
    boundary_similarity,
    cov_d,
    ghd,
    segmentation_similarity,
)
from stability.segmentation import Segmentation

# `import nltk.metrics.segmentation as m` fails (nltk rebinds nltk.metrics, metrics-peers.md)
nltk_segmentation = sys.modules[nltk_ghd.__module__]

#: The hand cases below write segmentations as segment masses (segeval's encoding), explicitly.
M = Segmentation.from_masses


def random_segmentation(rng: random.Random, n: int, density: float | None = None) -> Segmentation:
    p = rng.random() if density is None else density
    return Segmentation([b for b in range(1, n) if rng.random() < p], n)


def random_pairs(seed: int, count: int, n_max: int, n_min: int = 2):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(n_min, n_max)
        yield random_segmentation(rng, n), random_segmentation(rng, n)


# --------------------------------------------------------------------------- boundary P/R/F1


def _max_matching_size(ref, hyp, tol):
    """Maximum bipartite matching by augmenting paths (Kuhn), independent of the two-pointer sweep."""
    match_of_h: dict[int, int] = {}

    def augment(r, seen):
        for h in hyp:
            if abs(r - h) <= tol and h not in seen:
                seen.add(h)
                if h not in match_of_h or augment(match_of_h[h], seen):
                    match_of_h[h] = r
                    return True
        return False

    return sum(augment(r, set()) for r in ref)


def test_boundary_prf_is_a_maximum_matching():
    for ref, hyp in random_pairs(seed=11, count=300, n_max=40):
        for tol in (0, 1, 2, 4):
            res = boundary_prf(ref, hyp, tol)
            m = _max_matching_size(ref.boundaries, hyp.boundaries, tol)
            assert res.matches == m
            if hyp.n_boundaries:
                assert res.precision == m / hyp.n_boundaries
            if ref.n_boundaries:
                assert res.recall == m / ref.n_boundaries


def test_boundary_prf_monotone_in_tolerance_where_ruptures_is_not():
    # metrics-peers.md section 4: ruptures gives P = 0.5, 1.0, 0.5 at margins 1, 2, 3 for
    # ref [2, 5, 11], hyp [2, 4, 11] (greedy matching lets 2 consume 4). Maximum matching:
    # tol 0 -> {2, 11} (2 of 3); tol >= 1 -> 5~4 as well (3 of 3), never less afterwards.
    ref, hyp = Segmentation([2, 5, 11], 12), Segmentation([2, 4, 11], 12)
    precisions = [boundary_prf(ref, hyp, tol).precision for tol in range(6)]
    assert precisions == [2 / 3, 1.0, 1.0, 1.0, 1.0, 1.0]
    for ref, hyp in random_pairs(seed=12, count=200, n_max=50):
        f1s = [boundary_prf(ref, hyp, tol).f1 for tol in range(6)]
        assert f1s == sorted(f1s)


def test_boundary_prf_hand_cases_and_zero_division():
    # blog seed: AAA|BBBB|CC vs AA|BBBBBB|C, {3, 7} vs {2, 8}: no exact match, both near misses
    assert tuple(boundary_prf(M([3, 4, 2]), M([2, 6, 1]))) == (0.0, 0.0, 0.0)
    assert tuple(boundary_prf(M([3, 4, 2]), M([2, 6, 1]), tolerance=1)) == (1.0, 1.0, 1.0)
    # {3, 7} vs {3}: P = 1/1, R = 1/2, F1 = 2/3
    p, r, f = boundary_prf(M([3, 4, 2]), M([3, 6]))
    assert (p, r) == (1.0, 0.5) and f == pytest.approx(2 / 3)
    # project rule: both empty -> 1.0; one side empty -> 0.0
    assert tuple(boundary_prf(M([9]), M([9]))) == (1.0, 1.0, 1.0)
    assert tuple(boundary_prf(M([3, 6]), M([9]))) == (0.0, 0.0, 0.0)
    assert tuple(boundary_prf(M([9]), M([3, 6]))) == (0.0, 0.0, 0.0)
    with pytest.raises(InvalidParameterError, match="tolerance must be"):
        boundary_prf(M([3, 6]), M([9]), -1)
    with pytest.raises(InvalidTypeError, match="tolerance"):
        boundary_prf(M([3, 6]), M([9]), 1.5)


# --------------------------------------------------------------------------- GHD


def test_ghd_equals_nltk_exactly_for_binary_fraction_costs():
    costs = [(2.0, 2.0, 1.0), (1.0, 1.0, 0.5), (1.0, 2.0, 0.5), (3.0, 1.0, 2.0), (0.25, 4.0, 0.75)]
    rng = random.Random(13)
    for ref, hyp in random_pairs(seed=13, count=400, n_max=80):
        c = rng.choice(costs)
        assert ghd(ref, hyp, *c) == nltk_ghd(ref.gaps, hyp.gaps, *c)


def test_ghd_equals_nltk_to_rounding_for_other_costs():
    for ref, hyp in random_pairs(seed=14, count=200, n_max=80):
        assert ghd(ref, hyp, 0.3, 0.7, 0.1) == pytest.approx(nltk_ghd(ref.gaps, hyp.gaps, 0.3, 0.7, 0.1), abs=1e-12)


def test_ghd_nltk_docstring_and_blog_examples():
    # nltk's docstring (Kulyukin's C++ examples), on gap strings
    cases = [
        ("1100100000", "1100010000", (1.0, 1.0, 0.5), 0.5),
        ("1100100000", "1100000001", (1.0, 1.0, 0.5), 2.0),
        ("011", "110", (1.0, 1.0, 0.5), 1.0),
        ("1", "0", (1.0, 1.0, 0.5), 1.0),
        ("111", "000", (1.0, 1.0, 0.5), 3.0),
        ("000", "111", (1.0, 2.0, 0.5), 6.0),
    ]
    for ref, hyp, costs, expected in cases:
        assert ghd(Segmentation.from_gaps(ref), Segmentation.from_gaps(hyp), *costs) == expected
    # blog seed 003 with nltk's defaults: a_3 (shift by 2) -> 2.0, a_4 (shift by 7 > ins + del) -> 4.0
    assert ghd(M([8, 13, 3]), M([10, 11, 3])) == 2.0
    assert ghd(M([8, 13, 3]), M([15, 6, 3])) == 4.0
    assert ghd(M([8, 13, 3]), M([8, 13, 3])) == 0.0
    # a free shift (coefficient 0): a_3's and a_4's shifted boundary cost nothing (hand), as in nltk
    for hyp in (M([10, 11, 3]), M([15, 6, 3])):
        assert ghd(M([8, 13, 3]), hyp, shift_cost_coeff=0.0) == 0.0 == nltk_ghd(M([8, 13, 3]).gaps, hyp.gaps, 2.0, 2.0, 0.0)


def test_ghd_has_no_length_cap(monkeypatch):
    # nltk 3.10.4 refuses gap strings longer than 10,000 (3.10.0 had no cap); lift its cap to
    # compare at n = 30,000
    rng = random.Random(15)
    n = 30_000
    ref = Segmentation(sorted(rng.sample(range(1, n), 300)), n)
    hyp = Segmentation(sorted(rng.sample(range(1, n), 250)), n)
    if hasattr(nltk_segmentation, "MAX_GHD_INPUT_LEN"):
        with pytest.raises(ValueError):
            nltk_ghd(ref.gaps, hyp.gaps)
        monkeypatch.setattr(nltk_segmentation, "MAX_GHD_INPUT_LEN", 10**9)
    assert ghd(ref, hyp) == nltk_ghd(ref.gaps, hyp.gaps)


def test_ghd_parts_and_validation():
    parts = ghd(M([3, 4, 2]), M([9]), return_parts=True)
    assert parts.value == 4.0 and (parts.n_reference, parts.n_hypothesis) == (2, 0)  # 2 insertions
    assert ghd(M([9]), M([3, 4, 2]), del_cost=3.0) == 6.0  # 2 deletions
    with pytest.raises(InvalidParameterError, match="ins_cost"):
        ghd(M([3, 6]), M([9]), ins_cost=-1)
    with pytest.raises(InvalidSegmentationError):
        ghd(M([3, 6]), M([8]))


# --------------------------------------------------------------------------- B and S


def test_ghd_refuses_costs_whose_sums_leave_exact_float64_integers():
    # ins_cost x reference boundaries and del_cost x hypothesis boundaries must stay below 2**53
    # (the docstring's limit), each on its own: 2**52 x 2 boundaries reaches it exactly
    big = 2.0**52
    with pytest.raises(InvalidParameterError, match=r"2\*\*53.*ins_cost=4503599627370496\.0 for 2"):
        ghd(M([3, 3, 3]), M([9]), ins_cost=big)
    with pytest.raises(InvalidParameterError, match=r"2\*\*53.*del_cost=4503599627370496\.0 for 2"):
        ghd(M([9]), M([3, 3, 3]), del_cost=big)
    # one boundary short of the limit is computed: one insertion, or one deletion, of 2**52
    assert ghd(M([3, 6]), M([9]), ins_cost=big) == big
    assert ghd(M([9]), M([3, 6]), del_cost=big) == big


def test_b_and_s_equal_segeval_on_random_pairs():
    checked = 0
    for ref, hyp in random_pairs(seed=16, count=300, n_max=60):
        if ref.n_boundaries + hyp.n_boundaries == 0:
            continue  # segeval raises there (see below)
        for n_t in (2, 3, 5):
            num, den, adds, subs, trans = segeval.boundary_similarity(
                hyp.masses, ref.masses, n_t=n_t, return_parts=True
            )
            parts = boundary_similarity(ref, hyp, n_t, return_parts=True)
            assert parts.additions == len(adds) and len(parts.transpositions) == len(trans) and not subs
            exact = Fraction(
                (parts.matches + len(parts.transpositions)) * n_t - sum(j - i for i, j in parts.transpositions),
                den * n_t,
            )
            # segeval's numerator is a 28-digit Decimal (exact when the weights are binary fractions)
            assert abs(Fraction(Decimal(num)) / den - exact) < Fraction(1, 10**25)
            if n_t == 2:
                assert Fraction(Decimal(num)) / den == exact
            assert parts.value == float(segeval.boundary_similarity(hyp.masses, ref.masses, n_t=n_t))
            assert segmentation_similarity(ref, hyp, n_t) == float(
                segeval.segmentation_similarity(hyp.masses, ref.masses, n_t=n_t)
            )
            checked += 1
    assert checked > 800


def test_b_and_s_hand_cases():
    # {3, 7} vs {2, 8} (gaps 2, 6 vs 1, 7): two adjacent near misses, weight 1/2 each.
    # B = (M + T - w) / (M + A + T) = (0 + 2 - 1) / 2 = 0.5 ; S = 1 - 1 / 8 = 0.875
    e = boundary_edit_counts(M([3, 4, 2]), M([2, 6, 1]))
    assert (e.matches, e.additions, e.transpositions) == (0, 0, ((1, 2), (6, 7)))
    assert boundary_similarity(M([3, 4, 2]), M([2, 6, 1])) == 0.5
    assert segmentation_similarity(M([3, 4, 2]), M([2, 6, 1])) == 0.875
    # blog seed a_3 and a_4 (metrics-peers.md section 3): B = 1/3 and S = 1 - 2/23 for both,
    # since with n_t = 2 a 2-unit shift is a full miss just like a 7-unit shift
    for hyp in (M([10, 11, 3]), M([15, 6, 3])):
        assert boundary_similarity(M([8, 13, 3]), hyp) == pytest.approx(1 / 3)
        assert segmentation_similarity(M([8, 13, 3]), hyp) == pytest.approx(21 / 23)
    # with n_t = 3 the 2-unit shift becomes a near miss of weight 2/3: B = (1 + 1 - 2/3) / 2
    assert boundary_similarity(M([8, 13, 3]), M([10, 11, 3]), n_t=3) == pytest.approx(2 / 3)


def test_edit_counts_edits_and_n_t_of_one():
    # {3, 7} vs {2, 5, 8} (gaps 2, 6 vs 1, 4, 7): near misses (1, 2) and (6, 7) of weight 1/2
    # each, gap 4 an addition, so edits = A + w_T = 1 + 1 = 2 (hand);
    # B = (0 + 2 - 1) / (0 + 1 + 2) = 1/3 and S = 1 - 2 / 8 = 0.75
    ref, hyp = M([3, 4, 2]), M([2, 3, 3, 1])
    e = boundary_edit_counts(ref, hyp)
    assert (e.additions, e.transposition_weight, e.edits) == (1, 1.0, 2.0)
    assert boundary_similarity(ref, hyp) == pytest.approx(1 / 3) == float(segeval.boundary_similarity(hyp.masses, ref.masses))
    assert segmentation_similarity(ref, hyp) == 0.75 == float(segeval.segmentation_similarity(hyp.masses, ref.masses))
    # n_t = 1 is accepted and disables near misses: {3, 7} vs {2, 8} is then 4 additions,
    # B = 0 / 4 = 0 and S = 1 - 4 / 8 = 0.5 (hand)
    e = boundary_edit_counts(M([3, 4, 2]), M([2, 6, 1]), n_t=1)
    assert (e.matches, e.additions, e.transpositions, e.edits) == (0, 4, (), 4.0)
    assert boundary_similarity(M([3, 4, 2]), M([2, 6, 1]), n_t=1) == 0.0
    assert segmentation_similarity(M([3, 4, 2]), M([2, 6, 1]), n_t=1) == 0.5


def test_b_and_s_without_boundaries_are_one_where_segeval_crashes():
    with pytest.raises(ValueError):
        segeval.boundary_similarity((9,), (9,))
    assert boundary_similarity(M([9]), M([9])) == 1.0
    assert segmentation_similarity(M([9]), M([9])) == 1.0
    assert boundary_similarity(M([1]), M([1])) == 1.0 and segmentation_similarity(M([1]), M([1])) == 1.0
    assert boundary_similarity(M([3, 6]), M([9])) == 0.0  # two full misses
    with pytest.raises(InvalidParameterError, match="n_t"):
        boundary_similarity(M([3, 6]), M([9]), n_t=0)


def test_b_on_greedy_transposition_chain():
    # ref gaps {0, 2}, hyp gaps {1, 3} (n = 5): segeval pairs (0,1) then (2,3) -> 2 near misses
    ref, hyp = Segmentation([1, 3], 5), Segmentation([2, 4], 5)
    e = boundary_edit_counts(ref, hyp)
    assert e.transpositions == ((0, 1), (2, 3)) and e.additions == 0
    assert boundary_similarity(ref, hyp) == float(segeval.boundary_similarity(hyp.masses, ref.masses))
    # ref gaps {1}, hyp gaps {0, 2}: (0, 1) is taken first, gap 2 stays a full miss
    ref, hyp = Segmentation([2], 4), Segmentation([1, 3], 4)
    e = boundary_edit_counts(ref, hyp)
    assert e.transpositions == ((0, 1),) and e.additions == 1
    assert boundary_similarity(ref, hyp) == float(segeval.boundary_similarity(hyp.masses, ref.masses))
    assert np.isclose(boundary_similarity(ref, hyp), (1 - 0.5) / 2)


def test_boundary_prf_with_a_time_tolerance():
    # units of 2 s each: a tolerance of 2 s is a tolerance of 1 unit
    n = 30
    times = [(2.0 * i, 2.0 * i + 1.8) for i in range(n)]
    for ref, hyp in random_pairs(seed=18, count=100, n_max=n, n_min=n):
        assert boundary_prf(ref, hyp, 2.0, times=times).matches == boundary_prf(ref, hyp, 1).matches
        assert boundary_prf(ref, hyp, 0.0, times=times).matches == boundary_prf(ref, hyp).matches
    # uneven units: starts 0, 1, 2, 12, 13 (unit 2 lasts 10 s). Reference boundary 3 (t = 12),
    # hypothesis boundary 2 (t = 2): 1 unit apart but 10 s apart -> no match within 5 s.
    times = [(0, 1), (1, 2), (2, 12), (12, 13), (13, 14)]
    ref, hyp = Segmentation([3], 5), Segmentation([2], 5)
    assert boundary_prf(ref, hyp, 1).f1 == 1.0
    assert boundary_prf(ref, hyp, 5.0, times=times).f1 == 0.0
    assert boundary_prf(ref, hyp, 10.0, times=times).f1 == 1.0
    with pytest.raises(InvalidParameterError, match="shape"):
        boundary_prf(ref, hyp, 1.0, times=times[:4])


def test_boundary_prf_with_times_below_a_unit_and_zero_length_units():
    # half-second units (starts 0, 0.5, 1, 1.5): reference boundary 2 (t = 1.0) and hypothesis
    # boundary 1 (t = 0.5) are 0.5 s apart, so a tolerance of 0.5 s matches them (hand)
    half = [(0.5 * i, 0.5 * i + 0.5) for i in range(4)]
    assert boundary_prf(Segmentation([2], 4), Segmentation([1], 4), 0.5, times=half).f1 == 1.0
    assert boundary_prf(Segmentation([2], 4), Segmentation([1], 4), 0.4, times=half).f1 == 0.0
    # unit 2 lasts no time, so boundaries 2 and 3 both start at t = 2.0: at tolerance 0 the two
    # equal times on each side still pair one to one, 2 matches of 2 (hand), not 1
    zero = [(0, 1), (1, 2), (2, 2), (2, 3), (3, 4)]
    prf = boundary_prf(Segmentation([2, 3], 5), Segmentation([2, 3], 5), 0.0, times=zero)
    assert (prf.matches, prf.f1) == (2, 1.0)
    # one side with both, the other with one of them: 1 match, used once (P, R = 1, 1/2 or 1/2, 1)
    prf = boundary_prf(Segmentation([2, 3], 5), Segmentation([3], 5), 0.0, times=zero)
    assert (prf.matches, prf.precision, prf.recall) == (1, 1.0, 0.5)
    prf = boundary_prf(Segmentation([2], 5), Segmentation([2, 3], 5), 0.0, times=zero)
    assert (prf.matches, prf.precision, prf.recall) == (1, 0.5, 1.0)


def test_time_errors_name_the_unit_and_its_numbers():
    """boundary_prf said only "times must be finite numbers" (no unit, no value), and CovD wrote
    numpy 2's reprs ("start=np.float64(2.0)"): both now name the unit and its two numbers."""
    ref = Segmentation([2], 4)
    nan_start = [(0.0, 1.0), (1.0, 2.0), (float("nan"), 3.0), (3.0, 4.0)]
    for call in (lambda: boundary_prf(ref, ref, 1.0, times=nan_start), lambda: cov_d(ref, ref, times=nan_start)):
        with pytest.raises(InvalidParameterError, match=r"^times must be finite numbers; unit 2 has start=nan, end=3\.0$"):
            call()
    backwards = np.array([(0.0, 1.0), (2.0, 1.0), (2.0, 3.0), (3.0, 4.0)])
    with pytest.raises(InvalidParameterError, match=r"end >= start for every unit; unit 1 has start=2\.0, end=1\.0$"):
        cov_d(ref, ref, times=backwards)
