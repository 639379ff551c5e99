"""The library used from a notebook or a script, never through the command line: an interrupted
run keeps what finished, results display themselves, warnings can be filtered as one family."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest

from stability import CorpusResult, Document, RunInterrupted, evaluate, load_results


def even_thirds(units):
    return list(range(3, len(units), 3))


def letters(n_documents: int = 5, n_units: int = 12) -> list[Document]:
    return [Document(f"d{i}", tuple(f"d{i} unit {j}" for j in range(n_units))) for i in range(n_documents)]


def interrupting_at(document: str):
    """A segmenter like :func:`even_thirds` that sends this process a real SIGINT (a notebook's
    interrupt button, Ctrl-C in a script) while it segments ``document``."""

    def segment(units):
        if units[0].startswith(f"{document} "):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the signal arrives before this ends
        return even_thirds(units)

    return segment


@pytest.mark.parametrize("with_file", [False, True])
def test_an_interrupted_evaluate_keeps_the_pairs_that_finished(tmp_path, with_file):
    output = tmp_path / "run.jsonl" if with_file else None
    segmenters = {"even": even_thirds, "stops": interrupting_at("d3")}
    # blocks of two documents: d0 and d1 finish, then d3's first segmentation is interrupted
    with pytest.raises(KeyboardInterrupt) as caught:
        evaluate(segmenters, letters(), n_restarts=3, block_size=2, progress=False, output=output)
    stop = caught.value
    assert isinstance(stop, RunInterrupted)
    assert stop.finished == 4  # two segmenters x two documents
    message = str(stop)
    assert "4 (segmenter, document) pairs finished" in message and ".result" in message
    partial = stop.result
    assert {label: [r.document for r in docs] for label, docs in partial.documents.items()} == {
        "even": ["d0", "d1"], "stops": ["d0", "d1"]}
    assert partial.settings["n_documents"] == 2 and partial.summary["even"].n_documents == 2
    assert partial.failures == []
    # the same numbers as an uninterrupted run of those documents
    whole = evaluate({"even": even_thirds, "stops": even_thirds}, letters(2), n_restarts=3, progress=False)
    assert [r.to_dict() for r in partial.documents["even"]] == [r.to_dict() for r in whole.documents["even"]]
    if with_file:
        assert "resume=True" in message
        on_disk = load_results(output)
        assert on_disk.to_dict()["documents"] == partial.to_dict()["documents"]
    else:
        assert "output=" in message  # how to keep them on disk next time


def _fragment_checks(shown: str, report) -> None:
    """``shown`` is a fragment (nothing that would restyle the notebook around it) holding the
    compact report's result line and every cell of its tables."""
    import html

    assert shown.startswith('<div class="stability-report">') and shown.endswith("</div>")
    for page_only in ("<!DOCTYPE", "<html", "<head", "<body", "<style", "<script"):
        assert page_only not in shown
    assert html.escape(report.result).replace(",", ",<wbr>") in shown  # breaks after commas, not in numbers
    for section in report.tables(details=False):
        for cell in [*section.header, *(cell for row in section.rows for cell in row)]:
            assert html.escape(str(cell)) in shown


def test_a_corpus_result_shows_its_compact_report_in_a_notebook():
    from stability.reporting import report_of

    result = evaluate({"even": even_thirds, "none": "none"}, letters(3), n_restarts=2, progress=False)
    shown = result._repr_html_()
    report = report_of(result, compact=True)
    _fragment_checks(shown, report)
    assert report.sections[0].header[0] == "segmenter" and "stability [95% CI]" in report.sections[0].header
    # no per-document table (the folded settings hold a digest of this file, which may read "d1")
    assert "d1" not in shown.partition("<details><summary>Settings</summary>")[0]
    assert "<details><summary>Settings</summary>" in shown  # folded


def test_a_score_result_shows_its_report_in_a_notebook(tmp_path):
    import json

    from stability.reporting import report_of
    from stability.scoring import score_files

    for name, boundaries in (("ref", [[3, 7], [5]]), ("hyp", [[3, 8], [5]])):
        lines = [json.dumps({"id": f"d{i}", "boundaries": b, "n_units": 10}) for i, b in enumerate(boundaries)]
        (tmp_path / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    result = score_files(tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl")
    _fragment_checks(result._repr_html_(), report_of(result, compact=True))


def test_every_warning_of_the_package_is_a_stability_warning_pointing_at_the_callers_line(tmp_path):
    """One category filters them all (``warnings.filterwarnings("ignore", category=StabilityWarning)``),
    and a notebook shows each beside the user's own call, not a line inside the package."""
    import inspect
    import warnings

    import stability
    from stability import StabilityWarning

    exported = [getattr(stability, name) for name in stability.__all__]
    categories = [c for c in exported if inspect.isclass(c) and issubclass(c, Warning)]
    assert {c.__name__ for c in categories} >= {"SettingsWarning", "CorpusWarning", "ResultsWarning", "SegmenterWarning"}
    assert all(issubclass(c, StabilityWarning) for c in categories)

    output = tmp_path / "run.jsonl"
    evaluate({"even": even_thirds}, letters(2), n_restarts=2, progress=False, output=output)
    with output.open("a") as handle:
        handle.write('{"cut')  # a run killed in the middle of a line
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("==========\nOne.\n\nTwo.\n==========\n")  # a blank line between units, noted
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        here = inspect.currentframe().f_lineno
        evaluate({"even": even_thirds}, letters(1), n_restarts=2, progress=False, n_jobs=10_000)
        load_results(output)
        evaluate({"even": even_thirds}, letters(2), n_restarts=2, progress=False, output=output, resume=True)
        list(stability.read_corpus(corpus, format="choi"))  # read lazily: the warning comes as it is read
        evaluate({"c99": "c99"}, [stability.Document("zh", ("面包师每天来到面包店", "他揉面团", "球队比赛", "观众很多"))],
                 n_restarts=2, progress=False)  # C99's default tokenizer sees one term a clause
    seen = {(w.category.__name__, w.lineno - here) for w in caught if issubclass(w.category, StabilityWarning)}
    assert all(w.filename == __file__ for w in caught if issubclass(w.category, StabilityWarning)), [
        (w.category.__name__, w.filename, w.lineno) for w in caught]
    assert seen == {("SettingsWarning", 1), ("ResultsWarning", 2), ("ResultsWarning", 3), ("CorpusWarning", 4),
                    ("SegmenterWarning", 5)}


def test_a_document_shows_its_size_not_its_whole_text():
    """A list of documents left as a cell's value was every unit of every document (5,800
    characters for one demo document)."""
    from stability.demo import demo_corpus

    doc = demo_corpus(n_documents=1)[0]
    shown = repr(doc)
    assert len(shown) < 300
    assert shown.startswith(f"Document(id={doc.id!r}, n_units={doc.n_units}, units=(")
    assert f"... {doc.n_units - 2} more)" in shown
    assert f"references=({doc.references[0]!r},)" in shown
    short = Document("d1", ("One.", "Two."), references=([1],), meta={"source": "x.txt"})
    assert repr(short) == ("Document(id='d1', n_units=2, units=('One.', 'Two.'), "
                           "references=(Segmentation(boundaries=[1], n_units=2),))")
    assert repr(Document("d2", ("Alone.",))) == "Document(id='d2', n_units=1, units=('Alone.',), references=())"


def test_segmentations_held_in_python_are_scored_as_stability_score_scores_files(tmp_path):
    """``stability score`` took files only: a notebook's segmentations had to be written out first."""
    import json

    from stability import Segmentation
    from stability.scoring import score_files, score_segmentations

    references = {"a": Segmentation([3, 7], 10), "b": (Segmentation([5], 10), Segmentation([4], 10))}
    hypotheses = {"a": Segmentation([3, 8], 10), "b": Segmentation([5], 10)}
    (tmp_path / "ref.jsonl").write_text(
        json.dumps({"id": "a", "boundaries": [3, 7], "n_units": 10}) + "\n"
        + json.dumps({"id": "b", "references": [[5], [4]], "n_units": 10}) + "\n")
    (tmp_path / "hyp.jsonl").write_text("".join(json.dumps({"id": i, "boundaries": list(s.boundaries), "n_units": 10})
                                                + "\n" for i, s in hypotheses.items()))
    in_memory = score_segmentations(references, hypotheses, k="nltk")
    from_files = score_files(tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl", k="nltk").to_dict()
    assert (from_files.pop("reference"), from_files.pop("hypothesis")) == (str(tmp_path / "ref.jsonl"), str(tmp_path / "hyp.jsonl"))
    assert in_memory.to_dict() == from_files  # the files named, as the segmentations held in Python cannot be
    assert in_memory.documents["a"]["f1"] == 0.5  # one of two boundaries exact: P = R = 1/2
    assert "wisebe" in " ".join(in_memory.documents["b"])  # two references: the multi-reference metrics too
    # a corpus's documents (their references and unit times) are references too
    docs = [Document("a", tuple("abcdefghij"), references=([3, 7],)), Document("b", tuple("abcdefghij"), references=([5], [4]))]
    assert score_segmentations(docs, hypotheses, k="nltk").to_dict() == in_memory.to_dict()
    # the errors of the files' path, naming the document
    with pytest.raises(ValueError, match="documents must pair up by id; references without a hypothesis: \\['b'\\]"):
        score_segmentations(references, {"a": hypotheses["a"]})
    with pytest.raises(TypeError, match=r"hypotheses\['a'\] must be a Segmentation"):
        score_segmentations(references, {"a": [3, 8], "b": hypotheses["b"]})
    # a short repr, and rows for a data frame
    assert repr(in_memory).startswith("ScoreResult(2 documents, window nltk; mean: ")
    rows = in_memory.to_rows()
    assert [row["document"] for row in rows] == ["a", "b"] and rows[0]["ref_f1"] == 0.5  # as its CSV names it


def test_a_notebook_shows_progress_by_default_as_one_line_rewritten_in_place(monkeypatch):
    """A notebook's stderr is no terminal: a run showed no progress unless asked, and when asked a
    new line every 10 s piled up under the cell. ipykernel's stream is told by its class's module,
    as :func:`stability.status.in_notebook` reads it."""
    import io
    import sys

    from stability import engine

    KernelStream = type("OutStream", (io.StringIO,), {"__module__": "ipykernel.iostream"})
    stream = KernelStream()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(engine, "NOTEBOOK_EVERY", 0.0)  # rewritten at every step
    evaluate({"even": even_thirds, "none": "none"}, letters(3), n_restarts=3)  # progress: the default
    shown = stream.getvalue()
    assert shown.count("\r") > 2 and shown.endswith(", done\n") and shown.count("\n") == 1, shown
    last = shown.rsplit("\r", 1)[1]
    assert last.startswith("restarts ") and "(100%)" in last and "pairs 6/6" in last
    quiet = KernelStream()
    monkeypatch.setattr(sys, "stderr", quiet)
    evaluate({"even": even_thirds}, letters(1), n_restarts=3, progress=False)
    assert quiet.getvalue() == ""


def test_the_last_progress_line_of_an_interrupted_run_says_stopped(capsys):
    # it said ", done" after an interrupt, beside a share of the restarts below 100%
    with pytest.raises(RunInterrupted):
        evaluate({"stops": interrupting_at("d3")}, letters(), n_restarts=3, block_size=2, progress=True)
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("restarts ") and last.endswith(", stopped") and "(100%)" not in last, last


def test_a_report_rendered_from_python_names_renders_keywords_not_the_commands_flags(tmp_path):
    """A notebook user rendering a run with ``render(result)`` was told to use ``--width``,
    ``--report-format md``, ``--columns all`` or ``--documents``, flags of a command they never
    typed. From Python the notes name ``render``'s keywords (the width the left-out columns need
    included); the ``stability`` command still says its flags, in the same notes."""
    from typer.testing import CliRunner

    from stability.cli import app
    from stability.readers import write_jsonl
    from stability.reporting import render

    docs = [Document(f"d{i}", tuple(f"d{i} unit {j} about topic {j // 4}" for j in range(16))) for i in range(12)]
    failing = {"even": even_thirds, "boom": lambda units: 1 / 0}  # 12 failures: the table shows the first 10
    run = evaluate(failing, docs, n_restarts=2, progress=False)
    text = " ".join(render(run, "table", width=60).split())
    left_out = re.search(r"Left out for width 60: [^()]* \(render\(\.\.\., width=(\d+)\) shows them, as does another "
                         r"format\)\.", text)
    assert left_out, text
    wide = render(run, "table", width=int(left_out.group(1)))
    assert "Left out for width" not in " ".join(wide.split()).split("Failures")[0]
    assert 'stability.reporting.render(result, "html") or "md" lists them all' in text
    assert "--" not in text.replace("─", "")  # no flag anywhere (the table's rules are box characters)
    layout = evaluate(["fixed_chars"], docs[:2], n_restarts=2, layout_control=True, progress=False)
    assert "(compact=False, Markdown, HTML, CSV), per document with documents=True." in " ".join(
        render(layout, "md").split())

    write_jsonl(docs, tmp_path / "corpus.jsonl")
    runner = CliRunner(env={"COLUMNS": "60", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    said = runner.invoke(app, ["run", "-s", "even", "-s", "fixed_chars", "--corpus", str(tmp_path / "corpus.jsonl"),
                               "--restarts", "2", "--no-progress", "--layout-control", "--width", "60",
                               "--report-format", "table"])
    shown = " ".join(said.stdout.split())
    assert "(wider terminal, --width, or another report format)" in shown, said.output
    assert "(--columns all, Markdown, HTML, CSV), per document with --documents." in shown
    assert "render(" not in shown


def test_a_failure_shows_its_message_and_keeps_its_traceback_out_of_the_repr():
    """``result.failures`` in a notebook showed each failure's repr with its whole traceback, a
    screenful of escaped lines per failure; ``print(failure)`` printed that repr too. The repr
    leaves the traceback out (it stays on the attribute and in the results file) and ``str`` is
    the one-line message."""
    def boom(units):
        raise ValueError("model not loaded")

    run = evaluate({"boom": boom, "even": even_thirds}, letters(2), n_restarts=2, progress=False)
    failure = run.failures[0]
    assert "Traceback" in failure.traceback and "model not loaded" in failure.traceback
    assert "Traceback" not in repr(run.failures) and "model not loaded" in repr(failure)
    assert str(failure) == failure.message() == (
        "segmenter 'boom', document 'd0', initial segmentation, seed 0: ValueError: model not loaded")
    assert CorpusResult.from_dict(run.to_dict()).failures[0].traceback == failure.traceback  # kept in the data


def test_a_segmenters_summary_shows_in_one_line():
    """``result.summary`` in a notebook showed every Stat of every score and reference metric,
    some 2,000 characters a segmenter; like a document's result it shows one line now: the
    headline with its interval, the F1 and the flags."""
    def boom(units):
        raise ValueError("model not loaded")

    run = evaluate({"even": even_thirds, "boom": boom}, letters(3), n_restarts=2, progress=False)
    even = run.summary["even"]
    head = even.macro["count_corrected"]
    assert repr(even) == (f"SegmenterSummary(segmenter='even', n_documents=3, n_failed=0, count_corrected="
                          f"{head.mean:.3f} [{head.ci[0]:.3f}, {head.ci[1]:.3f}], f1={even.macro['f1'].mean:.3f}, "
                          "flags='content-blind')")
    assert "n_failed=3" in repr(run.summary["boom"]) and len(repr(run.summary)) < 400


def test_the_list_of_segmenters_rendered_from_python_says_how_python_uses_a_name():
    """``render(describe_segmenters())`` titled its table "use with --segmenter NAME"; from Python
    a name goes to ``get_segmenter``. The command still says its flag."""
    from typer.testing import CliRunner

    from stability.cli import app
    from stability.registry import describe_segmenters
    from stability.reporting import render

    assert "Segmenters (use with get_segmenter(NAME), or module:attribute)" in render(describe_segmenters(["even"]), "md")
    listed = CliRunner().invoke(app, ["segmenters", "even", "--report-format", "md"])
    assert "Segmenters (use with --segmenter NAME, or module:attribute)" in listed.stdout, listed.output


def test_every_name_a_results_repr_shows_is_an_attribute_of_it():
    """A document's result showed ``n_units=12`` in its repr, yet ``result.n_units`` raised
    AttributeError (the size was only ``result.segmentation.n_units``): a notebook user reads the
    repr, then types what it shows. Every ``name=`` of these one-line reprs is an attribute."""
    from stability import stability_test

    result = stability_test(even_thirds, letters(1)[0].units, n_restarts=2, doc_id="d0")
    run = evaluate({"boom": lambda units: [0], "even": even_thirds}, letters(1), n_restarts=2, progress=False)
    shown = [result, result.shuffle, result.segmentation, run.summary["even"].macro["f1"], run.failures[0]]
    for obj in shown:
        names = re.findall(r"(\w+)=", repr(obj))
        assert names, repr(obj)
        assert [n for n in names if not hasattr(obj, n)] == [], repr(obj)
    assert result.n_units == 12 == result.to_dict()["n_units"]


def test_a_run_read_back_equals_the_run_that_wrote_it(tmp_path):
    """``CorpusResult.from_dict(run.to_dict()) == run`` and the summaries ``load_results(folder)``
    gives were not equal to the run's for the same results: a summary holds NaN where a score has
    no value (a Stat of one document has no spread; ``layout_only_share`` without the layout
    control), and NaN equals nothing, itself included. A NaN now equals a NaN in these comparisons; a value that differs
    still makes them differ."""
    import dataclasses
    import math

    from stability.results import Stat

    run = evaluate({"even": even_thirds, "c99": "c99"}, letters(1), n_restarts=3, progress=False,
                   output=tmp_path / "run")
    assert math.isnan(run.summary["even"].layout_only_share) and math.isnan(run.summary["even"].macro["f1"].std)
    assert CorpusResult.from_dict(run.to_dict()) == run
    loaded = load_results(tmp_path / "run")  # its settings say no n_jobs: how it ran is not in the file
    assert (loaded.documents, loaded.summary, loaded.failures) == (run.documents, run.summary, run.failures)
    assert Stat(0.5, float("nan"), (float("nan"), float("nan")), 1) == Stat(0.5, float("nan"), (float("nan"),) * 2, 1)
    assert Stat(0.5, float("nan"), (float("nan"), float("nan")), 1) != Stat(0.6, float("nan"), (float("nan"),) * 2, 1)
    other = dataclasses.replace(run.summary["even"], n_failed=1)
    assert other != run.summary["even"]
    assert dataclasses.replace(run, summary={**run.summary, "even": other}) != run



def test_results_compare_as_written_without_recursing_on_a_subclass():
    """Equality of the result objects is declared once (``EqualAsWritten``: the same ``to_dict``).
    A Stat compared with an instance of a subclass of Stat recursed until RecursionError (the NaN-aware
    comparison fell back on ``==``, which called it again); equal Stats, NaN in them, hash alike."""
    import dataclasses

    from stability.results import Stat

    @dataclasses.dataclass(frozen=True)
    class Narrower(Stat):
        pass

    nan = float("nan")
    assert Narrower(0.5, 0.1, (0.4, 0.6), 2) != Stat(0.5, 0.1, (0.4, 0.6), 2)
    assert Stat(0.5, 0.1, (0.4, 0.6), 2) != Narrower(0.5, 0.1, (0.4, 0.6), 2)
    assert hash(Stat(0.5, nan, (nan, nan), 1)) == hash(Stat(0.5, float("nan"), (float("nan"),) * 2, 1))
    assert len({Stat(0.5, nan, (nan, nan), 1), Stat(0.5, float("nan"), (float("nan"),) * 2, 1)}) == 1

def test_a_runs_repr_says_a_segmenter_failed_on_every_document_rather_than_nan():
    """``CorpusResult(...; count_corrected: even 0.000 (content-blind), boom nan)`` read as a score
    that came out NaN; the segmenter never ran through. The repr says it as the reports do."""
    def boom(units):
        raise ValueError("model not loaded")

    run = evaluate({"even": even_thirds, "boom": boom}, letters(2), n_restarts=2, progress=False)
    assert repr(run).endswith("; count_corrected: even 0.000 (content-blind), boom failed on every document)")
    assert "nan" not in repr(run)


def test_a_score_read_off_a_summarys_repr_says_where_it_is():
    """``run.summary["even"]`` shows ``count_corrected=0.000 [...], f1=1.000, flags=...``; typing
    ``summary.f1`` then raised a bare AttributeError. The scores are in ``macro`` (a Stat each),
    the reference metrics in ``reference``, the flags attributes of their own: the error says so."""
    import pickle

    from stability import Document

    docs = [Document(d.id, d.units, references=([4],)) for d in letters(2)]
    summary = evaluate({"even": even_thirds}, docs, n_restarts=2, progress=False).summary["even"]
    with pytest.raises(AttributeError, match=re.escape("summary.macro['f1'] (a Stat: mean, std, ci, n)")):
        summary.f1
    with pytest.raises(AttributeError, match=re.escape("summary.reference['pk']")):
        summary.ref_pk
    with pytest.raises(AttributeError, match="content_blind, deterministic, layout_only, term_blind"):
        summary.flags
    with pytest.raises(AttributeError, match=r"has no attribute 'nothing'$"):
        summary.nothing
    assert pickle.loads(pickle.dumps(summary)) == summary and not hasattr(summary, "f1")
