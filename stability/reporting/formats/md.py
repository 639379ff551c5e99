"""GitHub-flavoured Markdown."""

from __future__ import annotations

from ..model import Report, markdown_table, md_text

NAME = "md"
EXTENSION = "md"
ORDER = 1
DETAILS = True
DESCRIPTION = "Markdown tables"


def _inline(text: str) -> str:
    """Text inside ``*`` or ``**``: raw HTML shown as text (:func:`md_text`), and its own asterisks
    escaped, so that one (``docs/validation*.md``) does not end the emphasis early.

    >>> print(_inline("see validation*.md <b>"))
    see validation\\*.md &lt;b>
    """
    return md_text(text).replace("*", "\\*")


def render(report: Report, *, details: bool = True) -> str:
    """The result line in bold, then one ``###`` heading per table, the table, then its notes in italics."""
    out = [f"**{_inline(report.result)}**\n"] if report.result else []
    for section in report.tables(details):
        out += [f"### {_inline(section.title)}\n",
                markdown_table(section.header, section.rows, section.alignment()), ""]
        for note in [section.legend_line(), *section.notes]:
            out += [f"*{_inline(note)}*", ""] if note else []
    return "\n".join(out)
