"""Amendment 3 of docs/validation-protocol.md: corrections that do not stretch a small margin.

Usage (from the repository root, after the studies' caches exist)::

    python benchmarks/validity/amendment3.py

Reads the 100-restart caches of the committed studies (``results/validation/<corpus>``,
``results/validation-dialogue/<corpus>``, ``results/validation-clinical/clinical``) with the
library's loader, computes per document the three candidates of the amendment from each result's
own F (``f1``), S (``shuffle.f1``) and chance F1 (``chance_f1``), checks that its count_aware equals
the library's ``count_corrected`` on every (configuration, document), and prints, per corpus, each
candidate's Kendall tau-b across the configurations against B and boundary F1 within one unit,
then applies the amendment's rule. Nothing here is used by the library.
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
    "clinical": ("results/validation-clinical", "held out (new)"),
    "elements": ("results/validation/elements", "reported"),
    "dialseg711": ("results/validation-dialogue/dialseg711", "reported (seen)"),
    "tiage": ("results/validation-dialogue/tiage", "reported (seen)"),
    "committee": ("results/validation-dialogue/committee", "reported (seen)"),
}
REFERENCES = ("boundary_similarity", "f1_1")
CANDIDATES = ("count_aware", "count_gap", "count_sqrt")


def candidates(f: float, s: float, chance: float, n_boundaries: int) -> dict[str, float]:
    """The amendment's three scores of one document."""
    if n_boundaries == 0:
        return dict.fromkeys(CANDIDATES, 0.0)
    c = max(s, chance)
    if c >= 1:
        return {"count_aware": 0.0, "count_gap": f - c, "count_sqrt": 0.0}
    return {"count_aware": (f - c) / (1 - c), "count_gap": f - c, "count_sqrt": (f - c) / math.sqrt(1 - c)}


def corpus_table(folder: Path) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]], int]:
    """Per configuration: mean candidate scores and mean reference metrics; number of documents."""
    result = load_results(folder / "results.jsonl")
    scores, refs, n_docs = {}, {}, 0
    for label, docs in result.documents.items():
        values = {name: [] for name in CANDIDATES}
        for r in docs:
            shuffle = r.shuffle.f1 if r.shuffle is not None else float("nan")
            mine = candidates(r.f1, shuffle, r.chance_f1, r.n_boundaries)
            library = r.count_corrected
            if not (math.isclose(mine["count_aware"], library, abs_tol=1e-12)
                    or (math.isnan(mine["count_aware"]) and math.isnan(library))):
                raise SystemExit(f"{folder}: {label} {r.document}: count_aware {mine['count_aware']} "
                                 f"!= library count_corrected {library}")
            for name in CANDIDATES:
                values[name].append(mine[name])
        scores[label] = {name: float(np.nanmean(v)) for name, v in values.items()}
        refs[label] = {m: float(np.nanmean([r.reference_metrics[m] for r in docs])) for m in REFERENCES}
        n_docs = max(n_docs, len(docs))
    return scores, refs, n_docs


def taus(scores, refs) -> dict[str, dict[str, float]]:
    labels = sorted(scores)
    return {name: {m: kendall_tau([scores[l][name] for l in labels], [refs[l][m] for l in labels])
                   for m in REFERENCES} for name in CANDIDATES}


def main() -> None:
    table: dict[str, dict[str, dict[str, float]]] = {}
    print("| corpus | role | documents | candidate | vs B | vs F1 ±1 | mean |")
    print("|---|---|---:|---|---:|---:|---:|")
    for corpus, (folder, role) in CORPORA.items():
        path = ROOT / folder
        if not (path / "results.jsonl").is_file():
            print(f"| {corpus} | {role} | missing: {folder} | | | | |")
            continue
        scores, refs, n_docs = corpus_table(path)
        table[corpus] = taus(scores, refs)
        for name in CANDIDATES:
            t = table[corpus][name]
            mean = (t["boundary_similarity"] + t["f1_1"]) / 2
            print(f"| {corpus} | {role} | {n_docs} | {name} | {t['boundary_similarity']:+.3f} | {t['f1_1']:+.3f} "
                  f"| {mean:+.3f} |")
    mean = {c: {name: (t[name]["boundary_similarity"] + t[name]["f1_1"]) / 2 for name in CANDIDATES}
            for c, t in table.items()}
    objective = {name: (mean["choi"][name] + mean["wiki50"][name]) / 2 for name in CANDIDATES}
    print()
    qualifying = []
    for name in CANDIDATES:
        feasible = all(mean[c][name] >= 0.45 for c in ("choi", "wiki50"))
        clinical = mean["clinical"][name] - mean["clinical"]["count_aware"] if "clinical" in mean else float("nan")
        if name != "count_aware" and objective[name] > objective["count_aware"] + 0.01 and feasible and clinical >= -0.05:
            qualifying.append(name)
        print(f"- {name}: J = {objective[name]:.3f}; constraint (each selection corpus >= 0.45) "
              f"{'met' if feasible else 'violated'}; clinical minus count_aware {clinical:+.3f}"
              + ("; qualifies" if name in qualifying else ""))
    print()
    print("Decision: " + (f"{max(qualifying, key=objective.get)} replaces the headline" if qualifying
                          else "no candidate qualifies; the headline stays count_aware"))

if __name__ == "__main__":
    main()
