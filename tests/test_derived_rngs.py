"""derived_rngs / restart_orders: many generators seeded at once, bit for bit numpy's.

The reference is numpy itself: ``numpy.random.default_rng(SeedSequence(seed, spawn_key=...))``
through :func:`stability.stats.derived_rng`, one index at a time.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from stability.permutations import Stream, restart_order, restart_orders
from stability.segmentation import Segmentation
from stability.stats import derived_rng, derived_rngs

_INT = st.one_of(st.integers(0, 10), st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**70))


def _draws(rng: np.random.Generator) -> list:
    return rng.integers(0, 2**62, size=2).tolist() + rng.random(2).tolist() + rng.permutation(7).tolist()


@settings(max_examples=60, deadline=None)
@given(seed=_INT, prefix=st.lists(_INT, max_size=3),
       indices=st.lists(st.one_of(st.integers(0, 300), st.integers(0, 2**32 - 1)), max_size=40),
       big=st.booleans())
def test_same_generators_as_derived_rng(seed, prefix, indices, big):
    if big:  # an index of two words: numpy's path for the whole call
        indices = [*indices, 2**40]
    expected = [_draws(derived_rng(seed, *prefix, i)) for i in indices]
    assert [_draws(rng) for rng in derived_rngs(seed, prefix, indices)] == expected


def test_the_array_form_is_used_and_exact_for_a_chunk_of_restarts():
    # 100 consecutive restarts: the array form (more than _ARRAY_FROM indices), as in the engine
    got = [rng.random(5).tolist() for rng in derived_rngs(3, (2**63 + 5, 1), range(100, 200))]
    assert got == [derived_rng(3, 2**63 + 5, 1, r).random(5).tolist() for r in range(100, 200)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63), key=st.integers(0, 2**64 - 1), start=st.integers(0, 10**6),
       count=st.integers(0, 60), stream=st.sampled_from([Stream.WITHIN, Stream.SHUFFLE]))
def test_restart_orders_are_restart_order(seed, key, start, count, stream):
    labels = Segmentation([3, 9, 10], 14).label_array()
    restarts = range(start, start + count)
    expected = [restart_order(seed, key, stream, r, labels).tolist() for r in restarts]
    assert [order.tolist() for order in restart_orders(seed, key, stream, restarts, labels)] == expected


def test_every_stream_is_drawn_and_keeps_its_number():
    """A stream's number seeds every draw of it (``spawn_key=(key, stream, index)``), so it is
    fixed for good: results recorded by earlier runs are reproduced only with the same numbers.
    Every member is a stream the harness draws; the Monte-Carlo chance stream (3) went with the
    exact chance level, and 3 is left unused (a new stream takes 5)."""
    assert {s.name: s.value for s in Stream} == {"WITHIN": 0, "SHUFFLE": 1, "BOOTSTRAP": 2, "LAYOUT": 4}
