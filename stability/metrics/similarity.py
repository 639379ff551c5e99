"""Fournier's boundary-edit-distance metrics: Boundary Similarity (B) and Segmentation Similarity (S).

Single boundary type. Boundary edit distance (Fournier 2013) compares the two boundary sets
position by position (over the ``n-1`` potential boundaries, the gaps) with three edits:

* a **match**: both sides have a boundary at the same gap;
* a **near miss (transposition)**: a boundary of one side and a boundary of the other at
  distance ``d <= n_t - 1`` gaps, neither matched, costing ``d / n_t`` (scale weighting);
* a **full miss (addition)**: any remaining boundary of either side, costing 1.

Transpositions are identified exactly as segeval 2.0.11 does: for span ``d = 1, 2, ..., n_t-1``
in turn, scan the gaps left to right and pair position ``i`` with ``i+d`` when both differ
between the sides, the boundary at ``i`` and at ``i+d`` belong to different sides, and neither
position is already used by a transposition. Then, with ``M`` matches, ``A`` additions and
``T`` transpositions of total weight ``w_T``::

    B = (M + T - w_T) / (M + A + T)            (1 when there is nothing to compare)
    S = 1 - (A + w_T) / (n - 1)

segeval raises ``ValueError`` when neither side has a boundary; B = S = 1.0 here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union, overload

import numpy as np

from ..exceptions import InvalidParameterError
from ..segmentation import Segmentation
from ._common import check_int, pair, with_parts

__all__ = ["EditCounts", "boundary_edit_counts", "boundary_similarity", "segmentation_similarity"]


@dataclass(frozen=True)
class EditCounts:
    """Boundary edit distance between two single-type segmentations.

    ``value`` is the metric the object was returned by (B or S; ``nan`` for
    :func:`boundary_edit_counts`). ``transpositions`` lists ``(gap_i, gap_j)`` pairs (0-based gap
    indices, ``i < j``); ``transposition_weight`` is the sum of ``(j - i) / n_t``.
    """

    value: float
    matches: int
    additions: int
    transpositions: tuple[tuple[int, int], ...]
    transposition_weight: float
    potential_boundaries: int
    n_t: int

    @property
    def edits(self) -> float:
        """Weighted edit count: additions plus transposition weights."""
        return self.additions + self.transposition_weight


#: Most candidate near-miss pairs :func:`boundary_edit_counts` examines (memory bound).
MAX_PAIRS = 2**26


def _transpositions(ref_only: np.ndarray, hyp_only: np.ndarray, n_t: int) -> list[tuple[int, int]]:
    """segeval's greedy transposition search on the sparse set of differing positions.

    segeval pairs, for span 1, 2, ..., n_t-1 in turn and left to right, every two unused positions
    of opposite sides that far apart. The same order is the candidate pairs (opposite sides,
    distance < n_t) sorted by (span, left position), taken greedily: O(P log P) for P candidates,
    at most ``D min(D, n_t)`` with D the number of positions where the sides differ (P is about D
    for the default n_t = 2; more than :data:`MAX_PAIRS` is refused).
    """
    if ref_only.size == 0 or hyp_only.size == 0 or n_t < 2:
        return []
    positions = np.concatenate((ref_only, hyp_only))
    side = np.concatenate((np.zeros(ref_only.size, np.int8), np.ones(hyp_only.size, np.int8)))
    order = np.argsort(positions, kind="stable")
    positions, side = positions[order], side[order]
    reach = min(n_t - 1, int(positions[-1] - positions[0]))
    counts = np.searchsorted(positions, positions + reach, side="right") - np.arange(1, positions.size + 1)
    total = int(counts.sum())
    if total > MAX_PAIRS:
        raise InvalidParameterError(
            f"n_t={n_t} makes {total:,} candidate near misses among {positions.size:,} differing "
            f"boundaries; at most 2**26 are examined (use a smaller n_t)"
        )
    left = np.repeat(np.arange(positions.size), counts)
    right = left + 1 + np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    keep = side[left] != side[right]
    left, right = left[keep], right[keep]
    by_span = np.lexsort((positions[left], positions[right] - positions[left]))
    used = [False] * positions.size
    found: list[tuple[int, int]] = []
    pos = positions.tolist()
    for t, u in zip(left[by_span].tolist(), right[by_span].tolist()):
        if not (used[t] or used[u]):
            used[t] = used[u] = True
            found.append((pos[t], pos[u]))
    return found


def boundary_edit_counts(reference: Any, hypothesis: Any, n_t: int = 2) -> EditCounts:
    """Matches, additions and transpositions of the boundary edit distance (segeval's rules).

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first (segeval's
        ``boundary_edit_distance(a, b)`` names its sides a and b; additions count from both).
    n_t : int, default 2
        Largest transposition span plus one, in gaps (segeval's ``n_t``; ``>= 1``; 1 disables
        near misses).

    Returns
    -------
    EditCounts
        With ``value = nan``.

    Notes
    -----
    O(P log P) with P <= (|R| + |H|) min(|R| + |H|, n_t) candidate near misses (about
    |R| + |H| for ``n_t = 2``).

    Examples
    --------
    >>> from stability import Segmentation
    >>> e = boundary_edit_counts(Segmentation([3, 7], 9), Segmentation([2, 8], 9))  # two near misses
    >>> (e.matches, e.additions, len(e.transpositions), e.transposition_weight)
    (0, 0, 2, 1.0)
    """
    ref, hyp = pair(reference, hypothesis)
    nt = check_int(n_t, "n_t")
    if nt < 1:
        raise InvalidParameterError.make("n_t", "an integer >= 1", n_t)
    r, h = ref.boundary_array() - 1, hyp.boundary_array() - 1  # gap indices
    matches = int(np.intersect1d(r, h, assume_unique=True).size)
    ref_only = np.setdiff1d(r, h, assume_unique=True)
    hyp_only = np.setdiff1d(h, r, assume_unique=True)
    found = _transpositions(ref_only, hyp_only, nt)
    additions = int(ref_only.size + hyp_only.size) - 2 * len(found)
    weight = sum(j - i for i, j in found) / nt
    return EditCounts(float("nan"), matches, additions, tuple(found), weight, ref.n_units - 1, nt)


def _with_value(counts: EditCounts, value: float) -> EditCounts:
    return EditCounts(value, counts.matches, counts.additions, counts.transpositions,
                      counts.transposition_weight, counts.potential_boundaries, counts.n_t)


@overload
def boundary_similarity(reference: Segmentation, hypothesis: Segmentation, n_t: int = 2, *,
                        return_parts: Literal[False] = False) -> float: ...
@overload
def boundary_similarity(reference: Segmentation, hypothesis: Segmentation, n_t: int = 2, *,
                        return_parts: Literal[True]) -> EditCounts: ...
@overload
def boundary_similarity(reference: Segmentation, hypothesis: Segmentation, n_t: int = 2, *,
                        return_parts: bool) -> float | EditCounts: ...


def boundary_similarity(reference: Any, hypothesis: Any, n_t: int = 2, *, return_parts: bool = False
                        ) -> Union[float, EditCounts]:
    """Boundary Similarity B (Fournier 2013), equal to segeval 2.0.11's ``boundary_similarity``.

    ``B = (M + T - w_T) / (M + A + T)``: the share of boundary pairs that match, a near miss
    counting ``1 - d / n_t`` (see the module docstring for the edit rules). B is symmetric.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first. B is symmetric,
        so the order does not change the value; segeval's ``boundary_similarity(segmentation_a,
        segmentation_b)`` is usually called (hypothesis, reference), the other way round.
    n_t : int, default 2
        Near-miss span limit (segeval's default 2: adjacent gaps only).
    return_parts : bool, default False
        Return the :class:`EditCounts` with ``value`` set.

    Returns
    -------
    float
        B in ``[0, 1]``; 1.0 when neither side has a boundary (segeval raises there).

    Notes
    -----
    O((|R| + |H|) log(|R| + |H|)) for ``n_t = 2``.

    Examples
    --------
    >>> from stability import Segmentation
    >>> ref = Segmentation.from_masses([8, 13, 3])         # blog seed a_3: 1 match, 2 full misses
    >>> boundary_similarity(ref, Segmentation.from_masses([10, 11, 3]))
    0.3333333333333333
    >>> boundary_similarity(Segmentation([3, 7], 9), Segmentation([2, 8], 9))   # two near misses
    0.5
    """
    counts = boundary_edit_counts(reference, hypothesis, n_t)
    t = len(counts.transpositions)
    den = counts.matches + counts.additions + t
    spans = sum(j - i for i, j in counts.transpositions)
    # exact integer ratio ((M + T) n_t - sum of spans) / ((M + A + T) n_t), correctly rounded
    value = 1.0 if den == 0 else ((counts.matches + t) * counts.n_t - spans) / (den * counts.n_t)
    return with_parts(_with_value(counts, value), return_parts)


@overload
def segmentation_similarity(reference: Segmentation, hypothesis: Segmentation, n_t: int = 2, *,
                            return_parts: Literal[False] = False) -> float: ...
@overload
def segmentation_similarity(reference: Segmentation, hypothesis: Segmentation, n_t: int = 2, *,
                            return_parts: Literal[True]) -> EditCounts: ...
@overload
def segmentation_similarity(reference: Segmentation, hypothesis: Segmentation, n_t: int = 2, *,
                            return_parts: bool) -> float | EditCounts: ...


def segmentation_similarity(reference: Any, hypothesis: Any, n_t: int = 2, *, return_parts: bool = False
                            ) -> Union[float, EditCounts]:
    """Segmentation Similarity S (Fournier & Inkpen 2012), equal to segeval 2.0.11's.

    ``S = 1 - (A + w_T) / (n - 1)``: one minus the weighted boundary edits per potential
    boundary (gap). S is symmetric.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first. S is symmetric,
        so the order does not change the value (segeval's ``segmentation_similarity`` names them
        ``segmentation_a, segmentation_b``).
    n_t : int, default 2
        Near-miss span limit.
    return_parts : bool, default False
        Return the :class:`EditCounts` with ``value`` set.

    Returns
    -------
    float
        S in ``[0, 1]``; 1.0 when neither side has a boundary or the document has one unit.

    Notes
    -----
    O((|R| + |H|) log(|R| + |H|)) for ``n_t = 2``.

    Examples
    --------
    >>> from stability import Segmentation
    >>> ref, hyp = Segmentation.from_masses([8, 13, 3]), Segmentation.from_masses([10, 11, 3])
    >>> round(segmentation_similarity(ref, hyp), 4)   # 1 - 2 / 23
    0.913
    """
    counts = boundary_edit_counts(reference, hypothesis, n_t)
    pb = counts.potential_boundaries
    spans = sum(j - i for i, j in counts.transpositions)
    nt = counts.n_t
    # exact integer ratio (pb n_t - A n_t - sum of spans) / (pb n_t), correctly rounded
    value = 1.0 if pb == 0 else (pb * nt - counts.additions * nt - spans) / (pb * nt)
    return with_parts(_with_value(counts, value), return_parts)
