"""One vocabulary across commands: flags, metric names, exit codes, ``python -m stability``,
and rank correlations that say how many items they rank."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest
from typer.testing import CliRunner

from stability import InvalidParameterError, evaluate
from stability.cli import app
from stability.readers import write_jsonl
from stability.reporting import render
from test_reporting import topical_corpus


def fails_on_even_lengths(units):
    """A segmenter that raises on documents with an even number of units, else puts one boundary
    in the middle."""
    if len(units) % 2 == 0:
        raise RuntimeError("even lengths are not for me")
    return [len(units) // 2]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vocab")
    docs = topical_corpus(600, 3)
    write_jsonl(docs, folder / "corpus.jsonl")
    (folder / "ref.jsonl").write_text('{"id": "a", "masses": [3, 4, 2]}\n')
    (folder / "hyp.jsonl").write_text('{"id": "a", "masses": [2, 6, 1]}\n')
    return folder, [len(d.units) for d in docs]


def _flat(text: str) -> str:
    """Text without rich's box drawing and line breaks (error panels wrap)."""
    return " ".join(text.replace("│", " ").split())


def _run(folder, *extra):
    return CliRunner(env={"COLUMNS": "200"}).invoke(app, ["run", "-s", "even", "--corpus", str(folder / "corpus.jsonl"), "--restarts", "2",
                                    "--no-progress", *extra])


def test_exit_code_3_when_a_segmenter_failed_on_some_document(corpus):
    folder, lengths = corpus
    assert {n % 2 for n in lengths} == {0, 1}  # the flaky segmenter fails on some documents, not all
    result = _run(folder, "-s", "test_reporting_cli:fails_on_even_lengths", "--allow-plugins")
    assert result.exit_code == 3, result.output
    assert "even lengths are not for me" in result.stderr and "Stability test" in result.stdout
    assert _run(folder).exit_code == 0
    assert "3 the run completed but some segmenter failed" in _flat(CliRunner().invoke(app, ["--help"]).stdout)


def test_one_flag_vocabulary_with_hidden_old_spellings(corpus, tmp_path):
    folder, _ = corpus
    new = _run(folder, "--corpus-format", "jsonl", "--report-format", "json")
    old = _run(folder, "--format", "jsonl", "--report", "json")
    assert new.exit_code == old.exit_code == 0 and json.loads(new.stdout) == json.loads(old.stdout)
    help_text = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "200"}).stdout
    assert "--corpus-format" in help_text and "--report-format" in help_text
    assert "--report " not in help_text and "--format " not in help_text
    out = tmp_path / "out"
    assert _run(folder, "--out", str(out)).exit_code == 0  # --out: a directory
    page = tmp_path / "page.html"
    written = CliRunner().invoke(app, ["report", str(out), "--report-format", "html", "--output", str(page)])
    assert written.exit_code == 0 and page.read_text().startswith("<!DOCTYPE html>")  # --output: a file
    legacy = CliRunner().invoke(app, ["report", str(out), "-f", "md", "-o", str(tmp_path / "r.md")])
    assert legacy.exit_code == 0 and (tmp_path / "r.md").read_text().startswith("**stability")
    score_new = CliRunner().invoke(app, ["score", "-R", str(folder / "ref.jsonl"), "-H", str(folder / "hyp.jsonl"),
                                         "--window", "2", "--report-format", "json"])
    score_old = CliRunner().invoke(app, ["score", "-R", str(folder / "ref.jsonl"), "-H", str(folder / "hyp.jsonl"),
                                         "--k", "2", "--report", "json"])
    # metrics-peers.md section 2.3: masses [3,4,2] vs [2,6,1] at k=2 -> pk = 3/7
    assert json.loads(score_new.stdout)["documents"]["a"]["pk"] == pytest.approx(3 / 7)
    assert score_new.stdout == score_old.stdout
    bad = CliRunner().invoke(app, ["report", str(out), "--report-format", "pdf"])
    assert bad.exit_code == 2 and "'table', 'md', 'csv', 'json', 'html'" in _flat(bad.output)


def test_a_report_format_is_also_named_by_its_aliases(corpus, tmp_path):
    """`--report-format markdown` was refused (must be one of 'table', 'md', ...) with no word of
    md, though markdown names a corpus format; each format module declares its other names
    (ALIASES), which the command line, render and a config's [output] formats accept."""
    from stability.config import load_config
    from stability.reporting import format_aliases, format_name

    folder, _ = corpus
    out = tmp_path / "out"
    assert _run(folder, "--out", str(out)).exit_code == 0
    md = CliRunner().invoke(app, ["report", str(out), "--report-format", "md"])
    said = CliRunner().invoke(app, ["report", str(out), "--report-format", "markdown"])
    assert said.exit_code == 0 and said.stdout == md.stdout, said.output
    text = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["report", str(out), "--report-format", "txt", "--width", "120"])
    assert text.exit_code == 0 and text.stdout == CliRunner(env={"COLUMNS": "200"}).invoke(
        app, ["report", str(out), "--width", "120"]).stdout  # read as table: --width is the table's option
    assert format_aliases() == {"markdown": "md", "txt": "table", "text": "table", "htm": "html"}
    with pytest.raises(InvalidParameterError, match="received 'markdwn'; did you mean 'markdown'"):
        format_name("markdwn")
    config = tmp_path / "c.toml"
    config.write_text('[corpus]\npath = "x.jsonl"\n[segmenters.even]\n[output]\nformats = ["markdown", "htm"]\n',
                      encoding="utf-8")
    assert load_config(config).output["formats"] == ["md", "html"]


def test_metrics_by_catalogue_name_or_alias_on_every_command(corpus, tmp_path):
    folder, _ = corpus
    out = tmp_path / "out"
    run = _run(folder, "--metrics", "pk,wd,s,ghd", "--report-format", "md", "--out", str(out))
    assert run.exit_code == 0
    summary_header = run.stdout.split("### ")[1].splitlines()[2]
    assert summary_header.endswith("| Pk | WD | S | GHD |")  # in the order asked, GHD and S included
    report = CliRunner().invoke(app, ["report", str(out), "--metrics", "b,windowdiff_corrected", "--width", "200"])
    assert "WD corr." in report.stdout and " Pk " not in report.stdout.split("Kendall")[0]
    score = CliRunner().invoke(app, ["score", "-R", str(folder / "ref.jsonl"), "-H", str(folder / "hyp.jsonl"),
                                     "--metrics", "wd", "--report-format", "csv"])
    assert score.stdout.splitlines()[0] == "document,ref_windowdiff"  # the catalogue column (Measure.column)
    unknown = _run(folder, "--metrics", "pkk")
    assert unknown.exit_code == 2 and "did you mean 'pk'" in _flat(unknown.output).lower()


def test_python_dash_m_stability():
    result = subprocess.run([sys.executable, "-m", "stability", "--version"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.startswith("stability ")
    listing = subprocess.run([sys.executable, "-m", "stability", "segmenters", "--report-format", "json"],
                             capture_output=True, text=True, timeout=120)
    assert "c99" in {s["name"] for s in json.loads(listing.stdout)["segmenters"]}


@pytest.mark.filterwarnings("ignore::stability.StabilityWarning")  # made-up words: no English stopword
def test_rank_correlations_print_n_and_flag_fewer_than_five():
    docs = topical_corpus(700, 2, 3)
    result = evaluate({"even": "even", "none": "none", "all": "all"}, docs, n_restarts=2, progress=False)
    md = render(result, "md")
    table = md.split("### Kendall")[1].split("\n\n")[1].splitlines()
    assert table[0].startswith("| stability score | over | n |")
    by_over = {row.split(" | ")[1]: row for row in table[2:]}
    assert by_over["segmenters"].split(" | ")[2] == "3" and by_over["documents"].split(" | ")[2] == "6"
    # 3 segmenters: every tau shown in parentheses with a warning, never as a bare value
    assert all(cell.startswith("(") or cell == "n/a" for cell in by_over["segmenters"].strip(" |").split(" | ")[3:])
    # the note on the mark, under a table that has one: three content-blind segmenters rank as ties (every tau
    # n/a, no mark), two topical ones beside one do not
    topical = {"c99": "c99", "tt": "texttiling", "all": "all"}
    marked = render(evaluate(topical, docs, n_restarts=2, progress=False), "md")
    assert "| (" in marked.split("### Kendall")[1].split("\n\n")[1]
    assert "(...)!: fewer than 5 segmenters ranked (n; a score undefined on some of them ranks fewer)" in marked
    # corrected_f1 is undefined for `none` and `all` (chance F1 1): its taus rank 1 segmenter, not 3 (the
    # table said 3 for every score)
    rows = {tuple(row.split(" | ")[:2]): row for row in table[2:]}
    assert rows[("| corrected_f1", "segmenters")].split(" | ")[2] == "1"
    one = evaluate(topical, docs[:1], n_restarts=2, progress=False)
    assert "fewer than 5 (segmenter, document) pairs ranked" in render(one, "md")  # not "documents": there is one
    assert json.loads(render(result, "json"))["correlations_n"] == {"segmenters": 3, "documents": 6}


def test_report_on_something_that_is_not_a_results_file_is_an_error(corpus, tmp_path):
    # each used to print "Stability test: 0 documents, ? restarts, seed ?" and exit 0
    folder, _ = corpus
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    broken = tmp_path / "out"
    broken.mkdir()
    (broken / "results.jsonl").write_text("{bad json\n")
    runner = CliRunner(env={"COLUMNS": "200"})
    for path, expected in ((empty, f"error: {empty}: not a results file"),
                           (folder / "corpus.jsonl", f"error: {folder / 'corpus.jsonl'}:1: expected a record with type 'run'"),
                           (broken, f"error: {broken / 'results.jsonl'}: not a results file")):
        result = runner.invoke(app, ["report", str(path)])
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert result.stderr.splitlines()[-1].startswith(expected), result.stderr


def test_metrics_that_were_not_computed_or_none_at_all_are_errors(corpus):
    # each used to print a table without the metrics asked for (or with none), exit 0
    folder, _ = corpus
    score = ["score", "-R", str(folder / "ref.jsonl"), "-H", str(folder / "hyp.jsonl")]  # one reference each
    runner = CliRunner(env={"COLUMNS": "200"})
    multi = runner.invoke(app, score + ["--metrics", "wisebe,fleiss_kappa"])
    assert multi.exit_code == 1 and multi.stdout == ""
    assert multi.stderr == ("error: --metrics wisebe, fleiss_kappa were not computed: they need several references "
                            "per document, and no document scored has more than one\n")
    partly = runner.invoke(app, score + ["--metrics", "pk,fleiss_kappa", "--report-format", "csv"])
    assert partly.exit_code == 1 and "--metrics fleiss_kappa was not computed: it needs" in partly.stderr
    for empty in ("", ","):
        none = runner.invoke(app, score + ["--metrics", empty])
        assert none.exit_code == 2 and "expected one or more metric names" in _flat(none.output)


def test_references_given_after_the_run_score_its_boundaries_without_segmenting_again(tmp_path):
    """A run on unannotated documents, then a few of them annotated: ``stability report RUN -R``
    (and :func:`stability.scoring.add_references`) give the reference metrics the run would have
    computed had the references been there (same values, from the same boundaries), and say over
    how many documents."""
    from stability import Document, load_results
    from stability.scoring import add_references

    docs = topical_corpus(720, 5)
    plain = [Document(d.id, d.units) for d in docs]
    segmenters = {"c99": "c99", "tt": "texttiling", "even": "even"}
    unlabelled = evaluate(segmenters, plain, n_restarts=3, output=tmp_path / "run" / "results.jsonl", progress=False)
    labelled = evaluate(segmenters, docs[:3] + plain[3:], n_restarts=3, progress=False)  # annotated from the start
    write_jsonl(docs[:3], tmp_path / "refs.jsonl")
    later = add_references(load_results(tmp_path / "run" / "results.jsonl"), str(tmp_path / "refs.jsonl"))
    for label in segmenters:
        assert [r.reference_metrics for r in later.documents[label]] == [r.reference_metrics for r in labelled.documents[label]]
        assert later.summary[label].reference["pk"].mean == labelled.summary[label].reference["pk"].mean
        assert [r.f1 for r in later.documents[label]] == [r.f1 for r in unlabelled.documents[label]]  # restarts untouched
    # the rank agreement is over the annotated documents: as a run of those alone gives it
    alone = evaluate(segmenters, docs[:3], n_restarts=3, progress=False)
    assert later.correlations()["segmenters"] == alone.correlations()["segmenters"]
    result = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "-R", str(tmp_path / "refs.jsonl"),
                                      "--report-format", "md"])
    assert result.exit_code == 0, result.output
    assert "References: 3 of 5 documents have one" in result.stdout and "Pk" in result.stdout
    # paired by id: a reference for another corpus, or of another length, is an error naming it
    write_jsonl([Document("elsewhere", ("a", "b"), references=([1],))], tmp_path / "other.jsonl")
    with pytest.raises(InvalidParameterError, match="none of the 1 document"):
        add_references(unlabelled, str(tmp_path / "other.jsonl"))
    from stability import Segmentation

    with pytest.raises(InvalidParameterError, match=f"document '{docs[0].id}': the reference covers 3 units"):
        add_references(unlabelled, {docs[0].id: Segmentation([1], 3)})


def _fails_on_seven_units(units):
    """A segmenter that fails on the document of 7 units (a run with a failure)."""
    if len(units) == 7:
        raise RuntimeError("no boundaries for you")
    return [len(units) // 2]


def test_the_coverage_note_counts_the_corpus_documents_when_a_segmenter_failed_on_one():
    """2 of the 3 documents are annotated after the run; one segmenter failed on an annotated one.
    The note counts the run's documents once ("2 of 3"), not each segmenter's results apart:
    before, it said "1 of 2 or 2 of 3 documents have one", as if the corpus changed with the
    segmenter."""
    from stability import Document, Segmentation
    from stability.scoring import add_references

    docs = [Document("a", ["x"] * 12), Document("b", ["y"] * 7), Document("c", ["z"] * 10)]
    run = evaluate({"even": "even", "flaky": _fails_on_seven_units}, docs, n_restarts=3, progress=False)
    assert [f.document for f in run.failures] == ["b"]
    later = add_references(run, {"a": Segmentation([5], 12), "b": Segmentation([3], 7)})
    text = render(later, "md")
    assert "References: 2 of 3 documents have one;" in text and "1 of 2" not in text


def test_references_of_another_length_from_a_second_annotator_name_the_document():
    """Every annotator's reference is checked against the run's document, not only the first:
    before, a second one of another length failed deep in the multi-reference metrics without
    naming the document ("references[0] has 12 units and references[1] has 11")."""
    from stability import Document, Segmentation
    from stability.scoring import add_references

    run = evaluate({"even": "even"}, [Document("a", ["x"] * 12)], n_restarts=3, progress=False)
    with pytest.raises(InvalidParameterError, match=r"document 'a': reference 1 covers 11 units, the run's document 12"):
        add_references(run, {"a": [Segmentation([5], 12), Segmentation([6], 11)]})


def test_references_without_times_for_a_transcript_run_say_covd_is_not_weighted_by_duration():
    """A transcript's run (documents with times) annotated afterwards with bare segmentations,
    which carry no times: CovN and CovD can then only be computed over units, not over durations
    as a run annotated from the start computes them. Before, the values differed without a word;
    now a ResultsWarning says so and names what to give instead."""
    from stability import Document, Segmentation
    from stability.scoring import add_references
    from stability.store import ResultsWarning

    times = [(float(k), float(k) + (5.0 if k < 6 else 1.0)) for k in range(12)]  # long units first
    run = evaluate({"even": "even"}, [Document("a", ["x"] * 12, times=times)], n_restarts=3, progress=False)
    with pytest.warns(ResultsWarning, match="carry no unit times"):
        add_references(run, {"a": Segmentation([5], 12)})


def test_the_note_on_few_items_ranked_is_said_only_under_a_marked_tau():
    """One document of one unit: no tau is defined (every cell n/a, no ``(...)!`` mark), yet both
    notes on ``(...)!`` followed the table, explaining a mark it did not have."""
    from stability import Document

    doc = Document(id="a", units=("Only one sentence here.",), references=((),))
    result = evaluate({"even": "even", "none": "none"}, [doc], n_restarts=2, progress=False)
    md = render(result, "md")
    table = md.split("### Kendall")[1].split("\n\n")[1].splitlines()
    assert all(cell == "n/a" for row in table[2:] for cell in row.strip(" |").split(" | ")[3:])
    assert "(...)!" not in md and "(...)!" not in render(result, "table", width=200)


def test_references_naming_no_document_of_the_run_are_said_not_used(tmp_path):
    """Annotations given after the run are paired by id: one whose id is in no result of the run
    (a misspelt id, ``doc_1`` for ``doc1``) scores nothing. Before, it was dropped without a word
    as long as another reference matched, and the report read as if every annotation counted
    (``stability score`` refuses a reference without a hypothesis); now a ResultsWarning names
    it, on the command line too."""
    from stability import Document, Segmentation
    from stability.scoring import add_references
    from stability.store import ResultsWarning

    docs = [Document("doc1", ["x"] * 12), Document("doc2", ["y"] * 10)]
    run = evaluate({"even": "even"}, docs, n_restarts=3, progress=False, output=tmp_path / "run" / "results.jsonl")
    with pytest.warns(ResultsWarning, match=r"1 reference names no document of the run \('doc_2'\)"):
        later = add_references(run, {"doc1": Segmentation([5], 12), "doc_2": Segmentation([4], 10)})
    assert [bool(r.reference_metrics) for r in later.documents["even"]] == [True, False]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every reference used: nothing said
        add_references(run, {"doc1": Segmentation([5], 12), "doc2": Segmentation([4], 10)})
    (tmp_path / "refs.jsonl").write_text('{"id": "doc1", "boundaries": [5], "n_units": 12}\n'
                                         '{"id": "doc_2", "boundaries": [4], "n_units": 10}\n')
    result = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "-R", str(tmp_path / "refs.jsonl"),
                                      "--report-format", "md"])
    assert result.exit_code == 0, result.output
    assert "1 reference names no document of the run ('doc_2')" in _flat(result.stderr)


def test_run_reports_say_the_tolerance_of_the_reference_precision_recall_and_f1():
    """A run whose ``[metrics] tolerance`` is 1 scores F1(ref) with near misses counted (here
    0.0 -> 1.0: the boundary at 6 is one unit from the reference's 5), but its reports said nothing
    of it, as ``stability score`` said nothing of ``--tolerance``; both now say it under the
    table, and exact matching (the default) adds nothing."""
    from stability import Document

    doc = Document("a", ["x"] * 12, references=([5],))
    near = evaluate({"six": lambda units: [6]}, [doc], n_restarts=2, progress=False, metrics={"tolerance": 1})
    assert near.documents["six"][0].reference_metrics["f1"] == 1.0
    # cF1(ref), the chance-corrected F1, matches at the same tolerance (its expectation too)
    assert "P, R, F1(ref) and cF1(ref) match boundaries within 1 unit (tolerance 1;" in render(near, "md")
    assert "F1(ref) matches boundaries within 1 unit (tolerance 1;" in " ".join(render(near, "table", width=200).split())
    assert "within 1 unit" not in render(near, "md", metrics=["pk", "b"])
    exact = evaluate({"six": lambda units: [6]}, [doc], n_restarts=2, progress=False)
    assert "match boundaries within" not in render(exact, "md")


def test_a_report_with_references_given_after_the_run_says_where_they_came_from(tmp_path):
    """`stability report RUN -R refs.jsonl` printed the run's "To reproduce" command alone, which
    gives a report without those references, and its JSON had no trace of them: the note now
    says which references were added and for how many documents, and the JSON's settings carry it."""
    import json

    from stability import Document, load_results
    from stability.scoring import ADDED_REFERENCES, add_references

    docs = topical_corpus(360, 4)
    runner = CliRunner()
    write_jsonl([Document(d.id, d.units) for d in docs], tmp_path / "corpus.jsonl")
    ran = runner.invoke(app, ["run", "--corpus", str(tmp_path / "corpus.jsonl"), "-s", "c99", "--restarts", "2",
                              "--no-progress", "--out", str(tmp_path / "run")])
    assert ran.exit_code == 0, ran.output
    write_jsonl(docs[:2], tmp_path / "refs.jsonl")
    refs = str(tmp_path / "refs.jsonl")
    shown = runner.invoke(app, ["report", str(tmp_path / "run"), "-R", refs, "--width", "200"])
    assert shown.exit_code == 0, shown.output
    assert (f"The reference columns use references given after the run (stability report with -R {refs}) for 2 "
            "documents; the other documents keep the run's, if any.") in " ".join(shown.stdout.split())
    data = json.loads(runner.invoke(app, ["report", str(tmp_path / "run"), "-R", refs, "-f", "json"]).stdout)
    assert data["settings"][ADDED_REFERENCES] == {"source": refs, "documents": 2}
    plain = runner.invoke(app, ["report", str(tmp_path / "run"), "--width", "200"]).stdout
    assert "given after the run" not in plain
    later = add_references(load_results(tmp_path / "run"), docs[:1])
    assert later.settings[ADDED_REFERENCES] == {"source": "given to add_references", "documents": 1}


def test_a_reference_of_another_length_given_after_the_run_names_its_file_and_line(tmp_path):
    """`stability report RUN -R refs.jsonl` refused a reference covering another number of units
    naming the document alone; `score` names the file and line, and so does this now."""
    from stability import Document

    docs = topical_corpus(240, 3)
    write_jsonl([Document(d.id, d.units) for d in docs], tmp_path / "corpus.jsonl")
    ran = CliRunner().invoke(app, ["run", "--corpus", str(tmp_path / "corpus.jsonl"), "-s", "even", "--restarts", "2",
                                   "--no-progress", "--out", str(tmp_path / "run")])
    assert ran.exit_code == 0, ran.output
    n = len(docs[1].units)
    (tmp_path / "refs.jsonl").write_text(f'{{"id": "{docs[1].id}", "boundaries": [2], "n_units": {n + 3}}}\n')
    result = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "-R", str(tmp_path / "refs.jsonl")])
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"error: document '{docs[1].id}': the reference covers {n + 3} units, the run's "
                                     f"document {n} (the reference read from {tmp_path / 'refs.jsonl'}:1)")


#: Six cues, four sentences (two run over two cues); the chapter at 6 s starts the third sentence.
CUES = ["We start with the budget.", "It is up four", "percent this year.", "Then the roads.",
        "The bridge needs", "new rebar soon."]
CHAPTERS = "WEBVTT\n\n00:00:00.000 --> 00:00:06.000\nBudget\n\n00:00:06.000 --> 00:00:12.000\nRoads\n"


def _talk(folder):
    """A folder holding one WebVTT transcript of :data:`CUES`, two seconds a cue."""
    folder.mkdir()
    (folder / "talk.vtt").write_text("WEBVTT\n\n" + "".join(
        f"00:00:{2 * k:02d}.000 --> 00:00:{2 * k + 2:02d}.000\n{text}\n\n" for k, text in enumerate(CUES)))
    return str(folder)


def _sentence_run(tmp_path):
    """`stability run` of :func:`_talk` cut into sentences (not the reader's default, cues): the run's folder."""
    folder = _talk(tmp_path / "talks")
    ran = CliRunner().invoke(app, ["run", "--corpus", folder, "--unit", "sentence", "--splitter", "rules", "-s",
                                   "even", "--restarts", "2", "--no-progress", "--out", str(tmp_path / "run")])
    assert ran.exit_code == 0, ran.output
    return folder, str(tmp_path / "run")


def _forget_reading(run):
    """The run's results file as a version before the record kept how the corpus was read wrote it."""
    from stability.store import READER

    path = tmp = f"{run}/results.jsonl"
    lines = [json.loads(line) for line in open(path, encoding="utf-8")]
    for record in lines:
        if record["type"] == "run":
            del record["provenance"][READER]
    with open(tmp, "w", encoding="utf-8") as file:
        file.writelines(json.dumps(record) + "\n" for record in lines)


def test_references_from_a_transcript_run_on_sentences_are_read_with_the_corpus_options_given(tmp_path):
    """A transcript run with --unit sentence, annotated afterwards with a chapters track beside it:
    `stability report RUN -R folder` read the folder in cues (the reader's default) and refused the
    reference for covering another number of units, with no way to give --unit to `report`. The
    corpus options now go with -R (and to add_references), the report's note names them, an error
    says which were used, and corpus options without -R are refused. (A run record written before
    it kept the run's reading: the record of today reads as the run did, tested below.)"""
    from stability import load_results
    from stability.scoring import ADDED_REFERENCES, add_references
    from stability.store import READER

    folder, run = _sentence_run(tmp_path)
    (tmp_path / "talks" / "talk.chapters.vtt").write_text(CHAPTERS)
    before = CliRunner().invoke(app, ["report", run, "--report-format", "json"]).stdout
    _forget_reading(run)
    plain = CliRunner().invoke(app, ["report", run, "--report-format", "json"])  # the old record re-renders
    assert plain.exit_code == 0, plain.output
    assert READER not in json.loads(plain.stdout)["settings"]["provenance"]
    drop = lambda text: {k: v for k, v in json.loads(text).items() if k != "settings"}  # noqa: E731
    assert drop(plain.stdout) == drop(before)
    cues_read = CliRunner().invoke(app, ["report", run, "-R", folder])
    assert cues_read.exit_code == 1
    assert " ".join(cues_read.stderr.split()) == (
        f"error: document 'talk.vtt': the reference covers 6 units, the run's document 4 (the reference read from "
        f"{tmp_path / 'talks' / 'talk.vtt'}; a corpus is read with the options given with it, over those the run's "
        f"record keeps of its own reading, here none (the reader's defaults): give those the run read its corpus "
        f"with, e.g. --unit 'sentence')")
    shown = CliRunner().invoke(app, ["report", run, "-R", folder, "--unit", "sentence", "--splitter", "rules",
                                     "--report-format", "md"])
    assert shown.exit_code == 0, shown.output
    assert (f"(stability report with -R {folder} --unit sentence --splitter rules) for 1 document"
            in " ".join(shown.stdout.split()))
    later = add_references(load_results(run), folder, unit="sentence", splitter="rules")
    (row,) = later.documents["even"]
    assert row.references == ((2,),)  # the chapter at 6 s starts "Then the roads.", the third sentence
    assert later.settings[ADDED_REFERENCES]["options"] == {"unit": "sentence", "splitter": "rules"}
    alone = CliRunner().invoke(app, ["report", run, "--unit", "sentence"])
    assert alone.exit_code == 2 and "--unit: the options of the corpus --references reads" in " ".join(alone.output.split())


def test_report_with_references_reads_them_as_the_run_read_its_corpus(tmp_path):
    """`stability run --corpus talks --unit sentence --out RUN`, then `stability report RUN -R talks`:
    the run record did not keep --unit (nor the other corpus options), so -R read the transcript in
    cues and refused it (6 units, the run's 4) unless told --unit sentence --splitter rules again.
    The record keeps them now: the references given after the run give the report the run would
    have printed had they been there when it ran (its JSON: the same documents and summaries)."""
    from stability.store import READER, load_results

    annotated = tmp_path / "annotated"
    annotated.mkdir()
    _talk(annotated / "talks")
    (annotated / "talks" / "talk.chapters.vtt").write_text(CHAPTERS)
    with_chapters = CliRunner().invoke(app, [
        "run", "--corpus", str(annotated / "talks"), "--unit", "sentence", "--splitter", "rules", "-s", "even",
        "--restarts", "2", "--no-progress", "--out", str(annotated / "run"), "--report-format", "json"])
    assert with_chapters.exit_code == 0, with_chapters.output
    folder, run = _sentence_run(tmp_path)
    assert load_results(run).settings["provenance"][READER] == {
        "paths": [folder], "formats": ["subtitles"], "options": {"unit": "sentence", "splitter": "rules"}}
    (tmp_path / "talks" / "talk.chapters.vtt").write_text(CHAPTERS)
    later = CliRunner().invoke(app, ["report", run, "-R", folder, "--report-format", "json"])
    assert later.exit_code == 0, later.output
    assert later.stderr == ""
    expected, got = json.loads(with_chapters.stdout), json.loads(later.stdout)
    (row,) = got["documents"]["even"]
    assert row["references"] == [[2]]  # the chapter at 6 s starts "Then the roads.", the third sentence
    assert got["documents"] == expected["documents"]
    assert got["summary"] == expected["summary"]


def test_a_corpus_option_given_to_report_replaces_the_recorded_one_with_a_warning(tmp_path):
    """An option given with -R that differs from the run's reading describes another reading: the
    references are read with the options given alone (the run's --splitter does not fit cues), and
    stderr says so; here the cues' count, 6, is then refused against the run's 4 sentences."""
    folder, run = _sentence_run(tmp_path)
    (tmp_path / "talks" / "talk.chapters.vtt").write_text(CHAPTERS)
    cues = CliRunner().invoke(app, ["report", run, "-R", folder, "--unit", "cue"])
    assert cues.exit_code == 1
    said = " ".join(cues.stderr.split())
    assert ("warning: the references are read with --unit 'cue' as given, not as the run read its corpus "
            "(--unit 'sentence', --splitter 'rules', its record's --unit differing)") in said
    assert "the reference covers 6 units, the run's document 4" in said
    same = CliRunner().invoke(app, ["report", run, "-R", folder, "--unit", "sentence"])
    assert same.exit_code == 0 and "warning" not in same.stderr


def test_references_in_other_files_take_the_recorded_options_their_format_takes(tmp_path):
    """References that are not the run's corpus files are read with the recorded options when they
    are in a format the run read (a transcript in another folder: --unit sentence and --splitter
    rules), never the run's --pattern, which names the run's files; in another format (JSON lines,
    where unit='sentence' would be refused for documents giving their units), with none of them."""
    from stability.scoring import _reading
    from stability.store import READER

    record = {"provenance": {READER: {"paths": [str(tmp_path / "talks")], "formats": ["subtitles"],
                                      "options": {"unit": "sentence", "splitter": "rules", "pattern": "*.vtt"}}}}
    other = _talk(tmp_path / "elsewhere")
    assert _reading(other, record, {}) == {"unit": "sentence", "splitter": "rules"}
    assert _reading(str(tmp_path / "talks"), record, {}) == {"unit": "sentence", "splitter": "rules", "pattern": "*.vtt"}
    (tmp_path / "refs.jsonl").write_text('{"id": "talk.vtt", "boundaries": [2], "n_units": 4}\n')
    assert _reading(str(tmp_path / "refs.jsonl"), record, {}) == {}
    assert _reading(other, {"provenance": {}}, {"unit": "cue"}) == {"unit": "cue"}  # an older record


def test_a_config_files_corpus_keys_are_kept_as_the_command_lines_options_are(tmp_path):
    """The run record keeps the [corpus] keys of a config file (unit, splitter; not limit, which
    counts documents) as it keeps --unit and --splitter, and `report -R` reads references with them."""
    folder = _talk(tmp_path / "talks")
    (tmp_path / "talk.toml").write_text(
        f'[corpus]\npath = {json.dumps(folder)}\nunit = "sentence"\nsplitter = "rules"\nlimit = 1\n\n'
        f'[segmenters.even]\n\n[run]\nn_restarts = 2\nprogress = false\n\n[output]\ndir = {json.dumps(str(tmp_path / "run"))}\n')
    ran = CliRunner().invoke(app, ["run", str(tmp_path / "talk.toml")])
    assert ran.exit_code == 0, ran.output
    (tmp_path / "talks" / "talk.chapters.vtt").write_text(CHAPTERS)
    header = json.loads(open(tmp_path / "run" / "results.jsonl", encoding="utf-8").readline())
    assert header["provenance"]["reader"]["options"] == {"unit": "sentence", "splitter": "rules"}
    later = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "-R", folder, "--report-format", "json"])
    assert later.exit_code == 0, later.output
    assert json.loads(later.stdout)["documents"]["even"][0]["references"] == [[2]]


def test_a_metric_not_computed_gives_the_computed_report_a_warning_and_the_error_printed_or_written(tmp_path):
    """`stability run --metrics pk` on a corpus without references: printed (no --out) or written to
    --out, the report shows the metrics the run computed, a warning says so, and the error about
    pk follows, with the same exit status: one helper (reporting.with_computed_metrics) for both."""
    from stability.demo import demo_corpus

    folder = tmp_path / "plain"
    folder.mkdir()
    for doc in demo_corpus(n_documents=2):
        (folder / f"{doc.id}.txt").write_text("\n".join(doc.units) + "\n", encoding="utf-8")
    args = ["run", "-s", "even", "-c", str(folder), "--corpus-format", "text", "--unit", "line", "-r", "2",
            "--no-progress", "--metrics", "pk", "--report-format", "md"]
    printed = CliRunner().invoke(app, args)
    written = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "run")])
    assert printed.exit_code == written.exit_code == 1
    error = [line for line in printed.stderr.splitlines() if line.startswith("error:")]
    assert error and "pk was not computed: it needs references" in error[0]
    assert error == [line for line in written.stderr.splitlines() if line.startswith("error:")]
    assert "warning: the report above shows the reference metrics the run computed, not those named" in printed.stderr
    assert (f"warning: the reports in {tmp_path / 'run'} were written with the reference metrics the run computed, "
            "not those named") in " ".join(written.stderr.split())
    assert printed.stdout == (tmp_path / "run" / "report.md").read_text(encoding="utf-8")


def test_with_computed_metrics_lets_other_errors_through_unchanged():
    """Only a metric not computed (an error of parameter ``metrics``) gives the report with the
    computed metrics; any other error is raised at once, the report not made again nor a warning said."""
    from stability.reporting import with_computed_metrics

    calls = []

    def report(shown):
        calls.append(shown)
        raise InvalidParameterError("width too small", parameter="width")

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InvalidParameterError, match="width too small"):
            with_computed_metrics(report, ["pk"], "not said")
    assert calls == [["pk"]]


def test_a_resume_adding_a_segmenter_keeps_the_recorded_reading(tmp_path):
    """The header a resume writes for the segmenters it adds keeps the first run's reading, so
    `report -R` after it still reads the references in the run's sentences."""
    from stability.store import READER, iter_records

    folder, run = _sentence_run(tmp_path)
    more = CliRunner().invoke(app, ["run", "--corpus", folder, "--unit", "sentence", "--splitter", "rules", "-s",
                                    "even", "-s", "none", "--restarts", "2", "--no-progress", "--out", run, "--resume"])
    assert more.exit_code == 0, more.output
    headers = [record for _, record in iter_records(f"{run}/results.jsonl") if record["type"] == "run"]
    assert len(headers) == 2
    assert headers[0]["provenance"][READER] == headers[1]["provenance"][READER]
    assert headers[1]["provenance"][READER]["options"] == {"unit": "sentence", "splitter": "rules"}
    (tmp_path / "talks" / "talk.chapters.vtt").write_text(CHAPTERS)
    later = CliRunner().invoke(app, ["report", run, "-R", folder, "--report-format", "json"])
    assert later.exit_code == 0, later.output
    assert {label: rows[0]["references"] for label, rows in json.loads(later.stdout)["documents"].items()} == {
        "even": [[2]], "none": [[2]]}


def _run_cut_short(out, keep):
    """A run of even and c99 over 4 documents in ``out``, its results file then holding c99's
    results of its first ``keep`` documents only, as a run stopped before it finished leaves it."""
    from stability.demo import demo_corpus

    out.mkdir()
    evaluate({"even": "even", "c99": "c99"}, demo_corpus(n_documents=4), n_restarts=2, output=out, progress=False)
    _cut_short(out, keep)


def _cut_short(out, keep):
    """The results file in ``out`` of a run of c99 over 4 documents, cut to c99's results of its
    first ``keep`` documents."""
    from stability.store import RESULTS_FILE

    lines = (out / RESULTS_FILE).read_text(encoding="utf-8").splitlines()
    c99 = [line for line in lines if json.loads(line).get("type") == "result"
           and json.loads(line)["result"]["segmenter"] == "c99"]
    kept = [line for line in lines if line not in c99[keep:]]
    assert len(kept) == len(lines) - 4 + keep
    (out / RESULTS_FILE).write_text("\n".join(kept) + "\n", encoding="utf-8")


def test_a_run_whose_segmenters_ran_on_different_documents_says_so_in_every_format(tmp_path):
    """A run read back in which a segmenter has fewer documents than the run (stopped before it
    finished) ranked segmenters over different documents, said only by the docs column."""
    from stability import load_results
    from stability.demo import demo_corpus

    finished = evaluate({"even": "even", "c99": "c99"}, demo_corpus(n_documents=4), n_restarts=2, progress=False)
    assert "run on" not in render(finished, "md") and json.loads(render(finished, "json"))["unfinished"] == {}
    out = tmp_path / "run"
    _run_cut_short(out, keep=1)  # c99's result of one document kept
    stopped = load_results(out)
    assert stopped.summary["c99"].n_documents == 1 and stopped.summary["c99"].n_failed == 0
    said = ("Not every segmenter was run on every document (c99 on 1 of 4): the run stopped before it finished "
            "(or is still running), so the ranking compares segmenters over different documents")
    for fmt in ("table", "md", "html"):
        text = " ".join(render(stopped, fmt, **({"width": 200} if fmt == "table" else {})).split())
        assert "c99: run on 1 of 4 documents" in text, fmt  # the result line
        assert said in text and "To finish it: evaluate(..., output=..., resume=True)" in text, fmt
    assert json.loads(render(stopped, "json"))["unfinished"] == {"c99": {"run_on": 1, "documents": 4}}
    # a run of the command line: its own command finishes it, continuing rather than starting again
    from dataclasses import replace

    typed = replace(stopped, settings={**stopped.settings, "provenance": {"command": "stability run -s c99 --out x --overwrite"}})
    assert "To finish it: stability run -s c99 --out x --resume." in " ".join(render(typed, "md").split())
    # in the folder it ran in, which its relative paths are relative to (stability report may be run elsewhere)
    there = replace(stopped, settings={**stopped.settings, "provenance": {"command": "stability run -s c99 --out x",
                                                                          "cwd": "/home/me/work"}})
    assert "To finish it (in /home/me/work): stability run -s c99 --out x --resume." in " ".join(render(there, "md").split())


def test_a_segmenter_not_run_yet_is_said_once_in_the_result_line(tmp_path):
    """A segmenter without any result because the run stopped before it began (not because it
    failed) is said once, as run on 0 of the run's documents: the line also called it 'no
    result', two parts for one fact."""
    from stability import load_results

    out = tmp_path / "run"
    _run_cut_short(out, keep=0)
    line = render(load_results(out), "md").splitlines()[0]  # the result line
    assert "c99: run on 0 of 4 documents" in line and "no result" not in line, line


def test_a_runs_repr_says_a_segmenter_ran_on_fewer_documents(tmp_path):
    """``load_results(out)`` of a stopped run showed ``c99 0.958`` beside ``even 0.000`` (and
    ``c99 nan`` for one not reached yet), with no word that c99 was scored on fewer documents."""
    from stability import load_results

    _run_cut_short(tmp_path / "one", keep=1)
    assert repr(load_results(tmp_path / "one")).endswith(
        "even 0.000 (content-blind), c99 0.958 (run on 1 of 4 documents))")
    _run_cut_short(tmp_path / "none", keep=0)
    assert repr(load_results(tmp_path / "none")).endswith("even 0.000 (content-blind), c99 run on 0 of 4 documents)")


def test_the_command_that_finishes_a_run_of_a_file_saying_overwrite_finishes_it(tmp_path, monkeypatch):
    """The note (and an interrupted run) say to rerun the run's command with --resume; for an
    experiment file saying ``overwrite = true`` that was refused ('[run] resume and [run] overwrite
    exclude each other'), though the command line asked for one of them: its flag wins, as any
    flag over the file's value."""
    from dataclasses import replace

    from stability import load_results

    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp.toml").write_text(
        '[corpus]\ndemo = { n_documents = 4, seed = 0 }\n[segmenters.even]\n[segmenters.c99]\n'
        '[run]\nn_restarts = 2\noverwrite = true\n[output]\ndir = "res"\n', encoding="utf-8")
    assert CliRunner().invoke(app, ["run", "exp.toml"]).exit_code == 0
    _cut_short(tmp_path / "res", keep=1)
    stopped = load_results("res")
    typed = replace(stopped, settings={**stopped.settings, "provenance": {"command": "stability run exp.toml"}})
    assert "To finish it: stability run exp.toml --resume." in " ".join(render(typed, "md").split())
    finished = CliRunner().invoke(app, ["run", "exp.toml", "--resume"])
    assert finished.exit_code == 0, finished.output
    assert load_results("res").summary["c99"].n_documents == 4
    # and the other way round: --overwrite replaces a run whose file says resume = true
    text = (tmp_path / "exp.toml").read_text(encoding="utf-8")
    (tmp_path / "exp.toml").write_text(text.replace("overwrite = true", "resume = true"), encoding="utf-8")
    _cut_short(tmp_path / "res", keep=1)
    again = CliRunner().invoke(app, ["run", "exp.toml", "--overwrite"])
    assert again.exit_code == 0, again.output
    assert load_results("res").summary["c99"].n_documents == 4


def test_a_run_read_while_it_runs_is_not_said_to_have_stopped(tmp_path):
    """``stability report DIR`` while the run is still writing it (its lock held: load_results
    warns) shows segmenters a document apart; the note said only that the run stopped."""
    import os
    import socket

    from stability import ResultsWarning, load_results
    from stability.store import RESULTS_FILE

    out = tmp_path / "run"
    _run_cut_short(out, keep=3)
    (out / (RESULTS_FILE + ".lock")).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    with pytest.warns(ResultsWarning, match="holds its lock and may still be writing it"):
        running = load_results(out)
    assert "the run stopped before it finished (or is still running)" in " ".join(render(running, "md").split())
