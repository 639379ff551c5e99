"""Stability scores of Lamprier et al. (2007), section 5, Algorithm 1, eq. 11, and their controls.

Notation: ``B0`` is the initial segmentation, ``Br`` the segmentation of restart ``r``,
``m0 = |B0|``, ``mr = |Br|``, ``G = n - 1`` the number of gaps, ``xr`` the number of matched
boundaries (``|B0 ∩ Br|`` with no tolerance).

* Per restart: ``P_r = xr / mr`` and ``R_r = xr / m0``. **Zero division** follows one rule
  (:func:`stability.matching.empty_ratio`, where it is declared): when both sets are empty the
  score is 1.0 (nothing to find, nothing found); otherwise a zero denominator gives 0.0.
* ``STP = mean_r P_r``, ``STR = mean_r R_r``; ``F1 = 2 STP STR / (STP + STR)`` (eq. 11, the F1 of
  the averages, exactly as the paper defines it; 0.0 when ``STP + STR = 0``).
* Chance level: see :func:`chance_scores`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from dataclasses import dataclass

import numpy as np

from .checks import check_int
from .exceptions import InvalidParameterError
from .matching import boundary_ratios, expected_intersection, expected_matches, match_boundaries, with_empty_rule
from .stats import bootstrap_f1, f1_score, percentile_interval

__all__ = [
    "f1_score",
    "shuffle_corrected_f1",
    "restart_precision_recall",
    "chance_scores",
    "bootstrap_f1_interval",
    "boundary_confidence",
    "spurious_boundaries",
    "RestartCounts",
    "restart_f1",
    "no_credit",
    "headline_document",
    "count_corrected_f1",
    "headline_interval",
]


def shuffle_corrected_f1(f1: float, shuffle_f1: float) -> float:
    """Stability F1 corrected by the shuffle control: ``(F1 - S) / (1 - S)``.

    The form of a chance correction with the shuffle control's F1 ``S`` as the chance model: the
    share of the stability that the shuffle control leaves unexplained which the real test
    recovers. 0 when the shuffle control is perfectly stable (``S = 1``: the output does not depend
    on the content); NaN when the shuffle control was not run. It can be negative (less stable
    than the shuffle control). It is the previous headline: the pre-registered protocol
    (``docs/validation-protocol.md``) replaced it by :func:`count_corrected_f1`, which also corrects
    by the chance level of the boundary counts and gives no credit to a document without
    boundaries; reports still show it (``stab. (shuf.-corr.)``, full tables).

    Examples
    --------
    >>> shuffle_corrected_f1(0.75, 0.5)  # (0.75 - 0.5) / (1 - 0.5)
    0.5
    >>> shuffle_corrected_f1(1.0, 1.0)
    0.0
    """
    if math.isnan(shuffle_f1) or math.isnan(f1):
        return float("nan")
    return 0.0 if shuffle_f1 >= 1.0 else (f1 - shuffle_f1) / (1.0 - shuffle_f1)


@dataclass(frozen=True)
class RestartCounts:
    """Matched and predicted boundary counts of every restart against ``B0``."""

    matched: np.ndarray  #: ``xr`` per restart
    predicted: np.ndarray  #: ``mr`` per restart
    initial: int  #: ``m0``

    @property
    def precision(self) -> np.ndarray:
        return boundary_ratios(self.matched, self.predicted, self.initial)

    @property
    def recall(self) -> np.ndarray:
        return boundary_ratios(self.matched, np.full_like(self.predicted, self.initial), self.predicted)


def restart_precision_recall(
    initial: Sequence[int], restarts: Sequence[Sequence[int]], tolerance: int = 0
) -> RestartCounts:
    """Match every restart's boundaries against ``initial`` (one-to-one, within ``tolerance``)."""
    if tolerance == 0:
        base = set(initial)
        matched = [len(base.intersection(b)) for b in restarts]
    else:
        matched = [len(match_boundaries(initial, b, tolerance)) for b in restarts]
    return RestartCounts(
        matched=np.asarray(matched, dtype=np.int64),
        predicted=np.asarray([len(b) for b in restarts], dtype=np.int64),
        initial=len(initial),
    )


def chance_scores(
    initial: Sequence[int],
    predicted_counts: np.ndarray,
    n_units: int,
    tolerance: int = 0,
) -> tuple[float, float, float]:
    """Expected STP, STR and F1 of boundaries placed at random with the observed counts.

    For each restart ``r``, ``Br`` is replaced by ``mr`` gaps drawn uniformly without
    replacement from the ``G = n - 1`` gaps; ``B0`` (``m0`` boundaries) is kept. With no
    tolerance the overlap ``Xr`` is hypergeometric, ``E[Xr] = m0 mr / G``
    (:func:`stability.matching.expected_intersection`, exact, the one place it is written), hence

    * ``E[P_r] = m0 / G`` if ``mr > 0``; if ``mr = 0``, ``P_r`` is 1 when ``m0 = 0`` else 0;
    * ``E[R_r] = mr / G`` if ``m0 > 0``; if ``m0 = 0``, ``R_r`` is 1 when ``mr = 0`` else 0;

    and the chance level is ``chance_F1 = F1(mean_r E[P_r], mean_r E[R_r])`` (eq. 11 applied to
    the expected averages, as the observed F1 is eq. 11 applied to the observed averages). With a
    document of one unit (``G = 0``) every set is empty and the chance level is 1. With no restart
    there is nothing to expect: NaN, as :func:`restart_f1` gives.

    With ``tolerance > 0`` the expected overlap depends on where ``B0``'s boundaries lie: it is
    computed exactly, matched one-to-one as the real restarts are
    (:func:`stability.matching.expected_matches`), and ``E[P_r] = E[Xr] / mr``,
    ``E[R_r] = E[Xr] / m0`` as above.

    Returns
    -------
    (float, float, float)
        Expected STP, expected STR, chance F1.

    Examples
    --------
    >>> chance_scores([3], np.array([1, 1]), 5, tolerance=1)  # 3 of the 4 gaps reach 3
    (0.75, 0.75, 0.75)
    """
    gaps = n_units - 1
    m0 = len(initial)
    counts = np.asarray(predicted_counts, dtype=np.int64)
    if counts.size == 0:
        return float("nan"), float("nan"), float("nan")
    if gaps == 0:
        return 1.0, 1.0, 1.0
    sizes, at = np.unique(counts, return_inverse=True)
    if tolerance == 0:  # E[Xr] = m0 mr / G: E[P_r] = m0 / G and E[R_r] = mr / G, each rounded once
        _, precision, recall = expected_intersection(m0, gaps, sizes)
    else:
        overlap = expected_matches(initial, gaps, tolerance, sizes)
        precision, recall = overlap / np.maximum(sizes, 1), overlap / max(m0, 1)
    exp_p = with_empty_rule(precision, sizes, m0)[at]  # the zero rule where mr = 0 ...
    exp_r = with_empty_rule(recall, m0, sizes)[at]  # ... and where m0 = 0
    stp, st_r = float(np.mean(exp_p)), float(np.mean(exp_r))
    return stp, st_r, f1_score(stp, st_r)


#: Percentile bootstrap interval of eq. 11's F1 over restarts (:func:`stability.stats.bootstrap_f1`).
bootstrap_f1_interval = bootstrap_f1


def boundary_confidence(
    initial: Sequence[int], restarts: Sequence[Sequence[int]], tolerance: int = 0
) -> dict[int, float]:
    """Share of restarts in which each initial boundary reappears (matched within ``tolerance``)."""
    if not restarts:
        return {b: float("nan") for b in initial}
    if tolerance == 0:  # one Counter over every restart's matches (no update per restart)
        base = set(initial)
        hits = Counter(chain.from_iterable(base.intersection(b) for b in restarts))
    else:
        hits = Counter(r for b in restarts for r, _ in match_boundaries(initial, b, tolerance))
    return {b: hits[b] / len(restarts) for b in initial}


def spurious_boundaries(
    initial: Sequence[int], restarts: Sequence[Sequence[int]], tolerance: int = 0
) -> dict[int, float]:
    """Positions found in restarts but not matched to an initial boundary, with their frequency.

    The frequency is the share of restarts in which the position appears unmatched.
    """
    if not restarts:
        return {}
    if tolerance == 0:  # every restart's unmatched positions counted at once
        found = np.fromiter(chain.from_iterable(restarts), dtype=np.int64)
        positions, hits = np.unique(found[~np.isin(found, np.asarray(initial, dtype=np.int64))], return_counts=True)
        return {pos: count / len(restarts) for pos, count in zip(positions.tolist(), hits.tolist())}
    else:
        counts: Counter[int] = Counter()
        for b in restarts:
            used = {h for _, h in match_boundaries(initial, b, tolerance)}
            counts.update(x for x in b if x not in used)
    return {pos: counts[pos] / len(restarts) for pos in sorted(counts)}


# ----------------------------------------------------------------------------------------------
# the headline score (issue 11; chosen by the protocol of docs/validation-protocol.md)
# ----------------------------------------------------------------------------------------------
def restart_f1(counts: RestartCounts) -> float:
    """Eq. 11 F1 of the restarts in ``counts`` (the F1 of mean precision and mean recall, with the
    module's zero rule); NaN when there is no restart.

    Examples
    --------
    >>> restart_f1(RestartCounts(np.array([2, 1]), np.array([2, 2]), 2))  # P = R = (1 + 0.5) / 2
    0.75
    """
    if counts.matched.size == 0:
        return float("nan")
    return f1_score(float(counts.precision.mean()), float(counts.recall.mean()))


def _check_pair(within: RestartCounts, shuffle: RestartCounts) -> None:
    if within.initial != shuffle.initial:
        raise InvalidParameterError.make("shuffle", f"restart counts against the same initial segmentation "
                                         f"({within.initial} boundaries)", f"counts with {shuffle.initial} boundaries")


def no_credit(n_boundaries: int, term_blind: bool = False) -> bool:
    """Whether a document earns no stability credit whatever its restarts, so that its headline
    (:func:`count_corrected_f1`, :func:`headline_document`) is 0 and its interval
    (:func:`headline_interval`) ``(0, 0)``: the segmenter placed no boundary there ("nothing
    found, nothing found again" is not evidence that boundaries depend on the content), or it was
    term-blind there (it saw next to no term shared between units,
    :attr:`stability.results.StabilityResult.term_blind`; what it returns cannot follow the content
    it could not read). The one place both rules are written.

    Examples
    --------
    >>> no_credit(0), no_credit(3), no_credit(3, term_blind=True)
    (True, False, True)
    """
    return n_boundaries == 0 or term_blind


def headline_document(within: RestartCounts, shuffle: RestartCounts, n_units: int, *,
                      term_blind: bool = False) -> float:
    """The headline stability of one document: a count-aware shuffle correction of eq. 11's F1,
    ``(F - C) / (1 - C)`` with ``C = max(S, chance F1)``, and no credit without boundaries or
    where the segmenter was term-blind (:func:`no_credit`).

    ``F`` and ``S`` are the eq. 11 F1 (:func:`restart_f1`) of the within-segment restarts and of
    the shuffle control; the chance F1 is that of boundaries placed at random with the restarts'
    own counts (:func:`chance_scores`, no tolerance). The baseline ``C`` is the more stable of the
    two controls: the shuffle control answers "would the boundaries come back without the
    document's arrangement?", the chance level "would that many boundaries match by luck?", which
    matters for a segmenter placing many boundaries. Chosen by the protocol of
    ``docs/validation-protocol.md`` (issue 11).

    * A content-blind segmenter (its shuffle control reproduces its boundaries, ``S = 1``) scores 0.
    * A document on which the segmenter places no boundary scores 0: "nothing found, nothing
      found again" (F = 1 by the zero rule) is not evidence that the boundaries depend on the content.
      So does one it was term-blind on (``term_blind``, :func:`no_credit`).
    * The value is at most 1 and unbounded below (less stable than the baseline); NaN when either
      side has no restart.

    Examples
    --------
    >>> within = RestartCounts(np.array([2, 1]), np.array([2, 2]), 2)     # F = 0.75
    >>> shuffle = RestartCounts(np.array([1, 0]), np.array([2, 2]), 2)    # S = 0.25
    >>> headline_document(within, shuffle, 9)    # chance F1 = 2 / 8 = S: (0.75 - 0.25) / 0.75
    0.6666666666666666
    >>> headline_document(within, shuffle, 5)    # chance F1 = 2 / 4 > S: (0.75 - 0.5) / 0.5
    0.5
    >>> headline_document(RestartCounts(np.array([0]), np.array([0]), 0),
    ...                   RestartCounts(np.array([0]), np.array([3]), 0), 9)  # no boundary: no credit
    0.0
    """
    _check_pair(within, shuffle)
    n_units = check_int(n_units, "n_units", low=1)
    f, s = restart_f1(within), restart_f1(shuffle)
    # with no tolerance the chance level depends on the number of initial boundaries only
    chance = chance_scores(range(within.initial), within.predicted, n_units)[2] if within.matched.size else 1.0
    return count_corrected_f1(f, s, chance, within.initial, term_blind=term_blind)


def count_corrected_f1(f1: float, shuffle_f1: float, chance_f1: float, n_boundaries: int, *,
                       term_blind: bool = False) -> float:
    """The headline score from a result's own numbers: ``(F - C) / (1 - C)`` with
    ``C = max(shuffle F1, chance F1)``, and 0 for a document without boundaries or one the
    segmenter was term-blind on (:func:`no_credit`; see :func:`headline_document`, which computes
    the same from restart counts). NaN when either F1 is (no shuffle control).

    Examples
    --------
    >>> count_corrected_f1(0.75, 0.25, 0.5, 2)  # C = 0.5: (0.75 - 0.5) / 0.5
    0.5
    >>> count_corrected_f1(1.0, 0.4, 0.0, 0)    # no boundary: no stability credit
    0.0
    >>> count_corrected_f1(0.9, 0.2, 0.1, 3, term_blind=True)  # nor where it saw no term
    0.0
    """
    if math.isnan(f1) or math.isnan(shuffle_f1):
        return float("nan")
    if no_credit(n_boundaries, term_blind):
        return 0.0
    return shuffle_corrected_f1(f1, max(shuffle_f1, chance_f1))


def headline_interval(f1_samples: np.ndarray, shuffle_samples: np.ndarray, chance_f1: float, n_boundaries: int,
                      confidence: float = 0.95, *, term_blind: bool = False) -> tuple[float, float]:
    """Percentile bootstrap interval of one document's headline (:func:`count_corrected_f1`)
    over its restarts: the Monte-Carlo uncertainty of the value, i.e. how far other restarts
    could move it.

    ``f1_samples`` and ``shuffle_samples`` are the bootstrap replicates of the F1 of the test's
    restarts and of the shuffle control's (:func:`stability.stats.bootstrap_f1_samples`, the
    draws of their own F1 intervals, independent of each other); replicate ``i`` of the headline
    is the correction of ``f1_samples[i]`` by ``shuffle_samples[i]``, the chance level, a function
    of the counts, held at its value. ``(nan, nan)`` when a stream has no restart (no shuffle
    control). A document that earns no credit (:func:`no_credit`: no boundary, or term-blind)
    gets ``(0, 0)`` whatever its restarts, one included, since its headline is 0 whatever they
    are; otherwise a single restart gives ``(nan, nan)`` (its replicates are NaN: one restart is
    no sample).

    Examples
    --------
    >>> f, s = np.array([1.0, 0.9, 0.8, 1.0]), np.array([0.0, 0.5, 0.25, 0.0])
    >>> headline_interval(f, s, 0.1, 2, confidence=0.5)  # replicates 1.0, 0.8, (0.8 - 0.25) / 0.75, 1.0
    (0.7833333333333334, 1.0)
    >>> headline_interval(f, s, 0.1, 0)  # no boundary: no credit
    (0.0, 0.0)
    """
    f, s = np.asarray(f1_samples, dtype=float), np.asarray(shuffle_samples, dtype=float)
    if f.size == 0 or s.size == 0:
        return float("nan"), float("nan")
    if no_credit(n_boundaries, term_blind):  # adaptive stopping on the headline stops at its first check
        return 0.0, 0.0
    if np.isnan(f).all() or np.isnan(s).all():
        return float("nan"), float("nan")
    c = np.fmax(s, chance_f1)  # a NaN chance level leaves the shuffle control, as max() does
    values = np.divide(f - c, 1.0 - c, out=np.zeros_like(c), where=c < 1.0)
    return percentile_interval(values, confidence)
