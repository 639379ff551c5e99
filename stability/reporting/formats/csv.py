"""CSV of the main table with raw numbers (or of the per-item table with ``details``)."""

from __future__ import annotations

import csv
import io
import re

from ...exceptions import InvalidParameterError
from ..model import Report

NAME = "csv"
EXTENSION = "csv"
ORDER = 2
DESCRIPTION = "one table with raw numbers"
#: One table a file: the per-document table goes to its own file in an output directory.
SEPARATE_DETAILS = True


#: Text starting with ``-`` that holds no formula a spreadsheet could run (no call, reference to
#: another sheet or operator): a dash placeholder and command-line flags (``--restarts``), written
#: as they are rather than with a ``'`` that a program reading the file would keep.
PLAIN = re.compile(r"-|--[A-Za-z][A-Za-z0-9_-]*")


def cell(value: object) -> object:
    """A cell that a spreadsheet will not run: text starting with ``=``, ``+``, ``-``, ``@``, a tab
    or a carriage return (a formula) gets a leading ``'``; numbers and :data:`PLAIN` text are kept.

    >>> cell("=HYPERLINK(1)"), cell("-2+3"), cell("-0.25"), cell("c99"), cell("-"), cell("--restarts")
    ("'=HYPERLINK(1)", "'-2+3", '-0.25', 'c99', '-', '--restarts')
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") and not PLAIN.fullmatch(value):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


def render(report: Report, *, details: bool = False) -> str:
    """The report's one-table form when it has one, else its first table (the first per-item one
    with ``details``), full-precision values when the section carries them."""
    if report.data is not None and not details:
        return _write(*report.data)
    tables = [s for s in report.tables(True) if s.detail == details] or report.tables(True)
    if not tables:
        raise InvalidParameterError(f"the report {report.title!r} has no table to write as CSV")
    return _write(*(tables[0].data or (tables[0].header, tables[0].rows)))


def _write(header, rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([cell(c) for c in header])
    writer.writerows([cell(c) for c in row] for row in rows)
    return buffer.getvalue()
