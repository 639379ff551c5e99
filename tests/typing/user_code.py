"""A user's typed script over the public API, as the README uses it; checked, never run.

``tests/test_typing.py`` runs ``mypy --strict`` on this file with the package found as an
installed one (PEP 561: its ``py.typed`` marker makes mypy read the annotations) and expects
no error. Each ``assert_type`` states a type the docs promise; a wrong or missing annotation in
the package makes it an error.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

from segmenters.chunkers import ChunkerSegmenter
from stability import (
    CorpusResult,
    Document,
    Segmentation,
    Segmenter,
    SegmenterFunction,
    SegmenterOutput,
    StabilityResult,
    StabilityWarning,
    Stat,
    check_segmenter,
    evaluate,
    get_segmenter,
    grid,
    load_results,
    read_corpus,
    stability_test,
)
from stability.contract import ContractReport
from stability.demo import demo_corpus
from stability.metrics import WindowResult, boundary_prf, pk, windowdiff
from stability.reporting import render
from stability.scoring import ScoreResult, score_segmentations


class EveryK(Segmenter):
    """A segmenter of the user's, with a parameter, returning an integer array."""

    def __init__(self, k: int = 4) -> None:
        self.k = k

    def segment(self, units: Sequence[str]) -> npt.NDArray[np.int_]:
        return np.arange(self.k, len(units), self.k)


def every_third(units: list[str]) -> list[int]:
    """A plain function segmenter, typed as the harness calls it (a list of units)."""
    return list(range(3, len(units), 3))


def whole(units: Sequence[str]) -> Segmentation:
    """A segmenter returning a Segmentation of the document's units."""
    return Segmentation([], len(units))


def split(text: str) -> list[str]:
    """A text chunker (text -> chunks), wrapped as a segmenter below."""
    return [text[i:i + 200] for i in range(0, len(text), 200)]


def main() -> None:
    warnings.filterwarnings("ignore", category=StabilityWarning)
    mine: list[SegmenterFunction] = [every_third, whole, EveryK(k=5), ChunkerSegmenter(split)]
    output: SegmenterOutput = every_third(["a", "b", "c", "d"])

    documents = demo_corpus(n_documents=4)
    assert_type(documents, list[Document])
    own = Document("d1", ["One.", "Two.", "Three."], references=([2],), times=[(0, 1), (1, 2.5), (2.5, 3)])
    assert_type(own.units, tuple[str, ...])
    assert_type(own.references, tuple[Segmentation, ...])

    result = stability_test(get_segmenter("c99"), documents[0].units, n_restarts=20, seed=0)
    assert_type(result, StabilityResult)
    assert_type(result.count_corrected, float)
    assert_type(result.headline_ci, tuple[float, float])
    if result.shuffle is not None:
        assert_type(result.shuffle.f1, float)

    corpus = evaluate({"c99": "c99", "tt": get_segmenter("texttiling", w=10)}, documents, n_restarts=20)
    assert_type(corpus, CorpusResult)
    assert_type(corpus.summary["c99"].macro["f1"], Stat)
    assert_type(corpus.to_rows(), list[dict[str, Any]])
    configurations = grid("fixed_chars", {"chunk_size": [300, 600]})
    assert_type(configurations, dict[str, Callable[..., Any]])
    sizes = evaluate({**configurations, "c99": "c99"}, documents, n_restarts=20, layout_control=True)
    theirs = evaluate({f"mine{i}": segmenter for i, segmenter in enumerate(mine)}, documents, n_restarts=5)
    assert_type(render(corpus, "md", metrics=["pk", "wd", "b"]), str)

    hypotheses = {r.document or "": r.segmentation for r in corpus.documents["c99"]}
    assert_type(score_segmentations(documents, hypotheses), ScoreResult)

    ref, hyp = Segmentation.from_gaps("000001001000"), Segmentation.from_gaps("000100010000")
    assert_type(pk(ref, hyp), float)
    assert_type(pk(ref, hyp, k="nltk") - windowdiff(ref, hyp), float)
    assert_type(windowdiff(ref, hyp, k=2, return_parts=True), WindowResult)
    precision, recall, f1 = boundary_prf(ref, hyp, tolerance=1)
    assert_type(f1, float)

    assert_type(check_segmenter(EveryK(k=4)), ContractReport)
    assert_type(read_corpus("my_texts/"), Iterator[Document])
    assert_type(load_results("results/demo"), CorpusResult)
    print(output, sizes, theirs, precision, recall)


if __name__ == "__main__":
    main()
