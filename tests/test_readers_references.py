"""JSON lines references: boundary lists, segment sizes, and keys that only look like references."""

from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from stability import CorpusFormatError, CorpusWarning, Segmentation
from stability.readers import read_corpus, read_jsonl


def jsonl(tmp_path, *records, name="c.jsonl"):
    file = tmp_path / name
    file.write_text("".join(json.dumps(r) + "\n" for r in records))
    return file


UNITS = [f"u{i}" for i in range(16)]


@pytest.mark.parametrize(
    "key, value, expected",
    [
        # sizes [4, 6, 6] -> segments start at units 0, 4, 10 -> boundaries (4, 10)
        ("segments", [4, 6, 6], [(4, 10)]),
        ("masses", [4, 6, 6], [(4, 10)]),
        ("segments", [[4, 6, 6], [16]], [(4, 10), ()]),
        ("boundaries", [4, 10], [(4, 10)]),
        ("boundaries", [[4, 10], [8]], [(4, 10), (8,)]),
        ("boundaries", [], [()]),
        ("references", [[4, 10]], [(4, 10)]),
        ("references", [], []),
        # labels: a change of label starts a segment, as Segmentation.from_labels and CSV label columns read them
        ("labels", ["a"] * 4 + ["b"] * 6 + ["c"] * 6, [(4, 10)]),
        ("labels", [[0] * 4 + [1] * 6 + [0] * 6, [2.5] * 16], [(4, 10), ()]),
    ],
)
def test_reference_keys(tmp_path, key, value, expected):
    (doc,) = read_jsonl(jsonl(tmp_path, {"id": "a", "units": UNITS, key: value}))
    assert [r.boundaries for r in doc.references] == expected
    assert key not in doc.meta and doc.meta["notes"] == []


@pytest.mark.parametrize(
    "record, expected",
    [
        ({"segments": [4, 6, 5]}, r"segments\[0\] must be segment sizes .* 16 units; received \[4, 6, 5\] \(sum 15\)"),
        ({"segments": [4, 0, 12]}, r"segments\[0\] must be segment sizes \(integers >= 1\)"),
        ({"segments": []}, r"segments\[0\] must be segment sizes"),
        ({"masses": [[16], [8, 7]]}, r"masses\[1\] must be segment sizes"),
        ({"segments": [4.0, 12]}, r"segments\[0\] must be a list of integer sizes"),
        ({"segments": "4 6 6"}, r"'segments' must be a list of size lists"),
        ({"boundaries": [4, [10]]}, r"boundaries\[0\] must be a list of integer boundaries"),
        ({"boundaries": [16]}, "must lie in 1..15"),
        ({"segments": [16], "references": [[3]]}, "expected references in one key; received 'segments', 'references'"),
        ({"labels": ["a"] * 15}, r"labels\[0\] must hold one label per unit of the document's 16 units; received 15 labels"),
        ({"labels": ["a"] * 15 + [None]}, r"labels\[0\] must be a list of segment labels .*; labels\[0\]\[15\] is None"),
        ({"labels": [["a"] * 16, ["a"] * 15 + [True]]}, r"labels\[1\]\[15\] is True"),
        ({"labels": "aabb"}, r"'labels' must be a list of label lists, one per annotator \(e\.g\. \[\[\"intro\""),
        ({"labels": ["a"] * 16, "boundaries": [3]}, "expected references in one key; received 'labels', 'boundaries'"),
    ],
)
def test_reference_errors_name_file_line_and_key(tmp_path, record, expected):
    file = jsonl(tmp_path, {"units": ["ok"]}, {"id": "a", "units": UNITS, **record})
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_corpus(file))
    assert str(info.value).startswith(f"{file}:2: ")


@pytest.mark.parametrize(
    "key, hint",
    [
        ("label", "did you mean 'labels'"),
        ("gold", ""),
        ("reference", "did you mean 'references'"),
        ("segmentation", ""),
        ("sizes", ""),
        ("boundary", "did you mean 'boundaries'"),
        ("Segment", ""),
        ("referencse", "did you mean 'references'"),
    ],
)
def test_keys_that_look_like_references_warn_with_file_and_line(tmp_path, key, hint):
    file = jsonl(tmp_path, {"units": ["x", "y"]}, {"id": "b", "units": ["x", "y"], key: [1]})
    with pytest.warns(CorpusWarning, match=rf"c\.jsonl:2: key '{key}' looks like a reference") as caught:
        docs = list(read_corpus(file))
    assert len(caught) == 1 and hint in str(caught[0].message)
    assert "'segments' or 'masses' (segment sizes)" in str(caught[0].message)
    assert docs[1].references == () and docs[1].meta[key] == [1]  # kept, not lost
    assert len(docs[1].meta["notes"]) == 1 and key in docs[1].meta["notes"][0]


def test_other_keys_stay_silently_in_meta(tmp_path):
    # a reference is a list: a 'topic' name or a 'segment_id' number is not one
    file = jsonl(tmp_path, {"units": ["x"], "title": "t", "url": "u", "topic": "sports", "segment_id": 3})
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        (doc,) = read_jsonl(file)
    assert (doc.meta["title"], doc.meta["topic"], doc.meta["segment_id"]) == ("t", "sports", 3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=6), min_size=1, max_size=3).filter(
    lambda refs: len({sum(r) for r in refs}) == 1
))
def test_sizes_and_boundaries_give_the_same_references(tmp_path, refs):
    n = sum(refs[0])
    units = [str(i) for i in range(n)]
    expected = [Segmentation.from_masses(r) for r in refs]
    as_boundaries = [list(s.boundaries) for s in expected]
    file = jsonl(
        tmp_path,
        {"id": "sizes", "units": units, "segments": refs},
        {"id": "boundaries", "units": units, "boundaries": as_boundaries},
        {"id": "references", "units": units, "references": as_boundaries},
        name="h.jsonl",
    )
    docs = list(read_jsonl(file))
    assert all(list(d.references) == expected for d in docs)


@pytest.mark.parametrize(
    "text, line",
    [
        ('{"id": "a", "units": ["x", "y"], "units": ["z"]}\n', 1),  # JSON lines
        ('{"id": "a", "units": ["x", "y"], "meta": {"k": 1, "k": 2}}\n', 1),  # a nested object too
        ('[\n  {"id": "a", "units": ["x"]},\n  {"id": "b", "units": ["x", "y"],\n   "units": ["z"]}\n]\n', 3),
    ],
)
def test_a_key_given_twice_is_an_error_not_a_value_lost(tmp_path, text, line):
    # json.loads keeps the last of two equal keys: the units ["x", "y"] were dropped silently
    file = tmp_path / "c.json"
    file.write_text(text)
    with pytest.raises(CorpusFormatError, match=r"key '(units|k)' appears twice in one object") as info:
        list(read_jsonl(file))
    assert str(info.value).startswith(f"{file}:{line}: ")


def test_null_units_are_named_as_null_not_as_missing(tmp_path):
    file = jsonl(tmp_path, {"id": "a", "units": None})
    with pytest.raises(CorpusFormatError, match="'units' must be a list of strings; received None"):
        list(read_jsonl(file))


def test_labels_are_read_as_csv_label_columns_read_them(tmp_path):
    """A JSON document with ``"labels"`` (one segment label per unit) lost its reference: the key
    was kept in meta with a warning ("looks like a reference but is not read as one"), though CSV
    label columns and Segmentation.from_labels read the same labels."""
    labels = ["intro", "intro", "body", "body", "body", "intro"]
    csv = tmp_path / "c.csv"
    csv.write_text("text,label\n" + "".join(f"u{i},{label}\n" for i, label in enumerate(labels)), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        (doc,) = read_jsonl(jsonl(tmp_path, {"id": "a", "units": UNITS[:6], "labels": labels}))
        (from_csv,) = read_corpus(csv)
    assert doc.references == from_csv.references == (Segmentation.from_labels(labels),)
    assert doc.references[0].boundaries == (2, 5)  # by hand: the label changes before units 2 and 5
