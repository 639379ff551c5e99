"""Caption files (WebVTT .vtt, SubRip .srt) and Whisper's JSON: transcripts as speech-to-text
tools export them, a unit per cue with its times, chapters tracks as the reference.

Expected units, times and boundaries are worked out by hand from the files written in each test
(timestamps in seconds: ``01:02.500`` is 62.5).
"""

from __future__ import annotations

import io
import json
import sys
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stability import CorpusFormatError, CorpusWarning, InvalidParameterError
from stability.cli import app
from stability.readers import FORMAT_TABLE, detect_format, read_corpus, read_subtitles
from stability.readers.subtitles import read_cues


def write(path, text, encoding="utf-8"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


# Every feature of a WebVTT file as Teams, YouTube and Whisper write them, with CRLF and a BOM.
VTT = "\ufeff" + "\r\n".join([
    "WEBVTT - Council meeting",
    "Kind: captions",
    "Language: en",
    "",
    "NOTE exported by the recorder",
    "over two lines",
    "",
    "STYLE",
    "::cue { color: yellow }",
    "",
    "REGION",
    "id:fred width:40%",
    "",
    "intro-1",                                                  # a cue identifier
    "00:00:00.000 --> 00:00:03.200 align:start position:10%",   # cue settings
    "<v Alice Smith>We start with the budget &amp; the",        # a voice, an entity
    "forecast.</v>",                                            # a second text line
    "",
    "00:03.200 --> 00:06.000",                                  # no hours
    "<v.loud Bob>The <c.yellow>numbers</c> look <i>fine</i>.",  # a voice with a class, spans
    "",
    "00:06.000 --> 00:07.000",
    "<00:00:06.100><c> </c>",                                   # nothing but markup: skipped
    "",
    "00:07.000 --> 00:10.000",
    "Now <b>the</b> roads &lt;north&gt;<00:00:08.000> and bridges.",  # a karaoke timestamp
    "",
]) + "\r\n"

SRT = "\n".join([
    "1",
    "00:00:01,000 --> 00:00:02,000",
    "{\\an8}Hello <font color=\"red\">world</font>",
    "",
    "2",
    "00:00:02,000 --> 00:01:04,250 X1:10 X2:20 Y1:5 Y2:9",       # SubRip's coordinates
    "Second line",
    "  wrapped  here",
    "",
    "3",
    "00:01:04,250 --> 01:00:00,000",
    "",                                                         # a cue without text
    "4",
    "01:00:00,000 --> 01:00:01,000",
    "Last.",
]) + "\n"


def test_webvtt_every_feature(tmp_path):
    file = write(tmp_path / "meeting.vtt", VTT)
    with pytest.warns(CorpusWarning, match=r"meeting\.vtt: 1 cue\(s\) without text skipped \(timing line 22\)"):
        (doc,) = read_subtitles(file)
    assert doc.id == "meeting.vtt"
    assert doc.units == (
        "We start with the budget & the forecast.",
        "The numbers look fine.",
        "Now the roads <north> and bridges.",
    )
    assert doc.times == ((0.0, 3.2), (3.2, 6.0), (7.0, 10.0))
    assert doc.references == ()
    assert doc.meta["speakers"] == ("Alice Smith", "Bob", None)
    assert doc.meta["format"] == "subtitles" and doc.meta["source"] == str(file) and doc.meta["chapters"] is None
    assert doc.meta["notes"] == ["1 cue(s) without text skipped (timing line 22)"]


def test_speaker_names_as_prefixes(tmp_path):
    file = write(tmp_path / "meeting.vtt", VTT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        (doc,) = read_corpus(file, speakers="prefix")
    assert doc.units[:2] == ("Alice Smith: We start with the budget & the forecast.", "Bob: The numbers look fine.")
    two = write(tmp_path / "two.vtt", "WEBVTT\n\n00:00.000 --> 00:01.000\n<v Ann>Hi.</v> <v Bo>Hello.</v>\n")
    (doc,) = read_corpus(two, speakers="prefix")
    assert doc.units == ("Ann: Hi. Bo: Hello.",) and doc.meta["speakers"] == ("Ann, Bo",)
    with pytest.raises(InvalidParameterError, match="speakers"):
        read_corpus(two, speakers="first")
    with pytest.raises(InvalidParameterError, match="speakers applies only to format 'csv' or 'subtitles'"):
        read_corpus(write(tmp_path / "a.txt", "Text."), speakers="prefix")


def test_subrip_every_feature(tmp_path):
    file = write(tmp_path / "film.srt", SRT.replace("\n", "\r\n"))
    with pytest.warns(CorpusWarning, match=r"1 cue\(s\) without text skipped \(timing line 11\)"):
        (doc,) = read_corpus(file)
    assert doc.units == ("Hello world", "Second line wrapped here", "Last.")
    # 00:01:04,250 = 64.25 s; 01:00:00,000 = 3600 s
    assert doc.times == ((1.0, 2.0), (2.0, 64.25), (3600.0, 3601.0))
    assert doc.meta["speakers"] == (None, None, None)


def test_a_cue_right_under_the_header_and_a_last_cue_without_a_newline(tmp_path):
    file = write(tmp_path / "tight.vtt", "WEBVTT\n00:01.000 --> 00:02.000\nOne\n\n00:02.000 --> 00:03.000\nTwo")
    (doc,) = read_corpus(file)
    assert doc.units == ("One", "Two") and doc.times == ((1.0, 2.0), (2.0, 3.0))


# YouTube's automatic captions (as yt-dlp saves them): every cue holds a line of one space, which
# WebVTT reads as text (only an empty line ends a cue).
YOUTUBE = "\n".join([
    "WEBVTT",
    "Kind: captions",
    "Language: en",
    "",
    "00:00:00.900 --> 00:00:03.130 align:start position:0%",
    " ",
    "all<00:00:01.230><c> right</c><00:00:01.550><c> coffee</c>",
    "",
    "00:00:03.130 --> 00:00:03.140 align:start position:0%",
    "all right coffee",
    " ",
    "",
    "00:00:03.140 --> 00:00:06.060 align:start position:0%",
    "all right coffee",
    "green<00:00:03.500><c> beans</c>",
    "",
])


def test_lines_of_spaces_inside_cues_and_between_them(tmp_path):
    cues = [line for line in read_cues(YOUTUBE.splitlines(), "vlog.vtt")]
    assert [cue.text for cue in cues] == ["all right coffee", "all right coffee", "all right coffee green beans"]
    assert [(cue.start, cue.end) for cue in cues] == [(0.9, 3.13), (3.13, 3.14), (3.14, 6.06)]
    # a line of spaces before a timing line (or an identifier and a timing line) still separates cues
    spaced = "1\n00:00:01,000 --> 00:00:02,000\nOne\n  \n2\n00:00:02,000 --> 00:00:03,000\nTwo\n \n00:00:03,000 --> 00:00:04,000\nThree\n"
    (doc,) = read_corpus(write(tmp_path / "spaced.srt", spaced))
    assert doc.units == ("One", "Two", "Three") and doc.times[2] == (3.0, 4.0)


def test_rolling_captions_keep_each_line_once(tmp_path):
    # each cue repeats the last line of the one before; the 10 ms cue holds it alone
    lines = [f"line {k}" for k in range(6)]  # shown two at a time: 11 cues, 10 of them repeat a line
    cues, start = [], 0
    for k, line in enumerate(lines):
        shown = ([lines[k - 1]] if k else []) + [line]
        cues.append(f"00:{start:02d}.000 --> 00:{start + 2:02d}.000\n" + "\n".join(shown) + "\n")
        if k < len(lines) - 1:  # the short cue holding the line alone before it scrolls up
            cues.append(f"00:{start + 2:02d}.000 --> 00:{start + 2:02d}.010\n{line}\n \n")
        start += 3
    with pytest.warns(CorpusWarning, match=r"rolling captions .*10 repeated line\(s\) removed, 5 cue\(s\) left without "):
        (doc,) = read_corpus(write(tmp_path / "vlog.vtt", "WEBVTT\n\n" + "\n".join(cues)))
    assert doc.units == tuple(lines)
    assert doc.times == tuple((3.0 * k, 3.0 * k + 2) for k in range(6))
    # captions that repeat a line now and then are not rolling: every cue is kept
    said = ["Yeah.", "Yeah.", "So the budget", "is up.", "Yeah."]
    plain = "WEBVTT\n\n" + "".join(f"00:0{k}.000 --> 00:0{k + 1}.000\n{text}\n\n" for k, text in enumerate(said))
    (doc,) = read_corpus(write(tmp_path / "talk.vtt", plain))
    assert doc.units == tuple(said)


def test_three_line_rolling_captions_keep_each_line_once(tmp_path):
    """Live broadcast captions roll three lines: each cue repeats the last two lines of the one
    before. Before, only a repeat of the last line was recognised, so such a file was read with
    every line three times (12 units of 30 lines for 12 spoken lines, each topic smeared over three
    units)."""
    lines = [f"spoken line {k}" for k in range(12)]
    cues = [f"00:{k:02d}.000 --> 00:{k + 1:02d}.000\n" + "\n".join(lines[max(0, k - 2):k + 1]) + "\n"
            for k in range(len(lines))]
    with pytest.warns(CorpusWarning, match=r"rolling captions .*: 21 repeated line\(s\) removed, 0 cue\(s\) left"):
        (doc,) = read_corpus(write(tmp_path / "live.vtt", "WEBVTT\n\n" + "\n".join(cues)))
    assert doc.units == tuple(lines)
    assert doc.times == tuple((float(k), k + 1.0) for k in range(12))


BAD_TIME = "expected the cue's {} as a timestamp such as '00:01:02.500' or '01:02.500'"


@pytest.mark.parametrize("name, body, line, expected", [
    ("a.vtt", "WEBVTT\n\n00:00.000 --> 1:2:3\nx\n", 3, BAD_TIME.format("end") + r".*received '1:2:3'"),
    ("a.vtt", "WEBVTT\n\n00:60.000 --> 01:00.000\nx\n", 3, BAD_TIME.format("start") + r".*received '00:60.000'"),
    ("a.srt", "1\n00:00:01,5 --> 00:00:02,000\nx\n", 2, BAD_TIME.format("start") + r".*received '00:00:01,5'"),
    ("a.srt", "1\n00:00:01,000 -->\nx\n", 2, "expected a timing line 'start --> end' with the end after the arrow"),
    ("a.vtt", "WEBVTT\n\n00:05.000 --> 00:04.000\nx\n", 3,
     "expected a cue to end at or after its start; it starts at 00:05.000 and ends at 00:04.000"),
    ("a.vtt", "WEBVTT\n\n00:05.000 --> 00:06.000\nx\n\n00:04.000 --> 00:07.000\ny\n", 6,
     r"expected cues in order of their start .*starts at 4 s, before the cue at line 3 \(5 s\)"),
    ("a.srt", "1\n00:00:01,000 --> 00:00:02,000\nx\n\ny\n", 5,
     r"expected a cue: an identifier line \(optional\) and a timing line 'start --> end', then the cue's text; "
     r"received 'y' \(a blank line inside a cue's text ends the cue: if this is text of the cue above, remove the "
     r"blank line before it, line 4; otherwise remove this text or add its timing line\)"),  # before: no remedy
    # a WebVTT file whose 'WEBVTT' line was lost (an export cut, a copy from a browser): its STYLE or NOTE
    # block was blamed on a blank line inside a cue's text, which the file does not have
    ("a.vtt", "STYLE\n::cue { color: yellow }\n\n00:01.000 --> 00:02.000\nx\n", 1,
     r"received 'STYLE' \(a WebVTT block, in a file without the 'WEBVTT' first line that WebVTT requires: add that "
     r"line\)"),
    ("a.srt", "1\n00:00:01,000 --> 00:00:02,000\nx\n00:00:02,000 --> 00:00:03,000\ny\n", 4,
     "expected a blank line before the next cue; this timing line follows the text of the cue at line 2"),
    ("a.vtt", "WEBVTT\n\n", None, "expected at least one cue with text; found no cue"),
    ("a.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\n<i></i>\n", None,
     r"expected at least one cue with text; its 1 cue\(s\) have none"),
])
def test_errors_name_the_file_the_line_and_what_was_expected(tmp_path, name, body, line, expected):
    file = write(tmp_path / name, body)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        with pytest.raises(CorpusFormatError, match=expected) as info:
            list(read_corpus(tmp_path))
    if "expected at least one cue with text" in expected:  # nothing to say: the folder's only file has no text
        assert str(info.value).startswith(f"{tmp_path}: expected a file with text to segment; none of its 1 file(s) "
                                          f"has any: {name} (expected at least one cue with text")
    else:
        assert str(info.value).startswith(f"{file}:{line}: " if line else f"{file}: ")
    assert f"[format 'subtitles' detected from the {file.suffix!r} files in the directory" in str(info.value)


TALK = "WEBVTT\n\n" + "\n".join(
    f"00:{start:02d}.000 --> 00:{start + 2:02d}.000\n{text}\n" for start, text in
    [(0, "Hello."), (2, "Budget first."), (4, "More budget."), (6, "Now roads."), (8, "Roads again."), (10, "Bye.")]
)


def test_chapters_track_gives_the_reference(tmp_path):
    write(tmp_path / "talk.vtt", TALK)
    # chapters at 0, 3 and 6 s: the first cue starting at or after 3 s is cue 2 (at 4 s), after 6 s cue 3
    write(tmp_path / "talk.chapters.vtt", "WEBVTT\n\nc1\n00:00.000 --> 00:03.000\nIntro\n\n"
          "00:03.000 --> 00:06.000\n<b>Budget</b>\n\n00:06.000 --> 00:12.000\nRoads &amp; bridges\n")
    (doc,) = read_corpus(tmp_path)  # the chapters track is not a document of its own
    assert doc.id == "talk.vtt" and doc.references[0].boundaries == (2, 3)
    assert doc.meta["titles"] == ("Intro", "Budget", "Roads & bridges")
    assert doc.meta["chapters"] == str(tmp_path / "talk.chapters.vtt")
    # the chapters track given alone reads its transcript with it
    (alone,) = read_corpus(tmp_path / "talk.chapters.vtt")
    assert alone == doc and alone.id == "talk.vtt"


def test_chapters_in_subrip_beside_webvtt_and_chapters_that_mark_no_boundary(tmp_path):
    write(tmp_path / "talk.vtt", TALK)
    # 00:00:07: the middle of cue 3 (6 to 8 s), so cue 4 (at 8 s); 00:00:07.5: in the second half of cue 3,
    # cue 4 again, which chapter C takes; 00:00:20: after the last cue
    write(tmp_path / "talk.chapters.srt", "1\n00:00:00,000 --> 00:00:07,000\nA\n\n2\n00:00:07,000 --> 00:00:07,500\nB\n\n"
          "3\n00:00:07,500 --> 00:00:20,000\nC\n\n4\n00:00:20,000 --> 00:00:30,000\nD\n")
    with pytest.warns(CorpusWarning) as caught:
        (doc,) = read_corpus(tmp_path)
    assert [str(w.message).split(": ", 1)[1] for w in caught] == [
        "1 chapter(s) that no unit begins, so they mark no boundary: 'B' (line 6)",
        "1 chapter(s) starting after the transcript ends (12 s, where its last unit ends), so they mark no "
        "boundary: 'D' (line 14, 20 s)"]
    assert doc.references[0].boundaries == (4,) and doc.meta["titles"] == ("A", "C")
    # a first chapter starting after the first cue still holds the cues before it
    write(tmp_path / "late" / "talk.vtt", TALK)
    write(tmp_path / "late" / "talk.chapters.vtt", "WEBVTT\n\n00:05.000 --> 00:09.000\nX\n\n00:09.000 --> 00:12.000\nY\n")
    (doc,) = read_corpus(tmp_path / "late")
    assert doc.references[0].boundaries == (5,) and doc.meta["titles"] == ("X", "Y")


def test_a_chapter_list_in_plain_text_gives_the_reference(tmp_path):
    """Chapters as YouTube descriptions and podcast show notes write them, a time and a title a
    line, were not read: talk.chapters.txt beside talk.vtt left the transcript without a
    reference. Read as the same chapters track in WebVTT is (test_chapters_track_gives_the_reference:
    chapters at 0, 3 and 6 s give boundaries (2, 3))."""
    write(tmp_path / "talk.vtt", TALK)
    write(tmp_path / "talk.chapters.txt", "\ufeff0:00 Intro\n\n0:03 - Budget\n(0:06) Roads & bridges  \n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)  # the list is no file left out, nor a document of its own
        (doc,) = read_corpus(tmp_path)
    assert doc.id == "talk.vtt" and doc.references[0].boundaries == (2, 3)
    assert doc.meta["titles"] == ("Intro", "Budget", "Roads & bridges")
    assert doc.meta["chapters"] == str(tmp_path / "talk.chapters.txt")
    as_vtt = tmp_path / "vtt"
    write(as_vtt / "talk.vtt", TALK)
    write(as_vtt / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:03.000\nIntro\n\n00:03.000 --> 00:06.000\nBudget\n\n"
          "00:06.000 --> 00:12.000\nRoads &amp; bridges\n")
    (same,) = read_corpus(as_vtt)
    assert same.references == doc.references and same.meta["titles"] == doc.meta["titles"]
    # the same code path beside Whisper's JSON and a timed TSV; hours, dashes and bullets as show notes write them
    segments = [{"start": 20.0 * k, "end": 20.0 * k + 20, "text": f" Part {k}."} for k in range(200)]  # 4000 s
    write(tmp_path / "json" / "long.json", json.dumps({"text": "", "segments": segments}))
    write(tmp_path / "json" / "long.chapters.txt", "- 0:00 Start\n12:31 \u2013 Mid\n"
          "[1:02:03] | Late\n1:05:00: Last one\n")
    (long,) = read_corpus(tmp_path / "json" / "long.json")
    # 12:31 = 751 s, in the second half of unit 37 (740-760 s, middle 750): 38; 1:02:03 = 3723 s, in the first
    # half of unit 186 (3720-3740 s): 186; 1:05:00 = 3900 s, where unit 195 starts
    assert long.references[0].boundaries == (38, 186, 195)
    assert long.meta["titles"] == ("Start", "Mid", "Late", "Last one")
    tsv = write(tmp_path / "tsv" / "talk.tsv", "start\tend\ttext\n0.0\t2.5\tThe budget grows.\n2.5\t5.0\tTaxes stay.\n"
                                              "5.0\t7.5\tRoads need asphalt.\n")
    write(tmp_path / "tsv" / "talk.chapters.txt", "00:00 Budget\n00:05 Roads\n")
    (doc,) = read_corpus(tsv)
    assert doc.references[0].boundaries == (2,)
    # given alone, the list is refused rather than read as a text document (a caption chapters track reads
    # its transcript: test_chapters_track_gives_the_reference); asked for as text, it is text
    with pytest.raises(CorpusFormatError, match=r"talk\.chapters\.txt: a chapter list is the reference of the "
                       r"transcript beside it, read with it, not a document of its own; pass the transcript "
                       r"\('talk\.vtt'\) or its folder"):
        read_corpus(tmp_path / "talk.chapters.txt")
    with pytest.raises(CorpusFormatError, match=r"found no transcript named 'lost\.\*' beside it"):
        read_corpus(write(tmp_path / "lost.chapters.txt", "0:00 Intro\n"))
    assert [d.units for d in read_corpus(tmp_path / "tsv" / "talk.chapters.txt", "text", unit="line")] == [
        ("00:00 Budget", "00:05 Roads")]


def test_chapters_past_the_transcript_end_are_a_note_in_a_list_as_in_a_caption_track(tmp_path):
    """A caption chapters track with a chapter starting after the last cue ended got a note (it marks
    no boundary), while the same chapter in a plain-text list was an error. A video's chapters often
    run on after the speech (an outro, credits, music) where captions have ended, so both now read
    it with a note; a first chapter past the end, which leaves no chapter of this recording, is an
    error in both (a caption track gave one segment with a note)."""
    for suffix, track, other in [
        (".txt", "0:00 Intro\n0:06 Roads\n0:15 Outro\n", "0:13 Late\n0:20 Later\n"),
        (".vtt", "WEBVTT\n\n00:00.000 --> 00:06.000\nIntro\n\n00:06.000 --> 00:15.000\nRoads\n\n"
                 "00:15.000 --> 00:30.000\nOutro\n", "WEBVTT\n\n00:13.000 --> 00:20.000\nLate\n\n"
                                                     "00:20.000 --> 00:30.000\nLater\n")]:
        folder = tmp_path / suffix[1:]
        write(folder / "talk.vtt", TALK)  # cues every 2 s, the last ending at 12 s
        write(folder / f"talk.chapters{suffix}", track)
        with pytest.warns(CorpusWarning, match=r"1 chapter\(s\) starting after the transcript ends \(12 s, where its "
                                               r"last unit ends\), so they mark no boundary: 'Outro' \(line \d+, 15 s\)"):
            (doc,) = read_corpus(folder)
        assert doc.references[0].boundaries == (3,) and doc.meta["titles"] == ("Intro", "Roads")
        write(folder / f"talk.chapters{suffix}", other)
        with pytest.raises(CorpusFormatError, match=r"talk\.chapters\.(txt:1|vtt:3): expected the chapters of this "
                                                    r"recording; the first starts at 13 s, after the transcript ends"):
            list(read_corpus(folder))


@pytest.mark.parametrize("heading", ["Chapters:", "Timestamps:", "Chapters", "TIMESTAMPS:", "\u23f1 Chapters \u2193"])
def test_a_chapter_list_may_have_one_heading_above_its_chapters(tmp_path, heading):
    """A chapter list pasted from a YouTube description with its heading line was refused naming
    that line; one line holding no time, above the first chapter, is now passed over with a note."""
    write(tmp_path / "talk.vtt", TALK)
    track = write(tmp_path / "talk.chapters.txt", f"\ufeff{heading}\n\n0:00 Intro\n0:03 - Budget\n(0:06) Roads\n")
    with pytest.warns(CorpusWarning, match="read as the list's heading, not a chapter"):
        (doc,) = read_corpus(tmp_path)
    # the same chapters as test_a_chapter_list_in_plain_text_gives_the_reference: cues at 0, 2, 4, 6... s
    assert doc.references[0].boundaries == (2, 3) and doc.meta["titles"] == ("Intro", "Budget", "Roads")
    assert doc.meta["notes"] == [f"line 1, {heading!r}, read as the list's heading, not a chapter"]
    assert doc.meta["chapters"] == str(track)


@pytest.mark.parametrize("text, line, expected", [
    ("Chapters:\nTimestamps:\n0:00 Intro\n", 2, r"expected a chapter: a time and its title, such as '0:00 Intro' or "
                                                 r"'1:02:03 - Questions', one a line; received 'Timestamps:' \(one "
                                                 r"heading line may come above the chapters: this list has one at "
                                                 r"line 1, 'Chapters:'\)"),
    ("0:00 Intro\nChapters\n0:03 Budget\n", 2, r"expected a chapter: a time and its title.*received 'Chapters'"),
    ("Intro 0:00\n0:03 Budget\n", 1, "expected a chapter: a time and its title"),  # a chapter written wrong
    ("Chapters:\n", None, r"expected at least one chapter line \('0:00 Intro'\); found none"),
    ("0:00 Intro\n0:03\n", 2, "expected a chapter: a time and its title"),
    ("0:00 Intro\nBudget 0:03\n", 2, "expected a chapter: a time and its title"),
    ("0:00 Intro\n0:75 Budget\n", 2, r"expected minutes and seconds from 00 to 59 in the chapter's time; received '0:75'"),
    ("0:00 Intro\n0:06 Roads\n0:03 Budget\n", 3, r"expected each chapter to start after the one above it; this one "
                                                    r"starts at 0:03 \(3 s\), the one at line 2 at 6 s"),
    ("0:00 Intro\n0:00 Budget\n", 2, "expected each chapter to start after the one above it"),
    ("0:13 Intro\n0:20 Roads\n", 1, r"expected the chapters of this recording; the first starts at 13 s, after the "
                                     r"transcript ends \(12 s, where its last unit ends\)"),
    ("\n\n", None, r"expected at least one chapter line \('0:00 Intro'\); found none"),
])
def test_a_chapter_list_that_is_not_one_is_refused_naming_file_and_line(tmp_path, text, line, expected):
    write(tmp_path / "talk.vtt", TALK)
    track = write(tmp_path / "talk.chapters.txt", text)
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_corpus(tmp_path))
    assert str(info.value).startswith(f"{track}:{line}: " if line else f"{track}: ")


@pytest.mark.parametrize("files, given, expected", [
    ({"talk.chapters.vtt": "WEBVTT\n"}, ".",
     "talk.chapters.vtt: a chapters track is read with its transcript, 'talk.vtt' or 'talk.srt' beside it; neither exists"),
    ({"talk.chapters.vtt": "WEBVTT\n", "talk.vtt": TALK, "talk.srt": SRT}, "talk.chapters.vtt",
     "both exist: rename or move one"),
    ({"talk.vtt": TALK, "talk.srt": SRT}, ".",
     r"talk.srt: 'talk.srt' and 'talk.vtt' hold the same transcript in two formats.*pass pattern='\*.srt'"),
    ({"talk.vtt": TALK, "talk.chapters.vtt": "WEBVTT\n", "talk.chapters.srt": ""}, "talk.vtt",
     "talk.vtt: expected one chapters track for this transcript; found 'talk.chapters.vtt' and 'talk.chapters.srt'"),
    ({"talk.vtt": TALK, "talk.chapters.vtt": "WEBVTT\n", "talk.chapters.txt": "0:00 A\n"}, "talk.vtt",
     "talk.vtt: expected one chapters track for this transcript; found 'talk.chapters.vtt' and 'talk.chapters.txt'"),
    ({"talk.vtt": TALK, "talk.chapters.vtt": "WEBVTT\n\nNOTE nothing\n"}, ".",
     "talk.chapters.vtt: expected at least one chapter cue; found none"),
    ({"talk.vtt": TALK, "talk.chapters.vtt": "WEBVTT\n\n00:00.000 --> 00:0x.000\nA\n"}, ".",
     r"talk.chapters.vtt:3: expected the cue's end as a timestamp"),
])
def test_pairing_errors(tmp_path, files, given, expected):
    for name, text in files.items():
        write(tmp_path / name, text)
    with pytest.raises(CorpusFormatError, match=expected):
        list(read_corpus(tmp_path / given))


def test_the_same_transcript_twice_can_be_narrowed_with_pattern(tmp_path):
    write(tmp_path / "talk.vtt", TALK)
    write(tmp_path / "talk.srt", SRT)  # Whisper writes both
    assert [d.id for d in read_corpus(tmp_path, pattern="*.vtt")] == ["talk.vtt"]


def test_detection_by_extension_and_by_content(tmp_path):
    write(tmp_path / "mixed" / "talk.vtt", TALK)
    write(tmp_path / "mixed" / "notes.txt", "Some notes.")  # .txt decides only when nothing else does
    write(tmp_path / "mixed" / "sub" / "film.srt", SRT)
    assert detect_format(tmp_path / "mixed") == "subtitles"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        assert [d.id for d in read_corpus(tmp_path / "mixed")] == ["sub/film.srt", "talk.vtt"]
    # without a telling extension: a WEBVTT first line, or a SubRip cue
    assert detect_format(write(tmp_path / "captions", TALK)) == "subtitles"
    assert detect_format(write(tmp_path / "film", SRT)) == "subtitles"
    assert detect_format(write(tmp_path / "story", "1\nOnce upon a time.\n")) == "text"
    for alias in ("vtt", "SRT", "webvtt", "subrip", "captions"):
        assert [d.id for d in read_corpus(tmp_path / "captions", alias)] == ["captions"]
    assert FORMAT_TABLE["subtitles"].extensions == (".vtt", ".srt")


def test_a_caption_file_piped_on_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SRT.encode("utf-8")), encoding="utf-8"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        (doc,) = read_corpus("-")  # recognised by its content
    assert doc.units[-1] == "Last." and doc.times[-1] == (3600.0, 3601.0)


# -- round trip -------------------------------------------------------------------------------
_word = st.text(alphabet="abcxyzÉé日&<>;'\",.!?-", min_size=1, max_size=6)
_cue = st.tuples(
    st.lists(_word, min_size=1, max_size=6),          # the words of the cue's text
    st.integers(0, 10**8),                            # start, milliseconds after the previous cue's start
    st.integers(0, 10**8),                            # duration, milliseconds
    st.integers(0, 5),                                # where its text wraps onto a second line
)


def _stamp(ms: int, comma: bool, hours: bool) -> str:
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, t = divmod(rest, 1000)
    return (f"{h:02d}:" if hours or h else "") + f"{m:02d}:{s:02d}{',' if comma else '.'}{t:03d}"


def _escape(word: str) -> str:
    return word.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@settings(max_examples=100, deadline=None)
@given(cues=st.lists(_cue, min_size=1, max_size=8), srt=st.booleans(), hours=st.booleans())
def test_written_cues_read_back_identical(tmp_path_factory, cues, srt, hours):
    """Cues written as WebVTT or SubRip come back as the same units and the same times."""
    blocks, units, times, start = [], [], [], 0
    for number, (words, gap, duration, wrap) in enumerate(cues, 1):
        start += gap
        escaped = [_escape(w) for w in words]
        cut = min(wrap, len(escaped) - 1) or len(escaped)
        text = " ".join(escaped[:cut]) + ("\n" + " ".join(escaped[cut:]) if cut < len(escaped) else "")
        timing = f"{_stamp(start, srt, hours or srt)} --> {_stamp(start + duration, srt, hours or srt)}"
        blocks.append(f"{number}\n{timing}\n{text}\n")
        units.append(" ".join(words))
        times.append((start / 1000, (start + duration) / 1000))
    folder = tmp_path_factory.mktemp("cues")
    file = folder / ("t.srt" if srt else "t.vtt")
    file.write_text(("" if srt else "WEBVTT\n\n") + "\n".join(blocks), encoding="utf-8")
    (doc,) = read_corpus(folder)
    assert doc.units == tuple(units)
    assert doc.times == tuple(times)


# -- sentence units ----------------------------------------------------------------------------
# A meeting as Teams writes it: a voice a cue, sentences broken across cues, a filler of its own.
MEETING = "WEBVTT\n\n" + "\n".join(
    f"00:{start:02d}.000 --> 00:{end:02d}.000\n<v {who}>{text}</v>\n" for start, end, who, text in [
        (0, 2, "Ann", "Welcome everyone. The budget"),   # 0: a sentence ends, the next one starts
        (2, 4, "Ann", "is up four percent, mostly"),     # 1: inside that sentence
        (4, 6, "Ann", "salaries."),                      # 2: it ends here
        (6, 7, "Bo", "Yeah."),                           # 3: a filler, another speaker
        (7, 9, "Ann", "Now the roads. Elm Street"),      # 4: a sentence, then one cut off by ...
        (9, 10, "Bo", "Sorry, go ahead."),               # 5: ... Bo: a speaker change ends a unit
        (10, 12, "Ann", "needs paving before May."),     # 6
    ])


def test_sentence_units_join_the_cues_of_a_turn_and_take_their_times(tmp_path):
    file = write(tmp_path / "meeting.vtt", MEETING)
    (doc,) = read_corpus(file, unit="sentence", splitter="rules")
    assert doc.units == (
        "Welcome everyone.",                                    # cue 0
        "The budget is up four percent, mostly salaries.",     # cues 0-2
        "Yeah.",                                                # cue 3
        "Now the roads.",                                       # cue 4
        "Elm Street",                                           # cue 4, cut off by Bo's turn
        "Sorry, go ahead.",                                     # cue 5
        "needs paving before May.",                             # cue 6
    )
    # units never share time: a sentence starting inside a cue starts at the share of the cue's time its
    # characters before it take ("The" at character 18 of 28 in cue 0, 0-2 s: 1.286 s; "Elm" at 15 of 25
    # in cue 4, 7-9 s: 8.2 s), and the sentence before ends there. Before, "Welcome everyone." and the
    # budget sentence both started at 0 s, so CovD counted 0-2 s twice.
    assert doc.times == ((0.0, 1.286), (1.286, 6.0), (6.0, 7.0), (7.0, 8.2), (8.2, 9.0), (9.0, 10.0), (10.0, 12.0))
    assert doc.meta["speakers"] == ("Ann", "Ann", "Bo", "Ann", "Ann", "Bo", "Ann")
    assert doc.meta["unit"] == "sentence" and doc.meta["splitter"] == "rules" and doc.meta["notes"] == []
    # the names before every sentence, not inside the text the splitter reads
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        (prefixed,) = read_corpus(file, unit="sentence", splitter="rules", speakers="prefix")
        (cues,) = read_corpus(file)
    assert prefixed.units[:3] == ("Ann: Welcome everyone.", "Ann: The budget is up four percent, mostly salaries.",
                                  "Bo: Yeah.")
    # cues stay the default units, as before
    assert len(cues.units) == 7 and cues.units[0] == "Welcome everyone. The budget" and cues.meta["unit"] == "cue"
    assert cues.meta["splitter"] is None


def test_sentence_units_without_voices_and_with_the_default_splitter(tmp_path):
    srt = "".join(f"{k + 1}\n00:00:0{k},000 --> 00:00:0{k + 1},000\n{text}\n\n" for k, text in
                  enumerate(["Dr. Lee opened", "the meeting. We then", "voted."]))
    (doc,) = read_corpus(write(tmp_path / "a.srt", srt), unit="sentence")  # "auto": rules on so little text
    assert doc.units == ("Dr. Lee opened the meeting.", "We then voted.")
    assert doc.times == ((0.0, 1.65), (1.65, 3.0)) and doc.meta["splitter"] == "auto"  # "We": 13 of 20, cue 1-2 s
    assert doc.meta["speakers"] == (None, None)


def test_chapters_start_their_segment_at_the_sentence_nearest_to_them(tmp_path):
    """A chapter starting inside a sentence's first half begins with that sentence. Before, the
    segment began at the first sentence starting at or after the chapter: the chapter at 3 s below
    began at "Budget now." (6 s), one sentence late, though "Then the bridge." spans 2 to 6 s."""
    # sentences start at 0 (cue 0), 2 (cue 1, "Roads first."), 2 (cue 1, "Then", ended in cue 2), 6 (cue 3)
    talk = "WEBVTT\n\n" + "".join(f"00:0{a}.000 --> 00:0{b}.000\n{text}\n\n" for a, b, text in [
        (0, 2, "Intro words here."), (2, 4, "Roads first. Then"), (4, 6, "the bridge."), (6, 8, "Budget now.")])
    write(tmp_path / "talk.vtt", talk)
    # chapters at 2 s (a cue and two sentences start there: the first of them) and at 3 s, in the first
    # half of "Then the bridge." (2 to 6 s, middle 4 s) and at the middle of "Roads first." (2 to 4 s)
    write(tmp_path / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:02.000\nIntro\n\n"
          "00:02.000 --> 00:03.000\nRoads\n\n00:03.000 --> 00:08.000\nBridge\n")
    (doc,) = read_corpus(tmp_path, unit="sentence", splitter="rules")
    assert doc.units == ("Intro words here.", "Roads first.", "Then the bridge.", "Budget now.")
    assert doc.references[0].boundaries == (1, 2) and doc.meta["titles"] == ("Intro", "Roads", "Bridge")
    # the chapters track given alone reads its transcript, its turns teaching the splitter
    (alone,) = read_corpus(tmp_path / "talk.chapters.vtt", unit="sentence")
    assert alone.units == doc.units and alone.references == doc.references


def test_a_chapter_early_in_a_long_sentence_begins_with_it(tmp_path):
    """The case a podcast meets: chapters typed by hand a second after the topic starts. The
    sentence "Today we talk about roasting coffee at home, which takes about ten minutes." spans
    three cues, 4 to 16 s; the chapter "Coffee" starts at 5 s, in its first half. Before, the
    segment began at "Then the grinder." (16 s) and the coffee sentence counted as the intro."""
    cues = [(0, 4, "Welcome to the show."), (4, 8, "Today we talk about"), (8, 12, "roasting coffee at home, which"),
            (12, 16, "takes about ten minutes."), (16, 20, "Then the grinder.")]
    write(tmp_path / "show.vtt", "WEBVTT\n\n" + "".join(f"00:{a:02d}.000 --> 00:{b:02d}.000\n{t}\n\n" for a, b, t in cues))
    chapters = "WEBVTT\n\n00:00.000 --> 00:05.000\nIntro\n\n00:05.000 --> {}\nCoffee\n"
    write(tmp_path / "show.chapters.vtt", chapters.format("00:20.000"))
    (doc,) = read_corpus(tmp_path, unit="sentence", splitter="rules")
    assert doc.times == ((0.0, 4.0), (4.0, 16.0), (16.0, 20.0))
    assert doc.references[0].boundaries == (1,) and doc.meta["titles"] == ("Intro", "Coffee")
    # cue units, one rule: 5 s lies in the first half of "Today we talk about" (4 to 8 s); before, the
    # segment began at the next cue, cutting the sentence between two chapters
    (cues_doc,) = read_corpus(tmp_path)
    assert cues_doc.references[0].boundaries == (1,)
    # 7 s: in the sentence's first half (middle 10 s) but in the second half of its cue (middle 6 s);
    # 11 s: in the second half of both, so the next unit begins the chapter; 8 s: where a cue starts,
    # which begins it as before (inside the sentence's first half, with sentence units)
    for start, sentence, cue in [("00:07.000", 1, 2), ("00:11.000", 2, 3), ("00:08.000", 1, 2)]:
        write(tmp_path / "show.chapters.vtt", chapters.replace("00:05.000", start).format("00:20.000"))
        (doc,) = read_corpus(tmp_path, unit="sentence", splitter="rules")
        (cues_doc,) = read_corpus(tmp_path)
        assert (doc.references[0].boundaries, cues_doc.references[0].boundaries) == ((sentence,), (cue,)), start


def test_captions_without_punctuation_keep_their_cues(tmp_path):
    # YouTube's automatic captions: no punctuation, so no sentence end; joining the cues would make
    # the whole turn one unit
    said = ["all right switching gears", "i started roasting my own", "coffee at home this year"]
    plain = "WEBVTT\n\n" + "".join(f"00:0{k}.000 --> 00:0{k + 1}.000\n{text}\n\n" for k, text in enumerate(said))
    with pytest.warns(CorpusWarning, match=r"3 unit\(s\) left as their cues: text without a sentence end to close it"):
        (doc,) = read_corpus(write(tmp_path / "vlog.vtt", plain), unit="sentence")
    assert doc.units == tuple(said) and doc.times == ((0.0, 1.0), (1.0, 2.0), (2.0, 3.0))
    # punctuated text is joined; a tail without a sentence end stays cut at its cues (the part of a
    # cue it holds starts where its characters start: "So" at 9 of 16 in the cue of 1-2 s)
    mixed = "WEBVTT\n\n" + "".join(f"00:0{k}.000 --> 00:0{k + 1}.000\n{text}\n\n" for k, text in
                                   enumerate(["We roast", "at home. So then", "the beans"]))
    with pytest.warns(CorpusWarning, match=r"2 unit\(s\) left as their cues"):
        (doc,) = read_corpus(write(tmp_path / "mixed.vtt", mixed), unit="sentence", splitter="rules")
    assert doc.units == ("We roast at home.", "So then", "the beans")
    assert doc.times == ((0.0, 1.562), (1.562, 2.0), (2.0, 3.0))


_said = st.lists(st.tuples(
    st.lists(st.sampled_from(["we", "go", "now.", "Dr.", "ok?", "so", "then", "yes!", "roads", "the"]), min_size=1,
             max_size=7),                               # the words of a cue
    st.integers(0, 5000),                               # its duration, milliseconds
    st.sampled_from([(), ("Ann",), ("Bo",)]),           # its voice
), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(said=_said)
def test_sentence_units_never_share_time(said):
    """Before, a sentence starting inside a cue took the cue's start, so it and the sentence before
    it shared time ("Hi. So the" at 0-2 s: both sentences from 0 s), and CovD, which weighs units
    by duration, counted that time twice. Now units follow each other: in order, none before the
    one above it ends, the first starting with the first cue and the last ending with the last,
    their durations adding up to the transcript's when its cues follow each other."""
    from stability.readers.subtitles import Cue, sentence_units
    from stability.splitters import split_rules

    cues, at = [], 0.0
    for k, (words, duration, voice) in enumerate(said):
        cues.append(Cue(3 * k + 1, at, round(at + duration / 1000, 3), " ".join(words), voice))
        at = cues[-1].end
    units, _ = sentence_units(cues, split_rules, "x.vtt")
    assert " ".join(unit.text for unit in units).split() == " ".join(cue.text for cue in cues).split()
    assert all(unit.start <= unit.end for unit in units)
    assert all(before.end <= after.start for before, after in zip(units, units[1:])), [(u.start, u.end) for u in units]
    assert units[0].start == cues[0].start and units[-1].end == cues[-1].end
    assert sum(unit.end - unit.start for unit in units) == pytest.approx(cues[-1].end - cues[0].start, abs=1e-9)


ZOOM = "WEBVTT\n\n" + "".join(f"{k + 1}\n00:00:{a:02d}.000 --> 00:00:{b:02d}.000\n{text}\n\n"
                              for k, (a, b, text) in enumerate([(0, 3, "Alice Smith: Welcome everyone. The budget"),
                                                                (3, 5, "Alice Smith: is up four percent."),
                                                                (5, 6, "Bob O'Neil: Yeah."),
                                                                (6, 9, "Alice Smith: Now the roads.")]))


def test_speaker_names_written_before_the_text_are_voices(tmp_path):
    """Zoom writes each cue as "Name: text" and WhisperX's captions "[SPEAKER_00]: text", without
    voice spans. Before, the names stayed in every unit (against the README's "units hold only what
    was said" under the default --speakers meta) and, with sentence units, a turn was never seen:
    "The budget" and "Alice Smith: is up four percent." were not joined, and Bob's "Yeah." ran into
    the sentence before it."""
    with pytest.warns(CorpusWarning, match=r"speaker names written before the text .* read as voices: 4 name\(s\), "
                                           r"2 voice\(s\)"):
        (doc,) = read_corpus(write(tmp_path / "zoom" / "standup.vtt", ZOOM))
    assert doc.units == ("Welcome everyone. The budget", "is up four percent.", "Yeah.", "Now the roads.")
    assert doc.meta["speakers"] == ("Alice Smith", "Alice Smith", "Bob O'Neil", "Alice Smith")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        (sentences,) = read_corpus(tmp_path / "zoom", unit="sentence", splitter="rules")
        (prefixed,) = read_corpus(tmp_path / "zoom", unit="sentence", splitter="rules", speakers="prefix")
    assert sentences.units == ("Welcome everyone.", "The budget is up four percent.", "Yeah.", "Now the roads.")
    assert prefixed.units[1:3] == ("Alice Smith: The budget is up four percent.", "Bob O'Neil: Yeah.")
    # WhisperX's tags, written only when the speaker changes: a cue without one continues the voice
    srt = "".join(f"{k + 1}\n00:00:0{k},000 --> 00:00:0{k + 1},000\n{text}\n\n" for k, text in
                  enumerate(["[SPEAKER_00]: We roast", "at home.", "[SPEAKER_01]: Nice.", "[SPEAKER_00]: Yes."]))
    with pytest.warns(CorpusWarning, match=r"3 name\(s\), 2 voice\(s\); a cue without one continues"):
        (tagged,) = read_corpus(write(tmp_path / "x.srt", srt))
    assert tagged.units == ("We roast", "at home.", "Nice.", "Yes.")
    assert tagged.meta["speakers"] == ("SPEAKER_00", "SPEAKER_00", "SPEAKER_01", "SPEAKER_00")


def test_speaker_names_in_capitals_written_where_the_speaker_changes_are_voices(tmp_path):
    """Subtitles name a speaker in capitals on the first cue of a turn only (``ALICE: ...``), a
    sentence running on over the next cues: 37 of the 117 cues of a synthetic meeting. Fewer than two
    cues in three named one, so the names stayed in the text and ``meta["speakers"]`` was empty, in
    silence; sentence units then joined everyone's words into one turn."""
    texts = ["ALICE: So the first thing", "on the agenda is the budget.", "BOB: The draft came", "on Monday.",
             "It is up four percent.", "ALICE: Then the roads.", "The bridge", "needs rebar.", "BOB: Agreed."]
    srt = "".join(f"{k + 1}\n00:00:0{k},000 --> 00:00:0{k + 1},000\n{text}\n\n" for k, text in enumerate(texts))
    with pytest.warns(CorpusWarning, match=r"read as voices: 4 name\(s\), 2 voice\(s\)"):
        (doc,) = read_corpus(write(tmp_path / "a.srt", srt))
    assert doc.units[0] == "So the first thing" and doc.units[2] == "The draft came"
    assert doc.meta["speakers"] == ("ALICE",) * 2 + ("BOB",) * 3 + ("ALICE",) * 3 + ("BOB",)
    # names not in capitals, or one name only, so written: text, as before
    for name, changed in [("b.srt", srt.replace("ALICE", "Alice").replace("BOB", "Bob")),
                          ("c.srt", srt.replace("BOB", "ALICE"))]:
        with warnings.catch_warnings():
            warnings.simplefilter("error", CorpusWarning)
            (kept,) = read_corpus(write(tmp_path / name, changed))
        assert kept.units[0].endswith(": So the first thing") and kept.meta["speakers"] == (None,) * 9, name


@pytest.mark.parametrize("texts", [
    ["Step 1: open the file.", "Step 2: save it.", "Step 3: close it.", "Step 4: done."],  # names do not repeat
    ["Note: slides online.", "We start now.", "The budget.", "Then roads."],               # one cue in four
])
def test_text_before_a_colon_that_is_not_a_speaker_stays(tmp_path, texts):
    vtt = "WEBVTT\n\n" + "".join(f"00:0{k}.000 --> 00:0{k + 1}.000\n{text}\n\n" for k, text in enumerate(texts))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        (doc,) = read_corpus(write(tmp_path / "a.vtt", vtt))
    assert doc.units == tuple(texts) and doc.meta["speakers"] == (None,) * 4
    # voice spans decide where a file has them: the text is left as written
    (voiced,) = read_corpus(write(tmp_path / "b" / "b.vtt", vtt.replace(".000\n", ".000\n<v Ann>")))
    assert voiced.units == tuple(texts) and voiced.meta["speakers"] == ("Ann",) * 4


def test_a_silent_file_in_a_folder_read_in_sentences_is_left_out_alone(tmp_path):
    """The default splitter trains on the turns of every file before the first is read; a file
    with nothing to segment raised there, inside the reading of the first file, which was left out
    in its place: a folder of a transcript and a silent recording's captions read as no file with
    text, the transcript named as without any."""
    write(tmp_path / "vtt" / "talk.vtt", TALK)
    write(tmp_path / "vtt" / "silent.vtt", "WEBVTT\n\n00:00.000 --> 00:02.000\n\n")
    write(tmp_path / "csv" / "talk.csv", "text\nHello there. Bye now.\n")
    write(tmp_path / "csv" / "empty.csv", "text\n")
    for folder, silent in [("vtt", "silent.vtt"), ("csv", "empty.csv")]:
        with pytest.warns(CorpusWarning, match=rf"1 file\(s\) without text to segment left out of the corpus: {silent} "):
            (doc,) = read_corpus(tmp_path / folder, unit="sentence")
        assert doc.id.startswith("talk") and doc.n_units >= 2


def test_sentence_unit_options_are_checked(tmp_path):
    file = write(tmp_path / "meeting.vtt", MEETING)
    with pytest.raises(InvalidParameterError, match="unit must be one of 'cue', 'sentence'; received 'paragraph'"):
        read_corpus(file, unit="paragraph")
    with pytest.raises(InvalidParameterError, match="splitter applies only to unit='sentence'; received unit='cue'"):
        read_corpus(file, splitter="rules")
    # a splitter must return pieces of the text it was given, all of it, in order
    with pytest.raises(InvalidParameterError, match=r"meeting\.vtt: the splitter must return the sentences of the "
                       r"text it is given, in order and unchanged \(spaces aside\); its sentence 0, 'WELCOME"):
        list(read_corpus(file, unit="sentence", splitter=lambda text: [text.upper()]))
    with pytest.raises(InvalidParameterError, match=r"all of it; it left out '\. The budget"):
        list(read_corpus(file, unit="sentence", splitter=lambda text: text.split(". ")[:1]))
    # pieces joined again with other spaces are still the text
    (doc,) = read_corpus(file, unit="sentence", splitter=lambda text: ["  ".join(text.split())])
    assert doc.units[0] == "Welcome everyone. The budget is up four percent, mostly salaries."


# -- SubRip cues out of order ------------------------------------------------------------------
def test_subrip_cues_out_of_order_are_read_in_order_of_their_start(tmp_path):
    # an edited file: cue 2 was moved above cue 1; SubRip has no rule against it
    edited = ("2\n00:00:02,000 --> 00:00:03,000\nSecond.\n\n1\n00:00:00,000 --> 00:00:02,000\nFirst.\n\n"
              "3\n00:00:03,000 --> 00:00:04,000\nThird.\n")
    file = write(tmp_path / "edited.srt", edited)
    with pytest.warns(CorpusWarning, match=r"edited\.srt: 1 SubRip cue\(s\) start before the cue above them \(timing "
                      r"line\(s\) 6\): all cues are read in order of their start"):
        (doc,) = read_corpus(file)
    assert doc.units == ("First.", "Second.", "Third.") and doc.times == ((0.0, 2.0), (2.0, 3.0), (3.0, 4.0))
    assert doc.meta["notes"] == ["1 SubRip cue(s) start before the cue above them (timing line(s) 6): all cues are "
                                 "read in order of their start"]
    # a chapters track in SubRip out of order too
    write(tmp_path / "edited.chapters.srt", "1\n00:00:03,000 --> 00:00:04,000\nB\n\n2\n00:00:00,000 --> 00:00:03,000\nA\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        (doc,) = read_corpus(file)
    assert doc.references[0].boundaries == (2,) and doc.meta["titles"] == ("A", "B")
    # WebVTT requires the order: still refused (test_errors_name_the_file_the_line_and_what_was_expected)


# -- the command line -------------------------------------------------------------------------
def test_run_on_a_folder_of_captions(tmp_path):
    write(tmp_path / "talks" / "talk.vtt", TALK)
    write(tmp_path / "talks" / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:06.000\nA\n\n00:06.000 --> 00:12.000\nB\n")
    write(tmp_path / "talks" / "meeting.vtt", VTT)
    args = ["run", "-s", "even", "-s", "c99", "--corpus", str(tmp_path / "talks"), "--restarts", "2",
            "--no-progress", "--report-format", "json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    docs = {d["document"]: d for d in report["documents"]["c99"]}
    assert set(docs) == {"talk.vtt", "meeting.vtt"}
    assert docs["talk.vtt"]["n_units"] == 6 and docs["talk.vtt"]["references"] == [[3]]
    assert docs["meeting.vtt"]["n_units"] == 3 and docs["meeting.vtt"]["references"] == []
    prefixed = CliRunner().invoke(app, args + ["--speakers", "prefix"])
    assert prefixed.exit_code == 0, prefixed.output
    sentences = CliRunner().invoke(app, args + ["--unit", "sentence", "--splitter", "rules"])
    assert sentences.exit_code == 0, sentences.output
    docs = {d["document"]: d for d in json.loads(sentences.stdout)["documents"]["c99"]}
    assert docs["talk.vtt"]["n_units"] == 6 and docs["meeting.vtt"]["n_units"] == 3  # one sentence a cue there
    wrong = CliRunner().invoke(app, args + ["--speakers", "first"])
    assert wrong.exit_code == 1 and "speakers" in wrong.stderr and "'first'" in wrong.stderr


def test_word_highlighting_captions_are_read_once_a_line(tmp_path):
    """Whisper's --highlight_words writes one cue a word, each repeating the line with that word
    underlined: each line was read as many times as it has words (7 units for 2 lines)."""
    lines = [("The budget grows.", 0.0), ("Taxes stay flat.", 1.8)]
    cues, at = [], 0.0
    for text, _ in lines:
        words = text.split()
        for k in range(len(words)):
            shown = " ".join(f"<u>{w}</u>" if i == k else w for i, w in enumerate(words))
            cues.append((at, at + 0.4, shown))
            at += 0.4
        cues.append((at, at + 0.2, text))  # the line again without the highlight, as Whisper ends it
        at += 0.2
    body = "WEBVTT\n\n" + "\n".join(f"00:{s:06.3f} --> 00:{e:06.3f}\n{t}\n" for s, e, t in cues)
    file = write(tmp_path / "talk.vtt", body)
    with pytest.warns(CorpusWarning, match=r"word-highlighting captions .*: 6 repeated cue\(s\) merged"):
        (doc,) = read_corpus(file)
    assert doc.units == ("The budget grows.", "Taxes stay flat.")
    assert doc.times == ((0.0, 1.4), (1.4, 2.8))


def test_chinese_cues_are_joined_without_a_space(tmp_path):
    """Sentence units joined the cues of a turn with a space, also between two Chinese characters:
    `面团需要 发酵两个小时。`, a text nobody wrote, whose character pairs the unicode tokenizer then missed."""
    cues = [(0, 2, "面包师用面粉和水揉面团，面团需要"), (2, 4, "发酵两个小时。教练整个星期"), (4, 6, "都在训练球员。")]
    vtt = "WEBVTT\n\n" + "".join(f"00:0{a}.000 --> 00:0{b}.000\n{text}\n\n" for a, b, text in cues)
    (doc,) = read_corpus(write(tmp_path / "zh.vtt", vtt), unit="sentence", splitter="rules")
    assert doc.units == ("面包师用面粉和水揉面团，面团需要发酵两个小时。", "教练整个星期都在训练球员。")
