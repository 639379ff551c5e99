"""HTML pages: one document per file, its headings (``<h1>`` to ``<h6>``) as the reference.

Web pages and documentation sites exported as HTML are what many retrieval pipelines chunk, and
their headings are a reference their authors wrote, as in Markdown. The reader turns the blocks of
a page (paragraphs, list items, table rows, quotations, preformatted code) into units, the text a
browser shows without the markup, and removes the headings from the text so that a segmenter has
to find the sections from the content alone. It uses the standard library's HTML parser, which
accepts the unclosed tags real pages are full of.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..corpus import Document
from ..splitters import SplitterOption
from .common import BLOCK_SEPARATOR, LINE_SEPARATOR, NoTextError, PathLike, Source, note
from .markdown import Block, paragraphs, read_sectioned

__all__ = ["html_paragraphs", "read_html"]

PATTERNS = ("*.html", "*.htm")

#: Elements whose content is never text of the page: page chrome, scripts, embedded objects.
SKIPPED = frozenset({"head", "title", "script", "style", "noscript", "template", "nav", "svg", "math", "iframe",
                     "object", "canvas", "select", "button"})
#: Elements that start or end a block: the text before and after them is not one unit.
BLOCKS = frozenset({"p", "div", "section", "article", "main", "header", "footer", "aside", "li", "ul", "ol",
                    "dl", "dt", "dd", "blockquote", "figure", "figcaption", "table", "caption", "thead",
                    "tbody", "tfoot", "tr", "details", "summary", "hr", "form", "fieldset", "legend",
                    "address", "center", "body", "html"})
#: Elements with no end tag (an end tag for one is ignored).
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                  "source", "track", "wbr"})
#: How a template (Jinja, Django, Liquid, Go) opens a tag: a file whose first line opens with one
#: is a site's template (a theme's ``main.html``), not a page; no page starts so.
TEMPLATE_TAGS = ("{%", "{{")
#: The pages a site generator writes besides the authors', beside the file that marks its output
#: (Sphinx's inventory, mdBook's script): what each is. Not pages of the site's text.
GENERATED = {
    "objects.inv": {"genindex.html": "the index of terms Sphinx writes", "search.html": "the search page Sphinx writes",
                    "py-modindex.html": "the module index Sphinx writes"},
    "book.js": {"print.html": "the whole book on one page mdBook writes", "toc.html": "the table of contents mdBook "
                "writes", "404.html": "the page for a missing page mdBook writes"},
}
HEADINGS = {f"h{level}": level for level in range(1, 7)}
#: Elements whose blocks a browser shows a line apart, not a blank line: the items of a list, the
#: rows of a table, the terms of a definition list (nested ones are part of the outermost).
LINED = frozenset({"ul", "ol", "menu", "dl", "table"})
#: Elements whose start and end tags end the block being read (a heading or code starts one).
BREAKS = BLOCKS | HEADINGS.keys() | {"pre"}


def read_html(
    path: PathLike,
    *,
    levels: int | str | Iterable[int] | None = None,
    unit: str = "paragraph",
    splitter: SplitterOption = None,
    code: str = "keep",
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read HTML files, one document per file, with the headings as the reference.

    A heading (``<h1>`` to ``<h6>``) whose level is in ``levels`` starts a new reference segment;
    headings of other levels end the block before them. Every heading is removed from the units.
    A section left without any unit is not a segment, and the text before the first heading, when
    there is some, is the first one.

    The units are the blocks of the page: the text between the start or end of two block elements
    (``<p>``, ``<li>``, ``<tr>``, ``<blockquote>``, ``<div>``...; table cells of a row are one
    unit), whitespace collapsed, entities decoded, inline markup (``<a>``, ``<em>``, ``<code>``...)
    removed with its text kept (a ``<br>`` is a space, but two in a row, nothing but whitespace
    between them, end the block as the blank line a browser shows between two paragraphs of a
    page written without ``<p>``; not in a heading, a ``<pre>`` or a table, whose rows stay whole), and each ``<pre>`` block, code kept or dropped with ``code``. When
    the page has a ``<main>`` element (or one with ``role="main"``), only the blocks inside it are
    read: the site's header, menus and footer around it are not the document. Never read: the
    content of ``<head>``, ``<script>``, ``<style>``, ``<nav>``, ``<template>``, ``<svg>``,
    ``<iframe>`` and form controls, images (their ``alt`` text is not shown) and comments. A file
    whose first line opens a template tag (``{%`` or ``{{``) is a site's template, not a page:
    left out of a folder with a warning naming it, refused when given alone; so are the pages a
    site generator writes besides the authors' (:data:`GENERATED`: Sphinx's ``genindex.html``,
    ``search.html`` and ``py-modindex.html`` beside its ``objects.inv``, mdBook's ``print.html``,
    ``toc.html`` and ``404.html`` beside its ``book.js``).

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    levels : int, str or collection of int, optional
        Heading levels (1 for ``<h1>``) that count as boundaries, from 1 to 6; default every level.
        ``"1,2"`` and ``"1-3"`` are accepted (for command lines).
    unit : {"paragraph", "sentence"}
        What a unit is: a block, or a sentence of a block (split with ``splitter``; a ``<pre>``
        block stays one unit).
    splitter : str or callable, optional
        Sentence splitter for ``unit="sentence"``, as for the text format (see
        :func:`~stability.readers.read_text`); default ``"auto"``.
    code : {"keep", "drop"}
        What to do with ``<pre>`` blocks.
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`); ``pattern``
        defaults to ``("*.html", "*.htm")`` here.

    Returns
    -------
    iterator of Document
        One reference per document. ``meta`` holds ``format``, ``source``, ``unit``,
        ``unit_separator`` and ``unit_separators`` (as :func:`~stability.readers.read_markdown`
        says, but a newline between two items of one list, nested lists included, or two rows of one
        table, as a browser shows them: see :data:`LINED`), ``splitter``,
        ``titles`` (the heading of each reference segment, ``None`` for text before
        the first one), ``levels`` (``None`` for all), ``code_blocks`` (how many ``<pre>`` blocks
        were read; dropped ones included), ``main`` (whether only a ``<main>`` element was read)
        and ``notes`` (an element never read, ``<script>`` say, that is never closed: the rest of
        the page is then lost, with a warning naming its line).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "guide.html"
    >>> _ = file.write_text(
    ...     "<html><head><title>Guide</title></head><body><nav><a href='/'>Home</a></nav><main>"
    ...     "<p>Intro &amp; <em>scope</em>.<h1>Install</h1><p>Run <code>pip</code>.</p>"
    ...     "<pre>pip install x</pre><h2>From source</h2><ul><li>Clone it.<li>Build it.</ul>"
    ...     "</main><footer>Copyright</footer></body></html>")
    >>> doc = next(read_html(file))
    >>> doc.units
    ('Intro & scope.', 'Run pip.', 'pip install x', 'Clone it.', 'Build it.')
    >>> doc.references[0].boundaries, doc.meta["titles"]
    ((1, 3), (None, 'Install', 'From source'))
    >>> next(read_html(file, levels=1, code="drop")).references[0].boundaries
    (1,)
    """
    return read_sectioned(path, _page_blocks, PATTERNS, levels=levels, unit=unit, splitter=splitter, code=code,
                          encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit)


def html_paragraphs(source: Source, file: Path, options: dict[str, Any]) -> Iterator[str]:
    """What a sentence splitter learns from in a page (see :func:`~stability.readers.markdown.paragraphs`);
    no option changes it."""
    return paragraphs(_page_blocks, source, file)


def _page_blocks(source: Source, file: Path, notes: list[str] | None) -> tuple[list[Block], dict]:
    """The blocks of a page, those of its ``<main>`` element only when it has one."""
    generated = next((what for mark, pages in GENERATED.items() if (file.parent / mark).is_file()
                      for name, what in pages.items() if file.name == name), None)
    if generated is not None:
        raise NoTextError(f"expected a page; this is {generated}", path=str(file))
    parser = _PageParser()
    opened = False
    for line in source.lines(file):
        if not opened and line.strip():
            opened = True
            tag = line.lstrip()[:2]
            if tag in TEMPLATE_TAGS:
                raise NoTextError(f"expected a page; this is a template, its first line opening a {tag!r} tag",
                                  path=str(file))
        parser.feed(line + "\n")
    parser.close()
    parser.flush()
    if parser.skip is not None and notes is not None:
        note(notes, file, f"the <{parser.skip[0]}> element opened at line {parser.skip_line} is never closed; "
                          "the rest of the page was not read")
    main = any(inside for _, inside, _ in parser.blocks)
    blocks: list[Block] = []
    previous = None  # the list or table the block before was in
    for block, inside, lined in parser.blocks:
        if inside or not main:
            apart = LINE_SEPARATOR if lined is not None and lined == previous else BLOCK_SEPARATOR
            blocks.append(replace(block, separator=apart))
            previous = lined
    return blocks, {"format": "html", "main": main}


class _PageParser(HTMLParser):
    """Collects ``(block, inside <main>, the outermost list or table it is in)`` in document
    order (that list or table by number, ``None`` outside any)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[Block, bool, int | None]] = []
        self.text: list[str] = []
        self.skip: tuple[str, int] | None = None  # the skipped element being read, and its nesting
        self.skip_line = 0  # where it was opened
        self.main: tuple[str, int] | None = None  # the same for the <main> element
        self.pre = 0  # depth inside <pre>
        self.heading = 0  # level of the open heading, 0 outside one
        self.lined: tuple[str, int] | None = None  # the outermost open element of LINED, as self.main
        self.lined_count = 0  # how many of those were opened: the number of the one open
        self.breaks = 0  # <br> tags since the last text of the block being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip == ("head", 1) and tag == "body":  # </head> may be left out
            self.skip = None
        if self.skip is not None:  # only the nesting of the skipped element counts (tags inside may be unclosed)
            self.skip = _nested(self.skip, tag, 1)
            return
        if tag in SKIPPED:
            self.skip, self.skip_line = (tag, 1), self.getpos()[0]
            return
        if tag == "br" and self.breaks and not (self.pre or self.heading or self._in_table()):
            self.flush()  # <br><br>: the blank line between two paragraphs of a page written without <p>
        elif tag == "br" or (self.pre and tag in BLOCKS):  # a block inside <pre> is a new line of it
            self.text.append("\n" if self.pre else " ")
            self.breaks += tag == "br"
        elif tag in ("td", "th"):
            self.text.append(" ")
        elif tag in BREAKS:
            self.flush()
            self.heading = HEADINGS.get(tag, 0)  # a block inside an unclosed heading ends it
            self.pre += tag == "pre"
        if self.lined is None and tag in LINED:
            self.lined = (tag, 1)
            self.lined_count += 1
        elif self.lined is not None:
            self.lined = _nested(self.lined, tag, 1)
        if self.main is None and (tag == "main" or ("role", "main") in attrs):
            self.main = (tag, 1)
        elif self.main is not None and tag not in VOID:
            self.main = _nested(self.main, tag, 1)

    def _in_table(self) -> bool:
        """Whether a table is open: its rows are units whatever their cells hold."""
        return self.lined is not None and self.lined[0] == "table"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:  # <br/>; a non-void element written <div/> opens nothing
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.skip is not None:
            self.skip = _nested(self.skip, tag, -1)
            return
        if tag in VOID:
            return
        if tag in ("td", "th") or (self.pre and tag in BLOCKS):
            self.text.append("\n" if self.pre else " ")
        elif tag in BREAKS:
            self.flush()
            self.heading = 0
            self.pre = max(0, self.pre - (tag == "pre"))
        if self.main is not None and tag == self.main[0]:
            self.flush()
            self.main = _nested(self.main, tag, -1)
        if self.lined is not None:
            self.lined = _nested(self.lined, tag, -1)

    def handle_data(self, data: str) -> None:
        if self.skip is None:
            self.text.append(data)
            self.breaks = 0 if data.strip() else self.breaks

    def flush(self) -> None:
        """End the block being read: a heading, code or a paragraph, unless it has no text."""
        raw = "".join(self.text)
        self.text.clear()
        self.breaks = 0
        if self.pre:
            text = " ".join(line.strip() for line in raw.splitlines() if line.strip())
            kind, level = "code", 0
        else:
            text = " ".join(raw.split())
            kind, level = ("heading", self.heading) if self.heading else ("paragraph", 0)
        if text:
            self.blocks.append((Block(kind, text, self.getpos()[0], level), self.main is not None,
                                self.lined_count if self.lined is not None else None))


def _nested(element: tuple[str, int], tag: str, step: int) -> tuple[str, int] | None:
    """``element`` (its name, how many of its kind are open) after a start (``step = 1``) or end
    (``step = -1``) tag ``tag``; ``None`` once the outermost one is closed. Other tags do not count:
    those left unclosed inside cannot keep it open."""
    name, depth = element
    depth += step * (tag == name)
    return (name, depth) if depth else None
