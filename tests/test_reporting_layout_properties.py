"""Row groups (:attr:`Section.row_groups`) and columns printed under others (:attr:`Section.under`)
in every format: whatever the cells, widths, prose and columns left out, the terminal shows every
cell's text once and in order in each part, a group's title once above its rows in each part, a
column moved under another with its text whole, every table of a report with such columns in one
layout, and no line wider than the terminal unless a cell that is never cut needs it; Markdown,
HTML, CSV and JSON carry every cell."""

from __future__ import annotations

import csv
import dataclasses
import html
import io
import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from stability.reporting import Report, Section, render
from stability.reporting.formats.table import fold_label, indented, narrowest, stacked, table_width

WORD = st.one_of(
    st.text(alphabet="abcdefghij-.", min_size=1, max_size=10),
    st.text(alphabet="漢字日本語", min_size=1, max_size=5),  # two cells a character
    st.text(alphabet="abc", min_size=20, max_size=70),  # wider than many a terminal's room
)
#: Text of words: spaces, line ends, or nothing (an empty cell).
TEXT = st.lists(st.tuples(WORD, st.sampled_from([" ", " ", "  ", "\n"])), max_size=8).map(
    lambda pairs: "".join(w + b for w, b in pairs).strip())
#: A label naming a row: pieces joined by commas (a grid's configuration), a wide word, lines.
LABEL = st.one_of(
    st.lists(st.text(alphabet="abxyz=0123", min_size=1, max_size=14), min_size=1, max_size=5).map(",".join),
    st.text(alphabet="漢字日本語", min_size=1, max_size=8),
    st.lists(st.text(alphabet="klmn", min_size=1, max_size=6), min_size=2, max_size=3).map("\n".join),
)
TITLE = st.one_of(st.text(alphabet="pqrs_", min_size=1, max_size=30), st.text(alphabet="漢字", min_size=1, max_size=6),
                  st.lists(st.text(alphabet="tuv", min_size=1, max_size=8), min_size=2, max_size=4).map(" ".join))
HEADER_WORDS = ["name", "a long header", "x", "description"]


@st.composite
def sections(draw, number: int) -> Section:
    """A table of one or two key columns, other columns of every alignment, prose columns or none,
    columns that may be left out, columns moved under others, row groups (one key column), a
    footer; each header ends with ``h`` and its column's index (``name h3``), so that a column is
    found again in the output, and the table's title is ``t`` and its number."""
    grouped = draw(st.booleans())
    keys = 1 if grouped else draw(st.integers(1, 2))
    kinds = ["key"] * keys + draw(st.lists(st.sampled_from(["L", "l", "r", "prose"]), min_size=1, max_size=4))
    header = [f"{draw(st.sampled_from(HEADER_WORDS))} h{i}" for i in range(len(kinds))]
    plain = [i for i, kind in enumerate(kinds) if kind != "prose"]
    movable = [j for j in plain if j >= keys]
    moved = draw(st.lists(st.sampled_from(movable), unique=True)) if movable else []
    targets = [i for i in plain if i not in moved]
    under = {j: draw(st.sampled_from(targets)) for j in moved} if targets else {}
    others = [i for i in range(keys, len(kinds)) if i not in under and i not in under.values()]
    drop_order = tuple(draw(st.lists(st.sampled_from(others), unique=True))) if others else ()

    def row(first: st.SearchStrategy[str] = LABEL) -> list[str]:
        return [draw(first if kind == "key" else TEXT) for kind in kinds]

    rows = [row() for _ in range(draw(st.integers(1, 5)))]
    footer = [row()] if draw(st.booleans()) else []
    extra: dict = {}
    if grouped:
        spans, left = [], len(rows)
        while left:
            spans.append(draw(st.integers(1, left)))
            left -= spans[-1]
        titles = [draw(TITLE) for _ in spans]
        extra = {"row_groups": list(zip(titles, spans)),
                 "data": (["group", *header], [[t, *row] for (t, _), row in zip(
                     [(t, s) for t, s in zip(titles, spans) for _ in range(s)], rows)])}
    return Section(f"t{number}", header, rows, keys=keys, footer=footer, under=under, drop_order=drop_order,
                   align="".join("L" if k == "key" else "l" if k == "prose" else k for k in kinds),
                   prose={i: draw(st.integers(1, 70)) for i, kind in enumerate(kinds) if kind == "prose"}, **extra)


@st.composite
def reports(draw) -> Report:
    return Report("r", [draw(sections(n)) for n in range(draw(st.integers(1, 3)))])


def _chars(text: object) -> str:
    """The text's characters but its blanks: what a table may wrap or fold, never lose."""
    return "".join(str(text).split())


def _tables(text: str) -> list[tuple[str, list[list[str]], list[list[list[str]]]]]:
    """Each table printed: its title, its header cells (a list a column, one string a line) and
    its body in blocks between rules, each block's lines split into cells (padding kept)."""
    lines, found, n = text.splitlines(), [], 0
    while n < len(lines):
        if not lines[n].startswith("┏"):
            n += 1
            continue
        title = lines[n - 1]
        n += 1
        head = []
        while lines[n].startswith("┃"):
            head.append(lines[n].split("┃")[1:-1])
            n += 1
        n += 1  # the rule under the headers
        blocks: list[list[list[str]]] = [[]]
        while not lines[n].startswith("└"):
            if lines[n].startswith("├"):
                blocks.append([])
            else:
                blocks[-1].append(lines[n].split("│")[1:-1])
            n += 1
        found.append((title, [[line[c] for line in head] for c in range(len(head[0]))], blocks))
    return found


def _take(lines: list[str], text: str) -> tuple[list[str], list[str]]:
    """The lines of a column holding ``text`` (its first line on, those after it that are blank),
    and the lines left."""
    want, got, n = _chars(text), "", 0
    while n < len(lines) and (len(got) < len(want) or not lines[n].strip()):
        got += _chars(lines[n])
        n += 1
    return lines[:n], lines[n:]


def _indent(cell: str) -> int:
    """The blanks before a cell's text, its padding (one) aside."""
    return len(cell) - len(cell.lstrip(" ")) - 1


def _expected(section: Section, column: int, stack: bool, title: str, rows) -> list[str]:
    """The texts a column shows, top to bottom, for ``rows``: each row's cell, then those of the
    columns printed under it (``stack``); a group's ``title`` first in the first column."""
    below = sorted(j for j, i in section.under.items() if i == column) if stack else []
    shown = [title] if title and column == 0 else []
    for row in rows:
        shown += [str(row[column]), *(str(row[j]) for j in below)]
    return shown


def _printed(text: str, report: Report):
    """Each section of ``report`` with the text printed for it: from its title to the next's."""
    lines = text.splitlines()
    starts = [next(n for n, line in enumerate(lines) if re.match(rf"{s.title}( \(part 1 of \d+\))?$", line))
              for s in report.sections]
    return [(s, "\n".join(lines[a:b])) for s, a, b in zip(report.sections, starts, [*starts[1:], len(lines)])]


@settings(max_examples=60, deadline=None)
@given(reports(), st.integers(40, 200))
def test_row_groups_and_columns_under_others_keep_every_cell_once_in_order(report, width):
    text = render(report, "table", width=width)
    assert all(line == line.rstrip() for line in text.splitlines())
    layouts = set()
    for section, printed in _printed(text, report):
        tables = _tables(printed)
        heads = [[[int(c) for c in re.findall(r"\bh(\d+)\b", " ".join(lines))] for lines in head]
                 for _, head, _ in tables]
        # columns under others: under the column each names, in every table of the report or in none
        stack = any(len(column) > 1 for head in heads for column in head)
        if section.under:
            layouts.add(stack)
        shown: dict[int, int] = {}
        for (_, _, blocks), head in zip(tables, heads):
            assert [column[0] for column in head][:section.keys] == list(range(section.keys)), printed
            for column in head:
                shown[column[0]] = shown.get(column[0], 0) + 1
                assert column[1:] == (sorted(j for j, i in section.under.items() if i == column[0]) if stack else [])
            # each column's text once and in order: a group's title first in the first column, each
            # row's cell, the cells printed under it; a rule between groups, and before the footer
            groups = section.grouped() + ([("", section.footer)] if section.footer else [])
            assert len(blocks) == len(groups), printed
            for c, column in enumerate(head):
                got = "".join(_chars(line[c]) for block in blocks for line in block)
                want = "".join(_chars(t) for title, rows in groups for t in _expected(section, column[0], stack, title, rows))
                assert got == want, (column, printed)
            # a key's lines after its first (folded at its commas, a cell under it) indented under it,
            # a group's rows under its title
            lines = [line[0] for block in blocks for line in block]
            for (title, rows), base in [*((g, 2 if section.row_groups else 0) for g in section.grouped()),
                                        *((("", [r]), 0) for r in section.footer)]:
                for text in [title] if title else []:
                    lines = _take(lines, text)[1]
                for r in rows:
                    taken, lines = _take(lines, "\n".join([str(r[0]), *_expected(section, 0, stack, "", [r])[1:]]))
                    if "\n" not in str(r[0]):
                        assert _indent(taken[0]) == base and all(_indent(t) >= base + 2 for t in taken[1:] if t.strip()), \
                            (taken, printed)
            for (title, _), block in zip(section.grouped(), blocks):  # a title alone on its row(s), first
                for line, title_line in zip(block, title.splitlines()):
                    assert line[0].strip() == title_line and not "".join(line[1:]).strip(), printed
        flat = " ".join(printed.split())
        left_out = re.search(r"Left out for width \d+: (.*?) \(", flat)
        dropped = {int(i) for i in re.findall(r"\bh(\d+)\b", left_out.group(1))} if left_out else set()
        for i in range(len(section.header)):  # every column shown (in each part, a key column) or said left out
            expected = 0 if (stack and i in section.under) or i in dropped else len(tables) if i < section.keys else 1
            assert shown.get(i, 0) == expected, (i, printed)
    assert len(layouts) <= 1, text
    # no line wider than the terminal but as far as the cells never cut (the key columns folded
    # as far as they fold, the widest other column: its longest word where it wraps) need
    bound = width
    for section in report.sections:
        shown_section = indented(stacked(section) if layouts == {True} else section)
        keys_folded = dataclasses.replace(shown_section, rows=[
            [fold_label(str(c), 1) if k < section.keys and "\n" not in str(c) else c for k, c in enumerate(row)]
            for row in shown_section.rows])
        bound = max(bound, narrowest(keys_folded))
    assert max(map(cell_len, text.splitlines())) <= bound, text


@settings(max_examples=40, deadline=None)
@given(reports())
def test_row_groups_and_columns_under_others_in_markdown_html_csv_and_json(report):
    markdown = render(report, "md").splitlines()
    page = render(report, "html")
    tables = re.findall(r"<table.*?</table>", page, re.DOTALL)
    assert len(tables) == len(report.sections)
    for section, table in zip(report.sections, tables):
        # Markdown: the header, then each group's title in bold on a row of its own and its rows
        start = markdown.index(f"### {section.title}") + 2
        lines = markdown[start + 2:start + 2 + len(section.rows) + len(section.row_groups) + len(section.footer)]
        assert _chars(markdown[start].replace("\\", "")) == _chars("|" + "|".join(section.header) + "|")
        expected = []
        for title, rows in section.grouped():
            expected += [[f"**{title}**", *[""] * (len(section.header) - 1)]] if title else []
            expected += [list(row) for row in rows]
        expected += [[f"**{c}**" if i < section.keys else c for i, c in enumerate(row)] for row in section.footer]
        assert [_chars(line.replace("\\", "")) for line in lines] == ["|" + "|".join(_chars(c) for c in row) + "|"
                                                                   for row in expected], markdown
        # HTML: the header, then each group's title (a tbody's heading) and its rows
        text = _chars(html.unescape(re.sub(r"<[^>]+>", "", table)))
        want = "".join(map(_chars, section.header))
        for title, rows in section.grouped():
            want += _chars(title) + "".join(_chars(c) for row in rows for c in row)
        want += "".join(_chars(c) for row in section.footer for c in row)
        assert text == want, table
        assert table.count('scope="rowgroup"') == sum(1 for title, _ in section.row_groups if title)
    # JSON: every section's cells and groups; CSV: the first table's data, or its cells
    carried = json.loads(render(report, "json"))["sections"]
    assert [s["rows"] for s in carried] == [[list(r) for r in s.rows] for s in report.sections]
    assert [s.get("row_groups", []) for s in carried] == [[list(g) for g in s.row_groups] for s in report.sections]
    first = report.sections[0]
    written = list(csv.reader(io.StringIO(render(report, "csv"))))
    header, rows = first.data or (first.header, first.rows)
    assert [[c.lstrip("'") for c in row] for row in written] == [list(header), *[[str(c) for c in r] for r in rows]]


def test_a_cell_under_a_column_that_wraps_is_never_cut():
    """A cell printed under a column that wraps (align ``l``) stands on a line indented by two:
    the narrowest table counted its longest word without that indent, and rich cut the word to
    fit the column two cells too narrow (``aaaaaaaaaaaaaaaaaaaaaaaaaa…``)."""
    word = "a" * 28
    section = Section("t0", ["name h0", "name h1", "name h2", "name h3", "name h4"], [["0", "", "", "", ""]],
                      align="LLlLL", footer=[["0", "", "", word, ""]], under={3: 2})
    text = render(Report("r", [section]), "table", width=40)
    assert f"   {word} " in text and "…" not in text, text


def test_a_line_of_wide_characters_that_fills_its_column_is_never_cut():
    """rich wraps a line of a column that wraps (align ``l``) holding CJK characters after a
    double space one cell too wide when it fills the column exactly, and cut its last word with
    an ellipsis (``字字字 …``): the cells are folded instead, and every character is printed."""
    cell = "a aaaaa aaaaa  字字字字 a"
    section = Section("t0", ["name h0", "name h1", "name h2", "name h3", "name h4"], [["0", "0", cell, "", ""]],
                      align="LLlLL", keys=2)
    text = render(Report("r", [section]), "table", width=41)
    assert "…" not in text and "字字字字" in text, text


def test_a_label_with_a_cell_under_it_leaves_the_others_folding_as_far_as_they_fold():
    """A key with a flag printed under it (a label of two lines, never folded) counted as one
    line the length of both: the other keys were folded no narrower than that, and the table ran
    3 cells further past the terminal than its widest line needs."""
    section = Section("t", ["key", "flag", "meaning"], [["alpha,beta,gamma,delta,epsilon,zeta", "", "What it means."],
                                                        ["seed", "--a-long-flag-name", "The seed."]],
                      align="LLl", prose={2: 30}, under={1: 0})
    text = render(Report("r", [section]), "table", width=30)
    assert "│   --a-long-flag-name │" in text, text  # the key column as wide as its widest line
    assert max(map(cell_len, text.splitlines())) == table_width([len("  --a-long-flag-name"), len("What it")])


def test_a_folded_label_in_a_row_group_continues_indented_under_its_first_line():
    """A grouped row's label (indented by two under its group's title) folded at its commas
    continued at the same two, so that its second line read as the next row's label; it is now
    indented under its first line (by four)."""
    section = Section("t", ["parameter", "default"], [["tokenizer,stopwords,stem", "None"], ["w", "20"]],
                      data=([], []), row_groups=[("c99", 2)])
    text = render(Report("r", [section]), "table", width=20)
    assert [line.split("│")[1].rstrip() for line in text.splitlines() if line.startswith("│")] == \
        [" c99", "   tokenizer,", "     stopwords,", "     stem", "   w"], text


def test_labels_are_folded_no_narrower_than_a_group_title_keeps_their_column():
    """A group's title (never folded) wider than the labels can fold to: the labels were folded
    to the room the table lacked, four lines under a title 20 cells wide, where two fit it."""
    section = Section("t", ["parameter", "default", "meaning"], [["aaaa,bbbb,cccc,dddd,eeee", "1", "Some words."]],
                      align="Lll", prose={2: 30}, data=([], []), row_groups=[("p" * 20, 1)])
    text = render(Report("r", [section]), "table", width=44)
    assert [line.split("│")[1].rstrip() for line in text.splitlines() if line.startswith("│")][:3] == \
        [" " + "p" * 20, "   aaaa,bbbb,cccc,", "     dddd,eeee"], text


def test_the_header_of_a_column_under_another_wraps_under_its_indent():
    """The header of a column printed under another's, wrapped, continued at the other's level
    (``  flag which is`` over ``long``: read as the key column's own header)."""
    section = Section("t", ["key", "flag which is long", "meaning"], [["seed", "--seed", "The run's seed, in words."]],
                      align="LLl", prose={2: 40}, under={1: 0})
    text = render(Report("r", [section]), "table", width=40)
    assert [line.split("┃")[1].rstrip() for line in text.splitlines() if line.startswith("┃")] == \
        [" key", "   flag", "   which", "   is", "   long"], text


def test_columns_go_under_others_where_a_row_groups_indent_leaves_prose_too_narrow():
    """Whether a table is cramped was measured without its grouped rows' indent: a table whose
    prose had its preferred width but for those two cells kept its flag column beside the key,
    the meaning two cells narrower than it reads best at."""
    meaning = "m" * 10 + " " + "n" * 9  # 20 cells, its preferred width
    section = Section("t", ["key", "flag", "meaning"], [["seed", "--seed", meaning]], align="LLl", prose={2: 20},
                      under={1: 0}, data=([], []), row_groups=[("run", 1)])
    width = table_width([len("  seed"), len("--seed"), 20]) - 2  # room for all but the indent
    text = render(Report("r", [section]), "table", width=width)
    assert f"│ {meaning} │" in text and "│     --seed" in text, text
