"""One-to-one matching of boundaries within a tolerance (shared by the harness and the metrics)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["match_boundaries", "count_matches"]


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
