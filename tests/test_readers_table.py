"""The format table drives detection, dispatch, option checks, messages and config keys.

A tiny format registered here (one reader, one sniffer, one row) must be detected, read, given its
own option and appear in read_corpus's signature and a config's ``[corpus]`` keys, with no other
change anywhere: that is what "a new format is one module plus one table row" means.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from stability import CorpusFormatError, Document, InvalidParameterError
from stability.config import _corpus_keys
from stability.readers import (
    FORMAT_TABLE,
    FORMATS,
    CorpusFormat,
    detect_format,
    read_corpus,
    register_format,
    unregister_format,
)
from stability.readers.common import make_document, open_source, stream_files
from stability.readers.formats import COMMON_OPTIONS


def read_colon(path, *, separator: str = "::", encoding="utf-8", encoding_errors="strict", pattern=None, limit=None):
    """A toy format: one document per file, units separated by ``separator`` on one line."""
    source = open_source(
        path, encoding=encoding, encoding_errors=encoding_errors, pattern=pattern, limit=limit,
        default_patterns=("*.colon",),
    )

    def parse(doc_id, file):
        text = "".join(source.lines(file))
        units = tuple(text.split(separator))
        return [make_document(file, None, id=doc_id, units=units, meta={"format": "colon", "source": str(file)})]

    return stream_files(source, parse)


def sniff_colon(file, codec, errors):
    first = next(iter(Path(file).read_text(encoding=codec).splitlines()), "")
    return "a line starting with 'COLON:'" if first.startswith("COLON:") else None


@pytest.fixture
def colon_format():
    row = CorpusFormat(
        "colon", read_colon, extensions=(".colon",), sniff=sniff_colon, marker="'COLON:' lines", aliases=("col",)
    )
    register_format(row)
    try:
        yield row
    finally:
        unregister_format("colon")


def test_a_registered_format_is_detected_read_and_configured(tmp_path, colon_format):
    by_extension = tmp_path / "a.colon"
    by_extension.write_text("x::y::z")
    by_content = tmp_path / "b"
    by_content.write_text("COLON:one;two")
    assert detect_format(by_extension) == "colon"
    assert detect_format(by_content) == "colon"  # the row's sniffer is asked, in table order
    assert detect_format(tmp_path) == "colon"  # a directory: the row's extension
    assert [d.units for d in read_corpus(by_extension)] == [("x", "y", "z")]
    # the format's own option reaches its reader, and aliases come from the row
    assert next(read_corpus(by_content, "COL", separator=";")).units == ("COLON:one", "two")
    # ... and is part of read_corpus's signature, hence of a config's [corpus] keys
    assert "separator" in inspect.signature(read_corpus).parameters
    assert "separator" in _corpus_keys()
    # an option of the new format given to another one says which format takes it
    with pytest.raises(InvalidParameterError, match="separator applies only to format 'colon'"):
        read_corpus(by_extension, "text", separator=";")
    with pytest.raises(InvalidParameterError, match="format must be None .*colon"):
        read_corpus(by_extension, "xml")


def test_unregistering_restores_the_table_and_the_signature(tmp_path, colon_format):
    unregister_format("colon")
    try:
        assert "colon" not in FORMAT_TABLE
        assert "separator" not in inspect.signature(read_corpus).parameters
        with pytest.raises(InvalidParameterError, match="has no option 'separator'"):
            read_corpus(tmp_path, separator=";")
    finally:
        register_format(colon_format)  # the fixture removes it again
    with pytest.raises(InvalidParameterError, match="already in the table"):
        register_format(colon_format)
    with pytest.raises(InvalidParameterError, match=r"\['json'\] are already in the table"):
        register_format(CorpusFormat("other", read_colon, aliases=("json",)))
    with pytest.raises(InvalidParameterError, match="register_format"):
        unregister_format("choi")  # built-in rows stay


def test_the_undetectable_message_lists_the_table(tmp_path, colon_format):
    (tmp_path / "data.bin").write_text("nothing\n")
    with pytest.raises(CorpusFormatError) as info:
        detect_format(tmp_path)
    message = str(info.value)
    for row in FORMAT_TABLE.values():
        assert row.name in message
        for suffix in row.extensions + row.weak_extensions:
            assert suffix in message
        if row.marker:
            assert row.marker in message


def test_read_corpus_signature_is_the_union_of_the_readers_options():
    parameters = inspect.signature(read_corpus).parameters
    options = {name for row in FORMAT_TABLE.values() for name in row.options}
    assert options >= {"levels", "unit", "splitter", "blank_lines", "text_column", "delimiter"}
    assert set(parameters) == {"path", "format", *COMMON_OPTIONS, *options}
    assert all(parameters[name].default is None for name in options)
    assert all(parameters[name].kind is inspect.Parameter.KEYWORD_ONLY for name in options)
    # every reader takes the common options with the same defaults as read_corpus
    for row in FORMAT_TABLE.values():
        reader = inspect.signature(row.reader).parameters
        for name in COMMON_OPTIONS:
            assert reader[name].default == parameters[name].default, (row.name, name)
    with pytest.raises(InvalidParameterError, match="did you mean 'levels'"):
        read_corpus(".", levles=[1])


def test_formats_constant_and_writers_follow_the_table(tmp_path):
    assert FORMATS == tuple(FORMAT_TABLE) == ("choi", "wiki", "jsonl", "csv", "chen", "subtitles", "markdown", "rst", "html",
                                                 "text")
    assert [row.name for row in FORMAT_TABLE.values() if row.fallback] == ["text"]
    doc = Document("d.ref", ("a", "b", "c"), references=([1],))
    for row in FORMAT_TABLE.values():
        if row.writer is None:
            continue
        target = tmp_path / row.name / ("out" + (row.extensions[0] if row.name != "choi" else ""))
        target.parent.mkdir()
        assert row.writer([doc], target) == 1
        (back,) = read_corpus(target if target.exists() else target.parent)
        assert back.units == doc.units and back.references == doc.references, row.name

