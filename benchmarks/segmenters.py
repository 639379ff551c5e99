"""Speed of the built-in segmenters, our TextTiling against nltk's, the fast restart path, memory.

Prints:

1. time per call of every segmenter (with the chunkers whose extra is installed) on Choi's 3-11
   documents (``../shared/data/choi``; skipped if absent) and on synthetic documents of 100 to
   5,000 units (sentences of 8-20 words, half from 36 function words, half from a 60-word
   vocabulary per topic, topics of 10-40 sentences);
2. ``texttiling`` against nltk's ``TextTilingTokenizer`` (``texttiling_nltk``): share of documents
   with identical boundaries and speed ratio, on all Choi 3-11 documents (targets: >= 99 %
   identical, >= 50x faster) and on the synthetic documents up to ``--nltk-max-units``;
3. the fast restart path (``prepare`` once + ``segment_prepared`` per restart) against plain calls
   on the permuted units, checking the outputs are identical (texttiling, c99, u00, embedding,
   cluster);
4. peak memory (``tracemalloc``, which sees numpy's allocations) of one C99 and one U00 call at
   5,000 units.

Run: ``python benchmarks/segmenters.py [--choi-docs 400] [--sizes 100 500 1000 2000 5000]
[--nltk-max-units 1000] [--restarts 20]``. Run it once: it takes several minutes (nltk's
TextTiling is quadratic).
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

# This script is named like the package it measures: keep its own folder off the import path,
# or "import segmenters" (done by the entry points) would find this file.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import numpy as np  # noqa: E402

from stability import get_segmenter  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared"
CHOI = SHARED / "data" / "choi"
SUBSETS = ("1/3-11", "2/3-11", "3/3-11")

FUNCTION_WORDS = (
    "the of and to a in that is was he for it with as his on be at by i this had not are but from "
    "or have an they which one you were her all"
).split()
assert len(FUNCTION_WORDS) == 36


def _word(i: int) -> str:
    consonants, vowels = "bcdfghjklmnpqrstvwxz", "aeiou"
    out = ""
    i += 400
    while i:
        out += consonants[i % 20] + vowels[(i // 20) % 5]
        i //= 100
    return out


def synthetic_document(n_units: int, seed: int = 0) -> tuple[list[str], list[int]]:
    rng = np.random.default_rng(seed)
    units: list[str] = []
    bounds: list[int] = []
    topic = 0
    while len(units) < n_units:
        vocab = [_word(topic * 60 + j) for j in range(60)]
        for _ in range(min(int(rng.integers(10, 41)), n_units - len(units))):
            words = [
                FUNCTION_WORDS[int(rng.integers(0, 36))] if rng.random() < 0.5 else vocab[int(rng.integers(0, 60))]
                for _ in range(int(rng.integers(8, 21)))
            ]
            units.append(" ".join(words) + " .")
        topic += 1
        if len(units) < n_units:
            bounds.append(len(units))
    return units, bounds


def choi_documents(limit: int | None) -> list[tuple[list[str], list[int]]]:
    docs = []
    for subset in SUBSETS:
        for path in sorted((CHOI / subset).glob("*.ref"), key=lambda p: int(p.stem)):
            units, bounds = [], []
            for line in path.read_text(encoding="latin-1").splitlines():
                if line.startswith("=========="):
                    if units and (not bounds or bounds[-1] != len(units)):
                        bounds.append(len(units))
                elif line.strip():
                    units.append(line.strip())
            docs.append((units, [b for b in bounds if 0 < b < len(units)]))
    return docs[:limit] if limit else docs


def segmenter_specs(n_segments: int) -> list[tuple[str, str, dict]]:
    return [
        ("none", "none", {}),
        ("all", "all", {}),
        ("even K", "even", {"n_segments": n_segments}),
        ("random K", "random", {"n_segments": n_segments}),
        ("texttiling", "texttiling", {}),
        ("c99", "c99", {}),
        ("c99 K", "c99", {"n_segments": n_segments}),
        ("u00", "u00", {}),
        ("u00 K", "u00", {"n_segments": n_segments}),
        ("embedding", "embedding", {}),
        ("embedding K", "embedding", {"n_segments": n_segments}),
        ("cluster", "cluster", {}),
        ("cluster K", "cluster", {"n_segments": n_segments}),
        ("fixed_chars", "fixed_chars", {}),
    ] + [(name, name, {}) for name in installed_chunkers()]


def installed_chunkers() -> list[str]:
    """The library chunkers whose optional extra is installed (segmenters/chunkers.py)."""
    names = []
    for name in ("langchain_recursive", "semchunk", "chonkie_recursive"):
        try:
            get_segmenter(name)
        except ImportError:
            continue
        names.append(name)
    return names


def timed(func, *args, repeat: int = 1):
    best = np.inf
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:7.0f}us"
    if seconds < 1:
        return f"{seconds * 1e3:7.1f}ms"
    return f"{seconds:7.2f}s "


def section_choi(docs) -> None:
    print(f"== Time per call on Choi 3-11 ({len(docs)} documents, mean {np.mean([len(u) for u, _ in docs]):.0f} units)")
    for label, name, _ in segmenter_specs(0):  # warm-up: imports (nltk's stemmer), caches
        get_segmenter(name, **({"n_segments": 3} if label.endswith(" K") else {}))(docs[0][0])
    for label, name, _ in segmenter_specs(0):
        total = 0.0
        for units, bounds in docs:
            params = {"n_segments": len(bounds) + 1} if label.endswith(" K") else {}
            seg = get_segmenter(name, **params)
            start = time.perf_counter()
            seg(units)
            total += time.perf_counter() - start
        print(f"  {label:<12} {fmt(total / len(docs))}")


def section_texttiling_vs_nltk_choi(docs) -> None:
    stop_path = SHARED / "data" / "nltk_data" / "corpora" / "stopwords" / "english"
    stopwords = stop_path.read_text(encoding="utf-8").split() if stop_path.is_file() else None
    ours = get_segmenter("texttiling", stopwords=stopwords)
    ref = get_segmenter("texttiling_nltk", stopwords=stopwords)
    same = 0
    t_ours = t_nltk = 0.0
    for units, _ in docs:
        a, x = timed(ours, units)
        b, y = timed(ref, units)
        t_ours += a
        t_nltk += b
        same += list(x) == list(y)
    print(f"== TextTiling vs nltk on Choi 3-11 ({len(docs)} documents, "
          f"{'nltk' if stopwords else 'project'} stopwords)")
    print(f"  identical boundaries: {same}/{len(docs)} ({100.0 * same / len(docs):.1f} %)   target >= 99 %")
    print(f"  time per document: ours {fmt(t_ours / len(docs))}, nltk {fmt(t_nltk / len(docs))}, "
          f"ratio {t_nltk / t_ours:.0f}x   target >= 50x")


def section_synthetic(sizes, nltk_max: int) -> None:
    print("== Time per call on synthetic documents (best of 3 below 2,000 units, else one call)")
    labels = [s[0] for s in segmenter_specs(0)] + ["tt_nltk", "nltk/ours", "same"]
    print("  " + f"{'units':>6} " + " ".join(f"{lab:>10}" for lab in labels))
    for n in sizes:
        units, bounds = synthetic_document(n, seed=n)
        repeat = 3 if n < 2000 else 1
        cells = []
        tt_time = tt_out = None
        for label, name, params in segmenter_specs(len(bounds) + 1):
            seg = get_segmenter(name, **params)
            seconds, out = timed(seg, units, repeat=repeat)
            cells.append(fmt(seconds))
            if label == "texttiling":
                tt_time, tt_out = seconds, list(out)
        if n <= nltk_max:
            seconds, out = timed(get_segmenter("texttiling_nltk"), units)
            cells += [fmt(seconds), f"{seconds / tt_time:9.0f}x", "yes" if list(out) == tt_out else "NO"]
        else:
            cells += ["-", "-", "-"]
        print("  " + f"{n:>6} " + " ".join(f"{c:>10}" for c in cells))


def section_fast_path(choi_docs, restarts: int) -> None:
    print(f"== Fast restart path vs plain calls ({restarts} restarts per document, outputs compared)")
    rng = np.random.default_rng(0)
    corpora = []
    if choi_docs:
        corpora.append((f"Choi 3-11 ({len(choi_docs[:20])} docs)", choi_docs[:20]))
    corpora.append(("synthetic 1,000 units", [synthetic_document(1000, seed=7)]))
    for corpus_label, docs in corpora:
        for label, name, _ in segmenter_specs(0):
            if name not in ("texttiling", "c99", "u00", "embedding", "cluster"):
                continue
            plain = fast = 0.0
            identical = True
            for units, bounds in docs:
                params = {"n_segments": len(bounds) + 1} if label.endswith(" K") else {}
                seg = get_segmenter(name, **params)
                orders = []
                # within-segment permutations of the reference segmentation, as the harness does
                edges = [0, *bounds, len(units)]
                for _ in range(restarts):
                    orders.append(np.concatenate([rng.permutation(np.arange(a, b)) for a, b in zip(edges, edges[1:])]))
                start = time.perf_counter()
                plain_out = [list(seg([units[i] for i in order])) for order in orders]
                plain += time.perf_counter() - start
                start = time.perf_counter()
                state = seg.prepare(units)
                fast_out = [list(seg.segment_prepared(state, order)) for order in orders]
                fast += time.perf_counter() - start
                identical &= plain_out == fast_out
            print(f"  {corpus_label:<22} {label:<11} plain {fmt(plain)}  fast {fmt(fast)}  "
                  f"ratio {plain / fast:5.2f}x  identical: {'yes' if identical else 'NO'}")


def section_memory(n_units: int) -> None:
    print(f"== Peak memory of one call at {n_units} units (tracemalloc)")
    units, bounds = synthetic_document(n_units, seed=1)
    for label, name, params in segmenter_specs(len(bounds) + 1):
        if name not in ("c99", "u00"):
            continue
        seg = get_segmenter(name, **params)
        tracemalloc.start()
        start = time.perf_counter()
        seg(units)
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  {label:<8} peak {peak / 2**20:8.0f} MiB   ({seconds:.1f} s under tracemalloc)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--choi-docs", type=int, default=400)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 1000, 2000, 5000])
    parser.add_argument("--nltk-max-units", type=int, default=1000)
    parser.add_argument("--restarts", type=int, default=20)
    parser.add_argument("--memory-units", type=int, default=5000)
    args = parser.parse_args(argv)
    docs = choi_documents(args.choi_docs) if CHOI.is_dir() else []
    if docs:
        section_choi(docs[: min(len(docs), 100)])
        section_texttiling_vs_nltk_choi(docs)
    else:
        print(f"Choi data not found at {CHOI}: Choi sections skipped")
    section_synthetic(args.sizes, args.nltk_max_units)
    section_fast_path(docs, args.restarts)
    section_memory(args.memory_units)
    return 0


if __name__ == "__main__":
    sys.exit(main())
