"""Shared text preprocessing of the lexical segmenters (C99, U00).

A :class:`Preprocessor` turns each unit into a list of terms: tokenize, lower-case, drop
stopwords, Porter-stem (nltk's ``PorterStemmer``, which needs no data). Every step is a parameter,
so a report can print exactly what was done:

``tokenizer``
    ``"words"`` (default): maximal runs of letters (any script), allowing an inner hyphen or
    apostrophe (``"well-known"``, ``"don't"``); digits and punctuation are dropped. Works on raw
    text.
    ``"choi"``: Choi's (2000) rule for pre-tokenized corpora such as his benchmark: split on
    whitespace and keep a token only if every character is a letter or ``-``.
``lowercase``
    Lower-case before tokenizing (default true).
``stopwords``
    A list of words to drop, compared after lower-casing and before stemming. ``None`` means the
    project's list (:mod:`segmenters.stopwords`); ``[]`` keeps every word.
``stem``
    Porter-stem the remaining words (default true). The original algorithm
    (``PorterStemmer.ORIGINAL_ALGORITHM``) is used, as in Choi's and Utiyama's experiments.

Terms do not depend on the order of the units, which is what the segmenters' fast restart path
relies on: :meth:`Preprocessor.encode` is computed once per document and reused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from stability.exceptions import InvalidParameterError

from .stopwords import ENGLISH_STOPWORDS

__all__ = [
    "Preprocessor",
    "EncodedUnits",
    "TOKENIZERS",
    "count_matrix",
    "resolve_stopwords",
    "ragged_take",
]

TOKENIZERS = ("words", "choi")

_WORD_RE = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")
# Choi: a whitespace-delimited token made only of letters and hyphens
_CHOI_TOKEN_RE = re.compile(r"(?<!\S)(?:[^\W\d_]|-)+(?!\S)")

_STEMMER = None
_STEM_CACHE: dict[str, str] = {}
_STEM_CACHE_LIMIT = 1_000_000


def _stem(word: str) -> str:
    global _STEMMER
    cached = _STEM_CACHE.get(word)
    if cached is not None:
        return cached
    if _STEMMER is None:
        from nltk.stem.porter import PorterStemmer

        _STEMMER = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)
    stemmed = _STEMMER.stem(word, to_lowercase=False)
    if len(_STEM_CACHE) >= _STEM_CACHE_LIMIT:
        _STEM_CACHE.clear()
    _STEM_CACHE[word] = stemmed
    return stemmed


def resolve_stopwords(stopwords: Iterable[str] | None, name: str = "stopwords") -> frozenset[str]:
    """``None`` -> the project's list; otherwise the given words (strings) as a frozenset."""
    if stopwords is None:
        return ENGLISH_STOPWORDS
    if isinstance(stopwords, (str, bytes)):
        raise InvalidParameterError.make(name, "a list of words (not a single string), or None", stopwords)
    words = frozenset(stopwords)
    for word in words:
        if not isinstance(word, str):
            raise InvalidParameterError.make(name, "a list of strings", word)
    return words


@dataclass(frozen=True)
class EncodedUnits:
    """Terms of every unit as integer ids, flattened.

    ``ids[offsets[i]:offsets[i+1]]`` are the term ids of unit ``i`` in text order;
    ``n_types`` is the number of distinct terms (ids are ``0 .. n_types-1``).
    """

    ids: np.ndarray
    offsets: np.ndarray
    n_types: int

    @property
    def n_units(self) -> int:
        return len(self.offsets) - 1

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def reorder(self, order: np.ndarray) -> "EncodedUnits":
        """The same units in the order ``order`` (``units[order[0]], units[order[1]], ...``)."""
        ids, offsets = ragged_take(self.ids, self.offsets, order)
        return EncodedUnits(ids, offsets, self.n_types)


def ragged_take(flat: np.ndarray, offsets: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenate the rows ``flat[offsets[i]:offsets[i+1]]`` for ``i`` in ``order``.

    Returns the new flat array and its offsets. Vectorized: no Python loop over rows.
    """
    order = np.asarray(order, dtype=np.intp)
    lengths = (offsets[1:] - offsets[:-1])[order]
    new_offsets = np.zeros(len(order) + 1, dtype=np.intp)
    np.cumsum(lengths, out=new_offsets[1:])
    total = int(new_offsets[-1])
    if total == 0:
        return flat[:0].copy(), new_offsets
    # index of element j of the output: start of its source row + its rank inside the row
    shift = np.repeat(offsets[:-1][order] - new_offsets[:-1], lengths)
    index = shift + np.arange(total, dtype=np.intp)
    return flat[index], new_offsets


class Preprocessor:
    """Tokenize, lower-case, remove stopwords and stem units (see the module docstring)."""

    def __init__(
        self,
        tokenizer: str = "words",
        lowercase: bool = True,
        stopwords: Iterable[str] | None = None,
        stem: bool = True,
    ) -> None:
        if tokenizer not in TOKENIZERS:
            raise InvalidParameterError.make("tokenizer", f"one of {TOKENIZERS}", tokenizer)
        self.tokenizer = tokenizer
        self.lowercase = bool(lowercase)
        self.stopwords = resolve_stopwords(stopwords)
        self.stem = bool(stem)

    def tokens(self, unit: str) -> list[str]:
        """The words of one unit, before stopword removal and stemming."""
        text = unit.lower() if self.lowercase else unit
        if self.tokenizer == "words":
            return _WORD_RE.findall(text)
        return _CHOI_TOKEN_RE.findall(text)

    def terms(self, unit: str) -> list[str]:
        """The terms of one unit: tokens without stopwords, stemmed if asked."""
        stop = self.stopwords
        words = [t for t in self.tokens(unit) if t not in stop]
        if self.stem:
            words = [_stem(t) for t in words]
        return words

    def encode(self, units: Sequence[str]) -> EncodedUnits:
        """Term ids of every unit (ids in order of first appearance)."""
        vocabulary: dict[str, int] = {}
        ids: list[int] = []
        offsets = [0]
        for unit in units:
            for term in self.terms(unit):
                ids.append(vocabulary.setdefault(term, len(vocabulary)))
            offsets.append(len(ids))
        return EncodedUnits(
            np.asarray(ids, dtype=np.intp), np.asarray(offsets, dtype=np.intp), len(vocabulary)
        )


def count_matrix(encoded: EncodedUnits, columns: np.ndarray | None = None) -> np.ndarray:
    """Dense ``n_units x n_types`` term counts (float64), optionally only some columns."""
    n = encoded.n_units
    rows = np.repeat(np.arange(n), encoded.lengths)
    if columns is None:
        width = encoded.n_types
        cols = encoded.ids
        keep = slice(None)
    else:
        remap = np.full(encoded.n_types, -1, dtype=np.intp)
        remap[columns] = np.arange(len(columns))
        cols = remap[encoded.ids]
        keep = cols >= 0
        width = len(columns)
        rows = rows[keep]
        cols = cols[keep]
    flat = np.bincount(rows * width + cols, minlength=n * width).astype(np.float64)
    return flat.reshape(n, width)
