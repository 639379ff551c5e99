"""Corpus readers: turn files on disk into a stream of :class:`~stability.corpus.Document`.

One entry point, :func:`read_corpus`, detects the format (or is told it) and returns a lazy
iterator of documents. One function per format does the work:

========  =====================  ===============================================================
format    reader                 layout
========  =====================  ===============================================================
choi      :func:`read_choi`      one unit per line, segments separated by ``==========`` lines
                                 (Choi 2000); one document per file
wiki      :func:`read_wiki`      Wiki-727K / Wiki-50: ``========,<level>,<title>.`` headers start
                                 sections, one sentence per line; one document per file
jsonl     :func:`read_jsonl`     one JSON object per line: ``{"id", "units", "references",
                                 "times"}``
csv       :func:`read_csv`       one row per unit: a text column, label columns (one per
                                 annotator), optional start/end time columns, optional document
                                 column
text      :func:`read_text`      plain text, split into sentences (nltk Punkt, untrained),
                                 paragraphs (blank-line separated) or lines
========  =====================  ===============================================================

Conventions shared by every reader
----------------------------------
* **Streaming.** Readers validate their options and list the files when called, then return a
  generator: files are opened one at a time, JSON lines and CSV rows are read one line at a time,
  and only the document being built is held in memory.
* **Errors.** Every format error is a :class:`~stability.exceptions.CorpusFormatError` whose
  message starts with ``path:line:`` and says what was expected and what was found. Document ids
  must be unique over the stream; a repeated id is a format error at the place it repeats.
* **Encodings.** ``encoding="utf-8"`` by default, strict: a byte sequence that does not decode is
  a :class:`CorpusFormatError` naming the file, the line and the byte offset, and suggesting
  ``encoding=`` (e.g. ``"latin-1"``). A UTF-8 byte-order mark at the start of a file is ignored.
  ``encoding_errors`` (``"strict"``, ``"replace"``, ``"ignore"``...) is passed to :func:`open`.
  Choi's benchmark files are plain ASCII, so the UTF-8 default reads them unchanged.
* **Ids.** Formats with one document per file (choi, wiki, text) use the file's path relative to
  the directory given, with ``/`` separators (``1/3-11/0.ref``); a single file given directly is
  named by its file name. Directories are walked recursively, hidden entries (``.name``) are
  skipped, and files are sorted in natural order (``2.ref`` before ``10.ref``). JSON lines use the
  ``id`` field (default: the line number); CSV uses the document column (default: the file stem).
* **Notes.** Anything a reader repairs or drops is recorded as a sentence in
  ``Document.meta["notes"]`` (always a list) and also emitted as a :class:`CorpusWarning`, so it
  can be silenced with ``warnings.simplefilter("ignore", CorpusWarning)`` or made an error with
  ``warnings.simplefilter("error", CorpusWarning)``.
* **Meta.** ``Document.meta`` holds ``format``, ``source`` (the file) and, where a document starts
  at a known line, ``line``; format-specific keys are listed with each reader.

Writers :func:`write_jsonl`, :func:`write_choi` and :func:`write_csv` produce files that the
matching readers read back to equal documents.
"""

from __future__ import annotations

import codecs
import csv
import errno
import fnmatch
import json
import math
import os
import re
import warnings
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Callable, Union

from .corpus import Document
from .exceptions import (
    CorpusFormatError,
    InvalidParameterError,
    InvalidSegmentationError,
    InvalidTypeError,
    _short_repr,
)
from .segmentation import Segmentation

__all__ = [
    "FORMATS",
    "CHOI_SEPARATOR",
    "CorpusWarning",
    "detect_format",
    "read_corpus",
    "read_choi",
    "read_wiki",
    "read_jsonl",
    "read_csv",
    "read_text",
    "write_jsonl",
    "write_choi",
    "write_csv",
]

PathLike = Union[str, "os.PathLike[str]"]

#: Names accepted by ``read_corpus(format=...)``.
FORMATS: tuple[str, ...] = ("choi", "wiki", "jsonl", "csv", "text")

#: The line that separates two segments in Choi's files.
CHOI_SEPARATOR = "=========="

_WIKI_HEADER = re.compile(r"^========,\s*(\d+)\s*,(.*)$")
_WIKI_LIST_LINES = frozenset({"***LIST***", "***LIST***."})

#: File-name patterns each reader uses for a directory when ``pattern`` is not given.
DEFAULT_PATTERNS: dict[str, tuple[str, ...]] = {
    "choi": ("*.ref",),
    "wiki": ("*",),
    "jsonl": ("*.jsonl", "*.json"),
    "csv": ("*.csv", "*.tsv"),
    "text": ("*.txt",),
}

_TEXT_COLUMNS = ("text", "sentence", "unit", "utterance", "content")
_DOCUMENT_COLUMNS = ("document", "doc_id", "document_id", "doc")
_LABEL_COLUMNS = ("label", "labels", "segment", "topic", "reference", "ground_truth")
_LABEL_PREFIXES = ("label_", "reference_", "ref_", "annotator_")
_UNITS = ("sentence", "paragraph", "line")

_VALIDATION_ERRORS = (InvalidParameterError, InvalidSegmentationError, InvalidTypeError)


class CorpusWarning(UserWarning):
    """Something in a corpus file was repaired or dropped; the same text is in ``meta["notes"]``."""


# ---------------------------------------------------------------------------------------------
# small helpers: options, files, lines, encodings
# ---------------------------------------------------------------------------------------------
def _natural_key(relative: str) -> tuple:
    """Sort key putting ``2`` before ``10`` in every path component."""
    parts = []
    for component in relative.split("/"):
        pieces = re.split(r"(\d+)", component)
        parts.append(tuple(int(p) if i % 2 else p.lower() for i, p in enumerate(pieces)))
    return (tuple(parts), relative)


def _check_limit(limit: Any) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise InvalidParameterError.make("limit", "None or an integer >= 0", limit)
    return limit


def _check_encoding(encoding: Any, errors: Any) -> str:
    """Validate ``encoding``/``errors``; return the codec actually used for reading."""
    if not isinstance(encoding, str):
        raise InvalidTypeError.make("encoding", "a codec name such as 'utf-8' or 'latin-1'", encoding)
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise InvalidParameterError.make(
            "encoding", "a codec name known to Python, such as 'utf-8' or 'latin-1'", encoding
        ) from None
    if not isinstance(errors, str):
        raise InvalidTypeError.make("encoding_errors", "an error handler name such as 'strict'", errors)
    try:
        codecs.lookup_error(errors)
    except LookupError:
        raise InvalidParameterError.make(
            "encoding_errors", "an error handler name: 'strict', 'replace', 'ignore'...", errors
        ) from None
    # utf-8-sig decodes exactly like utf-8 but drops a byte-order mark at the start of the file.
    return "utf-8-sig" if info.name == "utf-8" else encoding


def _check_patterns(pattern: Any, default: tuple[str, ...]) -> tuple[str, ...]:
    if pattern is None:
        return default
    if isinstance(pattern, str):
        patterns: tuple = (pattern,)
    elif isinstance(pattern, Iterable):
        patterns = tuple(pattern)
    else:
        raise InvalidTypeError.make("pattern", "a glob string or a sequence of glob strings", pattern)
    if not patterns or not all(isinstance(p, str) and p for p in patterns):
        raise InvalidParameterError.make("pattern", "a non-empty glob string such as '*.ref'", pattern)
    return patterns


def _list_files(path: PathLike, patterns: tuple[str, ...]) -> tuple[Path, list[tuple[str, Path]]]:
    """Return ``(root, [(relative id, file)])``; a single file is returned alone, named by its name."""
    root = Path(path)
    if root.is_file():
        return root, [(root.name, root)]
    if not root.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such corpus file or directory", str(root))
    found = []
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = [d for d in subdirs if not d.startswith(".")]
        for name in names:
            if name.startswith(".") or not any(fnmatch.fnmatch(name, p) for p in patterns):
                continue
            full = Path(directory) / name
            found.append((full.relative_to(root).as_posix(), full))
    if not found:
        raise CorpusFormatError(
            f"expected files matching {' or '.join(repr(p) for p in patterns)} in this directory "
            f"(searched recursively); found none (pass pattern= to choose other files)",
            path=str(root),
        )
    found.sort(key=lambda item: _natural_key(item[0]))
    return root, found


def _decode_error(path: Path, encoding: str, exc: UnicodeDecodeError) -> CorpusFormatError:
    """Locate a decoding error (line, byte offset) by rescanning the file, and describe it."""
    line, offset, bad = None, None, exc.object[exc.start : exc.end] if exc.object else b""
    try:
        decoder = codecs.getincrementaldecoder(encoding)("strict")
        fed = 0
        newlines = 0
        previous_cr = False
        with open(path, "rb") as handle:
            while True:
                chunk = handle.read(1 << 16)
                pending = len(decoder.getstate()[0])  # bytes held back from the previous chunk
                try:
                    text = decoder.decode(chunk, final=not chunk)
                except UnicodeDecodeError as err:
                    offset = fed - pending + err.start
                    bad = err.object[err.start : err.end]
                    text = err.object[: err.start].decode(encoding, "replace")
                    newlines += _count_newlines(text, previous_cr)
                    line = newlines + 1
                    break
                if not chunk:
                    break
                newlines += _count_newlines(text, previous_cr)
                previous_cr = text.endswith("\r")
                fed += len(chunk)
    except OSError:  # pragma: no cover - the file vanished between the two reads
        pass
    where = f" at byte offset {offset}" if offset is not None else ""
    shown = "utf-8" if encoding == "utf-8-sig" else encoding
    return CorpusFormatError(
        f"cannot decode the file as {shown!r}{where} (bytes {bad!r}: {exc.reason}); "
        f"pass encoding= with the file's encoding (for example encoding='latin-1' or 'cp1252'), "
        f"or encoding_errors='replace' to substitute undecodable bytes",
        path=str(path),
        line=line,
    )


def _count_newlines(text: str, previous_cr: bool) -> int:
    """Count line ends (``\\n``, ``\\r\\n``, lone ``\\r``) as text-mode reading does."""
    count = text.count("\n") + text.count("\r") - text.count("\r\n")
    if previous_cr and text.startswith("\n"):
        count -= 1
    return count


def _iter_lines(path: Path, encoding: str, errors: str, *, raw: bool = False) -> Iterator[str]:
    """Yield the lines of ``path`` one at a time, turning decoding errors into format errors.

    With ``raw=False`` line ends are normalised and removed; with ``raw=True`` the file is opened
    with ``newline=""`` and lines keep their ends (what :mod:`csv` needs).
    """
    try:
        with open(path, encoding=encoding, errors=errors, newline="" if raw else None) as handle:
            if raw:
                yield from handle
            else:
                for line in handle:
                    yield line[:-1] if line.endswith("\n") else line
    except UnicodeDecodeError as exc:
        raise _decode_error(path, encoding, exc) from None


def _note(notes: list[str], path: Path, text: str) -> None:
    notes.append(text)
    warnings.warn(f"{path}: {text}", CorpusWarning, stacklevel=4)


def _make_document(path: Path, line: int | None, **fields: Any) -> Document:
    """Build a Document, turning validation errors into format errors that name the place."""
    try:
        return Document(**fields)
    except _VALIDATION_ERRORS as exc:
        raise CorpusFormatError(f"document {fields.get('id')!r}: {exc}", path=str(path), line=line) from None


def _stream(documents: Iterator[Document], limit: int | None) -> Iterator[Document]:
    """Check that ids are unique and stop after ``limit`` documents."""
    try:
        if limit != 0:
            yield from _unique(documents, limit)
    finally:
        close = getattr(documents, "close", None)
        if close is not None:
            close()  # closes the file being read when the consumer stops early


def _unique(documents: Iterator[Document], limit: int | None) -> Iterator[Document]:
    seen: dict[str, str] = {}
    count = 0
    for doc in documents:
        source = str(doc.meta.get("source", "")) or None
        line = doc.meta.get("line")
        where = f"{source}:{line}" if line is not None else str(source)
        if doc.id in seen:
            raise CorpusFormatError(
                f"document id {doc.id!r} was already used by the document at {seen[doc.id]}; "
                f"expected unique document ids",
                path=source,
                line=line,
            )
        seen[doc.id] = where
        yield doc
        count += 1
        if limit is not None and count >= limit:
            return


# ---------------------------------------------------------------------------------------------
# Choi
# ---------------------------------------------------------------------------------------------
def read_choi(
    path: PathLike,
    *,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    blank_lines: str = "keep",
    limit: int | None = None,
) -> Iterator[Document]:
    """Read Choi-style files: one unit per line, segments separated by ``==========`` lines.

    Each file is one document whose single reference segmentation comes from the separators.
    Units are the lines with surrounding whitespace removed. Separators before the first unit and
    after the last one only frame the document. Two separators in a row (an empty segment, found
    in Choi's set 4) are dropped with a note. A whitespace-only line is a unit (``""``) by default:
    in Choi's set 4 such lines are counted as sentences of their segment (e.g. ``4/3-5/16.ref``
    keeps every segment within 3-5 units only with them), so keeping them preserves Choi's
    reference positions; ``blank_lines="drop"`` removes them instead. Both cases leave a note.

    Parameters
    ----------
    path : str or path-like
        A Choi file, or a directory searched recursively at any depth (``choi/``,
        ``choi/1/3-11/``).
    encoding, encoding_errors : str
        Text encoding (default UTF-8, strict; Choi's own files are ASCII) and error handler.
    pattern : str or sequence of str, optional
        File-name glob(s) selecting files in a directory; default ``"*.ref"``.
    blank_lines : {"keep", "drop"}
        What to do with whitespace-only lines.
    limit : int, optional
        Stop after this many documents.

    Returns
    -------
    iterator of Document
        Ids are paths relative to ``path`` (``"1/3-11/0.ref"``), in natural order. ``meta`` has
        ``format``, ``source`` and ``notes``.

    Raises
    ------
    CorpusFormatError
        A file with no unit, a malformed separator line (``=`` only, but not ten of them, or a
        Wiki-727K header), a decoding error. Raised while iterating, naming file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "0.ref").write_text("==========\\na .\\nb .\\n==========\\nc .\\n==========\\n")
    >>> doc = next(read_choi(folder))
    >>> doc.id, doc.units, doc.references[0].boundaries
    ('0.ref', ('a .', 'b .', 'c .'), (2,))
    """
    codec = _check_encoding(encoding, encoding_errors)
    patterns = _check_patterns(pattern, DEFAULT_PATTERNS["choi"])
    if blank_lines not in ("keep", "drop"):
        raise InvalidParameterError.make("blank_lines", "'keep' or 'drop'", blank_lines)
    limit = _check_limit(limit)
    _, files = _list_files(path, patterns)

    def generate() -> Iterator[Document]:
        for doc_id, file in files:
            yield _parse_choi(file, doc_id, _iter_lines(file, codec, encoding_errors), blank_lines)

    return _stream(generate(), limit)


def _parse_choi(path: Path, doc_id: str, lines: Iterable[str], blank_lines: str) -> Document:
    units: list[str] = []
    sizes: list[int] = []
    notes: list[str] = []
    current = 0
    last_separator: int | None = None
    for lineno, line in enumerate(lines, 1):
        text = line.strip()
        if text == CHOI_SEPARATOR:
            if current:
                sizes.append(current)
            elif last_separator is not None:
                _note(
                    notes,
                    path,
                    f"line {lineno}: empty segment dropped (this '{CHOI_SEPARATOR}' separator directly "
                    f"follows the one on line {last_separator})",
                )
            current = 0
            last_separator = lineno
            continue
        if text.startswith("========,") or (len(text) >= 3 and set(text) == {"="}):
            wiki = text.startswith("========,")
            hint = " (this is a Wiki-727K section header: use format='wiki')" if wiki else ""
            raise CorpusFormatError(
                f"expected a unit or a separator line of exactly ten '=' ({CHOI_SEPARATOR!r}); "
                f"received {_short_repr(text)}{hint}",
                path=str(path),
                line=lineno,
            )
        if not text:
            if blank_lines == "drop":
                _note(notes, path, f"line {lineno}: blank line dropped")
                continue
            _note(notes, path, f"line {lineno}: blank line kept as an empty unit (unit {len(units)})")
        units.append(text)
        current += 1
    if current:
        sizes.append(current)
    if not units:
        raise CorpusFormatError(
            f"expected at least one unit line between '{CHOI_SEPARATOR}' separators; the file has none",
            path=str(path),
        )
    reference = Segmentation.from_masses(sizes)
    return _make_document(
        path,
        None,
        id=doc_id,
        units=tuple(units),
        references=(reference,),
        meta={"format": "choi", "source": str(path), "notes": notes},
    )


# ---------------------------------------------------------------------------------------------
# Wiki-727K / Wiki-50
# ---------------------------------------------------------------------------------------------
def _check_levels(levels: Any) -> frozenset[int] | None:
    """Accept None (every level), an int, an iterable of ints, or a string ``"1,2"`` / ``"1-3"``."""
    if levels is None:
        return None
    expected = "None, a level (int >= 1), a collection of levels, or a string such as '1,2' or '1-3'"
    values: set[int] = set()
    if isinstance(levels, bool):
        raise InvalidParameterError.make("levels", expected, levels)
    if isinstance(levels, int):
        values.add(levels)
    elif isinstance(levels, str):
        for part in levels.split(","):
            part = part.strip()
            match = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part)
            if not match:
                raise InvalidParameterError.make("levels", expected, levels)
            lo = int(match.group(1))
            hi = int(match.group(2)) if match.group(2) else lo
            if hi < lo:
                raise InvalidParameterError.make("levels", expected + " (ranges low-high)", levels)
            values.update(range(lo, hi + 1))
    elif isinstance(levels, Iterable):
        for level in levels:
            if isinstance(level, bool) or not isinstance(level, int):
                raise InvalidParameterError.make("levels", expected, levels)
            values.add(level)
    else:
        raise InvalidParameterError.make("levels", expected, levels)
    if not values or min(values) < 1:
        raise InvalidParameterError.make("levels", expected, levels)
    return frozenset(values)


def read_wiki(
    path: PathLike,
    *,
    levels: int | str | Iterable[int] | None = None,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read Wiki-727K / Wiki-50 files (Koshorek et al. 2018): one sentence per line, headed sections.

    A line ``========,<level>,<title>.`` starts a section. When its level is in ``levels`` it
    starts a new reference segment; headers of other levels are removed and their text continues
    the current segment (``levels=(1, 2)`` is Koshorek's "low granularity"). Sections left without
    any sentence (a header directly followed by another, as for every article whose first
    sub-section follows its title) are not segments; this is normal in Wiki-727K, so it is not
    noted. ``***LIST***`` lines (with or without the final dot) and blank lines are dropped;
    ``meta["list_lines_dropped"]`` counts the former. Units are lines with surrounding whitespace
    removed.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    levels : int, str or collection of int, optional
        Header levels that count as boundaries; default every level. ``"1,2"`` and ``"1-2"`` are
        accepted (for command lines).
    encoding, encoding_errors : str
        Text encoding and error handler (default UTF-8, strict).
    pattern : str or sequence of str, optional
        File-name glob(s) in a directory; default ``"*"`` (Wiki-727K files have no extension).
    limit : int, optional
        Stop after this many documents.

    Returns
    -------
    iterator of Document
        One reference per document. ``meta["titles"]`` holds the title of each reference segment
        (``None`` for text before the first header) and ``meta["levels"]`` the counted levels
        (``None`` for all).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "300"
    >>> _ = file.write_text("========,1,preface.\\nA.\\n========,2,Life.\\n***LIST***.\\nB.\\n"
    ...                     "========,3,Youth.\\nC.\\n")
    >>> doc = next(read_wiki(file))
    >>> doc.units, doc.references[0].boundaries, doc.meta["titles"]
    (('A.', 'B.', 'C.'), (1, 2), ('preface', 'Life', 'Youth'))
    >>> next(read_wiki(file, levels=[1, 2])).references[0].boundaries
    (1,)
    """
    codec = _check_encoding(encoding, encoding_errors)
    patterns = _check_patterns(pattern, DEFAULT_PATTERNS["wiki"])
    wanted = _check_levels(levels)
    limit = _check_limit(limit)
    _, files = _list_files(path, patterns)

    def generate() -> Iterator[Document]:
        for doc_id, file in files:
            yield _parse_wiki(file, doc_id, _iter_lines(file, codec, encoding_errors), wanted)

    return _stream(generate(), limit)


def _parse_wiki(path: Path, doc_id: str, lines: Iterable[str], levels: frozenset[int] | None) -> Document:
    units: list[str] = []
    sizes: list[int] = []
    titles: list[str | None] = []
    title: str | None = None
    current = 0
    dropped = 0
    for lineno, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        if text.startswith("========"):
            match = _WIKI_HEADER.match(text)
            if not match:
                raise CorpusFormatError(
                    f"expected a section header '========,<level>,<title>.'; received {_short_repr(text)}",
                    path=str(path),
                    line=lineno,
                )
            if levels is None or int(match.group(1)) in levels:
                if current:
                    sizes.append(current)
                    titles.append(title)
                current = 0
                header_title = match.group(2).strip()
                title = header_title[:-1] if header_title.endswith(".") else header_title
            continue
        if text in _WIKI_LIST_LINES:
            dropped += 1
            continue
        units.append(text)
        current += 1
    if current:
        sizes.append(current)
        titles.append(title)
    if not units:
        raise CorpusFormatError(
            "expected at least one sentence line besides section headers and ***LIST*** lines; "
            "the file has none",
            path=str(path),
        )
    return _make_document(
        path,
        None,
        id=doc_id,
        units=tuple(units),
        references=(Segmentation.from_masses(sizes),),
        meta={
            "format": "wiki",
            "source": str(path),
            "notes": [],
            "titles": tuple(titles),
            "levels": None if levels is None else tuple(sorted(levels)),
            "list_lines_dropped": dropped,
        },
    )


# ---------------------------------------------------------------------------------------------
# JSON lines
# ---------------------------------------------------------------------------------------------
_JSONL_KEYS = ("id", "units", "references", "times", "meta")
_JSONL_MISSPELLINGS = {
    "reference": "references",
    "refs": "references",
    "boundaries": "references",
    "segmentation": "references",
    "sentences": "units",
    "unit": "units",
    "text": "units",
    "time": "times",
    "timestamps": "times",
}


def read_jsonl(
    path: PathLike,
    *,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read JSON lines: one document per line, ``{"id", "units", "references", "times"}``.

    ``units`` (a list of strings) is required. ``references`` is a list of boundary lists (one per
    annotator; boundary ``b`` starts a segment at unit ``b``, ``1 <= b <= n-1``), ``times`` a list
    of ``[start, end]`` pairs of finite numbers with ``start <= end``, one per unit, ``meta`` an
    object; all optional. ``id`` may be a string or an integer (turned into a string); when it is
    missing the id is the 1-based line number, prefixed by ``<relative file>:`` when a directory
    is read. Other keys are kept in
    ``meta``, except near-misses of the known keys (``reference``, ``boundaries``, ``sentences``,
    ``text``, ``time``...), which are errors so that a misspelt reference is never silently
    lost. Blank lines are skipped.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    encoding, encoding_errors : str
        Text encoding and error handler (default UTF-8, strict).
    pattern : str or sequence of str, optional
        File-name glob(s) in a directory; default ``("*.jsonl", "*.json")``.
    limit : int, optional
        Stop after this many documents.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "corpus.jsonl"
    >>> _ = file.write_text('{"id": "a", "units": ["x", "y", "z"], "references": [[1], [2]]}\\n')
    >>> doc = next(read_jsonl(file))
    >>> doc.id, [r.boundaries for r in doc.references]
    ('a', [(1,), (2,)])
    """
    codec = _check_encoding(encoding, encoding_errors)
    patterns = _check_patterns(pattern, DEFAULT_PATTERNS["jsonl"])
    limit = _check_limit(limit)
    root, files = _list_files(path, patterns)
    single = root.is_file()

    def generate() -> Iterator[Document]:
        for relative, file in files:
            prefix = "" if single else f"{relative}:"
            for lineno, line in enumerate(_iter_lines(file, codec, encoding_errors), 1):
                if not line.strip():
                    continue
                yield _parse_jsonl_line(file, lineno, line, prefix)

    return _stream(generate(), limit)


def _parse_jsonl_line(path: Path, lineno: int, line: str, prefix: str) -> Document:
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(message, path=str(path), line=lineno)

    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        hint = ""
        if line.strip() in ("[", "{"):
            hint = " (the file looks like pretty-printed JSON; expected JSON lines: one object per line)"
        raise fail(f"invalid JSON at column {exc.colno}: {exc.msg}{hint}") from None
    if not isinstance(record, dict):
        raise fail(
            "expected a JSON object with 'units' (and optionally 'id', 'references', 'times'); "
            f"received {type(record).__name__} {_short_repr(record)}"
        )
    for key in record:
        if key in _JSONL_MISSPELLINGS:
            raise fail(
                f"unknown key {key!r}: did you mean {_JSONL_MISSPELLINGS[key]!r}? "
                f"expected keys {', '.join(_JSONL_KEYS)}"
            )
    doc_id = record.get("id", f"{prefix}{lineno}")
    if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)):
        raise fail(f"'id' must be a string or an integer; received {_short_repr(doc_id)}")
    doc_id = str(doc_id)
    if "units" not in record:
        raise fail(f"document {doc_id!r}: expected a 'units' list of strings; the key is missing")
    units = record["units"]
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise fail(f"document {doc_id!r}: 'units' must be a list of strings; received {_short_repr(units)}")
    references = record.get("references", [])
    if not isinstance(references, list) or not all(isinstance(r, list) for r in references):
        raise fail(
            f"document {doc_id!r}: 'references' must be a list of boundary lists, one per annotator "
            f"(e.g. [[3, 7]]); received {_short_repr(references)}"
        )
    for j, ref in enumerate(references):
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in ref):
            raise fail(
                f"document {doc_id!r}: references[{j}] must be a list of integer boundaries; "
                f"received {_short_repr(ref)}"
            )
    times = record.get("times")
    if times is not None:
        if not isinstance(times, list):
            raise fail(
                f"document {doc_id!r}: 'times' must be a list of [start, end] pairs; received {_short_repr(times)}"
            )
        for k, pair in enumerate(times):
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in pair)
                or not all(math.isfinite(t) for t in pair)
            ):
                raise fail(
                    f"document {doc_id!r}: times[{k}] must be a [start, end] pair of finite numbers; "
                    f"received {_short_repr(pair)}"
                )
            if pair[1] < pair[0]:
                raise fail(
                    f"document {doc_id!r}: times[{k}] must have start <= end; received {_short_repr(pair)}"
                )
    meta = record.get("meta", {})
    if not isinstance(meta, dict):
        raise fail(f"document {doc_id!r}: 'meta' must be an object; received {_short_repr(meta)}")
    meta = dict(meta)
    for key, value in record.items():
        if key not in _JSONL_KEYS:
            meta[key] = value
    meta.update({"format": "jsonl", "source": str(path), "line": lineno})
    meta.setdefault("notes", [])
    return _make_document(
        path,
        lineno,
        id=doc_id,
        units=tuple(units),
        references=tuple(references),
        times=times,
        meta=meta,
    )


def write_jsonl(
    documents: Iterable[Document], path: PathLike, *, encoding: str = "utf-8", include_meta: bool = False
) -> int:
    """Write documents as JSON lines that :func:`read_jsonl` reads back to equal documents.

    Each line holds ``id``, ``units``, ``references`` (boundary lists) and, when the document has
    them, ``times``. ``meta`` is written only with ``include_meta=True`` (it must then be JSON
    serialisable; the reader's own keys ``format``, ``source``, ``line``, ``notes`` are left out).

    Parameters
    ----------
    documents : iterable of Document
        Written one at a time, so a generator is never held in memory.
    path : str or path-like
        Output file (overwritten).
    encoding : str
        Output encoding; non-ASCII text is written as is, not escaped.
    include_meta : bool
        Also write each document's ``meta``.

    Returns
    -------
    int
        Number of documents written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "out.jsonl"
    >>> write_jsonl([Document("a", ("x", "y"), references=([1],))], file)
    1
    >>> file.read_text()
    '{"id": "a", "units": ["x", "y"], "references": [[1]]}\\n'
    """
    count = 0
    with open(path, "w", encoding=encoding, newline="\n") as handle:
        for doc in documents:
            if not isinstance(doc, Document):
                raise InvalidTypeError.make(f"documents[{count}]", "a Document", doc)
            record: dict[str, Any] = {
                "id": doc.id,
                "units": list(doc.units),
                "references": [list(ref.boundaries) for ref in doc.references],
            }
            if doc.times is not None:
                record["times"] = [list(pair) for pair in doc.times]
            if include_meta:
                meta = {k: v for k, v in doc.meta.items() if k not in ("format", "source", "line", "notes")}
                if meta:
                    record["meta"] = meta
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def write_choi(documents: Iterable[Document], directory: PathLike, *, reference: int = 0) -> int:
    """Write each document as a Choi file ``directory/<id>`` (``.ref`` appended if missing).

    The file starts and ends with a separator, like Choi's; segments come from the document's
    reference number ``reference`` (a document without references is written as one segment). Ids
    containing ``/`` create sub-directories, so a corpus read with :func:`read_choi` is written back
    to the same tree. Units must be single lines, without surrounding whitespace, and must not be a
    separator, otherwise they would not read back the same.

    Returns
    -------
    int
        Number of files written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_choi([Document("0", ("a", "b", "c"), references=([2],))], folder)
    1
    >>> (folder / "0.ref").read_text()
    '==========\\na\\nb\\n==========\\nc\\n==========\\n'
    """
    root = Path(directory)
    count = 0
    for doc in documents:
        if not isinstance(doc, Document):
            raise InvalidTypeError.make(f"documents[{count}]", "a Document", doc)
        name = doc.id if doc.id.endswith(".ref") else doc.id + ".ref"
        parts = Path(name).parts
        if Path(name).is_absolute() or ".." in parts or not parts:
            raise InvalidParameterError(
                f"document id {doc.id!r} must be a relative path inside the output directory to be "
                f"written as a Choi file"
            )
        for i, unit in enumerate(doc.units):
            if "\n" in unit or "\r" in unit or unit != unit.strip() or unit == CHOI_SEPARATOR:
                raise InvalidParameterError(
                    f"document {doc.id!r} unit {i} cannot be written as one Choi line (it must be a "
                    f"single line without surrounding whitespace, not a separator); received "
                    f"{_short_repr(unit)}"
                )
        if doc.references:
            if not isinstance(reference, int) or not 0 <= reference < len(doc.references):
                raise InvalidParameterError.make(
                    "reference", f"an index in 0..{len(doc.references) - 1} for document {doc.id!r}", reference
                )
            segments = doc.references[reference].segments
        else:
            segments = ((0, doc.n_units),)
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(CHOI_SEPARATOR + "\n")
            for start, stop in segments:
                for unit in doc.units[start:stop]:
                    handle.write(unit + "\n")
                handle.write(CHOI_SEPARATOR + "\n")
        count += 1
    return count


# ---------------------------------------------------------------------------------------------
# CSV / TSV
# ---------------------------------------------------------------------------------------------
def _column_list(value: Any, name: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        columns = tuple(value)
        if all(isinstance(c, str) for c in columns):
            return columns
    raise InvalidTypeError.make(name, "a column name or a sequence of column names", value)


def _check_column(value: Any, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise InvalidTypeError.make(name, "a column name (str)", value)
    return value


def read_csv(
    path: PathLike,
    *,
    text_column: str | None = None,
    label_columns: str | Sequence[str] | None = None,
    start_column: str | None = None,
    end_column: str | None = None,
    document_column: str | None = None,
    delimiter: str | None = None,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read CSV/TSV files with a header row and one row per unit.

    A document spans consecutive rows with the same value in the document column (the whole file
    when there is none; its id is then the file stem, or the relative path without suffix when a
    directory is read). Rows of one document must be consecutive. Each label column is one
    annotator: a change of label from one row to the next starts a new segment (the
    ``ground_truth`` topic numbers of a podcast transcript, for example). A label column left empty
    for every row of a document means that annotator has no reference for it; partly empty is an
    error. Times likewise: both cells filled on every row, or empty on every row. Text cells are
    kept as they are (not stripped); labels, ids and times are stripped. Blank rows are skipped.

    Columns are chosen by name; when an option is ``None`` the first header found (compared
    without case) is used:

    * ``text_column``: ``text``, ``sentence``, ``unit``, ``utterance``, ``content`` (required);
    * ``label_columns``: every column named ``label``, ``labels``, ``segment``, ``topic``,
      ``reference``, ``ground_truth`` or starting with ``label_``, ``reference_``, ``ref_``,
      ``annotator_`` (none found: no references);
    * ``start_column`` / ``end_column``: ``start`` and ``end`` (used only if both exist);
    * ``document_column``: ``document``, ``doc_id``, ``document_id``, ``doc``.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    text_column, label_columns, start_column, end_column, document_column : str, optional
        Column names (``label_columns`` may be a list); see above for defaults.
    delimiter : str, optional
        Field delimiter; default tab for ``.tsv``/``.tab`` files and comma otherwise.
    encoding, encoding_errors : str
        Text encoding and error handler (default UTF-8, strict).
    pattern : str or sequence of str, optional
        File-name glob(s) in a directory; default ``("*.csv", "*.tsv")``.
    limit : int, optional
        Stop after this many documents.

    Returns
    -------
    iterator of Document
        ``meta`` holds ``format``, ``source``, ``line`` (first row), ``label_columns`` (the
        columns of the references, in order) and ``notes``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "ep.csv"
    >>> _ = file.write_text("start,end,sentence,ground_truth\\n0,1.5,Hi.,1\\n1.5,3,Welcome.,1\\n3,4,News.,2\\n")
    >>> doc = next(read_csv(file))
    >>> doc.id, doc.references[0].boundaries, doc.times[2]
    ('ep', (2,), (3.0, 4.0))
    """
    codec = _check_encoding(encoding, encoding_errors)
    patterns = _check_patterns(pattern, DEFAULT_PATTERNS["csv"])
    limit = _check_limit(limit)
    options = {
        "text_column": _check_column(text_column, "text_column"),
        "label_columns": _column_list(label_columns, "label_columns"),
        "start_column": _check_column(start_column, "start_column"),
        "end_column": _check_column(end_column, "end_column"),
        "document_column": _check_column(document_column, "document_column"),
    }
    if delimiter is not None and (not isinstance(delimiter, str) or len(delimiter) != 1):
        raise InvalidParameterError.make("delimiter", "a single character such as ',' or '\\t'", delimiter)
    root, files = _list_files(path, patterns)
    single = root.is_file()

    def generate() -> Iterator[Document]:
        for relative, file in files:
            default_id = file.stem if single else Path(relative).with_suffix("").as_posix()
            sep = delimiter or ("\t" if file.suffix.lower() in (".tsv", ".tab") else ",")
            yield from _parse_csv(file, default_id, codec, encoding_errors, sep, options)

    return _stream(generate(), limit)


def _pick(header: list[str], given: str | None, candidates: Sequence[str], path: Path, what: str) -> str | None:
    """Index a column by its given name (which must exist) or by the first matching candidate."""
    if given is not None:
        if given not in header:
            raise CorpusFormatError(
                f"expected a {what} column named {given!r}; the header has {_short_repr(header, 200)}",
                path=str(path),
                line=1,
            )
        return given
    lowered = {h.strip().lower(): h for h in reversed(header)}
    for candidate in candidates:
        if candidate in lowered:
            return lowered[candidate]
    return None


def _parse_csv(
    path: Path, default_id: str, codec: str, errors: str, delimiter: str, options: dict[str, Any]
) -> Iterator[Document]:
    reader = csv.reader(_iter_lines(path, codec, errors, raw=True), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise CorpusFormatError(
            "expected a header row naming the columns; the file is empty", path=str(path), line=1
        ) from None
    except csv.Error as exc:
        raise CorpusFormatError(f"malformed CSV: {exc}", path=str(path), line=reader.line_num) from None
    duplicates = sorted({h for h in header if header.count(h) > 1})
    if duplicates:
        raise CorpusFormatError(
            f"expected distinct column names in the header; {duplicates} repeat", path=str(path), line=1
        )
    text = _pick(header, options["text_column"], _TEXT_COLUMNS, path, "text")
    if text is None:
        raise CorpusFormatError(
            f"expected a text column ({', '.join(_TEXT_COLUMNS)}, or pass text_column=); the header has "
            f"{_short_repr(header, 200)}",
            path=str(path),
            line=1,
        )
    if options["label_columns"] is not None:
        labels = [_pick(header, c, (), path, "label") for c in options["label_columns"]]
    else:
        labels = [
            h
            for h in header
            if h.strip().lower() in _LABEL_COLUMNS or h.strip().lower().startswith(_LABEL_PREFIXES)
        ]
    start = _pick(header, options["start_column"], ("start",), path, "start time")
    end = _pick(header, options["end_column"], ("end",), path, "end time")
    if (options["start_column"] is None) != (options["end_column"] is None) and (start is None or end is None):
        missing = "end_column" if start is not None else "start_column"
        raise CorpusFormatError(
            f"times need both a start and an end column; pass {missing}= too (header "
            f"{_short_repr(header, 200)})",
            path=str(path),
            line=1,
        )
    if start is None or end is None:
        start = end = None
    document = _pick(header, options["document_column"], _DOCUMENT_COLUMNS, path, "document")
    index = {name: i for i, name in enumerate(header)}
    text_i = index[text]
    label_is = [index[c] for c in labels]
    time_is = (index[start], index[end]) if start is not None else None
    doc_i = index[document] if document is not None else None

    finished: set[str] = set()
    rows: list[tuple[int, list[str]]] = []
    current_id: str | None = None

    def build(doc_id: str, rows: list[tuple[int, list[str]]]) -> Document:
        first_line = rows[0][0]
        units = tuple(row[text_i] for _, row in rows)
        references = []
        used = []
        for column, col_i in zip(labels, label_is):
            values = [row[col_i].strip() for _, row in rows]
            filled = [bool(v) for v in values]
            if not any(filled):
                continue
            if not all(filled):
                lineno = rows[filled.index(False)][0]
                raise CorpusFormatError(
                    f"document {doc_id!r}: expected a label in column {column!r} on every row of the "
                    f"document (or on none); this row has none",
                    path=str(path),
                    line=lineno,
                )
            references.append(Segmentation.from_labels(values))
            used.append(column)
        times = None
        if time_is is not None:
            cells = [(lineno, row[time_is[0]].strip(), row[time_is[1]].strip()) for lineno, row in rows]
            if any(a or b for _, a, b in cells):
                times = []
                for lineno, a, b in cells:
                    pair = []
                    for column, cell in ((start, a), (end, b)):
                        try:
                            value = float(cell)
                        except ValueError:
                            value = math.nan
                        if not math.isfinite(value):
                            raise CorpusFormatError(
                                f"document {doc_id!r}: expected a number of seconds in column {column!r} "
                                f"(times must be given on every row of a document, or on none); "
                                f"received {cell!r}",
                                path=str(path),
                                line=lineno,
                            )
                        pair.append(value)
                    if pair[1] < pair[0]:
                        raise CorpusFormatError(
                            f"document {doc_id!r}: expected start <= end; received start {pair[0]} "
                            f"and end {pair[1]}",
                            path=str(path),
                            line=lineno,
                        )
                    times.append(tuple(pair))
        return _make_document(
            path,
            first_line,
            id=doc_id,
            units=units,
            references=tuple(references),
            times=times,
            meta={
                "format": "csv",
                "source": str(path),
                "line": first_line,
                "label_columns": tuple(used),
                "notes": [],
            },
        )

    while True:
        lineno = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise CorpusFormatError(f"malformed CSV: {exc}", path=str(path), line=reader.line_num) from None
        if not row or (len(row) == 1 and not row[0].strip() and len(header) > 1):
            continue
        if len(row) != len(header):
            raise CorpusFormatError(
                f"expected {len(header)} fields as in the header; received {len(row)}: {_short_repr(row)}",
                path=str(path),
                line=lineno,
            )
        doc_id = row[doc_i].strip() if doc_i is not None else default_id
        if doc_i is not None and not doc_id:
            raise CorpusFormatError(
                f"expected a document id in column {document!r}; the cell is empty", path=str(path), line=lineno
            )
        if doc_id != current_id:
            if doc_id in finished:
                raise CorpusFormatError(
                    f"rows of document {doc_id!r} resume after other documents; expected the rows of a "
                    f"document to be consecutive",
                    path=str(path),
                    line=lineno,
                )
            if rows:
                yield build(current_id, rows)
                finished.add(current_id)
            rows = []
            current_id = doc_id
        rows.append((lineno, row))
    if rows:
        yield build(current_id, rows)
    elif not finished:
        raise CorpusFormatError(
            "expected at least one data row after the header; found none",
            path=str(path),
            line=reader.line_num + 1,
        )


def write_csv(
    documents: Iterable[Document], path: PathLike, *, delimiter: str | None = None, encoding: str = "utf-8"
) -> int:
    """Write documents as one CSV/TSV file that :func:`read_csv` reads back to equal documents.

    Columns: ``document``, ``text``, then ``start`` and ``end`` if any document has times, then
    one label column per reference (``label`` when no document has more than one reference,
    otherwise ``label_1``, ``label_2``...), holding each unit's segment number. Cells of a
    document that lacks a reference or times are left empty. The header depends on every
    document, so a one-shot iterator is turned into a list first.

    Returns
    -------
    int
        Number of documents written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "out.csv"
    >>> write_csv([Document("a", ("x", "y"), references=([1],))], file)
    1
    >>> file.read_text().splitlines()
    ['document,text,label', 'a,x,0', 'a,y,1']
    """
    docs = documents if isinstance(documents, Sequence) else list(documents)
    for i, doc in enumerate(docs):
        if not isinstance(doc, Document):
            raise InvalidTypeError.make(f"documents[{i}]", "a Document", doc)
    target = Path(path)
    if delimiter is None:
        delimiter = "\t" if target.suffix.lower() in (".tsv", ".tab") else ","
    n_refs = max((len(d.references) for d in docs), default=0)
    with_times = any(d.times is not None for d in docs)
    label_names = ["label"] if n_refs == 1 else [f"label_{k + 1}" for k in range(n_refs)]
    header = ["document", "text"] + (["start", "end"] if with_times else []) + label_names
    with open(target, "w", encoding=encoding, newline="") as handle:
        writer = csv.writer(handle, delimiter=delimiter)  # "\r\n" ends: cells with \r get quoted
        writer.writerow(header)
        for doc in docs:
            labels = [ref.labels for ref in doc.references]
            for i, unit in enumerate(doc.units):
                row = [doc.id, unit]
                if with_times:
                    row += [repr(doc.times[i][0]), repr(doc.times[i][1])] if doc.times is not None else ["", ""]
                row += [str(labels[k][i]) if k < len(labels) else "" for k in range(n_refs)]
                writer.writerow(row)
    return len(docs)


# ---------------------------------------------------------------------------------------------
# plain text
# ---------------------------------------------------------------------------------------------
_PUNKT = None


def _sentence_splitter() -> Callable[[str], list[str]]:
    global _PUNKT
    if _PUNKT is None:
        from nltk.tokenize.punkt import PunktSentenceTokenizer

        _PUNKT = PunktSentenceTokenizer()  # untrained: no data download needed
    return _PUNKT.tokenize


def read_text(
    path: PathLike,
    *,
    unit: str = "sentence",
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read plain text without unit markup, one document per file, with no reference.

    Paragraphs are separated by blank (whitespace-only) lines; the lines of a paragraph are
    stripped and joined with single spaces. ``unit="paragraph"`` makes each paragraph a unit,
    ``unit="sentence"`` splits each paragraph into sentences with nltk's Punkt tokenizer, untrained
    (no data download; a sentence never spans two paragraphs), ``unit="line"`` makes every
    non-blank line a unit.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    unit : {"sentence", "paragraph", "line"}
        What a unit is.
    encoding, encoding_errors : str
        Text encoding and error handler (default UTF-8, strict).
    pattern : str or sequence of str, optional
        File-name glob(s) in a directory; default ``"*.txt"``.
    limit : int, optional
        Stop after this many documents.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = file.write_text("It rains. The sky\\nis grey.\\n\\nTomorrow, sun.\\n")
    >>> next(read_text(file)).units
    ('It rains.', 'The sky is grey.', 'Tomorrow, sun.')
    >>> next(read_text(file, unit="paragraph")).units
    ('It rains. The sky is grey.', 'Tomorrow, sun.')
    """
    codec = _check_encoding(encoding, encoding_errors)
    if unit not in _UNITS:
        raise InvalidParameterError.make("unit", "one of 'sentence', 'paragraph', 'line'", unit)
    patterns = _check_patterns(pattern, DEFAULT_PATTERNS["text"])
    limit = _check_limit(limit)
    _, files = _list_files(path, patterns)
    split = _sentence_splitter() if unit == "sentence" else None

    def generate() -> Iterator[Document]:
        for doc_id, file in files:
            units: list[str] = []
            paragraph: list[str] = []

            def flush() -> None:
                if paragraph:
                    joined = " ".join(paragraph)
                    units.extend(split(joined) if split is not None else [joined])
                    paragraph.clear()

            for line in _iter_lines(file, codec, encoding_errors):
                text = line.strip()
                if not text:
                    flush()
                elif unit == "line":
                    units.append(text)
                else:
                    paragraph.append(text)
            flush()
            if not units:
                raise CorpusFormatError("expected some text; the file is empty or blank", path=str(file))
            yield _make_document(
                file,
                None,
                id=doc_id,
                units=tuple(units),
                meta={"format": "text", "source": str(file), "unit": unit, "notes": []},
            )

    return _stream(generate(), limit)


# ---------------------------------------------------------------------------------------------
# detection and the entry point
# ---------------------------------------------------------------------------------------------
_SNIFF_FILES = 10  # files of a directory looked at when extensions do not decide
_EXTENSIONS = {".ref": "choi", ".jsonl": "jsonl", ".json": "jsonl", ".csv": "csv", ".tsv": "csv"}


def _sniff(file: Path, codec: str, errors: str, max_lines: int = 200) -> str | None:
    """Guess choi / wiki from the first lines of a file; ``None`` if neither."""
    seen = 0
    for line in _iter_lines(file, codec, errors):
        text = line.strip()
        if not text:
            continue
        if text.startswith("========,") and _WIKI_HEADER.match(text):
            return "wiki"
        if text == CHOI_SEPARATOR:
            return "choi"
        seen += 1
        if seen >= max_lines:
            break
    return None


def _detect(path: PathLike, codec: str, errors: str) -> tuple[str, str, tuple[str, ...] | None]:
    """Return ``(format, reason, pattern)``; ``pattern`` overrides the reader's default if set."""
    root = Path(path)
    if root.is_file():
        suffix = root.suffix.lower()
        if suffix in _EXTENSIONS:
            return _EXTENSIONS[suffix], f"from the file extension {suffix!r}", None
        found = _sniff(root, codec, errors)
        if found == "wiki":
            return "wiki", "from a '========,<level>,<title>.' header line", None
        if found == "choi":
            return "choi", f"from a {CHOI_SEPARATOR!r} separator line", None
        return "text", "no unit markup found (no separator, header, or known extension)", None
    _, files = _list_files(root, ("*",))
    suffixes = {file.suffix.lower() for _, file in files}
    for suffix, fmt in _EXTENSIONS.items():  # in order of preference
        if suffix in suffixes:
            return fmt, f"from the {suffix!r} files in the directory", None
    sniffed = files[:_SNIFF_FILES]
    for relative, file in sniffed:
        found = _sniff(file, codec, errors)
        if found is not None:
            what = "a '========,<level>,<title>.' header" if found == "wiki" else f"a {CHOI_SEPARATOR!r} separator"
            return found, f"from {what} in {relative!r}", ("*",)
    if ".txt" in suffixes:
        return "text", "from the '.txt' files in the directory", None
    names = ", ".join(repr(relative) for relative, _ in sniffed)
    raise CorpusFormatError(
        f"cannot detect the corpus format: no .ref, .jsonl, .json, .csv, .tsv or .txt files, and "
        f"none of {names} has '{CHOI_SEPARATOR}' separators or '========,<level>,<title>.' "
        f"headers; pass format= (one of {', '.join(FORMATS)})",
        path=str(root),
    )


def detect_format(path: PathLike, *, encoding: str = "utf-8", encoding_errors: str = "strict") -> str:
    """Name the format :func:`read_corpus` would use for ``path``.

    Rules, in order. A file: its extension (``.ref`` choi, ``.jsonl``/``.json`` jsonl,
    ``.csv``/``.tsv`` csv); otherwise its first non-blank lines (a ``========,<level>,<title>.``
    header: wiki; a ``==========`` line: choi); otherwise text. A directory (searched
    recursively): the first of ``.ref``, ``.jsonl``, ``.json``, ``.csv``, ``.tsv`` files present;
    otherwise the content of its first ten files in natural order, as for a file (when one of
    them decides, every non-hidden file of the directory is read, whatever its name: pass
    ``pattern=`` to narrow it); otherwise ``.txt`` files: text; otherwise a
    :class:`CorpusFormatError`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "article"
    >>> _ = file.write_text("========,1,preface.\\nHello.\\n")
    >>> detect_format(file)
    'wiki'
    """
    codec = _check_encoding(encoding, encoding_errors)
    return _detect(path, codec, encoding_errors)[0]


_FORMAT_OPTIONS = {
    "choi": {"blank_lines"},
    "wiki": {"levels"},
    "jsonl": set(),
    "csv": {"text_column", "label_columns", "start_column", "end_column", "document_column", "delimiter"},
    "text": {"unit"},
}
_FORMAT_ALIASES = {
    "json": "jsonl",
    "tsv": "csv",
    "txt": "text",
    "wiki727k": "wiki",
    "wiki-727k": "wiki",
    "wiki50": "wiki",
    "wiki-50": "wiki",
}


def read_corpus(
    path: PathLike,
    format: str | None = None,
    *,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
    levels: int | str | Iterable[int] | None = None,
    unit: str | None = None,
    blank_lines: str | None = None,
    text_column: str | None = None,
    label_columns: str | Sequence[str] | None = None,
    start_column: str | None = None,
    end_column: str | None = None,
    document_column: str | None = None,
    delimiter: str | None = None,
) -> Iterator[Document]:
    """Read a corpus in any supported format, detected or given, as a lazy stream of documents.

    Options are checked and the format detected when this function is called; files are read
    only as the returned iterator is consumed. An option that the format does not use (``levels``
    for a CSV file, say) is an error, since it usually means the format was misdetected. Format
    errors raised while reading say which format was used and whether it was detected or given.

    Parameters
    ----------
    path : str or path-like
        A file or a directory.
    format : {"choi", "wiki", "jsonl", "csv", "text"}, optional
        The format; detected when omitted (see :func:`detect_format`). Case is ignored, and
        ``"json"``, ``"tsv"``, ``"txt"``, ``"wiki727k"``, ``"wiki50"`` are accepted as aliases.
    encoding, encoding_errors : str
        Text encoding (default UTF-8) and error handler (default strict).
    pattern : str or sequence of str, optional
        File-name glob(s) selecting files in a directory; defaults per format: ``*.ref`` (choi),
        ``*`` (wiki), ``*.jsonl``/``*.json``, ``*.csv``/``*.tsv``, ``*.txt`` (text).
    limit : int, optional
        Stop after this many documents.
    levels :
        Wiki only: header levels that are boundaries (see :func:`read_wiki`).
    unit : {"sentence", "paragraph", "line"}
        Text only (default ``"sentence"``).
    blank_lines : {"keep", "drop"}
        Choi only (default ``"keep"``).
    text_column, label_columns, start_column, end_column, document_column, delimiter :
        CSV only (see :func:`read_csv`).

    Returns
    -------
    iterator of Document

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "doc.txt"
    >>> _ = file.write_text("One. Two.\\n\\nThree.\\n")
    >>> [d.units for d in read_corpus(file)]
    [('One.', 'Two.', 'Three.')]
    >>> [d.units for d in read_corpus(file, "text", unit="paragraph")]
    [('One. Two.', 'Three.')]
    """
    codec = _check_encoding(encoding, encoding_errors)
    if format is None:
        fmt, reason, sniffed_pattern = _detect(path, codec, encoding_errors)
        how = f"format {fmt!r} detected {reason}"
        if pattern is None and sniffed_pattern is not None:
            pattern = sniffed_pattern
    else:
        fmt = _FORMAT_ALIASES.get(format.lower(), format.lower()) if isinstance(format, str) else format
        if fmt not in FORMATS:
            raise InvalidParameterError.make("format", f"None (detect) or one of {', '.join(FORMATS)}", format)
        how = f"format {fmt!r} given"
    options = {
        "levels": levels,
        "unit": unit,
        "blank_lines": blank_lines,
        "text_column": text_column,
        "label_columns": label_columns,
        "start_column": start_column,
        "end_column": end_column,
        "document_column": document_column,
        "delimiter": delimiter,
    }
    given = {name: value for name, value in options.items() if value is not None}
    for name in given:
        if name not in _FORMAT_OPTIONS[fmt]:
            users = [f for f, names in _FORMAT_OPTIONS.items() if name in names]
            raise InvalidParameterError(
                f"{name} applies only to format {' or '.join(repr(u) for u in users)}; the corpus is read "
                f"as {how}; pass format= if the detection is wrong"
            )
    readers = {"choi": read_choi, "wiki": read_wiki, "jsonl": read_jsonl, "csv": read_csv, "text": read_text}
    try:
        documents = readers[fmt](
            path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit, **given
        )
    except CorpusFormatError as exc:
        raise _with_format(exc, how) from exc
    return _explain(documents, how)


def _with_format(exc: CorpusFormatError, how: str) -> CorpusFormatError:
    message = str(exc)
    prefix = f"{exc.path}:{exc.line}: " if exc.line is not None else f"{exc.path}: " if exc.path else ""
    body = message[len(prefix) :] if message.startswith(prefix) else message
    return CorpusFormatError(f"{body} [{how}; pass format= to override]", path=exc.path, line=exc.line)


def _explain(documents: Iterator[Document], how: str) -> Iterator[Document]:
    try:
        yield from documents
    except CorpusFormatError as exc:
        raise _with_format(exc, how) from exc
