"""GitHub-flavoured Markdown."""

from __future__ import annotations

from ..model import Report, markdown_table

NAME = "md"
EXTENSION = "md"
ORDER = 1
DETAILS = True
DESCRIPTION = "Markdown tables"


def render(report: Report, *, details: bool = True) -> str:
    """One ``###`` heading per table, the table, then its notes in italics."""
    out = []
    for section in report.tables(details):
        out += [f"### {section.title}\n", markdown_table(section.header, section.rows, section.alignment()), ""]
        for note in section.notes:
            out += [f"*{note}*", ""]
    return "\n".join(out)
