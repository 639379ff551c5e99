"""How well a score ranks configurations on documents whose references it did not see.

The ceiling of :func:`~stability.study.analysis.ceiling` compares the ideal reference-free score
with the very reference values it was built from, as if the references of a few dozen documents
were the truth. They are not: on another sample of documents of the same kind, the references
would rank the configurations differently. This module measures that on the corpus itself. The
documents are split at random into two halves of equal size, many times; on each split, each
candidate ranks the configurations from one half and is compared (Kendall tau-b) with the
reference's ranking on the other half, in both directions:

* ``score``: the stability score's ranking (it never sees a reference);
* ``ideal``: the reference's own ranking on the first half, with the configurations flagged
  content-blind placed last (the ideal of the ceiling, computed on half of the documents): what
  annotating those documents would give;
* ``reference``: the reference's ranking on the first half, content-blind configurations
  included: how well the reference reproduces itself on documents of the same kind.

``score`` close to ``ideal`` means that, on documents of this kind and this many, the stability
score ranks configurations for unseen documents about as well as references on the same number of
documents would. The ideal here is not an upper bound for every score: the reference averaged over
many more documents would agree better with the other half than its half does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..checks import check_int
from ..exceptions import InvalidParameterError
from ..stats import derived_rng, kendall_tau_rows
from .correlations import weighted_means

__all__ = ["SIDES", "HalfSplits", "ideal_values", "split_halves"]

#: The three rankings compared with the reference's ranking on the other half.
SIDES = ("score", "ideal", "reference")


def ideal_values(oriented_means: ArrayLike, blind: ArrayLike) -> np.ndarray:
    """The ideal reference-free score: the (oriented) reference value of each configuration, with
    the configurations flagged content-blind tied below every other one (all NaN when none is
    content-aware).

    Examples
    --------
    >>> ideal_values([0.2, 0.3, 0.4, 0.1], [False, True, False, False]).tolist()
    [0.2, -0.9, 0.4, 0.1]
    """
    y = np.asarray(oriented_means, dtype=float)
    flags = np.asarray(blind, dtype=bool)
    if flags.shape != y.shape:
        raise InvalidParameterError.make("blind", f"one flag per configuration ({y.size})", flags.size)
    aware = y[~flags & ~np.isnan(y)]
    if aware.size == 0:
        return np.full(y.shape, np.nan)
    return np.where(flags, float(aware.min()) - 1.0, y)


@dataclass(frozen=True)
class HalfSplits:
    """The three rankings of one half against the reference's ranking of the other half.

    Attributes
    ----------
    n_splits : int
        Random splits; each gives two comparisons (each half against the other).
    half : int
        Documents per half (one document is left out of every split when their number is odd).
    tau : dict
        ``{side: {metric: array of 2 * n_splits Kendall tau-b}}``, side in :data:`SIDES`; NaN
        where a ranking is constant on a half.
    """

    n_splits: int
    half: int
    tau: dict[str, dict[str, np.ndarray]]

    def mean(self, side: str, metrics: Sequence[str] | None = None) -> float:
        """Mean tau-b of ``side`` over the comparisons and over ``metrics`` (default all), NaN
        comparisons left out."""
        chosen = list(self.tau[side]) if metrics is None else [m for m in metrics if m in self.tau[side]]
        values = np.concatenate([self.tau[side][m] for m in chosen]) if chosen else np.zeros(0)
        values = values[~np.isnan(values)]
        return float(values.mean()) if values.size else float("nan")


def split_halves(score: np.ndarray, references: Mapping[str, np.ndarray], blind: Sequence[bool], *,
                 n_splits: int = 200, seed: int = 0) -> HalfSplits:
    """Compare a score's ranking on half of the documents with each reference's on the other half.

    Parameters
    ----------
    score : numpy.ndarray
        Per-document values of the stability score, ``(documents, configurations)``; NaN where
        undefined (left out of the means).
    references : mapping
        Metric -> per-document reference values of the same shape, **oriented** so that higher is
        better (:func:`stability.catalogue.oriented`).
    blind : sequence of bool
        The run's content-blind flag of each configuration (for the ideal).
    n_splits : int, default 200
        Random splits into two halves, drawn from the stream ``("halves",)`` under ``seed``.
    seed : int, default 0

    Returns
    -------
    HalfSplits

    Examples
    --------
    Two configurations, four documents: the score and the reference agree on every document, so
    every half ranks them as the other half does.

    >>> s = np.array([[0.9, 0.1], [0.8, 0.2], [0.7, 0.0], [0.6, 0.3]])
    >>> out = split_halves(s, {"boundary_similarity": s}, [False, False], n_splits=3)
    >>> out.half, out.mean("score"), out.mean("ideal"), out.mean("reference")
    (2, 1.0, 1.0, 1.0)
    """
    x = np.asarray(score, dtype=float)
    check_int(n_splits, "n_splits", low=1)
    if x.ndim != 2:
        raise InvalidParameterError.make("score", "a (documents, configurations) matrix", x.shape)
    ys = {m: np.asarray(v, dtype=float) for m, v in references.items()}
    wrong = {m: y.shape for m, y in ys.items() if y.shape != x.shape}
    if wrong:
        raise InvalidParameterError.make("references", f"matrices of the score's shape {x.shape}", wrong)
    if len(blind) != x.shape[1]:
        raise InvalidParameterError.make("blind", f"one flag per configuration ({x.shape[1]})", len(blind))
    half = x.shape[0] // 2
    if half < 1:
        raise InvalidParameterError.make("score", "at least 2 documents", x.shape[0])
    rng = derived_rng(seed, "halves")
    first = np.zeros((n_splits, x.shape[0]))
    second = np.zeros_like(first)
    for i in range(n_splits):
        order = rng.permutation(x.shape[0])
        first[i, order[:half]] = 1.0
        second[i, order[half:2 * half]] = 1.0
    # each comparison: one half's ranking against the other half's reference
    mine = np.concatenate([first, second])
    other = np.concatenate([second, first])
    score_means = weighted_means(x, mine)
    tau: dict[str, dict[str, np.ndarray]] = {side: {} for side in SIDES}
    for m, y in ys.items():
        own, target = weighted_means(y, mine), weighted_means(y, other)
        ideal = np.array([ideal_values(row, blind) for row in own])
        tau["score"][m] = kendall_tau_rows(score_means, target)
        tau["ideal"][m] = kendall_tau_rows(ideal, target)
        tau["reference"][m] = kendall_tau_rows(own, target)
    return HalfSplits(n_splits, half, tau)
