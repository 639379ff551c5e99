"""TextTiling: our numpy version must give nltk's boundaries (nltk is run inside the tests)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from segmenters.texttiling import (
    TextTiling,
    TextTilingNLTK,
    _depth_scores,
    _smooth,
    join_units,
    normalize_units,
)
from stability.exceptions import InvalidParameterError

SHARED = Path(__file__).resolve().parents[2] / "shared"
NLTK_STOPWORDS = SHARED / "data" / "nltk_data" / "corpora" / "stopwords" / "english"
CHOI = SHARED / "data" / "choi"

FILLER = (
    "the cat dog sat mat caf\u00e9 na\u00efve don't well-known 123 a an of river bank money stock "
    "market fish water tree leaf green blue x-ray it's \u00dcber stra\u00dfe ! , . ; rock music band "
    "guitar song"
).split()
SEPARATORS = [" ", " ", " ", "\t", "  ", "\n", " \r "]

CONFIGS = [
    {},
    {"w": 5, "k": 3},
    {"w": 3, "k": 2, "cutoff_policy": "LC"},
    {"similarity_method": "vocabulary_introduction", "w": 4},
    {"smoothing_width": 0, "w": 4, "k": 4},
    {"smoothing_width": 4, "w": 6},
    {"stopwords": []},
]


def messy_document(rng: np.random.Generator) -> list[str]:
    """Random units with topics, punctuation, digits, non-ASCII, tabs, newlines and empty units."""
    units = []
    n = int(rng.integers(1, 60))
    span = int(rng.integers(3, 10))
    for i in range(n):
        r = rng.random()
        if r < 0.05:
            units.append("")
            continue
        if r < 0.08:
            units.append("  \n ")
            continue
        if r < 0.10:
            units.append("12 34 !!")
            continue
        topic = "bcdf"[(i // span) % 4]
        words = [
            FILLER[int(rng.integers(0, len(FILLER)))] if rng.random() < 0.5 else f"{topic}o{'xyzw'[int(rng.integers(0, 4))]}{topic}"
            for _ in range(int(rng.integers(1, 30)))
        ]
        units.append(SEPARATORS[int(rng.integers(0, len(SEPARATORS)))].join(words))
    return units


def test_normalize_and_join():
    indices, texts = normalize_units(["  a b \n\n c ", "", " \n ", "d\te"])
    assert indices == [0, 3]
    assert texts == ["a b c", "d\te"]
    assert join_units(texts) == "a b c\n\nd\te"


@pytest.mark.parametrize("seed", range(70))
def test_same_boundaries_as_nltk_on_messy_documents(seed):
    rng = np.random.default_rng(seed)
    units = messy_document(rng)
    config = CONFIGS[seed % len(CONFIGS)]
    assert TextTiling(**config)(units) == TextTilingNLTK(**config)(units)


def test_the_messy_documents_do_produce_boundaries():
    # Guards the test above against comparing two empty lists only.
    found = sum(bool(TextTilingNLTK(**CONFIGS[s % len(CONFIGS)])(messy_document(np.random.default_rng(s)))) for s in range(70))
    assert found >= 50


def _long_topical_units(seed, n_units=120):
    rng = np.random.default_rng(seed)
    topics = [[f"{a}{b}{c}" for a in "bcd" for b in "aeiou" for c in "lmnprst"][i::5] for i in range(5)]
    units = []
    for i in range(n_units):
        vocab = topics[(i // 15) % 5]
        units.append(" ".join(
            (FILLER[int(rng.integers(0, 12))] if rng.random() < 0.4 else vocab[int(rng.integers(0, len(vocab)))])
            for _ in range(int(rng.integers(8, 20)))
        ) + " .")
    return units


@pytest.mark.parametrize("seed", range(3))
def test_same_boundaries_as_nltk_with_nltks_stopwords(seed):
    if not NLTK_STOPWORDS.is_file():
        pytest.skip("../shared nltk stopwords not available")
    words = NLTK_STOPWORDS.read_text(encoding="utf-8").split()
    units = _long_topical_units(seed)
    ours = TextTiling(stopwords=words)(units)
    assert ours == TextTilingNLTK(stopwords=words)(units)
    assert len(ours) >= 2


def _read_choi(path: Path) -> list[str]:
    units = []
    for line in path.read_text(encoding="latin-1").splitlines():
        if not line.startswith("==========") and line.strip():
            units.append(line.strip())
    return units


def test_same_boundaries_as_nltk_on_a_sample_of_choi_documents():
    folder = CHOI / "3" / "3-11"
    if not folder.is_dir() or not NLTK_STOPWORDS.is_file():
        pytest.skip("../shared Choi data or nltk stopwords not available")
    words = NLTK_STOPWORDS.read_text(encoding="utf-8").split()
    files = sorted(folder.glob("*.ref"), key=lambda p: int(p.stem))[:12]
    assert files
    for path in files:
        units = _read_choi(path)
        assert TextTiling(stopwords=words)(units) == TextTilingNLTK(stopwords=words)(units), path.name


def test_the_default_reading_is_still_nltks_on_choi_documents():
    # TextTiling took a tokenizer and a stemmer; its defaults ("nltk", no stemming) must read and
    # place boundaries as before, which is as nltk's tokenizer itself (run here as the
    # reference), plain, on the restart path and batched, on Choi's 3-11 set with the project's
    # stopwords (the default of the study reports in docs/validation*.md).
    folder = CHOI / "1" / "3-11"
    if not folder.is_dir():
        pytest.skip("../shared Choi data not available")
    default, spelled = TextTiling(), TextTiling(tokenizer="nltk", stem=False)
    found = 0
    for path in sorted(folder.glob("*.ref"), key=lambda p: int(p.stem))[:6]:
        units = _read_choi(path)
        expected = TextTilingNLTK()(units)
        assert default(units) == spelled(units) == expected, path.name
        assert default.unit_terms(units) == TextTilingNLTK().unit_terms(units)
        orders = np.stack([np.random.default_rng(int(path.stem)).permutation(len(units)) for _ in range(2)])
        state = default.prepare(units)
        assert default.segment_batch(state, orders) == [TextTilingNLTK()([units[i] for i in order]) for order in orders]
        found += bool(expected)
    assert found >= 5


def test_short_documents_give_no_boundaries_instead_of_an_exception():
    for units in ([], [""], ["one unit only, however long it is " * 10], ["a", "b"], ["word " * 30, "word " * 30]):
        assert TextTiling()(units) == []
        assert TextTilingNLTK()(units) == []


def test_empty_units_stay_with_the_segment_before_them():
    units = _long_topical_units(4, n_units=90)
    base = TextTiling()(units)
    assert base
    # insert an empty unit just before the first boundary unit
    b = base[0]
    with_empty = units[:b] + [""] + units[b:]
    shifted = TextTiling()(with_empty)
    assert b + 1 in shifted and b not in shifted
    assert shifted == TextTilingNLTK()(with_empty)


def test_smoothing_matches_nltk():
    from nltk.tokenize.texttiling import smooth

    x = np.random.default_rng(0).random(17)
    for window in (1, 2, 3, 5):
        assert np.array_equal(_smooth(x, window), smooth(x, window_len=window))
    assert np.array_equal(_smooth(x[:3], 3), smooth(x[:3], window_len=3))


def test_depth_scores_match_nltk():
    from nltk.tokenize.texttiling import TextTilingTokenizer

    tokenizer = TextTilingTokenizer(stopwords=[])
    rng = np.random.default_rng(1)
    for size in (3, 4, 5, 12, 40, 77):
        scores = np.round(rng.random(size), 1)  # rounded: plateaus
        expected = tokenizer._depth_scores(list(scores))
        assert np.array_equal(_depth_scores(scores), np.asarray(expected, dtype=float))


def test_parameters_are_checked_and_exposed():
    with pytest.raises(InvalidParameterError):
        TextTiling(w=0)
    with pytest.raises(InvalidParameterError):
        TextTiling(cutoff_policy="MC")
    with pytest.raises(InvalidParameterError):
        TextTilingNLTK(similarity_method="embedding")
    assert TextTiling(k=6).get_params() == {
        "w": 20, "k": 6, "similarity_method": "block_comparison", "stopwords": None,
        "smoothing_width": 2, "smoothing_rounds": 1, "cutoff_policy": "HC", "tokenizer": "nltk", "stem": False,
    }
    with pytest.raises(InvalidParameterError, match="tokenizer"):
        TextTiling(tokenizer="whitespace")
    with pytest.raises(InvalidParameterError, match="stem"):
        TextTiling(stem="klingon")
