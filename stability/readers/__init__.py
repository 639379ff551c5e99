"""Corpus readers: turn files on disk into a stream of :class:`~stability.corpus.Document`.

One entry point, :func:`read_corpus`, detects the format (or is told it) and returns a lazy
iterator of documents. Every format is one module of this package and one row of the format table
(:data:`FORMAT_TABLE`, in :mod:`stability.readers.formats`), which detection, dispatch, option
checks, error messages and the ``[corpus]`` keys of a config read:

=========  ======================  ===============================================================
format     reader                  layout
=========  ======================  ===============================================================
choi       :func:`read_choi`       one unit per line, segments separated by ``==========`` lines
                                   (Choi 2000); one document per file
wiki       :func:`read_wiki`       Wiki-727K / Wiki-50: ``========,<level>,<title>.`` headers start
                                   sections, one sentence per line; one document per file
jsonl      :func:`read_jsonl`      one JSON object per line: ``{"id", "units", "references"}``,
                                   or a JSON array of them; references as boundaries or segment
                                   sizes (``"segments"``); the dialogue topic segmentation data
                                   hub's files (``"utterances"``, ``"dial_id"``) as they are
csv        :func:`read_csv`        one row per unit: a text column, label columns (one per
                                   annotator), optional start/end time columns, optional document
                                   column
chen       :func:`read_chen`       Chen et al. (2009): ``X.text`` (a paragraph per line) beside
                                   ``X.segmenttitles`` (``doc,paragraph,title`` per line)
subtitles  :func:`read_subtitles`  captions and subtitles, WebVTT (``.vtt``) and SubRip
                                   (``.srt``), as speech-to-text tools export transcripts: one
                                   document per file, one unit per cue, its times kept; a
                                   chapters track ``X.chapters.vtt`` beside ``X.vtt`` is the
                                   reference
markdown   :func:`read_markdown`   Markdown, one document per file: headings are the reference
                                   boundaries and are removed; paragraphs (or their sentences)
                                   and code blocks are the units
rst        :func:`read_rst`        reStructuredText (Sphinx sources), one document per file: section
                                   titles are the reference boundaries and are removed; paragraphs
                                   (or their sentences), admonitions and code are the units;
                                   other directives, tables and comments are left out
html       :func:`read_html`       HTML pages, one document per file: ``<h1>``..``<h6>`` are the
                                   reference boundaries and are removed; blocks (paragraphs, list
                                   items, table rows, ``<pre>``) are the units, as text; only
                                   ``<main>`` when the page has one
text       :func:`read_text`       plain text, split into sentences (a splitter from
                                   :mod:`stability.splitters`), paragraphs or lines
=========  ======================  ===============================================================

Adding a format: write a module with its reader (keyword options after ``path``, plus
``encoding``, ``encoding_errors``, ``pattern``, ``limit``; build it with
:func:`~stability.readers.common.open_source` and :func:`~stability.readers.common.stream_files`)
and, when its files have no telling extension, a sniffing function; then add one
:class:`CorpusFormat` row to the table in :mod:`stability.readers.formats`.

Conventions shared by every reader
----------------------------------
* **Streaming.** Readers validate their options and list the files when called, then return a
  generator: files are opened one at a time, JSON lines and CSV rows are read one line at a time,
  and only the document being built is held in memory (a JSON array, which cannot be parsed in
  pieces, is read whole, one file at a time).
* **Errors.** Every format error is a :class:`~stability.exceptions.CorpusFormatError` whose
  message starts with ``path:line:`` and says what was expected and what was found. Document ids
  must be unique over the stream; a repeated id is a format error at the place it repeats.
* **Encodings.** ``encoding="utf-8"`` by default, strict: a byte sequence that does not decode is
  a :class:`CorpusFormatError` naming the file, the line and the byte offset, and suggesting
  ``encoding=`` (e.g. ``"latin-1"``; ``"utf-16"`` for a file starting with a UTF-16 byte-order
  mark; ``pattern=`` to leave out a file holding NUL bytes, which is not text). A UTF-8
  byte-order mark at the start of a file is ignored.
  ``encoding_errors`` (``"strict"``, ``"replace"``, ``"ignore"``...) is passed to :func:`open`;
  ``"surrogateescape"`` and ``"surrogatepass"`` are refused: their lone surrogates are no text.
* **Ids.** Formats with one document per file (choi, wiki, subtitles, markdown, rst, html, text) use the file's path relative to
  the directory given, with ``/`` separators (``1/3-11/0.ref``); a single file given directly is
  named by its file name. Directories are walked recursively, following symbolic links to
  directories (a link back to a parent is not followed); hidden entries (``.name``) are skipped,
  and files are sorted in natural order (``2.ref`` before ``10.ref``). JSON uses the
  ``id`` field (default: the line where the document starts); CSV the document column (default: the file stem);
  Chen's format its ``doc`` column.
* **Notes.** Anything a reader repairs, drops or ignores is recorded as a sentence in
  ``Document.meta["notes"]`` (always a list) and also emitted as a :class:`CorpusWarning`, so it
  can be silenced with ``warnings.simplefilter("ignore", CorpusWarning)`` or made an error with
  ``warnings.simplefilter("error", CorpusWarning)``.
* **Meta.** ``Document.meta`` holds ``format``, ``source`` (the file) and, where a document starts
  at a known line, ``line``; format-specific keys are listed with each reader.

Writers :func:`write_jsonl`, :func:`write_choi` and :func:`write_csv` produce files that the
matching readers read back to equal documents.

Examples
--------
>>> sorted(FORMAT_TABLE) == sorted(FORMATS)
True
>>> [row.name for row in FORMAT_TABLE.values() if ".ref" in row.extensions]
['choi']
"""

from __future__ import annotations

from .chen import read_chen
from .choi import CHOI_SEPARATOR, read_choi, write_choi
from .common import CorpusWarning
from .delimited import read_csv, write_csv
from .dispatch import detect_format, detect_formats, read_corpus, register_format, unregister_format
from .formats import FORMAT_TABLE, CorpusFormat
from .html import read_html
from .jsonl import read_jsonl, write_jsonl
from .markdown import read_markdown
from .rst import read_rst
from .subtitles import read_subtitles
from .text import read_text
from .wiki import read_wiki

__all__ = [
    "FORMATS",
    "FORMAT_TABLE",
    "CHOI_SEPARATOR",
    "CorpusFormat",
    "CorpusWarning",
    "detect_format",
    "detect_formats",
    "read_corpus",
    "read_chen",
    "read_choi",
    "read_wiki",
    "read_jsonl",
    "read_csv",
    "read_markdown",
    "read_rst",
    "read_html",
    "read_subtitles",
    "read_text",
    "register_format",
    "unregister_format",
    "write_jsonl",
    "write_choi",
    "write_csv",
]

#: Names of the built-in formats, in the table's order (the table itself is :data:`FORMAT_TABLE`).
FORMATS: tuple[str, ...] = tuple(FORMAT_TABLE)
