"""JSON documents: one per line (JSON lines), or a JSON array of them (or pretty-printed objects).

A document is an object ``{"id", "units", "references", "times", "meta"}``. The keys of the
dialogue topic segmentation data hub (Xing and Carenini's collection of DialSeg711, TIAGE, AMI,
ICSI and QMSum committee meetings: ``{"dial_id", "utterances", "segments", "set"}``) are read as
they are: ``utterances`` are the units and ``dial_id`` the id (:data:`KEY_ALIASES`).

References may be given as boundary lists (``references``, ``boundaries``), as segment sizes
(``segments``, ``masses``) or as one segment label per unit (``labels``, read as
:meth:`~stability.Segmentation.from_labels` and CSV label columns read them: a change of label
starts a segment); these keys are :data:`REFERENCE_KEYS`, which ``stability score`` reads too. A
key that looks like a reference but is none of these is kept in ``meta`` with a
:class:`~stability.readers.CorpusWarning` naming the key and ``file:line``.

A speech-to-text transcript as Whisper writes it (``{"text", "segments": [{"start", "end",
"text", ...}], "language"}``; OpenAI's verbose JSON and WhisperX's output have the same
``segments``) is read as one document, a unit per segment with its times, or a unit per sentence
with ``unit="sentence"``, as caption files are (see :func:`read_jsonl`).
"""

from __future__ import annotations

import difflib
import itertools
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Callable

from ..checks import check_choice, counted, first_few, lone_surrogate
from ..corpus import Document
from ..exceptions import CorpusFormatError, InvalidParameterError, InvalidSegmentationError, _short_repr
from ..segmentation import Segmentation
from ..splitters import Splitter, SplitterOption
from .common import (PathLike, check_seconds, checked_documents, NoTextError, iter_lines, make_document, note,
                     open_source, stream_files)
from .subtitles import Cue, chapters_of, chapters_track, sentence_separators, sentences, turn_texts
from .text import _splitter_name, build_splitter, resolve_splitter

__all__ = ["read_jsonl", "write_jsonl", "sniff_json", "sniff_json_text", "is_document", "holds_documents", "is_whisper", "REFERENCE_KEYS", "KEY_ALIASES",
           "JSON_HEAD", "REFERENCE_KINDS", "reference_keys_said", "read_labels"]

PATTERNS = ("*.jsonl", "*.json", "*.ndjson")
#: What a unit of a Whisper transcript is: a segment as Whisper cut it, or a sentence.
UNITS = ("segment", "sentence")

#: Keys holding references, and what their values are (a kind of :data:`REFERENCE_KINDS`):
#: boundaries, segment sizes, or a segment label per unit. Each key takes one annotator's list or
#: a list of them (``references`` only the latter). The corpus reader and ``stability score``
#: (bare segmentations) read these keys, and their errors list them (:func:`reference_keys_said`).
REFERENCE_KEYS: dict[str, str] = {
    "references": "boundaries",
    "boundaries": "boundaries",
    "segments": "sizes",
    "masses": "sizes",
    "labels": "labels",
}
#: Each kind of reference: what its list holds, in words, the word for one of its items, and one
#: annotator's list as an example.
REFERENCE_KINDS: dict[str, tuple[str, str, str]] = {
    "boundaries": ("boundary lists", "boundary", "[3, 7]"),
    "sizes": ("segment sizes", "size", "[4, 6, 6]"),
    "labels": ("a segment label per unit", "label", '["intro", "intro", "body"]'),
}
#: Other names read as one of the document keys: those of the dialogue topic segmentation data
#: hub (``utterances``, ``dial_id``). A record may use a key or its alias, not both.
KEY_ALIASES: dict[str, str] = {"utterances": "units", "dial_id": "id"}
_KEYS = ("id", "units", "times", "meta") + tuple(REFERENCE_KEYS)
#: Near-misses of the unit and time keys: errors, since the document cannot be read without them.
_MISSPELLINGS = {"sentences": "units", "unit": "units", "text": "units", "time": "times", "timestamps": "times"}
#: Keys that look like a reference but are not read as one: a warning, the value stays in meta.
_REFERENCE_LOOKALIKES = frozenset(
    "reference refs ref gold gold_standard goldstandard ground_truth groundtruth truth label "
    "segmentation segmentations segment segs seg sizes lengths segment_sizes segment_lengths boundary "
    "breaks borders cuts topics topic annotation annotations".split()
)


def reference_keys_said(counted: str = "") -> str:
    """The keys of :data:`REFERENCE_KEYS` as errors list them, grouped by kind; ``counted``
    (``"'n_units'"``) is what boundary lists need beside them to know the number of units
    (segment sizes and labels carry it), said after their keys.

    >>> reference_keys_said()
    "'references' or 'boundaries' (boundary lists) or 'segments' or 'masses' (segment sizes) or 'labels' (a segment label per unit)"
    >>> reference_keys_said("'n_units'")[:60]
    "'references' or 'boundaries' with 'n_units' (boundary lists)"
    """
    groups: dict[str, list[str]] = {}
    for key, kind in REFERENCE_KEYS.items():
        groups.setdefault(kind, []).append(repr(key))
    return " or ".join(" or ".join(keys) + (f" with {counted}" if counted and kind == "boundaries" else "")
                       + f" ({REFERENCE_KINDS[kind][0]})" for kind, keys in groups.items())


def read_labels(values: Any, name: str = "labels") -> Segmentation:
    """The segmentation of one annotator's ``labels`` as JSON gives them, one per unit (strings or
    finite numbers; a change of label starts a segment, as :meth:`Segmentation.from_labels` reads
    them); anything else in the list (null, a boolean, a list or an object) is refused, naming
    ``name`` and the first such item.

    >>> read_labels(["intro", "intro", "body", "body", "end"]).boundaries
    (2, 4)
    >>> read_labels([0, None, 1], "labels[1]")
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidSegmentationError: labels[1] must be a list of segment labels (strings or numbers), one per unit; labels[1][1] is None
    """
    if not isinstance(values, list):
        raise InvalidSegmentationError(f"{name} must be a list of segment labels, one per unit; received "
                                       f"{_short_repr(values)}")
    for i, value in enumerate(values):
        if not (isinstance(value, str) or _is_int(value) or (isinstance(value, float) and math.isfinite(value))):
            raise InvalidSegmentationError(f"{name} must be a list of segment labels (strings or numbers), one per "
                                           f"unit; {name}[{i}] is {_short_repr(value)}")
    return Segmentation.from_labels(values, name)

Fail = Callable[[str], CorpusFormatError]


def read_jsonl(
    path: PathLike,
    *,
    where: Mapping[str, Any] | str | None = None,
    unit: str = "segment",
    splitter: SplitterOption = None,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read JSON documents: one object per line (JSON lines), or a JSON array of objects.

    A file whose first non-blank line is a whole JSON object is read as JSON lines, one line at a
    time. Any other file (``[`` on its first line, or an object spread over several lines) is
    parsed as JSON: a top-level array of document objects, or one or more objects; each document
    then starts at the line where its object opens.

    ``units`` (a list of strings) is required. References are optional and come from one of
    (:data:`REFERENCE_KEYS`):

    * ``references``: a list of boundary lists, one per annotator (boundary ``b`` starts a
      segment at unit ``b``, ``1 <= b <= n-1``);
    * ``boundaries``: the same, or a single flat boundary list for one annotator;
    * ``segments`` or ``masses``: segment sizes (``[4, 6, 6]``: 16 units in three segments), a
      flat list for one annotator or a list of lists; the sizes must sum to the number of units;
    * ``labels``: one segment label per unit, strings or numbers (``["intro", "intro", "body"]``:
      a change of label starts a segment, as in CSV label columns), a flat list for one annotator
      or a list of lists; each list holds one label per unit.

    ``times`` is a list of ``[start, end]`` pairs of finite numbers with ``start <= end``, one per
    unit, ``meta`` an object. ``id`` may be a string or an integer (turned into a string); when it
    is missing the id is the 1-based line where the document starts (``<line>.<k>`` for the
    ``k``-th of several documents starting on one line, as in a JSON array written on one line),
    prefixed by ``<relative file>:`` when a directory is read. ``utterances`` and ``dial_id`` (the dialogue
    topic segmentation data hub's keys) are read as ``units`` and ``id``. Other keys are kept in
    ``meta``, except those the reader sets there (``format``, ``source``, ``line``), whose value is
    dropped with a note; a ``notes`` list of strings comes before the reader's notes (any other
    ``notes`` value is dropped with a note). Near-misses of ``units`` and ``times`` (``sentences``, ``text``, ``time``...) are
    errors; a key that looks like a reference (a list under a name such as ``reference``,
    ``labels``, ``gold``, ``segmentation``, ``sizes``, ``boundary``, or close to a reference key)
    is kept in ``meta`` with a note and a :class:`CorpusWarning` naming the key and ``file:line``,
    so that a reference is never lost silently; for the same reason a key given twice in one object
    is an error (JSON parsers keep its last value). An id or a unit holding a lone surrogate (the
    escape ``\\ud83d`` alone: half of an emoji, as a tool cutting text in UTF-16 units leaves) is an
    error: no text can be written with it. Blank lines are skipped; a file with no document
    (empty, blank, or an empty array) is an error, as in the other formats.

    **Whisper transcripts.** An object whose ``segments`` holds objects rather than segment sizes,
    ``{"start": 0.0, "end": 2.5, "text": " Hello", ...}`` (what Whisper's ``--output_format json``,
    OpenAI's ``verbose_json`` and WhisperX write), is a transcript: each segment with text is a
    unit (its text stripped, whitespace runs made one space; a segment without text is skipped
    with a note) and its ``(start, end)`` go into ``times``. Its id is ``id`` when it has one,
    else the file's relative path (``talk.json``; with ``:<line>`` for an object that does not
    start the file). ``meta`` holds the other keys (``language``...; not ``text``, the units
    joined, nor WhisperX's ``word_segments``), ``transcript: "whisper"``, ``unit``,
    ``splitter``, ``unit_separator`` for sentence units (a space, as for caption files), ``speakers`` (each unit's ``speaker``, as WhisperX's diarization gives it, or
    ``None``) and ``chapters``: a chapters track ``talk.chapters.vtt`` or ``talk.chapters.srt``
    (or a chapter list ``talk.chapters.txt``, ``12:31 The budget`` a line) beside ``talk.json``
    gives the reference, as for caption files (see
    :func:`~stability.readers.read_subtitles`). A chapters track belongs to one recording: a file
    holding several Whisper transcripts (JSON lines, or an array) with a chapters track beside it
    is an error naming both, whatever ``where`` keeps, since nothing says which transcript the
    chapters are of; give each transcript its own file (``monday.json`` beside
    ``monday.chapters.vtt``). Other documents of such a file are read as ever.

    Whisper cuts its segments every few seconds, through sentences. ``unit="sentence"`` makes
    the units sentences instead, exactly as for caption files (the same code, with a segment in
    the place of a cue): the segments of each speaker turn (consecutive segments with the same
    ``speaker``; all of them without diarization) are joined and cut by ``splitter``, each
    sentence taking the share of its segments' times its characters take (units never share time),
    and text without a sentence end stays cut where its segments end (a note counts such
    units). Only Whisper transcripts have sentences to find: with ``unit="sentence"`` a document
    that gives its ``units`` is an error naming it.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    where : mapping or str, optional
        Keep only the documents whose keys have these values, e.g. ``{"set": "test"}`` or the
        same as ``"set=test"`` (several: ``"set=test,lang=en"``). Values are compared as text
        (a number or ``true`` matches its JSON spelling); a document without one of the keys is
        an error naming its place, and so is a ``where`` that keeps none of the documents (raised
        once they are all read).
    unit : {"segment", "sentence"}
        Whisper transcripts: a unit per segment (default), or per sentence of a speaker turn (see
        above).
    splitter : str or callable, optional
        Sentence splitter for ``unit="sentence"``, as for the text format (see
        :func:`~stability.readers.read_text`); default ``"auto"``, which learns from the turns of
        every transcript of the corpus when they are long enough.
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`); ``pattern``
        defaults to ``"*.jsonl"``, ``"*.json"`` and ``"*.ndjson"`` here. ``limit`` counts the
        documents kept.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "corpus.jsonl"
    >>> _ = file.write_text('{"id": "a", "units": ["x", "y", "z"], "references": [[1], [2]]}\\n'
    ...                     '{"id": "b", "units": ["x", "y", "z"], "segments": [1, 2]}\\n')
    >>> [[r.boundaries for r in doc.references] for doc in read_jsonl(file)]
    [[(1,), (2,)], [(1,)]]

    The data hub's layout, a JSON array of dialogues, keeping the test set:

    >>> hub = file.with_name("dialogues.json")
    >>> _ = hub.write_text(json.dumps([
    ...     {"dial_id": 0, "utterances": ["hi", "hello", "rain?", "yes"], "segments": [2, 2], "set": "test"},
    ...     {"dial_id": 1, "utterances": ["a", "b"], "segments": [2], "set": "train"}], indent=2))
    >>> [(doc.id, doc.references[0].boundaries) for doc in read_jsonl(hub, where="set=test")]
    [('0', (2,))]
    """
    wanted = _check_where(where)
    check_choice(unit, "unit", UNITS)
    resolved = resolve_splitter(splitter, unit)
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )

    counts = {"read": 0, "kept": 0}
    state: dict[str, Splitter] = {}

    def turns(file: Path) -> Iterator[str]:  # what a sentence splitter learns from: each turn's text
        for lineno, _, record in _records(file, source.lines(file)):
            if is_whisper(record):
                yield from turn_texts(_whisper_cues(file, lineno, record)[0])

    def parse_file(relative: str, file: Path) -> Iterator[Document]:
        prefix = "" if source.single else f"{relative}:"
        track = chapters_track(file)
        if track is not None:
            _one_transcript(file, track, source.lines)
        for lineno, place, record in _records(file, source.lines(file)):
            counts["read"] += 1
            if _selected(record, wanted, file, lineno):
                counts["kept"] += 1
                if is_whisper(record):
                    if resolved is not None and "split" not in state:
                        state["split"] = build_splitter(resolved, source, turns)
                    doc_id = relative if place == "1" else f"{relative}:{place}"
                    yield _whisper_document(file, lineno, record, doc_id, source.lines, state.get("split"),
                                            _splitter_name(resolved))
                elif unit == "sentence":
                    raise InvalidParameterError(
                        f"{file}:{lineno}: unit='sentence' cuts Whisper transcripts (objects whose 'segments' hold "
                        f"{{'start', 'end', 'text'}}) into sentences; this document gives its 'units' as they are: "
                        f"leave unit='sentence' out for this corpus", parameter="unit",
                    )
                else:
                    yield _parse_record(file, lineno, record, prefix, place)

    return _some_kept(stream_files(source, parse_file), wanted, counts, source.root)


def _some_kept(documents: Iterator[Document], wanted: dict[str, str], counts: dict[str, int],
               root: Path) -> Iterator[Document]:
    """The stream; a ``where`` that kept none of the documents read is an error at its end."""
    yield from documents
    if wanted and counts["read"] and not counts["kept"]:
        shown = ",".join(f"{key}={value}" for key, value in wanted.items())
        raise InvalidParameterError(
            f"where {shown!r} kept none of the {counts['read']} document(s) read from {root}", parameter="where"
        )


def _check_where(where: Any) -> dict[str, str]:
    """``where`` as ``{key: value as text}``; a string is ``"key=value[,key=value...]"``."""
    if where is None:
        return {}
    if isinstance(where, str):
        pairs = [part.split("=", 1) for part in where.split(",") if part.strip()]
        if not pairs or any(len(pair) != 2 or not pair[0].strip() for pair in pairs):
            raise InvalidParameterError(
                f"where must be 'key=value' pairs separated by commas (e.g. 'set=test'); received {where!r}",
                parameter="where",
            )
        return {key.strip(): value.strip() for key, value in pairs}
    if isinstance(where, Mapping) and where and all(isinstance(k, str) for k in where):
        return {key: _as_text(value) for key, value in where.items()}
    raise InvalidParameterError(
        f"where must be a non-empty table of key = value (e.g. {{set = 'test'}}) or a 'key=value' string; "
        f"received {_short_repr(where)}", parameter="where",
    )


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _selected(record: dict[str, Any], wanted: dict[str, str], path: Path, lineno: int) -> bool:
    for key, value in wanted.items():
        if key not in record:
            raise CorpusFormatError(
                f"where selects on {key!r}, but this document has no such key (its keys: "
                f"{', '.join(map(repr, record))})", path=str(path), line=lineno,
            )
        if _as_text(record[key]) != value:
            return False
    return True


def _records(path: Path, lines: Iterator[str]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(line, place, object)`` for each document of the file, as JSON lines or as one JSON
    text; ``place`` is the document's default id (:func:`_placed`)."""
    first: list[str] = []
    for line in lines:
        first.append(line)
        if line.strip():
            break
    if not first or not first[-1].strip():
        raise NoTextError(
            "expected JSON documents (one object per line, or an array of objects); the file is empty or blank",
            path=str(path),
        )
    head = first[-1].strip()
    if head.startswith("{") and _is_object(head):
        yield from ((lineno, str(lineno), record) for lineno, record in _line_records(path, itertools.chain(first, lines)))
    else:  # read whole already: looking one document ahead costs nothing
        yield from _placed(_json_records(path, "\n".join(itertools.chain(first, lines))))


def _placed(records: Iterator[tuple[int, dict[str, Any]]]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(line, place, object)``: ``place``, a document's default id, is the line where it starts,
    or ``<line>.<k>`` for the ``k``-th of several documents starting on one line (a JSON array
    written on one line, as ``json.dump`` writes it: the documents would otherwise share an id)."""
    previous: tuple[int, dict[str, Any]] | None = None
    k = 0
    for item in records:
        if previous is not None:
            shared = k > 1 or previous[0] == item[0]
            yield previous[0], f"{previous[0]}.{k}" if shared else str(previous[0]), previous[1]
        k = k + 1 if previous is not None and previous[0] == item[0] else 1
        previous = item
    if previous is not None:
        yield previous[0], f"{previous[0]}.{k}" if k > 1 else str(previous[0]), previous[1]


def document_id(value: Any, fail: Fail) -> str:
    """A record's ``id`` as a string: a string or an integer (a bool, null or list is refused by
    ``fail(message)``, an exception naming the file and line)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise fail(f"'id' must be a string or an integer; received {_short_repr(value)}")
    return str(value)


#: How much of the start of a text :func:`sniff_json_text` looks at, in characters: an array that
#: is not of objects (``[3, 7]``) is told by parsing it, so it must end within this.
JSON_HEAD = 1 << 20
#: What may come before a JSON text's first token: blank space, and a byte-order mark.
_LEADING = "\ufeff \t\r\n"


def sniff_json_text(pieces: Iterable[str]) -> str | None:
    """What makes a text JSON documents for the JSON reader (the phrase a message names it by), or
    None: the one rule for a file without a JSON extension (:func:`sniff_json`) and for standard
    input (:func:`~stability.readers.read_corpus` ``("-")``).

    ``pieces`` are the text's start in order (a file's lines with their ends), read only as far as
    the rule needs. The text's first two characters (blank space and a byte-order mark skipped,
    before and between them) decide:

    * ``{`` then ``"`` (its first key), ``}`` (empty) or ``'`` (a Python dict written with single
      quotes, which the reader refuses saying why): a JSON object, whole or cut short (JSON lines,
      or one object however it is laid out);
    * ``[`` then ``{``: a JSON array of objects;
    * ``[`` then anything else: a JSON array when the text parses as one (``[3, 7]``, ``[]``,
      ``[[3, 7]]``) and ends within :data:`JSON_HEAD` characters. The reader then refuses it,
      saying that it expects document objects: read as text, its one unit would be the list.

    Anything else is not JSON documents (``{Chapter one}``, ``[1] Smith et al.``, ``[Music]``).

    Examples
    --------
    >>> [sniff_json_text([text]) for text in ('{"id": 1,', '[  {"units"', "[3, 7]", "[1] Smith", "{Chapter}")]
    ['a JSON object', 'a JSON array of objects', 'a JSON array', None, None]
    """
    read = iter(pieces)
    head = ""
    for piece in read:
        head += piece
        body = head.lstrip(_LEADING)
        if (body and body[0] not in "{[") or body[1:].lstrip(_LEADING) or len(head) > JSON_HEAD:
            break
    body = head.lstrip(_LEADING)
    second = body[1:].lstrip(_LEADING)[:1]
    if body.startswith("{"):
        return "a JSON object" if second in ('"', "}", "'") else None
    if not body.startswith("[") or not second:
        return None
    if second == "{":
        return "a JSON array of objects"
    for piece in read:  # parsed whole: '[1] Smith et al.' is text that starts as an array does
        if len(head) > JSON_HEAD:
            break
        head += piece
    if len(head) > JSON_HEAD:
        return None
    try:
        json.loads(head.lstrip(_LEADING))
    except ValueError:
        return None
    except RecursionError:  # nested too deeply to parse: JSON all the same, and its reader says so
        pass
    return "a JSON array"


def sniff_json(file: Path, codec: str, errors: str) -> str | None:
    """What makes ``file`` look like JSON documents (a file without the ``.json`` extension), or
    None: :func:`sniff_json_text` on its start."""
    lines = iter_lines(file, codec, errors, raw=True)
    try:
        return sniff_json_text(lines)
    finally:
        lines.close()


def _is_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except json.JSONDecodeError:
        return False
    except RecursionError:  # an object too deep to parse: read as JSON lines, whose error names the line
        return True


#: Why a JSON text nested deeper than the parser can follow is refused (Python's parser recurses
#: once per level, so a few thousand nested arrays stop it; no corpus nests that deep).
TOO_DEEP = ("invalid JSON: arrays or objects nested too deeply to read (deeper than Python's recursion limit); "
            "expected a document object whose values are strings, numbers and lists of them")


def _line_records(path: Path, lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            yield lineno, _load(line, lambda message: CorpusFormatError(message, path=str(path), line=lineno))


def _json_records(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The document objects of a JSON text: a top-level array of them, or objects one after another."""
    decoder = json.JSONDecoder(object_pairs_hook=_unique_keys)
    lines = _LineCounter(text)

    def fail(message: str, at: int) -> CorpusFormatError:
        return CorpusFormatError(message, path=str(path), line=lines.at(at))

    def decode(at: int) -> tuple[Any, int]:
        try:
            return decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise CorpusFormatError(
                f"invalid JSON at column {exc.colno}: {exc.msg}", path=str(path), line=exc.lineno
            ) from None
        except _RepeatedKey as exc:
            raise fail(str(exc), at) from None
        except RecursionError:
            raise fail(TOO_DEEP, at) from None

    def document(value: Any, at: int) -> tuple[int, dict[str, Any]]:
        if not isinstance(value, dict):
            raise fail(not_an_object(value), at)
        return lines.at(at), value

    at = _skip_space(text, 0)
    while at < len(text):
        if text[at] != "[":
            value, end = decode(at)
            yield document(value, at)
        else:  # an array of documents, element by element so that each keeps its line
            at = _skip_space(text, at + 1)
            end = at + 1 if text.startswith("]", at) else -1
            if end > 0:
                raise NoTextError("expected at least one document (a JSON object with 'units') in the array; "
                                  "the array is empty", path=str(path), line=lines.at(at))
            while end < 0:
                value, after = decode(at)
                yield document(value, at)
                at = _skip_space(text, after)
                if text.startswith(",", at):
                    at = _skip_space(text, at + 1)
                elif text.startswith("]", at):
                    end = at + 1
                else:
                    raise fail("invalid JSON: expected ',' or ']' after a document of the array", at)
        at = _skip_space(text, end)


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


class _LineCounter:
    """Line numbers of offsets into one text, counted forward once (offsets only increase)."""

    def __init__(self, text: str) -> None:
        self.text, self.offset, self.line = text, 0, 1

    def at(self, offset: int) -> int:
        if offset < self.offset:
            return self.text.count("\n", 0, offset) + 1
        self.line += self.text.count("\n", self.offset, offset)
        self.offset = offset
        return self.line


def _parse_record(path: Path, lineno: int, record: dict[str, Any], prefix: str, place: str) -> Document:
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(message, path=str(path), line=lineno)

    for key in ("units", *(alias for alias, name in KEY_ALIASES.items() if name == "units")):
        said = record.get(key)
        if isinstance(said, list) and any(isinstance(item, dict) and "text" in item for item in said):
            raise fail(_timed_objects(key, said))
    record = _canonical_keys(record, fail)
    notes: list[str] = []
    if not _has_units(record) and "segments" not in record and isinstance(record.get("text"), str):
        raise fail(_NO_SEGMENTS)
    _check_keys(record, f"{path}:{lineno}", notes, fail)
    doc_id = document_id(record.get("id", f"{prefix}{place}"), fail)
    if "units" not in record:
        raise fail(f"document {doc_id!r}: expected a 'units' list of strings; the key is missing")
    units = record["units"]
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise fail(f"document {doc_id!r}: 'units' must be a list of strings; received {_short_repr(units)}")
    fail_doc = lambda message: fail(f"document {doc_id!r}: {message}")  # noqa: E731
    _check_text(doc_id, "'id'", fail)
    for i, unit in enumerate(units):
        _check_text(unit, f"units[{i}]", fail_doc)
    references = _references(record, len(units), fail_doc)
    times = _times(record.get("times"), fail_doc)
    meta = record.get("meta", {})
    if not isinstance(meta, dict):
        raise fail_doc(f"'meta' must be an object; received {_short_repr(meta)}")
    given = {**meta, **{k: v for k, v in record.items() if k not in _KEYS}}
    if times is not None:
        check_seconds(notes, f"{path}:{lineno}", times, "'times' in seconds (the milliseconds divided by 1000)")
    meta = _merged_meta(given, {"format": "jsonl", "source": str(path), "line": lineno}, f"{path}:{lineno}", notes)
    return make_document(
        path, lineno, id=doc_id, units=tuple(units), references=references, times=times, meta=meta
    )


def _merged_meta(given: dict[str, Any], own: dict[str, Any], where: str, notes: list[str]) -> dict[str, Any]:
    """A document's meta: what its record ``given`` (its ``meta`` and other keys), then the
    reader's own entries ``own`` and ``notes``. A given key that the reader sets too (``source``,
    say) loses its value, with a note rather than in silence; a given ``notes`` that is a list of
    strings comes before the reader's notes, any other value is dropped with a note."""
    for key, value in own.items():
        if key in given and given[key] != value:
            note(notes, where, f"key {key!r} is one the reader sets (to {_short_repr(value)}): the document's value "
                               f"{_short_repr(given[key])} is dropped; rename the key to keep it")
    earlier = given.get("notes", [])
    if not isinstance(earlier, list) or not all(isinstance(text, str) for text in earlier):
        note(notes, where, f"key 'notes' holds the reader's notes, a list of strings: the document's value "
                           f"{_short_repr(earlier)} is dropped; rename the key to keep it")
        earlier = []
    return {**given, **own, "notes": earlier + notes}


def _has_units(record: Mapping[str, Any]) -> bool:
    """Whether ``record`` has units, under ``units`` or an alias of it (:data:`KEY_ALIASES`)."""
    return "units" in record or any(key == "units" and alias in record for alias, key in KEY_ALIASES.items())


def is_whisper(record: Mapping[str, Any]) -> bool:
    """Whether ``record`` is a speech-to-text transcript as Whisper writes it: ``segments`` a list
    holding objects (``{"start", "end", "text", ...}``), not segment sizes, and no units."""
    segments = record.get("segments")
    return (
        isinstance(segments, list) and not _has_units(record)
        and (any(isinstance(segment, dict) for segment in segments) or (not segments and "text" in record))
    )


def is_document(record: Mapping[str, Any]) -> bool:
    """Whether the JSON object ``record`` is a document this reader reads: it has units (under
    ``units`` or an alias), or it is a Whisper transcript (:func:`is_whisper`). Any other object is
    a bare segmentation to ``stability score`` (``boundaries`` with ``n_units``, ``masses``,
    ``references``): the one rule by which both tell a corpus from segmentations.

    Examples
    --------
    >>> [is_document(r) for r in ({"units": ["A."]}, {"utterances": ["A."]}, {"segments": [{"text": "A."}]},
    ...                           {"boundaries": [2], "n_units": 4}, {"masses": [2, 2]}, {"segments": [2, 2]})]
    [True, True, True, False, False, False]
    """
    return _has_units(record) or is_whisper(record)


def holds_documents(file: Path, codec: str, errors: str) -> bool:
    """Whether ``file`` holds documents this reader reads, as its first object tells
    (:func:`is_document`): a settings file beside a site's pages (Docusaurus's
    ``_category_.json``, a ``package.json``, a list of versions) holds none. A file the reader
    cannot parse counts as holding some: reading it says what is wrong."""
    lines = iter_lines(file, codec, errors)
    try:
        first = next(_records(file, lines), None)
    except NoTextError:
        return False
    except CorpusFormatError:  # no JSON, or JSON holding no object (``["2.0", "1.0"]``)
        try:
            return _holds_objects(json.loads(file.read_text(codec, errors)))
        except (ValueError, RecursionError):  # no JSON: the reader says what is wrong
            return True
    except UnicodeError:
        return True
    finally:
        lines.close()
    return first is not None and is_document(first[2])


def _holds_objects(value: Any) -> bool:
    return isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, dict) for v in value))


def _one_transcript(file: Path, track: Path, lines: Callable[[Path], Iterable[str]]) -> None:
    """Refuse a file holding several Whisper transcripts beside the chapters track ``track``,
    which belongs to one recording."""
    found = [lineno for lineno, _, record in _records(file, iter(lines(file))) if is_whisper(record)]
    if len(found) > 1:
        shown = first_few(found, form=str)
        raise CorpusFormatError(
            f"expected one Whisper transcript in a file with a chapters track beside it ({track.name!r}), which "
            f"belongs to one recording; this file holds {len(found)} (lines {shown}), so the chapters would be "
            f"given to each: write each transcript to its own file (X.json beside X.chapters.vtt), or move "
            f"{track.name!r} away", path=str(file),
        )


#: Keys of a Whisper transcript not kept in its meta: the whole text (the units joined), the
#: segments (the units and times) and WhisperX's word timings.
_WHISPER_READ = ("id", "text", "segments", "word_segments")


def _whisper_cues(path: Path, lineno: int, record: dict[str, Any]) -> tuple[list[Cue], list[int]]:
    """The segments of a Whisper transcript that hold text, as cues (each its text stripped and
    whitespace runs made one space, its ``speaker`` as the cue's voice), and the indices of the
    segments without text."""
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(message, path=str(path), line=lineno)

    expected = "a Whisper segment, an object with 'start' and 'end' (seconds) and 'text'"
    cues, empty = [], []
    for k, segment in enumerate(record["segments"]):
        if not isinstance(segment, dict) or not isinstance(segment.get("text"), str):
            raise fail(f"segments[{k}] must be {expected}; received {_short_repr(segment)}")
        pair: list[Any] = [segment.get("start"), segment.get("end")]  # numbers once checked below
        if not all(_finite_number(t) for t in pair):
            raise fail(f"segments[{k}] must be {expected}, its times finite numbers; received start "
                       f"{_short_repr(pair[0])} and end {_short_repr(pair[1])}")
        if pair[1] < pair[0]:
            raise fail(f"segments[{k}] must end at or after its start; received start {pair[0]} and end {pair[1]}")
        text = " ".join(segment["text"].split())
        _check_text(text, f"segments[{k}] 'text'", fail)
        if not text:
            empty.append(k)
            continue
        speaker = segment.get("speaker")
        cues.append(Cue(lineno, float(pair[0]), float(pair[1]), text, () if speaker is None else (str(speaker),)))
    return cues, empty


def _whisper_document(path: Path, lineno: int, record: dict[str, Any], default_id: str,
                      lines: Callable[[Path], Iterable[str]], split: Splitter | None, splitter: str | None) -> Document:
    """The document of a Whisper transcript: a unit per segment with text (or per sentence, with
    ``split``), its times kept."""
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(message, path=str(path), line=lineno)

    doc_id = document_id(record.get("id", default_id), fail)
    _check_text(doc_id, "'id'", fail)
    cues, empty = _whisper_cues(path, lineno, record)
    notes: list[str] = []
    if empty:
        shown = first_few(empty, 10, str)
        note(notes, f"{path}:{lineno}", f"{len(empty)} Whisper segment(s) without text skipped (segments {shown})")
    if not cues:  # Whisper's output for a silent recording: left out of a folder with a warning
        raise NoTextError(f"document {str(doc_id)!r}: expected at least one Whisper segment with text; "
                          f"{'its segments have none' if record['segments'] else 'segments is empty'}",
                          path=str(path), line=lineno)
    late = [k for k, (before, cue) in enumerate(zip(cues, cues[1:]), 1) if cue.start < before.start]
    if late:  # read as written (a chapters track, which needs the order of time, refuses them below)
        shown = first_few(late, 10, str)
        note(notes, f"{path}:{lineno}", f"{len(late)} Whisper segment(s) with text start before the one above them "
                                        f"(segments with text {shown}): read in the file's order; boundary times "
                                        "will not be in order")
    if split is not None:
        cues = sentences(cues, split, path, notes, pieces="segments", where=f"{path}:{lineno}")
    times = [(cue.start, cue.end) for cue in cues]
    references, found = chapters_of(path, times, lines, notes)
    own = {"format": "jsonl", "transcript": "whisper", "source": str(path), "line": lineno,
           "unit": "segment" if split is None else "sentence", "splitter": splitter,
           "speakers": tuple(", ".join(cue.speakers) if cue.speakers else None for cue in cues), **found}
    if split is not None:  # sentences run on as text, a turn a line, as for caption files
        own.update(sentence_separators(cues))
    meta = _merged_meta({k: v for k, v in record.items() if k not in _WHISPER_READ}, own, f"{path}:{lineno}", notes)
    return make_document(path, lineno, id=str(doc_id), units=tuple(cue.text for cue in cues), references=references,
                         times=tuple(times), meta=meta)


def _canonical_keys(record: dict[str, Any], fail: Fail) -> dict[str, Any]:
    """The record with :data:`KEY_ALIASES` renamed to the keys they stand for."""
    if not any(alias in record for alias in KEY_ALIASES):
        return record
    for alias, key in KEY_ALIASES.items():
        if alias in record and key in record:
            raise fail(f"expected {key!r} or {alias!r} (the same key under two names); received both")
    return {KEY_ALIASES.get(key, key): value for key, value in record.items()}


class _RepeatedKey(ValueError):
    """A key given twice in one JSON object, which :mod:`json` would read as its last value."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``; a repeated key is an error, not the first value lost silently."""
    record: dict[str, Any] = {}
    for key, value in pairs:
        if key in record:
            raise _RepeatedKey(
                f"key {key!r} appears twice in one object; expected each key once (JSON would keep "
                f"only the last value and lose the first)"
            )
        record[key] = value
    return record


def _load(line: str, fail: Fail) -> dict[str, Any]:
    try:
        record = json.loads(line, object_pairs_hook=_unique_keys)
    except _RepeatedKey as exc:
        raise fail(str(exc)) from None
    except RecursionError:
        raise fail(TOO_DEEP) from None
    except json.JSONDecodeError as exc:
        hint = ""
        if line.strip() in ("[", "{"):
            hint = (" (pretty-printed JSON starts here, but the file's first line is a whole object, "
                    "so the file is read as JSON lines: one object per line)")
        raise fail(f"invalid JSON at column {exc.colno}: {exc.msg}{hint}") from None
    if not isinstance(record, dict):
        raise fail(not_an_object(record))
    return record


def not_an_object(value: Any) -> str:
    """Why ``value``, a line of a JSON lines file or an item of a JSON array, is no document; for
    integers (``[3, 7]``: a segmentation, not a corpus), where numbers of a segmentation go.

    >>> not_an_object([3, 7])[:66]
    "expected a JSON object with 'units' (and optionally 'id', 'referen"
    >>> "Segmentation.from_masses" in not_an_object(3)
    True
    """
    said = (f"expected a JSON object with 'units' (and optionally 'id', 'references', 'times'); received "
            f"{type(value).__name__} {_short_repr(value)}")
    numbers = value if isinstance(value, list) else [value]
    if numbers and all(_is_int(v) for v in numbers):
        said += (" (bare numbers could be boundaries or segment sizes, so they are not read: a document's "
                 "boundaries go in 'boundaries' or 'references', its segment sizes in 'segments'; stability score "
                 "reads {\"boundaries\": [3, 7], \"n_units\": 10}; in Python, Segmentation.from_boundaries or "
                 "Segmentation.from_masses)")
    return said


def _timed_objects(key: str, items: list) -> str:
    """Why the objects ``items`` under ``key`` (a speech-to-text service's utterances) are not read as units."""
    first = next(item for item in items if isinstance(item, dict) and "text" in item)
    return (f"expected {key!r} as a list of strings, a unit each; received objects with 'text' ({_short_repr(first)}), "
            f"as a speech-to-text service writes its {key}: export the transcript as WebVTT or SRT captions (read "
            f"with their times and speakers), or Whisper's JSON ('segments'), or give {key!r} as strings")


#: Why an object whose ``text`` is one string (a document's whole text, or a transcript without its
#: segments: OpenAI's ``response_format="json"``, or word timestamps only) is not read.
_NO_SEGMENTS = (
    "expected 'units', a list of strings (a unit each), or a transcript's 'segments' (its units and their "
    "times); received 'text' alone, one string, which has no units to segment: give a document's units "
    "as 'units', or save its text as a .txt file to read it as plain text (sentence units); from OpenAI's "
    "transcription API (response_format='json', or word timestamps only) ask for "
    "response_format='verbose_json' with segment timestamps, or write Whisper's --output_format json"
)


def _check_keys(record: dict[str, Any], where: str, notes: list[str], fail: Fail) -> None:
    """Refuse near-misses of ``units``/``times``; warn about keys that look like a reference."""
    for key in record:
        if key in _MISSPELLINGS:
            raise fail(f"unknown key {key!r}: did you mean {_MISSPELLINGS[key]!r}? expected keys {', '.join(_KEYS)}")
    given = [key for key in record if key in REFERENCE_KEYS]
    if len(given) > 1:
        raise fail(f"expected references in one key; received {', '.join(map(repr, given))}")
    for key, value in record.items():
        if key in _KEYS or not isinstance(value, list):  # a reference is a list; ids, titles... are not
            continue
        lowered = key.lower()
        close = difflib.get_close_matches(lowered, list(REFERENCE_KEYS), n=1, cutoff=0.75)
        if lowered not in _REFERENCE_LOOKALIKES and not close:
            continue
        hint = f"did you mean {close[0]!r}? " if close else ""
        note(notes, where, f"key {key!r} looks like a reference but is not read as one (kept in meta); "
             f"{hint}references are read from {reference_keys_said()}")


def _references(record: dict[str, Any], n_units: int, fail: Fail) -> tuple[Segmentation | list, ...]:
    """The references of one record, from whichever reference key it has."""
    key = next((k for k in REFERENCE_KEYS if k in record), None)
    if key is None:
        return ()
    value, kind = record[key], REFERENCE_KEYS[key]
    nested = isinstance(value, list) and all(isinstance(v, list) for v in value)
    if not isinstance(value, list) or (key == "references" and not nested):
        _, item, example = REFERENCE_KINDS[kind]
        raise fail(
            f"{key!r} must be a list of {item} lists, one per annotator "
            f"(e.g. [{example}]); received {_short_repr(value)}"
        )
    lists = value if nested and (value or key == "references") else [value]
    return tuple(_reference(key, j, kind, numbers, n_units, fail) for j, numbers in enumerate(lists))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _reference(key: str, j: int, kind: str, numbers: list, n_units: int, fail: Fail) -> Segmentation | list:
    name = f"{key}[{j}]"
    if kind == "labels":
        try:
            labelled = read_labels(numbers, name)
        except InvalidSegmentationError as exc:
            raise fail(str(exc)) from None
        if labelled.n_units != n_units:
            raise fail(f"{name} must hold one label per unit of the document's {n_units} units; received "
                       f"{counted(len(numbers), 'label')}")
        return labelled
    if not all(_is_int(v) for v in numbers):
        raise fail(f"{name} must be a list of integer {kind}; received {_short_repr(numbers)}")
    if kind == "boundaries":
        return numbers  # checked by Document against the number of units
    if not numbers or any(v < 1 for v in numbers) or sum(numbers) != n_units:
        raise fail(
            f"{name} must be segment sizes (integers >= 1) summing to the document's {n_units} units; "
            f"received {_short_repr(numbers)}" + (f" (sum {sum(numbers)})" if numbers else "")
        )
    return Segmentation.from_masses(numbers, name)


def _check_text(text: str, name: str, fail: Fail) -> None:
    """Refuse a string holding a lone surrogate (:func:`stability.checks.lone_surrogate`), which a
    JSON escape (``"\\ud83d"``) can give but no text can be written with."""
    problem = lone_surrogate(text)
    if problem is not None:
        raise fail(f"{name} must be text; {problem}")


def _finite_number(value: Any) -> bool:
    """Whether ``value`` is a time JSON can give: a number (not a boolean) that a float holds finite
    (an integer of hundreds of digits, which JSON allows, does not fit one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int beyond float64
        return False


def _times(times: Any, fail: Fail) -> list | None:
    if times is None:
        return None
    if not isinstance(times, list):
        raise fail(f"'times' must be a list of [start, end] pairs; received {_short_repr(times)}")
    for k, pair in enumerate(times):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(_finite_number(t) for t in pair)
        ):
            raise fail(f"times[{k}] must be a [start, end] pair of finite numbers; received {_short_repr(pair)}")
        if pair[1] < pair[0]:
            raise fail(f"times[{k}] must have start <= end; received {_short_repr(pair)}")
    return times


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
        for doc in checked_documents(documents):
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
