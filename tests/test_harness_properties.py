"""Property tests (hypothesis) for the invariants of the stability test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from stability import Segmentation, stability_test
from stability.permutations import Stream, restart_order
from stability.scores import chance_scores, restart_precision_recall


@st.composite
def segmentation(draw, max_units=40):
    n = draw(st.integers(min_value=1, max_value=max_units))
    chosen = draw(st.sets(st.integers(min_value=1, max_value=n - 1), max_size=n - 1)) if n > 1 else set()
    return Segmentation(sorted(chosen), n)


@given(segmentation(), st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=500))
def test_within_segment_orders_are_permutations_that_keep_every_segment(seg, seed, restart):
    labels = seg.label_array()
    order = restart_order(seed, 3, Stream.WITHIN, restart, labels)
    assert sorted(order.tolist()) == list(range(seg.n_units))
    assert labels[order].tolist() == labels.tolist()  # every unit stays inside its segment
    shuffled = restart_order(seed, 3, Stream.SHUFFLE, restart, labels)
    assert sorted(shuffled.tolist()) == list(range(seg.n_units))


@given(segmentation(), st.lists(st.lists(st.integers(1, 39), unique=True), min_size=1, max_size=6),
       st.integers(0, 3))
def test_scores_lie_in_the_unit_interval_and_tolerance_only_helps(seg, raw, tolerance):
    restarts = [tuple(sorted(b for b in r if b < seg.n_units)) for r in raw]
    exact = restart_precision_recall(seg.boundaries, restarts)
    tolerant = restart_precision_recall(seg.boundaries, restarts, tolerance)
    for counts in (exact, tolerant):
        assert np.all((0 <= counts.precision) & (counts.precision <= 1))
        assert np.all((0 <= counts.recall) & (counts.recall <= 1))
    assert np.all(tolerant.matched >= exact.matched)
    p, r, f = chance_scores(seg.boundaries, exact.predicted, seg.n_units)
    assert 0 <= p <= 1 and 0 <= r <= 1 and 0 <= f <= 1


@settings(max_examples=25, deadline=None)
@given(segmentation(max_units=25), st.integers(min_value=0, max_value=1000))
def test_content_independent_segmenters_are_perfectly_stable_and_flagged(seg, seed):
    def fixed(units):  # depends only on the number of units
        return list(seg.boundaries) if len(units) == seg.n_units else []

    result = stability_test(fixed, ["u"] * seg.n_units, n_restarts=4, seed=seed, n_bootstrap=50)
    assert result.f1 == 1.0 and result.shuffle.f1 == 1.0 and result.content_blind
    assert result.deterministic and result.segmentation == seg
    assert all(c == 1.0 for c in result.boundary_confidence.values())


@settings(max_examples=25, deadline=None)
@given(segmentation(max_units=25), st.integers(min_value=0, max_value=1000))
def test_results_depend_only_on_the_seed(seg, seed):
    def picky(units):  # content-dependent: a boundary wherever the unit index text changes parity
        return [i for i in range(1, len(units)) if (int(units[i]) + int(units[i - 1])) % 3 == 0]

    units = [str(i) for i in range(seg.n_units)]
    a = stability_test(picky, units, n_restarts=5, seed=seed, n_bootstrap=50)
    b = stability_test(picky, units, n_restarts=5, seed=seed, n_bootstrap=50)
    assert a.to_dict() == b.to_dict()
    assert 0 <= a.f1 <= 1 and 0 <= a.f1_ci[0] <= a.f1_ci[1] <= 1


def _maximum_matching(reference, hypothesis, tolerance):
    """Size of a maximum one-to-one matching within ``tolerance``, by augmenting paths (Kuhn's
    algorithm): the reference for the left-to-right sweep of stability.matching."""
    owner: dict[int, int] = {}

    def augment(i, seen):
        for j, h in enumerate(hypothesis):
            if abs(reference[i] - h) <= tolerance and j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(reference)))


@settings(max_examples=300)
@given(st.sets(st.integers(1, 30), max_size=10), st.sets(st.integers(1, 30), max_size=10), st.integers(0, 4))
def test_tolerant_matching_is_a_maximum_matching(reference, hypothesis, tolerance):
    from stability.matching import count_matches, match_boundaries

    reference, hypothesis = sorted(reference), sorted(hypothesis)
    pairs = match_boundaries(reference, hypothesis, tolerance)
    assert len(pairs) == count_matches(reference, hypothesis, tolerance) == _maximum_matching(reference, hypothesis,
                                                                                               tolerance)
    assert all(abs(r - h) <= tolerance for r, h in pairs)
    assert len({r for r, _ in pairs}) == len({h for _, h in pairs}) == len(pairs)  # one to one


@pytest.mark.parametrize("n_units, initial, counts, tolerance", [(9, [2, 5, 7], [1, 2, 3, 0], 1), (10, [4], [2, 5], 2),
                                                                  (8, [], [0, 2], 1), (11, [1, 2, 10], [3, 3, 8], 1)])
def test_chance_level_with_a_tolerance_is_the_mean_over_every_placement(n_units, initial, counts, tolerance):
    """The chance level with a tolerance against every placement of ``m`` boundaries among the
    ``n - 1`` gaps, enumerated and matched one to one as the restarts are (it was a Monte-Carlo
    estimate within 0.01 of this; it is now this value)."""
    from itertools import combinations

    from stability.matching import count_matches
    from stability.stats import f1_score

    m0, exp_p, exp_r = len(initial), [], []
    for m in counts:
        if m == 0:  # the zero rule: both empty -> 1, else 0
            exp_p.append(float(m0 == 0))
            exp_r.append(float(m0 == 0))
            continue
        x = np.mean([count_matches(initial, list(c), tolerance) for c in combinations(range(1, n_units), m)])
        exp_p.append(x / m)
        exp_r.append(x / m0 if m0 else 0.0)
    p, r = np.mean(exp_p), np.mean(exp_r)
    got = chance_scores(initial, np.array(counts), n_units, tolerance)
    assert got == pytest.approx((p, r, f1_score(p, r)), rel=1e-12, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9).flatmap(lambda gaps: st.tuples(
    st.just(gaps), st.sets(st.integers(1, gaps)).map(sorted), st.integers(0, 10))))
def test_expected_matches_is_the_mean_over_every_placement(case):
    """The dynamic programme of expected_matches against brute force: every m-subset of the gaps
    matched one to one within the tolerance (count_matches), for every m."""
    from itertools import combinations

    from stability.matching import count_matches, expected_matches

    gaps, reference, tolerance = case
    sizes = list(range(gaps + 1))
    brute = [np.mean([count_matches(reference, list(c), tolerance) for c in combinations(range(1, gaps + 1), m)])
             for m in sizes]
    assert expected_matches(reference, gaps, tolerance, sizes) == pytest.approx(brute, rel=1e-12, abs=1e-12)


def _picky(modulus):
    def segment(units):  # content-dependent: a boundary where the sum of two neighbours' numbers divides
        return [i for i in range(1, len(units)) if (int(units[i]) + int(units[i - 1])) % modulus == 0]
    return segment


@settings(max_examples=20, deadline=None)
@given(st.permutations(["m2", "m3", "m4", "m5"]), st.integers(0, 1000))
def test_a_run_is_the_same_whatever_the_order_of_its_segmenters(order, seed):
    from stability import Document, evaluate

    segmenters = {f"m{k}": _picky(k) for k in (2, 3, 4, 5)}
    docs = [Document(f"d{j}", [str((7 * i + j) % 11) for i in range(12 + 3 * j)]) for j in range(3)]
    options = dict(n_restarts=4, seed=seed, n_bootstrap=50, progress=False)
    given_order = evaluate(segmenters, docs, **options)
    other = evaluate({label: segmenters[label] for label in order}, docs, **options)
    assert list(other.summary) == order
    for label in segmenters:
        assert [r.to_dict() for r in other.documents[label]] == [r.to_dict() for r in given_order.documents[label]]
        assert other.summary[label].to_dict() == given_order.summary[label].to_dict()
    assert other.comparison() == given_order.comparison()
    assert other.correlations() == given_order.correlations()


def test_expected_matches_with_a_wide_tolerance():
    """A tolerance of many units, or wider than the document, is exact and cheap: with a tolerance
    of at least ``n_gaps - 1`` every pair is in reach, so the maximum matching of ``m`` boundaries
    has ``min(m, m0)`` pairs (hand computation); at 16 units on 40 gaps, the mean over every
    placement of 2 and 3 boundaries (brute force). The dynamic programme over the sweep's
    waiting points took 2^(tolerance+1) states: gigabytes from a tolerance of 12 on."""
    from itertools import combinations

    from stability.matching import count_matches, expected_matches

    assert expected_matches([3, 7], 9, 40, [0, 1, 2, 5]).tolist() == [0.0, 1.0, 2.0, 2.0]
    reference = [4, 11, 30]
    brute = [np.mean([count_matches(reference, list(c), 16) for c in combinations(range(1, 41), m)]) for m in (2, 3)]
    assert expected_matches(reference, 40, 16, [2, 3]) == pytest.approx(brute, rel=1e-12, abs=1e-12)


def test_expected_matches_holds_only_the_states_in_reach():
    """Memory of the chance level with a tolerance on a long document with many boundaries (8,000
    gaps, 800 references, 800 drawn): the programme held a (references + 1) x (count + 1) table
    of probabilities and one of expectations, 10 MB here (150 MB at 30,000 units with 3,000
    boundaries); it holds the few states in reach of a gap."""
    import tracemalloc

    from stability.matching import expected_matches

    reference = list(range(5, 8000, 10))
    tracemalloc.start()
    try:
        expected_matches(reference, 8000, 2, [790, 800])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_expected_matches_keeps_every_bit():
    """The values of the full-table programme (stability.matching as of commit e6394f7), to the
    last bit (float repr round-trips): a run's chance level, and so its results file, is the same
    as before for the same seed. The first case has references dense enough that several are in
    reach of a gap and the sum over states is not a plain left-to-right one."""
    from stability.matching import expected_matches

    assert expected_matches([1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 17, 18, 19, 20, 21], 21, 3, [11, 16]).tolist() == [
        10.991347146145907, 14.811489508083936]
    assert expected_matches(list(range(5, 400, 7)), 400, 2, [40, 57, 90]).tolist() == [
        23.43617917846619, 30.683603312532423, 41.180094110350254]


def test_expected_matches_edges_and_refused_sizes():
    """No gap (a one-unit document): nothing can be drawn, so 0 expected matches (hand). A count
    outside ``0..n_gaps`` is refused whichever end it leaves (mutation testing found the check
    on either end alone untested)."""
    from stability.matching import expected_matches

    assert expected_matches([], 0, 2, [0]).tolist() == [0.0]
    for sizes in ([5], [-1], [0, 5], [-1, 2]):
        with pytest.raises(ValueError, match=r"sizes must lie in \[0, n_gaps = 4\]"):
            expected_matches([3], 4, 1, sizes)
