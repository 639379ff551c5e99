"""Window metrics (Pk, WindowDiff, corrected / expected / normalized WindowDiff, Pr_error).

Reference values come from nltk 3.10 and segeval 2.0.11 run inside the tests, from exact
rational arithmetic written independently from the papers' formulas, from Lamprier et al.
(2007) Figure 3, or from hand computations shown in comments.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
import segeval
from nltk.metrics.segmentation import pk as nltk_pk
from nltk.metrics.segmentation import windowdiff as nltk_windowdiff

from stability.exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError
from stability.metrics import (
    expected_windowdiff,
    nwin,
    pk,
    pr_error,
    tnwin,
    window_size,
    windowdiff,
    windowdiff_corrected,
)
from stability.segmentation import Segmentation

#: The hand cases below write segmentations as segment masses (segeval's encoding), explicitly.
M = Segmentation.from_masses


def random_segmentation(rng: random.Random, n: int, density: float | None = None) -> Segmentation:
    p = rng.random() if density is None else density
    return Segmentation([b for b in range(1, n) if rng.random() < p], n)


def random_pairs(seed: int, count: int, n_max: int):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(2, n_max)
        yield random_segmentation(rng, n), random_segmentation(rng, n)


# --------------------------------------------------------------------------- nltk / segeval


def test_pk_windowdiff_equal_nltk_for_every_k():
    """Exact float equality with nltk on gap strings, 300 seeded pairs x every k in 1..n-1."""
    checked = 0
    for ref, hyp in random_pairs(seed=1, count=300, n_max=70):
        for k in range(1, ref.n_units):
            assert pk(ref, hyp, k) == nltk_pk(ref.gaps, hyp.gaps, k)
            assert windowdiff(ref, hyp, k) == nltk_windowdiff(ref.gaps, hyp.gaps, k)
            assert windowdiff(ref, hyp, k, weighted=True) == nltk_windowdiff(ref.gaps, hyp.gaps, k, weighted=True)
            checked += 1
    assert checked > 5000


def test_pk_windowdiff_equal_segeval_for_every_k():
    """Exact parts (numerator, denominator) and values equal segeval's on masses (hyp, ref order)."""
    for ref, hyp in random_pairs(seed=2, count=200, n_max=45):
        for k in range(1, ref.n_units):
            ours = pk(ref, hyp, k, return_parts=True)
            assert (ours.numerator, ours.denominator) == segeval.pk(
                hyp.masses, ref.masses, window_size=k, return_parts=True
            )
            assert ours.value == float(segeval.pk(hyp.masses, ref.masses, window_size=k))
            ours = windowdiff(ref, hyp, k, return_parts=True)
            assert (ours.numerator, ours.denominator) == segeval.window_diff(
                hyp.masses, ref.masses, window_size=k, return_parts=True
            )
            assert ours.value == float(segeval.window_diff(hyp.masses, ref.masses, window_size=k))


def test_default_window_policies_match_the_peers():
    rng = random.Random(3)
    for _ in range(300):
        n = rng.randint(3, 200)
        ref, hyp = random_segmentation(rng, n), random_segmentation(rng, n)
        # nltk's own default window (k=None) whenever it is a valid window
        k_nltk = int(round((n - 1) / (max(ref.n_boundaries, 1) * 2.0)))
        assert window_size(ref, "nltk") == min(max(k_nltk, 1), n - 1)
        if 1 <= k_nltk <= n - 1:
            assert pk(ref, hyp, "nltk") == nltk_pk(ref.gaps, hyp.gaps)
        # segeval's default window and value
        k_seg = segeval.compute_window_size(ref.masses)
        if k_seg <= n - 1:
            assert window_size(ref, "segeval") == k_seg
            assert pk(ref, hyp, "segeval") == float(segeval.pk(hyp.masses, ref.masses))
        # Lamprier eq. 5: round(n / (2 (m + 1))), clamped into 1..n-1
        eq5 = round(n / (2 * (ref.n_boundaries + 1)))
        assert pk(ref, hyp, return_parts=True).k == min(max(eq5, 1), n - 1)


def test_default_window_cases_from_the_peer_survey():
    # metrics-peers.md, nltk issue #3102: ref 000001001000, hyp 000100010000;
    # nltk's default k = round(12 / 4) = 3 gives 0.4, segeval's k = round(13 / 6) = 2 gives 0.5455
    ref, hyp = Segmentation.from_gaps("000001001000"), Segmentation.from_gaps("000100010000")
    assert pk(ref, hyp, "nltk") == pytest.approx(0.4)
    assert pk(ref, hyp, "segeval") == pytest.approx(6 / 11)
    # dense reference (every gap) and no hypothesis boundary: nltk's rule gives k = round(0.5) = 0,
    # which is clamped to 1 here (every window of one gap differs -> 1.0)
    ref, hyp = Segmentation(range(1, 10), 10), Segmentation([], 10)
    assert pk(ref, hyp, "nltk", return_parts=True) == (pk(ref, hyp, 1, return_parts=True))
    assert pk(ref, hyp, "nltk") == 1.0
    # segeval's floor of 2 exceeds n-1 on a 2-unit document (segeval then divides 0 by 0): clamped to 1
    assert window_size(M([1, 1]), "segeval") == 1 and window_size(M([2]), "segeval") == 1
    # eq. 5 gives round(3 / 6) = 0 for n = 3 with 2 boundaries: clamped to 1
    assert window_size(M([1, 1, 1])) == 1 and pk(M([1, 1, 1]), M([3]), return_parts=True).k == 1


def test_windowdiff_corrected_numerator_equals_segeval_lamprier_fix():
    """segeval's fix pads k phantom units per side: same numerator, denominator n+k+1 (not n+k-2)."""
    for ref, hyp in random_pairs(seed=4, count=120, n_max=35):
        n = ref.n_units
        for k in range(1, n):
            num, den = segeval.window_diff(
                hyp.masses, ref.masses, window_size=k, lamprier_et_al_2007_fix=True, return_parts=True
            )
            ours = windowdiff_corrected(ref, hyp, k, return_parts=True)
            assert ours.numerator == num
            assert den == n + k + 1 and ours.denominator == n + k - 2


def _lamprier_eq4(ref: Segmentation, hyp: Segmentation, k: int, weighted: bool) -> Fraction:
    """Eq. 4 transcribed literally with the paper's 1-based #bound(S, i, j) = #{b: i <= b < j}."""
    n = ref.n_units

    def bound(seg, i, j):
        return sum(1 for b in seg.boundaries if i <= b < j)

    def d(i, j):
        x = abs(bound(ref, i, j) - bound(hyp, i, j))
        return x if weighted else min(x, 1)

    total = sum(d(1, i) for i in range(2, k + 1))
    total += sum(d(i, i + k) for i in range(1, n - k + 1))
    total += sum(d(i, n) for i in range(n - k + 1, n))
    return Fraction(total, n + k - 2)


def test_windowdiff_corrected_equals_literal_eq4():
    for ref, hyp in random_pairs(seed=5, count=80, n_max=25):
        for k in range(1, ref.n_units):
            for weighted in (False, True):
                parts = windowdiff_corrected(ref, hyp, k, weighted=weighted, return_parts=True)
                assert Fraction(parts.numerator, parts.denominator) == _lamprier_eq4(ref, hyp, k, weighted)


def test_windowdiff_corrected_hand_example():
    # n = 9, k = 2, reference boundary at 1 only, hypothesis none.
    # eq. 3 windows (gaps 0-1, 1-2, ..., 6-7): only the first holds the boundary -> 1/7.
    # eq. 4 adds the head window [gap 0] (differs) and the tail window [gap 7] (equal): 2/9.
    assert windowdiff(M([1, 8]), M([9]), 2) == pytest.approx(1 / 7)
    assert windowdiff_corrected(M([1, 8]), M([9]), 2) == pytest.approx(2 / 9)
    # every gap lies in exactly k windows of eq. 4, so one extra boundary anywhere costs k:
    for b in range(1, 9):
        assert windowdiff_corrected(Segmentation([b], 9), M([9]), 3, return_parts=True).numerator == 3


# --------------------------------------------------------------------------- blog seed (003)


def test_blog_examples_in_the_unit_convention():
    # Blog "AAA|BBBB|CC" vs Model-A "AA|BBBBBB|C" read with letters as units: masses [3,4,2] vs
    # [2,6,1]. metrics-peers.md section 3 records segeval's pk for k = 1..5.
    expected = {1: 0.5, 2: 3 / 7, 3: 2 / 6, 4: 0.4, 5: 0.25}
    for k, value in expected.items():
        assert pk(M([3, 4, 2]), M([2, 6, 1]), k) == pytest.approx(value)
    # Model-B "A|BBB|CCC|D" has 8 letter-units, not 9: it cannot be compared (the blog's raw nltk
    # call compared 11-character strings that include the '|' marks).
    with pytest.raises(InvalidSegmentationError, match="same number of units"):
        pk(M([3, 4, 2]), M([1, 3, 3, 1]), 2)
    # a_i seeds: ref AAAAAAAA|BBBBBBBBBBBBB|CCC = masses [8, 13, 3] (24 units); a_3 shifts the
    # first boundary by 2, a_4 by 7. metrics-peers.md: pk = wd = 0.20 (a_3) and 0.40 (a_4) at k=4.
    ref = M([8, 13, 3])
    assert pk(ref, M([10, 11, 3]), 4) == pytest.approx(0.2)
    assert windowdiff(ref, M([10, 11, 3]), 4) == pytest.approx(0.2)
    assert pk(ref, M([15, 6, 3]), 4) == pytest.approx(0.4)
    assert windowdiff(ref, M([15, 6, 3]), 4) == pytest.approx(0.4)


# --------------------------------------------------------------------------- expectation


def _exact_expectation(n: int, mr: int, mh: int, k: int, weighted: bool) -> Fraction:
    """Eq. 7 / eq. 8 in exact rational arithmetic, the double sum as printed."""

    def pmf(m):
        return [Fraction(math.comb(k, i) * math.comb(n - 1 - k, m - i), math.comb(n - 1, m)) for i in range(min(k, m) + 1)]

    p, q = pmf(mr), pmf(mh)
    return sum(
        (pi * qj * (abs(i - j) if weighted else (i != j)) for i, pi in enumerate(p) for j, qj in enumerate(q)),
        Fraction(0),
    )


def test_expected_windowdiff_equals_exact_rational_double_sum():
    rng = random.Random(6)
    for _ in range(150):
        n = rng.randint(2, 40)
        k = rng.randint(1, n - 1)
        mr, mh = rng.randint(0, n - 1), rng.randint(0, n - 1)
        for weighted in (True, False):
            exact = _exact_expectation(n, mr, mh, k, weighted)
            assert expected_windowdiff(n, mr, mh, k, weighted=weighted) == pytest.approx(float(exact), rel=1e-12, abs=1e-15)


def test_weighted_windowdiff_numerator_of_exactly_2_to_the_63():
    # n = 2**62 units, k = 3 * 2**60 gaps: the n - k = 2**60 windows all hold the 8 reference
    # boundaries (gaps 2**61 .. 2**61 + 7) and no hypothesis one, so the weighted numerator is
    # 8 * 2**60 = 2**63 (hand), one past the largest int64: it must be summed in Python integers
    # (mutation testing found the limit of that guard untested)
    n, k = 2**62, 3 * 2**60
    ref = Segmentation([2**61 + 1 + i for i in range(8)], n)
    parts = windowdiff(ref, Segmentation([], n), k=k, weighted=True, return_parts=True)
    assert (parts.numerator, parts.denominator, parts.value) == (2**63, 2**60, 8.0)


def test_expected_windowdiff_lamprier_figure_3():
    # Figure 3 (n = 12, k = 6, one reference boundary): E = 0.5 for a one-boundary hypothesis and
    # 1.16 for a three-boundary one, as printed (rounded); the exact values are 60/121, 140/121.
    assert expected_windowdiff(12, 1, 1, 6) == pytest.approx(60 / 121)
    assert expected_windowdiff(12, 1, 3, 6) == pytest.approx(140 / 121)
    assert round(expected_windowdiff(12, 1, 1, 6), 2) == 0.5
    assert round(expected_windowdiff(12, 1, 3, 6), 2) == 1.16


def test_expected_windowdiff_large_n_no_overflow():
    # n = 100,000: compare with exact big-integer arithmetic (the double sum, restricted to the
    # terms that are not zero) on a moderately sized window.
    n, mr, mh, k = 100_000, 200, 2_000, 60
    value = expected_windowdiff(n, mr, mh, k)
    exact = _exact_expectation(n, mr, mh, k, True)
    assert math.isfinite(value) and value == pytest.approx(float(exact), rel=1e-9)
    # a window of half the document with many boundaries: no overflow, within [0, k]
    big = expected_windowdiff(100_000, 40_000, 60_000, 50_000)
    assert math.isfinite(big) and 0 < big < 50_000
    assert 0.0 <= expected_windowdiff(100_000, 40_000, 60_000, 50_000, weighted=False) <= 1.0


@pytest.mark.parametrize("n,mr,mh,k", [(60, 4, 9, 6), (101, 10, 10, 6), (40, 0, 7, 5), (30, 29, 3, 4)])
def test_expected_windowdiff_monte_carlo(n, mr, mh, k):
    """Mean WindowDiff (eq. 3) over random segmentations with fixed counts matches E."""
    rng = np.random.default_rng(12345)
    trials = 3000
    weighted_scores, unweighted_scores = [], []
    for _ in range(trials):
        ref = Segmentation(np.sort(rng.choice(np.arange(1, n), mr, replace=False)).tolist(), n)
        hyp = Segmentation(np.sort(rng.choice(np.arange(1, n), mh, replace=False)).tolist(), n)
        weighted_scores.append(windowdiff(ref, hyp, k, weighted=True))
        unweighted_scores.append(windowdiff(ref, hyp, k))
    for scores, weighted in ((weighted_scores, True), (unweighted_scores, False)):
        mean, sd = float(np.mean(scores)), float(np.std(scores))
        expected = expected_windowdiff(n, mr, mh, k, weighted=weighted)
        assert abs(mean - expected) <= 5 * sd / math.sqrt(trials) + 1e-12


def test_expected_windowdiff_rejects_bad_arguments():
    with pytest.raises(InvalidParameterError, match="n_ref_boundaries"):
        expected_windowdiff(10, 10, 1, 2)
    with pytest.raises(InvalidParameterError, match="k must be"):
        expected_windowdiff(10, 1, 1, 10)
    with pytest.raises(InvalidParameterError, match="n must be"):
        expected_windowdiff(1, 0, 0, 1)
    with pytest.raises(InvalidTypeError):
        expected_windowdiff(10.0, 1, 1, 2)


# --------------------------------------------------------------------------- NWin / TNWin


def test_nwin_lamprier_figure_3():
    # Figure 3: WindowDiff 2/3 for both hypotheses; NWin(H1) = (2/3)/E1, NWin(H2) = (2/3)/E2.
    ref, h1, h2 = Segmentation([6], 12), Segmentation([2], 12), Segmentation([1, 3, 6], 12)
    for hyp, e in ((h1, Fraction(60, 121)), (h2, Fraction(140, 121))):
        parts = nwin(ref, hyp, 6, corrected=False, return_parts=True)
        assert parts.windowdiff == pytest.approx(2 / 3)
        assert parts.value == pytest.approx(float(Fraction(2, 3) / e))
    # H2 (which finds the reference boundary) ranks better than H1 although WindowDiff ties
    assert nwin(ref, h2, 6, corrected=False) < nwin(ref, h1, 6, corrected=False)


def test_tnwin_definition_and_optimum():
    rng = random.Random(7)
    for _ in range(100):
        n = rng.randint(4, 60)
        ref, hyp = random_segmentation(rng, n), random_segmentation(rng, n)
        k = rng.randint(1, n - 1)
        parts = tnwin(ref, hyp, k, t=0.5, return_parts=True)
        e = expected_windowdiff(n, ref.n_boundaries, hyp.n_boundaries, k)
        if e == 0:
            continue
        o = k * abs(ref.n_boundaries - hyp.n_boundaries) / ((n + k - 2) * e)
        assert parts.optimum == pytest.approx(o)
        assert parts.value == pytest.approx(nwin(ref, hyp, k) - 0.5 * o)
        # O is the best NWin reachable with these counts (every gap lies in k windows of eq. 4),
        # so TNWin with t = 1 is never negative with the corrected numerator
        assert tnwin(ref, hyp, k, t=1.0) >= -1e-12
    with pytest.raises(InvalidParameterError, match="t must be"):
        tnwin(M([3, 4]), M([7]), 2, t=1.5)


# --------------------------------------------------------------------------- Pr_error


def test_pr_error_degenerate_strategies_score_about_half():
    rng = random.Random(8)
    for _ in range(50):
        n = rng.randint(20, 300)
        ref = random_segmentation(rng, n, density=0.1)
        if ref.n_boundaries == 0:
            continue
        for k in (2, 3, 5):
            none = pr_error(ref, Segmentation([], n), k, return_parts=True)
            assert none.pr_miss == 1.0 and none.pr_fa == 0.0 and none.value == 0.5
            full = pr_error(ref, Segmentation(range(1, n), n), k, return_parts=True)
            assert full.pr_miss == 0.0
            # Pr_fa = share of windows the reference does not fill, close to 1 for sparse references
            assert 0.5 * 0.5 < full.value <= 0.5


def test_pr_error_complement_is_the_worst_at_k2():
    # At k = 2 each window is one gap: Pr_miss = m/m = 1 and Pr_fa = (n-1-m)/(n-1), so the score
    # is 1 - m / (2 (n-1)) (-> 1.0 for sparse references), the maximum over all hypotheses.
    rng = random.Random(9)
    for _ in range(30):
        n = rng.randint(50, 400)
        ref = random_segmentation(rng, n, density=0.05)
        m = ref.n_boundaries
        if m == 0:
            continue
        complement = Segmentation([b for b in range(1, n) if b not in ref.boundaries], n)
        value = pr_error(ref, complement, 2)
        assert value == pytest.approx(1 - m / (2 * (n - 1)))
        assert value > 0.9
    # exhaustive check of "worst" on every hypothesis of a small document
    ref = Segmentation([3, 7], 10)
    complement = Segmentation([1, 2, 4, 5, 6, 8, 9], 10)
    worst = pr_error(ref, complement, 2)
    for r in range(10):
        for hyp in itertools.combinations(range(1, 10), r):
            assert pr_error(ref, Segmentation(hyp, 10), 2) <= worst


def test_pr_error_conditioned_false_alarms_give_the_papers_values_exactly():
    # fa_windows="no_reference": Pr_fa over the windows without a reference boundary. At k = 2
    # (one gap per window) the complement misses every reference gap (Pr_miss = 1) and fires at
    # every other gap (Pr_fa = 1): 0.5 + 0.5 = 1.0; none: Pr_miss = 1, Pr_fa = 0 -> 0.5;
    # all: Pr_miss = 0, Pr_fa = 1 -> 0.5 (Georgescul et al. 2006, section 4.3).
    rng = random.Random(11)
    for _ in range(30):
        n = rng.randint(20, 300)
        ref = random_segmentation(rng, n, density=0.1)
        if ref.n_boundaries == 0:
            continue
        complement = Segmentation([b for b in range(1, n) if b not in ref.boundaries], n)
        assert pr_error(ref, complement, 2, fa_windows="no_reference") == 1.0
        assert pr_error(ref, Segmentation([], n), 2, fa_windows="no_reference") == 0.5
        assert pr_error(ref, Segmentation(range(1, n), n), 2, fa_windows="no_reference") == 0.5
    # hand example of test_pr_error_hand_example_and_windows: windows with r = 0 are 0, 3, 4;
    # h > 0 in window 0 only -> Pr_fa = 1/3
    parts = pr_error(M([3, 4, 2]), M([2, 6, 1]), 3, fa_windows="no_reference", return_parts=True)
    assert (parts.false_alarms, parts.windows) == (1, 3)
    assert parts.value == pytest.approx(0.5 * 2 / 4 + 0.5 * 1 / 3)
    with pytest.raises(InvalidParameterError, match="fa_windows must be 'all' or 'no_reference'"):
        pr_error(M([3, 4, 2]), M([2, 6, 1]), 3, fa_windows="some")


def test_pr_error_hand_example_and_windows():
    # n = 9, ref [3, 7] (gaps 2, 6), hyp [2, 8] (gaps 1, 7), k = 3 units = 2 gaps per window:
    # 8 gaps -> 7 windows (gaps 0-1 .. 6-7): r = 0,1,1,0,0,1,1 ; h = 1,1,0,0,0,0,1
    # misses (h < r): windows 2, 5 -> 2 of 4 reference windows; false alarms (h > r): window 0 -> 1/7
    parts = pr_error(M([3, 4, 2]), M([2, 6, 1]), 3, return_parts=True)
    assert (parts.misses, parts.reference_windows, parts.false_alarms, parts.windows) == (2, 4, 1, 7)
    assert parts.value == pytest.approx(0.5 * 2 / 4 + 0.5 * 1 / 7)
    # the windows of pr_error(k) are those of windowdiff(k-1): misses + false alarms = WD numerator
    for ref, hyp in random_pairs(seed=10, count=100, n_max=40):
        for k in range(2, ref.n_units + 1):
            p = pr_error(ref, hyp, k, return_parts=True)
            w = windowdiff(ref, hyp, k - 1, return_parts=True)
            assert p.misses + p.false_alarms == w.numerator and p.windows == w.denominator
    # default window: one more unit than the WindowDiff default, so the same number of gaps
    ref, hyp = M([5, 5, 5, 5]), M([4, 6, 5, 5])
    assert pr_error(ref, hyp, return_parts=True).k == windowdiff(ref, hyp, return_parts=True).k + 1


def test_pr_error_costs():
    parts = pr_error(M([3, 4, 2]), M([2, 6, 1]), 3, c_miss=0.8, c_fa=0.2, return_parts=True)
    assert parts.value == pytest.approx(0.8 * parts.pr_miss + 0.2 * parts.pr_fa)
    # no reference boundary: no miss is possible, Pr_miss = 0
    assert pr_error(M([9]), M([4, 5]), 2, return_parts=True).pr_miss == 0.0
    with pytest.raises(InvalidParameterError, match="c_miss"):
        pr_error(M([3, 4, 2]), M([9]), 2, c_miss=-0.1)
    with pytest.raises(InvalidParameterError, match="k must be"):
        pr_error(M([3, 4, 2]), M([9]), 1)
    with pytest.raises(InvalidParameterError, match="k must be"):
        pr_error(M([3, 4, 2]), M([9]), 10)
    # a one-unit document is refused as a document (no gap), not through its window
    with pytest.raises(InvalidSegmentationError, match="at least 2 units"):
        pr_error(M([1]), M([1]), 2)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize("fn", [pk, windowdiff, windowdiff_corrected, nwin, tnwin])
def test_window_metrics_reject_bad_k(fn):
    ref, hyp = M([3, 4, 2]), M([2, 6, 1])
    for bad in (0, 9, -1, 100):
        with pytest.raises(InvalidParameterError, match=r"k must be an integer in 1\.\.8"):
            fn(ref, hyp, bad)
    for bad in (2.0, True, "2"):
        with pytest.raises((InvalidTypeError, InvalidParameterError)):
            fn(ref, hyp, bad)
    with pytest.raises(InvalidParameterError, match="lamprier"):
        fn(ref, hyp, "median")
    with pytest.raises(InvalidSegmentationError, match="same number of units"):
        fn(ref, M([3, 4]), 2)
    with pytest.raises(InvalidSegmentationError, match="at least 2 units"):
        fn(M([1]), M([1]), 1)


def test_issue_10_example_is_refused_and_explicit_readings_are_right():
    # issue 10: pk(Segmentation([3, 7], 10), [3, 7], k=2) used to read [3, 7] as masses and
    # return 0.25 without a word
    ref = Segmentation([3, 7], 10)
    with pytest.raises(InvalidTypeError, match=r"^hypothesis must be a Segmentation; received list \[3, 7\]") as err:
        pk(ref, [3, 7], k=2)
    assert all(name in str(err.value) for name in ("from_boundaries", "from_masses", "from_gaps"))
    # read as boundaries (the project's convention) it is the reference itself
    assert pk(ref, Segmentation.from_boundaries([3, 7], 10), k=2) == 0.0
    # read as masses it is boundaries {3}: of the 8 windows of 2 gaps, the two holding gap 6
    # (boundary 7) disagree -> 2 / 8
    assert pk(ref, Segmentation.from_masses([3, 7]), k=2) == 0.25


def test_window_metrics_take_segmentations_not_bare_sequences():
    ref, hyp = Segmentation([3, 7], 9), Segmentation([2, 8], 9)
    for fn in (pk, windowdiff, windowdiff_corrected, nwin, tnwin, pr_error):
        assert fn(ref, hyp) == fn(M([3, 4, 2]), M(np.array([2, 6, 1])))
        for bare in ([3, 4, 2], (3, 7), np.array([3, 4, 2]), "00100010"):
            with pytest.raises(InvalidTypeError, match="from_masses.*from_gaps"):
                fn(bare, hyp)
            with pytest.raises(InvalidTypeError, match="^hypothesis must be a Segmentation"):
                fn(ref, bare)


def test_window_metrics_equal_nltk_on_long_documents():
    """The piecewise (sparse) window counts against nltk's dense sweep at n = 5,000."""
    rng = random.Random(17)
    for density in (0.002, 0.02, 0.3):
        n = 5_000
        ref, hyp = random_segmentation(rng, n, density), random_segmentation(rng, n, density)
        rg = np.array([int(c) for c in ref.gaps])
        hg = np.array([int(c) for c in hyp.gaps])
        for k in (1, 2, 7, 250, n // 2, n - 2, n - 1):
            assert pk(ref, hyp, k) == nltk_pk(ref.gaps, hyp.gaps, k)
            assert windowdiff(ref, hyp, k) == nltk_windowdiff(ref.gaps, hyp.gaps, k)
            assert windowdiff(ref, hyp, k, weighted=True) == nltk_windowdiff(ref.gaps, hyp.gaps, k, weighted=True)
            # eq. 4 = full windows + edge windows counted densely here
            j = np.arange(1, k)
            head = np.abs(np.cumsum(rg)[j - 1] - np.cumsum(hg)[j - 1])
            tail = np.abs(np.cumsum(rg[::-1])[j - 1] - np.cumsum(hg[::-1])[j - 1])
            full = nltk_windowdiff(ref.gaps, hyp.gaps, k, weighted=True) * (n - k)
            assert windowdiff_corrected(ref, hyp, k, weighted=True, return_parts=True).numerator == round(full) + head.sum() + tail.sum()
