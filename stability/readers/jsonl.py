"""JSON lines: one document per line, ``{"id", "units", "references", "times", "meta"}``.

References may be given as boundary lists (``references``, ``boundaries``) or as segment sizes
(``segments``, ``masses``); a key that looks like a reference but is none of these is kept in
``meta`` with a :class:`~stability.readers.CorpusWarning` naming the key and ``file:line``.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Callable

from ..corpus import Document
from ..exceptions import CorpusFormatError, _short_repr
from ..segmentation import Segmentation
from .common import PathLike, checked_documents, make_document, note, open_source, stream_files

__all__ = ["read_jsonl", "write_jsonl", "REFERENCE_KEYS"]

PATTERNS = ("*.jsonl", "*.json")

#: Keys holding references, and what their numbers are: boundaries or segment sizes.
REFERENCE_KEYS: dict[str, str] = {
    "references": "boundaries",
    "boundaries": "boundaries",
    "segments": "sizes",
    "masses": "sizes",
}
_SINGULAR = {"boundaries": "boundary", "sizes": "size"}
_KEYS = ("id", "units", "times", "meta") + tuple(REFERENCE_KEYS)
#: Near-misses of the unit and time keys: errors, since the document cannot be read without them.
_MISSPELLINGS = {"sentences": "units", "unit": "units", "text": "units", "time": "times", "timestamps": "times"}
#: Keys that look like a reference but are not read as one: a warning, the value stays in meta.
_REFERENCE_LOOKALIKES = frozenset(
    "reference refs ref gold gold_standard goldstandard ground_truth groundtruth truth labels label "
    "segmentation segmentations segment segs seg sizes lengths segment_sizes segment_lengths boundary "
    "breaks borders cuts topics topic annotation annotations".split()
)
_EXPECTED_REFERENCES = (
    "'references' or 'boundaries' (boundary lists) or 'segments' or 'masses' (segment sizes)"
)

Fail = Callable[[str], CorpusFormatError]


def read_jsonl(
    path: PathLike,
    *,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read JSON lines: one document per line, ``{"id", "units", "references", "times"}``.

    ``units`` (a list of strings) is required. References are optional and come from one of:

    * ``references``: a list of boundary lists, one per annotator (boundary ``b`` starts a
      segment at unit ``b``, ``1 <= b <= n-1``);
    * ``boundaries``: the same, or a single flat boundary list for one annotator;
    * ``segments`` or ``masses``: segment sizes (``[4, 6, 6]``: 16 units in three segments), a
      flat list for one annotator or a list of lists; the sizes must sum to the number of units.

    ``times`` is a list of ``[start, end]`` pairs of finite numbers with ``start <= end``, one per
    unit, ``meta`` an object. ``id`` may be a string or an integer (turned into a string); when it
    is missing the id is the 1-based line number, prefixed by ``<relative file>:`` when a
    directory is read. Other keys are kept in ``meta``. Near-misses of ``units`` and ``times``
    (``sentences``, ``text``, ``time``...) are errors; a key that looks like a reference (a list
    under a name such as ``reference``, ``labels``, ``gold``, ``segmentation``, ``sizes``,
    ``boundary``, or close to a reference key) is kept in ``meta`` with a note and a :class:`CorpusWarning` naming the key and ``file:line``, so that a
    reference is never lost silently. Blank lines are skipped.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`); ``pattern``
        defaults to ``"*.jsonl"`` and ``"*.json"`` here.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "corpus.jsonl"
    >>> _ = file.write_text('{"id": "a", "units": ["x", "y", "z"], "references": [[1], [2]]}\\n'
    ...                     '{"id": "b", "units": ["x", "y", "z"], "segments": [1, 2]}\\n')
    >>> [[r.boundaries for r in doc.references] for doc in read_jsonl(file)]
    [[(1,), (2,)], [(1,)]]
    """
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )

    def parse_file(relative: str, file: Path) -> Iterator[Document]:
        prefix = "" if source.single else f"{relative}:"
        for lineno, line in enumerate(source.lines(file), 1):
            if line.strip():
                yield _parse_line(file, lineno, line, prefix)

    return stream_files(source, parse_file)


def _parse_line(path: Path, lineno: int, line: str, prefix: str) -> Document:
    def fail(message: str) -> CorpusFormatError:
        return CorpusFormatError(message, path=str(path), line=lineno)

    record = _load(line, fail)
    notes: list[str] = []
    _check_keys(record, f"{path}:{lineno}", notes, fail)
    doc_id = record.get("id", f"{prefix}{lineno}")
    if isinstance(doc_id, bool) or not isinstance(doc_id, (str, int)):
        raise fail(f"'id' must be a string or an integer; received {_short_repr(doc_id)}")
    doc_id = str(doc_id)
    units = record.get("units")
    if units is None:
        raise fail(f"document {doc_id!r}: expected a 'units' list of strings; the key is missing")
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise fail(f"document {doc_id!r}: 'units' must be a list of strings; received {_short_repr(units)}")
    fail_doc = lambda message: fail(f"document {doc_id!r}: {message}")  # noqa: E731
    references = _references(record, len(units), fail_doc)
    times = _times(record.get("times"), fail_doc)
    meta = record.get("meta", {})
    if not isinstance(meta, dict):
        raise fail_doc(f"'meta' must be an object; received {_short_repr(meta)}")
    meta = {**meta, **{k: v for k, v in record.items() if k not in _KEYS}}
    meta.update({"format": "jsonl", "source": str(path), "line": lineno})
    meta["notes"] = list(meta.get("notes", [])) + notes
    return make_document(
        path, lineno, id=doc_id, units=tuple(units), references=references, times=times, meta=meta
    )


def _load(line: str, fail: Fail) -> dict[str, Any]:
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
    return record


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
             f"{hint}references are read from {_EXPECTED_REFERENCES}")


def _references(record: dict[str, Any], n_units: int, fail: Fail) -> tuple[Segmentation | list, ...]:
    """The references of one record, from whichever reference key it has."""
    key = next((k for k in REFERENCE_KEYS if k in record), None)
    if key is None:
        return ()
    value, kind = record[key], REFERENCE_KEYS[key]
    nested = isinstance(value, list) and all(isinstance(v, list) for v in value)
    if not isinstance(value, list) or (key == "references" and not nested):
        example = "[[3, 7]]" if kind == "boundaries" else "[[4, 6, 6]]"
        raise fail(
            f"{key!r} must be a list of {_SINGULAR[kind]} lists, one per annotator "
            f"(e.g. {example}); received {_short_repr(value)}"
        )
    lists = value if nested and (value or key == "references") else [value]
    return tuple(_reference(key, j, kind, numbers, n_units, fail) for j, numbers in enumerate(lists))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _reference(key: str, j: int, kind: str, numbers: list, n_units: int, fail: Fail) -> Segmentation | list:
    name = f"{key}[{j}]"
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


def _times(times: Any, fail: Fail) -> list | None:
    if times is None:
        return None
    if not isinstance(times, list):
        raise fail(f"'times' must be a list of [start, end] pairs; received {_short_repr(times)}")
    for k, pair in enumerate(times):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(t, (int, float)) and not isinstance(t, bool) for t in pair)
            or not all(math.isfinite(t) for t in pair)
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
