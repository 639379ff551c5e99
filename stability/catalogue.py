"""The catalogue: every stability score and every reference metric, declared once.

Each :class:`Measure` says what a number is (name, short and long title), which way is better
(``direction``), what kind of number it is (a stability score of the harness, a reference metric of
a hypothesis, a description of the references themselves, or a parameter that merely records how a
metric was computed) and how to compute it. Summaries, correlations, reports, the CLI and the
validation study read these declarations; nothing else lists scores or metrics.

* :data:`STABILITY` -- per-document stability scores, computed from a
  :class:`~stability.results.StabilityResult` (``measure.value(result)``).
* :data:`REFERENCE` -- metrics of a hypothesis against one reference, computed by
  ``measure.value(context)`` from a :class:`MetricContext` (reference, hypothesis and options);
  :func:`stability.metrics.compute_all` is nothing but a loop over them.
* :data:`MULTI_REFERENCE` -- metrics against several references
  (:func:`stability.metrics.multi_reference_metrics`).

Flat tables (the CSV reports, ``to_rows``) name a measure's column after its name, as
:meth:`Measure.column` spells it: a stability score as its name (``f1``), what is computed against
the references with ``ref_`` in front (``ref_f1``, ``ref_pk``, ``ref_window_k``), and a statistic
over documents after it (``ref_pk_mean``, ``ref_pk_std``, ``f1_ci_low``, ``f1_ci_high``; see
:data:`STATISTICS`). The run's ``report.csv``, its ``documents.csv`` and the CSV of ``stability
score`` all spell a measure so.

Adding a stability score is one function of a result plus one :class:`Measure` in
:data:`STABILITY`; adding a reference metric is one metric function plus one :class:`Measure` in
:data:`REFERENCE`, declaring the report options it is computed with (``uses=("k",)`` for a window
metric, ``uses=("tolerance",)`` for boundary matching: the reports' notes on the window and the
tolerance read them). tests/test_catalogue.py checks that the catalogue covers every metric
function and every score a result carries, and that ``uses`` names exactly what each value moves with.

Examples
--------
>>> HEADLINE.name, HEADLINE.short
('count_corrected', 'stability')
>>> measure("wd").name, measure("wd").direction
('windowdiff', 'lower')
>>> measure("window_k").kind
'parameter'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .checks import did_you_mean, listed
from .exceptions import InvalidParameterError, InvalidTypeError

__all__ = [
    "Measure",
    "MetricContext",
    "STABILITY",
    "REFERENCE",
    "MULTI_REFERENCE",
    "HEADLINE",
    "measure",
    "stability_measure",
    "reference_measure",
    "reference_measures",
    "reference_spellings",
    "aliases_said",
    "reference_suggestion",
    "oriented",
]

#: Kinds of measure.
KINDS = ("stability", "reference", "agreement", "parameter", "comparison")
#: Directions: which way is better (None: not a quality, e.g. a count or a parameter).
DIRECTIONS = ("higher", "lower", None)
#: The options of a report that a reference metric may be computed with, each a field of
#: :class:`MetricContext` a measure declares in ``uses``: the window ``k`` of the window metrics,
#: and the ``tolerance`` of boundary matching.
USES = ("k", "tolerance")
#: The prefix of a measure's column in flat tables (every CSV, ``to_rows``), by kind: what is
#: computed against the references (their metrics, their agreement, the window k) is set apart from
#: the stability scores, some of which share its names (``f1`` and ``ref_f1``).
COLUMN_PREFIXES = {"stability": "", "comparison": "", "reference": "ref_", "agreement": "ref_", "parameter": "ref_"}
#: The statistics of a measure over documents (or over a document's restarts, for an interval),
#: each a column named ``<column>_<statistic>``: the mean, the standard deviation, the bounds of the
#: confidence interval.
STATISTICS = ("mean", "std", "ci_low", "ci_high")


@dataclass(frozen=True)
class Measure:
    """One declared number.

    Attributes
    ----------
    name : str
        Key in results (``StabilityResult`` attribute or ``reference_metrics`` key) and JSON; in
        CSV, the root of its columns (:meth:`column`).
    short, title : str
        Column title in tables, and the long title used in prose and HTML.
    kind : {"stability", "reference", "agreement", "parameter", "comparison"}
        ``stability``: a score of the stability test; ``reference``: a metric of the hypothesis
        against references; ``agreement``: a property of the references alone (the same for
        every hypothesis of a document); ``parameter``: how a metric was computed (the window k);
        ``comparison``: a score of each segmenter relative to the others of a run
        (:mod:`stability.comparison`), ``value(documents)`` giving every segmenter's.
    direction : {"higher", "lower", None}
        Which way is better; ``None`` for counts, controls and parameters (never correlated).
    value : callable
        ``value(result)`` for stability scores, ``value(context)`` for reference metrics.
    description : str
        One sentence for legends and ``--help``.
    aliases : tuple of str
        Other names users may type (``wd`` for ``windowdiff``).
    report : bool
        Shown in the human-readable reports by default.
    compact : bool
        Shown in the compact terminal table.
    correlate : bool
        Stability scores only: correlated with the reference metrics in reports and the study.
    digits : int or None
        Decimals in tables when they differ from the report's default; for a ``whole`` measure,
        the decimals of its statistics over documents (a mean of counts, 3.3 boundaries).
    whole : bool
        A whole number on each document (a count, the window k, GHD at its integer costs):
        a document's value is shown without decimals, its mean and std over documents with
        ``digits`` (see :meth:`places`).
    function : str
        Reference metrics: the :mod:`stability.metrics` function the value comes from.
    control : str
        Stability scores of an optional control: the :class:`~stability.results.StabilityResult`
        attribute that holds it (``"layout"``); summaries leave the score out when no result ran
        that control (see :meth:`present`).
    interval : str
        Stability scores with a per-document interval over restarts: the
        :class:`~stability.results.StabilityResult` attribute that holds it (``"f1_ci"``),
        shown beside the score in per-document tables.
    uses : tuple of str
        Reference metrics: the report's options (of :data:`USES`) its value is computed with,
        ``("k",)`` for a window metric, ``("tolerance",)`` for one matching boundaries within the
        report's tolerance; a report says the window and the tolerance under the metrics that
        declare them (:data:`WINDOWED`, :data:`TOLERANT`).
    """

    name: str
    short: str
    title: str
    kind: str
    direction: str | None
    value: Callable[..., Any]  # a number; a comparison's: every segmenter's, by label
    description: str = ""
    aliases: tuple[str, ...] = ()
    report: bool = True
    compact: bool = False
    correlate: bool = False
    digits: int | None = None
    whole: bool = False
    function: str = ""
    control: str = ""
    interval: str = ""
    uses: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidParameterError.make(f"kind of {self.name!r}", f"one of {KINDS}", self.kind)
        if self.direction not in DIRECTIONS:
            raise InvalidParameterError.make(f"direction of {self.name!r}", f"one of {DIRECTIONS}", self.direction)
        if self.digits is not None and (not isinstance(self.digits, int) or self.digits < 0):
            raise InvalidParameterError.make(f"digits of {self.name!r}", "None or an integer >= 0", self.digits)
        if not isinstance(self.uses, tuple) or not set(self.uses) <= set(USES):
            raise InvalidParameterError.make(f"uses of {self.name!r}", f"a tuple drawn from {USES}", self.uses)

    def column(self, statistic: str | None = None) -> str:
        """The measure's column in every flat table (the CSV reports, ``to_rows``): its name after
        its kind's prefix (:data:`COLUMN_PREFIXES`), then ``_<statistic>`` for one of
        :data:`STATISTICS`.

        Examples
        --------
        >>> measure("pk").column(), measure("pk").column("mean"), stability_measure("f1").column("ci_low")
        ('ref_pk', 'ref_pk_mean', 'f1_ci_low')
        """
        base = COLUMN_PREFIXES[self.kind] + self.name
        if statistic is None:
            return base
        if statistic not in STATISTICS:
            raise InvalidParameterError.make("statistic", f"None or one of {', '.join(STATISTICS)}", statistic)
        return f"{base}_{statistic}"

    def places(self, default: int, statistic: bool = False) -> int:
        """Decimals of this measure in a table whose numbers have ``default`` decimals: none for
        one document's value of a ``whole`` measure; otherwise (and for a ``statistic`` over
        documents, a mean or a std) its ``digits`` when declared, else ``default``.

        Examples
        --------
        >>> k = measure("window_k")
        >>> k.places(4), k.places(4, statistic=True), measure("pk").places(4, statistic=True)
        (0, 1, 4)
        """
        if self.whole and not statistic:
            return 0
        return default if self.digits is None else self.digits

    @property
    def sign(self) -> int:
        """+1 when higher is better, -1 when lower is better, 0 when neither."""
        return {"higher": 1, "lower": -1, None: 0}[self.direction]

    def present(self, results: Iterable[Any]) -> bool:
        """Whether a stability score exists for ``results``: always, unless it comes from an
        optional control that none of them ran."""
        return not self.control or any(getattr(r, self.control) is not None for r in results)

    @property
    def ranked(self) -> bool:
        """Whether the measure orders quality (it has a direction), hence can be correlated."""
        return self.direction is not None


def oriented(measure_or_name: Measure | str, values: Any) -> np.ndarray:
    """``values`` with the sign that makes higher better (lower-is-better metrics negated).

    Examples
    --------
    >>> oriented("pk", [0.1, 0.3]).tolist()
    [-0.1, -0.3]
    """
    m = measure_or_name if isinstance(measure_or_name, Measure) else measure(measure_or_name)
    if not m.ranked:
        raise InvalidParameterError(f"{m.name!r} is a {m.kind} with no direction; it cannot be ranked")
    return m.sign * np.asarray(values, dtype=float)


# ----------------------------------------------------------------------------------------------
# stability scores (functions of a StabilityResult)
# ----------------------------------------------------------------------------------------------
def _attribute(name: str) -> Callable[[Any], float]:
    def value(result: Any) -> float:
        return float(getattr(result, name))

    value.__name__ = name
    return value


def _stability(name: str, short: str, title: str, direction: str | None, description: str,
               value: Callable[[Any], float] | None = None, **options: Any) -> Measure:
    return Measure(name, short, title, "stability", direction, value or _attribute(name), description, **options)


_STABILITY_LIST = (
    _stability("count_corrected", "stability", "stability (count-aware shuffle correction)", "higher",
               "(F1 - C) / (1 - C), C = max(shuffle F1, chance F1): the stability F1 beyond what the shuffle "
               "control and boundaries placed by chance reach; about 0 for segmenters that ignore the content "
               "(sampling noise only), 0 for documents without boundaries and for documents the segmenter was "
               "term-blind on (saw next to no shared term)", compact=True, correlate=True,
               interval="headline_ci"),
    _stability("shuffle_corrected", "stab. (shuf.-corr.)", "stability (shuffle-corrected)", "higher",
               "(F1 - shuffle F1) / (1 - shuffle F1): the stability F1 corrected by the shuffle control, "
               "about 0 for segmenters that ignore the content", correlate=True),
    _stability("n_boundaries", "bounds", "boundaries", None, "number of boundaries of the initial segmentation",
               compact=True, digits=1, whole=True),
    _stability("precision", "STP", "stability precision", "higher", "mean over restarts of |B0 ∩ Br| / |Br|",
               compact=True),
    _stability("recall", "STR", "stability recall", "higher", "mean over restarts of |B0 ∩ Br| / |B0|",
               compact=True),
    _stability("f1", "F1", "stability F1", "higher", "eq. 11: harmonic mean of STP and STR", compact=True,
               correlate=True, interval="f1_ci"),
    _stability("chance_f1", "chance", "chance F1", None,
               "F1 of boundaries placed at random with the same counts"),
    _stability("corrected_f1", "corrected", "chance-corrected F1", "higher",
               "(F1 - chance) / (1 - chance)", correlate=True),
    _stability("shuffle_f1", "shuffle F1", "shuffle-control F1", None,
               "the same test with units permuted across the whole document", compact=True),
    _stability("shuffle_gap", "gap", "gap (F1 - shuffle F1)", "higher",
               "how much of the stability is due to the document's content", compact=True, correlate=True),
    _stability("layout_f1", "layout F1", "layout-control F1", None,
               "the same test with the document's words redistributed across units, each unit keeping its "
               "layout (words, characters, whitespace); near F1 for segmenters that only see the layout",
               report=False, control="layout"),
    _stability("self_agreement_f1", "self-agr.", "self-agreement F1", "higher",
               "F1 of a second call on the unpermuted document against the first", report=False),
)


# ----------------------------------------------------------------------------------------------
# reference metrics (functions of a MetricContext)
# ----------------------------------------------------------------------------------------------
@dataclass
class MetricContext:
    """What a reference metric needs: the validated pair and the report's options.

    ``k`` is the resolved window (0 on a one-unit document, where window metrics and the
    ``window_k`` measure are NaN);
    intermediate results shared by several measures (boundary P/R/F1, WiSeBE parts) are computed
    once per context.
    """

    reference: Any
    hypothesis: Any
    k: int = 0
    tolerance: int = 0
    gamma: float = 0.85
    times: Any = None
    references: tuple = ()
    window_limit: int = 3

    @cached_property
    def prf(self) -> Any:
        from .metrics import boundary_prf

        return boundary_prf(self.reference, self.hypothesis, self.tolerance)

    @property
    def near(self) -> int:
        """The tolerance of the measures "within one unit" (``f1_1``, ``f1_1_corrected``): one unit,
        whatever the report's."""
        return 1

    @cached_property
    def near_prf(self) -> Any:
        """Boundary P/R/F1 with a tolerance of exactly one unit, whatever the report's tolerance
        (the F1(±1) column says so)."""
        from .metrics import boundary_prf

        return boundary_prf(self.reference, self.hypothesis, self.near)

    @cached_property
    def wisebe(self) -> Any:
        from .metrics import wisebe

        return wisebe(self.references, self.hypothesis, self.window_limit, return_parts=True)


def _windowed(function_name: str, shift: int = 0) -> Callable[[MetricContext], float]:
    """A window metric at the context's window (``k + shift``); NaN on a one-unit document."""
    def value(c: MetricContext) -> float:
        from . import metrics

        if c.k == 0:
            return float("nan")
        return float(getattr(metrics, function_name)(c.reference, c.hypothesis, c.k + shift))

    value.__name__ = function_name
    return value


def _plain(function_name: str, **options: Any) -> Callable[[MetricContext], float]:
    def value(c: MetricContext) -> float:
        from . import metrics

        extra = {key: getattr(c, attr) for key, attr in options.items()}
        return float(getattr(metrics, function_name)(c.reference, c.hypothesis, **extra))

    value.__name__ = function_name
    return value


def _reference(name: str, short: str, title: str, direction: str | None, value: Callable, description: str,
               kind: str = "reference", **options: Any) -> Measure:
    options.setdefault("function", value.__name__)
    return Measure(name, short, title, kind, direction, value, description, **options)


_REFERENCE_LIST = (
    _reference("precision", "P", "boundary precision", "higher", lambda c: c.prf.precision,
               "share of hypothesis boundaries matching a reference boundary (within the tolerance)",
               aliases=("p",), function="boundary_prf", uses=("tolerance",)),
    _reference("recall", "R", "boundary recall", "higher", lambda c: c.prf.recall,
               "share of reference boundaries found (within the tolerance)", aliases=("r",),
               function="boundary_prf", uses=("tolerance",)),
    _reference("f1", "F1(ref)", "boundary F1", "higher", lambda c: c.prf.f1,
               "harmonic mean of boundary precision and recall", compact=True, function="boundary_prf",
               uses=("tolerance",)),
    _reference("f1_1", "F1(±1)", "boundary F1 within one unit", "higher", lambda c: c.near_prf.f1,
               "boundary F1 counting a boundary one unit away as found (one-to-one matching)", report=False,
               function="boundary_prf"),
    _reference("f1_corrected", "cF1(ref)", "chance-corrected boundary F1", "higher",
               _plain("chance_corrected_f1", tolerance="tolerance"),
               "(F1 - E[F1]) / (1 - E[F1]), E[F1] the exact expected boundary F1 of as many boundaries placed at "
               "random: 0 for a hypothesis no better than its boundary count placed by chance, 1 for a perfect one "
               "(n/a when every placement matches, e.g. no boundary on either side)", aliases=("cf1",),
               uses=("tolerance",)),
    _reference("f1_1_corrected", "cF1(±1)", "chance-corrected boundary F1 within one unit", "higher",
               _plain("chance_corrected_f1", tolerance="near"),
               "boundary F1 within one unit corrected for chance as cF1(ref) is: dense boundaries meet the "
               "reference within one unit by chance more often still", aliases=("cf1_1",), report=False),
    _reference("pk", "Pk", "Pk", "lower", _windowed("pk"), "Beeferman's Pk at window k", compact=True, uses=("k",)),
    _reference("windowdiff", "WD", "WindowDiff", "lower", _windowed("windowdiff"),
               "Pevzner & Hearst's WindowDiff at window k", aliases=("wd",), compact=True, uses=("k",)),
    _reference("windowdiff_corrected", "WD corr.", "corrected WindowDiff", "lower",
               _windowed("windowdiff_corrected"), "WindowDiff with edge windows (Lamprier et al. eq. 4)",
               aliases=("wd_corrected",), report=False, uses=("k",)),
    _reference("nwin", "NWin", "normalized WindowDiff", "lower", _windowed("nwin"),
               "WindowDiff over its expectation under random boundaries (eq. 6)", uses=("k",)),
    _reference("tnwin", "TNWin", "tolerant normalized WindowDiff", "lower", _windowed("tnwin"),
               "NWin with a tolerance t = 0.5 (eq. 9-10)", uses=("k",)),
    _reference("pr_error", "Pr_err", "Pr_error", "lower", _windowed("pr_error", shift=1),
               "Georgescul et al.'s C_miss Pr_miss + C_fa Pr_fa, balanced costs", uses=("k",)),
    _reference("ghd", "GHD", "generalized Hamming distance", "lower", _plain("ghd"),
               "nltk's generalized Hamming distance (unnormalized)", report=False, whole=True),  # costs 2, 2, 1: whole
    _reference("boundary_similarity", "B", "boundary similarity", "higher", _plain("boundary_similarity"),
               "Fournier's B (segeval)", aliases=("b",), compact=True),
    _reference("segmentation_similarity", "S", "segmentation similarity", "higher",
               _plain("segmentation_similarity"), "Fournier & Inkpen's S (segeval)", aliases=("s",), report=False),
    _reference("cov_n", "CovN", "segment coverage (count)", "higher", _plain("cov_n", gamma="gamma", times="times"),
               "Bouchekif et al.'s CovN at threshold gamma"),
    _reference("cov_d", "CovD", "segment coverage (duration)", "higher", _plain("cov_d", gamma="gamma", times="times"),
               "Bouchekif et al.'s CovD at threshold gamma"),
    _reference("window_k", "k", "window k", None, lambda c: c.k if c.k else float("nan"),
               "the window used by the window metrics (n/a where they are: a one-unit document)",
               kind="parameter", report=False, function="window_size", digits=1, whole=True, uses=("k",)),
)

_MULTI_LIST = (
    _reference("wisebe", "WiSeBE", "WiSeBE", "higher", lambda c: c.wisebe.value,
               "window F1 against the general reference times the agreement ratio", compact=True,
               function="wisebe"),
    _reference("wisebe_f1", "WiSeBE F1", "WiSeBE F1", "higher", lambda c: c.wisebe.f1,
               "F1 against the window-boundaries reference", report=False, function="wisebe"),
    _reference("wisebe_precision", "WiSeBE P", "WiSeBE precision", "higher", lambda c: c.wisebe.precision,
               "precision against the window-boundaries reference", report=False, function="wisebe"),
    _reference("wisebe_recall", "WiSeBE R", "WiSeBE recall", "higher", lambda c: c.wisebe.recall,
               "recall against the window-boundaries reference", report=False, function="wisebe"),
    _reference("agreement_ratio", "R_G_AR", "agreement ratio", None, lambda c: c.wisebe.agreement_ratio,
               "WiSeBE's agreement ratio among the references", kind="agreement", report=False,
               function="wisebe"),
    _reference("fleiss_kappa", "kappa", "Fleiss' kappa", None, lambda c: _kappa(c, "all"),
               "agreement among the references over all gaps", kind="agreement", function="fleiss_kappa"),
    _reference("fleiss_kappa_boundaries", "kappa(b)", "Fleiss' kappa (boundaries)", None,
               lambda c: _kappa(c, "boundaries"), "agreement over the gaps marked by a reference",
               kind="agreement", report=False, function="fleiss_kappa"),
    _reference("mean_f1", "mean F1", "mean F1 over references", "higher", lambda c: _mean_f1(c),
               "mean boundary F1 against each reference", report=False, function="boundary_prf", uses=("tolerance",)),
    _reference("n_references", "refs", "references", None, lambda c: len(c.references),
               "number of references", kind="parameter", report=False, function="", digits=1, whole=True),
)


def _kappa(c: MetricContext, positions: str) -> float:
    from .metrics import fleiss_kappa

    return fleiss_kappa(c.references, positions=positions)


def _mean_f1(c: MetricContext) -> float:
    from .metrics import boundary_prf

    return float(np.mean([boundary_prf(r, c.hypothesis, c.tolerance).f1 for r in c.references]))


def _by_name(measures: Iterable[Measure]) -> dict[str, Measure]:
    return {m.name: m for m in measures}


#: Stability scores, in report order (the headline first).
STABILITY: Mapping[str, Measure] = _by_name(_STABILITY_LIST)
#: Single-reference metrics, in report order.
REFERENCE: Mapping[str, Measure] = _by_name(_REFERENCE_LIST)
#: Multi-reference metrics, in report order.
MULTI_REFERENCE: Mapping[str, Measure] = _by_name(_MULTI_LIST)
#: The reports' headline score, chosen by the pre-registered protocol of docs/validation-protocol.md.
HEADLINE: Measure = STABILITY["count_corrected"]


def _using(option: str) -> tuple[str, ...]:
    return tuple(m.name for table in (REFERENCE, MULTI_REFERENCE) for m in table.values() if option in m.uses)


#: The reference metrics computed at the window ``k`` of :class:`MetricContext`, and ``k`` itself
#: (those declaring ``uses=("k",)``): a report says which window was used under any of them.
WINDOWED: tuple[str, ...] = _using("k")
#: The reference metrics whose boundary matching takes the report's tolerance (``tolerance`` of
#: :class:`MetricContext`; those declaring ``uses=("tolerance",)``); ``f1_1`` and
#: ``f1_1_corrected`` have their own, one unit, whatever the report's.
TOLERANT: tuple[str, ...] = _using("tolerance")


def _lookup(name: str, tables: tuple[Mapping[str, Measure], ...], what: str) -> Measure:
    for table in tables:
        if name in table:
            return table[name]
        for m in table.values():
            if name in m.aliases:
                return m
    spelled = _spellings(tables)
    aliases = aliases_said(spelled)
    raise InvalidParameterError(
        f"unknown {what} {name!r}{_suggestion(name, tables, spelled) or '.'} Known: "
        f"{', '.join(n for t in tables for n in t)}" + (f" (or an alias: {aliases})" if aliases else "")
    )


def _titled(name: str, tables: tuple[Mapping[str, Measure], ...], spelled: Mapping[str, str]) -> str:
    """``"; did you mean 'x' (titled ... in reports)?"`` when ``name`` is, but for case, the title
    a report gives one measure of ``tables`` (``CovN``, ``kappa``, ``Pr_err``) and no name or
    alias (``WD`` is left to :func:`~stability.checks.did_you_mean`, which suggests ``wd``);
    ``""`` otherwise.

    >>> spelled = _spellings((REFERENCE,))
    >>> _titled("CovN", (REFERENCE,), spelled), _titled("WD", (REFERENCE,), spelled)
    ("; did you mean 'cov_n' (titled 'CovN' in reports)?", '')
    """
    folded = name.strip().casefold()
    if any(folded == spelling.casefold() for spelling in spelled):
        return ""
    titled = {m.name: m.short for t in tables for m in t.values() if folded == m.short.casefold()}
    if len(titled) != 1:
        return ""
    (found, short), = titled.items()
    return f"; did you mean {found!r} (titled {short!r} in reports)?"


def _suggestion(name: str, tables: tuple[Mapping[str, Measure], ...], spelled: Mapping[str, str]) -> str:
    return _titled(name, tables, spelled) or did_you_mean(name, list(spelled))


def reference_suggestion(name: str) -> str:
    """What an error about an unknown reference metric ``name`` suggests: ``"; did you mean 'x'?"``
    for the closest name or alias, or the metric a report titles so (``CovN``); ``""`` when none is
    close.

    >>> reference_suggestion("wdd"), reference_suggestion("kappa")
    ("; did you mean 'wd'?", "; did you mean 'fleiss_kappa' (titled 'kappa' in reports)?")
    """
    tables = (REFERENCE, MULTI_REFERENCE)
    return _suggestion(name, tables, _spellings(tables))


def _spellings(tables: tuple[Mapping[str, Measure], ...]) -> dict[str, str]:
    """Every name, then every alias, of the measures of ``tables``, to the name it stands for."""
    return {n: n for t in tables for n in t} | {a: m.name for t in tables for m in t.values() for a in m.aliases}


def aliases_said(spellings: Mapping[str, str]) -> str:
    """The aliases among ``spellings`` (spelling -> name, as :func:`reference_spellings` gives
    them) as errors list them, each with the name it stands for.

    >>> aliases_said(reference_spellings())[:47]
    'p = precision, r = recall, cf1 = f1_corrected, '
    """
    return ", ".join(f"{alias} = {name}" for alias, name in spellings.items() if alias != name)


def reference_spellings() -> dict[str, str]:
    """The names and aliases a reference metric is given by (``b``, ``wd``...), to its name.

    >>> reference_spellings()["wd"]
    'windowdiff'
    """
    return _spellings((REFERENCE, MULTI_REFERENCE))


def reference_measure(name: str) -> Measure:
    """The reference metric called ``name`` (or one of its aliases, e.g. ``wd``)."""
    return _lookup(name, (REFERENCE, MULTI_REFERENCE), "reference metric")


def reference_measures(names: str | Iterable[str]) -> list[Measure]:
    """The reference metrics named in ``names``, in that order and without repeats: names or
    aliases, as a sequence (``["pk", "wd"]``) or one comma-separated string (``"pk,wd"``, the
    command line's ``--metrics`` form).

    Examples
    --------
    >>> [m.name for m in reference_measures("pk, wd,pk")]
    ['pk', 'windowdiff']
    >>> [m.name for m in reference_measures("p,r")]  # the titles P and R, as the aliases p and r
    ['precision', 'recall']
    >>> reference_measures("pkk")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: unknown reference metric 'pkk'; did you mean 'pk'? Known: ...
    """
    if isinstance(names, str):
        given = [name.strip() for name in names.split(",") if name.strip()]
        if not given:
            raise InvalidParameterError.make("metrics", "one or more metric names or aliases, e.g. 'pk,wd,b'", names)
    elif listed(names):
        given = list(names)
        if not all(isinstance(name, str) for name in given):
            raise InvalidTypeError.make("metrics", "metric names (strings) or one comma-separated string", names)
    else:
        raise InvalidTypeError.make("metrics", "a sequence of metric names or one comma-separated string", names)
    return list(dict.fromkeys(reference_measure(name) for name in given))


def stability_measure(name: str) -> Measure:
    """The stability score called ``name``."""
    return _lookup(name, (STABILITY,), "stability score")


def measure(name: str) -> Measure:
    """A reference metric or, failing that, a stability score (reference metrics win a shared
    name such as ``f1``; use :func:`stability_measure` for the stability one)."""
    try:
        return reference_measure(name)
    except InvalidParameterError:
        return _lookup(name, (REFERENCE, MULTI_REFERENCE, STABILITY), "metric or score")
