"""C99's exact mode in bounded temporaries: the reordered similarity matrix written straight into
the framed copy the rank counts compare, the counts and the ranks a band of cells at a time.

Reference values: the plain computation on the reordered matrix (``sim[np.ix_(order, order)]``,
then :func:`rank_matrix` and :func:`_prefix_sums`), which these paths must equal bit for bit.
The peak memory itself is measured in ``tests/test_long_documents.py`` and
``benchmarks/c99_memory.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from segmenters import c99 as c99_module
from segmenters.c99 import _prefix_sums, _rank_prefix_sums, rank_matrix


def _tied_similarity(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=(n, n)) / 4  # values from a set of 4: ties everywhere
    sim = np.minimum(a, a.T)
    np.fill_diagonal(sim, 1.0)
    return sim


@pytest.mark.parametrize("band_cells", [1 << 20, 50, 7])
@pytest.mark.parametrize("mask", [3, 11, 17])
def test_reordered_prefix_sums_equal_those_of_the_reordered_matrix(monkeypatch, band_cells, mask):
    sim = _tied_similarity(23, seed=mask)
    orders = np.stack([np.random.default_rng(s).permutation(23) for s in range(3)])
    expected = [_prefix_sums(rank_matrix(sim[np.ix_(order, order)], mask)) for order in orders]
    rank = rank_matrix(sim, mask)
    monkeypatch.setattr(c99_module, "_BAND_CELLS", band_cells)  # one band, or several
    for order, prefix in zip(orders, expected):
        assert np.array_equal(_rank_prefix_sums(sim, mask, order), prefix)
        assert np.array_equal(_rank_prefix_sums(sim[np.ix_(order, order)], mask), prefix)
    assert np.array_equal(_rank_prefix_sums(sim, mask, orders), np.stack(expected))  # the batched path
    assert np.array_equal(rank_matrix(sim, mask), rank)


def test_restart_paths_equal_plain_calls_in_small_bands(monkeypatch):
    # segment_prepared and segment_batch reorder inside the framed copy; the plain call on the
    # reordered units computes its own matrix: the boundaries must be the same
    rng = np.random.default_rng(5)
    units = [" ".join(f"w{w}" for w in rng.integers(0, 9, size=3)) for _ in range(40)]
    monkeypatch.setattr(c99_module, "_BAND_CELLS", 64)
    for segmenter in (c99_module.C99(), c99_module.C99(n_segments=4, mask_size=5)):
        state = segmenter.prepare(units)
        orders = np.stack([np.random.default_rng(s).permutation(40) for s in range(4)])
        plain = [segmenter([units[i] for i in order]) for order in orders]
        assert [segmenter.segment_prepared(state, order) for order in orders] == plain
        assert segmenter.segment_batch(state, orders) == plain
