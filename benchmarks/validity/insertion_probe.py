"""Amendment 4 of docs/validation-protocol.md: a reference-free recall probe (moved-block test).

Usage (from the repository root, after the studies' caches exist)::

    python benchmarks/validity/insertion_probe.py run [CORPUS ...]   # segment the probes (cached)
    python benchmarks/validity/insertion_probe.py analyze             # tables and the rule
    python benchmarks/validity/insertion_probe.py timing CORPUS       # seconds only, no scores

The stability test asks whether the boundaries a segmenter found depend on the content (a
precision-like question: it never sees a topic shift the segmenter missed). The probe asks the
other question without a reference: move a block of the document's own units far from where it
was, and see whether the segmenter puts boundaries where the moved block now starts and ends.

For each document, ``PROBES`` probes are drawn with a generator seeded by the document's id:

* a block length ``L`` uniform in ``2 .. max(2, n // 4)`` and a block start ``a`` uniform in
  ``0 .. n - L`` (``n`` units);
* the block is cut out and inserted at a position ``q`` (``1 .. n - L - 1`` of the remaining units,
  never at an end), drawn uniformly among the positions whose two neighbours both lie at least
  ``L`` units from the block in the original document; a draw with no such position is redrawn,
  at most ``MAX_DRAWS`` times per probe (a short document can get fewer probes, or none: it is
  then left out of the probe's mean);
* the probed document has the two junctions ``q`` and ``q + L`` (segment starts).

A configuration segments every probed document (configurations told the number of segments get
the probed document's own reference count: a boundary wherever two neighbouring units come from
different reference segments). Per probe: ``h`` = the fraction of the two junctions with a boundary
within one unit; ``c`` = the mean over the two junctions of the chance that the configuration's
``m`` boundaries, placed uniformly at random among the ``n - 1`` positions, put one within one
unit of the junction; the probe's score is ``(h - c) / (1 - c)`` (0 when ``c = 1`` or ``m = 0``).
A document's probe score is the mean over its probes; a configuration's ``R`` is the mean over
the documents with at least one probe. ``T`` is the committed headline (``count_corrected``,
mean over documents) read from the study's cache.

Nothing here is used by the library.
"""

from __future__ import annotations

import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

ROOT = Path(__file__).resolve().parents[2]
# benchmarks/ holds a module named like the library's segmenters package: keep it off the path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

from stability.corpus import Document
from stability.segmentation import Segmentation
from stability.segmenter import for_document, has_fast_path, prepare_key
from stability.stats import kendall_tau
from stability.store import load_results
from stability.study.run import load_corpora

PROBES = 20
MAX_DRAWS = 100
TOLERANCE = 1
OUT = ROOT / "results" / "validity-probe"

#: corpus -> (config, cache folder holding results.jsonl, role)
CORPORA = {
    "choi": ("configs/validation.toml", "results/validation/choi", "selection"),
    "wiki50": ("configs/validation.toml", "results/validation/wiki50", "selection"),
    "elements": ("configs/validation.toml", "results/validation/elements", "held out"),
    "clinical": ("configs/validation-clinical.toml", "results/validation-clinical", "held out"),
    "clinical-rest": ("configs/validation-clinical-rest.toml", "results/validation-clinical-rest", "held out"),
    "dialseg711": ("configs/validation-dialogue.toml", "results/validation-dialogue/dialseg711", "held out"),
    "tiage": ("configs/validation-dialogue.toml", "results/validation-dialogue/tiage", "held out"),
    "committee": ("configs/validation-dialogue.toml", "results/validation-dialogue/committee", "held out"),
    "fiction": ("configs/validation-fiction.toml", "results/validation-fiction", "held out"),
    "fiction-rest": ("configs/validation-fiction-rest.toml", "results/validation-fiction-rest", "held out"),
    "docs": ("configs/validation-docs.toml", "results/validation-docs", "held out"),
    "drf": ("configs/validation-docs-drf.toml", "results/validation-docs-drf/drf", "held out"),
    "drf_sections": ("configs/validation-docs-drf.toml", "results/validation-docs-drf/drf_sections", "held out"),
}
REFERENCES = ("boundary_similarity", "f1_1")
CANDIDATES = ("T", "gated_R", "T_x_R", "harmonic")
BLIND = ("none", "all", "even_known", "random")


# ----------------------------------------------------------------------------------------------
# the probes
# ----------------------------------------------------------------------------------------------
def draw_probes(document_id: str, n: int, n_probes: int = PROBES) -> list[tuple[int, int, int]]:
    """``(a, L, q)`` for each probe of a document of ``n`` units (see the module docstring)."""
    rng = np.random.default_rng([zlib.crc32(document_id.encode("utf-8")), n])
    probes = []
    for _ in range(n_probes):
        for _ in range(MAX_DRAWS):
            length = int(rng.integers(2, max(2, n // 4) + 1))
            if n - length < 2:
                continue
            a = int(rng.integers(0, n - length + 1))
            remaining = np.r_[0:a, a + length:n]
            q = np.arange(1, n - length)
            left, right = remaining[q - 1], remaining[q]
            valid = q[(right <= a - length) | (left >= a + 2 * length - 1)]
            if valid.size:
                probes.append((a, length, int(rng.choice(valid))))
                break
    return probes


def probe_order(n: int, a: int, length: int, q: int) -> np.ndarray:
    """The order of the original units in the probed document."""
    remaining = np.r_[0:a, a + length:n]
    return np.concatenate([remaining[:q], np.arange(a, a + length), remaining[q:]]).astype(np.intp)


def probed_reference(reference: Segmentation, order: np.ndarray) -> Segmentation:
    """A boundary wherever two neighbouring units of the probed document come from different
    reference segments."""
    return Segmentation.from_labels(reference.label_array()[order])


def chance_hit(n: int, m: int, junction: int, tolerance: int = TOLERANCE) -> float:
    """Chance that ``m`` boundaries drawn uniformly among positions ``1 .. n-1`` put one within
    ``tolerance`` units of ``junction``."""
    positions = n - 1
    window = min(junction + tolerance, n - 1) - max(junction - tolerance, 1) + 1
    if m <= 0:
        return 0.0
    miss = 1.0
    for i in range(window):
        miss *= max(positions - m - i, 0) / (positions - i)
    return 1.0 - miss


def probe_score(boundaries: list[int], n: int, junctions: tuple[int, int]) -> float:
    """``(h - c) / (1 - c)`` of one probe (0 without boundaries or when ``c = 1``)."""
    m = len(boundaries)
    if m == 0:
        return 0.0
    b = np.asarray(boundaries)
    h = float(np.mean([np.any(np.abs(b - j) <= TOLERANCE) for j in junctions]))
    c = float(np.mean([chance_hit(n, m, j) for j in junctions]))
    return 0.0 if c >= 1.0 else (h - c) / (1.0 - c)


def segment_probes(segmenter, document: Document, probes: list[tuple[int, int, int]]) -> list[list[int]]:
    """The configuration's boundaries on each probe (:func:`draw_probes`) of one document."""
    n = len(document.units)
    out, states = [], {}
    for a, length, q in probes:
        order = probe_order(n, a, length, q)
        units = [document.units[i] for i in order]
        refs = tuple(probed_reference(r, order) for r in document.references)
        probed = Document(f"{document.id}#probe", tuple(units), refs)
        seg = for_document(segmenter, probed)
        key = prepare_key(seg)
        if has_fast_path(seg) and key is not None:
            if key not in states:
                states[key] = seg.prepare(document.units)
            boundaries = seg.segment_prepared(states[key], order)
        else:
            boundaries = seg(units)
        out.append(sorted(int(b) for b in boundaries))
    return out


# ----------------------------------------------------------------------------------------------
# running
# ----------------------------------------------------------------------------------------------
def _cache_ids(cache: Path) -> list[str]:
    result = load_results(ROOT / cache / "results.jsonl")
    first = next(iter(result.documents.values()))
    return [r.document for r in first]


def _corpus(name: str):
    config, cache, _role = CORPORA[name]
    specs = load_corpora([ROOT / config])
    spec = specs[0] if len(specs) == 1 else next(s for s in specs if s.name == name)
    ids = set(_cache_ids(Path(cache)))
    documents = [d for d in spec.experiment.documents() if d.id in ids]
    if len(documents) != len(ids):
        raise SystemExit(f"{name}: {len(ids)} documents in the cache, {len(documents)} read")
    return documents, spec.experiment.build_segmenters()


def _one_document(segmenters, document) -> dict:
    probes = draw_probes(document.id, len(document.units))
    return {"document": document.id, "n": len(document.units), "probes": [list(p) for p in probes],
            "boundaries": {label: segment_probes(seg, document, probes) for label, seg in segmenters.items()}}


def run(name: str, jobs: int = 2) -> None:
    documents, segmenters = _corpus(name)
    path = OUT / f"{name}.jsonl"
    OUT.mkdir(parents=True, exist_ok=True)
    done = set()
    if path.is_file():
        done = {json.loads(line)["document"] for line in path.read_text(encoding="utf-8").splitlines() if line}
    todo = [d for d in documents if d.id not in done]
    start = time.perf_counter()
    with path.open("a", encoding="utf-8") as handle:
        for row in Parallel(n_jobs=jobs, return_as="generator")(delayed(_one_document)(segmenters, d) for d in todo):
            handle.write(json.dumps(row) + "\n")
            handle.flush()
    print(f"{name}: {len(todo)} documents probed in {time.perf_counter() - start:.0f} s", flush=True)


def timing(name: str) -> None:
    documents, segmenters = _corpus(name)
    start = time.perf_counter()
    for d in documents[:3]:
        _one_document(segmenters, d)
    print(f"{name}: {time.perf_counter() - start:.1f} s for 3 of {len(documents)} documents", flush=True)


# ----------------------------------------------------------------------------------------------
# analysis
# ----------------------------------------------------------------------------------------------
def probe_scores(name: str) -> dict[str, list[list[float]]]:
    """Per configuration, per document with at least one probe: the score of each probe, in the
    order drawn (read from the cached boundaries)."""
    per_doc: dict[str, list[list[float]]] = {}
    for line in (OUT / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if not row["probes"]:
            continue
        for label, runs in row["boundaries"].items():
            per_doc.setdefault(label, []).append(
                [probe_score(b, row["n"], (q, q + length)) for (_a, length, q), b in zip(row["probes"], runs)])
    return per_doc


def probe_means(scores: dict[str, list[list[float]]], first: int = PROBES) -> dict[str, float]:
    """Per configuration: ``R``, the mean over documents of the mean score of their first
    ``first`` probes (``scores`` from :func:`probe_scores`)."""
    return {label: float(np.mean([np.mean(doc[:first]) for doc in docs])) for label, docs in scores.items()}


def headline_and_references(cache: Path) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    result = load_results(ROOT / cache / "results.jsonl")
    t = {label: float(np.nanmean([r.count_corrected for r in docs])) for label, docs in result.documents.items()}
    refs = {label: {m: float(np.nanmean([r.reference_metrics[m] for r in docs])) for m in REFERENCES}
            for label, docs in result.documents.items()}
    return t, refs


def candidates(t: float, r: float) -> dict[str, float]:
    """The amendment's four scores of one configuration from its ``T`` and ``R``."""
    tp, rp = max(t, 0.0), max(r, 0.0)
    return {"T": t, "gated_R": rp if t > 0 else 0.0, "T_x_R": tp * rp,
            "harmonic": 2 * tp * rp / (tp + rp) if tp > 0 and rp > 0 else 0.0}


def analyze() -> None:
    mean: dict[str, dict[str, float]] = {}
    probe_r: dict[str, dict[str, float]] = {}
    feasible = {c: True for c in CANDIDATES}
    print("| corpus | role | candidate | vs B | vs F1 ±1 | mean | content-blind all 0 | R move 10->20 |")
    print("|---|---|---|---:|---:|---:|---|---:|")
    for name, (_config, cache, role) in CORPORA.items():
        if not (OUT / f"{name}.jsonl").is_file():
            print(f"| {name} | {role} | not probed | | | | | |")
            continue
        t, refs = headline_and_references(Path(cache))
        per_probe = probe_scores(name)
        r, r_half = probe_means(per_probe), probe_means(per_probe, PROBES // 2)
        probe_r[name] = r
        move = max(abs(r[label] - r_half[label]) for label in r)
        blind = [label for label in t if label in BLIND]
        labels = sorted(t)
        scores = {label: candidates(t[label], r[label]) for label in labels}
        mean[name] = {}
        for cand in CANDIDATES:
            taus = [kendall_tau([scores[l][cand] for l in labels], [refs[l][m] for l in labels]) for m in REFERENCES]
            mean[name][cand] = (taus[0] + taus[1]) / 2
            zero = all(scores[l][cand] == 0 for l in blind)
            if role == "selection" and not (zero and mean[name][cand] >= 0.45 and move < 0.05):
                feasible[cand] = False
            print(f"| {name} | {role} | {cand} | {taus[0]:+.3f} | {taus[1]:+.3f} | {mean[name][cand]:+.3f} "
                  f"| {'yes' if zero else 'NO'} | {move:.3f} |")
    print()
    for name, r in probe_r.items():
        print(f"{name} R: " + ", ".join(f"{label} {value:+.3f}" for label, value in sorted(r.items())))
    selection = [n for n, (_c, _f, role) in CORPORA.items() if role == "selection"]
    held = [n for n, (_c, _f, role) in CORPORA.items() if role == "held out"]
    if any(n not in mean for n in selection + held):
        print("\nNot every corpus is probed: no decision.")
        return
    objective = {c: float(np.mean([mean[n][c] for n in selection])) for c in CANDIDATES}
    held_mean = {c: float(np.mean([mean[n][c] for n in held])) for c in CANDIDATES}
    print()
    for c in CANDIDATES:
        print(f"- {c}: J = {objective[c]:.3f}; constraints on the selection corpora "
              f"{'met' if feasible[c] else 'violated'}; held-out mean {held_mean[c]:+.3f} over {len(held)} readings")
    ranked = [c for c in CANDIDATES if feasible[c]]
    if not ranked:
        print("\nDecision: no candidate is feasible; the headline stays T")
        return
    best = max(objective[c] for c in ranked)
    winner = next(c for c in ranked if objective[c] >= best - 0.01)  # ties go to the earlier
    adopted = (winner != "T" and objective[winner] > objective["T"] + 0.01
               and held_mean[winner] >= held_mean["T"])
    print(f"\nDecision: {winner} replaces the headline" if adopted else
          f"\nDecision: the headline stays T (best by the rule: {winner})")


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "analyze", "timing"):
        raise SystemExit(__doc__)
    if sys.argv[1] == "analyze":
        analyze()
    elif sys.argv[1] == "timing":
        timing(sys.argv[2])
    else:
        for name in sys.argv[2:] or list(CORPORA):
            run(name)


if __name__ == "__main__":
    main()
