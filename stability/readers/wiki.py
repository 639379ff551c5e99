"""Wiki-727K / Wiki-50 files (Koshorek et al. 2018): one sentence per line, headed sections."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..corpus import Document
from ..exceptions import CorpusFormatError, InvalidParameterError, _short_repr
from .common import HeadedSections, NoTextError, PathLike, first_lines, make_document, note, open_source, stream_files

__all__ = ["read_wiki", "sniff_wiki"]

_HEADER = re.compile(r"^========,\s*(\d+)\s*,(.*)$")
_LIST_LINES = frozenset({"***LIST***", "***LIST***."})
_LEVELS_EXPECTED = "None, a level (int >= 1), a collection of levels, or a string such as '1,2' or '1-3'"

PATTERNS = ("*",)


def _levels_from_string(levels: str) -> set[int]:
    values: set[int] = set()
    for part in levels.split(","):
        match = re.fullmatch(r"(\d+)\s*(?:-\s*(\d+))?", part.strip())
        if not match:
            raise InvalidParameterError.make("levels", _LEVELS_EXPECTED, levels)
        lo = int(match.group(1))
        hi = int(match.group(2)) if match.group(2) else lo
        if hi < lo:
            raise InvalidParameterError.make("levels", _LEVELS_EXPECTED + " (ranges low-high)", levels)
        values.update(range(lo, hi + 1))
    return values


def _check_levels(levels: Any, highest: int | None = None) -> frozenset[int] | None:
    """Accept None (every level), an int, an iterable of ints, or a string ``"1,2"`` / ``"1-3"``;
    levels run from 1 to ``highest`` (no limit when None: Wiki-727K headers give the depth of a
    section, which the format does not bound)."""
    if levels is None:
        return None
    if isinstance(levels, bool):
        raise InvalidParameterError.make("levels", _LEVELS_EXPECTED, levels)
    if isinstance(levels, int):
        values = {levels}
    elif isinstance(levels, str):
        values = _levels_from_string(levels)
    elif isinstance(levels, Iterable):
        values = set(levels)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise InvalidParameterError.make("levels", _LEVELS_EXPECTED, levels)
    else:
        raise InvalidParameterError.make("levels", _LEVELS_EXPECTED, levels)
    if not values or min(values) < 1:
        raise InvalidParameterError.make("levels", _LEVELS_EXPECTED, levels)
    if highest is not None and max(values) > highest:
        raise InvalidParameterError.make(
            "levels", f"heading levels from 1 to {highest} (there are no deeper headings), e.g. '1,2' or '1-3'", levels
        )
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
    the current segment. Sections left without any sentence (a header directly followed by
    another, as for every article whose first sub-section follows its title) are not segments;
    this is normal in Wiki-727K, so it is not noted. ``***LIST***`` lines (with or without the
    final dot) and blank lines are dropped; ``meta["list_lines_dropped"]`` counts the former.
    A file without any header line (a stray file in a folder of articles) is read as one
    section, with a note and a :class:`~stability.readers.CorpusWarning` naming it.
    Units are lines with surrounding whitespace removed.

    **Default: every header level is a boundary.** The usual setting in the literature is
    ``levels=(1, 2)`` (Koshorek's "low granularity": the article start and its top-level
    sections); pass it explicitly (``levels = "1-2"`` in a config). On ``shared/data/wiki50``
    every level gives 6.68 boundaries per document on average, levels 1-2 give 3.48 (measured
    with this reader; 50 documents, 60.4 sentences each).

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    levels : int, str or collection of int, optional
        Header levels that count as boundaries; default every level. ``"1,2"`` and ``"1-2"`` are
        accepted (for command lines).
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`); ``pattern``
        defaults to ``"*"`` (Wiki-727K files have no extension) here.

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
    wanted = _check_levels(levels)
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )
    return stream_files(source, lambda doc_id, file: [_parse_wiki(file, doc_id, source.lines(file), wanted)])


def _header(path: Path, lineno: int, text: str) -> tuple[int, str]:
    """``(level, title)`` of a header line, the title without its final dot."""
    match = _HEADER.match(text)
    if not match:
        raise CorpusFormatError(
            f"expected a section header '========,<level>,<title>.'; received {_short_repr(text)}",
            path=str(path),
            line=lineno,
        )
    title = match.group(2).strip()
    return int(match.group(1)), title[:-1] if title.endswith(".") else title


def _parse_wiki(path: Path, doc_id: str, lines: Iterable[str], levels: frozenset[int] | None) -> Document:
    sections = HeadedSections()
    dropped = headers = 0
    seen: set[int] = set()
    for lineno, line in enumerate(lines, 1):
        text = line.strip()
        if text.startswith("========"):
            headers += 1
            level, header_title = _header(path, lineno, text)
            seen.add(level)
            if levels is None or level in levels:
                sections.heading(header_title)
        elif text in _LIST_LINES:
            dropped += 1
        elif text:
            sections.units.append(text)
    if not sections.units:
        raise NoTextError(
            "expected at least one sentence line besides section headers and ***LIST*** lines; "
            "the file has none",
            path=str(path),
        )
    notes: list[str] = []
    if not headers:
        note(notes, path, "no '========,<level>,<title>.' header line: read as one section, a reference "
                          "without boundaries (pass pattern= to leave out files that are not articles)")
    elif levels is not None and not seen & levels:
        note(notes, path, f"no header of the levels asked for ({', '.join(map(str, sorted(levels)))}); its headers "
                          f"are of levels {', '.join(map(str, sorted(seen)))}: a reference without boundaries")
    reference, titles = sections.finish()
    meta = {
        "format": "wiki",
        "source": str(path),
        "notes": notes,
        "titles": titles,
        "levels": None if levels is None else tuple(sorted(levels)),
        "list_lines_dropped": dropped,
    }
    return make_document(
        path, None, id=doc_id, units=tuple(sections.units), references=(reference,), meta=meta
    )


def sniff_wiki(file: Path, codec: str, errors: str) -> str | None:
    """What makes ``file`` look like a Wiki-727K file (a section header line), or None."""
    if any(_HEADER.match(text) for text in first_lines(file, codec, errors)):
        return "a '========,<level>,<title>.' header line"
    return None
