"""Window metrics: Pk, WindowDiff, Lamprier's corrected and normalized WindowDiff, Pr_error.

Windows are counted in **gaps**. A document of ``n`` units has ``n-1`` gaps; gap ``g`` lies
between units ``g`` and ``g+1`` and holds the boundary ``b = g+1`` when there is one. A window
of size ``k`` starting at gap ``i`` covers gaps ``i .. i+k-1`` and there are ``n-k`` of them,
``i = 0 .. n-k-1``. This is Lamprier et al. (2007) eq. 3 with ``#bound(S, i, i+k)`` (1-based
``i``), Pevzner & Hearst's WindowDiff, Beeferman's Pk probe at distance ``k``, nltk's windows on
a gap string and segeval's windows on masses: with the same ``k`` all of them agree exactly (see
``shared/specs/metrics-peers.md`` section 2).

Every function validates its inputs once (``reference`` and ``hypothesis`` are each a
:class:`~stability.segmentation.Segmentation`; a bare list is refused, not guessed at), returns a Python
float, and with ``return_parts=True`` returns a frozen dataclass holding the value and its parts
(counts, numerator, denominator, the window used).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Union, overload

import numpy as np

from ..exceptions import InvalidParameterError, InvalidSegmentationError
from ..segmentation import Segmentation
from ._common import (
    WindowPolicy,
    check_bool,
    check_int,
    check_real,
    pair,
    resolve_k,
    with_parts,
)
from .expectation import expected_windowdiff

__all__ = [
    "WindowResult",
    "NWinResult",
    "PrErrorResult",
    "pk",
    "windowdiff",
    "windowdiff_corrected",
    "nwin",
    "tnwin",
    "pr_error",
]


@dataclass(frozen=True)
class WindowResult:
    """Parts of a window metric: ``value = numerator / denominator`` with window ``k`` (gaps).

    ``numerator`` counts the differing windows (for the weighted variants: the sum of the
    absolute differences of boundary counts); ``denominator`` is the number of windows (``n-k``,
    or ``n+k-2`` for the corrected WindowDiff).
    """

    value: float
    k: int
    numerator: int
    denominator: int


@dataclass(frozen=True)
class NWinResult:
    """Parts of NWin / TNWin (Lamprier et al. 2007 eq. 6, 9, 10).

    ``value`` is NWin (or TNWin), ``windowdiff`` the observed WindowDiff, ``expected`` its
    expectation ``E`` (eq. 7 or 8), ``optimum`` the term ``O`` of eq. 9 (0 for NWin) and ``t`` the
    tolerance of eq. 10 (0 for NWin).
    """

    value: float
    k: int
    windowdiff: float
    expected: float
    optimum: float
    t: float


@dataclass(frozen=True)
class PrErrorResult:
    """Parts of Pr_error (Georgescul et al. 2006, section 4.3).

    ``k`` is the window in **units** (each window holds ``k-1`` gaps). ``misses`` counts windows
    where the hypothesis has fewer boundaries than the reference, out of ``reference_windows``
    windows where the reference has at least one; ``false_alarms`` counts windows where it has
    more, out of all ``windows``.
    """

    value: float
    k: int
    pr_miss: float
    pr_fa: float
    misses: int
    reference_windows: int
    false_alarms: int
    windows: int
    c_miss: float
    c_fa: float


def _window_pieces(ref: Segmentation, hyp: Segmentation, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Boundary counts of the ``n-k`` windows of ``k`` gaps, as constant pieces.

    Window ``i`` (gaps ``i .. i+k-1``) holds the boundary at gap ``g`` iff
    ``g-k+1 <= i <= g``, so each boundary adds 1 to an interval of window indices. Sorting the
    interval ends splits ``0 .. n-k-1`` into pieces on which both counts are constant.

    Returns
    -------
    lengths, r, h : numpy.ndarray
        Number of windows in each piece and the reference and hypothesis counts on it; the
        pieces cover all ``n-k`` windows. O(b log b) for ``b`` boundaries, whatever ``n`` is.
    """
    n_windows = ref.n_units - k
    gr, gh = ref.boundary_array() - 1, hyp.boundary_array() - 1  # gap indices
    starts_r, ends_r = np.maximum(gr - k + 1, 0), np.minimum(gr, n_windows - 1) + 1
    starts_h, ends_h = np.maximum(gh - k + 1, 0), np.minimum(gh, n_windows - 1) + 1
    cuts = np.concatenate(([0, n_windows], starts_r, ends_r, starts_h, ends_h))
    edges, where = np.unique(cuts, return_inverse=True)
    nr, nh = gr.size, gh.size
    ones_r, ones_h = np.ones(nr), np.ones(nh)
    delta_r = np.bincount(where[2:2 + 2 * nr], np.concatenate((ones_r, -ones_r)), minlength=edges.size)
    delta_h = np.bincount(where[2 + 2 * nr:], np.concatenate((ones_h, -ones_h)), minlength=edges.size)
    r = np.cumsum(delta_r)[:-1].astype(np.int64)
    h = np.cumsum(delta_h)[:-1].astype(np.int64)
    return np.diff(edges), r, h


def _prefix_pieces(gr: np.ndarray, gh: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``#{gr < u}`` and ``#{gh < u}`` for ``u = lo .. hi-1`` as constant pieces (lengths, counts).

    The counts change only at ``u = g+1`` for a gap ``g`` of either side, so O(b log b)."""
    cuts = np.unique(np.concatenate(([lo, max(lo, hi)], np.clip(gr + 1, lo, hi), np.clip(gh + 1, lo, hi))))
    return np.diff(cuts), np.searchsorted(gr, cuts[:-1]), np.searchsorted(gh, cuts[:-1])


def _differing(lengths: np.ndarray, diff: np.ndarray, weighted: bool) -> int:
    """``sum(lengths * |diff|)`` (weighted) or ``sum(lengths[diff != 0])``, exact at any size."""
    if not weighted:
        return int(lengths[diff != 0].sum())
    diff = np.abs(diff)
    if int(lengths.sum()) * int(diff.max(initial=0)) < 2**63:
        return int((lengths * diff).sum())
    return sum(int(a) * int(b) for a, b in zip(lengths.tolist(), diff.tolist()))


@overload
def pk(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, *,
       return_parts: Literal[False] = False) -> float: ...
@overload
def pk(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, *,
       return_parts: Literal[True]) -> WindowResult: ...
@overload
def pk(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, *,
       return_parts: bool) -> float | WindowResult: ...


def pk(reference: Any, hypothesis: Any, k: WindowPolicy = None, *, return_parts: bool = False
       ) -> Union[float, WindowResult]:
    """Beeferman et al.'s (1999) Pk: share of windows where exactly one side sees a boundary.

    ``Pk = (1 / (n-k)) * sum_{i=0}^{n-k-1} [ (r_i > 0) != (h_i > 0) ]`` where ``r_i`` and
    ``h_i`` count the reference and hypothesis boundaries in gaps ``i .. i+k-1``, i.e. whether
    units ``i`` and ``i+k`` lie in the same segment (the probe of Beeferman et al.; the Pk of
    Georgescul et al. 2006, section 4.1).

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units ``n >= 2``: **reference first**,
        as in nltk's ``pk(ref, hyp)``. Note: segeval's ``pk(hypothesis, reference)`` takes the
        arguments the other way round. For a fixed ``k`` Pk is symmetric, but the default ``k``
        is read from the first argument, so swapped arguments change the default window.
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window size in gaps, ``1 <= k <= n-1``. **The default is not nltk's**: it is half the
        mean reference segment length, ``round(n / (2 (m + 1)))`` for ``m`` reference
        boundaries (Lamprier et al. 2007 eq. 5, the paper this project implements), whereas
        nltk's ``pk`` divides by the boundaries instead of the segments,
        ``round((n - 1) / (2 m))``, and segeval takes ``max(2, round(n / (2 (m + 1))))``; the
        default and nltk's differ on most documents. Pass ``k="nltk"`` or ``k="segeval"`` to
        get their numbers (see :func:`stability.metrics.window_size`); every report says which
        convention it used. The window used is in the parts.
    return_parts : bool, default False
        Return a :class:`WindowResult` instead of the float.

    Returns
    -------
    float
        Pk in ``[0, 1]``; 0 means identical at this window. Equal to nltk's
        ``pk(ref.gaps, hyp.gaps, k)`` and segeval's ``pk(hyp_masses, ref_masses, window_size=k)``.

    Notes
    -----
    O(b log b) time and O(b) memory for b boundaries (the window counts are constant between
    the ends of the intervals of windows each boundary lies in), so independent of ``n``.

    Examples
    --------
    >>> ref, hyp = Segmentation([3, 7], 9), Segmentation([2, 8], 9)
    >>> pk(ref, hyp, k=2)   # 7 windows, 3 disagree (nltk and segeval agree)
    0.42857142857142855
    >>> pk(ref, hyp, return_parts=True)
    WindowResult(value=0.42857142857142855, k=2, numerator=3, denominator=7)
    """
    ref, hyp = pair(reference, hypothesis)
    kk = resolve_k(k, ref)
    lengths, r, h = _window_pieces(ref, hyp, kk)
    num = int(lengths[(r > 0) != (h > 0)].sum())
    den = ref.n_units - kk
    return with_parts(WindowResult(num / den, kk, num, den), return_parts)


@overload
def windowdiff(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
               weighted: bool = False, *, return_parts: Literal[False] = False) -> float: ...
@overload
def windowdiff(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
               weighted: bool = False, *, return_parts: Literal[True]) -> WindowResult: ...
@overload
def windowdiff(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
               weighted: bool = False, *, return_parts: bool) -> float | WindowResult: ...


def windowdiff(reference: Any, hypothesis: Any, k: WindowPolicy = None, weighted: bool = False, *,
               return_parts: bool = False) -> Union[float, WindowResult]:
    """Pevzner & Hearst's (2002) WindowDiff: share of windows whose boundary counts differ.

    ``WD = (1 / (n-k)) * sum_{i=0}^{n-k-1} [ r_i != h_i ]`` with ``r_i``, ``h_i`` the numbers of
    reference and hypothesis boundaries in gaps ``i .. i+k-1`` (Lamprier et al. 2007 eq. 3 with
    the P&H indicator). With ``weighted=True`` the sum is of ``|r_i - h_i|`` (eq. 3 as Lamprier
    et al. print it; nltk's ``weighted=True``), which can exceed 1.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units ``n >= 2``, reference first.
        nltk's ``windowdiff(seg1, seg2, k)`` is symmetric and needs ``k``. Note: segeval's
        ``window_diff(hypothesis, reference)`` takes the arguments the other way round; its
        default window, like this one, is read from the reference.
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window size in gaps, ``1 <= k <= n-1``; default Lamprier et al. (2007) eq. 5, **not**
        nltk's ``pk`` rule nor segeval's (see :func:`pk`; ``k="nltk"`` / ``k="segeval"`` for
        theirs).
    weighted : bool, default False
        Sum absolute count differences instead of counting differing windows.
    return_parts : bool, default False
        Return a :class:`WindowResult` instead of the float.

    Returns
    -------
    float
        WindowDiff (``[0, 1]`` unweighted, ``[0, k]`` weighted). Equal to nltk's
        ``windowdiff(ref.gaps, hyp.gaps, k, weighted=...)`` and (unweighted) to segeval's
        ``window_diff(hyp_masses, ref_masses, window_size=k)``. Symmetric in its arguments for a
        fixed ``k``.

    Notes
    -----
    O(b log b) time and O(b) memory for b boundaries (see :func:`pk`), independent of ``n``.

    Examples
    --------
    >>> from stability.segmentation import Segmentation
    >>> windowdiff(Segmentation([3, 7], 9), Segmentation([2, 8], 9), k=2)
    0.42857142857142855
    >>> ref = Segmentation.from_gaps("0110")
    >>> windowdiff(ref, Segmentation([], 5), k=2, weighted=True)   # windows 01, 11, 10 vs 00: (1 + 2 + 1) / 3
    1.3333333333333333
    """
    ref, hyp = pair(reference, hypothesis)
    kk = resolve_k(k, ref)
    lengths, r, h = _window_pieces(ref, hyp, kk)
    num = _differing(lengths, r - h, check_bool(weighted, "weighted"))
    den = ref.n_units - kk
    return with_parts(WindowResult(num / den, kk, num, den), return_parts)


@overload
def windowdiff_corrected(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
                         weighted: bool = False, *, return_parts: Literal[False] = False) -> float: ...
@overload
def windowdiff_corrected(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
                         weighted: bool = False, *, return_parts: Literal[True]) -> WindowResult: ...
@overload
def windowdiff_corrected(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
                         weighted: bool = False, *, return_parts: bool) -> float | WindowResult: ...


def windowdiff_corrected(reference: Any, hypothesis: Any, k: WindowPolicy = None, weighted: bool = False,
                         *, return_parts: bool = False) -> Union[float, WindowResult]:
    """WindowDiff with Lamprier et al.'s (2007) edge correction, eq. 4.

    Besides the ``n-k`` full windows, eq. 4 adds the ``k-1`` windows anchored at the start of
    the text (``#bound(S, 1, i)``, ``i = 2..k``: the first ``1 .. k-1`` gaps) and the ``k-1``
    anchored at its end (``#bound(S, i, n)``, ``i = n-k+1 .. n-1``: the last ``k-1 .. 1`` gaps),
    so that every gap lies in exactly ``k`` windows, and divides by ``n+k-2``::

        WD_c = ( sum_{j=1}^{k-1} d(first j gaps) + sum_{i=0}^{n-k-1} d(gaps i..i+k-1)
                 + sum_{j=1}^{k-1} d(last j gaps) ) / (n + k - 2)

    where ``d`` is ``[r != h]`` (default, the P&H WindowDiff indicator) or ``|r - h|`` with
    ``weighted=True`` (eq. 4 exactly as printed, which sums absolute differences).

    segeval's ``lamprier_et_al_2007_fix=True`` computes the same numerator (unweighted) but
    divides by ``n+k+1``; this function follows the paper's ``n+k-2``.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units ``n >= 2``, reference first (nltk
        has no corrected WindowDiff). Note: segeval's ``window_diff(hypothesis, reference,
        lamprier_et_al_2007_fix=True)`` takes the arguments the other way round.
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window size in gaps, ``1 <= k <= n-1``; default eq. 5 (not nltk's rule, see :func:`pk`).
    weighted : bool, default False
        Use ``|r - h|`` (eq. 4 as printed) instead of ``[r != h]``.
    return_parts : bool, default False
        Return a :class:`WindowResult` instead of the float.

    Returns
    -------
    float
        Corrected WindowDiff (``[0, 1]`` unweighted, ``[0, k]`` weighted).

    Notes
    -----
    O(b log b) time, independent of ``n`` and ``k``: the full windows as in :func:`pk`, the
    2(k-1) edge windows as constant pieces too.

    Examples
    --------
    >>> # boundary at the very first gap missed: eq. 3 sees it in 1 of 7 windows,
    >>> # eq. 4 in k = 2 of n + k - 2 = 9 windows
    >>> ref, hyp = Segmentation([1], 9), Segmentation([], 9)
    >>> windowdiff(ref, hyp, k=2)
    0.14285714285714285
    >>> windowdiff_corrected(ref, hyp, k=2)
    0.2222222222222222
    """
    ref, hyp = pair(reference, hypothesis)
    kk = resolve_k(k, ref)
    n, w = ref.n_units, check_bool(weighted, "weighted")
    lengths, r, h = _window_pieces(ref, hyp, kk)
    # edge windows: the first j gaps (gaps < j) and the last j gaps (gaps >= u = n-1-j), j = 1 .. k-1
    gr, gh = ref.boundary_array() - 1, hyp.boundary_array() - 1
    head, hr, hh = _prefix_pieces(gr, gh, 1, kk)
    tail, tr, th = _prefix_pieces(gr, gh, n - kk, n - 1)
    num = (_differing(lengths, r - h, w) + _differing(head, hr - hh, w)
           + _differing(tail, (gr.size - tr) - (gh.size - th), w))
    den = n + kk - 2
    return with_parts(WindowResult(num / den, kk, num, den), return_parts)


def _nwin_parts(reference: Any, hypothesis: Any, k: WindowPolicy, t: float, weighted: bool,
                corrected: bool) -> NWinResult:
    ref, hyp = pair(reference, hypothesis)
    kk = resolve_k(k, ref)
    n = ref.n_units
    metric = windowdiff_corrected if check_bool(corrected, "corrected") else windowdiff
    wd = metric(ref, hyp, kk, weighted=weighted)
    expected = expected_windowdiff(n, ref.n_boundaries, hyp.n_boundaries, kk, weighted=weighted)
    if expected == 0.0:
        # Only when both boundary counts are forced (0 or n-1 each, or k = n-1 and equal counts).
        # Then the two counts are equal, so the optimum O of eq. 9 is 0.
        nw = 0.0 if wd == 0.0 else math.inf
        opt = 0.0
    else:
        nw = wd / expected
        opt = kk * abs(ref.n_boundaries - hyp.n_boundaries) / ((n + kk - 2) * expected)
    value = nw - t * opt if t else nw
    return NWinResult(value, kk, wd, expected, opt if t else 0.0, t)


@overload
def nwin(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, *,
         weighted: bool = True, corrected: bool = True, return_parts: Literal[False] = False) -> float: ...
@overload
def nwin(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, *,
         weighted: bool = True, corrected: bool = True, return_parts: Literal[True]) -> NWinResult: ...
@overload
def nwin(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, *,
         weighted: bool = True, corrected: bool = True, return_parts: bool) -> float | NWinResult: ...


def nwin(reference: Any, hypothesis: Any, k: WindowPolicy = None, *, weighted: bool = True,
         corrected: bool = True, return_parts: bool = False) -> Union[float, NWinResult]:
    """Normalized WindowDiff, Lamprier et al. (2007) eq. 6: ``NWin = WindowDiff / E``.

    ``E`` is the expectation of WindowDiff for random segmentations with the same numbers of
    boundaries (:func:`expected_windowdiff`, eq. 8 when ``weighted``, eq. 7 otherwise), so NWin
    is about 1 for a hypothesis no better than chance and 0 for a perfect one, whatever the
    number of boundaries it places.

    The paper's WindowDiff sums absolute count differences (its eq. 3 and 4) and its worked
    example (Figure 3: n = 12, k = 6, WindowDiff 2/3, E ~ 0.5 and 1.16, NWin ~ 1.33 and 0.57) uses
    eq. 3 with that weighting; section 3.1 states eq. 4 is used afterwards. Hence the defaults
    ``weighted=True`` and ``corrected=True`` (eq. 4); ``corrected=False`` reproduces Figure 3.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units ``n >= 2``, reference first (the
        expectation is taken under the reference's boundary count; neither nltk nor segeval
        has this metric).
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window size in gaps; default eq. 5 (not nltk's rule, see :func:`pk`).
    weighted : bool, default True
        ``|r - h|`` windows with eq. 8, or ``[r != h]`` windows with eq. 7.
    corrected : bool, default True
        Numerator from eq. 4 (:func:`windowdiff_corrected`) or eq. 3 (:func:`windowdiff`).
    return_parts : bool, default False
        Return an :class:`NWinResult`.

    Returns
    -------
    float
        NWin ``>= 0``; ``inf`` in the one degenerate case where ``E = 0`` but the observed
        WindowDiff is not 0 (``k = n-1`` with the corrected numerator).

    Notes
    -----
    O(b log b) time: the WindowDiff (see :func:`windowdiff_corrected`) and the expectation.

    Examples
    --------
    >>> from stability.segmentation import Segmentation
    >>> ref, h1, h2 = Segmentation([6], 12), Segmentation([2], 12), Segmentation([1, 3, 6], 12)
    >>> # Figure 3 of the paper: WindowDiff 2/3 for both, E = 60/121 and 140/121, which the
    >>> # paper rounds to 0.5 and 1.16 before dividing (giving 1.33 and 0.57)
    >>> round(nwin(ref, h1, 6, corrected=False), 3), round(nwin(ref, h2, 6, corrected=False), 3)
    (1.344, 0.576)
    """
    return with_parts(_nwin_parts(reference, hypothesis, k, 0.0, weighted, corrected), return_parts)


@overload
def tnwin(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, t: float = 0.5, *,
          weighted: bool = True, corrected: bool = True, return_parts: Literal[False] = False) -> float: ...
@overload
def tnwin(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, t: float = 0.5, *,
          weighted: bool = True, corrected: bool = True, return_parts: Literal[True]) -> NWinResult: ...
@overload
def tnwin(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None, t: float = 0.5, *,
          weighted: bool = True, corrected: bool = True, return_parts: bool) -> float | NWinResult: ...


def tnwin(reference: Any, hypothesis: Any, k: WindowPolicy = None, t: float = 0.5, *,
          weighted: bool = True, corrected: bool = True, return_parts: bool = False
          ) -> Union[float, NWinResult]:
    """Tolerant normalized WindowDiff, Lamprier et al. (2007) eq. 9-10: ``NWin - t * O``.

    ``O = k |m_R - m_H| / ((n + k - 2) E)`` (eq. 9) is the best NWin a hypothesis with ``m_H``
    boundaries can reach against ``m_R`` reference boundaries (each gap lies in ``k`` windows of
    eq. 4, so each missing or extra boundary costs at least ``k``); ``t`` is the probability
    that such missing or extra boundaries are justified, 0.5 in the paper.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units ``n >= 2``, reference first (the
        expectation is taken under the reference's boundary count; neither nltk nor segeval
        has this metric).
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window size in gaps; default eq. 5 (not nltk's rule, see :func:`pk`).
    t : float, default 0.5
        Tolerance coefficient in ``[0, 1]``.
    weighted, corrected : bool, default True
        As in :func:`nwin`.
    return_parts : bool, default False
        Return an :class:`NWinResult` (with ``optimum`` = O).

    Returns
    -------
    float
        TNWin, ``NWin - t O``. With the defaults it is never negative for ``t <= 1`` (``O`` is
        then a lower bound of NWin); with ``corrected=False`` or ``weighted=False`` ``O`` is no
        longer a bound and TNWin can drop below 0.

    Notes
    -----
    O(b log b) time.

    Examples
    --------
    >>> from stability.segmentation import Segmentation
    >>> ref, hyp = Segmentation([6], 12), Segmentation([1, 3, 6], 12)
    >>> parts = tnwin(ref, hyp, 6, return_parts=True)
    >>> parts.value == parts.windowdiff / parts.expected - 0.5 * parts.optimum
    True
    """
    tt = check_real(t, "t", low=0.0, high=1.0)
    return with_parts(_nwin_parts(reference, hypothesis, k, tt, weighted, corrected), return_parts)


@overload
def pr_error(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
             c_miss: float = 0.5, c_fa: float = 0.5, *, fa_windows: str = "all",
             return_parts: Literal[False] = False) -> float: ...
@overload
def pr_error(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
             c_miss: float = 0.5, c_fa: float = 0.5, *, fa_windows: str = "all",
             return_parts: Literal[True]) -> PrErrorResult: ...
@overload
def pr_error(reference: Segmentation, hypothesis: Segmentation, k: WindowPolicy = None,
             c_miss: float = 0.5, c_fa: float = 0.5, *, fa_windows: str = "all",
             return_parts: bool) -> float | PrErrorResult: ...


def pr_error(reference: Any, hypothesis: Any, k: WindowPolicy = None, c_miss: float = 0.5,
             c_fa: float = 0.5, *, fa_windows: str = "all",
             return_parts: bool = False) -> Union[float, PrErrorResult]:
    """Georgescul, Clark & Armstrong's (2006) Pr_error, section 4.3.

    ``Pr_error = C_miss * Pr_miss + C_fa * Pr_fa`` where, over windows of ``k`` consecutive
    units (so ``k-1`` gaps; ``n-k+1`` windows, the first starting at unit 0)::

        Pr_miss = #{windows: h < r} / #{windows: r > 0}
        Pr_fa   = #{windows: h > r} / #{windows}

    with ``r``, ``h`` the numbers of reference and hypothesis boundaries inside the window. The
    paper's prose (its formula images are lost) defines Pr_miss as the probability that the
    hypothesis has fewer boundaries than the reference in a window, **conditioned on the
    reference having a boundary there**, and Pr_fa as the probability that it has more, over
    **all** windows (its argument: there are N-k equiprobable places for a false alarm).

    Window convention (settled here): ``k`` counts **units**, as in the paper's "interval of k
    units", so a window holds ``k-1`` gaps. This is the only reading under which the paper's
    stated property holds: at ``k = 2`` each window is one gap, and the hypothesis with
    boundaries everywhere except at the reference boundaries misses every reference boundary
    (Pr_miss = 1) and false-alarms at every other gap (Pr_fa = 1 - m/(n-1)), the worst score,
    ``1 - m / (2(n-1))`` ~ 1.0. With balanced costs no boundaries scores exactly 0.5 and
    boundaries everywhere about 0.5. The windows of ``pr_error(k)`` are exactly those of
    ``windowdiff(k-1)``. When the reference has no boundary, Pr_miss is 0 (no miss is possible).

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units ``n >= 2``, reference first:
        swapping them swaps misses and false alarms (neither nltk nor segeval has Pr_error).
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window length in units, ``2 <= k <= n``. By default one more than the WindowDiff default
        (Lamprier et al. eq. 5), so the windows have the same number of gaps as those of
        :func:`windowdiff`; a policy name is converted the same way.
    c_miss, c_fa : float, default 0.5
        Costs of misses and false alarms, each in ``[0, 1]``; the paper suggests
        ``c_miss + c_fa = 1``, which keeps the score in ``[0, 1]``.
    fa_windows : {"all", "no_reference"}, default "all"
        Which windows Pr_fa is taken over. ``"all"`` follows the prose (all windows, the
        paper's argument of N-k equiprobable places for a false alarm). ``"no_reference"``
        conditions Pr_fa on the windows where the reference has no boundary, symmetric with
        Pr_miss: ``Pr_fa = #{windows: r = 0, h > 0} / #{windows: r = 0}``. Under it the three
        properties the paper states hold *exactly*: no boundaries and all boundaries score 0.5
        with balanced costs, and the complement of the reference scores 1.0 at ``k = 2``.
    return_parts : bool, default False
        Return a :class:`PrErrorResult` (its ``windows`` is Pr_fa's denominator).

    Returns
    -------
    float
        Pr_error in ``[0, c_miss + c_fa]``.

    Notes
    -----
    O(b log b) time and O(b) memory for b boundaries (see :func:`pk`).

    Examples
    --------
    >>> ref = Segmentation([3, 7], 9)
    >>> pr_error(ref, Segmentation([], 9), k=2)      # no boundaries: Pr_miss = 1, Pr_fa = 0
    0.5
    >>> # complement of the reference (boundaries at every gap but 3 and 7) at k = 2:
    >>> # Pr_miss = 2/2, Pr_fa = 6/8 -> 0.5 + 0.375
    >>> pr_error(ref, Segmentation([1, 2, 4, 5, 6, 8], 9), k=2)
    0.875
    """
    ref, hyp = pair(reference, hypothesis)
    n = ref.n_units
    if n < 2:
        raise InvalidSegmentationError(
            f"window metrics need at least 2 units (one gap); received a document of {n} unit"
        )
    if k is None or isinstance(k, str):
        kk = min(resolve_k(k, ref) + 1, n)
    else:
        kk = check_int(k, "k")
        if not 2 <= kk <= n:
            raise InvalidParameterError.make(
                "k", f"an integer in 2..{n} (a window length in units; it holds k-1 gaps)", k
            )
    cm = check_real(c_miss, "c_miss", low=0.0, high=1.0)
    cf = check_real(c_fa, "c_fa", low=0.0, high=1.0)
    g = kk - 1  # gaps per window
    lengths, r, h = _window_pieces(ref, hyp, g)
    windows = n - g
    misses = int(lengths[h < r].sum())
    reference_windows = int(lengths[r > 0].sum())
    if fa_windows == "all":
        false_alarms = int(lengths[h > r].sum())
    elif fa_windows == "no_reference":
        false_alarms = int(lengths[(r == 0) & (h > 0)].sum())
        windows = int(lengths[r == 0].sum())
    else:
        raise InvalidParameterError.make("fa_windows", "'all' or 'no_reference'", fa_windows)
    pr_miss = misses / reference_windows if reference_windows else 0.0
    pr_fa = false_alarms / windows if windows else 0.0
    value = cm * pr_miss + cf * pr_fa
    return with_parts(
        PrErrorResult(value, kk, pr_miss, pr_fa, misses, reference_windows, false_alarms, windows, cm, cf),
        return_parts,
    )
