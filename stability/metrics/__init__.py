"""Reference-based segmentation metrics: every metric of the field, exact and vectorized.

Conventions shared by every function of this package:

* **Inputs.** ``reference`` and ``hypothesis`` are each a
  :class:`~stability.segmentation.Segmentation`, validated once by
  :func:`~stability.segmentation.as_segmentation`; both must cover the same number of units
  ``n`` (at most ``2**62``). Multi-reference functions take a sequence of segmentations. A bare
  sequence is refused with :class:`~stability.exceptions.InvalidTypeError`, never guessed at:
  ``[3, 7]`` means boundaries in this project and masses in segeval, and the two readings give
  different numbers. Say which one you mean with ``Segmentation.from_boundaries(b, n)``
  (segment starts), ``Segmentation.from_masses(m)`` (segment sizes, segeval's encoding) or
  ``Segmentation.from_gaps(s)`` (nltk / segeval boundary strings).
* **Argument order: (reference, hypothesis)**, as in nltk. Note: segeval takes
  (hypothesis, reference), the other way round; code ported from segeval must swap them. Pk and
  WindowDiff at a fixed ``k``, B, S, GHD (equal costs) and CovN/CovD do not change when swapped;
  precision and recall trade places, Pr_error's misses and false alarms too, and every default
  window is read from the reference. nltk's and segeval's keyword names (``window_size=``,
  ``hypothesis_segmentation=``, ``boundary=``...) are refused with a message saying this.
* **Results.** Every metric returns a Python ``float``. Passing ``return_parts=True`` returns a
  small frozen dataclass instead, whose ``value`` is that float and whose other fields are the
  parts (counts, numerator, denominator, the window used...). The exception is
  :func:`boundary_prf`, whose natural result is a triple: it always returns a
  :class:`BoundaryPRF` (iterable as ``precision, recall, f1``).
* **Windows** (:func:`pk`, :func:`windowdiff` and relatives) are counted in gaps; ``k=None``
  takes half the mean reference segment length (Lamprier et al. 2007 eq. 5), **which is not
  nltk's default** (nltk's pk divides by the boundaries, not the segments: the two differ on
  most documents); ``k="nltk"`` or ``k="segeval"`` give those libraries' defaults, and an explicit ``k`` must lie in ``1 .. n-1``
  (anything else is refused, never silently mapped to 0 or -0.0). The window used is reported
  in the parts. :func:`pr_error` counts its window in units (see its docstring).
* **Zero divisions** follow the project's rule: 0/0 is 1.0 when both sides are empty, 0.0
  otherwise.
* Each docstring cites the equation it implements and states its complexity.

=================================  =====================================================  ==========
function                           what                                                   source
=================================  =====================================================  ==========
:func:`boundary_prf`               precision / recall / F1, maximum matching, tolerance   Lamprier §3
:func:`chance_corrected_f1`        F1 corrected for chance: (F1 - E[F1]) / (1 - E[F1])    kappa form
:func:`expected_f1`                expected F1 of randomly placed boundaries (exact)      hand, tests
:func:`pk`                         Beeferman's Pk (= nltk, segeval)                       Georgescul §4.1
:func:`windowdiff`                 Pevzner & Hearst's WindowDiff (= nltk, segeval)        Lamprier eq. 3
:func:`windowdiff_corrected`       WindowDiff with edge windows, denominator n+k-2        Lamprier eq. 4
:func:`expected_windowdiff`        expectation under random boundaries                    Lamprier eq. 7-8
:func:`nwin`, :func:`tnwin`        normalized / tolerant normalized WindowDiff            Lamprier eq. 6, 9-10
:func:`pr_error`                   C_miss Pr_miss + C_fa Pr_fa                            Georgescul §4.3
:func:`ghd`                        generalized Hamming distance (= nltk)                  blog seed 003
:func:`boundary_similarity`        Fournier's B (= segeval)                               segeval 2.0.11
:func:`segmentation_similarity`    Fournier & Inkpen's S (= segeval)                      segeval 2.0.11
:func:`cov_n`, :func:`cov_d`       segment coverage, by count / by duration               Bouchekif eq. 1-3
:func:`wisebe`                     multi-reference window F1 x agreement ratio            WiSeBE eq. 3-13
:func:`fleiss_kappa`               boundary agreement among references                   Fleiss 1971
:func:`compute_all`                the single-reference report set (dict)
:func:`multi_reference_metrics`    WiSeBE and agreement (dict)
=================================  =====================================================  ==========

Examples
--------
>>> from stability import Segmentation
>>> from stability.metrics import pk, windowdiff, boundary_prf
>>> ref = Segmentation.from_boundaries([3, 7], 9)        # or Segmentation.from_masses([3, 4, 2])
>>> hyp = Segmentation.from_gaps("01000001")             # boundaries 2 and 8
>>> pk(ref, hyp, k=2)
0.42857142857142855
>>> windowdiff(ref, hyp, k=2, return_parts=True)
WindowResult(value=0.42857142857142855, k=2, numerator=3, denominator=7)
>>> p, r, f = boundary_prf(ref, hyp, tolerance=1)
>>> f
1.0
>>> pk([3, 7], [2, 8], k=2)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
stability.exceptions.InvalidTypeError: reference must be a Segmentation; received list [3, 7]. ...
"""

from ._common import WINDOW_POLICIES, window_size
from .boundary import BoundaryPRF, ChanceCorrectedF1, GHDResult, boundary_prf, chance_corrected_f1, ghd
from .coverage import CoverageResult, cov_d, cov_n
from .multi import KappaResult, WiSeBEResult, fleiss_kappa, general_reference, wisebe
from .standard import (
    compute_all,
    multi_reference_metrics,
    reference_metrics,
)
from .similarity import EditCounts, boundary_edit_counts, boundary_similarity, segmentation_similarity
from .expectation import expected_f1, expected_windowdiff
from .windows import (
    NWinResult,
    PrErrorResult,
    WindowResult,
    nwin,
    pk,
    pr_error,
    tnwin,
    windowdiff,
    windowdiff_corrected,
)

def _reference_first_functions() -> None:
    """Every public function taking ``(reference, hypothesis)`` refuses nltk's and segeval's
    keyword names with a message naming the argument order (:func:`._common.reference_first`);
    which functions is read from their signatures."""
    import inspect

    from ._common import reference_first

    wrapped: dict[int, object] = {}  # an alias (reference_metrics = compute_all) stays the same object
    for name in __all__:
        function = globals()[name]
        if inspect.isfunction(function) and list(inspect.signature(function).parameters)[:2] == ["reference", "hypothesis"]:
            globals()[name] = wrapped.setdefault(id(function), reference_first(function))


__all__ = [
    "BoundaryPRF",
    "ChanceCorrectedF1",
    "CoverageResult",
    "EditCounts",
    "GHDResult",
    "KappaResult",
    "NWinResult",
    "PrErrorResult",
    "WINDOW_POLICIES",
    "WiSeBEResult",
    "WindowResult",
    "boundary_edit_counts",
    "boundary_prf",
    "boundary_similarity",
    "chance_corrected_f1",
    "compute_all",
    "cov_d",
    "cov_n",
    "expected_f1",
    "expected_windowdiff",
    "fleiss_kappa",
    "general_reference",
    "ghd",
    "multi_reference_metrics",
    "nwin",
    "pk",
    "pr_error",
    "reference_metrics",
    "segmentation_similarity",
    "tnwin",
    "wisebe",
    "window_size",
    "windowdiff",
    "windowdiff_corrected",
]

_reference_first_functions()
