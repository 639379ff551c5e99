"""stability: evaluate text segmenters without references, beside the reference metrics.

The core entry points:

* :func:`stability_test`: the stability test of Lamprier et al. (2007) on one document;
* :func:`evaluate`: several segmenters over a corpus, in parallel, with corpus summaries;
* :class:`Settings`: every setting of a run, declared and checked once (``evaluate`` and
  ``stability_test`` take one, or the keywords that build one);
* :func:`load_results`: a run read back from its results file (:mod:`stability.store`);
* :func:`get_segmenter`: resolve a segmenter from a callable, a name or ``module:attribute``;
  :func:`grid`: one per combination of parameter values to try, labelled as the command line does;
* :func:`check_segmenter`: the checks of the segmenter contract, run on your own segmenter;
  :class:`SegmenterFunction` is that contract for type checkers (the package is typed, PEP 561);
* :class:`Segmentation`: the one segmentation type, with every conversion;
* :func:`read_corpus`: documents from Choi, Wiki-727K / Wiki-50, Chen, JSON lines (Whisper's
  JSON too), CSV/TSV, captions (WebVTT, SubRip), Markdown, HTML or plain text files
  (:data:`stability.readers.FORMAT_TABLE`).

Reference metrics live in :mod:`stability.metrics`, reports in :mod:`stability.reporting`, the
validation study in :mod:`stability.study`.
"""

from .contract import SegmenterContractError, check_segmenter
from .corpus import Document
from .exceptions import (
    CorpusFormatError,
    InvalidParameterError,
    InvalidSegmentationError,
    InvalidTypeError,
    MissingDependencyError,
    RunInterrupted,
    SegmenterError,
    SegmenterOutputError,
    StabilityError,
    StabilityWarning,
    UnknownSegmenterError,
    ClusterError,
)
from .readers import CorpusWarning, read_corpus
from .registry import available_segmenters, get_segmenter, grid, register, unregister
from .results import CorpusResult, Failure, RestartScores, SegmenterSummary, StabilityResult, Stat
from .runner import evaluate, stability_test
from .segmentation import Segmentation, as_segmentation
from .segmenter import Segmenter, SegmenterFunction, SegmenterOutput, SegmenterWarning
from .settings import Settings, SettingsWarning
from .store import ResultsWarning, load_results

__version__ = "0.1.0"

__all__ = [
    "CorpusFormatError",
    "CorpusResult",
    "CorpusWarning",
    "Document",
    "Failure",
    "InvalidParameterError",
    "InvalidSegmentationError",
    "InvalidTypeError",
    "RestartScores",
    "RunInterrupted",
    "Segmentation",
    "Segmenter",
    "SegmenterContractError",
    "SegmenterError",
    "SegmenterFunction",
    "SegmenterOutput",
    "SegmenterOutputError",
    "SegmenterSummary",
    "SegmenterWarning",
    "Settings",
    "SettingsWarning",
    "ResultsWarning",
    "StabilityError",
    "StabilityWarning",
    "StabilityResult",
    "Stat",
    "UnknownSegmenterError",
    "ClusterError",
    "MissingDependencyError",
    "__version__",
    "as_segmentation",
    "available_segmenters",
    "check_segmenter",
    "evaluate",
    "get_segmenter",
    "grid",
    "load_results",
    "read_corpus",
    "register",
    "stability_test",
    "unregister",
]
