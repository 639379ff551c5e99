"""The statistics every part of the project shares: F1, bootstrap intervals, rank correlations
and derived random generators.

One definition each, read by the scores, the runner, the summaries, the reports and the study:

* :func:`f1_score` / :func:`f1_array`: the harmonic mean of precision and recall (Lamprier et al.
  2007, eq. 11), 0 when both are 0;
* :func:`percentile_interval`, :func:`bootstrap_mean`, :func:`bootstrap_f1`: percentile bootstrap
  confidence intervals, and :func:`percentile_coverage_bound`, the most one over few values can cover;
* :func:`kendall_tau`, :func:`spearman_rho`, :func:`average_ranks`: rank correlations;
* :func:`derived_rng`, :func:`doc_key`: the one seed scheme, ``numpy.random.SeedSequence(seed,
  spawn_key=...)`` keyed by names and numbers, so a random stream never depends on scheduling,
  process or Python's salted ``hash``.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .exceptions import InvalidParameterError

__all__ = [
    "f1_score",
    "f1_array",
    "hypergeometric_pmf",
    "percentile_interval",
    "percentile_coverage_bound",
    "defined_mean",
    "defined_row_means",
    "bootstrap_mean",
    "bootstrap_f1",
    "bootstrap_f1_samples",
    "kendall_tau",
    "kendall_tau_rows",
    "average_ranks",
    "spearman_rho",
    "spearman_rho_rows",
    "doc_key",
    "derived_rng",
]


# ----------------------------------------------------------------------------------------------
# F1
# ----------------------------------------------------------------------------------------------
def f1_score(precision: float, recall: float) -> float:
    """Harmonic mean of precision and recall (Lamprier et al. 2007, eq. 11); 0.0 if both are 0.

    Examples
    --------
    >>> f1_score(0.5, 1.0)  # 2 * 0.5 * 1 / 1.5
    0.6666666666666666
    >>> f1_score(0.0, 0.0)
    0.0
    """
    total = precision + recall
    return 0.0 if total <= 0 else float(2.0 * precision * recall / total)


def f1_array(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """:func:`f1_score` element by element on arrays (0 where both are 0)."""
    p = np.asarray(precision, dtype=float)
    r = np.asarray(recall, dtype=float)
    total = p + r
    return np.divide(2.0 * p * r, total, out=np.zeros_like(total), where=total > 0)


def hypergeometric_pmf(n_gaps: int, m: int, k: int) -> tuple[int, np.ndarray]:
    """P(a window of ``k`` gaps holds ``i`` of ``m`` boundaries placed uniformly) on its support.

    ``C(k, i) C(N-k, m-i) / C(N, m)`` with ``N = n_gaps`` (Lamprier et al. 2007, section 4) is
    non-zero for ``i = lo .. hi``, ``lo = max(0, m - (N - k))``, ``hi = min(k, m)``; returns ``lo``
    and those probabilities. The log-probabilities are built from the ratio of consecutive terms
    ``p(i+1)/p(i) = (k-i)(m-i) / ((i+1)(N-k-m+i+1))`` (each factor an exact integer before it
    becomes a float) and normalized to sum to one, so nothing overflows at any size; the cost is
    O(hi - lo) (callers bound it).

    >>> lo, p = hypergeometric_pmf(4, 2, 2)  # 2 of 4 gaps drawn, window of 2: C(2,i) C(2,2-i) / 6
    >>> lo, np.allclose(p, [1 / 6, 4 / 6, 1 / 6], rtol=1e-15)
    (0, True)
    """
    lo, hi = max(0, m - (n_gaps - k)), min(k, m)
    steps = np.arange(hi - lo, dtype=np.int64)
    log_ratio = (np.log((k - lo - steps).astype(np.float64)) + np.log((m - lo - steps).astype(np.float64))
                 - np.log((lo + 1 + steps).astype(np.float64))
                 - np.log((n_gaps - k - m + lo + 1 + steps).astype(np.float64)))
    log_p = np.concatenate(([0.0], np.cumsum(log_ratio)))
    p = np.exp(log_p - log_p.max())
    return lo, p / p.sum()


# ----------------------------------------------------------------------------------------------
# bootstrap intervals
# ----------------------------------------------------------------------------------------------
def percentile_interval(samples: Any, confidence: float = 0.95) -> tuple[float, float]:
    """The central ``confidence`` percentile interval of bootstrap replicates (NaNs left out;
    ``(nan, nan)`` when none is defined).

    Examples
    --------
    >>> percentile_interval(np.arange(101.0), 0.5)  # the 25th and 75th of 0..100
    (25.0, 75.0)
    """
    v = np.asarray(samples, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return float("nan"), float("nan")
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(v, [alpha, 1.0 - alpha])
    return float(low), float(high)


def percentile_coverage_bound(n: int) -> float:
    """The most often a percentile bootstrap interval of the mean of ``n`` values can hold the true
    mean, whatever its level: ``1 - 2^(1 - n)`` (0.5 with 2 values, 0.75 with 3, 0.9375 with 5).

    Every resampled mean lies between the smallest and the largest value, hence so does the
    interval, which holds the mean ``mu`` only when the values are not all on one side of it. For
    values drawn from a continuous distribution with ``q = P(X < mu)`` that happens with
    probability ``1 - q^n - (1 - q)^n``, at most ``1 - 2^(1 - n)`` (at ``q = 1/2``). So over fewer
    than 6 values a "95%" interval is not one. 0 for ``n <= 1``.

    Examples
    --------
    >>> percentile_coverage_bound(3), percentile_coverage_bound(6)
    (0.75, 0.96875)
    """
    return 0.0 if n <= 1 else 1.0 - 2.0 ** (1 - n)


def defined_mean(values: Any) -> float:
    """Mean of the values that are not NaN; NaN, without a warning, when there is none.

    Examples
    --------
    >>> defined_mean([1.0, float("nan"), 2.0]), defined_mean([float("nan")])
    (1.5, nan)
    """
    v = np.fromiter(values, dtype=float)
    v = v[~np.isnan(v)]
    return float(v.mean()) if v.size else float("nan")


def defined_row_means(columns: Sequence[Any]) -> np.ndarray:
    """Per row, :func:`defined_mean` of the values the ``columns`` (equal-length arrays) hold in it.

    Examples
    --------
    >>> defined_row_means([[1.0, float("nan")], [3.0, float("nan")]]).tolist()
    [2.0, nan]
    """
    stacked = np.column_stack(columns)
    counts = np.sum(~np.isnan(stacked), axis=1)
    return np.where(counts > 0, np.nansum(stacked, axis=1) / np.maximum(counts, 1), np.nan)


def bootstrap_mean(values: np.ndarray, rng: np.random.Generator, confidence: float = 0.95,
                   n_resamples: int = 1000) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (already free of NaNs).

    With one value, or all values equal, the interval is the point itself (no resampling).
    """
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return float("nan"), float("nan")
    mean = float(x.mean())
    if x.size == 1 or np.all(x == x[0]):
        return mean, mean
    idx = rng.integers(0, x.size, size=(n_resamples, x.size))
    means = np.empty(n_resamples)
    for start in range(0, n_resamples, _GATHER_ROWS):  # the resampled values a block at a time: the
        rows = slice(start, start + _GATHER_ROWS)     # same means, without a second n_resamples x n array
        means[rows] = x[idx[rows]].mean(axis=1)
    return percentile_interval(means, confidence)


#: Resamples whose values :func:`bootstrap_mean` gathers at once (memory: this many x the values).
_GATHER_ROWS = 100


def bootstrap_f1_samples(precision: np.ndarray, recall: np.ndarray, rng: np.random.Generator,
                         n_resamples: int = 1000) -> np.ndarray:
    """Eq. 11's F1 of ``n_resamples`` bootstrap resamples of the restarts (vectorised): each
    resample draws the restarts with replacement and takes the F1 of its averaged precision and
    recall, as the point estimate is. Restarts that all agree give the point value every time
    (no draw); no restart, or a single one, gives NaNs: one restart is no sample of how the
    restarts vary (its resamples would all be itself, a 0-wide interval on which adaptive
    stopping would stop), as one document gives no interval over documents
    (:class:`stability.results.Stat`)."""
    n = precision.shape[0]
    if n <= 1:
        return np.full(n_resamples, np.nan)
    if np.all(precision == precision[0]) and np.all(recall == recall[0]):
        return np.full(n_resamples, f1_score(float(precision.mean()), float(recall.mean())))
    idx = rng.integers(0, n, size=(n_resamples, n))
    return f1_array(precision[idx].mean(axis=1), recall[idx].mean(axis=1))


def bootstrap_f1(precision: np.ndarray, recall: np.ndarray, rng: np.random.Generator,
                 confidence: float = 0.95, n_resamples: int = 1000) -> tuple[float, float]:
    """Percentile bootstrap interval of eq. 11's F1 over restarts (of
    :func:`bootstrap_f1_samples`)."""
    return percentile_interval(bootstrap_f1_samples(precision, recall, rng, n_resamples), confidence)


# ----------------------------------------------------------------------------------------------
# rank correlations
# ----------------------------------------------------------------------------------------------
def _paired(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Two one-dimensional float arrays of the same length, pairs with a NaN dropped."""
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise InvalidParameterError(
            f"x and y must be one-dimensional with the same length; received shapes {a.shape} and {b.shape}"
        )
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep]


def _tied_pairs(*columns: np.ndarray) -> int:
    """Pairs of items equal in every given column (sum of t(t-1)/2 over the tie groups)."""
    if columns[0].size == 0:
        return 0
    _, counts = np.unique(np.stack(columns, axis=1), axis=0, return_counts=True)
    return int(np.sum(counts * (counts - 1) // 2))


def _inversions(values: np.ndarray) -> int:
    """Pairs ``i < j`` with ``values[i] > values[j]`` (ties are not inversions).

    Bottom-up merge sort done level by level with array operations: at each level the right half
    of every block counts the elements of its left half greater than itself with one
    ``searchsorted`` over all blocks at once (blocks are kept apart by an offset), then every
    block is sorted by one global sort. ``O(n log^2 n)`` time, ``O(n)`` memory.
    """
    n = values.size
    _, a = np.unique(values, return_inverse=True)
    a = a.astype(np.int64).reshape(-1)
    span = n + 1
    index = np.arange(n)
    total, width = 0, 1
    while width < n:
        block = index // (2 * width)
        right = (index % (2 * width)) >= width
        shifted = a + block * span
        left_values = shifted[~right]
        ends = np.searchsorted(left_values, (block[right] + 1) * span, side="left")
        starts = np.searchsorted(left_values, shifted[right], side="right")
        total += int(np.sum(ends - starts))
        a = np.sort(shifted) - block * span
        width *= 2
    return total


def kendall_tau(x: ArrayLike, y: ArrayLike) -> float:
    """Kendall's tau-b rank correlation of two paired samples (ties handled as tau-b does).

    ``tau_b = (C - D) / sqrt((n0 - n1) (n0 - n2))`` with ``C``/``D`` the concordant/discordant pairs,
    ``n0 = n(n-1)/2`` and ``n1``, ``n2`` the pairs tied in ``x`` and in ``y``. Pairs with a NaN are
    dropped first. Returns NaN with fewer than two pairs or when one side is constant.

    Computed without enumerating pairs (Knight's method): with the items sorted by ``x`` then
    ``y``, the discordant pairs are the inversions of the ``y`` sequence, and
    ``C - D = n0 - n1 - n2 + n3 - 2 D`` where ``n3`` counts the pairs tied in both. Time
    ``O(n log^2 n)``, memory ``O(n)``, so a million pairs of (segmenter, document) scores cost
    seconds, not the terabytes a pairwise matrix would.

    Examples
    --------
    >>> kendall_tau([1, 2, 3, 4], [10, 20, 30, 40])
    1.0
    >>> kendall_tau([1, 2, 3], [3, 2, 1])
    -1.0
    >>> kendall_tau([1, 2, 2, 3], [1, 3, 2, 3])  # hand count: C=4, D=0, n1=1, n2=1: 4/5
    0.8
    """
    a, b = _paired(x, y)
    n = a.size
    if n < 2:
        return float("nan")
    n0 = n * (n - 1) // 2
    n1, n2, n3 = _tied_pairs(a), _tied_pairs(b), _tied_pairs(a, b)
    denominator = math.sqrt((n0 - n1) * (n0 - n2))
    if denominator == 0:
        return float("nan")
    order = np.lexsort((b, a))
    discordant = _inversions(b[order])
    return float((n0 - n1 - n2 + n3 - 2 * discordant) / denominator)


def _order_signs(values: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """+1, -1 or 0 as each row's item ``second`` is above, below or tied with item ``first``
    (compared, not subtracted, so infinities order as :func:`kendall_tau` orders them)."""
    above, below = values[:, second] > values[:, first], values[:, second] < values[:, first]
    return above.astype(float) - below


#: Most (row, pair) cells :func:`kendall_tau_rows` holds at once; more rows go in chunks.
ROW_PAIRS_CHUNK = 2**21
#: Rows longer than this go through :func:`kendall_tau` one by one: past about 200 items its
#: ``O(n log^2 n)`` beats the ``O(n^2)`` pairs (1,000 rows: 0.56 s against 0.52 s at 200 items,
#: 0.95 s against 2.2 s at 400).
ROW_ITEMS_BATCHED = 200


def _by_rows(x: Any, y: Any, one: Callable[[np.ndarray, np.ndarray], float],
             block: Callable[[np.ndarray, np.ndarray], np.ndarray], cells: Callable[[int], int]) -> np.ndarray:
    """The frame of the row forms of a rank correlation: checks the two matrices, sends rows of
    more than ``ROW_ITEMS_BATCHED`` items to ``one`` row by row, and otherwise computes ``block``
    on as many rows at a time as ``ROW_PAIRS_CHUNK`` cells hold (``cells(n)`` a row)."""
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 2:
        raise InvalidParameterError(
            f"x and y must be two-dimensional with the same shape; received shapes {a.shape} and {b.shape}"
        )
    rows, n = a.shape
    if n > ROW_ITEMS_BATCHED:
        return np.array([one(a[i], b[i]) for i in range(rows)], dtype=float).reshape(rows)
    out = np.full(rows, np.nan)
    step = max(1, ROW_PAIRS_CHUNK // max(1, cells(n)))
    for start in range(0, rows, step):
        part = slice(start, start + step)
        out[part] = block(a[part], b[part])
    return out


def kendall_tau_rows(x: Any, y: Any) -> np.ndarray:
    """Kendall's tau-b of each row of ``x`` with the same row of ``y``, all rows at once.

    Equal to :func:`kendall_tau` applied row by row (the same value to the last bit, NaN where
    it gives NaN), for many short rows: the bootstrap replicates of a few dozen configurations'
    means. With ``sx`` and ``sy`` the signs of the differences of every pair of items of a row
    (pairs with an item that is NaN in either row left out), ``C - D`` is the sum of ``sx * sy``,
    ``n0 - n1`` the number of pairs not tied in ``x`` and ``n0 - n2`` in ``y``: tau-b is the same
    exact integers divided as :func:`kendall_tau` divides them. Time and memory ``O(rows n^2)``,
    taken ``ROW_PAIRS_CHUNK`` cells at a time; rows of more than ``ROW_ITEMS_BATCHED`` items go
    through :func:`kendall_tau` one by one.

    Examples
    --------
    >>> kendall_tau_rows([[1, 2, 3, 4], [1, 2, 2, 3]], [[10, 20, 30, 40], [1, 3, 2, 3]]).tolist()
    [1.0, 0.8]
    """
    return _by_rows(x, y, kendall_tau, _kendall_block, lambda n: n * (n - 1) // 2)


def _kendall_block(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`kendall_tau_rows` of a block of rows."""
    first, second = np.triu_indices(a.shape[1], k=1)
    kept = ~(np.isnan(a) | np.isnan(b))
    pairs = kept[:, first] & kept[:, second]
    sx = np.where(pairs, _order_signs(a, first, second), 0.0)
    sy = np.where(pairs, _order_signs(b, first, second), 0.0)
    untied = np.count_nonzero(sx, axis=1) * np.count_nonzero(sy, axis=1)
    difference = np.sum(sx * sy, axis=1)
    defined = untied > 0
    return np.where(defined, difference / np.sqrt(np.where(defined, untied, 1)), np.nan)


def average_ranks(values: ArrayLike) -> np.ndarray:
    """Ranks 1..n of ``values``, ties sharing the average of the ranks they span.

    Examples
    --------
    >>> average_ranks([10, 20, 20, 5]).tolist()
    [2.0, 3.5, 3.5, 1.0]
    """
    a = np.asarray(values, dtype=float)
    if a.ndim != 1:
        raise InvalidParameterError.make("values", "a one-dimensional sequence", a.shape)
    sorter = np.argsort(a, kind="mergesort")
    inverse = np.empty(a.size, dtype=np.intp)
    inverse[sorter] = np.arange(a.size)
    ordered = a[sorter]
    first = np.r_[True, ordered[1:] != ordered[:-1]]
    dense = np.cumsum(first)[inverse]
    ends = np.r_[np.flatnonzero(first), a.size]
    # a tie group occupying sorted positions start..end-1 gets ranks start+1..end: average below
    return 0.5 * (ends[dense] + ends[dense - 1] + 1)


def spearman_rho(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman's rank correlation: Pearson's correlation of the average ranks.

    Pairs with a NaN are dropped first. Returns NaN with fewer than two pairs or when one side is
    constant (no ranking to compare).

    Examples
    --------
    >>> spearman_rho([1, 2, 3, 4], [1, 3, 2, 4])
    0.8
    >>> spearman_rho([1, 2, 3], [3, 2, 1])
    -1.0
    """
    a, b = _paired(x, y)
    if a.size < 2:
        return float("nan")
    ra = average_ranks(a) - (a.size + 1) / 2.0
    rb = average_ranks(b) - (b.size + 1) / 2.0
    denominator = math.sqrt(float(ra @ ra) * float(rb @ rb))
    if denominator == 0.0:
        return float("nan")
    return float(np.clip(float(ra @ rb) / denominator, -1.0, 1.0))


def _centred_ranks_rows(values: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Per row, the average ranks of the kept items minus their mean (0 for the others), from
    pairwise comparisons: ``1 + #below + #tied / 2``. Half-integers, so sums of their products are
    exact in any order."""
    left, right = values[:, :, None], values[:, None, :]
    both = kept[:, :, None] & kept[:, None, :]
    below = np.sum((right < left) & both, axis=2)
    tied = np.sum((right == left) & both, axis=2) - 1  # the item itself
    count = np.sum(kept, axis=1, keepdims=True)
    return np.where(kept, 1.0 + below + 0.5 * tied - (count + 1) / 2.0, 0.0)


def spearman_rho_rows(x: Any, y: Any) -> np.ndarray:
    """Spearman's rho of each row of ``x`` with the same row of ``y``, all rows at once.

    Equal to :func:`spearman_rho` applied row by row, to the last bit: the centred average ranks
    are half-integers, so the three sums of products it divides are exact whatever the order of
    summation, and they are divided as :func:`spearman_rho` divides them. Items that are NaN in
    either row are left out of that row. ``O(rows n^2)``, ``ROW_PAIRS_CHUNK`` cells at a time;
    rows of more than ``ROW_ITEMS_BATCHED`` items go through :func:`spearman_rho` one by one.

    Examples
    --------
    >>> spearman_rho_rows([[1, 2, 3, 4], [1, 2, 3, 4]], [[1, 3, 2, 4], [4, 3, 2, 1]]).tolist()
    [0.8, -1.0]
    """
    return _by_rows(x, y, spearman_rho, _spearman_block, lambda n: n * n)


def _spearman_block(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`spearman_rho_rows` of a block of rows."""
    kept = ~(np.isnan(a) | np.isnan(b))
    ra, rb = _centred_ranks_rows(a, kept), _centred_ranks_rows(b, kept)
    denominator = np.sqrt(np.sum(ra * ra, axis=1) * np.sum(rb * rb, axis=1))
    defined = (denominator != 0.0) & (np.sum(kept, axis=1) >= 2)
    ratio = np.sum(ra * rb, axis=1) / np.where(defined, denominator, 1.0)
    return np.where(defined, np.clip(ratio, -1.0, 1.0), np.nan)


# ----------------------------------------------------------------------------------------------
# the seed scheme
# ----------------------------------------------------------------------------------------------
def doc_key(name: str | None) -> int:
    """64-bit key of a name (a document id, a label; ``0`` for ``None``), stable across processes
    and runs: the first 8 bytes of its SHA-256."""
    if name is None:
        return 0
    digest = hashlib.sha256(str(name).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "little")


def derived_rng(seed: int, *parts: int | str | None) -> np.random.Generator:
    """The generator of the stream named by ``parts`` under run seed ``seed``.

    ``numpy.random.default_rng(SeedSequence(seed, spawn_key=keys))`` where each part is an int
    (kept) or a name (its :func:`doc_key`). Every random draw of the project comes from such a
    generator: restart permutations use ``(document, stream, restart)``, summaries
    ``(label, BOOTSTRAP, score)``, the study its own named streams.

    Examples
    --------
    >>> a = derived_rng(0, "doc-1", 0, 5).integers(1000)
    >>> b = derived_rng(0, "doc-1", 0, 5).integers(1000)
    >>> bool(a == b)
    True
    """
    keys = tuple(int(p) if isinstance(p, (int, np.integer)) and not isinstance(p, bool)
                 else doc_key(str(p) if isinstance(p, bool) else p)  # a bool is keyed by its name
                 for p in parts)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=keys))


# -- derived_rng for many indices at once ---------------------------------------------------------
# numpy's SeedSequence (pool of 4 uint32 words) and PCG64 seeding, written with array operations
# over the last spawn-key word, so that the generators of a chunk of restarts cost about a
# microsecond each instead of ~20 (numpy builds each SeedSequence and PCG64 one at a time).
_MASK32 = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_POOL = 4
_PCG_MULT = (2549297995355413924 << 64) + 4865540595714422341  # PCG_DEFAULT_MULTIPLIER_128
_MASK128 = (1 << 128) - 1
_ARRAY_FROM = 16  # indices from which the array form beats numpy's one-by-one seeding


def _words(value: int) -> list[int]:
    """numpy's uint32 words of a non-negative int (least significant first; ``[0]`` for 0)."""
    words = [value & _MASK32] if value == 0 else []
    while value > 0:
        words.append(value & _MASK32)
        value >>= 32
    return words


class _Hash:
    """SeedSequence's multiplicative hash, its constant advanced at every use. Works on Python
    ints and on uint32 arrays alike (every step is reduced modulo 2**32)."""

    def __init__(self, start: int, mult: int) -> None:
        self.value, self.mult = start, mult

    def mix(self, word: Any) -> Any:
        word = word ^ self.value
        self.value = (self.value * self.mult) & _MASK32
        word = (word * self.value) & _MASK32
        return word ^ (word >> 16)


def _mix(x: Any, y: Any) -> Any:
    result = (((_MIX_L * x) & _MASK32) - ((_MIX_R * y) & _MASK32)) & _MASK32
    return result ^ (result >> 16)


def _seed_words(words: list[int], last: np.ndarray) -> list[list[int]]:
    """PCG64's four uint64 seed words (``SeedSequence.generate_state(4, uint64)``) of the
    entropy ``words + [i]`` for every ``i`` of ``last`` (``words`` has at least ``_POOL``
    words): the common words mixed once with Python ints, the last one as a uint32 array."""
    hash_a = _Hash(_INIT_A, _MULT_A)
    pool = [hash_a.mix(words[i]) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], hash_a.mix(pool[src]))
    for word in [*words[_POOL:], last]:
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], hash_a.mix(word))
    hash_b = _Hash(_INIT_B, _MULT_B)
    state = [hash_b.mix(pool[i % _POOL]).astype(np.uint64) for i in range(8)]
    return np.stack([state[2 * k] | (state[2 * k + 1] << np.uint64(32)) for k in range(4)], axis=1).tolist()


def derived_rngs(seed: int, prefix: Sequence[int], indices: Sequence[int]):
    """``derived_rng(seed, *prefix, i)`` for every ``i`` of ``indices``, in order, bit for bit
    (a test compares them with numpy's). Integer parts only; each yielded generator is the
    same object re-seeded: draw from it before taking the next.

    Examples
    --------
    >>> [int(g.integers(1000)) for g in derived_rngs(0, (7, 1), range(3))] == [
    ...     int(derived_rng(0, 7, 1, i).integers(1000)) for i in range(3)]
    True
    """
    indices = [int(i) for i in indices]
    if not indices:
        return
    few = len(indices) < _ARRAY_FROM
    if few or max(indices) > _MASK32 or min(indices) < 0 or seed < 0 or min(prefix, default=0) < 0:
        for i in indices:  # few, several words per index, or numpy's own error: numpy's path
            yield derived_rng(seed, *prefix, i)
        return
    run = _words(int(seed))
    words = run + [0] * max(0, _POOL - len(run)) + [w for part in prefix for w in _words(int(part))]
    value = _seed_words(words, np.asarray(indices, dtype=np.uint32))
    bit_generator = np.random.PCG64(0)
    generator = np.random.Generator(bit_generator)
    for v0, v1, v2, v3 in value:
        initstate, initseq = (v0 << 64) | v1, (v2 << 64) | v3
        inc = ((initseq << 1) | 1) & _MASK128
        pcg = ((inc + initstate) * _PCG_MULT + inc) & _MASK128  # two steps of PCG's srandom from 0
        bit_generator.state = {"bit_generator": "PCG64", "state": {"state": pcg, "inc": inc},
                               "has_uint32": 0, "uinteger": 0}
        yield generator
