"""Reference metrics on existing segmentations, with no segmenter involved (``stability score``).

Segmentations are read from files, paired by document id, and scored with
:func:`stability.metrics.compute_all` (plus :func:`~stability.metrics.multi_reference_metrics`
when a document has several references).

A segmentation file is either

* bare segmentations, one JSON object per line (``.jsonl``) or a JSON array of them (``.json``):
  ``{"id": ..., "boundaries": [...], "n_units": N}``, ``{"id": ..., "masses": [...]}`` or
  ``{"id": ..., "labels": [...]}`` (one segment label per unit), under the keys the corpus reader
  takes references from (:data:`stability.readers.jsonl.REFERENCE_KEYS`; several annotators:
  ``"references": [[...], ...]`` with ``n_units``, or a list of lists); boundaries may also be
  nltk / segeval boundary strings, ``{"id": ..., "boundaries": "00100010"}`` (a character per gap
  between units, so ``n_units`` is their length + 1), or
* a table of them (``.csv``, ``.tsv``), a document a row, its columns named as those keys
  (``id,boundaries,n_units`` and ``a,"3 7",10``: :func:`_table_records`), or
* a segeval dataset (``{"segmentation_type": "linear", "items": {item: {coder: [masses]}}}``, the
  JSON file ``segeval.data.jsonutils`` writes and reads): an item is a document, its coders'
  masses its segmentations (several: the annotators of a reference), or
* any corpus :func:`stability.readers.read_corpus` reads (Choi files, JSON lines with units, CSV
  label columns...), whose reference segmentations are used.

A hypothesis may also give the chunk texts of a pipeline, ``{"id": ..., "chunks": [...]}``
(:data:`CHUNKS_KEY`), when its reference is such a corpus: each chunk start is placed on the
document's units as :class:`segmenters.chunkers.ChunkerSegmenter` places a chunker's.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import unicodedata
import re
import sys
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from .checks import counted, did_you_mean, first_few
from .exceptions import CorpusFormatError, InvalidParameterError, InvalidTypeError, StabilityError, _short_repr
from .readers.common import NoTextError, naming_document
from .readers.jsonl import KEY_ALIASES, REFERENCE_KEYS, document_id, is_document, read_labels, reference_keys_said
from .readers.delimited import _DOCUMENT_COLUMNS
from .readers.dispatch import STDIN, STDIN_NAME
from .segmentation import Segmentation

__all__ = ["read_segmentations", "score_files", "score_segmentations", "add_references", "ScoreResult",
           "window_from_text"]


def window_from_text(text: str, name: str = "k") -> int | str:
    """The window ``k`` of the window metrics as a command line types it: a window policy's name
    (:data:`stability.metrics.WINDOW_POLICIES`) or an integer (written as Python's ``int`` reads
    it, as the command line's other integers are); anything else is refused, naming ``name``. The
    metrics check the integer's range against each document.

    Examples
    --------
    >>> window_from_text("3"), window_from_text("nltk"), window_from_text("-1")
    (3, 'nltk', -1)
    >>> window_from_text("3.0")
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: k must be an integer >= 1 or one of 'lamprier', 'nltk', 'segeval'; received '3.0'
    """
    from .metrics._common import check_window

    if not isinstance(text, str):
        raise InvalidTypeError.make(name, "a string (an integer or a window policy)", text)
    try:
        return int(text)
    except ValueError:
        pass
    if re.fullmatch(r"\s*[+-]?\d+\s*", text):  # more digits than int() reads: far beyond any document
        expected = (f"an integer of at most {sys.get_int_max_str_digits()} digits" if hasattr(
            sys, "get_int_max_str_digits") else "a smaller integer")
        raise InvalidParameterError.make(name, expected, text)
    return check_window(text, name)  # a convention's name, or refused as the metrics refuse it


#: The key of a hypothesis given as chunk texts (a RAG pipeline's chunks of a document, in order;
#: whitespace may differ from the source and chunks may overlap): they are placed on the units of
#: the reference's document, as :class:`segmenters.chunkers.ChunkerSegmenter` places a chunker's.
CHUNKS_KEY = "chunks"
#: The keys under which a pipeline's export gives one chunk's text a record (LangChain's
#: ``page_content``): such a file is a chunk a line, which is gathered a document a line.
_CHUNK_TEXT_KEYS = ("text", "page_content", "content", "chunk", "chunk_text")
#: What a bare segmentation holds, as errors say it: the corpus reader's reference keys
#: (REFERENCE_KEYS), boundary lists with the number of units, or a hypothesis's chunk texts.
_SEGMENTATION_KEYS = reference_keys_said("'n_units'") + f" or {CHUNKS_KEY!r} (chunk texts, against a corpus)"
#: The kinds of REFERENCE_KEYS that carry the number of units, the segmentation of one annotator's
#: list, and the verb that says how many units it gives.
_COUNTED: dict[str, tuple[Any, str]] = {"sizes": (Segmentation.from_masses, "add up to"),
                                        "labels": (read_labels, "label")}


@dataclass(frozen=True)
class _Entry:
    """A document's segmentations as read, and where they were read from (``source``:
    ``file:line``, a file, or the argument of :func:`score_segmentations`), for errors to name;
    ``read``: its units are a corpus reader's, which its options decide (cues or sentences)."""

    id: str
    segmentations: tuple[Segmentation, ...]
    times: Any = None
    source: str = ""
    read: bool = False
    coders: tuple[str, ...] = ()
    #: The units of a document a corpus reader read (the references' units, on which the chunk
    #: texts of a hypothesis are placed), and a hypothesis's chunk texts, before they are placed.
    units: tuple[str, ...] | None = None
    chunks: tuple[str, ...] | None = None
    #: False: a record without an id (:data:`_ID_KEYS`), named by its line.
    named: bool = True


def _place(doc: Any, fallback: str) -> str:
    """Where a corpus reader read ``doc`` (``file:line``, or the file), else ``fallback``."""
    source, line = doc.meta.get("source"), doc.meta.get("line")
    if not source:
        return fallback
    return f"{source}:{line}" if line is not None else str(source)


def _file_records(path: Path, encoding: str, errors: str) -> Generator[tuple[int, str, Any], None, None]:
    """``(line, default id, object)`` of a JSON file read as the corpus reader reads it: JSON lines, or an
    array of objects (pretty-printed or not), in the same encoding (a UTF-8 byte-order mark
    skipped)."""
    from .readers.common import check_encoding, iter_lines
    from .readers.jsonl import _records

    yield from _records(path, iter_lines(path, check_encoding(encoding, errors), errors))


def _bare_records(path: Path, encoding: str = "utf-8", errors: str = "strict") -> Iterator[tuple[int, str, Any]] | None:
    """The records of a file of bare segmentations (JSON lines or a JSON array of objects
    without units), or None when the file is something else (a corpus, which the corpus
    reader reads and, if it is broken, reports)."""
    if not path.is_file():
        return None
    if path.suffix.lower() not in (".jsonl", ".json", ".ndjson"):
        from .readers.common import check_encoding
        from .readers.jsonl import sniff_json

        try:  # JSON lines named otherwise (no extension, .txt): told by their content, as on standard input
            if sniff_json(path, check_encoding(encoding, errors), errors) is None:
                return None
        except (OSError, UnicodeDecodeError):
            return None  # the corpus reader says what is wrong with the file
    records = _file_records(path, encoding, errors)
    try:
        first = next(records)
    except NoTextError as exc:  # no object at all: neither a corpus nor segmentations, nothing to score
        raise _nothing_to_score(exc) from None
    except (StopIteration, CorpusFormatError, UnicodeDecodeError):
        records.close()
        return None  # the corpus reader says what is wrong with the file
    if not isinstance(first[2], dict) or is_document(first[2]):
        records.close()
        return None
    return itertools.chain([first], records)


#: The extensions of a table of segmentations, and the delimiter of each.
_TABLE_DELIMITERS = {".csv": ",", ".tsv": "\t"}


def _table_records(path: Path, encoding: str = "utf-8", errors: str = "strict") -> Iterator[tuple[int, str, Any]] | None:
    """The records of a CSV / TSV of segmentations, a document a row: a column named as a key of
    :data:`REFERENCE_KEYS` but ``labels`` (``boundaries``, ``masses``...), with ``id`` (or a document column) and
    ``n_units`` beside it, each row read as the JSON object of its cells (``{"id": "d1",
    "boundaries": [3, 7], "n_units": 10}``); None when the table has a text column or no such column
    (a corpus, which the corpus reader reads). A cell holds a JSON list (``[3, 7]``), numbers apart
    (``3 7``, ``3;7``, ``3,7`` quoted), an nltk gap string (``001000100``) or nothing (no boundary)."""
    import csv

    from .readers.common import check_encoding, iter_lines
    from .readers.delimited import _TEXT_COLUMNS, _is_label_column
    from .readers.jsonl import _REFERENCE_LOOKALIKES

    delimiter = _TABLE_DELIMITERS.get(path.suffix.lower())
    if delimiter is None or not path.is_file():
        return None
    try:
        rows = csv.reader(iter_lines(path, check_encoding(encoding, errors), errors, raw=True), delimiter=delimiter)
        header = [cell.strip() for cell in next(rows, [])]
    except (CorpusFormatError, csv.Error):
        return None  # the corpus reader says what is wrong with the file
    names = {cell.lower(): cell for cell in header}
    # the keys of boundary lists and segment sizes: 'labels' names a corpus's label column too
    columns = [key for key in REFERENCE_KEYS if not _is_label_column(key)]
    if any(name in names for name in _TEXT_COLUMNS):
        return None
    if not any(key in names for key in columns):
        # a column named as a boundary list would be, not a corpus's label column (a text column misnamed)
        if alike := [cell for cell in header if cell.lower() in _REFERENCE_LOOKALIKES and not _is_label_column(cell)]:
            raise CorpusFormatError(
                f"a table without a text column is read as segmentations, a document a row, under a column named "
                f"{' or '.join(map(repr, columns))} (with 'id' and 'n_units'); received the columns {_short_repr(header)}, "
                f"whose {alike[0]!r} is none of these (a boundary a row: put each document's on one row, "
                '"3 7" or [3, 7])', path=str(path), line=1)
        return None

    def cell(column: str, text: str, number: int, n_units: str) -> Any:
        text = text.strip()
        if column == "id":
            return text
        if not text:
            return []
        # a gap string (read by _gap_strings), unless the row's n_units says it is a number (11 of 20 units)
        if (re.fullmatch(r"[01]+", text) and column in ("boundaries", "references") and len(text) > 1
                and not (n_units.strip().isdigit() and int(n_units) != len(text) + 1)):
            return text
        try:
            value = json.loads(text)
        except ValueError:
            parts = re.split(r"[\s;,|]+", text)
            if not all(re.fullmatch(r"[+-]?\d+", part) for part in parts):
                raise CorpusFormatError(f"column {column!r}: expected a list of integers ([3, 7], or 3 7); received "
                                        f"{_short_repr(text)}", path=str(path), line=number) from None
            value = [int(part) for part in parts]
        return [value] if column != "n_units" and isinstance(value, int) else value  # one boundary

    ids = next((names[name] for name in _ID_KEYS if name in names), None)
    keys = {names[key]: key for key in (*columns, "n_units") if key in names}
    if ids is not None:
        keys[ids] = "id"

    def records() -> Iterator[tuple[int, str, Any]]:
        found = False
        for number, row in enumerate(rows, 2):
            if not any(value.strip() for value in row):
                continue
            found = True
            values = dict(zip(header, row))
            n_units = next((values.get(column, "") for column, key in keys.items() if key == "n_units"), "")
            yield number, str(number), {key: cell(key, values.get(column, ""), number, n_units)
                                        for column, key in keys.items()}
        if not found:  # said as an empty JSON file is, not as documents that do not pair up
            raise NoTextError(f"the file holds no segmentation: its header ({', '.join(header)}) has no row under it",
                              path=str(path))

    return records()


def _nothing_to_score(exc: CorpusFormatError) -> NoTextError:
    """The error of a JSON file (or standard input) holding no object: an empty array, or
    nothing; the corpus reader's would ask for a document with 'units', which scoring does not need."""
    holder = "standard input" if exc.path == STDIN_NAME else "the file"
    return NoTextError(f"{holder} holds no segmentation: expected at least one JSON object holding {_SEGMENTATION_KEYS} "
                       "(or a document with its units and references)", path=exc.path, line=exc.line)


def _keys_received(record: Mapping[str, Any]) -> str:
    """The keys of a segmentation read in none of :data:`REFERENCE_KEYS`, and the one a key
    misspells (``'boundary'``: did you mean ``'boundaries'``?): what an error shows of it.

    >>> _keys_received({"id": "a", "boundary": [3], "n_units": 10})
    "received the keys 'id', 'boundary', 'n_units'; did you mean 'boundaries'?"
    """
    hints = (did_you_mean(key, [*REFERENCE_KEYS, CHUNKS_KEY]) for key in record if key not in ("id", "n_units"))
    return f"received the keys {', '.join(repr(key) for key in record) or 'none'}{next(filter(None, hints), '')}"


#: The keys of segeval's dataset file (``segeval.data.jsonutils``, what ``input_linear_mass_json``
#: reads): ``{"segmentation_type": "linear", "items": {item: {coder: [masses]}}}``, an item a
#: document and each coder's masses one segmentation of it.
SEGEVAL_KEYS = ("items", "segmentation_type")


def is_segeval_dataset(record: Any) -> bool:
    """Whether a JSON object is a segeval dataset (:data:`SEGEVAL_KEYS`) rather than one document's
    segmentation."""
    return isinstance(record, dict) and "items" in record and "segmentation_type" in record


def _segeval_entries(path: Path, number: int, dataset: Mapping[str, Any]) -> Iterator[_Entry]:
    """The documents of a segeval dataset: an item each, its coders' masses its segmentations in
    the file's order (several: several annotators of a reference, as ``"masses": [[...], ...]``)."""
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(message, path=str(path), line=number)

    if dataset["segmentation_type"] != "linear":
        raise fail(f"a segeval dataset's 'segmentation_type' must be 'linear' (segmentations of a text into segments); "
                   f"received {_short_repr(dataset['segmentation_type'])}")
    items = dataset["items"]
    if not isinstance(items, dict) or not items:
        raise fail(f"a segeval dataset's 'items' must be an object item -> {{coder: [masses]}} of at least one item; "
                   f"received {_short_repr(items)}")
    for item, coders in items.items():
        if not isinstance(coders, dict) or not coders:
            raise fail(f"item {item!r} of the segeval dataset: expected an object coder -> [masses] of at least one "
                       f"coder; received {_short_repr(coders)}")
        try:
            segs = tuple(Segmentation.from_masses(masses) for masses in coders.values())
        except StabilityError as exc:
            raise fail(f"item {item!r} of the segeval dataset: {exc}") from None
        sizes = {coder: seg.n_units for coder, seg in zip(coders, segs)}
        if len(set(sizes.values())) > 1:
            raise fail(f"item {item!r} of the segeval dataset: its coders' masses add up to different numbers of "
                       f"units ({', '.join(f'{coder!r}: {n}' for coder, n in sizes.items())}); expected segmentations "
                       "of the same text")
        yield _Entry(str(item), segs, source=f"{path}:{number}", coders=tuple(map(str, coders)))


def _coder_chosen(hypotheses: Mapping[str, _Entry], references: Mapping[str, _Entry],
                  coder: str) -> tuple[dict[str, _Entry], dict[str, _Entry]]:
    """The hypotheses reduced to ``coder``'s segmentation of each item (segeval datasets), and the
    references without it, where they have it too (the same dataset given as both: a coder is
    not scored against itself)."""
    def chosen(entry: _Entry, keep: bool) -> _Entry:
        picked = [(name, seg) for name, seg in zip(entry.coders, entry.segmentations) if (name == coder) == keep]
        return replace(entry, segmentations=tuple(seg for _, seg in picked),
                       coders=tuple(name for name, _ in picked))

    hyps = {}
    for key, entry in hypotheses.items():
        if not entry.coders:
            raise InvalidParameterError(f"document {entry.id!r} ({entry.source}): a coder ({coder!r}) is chosen in a "
                                        "segeval dataset, and this hypothesis is not read from one; leave the coder "
                                        "out, or give the hypotheses as a segeval dataset")
        if coder not in entry.coders:
            raise InvalidParameterError(f"item {entry.id!r} ({entry.source}) has no coder {coder!r}; its coders: "
                                        f"{', '.join(map(repr, entry.coders))}")
        hyps[key] = chosen(entry, True)
    refs = {}
    for key, entry in references.items():
        refs[key] = chosen(entry, False) if coder in entry.coders else entry
        if not refs[key].segmentations:
            raise InvalidParameterError(f"item {entry.id!r} ({entry.source}): its only reference is coder {coder!r}, "
                                        "the hypothesis; a coder is not scored against itself")
    return hyps, refs


#: The keys naming a segmentation's document: ``id``, else one of the corpus reader's names for it
#: (``dial_id``, a CSV's document columns: ``doc_id``...), as tools export them.
_ID_KEYS = ("id", *(alias for alias, name in KEY_ALIASES.items() if name == "id"), *_DOCUMENT_COLUMNS)


def _has_id(record: Mapping[str, Any]) -> bool:
    return any(key in record for key in _ID_KEYS)


def _record_id(record: Mapping[str, Any], place: str, path: Path, number: int) -> str:
    """The document id of a record of segmentations: under the first of :data:`_ID_KEYS` it
    holds, else ``place`` (its line). ``{"doc_id": "d1", ...}`` was paired as document ``'1'``."""
    key = next((key for key in _ID_KEYS if key in record), None)
    fail = functools.partial(CorpusFormatError, path=str(path), line=number)
    if key is None:
        return place
    if key == "id":
        return document_id(record[key], fail)
    return document_id(record[key], lambda message: fail(message.replace("'id'", repr(key), 1)))


def _chunks_entry(path: Path, number: int, place: str, record: Mapping[str, Any]) -> _Entry:
    """A hypothesis of chunk texts (:data:`CHUNKS_KEY`), placed later on its reference's units."""
    doc_id = _record_id(record, place, path, number)
    if others := [key for key in REFERENCE_KEYS if key in record]:
        raise CorpusFormatError(f"document {doc_id!r}: expected its segmentation in one key; received "
                                f"{CHUNKS_KEY!r} and {others[0]!r}", path=str(path), line=number)
    chunks = record[CHUNKS_KEY]
    if not isinstance(chunks, list) or not all(isinstance(chunk, str) for chunk in chunks):
        raise CorpusFormatError(f"document {doc_id!r}: expected {CHUNKS_KEY!r} to be a list of the chunk texts "
                                f"(strings); received {_short_repr(chunks)}", path=str(path), line=number)
    return _Entry(doc_id, (), source=f"{path}:{number}", chunks=tuple(chunks), named=_has_id(record))


def _placed_chunks(hypotheses: Mapping[str, _Entry], references: Mapping[str, _Entry]) -> dict[str, _Entry]:
    """The hypotheses with chunk texts turned into boundaries between the units of their
    reference's document: each chunk's start snapped to the nearer end of the unit it falls in
    (:class:`segmenters.chunkers.ChunkerSegmenter`'s rule, one rule for a chunker run by the
    harness and for chunks exported from a pipeline)."""
    from segmenters.chunkers import ChunkerSegmenter

    placed = dict(hypotheses)
    for key, entry in hypotheses.items():
        if entry.chunks is None or key not in references:  # unpaired ids: _score names them all
            continue
        ref = references[key]
        if ref.units is None:
            raise InvalidParameterError(
                f"document {entry.id!r}: the hypothesis gives chunk texts ({entry.source}), which are placed on the "
                f"units of the reference's document, and the reference ({ref.source}) has no units: give as reference "
                "the corpus whose documents were chunked (with its units and references)")
        chunks = entry.chunks
        try:
            boundaries = ChunkerSegmenter(lambda text: chunks).segment(ref.units)
        except StabilityError as exc:
            raise InvalidParameterError(f"document {entry.id!r} ({entry.source}): {exc}") from None
        placed[key] = replace(entry, segmentations=(Segmentation(boundaries, len(ref.units)),), chunks=None)
    return placed


def _parse_bare(path: Path, records: Iterable[tuple[int, str, Any]]) -> Iterator[_Entry]:
    for number, place, record in records:
        if is_segeval_dataset(record):
            yield from _segeval_entries(path, number, record)
            continue
        if CHUNKS_KEY in record:
            yield _chunks_entry(path, number, place, record)
            continue
        doc_id = _record_id(record, place, path, number)
        # the keys the corpus reader reads references from (REFERENCE_KEYS): boundary lists, or segment sizes
        keys = [key for key in REFERENCE_KEYS if key in record]
        if len(keys) > 1:
            raise CorpusFormatError(f"document {doc_id!r}: expected its segmentation in one key; received "
                                    f"{' and '.join(repr(key) for key in keys)}", path=str(path), line=number)
        try:
            segs: tuple[Segmentation, ...]
            if keys and REFERENCE_KEYS[keys[0]] in _COUNTED:  # segment sizes or labels: they give n_units
                key, value = keys[0], record[keys[0]]
                read, verb = _COUNTED[REFERENCE_KEYS[key]]
                # one list, or one per annotator, as the corpus reader takes them
                nested = isinstance(value, list) and bool(value) and all(isinstance(v, list) for v in value)
                segs = tuple(read(v, f"{key}[{j}]" if nested else key) for j, v in enumerate(value if nested else [value]))
                if len({seg.n_units for seg in segs}) > 1:
                    raise CorpusFormatError(
                        f"document {doc_id!r}: the lists of {key!r} {verb} different numbers of units "
                        f"({', '.join(str(seg.n_units) for seg in segs)}); expected one per annotator of the same "
                        "document", path=str(path), line=number,
                    )
                if "n_units" in record and record["n_units"] != segs[0].n_units:
                    raise CorpusFormatError(
                        f"document {doc_id!r}: {key!r} {verb} {segs[0].n_units} units, but 'n_units' is "
                        f"{_short_repr(record['n_units'])}; expected them to agree (or no 'n_units')",
                        path=str(path), line=number,
                    )
            elif keys:
                lists = [record["boundaries"]] if "boundaries" in record else record["references"]
                if "references" in record and (not isinstance(lists, list) or not lists):
                    raise CorpusFormatError(
                        f"document {doc_id!r}: expected 'references' to be a non-empty list of boundary lists; "
                        f"received {_short_repr(lists)}", path=str(path), line=number,
                    )
                if any(isinstance(b, str) for b in lists):  # nltk / segeval gap strings: they give n_units
                    segs = _gap_strings(doc_id, keys[0], lists, record.get("n_units"), str(path), number)
                elif "n_units" not in record:
                    raise CorpusFormatError(f"{keys[0]!r} needs 'n_units' (the number of units)", path=str(path),
                                            line=number)
                else:
                    segs = tuple(Segmentation(b, record["n_units"]) for b in lists)
            else:
                if text := next((key for key in _CHUNK_TEXT_KEYS if isinstance(record.get(key), str)), None):
                    raise CorpusFormatError(
                        f"document {doc_id!r}: this record holds one text ({text!r}), as a pipeline exports a chunk "
                        f"a line; chunks are read a document a line, {{\"id\": {json.dumps(doc_id)}, "
                        f"\"{CHUNKS_KEY}\": [\"first chunk\", \"second chunk\", ...]}} in the document's order: "
                        "gather each document's chunks into one record", path=str(path), line=number)
                raise CorpusFormatError(f"expected {_SEGMENTATION_KEYS}; {_keys_received(record)}", path=str(path),
                                        line=number)
        except CorpusFormatError:
            raise
        except StabilityError as exc:
            raise CorpusFormatError(naming_document(doc_id, exc), path=str(path), line=number) from None
        yield _Entry(doc_id, segs, record.get("times"), f"{path}:{number}", named=_has_id(record))


def _gap_strings(doc_id: str, key: str, lists: Sequence[Any], n_units: Any, path: str,
                 number: int) -> tuple[Segmentation, ...]:
    """Boundaries given as nltk / segeval boundary strings (``"00100010"``: a character per gap
    between units, ``1`` where a segment starts, so ``n - 1`` characters for ``n`` units), read by
    :meth:`Segmentation.from_gaps`; ``n_units``, when given, must agree with their length (a string
    of a character per unit, one too many, is refused rather than read a unit off)."""
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(f"document {doc_id!r}: {message}", path=path, line=number)

    nested = key != "boundaries"
    names = [f"{key}[{j}]" if nested else key for j in range(len(lists))]
    if not all(isinstance(b, str) for b in lists):
        raise fail(f"expected the segmentations of {key!r} all as boundary lists or all as gap strings; received "
                   f"{_short_repr(lists)}")
    segs = tuple(Segmentation.from_gaps(b, name=name) for b, name in zip(lists, names))
    lengths = {len(b) for b in lists}
    if len(lengths) > 1:
        raise fail(f"the gap strings of {key!r} have different lengths ({', '.join(str(len(b)) for b in lists)}); "
                   "expected one per annotator of the same document")
    if n_units is not None and n_units != segs[0].n_units:
        raise fail(f"{names[0]!r} is a gap string of {counted(segs[0].n_units - 1, 'character')}, a character per gap "
                   f"between units, so {counted(segs[0].n_units, 'unit')}, but 'n_units' is {_short_repr(n_units)}; "
                   "expected them to agree (or no 'n_units')" + (
                       " (a string of a character per unit, as nltk is sometimes given, is one too long: drop its "
                       "last character)" if n_units == segs[0].n_units - 1 else ""))
    return segs


def _stdin_records(encoding: str, errors: str) -> Iterator[tuple[int, str, Any]]:
    """Bare segmentations piped on standard input: JSON lines or a JSON array (a corpus, whose
    format is told by its files, is given as a file)."""
    from .readers.common import check_encoding
    from .readers.jsonl import _records

    stream = getattr(sys.stdin, "buffer", None)
    try:
        text = stream.read().decode(check_encoding(encoding, errors), errors) if stream else sys.stdin.read()
    except UnicodeDecodeError as exc:
        raise CorpusFormatError(f"not {encoding} text ({exc.reason} at byte {exc.start})", path=STDIN_NAME) from None
    records = _records(Path(STDIN_NAME), iter(text.splitlines()))
    try:
        first = next(records)
    except NoTextError as exc:
        raise _nothing_to_score(exc) from None
    for number, place, record in itertools.chain([first], records):
        if not isinstance(record, dict) or is_document(record):
            raise CorpusFormatError(f"standard input takes segmentations ({_SEGMENTATION_KEYS}), not a corpus: give "
                                    "the corpus as a file", path=STDIN_NAME, line=number)
        yield number, place, record


def _refuse_bare_in_folder(folder: Path, encoding: str, errors: str) -> None:
    """A folder is read as a corpus, whose documents hold their units: one whose first JSON file
    holds bare segmentations (``boundaries`` / ``masses`` without units) is refused naming that
    file, which is to be given itself (the corpus reader would ask for the units it does not
    need). Only the first file is looked at, so that a corpus folder is not read twice."""
    from .readers.jsonl import PATTERNS

    first = min((f for pattern in PATTERNS for f in folder.rglob(pattern)), default=None)
    try:
        bare = first is not None and _bare_records(first, encoding, errors) is not None
    except NoTextError:  # an empty file: the corpus reader leaves it out of the folder's corpus, with a warning
        return
    if bare:
        raise CorpusFormatError(
            f"a folder is read as a corpus (documents with their units), and {first} holds bare segmentations "
            "(without units): give that file itself, with the segmentations of every document in it",
            path=str(folder))


def read_segmentations(path: str | os.PathLike, **reader_options: Any) -> Iterator[_Entry]:
    """Segmentations in a file, or piped on standard input when ``path`` is ``"-"``, by document
    id (see the module docstring for the formats)."""
    if str(path) == STDIN:
        options = reader_options.get("encoding", "utf-8"), reader_options.get("encoding_errors", "strict")
        yield from _parse_bare(Path(STDIN_NAME), _stdin_records(*options))
        return
    path = Path(path)
    records = _bare_records(
        path, reader_options.get("encoding", "utf-8"), reader_options.get("encoding_errors", "strict")
    )
    if records is None and reader_options.get("text_column") is None:  # a text column named: a corpus
        records = _table_records(
            path, reader_options.get("encoding", "utf-8"), reader_options.get("encoding_errors", "strict"))
    if records is not None:
        yield from _parse_bare(path, records)
        return
    from .readers import read_corpus

    if path.is_dir():
        _refuse_bare_in_folder(path, reader_options.get("encoding", "utf-8"),
                               reader_options.get("encoding_errors", "strict"))
    for doc in read_corpus(path, **reader_options):
        if not doc.references:
            raise CorpusFormatError(f"document {doc.id!r} has no segmentation to score", path=str(path))
        yield _Entry(doc.id, doc.references, doc.times, _place(doc, str(path)), read=True, units=tuple(doc.units))


def _id_key(doc_id: str) -> str:
    """The form in which document ids are paired: composed Unicode (NFC). A file named on macOS
    holds its accents decomposed (NFD), the same id typed elsewhere composed: ``élève.txt`` did not
    pair with ``élève.txt``, and the message showed the two alike."""
    return unicodedata.normalize("NFC", doc_id)


def _by_id(entries: Iterable[_Entry], path: str | os.PathLike) -> dict[str, _Entry]:
    """Entries by document id (:func:`_id_key`); an id given twice is an error naming the repeated ids."""
    found: dict[str, _Entry] = {}
    repeated: list[str] = []
    for entry in entries:
        key = _id_key(entry.id)
        if key in found and entry.id not in repeated:
            repeated.append(entry.id)
        found[key] = entry
    if repeated:
        raise CorpusFormatError(f"document ids must be unique; repeated: {', '.join(map(repr, repeated[:10]))}"
                                + (f" and {len(repeated) - 10} more" if len(repeated) > 10 else ""), path=str(path))
    return found


@dataclass(frozen=True)
class ScoreResult:
    """Metrics per document (paired by id) and their mean and standard deviation; ``window`` is
    the window asked for (``None``: the default, Lamprier et al.'s eq. 5; a policy name; an int),
    ``tolerance`` the boundary-matching tolerance of precision, recall and F1 (0: exact)."""

    documents: dict[str, dict[str, float]]
    mean: dict[str, float] = field(default_factory=dict)
    std: dict[str, float] = field(default_factory=dict)
    window: Any = None
    tolerance: int = 0
    #: The files the segmentations were read from, ``{"reference": path, "hypothesis": path}``
    #: (:func:`score_files`; empty for segmentations held in Python): reports name them, so that
    #: the reports of two systems scored against the same references tell which is which.
    sources: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        """The number of documents, the window and the means of the compact metrics (those of
        the terminal table), never every document's metrics."""
        from .reporting.corpus import selected_measures

        means = ", ".join(f"{m.name} {self.mean[m.name]:.3f}" for m in selected_measures(set(self.mean), compact=True))
        return f"ScoreResult({counted(len(self.documents), 'document')}, window {self._window_name()}; mean: {means})"

    def _window_name(self) -> Any:
        return "lamprier" if self.window is None else self.window

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict a document, ``{"document": id, column: value, ...}`` (for
        ``pandas.DataFrame(result.to_rows())``), each metric under its column in the CSV reports
        (:meth:`~stability.catalogue.Measure.column`: ``ref_pk``, as a run's per-document rows name it);
        the mean and std are :attr:`mean` and :attr:`std`, by metric name.

        >>> from stability import Segmentation
        >>> score_segmentations({"d1": Segmentation([3, 7], 10)}, {"d1": Segmentation([3, 8], 10)}).to_rows()[0]["ref_f1"]
        0.5
        """
        from .catalogue import reference_measure

        return [{"document": doc_id, **{reference_measure(k).column(): v for k, v in values.items()}}
                for doc_id, values in self.documents.items()]

    def _repr_html_(self) -> str:
        """The report, as a notebook shows it (:func:`stability.reporting.notebook_html`)."""
        from .reporting import notebook_html

        return notebook_html(self)

    def to_dict(self) -> dict[str, Any]:
        """Strict JSON: NaN (not computed) and infinities (NWin / TNWin when their expectation is
        0, see :func:`~stability.metrics.nwin`) become None, as in the run reports."""
        def clean(d: dict[str, float]) -> dict[str, float | None]:
            return {k: (v if np.isfinite(v) else None) for k, v in d.items()}

        return {"mean": clean(self.mean), "std": clean(self.std),
                "documents": {k: clean(v) for k, v in self.documents.items()},
                "window": self._window_name(), "tolerance": self.tolerance, **self.sources}


def score_files(
    reference: str | os.PathLike,
    hypothesis: str | os.PathLike,
    *,
    k: Any = None,
    tolerance: int = 0,
    gamma: float = 0.85,
    window_limit: int = 3,
    coder: str | None = None,
    **reader_options: Any,
) -> ScoreResult:
    """Score every hypothesis segmentation against the reference(s) of the same document id.

    Every hypothesis must have a reference (an error names the missing ids); references without
    a hypothesis are an error too, so a partial file is never scored silently. Either path (not
    both) may be ``"-"``: segmentations piped on standard input. Segmentations held in Python
    are scored by :func:`score_segmentations`. ``coder``: the coder whose segmentations are the
    hypotheses, in a hypothesis file that is a segeval dataset of several coders; it is left out
    of the references too when they have it (the same dataset given as both scores that coder
    against the others).
    """
    if str(reference) == str(hypothesis) == STDIN:
        raise InvalidParameterError("reference and hypothesis cannot both be read from standard input ('-'): "
                                    "give one of them as a file")
    references = _by_id(read_segmentations(reference, **reader_options), reference)
    hypotheses = _by_id(read_segmentations(hypothesis, **reader_options), hypothesis)
    if coder is not None:
        hypotheses, references = _coder_chosen(hypotheses, references, str(coder))
    hypotheses = _placed_chunks(hypotheses, references)
    result = _score(references, hypotheses, k=k, tolerance=tolerance, gamma=gamma, window_limit=window_limit)
    named = {"reference": reference, "hypothesis": hypothesis}
    return replace(result, sources={key: STDIN_NAME if str(path) == STDIN else str(path) for key, path in named.items()})


def _reference_entries(references: Any) -> dict[str, _Entry]:
    """:func:`score_segmentations`'s references by document id."""
    from .segmentation import as_segmentation

    if isinstance(references, Mapping):
        by_id: dict[str, _Entry] = {}
        for doc_id, value in references.items():
            name = f"references[{doc_id!r}]"
            many = isinstance(value, Sequence) and bool(value) and all(isinstance(v, Segmentation) for v in value)
            segs = (tuple(as_segmentation(v, f"{name}[{i}]") for i, v in enumerate(value)) if many
                    else (as_segmentation(value, name),))
            by_id[str(doc_id)] = _Entry(str(doc_id), segs, source=name)
        return by_id
    from .corpus import Document

    if isinstance(references, (str, bytes)) or not isinstance(references, Iterable):
        raise InvalidTypeError.make("references", "a mapping document id -> Segmentation (or a sequence of them, one "
                                    "per annotator), or Documents with references", references)
    entries = []
    for i, doc in enumerate(references):
        if not isinstance(doc, Document):
            raise InvalidTypeError.make(f"references[{i}]", "a Document (or give a mapping document id -> Segmentation)", doc)
        if not doc.references:
            raise InvalidParameterError(f"document {doc.id!r} has no reference segmentation to score against")
        entries.append(_Entry(doc.id, doc.references, doc.times, _place(doc, f"references[{i}]"), units=doc.units))
    return _by_id(entries, "references")


def score_segmentations(
    references: Any,
    hypotheses: Mapping[str, Segmentation],
    *,
    k: Any = None,
    tolerance: int = 0,
    gamma: float = 0.85,
    window_limit: int = 3,
) -> ScoreResult:
    """:func:`score_files` for segmentations held in Python (a notebook's): every hypothesis
    against the reference(s) of the same document id, with the same checks and metrics.

    Parameters
    ----------
    references : mapping or iterable of Document
        Document id -> :class:`~stability.Segmentation`, or a sequence of them (one per annotator:
        the multi-reference metrics are added); or :class:`~stability.Document` objects, whose
        references and unit times are used.
    hypotheses : mapping
        Document id -> :class:`~stability.Segmentation` (one per document), or the document's
        chunk texts from a pipeline (a list of strings, when ``references`` are Documents: each
        chunk start is placed on the document's units, as ``stability score`` places a file's
        ``"chunks"``).
    k, tolerance, gamma, window_limit
        As for :func:`stability.metrics.compute_all` (``k``: the window of Pk and WindowDiff,
        ``None`` for the default of Lamprier et al., ``"nltk"``, ``"segeval"`` or an int) and
        :func:`~stability.metrics.multi_reference_metrics`.

    Returns
    -------
    ScoreResult
        The result ``stability score`` renders (:func:`stability.reporting.render`).

    Raises
    ------
    InvalidParameterError
        When ``hypotheses`` holds no document (as :func:`stability.evaluate` refuses an empty
        corpus and ``stability score`` an empty file), or the documents do not pair up by id.

    Examples
    --------
    >>> from stability import Segmentation
    >>> result = score_segmentations({"d1": Segmentation([3, 7], 10)}, {"d1": Segmentation([3, 8], 10)})
    >>> result.documents["d1"]["f1"], result.documents["d1"]["f1_1"]
    (0.5, 1.0)
    """

    if not isinstance(hypotheses, Mapping):
        raise InvalidTypeError.make("hypotheses", "a mapping document id -> Segmentation", hypotheses)
    if not hypotheses:  # a score of nothing is a mistake (an empty dict, a filter that kept none), not a result
        raise InvalidParameterError.make("hypotheses", "a mapping document id -> Segmentation of at least one "
                                         "document", hypotheses)
    hyps = {_id_key(str(doc_id)): _hypothesis_entry(str(doc_id), value) for doc_id, value in hypotheses.items()}
    refs = _reference_entries(references)
    return _score(refs, _placed_chunks(hyps, refs), k=k, tolerance=tolerance, gamma=gamma, window_limit=window_limit)


def _hypothesis_entry(doc_id: str, value: Any) -> _Entry:
    """A hypothesis of :func:`score_segmentations`: a segmentation, or the chunk texts of a
    pipeline (a list of strings), placed on the units of its reference's document."""
    from .segmentation import as_segmentation

    name = f"hypotheses[{doc_id!r}]"
    if isinstance(value, (list, tuple)) and value and all(isinstance(chunk, str) for chunk in value):
        return _Entry(doc_id, (), source=name, chunks=tuple(value))
    return _Entry(doc_id, (as_segmentation(value, name),), source=name)


def _score(references: Mapping[str, _Entry], hypotheses: Mapping[str, _Entry], *, k: Any, tolerance: int,
           gamma: float, window_limit: int) -> ScoreResult:
    """The metrics of every hypothesis against its references, paired by id."""
    from .checks import check_int, check_real
    from .metrics._common import check_window
    from .outcome import reference_values

    # the options every document takes alike, refused as themselves (not while scoring the first
    # document, whose id the error would then name); a window too wide for a document names it below
    check_window(k)
    check_int(tolerance, "tolerance", low=0)
    check_real(gamma, "gamma", low=0.0, high=1.0)
    check_int(window_limit, "window_limit", low=0)
    missing = sorted(hypotheses[key].id for key in set(hypotheses) - set(references))
    unmatched = sorted(references[key].id for key in set(references) - set(hypotheses))
    if missing or unmatched:
        def listed(ids: list[str], side: Mapping[str, _Entry]) -> str:  # the first five, and how many of how many
            return str(ids[:5]) + (f" and {len(ids) - 5} more, of {len(side)}" if len(ids) > 5 else "")

        parts = []
        if missing:
            parts.append(f"hypotheses without a reference: {listed(missing, hypotheses)}")
        if unmatched:
            parts.append(f"references without a hypothesis: {listed(unmatched, references)}")
        if not set(hypotheses) & set(references):  # every id differs: a naming, not a few documents missing
            parts.append("no document id is in both (ids pair when they are equal, as written: compare "
                         f"{hypotheses[next(iter(hypotheses))].id!r} and {references[next(iter(references))].id!r})")
        unnamed = [entry for side in (hypotheses, references) for key, entry in side.items()
                   if not entry.named and (key not in references or key not in hypotheses)]
        if unnamed:  # paired by their line: a file without ids, or ids under a key not read as one
            parts.append(f"the records of {unnamed[0].source.rpartition(':')[0]} have no id "
                         f"({' or '.join(map(repr, _ID_KEYS))}), so each is named by its line: give each its document's id")
        raise InvalidParameterError(f"documents must pair up by id; {'; '.join(parts)}")
    documents: dict[str, dict[str, float]] = {}
    options = {"k": k, "tolerance": tolerance, "gamma": gamma, "window_limit": window_limit}
    for key, hyp in hypotheses.items():
        ref, doc_id = references[key], hyp.id  # paired by their key, shown as the hypotheses name them
        if len(hyp.segmentations) > 1:
            raise InvalidParameterError(
                f"document {doc_id!r}: the hypothesis file gives {len(hyp.segmentations)} segmentations; score "
                "compares one hypothesis per document with its reference(s) " + (
                    f"(choose one of its coders, {', '.join(map(repr, hyp.coders))}: --coder in the command line)"
                    if hyp.coders else "(put each hypothesis in a file of its own)"))
        h = hyp.segmentations[0]
        if h.n_units != ref.segmentations[0].n_units:
            raise InvalidParameterError(
                f"document {doc_id!r}: the hypothesis covers {counted(h.n_units, 'unit')} ({hyp.source}), the "
                f"reference {counted(ref.segmentations[0].n_units, 'unit')} ({ref.source}); expected a hypothesis "
                "of the units its reference segments"
            )
        try:
            # the metrics a run records of a segmenter's boundaries (one composition of them)
            values = reference_values(ref.segmentations, ref.times, h, options, long_window="raise")
        except (InvalidParameterError, InvalidTypeError) as exc:  # a window too wide for this document
            raise type(exc)(f"{exc} (document {doc_id!r})", parameter=exc.parameter) from None
        documents[doc_id] = {key: float(v) for key, v in values.items()}
    keys = list(dict.fromkeys(k for d in documents.values() for k in d))
    mean, std = {}, {}
    for key in keys:
        x = np.array([d.get(key, np.nan) for d in documents.values()], dtype=float)
        x = x[~np.isnan(x)]
        mean[key] = float(x.mean()) if x.size else float("nan")
        with np.errstate(invalid="ignore"):  # an infinite NWin has no spread: NaN, without a warning
            std[key] = float(x.std(ddof=1)) if x.size > 1 else float("nan")  # no spread from one value
    return ScoreResult(documents, mean, std, window=k, tolerance=tolerance)


#: The settings key under which :func:`add_references` records where the references it added
#: came from (``source``: the path given, or ``"given to add_references"``) and how many documents of
#: the run they annotate (``documents``): the report says so, and its JSON carries it.
ADDED_REFERENCES = "added_references"


def _said(options: dict[str, Any]) -> str:
    """Reader options as a message names them: ``unit='sentence'``, or ``none`` (the defaults)."""
    return ", ".join(f"{key}={value!r}" for key, value in options.items()) or "none (the reader's defaults)"


def _reading(references: str | os.PathLike, settings: Mapping[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The options a references file or folder given after a run is read with: how the run read its
    corpus (its record's :data:`~stability.store.READER`), unless options ``given`` say otherwise.

    References that are the run's corpus itself (one of its recorded paths: chapters added beside a
    transcript since) take every recorded option, so they are read exactly as the run read them.
    Other files in a format the run read (given, else detected) take the recorded options but
    ``format`` and ``pattern``, which name the run's files; files in another format take none of
    them (a JSON lines file of documents does not take a transcript's ``unit``). A record
    written before it was kept, or a run of no file, gives ``given`` alone.

    Options given that agree with the run's reading add to it (an ``encoding`` it did not set).
    One that differs from the run's describes another reading, which the run's other options
    may not fit (its ``splitter`` cuts sentences, not the cues of ``unit="cue"``): the references
    are then read with ``given`` alone, and a warning says so, since the reference metrics then
    come from units read otherwise than the run's (a different count is refused)."""
    from .exceptions import warn
    from .store import READER, ResultsWarning

    given = {key: value for key, value in given.items() if value is not None}
    origin = settings.get("provenance")
    record = origin.get(READER) if isinstance(origin, Mapping) else None
    if not isinstance(record, Mapping) or not isinstance(record.get("options"), Mapping):
        return given
    recorded = dict(record["options"])
    if not any(_same_path(references, path) for path in record.get("paths") or []):
        recorded = _for_other_files(references, recorded, record.get("formats") or [], given)
    differ = [key for key, value in given.items() if key in recorded and recorded[key] != value]
    if differ:
        warn(f"the references are read with {_said(given)} as given, not as the run read its corpus "
             f"({_said(recorded)}, its record's {', '.join(f'{key}=' for key in differ)} differing): their "
             f"reference metrics are those of units read otherwise than the run's", ResultsWarning)
        return given
    return {**recorded, **given}


def _same_path(references: str | os.PathLike, recorded: Any) -> bool:
    """Whether ``references`` names the recorded corpus path ``recorded`` (standard input never does)."""
    if str(references) == STDIN or not isinstance(recorded, str) or recorded == STDIN:
        return False
    try:
        return Path(references).resolve() == Path(recorded).resolve()
    except OSError:  # a path that cannot be resolved is not the run's
        return False


def _for_other_files(references: str | os.PathLike, recorded: dict[str, Any], formats: Sequence[Any],
                     given: dict[str, Any]) -> dict[str, Any]:
    """The recorded options that apply to references other than the run's corpus files: all but
    ``format`` and ``pattern`` when they are in a format the run read (``formats``), else none."""
    from .readers.dispatch import _lookup, detect_format

    if str(references) == STDIN:  # bare segmentations, read whatever the options
        return {}
    text = {key: value for key in ("encoding", "encoding_errors") if (value := given.get(key, recorded.get(key))) is not None}
    try:
        read_in = _lookup(given["format"]).name if "format" in given else detect_format(references, **text)
    except (StabilityError, OSError):  # said by read_segmentations, which reads them next
        return {}
    # a folder of pages read each in its own format recorded the list of them
    read = {name for entry in formats for name in (entry if isinstance(entry, list) else [entry])}
    if read_in not in read:
        return {}
    return {key: value for key, value in recorded.items() if key not in ("format", "pattern")}


def add_references(result: Any, references: Any, **reader_options: Any) -> Any:
    """A run's result with references given after it ran: the reference metrics of every
    result whose document they cover, computed from the boundaries it placed (its restarts are
    untouched, nothing is segmented again), and the summaries recomputed, so that the report
    gives the reference columns and the rank agreement with the stability scores. The workflow of
    annotating a few documents after an unsupervised run, to check its ranking there.

    Parameters
    ----------
    result : CorpusResult
        The run (:func:`stability.evaluate`'s result, or :func:`stability.load_results` of a saved one).
    references : path, mapping or iterable of Document
        A file or folder as ``stability score -R`` reads it (segmentations, or a corpus with
        references; ``reader_options`` go to its reader), or what :func:`score_segmentations`
        takes: document id -> :class:`~stability.Segmentation` (or a sequence, one per annotator),
        or :class:`~stability.Document` objects. They replace the references the run had for the
        same documents; documents they do not name keep theirs. A corpus is read as the run
        read its own, when its record keeps it (a run of files by :func:`stability.run_experiment`
        or ``stability run``: a transcript the run cut into sentences is read in sentences), with
        ``reader_options`` replacing those options (a warning says where they differ); see
        :data:`stability.store.READER`. A record without it (a run of documents built in Python, a
        file written by an earlier version) is read with ``reader_options`` alone: give those the
        run read it with, or its units are others.

    Returns
    -------
    CorpusResult
        The same run with these reference metrics, computed with the run's metric options
        (``settings["metrics"]``; the defaults when the run computed none).

    Raises
    ------
    InvalidParameterError
        If no document of the run has a reference among them, or a reference covers another
        number of units than the run's document of that id.

    Warns
    -----
    ResultsWarning
        When the run's documents have unit times (transcripts) and their references carry none
        (bare segmentations): CovN and CovD are then weighted by units, not by duration. And when
        some of the references name no document of the run (a misspelt id): they are not used,
        and the warning names them.

    Examples
    --------
    >>> from stability import Segmentation, evaluate
    >>> run = evaluate({"even": "even"}, [["a"] * 12], n_restarts=3, progress=False)
    >>> run.documents["even"][0].segmentation.boundaries, run.documents["even"][0].reference_metrics
    ((10,), {})
    >>> labelled = add_references(run, {"0": Segmentation([5, 10], 12)})  # annotated afterwards
    >>> labelled.documents["even"][0].reference_metrics["precision"], labelled.summary["even"].reference["recall"].mean
    (1.0, 0.5)
    """
    from dataclasses import replace

    from .outcome import reference_values
    from .results import CorpusResult
    from .store import _corpus_result

    if not isinstance(result, CorpusResult):
        raise InvalidTypeError.make("result", "a CorpusResult (evaluate's result, or load_results of a saved run)", result)
    given = reader_options
    if isinstance(references, (str, os.PathLike)):
        reader_options = _reading(references, result.settings, reader_options)
        entries = _by_id(read_segmentations(references, **reader_options), references)
    else:
        entries = _reference_entries(references)
    options = result.settings.get("metrics") or {}
    # a corpus read with other options than the run's (cues, not sentences) has other units
    read = (f"; a corpus is read with the options given with it, over those the run's record keeps of its own "
            f"reading, here {_said(reader_options)}: give those the run read its corpus with, e.g. unit='sentence'")
    documents: dict[str, list[Any]] = {}
    found, untimed = set(), set()
    for label, rows in result.documents.items():
        documents[label] = []
        for r in rows:
            entry = entries.get(_id_key(str(r.document)))
            if entry is not None:
                found.add(entry.id)
                n_units = r.segmentation.n_units
                for j, segmentation in enumerate(entry.segmentations):  # every annotator's, not only the first
                    if segmentation.n_units != n_units:
                        which = "the reference" if len(entry.segmentations) == 1 else f"reference {j}"
                        raise InvalidParameterError(
                            f"document {r.document!r}: {which} covers {segmentation.n_units} units, "
                            f"the run's document {n_units}" + (f" (the reference read from {entry.source}"
                                                              f"{read if entry.read else ''})" if entry.source else ""))
                if entry.times is None and r.boundary_times is not None:
                    untimed.add(str(r.document))
                r = replace(r, references=tuple(s.boundaries for s in entry.segmentations),
                            reference_metrics=reference_values(entry.segmentations, entry.times, r.segmentation, options))
            documents[label].append(r)
    if untimed:
        from .exceptions import warn
        from .store import ResultsWarning

        shown = first_few(sorted(untimed))
        warn(f"the references of {len(untimed)} document(s) with unit times in the run ({shown}) carry no unit "
             "times: CovN and CovD are weighted by units, not by duration as a run given them would weigh "
             "them; give the corpus with its times (the transcripts and their chapters) as references instead",
             ResultsWarning)
    ids = sorted({str(r.document) for rows in result.documents.values() for r in rows})
    run_ids = first_few(ids)
    if not found:
        raise InvalidParameterError(
            f"none of the {len(entries)} document(s) with references is in the run (its documents: "
            f"{run_ids}); documents pair up by id")
    unused = sorted(entry.id for entry in entries.values() if entry.id not in found)
    if unused:  # a misspelt id would otherwise leave its document unannotated without a word
        from .exceptions import warn
        from .store import ResultsWarning

        shown = first_few(unused)
        names, used = ("reference names", "it was") if len(unused) == 1 else ("references name", "they were")
        warn(f"{len(unused)} {names} no document of the run ({shown}): {used} not used; documents pair up by "
             f"id (the run's documents: {run_ids})", ResultsWarning)
    source = str(references) if isinstance(references, (str, os.PathLike)) else "given to add_references"
    added = {"source": source, "documents": len(found)}
    # the options given: `stability report -R` without them reads as the run's record says
    options = {key: value for key, value in given.items() if isinstance(value, (str, int))}
    settings = {**result.settings, ADDED_REFERENCES: {**added, "options": options} if options else added}
    return _corpus_result(documents, list(result.failures), settings, Path("<the run given to add_references>"))
