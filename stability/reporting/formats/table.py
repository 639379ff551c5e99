"""Terminal tables, as rich renders them, sized to the terminal.

Each table gets the width of the terminal (rich's own detection: the ``COLUMNS`` variable, else the
terminal's size, else 80) or an explicit ``width``. A table never wraps a row nor truncates a
number: when its cells do not fit, the columns its section allows to drop (``drop_order``) are left
out, most dispensable first, and a note names them. With ``color`` (the CLI sets it when stdout
is a terminal) the result line is bold and the words a section highlights (flags) are coloured;
piped output has no escape codes.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence

from ..model import Report, Section

NAME = "table"
EXTENSION = "txt"
ORDER = 0
COMPACT = True
DESCRIPTION = "tables for a terminal"


def _widths(section: Section) -> list[int]:
    """Each column's width: its widest cell, or its header's longest word (headers wrap at spaces)."""
    widths = []
    for i, name in enumerate(section.header):
        cells = [len(line) for row in section.rows for line in str(row[i]).splitlines()] or [0]
        widths.append(max(max(cells), max((len(w) for w in str(name).split()), default=0)))
    return widths


def table_width(widths: Sequence[int]) -> int:
    """Characters a rich table with these column widths takes (one space of padding a side, borders)."""
    return sum(widths) + 3 * len(widths) + 1


def fit(section: Section, width: int) -> tuple[list[int], list[str]]:
    """The columns kept at ``width`` and the titles of those left out."""
    widths = _widths(section)
    kept = list(range(len(section.header)))
    dropped = []
    for i in section.drop_order:
        if table_width([widths[k] for k in kept]) <= width:
            break
        kept.remove(i)
        dropped.append(str(section.header[i]))
    return kept, dropped


def _cell(value: object, section: Section):  # -> rich.text.Text: labels, ids and errors are not markup
    from rich.text import Text

    text = str(value)
    if not section.highlight or not any(word in text for word in section.highlight):
        return Text(text)
    styled = Text(text)
    for word, style in section.highlight.items():
        styled.highlight_words([word], style=style)
    return styled


def _table(section: Section, width: int):  # -> rich.table.Table, kept titles, dropped titles
    from rich.table import Table
    from rich.text import Text

    kept, dropped = fit(section, width)
    dropped = [str(h) for h in section.header if str(h) in dropped]
    widths, letters = _widths(section), section.alignment()
    table = Table(title=Text(section.title), title_justify="left")
    for i in kept:
        header = textwrap.fill(str(section.header[i]), widths[i], break_long_words=False)
        table.add_column(Text(header), justify="left" if letters[i] in "lL" else "right", no_wrap=letters[i] in "R")
    for row in section.rows:
        table.add_row(*(_cell(row[i], section) for i in kept))
    return table, [str(section.header[i]) for i in kept], dropped


def render(report: Report, *, details: bool = False, width: int | None = None, color: bool = False) -> str:
    """The result line, then the report's tables and their notes, for a terminal ``width`` wide
    (``color``: with ANSI styles)."""
    from rich.console import Console

    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=color,
                      color_system="standard" if color else None)
    if report.result:
        console.print(report.result, highlight=False, markup=False, style="bold" if color else None)
        console.print()
    for section in report.tables(details):
        table, kept, dropped = _table(section, console.width)
        console.print(table)
        for note in [section.legend_line(kept), *section.notes]:
            if note:
                console.print(note, highlight=False, markup=False)
        if dropped:
            console.print(f"Left out for width {console.width}: {', '.join(dropped)} (wider terminal, --width, "
                          "or another report format).", highlight=False, markup=False)
    return console.export_text(styles=color)
