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


def test_the_key_a_study_s_corpus_table_adds_is_documented():
    # held_out, read by `stability validate` from a [corpus.NAME] table, was in neither
    # `stability config` nor docs/config.md, the page a user of a study's config reads
    rows = {(row.table, row.key): row for row in reference()}
    assert ("[corpus.NAME]", "held_out") in rows and "stability validate" in rows["[corpus.NAME]", "held_out"].meaning


def test_a_setting_left_out_of_the_docstring_is_caught(monkeypatch):
    # whatever the indentation: Python 3.13 strips a docstring's common indentation, earlier ones keep it
    doc = re.sub(r"(?m)^( *)block_size : int, default 64$", r"\1blocksize : int, default 64", Settings.__doc__)
    assert doc != Settings.__doc__
    monkeypatch.setattr(Settings, "__doc__", doc)
    assert _undocumented(reference()) == [("[run]", "block_size")]


def test_the_documented_output_formats_are_those_a_file_without_them_writes(tmp_path):
    # the default of [output] formats was written twice, in the key's row and where the file is read
    from stability.config import load_config

    config = tmp_path / "e.toml"
    config.write_text('[corpus]\ndemo = true\n[segmenters.even]\n[output]\ndir = "out"\n', encoding="utf-8")
    rows = {(row.table, row.key): row for row in reference()}
    assert json.loads(rows["[output]", "formats"].default) == load_config(config).output["formats"] == ["md", "json"]


def test_the_metrics_table_takes_the_metric_options_of_the_settings():
    # the [metrics] keys were a second list of the options Settings(metrics=...) takes
    from stability.settings import METRIC_OPTIONS

    assert _tables()["[metrics]"] == ("enabled", *METRIC_OPTIONS)


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


def _shown(argv: list[str], fmt: str = "table", width: int = 100) -> list[tuple[str, str]]:
    """``(table, key)`` of every key ``stability config ARGV`` lists in format ``fmt``, read back
    from what it prints (each format its own way)."""
    result = CliRunner().invoke(app, ["config", *argv, "--report-format", fmt, "--width", str(width)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    if fmt == "json":
        return [(k["table"], k["key"]) for k in json.loads(out)["keys"]]
    if fmt == "csv":
        return [(k["table"], k["key"]) for k in csv.DictReader(io.StringIO(out))]
    found, table = [], None
    for line in out.splitlines():
        if fmt == "table":
            if line and line[0] not in "┏┃┡│└":
                table = line.strip()
            elif line.startswith("│") and line[1:].split("│")[0].strip() and not line.startswith("│  "):
                found.append((table, line[1:].split("│")[0].strip()))
        elif fmt == "md":
            if line.startswith("### "):
                table = line[4:].strip()
            elif line.startswith("| ") and not line.startswith("| key |"):
                found.append((table, line.split("|")[1].strip()))
        else:  # html: a title per table, a row head per key
            for title, rows in re.findall(r"<h2>(.*?)</h2>(.*?)</table>", out, flags=re.S):
                found += [(title, key) for key in re.findall(r'<th scope="row" class="l">(.*?)</th>', rows)]
            return found
    return [("" if table == "top of the file" else table, key) for table, key in found]


def test_config_names_a_table_and_lists_only_its_keys():
    """`stability config run`: the [run] keys only, the same section as in the whole listing
    (it took no argument: typer's "Got unexpected extra argument(s) (run)")."""
    rows = reference(run_option_keys())
    run = [(row.table, row.key) for row in rows if row.table == "[run]"]
    assert _shown(["run"]) == run
    assert _shown(["[run]"]) == run  # as the listing titles it
    for width in (80, 100, 120):
        whole = CliRunner().invoke(app, ["config", "--width", str(width)]).stdout
        section = whole[whole.index("[run]\n"):whole.index("[metrics]\n")]
        assert CliRunner().invoke(app, ["config", "run", "--width", str(width)]).stdout == section, width
    # a table holds the tables nested in it; [corpus.demo] with its brackets is that table only,
    # without them also the `demo` key of [corpus] (table.key)
    assert {table for table, _ in _shown(["corpus"])} == {"[corpus]", "[corpus.demo]", "[corpus.NAME]"}
    demo = [(row.table, row.key) for row in rows if row.table == "[corpus.demo]"]
    assert _shown(["[corpus.demo]"]) == demo
    assert _shown(["corpus.demo"]) == [("[corpus]", "demo"), *demo]
    assert {table for table, _ in _shown(["segmenters"])} == {"[segmenters.NAME]"}


def test_config_names_a_key_a_flag_or_a_table_key():
    assert _shown(["n_restarts"]) == [("[run]", "n_restarts")]
    assert _shown(["--restarts"]) == [("[run]", "n_restarts")]  # the flag as the listing shows it
    assert _shown(["run.n_restarts"]) == [("[run]", "n_restarts")]
    assert _shown(["tolerance"]) == [("[run]", "tolerance"), ("[metrics]", "tolerance")]  # every table's
    assert _shown(["--tolerance"]) == [("[run]", "tolerance")]
    assert _shown(["metrics.tolerance"]) == [("[metrics]", "tolerance")]
    assert _shown(["corpus.demo.seed"]) == [("[corpus.demo]", "seed")]
    assert _shown(["--allow-plugins"]) == [("", "allow_plugins")]  # the top of the file
    assert _shown(["--out"]) == [("[output]", "dir")]


def test_config_names_several_in_the_listings_order():
    """Several names: every key any of them names, once, in the order of the whole listing."""
    shown = _shown(["output.dir", "--seed", "run.seed", "enabled", "segmenter"])
    assert shown == [("[segmenters.NAME]", "segmenter"), ("[run]", "seed"), ("[metrics]", "enabled"),
                     ("[output]", "dir")]


@pytest.mark.parametrize("fmt", ["table", "md", "csv", "json", "html"])
def test_config_names_pick_the_keys_of_every_format(fmt):
    names = ["--restarts", "corpus.demo.seed", "output"]
    expected = [(row.table, row.key) for row in reference(run_option_keys(), names)]
    assert expected == [("[corpus.demo]", "seed"), ("[run]", "n_restarts"), ("[output]", "dir"),
                        ("[output]", "formats"), ("[output]", "documents")]
    assert _shown(names, fmt) == expected


def test_an_unknown_config_name_is_an_error_naming_it_and_what_is_accepted():
    """As `stability segmenters` says of an unknown segmenter: one line on stderr naming it, the
    closest name and what is accepted, nothing on stdout, exit 1; a name beside good ones too."""
    wrong = CliRunner().invoke(app, ["config", "run", "n_restart"])
    assert (wrong.exit_code, wrong.stdout) == (1, "")
    assert wrong.stderr.startswith("error: unknown config table, key or flag 'n_restart'; did you mean "
                                   "'n_restarts'? Accepted: a table (corpus, corpus.demo, corpus.NAME, segmenters, "
                                   "segmenters.NAME, run, metrics, output), one of the "), wrong.stderr
    assert wrong.stderr.count("\n") == 1 and wrong.stderr.count("n_restart'") == 1 and len(wrong.stderr) < 400
    assert re.search(r"one of the \d+ keys or \d+ run flags of the listing \(which shows them all without a name\), "
                     r"or table.key \(corpus.path, ...\)$", wrong.stderr.strip()), wrong.stderr
    for name, closest in (("--restart", "--restarts"), ("rnu.seed", "run.seed"), ("Output", "output"),
                          ("[rnu]", "run"), ("segmenters.c99", "segmenters")):
        said = CliRunner().invoke(app, ["config", name]).stderr
        assert said.startswith(f"error: unknown config table, key or flag {name!r}; did you mean {closest!r}?"), said
    nothing = CliRunner().invoke(app, ["config", "zzzz"])
    assert nothing.exit_code == 1 and nothing.stderr.startswith("error: unknown config table, key or flag 'zzzz'. "
                                                                "Accepted: a table (")
    # the key of a table with its brackets is no table
    assert CliRunner().invoke(app, ["config", "[n_restarts]"]).exit_code == 1
    # a typo of config's own option is that, as for any command (exit 2), not a run flag
    typo = CliRunner().invoke(app, ["config", "--widht", "90"])
    assert typo.exit_code == 2 and "--widht" in typo.stderr and "--width" in typo.stderr, typo.output


def test_a_shared_meaning_is_said_on_the_first_key_shown():
    """`encoding` and `encoding_errors` share a meaning, said on `encoding` with "See `encoding`."
    on the other: with `encoding` left out, `encoding_errors` carries it (not a pointer to a row that
    is not there); with both shown, `encoding` does."""
    rows = {(row.table, row.key): row.meaning for row in reference(run_option_keys())}
    shared, columns = rows[("[corpus]", "encoding")], rows[("[corpus]", "start_column")]
    assert rows[("[corpus]", "encoding_errors")] == shared and rows[("[corpus]", "end_column")] == columns
    for fmt in ("table", "md", "html"):
        alone = CliRunner().invoke(app, ["config", "encoding_errors", "end_column", "--report-format", fmt,
                                         "--width", "80"]).stdout
        flat = " ".join(alone.replace("│", " ").split())
        assert "See `" not in flat, (fmt, alone)
        assert " ".join(shared.split()[:6]) in flat and " ".join(columns.split()[:6]) in flat, (fmt, alone)
        both = CliRunner().invoke(app, ["config", "encoding_errors", "corpus.encoding", "--report-format", fmt,
                                        "--width", "80"]).stdout
        flat = " ".join(both.replace("│", " ").split())
        assert "See `encoding`." in flat and flat.count(" ".join(shared.split()[:4])) == 1, (fmt, both)
        assert flat.index(" ".join(shared.split()[:4])) < flat.index("See `encoding`."), (fmt, both)


def test_config_names_from_python():
    """The library picks the keys; the command line only passes its names on."""
    from stability.configkeys import select, selectors
    from stability.exceptions import InvalidParameterError

    rows = reference(run_option_keys())
    assert reference(run_option_keys(), ["run"]) == select(rows, ["run"]) == [r for r in rows if r.table == "[run]"]
    assert select(rows, []) == rows
    names = selectors(rows)
    assert names["table"] == ["corpus", "corpus.demo", "corpus.NAME", "segmenters", "segmenters.NAME", "run", "metrics",
                              "output"]
    assert "--restarts" in names["flag"] and "run.n_restarts" in names["table.key"]
    assert "allow_plugins" in names["key"] and not any(n.startswith(".") for n in names["table.key"])
    with pytest.raises(InvalidParameterError, match="'--restarts'"):  # the library knows no flag of its own
        reference(names=["--restarts"])
