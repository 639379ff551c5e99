"""Result objects of the stability test and of corpus runs, with lossless JSON round-trips."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .checks import check_int, counted
from .exceptions import MissingDependencyError, call_and_seed, failure_place
from .segmentation import Segmentation
from .stats import bootstrap_mean, f1_array

__all__ = ["RestartScores", "StabilityResult", "Stat", "SegmenterSummary", "Failure", "CorpusResult", "is_content_blind",
           "is_layout_only", "is_term_blind", "term_blind_share", "TERM_BLIND_SHARE"]


def is_content_blind(shuffle_f1: float, f1: float, content_margin: float) -> bool:
    """The shuffle control's verdict, for a document or for corpus means: destroying the document's
    arrangement leaves the boundaries about as stable (shuffle F1 at least F1 minus the margin)."""
    return bool(shuffle_f1 >= f1 - content_margin)


def is_layout_only(layout_f1: float, content_margin: float) -> bool:
    """The layout control's verdict, for a document or for a corpus mean: the output hardly changes
    when every word is replaced (layout-control F1 at least 1 minus the margin)."""
    return bool(layout_f1 >= 1.0 - content_margin)


def layout_only_over(docs: Any, content_margin: float | None = None) -> bool | None:
    """The layout control's verdict over a corpus (``docs``, a segmenter's :class:`StabilityResult` s):
    :func:`is_layout_only` of the mean layout-control F1 over the documents that ran it (NaN values
    left out, as a :class:`Stat` leaves them), with ``content_margin`` (default: the documents'
    own); ``None`` when none ran it. The rule of :attr:`SegmenterSummary.layout_only` and of the
    comparison's voters (:func:`stability.comparison.layout_only`)."""
    ran = [r.layout.f1 for r in docs if getattr(r, "layout", None) is not None]
    if not ran:
        return None
    values = np.asarray(ran, dtype=float)
    values = values[~np.isnan(values)]
    margin = docs[0].content_margin if content_margin is None else content_margin
    return is_layout_only(float(values.mean()) if values.size else float("nan"), margin)


#: The share of a segmenter's documents that must be exceeded by those it was term-blind on (it saw
#: next to no term shared between their units: :func:`stability.segmenter.unit_terms_problem`) for
#: the segmenter to be flagged term-blind over the corpus (:func:`is_term_blind`): most of them. On
#: a corpus half in a language its preprocessing reads, it is ranked, its headline 0 on the other half.
TERM_BLIND_SHARE = 0.5


def is_term_blind(share: float) -> bool:
    """The corpus verdict of the terms check: on more than :data:`TERM_BLIND_SHARE` of its documents
    the segmenter saw next to no term shared between units, so its boundaries could not follow
    the content there (they can follow the units' lengths, which the shuffle control does not
    catch). NaN (no document) is not term-blind."""
    return bool(share > TERM_BLIND_SHARE)


def term_blind_share(docs: Any) -> float:
    """The share of ``docs`` (a segmenter's :class:`StabilityResult` s) on which it was term-blind
    (:attr:`StabilityResult.term_blind`); 0 without documents."""
    docs = list(docs)
    return sum(r.term_blind is not None for r in docs) / len(docs) if docs else 0.0


def resolved_values(docs: Any) -> dict[str, list[Any]]:
    """Each parameter ``docs`` (a segmenter's :class:`StabilityResult` s) took on some document
    unlike its recorded ones (:attr:`StabilityResult.resolved_params`), with the values it took,
    in the order of their first document (as JSON values: one per distinct value)."""
    values: dict[str, list[Any]] = {}
    for r in docs:
        for name, value in _jsonable(r.resolved_params).items():
            if value not in values.setdefault(name, []):
                values[name].append(value)
    return values


def _json_float(x: float | None) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def _from_json_float(x: Any) -> float:
    return float("nan") if x is None else float(x)


def _from_json_pair(pair: Any) -> tuple[float, float]:
    low, high = pair
    return _from_json_float(low), _from_json_float(high)


def map_floats(value: Any, leaf: Callable[[float], Any]) -> Any:
    """``value`` with ``leaf`` applied to each float in it, through dicts, lists and tuples (a
    tuple becomes a list, as JSON writes it): the one walk behind the strict-JSON forms of a result,
    the reports' (:func:`stability.reporting.corpus.clean`) and the results file's."""
    if not isinstance(value, (dict, list, tuple)):
        return leaf(value) if isinstance(value, float) else value
    # the items read here, not each in a call of its own: a report's payload holds millions
    mapped = [leaf(v) if isinstance(v, float) else map_floats(v, leaf) if isinstance(v, (dict, list, tuple)) else v
              for v in (value.values() if isinstance(value, dict) else value)]
    return dict(zip(value, mapped)) if isinstance(value, dict) else mapped


class EqualAsWritten:
    """The equality of result objects, declared once: two are equal when they write the same JSON
    (``to_dict``), what their results file holds. A result read back from its file equals the one
    written, and a score without a value, NaN (a :class:`Stat`'s spread over one document,
    ``layout_only_share`` without the layout control), equals NaN where ``to_dict`` writes it
    ``null``. Objects of another type, a subclass's too, are not equal (``NotImplemented``); the
    objects are unhashable unless a class says how (:class:`Stat`)."""

    to_dict: Callable[[], dict[str, Any]]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(self.to_dict() == other.to_dict())  # type: ignore[attr-defined]


@dataclass(frozen=True, eq=False)
class RestartScores(EqualAsWritten):
    """Scores of one permutation scope (within segments, the shuffle or the layout control).

    Attributes
    ----------
    scope : str
        ``"within"`` (the stability test), ``"shuffle"`` (the shuffle control) or ``"layout"``
        (the layout control).
    n_restarts : int
        Restarts actually run.
    restart_precision, restart_recall : numpy.ndarray
        Per-restart precision ``|B0 ∩ Br| / |Br|`` and recall ``|B0 ∩ Br| / |B0|``.
    restart_boundaries : tuple of tuple of int
        ``Br`` for every restart, in restart order.
    precision, recall : float
        STP and STR: the means over restarts.
    f1 : float
        Eq. 11 applied to STP and STR.
    f1_ci : (float, float)
        Percentile bootstrap confidence interval of ``f1`` over restarts (NaN from a single
        restart, which is no sample of how restarts vary).
    precision_std, recall_std, f1_std : float
        Spread (standard deviation, ddof=0) over restarts of per-restart P, R and F1.
    boundary_confidence : dict
        Initial boundary -> share of restarts in which it reappears.
    spurious_boundaries : dict
        Position found in restarts but absent from ``B0`` -> share of restarts.
    chance_precision, chance_recall, chance_f1 : float
        Expected STP, STR and F1 of randomly placed boundaries with the same counts.
    corrected_f1 : float
        ``(f1 - chance_f1) / (1 - chance_f1)``; NaN when the chance level is 1 (the counts
        alone force agreement: no boundaries, or boundaries everywhere).

    Examples
    --------
    A document's result holds one for its shuffle control (and its layout control, when run):

    >>> from stability import stability_test
    >>> from stability.demo import demo_corpus
    >>> result = stability_test("c99", demo_corpus(n_documents=1)[0].units, n_restarts=10)
    >>> result.shuffle
    RestartScores(scope='shuffle', n_restarts=10, precision=0.025, recall=0.017, f1=0.020)
    >>> len(result.shuffle.restart_boundaries), result.shuffle.restart_f1.shape  # a value per restart
    (10, (10,))
    """

    scope: str
    n_restarts: int
    restart_precision: np.ndarray
    restart_recall: np.ndarray
    restart_boundaries: tuple[tuple[int, ...], ...]
    precision: float
    recall: float
    f1: float
    f1_ci: tuple[float, float]
    precision_std: float
    recall_std: float
    f1_std: float
    boundary_confidence: dict[int, float]
    spurious_boundaries: dict[int, float]
    chance_precision: float
    chance_recall: float
    chance_f1: float
    corrected_f1: float

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(scope={self.scope!r}, n_restarts={self.n_restarts}, "
                f"precision={self.precision:.3f}, recall={self.recall:.3f}, f1={self.f1:.3f})")

    @property
    def restart_f1(self) -> np.ndarray:
        """Per-restart F1 (eq. 11 on each restart's P and R)."""
        return f1_array(self.restart_precision, self.restart_recall)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary (NaN becomes ``None``)."""
        return {
            "scope": self.scope,
            "n_restarts": self.n_restarts,
            "restart_precision": [float(x) for x in self.restart_precision],
            "restart_recall": [float(x) for x in self.restart_recall],
            "restart_boundaries": [list(b) for b in self.restart_boundaries],
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "f1_ci": [_json_float(x) for x in self.f1_ci],
            "precision_std": self.precision_std,
            "recall_std": self.recall_std,
            "f1_std": self.f1_std,
            "boundary_confidence": {str(k): _json_float(v) for k, v in self.boundary_confidence.items()},
            "spurious_boundaries": {str(k): v for k, v in self.spurious_boundaries.items()},
            "chance_precision": self.chance_precision,
            "chance_recall": self.chance_recall,
            "chance_f1": self.chance_f1,
            "corrected_f1": _json_float(self.corrected_f1),
        }

    @staticmethod
    def _common_from_dict(data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "scope": data["scope"],
            "n_restarts": int(data["n_restarts"]),
            "restart_precision": np.asarray(data["restart_precision"], dtype=float),
            "restart_recall": np.asarray(data["restart_recall"], dtype=float),
            "restart_boundaries": tuple(tuple(map(int, b)) for b in data["restart_boundaries"]),
            "precision": float(data["precision"]),
            "recall": float(data["recall"]),
            "f1": float(data["f1"]),
            "f1_ci": tuple(_from_json_float(x) for x in data["f1_ci"]),
            "precision_std": float(data["precision_std"]),
            "recall_std": float(data["recall_std"]),
            "f1_std": float(data["f1_std"]),
            "boundary_confidence": {int(k): _from_json_float(v) for k, v in data["boundary_confidence"].items()},
            "spurious_boundaries": {int(k): float(v) for k, v in data["spurious_boundaries"].items()},
            "chance_precision": float(data["chance_precision"]),
            "chance_recall": float(data["chance_recall"]),
            "chance_f1": float(data["chance_f1"]),
            "corrected_f1": _from_json_float(data["corrected_f1"]),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RestartScores":
        """Inverse of :meth:`to_dict`."""
        return cls(**cls._common_from_dict(data))


@dataclass(frozen=True, eq=False)
class StabilityResult(RestartScores):
    """The stability test of one segmenter on one document (Lamprier et al. 2007, Algorithm 1).

    Besides the :class:`RestartScores` fields of the test itself (``precision`` is STP,
    ``recall`` is STR, ``f1`` is eq. 11), it carries the controls:

    Attributes
    ----------
    segmenter : str
        Segmenter label.
    params : dict
        The segmenter's parameters, as reported by it (as given to the run).
    resolved_params : dict
        The parameters it took on this document where they differ from ``params``
        (:func:`stability.segmenter.resolved_params`): a segmenter resolved per document, e.g. a
        chunker's ``unit_separator`` left to the document's reader (``None`` in ``params``, the
        separator applied here), or ``n_segments="reference"`` (the reference's count). Empty, and
        absent from :meth:`to_dict`, where it ran as given.
    document : str or None
        Document id.
    segmentation : Segmentation
        The initial segmentation ``B0``.
    seed, tolerance : int
        Run seed and matching tolerance (0: exact match, as in the paper).
    deterministic : bool or None
        Whether a second call on the unpermuted document reproduced ``B0`` (``None`` when the
        check was not run). The paper warns the test is not valid otherwise.
    self_agreement_f1 : float
        F1 of the second call against ``B0`` (1.0 when deterministic).
    shuffle : RestartScores or None
        The shuffle control: the same test with units permuted across the whole document.
    content_blind : bool or None
        True when ``shuffle.f1 >= f1 - content_margin``: destroying the document's arrangement
        does not make the boundaries less stable than within-segment permutations do, so the
        stability score carries no evidence about the content (even spacing, no boundaries,
        all boundaries, content-independent random boundaries...).
    content_margin : float
        Margin used for ``content_blind`` and ``layout_only``.
    layout : RestartScores or None
        The layout control (run with ``layout_control=True``): the same test on documents whose
        units keep their layout (length in characters, whitespace, punctuation, capitals) while the
        document's words are redistributed at random across them
        (:func:`stability.permutations.layout_units`); ``None`` when it was not run.
    layout_only : bool or None
        True when ``layout.f1 >= 1 - content_margin``: the output does not change when the content
        is destroyed and the layout kept, so the boundaries come from the units' lengths, not from
        their topics (fixed-size and recursive character splitters, and every deterministic
        content-blind segmenter). The comparison is with 1, not with ``f1`` as for
        ``content_blind``: a segmenter whose boundaries are weakly stable (TextTiling on short
        documents) is about as stable under the layout control as under the test, since where
        its boundaries may fall depends partly on the layout, yet its output does change with the
        content.
    term_blind : str or None
        Why the segmenter saw next to nothing of this document's content, in words, or ``None``:
        fewer than :data:`~stability.segmenter.TERM_BLIND_LINKED` (a tenth) of the units share a
        term with another unit as it reads them (:func:`stability.segmenter.unit_links`; its preprocessing not set for the
        document's language, typically). Its boundaries then cannot follow the topics; they can
        follow the units' lengths, which the shuffle control does not see, so its stability says
        nothing about the content: the document's headline is 0 (``headline_ci`` ``(0, 0)``), as
        for a content-blind segmenter, whatever its F1. ``None`` too for segmenters
        that do not tell their terms (no ``unit_terms``), and in files written before it existed.
    stopped_early : bool
        Whether adaptive stopping ended the test before the maximum number of restarts.
    headline_ci : (float, float)
        Percentile bootstrap interval of the document's headline score (``count_corrected``)
        over its restarts, within and shuffle restarts resampled independently
        (:func:`stability.scores.headline_interval`): how far the value may move with other
        restarts. ``(nan, nan)`` without the shuffle control, and in files written before it
        existed.
    reference_metrics : dict
        When the document has references: reference-based metrics of ``B0`` (name -> value; see
        :func:`stability.metrics.reference_metrics`), beside the stability scores.
    references : tuple of tuple of int
        The document's reference boundaries (one tuple per annotator), kept for reports.
    boundary_times : tuple of float or None
        Where the document's units have times (transcripts: ``Document.times``), the start in
        seconds of the unit each boundary of ``segmentation`` starts, in its order: where a
        listener hears the boundary. ``None`` for documents without times (and in files written
        before it existed). Reports show it as a clock time (:func:`stability.reporting.model.clock`).

    Examples
    --------
    >>> from stability import stability_test
    >>> from stability.demo import demo_corpus
    >>> document = demo_corpus(n_documents=1)[0]
    >>> result = stability_test("c99", document.units, n_restarts=10, doc_id=document.id)
    >>> result
    StabilityResult(segmenter='c99', document='demo-00', n_units=56, n_boundaries=6, n_restarts=10,
                    f1=0.792, shuffle_f1=0.015, count_corrected=0.766, content_blind=False)
    >>> result.segmentation.boundaries
    (11, 19, 28, 36, 46, 49)
    >>> result.boundary_confidence  # the share of restarts each boundary came back in
    {11: 0.6, 19: 1.0, 28: 0.8, 36: 0.8, 46: 0.7, 49: 1.0}
    >>> round(result.count_corrected, 3), [round(x, 3) for x in result.headline_ci]
    (0.766, [0.648, 0.876])
    """

    segmenter: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    document: str | None = None
    segmentation: Segmentation = field(default_factory=lambda: Segmentation((), 1))
    seed: int = 0
    tolerance: int = 0
    deterministic: bool | None = None
    self_agreement_f1: float = float("nan")
    shuffle: RestartScores | None = None
    content_blind: bool | None = None
    content_margin: float = 0.05
    layout: RestartScores | None = None
    layout_only: bool | None = None
    term_blind: str | None = None
    stopped_early: bool = False
    headline_ci: tuple[float, float] = (float("nan"), float("nan"))
    reference_metrics: dict[str, float] = field(default_factory=dict)
    references: tuple[tuple[int, ...], ...] = ()
    boundary_times: tuple[float, ...] | None = None
    resolved_params: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        """One line: who, where, how many boundaries, and the scores, the headline
        (:data:`stability.catalogue.HEADLINE`) among them (no per-restart arrays)."""
        from .catalogue import HEADLINE

        return (f"StabilityResult(segmenter={self.segmenter!r}, document={self.document!r}, "
                f"n_units={self.segmentation.n_units}, n_boundaries={self.n_boundaries}, "
                f"n_restarts={self.n_restarts}, f1={self.f1:.3f}, shuffle_f1={self.shuffle_f1:.3f}, "
                f"{HEADLINE.name}={HEADLINE.value(self):.3f}, content_blind={self.content_blind}"
                f"{', term_blind=True' if self.term_blind is not None else ''})")

    @property
    def n_units(self) -> int:
        """Number of units of the document (``segmentation.n_units``)."""
        return self.segmentation.n_units

    @property
    def n_boundaries(self) -> int:
        """Number of initial boundaries."""
        return self.segmentation.n_boundaries

    @property
    def shuffle_f1(self) -> float:
        """F1 of the shuffle control (NaN when it was not run)."""
        return self.shuffle.f1 if self.shuffle is not None else float("nan")

    @property
    def layout_f1(self) -> float:
        """F1 of the layout control (NaN when it was not run)."""
        return self.layout.f1 if self.layout is not None else float("nan")

    @property
    def shuffle_gap(self) -> float:
        """``f1 - shuffle_f1``: how much more stable the boundaries are under within-segment
        permutations than once the document's arrangement is destroyed. Near 0 for segmenters
        whose output does not depend on the content (even spacing, none, all), whatever their
        raw F1; NaN when the shuffle control was not run."""
        return self.f1 - self.shuffle_f1

    @property
    def shuffle_corrected(self) -> float:
        """``(f1 - shuffle_f1) / (1 - shuffle_f1)``, the reports' headline before issue 11 (see
        :func:`stability.scores.shuffle_corrected_f1`)."""
        from .scores import shuffle_corrected_f1

        return shuffle_corrected_f1(self.f1, self.shuffle_f1)

    @property
    def count_corrected(self) -> float:
        """The reports' headline score of this document, ``(f1 - C) / (1 - C)`` with
        ``C = max(shuffle_f1, chance_f1)``, 0 without boundaries (see
        :func:`stability.scores.count_corrected_f1`), and 0 on a document the segmenter was
        term-blind on (``term_blind``: it could not see the content, so no stability is credited,
        as for a content-blind segmenter); ``headline_ci`` is its interval over restarts."""
        from .scores import count_corrected_f1

        return count_corrected_f1(self.f1, self.shuffle_f1, self.chance_f1, self.n_boundaries,
                                  term_blind=self.term_blind is not None)

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data.update(
            {
                "segmenter": self.segmenter,
                "params": _jsonable(self.params),
                "document": self.document,
                "n_units": self.segmentation.n_units,
                "boundaries": list(self.segmentation.boundaries),
                "seed": self.seed,
                "tolerance": self.tolerance,
                "deterministic": self.deterministic,
                "self_agreement_f1": _json_float(self.self_agreement_f1),
                "shuffle": None if self.shuffle is None else self.shuffle.to_dict(),
                "content_blind": self.content_blind,
                "content_margin": self.content_margin,
                "stopped_early": self.stopped_early,
                "headline_ci": [_json_float(x) for x in self.headline_ci],
                "reference_metrics": {k: _json_float(v) for k, v in self.reference_metrics.items()},
                "references": [list(r) for r in self.references],
            }
        )
        if self.layout is not None:  # absent when not run, as in files written before it existed
            data.update({"layout": self.layout.to_dict(), "layout_only": self.layout_only})
        if self.boundary_times is not None:  # absent for documents without times
            data["boundary_times"] = list(self.boundary_times)
        if self.term_blind is not None:  # absent where the segmenter saw the document's terms
            data["term_blind"] = self.term_blind
        if self.resolved_params:  # absent where the segmenter ran as given, as in files written before it existed
            data["resolved_params"] = _jsonable(self.resolved_params)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "StabilityResult":
        shuffle, layout = data.get("shuffle"), data.get("layout")
        return cls(
            **cls._common_from_dict(data),
            segmenter=data["segmenter"],
            params=dict(data.get("params", {})),
            document=data.get("document"),
            segmentation=Segmentation(data["boundaries"], data["n_units"]),
            seed=int(data["seed"]),
            tolerance=int(data["tolerance"]),
            deterministic=data.get("deterministic"),
            self_agreement_f1=_from_json_float(data.get("self_agreement_f1")),
            shuffle=None if shuffle is None else RestartScores.from_dict(shuffle),
            content_blind=data.get("content_blind"),
            content_margin=float(data.get("content_margin", 0.05)),
            layout=None if layout is None else RestartScores.from_dict(layout),
            layout_only=data.get("layout_only"),
            term_blind=data.get("term_blind"),
            resolved_params=dict(data.get("resolved_params", {})),
            stopped_early=bool(data.get("stopped_early", False)),
            headline_ci=_from_json_pair(data.get("headline_ci", (None, None))),
            reference_metrics={k: _from_json_float(v) for k, v in data.get("reference_metrics", {}).items()},
            references=tuple(tuple(map(int, r)) for r in data.get("references", [])),
            boundary_times=None if data.get("boundary_times") is None else tuple(map(float, data["boundary_times"])),
        )


def _jsonable(value: Any) -> Any:
    """Parameters as JSON-friendly values (tuples/sets to lists, other objects to their repr,
    without the memory address of a default repr, so the value is the same in every run)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [_jsonable(v) for v in items]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, np.generic):
        return value.item()
    text = repr(value)
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


@dataclass(frozen=True, eq=False)
class Stat(EqualAsWritten):
    """Mean, standard deviation (ddof=1) and confidence interval of a score over documents (no
    interval, ``(nan, nan)``, from fewer than two values).

    Attributes
    ----------
    mean : float
        The mean over the documents with a value (NaN values are left out).
    std : float
        The standard deviation over them (ddof=1; NaN from one value).
    ci : (float, float)
        The percentile bootstrap interval of the mean, at the run's ``confidence``.
    n : int
        The number of values summarised.

    Examples
    --------
    >>> import numpy as np
    >>> stat = Stat.of([0.5, 0.7, 0.9], np.random.default_rng(0))
    >>> round(stat.mean, 3), round(stat.std, 3), stat.n
    (0.7, 0.2, 3)
    >>> Stat.of([0.5], np.random.default_rng(0))  # one value: no spread, no interval
    Stat(mean=0.5, std=nan, ci=(nan, nan), n=1)

    In a run's summary, each score of a segmenter is one (``evaluate(...).summary[label].macro``).
    """

    mean: float
    std: float
    ci: tuple[float, float]
    n: int

    @classmethod
    def of(cls, values: Any, rng: np.random.Generator, confidence: float = 0.95, n_resamples: int = 1000) -> "Stat":
        """Summarise ``values`` (NaNs are left out); the interval is a percentile bootstrap."""
        x = np.asarray(list(values), dtype=float)
        x = x[~np.isnan(x)]
        n = int(x.size)
        if n == 0:
            nan = float("nan")
            return cls(nan, nan, (nan, nan), 0)
        if n == 1:  # one value gives no interval and no sample standard deviation
            nan = float("nan")
            return cls(float(x[0]), nan, (nan, nan), 1)
        with np.errstate(invalid="ignore"):  # an infinite value (NWin) has no spread: NaN, without a warning
            return cls(float(x.mean()), float(x.std(ddof=1)), bootstrap_mean(x, rng, confidence, n_resamples), n)

    def __hash__(self) -> int:
        """The hash of what ``==`` compares (:class:`EqualAsWritten`): the JSON form, NaN as ``None``."""
        data = self.to_dict()
        return hash((data["mean"], data["std"], *data["ci"], data["n"]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": _json_float(self.mean),
            "std": _json_float(self.std),
            "ci": [_json_float(x) for x in self.ci],
            "n": self.n,
        }


@dataclass(frozen=True)
class Failure:
    """A segmenter that failed on one document; the other documents are unaffected.

    Attributes
    ----------
    segmenter : str
        The segmenter's label.
    document : str
        The document's id.
    error : str
        What went wrong, without where (``str(failure)``, :meth:`message`, says both).
    restart : int or None
        The restart of permutation ``stream`` that failed first; ``None`` with no stream for the
        initial segmentation, ``None`` with a stream when a batched call failed and no single
        restart did.
    seed : int or None
        The run's seed: with ``restart`` and ``stream``, what reproduces the failing call alone.
    kind : str
        ``"exception"`` (the segmenter raised), ``"output"`` (it returned invalid boundaries),
        ``"timeout"`` (a call exceeded the ``timeout`` setting) or ``"crash"`` (it killed its
        worker process).
    traceback : str
        The segmenter's own traceback when it raised (``""`` otherwise); kept out of the repr.
    stream : str or None
        The permutation stream of ``restart``: ``"within"``, ``"shuffle"`` or ``"layout"``.

    Examples
    --------
    >>> from stability import evaluate
    >>> from stability.demo import demo_corpus
    >>> def sizes(units):  # segment sizes, not boundaries: refused on each document, not raised
    ...     return [len(units)]
    >>> run = evaluate({"sizes": sizes, "c99": "c99"}, demo_corpus(n_documents=2), n_restarts=2, progress=False)
    >>> [(f.segmenter, f.document, f.kind) for f in run.failures]
    [('sizes', 'demo-00', 'output'), ('sizes', 'demo-01', 'output')]
    >>> print(run.failures[0])  # doctest: +ELLIPSIS
    segmenter 'sizes', document 'demo-00', initial segmentation, seed 0: returned invalid boundaries: ... segment sizes? ...
    >>> len(run.documents["c99"])  # the other segmenter's results are kept
    2
    """

    segmenter: str
    document: str
    error: str
    restart: int | None = None
    seed: int | None = None
    kind: str = "exception"
    #: The segmenter's traceback, left out of the repr: a notebook showing ``result.failures``
    #: showed each failure as a screenful of escaped lines; ``print(failure.traceback)`` reads it.
    traceback: str = field(default="", repr=False)
    stream: str | None = None

    def message(self) -> str:
        """One line naming the segmenter, document, stream, restart and seed, then the error: the
        :class:`~stability.exceptions.SegmenterError` raised for this failure says the same
        (:func:`~stability.exceptions.failure_place`), with the segmenter's traceback after it.

        >>> failure = Failure("mine", "d1", "ValueError: model not loaded", seed=0, traceback="Traceback ...")
        >>> print(failure)  # str(): the message
        segmenter 'mine', document 'd1', initial segmentation, seed 0: ValueError: model not loaded
        >>> failure  # the repr, without the traceback
        Failure(segmenter='mine', document='d1', error='ValueError: model not loaded', restart=None, seed=0,
                kind='exception', stream=None)
        """
        return f"{failure_place(self.segmenter, self.document, self.restart, self.stream, self.seed)}: {self.error}"

    def __str__(self) -> str:
        return self.message()

    def to_dict(self) -> dict[str, Any]:
        return {
            "segmenter": self.segmenter,
            "document": self.document,
            "error": self.error,
            "restart": self.restart,
            "seed": self.seed,
            "kind": self.kind,
            "traceback": self.traceback,
            "stream": self.stream,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Failure":
        fields: dict[str, Any] = {k: data.get(k) for k in ("segmenter", "document", "error", "restart", "seed")}
        return cls(**fields, kind=data.get("kind", "exception"), traceback=data.get("traceback", ""),
                   stream=data.get("stream"))


#: The most lines :func:`failure_lines` gives a segmenter's failures (its distinct errors); the
#: rest are counted on one more line.
FAILURE_LINES = 3


def error_line(error: str) -> str:
    """What a one-line warning quotes of a failure's ``error``: its first line with text, without
    blanks at either end. An exception raised without a message is said ``ValueError: `` (its
    name, a colon and a blank): its name alone; one whose message starts on a new line
    (``ValueError: \\n  the reason``) has the line after the name joined to it.

    >>> error_line("ValueError: too long\\nTraceback (most recent call last):"), error_line("ValueError: ")
    ('ValueError: too long', 'ValueError')
    >>> error_line("ValueError: \\n  the reason\\n  and more"), error_line("")
    ('ValueError: the reason', '')
    """
    lines = [line.strip() for line in error.splitlines() if line.strip()]
    if not lines:
        return ""
    if lines[0].endswith(":"):
        return f"{lines[0]} {lines[1]}" if len(lines) > 1 else lines[0][:-1]
    return lines[0]


def failure_lines(failures: Sequence[Failure], limit: int = FAILURE_LINES) -> list[str]:
    """The failures of a run said in a few lines, for the warnings after its report: one line per
    segmenter and error, naming the documents that failed with it (the first few of them), where
    the first one failed and the error's first line (:func:`error_line`); at most ``limit`` such
    lines per segmenter, then one counting its other errors and the documents that failed with
    them. A segmenter that fails on every document of a large corpus printed a line per document,
    the same error on each. A failure alone is said as :meth:`Failure.message` says it, with its
    error's first line. Every failure stays in the Failures table of a Markdown or HTML report (a
    terminal's lists the first few), in a JSON report and in the results file.

    Examples
    --------
    >>> same = [Failure("bad", f"d{i}", "ValueError: too long", seed=0) for i in range(6)]
    >>> for line in failure_lines(same + [Failure("bad", "d9", "KeyError: 'x'", restart=2, seed=0, stream="within")]):
    ...     print(line)
    segmenter 'bad' failed on 6 documents with the same error ('d0', 'd1', 'd2' and 3 more; the first: initial segmentation, seed 0): ValueError: too long
    segmenter 'bad', document 'd9', restart 2 of the within stream, seed 0: KeyError: 'x'
    """
    limit = check_int(limit, "limit", low=1)
    groups: dict[tuple[str, str], list[Failure]] = {}
    for failure in failures:  # an error naming its document ('d7' has no reference) is one error on every document
        said_as = error_line(failure.error).replace(repr(failure.document), "\0")
        groups.setdefault((failure.segmenter, said_as), []).append(failure)
    lines, said = [], dict.fromkeys([key[0] for key in groups], 0)
    untold: dict[str, list[int]] = {}  # segmenter -> [documents, errors] not said
    for (segmenter, error), group in groups.items():
        if said[segmenter] == limit:
            counts = untold.setdefault(segmenter, [0, 0])
            counts[0] += len(group)
            counts[1] += 1
            continue
        said[segmenter] += 1
        first = group[0]
        error = error_line(first.error)
        if len(group) == 1:
            line = replace(first, error=error).message()
        else:
            names = ", ".join(repr(f.document) for f in group[:3]) + (f" and {len(group) - 3} more" if len(group) > 3 else "")
            line = (f"segmenter {segmenter!r} failed on {counted(len(group), 'document')} with the same error ({names}; "
                    f"the first: {call_and_seed(first.restart, first.stream, first.seed)}): {error}")
        lines.append(line if error else line.removesuffix(": "))  # no error to say: no colon and blank before it
    lines += [f"segmenter {segmenter!r} failed on {counted(n, 'more document')} with "
              f"{'another error' if errors == 1 else f'{errors} other errors'} (the Failures table of a "
              "Markdown or HTML report and the results file list every failure)"
              for segmenter, (n, errors) in untold.items()]
    return lines


@dataclass(frozen=True, eq=False)
class SegmenterSummary(EqualAsWritten):
    """Corpus-level scores of one segmenter (the paper's Table 3 layout: mean and std).

    Attributes
    ----------
    segmenter : str
        The segmenter's label.
    params : dict
        The segmenter's parameters as given.
    n_documents, n_failed : int
        Documents scored, and documents it failed on (:attr:`CorpusResult.failures`).
    macro : dict of str to Stat
        Each stability score of the catalogue (:data:`stability.catalogue.STABILITY`: the headline
        ``count_corrected``, ``precision`` (STP), ``recall`` (STR), ``f1``, ``shuffle_f1``,
        ``chance_f1``, ``n_boundaries``...; ``layout_f1`` when the layout control ran) -> its
        :class:`Stat` over documents.
    micro : dict of str to float
        ``precision``, ``recall`` and ``f1`` of the matched, found and initial boundaries pooled
        over every restart of every document.
    content_blind_share, nondeterministic_share, layout_only_share, term_blind_share : float
        The share of its documents flagged content-blind, non-deterministic, layout-only
        (NaN when the layout control was not run) and term-blind.
    content_blind, deterministic, layout_only : bool or None
        The corpus-level flags (``None`` when that control or check was not run).
    term_blind : bool
        Flagged when more than :data:`TERM_BLIND_SHARE` of the documents are
        (:attr:`StabilityResult.term_blind`).
    reference : dict of str to Stat
        Each reference metric (when documents have references) -> its :class:`Stat`.
    resolved_params : dict
        The values a parameter resolved per document took (:func:`resolved_values`: a chunker's
        ``unit_separator`` left to the readers, ``{"unit_separator": ["\\n\\n", " "]}``), empty
        where it ran as given everywhere.

    Examples
    --------
    >>> from stability import evaluate
    >>> from stability.demo import demo_corpus
    >>> run = evaluate({"c99": "c99", "even": "even"}, demo_corpus(n_documents=2), n_restarts=10, progress=False)
    >>> run.summary["c99"]
    SegmenterSummary(segmenter='c99', n_documents=2, n_failed=0, count_corrected=0.883 [0.766, 1.000], f1=0.896)
    >>> run.summary["even"].content_blind  # even spacing is stable whatever the content
    True
    >>> stat = run.summary["c99"].reference["pk"]  # a reference metric, the demo having references
    >>> round(stat.mean, 3), stat.n
    (0.136, 2)
    """

    segmenter: str
    params: dict[str, Any]
    n_documents: int
    n_failed: int
    macro: dict[str, Stat]
    micro: dict[str, float]
    content_blind_share: float
    nondeterministic_share: float
    content_blind: bool | None
    deterministic: bool | None
    reference: dict[str, Stat] = field(default_factory=dict)
    layout_only_share: float = float("nan")
    layout_only: bool | None = None
    term_blind_share: float = 0.0
    term_blind: bool = False
    resolved_params: dict[str, list[Any]] = field(default_factory=dict)

    def __repr__(self) -> str:
        """One line: the segmenter, its documents and failures, the headline
        (:data:`stability.catalogue.HEADLINE`) with its interval, the F1, and the flags the reports
        set beside them; not every :class:`Stat` of ``macro``, ``micro`` and ``reference``, which
        filled a notebook's screen for one segmenter (they are attributes, and in :meth:`to_dict`)."""
        from .catalogue import HEADLINE

        nan = Stat(float("nan"), float("nan"), (float("nan"), float("nan")), 0)  # no document scored
        head, f1 = self.macro.get(HEADLINE.name, nan), self.macro.get("f1", nan)
        said = self._flags()
        return (f"SegmenterSummary(segmenter={self.segmenter!r}, n_documents={self.n_documents}, "
                f"n_failed={self.n_failed}, {HEADLINE.name}={head.mean:.3f} [{head.ci[0]:.3f}, {head.ci[1]:.3f}], "
                f"f1={f1.mean:.3f}{f', flags={said!r}' if said else ''})")

    def _flags(self) -> str:
        """The flags the reprs (its own and :class:`CorpusResult`'s) set beside its headline, said
        as the reports say them (:func:`stability.reporting.corpus.flags`; its failures aside)."""
        from .reporting.corpus import flags

        return flags(self.content_blind, self.deterministic, layout_only=self.layout_only, term_blind=self.term_blind)

    def __getattr__(self, name: str) -> Any:
        """Only for a name no attribute has: say where a score the repr shows is (``summary.f1`` is
        ``summary.macro["f1"]``, ``summary.ref_pk`` ``summary.reference["pk"]``)."""
        fields = self.__dict__  # read directly: unpickling asks for names before the fields exist
        place = ""
        if name.startswith("ref_") and name[4:] in fields.get("reference", {}):
            place = f"summary.reference[{name[4:]!r}] (a Stat: mean, std, ci, n)"
        elif name in fields.get("macro", {}):
            place = f"summary.macro[{name!r}] (a Stat: mean, std, ci, n)"
        elif name in fields.get("reference", {}):
            place = f"summary.reference[{name!r}] (a Stat: mean, std, ci, n)"
        elif name in fields.get("micro", {}):
            place = f"summary.micro[{name!r}]"
        elif name == "flags":
            place = "the flags are attributes: content_blind, deterministic, layout_only, term_blind"
        said = f"{type(self).__name__!r} object has no attribute {name!r}"
        raise AttributeError(f"{said}; {place}" if place else said, name=name, obj=self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reference": {k: v.to_dict() for k, v in self.reference.items()},
            "segmenter": self.segmenter,
            "params": _jsonable(self.params),
            "n_documents": self.n_documents,
            "n_failed": self.n_failed,
            "macro": {k: v.to_dict() for k, v in self.macro.items()},
            "micro": {k: _json_float(v) for k, v in self.micro.items()},
            "content_blind_share": _json_float(self.content_blind_share),
            "nondeterministic_share": _json_float(self.nondeterministic_share),
            "content_blind": self.content_blind,
            "deterministic": self.deterministic,
            **({} if self.layout_only is None else {"layout_only_share": _json_float(self.layout_only_share),
                                                    "layout_only": self.layout_only}),
            # absent where the segmenter saw every document's terms, as in files written before it existed
            **({} if not self.term_blind_share else {"term_blind_share": _json_float(self.term_blind_share),
                                                     "term_blind": self.term_blind}),
            # absent where it ran as given on every document, as in files written before it existed
            **({"resolved_params": self.resolved_params} if self.resolved_params else {}),
        }


#: The settings a :class:`CorpusResult` holds that say how its run was executed rather than what it
#: computed (results are bit-identical for any of their values): a results file does not keep them,
#: so a run read back has none, and ``==`` leaves them out.
EXECUTION_SETTINGS = ("n_jobs", "backend")


@dataclass(frozen=True, eq=False)
class CorpusResult:
    """Results of :func:`stability.evaluate`.

    Attributes
    ----------
    documents : dict
        Segmenter label -> list of :class:`StabilityResult`, in corpus order.
    summary : dict
        Segmenter label -> :class:`SegmenterSummary`.
    failures : list of Failure
        Segmenter/document pairs that raised or returned invalid boundaries.
    settings : dict
        The run's settings (seed, restarts, tolerance...).

    Examples
    --------
    >>> from stability import evaluate
    >>> from stability.demo import demo_corpus
    >>> run = evaluate({"c99": "c99", "tt": "texttiling"}, demo_corpus(n_documents=2), n_restarts=10,
    ...                progress=False)
    >>> run  # a notebook shows the compact report instead (_repr_html_)
    CorpusResult(2 segmenters x 2 documents, 0 failures; count_corrected: c99 0.883, tt 0.096)
    >>> run.documents["c99"][0].boundary_confidence
    {11: 0.6, 19: 1.0, 28: 0.8, 36: 0.8, 46: 0.7, 49: 1.0}
    >>> rows = run.to_rows()  # a dict per (segmenter, document), as pandas.DataFrame(rows) reads it
    >>> [(row["segmenter"], row["document"], row["n_units"]) for row in rows]
    [('c99', 'demo-00', 56), ('c99', 'demo-01', 25), ('tt', 'demo-00', 56), ('tt', 'demo-01', 25)]
    >>> [row["segmenter"] for row in run.to_rows("segmenters")]  # a row per segmenter
    ['c99', 'tt']
    >>> CorpusResult.from_dict(run.to_dict()) == run  # the data JSON holds, read back
    True
    """

    documents: dict[str, list[StabilityResult]]
    summary: dict[str, SegmenterSummary]
    failures: list[Failure]
    settings: dict[str, Any]

    def __eq__(self, other: object) -> bool:
        """The same results, failures and settings, how the run was executed
        (:data:`EXECUTION_SETTINGS`: ``n_jobs``, ``backend``) aside: the run :func:`stability.evaluate`
        returns equals the one :func:`stability.load_results` reads back from its results file,
        which does not keep them."""
        if not isinstance(other, CorpusResult):
            return NotImplemented

        def what(settings: Mapping[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in settings.items() if k not in EXECUTION_SETTINGS}

        return ((self.documents, self.summary, self.failures, what(self.settings))
                == (other.documents, other.summary, other.failures, what(other.settings)))

    def correlations(self) -> dict[str, Any]:
        """:func:`stability.summary.correlations` of the documents, computed once per result and
        kept: every report format of a run reads the same table."""
        cached = self.__dict__.get("_correlations")
        if cached is None:
            from .summary import correlations

            cached = correlations(self.documents)
            object.__setattr__(self, "_correlations", cached)
        return cached

    def comparison(self) -> dict[str, float | None]:
        """:data:`stability.comparison.STABILITY_X_AGREEMENT` of every segmenter, computed once per
        result and kept: ``None`` for a segmenter with fewer than
        :data:`~stability.comparison.MIN_OTHER_VOTERS` (two) other voters of positive headline
        (other segmenters not told the reference count, whose headline over the corpus is above
        0), whatever the number of segmenters in the run."""
        cached = self.__dict__.get("_comparison")
        if cached is None:
            from .comparison import STABILITY_X_AGREEMENT

            cached = STABILITY_X_AGREEMENT.value(self.documents)
            object.__setattr__(self, "_comparison", cached)
        return cached

    def __repr__(self) -> str:
        """Counts and the headline per segmenter (never the per-document arrays), each with the
        flags that say its headline cannot be read as one (``content-blind``, ``layout-only``,
        ``term-blind``, ``non-deterministic``), as the reports set them beside it: a chunker's 0.50
        printed beside C99's 0.75 without its ``layout-only`` read as a score; and, as the reports'
        result line says it, a segmenter run on fewer documents than the run holds (a run stopped
        before it finished: :func:`stability.reporting.corpus.unfinished`)."""
        from .catalogue import HEADLINE
        from .reporting.corpus import unfinished

        short = unfinished(self)

        def head(label: str, s: SegmenterSummary) -> str:
            if not s.n_documents and s.n_failed:
                return f"{label} failed on every document"  # no score to show, as the reports say it
            n, total = short.get(label, (0, 0))
            run_on = f"run on {n} of {counted(total, 'document')}" if label in short else ""
            if label in short and not n:
                return f"{label} {run_on}"  # not reached yet: no score to show
            said = ", ".join(part for part in (s._flags(), run_on) if part)
            return f"{label} {s.macro[HEADLINE.name].mean:.3f}" + (f" ({said})" if said else "")

        n_docs = max((len(d) for d in self.documents.values()), default=0)
        heads = ", ".join(head(label, s) for label, s in self.summary.items())
        return (f"CorpusResult({counted(len(self.documents), 'segmenter')} x {counted(n_docs, 'document')}, "
                f"{counted(len(self.failures), 'failure')}; {HEADLINE.name}: {heads})")

    def _repr_html_(self) -> str:
        """The compact report, as a notebook shows it (:func:`stability.reporting.notebook_html`)."""
        from .reporting import notebook_html

        return notebook_html(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CorpusResult":
        """The result :meth:`to_dict` (or a JSON report, ``report.json``) holds, its summaries
        recomputed from the per-document results with the run's settings, as
        :func:`stability.load_results` reads a run back from a file.

        Examples
        --------
        >>> from stability import evaluate
        >>> run = evaluate({"even": "even"}, [["a"] * 12], n_restarts=3, progress=False)
        >>> CorpusResult.from_dict(run.to_dict()).to_dict() == run.to_dict()
        True
        """
        from .store import corpus_result_from_data

        return corpus_result_from_data(data)

    def to_rows(self, level: str = "documents") -> list[dict[str, Any]]:
        """The result as a table of plain values, one dict a row (like a data frame's records).

        ``level="documents"``: one row per (segmenter, document) with every stability score of the
        catalogue (with ``<score>_ci_low`` and ``<score>_ci_high``, its interval over the document's
        restarts, where it has one), every reference metric computed, ``boundary_confidence``
        (initial boundary -> share of restarts that found it again) and, for a transcript,
        ``boundary_times`` (seconds), the columns of the
        per-document CSV (``documents.csv``) with Python values; ``level="segmenters"``: one row per
        segmenter, the table ``report.csv`` holds (``f1_mean``, ``f1_std``, ``f1_ci_low``,
        ``f1_ci_high`` for each score reported, ``micro_f1``, ``ref_pk_mean``...; ``None`` where not
        computed, ``params`` a dict, and ``param_<name>`` for each parameter the configurations
        vary, such as a grid's). Every measure is under its column in the CSV reports
        (:meth:`~stability.catalogue.Measure.column`): reference metrics prefixed ``ref_`` (``ref_f1``
        beside the stability ``f1``).
        """
        from .catalogue import STABILITY, reference_measure
        from .checks import check_choice

        check_choice(level, "level", ("documents", "segmenters"))
        if level == "segmenters":
            from .reporting.corpus import summary_table

            header, rows = summary_table(self)
            return [dict(zip(header, row)) for row in rows]
        def scores(r: StabilityResult) -> dict[str, Any]:
            row: dict[str, Any] = {}
            for m in STABILITY.values():
                row[m.column()] = m.value(r)
                if m.interval:
                    row[m.column("ci_low")], row[m.column("ci_high")] = getattr(r, m.interval)
            return row

        # a transcript's boundaries have times: a column of them in every row, None where a document has none
        timed = any(r.boundary_times is not None for docs in self.documents.values() for r in docs)
        return [{"segmenter": label, "document": r.document, "n_units": r.segmentation.n_units,
                 "content_blind": r.content_blind, "layout_only": r.layout_only, "term_blind": r.term_blind,
                 **scores(r), **{reference_measure(k).column(): v for k, v in r.reference_metrics.items()},
                 "boundary_confidence": dict(r.boundary_confidence),
                 **({"boundary_times": None if r.boundary_times is None else list(r.boundary_times)} if timed else {})}
                for label, docs in self.documents.items() for r in docs]

    def to_frame(self, level: str = "documents") -> Any:
        """:meth:`to_rows` as a pandas DataFrame (needs pandas, an optional dependency)."""
        try:
            import pandas
        except ImportError:
            raise MissingDependencyError("to_frame needs pandas (pip install pandas); to_rows() gives the "
                                         "same table as a list of dicts") from None
        return pandas.DataFrame.from_records(self.to_rows(level))

    def to_dict(self) -> dict[str, Any]:
        """The result as plain data (JSON-ready): settings, summaries, per-document results (with
        their restarts) and failures; :meth:`from_dict` reads it back."""
        return {
            "settings": _jsonable(self.settings),
            "summary": {k: v.to_dict() for k, v in self.summary.items()},
            "documents": {k: [r.to_dict() for r in v] for k, v in self.documents.items()},
            "failures": [f.to_dict() for f in self.failures],
        }
