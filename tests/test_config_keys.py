"""The reference of experiment-file keys (`stability config`, docs/config.md) is generated from the
declarations: every accepted key is documented, every `run` flag has its key, the page is current."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import pytest

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
    # whatever the indentation: Python 3.13 strips a docstring's common indentation, earlier ones keep it
    doc = re.sub(r"(?m)^( *)block_size : int, default 64$", r"\1blocksize : int, default 64", Settings.__doc__)
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
        "`STABILITY_UPDATE_GOLDEN=1 python -m pytest tests/test_config_keys.py`"
    # headings go down one level at a time (the command's tables are ### headings under the title)
    levels = [len(line) - len(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")]
    assert levels[0] == 1 and all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels


@pytest.mark.parametrize("width", [80, 100, 120])
def test_config_command_prints_every_key_and_table_in_a_terminal(width):
    """Through the report formats of every command: the table titles keep their brackets (rich
    markup ate "[corpus]" in a first version) and no line is wider than the terminal."""
    rows = reference(run_option_keys())
    result = CliRunner().invoke(app, ["config", "--width", str(width)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= width
    for table in {row.table for row in rows if row.table}:
        assert any(line.strip().startswith(table) for line in lines), table
    words = set(result.stdout.split())
    assert {row.key for row in rows} <= words and "--restarts" in words


def test_config_command_in_other_formats():
    rows = reference(run_option_keys())
    payload = json.loads(CliRunner().invoke(app, ["config", "--report-format", "json"]).stdout)
    assert [(k["table"], k["key"], k["flag"]) for k in payload["keys"]] == [(r.table, r.key, r.flag) for r in rows]
    md = CliRunner().invoke(app, ["config", "--report-format", "md"])
    assert md.exit_code == 0 and all(f"| {row.key} |" in md.stdout for row in rows)
    # CSV is one table of every key, the config table named on each row (not the first table only)
    table = list(csv.DictReader(io.StringIO(CliRunner().invoke(app, ["config", "--report-format", "csv"]).stdout)))
    assert [(k["table"], k["key"]) for k in table] == [(r.table, r.key) for r in rows]
    bad = CliRunner().invoke(app, ["config", "--report-format", "pdf"])
    assert bad.exit_code != 0 and "pdf" in bad.output


def test_a_meaning_shared_by_keys_is_said_once_but_in_csv_and_json():
    """``encoding`` and ``encoding_errors`` (so ``start_column`` and ``end_column``, the demo's
    ``min_length`` and ``max_length``) are documented together: the listing printed their meaning in
    full on each row (three to six lines each at 80 columns), where ``stability segmenters`` says a
    shared meaning once. The terminal, Markdown and the docs page now say it on the first key;
    CSV and JSON, read by programs, keep every key's meaning whole."""
    rows = {(row.table, row.key): row.meaning for row in reference(run_option_keys())}
    shared = rows[("[corpus]", "encoding")]
    assert rows[("[corpus]", "encoding_errors")] == shared
    for fmt in ("table", "md"):
        shown = CliRunner().invoke(app, ["config", "--report-format", fmt, "--width", "80"]).stdout
        assert "See `encoding`." in shown and "See `start_column`." in shown, fmt
        flat = " ".join(shown.replace("│", " ").split())
        assert flat.count(" ".join(shared.split()[:4])) == 1, fmt
    assert "| encoding_errors | str | - |  | See `encoding`. |" in PAGE.read_text(encoding="utf-8")
    table = list(csv.DictReader(io.StringIO(CliRunner().invoke(app, ["config", "--report-format", "csv"]).stdout)))
    assert {k["key"]: k["meaning"] for k in table if k["table"] == "[corpus]"}["encoding_errors"] == shared
    payload = json.loads(CliRunner().invoke(app, ["config", "--report-format", "json"]).stdout)
    assert {(k["table"], k["key"]): k["meaning"] for k in payload["keys"]} == rows


def test_markdown_and_html_show_every_hyphenated_word_whole():
    """The cells are wrapped for the terminal and Markdown and HTML read each line end as a space:
    wrapped after a hyphen, they showed "adaptive- stopping" (config) and "semantic- text-
    splitter", "non- negative" (segmenters)."""
    rows = reference(run_option_keys())
    words = {w for row in rows for w in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)+", row.meaning)}
    assert "adaptive-stopping" in words
    for command in ("config", "segmenters"):
        for fmt in ("md", "html"):
            shown = CliRunner().invoke(app, [command, "--report-format", fmt]).stdout
            assert not re.findall(r"[A-Za-z]+-\s+[a-z]+", shown), (command, fmt, re.findall(r"[A-Za-z]+-\s+[a-z]+", shown))
            if command == "config":  # every meaning whole
                assert all(word in shown for word in words), (fmt, [w for w in words if w not in shown])


def test_the_format_option_names_every_alias_and_default_pattern_the_table_declares():
    """The reference of `format` and `pattern` (read_corpus's docstring, the source of
    docs/config.md) is written by hand beside FORMAT_TABLE: it had fallen behind it (no "ndjson",
    "webvtt", "subrip", "captions", "wiki-50" alias, no `*.ndjson` default), so each alias and
    extension the table declares must appear there."""
    from stability.readers import FORMAT_TABLE, read_corpus

    doc = " ".join(read_corpus.__doc__.split())
    for spec in FORMAT_TABLE.values():
        for alias in spec.aliases:
            assert f'``"{alias}"``' in doc, alias
        for extension in spec.extensions:
            assert f"``*{extension}``" in doc, extension


def test_config_in_markdown_is_what_the_docs_page_holds():
    """docs/config.md said "`stability config` prints the same", but `stability config
    --report-format md` escaped every code span of the meanings (\\`detect_format\\`), shown as
    backslashes and backticks where the page shows code. The page's tables are now the command's
    Markdown, code spans as code, raw HTML outside them as text (the page's `report.<format>` was
    an HTML tag GitHub hid)."""
    md = CliRunner().invoke(app, ["config", "--report-format", "md"])
    assert md.exit_code == 0, md.output
    page = PAGE.read_text(encoding="utf-8")
    assert "`stability config --report-format md` prints" in " ".join(page.split())
    assert page.endswith(md.stdout) and md.stdout.startswith("### top of the file")
    assert "\\`" not in md.stdout and "(see `detect_format`)" in md.stdout
    assert "`<pre>`" in md.stdout and "report.&lt;format>" in md.stdout


def test_markdown_and_html_show_a_word_longer_than_its_column_whole():
    """The terminal's wrap broke a word longer than its column (textwrap breaks long words by
    default), and Markdown and HTML read the line end as a space: a plugin's description citing
    ``https://example.org/a-rather-long-segmenter-page`` or a meaning with a long code span
    showed the URL or the code cut in two by a space."""
    from stability.configkeys import ConfigKey
    from stability.reporting import render
    from stability.reporting.commands import config_report

    url = "https://example.org/docs/a-rather-long-segmenter-page"  # over 40 characters
    code = "`stability.readers.dispatch.detect_format`"
    rows = [ConfigKey("run", "example", "float or {\"a_long_choice_name_here\"}", "-", f"See {url} and {code}.")]
    report = config_report(rows)
    for fmt in ("md", "html"):
        shown = render(report, fmt)
        assert url in shown and "a_long_choice_name_here" in shown, (fmt, shown)
    assert code in render(report, "md")
