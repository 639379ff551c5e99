"""Contract test over every registered segmenter (built-ins and whatever plugins are installed).

For every name in :func:`stability.available_segmenters`: valid output on random documents
(1 and 2 units, empty strings, whitespace, non-ASCII text, a long document), determinism, exposed
parameters, ``n_segments`` honoured where it applies, the fast restart path identical to the
plain call on permuted units, and the batched restart path (``segment_batch``) identical to the
fast restart path, order by order.
"""

from __future__ import annotations

import inspect
import pickle

import numpy as np
import pytest

from stability import available_segmenters, get_segmenter
from stability.segmentation import check_boundaries
from stability.segmenter import has_batch_path, has_fast_path, segmenter_params

NAMES = sorted(available_segmenters())

WORDS = (
    "river bank water fish boat stream money loan credit market stock price music band guitar "
    "song drum stage caf\u00e9 na\u00efve \u00fcber stra\u00dfe \u65e5\u672c\u8a9e \u4e2d\u6587 "
    "\u0645\u0631\u062d\u0628\u0627 \U0001f600 the of and a to in is"
).split()


def random_document(seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, 5, 12, 40, 90]))
    units = []
    for i in range(n):
        r = rng.random()
        if r < 0.08:
            units.append("")
        elif r < 0.12:
            units.append(" \n\t ")
        else:
            topic = (i // 7) % 3
            pool = WORDS[topic * 6 : topic * 6 + 6] + WORDS[18:]
            units.append(" ".join(pool[int(rng.integers(0, len(pool)))] for _ in range(int(rng.integers(1, 25)))))
    return units


FIXED_DOCUMENTS = [
    [""],
    ["   "],
    ["one single unit about rivers and banks"],
    ["", ""],
    ["first unit", "second unit"],
    ["\u65e5\u672c\u8a9e\u306e\u6587", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "caf\u00e9 \u00fcber na\u00efve"],
    ["same same same"] * 8,
]
DOCUMENTS = FIXED_DOCUMENTS + [random_document(seed) for seed in range(14)]


def test_there_are_registered_segmenters():
    assert {"none", "all", "even", "random", "texttiling", "texttiling_nltk", "c99", "u00"} <= set(NAMES)


@pytest.fixture(params=NAMES)
def segmenter(request):
    return get_segmenter(request.param)


def test_valid_output_on_every_document(segmenter):
    for units in DOCUMENTS:
        out = segmenter(units)
        check_boundaries(list(out), len(units), sort=True)


def test_deterministic(segmenter):
    if getattr(segmenter, "deterministic", True) is False:
        pytest.skip("declares itself non-deterministic")
    for units in DOCUMENTS[-6:]:
        assert sorted(segmenter(units)) == sorted(segmenter(list(units)))


def test_parameters_exposed(segmenter):
    params = segmenter_params(segmenter)
    assert isinstance(params, dict)
    assert all(isinstance(k, str) for k in params)
    init = getattr(type(segmenter), "__init__", None)
    if hasattr(segmenter, "get_params") and init is not object.__init__:
        names = [p for p in inspect.signature(init).parameters if p != "self"]
        assert list(params) == names
    assert repr(segmenter)


def test_n_segments_is_honoured_where_it_applies(request, segmenter):
    if "n_segments" not in segmenter_params(segmenter):
        pytest.skip("no n_segments parameter")
    factory = type(segmenter)
    for units in DOCUMENTS:
        for k in (1, 2, 3, 7):
            out = factory(n_segments=k)(units)
            assert len(out) == min(k, len(units)) - 1, (units, k, out)


def test_fast_path_identical_to_plain_call(segmenter):
    if not has_fast_path(segmenter):
        pytest.skip("no fast restart path")
    rng = np.random.default_rng(99)
    for units in DOCUMENTS:
        state = segmenter.prepare(units)
        for _ in range(4):
            order = rng.permutation(len(units))
            assert list(segmenter.segment_prepared(state, order)) == list(segmenter([units[i] for i in order]))


def _assert_batch_matches_fast_path(segmenter, units, orders):
    state = segmenter.prepare(units)
    expected = [list(segmenter.segment_prepared(state, order)) for order in orders]
    assert [list(b) for b in segmenter.segment_batch(state, orders)] == expected, (segmenter, units)


def _random_orders(rng, n_units, count):
    return np.stack([rng.permutation(n_units) for _ in range(count)])


def test_batch_path_identical_to_fast_path(segmenter):
    if not has_batch_path(segmenter):
        pytest.skip("no batched restart path")
    rng = np.random.default_rng(7)
    for units in DOCUMENTS:
        _assert_batch_matches_fast_path(segmenter, units, _random_orders(rng, len(units), 5))


def test_batch_path_with_a_known_count_where_it_applies(segmenter):
    if not has_batch_path(segmenter) or "n_segments" not in segmenter_params(segmenter):
        pytest.skip("no batched restart path or no n_segments")
    rng = np.random.default_rng(8)
    for k in (1, 2, 4):
        for units in DOCUMENTS[-8:]:
            _assert_batch_matches_fast_path(type(segmenter)(n_segments=k), units, _random_orders(rng, len(units), 4))


# Property test (hypothesis): any document, any order, for every segmenter with a fast path.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_FAST = [name for name in NAMES if has_fast_path(get_segmenter(name))]
_WORD = st.sampled_from(["bank", "river", "loan", "music", "band", "the", "caf\u00e9", "42", "-", "x'y", ""])
_UNIT = st.lists(_WORD, max_size=30).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(units=st.lists(_UNIT, min_size=1, max_size=40), seed=st.integers(0, 2**32 - 1))
def test_fast_path_property(units, seed):
    order = np.random.default_rng(seed).permutation(len(units))
    for name in _FAST:
        segmenter = get_segmenter(name)
        expected = list(segmenter([units[i] for i in order]))
        assert list(segmenter.segment_prepared(segmenter.prepare(units), order)) == expected, name


_BATCH = [name for name in NAMES if has_batch_path(get_segmenter(name))]


@settings(max_examples=30, deadline=None)
@given(
    units=st.lists(_UNIT, min_size=1, max_size=40),
    seed=st.integers(0, 2**32 - 1),
    n_orders=st.integers(1, 6),
)
def test_batch_path_property(units, seed, n_orders):
    orders = _random_orders(np.random.default_rng(seed), len(units), n_orders)
    for name in _BATCH:
        _assert_batch_matches_fast_path(get_segmenter(name), units, orders)


def test_prepared_state_is_never_modified(segmenter):
    """The engine hands one prepared state to every restart of a chunk and, for segmenters that
    declare ``prepare_params``, to several configurations: it must be read-only. Its pickle
    (every array's values, every field) is the same before and after the restarts."""
    if not has_fast_path(segmenter):
        pytest.skip("no fast restart path")
    rng = np.random.default_rng(11)
    for units in DOCUMENTS:
        state = segmenter.prepare(units)
        before = pickle.dumps(state)
        orders = _random_orders(rng, len(units), 3)
        for order in orders:
            segmenter.segment_prepared(state, order)
        if has_batch_path(segmenter):
            segmenter.segment_batch(state, orders)
        assert pickle.dumps(state) == before, (segmenter, units)
