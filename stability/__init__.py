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
  JSON too), CSV/TSV, captions (WebVTT, SubRip), Markdown, reStructuredText, HTML or plain
  text files
  (:data:`stability.readers.FORMAT_TABLE`).

Reference metrics live in :mod:`stability.metrics`, reports in :mod:`stability.reporting`, the
validation study in :mod:`stability.study`.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and editors see; at run time, __getattr__ imports on first use
    from .contract import SegmenterContractError, check_segmenter
    from .corpus import Document
    from .exceptions import (
        ClusterError,
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
    )
    from .readers import CorpusWarning, read_corpus
    from .registry import available_segmenters, get_segmenter, grid, register, unregister
    from .results import CorpusResult, Failure, RestartScores, SegmenterSummary, StabilityResult, Stat
    from .runner import evaluate, stability_test
    from .segmentation import Segmentation, as_segmentation
    from .segmenter import Segmenter, SegmenterFunction, SegmenterOutput, SegmenterWarning
    from .settings import Settings, SettingsWarning
    from .store import ResultsWarning, load_results

#: The module of each public name, imported when the name is first read (PEP 562): ``import
#: stability`` is then nearly free, and the ``stability`` command (:mod:`stability._entry`) sets up
#: its interrupt handling before numpy and the rest load, so that a Ctrl-C during start-up ends
#: like any other interrupt of the tool, not with a traceback.
_EXPORTS = {
    **dict.fromkeys(("SegmenterContractError", "check_segmenter"), "contract"),
    "Document": "corpus",
    **dict.fromkeys(("ClusterError", "CorpusFormatError", "InvalidParameterError", "InvalidSegmentationError",
                     "InvalidTypeError", "MissingDependencyError", "RunInterrupted", "SegmenterError",
                     "SegmenterOutputError", "StabilityError", "StabilityWarning", "UnknownSegmenterError"),
                    "exceptions"),
    **dict.fromkeys(("CorpusWarning", "read_corpus"), "readers"),
    **dict.fromkeys(("available_segmenters", "get_segmenter", "grid", "register", "unregister"), "registry"),
    **dict.fromkeys(("CorpusResult", "Failure", "RestartScores", "SegmenterSummary", "StabilityResult", "Stat"),
                    "results"),
    **dict.fromkeys(("evaluate", "stability_test"), "runner"),
    **dict.fromkeys(("Segmentation", "as_segmentation"), "segmentation"),
    **dict.fromkeys(("Segmenter", "SegmenterFunction", "SegmenterOutput", "SegmenterWarning"), "segmenter"),
    **dict.fromkeys(("Settings", "SettingsWarning"), "settings"),
    **dict.fromkeys(("ResultsWarning", "load_results"), "store"),
}


if not TYPE_CHECKING:  # a type checker reads the imports above, and reports a misspelt name
    def __getattr__(name: str) -> Any:
        """A public name (:data:`_EXPORTS`), imported from its module on first use and kept; or a
        submodule (``stability.metrics``), as after an eager import of the package."""
        module = _EXPORTS.get(name)
        if module is not None:
            value = getattr(importlib.import_module(f".{module}", __name__), name)
            globals()[name] = value  # read once: later reads do not come back here
            return value
        if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f".{name}", __name__)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


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
