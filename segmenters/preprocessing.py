"""Shared text preprocessing of the lexical segmenters (C99, U00).

A :class:`Preprocessor` turns each unit into a list of terms: tokenize, lower-case, drop
stopwords, stem (nltk's ``PorterStemmer`` or one of its Snowball stemmers, which need no data).
Every step is a parameter, so a report can print exactly what was done:

``tokenizer``
    ``"words"`` (default): maximal runs of letters, allowing an inner hyphen or apostrophe
    (``"well-known"``, ``"don't"``); digits and punctuation are dropped. Works on raw text in
    scripts that put spaces between words and need no combining marks (Latin, Cyrillic, Greek,
    Hangul...): a combining mark ends a word (Devanagari or Thai vowel signs, Arabic vowel marks,
    accents written as separate characters), and a run of Chinese or Japanese characters, written
    without spaces, is one word, often the whole clause.
    ``"unicode"``: for text in any script: the text is put in Unicode's composed form (NFC), a
    word's combining marks stay in it, and every run of Chinese or Japanese characters (Han,
    Hiragana, Katakana) gives its overlapping character bigrams (``"天气预报"`` -> ``"天气"``,
    ``"气预"``, ``"预报"``; a lone character is its own term), a common stand-in for a word
    segmenter. Thai, Lao, Khmer and Burmese, also written without spaces, are not cut: give them
    with spaces between words.
    ``"choi"``: Choi's (2000) rule for pre-tokenized corpora such as his benchmark: split on
    whitespace and keep a token only if every character is a letter or ``-``.
``lowercase``
    Lower-case before tokenizing (default true).
``stopwords``
    A list of words to drop, compared after lower-casing and before stemming. ``None`` means the
    project's list (:mod:`segmenters.stopwords`), which is English; ``[]`` keeps every word. For
    another language give that language's function words, or ``"nltk:german"`` (any language of
    nltk's stopword lists, once they are downloaded: ``python -m nltk.downloader stopwords``).
``stem``
    ``True`` (default): Porter-stem the remaining words with the original algorithm
    (``PorterStemmer.ORIGINAL_ALGORITHM``), as in Choi's and Utiyama's experiments; it is meant
    for English. ``False``: no stemming. A language name of :func:`stemmer_languages`
    (``"german"``, ``"french"``, ``"spanish"``, ``"russian"``, ``"arabic"``...): nltk's Snowball
    stemmer for that language (it lower-cases the words it stems).

Terms do not depend on the order of the units, which is what the segmenters' fast restart path
relies on: :meth:`Preprocessor.encode` is computed once per document and reused.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from stability.exceptions import InvalidParameterError, InvalidTypeError

from .stopwords import ENGLISH_STOPWORDS

__all__ = [
    "Preprocessor",
    "EncodedUnits",
    "TOKENIZERS",
    "check_stem",
    "stemmer_languages",
    "count_matrix",
    "resolve_stopwords",
    "stopwords_language",
    "stopwords_param",
    "NLTK_STOPWORDS_PREFIX",
    "ragged_take",
]

TOKENIZERS = ("words", "unicode", "choi")

_WORD_RE = re.compile(r"[^\W\d_]+(?:['\u2019\-][^\W\d_]+)*")
# Choi: a whitespace-delimited token made only of letters and hyphens
_CHOI_TOKEN_RE = re.compile(r"(?<!\S)(?:[^\W\d_]|-)+(?!\S)")
# Chinese and Japanese characters: Hiragana, Katakana (with its prolonged sound mark), the
# ideographic iteration and closing marks, Han (unified, extension A, compatibility, and the
# supplementary planes' extensions) and half-width Katakana.
_CJK = ("\u3005-\u3007\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
        "\uff66-\uff9f\U00020000-\U0003134f")
_CJK_SPLIT = re.compile(f"([{_CJK}]+)")

_STEM_CACHE_LIMIT = 1_000_000


def stemmer_languages() -> tuple[str, ...]:
    """The languages ``stem`` may name: those of nltk's ``SnowballStemmer`` (it needs no data)."""
    from nltk.stem.snowball import SnowballStemmer

    return tuple(SnowballStemmer.languages)


def check_stem(stem: bool | str, name: str = "stem") -> bool | str:
    """``stem`` if it is ``True``, ``False`` or a language of :func:`stemmer_languages`.

    Examples
    --------
    >>> check_stem("german")
    'german'
    >>> check_stem("deutsch")
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: stem must be true (Porter, for English), false (no stemming) or a language of nltk's Snowball stemmers: 'arabic', 'danish', 'dutch', 'english', 'finnish', 'french', 'german', 'hungarian', 'italian', 'norwegian', 'porter', 'portuguese', 'romanian', 'russian', 'spanish', 'swedish'; received 'deutsch'
    """
    if isinstance(stem, bool):
        return stem
    languages = stemmer_languages()
    if isinstance(stem, str) and stem in languages:
        return stem
    listed = ", ".join(map(repr, languages))
    raise InvalidParameterError.make(
        name, f"true (Porter, for English), false (no stemming) or a language of nltk's Snowball stemmers: {listed}",
        stem)


@functools.cache
def _stemmer(stem: bool | str) -> Callable[[str], str]:
    """The stemming function of a checked ``stem`` value (one per value and process), cached per word."""
    if stem is True:
        from nltk.stem.porter import PorterStemmer

        porter = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)

        def base(word: str) -> str:
            return porter.stem(word, to_lowercase=False)
    else:
        from nltk.stem.snowball import SnowballStemmer

        base = SnowballStemmer(stem).stem
    cache: dict[str, str] = {}

    def stem_word(word: str) -> str:
        stemmed = cache.get(word)
        if stemmed is None:
            stemmed = base(word)
            if len(cache) >= _STEM_CACHE_LIMIT:
                cache.clear()
            cache[word] = stemmed
        return stemmed

    return stem_word


@functools.cache
def _mark_class() -> str:
    """The combining marks (categories Mn, Mc, Me) as the ranges of a regex character class,
    built on first use from Python's Unicode database."""
    ranges: list[str] = []
    start: int | None = None
    previous = -2  # the last mark seen; -2 is next to no code point
    for code in range(sys.maxunicode + 1):
        if unicodedata.category(chr(code))[0] == "M":
            if code == previous + 1:
                previous = code
                continue
            if start is not None:
                ranges.append(_char_range(start, previous))
            start = previous = code
    assert start is not None  # Unicode has combining marks
    ranges.append(_char_range(start, previous))
    return "".join(ranges)


@functools.cache
def _unicode_word_re() -> re.Pattern:
    """Words of any script: a letter, then letters and combining marks, with an inner hyphen or
    apostrophe."""
    body = rf"(?:[^\W\d_]|[{_mark_class()}])*"
    return re.compile(rf"[^\W\d_]{body}(?:['\u2019\-][^\W\d_]{body})*")


def _char_range(first: int, last: int) -> str:
    return re.escape(chr(first)) if first == last else f"{re.escape(chr(first))}-{re.escape(chr(last))}"


def _unicode_tokens(text: str) -> list[str]:
    """The ``"unicode"`` tokenizer (see the module docstring)."""
    return [token for token, _ in _unicode_spans(unicodedata.normalize("NFC", text))]


def _unicode_spans(text: str) -> list[tuple[str, int]]:
    """The ``"unicode"`` tokens of ``text``, already in composed form (NFC), each with the offset
    where it ends in ``text``."""
    spans: list[tuple[str, int]] = []
    for match in _unicode_word_re().finditer(text):
        word = match.group()
        pieces = _CJK_SPLIT.split(word)
        if len(pieces) == 1:
            spans.append((word, match.end()))
            continue
        at = match.start()
        for k, piece in enumerate(pieces):
            if k % 2 == 0:  # outside a run of Chinese or Japanese characters
                spans.extend((m.group(), at + m.end()) for m in _WORD_RE.finditer(piece))
            elif len(piece) == 1:
                spans.append((piece, at + 1))
            else:
                spans.extend((piece[j:j + 2], at + j + 2) for j in range(len(piece) - 1))
            at += len(piece)
    return spans


#: ``stopwords="nltk:<language>"`` names one of nltk's stopword lists (``nltk.download("stopwords")``).
NLTK_STOPWORDS_PREFIX = "nltk:"


def resolve_stopwords(stopwords: Iterable[str] | str | None, name: str = "stopwords") -> frozenset[str]:
    """The stopwords a ``stopwords`` parameter names, as a frozenset.

    ``None`` is the project's English list (:mod:`segmenters.stopwords`); ``"nltk:german"`` (any
    language of nltk's ``stopwords`` corpus) reads nltk's list for that language, which must have
    been downloaded once (``python -m nltk.downloader stopwords``); a list gives the words
    themselves (strings).
    """
    if stopwords is None:
        return ENGLISH_STOPWORDS
    if isinstance(stopwords, str) and stopwords.startswith(NLTK_STOPWORDS_PREFIX):
        return _nltk_stopwords(stopwords, name)
    if isinstance(stopwords, (str, bytes)):
        raise InvalidParameterError.make(
            name, f"a list of words, '{NLTK_STOPWORDS_PREFIX}<language>' (nltk's list for that language) or None", stopwords)
    return frozenset(_word_list(stopwords, name))


def _word_list(stopwords: Iterable[str], name: str) -> list[str]:
    """The words of a ``stopwords`` parameter given as words (read once: an iterator too)."""
    if isinstance(stopwords, Mapping) or not isinstance(stopwords, Iterable):  # a table's keys are no list of words
        raise InvalidTypeError.make(
            name, f"a list of words, '{NLTK_STOPWORDS_PREFIX}<language>' (nltk's list for that language) or None", stopwords)
    listed = list(stopwords)
    for word in listed:
        if not isinstance(word, str):
            raise InvalidParameterError.make(name, "a list of strings", word)
    return listed


def stopwords_language(stopwords: Iterable[str] | str | None) -> str | None:
    """The language of the stopword list a ``stopwords`` parameter names: ``"english"`` for
    ``None`` (the project's list), the language of ``"nltk:<language>"``, ``None`` for words given
    as a list (their language is the user's)."""
    if stopwords is None:
        return "english"
    if isinstance(stopwords, str) and stopwords.startswith(NLTK_STOPWORDS_PREFIX):
        return stopwords[len(NLTK_STOPWORDS_PREFIX):]
    return None


def stopwords_param(stopwords: Iterable[str] | str | None, name: str = "stopwords") -> list[str] | str | None:
    """What a segmenter records of its ``stopwords`` parameter: ``None``, the ``"nltk:..."`` name,
    or the words as a list (checked: strings, and not a mapping's keys). A segmenter builds its
    stopword set from this value, not from the parameter, which may be an iterator read once."""
    if stopwords is None or isinstance(stopwords, str):
        return stopwords
    return _word_list(stopwords, name)


def _nltk_stopwords(spec: str, name: str) -> frozenset[str]:
    """nltk's stopword list named by ``spec`` (``"nltk:<language>"``), lower-cased."""
    language = spec[len(NLTK_STOPWORDS_PREFIX):]
    from nltk.corpus import stopwords as corpus

    try:
        languages = corpus.fileids()
    except LookupError:
        raise InvalidParameterError(
            f"{name}={spec!r} reads nltk's stopword lists, which are not installed: download them once with "
            "'python -m nltk.downloader stopwords', or give the words as a list", parameter=name) from None
    if language not in languages:
        raise InvalidParameterError.make(
            name, f"'{NLTK_STOPWORDS_PREFIX}' and one of nltk's stopword languages ({', '.join(languages)})", spec)
    return frozenset(word.lower() for word in corpus.words(language))


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


def _lower(text: str) -> str:
    """``text`` in lower case, its Turkish capital dotted I (``İ``) as ``i``: ``str.lower`` makes
    it ``i`` and a combining dot, which ended a word (``İstanbul`` read as ``i``, ``stanbul``) and
    never matched ``istanbul``. One character for one, so offsets into the text stay those of the
    unit's.

    >>> _lower("İstanbul ISTANBUL")
    'istanbul istanbul'
    """
    return text.replace("\u0130", "i").lower()


class Preprocessor:
    """Tokenize, lower-case, remove stopwords and stem units (see the module docstring)."""

    def __init__(
        self,
        tokenizer: str = "words",
        lowercase: bool = True,
        stopwords: Iterable[str] | str | None = None,
        stem: bool | str = True,
    ) -> None:
        if tokenizer not in TOKENIZERS:
            raise InvalidParameterError.make("tokenizer", f"one of {TOKENIZERS}", tokenizer)
        self.tokenizer = tokenizer
        self.lowercase = bool(lowercase)
        self.stopwords = resolve_stopwords(stopwords)
        #: the language of the stopword list (:func:`stopwords_language`)
        self.stopwords_language = stopwords_language(stopwords)
        self.stem = check_stem(stem)

    def tokens(self, unit: str) -> list[str]:
        """The words of one unit, before stopword removal and stemming."""
        text = _lower(unit) if self.lowercase else unit
        if self.tokenizer == "words":
            return _WORD_RE.findall(text)
        if self.tokenizer == "unicode":
            return _unicode_tokens(text)
        return _CHOI_TOKEN_RE.findall(text)

    def reading(self, unit: str) -> str:
        """The text of one unit as the tokenizer reads it: lower-cased if asked, and in composed
        form (NFC) for the ``"unicode"`` tokenizer; :meth:`token_spans` finds its tokens."""
        text = _lower(unit) if self.lowercase else unit
        return unicodedata.normalize("NFC", text) if self.tokenizer == "unicode" else text

    def token_spans(self, text: str) -> list[tuple[str, int]]:
        """The tokens of a text given by :meth:`reading`, each with the offset where it ends in
        that text (the tokens are those of :meth:`tokens` on the unit).

        Examples
        --------
        >>> Preprocessor(tokenizer="unicode").token_spans("der bäcker backt 面包。")
        [('der', 3), ('bäcker', 10), ('backt', 16), ('面包', 19)]
        """
        if self.tokenizer == "unicode":
            return _unicode_spans(text)
        pattern = _WORD_RE if self.tokenizer == "words" else _CHOI_TOKEN_RE
        return [(match.group(), match.end()) for match in pattern.finditer(text)]

    def stopword_use(self, units: Sequence[str]) -> tuple[str, int, int] | None:
        """The language of the stopword list, how many tokens of ``units`` are in it and how many
        tokens there are (the segmenter protocol's ``stopword_use``); ``None`` when the stopwords
        were given as a list of words."""
        if self.stopwords_language is None:
            return None
        stop = self.stopwords
        tokens = [token for unit in units for token in self.tokens(unit)]
        return self.stopwords_language, sum(token in stop for token in tokens), len(tokens)

    def terms(self, unit: str) -> list[str]:
        """The terms of one unit: tokens without stopwords, stemmed if asked."""
        stop = self.stopwords
        words = [t for t in self.tokens(unit) if t not in stop]
        if self.stem is not False:
            stem_word = _stemmer(self.stem)
            words = [stem_word(t) for t in words]
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
