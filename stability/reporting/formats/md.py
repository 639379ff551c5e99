"""GitHub-flavoured Markdown."""

from __future__ import annotations

import re

from ..model import Report, markdown_table, md_text

NAME = "md"
EXTENSION = "md"
ALIASES = ("markdown",)
ORDER = 1
DETAILS = True
DESCRIPTION = "Markdown tables"


#: What would start emphasis or code in a cell: an asterisk, a backtick, an underscore at the edge
#: of a word (``texttiling_nltk`` stays as it is: an underscore inside a word starts nothing).
_MARKUP = re.compile(r"[*`]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")


def _plain(cell: object) -> str:
    """A cell of ours (a label, a document id, a number), or a note or title naming them, shown as
    written: its Markdown markup escaped, so that a document ``a *c* _d_`` is not set in italics
    and a note's asterisk (``docs/validation*.md``) does not end its emphasis early.

    >>> _plain("a *c* _d_ texttiling_nltk `x`")
    'a \\\\*c\\\\* \\\\_d\\\\_ texttiling_nltk \\\\`x\\\\`'
    """
    return _MARKUP.sub(lambda match: "\\" + match.group(0), str(cell))


def render(report: Report, *, details: bool = True) -> str:
    """The result line in bold, then one ``###`` heading per table, the table (a group's title, of
    :attr:`~stability.reporting.model.Section.row_groups`, in bold on a row of its own above the
    group's rows), then its notes in italics."""
    out = [f"**{_plain(md_text(report.result))}**\n"] if report.result else []  # its labels, as in the cells
    for section in report.tables(details):
        rows = []
        for title, grouped in section.grouped():
            rows += [[f"**{_plain(title)}**", *[""] * (len(section.header) - 1)]] if title else []
            rows += [[cell if i in section.markup else _plain(cell) for i, cell in enumerate(row)] for row in grouped]
        # a footer row (a mean over the rows) after them, its label in bold: never read as a row's label
        rows += [[f"**{_plain(cell)}**" if i < section.keys else _plain(cell) for i, cell in enumerate(row)]
                 for row in section.footer]
        out += [f"### {_plain(md_text(section.title))}\n", markdown_table(section.header, rows, section.alignment(), section.markup), ""]
        for note in [section.legend_line(), *section.notes]:
            out += [f"*{_plain(md_text(note))}*", ""] if note else []
    return "\n".join(out)
