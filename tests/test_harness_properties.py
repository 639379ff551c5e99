"""Property tests (hypothesis) for the invariants of the stability test."""

from __future__ import annotations

import numpy as np
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
