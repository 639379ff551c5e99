"""JSON: the complete result (the command's payload), else the tables."""

from __future__ import annotations

import io
import json

from ..model import Report

NAME = "json"
EXTENSION = "json"
ORDER = 3
DESCRIPTION = "the complete result, machine-readable"


def render(report: Report, *, details: bool = False) -> str:
    """The report's payload as strict JSON (no NaN), ending with a line end as the other formats
    (a file of it is a text file); a report without one gives its tables."""
    data = report.json_payload()
    if data is None:
        data = {"title": report.title,
                "sections": [{"title": s.title, "header": list(s.header), "rows": [list(r) for r in s.rows],
                              **({"footer": [list(r) for r in s.footer]} if s.footer else {}),
                              **({"row_groups": [[t, n] for t, n in s.row_groups]} if s.row_groups else {}),
                              "notes": list(s.notes)} for s in report.tables(True)]}
    # json.dumps with an indent joins a list of every piece (a few bytes each, some 50 bytes of
    # list and object apiece: 110 MB for the 15 MB report of 4,000 documents); written as they
    # come, the same text takes about its own size
    text = io.StringIO()
    for piece in json.JSONEncoder(indent=1, sort_keys=False, allow_nan=False).iterencode(data):
        text.write(piece)
    text.write("\n")
    return text.getvalue()
