"""Chunker adapters (segmenters/chunkers.py): locating chunks, snapping, and each library offline."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import segmenters.chunkers as chunkers_module
from segmenters.chunkers import (
    ChunkerSegmenter,
    FixedChars,
    LangchainCharacter,
    LangchainRecursive,
    locate_chunks,
    offsets_to_compact,
    snap_to_units,
)
from stability import Document, get_segmenter
from stability.config import segmenter_option
from stability.exceptions import InvalidParameterError, InvalidTypeError, StabilityError
from stability.registry import describe_segmenters


# ---------------------------------------------------------------------------------------------
# snapping and locating, by hand
# ---------------------------------------------------------------------------------------------


def test_snap_rules_by_hand():
    # units of 2, 1 and 6 non-whitespace characters start at positions 0, 2 and 3
    assert snap_to_units([2, 1, 6], [0, 2]) == [1]  # exactly at unit 1
    # inside unit 0: 1 before, 1 after -> tie -> the earlier boundary, the document start: dropped
    assert snap_to_units([2, 1, 6], [0, 1]) == []
    assert snap_to_units([2, 1, 6], [0, 4]) == [2]  # inside unit 2: 1 before, 5 after -> 2
    assert snap_to_units([2, 1, 6], [0, 6]) == [2]  # 3 before, 3 after -> tie -> earlier (2)
    assert snap_to_units([2, 1, 6], [0, 7]) == []  # 4 before, 2 after -> end of the document, dropped
    assert snap_to_units([2, 1, 6], [0, 2, 3, 3]) == [1, 2]  # repeated starts give one boundary
    assert snap_to_units([3, 3], [9, -1]) == []  # out of the text: ignored


def test_snap_empty_units_stay_with_the_previous_segment():
    # unit 1 is empty; a start in unit 0 closer to its end goes to the next non-empty unit, 2
    assert snap_to_units([4, 0, 4], [0, 3]) == [2]
    # leading empty units belong to the first segment: a start at the first character is no boundary
    assert snap_to_units([0, 0, 3, 3], [0, 3]) == [3]
    assert snap_to_units([0, 3, 0], [0, 1]) == []  # a single non-empty unit


def test_locate_tiling_overlapping_and_normalised_chunks():
    text = "ab cd\nef gh"
    assert locate_chunks(text, ["ab cd", "ef gh"]) == [0, 4]
    assert locate_chunks(text, ["ab", "cd ef", "gh"]) == [0, 2, 6]
    assert locate_chunks(text, ["ab cd ef", "ef gh"]) == [0, 4]  # overlap: after the previous start
    assert locate_chunks(text, ["ab  cd", " ", "ef\ngh "]) == [0, 4]  # whitespace changed / blank chunk
    assert locate_chunks(text, ["ab", "ef gh"]) == [0, 4]  # "cd" dropped between chunks
    # repeated text: a tiling chunk is placed right after its predecessor, not at the first repeat
    assert locate_chunks("aa aa aa aa", ["aa aa", "aa aa"]) == [0, 4]


def test_locate_refuses_what_is_not_in_the_text():
    with pytest.raises(InvalidParameterError, match="chunk 1 'zz'"):
        locate_chunks("ab cd", ["ab", "zz"])
    with pytest.raises(InvalidParameterError, match="chunker"):
        locate_chunks("ab cd", ["cd", "ab"])  # out of order
    with pytest.raises(InvalidTypeError, match="chunker output"):
        locate_chunks("ab cd", "ab cd")
    with pytest.raises(InvalidTypeError, match="chunk 0"):
        locate_chunks("ab cd", [b"ab"])


def test_offsets_to_compact():
    # "ab cd\n ef": non-whitespace positions of offsets 0, 2 (a space), 3, 6 (a space), 9 (end)
    assert offsets_to_compact("ab cd\n ef", [0, 2, 3, 6, 9]) == [0, 2, 2, 4]
    with pytest.raises(InvalidParameterError, match="chunk offset"):
        offsets_to_compact("ab", [5])


def test_fixed_chars_by_hand():
    # text "aaaa\nbb\ncccc\nd" (14 characters); chunks of 5: "aaaa\n", "bb\ncc", "cc\nd"
    # starts at non-whitespace positions 0, 4 (unit 1 exactly) and 8 (unit 2, 2 before / 2 after: tie)
    assert FixedChars(chunk_size=5)(["aaaa", "bb", "cccc", "d"]) == [1, 2]
    # with "\n\n\n": chunks "aaaa\n", "\n\nbb\n", "\n\nccc", "c\n\n\nd" start at non-whitespace
    # positions 0, 4 (unit 1), 6 (unit 2) and 9 (unit 2, 3 before / 1 after: unit 3)
    assert FixedChars(chunk_size=5, unit_separator="\n\n\n")(["aaaa", "bb", "cccc", "d"]) == [1, 2, 3]
    assert FixedChars(chunk_size=100)(["aaaa", "bb"]) == []
    assert FixedChars(chunk_size=1)(["a", "", "b", " "]) == [2]


@pytest.mark.parametrize(
    "params, name",
    [
        ({"chunk_size": 0}, "chunk_size"),
        ({"chunk_size": True}, "chunk_size"),
        ({"unit_separator": ""}, "unit_separator"),
        ({"unit_separator": " x "}, "unit_separator"),
    ],
)
def test_fixed_chars_bad_parameters(params, name):
    with pytest.raises(StabilityError, match=name):
        FixedChars(**params)


def test_generic_adapter_refuses_a_non_callable():
    with pytest.raises(InvalidTypeError, match="chunker"):
        ChunkerSegmenter("not a function")


@pytest.mark.filterwarnings("ignore:.*by the units' lengths:stability.SettingsWarning")  # run without the layout control on purpose
def test_a_segmenter_returning_chunk_texts_is_told_how_to_wrap_its_chunker():
    """A chunker given as a segmenter (its chunks returned instead of boundaries) failed with
    "boundaries[0] must be an integer; received str ...", which does not say what to do."""
    from stability import evaluate

    def pack(text):
        lines = text.split("\n")
        return ["\n".join(lines[i:i + 2]) for i in range(0, len(lines), 2)]

    units = [f"unit {i} says something" for i in range(8)]
    result = evaluate({"texts": lambda units: pack("\n".join(units)), "numbers": lambda units: [1.5]},
                      [units], n_restarts=2, progress=False)
    errors = {f.segmenter: f.error for f in result.failures}
    assert "must be an integer" in errors["texts"]
    assert "returned strings (chunk texts?)" in errors["texts"] and "ChunkerSegmenter(chunker)" in errors["texts"]
    assert "ChunkerSegmenter" not in errors["numbers"]
    wrapped = evaluate({"pack": ChunkerSegmenter(pack)}, [units], n_restarts=2, progress=False)
    assert not wrapped.failures and wrapped.documents["pack"][0].segmentation.boundaries == (2, 4, 6)


def test_generic_adapter_skips_documents_without_two_units():
    def fail(text):
        raise AssertionError("the chunker must not be called")

    seg = ChunkerSegmenter(fail)
    assert seg([]) == [] and seg(["only one"]) == [] and seg(["", "  ", "x"]) == []


_UNIT = st.lists(st.sampled_from(["ab", "c", "dd-e", "f.", "\u00e9t\u00e9", "\U0001f600"]), max_size=4).map(" ".join)


@settings(max_examples=80, deadline=None)
@given(units=st.lists(_UNIT, min_size=1, max_size=25), data=st.data())
def test_chunks_cut_at_unit_starts_give_exactly_those_boundaries(units, data):
    """Property: a chunker cutting the text at the start of chosen units (and normalising the
    newlines it keeps into spaces) yields exactly the chosen units as boundaries."""
    nonempty = [i for i, u in enumerate(units) if u.strip()]
    chosen = sorted(data.draw(st.sets(st.sampled_from(nonempty[1:])) if len(nonempty) > 1 else st.just(set())))
    separator = data.draw(st.sampled_from(["\n", " ", "\n\n"]))
    text = separator.join(units)
    starts = [sum(len(u) + len(separator) for u in units[:i]) for i in chosen]

    def cutter(t):
        assert t == text
        edges = [0, *starts, len(t)]
        return [t[a:b].replace("\n", " ") for a, b in zip(edges, edges[1:])]

    assert ChunkerSegmenter(cutter, unit_separator=separator)(units) == chosen


_GAP = st.text(st.sampled_from(" \n\t\u00a0\u2028"), min_size=1, max_size=4)  # whitespace, str.isspace


@settings(max_examples=80, deadline=None)
@given(units=st.lists(_UNIT, min_size=1, max_size=25), data=st.data())
def test_chunks_cut_at_unit_starts_give_exactly_those_boundaries_whatever_each_gaps_separator(units, data):
    """Property: with a separator of its own in every gap (the document's meta["unit_separators"]),
    a chunker cutting the text given to it at character spans starting at chosen units gives
    exactly those units as boundaries, and sees each gap's separator where the document put it."""
    gaps = data.draw(st.lists(_GAP, min_size=len(units) - 1, max_size=len(units) - 1))
    nonempty = [i for i, u in enumerate(units) if u.strip()]
    chosen = sorted(data.draw(st.sets(st.sampled_from(nonempty[1:])) if len(nonempty) > 1 else st.just(set())))
    text = "".join(u + g for u, g in zip(units, gaps)) + units[-1]  # independent of ChunkerSegmenter.joined
    starts = [sum(len(u) + len(g) for u, g in zip(units[:i], gaps)) for i in chosen]
    seen = []

    def spans(t):  # the chunks as character spans of the text it is given
        seen.append(t)
        edges = [0, *starts, len(t)]
        return [t[a:b] for a, b in zip(edges, edges[1:])]

    doc = Document("d", units, meta={"unit_separators": gaps, "unit_separator": "\n\n"})
    assert ChunkerSegmenter(spans).for_document(doc)(units) == chosen
    assert seen in ([], [text])  # not called with fewer than two non-empty units


def test_the_gaps_separators_are_used_kept_in_place_checked_and_recorded():
    from stability.segmenter import for_document, resolved_params

    seen: list[str] = []

    def whole(text):
        seen.append(text)
        return [text]

    units = ["One.", "- two", "- three", "Four."]
    doc = Document("page", units, meta={"unit_separator": "\n\n", "unit_separators": ["\n\n", "\n", "\n\n"]})
    given = ChunkerSegmenter(whole)
    resolved = for_document(given, doc)
    resolved(units)
    assert seen[-1] == "One.\n\n- two\n- three\n\nFour."
    resolved(units[::-1])  # a permutation moves the units, not the layout's gaps
    assert seen[-1] == "Four.\n\n- three\n- two\n\nOne."
    assert resolved_params(given, resolved) == {"unit_separator": ["\n\n", "\n"]}  # what was applied, longest first
    assert given.get_params()["unit_separator"] is None
    for_document(ChunkerSegmenter(whole, unit_separator=" "), doc)(units)  # a separator given wins
    assert seen[-1] == "One. - two - three Four."
    alike = Document("alike", units, meta={"unit_separator": " ", "unit_separators": ["\n"] * 3})
    assert resolved_params(given, for_document(given, alike)) == {"unit_separator": "\n"}  # one string, as before
    with pytest.raises(InvalidParameterError, match=r"unit_separators'\] of document 'short' holds 2 separators "
                       r"for 4 units: expected one per gap between two units, 3"):
        for_document(given, Document("short", units, meta={"unit_separators": ["\n", "\n"]}))
    with pytest.raises(InvalidParameterError, match=r"separator 1 \(between units 1 and 2\) of meta\['unit_separators'\] of document 'bad' must be"):
        for_document(given, Document("bad", units, meta={"unit_separators": ["\n", "x", "\n"]}))
    with pytest.raises(InvalidParameterError, match="called on 2 units: call for_document"):
        resolved(units[:2])


@settings(max_examples=60, deadline=None)
@given(units=st.lists(_UNIT, min_size=1, max_size=25), size=st.integers(1, 40))
def test_fixed_chars_boundaries_are_the_snapped_multiples(units, size):
    """Property: fixed_chars equals snapping the multiples of chunk_size, computed independently."""
    text = "\n".join(units)
    kept = np.cumsum([0] + [not c.isspace() for c in text])
    starts = [int(kept[i]) for i in range(0, len(text), size)]
    lengths = [sum(not c.isspace() for c in u) for u in units]
    assert FixedChars(chunk_size=size)(units) == snap_to_units(lengths, starts)


# ---------------------------------------------------------------------------------------------
# the libraries, offline (skipped when the extra is not installed)
# ---------------------------------------------------------------------------------------------

# 12 units of 49 characters (41 non-whitespace) and 9 words each: joined with "\n", two units take 99 characters and
# 18 words, three take 149 characters and 27 words.
LINES = [f"line {i:02d} of this document is surely longer enough." for i in range(12)]
assert all(len(line) == 49 and len(line.split()) == 9 for line in LINES)
PAIRS = [2, 4, 6, 8, 10]  # hand computation: every chunk holds two whole units


def test_langchain_recursive_keeps_whole_lines():
    pytest.importorskip("langchain_text_splitters")
    # 120 characters hold two lines (99) but not three (149); langchain cuts at "\n"
    assert get_segmenter("langchain_recursive", chunk_size=120)(LINES) == PAIRS


def test_langchain_recursive_takes_its_separators():
    pytest.importorskip("langchain_text_splitters")
    # ". " never occurs in these lines (each ends with "." and a newline): nowhere to cut, one chunk
    assert get_segmenter("langchain_recursive", chunk_size=120, separators=[". "])(LINES) == []
    assert get_segmenter("langchain_recursive", chunk_size=120, separators=["\n", " "])(LINES) == PAIRS
    spec = segmenter_option('langchain_recursive,chunk_size=120,separators=[". ", ","]')[1]
    segmenter = get_segmenter(spec.pop("segmenter"), **spec)
    assert segmenter.get_params()["separators"] == (". ", ",")  # a comma inside the array is not a parameter
    for bad in ("\n", [], [1]):
        with pytest.raises(StabilityError, match="separators must be a non-empty list of strings"):
            get_segmenter("langchain_recursive", separators=bad)


def test_langchain_recursive_overlap_starts_a_chunk_at_every_line():
    pytest.importorskip("langchain_text_splitters")
    # overlap of 60 characters: each chunk repeats the previous chunk's last line, so a chunk
    # starts at every line (the module's rule: every chunk start is a boundary)
    assert get_segmenter("langchain_recursive", chunk_size=120, chunk_overlap=60)(LINES) == list(range(1, 11))


def test_langchain_character_cuts_between_words():
    splitters = pytest.importorskip("langchain_text_splitters")
    seg = get_segmenter("langchain_character", chunk_size=120, separator="\n")
    assert seg(LINES) == PAIRS
    # between words, chunks ignore lines: compare with langchain's own chunks located by hand
    seg = get_segmenter("langchain_character", chunk_size=120)
    chunks = splitters.CharacterTextSplitter(separator=" ", chunk_size=120, chunk_overlap=0).split_text("\n".join(LINES))
    assert len(chunks) > 1
    expected, position = set(), 0
    for chunk in chunks[:-1]:  # each chunk ends where the next starts (no overlap)
        position += len("".join(chunk.split()))
        unit, left = divmod(position, 41)  # 41 non-whitespace characters per line
        expected.add(unit if left <= 41 - left else unit + 1)
    assert seg(LINES) == sorted(b for b in expected if 0 < b < len(LINES))


def test_langchain_oversize_warning_is_silenced_during_the_call(caplog):
    """langchain logs a warning for every chunk longer than chunk_size; in a run that is one
    line per chunk and per restart (727 lines on stderr for two Node.js pages and 3 restarts).
    The adapter silences it during its own call only: langchain's logger is left as it was."""
    import logging

    pytest.importorskip("langchain_text_splitters")
    seg = get_segmenter("langchain_character", chunk_size=60, separator="\n")
    lines = LINES[:4] + [" ".join(LINES[4:7])] + LINES[7:]  # one unit of 149 characters: an oversize chunk
    with caplog.at_level(logging.WARNING):
        assert seg(lines) == list(range(1, len(lines)))
    assert not [r for r in caplog.records if "longer than" in r.getMessage()]
    logger = logging.getLogger(chunkers_module.LANGCHAIN_LOGGER)
    assert logger.filters == []
    splitters = pytest.importorskip("langchain_text_splitters")
    with caplog.at_level(logging.WARNING):  # outside the adapter langchain still says it
        splitters.CharacterTextSplitter(separator="\n", chunk_size=60, chunk_overlap=0).split_text("\n".join(lines))
    assert [r for r in caplog.records if "longer than" in r.getMessage()]


def test_semchunk_with_a_word_counter():
    pytest.importorskip("semchunk")
    # 20 words hold two lines (18 words) but not three (27)
    assert get_segmenter("semchunk", chunk_size=20)(LINES) == PAIRS
    # an overlap of 9 words (one line) repeats each chunk's last line in the next: a chunk then
    # starts at every line, as langchain's overlap does (hand computation, 9 words a line)
    assert get_segmenter("semchunk", chunk_size=20, chunk_overlap=9)(LINES) == list(range(1, 11))
    with pytest.raises(InvalidParameterError, match=r"chunk_overlap must be an integer >= 0 and <= 19"):
        get_segmenter("semchunk", chunk_size=20, chunk_overlap=20)


@pytest.mark.parametrize("name", ["chonkie_recursive", "chonkie_sentence"])
def test_chonkie_character_tokenizer(name):
    pytest.importorskip("chonkie")
    assert get_segmenter(name, chunk_size=120)(LINES) == PAIRS


@pytest.mark.parametrize("name", ["chonkie_recursive", "chonkie_sentence"])
def test_chonkie_word_tokenizer(name):
    pytest.importorskip("chonkie")
    assert get_segmenter(name, chunk_size=20, tokenizer="word")(LINES) == PAIRS


def test_chonkie_refuses_tokenizers_that_need_a_download():
    with pytest.raises(InvalidParameterError, match="tokenizer"):
        chunkers_module.ChonkieRecursive(tokenizer="gpt2")
    with pytest.raises(InvalidParameterError, match="chunk_overlap"):
        chunkers_module.LangchainRecursive(chunk_size=10, chunk_overlap=10)


def test_chonkie_sentence_refuses_an_overlap_of_a_whole_chunk_when_built():
    """chonkie refuses it only when it chunks: every document of a run was a failure."""
    pytest.importorskip("chonkie")
    for overlap in (100, 500):
        with pytest.raises(InvalidParameterError, match=r"chunk_overlap must be an integer >= 0 and <= 99; received"):
            chunkers_module.ChonkieSentence(chunk_size=100, chunk_overlap=overlap)


def _snapped(starts, n_units=len(LINES), per_unit=41):
    """Hand snapping for LINES: a chunk start at non-whitespace position ``p`` lies in unit
    ``p // 41``, ``p % 41`` characters in; it joins that unit's start when at most half in (a tie
    goes to the earlier boundary), else the next one; the document's ends are no boundary."""
    expected = set()
    for position in starts:
        unit, left = divmod(position, per_unit)
        expected.add(unit if left <= per_unit - left else unit + 1)
    return sorted(b for b in expected if 0 < b < n_units)


def test_semantic_text_splitter_keeps_whole_lines():
    pytest.importorskip("semantic_text_splitter")
    # 120 characters hold two lines (99) but not three (149); 20 words hold two (18) but not three (27)
    assert get_segmenter("semantic_text_splitter", chunk_size=120)(LINES) == PAIRS
    assert get_segmenter("semantic_text_splitter", chunk_size=20, tokenizer="word")(LINES) == PAIRS
    # an overlap of 60 characters repeats each chunk's last line in the next: a chunk starts at every line
    assert get_segmenter("semantic_text_splitter", chunk_size=120, chunk_overlap=60)(LINES) == list(range(1, 11))
    # the range (100, 300): a chunk is cut once it holds 100 characters, so after three lines (149), not two (99)
    assert get_segmenter("semantic_text_splitter", chunk_size=300, min_chunk_size=100)(LINES) == [3, 6, 9]


# 12 units of three 4-letter words (12 non-whitespace characters) joined with " ": one run-on
# sentence, so a chunker can cut only between words, wherever its size says, inside units too
WORD_UNITS = [f"aa{i:02d} bb{i:02d} cc{i:02d}" for i in range(12)]


@pytest.mark.parametrize("tokenizer, size", [("character", 25), ("word", 5)])
def test_semantic_text_splitter_boundaries_are_its_own_chunks_snapped(tokenizer, size):
    """Chunks of five words start inside units: the boundaries are the library's own chunk
    offsets (``chunk_indices``, characters of the text) counted in non-whitespace characters and
    snapped by hand."""
    library = pytest.importorskip("semantic_text_splitter")
    text = " ".join(WORD_UNITS)
    splitter = (library.TextSplitter(size) if tokenizer == "character"
                else library.TextSplitter.from_callback(lambda chunk: len(chunk.split()), size))
    offsets = [offset for offset, _ in splitter.chunk_indices(text)]
    starts = [sum(not c.isspace() for c in text[:offset]) for offset in offsets]
    assert starts[:4] == [0, 20, 40, 60]  # five words of 4 characters a chunk (24 characters with spaces)
    expected = _snapped(starts, per_unit=12)
    # hand check of the first ones: 20 is 8 into unit 1 (8 > 4: unit 2), 40 is 4 into unit 3 (4 <= 8: unit 3)
    assert expected[:2] == [2, 3]
    segmenter = get_segmenter("semantic_text_splitter", chunk_size=size, tokenizer=tokenizer, unit_separator=" ")
    assert segmenter(WORD_UNITS) == expected


def test_semantic_text_splitter_parameters_are_recorded_and_checked():
    pytest.importorskip("semantic_text_splitter")
    segmenter = get_segmenter("semantic_text_splitter", chunk_size=300, min_chunk_size=100, chunk_overlap=99,
                              tokenizer="word", unit_separator=" ")
    assert segmenter.get_params() == {"chunk_size": 300, "chunk_overlap": 99, "min_chunk_size": 100,
                                      "tokenizer": "word", "unit_separator": " "}
    assert get_segmenter("semantic_text_splitter").get_params() == {
        "chunk_size": 1000, "chunk_overlap": 0, "min_chunk_size": None, "tokenizer": "character", "unit_separator": None}
    # the library refuses an overlap of the capacity's lower end or more, but only when it is built
    with pytest.raises(InvalidParameterError, match=r"chunk_overlap must be an integer >= 0 and <= 99; received 100"):
        get_segmenter("semantic_text_splitter", chunk_size=300, min_chunk_size=100, chunk_overlap=100)
    with pytest.raises(InvalidParameterError, match=r"min_chunk_size must be an integer >= 1 and <= 300; received 301"):
        get_segmenter("semantic_text_splitter", chunk_size=300, min_chunk_size=301)
    with pytest.raises(InvalidParameterError, match="tokenizer"):
        get_segmenter("semantic_text_splitter", tokenizer="gpt2")


def test_llamaindex_sentence_keeps_whole_lines():
    pytest.importorskip("llama_index.core")
    # 20 words hold two lines (18) but not three (27); 120 characters hold two lines (99), not three
    assert get_segmenter("llamaindex_sentence", chunk_size=20)(LINES) == PAIRS
    assert get_segmenter("llamaindex_sentence", chunk_size=120, tokenizer="character")(LINES) == PAIRS
    # an overlap of 9 words repeats each chunk's last line (one sentence) in the next
    assert get_segmenter("llamaindex_sentence", chunk_size=20, chunk_overlap=9)(LINES) == list(range(1, 11))
    assert get_segmenter("llamaindex_sentence", chunk_size=20, chunk_overlap=9, tokenizer="character").get_params() == {
        "chunk_size": 20, "chunk_overlap": 9, "tokenizer": "character", "unit_separator": None}
    with pytest.raises(InvalidParameterError, match=r"chunk_overlap must be an integer >= 0 and <= 19; received 20"):
        get_segmenter("llamaindex_sentence", chunk_size=20, chunk_overlap=20)


def test_llamaindex_sentence_boundaries_are_its_own_chunks_snapped(monkeypatch):
    """Chunks of five words start inside units: the boundaries are llama-index's own chunks (with
    its default sentence splitting, given an untrained Punkt as its nltk helper builds one)
    placed end to end in non-whitespace characters and snapped by hand."""
    pytest.importorskip("llama_index.core")
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.core.utils import globals_helper
    from nltk.tokenize import PunktSentenceTokenizer

    monkeypatch.setattr(globals_helper, "_punkt_tokenizer", PunktSentenceTokenizer())  # no nltk data check
    for text in (" ".join(WORD_UNITS), "\n".join(LINES)):
        chunks = SentenceSplitter(chunk_size=5, chunk_overlap=0, tokenizer=str.split).split_text(text)
        # the adapter's sentence splitting is llama-index's default
        assert get_segmenter("llamaindex_sentence", chunk_size=5).chunker(text) == chunks
    chunks = SentenceSplitter(chunk_size=5, chunk_overlap=0, tokenizer=str.split).split_text(" ".join(WORD_UNITS))
    starts, position = [], 0
    for chunk in chunks:  # no overlap: each chunk starts where the previous one ends
        starts.append(position)
        position += len("".join(chunk.split()))
    assert starts[:4] == [0, 20, 40, 60]  # five words of 4 characters a chunk
    expected = _snapped(starts, per_unit=12)
    assert expected[:2] == [2, 3]  # as for semantic_text_splitter: 20 -> unit 2, 40 -> unit 3
    assert get_segmenter("llamaindex_sentence", chunk_size=5, unit_separator=" ")(WORD_UNITS) == expected


def test_llamaindex_sentence_downloads_nothing(monkeypatch, tmp_path):
    """llama-index's default sentence splitting checks for nltk data first and downloads it into
    NLTK_DATA (or a cache in the home folder) when it is not there, and its default token counter
    is tiktoken's, whose encodings are downloaded: offline both fail. The adapter uses neither."""
    pytest.importorskip("llama_index.core")
    import nltk
    from llama_index.core.utils import globals_helper

    def no_download(*args, **kwargs):
        raise AssertionError("nothing may be downloaded")

    monkeypatch.setattr(globals_helper, "_punkt_tokenizer", None)  # as in a fresh process
    monkeypatch.setattr(globals_helper, "_stopwords", None)
    monkeypatch.setattr(nltk, "download", no_download)
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    assert get_segmenter("llamaindex_sentence", chunk_size=20)(LINES) == PAIRS
    assert list(tmp_path.iterdir()) == []


def test_chunkers_extra_gathers_the_extras_it_names():
    """pyproject's `chunkers` extra (what CI installs) holds exactly the requirements of
    CHUNKERS_EXTRAS; every adapter's extra exists and every adapter is registered by name."""
    import inspect
    from pathlib import Path

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    assert sorted(extras["chunkers"]) == sorted(req for extra in chunkers_module.CHUNKERS_EXTRAS for req in extras[extra])
    registered = project["project"]["entry-points"]["stability.segmenters"]
    adapters = [cls for _, cls in inspect.getmembers(chunkers_module, inspect.isclass)
                if issubclass(cls, chunkers_module._SizedChunker) and not cls.__name__.startswith("_")]
    assert {"SemanticTextSplitter", "LlamaIndexSentence"} <= {cls.__name__ for cls in adapters}
    for cls in adapters:
        assert registered[cls.name] == f"segmenters.chunkers:{cls.__name__}"
        assert cls.extra is None or cls.extra in extras, cls
    assert "llamaindex" in extras and "llamaindex" not in chunkers_module.CHUNKERS_EXTRAS


@pytest.mark.parametrize("name, module, extra, in_chunkers", [
    ("semantic_text_splitter", "semantic_text_splitter", "semantic-text-splitter", True),
    ("llamaindex_sentence", "llama_index.core", "llamaindex", False),
])
def test_missing_package_names_its_extra(monkeypatch, name, module, extra, in_chunkers):
    monkeypatch.setitem(sys.modules, module, None)  # importing it now raises ImportError
    with pytest.raises(ImportError) as raised:
        get_segmenter(name)
    message = str(raised.value)
    assert f"segmenter {name!r} needs the {module!r} package, installed by the extra {extra!r}" in message
    assert f"pip install 'stability-harness[{extra}]'" in message
    assert ("or 'chunkers' for all of langchain, semchunk, chonkie, semantic-text-splitter" in message) == in_chunkers
    status = describe_segmenters([name])[name]
    assert not status.ok and extra in status.error


def test_missing_extra_is_reported_not_raised(monkeypatch):
    monkeypatch.setitem(sys.modules, "semchunk", None)  # import semchunk now raises ImportError
    with pytest.raises(ImportError, match=r"stability-harness\[semchunk\]"):
        chunkers_module.Semchunk()
    status = describe_segmenters(["semchunk", "fixed_chars"])
    assert not status["semchunk"].ok and "semchunk" in status["semchunk"].error
    assert status["fixed_chars"].ok


def test_an_adapter_whose_extra_is_missing_is_listed_as_not_installed_with_its_parameters(monkeypatch):
    """Without an adapter's extra (a plain install), ``stability segmenters`` said ``failed`` with
    neither description nor parameters, and printed a warning per adapter: the class says both,
    and how to install the package is one note under the table."""
    from typer.testing import CliRunner

    from stability.cli import app

    monkeypatch.setitem(sys.modules, "semchunk", None)
    status = describe_segmenters(["semchunk"])["semchunk"]
    assert not status.ok and status.missing and "pip install 'stability-harness[semchunk]'" in status.missing
    assert status.params == {"chunk_size": 150, "chunk_overlap": 0, "unit_separator": None}
    assert status.description and status.meanings and set(status.meanings) == set(status.params)
    runner = CliRunner(env={"COLUMNS": "200"})
    listed = runner.invoke(app, ["segmenters"])
    assert listed.exit_code == 0, listed.output
    assert listed.stderr == ""
    row = next(line for line in listed.stdout.splitlines() if line.startswith("│ semchunk "))
    assert "not installed" in row and "chunk_size" not in row
    assert "segmenter 'semchunk' needs the 'semchunk' package" in listed.stdout
    assert "│ semchunk " in listed.stdout.split("Parameters and their defaults")[1]
    named = runner.invoke(app, ["segmenters", "semchunk"])
    assert named.exit_code == 1
    assert named.stderr.startswith("error: segmenter 'semchunk' needs the 'semchunk' package")


def test_a_chunker_that_rewrote_its_text_is_told_where_and_how():
    """A RAG user's chunker lowercased its chunks (or put a header in front, or normalised quotes),
    and the error said only that chunk 0 was "not found after non-whitespace character 0": nothing
    of which character differed. It says now how far the chunk agrees with the text and what each
    has where they part (characters counted without whitespace)."""
    from segmenters.chunkers import locate_chunks

    # hand count: "Hello World" without whitespace is "HelloWorld"; "hello" agrees with none of it
    # ("h" occurs nowhere), "Hello world" agrees for 5 characters ("Hello"), then "w" against "W"
    with pytest.raises(InvalidParameterError, match=r"its first 5 characters \('Hello'\) are in the text, at "
                                                     r"non-whitespace character 0; then the chunk has 'world' "
                                                     r"where the text has 'World'"):
        locate_chunks("Hello World", ["Hello world"])
    with pytest.raises(InvalidParameterError, match=r"not even its first character \('#'\) is in the text after "
                                                     r"the previous chunk's start"):
        locate_chunks("ab cd", ["ab", "# Title: cd"])
    # a chunk overlapping the previous one is compared where its longest beginning lies (at "cd",
    # character 2), not where the previous chunk ends
    with pytest.raises(InvalidParameterError, match=r"its first 3 characters \('cde'\) are in the text, at "
                                                     r"non-whitespace character 2; then the chunk has 'X' where "
                                                     r"the text has 'f'"):
        locate_chunks("ab cd ef", ["ab cd", "cd eX"])


def test_a_chunker_yielding_its_chunks_is_read_as_one_returning_them():
    """A RAG user's chunker written as a generator (``yield`` each chunk, as many are) was refused:
    "chunker output must be a list of strings; received generator". Any iterable of strings is
    read now, as the same chunks in a list; a string itself (a chunker returning the text) and a
    value that is not iterable are still refused."""
    from segmenters.chunkers import ChunkerSegmenter, locate_chunks

    def lines(text):
        yield from text.split("\n")

    units = ["a b", "c", "d e f", "g"]
    assert ChunkerSegmenter(lines)(units) == ChunkerSegmenter(lambda text: text.split("\n"))(units) == [1, 2, 3]
    assert locate_chunks("ab cd", iter(["ab", "cd"])) == [0, 2]
    with pytest.raises(InvalidTypeError, match="chunker output must be"):
        locate_chunks("ab cd", "ab cd")
    with pytest.raises(InvalidTypeError, match="chunker output must be"):
        locate_chunks("ab cd", 3)


def test_a_chunker_returning_no_chunk_for_a_text_is_refused():
    """A chunker whose filter dropped every chunk (``[c for c in chunks if len(c) > 2000]``)
    returned nothing for a text of several units, and the segmenter read that as one segment: no
    boundary, a score of 0, as if each document were one chunk. No chunk, or only whitespace, for
    a text with characters is an error now, naming what came back; a text of one non-empty unit
    still gets no boundaries without calling the chunker."""
    from segmenters.chunkers import ChunkerSegmenter, locate_chunks

    with pytest.raises(InvalidParameterError, match=r"chunker output: no chunk with a character \(received 0 chunks\) "
                                                     r"for a text of 6 non-whitespace characters"):
        ChunkerSegmenter(lambda text: [])(["ab", "cd", "ef"])
    with pytest.raises(InvalidParameterError, match=r"received 2 chunks, only whitespace"):
        locate_chunks("ab", [" ", "\n"])
    assert ChunkerSegmenter(lambda text: [])(["ab", " "]) == []
    assert locate_chunks(" \n", []) == []  # no character to cover


# ---------------------------------------------------------------------------------------------
# the text a chunker reads: units joined as the document's reader says they stood
# ---------------------------------------------------------------------------------------------

MARKDOWN_PAGE = (
    "# Install\n\nInstall the package with pip.\nIt needs Python 3.10.\n\n"
    "Wheels exist for Linux and macOS.\n\n## Configure\n\nSet the options in a file.\n\n"
    "The file lives in your home folder.\n"
)


def _markdown_document(tmp_path, **options):
    from stability.readers import read_markdown

    (tmp_path / "page.md").write_text(MARKDOWN_PAGE, encoding="utf-8")
    return next(read_markdown(tmp_path / "page.md", **options))


def test_a_blank_line_splitting_chunker_finds_the_paragraphs_of_a_markdown_page(tmp_path):
    from stability import stability_test

    doc = _markdown_document(tmp_path)
    seen: list[str] = []

    def paragraphs(text):  # a chunker cutting at blank lines only, as langchain's first separator does
        seen.append(text)
        return text.split("\n\n")

    result = stability_test(ChunkerSegmenter(paragraphs), doc, n_restarts=2, seed=0)
    # four paragraphs (the page's two lines "Install ... It needs ..." are one), every one a chunk
    assert doc.units == ("Install the package with pip. It needs Python 3.10.", "Wheels exist for Linux and macOS.",
                         "Set the options in a file.", "The file lives in your home folder.")
    assert result.segmentation.boundaries == (1, 2, 3)
    assert seen[0] == "\n\n".join(doc.units)  # the blocks as the file separates them: a blank line
    # langchain's CharacterTextSplitter, whose separator is "\n\n" by default, cuts there too
    pytest.importorskip("langchain_text_splitters")
    splitter = get_segmenter("langchain_character", chunk_size=40, separator="\n\n")
    assert stability_test(splitter, doc, n_restarts=2, seed=0).segmentation.boundaries == (1, 2, 3)


def test_the_separator_given_wins_over_the_documents_and_sentences_are_joined_as_the_page_lays_them_out(tmp_path):
    from stability.readers.common import UNIT_SEPARATORS
    from stability.segmenter import for_document

    doc = _markdown_document(tmp_path)
    assert doc.meta["unit_separator"] == UNIT_SEPARATORS["paragraph"] == "\n\n"
    sentences = _markdown_document(tmp_path, unit="sentence", splitter="rules")
    assert sentences.meta["unit_separator"] == " "  # the sentences of a paragraph, as in running text
    seen: list[str] = []

    def whole(text):
        seen.append(text)
        return [text]

    for_document(ChunkerSegmenter(whole), sentences)(list(sentences.units))
    # the sentences of one paragraph a space apart, those of two paragraphs a blank line apart, as
    # on the page (meta["unit_separators"]); before, a space joined them all, and a chunker cutting
    # at blank lines found no paragraph
    assert seen[-1] == ("Install the package with pip. It needs Python 3.10.\n\nWheels exist for Linux and macOS."
                        "\n\nSet the options in a file.\n\nThe file lives in your home folder.")
    assert sentences.meta["unit_separators"] == (" ", "\n\n", "\n\n", "\n\n")
    for_document(ChunkerSegmenter(whole, unit_separator=" "), sentences)(list(sentences.units))  # given: kept
    assert seen[-1] == " ".join(sentences.units)
    for_document(ChunkerSegmenter(whole, unit_separator="\n"), doc)(list(doc.units))  # given: kept
    assert seen[-1] == "\n".join(doc.units)
    running = Document("d", ["One.", "Two."], meta={"unit_separator": " "})  # one separator said: it joins them all
    for_document(ChunkerSegmenter(whole), running)(list(running.units))
    assert seen[-1] == "One. Two."
    bare = Document("d", ["one two", "three"])  # built in Python, nothing said: one line a unit
    for_document(ChunkerSegmenter(whole), bare)(list(bare.units))
    assert seen[-1] == "one two\nthree"
    assert ChunkerSegmenter(whole).get_params()["unit_separator"] is None  # the document's, per document


def test_an_html_page_is_given_to_a_chunker_with_its_blocks_a_blank_line_apart_and_a_lists_items_a_line(tmp_path):
    from stability import stability_test
    from stability.readers import read_html

    (tmp_path / "p.html").write_text("<main><h1>A</h1><p>One two.</p><ul><li>three</li><li>four<ol><li>4b</ol></li>"
                                     "</ul><table><tr><td>x<td>y<tr><td>z</table><h2>B</h2><p>Five six.</p></main>",
                                     encoding="utf-8")
    doc = next(read_html(tmp_path / "p.html"))
    assert doc.units == ("One two.", "three", "four", "4b", "x y", "z", "Five six.")
    assert doc.meta["unit_separator"] == "\n\n"
    # a list (with the list nested in it) and a table: their items and rows a line apart, as a browser shows them
    assert doc.meta["unit_separators"] == ("\n\n", "\n", "\n", "\n\n", "\n", "\n\n")
    result = stability_test(ChunkerSegmenter(lambda text: text.split("\n\n")), doc, n_restarts=2, seed=0)
    assert result.segmentation.boundaries == (1, 4, 6)  # before: every unit a chunk, (1, 2, 3, 4, 5, 6)


def test_plain_text_is_given_to_a_chunker_as_its_file_separates_the_units(tmp_path):
    from stability.readers import read_text
    from stability.segmenter import for_document

    (tmp_path / "a.txt").write_text("One two. Three four.\n\nFive six.\nSeven.\n", encoding="utf-8")
    seen: list[str] = []

    def whole(text):
        seen.append(text)
        return [text]

    # paragraphs a blank line apart, sentences (of a paragraph) a space apart, lines one a line
    for unit, text in (("paragraph", "One two. Three four.\n\nFive six. Seven."),
                       ("sentence", "One two. Three four.\n\nFive six. Seven."),  # before: a space between all
                       ("line", "One two. Three four.\nFive six.\nSeven.")):
        doc = next(read_text(tmp_path / "a.txt", unit=unit, **({"splitter": "rules"} if unit == "sentence" else {})))
        for_document(ChunkerSegmenter(whole), doc)(list(doc.units))
        assert seen[-1] == text, unit


def test_a_separator_written_with_a_backslash_is_refused_naming_the_double_quotes():
    # -s "langchain_character,separator='\n\n'": TOML's single quotes keep the backslash, langchain
    # found that text nowhere and every document was one chunk (content-blind, no other sign)
    pytest.importorskip("langchain_text_splitters")
    _, params = segmenter_option("langchain_character,separator='\\n\\n'")
    with pytest.raises(InvalidParameterError, match=r"""separator '\\\\n\\\\n' holds a backslash followed by 'n', """
                       r"""not a newline: .*write it in double quotes, "\\n\\n\""""):
        get_segmenter(params.pop("segmenter"), **params)
    with pytest.raises(InvalidParameterError, match=r"separators '\\\\t' holds a backslash followed by 't', not a tab"):
        get_segmenter("langchain_recursive", separators=["\n", "\\t"])
    with pytest.raises(InvalidParameterError, match=r"unit_separator '\\\\n' holds a backslash .*quotes, \"\\n\""):
        FixedChars(unit_separator="\\n")
    _, params = segmenter_option('langchain_character,chunk_size=20,separator="\\n\\n"')  # double quotes: a blank line
    assert get_segmenter(params.pop("segmenter"), **params).separator == "\n\n"


def test_the_results_record_the_separator_each_document_was_joined_with(tmp_path):
    """``unit_separator`` left to the documents is recorded as given (``None``: the resume check
    compares it), and each document's result says the separator its reader gave and the chunker
    was run with (``resolved_params``), the summary every separator used: ``None`` alone did not say
    which. The scores are those of the chunker given that separator outright."""
    from stability import evaluate
    from stability.store import load_results

    units = ["alpha beta", "gamma", "delta epsilon zeta", "eta", "theta iota", "kappa lambda mu"]
    docs = [Document("blocks", units, meta={"unit_separator": "\n\n"}),
            Document("sentences", units, meta={"unit_separator": " "}),
            Document("bare", units)]  # built in Python, nothing said: one line a unit
    run = evaluate({"left": FixedChars(chunk_size=12), "given": FixedChars(chunk_size=12, unit_separator=" ")},
                   docs, n_restarts=3, seed=0, output=tmp_path / "run")
    for result in (run, load_results(tmp_path / "run")):
        left = {r.document: r for r in result.documents["left"]}
        assert all(r.params["unit_separator"] is None for r in left.values())
        assert {d: r.resolved_params for d, r in left.items()} == {
            "blocks": {"unit_separator": "\n\n"}, "sentences": {"unit_separator": " "}, "bare": {"unit_separator": "\n"}}
        assert all(r.resolved_params == {} for r in result.documents["given"])  # it ran as given
        assert result.summary["left"].resolved_params == {"unit_separator": ["\n\n", " ", "\n"]}
        assert result.summary["given"].resolved_params == {}
        assert result.summary["left"].to_dict()["resolved_params"] == {"unit_separator": ["\n\n", " ", "\n"]}
        assert "resolved_params" not in result.summary["given"].to_dict()
        rows = {row["segmenter"]: row for row in result.to_rows(level="segmenters")}  # report.csv's table
        assert rows["left"]["params"]["unit_separator"] is None
        assert rows["left"]["resolved_params"] == {"unit_separator": ["\n\n", " ", "\n"]}
        assert rows["given"]["resolved_params"] is None
    # "\n\n" is one character longer than " " and "\n", so fixed_chars cuts elsewhere: each document is
    # scored as with its own separator given
    for doc in docs:
        separator = left[doc.id].resolved_params["unit_separator"]
        alone = evaluate({"left": FixedChars(chunk_size=12, unit_separator=separator)}, [doc], n_restarts=3, seed=0)
        [mine] = alone.documents["left"]
        assert mine.segmentation == left[doc.id].segmentation and mine.f1 == left[doc.id].f1, doc.id
    assert left["blocks"].segmentation != left["sentences"].segmentation == left["bare"].segmentation


def test_the_count_told_per_document_is_recorded_the_same_way():
    """The record is that of any parameter resolved per document (stability.segmenter.resolved_params),
    not the chunkers' alone: n_segments="reference" is recorded so, with each document's count."""
    from stability import evaluate

    units = ["river bank water", "fish boat", "money loan credit", "market stock"]
    docs = [Document("a", units * 3, references=[[4, 8]]), Document("b", units * 2, references=[[4]])]
    run = evaluate({"told": get_segmenter("even", n_segments="reference")}, docs, n_restarts=2, seed=0)
    assert [r.params["n_segments"] for r in run.documents["told"]] == ["reference", "reference"]
    assert [r.resolved_params for r in run.documents["told"]] == [{"n_segments": 3}, {"n_segments": 2}]
    assert [r.segmentation.n_segments for r in run.documents["told"]] == [3, 2]
    assert run.summary["told"].resolved_params == {"n_segments": [3, 2]}


# a list between paragraphs: read by sentences, the list's sentences are one block, the page's
# blocks are a blank line apart (the blank lines of the file), the sentences of one block a space,
# but a line where one starts a list item
LISTED_PAGE = """# Rivers

The river runs to the sea. Its banks are green.

Boats carry goods along it:

- Barges take coal.
- Ferries take people.
- Canoes take anglers.

# Banks

The bank lends money. Its rates went up this year.
"""


def _listed_document(tmp_path):
    from stability.readers import read_markdown

    (tmp_path / "rivers.md").write_text(LISTED_PAGE, encoding="utf-8")
    doc = next(read_markdown(tmp_path / "rivers.md", unit="sentence", splitter="rules"))
    assert doc.units == ("The river runs to the sea.", "Its banks are green.", "Boats carry goods along it:",
                         "- Barges take coal.", "- Ferries take people.", "- Canoes take anglers.",
                         "The bank lends money.", "Its rates went up this year.")
    assert doc.meta["unit_separators"] == (" ", "\n\n", "\n\n", "\n", "\n", "\n\n", " ")
    return doc


def test_langchain_splitters_cut_a_markdown_page_read_by_sentences_at_its_blocks_not_inside_its_list(tmp_path):
    """langchain's splitters cut at blank lines first: given the page's layout they place their
    chunks at its blocks' starts; given one space for every gap (what the chunkers saw before the
    readers recorded each gap), CharacterTextSplitter on "\\n\\n" cannot cut at all and
    RecursiveCharacterTextSplitter cuts between words, here between two items of the list. The
    blocks start at units 2, 3 (the list) and 6; chunks of 90 characters hold the first two
    blocks in one."""
    pytest.importorskip("langchain_text_splitters")
    from stability import stability_test

    doc = _listed_document(tmp_path)
    recursive, character = LangchainRecursive(chunk_size=90), LangchainCharacter(chunk_size=90, separator="\n\n")
    for splitter in (recursive, character):
        assert stability_test(splitter, doc, n_restarts=2, seed=0).segmentation.boundaries == (3, 6)
    spaced = {splitter.name: stability_test(type(splitter)(**{**splitter.get_params(), "unit_separator": " "}),
                                            doc, n_restarts=2, seed=0).segmentation.boundaries
              for splitter in (recursive, character)}
    assert spaced["langchain_character"] == ()  # one chunk: no blank line to cut at
    assert spaced["langchain_recursive"] == (4,)  # between "- Barges take coal." and "- Ferries take people."


def test_the_results_record_the_separators_of_a_pages_gaps(tmp_path):
    """A chunker left to the document's separators records those its gaps applied (the results,
    the file read back, report.csv's table); one given a separator records none."""
    from stability import evaluate
    from stability.store import load_results

    doc = _listed_document(tmp_path)
    run = evaluate({"left": FixedChars(chunk_size=30), "given": FixedChars(chunk_size=30, unit_separator=" ")},
                   [doc], n_restarts=2, seed=0, output=tmp_path / "run", layout_control=True)
    for result in (run, load_results(tmp_path / "run")):
        [left], [given] = result.documents["left"], result.documents["given"]
        assert left.params["unit_separator"] is None and left.resolved_params == {"unit_separator": ["\n\n", "\n", " "]}
        assert given.resolved_params == {}
        rows = {row["segmenter"]: row for row in result.to_rows(level="segmenters")}
        assert rows["left"]["resolved_params"] == {"unit_separator": [["\n\n", "\n", " "]]}
        assert rows["given"]["resolved_params"] is None
    # the blank lines are one character longer than the spaces: fixed_chars cuts elsewhere
    assert left.segmentation != given.segmentation
