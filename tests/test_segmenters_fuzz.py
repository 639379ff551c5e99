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

import math
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import installed_segmenters
from segmenters.chunkers import locate_chunks
from stability import (Document, InvalidParameterError, InvalidTypeError, MissingDependencyError, StabilityError,
                       StabilityWarning, available_segmenters, evaluate, get_segmenter)
from stability.registry import factory_params, load_segmenter_factory
from stability.plots import nice_ticks
from stability.reporting import formats_available, render
from stability.tasks import checked


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
    result = evaluate({"u00": get_segmenter("u00", n_segments=3)}, docs, n_restarts=3, n_bootstrap=40, progress=False)
    summary = result.summary["u00"].macro
    assert summary["f1"].mean != summary["shuffle_f1"].mean and abs(summary["f1"].mean - summary["shuffle_f1"].mean) < 1e-15
    assert "<svg" in render(result, "html")
    for low in (0.7777777777777777, 1e12, -3.0):
        ticks = nice_ticks(low, low + abs(low) * 1e-15)
        assert ticks[0] < ticks[-1] and ticks[0] <= low and ticks[-1] >= low


# ---------------------------------------------------------------------------------------------
# fuzzing: every registered segmenter, then the harness, on odd documents
# ---------------------------------------------------------------------------------------------
NAMES = installed_segmenters()  # every registered one with the dev extra
EXAMPLES = int(os.environ.get("STABILITY_FUZZ_EXAMPLES", "0")) or None  # None: each test's own default

#: Settings drawn beside the defaults, each a few parameters of :func:`factory_params` at values
#: far from the usual (tiny windows, masks and chunks, another tokenizer, the long-document modes).
#: A segmenter not named here (a plugin) is drawn with its defaults only.
SETTINGS: dict[str, list[dict]] = {
    "even": [{"n_segments": 3}, {"segment_length": 1}],
    "random": [{"n_segments": 3}, {"rate": 0.5}],
    "c99": [{"n_segments": 3}, {"mask_size": 1}, {"std_coeff": 0.0}, {"tokenizer": "unicode"},
            {"tokenizer": "choi", "stem": False}, {"band": 1, "mask_size": 3, "n_segments": 4}],
    "u00": [{"n_segments": 3}, {"tokenizer": "unicode"}, {"max_segment_length": 1, "n_segments": 2}],
    "texttiling": [{"w": 2, "k": 1}, {"similarity_method": "vocabulary_introduction", "w": 3, "k": 2},
                   {"cutoff_policy": "LC", "smoothing_width": 0}, {"tokenizer": "unicode", "w": 3, "k": 2, "stem": True}],
    "texttiling_nltk": [{"w": 2, "k": 1}, {"similarity_method": "vocabulary_introduction", "w": 3, "k": 2}],
    "embedding": [{"method": "depth"}, {"n_segments": 3}, {"method": "depth", "window": 1, "min_distance": 1,
                                                          "smoothing_width": 0}, {"mask_size": 1}],
    "cluster": [{"n_segments": 2}, {"segment_length": 1}, {"max_iter": 1, "layout": 0.0, "proximity": 0.1}],
    "fixed_chars": [{"chunk_size": 1}, {"chunk_size": 5}],
    "langchain_character": [{"chunk_size": 5, "chunk_overlap": 2}],
    "langchain_recursive": [{"chunk_size": 5, "chunk_overlap": 2}, {"chunk_size": 1}],
    "llamaindex_sentence": [{"chunk_size": 5, "chunk_overlap": 2}, {"chunk_size": 20, "tokenizer": "character",
                                                                    "chunk_overlap": 3}],
    "semantic_text_splitter": [{"chunk_size": 5, "min_chunk_size": 2}, {"chunk_size": 3, "tokenizer": "word",
                                                                        "chunk_overlap": 1}],
    "semchunk": [{"chunk_size": 1}, {"chunk_size": 3, "chunk_overlap": 1}],
    "chonkie_recursive": [{"chunk_size": 5}, {"chunk_size": 2, "tokenizer": "word"}],
    "chonkie_sentence": [{"chunk_size": 10, "chunk_overlap": 3}, {"chunk_size": 3, "tokenizer": "word"}],
}
CONFIGURATIONS = [(name, params) for name in NAMES for params in [{}, *SETTINGS.get(name, [])]]


def test_the_settings_drawn_are_parameters_of_registered_segmenters():
    for name, settings_ in SETTINGS.items():
        assert name in available_segmenters(), name
        if name not in NAMES:  # its extra is not installed (STABILITY_TEST_EXTRAS=some)
            continue
        defaults = factory_params(load_segmenter_factory(name))
        for params in settings_:
            assert set(params) <= set(defaults), (name, params)
            get_segmenter(name, **params)  # a valid setting


def _words(*words: str):
    return st.lists(st.sampled_from(words), min_size=1, max_size=12).map(" ".join)


def _script(low: int, high: int):
    return st.text(alphabet=st.characters(min_codepoint=low, max_codepoint=high), min_size=1, max_size=30)


#: One unit of every kind the module docstring lists (lone surrogates aside: a Document refuses them).
UNIT = st.one_of(
    st.sampled_from(["", " ", "\t", "\n", "  \n\t ", "\u3000", "\xa0", "\u2028", "\r\n", "\x0b\x0c"]),  # blank
    st.text(alphabet="!?.,;:-\u2014\u2026'\"()[]{}*&%$#@/\\|~`<>_+=", min_size=1, max_size=12),  # punctuation
    _words("the", "of", "and", "a", "to", "in", "is", "THE", "The"),  # stopwords only
    _words("river", "bank", "Bank", "BANK", "money", "loan", "guitar", "drum", "market", "running", "ran"),
    _script(0x4E00, 0x4FFF), _script(0x0600, 0x06FF), _script(0x0900, 0x097F),  # CJK, Arabic, Devanagari
    _words("\U0001F600", "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\u2764\ufe0f", "\U0001F44D\U0001F3FD"),
    st.lists(st.sampled_from(["e\u0301", "\u0301", "\u0301\u0301", "n\u0303o", "\u200b", "\u200d", "\ufeff",
                              "\u2060", "\u200dword\u200d"]), min_size=1, max_size=8).map("".join),
    st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=31) | st.sampled_from(["\x7f", "\x85", "a"]),
            min_size=1, max_size=12),  # control characters, NUL aside
    st.lists(st.integers(-10**6, 10**12).map(str), min_size=1, max_size=10).map(" ".join),  # numbers only
    st.characters(blacklist_categories=("Cs",)),  # one character
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40),
)


def documents(max_units: int = 30):
    """One unit, two, one unit repeated, any units, blank/punctuation/stopword units only, mixed-case duplicates."""
    return st.one_of(
        st.lists(UNIT, min_size=1, max_size=2),
        st.tuples(UNIT, st.integers(2, max_units)).map(lambda pair: [pair[0]] * pair[1]),
        st.lists(UNIT, min_size=1, max_size=max_units),
        st.lists(UNIT.filter(lambda u: not any(c.isalnum() for c in u)), min_size=1, max_size=max_units),
        st.lists(st.sampled_from(["Bank", "bank", "BANK", "bAnK", "bank."]), min_size=2, max_size=max_units),
    )


def _foreign(caught) -> list[str]:
    """The warnings of ``caught`` that are not the project's (numpy's RuntimeWarning, a library's)."""
    return [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught
            if not issubclass(w.category, StabilityWarning)]


def segment_or_refuse(name: str, params: dict, units: list[str]) -> tuple[int, ...] | None:
    """The boundaries ``name`` returns on ``units`` (checked as the harness checks them, and the same
    on a second call when it claims to be deterministic), or None when it raised one of the
    project's errors; any other exception, or a warning that is not the project's, fails."""
    segmenter = get_segmenter(name, **params)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            raw = segmenter(list(units))
        except StabilityError:
            return None
        assert not _foreign(caught), (name, params, units, _foreign(caught))
    boundaries = checked(raw, len(units))  # InvalidOutput: not a valid list of boundaries
    if getattr(segmenter, "deterministic", True) is not False:
        assert checked(segmenter(list(units)), len(units)) == boundaries, (name, params, units)
    return boundaries


def _fuzz_segmenters(examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(configuration=st.sampled_from(CONFIGURATIONS), units=documents())
    def run(configuration, units):
        segment_or_refuse(*configuration, units)

    run()


def test_fuzz_every_segmenter_on_odd_documents():
    _fuzz_segmenters(EXAMPLES or 300)


@pytest.mark.slow_fuzz
def test_fuzz_every_segmenter_on_odd_documents_long():
    _fuzz_segmenters(EXAMPLES or 5000)


#: Long units (a 10,000-character one, with and without spaces, in CJK) for every segmenter.
LONG_UNITS = {
    "three units of 10,000 characters": [("river bank money loan " * 500)[:10_000], ("guitar drum " * 1000)[:10_000],
                                         ("market stock the of " * 600)[:10_000]],
    "a 10,000-character unit without spaces among short ones": ["x" * 10_000, "river bank", "money loan", "y" * 10_000],
    "long CJK units": ["\u4e00\u4e01\u4e02" * 3000, "\u4e03" * 5000, "\u4e00 \u4e01"],
}


@pytest.mark.parametrize("label", sorted(LONG_UNITS))
@pytest.mark.parametrize("name", NAMES)
def test_every_segmenter_on_long_units(name, label):
    segment_or_refuse(name, {}, LONG_UNITS[label])


@pytest.mark.slow_fuzz
@pytest.mark.parametrize("name", NAMES)
def test_every_segmenter_on_2000_units(name):
    # C99 takes seconds a call on 2,000 units
    rng = np.random.default_rng(0)
    words = "river bank money loan guitar drum stage market stock fish the of and a".split()
    for units in ([" ".join(rng.choice(words, 3)) for _ in range(2000)], ["river bank"] * 2000, [""] * 2000,
                  [str(rng.choice(list("ab.?1 "))) for _ in range(2000)]):
        segment_or_refuse(name, {}, units)


def finite_where_defined(result) -> list[str]:
    """The scores of a document's result that are NaN or infinite though defined: every score but
    the chance-corrected F1 (undefined when chance is 1) and those of a control not run."""
    problems = []
    for path, value in _numbers(result.to_dict()):
        if not math.isfinite(value) and not path.endswith("corrected_f1"):
            problems.append(f"{path} = {value}")
    return problems


def _numbers(node, path=""):
    if isinstance(node, float):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _numbers(value, f"{path}.{key}")
    elif isinstance(node, (list, tuple)):
        for i, value in enumerate(node):
            yield from _numbers(value, f"{path}[{i}]")


def _fuzz_harness(examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(configuration=st.sampled_from(CONFIGURATIONS), docs=st.lists(documents(20), min_size=1, max_size=3),
           n_restarts=st.integers(2, 3), shuffle=st.booleans(), layout=st.booleans(),
           format=st.sampled_from(formats_available()))
    def run(configuration, docs, n_restarts, shuffle, layout, format):
        name, params = configuration
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = evaluate({name: get_segmenter(name, **params)}, docs, n_restarts=n_restarts, n_bootstrap=40,
                              shuffle_control=shuffle, layout_control=layout, progress=False)
            rendered = render(result, format, documents=True)
        assert not _foreign(caught), _foreign(caught)
        assert rendered
        for failure in result.failures:  # a segmenter raising one of the project's errors, said in full
            assert failure.kind == "exception" and failure.error.split(":")[0] in _ERRORS, failure
        for one in result.documents.get(name, []):
            assert finite_where_defined(one) == [], (one.document, finite_where_defined(one))
            assert list(one.segmentation.boundaries) == sorted(set(one.segmentation.boundaries))
        assert len(result.documents.get(name, [])) + len(result.failures) == len(docs)

    run()


_ERRORS = {cls.__name__ for cls in (InvalidParameterError, InvalidTypeError, MissingDependencyError)}


def test_fuzz_the_harness_on_odd_documents():
    _fuzz_harness(EXAMPLES or 60)


@pytest.mark.slow_fuzz
def test_fuzz_the_harness_on_odd_documents_long():
    _fuzz_harness(EXAMPLES or 1500)
