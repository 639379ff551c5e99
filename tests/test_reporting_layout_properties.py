"""Row groups (:attr:`Section.row_groups`) and columns printed under others (:attr:`Section.under`)
in the terminal table: regressions found by the property tests."""

from __future__ import annotations

from rich.cells import cell_len

from stability.reporting import Report, Section, render
from stability.reporting.formats.table import table_width



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



def test_a_cell_under_a_column_that_wraps_is_never_cut():
    """A cell printed under a column that wraps (align ``l``) stands on a line indented by two:
    the narrowest table counted its longest word without that indent, and rich cut the word to
    fit the column two cells too narrow (``aaaaaaaaaaaaaaaaaaaaaaaaaa…``)."""
    word = "a" * 28
    section = Section("t0", ["name h0", "name h1", "name h2", "name h3", "name h4"], [["0", "", "", "", ""]],
                      align="LLlLL", footer=[["0", "", "", word, ""]], under={3: 2})
    text = render(Report("r", [section]), "table", width=40)
    assert f"   {word} " in text and "…" not in text, text



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
