"""Corpus readers on files they were not written for: malformed, truncated or unusual input either
reads as a corpus that keeps the readers' invariants, or is refused with one of the project's
errors naming the file; never another exception, a hang, or a corpus read wrong in silence.

The first part holds one deterministic test per defect the fuzzing found (each failed before its
fix); the second the hypothesis tests that look for more, a few dozen examples each (more with
``STABILITY_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import json
import os
import warnings
from contextlib import nullcontext
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stability import CorpusFormatError, Document, InvalidParameterError, StabilityError
from stability.cli import app
from stability.readers import CorpusWarning, read_corpus

EXAMPLES = int(os.environ.get("STABILITY_FUZZ_EXAMPLES", "40"))


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return path


def refused(path: Path, *args, **options) -> CorpusFormatError:
    """The error reading ``path`` raises; it must name the file."""
    with pytest.raises(CorpusFormatError) as caught, warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        list(read_corpus(path, *args, **options))
    assert path.name in str(caught.value)
    return caught.value


# ---------------------------------------------------------------------------------------------
# regressions: one test per defect found
# ---------------------------------------------------------------------------------------------
#: Nesting deeper than the json module of any Python parses: 3.10-3.12 stop near 1,000 levels,
#: 3.13 parses 5,000 (its C recursion limit is higher) and stops before 100,000.
DEEP = 100_000


@pytest.mark.parametrize("name, text", [
    ("deep.jsonl", '{"units": ' + "[" * DEEP + "]" * DEEP + "}\n"),  # JSON lines
    ("deep.json", "[" * DEEP + "]" * DEEP),  # a JSON array
    ("deep2.json", '[{"units": ["a"]},\n {"units": ' + "[" * DEEP + "]" * DEEP + "}]"),  # an element of one
])
def test_json_nested_too_deeply_is_a_format_error(tmp_path, name, text):
    # json raised RecursionError (a traceback from `stability run`)
    error = refused(write(tmp_path / name, text))
    assert "nested too deeply" in str(error) and error.line == (2 if name == "deep2.json" else 1)


@pytest.mark.parametrize("text", [
    '{"units": ["a"], "times": [[0, 1%s]]}\n' % ("0" * 400),
    '{"segments": [{"start": 0, "end": 1%s, "text": "Hi."}]}\n' % ("0" * 400),  # a Whisper transcript
])
def test_json_time_too_large_for_a_float_is_a_format_error(tmp_path, text):
    # math.isfinite raised OverflowError on an integer of 400 digits
    error = refused(write(tmp_path / "big.json", text))
    assert "finite numbers" in str(error) and error.line == 1


def run(corpus: str, stdin: str | None = None):
    """``stability run`` on ``corpus``, with ``stdin`` piped in."""
    args = ["run", "-s", "even", "--restarts", "2", "--no-progress", "--report-format", "json", "--corpus", corpus]
    return CliRunner().invoke(app, args, input=stdin)


def one_error_line(result, name: str) -> str:
    """The run failed with one ``error:`` line naming ``name``, and no traceback."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and name in errors[0], result.output
    return errors[0]


def test_run_refuses_json_nested_too_deeply_piped_or_in_a_file_in_one_line(tmp_path):
    deep = "[" * DEEP + "]" * DEEP  # standard input: _json_row parsed it to choose the format
    assert "nested too deeply" in one_error_line(run("-", deep), "<stdin>:1")
    file = write(tmp_path / "deep.json", deep)
    assert "nested too deeply" in one_error_line(run(str(file)), "deep.json:1")


@pytest.mark.parametrize("record, kept", [
    ({"units": ["a"], "meta": {"notes": 5}}, []),  # was a TypeError
    ({"units": ["a"], "notes": "checked by Ann"}, []),  # was split into 14 one-character notes
    ({"units": ["a"], "notes": ["checked by Ann"]}, ["checked by Ann"]),  # a list of strings joins the reader's
])
def test_json_notes_key_that_is_not_a_list_of_strings_is_dropped_with_a_note(tmp_path, record, kept):
    file = write(tmp_path / "c.jsonl", json.dumps(record) + "\n")
    with pytest.warns(CorpusWarning, match="key 'notes' holds the reader's notes") if not kept else nullcontext():
        (doc,) = read_corpus(file)
    assert doc.meta["notes"][: len(kept)] == kept and all(isinstance(text, str) for text in doc.meta["notes"])
    assert len(doc.meta["notes"]) == len(kept) + (not kept)


def test_json_keys_the_reader_sets_are_not_overwritten_in_silence(tmp_path):
    # a corpus with a "source" field (where each text came from) lost it to meta["source"], the file
    file = write(tmp_path / "c.jsonl", json.dumps({"units": ["a"], "source": "wikipedia", "meta": {"line": 1}}) + "\n")
    with pytest.warns(CorpusWarning, match="key 'source' is one the reader sets") as caught:
        (doc,) = read_corpus(file)
    assert doc.meta["source"] == str(file) and "'wikipedia' is dropped" in doc.meta["notes"][0]
    assert len(caught) == 1  # "line" is 1 there too: nothing lost, no note
    whisper = {"segments": [{"start": 0, "end": 1, "text": "Hi."}], "format": "whisper-json"}
    with pytest.warns(CorpusWarning, match="key 'format' is one the reader sets"):
        (doc,) = read_corpus(write(tmp_path / "talk.json", json.dumps(whisper)))
    assert doc.meta["format"] == "jsonl" and len(doc.meta["notes"]) == 1


@pytest.mark.parametrize("titles", ["1,²,Intro\n", "1,1,Intro\n1,²,Intro\n"])
def test_chen_paragraph_number_that_is_a_digit_but_no_integer_is_a_format_error(tmp_path, titles):
    # '²'.isdigit() is True, so int('²') raised ValueError
    write(tmp_path / "c.text", "One.\nTwo.\n"[: 5 * titles.count("\n")])
    error = refused(write(tmp_path / "c.segmenttitles", titles))
    assert "integer paragraph number" in str(error) and error.line == titles.count("\n")


def test_subtitles_timestamp_with_hours_too_large_for_a_float_is_a_format_error(tmp_path):
    # the hours of 400 digits made an OverflowError
    error = refused(write(tmp_path / "a.vtt", f"WEBVTT\n\n{'9' * 400}:00:00.000 --> 00:00:01.000\nHi.\n"))
    assert "expected the cue's start as a timestamp" in str(error) and error.line == 3


@pytest.mark.parametrize("line, unit", [
    ("\ue100\ue110\ue101 x", "\ue100\ue110\ue101 x"),  # was an IndexError (a code span that does not exist)
    ("`a` \ue100\ue110\ue101 b", "a \ue100\ue110\ue101 b"),  # was 'a a b': the code span copied
    ("Menu \ue021 `k\ue021` *on*", "Menu \ue021 k\ue021 on"),  # an icon font's glyph became '!'
])
def test_markdown_text_keeps_private_use_characters_as_they_are(tmp_path, line, unit):
    # markup='text' holds escapes and code spans in the private use area while its rules run
    (doc,) = read_corpus(write(tmp_path / "icons.md", line + "\n"), markup="text")
    assert doc.units == (unit,)


@pytest.mark.parametrize("text, where", [
    ('{"id": "a", "units": ["Cut here \\ud83d", "b"]}\n', "units[0] must be text"),
    ('{"id": "\\udc00", "units": ["a", "b"]}\n', "'id' must be text"),
    ('{"segments": [{"start": 0, "end": 1, "text": "Hi \\ud83d"}]}\n', "segments[0] 'text' must be text"),
])
def test_json_lone_surrogate_is_a_format_error(tmp_path, text, where):
    # a JSON escape of half a character read fine, then `stability run` died hashing the document
    # (UnicodeEncodeError: surrogates not allowed)
    error = refused(write(tmp_path / "cut.jsonl", text))
    assert where in str(error) and "lone surrogate" in str(error) and error.line == 1


def test_run_refuses_a_lone_surrogate_in_one_line(tmp_path):
    file = write(tmp_path / "cut.jsonl", '{"id": "a", "units": ["Cut here \\ud83d", "b", "c"]}\n')
    assert "lone surrogate" in one_error_line(run(str(file)), "cut.jsonl:1")


@pytest.mark.parametrize("handler", ["surrogateescape", "surrogatepass"])
def test_encoding_errors_that_leave_lone_surrogates_are_refused(tmp_path, handler):
    file = write(tmp_path / "a.txt", b"caf\xe9 au lait.\n")
    with pytest.raises(InvalidParameterError, match="encoding_errors must be a handler that decodes to text"):
        read_corpus(file, encoding_errors=handler)
    assert next(read_corpus(file, encoding_errors="replace")).units == ("caf\ufffd au lait.",)


# ---------------------------------------------------------------------------------------------
# fuzzing: a corpus read keeps the invariants, or an error names the file
# ---------------------------------------------------------------------------------------------
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
#: Formats whose units are stripped text, never blank (Choi, Chen and CSV keep blank units, with notes or as given).
STRIPPED = ("wiki", "subtitles", "markdown", "rst", "html", "text")


def outcome(path: Path, format: str | None = None, **options) -> list[Document] | None:
    """The documents read from ``path`` checked against the readers' invariants; None when the
    reader refused the input as it must, naming one of the files of its folder (a chapters track
    beside a transcript, Chen's ``.text`` beside its ``.segmenttitles``)."""
    names = [file.name for file in (path.parent if path.is_file() else path).iterdir()]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CorpusWarning)
            docs = list(read_corpus(path, format, **options))
    except StabilityError as exc:
        assert any(name in str(exc) for name in names), str(exc)
        return None
    assert docs and len({doc.id for doc in docs}) == len(docs)
    for doc in docs:
        assert doc.units and all(isinstance(unit, str) for unit in doc.units)
        if doc.meta["format"] in STRIPPED:
            assert all(unit and unit == unit.strip() for unit in doc.units), doc.units
        for reference in doc.references:
            boundaries = list(reference.boundaries)
            assert reference.n_units == doc.n_units and boundaries == sorted(set(boundaries))
            assert all(0 < b < doc.n_units for b in boundaries)
        if doc.times is not None:
            assert len(doc.times) == doc.n_units and all(start <= end for start, end in doc.times)
        assert all(isinstance(text, str) for text in doc.meta["notes"])
    return docs


# the characters a unit may hold on one line: anything but line ends, NUL and surrogates
LINE_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12).map(str.strip).filter(bool)
ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])
JUNK = st.sampled_from([
    "", "\n", "\r\n", "\r", "\ufeff", "\x00", "\x1b", "\x0c", "\u2028", "\x85", " ", "\t", ",", ";", '"', "'", "\\",
    "==========", "=========", "========,1,x.", "========,x,", "***LIST***", "-->", "00:00.000 --> 00:01.000",
    "00:00:61,000", "99:99", "WEBVTT", "NOTE", "1", "#", "##", "```", "~~~", "    ", ">", "- ", "---", "<", ">",
    "<main>", "</main>", "<pre>", "<h1>", "</h1>", "<script>", "<!--", "-->", "&amp;", "&#0;", "&#xd800;",
    "[", "]", "{", "}", "null", "1e400", "-1", "0", "\ue021", "é", "x" * 300,
])


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` with a few pieces inserted, cut out, repeated, or its line ends changed."""
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "insert", "delete", "truncate", "repeat", "endings"]))
        if kind == "insert":
            text = text[:at] + draw(JUNK | LINE_TEXT) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        elif kind == "truncate":
            text = text[:at]
        elif kind == "repeat":
            start = draw(st.integers(0, len(text)))
            text = text[:at] + text[start:start + draw(st.integers(1, 40))] + text[at:]
        else:
            text = text.replace("\n", draw(ENDINGS))
    return text


SEEDS = {  # (file name, format given or None, text): one well-formed file of each layout
    "choi": ("0.ref", None, "==========\nA cat sat.\nIt slept.\n==========\nRain fell.\n==========\n"),
    "wiki": ("300", "wiki", "========,1,preface.\nA.\n========,2,Life.\n***LIST***.\nB.\n========,3,Youth.\nC.\n"),
    "jsonl": ("c.jsonl", None, '{"id": "a", "units": ["x", "y", "z"], "references": [[1], [2]]}\n'
                               '{"id": "b", "units": ["x", "y"], "segments": [1, 1], "times": [[0, 1], [1, 2]]}\n'),
    "json": ("hub.json", None, '[{"dial_id": 0, "utterances": ["hi", "rain?", "yes"], "segments": [1, 2]},\n'
                               ' {"dial_id": 1, "utterances": ["a", "b"], "boundaries": [1], "meta": {"k": 1}}]\n'),
    "whisper": ("talk.json", None, '{"text": "Hi. Bye.", "segments": [{"start": 0.0, "end": 2.5, "text": " Hi.", '
                                   '"speaker": "A"}, {"start": 2.5, "end": 6, "text": " Bye."}], "language": "en"}\n'),
    "csv": ("ep.csv", None, 'document,start,end,sentence,ground_truth,label_2\nd1,0,1.5,Hi.,1,a\n'
                            'd1,1.5,3,"Wel,""come"".",1,b\nd1,3,4,News.,2,b\nd2,0,1,x,1,\n'),
    "tsv": ("talk.tsv", None, "start\tend\ttext\n0\t2500\tHello there.\n2500\t6120\t\"Welcome.\n"),
    "vtt": ("t.vtt", None, "WEBVTT\n\nNOTE x\n\n00:00.000 --> 00:02.000\n<v Ann>Hello &amp; hi.\n\n"
                           "00:02.000 --> 00:05.500 align:start\nThe budget.\n\n00:05.500 --> 00:08.000\n<i>Roads</i>.\n"),
    "srt": ("t.srt", None, "1\n00:00:01,000 --> 00:00:02,500\n<b>Hi</b> there\n\n2\n00:00:02,500 --> 00:00:04,000\n"
                           "Bye {\\an8} now\n"),
    "markdown": ("m.md", None, "# Title\n\nIntro *para*.\n\n## Sec\n\n- item `one`\n- item two\n\n```\ncode\n```\n\n"
                               "Setext\n------\n\n> quote \\*\n\n    indented\n"),
    "rst": ("r.rst", None, ":orphan:\n\n=====\nTitle\n=====\n\nIntro :func:`~a.b` *x*.\n\nSec\n---\n\n- item ``one``\n\n"
                           "Run::\n\n    code\n\n.. note:: Mind.\n\n.. toctree::\n\n   a\n\n+---+\n| t |\n+---+\n\n>>> 1\n"),
    "html": ("p.html", None, "<html><head><title>G</title></head><body><main><p>Intro &amp; x.<h1>Install</h1>"
                             "<p>Run <code>pip</code>.</p><pre>pip x</pre><h2>S</h2><ul><li>A.<li>B.</ul></main>"),
    "text": ("t.txt", "text", "Dr. Smith left. The sky\nis grey.\n\nTomorrow, sun.\n"),
}
OPTIONS = {"markdown": {"markup": "text"}, "text": {"splitter": "rules"}}


@FUZZ
@given(data=st.data(), bom=st.booleans())
@pytest.mark.parametrize("layout", sorted(SEEDS))
def test_fuzz_mutated_files_read_or_are_refused_naming_the_file(tmp_path_factory, layout, data, bom):
    name, format, seed = SEEDS[layout]
    text = ("\ufeff" if bom else "") + data.draw(mutated(seed))
    folder = tmp_path_factory.mktemp(layout)
    file = write(folder / name, text)
    outcome(file, format, **OPTIONS.get(layout, {}))


@FUZZ
@given(titles=mutated("1,1,TOP\n1,2,TOP\n1,3,history\n2,1,TOP\n"), text=mutated("intro\nmore intro\nhistory\nonly one\n"))
def test_fuzz_chen_pairs_read_or_are_refused_naming_a_file(tmp_path_factory, titles, text):
    folder = tmp_path_factory.mktemp("chen")
    write(folder / "c.segmenttitles", titles)
    write(folder / "c.text", text)
    outcome(folder)


#: A chapters track of each kind, by suffix: captions, and a chapter list in plain text.
CHAPTER_TRACKS = {".vtt": "WEBVTT\n\n00:00.000 --> 00:05.000\nIntro\n\n00:05.000 --> 00:08.000\nRoads\n",
                  ".txt": "0:00 Intro\n0:05 - Roads\n"}


@FUZZ
@given(track=st.sampled_from(sorted(CHAPTER_TRACKS)).flatmap(
    lambda suffix: mutated(CHAPTER_TRACKS[suffix]).map(lambda text: (suffix, text))))
def test_fuzz_chapters_tracks_give_a_reference_or_are_refused(tmp_path_factory, track):
    suffix, chapters = track
    folder = tmp_path_factory.mktemp("chapters")
    write(folder / "t.vtt", SEEDS["vtt"][2])
    write(folder / f"t.chapters{suffix}", chapters)
    write(folder / "talk.json", SEEDS["whisper"][2])
    write(folder / f"talk.chapters{suffix}", chapters)
    outcome(folder / "t.vtt")
    outcome(folder / "talk.json")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from([2**63, -10**30, 10**400])
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8,
)
UNITS = st.lists(st.text(max_size=6), min_size=1, max_size=6)
RECORD_KEYS = ["id", "units", "utterances", "dial_id", "references", "boundaries", "segments", "masses", "times",
               "meta", "notes", "source", "text", "labels", "set"]


@st.composite
def records(draw) -> dict:
    """A JSON document that is often nearly right: units, then references of odd shapes and types."""
    record = {"units": draw(UNITS)} if draw(st.booleans()) else {}
    n = len(record.get("units", [1, 2, 3]))
    numbers = st.integers(-1, n + 1) | JSON_VALUES
    reference = st.lists(numbers, max_size=5)
    for key in draw(st.lists(st.sampled_from(RECORD_KEYS), max_size=3, unique=True)):
        record[key] = draw(st.one_of(JSON_VALUES, reference, st.lists(reference, max_size=3), UNITS))
    return record


@FUZZ
@given(docs=st.lists(records(), min_size=1, max_size=4), array=st.booleans(), ending=ENDINGS)
def test_fuzz_json_documents_of_odd_shapes_and_types(tmp_path_factory, docs, array, ending):
    lines = [json.dumps(doc, ensure_ascii=False) for doc in docs]
    text = ("[" + ("," + ending).join(lines) + "]") if array else ending.join(lines)
    outcome(write(tmp_path_factory.mktemp("json") / ("c.json" if array else "c.jsonl"), text + ending))


@st.composite
def whisper_transcripts(draw) -> dict:
    times = st.integers(-1, 5) | st.floats(-1, 5) | JSON_VALUES
    segment = st.fixed_dictionaries({"start": times, "end": times, "text": st.text(max_size=8) | JSON_VALUES},
                                    optional={"speaker": JSON_VALUES})
    record = {"segments": draw(st.lists(segment | JSON_VALUES, min_size=1, max_size=4)), "language": "en"}
    record.update(draw(st.dictionaries(st.sampled_from(["id", "text", "unit", "notes", "source"]), JSON_VALUES,
                                       max_size=2)))
    return record


@FUZZ
@given(record=whisper_transcripts(), unit=st.sampled_from(["segment", "sentence"]))
def test_fuzz_whisper_transcripts(tmp_path_factory, record, unit):
    file = write(tmp_path_factory.mktemp("whisper") / "talk.json", json.dumps(record))
    options = {"unit": unit, "splitter": "rules"} if unit == "sentence" else {}
    outcome(file, **options)


# ---------------------------------------------------------------------------------------------
# round trips through layouts with noise: nothing read wrong in silence
# ---------------------------------------------------------------------------------------------
CHOI_UNIT = LINE_TEXT.filter(lambda unit: set(unit) != {"="} and not unit.startswith("========"))
SEGMENTS = st.lists(st.lists(CHOI_UNIT, min_size=1, max_size=4), min_size=1, max_size=4)


def starts(segments: list[list]) -> tuple[int, ...]:
    sizes = [len(segment) for segment in segments]
    return tuple(sum(sizes[:k]) for k in range(1, len(sizes)))


@FUZZ
@given(segments=SEGMENTS, ending=ENDINGS, bom=st.booleans(), frame=st.booleans(),
       pad=st.sampled_from(["", " ", "\t", " \t "]))
def test_choi_layout_noise_reads_the_same_units_and_boundaries(tmp_path_factory, segments, ending, bom, frame, pad):
    separator = "==========" + pad
    lines = [separator] if frame else []
    for k, segment in enumerate(segments):
        lines += [pad + unit + pad for unit in segment] + ([separator] if frame or k < len(segments) - 1 else [])
    file = write(tmp_path_factory.mktemp("choi") / "0.ref", ("\ufeff" if bom else "") + ending.join(lines) + ending)
    (doc,) = outcome(file)
    assert doc.units == tuple(unit for segment in segments for unit in segment)
    assert doc.references[0].boundaries == starts(segments)


@FUZZ
@given(segments=SEGMENTS, levels=st.lists(st.integers(1, 3), min_size=4, max_size=4), ending=ENDINGS,
       titles=st.lists(LINE_TEXT, min_size=4, max_size=4))
def test_wiki_layout_noise_reads_the_same_units_and_boundaries(tmp_path_factory, segments, levels, ending, titles):
    lines = []
    for segment, level, title in zip(segments, levels, titles):
        lines += [f"========,{level},{title}.", "***LIST***", ""] + segment + ["  "]
    (doc,) = outcome(write(tmp_path_factory.mktemp("wiki") / "300", ending.join(lines)), "wiki")
    assert doc.units == tuple(unit for segment in segments for unit in segment)
    assert doc.references[0].boundaries == starts(segments)


CELL = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8)


@FUZZ
@given(rows=st.lists(st.tuples(CELL.filter(lambda cell: cell.strip()), st.sampled_from("ab")), min_size=1, max_size=6),
       delimiter=st.sampled_from([",", ";", "\t", "|"]), ending=st.sampled_from(["\n", "\r\n"]))
def test_csv_cells_with_delimiters_quotes_and_line_ends_read_back_as_written(tmp_path_factory, rows, delimiter, ending):
    import csv
    import io

    buffer = io.StringIO(newline="")
    # csv.writer quotes a cell holding a line end only if that is in its line terminator: a bare '\r'
    # would be written as a line end, so "\n" files have every cell quoted
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=ending,
                        quoting=csv.QUOTE_ALL if ending == "\n" else csv.QUOTE_MINIMAL)
    writer.writerow(["text", "label"])
    writer.writerows(rows)
    file = write(tmp_path_factory.mktemp("csv") / "c.csv", buffer.getvalue())
    docs = outcome(file, delimiter=delimiter)
    assert docs is not None, "a file csv.writer wrote must read"
    (doc,) = docs
    assert doc.units == tuple(text for text, _ in rows)
    labels = [label for _, label in rows]
    assert doc.references[0].boundaries == tuple(k for k in range(1, len(labels)) if labels[k] != labels[k - 1])


CUE_TEXT = LINE_TEXT.filter(lambda text: not any(mark in text for mark in ("-->", "<", "&", "{")))  # no markup


@FUZZ
@given(cues=st.lists(st.tuples(st.integers(0, 10**7), st.integers(0, 10**5), CUE_TEXT), min_size=1, max_size=5),
       srt=st.booleans(), ending=st.sampled_from(["\n", "\r\n"]), bom=st.booleans())
def test_caption_cues_read_back_with_their_times(tmp_path_factory, cues, srt, ending, bom):
    def stamp(ms: int) -> str:
        return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}{',' if srt else '.'}{ms % 1000:03d}"

    cues = sorted(cues)
    blocks = [(f"{k + 1}{ending}" if srt else "") + f"{stamp(start)} --> {stamp(start + length)}{ending}{text}"
              for k, (start, length, text) in enumerate(cues)]
    head = "" if srt else f"WEBVTT{ending}{ending}"
    file = write(tmp_path_factory.mktemp("captions") / ("t.srt" if srt else "t.vtt"),
                 ("\ufeff" if bom else "") + head + (ending * 2).join(blocks) + ending)
    (doc,) = outcome(file)  # fewer cues than rolling captions need (ROLLING_MIN): each is a unit
    assert doc.units == tuple(" ".join(text.split()) for _, _, text in cues)
    assert doc.times == tuple((start / 1000, (start + length) / 1000) for start, length, _ in cues)


@pytest.mark.parametrize("name, text", [
    ("0.ref", "==========\n=========\nA.\n"),  # nine '=': neither a unit nor a separator
    ("c.jsonl", '{"units": ["a", "b"], "references": [[2, 1]]}\n'),  # unsorted boundaries
    ("c.jsonl", '{"units": ["a", "b"], "segments": [1, 2]}\n'),  # sizes summing wrong
    ("hub.json", '[{"units": ["a"]},\n {"units": ["b"]}'),  # a truncated array
    ("ep.csv", "text,label\nHi.,1\nWelcome.\n"),  # a ragged row
    ("talk.vtt", "WEBVTT\n\n00:00.000 --> 00:61.000\nHi.\n"),  # 61 seconds
    ("talk.json", '{"segments": [{"start": 2, "end": 1, "text": "Hi."}]}'),  # a Whisper segment ending first
    ("a.md", "# Only a heading\n"),
])
def test_run_refuses_malformed_corpora_in_one_error_line(tmp_path, name, text):
    one_error_line(run(str(write(tmp_path / name, text))), name)
