"""Several references: Fleiss' kappa over gaps and WiSeBE (González-Gallardo & Torres-Moreno 2018).

Positions are the ``n-1`` gaps (potential boundaries) of the document; a reference "marks"
gap ``b-1`` when it has boundary ``b``. WiSeBE works on words with a boundary *after* word
``t_j``; in this project's convention that is the boundary ``b = j+1`` (0-based ``j``), and the
end of the document, which every WiSeBE reference marks, is not a position (it carries no
information about the candidate).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union, overload

import numpy as np

from ..exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError
from ..segmentation import Segmentation
from ..matching import boundary_ratio
from ._common import check_int, check_segmentation, harmonic, with_parts

__all__ = ["KappaResult", "WiSeBEResult", "fleiss_kappa", "general_reference", "wisebe"]


@dataclass(frozen=True)
class KappaResult:
    """Parts of Fleiss' kappa: ``value = (observed - expected) / (1 - expected)``."""

    value: float
    observed: float
    expected: float
    n_items: int
    n_raters: int
    boundary_share: float


@dataclass(frozen=True)
class WiSeBEResult:
    """Parts of WiSeBE.

    ``windows`` are the window-boundaries reference ``R_W`` as ``(first, last)`` boundary
    positions (segment starts ``b``, inclusive); ``agreement_ratio`` is ``R_G_AR`` (eq. 5) with
    its numerator ``ponderated`` (eq. 6) and denominator ``maximum`` (eq. 7).
    """

    value: float
    f1: float
    precision: float
    recall: float
    agreement_ratio: float
    ponderated: int
    maximum: int
    windows: tuple[tuple[int, int], ...]
    candidate_in_windows: int
    windows_hit: int
    window_limit: int


def _references(references: Any, minimum: int = 2) -> list[Segmentation]:
    if isinstance(references, (str, bytes)) or not isinstance(references, (Sequence, np.ndarray)):
        raise InvalidTypeError.make("references", "a sequence of Segmentation objects", references)
    segs = [check_segmentation(r, f"references[{i}]") for i, r in enumerate(references)]
    if len(segs) < minimum:
        raise InvalidParameterError.make("references", f"at least {minimum} segmentations", references)
    n = segs[0].n_units
    for i, s in enumerate(segs):
        if s.n_units != n:
            raise InvalidSegmentationError(
                f"every reference must cover the same number of units; references[0] has {n} units "
                f"and references[{i}] has {s.n_units}"
            )
    return segs


def general_reference(references: Any) -> tuple[np.ndarray, np.ndarray]:
    """WiSeBE's general reference ``R_G`` (eq. 3-4), sparse: positions and counts ``d_j > 0``.

    Parameters
    ----------
    references : sequence of Segmentation
        At least one reference, all over the same units.

    Returns
    -------
    positions, counts : numpy.ndarray
        The boundaries ``b`` marked by at least one reference, sorted, and how many references
        mark each (``1 .. m``); every other position has ``d = 0``.

    Examples
    --------
    >>> refs = [Segmentation(b, 9) for b in ([3, 7], [3, 8], [4, 7])]
    >>> general_reference(refs)
    (array([3, 4, 7, 8]), array([2, 1, 2, 1]))
    """
    segs = _references(references, minimum=1)
    allb = np.concatenate([s.boundary_array() for s in segs]) if segs else np.zeros(0, np.int64)
    positions, counts = np.unique(allb, return_counts=True)
    return positions.astype(np.int64), counts.astype(np.int64)


@overload
def fleiss_kappa(references: Sequence[Segmentation], *, positions: str = "all",
                 return_parts: Literal[False] = False) -> float: ...
@overload
def fleiss_kappa(references: Sequence[Segmentation], *, positions: str = "all",
                 return_parts: Literal[True]) -> KappaResult: ...
@overload
def fleiss_kappa(references: Sequence[Segmentation], *, positions: str = "all",
                 return_parts: bool) -> float | KappaResult: ...


def fleiss_kappa(references: Any, *, positions: str = "all", return_parts: bool = False
                 ) -> Union[float, KappaResult]:
    """Fleiss' (1971) kappa of boundary / no-boundary decisions among several references.

    Items are the gaps (``n-1`` potential boundaries), raters the ``m`` references, and the two
    categories "boundary" and "no boundary". With ``n_j`` references marking gap ``j`` and ``N``
    items::

        P_j  = (n_j^2 + (m - n_j)^2 - m) / (m (m - 1))      observed agreement on item j
        P    = mean_j P_j
        p    = sum_j n_j / (N m)                             share of "boundary" votes
        P_e  = p^2 + (1 - p)^2                               chance agreement
        kappa = (P - P_e) / (1 - P_e)

    This equals Scott's multi-pi (Siegel & Castellan's K) as computed by nltk's
    ``AnnotationTask.pi``. WiSeBE (section 5.1) reports it beside its agreement ratio.

    Parameters
    ----------
    references : sequence of Segmentation
        At least two references over the same units.
    positions : {"all", "boundaries"}, default "all"
        ``"all"``: every gap is an item. ``"boundaries"``: only gaps that at least one reference
        marks (the WiSeBE tool's "kappa in borders").
    return_parts : bool, default False
        Return a :class:`KappaResult`.

    Returns
    -------
    float
        Kappa in ``[-1, 1]``. When chance agreement is 1 (every rater puts every item in the
        same category, e.g. no reference has a boundary) agreement is perfect and kappa is 1.0
        by convention; with no items at all (a 1-unit document, or ``"boundaries"`` without any
        boundary) it is also 1.0.

    Notes
    -----
    O(B log B) with B the total number of reference boundaries (sparse counts; the gaps that
    no reference marks are counted, not enumerated).

    Examples
    --------
    >>> fleiss_kappa([Segmentation([3, 7], 9), Segmentation([3, 7], 9)])
    1.0
    >>> # 8 gaps; two raters mark gap 2, one of them also gap 5: items 2 (agree) and 5 (disagree)
    >>> # P = (7 * 1 + 0) / 8 = 224/256, p = 3/16, P_e = (9 + 169)/256, kappa = 46/78
    >>> round(fleiss_kappa([Segmentation([3], 9), Segmentation([3, 6], 9)]), 6)
    0.589744
    """
    segs = _references(references)
    m = len(segs)
    _, counts = general_reference(segs)
    if positions == "all":
        n_items = segs[0].n_units - 1
    elif positions == "boundaries":
        n_items = int(counts.size)
    else:
        raise InvalidParameterError.make("positions", "'all' or 'boundaries'", positions)
    if n_items == 0:
        result = KappaResult(1.0, 1.0, 1.0, 0, m, 0.0)
        return with_parts(result, return_parts)
    # kappa = 1 - (1 - P) / (1 - P_e) with 1 - P_j = 2 n_j (m - n_j) / (m (m - 1)) and
    # 1 - P_e = 2 p (1 - p): an integer ratio, exact however rare boundaries are among the gaps
    # (P and P_e themselves both round to 1.0 on a long document)
    votes = int(counts.sum())
    disagreement = int(np.sum(counts * (m - counts)))
    denominator = (m - 1) * votes * (n_items * m - votes)
    value = 1.0 if denominator == 0 else (denominator - m * n_items * disagreement) / denominator
    observed = 1.0 - 2 * disagreement / (m * (m - 1) * n_items)
    p = votes / (n_items * m)
    result = KappaResult(value, observed, p * p + (1.0 - p) * (1.0 - p), n_items, m, p)
    return with_parts(result, return_parts)


@overload
def wisebe(references: Sequence[Segmentation], candidate: Segmentation, window_limit: int = 3, *,
           return_parts: Literal[False] = False) -> float: ...
@overload
def wisebe(references: Sequence[Segmentation], candidate: Segmentation, window_limit: int = 3, *,
           return_parts: Literal[True]) -> WiSeBEResult: ...
@overload
def wisebe(references: Sequence[Segmentation], candidate: Segmentation, window_limit: int = 3, *,
           return_parts: bool) -> float | WiSeBEResult: ...


def wisebe(references: Any, candidate: Any, window_limit: int = 3, *, return_parts: bool = False
           ) -> Union[float, WiSeBEResult]:
    """WiSeBE, Window-based Sentence Boundary Evaluation (González-Gallardo & Torres-Moreno 2018).

    1. General reference ``R_G`` (eq. 3-4): ``d_j`` = number of references marking position ``j``.
    2. Agreement ratio (eq. 5-7): ``R_G_AR = R_G_PB / R_G_HA`` with
       ``R_G_PB = sum_j d_j [d_j >= 2]`` and ``R_G_HA = m * #{j: d_j != 0}``.
    3. Window-boundaries reference ``R_W`` (eq. 8-9): scanning the positions with ``d_j != 0``
       left to right, a position joins the current window when its distance to the previous such
       position is at most ``window_limit``, else it opens a new window; a window spans from its
       first to its last position. The text of eq. 9 lost the limit's definition; this is the rule
       of the authors' public tool (github.com/cic4k/wisebe, ``--min_window_limit``, default 3).
    4. Precision (eq. 12) = candidate boundaries lying inside some window / candidate boundaries;
       recall (eq. 13) = windows holding at least one candidate boundary / windows; F1 (eq. 11).
    5. ``WiSeBE = F1 x R_G_AR`` (eq. 10).

    Parameters
    ----------
    references : sequence of Segmentation
        At least two references over the same units.
    candidate : Segmentation
        The segmentation to evaluate, over the same units.
    window_limit : int, default 3
        Window separation limit ``R_W_l`` in units (``>= 0``; 0 makes every marked position its
        own window).
    return_parts : bool, default False
        Return a :class:`WiSeBEResult`.

    Returns
    -------
    float
        WiSeBE in ``[0, 1]``. Zero divisions follow the project's rule (0/0 is 1.0 when both the
        candidate and the windows are empty, 0.0 otherwise); with no reference boundary at all the
        agreement ratio is 1.0 (the references agree completely).

    Notes
    -----
    O(B log B) with B the total number of boundaries (references and candidate).

    Examples
    --------
    >>> refs = [Segmentation(b, 9) for b in ([3, 7], [3, 8], [4, 7])]
    >>> # R_G: d = 2 at 3 and 7, 1 at 4 and 8; AR = (2 + 2) / (3 * 4) = 1/3
    >>> # windows (limit 3): [3, 8] is one window (gaps of 1, 3, 1 between marked positions)
    >>> r = wisebe(refs, Segmentation([3, 7], 9), return_parts=True)
    >>> r.windows, r.precision, r.recall, round(r.value, 4)
    (((3, 8),), 1.0, 1.0, 0.3333)
    >>> wisebe(refs, Segmentation([3, 7], 9), window_limit=1, return_parts=True).windows
    ((3, 4), (7, 8))
    """
    segs = _references(references)
    cand = check_segmentation(candidate, "candidate")
    if cand.n_units != segs[0].n_units:
        raise InvalidSegmentationError(
            f"candidate must cover the same {segs[0].n_units} units as the references; "
            f"received {cand.n_units} units"
        )
    limit = check_int(window_limit, "window_limit")
    if limit < 0:
        raise InvalidParameterError.make("window_limit", "an integer >= 0", window_limit)
    m = len(segs)
    pos, d = general_reference(segs)
    ponderated = int(d[d >= 2].sum())
    maximum = m * int(pos.size)
    # no reference boundary at all: the references agree completely (their own rule, not P/R's)
    agreement = ponderated / maximum if maximum else 1.0
    if pos.size:
        new = np.flatnonzero(np.diff(pos) > limit) + 1
        starts = pos[np.concatenate(([0], new))]
        ends = pos[np.concatenate((new - 1, [pos.size - 1]))]
    else:
        starts = ends = np.zeros(0, np.int64)
    c = cand.boundary_array()
    idx = np.searchsorted(starts, c, side="right") - 1
    inside = (idx >= 0) & (c <= ends[np.maximum(idx, 0)]) if starts.size else np.zeros(c.size, bool)
    in_windows = int(np.count_nonzero(inside))
    hit = int(np.unique(idx[inside]).size)
    precision = boundary_ratio(in_windows, c.size, starts.size)
    recall = boundary_ratio(hit, starts.size, c.size)
    f1 = harmonic(precision, recall)
    result = WiSeBEResult(
        f1 * agreement, f1, precision, recall, agreement, ponderated, maximum,
        tuple(zip(starts.tolist(), ends.tolist())), in_windows, hit, limit,
    )
    return with_parts(result, return_parts)
