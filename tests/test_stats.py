"""stability.stats: F1, bootstrap intervals, rank correlations and the seed scheme."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from stability.stats import (
    average_ranks,
    bootstrap_mean,
    derived_rng,
    doc_key,
    f1_array,
    f1_score,
    kendall_tau,
    kendall_tau_rows,
    percentile_interval,
    spearman_rho,
    spearman_rho_rows,
)


def pairwise_tau_b(x, y) -> float:
    """tau-b by its definition, pair by pair (the reference for the fast implementation)."""
    concordant = discordant = tied_x = tied_y = 0
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
            tied_x += dx == 0
            tied_y += dy == 0
            concordant += dx * dy > 0
            discordant += dx * dy < 0
    n0 = n * (n - 1) // 2
    denominator = math.sqrt((n0 - tied_x) * (n0 - tied_y))
    return float("nan") if denominator == 0 else (concordant - discordant) / denominator


small_ints = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=0, max_size=30)


@settings(max_examples=300, deadline=None)
@given(small_ints)
def test_kendall_tau_equals_the_pairwise_definition(pairs):
    x = [float(a) for a, _ in pairs]
    y = [float(b) for _, b in pairs]
    expected = pairwise_tau_b(x, y) if len(pairs) >= 2 else float("nan")
    got = kendall_tau(x, y)
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected, abs=1e-12)


def test_kendall_tau_hand_values_and_nans():
    # x = 1,2,2,3 ; y = 1,3,2,3: pairs (1,2) C, (1,3) C, (1,4) C, (2,3) tied x, (2,4) tied y,
    # (3,4) C -> C=4, D=0, n0=6, n1=1, n2=1: 4 / sqrt(5 * 5) = 0.8
    assert kendall_tau([1, 2, 2, 3], [1, 3, 2, 3]) == pytest.approx(0.8)
    assert kendall_tau([1, float("nan"), 3], [1, 5, 3]) == 1.0  # the NaN pair is dropped
    assert math.isnan(kendall_tau([1, 1, 1], [1, 2, 3]))  # one side constant
    assert math.isnan(kendall_tau([1], [2]))


cells = st.sampled_from([0.0, 1.0, 2.0, 2.5, -1.0, float("nan"), float("inf"), -float("inf")])


ROW_FORMS = [(kendall_tau, kendall_tau_rows), (spearman_rho, spearman_rho_rows)]


@pytest.mark.parametrize("one, rows_at_once", ROW_FORMS, ids=["kendall", "spearman"])
@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda rows: st.integers(0, 12).flatmap(lambda n: st.tuples(
    st.lists(st.lists(cells, min_size=n, max_size=n), min_size=rows, max_size=rows),
    st.lists(st.lists(cells, min_size=n, max_size=n), min_size=rows, max_size=rows)))))
def test_the_row_forms_equal_the_one_row_forms_to_the_bit(one, rows_at_once, rows):
    # ties, NaNs (pairs dropped) and infinities (ordered as values) in both rows
    x, y = np.array(rows[0], dtype=float), np.array(rows[1], dtype=float)
    x, y = x.reshape(len(rows[0]), -1), y.reshape(len(rows[1]), -1)
    got = rows_at_once(x, y)
    want = np.array([one(a, b) for a, b in zip(x, y)])
    assert got.shape == want.shape
    assert all((g == w) or (math.isnan(g) and math.isnan(w)) for g, w in zip(got, want))


@pytest.mark.parametrize("one, rows_at_once", ROW_FORMS, ids=["kendall", "spearman"])
def test_the_row_forms_in_chunks_and_row_by_row(monkeypatch, one, rows_at_once):
    import stability.stats as stats

    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 5, size=(50, 9)).astype(float), rng.normal(size=(50, 9))
    whole = rows_at_once(x, y)
    assert np.array_equal(whole, [one(a, b) for a, b in zip(x, y)])
    monkeypatch.setattr(stats, "ROW_PAIRS_CHUNK", 81)  # one row (36 pairs, 81 comparisons) at a time
    assert np.array_equal(rows_at_once(x, y), whole)
    monkeypatch.setattr(stats, "ROW_ITEMS_BATCHED", 8)  # 9 items: row by row
    assert np.array_equal(rows_at_once(x, y), whole)
    assert rows_at_once(np.zeros((0, 9)), np.zeros((0, 9))).shape == (0,)
    with pytest.raises(Exception, match="two-dimensional"):
        rows_at_once([1, 2], [1, 2])


def test_spearman_and_ranks_by_hand():
    assert average_ranks([10, 20, 20, 5]).tolist() == [2.0, 3.5, 3.5, 1.0]
    # ranks 1,2,3,4 vs 1,3,2,4: d^2 = 0+1+1+0 = 2, rho = 1 - 6*2/(4*15) = 0.8
    assert spearman_rho([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)


def test_f1_forms_agree():
    p = np.array([0.0, 0.5, 1.0, 0.25])
    r = np.array([0.0, 1.0, 1.0, 0.75])
    assert f1_array(p, r).tolist() == [f1_score(a, b) for a, b in zip(p, r)]
    assert f1_score(0.5, 1.0) == pytest.approx(2 / 3)


def test_bootstrap_mean_interval_contains_the_mean_and_is_seeded():
    x = np.arange(20.0)
    low, high = bootstrap_mean(x, derived_rng(0, "test"), 0.95, 500)
    assert low < x.mean() < high
    assert (low, high) == bootstrap_mean(x, derived_rng(0, "test"), 0.95, 500)
    assert bootstrap_mean(np.array([2.0, 2.0]), derived_rng(0), 0.95, 10) == (2.0, 2.0)
    assert percentile_interval([np.nan, np.nan]) != percentile_interval([1.0])


def test_bootstrap_f1_resamples_when_only_one_side_varies():
    from stability.stats import bootstrap_f1_samples

    # every restart has precision 1 but recall varies (1, 1/2, 0, 1): a resample's F1 is
    # 2 R / (1 + R) for its mean recall R, so the replicates spread between F1(1, 0) = 0 and
    # F1(1, 1) = 1 (hand); only restarts agreeing on both precision and recall give the point
    # value every time (mutation testing found the one-side case untested)
    varying = np.array([1.0, 0.5, 0.0, 1.0])
    for p, r in ((np.ones(4), varying), (varying, np.ones(4))):
        samples = bootstrap_f1_samples(p, r, np.random.default_rng(5), 200)
        assert np.unique(samples).size > 1 and 0.0 <= samples.min() < samples.max() <= 1.0
    same = bootstrap_f1_samples(np.ones(4), np.full(4, 0.5), np.random.default_rng(5), 20)
    assert same.tolist() == [f1_score(1.0, 0.5)] * 20  # 2/3, no draw


def test_derived_rng_is_the_restart_scheme():
    # the restart permutations of the harness use (document key, stream, restart)
    from stability.permutations import Stream, stream_rng

    a = stream_rng(7, doc_key("doc"), Stream.SHUFFLE, 3).random(4)
    b = derived_rng(7, "doc", int(Stream.SHUFFLE), 3).random(4)
    assert a.tolist() == b.tolist()
    assert derived_rng(7, "doc").random() != derived_rng(7, "other").random()


def test_a_percentile_interval_over_few_values_cannot_reach_its_level():
    # Hand derivation: every bootstrap mean lies between the smallest and the largest value, so the
    # interval does; it holds the true mean mu only when the values are not all on one side of it.
    # With q = P(X < mu) for a continuous X, that is 1 - q^n - (1 - q)^n <= 1 - 2^(1 - n) (q = 1/2).
    from stability.stats import percentile_coverage_bound

    assert [percentile_coverage_bound(n) for n in (1, 2, 3, 5, 6)] == [0.0, 0.5, 0.75, 0.9375, 0.96875]
    # simulated: 3 values of a symmetric distribution, mean 0: the 95% interval covers about 75%
    # (with 3 values, the 2.5% and 97.5% bootstrap quantiles are the smallest and largest value)
    rng = derived_rng(0, "coverage")
    hits = sum(low <= 0.0 <= high for low, high in
               (bootstrap_mean(rng.normal(size=3), rng, 0.95, 400) for _ in range(2000)))
    assert hits / 2000 == pytest.approx(0.75, abs=0.03)


@pytest.mark.parametrize("n", [64, 257, 600])
def test_kendall_tau_equals_the_pairwise_definition_on_long_rows_with_ties(n):
    # past the 30 items of the property test: every level of the merge count, ties in x, in y and
    # in both, floats and a run of equal values (the reference: pairwise_tau_b, O(n^2) pairs)
    rng = np.random.default_rng(n)
    x = np.round(rng.normal(size=n), 1)
    y = np.round(-x + rng.normal(size=n), 1)
    x[: n // 4] = x[0]
    assert kendall_tau(x, y) == pytest.approx(pairwise_tau_b(x.tolist(), y.tolist()), abs=1e-12)
    assert kendall_tau_rows(x[None], y[None])[0] == kendall_tau(x, y)  # > ROW_ITEMS_BATCHED: the same function


@given(st.integers(2, 400), st.integers(0, 2**32 - 1), st.integers(1, 1200))
def test_bootstrap_mean_gathers_in_blocks_to_the_bit_of_one_array(n, seed, n_resamples):
    """bootstrap_mean gathers the resampled values a block of rows at a time (half the memory: at
    100,000 documents 0.84 GB instead of 1.5 GB); its interval is that of the whole array of
    resamples, bit for bit, so no report moves."""
    from stability.stats import bootstrap_mean, percentile_interval

    x = np.random.default_rng(seed).normal(size=n)
    idx = np.random.default_rng(seed + 1).integers(0, n, size=(n_resamples, n))
    expected = percentile_interval(x[idx].mean(axis=1), 0.95)
    assert bootstrap_mean(x, np.random.default_rng(seed + 1), 0.95, n_resamples) == expected
