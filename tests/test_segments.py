"""Per-segment analysis (issue 14 item 6): stability and reference coverage by segment length."""

from __future__ import annotations

import math

import pytest

from stability import Document, evaluate
from stability.segments import length_classes, segment_analysis


def test_length_classes_by_hand():
    # masses 2, 10, 12, 30: mean 13.5; 2 < 6.75 is short, 30 > 20.25 is long
    assert length_classes([2, 10, 12, 30]) == ["short", "medium", "medium", "long"]
    assert length_classes([5, 5]) == ["medium", "medium"]


def test_found_and_stability_by_hand():
    # 20 units; reference segments 0-9, 10-11, 12-19 (masses 10, 2, 8: mean 6.67, so the 2-unit
    # segment starting at 10 is short and the one starting at 12 is medium). A segmenter placing
    # [10] finds the short segment's start exactly and misses 12 by 2 units (> the tolerance of 1).
    units = [f"u{i}" for i in range(20)]
    doc = Document("d", tuple(units), references=((10, 12),))
    result = evaluate({"fixed": lambda u: [10]}, [doc], n_restarts=4, shuffle_control=False)
    groups = segment_analysis(result)["fixed"]
    assert groups["short"].reference_segments == 1 and groups["short"].found == 1.0  # start 10 found
    assert groups["medium"].reference_segments == 1 and groups["medium"].found == 0.0  # start 12 missed
    assert groups["long"].reference_segments == 0 and math.isnan(groups["long"].found)
    # B0 = [10]: two segments of 10 units, both medium; the boundary 10 comes back every time
    assert groups["medium"].segments == 1 and groups["medium"].stability == 1.0
    # with a tolerance of 2 the start at 12 counts as found
    assert segment_analysis(result, tolerance=2)["fixed"]["medium"].found == 1.0


def test_the_report_has_the_section_only_with_references():
    from stability.reporting import render

    units = tuple(f"u{i}" for i in range(12))
    with_refs = evaluate({"none": "none"}, [Document("d", units, references=((4, 8),))], n_restarts=2)
    without = evaluate({"none": "none"}, [Document("d", units)], n_restarts=2)
    assert "By segment length" in render(with_refs, "md")
    assert "By segment length" not in render(without, "md")
    with pytest.raises(Exception, match="tolerance"):
        segment_analysis(with_refs, tolerance=-1)
