"""Whisper's JSON output (``--output_format json``; OpenAI's ``verbose_json``, WhisperX's) read as
a transcript: a unit per segment with its times, a chapters track beside it as the reference.

Expected units and times are read off the JSON written in each test.
"""

from __future__ import annotations

import json
import warnings

import pytest
from typer.testing import CliRunner

from stability import CorpusFormatError, CorpusWarning, InvalidParameterError
from stability.cli import app
from stability.readers import detect_format, read_corpus
from test_readers_subtitles import SRT, TALK, write

WHISPER = {
    "text": " Hello there. Welcome to the talk. First, the budget.",
    "segments": [
        {"id": 0, "seek": 0, "start": 0.0, "end": 2.5, "text": " Hello there.", "tokens": [1, 2],
         "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.1, "no_speech_prob": 0.01},
        {"id": 1, "seek": 0, "start": 2.5, "end": 5.0, "text": " Welcome to the talk.", "tokens": [3]},
        {"id": 2, "seek": 0, "start": 5.0, "end": 5.2, "text": " ", "tokens": []},
        {"id": 3, "seek": 0, "start": 5.2, "end": 9.0, "text": "  First,   the budget.", "tokens": [4]},
    ],
    "language": "en",
}


def test_whisper_json_is_read_as_a_transcript(tmp_path):
    """Before, `stability run --corpus talk.json` on Whisper's output stopped at "unknown key 'text':
    did you mean 'units'?", which sends the user the wrong way."""
    file = write(tmp_path / "talk.json", json.dumps(WHISPER, indent=2))
    with pytest.warns(CorpusWarning, match=r"talk\.json:1: 1 Whisper segment\(s\) without text skipped \(segments 2\)"):
        (doc,) = read_corpus(file)
    assert doc.id == "talk.json"
    assert doc.units == ("Hello there.", "Welcome to the talk.", "First, the budget.")
    assert doc.times == ((0.0, 2.5), (2.5, 5.0), (5.2, 9.0))
    assert doc.references == ()
    assert doc.meta["language"] == "en" and doc.meta["transcript"] == "whisper" and "text" not in doc.meta
    assert doc.meta["speakers"] == (None, None, None)
    # WhisperX: a speaker per segment, word timings dropped; a chapters track beside it is the reference
    diarized = {"segments": [dict(s, speaker=f"SPEAKER_0{i % 2}") for i, s in enumerate(WHISPER["segments"])],
                "word_segments": [{"word": "Hello", "start": 0.0, "end": 0.4}]}
    write(tmp_path / "x" / "talk.json", json.dumps(diarized))
    write(tmp_path / "x" / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:05.000\nIntro\n\n00:05.000 --> 00:09.000\nBudget\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        (doc,) = read_corpus(tmp_path / "x")
    assert doc.meta["speakers"] == ("SPEAKER_00", "SPEAKER_01", "SPEAKER_01")
    assert doc.references[0].boundaries == (2,) and doc.meta["titles"] == ("Intro", "Budget")
    assert "word_segments" not in doc.meta


def test_a_folder_of_whisper_output_in_every_format_is_read_from_its_json(tmp_path):
    """``whisper talk.mp3 --output_format all`` writes talk.json, .vtt, .srt, .tsv and .txt: the
    folder is read once, from the JSON (the first format of the table with its files there)."""
    write(tmp_path / "talk.json", json.dumps(WHISPER))
    write(tmp_path / "talk.vtt", TALK)
    write(tmp_path / "talk.srt", SRT)
    write(tmp_path / "talk.tsv", "start\tend\ttext\n0\t2500\tHello there.\n")
    write(tmp_path / "talk.txt", "Hello there.\n")
    assert detect_format(tmp_path) == "jsonl"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CorpusWarning)
        assert [(d.id, d.n_units) for d in read_corpus(tmp_path)] == [("talk.json", 3)]
    # the other four hold the same transcript: passed over without a warning naming them (a caption file
    # without its JSON is named: test_a_folder_mixing_whisper_json_and_captions)
    assert not [str(w.message) for w in caught if "not read" in str(w.message)]


def test_a_folder_mixing_whisper_json_and_captions(tmp_path):
    """A folder of transcripts from two tools (Whisper's JSON, captions from a meeting recorder) is
    read in one format; before, the captions were left out without a word (2 of 8 documents
    read), and read as captions the folder was refused for the chapters track of a JSON file."""
    write(tmp_path / "a.json", json.dumps(WHISPER))
    write(tmp_path / "a.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:05.000\nIntro\n\n00:05.000 --> 00:09.000\nBudget\n")
    write(tmp_path / "a.srt", SRT)                  # Whisper's own copy of a.json: not a document of its own
    write(tmp_path / "b.vtt", TALK)
    write(tmp_path / "b.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:06.000\nA\n")  # read with b.vtt
    write(tmp_path / "sub" / "c.srt", SRT)
    with pytest.warns(CorpusWarning, match=r"2 other file\(s\) not read \('b\.vtt', 'sub/c\.srt'\): the "
                      r"corpus is read as format 'jsonl' detected from the '\.json' files"):
        assert [d.id for d in read_corpus(tmp_path)] == ["a.json"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        assert [d.id for d in read_corpus(tmp_path / "sub")] == ["c.srt"]
    (tmp_path / "a.srt").unlink()
    # read as captions: a.chapters.vtt goes with a.json, which this format does not read
    assert [d.id for d in read_corpus(tmp_path, "subtitles")] == ["b.vtt", "sub/c.srt"]


@pytest.mark.parametrize("segments, expected", [
    ([{"start": 0.0, "end": 1.0}], r"segments\[0\] must be a Whisper segment, an object with 'start' and 'end'"),
    ([{"start": 0.0, "end": 1.0, "text": "a"}, 3], r"segments\[1\] must be a Whisper segment"),
    ([{"start": "0", "end": 1.0, "text": "a"}], r"its times finite numbers; received start '0' and end 1.0"),
    ([{"start": 2.0, "end": 1.0, "text": "a"}], r"segments\[0\] must end at or after its start"),
    ([], "expected at least one Whisper segment with text; segments is empty"),
])
def test_whisper_json_errors(tmp_path, segments, expected):
    file = write(tmp_path / "talk.json", json.dumps({"text": "a", "segments": segments}))
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_corpus(file))
    assert str(info.value).startswith(f"{file}:1: ")


def test_a_transcript_with_text_but_no_segments_is_refused_saying_what_to_export(tmp_path):
    """Before, OpenAI's transcription JSON without segments (response_format='json', or
    'verbose_json' with word timestamps only: {"text": ..., "words": [...]}) stopped at "unknown key
    'text': did you mean 'units'?", which sends a user to rename a key to what would still not be
    a list of units. Now the error says what is missing and what to do, for a document's text and
    for a transcript without its segments alike."""
    words = [{"word": "Hello", "start": 0.0, "end": 0.4}, {"word": "there.", "start": 0.4, "end": 0.9}]
    for record in ({"text": " Hello there. How are you?"},
                   {"task": "transcribe", "language": "english", "text": "Hello there.", "words": words}):
        file = write(tmp_path / "talk.json", json.dumps(record))
        with pytest.raises(CorpusFormatError, match=r"talk\.json:1: expected 'units', a list of strings \(a unit "
                           r"each\), or a transcript's 'segments'.*received 'text' alone, one string.*\.txt file.*"
                           r"response_format='verbose_json'.*--output_format json") as info:
            list(read_corpus(file))
        assert "did you mean" not in str(info.value)
    # text given as a list of strings is still the near-miss of 'units' it looks like
    listed = write(tmp_path / "listed.json", json.dumps({"text": ["Hello there.", "How are you?"]}))
    with pytest.raises(CorpusFormatError, match=r"unknown key 'text': did you mean 'units'\?"):
        list(read_corpus(listed))
    result = CliRunner().invoke(app, ["run", "-s", "even", "--corpus", str(file), "--restarts", "2", "--no-progress"])
    assert result.exit_code != 0 and "or a transcript's 'segments'" in result.output


def test_utterances_as_objects_are_refused_saying_what_to_export(tmp_path):
    """Before, a speech-to-text service's JSON whose 'utterances' are objects (AssemblyAI's:
    {"start": 250, "end": 1200, "text": ..., "speaker": "A"}, times in milliseconds) stopped at
    "unknown key 'text': did you mean 'units'?" (its whole text beside them) or "'units' must be a
    list of strings" (a key it does not have). Now the error names its key, says such objects are
    not read, and what to export instead."""
    said = [{"start": 250, "end": 1200, "text": "Hello there.", "speaker": "A"},
            {"start": 1300, "end": 2000, "text": "Hi Bob.", "speaker": "B"}]
    for record in ({"id": "abc", "text": "Hello there. Hi Bob.", "utterances": said}, {"utterances": said},
                   {"units": said}):
        key = "units" if "units" in record else "utterances"
        file = write(tmp_path / "call.json", json.dumps(record))
        with pytest.raises(CorpusFormatError, match=rf"call\.json:1: expected {key!r} as a list of strings, a unit "
                           rf"each; received objects with 'text' \(.*\), as a speech-to-text service writes its "
                           rf"{key}: export the transcript as WebVTT or SRT captions"):
            list(read_corpus(file))


def test_whisper_json_on_the_command_line(tmp_path):
    file = write(tmp_path / "talk.json", json.dumps(WHISPER))
    result = CliRunner().invoke(app, ["run", "-s", "even", "--corpus", str(file), "--restarts", "2", "--no-progress",
                                      "--report-format", "json"])
    assert result.exit_code == 0, result.output
    (doc,) = json.loads(result.stdout)["documents"]["even"]
    assert doc["document"] == "talk.json" and doc["n_units"] == 3


def test_segment_sizes_are_still_a_reference(tmp_path):
    file = write(tmp_path / "c.jsonl", '{"id": "a", "units": ["x", "y", "z"], "segments": [1, 2]}\n')
    (doc,) = read_corpus(file)
    assert doc.references[0].boundaries == (1,) and doc.times is None


def test_segments_out_of_order_are_refused_when_a_chapters_track_places_the_reference(tmp_path):
    """A chapter starts a segment at the first unit starting at or after it, which needs the units
    in order of their start (caption cues are refused otherwise). Before, segments out of order
    gave a reference alternating between the chapters, 'One', 'Two', 'One', 'Two', without a word.
    Without a chapters track the order of times decides nothing, and the file is read."""
    segments = [{"start": s, "end": s + 1.0, "text": t} for s, t in ((0.0, "a"), (5.0, "late"), (1.0, "early"), (6.0, "b"))]
    file = write(tmp_path / "talk.json", json.dumps({"text": "a late early b", "segments": segments}))
    with pytest.warns(CorpusWarning, match=r"1 Whisper segment\(s\) with text start before the one above them "
                                           r"\(segments with text 2\): read in the file's order"):
        (doc,) = read_corpus(file)
    assert doc.units == ("a", "late", "early", "b") and doc.references == ()
    write(tmp_path / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:04.000\nOne\n\n00:04.000 --> 00:08.000\nTwo\n")
    with pytest.raises(CorpusFormatError, match=r"talk\.json.*in order of their start.*unit 2 starts at 1 s, before "
                                                r"unit 1 \(5 s\)"):
        list(read_corpus(file))


# A meeting as WhisperX writes it: segments cut through sentences, a speaker per segment.
MEETING = {"language": "en", "segments": [
    {"start": 0.0, "end": 3.0, "text": " Welcome everyone. Today we start with", "speaker": "SPEAKER_00"},
    {"start": 3.0, "end": 6.0, "text": " the budget, which is up four percent.", "speaker": "SPEAKER_00"},
    {"start": 6.0, "end": 7.0, "text": " Yeah.", "speaker": "SPEAKER_01"},
    {"start": 7.0, "end": 9.5, "text": " Then the roads. Elm Street needs", "speaker": "SPEAKER_00"},
    {"start": 9.5, "end": 12.0, "text": " paving before May.", "speaker": "SPEAKER_00"},
]}


def test_whisper_json_with_sentence_units(tmp_path):
    """Before, `--unit sentence` on Whisper's JSON was refused ("unit applies only to format
    'subtitles', ..."), though its segments cut sentences as caption cues do. Expected units and
    times worked out by hand: a sentence starting inside a segment starts at the share of the
    segment's time its characters before it take ("Today" at 18 of 37 in 0-3 s: 1.459 s; "Elm" at 16
    of 32 in 7-9.5 s: 8.25 s) and the sentence before it ends there; a change of speaker ends one."""
    file = write(tmp_path / "w" / "meeting.json", json.dumps(MEETING))
    (doc,) = read_corpus(file, unit="sentence", splitter="rules")
    assert doc.units == ("Welcome everyone.", "Today we start with the budget, which is up four percent.", "Yeah.",
                         "Then the roads.", "Elm Street needs paving before May.")
    assert doc.times == ((0.0, 1.459), (1.459, 6.0), (6.0, 7.0), (7.0, 8.25), (8.25, 12.0))
    assert doc.meta["speakers"] == ("SPEAKER_00", "SPEAKER_00", "SPEAKER_01", "SPEAKER_00", "SPEAKER_00")
    assert doc.meta["unit"] == "sentence" and doc.meta["splitter"] == "rules" and doc.meta["notes"] == []
    # one implementation: the same speech as WebVTT captions gives the same sentences
    vtt = "WEBVTT\n\n" + "".join(f"00:{s['start']:06.3f} --> 00:{s['end']:06.3f}\n<v {s['speaker']}>{s['text'].strip()}\n\n"
                                 for s in MEETING["segments"])
    (captions,) = read_corpus(write(tmp_path / "vtt" / "meeting.vtt", vtt), unit="sentence", splitter="rules")
    assert (captions.units, captions.times, captions.meta["speakers"]) == (doc.units, doc.times, doc.meta["speakers"])
    # segments stay the default units; the default splitter; a chapters track places sentences
    (segments,) = read_corpus(file)
    assert segments.n_units == 5 and segments.meta["unit"] == "segment" and segments.meta["splitter"] is None
    write(tmp_path / "w" / "meeting.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:07.000\nBudget\n\n00:07.000 --> 00:12.000\nRoads\n")
    (doc,) = read_corpus(tmp_path / "w", unit="sentence")
    assert doc.n_units == 5 and doc.references[0].boundaries == (3,) and doc.meta["titles"] == ("Budget", "Roads")


def test_whisper_sentence_units_without_punctuation_and_the_options_checked(tmp_path):
    plain = {"segments": [{"start": float(k), "end": k + 1.0, "text": text} for k, text in
                          enumerate([" all right switching gears", " i started roasting", " coffee at home"])]}
    file = write(tmp_path / "vlog.json", json.dumps(plain))
    with pytest.warns(CorpusWarning, match=r"vlog\.json:1: 3 unit\(s\) left as their segments: text without a sentence "
                                           r"end to close it"):
        (doc,) = read_corpus(file, unit="sentence")
    assert doc.units == ("all right switching gears", "i started roasting", "coffee at home")
    with pytest.raises(InvalidParameterError, match="unit must be one of 'segment', 'sentence'; received 'cue'"):
        read_corpus(file, unit="cue")
    with pytest.raises(InvalidParameterError, match="splitter applies only to unit='sentence'"):
        read_corpus(file, splitter="rules")
    # a document giving its units has no sentences to find
    listed = write(tmp_path / "c.jsonl", '{"id": "a", "units": ["x. y", "z"]}\n')
    with pytest.raises(InvalidParameterError, match=r"c\.jsonl:1: unit='sentence' cuts Whisper transcripts .* this "
                                                    r"document gives its 'units' as they are"):
        list(read_corpus(listed, unit="sentence"))


def test_whisper_sentence_units_on_the_command_line(tmp_path):
    file = write(tmp_path / "meeting.json", json.dumps(MEETING))
    result = CliRunner().invoke(app, ["run", "-s", "even", "--corpus", str(file), "--unit", "sentence", "--splitter",
                                      "rules", "--restarts", "2", "--no-progress", "--report-format", "json"])
    assert result.exit_code == 0, result.output
    (doc,) = json.loads(result.stdout)["documents"]["even"]
    assert doc["n_units"] == 5


def test_a_chapters_track_beside_several_whisper_transcripts_is_refused(tmp_path):
    """A chapters track belongs to one recording. Before, every transcript of a .jsonl file got the
    chapters beside it: Tuesday's 60-second meeting took Monday's chapter at 4 s ('Budget'),
    without a word."""
    monday = {"id": "monday", "segments": [{"start": 0.0, "end": 4.0, "text": " Hello."},
                                           {"start": 4.0, "end": 8.0, "text": " Budget now."}]}
    tuesday = {"id": "tuesday", "segments": [{"start": 0.0, "end": 30.0, "text": " Long intro."},
                                             {"start": 30.0, "end": 60.0, "text": " Weather."}]}
    file = write(tmp_path / "meetings.jsonl", json.dumps(monday) + "\n" + json.dumps(tuesday) + "\n")
    chapters = write(tmp_path / "meetings.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:04.000\nIntro\n\n"
                     "00:04.000 --> 00:08.000\nBudget\n")
    expected = (r"meetings\.jsonl: expected one Whisper transcript in a file with a chapters track beside it "
                r"\('meetings\.chapters\.vtt'\), which belongs to one recording; this file holds 2 \(lines 1, 2\)")
    for given in (file, tmp_path):
        with pytest.raises(CorpusFormatError, match=expected):
            list(read_corpus(given))
    with pytest.raises(CorpusFormatError, match=expected):  # whatever where keeps: which transcript is unknown
        list(read_corpus(file, where="id=monday"))
    # without the track, every transcript is read, none with a reference
    chapters.unlink()
    assert [(d.id, d.references) for d in read_corpus(file)] == [("monday", ()), ("tuesday", ())]
    # one transcript in the file, beside other documents: the chapters are its own
    write(tmp_path / "meetings.jsonl", json.dumps(monday) + '\n{"id": "notes", "units": ["a", "b"]}\n')
    write(tmp_path / "meetings.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:04.000\nIntro\n\n00:04.000 --> 00:08.000\nBudget\n")
    first, second = read_corpus(file)
    assert first.references[0].boundaries == (1,) and second.references == ()


def test_a_chapters_track_beside_whisper_tsv_is_its_reference(tmp_path):
    """It was ignored without a word (and hidden from the warning on files left out): the
    document had no reference, while the same track beside talk.json gave one."""
    tsv = write(tmp_path / "talk.tsv", "start\tend\ttext\n0\t2500\tThe budget grows.\n2500\t5000\tTaxes stay.\n"
                                       "5000\t7500\tRoads need asphalt.\n7500\t10000\tBridges are inspected.\n")
    write(tmp_path / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:05.000\nBudget\n\n00:05.000 --> 00:10.000\nRoads\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        (doc,) = read_corpus(tsv)
    assert doc.references[0].boundaries == (2,) and doc.meta["chapters"].endswith("talk.chapters.vtt")
    several = write(tmp_path / "two" / "talk.csv", "document,start,end,text\na,0,1,One.\na,1,2,Two.\nb,0,1,Three.\n")
    write(tmp_path / "two" / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:01.000\nA\n")
    with pytest.raises(CorpusFormatError, match="a chapters track \\('talk.chapters.vtt'\\) is beside a file of several"):
        list(read_corpus(several))



# JSON objects, and whether each is a corpus document (else bare segmentations, for stability score)
_SHAPES = [
    ({"id": "d", "units": ["A.", "B."], "boundaries": [1]}, True),
    ({"dial_id": "d", "utterances": ["A.", "B."], "segments": [1, 1]}, True),  # the data hub's aliases
    (WHISPER, True),
    ({"id": "d", "boundaries": [1], "n_units": 2}, False),
    ({"id": "d", "masses": [1, 1]}, False),
    ({"id": "d", "references": [[1]], "n_units": 2}, False),
]


@pytest.mark.parametrize("record, corpus", _SHAPES)
def test_stability_score_tells_a_corpus_from_segmentations_as_the_reader_does(tmp_path, record, corpus):
    """`stability score talk.json` took a Whisper transcript for bare segmentations (it has no
    'units') and refused it ("expected 'boundaries' with 'n_units'..."), while its folder was
    scored from the chapters track beside it: a corpus document is what the JSON reader reads."""
    from stability.scoring import read_segmentations

    file = write(tmp_path / "talk.json", json.dumps(record))
    write(tmp_path / "talk.chapters.vtt", "WEBVTT\n\n00:00.000 --> 00:05.000\nIntro\n\n00:05.000 --> 00:09.000\nBudget\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        scored = [(entry.id, [s.boundaries for s in entry.segmentations]) for entry in read_segmentations(file)]
        if corpus:
            assert scored == [(d.id, [r.boundaries for r in d.references]) for d in read_corpus(file)]
    assert scored == ([("talk.json", [(2,)])] if record is WHISPER else [("d", [(1,)])])


def test_one_rule_tells_a_corpus_document_from_segmentations():
    from stability.readers.jsonl import is_document

    assert [is_document(record) for record, _ in _SHAPES] == [corpus for _, corpus in _SHAPES]


def test_a_chunker_reads_caption_and_whisper_sentences_joined_as_running_text(tmp_path):
    """Before, subtitle (.vtt, .srt) and Whisper JSON corpora read with unit='sentence' set no
    meta['unit_separator'], which the text, Markdown, HTML and CSV readers set: a chunker read their
    sentences one a line, as if each were a caption, where they run on with a space between them;
    then every sentence ran on, two speakers' turns too. Now a turn is a line, as a transcript
    prints it (meta['unit_separators']: a newline where the speaker changes). Cues and segments stay
    a line each (the chunkers' default, no key)."""
    from segmenters.chunkers import ChunkerSegmenter
    from stability import stability_test
    from stability.readers.common import UNIT_SEPARATORS
    from test_readers_subtitles import MEETING

    whisper = tmp_path / "talk.json"
    whisper.write_text(json.dumps(WHISPER), encoding="utf-8")
    captions = write(tmp_path / "meeting.vtt", MEETING)
    seen: list[str] = []

    def whole(text):
        seen.append(text)
        return [text]

    for file in (captions, whisper):
        (doc,) = read_corpus(file, unit="sentence", splitter="rules")
        assert doc.meta["unit_separator"] == UNIT_SEPARATORS["sentence"] == " ", file
        first = len(seen)  # the first call reads the document in its order
        stability_test(ChunkerSegmenter(whole), doc, n_restarts=1, seed=0)
        voices = doc.meta["speakers"]  # a turn a line: a newline where the speaker changes, else a space
        gaps = ["\n" if a != b else " " for a, b in zip(voices, voices[1:])]
        assert seen[first] == "".join(unit + gap for unit, gap in zip(doc.units, gaps)) + doc.units[-1]
        assert ("\n" in seen[first]) == (len(set(voices)) > 1), file
        (pieces,) = read_corpus(file)
        assert "unit_separator" not in pieces.meta  # a cue, a segment a line
        first = len(seen)
        stability_test(ChunkerSegmenter(whole), pieces, n_restarts=1, seed=0)
        assert seen[first] == "\n".join(pieces.units)
