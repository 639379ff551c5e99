"""Choi (2000) files: one unit per line, segments separated by ``==========`` lines.

One document per file; its single reference segmentation comes from the separators.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from ..checks import check_choice, first_few
from ..corpus import Document
from ..exceptions import CorpusFormatError, InvalidParameterError, _short_repr
from ..segmentation import Segmentation
from .common import (
    NoTextError,
    PathLike,
    checked_documents,
    first_lines,
    make_document,
    note,
    open_source,
    stream_files,
)

__all__ = ["CHOI_SEPARATOR", "read_choi", "write_choi", "sniff_choi"]

#: The line that separates two segments in Choi's files.
CHOI_SEPARATOR = "=========="

PATTERNS = ("*.ref",)


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
    reference positions; ``blank_lines="drop"`` removes them instead. Both cases leave one note a
    file, naming the lines. Whitespace-only lines before the first separator or after the last
    (a trailing empty line) are dropped either way, with a note: kept, they would make a segment
    of their own and a reference boundary.

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
    check_choice(blank_lines, "blank_lines", ("keep", "drop"))
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )
    return stream_files(source, lambda doc_id, file: [_parse_choi(file, doc_id, source.lines(file), blank_lines)])


def _check_not_a_separator(path: Path, lineno: int, text: str) -> None:
    """A line of ``=`` only must be the exact separator; a Wiki-727K header gets a hint."""
    wiki = text.startswith("========,")
    if wiki or (len(text) >= 3 and set(text) == {"="}):
        hint = " (this is a Wiki-727K section header: use format='wiki')" if wiki else ""
        raise CorpusFormatError(
            f"expected a unit or a separator line of exactly ten '=' ({CHOI_SEPARATOR!r}); "
            f"received {_short_repr(text)}{hint}",
            path=str(path),
            line=lineno,
        )


def _parse_choi(path: Path, doc_id: str, lines: Iterable[str], blank_lines: str) -> Document:
    units: list[str] = []
    sizes: list[int] = []
    notes: list[str] = []
    blanks: list[tuple[int, int]] = []  # (line, unit it became or would have become)
    current = 0
    last_separator: int | None = None
    outside: list[int] = []  # blank lines before the first separator or after the last: not units

    def frame_blanks() -> None:
        """Drop the open segment when it holds blank lines only and lies outside the separators."""
        nonlocal current
        if current and not any(units[-current:]):
            outside.extend(lineno for lineno, _ in blanks[-current:])
            del units[-current:], blanks[-current:]
            current = 0

    for lineno, line in enumerate(lines, 1):
        text = line.strip()
        if text == CHOI_SEPARATOR:
            if last_separator is None:
                frame_blanks()
            if current:
                sizes.append(current)
            elif last_separator is not None:
                note(notes, path, f"line {lineno}: empty segment dropped (this '{CHOI_SEPARATOR}' "
                     f"separator directly follows the one on line {last_separator})")
            current, last_separator = 0, lineno
            continue
        _check_not_a_separator(path, lineno, text)
        if not text:
            blanks.append((lineno, len(units)))
            if blank_lines == "drop":
                continue
        units.append(text)
        current += 1
    if last_separator is not None:
        frame_blanks()
    if current:
        sizes.append(current)
    if outside:
        where = first_few(outside, BLANK_LINES_NAMED, str)
        note(notes, path, f"{'line' if len(outside) == 1 else 'lines'} {where}: blank, before the first or after the "
                          f"last '{CHOI_SEPARATOR}' separator: dropped (not a segment of empty units)")
    if blanks:
        note(notes, path, _blank_lines_note(blanks, blank_lines))
    if last_separator is None and units:  # as the Wiki reader says of a file without headers
        note(notes, path, f"no '{CHOI_SEPARATOR}' separator line: read as one segment, a reference without "
                          "boundaries, each line a unit (format='text' reads plain text as sentences or paragraphs)")
    if not units:
        raise NoTextError(
            f"expected at least one unit line between '{CHOI_SEPARATOR}' separators; the file has none",
            path=str(path),
        )
    meta = {"format": "choi", "source": str(path), "notes": notes}
    return make_document(
        path, None, id=doc_id, units=tuple(units), references=(Segmentation.from_masses(sizes),), meta=meta
    )


#: How many blank lines one note names before "and N more".
BLANK_LINES_NAMED = 8


def _blank_lines_note(blanks: list[tuple[int, int]], blank_lines: str) -> str:
    """One note for all the whitespace-only lines of a file: what was done and where.

    >>> _blank_lines_note([(3, 1)], "keep")
    'line 3: blank line kept as an empty unit (unit 1)'
    >>> _blank_lines_note([(3, 1), (9, 6)], "drop")
    '2 blank lines dropped: lines 3, 9'
    >>> _blank_lines_note([(i, i) for i in range(1, 11)], "keep")
    '10 blank lines kept as empty units: lines 1, 2, 3, 4, 5, 6, 7, 8 and 2 more'
    """
    if len(blanks) == 1:
        (lineno, unit), = blanks
        if blank_lines == "drop":
            return f"line {lineno}: blank line dropped"
        return f"line {lineno}: blank line kept as an empty unit (unit {unit})"
    named = ", ".join(str(lineno) for lineno, _ in blanks[:BLANK_LINES_NAMED])
    more = len(blanks) - BLANK_LINES_NAMED
    where = f"lines {named}" + (f" and {more} more" if more > 0 else "")
    if blank_lines == "drop":
        return f"{len(blanks)} blank lines dropped: {where}"
    return f"{len(blanks)} blank lines kept as empty units: {where}"


def sniff_choi(file: Path, codec: str, errors: str) -> str | None:
    """What makes ``file`` look like a Choi file (a separator line among its first lines), or None."""
    if any(text == CHOI_SEPARATOR for text in first_lines(file, codec, errors)):
        return f"a {CHOI_SEPARATOR!r} separator line"
    return None


def _choi_file_name(doc: Document) -> str:
    """The relative file a document is written to, refusing ids that would leave the directory."""
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
    return name


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
    for doc in checked_documents(documents):
        target = root / _choi_file_name(doc)
        if doc.references:
            if not isinstance(reference, int) or not 0 <= reference < len(doc.references):
                raise InvalidParameterError.make(
                    "reference", f"an index in 0..{len(doc.references) - 1} for document {doc.id!r}", reference
                )
            segments = doc.references[reference].segments
        else:
            segments = ((0, doc.n_units),)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(CHOI_SEPARATOR + "\n")
            for start, stop in segments:
                handle.writelines(unit + "\n" for unit in doc.units[start:stop])
                handle.write(CHOI_SEPARATOR + "\n")
        count += 1
    return count
