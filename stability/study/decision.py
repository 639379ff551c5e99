"""The cross-corpus headline decision, by a rule written down before the numbers are seen.

:data:`RULE` is printed in the report as it is applied by :func:`decide`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..exceptions import InvalidParameterError
from ..stats import percentile_interval
from .analysis import Study

__all__ = ["RULE", "Decision", "decide", "PLACEMENT", "Placement", "placement_agreement", "pooled_interval"]

#: The decision rule, as the report states it.
RULE = (
    "For each candidate stability score, take on each corpus the mean, over the reference metrics compared "
    "there, of its Kendall tau-b across all configurations; average these per-corpus means over the corpora "
    "(each corpus counts once, whatever its size). The headline is the candidate with the highest average; "
    "a tie goes to the candidate listed first in the catalogue. The worst corpus of each candidate is shown "
    "beside it, so a score that wins on average but fails on one kind of text is visible."
)


#: The references of the protocol's objective (docs/validation-protocol.md): boundary similarity B and
#: boundary F1 within one unit, which judge where the boundaries fall and how many there are, with
#: credit for near misses. The reports' claims about agreement are stated against these two.
PLACEMENT = ("boundary_similarity", "f1_1")


@dataclass(frozen=True)
class Decision:
    """The outcome of :data:`RULE`.

    Attributes
    ----------
    headline : str
        The chosen candidate score.
    per_corpus : dict
        ``{score: {corpus: mean tau-b over the reference metrics}}``.
    average : dict
        ``{score: mean over corpora}`` (NaN when undefined on every corpus).
    worst : dict
        ``{score: (corpus, value)}``: the corpus where the score agrees least with the references.
    """

    headline: str
    per_corpus: dict[str, dict[str, float]]
    average: dict[str, float]
    worst: dict[str, tuple[str, float]]


def decide(studies: Sequence[Study]) -> Decision:
    """Apply :data:`RULE` to the studies of every corpus (same candidate scores on each)."""
    if not studies:
        raise InvalidParameterError.make("studies", "at least one corpus study", list(studies))
    order = list(studies[0].scores)
    per_corpus = {s: {st.name: st.agreement("all", "kendall")[s] for st in studies} for s in order}
    average, worst = {}, {}
    for s, by_corpus in per_corpus.items():
        defined = {c: v for c, v in by_corpus.items() if not math.isnan(v)}
        average[s] = float(np.mean(list(defined.values()))) if defined else float("nan")
        worst[s] = min(defined.items(), key=lambda item: item[1]) if defined else ("", float("nan"))
    candidates = {s: v for s, v in average.items() if not math.isnan(v)}
    if not candidates:
        why = "; ".join(f"{st.name!r}: {st.why_undefined()}" for st in studies)
        raise InvalidParameterError(f"no stability score has a defined correlation with the references on any "
                                    f"corpus, so nothing can be ranked ({why})")
    headline = max(candidates, key=lambda s: (candidates[s], -order.index(s)))
    return Decision(headline, per_corpus, average, worst)


@dataclass(frozen=True)
class Placement:
    """A score's Kendall tau-b against the :data:`PLACEMENT` references on one corpus.

    Attributes
    ----------
    corpus : str
    tau : dict
        Metric -> tau-b across all configurations (only the :data:`PLACEMENT` metrics the study
        compared).
    ceiling : dict
        Metric -> the ceiling of a reference-free score (:func:`~stability.study.analysis.ceiling`).
    samples : numpy.ndarray
        Bootstrap replicates of :attr:`mean` (documents resampled, as for every interval of the
        study; empty when the study has no replicates).
    """

    corpus: str
    tau: dict[str, float]
    ceiling: dict[str, float]
    samples: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)

    @property
    def mean(self) -> float:
        """Mean of :attr:`tau` over the metrics (NaN when none was compared)."""
        return float(np.mean(list(self.tau.values()))) if self.tau else float("nan")

    @property
    def ceiling_mean(self) -> float:
        """Mean of :attr:`ceiling` over the same metrics."""
        return float(np.mean(list(self.ceiling.values()))) if self.ceiling else float("nan")


def placement_agreement(studies: Sequence[Study], score: str) -> list[Placement]:
    """``score``'s agreement with the :data:`PLACEMENT` references on each corpus, with the ceiling."""
    out = []
    for st in studies:
        metrics = [m for m in PLACEMENT if m in st.metrics]
        samples = st.agreement_samples("all", "kendall", score, metrics) if metrics else np.zeros(0)
        out.append(Placement(st.name, {m: st.across["all"][score][m]["kendall"].estimate for m in metrics},
                             {m: st.ceilings[m] for m in metrics}, samples))
    return out


def pooled_interval(rows: Sequence[Placement], confidence: float) -> tuple[float, float]:
    """Percentile interval of the mean of ``rows``' means over corpora: the corpora's documents are
    resampled independently, so replicate ``i`` of the mean is the mean of their replicates ``i``.

    Examples
    --------
    >>> rows = [Placement("a", {}, {}, np.array([0.25, 0.5])), Placement("b", {}, {}, np.array([0.75, 1.0]))]
    >>> pooled_interval(rows, 0.5)  # replicates of the mean: 0.5 and 0.75; their 25th and 75th percentiles
    (0.5625, 0.6875)
    """
    sizes = {p.samples.size for p in rows}
    if not rows or len(sizes) != 1 or 0 in sizes:
        return (float("nan"), float("nan"))
    return percentile_interval(np.mean([p.samples for p in rows], axis=0), confidence)
