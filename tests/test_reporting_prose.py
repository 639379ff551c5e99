"""Prose columns in a terminal table (:attr:`Section.prose`, :func:`table.flowed`): whatever the
width, the cells, the columns left out and the parts, every word of every prose cell is shown
once and in order, no line is wider than the terminal unless a cell that is never cut needs it,
and a prose cell is wrapped once, by the project, never again by rich."""

from __future__ import annotations

import dataclasses
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from stability.reporting import Report, Section, render
from stability.reporting.formats.table import _prose_widths, flowed, fold_label, narrowest

WORDS = st.one_of(
    st.text(alphabet="abcdefghij-,.", min_size=1, max_size=12),
    st.text(alphabet="漢字日本語", min_size=1, max_size=6),  # two cells a character
    st.sampled_from(["😀", "😀x", "https://example.org/a/very/long/path/that/never/ends/at/all"]),
    st.text(alphabet="abc", min_size=25, max_size=90),  # wider than many a terminal's room
)
#: What may stand between two words of a prose cell: an error's line ends (``\r\n`` too), the
#: ideographic space of CJK text (two cells wide), other Unicode blanks.
BLANKS = st.sampled_from([" ", " ", " ", "  ", "\n", "\t", "\r\n", "\u3000", "\x0b", "\u2028"])
PROSE = st.lists(st.tuples(WORDS, BLANKS), max_size=25).map(lambda pairs: "".join(w + b for w, b in pairs))
LABELS = st.lists(st.text(alphabet="abxyz=0123", min_size=1, max_size=12), min_size=1, max_size=4).map(",".join)


@st.composite
def sections(draw) -> Section:
    """A table of one or two key columns (labels with commas), other columns and one or two prose
    columns in any order, some columns that may be left out; each header ends with its column's
    index (``name3``), so that a column is found again in the output."""
    keys = draw(st.integers(1, 2))
    kinds = draw(st.permutations([draw(st.sampled_from("Llr")) for _ in range(draw(st.integers(0, 3)))]
                                 + ["prose"] * draw(st.integers(1, 2))))
    kinds = ["key"] * keys + list(kinds)
    header = [f"{draw(st.sampled_from(['name', 'a long header', 'x', 'description']))}{i}" for i in range(len(kinds))]

    def cell(kind: str) -> str:
        if kind == "key":
            return draw(LABELS)
        return draw(PROSE) if kind == "prose" else draw(st.text(alphabet="0123456789. ", max_size=25))

    rows = [[cell(kind) for kind in kinds] for _ in range(draw(st.integers(1, 4)))]
    others = list(range(keys, len(kinds)))
    return Section("t", header, rows, keys=keys, align="".join("L" if k == "key" else "l" if k == "prose" else k
                                                               for k in kinds),
                   prose={i: draw(st.integers(1, 80)) for i, kind in enumerate(kinds) if kind == "prose"},
                   drop_order=tuple(draw(st.lists(st.sampled_from(others), unique=True))) if others else ())


def _cells(text: str) -> dict[int, list[list[str]]]:
    """The rows of each column shown in a rendered table (its index read from its header): for
    each part that shows it, each row's lines in that column, padding included."""
    lines, found, n = text.splitlines(), {}, 0
    while n < len(lines):
        if not lines[n].startswith("┏"):
            n += 1
            continue
        n += 1
        headers = []
        while lines[n].startswith("┃"):
            headers.append(lines[n].split("┃")[1:-1])
            n += 1
        body = []
        n += 1  # the rule under the headers
        while not lines[n].startswith("└"):
            body.append(lines[n].split("│")[1:-1])
            n += 1
        starts = [k for k, line in enumerate(body) if line[0][1:2].strip()]  # a key's first line (folds indent)
        for c in range(len(headers[0])):
            column = int(re.search(r"(\d+)$", " ".join(h[c] for h in headers).strip()).group(1))
            found.setdefault(column, []).append([[line[c] for line in body[a:b]]
                                                 for a, b in zip(starts, [*starts[1:], len(body)])])
    return found


@settings(max_examples=150)
@given(sections(), st.integers(20, 200))
def test_prose_cells_are_flowed_whole_and_within_their_width(section, width):
    """:func:`flowed` changes only where a prose cell's lines end: its words are kept in order,
    each line within the width given unless it is a single wider word."""
    for room in (None, width):
        shown, widths = flowed(section, room), _prose_widths(section, range(len(section.header)), room)
        for before, after in zip(section.rows, shown.rows):
            for i in section.prose:
                assert str(after[i]).split() == str(before[i]).split()
                assert all(cell_len(line) <= widths[i] or " " not in line for line in str(after[i]).splitlines())
        assert flowed(shown, room) == shown  # flowing again changes nothing


@settings(max_examples=150)
@given(sections(), st.integers(20, 200))
# prose at half its preferred width in a part too narrow for it: rich wrapped it again, leaving
# lines of one word, and cut a word that filled its line to an ellipsis (字字字 …)
@example(Section("t", ["name0", "name1"], [["0", "a a aaaaaaa a a"]], align="Ll", prose={1: 25}), 20)
@example(Section("t", ["name0", "name1", "name2"], [["0", "", "a a 字字字字 a"]], align="Lll", prose={1: 1, 2: 19}), 20)
def test_a_table_with_prose_shows_each_word_once_in_order_and_fits_the_terminal(section, width):
    text = render(Report("r", [section]), "table", width=width)
    assert all(line == line.rstrip() for line in text.splitlines())
    flat = " ".join(text.split())
    left_out = re.search(r"Left out for width \d+: (.*?) \(", flat)
    dropped = left_out.group(1).split(", ") if left_out else []
    shown = _cells(text)
    for i in section.prose:
        if section.header[i] in dropped:
            continue
        assert shown[i], (i, text)
        for part in shown[i]:
            assert len(part) == len(section.rows), text
            for row, lines in zip(section.rows, part):
                assert " ".join(lines).split() == str(row[i]).split(), text
                inner = cell_len(lines[0]) - 2  # the column's width, less its padding
                for line, after in zip(lines, lines[1:]):  # wrapped once: no line could take the next word
                    if line.strip() and after.strip():
                        assert cell_len(line.strip()) + 1 + cell_len(after.split()[0]) > inner, text
    # wider than the terminal only as far as the key columns, folded as far as they fold, and the
    # widest other column (its longest word, for a column that wraps) need
    keys_folded = dataclasses.replace(section, rows=[[fold_label(str(c), 1) if k < section.keys else c
                                                      for k, c in enumerate(row)] for row in section.rows])
    assert max(map(cell_len, text.splitlines())) <= max(width, narrowest(keys_folded)), text


def test_prose_in_a_part_too_narrow_for_it_is_wrapped_once_to_that_part():
    """A prose column kept at half its preferred width (its narrowest where the table has other
    columns to print in parts) in a part with only the key columns, too narrow for it: rich
    wrapped its lines again, every other line one or two words (``ValueError: the`` /
    ``segmenter`` / ``returned boundaries`` / ``outside``). It is now wrapped once to the room
    that part leaves, down to its longest word."""
    error = ("ValueError: the segmenter returned boundaries outside the document: 0 is not between 1 and 11, "
             "every boundary must be")
    section = Section("Failures", ["segmenter", "document", "restart", "error"],
                      [["langchain_recursive", "wiki_00123", "initial segmentation", error]], align="LLll", keys=2,
                      prose={3: 60})
    text = render(Report("r", [section]), "table", width=60)
    lines = [line.split("│")[3].strip() for line in text.split("Part 2 of 2")[1].splitlines() if line.startswith("│")]
    assert lines == ["ValueError: the", "segmenter returned", "boundaries outside", "the document: 0 is",
                     "not between 1 and 11,", "every boundary must", "be"], text
    assert max(map(cell_len, text.splitlines())) <= 60
