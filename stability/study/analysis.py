"""The analysis of one corpus: rankings, correlations, running means, references' agreement and
the ceiling of a reference-free score.

Which numbers are compared comes from :mod:`stability.catalogue`: the candidate stability scores
are the :data:`~stability.catalogue.STABILITY` measures marked ``correlate``; the reference metrics
are the catalogue's reference metrics with a direction (those named in the config's
``[metrics] names`` by default, when it names them). Every correlation is oriented so that
**positive means agreement**: lower-is-better metrics are negated (:func:`stability.catalogue.oriented`).
Every random draw (bootstrap resamples, document orders) comes from
:func:`stability.stats.derived_rng` under the study seed and a named stream.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..catalogue import HEADLINE, REFERENCE, STABILITY, Measure, oriented, reference_measure
from ..checks import check_int, check_real
from ..comparison import document_ids
from ..exceptions import InvalidParameterError
from ..results import CorpusResult
from ..stats import average_ranks, defined_row_means, derived_rng, kendall_tau, percentile_interval
from ..status import PhaseCallback, no_phase
from .correlations import configuration_correlations, document_correlations, weighted_means
from .halves import HalfSplits, ideal_values, split_halves
from .sensitivity import Sensitivity, restart_sensitivity

__all__ = [
    "candidate_scores",
    "reference_metrics",
    "score_matrix",
    "running_means",
    "settling",
    "paper_tables",
    "PAPER_TABLES",
    "family",
    "primary_metric",
    "reference_agreement",
    "ceiling",
    "Study",
    "analyze",
    "ANALYSIS_PHASES",
    "MIN_CONFIGURATIONS",
]

#: The fewest segmenter configurations a study ranks: a rank correlation over two items is +-1 or
#: undefined, whatever the scores.
MIN_CONFIGURATIONS = 3


def candidate_scores() -> dict[str, Measure]:
    """The stability scores whose agreement with the references is measured (catalogue order).

    Examples
    --------
    >>> list(candidate_scores())
    ['count_corrected', 'shuffle_corrected', 'f1', 'corrected_f1', 'shuffle_gap']
    """
    return {name: m for name, m in STABILITY.items() if m.correlate}


def reference_metrics(result: CorpusResult, names: Sequence[str] | None = None) -> dict[str, Measure]:
    """The reference metrics the scores are compared with: ``names`` (default: every reference
    metric of the catalogue) that have a direction and that the run computed, in ``names`` order."""
    present = {k for docs in result.documents.values() for r in docs for k in r.reference_metrics}
    wanted = [reference_measure(n) for n in names] if names is not None else list(REFERENCE.values())
    chosen = {m.name: m for m in wanted if m.ranked and m.name in present}
    if not chosen:
        raise InvalidParameterError(
            "the run has no ranked reference metric: the validation study needs documents with references and "
            f"metrics among {', '.join(m.name for m in wanted if m.ranked) or '(none with a direction)'}")
    return chosen


# ----------------------------------------------------------------------------------------------
# per-document values
# ----------------------------------------------------------------------------------------------
def _document_rows(result: CorpusResult, labels: Sequence[str]) -> list[str]:
    return document_ids({label: result.documents[label] for label in labels})


def score_matrix(result: CorpusResult, name: str, *, reference: bool = False,
                 labels: Sequence[str] | None = None) -> tuple[list[str], np.ndarray]:
    """Per-document values of one score as a ``(documents, configurations)`` matrix.

    Parameters
    ----------
    result : CorpusResult
        A run (``evaluate`` or ``load_results``).
    name : str
        A stability score of the catalogue or, with ``reference=True``, a key of
        ``reference_metrics``.
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
    value = None if reference else STABILITY[name].value
    doc_ids = _document_rows(result, labels)
    row = {d: i for i, d in enumerate(doc_ids)}
    out = np.full((len(doc_ids), len(labels)), np.nan)
    for j, label in enumerate(labels):
        for r in result.documents[label]:
            v = r.reference_metrics.get(name, float("nan")) if value is None else value(r)
            out[row[str(r.document)], j] = float(v)
    return doc_ids, out


# ----------------------------------------------------------------------------------------------
# running means (section 7)
# ----------------------------------------------------------------------------------------------
def running_means(values: ArrayLike) -> np.ndarray:
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


def settling(values: ArrayLike, *, tolerance: float = 0.02, at: int = 30, n_orders: int = 200,
             seed: int = 0, stream: Sequence[int | str] = ()) -> dict[str, float]:
    """How many documents the running mean needs before it stays near the corpus mean.

    Lamprier et al. (section 7) report that each method's stability score "would have been
    roughly the same after 30 examples". For the corpus order and for ``n_orders`` random orders
    of the documents (drawn from ``derived_rng(seed, "orders", *stream)``) this measures ``n``: the
    number of documents after which the running mean stays within ``tolerance`` of the mean over
    all documents, and the deviation ``|running mean at `at` - final mean|``.

    Returns
    -------
    dict
        ``final`` (the mean over all documents), ``n_corpus_order``, ``n_median`` and ``n_p90``
        (median and 90th percentile over random orders), ``deviation_at`` (corpus order) and
        ``deviation_at_p90`` (90th percentile over random orders). The two deviations are NaN unless
        more than ``at`` values are defined: the running mean skips undefined values, and after the
        last defined value it is the final mean, so its deviation would be 0 by construction.
    """
    check_real(tolerance, "tolerance", low=0, low_open=True)
    check_int(at, "at", low=1)
    check_int(n_orders, "n_orders", low=1)
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    short = v.size <= at  # no running mean after `at` values that is not the final mean itself
    keys = ("final", "n_corpus_order", "n_median", "n_p90", "deviation_at", "deviation_at_p90")
    if v.size == 0:
        return dict.fromkeys(keys, float("nan"))
    final = float(v.mean())
    position = min(at, v.size) - 1
    base = running_means(v)
    rng = derived_rng(seed, "orders", *stream)
    ns, deviations = [], []
    for _ in range(n_orders):
        run = running_means(v[rng.permutation(v.size)])
        ns.append(_settle_index(run, final, tolerance))
        deviations.append(abs(run[position] - final))
    deviation = (float("nan"), float("nan")) if short else (float(abs(base[position] - final)),
                                                            float(np.quantile(deviations, 0.9)))
    return dict(zip(keys, (final, float(_settle_index(base, final, tolerance)), float(np.median(ns)),
                           float(np.quantile(ns, 0.9)), *deviation)))


# ----------------------------------------------------------------------------------------------
# the paper's tables
# ----------------------------------------------------------------------------------------------
def _controls() -> tuple[tuple[str, str, bool], ...]:
    """The toolkit's controls: the reported stability measures beyond the paper's Table 3."""
    paper = ("n_boundaries", "precision", "recall", "f1")
    return tuple((m.name, m.short, False) for m in STABILITY.values() if m.report and m.name not in paper)


#: (key, title, reference?) of the paper's three tables plus the toolkit's controls.
PAPER_TABLES: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "Table 1 (classical measures)": (("windowdiff", "WDiff.", True), ("pk", "Pk", True),
                                      ("precision", "Prec.", True), ("recall", "Rec.", True),
                                      ("n_boundaries", "Nb.", False)),
    "Table 2 (normalized measures)": (("nwin", "NWin", True), ("tnwin", "TNWin", True)),
    "Table 3 (stability measures)": (("precision", "STP", False), ("recall", "STR", False), ("f1", "F1", False)),
    "Controls (this toolkit)": _controls(),
}


def _mean_std(values: np.ndarray) -> tuple[float, float, int]:
    v = values[~np.isnan(values)]
    mean = float(v.mean()) if v.size else float("nan")
    std = float(v.std(ddof=1)) if v.size > 1 else (0.0 if v.size == 1 else float("nan"))
    return mean, std, int(v.size)


def paper_tables(result: CorpusResult, labels: Sequence[str] | None = None
                 ) -> dict[str, dict[str, dict[str, tuple[float, float, int]]]]:
    """The paper's Tables 1-3 (and the controls) as ``{table: {label: {column: (mean, std, n)}}}``.

    Means and sample standard deviations (ddof=1) over documents, NaNs left out (``n`` says how
    many documents remain), as in Lamprier et al.'s tables ("mu" and "sigma"). Reference metrics
    the run did not compute are left out (a table with no column left too).
    """
    labels = list(result.documents) if labels is None else list(labels)
    present = {k for label in labels for r in result.documents[label] for k in r.reference_metrics}
    out: dict[str, dict[str, dict[str, tuple[float, float, int]]]] = {}
    for table, columns in PAPER_TABLES.items():
        matrices = {title: score_matrix(result, key, reference=ref, labels=labels)[1] for key, title, ref in columns
                    if not ref or key in present}
        if matrices:
            out[table] = {label: {title: _mean_std(m[:, j]) for title, m in matrices.items()}
                          for j, label in enumerate(labels)}
    return out


# ----------------------------------------------------------------------------------------------
# families, agreement among references, ceiling
# ----------------------------------------------------------------------------------------------
def primary_metric(metrics: Mapping[str, Measure]) -> str:
    """The reference metric that orders the ranking table and the plots' x axis: WindowDiff when
    compared (the paper's first criterion), else the first one.

    Examples
    --------
    >>> primary_metric({"f1": REFERENCE["f1"], "windowdiff": REFERENCE["windowdiff"]})
    'windowdiff'
    """
    return _RUNNING_REFERENCE if _RUNNING_REFERENCE in metrics else next(iter(metrics))


def family(label: str, specs: Mapping[str, Mapping[str, Any]]) -> str:
    """The segmenter family of a configuration: the ``segmenter`` key of its config table, or its
    label when absent (``[segmenters.none]`` is the ``none`` segmenter).

    Examples
    --------
    >>> family("tt_w20", {"tt_w20": {"segmenter": "texttiling", "w": 20}}), family("none", {"none": {}})
    ('texttiling', 'none')
    """
    return str(specs.get(label, {}).get("segmenter", label))


def reference_agreement(means: Mapping[str, Sequence[float]]) -> dict[tuple[str, str], float]:
    """Kendall tau-b across configurations between every pair of reference metrics, each oriented
    so that higher is better (``means``: metric -> mean per configuration).

    Examples
    --------
    >>> reference_agreement({"windowdiff": [0.1, 0.2, 0.3], "boundary_similarity": [0.9, 0.5, 0.7]})
    {('windowdiff', 'boundary_similarity'): 0.3333333333333333}
    """
    names = list(means)
    values = {m: oriented(m, means[m]) for m in names}
    return {(a, b): kendall_tau(values[a], values[b]) for i, a in enumerate(names) for b in names[i + 1:]}


def ceiling(means: Sequence[float], blind: Sequence[bool], metric: str) -> float:
    """The best Kendall tau-b a score that gives content-blind configurations nothing can reach.

    The ideal such score equals each configuration's own (oriented) reference value, except that
    the configurations flagged content-blind get a value below every other one (tied among
    themselves). For B, never below 0, that is "B with the content-blind configurations set to 0"
    (unless a content-aware configuration has B = 0 exactly). Returns its tau-b with the metric.

    Examples
    --------
    >>> ceiling([0.2, 0.3, 0.4, 0.1], [False, True, False, False], "boundary_similarity")  # (4 - 2) / 6 pairs
    0.3333333333333333
    """
    y = oriented(metric, means)
    ideal = ideal_values(y, blind)
    return float("nan") if np.isnan(ideal).all() else kendall_tau(ideal, y)


# ----------------------------------------------------------------------------------------------
# the whole analysis of one corpus
# ----------------------------------------------------------------------------------------------
#: Per-document stability values whose configuration means the report shows besides the candidates.
_DESCRIBED = ("precision", "recall", "chance_f1", "shuffle_f1", "n_boundaries")
#: The reference metric whose running mean is shown beside the stability scores' (section 7).
_RUNNING_REFERENCE = "windowdiff"
#: The phases of :func:`analyze`, in order, as its ``on_phase`` callback names them.
ANALYSIS_PHASES = ("score matrices", "running means", "correlations across configurations",
                   "per-document correlations", "agreement among the references", "half of the restarts",
                   "halves of the documents")


@dataclass
class Study:
    """Everything the report shows about one corpus, computed from one run.

    Attributes
    ----------
    name : str
        The corpus (``[corpus.NAME]``, or the config file's stem).
    result : CorpusResult
    labels : list of str
        Configurations, in run order.
    families : dict
        Label -> segmenter family (:func:`family`).
    content_blind : dict
        Label -> the run's corpus-level content-blind flag (:func:`stability.summary.summarize`).
    content_aware : list of str
        Labels not flagged content-blind.
    documents : list of str
        Document ids (rows of the matrices).
    scores, metrics : dict
        Candidate stability scores and reference metrics (name -> catalogue measure).
    tables : dict
        :func:`paper_tables`.
    means : dict
        ``{"stability": {score: {label: mean}}, "reference": {metric: {label: mean}}}``.
    across : dict
        ``{subset: {score: {metric: {"kendall": Correlation, "spearman": Correlation}}}}``,
        subset ``"all"`` or ``"content-aware"``.
    per_document : dict
        ``{score: {metric: document_correlations(...)}}`` over the content-aware configurations.
    running, settle : dict
        ``{key: {label: running mean array}}`` and ``{key: {label: settling(...)}}``; keys are the
        candidate scores and ``ref:windowdiff`` when WindowDiff was computed.
    references : dict
        ``{(metric, metric): tau-b}`` across configurations (:func:`reference_agreement`).
    ceilings : dict
        ``{metric: tau-b}`` (:func:`ceiling`).
    settings : dict
        Run and analysis settings shown in the report.
    sensitivity : Sensitivity or None
        The headline from half of the restarts against all of them
        (:func:`~stability.study.sensitivity.restart_sensitivity`).
    halves : HalfSplits or None
        The headline's ranking on half of the documents against each reference's on the other
        half, beside the ideal's and the reference's own (:func:`~stability.study.halves.split_halves`).
    """

    name: str
    result: CorpusResult
    labels: list[str]
    families: dict[str, str]
    content_blind: dict[str, bool | None]
    content_aware: list[str]
    documents: list[str]
    scores: dict[str, Measure]
    metrics: dict[str, Measure]
    tables: dict[str, Any]
    means: dict[str, Any]
    across: dict[str, Any]
    per_document: dict[str, Any]
    running: dict[str, Any]
    settle: dict[str, Any]
    references: dict[tuple[str, str], float]
    ceilings: dict[str, float]
    settings: dict[str, Any] = field(default_factory=dict)
    sensitivity: Sensitivity | None = None
    halves: HalfSplits | None = None

    @property
    def settle_at(self) -> int:
        """The documents after which a score's mean over documents is expected to settle
        (``settings["settle_at"]``, 30 by default: Lamprier et al., section 7)."""
        return int(self.settings.get("settle_at", 30))

    @property
    def few_documents(self) -> bool:
        """Whether the corpus has fewer documents than :attr:`settle_at`. On fewer, a ranking of
        the configurations can still change with the next documents and a percentile bootstrap
        over so few documents gives intervals too narrow to rely on: the report and ``stability
        validate`` say the numbers are no conclusion."""
        return len(self.documents) < self.settle_at

    def agreement(self, subset: str = "all", statistic: str = "kendall") -> dict[str, float]:
        """Mean oriented correlation of each candidate score with the reference metrics."""
        out = {}
        for score, by_metric in self.across[subset].items():
            values = [c[statistic].estimate for c in by_metric.values() if not math.isnan(c[statistic].estimate)]
            out[score] = float(np.mean(values)) if values else float("nan")
        return out

    def agreement_samples(self, subset: str, statistic: str, score: str,
                          metrics: Sequence[str] | None = None) -> np.ndarray:
        """Bootstrap replicates of the mean oriented correlation of ``score`` with ``metrics``
        (default every reference metric compared), resample by resample (NaN-skipping)."""
        by_metric = self.across[subset][score]
        chosen = list(by_metric) if metrics is None else [m for m in metrics if m in by_metric]
        return defined_row_means([by_metric[m][statistic].samples for m in chosen])

    def agreement_interval(self, subset: str = "all", statistic: str = "kendall") -> dict[str, tuple[float, float]]:
        """Bootstrap interval of :meth:`agreement` (the resamples are shared by every score and
        metric of a subset, so the mean over metrics is taken resample by resample)."""
        confidence = self.settings["confidence"]
        return {score: percentile_interval(self.agreement_samples(subset, statistic, score), confidence)
                for score in self.across[subset]}

    def difference_interval(self, first: str, second: str, subset: str = "all",
                            statistic: str = "kendall") -> tuple[float, float]:
        """Paired bootstrap interval of ``agreement[first] - agreement[second]``."""
        diff = (self.agreement_samples(subset, statistic, first)
                - self.agreement_samples(subset, statistic, second))
        return percentile_interval(diff, self.settings["confidence"])

    def ranks(self, name: str, *, reference: bool = False) -> np.ndarray:
        """Rank of each configuration (in :attr:`labels` order; 1 = best, ties averaged, NaN when
        undefined) by a candidate score or, with ``reference=True``, a reference metric."""
        measure = self.metrics[name] if reference else self.scores[name]
        values = self.means["reference" if reference else "stability"][name]
        key = -measure.sign * np.array([values[label] for label in self.labels], dtype=float)
        out = np.full(key.size, np.nan)
        ok = ~np.isnan(key)
        if ok.any():
            out[ok] = average_ranks(key[ok])
        return out

    def disagreements(self, score: str, metric: str, n: int = 3) -> list[tuple[str, float, float]]:
        """The ``n`` configurations whose rank by ``score`` differs most from their rank by the
        reference ``metric``: ``(label, rank by the metric, rank by the score)``, largest first
        (ties: :attr:`labels` order); pairs with a defined rank only."""
        by_metric, by_score = self.ranks(metric, reference=True), self.ranks(score)
        gap = np.abs(by_metric - by_score)
        order = [i for i in np.argsort(-gap, kind="stable") if not np.isnan(gap[i])]  # NaN sorts last
        return [(self.labels[i], float(by_metric[i]), float(by_score[i])) for i in order[:n] if gap[i] > 0]

    def best(self) -> str:
        """The candidate with the highest mean Kendall tau across all configurations on this corpus
        (ties: catalogue order); an error saying why (:meth:`why_undefined`) when none is defined."""
        return _best(self.agreement("all", "kendall"), list(self.scores), self)

    def why_undefined(self) -> str:
        """Why no candidate score has a defined correlation with the references on this corpus
        (a rank correlation needs values that differ across the configurations, on both sides)."""
        def constant(values: Mapping[str, float]) -> bool:
            defined = {round(values[label], 12) for label in self.labels if not math.isnan(values[label])}
            return len(defined) <= 1

        if all(self.means["stability"]["n_boundaries"][label] == 0 for label in self.labels):
            return ("no configuration placed a boundary on any of its documents (are they long enough to "
                    "split?), so every score and reference metric ties")
        scores = all(constant(self.means["stability"][score]) for score in self.scores)
        references = all(constant(self.means["reference"][metric]) for metric in self.metrics)
        if scores and references:
            return ("every configuration has the same value of every stability score and every reference metric "
                    "(do they place the same boundaries?)")
        if scores and not self.content_aware:
            units = [r.segmentation.n_units for results in self.result.documents.values() for r in results]
            return ("every configuration was flagged content-blind by the shuffle control, so every stability "
                    f"score is the same (documents of a median of {float(np.median(units)):g} units): check that "
                    "the documents are long enough to split, and compare segmenters that read the content, such as "
                    "texttiling, c99 or u00")
        if scores:
            return "every configuration has the same value of every stability score"
        if references:
            return "every configuration has the same value of every reference metric"
        return "too few configurations have a defined value on both sides"


def _best(values: Mapping[str, float], order: Sequence[str], study: "Study") -> str:
    defined = {k: v for k, v in values.items() if not math.isnan(v)}
    if not defined:
        raise InvalidParameterError(f"no stability score has a defined correlation with the references on "
                                    f"{study.name!r}: {study.why_undefined()}")
    return max(defined, key=lambda k: (defined[k], -order.index(k)))


def _column_means(matrix: np.ndarray, labels: Sequence[str]) -> dict[str, float]:
    return dict(zip(labels, weighted_means(matrix, np.ones((1, matrix.shape[0])))[0].tolist()))


def _across(stab: Mapping[str, np.ndarray], ref: Mapping[str, np.ndarray], labels: Sequence[str],
            aware: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """Correlations across configurations, for all of them and for the content-aware ones; every
    score and metric of a subset shares the resamples of the stream ``("across", subset)``."""
    out: dict[str, Any] = {}
    for subset, chosen in (("all", labels), ("content-aware", aware)):
        if len(chosen) < 3:
            continue
        cols = [labels.index(label) for label in chosen]
        out[subset] = {s: {m: configuration_correlations(stab[s][:, cols], ref[m][:, cols], stream=("across", subset),
                                                         **options) for m in ref} for s in stab}
    return out


def _per_document(stab: Mapping[str, np.ndarray], ref: Mapping[str, np.ndarray], labels: Sequence[str],
                  aware: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    if not aware:
        return {}
    cols = [labels.index(label) for label in aware]
    return {s: {m: document_correlations(stab[s][:, cols], ref[m][:, cols], stream=("documents", s, m), **options)
                for m in ref} for s in stab}


def _running(result: CorpusResult, labels: Sequence[str], keys: Sequence[str], options: Mapping[str, Any]
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    running: dict[str, Any] = {}
    settle: dict[str, Any] = {}
    for key in keys:
        name, is_ref = (key[4:], True) if key.startswith("ref:") else (key, False)
        matrix = score_matrix(result, name, reference=is_ref, labels=labels)[1]
        running[key] = {label: running_means(matrix[:, j]) for j, label in enumerate(labels)}
        settle[key] = {label: settling(matrix[:, j], stream=("settle", key, label), **options)
                       for j, label in enumerate(labels)}
    return running, settle


def _run_settings(result: CorpusResult, labels: Sequence[str], specs: Mapping[str, Mapping[str, Any]]
                  ) -> dict[str, Any]:
    """The run's settings and each configuration's parameters, as the report shows them."""
    return {"run": {k: result.settings.get(k) for k in ("n_restarts", "seed", "tolerance", "shuffle_control",
                                                         "content_margin", "metrics")},
            "segmenters": {label: dict(specs[label] if label in specs else result.documents[label][0].params)
                           for label in labels}}


def analyze(result: CorpusResult, *, name: str = "corpus", specs: Mapping[str, Mapping[str, Any]] | None = None,
            metric_names: Sequence[str] | None = None, n_bootstrap: int = 1000, seed: int = 0,
            confidence: float = 0.95, settle_tolerance: float = 0.02, settle_at: int = 30,
            n_orders: int = 200, n_splits: int = 200, on_phase: PhaseCallback | None = None) -> Study:
    """Compute every table and correlation of one corpus's section of the report.

    Parameters
    ----------
    result : CorpusResult
        A run over documents with references (reference metrics computed), at least 3
        configurations.
    name : str
        The corpus's name in the report.
    specs : mapping, optional
        Label -> the config's ``[segmenters.LABEL]`` table (families, parameters shown).
    metric_names : sequence of str, optional
        Reference metrics to compare with (:func:`reference_metrics`); default every ranked one.
    n_bootstrap, seed, confidence :
        Bootstrap intervals (resampling documents); every interval draws from its own named
        stream under ``seed``, so its numbers do not depend on which others are computed.
    settle_tolerance, settle_at, n_orders :
        See :func:`settling`.
    n_splits : int, default 200
        Random splits of the documents into two halves (:func:`~stability.study.halves.split_halves`),
        drawn under ``seed``.
    on_phase : callable, optional
        ``on_phase(phase, detail)`` as each phase of :data:`ANALYSIS_PHASES` starts (``detail``:
        its counts), e.g. a :class:`stability.status.Status`; the bootstrapped correlations can
        take minutes on a large corpus.
    """
    phase = on_phase or no_phase
    labels = [label for label, docs in result.documents.items() if docs]
    if len(labels) < MIN_CONFIGURATIONS:
        raise InvalidParameterError.make(
            "result", f"a run with at least {MIN_CONFIGURATIONS} segmenter configurations with results", labels)
    specs = dict(specs or {})
    scores, metrics = candidate_scores(), reference_metrics(result, metric_names)
    blind = {label: result.summary[label].content_blind if label in result.summary else None for label in labels}
    aware = [label for label in labels if not blind[label]]
    documents = _document_rows(result, labels)
    phase(ANALYSIS_PHASES[0], f"{len(labels)} configurations x {len(documents)} documents")
    stab = {s: score_matrix(result, s, labels=labels)[1] for s in scores}
    raw = {m: score_matrix(result, m, reference=True, labels=labels)[1] for m in metrics}
    ref = {m: oriented(m, raw[m]) for m in metrics}
    described = {**stab, **{e: score_matrix(result, e, labels=labels)[1] for e in _DESCRIBED}}
    means = {"stability": {s: _column_means(v, labels) for s, v in described.items()},
             "reference": {m: _column_means(v, labels) for m, v in raw.items()}}
    options = {"n_bootstrap": n_bootstrap, "seed": seed, "confidence": confidence}
    running_keys = list(scores) + ([f"ref:{_RUNNING_REFERENCE}"] if _RUNNING_REFERENCE in metrics else [])
    phase(ANALYSIS_PHASES[1], f"{len(running_keys)} scores x {len(labels)} configurations, {n_orders} document orders")
    running, settle = _running(result, labels, running_keys, {"tolerance": settle_tolerance, "at": settle_at,
                                                               "n_orders": n_orders, "seed": seed})
    reference_means = {m: [means["reference"][m][label] for label in labels] for m in metrics}
    flags = [bool(blind[label]) for label in labels]
    settings = {**options, "settle_tolerance": settle_tolerance, "settle_at": settle_at, "n_orders": n_orders,
                "n_splits": n_splits,
                **_run_settings(result, labels, specs)}
    pairs = f"{len(scores)} scores x {len(metrics)} metrics, {n_bootstrap} resamples"
    phase(ANALYSIS_PHASES[2], pairs)
    across = _across(stab, ref, labels, aware, options)
    phase(ANALYSIS_PHASES[3], f"{pairs} of {len(documents)} documents")
    per_document = _per_document(stab, ref, labels, aware, options)
    phase(ANALYSIS_PHASES[4], f"{len(metrics)} metrics")
    agreement = reference_agreement(reference_means)
    phase(ANALYSIS_PHASES[5], f"{len(labels)} configurations x {len(documents)} documents")
    sensitivity = restart_sensitivity(result, labels)
    phase(ANALYSIS_PHASES[6], f"{n_splits} splits of {len(documents)} documents")
    halves = split_halves(stab[HEADLINE.name], ref, flags, n_splits=n_splits, seed=seed) if len(documents) >= 2 else None
    return Study(name, result, labels, {label: family(label, specs) for label in labels}, blind, aware,
                 documents, scores, metrics, paper_tables(result, labels), means,
                 across, per_document, running, settle, agreement,
                 {m: ceiling(reference_means[m], flags, m) for m in metrics}, settings,
                 sensitivity, halves)
