"""One-to-one matching of boundaries within a tolerance (shared by the harness and the metrics)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from .exceptions import InvalidParameterError
from .stats import hypergeometric_pmf

__all__ = ["match_boundaries", "count_matches", "expected_intersection", "expected_matches", "MAX_STEPPED", "MAX_CELLS",
           "BOTH_EMPTY", "ONE_EMPTY", "empty_ratio", "boundary_ratio", "empty_ratios", "boundary_ratios",
           "with_empty_rule"]


# ----------------------------------------------------------------------------------------------
# the zero-division rule of boundary precision and recall, declared once
# ----------------------------------------------------------------------------------------------
#: Precision or recall of two boundary sets that are both empty: nothing to find, nothing found.
BOTH_EMPTY = 1.0
#: Precision or recall whose denominator set is empty while the other set is not.
ONE_EMPTY = 0.0


def empty_ratio(other: float) -> float:
    """The value of a boundary precision or recall whose denominator set is empty, by the project's
    zero rule: :data:`BOTH_EMPTY` (1.0) when the ``other`` set is empty too, else :data:`ONE_EMPTY`
    (0.0). Every precision, recall and F1 of boundary sets (the stability scores, their chance
    level, the reference metrics, their expectation, the corpus's pooled scores) reads this rule,
    from here or from its element-wise form :func:`empty_ratios`.

    >>> empty_ratio(0), empty_ratio(3)
    (1.0, 0.0)
    """
    return BOTH_EMPTY if other == 0 else ONE_EMPTY


def boundary_ratio(matched: float, denominator: float, other: float) -> float:
    """``matched / denominator``, the precision (``denominator``: the predicted boundaries, ``other``
    the initial or reference ones) or the recall (the other way round) of two boundary sets;
    :func:`empty_ratio` when the denominator set is empty.

    >>> boundary_ratio(1, 4, 2), boundary_ratio(0, 0, 0), boundary_ratio(0, 0, 2)
    (0.25, 1.0, 0.0)
    """
    return matched / denominator if denominator > 0 else empty_ratio(other)


def empty_ratios(other: ArrayLike) -> np.ndarray:
    """:func:`empty_ratio` element by element: the same two constants, chosen by the same test."""
    return np.where(np.asarray(other) == 0, BOTH_EMPTY, ONE_EMPTY)


def with_empty_rule(ratios: ArrayLike, denominator: ArrayLike, other: ArrayLike) -> np.ndarray:
    """``ratios`` where the ``denominator`` set is not empty, the zero rule (:func:`empty_ratios`
    of ``other``) where it is: for ratios computed elsewhere (an expected precision), broadcast
    together."""
    return np.where(np.asarray(denominator) > 0, ratios, empty_ratios(other))


def boundary_ratios(matched: ArrayLike, denominator: ArrayLike, other: ArrayLike) -> np.ndarray:
    """:func:`boundary_ratio` element by element (of arrays broadcast together), as floats.

    >>> boundary_ratios([1, 0, 0], [4, 0, 0], [2, 0, 2]).tolist()
    [0.25, 1.0, 0.0]
    """
    den = np.asarray(denominator)
    return with_empty_rule(np.true_divide(matched, np.maximum(den, 1)), den, other).astype(float, copy=False)


def match_boundaries(
    reference: Sequence[int], hypothesis: Sequence[int], tolerance: float = 0
) -> list[tuple[int, int]]:
    """Maximum one-to-one matching of two sorted boundary lists within ``tolerance`` units.

    A reference boundary ``r`` and a hypothesis boundary ``h`` may be matched when
    ``|r - h| <= tolerance``. Every window has the same width, so the left-to-right two-pointer
    sweep below is a maximum matching (exchange argument: matching the leftmost compatible pair
    never blocks a larger matching). The number of matched pairs is therefore monotone
    (non-decreasing) in ``tolerance``. With ``tolerance=0`` it is the set intersection.

    Cost: O(len(reference) + len(hypothesis)).

    Returns
    -------
    list of (int, int)
        The matched ``(reference, hypothesis)`` pairs, in increasing order.

    Examples
    --------
    >>> match_boundaries([3, 7], [4, 9], tolerance=1)
    [(3, 4)]
    >>> match_boundaries([1, 2], [2, 3], tolerance=1)
    [(1, 2), (2, 3)]
    """
    if tolerance == 0:
        common = sorted(set(reference).intersection(hypothesis))
        return [(b, b) for b in common]
    pairs = []
    i = j = 0
    while i < len(reference) and j < len(hypothesis):
        r, h = reference[i], hypothesis[j]
        if abs(r - h) <= tolerance:
            pairs.append((r, h))
            i += 1
            j += 1
        elif h < r:
            j += 1
        else:
            i += 1
    return pairs


def count_matches(reference: Sequence[int], hypothesis: Sequence[int], tolerance: float = 0) -> int:
    """Size of the maximum one-to-one matching (see :func:`match_boundaries`)."""
    if tolerance == 0:
        return int(np.intersect1d(reference, hypothesis, assume_unique=True).size)
    return len(match_boundaries(reference, hypothesis, tolerance))


def expected_intersection(n_reference: int, n_gaps: int, sizes: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The chance level with no tolerance, written once: for each ``m`` of ``sizes``, ``m`` gaps
    drawn uniformly without replacement from ``n_gaps`` hold on average ``E[X] = m r / G`` of the
    ``r = n_reference`` fixed ones (the mean of the hypergeometric law), so the expected precision
    is ``E[X] / m = r / G`` and the expected recall ``E[X] / r = m / G``.

    Returns ``(E[X], E[X] / m, E[X] / r)`` per size, each the exact value rounded once (Python's
    integer division is correctly rounded at any size: no product overflows, and the precision is
    not ``E[X]`` rounded then divided). The precision means nothing where ``m = 0`` and the recall
    where ``r = 0``: the zero rule (:func:`with_empty_rule`) decides there. :func:`expected_matches` (and so
    :func:`stability.metrics.expected_f1`) reads the first, :func:`stability.scores.chance_scores`
    the other two.

    Examples
    --------
    >>> [a.tolist() for a in expected_intersection(2, 8, [3, 4])]  # 2 fixed gaps of 8: 3 * 2 / 8, 4 * 2 / 8
    [[0.75, 1.0], [0.25, 0.25], [0.375, 0.5]]
    """
    drawn = [int(m) for m in np.asarray(sizes, dtype=np.int64).ravel().tolist()]
    r, g = int(n_reference), int(n_gaps)
    return (np.array([m * r / g for m in drawn], dtype=float), np.full(len(drawn), r / g),
            np.array([m / g for m in drawn], dtype=float))


#: Most gaps :func:`expected_matches` steps through one by one (those within the tolerance of a
#: reference boundary, and the short stretches between them), and most (gap, count) cells it
#: updates: bounds on its time.
MAX_STEPPED = 2**24
MAX_CELLS = 2**32


def expected_matches(reference: Sequence[int], n_gaps: int, tolerance: int, sizes: ArrayLike) -> np.ndarray:
    """Expected size of the maximum one-to-one matching (:func:`count_matches`) between
    ``reference`` (sorted) and ``m`` boundaries drawn uniformly without replacement from the gaps
    ``1..n_gaps``, for each ``m`` of ``sizes``; exact, at any tolerance.

    With no tolerance the matching is the intersection, hypergeometric: ``m len(reference) /
    n_gaps``. From a tolerance of ``n_gaps - 1`` on every pair is in reach: ``min(m,
    len(reference))``. Otherwise a dynamic programme over the gaps, left to right, following the
    sweep of :func:`match_boundaries`: a drawn gap ``g`` is matched to the first reference not yet
    matched that is at least ``g - tolerance``, when that one is at most ``g + tolerance``. The
    state is the index of that reference (the references before it are matched or out of reach, so
    at gap ``g`` it is one of the references within ``tolerance`` of ``g``, or the one after them)
    and how many boundaries were drawn so far; the programme holds for each the probability of the
    state and the expected matches so far (normalised per count, so no binomial coefficient
    overflows). Only the states a gap can reach are held: those from the previous gap's first
    reference in reach to its last (every state before is empty from then on, every state after
    not yet reached), so memory is ``O(max(sizes) * (2 + r))``, not ``O(max(sizes) *
    len(reference))`` (about 150 MB for a 30,000-unit document with 3,000 boundaries before).

    A long stretch of gaps out of reach of every reference (longer than ``2 max(sizes) + 64``,
    for at most 4,095 boundaries drawn) changes no state: it is crossed in one step, the boundaries drawn before it mixed with those
    drawn in it by their hypergeometric law, so the cost depends on the references and the
    tolerance, not on ``n_gaps``: ``O(s * max(sizes) * (1 + r) + (len(reference) + 1) *
    max(sizes)**2)`` for ``s`` the gaps stepped through (those within ``tolerance`` of a reference
    and the short stretches between them; more than :data:`MAX_STEPPED`, or more than
    :data:`MAX_CELLS` ``s * (max(sizes) + 1)``, are refused) and ``r``
    the most references within ``tolerance`` of a gap. Without such a stretch the values are, to
    the last bit, those of the programme stepping through every gap.

    Examples
    --------
    >>> expected_matches([3], 4, 1, [1, 2]).tolist()  # gaps 2, 3, 4 of 1..4 reach 3
    [0.75, 1.0]
    >>> expected_matches([2, 5], 6, 0, [3]).tolist()  # hypergeometric: 2 * 3 / 6
    [1.0]
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    if sizes.size and (sizes.min() < 0 or sizes.max() > n_gaps):
        raise ValueError(f"sizes must lie in [0, n_gaps = {n_gaps}]; received {sizes.tolist()}")
    top = int(sizes.max()) if sizes.size else 0
    ref = np.asarray(reference, dtype=np.int64)
    if ref.size == 0 or n_gaps == 0:
        return np.zeros(sizes.size)
    if tolerance == 0:
        return expected_intersection(ref.size, n_gaps, sizes)[0]
    if tolerance >= n_gaps - 1:  # also any Python int beyond int64
        return np.minimum(sizes, ref.size).astype(float)
    gaps, crossings = _stepped_gaps(ref, n_gaps, tolerance, top)
    firsts = np.searchsorted(ref, gaps - tolerance)  # the references before it are out of reach
    lasts = np.searchsorted(ref, gaps + tolerance, side="right")  # the state is at most this
    # rows: the states low.., low the first state not empty (row 0 is state ``low``); columns: k,
    # the boundaries drawn among the gaps so far. P(state | k) and E[matches so far; state | k]
    width = 1 + int((lasts - np.concatenate(([0], firsts[:-1]))).max())
    prob = np.zeros((width, top + 1))
    prob[0, 0] = 1.0
    gain = np.zeros_like(prob)
    k = np.arange(1, top + 1, dtype=float)
    low = 0
    for step, (gap, first, last) in enumerate(zip(gaps.tolist(), firsts.tolist(), lasts.tolist())):
        if step in crossings:
            _cross(prob, gain, *crossings[step])
        if first > low:  # the states before ``first`` are out of reach: merged into it, dropped
            moved = first - low
            prob[moved] += prob[:moved].sum(axis=0)
            gain[moved] += gain[:moved].sum(axis=0)
            prob[:-moved], gain[:-moved] = prob[moved:].copy(), gain[moved:].copy()
            prob[-moved:] = gain[-moved:] = 0.0
            low = first
        p, e = prob[:last - low + 1], gain[:last - low + 1]
        # C(gap-1, k-1) / C(gap, k) the gap drawn: a state before ``last`` matches its reference
        drawn_factor = k / gap
        drawn_p = p[:, :-1] * drawn_factor
        drawn_e = e[:, :-1] * drawn_factor
        drawn_e[:-1] += drawn_p[:-1]
        # C(gap-1, k) / C(gap, k) the gap not drawn: the state stays
        kept_factor = (gap - k) / gap
        p[:, 1:] *= kept_factor
        e[:, 1:] *= kept_factor
        p[1:, 1:] += drawn_p[:-1]
        p[-1, 1:] += drawn_p[-1]
        e[1:, 1:] += drawn_e[:-1]
        e[-1, 1:] += drawn_e[-1]
    if gaps.size in crossings:
        _cross(prob, gain, *crossings[gaps.size])
    # summed over every state, laid out as ``table[:, sizes]`` of the whole table is (column-major),
    # with its empty states as zeros: numpy sums such a column pairwise, so the layout and the
    # zeros keep every value to the last bit
    held = min(width, ref.size + 1 - low)
    total_p = np.zeros((ref.size + 1, sizes.size), order="F")
    total_e = np.zeros_like(total_p)
    total_p[low:low + held] = prob[:held, sizes]
    total_e[low:low + held] = gain[:held, sizes]
    return total_e.sum(axis=0) / total_p.sum(axis=0)


def _stepped_gaps(ref: np.ndarray, n_gaps: int, tolerance: int, top: int) -> tuple[np.ndarray, dict[int, tuple[int, int]]]:
    """The gaps :func:`expected_matches` steps through, in order, and the long stretches out of
    reach of every reference it crosses in one step: ``{i: (before, length)}`` for a stretch of
    ``length`` gaps after gap ``before``, crossed before the ``i``-th gap stepped through (``i`` =
    the number of gaps stepped through for a stretch at the end). A stretch is crossed when it is
    longer than ``2 top + 64`` gaps (a shorter one is stepped through: cheaper, and every bit kept)
    and the crossing's table of ``(top + 1)**2`` probabilities is at most :data:`MAX_STEPPED`."""
    longest = 2 * top + 64 if (top + 1) ** 2 <= MAX_STEPPED else n_gaps
    pieces: list[np.ndarray] = []
    crossings: dict[int, tuple[int, int]] = {}
    stepped = done = 0  # gaps stepped through so far; the last gap placed (stepped or crossed)

    def step(start: int, end: int) -> None:  # the gaps start .. end, stepped through
        nonlocal stepped
        stepped += end - start + 1
        if stepped > MAX_STEPPED or stepped * (top + 1) > MAX_CELLS:
            raise InvalidParameterError(
                f"the expected matches of {top:,} boundaries within a tolerance of {tolerance:,} units would step "
                f"through more than {stepped:,} of the {n_gaps:,} gaps (those within reach of the {ref.size:,} "
                "reference boundaries and the stretches between them); at most 2**24 gaps and 2**32 (gap, count) "
                "cells are computed (use a smaller tolerance or fewer boundaries)")
        pieces.append(np.arange(start, end + 1, dtype=np.int64))

    def stretch(end: int) -> None:  # the gaps done+1 .. end-1, out of reach
        length = end - 1 - done
        if length > longest:
            crossings[stepped] = (done, length)
        elif length > 0:
            step(done + 1, end - 1)

    starts = np.maximum(ref - tolerance, 1).tolist()
    ends = np.minimum(ref + tolerance, n_gaps).tolist()
    i = 0
    while i < len(starts):  # the windows of reach, overlapping ones merged
        start, end = starts[i], ends[i]
        while i + 1 < len(starts) and starts[i + 1] <= end + 1:
            i += 1
            end = max(end, ends[i])
        stretch(start)
        step(start, end)
        done = end
        i += 1
    stretch(n_gaps + 1)
    return np.concatenate(pieces), crossings


def _cross(prob: np.ndarray, gain: np.ndarray, before: int, length: int) -> None:
    """Cross ``length`` gaps out of reach after gap ``before``, in place: no state changes, and the
    ``k`` boundaries drawn among the first ``before + length`` gaps hold ``i`` among the first
    ``before`` with probability ``C(before, i) C(length, k - i) / C(before + length, k)``."""
    top = prob.shape[1] - 1
    mix = np.zeros((top + 1, top + 1))
    for k in range(min(top, before + length) + 1):
        lo, pmf = hypergeometric_pmf(before + length, k, before)
        mix[k, lo:lo + pmf.size] = pmf
    prob[:] = prob @ mix.T
    gain[:] = gain @ mix.T
