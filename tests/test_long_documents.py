"""Long-document modes: C99's band (``band``), U00's maximum segment length
(``max_segment_length``), and the exact modes' size guards.

Reference values: the exact modes themselves (the banded quantities are the exact ones restricted
to the band), and hand-checked identities noted beside each test. No timings here (see
``python -m benchmarks``).
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import topical_document
from segmenters import c99 as c99_module
from segmenters.c99 import C99, banded_rank, banded_similarity, cosine_similarity_matrix, rank_matrix
from segmenters import u00 as u00_module
from segmenters.preprocessing import Preprocessor
from segmenters.u00 import U00, segment_costs
from stability import SegmenterError, stability_test
from stability.exceptions import InvalidParameterError


def _encoded(seed: int, n_topics: int = 5):
    units, _ = topical_document(seed, n_topics=n_topics)
    return units, Preprocessor().encode(units)


def _band_cells(n: int, band: int):
    for i in range(n):
        for d in range(-band, band + 1):
            yield i, d, i + d


# ------------------------------------------------------------------------------------------ C99


@pytest.mark.parametrize("seed, reach", [(0, 1), (1, 4), (2, 13), (3, 200)])
def test_banded_similarity_is_the_exact_matrix_on_the_band(seed, reach):
    _, encoded = _encoded(seed)
    exact = cosine_similarity_matrix(encoded)
    band = banded_similarity(encoded, reach)
    n = encoded.n_units
    for i, d, j in _band_cells(n, reach):
        if 0 <= j < n:
            assert band[i, reach + d] == exact[i, j]  # bit for bit
        else:
            assert np.isnan(band[i, reach + d])


@pytest.mark.parametrize("seed, band, mask", [(4, 1, 11), (5, 6, 11), (6, 9, 5), (7, 100, 3)])
def test_banded_rank_is_the_exact_rank_on_the_band(seed, band, mask):
    _, encoded = _encoded(seed)
    exact = rank_matrix(cosine_similarity_matrix(encoded), mask)
    reach = band + 2 * (mask // 2)
    ranks = banded_rank(banded_similarity(encoded, reach), band, mask)
    n = encoded.n_units
    for i, d, j in _band_cells(n, band):
        assert ranks[i, band + d] == (exact[i, j] if 0 <= j < n else 0.0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), band=st.integers(1, 30), data=st.data())
def test_band_region_sums_equal_the_masked_matrix_sums(seed, band, data):
    # a region's sum read from the O(n band) tables equals the 2-D prefix-sum value of the
    # rank matrix with every cell outside the band set to 0 (up to float rounding)
    _, encoded = _encoded(seed % 50, n_topics=4)
    n = encoded.n_units
    exact = rank_matrix(cosine_similarity_matrix(encoded), 11)
    offsets = np.subtract.outer(np.arange(n), np.arange(n))
    masked = np.where(np.abs(offsets) <= band, exact, 0.0)
    inside = c99_module._BandInside(banded_rank(banded_similarity(encoded, band + 10), band, 11), band)
    reference = c99_module._PrefixInside(c99_module._prefix_sums(masked))
    a = data.draw(st.integers(0, n - 2))
    b = data.draw(st.integers(a + 1, n - 1))
    assert inside.region(a, b) == pytest.approx(reference.region(a, b), abs=1e-9)
    for got, want in zip(inside.halves(a, b), reference.halves(a, b)):
        np.testing.assert_allclose(got, want, atol=1e-9)


@pytest.mark.parametrize("band", [1, 5, 30])
def test_band_halves_of_a_region_are_its_halves_region_sums_bit_for_bit(band):
    # the split search reads the halves of many regions in one array operation; each value is
    # the same formula as the region sum of that half, so it must equal it to the bit
    _, encoded = _encoded(9, n_topics=6)
    inside = c99_module._BandInside(banded_rank(banded_similarity(encoded, band + 10), band, 11), band)
    n = encoded.n_units
    for a in range(0, n - 1, 3):
        for b in range(a + 1, n, 4):
            left, right = inside.halves(a, b)
            assert left.tolist() == [inside.region(a, i) for i in range(a, b)]
            assert right.tolist() == [inside.region(i + 1, b) for i in range(a, b)]


@pytest.mark.parametrize("seed", range(4))
def test_a_band_covering_the_document_gives_the_exact_boundaries(seed):
    units, _ = topical_document(seed, n_topics=6)
    for k in (None, 4):
        assert C99(band=len(units), n_segments=k)(units) == C99(n_segments=k)(units)


def _assert_restart_paths_equal_plain_calls(segmenter, units):
    state = segmenter.prepare(units)
    orders = np.stack([np.random.default_rng(s).permutation(len(units)) for s in range(4)])
    plain = [segmenter([units[i] for i in order]) for order in orders]
    assert [segmenter.segment_prepared(state, order) for order in orders] == plain
    assert segmenter.segment_batch(state, orders) == plain


def test_band_fast_and_batch_paths_equal_plain_calls():
    _assert_restart_paths_equal_plain_calls(C99(band=6), topical_document(11, n_topics=6)[0])


def test_c99_band_is_checked():
    with pytest.raises(InvalidParameterError, match="band"):
        C99(band=0)


def test_c99_exact_mode_refuses_past_its_memory_limit(monkeypatch):
    units, _ = topical_document(3)
    # 19 n^2 bytes for n = len(units) is just above a limit set one byte below it
    monkeypatch.setattr(c99_module, "EXACT_MEMORY_LIMIT", c99_module.exact_memory(len(units)) - 1)
    with pytest.raises(InvalidParameterError, match=r"long-document mode, e\.g\. C99\(band=100\)"):
        C99()(units)
    assert C99(band=10)(units)  # the long mode has no such limit
    with pytest.raises(SegmenterError, match="band=100"):  # a run reports it as a failure
        stability_test(C99(), units, n_restarts=2)


def _traced_peak(call) -> int:
    """Peak of the memory traced during ``call()`` above that before it (numpy reports its
    buffers to tracemalloc)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_exact_memory_estimate_matches_the_measured_peak():
    # exact_memory (17 n^2 + 128 MiB) bounds the peak of a plain call, and its n^2 coefficient is
    # the measured one within 3% (the growth of the peak from 1,700 to 3,400 units, where the
    # temporaries that do not grow with n^2 are the same; benchmarks/c99_memory.py measures
    # larger documents, 17.3 bytes a cell at 8,000 units)
    sizes = (1700, 3400)
    rng = np.random.default_rng(0)
    # 3,000 words: each in a few units, so the similarity's own temporaries stay below the peak
    words = [f"{a}{b}{c}{d}" for a in "bcdfghjklm" for b in "aeiou" for c in "prstvz" for d in "aeioubcdfg"]
    peaks = []
    for n in sizes:
        units = [" ".join(rng.choice(words, size=8).tolist()) for _ in range(n)]
        peaks.append(_traced_peak(lambda: C99()(units)))
        assert peaks[-1] <= c99_module.exact_memory(n)
    per_cell = (peaks[1] - peaks[0]) / (sizes[1] ** 2 - sizes[0] ** 2)
    assert 0.97 * c99_module._EXACT_BYTES_PER_CELL <= per_cell <= 1.01 * c99_module._EXACT_BYTES_PER_CELL


# ------------------------------------------------------------------------------------------ U00


@pytest.mark.parametrize("block, cells", [(1, 1 << 20), (64, 1 << 20), (7, 50), (10**6, 1)])
def test_u00_cost_rows_are_the_per_start_running_sums_bit_for_bit(monkeypatch, block, cells):
    # the cost rows are computed a block of starts at a time; whatever the block, each row must
    # be bit for bit the batched path's, which counts occurrences start by start (np.add.at)
    units, _ = topical_document(12, n_topics=6)
    units[4] = "the of and"  # a unit without a term
    encoded = Preprocessor().encode(units)
    n = encoded.n_units
    by_start = {g: rows[0] for g, rows in u00_module._batch_cost_rows(encoded, np.arange(n)[None, :])}
    monkeypatch.setattr(u00_module, "_ROW_BLOCK", block)
    monkeypatch.setattr(u00_module, "_ROW_BLOCK_CELLS", cells)
    for length in (None, 1, 6):
        rows = list(u00_module._cost_rows(encoded, length))
        assert [g for g, _ in rows] == list(range(n))
        for g, row in rows:
            assert row.tolist() == by_start[g][: row.size].tolist()
            assert row.size == n - g if length is None else min(length, n - g)


@pytest.mark.parametrize("seed", range(5))
def test_u00_long_mode_costs_are_the_exact_costs_within_the_length(seed):
    _, encoded = _encoded(seed)
    exact = segment_costs(encoded)
    for g, row in u00_module._cost_rows(encoded, 7):
        np.testing.assert_array_equal(row, exact[g, g + 1 : g + 1 + row.size])  # bit for bit
        assert row.size == min(7, encoded.n_units - g)


@pytest.mark.parametrize("seed", range(5))
def test_u00_length_covering_the_document_gives_the_exact_boundaries(seed):
    # same costs, same sums, same tie rule: identical paths
    units, _ = topical_document(seed, n_topics=6)
    for k in (None, 1, 2, 5, 9):
        assert U00(n_segments=k, max_segment_length=len(units))(units) == U00(n_segments=k)(units)


def test_u00_long_mode_respects_the_maximum_length_and_is_optimal_among_such_paths():
    units, _ = topical_document(8, n_topics=6)
    encoded = Preprocessor().encode(units)
    n, limit = len(units), 6
    for k in (None, 9):
        got = U00(n_segments=k, max_segment_length=limit)(units)
        edges = [0, *got, n]
        assert max(np.diff(edges)) <= limit
        # brute-force check on the cost: no path with segments <= limit (and k segments) is cheaper
        costs = segment_costs(encoded)
        best = _best_bounded_cost(costs, n, limit, k)
        assert sum(costs[a, b] for a, b in zip(edges, edges[1:])) == pytest.approx(best, rel=1e-12)


def _best_bounded_cost(costs, n, limit, k):
    """Minimum path cost 0 -> n with edges of at most ``limit`` units (``k`` edges if given),
    by a plain dynamic program written for this test."""
    layers = n if k is None else k
    best = {0: 0.0}
    answer = np.inf
    for _ in range(layers):
        following = {}
        for g, value in best.items():
            for h in range(g + 1, min(n, g + limit) + 1):
                following[h] = min(following.get(h, np.inf), value + costs[g, h])
        best = following
        answer = min(answer, best.get(n, np.inf)) if k is None else best.get(n, np.inf)
    return answer


def test_u00_long_mode_fast_path_equals_plain_calls():
    units, _ = topical_document(12, n_topics=6)
    for k in (None, 6):
        _assert_restart_paths_equal_plain_calls(U00(n_segments=k, max_segment_length=9), units)


def test_u00_long_mode_errors():
    units, _ = topical_document(2)
    with pytest.raises(InvalidParameterError, match="max_segment_length"):
        U00(max_segment_length=0)
    with pytest.raises(InvalidParameterError, match="cannot cover"):
        U00(n_segments=2, max_segment_length=3)(units)


def test_u00_exact_known_count_refuses_past_its_memory_limit(monkeypatch):
    units, _ = topical_document(3)
    monkeypatch.setattr(u00_module, "EXACT_MEMORY_LIMIT", 8 * len(units) * (len(units) + 1) - 1)
    with pytest.raises(InvalidParameterError, match=r"U00\(max_segment_length=200\)"):
        U00(n_segments=3)(units)
    assert U00(n_segments=3, max_segment_length=len(units))(units)
    assert U00()(units) is not None  # the automatic mode keeps O(N) memory: no limit


def test_the_size_guards_name_the_long_mode_as_the_command_line_takes_it(monkeypatch):
    """The refusals told users to pass ``--param band=100``, an option no command has; the spec
    they give now is one ``--segmenter`` reads and that builds the long mode."""
    import re

    from stability.config import segmenter_option

    units, _ = topical_document(3)
    monkeypatch.setattr(c99_module, "EXACT_MEMORY_LIMIT", c99_module.exact_memory(len(units)) - 1)
    monkeypatch.setattr(u00_module, "EXACT_MEMORY_LIMIT", 8 * len(units) * (len(units) + 1) - 1)
    for call, expected in ((lambda: C99()(units), ("c99", {"band": 100})),
                           (lambda: U00(n_segments=3)(units), ("u00", {"max_segment_length": 200}))):
        with pytest.raises(InvalidParameterError) as caught:
            call()
        message = str(caught.value)
        assert "--param" not in message
        spec = re.search(r"-s (\S+) on the command line", message).group(1)
        name, params = expected
        assert segmenter_option(spec)[1] == {"segmenter": name, **params}
