"""The format table: every corpus format the readers know, declared once.

One :class:`CorpusFormat` row per format names its reader, the file extensions that identify it,
the function that recognises its files by content, its writer and its aliases; its options are the
keyword arguments of its reader. :func:`~stability.readers.read_corpus`,
:func:`~stability.readers.detect_format`, their error messages and the ``[corpus]`` keys of a
config all read this table, so adding a format is one new module (a reader, and a sniffing
function if its files have no telling extension) plus one row here.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..corpus import Document
from .chen import read_chen, sniff_chen
from .choi import CHOI_SEPARATOR, read_choi, sniff_choi, write_choi
from .delimited import read_csv, write_csv
from .common import Source
from .html import html_paragraphs, read_html
from .jsonl import holds_documents, read_jsonl, sniff_json, write_jsonl
from .markdown import markdown_paragraphs, read_markdown
from .rst import read_rst, rst_paragraphs
from .subtitles import read_subtitles, sniff_subtitles
from .text import read_text
from .wiki import read_wiki, sniff_wiki

__all__ = ["COMMON_OPTIONS", "CorpusFormat", "FORMAT_TABLE", "UNREAD_SOURCES"]

#: Options every reader takes; the others are the format's own.
COMMON_OPTIONS = ("encoding", "encoding_errors", "pattern", "limit")

#: The sources of documentation pages no reader reads, by extension: what they are, and how to
#: read them (a folder holding them says so, rather than leaving them out without a word).
UNREAD_SOURCES = {
    ".adoc": ("AsciiDoc", "build the HTML pages (asciidoctor) and give their folder"),
}

Sniffer = Callable[[Path, str, str], "str | None"]
FileTest = Callable[[Path, str, str], bool]


@dataclass(frozen=True)
class CorpusFormat:
    """One row of the format table.

    Attributes
    ----------
    name : str
        What ``read_corpus(format=...)`` accepts (also any of ``aliases``, case ignored).
    reader : callable
        ``reader(path, *, encoding, encoding_errors, pattern, limit, **options)`` returning a lazy
        iterator of documents; its other keyword-only arguments are the format's options. ``path``
        is a file or a folder; a folder whose format was detected comes as the
        :class:`~stability.readers.common.Listing` it was detected from (path-like; pass it on to
        :func:`~stability.readers.common.open_source`, which reads its files from it).
    extensions : tuple of str
        File suffixes that decide the format (a file with one, or a directory holding one).
    sniff : callable, optional
        ``sniff(file, codec, errors)`` returning what in the file shows the format (a noun
        phrase used in messages, e.g. ``"a '==========' separator line"``), or ``None``.
    marker : str
        What the sniffer looks for, for the message when nothing is recognised.
    writer : callable, optional
        ``writer(documents, path, ...)`` producing files the reader reads back to equal documents.
    aliases : tuple of str
        Other names accepted for ``format``.
    weak_extensions : tuple of str
        Suffixes that decide only after every sniffer found nothing (``.txt`` files may hold any
        format).
    fallback : bool
        The format of a single file that nothing else recognises (one row only: ``text``).
    paired : bool
        A document spans several files (Chen's ``.text`` and ``.segmenttitles``), so it cannot
        be piped on standard input.
    holds_documents : callable, optional
        ``holds_documents(file, codec, errors)``: whether a file of the format's extension holds
        documents. In a folder holding pages of a family, files of this format none of which holds
        any (a site's ``.json`` settings) neither decide the format nor are named as left out.
    family : str
        Formats of one family (``"pages"``: Markdown and HTML, the pages of a documentation site)
        read the same kind of document with the same options, so a folder holding files of
        several of them, its format not given, is one corpus read file by file, each in its own
        format (an option only some of them take goes to those). Empty: a format of its own.
    paragraphs : callable, optional
        ``paragraphs(source, file, options)``: the text of ``file`` a sentence splitter learns
        from, read with the reader's ``options``. Formats of a family declare it: a splitter that
        trains is trained once on the pages of all of them, so that one corpus is split one way.
    """

    name: str
    reader: Callable[..., Iterator[Document]]
    extensions: tuple[str, ...] = ()
    sniff: Sniffer | None = None
    marker: str = ""
    writer: Callable[..., int] | None = None
    aliases: tuple[str, ...] = ()
    weak_extensions: tuple[str, ...] = ()
    fallback: bool = False
    paired: bool = False
    holds_documents: FileTest | None = None
    family: str = ""
    paragraphs: Callable[[Source, Path, dict[str, Any]], Iterable[str]] | None = None

    @property
    def options(self) -> tuple[str, ...]:
        """The reader's own keyword options (beyond :data:`COMMON_OPTIONS`)."""
        return tuple(
            p.name
            for p in inspect.signature(self.reader).parameters.values()
            if p.kind is p.KEYWORD_ONLY and p.name not in COMMON_OPTIONS
        )

    def parameter(self, option: str) -> inspect.Parameter:
        """The reader's parameter ``option`` (its annotation and default, for documentation)."""
        return inspect.signature(self.reader).parameters[option]


def _rows(*rows: CorpusFormat) -> dict[str, CorpusFormat]:
    return {row.name: row for row in rows}


#: The format table, in order of preference: extensions and sniffers are tried in this order.
FORMAT_TABLE: dict[str, CorpusFormat] = _rows(
    CorpusFormat(
        "choi", read_choi, extensions=(".ref",), sniff=sniff_choi,
        marker=f"{CHOI_SEPARATOR!r} separators", writer=write_choi,
    ),
    CorpusFormat(
        "wiki", read_wiki, sniff=sniff_wiki, marker="'========,<level>,<title>.' headers",
        aliases=("wiki727k", "wiki-727k", "wiki50", "wiki-50"),
    ),
    CorpusFormat(
        "jsonl", read_jsonl, extensions=(".jsonl", ".json", ".ndjson"), sniff=sniff_json,
        marker="a JSON object or array of objects", writer=write_jsonl, aliases=("json", "ndjson"),
        holds_documents=holds_documents,
    ),
    CorpusFormat("csv", read_csv, extensions=(".csv", ".tsv"), writer=write_csv, aliases=("tsv",)),
    CorpusFormat(
        "chen", read_chen, extensions=(".segmenttitles",), sniff=sniff_chen,
        marker="a '.segmenttitles' file beside a '.text' file", paired=True,
    ),
    CorpusFormat(
        "subtitles", read_subtitles, extensions=(".vtt", ".srt"), sniff=sniff_subtitles,
        marker="a 'WEBVTT' line or SubRip cues", aliases=("vtt", "webvtt", "srt", "subrip", "captions"),
    ),
    CorpusFormat("markdown", read_markdown, extensions=(".md", ".markdown", ".mdx"), aliases=("md", "mdx"), family="pages",
                  paragraphs=markdown_paragraphs),
    CorpusFormat("rst", read_rst, extensions=(".rst", ".rest"), aliases=("restructuredtext", "rest"), family="pages",
                  paragraphs=rst_paragraphs),
    CorpusFormat("html", read_html, extensions=(".html", ".htm"), aliases=("htm",), family="pages",
                  paragraphs=html_paragraphs),
    CorpusFormat("text", read_text, weak_extensions=(".txt",), fallback=True, aliases=("txt",)),
)

