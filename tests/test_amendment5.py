"""benchmarks/validity/amendment5.py (Amendment 5 of docs/validation-protocol.md): the headline at a
declared mean segment length, the corpus's declared length, and the headline it recomputes."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import topical_document
from hypothesis import given
from hypothesis import strategies as st

from stability import Document, stability_test
from stability.registry import get_segmenter
from stability.segmentation import Segmentation

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validity"))
from amendment5 import at_length, declared_length, headline


@pytest.mark.parametrize("h, n, m0, length, expected", [
    (0.6, 40, 3, 5.0, 0.3),     # 4 segments where 40 / 5 = 8 are asked for: g = 1/2
    (0.6, 40, 15, 5.0, 0.3),    # 16 where 8 are asked for: g = 1/2
    (0.6, 40, 7, 5.0, 0.6),     # the count asked for: g = 1
    (0.8, 3, 1, 10.0, 0.4),     # 3 / 10 asks for less than one segment: s* = 1, s = 2
    (0.9, 30, 2, 7.5, 0.675),   # s = 3, s* = 4: g = 3/4
    (-0.2, 40, 3, 5.0, -0.2),   # a negative headline is not moved towards 0
    (0.0, 40, 0, 5.0, 0.0),     # no boundary: the headline is already 0
])
def test_the_score_at_a_declared_length_by_hand(h, n, m0, length, expected):
    assert at_length(h, n, m0, length) == pytest.approx(expected)


@given(h=st.floats(0.01, 1), n=st.integers(1, 500), m0=st.integers(0, 499), length=st.floats(0.5, 100))
def test_the_declared_length_never_raises_a_positive_headline(h, n, m0, length):
    m0 = min(m0, n - 1)
    value = at_length(h, n, m0, length)
    assert 0 < value <= h
    # g is the same whether the count is k times too high or k times too low
    wanted = max(1.0, n / length)
    assert value == pytest.approx(h * min(m0 + 1, wanted) / max(m0 + 1, wanted))


def _result(n: int, boundaries: tuple[int, ...], reference: tuple[int, ...]) -> SimpleNamespace:
    """What declared_length reads of a result: its segmentation and its references."""
    return SimpleNamespace(segmentation=Segmentation(boundaries, n), references=(reference,))


def test_the_declared_length_is_units_over_reference_segments():
    # 10 units in 3 reference segments and 20 in 2: 30 units over 5 segments
    docs = [_result(10, (4,), (3, 7)), _result(20, (), (5,))]
    assert declared_length(docs) == 6.0


def test_its_headline_is_the_librarys():
    units, truth = topical_document(3)
    document = Document(id="d", units=tuple(units), references=(Segmentation(truth, len(units)),))
    result = stability_test(get_segmenter("c99"), document, n_restarts=8, n_bootstrap=40)
    assert result.n_boundaries > 0
    assert headline(result) == pytest.approx(result.count_corrected, abs=1e-12)
    none = replace(result, segmentation=Segmentation((), len(units)))
    assert headline(none) == 0.0 == none.count_corrected
