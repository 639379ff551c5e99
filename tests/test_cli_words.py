"""Errors in the user's words (issue 13): a command-line error names the flag the user typed, a
config-file error the file's table and key; the library keeps its keyword names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stability.cli import app
from stability.config import segmenter_option
from stability.exceptions import InvalidParameterError
from stability.settings import Settings
from stability.userwords import Words, config_keys


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "200", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})


@pytest.fixture
def choi_dir(tmp_path):
    folder = tmp_path / "choi"
    folder.mkdir()
    (folder / "a.ref").write_text("==========\nOne.\nTwo.\n==========\nThree.\nFour.\n==========\n", encoding="utf-8")
    return folder


def _error(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert result.exit_code == 1 and len(lines) == 1, result.output
    return lines[0]


#: Every library check a `stability run` flag reaches, with the bad value and the words expected.
RUN_FLAGS = [
    (["--ci-width", "5"], "error: --ci-width must be a number > 0 and <= 1; received 5.0"),
    (["--ci-width", "0"], "error: --ci-width must be a number > 0 and <= 1; received 0.0"),
    (["--jobs", "0"], "error: --jobs must be a non-zero integer (-1: all cores); received 0"),
    (["--restarts", "100000000"], "error: n_bootstrap x --restarts must be at most"),
    (["--timeout", "-1"], "error: --timeout must be a number > 0 and <= 1000000000; received -1.0"),
    (["--backend", "threading", "--timeout", "5"], "error: --timeout cannot be used with the threading backend"),
    (["-s", "c99,mask_sise=3"], "error: --segmenter 'c99,mask_sise=3': segmenter 'c99' has no parameter "
                                "'mask_sise'; did you mean 'mask_size'?"),
    (["-s", "c99,mask_size=big"], "error: --segmenter 'c99,mask_size=big': "),
    # said "must be NAME or NAME,key=value,...", not which parameter lacked a value
    (["-s", "c99,mask_size"], "error: --segmenter 'c99,mask_size': 'mask_size' has no value; give each parameter as "
                              "key=value (c99,mask_size=VALUE)"),
    (["-s", ",mask_size=3"], "error: --segmenter must be NAME or NAME,key=value,..."),
    # a space or a semicolon for the comma: "unknown segmenter 'c99 mask_size=3'", which named c99 as the closest
    (["-s", "c99 mask_size=3"], "error: --segmenter 'c99 mask_size=3': a comma sets the parameters off the segmenter's "
                                "name and each other, NAME,key=value,... ('c99,mask_size=3'?)"),
    (["-s", "c99;mask_size=3,std_coeff=1"], "error: --segmenter 'c99;mask_size=3,std_coeff=1': a comma sets the "
                                            "parameters off the segmenter's name and each other, NAME,key=value,... "
                                            "('c99,mask_size=3,std_coeff=1'?)"),
    # ran the even baseline under the label 'c99,segmenter=even'; ran mask_size=9 under a label showing both
    (["-s", "c99,segmenter=even"], "error: --segmenter 'c99,segmenter=even': the segmenter is named first ('c99'); "
                                   "'segmenter' is not a parameter"),
    (["-s", "c99,mask_size=5,mask_size=9"], "error: --segmenter 'c99,mask_size=5,mask_size=9': 'mask_size' is given "
                                            "twice; expected each parameter once"),
    (["--retry-failed"], "error: --retry-failed needs resume: it runs again the failures recorded by the run it resumes"),
    (["--scheduler", "tcp://x:1"], "error: --scheduler is only used with --backend 'dask'"),
    (["--corpus-format", "text"], "error: the corpus option --corpus-format needs a corpus path (the demo corpus reads no file); "
                                      "give --corpus too"),
    (["--unit", "line", "--encoding", "latin-1"], "error: the corpus options --encoding and --unit need a corpus path"),
    (["-s", "c999"], "error: --segmenter 'c999': unknown segmenter 'c999'. Did you mean 'c99'?"),
    (["--corpus", " "], "error: --corpus must be a file or folder path; received ' '"),
    (["--out", " "], "error: --out must be a folder path; received ' '"),
]


@pytest.mark.parametrize(("args", "expected"), RUN_FLAGS, ids=[" ".join(a) for a, _ in RUN_FLAGS])
def test_run_errors_name_the_flag(runner, args, expected):
    result = runner.invoke(app, ["run", *args, "--no-progress"])
    message = _error(result)
    assert message.startswith(expected)
    assert "None or" not in message  # a flag cannot be None: leave it out instead


#: Corpus flags (they need a corpus path).
CORPUS_FLAGS = [
    (["--corpus-format", "nope"], "error: --corpus-format must be one of choi, wiki, jsonl, csv, chen, subtitles, markdown, rst, html, text; received 'nope'"),
    (["--format", "nope"], "error: --corpus-format must be one of"),  # the hidden older spelling
    (["--corpus-format", "text", "--unit", "word"], "error: --unit must be one of 'sentence', 'paragraph', 'line'"),
    (["--corpus-format", "text", "--unit", "line", "--splitter", "rules"],
     "error: --splitter applies only to --unit 'sentence'; received --unit 'line'"),
    (["--corpus-format", "text", "--splitter", "rule"], "error: --splitter must be a callable"),
    (["--encoding", "nope"], "error: --encoding must be a codec name known to Python"),
    (["--levels", "1"], "error: --levels applies only to format 'wiki'"),
    (["--corpus-format", "choi", "--pattern", "*.nope"], "pass --pattern to choose other files"),
    (["--corpus-format", "wiki", "--levels", "0"], "error: --levels must be"),
]


@pytest.mark.parametrize(("args", "expected"), CORPUS_FLAGS, ids=[" ".join(a) for a, _ in CORPUS_FLAGS])
def test_corpus_errors_name_the_flag(runner, choi_dir, args, expected):
    result = runner.invoke(app, ["run", "-s", "even", "--corpus", str(choi_dir), *args, "--no-progress"])
    message = _error(result)
    assert expected in message
    assert "format=" not in message and "pattern=" not in message


def test_a_hint_names_the_flag_of_another_parameter(runner, choi_dir):
    message = _error(runner.invoke(app, ["run", "-s", "even", "--corpus", str(choi_dir), "--levels", "1"]))
    assert message.endswith("pass --corpus-format if the detection is wrong")


def test_resume_and_overwrite(runner, tmp_path):
    message = _error(runner.invoke(app, ["run", "-s", "even", "--out", str(tmp_path), "--resume", "--overwrite"]))
    assert message == "error: --resume and --overwrite exclude each other; received both"


def test_existing_results_say_the_flags(runner, choi_dir, tmp_path):
    args = ["run", "-s", "even", "--corpus", str(choi_dir), "--restarts", "2", "--out", str(tmp_path / "o")]
    assert runner.invoke(app, args).exit_code == 0
    assert _error(runner.invoke(app, args)).endswith("resume it (--resume) or replace it (--overwrite)")


def test_score_window(runner, choi_dir):
    ref = choi_dir / "a.ref"
    message = _error(runner.invoke(app, ["score", "-R", str(ref), "-H", str(ref), "--window", "wide"]))
    assert message.startswith("error: --window must be an integer >= 1 or one of 'lamprier'")
    # a window too wide for one document names it
    short = choi_dir / "short.jsonl"
    short.write_text('{"id": "tiny", "masses": [3, 2]}\n', encoding="utf-8")
    message = _error(runner.invoke(app, ["score", "-R", str(short), "-H", str(short), "--window", "9"]))
    assert message == ("error: --window must be an integer in 1..4 (the number of gaps of a 5-unit document); "
                       "received 9 (document 'tiny')")


def test_config_errors_keep_the_toml_key_and_table(runner, tmp_path):
    config = tmp_path / "exp.toml"
    config.write_text("[corpus]\ndemo = true\n[segmenters.even]\n[run]\nci_width = 3.0\nn_jobs = 0\n"
                      "[segmenters.c99]\nmask_sise = 3\n", encoding="utf-8")
    message = _error(runner.invoke(app, ["run", str(config)]))
    assert message == f"error: {config}: [segmenters.c99]: segmenter 'c99' has no parameter 'mask_sise'; " \
                      "did you mean 'mask_size'? Its parameters: " + message.split("Its parameters: ")[1]
    config.write_text(config.read_text().replace("mask_sise = 3\n", ""), encoding="utf-8")
    message = _error(runner.invoke(app, ["run", str(config)]))
    assert message == f"error: {config}: [run] ci_width must be a number > 0 and <= 1; received 3.0"
    # a flag typed over the config's value is said as the flag
    assert _error(runner.invoke(app, ["run", str(config), "--ci-width", "0.1", "--jobs", "0"])).startswith(
        "error: --jobs must be a non-zero integer")
    # a flag replacing a bad value of the file does not hide it (the next run without the flag fails on it)
    assert _error(runner.invoke(app, ["run", str(config), "--ci-width", "0.1"])) == (
        f"error: {config}: [run] ci_width must be a number > 0 and <= 1; received 3.0")
    config.write_text(config.read_text().replace("ci_width = 3.0", "ci_width = 0.3"), encoding="utf-8")
    assert _error(runner.invoke(app, ["run", str(config), "--ci-width", "0.1"])).startswith(
        f"error: {config}: [run] n_jobs must be")


#: Config values the checks refuse, each said as the file's table and key, never as a flag.
CONFIG_KEYS = [
    ("[segmenters.c99]\nsegmenter = 5\n", "[segmenters.c99] segmenter must be a string; received 5"),
    ('allow_plugins = "yes"\n[segmenters.c99]\n', "top-level allow_plugins must be true or false; received 'yes'"),
    ('[segmenters.c99]\n[metrics]\nnames = ["foo"]\n', "[metrics] names must be a list drawn from agreement_ratio, "),
    ('[segmenters.even]\n[metrics]\nenabled = "no"\n', "[metrics] enabled must be true or false; received str 'no'"),
    ("[segmenters.c999]\n", "[segmenters.c999]: unknown segmenter 'c999'. Did you mean 'c99'?"),
    ("[segmenters.even]\n[output]\ndir = 5\n", "[output] dir must be a non-empty string (a folder path); received 5"),
    ("[segmenters.even]\n[run]\nscheduler = 5\nbackend = 'dask'\n",
     "[run] scheduler must be a string (a Dask scheduler address); received int 5"),
    # the metric options, checked when the file is read (window_limit was not checked at all)
    ('[segmenters.even]\n[metrics]\nwindow_limit = "x"\n', "[metrics] window_limit must be an integer; received str 'x'"),
    ('[segmenters.even]\n[metrics]\nk = "foo"\n', "[metrics] k must be an integer >= 1 or one of 'lamprier', 'nltk', 'segeval'; received 'foo'"),
    ("[segmenters.even]\n[metrics]\nk = 0\n", "[metrics] k must be an integer >= 1; received 0"),
    ("[segmenters.even]\n[metrics]\ntolerance = -1\n", "[metrics] tolerance must be an integer >= 0; received -1"),
    ("[segmenters.even]\n[metrics]\ngamma = 2\n", "[metrics] gamma must be a number >= 0.0 and <= 1.0; received 2"),
]


@pytest.mark.parametrize(("text", "expected"), CONFIG_KEYS, ids=[e.split(" must")[0][:40] for _, e in CONFIG_KEYS])
def test_config_errors_name_the_file_table_and_key(runner, tmp_path, text, expected):
    config = tmp_path / "corpus" / "metrics.toml"  # a path whose words are also flags: said as they are
    config.parent.mkdir()
    config.write_text(text + "[corpus]\ndemo = { n_documents = 2 }\n", encoding="utf-8")
    message = _error(runner.invoke(app, ["run", str(config), "--restarts", "2", "--no-progress"]))
    assert message.startswith(f"error: {config}: {expected}")


def test_the_library_keeps_its_keywords():
    with pytest.raises(InvalidParameterError, match=r"^ci_width must be None or a number > 0") as caught:
        Settings(ci_width=5)
    assert caught.value.parameter == "ci_width"


def test_words_translate_hints_and_subjects():
    words = Words({"encoding": "--encoding", "resume": "--resume"}, {"encoding_errors": ("[corpus]", "x.toml")})
    said = words.say("pass encoding= with the file's encoding (for example encoding='latin-1'), "
                     "or encoding_errors='replace'; or resume=True")
    assert said == ("pass --encoding with the file's encoding (for example --encoding 'latin-1'), "
                    "or [corpus] encoding_errors = 'replace'; or --resume")
    # only the parameter opening the message and name= hints change: prose is left alone
    assert words.say("the encoding of resume files", "resume") == "the encoding of resume files"
    assert words.say("resume must be true or false; received 1", "resume") == "--resume must be true or false; received 1"
    assert words.say("unknown= stays", None) == "unknown= stays"


def test_config_keys_read_keyword_tables(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("[run]\nn_jobs = 2\n[corpus.wiki]\nlevels = '1'\n[output]\ndir = 'x'\n", encoding="utf-8")
    assert config_keys([config, tmp_path / "missing.toml"]) == {
        "n_jobs": ("[run]", str(config)), "levels": ("[corpus.wiki]", str(config))}


def test_segmenter_option_values_are_toml():
    assert segmenter_option("texttiling,w=10,smoothing_rounds=1.5,stem=false,stopwords=none") == (
        "texttiling,w=10,smoothing_rounds=1.5,stem=false,stopwords=none",
        {"segmenter": "texttiling", "w": 10, "smoothing_rounds": 1.5, "stem": False, "stopwords": "none"})


def test_an_unquoted_backslash_in_a_segmenter_value_is_refused(runner):
    """`separator=\\n` was kept as a backslash and an n, which never occurs in a text: the chunker
    made one chunk, placed no boundary, and the run reported it content-blind."""
    from stability.exceptions import InvalidParameterError

    with pytest.raises(InvalidParameterError, match=r"separator=\"\\n\" for escapes .* separator='\\n'"):
        segmenter_option("langchain_character,separator=\\n")
    assert segmenter_option('langchain_character,separator="\\n"')[1]["separator"] == "\n"
    assert segmenter_option("langchain_character,separator='\\n'")[1]["separator"] == "\\n"
    result = runner.invoke(app, ["run", "-s", "fixed_chars,unit_separator=\\t", "--restarts", "2", "--no-progress"])
    assert result.exit_code != 0 and "holds a backslash and is not quoted" in result.output


def test_segmenter_parameters_from_the_command_line_run(runner):
    result = runner.invoke(app, ["run", "-s", "even,n_segments=3", "--restarts", "2", "--no-progress",
                                 "--report-format", "json"])
    assert result.exit_code == 0, result.output
    assert '"even,n_segments=3"' in result.stdout


def test_warnings_name_the_flag(runner):
    result = runner.invoke(app, ["run", "-s", "even", "--restarts", "2", "--jobs", "100000", "--no-progress"])
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if line.startswith("warning: ")]
    assert warning and warning[0].startswith("warning: --jobs 100000 is beyond") and "using --jobs " in warning[0]


@pytest.mark.parametrize("message, said", [
    ("bad [format 'csv' detected from the file extension '.csv'; pass format= to override]",
     "bad [format 'csv' detected from the file extension '.csv']"),
    ("expected a text column (text, unit, or pass text_column=) (header ['foo']) [format 'csv' given; pass format= to override]",
     "expected a text column (text, unit) (header ['foo']) [format 'csv' given]"),
    ("cannot decode the file as 'utf-8' (bytes b'\\xe9': invalid byte); pass encoding= with the file's encoding "
     "(for example encoding='latin-1' or 'cp1252'), or encoding_errors='replace' to substitute undecodable bytes",
     "cannot decode the file as 'utf-8' (bytes b'\\xe9': invalid byte)"),
    ("found none (pass pattern= to choose other files)", "found none"),
    ("none of 'a' has x or y; pass format= (one of choi, wiki)", "none of 'a' has x or y"),
    ("a header (this is a Wiki-727K section header: use format='wiki')", "a header (this is a Wiki-727K section header)"),
    ("c99,mask_size=5 stays: mask_size is no reader keyword", "c99,mask_size=5 stays: mask_size is no reader keyword"),
])
def test_hints_the_command_cannot_say_are_left_out_with_their_clause(message, said):
    words = Words({}, unsaid=frozenset({"format", "encoding", "encoding_errors", "text_column", "pattern"}))
    assert words.say(message) == said


def test_score_errors_name_no_option_score_lacks(runner, tmp_path):
    # `stability score` has no --corpus-format, --encoding or --text-column: its messages used to
    # suggest format=, text_column= and encoding_errors=, the library's keywords
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "units": ["x", "y", "z"], "references": [[1]]}\n', encoding="utf-8")
    hyp = tmp_path / "hyp.jsonl"
    hyp.write_text('{"id": "a", "units": ["x", "y", "z"], "references": [[5]]}\n', encoding="utf-8")
    table = tmp_path / "ref.csv"
    table.write_text("foo,label\na,0\nb,1\n", encoding="utf-8")
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes('{"id": "a", "units": ["caf\xe9", "y"], "references": [[1]]}\n'.encode("latin-1"))
    for reference, hypothesis, expected in (
            (ref, hyp, "received 5 in [5] [format 'jsonl' detected from the file extension '.jsonl']"),
            (table, table, "expected a text column (text, sentence, unit, utterance, content) (header ['foo', 'label'])"
                           " [format 'csv' detected from the file extension '.csv']"),
            (latin, latin, "cannot decode the file as 'utf-8' at byte offset 26 (bytes b'\\xe9': invalid continuation "
                           "byte) [format 'jsonl' detected from the file extension '.jsonl']")):
        message = _error(runner.invoke(app, ["score", "-R", str(reference), "-H", str(hypothesis)]))
        assert message.endswith(expected) and "=" not in message.split(str(hypothesis))[-1], message
    # `stability run` says the flags it has, and the one it lacks (--encoding-errors) as its config key
    message = _error(runner.invoke(app, ["run", "-s", "even", "--corpus", str(latin)]))
    assert message.endswith("pass --encoding with the file's encoding (for example --encoding 'latin-1' or 'cp1252'), "
                            "or [corpus] encoding_errors = 'replace' to substitute undecodable bytes "
                            "[format 'jsonl' detected from the file extension '.jsonl'; pass --corpus-format to override]")


def test_a_format_given_is_not_told_to_be_given(runner, tmp_path):
    # --corpus-format csv on a JSON lines file said "[format 'csv' given; pass --corpus-format to override]"
    corpus = tmp_path / "docs.jsonl"
    corpus.write_text('{"id": "a", "units": ["One.", "Two."]}\n', encoding="utf-8")
    message = _error(runner.invoke(app, ["run", "-s", "even", "--corpus", str(corpus), "--corpus-format", "csv"]))
    assert message.endswith("[format 'csv' given]"), message


def test_run_says_a_reader_keyword_without_a_flag_as_its_config_key(runner, tmp_path):
    # `run` has no --delimiter or --text-column, but its config file's [corpus] table takes both:
    # the hints were left out (the user saw the cause without the remedy)
    table = tmp_path / "semi.csv"
    table.write_text("id;body;label\na;One.;1\na;Two.;2\n", encoding="utf-8")  # no text column, split or not
    config = tmp_path / "semi.toml"
    config.write_text(f'[corpus]\npath = "{table.name}"\n[segmenters.even]\n', encoding="utf-8")
    for args in (["run", str(config)], ["run", "--corpus", str(table), "-s", "even"]):
        message = _error(runner.invoke(app, [*args, "-r", "2", "--no-progress"]))
        assert "(text, sentence, unit, utterance, content, or pass [corpus] text_column)" in message, message
        assert "probably the delimiter (pass it as [corpus] delimiter)" in message, message
    study = tmp_path / "study.toml"
    study.write_text(f'[corpus.a]\npath = "{table.name}"\n[segmenters.even]\n[segmenters.none]\n[segmenters.all]\n')
    message = _error(runner.invoke(app, ["validate", str(study), "--out", str(tmp_path / "o"), "--no-progress"]))
    assert "(pass it as [corpus.NAME] delimiter)" in message, message


def test_a_hint_before_a_closing_bracket_takes_no_value():
    words = Words({"text_column": "--text-column"})
    assert words.say("expected a text column (text, or pass text_column=)") == \
        "expected a text column (text, or pass --text-column)"
    assert words.say("pass text_column=foo") == "pass --text-column foo"


def test_the_readme_says_an_unquoted_bracket_or_brace_value_must_be_toml():
    """Since 7aa57c5 a --segmenter value starting with [ or { that is not a valid TOML array or
    table is refused (a grid mistyped), no longer kept as a string; the README and
    segmenter_option's docstring still said every other value was kept as a string, so
    `pattern=[A-Z]+` (a plugin's regular expression) looked fine. They say it now, with the quoted
    form, which this test runs."""
    option = segmenter_option
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("`--segmenter NAME,key=value,...` passes"):]
    paragraph = paragraph[:paragraph.index("\n\n")]
    quoted = re.search(r"`(\w+='\[[^`]*\]\+?')`", paragraph)
    assert quoted and "starting with `[` or `{`" in paragraph, paragraph
    key, _, value = quoted.group(1).partition("=")
    assert option(f"mine:Seg,{quoted.group(1)}")[1][key] == value.strip("'")
    with pytest.raises(InvalidParameterError, match="is not a valid TOML array"):
        option(f"mine:Seg,{key}={value.strip(chr(39))}")
    assert "starting with ``[`` or ``{``" in " ".join(option.__doc__.split())


@pytest.mark.parametrize("as_given", [list, tuple])
def test_config_files_are_read_whether_click_gives_a_list_or_a_tuple(tmp_path, as_given):
    """click (8.1, beside typer 0.12-0.15, which the project admits) keeps the files of
    ``validate CONFIG...`` as a tuple in the context; the words of an error then wrapped the tuple
    in a list and ``Path(tuple)`` raised a TypeError, a traceback instead of the error line (seen
    on a machine with those versions: every error of ``stability validate``)."""
    import typer

    from stability.cli import _words

    config = tmp_path / "c.toml"
    config.write_text("[run]\nn_jobs = 2\n", encoding="utf-8")
    command = typer.main.get_command(app).commands["validate"]
    ctx = command.make_context("validate", [str(config)])
    ctx.params["config"] = as_given(ctx.params["config"])
    said = _words(ctx).say("n_jobs must be an integer >= 1", "n_jobs")
    assert said.endswith("must be an integer >= 1") and "[run] n_jobs" in said and str(config) in said


@pytest.mark.parametrize("spec, said", [
    # a wrong type was wrapped in "segmenter 'c99': bad parameters {'band': 'x'}: ...", a wrong value not
    ("c99,band=x", "error: --segmenter 'c99,band=x': band must be an integer; received str 'x'"),
    ("even,n_segments=0", "error: --segmenter 'even,n_segments=0': n_segments must be an integer >= 1; received 0"),
    ("u00,n_segments=-1", "error: --segmenter 'u00,n_segments=-1': n_segments must be an integer >= 1; received -1"),
])
def test_segmenter_parameter_errors_read_alike_and_offer_no_none(runner, spec, said):
    """Neither -s nor a TOML file can write None: the choice is left out, as for the settings."""
    result = runner.invoke(app, ["run", "-s", spec, "--restarts", "2", "--limit", "1", "--no-progress"])
    assert _error(result) == said


def test_a_segmenter_parameter_error_in_a_config_names_its_table_without_none(runner, tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("[corpus]\ndemo = true\n[segmenters.split]\nsegmenter = 'c99'\nband = 'x'\n", encoding="utf-8")
    result = runner.invoke(app, ["run", str(config), "--restarts", "2", "--limit", "1", "--no-progress"])
    assert _error(result) == f"error: {config}: [segmenters.split]: band must be an integer; received str 'x'"


def test_the_library_keeps_none_and_the_segmenter_label_in_segmenter_errors():
    from stability import get_segmenter

    with pytest.raises(InvalidParameterError,
                       match=r"^segmenter 'c99': bad parameters \{'band': 'x'\}: band must be None or an integer"):
        get_segmenter("c99", band="x")
