"""Terminal tables, as rich renders them."""

from __future__ import annotations

import io

from ..model import Report

NAME = "table"
EXTENSION = "txt"
ORDER = 0
COMPACT = True
DESCRIPTION = "tables for a terminal"


def render(report: Report, *, details: bool = False, width: int | None = None) -> str:
    """The report's tables (and their notes) for a terminal of ``width`` columns (default 160)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(record=True, width=width or 160, file=io.StringIO(), force_terminal=False, color_system=None)
    for section in report.tables(details):
        table = Table(title=section.title, show_lines=False, title_justify="left")
        for name, letter in zip(section.header, section.alignment()):
            table.add_column(name, justify="left" if letter in "lL" else "right", no_wrap=letter.isupper())
        for row in section.rows:
            table.add_row(*row)
        console.print(table)
        for note in section.notes:
            console.print(note)
    return console.export_text()
