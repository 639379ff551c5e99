"""The command line, through typer's CliRunner: exit codes, streams, golden reports."""

from __future__ import annotations

import json
import math
import os
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import listed_parameters, topical_document
from stability import Document
from stability.cli import app
from stability.readers import write_jsonl
from stability.store import provenance

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("STABILITY_UPDATE_GOLDEN") == "1"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "200", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})


@pytest.fixture
def corpus_file(tmp_path) -> Path:
    docs = []
    for i in range(3):
        units, reference = topical_document(200 + i, n_topics=4)
        docs.append(Document(f"d{i}", tuple(units), references=(tuple(reference),)))
    path = tmp_path / "corpus.jsonl"
    write_jsonl(docs, path)
    return path


def test_version(runner):
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip().startswith("stability ")


def test_segmenters_lists_builtins_with_parameters(runner):
    result = runner.invoke(app, ["segmenters"])
    assert result.exit_code == 0, result.output
    for name in ("c99", "u00", "texttiling", "texttiling_nltk", "even", "none", "all", "random"):
        assert name in result.stdout
    assert "built-in" in result.stdout and "Parameters and their defaults" in result.stdout
    assert listed_parameters(result.stdout)["c99"]["n_segments"][0] == "None"


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_segmenters_say_what_each_parameter_means(runner):
    """A chunk size is counted in characters, words or tokens depending on the chunker: the
    parameters table says which (from each segmenter's docstring), and every parameter of every
    built-in has a meaning (texttiling_nltk's were documented nowhere: as TextTiling's now)."""
    from stability.registry import describe_segmenters

    for name, status in describe_segmenters().items():
        if status.info.origin == "built-in" and status.ok:
            assert set(status.meanings) == set(status.params), name
    result = runner.invoke(app, ["segmenters", "--width", "120"])
    assert result.exit_code == 0, result.output
    listed = listed_parameters(result.stdout)
    assert listed["semchunk"]["chunk_size"] == ["150", "Maximum words per chunk."]
    assert listed["langchain_recursive"]["chunk_size"] == ["1000", "Maximum characters per chunk."]
    assert listed["texttiling_nltk"]["w"] == ["20", "Pseudosentence size (tokens)."]
    assert "meaning: the first sentence of the parameter's documentation" in " ".join(result.stdout.split())
    data = json.loads(runner.invoke(app, ["segmenters", "--report-format", "json"]).stdout)
    chonkie = next(s for s in data["segmenters"] if s["name"] == "chonkie_sentence")
    assert chonkie["meanings"]["chunk_size"].startswith("Maximum tokens per chunk: characters with `tokenizer=")


def test_segmenters_named_on_the_command_line_are_the_only_ones_listed(runner):
    """`stability segmenters semchunk langchain_recursive`: the two a RAG user compares, not the
    seventy rows of every segmenter's parameters; a name that is not one fails (exit 1) and
    suggests the closest."""
    result = runner.invoke(app, ["segmenters", "semchunk", "langchain_recursive", "--width", "120"])
    assert result.exit_code == 0, result.output
    rows = [_cells(line) for line in result.stdout.split("Parameters and their defaults")[0].splitlines()
            if line.startswith("│")]
    assert {row[0] for row in rows if row[0]} == {"semchunk", "langchain_recursive"}
    listed = listed_parameters(result.stdout)
    assert list(listed) == ["semchunk", "langchain_recursive"]
    assert listed["semchunk"]["chunk_size"] == ["150", "Maximum words per chunk."]
    # a name neither registered nor importable is said once, on stderr, with no table of failures
    # (it printed a table row 'unknown ... failed', the same error as its note, then on stderr)
    wrong = runner.invoke(app, ["segmenters", "semchnk", "even"])
    assert wrong.exit_code == 1
    assert wrong.stdout == ""
    assert wrong.stderr.startswith("error: unknown segmenter 'semchnk'. Did you mean 'semchunk'?")
    assert wrong.stderr.count("semchnk") == 1 and wrong.stderr.count("\n") == 1
    missing = runner.invoke(app, ["segmenters", "no_such_module_here:thing", "--allow-plugins"])
    assert (missing.exit_code, missing.stdout) == (1, "")
    assert missing.stderr == ("error: segmenter 'no_such_module_here:thing': ModuleNotFoundError: "
                              "No module named 'no_such_module_here'\n")


def test_segmenters_imports_a_module_attribute_only_with_allow_plugins(runner, tmp_path, monkeypatch):
    """Describing a module:attribute imports it, which runs its code: the gate of run and of
    configs (--allow-plugins) holds for the listing too (it imported the module without it)."""
    (tmp_path / "gated_probe_mod.py").write_text("import pathlib\npathlib.Path(__file__).with_suffix('.ran').touch()\n"
                                                 "def seg(units):\n    return []\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    refused = runner.invoke(app, ["segmenters", "gated_probe_mod:seg"])
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == ("error: segmenter 'gated_probe_mod:seg' is code outside the registered segmenters "
                              "(module:attribute); describing it imports it, which runs its code: only with "
                              "--allow-plugins\n")
    assert not (tmp_path / "gated_probe_mod.ran").exists()
    allowed = runner.invoke(app, ["segmenters", "gated_probe_mod:seg", "--allow-plugins", "--width", "120"])
    assert allowed.exit_code == 0, allowed.output
    assert "gated_probe_mod:seg" in allowed.stdout and (tmp_path / "gated_probe_mod.ran").exists()


def test_run_default_demo_prints_table_on_stdout(runner):
    result = runner.invoke(app, ["run", "-s", "even", "-s", "none", "--restarts", "3", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "Stability test: 12 documents, 3 restarts" in result.stdout
    assert "content-blind" in result.stdout and "Pk" in result.stdout
    assert result.stderr == ""


def test_unknown_segmenter_is_one_line_and_exit_1(runner):
    result = runner.invoke(app, ["run", "-s", "c98", "--restarts", "2"])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        result.stderr.strip().splitlines()[0]
    ] and "error: --segmenter 'c98': unknown segmenter 'c98'. Did you mean 'c99'?" in result.stderr
    assert "Traceback" not in result.output

def test_chunker_without_its_extra_is_one_line_naming_the_flag_and_the_extra(runner, monkeypatch, tmp_path):
    """A RAG user asks for a chunker whose extra is not installed: one line naming what was typed
    and the extra to install, exit 1, no traceback (it was an ImportError's traceback); from a
    config, the line names the file and table."""
    import sys

    monkeypatch.setitem(sys.modules, "semchunk", None)  # import semchunk now raises ImportError
    result = runner.invoke(app, ["run", "-s", "semchunk,chunk_size=80", "-s", "c99", "--restarts", "2"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # typer.Exit(1), not the ImportError
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --segmenter 'semchunk,chunk_size=80': "), lines
    assert "needs the 'semchunk' package, installed by the extra 'semchunk'" in lines[0]
    assert "Traceback" not in result.output
    config = tmp_path / "rag.toml"
    config.write_text("[corpus]\ndemo = true\n[segmenters.semchunk]\ngrid = { chunk_size = [40, 80] }\n")
    from_file = runner.invoke(app, ["run", str(config), "--restarts", "2"])
    assert from_file.exit_code == 1
    assert f"error: {config}: [segmenters.semchunk] (grid point 'semchunk,chunk_size=40'): segmenter 'semchunk' " \
           "needs" in from_file.stderr


def test_dask_backend_without_distributed_is_one_line_naming_the_extra(runner, monkeypatch):
    """``--backend dask`` where distributed is not installed: one line naming the dask extra, exit 1
    (it was an InvalidParameterError, as if the value were wrong); from the library, the same
    MissingDependencyError before anything runs."""
    import sys

    from stability import Document, MissingDependencyError, evaluate

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    result = runner.invoke(app, ["run", "-s", "even,n_segments=2", "--restarts", "2", "--backend", "dask"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "backend 'dask' needs the optional package distributed" in lines[0], lines
    assert "pip install 'stability-harness[dask]'" in lines[0] and "Traceback" not in result.output
    with pytest.raises(MissingDependencyError, match=r"stability-harness\[dask\]"):
        evaluate(["even"], [Document("d", ("a b.", "c d.", "e f."))], n_restarts=2, backend="dask", progress=False)


def test_debug_shows_the_exception(runner):
    result = runner.invoke(app, ["run", "-s", "c98", "--restarts", "2", "--debug"])
    assert result.exit_code == 1 and result.exception is not None


def test_usage_errors_exit_2(runner):
    assert runner.invoke(app, ["run", "--restarts", "0"]).exit_code == 2
    assert runner.invoke(app, ["run", "--nope"]).exit_code == 2
    assert runner.invoke(app, ["report", "does-not-exist.jsonl"]).exit_code == 2


def test_config_with_unknown_key_suggests(runner, tmp_path):
    config = tmp_path / "x.toml"
    config.write_text("[run]\nn_restart = 5\n")
    result = runner.invoke(app, ["run", str(config)])
    assert result.exit_code == 1
    assert "unknown key 'n_restart' in [run]; did you mean 'n_restarts'?" in result.stderr


def _run_to(runner, corpus_file, out, *extra):
    args = ["run", "-s", "c99", "-s", "even", "--corpus", str(corpus_file), "--restarts", "4",
            "--out", str(out), "--no-progress", *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result


def test_run_metrics_are_those_of_the_reports_it_writes(runner, corpus_file, tmp_path):
    """The README's chunker comparison, `run ... --metrics f1_1,b,pk --out DIR`: the terminal
    showed F1(±1), the report.md written beside it did not (it had the default metrics); both now
    show the metrics asked for."""
    out = tmp_path / "out"
    result = _run_to(runner, corpus_file, out, "--metrics", "f1_1,b,pk")
    assert "F1(±1)" in result.stdout
    header = next(line for line in (out / "report.md").read_text(encoding="utf-8").splitlines()
                  if line.startswith("| segmenter | docs |"))
    assert [cell.strip() for cell in header.split("| flags |")[1].strip(" |").split("|")] == ["F1(±1)", "B", "Pk"]


def test_a_report_rendered_from_a_saved_run_shows_the_metrics_the_run_showed(runner, corpus_file, tmp_path):
    """`stability report DIR` on a run made with `--metrics f1_1,b,pk` showed the default metrics
    (F1, Pk, WD, B) rather than the run's own (found by a RAG user's audit): the run record keeps
    the metrics its reports showed (store.SHOWN_METRICS) and a report of it shows them again, in
    that order, unless --metrics says otherwise."""
    out = tmp_path / "out"
    _run_to(runner, corpus_file, out, "--metrics", "f1_1,b,pk")

    def header(*extra):
        result = runner.invoke(app, ["report", str(out), "--report-format", "md", *extra])
        assert result.exit_code == 0, result.output
        line = next(line for line in result.stdout.splitlines() if line.startswith("| segmenter | docs |"))
        return [cell.strip() for cell in line.split("| flags |")[1].strip(" |").split("|")]

    assert header() == ["F1(±1)", "B", "Pk"]
    assert header("--metrics", "wd") == ["WD"]


def test_run_metrics_that_cannot_be_computed_still_leave_the_reports(runner, tmp_path):
    """`--metrics pk,b --out DIR` on documents without references: the error stands (exit 1), but
    the reports are written with what the run computed; since --metrics chose the reports' metrics
    (9bcdc2f) the run ended with results.jsonl alone."""
    from stability.demo import demo_corpus

    folder, out = tmp_path / "plain", tmp_path / "out"
    folder.mkdir()
    for doc in demo_corpus(n_documents=2):
        (folder / f"{doc.id}.txt").write_text("\n".join(doc.units) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["run", "-s", "even", "-c", str(folder), "--corpus-format", "text", "--unit", "line",
                                 "-r", "2", "--no-progress", "--metrics", "pk,b", "--out", str(out)])
    assert result.exit_code == 1
    assert "pk, boundary_similarity were not computed: they need references" in result.stderr
    assert "were written with the reference metrics the run computed" in result.stderr
    assert {"report.md", "report.json"} <= {path.name for path in out.iterdir()}


def test_run_metrics_that_cannot_be_computed_without_out_still_print_the_report(runner, tmp_path):
    """`--metrics pk` on documents without references and no --out: the run computed every pair,
    then the error alone was printed and the results were lost (kept nowhere). The report is
    printed with the metrics the run computed, then the error stands (exit 1)."""
    from stability.demo import demo_corpus

    folder = tmp_path / "plain"
    folder.mkdir()
    for doc in demo_corpus(n_documents=2):
        (folder / f"{doc.id}.txt").write_text("\n".join(doc.units) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["run", "-s", "even", "-c", str(folder), "--corpus-format", "text", "--unit", "line",
                                 "-r", "2", "--no-progress", "--metrics", "pk", "--width", "100"])
    assert result.exit_code == 1
    assert "pk was not computed: it needs references" in result.stderr
    assert "the report above shows the reference metrics the run computed, not those named" in result.stderr
    assert any(line.startswith("│ even ") for line in result.stdout.splitlines()), result.stdout


@pytest.mark.parametrize("fmt", ["table", "md", "csv", "json", "html"])
def test_report_formats_match_golden_files(runner, corpus_file, tmp_path, fmt):
    out = tmp_path / "out"
    _run_to(runner, corpus_file, out)
    result = runner.invoke(app, ["report", str(out), "--format", fmt])
    assert result.exit_code == 0, result.output
    text = result.stdout.replace(str(tmp_path), "<tmp>")
    for key, value in provenance().items():  # the versions of this machine, in the run record
        for quote in ('"', "&quot;"):
            text = text.replace(f"{quote}{key}{quote}: {quote}{value}{quote}", f"{quote}{key}{quote}: {quote}<{key}>{quote}")
    golden = GOLDEN / f"report.{fmt}"
    if UPDATE or not golden.exists():
        golden.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"golden file {golden.name} was missing and has been written; rerun")
    assert_same_report(text, golden.read_text(encoding="utf-8"))


#: A number as the reports write it (``0.1``, ``-3``, ``1e-05``, ``2.5E+3``).
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def assert_same_report(text: str, golden: str) -> None:
    """``text`` is ``golden`` but for numbers that differ in their last digits (relative 1e-12).

    Full-precision floats (the CSV and JSON reports) differ in their last digit or two with the
    numpy and BLAS a machine has (numpy 1.24 against 2.x: ``0.8068326372143902`` against
    ``...905``); every other character must be the same.
    """
    words, numbers = NUMBER.split(text), NUMBER.findall(text)
    expected_words, expected_numbers = NUMBER.split(golden), NUMBER.findall(golden)
    if words != expected_words or len(numbers) != len(expected_numbers):
        assert text == golden  # pytest shows where they differ
    for got, expected in zip(numbers, expected_numbers):
        if got != expected:
            assert math.isclose(float(got), float(expected), rel_tol=1e-12), (got, expected)


def test_golden_reports_allow_only_the_last_digits_of_a_number_to_differ():
    assert_same_report('{"f1": 0.8068326372143905, "n": 3}', '{"f1": 0.8068326372143902, "n": 3}')
    for other in ('{"f1": 0.80683263721, "n": 3}', '{"f1": 0.8068326372143902, "n": 4}',
                  '{"F1": 0.8068326372143902, "n": 3}', '{"f1": 0.8068326372143902, "n": 3, "m": 1}'):
        with pytest.raises(AssertionError):
            assert_same_report(other, '{"f1": 0.8068326372143902, "n": 3}')


def test_run_writes_outputs_and_resume_reuses_them(runner, corpus_file, tmp_path):
    out = tmp_path / "out"
    first = _run_to(runner, corpus_file, out)
    assert "results written to" in first.stderr
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 3 * 2
    (out / "results.jsonl").write_text("\n".join(lines[:4]) + "\n")
    again = _run_to(runner, corpus_file, out, "--resume")
    assert again.stdout == first.stdout
    assert len((out / "results.jsonl").read_text().splitlines()) == 7


def test_a_resume_refused_says_how_to_start_afresh_with_the_flags(runner, corpus_file, tmp_path):
    """A resume with other settings said "use another output file or the same settings": the
    command takes a folder (--out), and --overwrite starts afresh in it; the advice names both flags."""
    out = tmp_path / "out"
    _run_to(runner, corpus_file, out)
    args = ["run", "-s", "c99", "-s", "even", "--corpus", str(corpus_file), "--restarts", "5", "--out", str(out),
            "--no-progress", "--resume"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert ("n_restarts: 4 then, 5 now); resume with the same settings, or start afresh with --out another path, "
            "or with --overwrite (instead of --resume) to replace its results") in result.stderr, result.stderr
    assert "=" not in result.stderr.split("; resume with")[1]


def _warning_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning: ")]


def test_run_resumed_with_nothing_left_says_the_warnings_of_the_run(runner, tmp_path):
    """`stability run --out DIR --resume` of a finished run printed no warning, while the report it
    printed said U00 was term-blind on 2 of 3 documents (German read with English stopwords, two
    Chinese documents); it now prints the fresh run's. A results file written before the
    term-blind mark existed (and cut: a resume computes the rest) is marked on resume: the
    report says 2 of 3, not 1."""
    from test_languages import _as_written_before_the_mark, _mixed_languages

    corpus = tmp_path / "corpus.jsonl"
    write_jsonl(_mixed_languages(), corpus)
    out = tmp_path / "out"
    args = ["run", "-s", "u00", "--corpus", str(corpus), "--restarts", "3", "--out", str(out), "--no-progress"]
    fresh = runner.invoke(app, args)
    assert fresh.exit_code == 0, fresh.output
    said = _warning_lines(fresh.stderr)
    assert [line[:36] for line in said] == ["warning: u00 on document 'de': 8 of ",
                                            "warning: u00 on document 'zh': 32 of"]
    assert "u00 on 2 of 3 documents" in " ".join(fresh.stdout.split())
    for cut in (None, 2):  # finished; written before the mark, 'zh2' left to compute
        if cut is not None:
            _as_written_before_the_mark(out / "results.jsonl", keep=cut)
        again = runner.invoke(app, [*args, "--resume"])
        assert again.exit_code == 0, again.output
        assert _warning_lines(again.stderr) == said, cut
        assert again.stdout == fresh.stdout, cut


def test_run_report_json_to_stdout_is_machine_readable(runner, corpus_file):
    result = runner.invoke(app, ["run", "-s", "even", "--corpus", str(corpus_file), "--restarts", "2",
                                 "--report", "json", "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"settings", "summary", "documents", "failures", "correlations"}
    assert data["summary"]["even"]["content_blind"] is True


def test_score_reference_metrics_without_segmenter(runner, tmp_path):
    ref = tmp_path / "ref.jsonl"
    hyp = tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "masses": [3, 4, 2]}\n{"id": "b", "boundaries": [5], "n_units": 10}\n')
    hyp.write_text('{"id": "a", "masses": [2, 6, 1]}\n{"id": "b", "boundaries": [5], "n_units": 10}\n')
    result = runner.invoke(app, ["score", "--reference", str(ref), "--hypothesis", str(hyp), "--k", "2", "--report", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    # metrics-peers.md section 2.3: masses [3,4,2] vs [2,6,1] at k=2 -> pk = 3/7
    assert data["documents"]["a"]["pk"] == pytest.approx(3 / 7)
    assert data["documents"]["b"]["pk"] == 0.0
    assert data["mean"]["pk"] == pytest.approx(3 / 14)
    missing = tmp_path / "hyp2.jsonl"
    missing.write_text('{"id": "a", "masses": [2, 6, 1]}\n')
    bad = runner.invoke(app, ["score", "--reference", str(ref), "--hypothesis", str(missing)])
    assert bad.exit_code == 1 and "references without a hypothesis: ['b']" in bad.stderr


def test_score_refuses_a_hypothesis_file_given_twice(runner, tmp_path):
    """Comparing two systems as ``-H a.jsonl -H b.jsonl`` scored b.jsonl alone, without a word
    (click keeps an option's last value): the report looked like a's."""
    ref, a, b = tmp_path / "ref.jsonl", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    ref.write_text('{"id": "d", "boundaries": [3, 7], "n_units": 10}\n')
    a.write_text('{"id": "d", "boundaries": [3, 7], "n_units": 10}\n')
    b.write_text('{"id": "d", "boundaries": [], "n_units": 10}\n')
    twice = runner.invoke(app, ["score", "-R", str(ref), "-H", str(a), "-H", str(b), "--report-format", "json"])
    assert twice.exit_code == 2, twice.output
    assert "given 2 times" in twice.stderr and "run score once per hypothesis file" in twice.stderr
    assert runner.invoke(app, ["score", "-R", str(ref), "-R", str(a), "-H", str(b)]).exit_code == 2
    once = runner.invoke(app, ["score", "-R", str(ref), "-H", str(a), "--report-format", "json"])
    assert once.exit_code == 0 and json.loads(once.stdout)["documents"]["d"]["f1"] == 1.0


def test_score_reports_name_the_files_scored(runner, tmp_path):
    """Two systems scored against the same references gave reports alike but for their numbers,
    naming neither file: saved side by side, which was which could not be told."""
    ref, a = tmp_path / "ref.jsonl", tmp_path / "system_a.jsonl"
    ref.write_text('{"id": "d", "boundaries": [3, 7], "n_units": 10}\n')
    a.write_text('{"id": "d", "boundaries": [3], "n_units": 10}\n')
    table = runner.invoke(app, ["score", "-R", str(ref), "-H", str(a)])
    assert table.exit_code == 0, table.output
    assert f"Hypotheses from {a}, scored against the references of {ref}." in " ".join(table.stdout.split())
    data = json.loads(runner.invoke(app, ["score", "-R", str(ref), "-H", str(a), "--report-format", "json"]).stdout)
    assert (data["hypothesis"], data["reference"]) == (str(a), str(ref))
    piped = runner.invoke(app, ["score", "-R", str(ref), "-H", "-", "--report-format", "md"], input=a.read_text())
    assert "Hypotheses from standard input" in piped.stdout


def test_score_json_report_of_an_infinite_nwin_is_strict_json(runner, tmp_path):
    """NWin is documented to be ``inf`` when its expectation E is 0 but the corrected WindowDiff is
    not: here n = 4, k = n-1 = 3, reference [1] and hypothesis [3] (one boundary each). Every full
    window holds all 3 gaps, so E = |1 - 1| = 0 (Lamprier et al. 2007 eq. 8), while the edge windows
    of eq. 4 differ (4 of n+k-2 = 5 windows: WD_c = 0.8). The JSON report crashed on the infinity
    ("Out of range float values are not JSON compliant") and its standard deviation printed a numpy
    warning; it now gives null for it, as the run reports do for non-finite numbers."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "boundaries": [1], "n_units": 4}\n{"id": "b", "boundaries": [1], "n_units": 4}\n')
    hyp.write_text('{"id": "a", "boundaries": [3], "n_units": 4}\n{"id": "b", "boundaries": [1], "n_units": 4}\n')
    result = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "-k", "3", "--report-format", "json"])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr
    data = json.loads(result.stdout)
    assert data["documents"]["a"]["windowdiff_corrected"] == pytest.approx(0.8)
    assert data["documents"]["a"]["nwin"] is None and data["mean"]["nwin"] is None
    assert data["documents"]["b"]["nwin"] == 0.0


def test_score_one_unit_document_has_no_window(runner, tmp_path):
    """A one-unit document has no gap, so no window metric (they are n/a): its window k is n/a too,
    not 0. It was 0, so the note said "k = 0 to 2" and the mean k counted it (1.0 instead of 2)."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3, 7], "n_units": 9}\n{"id": "b", "boundaries": [], "n_units": 1}\n')
    hyp.write_text('{"id": "a", "boundaries": [2, 8], "n_units": 9}\n{"id": "b", "boundaries": [], "n_units": 1}\n')
    table = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "md"])
    assert table.exit_code == 0, table.output
    assert "Window metrics (Pk, WindowDiff and their variants) at k = 2;" in table.stdout  # Lamprier eq. 5 for document a: round(9 / 6) = 2
    data = json.loads(runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "json"]).stdout)
    assert data["documents"]["b"]["window_k"] is None and data["documents"]["b"]["pk"] is None
    assert data["mean"]["window_k"] == 2.0


def _terminal_tables(text: str) -> list[dict]:
    """The tables of a terminal report (each part of one): its column titles (a title wrapped
    over lines joined), its body rows and the rows under a rule (its footer), as lists of cells."""
    tables: list[dict] = []
    for line in text.splitlines():
        if line.startswith("┏"):
            tables.append({"titles": [], "rows": [], "footer": []})
        elif line.startswith("┃"):
            cells = [cell.strip() for cell in line.strip("┃").split("┃")]
            titles = tables[-1]["titles"]
            tables[-1]["titles"] = [f"{a} {b}".strip() for a, b in zip(titles, cells)] if titles else cells
        elif line.startswith("├"):  # the rule above the footer
            tables[-1]["under_rule"] = True
        elif line.startswith("│"):
            cells = [cell.strip() for cell in line.strip("│").split("│")]
            tables[-1]["footer" if tables[-1].get("under_rule") else "rows"].append(cells)
    return tables


@pytest.fixture
def scored(tmp_path) -> tuple[Path, Path]:
    """Three documents to score, one of them named ``mean`` (a summary row must not pass for it)."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "masses": [3, 4, 2]}\n{"id": "mean", "boundaries": [5], "n_units": 10}\n'
                   '{"id": "chapter-two-long-name", "boundaries": [4, 9, 15], "n_units": 20}\n')
    hyp.write_text('{"id": "a", "masses": [2, 6, 1]}\n{"id": "mean", "boundaries": [5], "n_units": 10}\n'
                   '{"id": "chapter-two-long-name", "boundaries": [3, 10, 15], "n_units": 20}\n')
    return ref, hyp


@pytest.mark.parametrize("columns", [80, 100, 120])
def test_score_prints_whole_numbers_without_decimals_and_its_mean_and_std_apart(scored, columns):
    """``stability score`` printed every value with 4 decimals (the window k as ``2.0000``, GHD's
    whole costs as ``2.0000``), and its mean and std rows sat among the documents, where a
    document called ``mean`` could not be told from them. Each column now has the decimals its
    catalogue entry declares (Measure.places), and the mean and std are a footer under a rule."""
    from stability.catalogue import REFERENCE, reference_measure

    ref, hyp = scored
    runner = CliRunner(env={"COLUMNS": str(columns), "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    result = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--columns", "all"])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= columns
    tables = _terminal_tables(result.stdout)
    assert len(tables) >= 2  # seventeen metrics: in parts, each with the footer
    by_title = {m.short: m for m in REFERENCE.values()}
    seen = set()
    for table in tables:
        assert [row[0] for row in table["rows"]] == ["a", "mean", "chapter-two-long-name"]
        assert [row[0] for row in table["footer"]] == ["mean", "std"]  # under the rule, after the documents
        for i, title in enumerate(table["titles"][1:], start=1):
            m = by_title[title]
            seen.add(m.name)
            for cells, statistic in ((table["rows"], False), (table["footer"], True)):
                decimals = {len(cell.partition(".")[2]) for cell in (row[i] for row in cells)}
                assert decimals == {m.places(4, statistic)}, (title, [row[i] for row in cells])
    assert {"window_k", "ghd", "pk"} <= seen
    k = next(table for table in tables if "k" in table["titles"])
    column = k["titles"].index("k")
    assert [row[column] for row in k["rows"]] == ["2", "2", "2"]  # Lamprier's eq. 5 at 9, 10 and 20 units
    assert [row[column] for row in k["footer"]] == ["2.0", "0.0"]
    assert reference_measure("window_k").places(4) == 0 and reference_measure("pk").places(4) == 4
    assert "The rows mean and std at the foot of the table" in result.stdout


def test_score_markdown_and_html_set_the_mean_and_std_apart(runner, scored):
    """The other human-readable formats set the footer apart too: in bold (Markdown, where a
    document named ``**mean**`` is escaped), in the table's foot (HTML); CSV holds the documents only."""
    ref, hyp = scored
    md = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "md", "--metrics", "pk,window_k"])
    assert md.exit_code == 0, md.output
    assert "| mean | 0.0000 | 2 |" in md.stdout and "| **mean** | " in md.stdout and "| **std** | " in md.stdout
    page = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "html"]).stdout
    foot = page[page.index("<tfoot>"):page.index("</tfoot>")]
    assert foot.count("<tr>") == 2 and '<th scope="row" class="l">mean</th>' in foot
    lines = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "csv"]).stdout.splitlines()
    assert [line.split(",")[0] for line in lines[1:]] == ["a", "mean", "chapter-two-long-name"]


def test_reader_options_on_the_command_line(runner, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_bytes("Caf\xe9 one. Caf\xe9 two.\n\nThird part here. And more.\n".encode("latin-1"))
    bad = runner.invoke(app, ["run", "-s", "even", "--corpus", str(text), "--restarts", "2", "--no-progress"])
    assert bad.exit_code == 1 and "encoding" in bad.stderr and "notes.txt" in bad.stderr
    good = runner.invoke(app, ["run", "-s", "none", "--corpus", str(text), "--encoding", "latin-1", "--unit", "paragraph",
                               "--restarts", "2", "--no-progress", "--report", "json"])
    assert good.exit_code == 0, good.output
    assert json.loads(good.stdout)["documents"]["none"][0]["n_units"] == 2
    wiki = tmp_path / "article"
    wiki.write_text("========,1,preface.\nIntro sentence.\n========,2,History.\nOld times.\nMore old.\n"
                    "========,1,Now.\nNew times.\n", encoding="utf-8")
    levels = runner.invoke(app, ["run", "-s", "none", "--corpus", str(wiki), "--format", "wiki", "--levels", "1",
                                 "--restarts", "2", "--no-progress", "--report", "json"])
    assert levels.exit_code == 0, levels.output
    assert json.loads(levels.stdout)["documents"]["none"][0]["references"] == [[3]]
    demo = runner.invoke(app, ["run", "--encoding", "latin-1"])
    assert demo.exit_code == 1 and "the corpus option --encoding needs a corpus path" in demo.stderr


def test_limit_counts_documents_of_the_demo_corpus_too(runner, tmp_path):
    """--limit and [corpus] limit take the first documents of the demo corpus (it was refused)."""
    flag = runner.invoke(app, ["run", "-s", "none", "--limit", "2", "--restarts", "2", "--no-progress", "--report", "json"])
    assert flag.exit_code == 0, flag.output
    assert [d["document"] for d in json.loads(flag.stdout)["documents"]["none"]] == ["demo-00", "demo-01"]
    config = tmp_path / "demo.toml"
    config.write_text("[corpus]\ndemo = true\nlimit = 3\n[segmenters.none]\nsegmenter = 'none'\n", encoding="utf-8")
    table = runner.invoke(app, ["run", str(config), "--restarts", "2", "--no-progress", "--report", "json"])
    assert table.exit_code == 0, table.output
    assert len(json.loads(table.stdout)["documents"]["none"]) == 3


def test_json_dialogue_hub_with_where_from_the_command_line_and_a_config(runner, tmp_path):
    # the dialogue topic segmentation data hub's layout: a JSON array, utterances, sizes, a split key
    dialogues = [
        {"dial_id": i, "utterances": [f"turn {j} about {'rain' if j < 3 else 'trains'}" for j in range(6)],
         "segments": [3, 3], "set": "test" if i else "dev"}
        for i in range(3)
    ]
    hub = tmp_path / "hub.json"
    hub.write_text(json.dumps(dialogues, indent=4), encoding="utf-8")
    args = ["run", "-s", "none", "--corpus", str(hub), "--restarts", "2", "--no-progress", "--report-format", "json"]
    result = runner.invoke(app, args + ["--where", "set=test"])
    assert result.exit_code == 0, result.output
    docs = json.loads(result.stdout)["documents"]["none"]
    assert [(d["document"], d["references"]) for d in docs] == [("1", [[3]]), ("2", [[3]])]
    config = tmp_path / "hub.toml"
    config.write_text(f'[corpus]\npath = "{hub.name}"\nwhere = {{set = "dev"}}\n[segmenters.none]\n', encoding="utf-8")
    result = runner.invoke(app, ["run", str(config), "--restarts", "2", "--no-progress", "--report-format", "json"])
    assert result.exit_code == 0, result.output
    assert [d["document"] for d in json.loads(result.stdout)["documents"]["none"]] == ["0"]
    bad = runner.invoke(app, args + ["--where", "set"])
    assert bad.exit_code == 1 and "--where must be 'key=value' pairs" in bad.stderr
    none = runner.invoke(app, args + ["--where", "set=train"])
    assert none.exit_code == 1 and none.stdout == ""
    assert none.stderr == f"error: --where 'set=train' kept none of the 3 document(s) read from {hub}\n"


@pytest.mark.parametrize("name, text, expected", [
    ("empty.jsonl", "", "expected JSON documents (one object per line, or an array of objects); the file is empty"),
    ("empty.json", "[]\n", "expected at least one document (a JSON object with 'units') in the array; the array is empty"),
])
def test_a_corpus_without_documents_is_an_error_not_an_empty_report(runner, tmp_path, name, text, expected):
    corpus = tmp_path / name
    corpus.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["run", "-s", "c99", "--corpus", str(corpus), "--restarts", "2", "--no-progress"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"error: {corpus}") and expected in result.stderr


def test_markdown_corpora_from_the_command_line(runner, tmp_path):
    # headings are the reference (removed from the units); --levels, --code and --unit reach the reader
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text("Intro.\n\n# Install\n\nRun it. Then wait.\n\n```\npip install x\n```\n\n"
                                     "## Options\n\nSet them.\n", encoding="utf-8")
    args = ["run", "-s", "none", "--corpus", str(folder), "--restarts", "2", "--no-progress", "--report-format", "json"]

    def read(*extra):
        result = runner.invoke(app, args + list(extra))
        assert result.exit_code == 0, result.output
        (doc,) = json.loads(result.stdout)["documents"]["none"]
        return doc["n_units"], doc["references"]

    assert read() == (4, [[1, 3]])
    assert read("--levels", "1") == (4, [[1]])
    assert read("--code", "drop") == (3, [[1, 2]])
    assert read("--unit", "sentence", "--splitter", "rules", "--code", "drop") == (4, [[1, 3]])
    bad = runner.invoke(app, args + ["--code", "strip"])
    assert bad.exit_code == 1 and "code must be one of 'keep', 'drop'; received 'strip'" in bad.stderr
    (folder / "guide.md").write_text("# A\n\n> Quoted.\n>\n> *Two*.\n\n# B\n\nEnd.\n", encoding="utf-8")
    assert read() == (2, [[1]])  # the block quote is one unit as written
    assert read("--markup", "text") == (3, [[2]])  # ">" alone ends a paragraph
    bad = runner.invoke(app, args + ["--markup", "html"])
    assert bad.exit_code == 1 and "markup must be one of 'keep', 'text'; received 'html'" in bad.stderr
    text = tmp_path / "notes.txt"
    text.write_text("One. Two.\n", encoding="utf-8")
    other = runner.invoke(app, ["run", "-s", "none", "--corpus", str(text), "--code", "drop"])
    assert other.exit_code == 1 and "--code applies only to format 'markdown'" in other.stderr


def test_blank_lines_and_limit_from_the_command_line(runner, tmp_path):
    # Choi files with blank lines between units (as in the fiction set): kept by default, dropped
    # with --blank-lines drop; --limit reads the first files in natural order
    folder = tmp_path / "chapters"
    folder.mkdir()
    for name in ("10.ref", "2.ref", "1.ref"):
        (folder / name).write_text("==========\na b\n\nc d\n==========\ne f\n\ng h\n==========\n", encoding="utf-8")
    args = ["run", "-s", "none", "--corpus", str(folder), "--restarts", "2", "--no-progress", "--report-format", "json"]
    kept = runner.invoke(app, args)
    assert kept.exit_code == 0, kept.output
    docs = json.loads(kept.stdout)["documents"]["none"]
    assert [(d["document"], d["n_units"], d["references"]) for d in docs] == [
        ("1.ref", 6, [[3]]), ("2.ref", 6, [[3]]), ("10.ref", 6, [[3]])
    ]
    assert "2 blank lines kept as empty units: lines 3, 7" in kept.stderr
    dropped = runner.invoke(app, args + ["--blank-lines", "drop", "--limit", "2"])
    assert dropped.exit_code == 0, dropped.output
    docs = json.loads(dropped.stdout)["documents"]["none"]
    assert [(d["document"], d["n_units"], d["references"]) for d in docs] == [("1.ref", 4, [[2]]), ("2.ref", 4, [[2]])]
    assert dropped.stderr.count("2 blank lines dropped: lines 3, 7") == 2
    bad = runner.invoke(app, args + ["--blank-lines", "skip"])
    assert bad.exit_code == 1 and "--blank-lines must be one of 'keep', 'drop'; received 'skip'" in bad.stderr
    hub = tmp_path / "one.jsonl"
    hub.write_text('{"id": "a", "units": ["x", "y"], "boundaries": [1]}\n', encoding="utf-8")
    other = runner.invoke(app, ["run", "-s", "none", "--corpus", str(hub), "--blank-lines", "drop"])
    assert other.exit_code == 1 and "--blank-lines applies only to format 'choi'" in other.stderr
    zero = runner.invoke(app, args + ["--limit", "0"])
    assert zero.exit_code == 2 and "--limit" in zero.stderr


def test_help_texts_keep_their_square_brackets():
    """Rich markup reads ``[corpus]`` as a style tag and drops it: every bracketed word of an
    option's or argument's help must show in ``--help`` as written."""
    import re

    import typer.main

    wide = CliRunner(env={"COLUMNS": "1000", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    group = typer.main.get_command(app)
    checked = 0
    for name, command in group.commands.items():
        shown = wide.invoke(app, [name, "--help"]).output
        for param in command.params:
            for word in re.findall(r"\\?\[[^\]\s]+\]", getattr(param, "help", None) or ""):
                assert word.lstrip("\\") in shown, (name, param.name, word)
                checked += 1
    assert checked >= 3


@pytest.mark.parametrize("report_format", ["csv", "table", "md", "json"])
def test_printed_reports_end_with_one_line_end(runner, report_format):
    """A report on stdout ends with exactly one newline (CSV had an empty last row before)."""
    result = runner.invoke(app, ["run", "-s", "even", "-r", "2", "--no-progress", "--report-format", report_format])
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("\n") and not result.stdout.endswith("\n\n")


def test_one_restart_is_singular_in_the_title(runner):
    result = runner.invoke(app, ["run", "-s", "even", "-r", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "12 documents, 1 restart, seed 0" in result.stdout


def test_run_prints_the_per_document_table_when_asked(runner):
    base = ["run", "-s", "even", "-r", "2", "--no-progress", "--report-format", "csv"]
    plain, documents = runner.invoke(app, base), runner.invoke(app, base + ["--documents"])
    assert plain.exit_code == documents.exit_code == 0, documents.output
    assert plain.stdout.splitlines()[0].startswith("segmenter,params,")           # one row per segmenter
    assert documents.stdout.splitlines()[0].startswith("segmenter,document,n_units,")  # one row per document
    assert len(documents.stdout.splitlines()) == 1 + 12


def _main(monkeypatch, capsys, *args):
    """The command line (``stability.cli.main``, which the console script runs) in this process with ``args``."""
    from stability import cli

    monkeypatch.setattr("sys.argv", ["stability", *args])
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code in (0, None), capsys.readouterr().err
    return capsys.readouterr()


def test_the_run_record_keeps_the_command_and_versions_and_the_report_says_how_to_reproduce(
        monkeypatch, capsys, corpus_file, tmp_path):
    # the run record held the settings but not the command, nor the versions that computed it
    monkeypatch.chdir(tmp_path)
    _main(monkeypatch, capsys, "run", "-s", "c99", "--corpus", corpus_file.name, "--restarts", "3", "--seed", "4",
          "--out", "out", "--no-progress", "--report-format", "md")
    header = json.loads((tmp_path / "out" / "results.jsonl").read_text().splitlines()[0])
    command = f"stability run -s c99 --corpus {corpus_file.name} --restarts 3 --seed 4 --out out --no-progress --report-format md"
    # and how the corpus was read, so that references given after it are read alike (`report -R`)
    reader = {"paths": [str(corpus_file)], "formats": ["jsonl"], "options": {}}
    assert header["provenance"] == {**provenance(), "command": command, "cwd": str(tmp_path), "reader": reader}
    shown = _main(monkeypatch, capsys, "report", "out", "--report-format", "md").out
    assert (f"To reproduce: {command} (run in {tmp_path}; computed with stability {provenance()['stability']}, "
            f"Python {provenance()['python']}, numpy {provenance()['numpy']}; the same numbers for any --jobs and backend)"
            in shown)
    # what it says reproduces the run, byte for byte
    first = (tmp_path / "out" / "results.jsonl").read_bytes()
    (tmp_path / "out").rename(tmp_path / "first")
    _main(monkeypatch, capsys, *shlex.split(command)[1:])
    assert (tmp_path / "out" / "results.jsonl").read_bytes() == first
    # a resume keeps the first command; the JSON report carries it
    _main(monkeypatch, capsys, *shlex.split(command)[1:], "--resume", "--jobs", "2")
    assert (tmp_path / "out" / "results.jsonl").read_bytes() == first
    assert json.loads((tmp_path / "out" / "report.json").read_text())["settings"]["provenance"]["command"] == command


def test_the_reproduce_note_says_when_a_segmenter_is_non_deterministic(monkeypatch, capsys, corpus_file, tmp_path):
    import random

    import stability

    random.seed(0)
    monkeypatch.setattr(stability, "_coin_segmenter", lambda units: [random.randrange(1, len(units))], raising=False)
    monkeypatch.chdir(tmp_path)
    _main(monkeypatch, capsys, "run", "-s", "stability:_coin_segmenter", "--allow-plugins", "--corpus", corpus_file.name,
          "--restarts", "3", "--out", "out", "--no-progress")
    shown = _main(monkeypatch, capsys, "report", "out", "--report-format", "md").out
    # the label as Markdown writes it in notes, cells and the result line alike (the '_' starting a word escaped)
    assert "not bit for bit: stability:\\_coin_segmenter gave different outputs on the same input" in shown


def test_report_of_a_folder_without_its_results_file_reads_its_json_report(runner, corpus_file, tmp_path):
    # the folder's report.json was there, yet the command said results.jsonl does not exist
    out = tmp_path / "out"
    _run_to(runner, corpus_file, out)
    whole = runner.invoke(app, ["report", str(out), "--report-format", "csv"])
    (out / "results.jsonl").unlink()
    again = runner.invoke(app, ["report", str(out), "--report-format", "csv"])
    assert again.exit_code == 0, again.output
    assert again.stdout == whole.stdout
    (out / "report.json").unlink()
    empty = runner.invoke(app, ["report", str(out)])
    assert empty.exit_code == 1 and "holds neither results.jsonl nor report.json" in empty.stderr
