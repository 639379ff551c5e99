"""The reStructuredText reader: section titles are the reference, body elements the units.

Expected units and boundaries are written by hand from the reStructuredText specification
(docutils' "reStructuredText Markup Specification": sections, literal blocks, explicit markup,
tables, inline markup); each test names the rule it checks.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stability.readers import CorpusWarning, detect_format, read_corpus
from stability.readers.common import NoTextError
from stability.readers.rst import read_rst


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def one(tmp_path, text, **options):
    return next(read_rst(write(tmp_path / "page.rst", text), **options))


def test_title_levels_follow_the_order_their_styles_first_appear(tmp_path):
    """Sections: a title underlined (or over- and underlined) by one repeated punctuation
    character; an overlined style differs from the same character underlined only, and the
    levels are the order of first appearance, whatever the characters."""
    page = ("#####\nBook\n#####\n\nPreface.\n\nPart\n~~~~\n\nIn part.\n\nChapter\n-------\n\nIn chapter.\n\n"
            "Another part\n~~~~~~~~~~~~\n\nMore.\n\n#####\n  Inset overlined  \n#####\n\nLast.\n")
    doc = one(tmp_path, page)
    assert doc.units == ("Preface.", "In part.", "In chapter.", "More.", "Last.")
    assert doc.meta["titles"] == ("Book", "Part", "Chapter", "Another part", "Inset overlined")
    assert doc.references[0].boundaries == (1, 2, 3, 4)
    by_level = one(tmp_path, page, levels=[1, 2])  # '#' overlined is 1, '~' is 2, '-' is 3
    assert by_level.meta["titles"] == ("Book", "Part", "Another part", "Inset overlined")
    assert by_level.references[0].boundaries == (1, 3, 4)


def test_an_underline_shorter_than_three_characters_and_its_title_is_text(tmp_path):
    doc = one(tmp_path, "Title\n==\n\nA line\nstill the paragraph.\n\nx\n-\n\nBody.\n")
    assert doc.units == ("Title ==", "A line still the paragraph.", "Body.")
    assert doc.meta["titles"] == (None, "x")


def test_literal_blocks_follow_a_double_colon_and_are_code(tmp_path):
    """Literal blocks: '::' ending a paragraph becomes ':' ("Paragraph::"), disappears after a space
    ("Paragraph ::") or with its line ("::" alone); the indented block after it is code, kept or
    dropped with ``code``."""
    page = ("Run this::\n\n    pip install x\n\n      indented more\n\nThen this ::\n\n  make\n\n::\n\n  raw\n\n"
            "After.\n")
    doc = one(tmp_path, page)
    assert doc.units == ("Run this:", "pip install x\n\n  indented more", "Then this", "make", "raw", "After.")
    assert one(tmp_path, page, code="drop").units == ("Run this:", "Then this", "After.")


def test_explicit_markup_shows_only_admonitions_and_code(tmp_path):
    """Explicit markup blocks ('..'): an admonition's body is prose, a code directive's body code
    (after its options); other directives, comments, targets, footnotes and substitution
    definitions are removed with their indented bodies."""
    page = (".. _intro:\n\nIntro.\n\n.. toctree::\n   :maxdepth: 2\n\n   usage\n   api\n\n"
            ".. image:: logo.png\n   :alt: Logo\n\n.. note::\n\n   Use a venv.\n\n   Always.\n\n"
            ".. warning:: Mind the gap.\n\n.. code-block:: python\n   :linenos:\n\n   x = 1\n   y = 2\n\n"
            ".. This is a comment\n   over two lines.\n\n.. |name| replace:: stability\n\n.. [1] A footnote.\n\n"
            ".. automodule:: stability\n   :members:\n\nEnd.\n")
    doc = one(tmp_path, page)
    assert doc.units == ("Intro.", "Use a venv.", "Always.", "Mind the gap.", "x = 1\ny = 2", "End.")
    assert one(tmp_path, page, code="drop").units == ("Intro.", "Use a venv.", "Always.", "Mind the gap.", "End.")


def test_tables_transitions_and_leading_fields_are_removed(tmp_path):
    """Grid and simple tables, transitions (a line of four or more punctuation characters between
    blank lines) and the fields opening a file (docinfo, Sphinx's ':orphan:') are not text."""
    page = (":orphan:\n:tocdepth: 2\n   continued\n\nFirst.\n\n+-----+-----+\n| a   | b   |\n+=====+=====+\n"
            "| 1   | 2   |\n+-----+-----+\n\n=====  =====\nA      B\n=====  =====\n1      2\n\n3      4\n=====  =====\n\n"
            "----------\n\nSecond.\n\n:field: in the body is text\n")
    assert one(tmp_path, page).units == ("First.", "Second.", ":field: in the body is text")


def test_inline_markup_gives_way_to_what_it_shows(tmp_path):
    """Inline markup: roles (a title before '<target>', the last name after '~'), hyperlinks,
    literals, emphasis, strong emphasis, substitution references and escapes show their text;
    footnote and citation references are removed."""
    page = ("Call :func:`len` or :meth:`~pkg.mod.Class.run`, see :ref:`the guide <guide>` and "
            "`Python <https://python.org>`_ or `docs`_, use ``x = 1``, *really* **now**, |name| "
            "twice [1]_ [#]_ [CIT2002]_, 2 \\* 3.\n")
    assert one(tmp_path, page).units == (
        "Call len or run, see the guide and Python or docs, use x = 1, really now, name twice, 2 * 3.",)


def test_block_quotes_lists_and_line_blocks_are_read_as_text(tmp_path):
    page = ("Lead.\n\n    Quoted paragraph\n    on two lines.\n\n    Another.\n\n- first item\n- second item\n\n"
            "1. one\n2. two\n\n#. auto\n\n| A line block\n| of two lines\n\n>>> print(1)\n1\n")
    doc = one(tmp_path, page)
    assert doc.units == ("Lead.", "Quoted paragraph on two lines.", "Another.", "first item second item", "one two",
                         "auto", "A line block of two lines", ">>> print(1)\n1")
    assert one(tmp_path, page, code="drop").units[-1] == "A line block of two lines"  # a doctest block is code


def test_sentences_are_split_as_in_markdown(tmp_path):
    doc = one(tmp_path, "Title\n=====\n\nOne here. Two there.\n\nNext\n====\n\nThree.\n", unit="sentence",
              splitter="rules")
    assert doc.units == ("One here.", "Two there.", "Three.")
    assert doc.references[0].boundaries == (2,)
    assert doc.meta["unit_separators"] == (" ", "\n\n")


def test_a_folder_of_rst_and_markdown_pages_is_one_corpus(tmp_path):
    """A Sphinx project may hold Markdown pages (MyST) beside its .rst ones: one corpus, each
    page read by its format's reader, every page's paragraphs training one sentence splitter."""
    docs = tmp_path / "docs"
    write(docs / "index.rst", "Project\n=======\n\nWelcome here. Read on.\n\nInstall\n=======\n\nUse pip.\n")
    write(docs / "guide" / "usage.md", "# Usage\n\nCall it. Then stop.\n\n# API\n\nSee below.\n")
    write(docs / "conf.py", "project = 'demo'\n")
    assert detect_format(docs / "index.rst") == "rst"
    with pytest.warns(CorpusWarning, match=r"pages of 2 formats, 1 markdown \('guide/usage.md'\) and 1 rst"):
        documents = list(read_corpus(docs, unit="sentence", splitter="rules"))
    assert [(d.id, d.meta["format"], d.units, d.references[0].boundaries) for d in documents] == [
        ("guide/usage.md", "markdown", ("Call it.", "Then stop.", "See below."), (2,)),
        ("index.rst", "rst", ("Welcome here.", "Read on.", "Use pip."), (2,)),
    ]
    assert [d.id for d in read_corpus(docs, format="restructuredtext")] == ["index.rst"]


def test_a_page_of_directives_only_is_left_out_as_an_empty_page(tmp_path):
    docs = tmp_path / "docs"
    write(docs / "index.rst", "Project\n=======\n\n.. toctree::\n\n   usage\n")
    write(docs / "usage.rst", "Usage\n=====\n\nCall it.\n")
    with pytest.warns(CorpusWarning, match="index.rst"):
        assert [d.id for d in read_corpus(docs)] == ["usage.rst"]
    with pytest.raises(NoTextError, match="expected some text besides headings"):
        list(read_rst(docs / "index.rst"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["Title", "=====", "-----", "::", "  indented", ".. note::", ".. toctree::",
                                 "   body", "", ":field: x", "+---+", "| a |", "===  ===", "Text *em* `x <y>`_.",
                                 ">>> 1", "- item", "``lit``", "|sub|", "\\*", ":func:`~a.b`", "#####"]),
                max_size=30))
def test_any_arrangement_of_constructs_is_read_without_crashing(tmp_path_factory, lines):
    path = write(tmp_path_factory.mktemp("fuzz") / "page.rst", "\n".join(lines) + "\n")
    try:
        doc = next(read_rst(path))
    except NoTextError:
        return
    assert doc.units and all(isinstance(unit, str) and unit for unit in doc.units)
    assert len(doc.meta["titles"]) == len(doc.references[0].boundaries) + 1


def test_only_a_list_loses_its_markers(tmp_path):
    """Enumerators look like words ending a sentence ('did.', 'C.'): a line of prose starting with
    one keeps it; the lines of a paragraph that opens with a list item lose theirs."""
    doc = one(tmp_path, "We tried and then we\ndid. Then it\nworked.\n\na) first\nb) second\n")
    assert doc.units == ("We tried and then we did. Then it worked.", "first second")


def test_object_descriptions_are_read_without_their_signatures(tmp_path):
    """An API page written by hand is mostly object descriptions (Python's own documentation:
    '.. function:: len(s)' and an indented description); the description is what the page says,
    the signature is not prose. Domain-named directives ('py:method') are descriptions too;
    '.. module::' and '.. py:module::' have no text."""
    page = (".. module:: shapes\n   :synopsis: Shapes.\n\n.. function:: area(shape)\n\n   Return the area.\n\n"
            "   .. versionadded:: 1.2\n      Added for circles.\n\n.. py:method:: Shape.grow(factor)\n   :noindex:\n\n"
            "   Grow it.\n\n.. py:module:: other\n\n.. envvar:: SHAPES_HOME\n\n   Where shapes live.\n")
    assert one(tmp_path, page).units == ("Return the area.", "Added for circles.", "Grow it.", "Where shapes live.")
