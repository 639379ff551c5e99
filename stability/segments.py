"""Per-segment analysis: stability and reference coverage by segment length.

A segmenter can look good on average while missing every short segment. For each segmenter this
module groups segments by their length relative to the mean segment length of their own
segmentation (``short``: under half the mean; ``long``: over one and a half times the mean;
``medium`` otherwise) and reports, per group:

* **found**: the share of the *reference* segments whose starting boundary is in the initial
  segmentation ``B0``, within ``tolerance`` units (one-to-one matching is not needed here: each
  reference boundary asks "is there a hypothesis boundary this close?");
* **stability**: the mean confidence (share of restarts finding it again) of the boundaries that
  start the segments of ``B0`` in the group.

The first segment of a segmentation has no starting boundary and is left out of both.

Examples
--------
>>> length_classes([2, 10, 12, 30])  # mean 13.5: 2 < 6.75 short, 30 > 20.25 long
['short', 'medium', 'medium', 'long']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .checks import check_int
from .results import CorpusResult, StabilityResult
from .segmentation import Segmentation

__all__ = ["LENGTH_CLASSES", "length_classes", "SegmentGroup", "segment_analysis"]

#: The length groups, in report order.
LENGTH_CLASSES = ("short", "medium", "long")


def length_classes(masses: Sequence[int]) -> list[str]:
    """The group of each segment: its length against the mean length of its segmentation."""
    sizes = np.asarray(masses, dtype=float)
    mean = float(sizes.mean()) if sizes.size else 0.0
    return ["short" if m < 0.5 * mean else "long" if m > 1.5 * mean else "medium" for m in sizes]


@dataclass(frozen=True)
class SegmentGroup:
    """One segmenter's numbers for one length group, pooled over documents."""

    reference_segments: int  #: reference segments of the group (after the first of each document)
    found: float  #: share of them whose start is found in ``B0`` (NaN when there is none)
    segments: int  #: segments of ``B0`` in the group (after the first)
    stability: float  #: mean confidence of the boundaries starting them (NaN when there is none)


def _starts(segmentation: Segmentation) -> list[tuple[int, str]]:
    """(starting boundary, length group) of every segment but the first."""
    groups = length_classes(segmentation.masses)
    return list(zip(segmentation.boundaries, groups[1:]))


def _document(r: StabilityResult, tolerance: int, found: dict, stable: dict) -> None:
    hypothesis = np.asarray(r.segmentation.boundaries, dtype=np.int64)
    if r.references:
        reference = Segmentation(r.references[0], r.segmentation.n_units)
        for b, group in _starts(reference):
            hit = bool(hypothesis.size) and int(np.min(np.abs(hypothesis - b))) <= tolerance
            found[group].append(hit)
    for b, group in _starts(r.segmentation):
        confidence = r.boundary_confidence.get(b, float("nan"))
        if not np.isnan(confidence):
            stable[group].append(confidence)


def segment_analysis(result: CorpusResult, tolerance: int = 1) -> dict[str, dict[str, SegmentGroup]]:
    """``{segmenter: {group: SegmentGroup}}`` over every document of a run (see the module).

    ``tolerance`` (units) says how far a boundary of ``B0`` may be from a reference segment's
    start for the segment to count as found.
    """
    tolerance = check_int(tolerance, "tolerance", low=0)
    out: dict[str, dict[str, SegmentGroup]] = {}
    for label, docs in result.documents.items():
        found: dict[str, list[bool]] = {g: [] for g in LENGTH_CLASSES}
        stable: dict[str, list[float]] = {g: [] for g in LENGTH_CLASSES}
        for r in docs:
            _document(r, tolerance, found, stable)
        out[label] = {
            g: SegmentGroup(len(found[g]), float(np.mean(found[g])) if found[g] else float("nan"),
                            len(stable[g]), float(np.mean(stable[g])) if stable[g] else float("nan"))
            for g in LENGTH_CLASSES
        }
    return out
