"""HTML pages: headings are the reference and are removed; blocks are the units, as text.

Expected values are worked out by hand from what a browser shows of each page, written next to
each case.
"""

from __future__ import annotations

import html
import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stability import CorpusFormatError, CorpusWarning, InvalidParameterError
from stability.cli import app
from stability.readers import detect_format, read_corpus, read_html


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Guide</title>
<style>p { color: red }</style><script>var x = "<p>not text</p>";</script></head>
<body>
<header><a href="/">Site</a></header>
<nav><ul><li><a href="/a">Menu entry</a></ul></nav>
<main>
<p>Some intro that
   runs over two lines &amp; an <em>emphasis</em>.
<h1 id="install">Install <a class="anchor" href="#install">¶</a></h1>
<!-- a comment -->
<p>Use <code>pip</code>.<br>Then wait.</p>
<pre><code>pip install thing
  --user
</code></pre>
<h2>Options</h2>
<ul>
  <li>First option
  <li>Second <strong>option</strong></li>
</ul>
<table><tr><th>name</th><th>value</th></tr><tr><td>a</td><td>1</td></tr></table>
<blockquote><p>Quoted.</p></blockquote>
<img src="x.png" alt="not shown">
<h3>Empty section</h3>
<h3>Last</h3>
<div>Loose text in a div<div>and a nested one</div>after it</div>
</main>
<footer>Copyright 2026</footer>
</body>
</html>
"""


def test_a_page_by_hand(tmp_path):
    doc = next(read_html(write(tmp_path / "guide.html", PAGE)))
    assert doc.units == (
        "Some intro that runs over two lines & an emphasis.",  # whitespace collapsed, entity decoded
        "Use pip. Then wait.",  # inline markup removed, <br> a space
        "pip install thing --user",  # <pre>: code, its lines stripped and joined
        "First option",  # an unclosed <li> ends at the next one
        "Second option",
        "name value",  # a table row is one unit
        "a 1",
        "Quoted.",
        "Loose text in a div",  # a block inside a block splits the text around it
        "and a nested one",
        "after it",
    )
    # <main> only: the header, menu and footer are not read; the empty section starts no segment
    assert doc.references[0].boundaries == (1, 3, 8)
    assert doc.meta["titles"] == (None, "Install ¶", "Options", "Last")
    assert doc.meta["format"] == "html" and doc.meta["main"] is True and doc.meta["code_blocks"] == 1


def test_levels_and_code(tmp_path):
    file = write(tmp_path / "guide.html", PAGE)
    assert next(read_html(file, levels=1)).references[0].boundaries == (1,)
    assert next(read_html(file, levels="2-3")).references[0].boundaries == (3, 8)
    dropped = next(read_html(file, code="drop"))
    assert "pip install thing --user" not in dropped.units and dropped.references[0].boundaries == (1, 2, 7)


def test_without_main_the_whole_body_is_read_but_never_menus_or_scripts(tmp_path):
    page = ("<html><head><title>T</title></head><body><nav>Menu</nav><div role='navigation-ish'>Top</div>"
            "<h1>A</h1><p>a text</p><script>skip()</script><noscript>enable js</noscript>"
            "<h1>B</h1><p>b text<footer>Foot</footer></body></html>")
    doc = next(read_html(write(tmp_path / "a.htm", page)))
    assert doc.units == ("Top", "a text", "b text", "Foot") and doc.meta["main"] is False
    assert doc.references[0].boundaries == (1, 2)


def test_role_main_and_nested_elements_of_the_same_name(tmp_path):
    page = ("<body><div class='site'>Chrome</div><div role='main'><div><p>one</p></div><h2>S</h2>"
            "<div>two</div></div><div>After main</div></body>")
    doc = next(read_html(write(tmp_path / "a.html", page)))
    assert doc.units == ("one", "two") and doc.references[0].boundaries == (1,)


def test_broken_markup_is_read_as_a_browser_would(tmp_path):
    # an unclosed heading ends at the next block; tags left open inside a skipped element do not
    # swallow the page; </head> left out; an unclosed <pre> runs to the end
    page = ("<head><title>T</title><body><nav><ul><li>menu</nav><h1>Title<p>Text one.</p>"
            "<h2>Two</h2><p>Text two.<pre>code\nmore")
    doc = next(read_html(write(tmp_path / "a.html", page)))
    assert doc.units == ("Text one.", "Text two.", "code more")
    assert doc.meta["titles"] == ("Title", "Two") and doc.references[0].boundaries == (1,)


def test_two_line_breaks_in_a_row_end_a_paragraph_as_a_browser_shows_them(tmp_path):
    # pages written without <p> (old sites, forum and mail exports) separate paragraphs with
    # <br><br>, which a browser shows as a blank line: three paragraphs here, the whitespace and
    # inline tags between the two <br> change nothing; one <br> stays a space inside its paragraph,
    # in a heading <br><br> stays inside the heading, in a table inside its row, and in <pre> every <br> is a new line of code
    page = ("<body><h1>A<br><br>title</h1>First line<br>same paragraph.<br><br>Second paragraph.<br/>\n <b> </b><br/>"
            "Third paragraph.<br><br><br>Fourth.<pre>a<br><br>b</pre>"
            "<table><tr><td>cell<br><br>same row<td>next cell</table></body>")
    doc = next(read_html(write(tmp_path / "a.html", page)))
    assert doc.units == ("First line same paragraph.", "Second paragraph.", "Third paragraph.", "Fourth.", "a b",
                         "cell same row next cell")  # a table's row is one unit, whatever its cells hold
    assert doc.meta["titles"] == ("A title",) and doc.references[0].boundaries == ()


def test_blocks_inside_pre_are_lines_of_the_code(tmp_path):
    # rustdoc writes a declaration as <pre>..<div class="where">..</div>..</pre>: one code block
    page = ("<main><h1>Struct</h1><pre><code>pub struct Vec&lt;T&gt;<div class='where'>where T: Sized,</div>"
            "{ /* fields */ }</code></pre><p>A growable array.</p></main>")
    doc = next(read_html(write(tmp_path / "a.html", page)))
    assert doc.units == ("pub struct Vec<T> where T: Sized, { /* fields */ }", "A growable array.")
    assert doc.meta["code_blocks"] == 1


def test_an_unclosed_element_that_is_never_read_is_a_warning_naming_its_line(tmp_path):
    page = "<h1>A</h1><p>Kept.</p>\n<h1>B</h1>\n<p>Also kept.<nav><ul><li>menu\n<p>lost</p>\n"
    with pytest.warns(CorpusWarning, match=r"a\.html: the <nav> element opened at line 3 is never closed"):
        doc = next(read_html(write(tmp_path / "a.html", page)))
    assert doc.units == ("Kept.", "Also kept.") and len(doc.meta["notes"]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert next(read_html(write(tmp_path / "b.html", "<p>x</p><nav>m</nav>"))).meta["notes"] == []


def test_a_page_with_only_headings_is_an_error_naming_it(tmp_path):
    file = write(tmp_path / "empty.html", "<h1>One</h1><h2>Two</h2><script>x()</script>")
    with pytest.raises(CorpusFormatError, match=r"empty\.html.*expected some text besides headings"):
        next(read_html(file))


@pytest.mark.parametrize("options, match", [({"code": "strip"}, "code"), ({"unit": "line"}, "unit"),
                                            ({"levels": 0}, "levels"),
                                            ({"levels": [1, 7]}, r"levels must be heading levels from 1 to 6")])
def test_bad_options_are_named(tmp_path, options, match):
    with pytest.raises(InvalidParameterError, match=match):
        read_html(write(tmp_path / "a.html", "<p>x</p>"), **options)


def test_sentences_and_detection(tmp_path):
    write(tmp_path / "site" / "b.htm", "<h1>B</h1><p>Dr. Smith left. He came back.</p>")
    write(tmp_path / "site" / "a.html", "<p>Intro.</p><h1>A</h1><p>One. Two.</p>")
    assert detect_format(tmp_path / "site") == "html"
    docs = list(read_corpus(tmp_path / "site", unit="sentence", splitter="rules"))
    assert [d.id for d in docs] == ["a.html", "b.htm"]
    assert [d.units for d in docs] == [("Intro.", "One.", "Two."), ("Dr. Smith left.", "He came back.")]
    assert [d.references[0].boundaries for d in docs] == [(1,), ()]


def test_from_the_command_line(tmp_path):
    write(tmp_path / "site" / "a.html", "<p>Intro.</p><h1>A</h1><p>One.</p><pre>x = 1</pre><h2>B</h2><p>Two.</p>")
    args = ["run", "-s", "none", "--corpus", str(tmp_path / "site"), "--restarts", "2", "--no-progress",
            "--report-format", "json"]
    runner = CliRunner()
    for extra, expected in (([], (4, [[1, 3]])), (["--levels", "1", "--code", "drop"], (3, [[1]]))):
        result = runner.invoke(app, args + extra)
        assert result.exit_code == 0, result.output
        (doc,) = json.loads(result.stdout)["documents"]["none"]
        assert (doc["n_units"], doc["references"]) == expected
    beyond = runner.invoke(app, args + ["--levels", "9"])  # used to read every page with an empty reference
    assert beyond.exit_code == 1 and beyond.stdout == ""
    assert beyond.stderr.startswith("error: --levels must be heading levels from 1 to 6")


_word = st.text(alphabet="abcdefg<>&\"'", min_size=1, max_size=6).filter(lambda w: w.strip())
_block = st.one_of(
    st.tuples(st.just("h"), st.integers(1, 6), _word),
    st.tuples(st.sampled_from(["p", "li", "blockquote", "div", "pre"]), st.just(0),
              st.lists(_word, min_size=1, max_size=4).map(" ".join)),
)
_inline = st.sampled_from(["{}", "<em>{}</em>", "<a href='https://x.org/?a=1&amp;b'>{}</a>", "<code>{}</code>",
                           "<span class=x>{}</span>", "{}<!-- c -->", "<b><i>{}</i></b>"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_block, _inline), min_size=1, max_size=12).filter(lambda bs: any(b[0] != "h" for b, _ in bs)))
def test_every_block_round_trips(tmp_path_factory, blocks):
    """Written blocks come back as their text, whatever inline markup wraps them: units in order,
    a boundary wherever a heading precedes text."""
    parts, units, boundaries, pending = [], [], [], False
    for (kind, level, text), inline in blocks:
        shown = inline.format(html.escape(text))
        if kind == "h":
            parts.append(f"<h{level}>{shown}</h{level}>")
            pending = True
            continue
        parts.append(f"<pre>{html.escape(text)}</pre>" if kind == "pre" else f"<{kind}>{shown}</{kind}>")
        if pending and units:
            boundaries.append(len(units))
        pending = False
        units.append(text)
    file = tmp_path_factory.mktemp("html") / "x.html"
    file.write_text("<html><body>\n" + "\n".join(parts) + "\n</body></html>\n")
    doc = next(read_html(file))
    assert doc.units == tuple(units)
    assert doc.references[0].boundaries == tuple(boundaries)


def test_a_template_is_not_read_as_a_page(tmp_path):
    """A site's HTML templates (MkDocs's ``custom_dir`` theme beside the pages, as the Django REST
    framework's ``docs/theme/main.html``; Jinja, Django, Liquid or Go templates) were read as
    pages: ``{% extends "base.html" %} {% block scripts %} {{ super() }} {% endblock %}`` a
    document. A file whose first line opens a template tag is left out of a folder with a
    warning naming it, as a page without text is, and refused when given alone; a page showing
    template tags in its text is read."""
    folder = tmp_path / "docs"
    write(folder / "theme" / "main.html", '\n{% extends "base.html" %}\n\n{% block scripts %}\n  {{ super() }}\n'
                                          "<script>prettyPrint();</script>\n{% endblock %}\n")
    write(folder / "partial.html", "{{ define \"main\" }}<p>{{ .Content }}</p>{{ end }}\n")
    write(folder / "guide.html", "<h1>Templates</h1><p>Write <code>{% block %}</code> in a template.</p>")
    with pytest.warns(CorpusWarning) as caught:
        docs = list(read_corpus(folder))
    assert [(d.id, d.units) for d in docs] == [("guide.html", ("Write {% block %} in a template.",))]
    assert [str(w.message) for w in caught] == [
        f"{folder}: 2 file(s) without text to segment left out of the corpus: partial.html (expected a page; this is a "
        "template, its first line opening a '{{' tag); theme/main.html (expected a page; this is a template, its first "
        "line opening a '{%' tag)"]
    with pytest.raises(CorpusFormatError, match=r"main.html: expected a page; this is a template"):
        list(read_corpus(folder / "theme" / "main.html"))


def test_the_pages_a_site_generator_writes_beside_the_authors_are_not_read(tmp_path):
    """A built site holds pages its generator writes besides the authors': Sphinx's index of
    terms, search page and module index, mdBook's whole book on one page, its contents and its
    page for a missing page. Read as pages they were documents of links, or the whole corpus a
    second time. Beside the generator's mark (Sphinx's ``objects.inv``, mdBook's ``book.js``)
    they are left out with a warning naming them; files so named elsewhere are pages."""
    html = tmp_path / "_build" / "html"
    write(html / "objects.inv", "# Sphinx inventory\n")
    write(html / "index.html", "<div role='main'><h1>Demo</h1><p>Welcome.</p></div>")
    write(html / "genindex.html", "<div role='main'><h1>Index</h1><p><a href='#'>call()</a></p></div>")
    write(html / "search.html", "<div role='main'><h1>Search</h1><p>Please activate JavaScript.</p></div>")
    book = tmp_path / "book"
    write(book / "book.js", "// mdBook\n")
    write(book / "intro.html", "<main><h1>Intro</h1><p>Welcome.</p></main>")
    write(book / "print.html", "<main><h1>Intro</h1><p>Welcome.</p></main>")
    write(book / "toc.html", "<main><ol><li>Intro</li></ol></main>")
    for folder, kept, left in [(html, "index.html", "genindex.html (expected a page; this is the index of terms Sphinx "
                                                    "writes); search.html (expected a page; this is the search page "
                                                    "Sphinx writes)"),
                               (book, "intro.html", "print.html (expected a page; this is the whole book on one page "
                                                    "mdBook writes); toc.html (expected a page; this is the table of "
                                                    "contents mdBook writes)")]:
        with pytest.warns(CorpusWarning) as caught:
            assert [d.id for d in read_corpus(folder)] == [kept]
        assert [str(w.message) for w in caught] == [
            f"{folder}: 2 file(s) without text to segment left out of the corpus: {left}"]
    (book / "book.js").unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        assert [d.id for d in read_corpus(book)] == ["intro.html", "print.html", "toc.html"]
