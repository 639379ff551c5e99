"""Text chunkers (the splitters of retrieval pipelines) as segmenters.

A *chunker* is any callable ``text -> list[str]`` returning pieces of the text in order that
cover it. :class:`ChunkerSegmenter` turns one into a segmenter, so the stability test and its
controls can judge a chunker without labels:

1. the units are joined with ``unit_separator`` (by default the whitespace the document's reader
   says stood between them: gap by gap where it recorded them, ``meta["unit_separators"]``, a blank
   line between the blocks of a Markdown or HTML page and a newline between the items of one of its
   lists; else its one ``meta["unit_separator"]``; else ``"\\n"``, one line per unit; it must be
   whitespace, so the units' own characters are the only non-whitespace characters of the text);
2. the chunker is called on that text;
3. the start of every chunk after the first is located in the text and **snapped to a unit
   boundary**, which gives the boundaries.

**Coordinates.** Chunkers strip, drop or normalise whitespace (a newline becomes a space, the
separator between two chunks disappears), so every position is counted in *non-whitespace
characters* (``str.isspace``): the text, each chunk and each unit are compared with their
whitespace removed.

**Locating chunks** (chunkers that return only strings). Chunk ``i`` (its whitespace removed) is
placed right after the end of chunk ``i-1`` if the text continues with it there (the usual case:
chunks that tile the text); otherwise at its first occurrence after the *start* of chunk
``i-1`` (chunks that overlap, or a chunker that dropped some text between two chunks), or at that
start itself (a chunk beginning as the one before it). A chunk that is only whitespace is ignored;
no chunk with a character, for a text that has some, raises :class:`InvalidParameterError`.
A chunk not found raises :class:`InvalidParameterError` naming it, with how far it agrees with the
text and what each has where they part: the chunker changed more than whitespace. In a text that repeats itself, an overlapping chunk may be placed at an earlier
repetition, or a place chosen so may leave a later chunk none: then each chunk is placed by the
same rule no further than the latest place from which the chunks after it still fit. Adapters
whose library reports character offsets (``semchunk``, ``chonkie_*``, ``semantic_text_splitter``)
use those offsets instead of searching.

**Snapping.** A chunk starting at the first character of unit ``i`` gives boundary ``i``. A chunk
starting inside unit ``i`` (``left`` characters of the unit before its start, ``right`` from its
start on) gives the nearest unit boundary: boundary ``i`` (the unit joins the new chunk) when
``left <= right``, so **a tie goes to the earlier boundary**; otherwise the start of the next unit
with characters (the unit stays with the previous chunk). Units without any non-whitespace
character (empty units) never hold a chunk start: they stay with the segment before them, and
leading empty units with the first segment. Starts that snap to the beginning or the end of the
document are dropped, and two starts snapping to the same boundary give one boundary. Documents
with fewer than two non-empty units get no boundaries without calling the chunker.

Chunkers do not see units, only characters: a segmenter built on one is expected to be flagged by
the harness's content controls (its boundaries depend on lengths, not on topics). None of these
adapters has a fast restart path: the chunker has to read the reordered text anyway.

Adapters (each library is an optional extra; ``pip install 'stability-harness[chunkers]'``
installs those of :data:`CHUNKERS_EXTRAS`, every one but llama-index):

==========================  =====================================================  ==========================
name                        chunker                                                extra
==========================  =====================================================  ==========================
``fixed_chars``             built in: ``chunk_size`` characters per chunk          (none)
``langchain_recursive``     langchain ``RecursiveCharacterTextSplitter``           ``langchain``
``langchain_character``     langchain ``CharacterTextSplitter``                    ``langchain``
``semchunk``                ``semchunk.chunk`` with a word-count token counter     ``semchunk``
``chonkie_recursive``       chonkie ``RecursiveChunker`` (character/word)          ``chonkie``
``chonkie_sentence``        chonkie ``SentenceChunker`` (character/word)           ``chonkie``
``semantic_text_splitter``  semantic-text-splitter ``TextSplitter`` (char./word)   ``semantic-text-splitter``
``llamaindex_sentence``     llama-index ``SentenceSplitter`` (word/character)      ``llamaindex`` (only)
==========================  =====================================================  ==========================

llama-index-core is left out of ``chunkers``: it brings some thirty packages (about 125 MB, among
them SQLAlchemy, aiohttp, networkx and pillow) and requires a recent setuptools, for one splitter.

Examples
--------
Any function splitting text can be wrapped; here every chunk is two lines (two units):

>>> def two_lines(text):
...     lines = text.split("\\n")
...     return ["\\n".join(lines[i:i + 2]) for i in range(0, len(lines), 2)]
>>> ChunkerSegmenter(two_lines)(["a b", "c", "d e f", "g", "h"])
[2, 4]

A chunk starting inside a unit snaps to the nearest unit boundary (here the second chunk starts
after the first character of the third unit, ``"cccccc"``, which goes to that chunk: boundary 2):

>>> FixedChars(chunk_size=6)(["aa", "b", "cccccc"])
[2]
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib
import logging
import re
from types import MappingProxyType
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from stability.checks import check_choice, check_int, counted
from stability.exceptions import InvalidParameterError, InvalidTypeError, MissingDependencyError
from stability.segmenter import Segmenter

__all__ = [
    "ChunkerSegmenter",
    "FixedChars",
    "LangchainRecursive",
    "LangchainCharacter",
    "Semchunk",
    "ChonkieRecursive",
    "ChonkieSentence",
    "SemanticTextSplitter",
    "LlamaIndexSentence",
    "CHUNKERS_EXTRAS",
    "locate_chunks",
    "snap_to_units",
    "word_count",
]

#: The largest ``chunk_size``: the chunking libraries hold sizes in machine integers (chonkie and
#: semantic-text-splitter failed on every call with a Python int beyond 64 bits); 2**31 - 1 holds on
#: any platform, and no document comes near it.
MAX_CHUNK_SIZE = 2**31 - 1

CHONKIE_TOKENIZERS = ("character", "word")
#: What ``chunk_size`` may count in the adapters with a ``tokenizer`` parameter: both offline.
TOKENIZERS = CHONKIE_TOKENIZERS

#: The extras that the ``chunkers`` extra of ``pyproject.toml`` gathers (tests/test_chunkers.py checks
#: that the two agree); an adapter whose extra is not one of them is installed on its own.
CHUNKERS_EXTRAS = ("langchain", "semchunk", "chonkie", "semantic-text-splitter")


#: How to count a model's own tokens, which no adapter does (each would download a vocabulary).
WRAP_FOR_TOKENS = ("to count your model's own tokens, wrap your splitter and its tokenizer with "
                   "segmenters.chunkers.ChunkerSegmenter (README, 'Your own chunker')")

#: What a model's tokens come to, for English prose (OpenAI's rule of thumb): the advice of
#: :func:`_check_tokenizer` and the README's for a budget in tokens.
TOKEN_RULE_OF_THUMB = "a token is about 4 characters, or three quarters of a word, of English prose"


def _check_tokenizer(value: Any) -> str:
    """``value`` if it is one of :data:`TOKENIZERS`; else the choice error, which for a name that is
    none of them misspelt (a model's tokenizer: ``gpt2``, ``cl100k_base``) says why none is offered
    and how to give a budget counted in a model's tokens."""
    try:
        return check_choice(value, "tokenizer", TOKENIZERS)
    except InvalidParameterError as error:
        if "did you mean" in str(error):
            raise
        raise InvalidParameterError(
            f"{error}: the adapters count characters or words only, offline (a model's tokenizer, tiktoken's or "
            f"Hugging Face's, downloads its vocabulary). For a budget of N tokens, {TOKEN_RULE_OF_THUMB}: "
            f"chunk_size of about 4N with 'character', 3N/4 with 'word'; {WRAP_FOR_TOKENS}",
            parameter="tokenizer") from None


def _counter_hint(counts: str) -> str:
    """What a segmenter says of a library's parameter setting what a size counts (langchain's
    ``length_function``, semchunk's ``token_counter``), which it does not take."""
    return f"the size counter is fixed, chunk_size counts {counts} (offline); {WRAP_FOR_TOKENS}"


def _compact(text: str) -> str:
    """``text`` without its whitespace characters."""
    return "".join(text.split())


def word_count(text: str) -> int:
    """Number of whitespace-separated words (the token counter given to ``semchunk``)."""
    return len(text.split())


#: What joins the units of a document that does not say (no ``meta["unit_separator"]``): one line a unit.
DEFAULT_UNIT_SEPARATOR = "\n"


_ESCAPE_WRITTEN_OUT = re.compile(r"\\[ntr]")


def _check_cut(value: str, name: str) -> None:
    """Refuse a separator holding a backslash then ``n``, ``t`` or ``r``, saying how to write the
    character meant: written ``'\\n\\n'``, in single quotes, TOML (a config, ``-s``) keeps the
    backslash, and langchain then finds that text nowhere and cuts nothing, every document one
    chunk, with no other sign (a ``unit_separator`` so written is no whitespace)."""
    if (found := _ESCAPE_WRITTEN_OUT.search(value)) is not None:
        raise InvalidParameterError(
            f"{name} {value!r} holds a backslash followed by {found.group()[1]!r}, not a "
            f"{'newline' if found.group()[1] == 'n' else 'tab' if found.group()[1] == 't' else 'carriage return'}: "
            f'in TOML (a config, -s) single quotes keep the backslash; write it in double quotes, "{value}"',
            parameter=name)


def _check_gaps(document: Any, gaps: Any) -> tuple[str, ...]:
    """A document's ``meta["unit_separators"]`` checked: one whitespace string per gap between its units."""
    n_units = len(getattr(document, "units", ()))
    name = f"meta['unit_separators'] of document {getattr(document, 'id', None)!r}"
    if isinstance(gaps, (str, bytes)) or not isinstance(gaps, Sequence):
        raise InvalidTypeError.make(name, f"a list of {max(n_units - 1, 0)} strings of whitespace, one per gap "
                                          "between two units", gaps)
    if len(gaps) != max(n_units - 1, 0):
        raise InvalidParameterError(
            f"{name} holds {counted(len(gaps), 'separator')} for {counted(n_units, 'unit')}: expected one per gap "
            f"between two units, {max(n_units - 1, 0)}; a reader that changes the units must change them too, "
            "or drop the key", parameter="unit_separators")
    for i, gap in enumerate(gaps):
        if not isinstance(gap, str) or not gap or not gap.isspace():
            raise InvalidParameterError.make(f"separator {i} (between units {i} and {i + 1}) of {name}",
                                             "a non-empty string of whitespace", gap)
    return tuple(gaps)


def _check_separator(value: Any) -> None:
    if isinstance(value, str):
        _check_cut(value, "unit_separator")  # '\\n' in single quotes: a backslash, say how to write a newline
    if value is not None and (not isinstance(value, str) or not value or not value.isspace()):
        raise InvalidParameterError.make("unit_separator", "a non-empty string of whitespace, or None", value)


def _require(module: str, extra: str, segmenter: str) -> Any:
    """Import an optional dependency, or say which extra installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        also = f" (or 'chunkers' for all of {', '.join(CHUNKERS_EXTRAS)})" if extra in CHUNKERS_EXTRAS else ""
        raise MissingDependencyError(
            f"segmenter {segmenter!r} needs the {module!r} package, installed by the extra "
            f"{extra!r}{also}: pip install 'stability-harness[{extra}]'"
        ) from exc


def locate_chunks(text: str, chunks: Iterable[str]) -> list[int]:
    """Start of each chunk in ``text``, in non-whitespace characters (see the module docstring).

    Whitespace-only chunks are skipped, so the result may be shorter than ``chunks``.

    Examples
    --------
    >>> locate_chunks("ab cd\\nef", ["ab", "cd ef"])  # tiling chunks
    [0, 2]
    >>> locate_chunks("ab cd ef", ["ab cd", "cd ef"])  # overlapping chunks
    [0, 2]
    >>> locate_chunks("a a a a", ["a a a", "a a", "a a"])  # tiling at 3 would leave the third no room
    [0, 1, 2]
    """
    if isinstance(chunks, (str, bytes)) or not isinstance(chunks, Iterable):
        raise InvalidTypeError.make("chunker output", "a list (or another iterable) of strings", chunks)
    chunks = list(chunks)  # a generator's chunks, read once
    compact = _compact(text)
    pieces: list[tuple[int, str]] = []  # (index in chunks, chunk without whitespace), blank chunks left out
    for i, chunk in enumerate(chunks):
        if not isinstance(chunk, str):
            raise InvalidTypeError.make(f"chunk {i} of the chunker output", "a string", chunk)
        if piece := _compact(chunk):
            pieces.append((i, piece))
    if compact and not pieces:  # the chunker dropped the whole text: not one segment, a broken chunker
        raise InvalidParameterError(
            f"chunker output: no chunk with a character (received {counted(len(chunks), 'chunk')}"
            f"{', only whitespace' if chunks else ''}) for a text of {len(compact)} non-whitespace characters; a "
            "chunker must return the pieces of the text it is given", parameter="chunker")
    words = [piece for _, piece in pieces]
    failed, starts = _place_chunks(compact, words, [len(compact)] * len(words), strict=True)
    if failed is not None:
        # a place too far on may have left a later chunk none: no place is, within the latest starts
        # (first with each chunk after the start of the one before, else some starting together)
        for strict in (True, False):
            latest = _latest_starts(compact, words, strict=strict)
            if latest is not None:
                again, placed = _place_chunks(compact, words, latest, strict=strict)
                if again is None:
                    return placed
        i, chunk = pieces[failed][0], chunks[pieces[failed][0]]
        after, end = (starts[-1] + 1, starts[-1] + len(words[failed - 1])) if starts else (0, 0)
        raise InvalidParameterError(
            f"chunker output: chunk {i} {chunk[:40]!r} not found after non-whitespace character "
            f"{starts[-1] if starts else 0} of the text; a chunker must return pieces of the text it is given, in "
            f"order (whitespace aside): {_parting(compact, words[failed], after, end)}",
            parameter="chunker")
    return starts


def _parting(compact: str, piece: str, after: int, end: int) -> str:
    """Where a chunk not found parts from the text, in words, both without whitespace: from ``end``
    (where the previous chunk ends, so where a chunk tiling the text begins) when the chunk begins
    as the text does there, else from the longest beginning of ``piece`` found from ``after`` (the
    previous chunk's start) on, where an overlapping chunk begins."""
    low = 0
    while low < len(piece) and end + low < len(compact) and piece[low] == compact[end + low]:
        low += 1
    at = end
    if not low:
        high = len(piece)  # the longest prefix found from after on: being found is monotone in its length
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if compact.find(piece[:middle], after) >= 0 else (low, middle - 1)
        if not low:
            where = " after the previous chunk's start" if after else ""
            return (f"not even its first character ({piece[0]!r}) is in the text{where}: "
                    "the chunker rewrote it or added it")
        at = compact.find(piece[:low], after)
    text = compact[at + low:at + low + 20]
    agreed = repr(piece[:low]) if low <= 20 else f"ending {piece[low - 20:low]!r}"
    return (f"its first {counted(low, 'character')} ({agreed}) {'is' if low == 1 else 'are'} in the text, at "
            f"non-whitespace character {at}; "
            f"then the chunk has {piece[low:low + 20]!r} where the text has {text!r}"
            f"{'' if text else ' (its end)'} (whitespace removed: a change of case, quotes, Unicode normal form, "
            "markup or an added header all make a chunk that is not the text's)")


def _place_chunks(compact: str, pieces: Sequence[str], latest: Sequence[int], *,
                  strict: bool) -> tuple[int | None, list[int]]:
    """Place each piece by the rule of the module docstring, piece ``i`` starting at most at
    ``latest[i]`` (``strict``: never at the start of the piece before it): ``(None, starts)``, or
    ``(i, starts so far)`` when piece ``i`` has no place."""
    starts: list[int] = []
    previous_end = 0
    for i, piece in enumerate(pieces):
        if previous_end <= latest[i] and compact.startswith(piece, previous_end):
            start = previous_end  # tiles the previous chunk
        else:
            start = compact.find(piece, starts[-1] + 1 if starts else 0, latest[i] + len(piece))
            if start < 0 and not strict and starts and compact.startswith(piece, starts[-1]):
                start = starts[-1]  # begins as the previous chunk does (and is longer, or repeats it)
        if start < 0:
            return i, starts
        starts.append(start)
        previous_end = start + len(piece)
    return None, starts


def _latest_starts(compact: str, pieces: Sequence[str], *, strict: bool) -> list[int] | None:
    """The latest start of each piece from which the pieces after it can still be placed in order
    (``strict``: each after the start of the one before it; otherwise possibly at that start), or
    ``None`` when no order of places exists. Placed no further than these, every piece finds one."""
    latest = [0] * len(pieces)
    limit = len(compact)  # the latest start allowed to the piece being placed
    for i in reversed(range(len(pieces))):
        found = compact.rfind(pieces[i], 0, limit + len(pieces[i]))
        if found < 0:
            return None
        latest[i] = found
        limit = found - 1 if strict else found
    return latest


def offsets_to_compact(text: str, offsets: Sequence[int]) -> list[int]:
    """Character offsets in ``text`` turned into non-whitespace positions (for native offsets)."""
    kept = np.fromiter((not ch.isspace() for ch in text), dtype=bool, count=len(text))
    before = np.concatenate([[0], np.cumsum(kept)])
    total = int(before[-1])
    positions = []
    for offset in offsets:
        position = int(before[check_int(offset, "chunk offset", low=0, high=len(text))])
        if position < total:  # a chunk starting in trailing whitespace holds no character
            positions.append(position)
    return positions


def snap_to_units(unit_lengths: Sequence[int], starts: Sequence[int]) -> list[int]:
    """Boundaries from chunk starts (non-whitespace positions), by the snapping rule above.

    ``unit_lengths`` are the units' numbers of non-whitespace characters.

    Examples
    --------
    >>> snap_to_units([2, 1, 6], [0, 5])  # unit 2: 2 characters before the start, 4 after
    [2]
    >>> snap_to_units([2, 1, 6], [0, 6])  # 3 before, 3 after: a tie goes to the earlier boundary
    [2]
    >>> snap_to_units([2, 1, 6], [0, 7])  # 4 before, 2 after: the unit stays, nothing is left
    []
    >>> snap_to_units([4, 0, 4], [0, 3])  # the empty unit 1 stays with unit 0
    [2]
    """
    lengths = np.asarray(unit_lengths, dtype=np.intp)
    n = lengths.size
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    nonempty = np.flatnonzero(lengths > 0)
    if nonempty.size < 2:
        return []
    # next_nonempty[i]: first non-empty unit after unit i (n if none)
    following = np.full(n + 1, n, dtype=np.intp)
    following[nonempty] = nonempty
    next_nonempty = np.minimum.accumulate(following[::-1])[::-1][1:]
    boundaries: set[int] = set()
    for start in starts:
        if not 0 <= start < offsets[-1]:
            continue
        unit = int(np.searchsorted(offsets, start, side="right")) - 1
        left, right = start - offsets[unit], offsets[unit + 1] - start
        boundary = unit if left <= right else int(next_nonempty[unit])
        if nonempty[0] < boundary < n:
            boundaries.add(boundary)
    return sorted(boundaries)


class ChunkerSegmenter(Segmenter):
    """Any chunker ``text -> list[str]`` as a segmenter (see the module docstring).

    Parameters
    ----------
    chunker : callable
        ``text -> list[str]``: chunks in order, covering the text; whitespace may be dropped or
        changed, chunks may overlap. Any iterable of strings will do (a generator too).
    unit_separator : str, optional
        Whitespace joining the units into the text given to the chunker (``"\\n\\n"`` makes
        every unit a paragraph; ``" "`` gives running text); given, it joins every unit. Default:
        the whitespace the document's reader says stood between its units: gap by gap when it
        recorded them (``meta["unit_separators"]``, one string per gap: a blank line between the
        blocks of a Markdown or HTML page and between its paragraphs' sentences, a newline between
        the items of an HTML list or the rows of a table and before a sentence that starts a
        Markdown list item or table row, a space between the other sentences of one block), else
        its one separator (``meta["unit_separator"]``, see
        :data:`stability.readers.common.UNIT_SEPARATORS`), else :data:`DEFAULT_UNIT_SEPARATOR`,
        one line a unit. The separators belong to the gaps, not to the units: a permutation of the
        units (the stability test's restarts, its controls) keeps each where it was, as the page's
        layout stays where it is. The harness resolves it per document (:meth:`for_document`): the
        parameter stays ``None`` in the results' ``params``, and each document's result records
        the separator applied (``resolved_params``: the one string, or the list of the distinct
        separators of its gaps, longest first; the summary's every one used).
    """

    name = "chunker"
    length_based = True

    def __init__(self, chunker: Callable[[str], Iterable[str]], unit_separator: str | None = None) -> None:
        if not callable(chunker):
            raise InvalidTypeError.make("chunker", "a callable text -> list[str]", chunker)
        _check_separator(unit_separator)
        self.chunker = chunker
        self.unit_separator = unit_separator

    #: The separator of each gap between the units, set by :meth:`for_document` from the
    #: document's ``meta["unit_separators"]`` when ``unit_separator`` was left to it and its gaps
    #: are not all alike (``None``: ``unit_separator`` joins every unit).
    gap_separators: tuple[str, ...] | None = None

    def for_document(self, document: Any) -> ChunkerSegmenter:
        """This segmenter with its separators set for ``document`` when they were left to the
        document (see ``unit_separator``): itself when one was given."""
        if self.unit_separator is not None:
            return self
        meta = getattr(document, "meta", None) or {}
        resolved = copy.copy(self)
        gaps = meta.get("unit_separators")
        gaps = None if gaps is None else _check_gaps(document, gaps)
        if gaps and len(set(gaps)) > 1:
            resolved.gap_separators = gaps
        else:  # one separator for every gap: the same text as the document's one separator
            resolved.unit_separator = gaps[0] if gaps else meta.get("unit_separator", DEFAULT_UNIT_SEPARATOR)
            _check_separator(resolved.unit_separator)
        return resolved

    def get_params(self) -> dict[str, Any]:
        """The parameters (see :meth:`Segmenter.get_params`); resolved on a document whose gaps
        have several separators, ``unit_separator`` lists them (distinct, longest first), the
        record of what was applied."""
        params = super().get_params()
        if self.gap_separators is not None and "unit_separator" in params:
            params["unit_separator"] = sorted(set(self.gap_separators), key=lambda gap: (-len(gap), gap))
        return params

    def chunk_starts(self, text: str) -> list[int]:
        """Non-whitespace positions of the chunk starts in ``text``."""
        return locate_chunks(text, self.chunker(text))

    def joined(self, units: Sequence[str]) -> str:
        """The text given to the chunker: ``units`` joined with the separators (see
        ``unit_separator``), gap by gap when the document recorded its gaps.

        >>> from stability import Document
        >>> page = Document("d", ["a", "b", "c"], meta={"unit_separators": ["\\n", "\\n\\n"]})
        >>> resolved = FixedChars().for_document(page)
        >>> resolved.joined(["c", "a", "b"])  # the gaps keep their separators, whatever the order
        'c\\na\\n\\nb'
        """
        gaps = self.gap_separators
        if gaps is None:
            return (self.unit_separator or DEFAULT_UNIT_SEPARATOR).join(units)
        if len(gaps) != len(units) - 1:
            raise InvalidParameterError(
                f"this chunker was set for a document of {len(gaps) + 1} units (its gaps' separators) and "
                f"called on {counted(len(units), 'unit')}: call for_document on the document segmented",
                parameter="units")
        return "".join(unit + gap for unit, gap in zip(units, gaps)) + units[-1]

    def segment(self, units: Sequence[str]) -> list[int]:
        lengths = [len(_compact(unit)) for unit in units]
        if sum(1 for length in lengths if length) < 2:
            return []
        return snap_to_units(lengths, self.chunk_starts(self.joined(units)))


class _SizedChunker(ChunkerSegmenter):
    """Shared set-up of the adapters: a chunk size and the unit separator."""

    #: The optional package an adapter imports and the extra installing it (none for a built-in).
    package: str | None = None
    extra: str | None = None

    def __init__(self, chunk_size: int, unit_separator: str | None) -> None:
        self.chunk_size = check_int(chunk_size, "chunk_size", low=1, high=MAX_CHUNK_SIZE)
        _check_separator(unit_separator)
        self.unit_separator = unit_separator

    def _library(self) -> Any:
        """The adapter's package, imported (or an ImportError naming the extra that installs it)."""
        assert self.package is not None and self.extra is not None  # called by the adapters that set them
        return _require(self.package, self.extra, self.name)

    def chunker(self, text: str) -> list[str]:  # type: ignore[override]
        raise NotImplementedError


class FixedChars(_SizedChunker):
    """``fixed_chars``: chunks of ``chunk_size`` characters of the joined text, ignoring content.

    No dependency. The layout baseline of the chunkers: its boundaries depend only on the units'
    lengths.

    Parameters
    ----------
    chunk_size : int, default 1000
        Characters per chunk (separators included); the last chunk may be shorter.
    chunk_overlap : int, default 0
        Characters shared by consecutive chunks: each chunk starts ``chunk_size - chunk_overlap``
        characters after the one before, and the last is the first to reach the end of the text.
    unit_separator : str, optional
        Whitespace joining the units; default the document's own (a blank line between Markdown
        or HTML blocks, a space between sentences), else a newline.
    """

    name = "fixed_chars"

    def __init__(self, chunk_size: int = 1000, unit_separator: str | None = None, chunk_overlap: int = 0) -> None:
        super().__init__(chunk_size, unit_separator)
        self.chunk_overlap = check_int(chunk_overlap, "chunk_overlap", low=0, high=self.chunk_size - 1)

    def chunker(self, text: str) -> list[str]:  # type: ignore[override]
        size, overlap = self.chunk_size, self.chunk_overlap
        # a chunk starting within the overlap of the text's end would lie inside the one before it
        return [text[i : i + size] for i in range(0, max(len(text) - overlap, 1), size - overlap)]


#: The logger langchain warns on for every chunk longer than ``chunk_size``.
LANGCHAIN_LOGGER = "langchain_text_splitters.base"


class _OversizeFilter(logging.Filter):
    """Drops langchain's "Created a chunk of size N, which is longer than the specified M"."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Created a chunk of size")


@contextlib.contextmanager
def _quiet_oversize() -> Iterator[None]:
    """Silence langchain's oversize-chunk warning during one call (this call's own filter, removed
    after it, so other threads' filters and langchain's other messages are left alone)."""
    logger, quiet = logging.getLogger(LANGCHAIN_LOGGER), _OversizeFilter()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


class _LangchainSplitter(_SizedChunker):
    """Shared parameters of the langchain adapters (sizes in characters, ``len``).

    langchain logs a warning for every chunk longer than ``chunk_size`` (a piece without a
    separator inside it, which it keeps whole): once per restart and per chunk, thousands of lines
    in a run, about a chunk that is simply long. The adapters silence that message during their
    calls (the chunk is located and snapped as any other).
    """

    package, extra = "langchain_text_splitters", "langchain"
    parameter_hints = MappingProxyType({"length_function": _counter_hint("characters (len)")})

    def __init__(self, chunk_size: int, chunk_overlap: int, unit_separator: str | None) -> None:
        super().__init__(chunk_size, unit_separator)
        self.chunk_overlap = check_int(chunk_overlap, "chunk_overlap", low=0, high=self.chunk_size - 1)
        self._library()

    def _splitter(self, module: Any) -> Any:
        """The langchain splitter of the parameters, built from the imported ``module``."""
        raise NotImplementedError

    def chunker(self, text: str) -> list[str]:  # type: ignore[override]
        splitter = self._splitter(self._library())
        with _quiet_oversize():
            return splitter.split_text(text)


class LangchainRecursive(_LangchainSplitter):
    """``langchain_recursive``: langchain's ``RecursiveCharacterTextSplitter``.

    Splits on ``"\\n\\n"``, then ``"\\n"``, then ``" "``, then between characters, merging pieces up to
    ``chunk_size`` characters (the most common splitter of retrieval pipelines). Extra:
    ``langchain``. Chunks are located in the text (langchain returns strings only).

    Parameters
    ----------
    chunk_size : int, default 1000
        Maximum characters per chunk.
    chunk_overlap : int, default 0
        Characters shared by consecutive chunks (langchain's default is 200).
    unit_separator : str, optional
        Whitespace joining the units; default the document's own (a blank line between Markdown
        or HTML blocks, a space between sentences), else a newline.
    separators : sequence of str, optional
        Where it may cut, tried in order (langchain's ``separators``); default langchain's own,
        ``["\\n\\n", "\\n", " ", ""]``. On the command line, a TOML array:
        ``-s 'langchain_recursive,separators=["\\n", ". ", " "]'``.
    """

    name = "langchain_recursive"

    def __init__(self, chunk_size: int = 1000, chunk_overlap: int = 0, unit_separator: str | None = None,
                 separators: Sequence[str] | None = None) -> None:
        if separators is not None and (isinstance(separators, str) or not isinstance(separators, Sequence)
                                       or not separators or not all(isinstance(x, str) for x in separators)):
            raise InvalidTypeError.make("separators", "a non-empty list of strings", separators)
        for separator in separators or ():
            _check_cut(separator, "separators")
        super().__init__(chunk_size, chunk_overlap, unit_separator)
        self.separators = None if separators is None else tuple(separators)

    def _splitter(self, module):
        return module.RecursiveCharacterTextSplitter(
            chunk_size=self.chunk_size, chunk_overlap=self.chunk_overlap,
            **({} if self.separators is None else {"separators": list(self.separators)}),
        )


class LangchainCharacter(_LangchainSplitter):
    """``langchain_character``: langchain's ``CharacterTextSplitter`` (one separator, fixed size).

    Splits on ``separator`` and merges the pieces up to ``chunk_size`` characters. Extra:
    ``langchain``.

    Parameters
    ----------
    chunk_size : int, default 1000
        Maximum characters per chunk (a piece longer than that stays whole, as in langchain).
    chunk_overlap : int, default 0
        Characters shared by consecutive chunks.
    separator : str, default " "
        Where langchain may cut (``" "``: between words, so the cuts ignore the units;
        langchain's default ``"\\n\\n"`` cuts only between units joined by a blank line, as
        the blocks of Markdown and HTML pages are, never in text joined with ``"\\n"``).
    unit_separator : str, optional
        Whitespace joining the units; default the document's own (a blank line between Markdown
        or HTML blocks, a space between sentences), else a newline.
    """

    name = "langchain_character"

    def __init__(
        self, chunk_size: int = 1000, chunk_overlap: int = 0, separator: str = " ", unit_separator: str | None = None
    ) -> None:
        if not isinstance(separator, str):
            raise InvalidTypeError.make("separator", "a string", separator)
        _check_cut(separator, "separator")
        super().__init__(chunk_size, chunk_overlap, unit_separator)
        self.separator = separator

    def _splitter(self, module):
        return module.CharacterTextSplitter(
            separator=self.separator, chunk_size=self.chunk_size, chunk_overlap=self.chunk_overlap
        )


class Semchunk(_SizedChunker):
    """``semchunk``: ``semchunk.chunk`` with a word-count token counter (offline).

    semchunk splits at the most meaningful separator available (newlines, then sentence ends,
    clauses, words) into chunks of at most ``chunk_size`` tokens; here a token is a
    whitespace-separated word (:func:`word_count`), so no tokenizer is downloaded. Chunk starts
    come from semchunk's own character offsets. Extra: ``semchunk``.

    Parameters
    ----------
    chunk_size : int, default 150
        Maximum words per chunk.
    chunk_overlap : int, default 0
        Words shared by consecutive chunks (semchunk's ``overlap`` in tokens); each chunk start is
        a boundary, so an overlap adds boundaries inside the previous chunk.
    unit_separator : str, optional
        Whitespace joining the units; default the document's own (a blank line between Markdown
        or HTML blocks, a space between sentences), else a newline.
    """

    name = "semchunk"
    package, extra = "semchunk", "semchunk"
    parameter_hints = MappingProxyType({
        "overlap": "semchunk's 'overlap' is 'chunk_overlap' here",
        **dict.fromkeys(("token_counter", "tokenizer_or_token_counter", "tokenizer"),
                        _counter_hint("words (whitespace-separated)")),
    })

    def __init__(self, chunk_size: int = 150, chunk_overlap: int = 0, unit_separator: str | None = None) -> None:
        super().__init__(chunk_size, unit_separator)
        self.chunk_overlap = check_int(chunk_overlap, "chunk_overlap", low=0, high=self.chunk_size - 1)
        self._library()

    def _chunk(self, text: str, **options: Any) -> Any:
        module = self._library()
        return module.chunk(text, chunk_size=self.chunk_size, token_counter=word_count,
                            overlap=self.chunk_overlap or None, **options)

    def chunker(self, text: str) -> list[str]:  # type: ignore[override]
        return self._chunk(text)

    def chunk_starts(self, text: str) -> list[int]:
        _, offsets = self._chunk(text, offsets=True)
        return offsets_to_compact(text, [start for start, _ in offsets])


class _ChonkieChunker(_SizedChunker):
    """Shared set-up of the chonkie adapters (offline tokenizers only)."""

    package, extra = "chonkie", "chonkie"
    parameter_hints = MappingProxyType({
        "tokenizer_or_token_counter": "chonkie's 'tokenizer_or_token_counter' is 'tokenizer' here ('character' or 'word')",
    })

    def __init__(self, chunk_size: int, tokenizer: str, unit_separator: str | None) -> None:
        super().__init__(chunk_size, unit_separator)
        self.tokenizer = _check_tokenizer(tokenizer)
        self._library()

    def _chunks(self, text: str) -> list[Any]:
        return self._make(self._library()).chunk(text)

    def _make(self, module: Any) -> Any:
        raise NotImplementedError

    def chunker(self, text: str) -> list[str]:  # type: ignore[override]
        return [chunk.text for chunk in self._chunks(text)]

    def chunk_starts(self, text: str) -> list[int]:
        chunks = self._chunks(text)
        # chonkie's offsets drift where its word tokenizer drops whitespace (a run of spaces): used
        # only when every chunk's span holds its text, whitespace aside; else the chunks are located
        if all(_compact(text[chunk.start_index:chunk.end_index]) == _compact(chunk.text) for chunk in chunks):
            return offsets_to_compact(text, [chunk.start_index for chunk in chunks])
        return locate_chunks(text, [chunk.text for chunk in chunks])


class ChonkieRecursive(_ChonkieChunker):
    """``chonkie_recursive``: chonkie's ``RecursiveChunker`` with an offline tokenizer.

    Splits at paragraphs, then lines, sentence ends, punctuation, words, characters, up to
    ``chunk_size`` tokens. Chunk starts come from chonkie's ``start_index`` (the chunks are
    located in the text instead where those drift). Extra: ``chonkie``.

    Parameters
    ----------
    chunk_size : int, default 1000
        Maximum tokens per chunk: characters with ``tokenizer="character"`` (the default), words
        with ``"word"``.
    tokenizer : {"character", "word"}, default "character"
        What ``chunk_size`` counts: chonkie's built-in tokenizers (no download).
    unit_separator : str, optional
        Whitespace joining the units; default the document's own (a blank line between Markdown
        or HTML blocks, a space between sentences), else a newline.
    """

    name = "chonkie_recursive"
    parameter_hints = MappingProxyType({
        **_ChonkieChunker.parameter_hints,
        "chunk_overlap": "chonkie's RecursiveChunker has no overlap (chonkie adds one after chunking, which this "
                         "adapter does not do); chonkie_sentence, langchain_recursive, langchain_character, semchunk, "
                         "semantic_text_splitter and fixed_chars take chunk_overlap",
    })

    def __init__(self, chunk_size: int = 1000, tokenizer: str = "character", unit_separator: str | None = None) -> None:
        super().__init__(chunk_size, tokenizer, unit_separator)

    def _make(self, module: Any) -> Any:
        return module.RecursiveChunker(tokenizer=self.tokenizer, chunk_size=self.chunk_size)


class ChonkieSentence(_ChonkieChunker):
    """``chonkie_sentence``: chonkie's ``SentenceChunker`` with an offline tokenizer.

    Packs whole sentences (chonkie's own rule-based split on ``". "``, ``"! "``, ``"? "`` and
    newlines) into chunks of at most ``chunk_size`` tokens. Extra: ``chonkie``.

    Parameters
    ----------
    chunk_size, tokenizer, unit_separator :
        As :class:`ChonkieRecursive`.
    chunk_overlap : int, default 0
        Tokens shared by consecutive chunks, below ``chunk_size``.
    """

    name = "chonkie_sentence"

    def __init__(
        self, chunk_size: int = 1000, tokenizer: str = "character", chunk_overlap: int = 0,
        unit_separator: str | None = None,
    ) -> None:
        super().__init__(chunk_size, tokenizer, unit_separator)
        # chonkie refuses an overlap of chunk_size or more only when it chunks (every document a failure)
        self.chunk_overlap = check_int(chunk_overlap, "chunk_overlap", low=0, high=self.chunk_size - 1)

    def _make(self, module: Any) -> Any:
        return module.SentenceChunker(
            tokenizer=self.tokenizer, chunk_size=self.chunk_size, chunk_overlap=self.chunk_overlap
        )


class SemanticTextSplitter(_SizedChunker):
    """``semantic_text_splitter``: the ``TextSplitter`` of semantic-text-splitter (Rust ``text-splitter``).

    Splits at the largest semantic level that fits (newlines, then sentences, words, graphemes)
    and merges neighbouring pieces into chunks of at most ``chunk_size``: characters with
    ``tokenizer="character"`` (the library's own capacity), whitespace-separated words with
    ``"word"`` (:func:`word_count` as the library's size callback; no tokenizer is downloaded).
    Chunk starts come from the library's own character offsets (``chunk_indices``). Extra:
    ``semantic-text-splitter``.

    Parameters
    ----------
    chunk_size : int, default 1000
        Maximum tokens per chunk: characters with ``tokenizer="character"`` (the default), words
        with ``"word"`` (the upper end of the library's capacity).
    chunk_overlap : int, default 0
        Tokens consecutive chunks may share (the library's ``overlap``): below ``min_chunk_size``,
        or below ``chunk_size`` without it.
    min_chunk_size : int, optional
        With it the capacity is the range ``(min_chunk_size, chunk_size)``: a chunk is cut as
        soon as it reaches ``min_chunk_size`` tokens instead of being filled up to ``chunk_size``
        (default: filled up, the library's single capacity).
    tokenizer : {"character", "word"}, default "character"
        What the sizes count: characters, or whitespace-separated words (both offline).
    unit_separator : str, optional
        Whitespace joining the units; default the document's own (a blank line between Markdown
        or HTML blocks, a space between sentences), else a newline.
    """

    name = "semantic_text_splitter"
    package, extra = "semantic_text_splitter", "semantic-text-splitter"
    parameter_hints = MappingProxyType({
        "capacity": "semantic-text-splitter's 'capacity' is 'chunk_size' here (a range's lower end 'min_chunk_size')",
        "overlap": "semantic-text-splitter's 'overlap' is 'chunk_overlap' here",
    })

    def __init__(self, chunk_size: int = 1000, chunk_overlap: int = 0, min_chunk_size: int | None = None,
                 tokenizer: str = "character", unit_separator: str | None = None) -> None:
        super().__init__(chunk_size, unit_separator)
        self.min_chunk_size = None if min_chunk_size is None else check_int(
            min_chunk_size, "min_chunk_size", low=1, high=self.chunk_size)
        # the library refuses an overlap of the capacity's lower end or more only when it is built
        lowest = self.chunk_size if self.min_chunk_size is None else self.min_chunk_size
        self.chunk_overlap = check_int(chunk_overlap, "chunk_overlap", low=0, high=lowest - 1)
        self.tokenizer = _check_tokenizer(tokenizer)
        self._library()

    def _splitter(self) -> Any:
        splitter = self._library().TextSplitter
        capacity = self.chunk_size if self.min_chunk_size is None else (self.min_chunk_size, self.chunk_size)
        if self.tokenizer == "word":
            return splitter.from_callback(word_count, capacity, overlap=self.chunk_overlap)
        return splitter(capacity, overlap=self.chunk_overlap)

    def chunker(self, text: str) -> list[str]:  # type: ignore[override]
        return self._splitter().chunks(text)

    def chunk_starts(self, text: str) -> list[int]:
        return offsets_to_compact(text, [start for start, _ in self._splitter().chunk_indices(text)])


class LlamaIndexSentence(_SizedChunker):
    """``llamaindex_sentence``: llama-index's ``SentenceSplitter``, offline.

    Splits at paragraphs (``"\\n\\n\\n"``), then sentences, then clauses, words and characters, and
    packs the pieces, whole sentences first, into chunks of at most ``chunk_size`` tokens (the
    default node parser of LlamaIndex). Offline: a token is a whitespace-separated word (or a
    character), never a tiktoken token, and the sentences come from nltk's Punkt with its
    default parameters, as llama-index's own default does but without its check for nltk data,
    which downloads when ``NLTK_DATA`` names a folder without that data. Chunks are located in
    the text (llama-index returns strings only). Extra: ``llamaindex``, not part of ``chunkers``.

    Parameters
    ----------
    chunk_size : int, default 150
        Maximum tokens per chunk: words with ``tokenizer="word"`` (the default), characters with
        ``"character"``.
    chunk_overlap : int, default 0
        Tokens shared by consecutive chunks (llama-index's default is 200 tiktoken tokens).
    tokenizer : {"word", "character"}, default "word"
        What the sizes count: whitespace-separated words, or characters (both offline).
    unit_separator : str, optional
        Whitespace joining the units; default the document's own (a blank line between Markdown
        or HTML blocks, a space between sentences), else a newline.
    """

    name = "llamaindex_sentence"
    package, extra = "llama_index.core", "llamaindex"

    def __init__(self, chunk_size: int = 150, chunk_overlap: int = 0, tokenizer: str = "word",
                 unit_separator: str | None = None) -> None:
        super().__init__(chunk_size, unit_separator)
        self.chunk_overlap = check_int(chunk_overlap, "chunk_overlap", low=0, high=self.chunk_size - 1)
        self.tokenizer = _check_tokenizer(tokenizer)
        self._library()

    def chunker(self, text: str) -> list[str]:  # type: ignore[override]
        self._library()
        from llama_index.core.node_parser import SentenceSplitter
        from llama_index.core.node_parser.text.utils import split_by_sentence_tokenizer_internal
        from nltk.tokenize import PunktSentenceTokenizer

        sentences = functools.partial(split_by_sentence_tokenizer_internal, tokenizer=PunktSentenceTokenizer())
        splitter = SentenceSplitter(
            chunk_size=self.chunk_size, chunk_overlap=self.chunk_overlap,
            tokenizer=str.split if self.tokenizer == "word" else list, chunking_tokenizer_fn=sentences,
        )
        return splitter.split_text(text)
