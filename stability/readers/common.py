"""What every corpus reader shares: option checks, file listing, decoding, notes, the stream.

A reader validates its options and lists its files when it is called (:func:`open_source`), then
returns the lazy stream built by :func:`stream_files`: files are opened one at a time, only the
document being built is held in memory, ids are checked for uniqueness and ``limit`` is applied.
Every format error is a :class:`~stability.exceptions.CorpusFormatError` naming ``path:line``.
"""

from __future__ import annotations

import codecs
import errno
import fnmatch
import os
import re
import statistics
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar, Union

from ..checks import check_int, first_few, listed
from ..corpus import Document
from ..exceptions import (
    CorpusFormatError,
    InvalidParameterError,
    InvalidSegmentationError,
    InvalidTypeError,
    StabilityWarning,
    warn,
)
from ..segmentation import Segmentation

__all__ = [
    "CorpusWarning",
    "NoTextError",
    "PathLike",
    "Source",
    "check_encoding",
    "declared_encoding",
    "checked_documents",
    "consecutive_groups",
    "first_lines",
    "iter_lines",
    "Listing",
    "list_files",
    "list_folder",
    "looks_binary",
    "make_document",
    "marked_encoding",
    "note",
    "open_source",
    "stream_files",
    "BLOCK_SEPARATOR",
    "LINE_SEPARATOR",
    "SENTENCE_SEPARATOR",
    "UNIT_SEPARATORS",
    "gap_separators",
    "unit_separator",
]

PathLike = Union[str, "os.PathLike[str]"]

T = TypeVar("T")

_VALIDATION_ERRORS = (InvalidParameterError, InvalidSegmentationError, InvalidTypeError)
#: Error handlers that decode undecodable bytes to lone surrogates: units no file or hash can encode.
SURROGATE_HANDLERS = ("surrogateescape", "surrogatepass")


class CorpusWarning(StabilityWarning):
    """Something in a corpus file was repaired, dropped or ignored; the same text is in ``meta["notes"]``.

    Examples
    --------
    >>> import tempfile, warnings
    >>> from stability import read_corpus
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "talk.txt").write_text("One sentence here. Another one there.")
    ...     _ = (Path(folder) / "empty.txt").write_text("")
    ...     with warnings.catch_warnings(record=True) as caught:
    ...         warnings.simplefilter("always")
    ...         documents = list(read_corpus(folder))
    >>> [document.id for document in documents], caught[0].category.__name__
    (['talk.txt'], 'CorpusWarning')
    >>> str(caught[0].message)  # doctest: +ELLIPSIS
    '...: 1 file(s) without text to segment left out of the corpus: empty.txt (expected some text; ...)'
    """


# ---------------------------------------------------------------------------------------------
# option checks
# ---------------------------------------------------------------------------------------------
def check_encoding(encoding: Any, errors: Any) -> str:
    """Validate ``encoding``/``errors``; return the codec actually used for reading."""
    if not isinstance(encoding, str):
        raise InvalidTypeError.make("encoding", "a codec name such as 'utf-8' or 'latin-1'", encoding)
    try:
        info = codecs.lookup(encoding)
    except (LookupError, ValueError):  # ValueError: a name with a NUL character
        raise InvalidParameterError.make(
            "encoding", "a codec name known to Python, such as 'utf-8' or 'latin-1'", encoding
        ) from None
    if not isinstance(errors, str):
        raise InvalidTypeError.make("encoding_errors", "an error handler name such as 'strict'", errors)
    try:
        codecs.lookup_error(errors)
    except (LookupError, ValueError):  # ValueError: a name with a NUL character
        raise InvalidParameterError.make(
            "encoding_errors", "an error handler name: 'strict', 'replace', 'ignore'...", errors
        ) from None
    if errors in SURROGATE_HANDLERS:
        raise InvalidParameterError.make(
            "encoding_errors", "a handler that decodes to text, such as 'strict', 'replace' or 'ignore' (this one "
            "leaves undecodable bytes as lone surrogates, which no text can be written with)", errors
        )
    # utf-8-sig decodes exactly like utf-8 but drops a byte-order mark at the start of the file.
    return "utf-8-sig" if info.name == "utf-8" else encoding


def _check_patterns(pattern: Any, default: tuple[str, ...]) -> tuple[str, ...]:
    if pattern is None:
        return default
    if isinstance(pattern, str):
        patterns: tuple = (pattern,)
    elif listed(pattern):
        patterns = tuple(pattern)
    else:
        raise InvalidTypeError.make("pattern", "a glob string or a sequence of glob strings", pattern)
    if not patterns or not all(isinstance(p, str) and p for p in patterns):
        raise InvalidParameterError.make("pattern", "a non-empty glob string such as '*.ref'", pattern)
    return patterns


# ---------------------------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------------------------
def _natural_key(relative: str) -> tuple:
    """Sort key putting ``2`` before ``10`` in every path component."""
    parts = []
    for component in relative.split("/"):
        pieces = re.split(r"(\d+)", component)
        parts.append(tuple(int(p) if i % 2 else p.lower() for i, p in enumerate(pieces)))
    return (tuple(parts), relative)


@dataclass(frozen=True)
class Listing:
    """A corpus folder listed once: every file under ``root``, hidden entries left out, in the
    order of the walk (see :func:`_walk`), as ``(relative id, file)`` pairs.

    It is path-like (``os.fspath`` gives the folder), so a reader takes it where it takes a
    folder: :func:`~stability.readers.read_corpus` lists a folder once, detects its format from the
    listing and hands the listing to the reader, whose :func:`list_files` chooses its files from it
    rather than walking the folder again (a file added or removed meanwhile cannot give a corpus
    read from two states of the folder).
    """

    root: Path
    files: tuple[tuple[str, Path], ...]

    def __fspath__(self) -> str:
        return os.fspath(self.root)

    def __str__(self) -> str:
        return str(self.root)


#: Folders of a site's source that hold no page of it: the templates of Jekyll (``_layouts``,
#: ``_includes``) and Sphinx (``_templates``), the pages built again by Jekyll or Eleventy
#: (``_site``) and Sphinx (``_build``), installed packages (``node_modules``). Never read below the
#: folder given (one given itself is read whatever its name).
SITE_MACHINERY = frozenset({"_layouts", "_includes", "_templates", "_site", "_build", "node_modules", "__pycache__"})
#: Folders that are a generator's build output or templates only beside its configuration file
#: (a folder named ``site`` may hold pages elsewhere): MkDocs's ``site``, Hugo's ``public``,
#: ``layouts`` and ``themes``, Docusaurus's and Sphinx's (source and build apart) ``build``.
_MKDOCS, _HUGO = ("mkdocs.yml", "mkdocs.yaml"), ("hugo.toml", "hugo.yaml", "hugo.json")
SITE_MACHINERY_BESIDE = {"site": _MKDOCS, "public": _HUGO, "layouts": _HUGO, "themes": _HUGO,
                         "build": ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs",
                                   "source/conf.py")}


def _site_machinery(directory: str, name: str) -> bool:
    """Whether the folder ``name`` in ``directory`` is one of :data:`SITE_MACHINERY` (or of
    :data:`SITE_MACHINERY_BESIDE`, its generator's configuration beside it)."""
    if name in SITE_MACHINERY:
        return True
    return any(os.path.isfile(os.path.join(directory, config)) for config in SITE_MACHINERY_BESIDE.get(name, ()))


def list_folder(path: PathLike, *, quiet: bool = False) -> Listing:
    """Walk the directory ``path`` once (see :class:`Listing`); a path that is no directory is a
    :class:`FileNotFoundError` naming it (call it on a directory: a single file is no folder).
    Folders of a site's templates, build output or installed packages below it are not read
    (:data:`SITE_MACHINERY`), with a warning naming them (none when ``quiet``)."""
    root = Path(path)
    if not root.is_dir():
        # as given, unless it climbs ("configs/../../x" from a config: said resolved, links followed)
        said = root.resolve() if ".." in root.parts else root
        raise FileNotFoundError(errno.ENOENT, "no such corpus file or directory", str(said))
    files: list[tuple[str, Path]] = []
    skipped: list[str] = []
    for directory, names in _walk(root, skipped):
        for name in names:
            if not name.startswith("."):
                full = Path(directory) / name
                files.append((full.relative_to(root).as_posix(), full))
    if skipped and not quiet:
        shown = sorted((Path(folder).relative_to(root).as_posix() for folder in skipped), key=_natural_key)
        warn(f"{root}: {len(shown)} folder(s) of a site's templates, build output or installed packages not read "
             f"({first_few(shown)}): give such a folder as the corpus to read its files", CorpusWarning)
    return Listing(root, tuple(files))


def list_files(path: PathLike | Listing, patterns: tuple[str, ...], *,
               quiet: bool = False) -> tuple[Path, list[tuple[str, Path]]]:
    """Return ``(root, [(relative id, file)])``; a single file is returned alone, named by its name.

    Directories are walked recursively, following symbolic links (see :func:`_walk`), hidden
    entries are skipped, files are sorted in natural order (``2.ref`` before ``10.ref``), and a
    file reached twice (a link to a file listed already) is listed once, with a warning (none when
    ``quiet``: a listing that only looks, to detect the format). A
    matching entry that cannot be read as a file (a broken symbolic link, a named pipe) is a
    :class:`CorpusFormatError` naming it. A :class:`Listing` is not walked again: the files are
    chosen from it.
    """
    if not isinstance(path, Listing):
        if Path(path).is_file():
            return Path(path), [(Path(path).name, Path(path))]
        path = list_folder(path, quiet=quiet)
    root = path.root
    found = []
    for relative, full in path.files:
        if any(fnmatch.fnmatch(full.name, p) for p in patterns):
            _check_regular_file(full)
            found.append((relative, full))
    if not found:
        raise CorpusFormatError(
            f"expected files matching {' or '.join(repr(p) for p in patterns)} in this directory "
            f"(searched recursively); found none (pass pattern= to choose other files)",
            path=str(root),
        )
    found.sort(key=lambda item: _natural_key(item[0]))
    return root, _once(root, found, quiet)


def _once(root: Path, found: list[tuple[str, Path]], quiet: bool) -> list[tuple[str, Path]]:
    """``found`` with each file read once: a file reached again through a symbolic link is left
    out under its later name, with a warning naming both (it would be a second document)."""
    first: dict[str, str] = {}
    kept, again = [], []
    for relative, file in found:
        real = os.path.realpath(file)
        if real in first:
            again.append(f"{relative!r} (the file {first[real]!r} is)")
            continue
        first[real] = relative
        kept.append((relative, file))
    if again and not quiet:
        warn(f"{root}: {len(again)} file(s) reached again through a symbolic link read once, under the first "
             f"name: {_shown(again)}", CorpusWarning)
    return kept


def _walk(root: Path, skipped: list[str] | None = None) -> Iterator[tuple[str, list[str]]]:
    """``(directory, file names)`` under ``root``, hidden directories left out, and those of
    :func:`_site_machinery` below it, added to ``skipped``.

    Symbolic links to directories are followed (a corpus assembled from links is read whole),
    except one that leads back to a directory it sits in, and a directory reached twice is read
    once, under the first path in sorted order.
    """
    visited: set[str] = set()
    for directory, subdirs, names in os.walk(root, followlinks=True):
        here = os.path.realpath(directory)
        if here in visited:
            subdirs[:] = []
            continue
        visited.add(here)
        machinery = sorted(d for d in subdirs if not d.startswith(".") and _site_machinery(directory, d))
        if skipped is not None:
            skipped.extend(os.path.join(directory, d) for d in machinery)
        subdirs[:] = sorted(
            d for d in subdirs if not d.startswith(".") and d not in machinery
            and not _encloses(os.path.join(directory, d), here)
        )
        yield directory, names


def _encloses(subdir: str, here: str) -> bool:
    """Whether ``subdir`` (a link, say) leads to ``here`` or one of its parents: a loop."""
    target = os.path.realpath(subdir)
    return here == target or here.startswith(target.rstrip(os.sep) + os.sep)


def _check_regular_file(file: Path) -> None:
    """Refuse a listed entry that is not a readable file, naming it."""
    if file.is_file():
        return
    if file.is_symlink():
        problem = f"a symbolic link to {os.readlink(file)!r}, which does not exist"
    else:
        problem = "not a regular file (a named pipe or a device)"
    raise CorpusFormatError(
        f"expected a corpus file; this is {problem} (remove it, or pass pattern= to leave it out)",
        path=str(file),
    )


@dataclass(frozen=True)
class Source:
    """The checked options and the listed files of one reader call."""

    root: Path
    files: list[tuple[str, Path]]
    codec: str
    errors: str
    limit: int | None

    @property
    def single(self) -> bool:
        """True when one file was given rather than a directory."""
        return self.root.is_file()

    def lines(self, file: Path, *, raw: bool = False) -> Iterator[str]:
        """The lines of ``file`` (see :func:`iter_lines`)."""
        return iter_lines(file, self.codec, self.errors, raw=raw)


def open_source(
    path: PathLike | Listing,
    *,
    encoding: str,
    encoding_errors: str,
    pattern: str | Sequence[str] | None,
    limit: int | None,
    default_patterns: tuple[str, ...],
) -> Source:
    """Check the options shared by every reader and list the files to read."""
    codec = check_encoding(encoding, encoding_errors)
    patterns = _check_patterns(pattern, default_patterns)
    checked_limit = check_int(limit, "limit", low=0, none=True)
    root, files = list_files(path, patterns)
    return Source(root, files, codec, encoding_errors, checked_limit)


# ---------------------------------------------------------------------------------------------
# lines and decoding errors
# ---------------------------------------------------------------------------------------------
def _count_newlines(text: str, previous_cr: bool) -> int:
    """Count line ends (``\\n``, ``\\r\\n``, lone ``\\r``) as text-mode reading does."""
    count = text.count("\n") + text.count("\r") - text.count("\r\n")
    if previous_cr and text.startswith("\n"):
        count -= 1
    return count


def _locate_decode_error(path: Path, encoding: str) -> tuple[int | None, int | None, bytes | None]:
    """Rescan ``path`` to find ``(line, byte offset, bad bytes)`` of its first decoding error."""
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    fed = newlines = 0
    previous_cr = False
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(1 << 16)
            pending = len(decoder.getstate()[0])  # bytes held back from the previous chunk
            try:
                text = decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as err:
                text = err.object[: err.start].decode(encoding, "replace")
                line = newlines + _count_newlines(text, previous_cr) + 1
                return line, fed - pending + err.start, err.object[err.start : err.end]
            except UnicodeError:  # a codec refusing the stream itself (UTF-16 without a mark)
                return newlines + 1, fed - pending, None
            if not chunk:
                return None, None, None
            newlines += _count_newlines(text, previous_cr)
            previous_cr = text.endswith("\r")
            fed += len(chunk)


#: Byte-order marks that name a file's encoding, longest first (UTF-32's starts like UTF-16's).
_BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: Bytes looked at to tell a binary file from text (as git and grep do: a NUL byte among them).
_HEAD_BYTES = 8192


def _head(path: Path) -> bytes:
    """The first bytes of ``path`` (nothing when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(_HEAD_BYTES)
    except OSError:
        return b""


def _mark_of(head: bytes) -> str | None:
    """The encoding a UTF-16 or UTF-32 byte-order mark at the start of ``head`` names, or None."""
    return next((name for mark, name in _BYTE_ORDER_MARKS if head.startswith(mark)), None)


def _binary(head: bytes) -> bool:
    """A NUL byte among the first bytes ``head`` of a file without a UTF-16/32 mark."""
    return _mark_of(head) is None and b"\0" in head


def marked_encoding(path: Path) -> str | None:
    """The encoding a UTF-16 or UTF-32 byte-order mark at the start of ``path`` names, or None."""
    return _mark_of(_head(path))


def looks_binary(path: Path) -> bool:
    """Whether ``path`` is not a text file: a NUL byte in its first bytes and no UTF-16/32 mark.

    Images, PDFs, office documents and Thumbs.db hold NUL bytes; text in any 8-bit encoding or
    in UTF-8 does not.
    """
    return _binary(_head(path))


def _decoding_advice(path: Path, encoding: str, refused: bool) -> str:
    """What to do about a file that does not decode as ``encoding``, from what its first bytes
    show; ``refused``: the codec refused the whole stream, whatever the error handler."""
    if refused:
        return (
            "pass encoding= with the file's encoding (for example encoding='utf-16-le' for UTF-16 "
            "without a byte-order mark, or 'utf-8')"
        )
    head = _head(path)  # read once for both questions
    marked = _mark_of(head)
    if marked is not None:
        return f"the file starts with a {marked.upper()} byte-order mark: pass encoding='{marked}'"
    if _binary(head):
        return (
            "the file holds NUL bytes: it is not text (an image, a PDF, an office document...) or it is "
            "UTF-16 without a byte-order mark (encoding='utf-16-le'); leave it out with pattern= "
            "(a glob of the corpus files' names)"
        )
    declared = declared_encoding(head)
    if declared is not None and codecs.lookup(declared).name != codecs.lookup(encoding).name:
        return (f"the file declares its encoding as {declared!r}: pass encoding='{declared}' (files in several "
                "encodings: read each encoding's files apart, with pattern=), or encoding_errors='replace' to "
                "substitute undecodable bytes")
    return (
        "pass encoding= with the file's encoding (for example encoding='latin-1' or 'cp1252'), "
        "or encoding_errors='replace' to substitute undecodable bytes"
    )


#: An encoding a file names in its first bytes: an HTML ``<meta charset>`` (or its
#: ``http-equiv="Content-Type"`` form) or an XML declaration's ``encoding``.
_DECLARED = re.compile(
    rb"<meta\b[^>]*?\bcharset\s*=\s*[\"']?([A-Za-z0-9._:-]+)|<\?xml\b[^>]*?\bencoding\s*=\s*[\"']([A-Za-z0-9._:-]+)",
    re.IGNORECASE,
)


def declared_encoding(head: bytes) -> str | None:
    """The encoding the first bytes ``head`` of a file declare (see :data:`_DECLARED`), when it is
    a codec Python knows other than UTF-8 (a page declaring UTF-8 that does not decode says
    nothing about its real encoding), else None.

    >>> declared_encoding(b'<html><head><meta charset="ISO-8859-1"><title>')
    'ISO-8859-1'
    >>> declared_encoding(b'<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">')
    'windows-1252'
    >>> declared_encoding(b'<?xml version="1.0" encoding="utf-8"?>') is None
    True
    """
    found = _DECLARED.search(head)
    if found is None:
        return None
    name = (found.group(1) or found.group(2)).decode("ascii")
    try:
        known = codecs.lookup(name).name
    except LookupError:
        return None
    return None if known == "utf-8" else name


def _codec_refuses(path: Path, encoding: str) -> bool:
    """Whether ``encoding``'s codec refuses ``path`` even with ``errors="replace"`` (UTF-16 without
    a byte-order mark): then no ``encoding_errors`` helps. Python 3.13 reports that refusal as a
    :class:`UnicodeDecodeError`, like an undecodable byte, so the error's class cannot tell."""
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 16):
                decoder.decode(chunk)
            decoder.decode(b"", final=True)
    except UnicodeError:
        return True
    return False


def _decode_error(path: Path, encoding: str, exc: UnicodeError) -> CorpusFormatError:
    """Describe a decoding error with its line, its byte offset and what to do about it."""
    try:
        line, offset, found = _locate_decode_error(path, encoding)
    except OSError:  # pragma: no cover - the file vanished between the two reads
        line, offset, found = None, None, None
    where = f" at byte offset {offset}" if offset is not None else ""
    shown = "utf-8" if encoding == "utf-8-sig" else encoding
    refused = not isinstance(exc, UnicodeDecodeError) or _codec_refuses(path, encoding)
    if not isinstance(exc, UnicodeDecodeError):
        what = str(exc)
    elif refused:  # Python 3.13 reports a codec's refusal as a UnicodeDecodeError too
        what = exc.reason
    else:
        what = f"bytes {found or exc.object[exc.start : exc.end]!r}: {exc.reason}"
    return CorpusFormatError(
        f"cannot decode the file as {shown!r}{where} ({what}); {_decoding_advice(path, encoding, refused)}",
        path=str(path),
        line=line,
    )


def _nul_error(path: Path, encoding: str, line: int) -> CorpusFormatError:
    """A file that decodes but holds NUL characters: UTF-16 text without a byte-order mark read as
    an 8-bit encoding (every other byte of ASCII text is a NUL), or no text at all."""
    shown = "utf-8" if encoding == "utf-8-sig" else encoding
    return CorpusFormatError(
        f"the text read as {shown!r} holds NUL characters: it is UTF-16 without a byte-order mark (pass "
        "encoding='utf-16-le', or 'utf-16-be') or not text at all (leave it out with pattern=)",
        path=str(path), line=line)


#: The byte-order mark, as text (U+FEFF).
_MARK = "\ufeff"


def iter_lines(path: Path, encoding: str, errors: str, *, raw: bool = False) -> Generator[str, None, None]:
    """Yield the lines of ``path`` one at a time, turning decoding errors into format errors.

    With ``raw=False`` line ends are normalised and removed; with ``raw=True`` the file is opened
    with ``newline=""`` and lines keep their ends (what :mod:`csv` needs).

    A byte-order mark starting a line is removed, as the one starting the file is: it is where two
    files were joined (``cat a.md b.md``, PowerShell's ``Get-Content``), and left there it would
    hide the heading, separator or JSON object after it.
    """
    try:
        with open(path, encoding=encoding, errors=errors, newline="" if raw else None) as handle:
            for number, line in enumerate(handle, 1):
                if "\0" in line:
                    raise _nul_error(path, encoding, number)
                if line.startswith(_MARK):
                    line = line.lstrip(_MARK)
                yield line if raw or not line.endswith("\n") else line[:-1]
    except UnicodeError as exc:  # a decoding error, or a codec refusing the stream (UTF-16 without a mark)
        raise _decode_error(path, encoding, exc) from None


# ---------------------------------------------------------------------------------------------
# documents and the stream
# ---------------------------------------------------------------------------------------------
def note(notes: list[str], where: Path | str, text: str) -> None:
    """Record ``text`` in a document's notes and emit it as a :class:`CorpusWarning`.

    The warning reads ``<where>: <text>``; ``where`` is the file, or ``file:line`` for a note about
    one line of a file holding several documents.
    """
    notes.append(text)
    warn(f"{where}: {text}", CorpusWarning)


#: The longest median unit duration, in seconds, a transcript's times are read as without a note:
#: utterances and sentences last seconds, so a median of minutes is most likely milliseconds read
#: as seconds (a 3-second utterance written 3000).
LONGEST_MEDIAN_UNIT = 120.0


def check_seconds(notes: list[str], where: Path | str, times: Sequence[tuple[float, float]], option: str) -> None:
    """Note in ``notes`` times read in seconds whose units last more than
    :data:`LONGEST_MEDIAN_UNIT` on median: milliseconds read as seconds, most likely (``option``
    names what to pass to read them so).

    >>> import warnings
    >>> notes = []
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     check_seconds(notes, "t.csv", [(0.0, 2800.0), (2850.0, 5650.0), (5700.0, 6900.0)], "time_unit='ms'")
    >>> notes  # doctest: +NORMALIZE_WHITESPACE
    ["times read in seconds, yet the units last 2800 s on median (47 min; 1 h 55 min in all): if the times
      are milliseconds, pass time_unit='ms'"]
    """
    if len(times) == 0:
        return
    median = statistics.median(end - start for start, end in times)
    if median > LONGEST_MEDIAN_UNIT:
        span = max(end for _, end in times) - min(start for start, _ in times)
        note(notes, where, f"times read in seconds, yet the units last {median:g} s on median ({_minutes(median)}; "
                           f"{_minutes(span)} in all): if the times are milliseconds, pass {option}")


def _minutes(seconds: float) -> str:
    """``seconds`` in hours and minutes, as a reader of a note takes it in: ``1 h 55 min``, ``47 min``."""
    hours, minutes = divmod(round(seconds / 60), 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


class HeadedSections:
    """The units of a file whose headings start its reference segments, gathered in order.

    ``units`` takes the text; :meth:`heading` closes the segment before a counted heading. A
    heading with no unit after it (directly followed by another) starts no segment, nor does a
    trailing one, and text before the first heading is a segment titled ``None``.
    """

    def __init__(self) -> None:
        self.units: list[str] = []
        self._sizes: list[int] = []
        self._titles: list[str | None] = []
        self._title: str | None = None
        self._start = 0

    def _close(self) -> None:
        if len(self.units) > self._start:
            self._sizes.append(len(self.units) - self._start)
            self._titles.append(self._title)

    def heading(self, title: str) -> None:
        """A counted heading: the units after it form a new segment titled ``title``."""
        self._close()
        self._start, self._title = len(self.units), title

    def finish(self) -> tuple[Segmentation, tuple[str | None, ...]]:
        """The reference and the title of each of its segments (call once, with some units)."""
        self._close()
        return Segmentation.from_masses(self._sizes), tuple(self._titles)


#: The whitespace that stands between two blocks of a page (paragraphs of plain text, Markdown
#: and HTML blocks), between two lines (the items of one HTML list, the rows of one table), and
#: between two sentences of one block.
BLOCK_SEPARATOR, LINE_SEPARATOR, SENTENCE_SEPARATOR = "\n\n", "\n", " "

#: The whitespace that stood between two units of each kind in the file they were read from, as
#: close as one string per document can say: blocks are apart by a blank line, sentences of a
#: paragraph by a space, lines by a newline. The text, Markdown and HTML readers put it in a
#: document's ``meta["unit_separator"]``, as do the CSV/TSV, subtitle (WebVTT, SRT) and Whisper
#: JSON readers of sentences (``unit="sentence"``; their rows, cues and segments go a line each);
#: a text chunker joins the units with it (:class:`segmenters.chunkers.ChunkerSegmenter`), so
#: that it reads the document as it was
#: written (langchain's ``RecursiveCharacterTextSplitter`` cuts at blank lines first). Units of a
#: kind not listed, and documents without the key, are joined with a newline, one unit a line.
#: Where one string cannot say it, the readers also record the separator of every gap between two
#: units, ``meta["unit_separators"]`` (see :func:`gap_separators`; for a transcript's sentences, a
#: newline where the speaker changes, :func:`stability.readers.subtitles.sentence_separators`),
#: which the chunkers use first.
UNIT_SEPARATORS = {"paragraph": BLOCK_SEPARATOR, "sentence": SENTENCE_SEPARATOR}


def unit_separator(unit: str) -> str:
    """The whitespace between two units of kind ``unit`` (see :data:`UNIT_SEPARATORS`).

    >>> unit_separator("paragraph"), unit_separator("sentence"), unit_separator("line")
    ('\\n\\n', ' ', '\\n')
    """
    return UNIT_SEPARATORS.get(unit, LINE_SEPARATOR)


def gap_separators(before: Sequence[str]) -> tuple[str, ...]:
    """``meta["unit_separators"]`` from the separator that preceded each unit in the file
    (``before``, one per unit, the first one's unused): one whitespace string per gap, gap ``i``
    lying between units ``i`` and ``i + 1``, as the boundary strings count gaps. A reader records
    it where the units of one kind are not all apart by the same whitespace (the blocks of a
    Markdown or HTML page, its sentences); the units themselves do not depend on it.

    >>> gap_separators(["", " ", "\\n\\n", "\\n"])
    (' ', '\\n\\n', '\\n')
    """
    return tuple(before[1:])


def naming_document(doc_id: Any, message: object) -> str:
    """``message`` about document ``doc_id``, which names it once.

    >>> naming_document("a", "units must be a list"), naming_document("a", "document 'a' has no units")
    ("document 'a': units must be a list", "document 'a' has no units")
    """
    text, name = str(message), f"document {doc_id!r}"
    return text if text.startswith(name) else f"{name}: {text}"


def make_document(path: Path, line: int | None, **fields: Any) -> Document:
    """Build a Document, turning validation errors into format errors that name the place."""
    try:
        return Document(**fields)
    except _VALIDATION_ERRORS as exc:
        raise CorpusFormatError(naming_document(fields.get("id"), exc), path=str(path), line=line) from None


class NoTextError(CorpusFormatError):
    """A file with nothing to segment: empty or blank, or, for Markdown and HTML, nothing but
    headings (and code, when it is dropped). An error for a file given alone; in a folder the file
    is left out of the corpus with a warning (:func:`stream_files`). Raised for a folder none of
    whose files has text, ``left_out`` names them, each with why."""

    left_out: tuple[str, ...] = ()


def no_text_error(root: Path | str, left_out: Sequence[str]) -> NoTextError:
    """The error of a folder none of whose files (``left_out``, each with why) has text."""
    error = NoTextError(f"expected a file with text to segment; none of its {len(left_out)} file(s) has any: "
                        f"{_shown(list(left_out))}", path=str(root))
    error.left_out = tuple(left_out)
    return error


def warn_left_out(root: Path | str, left_out: Sequence[str]) -> None:
    """Say that the files ``left_out`` (each with why) of the folder ``root`` had no text."""
    warn(f"{root}: {len(left_out)} file(s) without text to segment left out of the corpus: {_shown(list(left_out))}",
         CorpusWarning)


def stream_files(
    source: Source, parse: Callable[[str, Path], Iterable[Document]]
) -> Iterator[Document]:
    """The lazy stream of a reader: ``parse(relative id, file)`` for every file, in order.

    Ids are checked for uniqueness over the whole stream, and it stops after ``source.limit``
    documents, closing the file being read. In a folder, a file raising :class:`NoTextError`
    before its first document is left out, and one :class:`CorpusWarning` names the files left
    out when the stream ends (an empty page among a site's pages does not stop a run); a file
    given alone still raises it.
    """

    def generate() -> Generator[Document, None, None]:
        left_out: list[str] = []
        read = False
        try:
            for relative, file in source.files:
                try:
                    documents = iter(parse(relative, file))
                    first = next(documents, None)
                except NoTextError as exc:
                    if source.single:
                        raise
                    left_out.append(f"{relative} ({exc.reason})")
                    continue
                if first is not None:
                    read = True
                    yield first
                    yield from documents
            if left_out and not read:
                raise no_text_error(source.root, left_out)
        finally:
            if left_out and read:
                warn_left_out(source.root, left_out)

    return _stream(generate(), source.limit)


def _shown(items: list[str], at_most: int = 5) -> str:
    return "; ".join(items[:at_most]) + (f"; and {len(items) - at_most} more" if len(items) > at_most else "")


def _stream(documents: Generator[Document, None, None], limit: int | None) -> Iterator[Document]:
    try:
        if limit != 0:
            yield from _unique(documents, limit)
    finally:
        documents.close()  # closes the file being read when the consumer stops early


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


def first_lines(file: Path, codec: str, errors: str, max_lines: int = 200) -> Iterator[str]:
    """The first ``max_lines`` non-blank lines of ``file``, stripped: what content sniffers look at."""
    seen = 0
    for line in iter_lines(file, codec, errors):
        text = line.strip()
        if text:
            yield text
            seen += 1
            if seen >= max_lines:
                return


def checked_documents(documents: Iterable[Any]) -> Iterator[Document]:
    """Yield ``documents`` one at a time, refusing anything that is not a Document (for writers)."""
    for i, doc in enumerate(documents):
        if not isinstance(doc, Document):
            raise InvalidTypeError.make(f"documents[{i}]", "a Document", doc)
        yield doc


def consecutive_groups(
    keyed: Iterable[tuple[str, int, T]], path: Path, what: str
) -> Iterator[tuple[str, list[T]]]:
    """Group ``(document id, line, item)`` triples by id, for formats with a document column.

    The items of a document must be consecutive: an id that comes back after another document is
    a format error at that line (``what`` names the items in the message: ``"rows"``, ``"lines"``).
    """
    finished: set[str] = set()
    current: str | None = None
    items: list[T] = []
    for key, lineno, item in keyed:
        if key != current:
            if key in finished:
                raise CorpusFormatError(
                    f"{what} of document {key!r} resume after other documents; expected the {what} of "
                    f"a document to be consecutive",
                    path=str(path),
                    line=lineno,
                )
            if items:
                assert current is not None  # items are gathered under the key of the first
                yield current, items
                finished.add(current)
            current, items = key, []
        items.append(item)
    if items:
        assert current is not None
        yield current, items
