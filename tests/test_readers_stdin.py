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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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


# ---------------------------------------------------------------------------------------------
# one rule tells JSON documents, on standard input as in a file without extension
# ---------------------------------------------------------------------------------------------
_RECORDS = [
    {"id": "d", "units": ["A.", "B."], "boundaries": [1]},
    {"dial_id": "d", "utterances": ["A.", "B."]},  # the aliases of KEY_ALIASES
    {"id": "d", "boundaries": [1], "n_units": 2},  # bare segmentations (stability score)
    {"id": "d", "masses": [1, 1]},
    {"id": "d", "segments": [1, 1]},
    {"id": "d", "references": [[1]], "n_units": 2},
    {"text": "A. B.", "segments": [{"start": 0, "end": 1, "text": "A."}]},  # a Whisper transcript
    {},
]
_LAYOUTS = {"line": lambda value: json.dumps(value) + "\n", "indented": lambda value: json.dumps(value, indent=2) + "\n"}
# (text, what it is): True for JSON documents (the JSON reader reads or refuses them), False for text
_TABLE = [(layout(value), True) for value in _RECORDS + [[record] for record in _RECORDS] for layout in _LAYOUTS.values()]
_TABLE += [
    ("[3, 7]\n", True),  # a bare list of ints: refused by the JSON reader, not one unit '[3, 7]' of a text
    ("[\n  3,\n  7\n]\n", True),
    ("[\n1, 2]\n", True),
    ("[[3, 7], [2]]\n", True),
    ("[]\n", True),
    ('["A.", "B."]\n', True),
    ('{"id": "d",\n "units": ["A.", "B."]}\n', True),  # an object laid out otherwise: read, not one unit
    ('{"id": "d", "units": ["A."\n', True),  # cut short: the JSON reader says where
    ("\ufeff\n\n[\n\n{\"id\": \"d\", \"units\": [\"A.\"]}]\n", True),
    ("{'id': 'd', 'units': ['A.']}\n", True),  # a Python dict: the JSON reader says what JSON expects
    ("{Chapter one} It begins.\n", False),
    ("{ chapter }\n", False),
    ("[Music] Hello there.\n", False),
    ("[1] Smith et al. found this.\n", False),
    ("[1, 2] and more text\n", False),
    ("[\n", False),
    ('"a string"\n', False),
    ("42\n", False),
]


def _verdicts(tmp_path, text: str) -> tuple[bool, bool]:
    """Whether standard input holding ``text`` is read as JSON, and a file without extension."""
    from stability.readers.dispatch import _json_row
    from stability.readers.jsonl import sniff_json

    file = tmp_path / "corpus"
    file.write_text(text, encoding="utf-8")
    return _json_row(text.encode("utf-8")) is not None, sniff_json(file, "utf-8-sig", "strict") is not None


@pytest.mark.parametrize("text, is_json", _TABLE)
def test_standard_input_and_a_file_tell_json_by_one_rule(tmp_path, text, is_json):
    """Standard input took any text opening with '{' and any array that parses for JSON; a file
    without extension only an object whole on its first line or an array of objects. They
    disagreed on '[3, 7]', '[]', an object laid out over lines, '{Chapter one}'..."""
    assert _verdicts(tmp_path, text) == (is_json, is_json)


@given(value=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                          max_leaves=8),
       indent=st.sampled_from([None, 0, 2]), tail=st.sampled_from(["", "\n", " trailing words\n"]))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_json_and_text_get_the_same_verdict_both_ways(tmp_path, value, indent, tail):
    assert len(set(_verdicts(tmp_path, json.dumps(value, indent=indent) + tail))) == 1


def test_a_bare_list_in_a_file_without_extension_is_refused_not_read_as_text(tmp_path):
    """'[3, 7]' in a file without extension was a text document of one unit, '[3, 7]' (piped, the
    same content was refused): a bare list of ints is never read silently."""
    file = tmp_path / "segmentation"
    file.write_text("[3, 7]\n", encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r"expected a JSON object with 'units'.*received int 3 .*"
                                                r"Segmentation.from_masses\) \[format 'jsonl' detected from a JSON array"):
        list(read_corpus(file))
