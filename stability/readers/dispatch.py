"""The entry points reading the format table: :func:`read_corpus`, :func:`detect_format`."""

from __future__ import annotations

import dataclasses
import fnmatch
import heapq
import inspect
import itertools
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Callable

from ..checks import and_joined, did_you_mean, first_few
from ..corpus import Document
from ..exceptions import CorpusFormatError, InvalidParameterError, InvalidTypeError, warn
from ..splitters import Splitter, SplitterSpec, check_splitter
from .common import (CorpusWarning, Listing, NoTextError, PathLike, _natural_key, check_encoding, list_files,
                     list_folder, looks_binary, no_text_error, open_source, warn_left_out)
from .formats import COMMON_OPTIONS, FORMAT_TABLE, UNREAD_SOURCES, CorpusFormat
from .jsonl import sniff_json_text
from .subtitles import CHAPTER_LIST, is_chapters
from .text import corpus_text

__all__ = ["STDIN", "STDIN_NAME", "detect_format", "detect_formats", "read_corpus", "register_format",
           "unregister_format"]

#: The path that means standard input (``--corpus -``, ``stability score -H -``), and how
#: messages name it.
STDIN, STDIN_NAME = "-", "<stdin>"

_SNIFF_FILES = 10  # files of a directory looked at when extensions do not decide
_SNIFF_UNREAD = 50  # files without a telling extension looked at for the warning on files left out

# (format, why it was chosen, the pattern that overrides the reader's default or None)
Detection = tuple[CorpusFormat, str, "tuple[str, ...] | None"]


def _sniff(file: Path, codec: str, errors: str) -> tuple[CorpusFormat, str] | None:
    """The first row whose sniffer recognises ``file``, with what it saw (none for a binary file)."""
    if looks_binary(file):
        return None
    for row in FORMAT_TABLE.values():
        found = row.sniff(file, codec, errors) if row.sniff is not None else None
        if found:
            return row, found
    return None


def _detect_file(file: Path, codec: str, errors: str) -> Detection:
    suffix = file.suffix.lower()
    if suffix == CHAPTER_LIST and is_chapters(file):
        _refuse_chapter_list(file)
    for row in FORMAT_TABLE.values():
        if suffix in row.extensions:
            return row, f"from the file extension {suffix!r}", None
    sniffed = _sniff(file, codec, errors)
    if sniffed is not None:
        return sniffed[0], f"from {sniffed[1]}", None
    fallback = next(row for row in FORMAT_TABLE.values() if row.fallback)
    # the error's "[format 'text' detected ...]": "detected no unit markup found" did not read
    return fallback, "as the fallback: no unit markup found (no separator, header, or known extension)", None


def _refuse_chapter_list(file: Path) -> None:
    """A chapter list (``talk.chapters.txt``) given alone: it is the reference of the transcript
    beside it, read with it, not a text document."""
    stem = file.with_name(Path(file.stem).stem)
    transcripts = [stem.name + suffix for row in FORMAT_TABLE.values() for suffix in row.extensions
                   if stem.with_name(stem.name + suffix).is_file()]
    found = (f"pass the transcript ({' or '.join(repr(name) for name in transcripts)}) or its folder"
             if transcripts else f"found no transcript named {stem.name + '.*'!r} beside it (such as "
             f"{stem.name + '.vtt'!r} or {stem.name + '.json'!r})")
    raise CorpusFormatError(f"a chapter list is the reference of the transcript beside it, read with it, not a "
                            f"document of its own; {found} (or pass format='text' to read the list as text)",
                            path=str(file))


def _about_the_folder(file: Path) -> bool:
    """A README (any case, any extension): it describes a corpus, and never decides its format."""
    return file.name.lower().startswith("readme")


def _beside_pages(folder: Listing, codec: str, errors: str) -> set[Path]:
    """The files of ``folder`` that hold no documents beside its pages: when it holds files of a
    format of a family (Markdown or HTML pages), those of a format declaring
    :attr:`~stability.readers.formats.CorpusFormat.holds_documents` none of whose first
    :data:`_SNIFF_FILES` holds any (Docusaurus's ``_category_.json`` in every folder of its
    pages). They neither decide the folder's format nor are named as left out."""
    named = _named_files(entry for entry in folder.files if not _about_the_folder(entry[1]))
    if not any(named[row.name] for row in FORMAT_TABLE.values() if row.family):
        return set()
    found: set[Path] = set()
    for row in FORMAT_TABLE.values():
        test, own = row.holds_documents, [file for _, file in named[row.name]]
        if test is not None and own and not any(test(file, codec, errors) for file in own[:_SNIFF_FILES]):
            found.update(own)
    return found


def _named_files(entries: Iterable[tuple[str, Path]]) -> dict[str, list[tuple[str, Path]]]:
    """The ``(relative, file)`` entries each format of the table reads in a folder, by its name, in
    one walk: those whose suffix (case ignored) one of its extensions names. The one place that
    says which files of a folder belong to which format: detection's family, its files left out,
    and the files each format of a family reads, all read it."""
    formats_of: dict[str, list[str]] = {}
    for row in FORMAT_TABLE.values():
        for suffix in row.extensions:
            formats_of.setdefault(suffix, []).append(row.name)
    named: dict[str, list[tuple[str, Path]]] = {name: [] for name in FORMAT_TABLE}
    for entry in entries:
        for name in formats_of.get(entry[1].suffix.lower(), ()):
            named[name].append(entry)
    return named


def _detect_directory(folder: Listing, codec: str, errors: str) -> Detection:
    root, listed = list_files(folder, ("*",), quiet=True)
    settings = _beside_pages(folder, codec, errors)
    files = [(relative, file) for relative, file in listed if not _about_the_folder(file) and file not in settings]
    suffixes = {file.suffix.lower() for _, file in files}
    for row in FORMAT_TABLE.values():
        for suffix in row.extensions:
            if suffix in suffixes:
                return row, f"from the {suffix!r} files in the directory", None
    sniffed = list(itertools.islice(((r, f) for r, f in files if not looks_binary(f)), _SNIFF_FILES))
    for relative, file in sniffed:
        found = _sniff(file, codec, errors)
        if found is not None:
            return found[0], f"from {found[1]} in {relative!r}", ("*",)
    for row in FORMAT_TABLE.values():
        for suffix in row.weak_extensions:
            if suffix in suffixes:
                return row, f"from the {suffix!r} files in the directory", None
    sources = _unread_sources(folder)
    if sources:
        raise CorpusFormatError(f"cannot detect the corpus format: it holds {sources('')}", path=str(root))
    extensions = [s for row in FORMAT_TABLE.values() for s in row.extensions + row.weak_extensions]
    markers = [row.marker for row in FORMAT_TABLE.values() if row.marker]
    raise CorpusFormatError(
        f"cannot detect the corpus format: no {', '.join(extensions)} files, and none of "
        f"{', '.join(repr(relative) for relative, _ in sniffed)} has {' or '.join(markers)}; "
        f"pass format= (one of {', '.join(FORMAT_TABLE)})",
        path=str(root),
    )


def _unread_sources(folder: Listing) -> Callable[[str], str] | None:
    """The page sources of ``folder`` that no reader reads (:data:`UNREAD_SOURCES`), said with
    what to do, a word (``" not read"``) after their count; None when it has none."""
    found: dict[str, list[str]] = {}
    for relative, file in folder.files:
        if file.suffix.lower() in UNREAD_SOURCES:
            found.setdefault(file.suffix.lower(), []).append(relative)
    if not found:
        return None
    names = {suffix: sorted(files, key=_natural_key) for suffix, files in found.items()}
    return lambda said: (and_joined([f"{len(files)} {UNREAD_SOURCES[suffix][0]} file(s){said} ({first_few(files)})"
                                     for suffix, files in names.items()])
                         + ", which no reader reads: " + "; ".join(UNREAD_SOURCES[suffix][1] for suffix in names))


def _left_out(folder: Listing, rows: Sequence[CorpusFormat], codec: str, errors: str) -> list[str]:
    """The files of the directory listed in ``folder`` that ``rows``, chosen from their own
    extensions, will not read and that hold documents of another format: those another format's
    extension names, and those without one (or ``.txt``) whose content another format recognises
    (Wiki-50's articles beside a ``.json`` file; the first :data:`_SNIFF_UNREAD` such files are
    looked at). READMEs are not listed. A file named as one ``rows`` read (``talk.vtt`` beside ``talk.json``, as Whisper
    writes every format) or as its companion (``talk.chapters.vtt``) is the same document, and
    not listed."""
    _, listed = list_files(folder, ("*",), quiet=True)
    settings = _beside_pages(folder, codec, errors)
    listed = [(relative, file) for relative, file in listed if file not in settings]
    named, mine = _named_files(listed), {row.name for row in rows}
    own = {file for name in mine for _, file in named[name]}
    other = {file for name, entries in named.items() if name not in mine for _, file in entries} - own
    weak = {"", *(suffix for r in FORMAT_TABLE.values() for suffix in r.weak_extensions)}
    untold = itertools.islice((file for _, file in listed if file.suffix.lower() in weak and file not in own
                               and not _about_the_folder(file)), _SNIFF_UNREAD)
    recognised = {file for file in untold if _sniff(file, codec, errors) is not None}
    files = [(relative, file) for relative, file in listed if not _about_the_folder(file)
             and (file in other or file in recognised)]
    read = {file.with_suffix("") for file in own}
    unread = {file.with_suffix("") for _, file in files}

    def companion(file: Path) -> bool:  # talk.chapters.vtt beside talk.srt goes with it
        stem = file.with_suffix("")
        return stem.with_suffix("") != stem and stem.with_suffix("") in unread
    return [relative for relative, file in files
            if file.with_suffix("") not in read and file.with_suffix("").with_suffix("") not in read
            and not companion(file)]


def _family(folder: Listing, row: CorpusFormat, pattern: str | Sequence[str] | None) -> list[CorpusFormat]:
    """The formats the files of ``folder`` are read in, ``row`` detected: the formats of its family
    (:attr:`~stability.readers.formats.CorpusFormat.family`) whose extensions name some of the files
    read (those ``pattern`` selects, when given; READMEs aside), in table order, each reading its own
    files (Markdown pages beside HTML ones); else ``row`` alone."""
    if not row.family:
        return [row]
    named = _named_files(entry for entry in _selected(folder, pattern) if not _about_the_folder(entry[1]))
    present = [r for r in FORMAT_TABLE.values() if r.family == row.family and named[r.name]]
    return present or [row]


def _selected(folder: Listing, pattern: str | Sequence[str] | None) -> list[tuple[str, Path]]:
    """The files of ``folder`` that ``pattern`` selects (every one when it is None)."""
    patterns = (pattern,) if isinstance(pattern, str) else tuple(pattern or ())
    return [(relative, file) for relative, file in folder.files
            if not patterns or any(fnmatch.fnmatch(file.name, p) for p in patterns)]


def _own_files(folder: Listing, row: CorpusFormat) -> Listing:
    """``folder``'s listing narrowed to the files ``row``'s extensions name (:func:`_named_files`)."""
    return Listing(folder.root, tuple(_named_files(folder.files)[row.name]))


def _target(path: PathLike, quiet: bool = False) -> PathLike | Listing:
    """What detection and reading look at: the file ``path``, or the directory ``path`` listed once
    (:class:`~stability.readers.common.Listing`), so that its format is detected from the files
    the reader reads."""
    return path if Path(path).is_file() else list_folder(path, quiet=quiet)


def _detect(target: PathLike | Listing, codec: str, errors: str) -> Detection:
    if isinstance(target, Listing):
        return _detect_directory(target, codec, errors)
    return _detect_file(Path(target), codec, errors)


def detect_format(path: PathLike, *, encoding: str = "utf-8", encoding_errors: str = "strict") -> str:
    """Name the format :func:`read_corpus` would use for ``path``.

    Every rule reads the format table (:data:`~stability.readers.FORMAT_TABLE`), in its order.
    A file: its extension (``.ref`` choi, ``.jsonl``/``.json``/``.ndjson`` jsonl, ``.csv``/``.tsv``
    csv, ``.segmenttitles`` chen, ``.vtt``/``.srt`` subtitles, ``.md``/``.markdown``/``.mdx`` markdown,
    ``.rst``/``.rest`` rst, ``.html``/``.htm`` html); otherwise its content (a ``========,<level>,<title>.`` header among
    its first non-blank lines: wiki; a ``==========`` line: choi; a JSON object on the first line,
    or a first line opening an object or an array of objects: jsonl; an ``X.text`` file with
    ``X.segmenttitles`` beside it: chen; a ``WEBVTT`` first line, or a SubRip cue number followed
    by a timing line: subtitles); otherwise text. A directory (searched recursively): the
    first of those extensions present (a README, which describes a corpus, does not count);
    otherwise the content of its first ten text files in
    natural order, as for a file (files holding NUL bytes, such as images, PDFs and office
    documents, are passed over; when one of them decides, every non-hidden file of the directory
    is read, whatever its name: pass ``pattern=`` to narrow it); otherwise ``.txt`` files: text;
    otherwise a :class:`CorpusFormatError`. :func:`read_corpus` warns (:class:`CorpusWarning`)
    when a directory also holds files of another format that the format detected leaves unread:
    by their extension, or by their content for files without one (not those named as a file it
    reads, ``talk.vtt`` beside ``talk.json``). A folder holding pages of several formats of one
    family (Markdown and HTML) is read each file in its own format, one corpus, with a warning saying
    so: this function names the first, :func:`detect_formats` them all.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "article"
    >>> _ = file.write_text("========,1,preface.\\nHello.\\n")
    >>> detect_format(file)
    'wiki'
    """
    codec = check_encoding(encoding, encoding_errors)
    return _detect(_target(path, quiet=True), codec, encoding_errors)[0].name


def detect_formats(path: PathLike, *, encoding: str = "utf-8", encoding_errors: str = "strict") -> tuple[str, ...]:
    """Name every format :func:`read_corpus` reads ``path`` in when no format is given: the one
    :func:`detect_format` names, or, for a folder holding files of several formats of one family
    (Markdown and HTML pages), each of them, in the order of the format table.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "guide.md").write_text("# Install\\n\\nRun pip.\\n")
    >>> _ = (folder / "faq.html").write_text("<h1>FAQ</h1><p>Ask.</p>")
    >>> detect_formats(folder)
    ('markdown', 'html')
    """
    codec = check_encoding(encoding, encoding_errors)
    target = _target(path, quiet=True)
    row = _detect(target, codec, encoding_errors)[0]
    return tuple(r.name for r in (_family(target, row, None) if isinstance(target, Listing) else [row]))


def _lookup(format: Any) -> CorpusFormat:
    """The table row named ``format`` or one of its aliases, case ignored."""
    if isinstance(format, str):
        wanted = format.lower()
        for row in FORMAT_TABLE.values():
            if wanted == row.name or wanted in row.aliases:
                return row
    error = InvalidParameterError.make("format", f"None (detect) or one of {', '.join(FORMAT_TABLE)}", format)
    spellings = [name for row in FORMAT_TABLE.values() for name in (row.name, *row.aliases)]
    raise InvalidParameterError(str(error) + did_you_mean(str(format).lower(), spellings), parameter="format")


def _check_option_names(options: dict[str, Any]) -> None:
    """Every keyword must be an option of some format in the table."""
    known = _all_options()
    for name in options:
        if name not in known:
            hint = did_you_mean(name, list(known) + list(COMMON_OPTIONS))
            raise InvalidParameterError(
                f"read_corpus has no option {name!r}{hint} Options: {', '.join(COMMON_OPTIONS + tuple(known))}"
            )


def _format_options(row: CorpusFormat, options: dict[str, Any], how: str) -> dict[str, Any]:
    """The options given (not None); each must be one that ``row`` takes."""
    given = {name: value for name, value in options.items() if value is not None}
    for name in given:
        if name not in row.options:
            names = [repr(r.name) for r in FORMAT_TABLE.values() if name in r.options]
            users = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
            raise InvalidParameterError(
                f"{name} applies only to format {users}; the corpus is read as {how}; "
                f"pass format= if the detection is wrong", parameter=name
            )
    return given


def read_corpus(
    path: PathLike,
    format: str | None = None,
    *,
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
    **options: Any,
) -> Iterator[Document]:
    """Read a corpus in any supported format, detected or given, as a lazy stream of documents.

    Options are checked and the format detected when this function is called; files are read
    only as the returned iterator is consumed. An option that the format does not use (``levels``
    for a CSV file, say) is an error, since it usually means the format was misdetected. Format
    errors raised while reading say which format was used and whether it was detected or given.

    The format options are the keyword arguments of the readers in the format table; they appear
    in this function's signature (``inspect.signature(read_corpus)``, hence the ``[corpus]`` keys
    of a config), each defaulting to ``None``, which leaves the reader's own default.

    Parameters
    ----------
    path : str or path-like
        A file or a directory; ``"-"`` reads one file's content from standard input (read whole
        when this function is called; its format detected from the content, JSON for JSON lines
        or an array, else as for a file without extension: pass ``format`` for CSV, Markdown or
        HTML).
    format : {"choi", "wiki", "jsonl", "csv", "chen", "subtitles", "markdown", "rst", "html", "text"}, optional
        The format; detected when omitted (see :func:`detect_format`). Case is ignored, and
        these aliases are accepted: ``"wiki727k"``, ``"wiki-727k"``, ``"wiki50"``, ``"wiki-50"``
        (wiki); ``"json"``, ``"ndjson"`` (jsonl); ``"tsv"`` (csv); ``"vtt"``, ``"webvtt"``,
        ``"srt"``, ``"subrip"``, ``"captions"`` (subtitles); ``"md"``, ``"mdx"`` (markdown); ``"restructuredtext"``, ``"rest"`` (rst);
        ``"htm"`` (html);
        ``"txt"`` (text).
    encoding, encoding_errors : str
        Text encoding (default UTF-8) and error handler (default strict).
    pattern : str or sequence of str, optional
        File-name glob(s) selecting files in a directory; defaults per format: ``*.ref`` (choi),
        ``*`` (wiki), ``*.jsonl``/``*.json``/``*.ndjson``, ``*.csv``/``*.tsv``, ``*.segmenttitles`` (chen),
        ``*.vtt``/``*.srt`` (subtitles), ``*.md``/``*.markdown``/``*.mdx``, ``*.rst``/``*.rest``, ``*.html``/``*.htm``, ``*.txt`` (text).
    limit : int, optional
        Stop after this many documents.
    levels :
        Wiki, Markdown, reStructuredText and HTML: header, heading or section title levels that are boundaries (default every
        level; the usual Wiki-50 setting is ``levels="1-2"``, see :func:`read_wiki`).
    unit : {"sentence", "paragraph", "line", "cue", "segment", "row"}
        Text (default ``"sentence"``), Markdown, reStructuredText and HTML (``"paragraph"`` or ``"sentence"``;
        default ``"paragraph"``), subtitles (``"cue"`` or ``"sentence"``, the sentences of each
        speaker turn; default ``"cue"``; see :func:`read_subtitles`), Whisper transcripts in JSON
        (``"segment"`` or ``"sentence"``, likewise; default ``"segment"``; see :func:`read_jsonl`),
        CSV/TSV (``"row"`` or ``"sentence"``, likewise; default ``"row"``; see :func:`read_csv`).
    splitter : str or callable
        Text, Markdown, reStructuredText, HTML, subtitles, Whisper and CSV/TSV transcripts: the sentence splitter (default
        ``"auto"``, see :mod:`stability.splitters`).
    code : {"keep", "drop"}
        Markdown, reStructuredText and HTML: code blocks (fenced or indented; literal blocks and code
        directives; ``<pre>``) as units, or removed
        (default ``"keep"``).
    markup : {"keep", "text"}
        Markdown only: units as their Markdown source, or as the text a reader sees (default
        ``"keep"``; see :func:`read_markdown`).
    where : mapping or str
        JSON lines only: keep the documents whose keys have these values, e.g.
        ``{"set": "test"}`` or ``"set=test,lang=en"`` (see :func:`read_jsonl`).
    blank_lines : {"keep", "drop"}
        Choi only (default ``"keep"``).
    speakers : {"meta", "prefix"}
        Subtitles and CSV: where the speakers' names go, only into ``meta["speakers"]`` (default)
        or also before the text they introduce, ``"Alice: Hello."``, so that segmenters see who
        speaks: for captions, the names of WebVTT voices or written before the text (see
        :func:`read_subtitles`); for CSV, the speaker column's (see :func:`read_csv`).
    text_column, label_columns, start_column, end_column, document_column, speaker_column, delimiter, time_unit :
        CSV only (see :func:`read_csv`).

    Returns
    -------
    iterator of Document

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "doc.txt"
    >>> _ = file.write_text("One. Two.\\n\\nThree.\\n")
    >>> [d.units for d in read_corpus(file)]
    [('One.', 'Two.', 'Three.')]
    >>> [d.units for d in read_corpus(file, "text", unit="paragraph")]
    [('One. Two.', 'Three.')]
    """
    codec = check_encoding(encoding, encoding_errors)
    _check_option_names(options)
    if str(path) == STDIN:
        return _read_stdin(format, codec, dict(encoding=encoding, encoding_errors=encoding_errors, pattern=pattern,
                                               limit=limit), options)
    if pattern is not None and Path(path).is_file():
        warn(f"{path}: pattern= selects files in a folder; this is one file, read whatever its name "
             f"(pattern {pattern!r} not used)", CorpusWarning)
    target: PathLike | Listing = path
    if format is None:
        target = _target(path)  # a folder listed once: the reader reads the files detection saw
        row, reason, sniffed_pattern = _detect(target, codec, encoding_errors)
        how = f"format {row.name!r} detected {reason}"
        pattern = sniffed_pattern if pattern is None and sniffed_pattern is not None else pattern
        rows = _family(target, row, pattern) if isinstance(target, Listing) else [row]
        if len(rows) == 1 and rows[0] is not row:  # pattern= chose the files of another of its family
            row = rows[0]
            how = f"format {row.name!r} detected from the {row.extensions[0]!r} files pattern {pattern!r} selects"
        left_out = (_left_out(target, rows, codec, encoding_errors)
                    if pattern is None and isinstance(target, Listing) and row.extensions else [])
        if left_out:
            shown = first_few(left_out)
            read_as = how if len(rows) == 1 else f"formats {and_joined([repr(r.name) for r in rows])}"
            warn(f"{path}: {len(left_out)} other file(s) not read ({shown}): the corpus is read as "
                 f"{read_as}, one format a corpus; pass format= to read the others instead, or "
                 f"give each format its own folder", CorpusWarning)
        sources = _unread_sources(target) if pattern is None and isinstance(target, Listing) else None
        if sources is not None:
            warn(f"{path}: {sources(' not read')}", CorpusWarning)
        if len(rows) > 1:
            assert isinstance(target, Listing)  # a family of several is found in a folder only
            return _read_family(path, rows, target, dict(encoding=encoding, encoding_errors=encoding_errors,
                                                         pattern=pattern, limit=limit), options)
    else:
        row = _lookup(format)
        how = f"format {row.name!r} given"
    return _read(row, how, target, dict(encoding=encoding, encoding_errors=encoding_errors, pattern=pattern,
                                        limit=limit), options)


def _read(row: CorpusFormat, how: str, path: PathLike, common: dict[str, Any], options: dict[str, Any]) -> Iterator[Document]:
    """``row``'s reader on ``path``, its errors saying ``how`` the format was chosen."""
    given = _format_options(row, options, how)
    try:
        documents = row.reader(path, **common, **given)
    except CorpusFormatError as exc:
        raise _with_format(exc, how) from exc
    return _explain(documents, how)


def _read_family(path: PathLike, rows: list[CorpusFormat], folder: Listing, common: dict[str, Any],
                 options: dict[str, Any]) -> Iterator[Document]:
    """The files of ``folder`` each read in the format of ``rows`` (one family) its extension
    names, one corpus in the natural order of their ids, as one reader would give them; an option
    goes to the formats that take it (``markup`` to Markdown only), one that none takes is refused."""
    hows = {row.name: f"format {row.name!r} detected from the file's extension, its folder holding pages of "
                      f"{len(rows)} formats" for row in rows}
    given = {name: value for name, value in options.items() if value is not None}
    for name in given:
        if not any(name in row.options for row in rows):
            _format_options(rows[0], {name: given[name]}, f"formats {and_joined([repr(r.name) for r in rows])} "
                                                          f"detected from the files' extensions")
    pages = {row.name: sorted((relative for relative, _ in _selected(_own_files(folder, row), common["pattern"])),
                              key=_natural_key) for row in rows}
    counts = [f"{len(names)} {name} ({first_few(names, 3)})" for name, names in pages.items()]
    stems: dict[str, list[str]] = {}
    for names in pages.values():
        for relative in names:
            stems.setdefault(relative.rsplit(".", 1)[0], []).append(relative)
    twice = [" and ".join(repr(name) for name in names) for names in stems.values() if len(names) > 1]
    same = (f"; {len(twice)} page(s) written in two formats under one name are read twice ({first_few(twice, 3, str)})"
            if twice else "")
    warn(f"{path}: pages of {len(rows)} formats, {and_joined(counts)}: each file is read in its own format, one "
         f"corpus (a document's meta['format'] names it){same}; pass format= to read one of them only",
         CorpusWarning)
    shared = _family_splitter(rows, folder, common, given)
    if shared is not None:
        given["splitter"] = shared
    streams = [_read(row, hows[row.name], _own_files(folder, row), common,
                     {name: value for name, value in given.items() if name in row.options}) for row in rows]
    empty: list[str] = []  # the pages of formats none of whose pages has text
    merged = _pages_with_text(folder.root, heapq.merge(*(_ending_empty(stream, empty) for stream in streams),
                                                       key=lambda doc: _natural_key(doc.id)), empty)
    return merged if common["limit"] is None else itertools.islice(merged, common["limit"])


def _ending_empty(documents: Iterator[Document], empty: list[str]) -> Iterator[Document]:
    """``documents``, read from the pages of one format of a folder; when none of those pages
    has text, they are added to ``empty`` rather than stop the corpus: those of another format may."""
    try:
        yield from documents
    except NoTextError as exc:
        if not exc.left_out:
            raise
        empty.extend(exc.left_out)


def _pages_with_text(root: Path, documents: Iterator[Document], empty: list[str]) -> Iterator[Document]:
    """The documents of a folder's pages of several formats; the pages of a format none of which
    has text (:func:`_ending_empty`) are said left out as those of one format are, or, none of the
    folder's pages having text, are its error."""
    read = False
    for doc in documents:
        read = True
        yield doc
    if empty and not read:
        raise no_text_error(root, sorted(empty, key=_natural_key))
    if empty:
        warn_left_out(root, sorted(empty, key=_natural_key))


def _family_splitter(rows: list[CorpusFormat], folder: Listing, common: dict[str, Any],
                     given: dict[str, Any]) -> SplitterSpec | None:
    """For sentences read with a splitter that trains (Punkt): the same splitter, trained once on
    the text of the pages of every format of ``rows`` (:attr:`CorpusFormat.paragraphs`), when the
    first of them is read, so that one corpus is split one way; else None (each reader's own)."""
    resolved = check_splitter(given.get("splitter")) if given.get("unit") == "sentence" else None
    if not isinstance(resolved, SplitterSpec) or not resolved.trains or any(r.paragraphs is None for r in rows):
        return None
    trained: list[Splitter] = []

    def build(_: object) -> Splitter:
        if not trained:
            trained.append(resolved.build(itertools.chain.from_iterable(pages(row) for row in rows)))
        return trained[0]

    def pages(row: CorpusFormat) -> Iterator[str]:
        source = open_source(_own_files(folder, row), encoding=common["encoding"],
                             encoding_errors=common["encoding_errors"], pattern=common["pattern"], limit=None,
                             default_patterns=tuple("*" + suffix for suffix in row.extensions))
        learn = row.paragraphs
        assert learn is not None  # checked above
        return corpus_text(source, lambda file: learn(source, file, given))
    return dataclasses.replace(resolved, build=build, trains=False)


def _read_stdin(format: str | None, codec: str, common: dict[str, Any], options: dict[str, Any]) -> Iterator[Document]:
    """:func:`read_corpus` of what standard input holds, kept in a temporary file (of the
    format's extension) while the documents are read; messages name ``<stdin>``."""
    stream = getattr(sys.stdin, "buffer", None)
    data = stream.read() if stream is not None else sys.stdin.read().encode(codec)
    if not data.strip():
        raise CorpusFormatError("standard input is empty: pipe a corpus into it (e.g. cat corpus.jsonl | "
                                "stability run --corpus - ...)", path=STDIN_NAME)
    row = _lookup(format) if format is not None else _json_row(data)
    if row is not None and row.paired:
        raise InvalidParameterError(f"format {row.name!r} reads several files a document; give its folder, not "
                                    "standard input", parameter="path")
    folder = Path(tempfile.mkdtemp(prefix="stability-stdin-"))
    file = folder / ("stdin" + (row.extensions[0] if row is not None and row.extensions else ""))
    try:
        file.write_bytes(data)
        if row is None:  # as a file without extension: its sniffers, else text
            row, reason, _ = _detect_file(file, codec, common["encoding_errors"])
            how = f"format {row.name!r} detected {reason}"
        else:
            how = f"format {row.name!r} {'given' if format is not None else 'detected from its JSON content'}"
        documents = _read(row, how, file, common, options)
    except BaseException as exc:
        shutil.rmtree(folder, ignore_errors=True)
        if isinstance(exc, CorpusFormatError) and exc.path == str(file):
            raise _from_stdin(exc, file) from None
        raise

    def named() -> Iterator[Document]:
        try:
            yield from documents
        except CorpusFormatError as exc:
            if exc.path != str(file):
                raise
            raise _from_stdin(exc, file) from None
        except (InvalidParameterError, InvalidTypeError) as exc:  # an option refused by a document read
            if str(file) not in str(exc):
                raise
            raise type(exc)(str(exc).replace(str(file), STDIN_NAME), parameter=exc.parameter) from None
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    return named()


def _from_stdin(exc: CorpusFormatError, file: Path) -> CorpusFormatError:
    """``exc`` about the temporary file holding standard input, said of ``<stdin>``."""
    return CorpusFormatError(exc.reason.replace(str(file), STDIN_NAME), path=STDIN_NAME, line=exc.line)


def _json_row(data: bytes) -> CorpusFormat | None:
    """The JSON-lines row when ``data`` holds JSON documents, as a file's content tells them
    (:func:`~stability.readers.jsonl.sniff_json_text`), else None (detected as a file without
    extension is)."""
    return FORMAT_TABLE["jsonl"] if sniff_json_text([data.decode("utf-8", "replace")]) else None


def _with_format(exc: CorpusFormatError, how: str) -> CorpusFormatError:
    message = str(exc)
    prefix = f"{exc.path}:{exc.line}: " if exc.line is not None else f"{exc.path}: " if exc.path else ""
    body = message[len(prefix) :] if message.startswith(prefix) else message
    # a format given is one the user chose: "pass format= to override" would tell them to pass it
    hint = "" if how.endswith(" given") else "; pass format= to override"
    error = type(exc)(f"{body} [{how}{hint}]", path=exc.path, line=exc.line)
    if isinstance(exc, NoTextError) and isinstance(error, NoTextError):
        error.left_out = exc.left_out
    return error


def _explain(documents: Iterator[Document], how: str) -> Iterator[Document]:
    try:
        yield from documents
    except CorpusFormatError as exc:
        raise _with_format(exc, how) from exc


# ---------------------------------------------------------------------------------------------
# the signature of read_corpus follows the table
# ---------------------------------------------------------------------------------------------
def _all_options() -> dict[str, inspect.Parameter]:
    """Every format option, in table order, with the annotation of the first reader taking it."""
    found: dict[str, inspect.Parameter] = {}
    for row in FORMAT_TABLE.values():
        for name in row.options:
            parameter = row.parameter(name)
            annotation = parameter.annotation
            if parameter.default is not None and isinstance(annotation, str):
                annotation = f"{annotation} | None"  # None leaves the reader's own default
            found.setdefault(name, parameter.replace(default=None, annotation=annotation))
    return found


def _refresh_signature() -> None:
    # setattr: a function takes the attribute that inspect.signature reads, but its type declares none
    setattr(read_corpus, "__signature__", _SIGNATURE.replace(parameters=_FIXED + list(_all_options().values())))


def register_format(row: CorpusFormat) -> None:
    """Add a row to the format table (after the built-in ones) and its options to :func:`read_corpus`."""
    if not isinstance(row, CorpusFormat):
        raise InvalidParameterError.make("row", "a CorpusFormat", row)
    taken = {name for r in FORMAT_TABLE.values() for name in (r.name, *r.aliases)}
    clash = sorted(taken & {row.name, *row.aliases})
    if clash:
        raise InvalidParameterError(f"corpus format name(s) {clash} are already in the table")
    FORMAT_TABLE[row.name] = row
    _refresh_signature()


def unregister_format(name: str) -> None:
    """Remove a format added by :func:`register_format` (built-in formats cannot be removed)."""
    if name not in FORMAT_TABLE or name in _BUILT_IN:
        raise InvalidParameterError.make("name", "a format added with register_format", name)
    del FORMAT_TABLE[name]
    _refresh_signature()


_BUILT_IN = frozenset(FORMAT_TABLE)
_SIGNATURE = inspect.signature(read_corpus)
_FIXED = [p for p in _SIGNATURE.parameters.values() if p.kind is not p.VAR_KEYWORD]
_refresh_signature()
