"""reStructuredText files: one document per file, its section titles as the reference boundaries.

Sphinx projects (Python's documentation, most Python libraries') are written in
reStructuredText. The reader turns a file's body elements into the blocks the Markdown reader
makes (paragraphs, code, section titles), so that both formats, and HTML, share one way of
making documents of them (:func:`~stability.readers.markdown.read_sectioned`). It reads the
source as written, without docutils: what a page shows of it, not what a build would add
(included files, generated API documentation).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..corpus import Document
from ..splitters import SplitterOption
from .common import PathLike, Source
from .markdown import Block, paragraphs, read_sectioned

__all__ = ["read_rst", "rst_paragraphs"]

PATTERNS = ("*.rst", "*.rest")

#: A line of one repeated punctuation character (docutils: any non-alphanumeric printable ASCII
#: character): a section title's underline or overline, or a transition.
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1*[ \t]*$")
#: The shortest adornment read as a title's underline when it is shorter than its title.
_SHORTEST_UNDERLINE = 3
#: An explicit markup block: a directive, a comment, a target, a footnote, a substitution.
_EXPLICIT = re.compile(r"^\.\.(?:[ \t]|$)")
_DIRECTIVE = re.compile(r"^\.\.[ \t]+([A-Za-z0-9][-A-Za-z0-9_.:+]*)[ \t]*::(?:[ \t]+(.*))?$")
_FIELD = re.compile(r"^:[^:\s][^:]*:(?:[ \t]|$)")  # a field (docinfo, a directive's option)
_GRID_TABLE = re.compile(r"^\+[-=+]+\+[ \t]*$")
_SIMPLE_TABLE = re.compile(r"^=+(?:[ \t]+=+)+[ \t]*$")
_DOCTEST = re.compile(r"^>>>(?:[ \t]|$)")
_LINE_BLOCK = re.compile(r"^\|(?:[ \t]+|$)")
_LIST_MARKER = re.compile(r"^(?:[-*+\u2022]|\(?(?:\d+|#|[A-Za-z]|[ivxlcdmIVXLCDM]+)[.)])[ \t]+")

#: Directives whose body is prose a page shows (admonitions): read as paragraphs.
PROSE_DIRECTIVES = frozenset({
    "note", "warning", "tip", "hint", "important", "caution", "attention", "danger", "error",
    "admonition", "seealso", "versionadded", "versionchanged", "deprecated", "topic", "sidebar",
    "epigraph", "highlights", "pull-quote", "container",
})
#: Sphinx's object descriptions (``.. function:: len(s)`` and its indented description): the
#: description is prose, the signature is not read. A directive named with a domain
#: (``py:method``, ``c:function``, ``js:class``) is one too.
DESCRIPTION_DIRECTIVES = frozenset({
    "function", "class", "method", "classmethod", "staticmethod", "attribute", "property", "data",
    "exception", "decorator", "decoratormethod", "coroutinefunction", "coroutinemethod", "describe", "object",
    "option", "cmdoption", "envvar", "program", "confval", "glossary", "hlist", "only", "centered",
})
#: Directives whose body is code: one code block, kept or dropped as ``code`` says.
CODE_DIRECTIVES = frozenset({"code", "code-block", "sourcecode", "doctest", "testcode", "testoutput",
                             "ipython", "parsed-literal", "highlight-block"})

# inline markup, removed in the order listed
_ROLE = re.compile(r":[A-Za-z0-9][-A-Za-z0-9_.:+]*:`([^`]+)`")
_HYPERLINK = re.compile(r"`([^`<]*?)\s*<[^`>]+>`__?")
_REFERENCE = re.compile(r"`([^`]+)`__?")
_LITERAL = re.compile(r"``(.+?)``")
_INTERPRETED = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)(.+?)(?<=\S)\*\*(?![\w*])")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_FOOTNOTE_REFERENCE = re.compile(r"[ \t]*\[(?:#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_")
_SUBSTITUTION = re.compile(r"\|([^|\s][^|]*?)\|(?:__?)?")
_ESCAPED = re.compile(r"\\(.)")


def read_rst(
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
    """Read reStructuredText files, one document per file, with the section titles as the reference.

    A section title is a line of text underlined, or over- and underlined, by a line of one
    repeated punctuation character (at least as long as the title, or at least three characters);
    its level is the order in which its style (the character, and whether it is overlined) first
    appears in the file, as docutils decides it (a seventh style and beyond count as level 6). A
    title whose level is in ``levels`` starts a new reference segment; the others are removed
    too, as headings are in Markdown (see :func:`~stability.readers.read_markdown`, whose
    segments, units and meta these documents have).

    The blocks that become units: paragraphs (lines up to a blank line; the items of a list
    separated by blank lines are paragraphs each, an indented block quote's paragraphs too), the
    body of an admonition (``.. note::``, ``.. warning::``, ... :data:`PROSE_DIRECTIVES`) and the
    description of a documented object (``.. function:: len(s)``, ``.. py:method::``, ...
    :data:`DESCRIPTION_DIRECTIVES`; not its signature) read as paragraphs, and code, one unit a block, kept or dropped with ``code``: a literal block (the
    indented block after a paragraph ending with ``::``, which becomes ``:``, or disappears when it
    is alone on its line), a doctest block (``>>>``), and the body of a code directive
    (``.. code-block::``, :data:`CODE_DIRECTIVES`). Removed: every other directive with its body
    (``toctree``, ``image``, ``automodule``, ``include``, ...), comments, hyperlink targets,
    footnotes and substitution definitions (``..`` blocks), the fields at the top of the file
    (metadata such as ``:orphan:``), tables (grid and simple) and transitions. In the text of a
    paragraph, inline markup gives way to what it shows: roles (``:func:`len``` is ``len``,
    ``:ref:`the guide <guide>``` is ``the guide``, ``~a.b`` is ``b``), hyperlinks (```text
    <https://...>`_`` is ``text``), ````literals````, emphasis, substitutions (``|name|`` is
    ``name``) and backslash escapes; footnote and citation references (``[1]_``) are removed.

    Parameters
    ----------
    path : str or path-like
        A file, or a directory searched recursively (``*.rst``, ``*.rest``).
    levels, unit, splitter, code :
        As for :func:`~stability.readers.read_markdown`.
    encoding, encoding_errors, pattern, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`).

    Returns
    -------
    iterator of Document
        One reference per document; ``meta`` as :func:`~stability.readers.read_markdown` gives it,
        with ``format`` ``"rst"``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "guide.rst"
    >>> _ = file.write_text(":orphan:\\n\\n=====\\nGuide\\n=====\\n\\nIntro with :func:`len`.\\n\\n"
    ...                     "Install\\n-------\\n\\nRun this::\\n\\n    pip install x\\n\\n.. note::\\n\\n   Use a venv.\\n\\n"
    ...                     ".. toctree::\\n\\n   usage\\n\\nUsage\\n-----\\n\\nCall *it*.\\n")
    >>> doc = next(read_rst(file))
    >>> doc.units
    ('Intro with len.', 'Run this:', 'pip install x', 'Use a venv.', 'Call it.')
    >>> doc.references[0].boundaries, doc.meta["titles"]
    ((1, 4), ('Guide', 'Install', 'Usage'))
    """
    return read_sectioned(path, _file_blocks, PATTERNS, levels=levels, unit=unit, splitter=splitter, code=code,
                          encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit)


def _file_blocks(source: Source, file: Path, notes: list[str] | None) -> tuple[list[Block], dict]:
    lines = [line.expandtabs(8).rstrip() for line in source.lines(file)]  # trailing blanks mean nothing
    return list(_blocks(lines, _Styles())), {"format": "rst"}


def rst_paragraphs(source: Source, file: Path, options: dict[str, Any]) -> Iterator[str]:
    """What a sentence splitter learns from in a reStructuredText file: its paragraphs' text."""
    return paragraphs(_file_blocks, source, file)


class _Styles:
    """The title styles of a file, numbered in the order they first appear (their levels)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, bool], int] = {}

    def level(self, character: str, overlined: bool) -> int:
        return min(self.seen.setdefault((character, overlined), len(self.seen) + 1), 6)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blank(line: str) -> bool:
    return not line.strip()


def _indented_body(lines: list[str], start: int, margin: int) -> int:
    """The end of the block indented past ``margin`` from ``start`` (blank lines inside it
    included, those after it not)."""
    end = i = start
    while i < len(lines) and (_blank(lines[i]) or _indent(lines[i]) > margin):
        i += 1
        if not _blank(lines[i - 1]):
            end = i
    return end


def _dedented(lines: list[str]) -> list[str]:
    margin = min((_indent(line) for line in lines if not _blank(line)), default=0)
    return [line[margin:] for line in lines]


def _title(lines: list[str], i: int) -> tuple[str, str, bool, int] | None:
    """The section title at line ``i`` (text, adornment character, overlined, lines it spans), or None."""
    line = lines[i]
    over = _ADORNMENT.match(line)
    if over and i + 2 < len(lines) and not _blank(lines[i + 1]) and lines[i + 2].strip() == line.strip():
        return lines[i + 1].strip(), over.group(1), True, 3
    if over or _blank(line) or _indent(line) or i + 1 >= len(lines):
        return None
    under = _ADORNMENT.match(lines[i + 1])
    length = len(lines[i + 1].strip())
    if (under and not _indent(lines[i + 1]) and lines[i + 1].strip() != "::"
            and length >= min(len(line.strip()), _SHORTEST_UNDERLINE)):
        return line.strip(), under.group(1), False, 2
    return None


def _blocks(lines: list[str], styles: _Styles, first: int = 0, top: bool = True) -> Iterator[Block]:
    """The blocks of ``lines`` (the file's, or an indented body's, whose first line is line
    ``first`` of the file); ``top``: the file itself, whose leading fields are metadata."""
    i = 0
    literal_next = False  # the paragraph before ended with '::': the indented block after it is code
    at_start = top
    while i < len(lines):
        line = lines[i]
        if _blank(line):
            i += 1
            continue
        number = first + i + 1
        if literal_next and _indent(line) > 0:
            end = _indented_body(lines, i, 0)
            yield Block("code", "\n".join(_dedented(lines[i:end])).strip(), number)
            i, literal_next = end, False
            continue
        literal_next = False
        if at_start and _FIELD.match(line):  # docinfo fields (:orphan:, :tocdepth: 2) before the text
            i = _indented_body(lines, i + 1, 0)
            continue
        at_start = False
        title = _title(lines, i)
        if title is not None:
            text, character, overlined, span = title
            yield Block("heading", _inline_text(text), number, styles.level(character, overlined))
            i += span
            continue
        if _indent(line) > 0:  # a block quote: its paragraphs, read as the page shows them
            end = _indented_body(lines, i, 0)
            yield from _blocks(_dedented(lines[i:end]), styles, first + i, top=False)
            i = end
            continue
        if _EXPLICIT.match(line):
            end = _indented_body(lines, i + 1, 0)
            yield from _explicit(line, lines[i + 1:end], styles, first + i + 1)
            i = end
            continue
        if _ADORNMENT.match(line) and len(line.strip()) >= 4:  # a transition
            i += 1
            continue
        if _GRID_TABLE.match(line) or _SIMPLE_TABLE.match(line):
            i = _table_end(lines, i)
            continue
        end = i
        while end < len(lines) and not _blank(lines[end]):
            end += 1
        block = lines[i:end]
        if _DOCTEST.match(line):
            yield Block("code", "\n".join(block).strip(), number)
        else:
            text, literal_next = _paragraph(block)
            if text:
                yield Block("paragraph", text, number)
        i = end


def _explicit(line: str, body: list[str], styles: _Styles, first: int) -> Iterator[Block]:
    """The blocks an explicit markup block shows: an admonition's paragraphs, a code directive's
    code; nothing for the others (directives, comments, targets, footnotes, substitutions)."""
    directive = _DIRECTIVE.match(line)
    if directive is None:
        return
    name = directive.group(1).lower()
    described = name in DESCRIPTION_DIRECTIVES or (":" in name and name.rsplit(":", 1)[1] != "module")
    if name not in PROSE_DIRECTIVES | CODE_DIRECTIVES and not described:
        return
    lines = _dedented(body)
    k = 0
    while k < len(lines) and _FIELD.match(lines[k]):  # the directive's options
        k += 1
    content = lines[k:]
    if name in CODE_DIRECTIVES:
        text = "\n".join(content).strip()
        if text:
            yield Block("code", text, first + k + 1)
        return
    argument = directive.group(2)
    if argument and name in PROSE_DIRECTIVES and name not in ("admonition", "topic", "sidebar", "versionadded",
                                                               "versionchanged", "deprecated"):
        content = [argument, *content]  # '.. note:: Text' starts its paragraph on the directive's line
        k -= 1
    yield from _blocks(content, styles, first + k, top=False)


def _table_end(lines: list[str], i: int) -> int:
    """The line after the table starting at line ``i``: a grid table ends at a blank line, a simple
    table at the blank line after its closing border (its third, or its second without a header)."""
    if _GRID_TABLE.match(lines[i]):
        while i < len(lines) and not _blank(lines[i]):
            i += 1
        return i
    border = lines[i].rstrip()
    i += 1
    while i < len(lines):
        if lines[i].rstrip() == border and (i + 1 >= len(lines) or _blank(lines[i + 1])):
            return i + 1
        i += 1
    return i


def _paragraph(lines: list[str]) -> tuple[str, bool]:
    """A paragraph's text, and whether it ends with ``::`` (a literal block follows)."""
    # a line block's bars and a list's markers are layout, not text; a paragraph is a list when its
    # first line starts an item ("did. Then" inside prose is no item)
    marker = next((pattern for pattern in (_LINE_BLOCK, _LIST_MARKER) if pattern.match(lines[0].strip())), None)
    text = " ".join(marker.sub("", line.strip()) if marker else line.strip() for line in lines).strip()
    literal = text.endswith("::")
    if literal:
        text = text[:-2].rstrip() if text == "::" or text[-3:-2].isspace() else text[:-1]
    return _inline_text(text), literal


def _inline_text(text: str) -> str:
    """``text`` as a page shows it: inline markup removed (see :func:`read_rst`)."""
    text = _ROLE.sub(lambda m: _role_text(m.group(1)), text)
    text = _HYPERLINK.sub(lambda m: m.group(1), text)
    text = _LITERAL.sub(lambda m: m.group(1), text)
    text = _REFERENCE.sub(lambda m: m.group(1), text)
    text = _INTERPRETED.sub(lambda m: m.group(1), text)
    text = _STRONG.sub(lambda m: m.group(1), text)
    text = _EMPHASIS.sub(lambda m: m.group(1), text)
    text = _FOOTNOTE_REFERENCE.sub("", text)
    text = _SUBSTITUTION.sub(lambda m: m.group(1), text)
    return _ESCAPED.sub(lambda m: m.group(1), text).strip()


def _role_text(content: str) -> str:
    """What a role shows: the title of ``title <target>``, the last name of ``~a.b.c``."""
    titled = re.fullmatch(r"(.*?)\s*<[^<>]+>", content, re.DOTALL)
    if titled and titled.group(1):
        return titled.group(1)
    content = content.lstrip("!")
    return content[1:].rsplit(".", 1)[-1] if content.startswith("~") else content
