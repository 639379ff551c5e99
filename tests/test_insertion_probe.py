"""benchmarks/validity/insertion_probe.py (Amendment 4 of docs/validation-protocol.md): the probes
drawn, the probed document and its reference, the chance correction and the four candidates."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import topical_document
from hypothesis import given
from hypothesis import strategies as st

from stability.corpus import Document
from stability.registry import get_segmenter
from stability.segmentation import Segmentation

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validity"))
from insertion_probe import (
    candidates,
    chance_hit,
    draw_probes,
    probe_order,
    probe_score,
    probed_reference,
    segment_probes,
)


@pytest.mark.parametrize("n, m", [(5, 1), (6, 2), (8, 3), (9, 8), (7, 6)])
def test_chance_hit_equals_counting_every_placement(n, m):
    # every m-subset of the n - 1 positions, equally likely: the share with one within 1 unit
    placements = list(itertools.combinations(range(1, n), m))
    for junction in range(1, n):
        hits = sum(any(abs(b - junction) <= 1 for b in p) for p in placements)
        assert chance_hit(n, m, junction) == pytest.approx(hits / len(placements))


def test_chance_hit_by_hand():
    # n = 11: positions 1..10; junction 5 has the window {4, 5, 6}; one boundary hits it 3 / 10
    assert chance_hit(11, 1, 5) == pytest.approx(0.3)
    # junction 1 is at the edge: window {1, 2}, 2 / 10
    assert chance_hit(11, 1, 1) == pytest.approx(0.2)
    assert chance_hit(11, 0, 5) == 0.0
    assert chance_hit(11, 8, 5) == 1.0  # 8 of 10 positions: at most 2 left free, never all 3


def test_probe_score_by_hand():
    # n = 11, junctions 3 and 7, one boundary each: h = 1, c = 0.3 for both, score 1
    assert probe_score([3, 7], 11, (3, 7)) == pytest.approx(1.0)
    # a boundary one unit off still hits; the other junction missed: h = 1/2, m = 2
    c = 1 - (8 / 10) * (7 / 9) * (6 / 8)  # no boundary of 2 among the 3 positions near 3 (or 7)
    assert probe_score([4, 9], 11, (3, 7)) == pytest.approx((0.5 - c) / (1 - c))
    assert probe_score([], 11, (3, 7)) == 0.0  # no boundary, no credit
    assert probe_score(list(range(1, 11)), 11, (3, 7)) == 0.0  # every gap: chance is 1


@given(st.integers(0, 400), st.text(min_size=1, max_size=8))
def test_probes_move_a_block_far_from_where_it_was(n, doc_id):
    probes = draw_probes(doc_id, n)
    assert probes == draw_probes(doc_id, n)  # seeded by the document
    assert len(probes) <= 20
    for a, length, q in probes:
        assert 2 <= length <= max(2, n // 4) and 0 <= a <= n - length
        order = probe_order(n, a, length, q)
        assert sorted(order.tolist()) == list(range(n))  # a permutation of the units
        assert order[q:q + length].tolist() == list(range(a, a + length))  # the block, at q
        assert 1 <= q and q + length <= n - 1  # both junctions inside the document
        left, right = int(order[q - 1]), int(order[q + length])
        for neighbour in (left, right):  # both at least L units away from the block
            assert neighbour <= a - length or neighbour >= a + 2 * length - 1


def test_short_documents_get_no_probe():
    assert draw_probes("x", 3) == []  # a block of 2 leaves one unit: no junction inside
    assert draw_probes("x", 0) == []


def test_probed_reference_by_hand():
    # segments [0, 3) [3, 6) [6, 9); block 6..7 moved after unit 1
    order = probe_order(9, 6, 2, 2)
    assert order.tolist() == [0, 1, 6, 7, 2, 3, 4, 5, 8]
    assert probed_reference(Segmentation([3, 6], 9), order) == Segmentation([2, 4, 5, 8], 9)


@given(st.floats(-1, 1), st.floats(-1, 1))
def test_candidates_give_no_credit_without_content_or_boundaries(t, r):
    scores = candidates(t, r)
    assert scores["T"] == t
    if t <= 0:  # content-blind: the headline is not positive
        assert scores["gated_R"] == scores["T_x_R"] == scores["harmonic"] == 0.0
    if r <= 0:
        assert scores["gated_R"] == scores["T_x_R"] == scores["harmonic"] == 0.0
    if t > 0 and r > 0:
        assert scores["harmonic"] == pytest.approx(2 * t * r / (t + r))
        assert min(t, r) - 1e-12 <= scores["harmonic"] <= max(t, r) + 1e-12
    assert np.isfinite(list(scores.values())).all()


def test_segment_probes_equal_segmenting_each_probed_text():
    # the fast path (state prepared once on the original units, then an order) must give what
    # segmenting the probed document's text from scratch gives
    units, boundaries = topical_document(5)
    document = Document("doc-p", tuple(units), (Segmentation(boundaries, len(units)),))
    for name in ("c99", "texttiling", "u00"):
        segmenter = get_segmenter(name)
        probes = draw_probes("doc-p", len(units))
        got = segment_probes(segmenter, document, probes)
        assert len(got) == len(probes) > 0
        for (a, length, q), boundaries_of_probe in zip(probes, got):
            text = [units[i] for i in probe_order(len(units), a, length, q)]
            assert boundaries_of_probe == sorted(int(b) for b in segmenter(text))
