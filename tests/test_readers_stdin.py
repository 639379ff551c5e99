"""A corpus piped on standard input (``read_corpus("-")``, ``stability run --corpus -``): read as
the same content in a file would be, its format detected from the content, messages naming
``<stdin>``, no temporary file left behind."""

from __future__ import annotations

import io
import json
import sys
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stability import CorpusFormatError, InvalidParameterError
from stability.cli import app
from stability.readers import read_corpus

JSONL = ('{"id": "a", "units": ["Cats purr.", "Cats nap.", "Dogs bark.", "Dogs dig."], "segments": [2, 2]}\n'
         '{"id": "b", "units": ["x y", "x z", "q r", "q s"], "boundaries": [2]}\n')
WIKI = "========,1,Cats.\nCats purr.\nCats nap.\n========,1,Dogs.\nDogs bark.\n"


def _pipe(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def _leftovers() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("stability-stdin-*")}


@pytest.mark.parametrize("text, suffix, format", [
    (JSONL, ".jsonl", None),
    (json.dumps([json.loads(line) for line in JSONL.splitlines()]), ".json", None),  # a JSON array
    (WIKI, ".txt", None),  # Wiki-727K headers, recognised by content
    ("One sentence here. Another one.\n\nA third.\n", ".txt", None),  # plain text
    ("# Cats\n\nCats purr.\n\n# Dogs\n\nDogs bark.\n", ".md", "markdown"),
])
def test_standard_input_reads_as_the_same_content_in_a_file(tmp_path, monkeypatch, text, suffix, format):
    file = tmp_path / f"stdin{suffix}"
    file.write_text(text, encoding="utf-8")
    expected = [(d.units, d.references) for d in read_corpus(file, format)]
    before = _leftovers()
    _pipe(monkeypatch, text)
    piped = [(d.units, d.references) for d in read_corpus("-", format)]
    assert piped == expected and piped
    assert _leftovers() == before  # the temporary copy is removed once read


def test_a_format_error_on_standard_input_names_it_and_how_the_format_was_chosen(monkeypatch):
    _pipe(monkeypatch, '{"id": "a", "units": ["x"]}\n{"id": "b", "unitz": ["y"]}\n')
    before = _leftovers()
    with pytest.raises(CorpusFormatError, match=r"^<stdin>:2: document 'b': .*'units'.*detected from its JSON content"):
        list(read_corpus("-"))
    assert _leftovers() == before


def test_empty_standard_input_and_a_paired_format_are_refused(monkeypatch):
    _pipe(monkeypatch, "\n  \n")
    with pytest.raises(CorpusFormatError, match=r"<stdin>: standard input is empty"):
        read_corpus("-")
    _pipe(monkeypatch, "Some text.\n")
    with pytest.raises(InvalidParameterError, match=r"format 'chen' reads several files a document"):
        read_corpus("-", "chen")


def test_run_reads_a_corpus_piped_into_it(tmp_path):
    args = ["run", "-s", "even", "--restarts", "2", "--no-progress", "--report-format", "json"]
    piped = CliRunner().invoke(app, [*args, "--corpus", "-"], input=JSONL)
    assert piped.exit_code == 0, piped.output
    file = tmp_path / "corpus.jsonl"
    file.write_text(JSONL, encoding="utf-8")
    from_file = CliRunner().invoke(app, [*args, "--corpus", str(file)])
    strip = lambda out: {k: v for k, v in json.loads(out).items() if k not in ("settings", "provenance", "command")}
    assert strip(piped.stdout) == strip(from_file.stdout)
    assert [d["document"] for d in json.loads(piped.stdout)["documents"]["even"]] == ["a", "b"]


def test_a_parameter_error_met_reading_standard_input_names_it_not_the_temporary_copy(monkeypatch):
    """`cat corpus.jsonl | stability run --corpus - --unit sentence`: a document that gives its
    units cannot be cut into sentences (only Whisper transcripts can), an error raised while the
    documents are read; it named the temporary copy of standard input
    (/tmp/stability-stdin-.../stdin.jsonl:1), a file the user never made and that is gone."""
    _pipe(monkeypatch, JSONL)
    before = _leftovers()
    with pytest.raises(InvalidParameterError) as caught:
        list(read_corpus("-", unit="sentence"))
    assert str(caught.value).startswith("<stdin>:1: unit='sentence' cuts Whisper transcripts"), str(caught.value)
    assert "stability-stdin-" not in str(caught.value) and caught.value.parameter == "unit"
    assert _leftovers() == before
