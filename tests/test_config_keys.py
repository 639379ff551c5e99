"""The reference of experiment-file keys (`stability config`, docs/config.md) is generated from the
declarations: every accepted key is documented, every `run` flag has its key, the page is current."""

from __future__ import annotations

import os
from pathlib import Path

from typer.testing import CliRunner

from stability import Settings
from stability.cli import app, run_option_keys
from stability.config import _tables
from stability.configkeys import markdown, reference

PAGE = Path(__file__).resolve().parent.parent / "docs" / "config.md"


def _undocumented(rows):
    documented = {(row.table, row.key) for row in rows if row.meaning.strip() and row.type and row.default}
    tables = {("" if table == "" else table): keys for table, keys in _tables().items()}
    tables[""] = ("allow_plugins",)  # the other top-level keys are the tables themselves
    return [(table, key) for table, keys in tables.items() for key in keys if (table, key) not in documented]


def test_every_accepted_key_is_documented():
    assert _undocumented(reference()) == []


def test_a_setting_left_out_of_the_docstring_is_caught(monkeypatch):
    doc = Settings.__doc__.replace("    block_size : int, default 64\n", "    blocksize : int, default 64\n")
    assert doc != Settings.__doc__
    monkeypatch.setattr(Settings, "__doc__", doc)
    assert _undocumented(reference()) == [("[run]", "block_size")]


def test_every_run_flag_sets_a_documented_key():
    keys = {(row.table, row.key) for row in reference()}
    flags = run_option_keys()
    assert set(flags) <= keys
    assert flags[("[run]", "n_restarts")] == "--restarts" and flags[("[output]", "dir")] == "--out"
    assert flags[("[corpus]", "format")] == "--corpus-format"


def test_docs_page_is_the_generated_reference():
    text = markdown(reference(run_option_keys()))
    if os.environ.get("STABILITY_UPDATE_GOLDEN"):
        PAGE.write_text(text, encoding="utf-8")
    assert PAGE.read_text(encoding="utf-8") == text, "docs/config.md is stale: regenerate it with " \
        "`python -m stability config --report-format md > docs/config.md`"


def test_config_command_prints_the_reference():
    result = CliRunner().invoke(app, ["config", "--report-format", "md"])
    assert result.exit_code == 0 and result.stdout == markdown(reference(run_option_keys()))
    table = CliRunner().invoke(app, ["config"])
    assert table.exit_code == 0 and "n_restarts" in table.stdout and "--restarts" in table.stdout
    bad = CliRunner().invoke(app, ["config", "--report-format", "pdf"])
    assert bad.exit_code == 2 and "table or md" in bad.stderr
