"""Amendment 6 of docs/validation-protocol.md: agreement with the other content-dependent segmenters.

Usage (from the repository root, after the studies' caches exist)::

    python benchmarks/validity/amendment6.py

On a corpus, ``T_c`` is configuration ``c``'s headline (mean over documents of the library's
``count_corrected``). The voters are the configurations given no reference information (all but
the three told each document's reference count); voter ``v`` weighs ``w_v = max(T_v, 0)``. For a
configuration ``c`` and a document ``d``::

    A_cd = sum_{v != c} w_v F1_1(B0_cd, B0_vd) / sum_{v != c} w_v

with ``F1_1`` the boundary F1 within one unit of two initial segmentations (one-to-one matching,
``stability.matching.count_matches``), 0 when ``c`` places no boundary on ``d`` or the weights sum
to 0; ``A_c`` is the mean over documents. Candidates: ``T``; ``gated_A`` (``A`` when ``T > 0``);
``T_x_A`` (``max(T, 0) A``); ``harmonic`` (``2 T A / (T + A)`` when both are positive).

Reads the 100-restart caches with the library's loader, checks the recomputed headline against
the library's and that ``F1_1`` of a segmentation with itself is 1, and prints per reading each
candidate's Kendall tau-b across the configurations against B and boundary F1 within one unit,
whether every content-blind configuration scores 0, ``A`` and ``T`` against boundary precision and
recall (reported only), then the amendment's rule and issue 11's targets for its winner. Nothing
here is used by the library.
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

from stability.matching import count_matches  # noqa: E402
from stability.stats import kendall_tau  # noqa: E402
from stability.store import load_results  # noqa: E402

#: reading -> (cache folder, role in the amendment)
CORPORA = {
    "choi": ("results/validation/choi", "selection"),
    "wiki50": ("results/validation/wiki50", "selection"),
    "elements": ("results/validation/elements", "held out (seen for T)"),
    "cargo": ("results/validation-docs-cargo/cargo", "held out (seen for T)"),
    "cargo_sections": ("results/validation-docs-cargo/cargo_sections", "held out (seen for T)"),
    "reference": ("results/validation-docs-reference/reference", "held out (seen for T)"),
    "reference_sections": ("results/validation-docs-reference/reference_sections", "held out (seen for T)"),
    "books": ("results/validation-docs-books/books", "held out (new)"),
    "books_sections": ("results/validation-docs-books/books_sections", "held out (new)"),
}
SELECTION = ("choi", "wiki50")
HELD_OUT = tuple(c for c in CORPORA if c not in SELECTION)
NEW = ("books", "books_sections")
THREE = ("choi", "wiki50", "elements")
REFERENCES = ("boundary_similarity", "f1_1")
REPORTED = ("precision", "recall")
BLIND = ("none", "all", "even_known", "random")
#: configurations told each document's reference count: never voters
KNOWN = ("c99_known", "u00_known", "even_known")
CANDIDATES = ("T", "gated_A", "T_x_A", "harmonic")


def headline(result) -> float:
    """``count_corrected`` from the result's own F, shuffle F1 and chance F1 (0 without a boundary)."""
    if result.n_boundaries == 0:
        return 0.0
    c = max(result.shuffle.f1, result.chance_f1)
    return 0.0 if c >= 1 else (result.f1 - c) / (1 - c)


def f1_within_one(first: tuple[int, ...], second: tuple[int, ...]) -> float:
    """Boundary F1 within one unit of two boundary sets (0 when both are empty)."""
    total = len(first) + len(second)
    return 0.0 if total == 0 else 2.0 * count_matches(second, first, tolerance=1) / total


def agreement(boundaries: dict[str, dict[str, tuple[int, ...]]], weights: dict[str, float],
              label: str) -> float:
    """``A_c``: mean over the configuration's documents of its weighted agreement with the voters."""
    values = []
    for doc, own in boundaries[label].items():
        if not own:
            values.append(0.0)
            continue
        total = weight = 0.0
        for voter, w in weights.items():
            if voter == label or w <= 0 or doc not in boundaries[voter]:
                continue
            total += w * f1_within_one(own, boundaries[voter][doc])
            weight += w
        values.append(total / weight if weight > 0 else 0.0)
    return float(np.mean(values))


def combine(t: float, a: float) -> dict[str, float]:
    """Every candidate's value from a configuration's ``T`` and ``A``."""
    return {
        "T": t,
        "gated_A": a if t > 0 else 0.0,
        "T_x_A": max(t, 0.0) * a,
        "harmonic": 2 * t * a / (t + a) if t > 0 and a > 0 else 0.0,
    }


def corpus_table(folder: Path):
    """Per configuration each candidate's value, ``A`` and the mean reference metrics; documents."""
    result = load_results(folder / "results.jsonl")
    headlines, boundaries, refs = {}, {}, {}
    for label, docs in result.documents.items():
        values = []
        for r in docs:
            h = headline(r)
            if not math.isclose(h, r.count_corrected, abs_tol=1e-12):
                raise SystemExit(f"{folder}: {label} {r.document}: headline {h} != library {r.count_corrected}")
            own = tuple(r.segmentation.boundaries)
            if own and f1_within_one(own, own) != 1.0:
                raise SystemExit(f"{folder}: {label} {r.document}: F1 within one unit of itself is not 1")
            values.append(r.count_corrected)
        headlines[label] = float(np.mean(values))
        boundaries[label] = {r.document: tuple(r.segmentation.boundaries) for r in docs}
        refs[label] = {m: float(np.nanmean([r.reference_metrics[m] for r in docs])) for m in REFERENCES + REPORTED}
    weights = {label: max(t, 0.0) for label, t in headlines.items() if label not in KNOWN}
    scores, agreements = {}, {}
    for label in result.documents:
        agreements[label] = agreement(boundaries, weights, label)
        scores[label] = combine(headlines[label], agreements[label])
    n_docs = max(len(docs) for docs in result.documents.values())
    return scores, agreements, refs, n_docs


def tau(values: dict[str, float], refs: dict[str, dict[str, float]], metric: str) -> float:
    labels = sorted(values)
    return kendall_tau([values[k] for k in labels], [refs[k][metric] for k in labels])


def main() -> None:
    mean: dict[str, dict[str, float]] = {}
    vs_b: dict[str, dict[str, float]] = {}
    blind_ok: dict[str, dict[str, bool]] = {}
    print("| reading | role | documents | score | vs B | vs F1 ±1 | mean | content-blind max abs |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    reported = []
    for corpus, (folder, role) in CORPORA.items():
        path = ROOT / folder
        if not (path / "results.jsonl").is_file():
            print(f"| {corpus} | {role} | missing: {folder} | | | | | |")
            continue
        scores, agreements, refs, n_docs = corpus_table(path)
        mean[corpus], vs_b[corpus], blind_ok[corpus] = {}, {}, {}
        for name in CANDIDATES:
            values = {k: v[name] for k, v in scores.items()}
            t_b, t_f = tau(values, refs, "boundary_similarity"), tau(values, refs, "f1_1")
            mean[corpus][name], vs_b[corpus][name] = (t_b + t_f) / 2, t_b
            blind = max(abs(values[k]) for k in BLIND if k in values)
            blind_ok[corpus][name] = blind == 0
            print(f"| {corpus} | {role} | {n_docs} | {name} | {t_b:+.3f} | {t_f:+.3f} | {mean[corpus][name]:+.3f} "
                  f"| {blind:.3g} |")
        headline_values = {k: v["T"] for k, v in scores.items()}
        reported.append((corpus, *(tau(series, refs, m) for series in (agreements, headline_values)
                                   for m in REPORTED)))
    print()
    print("Reported only: tau-b against boundary precision and recall at tolerance 0")
    print()
    print("| reading | A vs precision | A vs recall | T vs precision | T vs recall |")
    print("|---|---:|---:|---:|---:|")
    for corpus, a_p, a_r, t_p, t_r in reported:
        print(f"| {corpus} | {a_p:+.3f} | {a_r:+.3f} | {t_p:+.3f} | {t_r:+.3f} |")
    if not all(c in mean for c in CORPORA):
        raise SystemExit("a reading is missing: the rule cannot be applied")

    def average(corpora, name):
        return sum(mean[c][name] for c in corpora) / len(corpora)

    J = {name: average(SELECTION, name) for name in CANDIDATES}
    held = {name: average(HELD_OUT, name) for name in CANDIDATES}
    new = {name: average(NEW, name) for name in CANDIDATES}
    print()
    print("J (mean over Choi and Wiki-50 of the two taus): " + ", ".join(f"{k} {v:.4f}" for k, v in J.items()))
    print("held out (mean over seven readings): " + ", ".join(f"{k} {v:+.4f}" for k, v in held.items()))
    print("new books (mean over two readings): " + ", ".join(f"{k} {v:+.4f}" for k, v in new.items()))
    winner = max(CANDIDATES[1:], key=lambda name: (J[name], -CANDIDATES.index(name)))
    checks = {
        f"1. J({winner}) - J(T) > 0.01": J[winner] - J["T"] > 0.01,
        f"2. {winner}: content-blind 0 and mean >= 0.45 on each selection corpus":
            all(blind_ok[c][winner] and mean[c][winner] >= 0.45 for c in SELECTION),
        f"3. held-out mean of {winner} not below T's": held[winner] >= held["T"],
        f"4. new books' mean of {winner} not below T's": new[winner] >= new["T"],
    }
    print(f"Highest J among the candidates: {winner}")
    for text, ok in checks.items():
        print(f"- {text}: {'met' if ok else 'not met'}")
    print()
    print("Decision: " + (f"{winner} is adopted as a second reported number of a comparison"
                          if all(checks.values()) else "not adopted; nothing is added to the library"))
    print()
    print(f"Issue 11's targets for {winner} (T in brackets):")
    print(f"- mean over Choi, Wiki-50, Elements >= 0.65: {average(THREE, winner):.3f} ({average(THREE, 'T'):.3f})")
    worst = min(CORPORA, key=lambda c: mean[c][winner])
    print(f"- every reading >= 0.45: worst {worst} {mean[worst][winner]:+.3f} "
          f"(readings below: {sum(mean[c][winner] < 0.45 for c in CORPORA)} of {len(CORPORA)}; "
          f"T: {sum(mean[c]['T'] < 0.45 for c in CORPORA)})")
    print(f"- Choi vs B >= 0.80: {vs_b['choi'][winner]:+.3f} ({vs_b['choi']['T']:+.3f})")


if __name__ == "__main__":
    main()
