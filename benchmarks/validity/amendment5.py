"""Amendment 5 of docs/validation-protocol.md: the headline at a declared mean segment length.

Usage (from the repository root, after the studies' caches exist)::

    python benchmarks/validity/amendment5.py

For a configuration and a document of ``n`` units with ``m0`` boundaries and a declared mean
segment length ``L``: ``s = m0 + 1``, ``s* = max(1, n / L)``, ``g = min(s, s*) / max(s, s*)``; the
document's value is ``h * g`` when its headline ``h`` (``count_corrected``) is positive, ``h``
otherwise; the configuration's value is the mean over documents. ``L`` is each corpus's own mean
reference segment length (``sum n / sum (reference boundaries + 1)``), and ``L / 2`` and ``2 L``
show what a wrong statement costs.

Reads the 100-restart caches with the library's loader, checks that its headline per document is
the library's ``count_corrected`` (recomputed from F, the shuffle F1 and the chance F1), and
prints per corpus ``L``, each score's Kendall tau-b across the configurations against B and
boundary F1 within one unit, whether every content-blind configuration scores 0, then the
amendment's rule. Nothing here is used by the library.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
# benchmarks/ holds a module named like the library's segmenters package: keep it off the path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

from stability.stats import kendall_tau  # noqa: E402
from stability.store import load_results  # noqa: E402

#: corpus -> (cache folder, role in the amendment)
CORPORA = {
    "choi": ("results/validation/choi", "selection"),
    "wiki50": ("results/validation/wiki50", "selection"),
    "reference": ("results/validation-docs-reference/reference", "held out (new)"),
    "reference_sections": ("results/validation-docs-reference/reference_sections", "held out (new)"),
    "elements": ("results/validation/elements", "reported (seen)"),
    "cargo": ("results/validation-docs-cargo/cargo", "reported (seen)"),
    "cargo_sections": ("results/validation-docs-cargo/cargo_sections", "reported (seen)"),
}
SELECTION = ("choi", "wiki50")
NEW = ("reference", "reference_sections")
REFERENCES = ("boundary_similarity", "f1_1")
BLIND = ("none", "all", "even_known", "random")
#: score -> factor applied to the declared length (None: the headline itself)
SCORES = {"T": None, "at L/2": 0.5, "at L": 1.0, "at 2L": 2.0}


def headline(result) -> float:
    """``count_corrected`` from the result's own F, shuffle F1 and chance F1 (0 without a boundary)."""
    if result.n_boundaries == 0:
        return 0.0
    c = max(result.shuffle.f1, result.chance_f1)
    return 0.0 if c >= 1 else (result.f1 - c) / (1 - c)


def at_length(h: float, n_units: int, n_boundaries: int, length: float) -> float:
    """The document's value at the declared mean segment length ``length``."""
    if h <= 0:
        return h
    s, wanted = n_boundaries + 1, max(1.0, n_units / length)
    return h * min(s, wanted) / max(s, wanted)


def declared_length(docs) -> float:
    """The corpus's mean reference segment length: total units over total reference segments."""
    return sum(r.segmentation.n_units for r in docs) / sum(len(r.references[0]) + 1 for r in docs)


def corpus_table(folder: Path):
    """Per configuration the mean of each score and of each reference metric; ``L``; documents."""
    result = load_results(folder / "results.jsonl")
    length = declared_length(next(iter(result.documents.values())))
    scores, refs = {}, {}
    for label, docs in result.documents.items():
        values = {name: [] for name in SCORES}
        for r in docs:
            h = headline(r)
            if not math.isclose(h, r.count_corrected, abs_tol=1e-12):
                raise SystemExit(f"{folder}: {label} {r.document}: headline {h} != library {r.count_corrected}")
            for name, factor in SCORES.items():
                values[name].append(h if factor is None else
                                    at_length(h, r.segmentation.n_units, r.n_boundaries, factor * length))
        scores[label] = {name: float(np.mean(v)) for name, v in values.items()}
        refs[label] = {m: float(np.nanmean([r.reference_metrics[m] for r in docs])) for m in REFERENCES}
    n_docs = max(len(docs) for docs in result.documents.values())
    return scores, refs, length, n_docs


def taus(scores, refs) -> dict[str, dict[str, float]]:
    labels = sorted(scores)
    return {name: {m: kendall_tau([scores[k][name] for k in labels], [refs[k][m] for k in labels])
                   for m in REFERENCES} for name in SCORES}


def main() -> None:
    mean: dict[str, dict[str, float]] = {}
    print("| corpus | role | documents | L | score | vs B | vs F1 ±1 | mean | content-blind max abs |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    for corpus, (folder, role) in CORPORA.items():
        path = ROOT / folder
        if not (path / "results.jsonl").is_file():
            print(f"| {corpus} | {role} | missing: {folder} | | | | | | |")
            continue
        scores, refs, length, n_docs = corpus_table(path)
        table = taus(scores, refs)
        mean[corpus] = {}
        for name in SCORES:
            t = table[name]
            mean[corpus][name] = (t["boundary_similarity"] + t["f1_1"]) / 2
            blind = max(abs(scores[k][name]) for k in BLIND if k in scores)
            print(f"| {corpus} | {role} | {n_docs} | {length:.2f} | {name} | {t['boundary_similarity']:+.3f} "
                  f"| {t['f1_1']:+.3f} | {mean[corpus][name]:+.3f} | {blind:.3g} |")
    if not all(c in mean for c in SELECTION + NEW):
        raise SystemExit("a selection or new corpus is missing: the rule cannot be applied")
    J = {name: sum(mean[c][name] for c in SELECTION) / len(SELECTION) for name in SCORES}
    new = {name: sum(mean[c][name] for c in NEW) / len(NEW) for name in SCORES}
    print()
    print("J (mean over Choi and Wiki-50 of the two taus): " + ", ".join(f"{k} {v:.4f}" for k, v in J.items()))
    print("new corpus (mean over its two readings): " + ", ".join(f"{k} {v:+.4f}" for k, v in new.items()))
    checks = {
        "1. J(at L) - J(T) > 0.01": J["at L"] - J["T"] > 0.01,
        "2. J(at L/2) and J(at 2L) >= J(T) - 0.05": min(J["at L/2"], J["at 2L"]) >= J["T"] - 0.05,
        "3. new corpus at L not below T": new["at L"] >= new["T"],
    }
    for text, ok in checks.items():
        print(f"- {text}: {'met' if ok else 'not met'}")
    print()
    print("Decision: " + ("the score at the declared length is adopted as a second reported number"
                          if all(checks.values()) else "not adopted; nothing is added to the library"))


if __name__ == "__main__":
    main()
