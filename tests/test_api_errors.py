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
