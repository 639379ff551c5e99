"""The dual-segmentation control of Amendment 2 (docs/validation-protocol.md), issue 11.

Usage (from the repository root)::

    python benchmarks/validity/dual_control.py run choi        # then wiki50, then elements
    python benchmarks/validity/dual_control.py analyze choi wiki50 elements

    # the exploration on long documents (seen corpora, nothing chosen on them)
    python benchmarks/validity/dual_control.py run fiction --config configs/validation-fiction.toml \
        --cache results/validation-fiction
    python benchmarks/validity/dual_control.py run committee --config configs/validation-dialogue.toml \
        --cache results/validation-dialogue

``run`` reads the study's cache (``--cache``, default ``/work/results/validation``:
``<cache>/<corpus>/results.jsonl`` of ``stability validate configs/validation.toml``, or
``<cache>/results.jsonl`` for a study of one corpus), rebuilds the same documents and segmenters
with the study's loader from its config (``--config``, default ``configs/validation.toml``), checks that their ids match the cache, and
for every (configuration, document) runs the **dual stream**: restart ``r`` permutes the units
within the segments of the dual segmentation ``D0`` of the cached ``B0`` (one boundary at the
middle of each segment of two units or more) with ``derived_rng(seed, doc_key(id), 5, r)``, and
re-segments. Each pair's restarts go to ``results/validity-dual/<corpus>.jsonl`` as they finish,
so an interrupted run resumes. Every pair is also re-run on restarts 0 and 1 of the *within*
stream through the same code path and compared with the cache: the segmenter, the document and the
permutation scheme are those of the study.

``analyze`` prints, per corpus, the candidates' Kendall tau-b across the 16 configurations against
the references (analyze.py's functions), the per-document and configuration moves between restarts
0..49 and 0..99, the ceiling, the protocol's rule and the descriptive check of the amendment.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from analyze import BLIND, REFERENCES, references, tau  # noqa: E402

from stability.permutations import Stream, doc_key, within_segment_order  # noqa: E402
from stability.results import StabilityResult  # noqa: E402
from stability.scores import (chance_scores, count_corrected_f1, headline_document,  # noqa: E402
                              restart_f1, restart_precision_recall)
from stability.segmentation import Segmentation, check_boundaries  # noqa: E402
from stability.segmenter import apply_order, for_document, has_batch_path, has_fast_path  # noqa: E402
from stability.stats import derived_rng  # noqa: E402
from stability.store import read_run  # noqa: E402
from stability.study.run import load_corpora  # noqa: E402
from stability.summary import kendall_tau  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "validation.toml"
OUT = ROOT / "results" / "validity-dual"
#: The dual stream's number in the restart key (document, stream, restart): no existing
#: :class:`stability.permutations.Stream` uses it.
DUAL_STREAM = 5
CANDIDATES = ("count_aware", "dual_aware", "dual_only")
SELECTION = ("choi", "wiki50")


def dual_boundaries(initial: Sequence[int], n_units: int) -> tuple[int, ...]:
    """The dual segmentation of ``initial``: for each segment ``[a, b)`` of two units or more, a
    boundary at ``a + (b - a) // 2``.

    Examples
    --------
    >>> dual_boundaries((4, 6, 7), 10)   # segments [0,4) [4,6) [6,7) [7,10)
    (2, 5, 8)
    >>> dual_boundaries((), 5)
    (2,)
    """
    edges = [0, *initial, n_units]
    return tuple(a + (b - a) // 2 for a, b in zip(edges, edges[1:]) if b - a >= 2)


def resegment(segmenter: Callable, units: tuple[str, ...], labels: np.ndarray, seed: int, key: int,
              stream: int, restarts: range) -> list[tuple[int, ...]]:
    """Boundaries of the restarts of ``stream``: units permuted within the segments given by
    ``labels`` (the engine's scheme and fast paths), each output checked as the engine does."""
    n = len(units)
    orders = [within_segment_order(labels, derived_rng(seed, key, stream, r)) for r in restarts]
    prepared = segmenter.prepare(units) if has_fast_path(segmenter) else None
    if has_batch_path(segmenter):
        raw = list(segmenter.segment_batch(prepared, np.stack(orders)))
    elif prepared is not None:
        raw = [segmenter.segment_prepared(prepared, order) for order in orders]
    else:
        raw = [segmenter(apply_order(units, order)) for order in orders]
    return [check_boundaries(b, n, "boundaries", sort=True) for b in raw]


def pair_task(label: str, segmenter: Callable, units: tuple[str, ...], doc_id: str, initial: tuple[int, ...],
              within: list[tuple[int, ...]], seed: int, n_restarts: int) -> dict:
    """One (configuration, document): the dual restarts, after checking the within stream."""
    key, n = doc_key(doc_id), len(units)
    again = resegment(segmenter, units, Segmentation(initial, n).label_array(), seed, key, int(Stream.WITHIN), range(2))
    if [tuple(b) for b in within[:2]] != again:
        raise RuntimeError(f"{label} on {doc_id}: within restarts 0-1 differ from the cache: {within[:2]} vs {again}")
    dual = dual_boundaries(initial, n)
    labels = Segmentation(dual, n).label_array()
    restarts = resegment(segmenter, units, labels, seed, key, DUAL_STREAM, range(n_restarts))
    return {"segmenter": label, "document": doc_id, "initial": list(initial), "dual": list(dual),
            "restarts": [list(b) for b in restarts]}


def cached(corpus: str, cache: Path) -> tuple[dict, dict[tuple[str, str], StabilityResult]]:
    """The run settings and the results of the study's cache, keyed (configuration, document):
    ``<cache>/<corpus>/results.jsonl``, or ``<cache>/results.jsonl`` for a study of one corpus."""
    path = cache / corpus / "results.jsonl"
    run = read_run(path if path.is_file() else cache / "results.jsonl")
    results = {(e.value.segmenter, e.value.document): e.value for e in run.entries.values()
               if isinstance(e.value, StabilityResult)}
    return run.settings, results


def done_pairs(path: Path) -> set[tuple[str, str]]:
    if not path.is_file():
        return set()
    lines = path.read_text(encoding="utf-8").splitlines()
    return {(r["segmenter"], r["document"]) for r in map(json.loads, filter(None, lines))}


def run(corpus: str, cache: Path, jobs: int, config: Path = CONFIG) -> None:
    settings, results = cached(corpus, cache)
    spec = next(s for s in load_corpora([config]) if s.name == corpus)
    documents = list(spec.experiment.documents())
    segmenters = spec.experiment.build_segmenters()
    expected = {(label, d.id) for label in segmenters for d in documents}
    if expected != set(results):
        raise SystemExit(f"{corpus}: the cache's pairs differ from the config's: "
                         f"{len(expected - set(results))} missing, {len(set(results) - expected)} extra")
    seed, n_restarts = int(settings["seed"]), int(settings["n_restarts"])
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / f"{corpus}.jsonl"
    done = done_pairs(out)
    todo = [(label, d) for d in documents for label in segmenters if (label, d.id) not in done]
    print(f"{corpus}: {len(todo)} of {len(expected)} pairs to run", flush=True)
    tasks = (delayed(pair_task)(label, for_document(segmenters[label], d), d.units, d.id,
                                results[label, d.id].segmentation.boundaries,
                                results[label, d.id].restart_boundaries[:2], seed, n_restarts)
             for label, d in todo)
    with out.open("a", encoding="utf-8") as sink:
        for i, record in enumerate(Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks), 1):
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            if i % 100 == 0:
                print(f"{corpus}: {i}/{len(todo)}", flush=True)
    print(f"{corpus}: done", flush=True)


# ----------------------------------------------------------------------------------------------
# analysis
# ----------------------------------------------------------------------------------------------
def doc_scores(r: StabilityResult, dual: list, n: int) -> dict[str, float]:
    """The candidates and their ingredients for one document with the first ``n`` restarts."""
    b0, m0 = r.segmentation.boundaries, len(r.segmentation.boundaries)
    within = restart_precision_recall(b0, r.restart_boundaries[:n])
    f, s = restart_f1(within), restart_f1(restart_precision_recall(b0, r.shuffle.restart_boundaries[:n]))
    c_dual = restart_f1(restart_precision_recall(b0, [tuple(b) for b in dual[:n]]))
    chance = chance_scores(range(m0), within.predicted, r.segmentation.n_units)[2]
    return {"m0": m0, "F": f, "S": s, "C_dual": c_dual, "seg_len": r.segmentation.n_units / (m0 + 1),
            "count_aware": count_corrected_f1(f, s, chance, m0),
            "dual_aware": count_corrected_f1(f, max(s, c_dual), chance, m0),
            "dual_only": count_corrected_f1(f, c_dual, 0.0, m0)}


def analyse(corpus: str, cache: Path) -> dict:
    _, results = cached(corpus, cache)
    duals = {(r["segmenter"], r["document"]): r
             for r in map(json.loads, (OUT / f"{corpus}.jsonl").read_text(encoding="utf-8").splitlines())}
    if set(duals) != set(results):
        missing, extra = len(set(results) - set(duals)), len(set(duals) - set(results))
        raise SystemExit(f"{corpus}: {missing} pairs of the cache have no dual restarts and {extra} dual pairs are not "
                         f"in the cache: run `run {corpus}` first if pairs are missing, or check that --cache names "
                         f"this corpus's study ({cache})")
    labels = sorted({label for label, _ in results})
    per = {n: {label: [] for label in labels} for n in (50, 100)}
    refs = {}
    for label in labels:
        docs = [r for (lab, _), r in sorted(results.items()) if lab == label]
        for r in docs:
            d = duals[label, r.document]
            assert tuple(d["initial"]) == r.segmentation.boundaries, (label, r.document)
            for n in (50, 100):
                per[n][label].append(doc_scores(r, d["restarts"], n))
            library = headline_document(restart_precision_recall(r.segmentation.boundaries, r.restart_boundaries),
                                        restart_precision_recall(r.segmentation.boundaries, r.shuffle.restart_boundaries),
                                        r.segmentation.n_units)
            assert abs(per[100][label][-1]["count_aware"] - library) < 1e-12  # the library's headline
            assert abs(per[100][label][-1]["F"] - r.f1) + abs(per[100][label][-1]["S"] - r.shuffle.f1) < 1e-9
        rs = [references(r) for r in docs]
        refs[label] = {m: float(np.mean([x[m] for x in rs])) for m in REFERENCES}
    return {"labels": labels, "per": per, "references": refs}


def summary(a: dict) -> dict:
    """Per candidate: corpus-level scores, tau-b against each reference, moves 50 -> 100."""
    labels, per, refs = a["labels"], a["per"], a["references"]
    mean = {n: {k: {c: float(np.mean([d[c] for d in per[n][k]])) for c in (*CANDIDATES, "F", "S", "C_dual", "m0")}
                for k in labels} for n in (50, 100)}
    out = {"mean": mean, "tau": {}, "doc_move": {}, "config_move": {}}
    for c in CANDIDATES:
        col = {k: mean[100][k][c] for k in labels}
        out["tau"][c] = {m: tau(col, {k: refs[k][m] for k in labels}, m) for m in REFERENCES}
        out["doc_move"][c] = max(abs(x[c] - y[c]) for k in labels for x, y in zip(per[50][k], per[100][k]))
        out["config_move"][c] = max(abs(mean[50][k][c] - mean[100][k][c]) for k in labels)
    out["ceiling"] = {m: tau({k: 0.0 if k in BLIND else refs[k][m] for k in labels}, {k: refs[k][m] for k in labels}, m)
                      for m in ("B", "F1+-1")}
    return out


def violations(s: dict, c: str, corpus: str) -> list[str]:
    """The protocol's three constraints for candidate ``c`` on one selection corpus."""
    found = []
    if any(s["mean"][100][k][c] != 0.0 for k in BLIND):
        found.append(f"blind!=0 on {corpus}")
    if s["doc_move"][c] >= 0.05:
        found.append(f"per-doc move {s['doc_move'][c]:.3f} on {corpus}")
    if (s["tau"][c]["B"] + s["tau"][c]["F1+-1"]) / 2 < 0.45:
        found.append(f"tau {(s['tau'][c]['B'] + s['tau'][c]['F1+-1']) / 2:.2f} on {corpus}")
    return found


def decide(summaries: dict[str, dict]) -> list[str]:
    """Amendment 2's rule: J and constraints of each candidate, and the decision."""
    rows = {}
    for c in CANDIDATES:
        j = float(np.mean([(summaries[n]["tau"][c]["B"] + summaries[n]["tau"][c]["F1+-1"]) / 2 for n in SELECTION]))
        rows[c] = (j, [v for n in SELECTION for v in violations(summaries[n], c, n)])
    lines = [f"- {c}: J = {j:.3f}; {len(v)} violations: {', '.join(v) or 'none'}" for c, (j, v) in rows.items()]
    base_j, base_v = rows["count_aware"]
    winners = [c for c in CANDIDATES[1:] if rows[c][0] > base_j + 0.01 and len(rows[c][1]) <= len(base_v)]
    if not winners:
        return [*lines, "- decision: no candidate qualifies; the headline stays count_aware"]
    best = max(rows[c][0] for c in winners)
    chosen = next(c for c in winners if rows[c][0] >= best - 0.01)
    return [*lines, f"- decision: {chosen} qualifies (J {rows[chosen][0]:.3f} vs {base_j:.3f})"]


def markdown(corpus: str, s: dict, n_docs: int) -> list[str]:
    lines = ["", f"**{corpus}** ({n_docs} documents; ceiling vs B {s['ceiling']['B']:+.2f}, "
             f"vs F1 ±1 {s['ceiling']['F1+-1']:+.2f})", "",
             "| candidate | vs B | vs F1 ±1 | mean | vs F1 | vs WD | vs Pk | per-doc move | config move |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c in CANDIDATES:
        t = s["tau"][c]
        lines.append(f"| {c} | {t['B']:+.2f} | {t['F1+-1']:+.2f} | {(t['B'] + t['F1+-1']) / 2:+.2f} | {t['F1']:+.2f} "
                     f"| {t['WD']:+.2f} | {t['Pk']:+.2f} | {s['doc_move'][c]:.3f} | {s['config_move'][c]:.3f} |")
    return lines


def descriptive(corpus: str, s: dict, refs: dict) -> list[str]:
    lines = ["", f"*{corpus}*: per configuration (100 restarts)", "",
             "| configuration | boundaries | B | F | S | C_dual | count_aware | dual_aware | dual_only |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for k, m in sorted(s["mean"][100].items(), key=lambda kv: -kv[1]["m0"]):
        lines.append(f"| {k} | {m['m0']:.1f} | {refs[k]['B']:.3f} | {m['F']:.3f} | {m['S']:.3f} | {m['C_dual']:.3f} "
                     f"| {m['count_aware']:+.3f} | {m['dual_aware']:+.3f} | {m['dual_only']:+.3f} |")
    return lines


def size_check(corpus: str, a: dict) -> str:
    """The hypothesis's prediction at document level: over the content-based (configuration,
    document) pairs with boundaries, longer segments go with a larger F - C_dual (tau-b > 0)."""
    pairs = [d for k in a["labels"] if k not in BLIND for d in a["per"][100][k] if d["m0"] > 0]
    families = {"texttiling": "tt_", "c99": "c99_", "u00": "u00"}
    line = f"- {corpus}: tau-b(mean segment length, F - C_dual) over {len(pairs)} pairs " \
           f"{kendall_tau([d['seg_len'] for d in pairs], [d['F'] - d['C_dual'] for d in pairs]):+.2f}"
    for family, prefix in families.items():
        sub = [d for k in a["labels"] if k.startswith(prefix) for d in a["per"][100][k] if d["m0"] > 0]
        line += f"; {family} {kendall_tau([d['seg_len'] for d in sub], [d['F'] - d['C_dual'] for d in sub]):+.2f}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "analyze"))
    parser.add_argument("corpora", nargs="+")
    parser.add_argument("--cache", type=Path, default=Path("/work/results/validation"))
    parser.add_argument("--config", type=Path, default=CONFIG)
    parser.add_argument("--jobs", type=int, default=2, choices=(1, 2))
    args = parser.parse_args()
    if args.command == "run":
        for corpus in args.corpora:
            run(corpus, args.cache, args.jobs, args.config)
        return
    analyses = {n: analyse(n, args.cache) for n in args.corpora}
    summaries = {n: summary(a) for n, a in analyses.items()}
    lines = []
    for n, s in summaries.items():
        lines += markdown(n, s, len(analyses[n]["per"][100][analyses[n]["labels"][0]]))
    if all(n in summaries for n in SELECTION):
        lines += ["", *decide(summaries)]
    lines += ["", *(size_check(n, a) for n, a in analyses.items())]
    for n, s in summaries.items():
        lines += descriptive(n, s, analyses[n]["references"])
    print("\n".join(lines))


if __name__ == "__main__":
    main()
