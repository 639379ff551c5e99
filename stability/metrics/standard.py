"""The standard metric sets of reports: every catalogued metric against one reference, and
against several references.

Both functions are loops over :mod:`stability.catalogue` (:data:`~stability.catalogue.REFERENCE`
and :data:`~stability.catalogue.MULTI_REFERENCE`): a metric declared there is computed here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional

from ..checks import check_choice
from ..exceptions import InvalidParameterError
from ._common import WindowPolicy, check_segmentation, check_window, pair, resolve_k
from .multi import _references

__all__ = ["compute_all", "reference_metrics", "multi_reference_metrics"]


def compute_all(reference: Any, hypothesis: Any, *, k: WindowPolicy = None, tolerance: int = 0,
                gamma: float = 0.85, times: Optional[Any] = None, names: Optional[Iterable[str]] = None,
                long_window: str = "raise") -> dict[str, float]:
    """Every standard single-reference metric of a report, in one call.

    Parameters
    ----------
    reference, hypothesis : Segmentation
        The two segmentations, over the same number of units (a bare list is refused: build it
        with ``Segmentation.from_boundaries`` or ``Segmentation.from_masses``), **reference
        first** like every metric here and nltk; segeval takes (hypothesis, reference).
    k : int or {"lamprier", "nltk", "segeval"}, optional
        Window for the window metrics (default Lamprier et al. eq. 5, not nltk's rule: see
        :func:`~stability.metrics.pk`); Pr_error uses a window of
        ``k+1`` units (the same number of gaps, see :func:`pr_error`).
    tolerance : int, default 0
        Boundary-matching tolerance of precision / recall / F1.
    gamma : float, default 0.85
        CovN / CovD threshold.
    times : array-like of shape (n_units, 2), optional
        Per-unit ``(start, end)`` times for CovN / CovD.
    names : iterable of str, optional
        The metrics to compute, by their catalogue names or aliases (``wd``, ``b``; default: all
        of them), each under its name in the result; the others are not computed.
    long_window : {"raise", "nan"}, default "raise"
        What an integer ``k`` larger than the document's gaps gives: an error, or ``nan`` for the
        window metrics and ``window_k`` (a corpus run, where one ``k`` serves documents of every
        length).

    Returns
    -------
    dict of str to float
        Keys (:data:`stability.catalogue.REFERENCE`, in its order):

        * ``precision``, ``recall``, ``f1``: :func:`boundary_prf` with ``tolerance``;
        * ``pk``, ``windowdiff``: :func:`pk`, :func:`windowdiff` (unweighted) at ``window_k``;
        * ``windowdiff_corrected``: :func:`windowdiff_corrected` (eq. 4, unweighted);
        * ``nwin``, ``tnwin``: :func:`nwin`, :func:`tnwin` (paper defaults: weighted, eq. 4, t = 0.5);
        * ``pr_error``: :func:`pr_error` with balanced costs;
        * ``ghd``: :func:`ghd` with nltk's default costs (unnormalized);
        * ``boundary_similarity``, ``segmentation_similarity``: B and S (n_t = 2);
        * ``cov_n``, ``cov_d``: CovN and CovD (their F values);
        * ``window_k``: the window used (an int).

        On a 1-unit document (no gap) the window metrics are ``nan``, and so is ``window_k``
        (no window was used).

    Examples
    --------
    >>> from stability import Segmentation
    >>> scores = compute_all(Segmentation([3, 7], 9), Segmentation([2, 8], 9))
    >>> scores["pk"], scores["window_k"], scores["boundary_similarity"]
    (0.42857142857142855, 2, 0.5)
    """
    from ..catalogue import REFERENCE, MetricContext

    ref, hyp = pair(reference, hypothesis)
    check_choice(long_window, "long_window", ("raise", "nan"))
    # k is checked on a one-unit document too, which uses no window
    explicit = check_window(k)
    too_long = isinstance(explicit, int) and 2 <= ref.n_units <= explicit and long_window == "nan"
    k_used = resolve_k(k, ref) if ref.n_units >= 2 and not too_long else 0
    wanted = REFERENCE if names is None else {name: REFERENCE[name] for name in _known(names)}
    context = MetricContext(ref, hyp, k=k_used, tolerance=tolerance, gamma=gamma, times=times)
    return {name: m.value(context) for name, m in wanted.items()}


def _known(names: Iterable[str]) -> list[str]:
    """``names`` checked against the catalogue's reference metrics, an alias (``wd``, ``b``, as
    ``--metrics`` and ``[metrics] names`` take them) read as the name it stands for."""
    from ..catalogue import REFERENCE, aliases_said, reference_spellings

    spelled = {spelling: name for spelling, name in reference_spellings().items() if name in REFERENCE}
    listed = [names] if isinstance(names, str) else list(names)
    unknown = [name for name in listed if not isinstance(name, str) or name not in spelled]
    if unknown:
        raise InvalidParameterError.make(
            "names", f"reference metric names drawn from {', '.join(REFERENCE)} (or an alias: "
            f"{aliases_said(spelled)})", unknown)
    return list(dict.fromkeys(spelled[name] for name in listed))


#: Alias of :func:`compute_all`.
reference_metrics = compute_all


def multi_reference_metrics(references: Any, hypothesis: Any, *, window_limit: int = 3,
                            tolerance: int = 0) -> dict[str, float]:
    """WiSeBE and the agreement among references, for a hypothesis judged against several.

    Parameters
    ----------
    references : sequence of Segmentation
        At least two references over the same units.
    hypothesis : Segmentation
        The segmentation to evaluate.
    window_limit : int, default 3
        WiSeBE window separation limit (see :func:`wisebe`).
    tolerance : int, default 0
        Tolerance of the per-reference boundary F1 averaged into ``mean_f1``.

    Returns
    -------
    dict of str to float
        Keys (:data:`stability.catalogue.MULTI_REFERENCE`, in its order):

        * ``wisebe``: WiSeBE (eq. 10); ``wisebe_f1``, ``wisebe_precision``, ``wisebe_recall``:
          the hypothesis against the window-boundaries reference (eq. 11-13);
        * ``agreement_ratio``: WiSeBE's R_G_AR (eq. 5);
        * ``fleiss_kappa``: :func:`fleiss_kappa` over all gaps; ``fleiss_kappa_boundaries``: over
          the gaps marked by at least one reference;
        * ``mean_f1``: mean boundary F1 against each reference (WiSeBE's F1_mean);
        * ``n_references``: the number of references (an int).

    Examples
    --------
    >>> from stability import Segmentation
    >>> refs = [Segmentation(b, 9) for b in ([3, 7], [3, 8], [4, 7])]
    >>> scores = multi_reference_metrics(refs, Segmentation([3, 7], 9))
    >>> round(scores["wisebe"], 4), round(scores["mean_f1"], 4)
    (0.3333, 0.6667)
    """
    from ..catalogue import MULTI_REFERENCE, MetricContext

    refs = _references(references)
    hyp = check_segmentation(hypothesis, "hypothesis")
    context = MetricContext(refs[0], hyp, tolerance=tolerance, references=tuple(refs),
                            window_limit=window_limit)
    return {name: m.value(context) for name, m in MULTI_REFERENCE.items()}
