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
from typer.testing import CliRunner

from stability import CorpusFormatError, InvalidParameterError
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
@pytest.mark.parametrize("name, text", [
    ("deep.jsonl", '{"units": ' + "[" * 5000 + "]" * 5000 + "}\n"),  # JSON lines
    ("deep.json", "[" * 5000 + "]" * 5000),  # a JSON array
    ("deep2.json", '[{"units": ["a"]},\n {"units": ' + "[" * 5000 + "]" * 5000 + "}]"),  # an element of one
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
    deep = "[" * 5000 + "]" * 5000  # standard input: _json_row parsed it to choose the format
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
