"""The validation study: do the stability scores rank segmenters the way references do, on one
corpus or several?

Lamprier et al. (2007) support their stability test with hypothesis 3 (section 6.2.3, Table 3):
the less accurate a segmenter, the less stable its boundaries under permutations of the units
within its own segments. This package runs that check on corpora with references, for a family of
segmenter configurations spanning good to poor, and measures the agreement:

* :mod:`~stability.study.correlations` -- rank agreement across configurations and across
  documents, with cluster-bootstrap intervals over documents;
* :mod:`~stability.study.analysis` -- one corpus: the paper's tables, the correlations of every
  candidate score (the catalogue's ``correlate`` scores) with every reference metric, running
  means, the agreement among the reference metrics and the ceiling of a reference-free score;
* :mod:`~stability.study.decision` -- the headline across corpora, by a rule stated in the report,
  and its agreement with the references of the protocol's objective (B and F1 within one unit);
* :mod:`~stability.study.sensitivity` -- the headline from half of the restarts against all of them;
* :mod:`~stability.study.halves` -- the headline on half of the documents against the references on
  the other half, beside what the references of the first half achieve;
* :mod:`~stability.study.run` -- the experiment files (one ``[corpus]`` or several
  ``[corpus.NAME]`` tables, or several files), the cached, resumable runs;
* :mod:`~stability.study.render` and :mod:`~stability.study.figures` -- ``validation.md`` and its
  SVG plots.
"""

from __future__ import annotations

from .analysis import (
    ANALYSIS_PHASES,
    PAPER_TABLES,
    Study,
    analyze,
    candidate_scores,
    ceiling,
    family,
    paper_tables,
    reference_agreement,
    reference_metrics,
    running_means,
    score_matrix,
    settling,
)
from .correlations import (
    Correlation,
    configuration_correlations,
    document_correlations,
    resampled_kendall_tau,
    resampled_spearman_rho,
)
from .halves import HalfSplits, ideal_values, split_halves
from .decision import PLACEMENT, RULE, Decision, Placement, decide, placement_agreement
from .render import render_markdown, write_report
from .run import (QUICK_STRIDE, CorpusSpec, StudyOptions, StudyPlan, StudyRun, load_corpora, plan_study, quick_subset,
                  resolve_options, run_study)
from .sensitivity import Sensitivity, headline_at, restart_sensitivity

__all__ = [
    "ANALYSIS_PHASES",
    "PAPER_TABLES",
    "PLACEMENT",
    "QUICK_STRIDE",
    "RULE",
    "Correlation",
    "CorpusSpec",
    "Decision",
    "HalfSplits",
    "Placement",
    "Sensitivity",
    "Study",
    "StudyOptions",
    "StudyPlan",
    "StudyRun",
    "analyze",
    "candidate_scores",
    "ceiling",
    "configuration_correlations",
    "decide",
    "document_correlations",
    "family",
    "headline_at",
    "ideal_values",
    "load_corpora",
    "paper_tables",
    "placement_agreement",
    "plan_study",
    "quick_subset",
    "reference_agreement",
    "reference_metrics",
    "render_markdown",
    "resampled_kendall_tau",
    "resampled_spearman_rho",
    "restart_sensitivity",
    "resolve_options",
    "run_study",
    "running_means",
    "score_matrix",
    "settling",
    "split_halves",
    "write_report",
]
