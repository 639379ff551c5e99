"""Amendment 6 of docs/validation-protocol.md, reported after the decision: how much the adopted
score (``stability.comparison.STABILITY_X_AGREEMENT``) depends on the number of restarts.

Usage (from the repository root, with the project installed, after the studies' caches exist)::

    python benchmarks/validity/amendment6_restarts.py

For each cached reading, the score recomputed with every configuration's headline taken from the
first half of each document's restarts (``stability.study.sensitivity.headline_at``: exactly what a
run with that many restarts draws) against the score from all of them; the agreement itself comes
from the initial segmentations, which do not depend on the restarts. Prints the largest change of a
configuration's score per reading.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stability.comparison import stability_x_agreement
from stability.store import load_results
from stability.study.sensitivity import headline_at

ROOT = Path(__file__).resolve().parents[2]
READINGS = ("validation/choi", "validation/wiki50", "validation/elements", "validation-docs-cargo/cargo",
            "validation-docs-cargo/cargo_sections", "validation-docs-reference/reference",
            "validation-docs-reference/reference_sections", "validation-docs-books/books",
            "validation-docs-books/books_sections")


def largest_change(folder: Path) -> tuple[float, str, int]:
    """The largest change of a configuration's score between half and all of the restarts, the
    configuration, and the restarts of the half."""
    documents = load_results(folder / "results.jsonl").documents
    full = stability_x_agreement(documents)
    half = {label: float(np.mean([headline_at(r, r.n_restarts // 2) for r in docs]))
            for label, docs in documents.items()}
    halved = stability_x_agreement(documents, half)
    moves = {label: abs(full[label] - halved[label]) for label in full if full[label] is not None}
    label = max(moves, key=moves.get)
    return moves[label], label, min(r.n_restarts // 2 for docs in documents.values() for r in docs)


def main() -> None:
    print("| reading | restarts | largest change of a configuration's score |")
    print("|---|---:|---:|")
    for reading in READINGS:
        folder = ROOT / "results" / reading
        if not (folder / "results.jsonl").is_file():
            print(f"| {reading} | missing | |")
            continue
        move, label, half = largest_change(folder)
        print(f"| {reading} | {half} / {2 * half} | {move:.4f} ({label}) |")


if __name__ == "__main__":
    main()
