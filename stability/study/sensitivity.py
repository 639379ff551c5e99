"""How much the headline depends on the number of restarts: the headline recomputed from the
first half of each document's restarts, against the value from all of them.

The restarts of a run are independent draws (one seeded generator per document, stream and
restart), so the first ``n`` of ``N`` restarts are exactly what a run with ``n_restarts = n`` would
have drawn; nothing is recomputed by the segmenters. The change between the two is Monte-Carlo
noise: for a configuration over a corpus it shrinks with the number of documents, for a single
document it does not. A document whose only boundary reappears in a share ``p`` of the restarts
has a per-document F1 whose change between ``n`` and ``2n`` restarts has a standard deviation of
``sqrt(p (1 - p) / (4 n))`` before any correction (0.035 at ``p = 0.5`` and ``n = 50``), and the
correction ``(F - C) / (1 - C)`` divides it by ``1 - C``.

What a run reports against that noise is each document's interval over its restarts
(``StabilityResult.headline_ci``). :func:`interval_at` recomputes the interval a run with the first
``n`` restarts reports (same generator, same draws), so the study can check how often it covers
the value from all the restarts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..checks import counted
from ..results import CorpusResult, StabilityResult
from ..scores import headline_document, restart_precision_recall
from ..outcome import stored_headline_interval
from ..stats import defined_mean

__all__ = ["Sensitivity", "MOVE_THRESHOLD", "MIN_HALF", "headline_at", "interval_at", "restart_sensitivity",
           "undefined_because"]

#: A change of the headline between half and all of the restarts counted as a "move" in the report.
MOVE_THRESHOLD = 0.05
#: The fewest restarts in the half: an interval over one restart is a single point, which covers
#: nothing but itself.
MIN_HALF = 2


def headline_at(result: StabilityResult, n_restarts: int | None = None) -> float:
    """The headline of one document from its first ``n_restarts`` restarts (default all of them).

    Equals the catalogue's headline (:data:`stability.catalogue.HEADLINE`) of ``result`` when
    every restart is used and the run matched boundaries exactly (``tolerance = 0``); NaN when
    the shuffle control was not run; 0 on a document the segmenter was term-blind on, as its
    headline (:attr:`stability.results.StabilityResult.count_corrected`).
    """
    if result.shuffle is None:
        return float("nan")
    n = result.n_restarts if n_restarts is None else n_restarts
    initial = result.segmentation.boundaries
    within = restart_precision_recall(initial, result.restart_boundaries[:n])
    shuffle = restart_precision_recall(initial, result.shuffle.restart_boundaries[:n])
    return headline_document(within, shuffle, result.segmentation.n_units, term_blind=result.term_blind is not None)


def interval_at(result: StabilityResult, n_restarts: int | None = None, confidence: float = 0.95,
                n_bootstrap: int = 1000) -> tuple[float, float]:
    """The interval of the headline of one document (``StabilityResult.headline_ci``) that a
    corpus run with only the first ``n_restarts`` restarts reports (default all of them), at the
    run's ``confidence`` and ``n_bootstrap``: the same generators, hence the same draws
    (:func:`stability.outcome.stored_headline_interval`). ``(nan, nan)`` without the shuffle control."""
    return stored_headline_interval(result, confidence, n_bootstrap, n_restarts)


@dataclass(frozen=True)
class Sensitivity:
    """The headline from half of the restarts against all of them, per configuration.

    Attributes
    ----------
    half, full : int
        Restarts of the two values (``full`` the run's, ``half = full // 2``).
    configuration : dict
        Label -> ``(mean at half, mean at full)`` over the configuration's documents.
    document_move : dict
        Label -> numpy array of ``|value at half - value at full|`` per document.
    covered : dict
        Label -> numpy array per document: 1.0 when the value from all the restarts lies in the
        interval a run with half of them reports (:func:`interval_at`), 0.0 when not, NaN when
        either is undefined.
    """

    half: int
    full: int
    configuration: dict[str, tuple[float, float]]
    document_move: dict[str, np.ndarray]
    covered: dict[str, np.ndarray]

    def configuration_move(self) -> dict[str, float]:
        """Label -> ``|mean at half - mean at full|`` (NaN when the configuration has no defined value)."""
        return {label: abs(a - b) for label, (a, b) in self.configuration.items()}

    def pooled_moves(self, labels: Sequence[str] | None = None) -> np.ndarray:
        """The defined (configuration, document) changes of ``labels`` (default every
        configuration), concatenated in label order."""
        chosen = self.document_move if labels is None else {k: self.document_move[k] for k in labels}
        moves = np.concatenate([np.zeros(0), *chosen.values()])
        return moves[~np.isnan(moves)]

    def coverage(self, labels: Sequence[str] | None = None) -> float:
        """The share of defined (configuration, document) pairs of ``labels`` (default all) whose
        value from all the restarts lies in the interval reported from half of them (NaN: none)."""
        chosen = self.covered if labels is None else {k: self.covered[k] for k in labels}
        return defined_mean(np.concatenate([np.zeros(0), *chosen.values()]))


def _covered(value: float, interval: tuple[float, float]) -> float:
    low, high = interval
    return float("nan") if np.isnan([value, low, high]).any() else float(low <= value <= high)


def undefined_because(result: CorpusResult, labels: Sequence[str]) -> str | None:
    """Why :func:`restart_sensitivity` is not defined for ``labels`` of ``result``, as a clause
    for the report; ``None`` when it is."""
    results = [r for label in labels for r in result.documents[label]]
    counts = {r.n_restarts for r in results} | {r.shuffle.n_restarts for r in results if r.shuffle is not None}
    if not results:
        return "no results"
    if any(r.shuffle is None for r in results):
        return "the shuffle control was not run"
    if any(r.tolerance != 0 for r in results):
        return "boundaries were matched within a tolerance"
    if len(counts) != 1:
        return "the documents have different numbers of restarts (adaptive stopping)"
    full = counts.pop()
    if full // 2 < MIN_HALF:
        return (f"half of the {counted(full, 'restart')} is {full // 2}, and an interval over fewer "
                f"than {MIN_HALF} restarts is a single point")
    return None


def restart_sensitivity(result: CorpusResult, labels: Sequence[str]) -> Sensitivity | None:
    """The headline of every (configuration, document) from the first half of its restarts and
    from all of them, and whether the interval from the first half covers the latter (at the
    run's confidence and number of bootstrap resamples); ``None`` when the comparison is not
    defined (:func:`undefined_because` says why: the shuffle control was not run, matching was not
    exact, the documents have different numbers of restarts, as after adaptive stopping, or half of
    the restarts is fewer than :data:`MIN_HALF`)."""
    if undefined_because(result, labels) is not None:
        return None
    full = next(r.n_restarts for label in labels for r in result.documents[label])
    half = full // 2
    settings = getattr(result, "settings", {}) or {}
    level, resamples = float(settings.get("confidence", 0.95)), int(settings.get("n_bootstrap", 1000))
    configuration, document_move, covered = {}, {}, {}
    for label in labels:
        docs = result.documents[label]
        at_half = np.array([headline_at(r, half) for r in docs])
        at_full = np.array([headline_at(r) for r in docs])
        configuration[label] = (defined_mean(at_half), defined_mean(at_full))
        document_move[label] = np.abs(at_half - at_full)
        covered[label] = np.array([_covered(v, interval_at(r, half, level, resamples)) for v, r in zip(at_full, docs)])
    return Sensitivity(half, full, configuration, document_move, covered)
