"""GitHub-flavoured Markdown."""

from __future__ import annotations

from html import escape

from ..model import Report, markdown_table

NAME = "md"
EXTENSION = "md"
ORDER = 1
DETAILS = True
DESCRIPTION = "Markdown tables"


def render(report: Report, *, details: bool = True) -> str:
    """The result line in bold, then one ``###`` heading per table, the table, then its notes in italics."""
    out = [f"**{escape(report.result, quote=False)}**\n"] if report.result else []  # raw HTML shown as text
    for section in report.tables(details):
        out += [f"### {escape(section.title, quote=False)}\n",
                markdown_table(section.header, section.rows, section.alignment()), ""]
        for note in [section.legend_line(), *section.notes]:
            out += [f"*{escape(note, quote=False)}*", ""] if note else []
    return "\n".join(out)
