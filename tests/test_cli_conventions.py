"""The conventions of mature command lines, as a user in a terminal or a CI script meets them:
help readable at 80 columns, NO_COLOR / FORCE_COLOR, clear errors for a bad --out, suggestions
that name only documented flags."""

from __future__ import annotations

import pytest
import typer.main
from typer.testing import CliRunner

from stability.cli import app

COMMANDS = sorted(typer.main.get_command(app).commands)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_at_80_columns_cuts_no_flag_and_no_word(command):
    """At 80 columns every flag and every word of the help shows whole: rich cuts a word wider
    than its column with an ellipsis (``--no-layout-con…``, ``NAME,key=value,.…`` in ``run``,
    whose forty options shared one table before)."""
    narrow = CliRunner(env={"COLUMNS": "80", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    result = narrow.invoke(app, [command, "--help"] if command else ["--help"])
    assert result.exit_code == 0, result.output
    assert "…" not in result.output, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    params = typer.main.get_command(app).commands[command].params if command else []
    for param in params:  # every documented flag, its negative form too, is in the help as written
        if param.param_type_name == "option" and not param.hidden:
            for flag in (*param.opts, *param.secondary_opts):
                assert flag in result.output, (command, flag)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_paragraphs_flow_to_the_terminal_width(command):
    """A command's description is wrapped to the terminal, not at the line ends of its
    docstring: rich keeps those, so at 80 columns ``score --help`` showed ragged lines
    (``... (.json):`` alone, then ``units 3 and 7 of 10),`` ...)."""
    import inspect

    wide = CliRunner(env={"COLUMNS": "1000", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    shown = [" ".join(line.split()) for line in wide.invoke(app, [command, "--help"]).output.splitlines()]
    doc = inspect.cleandoc(typer.main.get_command(app).commands[command].callback.__doc__)
    for paragraph in doc.split("\n\n"):
        said = " ".join(paragraph.split())
        assert any(said in line for line in shown), (command, said)
