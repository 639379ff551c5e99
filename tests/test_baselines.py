"""The trivial baselines (shared/specs/segmenters.md section 6), by hand."""

from __future__ import annotations

import pytest

from stability import InvalidParameterError, get_segmenter


def test_none_and_all():
    assert get_segmenter("none")(["a"] * 5) == []
    assert get_segmenter("all")(["a"] * 5) == [1, 2, 3, 4]
    assert get_segmenter("all")(["a"]) == []


def test_even_with_a_count_uses_floor_j_n_over_k():
    # n = 10, K = 3: floor(10/3) = 3, floor(20/3) = 6 -> segments of 3, 3, 4
    assert get_segmenter("even", n_segments=3)(["a"] * 10) == [3, 6]
    # K is clamped to n: 12 segments of a 5-unit document are 5 segments
    assert get_segmenter("even", n_segments=12)(["a"] * 5) == [1, 2, 3, 4]
    assert get_segmenter("even", n_segments=1)(["a"] * 5) == []
    assert get_segmenter("even", segment_length=4)(["a"] * 10) == [4, 8]


def test_random_with_a_count_or_a_rate():
    seg = get_segmenter("random", n_segments=4, seed=1)
    out = seg(["a"] * 30)
    assert len(out) == 3 and out == sorted(set(out)) and all(1 <= b <= 29 for b in out)
    assert seg(["b"] * 30) == out  # depends on the seed and the length only
    dense = get_segmenter("random", rate=1.0)(["a"] * 6)
    assert dense == [1, 2, 3, 4, 5]
    assert get_segmenter("random", rate=0.0)(["a"] * 6) == []
    assert get_segmenter("random", seed=None).deterministic is False


@pytest.mark.parametrize(
    "name, params, fragment",
    [
        ("even", {"n_segments": 0}, "n_segments must be None or an integer >= 1; received 0"),
        ("even", {"segment_length": -3}, "segment_length must be an integer >= 1"),
        ("even", {"segment_length": None}, "segment_length must be an integer; received NoneType None"),
        ("random", {"rate": 1.5}, "rate must be a number >= 0.0 and <= 1.0; received 1.5"),
    ],
)
def test_parameters_are_validated(name, params, fragment):
    with pytest.raises(InvalidParameterError) as info:
        get_segmenter(name, **params)
    assert fragment in str(info.value)
