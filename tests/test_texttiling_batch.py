"""TextTiling's batched restart path (``segment_batch``) against its per-restart path.

tests/test_contract.py checks the batch with the default parameters on its documents; here:
every parameter set of the nltk comparison (tests/test_segmenters_texttiling.py) on its messy
documents, the shortcut for nltk's punctuation check against the check itself, and the groups
and the order-by-order fallback taken for large batches.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import segmenters.texttiling_batch as batch
from segmenters.texttiling import TextTiling, _has_nopunct_break
from test_segmenters_texttiling import CONFIGS, messy_document


def _orders(rng: np.random.Generator, n_units: int, count: int) -> np.ndarray:
    return np.stack([rng.permutation(n_units) for _ in range(count)])


def _assert_batch_equals_fast_path(segmenter: TextTiling, units: list[str], orders: np.ndarray) -> None:
    state = segmenter.prepare(units)
    expected = [segmenter.segment_prepared(state, order) for order in orders]
    assert segmenter.segment_batch(state, orders) == expected


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_batch_equals_fast_path_for_every_parameter_set(config):
    segmenter = TextTiling(**config)
    found = 0
    for seed in range(25):
        rng = np.random.default_rng(seed)
        units = messy_document(rng)
        orders = _orders(rng, len(units), 6)
        _assert_batch_equals_fast_path(segmenter, units, orders)
        found += any(segmenter.segment_batch(segmenter.prepare(units), orders))
    assert found >= 5  # not only documents too short to segment


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), config=st.sampled_from(CONFIGS), n_orders=st.integers(1, 7))
def test_batch_equals_fast_path_property(seed, config, n_orders):
    rng = np.random.default_rng(seed)
    units = messy_document(rng)
    _assert_batch_equals_fast_path(TextTiling(**config), units, _orders(rng, len(units), n_orders))


def _assert_break_shortcut(units: list[str], orders: np.ndarray) -> None:
    state = TextTiling().prepare(units)
    if int(state.nonempty.sum()) < 2:
        return
    keep = ~state.is_stop[state.token_ids]
    static = batch._static(state, state.token_ids[keep], keep)
    layout = batch._layout(state, orders, int(state.nonempty.sum()))
    expected = [_has_nopunct_break([state.cleaned[u] for u in row]) for row in layout.units.tolist()]
    assert batch._break_after_100(static, layout.units).tolist() == expected, units


_ALL_ORDERS = np.array(list(itertools.permutations(range(3))))


@pytest.mark.parametrize("length", range(88, 104))
def test_break_shortcut_at_the_100_character_threshold(length):
    # the unit before the last break: ends with spaces once its dots are gone ("b c   "), is
    # nothing but spaces ("  "), or is the first unit and nothing but spaces (119 of them)
    for middle in ("b c . . .", ". . .", "b c"):
        _assert_break_shortcut(["a" * length, middle, "z"], _ALL_ORDERS)
    _assert_break_shortcut([". " * 120, "z"], np.array([[0, 1], [1, 0]]))
    _assert_break_shortcut([". " * (length // 2) + "q", "z . ."], np.array([[0, 1], [1, 0]]))


_PIECE = st.text(alphabet="ab .'-\t9", max_size=70)


@settings(max_examples=200, deadline=None)
@given(units=st.lists(_PIECE, min_size=2, max_size=9), seed=st.integers(0, 2**32 - 1))
def test_break_shortcut_matches_nltks_check(units, seed):
    # punctuation and digits vanish from the cleaned text and leave trailing spaces, whole
    # units of spaces or nothing: every case of where the last paragraph break starts
    _assert_break_shortcut(units, _orders(np.random.default_rng(seed), len(units), 4))


@pytest.mark.parametrize("cells", [1, 3_000, 20_000])
def test_groups_and_the_order_by_order_fallback_give_the_same_boundaries(monkeypatch, cells):
    # 1: every document too large, order by order; 3,000 and 20,000: groups of a few orders
    monkeypatch.setattr(batch, "_BATCH_CELLS", cells)
    rng = np.random.default_rng(5)
    for config in CONFIGS[:4]:
        segmenter = TextTiling(**config)
        for _ in range(6):
            units = messy_document(rng)
            _assert_batch_equals_fast_path(segmenter, units, _orders(rng, len(units), 9))


def test_no_orders_and_too_short_documents():
    segmenter = TextTiling()
    state = segmenter.prepare(["a short unit", "another one"])
    assert segmenter.segment_batch(state, np.zeros((0, 2), dtype=int)) == []
    assert segmenter.segment_batch(state, np.array([[0, 1], [1, 0]])) == [[], []]


@pytest.mark.parametrize("units", [
    ["the of and " * 30] * 8,  # only stopwords: no kept token, every score 0
    ["the of and " * 30, "river bank"] * 8,
    ["12 34 !! " * 40, "river bank money " * 20, "", "  \n "] * 4,
])
def test_documents_of_stopwords_digits_and_empty_units(units):
    _assert_batch_equals_fast_path(TextTiling(), units, _orders(np.random.default_rng(1), len(units), 5))
