"""Markdown files: one document per file, its headings as the reference boundaries.

Documentation, wikis and knowledge bases, the documents retrieval pipelines chunk, are mostly
Markdown, and their headings are a reference their authors wrote: a section starts where a
heading stands. The reader turns the blocks of a file (paragraphs, lists, tables, block quotes,
code blocks) into units and removes the headings from the text, so that a segmenter has to find
the sections from the content alone.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..checks import check_choice
from ..corpus import Document
from ..splitters import Splitter, SplitterOption
from .common import (BLOCK_SEPARATOR, LINE_SEPARATOR, SENTENCE_SEPARATOR, HeadedSections, PathLike, Source, NoTextError,
                     gap_separators, make_document, note, open_source, stream_files, unit_separator)
from .text import _checked_split, _splitter_name, build_splitter, resolve_splitter
from .wiki import _check_levels

__all__ = ["Block", "markdown_paragraphs", "paragraphs", "read_markdown", "read_sectioned", "sectioned_document"]

PATTERNS = ("*.md", "*.markdown", "*.mdx")
UNITS = ("paragraph", "sentence")
CODE = ("keep", "drop")
MARKUP = ("keep", "text")

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_ATX_CLOSING = re.compile(r"(?:^|[ \t]+)#+$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TAG_PATTERN = r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>"  # one HTML tag
_MARKER = r"(?:[-+*]|\d{1,9}[.)])"  # a list item's marker
_TAGS_ONLY = re.compile(rf"^\s*(?:{_TAG_PATTERN}\s*)+$")
_COMMENT_START = re.compile(r"^ {0,3}<!--")
# an mdBook's table of contents (src/SUMMARY.md, book.toml in src/ or above it): its side menu, not a page
_MDBOOK_CONTENTS, _MDBOOK = "SUMMARY.md", "book.toml"
# MDX (.mdx): ES module blocks at the margin (to the next blank line) and {/* comments */} alone on a line
_MDX = ".mdx"
_MDX_MODULE = re.compile(r"^(?:import[ \t]*(?:['\"{*]|.*\bfrom[ \t]*['\"])"
                         r"|export[ \t]+(?:const|let|var|function|async|class|default|[{*]))")
_MDX_ADMONITION = re.compile(r"^ {0,3}:::(?:[A-Za-z].*)?$")  # Docusaurus's :::note ... ::: fences
_MDX_COMMENT = re.compile(r"^ {0,3}\{/\*.*\*/\}[ \t]*$")
# CommonMark's HTML blocks: <pre>, <script> and <style> run to their closing tag; a block-level tag
# (or any tag alone on its line, when no paragraph is open) runs to the next blank line
_RAW_HTML = re.compile(r"^ {0,3}<(pre|script|style)(?:[ \t>]|$)", re.IGNORECASE)
_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|"
    "fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|"
    "menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|"
    "track|ul"
)
_HTML_BLOCK = re.compile(rf"^ {{0,3}}</?(?:{_BLOCK_TAGS})(?:[ \t]|/?>|$)", re.IGNORECASE)
_ONE_TAG = re.compile(rf"^ {{0,3}}{_TAG_PATTERN}[ \t]*$")  # alone on its line, any tag starts one too
_QUOTE_START = re.compile(r"^ {0,3}>")
_LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*\S+(?:[ \t]+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?[ \t]*$")
_FRONT_MATTER = {"---": ("---", "..."), "+++": ("+++",)}  # the line opening front matter: those closing it
_LIST_ITEM = re.compile(rf"^ {{0,3}}{_MARKER}(?:[ \t]|$)")
_ITEM_CONTENT = re.compile(rf"^( *{_MARKER})( *)(.?)")  # a list item's marker, on a line with tabs expanded
_CODE_INDENT = 4

# markup = "text": what is left of a line or a block once its Markdown is rendered
_QUOTE = re.compile(r"^(?:>[ \t]?)+")
_LIST_MARKER = re.compile(rf"^{_MARKER}[ \t]+(?:\[[ xX]\][ \t]+)?")
_TABLE_DELIMITER = re.compile(r"^\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$")
_CODE_SPAN = re.compile(r"(?<![`\\])(`+)(.+?)(?<!`)\1(?!`)")  # an escaped backtick opens nothing
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>")
_TAG = re.compile(_TAG_PATTERN)
#: Emphasis: a delimiter (tried in this order at each place) that a non-space follows, its text on
#: one line, and the same delimiter again right after a non-space; with ``_``, not inside a word.
#: Read as the lazy regular expressions ``(\*{1,3}|~~)(?=\S)(.+?)(?<=\S)\1`` and
#: ``(?<!\w)(_{1,3})(?=\S)(.+?)(?<=\S)\1(?!\w)`` would, but in linear time (see :func:`_unemphasised`).
_EMPHASIS_DELIMITERS = ("***", "**", "*", "~~")
_UNDERSCORE_DELIMITERS = ("___", "__", "_")
_PROTECTED = 0xE000  # escaped characters sit in the private use area while the rules run
_SPAN_START, _SPAN_END, _SPAN_DIGIT = "\ue100", "\ue101", 0xE110  # so do code spans, by number
_HELD_SPAN = re.compile("\ue100([\ue110-\ue119]+)\ue101")
#: The characters those take, which a text may hold itself (icon fonts draw glyphs there).
_BORROWED = re.compile("[\ue000-\ue07f\ue100\ue101\ue110-\ue119]")


@dataclass(frozen=True)
class Block:
    """One block of a file: ``kind`` is ``"heading"``, ``"paragraph"`` or ``"code"`` (the HTML
    reader builds the same blocks from a page); ``separator``: the whitespace between it and the
    block before it as the page lays them out (a blank line, or a newline between two items of
    one HTML list or two rows of one table)."""

    kind: str
    text: str
    line: int
    level: int = 0
    separator: str = BLOCK_SEPARATOR
    #: Where the lines of a paragraph that start on a line of their own when rendered (its list
    #: items, its table's rows) start in ``text``, in non-whitespace characters, its first line
    #: aside: a sentence starting there is a line, not a space, after the one before it.
    lines: tuple[int, ...] = ()


def read_markdown(
    path: PathLike,
    *,
    levels: int | str | Iterable[int] | None = None,
    unit: str = "paragraph",
    splitter: SplitterOption = None,
    code: str = "keep",
    markup: str = "keep",
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read Markdown files, one document per file, with the headings as the reference.

    A heading (``# Title`` to ``###### Title``, or a line underlined with ``===`` or ``---``)
    whose level is in ``levels`` starts a new reference segment; headings of other levels end the
    paragraph before them and are removed. Every heading is removed from the units: the segmenter
    does not see it. A section left without any unit (a heading directly followed by another) is
    not a segment, and the text before the first heading, when there is some, is the first one.

    The blocks that become units: paragraphs (lines up to a blank line, a heading, a fence or a
    thematic break; lists, tables and block quotes are read as paragraphs), and code blocks,
    fenced (`````` ``` `````` or ``~~~``) or indented by four spaces after a blank line, one
    unit each, kept or dropped with ``code``. In a list item, indented lines continue the item;
    code there is indented four columns past the item's content, and a fence may be indented as
    far as that content and three columns more, or be the item's first line. A fence in a
    block quote is code too, ending with its closing fence or with the quote. HTML blocks follow
    CommonMark: a block-level tag (``<table>``, ``<div>``, ``<details>``, ...), or any tag alone
    on its line, starts one that runs to the next blank line, whose lines are text whatever their
    indentation (never code, never a heading; a line holding only tags ends the unit, as a table
    row does in the HTML reader); ``<pre>`` runs to ``</pre>`` and is a code block (tags removed,
    entities decoded); ``<script>`` and ``<style>`` are removed. Lines of a
    block are stripped and joined with single spaces. Removed without a trace: front matter (YAML,
    ``---`` on the first line, not followed by a blank line, up to a closing ``---`` or ``...``; TOML, ``+++`` up to ``+++``), HTML comments that start a
    line (``<!-- ... -->``, over several lines too; text after the closing ``-->`` on its line
    is shown, a paragraph of its own), lines holding only HTML tags (``<details>``,
    ``</div>``; in MDX files, ``.mdx``, also ES module ``import``/``export`` blocks at the margin, up
    to a blank line, ``{/* comments */}`` alone on a line and the ``:::note`` and ``:::`` lines
    around an admonition), link reference definitions (``[label]: https://...``) and thematic breaks
    (``---``, ``***``). An mdBook's ``SUMMARY.md`` (its ``book.toml`` in the same folder or the
    one above) is its table of contents, not a page: left out with a warning. A code fence never closed runs to the end
    of the file, as in CommonMark, with a warning naming its line.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively.
    levels : int, str or collection of int, optional
        Heading levels (1 for ``#``) that count as boundaries, from 1 to 6; default every level.
        ``"1,2"`` and ``"1-3"`` are accepted (for command lines).
    unit : {"paragraph", "sentence"}
        What a unit is: a block, or a sentence of a paragraph (split with ``splitter``; a code
        block stays one unit).
    splitter : str or callable, optional
        Sentence splitter for ``unit="sentence"``, as for the text format (see
        :func:`~stability.readers.read_text`); default ``"auto"``. It learns from the paragraphs
        only, not from code.
    code : {"keep", "drop"}
        What to do with code blocks.
    markup : {"keep", "text"}
        ``"keep"``: the units are the Markdown source of their blocks. ``"text"``: the units
        are the text a reader sees, for segmenters that count words: block quote and list
        markers, table pipes and delimiter rows, emphasis, code span backticks, backslash
        escapes, inline HTML tags and comments and link destinations are removed (a link or
        an image leaves its text, a code span in it included), and HTML entities are decoded; a line holding only ``>``
        ends a paragraph, as in CommonMark, and a heading inside a block quote is removed
        without starting a segment. Code blocks are kept as written either way.
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`); ``pattern``
        defaults to ``("*.md", "*.markdown", "*.mdx")`` here.

    Returns
    -------
    iterator of Document
        One reference per document. ``meta`` holds ``format``, ``source``, ``unit``,
        ``unit_separator`` (the whitespace a text chunker joins the units with: a blank line
        between blocks, a space between sentences; see
        :data:`~stability.readers.common.UNIT_SEPARATORS`), ``unit_separators`` (the whitespace
        of every gap between two units, which a chunker uses first: a blank line between blocks,
        also between the last sentence of a block and the first of the next, a space between the
        sentences of one block; see :func:`~stability.readers.common.gap_separators`),
        ``splitter``, ``titles`` (the
        heading of each reference segment, ``None`` for text before the first one), ``levels``
        (``None`` for all), ``code_blocks`` (how many code blocks were read; dropped ones
        included) and ``notes``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "guide.md"
    >>> _ = file.write_text("Intro text.\\n\\n# Install\\n\\nRun pip.\\nThen wait.\\n\\n```\\npip install x\\n```\\n\\n"
    ...                     "## From source\\n\\nClone it. Build it.\\n\\nUsage\\n=====\\n\\nCall it.\\n")
    >>> doc = next(read_markdown(file))
    >>> doc.units
    ('Intro text.', 'Run pip. Then wait.', 'pip install x', 'Clone it. Build it.', 'Call it.')
    >>> doc.references[0].boundaries, doc.meta["titles"]
    ((1, 3, 4), (None, 'Install', 'From source', 'Usage'))
    >>> next(read_markdown(file, levels=1, code="drop", unit="sentence", splitter="rules")).units
    ('Intro text.', 'Run pip.', 'Then wait.', 'Clone it.', 'Build it.', 'Call it.')
    """
    check_choice(markup, "markup", MARKUP)

    return read_sectioned(path, _markdown_blocks(markup), PATTERNS, levels=levels, unit=unit, splitter=splitter, code=code,
                          encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit)


#: ``blocks(source, file, notes)``: the blocks of a file and the format's own meta entries;
#: ``notes`` collects what the reader noticed (``None`` when the blocks are read again, for a
#: sentence splitter to learn from).
FileBlocks = Callable[[Source, Path, "list[str] | None"], tuple[list[Block], dict]]


def _markdown_blocks(markup: str) -> FileBlocks:
    """The blocks of a Markdown file, its units' markup as ``markup`` says."""
    def file_blocks(source: Source, file: Path, notes: list[str] | None) -> tuple[list[Block], dict]:
        if file.name == _MDBOOK_CONTENTS and any((folder / _MDBOOK).is_file() for folder in file.parents[:2]):
            raise NoTextError("expected a page; this is the table of contents of the mdBook whose "
                              f"{_MDBOOK} is beside it", path=str(file))
        blocks = list(_blocks(list(source.lines(file)), file, notes, markup))
        return blocks, {"format": "markdown", "markup": markup}
    return file_blocks


def paragraphs(blocks: FileBlocks, source: Source, file: Path) -> Iterator[str]:
    """What a sentence splitter learns from in ``file``: the text of its paragraphs, not its
    headings or code."""
    return (block.text for block in blocks(source, file, None)[0] if block.kind == "paragraph")


def markdown_paragraphs(source: Source, file: Path, options: dict[str, Any]) -> Iterator[str]:
    """:func:`paragraphs` of a Markdown file read with ``options`` (its ``markup``)."""
    return paragraphs(_markdown_blocks(options.get("markup") or "keep"), source, file)


def read_sectioned(path: PathLike, blocks: FileBlocks, patterns: tuple[str, ...], *, levels: Any, unit: str,
                   splitter: SplitterOption, code: str, encoding: str, encoding_errors: str,
                   pattern: str | Sequence[str] | None, limit: int | None) -> Iterator[Document]:
    """The reader of a format whose files are blocks under headings (Markdown, HTML): checks the
    options, lists the files (``patterns`` by default) and streams one document per file."""
    wanted = _check_levels(levels, highest=6)  # <h1>..<h6>, # .. ######
    check_choice(unit, "unit", UNITS)
    check_choice(code, "code", CODE)
    resolved = resolve_splitter(splitter, unit)
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=patterns,
    )
    state: dict[str, Splitter] = {}

    def parse_file(doc_id: str, file: Path) -> list[Document]:
        if resolved is not None and "split" not in state:
            state["split"] = build_splitter(resolved, source, lambda file: paragraphs(blocks, source, file))
        notes: list[str] = []
        found, meta = blocks(source, file, notes)
        return [sectioned_document(doc_id, file, found, wanted, code, state.get("split"), notes, meta,
                                   unit=unit, splitter=_splitter_name(resolved))]

    return stream_files(source, parse_file)


def _front_matter_end(lines: list[str]) -> int:
    """Index of the first line after the front matter (0 when the file has none): YAML between
    ``---`` lines (closed by ``---`` or ``...``), or TOML between ``+++`` lines (Hugo, Zola).

    A ``---`` followed by a blank line opens none, as pandoc has it: it is a thematic break
    (a page opening with a rule, its text up to the next rule is text, not metadata)."""
    opening = lines[0].strip() if lines else ""
    if opening not in _FRONT_MATTER or (opening == "---" and len(lines) > 1 and not lines[1].strip()):
        return 0
    for i in range(1, len(lines)):
        if lines[i].strip() in _FRONT_MATTER[opening]:
            return i + 1
    return 0  # never closed: not front matter


def _indent(line: str) -> int:
    """Columns of leading whitespace, tabs to the next multiple of four as in CommonMark."""
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def _blocks(lines: list[str], file: Path, notes: list[str] | None, markup: str = "keep") -> Iterator[Block]:
    """The headings, paragraphs and code blocks of a file, in order (see :func:`read_markdown`)."""
    paragraph: list[str] = []
    table = False  # the open paragraph has a table's delimiter row: its pipes separate cells
    start = 0
    in_list = False  # indented lines after a list item continue the item: they are not code
    item_indent = 0  # where the content of the last list item starts: a fence may be indented so far, and 3 more
    in_html = False  # in an HTML block, up to the next blank line: its lines are text, never code or headings
    i = _front_matter_end(lines)
    as_text = markup == "text"
    inline = _inline_text if as_text else (lambda text: text)
    mdx = file.suffix.lower() == _MDX

    def joined() -> str:
        return inline(" ".join(_line_text(line, table) for line in paragraph) if as_text else " ".join(paragraph))

    def flush() -> Iterator[Block]:
        nonlocal table
        if paragraph:
            text = joined()
            if text:
                yield Block("paragraph", text, start, lines=_lined_starts(paragraph, table, text, as_text))
            paragraph.clear()
        table = False

    def fenced(fence: re.Match, **where: Any) -> Iterator[Block]:  # the code block a fence opens
        nonlocal i
        yield from flush()
        body, i = _fenced(lines, i, fence.group(1), file, lineno, notes, **where)
        yield Block("code", " ".join(body), lineno)

    while i < len(lines):
        line = lines[i]
        text = line.strip()
        lineno = i + 1
        i += 1
        if text and in_list and not paragraph and not in_html and _indent(line) == 0 and not _LIST_ITEM.match(line):
            in_list = False  # a block at the margin ends the list
        if not text:
            yield from flush()
            in_html = False
        elif mdx and not paragraph and not in_html and (_MDX_MODULE.match(line) or _MDX_COMMENT.match(line)):
            while i < len(lines) and lines[i].strip() and not _MDX_COMMENT.match(line):
                i += 1  # an import or export runs to the next blank line
        elif mdx and _MDX_ADMONITION.match(line):
            yield from flush()  # an admonition's fence: its text is paragraphs of their own
        elif in_html:
            if _TAGS_ONLY.match(line):
                yield from flush()
            else:
                if not paragraph:
                    start = lineno
                paragraph.append(text)
        elif paragraph and _SETEXT.match(line) and not _LIST_ITEM.match(lines[start - 1]):
            yield Block("heading", joined(), start, 1 if text[0] == "=" else 2)  # the paragraph above
            paragraph.clear()
            table = False
        elif not paragraph and _indent(line) >= (code_at := (item_indent if in_list else 0) + _CODE_INDENT):
            body, i = _indented(lines, i - 1, code_at)
            yield Block("code", " ".join(body), lineno)  # an indented code block, in a list item too
        elif (heading := _ATX.match(line)) is not None:
            yield from flush()
            title = _ATX_CLOSING.sub("", heading.group(2) or "").strip()
            yield Block("heading", inline(title), lineno, len(heading.group(1)))
            in_list = False
        elif (fence := _FENCE.match(line)) is not None:
            yield from fenced(fence)
        elif in_list and _indent(line) < item_indent + _CODE_INDENT and (fence := _FENCE.match(text)) is not None:
            yield from fenced(fence, indent=item_indent + _CODE_INDENT - 1)  # in a list item, as its content
        elif (content := _item_content(line)) is not None and (fence := _FENCE.match(line.expandtabs(4)[content:])):
            in_list, item_indent = True, content  # a list item whose content starts with a fence
            yield from fenced(fence, indent=content + _CODE_INDENT - 1)
        elif _QUOTE_START.match(line) and (fence := _FENCE.match(_QUOTE.sub("", text))) is not None:
            yield from fenced(fence, quoted=True)  # in a block quote: it ends with its fence or with the quote
        elif (raw := _RAW_HTML.match(line)) is not None:
            yield from flush()
            body, i = _raw_html(lines, i - 1, raw.group(1))
            if raw.group(1).lower() == "pre":  # preformatted text is code; a script or a style is not shown
                yield Block("code", " ".join(body), lineno)
        elif _BREAK.match(line) or _TAGS_ONLY.match(line):
            in_html = _HTML_BLOCK.match(line) is not None or (not paragraph and _ONE_TAG.match(line) is not None)
            yield from flush()
        elif not paragraph and _LINK_DEFINITION.match(line):  # "[label]: url", not rendered
            continue
        elif as_text and text.startswith(">"):  # a block quote's line, without its markers
            quoted = _QUOTE.sub("", text).strip()
            if not quoted or _ATX.match(quoted) or _BREAK.match(quoted):
                yield from flush()  # ">" alone ends a paragraph; a quoted heading or break is dropped
                continue
            if not paragraph:
                start = lineno
            paragraph.append(quoted)
        elif _COMMENT_START.match(line):
            yield from flush()
            while "-->" not in line and i < len(lines):
                line = lines[i]
                i += 1
            tail = line.partition("-->")[2].strip()  # text after the comment is shown: its own block
            if _TAG.sub("", _uncommented(tail)).strip() and (text := inline(tail)):
                yield Block("paragraph", text, i)
        else:
            if _HTML_BLOCK.match(line):
                yield from flush()  # a block-level tag starts an HTML block, and ends a paragraph
                in_html = True
            if not paragraph:
                start = lineno
                in_list = bool(_LIST_ITEM.match(line)) or (in_list and _indent(line) > 0)
            if in_list and (content := _item_content(line)) is not None:
                item_indent = content
            if as_text and _TABLE_DELIMITER.match(text) and "|" in text:
                table = True  # a table's "| --- | :-: |" row
                continue
            paragraph.append(text)
    yield from flush()


def _compact_length(text: str) -> int:
    return sum(not c.isspace() for c in text)


def _lined_starts(paragraph: Sequence[str], table: bool, text: str, as_text: bool) -> tuple[int, ...]:
    """:attr:`Block.lines` of the paragraph of stripped lines ``paragraph``, whose text is ``text``:
    the lines after the first that are list items, or all of them in a table (one with a
    delimiter row). With ``markup="text"``, each line's rendered text is measured, and none is
    given when those do not add up to ``text`` (markup spanning two lines)."""
    table = table or any("|" in line and _TABLE_DELIMITER.match(line) for line in paragraph)
    lined = [table or _LIST_ITEM.match(line) is not None for line in paragraph]
    if not any(lined[1:]):
        return ()
    pieces = [_inline_text(_line_text(line, table)) for line in paragraph] if as_text else list(paragraph)
    lengths = [_compact_length(piece) for piece in pieces]
    if sum(lengths) != _compact_length(text):
        return ()
    starts, at = [], lengths[0]
    for length, is_lined in zip(lengths[1:], lined[1:]):
        if is_lined and length:
            starts.append(at)
        at += length
    return tuple(starts)


def _item_content(line: str) -> int | None:
    """The column where the content of the list item on ``line`` starts (``None``: no list item
    there): after the marker and the spaces following it, or one column after the marker when
    it is followed by nothing or by more than four spaces, as in CommonMark."""
    item = _ITEM_CONTENT.match(line.expandtabs(4))
    if item is None or (item.group(3) and not item.group(2)):
        return None
    marker, spaces = len(item.group(1)), len(item.group(2))
    return marker + 1 if not item.group(3) or spaces > _CODE_INDENT else marker + spaces


def _line_text(line: str, table: bool = False) -> str:
    """A stripped line of a paragraph without its list marker (and task box), and without its
    pipes when the paragraph is a table (it has a delimiter row, as in GitHub's Markdown)."""
    line = _LIST_MARKER.sub("", line)
    return re.sub(r"(?<!\\)\|", " ", line) if table else line


def _inline_text(text: str) -> str:
    """What a reader sees of a block's inline Markdown: code spans keep their content as
    written, the rest loses its markup, a link or emphasis around a code span included (see
    ``markup`` in :func:`read_markdown`)."""
    spans: list[str] = []

    def hold(kept: str) -> str:  # the rules run around what is held, not into it
        spans.append(kept)
        return _SPAN_START + "".join(chr(_SPAN_DIGIT + int(d)) for d in str(len(spans) - 1)) + _SPAN_END

    def restore(held: str) -> str:
        return _HELD_SPAN.sub(lambda m: spans[int("".join(str(ord(c) - _SPAN_DIGIT) for c in m.group(1)))], held)

    # the text's own characters of the ranges the rules borrow (an icon font's glyphs) are held too
    text = _BORROWED.sub(lambda m: hold(m.group(0)), text)
    text = _rendered(_CODE_SPAN.sub(lambda m: hold(restore(m.group(2).strip())), text))
    return " ".join(restore(text).split())


def _rendered(text: str) -> str:
    """Text outside code spans without its inline markup, escapes and entities resolved."""
    text = _ESCAPED.sub(lambda m: chr(_PROTECTED + ord(m.group(1))), text)
    text = _uncommented(text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _unlinked(_unlinked(text, "!["), "[")
    text = _TAG.sub("", text)
    for _ in range(3):  # nested emphasis: ***a*** or **a _b_**
        text = _unemphasised(_unemphasised(text, _EMPHASIS_DELIMITERS), _UNDERSCORE_DELIMITERS, in_words=False)
    text = html.unescape(text)
    return "".join(chr(ord(c) - _PROTECTED) if _PROTECTED <= ord(c) < _PROTECTED + 128 else c for c in text)


class _Occurrences:
    """Where ``token`` occurs in ``text``, listed once: :meth:`after` finds the first at or after a
    place without scanning the text again (what keeps the inline rules linear on long paragraphs)."""

    def __init__(self, text: str, token: str) -> None:
        self.positions = [m.start() for m in re.finditer(re.escape(token), text)]

    def after(self, i: int) -> int:
        """The first place ``>= i`` where the token starts, or -1."""
        k = bisect.bisect_left(self.positions, i)
        return self.positions[k] if k < len(self.positions) else -1


def _uncommented(text: str) -> str:
    """``text`` without its HTML comments that open and close on one line, each the shortest
    (as the regular expression ``<!--.*?-->`` removes them), in linear time."""
    if "<!--" not in text:
        return text
    closings, newlines = _Occurrences(text, "-->"), _Occurrences(text, "\n")
    out, copied, p = [], 0, text.find("<!--")
    while p != -1:
        end = closings.after(p + 4)
        if end != -1 and not 0 <= newlines.after(p + 4) < end:
            out.append(text[copied:p])
            copied = end + 3
        p = text.find("<!--", max(p + 1, copied))
    return "".join(out) + text[copied:]


def _unlinked(text: str, opening: str) -> str:
    """``text`` with each link (``opening="["``) or image (``"!["``) replaced by its text: the
    opening, a text without ``]`` (not empty, for a link), ``]``, then a destination ``(...)`` or a
    reference label ``[...]`` (as the regular expressions ``\\[([^\\]]+)\\]`` and
    ``!\\[([^\\]]*)\\]`` followed by ``(?:\\([^)]*\\)|\\[[^\\]]*\\])`` replace them), in linear time.

    >>> _unlinked("see [the guide](a.md), [ref][1], [x [y](z) and [no] link", "[")
    'see the guide, ref, x [y and [no] link'
    """
    if opening not in text:
        return text
    brackets, parens = _Occurrences(text, "]"), _Occurrences(text, ")")
    least = 1 if opening == "[" else 0  # a link's text is not empty, an image's may be
    out, copied, p = [], 0, text.find(opening)
    while p != -1:
        start = p + len(opening)
        close = brackets.after(start)
        target = close + 1
        if close - start >= least and target < len(text) and text[target] in "([":
            end = (parens if text[target] == "(" else brackets).after(target + 1)
            if end != -1:
                out += [text[copied:p], text[start:close]]
                copied = end + 1
        p = text.find(opening, max(p + 1, copied))
    return "".join(out) + text[copied:]


def _word(character: str) -> bool:
    """Whether ``character`` is one ``\\w`` matches."""
    return character.isalnum() or character == "_"


def _unemphasised(text: str, delimiters: tuple[str, ...], in_words: bool = True) -> str:
    """``text`` with each emphasis written with ``delimiters`` replaced by its content, left to right
    as a regular expression substitution finds them (see :data:`_EMPHASIS_DELIMITERS`); with
    ``in_words=False``, a delimiter touching a word character outside opens or closes nothing.

    The closing delimiters are listed once and each opening one looks up the first after it, so
    that a long paragraph holding many delimiters never closed (``a * b`` in a formula, say)
    takes linear time, where the lazy regular expression tried every one against the rest of the
    paragraph (minutes for 100 kB).

    >>> _unemphasised("a **bold** and *it* 2 * 3 **x*", _EMPHASIS_DELIMITERS)
    'a bold and it 2 * 3 *x'
    >>> _unemphasised("__init__ and _this_ snake_case_name", _UNDERSCORE_DELIMITERS, in_words=False)
    'init and this snake_case_name'
    """
    closers = {
        mark: [j for j in range(1, len(text) - len(mark) + 1)
               if text.startswith(mark, j) and not text[j - 1].isspace()
               and (in_words or j + len(mark) == len(text) or not _word(text[j + len(mark)]))]
        for mark in delimiters if mark in text
    }
    if not closers:
        return text
    out: list[str] = []
    p = copied = 0
    while p < len(text):
        end = _emphasis_at(text, p, closers, in_words)
        if end is None:
            p += 1
            continue
        start, stop, after = end
        out.append(text[copied:p])
        out.append(text[start:stop])
        p = copied = after
    out.append(text[copied:])
    return "".join(out)


def _emphasis_at(text: str, p: int, closers: dict[str, list[int]], in_words: bool) -> tuple[int, int, int] | None:
    """``(content start, content end, end)`` of the emphasis opening at ``p``, or None."""
    if not in_words and p > 0 and _word(text[p - 1]):
        return None
    for mark, positions in closers.items():
        start = p + len(mark)
        if not text.startswith(mark, p) or start >= len(text) or text[start].isspace():
            continue
        k = bisect.bisect_left(positions, start + 1)
        if k == len(positions):
            continue
        j = positions[k]
        newline = text.find("\n", start, j)
        if newline == -1:
            return start, j, j + len(mark)
    return None


def _indented(lines: list[str], i: int, indent: int = _CODE_INDENT) -> tuple[list[str], int]:
    """The stripped non-blank lines of the code block indented by ``indent`` columns starting at
    index ``i``, and the index of the first line after it (blank lines inside it belong to it,
    trailing ones do not)."""
    body: list[str] = []
    end = i
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) >= indent):
        if lines[i].strip():
            body.append(lines[i].strip())
            end = i + 1
        i += 1
    return body, end


def _fenced(lines: list[str], i: int, opening: str, file: Path, lineno: int,
            notes: list[str] | None, indent: int = 3, quoted: bool = False) -> tuple[list[str], int]:
    """The stripped non-blank lines of a code block opened by ``opening`` on line ``lineno``,
    and the index of the line after its closing fence (indented by ``indent`` columns at most);
    ``quoted``: in a block quote, whose markers are removed and whose end ends the block."""
    closing = re.compile(rf"^[ \t]*{re.escape(opening[0])}{{{len(opening)},}}[ \t]*$")
    body: list[str] = []
    while i < len(lines):
        line = lines[i]
        if quoted:
            if not _QUOTE_START.match(line):
                return body, i  # the quote ends here, and its code block with it
            line = _QUOTE.sub("", line.strip())
        i += 1
        if closing.match(line) and _indent(line) <= indent:
            return body, i
        if line.strip():
            body.append(line.strip())
    if notes is not None:
        note(notes, file, f"the code fence opened at line {lineno} is never closed; the rest of the file is read as code")
    return body, i


def _raw_html(lines: list[str], i: int, tag: str) -> tuple[list[str], int]:
    """The text of the ``<pre>``, ``<script>`` or ``<style>`` block starting at index ``i``, by
    line, tags removed and entities decoded, and the index of the line after its closing tag (the
    end of the file when it has none, as in CommonMark)."""
    closing = re.compile(rf"</{tag}\s*>", re.IGNORECASE)
    body: list[str] = []
    while i < len(lines):
        line = lines[i]
        i += 1
        text = html.unescape(_TAG.sub("", line)).strip()
        if text:
            body.append(text)
        if closing.search(line):
            break
    return body, i


def _sentence_separators(block: Block, sentences: Sequence[str]) -> list[str]:
    """The whitespace before each sentence of ``block`` but its first: a newline before one that
    starts one of its lines (:attr:`Block.lines`: a list item, a table row), else a space. Each
    sentence is found in the block's text, whitespace aside, after the one before it; one not
    found (a splitter that changed the text) is a space apart."""
    if not block.lines:
        return [SENTENCE_SEPARATOR] * (len(sentences) - 1)
    compact = "".join(block.text.split())
    lined, gaps, at = set(block.lines), [], 0
    for k, sentence in enumerate(sentences):
        piece = "".join(sentence.split())
        found = compact.find(piece, at)
        if k:
            gaps.append(LINE_SEPARATOR if found in lined else SENTENCE_SEPARATOR)
        if found >= 0:
            at = found + len(piece)
    return gaps


def sectioned_document(doc_id: str, file: Path, blocks: list[Block], levels: frozenset[int] | None, code: str,
                       split: Splitter | None, notes: list[str], meta: dict, *, unit: str,
                       splitter: str | None) -> Document:
    """The document of a file's blocks: headings of ``levels`` start reference segments, the
    other blocks are units (code kept or dropped, paragraphs split by ``split`` when given);
    ``meta`` (the format and its own entries) comes first in the document's meta."""
    sections = HeadedSections()
    before: list[str] = []  # the whitespace before each unit in the page's layout
    follows = False  # the block before this one gave the last unit (no heading, no dropped code between)
    for block in blocks:
        found: list[str] = []
        if block.kind == "heading":
            if levels is None or block.level in levels:
                sections.heading(block.text)
        elif block.kind == "code":
            if code == "keep" and block.text:
                found.append(block.text)
        elif split is not None:
            found.extend(_checked_split(split, block.text, file))
        else:
            found.append(block.text)
        if found:
            sections.units.extend(found)
            before += [block.separator if follows else BLOCK_SEPARATOR] + _sentence_separators(block, found)
        follows = bool(found)
    if not sections.units:
        raise NoTextError(
            "expected some text besides headings" + (" and code" if code == "drop" else "")
            + "; the file has none",
            path=str(file),
        )
    reference, titles = sections.finish()
    meta = {
        **meta,
        "source": str(file),
        "unit": unit,
        "unit_separator": unit_separator(unit),
        "unit_separators": gap_separators(before),
        "splitter": splitter,
        "titles": titles,
        "levels": None if levels is None else tuple(sorted(levels)),
        "code_blocks": sum(b.kind == "code" for b in blocks),
        "notes": notes,
    }
    return make_document(file, None, id=doc_id, units=tuple(sections.units), references=(reference,), meta=meta)
