"""CSV / TSV files: a header row, then one row per unit.

Label columns (one per annotator) give references, a change of label starting a segment; optional
start/end columns give unit times (seconds, or milliseconds with ``time_unit="ms"``); an optional
speaker column gives each unit's speaker (a meeting's transcript); an optional document column
groups consecutive rows. Whisper's TSV output (``--output_format tsv``: a header
``start``, ``end``, ``text`` and integer times in milliseconds) is recognised and read in
milliseconds, with a note.
"""

from __future__ import annotations

import csv
import itertools
import math
import re
from collections.abc import Iterable, Iterator, Sequence
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..checks import check_choice, listed
from ..corpus import Document
from ..exceptions import CorpusFormatError, InvalidParameterError, InvalidTypeError, _short_repr, warn
from ..segmentation import Segmentation
from ..splitters import Splitter, SplitterOption
from .common import (
    NoTextError,
    CorpusWarning,
    PathLike,
    Source,
    check_seconds,
    checked_documents,
    consecutive_groups,
    make_document,
    note,
    open_source,
    stream_files,
)
from .subtitles import SPEAKERS, Cue, chapters_of, chapters_track, sentence_separators, sentences, turn_texts
from .text import _splitter_name, build_splitter, resolve_splitter

__all__ = ["read_csv", "write_csv"]

PATTERNS = ("*.csv", "*.tsv")
_TAB_SUFFIXES = (".tsv", ".tab")
_TEXT_COLUMNS = ("text", "sentence", "unit", "utterance", "content")
_DOCUMENT_COLUMNS = ("document", "doc_id", "document_id", "doc")
_LABEL_COLUMNS = ("label", "labels", "segment", "topic", "reference", "ground_truth")
_LABEL_PREFIXES = ("label_", "reference_", "ref_", "annotator_")
_SPEAKER_COLUMNS = ("speaker", "speaker_name", "speaker_id", "spk", "speaker_label")
_SPEAKER_NAMES = (*_SPEAKER_COLUMNS, *(name.replace("_", " ") for name in _SPEAKER_COLUMNS if "_" in name))
#: The names of the start and end time columns, in order of preference.
_START_COLUMNS = ("start", "start_time", "start time", "starttime")
_END_COLUMNS = ("end", "end_time", "end time", "endtime")
#: What a unit of a CSV/TSV file is: a row as written, or a sentence of the rows' text.
UNITS = ("row", "sentence")

#: The units a time column may be given in, with how many of them make a second.
TIME_UNITS: dict[str, int] = {"s": 1, "ms": 1000}
_UNIT_NAMES = {"s": "seconds", "ms": "milliseconds"}
#: The header of Whisper's TSV output (``--output_format tsv``), which gives integer milliseconds.
WHISPER_HEADER = ("start", "end", "text")

#: A clock time: [hours:]minutes:seconds, the seconds two digits with an optional fraction after a point
#: or a comma (SubRip's), as meeting and captioning tools export times.
_CLOCK = re.compile(r"(?:(\d+):)?([0-5]?\d):([0-5]\d(?:[.,]\d+)?)")
#: A number written with a decimal comma.
_DECIMAL_COMMA = re.compile(r"[+-]?\d+,\d+")
#: Delimiters that a header read with another one shows as one column, with their names.
_OTHER_DELIMITERS = {";": "semicolon", "\t": "tab", "|": "vertical bar", ",": "comma"}

Rows = list[tuple[int, list[str]]]  # (physical line of the row, cells)


def _default_delimiter(path: Path) -> str:
    return "\t" if path.suffix.lower() in _TAB_SUFFIXES else ","


def _column_list(value: Any, name: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    if listed(value):
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
    speaker_column: str | None = None,
    speakers: str = "meta",
    unit: str = "row",
    splitter: SplitterOption = None,
    delimiter: str | None = None,
    time_unit: str | None = None,
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
    kept as they are (not stripped); labels, ids and times are stripped. Blank rows, and rows of
    empty cells only, are skipped.

    Columns are chosen by name; when an option is ``None`` the first header found (compared
    without case) is used:

    * ``text_column``: ``text``, ``sentence``, ``unit``, ``utterance``, ``content`` (required);
    * ``label_columns``: every column named ``label``, ``labels``, ``segment``, ``topic``,
      ``reference``, ``ground_truth`` or starting with ``label_``, ``reference_``, ``ref_``,
      ``annotator_`` (none found: no references);
    * ``start_column`` / ``end_column``: ``start`` and ``end``, else ``start_time`` and
      ``end_time`` (or ``start time``, ``starttime``...; used only if both exist);
    * ``document_column``: ``document``, ``doc_id``, ``document_id``, ``doc`` (none found: one
      document a file, and a note when another column's name says it names recordings, such as
      ``meeting_id`` or ``episode``, and its values run in blocks of rows);
    * ``speaker_column``: ``speaker``, ``speaker_name``, ``speaker_id``, ``spk``, ``speaker_label``
      (or with a space for the underscore; none found: no speakers).

    A timed file of one document without a label column takes its reference from a chapters track
    beside it, as captions do: ``talk.chapters.vtt``, ``.srt`` or ``.txt`` beside ``talk.tsv``
    (see :func:`~stability.readers.read_subtitles`).

    A meeting's or a podcast's transcript with a speaker column (``start,end,speaker,text``) gives
    each unit's speaker as caption files and Whisper's JSON do: the cell, stripped, goes into
    ``meta["speakers"]`` (an empty cell: ``None``, speaker unknown), and with ``speakers="prefix"``
    also before the unit's text, ``"Alice: Hello."``, so that segmenters see who speaks (names are
    words they count: a change of speaker then looks like a change of topic; see
    :func:`~stability.readers.read_subtitles`).

    With ``unit="sentence"`` the units are sentences instead, cut from the rows exactly as caption
    files and Whisper's JSON cut their cues and segments (the same code, a row in the place of a
    cue; see :func:`~stability.readers.read_subtitles`): the rows of each speaker turn
    (consecutive rows with the same speaker; every row, without a speaker column) are joined and
    cut by ``splitter``, each sentence taking the share of its rows' times its characters take,
    and text without a sentence end stays cut where its rows end (a note counts such units). A
    change of label in any label column ends a turn too, so no sentence spans a reference
    boundary: each sentence takes the labels of its rows, and the references keep their
    boundaries (a row cut off mid-sentence there stays a unit of its own). A chapters track
    beside a timed file places its chapters on the sentences' times. Rows without text give no
    sentence.

    Times are read in seconds, or in the unit ``time_unit`` names. Whisper's TSV output
    (``whisper talk.mp3 --output_format tsv``) gives them in milliseconds: a tab-separated file
    whose header is exactly ``start``, ``end``, ``text`` (Whisper's layout, in that order) and
    whose every start and end is an integer is read in milliseconds when ``time_unit`` is not
    given, and a note (a :class:`~stability.readers.CorpusWarning`) says so; pass
    ``time_unit="s"`` for such a file that holds whole seconds. Whisper never quotes the text: a
    file with that header whose first row has integer times is read without CSV quoting, so a
    segment starting with a double quote (a quotation a later segment closes) is read as
    written, not joined with the rows after it.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    text_column : str, optional
        The column of the units' text (default: the first of ``text``, ``sentence``, ``unit``,
        ``utterance``, ``content``).
    label_columns : str or list of str, optional
        The columns of the references, one per annotator (default: every column named ``label``,
        ``labels``, ``segment``, ``topic``, ``reference``, ``ground_truth`` or starting with
        ``label_``, ``reference_``, ``ref_``, ``annotator_``; none: no references).
    start_column, end_column : str, optional
        The columns of each unit's start and end times (default: ``start`` and ``end``, used only
        when both exist).
    document_column : str, optional
        The column naming each row's document (default: the first of ``document``, ``doc_id``,
        ``document_id``, ``doc``; none: one document a file).
    speaker_column : str, optional
        The column naming each row's speaker (default: the first of ``speaker``, ``speaker_name``,
        ``speaker_id``, ``spk``; none: no speakers).
    speakers : {"meta", "prefix"}
        Where each row's speaker goes: only into ``meta["speakers"]`` (default), or also before its
        text, ``"Alice: Hello."`` (a row with an empty speaker cell keeps its text as it is).
        ``"prefix"`` is refused for a file without a speaker column. With sentence units, the
        name goes before every sentence.
    unit : {"row", "sentence"}
        What a unit is: a row (default), or a sentence of a speaker turn (see above).
    splitter : str or callable, optional
        Sentence splitter for ``unit="sentence"``, as for the text format (see
        :func:`~stability.readers.read_text`); default ``"auto"``, which learns from the turns of
        every file of the corpus when they are long enough.
    delimiter : str, optional
        Field delimiter (default: tab for ``.tsv``/``.tab`` files, comma otherwise).
    time_unit : {"s", "ms"}, optional
        The unit of the start and end columns: seconds or milliseconds. Default: seconds, except
        for Whisper's TSV output (tab-separated, header exactly ``start``, ``end``, ``text``,
        integer times), read in milliseconds with a note. ``Document.times`` are always seconds.
        Given, it is refused for a file without both columns.
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`); ``pattern``
        defaults to ``"*.csv"`` and ``"*.tsv"`` here.

    Returns
    -------
    iterator of Document
        ``meta`` holds ``format``, ``source``, ``line`` (first row), ``label_columns`` (the
        columns of the references, in order), ``notes``, with a speaker column ``speakers``
        (one entry a unit: the speaker's name, or ``None`` for an empty cell), and with
        ``unit="sentence"`` ``unit``, ``splitter`` (its name, or the callable's qualified name) and
        ``unit_separator`` (a space, which a text chunker joins the sentences with, as for the text
        format: :data:`~stability.readers.common.UNIT_SEPARATORS`; rows, without it, are joined one
        a line), and where a speaker column changes between two sentences ``unit_separators`` (a
        newline there, a turn a line, as for captions:
        :func:`~stability.readers.subtitles.sentence_separators`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "ep.csv"
    >>> _ = file.write_text("start,end,sentence,ground_truth\\n0,1.5,Hi.,1\\n1.5,3,Welcome.,1\\n3,4,News.,2\\n")
    >>> doc = next(read_csv(file))
    >>> doc.id, doc.references[0].boundaries, doc.times[2]
    ('ep', (2,), (3.0, 4.0))

    Whisper's TSV output, its times in milliseconds:

    >>> import warnings
    >>> tsv = file.with_name("talk.tsv")
    >>> _ = tsv.write_text("start\\tend\\ttext\\n0\\t2500\\tHello there.\\n2500\\t6120\\tWelcome to the talk.\\n")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     doc = next(read_csv(tsv))
    >>> doc.times, doc.meta["notes"][0][:50]
    (((0.0, 2.5), (2.5, 6.12)), "times read in milliseconds: the file has Whisper's")

    A meeting with a speaker column:

    >>> meeting = file.with_name("meeting.csv")
    >>> _ = meeting.write_text("start,end,speaker,text\\n0,4,Ann,Budget first.\\n4,9,Bo,It is up.\\n")
    >>> next(read_csv(meeting)).meta["speakers"], next(read_csv(meeting, speakers="prefix")).units
    (('Ann', 'Bo'), ('Ann: Budget first.', 'Bo: It is up.'))
    """
    options = {
        "text_column": _check_column(text_column, "text_column"),
        "label_columns": _column_list(label_columns, "label_columns"),
        "start_column": _check_column(start_column, "start_column"),
        "end_column": _check_column(end_column, "end_column"),
        "document_column": _check_column(document_column, "document_column"),
        "speaker_column": _check_column(speaker_column, "speaker_column"),
        "speakers": check_choice(speakers, "speakers", SPEAKERS),
        "time_unit": None if time_unit is None else check_choice(time_unit, "time_unit", tuple(TIME_UNITS)),
    }
    if delimiter is not None and (not isinstance(delimiter, str) or len(delimiter) != 1):
        raise InvalidParameterError.make("delimiter", "a single character such as ',' or '\\t'", delimiter)
    check_choice(unit, "unit", UNITS)
    resolved = resolve_splitter(splitter, unit)
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )
    state: dict[str, Splitter] = {}

    def relative_id(relative: str, file: Path) -> str:
        return file.stem if source.single else Path(relative).with_suffix("").as_posix()

    def turns(file: Path) -> Iterator[str]:  # what a sentence splitter learns from: each turn's text
        for columns, _, rows in _grouped_rows(source, file, file.stem, delimiter, options):
            yield from turn_texts(*_row_cues(rows, columns, None))

    def parse_file(relative: str, file: Path) -> Iterator[Document]:
        if resolved is not None and "split" not in state:
            state["split"] = build_splitter(resolved, source, turns)
        split = (state["split"], _splitter_name(resolved)) if resolved is not None else None
        return _parse_csv(source, file, relative_id(relative, file), delimiter, options, split)

    return stream_files(source, parse_file)


@dataclass(frozen=True)
class _Columns:
    """The columns of one file: names (for messages) and indices."""

    header: list[str]
    text: int
    labels: tuple[tuple[str, int], ...]
    times: tuple[tuple[str, int], tuple[str, int]] | None
    document: tuple[str, int] | None
    speaker: tuple[str, int] | None
    prefix: bool  # the speaker's name goes before the text too
    time_unit: str | None  # given; None: seconds, or milliseconds in Whisper's layout
    whisper: bool  # the header and delimiter of Whisper's TSV output
    delimiter: str  # that of the file: given, or found by _found_delimiter
    delimiter_note: str | None  # why the file is read with a delimiter it was not given


def _pick(header: list[str], given: str | None, candidates: Sequence[str], path: Path, what: str) -> str | None:
    """A column by its given name (which must exist) or the first matching candidate."""
    if given is not None:
        return _given_column(header, given, path, what)
    lowered = {h.strip().lower(): h for h in reversed(header)}
    return next((lowered[c] for c in candidates if c in lowered), None)


def _given_column(header: list[str], given: str, path: Path, what: str) -> str:
    """The column named ``given``, which must exist."""
    if given not in header:
        raise CorpusFormatError(
            f"expected a {what} column named {given!r}; the header has {_short_repr(header, 200)}",
            path=str(path),
            line=1,
        )
    return given


def _is_label_column(name: str) -> bool:
    lowered = name.strip().lower()
    return lowered in _LABEL_COLUMNS or lowered.startswith(_LABEL_PREFIXES)


def _delimiter_hint(header: list[str], delimiter: str) -> str:
    """A hint when the header is one cell holding another usual delimiter (a European Excel export
    uses ``;``).

    >>> _delimiter_hint(["text;label"], ","), _delimiter_hint(["text", "label"], ",")
    ('; the header is one column holding a semicolon, probably the delimiter (pass it as delimiter=)', '')
    """
    if len(header) == 1:
        for candidate, name in _OTHER_DELIMITERS.items():
            if candidate != delimiter and candidate in header[0]:
                return f"; the header is one column holding a {name}, probably the delimiter (pass it as delimiter=)"
    return ""


def _columns(header: list[str], options: dict[str, Any], path: Path, delimiter: str,
             delimiter_note: str | None = None) -> _Columns:
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(
            f"{message} (header {_short_repr(header, 200)}){_delimiter_hint(header, delimiter)}", path=str(path), line=1
        )

    duplicates = sorted({h for h in header if header.count(h) > 1})
    if duplicates:
        raise fail(f"expected distinct column names in the header; {duplicates} repeat")
    text = _pick(header, options["text_column"], _TEXT_COLUMNS, path, "text")
    if text is None:
        raise fail(f"expected a text column ({', '.join(_TEXT_COLUMNS)}, or pass text_column=)")
    given_labels = options["label_columns"]
    if given_labels is not None:
        labels = [_given_column(header, c, path, "label") for c in given_labels]
    else:
        labels = [h for h in header if _is_label_column(h)]
    start = _pick(header, options["start_column"], _START_COLUMNS, path, "start time")
    end = _pick(header, options["end_column"], _END_COLUMNS, path, "end time")
    if (options["start_column"] is None) != (options["end_column"] is None) and (start is None or end is None):
        raise fail(f"times need both a start and an end column; pass {'end' if start else 'start'}_column= too")
    if options["time_unit"] is not None and (start is None or end is None):
        raise fail(f"time_unit={options['time_unit']!r} is the unit of the start and end columns; expected both "
                   "(named start and end, or start_time and end_time, or pass start_column= and end_column=)")
    document = _pick(header, options["document_column"], _DOCUMENT_COLUMNS, path, "document")
    speaker = _pick(header, options["speaker_column"], _SPEAKER_NAMES, path, "speaker")
    if options["speakers"] == "prefix" and speaker is None:
        raise fail(f"speakers='prefix' puts each row's speaker before its text; expected a speaker column "
                   f"({', '.join(_SPEAKER_COLUMNS)}, or with a space for the underscore, or pass speaker_column=)")
    index = {name: i for i, name in enumerate(header)}
    return _Columns(
        header=header,
        text=index[text],
        labels=tuple((c, index[c]) for c in labels),
        times=((start, index[start]), (end, index[end])) if start is not None and end is not None else None,
        document=(document, index[document]) if document is not None else None,
        speaker=(speaker, index[speaker]) if speaker is not None else None,
        prefix=options["speakers"] == "prefix",
        time_unit=options["time_unit"],
        whisper=delimiter == "\t" and tuple(header) == WHISPER_HEADER,
        delimiter=delimiter,
        delimiter_note=delimiter_note,
    )


def _parse_csv(
    source: Source, path: Path, default_id: str, delimiter: str | None, options: dict[str, Any],
    split: tuple[Splitter, str | None] | None = None,
) -> Iterator[Document]:
    """The documents of one file; ``split``: the sentence splitter of ``unit="sentence"`` and its
    name (None: a unit a row)."""
    track = chapters_track(path)  # a reference for a timed transcript, looked for once a file
    for columns, doc_id, rows in _grouped_rows(source, path, default_id, delimiter, options):
        doc = _build(path, doc_id, rows, columns, split)
        yield doc if track is None else _with_chapters(doc, path, columns, source, track)


def _grouped_rows(
    source: Source, path: Path, default_id: str, given: str | None, options: dict[str, Any]
) -> Iterator[tuple[_Columns, str, Rows]]:
    """The columns of one file, and the id and rows of each of its documents; ``given``: the
    delimiter passed (None: that of the file's header, :func:`_found_delimiter`)."""
    lines = iter(source.lines(path, raw=True))
    head = list(itertools.islice(lines, 2))  # the header and the first row: Whisper's output is never quoted
    delimiter, found = (given, None) if given is not None else _found_delimiter(path, head[:1], options)
    whisper = _whisper_output(head, delimiter)
    reader = csv.reader(itertools.chain(head, lines), delimiter=delimiter,
                        quoting=csv.QUOTE_NONE if whisper else csv.QUOTE_MINIMAL)
    header = _next_row(reader, path)
    if header is None:
        raise NoTextError("expected a header row naming the columns; the file is empty", path=str(path), line=1)
    columns = _columns(header, options, path, delimiter, found)
    keyed = ((_row_id(row, lineno, columns, default_id, path), lineno, (lineno, row)) for lineno, row in
             _data_rows(reader, columns, path))
    empty = True
    for doc_id, rows in consecutive_groups(keyed, path, "rows"):
        empty = False
        yield columns, doc_id, rows
    if empty:
        raise NoTextError(
            "expected at least one data row after the header; found none", path=str(path), line=reader.line_num + 1
        )


def _cells(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line.rstrip("\r\n")], delimiter=delimiter), [])


def _found_delimiter(path: Path, head: list[str], options: dict[str, Any]) -> tuple[str, str | None]:
    """The delimiter of a file given none, from its header line (``head``): the default of its
    extension, unless the header is one cell under it and names a text column once split at one of
    :data:`_OTHER_DELIMITERS` (Excel writes CSV with semicolons where the decimal separator is a
    comma); then that one, with a note saying so.

    >>> _found_delimiter(Path("a.csv"), ["Start;End;Text\\r\\n"], {"text_column": None})[0]
    ';'
    >>> _found_delimiter(Path("a.csv"), ["id;body\\n"], {"text_column": None}), _found_delimiter(Path("a.tsv"), [], {})
    ((',', None), ('\\t', None))
    """
    default = _default_delimiter(path)
    if not head or len(_cells(head[0], default)) != 1:
        return default, None
    wanted = options["text_column"]
    for candidate, name in _OTHER_DELIMITERS.items():
        cells = _cells(head[0], candidate)
        if candidate != default and len(cells) > 1 and any(
                cell == wanted if wanted is not None else cell.strip().lower() in _TEXT_COLUMNS for cell in cells):
            excel = " (as Excel saves CSV where the decimal separator is a comma)" if candidate == ";" else ""
            return candidate, (f"read with a {name} as the delimiter: the header holds no {_OTHER_DELIMITERS[default]} "
                               f"and names its columns so{excel}; pass delimiter= to read it otherwise")
    return default, None


def _whisper_output(head: list[str], delimiter: str) -> bool:
    """Whether a file whose first two lines are ``head`` is Whisper's TSV output: its header
    (:data:`WHISPER_HEADER`, tab-separated) and a first row of integer times. Whisper writes each
    segment's text as it is (tabs made spaces), never quoted: a double quote there is a character,
    often one opening a quotation that a later segment closes, not CSV quoting."""
    if delimiter != "\t" or len(head) < 2 or head[0].rstrip("\r\n").split("\t") != list(WHISPER_HEADER):
        return False
    cells = head[1].split("\t")
    return len(cells) == len(WHISPER_HEADER) and all(c.isascii() and c.isdigit() for c in cells[:2])


def _next_row(reader: Any, path: Path) -> list[str] | None:
    start = reader.line_num + 1  # where the row begins: a quoted cell may run over many lines
    try:
        return next(reader)
    except StopIteration:
        return None
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):  # a quote never closed swallowed the rows after it
            raise CorpusFormatError(
                f"malformed CSV: a cell of the row starting here runs on past line {reader.line_num} (over "
                f"{csv.field_size_limit()} characters): expected a closing double quote; most likely a cell "
                f"starts with a stray '\"' (quote such a cell and double the quotes inside it)",
                path=str(path), line=start,
            ) from None
        raise CorpusFormatError(f"malformed CSV: {exc}", path=str(path), line=reader.line_num) from None


def _data_rows(reader: Any, columns: _Columns, path: Path) -> Iterator[tuple[int, list[str]]]:
    """``(physical line, cells)`` of every non-blank data row, each with as many cells as the header."""
    width = len(columns.header)
    while True:
        lineno = reader.line_num + 1
        row = _next_row(reader, path)
        if row is None:
            return
        if not row or (width > 1 and not any(cell.strip() for cell in row)):  # blank, or only empty cells
            continue
        if len(row) != width:
            name = _OTHER_DELIMITERS.get(columns.delimiter, repr(columns.delimiter))
            hint = (f" (most likely a text holding a {name} left unquoted: put such a cell in double quotes, as "
                    f"spreadsheets save it)" if len(row) > width else "")
            raise CorpusFormatError(
                f"expected {width} fields as in the header; received {len(row)}: {_short_repr(row)}{hint}",
                path=str(path),
                line=lineno,
            )
        _warn_merged_rows(row, lineno, reader, path)
        yield lineno, row


def _warn_merged_rows(row: list[str], lineno: int, reader: Any, path: Path) -> None:
    """Warn when a quoted cell runs over several lines and holds the delimiter as often as a row
    separates its cells (one less than the header's columns): most likely a stray double quote
    (``"Hello," she said``) that made the rest of its row and the start of the next part of one
    cell, which then holds every cell separator of one row at least. A cell of prose quoted over
    two lines (``"Hello,\nworld."`` in a four-column transcript) holds fewer and is fine."""
    last = reader.line_num
    delimiter = reader.dialect.delimiter
    if last > lineno and any("\n" in cell and cell.count(delimiter) >= max(1, len(row) - 1) for cell in row):
        warn(f"{path}:{lineno}: a quoted cell runs over lines {lineno} to {last} and holds the "
             f"delimiter {delimiter!r}: probably an unbalanced double quote that merged those rows "
             "into one (double the quotes inside a quoted cell, or remove the stray one)",
             CorpusWarning)


def _row_id(row: list[str], lineno: int, columns: _Columns, default_id: str, path: Path) -> str:
    if columns.document is None:
        return default_id
    name, index = columns.document
    doc_id = row[index].strip()
    if not doc_id:
        raise CorpusFormatError(
            f"expected a document id in column {name!r}; the cell is empty", path=str(path), line=lineno
        )
    return doc_id


def _with_chapters(doc: Document, path: Path, columns: _Columns, source: Source, track: Path) -> Document:
    """``doc`` with the reference of the chapters ``track`` beside its file (``talk.chapters.vtt``
    beside ``talk.tsv``, as for captions and Whisper's JSON), when it has times and no label
    column gave it one; a file of several documents (a document column) cannot share one track."""
    if doc.times is None or doc.references:
        return doc
    if columns.document is not None:
        raise CorpusFormatError(f"a chapters track ({track.name!r}) is beside a file of several "
                                "documents (a document column); expected one transcript a file with it",
                                path=str(path))
    notes = list(doc.meta.get("notes", ()))
    references, found = chapters_of(path, doc.times, source.lines, notes)
    return dataclasses.replace(doc, references=references, meta={**doc.meta, **found, "notes": notes})


#: Words in a column's name that say it names recordings (``meeting_id``, ``episode``, ``session``):
#: such a column not read as the document column is one a user most likely meant as it.
_GROUPING_WORDS = re.compile(r"(?:^|[^a-z])(?:id|meeting|episode|session|conversation|dialog(?:ue)?|call|talk|"
                             r"recording|transcript|podcast|file)(?:$|[^a-z])", re.IGNORECASE)


def _note_grouping_column(path: Path, rows: Rows, columns: _Columns, notes: list[str]) -> None:
    """Note a column not read whose name says it names recordings (:data:`_GROUPING_WORDS`) and
    whose values run in blocks of rows (two or more blocks, of two rows on average at least; an id
    a row is no block): the rows of several meetings were read as one
    document (no column named as :data:`_DOCUMENT_COLUMNS` are), and ``document_column`` reads them
    apart."""
    read = {columns.text, *(index for _, index in columns.labels), *(index for _, index in columns.times or ()),
            *([columns.speaker[1]] if columns.speaker is not None else [])}
    for index, name in enumerate(columns.header):
        if index in read or not _GROUPING_WORDS.search(name):
            continue
        values = [row[index].strip() for _, row in rows]
        runs = 1 + sum(1 for a, b in zip(values, values[1:]) if a != b)
        if 2 <= runs == len(set(values)) and 2 * runs <= len(values):  # blocks, not an id a row
            note(notes, path, f"the rows were read as one document, yet column {name!r} holds {runs} values in "
                              f"blocks of rows ({_short_repr(values[0])}, ...): if it names the documents, pass "
                              f"document_column={name!r} (in a config, [corpus] document_column = \"{name}\")")
            return


def _labels(path: Path, doc_id: str, rows: Rows, columns: _Columns) -> list[tuple[str, list[str]]]:
    """The label columns that give the document a reference, each with its label of every row."""
    used = []
    for name, index in columns.labels:
        values = [row[index].strip() for _, row in rows]
        if not any(values):
            continue
        if not all(values):
            raise CorpusFormatError(
                f"document {doc_id!r}: expected a label in column {name!r} on every row of the "
                f"document (or on none); this row has none",
                path=str(path),
                line=rows[values.index("")][0],
            )
        used.append((name, values))
    return used


def _row_cues(rows: Rows, columns: _Columns, times: Sequence[tuple[float, float]] | None,
              labels: Sequence[tuple[str, list[str]]] = ()) -> tuple[list[Cue], set[int]]:
    """The rows with text as the cues :func:`~stability.readers.subtitles.sentences` cuts (each
    with its row's line, times (0 without them), text with whitespace runs made one space, and
    speaker), and the indices of those that start a turn because a label changes there."""
    cues: list[Cue] = []
    cuts: set[int] = set()
    before: tuple[str, ...] | None = None
    for k, (lineno, row) in enumerate(rows):
        text = " ".join(row[columns.text].split())
        key = tuple(values[k] for _, values in labels)
        if not text:
            continue
        if before is not None and key != before:
            cuts.add(len(cues))
        before = key
        name = row[columns.speaker[1]].strip() if columns.speaker is not None else ""
        start, end = times[k] if times is not None else (0.0, 0.0)
        cues.append(Cue(lineno, start, end, text, (name,) if name else ()))
    return cues, cuts


def _build(path: Path, doc_id: str, rows: Rows, columns: _Columns,
           split: tuple[Splitter, str | None] | None = None) -> Document:
    labels = _labels(path, doc_id, rows, columns)
    first_line = rows[0][0]
    notes: list[str] = []
    if columns.delimiter_note is not None:
        note(notes, path, columns.delimiter_note)
    if columns.document is None:
        _note_grouping_column(path, rows, columns, notes)
    meta: dict[str, Any] = {"format": "csv", "source": str(path), "line": first_line,
                            "label_columns": tuple(name for name, _ in labels), "notes": notes}
    units = tuple(row[columns.text] for _, row in rows)
    times = _times(path, doc_id, rows, columns, notes)
    speakers = tuple(row[columns.speaker[1]].strip() or None for _, row in rows) if columns.speaker else None
    if split is not None:  # sentences of the rows, as captions' of their cues; each takes its first row's labels
        cues, cuts = _row_cues(rows, columns, times, labels)
        if not cues:
            raise CorpusFormatError(f"document {doc_id!r}: expected text to cut into sentences (unit='sentence'); "
                                    f"its {len(rows)} row(s) have none", path=str(path), line=first_line)
        cues = sentences(cues, split[0], path, notes, pieces="rows", cuts=cuts)
        row_of = {lineno: k for k, (lineno, _) in enumerate(rows)}
        firsts = [row_of[cue.line] for cue in cues]
        labels = [(name, [values[k] for k in firsts]) for name, values in labels]
        units = tuple(cue.text for cue in cues)
        times = None if times is None else [(cue.start, cue.end) for cue in cues]
        speakers = None if speakers is None else tuple(", ".join(cue.speakers) or None for cue in cues)
        # a chunker joins them as running text, a turn a line where a speaker column changes (as captions)
        meta.update(unit="sentence", splitter=split[1], **sentence_separators(cues))
    if speakers is not None:
        meta["speakers"] = speakers
        if columns.prefix:
            units = tuple(f"{name}: {unit}" if name else unit for name, unit in zip(speakers, units))
    return make_document(
        path,
        first_line,
        id=doc_id,
        units=units,
        references=tuple(Segmentation.from_labels(values) for _, values in labels),
        times=times,
        meta=meta,
    )


def _time_unit(path: Path, cells: list[list[tuple[str, str]]], columns: _Columns, notes: list[str]) -> str:
    """The unit of a document's time cells: the one given, else milliseconds in Whisper's TSV
    layout (every cell an integer; with a note), else seconds."""
    if columns.time_unit is not None:
        return columns.time_unit
    if columns.whisper and all(value.isascii() and value.isdigit() for pair in cells for _, value in pair):
        note(notes, path, "times read in milliseconds: the file has Whisper's TSV layout (header start, end, text; "
                          "integer times), which gives milliseconds; pass time_unit='s' if they are seconds")
        return "ms"
    return "s"


def _times(path: Path, doc_id: str, rows: Rows, columns: _Columns, notes: list[str]) -> list[tuple[float, float]] | None:
    """Both time cells on every row of the document, or on none; in seconds."""
    if columns.times is None:
        return None
    cells = [[(name, row[index].strip()) for name, index in columns.times] for _, row in rows]
    if not any(value for pair in cells for _, value in pair):
        return None
    unit = _time_unit(path, cells, columns, notes)
    times = []
    decimal_comma = columns.delimiter != ","  # a time 2,5 cannot be two cells
    for (lineno, _), pair in zip(rows, cells):
        start, end = (_seconds(path, doc_id, lineno, name, value, unit, decimal_comma) for name, value in pair)
        if end < start:
            raise CorpusFormatError(
                f"document {doc_id!r}: expected start <= end; received start {start} and end {end}",
                path=str(path),
                line=lineno,
            )
        times.append((start, end))
    if columns.time_unit is None and unit == "s":  # a unit given is the user's word; the default is checked
        check_seconds(notes, path, times, "time_unit='ms' (--time-unit ms)")
    return times


def _seconds(path: Path, doc_id: str, lineno: int, column: str, cell: str, unit: str,
             decimal_comma: bool = False) -> float:
    """A time cell in ``unit``, in seconds; with ``decimal_comma``, ``2,5`` is 2.5 (a file whose
    cells a comma does not separate, as Excel writes them where that is the decimal separator). A
    clock time (``1:02.5``, ``00:01:02.500``, SubRip's ``00:01:02,500``) is hours, minutes and
    seconds whatever ``unit``."""
    clock = _CLOCK.fullmatch(cell)
    if decimal_comma and _DECIMAL_COMMA.fullmatch(cell):
        cell = cell.replace(",", ".")
    try:
        if clock is not None:
            hours, minutes, seconds = clock.groups()
            return float(3600 * int(hours or 0) + 60 * int(minutes)) + float(seconds.replace(",", "."))
        value = float(cell)
    except (ValueError, OverflowError):  # not a number; hours of hundreds of digits, beyond a float
        value = math.nan
    if not math.isfinite(value):
        raise CorpusFormatError(
            f"document {doc_id!r}: expected a number of {_UNIT_NAMES[unit]} in column {column!r} (or a clock time "
            f"such as 1:02.5 or 00:01:02.500; times must be given on every row of a document, or on none); "
            f"received {cell!r}",
            path=str(path),
            line=lineno,
        )
    return value / TIME_UNITS[unit]


def write_csv(
    documents: Iterable[Document], path: PathLike, *, delimiter: str | None = None, encoding: str = "utf-8"
) -> int:
    """Write documents as one CSV/TSV file that :func:`read_csv` reads back to equal documents.

    Columns: ``document``, ``text``, then ``start`` and ``end`` if any document has times, then
    ``speaker`` if any document names a speaker in ``meta["speakers"]`` (one name or ``None`` a
    unit, as the readers of transcripts give them), then one label column per reference
    (``label`` when no document has more than one reference, otherwise ``label_1``,
    ``label_2``...), holding each unit's segment number. Cells of a document that lacks a
    reference, times or speakers are left empty (a unit whose speaker is ``None`` too: read back,
    it is ``None``). A speaker the reader would not read back as written is refused: not a string,
    empty, or with spaces around it. The header depends on every document, so a one-shot iterator
    is turned into a list first.

    Returns
    -------
    int
        Number of documents written (each as one row per unit).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "out.csv"
    >>> write_csv([Document("a", ("x", "y"), references=([1],))], file)
    1
    >>> file.read_text().splitlines()
    ['document,text,label', 'a,x,0', 'a,y,1']
    """
    docs = list(checked_documents(documents))
    target = Path(path)
    n_refs = max((len(d.references) for d in docs), default=0)
    with_times = any(d.times is not None for d in docs)
    speakers = [_speakers_written(doc) for doc in docs]
    with_speakers = any(name is not None for names in speakers for name in names or ())
    label_names = ["label"] if n_refs == 1 else [f"label_{k + 1}" for k in range(n_refs)]
    header = (["document", "text"] + (["start", "end"] if with_times else []) + (["speaker"] if with_speakers else [])
              + label_names)
    with open(target, "w", encoding=encoding, newline="") as handle:
        # "\r\n" ends: cells with \r get quoted
        writer = csv.writer(handle, delimiter=delimiter or _default_delimiter(target))
        writer.writerow(header)
        for doc, names in zip(docs, speakers):
            labels = [ref.labels for ref in doc.references]
            for i, unit in enumerate(doc.units):
                row = [doc.id, unit]
                if with_times:
                    row += [repr(doc.times[i][0]), repr(doc.times[i][1])] if doc.times is not None else ["", ""]
                if with_speakers:
                    row.append(names[i] or "" if names is not None else "")
                row += [str(labels[k][i]) if k < len(labels) else "" for k in range(n_refs)]
                writer.writerow(row)
    return len(docs)


def _speakers_written(doc: Document) -> Sequence[str | None] | None:
    """The speakers of ``doc``'s units (``meta["speakers"]``) as :func:`write_csv` writes them, or
    None without them; refused when they would not read back as they are."""
    names = doc.meta.get("speakers")
    if names is None:
        return None
    if not isinstance(names, (list, tuple)) or len(names) != doc.n_units:
        raise InvalidParameterError(
            f"document {doc.id!r}: meta['speakers'] must hold one speaker a unit ({doc.n_units}), a name or None, "
            f"to be written in the speaker column; received {_short_repr(names)}", parameter="documents",
        )
    for i, name in enumerate(names):
        if name is not None and (not isinstance(name, str) or not name or name != name.strip()):
            raise InvalidParameterError(
                f"document {doc.id!r}: the speaker of unit {i} must be a name without spaces around it, or None "
                f"(speaker unknown), to read back as written (the reader strips the cell, and reads an empty one "
                f"as None); received {_short_repr(name)}", parameter="documents",
            )
    return names
