"""GitHub-flavoured Markdown."""

from __future__ import annotations

from ..model import Report, markdown_table, md_text

NAME = "md"
EXTENSION = "md"
ORDER = 1
DETAILS = True
DESCRIPTION = "Markdown tables"


def render(report: Report, *, details: bool = True) -> str:
    """The result line in bold, then one ``###`` heading per table, the table, then its notes in italics."""
    out = [f"**{md_text(report.result)}**\n"] if report.result else []  # raw HTML shown as text
    for section in report.tables(details):
        out += [f"### {md_text(section.title)}\n",
                markdown_table(section.header, section.rows, section.alignment()), ""]
        for note in [section.legend_line(), *section.notes]:
            out += [f"*{md_text(note)}*", ""] if note else []
    return "\n".join(out)
