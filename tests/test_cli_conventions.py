"""The conventions of mature command lines, as a user in a terminal or a CI script meets them:
help readable at 80 columns, NO_COLOR / FORCE_COLOR, clear errors for a bad --out, suggestions
that name only documented flags."""

from __future__ import annotations

import json
import re
from enum import Enum
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from stability.cli import app, option_choices

COMMANDS = sorted(typer.main.get_command(app).commands)


def _choices(param) -> list[str]:
    """The values a flag takes from a fixed set (declared by stability.cli.choice_option)."""
    return list(option_choices(param))


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
            # a flag's choices show whole too: in a metavar, <loky|threading|sequential|dask>, rich
            # broke ``sequential`` over two lines of the ``run --help`` at 80 columns
            for choice in _choices(param):
                assert re.search(rf"\b{re.escape(str(choice))}\b", result.output), (command, param.name, choice)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_shows_no_value_after_a_flag_and_no_type_jargon(command):
    """typer showed ``--debug <bool>``, ``--help -h <bool>``, ``--quick <bool>``: a value to give,
    read so (``stability run --debug true`` took ``true`` for the config file); and ``--limit <int
    range> [x>=1]``, ``-s <list[str]>``, ``--corpus <str>``, ``--out <str>`` for a path."""
    narrow = CliRunner(env={"COLUMNS": "80", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    shown = narrow.invoke(app, [command, "--help"] if command else ["--help"]).output
    for jargon in ("<bool>", "<boolean>", "BOOLEAN", "range>", "RANGE"):
        assert jargon not in shown, (command, jargon)
    assert re.search(r"--help\s+-h\s+Show this message", shown), shown
    params = typer.main.get_command(app).commands[command].params if command else []
    for param in params:
        if param.param_type_name == "option" and not getattr(param, "is_flag", False) and param.opts[0] in (
                "--corpus", "--out", "--segmenter", "--reference", "--hypothesis", "--references"):
            line = next(line for line in shown.splitlines() if f"{param.opts[0]} " in line)
            assert "<str>" not in line and "<list" not in line, (command, line)


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


ANSI = "\x1b["


def _run_even(env: dict[str, str]) -> CliRunner:
    runner = CliRunner(env={"COLUMNS": "120", "_TYPER_FORCE_DISABLE_TERMINAL": "1", **env})
    return runner.invoke(app, ["run", "-s", "even", "-r", "2", "--limit", "1", "--no-progress"])


def test_force_color_styles_a_piped_report_and_no_color_wins():
    """FORCE_COLOR (force-color.org) asks for styles where stdout is no terminal, a CI log that
    shows colours; NO_COLOR (no-color.org) wins over it. Before, a piped report was never styled."""
    forced = _run_even({"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert forced.exit_code == 0, forced.output
    assert ANSI in forced.stdout and "content-blind" in forced.stdout
    both = _run_even({"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert both.exit_code == 0 and ANSI not in both.stdout and "content-blind" in both.stdout
    plain = _run_even({"FORCE_COLOR": "", "NO_COLOR": ""})
    assert plain.exit_code == 0 and ANSI not in plain.stdout


def _in_a_terminal(argv: list[str], env: dict[str, str]) -> tuple[int, bytes]:
    """``python -m stability ARGV`` with stdout and stderr on a pseudo-terminal: (exit code, bytes)."""
    import os
    import pty
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "120", "TERM": "xterm", **env}
    env = {name: value for name, value in env.items() if value}  # an empty variable is an unset one
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover (the child)
        os.chdir(root)
        os.execve(sys.executable, [sys.executable, "-m", "stability", *argv], env)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), out


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs a pseudo-terminal")
def test_no_color_keeps_a_terminal_report_plain():
    """On a terminal the report is styled (bold result line, coloured flags) unless NO_COLOR is
    set: before, NO_COLOR was ignored and the flags came out yellow."""
    argv = ["run", "-s", "even", "-r", "2", "--limit", "1", "--no-progress"]
    code, styled = _in_a_terminal(argv, {"NO_COLOR": "", "FORCE_COLOR": ""})
    assert code == 0 and ANSI.encode() in styled and b"content-blind" in styled
    code, plain = _in_a_terminal(argv, {"NO_COLOR": "1", "FORCE_COLOR": ""})
    assert code == 0 and b"content-blind" in plain
    assert ANSI.encode() not in plain, plain


def _runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "120", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})


def test_out_that_is_a_file_is_said_as_the_flag_before_the_run(tmp_path):
    """``--out`` naming a file (or a folder under one) cannot hold results: one line naming the
    flag and the file, before any segmenter runs. Before, the run computed everything, then said
    ``[Errno 17] File exists: '...'`` (as if results were there) or ``[Errno 20] Not a directory``."""
    taken = tmp_path / "notes.txt"
    taken.write_text("mine\n", encoding="utf-8")
    for out in (taken, taken / "results"):
        result = _runner().invoke(app, ["run", "-s", "even", "-r", "2", "--limit", "1", "--no-progress",
                                        "--out", str(out)])
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith("error: --out ") and f"{str(taken)!r}" in result.stderr
        assert "is a file" in result.stderr and "Errno" not in result.stderr
    assert taken.read_text(encoding="utf-8") == "mine\n"


def test_output_dir_of_a_config_that_is_a_file_names_the_file_and_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # [output] dir is relative to the current folder
    (tmp_path / "taken").write_text("", encoding="utf-8")
    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\ndemo = true\n[segmenters.even]\n[output]\ndir = "taken"\n', encoding="utf-8")
    result = _runner().invoke(app, ["run", str(config), "-r", "2", "--limit", "1", "--no-progress"])
    assert result.exit_code == 1 and result.stdout == "", result.output
    assert f"{config}: [output] dir" in result.stderr and "'taken'" in result.stderr and "is a file" in result.stderr


def test_a_missing_corpus_is_one_line_without_errno(tmp_path):
    """A corpus path that does not exist: one line naming it, without Python's ``[Errno 2]``."""
    missing = tmp_path / "nowhere"
    result = _runner().invoke(app, ["run", "-s", "even", "--corpus", str(missing), "--no-progress"])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"error: no such corpus file or directory: {str(missing)!r}\n"


def test_report_output_that_is_a_folder_is_a_usage_error(tmp_path):
    """``--output`` is always a file: a folder is refused as a usage error naming the flag (it
    was ``error: [Errno 21] Is a directory``, after the report was rendered)."""
    run = _runner().invoke(app, ["run", "-s", "even", "-r", "2", "--limit", "1", "--no-progress",
                                 "--out", str(tmp_path / "run")])
    assert run.exit_code == 0, run.output
    for flag in ("--output", "-o"):
        result = _runner().invoke(app, ["report", str(tmp_path / "run"), flag, str(tmp_path)])
        assert result.exit_code == 2 and result.stdout == "", result.output
        assert flag in result.stderr and "is a directory" in result.stderr


def test_validate_refuses_a_file_as_out_or_docs_before_the_study(tmp_path):
    """``validate --docs FILE`` ran the whole study, then failed writing its report
    (``Not a directory: 'FILE/validation'``); ``--out FILE`` said ``File exists``."""
    taken = tmp_path / "notes.txt"
    taken.write_text("", encoding="utf-8")
    config = tmp_path / "study.toml"
    config.write_text('[corpus]\ndemo = true\n[segmenters.even]\n[segmenters.none]\n[segmenters.c99]\n',
                      encoding="utf-8")
    for flag, extra in (("--out", []), ("--docs", ["--out", str(tmp_path / "cache")])):
        result = _runner().invoke(app, ["validate", str(config), "--no-progress", flag, str(taken), *extra])
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert result.stderr.startswith(f"error: {flag} must be a folder; received {str(taken)!r}"), result.stderr
        assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("argv,suggested,hidden", [
    (["run", "--restart", "3"], "--restarts", "--report"),
    # report's -R reads a corpus with --corpus-format and the other corpus options, as run does
    (["report", ".", "--formt", "md"], "--corpus-format --report-format", "--format"),
    (["score", "--kk", "3"], None, "--k"),
])
def test_typo_suggestions_name_only_documented_flags(argv, suggested, hidden):
    """A mistyped flag gets the documented flags near it, never a hidden older spelling
    (``--restart`` suggested ``--report``, kept only for old scripts)."""
    import re

    result = _runner().invoke(app, argv)
    assert result.exit_code == 2
    typed = next(word for word in argv if word.startswith("--"))
    named = set(re.findall(r"--[a-z][\w-]*", result.stderr)) - {typed}
    assert hidden not in named, result.stderr
    assert named == (set(suggested.split()) if suggested else set()), result.stderr


REF = '{"id": "a", "masses": [3, 4, 2]}\n{"id": "b", "masses": [5, 5]}\n'
HYP = '{"id": "a", "masses": [2, 6, 1]}\n{"id": "b", "masses": [4, 6]}\n'


def test_score_reads_segmentations_piped_on_stdin(tmp_path):
    """``-`` as --reference or --hypothesis reads the segmentations from standard input, so a
    segmenter's output can be piped into ``score`` (it was refused: path '-' does not exist)."""
    (tmp_path / "ref.jsonl").write_text(REF, encoding="utf-8")
    (tmp_path / "hyp.jsonl").write_text(HYP, encoding="utf-8")
    args = ["score", "--report-format", "json"]
    files = _runner().invoke(app, [*args, "-R", str(tmp_path / "ref.jsonl"), "-H", str(tmp_path / "hyp.jsonl")])
    assert files.exit_code == 0, files.output
    piped = _runner().invoke(app, [*args, "-R", str(tmp_path / "ref.jsonl"), "-H", "-"], input=HYP)
    assert piped.exit_code == 0, piped.output

    def scores(result, named="<stdin>"):  # the report names the files scored: standard input as <stdin>
        data = json.loads(result.stdout)
        assert named in (data.pop("reference"), data.pop("hypothesis"))
        return data

    assert scores(piped) == scores(files, str(tmp_path / "hyp.jsonl"))
    as_json_array = "[" + ",".join(REF.splitlines()) + "]"
    reference = _runner().invoke(app, [*args, "--reference", "-", "-H", str(tmp_path / "hyp.jsonl")], input=as_json_array)
    assert reference.exit_code == 0 and scores(reference) == scores(files, str(tmp_path / "hyp.jsonl")), reference.output


def test_score_stdin_once_and_segmentations_only():
    both = _runner().invoke(app, ["score", "-R", "-", "-H", "-"], input=REF)
    assert both.exit_code == 1 and "standard input" in both.stderr and both.stderr.count("\n") == 1
    corpus = '{"id": "a", "units": ["x", "y"], "boundaries": [1]}\n'
    refused = _runner().invoke(app, ["score", "-R", "-", "-H", "-"], input=corpus)
    assert refused.exit_code == 1
    units = _runner().invoke(app, ["score", "-R", "-", "-H", __file__], input=corpus)
    assert units.exit_code == 1 and "<stdin>" in units.stderr and "as a file" in units.stderr, units.stderr


def test_progress_asked_for_in_a_log_is_plain_lines(monkeypatch):
    # --progress where stderr is no terminal (a CI log) printed nothing: rich draws no bar there
    from typer.testing import CliRunner

    from stability import engine
    from stability.cli import app

    args = ["run", "--limit", "2", "-r", "4", "-s", "even", "-s", "c99"]
    quiet = CliRunner().invoke(app, args)
    assert quiet.exit_code == 0 and "restarts " not in quiet.stderr  # not asked for: nothing
    final = CliRunner().invoke(app, [*args, "--progress"])
    lines = [line for line in final.stderr.splitlines() if line.startswith("restarts ")]
    assert len(lines) == 1 and lines[0].endswith(", done") and "(100%)" in lines[0], final.stderr
    assert "\x1b" not in final.stderr and "\r" not in final.stderr
    monkeypatch.setattr(engine, "LINE_EVERY", 0.0)  # a line at every step
    often = CliRunner().invoke(app, [*args, "--progress"])
    assert len([line for line in often.stderr.splitlines() if line.startswith("restarts ")]) > 2


def test_a_missing_corpus_of_a_study_names_its_config_and_corpus(tmp_path):
    # it said only "no such corpus file or directory: '.../configs/../../clinical'"
    (tmp_path / "configs").mkdir()
    config = tmp_path / "configs" / "study.toml"
    config.write_text('[corpus.clinical]\npath = "../../clinical"\n[segmenters.even]\n[segmenters.none]\n'
                      '[segmenters.all]\n', encoding="utf-8")
    result = _runner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "out"), "--no-progress"])
    assert result.exit_code == 1
    # and then not the key, nor what a relative path is read from, as `stability run` says them
    assert result.stderr == (f"error: {config}: [corpus.clinical] path: no such corpus file or directory: "
                             f"{str((tmp_path.parent / 'clinical').resolve())!r} (a relative path is read from "
                             f"the config file's folder, {config.parent.resolve()}); correct it there\n")


def _typo_lines(tmp_path: Path) -> list[tuple[str, str, str, list[str]]]:
    """``(command, flag, choice, argv)``: every option of every command taking one of a fixed set of
    values, given that value misspelt (a letter too many)."""
    pair = tmp_path / "pair.jsonl"
    pair.write_text('{"id": "a", "boundaries": [3], "n_units": 6}\n', encoding="utf-8")
    before = {"score": ["-R", str(pair), "-H", str(pair)], "report": [str(tmp_path)]}
    lines = []
    for command in COMMANDS:
        for param in typer.main.get_command(app).commands[command].params:
            flag = max(param.opts, key=len)  # the message names the long flag
            for choice in option_choices(param):
                lines.append((command, flag, choice, [command, *before.get(command, []), flag, choice + "x"]))
    return lines


def test_every_choice_option_refuses_a_typo_naming_the_closest_spelling(tmp_path):
    """`run --columns compat` and `run --backend lokyy` got click's generic "Invalid value for
    '--columns': Value error, 'compat' is not one of 'compact', 'all'." with no suggestion, while
    `--ci-score headlin` named 'headline': the Enum-typed options went through click's Choice, the
    others through stability.checks.check_choice. Every choice-valued option of every command now
    goes through that one rule, before anything runs (a usage error, exit 2)."""
    lines = _typo_lines(tmp_path)
    flags = {(command, flag) for command, flag, _, _ in lines}
    assert {("run", "--columns"), ("run", "--backend"), ("run", "--ci-score"), ("run", "--report-format"),
            ("score", "--columns"), ("report", "--format"), ("config", "--report-format")} <= flags, flags
    runner = CliRunner(env={"COLUMNS": "200", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    for command, flag, choice, argv in lines:
        result = runner.invoke(app, argv)
        said = " ".join(result.stderr.replace("│", " ").split())
        assert result.exit_code == 2, (argv, result.output)
        assert f"{flag} must be one of" in said and f"received '{choice}x'; did you mean '{choice}'?" in said, (argv, said)
        assert "Invalid value" not in said and "Value error" not in said, (argv, said)


def test_no_option_declares_its_choices_outside_the_one_rule():
    """A flag typed as an Enum (or given click's Choice) is checked by click, in click's words and
    without a suggestion: every choice-valued option is declared with stability.cli.choice_option."""
    for command in COMMANDS:
        for param in typer.main.get_command(app).commands[command].params:
            annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
            assert not (isinstance(annotation, type) and issubclass(annotation, Enum)), (command, param.name)
            assert not getattr(getattr(param, "type", None), "choices", None), (command, param.name)


@pytest.mark.parametrize("argv, said", [
    (["run", "--corpus", "CORPUS", "--corpus-format", "markdwn"], "did you mean 'markdown'?"),
    (["score", "-R", "PAIR", "-H", "PAIR", "--window", "nltkk"], "did you mean 'nltk'?"),
])
def test_choices_the_library_checks_name_the_closest_spelling_too(tmp_path, argv, said):
    """--corpus-format and score's --window, whose values the library checks (a config file gives
    them too), listed the choices without the closest one, as --unit and --ci-score name it."""
    pair = tmp_path / "pair.jsonl"
    pair.write_text('{"id": "a", "boundaries": [3], "n_units": 6}\n', encoding="utf-8")
    corpus = tmp_path / "doc.txt"
    corpus.write_text("One sentence. Two sentences.\n", encoding="utf-8")
    argv = [{"CORPUS": str(corpus), "PAIR": str(pair)}.get(arg, arg) for arg in argv]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 1 and said in result.stderr, result.output


def test_no_choice_option_shows_a_bare_str_as_its_value():
    """`--ci-score` and `--report-format` showed `<str>` in the help, as if any text were taken,
    where the other choice options show their values or what they name (`<compact|all>`,
    `<backend>`)."""
    for command in COMMANDS:
        for param in typer.main.get_command(app).commands[command].params:
            if option_choices(param):
                assert param.metavar not in (None, "<str>", "<text>"), (command, param.opts, param.metavar)


def test_the_options_the_library_checks_against_a_few_values_show_no_bare_str():
    """--corpus-format, --unit and --splitter take one of a few names, which the library checks
    (a config file gives them too, so they are not declared with choice_option): their help showed
    `<str>` as --report-format did (`--corpus-format <str>  Corpus format: choi, wiki, ...`)."""
    shown = {opt: param.metavar for command in COMMANDS
             for param in typer.main.get_command(app).commands[command].params for opt in param.opts}
    for flag in ("--corpus-format", "--unit", "--splitter"):
        assert shown[flag] not in (None, "<str>", "<text>"), (flag, shown[flag])
    help_text = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "200"}).stdout
    assert "<str>" not in next(line for line in help_text.splitlines() if "--corpus-format" in line)


@pytest.mark.parametrize("argv, suggested", [
    (["score", "-R", "{pair}", "-H", "{pair}", "--metrics", "Pk"], "did you mean 'pk'?"),
    (["score", "-R", "{pair}", "-H", "{pair}", "--metrics", "WD"], "did you mean 'wd'?"),
    (["run", "--backend", "Loky"], "did you mean 'loky'?"),
])
def test_a_name_typed_with_other_case_is_told_its_spelling(tmp_path, argv, suggested):
    """A report's column title typed as a metric's name (`--metrics Pk`, `WD`) was refused with
    no suggestion: the closest-spelling rule compared characters as they are, and 'Pk' is as far
    from 'pk' as from anything."""
    pair = tmp_path / "pair.jsonl"
    pair.write_text('{"id": "a", "boundaries": [3], "n_units": 6}\n', encoding="utf-8")
    result = CliRunner(env={"COLUMNS": "300"}).invoke(app, [a.format(pair=pair) for a in argv])
    assert result.exit_code == 2, result.output
    assert suggested in " ".join(result.output.split())


def test_the_progress_help_is_said_once_and_names_the_engine_s_interval():
    # run and validate wrote the same help twice; its "every 10 s" is the engine's LINE_EVERY
    from stability.cli import PROGRESS_HELP
    from stability.engine import LINE_EVERY

    assert f"a plain line every {LINE_EVERY:.0f} s." in PROGRESS_HELP
    for command in ("run", "validate"):
        params = typer.main.get_command(app).commands[command].params  # type: ignore[attr-defined]
        assert [p.help for p in params if p.name == "progress"] == [PROGRESS_HELP]
