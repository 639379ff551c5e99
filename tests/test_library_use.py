"""Cases found by using the Python API as a new library user would (a script or a notebook):
messages that named the wrong thing or nothing, and a user's mistake that ended in a traceback
from deep inside. Each test fails on the code before its fix (see the docstrings)."""

from __future__ import annotations

import re
import warnings

import pytest

from stability import evaluate
from stability.exceptions import InvalidSegmentationError

UNITS = [f"s{i} word{i % 4}" for i in range(12)]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_a_segmenter_repeating_a_boundary_is_not_told_to_sort_its_output():
    """A segmenter's boundaries are read in any order (README: "distinct integers in any order"),
    yet one returning ``[7, 3, 3]`` was told they "must be sorted, distinct integers"."""
    from stability.segmentation import check_boundaries

    run = evaluate({"dup": lambda units: [7, 3, 3]}, [UNITS], n_restarts=2, progress=False)
    error = run.failures[0].error
    assert "must be distinct integers, in any order, in 1..11; 3 is repeated in [7, 3, 3]" in error
    assert "sorted" not in error
    with pytest.raises(InvalidSegmentationError, match=r"must be sorted, distinct integers in 1\.\.8; 4 is not sorted"):
        check_boundaries([8, 4], 9)  # where the order is required, it is still said


@pytest.mark.parametrize("documents, said", [
    ({"a": UNITS, "b": UNITS[:8]}, r"keys \['a', 'b'\]: documents by id: give them as a list, \[Document\(id, units\)"),
    ({"id": "a", "units": UNITS}, r"keys \['id', 'units'\]: it looks like one document: give a list of them"),
])
def test_documents_given_as_a_mapping_are_refused_naming_the_mapping(documents, said):
    """Iterating a mapping gives its keys: ``{"a": units}`` was refused as "documents[0] must be a
    list of units; a raw string needs a splitter (splitter='auto'); received str 'a'", about a
    string the user never gave (and the same of one document's ``{"id", "units"}``)."""
    from stability.exceptions import InvalidTypeError

    with pytest.raises(InvalidTypeError, match="documents must be an iterable of documents .*, not a mapping, "
                                               "whose iteration gives its keys; received dict with " + said) as caught:
        evaluate({"even": "even"}, documents, n_restarts=2, progress=False)
    assert caught.value.parameter == "documents"


def test_one_documents_units_given_as_the_corpus_are_told_to_go_in_a_list():
    """A list of strings given as ``documents`` is a corpus of raw texts; given one document's
    units so, the error spoke of a splitter only."""
    from stability.exceptions import InvalidTypeError

    with pytest.raises(InvalidTypeError, match=r"documents\[0\] must be a list of units; a raw string needs a "
                                               r"splitter \(splitter='auto'\), and one document given as its units "
                                               r"goes in a list, documents=\[units\]; received str 's0 word0'"):
        evaluate({"even": "even"}, UNITS, n_restarts=2, progress=False)
    assert evaluate({"even": "even"}, [UNITS], n_restarts=2, progress=False).documents["even"][0].document == "0"


def test_a_chunker_returning_text_not_in_the_document_is_told_so_in_plain_words():
    """It was told "chunker must be a chunker returning pieces of the text, in order (whitespace
    aside); received "chunk 0 'hello' not found after ..."": the parameter said to be itself, and
    a sentence quoted as the value received."""
    from segmenters.chunkers import ChunkerSegmenter

    run = evaluate({"mine": ChunkerSegmenter(lambda text: ["hello", "world"])}, [UNITS], n_restarts=2, progress=False)
    assert run.failures[0].error == (
        "InvalidParameterError: chunker output: chunk 0 'hello' not found after non-whitespace character 0 of the "
        "text; a chunker must return pieces of the text it is given, in order (whitespace aside): not even its first "
        "character ('h') is in the text: the chunker rewrote it or added it")


def _paragraphs(text):
    """A RAG chunker as users write it: text -> chunks (here, one chunk a line)."""
    return text.split("\n")


def _sentences(text):
    import re

    return re.split(r"(?<=\.) ", text)


@pytest.mark.parametrize("chunker, raised", [
    (_paragraphs, "AttributeError: 'list' object has no attribute 'split'"),
    (_sentences, "TypeError: expected string or bytes-like object, got 'list'"),
])
def test_a_chunker_given_as_a_segmenter_failing_on_the_units_is_told_to_wrap_it(chunker, raised):
    """The README promises a chunker given as a segmenter "fails with a message saying to wrap
    it"; one returning chunks did, but one failing on the list of units as a string method or a
    regular expression does (most chunkers) failed with Python's error alone."""
    from stability import check_segmenter, stability_test
    from stability.exceptions import SegmenterError

    wrap = "a text chunker (text -> list of chunks) is evaluated through segmenters.chunkers.ChunkerSegmenter(chunker)"
    run = evaluate({"mine": chunker}, [UNITS], n_restarts=2, progress=False)
    assert run.failures[0].error.startswith(f"{raised}; it was given the document's units, a list of strings, "
                                            "and used them as one text")
    assert wrap in run.failures[0].error
    with pytest.raises(SegmenterError, match=r"ChunkerSegmenter\(chunker\)"):
        stability_test(chunker, UNITS, n_restarts=2)
    assert wrap in check_segmenter(chunker, raise_on_failure=False).failures[0].message


def test_a_segmenters_own_type_error_gets_no_chunker_hint():
    def broken(units):
        return [len(units) + "1"]  # a bug of its own, not a text expected

    def attribute(units):
        return units.boundaries  # not a str attribute

    for segmenter in (broken, attribute):
        error = evaluate({"mine": segmenter}, [UNITS], n_restarts=2, progress=False).failures[0].error
        assert "ChunkerSegmenter" not in error


@pytest.mark.parametrize("hypothesis", [None, 3])
def test_a_metric_given_no_segmentation_is_not_told_a_bare_sequence_is_ambiguous(hypothesis):
    """``pk(ref, None)`` (a segmenter's failed output passed on) was told "A bare sequence is
    ambiguous", of a value that is no sequence."""
    from stability import Segmentation
    from stability.exceptions import InvalidTypeError
    from stability.metrics import pk

    with pytest.raises(InvalidTypeError, match=r"^hypothesis must be a Segmentation; received \w+ \w+\. Build one "
                                               r"with Segmentation\.from_boundaries") as caught:
        pk(Segmentation([3], 9), hypothesis)
    assert caught.value.parameter == "hypothesis"
    with pytest.raises(InvalidTypeError, match=r"received list \[3\]\. A bare sequence is ambiguous: build it with"):
        pk(Segmentation([3], 9), [3])


def test_render_given_something_else_than_a_result_says_what_it_got_and_how_to_get_one(tmp_path):
    """``render(result.to_dict())`` or ``render("results/")`` was refused as an InvalidParameterError
    (a ValueError) "result must be ...; received 'dict'": the type name quoted as if it were the value."""
    from stability import CorpusResult, load_results
    from stability.exceptions import InvalidTypeError
    from stability.reporting import render

    path = tmp_path / "results.jsonl"
    run = evaluate({"even": "even"}, [UNITS], n_restarts=2, progress=False, output=path)
    for given, hint in ((run.to_dict(), r"a result's to_dict\(\)\? render\(CorpusResult\.from_dict\(data\)\)"),
                        (str(path), r"a saved run\? render\(stability\.load_results\(path\)\)"),
                        (run.documents["even"][0], r"one document's result \(stability_test\)"),
                        (None, r"None$")):
        with pytest.raises(InvalidTypeError, match=r"^result must be a CorpusResult, ScoreResult, segmenter statuses "
                                                   rf"or a Report; received {type(given).__name__} .*{hint}"):
            render(given, "md")
    assert render(CorpusResult.from_dict(run.to_dict()), "md") == render(load_results(path), "md")


@pytest.mark.parametrize("metrics", [["pk", "wd"], "pk,wd", ("pk", "windowdiff")])
def test_the_metrics_setting_takes_the_names_render_takes(metrics, tmp_path):
    """``render(..., metrics=["pk", "wd"])`` and ``--metrics pk,wd`` take names; the run setting
    ``evaluate(..., metrics=["pk", "wd"])`` was refused (only ``{"names": [...]}`` was taken). It
    computes those metrics now, and is stored as the mapping is: a run resumes with either."""
    document = {"units": UNITS, "references": [[4]]}
    output = tmp_path / "results.jsonl"
    run = evaluate({"even": "even"}, [document], n_restarts=2, progress=False, metrics=metrics, output=output)
    assert set(run.documents["even"][0].reference_metrics) == {"pk", "windowdiff"}
    assert run.settings["metrics"] == {"names": ["pk", "windowdiff"]}
    again = evaluate({"even": "even"}, [document], n_restarts=2, progress=False, metrics={"names": ["pk", "wd"]},
                     output=output, resume=True)
    assert again.documents["even"][0].reference_metrics == run.documents["even"][0].reference_metrics


@pytest.mark.parametrize("metrics, said", [
    (["pk", "stp"], r"unknown: 'stp', a stability score \(STP\), which every run computes: the names choose among "
                    r"the reference metrics, computed against the documents' references$"),
    (["shuffle_f1"], r"unknown: 'shuffle_f1', a stability score \(shuffle F1\), which every run computes"),
    ("pk,wdd", r"received \['pk', 'wdd'\]; unknown: 'wdd'; did you mean 'wd'\?$"),
    (",", r"^metrics must be True, False, the reference metrics to compute \(a list of names, e.g. \['pk', 'wd'\]\) "
          r"or a mapping of metric options; received ','$"),
])
def test_the_metrics_setting_refuses_what_it_cannot_compute_naming_it(metrics, said):
    """A stability score named among the metrics to compute was said unknown, as a typo is; the
    stability scores are not chosen (every run computes them), which the error says now."""
    from stability.exceptions import InvalidParameterError

    with pytest.raises(InvalidParameterError, match=said) as refused:
        evaluate({"even": "even"}, [UNITS], n_restarts=2, progress=False, metrics=metrics)
    assert refused.value.parameter == "metrics"


@pytest.mark.parametrize("checks", [3, [["fast_path"]]])
def test_check_segmenter_given_checks_of_the_wrong_type_names_the_parameter(checks):
    """``checks=3`` ended in "'int' object is not iterable", ``checks=[["fast_path"]]`` in
    "unhashable type: 'list'", neither naming ``checks``."""
    from stability import check_segmenter
    from stability.exceptions import InvalidTypeError

    with pytest.raises(InvalidTypeError, match=r"^checks must be a list of names among valid_output, .*; received "):
        check_segmenter("even", checks=checks)
    assert [r.name for r in check_segmenter("even", checks={"fast_path"}).results] == ["fast_path"]


def test_a_results_repr_marks_the_headlines_that_cannot_be_read_as_scores():
    """The repr, what a script prints and a console shows, gave a layout-only chunker's headline
    beside a topic segmenter's with nothing to tell them apart, where every report flags it."""
    from stability.demo import demo_corpus

    run = evaluate({"c99": "c99", "even": "even", "chars": "fixed_chars"}, demo_corpus(n_documents=2), n_restarts=3,
                   progress=False, layout_control=True)
    text = repr(run)
    assert run.summary["chars"].layout_only and not run.summary["c99"].layout_only
    assert f"chars {run.summary['chars'].macro['count_corrected'].mean:.3f} (layout-only)" in text
    assert "even 0.000 (content-blind, layout-only)" in text
    assert f"c99 {run.summary['c99'].macro['count_corrected'].mean:.3f}," in text


def test_a_reference_given_as_segment_sizes_is_told_so():
    """A segmenter returning segment sizes is told "segment sizes? ... Segmentation.from_masses";
    a Document's reference given as sizes (segeval's masses, ``[[3, 3, 3]]``) was only told "3 is
    repeated", though the DESIGN says a bare list of ints read as boundaries names from_masses."""
    from stability import Document, Segmentation

    with pytest.raises(InvalidSegmentationError, match=r"3 is repeated in \[3, 3, 3\]; its values sum to the "
                                                       r"document's 9 units: segment sizes\? .*give "
                                                       r"Segmentation\.from_masses\(\[3, 3, 3\]\)$"):
        Document("a", ["x"] * 9, references=[[3, 3, 3]])
    with pytest.raises(InvalidSegmentationError, match=r"received 9 in \[3, 9\]; 9 ends the last segment") as caught:
        Document("a", ["x"] * 9, references=[[3, 9]])
    assert "from_masses" not in str(caught.value)  # no sizes: no segment-sizes hint (the ruptures one is e859ba0's)
    assert Document("a", ["x"] * 9, references=[Segmentation.from_masses([3, 3, 3])]).references[0].boundaries == (3, 6)


@pytest.mark.parametrize("spec", ["c99,mask_size=9", "texttiling, w=10"])
def test_a_command_line_spelling_given_from_python_says_how_python_spells_it(spec):
    """A report's label or a ``-s`` value (``c99,mask_size=9``) given to get_segmenter or
    evaluate was "unknown segmenter 'c99,mask_size=9'" followed by a list of the known names,
    the name it began with among them."""
    from stability import get_segmenter
    from stability.exceptions import UnknownSegmenterError

    name = spec.split(",")[0]
    said = (rf"^unknown segmenter '{spec}': 'NAME,key=value' is the command line's spelling .*; from Python give the "
            rf"parameters as keywords, get_segmenter\('{name}', key=value, \.\.\.\)")
    with pytest.raises(UnknownSegmenterError, match=said):
        get_segmenter(spec)
    with pytest.raises(UnknownSegmenterError, match=said):
        evaluate([spec], [UNITS], n_restarts=2, progress=False)
    with pytest.raises(UnknownSegmenterError, match="Known segmenters"):
        get_segmenter("c9,mask_size=9")  # no such name: the list, as before


def test_a_resume_refused_for_changed_parameters_names_the_ones_that_changed(tmp_path):
    """A resume with C99's mask_size changed was refused quoting its seven parameters then and
    now, the one that changed left to be found; changed settings are named one by one."""
    from stability import get_segmenter
    from stability.exceptions import InvalidParameterError

    out = tmp_path / "results.jsonl"
    evaluate({"c99": "c99"}, [UNITS], n_restarts=2, progress=False, output=out)
    with pytest.raises(InvalidParameterError, match=r"'c99' were computed with parameters \{.*\}, now \{.*\} "
                                                    r"\(mask_size: 11 then, 9 now; std_coeff: 1\.2 then, 1\.0 now\); "
                                                    r"resume with the same parameters, or start afresh with "
                                                    r"output= another path, or with overwrite=True \(instead of "
                                                    r"resume=True\) to replace its results"):
        evaluate({"c99": get_segmenter("c99", mask_size=9, std_coeff=1.0)}, [UNITS], n_restarts=2, progress=False,
                 output=out, resume=True)


def test_load_results_given_no_path_names_its_parameter():
    """load_results(3) raised pathlib's "expected str, bytes or os.PathLike object, not int"."""
    from stability import load_results
    from stability.exceptions import InvalidTypeError

    with pytest.raises(InvalidTypeError, match=r"path must be a results file, a JSON report or a run's folder "
                                               r"\(a str or path\); received int 3") as caught:
        load_results(3)
    assert caught.value.parameter == "path"


def test_a_document_mapping_with_a_files_reference_key_is_told_how_python_gives_it():
    """{"units": ..., "boundaries": [...]} reads in a JSON lines file but was refused in Python
    with "unknown keys ['boundaries']" alone."""
    from stability.exceptions import InvalidParameterError

    with pytest.raises(InvalidParameterError, match=r"document 0: unknown keys \['boundaries'\]; expected id, units, "
                                                    r"references, times, meta \('boundaries': a file's spelling of a "
                                                    r"reference; here references is a list of them"):
        evaluate({"even": "even"}, [{"units": UNITS, "boundaries": [2]}], n_restarts=2, progress=False)
    with pytest.raises(InvalidParameterError, match=r"unknown keys \['text'\]; expected id, units, references, "
                                                    r"times, meta$"):
        evaluate({"even": "even"}, [{"units": UNITS, "text": "x"}], n_restarts=2, progress=False)


def test_a_segmenter_returning_its_units_cut_into_chunks_is_told_how_to_give_them():
    """A segmenter slicing the units list (``[units[:4], units[4:8], ...]``) was told only that
    "boundaries[0] must be an integer; received list [...]", where one returning chunk texts was
    pointed to ChunkerSegmenter; the hint it gets works as said."""
    from stability import Segmentation

    def sliced(units):
        return [units[i:i + 4] for i in range(0, len(units), 4)]

    run = evaluate({"sliced": sliced}, [UNITS * 2], n_restarts=2, progress=False)
    (failure,) = run.failures
    assert failure.error.endswith("; it returned lists of strings (the units cut into chunks?): a segmenter returns "
                                  "boundaries, the index of the unit each chunk after the first starts at; return "
                                  "Segmentation.from_masses([len(chunk) for chunk in chunks]) to give chunks of units")

    def as_told(units):
        return Segmentation.from_masses([len(chunk) for chunk in sliced(units)])

    run = evaluate({"as_told": as_told}, [UNITS * 2], n_restarts=2, progress=False)
    assert not run.failures and run.documents["as_told"][0].segmentation.boundaries == tuple(
        range(4, len(UNITS) * 2, 4))


@pytest.mark.parametrize("name", ["my,seg", "k=4", " padded ", "pkg:attr"])
def test_register_refuses_a_name_the_command_line_cannot_name(name):
    """register('my,seg', ...) was accepted, though -s 'my,seg' reads the segmenter 'my' with a
    parameter 'seg', and a config's segmenter key the same."""
    from stability import register
    from stability.exceptions import InvalidParameterError

    with pytest.raises(InvalidParameterError, match=r"name must be a non-empty string without ':', ',' or '=' "
                                                    r"\(the command line's -s NAME,key=value names it\) nor blanks "
                                                    r"around it; received"):
        register(name, lambda units: [])


def _model_not_loaded(units):
    raise ValueError("model not loaded")


def test_evaluate_raising_on_error_shows_where_the_segmenter_failed_as_stability_test_does():
    """``stability_test`` raised a segmenter's exception with the segmenter's traceback after the
    message; ``evaluate(..., on_error="raise")`` raised it with the message alone, so a notebook
    user saw where the library stopped and not the line of their segmenter that failed. Both keep
    that traceback on the exception (``.traceback``) and show it after the message."""
    from stability import SegmenterError, stability_test

    with pytest.raises(SegmenterError) as single:
        stability_test(_model_not_loaded, UNITS, n_restarts=2)
    with pytest.raises(SegmenterError) as corpus:
        evaluate({"mine": _model_not_loaded}, [UNITS], n_restarts=2, progress=False, on_error="raise")
    for raised in (single.value, corpus.value):
        assert "ValueError: model not loaded" in raised.traceback
        assert "in _model_not_loaded" in raised.traceback
        assert raised.traceback in str(raised)
    assert str(corpus.value).startswith("segmenter 'mine', document '0', initial segmentation, seed 0: "
                                        "ValueError: model not loaded (1 failure(s) in the run)\n")
    with pytest.raises(SegmenterError) as invalid:  # an invalid output has no traceback to show
        evaluate({"mine": lambda units: [0]}, [UNITS], n_restarts=2, progress=False, on_error="raise")
    assert invalid.value.traceback == "" and "\n" not in str(invalid.value)


@pytest.mark.parametrize("given, said", [
    ("../shared/data/choi", r"received str '\.\./shared/data/choi': a file or a folder is read with "
                            r"read_corpus\(path\); one raw text goes in a list, \[text\], with splitter='auto'"),
    ("A text. Another sentence.", r"one raw text goes in a list, \[text\], with splitter='auto'"),
])
def test_documents_given_as_a_path_or_a_text_are_told_how_to_pass_them(given, said):
    """A notebook user passing the corpus's path (or one text) to evaluate was told only that
    documents must be an iterable of documents, not how to read a path or pass a text."""
    from pathlib import Path

    from stability.exceptions import InvalidTypeError

    with pytest.raises(InvalidTypeError, match=said):
        evaluate("even", given, n_restarts=2, progress=False)
    with pytest.raises(InvalidTypeError, match=r"received \w*Path .*: a file or a folder is read with "
                                               r"read_corpus\(path\)"):
        evaluate("even", Path("corpus/"), n_restarts=2, progress=False)


def test_a_segmenter_that_cannot_take_the_units_alone_is_refused_before_the_run():
    """A function of two required arguments (``f(units, k)``) was called on every document, each
    call recorded as a failure ("missing 1 required positional argument: 'k'"), and the report
    said it failed on every document; a callable that takes no argument likewise."""
    from stability import get_segmenter
    from stability.exceptions import InvalidParameterError, InvalidTypeError

    def window(units, k):
        return list(range(k, len(units), k))

    # a parameter without a default is named with how to give it (registry._check_call)
    with pytest.raises(InvalidParameterError, match=r"segmenter 'window' needs parameter 'k', which has no default: "
                                                    r"give it as get_segmenter\(\.\.\., k=\.\.\.\)"):
        evaluate(window, [UNITS], n_restarts=2, progress=False)
    with pytest.raises(InvalidTypeError, match=r"its signature is \(\)"):
        get_segmenter(lambda: [3])
    assert get_segmenter(window, k=3)(UNITS) == [3, 6, 9]  # the parameter given: it takes the units alone
    assert get_segmenter(lambda units, *rest, k=2: [k])(UNITS) == [2]


@pytest.mark.parametrize("segmenters, said", [
    ({"c99": "c99", "mine": 3}, "segmenters['mine'] must be a callable"),
    (["c99", None], "segmenters[1] must be a callable"),
    ({"mine": b"c99"}, "segmenters['mine'] must be a callable"),
])
def test_a_segmenter_of_the_wrong_type_among_several_is_named_by_its_label_or_place(segmenters, said):
    """``evaluate({"c99": "c99", "mine": 3}, ...)`` said "segmenter must be a callable, ...;
    received int 3" without saying which entry of the mapping (or list) held it."""
    from stability.demo import demo_corpus
    from stability.exceptions import InvalidTypeError

    with pytest.raises(InvalidTypeError, match=said.replace("[", r"\[").replace("]", r"\]")) as caught:
        evaluate(segmenters, demo_corpus(n_documents=1), n_restarts=2, progress=False)
    assert "a registered name or a 'module:attribute' string; received" in str(caught.value)
    assert caught.value.parameter == "segmenters"


@pytest.mark.parametrize("found", ["where", "nonzero"])
def test_a_segmenter_returning_what_np_where_returns_is_told_to_take_its_array(found):
    """``return np.where(starts)`` (or ``np.nonzero``) returns a tuple holding one array, and was
    refused with only 'boundaries[0] must be an integer; received ndarray array([3, 7])'."""
    import numpy as np

    from stability import SegmenterOutputError, stability_test

    def segment(units):
        starts = np.array([i in (3, 7) for i in range(len(units))])
        return getattr(np, found)(starts)

    with pytest.raises(SegmenterOutputError, match=re.escape(
            "it returned a tuple holding one array of integers (what np.where and np.nonzero return): "
            "return that array, np.where(...)[0]")):
        stability_test(segment, UNITS, n_restarts=2)
