"""Shared helpers of :mod:`stability.metrics`: validation, gap arrays, window policies, results.

Nothing here is public API; the public names are re-exported by :mod:`stability.metrics`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Union

import numpy as np

from ..exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError
from ..checks import check_bool, check_choice, check_int, check_real, did_you_mean
from ..stats import f1_score
from ..segmentation import Segmentation, as_segmentation

__all__ = [
    "WindowPolicy",
    "WINDOW_POLICIES",
    "check_window",
    "MAX_UNITS",
    "check_segmentation",
    "pair",
    "check_k",
    "resolve_k",
    "window_size",
    "check_bool",
    "check_real",
    "check_times",
    "unit_times",
    "check_int",
    "with_parts",
    "harmonic",
    "PEER_KEYWORDS",
    "reference_first",
]

WindowPolicy = Union[None, int, str]

#: Names accepted for the window-size policy (``k="..."``) of the window metrics.
WINDOW_POLICIES = ("lamprier", "nltk", "segeval")


#: Largest document the metrics accept: they count units, gaps and windows in 64-bit integers,
#: and sums such as ``n + k`` must stay below 2**63.
MAX_UNITS = 2**62


def check_segmentation(value: Any, name: str) -> Segmentation:
    """The metrics' input check: a :class:`~stability.segmentation.Segmentation` (a bare sequence
    is refused by :func:`~stability.segmentation.as_segmentation`) of at most :data:`MAX_UNITS`
    units."""
    seg = as_segmentation(value, name)
    if seg.n_units > MAX_UNITS:
        raise InvalidParameterError.make(
            name, "a segmentation of at most 2**62 units (the metrics count in 64-bit integers)",
            f"a segmentation of {seg.n_units} units",
        )
    return seg


def pair(reference: Any, hypothesis: Any) -> tuple[Segmentation, Segmentation]:
    """Validate a (reference, hypothesis) pair once and check they cover the same units."""
    ref = check_segmentation(reference, "reference")
    hyp = check_segmentation(hypothesis, "hypothesis")
    if ref.n_units != hyp.n_units:
        raise InvalidSegmentationError(
            "reference and hypothesis must cover the same number of units; received "
            f"{ref.n_units} units (reference) and {hyp.n_units} units (hypothesis)"
        )
    return ref, hyp


def check_times(times: Any, n_units: int) -> np.ndarray:
    """Per-unit ``(start, end)`` times as a float array of shape ``(n_units, 2)``, all finite (an
    error names the first unit that is not, with its two numbers)."""
    try:
        arr = np.asarray(times, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidTypeError.make("times", "an (n_units, 2) array of (start, end) times", times) from None
    if arr.shape != (n_units, 2):
        raise InvalidParameterError(
            f"times must have one (start, end) row per unit, shape ({n_units}, 2); received shape {arr.shape}"
        )
    bad = np.flatnonzero(~np.isfinite(arr).all(axis=1))
    if bad.size:
        raise InvalidParameterError(f"times must be finite numbers; {unit_times(arr, int(bad[0]))}")
    return arr


def unit_times(arr: np.ndarray, unit: int) -> str:
    """``unit 2 has start=nan, end=3.0``: one unit's times as messages give them (plain floats)."""
    return f"unit {unit} has start={float(arr[unit, 0])!r}, end={float(arr[unit, 1])!r}"


def check_k(k: Any, n_units: int, name: str = "k") -> int:
    """Validate an explicit window size: an integer in ``1 .. n_units-1``."""
    kk = check_int(k, name)
    if n_units < 2:
        raise InvalidSegmentationError(
            f"window metrics need at least 2 units (one gap); received a document of {n_units} unit"
        )
    if not 1 <= kk <= n_units - 1:
        raise InvalidParameterError.make(
            name, f"an integer in 1..{n_units - 1} (the number of gaps of a {n_units}-unit document)", k
        )
    return kk


def window_size(reference: Any, policy: str = "lamprier") -> int:
    """Default window size ``k`` (in gaps) derived from the reference, by a named policy.

    Parameters
    ----------
    reference : Segmentation
        The reference segmentation.
    policy : {"lamprier", "nltk", "segeval"}
        * ``"lamprier"`` (default): ``k = round(n / (2 (m + 1)))``, half the mean reference segment
          length, Lamprier et al. (2007) eq. 5 (also Pevzner & Hearst's advice);
        * ``"nltk"``: nltk 3.10 ``pk``'s rule ``k = round((n - 1) / (2 max(m, 1)))`` (gap-string
          length over twice the boundary count);
        * ``"segeval"``: segeval 2.0.11's rule ``k = max(2, round(n / (2 (m + 1))))``.

        ``n`` is the number of units, ``m`` the number of reference boundaries, and ``round`` is
        Python's half-to-even rounding, as all three sources use. The result is finally clamped
        into the valid range ``1 .. n-1`` (nltk's rule can give 0 for dense references and
        segeval's 2 can exceed ``n-1`` on a 2-unit document; both peers then misbehave).

    Returns
    -------
    int
        The window size, in ``1 .. n-1``.

    Examples
    --------
    >>> ref = Segmentation([3, 7], 9)                  # n = 9, m = 2
    >>> window_size(ref)                               # 9 / (2 * 3) = 1.5 -> 2
    2
    >>> window_size(ref, "nltk")                       # 8 / (2 * 2) = 2
    2
    >>> window_size(Segmentation([5, 10, 15], 20), "segeval")   # max(2, round(2.5)) = 2
    2
    """
    ref = check_segmentation(reference, "reference")
    n, m = ref.n_units, ref.n_boundaries
    if n < 2:
        raise InvalidSegmentationError(
            f"window metrics need at least 2 units (one gap); received a document of {n} unit"
        )
    if policy == "lamprier":
        k = round(n / (2 * (m + 1)))
    elif policy == "nltk":
        k = int(round((n - 1) / (max(m, 1) * 2.0)))
    elif policy == "segeval":
        k = max(2, round(n / (2 * (m + 1))))
    else:  # refused with the conventions listed and the closest one
        k = check_choice(policy, "policy", WINDOW_POLICIES)
    return min(max(int(k), 1), n - 1)


def check_window(k: Any, name: str = "k") -> Any:
    """``k`` if it is a window the metrics take (an integer of at least 1 unit, or a convention's
    name in :data:`WINDOW_POLICIES`), else one error saying both forms, with the closest name
    for a misspelt one; ``None`` (the default convention) passes.

    >>> check_window("nltk"), check_window(3), check_window(None)
    ('nltk', 3, None)
    >>> check_window("nltkk", "metrics k")
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: metrics k must be an integer >= 1 or one of 'lamprier', 'nltk', 'segeval'; received 'nltkk'; did you mean 'nltk'?
    """
    if k is None:
        return None
    if isinstance(k, str):
        if k in WINDOW_POLICIES:
            return k
        listed = ", ".join(map(repr, WINDOW_POLICIES))
        error = InvalidParameterError.make(name, f"an integer >= 1 or one of {listed}", k)
        raise InvalidParameterError(str(error) + did_you_mean(k, WINDOW_POLICIES), parameter=name)
    return check_int(k, name, low=1)


def resolve_k(k: WindowPolicy, reference: Segmentation) -> int:
    """``k=None`` -> Lamprier eq. 5; a policy name -> :func:`window_size`; an int is validated;
    a name that is no convention is refused as :func:`check_window` refuses it."""
    if k is None:
        return window_size(reference, "lamprier")
    if isinstance(k, str):
        return window_size(reference, check_window(k))
    return check_k(k, reference.n_units)


def with_parts(result: Any, return_parts: Any) -> Any:
    """``result`` (a parts dataclass) when ``return_parts`` is true, else its ``value``."""
    return result if check_bool(return_parts, "return_parts") else result.value


#: Harmonic mean of two rates in [0, 1]; 0.0 when both are 0 (:func:`stability.stats.f1_score`).
harmonic = f1_score


#: Keyword names of nltk's and segeval's versions of these metrics, which these functions do not
#: take, and what to write instead. A call using one is most likely code ported from that library,
#: with the arguments possibly in its order: :func:`reference_first` says so instead of Python's
#: bare "unexpected keyword argument".
PEER_KEYWORDS = {
    "hypothesis_segmentation": "segeval's first argument; here the hypothesis comes second",
    "reference_segmentation": "segeval's second argument; here the reference comes first",
    "segmentation_a": "segeval's first side (usually the hypothesis); here the reference comes first",
    "segmentation_b": "segeval's second side (usually the reference); here it comes first",
    "window_size": "segeval's window; here it is k=, and k='segeval' gives segeval's default window",
    "boundary_format": "segeval's input encoding; here build Segmentation.from_masses(m)",
    "boundary": "nltk's boundary character; here build Segmentation.from_gaps(s, boundary=...)",
    "ref": "nltk's name; here reference=", "hyp": "nltk's name; here hypothesis=",
    "seg1": "nltk's name; here reference=", "seg2": "nltk's name; here hypothesis=",
}

ARGUMENT_ORDER = ("these metrics take (reference, hypothesis), like nltk; segeval takes "
                  "(hypothesis, reference), the other way round")


def reference_first(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (whose first parameters are ``reference, hypothesis``), refusing nltk's and
    segeval's keyword names (:data:`PEER_KEYWORDS`) with a message saying what to write here and
    the argument order, instead of Python's bare "unexpected keyword argument"."""

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if kwargs and not PEER_KEYWORDS.keys().isdisjoint(kwargs):
            name = next(key for key in kwargs if key in PEER_KEYWORDS)
            raise InvalidTypeError(f"{function.__name__}() has no keyword {name!r} ({PEER_KEYWORDS[name]}); "
                                   f"{ARGUMENT_ORDER}", parameter=name)
        return function(*args, **kwargs)

    return checked
