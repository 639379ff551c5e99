"""CSV of the main table with raw numbers (or of the per-item table with ``details``)."""

from __future__ import annotations

import csv
import io

from ...exceptions import InvalidParameterError
from ..model import Report

NAME = "csv"
EXTENSION = "csv"
ORDER = 2
DESCRIPTION = "one table with raw numbers"
#: One table a file: the per-document table goes to its own file in an output directory.
SEPARATE_DETAILS = True


def render(report: Report, *, details: bool = False) -> str:
    """The first table (the first per-item one with ``details``), full-precision values when the
    section carries them."""
    tables = [s for s in report.tables(True) if s.detail == details] or report.tables(True)
    if not tables:
        raise InvalidParameterError(f"the report {report.title!r} has no table to write as CSV")
    header, rows = tables[0].data or (tables[0].header, tables[0].rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
