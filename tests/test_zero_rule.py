"""The zero-division rule of boundary precision and recall (DESIGN.md, "The stability test", step
3: both sets empty gives 1.0, one empty gives 0.0) is declared once, in
:mod:`stability.matching`, as a scalar and an element-wise form; these tests keep the two forms and
every score that reads the rule in step, so that a copy written again somewhere cannot drift."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, strategies as st

from stability import Segmentation
from stability.matching import boundary_ratio, boundary_ratios, count_matches, empty_ratio, empty_ratios
from stability.metrics import boundary_prf, expected_f1, wisebe
from stability.scores import chance_scores, restart_precision_recall
from stability.stats import f1_score


def test_the_rule_gives_one_when_both_sets_are_empty_and_zero_when_only_one_is():
    """The rule itself (DESIGN.md step 3), in both forms: a change to one constant shows here."""
    assert (empty_ratio(0), empty_ratio(2)) == (1.0, 0.0)
    assert empty_ratios([0, 2]).tolist() == [1.0, 0.0]
    assert boundary_ratio(0, 0, 0) == 1.0 and boundary_ratio(0, 0, 2) == 0.0 and boundary_ratio(0, 2, 0) == 0.0
    assert boundary_ratios([0, 0, 0], [0, 0, 2], [0, 2, 0]).tolist() == [1.0, 0.0, 0.0]


@st.composite
def counts(draw):
    """``(matched, denominator, other)``: sizes of two boundary sets and their overlap."""
    denominator = draw(st.integers(0, 6))
    other = draw(st.integers(0, 6))
    return draw(st.integers(0, min(denominator, other))), denominator, other


@given(st.lists(counts(), min_size=1, max_size=12))
@example([(0, 0, 0)])
@example([(0, 0, 3), (0, 3, 0), (0, 0, 0)])
def test_the_scalar_and_element_wise_forms_agree_including_empty_sets(triples):
    """Element by element, :func:`boundary_ratios` is :func:`boundary_ratio` (bit for bit), and
    the empty value of each is :func:`empty_ratio` of the other set."""
    matched, denominator, other = (np.array(column, dtype=np.int64) for column in zip(*triples))
    vector = boundary_ratios(matched, denominator, other)
    assert vector.dtype == np.float64
    assert vector.tolist() == [boundary_ratio(x, d, o) for x, d, o in triples]
    assert empty_ratios(other).tolist() == [empty_ratio(o) for o in other.tolist()]
    for (x, d, o), value in zip(triples, vector.tolist()):
        if d == 0:
            assert value == empty_ratio(o)


@st.composite
def documents(draw):
    """A document of ``n`` units, an initial segmentation and a few restarts, empty ones likely."""
    n = draw(st.integers(1, 12))
    gaps = st.sets(st.integers(1, n - 1), max_size=n - 1) if n > 1 else st.just(set())
    maybe_empty = st.one_of(st.just(set()), gaps)
    initial = sorted(draw(maybe_empty))
    restarts = [sorted(b) for b in draw(st.lists(maybe_empty, min_size=1, max_size=4))]
    return n, initial, restarts


@given(documents(), st.integers(0, 2))
@example((5, [], [[], [2]]), 0)
@example((5, [2], [[], [2]]), 1)
def test_every_score_of_boundary_sets_reads_the_one_rule(document, tolerance):
    """The stability test's per-restart precision and recall, their chance level, boundary P/R/F1
    against a reference, its expected F1 and WiSeBE's P/R all give what the one rule gives on
    the same counts, empty sets included."""
    n, initial, restarts = document
    counts = restart_precision_recall(initial, restarts, tolerance)
    m0 = len(initial)
    for i, b in enumerate(restarts):
        x = count_matches(initial, b, tolerance)
        assert counts.precision[i] == boundary_ratio(x, len(b), m0)
        assert counts.recall[i] == boundary_ratio(x, m0, len(b))

    if n > 1:  # chance level: where a restart places nothing, its expected P and R are the rule's
        stp, st_r, _ = chance_scores(initial, np.zeros(len(restarts), dtype=np.int64), n, tolerance)
        assert (stp, st_r) == (empty_ratio(m0), boundary_ratio(0, m0, 0))

    ref, hyp = Segmentation(initial, n), Segmentation(restarts[0], n)
    prf = boundary_prf(ref, hyp, tolerance)
    x = count_matches(initial, restarts[0], tolerance)
    h = len(restarts[0])
    assert (prf.precision, prf.recall) == (boundary_ratio(x, h, m0), boundary_ratio(x, m0, h))
    if n > 1:
        expected = expected_f1(ref, 0, tolerance)  # nothing placed: F1 of the rule's P and R
        assert expected == f1_score(empty_ratio(m0), boundary_ratio(0, m0, 0))

    parts = wisebe([ref, ref], Segmentation([], n), return_parts=True)  # an empty candidate
    windows = len(parts.windows)
    assert (parts.precision, parts.recall) == (empty_ratio(windows), boundary_ratio(0, windows, 0))
