"""Markdown files: headings are the reference and are removed; blocks are the units.

Expected values are worked out by hand from the CommonMark rules the reader follows (ATX and
setext headings, fenced code, thematic breaks), written next to each case.
"""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stability import CorpusFormatError, CorpusWarning, InvalidParameterError
from stability.readers import detect_format, read_corpus, read_markdown


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


GUIDE = """---
title: A guide
tags: [a, b]
---

Some intro that
runs over two lines.

# Install #

<!-- a comment
over two lines -->
Use pip.

```bash
pip install thing

# not a heading: inside the fence
```

<details>

Hidden but read.

</details>

## From source
### Requirements

A compiler.

***

Usage
=====

- a list item
- another one

Notes
-----

| a | b |
|---|---|
| 1 | 2 |

[guide]: https://example.org/guide "The guide"
[other]: other.html
"""


def test_blocks_headings_and_titles(tmp_path):
    doc = next(read_markdown(write(tmp_path / "guide.md", GUIDE)))
    assert doc.units == (
        "Some intro that runs over two lines.",  # front matter removed, lines joined
        "Use pip.",  # the comment is removed
        "pip install thing # not a heading: inside the fence",  # code: one unit, blank line dropped
        "Hidden but read.",  # tag-only lines removed
        "A compiler.",  # "From source" has no text of its own: not a segment
        "- a list item - another one",  # the break *** is removed; setext heading level 1
        "| a | b | |---|---| | 1 | 2 |",  # setext heading level 2 above
    )
    # segments: intro | Install (3 units) | Requirements | Usage | Notes
    assert doc.references[0].boundaries == (1, 4, 5, 6)
    assert doc.meta["titles"] == (None, "Install", "Requirements", "Usage", "Notes")
    assert doc.meta["format"] == "markdown" and doc.meta["code_blocks"] == 1 and doc.meta["notes"] == []
    assert doc.meta["levels"] is None and doc.meta["unit"] == "paragraph" and doc.meta["splitter"] is None


@pytest.mark.parametrize(
    "levels, boundaries, titles",
    [
        (1, (1, 5), (None, "Install", "Usage")),  # '#' and '===' headings only
        # level 2 counts: "From source" holds "A compiler." (Requirements, level 3, is removed)
        ("1-2", (1, 4, 5, 6), (None, "Install", "From source", "Usage", "Notes")),
        ([3], (4,), (None, "Requirements")),
    ],
)
def test_levels_choose_the_boundaries(tmp_path, levels, boundaries, titles):
    doc = next(read_markdown(write(tmp_path / "guide.md", GUIDE), levels=levels))
    assert doc.references[0].boundaries == boundaries
    assert doc.meta["titles"] == titles


def test_code_can_be_dropped_and_sentences_split(tmp_path):
    file = write(tmp_path / "guide.md", GUIDE)
    doc = next(read_markdown(file, code="drop", unit="sentence", splitter="rules"))
    assert "pip install thing # not a heading: inside the fence" not in doc.units
    assert doc.units[:2] == ("Some intro that runs over two lines.", "Use pip.")
    assert doc.meta["code_blocks"] == 1  # counted, dropped
    assert doc.references[0].boundaries == (1, 3, 4, 5)


def test_sentences_never_cross_a_paragraph_and_code_stays_whole(tmp_path):
    file = write(tmp_path / "a.md", "One. Two.\n\n```\nx = 1. y = 2.\n```\n\n# H\n\nThree. Four.\n")
    doc = next(read_markdown(file, unit="sentence", splitter="rules"))
    assert doc.units == ("One.", "Two.", "x = 1. y = 2.", "Three.", "Four.")
    assert doc.references[0].boundaries == (3,)


def test_each_gap_records_the_whitespace_the_page_puts_there(tmp_path):
    """meta["unit_separators"], one per gap (what a text chunker joins the units with): a blank line
    between blocks, across a heading or a dropped code block too; by sentences, a space inside a
    block but a newline before a sentence that starts a list item or a table row; in a paragraph
    whose markup spans two lines, markup="text" cannot measure its lines: a space."""
    file = write(tmp_path / "a.md", "One. Two\nthree.\n\n```\nx = 1\n```\n\n# H\n\n- Four. Five.\n- Six.\n\n"
                                    "| Seven. |\n|---|\n| Nine. |\n\n- Ten *tea.\n- Eleven* b.\n")
    assert next(read_markdown(file)).meta["unit_separators"] == ("\n\n",) * 4
    assert next(read_markdown(file, code="drop")).meta["unit_separators"] == ("\n\n",) * 3
    keep = next(read_markdown(file, unit="sentence", splitter="rules", code="drop"))
    assert keep.units == ("One.", "Two three.", "- Four.", "Five.", "- Six.", "| Seven.", "| |---| | Nine.", "|",
                          "- Ten *tea.", "- Eleven* b.")
    # "Two" ends a line, not a list item: a space; the table's sentences start after its rows' pipes: spaces
    assert keep.meta["unit_separators"] == (" ", "\n\n", " ", "\n", "\n\n", " ", " ", "\n\n", "\n")
    text = next(read_markdown(file, unit="sentence", splitter="rules", code="drop", markup="text"))
    assert text.units == ("One.", "Two three.", "Four.", "Five.", "Six.", "Seven.", "Nine.", "Ten tea.", "Eleven b.")
    # the rows' sentences each start a row now; the emphasis over the last two items hides where they start
    assert text.meta["unit_separators"] == (" ", "\n\n", " ", "\n", "\n\n", "\n", "\n\n", " ")


@pytest.mark.parametrize(
    "line, heading",
    [
        ("# Title", True),
        ("   ### Title ###", True),
        ("#", True),  # an empty heading
        ("#hashtag", False),  # no space: text
        ("    # indented four", False),  # four spaces: not a heading
        ("####### seven", False),
    ],
)
def test_atx_headings(tmp_path, line, heading):
    doc = next(read_markdown(write(tmp_path / "a.md", f"before\n\n{line}\n\nafter\n")))
    assert doc.references[0].boundaries == ((1,) if heading else ())
    assert len(doc.units) == (2 if heading else 3)


def test_closing_hashes_are_not_part_of_the_title(tmp_path):
    doc = next(read_markdown(write(tmp_path / "a.md", "x\n\n## Setup ##\n\ny\n\n## C# tips\n\nz\n")))
    assert doc.meta["titles"] == (None, "Setup", "C# tips")


def test_an_unclosed_fence_runs_to_the_end_with_a_warning(tmp_path):
    file = write(tmp_path / "a.md", "Text.\n\n~~~~\ncode\n~~~\n# still code\n")
    with pytest.warns(CorpusWarning, match=r"a\.md: the code fence opened at line 3 is never closed"):
        doc = next(read_markdown(file))
    assert doc.units == ("Text.", "code ~~~ # still code")  # '~~~' is shorter than the opening '~~~~'
    assert doc.references[0].boundaries == ()
    assert len(doc.meta["notes"]) == 1


def test_front_matter_needs_its_closing_line(tmp_path):
    # never closed: the first '---' is a thematic break and the rest is text
    doc = next(read_markdown(write(tmp_path / "a.md", "---\ntitle: x\n\nBody.\n")))
    assert doc.units == ("title: x", "Body.")


def test_a_rule_followed_by_a_blank_line_opens_no_front_matter(tmp_path):
    # a page opening with a thematic break and holding another one: the text between the two was
    # taken for front matter and dropped without a word; pandoc's rule (YAML metadata is not
    # followed by a blank line) tells them apart, as GitHub shows the page: two rules and its text
    doc = next(read_markdown(write(tmp_path / "a.md", "---\n\nText one.\n\n---\n\nText two.\n")))
    assert doc.units == ("Text one.", "Text two.")
    front = next(read_markdown(write(tmp_path / "b.md", "---\ntitle: x\n\ntags: [a]\n---\n\nText one.\n")))
    assert front.units == ("Text one.",)  # blank lines inside front matter are fine


def test_a_file_with_only_headings_is_an_error_naming_it(tmp_path):
    file = write(tmp_path / "empty.md", "# One\n\n## Two\n<!-- nothing -->\n")
    with pytest.raises(CorpusFormatError, match=r"empty\.md.*expected some text besides headings; the file has none"):
        next(read_markdown(file))
    code_only = write(tmp_path / "code.md", "# One\n\n```\nx\n```\n")
    assert next(read_markdown(code_only)).units == ("x",)
    with pytest.raises(CorpusFormatError, match="besides headings and code"):
        next(read_markdown(code_only, code="drop"))


@pytest.mark.parametrize(
    "options, match",
    [
        ({"code": "strip"}, "code"),
        ({"unit": "line"}, "unit"),
        ({"levels": 0}, "levels"),
        ({"levels": 9}, r"levels must be heading levels from 1 to 6 .*; received 9"),  # there is no #######
        ({"levels": "1-7"}, r"levels must be heading levels from 1 to 6 .*; received '1-7'"),
        ({"splitter": "rules"}, "splitter applies only to unit='sentence'"),
    ],
)
def test_bad_options_are_named(tmp_path, options, match):
    file = write(tmp_path / "a.md", "x\n")
    with pytest.raises(InvalidParameterError, match=match):
        read_markdown(file, **options)


def test_detected_from_the_extension_and_read_through_read_corpus(tmp_path):
    write(tmp_path / "docs" / "b.markdown", "# B\n\nb text\n")
    write(tmp_path / "docs" / "a.md", "# A\n\na text\n\n# A2\n\nmore\n")
    write(tmp_path / "docs" / "notes.txt", "ignored by the default patterns\n")
    assert detect_format(tmp_path / "docs") == "markdown"
    docs = list(read_corpus(tmp_path / "docs", levels=1))
    assert [d.id for d in docs] == ["a.md", "b.markdown"]
    assert [d.references[0].boundaries for d in docs] == [(1,), ()]
    assert [d.id for d in read_corpus(tmp_path / "docs", "md", limit=1)] == ["a.md"]


# A Markdown file made of blocks: every heading removed, every other block a unit.
_word = st.text(alphabet="abcdefg", min_size=1, max_size=6)
_block = st.one_of(
    st.tuples(st.just("h"), st.integers(1, 6), _word),
    st.tuples(st.just("p"), st.just(0), st.lists(_word, min_size=1, max_size=4).map(" ".join)),
    st.tuples(st.just("c"), st.just(0), _word),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_block, min_size=1, max_size=12).filter(lambda bs: any(b[0] != "h" for b in bs)))
def test_every_block_round_trips(tmp_path_factory, blocks):
    """Written blocks come back: units in order, a boundary wherever a heading precedes text."""
    parts, units, boundaries, pending = [], [], [], False
    for kind, level, text in blocks:
        if kind == "h":
            parts.append(f"{'#' * level} {text}")
            pending = True
            continue
        parts.append(f"```\n{text}\n```" if kind == "c" else text)
        if pending and units:
            boundaries.append(len(units))
        pending = False
        units.append(text)
    file = tmp_path_factory.mktemp("md") / "x.md"
    file.write_text("\n\n".join(parts) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doc = next(read_markdown(file))
    assert doc.units == tuple(units)
    assert doc.references[0].boundaries == tuple(boundaries)


def test_link_definitions_are_removed_but_do_not_interrupt_a_paragraph(tmp_path):
    file = write(tmp_path / "a.md", "See [x].\n\n[x]: https://x.org\n[y]: y.html 'Y'\n\nText\n[z]: not.removed\n")
    assert next(read_markdown(file)).units == ("See [x].", "Text [z]: not.removed")


@pytest.mark.parametrize(
    "text, kept, dropped",
    [
        # an indented block after a blank line is code, blank lines inside it included
        ("Text.\n\n    code line\n\n    more code\n\nAfter.\n", ("Text.", "code line more code", "After."),
         ("Text.", "After.")),
        ("Text.\n\n\tx = 1\n", ("Text.", "x = 1"), ("Text.",)),  # a tab counts as four columns
        # indented lines after a list item continue it: not code
        ("- item\n\n    continued\n\nAfter.\n", ("- item", "continued", "After."), ("- item", "continued", "After.")),
        ("1. step\n\n    more of it\n    and more\n", ("1. step", "more of it and more"), ("1. step", "more of it and more")),
        # an indented line cannot interrupt a paragraph
        ("Para\n    still para\n", ("Para still para",), ("Para still para",)),
        # after a list, a paragraph that is not indented ends it: the next indented block is code
        ("- item\n\nPlain.\n\n    code\n", ("- item", "Plain.", "code"), ("- item", "Plain.")),
    ],
)
def test_indented_code_blocks(tmp_path, text, kept, dropped):
    file = write(tmp_path / "a.md", text)
    assert next(read_markdown(file)).units == kept
    assert next(read_markdown(file, code="drop")).units == dropped


@pytest.mark.parametrize(
    "text, kept, dropped",
    [
        # a fence indented as a list item's content is a fence: one unit, its blank line inside it
        ("* Step one:\n\n    ```bash\n    # clone\n    git clone x\n\n    cd x\n    ```\n\nAfter.\n",
         ("* Step one:", "# clone git clone x cd x", "After."), ("* Step one:", "After.")),
        # right under the item's line, and under a nested item whose content starts at column 6
        ("   * On Linux:\n     ```bash\n     npx x \\\n         --y\n     ```\n",
         ("* On Linux:", "npx x \\ --y"), ("* On Linux:",)),
        ("* `a` {Function}\n  * `b` {Object}\n    * `c` {Object} The c:\n      ```mjs\n      import c;\n      ```\n"
         "      More of c.\n", ("* `a` {Function} * `b` {Object} * `c` {Object} The c:", "import c;", "More of c."),
         ("* `a` {Function} * `b` {Object} * `c` {Object} The c:", "More of c.")),
        ("1. step\n\n\t~~~\n\tx = 1\n\t~~~\n", ("1. step", "x = 1"), ("1. step",)),  # a tab is four columns
        # outside a list, four spaces make an indented code block, fence lines included (CommonMark)
        ("Text.\n\n    ```\n    x\n    ```\n", ("Text.", "``` x ```"), ("Text.",)),
    ],
)
def test_a_fence_in_a_list_item_may_be_indented_as_its_content(tmp_path, text, kept, dropped):
    file = write(tmp_path / "a.md", text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every fence is closed
        doc = next(read_markdown(file))
        assert doc.units == kept and doc.meta["code_blocks"] == 1
        assert next(read_markdown(file, code="drop")).units == dropped


@settings(max_examples=100, deadline=None)
@given(marker=st.sampled_from(["*", "-", "1.", "10)"]), spaces=st.integers(1, 4), extra=st.integers(0, 3),
       body=st.lists(st.sampled_from(["x = 1", "", "# not a heading", "- not an item", "    deeper"]), max_size=5))
def test_a_fence_anywhere_in_a_list_items_indentation_is_one_code_unit(tmp_path_factory, marker, spaces, extra, body):
    pad = " " * (len(marker) + spaces + extra)
    text = f"{marker}{' ' * spaces}item\n\n{pad}```\n" + "".join(f"{pad}{line}\n" for line in body) + f"{pad}```\n\nAfter.\n"
    file = write(tmp_path_factory.mktemp("md") / "a.md", text)
    code = " ".join(line.strip() for line in body if line)
    item = f"{marker}{' ' * spaces}item"
    assert next(read_markdown(file)).units == (item, *([code] if code else []), "After.")
    assert next(read_markdown(file, code="drop")).units == (item, "After.")


@pytest.mark.parametrize("markup", ["keep", "text"])
def test_text_after_a_comment_on_its_closing_line_is_kept(tmp_path, markup):
    file = write(tmp_path / "a.md", "<!-- lint-disable --> This sentence follows a comment.\n\n<!--introduced_in=v0.10.0-->\n\n"
                                    "<!-- a\nlonger comment\n--> Tail text.\nNext line.\n\n<!-- x --></div>\n<!-- y --> <!-- z -->\n")
    doc = next(read_markdown(file, markup=markup))
    assert doc.units == ("This sentence follows a comment.", "Tail text.", "Next line.")  # tags and comments alone: nothing


# what the reader read before the fixes of list fences, code spans in links and text after comments
ORDINARY = """Intro with `code`, a [link](https://x.org) and *emphasis*.

* item one
* item two

    continued item

- [ ] task
  ```
  inside fence
  ```

Plain.

    indented code

<!-- whole-line comment -->
<!-- over
two lines -->
Last `a` and `b`.
"""


def test_ordinary_documents_read_as_before(tmp_path):
    file = write(tmp_path / "a.md", ORDINARY)
    assert next(read_markdown(file)).units == (
        "Intro with `code`, a [link](https://x.org) and *emphasis*.", "* item one * item two", "continued item",
        "- [ ] task", "inside fence", "Plain.", "indented code", "Last `a` and `b`.")
    assert next(read_markdown(file, markup="text", code="drop")).units == (
        "Intro with code, a link and emphasis.", "item one item two", "continued item", "task", "Plain.",
        "Last a and b.")


def test_a_list_item_is_not_a_setext_heading(tmp_path):
    # under a list item '---' is a thematic break and '===' is text (CommonMark), not an underline
    file = write(tmp_path / "a.md", "- one\n---\n\n- two\n===\n\nTitle\n---\n\nText.\n")
    doc = next(read_markdown(file))
    assert doc.units == ("- one", "- two ===", "Text.")
    assert doc.references[0].boundaries == (2,) and doc.meta["titles"] == (None, "Title")


@pytest.mark.parametrize("splitter", ["auto", "punkt"])
def test_sentence_splitters_that_learn_read_the_paragraphs_of_every_file(tmp_path, splitter):
    # "punkt" trains on the corpus before the first document; "auto" picks rules for so little text
    write(tmp_path / "a.md", "# A\n\nDr. Smith left. He came back.\n\n```\nnot. prose.\n```\n")
    write(tmp_path / "b.md", "Mr. Lee stayed. Then he left.\n")
    docs = list(read_markdown(tmp_path, unit="sentence", splitter=splitter))
    assert [d.meta["splitter"] for d in docs] == [splitter, splitter]
    assert [d.units for d in docs] == [("Dr. Smith left.", "He came back.", "not. prose."),  # code is never split
                                       ("Mr. Lee stayed.", "Then he left.")]


# markup="text": each case worked out by hand from CommonMark's inline rules (what a renderer shows)
@pytest.mark.parametrize(
    "source, shown",
    [
        ("Use *this* and **that**, ***both*** or ~~not~~.", "Use this and that, both or not."),
        ("_one_ and __two__ but snake_case_name stays", "one and two but snake_case_name stays"),
        ("2 * 3 * 4 is 24", "2 * 3 * 4 is 24"),  # a star followed by a space opens nothing
        ("Call `String::from(\"*a*\")`, then ``a ` b``.", "Call String::from(\"*a*\"), then a ` b."),  # code as written
        ("See [the guide](https://x.org/g \"Guide\") and [ch. 3][data-types]<!-- ignore -->.",
         "See the guide and ch. 3."),
        ("An ![old logo](logo.png) in [![a badge](b.svg)](https://ci.org), or <https://x.org/a>.",
         "An old logo in a badge, or https://x.org/a."),
        ("<span class=\"caption\">Figure 4-1: the &quot;hello&quot; &amp; more</span>", "Figure 4-1: the \"hello\" & more"),
        ("Not \\*emphasis\\*, not \\[a link\\](x), a \\`tick\\`.", "Not *emphasis*, not [a link](x), a `tick`."),
        # a link or emphasis around a code span loses its markup too
        ("Call [`require()`][require] or [`Worker`][] or see [`fs.open()`](https://x). **Never use `eval` here.**",
         "Call require() or Worker or see fs.open(). Never use eval here."),
        ("_`a`_ and *`b` c* or `*not*` and `[x](y)`", "a and b c or *not* and [x](y)"),
    ],
)
def test_markup_text_shows_what_a_reader_sees(tmp_path, source, shown):
    file = write(tmp_path / "a.md", f"# Title\n\n{source}\n")
    assert next(read_markdown(file)).units == (source,)  # keep: as written
    doc = next(read_markdown(file, markup="text"))
    assert doc.units == (shown,) and doc.meta["markup"] == "text"


def test_markup_text_reads_quotes_lists_and_tables_as_text(tmp_path):
    file = write(tmp_path / "a.md", (
        "# The `String` type\n\n"
        "Intro with a [link][x].\n\n"
        "> ### The stack and the heap\n>\n> First quoted paragraph\n> goes on.\n>\n> > Nested *quote*.\n\n"
        "- one item\n- [x] a done task\n1. a step\n\n"
        "| name | value |\n| :--- | ---: |\n| a \\| b | `1` |\n\n"
        "## Next <small>part</small>\n\n```\n> kept *as* `code`\n```\n\nEnd.\n"
    ))
    kept = next(read_markdown(file))
    assert kept.units[1].startswith("> ### The stack and the heap > > First quoted")  # one block, markers kept
    doc = next(read_markdown(file, markup="text"))
    assert doc.units == (
        "Intro with a link.",
        # ">" alone ends a quoted paragraph; the quoted heading is dropped and starts no segment
        "First quoted paragraph goes on.",
        "Nested quote.",
        "one item a done task a step",  # a list is one block, its markers gone
        "name value a | b 1",  # the delimiter row is dropped, pipes are spaces (an escaped one stays)
        "> kept *as* `code`",  # code blocks are never rendered
        "End.",
    )
    assert doc.references[0].boundaries == (5,)
    assert doc.meta["titles"] == ("The String type", "Next part")


def test_markup_text_feeds_the_sentence_splitter_rendered_paragraphs(tmp_path):
    file = write(tmp_path / "a.md", "A **bold** claim. See [the guide](https://x.org/a.b). Done.\n")
    assert next(read_markdown(file, markup="text", unit="sentence", splitter="rules")).units == (
        "A bold claim.", "See the guide.", "Done.")


_wrap = st.sampled_from(["{}", "*{}*", "**{}**", "_{}_", "`{}`", "[{}](https://x.org/p?q=1)", "<b>{}</b>",
                         "![{}](i.png)", "~~{}~~", "[{}][ref]", "{}<!-- note -->"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_word, _wrap), min_size=1, max_size=10), st.sampled_from(["", "> ", "- ", "1. "]))
def test_markup_text_leaves_only_the_words(tmp_path_factory, words, prefix):
    """However words are marked up (inline, or in a quote or list item), the text is the words."""
    source = " ".join(wrap.format(word) for word, wrap in words)
    file = tmp_path_factory.mktemp("md") / "x.md"
    file.write_text(f"# T\n\n{prefix}{source}\n")
    assert next(read_markdown(file, markup="text")).units == (" ".join(word for word, _ in words),)


# Block structure against CommonMark. Each case was checked by hand against the CommonMark 0.31
# specification (sections named) and against markdown-it-py, the parser rich already installs.
@pytest.mark.parametrize(
    "text, kept, dropped",
    [
        # 4.6 HTML blocks: a block-level tag runs to the next blank line; its indented lines are
        # its text, not an indented code block (the tables of Node.js's os.md and readline.md)
        ("<table>\n  <tr>\n    <td>SIGHUP</td>\n    <td>Sent when the terminal closes.</td>\n  </tr>\n</table>\n",
         ("<td>SIGHUP</td> <td>Sent when the terminal closes.</td>",),
         ("<td>SIGHUP</td> <td>Sent when the terminal closes.</td>",)),
        # 4.6, condition 1: <pre> runs to its closing tag, blank lines included: code, tags removed
        ("Text.\n\n<pre><code>x = 1\n\ny &lt; 2\n</code></pre>\n\nAfter.\n", ("Text.", "x = 1 y < 2", "After."),
         ("Text.", "After.")),
        # a script or a style is not shown at all
        ("Text.\n\n<script>\nvar x = 1;\n</script>\n<style>\np { color: red }\n</style>\n\nAfter.\n",
         ("Text.", "After."), ("Text.", "After.")),
        # 5.2 list items: after a blank line, four columns past the item's content is indented code
        ("- Examples import it as:\n\n      import pyparsing as pp\n      ppc = pp.common\n\n- Next.\n",
         ("- Examples import it as:", "import pyparsing as pp ppc = pp.common", "- Next."),
         ("- Examples import it as:", "- Next.")),
        # 5.1 block quotes: a fence inside a quote is code, the quote's markers removed
        ("> Note:\n>\n> ```powershell\n> git clone -c core.symlinks=true <url>\n> ```\n\nAfter.\n",
         ("> Note: >", "git clone -c core.symlinks=true <url>", "After."), ("> Note: >", "After.")),  # as written
        # ... and it ends with the quote when its fence is never closed (no warning: the quote ends it)
        ("> ```js\n> const a = 1\n\nAfter.\n", ("const a = 1", "After."), ("After.",)),
        # 5.2: a list item whose content is a fence; its closing fence is indented as that content
        ("* Tag it:\n  * ```\n    git tag -s x\n    ```\n* Publish.\n",
         ("* Tag it:", "git tag -s x", "* Publish."), ("* Tag it:", "* Publish.")),
    ],
)
def test_html_blocks_quotes_and_list_items_hold_their_code_as_commonmark_does(tmp_path, text, kept, dropped):
    file = write(tmp_path / "a.md", text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fence is read as never closed
        assert next(read_markdown(file)).units == kept
        assert next(read_markdown(file, code="drop")).units == dropped


def test_html_block_text_is_shown_without_its_tags(tmp_path):
    file = write(tmp_path / "a.md", "# Signals\n\n<table>\n  <tr>\n    <td><code>SIGINT</code></td>\n"
                                    "    <td>Sent on <kbd>Ctrl</kbd>+<kbd>C</kbd>.</td>\n  </tr>\n</table>\n")
    assert next(read_markdown(file, markup="text", code="drop")).units == ("SIGINT Sent on Ctrl+C.",)


def test_an_anchor_before_a_heading_does_not_hide_it(tmp_path):
    """4.6: two tags on a line are inline HTML, not an HTML block, so the heading below counts."""
    file = write(tmp_path / "a.md", "Intro.\n\n<a id=\"overview\"></a>\n## Overview\n\nText.\n")
    doc = next(read_markdown(file))
    assert doc.meta["titles"] == (None, "Overview") and doc.references[0].boundaries == (1,)


def test_pipes_split_cells_only_in_a_table(tmp_path):
    """A line ending with "|" is not a table row without a delimiter row (GitHub's tables)."""
    file = write(tmp_path / "a.md", "* `ALPNProtocols`: {string[]|Buffer[]|\n  TypedArray|DataView}\n\n"
                                    "| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert next(read_markdown(file, markup="text")).units == (
        "ALPNProtocols: {string[]|Buffer[]| TypedArray|DataView}", "a b 1 2")


_md_line = st.text(alphabet="abcdef", min_size=1, max_size=5).map(lambda w: w + " " + w[::-1])
_md_block = st.one_of(
    st.tuples(st.just("heading"), st.integers(1, 6), _md_line),
    st.tuples(st.just("paragraph"), st.just(0), _md_line),
    st.tuples(st.just("item"), st.sampled_from(["- ", "* ", "1. ", "10) "]), _md_line),
    st.tuples(st.just("item_code"), st.sampled_from(["- ", "1. "]), _md_line),
    st.tuples(st.just("item_fence"), st.sampled_from(["- ", "  * ", "1. "]), _md_line),
    st.tuples(st.just("quote"), st.just(0), _md_line),
    st.tuples(st.just("quote_fence"), st.sampled_from(["> ", ">"]), _md_line),
    st.tuples(st.just("html"), st.sampled_from(["table", "div", "details"]), _md_line),
    st.tuples(st.just("indented"), st.just(0), _md_line),
    st.tuples(st.just("fence"), st.sampled_from(["```", "~~~~"]), _md_line),
)


def _write_block(kind, arg, line):
    return {
        "heading": lambda: f"{'#' * arg} {line}",
        "paragraph": lambda: line,
        "item": lambda: f"{arg}{line}",
        "item_code": lambda: f"{arg}{line}\n\n{' ' * (len(arg) + 4)}{line}",
        "item_fence": lambda: f"{arg}{line}\n{' ' * (len(arg) - len(arg.lstrip()))}{arg.strip()} ```\n"
                              f"{' ' * len(arg)}  {line}\n{' ' * len(arg)}```",
        "quote": lambda: f"> {line}",
        "quote_fence": lambda: f"{arg}```\n{arg}{line}\n{arg}\n{arg}```",
        "html": lambda: f"<{arg}>\n    {line}\n        {line}\n</{arg}>",
        "indented": lambda: f"    {line}",
        "fence": lambda: f"{arg}\n{line}\n\n    {line}\n{arg}",
    }[kind]()


@settings(max_examples=200, deadline=None)
@given(st.lists(_md_block, min_size=1, max_size=10))
def test_headings_and_code_blocks_agree_with_a_commonmark_parser(tmp_path_factory, blocks):
    """Fuzzed documents of headings, paragraphs, list items (with indented and fenced code), block
    quotes (with fences), HTML blocks and code blocks: the headings, the code and the words of the
    rest come out as markdown-it-py, a CommonMark parser, reads them (HTML blocks as their text)."""
    markdown_it = pytest.importorskip("markdown_it")
    import html
    import re

    source = "\n\n".join(_write_block(*block) for block in blocks) + "\n"
    tokens = markdown_it.MarkdownIt("commonmark").parse(source)
    headings, code, words = [], [], []
    for before, token in zip([None, *tokens], tokens):
        if token.type == "inline" and before is not None and before.type == "heading_open":
            headings.append((int(before.tag[1]), token.content))
        elif token.type in ("fence", "code_block"):
            code.append(" ".join(line.strip() for line in token.content.splitlines() if line.strip()))
        elif token.type == "html_block":
            words.extend(html.unescape(re.sub(r"<[^>]*>", " ", token.content)).split())
        elif token.type == "inline":
            words.extend(token.content.split())
    file = tmp_path_factory.mktemp("md") / "x.md"
    file.write_text(source)
    from stability.readers.markdown import _blocks

    ours = list(_blocks(source.splitlines(), file, [], "text"))
    assert [(b.level, b.text) for b in ours if b.kind == "heading"] == headings
    assert [b.text for b in ours if b.kind == "code"] == code
    assert [w for b in ours if b.kind == "paragraph" for w in b.text.split()] == words


# the regular expressions markup="text" removed emphasis with until it took quadratic time: the
# reference the linear scan must agree with on every text
_EMPHASIS_REGEX = re.compile(r"(\*{1,3}|~~)(?=\S)(.+?)(?<=\S)\1")
_UNDERSCORE_REGEX = re.compile(r"(?<!\w)(_{1,3})(?=\S)(.+?)(?<=\S)\1(?!\w)")


def read_rendered_within_a_minute(file):
    """The document of ``file`` read with markup="text", or TimeoutError after 60 s: a hang guard
    for a long paragraph that takes well under a second (no timing is asserted)."""
    import signal

    def hang(signum, frame):
        raise TimeoutError(f"markup='text' took over 60 s on {file.stat().st_size} bytes: quadratic again")
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(60)
    try:
        return next(read_markdown(file, markup="text"))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="*_~ a\n\u00e9.\t", max_size=40))
def test_emphasis_is_removed_as_the_regular_expressions_remove_it(text):
    from stability.readers.markdown import _EMPHASIS_DELIMITERS, _UNDERSCORE_DELIMITERS, _unemphasised
    assert _unemphasised(text, _EMPHASIS_DELIMITERS) == _EMPHASIS_REGEX.sub(r"\2", text)
    assert _unemphasised(text, _UNDERSCORE_DELIMITERS, in_words=False) == _UNDERSCORE_REGEX.sub(r"\2", text)


def test_a_long_paragraph_of_unclosed_emphasis_reads_in_linear_time(tmp_path):
    # a 300 kB paragraph of 'a * b' (a formula, a log) with markup="text": each '*' was tried
    # against the rest of the paragraph, about an hour; the guard is a hang guard, far above the
    # fraction of a second it takes (no timing is asserted)
    file = write(tmp_path / "long.md", "# Notes\n\n" + "x * y and _z " * 25_000 + "**end**\n")
    doc = read_rendered_within_a_minute(file)
    assert doc.units == (("x * y and _z " * 25_000).strip() + " end",)


_TARGET_REGEX = r"(?:\([^)]*\)|\[[^\]]*\])"
_COMMENT_REGEX = re.compile(r"<!--.*?-->")
_IMAGE_REGEX = re.compile(rf"!\[([^\]]*)\]{_TARGET_REGEX}")
_LINK_REGEX = re.compile(rf"\[([^\]]+)\]{_TARGET_REGEX}")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="[]()!<>-a \n", max_size=40))
def test_links_and_comments_are_removed_as_the_regular_expressions_remove_them(text):
    from stability.readers.markdown import _uncommented, _unlinked
    assert _uncommented(text) == _COMMENT_REGEX.sub("", text)
    assert _unlinked(_unlinked(text, "!["), "[") == _LINK_REGEX.sub(r"\1", _IMAGE_REGEX.sub(r"\1", text))


@pytest.mark.parametrize("repeated", ["[x ", "![x ", "a <!-- b ", "[x](y "])
def test_a_long_paragraph_of_unclosed_links_or_comments_reads_in_linear_time(tmp_path, repeated):
    # the regular expressions scanned the rest of the paragraph from every '[' or '<!--' left
    # open: 300 kB of them took tens of minutes; a hang guard, as above (no timing asserted)
    body = repeated * (300_000 // len(repeated))
    doc = read_rendered_within_a_minute(write(tmp_path / "long.md", "# Notes\n\n" + body + "end.\n"))
    assert doc.units == (" ".join((body + "end.").split()),)  # nothing closed: kept as written


def test_mdx_pages_are_read_as_markdown_without_their_imports(tmp_path):
    """Docusaurus and Nextra pages are MDX (``.mdx``): Markdown with JSX components and ES module
    lines. A folder of them was "no known files", and ``.mdx`` pages beside ``.md`` ones were
    silently not read. They are Markdown pages: ``import``/``export`` blocks at the margin (up to
    a blank line) and ``{/* comments */}`` alone on their lines are removed, as components alone
    on their lines are; the same lines in a ``.md`` file or in code are kept."""
    page = ("---\ntitle: Install\n---\nimport Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n\n"
            "export const meta = {\n  level: 1,\n};\n\n{/* a note for authors */}\n\n# Install\n\n<Tabs>\n\n"
            "Run the installer.\n\n```js\nimport x from 'y';\n```\n\n</Tabs>\n\n## Use\n\nimport it, then call it.\n")
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "install.mdx").write_text(page, encoding="utf-8")
    (folder / "intro.md").write_text("# Intro\n\nimport Tabs from '@theme/Tabs';\n\nWelcome.\n", encoding="utf-8")
    docs = list(read_corpus(folder))
    assert [(d.id, d.meta["format"]) for d in docs] == [("intro.md", "markdown"), ("sub/install.mdx", "markdown")]
    assert docs[0].units == ("import Tabs from '@theme/Tabs';", "Welcome.")
    assert docs[1].units == ("Run the installer.", "import x from 'y';", "import it, then call it.")
    assert docs[1].references[0].boundaries == (2,)


def test_an_mdbook_table_of_contents_is_not_read_as_a_page(tmp_path):
    """An mdBook's ``src/SUMMARY.md`` is the book's table of contents, a list of links to its
    pages, which mdBook turns into the side menu: reading the book's ``src`` folder made it a
    document of navigation. Beside the book's ``book.toml`` (in its folder or the one above) it
    is left out with a warning naming it; a ``SUMMARY.md`` of any other folder is a page."""
    book = tmp_path / "book"
    (book / "src").mkdir(parents=True)
    (book / "book.toml").write_text("[book]\ntitle = 'Demo'\n", encoding="utf-8")
    (book / "src" / "SUMMARY.md").write_text("# Summary\n\n[Intro](intro.md)\n\n- [Use](use.md)\n", encoding="utf-8")
    (book / "src" / "intro.md").write_text("# Intro\n\nWelcome.\n", encoding="utf-8")
    with pytest.warns(CorpusWarning) as caught:
        assert [d.id for d in read_corpus(book / "src")] == ["intro.md"]
    assert [str(w.message) for w in caught] == [
        f"{book / 'src'}: 1 file(s) without text to segment left out of the corpus: SUMMARY.md (expected a page; this "
        "is the table of contents of the mdBook whose book.toml is beside it)"]
    (book / "book.toml").unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        assert [d.id for d in read_corpus(book / "src")] == ["intro.md", "SUMMARY.md"]


def test_mdx_admonition_fences_are_not_text(tmp_path):
    """Docusaurus admonitions (``:::note`` ... ``:::``) glued their fence lines onto the text
    they hold, ``:::tip Use it Call it once. :::`` one unit. In an MDX page the fence lines are
    removed and the admonition's text is its own paragraphs."""
    page = tmp_path / "use.mdx"
    page.write_text("# Use\n\nIntro.\n:::tip Use it\nCall it once.\n:::\n\n:::warning[Careful]\n\nNot twice.\n\n:::\n",
                    encoding="utf-8")
    assert next(read_corpus(page)).units == ("Intro.", "Call it once.", "Not twice.")
