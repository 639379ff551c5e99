"""Command-line cases found by using the CLI as a user would (each read or ran something else
than asked, or failed late or with a traceback, before; see each test's docstring)."""

from __future__ import annotations

import csv
import io
import json
import os

import pytest
from typer.testing import CliRunner

from stability.cli import app

DEMO = '[corpus]\ndemo = true\nlimit = 2\n[segmenters.even]\n[run]\nn_restarts = 2\n'


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "200", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})


def _error(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert result.exit_code == 1 and len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("table, expected", [
    ('[metrics]\nnames = ["pk"]\n', "error: --metrics boundary_similarity: not among the metrics {cfg} computes "
                                    "([metrics] names: pk); add it there, or name others"),
    ("[metrics]\nenabled = false\n", "error: --metrics boundary_similarity: {cfg} computes no reference metric "
                                     "([metrics] enabled = false); remove --metrics, or enable the metrics there"),
])
def test_report_metrics_the_config_does_not_compute_are_refused_before_the_run(runner, tmp_path, table, expected):
    """The run computed everything, then failed with "it needs references, and no document
    scored has any" (the demo corpus has references), and without --out lost the run."""
    cfg = tmp_path / "run.toml"
    cfg.write_text(DEMO + table, encoding="utf-8")
    result = runner.invoke(app, ["run", str(cfg), "--metrics", "b", "--out", str(tmp_path / "out"), "--no-progress"])
    assert _error(result) == expected.format(cfg=cfg)
    assert not (tmp_path / "out" / "results.jsonl").exists()  # refused before anything ran
    assert runner.invoke(app, ["run", str(cfg), "--metrics", "pk" if "names" in table else "", "--no-progress"]
                         ).exit_code == (0 if "names" in table else 2)


def test_the_csv_report_shows_the_metrics_asked_for(runner, tmp_path):
    """--metrics chose the columns of every report format but CSV's, which kept all eleven."""
    out = tmp_path / "out"
    assert runner.invoke(app, ["run", "-s", "even", "-r", "2", "--limit", "2", "--out", str(out), "--no-progress"]
                         ).exit_code == 0
    result = runner.invoke(app, ["report", str(out), "--report-format", "csv", "--metrics", "pk,b"])
    header = next(csv.reader(io.StringIO(result.stdout)))
    assert [c for c in header if c.startswith("ref_")] == ["ref_pk_mean", "ref_pk_std", "ref_boundary_similarity_mean",
                                                          "ref_boundary_similarity_std"]


def test_documents_says_that_csv_prints_the_per_document_table_instead(runner, tmp_path):
    """--help said "Include the per-document table in the terminal table and CSV": CSV, one table
    a file, prints it instead of the segmenters' rows."""
    out = tmp_path / "out"
    assert runner.invoke(app, ["run", "-s", "even", "-r", "2", "--limit", "2", "--out", str(out), "--no-progress"]
                         ).exit_code == 0
    rows = {documents: next(csv.reader(io.StringIO(runner.invoke(app, ["report", str(out), "--report-format", "csv",
                                                                        *documents]).stdout)))
            for documents in ((), ("--documents",))}
    assert rows[()][:2] == ["segmenter", "params"] and rows[("--documents",)][:2] == ["segmenter", "document"]
    help_text = " ".join(runner.invoke(app, ["report", "--help"]).stdout.replace("│", " ").split())
    assert "after the segmenters' in the terminal table; instead of them in CSV" in help_text


@pytest.mark.parametrize("content, expected", [
    (b"\xff\xfe[\x00c\x00", "not UTF-8 text (a UTF-16 byte-order mark at byte 0); a TOML file is UTF-8: save it as UTF-8"),
    (b"[corpus]\ndemo = true\n\xe9\n", "not UTF-8 text (byte 0xe9 at byte 21); a TOML file is UTF-8: save it as UTF-8"),
])
def test_a_config_that_is_not_utf8_is_one_line_of_error(runner, tmp_path, content, expected):
    """A traceback (UnicodeDecodeError) before."""
    cfg = tmp_path / "bad.toml"
    cfg.write_bytes(content)
    assert _error(runner.invoke(app, ["run", str(cfg)])) == f"error: {cfg}: {expected}"


def test_a_config_saved_with_a_byte_order_mark_is_read(runner, tmp_path):
    """Notepad's UTF-8 with a byte-order mark was "not valid TOML: Invalid statement (at line 1, column 1)"."""
    cfg = tmp_path / "bom.toml"
    cfg.write_bytes(b"\xef\xbb\xbf" + DEMO.encode())
    result = runner.invoke(app, ["run", str(cfg), "--no-progress"])
    assert result.exit_code == 0, result.output


STUDY = '[corpus.a]\ndemo = true\nlimit = 2\n[segmenters.even]\n[segmenters.none]\n[segmenters.all]\n'


def test_a_study_config_is_read_as_a_run_config_is(runner, tmp_path):
    """`stability validate` read its files with code of its own: a byte-order mark was "not valid
    TOML: Invalid statement (at line 1, column 1)" and a file that is not UTF-8 a traceback
    (UnicodeDecodeError), where `run` reads the first and says the second in one line."""
    cfg = tmp_path / "study.toml"
    cfg.write_bytes(b"\xef\xbb\xbf" + STUDY.encode())
    from stability.study import load_corpora

    assert [spec.name for spec in load_corpora([cfg])] == ["a"]
    cfg.write_bytes(STUDY.encode() + b"# caf\xe9\n")
    message = _error(runner.invoke(app, ["validate", str(cfg), "--out", str(tmp_path / "out"), "--no-progress"]))
    assert message == f"error: {cfg}: not UTF-8 text (byte 0xe9 at byte {len(STUDY) + 5}); a TOML file is UTF-8: save it as UTF-8"


@pytest.mark.parametrize("command", ["run", "validate"])
def test_a_key_given_twice_is_quoted(runner, tmp_path, command):
    """tomllib says "Cannot overwrite a value (at line 9, column 9)", naming no key: the line is quoted."""
    cfg = tmp_path / "twice.toml"
    cfg.write_text((DEMO if command == "run" else STUDY) + "[segmenters.random]\nseed = 1\nseed = 2\n", encoding="utf-8")
    args = [command, str(cfg), "--no-progress"] + (["--out", str(tmp_path / "out")] if command == "validate" else [])
    message = _error(runner.invoke(app, args))
    assert message.startswith(f"error: {cfg}: not valid TOML: Cannot overwrite a value (at line ")
    assert message.endswith("): 'seed = 2'")


def test_a_results_file_whose_last_line_is_not_utf8_is_read_without_it(runner, tmp_path):
    """`stability report` read the file as UTF-8 whole to tell a JSON report from a results file:
    a damaged last line was a traceback instead of being dropped with a warning."""
    out = tmp_path / "out"
    assert runner.invoke(app, ["run", "-s", "even", "-r", "2", "--limit", "2", "--out", str(out), "--no-progress"]
                         ).exit_code == 0
    with open(out / "results.jsonl", "ab") as file:
        file.write(b'{"type": "result", "\xff\xfe')
    result = runner.invoke(app, ["report", str(out / "results.jsonl")])
    assert result.exit_code == 0, result.output
    assert "last line left out (not UTF-8 text)" in result.stderr


def test_a_resume_may_name_the_segmenters_in_another_order(runner, tmp_path):
    """The same segmenters in another order compute the same results: it was refused ("different settings")."""
    out = str(tmp_path / "out")
    base = ["run", "-r", "2", "--limit", "2", "--out", out, "--no-progress"]
    assert runner.invoke(app, base + ["-s", "even", "-s", "none"]).exit_code == 0
    result = runner.invoke(app, base + ["-s", "none", "-s", "even", "--resume"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in open(f"{out}/results.jsonl", encoding="utf-8")]
    assert sum(r.get("type") == "result" for r in records) == 4  # nothing computed twice
    changed = runner.invoke(app, base + ["-s", "none", "-s", "even,segment_length=4", "--resume"])
    assert "which this run leaves out" in _error(changed)  # another segmenter is still refused


def test_a_corpus_given_in_place_of_the_configs_is_said_to_be_read_in_the_configs_format(runner, tmp_path):
    """--corpus replaced the file's path and kept its format: a JSON corpus was read as lines of
    plain text without a word (one document of raw JSON lines, no references)."""
    (tmp_path / "txt").mkdir()
    (tmp_path / "txt" / "a.txt").write_text("One.\nTwo.\n", encoding="utf-8")
    cfg = tmp_path / "run.toml"
    cfg.write_text('[corpus]\npath = "txt"\nformat = "text"\nunit = "line"\n[segmenters.even]\n[run]\nn_restarts = 2\n',
                   encoding="utf-8")
    corpus = tmp_path / "corp.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"d{k}", "units": ["a.", "b.", "c.", "d."], "boundaries": [2]}) + "\n"
                              for k in range(2)), encoding="utf-8")
    result = runner.invoke(app, ["run", str(cfg), "--corpus", str(corpus), "--no-progress"])
    assert (f"warning: --corpus {corpus}: read in the format 'text' of {cfg}'s [corpus], whose path it replaces, "
            "though it looks like 'jsonl'; pass --corpus-format jsonl to read it so") in result.stderr
    other = tmp_path / "b.txt"
    other.write_text("Three.\nFour.\n", encoding="utf-8")
    result = runner.invoke(app, ["run", str(cfg), "--corpus", str(other), "--no-progress"])
    assert result.exit_code == 0 and "--corpus" not in result.stderr  # the same format: nothing to say


def test_resume_in_a_config_without_an_output_folder_is_refused(runner, tmp_path):
    """`[run] resume = true` without `[output] dir` ran from scratch in memory, silently, where
    `--resume` without `--out` is a usage error."""
    cfg = tmp_path / "run.toml"
    cfg.write_text(DEMO + "resume = true\n", encoding="utf-8")
    assert _error(runner.invoke(app, ["run", str(cfg), "--no-progress"])) == (
        f"error: {cfg}: [run] resume needs the folder of the run it continues ([output] dir, --out)")


def test_the_settings_block_shows_labels_as_written(runner, tmp_path):
    """The Settings block (JSON) escaped them: "\\u0442\\u0442" and an emoji as two surrogates."""
    cfg = tmp_path / "run.toml"
    cfg.write_text('[corpus]\ndemo = true\nlimit = 2\n[segmenters."тт 😀"]\nsegmenter = "even"\n[run]\nn_restarts = 2\n',
                   encoding="utf-8")
    result = runner.invoke(app, ["run", str(cfg), "--report-format", "html", "--no-progress"])
    settings = result.stdout.split("<h2>Settings</h2>")[1].split("</pre>")[0]
    assert "тт 😀" in settings and "\\u" not in settings


def test_a_backend_that_cannot_stream_results_is_refused_before_the_run(runner, tmp_path):
    """`[run] backend = "multiprocessing"` was accepted, then the run died with a ValueError
    traceback from joblib (its multiprocessing backend returns no result before all are done, and
    a run writes each as it comes), while `--backend multiprocessing` was refused: the command
    line and the config each had their own list. One list now (settings.BACKENDS)."""
    import typer

    from stability.cli import option_choices
    from stability.settings import BACKENDS

    run = typer.main.get_command(app).commands["run"]
    backend = next(param for param in run.params if param.name == "backend")
    assert list(option_choices(backend)) == [name for name in BACKENDS if name]
    config = tmp_path / "mp.toml"
    config.write_text('[corpus]\ndemo = {n_documents = 2}\n[segmenters.even]\n[run]\nn_restarts = 2\nn_jobs = 2\n'
                      'backend = "multiprocessing"\n', encoding="utf-8")
    result = runner.invoke(app, ["run", str(config)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert _error(result) == (f"error: {config}: [run] backend must be one of 'loky', 'threading', 'sequential', "
                              "'dask' (or None: leave it out); received 'multiprocessing'")


def test_a_settings_warning_is_said_once(runner, tmp_path):
    """The min_restarts warning was printed twice: the run copied its settings for the pairs it
    keeps apart (a crash retried in a worker), and the copy checked them again."""
    config = tmp_path / "few.toml"
    config.write_text('[corpus]\ndemo = {n_documents = 2}\n[segmenters.even]\n[run]\nn_restarts = 8\nmin_restarts = 3\n'
                      'ci_width = 0.1\n', encoding="utf-8")
    result = runner.invoke(app, ["run", str(config)])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("min_restarts = 3: a bootstrap interval over 3 restart(s)") == 1, result.stderr


def test_segmenters_json_stays_json_when_a_plugin_prints_while_loading(runner, monkeypatch):
    """`stability segmenters --report-format json` printed what a plugin printed when imported
    before the JSON, so `json.load` failed; `run` already sent such lines to stderr."""
    from types import SimpleNamespace

    from stability import registry

    def load():
        print("loading my model...")
        return lambda units: []

    plugin = SimpleNamespace(name="noisy_probe", value="noisy:seg", load=load,
                             dist=SimpleNamespace(metadata={"Name": "noisy"}, version="1"))
    monkeypatch.setattr(registry.metadata, "entry_points", lambda group: [plugin])
    result = runner.invoke(app, ["segmenters", "noisy_probe", "--report-format", "json"])
    assert result.exit_code == 0, result.output
    assert "noisy_probe" in json.dumps(json.loads(result.stdout))
    assert "loading my model..." in result.stderr


def test_a_label_with_colons_is_not_turned_into_an_emoji(runner, tmp_path):
    """The terminal table's result line and notes turned `:rocket:` in a label into 🚀 (rich's
    emoji codes), so `-s mysegs:fire` was shown as `mysegs🔥`; Markdown and JSON kept it."""
    from stability import evaluate
    from stability.reporting import render
    from stability.demo import demo_corpus

    run = evaluate({"bert:rocket:": lambda units: [2]}, demo_corpus(n_documents=2), n_restarts=2, progress=False)
    for width in (80, 120):
        table = render(run, "table", width=width)
        assert "bert:rocket:" in table and "\N{ROCKET}" not in table


def test_run_prints_the_markdown_report_it_writes(runner, tmp_path):
    """`stability run --report-format md` (and html) printed no per-document table while the
    report.md it wrote into --out, and `stability report` of that folder, had one: the same run
    gave two Markdown reports."""
    config = tmp_path / "demo.toml"
    config.write_text(DEMO, encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(config), "--out", str(out), "--report-format", "md"])
    assert result.exit_code == 0, result.output
    assert "Per document" in result.stdout
    assert result.stdout == (out / "report.md").read_text(encoding="utf-8")


def test_a_segmenter_failing_on_every_document_is_one_warning_line(runner, tmp_path):
    """`run` printed one warning line per failure after its report: a segmenter failing on every
    document of a corpus of thousands printed thousands of lines, the same error on each. Now one
    line per segmenter and error, naming the first documents and counting the rest; the report's
    Failures table still lists each, with its document beside its error."""
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"doc{i}", "units": [f"bad {j}" for j in range(12)]}) + "\n"
                              for i in range(7)), encoding="utf-8")
    config = tmp_path / "bad.toml"
    config.write_text(f'allow_plugins = true\n[corpus]\npath = "{corpus.as_posix()}"\n[segmenters.even]\n'
                      '[segmenters.fault]\nsegmenter = "faults:Fault"\nkind = "raise"\n[run]\nn_restarts = 2\n',
                      encoding="utf-8")
    result = runner.invoke(app, ["run", str(config), "--no-progress", "--width", "80"])
    assert result.exit_code == 3, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning: segmenter 'fault'")]
    assert warnings == ["warning: segmenter 'fault' failed on 7 documents with the same error ('doc0', 'doc1', "
                        "'doc2' and 4 more; the first: initial segmentation, seed 0): ValueError: bad document"]
    failures = result.stdout.split("Failures")[1]
    assert "part 1 of" not in failures and all(f"│ doc{i} " in failures for i in range(7))
    assert failures.count("ValueError: bad document") == 7


def test_failure_lines_say_at_most_a_few_errors_a_segmenter_and_count_the_rest():
    from stability.results import Failure, failure_lines

    failures = [Failure("x", f"d{i}", f"IndexError: index {i} out of range", seed=1) for i in range(5)]
    failures.append(Failure("y", "d0", "ValueError: no", seed=1))
    lines = failure_lines(failures, limit=2)
    assert lines == ["segmenter 'x', document 'd0', initial segmentation, seed 1: IndexError: index 0 out of range",
                     "segmenter 'x', document 'd1', initial segmentation, seed 1: IndexError: index 1 out of range",
                     "segmenter 'y', document 'd0', initial segmentation, seed 1: ValueError: no",
                     "segmenter 'x' failed on 3 more documents with 3 other errors (the Failures table of a Markdown or "
                     "HTML report and the results file list every failure)"]


@pytest.mark.parametrize("error, said", [
    ("ValueError: ", "seed 1: ValueError"),  # raised without a message: no blank at the end
    ("", "seed 1"),
    ("   ", "seed 1"),
    ("ValueError: \n  the reason", "seed 1: ValueError: the reason"),  # a message on the next line
    ("KeyError: 'x'  \nTraceback (most recent call last):", "seed 1: KeyError: 'x'"),
])
def test_failure_lines_quote_an_error_s_first_line_with_text_and_end_in_no_blank(error, said):
    """A segmenter raising ``ValueError()`` is recorded ``ValueError: ``: its warning ended in a
    blank (``seed 1: ValueError: ``), and one whose message starts on a new line was said by the
    line before it, the exception's name alone; two such failures with different reasons were
    counted as failing "with the same error"."""
    from stability.results import Failure, failure_lines

    one = failure_lines([Failure("x", "d0", error, seed=1)])
    assert one == [f"segmenter 'x', document 'd0', initial segmentation, {said}"]
    two = failure_lines([Failure("x", f"d{i}", error, seed=1) for i in range(2)])
    assert two == [f"segmenter 'x' failed on 2 documents with the same error ('d0', 'd1'; the first: initial "
                   f"segmentation, {said.replace('seed 1', 'seed 1)')}"]
    reasons = [Failure("x", "d0", "ValueError: \n  too long", seed=1), Failure("x", "d1", "ValueError: \n  empty", seed=1)]
    assert len(failure_lines(reasons)) == 2


def test_an_error_naming_its_document_is_the_same_error_on_every_document():
    """n_segments = "reference" on a corpus without references (a config copied from a study) fails
    on every document with an error naming it: "failed on 17 more documents with 17 other errors",
    when it was one error, the same on each."""
    from stability.results import Failure, failure_lines

    error = ("InvalidParameterError: document {} has no reference segmentation, and segmenter 'c99' takes "
             "n_segments='reference' from the document's first reference")
    lines = failure_lines([Failure("c99", f"d{i}", error.format(repr(f"d{i}")), seed=0) for i in range(20)])
    assert lines == ["segmenter 'c99' failed on 20 documents with the same error ('d0', 'd1', 'd2' and 17 more; the "
                     f"first: initial segmentation, seed 0): {error.format(repr('d0'))}"]
    # a document's id inside another word is not its mention: d1 in 'd10' does not make two errors one
    other = [Failure("x", "d1", "ValueError: 'd10' bad", seed=0), Failure("x", "d2", "ValueError: 'd20' bad", seed=0)]
    assert len(failure_lines(other)) == 2


def test_the_failures_not_said_are_counted_as_documents_and_errors():
    """The line counting a segmenter's failures past the limit said "with other errors" whatever
    their number: "failed on 1 more document with other errors", and for five documents failing
    with one more error, "other errors" too."""
    from stability.results import Failure, failure_lines

    tail = " (the Failures table of a Markdown or HTML report and the results file list every failure)"
    said = [Failure("x", "d0", "A: a", seed=1), Failure("x", "d1", "B: b", seed=1)]
    one = failure_lines([*said, Failure("x", "d2", "C: c", seed=1)], limit=2)
    assert one[-1] == "segmenter 'x' failed on 1 more document with another error" + tail
    same = failure_lines([*said, *(Failure("x", f"e{i}", "C: c", seed=1) for i in range(5))], limit=2)
    assert same[-1] == "segmenter 'x' failed on 5 more documents with another error" + tail
    two = failure_lines([*said, Failure("x", "d2", "C: c", seed=1), *(Failure("x", f"e{i}", "D: d", seed=1) for i in range(3))],
                        limit=2)
    assert two[-1] == "segmenter 'x' failed on 4 more documents with 2 other errors" + tail


@pytest.mark.parametrize("limit, error", [(0, "InvalidParameterError: limit must be an integer >= 1"),
                                          (-1, "InvalidParameterError: limit must be an integer >= 1"),
                                          (True, "InvalidTypeError: limit must be an integer"),
                                          (2.0, "InvalidTypeError: limit must be an integer")])
def test_failure_lines_refuse_a_limit_that_is_not_a_positive_integer(limit, error):
    """``limit=0`` said no error and counted every failure as "more documents with other errors";
    a negative limit was no limit at all."""
    from stability import exceptions
    from stability.results import Failure, failure_lines

    kind, said = error.split(": ")
    with pytest.raises(getattr(exceptions, kind), match=said):
        failure_lines([Failure("x", "d0", "A: a", seed=1)], limit=limit)


def _usage_error(result) -> str:
    """The message of a usage error (exit 2) as one line, whatever rich's box did to it."""
    assert result.exit_code == 2, result.output
    return " ".join(line.strip(" │╭╮╰╯─") for line in result.stderr.splitlines() if "│" in line).replace("  ", " ")


def test_a_corpus_or_a_parameter_given_where_run_takes_its_config_says_how_to_give_it(runner, tmp_path):
    """`stability run doc.txt` parsed the corpus as TOML ("not valid TOML: Expected '=' after a
    key"), a folder was "a directory", and `-s c99 mask_size=5` (a space for the comma) was "file
    'mask_size=5' does not exist": none said that a corpus goes after -c, a parameter after a comma."""
    doc = tmp_path / "doc.txt"
    doc.write_text("One sentence here. Another one.\n\nA second paragraph.\n", encoding="utf-8")
    said = _usage_error(runner.invoke(app, ["run", str(doc), "-s", "even"]))
    assert (f"'{doc}' is a corpus file (text format, from its extension '.txt'), not a TOML experiment file; "
            f"a corpus goes after --corpus/-c: stability run -c {doc} -s NAME") in said
    said = _usage_error(runner.invoke(app, ["run", str(tmp_path)]))
    assert f"'{tmp_path}' is a directory, not a TOML experiment file; a corpus goes after --corpus/-c" in said
    said = _usage_error(runner.invoke(app, ["run", "-s", "c99", "mask_size=5", "-c", str(doc)]))
    assert ("file 'mask_size=5' does not exist; a segmenter's parameters follow its name after a comma, without a "
            "space: -s NAME,mask_size=5") in said
    assert "file 'nosuch.toml' does not exist." in _usage_error(runner.invoke(app, ["run", "nosuch.toml"]))
    said = _usage_error(runner.invoke(app, ["validate", str(doc)]))
    assert "not a TOML experiment file; a corpus goes in the [corpus] table of one" in said
    cfg = tmp_path / "run.toml"  # a config still runs
    cfg.write_text(DEMO, encoding="utf-8")
    assert runner.invoke(app, ["run", str(cfg), "--no-progress"]).exit_code == 0


def test_resume_in_a_folder_without_results_says_that_it_starts_from_the_beginning(runner, tmp_path):
    """`--resume -o ouy` (a folder mistyped) computed the whole run again without a word, as if
    nothing had been saved; a resume that finds results says nothing more than before."""
    cfg = tmp_path / "run.toml"
    cfg.write_text(DEMO, encoding="utf-8")
    out = tmp_path / "ouy"
    first = runner.invoke(app, ["run", str(cfg), "--resume", "--out", str(out), "--no-progress"])
    assert first.exit_code == 0, first.output
    assert (f"warning: nothing to resume: {out / 'results.jsonl'} does not exist, so this run starts from the "
            "beginning; to continue an earlier run, give its folder to --out") in first.stderr
    again = runner.invoke(app, ["run", str(cfg), "--resume", "--out", str(out), "--no-progress"])
    assert again.exit_code == 0 and "warning" not in again.stderr, again.output
    (tmp_path / "fresh.toml").write_text(DEMO + f"resume = true\n[output]\ndir = {json.dumps(str(tmp_path / 'x'))}\n",
                                         encoding="utf-8")
    said = runner.invoke(app, ["run", str(tmp_path / "fresh.toml"), "--no-progress"]).stderr
    assert "warning: nothing to resume" in said  # the config's resume = true likewise


def test_a_config_corpus_path_that_does_not_exist_is_said_as_the_configs(runner, tmp_path):
    """`[corpus] path = "doc.txt"` in sub/run.toml is read from sub/: the error named only
    '.../sub/doc.txt', not the config nor the rule, and read as a mistake of the command line."""
    (tmp_path / "doc.txt").write_text("One. Two.\n", encoding="utf-8")
    cfg = tmp_path / "sub" / "run.toml"
    cfg.parent.mkdir()
    cfg.write_text('[corpus]\npath = "doc.txt"\n[segmenters.even]\n[run]\nn_restarts = 2\n', encoding="utf-8")
    folder = cfg.parent.resolve()
    assert _error(runner.invoke(app, ["run", str(cfg), "--no-progress"])) == (
        f"error: {cfg}: [corpus] path: no such corpus file or directory: '{folder / 'doc.txt'}' (a relative "
        f"path is read from the config file's folder, {folder}); correct it there, or give the corpus with --corpus")
    missing = tmp_path / "none.txt"  # given with --corpus: the command line's, said as before
    assert _error(runner.invoke(app, ["run", str(cfg), "--corpus", str(missing), "--no-progress"])) == (
        f"error: no such corpus file or directory: '{missing}'")
    result = runner.invoke(app, ["run", str(cfg), "--corpus", str(tmp_path / "doc.txt"), "--no-progress"])
    assert result.exit_code == 0, result.output


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc, where no folder can be made (even as root)")
def test_a_results_folder_that_cannot_be_made_is_named_as_the_results_folder(runner, tmp_path):
    """`--out /proc/nope` said only "No such file or directory: '/proc/nope'", after the corpus was
    read: not that it was the results folder, nor what to do."""
    cfg = tmp_path / "run.toml"
    cfg.write_text(DEMO, encoding="utf-8")
    assert _error(runner.invoke(app, ["run", str(cfg), "--out", "/proc/nope/run", "--no-progress"])) == (
        "error: the results folder '/proc/nope/run' cannot be made or written: No such file or directory: "
        "'/proc/nope'; give --out (or [output] dir) a folder this user can write")


def test_segmenters_given_a_spec_with_parameters_says_where_parameters_go(runner):
    """`stability segmenters c99,mask_size=5` was told to give the parameters from Python as
    keywords, get_segmenter('c99', key=value): advice for another place than the command line."""
    result = runner.invoke(app, ["segmenters", "c99,mask_size=5"])
    assert _error(result) == ("error: segmenter 'c99,mask_size=5': this command takes names, without parameters; "
                              "stability segmenters c99 lists those of 'c99', and run -s c99,mask_size=5 sets them")
    assert "get_segmenter" not in result.stderr
    assert "unknown segmenter 'nosuch,k=1'. Known segmenters: " in _error(runner.invoke(app, ["segmenters", "nosuch,k=1"]))


def test_what_stability_segmenters_says_of_names_it_cannot_describe_is_the_library_s():
    """The command's errors about unknown names and its lines after the table are built by
    stability.reporting.commands from describe_segmenters' statuses (the command only prints them),
    in the words test_segmenters_given_a_spec_with_parameters_says_where_parameters_go checks."""
    from stability.registry import SegmenterInfo, SegmenterStatus, describe_segmenters
    from stability.reporting.commands import segmenter_load_problems, unknown_segmenter_errors

    errors = unknown_segmenter_errors(describe_segmenters(["c99", "c99,mask_size=5", "nosuch"]))
    assert errors[0] == ("segmenter 'c99,mask_size=5': this command takes names, without parameters; "
                         "stability segmenters c99 lists those of 'c99', and run -s c99,mask_size=5 sets them")
    assert errors[1].startswith("unknown segmenter 'nosuch'") and len(errors) == 2
    assert unknown_segmenter_errors(describe_segmenters(["c99"])) == []
    broken = SegmenterStatus(SegmenterInfo("broken", "pkg:Broken", "plugin"), error="ImportError: no pkg")
    absent = SegmenterStatus(SegmenterInfo("extra", "pkg:Extra", "plugin"), params={}, missing="pip install pkg")
    statuses = {"broken": broken, "extra": absent, **describe_segmenters(["even"])}
    assert segmenter_load_problems(statuses, named=True) == [
        "error: segmenter 'broken' failed to load: ImportError: no pkg", "error: pip install pkg"]
    assert segmenter_load_problems(statuses, named=False) == [
        "warning: segmenter 'broken' failed to load: ImportError: no pkg"]


def test_report_given_a_file_no_run_wrote_says_what_it_reads(runner, tmp_path):
    """`stability report doc.txt` said "not a JSON record (Expecting value)", and a corpus in JSONL
    "not a results file": neither said what report reads."""
    hint = "; stability report reads what a run saved with --out DIR: DIR, DIR/results.jsonl or DIR/report.json"
    doc = tmp_path / "doc.txt"
    doc.write_text("One. Two.\n\nThree.\n", encoding="utf-8")
    assert _error(runner.invoke(app, ["report", str(doc)])) == f"error: {doc}:1: not a JSON record (Expecting value){hint}"
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text('{"id": "a", "units": ["x", "y"]}\n', encoding="utf-8")
    said = _error(runner.invoke(app, ["report", str(corpus)]))
    assert said.startswith(f"error: {corpus}: not a results file") and said.endswith(hint)


def test_report_given_a_one_line_file_no_run_wrote_says_only_the_error(runner, tmp_path):
    """A one-line file of records that are no run's (or a line that is no JSON) printed "warning:
    ...:1: invalid last line left out (...)" before the error "not a results file": the line was
    read as the last line of a results file, cut by an interruption. Only the error shows now."""
    for name, text in (("corpus.jsonl", '{"id": "a", "units": ["x", "y"]}\n'), ("notes.jsonl", "not json\n"),
                       ("cut.jsonl", "not json")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = runner.invoke(app, ["report", str(path)])
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert result.stderr.splitlines() == [_error(result)], result.stderr
        assert _error(result).startswith(f"error: {path}: not a results file"), result.stderr
