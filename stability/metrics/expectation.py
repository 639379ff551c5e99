"""Expected metrics under random boundaries: WindowDiff (Lamprier et al. 2007, section 4,
eq. 7-8) and boundary F1.

:func:`expected_windowdiff` is the normalizer of :func:`~stability.metrics.nwin` and
:func:`~stability.metrics.tnwin`. The number of boundaries a window of ``k`` gaps receives is
hypergeometric; only its support (at most ``min(k, m) + 1`` values) is ever stored, so the cost
does not grow with ``n`` or ``k``. :func:`expected_f1` is the chance level of
:func:`~stability.metrics.chance_corrected_f1`, from the harness's exact expected matching
(:func:`stability.matching.expected_matches`, which its chance F1 uses too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exceptions import InvalidParameterError
from ..stats import f1_score, hypergeometric_pmf
from ..matching import boundary_ratio, expected_matches
from ._common import MAX_UNITS, check_bool, check_int, check_k, check_segmentation

__all__ = ["MAX_TERMS", "expected_windowdiff", "expected_f1"]


#: Most terms of a hypergeometric distribution :func:`expected_windowdiff` sums (memory bound).
MAX_TERMS = 2**24


def _hypergeometric_pmf(n_gaps: int, m: int, k: int) -> tuple[int, np.ndarray]:
    """:func:`stability.stats.hypergeometric_pmf`, refused above :data:`MAX_TERMS` terms."""
    lo, hi = max(0, m - (n_gaps - k)), min(k, m)
    if hi - lo >= MAX_TERMS:
        raise InvalidParameterError(
            f"expected_windowdiff would sum {hi - lo + 1:,} terms for {m:,} boundaries in windows of "
            f"k={k:,} gaps; at most 2**24 are computed (use a smaller k)"
        )
    return hypergeometric_pmf(n_gaps, m, k)


def _cdf(lo: int, pmf: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``P(i <= t)`` at the positions ``t``: 0 below the support, exactly 1 from its end on."""
    cdf = np.append(np.cumsum(pmf)[:-1], 1.0)
    return np.where(t < lo, 0.0, cdf[np.clip(t - lo, 0, pmf.size - 1)])


def expected_windowdiff(n: int, n_ref_boundaries: int, n_hyp_boundaries: int, k: int,
                        weighted: bool = True) -> float:
    """Expectation of WindowDiff per window when boundaries are placed at random (eq. 7-8).

    Lamprier et al. (2007), section 4: with ``m_R`` and ``m_H`` boundaries placed uniformly at
    random among the ``n-1`` gaps, the number ``i`` (resp. ``j``) of them falling in a window of
    ``k`` gaps is hypergeometric, ``P(i) = C(k, i) C(n-1-k, m_R-i) / C(n-1, m_R)``. Then

    * ``weighted=True`` (eq. 8, the ``E`` of eq. 6): ``E = sum_i sum_j P_R(i) P_H(j) |i - j|``,
      computed as ``sum_t [F_R(t)(1 - F_H(t)) + F_H(t)(1 - F_R(t))]`` from the two CDFs;
    * ``weighted=False`` (eq. 7): ``P(i != j) = 1 - sum_i P_R(i) P_H(i)``, the expectation of
      the unweighted WindowDiff.

    Parameters
    ----------
    n : int
        Number of units (``>= 2``).
    n_ref_boundaries, n_hyp_boundaries : int
        Numbers of boundaries, each in ``0 .. n-1``.
    k : int
        Window size in gaps, ``1 <= k <= n-1``.
    weighted : bool, default True
        Expectation of ``|i - j|`` (eq. 8) or of ``[i != j]`` (eq. 7).

    Returns
    -------
    float
        The expectation (``>= 0``; ``<= 1`` unweighted).

    Notes
    -----
    O(min(k, m_R, m_H) + 1) time and memory (the supports of the two distributions; more than
    2**24 terms are refused); the probabilities are computed in log space (no overflow at any
    size). Every window has the same expectation, so this is also the
    expectation of the whole eq. 3 score.

    Examples
    --------
    >>> # Lamprier et al. (2007), Figure 3: n = 12, k = 6, one reference boundary
    >>> round(expected_windowdiff(12, 1, 1, 6), 2), round(expected_windowdiff(12, 1, 3, 6), 2)
    (0.5, 1.16)
    """
    nn = check_int(n, "n")
    if not 2 <= nn <= MAX_UNITS:
        raise InvalidParameterError.make("n", "an integer in 2..2**62 (at least one gap, at most MAX_UNITS)", n)
    mr = check_int(n_ref_boundaries, "n_ref_boundaries")
    mh = check_int(n_hyp_boundaries, "n_hyp_boundaries")
    for name, m, raw in (("n_ref_boundaries", mr, n_ref_boundaries), ("n_hyp_boundaries", mh, n_hyp_boundaries)):
        if not 0 <= m <= nn - 1:
            raise InvalidParameterError.make(name, f"an integer in 0..{nn - 1}", raw)
    kk = check_k(k, nn)
    (lo_p, p), (lo_q, q) = _hypergeometric_pmf(nn - 1, mr, kk), _hypergeometric_pmf(nn - 1, mh, kk)
    if not check_bool(weighted, "weighted"):
        first, last = max(lo_p, lo_q), min(lo_p + p.size, lo_q + q.size)
        same = float(np.dot(p[first - lo_p:last - lo_p], q[first - lo_q:last - lo_q])) if first < last else 0.0
        return float(max(0.0, 1.0 - same))
    # sum over t = 0 .. k-1 of F_p(t)(1 - F_q(t)) + F_q(t)(1 - F_p(t)): 0 where both CDFs are 0
    # or 1, exactly 1 between two disjoint supports, computed on the supports only
    ends = (lo_p + p.size - 1, lo_q + q.size - 1)  # from these on the CDFs are 1
    t = np.union1d(np.arange(lo_p, ends[0], dtype=np.int64), np.arange(lo_q, ends[1], dtype=np.int64))
    fp, fq = _cdf(lo_p, p, t), _cdf(lo_q, q, t)
    between = max(0, max(lo_p, lo_q) - min(ends))
    return float(np.dot(fp, 1.0 - fq) + np.dot(fq, 1.0 - fp)) + between


def expected_f1(reference: Any, n_hyp_boundaries: int, tolerance: int = 0) -> float:
    """Expected boundary F1 of ``n_hyp_boundaries`` boundaries placed at random against ``reference``.

    **Fixed:** the reference (its boundaries where they are), the number ``n`` of units, the
    number ``h = n_hyp_boundaries`` of hypothesis boundaries and the tolerance. **Random:** where
    the ``h`` hypothesis boundaries lie, every set of ``h`` of the ``n - 1`` gaps being equally
    likely. The F1 is that of :func:`~stability.metrics.boundary_prf` (maximum one-to-one matching
    within ``tolerance`` units). With ``r`` reference boundaries and ``X`` matched pairs,
    ``P = X / h`` and ``R = X / r``, so ``F1 = 2 P R / (P + R) = 2 X / (h + r)`` whenever ``h`` and
    ``r`` are both positive (0 when ``X = 0``), and, ``h`` and ``r`` being fixed,

        E[F1] = 2 E[X] / (h + r)

    exactly, with ``E[X]`` from :func:`stability.matching.expected_matches` (hypergeometric, ``h r /
    (n - 1)``, with no tolerance; a dynamic programme over the sweep of the matching otherwise), the
    computation behind the harness's chance F1. When ``h = 0`` or ``r = 0`` the F1 does not depend
    on the placement: 1.0 when both are 0 (the project's zero-division rule,
    :func:`stability.matching.empty_ratio`), 0.0 otherwise.

    Parameters
    ----------
    reference : Segmentation
        The reference, ``n`` units.
    n_hyp_boundaries : int
        ``h``, in ``0 .. n-1``.
    tolerance : int, default 0
        Largest distance in units between matched boundaries (``>= 0``).

    Returns
    -------
    float
        ``E[F1]`` in ``[0, 1]``.

    Notes
    -----
    O(1) with no tolerance; with one, see :func:`stability.matching.expected_matches` (it depends
    on the boundaries and the tolerance, not on ``n``).

    Examples
    --------
    >>> from stability import Segmentation
    >>> ref = Segmentation([3, 7], 9)            # 8 gaps, 2 reference boundaries
    >>> expected_f1(ref, 2)                      # E[X] = 2 * 2 / 8 = 0.5; E[F1] = 2 * 0.5 / 4
    0.25
    >>> round(expected_f1(ref, 2, tolerance=1), 12)  # 9 / 14, counted by hand in tests/test_metrics_chance.py
    0.642857142857
    """
    ref = check_segmentation(reference, "reference")
    gaps = ref.n_units - 1
    h = check_int(n_hyp_boundaries, "n_hyp_boundaries")
    if not 0 <= h <= gaps:
        raise InvalidParameterError.make("n_hyp_boundaries", f"an integer in 0..{gaps} (the gaps of the reference)",
                                         n_hyp_boundaries)
    tol = check_int(tolerance, "tolerance")
    if tol < 0:
        raise InvalidParameterError.make("tolerance", "an integer >= 0", tolerance)
    r = ref.n_boundaries
    if h == 0 or r == 0:  # nothing can match: P and R by the zero rule, whatever the placement
        return f1_score(boundary_ratio(0, h, r), boundary_ratio(0, r, h))
    matches = float(expected_matches(ref.boundaries, gaps, tol, [h])[0])
    return min(1.0, 2.0 * matches / (h + r))
