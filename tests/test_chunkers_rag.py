"""The chunker adapters as a retrieval (RAG) engineer meets them: the parameter names the libraries
use, overlap, and sizes counted in a model's tokens (segmenters/chunkers.py)."""

from __future__ import annotations

import pytest

from segmenters.chunkers import FixedChars
from stability import get_segmenter
from stability.config import segmenter_option
from stability.exceptions import InvalidParameterError


# ---------------------------------------------------------------------------------------------
# a model's tokenizer asked for: refused, saying what to do instead
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, extra", [("chonkie_recursive", "chonkie"), ("chonkie_sentence", "chonkie"),
                                         ("semantic_text_splitter", "semantic_text_splitter")])
@pytest.mark.parametrize("tokenizer", ["cl100k_base", "gpt2", "tiktoken"])
def test_a_model_tokenizer_is_refused_with_what_to_do_instead(name, extra, tokenizer):
    pytest.importorskip(extra)
    with pytest.raises(InvalidParameterError) as caught:
        get_segmenter(name, tokenizer=tokenizer)
    message = str(caught.value)
    assert "'character', 'word'" in message  # what it takes
    assert "download" in message  # why not a model's tokens
    assert "4 characters" in message and "ChunkerSegmenter" in message  # what to do instead


def test_a_misspelt_offline_tokenizer_still_gets_the_closest_choice():
    pytest.importorskip("chonkie")
    with pytest.raises(InvalidParameterError, match="did you mean 'word'"):
        get_segmenter("chonkie_recursive", tokenizer="words")


# ---------------------------------------------------------------------------------------------
# fixed_chars with an overlap, as the plainest splitters have
# ---------------------------------------------------------------------------------------------


def test_fixed_chars_overlap_steps_by_size_minus_overlap():
    # 10 characters, chunks of 6 sharing 2: starts 0 and 4, and the second chunk reaches the end,
    # so no third chunk ("ij", inside the second) is made (hand computation)
    assert FixedChars(chunk_size=6, chunk_overlap=2).chunker("abcdefghij") == ["abcdef", "efghij"]
    assert FixedChars(chunk_size=6).chunker("abcdefghij") == ["abcdef", "ghij"]  # no overlap: as before
    # units of 4 characters joined by a newline: "aaaa\nbbbb\ncccc\ndddd", 19 characters; chunks of
    # 10 sharing 5 start at 0, 5 and 10 ('b', 'c' lead units 1 and 2): boundaries 1 and 2
    assert FixedChars(chunk_size=10, chunk_overlap=5, unit_separator="\n")(["aaaa", "bbbb", "cccc", "dddd"]) == [1, 2]
    assert get_segmenter("fixed_chars", chunk_size=6, chunk_overlap=2).get_params()["chunk_overlap"] == 2
    with pytest.raises(InvalidParameterError, match=r"chunk_overlap must be an integer >= 0 and <= 5"):
        FixedChars(chunk_size=6, chunk_overlap=6)


# ---------------------------------------------------------------------------------------------
# a library's own parameter name: the error says what it is called here
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("option, extra, expected", [
    ("semantic_text_splitter,capacity=500", "semantic_text_splitter",
     r"semantic-text-splitter's 'capacity' is 'chunk_size' here"),
    ("semantic_text_splitter,overlap=50", "semantic_text_splitter",
     r"semantic-text-splitter's 'overlap' is 'chunk_overlap' here"),
    ("semchunk,overlap=10", "semchunk", r"semchunk's 'overlap' is 'chunk_overlap' here"),
    ("chonkie_recursive,chunk_overlap=50", "chonkie",
     r"chonkie's RecursiveChunker has no overlap.*chonkie_sentence"),
    ("langchain_recursive,length_function=len", "langchain_text_splitters",
     r"counts characters.*ChunkerSegmenter"),
    ("semchunk,token_counter=tiktoken", "semchunk", r"counts words.*ChunkerSegmenter"),
])
def test_a_library_s_own_parameter_name_says_what_it_is_called_here(option, extra, expected):
    pytest.importorskip(extra)
    _, params = segmenter_option(option)  # as -s or a config's [segmenters.NAME] table gives them
    with pytest.raises(InvalidParameterError, match=expected) as caught:
        get_segmenter(params.pop("segmenter"), **params)
    assert "Its parameters:" in str(caught.value)  # the list of what it takes is still given
