"""A config never silently falls back to the demo corpus or the default segmenters (issue 13), and a
misspelt segmenter parameter gets a "did you mean" from the segmenter's signature."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stability import InvalidParameterError, get_segmenter
from stability.cli import app
from stability.config import default_experiment, load_config, run_experiment, with_overrides


def _write(tmp_path, text):
    path = tmp_path / "exp.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_config_without_corpus_or_segmenters_is_refused(tmp_path):
    path = _write(tmp_path, "[run]\nn_restarts = 2\n")
    with pytest.raises(InvalidParameterError, match=r"no \[corpus\] and no \[segmenters\] table"):
        run_experiment(load_config(path))
    result = CliRunner().invoke(app, ["run", str(path)])
    assert result.exit_code == 1 and "--corpus and --segmenter" in result.output


def test_the_command_line_may_supply_the_missing_tables(tmp_path):
    path = _write(tmp_path, "[corpus]\ndemo = { n_documents = 2, n_segments = 3 }\n[run]\nn_restarts = 2\n")
    with pytest.raises(InvalidParameterError, match=r"no \[segmenters\] table"):
        run_experiment(load_config(path))
    experiment = with_overrides(load_config(path), segmenters=["even"])
    assert experiment.missing == ()
    assert list(run_experiment(experiment, progress=False).summary) == ["even"]


def test_an_empty_segmenters_table_is_refused(tmp_path):
    # present but naming no segmenter: an error, not the default segmenters
    path = _write(tmp_path, "[corpus]\ndemo = { n_documents = 2 }\n[segmenters]\n[run]\nn_restarts = 2\n")
    with pytest.raises(InvalidParameterError, match=r"exp.toml: \[segmenters\] names no segmenter"):
        load_config(path)
    result = CliRunner().invoke(app, ["run", str(path), "--no-progress"])
    assert result.exit_code == 1 and f"error: {path}: [segmenters] names no segmenter" in result.stderr


def test_the_built_in_experiment_needs_no_table():
    assert default_experiment().missing == ()


def test_a_misspelt_segmenter_parameter_gets_a_suggestion():
    with pytest.raises(InvalidParameterError, match="no parameter 'mask_sise'; did you mean 'mask_size'"):
        get_segmenter("c99", mask_sise=5)
