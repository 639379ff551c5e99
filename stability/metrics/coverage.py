"""Segment-retrieval metrics CovN and CovD (Bouchekif, Charlet, Damnati, Camelin & Estève).

For a reference segment ``R_i`` the matched hypothesis segment ``H_j`` is the one covering the
largest part of it; ``Cov(R_i -> H_j)`` is the share of ``R_i`` that overlaps ``H_j`` ("temporal
recall"), ``Cov(H_j -> R_i)`` the share of ``H_j`` that overlaps ``R_i`` ("temporal precision"),
and the harmonic coverage (eq. 1) is their harmonic mean::

    Cov(R_i <-> H_j) = 2 Cov(R_i -> H_j) Cov(H_j -> R_i) / (Cov(R_i -> H_j) + Cov(H_j -> R_i))
                     = 2 |R_i ∩ H_j| / (|R_i| + |H_j|)

``R_i`` is correctly retrieved when its harmonic coverage is **strictly greater** than the
threshold ``gamma`` (0.85 in the paper); hypothesis segments are judged the same way against
their own best-covering reference segment. Then

* CovN: ``R_N`` = share of correct reference segments (eq. 2), ``P_N`` = share of correct
  hypothesis segments (eq. 3), CovN = their harmonic mean;
* CovD: the same shares weighted by segment duration, CovD = their harmonic mean.

Durations (and the overlaps behind every coverage) are counted in units by default, or from
per-unit ``(start, end)`` times: a segment lasts the sum of its units' durations ``end - start``,
and an overlap the sum over the units the two segments share (pauses between units belong to no
segment).

Matching ties (two hypothesis segments covering the same largest part of ``R_i``) go to the one
with the higher harmonic coverage, then to the earlier one; for ``gamma >= 2/3`` at most one
segment can pass the threshold, so ties cannot change the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Optional, Union, overload

import numpy as np

from ..exceptions import InvalidParameterError
from ..segmentation import Segmentation
from ._common import check_real, check_times, harmonic, pair, unit_times, with_parts

__all__ = ["CoverageResult", "cov_n", "cov_d"]


@dataclass(frozen=True)
class CoverageResult:
    """Parts of CovN / CovD.

    ``recall`` and ``precision`` are R_N, P_N (CovN) or R_D, P_D (CovD); ``value`` is their
    harmonic mean. ``reference_coverage[i]`` is the harmonic coverage of reference segment ``i``
    with its matched hypothesis segment (likewise ``hypothesis_coverage``); a segment is correct
    when its coverage is ``> gamma``.
    """

    value: float
    recall: float
    precision: float
    correct_reference: int
    correct_hypothesis: int
    n_reference: int
    n_hypothesis: int
    gamma: float
    reference_coverage: tuple[float, ...]
    hypothesis_coverage: tuple[float, ...]


def _unit_weights(times: Any, n_units: int) -> Optional[np.ndarray]:
    """Cumulative duration ``W`` (length ``n+1``) from per-unit ``(start, end)`` times."""
    if times is None:
        return None
    arr = check_times(times, n_units)
    durations = arr[:, 1] - arr[:, 0]
    if not np.all(np.isfinite(durations)) or np.any(durations < 0):
        bad = int(np.flatnonzero(~(durations >= 0))[0])
        raise InvalidParameterError(f"times must have finite end >= start for every unit; {unit_times(arr, bad)}")
    with np.errstate(over="ignore"):  # checked just below
        cum = np.concatenate(([0.0], np.cumsum(durations)))
    if not np.isfinite(cum[-1]):
        raise InvalidParameterError(
            f"times must add up to a finite total duration; the {n_units} unit durations overflow float64"
        )
    return cum


def _coverage(reference: Any, hypothesis: Any, gamma: float, times: Any, by_duration: bool) -> CoverageResult:
    ref, hyp = pair(reference, hypothesis)
    g = check_real(gamma, "gamma", low=0.0, high=1.0)
    n = ref.n_units
    cum = _unit_weights(times, n)

    def edges(seg: Segmentation) -> np.ndarray:
        return np.concatenate(([0], seg.boundary_array(), [n]))

    def weight(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        if cum is None:
            return (hi - lo).astype(np.float64)
        return cum[hi] - cum[lo]

    er, eh = edges(ref), edges(hyp)
    d_ref, d_hyp = weight(er[:-1], er[1:]), weight(eh[:-1], eh[1:])
    # pieces of the common refinement: each is the overlap of one (reference, hypothesis) pair
    cuts = np.union1d(er, eh)
    lo, hi = cuts[:-1], cuts[1:]
    ri = np.searchsorted(er, lo, side="right") - 1
    hj = np.searchsorted(eh, lo, side="right") - 1
    overlap = weight(lo, hi)
    # a segment of zero duration (zero-length caption cues): covered only by the same units (0/0 -> 1)
    total = d_ref[ri] + d_hyp[hj]
    same = (er[ri] == eh[hj]) & (er[ri + 1] == eh[hj + 1])
    harm = np.divide(2.0 * overlap, total, out=same.astype(np.float64), where=total > 0)

    def best(labels: np.ndarray, count: int) -> np.ndarray:
        # for every label, the piece with the largest overlap, then the largest harmonic
        # coverage, then the earliest: sort so that it comes last in its group
        order = np.lexsort((-np.arange(labels.size), harm, overlap, labels))
        last = np.flatnonzero(np.diff(np.append(labels[order], count)))
        return harm[order[last]]

    cov_r, cov_h = best(ri, d_ref.size), best(hj, d_hyp.size)
    ok_r, ok_h = cov_r > g, cov_h > g
    if cum is not None and cum[-1] == 0:  # times giving the whole document no duration: no coverage to measure
        recall = precision = float("nan")
    elif by_duration:
        recall = float(d_ref[ok_r].sum() / d_ref.sum())
        precision = float(d_hyp[ok_h].sum() / d_hyp.sum())
    else:
        recall = float(np.count_nonzero(ok_r) / ok_r.size)
        precision = float(np.count_nonzero(ok_h) / ok_h.size)
    return CoverageResult(
        harmonic(recall, precision), recall, precision, int(np.count_nonzero(ok_r)), int(np.count_nonzero(ok_h)),
        int(ok_r.size), int(ok_h.size), g, tuple(cov_r.tolist()), tuple(cov_h.tolist()),
    )


@overload
def cov_n(reference: Segmentation, hypothesis: Segmentation, gamma: float = 0.85, *, times: Any = None,
          return_parts: Literal[False] = False) -> float: ...
@overload
def cov_n(reference: Segmentation, hypothesis: Segmentation, gamma: float = 0.85, *, times: Any = None,
          return_parts: Literal[True]) -> CoverageResult: ...
@overload
def cov_n(reference: Segmentation, hypothesis: Segmentation, gamma: float = 0.85, *, times: Any = None,
          return_parts: bool) -> float | CoverageResult: ...


def cov_n(reference: Any, hypothesis: Any, gamma: float = 0.85, *, times: Any = None,
          return_parts: bool = False) -> Union[float, CoverageResult]:
    """CovN: harmonic mean of the shares of correctly retrieved reference and hypothesis segments.

    Bouchekif et al., section 3: ``R_N = (1/N_R) sum_i phi(R_i)`` (eq. 2),
    ``P_N = (1/N_H) sum_i phi(H_i)`` (eq. 3), ``CovN = 2 R_N P_N / (R_N + P_N)``, where
    ``phi(S) = 1`` when the harmonic coverage (eq. 1) of ``S`` with its best-covering segment of
    the other side exceeds ``gamma`` (see the module docstring).

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first as in
        pyannote.metrics' ``metric(reference, hypothesis)`` (neither nltk nor segeval has
        CovN); the harmonic mean makes the value symmetric.
    gamma : float, default 0.85
        Threshold in ``[0, 1]``; a segment is correct when its coverage is strictly greater.
    times : array-like of shape (n_units, 2), optional
        Per-unit ``(start, end)`` times; coverages are then measured in duration, not units.
    return_parts : bool, default False
        Return a :class:`CoverageResult` (recall R_N, precision P_N, per-segment coverages).

    Returns
    -------
    float
        CovN in ``[0, 1]``; symmetric in its arguments.

    Notes
    -----
    O((|R| + |H|) log(|R| + |H|)), plus O(n) when ``times`` are given.

    Examples
    --------
    >>> ref = Segmentation.from_masses([10, 10])
    >>> cov_n(ref, ref)
    1.0
    >>> # R = [10 | 10], H = [9 | 11]: coverages 2*9/19 = 0.947 and 2*10/21 = 0.952 -> all correct
    >>> cov_n(ref, Segmentation.from_masses([9, 11]))
    1.0
    >>> # H = [5 | 15]: R_1 -> 2*5/15 = 0.67 (wrong), R_2 -> 2*10/25 = 0.8 (wrong) -> CovN = 0
    >>> cov_n(ref, Segmentation.from_masses([5, 15]))
    0.0
    """
    result = _coverage(reference, hypothesis, gamma, times, by_duration=False)
    return with_parts(result, return_parts)


@overload
def cov_d(reference: Segmentation, hypothesis: Segmentation, gamma: float = 0.85, *, times: Any = None,
          return_parts: Literal[False] = False) -> float: ...
@overload
def cov_d(reference: Segmentation, hypothesis: Segmentation, gamma: float = 0.85, *, times: Any = None,
          return_parts: Literal[True]) -> CoverageResult: ...
@overload
def cov_d(reference: Segmentation, hypothesis: Segmentation, gamma: float = 0.85, *, times: Any = None,
          return_parts: bool) -> float | CoverageResult: ...


def cov_d(reference: Any, hypothesis: Any, gamma: float = 0.85, *, times: Any = None,
          return_parts: bool = False) -> Union[float, CoverageResult]:
    """CovD: CovN with every segment weighted by its duration.

    Bouchekif et al., section 3.3: ``R_D = sum_i d(R_i) phi(R_i) / sum_i d(R_i)``,
    ``P_D = sum_i d(H_i) phi(H_i) / sum_i d(H_i)``, ``CovD = 2 R_D P_D / (R_D + P_D)``, with
    ``d`` the segment duration (units by default, or from per-unit ``times``).

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units, reference first, as in
        pyannote.metrics and :func:`cov_n` (the value is symmetric).
    gamma : float, default 0.85
        Threshold in ``[0, 1]`` (strictly greater).
    times : array-like of shape (n_units, 2), optional
        Per-unit ``(start, end)`` times (seconds); durations and overlaps come from them. A
        segment of zero duration (zero-length caption cues) weighs nothing, and is covered only by
        a segment of the same units; times giving the whole document no duration give ``nan``.
    return_parts : bool, default False
        Return a :class:`CoverageResult` (recall R_D, precision P_D, per-segment coverages).

    Returns
    -------
    float
        CovD in ``[0, 1]``; symmetric in its arguments.

    Notes
    -----
    O((|R| + |H|) log(|R| + |H|)), plus O(n) when ``times`` are given.

    Examples
    --------
    >>> # R = [10 | 30], H = [5 | 35]: R_1 and H_1 reach 2*5/15 = 0.67 (wrong), R_2 and H_2
    >>> # 2*30/65 = 0.92 (right); R_D = 30/40, P_D = 35/40, CovD = 2*0.75*0.875/1.625
    >>> ref, hyp = Segmentation.from_masses([10, 30]), Segmentation.from_masses([5, 35])
    >>> cov_n(ref, hyp), cov_d(ref, hyp)
    (0.5, 0.8076923076923077)
    """
    result = _coverage(reference, hypothesis, gamma, times, by_duration=True)
    return with_parts(result, return_parts)
