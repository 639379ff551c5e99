"""Terminal tables, as rich renders them, sized to the terminal.

Each table gets the width of the terminal (rich's own detection: the ``COLUMNS`` variable, else the
terminal's size, else 80) or an explicit ``width``. A table never wraps a row nor truncates a
number: when its cells do not fit, long labels in the columns that name a row (a grid's
configurations, ``langchain_recursive,chunk_size=300,chunk_overlap=0``) are first folded at their
commas onto indented lines (:func:`folded`), then the columns its section allows to drop
(``drop_order``) are left out, most dispensable first, and a note names them. A table that still does not fit (every column
asked for, ``--columns all``) is printed in parts, each as wide as the terminal allows and each
starting with the columns that name a row (``Section.keys``); on a terminal too narrow for even
those and one other column, the parts run past its edge rather than cut a cell. With ``color`` (the CLI sets it by
:func:`stability.status.colored`: stdout a terminal, or ``FORCE_COLOR``; never with ``NO_COLOR``) the
result line is bold and the words a section highlights (flags) are coloured; otherwise the text has
no escape codes.
"""

from __future__ import annotations

import dataclasses
import io
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len

from ...checks import check_bool, check_int
from ...exceptions import InvalidParameterError
from ..model import Report, Section, brief, spelling

NAME = "table"
EXTENSION = "txt"
ALIASES = ("txt", "text")
ORDER = 0
COMPACT = True
DESCRIPTION = "tables for a terminal"

#: The narrowest ``width`` accepted (``--width`` of the command line too).
MIN_WIDTH = 20


def _body(section: Section) -> list[Sequence[object]]:
    """The rows of ``section``, then its footer's, and the row of each group's title
    (:attr:`Section.row_groups`, in the first column): each column is as wide as the widest of all."""
    titles = [[title, *[""] * (len(section.header) - 1)] for title, _ in section.row_groups]
    return [*section.rows, *section.footer, *titles]


#: Indent of a grouped row's first cell under its group's title (:attr:`Section.row_groups`).
GROUP_INDENT = "  "


def indented(section: Section) -> Section:
    """``section`` with the first cell of each grouped row (:attr:`Section.row_groups`) indented
    under its group's title, each of its lines; a section without groups is returned as it is.

    >>> from stability.reporting.model import Section
    >>> section = Section("t", ["parameter", "default"], [["w", "20"]], data=([], []), row_groups=[("texttiling", 1)])
    >>> indented(section).rows
    [['  w', '20']]
    """
    if not section.row_groups:
        return section
    rows = [[GROUP_INDENT + str(row[0]).replace("\n", "\n" + GROUP_INDENT), *row[1:]] for row in section.rows]
    return dataclasses.replace(section, rows=rows)


#: Indent of a cell printed under another column's (:attr:`Section.under`), and of its header.
UNDER_INDENT = "  "


def cramped(section: Section, width: int) -> bool:
    """Whether ``section``'s columns side by side leave its prose (:attr:`Section.prose`) less than
    the widths it reads best at in a table ``width`` wide, with columns it may print under others
    (:attr:`Section.under`, :func:`stacked`) to give it that room.

    >>> from stability.reporting.model import Section
    >>> section = Section("t", ["key", "flag", "meaning"], [["seed", "--seed", "The run's seed."]], align="LLl",
    ...                   prose={2: 15}, under={1: 0})
    >>> cramped(section, 40), cramped(section, 30)  # 4 + 6 + 15 and the borders: 35 wide
    (False, True)
    """
    if not section.under:
        return False
    preferred = _prose_widths(section, range(len(section.header)), None)
    return table_width([preferred.get(i, w) for i, w in enumerate(_widths(section))]) > width


def stacked(section: Section) -> Section:
    """``section`` with each column of :attr:`Section.under` printed under the column it names:
    its cell on lines of its own under that column's text, indented (an empty cell adds no line),
    its header likewise; the columns after it move up one place. The terminal does so where a
    table is :func:`cramped`: a key's run flag under the key rather than every meaning squeezed
    or the table split into parts. A section without such columns is returned as it is.

    >>> from stability.reporting.model import Section
    >>> section = Section("t", ["key", "flag", "meaning"], [["seed", "--seed", "The run's seed."], ["size", "", "Size."]],
    ...                   align="LLl", prose={2: 15}, under={1: 0})
    >>> stacked(section).header, stacked(section).rows
    (['key\\n  flag', 'meaning'], [['seed\\n  --seed', "The run's seed."], ['size', 'Size.']])
    """
    if not section.under:
        return section
    kept = [i for i in range(len(section.header)) if i not in section.under]
    index = {i: n for n, i in enumerate(kept)}

    def joined(cells: Sequence[Any], always: bool = False) -> list[Any]:
        out = []
        for i in kept:
            below = [str(cells[j]) for j in sorted(section.under) if section.under[j] == i and (always or str(cells[j]).strip())]
            lines = [UNDER_INDENT + line for text in below for line in text.splitlines()]
            out.append("\n".join([str(cells[i]), *lines]) if lines else cells[i])
        return out

    groups, start = [], 0
    for title, span in section.groups:
        shown = sum(1 for i in range(start, start + span) if i in index)
        groups += [(title, shown)] if shown else []
        start += span
    letters = section.alignment()
    return dataclasses.replace(
        section, header=joined(section.header, always=True), rows=[joined(row) for row in section.rows],
        footer=[joined(row) for row in section.footer], align="".join(letters[i] for i in kept),
        prose={index[i]: w for i, w in section.prose.items()}, markup=[index[i] for i in section.markup if i in index],
        drop_order=[index[i] for i in section.drop_order], groups=groups, under={})


def _widths(section: Section) -> list[int]:
    """Each column's width: its widest cell, or its header's longest word (headers wrap at spaces),
    in the cells of a terminal (a CJK character or an emoji takes two)."""
    widths = []
    for i in range(len(section.header)):
        cells = [cell_len(line) for row in _body(section) for line in str(row[i]).splitlines()] or [0]
        widths.append(max(max(cells), _header_word(section, i)))
    return widths


def _lead(text: str) -> int:
    """The blanks ``text`` starts with: the indent of a grouped row's label or of a cell printed
    under another's, which the terminal keeps and the widths count."""
    return len(text) - len(text.lstrip(" "))


def _header_word(section: Section, column: int) -> int:
    """The widest word of a column's header, in cells, with the indent of its line (a header under
    another's, :attr:`Section.under`): the narrowest the column is made (headers wrap at their
    spaces)."""
    return max((_lead(line) + cell_len(word) for line in str(section.header[column]).splitlines()
                for word in line.split()), default=0)


def _header_line(section: Section, column: int) -> int:
    """The widest line of a column's header, in cells: the width at which it takes no more lines
    than it has."""
    return max((cell_len(line) for line in str(section.header[column]).splitlines()), default=0)


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


def parts(section: Section, kept: Sequence[int], width: int) -> list[list[int]]:
    """The ``kept`` columns in parts that each fit ``width``, every part starting with the key
    columns; one part when the whole table fits. A column too wide for a part of its own still
    gets one (rich then wraps its cells: nothing is left out)."""
    widths = _widths(section)
    if table_width([widths[k] for k in kept]) <= width:
        return [list(kept)]
    keys = [k for k in kept if k < section.keys]
    folded: list[list[int]] = []
    current: list[int] = []
    for i in kept:
        if i in keys:
            continue
        if current and table_width([widths[k] for k in keys + current + [i]]) > width:
            folded.append(keys + current)
            current = []
        current.append(i)
    return folded + [keys + current]


#: Indent of a folded label's continuation lines (see :func:`fold_label`).
FOLD_INDENT = "  "


def fold_label(label: str, width: int) -> str:
    """``label`` broken after its commas into lines of at most ``width`` characters where it can
    be (a piece longer than that keeps its own line), the lines after the first indented: how a
    long configuration label (``langchain_recursive,chunk_size=300,chunk_overlap=0``, a grid's)
    fits a narrow terminal table.

    Examples
    --------
    >>> print(fold_label("langchain_recursive,chunk_size=300,chunk_overlap=0", 22))
    langchain_recursive,
      chunk_size=300,
      chunk_overlap=0
    >>> print(fold_label("texttiling,w=10,k=6", 30))
    texttiling,w=10,k=6

    A label indented (a grouped row's, under its group's title) keeps its continuation lines
    indented under its first line, never at the level of the next row's label:

    >>> print(fold_label("  texttiling,w=10,k=6", 12))
      texttiling,
        w=10,k=6
    """
    lead = " " * _lead(label)
    pieces = label.split(",")
    pieces = [piece + "," for piece in pieces[:-1]] + pieces[-1:]
    lines = [pieces[0]]
    for piece in pieces[1:]:
        if cell_len(lines[-1]) + cell_len(piece) <= width:
            lines[-1] += piece
        else:
            lines.append(lead + FOLD_INDENT + piece)
    return "\n".join(lines)


def _fold_width(label: str) -> int:
    """The narrowest :func:`fold_label` can make ``label``: its longest piece between commas; a
    label of several lines, which :func:`folded` leaves as it is (a flag printed under its key,
    :func:`stacked`), its widest line."""
    if "\n" in label:
        return max(cell_len(line) for line in label.splitlines())
    pieces, lead = label.split(","), _lead(label)
    return max([cell_len(pieces[0]) + (len(pieces) > 1)]
               + [lead + len(FOLD_INDENT) + cell_len(p) + (i < len(pieces) - 2) for i, p in enumerate(pieces[1:])])


def folded(section: Section, width: int, columns: Sequence[int] | None = None) -> Section:
    """``section`` with the labels of its key columns folded at their commas (:func:`fold_label`)
    as far as needed for the table (its ``columns``, default all) to fit ``width``, or as far as
    they fold: long configuration labels take lines rather than the other columns' place. A table
    that fits, or whose labels have no commas, is returned as it is."""
    widths = _widths(section)
    excess = table_width([widths[i] for i in (range(len(widths)) if columns is None else columns)]) - width
    rows = [list(row) for row in section.rows]
    for k in range(min(section.keys, len(widths))):
        if excess <= 0:
            break
        labels = [str(row[k]) for row in rows]
        if not any("," in label and "\n" not in label for label in labels):
            continue
        # never narrower than its header's widest word, nor than the cells never folded: a footer's
        # label, a group's title (Section.row_groups, in the first column)
        kept = [str(row[k]) for row in section.footer] + [title for title, _ in section.row_groups if k == 0]
        header = max([_header_word(section, k)] + [cell_len(line) for text in kept for line in text.splitlines()])
        target = max(max(_fold_width(label) for label in labels), header, widths[k] - excess)
        if target >= widths[k]:
            continue
        for row in rows:
            row[k] = fold_label(str(row[k]), target) if "\n" not in str(row[k]) else row[k]
        excess -= widths[k] - max([header] + [cell_len(line) for row in rows for line in str(row[k]).splitlines()])
    return section if rows == [list(row) for row in section.rows] else dataclasses.replace(section, rows=rows)


def _prose_bounds(section: Section, column: int) -> tuple[int, int]:
    """The narrowest and the widest a prose column (:attr:`Section.prose`) is made: at most its
    longest cell on one line; at least half the width it reads best at, or its longest word (or
    header word) where that is wider, never more than its longest cell."""
    widest = max([cell_len(" ".join(str(row[column]).split())) for row in _body(section)] + [0])
    header = _header_word(section, column)
    return min(max(_longest_word(section, column), -(-section.prose[column] // 2)), max(widest, header)), \
        max(widest, header)


def _prose_widths(section: Section, columns: Sequence[int], width: int | None) -> dict[int, int]:
    """The width of each prose column among ``columns`` in a table ``width`` wide: each column's
    narrowest (:func:`_prose_bounds`), then the room left goes, in turn and in shares of their
    preferred widths, to bringing them up to their preferred width, to the other columns' headers
    wanting one line (:func:`_header_widths`), and to the prose columns up to their longest cell.
    ``width`` ``None``: each at its preferred width (within its bounds).

    A table that does not fit with its prose at the narrowest and that parts cannot narrow (no
    column but the key columns and one other) has its prose narrowed further, down to its longest
    word: the terminal table would wrap it to that room anyway, a second time, leaving lines of
    one or two words between full ones."""
    prose = [i for i in columns if i in section.prose]
    bounds = {i: _prose_bounds(section, i) for i in prose}
    preferred = {i: min(max(section.prose[i], low), high) for i, (low, high) in bounds.items()}
    if width is None:
        return preferred
    widths = _widths(section)
    others = [i for i in columns if i not in section.prose]
    given = {i: low for i, (low, _) in bounds.items()}
    room = width - table_width([widths[i] for i in others] + list(given.values()))
    if room < 0 and len([i for i in columns if i >= section.keys]) <= 1:  # in a part of its own
        _share(given, {i: min(given[i], _longest_word(section, i)) for i in prose}, -room, section.prose)
        return given
    headers = sum(max(0, _header_line(section, i) - widths[i]) for i in others)
    room = _share(given, preferred, room, section.prose)
    if room >= headers:  # the headers' one line before the prose grows past its preferred width
        room -= headers
    _share(given, {i: high for i, (_, high) in bounds.items()}, room, section.prose)
    return given


def _share(given: dict[int, int], cap: Mapping[int, int], room: int, weights: Mapping[int, int]) -> int:
    """Move the widths ``given`` towards ``cap`` (up, or down where a cap is below) by at most
    ``room`` cells in all, in shares of ``weights`` (at least one cell a turn, so that it ends);
    returns the room left."""
    growing = [i for i in given if given[i] != cap[i]]
    while room > 0 and growing:
        total = sum(weights[i] for i in growing)
        turn = room
        for i in growing:
            step = min(max(1, turn * weights[i] // total), abs(cap[i] - given[i]), room)
            given[i] += step if cap[i] > given[i] else -step
            room -= step
        growing = [i for i in growing if given[i] != cap[i]]
    return room


def flowed(section: Section, width: int | None = None, columns: Sequence[int] | None = None) -> Section:
    """``section`` with the text of its prose columns (:attr:`Section.prose`) wrapped at its spaces
    to the room the other ``columns`` (default all) leave in a table ``width`` wide
    (:func:`_prose_widths`; ``None``: at their preferred widths). Text already wrapped is wrapped
    again: a prose cell's line ends are spaces. A section without prose is returned as it is.

    >>> from stability.reporting.model import Section
    >>> section = Section("t", ["name", "meaning"], [["k", "one two three four five six"]], align="Ll",
    ...                   prose={1: 10})
    >>> print(flowed(section).rows[0][1])
    one two
    three four
    five six
    >>> print(flowed(section, 40).rows[0][1])  # room for 40 - (4 + 7) = 29 cells (the key column: its header)
    one two three four five six
    >>> print(flowed(section, 30).rows[0][1])  # 19 cells
    one two three four
    five six
    """
    if not section.prose:
        return section
    given = _prose_widths(section, range(len(section.header)) if columns is None else columns, width)

    def fill(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
        return [[_fill(_spans_kept(str(cell), given[i]), given[i]).replace(_KEEP, " ") if i in given else cell
                 for i, cell in enumerate(row)] for row in rows]

    return dataclasses.replace(section, rows=fill(section.rows), footer=fill(section.footer))


#: A ranked entry of the result line, ``label 0.55 [0.41, 0.71]`` (or ``n/a``): the spaces after
#: its label are kept together when the line is wrapped (:func:`result_lines`).
_ENTRY = re.compile(r"(?<=\S) (-?\d+(?:\.\d+)?|n/a) (\[-?[\d.]+, -?[\d.]+\]|n/a)")
#: What a list of labels is said to be, ``: few boundaries`` (up to the next ``;``): kept with the
#: list's last label.
_TAG = re.compile(r": [^;:'\[\]]{1,40}?(?=;|$)")
_KEEP = "\u00a0"  # a no-break space: textwrap breaks only at ASCII whitespace
#: A quoted label of the result line (:func:`~stability.reporting.corpus.shown_label`).
_QUOTED = re.compile(r"'[^']*'")


def result_lines(text: str, width: int) -> str:
    """The result line wrapped to ``width`` between its entries, never inside one: a segmenter's
    headline stays on the line of its label, its interval whole (a grid of a dozen configurations
    makes the line several lines long).

    >>> print(result_lines("stability [95% CI]: u00 0.71 [0.52, 0.88] > c99 0.50 [0.23, 0.75]", 44))
    stability [95% CI]: u00 0.71 [0.52, 0.88] >
    c99 0.50 [0.23, 0.75]
    """
    kept = _QUOTED.sub(lambda m: re.sub(r"\s", _KEEP, m.group(0)), text)  # a quoted label's spaces
    kept = _ENTRY.sub(lambda m: f"{_KEEP}{m.group(1)}{_KEEP}{m.group(2).replace(' ', _KEEP)}", kept)
    kept = kept.replace(" > ", f"{_KEEP}> ").replace(" = ", f"{_KEEP}= ")  # never a line starting with >
    kept = _TAG.sub(lambda m: m.group(0).replace(" ", _KEEP), kept)
    return _fill(kept, width).replace(_KEEP, " ")


#: What a message keeps on one line when it fits (:func:`message_lines`): a command in backticks
#: (`stability report out`), a quoted name or path ('page-a.md', "my corpus"), not a word's apostrophe.
_WHOLE = re.compile(r"`[^`\n]+`|(?<!\w)'[^'\n]+'(?!\w)|(?<!\w)\"[^\"\n]+\"(?!\w)")


def message_lines(text: str, width: int | None, indent: str = "  ") -> str:
    """A message (a warning, an error, where results went) wrapped to ``width`` cells (``None``: not
    wrapped), its lines
    after the first indented by ``indent`` (one message reads as one among several), each line of
    ``text`` on its own. It breaks at blanks only: never inside a path, an option (``--corpus-format``
    keeps its hyphens) or a word; a command in backticks or a quoted name stays whole when it fits
    in a line.

    >>> print(message_lines("warning: pages of 2 formats: pass --corpus-format or run `stability run -c my corpus`", 40))
    warning: pages of 2 formats: pass
      --corpus-format or run
      `stability run -c my corpus`
    """
    if width is None:  # not wrapped: only the spaces :func:`unbroken` kept are spaces again
        return text.replace(_KEEP, " ")
    kept = _spans_kept(text, width - cell_len(indent))
    return "\n".join(_fill(line, width, indent).replace(_KEEP, " ") for line in kept.split("\n"))


def _spans_kept(text: str, room: int) -> str:
    """``text`` with the blanks of each span :data:`_WHOLE` finds (a code span, a quoted name) that
    fits in ``room`` cells made no-break spaces: :func:`_fill` keeps it on one line (a parameter's
    meaning in `stability segmenters` cut ```mean + c * std``` after its ``*``)."""
    return _WHOLE.sub(lambda m: m.group(0).replace(" ", _KEEP) if cell_len(m.group(0)) <= room else m.group(0), text)


def unbroken(text: object) -> str:
    """``text`` (a path a message names, which may hold blanks) never broken by
    :func:`message_lines`; its spaces are spaces again in the lines it returns."""
    return str(text).replace(" ", _KEEP)


def _fill(text: str, width: int, indent: str = "") -> str:
    """``text`` wrapped at its spaces to lines of at most ``width`` cells, as a terminal counts them
    (a CJK character takes two: ``textwrap`` counts characters, so a line of wide labels
    overflowed and the terminal wrapped it again, inside a label); a word wider than ``width``
    keeps a line of its own (a URL, a long code span: never cut in two), and a hyphenated word
    is never broken after its hyphen (``adaptive- stopping``). It breaks at any blank but the
    no-break space it keeps (:func:`result_lines`): at a ``\r`` or an ideographic space too, as
    the terminal table does, which otherwise broke again a line wrapped here and marked a blank it
    cut with an ellipsis.

    >>> print(_fill("the first adaptive-stopping check, see https://example.org/a-long-page", 20))
    the first
    adaptive-stopping
    check, see
    https://example.org/a-long-page
    """
    from rich.cells import cell_len

    lines: list[str] = []
    line = ""
    for word in (word for word in re.split(rf"[^\S{_KEEP}]+", text) if word):  # any blank but the kept (no-break) space
        joined = f"{line} {word}" if line else word
        if line and cell_len(joined) > width:
            lines.append(line)
            line = indent + word  # ``indent``: the lines after the first
        else:
            line = joined
    return "\n".join(lines + [line] if line else lines)


def _text(value: object, style: str = ""):  # -> rich.text.Text
    """A cell's text for rich, never markup (labels, ids and errors hold brackets), folded rather
    than cut when rich finds it wider than its column: the columns are sized for every word
    (:func:`narrowest`), but rich wraps a line that fills its column exactly and holds wide (CJK)
    characters and a double space one cell too wide, and cut its last word with an ellipsis."""
    from rich.text import Text

    return Text(str(value), style=style, overflow="fold")


def _cell(value: object, section: Section):  # -> rich.text.Text
    text = str(value)
    if not section.highlight or not any(word in text for word in section.highlight):
        return _text(text)
    styled = _text(text)
    for word, style in section.highlight.items():
        styled.highlight_words([word], style=style)
    return styled


def _header_widths(section: Section, columns: Sequence[int], width: int) -> list[int]:
    """Each column's width (:func:`_widths`, a header wrapped at its spaces), then, in column
    order, a wrapped header given the one line it needs while the table still fits ``width``: a
    table with room to spare printed ``stability [95%`` over ``CI]``.

    >>> from stability.reporting.model import Section
    >>> section = Section("t", ["segmenter", "stability [95% CI]"], [["c99", "0.94 [0.81, 1.00]"]])
    >>> _header_widths(section, [0, 1], 80), _header_widths(section, [0, 1], 33)  # 9 + 17 + 7: no room
    ([9, 18], [9, 17])
    """
    widths = _widths(section)
    room = width - table_width([widths[i] for i in columns])
    for i in columns:
        wanted = _header_line(section, i) - widths[i]
        if 0 < wanted <= room:
            widths[i] += wanted
            room -= wanted
    return widths


def _table(section: Section, columns: Sequence[int], width: int):  # -> rich.table.Table (untitled)
    from rich.table import Table
    from rich.text import Text

    widths, letters = _header_widths(section, columns, width), section.alignment()
    table = Table()
    for i in columns:
        # a header's lines kept (one under another's), each wrapped under its indent
        header = "\n".join(textwrap.fill(line, widths[i], break_long_words=False,
                                          subsequent_indent=" " * _lead(line))
                           for line in str(section.header[i]).splitlines())
        table.add_column(Text(header), justify="left" if letters[i] in "lL" else "right", no_wrap=letters[i].isupper())
    for n, (title, rows) in enumerate(section.grouped()):
        if n:  # a rule between groups
            table.add_section()
        if title:  # in the first column (a key column: every part has it), on a row of its own
            table.add_row(_text(title, "bold"), *([""] * (len(columns) - 1)))
        for row in rows:
            table.add_row(*(_cell(row[i], section) for i in columns))
    if section.footer:  # under a rule: a summary row is never read as one of the rows
        if section.rows:
            table.add_section()
        for row in section.footer:
            table.add_row(*(_text(row[i]) for i in columns))
    return table


def narrowest(section: Section, columns: Sequence[int] | None = None) -> int:
    """The narrowest width at which no cell of ``section`` is cut: its key columns and its widest
    other column (of ``columns``, default all: those a narrower table keeps), in a part of their
    own; a column of text that may wrap (alignment ``l``: boundaries and their confidence) needs
    only its longest word."""
    widths, letters = _widths(section), section.alignment()
    keys = [widths[k] for k in range(min(section.keys, len(widths)))]
    others = [widths[k] if letters[k] != "l" else _longest_word(section, k)
              for k in range(section.keys, len(widths)) if columns is None or k in columns]
    return table_width(keys + ([max(others)] if others else []))


def _longest_word(section: Section, column: int) -> int:
    """The widest word of a column's cells and header: what its cells need when they wrap; a
    line's first word with the blanks before it, which the terminal keeps (a cell printed under
    another's, :func:`stacked`, is indented), but in prose, whose blanks :func:`_fill` wraps away."""
    def widest(line: str) -> int:
        indent = 0 if column in section.prose else _lead(line)
        return max([indent + cell_len(word) if n == 0 else cell_len(word) for n, word in enumerate(line.split())],
                   default=0)

    return max([widest(line) for row in _body(section) for line in str(row[column]).splitlines()]
               + [_header_word(section, column)])


def _tables(section: Section, width: int):  # -> [(title, rich table)], kept titles, dropped titles
    kept, dropped = fit(section, width)
    folded = parts(section, kept, width)
    titles = [section.title if len(folded) == 1 else f"{section.title} (part 1 of {len(folded)})"]
    titles += [f"Part {n} of {len(folded)} of the table above" for n in range(2, len(folded) + 1)]
    tables = [(title, _table(flowed(section, width, columns), columns, width))  # prose: its part's room
              for columns, title in zip(folded, titles)]
    return tables, [str(section.header[i]) for i in kept], [str(h) for h in section.header if str(h) in dropped]


#: Blanks at the end of a line, before any style codes that close it.
_TRAILING_BLANKS = re.compile(r" +((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)


def left_out(dropped: Sequence[str], width: int, needed: int, rerun: str | None = None) -> str:
    """The note under a table whose columns ``dropped`` did not fit ``width`` (``needed``: the width
    showing them): rendered now, how to see them, in the words of the caller (:func:`~stability.
    reporting.model.spelling`: ``render``'s ``width=`` from Python, the terminal and ``--width`` on
    the command line); in a file (``rerun``: the command that renders the report again,
    ``stability report DIR``), that command with the width they need, never advice about the
    terminal that wrote the file.

    >>> print(left_out(["docs"], 80, 131))
    Left out for width 80: docs (render(..., width=131) shows them, as does another format).
    >>> from stability.reporting.model import COMMAND_LINE, spelled
    >>> with spelled(COMMAND_LINE):
    ...     print(left_out(["docs"], 80, 131))
    Left out for width 80: docs (wider terminal, --width, or another report format).
    >>> print(left_out(["docs"], 120, 131, rerun="stability report out"))
    Left out for width 120: docs (stability report out --width 131 shows them, as does another --report-format).
    """
    if rerun is None:
        return f"Left out for width {width}: {', '.join(dropped)} ({spelling().say('wider', needed=str(needed))})."
    return (f"Left out for width {width}: {', '.join(dropped)} ({rerun} --width {needed} shows them, as does another "
            "--report-format).")


def lists_all(rerun: str | None = None) -> str:
    """What a note under a terminal table cut to its brief rows (:func:`~stability.reporting.model.brief`)
    says lists them all: the formats that do, in the caller's words (:func:`~stability.reporting.
    model.spelling`), or with ``rerun`` (the text goes to a file) the command writing one.

    >>> print(brief(Section("t", ["a"], [["x"], ["y"], ["z"]], brief_rows=2), lists_all()).notes[-1])
    The first 2 of 3 rows are shown (stability.reporting.render(result, "html") or "md" lists them all).
    >>> from stability.reporting.model import COMMAND_LINE, spelled
    >>> with spelled(COMMAND_LINE):
    ...     print(lists_all())
    --report-format md or html lists them all
    >>> print(lists_all(rerun="stability report out"))
    stability report out --report-format md lists them all
    """
    where = spelling().every_row if rerun is None else f"{rerun} --report-format md"
    return f"{where} lists them all"


def render(report: Report, *, details: bool = False, width: int | None = None, color: bool = False,
           rerun: str | None = None) -> str:
    """The result line, then the report's tables and their notes, for a terminal ``width`` wide
    (``color``: with ANSI styles). ``rerun``: the text goes to a file, and the command that renders
    it again (``stability report DIR``) is what a note on columns left out for width suggests
    (:func:`left_out`)."""
    from rich.console import Console
    from rich.text import Text

    width = check_int(width, "width", low=MIN_WIDTH, none=True)
    color = check_bool(color, "color")

    console = Console(record=True, width=width, file=io.StringIO(), force_terminal=color, emoji=False,
                      color_system="standard" if color else None)
    if report.result:
        console.print(result_lines(report.result, console.width), highlight=False, markup=False,
                      style="bold" if color else None)
        console.print()
    if rerun is not None and (not isinstance(rerun, str) or not rerun.strip()):
        raise InvalidParameterError.make("rerun", "None or a command (e.g. 'stability report out')", rerun)
    sections = report.tables(details)
    # columns under others where a table would leave its prose narrower than it reads best at (a
    # key's flag under the key), in every table that has such columns: a listing keeps one layout
    stack = any(cramped(indented(section), console.width) for section in sections)
    for section in sections:  # and a grouped row under its group's title: the widths count the indents
        section = brief(section, lists_all(rerun))  # measured and wrapped as shown
        section = indented(stacked(section) if stack else section)
        terminal, whole = console.width, flowed(section)  # prose at the width it reads best at
        kept, _ = fit(folded(whole, terminal), terminal)
        section = flowed(folded(flowed(section, terminal, kept), terminal, kept), terminal, kept)  # as little
        # folding as the columns kept need, their prose in the room left, its narrowest at the least
        console.width = max(terminal, narrowest(section, kept))  # past the terminal rather than cut a cell
        tables, kept, dropped = _tables(section, console.width)
        for title, table in tables:  # a title on lines of the terminal's width, not of the table's (rich
            # wrapped a narrow table's title: "Reference metrics: 2" over "documents")
            console.print(Text(title, style="table.title"), overflow="fold")
            console.print(table)
        console.width = terminal
        for note in [section.legend_line(kept), *section.notes]:
            if note:
                console.print(note, highlight=False, markup=False)
        if dropped:
            needed = table_width(_widths(whole))  # every column, no label folded
            console.print(left_out(dropped, console.width, needed, rerun), highlight=False, markup=False)
    # rich pads a line it wraps at a space, and a centred title, to the width: no line keeps
    # trailing blanks (a pipe, a file, a diff of two reports), a styled one its codes after them
    return _TRAILING_BLANKS.sub(r"\1", console.export_text(styles=color))
