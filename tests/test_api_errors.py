"""The errors and failures of the Python API: what they say, and that they travel (pickled) whole.
Each test fails on the code before its fix (see the docstrings)."""

from __future__ import annotations

import json
import pickle

import pytest
from typer.testing import CliRunner

from stability import evaluate
from stability.cli import app
from stability.exceptions import SegmenterError, SegmenterOutputError
from stability.results import Failure
from stability.store import load_results


@pytest.mark.parametrize("document, restart, stream, seed", [
    ("d1", None, None, 0),
    ("d1", 3, "shuffle", 7),
    ("d1", None, "within", 0),
    ("", None, None, 0),  # stability_test without doc_id: a document with no id
    ("d1", 2, "within", None),  # a failure read from a file that has no seed
])
def test_a_failure_and_the_error_raised_for_it_say_where_in_the_same_words(document, restart, stream, seed):
    """The place of a failure was written twice: ``Failure.message`` said ``document ''`` and
    ``seed None`` where ``SegmenterError`` left them out."""
    failure = Failure("mine", document, "ValueError: model not loaded", restart, seed, stream=stream)
    raised = SegmenterError(failure.error, segmenter="mine", document=document, restart=restart, seed=seed,
                            stream=stream)
    assert str(failure) == str(raised)
    assert "None" not in str(failure) and "document ''" not in str(failure)


def test_a_failure_is_said_alike_by_the_command_line_a_raising_run_and_its_results_file(tmp_path):
    """The command line's warning, ``evaluate(..., on_error="raise")`` and the stored ``Failure``
    name the failing segmenter, document, call and seed in the same words."""
    corpus = tmp_path / "bad.jsonl"
    corpus.write_text(json.dumps({"id": "doc0", "units": [f"bad {j}" for j in range(12)]}) + "\n", encoding="utf-8")
    config = tmp_path / "bad.toml"
    config.write_text(f'allow_plugins = true\n[corpus]\npath = "{corpus.as_posix()}"\n'
                      '[segmenters.fault]\nsegmenter = "faults:Fault"\nkind = "raise"\n[run]\nn_restarts = 2\n',
                      encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(config), "--no-progress", "--out", str(out)])
    assert result.exit_code == 3, result.output
    stored = load_results(out).failures[0].message()
    assert stored == "segmenter 'fault', document 'doc0', initial segmentation, seed 0: ValueError: bad document"
    assert f"warning: {stored}" in result.stderr.splitlines()
    from faults import Fault

    with pytest.raises(SegmenterError) as raised:
        evaluate({"fault": Fault(kind="raise")}, [{"id": "doc0", "units": [f"bad {j}" for j in range(12)]}],
                 n_restarts=2, progress=False, on_error="raise")
    assert str(raised.value).startswith(f"{stored} (1 failure(s) in the run)\n")


@pytest.mark.parametrize("error_class", [SegmenterError, SegmenterOutputError])
def test_a_segmenter_error_pickles_with_its_fields(error_class):
    """joblib's workers, Dask and multiprocessing send exceptions pickled: a SegmenterError came
    back as the failure of segmenter ``''`` at an ``initial segmentation``, its message wrapped in a
    second place and its document, restart, seed, stream and traceback lost."""
    error = error_class("ValueError: too long", segmenter="mine", document="d1", restart=2, seed=5, stream="within",
                        traceback="Traceback (most recent call last): ...")
    error.add_note("a note")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is error_class and str(back) == str(error) and back.args == error.args
    assert (back.segmenter, back.document, back.restart, back.seed, back.stream, back.traceback, back.reason) == (
        "mine", "d1", 2, 5, "within", "Traceback (most recent call last): ...", "ValueError: too long")
    assert back.__notes__ == ["a note"]


def test_a_segmenter_error_raised_in_a_joblib_worker_reaches_the_caller_whole():
    """``stability_test`` run in joblib's worker processes (one document each): the error that
    came back named segmenter ``''`` at an ``initial segmentation``, the real place after it."""
    from faults import Fault, document
    from joblib import Parallel, delayed

    from stability import stability_test

    with pytest.raises(SegmenterError) as raised:
        Parallel(n_jobs=2, backend="loky")(delayed(stability_test)(Fault(kind="raise"), doc, n_restarts=2)
                                           for doc in [document("good"), document("bad")])
    assert str(raised.value).startswith("segmenter 'Fault', document 'bad', initial segmentation, seed 0: ")
    assert (raised.value.segmenter, raised.value.document, raised.value.seed) == ("Fault", "bad", 0)


def test_the_list_of_segmenters_says_how_to_give_parameters_in_the_words_of_its_caller():
    """Rendered from Python, the note under the parameters table said how to give a sequence and a
    grid as the command line's ``-s 'NAME,grid={key=[1, 2]}'``, which a notebook has no use for."""
    from stability.registry import describe_segmenters
    from stability.reporting import render
    from stability.reporting.model import COMMAND_LINE, spelled

    said = " ".join(render(describe_segmenters(["even"]), "md").split())
    assert ('A parameter is given by keyword (stability.get_segmenter("NAME", key=[1, 2])), a parameter\'s values '
            'to try as a grid with stability.grid("NAME", {"key": [1, 2]}).') in said
    assert "-s '" not in said and "TOML" not in said
    with spelled(COMMAND_LINE):
        said = " ".join(render(describe_segmenters(["even"]), "md").split())
    assert ("A sequence is given as a TOML array (-s 'NAME,key=[1, 2]'), a parameter's values to try as a grid "
            "(-s 'NAME,grid={key=[1, 2]}').") in said


def test_a_chunk_holding_each_document_says_where_to_look_in_the_words_of_its_caller():
    """A report rendered in Python said to look up what the chunk size counts with
    ``stability segmenters NAME`` (and ``--allow-plugins`` for a module:attribute), a command."""
    from segmenters.chunkers import FixedChars
    from stability.demo import demo_corpus
    from stability.reporting import render
    from stability.reporting.model import COMMAND_LINE, spelled

    segmenters = {"fixed_chars,chunk_size=100000": FixedChars(chunk_size=100000),
                  "segmenters.chunkers:FixedChars,chunk_size=100000": FixedChars(chunk_size=100000)}
    result = evaluate(segmenters, demo_corpus()[:2], n_restarts=2, layout_control=True, progress=False)
    said = " ".join(render(result, "md").split())
    assert ('(characters, words or tokens: stability.reporting.render(stability.registry.describe_segmenters('
            '["fixed_chars"])); stability.reporting.render(stability.registry.describe_segmenters('
            '["segmenters.chunkers:FixedChars"]))) against') in said
    assert "stability segmenters" not in said and "--allow-plugins" not in said
    with spelled(COMMAND_LINE):
        said = " ".join(render(result, "md").split())
    assert ("(characters, words or tokens: stability segmenters fixed_chars; stability segmenters "
            "segmenters.chunkers:FixedChars --allow-plugins) against") in said


@pytest.mark.parametrize("table, said", [
    ('[metrics]\nnames = ["pk"]\n', "metrics boundary_similarity: not among the metrics {cfg} computes ([metrics] names: "
                                    "pk); add it there, or name others"),
    ("[metrics]\nenabled = false\n", "metrics boundary_similarity: {cfg} computes no reference metric ([metrics] "
                                     "enabled = false); remove metrics=, or enable the metrics there"),
])
def test_run_experiment_refuses_report_metrics_in_python_words(tmp_path, table, said):
    """``run_experiment(experiment, metrics=["b"])`` named its own argument ``--metrics``, a flag of
    the command line (which still says ``--metrics``: tests/test_cli_edges.py)."""
    from stability.config import load_config, run_experiment
    from stability.exceptions import InvalidParameterError

    cfg = tmp_path / "run.toml"
    cfg.write_text("[corpus]\ndemo = true\nlimit = 2\n[segmenters.even]\n[run]\nn_restarts = 2\n" + table,
                   encoding="utf-8")
    with pytest.raises(InvalidParameterError) as refused:
        run_experiment(load_config(cfg), progress=False, metrics=["b"])
    assert str(refused.value) == said.format(cfg=cfg) and refused.value.parameter == "metrics"


@pytest.mark.parametrize("text, python, command_line", [
    ("[run]\nn_restarts = 2\n", "add them or give corpus= and segmenters= (the demo corpus is [corpus] demo = true)",
     "add them or give --corpus and --segmenter (the demo corpus is [corpus] demo = true)"),
    ("[corpus]\ndemo = true\n", "has no [segmenters] table; add it or give segmenters=",
     "has no [segmenters] table; add it or give --segmenter"),
])
def test_an_experiment_without_corpus_or_segmenters_is_told_in_the_words_of_its_caller(tmp_path, text, python,
                                                                                        command_line):
    """``run_experiment`` of a config without [corpus] or [segmenters] told a Python caller to give
    ``--corpus`` and ``--segmenter``, and one lacking only [segmenters] about the demo corpus too."""
    from stability.config import load_config, run_experiment
    from stability.exceptions import InvalidParameterError

    cfg = tmp_path / "run.toml"
    cfg.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidParameterError) as refused:
        run_experiment(load_config(cfg), progress=False)
    assert str(refused.value).endswith(python) and "--" not in str(refused.value)
    result = CliRunner().invoke(app, ["run", str(cfg), "--no-progress"])
    assert result.exit_code == 1 and result.stderr.strip().endswith(command_line), result.output


def test_reports_written_without_the_metrics_named_say_how_to_render_them_in_the_words_of_the_caller(tmp_path):
    """``run_experiment(..., metrics=["pk"])`` on a corpus without references wrote its reports with
    the metrics it computed and said `stability report OUT` renders them again, a command, to a
    Python caller."""
    from stability.config import load_config, run_experiment
    from stability.exceptions import InvalidParameterError
    from stability.store import ResultsWarning

    corpus = tmp_path / "plain.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"d{i}", "units": [f"u{j} w{j % 3}" for j in range(12)]}) + "\n"
                              for i in range(2)), encoding="utf-8")
    out = tmp_path / "out"
    cfg = tmp_path / "run.toml"
    cfg.write_text(f'[corpus]\npath = "{corpus.as_posix()}"\n[segmenters.even]\n[run]\nn_restarts = 2\n'
                   f'[output]\ndir = "{out.as_posix()}"\nformats = ["md"]\n', encoding="utf-8")
    with pytest.warns(ResultsWarning) as said, pytest.raises(InvalidParameterError, match="pk was not computed"):
        run_experiment(load_config(cfg), progress=False, metrics=["pk"])
    again = f'`stability.reporting.render(stability.store.load_results("{out.as_posix()}"))` renders them again'
    assert any(str(w.message).endswith(again) for w in said), [str(w.message) for w in said]
    assert (out / "report.md").exists()
    result = CliRunner().invoke(app, ["run", str(cfg), "--no-progress", "--metrics", "pk", "--overwrite"])
    assert result.exit_code == 1
    assert f"`stability report {out.as_posix()}` renders them again" in " ".join(result.stderr.split())


def test_every_error_of_the_package_pickles_whole():
    """An exception crossing a process (a joblib or Dask worker) is pickled: RunInterrupted, the
    interrupt of a run holding its partial result, could not be (its result's builder is a closure),
    and was rebuilt without its builder and ``finished`` when it could."""
    from stability.exceptions import CorpusFormatError, InvalidParameterError, RunInterrupted

    partial = evaluate({"even": "even"}, [["a"] * 12], n_restarts=2, progress=False)
    stop = RunInterrupted("evaluate was interrupted", lambda: partial, finished=1)
    back = pickle.loads(pickle.dumps(stop))
    assert isinstance(back, KeyboardInterrupt) and str(back) == str(stop) and back.finished == 1
    assert back.result.summary["even"].macro["f1"].mean == partial.summary["even"].macro["f1"].mean
    errors = [InvalidParameterError.make("ci_width", "a number > 0", 5), CorpusFormatError("bad", path="c.txt", line=3),
              SegmenterError("ValueError: no", segmenter="s", document="d", seed=0)]
    for error in errors:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error) and again.__dict__ == error.__dict__


def test_a_lost_dask_cluster_says_how_to_go_on_in_the_words_of_its_caller(monkeypatch):
    """``evaluate(..., backend="dask")`` losing its cluster told a Python caller to give
    ``--resume``, a flag; it says ``resume=True``, which the command line says as ``--resume``."""
    from types import SimpleNamespace

    from stability import engine, runner
    from stability.exceptions import ClusterError

    client = SimpleNamespace(status="closed", scheduler=SimpleNamespace(address="tcp://10.0.0.1:8786"))
    with pytest.raises(ClusterError) as lost:
        engine._raise_disconnected(client)
    assert str(lost.value).endswith("the results finished so far are kept, resume=True goes on once it runs again")
    monkeypatch.setattr(runner, "evaluate", lambda *args, **keywords: engine._raise_disconnected(client))
    result = CliRunner().invoke(app, ["run", "-s", "even", "--limit", "1", "-r", "2", "--no-progress"])
    assert result.exit_code == 1
    assert "the results finished so far are kept, --resume goes on once it runs again" in " ".join(result.stderr.split())
