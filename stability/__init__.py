"""stability: evaluate text segmenters without references, beside the reference metrics.

The core entry points:

* :func:`stability_test`: the stability test of Lamprier et al. (2007) on one document;
* :func:`evaluate`: several segmenters over a corpus, in parallel, with corpus summaries;
* :func:`get_segmenter`: resolve a segmenter from a callable, a name or ``module:attribute``;
* :class:`Segmentation`: the one segmentation type, with every conversion.
"""

from .corpus import Document
from .exceptions import (
    CorpusFormatError,
    InvalidParameterError,
    InvalidSegmentationError,
    InvalidTypeError,
    SegmenterError,
    SegmenterOutputError,
    StabilityError,
    UnknownSegmenterError,
)
from .registry import available_segmenters, get_segmenter, register
from .segmentation import Segmentation, as_segmentation
from .segmenter import Segmenter

__version__ = "0.1.0"

__all__ = [
    "CorpusFormatError",
    "Document",
    "InvalidParameterError",
    "InvalidSegmentationError",
    "InvalidTypeError",
    "Segmentation",
    "Segmenter",
    "SegmenterError",
    "SegmenterOutputError",
    "StabilityError",
    "UnknownSegmenterError",
    "__version__",
    "as_segmentation",
    "available_segmenters",
    "get_segmenter",
    "register",
]

from .results import CorpusResult, Failure, RestartScores, SegmenterSummary, StabilityResult, Stat  # noqa: E402
from .runner import evaluate, stability_test  # noqa: E402

__all__ += [
    "CorpusResult",
    "Failure",
    "RestartScores",
    "SegmenterSummary",
    "StabilityResult",
    "Stat",
    "evaluate",
    "stability_test",
]
