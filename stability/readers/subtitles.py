"""Caption and subtitle files, WebVTT (``.vtt``) and SubRip (``.srt``): one transcript a file.

Speech-to-text tools (Whisper, Zoom, Teams, YouTube and most meeting recorders) export a
transcript as captions: a list of *cues*, each a stretch of speech with its start and end time.
The reader makes each cue with text a unit, in order of their start, and keeps its times in
``Document.times``. Text markup is removed: WebVTT's voice, class, language and ruby spans
(``<v Alice>``, ``<c.loud>``), bold, italic and underline, karaoke timestamps
(``<00:00:01.000>``), SubRip's ``<font>`` tags and ``{\\an8}`` placement codes; HTML character
references (``&amp;``) are decoded.

With ``unit="sentence"`` the units are sentences instead: the cues of each speaker turn are
joined and cut into sentences by the splitters of :mod:`stability.splitters`, each sentence
keeping the times of the cues it spans (captions break every few seconds, so a sentence often
spans two or three cues).

A chapters track gives the reference: ``talk.chapters.vtt`` (or ``talk.chapters.srt``) beside
``talk.vtt`` (or ``talk.srt``) holds one cue per chapter, the chapter's title as its text;
``talk.chapters.txt`` lists them in plain text, ``12:31 The budget`` a line (:func:`read_chapter_list`). Every
chapter after the first starts a reference segment at the unit nearest to its start
(:func:`chapter_reference`): the first unit that starts where the chapter starts, when one does
(a chapters track made from the transcript's own times); otherwise the unit whose time span holds
the chapter's start in its first half, or else the first unit starting after it. So a chapter
starting a second into a sentence of ten seconds begins with that sentence, not with the one
after it, and a chapter starting in the second half of a unit, or in a silence between units,
begins with the next unit. This holds for cue and sentence units alike; it matters most for
sentences, which span several cues and take the start of the first: taking the first unit
starting at or after the chapter's start would begin a chapter typed a second into a long
sentence one sentence late.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from ..checks import check_choice, first_few
from ..corpus import Document
from ..exceptions import CorpusFormatError, InvalidParameterError, _short_repr
from ..segmentation import Segmentation
from ..splitters import Splitter, SplitterOption, ends_sentence
from .common import (LINE_SEPARATOR, SENTENCE_SEPARATOR, NoTextError, PathLike, Source, first_lines, make_document,
                     note, open_source, stream_files, unit_separator)
from .text import _checked_split, _splitter_name, build_splitter, resolve_splitter

__all__ = [
    "CHAPTERS", "Cue", "chapter_reference", "chapters_of", "chapters_track", "read_chapter_list", "read_cues",
    "read_subtitles", "sentence_units",
    "sentences", "sniff_subtitles", "turn_texts",
]

SUFFIXES = (".vtt", ".srt")
PATTERNS = tuple("*" + suffix for suffix in SUFFIXES)
#: What sits between a transcript's stem and its suffix in the name of its chapters track:
#: ``talk.vtt`` -> ``talk.chapters.vtt``, ``talk.chapters.srt`` or ``talk.chapters.txt``.
CHAPTERS = ".chapters"
#: The suffix of a chapters track written as a list of chapters, a time and a title a line
#: (``12:31 The budget``), as YouTube descriptions and podcast show notes give them
#: (:func:`read_chapter_list`); a chapters track of any other suffix is a caption file.
CHAPTER_LIST = ".txt"
#: The suffixes a chapters track may have.
CHAPTER_SUFFIXES = SUFFIXES + (CHAPTER_LIST,)
SPEAKERS = ("meta", "prefix")
UNITS = ("cue", "sentence")
#: The fewest cues repeating the line before that make captions rolling (see :func:`unroll`).
ROLLING_MIN = 8

_HEADER = re.compile(r"WEBVTT(?:[ \t].*)?$")
_NON_CUE = re.compile(r"(?:NOTE|STYLE|REGION)(?:[ \t].*)?$")  # WebVTT comments, style sheets, regions
_ARROW = "-->"
_TIMESTAMP = re.compile(r"(?:(\d+):)?(\d{2}):(\d{2})[.,](\d{3})")
_EXPECTED_TIMESTAMP = (
    "a timestamp such as '00:01:02.500' or '01:02.500' (hours optional, minutes and seconds from 00 to "
    "59, three decimals after '.' or ',')"
)
# a tag (<v Alice>, </v>, <c.loud>, <i>, <font color="red">), a karaoke timestamp, a placement code
_TAG = re.compile(r"</?[A-Za-z][^<>]*>|<\d+(?::\d{2})+\.\d{3}>|\{\\[^{}]*\}")
_VOICE = re.compile(r"<v(?:\.[^\s<>]*)?[ \t]+([^<>]*)>")


@dataclass(frozen=True)
class Cue:
    """One cue of a caption file, as the reader sees it.

    Attributes
    ----------
    line : int
        The line of its timing line (``start --> end``).
    start, end : float
        Its times in seconds.
    text : str
        Its text lines joined with a space, markup removed, character references decoded and
        whitespace runs made one space (``""`` for a cue with no text).
    speakers : tuple of str
        The names its voice spans (``<v Name>``) give, in order, each once.
    lines : tuple of str
        Its text line by line, each cleaned as ``text`` is, lines left without text dropped
        (what :func:`unroll` compares).
    highlighted : bool
        Its text underlines a part (``<u>``): a word-highlighting caption, which repeats its
        line once a word (Whisper's ``--highlight_words``).
    """

    line: int
    start: float
    end: float
    text: str
    speakers: tuple[str, ...] = ()
    lines: tuple[str, ...] = ()
    highlighted: bool = False


def read_subtitles(
    path: PathLike,
    *,
    unit: str = "cue",
    splitter: SplitterOption = None,
    speakers: str = "meta",
    encoding: str = "utf-8",
    encoding_errors: str = "strict",
    pattern: str | Sequence[str] | None = None,
    limit: int | None = None,
) -> Iterator[Document]:
    """Read caption files (WebVTT ``.vtt``, SubRip ``.srt``): one document a file, one unit a cue
    (or a sentence).

    A file starting with a ``WEBVTT`` line (text may follow it, and header lines down to the first
    blank line) is WebVTT: its ``NOTE``, ``STYLE`` and ``REGION`` blocks are passed over. Any
    other file is read as SubRip. Cues are separated by blank lines; each is an optional
    identifier line (SubRip's cue number), a timing line ``start --> end`` (anything after the
    end, WebVTT's cue settings such as ``align:start position:10%``, is ignored) and its text
    lines, joined with a space. Timestamps are ``hh:mm:ss.ttt`` or ``mm:ss.ttt``, with ``.`` or
    SubRip's ``,`` before the milliseconds. Markup is removed from the text (voice, class and
    other spans, ``<i>``, ``<b>``, ``<font>``, karaoke timestamps ``<00:00:01.000>``, ``{\\an8}``
    codes) and character references such as ``&amp;`` are decoded. A cue left without text is
    skipped (one note a file counts them). A line of spaces is cue text, as in WebVTT, unless a
    timing line follows it. Rolling captions (YouTube's automatic ones: each cue repeats the line
    before it) keep each line once, in the cue that first shows it (see :func:`unroll`; a note
    says so). Line ends may be CRLF; a UTF-8 byte-order mark is ignored. SubRip cues out of order
    (an edited file) are read in order of their start, with a note; WebVTT requires the order.

    With ``unit="sentence"`` (see :func:`sentence_units`), the cues of each speaker turn
    (consecutive cues with the same voices; every cue, in a file without voices) are joined with
    spaces and cut into sentences by ``splitter``; a sentence ends when the cue it ends in ends,
    or where the next one starts when that one starts inside the same cue (a sentence starting
    inside a cue starts at the share of the cue's time its characters before it take: units never
    share time), and a change of speaker always ends one. Text
    the splitter does not end with a sentence end (``.``, ``!``, ``?``, an ellipsis, a stop of
    another script: :func:`~stability.splitters.ends_sentence`), as in captions without
    punctuation (YouTube's automatic ones) or a turn cut off, is not joined: it stays cut where
    its cues end (a note counts the units so left), so a transcript without punctuation keeps its
    cues as units rather than becoming one unit a turn.

    A file's chapters track, ``X.chapters.vtt`` or ``X.chapters.srt`` beside ``X.vtt`` or
    ``X.srt`` (or ``X.chapters.txt``, a list of chapters a time and a title a line, as YouTube
    descriptions and podcast show notes write them: :func:`read_chapter_list`), gives the reference: each chapter after the first starts a segment at the unit
    nearest to the chapter's start (chapters are cues too, their text the title): the first unit
    starting where the chapter starts, if one does; otherwise the unit holding the chapter's start
    in the first half of its time span, or else the first unit starting after it (see
    :func:`chapter_reference`; with sentence units, the span a sentence takes of its cues). A
    chapter that no unit begins adds no boundary (a note names it). Chapters tracks are read with
    their transcripts, never as documents of their own.

    Malformed input is a :class:`~stability.exceptions.CorpusFormatError` naming the file and the
    line: a timestamp that is not one, a cue that ends before it starts, in WebVTT a cue that starts
    before the cue above it (WebVTT requires cues in order of their start), a block with no
    timing line, a file with no cue holding text, a chapters track without its transcript.

    Parameters
    ----------
    path : str or path-like
        A ``.vtt`` or ``.srt`` file (a chapters track given alone reads its transcript), or a
        directory searched recursively.
    unit : {"cue", "sentence"}
        What a unit is: a cue (default), or a sentence of a speaker turn (see above).
    splitter : str or callable, optional
        Sentence splitter for ``unit="sentence"``, as for the text format (see
        :func:`~stability.readers.read_text`); default ``"auto"``, which learns from the turns of
        every file of the corpus when they are long enough.
    speakers : {"meta", "prefix"}
        Where the names of WebVTT voice spans (``<v Alice>``, Microsoft Teams writes one a cue),
        or of speakers written before the text in a file without them (Zoom's ``Alice Smith:
        ...``, WhisperX's ``[SPEAKER_00]: ...``, when two cues in three begin with a name and
        names repeat, or names in capitals open the turns of two speakers or more; a note says so),
        go: only into ``meta["speakers"]`` (default: units hold only what was said), or also
        before the text they introduce, ``"Alice: Hello."``, so that segmenters see who speaks
        (with sentence units, before every sentence; ``"Ann, Bo: "`` for a cue two voices share).
    encoding, encoding_errors, limit :
        The options of every reader (see :func:`~stability.readers.read_corpus`).
    pattern : str or sequence of str, optional
        File-name glob(s) selecting the files of a directory; default ``"*.vtt"`` and ``"*.srt"``.
        A directory holding ``X.vtt`` and ``X.srt`` (Whisper writes both) is an error: the
        corpus would hold the transcript twice; choose one with ``pattern="*.vtt"``.

    Returns
    -------
    iterator of Document
        Ids are the files' paths relative to the directory given (the file name for a file).
        ``times`` holds every unit's ``(start, end)`` in seconds. ``meta`` holds ``format``,
        ``source``, ``unit``, ``splitter`` (its name, or the callable's qualified name; ``None``
        for cue units), ``unit_separator`` for sentence units (a space: the whitespace a text
        chunker joins them with, :data:`~stability.readers.common.UNIT_SEPARATORS`), ``speakers`` (one entry a unit: the voice's name, several joined with
        ``", "``, or ``None``), ``chapters`` (the chapters track read, or ``None``), ``titles``
        (with chapters: the title of each reference segment) and ``notes``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "talk.vtt").write_text(
    ...     "WEBVTT\\n\\n00:00.000 --> 00:02.000\\n<v Ann>Hello &amp; welcome.\\n\\n"
    ...     "00:02.000 --> 00:05.500 align:start\\nFirst, the budget.\\n\\n"
    ...     "00:05.500 --> 00:08.000\\n<i>Then</i> the roads.\\n")
    >>> _ = (folder / "talk.chapters.vtt").write_text(
    ...     "WEBVTT\\n\\n00:00.000 --> 00:05.000\\nIntro and budget\\n\\n00:05.000 --> 00:08.000\\nRoads\\n")
    >>> (doc,) = read_subtitles(folder)
    >>> doc.id, doc.units
    ('talk.vtt', ('Hello & welcome.', 'First, the budget.', 'Then the roads.'))
    >>> doc.times[1], doc.references[0].boundaries, doc.meta["titles"], doc.meta["speakers"]
    ((2.0, 5.5), (2,), ('Intro and budget', 'Roads'), ('Ann', None, None))

    Sentences instead of cues: the second sentence spans two cues; it starts 7 characters into the
    first cue's 20, so 0.7 s into its 2 s, where the first sentence ends.

    >>> _ = (folder / "talk.vtt").write_text(
    ...     "WEBVTT\\n\\n00:00.000 --> 00:02.000\\nHello. We start with\\n\\n"
    ...     "00:02.000 --> 00:05.500\\nthe budget.\\n\\n00:05.500 --> 00:08.000\\nThen the roads.\\n")
    >>> (doc,) = read_subtitles(folder, unit="sentence", splitter="rules")
    >>> doc.units, doc.times
    (('Hello.', 'We start with the budget.', 'Then the roads.'), ((0.0, 0.7), (0.7, 5.5), (5.5, 8.0)))
    >>> doc.references[0].boundaries
    (2,)
    """
    check_choice(speakers, "speakers", SPEAKERS)
    check_choice(unit, "unit", UNITS)
    resolved = resolve_splitter(splitter, unit)
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=PATTERNS,
    )
    listed = {file for _, file in source.files}
    state: dict[str, Splitter] = {}

    def turns(file: Path) -> Iterable[str]:  # what a sentence splitter learns from: each turn's text
        if is_chapters(file):
            if not source.single or _of_whisper(file):
                return ()
            file = _transcript_of(file)
        return turn_texts(_spoken(source, file, "meta", None))

    def parse(relative: str, file: Path) -> list[Document]:
        if is_chapters(file):
            if not source.single and _of_whisper(file):
                return []  # the chapters of a Whisper transcript, read with it as JSON
            transcript = _transcript_of(file)
            if not source.single:
                return []  # read with its transcript
            relative, file = transcript.name, transcript
        else:
            _refuse_twins(file, listed)
        if resolved is not None and "split" not in state:
            state["split"] = build_splitter(resolved, source, turns)
        return [_document(source, relative, file, speakers, state.get("split"), _splitter_name(resolved))]

    return stream_files(source, parse)


def is_chapters(file: Path) -> bool:
    """Whether ``file`` is named as a chapters track (``X.chapters.vtt``, ``X.chapters.srt``,
    ``X.chapters.txt``)."""
    return file.suffix.lower() in CHAPTER_SUFFIXES and Path(file.stem).suffix.lower() == CHAPTERS


def _siblings(stem: Path, suffixes: Sequence[str] = SUFFIXES) -> list[Path]:
    """The files ``stem`` + each of ``suffixes`` (by default those of caption files) that exist."""
    return [stem.with_name(stem.name + suffix) for suffix in suffixes if stem.with_name(stem.name + suffix).is_file()]


def _of_whisper(chapters: Path) -> bool:
    """Whether ``chapters`` belongs to a Whisper transcript, ``X.json`` beside it and no ``X.vtt``
    or ``X.srt``."""
    stem = chapters.with_name(Path(chapters.stem).stem)
    return not _siblings(stem) and stem.with_name(stem.name + ".json").is_file()


def _transcript_of(chapters: Path) -> Path:
    """The transcript a chapters track belongs to; it must exist, and be one file."""
    stem = chapters.with_name(Path(chapters.stem).stem)
    found = _siblings(stem)
    if len(found) != 1:
        names = " or ".join(repr(stem.name + suffix) for suffix in SUFFIXES)
        problem = "neither exists" if not found else "both exist: rename or move one"
        raise CorpusFormatError(
            f"a chapters track is read with its transcript, {names} beside it; {problem}", path=str(chapters)
        )
    return found[0]


def chapters_of(
    transcript: Path, times: Sequence[tuple[float, float]], lines: Callable[[Path], Iterable[str]],
    notes: list[str],
) -> tuple[tuple[Segmentation, ...], dict[str, Any]]:
    """The reference the chapters track beside ``transcript`` gives its units (their ``(start,
    end)`` in ``times``, which must then be in order of their start), read with ``lines``, and the
    meta entries saying so (``chapters``, ``titles``); no reference and ``chapters`` None without
    a track."""
    chapters = chapters_track(transcript)
    if chapters is None:
        return (), {"chapters": None}
    starts = [start for start, _ in times]
    for i in range(1, len(starts)):
        if starts[i] < starts[i - 1]:
            raise CorpusFormatError(
                f"expected its units in order of their start, to place the chapters of {chapters.name!r}; unit {i} "
                f"starts at {starts[i]:g} s, before unit {i - 1} ({starts[i - 1]:g} s)", path=str(transcript),
            )
    listed = chapters.suffix.lower() == CHAPTER_LIST
    if listed:
        cues = read_chapter_list(lines(chapters), chapters, max((end for _, end in times), default=0.0), notes=notes)
    else:
        cues = read_cues(lines(chapters), chapters, notes=notes)
    if not cues:
        what = "chapter line ('0:00 Intro')" if listed else "chapter cue"
        raise CorpusFormatError(f"expected at least one {what}; found none", path=str(chapters))
    reference, titles = chapter_reference(times, cues, chapters, notes)
    return (reference,), {"chapters": str(chapters), "titles": titles}


def chapters_track(transcript: Path) -> Path | None:
    """The chapters track beside ``transcript``, if any (two of them are an error)."""
    found = _siblings(transcript.with_name(transcript.stem + CHAPTERS), CHAPTER_SUFFIXES)
    if len(found) > 1:
        raise CorpusFormatError(
            f"expected one chapters track for this transcript; found {found[0].name!r} and {found[1].name!r}",
            path=str(transcript),
        )
    return found[0] if found else None


def _refuse_twins(file: Path, listed: set[Path]) -> None:
    """``X.vtt`` and ``X.srt`` both read: the same transcript twice (as Whisper writes it)."""
    twins = [other for other in _siblings(file.with_name(file.stem)) if other != file and other in listed]
    if twins:
        raise CorpusFormatError(
            f"{file.name!r} and {twins[0].name!r} hold the same transcript in two formats, so the corpus "
            f"would hold it twice; expected one of them (pass pattern='*{file.suffix}' to read only these)",
            path=str(file),
        )


#: An underline tag, which word-highlighting captions move along a repeated line.
_UNDERLINE = re.compile(r"<u[\s>]", re.IGNORECASE)


def _merged_highlights(cues: list[Cue]) -> tuple[list[Cue], int]:
    """``cues`` with each cue that repeats the text and voice of the cue before it, one of the two
    underlining a word (``<u>``), merged into that cue (spanning both), and how many were merged.
    Consecutive cues of the same text without the markup stay apart ("Yeah." said twice)."""
    merged: list[Cue] = []
    for cue in cues:
        last = merged[-1] if merged else None
        if (last is not None and (cue.highlighted or last.highlighted) and cue.text == last.text
                and cue.speakers == last.speakers):
            merged[-1] = replace(last, end=max(last.end, cue.end), highlighted=True)
        else:
            merged.append(cue)
    return merged, len(cues) - len(merged)


def _spoken(source: Source, file: Path, speakers: str, notes: list[str] | None) -> list[Cue]:
    """The cues of ``file`` that hold text, rolling captions unrolled; what was skipped or repaired
    is noted in ``notes`` (nothing is noted when it is None: the file is read again)."""
    def tell(text: str) -> None:
        if notes is not None:
            note(notes, file, text)

    cues = read_cues(source.lines(file), file, speakers=speakers, notes=notes)
    empty = [cue.line for cue in cues if not cue.text]
    if empty:
        where = first_few(empty, 10, str)
        lines = "line" if len(empty) == 1 else "lines"
        tell(f"{len(empty)} cue(s) without text skipped (timing {lines} {where})")
    unrolled = unroll([cue for cue in cues if cue.text])
    if unrolled is not None:
        rolled, removed = unrolled
        held = sum(1 for cue in rolled if not cue.text)
        tell(f"rolling captions (each cue repeats the last lines of the cue before, as YouTube's automatic "
             f"captions and live captioning do): {removed} repeated line(s) removed, {held} cue(s) left without "
             f"new text skipped")
        cues = rolled
    spoken, repeats = _merged_highlights([cue for cue in cues if cue.text])
    if repeats:
        tell(f"word-highlighting captions (one cue a word, each repeating its line with the word underlined, as "
             f"Whisper's --highlight_words writes them): {repeats} repeated cue(s) merged, each line read once")
    spoken, named = _names_in_text(spoken, speakers)
    if named:
        tell(f"speaker names written before the text ('Name: ...', as Zoom and WhisperX write them) read as "
             f"voices: {named} name(s), {len({cue.speakers for cue in spoken})} voice(s); a cue without one "
             f"continues the voice before it")
    if not spoken:  # a silent recording's captions: left out of a folder with a warning
        raise NoTextError(
            "expected at least one cue with text; " + (f"its {len(cues)} cue(s) have none" if cues else "found no cue"),
            path=str(file),
        )
    return spoken


#: A speaker's name written before a cue's text, as Zoom (``Alice Smith: ...``) and WhisperX
#: (``[SPEAKER_00]: ...``) write them: a bracketed tag, or one to four words, then a colon and a space.
_NAMED = re.compile(r"(?:\[(?P<tag>[^\[\]:]{1,40})\]|(?P<name>\w[\w.'\-]*(?: [\w.'\-]+){0,3})) ?: +(?P<said>\S.*)")


def _names_in_text(cues: list[Cue], speakers: str) -> tuple[list[Cue], int]:
    """``cues`` with the speaker names written before their text read as their voices, and how
    many cues named one; ``cues`` as they are, and 0, when a cue has a voice span or the names do
    not look like a transcript's.

    They do when at least two cues in three begin with a name (:data:`_NAMED`) and names repeat
    (at most half as many names as cues naming one, or two), or when names are written only where
    the speaker changes, as subtitles do (:func:`_named_at_changes`): captions whose lines begin
    ``Step 1:``, ``Note:`` here and there, or a title, are not a transcript's speakers. The name leaves the
    text (``speakers="meta"``) or stays before it as ``Name: `` (``"prefix"``, as a voice span
    is written); a cue without a name continues the voice of the cue before it (tools write the
    name when the speaker changes).

    >>> said = [Cue(1, 0.0, 1.0, "Ann Lee: Hi all."), Cue(4, 1.0, 2.0, "Budget first."),
    ...         Cue(7, 2.0, 3.0, "[SPEAKER_01]: Ok."), Cue(10, 3.0, 4.0, "Ann Lee: So.")]
    >>> cues, named = _names_in_text(said, "meta")
    >>> [(cue.speakers, cue.text) for cue in cues], named  # doctest: +NORMALIZE_WHITESPACE
    ([(('Ann Lee',), 'Hi all.'), (('Ann Lee',), 'Budget first.'), (('SPEAKER_01',), 'Ok.'),
      (('Ann Lee',), 'So.')], 3)
    """
    if not cues or any(cue.speakers for cue in cues):
        return cues, 0
    found = [_NAMED.fullmatch(cue.text) for cue in cues]
    names = [match.group("tag") or match.group("name") for match in found if match is not None]
    named_often = 3 * len(names) >= 2 * len(cues) and len(set(names)) <= max(2, len(names) // 2)
    if not named_often and not _named_at_changes(names, len(cues), found):
        return cues, 0
    read: list[Cue] = []
    voice: tuple[str, ...] = ()
    for cue, match in zip(cues, found):
        text = cue.text
        if match is not None:
            voice = (" ".join((match.group("tag") or match.group("name")).split()),)
            text = match.group("said") if speakers == "meta" else f"{voice[0]}: {match.group('said')}"
        read.append(replace(cue, text=text, speakers=voice))
    return read, len(names)


def _named_at_changes(names: list[str], n_cues: int, found: list[re.Match | None]) -> bool:
    """Whether ``names`` (those ``found`` begins ``n_cues`` cues with) are speakers named where the
    speaker changes, as subtitles write them (``ALICE: ...`` on a new speaker's first cue, WhisperX's
    ``[SPEAKER_00]: ...``): each a tag in brackets or a name in capitals, at least two speakers, each
    named twice on average, in at least four cues and one cue in five. Words before a colon in
    ordinary captions (``Note:``, ``Step 1:``) are neither in capitals nor so frequent."""
    shouted = all(match is None or match.group("tag") or match.group("name").isupper() for match in found)
    return (shouted and len(names) >= 4 and 5 * len(names) >= n_cues
            and 2 <= len(set(names)) <= len(names) // 2)


def _document(source: Source, doc_id: str, file: Path, speakers: str, split: Splitter | None,
              splitter: str | None) -> Document:
    notes: list[str] = []
    if split is None:
        spoken = _spoken(source, file, speakers, notes)
    else:  # the names go before each sentence, not into the text the splitter reads
        spoken = sentences(_spoken(source, file, "meta", notes), split, file, notes)
        if speakers == "prefix":
            spoken = [replace(cue, text=f"{', '.join(cue.speakers)}: {cue.text}") if cue.speakers else cue
                      for cue in spoken]
    meta: dict = {
        "format": "subtitles",
        "source": str(file),
        "unit": "cue" if split is None else "sentence",
        "splitter": splitter,
        "speakers": tuple(", ".join(cue.speakers) if cue.speakers else None for cue in spoken),
    }
    if split is not None:  # sentences run on as text (a chunker joins them so); a cue a line, the default
        meta.update(sentence_separators(spoken))
    references, found = chapters_of(file, [(cue.start, cue.end) for cue in spoken], source.lines, notes)
    meta.update(found, notes=notes)
    return make_document(
        file, None, id=doc_id, units=tuple(cue.text for cue in spoken), references=references,
        times=tuple((cue.start, cue.end) for cue in spoken), meta=meta,
    )


def sentence_separators(units: Sequence[Cue]) -> dict[str, Any]:
    """What a chunker joins sentence units of a transcript with (``meta`` entries): a space
    (``unit_separator``), and where the speaker changes between two of them a newline, each turn on
    a line of its own as a transcript prints it (``unit_separators``, one per gap, only when some
    gap is a change of speaker).

    >>> said = [Cue(1, 0, 1, "Hi.", ("A",)), Cue(1, 1, 2, "How are you?", ("A",)), Cue(4, 2, 3, "Fine.", ("B",))]
    >>> sentence_separators(said)
    {'unit_separator': ' ', 'unit_separators': (' ', '\\n')}
    """
    found: dict[str, Any] = {"unit_separator": unit_separator("sentence")}
    gaps = tuple(LINE_SEPARATOR if before.speakers != after.speakers else SENTENCE_SEPARATOR
                 for before, after in zip(units, units[1:]))
    if LINE_SEPARATOR in gaps:
        found["unit_separators"] = gaps
    return found


def _turns(cues: Sequence[Cue], cuts: Collection[int] = ()) -> list[list[Cue]]:
    """``cues`` in runs of consecutive cues with the same voices (one run, without voices), a run
    also starting at each index in ``cuts``."""
    runs: list[list[Cue]] = []
    for k, cue in enumerate(cues):
        if runs and runs[-1][-1].speakers == cue.speakers and k not in cuts:
            runs[-1].append(cue)
        else:
            runs.append([cue])
    return runs


def turn_texts(cues: Sequence[Cue], cuts: Collection[int] = ()) -> list[str]:
    """The text of each speaker turn of ``cues`` (consecutive cues with the same ``speakers``;
    one starting at each index in ``cuts`` too), their texts joined (:func:`_joined`): what
    :func:`sentence_units` cuts, and what a splitter that trains learns from."""
    return [_joined([cue.text for cue in turn])[0] for turn in _turns(cues, cuts)]


#: Characters of scripts written without spaces between words (Chinese, Japanese kana and their
#: punctuation and full-width forms): two cues meeting between two of them are joined without one.
_UNSPACED = re.compile("[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _joined(texts: Sequence[str]) -> tuple[str, list[int]]:
    """``texts`` joined with a space, or with nothing where the first ends and the next starts
    with a character of a script written without spaces (``面团需要`` and ``发酵两个小时。`` make
    ``面团需要发酵两个小时。``: a space there changed the text and split a word for the character-pair
    tokenizer); and where each text starts in the result.

    >>> _joined(["面团需要", "发酵两个小时。", "Then", "we go"])
    ('面团需要发酵两个小时。 Then we go', [0, 4, 12, 17])
    """
    out, starts = "", []
    for text in texts:
        if out:
            out += "" if _UNSPACED.match(out[-1]) and _UNSPACED.match(text[:1]) else " "
        starts.append(len(out))
        out += text
    return out, starts


def sentences(cues: Sequence[Cue], split: Splitter, file: Path | str, notes: list[str], *,
              pieces: str = "cues", where: Path | str | None = None, cuts: Collection[int] = ()) -> list[Cue]:
    """The sentence units of ``cues`` (:func:`sentence_units`, ``cuts`` as there), with a note in
    ``notes`` counting the units left as their cues (``pieces`` names them: ``"segments"`` for a
    Whisper transcript, ``"rows"`` for a CSV one). ``file`` names the file in errors, ``where``
    the place in the note (default ``file``)."""
    units, held = sentence_units(cues, split, file, cuts)
    if held:
        note(notes, file if where is None else where,
             f"{held} unit(s) left as their {pieces}: text without a sentence end to close it (no punctuation, "
             f"as in automatic captions, or a turn cut off) is not joined")
    return units


def sentence_units(cues: Sequence[Cue], split: Splitter, file: Path | str,
                   cuts: Collection[int] = ()) -> tuple[list[Cue], int]:
    """The sentences of ``cues`` (each with text), as cues spanning the cues they were read from.

    The cues of each speaker turn (consecutive cues with the same ``speakers``) are joined with
    single spaces and cut by ``split``; each sentence takes the line of the cue it starts in. A
    sentence spanning several cues that does not end as one
    (:func:`~stability.splitters.ends_sentence`: text without punctuation, a turn cut off) is cut
    again where its cues end. Units never share time: captions time cues, not words, so a unit
    starting inside a cue starts at the share of the cue's time its characters before it take
    (:func:`_time_at`), and a unit ends where the next one starts when that one starts inside the
    cue it ends in, else when that cue ends. A turn also starts at each index of ``cues`` in
    ``cuts`` (a reference boundary between two rows of a CSV transcript: no sentence spans it).
    Returns the units and how many of them are such parts. ``file`` names the file in errors.

    >>> from stability.splitters import split_rules
    >>> said = [Cue(1, 0.0, 2.0, "Hi. So the"), Cue(4, 2.0, 3.0, "plan is set."), Cue(7, 3.0, 4.0, "Ok then"),
    ...         Cue(10, 4.0, 5.0, "we go", ("Bo",)), Cue(13, 5.0, 6.0, "home now", ("Bo",))]
    >>> units, held = sentence_units(said, split_rules, "x.vtt")
    >>> [(cue.text, cue.start, cue.end) for cue in units]  # doctest: +NORMALIZE_WHITESPACE
    [('Hi.', 0.0, 0.8), ('So the plan is set.', 0.8, 3.0), ('Ok then', 3.0, 4.0),
     ('we go', 4.0, 5.0), ('home now', 5.0, 6.0)]
    >>> held  # Bo's turn has no sentence end: its two cues stay two units
    2
    """
    units: list[Cue] = []
    held = 0
    for turn in _turns(cues, cuts):
        text, starts = _joined([cue.text for cue in turn])  # ``starts``: where each cue's text starts in it
        pieces: list[tuple[int, int, int, str, bool]] = []  # (first cue, last cue, offset, text, a part?)
        for begin, end in _spans(text, _checked_split(split, text, Path(file)), file):
            first, last = bisect_right(starts, begin) - 1, bisect_right(starts, end - 1) - 1
            sentence = text[begin:end]
            if first == last or ends_sentence(sentence):
                pieces.append((first, last, begin, sentence, False))
                continue
            for k in range(first, last + 1):
                at = max(begin, starts[k])
                part = text[at:min(end, starts[k] + len(turn[k].text))]
                if part.strip():
                    pieces.append((k, k, at + len(part) - len(part.lstrip()), part.strip(), True))
        for i, (first, last, begin, sentence, cut) in enumerate(pieces):
            following = pieces[i + 1] if i + 1 < len(pieces) else None
            end_time = (_time_at(turn[last], following[2] - starts[last]) if following and following[0] == last
                        else turn[last].end)
            source = turn[first]
            units.append(Cue(source.line, _time_at(source, begin - starts[first]), end_time, sentence, source.speakers))
            held += cut
    return units, held


def _time_at(cue: Cue, offset: int) -> float:
    """The time at character ``offset`` of ``cue``'s text: its start plus the share of its
    duration the characters before ``offset`` take (a cue's own start at 0, its end past its
    text), to the millisecond, as caption files write times."""
    if offset <= 0 or not cue.text:
        return cue.start
    return round(cue.start + (cue.end - cue.start) * min(offset / len(cue.text), 1.0), 3)


def _spans(text: str, sentences: Iterable[str], file: Path | str) -> Iterator[tuple[int, int]]:
    """Where each of ``sentences`` lies in ``text``, ``(begin, end)``: they must be its pieces, in
    order, whitespace aside (a splitter may join two pieces with a space)."""
    kept = [i for i, char in enumerate(text) if not char.isspace()]  # offsets of the non-space characters
    solid = "".join(text[i] for i in kept)
    at = 0
    for k, sentence in enumerate(sentences):
        piece = "".join(sentence.split())
        if solid[at:at + len(piece)] != piece:
            raise InvalidParameterError(
                f"{file}: the splitter must return the sentences of the text it is given, in order and unchanged "
                f"(spaces aside); its sentence {k}, {_short_repr(sentence)}, is not the text that follows, "
                f"{_short_repr(text[kept[at]:] if at < len(kept) else '')}", parameter="splitter",
            )
        yield kept[at], kept[at + len(piece) - 1] + 1
        at += len(piece)
    if at != len(solid):
        raise InvalidParameterError(
            f"{file}: the splitter must return the sentences of the text it is given, all of it; it left out "
            f"{_short_repr(text[kept[at]:])}", parameter="splitter",
        )


def chapter_reference(
    times: Sequence[tuple[float, float]], chapters: Sequence[Cue], where: Path | str, notes: list[str]
) -> tuple[Segmentation, tuple[str, ...]]:
    """The reference a chapters track (in order of their start) gives units spanning ``times``
    (``(start, end)`` pairs, in order of their start).

    Each chapter after the first starts a segment at the unit nearest to the chapter's start:

    * the first unit starting exactly where the chapter starts, when one does (chapters made from
      the transcript's own times);
    * otherwise the first unit that starts after the chapter's start or holds it in the first
      half of its span (before its middle, ``(start + end) / 2``): of two units where one ends as
      the next starts, the one whose start is nearer, the later one at equal distance.

    A unit never goes to a chapter before the one of the unit above it. A chapter starting in a
    sentence's first half begins with that sentence rather than with the one after it (a sentence's
    times are the share of its cues' times its characters take: see :func:`sentence_units`).
    Units before the first chapter belong to it. A chapter that no unit begins (its units, if any, go
    to the chapter after it) adds no boundary, and a note says so; one starting after the last unit
    ends has its own note (the video or episode runs on after the speech, into an outro or credits).
    A first chapter starting after the last unit ends is an error: no chapter is then of this
    recording. Returns the reference and the title of each of its segments.

    Chapters at 5 s (where unit 2 starts) and at 7 s (in the second half of unit 2, 5 to 7.5 s):

    >>> cues = [Cue(1, 0.0, 5.0, "Intro"), Cue(4, 5.0, 7.0, "Budget"), Cue(7, 7.0, 9.0, "Roads")]
    >>> reference, titles = chapter_reference([(0.0, 2.0), (2.0, 5.0), (5.0, 7.5), (7.5, 9.0)], cues, "x", [])
    >>> reference.boundaries, titles
    ((2, 3), ('Intro', 'Budget', 'Roads'))

    A sentence from 4 s to 16 s, a chapter at 5 s: the sentence begins it.

    >>> reference, _ = chapter_reference([(0.0, 4.0), (4.0, 16.0), (16.0, 20.0)], cues[:2], "x", [])
    >>> reference.boundaries
    (1,)
    """
    end = max((stop for _, stop in times), default=0.0)
    if chapters and chapters[0].start > end:
        raise CorpusFormatError(
            f"expected the chapters of this recording; the first starts at {chapters[0].start:g} s, after the "
            f"transcript ends ({end:g} s, where its last unit ends)", path=str(where), line=chapters[0].line,
        )
    starts = {start for start, _ in times}
    firsts = [0]  # the first unit of each chapter, never before the previous chapter's
    for cue in chapters[1:]:
        first, exact = firsts[-1], cue.start in starts
        while first < len(times) and times[first][0] < cue.start and (exact or sum(times[first]) / 2 <= cue.start):
            first += 1
        firsts.append(first)
    labels = [bisect_right(firsts, i) - 1 for i in range(len(times))]  # the chapter of each unit
    reference = Segmentation.from_labels(labels)
    empty = sorted(set(range(len(chapters))) - set(labels))
    late = [i for i in empty if chapters[i].start > end]
    inside = [i for i in empty if i not in late]
    if inside:
        shown = ", ".join(f"{_short_repr(chapters[i].text)} (line {chapters[i].line})" for i in inside)
        note(notes, where, f"{len(inside)} chapter(s) that no unit begins, so they mark no boundary: {shown}")
    if late:
        shown = ", ".join(f"{_short_repr(chapters[i].text)} (line {chapters[i].line}, {chapters[i].start:g} s)"
                          for i in late)
        note(notes, where, f"{len(late)} chapter(s) starting after the transcript ends ({end:g} s, where its last "
                           f"unit ends), so they mark no boundary: {shown}")
    return reference, tuple(chapters[labels[start]].text for start, _ in reference.segments)


def read_cues(lines: Iterable[str], file: Path | str, *, speakers: str = "meta",
              notes: list[str] | None = None) -> list[Cue]:
    """The cues of a caption file's lines (line ends removed), in order of their start, empty ones
    included.

    ``speakers="prefix"`` puts each voice's name before the text it introduces (see
    :func:`read_subtitles`). Errors name ``file`` and the line. WebVTT requires cues in order of
    their start: a cue starting before the one above it is an error. SubRip has no such rule (an
    edited file may hold its cues out of order): they are put in order of their start (cues
    starting together keep the file's order) and a note in ``notes`` says so, when given.

    >>> [c.text for c in read_cues(["1", "00:00:01,000 --> 00:00:02,500", "<b>Hi</b> there", ""], "x.srt")]
    ['Hi there']
    """
    cues: list[Cue] = []
    late: list[Cue] = []  # SubRip cues starting before a cue above them
    for webvtt, block in _blocks(lines):
        cue = _block(block, webvtt, file, speakers)
        if cue is None:
            continue
        if cues and cue.start < cues[-1].start:
            if webvtt:
                raise CorpusFormatError(
                    f"expected cues in order of their start (WebVTT requires it); this cue starts at {cue.start:g} s, "
                    f"before the cue at line {cues[-1].line} ({cues[-1].start:g} s)",
                    path=str(file), line=cue.line,
                )
            late.append(cue)
        cues.append(cue)
    if late:
        cues.sort(key=lambda cue: cue.start)
        if notes is not None:
            where = first_few([cue.line for cue in late], 10, str)
            note(notes, file, f"{len(late)} SubRip cue(s) start before the cue above them (timing line(s) {where}): "
                              f"all cues are read in order of their start")
    return cues


#: A line of a chapter list: a time (``m:ss``, ``mm:ss`` or ``h:mm:ss``, in parentheses or brackets
#: or not), a dash, en or em dash, colon or bar between it and the title, or spaces only; a list
#: bullet before it may stay.
_CHAPTER_LINE = re.compile(r"(?:[-*\u2022]\s+)?(?P<open>[(\[])?(?P<time>(?:(?P<h>\d+):(?=\d\d:))?(?P<m>\d+):(?P<s>\d\d))"
                           r"(?(open)[)\]])(?:\s*[-\u2013\u2014:|]\s*|\s+)(?P<title>\S.*)")
#: A time as a chapter line gives it. A line holding none is a heading (``Chapters:``,
#: ``TIMESTAMPS``), which a chapter list pasted from a description may have once, above its chapters;
#: a line holding one elsewhere than at its start (``Intro 0:00``) is a chapter written wrong.
_A_TIME = re.compile(r"\d+:\d\d")


def read_chapter_list(lines: Iterable[str], file: Path | str, end: float, *,
                      notes: list[str] | None = None) -> list[Cue]:
    """The chapters of a chapter list, one a line as YouTube descriptions and podcast show notes
    write them, as cues (a chapter ends where the next starts, the last one at ``end``, where the
    transcript ends).

    A line is a time and a title: ``0:00 Intro``, ``12:31 - The budget``, ``1:02:03 Questions``
    (minutes and seconds, with hours before them in a recording over an hour; the time may be in
    parentheses or brackets, a list bullet may come before it, and a dash, an en or em dash, a
    colon or a bar may stand between it and the title). Blank lines are passed over, and so is one
    heading line above the first chapter, a line holding no time (``Chapters:``,
    ``Timestamps``, as a list pasted from a YouTube description has; a note in ``notes``, when
    given, names it). Errors name ``file`` and the line: any other line that is not a time and a
    title (a second heading, a heading below a chapter, a time without a title or after it), seconds (or
    minutes after hours) over 59, a chapter that does not start after the one above it. A chapter
    starting after ``end`` is read (the last one then ends where it starts): it marks no boundary,
    as a chapter of a caption track past the end does (see :func:`chapter_reference`).

    >>> [(c.start, c.end, c.text) for c in read_chapter_list(["Chapters:", "0:00 Intro", "", "1:05 - Budget"],
    ...                                                      "x.txt", 90.0)]
    [(0.0, 65.0, 'Intro'), (65.0, 90.0, 'Budget')]
    """
    found: list[tuple[int, float, str]] = []
    heading: tuple[int, str] | None = None
    for lineno, line in enumerate(lines, 1):
        text = (line.lstrip("\ufeff") if lineno == 1 else line).strip()
        if not text:
            continue
        match = _CHAPTER_LINE.fullmatch(text)
        if match is None and not found and heading is None and not _A_TIME.search(text):
            heading = (lineno, text)
            if notes is not None:
                note(notes, file, f"line {lineno}, {_short_repr(text)}, read as the list's heading, not a chapter")
            continue
        if match is None:
            why = (f" (one heading line may come above the chapters: this list has one at line {heading[0]}, "
                   f"{_short_repr(heading[1])})" if heading is not None and not found else "")
            raise CorpusFormatError(
                f"expected a chapter: a time and its title, such as '0:00 Intro' or '1:02:03 - Questions', one a "
                f"line; received {_short_repr(text)}{why}", path=str(file), line=lineno,
            )
        hours, minutes, seconds = (int(match.group(g) or 0) for g in ("h", "m", "s"))
        if seconds > 59 or (match.group("h") is not None and minutes > 59):
            raise CorpusFormatError(
                f"expected minutes and seconds from 00 to 59 in the chapter's time; received {match.group('time')!r}",
                path=str(file), line=lineno,
            )
        start = float((hours * 60 + minutes) * 60 + seconds)
        if found and start <= found[-1][1]:
            raise CorpusFormatError(
                f"expected each chapter to start after the one above it; this one starts at {match.group('time')} "
                f"({start:g} s), the one at line {found[-1][0]} at {found[-1][1]:g} s", path=str(file), line=lineno,
            )
        found.append((lineno, start, match.group("title").strip()))
    ends = [start for _, start, _ in found[1:]] + [max([end] + [start for _, start, _ in found[-1:]])]
    return [Cue(lineno, start, stop, title) for (lineno, start, title), stop in zip(found, ends)]


def _blocks(lines: Iterable[str]) -> Iterator[tuple[bool, list[tuple[int, str]]]]:
    """``(webvtt, block)`` for every block of ``(line number, line)`` after the header;
    ``webvtt``: the file starts with a ``WEBVTT`` line.

    An empty line ends a block. A line of spaces only is part of the cue's text, as WebVTT
    reads it (YouTube's automatic captions hold one in every cue), unless a timing line follows
    it (or an identifier line and a timing line): then it separates two cues."""
    block: list[tuple[int, str]] = []
    webvtt = in_header = False
    for lineno, line in enumerate(lines, 1):
        if lineno == 1 and _HEADER.match(line.lstrip("\ufeff")):
            webvtt = in_header = True  # the header runs to the first blank line
            continue
        if in_header:
            if not line.strip() or _ARROW not in line:
                in_header = bool(line.strip())
                continue
            in_header = False  # a cue right under the header, without the blank line
        if line:
            block.append((lineno, line))
        elif block:
            yield from ((webvtt, part) for part in _split_at_spaces(block))
            block = []
    if block:
        yield from ((webvtt, part) for part in _split_at_spaces(block))


def _split_at_spaces(block: list[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """The cues of a block whose lines of spaces may separate cues: one before a timing line (or
    before an identifier and a timing line) ends a cue; lines of spaces before a cue's first
    line are dropped (a block of them only gives nothing)."""
    part: list[tuple[int, str]] = []
    for k, (lineno, line) in enumerate(block):
        if line.strip():
            part.append((lineno, line))
            continue
        after = [text for _, text in block[k + 1:k + 3]]
        if after and (_ARROW in after[0] or (len(after) == 2 and _ARROW in after[1])) and part:
            yield part
            part = []
        elif part:
            part.append((lineno, line))
    if part:
        yield part


def _block(block: list[tuple[int, str]], webvtt: bool, file: Path | str, speakers: str) -> Cue | None:
    """The cue of one block of lines (none for a comment, a style sheet or a region)."""
    first = block[0][1]
    if _ARROW in first:
        timing, text = block[0], block[1:]
    elif len(block) > 1 and _ARROW in block[1][1]:
        timing, text = block[1], block[2:]
    elif webvtt and _NON_CUE.match(first):
        return None
    else:
        expected = "a cue: an identifier line (optional) and a timing line 'start --> end'"
        why = ("a WebVTT block, in a file without the 'WEBVTT' first line that WebVTT requires: add that line"
               if _NON_CUE.match(first) else
               f"a blank line inside a cue's text ends the cue: if this is text of the cue above, remove the blank "
               f"line before it, line {block[0][0] - 1}; otherwise remove this text or add its timing line")
        raise CorpusFormatError(
            f"expected {expected}, then the cue's text; received {_short_repr(first)} ({why})",
            path=str(file), line=block[0][0],
        )
    for lineno, line in text:
        if _ARROW in line:
            raise CorpusFormatError(
                f"expected a blank line before the next cue; this timing line follows the text of the cue at "
                f"line {timing[0]}", path=str(file), line=lineno,
            )
    lineno, line = timing
    start_text, _, after = line.partition(_ARROW)
    parts = after.split()
    start = _seconds(start_text.strip(), "start", file, lineno)
    if not parts:
        raise CorpusFormatError(
            f"expected a timing line 'start --> end' with the end after the arrow; received {_short_repr(line)}",
            path=str(file), line=lineno,
        )
    end = _seconds(parts[0], "end", file, lineno)
    if end < start:
        raise CorpusFormatError(
            f"expected a cue to end at or after its start; it starts at {start_text.strip()} and ends at {parts[0]}",
            path=str(file), line=lineno,
        )
    raw = " ".join(line for _, line in text)
    words, names = _clean(raw, speakers)
    shown = tuple(cleaned for cleaned in (_clean(line, speakers)[0] for _, line in text) if cleaned)
    return Cue(lineno, start, end, words, names, shown, _UNDERLINE.search(raw) is not None)


def unroll(cues: Sequence[Cue]) -> tuple[list[Cue], int] | None:
    """The cues of rolling captions with the lines they repeat removed; None for other captions.

    Rolling captions (YouTube's automatic ones, live captioning) show two or three lines at a
    time and scroll: each cue starts with the last lines of the cue before it (one of two, two of
    three; :func:`_repeated`), and a short cue between two may hold them alone. Captions are
    rolling when at least :data:`ROLLING_MIN` cues, and more than half of the cues after the
    first, start with the last lines of the cue before, and more than a quarter do so with a line
    of their own below them (a speaker saying "Yeah." twice makes no rolling captions); each such
    cue then keeps only its other lines (a cue holding nothing else is left without text). Returns
    the cues and how many lines were removed.

    >>> said = [("a b",), ("a b",), ("a b", "c d"), ("c d",), ("c d", "e f")] * 2
    >>> rolled = [Cue(k, k, k + 1, " ".join(lines), lines=lines) for k, lines in enumerate(said)]
    >>> [cue.text for cue in unroll(rolled)[0]][:5], unroll(rolled)[1]
    (['a b', '', 'c d', '', 'e f'], 8)

    Three lines at a time, as broadcast captions roll:

    >>> words = "abcdefghij"
    >>> said = [tuple(words[max(0, k - 2):k + 1]) for k in range(len(words))]
    >>> said[:4]
    [('a',), ('a', 'b'), ('a', 'b', 'c'), ('b', 'c', 'd')]
    >>> "".join(cue.text for cue in unroll([Cue(k, k, k + 1, " ".join(l), lines=l) for k, l in enumerate(said)])[0])
    'abcdefghij'
    """
    overlaps = [0] + [_repeated(cues[k - 1].lines, cues[k].lines) for k in range(1, len(cues))]
    repeats = [k for k, overlap in enumerate(overlaps) if overlap]
    scrolled = sum(1 for k in repeats if len(cues[k].lines) > overlaps[k])
    if len(repeats) < ROLLING_MIN or 2 * len(repeats) <= len(cues) - 1 or 4 * scrolled <= len(cues) - 1:
        return None
    kept = list(cues)
    for k in repeats:
        rest = cues[k].lines[overlaps[k]:]
        kept[k] = replace(cues[k], text=" ".join(rest), lines=rest)
    return kept, sum(overlaps)


def _repeated(before: Sequence[str], lines: Sequence[str]) -> int:
    """How many of ``lines`` repeat the last lines of ``before``: the most ``j`` such that the
    first ``j`` of ``lines`` are the last ``j`` of ``before`` (0 when none)."""
    for j in range(min(len(before), len(lines)), 0, -1):
        if tuple(lines[:j]) == tuple(before[-j:]):
            return j
    return 0


def _seconds(text: str, which: str, file: Path | str, lineno: int) -> float:
    """A timestamp in seconds; anything else is an error naming the place and the form expected."""
    match = _TIMESTAMP.fullmatch(text)
    if match is not None and int(match.group(2)) <= 59 and int(match.group(3)) <= 59:
        hours, minutes, seconds, millis = (int(group or 0) for group in match.groups())
        try:
            return (((hours * 60 + minutes) * 60 + seconds) * 1000 + millis) / 1000
        except OverflowError:  # hours of hundreds of digits, beyond what a float holds
            pass
    raise CorpusFormatError(
        f"expected the cue's {which} as {_EXPECTED_TIMESTAMP}; received {_short_repr(text)}",
        path=str(file), line=lineno,
    )


def _clean(text: str, speakers: str) -> tuple[str, tuple[str, ...]]:
    """A cue's text without markup, references decoded, whitespace made single spaces; and the
    names of its voices."""
    names: list[str] = []

    def replace(match: re.Match) -> str:
        voice = _VOICE.fullmatch(match.group(0))
        if voice is None:
            return " " if match.group(0).startswith("{") else ""
        name = " ".join(html.unescape(voice.group(1)).split())
        if name and name not in names:
            names.append(name)
        return f" {name}: " if speakers == "prefix" and name else ""

    return " ".join(html.unescape(_TAG.sub(replace, text)).split()), tuple(names)


def sniff_subtitles(file: Path, codec: str, errors: str) -> str | None:
    """What makes ``file`` a caption file (a ``WEBVTT`` first line; a SubRip cue: a number, then a
    timing line), or None."""
    head = []
    for text in first_lines(file, codec, errors, max_lines=2):
        head.append(text.lstrip("\ufeff"))
    if head and _HEADER.match(head[0]):
        return "a 'WEBVTT' first line"
    if len(head) == 2 and head[0].isdigit() and _ARROW in head[1]:
        start = head[1].partition(_ARROW)[0].strip()
        if _TIMESTAMP.fullmatch(start):
            return "a SubRip cue (a number, then 'start --> end')"
    return None
