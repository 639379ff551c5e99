"""The validation study: does the stability score rank segmenters the way references do?

Lamprier et al. (2007) support their stability test with hypothesis 3 (section 6.2.3, Table 3):
the less accurate a segmenter, the less stable its boundaries under permutations of the units
within its own segments. They check it on one family of segmenters (ClassStruggle with several
values of beta, plus TextTiling and C99) by comparing the ranking given by the stability scores
(Table 3) with the ranking given by the reference metrics (Tables 1 and 2). This module runs the
same check on a corpus with references, for a family of segmenter configurations spanning good to
poor, and measures the agreement instead of eyeballing it:

* the paper's tables, mean (std) over documents: WindowDiff, precision, recall and boundary count
  (Table 1), NWin and TNWin (Table 2), STP, STR and F1 (Table 3), with the chance-corrected score,
  the shuffle control, the gap and the flags of this toolkit (:func:`paper_tables`);
* rank agreement *across configurations*: Kendall's tau-b and Spearman's rho between the
  configurations' mean stability scores and their mean reference metrics, with bootstrap
  confidence intervals obtained by resampling documents (:func:`configuration_correlations`);
* agreement *across documents* (:func:`document_correlations`), both pooled over every
  (configuration, document) pair and within each configuration;
* the running mean of each score against the number of documents, to check section 7's claim
  that the stability score settles after about 30 documents (:func:`running_means`,
  :func:`settling`);
* ``docs/validation.md`` and SVG plots (:func:`write_report`), from :func:`run_study`.

Every correlation is oriented so that **positive means agreement**: reference metrics where lower
is better (their direction in :mod:`stability.catalogue`: WindowDiff, Pk, NWin, TNWin) are negated.
Every random choice (bootstrap resamples, document orders) comes from
``numpy.random.SeedSequence(seed)``, so the same results and seed give identical numbers.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .exceptions import InvalidParameterError
from .results import CorpusResult, StabilityResult
from .scores import shuffle_corrected_f1
from .plots import svg_lines, svg_scatter
from .stats import average_ranks, kendall_tau, percentile_interval, spearman_rho
from .catalogue import oriented, reference_measure

__all__ = [
    "QUICK_STRIDE",
    "CANDIDATE_SCORES",
    "REFERENCE_METRICS",
    "Study",
    "shuffle_corrected_f1",
    "quick_subset",
    "run_study",
    "score_matrix",
    "average_ranks",
    "spearman_rho",
    "resampled_kendall_tau",
    "resampled_spearman_rho",
    "configuration_correlations",
    "document_correlations",
    "running_means",
    "settling",
    "paper_tables",
    "analyze",
    "render_markdown",
    "svg_scatter",
    "svg_lines",
    "write_report",
]

#: ``--quick`` keeps every ``QUICK_STRIDE``-th document of the corpus, in corpus order (indices
#: 0, 4, 8, ...). On Choi's 3-11 set (sets 1, 2 and 3 in that order, files in natural numeric
#: order) this gives 13 + 12 + 75 = 100 documents, proportional to the sets' sizes.
QUICK_STRIDE = 4

#: Stability scores whose agreement with the references is measured (key -> title).
#: ``shuffle_corrected`` is ``(F1 - shuffle F1) / (1 - shuffle F1)``: the chance correction of
#: the ``corrected`` score with the shuffle control as the chance model (0 when the shuffle
#: control is perfectly stable, i.e. when nothing is left to explain).
CANDIDATE_SCORES: dict[str, str] = {
    "f1": "raw F1",
    "corrected_f1": "chance-corrected F1",
    "shuffle_gap": "gap (F1 - shuffle F1)",
    "shuffle_corrected": "shuffle-corrected F1",
}

#: Reference metrics the stability scores are compared with (key in ``reference_metrics`` -> title).
REFERENCE_METRICS: dict[str, str] = {
    "windowdiff": "WindowDiff",
    "pk": "Pk",
    "nwin": "NWin",
    "tnwin": "TNWin",
    "f1": "boundary F1",
    "boundary_similarity": "B",
}

#: Per-document values available to :func:`score_matrix` besides the candidate scores.
_EXTRA_SCORES = ("precision", "recall", "chance_f1", "shuffle_f1", "n_boundaries")


# ----------------------------------------------------------------------------------------------
# per-document values
# ----------------------------------------------------------------------------------------------
def _stability_value(r: StabilityResult, name: str) -> float:
    return float(getattr(r, name))


def score_matrix(result: CorpusResult, name: str, *, reference: bool = False,
                 labels: Sequence[str] | None = None) -> tuple[list[str], np.ndarray]:
    """Per-document values of one score as a ``(documents, configurations)`` matrix.

    Parameters
    ----------
    result : CorpusResult
        A run (``evaluate`` or ``load_results``).
    name : str
        A stability score (an attribute of :class:`~stability.results.StabilityResult`, or
        ``"shuffle_corrected"``) or, with ``reference=True``, a key of ``reference_metrics``.
    reference : bool, default False
        Read ``name`` from the reference metrics.
    labels : sequence of str, optional
        Configurations (columns), default every segmenter of the run in run order.

    Returns
    -------
    document ids, numpy.ndarray
        Rows follow the documents of the first configuration, in corpus order; documents missing
        for a configuration (a failure) are NaN.
    """
    labels = list(result.documents) if labels is None else list(labels)
    unknown = [label for label in labels if label not in result.documents]
    if unknown:
        raise InvalidParameterError.make("labels", f"segmenters of the run ({', '.join(result.documents)})", unknown)
    doc_ids: list[str] = []
    seen: set[str] = set()
    for label in labels:
        for r in result.documents[label]:
            key = str(r.document)
            if key not in seen:
                seen.add(key)
                doc_ids.append(key)
    row = {d: i for i, d in enumerate(doc_ids)}
    out = np.full((len(doc_ids), len(labels)), np.nan)
    for j, label in enumerate(labels):
        for r in result.documents[label]:
            if reference:
                value = r.reference_metrics.get(name, float("nan"))
            else:
                value = _stability_value(r, name)
            out[row[str(r.document)], j] = float(value)
    return doc_ids, out


def _oriented(metric: str, values: np.ndarray) -> np.ndarray:
    """Reference values with the sign that makes "higher is better" (the catalogue's direction)."""
    return oriented(reference_measure(metric), values)


# ----------------------------------------------------------------------------------------------
# rank correlations
# ----------------------------------------------------------------------------------------------
def _resample_inputs(x: Sequence[float], y: Sequence[float], groups: Sequence[int],
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
        raise InvalidParameterError(f"weights must have shape (resamples, groups) covering every group; received {w.shape}")
    keep = ~(np.isnan(a) | np.isnan(b))
    return a[keep], b[keep], g[keep], w


def resampled_kendall_tau(x: Sequence[float], y: Sequence[float], groups: Sequence[int],
                          weights: np.ndarray) -> np.ndarray:
    """Kendall's tau-b of many cluster-bootstrap resamples at once, without building them.

    Item ``i`` (values ``x[i]``, ``y[i]``) belongs to cluster ``groups[i]`` (a document). A
    resample draws clusters with replacement; ``weights[b, g]`` is how many times cluster ``g``
    appears in resample ``b``. With ``A = sign(x_i - x_j) sign(y_i - y_j)`` and ``T`` the tie
    indicators (``x_i == x_j``, diagonal included), summed over pairs of clusters into ``A'`` and
    ``T'``, a resample with weights ``w`` has ``C - D = w'A'w / 2``, ``N = sum_g w_g n_g`` items and
    ``(w'T'w - N) / 2`` pairs tied in ``x`` (likewise in ``y``), which gives tau-b exactly as
    :func:`stability.summary.kendall_tau` computes it on the explicit resample (copies of the same
    item are tied in both). Cost: ``O(n^2)`` once, then ``O(B G^2)``.

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
    """
    a, b, g, w = _resample_inputs(x, y, groups, weights)
    n_groups = w.shape[1]
    if a.size < 2:
        return np.full(w.shape[0], np.nan)
    order = np.argsort(g, kind="stable")
    a, b, g = a[order], b[order], g[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    present = g[starts]
    k = present.size
    concord = np.zeros((k, k))
    ties_a = np.zeros((k, k))
    ties_b = np.zeros((k, k))
    bounds = np.r_[starts, a.size]
    first = 0
    while first < k:
        last = first + 1  # a chunk of whole clusters, about 256 rows at most
        while last < k and bounds[last + 1] - bounds[first] <= 256:
            last += 1
        rows = slice(bounds[first], bounds[last])
        sa = np.sign(a[rows, None] - a[None, :])
        sb = np.sign(b[rows, None] - b[None, :])
        local = bounds[first:last] - bounds[first]
        for target, block in ((concord, sa * sb), (ties_a, (sa == 0).astype(float)), (ties_b, (sb == 0).astype(float))):
            by_column = np.add.reduceat(block, starts, axis=1)
            target[first:last] = np.add.reduceat(by_column, local, axis=0)
        first = last
    sizes = np.bincount(g, minlength=n_groups)[present].astype(float)
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


def resampled_spearman_rho(x: Sequence[float], y: Sequence[float], groups: Sequence[int],
                           weights: np.ndarray, batch: int = 200) -> np.ndarray:
    """Spearman's rho of many cluster-bootstrap resamples at once, without building them.

    The companion of :func:`resampled_kendall_tau` (same arguments): ranks are computed from the
    weighted counts (:func:`_resampled_ranks`) and correlated with a weighted Pearson formula, which
    equals :func:`spearman_rho` on the explicit resample.
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


@dataclass(frozen=True)
class Correlation:
    """A rank correlation with its percentile bootstrap confidence interval.

    ``n`` is the number of paired values behind the estimate (configurations, or pairs);
    ``samples`` holds the bootstrap replicates (resamples drawn from the same seed are paired, so
    replicates of different correlations can be compared resample by resample).
    """

    estimate: float
    ci: tuple[float, float]
    n: int
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "ci": list(self.ci), "n": self.n}


def _bootstrap_draws(n_documents: int, n_bootstrap: int, rng: np.random.Generator) -> np.ndarray:
    """``(n_bootstrap, n_documents)`` document indices drawn with replacement."""
    return rng.integers(0, n_documents, size=(n_bootstrap, n_documents))


def _draw_weights(draws: np.ndarray, n_documents: int) -> np.ndarray:
    """Multiplicity of each document in each resample, shape ``(n_bootstrap, n_documents)``."""
    weights = np.zeros((draws.shape[0], n_documents))
    np.add.at(weights, (np.arange(draws.shape[0])[:, None], draws), 1.0)
    return weights


def _weighted_means(matrix: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per-column means of ``matrix`` (documents x configurations) under document weights, NaN
    entries left out; shape ``(len(weights), configurations)``."""
    defined = ~np.isnan(matrix)
    totals = weights @ np.where(defined, matrix, 0.0)
    counts = weights @ defined.astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.where(counts > 0, counts, 1.0), np.nan)


def configuration_correlations(stability: np.ndarray, reference: np.ndarray, *, n_bootstrap: int = 1000,
                               seed: int = 0, confidence: float = 0.95) -> dict[str, Correlation]:
    """Rank agreement between configurations' mean stability and mean reference scores.

    Each configuration's mean over documents (NaNs left out) is one point; Kendall's tau-b
    (:func:`stability.summary.kendall_tau`) and Spearman's rho (:func:`spearman_rho`) compare the
    two rankings, as Lamprier et al. compare Table 3 with Tables 1-2 (section 6.2.3). The interval
    resamples documents with replacement (the same documents for every configuration: the
    configurations are paired) and recomputes the means and the correlation.

    Parameters
    ----------
    stability, reference : numpy.ndarray of shape (documents, configurations)
        Per-document values; ``reference`` already oriented so that higher is better.
    n_bootstrap : int, default 1000
    seed : int, default 0
        Seed of the resamples: calls with the same seed and number of documents draw the same
        resamples, so their replicates (``Correlation.samples``) are paired.
    confidence : float, default 0.95

    Returns
    -------
    dict
        ``{"kendall": Correlation, "spearman": Correlation}``.
    """
    x = np.asarray(stability, dtype=float)
    y = np.asarray(reference, dtype=float)
    if x.shape != y.shape or x.ndim != 2:
        raise InvalidParameterError(f"stability and reference must be (documents, configurations) matrices of one shape; received {x.shape} and {y.shape}")
    _check_bootstrap(n_bootstrap, confidence)
    ones = np.ones((1, x.shape[0]))
    mx, my = _weighted_means(x, ones)[0], _weighted_means(y, ones)[0]
    n = int(np.sum(~(np.isnan(mx) | np.isnan(my))))
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    weights = _draw_weights(_bootstrap_draws(x.shape[0], n_bootstrap, rng), x.shape[0])
    bx, by = _weighted_means(x, weights), _weighted_means(y, weights)
    taus = np.array([kendall_tau(bx[i], by[i]) for i in range(n_bootstrap)])
    rhos = np.array([spearman_rho(bx[i], by[i]) for i in range(n_bootstrap)])
    return {
        "kendall": Correlation(kendall_tau(mx, my), percentile_interval(taus, confidence), n, taus),
        "spearman": Correlation(spearman_rho(mx, my), percentile_interval(rhos, confidence), n, rhos),
    }


def _check_bootstrap(n_bootstrap: int, confidence: float) -> None:
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, (int, np.integer)) or n_bootstrap < 1:
        raise InvalidParameterError.make("n_bootstrap", "an integer >= 1", n_bootstrap)
    if not (isinstance(confidence, float) and 0 < confidence < 1):
        raise InvalidParameterError.make("confidence", "a float in (0, 1)", confidence)


def document_correlations(stability: np.ndarray, reference: np.ndarray, *, n_bootstrap: int = 1000,
                          seed: int = 0, confidence: float = 0.95) -> dict[str, Any]:
    """Agreement across documents: does a document's stability say how well it was segmented?

    Two views, both with document-cluster bootstrap intervals (documents resampled with
    replacement, every configuration's value of a document travelling with it):

    * ``"pooled"``: Kendall's tau-b and Spearman's rho over every (configuration, document) pair;
      this mixes the between-configuration ranking with the within-configuration one.
    * ``"within"``: for each configuration separately, the correlation across its documents
      (``"per_configuration"``: list of Correlation per column, NaN for a configuration whose
      score is constant), and ``"mean"``: the mean of these correlations over the
      configurations where they are defined, with its interval.

    Parameters
    ----------
    stability, reference : numpy.ndarray of shape (documents, configurations)
        Per-document values; ``reference`` already oriented so that higher is better.

    Returns
    -------
    dict
        ``{"pooled": {"kendall", "spearman"}, "within": {"kendall", "spearman"}}`` where each
        ``within`` entry is ``{"mean": Correlation, "per_configuration": [Correlation]}``.
    """
    x = np.asarray(stability, dtype=float)
    y = np.asarray(reference, dtype=float)
    if x.shape != y.shape or x.ndim != 2:
        raise InvalidParameterError(f"stability and reference must be (documents, configurations) matrices of one shape; received {x.shape} and {y.shape}")
    _check_bootstrap(n_bootstrap, confidence)
    n_docs, n_conf = x.shape
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    draws = _bootstrap_draws(n_docs, n_bootstrap, rng)
    weights = _draw_weights(draws, n_docs)
    ones = np.ones((1, n_docs))
    groups = np.repeat(np.arange(n_docs), n_conf)

    def pair_count(xs: np.ndarray, ys: np.ndarray) -> int:
        return int(np.sum(~(np.isnan(xs) | np.isnan(ys))))

    # pooled
    flat_x, flat_y = x.ravel(), y.ravel()
    tau_hat = float(resampled_kendall_tau(flat_x, flat_y, groups, ones)[0])
    tau_boot = resampled_kendall_tau(flat_x, flat_y, groups, weights)
    rho_hat = spearman_rho(flat_x, flat_y)
    rho_boot = resampled_spearman_rho(flat_x, flat_y, groups, weights)
    n_pooled = pair_count(flat_x, flat_y)
    pooled = {
        "kendall": Correlation(tau_hat, percentile_interval(tau_boot, confidence), n_pooled),
        "spearman": Correlation(rho_hat, percentile_interval(rho_boot, confidence), n_pooled),
    }
    # within each configuration
    own = np.arange(n_docs)
    per_tau: list[Correlation] = []
    per_rho: list[Correlation] = []
    tau_cols, rho_cols, tau_hats, rho_hats = [], [], [], []
    for j in range(n_conf):
        xs, ys = x[:, j], y[:, j]
        t_hat = float(resampled_kendall_tau(xs, ys, own, ones)[0])
        t_boot = resampled_kendall_tau(xs, ys, own, weights)
        r_hat = spearman_rho(xs, ys)
        r_boot = resampled_spearman_rho(xs, ys, own, weights)
        n = pair_count(xs, ys)
        per_tau.append(Correlation(t_hat, percentile_interval(t_boot, confidence), n))
        per_rho.append(Correlation(r_hat, percentile_interval(r_boot, confidence), n))
        tau_hats.append(t_hat)
        rho_hats.append(r_hat)
        tau_cols.append(t_boot)
        rho_cols.append(r_boot)

    def mean_of(hats: list[float], boots: list[np.ndarray]) -> Correlation:
        # mean over the configurations whose estimate is defined; in a resample, over those of
        # them whose correlation is still defined there
        defined = [i for i, h in enumerate(hats) if not math.isnan(h)]
        if not defined:
            return Correlation(float("nan"), (float("nan"), float("nan")), 0)
        stacked = np.column_stack([boots[i] for i in defined])
        counts = np.sum(~np.isnan(stacked), axis=1)
        totals = np.nansum(stacked, axis=1)
        boot_mean = np.where(counts > 0, totals / np.maximum(counts, 1), np.nan)
        return Correlation(float(np.mean([hats[i] for i in defined])), percentile_interval(boot_mean, confidence), len(defined))

    within = {
        "kendall": {"mean": mean_of(tau_hats, tau_cols), "per_configuration": per_tau},
        "spearman": {"mean": mean_of(rho_hats, rho_cols), "per_configuration": per_rho},
    }
    return {"pooled": pooled, "within": within}


# ----------------------------------------------------------------------------------------------
# running means (section 7)
# ----------------------------------------------------------------------------------------------
def running_means(values: Sequence[float]) -> np.ndarray:
    """Mean of the first ``n`` defined values, for ``n = 1 .. len(values)`` (NaNs skipped: the
    running mean carries over; NaN before the first defined value).

    Examples
    --------
    >>> running_means([1.0, 0.0, 0.5, 0.5]).tolist()
    [1.0, 0.5, 0.5, 0.5]
    """
    v = np.asarray(values, dtype=float)
    if v.ndim != 1:
        raise InvalidParameterError.make("values", "a one-dimensional sequence", v.shape)
    defined = ~np.isnan(v)
    totals = np.cumsum(np.where(defined, v, 0.0))
    counts = np.cumsum(defined)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.where(counts > 0, counts, 1), np.nan)


def _settle_index(running: np.ndarray, final: float, tolerance: float) -> int:
    """Smallest ``n`` such that the running mean stays within ``tolerance`` of ``final`` from the
    ``n``-th document on."""
    outside = np.flatnonzero(~(np.abs(running - final) <= tolerance))
    return 1 if outside.size == 0 else int(outside[-1]) + 2


def settling(values: Sequence[float], *, tolerance: float = 0.02, at: int = 30, n_orders: int = 200,
             seed: int = 0) -> dict[str, float]:
    """How many documents the running mean needs before it stays near the corpus mean.

    Lamprier et al. (section 7) report that each method's stability score "would have been
    roughly the same after 30 examples (contrarily to other evaluation criteria)". For the corpus
    order and for ``n_orders`` seeded random orders of the documents this measures ``n``: the
    number of documents after which the running mean stays within ``tolerance`` of the mean over
    all documents, and the deviation ``|running mean at `at` - final mean|``.

    Returns
    -------
    dict
        ``final`` (the mean over all documents), ``n_corpus_order``, ``n_median`` and ``n_p90``
        (median and 90th percentile over random orders), ``deviation_at`` (corpus order) and
        ``deviation_at_p90`` (90th percentile over random orders).
    """
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        nan = float("nan")
        return {"final": nan, "n_corpus_order": nan, "n_median": nan, "n_p90": nan, "deviation_at": nan,
                "deviation_at_p90": nan}
    if not (isinstance(tolerance, (int, float)) and tolerance > 0):
        raise InvalidParameterError.make("tolerance", "a positive number", tolerance)
    final = float(v.mean())
    position = min(at, v.size) - 1
    base = running_means(v)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    ns, deviations = [], []
    for _ in range(n_orders):
        run = running_means(v[rng.permutation(v.size)])
        ns.append(_settle_index(run, final, tolerance))
        deviations.append(abs(run[position] - final))
    return {
        "final": final,
        "n_corpus_order": float(_settle_index(base, final, tolerance)),
        "n_median": float(np.median(ns)),
        "n_p90": float(np.quantile(ns, 0.9)),
        "deviation_at": float(abs(base[position] - final)),
        "deviation_at_p90": float(np.quantile(deviations, 0.9)),
    }


# ----------------------------------------------------------------------------------------------
# the paper's tables
# ----------------------------------------------------------------------------------------------
#: (key, title, reference?) of the paper's three tables plus the toolkit's controls.
PAPER_TABLES: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "Table 1 (classical measures)": (("windowdiff", "WDiff.", True), ("pk", "Pk", True),
                                      ("precision", "Prec.", True), ("recall", "Rec.", True),
                                      ("n_boundaries", "Nb.", False)),
    "Table 2 (normalized measures)": (("nwin", "NWin", True), ("tnwin", "TNWin", True)),
    "Table 3 (stability measures)": (("precision", "STP", False), ("recall", "STR", False), ("f1", "F1", False)),
    "Controls (this toolkit)": (("chance_f1", "chance F1", False), ("corrected_f1", "corrected F1", False),
                                ("shuffle_f1", "shuffle F1", False), ("shuffle_gap", "gap", False),
                                ("shuffle_corrected", "shuffle-corrected", False)),
}


def paper_tables(result: CorpusResult) -> dict[str, dict[str, dict[str, tuple[float, float, int]]]]:
    """The paper's Tables 1-3 (and the controls) as ``{table: {label: {column: (mean, std, n)}}}``.

    Means and sample standard deviations (ddof=1) over documents, NaNs left out (``n`` says how
    many documents remain), as in Lamprier et al.'s tables ("mu" and "sigma").
    """
    out: dict[str, dict[str, dict[str, tuple[float, float, int]]]] = {}
    for table, columns in PAPER_TABLES.items():
        out[table] = {}
        for label in result.documents:
            cells = {}
            for key, title, is_reference in columns:
                _, m = score_matrix(result, key, reference=is_reference, labels=[label])
                v = m[:, 0]
                v = v[~np.isnan(v)]
                mean = float(v.mean()) if v.size else float("nan")
                std = float(v.std(ddof=1)) if v.size > 1 else (0.0 if v.size == 1 else float("nan"))
                cells[title] = (mean, std, int(v.size))
            out[table][label] = cells
    return out


# ----------------------------------------------------------------------------------------------
# the whole analysis
# ----------------------------------------------------------------------------------------------
@dataclass
class Study:
    """Everything the validation report shows, computed from one run.

    Attributes
    ----------
    result : CorpusResult
        The run.
    labels : list of str
        Configurations, in run order.
    content_blind : dict
        Label -> corpus-level content-blind flag (see :func:`stability.summary.summarize`).
    content_aware : list of str
        Labels not flagged content-blind.
    documents : list of str
        Document ids (rows of the matrices).
    tables : dict
        :func:`paper_tables`.
    means : dict
        ``{"stability": {score: {label: mean}}, "reference": {metric: {label: mean}}}``.
    across : dict
        ``{subset: {score: {metric: {"kendall": Correlation, "spearman": Correlation}}}}``,
        subset ``"all"`` or ``"content-aware"``.
    per_document : dict
        ``{score: {metric: document_correlations(...)}}`` over the content-aware configurations.
    running : dict
        ``{score: {label: running mean array}}`` in corpus order (scores: f1, corrected_f1,
        shuffle_gap, shuffle_corrected, and the reference ``windowdiff`` as ``ref:windowdiff``).
    settle : dict
        ``{score: {label: settling(...)}}``.
    settings : dict
        Run and analysis settings shown in the report.
    """

    result: CorpusResult
    labels: list[str]
    content_blind: dict[str, bool | None]
    content_aware: list[str]
    documents: list[str]
    tables: dict[str, Any]
    means: dict[str, Any]
    across: dict[str, Any]
    per_document: dict[str, Any]
    running: dict[str, Any]
    settle: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)

    def agreement(self, subset: str = "all", statistic: str = "kendall") -> dict[str, float]:
        """Mean oriented correlation of each candidate score with the reference metrics (the
        figure used to choose the headline score)."""
        out = {}
        for score, by_metric in self.across[subset].items():
            values = [c[statistic].estimate for c in by_metric.values() if not math.isnan(c[statistic].estimate)]
            out[score] = float(np.mean(values)) if values else float("nan")
        return out

    def _agreement_samples(self, subset: str, statistic: str, score: str) -> np.ndarray:
        stacked = np.column_stack([c[statistic].samples for c in self.across[subset][score].values()])
        counts = np.sum(~np.isnan(stacked), axis=1)
        return np.where(counts > 0, np.nansum(stacked, axis=1) / np.maximum(counts, 1), np.nan)

    def agreement_interval(self, subset: str = "all", statistic: str = "kendall") -> dict[str, tuple[float, float]]:
        """Bootstrap interval of :meth:`agreement` (the resamples are shared by every score and
        metric of a subset, so the mean over metrics is taken resample by resample)."""
        confidence = self.settings["confidence"]
        return {score: percentile_interval(self._agreement_samples(subset, statistic, score), confidence)
                for score in self.across[subset]}

    def difference_interval(self, first: str, second: str, subset: str = "all",
                            statistic: str = "kendall") -> tuple[float, float]:
        """Paired bootstrap interval of ``agreement[first] - agreement[second]``."""
        diff = (self._agreement_samples(subset, statistic, first)
                - self._agreement_samples(subset, statistic, second))
        return percentile_interval(diff, self.settings["confidence"])

    def headline(self) -> str:
        """The candidate score with the highest mean Kendall tau across all configurations (ties:
        the first in :data:`CANDIDATE_SCORES` order)."""
        scores = self.agreement("all", "kendall")
        defined = {k: v for k, v in scores.items() if not math.isnan(v)}
        if not defined:
            raise InvalidParameterError("no stability score has a defined correlation with the references")
        order = list(self.settings["scores"])
        return max(defined, key=lambda k: (defined[k], -order.index(k)))


def _seed_for(seed: int, *parts: str) -> int:
    """A stable derived seed (independent of Python's hash randomisation)."""
    h = 0
    for part in parts:
        for byte in part.encode("utf-8"):
            h = (h * 131 + byte) % (2**31 - 1)
        h = (h * 257 + 7) % (2**31 - 1)
    return int(np.random.SeedSequence([seed, h]).generate_state(1)[0])


def analyze(result: CorpusResult, *, n_bootstrap: int = 1000, seed: int = 0, confidence: float = 0.95,
            settle_tolerance: float = 0.02, settle_at: int = 30, n_orders: int = 200,
            scores: Mapping[str, str] | None = None, metrics: Mapping[str, str] | None = None) -> Study:
    """Compute every table and correlation of the validation report from a run.

    Parameters
    ----------
    result : CorpusResult
        A run over documents with references (reference metrics computed).
    n_bootstrap, seed, confidence :
        Bootstrap intervals (resampling documents); every interval has its own seed derived from
        ``seed`` and its name, so the numbers do not depend on which others are computed.
    settle_tolerance, settle_at, n_orders :
        See :func:`settling`.
    scores, metrics : mapping, optional
        Candidate stability scores and reference metrics (default :data:`CANDIDATE_SCORES`,
        :data:`REFERENCE_METRICS`); metrics absent from the run are skipped.
    """
    scores = dict(CANDIDATE_SCORES if scores is None else scores)
    labels = [label for label, docs in result.documents.items() if docs]
    if len(labels) < 3:
        raise InvalidParameterError.make("result", "a run with at least 3 segmenter configurations with results", labels)
    present = {k for label in labels for r in result.documents[label] for k in r.reference_metrics}
    metrics = {k: v for k, v in (REFERENCE_METRICS if metrics is None else metrics).items() if k in present}
    if not metrics:
        raise InvalidParameterError("the run has no reference metrics: the validation study needs documents with references "
                                    f"and metrics among {', '.join(REFERENCE_METRICS)}")
    blind = {label: result.summary[label].content_blind if label in result.summary else None for label in labels}
    aware = [label for label in labels if not blind[label]]
    doc_ids, _ = score_matrix(result, "f1", labels=labels)
    stab = {s: score_matrix(result, s, labels=labels)[1] for s in scores}
    ref = {m: _oriented(m, score_matrix(result, m, reference=True, labels=labels)[1]) for m in metrics}
    ones = np.ones((1, len(doc_ids)))
    means = {
        "stability": {s: dict(zip(labels, _weighted_means(v, ones)[0])) for s, v in
                      {**stab, **{e: score_matrix(result, e, labels=labels)[1] for e in _EXTRA_SCORES}}.items()},
        "reference": {m: dict(zip(labels, _weighted_means(score_matrix(result, m, reference=True, labels=labels)[1], ones)[0]))
                      for m in metrics},
    }
    across: dict[str, Any] = {}
    for subset, chosen in (("all", labels), ("content-aware", aware)):
        if len(chosen) < 3:
            continue
        cols = [labels.index(label) for label in chosen]
        across[subset] = {
            s: {m: configuration_correlations(stab[s][:, cols], ref[m][:, cols], n_bootstrap=n_bootstrap,
                                              seed=_seed_for(seed, "across", subset), confidence=confidence)
                for m in metrics}
            for s in scores
        }
    per_document: dict[str, Any] = {}
    if aware:
        cols = [labels.index(label) for label in aware]
        per_document = {
            s: {m: document_correlations(stab[s][:, cols], ref[m][:, cols], n_bootstrap=n_bootstrap,
                                         seed=_seed_for(seed, "documents", s, m), confidence=confidence)
                for m in metrics}
            for s in scores
        }
    running: dict[str, Any] = {}
    settle: dict[str, Any] = {}
    for key, is_ref in (("f1", False), ("corrected_f1", False), ("shuffle_gap", False), ("shuffle_corrected", False),
                        ("windowdiff", True)):
        if is_ref and key not in metrics:
            continue
        matrix = score_matrix(result, key, reference=is_ref, labels=labels)[1]
        name = f"ref:{key}" if is_ref else key
        running[name] = {label: running_means(matrix[:, j]) for j, label in enumerate(labels)}
        settle[name] = {label: settling(matrix[:, j], tolerance=settle_tolerance, at=settle_at, n_orders=n_orders,
                                        seed=_seed_for(seed, "settle", name, label))
                        for j, label in enumerate(labels)}
    settings = {
        "n_bootstrap": n_bootstrap, "seed": seed, "confidence": confidence, "settle_tolerance": settle_tolerance,
        "settle_at": settle_at, "n_orders": n_orders, "scores": scores, "metrics": metrics,
        "run": {k: result.settings.get(k) for k in ("n_restarts", "seed", "tolerance", "shuffle_control",
                                                     "content_margin", "metrics")},
    }
    return Study(result, labels, blind, aware, doc_ids, paper_tables(result), means, across, per_document,
                 running, settle, settings)


# ----------------------------------------------------------------------------------------------
# running the study
# ----------------------------------------------------------------------------------------------
def quick_subset(documents: Sequence[Any], stride: int = QUICK_STRIDE) -> list[Any]:
    """Every ``stride``-th document in corpus order (indices 0, stride, 2 stride, ...).

    Examples
    --------
    >>> quick_subset(list(range(10)))
    [0, 4, 8]
    """
    if isinstance(stride, bool) or not isinstance(stride, int) or stride < 1:
        raise InvalidParameterError.make("stride", "an integer >= 1", stride)
    return list(documents)[::stride]


def run_study(config: str | os.PathLike, *, quick: bool = False, out: str | os.PathLike | None = None,
              n_jobs: int | None = None, limit: int | None = None, n_restarts: int | None = None,
              progress: bool | None = None, n_bootstrap: int = 1000, n_orders: int = 200) -> Study:
    """Run (or resume) the validation study of an experiment file and analyse it.

    Parameters
    ----------
    config : path
        A TOML experiment (:func:`stability.config.load_config`) over documents with references,
        e.g. ``configs/choi-validation.toml``; its ``[run]`` settings (restarts, seed, shuffle
        control) and ``[metrics]`` options are used as they are.
    quick : bool, default False
        Keep the documented subset: every :data:`QUICK_STRIDE`-th document (:func:`quick_subset`).
    out : path, optional
        Directory of the JSON-lines cache ``results.jsonl``; default the config's ``[output] dir``
        (``results/validation``), with ``-quick`` appended for the quick run. The run resumes from
        it: only missing (configuration, document) pairs are computed.
    n_jobs : int, optional
        Overrides the config's ``n_jobs``.
    limit : int, optional
        Keep only the first ``limit`` documents (after the quick selection); for tests.
    n_restarts : int, optional
        Overrides the config's restarts; for tests.
    n_bootstrap, n_orders : int
        Bootstrap resamples and random document orders of the analysis (:func:`analyze`).

    Returns
    -------
    Study
    """
    from .config import load_config
    from .runner import evaluate

    experiment = load_config(config)
    if "demo" in experiment.corpus:
        raise InvalidParameterError(f"{config}: the validation study needs a [corpus] path with references, not the demo corpus")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InvalidParameterError.make("limit", "None or an integer >= 1", limit)
    documents = list(experiment.documents())
    if quick:
        documents = quick_subset(documents)
    if limit is not None:
        documents = documents[:limit]
    if not documents:
        raise InvalidParameterError(f"{config}: the corpus has no documents")
    if not any(d.references for d in documents):
        raise InvalidParameterError(f"{config}: the documents have no references; the validation study compares with them")
    run = {k: v for k, v in experiment.run.items() if k not in ("output", "resume", "overwrite", "progress")}
    if run.get("backend") == "dask":
        raise InvalidParameterError(f"{config}: run the validation study with a local backend (loky, threading)")
    run.pop("scheduler", None)
    if n_jobs is not None:
        run["n_jobs"] = n_jobs
    if n_restarts is not None:
        run["n_restarts"] = n_restarts
    if out is None:
        base = experiment.output.get("dir", "results/validation")
        out = f"{base}-quick" if quick else base
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    segmenters = experiment.build_segmenters()
    result = evaluate(segmenters, documents, output=out_dir / "results.jsonl", resume=True,
                      metrics=experiment.metric_options(), progress=progress, **run)
    study = analyze(result, n_bootstrap=n_bootstrap, seed=int(run.get("seed", 0)), n_orders=n_orders)
    study.settings.update({
        "config": Path(config).as_posix(),
        "out": str(out_dir),
        "quick": quick,
        "limit": limit,
        "n_documents": len(documents),
        "segmenters": {label: experiment.segmenters[label] for label in segmenters},
    })
    return study


# ----------------------------------------------------------------------------------------------
# the report
# ----------------------------------------------------------------------------------------------
def _f(x: float, digits: int = 3) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _corr(c: Correlation, digits: int = 2) -> str:
    if math.isnan(c.estimate):
        return "n/a"
    return f"{c.estimate:+.{digits}f} [{c.ci[0]:+.{digits}f}, {c.ci[1]:+.{digits}f}]"


def _family(label: str, result: CorpusResult) -> str:
    docs = result.documents.get(label) or []
    params = docs[0].params if docs else {}
    for prefix, name in (("tt", "TextTiling"), ("texttiling", "TextTiling"), ("c99", "C99"), ("u00", "U00")):
        if label.startswith(prefix):
            return name
    return "baselines" if not params or label in ("none", "all") or label.startswith(("even", "random")) else "other"


def _flags(study: Study, label: str) -> str:
    s = study.result.summary.get(label)
    if s is None:
        return ""
    flags = []
    if s.content_blind:
        flags.append("content-blind")
    if s.deterministic is False:
        flags.append("non-deterministic")
    if s.n_failed:
        flags.append(f"{s.n_failed} failed")
    return ", ".join(flags)


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
    return out


def _rank_table(study: Study) -> tuple[list[str], list[list[str]]]:
    """Configurations sorted by the first reference metric (WindowDiff), with their rank (1 = best, ties averaged) by each score."""
    labels = study.labels
    columns: list[tuple[str, dict[str, float], bool]] = []
    for m, title in study.settings["metrics"].items():
        columns.append((title, study.means["reference"][m], reference_measure(m).direction == "lower"))
    for s, title in study.settings["scores"].items():
        columns.append((title, study.means["stability"][s], False))
    ranks = []
    for _, values, lower in columns:
        v = np.array([values[label] for label in labels], dtype=float)
        key = v if lower else -v
        r = np.full(v.size, np.nan)
        ok = ~np.isnan(key)
        if ok.any():
            r[ok] = average_ranks(key[ok])
        ranks.append(r)
    order = np.argsort(np.where(np.isnan(ranks[0]), np.inf, ranks[0]), kind="stable")  # first metric
    header = ["configuration"] + [f"{title}" for title, _, _ in columns] + ["flags"]
    rows = []
    for i in order:
        label = labels[i]
        row = [label]
        for (title, values, _), r in zip(columns, ranks):
            row.append("n/a" if math.isnan(r[i]) else f"{_f(values[label])} ({r[i]:g})")
        row.append(_flags(study, label))
        rows.append(row)
    return header, rows


def render_markdown(study: Study, *, plots: Mapping[str, str] | None = None, discussion: str | None = None) -> str:
    """``validation.md``: tables, correlations, running means, verdict, plots and discussion.

    Every number is computed from ``study``; ``discussion`` (hand-written prose without numbers)
    is appended verbatim when given.
    """
    st = study.settings
    run = st.get("run", {})
    plots = dict(plots or {})
    out: list[str] = []
    n_docs = len(study.documents)
    command = st.get("config", "<config>") + (" --quick" if st.get("quick") else "")
    limited = f" (first {st['limit']} documents)" if st.get("limit") else ""
    out += [
        "# Validation study: does the stability score rank segmenters the way references do?",
        "",
        "<!-- Generated by `stability validate`; do not edit by hand: rerun the command. -->",
        "",
        f"Generated by `stability validate {command}`{limited}: "
        f"{n_docs} documents, {len(study.labels)} segmenter configurations, {run.get('n_restarts')} restarts, "
        f"shuffle control {'on' if run.get('shuffle_control') else 'off'}, run seed {run.get('seed')}, "
        f"{st['n_bootstrap']} bootstrap resamples of documents for every interval "
        f"({int(round(st['confidence'] * 100))}% percentile intervals), analysis seed {st['seed']}.",
        "",
        "Lamprier et al. (2007, section 6.2.3) support the stability test with hypothesis 3: the less accurate a "
        "segmenter, the less stable its boundaries. They check it by comparing the ranking of segmenter "
        "configurations by the stability measures (their Table 3) with their ranking by reference metrics "
        "(Tables 1 and 2). This study repeats that comparison on the configurations below and measures it: "
        "Kendall's tau-b and Spearman's rho between rankings, with bootstrap intervals over documents. "
        "Correlations are oriented so that **positive means agreement** (WindowDiff, Pk, NWin and TNWin are "
        "errors: they are negated first).",
        "",
        "## How to reproduce",
        "",
        "```bash",
        f"stability validate {st.get('config', '<config>')} --jobs 2 --docs docs      # this report",
        f"stability validate {st.get('config', '<config>')} --quick --jobs 2          # quick run",
        "```",
        "",
        "The per-document results are cached as JSON lines in the config's `[output] dir` (`-quick` appended "
        "for the quick run; `--out` to choose) and the run resumes from them, so rerunning the command only "
        "redoes the analysis; with the same seed it reproduces this file exactly. "
        f"`--quick` keeps every {QUICK_STRIDE}th document of the corpus in corpus order (indices 0, "
        f"{QUICK_STRIDE}, {2 * QUICK_STRIDE}, ...); on Choi's 3-11 set that is 100 of the 400 documents, in "
        "proportion to the sizes of its three subsets. The interpretation at the end is hand-written "
        "(`validation-discussion.md` beside this file, appended verbatim) and quotes no numbers.",
        "",
        "## Configurations",
        "",
    ]
    rows = []
    for label in study.labels:
        spec = st.get("segmenters", {}).get(label)
        docs = study.result.documents[label]
        params = spec if spec is not None else (docs[0].params if docs else {})
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        rows.append([label, _family(label, study.result), shown or "(defaults)", _flags(study, label)])
    out += _md_table(["configuration", "family", "parameters", "flags"], rows)
    out += ["`content-blind`: the shuffle control (units permuted across the whole document) is as stable as "
            "the real test, within the run's content margin, on average over documents.", ""]

    # paper tables
    out += ["## The paper's tables (mean and std over documents)", ""]
    for table, by_label in study.tables.items():
        titles = [t for _, t, _ in PAPER_TABLES[table]]
        header = ["configuration"]
        for t in titles:
            header += [f"{t} mu", f"{t} sigma"]
        if table.startswith("Table 3") or table.startswith("Controls"):
            header.append("flags")
        rows = []
        for label in study.labels:
            cells = by_label[label]
            row = [label]
            for t in titles:
                mean, std, n = cells[t]
                digits = 1 if t == "Nb." else 3
                row += [_f(mean, digits), _f(std, digits)]
            if table.startswith("Table 3") or table.startswith("Controls"):
                row.append(_flags(study, label))
            rows.append(row)
        out += [f"### {table}", ""] + _md_table(header, rows)
    out += ["Precision and recall in Table 1 are exact-match boundary precision and recall against the "
            "reference; Pk and WindowDiff use the window of Lamprier et al.'s eq. 5 as configured. "
            "`corrected F1` is `(F1 - chance) / (1 - chance)` (undefined, so left out, when the boundary counts "
            "alone force agreement: no boundaries or boundaries everywhere); `gap` is `F1 - shuffle F1`; "
            "`shuffle-corrected` is `(F1 - shuffle F1) / (1 - shuffle F1)`, 0 when the shuffle control is "
            "perfectly stable.", ""]

    # ranking table
    header, rows = _rank_table(study)
    out += ["## Ranking of the configurations", "",
            "Mean over documents and, in parentheses, the rank (1 = best; ties share the average rank) by each "
            "reference metric and each candidate stability score; rows sorted by WindowDiff.", ""]
    out += _md_table(header, rows)

    # correlations across configurations
    for subset, title in (("all", "all configurations"), ("content-aware", "configurations not flagged content-blind")):
        if subset not in study.across:
            continue
        n_conf = len(study.labels) if subset == "all" else len(study.content_aware)
        out += [f"## Agreement across configurations: {title} ({n_conf})", "",
                "Rank correlation between the configurations' mean stability score and their mean reference "
                "metric, with its bootstrap interval. `n` is the number of configurations where both are defined.",
                ""]
        for stat, name in (("kendall", "Kendall tau-b"), ("spearman", "Spearman rho")):
            header = ["stability score", "n"] + [f"{t}" for t in study.settings["metrics"].values()] + ["mean"]
            rows = []
            agreement = study.agreement(subset, stat)
            for s, stitle in study.settings["scores"].items():
                cells = study.across[subset][s]
                n = min(c[stat].n for c in cells.values())
                rows.append([stitle, str(n)] + [_corr(cells[m][stat]) for m in study.settings["metrics"]] +
                            [_f(agreement[s], 2)])
            out += [f"### {name}", ""] + _md_table(header, rows)

    # per-document
    if study.per_document:
        out += ["## Agreement across documents (configurations not flagged content-blind)", "",
                f"Over the {len(study.content_aware)} content-aware configurations. **Pooled**: one correlation over "
                "every (configuration, document) pair, so it mixes differences between configurations with "
                "differences between documents. **Within**: the correlation across documents computed for each "
                "configuration separately, then averaged over configurations (a configuration whose score is "
                "constant over documents is left out). Intervals resample documents (clusters: a document "
                "carries all its configurations' values).", ""]
        for stat, name in (("kendall", "Kendall tau-b"), ("spearman", "Spearman rho")):
            header = ["stability score", "view"] + list(study.settings["metrics"].values())
            rows = []
            for s, stitle in study.settings["scores"].items():
                cells = study.per_document[s]
                rows.append([stitle, "pooled"] + [_corr(cells[m]["pooled"][stat]) for m in study.settings["metrics"]])
                rows.append([stitle, "within (mean)"] +
                            [_corr(cells[m]["within"][stat]["mean"]) for m in study.settings["metrics"]])
            out += [f"### {name}", ""] + _md_table(header, rows)
        metric0 = next(iter(study.settings["metrics"]))
        header = ["configuration"] + list(study.settings["scores"].values())
        rows = []
        for j, label in enumerate(study.content_aware):
            rows.append([label] + [_corr(study.per_document[s][metric0]["within"]["kendall"]["per_configuration"][j])
                                   for s in study.settings["scores"]])
        out += [f"### Within each configuration: Kendall tau-b with {study.settings['metrics'][metric0]}", ""]
        out += _md_table(header, rows)

    # running means
    if study.settle:
        tol = st["settle_tolerance"]
        at = st["settle_at"]
        out += ["## Does the score settle after about 30 documents? (section 7)", "",
                f"`n`: the number of documents after which the running mean stays within {tol:g} of the mean over "
                f"all {n_docs} documents, as `corpus order / median / 90th percentile` over "
                f"{st['n_orders']} seeded random orders of the documents; `dev@{at}`: the 90th percentile over random orders of "
                f"|running mean after {at} documents - final mean|. WindowDiff is shown for comparison "
                "(the paper says the stability score settles faster than other criteria).", ""]
        names = {"f1": "raw F1", "corrected_f1": "chance-corrected", "shuffle_gap": "gap",
                 "shuffle_corrected": "shuffle-corrected", "ref:windowdiff": "WindowDiff"}
        header = ["configuration"]
        keys = [k for k in ("f1", "corrected_f1", "shuffle_gap", "shuffle_corrected", "ref:windowdiff")
                if k in study.settle]
        for k in keys:
            header += [f"{names[k]} n", f"{names[k]} dev@{at}"]
        rows = []
        for label in study.labels:
            row = [label]
            for k in keys:
                s = study.settle[k][label]
                row += [f"{_f(s['n_corpus_order'], 0)} / {_f(s['n_median'], 0)} / {_f(s['n_p90'], 0)}",
                        _f(s["deviation_at_p90"], 3)]
            rows.append(row)
        out += _md_table(header, rows)
        summary = []
        for k in keys:
            med = [study.settle[k][label]["n_median"] for label in study.content_aware]
            dev = [study.settle[k][label]["deviation_at_p90"] for label in study.content_aware]
            if med:
                summary.append([names[k], _f(float(np.median(med)), 0), _f(float(np.max(med)), 0),
                                _f(float(np.median(dev)), 3), _f(float(np.max(dev)), 3)])
        if summary:
            out += ["Over the content-aware configurations:", ""]
            out += _md_table(["score", "median of n (median over orders)", "max", f"median dev@{at}", f"max dev@{at}"],
                             summary)

    # verdict
    out += _verdict(study)

    # plots
    if plots:
        out += ["## Plots", ""]
        for name, caption in plots.items():
            out += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    if discussion:
        out += ["## Interpretation", "", discussion.strip(), ""]
    return "\n".join(out).rstrip() + "\n"


def _verdict(study: Study) -> list[str]:
    """The data-driven part of the discussion: every sentence is computed from the study."""
    out = ["## Verdict (computed from the tables above)", ""]
    scores = study.settings["scores"]
    metrics = study.settings["metrics"]
    subsets = [s for s in ("all", "content-aware") if s in study.across]
    header = ["stability score"]
    for subset in subsets:
        for stat in ("kendall", "spearman"):
            header.append(f"mean {'tau-b' if stat == 'kendall' else 'rho'}, {subset}")
    rows = []
    for score, title in scores.items():
        row = [title]
        for subset in subsets:
            for stat in ("kendall", "spearman"):
                value = study.agreement(subset, stat)[score]
                low, high = study.agreement_interval(subset, stat)[score]
                row.append("n/a" if math.isnan(value) else f"{value:+.2f} [{low:+.2f}, {high:+.2f}]")
        rows.append(row)
    out += ["Mean over the reference metrics of each candidate's rank correlation across configurations "
            "(bootstrap interval over documents, paired across scores and metrics):", ""]
    out += _md_table(header, rows)
    agree_all = study.agreement("all", "kendall")
    headline = study.headline()
    blind = [label for label in study.labels if study.content_blind.get(label)]
    f1_means = study.means["stability"]["f1"]
    best_f1 = max(f1_means.values())
    top_by_f1 = [label for label in study.labels if f1_means[label] == best_f1]
    top_blind = [label for label in top_by_f1 if study.content_blind.get(label)]
    if top_blind:
        out.append(f"- The highest raw stability F1 ({_f(best_f1)}) goes to {', '.join(top_by_f1)}; "
                   f"{'all of them' if len(top_blind) == len(top_by_f1) else ', '.join(top_blind)} "
                   f"{'is' if len(top_blind) == 1 else 'are'} flagged content-blind by the shuffle control: "
                   "**the raw F1 rewards content-blind segmenters.**")
    if blind:
        gap_means = study.means["stability"]["shuffle_gap"] if "shuffle_gap" in study.means["stability"] else {}
        if gap_means:
            worst_aware = min((gap_means[label] for label in study.content_aware), default=float("nan"))
            worst_blind = max(gap_means[label] for label in blind)
            out.append(f"- Content-blind configurations ({', '.join(blind)}) have a mean gap of at most "
                       f"{_f(worst_blind)}; the lowest mean gap of a content-aware configuration is {_f(worst_aware)}.")
    if "windowdiff" in metrics:
        raw = study.across["all"]["f1"]["windowdiff"]["kendall"]
        side = ("negative: ranking by raw F1 tends to *reverse* the WindowDiff ranking" if raw.ci[1] < 0 else
                "not distinguishable from zero at this confidence" if raw.ci[0] <= 0 <= raw.ci[1] else
                "positive but weak (below 0.3)" if raw.estimate < 0.3 else "positive")
        out.append(f"- Raw F1 vs WindowDiff across all configurations: tau-b {_corr(raw)}, {side}.")
    if "content-aware" in study.across:
        aware = study.agreement("content-aware", "kendall")
        out.append(f"- Without the content-blind configurations, raw F1 agrees with the references with a mean "
                   f"tau-b of {_f(aware['f1'], 2)} (against {_f(agree_all['f1'], 2)} with them).")
    out.append(f"- **Headline score by these numbers: {scores[headline]}** (`{headline}`), the candidate with the "
               f"highest mean Kendall tau-b with the reference metrics across all configurations "
               f"({_f(agree_all[headline], 2)}).")
    for other in scores:
        if other == headline:
            continue
        low, high = study.difference_interval(headline, other)
        verdict = "a clear advantage" if low > 0 else "not a clear advantage (the interval includes 0)"
        out.append(f"  - {scores[headline]} minus {scores[other]}: {agree_all[headline] - agree_all[other]:+.2f} "
                   f"[{low:+.2f}, {high:+.2f}], {verdict}.")
    undefined = [s for s in scores if any(c["kendall"].n < len(study.labels) for c in study.across["all"][s].values())]
    if undefined:
        out.append("- Undefined for some configurations, which are left out of its correlations: "
                   + ", ".join(scores[s] for s in undefined) + ".")
    out.append("")
    return out


def write_report(study: Study, directory: str | os.PathLike, *, discussion: str | os.PathLike | None = None) -> Path:
    """Write ``validation.md`` and its SVG plots (under ``validation/``) into ``directory``.

    Plots: each candidate stability score vs WindowDiff per configuration, raw F1, gap and
    shuffle-corrected F1 vs WindowDiff per document (content-aware configurations), and the running means against the number of
    documents (section 7). ``discussion``: a Markdown file of hand-written interpretation (no
    numbers) appended verbatim. Returns the path of ``validation.md``.
    """
    directory = Path(directory)
    plot_dir = directory / "validation"
    plot_dir.mkdir(parents=True, exist_ok=True)
    result = study.result
    plots: dict[str, str] = {}
    metric = "windowdiff" if "windowdiff" in study.settings["metrics"] else next(iter(study.settings["metrics"]))
    mtitle = study.settings["metrics"][metric]
    arrow = " (lower is better)" if reference_measure(metric).direction == "lower" else ""
    for s in study.settings["scores"]:
        points = [(study.means["reference"][metric][label], study.means["stability"][s][label],
                   _family(label, result) + (" (content-blind)" if study.content_blind.get(label) else ""), label)
                  for label in study.labels]
        name = f"configurations_{s}.svg"
        title = f"Per configuration: {study.settings['scores'][s]} vs {mtitle}"
        (plot_dir / name).write_text(svg_scatter(points, title=title, x_label=f"mean {mtitle}{arrow}",
                                                 y_label=f"mean {study.settings['scores'][s]}", labels=True),
                                     encoding="utf-8")
        plots[f"validation/{name}"] = title
    for s in ("f1", "shuffle_gap", "shuffle_corrected"):
        if s not in study.settings["scores"] or not study.content_aware:
            continue
        _, xs = score_matrix(result, metric, reference=True, labels=study.content_aware)
        _, ys = score_matrix(result, s, labels=study.content_aware)
        points = [(xs[i, j], ys[i, j], _family(label, result), "") for j, label in enumerate(study.content_aware)
                  for i in range(xs.shape[0])]
        name = f"documents_{s}.svg"
        title = f"Per document: {study.settings['scores'][s]} vs {mtitle}"
        (plot_dir / name).write_text(svg_scatter(points, title=title, x_label=f"{mtitle}{arrow}",
                                                 y_label=study.settings["scores"][s], radius=2.0, opacity=0.35),
                                     encoding="utf-8")
        plots[f"validation/{name}"] = title + " (content-aware configurations)"
    titles = {"f1": "raw stability F1", "corrected_f1": "chance-corrected F1", "shuffle_gap": "gap (F1 - shuffle F1)",
              "shuffle_corrected": "shuffle-corrected F1", "ref:windowdiff": "WindowDiff"}
    for key, series in study.running.items():
        name = f"running_{key.replace('ref:', '')}.svg"
        title = f"Running mean of {titles.get(key, key)} vs number of documents"
        rounded = {label: [round(float(v), 4) for v in values] for label, values in series.items()}
        (plot_dir / name).write_text(svg_lines(rounded, title=title, x_label="documents (corpus order)",
                                               y_label=f"running mean {titles.get(key, key)}",
                                               marker=float(study.settings["settle_at"])), encoding="utf-8")
        plots[f"validation/{name}"] = title + f" (dashed line: {study.settings['settle_at']} documents)"
    text = None
    if discussion is not None:
        text = Path(discussion).read_text(encoding="utf-8")
    path = directory / "validation.md"
    path.write_text(render_markdown(study, plots=plots, discussion=text), encoding="utf-8")
    return path
