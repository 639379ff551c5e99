"""Every registered segmenter, and the harness, on odd documents: one unit, two, identical units,
empty and blank units, punctuation, stopwords only, other scripts, emoji, combining characters,
zero-width characters, control characters, numbers, mixed-case duplicates, long units and many
units. A segmenter either returns valid boundaries (the same on a second call when it claims to be
deterministic) without a warning of numpy's, or raises one of the project's errors; a run records
a failing pair as a failure with its message and gives finite scores wherever they are defined.

The first part holds one deterministic test per defect the fuzzing found (each failed before its
fix); the second the hypothesis tests that look for more, a few examples each (more with
``STABILITY_FUZZ_EXAMPLES``, or the ``slow_fuzz`` variants with ``-m slow_fuzz``). What
:mod:`stability.contract` already checks on its fixed documents (every check on every registered
segmenter, ``tests/test_contract.py``) is not repeated here.
"""

from __future__ import annotations

import pytest

from segmenters.chunkers import locate_chunks
from stability import Document, InvalidParameterError, evaluate, get_segmenter
from stability.plots import nice_ticks
from stability.reporting import render


# ---------------------------------------------------------------------------------------------
# regressions: one test per defect found
# ---------------------------------------------------------------------------------------------
def test_a_unit_or_id_holding_a_lone_surrogate_is_refused_naming_the_document(tmp_path):
    # evaluate(output=...) stopped on a UnicodeEncodeError hashing the document for the results
    # file, and TextTiling, chonkie_* and semantic_text_splitter failed every such document with one
    with pytest.raises(InvalidParameterError, match=r"document 'd' units\[1\] must be text; it holds the lone "
                                                     r"surrogate '\\ud800' at character 2"):
        Document("d", ["ok", "a \ud800 b"])
    with pytest.raises(InvalidParameterError, match=r"Document.id must be text; it holds the lone surrogate"):
        Document("d\udfff", ["ok"])
    with pytest.raises(InvalidParameterError, match=r"document '0' units\[1\] must be text"):
        evaluate({"texttiling": "texttiling"}, [["river bank", "a \ud800 b", "loan"]], n_restarts=2,
                 output=tmp_path / "results.jsonl", progress=False)


def test_chunks_of_a_repetitive_text_are_located_where_every_later_chunk_still_fits():
    # langchain's chunks of ":\n:\n:\n:\n:" with an overlap start at non-whitespace characters
    # 0, 2 and 3; the second was placed where it would tile the first (3), which left the third
    # nowhere to go, and the document failed with "chunk 2 ':\n:' not found": the chunker was
    # blamed for a text that merely repeats itself
    assert locate_chunks(":\n:\n:\n:\n:", [":\n:\n:", ":\n:", ":\n:"]) == [0, 1, 3]
    assert get_segmenter("langchain_recursive", chunk_size=5, chunk_overlap=2)([":"] * 5) == [1, 3]
    # a chunk may begin where the previous one does (langchain's second chunk here holds the first
    # whole): it was searched for strictly after it, and not found
    assert locate_chunks("  \n\t \n0 \n:", ["0", "0 \n:"]) == [0, 0]
    assert get_segmenter("langchain_character", chunk_size=5, chunk_overlap=2)(["  \n\t ", "0 ", ":"]) == []
    # a text the chunker did change is still refused, naming the chunk
    with pytest.raises(InvalidParameterError, match="chunk 1 'xy' not found after non-whitespace character 0"):
        locate_chunks("ab cd", ["ab", "xy"])


def test_html_report_of_scores_equal_but_for_rounding_draws_its_plots():
    # U00 with n_segments=3 on these three short documents: the mean F1 is 0.7777777777777778 and
    # the mean shuffle F1 0.7777777777777777; the scatter's axis then had five ticks of one value
    # (rounded to 10 decimals) and the HTML report stopped on a ZeroDivisionError
    docs = [["the loan ", "the loan loan"], ["", "bank bank", "river the", "bank the "],
            ["drum", "money", "", "  money"]]
    result = evaluate({"u00": get_segmenter("u00", n_segments=3)}, docs, n_restarts=3, n_bootstrap=20, progress=False)
    summary = result.summary["u00"].macro
    assert summary["f1"].mean != summary["shuffle_f1"].mean and abs(summary["f1"].mean - summary["shuffle_f1"].mean) < 1e-15
    assert "<svg" in render(result, "html")
    for low in (0.7777777777777777, 1e12, -3.0):
        ticks = nice_ticks(low, low + abs(low) * 1e-15)
        assert ticks[0] < ticks[-1] and ticks[0] <= low and ticks[-1] >= low
