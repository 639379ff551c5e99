"""Corpus readers: every format, its errors, encodings, detection, streaming, and round trips."""

from __future__ import annotations

import inspect
import itertools
import json
import os
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from typer.testing import CliRunner

from stability import CorpusFormatError, Document, InvalidParameterError
from stability.cli import app
from stability.readers import (
    FORMATS,
    CorpusWarning,
    detect_format,
    read_choi,
    read_corpus,
    read_csv,
    read_jsonl,
    read_text,
    read_wiki,
    write_choi,
    write_csv,
    write_jsonl,
)

CHOI = Path(__file__).resolve().parents[2] / "shared" / "data" / "choi"
SEP = "=========="


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


def bounds(doc: Document) -> list[tuple[int, ...]]:
    return [ref.boundaries for ref in doc.references]


# ---------------------------------------------------------------------------------------------
# Choi
# ---------------------------------------------------------------------------------------------
def test_choi_single_file(tmp_path):
    file = write(tmp_path / "0.ref", f"{SEP}\na . \nb .\n{SEP} \nc .\n{SEP}\nd .\ne .\n{SEP}\n")
    (doc,) = list(read_choi(file))
    assert doc.id == "0.ref"
    assert doc.units == ("a .", "b .", "c .", "d .", "e .")  # surrounding whitespace stripped
    assert bounds(doc) == [(2, 3)]
    assert doc.meta["notes"] == [] and doc.meta["format"] == "choi"
    assert doc.meta["source"] == str(file)


def test_choi_without_framing_separators_and_with_crlf_and_bom(tmp_path):
    file = tmp_path / "x.ref"
    file.write_bytes(b"\xef\xbb\xbfa\r\nb\r\n==========\r\nc\r\n")
    (doc,) = read_choi(file)
    assert doc.units == ("a", "b", "c")
    assert bounds(doc) == [(2,)]


def test_choi_file_without_any_separator_says_it_was_read_as_one_segment(tmp_path):
    # a plain text file read as Choi (--corpus-format choi) became one document of one segment,
    # each line a unit, without a word: a run then flagged every segmenter content-blind
    file = write(tmp_path / "notes.txt", "A first paragraph. It has two sentences.\nA second one.\n")
    with pytest.warns(CorpusWarning, match=r"notes\.txt: no '==========' separator line: read as one segment"):
        (doc,) = read_choi(file)
    assert doc.units == ("A first paragraph. It has two sentences.", "A second one.") and bounds(doc) == [()]
    assert "format='text'" in doc.meta["notes"][0]


def test_choi_directory_ids_natural_order_and_pattern(tmp_path):
    for name in ["10.ref", "2.ref", "1.ref", "sub/0.ref", "notes.txt", ".hidden.ref", ".git/3.ref"]:
        write(tmp_path / name, f"{SEP}\n{name}\n{SEP}\n")
    docs = list(read_choi(tmp_path))
    assert [d.id for d in docs] == ["1.ref", "2.ref", "10.ref", "sub/0.ref"]
    assert docs[2].units == ("10.ref",)
    assert [d.id for d in read_choi(tmp_path, pattern="*.txt")] == ["notes.txt"]
    assert [d.id for d in read_choi(tmp_path / "sub")] == ["0.ref"]
    assert [d.id for d in read_choi(tmp_path, limit=2)] == ["1.ref", "2.ref"]


def test_choi_empty_segment_dropped_with_note_and_warning(tmp_path):
    file = write(tmp_path / "6.ref", f"{SEP}\na\nb\n{SEP}\n{SEP}\nc\n{SEP}\n")
    with pytest.warns(CorpusWarning, match=r"6\.ref: line 5: empty segment dropped"):
        (doc,) = list(read_choi(file))
    assert doc.units == ("a", "b", "c")
    assert bounds(doc) == [(2,)]
    assert len(doc.meta["notes"]) == 1 and "line 5" in doc.meta["notes"][0]
    assert "line 4" in doc.meta["notes"][0]  # names the previous separator too


def test_choi_blank_lines_kept_or_dropped(tmp_path):
    file = write(tmp_path / "b.ref", f"{SEP}\na\n \nb\n{SEP}\nc\n{SEP}\n")
    with pytest.warns(CorpusWarning, match="line 3: blank line kept as an empty unit"):
        (kept,) = read_choi(file)
    assert kept.units == ("a", "", "b", "c") and bounds(kept) == [(3,)]
    with pytest.warns(CorpusWarning, match="line 3: blank line dropped"):
        (dropped,) = read_choi(file, blank_lines="drop")
    assert dropped.units == ("a", "b", "c") and bounds(dropped) == [(2,)]
    with pytest.raises(InvalidParameterError, match="blank_lines"):
        read_choi(file, blank_lines="skip")


def test_choi_blank_lines_one_note_a_file(tmp_path):
    # a file with many blank lines (the fiction set puts one between some paragraphs) gets one
    # note naming the first lines, not one warning a line
    body = "\n".join(f"p{i}\n" for i in range(12))  # p0, blank, p1, blank, ... : lines 2, 4, ...
    file = write(tmp_path / "f.ref", f"{SEP}\n{body}\n{SEP}\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (doc,) = read_choi(file, blank_lines="drop")
    assert [str(w.message) for w in caught] == [
        f"{file}: 12 blank lines dropped: lines 3, 5, 7, 9, 11, 13, 15, 17 and 4 more"
    ]
    assert doc.units == tuple(f"p{i}" for i in range(12)) and doc.meta["notes"] == [
        "12 blank lines dropped: lines 3, 5, 7, 9, 11, 13, 15, 17 and 4 more"
    ]
    with pytest.warns(CorpusWarning, match="12 blank lines kept as empty units: lines 3, 5,") as kept:
        (doc,) = read_choi(file)
    assert len(kept) == 1 and doc.n_units == 24 and doc.units[1] == ""


@pytest.mark.parametrize(
    "bad, expected",
    [("=========", "exactly ten '='"), ("========,1,Intro.", "use format='wiki'"), ("===========", "exactly ten")],
)
def test_choi_malformed_separator_names_file_and_line(tmp_path, bad, expected):
    file = write(tmp_path / "bad.ref", f"{SEP}\na\nb\n{bad}\nc\n")
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_choi(file))
    assert str(info.value).startswith(f"{file}:4: ")
    assert info.value.path == str(file) and info.value.line == 4


def test_choi_empty_document_is_an_error(tmp_path):
    file = write(tmp_path / "empty.ref", f"{SEP}\n{SEP}\n")
    with pytest.raises(CorpusFormatError, match="at least one unit") as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CorpusWarning)
            list(read_choi(file))
    assert str(info.value).startswith(f"{file}: ")


def test_missing_path_and_empty_directory(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope"):
        read_choi(tmp_path / "nope")
    with pytest.raises(CorpusFormatError, match=r"'\*\.ref'.*found none") as info:
        read_choi(tmp_path)
    assert str(tmp_path) in str(info.value)


# ---------------------------------------------------------------------------------------------
# Wiki-727K / Wiki-50
# ---------------------------------------------------------------------------------------------
WIKI = """========,1,preface.
Alan was a mathematician.
He was born in London.
========,2,Early life.
========,3,Childhood.
He went to school.
***LIST***.
***LIST***
========,3,University.
He studied at King's.

========,2,Career, later years.
He worked on machines.
"""


def test_wiki_all_levels(tmp_path):
    file = write(tmp_path / "300", WIKI)
    (doc,) = read_wiki(file)
    assert doc.units == (
        "Alan was a mathematician.",
        "He was born in London.",
        "He went to school.",
        "He studied at King's.",
        "He worked on machines.",
    )
    # the empty "Early life" section (header followed by a header) is not a segment
    assert bounds(doc) == [(2, 3, 4)]
    assert doc.meta["titles"] == ("preface", "Childhood", "University", "Career, later years")
    assert doc.meta["list_lines_dropped"] == 2
    assert doc.meta["levels"] is None


@pytest.mark.parametrize("levels", [[1, 2], (2, 1), "1,2", "1-2", {1, 2}])
def test_wiki_levels_choose_boundaries(tmp_path, levels):
    file = write(tmp_path / "300", WIKI)
    (doc,) = read_wiki(file, levels=levels)
    assert bounds(doc) == [(2, 4)]
    assert doc.meta["titles"] == ("preface", "Early life", "Career, later years")
    assert doc.meta["levels"] == (1, 2)


def test_wiki_level_one_only_gives_no_boundary(tmp_path):
    file = write(tmp_path / "300", WIKI)
    (doc,) = read_wiki(file, levels=1)
    assert bounds(doc) == [()] and doc.n_units == 5


@pytest.mark.parametrize("levels", [0, "a", "3-1", [1, "2"], True, [], 2.0])
def test_wiki_bad_levels(tmp_path, levels):
    file = write(tmp_path / "300", WIKI)
    with pytest.raises(InvalidParameterError, match="levels"):
        read_wiki(file, levels=levels)


def test_wiki_file_without_any_header_is_read_with_a_warning_naming_it(tmp_path):
    # a stray plain file in a folder of articles used to be scored silently against an empty reference
    write(tmp_path / "wiki" / "1", WIKI)
    stray = write(tmp_path / "wiki" / "2", "Just some text.\nNo header here.\n")
    with pytest.warns(CorpusWarning) as caught:
        docs = list(read_corpus(tmp_path / "wiki"))
    assert [str(w.message) for w in caught] == [
        f"{stray}: no '========,<level>,<title>.' header line: read as one section, a reference without "
        "boundaries (pass pattern= to leave out files that are not articles)"]
    assert [d.meta["notes"] for d in docs] == [[], [str(caught[0].message).split(": ", 1)[1]]]
    assert docs[1].references[0].boundaries == ()


def test_wiki_levels_that_no_header_has_are_named_in_a_warning(tmp_path):
    file = write(tmp_path / "300", "========,1,preface.\nA.\n========,2,Part.\nB.\n")
    with pytest.warns(CorpusWarning, match=r"no header of the levels asked for \(4, 5\); its headers are of "
                                           r"levels 1, 2: a reference without boundaries"):
        [doc] = read_wiki(file, levels="4-5")
    assert doc.references[0].boundaries == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)   # a level that is there: no warning
        assert next(read_wiki(file, levels=[2])).references[0].boundaries == (1,)


def test_wiki_levels_have_no_upper_limit(tmp_path):
    # a Wiki-727K header gives a section's depth, which the format does not bound (unlike the six
    # heading levels of Markdown and HTML)
    file = write(tmp_path / "300", "========,1,preface.\nA.\n========,7,Deep.\nB.\n")
    (doc,) = read_wiki(file, levels=7)
    assert doc.references[0].boundaries == (1,)


def test_wiki_malformed_header_and_empty_document(tmp_path):
    file = write(tmp_path / "bad", "========,1,preface.\nA.\n========,one,Life.\nB.\n")
    with pytest.raises(CorpusFormatError, match=r"'========,<level>,<title>\.'") as info:
        list(read_wiki(file))
    assert str(info.value).startswith(f"{file}:3: ")
    empty = write(tmp_path / "empty", "========,1,preface.\n***LIST***.\n")
    with pytest.raises(CorpusFormatError, match="at least one sentence") as info:
        list(read_wiki(empty))
    assert str(empty) in str(info.value)


# ---------------------------------------------------------------------------------------------
# JSON lines
# ---------------------------------------------------------------------------------------------
def test_jsonl_fields_defaults_and_meta(tmp_path):
    lines = [
        {"id": "a", "units": ["x", "y", "z"], "references": [[1], [1, 2]], "times": [[0, 1], [1, 2.5], [2.5, 3]]},
        {"units": ["only"], "title": "kept in meta"},
        {"id": 7, "units": ["p", "q"], "meta": {"lang": "fr"}},
    ]
    file = write(tmp_path / "c.jsonl", "\n".join(json.dumps(x) for x in lines[:2]) + "\n\n" + json.dumps(lines[2]) + "\n")
    a, b, c = read_jsonl(file)
    assert a.id == "a" and bounds(a) == [(1,), (1, 2)] and a.times == ((0.0, 1.0), (1.0, 2.5), (2.5, 3.0))
    assert b.id == "2" and b.references == () and b.times is None and b.meta["title"] == "kept in meta"
    assert c.id == "7" and c.meta["lang"] == "fr" and c.meta["line"] == 4  # the blank line 3 is skipped
    assert a.meta["source"] == str(file) and a.meta["line"] == 1


def test_jsonl_directory_default_ids_are_prefixed(tmp_path):
    write(tmp_path / "b" / "2.jsonl", '{"units": ["u"]}\n')
    write(tmp_path / "b" / "10.jsonl", '{"units": ["v"]}\n')
    write(tmp_path / "a.json", '{"units": ["w"]}\n{"units": ["w2"]}\n')
    assert [d.id for d in read_jsonl(tmp_path)] == ["a.json:1", "a.json:2", "b/2.jsonl:1", "b/10.jsonl:1"]


@pytest.mark.parametrize(
    "line, expected",
    [
        ('{"id": "a", "units": ["x", "y"]', "invalid JSON at column"),
        ('["x", "y"]', "expected a JSON object"),
        ('{"id": "a"}', "'units' list of strings; the key is missing"),
        ('{"id": "a", "units": "x y"}', "'units' must be a list of strings"),
        ('{"id": "a", "units": ["x", 3]}', "'units' must be a list of strings"),
        ('{"id": "a", "units": ["x", "y"], "references": [1]}', r"list of boundary lists.*\[\[3, 7\]\]"),
        ('{"id": "a", "units": ["x", "y"], "references": [[1.0]]}', "integer boundaries"),
        ('{"id": "a", "units": ["x", "y"], "references": [[2]]}', "must lie in 1..1"),
        ('{"id": "a", "units": ["x", "y"], "text": "x y"}', "did you mean 'units'"),
        ('{"id": "a", "units": ["x", "y"], "times": [[0, 1]]}', "one \\(start, end\\) pair per unit"),
        ('{"id": "a", "units": ["x", "y"], "times": [[0, 1], [1]]}', r"times\[1\] must be a \[start, end\]"),
        ('{"id": "a", "units": ["x", "y"], "times": [[0, 1], [1, NaN]]}', r"times\[1\] must be .* finite"),
        ('{"id": "a", "units": ["x", "y"], "times": [[0, 1], [2, 1.5]]}', r"times\[1\] must have start <= end"),
        ('{"id": "a", "units": []}', "at least one unit"),
        ('{"id": null, "units": ["x"]}', "'id' must be a string or an integer"),
        ('{"id": "a", "units": ["x"], "meta": []}', "'meta' must be an object"),
        ("[", "pretty-printed JSON starts here"),
    ],
)
def test_jsonl_errors_name_file_and_line(tmp_path, line, expected):
    file = write(tmp_path / "bad.jsonl", '{"id": "ok", "units": ["fine"]}\n' + line + "\n")
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_jsonl(file))
    assert str(info.value).startswith(f"{file}:2: ")


# The layout of the dialogue topic segmentation data hub (Xing and Carenini; DialSeg711, TIAGE,
# QMSum committee meetings...): a pretty-printed JSON array, segment sizes, a split key.
HUB = """[
    {
        "dial_id": 0,
        "utterances": [
            "check the weather",
            "which city?",
            "book a hotel",
            "for how many nights?",
            "two"
        ],
        "segments": [
            2,
            3
        ],
        "set": "test"
    },
    {
        "dial_id": 1,
        "utterances": ["hi", "hello"],
        "segments": [2],
        "set": "dev"
    },
    {"dial_id": 2, "utterances": ["a", "b", "c"], "segments": [1, 2], "set": "test"}
]
"""


def test_a_json_array_on_one_line_gets_an_id_per_document(tmp_path):
    # json.dump writes a list on one line: every document started on line 1, took "1" as its
    # default id, and the second was refused ("document id '1' was already used")
    docs = [{"units": ["a", "b", "c"], "boundaries": [1]}, {"units": ["d", "e"]}, {"id": "x", "units": ["f"]}]
    file = tmp_path / "dumped.json"
    file.write_text(json.dumps(docs) + "\n" + json.dumps({"units": ["g", "h"]}))  # a lone object on line 2
    assert [d.id for d in read_jsonl(file)] == ["1.1", "1.2", "x", "2"]
    assert [d.meta["line"] for d in read_jsonl(file)] == [1, 1, 1, 2]  # errors and notes still say the line
    assert [d.id for d in read_corpus(tmp_path)] == ["dumped.json:1.1", "dumped.json:1.2", "x", "dumped.json:2"]
    # indented (one object a line) or JSON lines: the line alone, as before
    file.write_text(json.dumps(docs, indent=1))
    assert [d.id for d in read_jsonl(file)] == ["2", "12", "x"]


def test_json_array_of_the_dialogue_data_hub(tmp_path):
    file = write(tmp_path / "hub.json", HUB)
    docs = list(read_jsonl(file))
    assert [d.id for d in docs] == ["0", "1", "2"]  # dial_id is the id
    assert [bounds(d) for d in docs] == [[(2,)], [()], [(1,)]]  # sizes [2, 3] -> boundary 2
    assert docs[0].units[-1] == "two" and docs[0].meta["set"] == "test"
    assert [d.meta["line"] for d in docs] == [2, 17, 23]  # where each object opens
    assert "utterances" not in docs[0].meta and "dial_id" not in docs[0].meta
    assert [d.id for d in read_corpus(file, where="set=test")] == ["0", "2"]
    assert [d.id for d in read_corpus(file, where={"set": "dev"})] == ["1"]
    assert [d.id for d in read_jsonl(file, where={"dial_id": 2})] == ["2"]  # compared as JSON text
    assert [d.id for d in read_jsonl(file, where="set=test", limit=1)] == ["0"]  # limit counts kept ones
    kept = read_jsonl(file, where="set=train")
    with pytest.raises(InvalidParameterError, match=r"where 'set=train' kept none of the 3 document\(s\) read from .*hub\.json") as info:
        list(kept)
    assert info.value.parameter == "where"


@given(text=st.text(alphabet="ab\n", max_size=40), data=st.data())
def test_json_line_counter_matches_counting_from_the_start(text, data):
    """The JSON reader's line numbers are counted forward once; an earlier offset (which the reader
    never asks for today) still gets its true line."""
    from stability.readers.jsonl import _LineCounter

    offsets = data.draw(st.lists(st.integers(0, len(text)), max_size=8))
    counter = _LineCounter(text)
    for offset in offsets:
        assert counter.at(offset) == text.count("\n", 0, offset) + 1


def test_json_objects_spread_over_lines_and_json_lines_still_streamed(tmp_path):
    pretty = write(tmp_path / "one.json", json.dumps({"units": ["x", "y"], "boundaries": [1]}, indent=2))
    (doc,) = read_jsonl(pretty)
    assert doc.id == "1" and bounds(doc) == [(1,)]
    two = write(tmp_path / "two.json", '{\n "units": ["x"]\n}\n\n{"units": ["y", "z"],\n "id": "b"}\n')
    assert [(d.id, d.meta["line"]) for d in read_jsonl(two)] == [("1", 1), ("b", 5)]
    # a file with no document is an error, as in the other formats (it used to read as none)
    with pytest.raises(CorpusFormatError, match=r"empty\.json:1: expected at least one document .* the array is empty"):
        list(read_jsonl(write(tmp_path / "empty.json", " [ ]\n")))
    for name, text in (("blank.json", "\n\n"), ("zero.jsonl", "")):
        with pytest.raises(CorpusFormatError, match=rf"{name}: expected JSON documents .* the file is empty or blank"):
            list(read_jsonl(write(tmp_path / name, text)))
    # a file whose first line is a whole object is JSON lines: a bad later line fails only when reached
    lines = write(tmp_path / "lines.json", '{"units": ["x"]}\n{"units": ["y"]}\nbroken\n')
    reader = read_jsonl(lines)
    assert [next(reader).units, next(reader).units] == [("x",), ("y",)]
    with pytest.raises(CorpusFormatError, match=r"lines\.json:3: invalid JSON"):
        next(reader)


@pytest.mark.parametrize(
    "text, line, expected",
    [
        ('[\n {"units": ["x"]},\n {"units": ["y"],}\n]', 3, "invalid JSON at column"),
        ('[\n {"units": ["x"]}\n {"units": ["y"]}\n]', 3, "expected ',' or ']' after a document"),
        ('[\n {"units": ["x"]},\n ["y"]\n]', 3, "expected a JSON object with 'units'"),
        ('[\n {"units": ["x"]},\n\n {"id": "b",\n  "units": 3}\n]', 4, "'units' must be a list of strings"),
        ('[\n {"units": ["x"], "utterances": ["x"]}\n]', 2, "expected 'units' or 'utterances'"),
        ('[\n {"units": ["x"],\n  "set": "test"},\n {"units": ["y"]}\n]', 4, "where selects on 'set', but this document has no such key"),
        ('[\n {"units": ["x"]}', 2, "expected ',' or ']'"),
    ],
)
def test_json_errors_name_the_line_of_the_document(tmp_path, text, line, expected):
    file = write(tmp_path / "bad.json", text)
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_jsonl(file, where="set=test" if "where" in expected else None))
    assert str(info.value).startswith(f"{file}:{line}: ")


@pytest.mark.parametrize("where", ["set", "=test", "", {}, {"set": "test", 3: "x"}, ["set", "test"]])
def test_json_where_must_be_pairs(tmp_path, where):
    file = write(tmp_path / "hub.json", HUB)
    with pytest.raises(InvalidParameterError, match="where must be"):
        read_jsonl(file, where=where)


def test_where_applies_to_json_only(tmp_path):
    file = write(tmp_path / "0.ref", f"{SEP}\na\n{SEP}\n")
    with pytest.raises(InvalidParameterError, match=r"where applies only to format 'jsonl'"):
        read_corpus(file, where="set=test")


def test_duplicate_ids_name_both_places(tmp_path):
    file = write(tmp_path / "d.jsonl", '{"id": "a", "units": ["x"]}\n{"id": "b", "units": ["y"]}\n{"id": "a", "units": ["z"]}\n')
    with pytest.raises(CorpusFormatError, match=r"id 'a' was already used by the document at .*d\.jsonl:1") as info:
        list(read_jsonl(file))
    assert str(info.value).startswith(f"{file}:3: ")


# ---------------------------------------------------------------------------------------------
# CSV / TSV
# ---------------------------------------------------------------------------------------------
# The layout of the DevZen podcast transcript in shared/papers/003 (pandas' unnamed index first).
PODCAST = """,size,episode,start,end,sentence,sentence_length,topic_num,ground_truth,ground_truth_title
0,medium,415,0.00,5.80,Всем привет.,12,1,1,Интервью с гостем
1,medium,415,0.00,5.80,Вы слушаете подкаст DevZen.,27,1,1,Интервью с гостем
2,medium,415,0.00,11.80,"Выпуск номер 415, записанный 6 марта 2023 года.",47,2,1,Интервью с гостем
3,medium,415,5.80,20.20,Записываемся полным составом.,80,2,2,Новости
4,medium,415,15.32,24.92,"Света непредсказуемая,
может ворвется.",49,2,2,Новости
5,medium,416,0.00,3.00,Привет.,7,1,1,Интро
6,medium,416,3.00,6.00,Начинаем.,9,1,2,Тема
"""


def test_csv_podcast_layout(tmp_path):
    file = write(tmp_path / "devzen.csv", PODCAST)
    e415, e416 = read_csv(file, document_column="episode", label_columns=["ground_truth", "topic_num"])
    assert e415.id == "415" and e416.id == "416"
    assert e415.units[2] == "Выпуск номер 415, записанный 6 марта 2023 года."
    assert e415.units[4] == "Света непредсказуемая,\nможет ворвется."  # a quoted cell over two lines
    assert bounds(e415) == [(3,), (2,)]  # ground_truth 1,1,1,2,2 then topic_num 1,1,2,2,2
    assert e415.times[3] == (5.8, 20.2)
    assert e415.meta["label_columns"] == ("ground_truth", "topic_num")
    assert e416.meta["line"] == 8  # physical line of its first row (row 5 spans lines 6-7)
    assert bounds(e416) == [(1,), ()]
    # defaults: text 'sentence', labels 'ground_truth', times start/end; no document column
    (whole,) = read_csv(file)
    assert whole.id == "devzen" and whole.n_units == 7
    assert bounds(whole) == [(3, 5, 6)]  # 1,1,1,2,2 | 1 | 2: a change of label starts a segment
    assert whole.times is not None


def test_csv_tsv_several_annotators_and_missing_references(tmp_path):
    text = "doc_id\ttext\tlabel_a\tlabel_b\nd1\tu1\t0\tx\nd1\tu2\t1\tx\nd2\tv1\t\t\nd2\tv2\t\t\n"
    d1, d2 = read_corpus(write(tmp_path / "t.tsv", text))
    assert d1.id == "d1" and bounds(d1) == [(1,), ()]
    assert d2.references == ()  # empty label columns: no reference for this document


@pytest.mark.parametrize(
    "text, kwargs, line, expected",
    [
        ("sentence,label\n", {}, 2, "at least one data row"),
        ("words,label\na,1\n", {}, 1, "expected a text column"),
        ("text,label\na,1\n", {"label_columns": ["annotator"]}, 1, "label column named 'annotator'"),
        ("text,label\na,1\n", {"text_column": "body"}, 1, "text column named 'body'"),
        ("text,label,text\na,1,b\n", {}, 1, "distinct column names"),
        ("text,start,end\na,0,1\nb,1\n", {}, 3, "expected 3 fields"),
        # before, the cause of too many fields went unsaid: a text holding the delimiter, unquoted
        ("start,end,text\n0,1,Hello, world.\n", {}, 2, r"expected 3 fields as in the header; received 4: \['0', "
         r"'1', 'Hello', ' world\.'\] \(most likely a text holding a comma left unquoted: put such a cell in double "
         r"quotes, as spreadsheets save it\)"),
        ('text,label\na,1\n"b\nc",\n', {}, 3, "expected a label in column 'label'"),
        ("text,start,end\na,0,1\nb,x,2\n", {}, 3, "number of seconds in column 'start' .*; received 'x'"),
        ("text,start,end\na,0,1\nb,,\n", {}, 3, "number of seconds"),
        ("text,start,end\na,2,1\n", {}, 2, "start <= end"),
        ("text,begin,end\na,0,1\n", {"start_column": "begin"}, 1, None),
        ("text,document\na,x\nb,y\nc,x\n", {}, 4, "resume after other documents"),
        ("text,document\na,\n", {}, 2, "document id in column 'document'"),
        ("text,stop\na,1\n", {"start_column": "from", "end_column": "stop"}, 1, "start time column named 'from'"),
        ("text,start\na,1\n", {"start_column": "start"}, 1, "pass end_column="),
    ],
)
def test_csv_errors_name_file_and_line(tmp_path, text, kwargs, line, expected):
    file = write(tmp_path / "bad.csv", text)
    if expected is None:  # a valid case: start given explicitly, end found by name
        (doc,) = read_csv(file, **kwargs)
        assert doc.times == ((0.0, 1.0),)
        return
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_csv(file, **kwargs))
    assert str(info.value).startswith(f"{file}:{line}: ")


# What ``whisper talk.mp3 --output_format tsv`` writes (openai-whisper's WriteTSV): a header
# start, end, text and each segment's times as integer milliseconds, round(1000 * seconds).
WHISPER_TSV = "start\tend\ttext\n0\t2500\tHello there.\n2500\t5000\tWelcome to the talk.\n5200\t9000\tFirst, the budget.\n"


def test_whisper_tsv_times_are_read_in_milliseconds(tmp_path):
    """Before, Whisper's TSV output was read in seconds: a 9-second talk ended at 9000 s (2:30:00
    in reports), and CovD weighed its segments by those times. Expected times: the cells / 1000."""
    file = write(tmp_path / "talk.tsv", WHISPER_TSV)
    with pytest.warns(CorpusWarning, match=r"talk\.tsv: times read in milliseconds: the file has Whisper's TSV layout "
                      r"\(header start, end, text; integer times\).*pass time_unit='s' if they are seconds"):
        (doc,) = read_corpus(file)
    assert doc.units == ("Hello there.", "Welcome to the talk.", "First, the budget.")
    assert doc.times == ((0.0, 2.5), (2.5, 5.0), (5.2, 9.0))
    assert len(doc.meta["notes"]) == 1
    # the unit given wins, with no note; any file can give milliseconds
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        (seconds,) = read_corpus(file, time_unit="s")
        assert seconds.times[2] == (5200.0, 9000.0) and seconds.meta["notes"] == []
        (ms,) = read_csv(write(tmp_path / "ep.csv", "text,start,end\na,0,1500.5\n"), time_unit="ms")
        assert ms.times == ((0.0, 1.5005),)
    # not Whisper's layout: seconds, as before (a comma file, another header, a decimal time), with the
    # note on units lasting minutes (test_times_in_milliseconds_read_as_seconds_are_noted)
    for name, text in [("c.csv", WHISPER_TSV.replace(",", "").replace("\t", ",")), ("x.tsv", WHISPER_TSV.replace("text\n", "sentence\n")),
                       ("d.tsv", WHISPER_TSV.replace("9000", "9000.5"))]:
        with pytest.warns(CorpusWarning, match="times read in seconds, yet the units last"):
            (doc,) = read_csv(write(tmp_path / name, text))
        assert doc.times[0] == (0.0, 2500.0), name
    with pytest.raises(InvalidParameterError, match=r"time_unit must be one of 's', 'ms'.*received 'sec'"):
        read_csv(file, time_unit="sec")
    with pytest.raises(CorpusFormatError, match="expected a number of milliseconds in column 'start'"):
        list(read_csv(write(tmp_path / "bad.csv", "text,start,end\na,x,1\n"), time_unit="ms"))
    # a unit for times the file does not have was accepted and did nothing
    with pytest.raises(CorpusFormatError, match=r"notimes\.csv:1: time_unit='ms' is the unit of the start and end "
                       r"columns; expected both"):
        list(read_csv(write(tmp_path / "notimes.csv", "text,label\na,1\n"), time_unit="ms"))


def test_whisper_tsv_text_is_read_as_written_double_quotes_included(tmp_path):
    """Whisper writes each segment's text as it is, never quoted (WriteTSV prints it with tabs made
    spaces), so a quotation that opens in one segment and closes in a later one starts a cell with a
    double quote: read as CSV quoting, it swallowed the following rows into one unit (a warning, one
    unit of 0-2.5 s instead of three). Whisper's output (its header, integer times) is read without
    quoting; a file with the same header and times in seconds keeps CSV quoting, as before."""
    text = 'start\tend\ttext\n0\t2500\t"I think we should go,\n2500\t4000\tshe said. Then we left.\n4000\t6000\tThe "end".\n'
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)  # the note on milliseconds
        (doc,) = read_corpus(write(tmp_path / "talk.tsv", text))
    assert doc.units == ('"I think we should go,', "she said. Then we left.", 'The "end".')
    assert doc.times == ((0.0, 2.5), (2.5, 4.0), (4.0, 6.0))
    quoted = 'start\tend\ttext\n0.0\t2.5\t"Tab\there, ""quoted"""\n2.5\t4.0\tPlain.\n'
    (doc,) = read_corpus(write(tmp_path / "own.tsv", quoted))
    assert doc.units == ('Tab\there, "quoted"', "Plain.") and doc.times == ((0.0, 2.5), (2.5, 4.0))


def test_whisper_tsv_on_the_command_line_and_in_a_config(tmp_path):
    # twelve 2-second segments; `even` places one boundary, at unit 10, which starts at 20 s
    rows = "".join(f"{k * 2000}\t{k * 2000 + 2000}\tSentence number {k} is here.\n" for k in range(12))
    write(tmp_path / "talk.tsv", "start\tend\ttext\n" + rows)
    config = write(tmp_path / "run.toml", '[corpus]\npath = "talk.tsv"\ntime_unit = "s"\n\n[segmenters.even]\n')

    def boundary_times(*args):
        result = CliRunner().invoke(app, ["run", *args, "--restarts", "2", "--no-progress", "--report-format", "json"])
        assert result.exit_code == 0, result.output
        (doc,) = json.loads(result.stdout)["documents"]["even"]
        return doc["boundary_times"]

    corpus = ["-s", "even", "--corpus", str(tmp_path / "talk.tsv")]
    assert boundary_times(*corpus) == [20.0]  # detected: milliseconds
    assert boundary_times(*corpus, "--time-unit", "s") == [20000.0]  # as asked
    assert boundary_times(str(config)) == [20000.0]


def test_csv_times_written_as_clock_times_are_read(tmp_path):
    """Before, a transcript whose start and end cells are clock times, as meeting and captioning
    tools export them (00:01:02.500, 1:02, SubRip's 00:00:05,120), stopped at its first row:
    "expected a number of seconds in column 'start'". A clock time is read as hours, minutes and
    seconds (62.5, 62, 5.12 s: by hand); a cell that is neither says both forms it takes."""
    file = write(tmp_path / "talk.tsv", "start\tend\tspeaker\ttext\n00:00:00.000\t00:00:05,120\tAnn\tHello.\n"
                                       "00:00:05,120\t1:02\tBo\tBudget.\n1:02\t00:01:02.500\tAnn\tRoads.\n"
                                       "00:01:02.500\t1:00:00\tBo\tBye.\n")
    (doc,) = read_csv(file)
    assert doc.times == ((0.0, 5.12), (5.12, 62.0), (62.0, 62.5), (62.5, 3600.0))
    assert doc.units == ("Hello.", "Budget.", "Roads.", "Bye.") and doc.meta["notes"] == []
    # a time unit given is that of numbers: a clock time reads the same under it
    (ms,) = read_csv(file, time_unit="ms")
    assert ms.times == doc.times
    # frames (HH:MM:SS:FF, as video editors write them) or minutes over 59 are no clock time
    for cell in ("00:00:05:12", "1:75", "00:01:5"):
        bad = write(tmp_path / "bad.tsv", f"start\tend\ttext\n0\t{cell}\tHello.\n")
        with pytest.raises(CorpusFormatError, match=r"bad\.tsv:2: document 'bad': expected a number of seconds in "
                           r"column 'end' \(or a clock time such as 1:02\.5 or 00:01:02\.500;.*received "
                           + repr(cell)):
            list(read_csv(bad))


def test_csv_start_time_and_end_time_columns_are_the_times(tmp_path):
    """Before, a transcript whose times are headed ``Start Time`` and ``End Time`` (or
    ``start_time``, ``end_time``), as many exports head them, was read without its times, and
    without a word: no CovD, no boundary times, a chapters track beside it refused as untimed. They
    are the start and end columns now, after ``start`` and ``end`` (a file with those reads them)."""
    file = write(tmp_path / "talk.csv", "Speaker,Start Time,End Time,Text\nAnn,00:00:00.000,00:00:04.500,Hello.\n"
                                       "Bo,00:00:04.500,00:00:09.000,Budget.\n")
    (doc,) = read_csv(file)
    assert doc.times == ((0.0, 4.5), (4.5, 9.0)) and doc.units == ("Hello.", "Budget.")
    (snake,) = read_csv(write(tmp_path / "snake.csv", "start_time,end_time,text\n0,1.5,a\n1.5,3,b\n"))
    assert snake.times == ((0.0, 1.5), (1.5, 3.0))
    (both,) = read_csv(write(tmp_path / "both.csv", "start_time,start,end,text\nx,0,1.5,a\ny,1.5,3,b\n"))
    assert both.times == ((0.0, 1.5), (1.5, 3.0))  # start and end first, as before


def test_csv_rows_of_empty_cells_are_blank_rows(tmp_path):
    """Before, a row of empty cells (',,,', as Excel saves rows once used and then cleared, often at
    the end of a sheet) was a row like any other: in a timed transcript an error ("expected a
    number of seconds in column 'start' ... received ''"), with a label column one too ("expected a
    label ... this row has none"), without either an empty unit. Such a row is blank, and blank rows
    are skipped (the docstring's rule); a row with an empty text cell but times stays a unit."""
    timed = write(tmp_path / "timed.csv", "start,end,speaker,text\r\n0,2,Ann,Hello.\r\n,,,\r\n2,4,Bo,Hi.\r\n"
                                         ",,,\r\n , ,,\r\n,\r\n")
    (doc,) = read_csv(timed)
    assert doc.units == ("Hello.", "Hi.") and doc.times == ((0.0, 2.0), (2.0, 4.0))
    (labelled,) = read_csv(write(tmp_path / "labelled.csv", "text,label\nHello.,1\nHi.,2\n,\n"))
    assert labelled.units == ("Hello.", "Hi.") and bounds(labelled) == [(1,)]
    (plain,) = read_csv(write(tmp_path / "plain.csv", "text,note\nHello.,x\n,\nHi.,y\n"))
    assert plain.units == ("Hello.", "Hi.")
    (kept,) = read_csv(write(tmp_path / "kept.csv", "start,end,text\n0,2,Hello.\n2,4,\n4,6,Hi.\n"))
    assert kept.units == ("Hello.", "", "Hi.")  # a row, its text empty: a unit, as before


def test_csv_speaker_columns_named_with_a_space_are_the_speakers(tmp_path):
    """Before, a transcript headed ``Speaker Name`` (or ``Speaker Label``, ``speaker_label``), as
    exports head it, was read without its speakers and without a word: no meta['speakers'], no
    turns, so with unit='sentence' a sentence ran from one speaker's row into the next one's."""
    file = write(tmp_path / "talk.csv", "Speaker Name,Start Time,End Time,Text\nAnn,0,2,We start with\n"
                                       "Bo,2,4,the budget? Yes.\n")
    (doc,) = read_csv(file)
    assert doc.meta["speakers"] == ("Ann", "Bo")
    (sentences,) = read_csv(file, unit="sentence", splitter="rules")
    assert sentences.units == ("We start with", "the budget?", "Yes.")  # a change of speaker ends one
    for name in ("Speaker Label", "speaker_label", "Speaker ID"):
        (labelled,) = read_csv(write(tmp_path / "l.csv", f"{name},text\nA,Hi.\nB,Yo.\n"))
        assert labelled.meta["speakers"] == ("A", "B"), name


# A meeting's transcript as a CSV export writes it: times, a speaker column, the text; the
# speaker cell of the fourth row left empty (speaker unknown).
MEETING = ("start,end,Speaker,text,topic\n0,4,Ann Lee,Welcome everyone.,1\n4,9,Bo,Budget first.,2\n"
           "9,12,Ann Lee, It is up.,2\n12,15,,Noise.,2\n")


def test_csv_speaker_column_gives_the_units_their_speakers(tmp_path):
    """Before, a CSV transcript's speaker column was ignored: no meta["speakers"] as captions and
    Whisper's JSON give, and --speakers refused for CSV ("applies only to format 'subtitles'")."""
    file = write(tmp_path / "meeting.csv", MEETING)
    (doc,) = read_csv(file)
    assert doc.meta["speakers"] == ("Ann Lee", "Bo", "Ann Lee", None)  # found by name, any case; cells stripped
    assert doc.units == ("Welcome everyone.", "Budget first.", " It is up.", "Noise.")  # text kept as it is
    (prefixed,) = read_corpus(file, speakers="prefix")
    assert prefixed.units == ("Ann Lee: Welcome everyone.", "Bo: Budget first.", "Ann Lee:  It is up.", "Noise.")
    assert prefixed.meta["speakers"] == doc.meta["speakers"] and bounds(prefixed) == [(1,)]
    # another name, given; the speaker column is no document column in disguise (no note on it)
    other = write(tmp_path / "other.csv", "text,who_id\na,x\nb,x\nc,y\nd,y\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        (named,) = read_csv(other, speaker_column="who_id")
    assert named.meta["speakers"] == ("x", "x", "y", "y") and named.meta["notes"] == []
    with pytest.warns(CorpusWarning, match="pass document_column='who_id'"):  # not given: the note, as before
        list(read_csv(other))
    # without a speaker column: no speakers, and a prefix asked for is refused rather than doing nothing
    (plain,) = read_csv(write(tmp_path / "plain.csv", "text\na\n"))
    assert "speakers" not in plain.meta
    with pytest.raises(CorpusFormatError, match=r"plain\.csv:1: speakers='prefix' puts each row's speaker before "
                       r"its text; expected a speaker column \(speaker, speaker_name, speaker_id, spk, speaker_label, "
                       r"or with a space for the underscore, or pass speaker_column=\)"):
        list(read_csv(tmp_path / "plain.csv", speakers="prefix"))
    with pytest.raises(CorpusFormatError, match=r"expected a speaker column named 'who'"):
        list(read_csv(file, speaker_column="who"))
    with pytest.raises(InvalidParameterError, match="speakers must be one of 'meta', 'prefix'"):
        read_csv(file, speakers="before")
    # on the command line: --speakers prefix reaches the CSV reader
    result = CliRunner().invoke(app, ["run", "--corpus", str(file), "-s", "none", "--speakers", "prefix",
                                      "--restarts", "2", "--no-progress", "--report-format", "json"])
    assert result.exit_code == 0, result.output


# A meeting as WhisperX's segments give it (tests/test_readers_whisper.py), as a CSV transcript.
SPOKEN = ("start,end,speaker,text\n0,3,SPEAKER_00,Welcome everyone. Today we start with\n"
          "3,6,SPEAKER_00,\"the budget, which is up four percent.\"\n6,7,SPEAKER_01,Yeah.\n"
          "7,9.5,SPEAKER_00,Then the roads. Elm Street needs\n9.5,12,SPEAKER_00,paving before May.\n")


def test_csv_sentence_units_are_cut_as_captions_cut_their_cues(tmp_path):
    """Before, --unit sentence was refused for CSV/TSV transcripts (unit is no option of format
    'csv'), though their rows cut sentences as caption cues and Whisper segments do. The units and
    times are those test_whisper_json_with_sentence_units works out by hand for the same speech
    ("Today" at 18 of 37 characters in 0-3 s: 1.459 s; "Elm" at 16 of 32 in 7-9.5 s: 8.25 s)."""
    file = write(tmp_path / "csv" / "meeting.csv", SPOKEN)
    (doc,) = read_corpus(file, unit="sentence", splitter="rules")
    assert doc.units[1] == "Today we start with the budget, which is up four percent."  # two rows, quoted
    assert doc.units[3:] == ("Then the roads.", "Elm Street needs paving before May.")
    assert doc.times == ((0.0, 1.459), (1.459, 6.0), (6.0, 7.0), (7.0, 8.25), (8.25, 12.0))
    assert doc.meta["speakers"][1:3] == ("SPEAKER_00", "SPEAKER_01") and doc.meta["notes"] == []
    assert (doc.meta["unit"], doc.meta["splitter"]) == ("sentence", "rules")
    # one implementation: the same speech as WebVTT captions gives the same sentences
    vtt = write(tmp_path / "vtt" / "meeting.vtt", "WEBVTT\n\n" + "".join(
        f"00:{float(start):06.3f} --> 00:{float(end):06.3f}\n<v {who}>{text.strip(chr(34))}\n\n"
        for start, end, who, text in (line.split(",", 3) for line in SPOKEN.splitlines()[1:])))
    (captions,) = read_corpus(vtt, unit="sentence", splitter="rules")
    assert (captions.units, captions.times, captions.meta["speakers"]) == (doc.units, doc.times, doc.meta["speakers"])
    (prefixed,) = read_corpus(file, unit="sentence", splitter="rules", speakers="prefix")
    assert prefixed.units[2:4] == ("SPEAKER_01: Yeah.", "SPEAKER_00: Then the roads.")
    # a chapters track beside the file places its chapters on the sentences' times: 8 s falls in the second
    # half of "Then the roads." (7-8.25 s, middle 7.625) so the chapter begins with the sentence after it,
    # unit 4; with a unit a row it falls in the first half of row 3 (7-9.5 s, middle 8.25): unit 3
    write(tmp_path / "csv" / "meeting.chapters.txt", "Chapters:\n0:00 Budget\n0:08 Roads\n")
    with pytest.warns(CorpusWarning, match="heading"):
        (doc,) = read_corpus(tmp_path / "csv", unit="sentence")  # the default splitter, trained on the folder's turns
        (rows,) = read_corpus(tmp_path / "csv")
    assert doc.n_units == 5 and doc.references[0].boundaries == (4,) and doc.meta["titles"] == ("Budget", "Roads")
    assert rows.n_units == 5 and rows.references[0].boundaries == (3,) and "unit" not in rows.meta


def test_a_chunker_reads_csv_sentences_joined_as_running_text_and_rows_one_a_line(tmp_path):
    """Before, a CSV/TSV read with unit='sentence' set no meta['unit_separator'], which the text,
    Markdown and HTML readers set: a chunker read its sentences one a line, as if each were a row
    or a caption, where the sentences of a turn run on with a space between them. Then every
    sentence ran on, two speakers' turns too, where captions and Whisper's JSON put a newline
    where the speaker changes: now a CSV with a speaker column gives a turn a line too
    (meta['unit_separators']), with the same units."""
    from segmenters.chunkers import ChunkerSegmenter
    from stability import stability_test
    from stability.readers.common import UNIT_SEPARATORS

    file = write(tmp_path / "meeting.csv", SPOKEN)
    (doc,) = read_csv(file, unit="sentence", splitter="rules")
    assert doc.meta["unit_separator"] == UNIT_SEPARATORS["sentence"] == " "
    (rows,) = read_csv(file)
    assert "unit_separator" not in rows.meta  # a row a line, the chunkers' default
    seen: list[str] = []

    def whole(text):
        seen.append(text)
        return [text]

    stability_test(ChunkerSegmenter(whole), doc, n_restarts=1, seed=0)
    # SPOKEN's turns: SPEAKER_00 (units 0-1), SPEAKER_01 (2), SPEAKER_00 (3-4), a turn a line
    assert doc.units[2] == "Yeah." and doc.meta["unit_separators"] == (" ", "\n", "\n", " ")
    assert seen[0].split("\n") == [" ".join(doc.units[:2]), "Yeah.", " ".join(doc.units[3:])]
    # without a speaker column (or one speaker throughout) the sentences run on, one line
    unspoken = "".join(",".join(line.split(",", 3)[:2] + line.split(",", 3)[3:]) + "\n" for line in SPOKEN.splitlines())
    (plain,) = read_csv(write(tmp_path / "plain.csv", unspoken), unit="sentence", splitter="rules")
    assert plain.units == doc.units and "unit_separators" not in plain.meta
    first = len(seen)  # the first call reads the document in its order
    stability_test(ChunkerSegmenter(whole), plain, n_restarts=1, seed=0)
    assert seen[first] == " ".join(plain.units)
    stability_test(ChunkerSegmenter(whole), rows, n_restarts=1, seed=0)
    assert seen[-1].split("\n")[-1] in rows.units and seen[-1].count("\n") == rows.n_units - 1


def test_csv_sentence_units_keep_the_reference_of_the_label_columns(tmp_path):
    """A label column marks a boundary between two rows; a sentence running across it could take
    neither label. A change of label ends a turn, as a change of speaker does, so no sentence spans
    it and each sentence takes the labels of its rows (the references keep their boundaries)."""
    file = write(tmp_path / "talk.csv", "text,label_a,label_b\nBudget rises. Taxes,1,x\nstay flat. Roads,2,x\n"
                                        "need asphalt. Bridges,2,y\ntoo.,2,y\n")
    (rows,) = read_csv(file)
    assert [ref.boundaries for ref in rows.references] == [(1,), (2,)] and rows.times is None
    (doc,) = read_csv(file, unit="sentence", splitter="rules")
    # cut at rows 1 (label_a changes) and 2 (label_b changes); "Bridges too." joins rows 2 and 3
    assert doc.units == ("Budget rises.", "Taxes", "stay flat.", "Roads", "need asphalt.", "Bridges too.")
    assert [ref.boundaries for ref in doc.references] == [(2,), (4,)]  # "stay flat." and "need asphalt." start rows 1, 2
    assert doc.times is None and doc.meta["label_columns"] == ("label_a", "label_b")
    # without a change of label there, the sentence runs across the rows
    (joined,) = read_csv(write(tmp_path / "same.csv", "text,topic\nBudget rises. Taxes,1\nstay flat.,1\nRoads.,2\n"),
                         unit="sentence", splitter="rules")
    assert joined.units == ("Budget rises.", "Taxes stay flat.", "Roads.") and joined.references[0].boundaries == (2,)


def test_csv_sentence_units_options_and_command_line(tmp_path):
    file = write(tmp_path / "meeting.csv", SPOKEN)
    with pytest.raises(InvalidParameterError, match="unit must be one of 'row', 'sentence'; received 'cue'"):
        read_csv(file, unit="cue")
    with pytest.raises(InvalidParameterError, match="splitter applies only to unit='sentence'"):
        read_csv(file, splitter="rules")
    blank = write(tmp_path / "blank.csv", "doc,text\na,Hi.\nb, \nb,\n")
    with pytest.raises(CorpusFormatError, match=r"blank\.csv:3: document 'b': expected text to cut into sentences "
                                                r"\(unit='sentence'\); its 2 row\(s\) have none"):
        list(read_csv(blank, unit="sentence"))
    result = CliRunner().invoke(app, ["run", "-s", "even", "--corpus", str(file), "--unit", "sentence", "--splitter",
                                      "rules", "--restarts", "2", "--no-progress", "--report-format", "json"])
    assert result.exit_code == 0, result.output
    (doc,) = json.loads(result.stdout)["documents"]["even"]
    assert doc["n_units"] == 5


def test_csv_delimiter_option_and_directory_ids(tmp_path):
    write(tmp_path / "a" / "ep1.csv", "text;label\nx;1\ny;2\n")
    write(tmp_path / "ep2.csv", "text;label\nz;1\n")
    docs = list(read_csv(tmp_path, delimiter=";"))
    assert [(d.id, bounds(d)) for d in docs] == [("a/ep1", [(1,)]), ("ep2", [()])]
    with pytest.raises(InvalidParameterError, match="delimiter"):
        read_csv(tmp_path, delimiter=";;")


# ---------------------------------------------------------------------------------------------
# plain text
# ---------------------------------------------------------------------------------------------
TEXT = "Dr. Smith went to Washington. He arrived\nat noon!\n\n  \nWas it late? Yes.\nA last line\n"


def test_text_units(tmp_path):
    file = write(tmp_path / "a.txt", TEXT)
    (doc,) = read_text(file)
    # the default splitter knows "Dr." is a title; a sentence never crosses the paragraph break
    assert doc.units == ("Dr. Smith went to Washington.", "He arrived at noon!", "Was it late?", "Yes.", "A last line")
    # untrained Punkt (the former default) splits after "Dr."
    (doc,) = read_text(file, splitter="punkt_untrained")
    assert doc.units[:2] == ("Dr.", "Smith went to Washington.")
    assert doc.references == () and doc.id == "a.txt"
    (doc,) = read_text(file, unit="paragraph")
    assert doc.units == ("Dr. Smith went to Washington. He arrived at noon!", "Was it late? Yes. A last line")
    (doc,) = read_text(file, unit="line")
    assert doc.units == ("Dr. Smith went to Washington. He arrived", "at noon!", "Was it late? Yes.", "A last line")
    with pytest.raises(InvalidParameterError, match="unit must be one of"):
        read_text(file, unit="word")


def test_text_sentences_match_punkt_directly(tmp_path):
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    paragraph = "The U.S. economy grew 3.2 percent. Mr. Jones said so. It was 5 p.m. on Monday."
    (doc,) = read_text(write(tmp_path / "p.txt", paragraph), splitter="punkt_untrained")
    assert list(doc.units) == PunktSentenceTokenizer().tokenize(paragraph)


def test_text_blank_file_is_an_error(tmp_path):
    file = write(tmp_path / "blank.txt", "\n  \n")
    with pytest.raises(CorpusFormatError, match="empty or blank") as info:
        list(read_text(file))
    assert str(file) in str(info.value)


# ---------------------------------------------------------------------------------------------
# encodings
# ---------------------------------------------------------------------------------------------
def test_non_utf8_file_is_a_clear_error_and_reads_with_encoding(tmp_path):
    file = write(tmp_path / "fr.ref", f"{SEP}\nabc\nun café noir\n{SEP}\n", encoding="latin-1")
    with pytest.raises(CorpusFormatError, match="cannot decode the file as 'utf-8' at byte offset") as info:
        list(read_choi(file))
    message = str(info.value)
    assert message.startswith(f"{file}:3: ")
    # byte offset of the 'é': 11 bytes of separator line, 4 of 'abc\n', then 'un caf'
    assert "at byte offset 21" in message and "b'\\xe9'" in message
    assert "encoding='latin-1'" in message
    (doc,) = read_choi(file, encoding="latin-1")
    assert doc.units[1] == "un café noir"
    (doc,) = read_choi(file, encoding_errors="replace")
    assert doc.units[1] == "un caf\ufffd noir"


def test_decoding_error_far_into_a_file_is_located(tmp_path):
    # 3000 lines of 60 bytes, more than two 64 KiB chunks, then a bad byte on line 3001
    body = "".join(f'{{"units": ["{i:044d}"]}}\n' for i in range(3000)).encode()
    assert len(body) == 3000 * 60
    file = tmp_path / "big.jsonl"
    file.write_bytes(body + b'{"units": ["caf\xe9"]}\n')
    reader = read_jsonl(file)
    assert next(reader).units == ("0" * 44,)  # the first document is read before the bad byte
    with pytest.raises(CorpusFormatError) as info:
        list(reader)
    assert str(info.value).startswith(f"{file}:3001: ")
    assert f"at byte offset {len(body) + 15}" in str(info.value)


def test_decoding_error_after_a_character_split_between_read_chunks(tmp_path):
    # 'é' (2 bytes) straddles the 64 KiB read boundary; the bad byte comes 4 bytes later
    body = b"a" * 65535 + "é".encode() + b"\nxx\xff\n"
    file = tmp_path / "split.txt"
    file.write_bytes(body)
    offset = body.index(b"\xff")
    assert offset == 65540
    with pytest.raises(CorpusFormatError, match=f"at byte offset {offset} ") as info:
        list(read_text(file))
    assert str(info.value).startswith(f"{file}:2: ")


def test_utf16_and_unknown_encoding(tmp_path):
    file = write(tmp_path / "u.jsonl", '{"units": ["żółw"]}\n', encoding="utf-16")
    assert next(read_jsonl(file, encoding="utf-16")).units == ("żółw",)
    with pytest.raises(CorpusFormatError, match="cannot decode"):
        list(read_jsonl(file))
    with pytest.raises(InvalidParameterError, match="encoding must be a codec name"):
        read_jsonl(file, encoding="klingon-8")
    with pytest.raises(InvalidParameterError, match="encoding_errors"):
        read_jsonl(file, encoding_errors="shrug")


# ---------------------------------------------------------------------------------------------
# detection and the entry point
# ---------------------------------------------------------------------------------------------
def test_detect_format(tmp_path):
    cases = {
        "a.ref": f"{SEP}\nx\n",
        "a.jsonl": '{"units": ["x"]}\n',
        "a.json": '{"units": ["x"]}\n',
        "a.csv": "text\nx\n",
        "a.tsv": "text\nx\n",
        "wiki_article": "\n========,1,preface.\nx\n",
        "choi_noext": f"{SEP}\nx\n{SEP}\n",
        "notes.md": "Just text. Nothing else.\n",
        "page.html": "<p>x</p>\n",
        "page.htm": "<h1>T</h1><p>x</p>\n",
        "pair.segmenttitles": "d,1,Title\n",
        "other.text": "x\n",
        "notes.txt": "Just text. Nothing else.\n",
        "talk.vtt": "WEBVTT\n\n00:00.000 --> 00:01.000\nx\n",
        "film.srt": "1\n00:00:00,000 --> 00:00:01,000\nx\n",
        "guide.rst": "x\n",
        "guide.rest": "T\n=\n\nx\n",
    }
    expected = ["choi", "jsonl", "jsonl", "csv", "csv", "wiki", "choi", "markdown", "html", "html", "chen", "text",
                "text", "subtitles", "subtitles", "rst", "rst"]
    write(tmp_path / "pair.text", "x\n")  # the other half of the Chen pair
    for (name, text), fmt in zip(cases.items(), expected):
        file = write(tmp_path / name, text)
        assert detect_format(file) == fmt, name
        if fmt not in ("text", "markdown"):
            assert [d.units for d in read_corpus(file)] == [("x",)], name
    # Markdown units are paragraphs by default, plain text's are sentences
    assert next(read_corpus(tmp_path / "notes.md")).units == ("Just text. Nothing else.",)
    assert next(read_corpus(tmp_path / "notes.txt")).units == ("Just text.", "Nothing else.")
    # the .text half of a Chen pair is recognised by the .segmenttitles file beside it
    assert detect_format(tmp_path / "pair.text") == "chen"
    assert [d.units for d in read_corpus(tmp_path / "pair.text")] == [("x",)]
    assert set(expected) == set(FORMATS)


def test_detect_directories(tmp_path):
    write(tmp_path / "choi" / "README", "not a document\n")
    write(tmp_path / "choi" / "1" / "0.ref", f"{SEP}\nx\n{SEP}\n")
    assert detect_format(tmp_path / "choi") == "choi"
    assert [d.id for d in read_corpus(tmp_path / "choi")] == ["1/0.ref"]  # README is not read
    write(tmp_path / "wiki" / "00" / "0.txt", "About this corpus.\n")  # sniffed first, decides nothing
    write(tmp_path / "wiki" / "00" / "12", "========,1,preface.\nx\n")
    write(tmp_path / "wiki" / "00" / "9", "========,1,preface.\ny\n")
    assert detect_format(tmp_path / "wiki") == "wiki"  # content beats the '.txt' extension
    assert [d.id for d in read_corpus(tmp_path / "wiki", pattern="[1-9]*")] == ["00/9", "00/12"]
    write(tmp_path / "mixed" / "a.txt", "Hello there.\n")
    assert detect_format(tmp_path / "mixed") == "text"
    write(tmp_path / "unknown" / "data.bin", "nothing recognisable\n")
    with pytest.raises(CorpusFormatError, match="cannot detect the corpus format.*'data.bin'.*pass format="):
        detect_format(tmp_path / "unknown")


def test_read_corpus_options_and_format_in_errors(tmp_path):
    file = write(tmp_path / "a.jsonl", '{"units": ["x"]}\n{"units": 3}\n')
    with pytest.raises(InvalidParameterError, match=r"levels applies only to format 'wiki'.*'jsonl' detected"):
        read_corpus(file, levels=[1])
    with pytest.raises(InvalidParameterError, match="format must be None"):
        read_corpus(file, "xml")
    assert [d.units for d in read_corpus(file, "JSON", limit=1)] == [("x",)]  # aliases, any case
    reader = read_corpus(file)
    next(reader)
    with pytest.raises(CorpusFormatError, match=r"\[format 'jsonl' detected from the file extension") as info:
        next(reader)
    assert str(info.value).startswith(f"{file}:2: ")
    # read as plain text for want of any markup: the error says so in a sentence ("[format 'text'
    # detected no unit markup found ...]" before)
    blank = write(tmp_path / "blank", "\n  \n")
    with pytest.raises(CorpusFormatError, match=r"\[format 'text' detected as the fallback: no unit markup found \("):
        list(read_corpus(blank))
    # told a wrong format: the error says it was given, not detected
    with pytest.raises(CorpusFormatError, match=r"expected a text column.*\[format 'csv' given") as info:
        list(read_corpus(file, "csv"))
    assert str(info.value).startswith(f"{file}:1: ")
    # every format-specific option reaches its reader
    wiki = write(tmp_path / "w", WIKI)
    assert bounds(next(read_corpus(wiki, levels="1-2"))) == [(2, 4)]
    text = write(tmp_path / "t.txt", "One. Two.\n")
    assert next(read_corpus(text, unit="paragraph")).units == ("One. Two.",)
    csv_file = write(tmp_path / "c.csv", "body,who\nx,1\ny,2\n")
    assert bounds(next(read_corpus(csv_file, text_column="body", label_columns="who"))) == [(1,)]
    choi = write(tmp_path / "c.ref", f"{SEP}\nx\n \n{SEP}\n")
    with pytest.warns(CorpusWarning):
        assert next(read_corpus(choi, blank_lines="drop")).units == ("x",)


# ---------------------------------------------------------------------------------------------
# streaming
# ---------------------------------------------------------------------------------------------
def test_readers_are_lazy_generators(tmp_path):
    file = write(tmp_path / "c.jsonl", '{"id": "old", "units": ["x"]}\n')
    reader = read_corpus(file)
    assert inspect.isgenerator(reader)
    # nothing has been read yet: the content at iteration time is what counts
    file.write_text('{"id": "new", "units": ["y"]}\n')
    assert [d.id for d in reader] == ["new"]


def test_first_documents_come_before_a_broken_end(tmp_path):
    n = 20000
    file = tmp_path / "big.jsonl"
    with open(file, "w") as handle:
        for i in range(n):
            handle.write(json.dumps({"id": f"d{i}", "units": ["a", "b"], "references": [[1]]}) + "\n")
        handle.write("this is not json\n")
    first = list(itertools.islice(read_jsonl(file), 3))
    assert [d.id for d in first] == ["d0", "d1", "d2"]
    with pytest.raises(CorpusFormatError, match=f":{n + 1}: invalid JSON"):
        for _ in read_jsonl(file):
            pass
    # CSV and Choi directories stream the same way
    csv_file = write(tmp_path / "s.csv", "document,text\na,x\nb,y\nb\n")
    reader = read_csv(csv_file)
    assert next(reader).id == "a"
    with pytest.raises(CorpusFormatError, match=":4: expected 2 fields"):
        next(reader)
    write(tmp_path / "choi" / "1.ref", f"{SEP}\nx\n{SEP}\n")
    write(tmp_path / "choi" / "2.ref", f"{SEP}\n=====\n{SEP}\n")
    reader = read_choi(tmp_path / "choi")
    assert next(reader).id == "1.ref"
    with pytest.raises(CorpusFormatError, match=r"2\.ref:2:"):
        next(reader)


def test_limit(tmp_path):
    file = write(tmp_path / "l.jsonl", "".join(f'{{"units": ["{i}"]}}\n' for i in range(5)) + "broken\n")
    assert [d.id for d in read_corpus(file, limit=3)] == ["1", "2", "3"]
    assert list(read_corpus(file, limit=0)) == []
    with pytest.raises(InvalidParameterError, match="limit"):
        read_corpus(file, limit=-1)


# ---------------------------------------------------------------------------------------------
# the real Choi data (../shared/data/choi)
# ---------------------------------------------------------------------------------------------
needs_choi = pytest.mark.skipif(not CHOI.is_dir(), reason="../shared/data/choi is not available")


@needs_choi
def test_real_choi_set_1_3_11():
    docs = list(read_corpus(CHOI / "1" / "3-11"))
    assert [d.id for d in docs] == [f"{i}.ref" for i in range(50)]
    for doc in docs:
        (ref,) = doc.references
        assert ref.n_segments == 10 and ref.n_boundaries == 9
        assert all(3 <= m <= 11 for m in ref.masses)
        assert doc.meta["notes"] == []
    # 0.ref checked against the raw file: units are its non-separator lines, in order
    raw = (CHOI / "1" / "3-11" / "0.ref").read_text(encoding="ascii").splitlines()
    assert raw[0] == raw[-1] == SEP
    assert list(docs[0].units) == [line.strip() for line in raw if line != SEP]
    assert docs[0].units[0].startswith("Santa Barbara -- ``")
    assert docs[0].references[0].masses[:3] == (5, 3, 6)  # separators on lines 1, 7, 11, 18


@needs_choi
def test_real_choi_set_4_double_separator_and_blank_lines():
    with pytest.warns(CorpusWarning, match=r"6\.ref: line 8: empty segment dropped"):
        (doc,) = read_choi(CHOI / "4" / "3-5" / "6.ref")
    assert doc.references[0].masses == (5, 5, 4, 5, 5, 3, 4, 3, 5)  # 9 segments, not 10
    with pytest.warns(CorpusWarning, match="line 16: blank line kept"):
        (doc,) = read_choi(CHOI / "4" / "3-5" / "16.ref")
    assert doc.units[11] == ""
    assert all(3 <= m <= 5 for m in doc.references[0].masses)
    # dropping the blank line instead leaves a 2-unit segment in the 3-5 set: why "keep" is the default
    with pytest.warns(CorpusWarning):
        (dropped,) = read_choi(CHOI / "4" / "3-5" / "16.ref", blank_lines="drop")
    assert min(dropped.references[0].masses) == 2


@needs_choi
def test_real_choi_whole_benchmark():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = list(read_corpus(CHOI))  # README, Table.txt etc. are not .ref files: skipped
    assert len(docs) == 920
    notes = [n for d in docs for n in d.meta["notes"]]
    assert sum("empty segment dropped" in n for n in notes) == 14
    assert sum("blank line kept" in n for n in notes) == 7
    assert len(caught) == 21 and all(issubclass(w.category, CorpusWarning) for w in caught)
    # every segment has the size range of its directory, except one short Brown excerpt that has
    # only 6 sentences in total (Choi's sampler took all of it), in the 9-11 sets
    short = set()
    for doc in docs:
        lo, hi = map(int, doc.id.split("/")[1].split("-"))
        for start, stop in doc.references[0].segments:
            if not lo <= stop - start <= hi:
                short.add((doc.units[start], stop - start))
    assert short == {("6.4 .", 6)}


# ---------------------------------------------------------------------------------------------
# round trips (property tests)
# ---------------------------------------------------------------------------------------------
@st.composite
def corpora(draw, unit_text, ids, with_times=True):
    n_docs = draw(st.integers(min_value=1, max_value=4))
    doc_ids = draw(st.lists(ids, min_size=n_docs, max_size=n_docs, unique=True))
    docs = []
    for doc_id in doc_ids:
        n = draw(st.integers(min_value=1, max_value=8))
        units = tuple(draw(st.lists(unit_text, min_size=n, max_size=n)))
        n_refs = draw(st.integers(min_value=0, max_value=3))
        refs = [
            sorted(draw(st.sets(st.integers(min_value=1, max_value=n - 1), max_size=n - 1))) if n > 1 else []
            for _ in range(n_refs)
        ]
        times = None
        if with_times and draw(st.booleans()):
            starts = draw(st.lists(st.floats(0, 1e6), min_size=n, max_size=n))
            durations = draw(st.lists(st.floats(0, 1e3), min_size=n, max_size=n))
            times = [(a, a + d) for a, d in zip(starts, durations)]
        docs.append(Document(doc_id, units, references=tuple(refs), times=times))
    return docs


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora(st.text(max_size=20), st.text(min_size=1, max_size=8)))
def test_jsonl_round_trip(tmp_path, docs):
    file = tmp_path / "rt.jsonl"
    assert write_jsonl(docs, file) == len(docs)
    back = list(read_jsonl(file))
    assert back == docs
    assert [d.times for d in back] == [d.times for d in docs]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora(st.text(max_size=20), st.text(min_size=1, max_size=8)), st.sampled_from([None, 1, 4]))
def test_json_array_reads_what_json_lines_read(tmp_path, docs, indent):
    lines = tmp_path / "rt.jsonl"
    write_jsonl(docs, lines)
    records = [json.loads(line) for line in lines.read_text(encoding="utf-8").split("\n") if line]
    array = tmp_path / "rt.json"
    array.write_text(json.dumps(records, indent=indent, ensure_ascii=False), encoding="utf-8")
    back = list(read_jsonl(array))
    assert back == docs
    assert [d.times for d in back] == [d.times for d in docs]


csv_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=20)
csv_ids = st.text(st.characters(categories=("L", "N", "P")), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora(csv_text, csv_ids), st.sampled_from(["rt.csv", "rt.tsv"]))
def test_csv_round_trip(tmp_path, docs, name):
    file = tmp_path / name
    assert write_csv(docs, file) == len(docs)
    back = list(read_csv(file))
    # Document equality ignores times; compare them too. A document written without references
    # next to others with references reads back without references (empty label cells).
    assert back == docs
    assert [d.times for d in back] == [d.times for d in docs]


csv_speakers = st.one_of(st.none(), csv_text.filter(lambda name: name and name == name.strip()))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(csv_text, csv_speakers), min_size=1, max_size=6), st.sampled_from(["rt.csv", "rt.tsv"]))
def test_csv_round_trip_keeps_the_speakers(tmp_path, said, name):
    doc = Document("d", tuple(text for text, _ in said), meta={"speakers": tuple(who for _, who in said)})
    write_csv([doc], tmp_path / name)
    (back,) = read_csv(tmp_path / name)
    assert back == doc
    expected = doc.meta["speakers"] if any(who is not None for _, who in said) else None
    assert back.meta.get("speakers") == expected


choi_text = st.text(st.characters(categories=("L", "N", "P")), min_size=1, max_size=12).map(
    lambda s: s + " ." if s.isdigit() else s
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora(choi_text, st.integers(0, 30).map(lambda i: f"{i}.ref"), with_times=False))
def test_choi_round_trip(tmp_path_factory, docs):
    folder = tmp_path_factory.mktemp("choi")
    single = [Document(d.id, d.units, references=d.references[:1] or [()]) for d in docs]
    assert write_choi(single, folder) == len(single)
    back = list(read_choi(folder))
    by_id = sorted(single, key=lambda d: int(d.id.split(".")[0]))
    assert back == by_id
    assert all(d.meta["notes"] == [] for d in back)


def test_write_csv_writes_the_speakers_the_reader_reads(tmp_path):
    """Before, write_csv wrote no speaker column, so a transcript's meta["speakers"] (which
    read_csv reads from one) was lost on the way out and back."""
    meeting = write(tmp_path / "meeting.csv", MEETING)
    (doc,) = read_csv(meeting)
    plain = Document("plain", ("a", "b"), times=((0.0, 1.0), (1.0, 2.0)))
    out = tmp_path / "out.tsv"
    assert write_csv([doc, plain], out) == 2
    assert out.read_text().splitlines()[:2] == ["document\ttext\tstart\tend\tspeaker\tlabel",
                                                "meeting\tWelcome everyone.\t0.0\t4.0\tAnn Lee\t0"]
    back, other = read_csv(out)
    assert back == doc and back.times == doc.times and back.meta["speakers"] == ("Ann Lee", "Bo", "Ann Lee", None)
    assert other.meta["speakers"] == (None, None)  # no speakers: empty cells, read back as unknown
    # a caption file's voices go out and back the same way; captions without any voice add no column
    vtt = write(tmp_path / "talk.vtt", "WEBVTT\n\n00:00.000 --> 00:02.000\n<v Ann>Hi.\n\n"
                                       "00:02.000 --> 00:04.000\nBudget.\n")
    write_csv(read_corpus(vtt), tmp_path / "talk.csv")
    assert next(read_csv(tmp_path / "talk.csv")).meta["speakers"] == ("Ann", None)
    write_csv([Document("x", ("a",), meta={"speakers": (None,)})], tmp_path / "none.csv")
    assert (tmp_path / "none.csv").read_text().splitlines()[0] == "document,text"
    # what would not read back as written is refused, naming the document and the unit
    for speakers, expected in [((" Ann", None), r"the speaker of unit 0 must be a name without spaces around it"),
                               ((None, ""), "the speaker of unit 1 must be a name"),
                               ((None, 3), "the speaker of unit 1 must be a name"),
                               (("Ann",), r"meta\['speakers'\] must hold one speaker a unit \(2\)")]:
        with pytest.raises(InvalidParameterError, match=r"document 'x': " + expected):
            write_csv([Document("x", ("a", "b"), meta={"speakers": speakers})], tmp_path / "bad.csv")


def test_writers_refuse_what_would_not_read_back(tmp_path):
    with pytest.raises(InvalidParameterError, match="single line"):
        write_choi([Document("a", ("two\nlines",))], tmp_path)
    with pytest.raises(InvalidParameterError, match="relative path"):
        write_choi([Document("../escape", ("x",))], tmp_path)
    doc = Document("a", ("x", "y"), references=([1], []))
    write_choi([doc], tmp_path, reference=1)
    assert bounds(next(read_choi(tmp_path / "a.ref"))) == [()]
    with pytest.raises(InvalidParameterError, match="reference"):
        write_choi([doc], tmp_path, reference=2)
    # a corpus read from disk goes back out to JSON lines unchanged
    write(tmp_path / "c" / "5.ref", f"{SEP}\na\nb\n{SEP}\nc\n{SEP}\n")
    write_jsonl(read_choi(tmp_path / "c"), tmp_path / "out.jsonl")
    assert json.loads((tmp_path / "out.jsonl").read_text()) == {
        "id": "5.ref",
        "units": ["a", "b", "c"],
        "references": [[2]],
    }


def test_a_stray_quote_that_merges_tsv_rows_is_warned_about(tmp_path):
    merged = write(tmp_path / "q.tsv", 'doc\ttext\tlabel\nd\tfirst\t1\nd\t"Unbalanced quote\t2\nd\tfour\t2\n'
                                       'd\tfive"\t2\nd\tlast\t3\n')
    with pytest.warns(CorpusWarning, match=r"q\.tsv:3: a quoted cell runs over lines 3 to 5 and holds the "
                                           r"delimiter '\\t': probably an unbalanced double quote"):
        [doc] = read_corpus(merged)
    assert len(doc.units) == 3                     # what was read: the three middle rows are one cell
    fine = write(tmp_path / "ok.tsv", 'doc\ttext\tlabel\nd\t"a cell\nover two lines"\t1\nd\tplain\t2\n')
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)  # a quoted cell over two lines, without a tab: fine
        assert next(read_corpus(fine)).units == ("a cell\nover two lines", "plain")


def test_decoding_error_of_a_utf16_or_utf32_file_names_its_byte_order_mark(tmp_path):
    # Windows Notepad's "Unicode" is UTF-16 LE with a byte-order mark: latin-1 would read NULs
    for codec in ("utf-16", "utf-32"):
        file = write(tmp_path / f"{codec}.txt", "Guten Tag. Grüß Gott.\n", encoding=codec)
        with pytest.raises(CorpusFormatError, match=f"{codec.upper()} byte-order mark: pass encoding='{codec}'") as info:
            list(read_corpus(file))
        assert "latin-1" not in str(info.value)
        assert next(read_corpus(file, encoding=codec)).units == ("Guten Tag.", "Grüß Gott.")


def test_decoding_error_of_a_page_names_the_encoding_it_declares(tmp_path):
    # a page saved by an old site or tool declares its 8-bit encoding in a <meta> tag, as browsers
    # read it; the error names that encoding, not a guess, and the page reads with it
    page = '<html><head><meta charset="iso-8859-1"></head><body><h1>Menu</h1><p>Café crème.</p></body></html>'
    write(tmp_path / "site" / "a.html", page.replace("iso-8859-1", "utf-8"))
    old = write(tmp_path / "site" / "b.html", page, encoding="latin-1")
    with pytest.raises(CorpusFormatError, match=r"declares its encoding as 'iso-8859-1': pass encoding='iso-8859-1'") as info:
        list(read_corpus(tmp_path / "site"))
    assert info.value.path == str(old)
    assert next(read_corpus(old, encoding="iso-8859-1")).units == ("Café crème.",)
    # the http-equiv form and an XML declaration say it too; a declared UTF-8 says nothing about
    # a file that is not, and neither does the encoding that was just tried
    legacy = write(tmp_path / "c.htm", '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252">'
                   "<p>“quoted”</p>", encoding="cp1252")
    with pytest.raises(CorpusFormatError, match=r"declares its encoding as 'windows-1252'"):
        list(read_corpus(legacy))
    xml = write(tmp_path / "d.html", '<?xml version="1.0" encoding="ISO-8859-15"?><p>10 €</p>', encoding="iso-8859-15")
    with pytest.raises(CorpusFormatError, match=r"declares its encoding as 'ISO-8859-15'"):
        list(read_corpus(xml))
    liar = write(tmp_path / "e.html", page.replace("iso-8859-1", "utf-8"), encoding="latin-1")
    with pytest.raises(CorpusFormatError, match=r"pass encoding= with the file's encoding \(for example"):
        list(read_corpus(liar))
    (tmp_path / "f.html").write_bytes(b'<meta charset="windows-1252"><p>\x81</p>')  # 0x81: no cp1252 character
    with pytest.raises(CorpusFormatError, match=r"pass encoding= with the file's encoding \(for example"):
        list(read_corpus(tmp_path / "f.html", encoding="cp1252"))


@pytest.mark.parametrize("name, first, second, read", [
    ("a.md", "# A\n\nFirst.\n", "# B\n\nSecond.\n", lambda doc: (doc.units, doc.references[0].boundaries)),
    ("a.ref", "==========\nA.\n==========\n", "==========\nB.\n==========\n",
     lambda doc: (doc.units, doc.references[0].boundaries)),
    ("a.jsonl", '{"id": "d1", "units": ["First."]}\n', '{"id": "d2", "units": ["Second."]}\n', lambda doc: doc.units),
    ("a.txt", "First.\n\n", "Second.\n", lambda doc: doc.units),
])
def test_a_byte_order_mark_where_two_files_were_joined_is_removed(tmp_path, name, first, second, read):
    # files saved with a UTF-8 byte-order mark and joined (cat, PowerShell's Get-Content) carry a
    # second mark at the start of a line: it hid the heading or separator after it (the heading
    # '# B' read as text of the unit before), made the JSON line invalid, or stuck to the text
    bom = "\ufeff".encode()
    joined = (tmp_path / name)
    joined.write_bytes(bom + first.encode() + bom + second.encode())
    (tmp_path / "apart").mkdir()
    alone = tmp_path / "apart" / name
    alone.write_bytes(first.encode() + second.encode())
    assert [read(doc) for doc in read_corpus(joined)] == [read(doc) for doc in read_corpus(alone)]


def test_binary_files_are_passed_over_by_detection_and_named_as_not_text(tmp_path):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"
    (tmp_path / "notes").mkdir()
    write(tmp_path / "notes" / "a.txt", "One sentence. Two sentences.\n")
    (tmp_path / "notes" / "photo.png").write_bytes(png)
    (tmp_path / "notes" / "Thumbs.db").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00")
    assert [doc.id for doc in read_corpus(tmp_path / "notes")] == ["a.txt"]
    write(tmp_path / "wiki" / "300", "========,1,preface.\nA.\n========,2,Life.\nB.\n")
    (tmp_path / "wiki" / "logo.png").write_bytes(png)
    with pytest.raises(CorpusFormatError, match="holds NUL bytes: it is not text") as info:
        list(read_corpus(tmp_path / "wiki"))
    assert str(info.value).startswith(f"{tmp_path / 'wiki' / 'logo.png'}:1: ")
    assert "pattern=" in str(info.value) and "latin-1" not in str(info.value)


def test_symbolic_links_to_directories_are_followed_once_and_loops_are_not(tmp_path):
    elsewhere = write(tmp_path / "elsewhere" / "b.txt", "Third sentence. Fourth one.\n").parent
    corpus = write(tmp_path / "corpus" / "a.txt", "One sentence. Two sentences.\n").parent
    (corpus / "linked").symlink_to(elsewhere, target_is_directory=True)
    (corpus / "back").symlink_to(tmp_path, target_is_directory=True)  # leads to a parent: a loop
    (corpus / "self").symlink_to(corpus, target_is_directory=True)
    assert [doc.id for doc in read_corpus(corpus)] == ["a.txt", "linked/b.txt"]


def test_a_broken_link_or_a_named_pipe_in_a_corpus_folder_is_named(tmp_path):
    corpus = write(tmp_path / "a.txt", "One sentence. Two sentences.\n").parent
    (corpus / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    with pytest.raises(CorpusFormatError, match="symbolic link to .*nowhere.txt'?, which does not exist") as info:
        read_corpus(corpus)
    assert str(info.value).startswith(f"{corpus / 'gone.txt'}: ")
    (corpus / "gone.txt").unlink()
    os.mkfifo(corpus / "pipe.txt")  # reading it would wait forever for a writer
    with pytest.raises(CorpusFormatError, match="not a regular file"):
        read_corpus(corpus)


def test_a_codec_refusing_the_whole_file_is_a_format_error_not_a_traceback(tmp_path):
    # Python's utf-16 codec raises UnicodeError for a file without a mark, whatever the error
    # handler (3.13: a UnicodeDecodeError, like an undecodable byte, with its own wording)
    file = write(tmp_path / "de.txt", "Der Hund bellt. Die Katze schläft.\n")
    for reader in (read_text, read_jsonl, read_csv):
        with pytest.raises(CorpusFormatError, match="cannot decode the file as 'utf-16' at byte offset 0 "
                                                    r"\((UTF-16 s|S)tream does not start with BOM\)") as info:
            list(reader(file, encoding="utf-16", encoding_errors="replace"))  # no handler helps
        assert str(info.value).startswith(f"{file}:1: ")
        assert "encoding_errors" not in str(info.value)


@pytest.mark.parametrize("delimiter, name", [(";", "semicolon"), ("\t", "tab")])
def test_a_header_read_as_one_column_names_the_delimiter_it_holds(tmp_path, delimiter, name):
    # Excel in most European locales saves "CSV" with semicolons (and a byte-order mark, CRLF ends):
    # read so when the header names a text column split at it (with a note), else refused with a hint
    file = tmp_path / "export.csv"
    rows = [["text", "label"], ["Hello.", "1"], ["News.", "2"]]
    file.write_bytes("".join(delimiter.join(row) + "\r\n" for row in rows).encode("utf-8-sig"))
    with pytest.warns(CorpusWarning, match=f"read with a {name} as the delimiter: the header holds no comma and names "
                      f"its columns so{' [(]as Excel saves' if delimiter == ';' else ';'}"):
        (found,) = read_csv(file)
    (doc,) = read_csv(file, delimiter=delimiter)
    assert doc.units == found.units == ("Hello.", "News.") and bounds(doc) == bounds(found) == [(1,)]
    file.write_bytes("".join(delimiter.join(["body", *row[1:]]) + "\r\n" for row in rows).encode("utf-8-sig"))
    with pytest.raises(CorpusFormatError, match=f"the header is one column holding a {name}, probably the delimiter"):
        list(read_csv(file))


def test_a_european_excel_transcript_is_read_with_its_semicolons_and_decimal_commas(tmp_path):
    """Before, a meeting transcript saved by Excel in a locale whose decimal separator is a comma
    (semicolons between cells, times such as 2,5, a byte-order mark, CRLF ends) stopped at the
    header ("probably the delimiter (pass it as [corpus] delimiter)": `stability run` has no flag for
    it, a config file was needed), then at its times ("expected a number of seconds ... received
    '0,5'"). A header that names a text column once split at another usual delimiter, and at none
    under the default, is now read with it, with a note; a time with a decimal comma is read as
    such in a file not delimited by commas, where it cannot be two cells."""
    rows = [["Start", "End", "Speaker", "Text"], ["0", "2,5", "Ann", "Hallo zusammen."],
            ["2,5", "6,25", "Bo", '"Guten Tag; wie geht es?"'], ["6,25", "8", "", "Gut."]]
    file = tmp_path / "sitzung.csv"
    file.write_bytes("".join(";".join(row) + "\r\n" for row in rows).encode("utf-8-sig"))
    with pytest.warns(CorpusWarning, match=r"sitzung\.csv: read with a semicolon as the delimiter: the header "
                      r"holds no comma and names its columns so.*pass delimiter="):
        (doc,) = read_corpus(file)
    assert doc.units == ("Hallo zusammen.", "Guten Tag; wie geht es?", "Gut.")
    assert doc.times == ((0.0, 2.5), (2.5, 6.25), (6.25, 8.0)) and doc.meta["speakers"] == ("Ann", "Bo", None)
    assert doc.meta["notes"][0].startswith("read with a semicolon as the delimiter")
    with warnings.catch_warnings():  # the delimiter given: no note, the same document
        warnings.simplefilter("error", CorpusWarning)
        (given,) = read_csv(file, delimiter=";")
    assert (given.units, given.times, given.meta["notes"]) == (doc.units, doc.times, [])
    # on the command line, without a config file
    result = CliRunner().invoke(app, ["run", "--corpus", str(file), "-s", "even", "--restarts", "2", "--no-progress",
                                      "--report-format", "json"])
    assert result.exit_code == 0, result.output
    # a comma in a time of a comma-delimited file (quoted) is no decimal separator: still refused
    commas = write(tmp_path / "commas.csv", 'start,end,text\n0,"1,5",Hello.\n')
    with pytest.raises(CorpusFormatError, match=r"commas\.csv:2: .*expected a number of seconds in column 'end'"):
        list(read_csv(commas))
    # a one-column header naming no text column either way is still refused, with the hint
    with pytest.raises(CorpusFormatError, match="the header is one column holding a semicolon, probably the delimiter"):
        list(read_csv(write(tmp_path / "other.csv", "id;body\na;Hello.\n")))


def test_utf16_without_a_byte_order_mark_is_not_read_as_text_full_of_nul_characters(tmp_path):
    # ASCII text in UTF-16 without a mark decodes as UTF-8 without error, every other character a
    # NUL: it was read silently, units and all full of NULs
    file = tmp_path / "notes.txt"
    file.write_bytes("One sentence here. Another one there.\n\nA second paragraph.\n".encode("utf-16-le"))
    with pytest.raises(CorpusFormatError, match=r"notes.txt:1: the text read as 'utf-8' holds NUL characters: "
                                                r"it is UTF-16 without a byte-order mark \(pass encoding='utf-16-le'"):
        list(read_corpus(file))
    docs = list(read_corpus(file, encoding="utf-16-le"))
    assert docs and all("\0" not in unit for unit in docs[0].units)


def test_a_folder_leaves_out_files_without_text_with_one_warning(tmp_path):
    """A site's pages or a folder of transcripts with one empty file: the file is left out with a
    warning naming it and why, the others are read (the run stopped at the first such file). Per
    format: blank text, a Markdown page of code only with code dropped, an empty JSON lines file,
    an empty CSV, a Choi file of separators only."""
    cases = {
        "text": ({"a.txt": "One. Two.\n", "b.txt": "\n \n"}, {}, "expected some text; the file is empty or blank"),
        "markdown": ({"a.md": "# T\n\nSome text.\n", "b.md": "# Only code\n\n```\nx = 1\n```\n"}, {"code": "drop"},
                     "expected some text besides headings and code; the file has none"),
        "jsonl": ({"a.jsonl": '{"units": ["x"]}\n', "b.jsonl": ""}, {}, "the file is empty or blank"),
        "csv": ({"a.csv": "text\nx\n", "b.csv": ""}, {}, "expected a header row naming the columns; the file is empty"),
        "choi": ({"a.ref": f"{SEP}\nx\n{SEP}\n", "b.ref": f"{SEP}\n{SEP}\n"}, {}, "the file has none"),
    }
    for format, (files, options, reason) in cases.items():
        folder = tmp_path / format
        folder.mkdir()
        for name, text in files.items():
            write(folder / name, text)
        with pytest.warns(CorpusWarning, match=r"1 file\(s\) without text to segment left out of the corpus: b\.\w+ \(") as seen:
            docs = list(read_corpus(folder, **options))
        assert len(docs) == 1 and docs[0].meta["source"].endswith(f"a.{next(iter(files)).rsplit('.', 1)[1]}"), format
        assert any("left out" in str(w.message) and reason in str(w.message) for w in seen), format
        # the same file given alone is still an error
        with pytest.raises(CorpusFormatError, match=rf"b\.\w+(:1)?: .*{reason[-12:]}"):
            list(read_corpus(folder / next(name for name in files if name.startswith("b")), **options))


def test_a_folder_of_files_without_text_is_an_error_naming_them(tmp_path):
    for name in ("x.txt", "y.txt"):
        write(tmp_path / name, "")
    with pytest.raises(CorpusFormatError, match=r"expected a file with text to segment; none of its 2 file\(s\) has any: "
                                                r"x\.txt \(expected some text.*\); y\.txt \(") as info:
        list(read_corpus(tmp_path))
    assert str(tmp_path) in str(info.value)


def test_files_left_out_do_not_count_towards_the_limit(tmp_path):
    for name, text in (("1.txt", ""), ("2.txt", "Two.\n"), ("3.txt", "Three.\n")):
        write(tmp_path / name, text)
    with pytest.warns(CorpusWarning, match=r"1\.txt"):
        assert [d.id for d in read_corpus(tmp_path, limit=2)] == ["2.txt", "3.txt"]


def test_run_on_a_folder_with_an_empty_page_warns_and_goes_on(tmp_path):
    write(tmp_path / "a.txt", "Cats purr. Dogs bark.\n\nStocks fell. Markets sank.\n")
    write(tmp_path / "b.txt", "")
    result = CliRunner().invoke(app, ["run", "--corpus", str(tmp_path), "-s", "even,n_segments=2", "--restarts", "2",
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "left out of the corpus: b.txt (expected some text; the file is empty or blank)" in result.stderr
    assert "1 documents" in result.stdout or "1 document" in result.stdout


def test_a_pattern_given_with_one_file_is_said_not_to_be_used(tmp_path):
    # [corpus] pattern = "*.md" beside path = "notes.txt" was ignored without a word
    file = write(tmp_path / "notes.txt", "One sentence here. Another one.\n\nA second paragraph.\n")
    with pytest.warns(CorpusWarning, match=r"notes.txt: pattern= selects files in a folder; this is one file, "
                                           r"read whatever its name \(pattern '\*.md' not used\)"):
        (doc,) = read_corpus(file, pattern="*.md")
    assert len(doc.units) == 3


def test_times_in_milliseconds_read_as_seconds_are_noted(tmp_path):
    """A CSV or JSON transcript whose times are milliseconds was read as seconds in silence: 3-second
    utterances written 2800 lasted 47 minutes each, and a 5-minute meeting 83 hours (CovD and the
    reports' boundary times with it). A median unit over 120 s is noted, naming the option; a
    unit given, or units of seconds, are read without a note."""
    rows = [(0, 2800), (2850, 5650), (5700, 6900)]  # three utterances, in milliseconds
    csv_file = write(tmp_path / "meeting.csv", "speaker,start,end,text\n" + "".join(
        f"Ann,{start},{end},Said {k}.\n" for k, (start, end) in enumerate(rows)))
    with pytest.warns(CorpusWarning, match=r"meeting\.csv: times read in seconds, yet the units last 2800 s on median "
                      r"\(47 min; 1 h 55 min in all\): if the times are milliseconds, pass time_unit='ms' \(--time-unit ms\)"):
        (doc,) = read_corpus(csv_file)
    assert doc.times[0] == (0.0, 2800.0) and len(doc.meta["notes"]) == 1
    json_file = write(tmp_path / "meeting.jsonl", json.dumps(
        {"id": "m1", "units": ["a", "b", "c"], "times": [list(pair) for pair in rows]}) + "\n")
    with pytest.warns(CorpusWarning, match=r"meeting\.jsonl:1: times read in seconds, yet the units last 2800 s.*"
                      r"pass 'times' in seconds \(the milliseconds divided by 1000\)"):
        (doc,) = read_corpus(json_file)
    assert len(doc.meta["notes"]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        (ms,) = read_corpus(csv_file, time_unit="ms")
        assert ms.times[0] == (0.0, 2.8)
        (given,) = read_corpus(csv_file, time_unit="s")  # the user's word
        assert given.times[0] == (0.0, 2800.0) and given.meta["notes"] == []
        seconds = write(tmp_path / "s.csv", "start,end,text\n0,2.8,A.\n2.85,5.65,B.\n5.7,200,C.\n")
        assert next(iter(read_corpus(seconds))).meta["notes"] == []


def test_a_column_naming_the_meetings_not_read_as_the_document_column_is_noted(tmp_path):
    """Utterances of two meetings in one CSV, their column named `meeting` (not one of the document
    column's names), were read as one document in silence: segmenters then found the boundary
    between the meetings, and the reference metrics counted it. A column named so whose values
    run in blocks of rows is noted, naming document_column; an id a row, a speaker column, or
    the column read as the document column, are not."""
    rows = [("m1", "Ann", "Budget first."), ("m1", "Bo", "Then roads."), ("m2", "Ann", "Coffee now."),
            ("m2", "Cy", "Roasting beans.")]
    file = write(tmp_path / "meetings.csv", "meeting_id,speaker,text\n" + "".join(",".join(r) + "\n" for r in rows))
    with pytest.warns(CorpusWarning, match=r"meetings\.csv: the rows were read as one document, yet column 'meeting_id' "
                      r"holds 2 values in blocks of rows \('m1', \.\.\.\): if it names the documents, pass "
                      r"document_column='meeting_id'"):
        (doc,) = read_corpus(file)
    assert len(doc.units) == 4 and len(doc.meta["notes"]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        assert [d.id for d in read_corpus(file, document_column="meeting_id")] == ["m1", "m2"]
        ids = write(tmp_path / "ids.csv", "id,speaker,text\n" + "".join(f"{k},{r[1]},{r[2]}\n" for k, r in enumerate(rows)))
        assert next(iter(read_corpus(ids))).meta["notes"] == []


def test_a_quoted_transcript_cell_over_two_lines_with_a_comma_is_not_taken_for_merged_rows(tmp_path):
    """Before, any quoted cell over several lines holding one comma was warned about as 'probably
    an unbalanced double quote that merged those rows': a meeting export's well-quoted turn
    ``"Hello,\\nworld."`` in a four-column CSV got it. A stray quote merges the rest of its row and
    the start of the next into the cell, so the cell holds a row's cell separators at least (three
    here); this one holds one, and is read without a warning."""
    fine = write(tmp_path / "meeting.csv", 'Start,End,Speaker,Text\n0,1,Alice,"Hello,\nworld."\n1,2,Bob,Hi.\n')
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        assert next(read_corpus(fine)).units == ("Hello,\nworld.", "Hi.")
    # the stray quote of the same file still is: its cell holds the next row's three commas
    stray = write(tmp_path / "stray.csv", 'Start,End,Speaker,Text\n0,1,Alice,"Hello, world.\n1,2,Bob,Hi."\n'
                                          '2,3,Alice,Bye.\n')
    with pytest.warns(CorpusWarning, match=r"stray\.csv:2: a quoted cell runs over lines 2 to 3"):
        assert len(next(read_corpus(stray)).units) == 2
