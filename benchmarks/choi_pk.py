"""Reproduce Choi's (2000) published Pk on his standard 3-11 set with the built-in segmenters.

Reads ``../shared/data/choi`` (the 400 documents ``1/3-11``, ``2/3-11``, ``3/3-11``; skips cleanly
if absent) and prints, per segmenter, our Pk beside Choi's published value (``Table.txt``, codes
in ``experiment code.txt``) and Utiyama & Isahara's (2001) for U00.

Pk is computed two ways, both with ``k`` = half the mean reference segment length of each
document (rounded half up, as ``Math.round`` in Choi's code):

* **sentence level**: units are the sentences (the project's convention);
* **word level**: Choi's own evaluation (``JBeeferman``: its ``SegmentedText`` records topic
  boundaries as *word* offsets and its ``computeK`` takes half the mean segment length *in words*),
  with words = runs of characters above ``0x20`` as Choi's tokenizer reads them. Long sentences
  weigh more, which changes the values by up to 0.03: this, not the window details, is the main
  difference between Choi's numbers and a sentence-level Pk.

Choi's "regular chunks" baseline (code 29, ``bin/simRegular``: a boundary every
``int(n_sentences / n)`` sentences, Perl's ``%`` truncating the float interval, so a document can get
one more, shorter segment) is not ``even`` with the known count (boundaries at
``floor(j n / K)``, exactly ``K`` segments of near-equal size): both are reported.

TextTiling: nltk's ``TextTilingTokenizer`` (through ``texttiling_nltk``) and ours (``texttiling``)
with nltk's English stopword list (from ``../shared/data/nltk_data`` when present, else the
project's list), which must agree document by document; Hearst's original C program (code 27) is
Choi's 0.46 and is a different implementation.

Run: ``python benchmarks/choi_pk.py [--limit N] [--no-nltk]`` (the full set takes about two minutes,
most of it nltk's TextTiling).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

# benchmarks/segmenters.py would shadow the ``segmenters`` package: keep this folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import numpy as np  # noqa: E402

from segmenters.baselines import AllBoundaries, Even, NoBoundaries  # noqa: E402
from segmenters.c99 import C99  # noqa: E402
from segmenters.chunkers import FixedChars  # noqa: E402
from segmenters.cluster import Cluster  # noqa: E402
from segmenters.embedding import Embedding, LSAEncoder  # noqa: E402
from segmenters.texttiling import TextTiling, TextTilingNLTK  # noqa: E402
from segmenters.u00 import U00  # noqa: E402
from stability.segmentation import Segmentation  # noqa: E402

try:
    from stability.metrics import pk as _project_pk
except ImportError:  # pragma: no cover - metrics not available: nltk's pk is identical for explicit k
    _project_pk = None

SHARED = Path(__file__).resolve().parents[2] / "shared"
CHOI = SHARED / "data" / "choi"
NLTK_STOPWORDS = SHARED / "data" / "nltk_data" / "corpora" / "stopwords" / "english"
SUBSETS = ("1/3-11", "2/3-11", "3/3-11")
CHOI_WORD = re.compile(r"[^\x00-\x20]+")

# (label, published Pk on 3-11, source)
PUBLISHED = {
    "none": (0.46, "Choi Table.txt code 1"),
    "all": (0.54, "Choi code 2"),
    "regular chunks": (0.45, "Choi code 29"),
    "even (known K)": (0.45, "Choi code 29 (closest)"),
    "c99 automatic": (0.13, "Choi code 26"),
    "c99 known K": (0.12, "Choi code 25"),
    "u00 automatic": (0.10, "Utiyama & Isahara 2001 (0.098)"),
    "u00 known K": (0.09, "Utiyama & Isahara 2001 (0.088)"),
    "texttiling_nltk": (0.46, "Choi code 27 (Hearst's C)"),
    "texttiling": (0.46, "Choi code 27 (Hearst's C)"),
    "embedding auto": (None, "LSA on the document, C99 scoring (no published value)"),
    "embedding K": (None, "LSA on the document, C99 scoring (no published value)"),
    "embedding depth": (None, "LSA on the document, depth scoring (no published value)"),
    "embedding depth K": (None, "LSA on the document, depth scoring (no published value)"),
    "cluster auto": (None, "ClassStruggle's outline, our design (no published value)"),
    "cluster K": (None, "ClassStruggle's outline, our design (no published value)"),
    "fixed_chars": (None, "1000-character chunks (no published value)"),
}
# Chunkers from optional extras (label, registered name, parameters): run when installed.
CHUNKERS = [
    ("langchain_recursive", "langchain_recursive", {}),
    ("langchain_character", "langchain_character", {}),
    ("semchunk", "semchunk", {}),
    ("chonkie_recursive", "chonkie_recursive", {}),
    ("chonkie_sentence", "chonkie_sentence", {}),
]
TOLERANCE = {"none": 0.015, "all": 0.015, "c99 automatic": 0.02, "c99 known K": 0.02,
             "u00 automatic": 0.03, "u00 known K": 0.03}


def read_document(path: Path) -> tuple[list[str], list[int]]:
    """Sentences (one per line) and reference boundaries of one Choi ``.ref`` file."""
    units: list[str] = []
    boundaries: list[int] = []
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith("=========="):
            if units and (not boundaries or boundaries[-1] != len(units)):
                boundaries.append(len(units))
        elif line.strip():
            units.append(line.strip())
    return units, [b for b in boundaries if 0 < b < len(units)]


def load_corpus(limit: int | None) -> list[tuple[str, list[str], list[int]]]:
    docs = []
    for subset in SUBSETS:
        folder = CHOI / subset
        for path in sorted(folder.glob("*.ref"), key=lambda p: int(p.stem)):
            units, bounds = read_document(path)
            docs.append((f"{subset}/{path.name}", units, bounds))
    return docs[:limit] if limit else docs


def half_mean(total: int, segments: int) -> int:
    return max(1, int(np.floor(total / segments / 2.0 + 0.5)))


def pk_value(reference: Segmentation, hypothesis: Segmentation, k: int) -> float:
    k = min(k, reference.n_units - 1)
    if _project_pk is not None:
        return float(_project_pk(reference, hypothesis, k=k))
    from nltk.metrics.segmentation import pk

    return float(pk(reference.gaps, hypothesis.gaps, k=k, boundary="1"))


def sentence_pk(units, reference, hypothesis) -> float:
    n = len(units)
    return pk_value(Segmentation(reference, n), Segmentation(hypothesis, n), half_mean(n, len(reference) + 1))


def word_pk(units, reference, hypothesis) -> float:
    lengths = [len(CHOI_WORD.findall(u)) for u in units]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(int)
    total = int(offsets[-1])

    def words(bounds):
        return Segmentation(sorted({int(offsets[b]) for b in bounds if 0 < offsets[b] < total}), total)

    return pk_value(words(reference), words(hypothesis), half_mean(total, len(reference) + 1))


def available_chunkers() -> list:
    """Runs for the chunkers whose extra is installed (the others are named and skipped)."""
    from stability import get_segmenter

    runs = []
    for label, name, params in CHUNKERS:
        try:
            segmenter = get_segmenter(name, **params)
        except ImportError as exc:
            print(f"{label}: skipped ({exc})")
            continue
        PUBLISHED[label] = (None, f"{segmenter!r} (no published value)")
        runs.append((label, lambda K, segmenter=segmenter: segmenter))
    return runs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N documents")
    parser.add_argument("--no-nltk", action="store_true", help="skip nltk's TextTiling (slow)")
    args = parser.parse_args(argv)
    if not CHOI.is_dir():
        print(f"skipped: {CHOI} not found")
        return 0
    docs = load_corpus(args.limit)
    if NLTK_STOPWORDS.is_file():
        tt_stopwords = NLTK_STOPWORDS.read_text(encoding="utf-8").split()
        tt_note = "nltk's English stopwords"
    else:
        tt_stopwords = None
        tt_note = "the project's stopwords (nltk's list not found)"
    mean_units = np.mean([len(u) for _, u, _ in docs])
    print(f"Choi 3-11: {len(docs)} documents, {mean_units:.1f} sentences on average")
    print(f"C99, U00, embedding (LSA) and cluster: tokenizer='choi', the project's stopwords, Porter stemming. "
          f"TextTiling: {tt_note}.")
    print(f"Pk from {'stability.metrics.pk' if _project_pk else 'nltk.metrics.segmentation.pk'}\n")

    lsa = LSAEncoder(tokenizer="choi")  # the embedding and cluster segmenters' default encoders,
    lsa5 = LSAEncoder(n_components=5, tokenizer="choi")  # with Choi's tokenization
    runs = [
        ("none", lambda K: NoBoundaries()),
        ("all", lambda K: AllBoundaries()),
        ("even (known K)", lambda K: Even(n_segments=K)),
        ("regular chunks", None),  # Choi's simRegular, built per document below
        ("c99 automatic", lambda K: C99(tokenizer="choi")),
        ("c99 known K", lambda K: C99(tokenizer="choi", n_segments=K)),
        ("u00 automatic", lambda K: U00(tokenizer="choi")),
        ("u00 known K", lambda K: U00(tokenizer="choi", n_segments=K)),
        ("texttiling", lambda K: TextTiling(stopwords=tt_stopwords)),
        ("embedding auto", lambda K: Embedding(embed=lsa)),
        ("embedding K", lambda K: Embedding(embed=lsa, n_segments=K)),
        ("embedding depth", lambda K: Embedding(embed=lsa, method="depth")),
        ("embedding depth K", lambda K: Embedding(embed=lsa, method="depth", n_segments=K)),
        ("cluster auto", lambda K: Cluster(embed=lsa5)),
        ("cluster K", lambda K: Cluster(embed=lsa5, n_segments=K)),
        ("fixed_chars", lambda K: FixedChars()),
    ]
    runs += available_chunkers()
    if not args.no_nltk:
        runs.append(("texttiling_nltk", lambda K: TextTilingNLTK(stopwords=tt_stopwords)))

    outputs: dict[str, list[list[int]]] = {}
    rows = []
    for label, make in runs:
        sentence, word, hyps = [], [], []
        elapsed = 0.0
        for _, units, bounds in docs:
            K = len(bounds) + 1
            if make is None:
                seg = Even(segment_length=max(1, len(units) // K))
            else:
                seg = make(K)
            start = time.perf_counter()
            hyp = sorted(seg(units))
            elapsed += time.perf_counter() - start
            hyps.append(hyp)
            sentence.append(sentence_pk(units, bounds, hyp))
            word.append(word_pk(units, bounds, hyp))
        elapsed /= len(docs)
        outputs[label] = hyps
        rows.append((label, float(np.mean(sentence)), float(np.mean(word)), elapsed))

    print(f"{'segmenter':<20} {'published':>9}  {'Pk word':>8} {'diff':>6}  {'Pk sent':>8} {'diff':>6}  {'target':>7}  {'s/doc':>7}  source")
    for label, p_sent, p_word, elapsed in rows:
        pub, source = PUBLISHED[label]
        if pub is None:
            print(f"{label:<20} {'-':>9}  {p_word:>8.4f} {'-':>6}  {p_sent:>8.4f} {'-':>6}  {'':>7}  {elapsed:>7.4f}  {source}")
            continue
        tol = TOLERANCE.get(label)
        verdict = "" if tol is None else ("ok" if abs(p_word - pub) <= tol else "MISSED") + f" {tol}"
        print(f"{label:<20} {pub:>9.2f}  {p_word:>8.4f} {p_word - pub:>+6.3f}  {p_sent:>8.4f} {p_sent - pub:>+6.3f}  {verdict:>7}  {elapsed:>7.4f}  {source}")
    if "texttiling_nltk" in outputs:
        same = sum(a == b for a, b in zip(outputs["texttiling"], outputs["texttiling_nltk"]))
        t_ours = next(r[3] for r in rows if r[0] == "texttiling")
        t_nltk = next(r[3] for r in rows if r[0] == "texttiling_nltk")
        print(f"\nTextTiling vs nltk: identical boundaries on {same}/{len(docs)} documents "
              f"({100.0 * same / len(docs):.1f} %), {t_nltk / t_ours:.0f}x faster")
    print("\n'diff' is ours minus published; targets apply to the word-level value (Choi's protocol).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
