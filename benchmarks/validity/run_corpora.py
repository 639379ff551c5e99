"""Run the 16 configurations of configs/choi-validation.toml on one corpus (issue 11 study).

Usage (from the repository root)::

    python benchmarks/validity/run_corpora.py choi      # Choi 3-11 quick subset (100 documents)
    python benchmarks/validity/run_corpora.py wiki50    # Wiki-50, level 1-2 headers
    python benchmarks/validity/run_corpora.py elements --limit 40  # Elements, first 40 documents
    python benchmarks/validity/run_corpora.py choi --tolerance 1   # restarts matched within 1 unit

Results go to ``results/validity/<corpus>/`` (``results/validity-tol<T>/<corpus>/`` with a
tolerance T > 0) as JSON-lines caches (resumable). Configurations told
the number of segments (``n_segments`` in the config) get each document's reference count: the
documents are grouped by that count and those configurations run once per group.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from stability import Document, evaluate, read_corpus
from stability.config import load_config
from stability.registry import get_segmenter
from stability.segmentation import Segmentation
from stability.validation import quick_subset

ROOT = Path(__file__).resolve().parents[2]
DATA = Path("/work/shared/data") if Path("/work/shared/data").is_dir() else ROOT.parent / "shared" / "data"
CONFIG = ROOT / "configs" / "choi-validation.toml"
RESULTS = ROOT / "results" / "validity"


def results_folder(tolerance: int) -> Path:
    """Where the runs at ``tolerance`` go (the restarts do not depend on it, only their matching)."""
    return RESULTS if tolerance == 0 else RESULTS.with_name(f"validity-tol{tolerance}")


def read_elements(folder: Path) -> list[Document]:
    """Chen et al.'s format: one paragraph a line in ``.text``, ``doc,paragraph,title`` in
    ``.segmenttitles`` aligned line by line; a boundary where the title changes in a document."""
    texts = (folder / "wikielements.text").read_text(encoding="utf-8").splitlines()
    titles = (folder / "wikielements.segmenttitles").read_text(encoding="utf-8").splitlines()
    if len(texts) != len(titles):
        raise ValueError(f"{folder}: {len(texts)} paragraphs but {len(titles)} title lines")
    docs: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for number, (text, line) in enumerate(zip(texts, titles), 1):
        doc, _paragraph, title = line.split(",", 2)
        docs[doc].append((text, title))
    out = []
    for doc_id, rows in docs.items():
        bounds = [i for i in range(1, len(rows)) if rows[i][1] != rows[i - 1][1]]
        out.append(Document(doc_id, tuple(t for t, _ in rows), (Segmentation(bounds, len(rows)),)))
    return out


def corpus(name: str) -> list[Document]:
    if name == "choi":  # the config's reader (unique ids across the three sets), quick subset
        return quick_subset(list(load_config(CONFIG).documents()))
    if name == "wiki50":
        return list(read_corpus(DATA / "wiki50", format="wiki", levels="1-2"))
    if name == "elements":
        return read_elements(DATA / "elements")
    raise SystemExit(f"unknown corpus {name!r}: expected choi, wiki50 or elements")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("--restarts", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, help="keep the first LIMIT documents in corpus order")
    parser.add_argument("--tolerance", type=int, default=0, choices=range(0, 4), metavar="{0..3}",
                        help="units within which a restart's boundary matches an initial one")
    args = parser.parse_args()
    experiment = load_config(CONFIG)
    documents = corpus(args.corpus)[:args.limit]
    out = results_folder(args.tolerance) / args.corpus
    out.mkdir(parents=True, exist_ok=True)
    run = {"n_restarts": args.restarts, "seed": 0, "shuffle_control": True, "n_jobs": args.jobs,
           "tolerance": args.tolerance}
    metrics = experiment.metric_options()  # analyze.py recomputes the references it compares with
    fixed = {k: s for k, s in experiment.segmenters.items() if "n_segments" not in s}
    known = {k: s for k, s in experiment.segmenters.items() if "n_segments" in s}
    built = {label: get_segmenter(s.get("segmenter", label), **{k: v for k, v in s.items() if k != "segmenter"})
             for label, s in fixed.items()}
    evaluate(built, documents, output=out / "fixed.jsonl", resume=True, metrics=metrics, progress=False,
             block_size=5, **run)
    groups: dict[int, list[Document]] = defaultdict(list)
    for d in documents:
        groups[len(d.references[0].boundaries) + 1].append(d)
    for count, docs in sorted(groups.items()):
        built = {label: get_segmenter(s["segmenter"], **{**{k: v for k, v in s.items() if k != "segmenter"},
                                                          "n_segments": count})
                 for label, s in known.items()}
        evaluate(built, docs, output=out / f"known_{count}.jsonl", resume=True, metrics=metrics,
                 progress=False, **run)
        print(f"{args.corpus}: known count {count} done ({len(docs)} documents)", flush=True)
    print(f"{args.corpus}: done", flush=True)


if __name__ == "__main__":
    main()
