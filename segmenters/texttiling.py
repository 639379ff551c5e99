"""TextTiling (Hearst 1997) at the unit level, with the boundaries of nltk's ``TextTilingTokenizer``.

Two segmenters:

``texttiling`` (:class:`TextTiling`)
    A numpy re-implementation that returns **the same boundaries** as nltk's tokenizer (3.10)
    for the same parameters and stopword list, much faster: nltk's block comparison loops over
    the whole vocabulary for every gap; here block sums come from prefix sums over a
    pseudosentence x term count matrix built for a few hundred gaps at a time.
``texttiling_nltk`` (:class:`TextTilingNLTK`)
    A thin wrapper around nltk's tokenizer itself, kept as the reference.

**From units to text and back** (both segmenters, ``shared/specs/segmenters.md`` section 1).
Each unit is stripped and every whitespace run containing a newline becomes one space; units that
are then empty take no part (a boundary is placed at the first non-empty unit of the new segment,
so empty units stay with the segment before them). The remaining units are joined with exactly
``"\\n\\n"``, so every separator is a paragraph break for nltk, and each piece nltk returns ends at a
separator: a piece ending after unit ``i`` is a boundary at unit ``i+1``. As in nltk, only
separators at least 100 characters after the previously kept break can become boundaries.

**Documents too short for TextTiling get no boundaries** instead of an exception: fewer than two
non-empty units, no paragraph break 100 characters into the (punctuation-free) text, or fewer
gap scores than the smoothing window (with ``w=20``: about 60 ``[a-z]`` tokens). nltk raises
``ValueError`` in these cases; :class:`TextTilingNLTK` turns them into no boundaries too.

nltk's pipeline, reproduced step by step (lower-case; drop every character but ``a-z``, ``-``,
``'``, space, tab and newline; tokens are runs of ``a-z``; pseudosentences of ``w`` tokens, stopwords
removed after chunking; block-comparison or vocabulary-introduction gap scores; one smoothing pass;
depth scores; cutoff ``mean - std/2`` (HC) or ``mean - std`` (LC); boundaries mapped to the
nearest paragraph break through nltk's whitespace-word count). No stemming, as in nltk.

**Other languages** (:class:`TextTiling` only). ``tokenizer="nltk"`` (the default) is the reading
above, which keeps only ``a-z``. Another tokenizer (``"unicode"`` for any script, see
:mod:`segmenters.preprocessing`) reads the lower-cased units with that tokenizer instead: the
pseudosentences are ``w`` of its tokens, nltk's word count becomes a count of those tokens (a gap
fires at the end of the token nltk's rule counts to), and the 100-character rules read the text
without digits and punctuation in every script. ``stem`` compares the words that are not
stopwords by their stem (default ``False``, as nltk). The defaults give nltk's boundaries as before.

On Choi's 3-11 set both give identical boundaries on all 400 documents (word-level Pk 0.502
with nltk's stopwords; Hearst's original C program: 0.46 in Choi's table) and ours is about 100x
faster there (``benchmarks/segmenters.py``; several hundred times on longer documents).

**Fast restart path.** Tokens, whitespace words and cleaned text of each unit do not depend on
the order of the units; :meth:`TextTiling.prepare` computes them once and
:meth:`TextTiling.segment_prepared` only concatenates them in the new order, with results identical
to the plain call. :meth:`TextTiling.segment_batch` segments many orders at once with array
operations over a stack of orders (:mod:`segmenters.texttiling_batch`), with results identical to
:meth:`TextTiling.segment_prepared` order by order.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from stability.checks import check_choice, check_int
from stability.exceptions import InvalidParameterError
from stability.segmenter import Segmenter

from .preprocessing import (
    TOKENIZERS as PREPROCESSOR_TOKENIZERS,
    Preprocessor,
    _mark_class,
    _stemmer,
    check_stem,
    ragged_take,
    resolve_stopwords,
    stopwords_language,
    stopwords_param,
)

__all__ = ["TextTiling", "TextTilingNLTK", "normalize_units", "join_units"]

SIMILARITY_METHODS = ("block_comparison", "vocabulary_introduction")
CUTOFF_POLICIES = ("HC", "LC")
#: How :class:`TextTiling` reads words: ``"nltk"`` (nltk's ``a-z`` runs, the default) or a
#: tokenizer of :class:`segmenters.preprocessing.Preprocessor`.
TOKENIZERS = ("nltk", *PREPROCESSOR_TOKENIZERS)
MIN_PARAGRAPH = 100  # nltk: a paragraph break is kept only this many characters after the last one
SEPARATOR = "\n\n"

_NEWLINE_RUN = re.compile(r"\s*\n\s*")
_NOT_KEPT = re.compile(r"[^a-z\-' \n\t]")
_TOKEN = re.compile(r"[a-z]+")
_WORD_END = re.compile(r"(?<=[^ \t\n])[ \t\n]")  # nltk's whitespace-word counter ticks here
_PARAGRAPH_BREAK = re.compile(r"(?:(?<![ \t\r\f\v])[ \t\r\f\v]*)?\n[ \t\r\f\v]*\n[ \t\r\f\v]*")
_GAP_CHUNK = 256  # gaps scored per dense block


def normalize_units(units: Sequence[str]) -> tuple[list[int], list[str]]:
    """Indices and normalized text of the units that are not empty once normalized.

    Normalizing strips a unit and turns every whitespace run that contains a newline into one
    space, so that the only blank lines of the joined text are the separators.
    """
    indices: list[int] = []
    texts: list[str] = []
    for i, unit in enumerate(units):
        text = _NEWLINE_RUN.sub(" ", unit.strip())
        if text:
            indices.append(i)
            texts.append(text)
    return indices, texts


def join_units(texts: Sequence[str]) -> str:
    """The text given to nltk: normalized units joined with ``"\\n\\n"``."""
    return SEPARATOR.join(texts)


#: The largest ``w`` and ``k``: numpy holds the window arithmetic in machine integers (a Python int
#: beyond 64 bits failed on every call); 2**31 - 1 holds on any platform, far beyond any document.
MAX_WINDOW = 2**31 - 1


def _check_params(w, k, similarity_method, smoothing_width, smoothing_rounds, cutoff_policy) -> None:
    for name, value, low, high in (("w", w, 1, MAX_WINDOW), ("k", k, 1, MAX_WINDOW),
                                   ("smoothing_width", smoothing_width, 0, None),
                                   ("smoothing_rounds", smoothing_rounds, 1, None)):
        check_int(value, name, low=low, high=high)
    check_choice(similarity_method, "similarity_method", SIMILARITY_METHODS)
    check_choice(cutoff_policy, "cutoff_policy", CUTOFF_POLICIES)


class _TextTilingParams(Segmenter):
    """Parameters shared by both TextTiling segmenters (nltk's names and defaults)."""

    def __init__(
        self,
        w: int = 20,
        k: int = 10,
        similarity_method: str = "block_comparison",
        stopwords: Iterable[str] | str | None = None,
        smoothing_width: int = 2,
        smoothing_rounds: int = 1,
        cutoff_policy: str = "HC",
    ) -> None:
        _check_params(w, k, similarity_method, smoothing_width, smoothing_rounds, cutoff_policy)
        self.w = int(w)
        self.k = int(k)
        self.similarity_method = similarity_method
        self.stopwords = stopwords_param(stopwords)
        self.smoothing_width = int(smoothing_width)
        self.smoothing_rounds = int(smoothing_rounds)
        self.cutoff_policy = cutoff_policy
        self._stopset = resolve_stopwords(self.stopwords)

    def unit_terms(self, units: Sequence[str]) -> list[list[str]]:
        """The tokens TextTiling compares in each unit: as nltk, only the letters ``a-z`` of the
        lower-cased text make tokens (other letters are dropped: a Russian or Chinese unit has
        none, ``"Bäcker"`` gives ``"bcker"``), stopwords removed."""
        stop = self._stopset
        return [[t for t in _nltk_tokens(unit) if t not in stop] for unit in units]

    def _tokens(self, unit: str) -> list[str]:
        """The tokens of a unit, stopwords included."""
        return _nltk_tokens(unit)

    def stopword_use(self, units: Sequence[str]) -> tuple[str, int, int] | None:
        """The language of the stopword list (``None`` for words given as a list), how many
        tokens of ``units`` are in it and how many tokens there are (read as TextTiling reads
        them); the harness warns when an English list holds too few of a long document's words."""
        language = stopwords_language(self.stopwords)
        if language is None:
            return None
        stop = self._stopset
        tokens = [token for unit in units for token in self._tokens(unit)]
        return language, sum(token in stop for token in tokens), len(tokens)


def _nltk_tokens(unit: str) -> list[str]:
    """nltk's tokens of a unit: the runs of ``a-z`` once the text is lower-cased and every
    character but ``a-z``, ``-``, ``'``, space, tab and newline dropped."""
    return _TOKEN.findall(_NOT_KEPT.sub("", unit.lower()))


# --------------------------------------------------------------------------------------------
# nltk reference
# --------------------------------------------------------------------------------------------


class TextTilingNLTK(_TextTilingParams):
    """nltk's ``TextTilingTokenizer`` on the units joined as paragraphs (the reference).

    Parameters are nltk's (``similarity_method`` and ``cutoff_policy`` by name); ``stopwords=None``
    means the project's list, never nltk's corpus (which may not be installed). nltk's
    ``smoothing_rounds`` is accepted and, as in nltk, ignored (always one pass). nltk's cap on the
    text length (``MAX_TEXT_LEN``) is lifted. ``ValueError``/``ZeroDivisionError`` raised by nltk on
    too-short documents, and the ``UnboundLocalError`` nltk raises when its first boundary maps to
    the very end of the text, give no boundaries.

    Parameters
    ----------
    w, k, similarity_method, stopwords, smoothing_width, smoothing_rounds, cutoff_policy :
        As :class:`TextTiling`.

    Examples
    --------
    >>> TextTilingNLTK()(["one short unit", "another"])
    []
    """

    name = "texttiling_nltk"

    def segment(self, units: Sequence[str]) -> list[int]:
        from nltk.tokenize import texttiling as tt

        indices, texts = normalize_units(units)
        if len(texts) < 2:
            return []
        text = join_units(texts)
        methods = {"block_comparison": tt.BLOCK_COMPARISON}
        if hasattr(tt, "VOCABULARY_INTRODUCTION"):
            methods["vocabulary_introduction"] = tt.VOCABULARY_INTRODUCTION
        if self.similarity_method not in methods:
            raise InvalidParameterError(
                f"similarity_method {self.similarity_method!r} needs nltk >= 3.10"
            )
        tokenizer = tt.TextTilingTokenizer(
            w=self.w,
            k=self.k,
            similarity_method=methods[self.similarity_method],
            stopwords=self._stopset,
            smoothing_width=self.smoothing_width,
            smoothing_rounds=self.smoothing_rounds,
            cutoff_policy=tt.HC if self.cutoff_policy == "HC" else tt.LC,
        )
        tokenizer.MAX_TEXT_LEN = sys.maxsize
        try:
            pieces = tokenizer.tokenize(text)
        except (ValueError, ZeroDivisionError, UnboundLocalError):
            return []
        # Offset where the separator after unit i starts -> boundary at unit i+1.
        starts = {}
        offset = 0
        for i, unit_text in enumerate(texts[:-1]):
            offset += len(unit_text)
            starts[offset] = i + 1
            offset += len(SEPARATOR)
        boundaries = []
        offset = 0
        for piece in pieces[:-1]:
            offset += len(piece)
            if offset not in starts:
                raise RuntimeError(f"nltk cut the text at offset {offset}, which is not a separator")
            boundaries.append(indices[starts[offset]])
        return boundaries


# --------------------------------------------------------------------------------------------
# numpy implementation
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextTilingState:
    """Order-free per-unit features of a document (fast restart path)."""

    n_units: int
    nonempty: np.ndarray  # bool per unit
    lengths: np.ndarray  # characters of each normalized unit (0 if empty)
    cleaned: list[str]  # nltk's punctuation-free lower-case text of each unit ("" if empty)
    token_ids: np.ndarray  # flat [a-z]+ token type ids, unit after unit
    token_offsets: np.ndarray
    is_stop: np.ndarray  # per type: is a stopword
    word_ends: np.ndarray  # flat positions (inside the unit) where nltk's word counter ticks
    word_offsets: np.ndarray
    #: Whether the separator after a unit is a tick of its own (nltk's whitespace-word counter);
    #: with another tokenizer than ``"nltk"`` the ticks are the ends of the tokens, so none is.
    separator_ticks: bool = True


def _smooth(x: np.ndarray, window_len: int) -> np.ndarray:
    """nltk's (SciPy cookbook) flat moving average with reflected ends. Needs ``x.size >= window_len``."""
    if window_len < 3:
        return x
    left = 2 * x[0] - x[window_len:1:-1]
    right = 2 * x[-1] - x[-1:-window_len:-1]
    padded = np.concatenate([left, x, right])
    kernel = np.ones(window_len, "d")
    smoothed = np.convolve(kernel / kernel.sum(), padded, mode="same")
    return smoothed[window_len - 1 : -window_len + 1]


def _depth_scores(scores: np.ndarray) -> np.ndarray:
    """Depth of every gap: climb to the peak on each side (plateaus continue).

    Along the last axis: one row of scores, or one row per order (the batched path), with the
    same values row by row.
    """
    n = scores.shape[-1]
    depth = np.zeros(scores.shape)
    clip = min(max(n // 10, 2), 5)
    if n <= 2 * clip:
        return depth
    idx = np.arange(n)
    # left peak: value at the last j <= i where the climb stops (j == 0 or s[j-1] < s[j])
    left_stop = np.ones(scores.shape, dtype=bool)
    left_stop[..., 1:] = scores[..., :-1] < scores[..., 1:]
    left = np.maximum.accumulate(np.where(left_stop, idx, 0), axis=-1)
    right_stop = np.ones(scores.shape, dtype=bool)
    right_stop[..., :-1] = scores[..., 1:] < scores[..., :-1]
    last = np.where(right_stop, idx, n - 1)
    right = np.minimum.accumulate(last[..., ::-1], axis=-1)[..., ::-1]
    peaks = np.take_along_axis(scores, left, -1) + np.take_along_axis(scores, right, -1)
    inner = slice(clip, n - clip)
    depth[..., inner] = peaks[..., inner] - 2 * scores[..., inner]
    return depth


def _cutoff(depth: np.ndarray, policy: str) -> np.ndarray | float:
    """nltk's depth cutoff along the last axis: ``mean - std`` (LC) or ``mean - std/2`` (HC)."""
    mean = np.cumsum(depth, axis=-1)[..., -1] / depth.shape[-1]  # sequential sum, as Python's sum() in nltk
    std = np.std(depth, axis=-1)
    return mean - std if policy == "LC" else mean - std / 2.0


def _identify_boundaries(depth: np.ndarray, policy: str) -> np.ndarray:
    """nltk's greedy choice: deepest first (ties: larger index), none within 3 of an accepted one."""
    flags = np.zeros(depth.size, dtype=bool)
    candidates = np.flatnonzero(depth > _cutoff(depth, policy))
    if candidates.size == 0:
        return flags
    order = np.lexsort((candidates, depth[candidates]))[::-1]
    accepted: set[int] = set()
    for gap in candidates[order].tolist():
        if not any(g in accepted for g in range(gap - 3, gap + 4)):
            accepted.add(gap)
    flags[list(accepted)] = True
    return flags


def _block_windows(n_ps: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every gap and the first and last pseudosentence of its two blocks (nltk's ``ws``: ``k``,
    fewer near the ends): the left block is ``lo..gap``, the right one ``gap+1..hi``."""
    n_gaps = n_ps - 1
    gap = np.arange(n_gaps)
    ws = np.where(gap < k - 1, gap + 1, np.where(gap > n_gaps - k, n_gaps - gap, k))
    return gap, gap - ws + 1, np.minimum(gap + ws, n_ps - 1)


def _block_comparison(ps: np.ndarray, types: np.ndarray, n_ps: int, k: int) -> np.ndarray:
    """Cosine of the summed term counts of the ``ws`` pseudosentences each side of every gap.

    All sums are integer counts, so the scores are exactly nltk's. A term found in a single
    pseudosentence never contributes to a dot product, only to the norm of the block holding it:
    those terms are summed per pseudosentence once; the others go through dense per-chunk count
    matrices with prefix sums.
    """
    n_gaps = n_ps - 1
    gap, lo, hi = _block_windows(n_ps, k)
    single_prefix = np.zeros(n_ps + 1, dtype=np.int64)
    if types.size:
        cells, cell_count = np.unique(types.astype(np.int64) * n_ps + ps, return_counts=True)
        cell_type = cells // n_ps
        spread = np.bincount(cell_type)  # pseudosentences holding each term
        single_cell = spread[cell_type] == 1
        squares = np.bincount(
            (cells % n_ps)[single_cell], weights=(cell_count[single_cell] ** 2).astype(np.float64), minlength=n_ps
        ).astype(np.int64)
        np.cumsum(squares, out=single_prefix[1:])
        shared = spread[types] > 1
        ps, types = ps[shared], types[shared]
    norm_left = single_prefix[gap + 1] - single_prefix[lo]
    norm_right = single_prefix[hi + 1] - single_prefix[gap + 1]
    dot = np.zeros(n_gaps, dtype=np.int64)
    for c0 in range(0, n_gaps, _GAP_CHUNK):
        c1 = min(c0 + _GAP_CHUNK, n_gaps)
        r0, r1 = int(lo[c0]), int(hi[c1 - 1])
        t0, t1 = np.searchsorted(ps, [r0, r1 + 1])
        if t1 <= t0:
            continue
        local_types, local_ids = np.unique(types[t0:t1], return_inverse=True)
        width = local_types.size
        rows = r1 - r0 + 1
        counts = np.bincount((ps[t0:t1] - r0) * width + local_ids, minlength=rows * width)
        prefix = np.zeros((rows + 1, width), dtype=np.int64)
        np.cumsum(counts.reshape(rows, width), axis=0, out=prefix[1:])
        mid = prefix[gap[c0:c1] + 1 - r0]
        left = mid - prefix[lo[c0:c1] - r0]
        right = prefix[hi[c0:c1] + 1 - r0] - mid
        dot[c0:c1] = np.einsum("ij,ij->i", left, right)
        norm_left[c0:c1] += np.einsum("ij,ij->i", left, left)
        norm_right[c0:c1] += np.einsum("ij,ij->i", right, right)
    return _cosine(dot, norm_left, norm_right)


def _cosine(dot: np.ndarray, norm_left: np.ndarray, norm_right: np.ndarray) -> np.ndarray:
    """Block-comparison score from integer dot products and squared norms (0 where a block is
    empty), elementwise: the same values for one order or a stack of them."""
    product = norm_left * norm_right
    scores = np.zeros(dot.shape)
    ok = product > 0
    scores[ok] = dot[ok] / np.sqrt(product[ok].astype(np.float64))
    return scores


def _vocabulary_introduction(ps: np.ndarray, types: np.ndarray, n_ps: int, w: int) -> np.ndarray:
    """New types in pseudosentence g (left to right) plus in g+1 (right to left), over 2w."""
    if n_ps < 2:
        return np.zeros(0)
    new_left = np.zeros(n_ps, dtype=np.int64)
    new_right = np.zeros(n_ps, dtype=np.int64)
    if types.size:
        _, first = np.unique(types, return_index=True)
        _, last_rev = np.unique(types[::-1], return_index=True)
        last = types.size - 1 - last_rev
        new_left += np.bincount(ps[first], minlength=n_ps)
        new_right += np.bincount(ps[last], minlength=n_ps)
    return _introduction_scores(new_left, new_right, w)


def _introduction_scores(new_left: np.ndarray, new_right: np.ndarray, w: int) -> np.ndarray:
    """Vocabulary-introduction score of every gap (along the last axis) from the new types of
    each pseudosentence read left to right (``new_left``) and right to left (``new_right``)."""
    return (new_left[..., :-1] + new_right[..., 1:]) / (w * 2)


def _has_nopunct_break(cleaned: list[str]) -> bool:
    """Whether nltk finds a paragraph break >= 100 characters into the punctuation-free text."""
    text = SEPARATOR.join(cleaned)
    for match in _PARAGRAPH_BREAK.finditer(text):
        if match.start() >= MIN_PARAGRAPH:
            return True
    return False


class TextTiling(_TextTilingParams):
    """TextTiling with nltk's boundaries, vectorized (see the module docstring).

    Parameters
    ----------
    w : int, default 20
        Pseudosentence size (tokens).
    k : int, default 10
        Block size (pseudosentences) of the block comparison.
    similarity_method : {"block_comparison", "vocabulary_introduction"}
        Gap scores (nltk's ``BLOCK_COMPARISON`` / ``VOCABULARY_INTRODUCTION``).
    stopwords : list of str, optional
        Removed after chunking. ``None`` is the project's list (:mod:`segmenters.stopwords`), not
        nltk's: pass nltk's list explicitly to compare with nltk's default (``"nltk:english"``
        once nltk's lists are downloaded; ``"nltk:german"`` and so on for other languages).
    smoothing_width : int, default 2
        Moving-average window minus one.
    smoothing_rounds : int, default 1
        Accepted for nltk compatibility and ignored, as in nltk (always one pass).
    cutoff_policy : {"HC", "LC"}
        Depth cutoff ``mean - std/2`` (HC) or ``mean - std`` (LC).
    tokenizer : {"nltk", "words", "unicode", "choi"}, default "nltk"
        How words are read. ``"nltk"``: as nltk, the runs of ``a-z`` once the text is
        lower-cased and every other character dropped (``"Bäcker"`` gives ``"bcker"``, Russian or
        Chinese text no word at all), and a gap is placed through nltk's count of
        whitespace-separated words. Another value reads the lower-cased text with that tokenizer
        of :class:`segmenters.preprocessing.Preprocessor` (``"unicode"``: words of any script,
        Chinese and Japanese as character pairs), the pseudosentences are ``w`` of its tokens,
        and a gap is placed at the end of the token that nltk's rule counts to (the ``w``-th, then
        ``2w``-th... token), the 100-character rules reading the text without digits and
        punctuation. The boundaries are then no longer nltk's.
    stem : bool or str, default False
        No stemming (as nltk), ``True`` (Porter's English stemmer) or a Snowball language
        (``"german"``...): tokens that are not stopwords are compared by their stem.
    """

    name = "texttiling"

    def __init__(
        self,
        w: int = 20,
        k: int = 10,
        similarity_method: str = "block_comparison",
        stopwords: Iterable[str] | str | None = None,
        smoothing_width: int = 2,
        smoothing_rounds: int = 1,
        cutoff_policy: str = "HC",
        tokenizer: str = "nltk",
        stem: bool | str = False,
    ) -> None:
        super().__init__(w, k, similarity_method, stopwords, smoothing_width, smoothing_rounds, cutoff_policy)
        check_choice(tokenizer, "tokenizer", TOKENIZERS)
        self.tokenizer = tokenizer
        self.stem = check_stem(stem)
        self._reader = None if tokenizer == "nltk" else Preprocessor(tokenizer=tokenizer, stopwords=self._stopset, stem=False)

    def _tokens(self, unit: str) -> list[str]:
        return _nltk_tokens(unit) if self._reader is None else self._reader.tokens(unit)

    def unit_terms(self, units: Sequence[str]) -> list[list[str]]:
        """The terms TextTiling compares in each unit: the tokens its ``tokenizer`` reads
        (``"nltk"``: only the letters ``a-z`` of the lower-cased text, so that a Russian or Chinese
        unit has none and ``"Bäcker"`` gives ``"bcker"``), stopwords removed, stemmed if asked."""
        stop = self._stopset
        stem_word = None if self.stem is False else _stemmer(self.stem)
        terms = []
        for unit in units:
            kept = [t for t in self._tokens(unit) if t not in stop]
            terms.append(kept if stem_word is None else [stem_word(t) for t in kept])
        return terms

    def prepare(self, units: Sequence[str]) -> TextTilingState:
        """Per-unit tokens, word ticks and cleaned text (independent of the order)."""
        n = len(units)
        indices, texts = normalize_units(units)
        if self._reader is not None:
            texts = [self._reader.reading(text) for text in texts]
        m = len(texts)
        nonempty = np.zeros(n, dtype=bool)
        nonempty[indices] = True
        lengths = np.zeros(n, dtype=np.intp)
        cleaned = [""] * n
        token_counts = np.zeros(n, dtype=np.intp)
        word_counts = np.zeros(n, dtype=np.intp)
        separator_ticks = self._reader is None
        if m == 0:
            empty = np.zeros(0, dtype=np.intp)
            offsets = np.zeros(n + 1, dtype=np.intp)
            return TextTilingState(n, nonempty, lengths, cleaned, empty, offsets, np.zeros(0, dtype=bool), empty,
                                   offsets, separator_ticks)
        index = np.asarray(indices, dtype=np.intp)
        text_lengths = np.fromiter(map(len, texts), dtype=np.intp, count=m)
        lengths[index] = text_lengths
        vocabulary: dict[str, int] = {}
        if self._reader is None:
            # The whole text in the original order, processed once; units never share a token or a
            # word (they are separated by a blank line), so the results split cleanly per unit.
            joined = join_units(texts)
            word_ends, word_unit = _word_ends(joined, text_lengths)
            word_counts[index] = np.bincount(word_unit, minlength=m)
            clean_joined = _NOT_KEPT.sub("", joined.lower())
            pieces = clean_joined.split(SEPARATOR)  # units hold no newline: exactly one piece each
            tokens = _TOKEN.findall(clean_joined)
            piece_lengths = np.fromiter(map(len, pieces), dtype=np.intp, count=m)
            token_counts[index] = np.bincount(_run_unit(clean_joined, piece_lengths), minlength=m)
        else:
            # Each unit's tokens and where they end: the word counter ticks at every token's end.
            spans = [self._reader.token_spans(text) for text in texts]
            tokens = [token for unit_spans in spans for token, _ in unit_spans]
            word_ends = np.fromiter((end for unit_spans in spans for _, end in unit_spans), dtype=np.intp,
                                    count=len(tokens))
            token_counts[index] = np.fromiter(map(len, spans), dtype=np.intp, count=m)
            word_counts = token_counts
            not_kept = _unicode_not_kept()
            pieces = [not_kept.sub("", text) for text in texts]
        for i, piece in zip(indices, pieces):
            cleaned[i] = piece
        token_ids = np.fromiter(
            (vocabulary.setdefault(t, len(vocabulary)) for t in tokens), dtype=np.intp, count=len(tokens)
        )
        type_of, is_stop = _types(vocabulary, self._stopset, self.stem)
        if type_of is not None:
            token_ids = type_of[token_ids]
        return TextTilingState(
            n, nonempty, lengths, cleaned,
            token_ids, _offsets(token_counts), is_stop,
            word_ends, _offsets(word_counts), separator_ticks,
        )

    def segment(self, units: Sequence[str]) -> list[int]:
        return self.segment_prepared(self.prepare(units), np.arange(len(units)))

    def segment_batch(self, prepared: TextTilingState, orders: np.ndarray) -> list[list[int]]:
        """Boundaries for every row of ``orders`` (the batched restart path), identical to
        :meth:`segment_prepared` row by row: every step runs over all orders at once
        (:mod:`segmenters.texttiling_batch`)."""
        from .texttiling_batch import batch_boundaries

        return batch_boundaries(self, prepared, orders)

    def segment_prepared(self, prepared: TextTilingState, order: np.ndarray) -> list[int]:
        """Boundaries of the units reordered by ``order`` (same as the plain call)."""
        st = prepared
        order = np.asarray(order, dtype=np.intp)
        positions = np.flatnonzero(st.nonempty[order])  # where the non-empty units sit
        if positions.size < 2:
            return []
        units = order[positions]
        m = units.size
        lengths = st.lengths[units]
        # 1. Kept paragraph breaks of the joined text: separator starts, 100-character rule.
        unit_start = np.zeros(m, dtype=np.intp)
        unit_start[1:] = np.cumsum(lengths[:-1] + len(SEPARATOR))
        separators = unit_start[1:] - len(SEPARATOR)
        text_length = int(unit_start[-1] + lengths[-1])
        kept = [0]
        for offset in separators.tolist():
            if offset - kept[-1] >= MIN_PARAGRAPH:
                kept.append(offset)
        kept_breaks = np.asarray(kept, dtype=np.intp)
        # 2. nltk raises unless its punctuation-free text has a break 100 characters in.
        if not _has_nopunct_break([st.cleaned[u] for u in units.tolist()]):
            return []
        # 3. Pseudosentences of w tokens, stopwords removed after chunking.
        tokens, _ = ragged_take(st.token_ids, st.token_offsets, units)
        n_ps = -(-tokens.size // self.w)
        ps = np.arange(tokens.size) // self.w
        keep = ~st.is_stop[tokens]
        ps, tokens = ps[keep], tokens[keep]
        if self.similarity_method == "block_comparison":
            gap_scores = _block_comparison(ps, tokens, n_ps, self.k) if n_ps >= 2 else np.zeros(0)
        else:
            gap_scores = _vocabulary_introduction(ps, tokens, n_ps, self.w)
        window = self.smoothing_width + 1
        if gap_scores.size < window or gap_scores.size == 0:
            return []  # nltk: ValueError from smoothing, or ZeroDivisionError on no gaps
        smoothed = _smooth(gap_scores, window)
        if smoothed.size == 0:
            return []
        depth = _depth_scores(smoothed)
        flags = _identify_boundaries(depth, self.cutoff_policy)
        # 4. Where nltk's whitespace-word counter makes each gap fire, and the nearest break.
        rel, _ = ragged_take(st.word_ends, st.word_offsets, units)
        counts = np.diff(ragged_offsets(st.word_offsets, units))
        ticks = rel + np.repeat(unit_start, counts)
        if st.separator_ticks:
            ticks = np.concatenate([ticks, separators])  # the separator's first newline ends a word
        ticks.sort()
        n_gaps = flags.size
        g = np.arange(n_gaps)
        needed = np.maximum(g * self.w, self.w) + 1  # the word count that makes gap g fire
        reachable = needed <= ticks.size
        fire = np.full(n_gaps, np.iinfo(np.intp).max // 2, dtype=np.intp)
        fire[reachable] = ticks[needed[reachable] - 1]
        # one gap per character at most: fire_g = max(tick, fire_{g-1} + 1)
        fire = np.maximum.accumulate(fire - g) + g
        fired = fire < text_length
        boundaries: list[int] = []
        seen_boundary = False
        for gap in np.flatnonzero(flags & fired).tolist():
            char_count = int(fire[gap]) + 1
            if char_count >= text_length:
                if not seen_boundary:
                    return []  # nltk: UnboundLocalError (no break examined yet)
                continue  # nltk reuses the previous break, already taken
            seen_boundary = True
            jb = int(np.searchsorted(kept_breaks, char_count, side="left"))
            if jb >= kept_breaks.size:
                best = int(kept_breaks[-1])
            else:
                below = int(kept_breaks[jb - 1])
                above = int(kept_breaks[jb])
                best = above if above - char_count < char_count - below else below
            if best == 0:
                continue
            # separator starting at `best` follows the non-empty unit at index p
            p = int(np.searchsorted(separators, best))
            boundary = int(positions[p + 1])
            if not boundaries or boundaries[-1] != boundary:
                boundaries.append(boundary)
        return sorted(set(boundaries))


def _types(vocabulary: dict[str, int], stop: frozenset[str], stem: bool | str) -> tuple[np.ndarray | None, np.ndarray]:
    """The type of every word of ``vocabulary`` (``None``: the word's own id) and whether each
    type is a stopword. Stemming merges the words that are not stopwords by their stem; a
    stopword stays a type of its own, so that a type is a stopword or not."""
    if stem is False:
        return None, np.fromiter((word in stop for word in vocabulary), dtype=bool, count=len(vocabulary))
    stem_word = _stemmer(stem)
    types: dict[tuple[bool, str], int] = {}
    type_of = np.fromiter(
        (types.setdefault((True, word) if word in stop else (False, stem_word(word)), len(types)) for word in vocabulary),
        dtype=np.intp, count=len(vocabulary))
    return type_of, np.fromiter((is_stop for is_stop, _ in types), dtype=bool, count=len(types))


@functools.cache
def _unicode_not_kept() -> re.Pattern:
    """What the 100-character rules drop with another tokenizer than ``"nltk"``: as nltk's
    ``[^a-z\\-' \\n\\t]`` for every script (letters and combining marks stay, digits go)."""
    return re.compile(rf"[^\w{_mark_class()}\-' \n\t]|[\d_]")


def _codes(text: str) -> np.ndarray:
    """Code points of ``text`` as an array."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def _unit_starts(lengths: np.ndarray) -> np.ndarray:
    starts = np.zeros(lengths.size, dtype=np.intp)
    np.cumsum(lengths[:-1] + len(SEPARATOR), out=starts[1:])
    return starts


def _word_ends(joined: str, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where nltk's whitespace-word counter ticks inside each unit (position in the unit, unit).

    It ticks at a space, tab or newline that follows another character; the separators' ticks
    are added back by :meth:`TextTiling.segment_prepared` for the order at hand.
    """
    codes = _codes(joined)
    ws = (codes == 32) | (codes == 9) | (codes == 10)
    ticks = np.flatnonzero(ws[1:] & ~ws[:-1]) + 1
    starts = _unit_starts(lengths)
    unit = np.searchsorted(starts, ticks, side="right") - 1
    relative = ticks - starts[unit]
    inside = relative < lengths[unit]
    return relative[inside], unit[inside]


def _run_unit(clean_joined: str, piece_lengths: np.ndarray) -> np.ndarray:
    """Unit of every maximal ``[a-z]`` run of the cleaned text (nltk's tokens), in order."""
    codes = _codes(clean_joined)
    letter = (codes >= 97) & (codes <= 122)
    first = np.flatnonzero(letter & ~np.r_[False, letter[:-1]])
    return np.searchsorted(_unit_starts(piece_lengths), first, side="right") - 1


def _offsets(counts: np.ndarray) -> np.ndarray:
    offsets = np.zeros(counts.size + 1, dtype=np.intp)
    np.cumsum(counts, out=offsets[1:])
    return offsets


def ragged_offsets(offsets: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Offsets of the rows ``order`` of a ragged array once concatenated."""
    lengths = (offsets[1:] - offsets[:-1])[order]
    out = np.zeros(len(order) + 1, dtype=np.intp)
    np.cumsum(lengths, out=out[1:])
    return out
