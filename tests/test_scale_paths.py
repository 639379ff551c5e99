"""The harness's faster paths on long documents give exactly what the plain definitions give.

Each fast path (see ``benchmarks/harness_scale.py`` for their timings) is compared with the
definition it replaces, written out here: the within-segment order with ``numpy.lexsort``, the spurious boundaries with a ``Counter``,
the reordered units with a list comprehension.
No timings here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from stability.permutations import within_segment_order
from stability.scores import spurious_boundaries
from stability.segmenter import apply_order, unit_table


def _lexsort_order(labels: np.ndarray, seed: int) -> np.ndarray:
    """The definition: sort by label, then by a uniform key (one ``lexsort``)."""
    return np.lexsort((np.random.default_rng(seed).random(labels.shape[0]), labels))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 30), min_size=1, max_size=60), st.integers(0, 2**32))
def test_within_segment_order_is_the_lexsort_order(masses, seed):
    labels = np.repeat(np.arange(len(masses)), masses)
    assert np.array_equal(within_segment_order(labels, np.random.default_rng(seed)), _lexsort_order(labels, seed))


@pytest.mark.parametrize("labels", [
    np.repeat(np.arange(2000), 10),  # a long document
    np.arange(70_000),  # more segments than 16-bit labels hold: the lexsort itself
    np.array([3, 3, 1, 1, 0, -2, 5]),  # not sorted, negative: any integer labels sort the same
    np.array([0]),
    np.zeros(0, dtype=np.int64),
])
def test_within_segment_order_on_every_shape_of_labels(labels):
    assert np.array_equal(within_segment_order(labels, np.random.default_rng(7)), _lexsort_order(labels, 7))


class _TiedKeys:
    """A generator whose uniform keys tie (a real one almost never does)."""

    def random(self, n):
        return np.array([0.5, 0.25, 0.5, 0.25, 0.5, 0.75][:n])


def test_within_segment_order_keeps_the_lexsort_order_of_tied_keys():
    labels = np.array([0, 0, 0, 0, 1, 1])
    expected = np.lexsort((_TiedKeys().random(6), labels))  # ties in unit order: [1, 3, 0, 2, 4, 5]
    assert within_segment_order(labels, _TiedKeys()).tolist() == expected.tolist() == [1, 3, 0, 2, 4, 5]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 40), unique=True),
       st.lists(st.lists(st.integers(1, 40), unique=True).map(sorted).map(tuple), max_size=8))
def test_spurious_boundaries_are_the_counted_definition(initial, restarts):
    from collections import Counter

    initial = sorted(initial)
    got = spurious_boundaries(initial, restarts)
    counts = Counter(x for b in restarts for x in b if x not in set(initial))
    expected = {pos: counts[pos] / len(restarts) for pos in sorted(counts)}
    assert got == expected and list(got) == list(expected)  # same values, same order
    assert all(type(k) is int and type(v) is float for k, v in got.items())


def test_apply_order_gathers_the_same_units_from_a_table():
    units = tuple(f"unit {i}" for i in range(50))
    order = np.random.default_rng(1).permutation(50)
    table = unit_table(units)
    assert apply_order(table, order) == apply_order(units, order) == [units[i] for i in order]
    assert all(a is b for a, b in zip(apply_order(table, order), apply_order(units, order)))  # the same objects
    assert apply_order(unit_table(("only",)), np.array([0])) == ["only"]
