"""Boundary-level metrics: precision / recall / F1 with a tolerance, and nltk's GHD.

Both work on the sorted boundary positions only (segment starts ``b``, see
:mod:`stability.segmentation`); their cost depends on the numbers of boundaries, not on ``n``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Literal, Union, overload

import numpy as np

from ..exceptions import InvalidParameterError
from ..matching import boundary_ratio, count_matches, match_boundaries
from ..segmentation import Segmentation
from ._common import check_int, check_real, check_times, harmonic, pair, with_parts

__all__ = ["BoundaryPRF", "ChanceCorrectedF1", "GHDResult", "boundary_prf", "chance_corrected_f1", "ghd"]


@dataclass(frozen=True)
class BoundaryPRF:
    """Boundary precision, recall and F1 with their counts.

    Iterating yields ``(precision, recall, f1)`` so ``p, r, f = boundary_prf(...)`` works.
    """

    precision: float
    recall: float
    f1: float
    matches: int
    n_reference: int
    n_hypothesis: int
    tolerance: float

    def __iter__(self) -> Iterator[float]:
        return iter((self.precision, self.recall, self.f1))


@dataclass(frozen=True)
class GHDResult:
    """Parts of GHD: the cost and the boundary counts it was computed from."""

    value: float
    n_reference: int
    n_hypothesis: int


def boundary_prf(reference: Segmentation, hypothesis: Segmentation, tolerance: float = 0, *,
                 times: Any = None) -> BoundaryPRF:
    """Boundary precision, recall and F1 with one-to-one matching within a tolerance.

    A reference boundary ``r`` and a hypothesis boundary ``h`` may be paired when
    ``|r - h| <= tolerance`` (units); each boundary is used at most once and the matching is a
    **maximum** one (:func:`stability.matching.match_boundaries`), so the scores never decrease
    when the tolerance grows (ruptures' greedy matching is not monotone; see
    ``metrics-peers.md`` section 4). With ``M`` matched pairs::

        precision = M / |H|,   recall = M / |R|,   F1 = 2 P R / (P + R)

    as in Lamprier et al. (2007) section 3 and Bouchekif et al. (section 2, with a time
    tolerance). Zero divisions follow the project's rule: 0/0 is 1.0 when both sides have no
    boundary, 0.0 otherwise (so a hypothesis without boundaries against a non-empty reference has
    precision 0.0, not pyannote's 1.0); F1 is 0.0 when P = R = 0.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first; swapping them
        swaps precision and recall. nltk has no boundary P/R. Note: segeval's
        ``boundary_confusion_matrix(hypothesis, reference)`` takes the arguments the other way
        round.
    tolerance : int or float, default 0
        Largest distance between matched boundaries (``>= 0``; 0 = exact match): an integer
        number of units, or seconds when ``times`` is given.
    times : array-like of shape (n_units, 2), optional
        Per-unit ``(start, end)`` times. Boundary ``b`` is then placed at the start time of unit
        ``b`` (the start of the segment it opens) and ``tolerance`` is in seconds, as in
        Bouchekif et al.'s evaluation (10 s tolerance).

    Returns
    -------
    BoundaryPRF
        ``precision``, ``recall``, ``f1`` (floats in ``[0, 1]``) and the counts.

    Notes
    -----
    O(|R| + |H|) time (two-pointer sweep over the sorted boundaries; a sort when ``times`` are
    given).

    Examples
    --------
    >>> from stability import Segmentation
    >>> ref, hyp = Segmentation([3, 7], 9), Segmentation([2, 8], 9)
    >>> p, r, f = boundary_prf(ref, hyp)
    >>> (p, r, f)
    (0.0, 0.0, 0.0)
    >>> boundary_prf(ref, hyp, tolerance=1).f1
    1.0
    """
    ref, hyp = pair(reference, hypothesis)
    if times is None:
        tol: float = check_int(tolerance, "tolerance")
        if tol < 0:
            raise InvalidParameterError.make("tolerance", "an integer >= 0", tolerance)
        m = count_matches(ref.boundaries, hyp.boundaries, tol)
    else:
        tol = check_real(tolerance, "tolerance", low=0.0)
        starts = _unit_starts(times, ref.n_units)
        rt = np.sort(starts[ref.boundary_array()]).tolist()
        ht = np.sort(starts[hyp.boundary_array()]).tolist()
        m = len(match_boundaries(rt, ht, tol)) if tol > 0 else _count_equal(rt, ht)
    nr, nh = ref.n_boundaries, hyp.n_boundaries
    precision = boundary_ratio(m, nh, nr)
    recall = boundary_ratio(m, nr, nh)
    return BoundaryPRF(precision, recall, harmonic(precision, recall), m, nr, nh, tol)


@dataclass(frozen=True)
class ChanceCorrectedF1:
    """Parts of :func:`chance_corrected_f1`: the value, the observed F1 and its expectation."""

    value: float
    f1: float
    expected_f1: float
    tolerance: int


#: How close to 1 an expected F1 computed in floating point is taken as 1 (every placement of the
#: boundaries matches them all): below it ``1 - E[F1]`` is rounding, not a chance of missing.
FORCED = 1e-12


@overload
def chance_corrected_f1(reference: Segmentation, hypothesis: Segmentation, tolerance: int = 0, *,
                        return_parts: Literal[False] = False) -> float: ...
@overload
def chance_corrected_f1(reference: Segmentation, hypothesis: Segmentation, tolerance: int = 0, *,
                        return_parts: Literal[True]) -> ChanceCorrectedF1: ...
@overload
def chance_corrected_f1(reference: Segmentation, hypothesis: Segmentation, tolerance: int = 0, *,
                        return_parts: bool) -> float | ChanceCorrectedF1: ...


def chance_corrected_f1(reference: Any, hypothesis: Any, tolerance: int = 0, *,
                        return_parts: bool = False) -> Union[float, ChanceCorrectedF1]:
    """Boundary F1 corrected for chance: ``(F1 - E[F1]) / (1 - E[F1])``.

    ``F1`` is :func:`boundary_prf`'s (maximum one-to-one matching within ``tolerance`` units) and
    ``E[F1]`` its expectation (:func:`~stability.metrics.expected_f1`, exact) when the hypothesis's
    ``h`` boundaries are placed at random: **random** is where they lie, every set of ``h`` of the
    ``n - 1`` gaps equally likely; **fixed** are the reference, ``n``, ``h`` and the tolerance. The
    correction is the one of the harness's chance-corrected stability F1 (``corrected_f1``) and of
    Cohen's kappa: 0 for a hypothesis no better than its boundary count placed at random, 1 for a
    perfect one, negative below chance. A hypothesis with many boundaries meets many reference
    boundaries by chance, more so within a tolerance (40 boundaries in 100 gaps give an F1 within
    one unit well above 0.5 wherever they lie); this score gives no credit for that.

    Edge cases. A hypothesis without boundaries against a reference with some (or the other way
    round) has F1 = E[F1] = 0: the value is 0. When ``E[F1] = 1`` every placement matches every
    boundary (no boundary on either side, or as many as gaps on both, or a tolerance that reaches
    everywhere), so the F1 is 1 and says nothing about the hypothesis: the value is NaN, as the
    harness's ``corrected_f1`` is when its chance level is 1 (corpus means leave it out). An
    expected F1 within 1e-12 of 1 is taken as 1 (rounding of the exact computation).

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first (neither nltk nor
        segeval has this score; segeval's metrics take the hypothesis first). The expectation
        keeps the reference and moves the hypothesis; swapping them changes nothing with no
        tolerance, and may change the value with one.
    tolerance : int, default 0
        Largest distance in units between matched boundaries (``>= 0``); the same for the F1 and
        its expectation.
    return_parts : bool, default False
        Return a :class:`ChanceCorrectedF1` (value, F1, expected F1, tolerance).

    Returns
    -------
    float
        At most 1; ``-E[F1] / (1 - E[F1])`` at worst; NaN when ``E[F1] = 1``.

    Notes
    -----
    O(|R| + |H|) for the F1; the expectation is O(1) with no tolerance and, with one, a dynamic
    programme whose cost depends on the boundaries and the tolerance, not on ``n``
    (:func:`stability.matching.expected_matches`).

    Examples
    --------
    >>> from stability import Segmentation
    >>> ref, hyp = Segmentation([3, 7], 9), Segmentation([3, 6], 9)
    >>> chance_corrected_f1(ref, hyp)          # F1 = 0.5, E[F1] = 0.25: (0.5 - 0.25) / 0.75
    0.3333333333333333
    >>> round(chance_corrected_f1(ref, hyp, tolerance=1), 12)  # F1 = 1, E[F1] = 9 / 14
    1.0
    """
    from .expectation import expected_f1

    ref, hyp = pair(reference, hypothesis)
    tol = check_int(tolerance, "tolerance")
    if tol < 0:
        raise InvalidParameterError.make("tolerance", "an integer >= 0", tolerance)
    f1 = boundary_prf(ref, hyp, tol).f1
    expected = expected_f1(ref, hyp.n_boundaries, tol)
    value = float("nan") if expected >= 1.0 - FORCED else (f1 - expected) / (1.0 - expected)
    return with_parts(ChanceCorrectedF1(value, f1, expected, tol), return_parts)


def _unit_starts(times: Any, n_units: int) -> np.ndarray:
    """Start time of every unit from per-unit ``(start, end)`` times (validated)."""
    return check_times(times, n_units)[:, 0]


def _count_equal(a: list[float], b: list[float]) -> int:
    """Size of the one-to-one matching of equal values in two sorted lists (multiset intersection)."""
    i = j = m = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            m, i, j = m + 1, i + 1, j + 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1
    return m


def _ghd_dp(hyp: np.ndarray, ref: np.ndarray, ins_cost: float, del_cost: float, coeff: float) -> float:
    """nltk's GHD dynamic programme, one row (hypothesis boundary) at a time, vectorized.

    ``hyp`` and ``ref`` are integer positions (distances and equality are then exact at any size).

    ``mat[i+1, j+1] = min(t, coeff |h_i - r_j| + mat[i, j])`` with ``t = mat[i, j]`` if
    ``h_i == r_j``, ``del + mat[i, j+1]`` if ``h_i > r_j`` and ``ins + mat[i+1, j]`` if
    ``h_i < r_j``. The columns with ``r_j <= h_i`` (a prefix, the reference being sorted) only
    read the previous row. On the remaining columns the row satisfies
    ``x[j+1] = min(ins + x[j], c[j])``, i.e. ``x[j] - ins j`` is a running minimum, computed by
    ``np.minimum.accumulate``.
    """
    nr = ref.size
    ins_steps = ins_cost * np.arange(nr + 1, dtype=np.float64)
    prev = ins_steps.copy()  # mat[0, :]
    cur = np.empty(nr + 1)
    shift = np.empty(nr)
    splits = np.searchsorted(ref, hyp, side="right").tolist()  # r_j <= h_i for j < split
    ref_list = ref.tolist()
    for i, (h, split) in enumerate(zip(hyp.tolist(), splits)):
        cur[0] = del_cost * (i + 1)
        np.subtract(ref, h, out=shift, casting="unsafe")  # exact integer distance, then a float
        np.abs(shift, out=shift)
        if coeff != 1.0:
            shift *= coeff
        shift += prev[:-1]
        if split:
            # deletion from the cell above, except where the positions coincide (only j = split-1)
            left = cur[1 : split + 1]
            np.add(prev[1 : split + 1], del_cost, out=left)
            if ref_list[split - 1] == h:
                left[-1] = prev[split - 1]
            np.minimum(left, shift[:split], out=left)
        if split < nr:
            # x[j+1] = min(ins + x[j], c[j]) for j >= split, starting from x[split]
            offset = ins_steps[split + 1 :]
            candidates = shift[split:] - offset
            candidates[0] = min(candidates[0], cur[split] + ins_cost - offset[0])
            np.minimum.accumulate(candidates, out=candidates)
            np.add(candidates, offset, out=cur[split + 1 :])
        prev, cur = cur, prev
    return float(prev[-1])


@overload
def ghd(reference: Segmentation, hypothesis: Segmentation, ins_cost: float = 2.0, del_cost: float = 2.0,
        shift_cost_coeff: float = 1.0, *, return_parts: Literal[False] = False) -> float: ...
@overload
def ghd(reference: Segmentation, hypothesis: Segmentation, ins_cost: float = 2.0, del_cost: float = 2.0,
        shift_cost_coeff: float = 1.0, *, return_parts: Literal[True]) -> GHDResult: ...
@overload
def ghd(reference: Segmentation, hypothesis: Segmentation, ins_cost: float = 2.0, del_cost: float = 2.0,
        shift_cost_coeff: float = 1.0, *, return_parts: bool) -> float | GHDResult: ...


def ghd(reference: Any, hypothesis: Any, ins_cost: float = 2.0, del_cost: float = 2.0,
        shift_cost_coeff: float = 1.0, *, return_parts: bool = False) -> Union[float, GHDResult]:
    """Generalized Hamming Distance (Bookstein, Kulyukin & Raita 2002) as nltk computes it.

    The cost of turning the hypothesis boundaries into the reference ones by insertions
    (``ins_cost``, charged for a reference boundary missing from the hypothesis), deletions
    (``del_cost``, for an extra hypothesis boundary) and shifts (``shift_cost_coeff * |i - j|``),
    by nltk's dynamic programme over (hypothesis boundary, reference boundary) pairs, which this
    function reproduces exactly (walk-through in the practitioner's blog, seed 003). The result
    is an unnormalized cost (0 = identical). Boundary positions only matter through their
    differences, so nltk's gap indices and this project's segment starts give the same value.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first as in nltk's
        ``ghd(ref, hyp)`` (segeval has no GHD); swapping them swaps the roles of ``ins_cost``
        and ``del_cost`` (the same value with the equal defaults). There is no
        length cap (nltk 3.10.4 refuses gap strings longer than 10,000).
    ins_cost, del_cost : float, default 2.0
        Insertion and deletion costs (``>= 0``); ``ins_cost`` times the number of reference
        boundaries and ``del_cost`` times the number of hypothesis boundaries must stay below
        2**53, where float64 still counts in units (larger costs are refused).
    shift_cost_coeff : float, default 1.0
        Cost per unit of shift (``>= 0``).
    return_parts : bool, default False
        Return a :class:`GHDResult`.

    Returns
    -------
    float
        The GHD cost, ``>= 0``. Equal to nltk's ``ghd(ref.gaps, hyp.gaps, ...)`` (exactly for
        costs that are integers or binary fractions; to rounding otherwise, as the row minimum
        is computed in a different but mathematically equal order).

    Notes
    -----
    O(|R| |H|) time, vectorized over reference boundaries (one numpy pass per hypothesis
    boundary), O(|R|) memory.

    Examples
    --------
    >>> from stability import Segmentation
    >>> ref = Segmentation.from_masses([8, 13, 3])             # blog seed: boundaries 8 and 21
    >>> ghd(ref, Segmentation.from_masses([10, 11, 3]))   # a_3: first boundary shifted by 2 -> 2
    2.0
    >>> ghd(ref, Segmentation.from_masses([15, 6, 3]))    # a_4: a shift by 7 costs more than 2 + 2
    4.0
    """
    ref, hyp = pair(reference, hypothesis)
    ic = check_real(ins_cost, "ins_cost", low=0.0)
    dc = check_real(del_cost, "del_cost", low=0.0)
    sc = check_real(shift_cost_coeff, "shift_cost_coeff", low=0.0)
    r, h = ref.boundary_array(), hyp.boundary_array()
    if ic * r.size >= 2**53 or dc * h.size >= 2**53:
        raise InvalidParameterError(
            "ghd adds its costs in float64, so ins_cost x reference boundaries and del_cost x "
            f"hypothesis boundaries must stay below 2**53; received ins_cost={ic!r} for {r.size} and "
            f"del_cost={dc!r} for {h.size} boundaries"
        )
    if r.size == 0:
        value = float(h.size * dc)
    elif h.size == 0:
        value = float(r.size * ic)
    else:
        with np.errstate(over="ignore"):  # an infinite shift cost just loses to delete + insert
            value = _ghd_dp(h, r, ic, dc, sc)
    result = GHDResult(value, ref.n_boundaries, hyp.n_boundaries)
    return with_parts(result, return_parts)
