"""Plain text without unit markup: one document per file, split into sentences, paragraphs or lines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..checks import check_choice
from ..corpus import Document, split_text
from ..exceptions import InvalidParameterError, InvalidTypeError, _short_repr
from ..splitters import Splitter, SplitterOption, SplitterSpec, check_splitter
from .common import (BLOCK_SEPARATOR, SENTENCE_SEPARATOR, PathLike, Source, NoTextError, gap_separators, make_document,
                     open_source, stream_files, unit_separator)

__all__ = ["read_text"]

PATTERNS = ("*.txt",)
UNITS = ("sentence", "paragraph", "line")


def read_text(
    path: PathLike,
    *,
    unit: str = "sentence",
    splitter: SplitterOption = None,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read plain text without unit markup, one document per file, with no reference.

    Paragraphs are separated by blank (whitespace-only) lines; the lines of a paragraph are
    stripped and joined with single spaces. ``unit="paragraph"`` makes each paragraph a unit,
    ``unit="sentence"`` splits each paragraph into sentences with ``splitter`` (a sentence never
    spans two paragraphs), ``unit="line"`` makes every non-blank line a unit.

    The default splitter, ``"auto"`` (see :mod:`stability.splitters`), trains nltk's Punkt on the
    corpus itself when it holds at least
    :data:`~stability.splitters.PUNKT_MIN_CHARACTERS` characters and uses abbreviation-aware
    rules otherwise; nothing is downloaded. Splitters that train read every file once before the
    first document is produced.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    unit : {"sentence", "paragraph", "line"}
        What a unit is.
    splitter : str or callable, optional
        Sentence splitter for ``unit="sentence"``: a name registered in
        :mod:`stability.splitters` (``"auto"``, ``"punkt"``, ``"rules"``, ``"pysbd"``...) or a
        callable ``text -> list[str]``. Default ``"auto"``.
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`); ``pattern``
        defaults to ``"*.txt"`` here.

    Returns
    -------
    iterator of Document
        ``meta`` holds ``format``, ``source``, ``unit``, ``unit_separator`` (the whitespace a
        text chunker joins the units with, as the file separates them: a blank line between
        paragraphs, a space between sentences, a newline between lines; see
        :data:`~stability.readers.common.UNIT_SEPARATORS`), ``unit_separators`` (that of every
        gap, which a chunker uses first: with ``unit="sentence"``, a space between the sentences of
        one paragraph and a blank line between those of two), ``splitter`` (its name, or the
        callable's qualified name; ``None`` unless ``unit="sentence"``) and ``notes``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = file.write_text("Dr. Smith left. The sky\\nis grey.\\n\\nTomorrow, sun.\\n")
    >>> next(read_text(file)).units
    ('Dr. Smith left.', 'The sky is grey.', 'Tomorrow, sun.')
    >>> next(read_text(file, unit="paragraph")).units
    ('Dr. Smith left. The sky is grey.', 'Tomorrow, sun.')
    """
    check_choice(unit, "unit", UNITS)
    resolved = resolve_splitter(splitter, unit)
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )
    name = _splitter_name(resolved)
    state: dict[str, Splitter] = {}

    def parse_file(doc_id: str, file: Path) -> list[Document]:
        if resolved is not None and "split" not in state:
            state["split"] = build_splitter(resolved, source, lambda file: _blocks(source, file, "paragraph"))
        units, before = _units(source, file, unit, state.get("split"))
        if not units:
            raise NoTextError("expected some text; the file is empty or blank", path=str(file))
        meta: dict[str, Any] = {"format": "text", "source": str(file), "unit": unit,
                                "unit_separator": unit_separator(unit), "unit_separators": gap_separators(before),
                                "splitter": name, "notes": []}
        return [make_document(file, None, id=doc_id, units=tuple(units), meta=meta)]

    return stream_files(source, parse_file)


def resolve_splitter(splitter: SplitterOption, unit: str) -> SplitterSpec | Splitter | None:
    """The splitter of a reader whose units are ``unit``: resolved for ``"sentence"``, else None
    (and an error when one was given anyway)."""
    if splitter is not None and unit != "sentence":
        raise InvalidParameterError(f"splitter applies only to unit='sentence'; received unit={unit!r}", parameter="splitter")
    return check_splitter(splitter) if unit == "sentence" else None


def _splitter_name(resolved: SplitterSpec | Splitter | None) -> str | None:
    if resolved is None or isinstance(resolved, SplitterSpec):
        return resolved.name if resolved is not None else None
    return getattr(resolved, "__qualname__", type(resolved).__qualname__)


def build_splitter(resolved: SplitterSpec | Splitter, source: Source,
                   paragraphs: Callable[[Path], Iterable[str]]) -> Splitter:
    """The splitter callable; a training splitter first reads ``paragraphs(file)`` of every file
    of the corpus (a file with nothing to segment gives none: it is left out, and named, when it
    is read)."""
    if not isinstance(resolved, SplitterSpec):
        return resolved

    return resolved.build(corpus_text(source, paragraphs) if resolved.trains else None)


def corpus_text(source: Source, paragraphs: Callable[[Path], Iterable[str]]) -> Iterator[str]:
    """What a training splitter learns from: ``paragraphs(file)`` of every file of ``source``, a
    file with nothing to segment giving none (it is left out, and named, when it is read)."""
    for _, file in source.files:
        try:
            yield from paragraphs(file)
        except NoTextError:  # raised here, it would leave out the file being read, not this one
            continue


def _blocks(source: Source, file: Path, unit: str) -> Iterator[str]:
    """The non-blank lines (``unit="line"``) or the paragraphs of ``file``, stripped and joined."""
    paragraph: list[str] = []
    for line in source.lines(file):
        text = line.strip()
        if text and unit == "line":
            yield text
        elif text:
            paragraph.append(text)
        elif paragraph:
            yield " ".join(paragraph)
            paragraph = []
    if paragraph:
        yield " ".join(paragraph)


def _units(source: Source, file: Path, unit: str, split: Splitter | None) -> tuple[list[str], list[str]]:
    """The units of ``file`` and the whitespace before each in it: a paragraph's sentences a space
    apart, those of two paragraphs a blank line, paragraphs a blank line, lines a newline."""
    blocks = _blocks(source, file, unit)
    if split is None:
        units = list(blocks)
        return units, [unit_separator(unit)] * len(units)
    units, before = [], []
    for block in blocks:
        sentences = list(_checked_split(split, block, file))
        units += sentences
        before += [BLOCK_SEPARATOR] + [SENTENCE_SEPARATOR] * (len(sentences) - 1) if sentences else []
    return units, before


def _checked_split(split: Splitter, block: str, file: Path) -> Iterable[str]:
    sentences = split_text(split, block, str(file))
    if not all(isinstance(s, str) for s in sentences):
        raise InvalidTypeError(
            f"{file}: the splitter must return a list of strings; received {_short_repr(sentences)}"
        )
    return [s.strip() for s in sentences if s.strip()]
