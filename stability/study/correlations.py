"""Rank agreement with bootstrap intervals: across configurations and across documents.

Every correlation is a Kendall tau-b or a Spearman rho from :mod:`stability.stats`; intervals are
percentile intervals (:func:`stability.stats.percentile_interval`) over resamples of documents
drawn from :func:`stability.stats.derived_rng`, keyed by the study seed and a named stream, so
two calls with the same seed and stream draw the same resamples (their replicates are paired).

The cluster bootstrap over documents is computed without building the resamples:
:func:`resampled_kendall_tau` and :func:`resampled_spearman_rho` take the multiplicity of each
document in each resample and return the exact correlation of every explicit resample.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..checks import check_int, check_real
from ..exceptions import InvalidParameterError
from ..stats import (defined_row_means, derived_rng, kendall_tau, kendall_tau_rows, percentile_interval,
                     spearman_rho, spearman_rho_rows)

__all__ = [
    "Correlation",
    "resampled_kendall_tau",
    "resampled_spearman_rho",
    "document_weights",
    "weighted_means",
    "configuration_correlations",
    "document_correlations",
]

#: Rows of the pairwise sign matrices built at once by :func:`resampled_kendall_tau`.
_CHUNK_ROWS = 256


@dataclass(frozen=True)
class Correlation:
    """A rank correlation with its percentile bootstrap confidence interval.

    ``n`` is the number of paired values behind the estimate (configurations, or pairs);
    ``samples`` holds the bootstrap replicates (resamples drawn from the same seed and stream are
    paired, so replicates of different correlations can be compared resample by resample).
    """

    estimate: float
    ci: tuple[float, float]
    n: int
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "ci": list(self.ci), "n": self.n}


def _undefined() -> Correlation:
    return Correlation(float("nan"), (float("nan"), float("nan")), 0)


# ----------------------------------------------------------------------------------------------
# correlations of weighted resamples
# ----------------------------------------------------------------------------------------------
def _resample_inputs(x: ArrayLike, y: ArrayLike, groups: ArrayLike,
                     weights: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Validate the arguments of the resampled correlations; drop pairs with a NaN."""
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    g = np.asarray(groups, dtype=np.intp)
    w = np.asarray(weights, dtype=float)
    if not (a.shape == b.shape == g.shape) or a.ndim != 1:
        raise InvalidParameterError("x, y and groups must be one-dimensional with the same length; received "
                                    f"shapes {a.shape}, {b.shape}, {g.shape}")
    if w.ndim != 2 or (g.size and (g.min() < 0 or g.max() >= w.shape[1])):
        raise InvalidParameterError.make("weights", "an array of shape (resamples, groups) covering every group",
                                         w.shape)
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep], g[keep], w


def _cluster_pair_sums(a: np.ndarray, b: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, ...]:
    """Concordance ``sign(a_i - a_j) sign(b_i - b_j)`` and tie indicators (diagonal included),
    summed over every pair of clusters; items sorted by cluster, ``starts`` the first of each."""
    k = starts.size
    sums = tuple(np.zeros((k, k)) for _ in range(3))
    bounds = np.r_[starts, a.size]
    first = 0
    while first < k:
        last = first + 1  # a chunk of whole clusters, about _CHUNK_ROWS rows at most
        while last < k and bounds[last + 1] - bounds[first] <= _CHUNK_ROWS:
            last += 1
        rows = slice(bounds[first], bounds[last])
        sa = np.sign(a[rows, None] - a[None, :])
        sb = np.sign(b[rows, None] - b[None, :])
        local = bounds[first:last] - bounds[first]
        for target, block in zip(sums, (sa * sb, (sa == 0).astype(float), (sb == 0).astype(float))):
            by_column = np.add.reduceat(block, starts, axis=1)
            target[first:last] = np.add.reduceat(by_column, local, axis=0)
        first = last
    return sums


def resampled_kendall_tau(x: ArrayLike, y: ArrayLike, groups: ArrayLike,
                          weights: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of many cluster-bootstrap resamples at once, without building them.

    Item ``i`` (values ``x[i]``, ``y[i]``) belongs to cluster ``groups[i]`` (a document). A
    resample draws clusters with replacement; ``weights[b, g]`` is how many times cluster ``g``
    appears in resample ``b``. With ``A`` the concordance signs and ``T`` the tie indicators
    summed over pairs of clusters, a resample with weights ``w`` has ``C - D = w'Aw / 2``,
    ``N = sum_g w_g n_g`` items and ``(w'Tw - N) / 2`` tied pairs, which gives tau-b exactly as
    :func:`stability.stats.kendall_tau` computes it on the explicit resample (copies of one item
    are tied on both sides). Cost: ``O(n^2)`` once, then ``O(B G^2)``.

    Parameters
    ----------
    x, y : sequence of float
        Paired values; pairs with a NaN are dropped.
    groups : sequence of int
        Cluster of each item, in ``0 .. G-1``.
    weights : numpy.ndarray of shape (B, G)
        Multiplicity of each cluster in each resample (``np.ones((1, G))``: the sample itself).

    Returns
    -------
    numpy.ndarray of shape (B,)
        tau-b of each resample (NaN when a side is constant).

    Examples
    --------
    >>> float(resampled_kendall_tau([1, 2, 3], [1, 3, 2], [0, 1, 2], np.ones((1, 3)))[0])  # (2 - 1) / 3
    0.3333333333333333
    """
    a, b, g, w = _resample_inputs(x, y, groups, weights)
    if a.size < 2:
        return np.full(w.shape[0], np.nan)
    order = np.argsort(g, kind="stable")
    a, b, g = a[order], b[order], g[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    present = g[starts]
    concord, ties_a, ties_b = _cluster_pair_sums(a, b, starts)
    sizes = np.bincount(g, minlength=w.shape[1])[present].astype(float)
    wk = w[:, present]
    n_items = wk @ sizes
    n0 = n_items * (n_items - 1) / 2.0

    def quadratic(matrix: np.ndarray) -> np.ndarray:
        return np.sum((wk @ matrix) * wk, axis=1)  # w' M w for every resample

    s = quadratic(concord) / 2.0
    n1 = (quadratic(ties_a) - n_items) / 2.0
    n2 = (quadratic(ties_b) - n_items) / 2.0
    denominator = np.sqrt(np.clip((n0 - n1) * (n0 - n2), 0.0, None))
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = np.where(denominator > 0, s / np.where(denominator > 0, denominator, 1.0), np.nan)
    return np.clip(tau, -1.0, 1.0)


def _resampled_ranks(values: np.ndarray, item_weights: np.ndarray) -> np.ndarray:
    """Average ranks of ``values`` within each weighted resample, shape ``(B, n)``.

    An item of value ``v`` in a resample where items have multiplicities ``w`` has the average
    rank ``W(< v) + (W(= v) + 1) / 2`` (``W``: total multiplicity), which is the rank its copies
    share in the explicit resample.
    """
    order = np.argsort(values, kind="mergesort")
    v = values[order]
    w = item_weights[:, order]
    cumulative = np.cumsum(w, axis=1)
    first = np.r_[True, v[1:] != v[:-1]]
    tie_group = np.cumsum(first) - 1
    starts = np.flatnonzero(first)
    ends = np.r_[starts[1:], v.size] - 1
    before = np.zeros((w.shape[0], starts.size))
    before[:, 1:] = cumulative[:, starts[1:] - 1]
    total = cumulative[:, ends] - before
    ranks = np.empty_like(w)
    ranks[:, order] = (before + (total + 1.0) / 2.0)[:, tie_group]
    return ranks


def resampled_spearman_rho(x: ArrayLike, y: ArrayLike, groups: ArrayLike,
                           weights: np.ndarray, batch: int = 200) -> np.ndarray:
    """Spearman's rho of many cluster-bootstrap resamples at once, without building them.

    The companion of :func:`resampled_kendall_tau` (same arguments): ranks are computed from the
    weighted counts and correlated with a weighted Pearson formula, which equals
    :func:`stability.stats.spearman_rho` on the explicit resample.
    """
    a, b, g, w = _resample_inputs(x, y, groups, weights)
    out = np.full(w.shape[0], np.nan)
    if a.size < 2:
        return out
    for start in range(0, w.shape[0], batch):
        item_weights = w[start:start + batch][:, g]
        ra = _resampled_ranks(a, item_weights)
        rb = _resampled_ranks(b, item_weights)
        n = item_weights.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            da = ra - np.sum(item_weights * ra, axis=1, keepdims=True) / n
            db = rb - np.sum(item_weights * rb, axis=1, keepdims=True) / n
            cov = np.sum(item_weights * da * db, axis=1)
            var = np.sum(item_weights * da * da, axis=1) * np.sum(item_weights * db * db, axis=1)
            rho = np.where(var > 1e-12, cov / np.sqrt(np.where(var > 1e-12, var, 1.0)), np.nan)
        out[start:start + batch] = np.clip(rho, -1.0, 1.0)
    return out


# ----------------------------------------------------------------------------------------------
# document resamples
# ----------------------------------------------------------------------------------------------
def document_weights(n_documents: int, n_bootstrap: int, seed: int, stream: Sequence[int | str]) -> np.ndarray:
    """Multiplicity of each document in each of ``n_bootstrap`` resamples with replacement, shape
    ``(n_bootstrap, n_documents)``, drawn from ``derived_rng(seed, "bootstrap", *stream)``.

    A single document has no resample but itself, which would print its value as an interval of
    width 0 (and call any difference of two scores "clear"): its weights are NaN, so that every
    replicate computed from them is NaN and no interval over documents is shown.

    Examples
    --------
    >>> document_weights(3, 2, 0, ()).sum(axis=1).tolist()  # each resample draws 3 documents
    [3.0, 3.0]
    >>> document_weights(1, 2, 0, ()).tolist()
    [[nan], [nan]]
    """
    if n_documents < 2:
        return np.full((n_bootstrap, n_documents), np.nan)
    rng = derived_rng(seed, "bootstrap", *stream)
    draws = rng.integers(0, n_documents, size=(n_bootstrap, n_documents))
    weights = np.zeros((n_bootstrap, n_documents))
    np.add.at(weights, (np.arange(n_bootstrap)[:, None], draws), 1.0)
    return weights


def weighted_means(matrix: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per-column means of ``matrix`` (documents x configurations) under document weights, NaN
    entries left out; shape ``(len(weights), configurations)``.

    Examples
    --------
    >>> weighted_means(np.array([[1.0, np.nan], [3.0, 4.0]]), np.ones((1, 2))).tolist()
    [[2.0, 4.0]]
    """
    defined = ~np.isnan(matrix)
    totals = weights @ np.where(defined, matrix, 0.0)
    counts = weights @ defined.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.where(counts > 0, counts, 1.0), np.nan)


def _check_inputs(stability: Any, reference: Any, n_bootstrap: int, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(stability, dtype=float)
    y = np.asarray(reference, dtype=float)
    if x.shape != y.shape or x.ndim != 2:
        raise InvalidParameterError("stability and reference must be (documents, configurations) matrices of one "
                                    f"shape; received {x.shape} and {y.shape}")
    check_int(n_bootstrap, "n_bootstrap", low=1)
    check_real(confidence, "confidence", low=0, high=1, low_open=True, high_open=True)
    return x, y


def configuration_correlations(stability: np.ndarray, reference: np.ndarray, *, n_bootstrap: int = 1000,
                               seed: int = 0, stream: Sequence[int | str] = (),
                               confidence: float = 0.95) -> dict[str, Correlation]:
    """Rank agreement between configurations' mean stability and mean reference scores.

    Each configuration's mean over documents (NaNs left out) is one point; Kendall's tau-b and
    Spearman's rho compare the two rankings, as Lamprier et al. compare Table 3 with Tables 1-2
    (section 6.2.3). The interval resamples documents with replacement (the same documents for
    every configuration: the configurations are paired) and recomputes the means and the
    correlation.

    Parameters
    ----------
    stability, reference : numpy.ndarray of shape (documents, configurations)
        Per-document values; ``reference`` already oriented so that higher is better.
    n_bootstrap : int, default 1000
    seed : int, default 0
    stream : sequence of int or str, default ()
        Name of the resamples under ``seed`` (:func:`document_weights`): calls with the same seed,
        stream and number of documents draw the same resamples.
    confidence : float, default 0.95

    Returns
    -------
    dict
        ``{"kendall": Correlation, "spearman": Correlation}``.
    """
    x, y = _check_inputs(stability, reference, n_bootstrap, confidence)
    ones = np.ones((1, x.shape[0]))
    mx, my = weighted_means(x, ones)[0], weighted_means(y, ones)[0]
    n = int(np.sum(~(np.isnan(mx) | np.isnan(my))))
    weights = document_weights(x.shape[0], n_bootstrap, seed, stream)
    bx, by = weighted_means(x, weights), weighted_means(y, weights)
    taus = kendall_tau_rows(bx, by)
    rhos = spearman_rho_rows(bx, by)
    return {
        "kendall": Correlation(kendall_tau(mx, my), percentile_interval(taus, confidence), n, taus),
        "spearman": Correlation(spearman_rho(mx, my), percentile_interval(rhos, confidence), n, rhos),
    }


def _pair_count(xs: np.ndarray, ys: np.ndarray) -> int:
    return int(np.sum(~(np.isnan(xs) | np.isnan(ys))))


def _both(xs: np.ndarray, ys: np.ndarray, groups: np.ndarray, weights: np.ndarray,
          confidence: float) -> tuple[Correlation, Correlation]:
    """Kendall and Spearman of one sample with their cluster-bootstrap intervals."""
    ones = np.ones((1, weights.shape[1]))
    tau = resampled_kendall_tau(xs, ys, groups, weights)
    rho = resampled_spearman_rho(xs, ys, groups, weights)
    n = _pair_count(xs, ys)
    return (Correlation(float(resampled_kendall_tau(xs, ys, groups, ones)[0]), percentile_interval(tau, confidence),
                        n, tau),
            Correlation(spearman_rho(xs, ys), percentile_interval(rho, confidence), n, rho))


def _mean_correlation(per: list[Correlation], confidence: float) -> Correlation:
    """Mean over the configurations whose estimate is defined; in a resample, over those of them
    whose correlation is still defined there."""
    defined = [c for c in per if not math.isnan(c.estimate)]
    if not defined:
        return _undefined()
    boot_mean = defined_row_means([c.samples for c in defined])
    return Correlation(float(np.mean([c.estimate for c in defined])), percentile_interval(boot_mean, confidence),
                       len(defined))


def _strip(c: Correlation) -> Correlation:
    return Correlation(c.estimate, c.ci, c.n)


def document_correlations(stability: np.ndarray, reference: np.ndarray, *, n_bootstrap: int = 1000,
                          seed: int = 0, stream: Sequence[int | str] = (),
                          confidence: float = 0.95) -> dict[str, Any]:
    """Agreement across documents: does a document's stability say how well it was segmented?

    Two views, both with document-cluster bootstrap intervals (documents resampled with
    replacement, every configuration's value of a document travelling with it):

    * ``"pooled"``: Kendall's tau-b and Spearman's rho over every (configuration, document) pair;
      this mixes the between-configuration ranking with the within-configuration one.
    * ``"within"``: for each configuration separately, the correlation across its documents
      (``"per_configuration"``, NaN for a configuration whose score is constant), and ``"mean"``:
      their mean over the configurations where they are defined, with its interval.

    Parameters are those of :func:`configuration_correlations`.

    Returns
    -------
    dict
        ``{"pooled": {"kendall", "spearman"}, "within": {"kendall", "spearman"}}`` where each
        ``within`` entry is ``{"mean": Correlation, "per_configuration": [Correlation]}``.
    """
    x, y = _check_inputs(stability, reference, n_bootstrap, confidence)
    n_docs, n_conf = x.shape
    weights = document_weights(n_docs, n_bootstrap, seed, stream)
    tau, rho = _both(x.ravel(), y.ravel(), np.repeat(np.arange(n_docs), n_conf), weights, confidence)
    pooled = {"kendall": _strip(tau), "spearman": _strip(rho)}
    per = [_both(x[:, j], y[:, j], np.arange(n_docs), weights, confidence) for j in range(n_conf)]
    within = {}
    for i, stat in enumerate(("kendall", "spearman")):
        column = [p[i] for p in per]
        within[stat] = {"mean": _mean_correlation(column, confidence),
                        "per_configuration": [_strip(c) for c in column]}
    return {"pooled": pooled, "within": within}
