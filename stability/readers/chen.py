"""Chen et al. (2009) files: ``X.text`` (one paragraph per line) beside ``X.segmenttitles``.

Line ``i`` of ``X.segmenttitles`` is ``doc,paragraph,title`` for line ``i`` of ``X.text``; the
rows of a document are consecutive, and a reference boundary falls where the title changes within
a document. This is the raw layout of the Wikipedia "elements" and "cities" corpora.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import zip_longest
from pathlib import Path

from ..corpus import Document
from ..exceptions import CorpusFormatError, _short_repr
from ..segmentation import Segmentation
from .common import PathLike, Source, consecutive_groups, NoTextError, make_document, note, open_source, stream_files

__all__ = ["read_chen", "sniff_chen"]

TEXT_SUFFIX = ".text"
TITLES_SUFFIX = ".segmenttitles"
PATTERNS = ("*" + TITLES_SUFFIX,)

# (line, paragraph number, title, text) of one paragraph
Row = tuple[int, int, str, str]


def read_chen(
    path: PathLike,
    *,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read Chen's format: ``X.text`` with one paragraph per line, ``X.segmenttitles`` beside it.

    Each line of ``X.segmenttitles`` is ``doc,paragraph,title`` (the title may contain commas)
    and describes the same line of ``X.text``. Consecutive lines with the same ``doc`` form one
    document whose units are the paragraphs (stripped); ``paragraph`` must count up by one within
    a document. The reference has a boundary wherever the title changes from one paragraph to the
    next (a title that comes back later starts a new segment). A blank paragraph is kept as an
    empty unit, with a note.

    Parameters
    ----------
    path : str or path-like
        ``X.segmenttitles`` or ``X.text`` (the other file must sit beside it), or a directory
        searched recursively for ``*.segmenttitles`` files.
    encoding, encoding_errors : str
        Text encoding and error handler (default UTF-8, strict), for both files.
    pattern : str or sequence of str, optional
        File-name glob(s) selecting the ``.segmenttitles`` files of a directory; default
        ``"*.segmenttitles"``.
    limit : int, optional
        Stop after this many documents.

    Returns
    -------
    iterator of Document
        Ids are the ``doc`` values (unique over the corpus). ``meta`` holds ``format``,
        ``source`` (the ``.text`` file), ``line`` (the document's first line), ``titles`` (one per
        reference segment) and ``notes``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "c.text").write_text("intro\\nmore intro\\nhistory\\nonly one\\n")
    >>> _ = (folder / "c.segmenttitles").write_text("1,1,TOP\\n1,2,TOP\\n1,3,history\\n2,1,TOP\\n")
    >>> [(d.id, d.n_units, d.references[0].boundaries, d.meta["titles"]) for d in read_chen(folder)]
    [('1', 3, (2,), ('TOP', 'history')), ('2', 1, (), ('TOP',))]
    """
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )
    return stream_files(source, lambda relative, file: _parse_pair(source, *_pair(file)))


def _pair(file: Path) -> tuple[Path, Path]:
    """``(X.text, X.segmenttitles)`` for either file of the pair; both must exist."""
    if file.suffix not in (TEXT_SUFFIX, TITLES_SUFFIX):
        raise CorpusFormatError(
            f"expected a '{TITLES_SUFFIX}' file or a '{TEXT_SUFFIX}' file of Chen's format; "
            f"received a {file.suffix or 'suffix-less'!r} file",
            path=str(file),
        )
    text, titles = file.with_suffix(TEXT_SUFFIX), file.with_suffix(TITLES_SUFFIX)
    missing = titles if file == text else text
    if not missing.is_file():
        raise CorpusFormatError(
            f"expected {missing.name!r} beside this file (Chen's format pairs X{TEXT_SUFFIX} with "
            f"X{TITLES_SUFFIX}); it does not exist",
            path=str(file),
        )
    return text, titles


def _rows(source: Source, text: Path, titles: Path) -> Iterator[tuple[str, Row]]:
    """``(doc, row)`` for every line of the pair, checking that both files have the same length."""
    lines = zip_longest(source.lines(titles), source.lines(text))
    for lineno, (described, paragraph) in enumerate(lines, 1):
        if described is None or paragraph is None:
            shorter, longer = (titles, text) if described is None else (text, titles)
            raise CorpusFormatError(
                f"expected as many lines as {longer.name!r}; this file ends at line {lineno - 1}",
                path=str(shorter),
                line=lineno,
            )
        parts = described.split(",", 2)
        number = parts[1].strip() if len(parts) == 3 else ""
        if len(parts) != 3 or not parts[0].strip() or not (number.isascii() and number.isdigit()):  # not '²'
            raise CorpusFormatError(
                f"expected 'doc,paragraph,title' with an integer paragraph number; received "
                f"{_short_repr(described)}",
                path=str(titles),
                line=lineno,
            )
        yield parts[0].strip(), (lineno, int(number), parts[2].strip(), paragraph.strip())


def _parse_pair(source: Source, text: Path, titles: Path) -> Iterator[Document]:
    keyed = ((doc, row[0], row) for doc, row in _rows(source, text, titles))
    empty = True
    for doc_id, rows in consecutive_groups(keyed, titles, "lines"):
        empty = False
        yield _document(doc_id, rows, text, titles)
    if empty:
        raise NoTextError("expected at least one paragraph; the file is empty", path=str(titles))


def _document(doc_id: str, rows: list[Row], text: Path, titles: Path) -> Document:
    notes: list[str] = []
    for (_, previous, _, _), (lineno, number, _, _) in zip(rows, rows[1:]):
        if number != previous + 1:
            raise CorpusFormatError(
                f"document {doc_id!r}: expected paragraph {previous + 1} after paragraph {previous}; "
                f"received {number}",
                path=str(titles),
                line=lineno,
            )
    for lineno, _, _, paragraph in rows:
        if not paragraph:
            note(notes, f"{text}:{lineno}", "blank paragraph kept as an empty unit")
    reference = Segmentation.from_labels([title for _, _, title, _ in rows])
    segment_titles = tuple(rows[start][2] for start, _ in reference.segments)
    meta = {"format": "chen", "source": str(text), "line": rows[0][0], "titles": segment_titles, "notes": notes}
    return make_document(
        text, rows[0][0], id=doc_id, units=tuple(r[3] for r in rows), references=(reference,), meta=meta
    )


def sniff_chen(file: Path, codec: str, errors: str) -> str | None:
    """What makes ``file`` part of a Chen pair (an ``X.text`` with ``X.segmenttitles`` beside it), or None."""
    if file.suffix == TEXT_SUFFIX and file.with_suffix(TITLES_SUFFIX).is_file():
        return f"a {TITLES_SUFFIX!r} file beside the {TEXT_SUFFIX!r} file"
    return None
