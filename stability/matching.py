"""One-to-one matching of boundaries within a tolerance (shared by the harness and the metrics)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["match_boundaries", "count_matches", "expected_matches"]


def match_boundaries(
    reference: Sequence[int], hypothesis: Sequence[int], tolerance: int = 0
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


def count_matches(reference: Sequence[int], hypothesis: Sequence[int], tolerance: int = 0) -> int:
    """Size of the maximum one-to-one matching (see :func:`match_boundaries`)."""
    if tolerance == 0:
        return int(np.intersect1d(reference, hypothesis, assume_unique=True).size)
    return len(match_boundaries(reference, hypothesis, tolerance))



def _sweep_step(state: tuple[int, int], is_reference: bool, is_hypothesis: bool,
                tolerance: int) -> tuple[tuple[int, int], int]:
    """One position of a left-to-right maximum matching: the state after it and the matches it
    adds. A state is the side holding unmatched points still in reach of what comes next (0
    none, 1 reference, 2 hypothesis) and a mask of their ages (bit ``i``: ``i + 1`` positions
    back); both sides never hold such points at once, as two of them would be in reach of each
    other and have been matched. A new point is matched to the oldest waiting point of the
    other side (earliest deadline first: a maximum matching when every window has the same
    width); a new point of each side with nothing waiting match each other; a point left
    unmatched waits."""
    side, mask = state
    gained, waits = 0, 0  # waits: the side of a new point left unmatched
    if is_reference and is_hypothesis:
        gained = 1
        if side:  # the new point of the other side takes the oldest waiting one; its twin waits
            mask &= ~(1 << (mask.bit_length() - 1))
            waits = side
    elif is_reference or is_hypothesis:
        new = 1 if is_reference else 2
        if side == 3 - new:
            mask &= ~(1 << (mask.bit_length() - 1))
            gained = 1
        else:
            waits = new
    mask = ((mask << 1) | (1 if waits else 0)) & ((1 << tolerance) - 1)
    side = (waits or side) if mask else 0
    return (side, mask), gained


def expected_matches(reference: Sequence[int], n_gaps: int, tolerance: int, sizes: Sequence[int]) -> np.ndarray:
    """Expected size of the maximum one-to-one matching (:func:`count_matches`) between
    ``reference`` and ``m`` boundaries drawn uniformly without replacement from the gaps ``1..n_gaps``,
    for each ``m`` of ``sizes``; exact, at any tolerance.

    A dynamic programme over the gaps, left to right, of the matching sweep's state
    (:func:`_sweep_step`: at most ``2^(tolerance+1) - 1`` states) and of how many boundaries were
    drawn so far, holding for each the probability of the state and the expected matches so far
    (normalised per count, so no binomial coefficient overflows). Cost: ``O(n_gaps * 4^tolerance
    * max(sizes))``.

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
    states = [(0, 0)] + [(side, m) for side in (1, 2) for m in range(1, 1 << tolerance)]
    index = {state: i for i, state in enumerate(states)}
    n = len(states)
    moves = {}  # (is_reference, drawn) -> the step on [probabilities; expected matches so far]
    for is_reference in (False, True):
        for drawn in (False, True):
            step = np.zeros((2 * n, 2 * n))
            for i, state in enumerate(states):
                after, gained = _sweep_step(state, is_reference, drawn, tolerance)
                j = index[after]
                step[j, i] = step[n + j, n + i] = 1.0  # the state moves, its matches with it
                step[n + j, i] = gained  # each way into it adds its matches
            moves[is_reference, drawn] = step
    # rows 0..n-1: P(state | k of the gaps so far drawn); rows n..2n-1: E[matches so far; state | k]
    values = np.zeros((2 * n, top + 1))
    values[0, 0] = 1.0
    shifted = np.zeros_like(values)
    k = np.arange(top + 1, dtype=float)
    marked = set(reference)
    for gap in range(1, n_gaps + 1):
        shifted[:, 1:] = values[:, :-1]
        # C(gap-1, k) / C(gap, k) the gap not drawn; C(gap-1, k-1) / C(gap, k) drawn
        values = (moves[gap in marked, False] @ values) * ((gap - k) / gap) + (moves[gap in marked, True] @ shifted) * (k / gap)
    return values[n:, sizes].sum(axis=0) / values[:n, sizes].sum(axis=0)
