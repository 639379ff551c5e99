"""The standard metric sets used in reports: one reference, and several references."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._common import WindowPolicy, pair, resolve_k
from .boundary import boundary_prf, ghd
from .coverage import cov_d, cov_n
from .multi import _references, fleiss_kappa, wisebe
from .similarity import boundary_similarity, segmentation_similarity
from .windows import nwin, pk, pr_error, tnwin, windowdiff, windowdiff_corrected

__all__ = ["REFERENCE_METRIC_KEYS", "MULTI_REFERENCE_METRIC_KEYS", "compute_all", "reference_metrics",
           "multi_reference_metrics"]

#: Keys of :func:`compute_all`, in report order.
REFERENCE_METRIC_KEYS = (
    "precision", "recall", "f1", "pk", "windowdiff", "windowdiff_corrected", "nwin", "tnwin",
    "pr_error", "ghd", "boundary_similarity", "segmentation_similarity", "cov_n", "cov_d", "window_k",
)

#: Keys of :func:`multi_reference_metrics`, in report order.
MULTI_REFERENCE_METRIC_KEYS = (
    "wisebe", "wisebe_f1", "wisebe_precision", "wisebe_recall", "agreement_ratio", "fleiss_kappa",
    "fleiss_kappa_boundaries", "mean_f1", "n_references",
)


def compute_all(reference: Any, hypothesis: Any, *, k: WindowPolicy = None, tolerance: int = 0,
                gamma: float = 0.85, times: Optional[Any] = None) -> dict[str, float]:
    """Every standard single-reference metric of a report, in one call.

    Parameters
    ----------
    reference, hypothesis : Segmentation or sequence of int
        The two segmentations (or their masses), over the same number of units.
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window for the window metrics (default Lamprier et al. eq. 5); Pr_error uses a window of
        ``k+1`` units (the same number of gaps, see :func:`pr_error`).
    tolerance : int, default 0
        Boundary-matching tolerance of precision / recall / F1.
    gamma : float, default 0.85
        CovN / CovD threshold.
    times : array-like of shape (n_units, 2), optional
        Per-unit ``(start, end)`` times for CovN / CovD.

    Returns
    -------
    dict of str to float
        Keys (:data:`REFERENCE_METRIC_KEYS`):

        * ``precision``, ``recall``, ``f1``: :func:`boundary_prf` with ``tolerance``;
        * ``pk``, ``windowdiff``: :func:`pk`, :func:`windowdiff` (unweighted) at ``window_k``;
        * ``windowdiff_corrected``: :func:`windowdiff_corrected` (eq. 4, unweighted);
        * ``nwin``, ``tnwin``: :func:`nwin`, :func:`tnwin` (paper defaults: weighted, eq. 4, t = 0.5);
        * ``pr_error``: :func:`pr_error` with balanced costs;
        * ``ghd``: :func:`ghd` with nltk's default costs (unnormalized);
        * ``boundary_similarity``, ``segmentation_similarity``: B and S (n_t = 2);
        * ``cov_n``, ``cov_d``: CovN and CovD (their F values);
        * ``window_k``: the window used (an int).

        On a 1-unit document (no gap) the window metrics are ``nan`` and ``window_k`` is 0.

    Examples
    --------
    >>> scores = compute_all([3, 4, 2], [2, 6, 1])
    >>> scores["pk"], scores["window_k"], scores["boundary_similarity"]
    (0.42857142857142855, 2, 0.5)
    """
    ref, hyp = pair(reference, hypothesis)
    prf = boundary_prf(ref, hyp, tolerance)
    out: dict[str, float] = {"precision": prf.precision, "recall": prf.recall, "f1": prf.f1}
    if ref.n_units >= 2:
        kk = resolve_k(k, ref)
        out.update(
            pk=pk(ref, hyp, kk),
            windowdiff=windowdiff(ref, hyp, kk),
            windowdiff_corrected=windowdiff_corrected(ref, hyp, kk),
            nwin=nwin(ref, hyp, kk),
            tnwin=tnwin(ref, hyp, kk),
            pr_error=pr_error(ref, hyp, kk + 1),
        )
    else:
        kk = 0
        out.update({key: float("nan") for key in
                    ("pk", "windowdiff", "windowdiff_corrected", "nwin", "tnwin", "pr_error")})
    out.update(
        ghd=ghd(ref, hyp),
        boundary_similarity=boundary_similarity(ref, hyp),
        segmentation_similarity=segmentation_similarity(ref, hyp),
        cov_n=cov_n(ref, hyp, gamma, times=times),
        cov_d=cov_d(ref, hyp, gamma, times=times),
        window_k=kk,
    )
    return {key: out[key] for key in REFERENCE_METRIC_KEYS}


#: Alias of :func:`compute_all`.
reference_metrics = compute_all


def multi_reference_metrics(references: Any, hypothesis: Any, *, window_limit: int = 3,
                            tolerance: int = 0) -> dict[str, float]:
    """WiSeBE and the agreement among references, for a hypothesis judged against several.

    Parameters
    ----------
    references : sequence of Segmentation or of masses
        At least two references over the same units.
    hypothesis : Segmentation or sequence of int
        The segmentation to evaluate.
    window_limit : int, default 3
        WiSeBE window separation limit (see :func:`wisebe`).
    tolerance : int, default 0
        Tolerance of the per-reference boundary F1 averaged into ``mean_f1``.

    Returns
    -------
    dict of str to float
        Keys (:data:`MULTI_REFERENCE_METRIC_KEYS`):

        * ``wisebe``: WiSeBE (eq. 10); ``wisebe_f1``, ``wisebe_precision``, ``wisebe_recall``:
          the hypothesis against the window-boundaries reference (eq. 11-13);
        * ``agreement_ratio``: WiSeBE's R_G_AR (eq. 5);
        * ``fleiss_kappa``: :func:`fleiss_kappa` over all gaps; ``fleiss_kappa_boundaries``: over
          the gaps marked by at least one reference;
        * ``mean_f1``: mean boundary F1 against each reference (WiSeBE's F1_mean);
        * ``n_references``: the number of references (an int).

    Examples
    --------
    >>> scores = multi_reference_metrics([[3, 4, 2], [3, 5, 1], [4, 3, 2]], [3, 4, 2])
    >>> round(scores["wisebe"], 4), round(scores["mean_f1"], 4)
    (0.3333, 0.6667)
    """
    refs = _references(references)
    parts = wisebe(refs, hypothesis, window_limit, return_parts=True)
    f1s = [boundary_prf(r, hypothesis, tolerance).f1 for r in refs]
    return {
        "wisebe": parts.value,
        "wisebe_f1": parts.f1,
        "wisebe_precision": parts.precision,
        "wisebe_recall": parts.recall,
        "agreement_ratio": parts.agreement_ratio,
        "fleiss_kappa": fleiss_kappa(refs),
        "fleiss_kappa_boundaries": fleiss_kappa(refs, positions="boundaries"),
        "mean_f1": float(np.mean(f1s)),
        "n_references": len(refs),
    }
