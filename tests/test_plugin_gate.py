"""Plugins are code: a module:attribute segmenter outside the registered ones needs allow_plugins."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stability import InvalidParameterError
from stability.cli import app
from stability.config import load_config, with_overrides


def popen_config(tmp_path, marker, allow: bool | None = None):
    """A config whose segmenter would create ``marker`` through a shell if it were ever called."""
    config = tmp_path / "exp.toml"
    head = "" if allow is None else f"allow_plugins = {str(allow).lower()}\n"
    config.write_text(head + '[corpus]\ndemo = { n_documents = 2 }\n[segmenters.evil]\nsegmenter = "subprocess:Popen"\n'
                      f'args = "touch {marker}"\nshell = true\n[run]\nn_restarts = 2\n')
    return config


@pytest.mark.parametrize("allow", [None, False])
def test_a_config_cannot_run_a_plugin_without_the_switch(tmp_path, allow):
    marker = tmp_path / "ran"
    result = CliRunner().invoke(app, ["run", str(popen_config(tmp_path, marker, allow)), "--no-progress"])
    assert result.exit_code == 1
    assert "segmenter 'evil' is 'subprocess:Popen', code outside the registered segmenters" in result.stderr
    assert "--allow-plugins" in result.stderr
    assert not marker.exists()  # nothing ran


def test_the_check_runs_before_any_import(tmp_path, monkeypatch):
    import stability.registry

    imported = []
    monkeypatch.setattr(stability.registry, "_resolve_target", lambda target: imported.append(target))
    experiment = load_config(popen_config(tmp_path, tmp_path / "ran"))
    with pytest.raises(InvalidParameterError, match="allow_plugins"):
        experiment.build_segmenters()
    assert imported == []


def test_the_switch_lets_module_attribute_specs_run(tmp_path):
    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\ndemo = { n_documents = 2 }\n[segmenters.lex]\nsegmenter = "conftest:cohesion_segmenter"\n')
    refused = CliRunner().invoke(app, ["run", str(config), "-r", "2", "--no-progress"])
    assert refused.exit_code == 1 and "allow_plugins" in refused.stderr
    with_flag = CliRunner().invoke(app, ["run", str(config), "-r", "2", "--no-progress", "--allow-plugins"])
    assert with_flag.exit_code == 0, with_flag.output
    experiment = with_overrides(load_config(config), segmenters=["conftest:cohesion_segmenter"], allow_plugins=True)
    assert list(experiment.build_segmenters()) == ["conftest:cohesion_segmenter"]


def test_registered_names_need_no_switch(tmp_path):
    experiment = with_overrides(load_config(popen_config(tmp_path, tmp_path / "x")), segmenters=["even", "c99"])
    assert list(experiment.build_segmenters()) == ["even", "c99"]


@pytest.mark.parametrize("value", ['"yes"', "1"])
def test_allow_plugins_must_be_a_boolean(tmp_path, value):
    config = tmp_path / "exp.toml"
    config.write_text(f"allow_plugins = {value}\n")
    with pytest.raises(InvalidParameterError, match="allow_plugins must be true or false"):
        load_config(config)


def test_help_says_plugins_and_configs_run_code():
    text = CliRunner().invoke(app, ["run", "--help"], terminal_width=200).output
    assert "--allow-plugins" in text and "run code" in text


def test_the_refusal_of_a_command_line_plugin_reads_naturally():
    result = CliRunner().invoke(app, ["run", "-s", "conftest:cohesion_segmenter", "-r", "2", "--no-progress"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: segmenter 'conftest:cohesion_segmenter' is code outside the registered segmenters (module:attribute); "
        "it runs only with --allow-plugins or allow_plugins = true at the top of a config file"]


def test_a_command_line_plugin_is_not_blamed_on_the_config_file(tmp_path):
    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\ndemo = { n_documents = 2 }\n[segmenters.c99]\n')
    result = CliRunner().invoke(app, ["run", str(config), "-s", "conftest:cohesion_segmenter", "--no-progress"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: segmenter 'conftest:cohesion_segmenter' is code outside")
    assert str(config) not in result.stderr


def test_a_non_callable_module_attribute_is_named_on_the_command_line():
    result = CliRunner().invoke(app, ["run", "-s", "math:pi", "--allow-plugins", "-r", "2", "--no-progress"])
    assert result.exit_code == 1
    assert "segmenter 'math:pi' must be a callable" in result.stderr
    assert "received float 3.14" in result.stderr
