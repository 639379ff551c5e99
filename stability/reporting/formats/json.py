"""JSON: the complete result (the command's payload), else the tables."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from functools import lru_cache
from json.encoder import encode_basestring_ascii
from typing import Any

from ...bulk import collector_paused
from ..model import Report

NAME = "json"
EXTENSION = "json"
ORDER = 3
DESCRIPTION = "the complete result, machine-readable"


def render(report: Report, *, details: bool = False) -> str:
    """The report's payload as strict JSON (no NaN), ending with a line end as the other formats
    (a file of it is a text file); a report without one gives its tables."""
    with collector_paused():  # millions of small objects, none in a cycle (see stability.bulk)
        data = report.json_payload()
        if data is None:
            data = {"title": report.title,
                    "sections": [{"title": s.title, "header": list(s.header), "rows": [list(r) for r in s.rows],
                                  **({"footer": [list(r) for r in s.footer]} if s.footer else {}),
                                  **({"row_groups": [[t, n] for t, n in s.row_groups]} if s.row_groups else {}),
                                  "notes": list(s.notes)} for s in report.tables(True)]}
        return indented(data, end="\n")


#: What the file holds: JSON with an indent of 1, ASCII, keys in their order, no NaN.
_ENCODER = json.JSONEncoder(indent=1, sort_keys=False, allow_nan=False)


class _Unusual(Exception):
    """A value :func:`indented` leaves to :data:`_ENCODER`: a non-finite float, a type JSON has
    no form for."""


def _finite(x: float) -> str:
    if not math.isfinite(x):
        raise _Unusual
    return float.__repr__(x)


def _plain_of(kind: type) -> Callable[[Any], str] | None:
    """How :data:`_ENCODER` writes a value of type ``kind`` that is no container (``None`` for a
    container or a type it has no form for), in the order it tries them."""
    if issubclass(kind, str):
        return encode_basestring_ascii
    if kind is type(None):
        return lambda _: "null"
    if kind is bool:
        return lambda flag: "true" if flag else "false"
    if issubclass(kind, int):
        return int.__repr__
    if issubclass(kind, float):
        return _finite
    return None


#: :func:`_plain_of`, found once per type.
_plain: Callable[[type], Callable[[Any], str] | None] = lru_cache(maxsize=None)(_plain_of)


def indented(data: Any, end: str = "") -> str:
    """``data`` as :data:`_ENCODER` writes it, byte for byte, then ``end``. With an indent it is Python's
    pure-Python encoder (the C one has none), a generator per container that each piece passes
    through: some 6 million pieces for the report of 10,000 documents. Here (:func:`_write`) a
    dict is written a line at a time and a list of numbers or strings in one piece. Anything else
    (a NaN, a key that is not a string, a type JSON has no form for, a cycle) is left to the
    encoder: its text or its error."""
    # written as they come, the pieces take about the text's size (a list of every piece, as
    # json.dumps joins, took 110 MB for the 15 MB report of 4,000 documents); ``end`` is written
    # too, where adding it to the text would copy the text
    text = io.StringIO()
    try:
        _write(data, 0, text.write)
    except (_Unusual, TypeError, RecursionError):
        text = io.StringIO()
        for piece in _ENCODER.iterencode(data):
            text.write(piece)
    text.write(end)
    return text.getvalue()


def _write(value: Any, depth: int, write: Callable[[str], Any]) -> None:
    """``value``, at ``depth``, given to ``write`` as :data:`_ENCODER` writes it, or
    :class:`_Unusual` (or a ``TypeError``) where :func:`indented` leaves it to the encoder."""
    plain = _plain(type(value))
    if plain is not None:
        write(plain(value))
        return
    inner = "\n" + " " * (depth + 1)
    if isinstance(value, (list, tuple)):
        if not value:
            write("[]")
            return
        writers = set(map(_plain, set(map(type, value))))
        each = writers.pop() if len(writers) == 1 else None
        if each is not None:  # numbers or strings, written alike: one piece
            write("[" + inner + ("," + inner).join(map(each, value)) + inner[:-1] + "]")
            return
        for i, item in enumerate(value):
            write(("," if i else "[") + inner)
            _write(item, depth + 1, write)
        write(inner[:-1] + "]")
    elif isinstance(value, dict):
        if not value:
            write("{}")
            return
        separator, comma = "{" + inner, "," + inner
        for key, item in value.items():
            plain = _plain(type(item))
            line = separator + encode_basestring_ascii(key) + ": "  # a TypeError if not a string
            if plain is not None:
                write(line + plain(item))
            else:
                write(line)
                _write(item, depth + 1, write)
            separator = comma
        write(inner[:-1] + "}")
    else:
        raise _Unusual
