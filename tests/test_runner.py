"""The corpus runner: summaries, failures kept apart, JSON-lines streaming and resume."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import cohesion_segmenter, topical_document
from stability import Document, InvalidParameterError, InvalidTypeError, SegmenterError, evaluate, stability_test
from stability.demo import demo_corpus
from stability.store import ResultsWarning


def corpus(n=4):
    docs = []
    for i in range(n):
        units, reference = topical_document(100 + i)
        docs.append(Document(f"doc{i}", tuple(units), references=(tuple(reference),)))
    return docs


def test_summary_is_mean_and_std_over_documents():
    docs = corpus(4)
    res = evaluate({"lex": cohesion_segmenter, "even": "even", "none": "none"}, docs, n_restarts=15, progress=False)
    assert list(res.documents) == ["lex", "even", "none"]
    lex = res.documents["lex"]
    assert [r.document for r in lex] == ["doc0", "doc1", "doc2", "doc3"]
    f1 = np.array([r.f1 for r in lex])
    stat = res.summary["lex"].macro["f1"]
    assert stat.mean == pytest.approx(f1.mean()) and stat.std == pytest.approx(f1.std(ddof=1)) and stat.n == 4
    assert stat.ci[0] <= stat.mean <= stat.ci[1]
    assert res.summary["lex"].content_blind is False and res.summary["even"].content_blind is True
    assert res.summary["none"].content_blind is True and res.summary["lex"].deterministic is True
    assert np.isnan(res.summary["none"].macro["corrected_f1"].mean)  # chance level 1: undefined
    # micro average pools every restart's counts
    matched = sum(int(np.round(r.restart_recall * r.n_boundaries).sum()) for r in lex)
    initial = sum(r.n_boundaries * r.n_restarts for r in lex)
    assert res.summary["lex"].micro["recall"] == pytest.approx(matched / initial)


def test_corpus_results_equal_single_document_results():
    docs = corpus(2)
    res = evaluate([cohesion_segmenter], docs, n_restarts=10, seed=3, progress=False)
    alone = stability_test(cohesion_segmenter, docs[1], n_restarts=10, seed=3)
    assert res.documents["cohesion_segmenter"][1].to_dict() == alone.to_dict()


def test_parallel_corpus_run_is_identical_to_sequential():
    docs = corpus(3)
    a = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=12, progress=False)
    b = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=12, n_jobs=2, block_size=2, progress=False)
    assert a.to_dict()["documents"] == b.to_dict()["documents"]
    assert a.to_dict()["summary"] == b.to_dict()["summary"]


def flaky(units):
    if units[0].startswith("BAD"):
        raise ValueError("this document breaks me")
    return cohesion_segmenter(units)


def test_a_failing_document_does_not_lose_the_others(tmp_path):
    docs = corpus(3)
    docs.insert(1, Document("broken", ("BAD unit",) + docs[0].units[1:]))
    out = tmp_path / "run.jsonl"
    res = evaluate({"flaky": flaky}, docs, n_restarts=5, output=out, progress=False)
    assert [r.document for r in res.documents["flaky"]] == ["doc0", "doc1", "doc2"]
    assert len(res.failures) == 1 and res.failures[0].document == "broken"
    assert "this document breaks me" in res.failures[0].message() and res.failures[0].restart is None
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["type"] for r in records] == ["run", "result", "failure", "result", "result"]
    assert res.summary["flaky"].n_failed == 1 and res.summary["flaky"].n_documents == 3

    with pytest.raises(SegmenterError, match="this document breaks me"):
        evaluate({"flaky": flaky}, docs, n_restarts=5, output=out, overwrite=True, on_error="raise", progress=False)
    # every result was written before raising
    assert sum(1 for line in out.read_text().splitlines() if '"result"' in line) == 3


class CountingSegmenter:
    def __init__(self):
        self.calls = 0

    def __call__(self, units):
        self.calls += 1
        return cohesion_segmenter(units)


def test_resume_completes_an_interrupted_run(tmp_path):
    docs = corpus(4)
    out = tmp_path / "run.jsonl"
    # the code of the resume's segmenter (this module's): its results are reused
    full = evaluate({"lex": CountingSegmenter()}, docs, n_restarts=8, output=out, progress=False)
    lines = out.read_text().splitlines()
    # simulate an interruption after two documents, with a half-written third line
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:40])
    counter = CountingSegmenter()
    with pytest.raises(InvalidParameterError, match="already exists"):
        evaluate({"lex": counter}, docs, n_restarts=8, output=out, progress=False)
    with pytest.warns(ResultsWarning, match="run.jsonl:4: incomplete last line left out"):
        resumed = evaluate({"lex": counter}, docs, n_restarts=8, output=out, resume=True, progress=False)
    per_doc = 2 + 8 * 2  # initial + determinism check + restarts of both streams
    assert counter.calls == 2 * per_doc  # only the two missing documents were run
    assert resumed.to_dict()["documents"] == full.to_dict()["documents"]
    with pytest.raises(InvalidParameterError, match=r"different settings \(n_restarts: 8 then, 9 now\)"):
        evaluate({"lex": counter}, docs, n_restarts=9, output=out, resume=True, progress=False)


def test_documents_are_consumed_lazily_in_blocks():
    seen = []

    def stream():
        for i, doc in enumerate(corpus(5)):
            seen.append(i)
            yield doc

    results = []
    evaluate({"even": "even"}, stream(), n_restarts=2, block_size=2, progress=False,
             on_result=lambda r: results.append((r.document, len(seen))))
    # the first block's results are delivered before the last documents are read
    assert results[0] == ("doc0", 2) and results[-1][0] == "doc4"


def test_bad_inputs_are_named():
    with pytest.raises(InvalidParameterError, match="appears twice"):
        evaluate("even", [Document("a", ("x",)), Document("a", ("y",))], n_restarts=2, progress=False)
    with pytest.raises(InvalidParameterError, match="used twice"):
        evaluate(["even", "even"], [["x", "y"]], n_restarts=2, progress=False)
    with pytest.raises(InvalidParameterError, match="on_error must be"):
        evaluate("even", [["x"]], on_error="ignore")


def test_a_list_of_documents_is_validated_before_any_segmenter_call():
    """An invalid document at the end of a list used to stop the run after the blocks before it
    were computed, and their results were lost with it."""
    calls = []

    def counting(units):
        calls.append(1)
        return []

    with pytest.raises(InvalidParameterError, match="document '2' must have at least one unit"):
        evaluate({"c": counting}, [["a"] * 4, ["b"] * 4, []], n_restarts=2, block_size=1, progress=False)
    assert calls == []


@pytest.mark.parametrize("build, fragment", [
    # a string used to become one unit per character
    (lambda: Document("x", "One. Two."), r"document 'x' units must be a sequence of strings, one per unit"),
    (lambda: evaluate("even", [{"id": "x", "units": "One. Two."}], n_restarts=2, progress=False),
     r"document 'x' units must be a sequence of strings"),
    # these raised bare TypeError / ValueError from inside the constructor
    (lambda: Document("x", ["a", "b"], references=None), r"document 'x' references must be a sequence of reference"),
    (lambda: Document("x", ["a", "b", "c"], references=[1, 2]), r"wrap it, references=\(\[3, 7\],\); received list"),
    (lambda: Document("x", ["a", "b"], times=[(0, 1), ("a", 2)]), r"document 'x' times\[1\] start must be a real"),
    (lambda: Document("x", ["a", "b"], times=[0, 1]), r"document 'x' times\[0\] must be a \(start, end\) pair"),
    (lambda: evaluate("even", 5, n_restarts=2, progress=False), r"documents must be an iterable of documents"),
    # accepted, then failed wherever meta was read (a reader's notes, the reports)
    (lambda: Document("x", ["a", "b"], meta=5), r"document 'x' meta must be a mapping"),
])
def test_malformed_documents_are_one_error_naming_the_field(build, fragment):
    with pytest.raises((InvalidParameterError, InvalidTypeError), match=fragment):
        build()


def test_demo_corpus_is_seeded_and_has_references():
    a, b = demo_corpus(n_documents=3, seed=1), demo_corpus(n_documents=3, seed=1)
    assert a == b and a != demo_corpus(n_documents=3, seed=2)
    for doc in a:
        assert len(doc.references) == 1 and doc.references[0].n_segments == 6
        assert len(set(doc.meta["topics"])) == 6
        assert min(doc.references[0].masses) >= 3 and max(doc.references[0].masses) <= 11


def test_progress_bar_does_not_disturb_results(capsys):
    docs = corpus(2)
    a = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=4, progress=True)
    b = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=4, progress=False)
    assert a.to_dict()["documents"] == b.to_dict()["documents"]
    assert capsys.readouterr().out == ""


def test_load_results_from_an_interrupted_stream(tmp_path):
    from stability import CorpusFormatError
    from stability.summary import load_results  # still importable from its former home

    out = tmp_path / "run.jsonl"
    full = evaluate({"lex": cohesion_segmenter}, corpus(3), n_restarts=4, output=out, progress=False)
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:25])  # the third result was cut
    with pytest.warns(ResultsWarning, match=r"run.jsonl:4: incomplete last line left out"):
        partial = load_results(out)
    assert [r.document for r in partial.documents["lex"]] == ["doc0", "doc1"]
    assert partial.documents["lex"][1].to_dict() == full.documents["lex"][1].to_dict()
    # the report of a file says how many documents it holds, as the run's own report did
    assert full.settings["n_documents"] == 3 and partial.settings["n_documents"] == 2
    out.write_text("\n".join([lines[0], "{oops", lines[1]]) + "\n")
    with pytest.raises(CorpusFormatError, match=r"run.jsonl:2: not a JSON record .*; the other lines hold finished "
                                                r"results: remove or repair this one to read them"):
        load_results(out)


def test_builtin_segmenters_are_reproducible_across_processes():
    # loky workers have other hash seeds than this process: a segmenter whose output depended on
    # set or dict iteration order of strings would differ here.
    docs = demo_corpus(n_documents=3, n_segments=4)
    names = ["c99", "u00", "texttiling"]
    a = evaluate(names, docs, n_restarts=6, progress=False)
    b = evaluate(names, docs, n_restarts=6, n_jobs=2, progress=False)
    assert a.to_dict()["documents"] == b.to_dict()["documents"]


def test_resume_refuses_changed_segmenter_parameters(tmp_path):
    from stability import get_segmenter

    out = tmp_path / "run.jsonl"
    docs = corpus(2)
    evaluate({"ev": get_segmenter("even", n_segments=3)}, docs, n_restarts=2, output=out, progress=False)
    with pytest.raises(InvalidParameterError, match="'ev' were computed with parameters .*'n_segments': 3.*now"):
        evaluate({"ev": get_segmenter("even", n_segments=4)}, docs, n_restarts=2, output=out, resume=True, progress=False)
    again = evaluate({"ev": get_segmenter("even", n_segments=3)}, docs, n_restarts=2, output=out, resume=True, progress=False)
    assert len(again.documents["ev"]) == 2



class _EveryK:
    """A segmenter class written without stability.Segmenter, hence without get_params: it stores
    its parameter under its own name, as scikit-learn's estimators do."""

    def __init__(self, k=3):
        self.k = k

    def __call__(self, units):
        return list(range(self.k, len(units), self.k))


def test_a_segmenter_class_without_get_params_has_its_parameters_recorded_and_checked_on_resume(tmp_path):
    # before: its parameters were recorded as {} (reports showed none), and a resume with k=4
    # silently reused the results computed with k=3 (a config's [segmenters.mine] table labels
    # them "mine" whatever its keys)
    from stability import get_segmenter

    out = tmp_path / "run.jsonl"
    docs = corpus(2)
    first = evaluate({"mine": get_segmenter(_EveryK, k=3)}, docs, n_restarts=2, output=out, progress=False)
    assert first.documents["mine"][0].params == {"k": 3}
    with pytest.raises(InvalidParameterError, match="'mine' were computed with parameters {'k': 3}, now {'k': 4}"):
        evaluate({"mine": get_segmenter(_EveryK, k=4)}, docs, n_restarts=2, output=out, resume=True, progress=False)



class _EveryKFrom(_EveryK):
    """``_EveryK`` in a later release: a parameter added, whose default keeps what it did."""

    def __init__(self, k=3, start=0):
        super().__init__(k)
        self.start = start

    def __call__(self, units):
        return list(range(self.k + self.start, len(units), self.k))


def test_a_resume_accepts_results_written_before_a_parameter_was_added_at_its_default(tmp_path):
    # before: a segmenter gaining a parameter (TextTiling's tokenizer) made every results file
    # written earlier refuse to resume ("computed with parameters {'k': 3}, now {'k': 3, 'start': 0}"),
    # though the results are the same; a value other than the default is still refused
    from stability import get_segmenter

    out = tmp_path / "run.jsonl"
    docs = corpus(2)
    first = evaluate({"mine": get_segmenter(_EveryK, k=3)}, docs, n_restarts=2, output=out, progress=False)
    with pytest.raises(InvalidParameterError, match="computed with parameters {'k': 3}, now {'k': 3, 'start': 1}"):
        evaluate({"mine": get_segmenter(_EveryKFrom, k=3, start=1)}, docs, n_restarts=2, output=out, resume=True,
                 progress=False)
    written = out.read_text()
    again = evaluate({"mine": get_segmenter(_EveryKFrom, k=3)}, docs, n_restarts=2, output=out, resume=True,
                     progress=False)
    assert again.to_dict()["documents"] == first.to_dict()["documents"]
    assert out.read_text() == written  # reused: nothing computed again
    with pytest.raises(InvalidParameterError, match="computed with parameters {'k': 3}, now {'k': 4, 'start': 0}"):
        evaluate({"mine": get_segmenter(_EveryKFrom, k=4)}, docs, n_restarts=2, output=out, resume=True,
                 progress=False)

# ----------------------------------------------------------------------------------------------
# n_segments = "reference": each document's own known count (issue 11, item 2)
# ----------------------------------------------------------------------------------------------
def documents_with_different_counts():
    """Demo documents whose references have 3, 5 and 7 segments."""
    docs = []
    for count in (3, 5, 7):
        doc = demo_corpus(n_documents=1, n_segments=count, seed=count)[0]
        docs.append(Document(f"k{count}", doc.units, doc.references))
    return docs


@pytest.mark.parametrize("name", ["c99", "u00", "even"])
def test_reference_count_is_resolved_per_document(name):
    from stability import get_segmenter

    docs = documents_with_different_counts()
    res = evaluate({name: get_segmenter(name, n_segments="reference")}, docs, n_restarts=3, progress=False)
    for doc, result in zip(docs, res.documents[name]):
        told = get_segmenter(name, n_segments=doc.references[0].n_segments)
        # the same boundaries as the segmenter told this document's count by hand
        assert result.segmentation.boundaries == tuple(told(list(doc.units)))
        assert result.params["n_segments"] == "reference"
    # told 3, 5 and 7 segments: a single fixed count could not give these
    assert [r.n_boundaries for r in res.documents[name]] == [2, 4, 6]
    assert res.settings["segmenter_params"][name]["n_segments"] == "reference"


def test_reference_count_without_a_reference_is_a_failure_of_that_document(tmp_path):
    from stability import get_segmenter

    docs = documents_with_different_counts()
    docs.insert(1, Document("plain", docs[0].units))
    out = tmp_path / "run.jsonl"
    res = evaluate({"c99": get_segmenter("c99", n_segments="reference")}, docs, n_restarts=2, output=out, progress=False)
    assert [r.document for r in res.documents["c99"]] == ["k3", "k5", "k7"]
    (failure,) = res.failures
    assert failure.document == "plain" and failure.restart is None
    assert "document 'plain' has no reference segmentation" in failure.message()
    # resuming checks the recorded parameters ("reference") against the same segmenter: accepted
    again = evaluate({"c99": get_segmenter("c99", n_segments="reference")}, docs, n_restarts=2, output=out,
                     resume=True, progress=False)
    assert again.to_dict()["documents"] == res.to_dict()["documents"]
    with pytest.raises(SegmenterError, match="has no reference segmentation"):
        stability_test(get_segmenter("u00", n_segments="reference"), list(docs[0].units), n_restarts=2)


def test_reference_count_over_a_corpus_without_any_reference_is_refused_before_the_run(tmp_path):
    """n_segments="reference" over documents none of which has a reference (a study's config run on
    the user's own unannotated corpus) failed on every document, one pair after another, and the
    run ended with nothing of that segmenter (found by the config audit): a corpus known in full is
    now refused before anything runs or is written, naming the segmenter; an iterator still fails
    document by document, as a corpus where only some documents have a reference does (above)."""
    from stability import get_segmenter

    plain = [Document(f"p{i}", doc.units) for i, doc in enumerate(documents_with_different_counts())]
    told = {"even": "even", "c99_told": get_segmenter("c99", n_segments="reference")}
    out = tmp_path / "run.jsonl"
    with pytest.raises(InvalidParameterError, match=r"c99_told takes n_segments='reference'.* none of the 3 document\(s\)") as error:
        evaluate(told, plain, n_restarts=2, output=out, progress=False)
    assert error.value.parameter == "n_segments" and not out.exists()
    streamed = evaluate(told, iter(plain), n_restarts=2, progress=False)
    assert {f.document for f in streamed.failures} == {"p0", "p1", "p2"} and len(streamed.documents["even"]) == 3


def test_the_command_line_refuses_a_reference_count_over_a_corpus_without_references_before_the_run(tmp_path):
    """From the command line the corpus is a stream, so ``n_segments = "reference"`` over a
    corpus without any reference failed on every document (one summarised warning, exit 3) where
    ``evaluate`` on a list refuses it before anything runs. The corpus is now read again up to its
    first document with a reference, one document at a time: none at all is refused before any
    segmenter runs or the folder is made; one with a reference past its first document runs."""
    from typer.testing import CliRunner

    from stability.cli import app
    from stability.readers import write_jsonl

    plain = [Document(f"p{i}", doc.units) for i, doc in enumerate(documents_with_different_counts())]
    write_jsonl(plain, tmp_path / "plain.jsonl")
    out = tmp_path / "out"
    args = ["run", "-c", str(tmp_path / "plain.jsonl"), "-s", "u00,n_segments=reference", "-s", "even", "--restarts", "2"]
    refused = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert refused.exit_code not in (0, 3), refused.output
    assert ("'u00,n_segments=reference' takes n_segments='reference', the number of segments of each document's first "
            "reference, and none of the 3 document(s) has a reference segmentation" in refused.stderr), refused.output
    assert not out.exists()
    some = [plain[0], *documents_with_different_counts()[1:]]  # the first without a reference, the others with one
    write_jsonl(some, tmp_path / "some.jsonl")
    ran = CliRunner().invoke(app, [*args[:2], str(tmp_path / "some.jsonl"), *args[3:]])
    assert ran.exit_code == 3 and "document 'p0' has no reference segmentation" in ran.stderr, ran.output

    from stability.runner import check_reference_counts

    read = []

    def stream():
        for doc in some:
            read.append(doc.id)
            yield doc

    check_reference_counts(stream(), ["told"])
    assert read == ["p0", some[1].id]  # read up to the first document with a reference, not further


def test_reference_count_needs_an_n_segments_parameter_and_a_document():
    from stability import get_segmenter

    with pytest.raises(InvalidParameterError, match="texttiling.*n_segments='reference' needs a segmenter with an n_segments"):
        get_segmenter("texttiling", n_segments="reference")
    with pytest.raises(InvalidParameterError, match="resolved per document"):
        get_segmenter("c99", n_segments="reference")(["a", "b", "c"])
    with pytest.raises(InvalidParameterError, match="n_segments"):
        get_segmenter("c99", n_segments="references")  # any other string is still refused by the segmenter
    # ... saying what the string may be, and the spelling meant (before: "must be None or an integer" alone)
    with pytest.raises(InvalidParameterError, match=r"received str 'refrence' \(n_segments='reference' gives each "
                                                    r"document the number of segments of its reference\); did you mean "
                                                    r"'reference'\?$"):
        get_segmenter("c99", n_segments="refrence")


def test_reference_count_from_a_config(tmp_path):
    from stability.config import load_config, run_experiment

    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\ndemo = { n_documents = 2, n_segments = 4 }\n'
                      '[segmenters.c99told]\nsegmenter = "c99"\nn_segments = "reference"\n[run]\nn_restarts = 2\n')
    res = run_experiment(load_config(config), progress=False)
    assert [r.n_boundaries for r in res.documents["c99told"]] == [3, 3]
    assert res.summary["c99told"].params["n_segments"] == "reference"


def test_a_mistyped_reference_count_in_a_config_says_the_spelling_meant(tmp_path):
    from stability.config import load_config, run_experiment

    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\ndemo = { n_documents = 2 }\n[segmenters.u00]\nn_segments = "Reference"\n')
    with pytest.raises(InvalidParameterError, match=r"exp\.toml: \[segmenters\.u00\]: n_segments must be an integer; "
                                                    r"received str 'Reference' \(n_segments='reference' .*\); did "
                                                    r"you mean 'reference'\?$"):
        run_experiment(load_config(config), progress=False)


def test_every_segmenter_with_n_segments_takes_the_reference_count():
    from stability import available_segmenters, get_segmenter
    from stability.registry import describe_segmenters

    doc = documents_with_different_counts()[1]  # 5 segments
    takers = [name for name, status in describe_segmenters(sorted(available_segmenters())).items()
              if status.ok and "n_segments" in (status.params or {})]
    assert {"c99", "u00", "even", "random"} <= set(takers)
    for name in takers:
        per_document = get_segmenter(name, n_segments="reference")
        assert per_document.get_params()["n_segments"] == "reference"
        told = get_segmenter(name, n_segments=5)
        assert list(per_document.for_document(doc)(list(doc.units))) == list(told(list(doc.units))), name


@pytest.mark.parametrize("documents, received", [([], "received []"), ((), "received ()"),
                                                 (iter([]), "received a list_iterator that yielded none"),
                                                 ((d for d in []), "received a generator that yielded none")])
def test_a_corpus_of_no_document_is_refused_before_anything_is_written(tmp_path, documents, received):
    # the command line refuses an empty corpus; the library returned a result of NaN scores
    with pytest.raises(InvalidParameterError) as caught:
        evaluate({"even": "even"}, documents, n_restarts=2, progress=False, output=tmp_path / "out")
    assert str(caught.value) == f"documents must be a corpus of at least one document; {received}"
    assert not (tmp_path / "out").exists()


def test_a_stream_of_documents_loses_none_to_the_check_for_an_empty_corpus():
    docs = [["a"] * 12, ["b"] * 15]
    streamed = evaluate({"even": "even"}, (d for d in docs), n_restarts=2, progress=False)
    listed = evaluate({"even": "even"}, docs, n_restarts=2, progress=False)
    assert streamed.to_dict()["documents"] == listed.to_dict()["documents"]
    assert len(streamed.documents["even"]) == 2


def test_documents_of_one_unit_are_named_once_after_the_run():
    # a document of one unit has no place for a boundary: every segmenter scores 0 on it and matches
    # its reference; a corpus of them flagged every segmenter content-blind without a word of why
    from stability import CorpusWarning
    from stability.catalogue import HEADLINE

    docs = [Document("short", ("one unit only",), references=((),)), *corpus(2), Document("alone", ("alone",))]
    with pytest.warns(CorpusWarning) as caught:
        run = evaluate({"even": "even"}, docs, n_restarts=2, progress=False, block_size=2)
    said = [str(w.message) for w in caught if "single unit" in str(w.message)]
    assert said == ["2 of 4 document(s) hold a single unit ('short', 'alone'): no segmenter can place a boundary "
                    "there: each scores 0 on them (the headline's no-credit rule) and, against a reference, is right "
                    "(no boundary in either); read the corpus in smaller units (sentences rather than paragraphs or "
                    "lines) to test them"]  # once, though the documents came in two blocks
    assert [HEADLINE.value(r) for r in run.documents["even"] if r.document in ("short", "alone")] == [0.0, 0.0]
