"""Amendment 6 of docs/validation-protocol.md, explored after the adoption (nothing is chosen on
it): how much the adopted score depends on which segmenters vote.

Usage (from the repository root, with the project installed, after the studies' caches exist)::

    python benchmarks/validity/amendment6_pools.py

For each cached reading, every configuration is scored as ``stability.comparison`` scores it, but
with the voters restricted to a pool: all of them (the adopted score), the pool without one family
(C99, TextTiling or U00), and a small comparison of three segmenters, one of each family at its
default-like setting (``tt_w20_k10``, ``c99_m11_c1.2``, ``u00``), as a user comparing three tools
would run. A configuration with fewer than two other voters of positive headline has no value, and
is left out of the tau (as the library's ``None``). Prints the mean of Kendall tau-b against B and
boundary F1 within one unit, beside the headline's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stability.catalogue import HEADLINE
from stability.comparison import comparison_scores, document_ids, is_voter, pairwise_agreement
from stability.stats import kendall_tau
from stability.store import load_results

ROOT = Path(__file__).resolve().parents[2]
READINGS = ("validation/choi", "validation/wiki50", "validation/elements", "validation-docs-cargo/cargo",
            "validation-docs-cargo/cargo_sections", "validation-docs-reference/reference",
            "validation-docs-reference/reference_sections", "validation-docs-books/books",
            "validation-docs-books/books_sections")
REFERENCES = ("boundary_similarity", "f1_1")
#: pool name -> whether a voter label belongs to it
POOLS = {
    "all voters": lambda label: True,
    "without C99": lambda label: not label.startswith("c99"),
    "without TextTiling": lambda label: not label.startswith("tt_"),
    "without U00": lambda label: not label.startswith("u00"),
    "three segmenters": lambda label: label in ("tt_w20_k10", "c99_m11_c1.2", "u00"),
}


def mean_tau(values: dict[str, float], refs: dict[str, dict[str, float]]) -> float:
    """Mean over the two references of the tau-b across the configurations that have a value."""
    labels = [k for k in values if not np.isnan(values[k])]
    return float(np.mean([kendall_tau([values[k] for k in labels], [refs[k][m] for k in labels])
                          for m in REFERENCES]))


def reading(folder: Path) -> dict[str, float]:
    """The headline's and each pool's mean tau on one reading."""
    documents = load_results(folder / "results.jsonl").documents
    labels = list(documents)
    headlines = np.array([[np.mean([HEADLINE.value(r) for r in documents[k]]) for k in labels]])
    refs = {k: {m: float(np.nanmean([r.reference_metrics[m] for r in documents[k]])) for m in REFERENCES}
            for k in labels}
    pairs, present = pairwise_agreement(documents, labels, document_ids(documents))
    ones = np.ones((1, present.shape[1]))
    out = {"headline": mean_tau(dict(zip(labels, headlines[0])), refs)}
    for pool, member in POOLS.items():
        voters = np.array([is_voter(documents[k]) and member(k) for k in labels])
        scores = comparison_scores(headlines, pairs, present, voters, ones)[0]
        out[pool] = mean_tau(dict(zip(labels, scores)), refs)
    return out


def main() -> None:
    columns = ["headline", *POOLS]
    print("| reading | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    rows = []
    for name in READINGS:
        folder = ROOT / "results" / name
        if not (folder / "results.jsonl").is_file():
            print(f"| {name} | missing |" + " |" * (len(columns) - 1))
            continue
        values = reading(folder)
        rows.append(values)
        print(f"| {name} | " + " | ".join(f"{values[c]:+.3f}" for c in columns) + " |")
    if rows:
        print("| mean | " + " | ".join(f"{np.mean([r[c] for r in rows]):+.3f}" for c in columns) + " |")


if __name__ == "__main__":
    main()
