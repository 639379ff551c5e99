"""benchmarks/validity/dual_control.py (Amendment 2 of docs/validation-protocol.md): the dual
segmentation and the re-segmentation path, which must reproduce the engine's within stream."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from stability.permutations import Stream, doc_key
from stability.registry import get_segmenter
from stability.runner import stability_test
from stability.segmentation import Segmentation

from conftest import topical_document

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validity"))
from dual_control import dual_boundaries, resegment  # noqa: E402


def test_dual_boundaries_by_hand():
    # segments [0,4) [4,6) [6,7) [7,10): midpoints 0+2, 4+1, none (one unit), 7+1
    assert dual_boundaries((4, 6, 7), 10) == (2, 5, 8)
    # segments [0,3) [3,5): 0 + 1, 3 + 1
    assert dual_boundaries((3,), 5) == (1, 4)
    assert dual_boundaries((1, 2), 3) == ()  # three one-unit segments


@given(st.integers(2, 60).flatmap(lambda n: st.tuples(st.just(n), st.sets(st.integers(1, n - 1)))))
def test_dual_boundaries_straddle_the_initial_ones(case):
    n, chosen = case
    initial = tuple(sorted(chosen))
    dual = dual_boundaries(initial, n)
    edges = [0, *initial, n]
    lengths = [b - a for a, b in zip(edges, edges[1:])]
    assert len(dual) == sum(length >= 2 for length in lengths)  # one per segment of 2+ units
    assert not set(dual) & set(initial)  # strictly inside B0's segments
    Segmentation(dual, n)  # a valid segmentation (sorted, inside 1..n-1)
    # each D0 boundary lies in the first half of its B0 segment, rounded up
    for a, b in zip(edges, edges[1:]):
        inside = [x for x in dual if a < x < b]
        assert inside == ([a + (b - a) // 2] if b - a >= 2 else [])


def test_resegment_reproduces_the_engine_within_stream():
    units, _ = topical_document(3)
    for name in ("c99", "texttiling"):
        segmenter = get_segmenter(name)
        result = stability_test(segmenter, units, n_restarts=6, seed=4, doc_id="doc-a", shuffle_control=False)
        labels = Segmentation(result.segmentation.boundaries, len(units)).label_array()
        again = resegment(segmenter, tuple(units), labels, 4, doc_key("doc-a"), int(Stream.WITHIN), range(6))
        assert again == [tuple(b) for b in result.restart_boundaries]
