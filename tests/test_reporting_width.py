"""Terminal output sized to the terminal: at 80, 100 and 120 columns no table row wraps and no
number is truncated, for every command that prints a table."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stability.cli import app
from stability.comparison import STABILITY_X_AGREEMENT
from stability.readers import write_jsonl
from stability.reporting import Section
from stability.reporting.formats.table import fit, parts, table_width
from conftest import listed_keys, listed_parameters
from test_reporting import topical_corpus

WIDTHS = (80, 100, 120)
SEGMENTERS = ("c99", "texttiling_nltk", "even", "none")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("width")
    write_jsonl(topical_corpus(500, 3, prefix="article-"), folder / "corpus.jsonl")
    args = ["run", "--corpus", str(folder / "corpus.jsonl"), "--restarts", "3", "--no-progress", "--out", str(folder / "out")]
    for name in SEGMENTERS:
        args += ["-s", name]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (folder / "ref.jsonl").write_text('{"id": "a", "masses": [3, 4, 2]}\n{"id": "b", "boundaries": [5], "n_units": 10}\n')
    (folder / "hyp.jsonl").write_text('{"id": "a", "masses": [2, 6, 1]}\n{"id": "b", "boundaries": [5], "n_units": 10}\n')
    return folder


def _commands(folder: Path) -> dict[str, list[str]]:
    return {
        "run": ["run", "-s", "c99", "-s", "even", "--corpus", str(folder / "corpus.jsonl"), "--restarts", "2", "--no-progress"],
        "report": ["report", str(folder / "out")],
        "report --documents": ["report", str(folder / "out"), "--documents"],
        "score": ["score", "-R", str(folder / "ref.jsonl"), "-H", str(folder / "hyp.jsonl")],
        "segmenters": ["segmenters"],
    }


def assert_fits(text: str, width: int, prose_last: bool = False) -> None:
    """Every line within ``width`` and without trailing blanks; every table body line starts a new row (its first cell is not
    blank, which a wrapped continuation line would be), except, with ``prose_last``, the lines of
    a last column of text written on several lines (the segmenters' descriptions); no ellipsis
    anywhere."""
    assert "…" not in text
    bodies = 0
    for line in text.splitlines():
        assert len(line) <= width, line
        assert line == line.rstrip(), f"trailing blanks at width {width}: {line!r}"  # rich padded wrapped prose
        if line.startswith("│"):
            bodies += 1
            cells = line.split("│")[1:-1]
            wrapped = not cells[0].strip()
            assert not wrapped or (prose_last and not any(c.strip() for c in cells[:-1])), \
                f"wrapped row at width {width}: {line!r}"
    assert bodies > 0


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", ["run", "report", "report --documents", "score", "segmenters"])
def test_tables_fit_the_width(run_dir, command, width):
    result = CliRunner().invoke(app, _commands(run_dir)[command] + ["--width", str(width)])
    assert result.exit_code == 0, result.output
    assert_fits(result.stdout, width, prose_last=command == "segmenters")
    numbers = re.findall(r"\d+\.\d+", result.stdout)
    assert all(len(n.split(".")[1]) in (1, 2, 3, 4) for n in numbers)  # whole numbers, never cut


@pytest.mark.parametrize("width", WIDTHS)
def test_the_width_comes_from_the_terminal(run_dir, width):
    # rich's own detection reads COLUMNS (then the terminal's size)
    result = CliRunner(env={"COLUMNS": str(width)}).invoke(app, ["report", str(run_dir / "out")])
    assert result.exit_code == 0, result.output
    assert_fits(result.stdout, width)
    assert max(len(line.rstrip()) for line in result.stdout.splitlines()) > width - 25  # it uses the room


@pytest.fixture(scope="module")
def compared_dir(tmp_path_factory) -> Path:
    """A run of three content-aware segmenters: its summary has the comparison column."""
    folder = tmp_path_factory.mktemp("compared")
    write_jsonl(topical_corpus(510, 3, prefix="article-"), folder / "corpus.jsonl")
    args = ["run", "--corpus", str(folder / "corpus.jsonl"), "--restarts", "3", "--no-progress", "--out", str(folder / "out")]
    for name in ("c99", "u00", "texttiling_nltk", "even"):
        args += ["-s", name]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return folder


@pytest.mark.parametrize("width", WIDTHS)
def test_the_comparison_column_fits_at_every_width(compared_dir, width):
    text = CliRunner().invoke(app, ["report", str(compared_dir / "out"), "--width", str(width)]).stdout
    assert_fits(text, width)
    header = [line for line in text.split("Kendall")[0].splitlines() if line.startswith("┃")]
    # the reference metrics go first when the width is short; the comparison stays with the gap
    assert any(STABILITY_X_AGREEMENT.short in line for line in header), header


def test_compact_summary_keeps_the_essentials_at_80_and_everything_at_120(run_dir):
    narrow = CliRunner().invoke(app, ["report", str(run_dir / "out"), "--width", "80"]).stdout
    wide = CliRunner().invoke(app, ["report", str(run_dir / "out"), "--width", "120"]).stdout
    for text in (narrow, wide):
        assert "stab. (shuf.-corr.)" in text.replace("\n", " ").replace("┃", " ").replace("  ", " ") or "[95%" in text
        assert "content-blind" in text and "texttiling_nltk" in text
    assert "Left out for width 80" in narrow and "Left out for width" not in wide.split("Kendall")[0]


def test_columns_all_gives_the_full_table(run_dir):
    full = CliRunner().invoke(app, ["report", str(run_dir / "out"), "--columns", "all", "--width", "400"]).stdout
    for title in ("STP", "STR", "chance", "corrected", "NWin", "TNWin", "Pr_err", "CovN"):
        assert title in full


FULL_TITLES = ("STP", "STR", "chance", "corrected", "shuffle", "NWin", "TNWin", "Pr_err", "CovN", "CovD")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", ["report", "report --documents"])
def test_columns_all_is_printed_in_parts_that_fit(run_dir, command, width):
    # every column asked for: nothing is left out and no cell is cut; the table comes in parts,
    # each starting with the columns that name a row
    args = _commands(run_dir)[command] + ["--columns", "all", "--width", str(width)]
    text = CliRunner().invoke(app, args).stdout
    assert "…" not in text and "Left out for width" not in text
    assert all(len(line.rstrip()) <= width for line in text.splitlines())
    flat = " ".join(text.replace("┃", " ").split())
    for title in FULL_TITLES:
        assert title in flat, title
    assert "Part 2 of" in text
    first_cells = [line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│")]
    assert sum(cell == "texttiling_nltk" for cell in first_cells) >= 2 * (2 if "documents" in command else 1)
    numbers = re.findall(r"\d+\.\d+", text.split("boundary:confidence")[0])
    assert all(len(n.split(".")[1]) in (1, 2, 3) for n in numbers)


@pytest.mark.parametrize("width", WIDTHS)
def test_score_with_every_column_is_printed_in_parts(run_dir, width):
    # it left columns out ("Left out for width 80: NWin, ...") although every column was asked for
    text = CliRunner().invoke(app, _commands(run_dir)["score"] + ["--columns", "all", "--width", str(width)]).stdout
    assert "Left out for width" not in text and "…" not in text
    assert all(len(line.rstrip()) <= width for line in text.splitlines())
    flat = " ".join(text.replace("┃", " ").split())
    for title in ("Pk", "WD", "NWin", "TNWin", "GHD", "B", "S"):
        assert f" {title} " in flat, title
    compact = CliRunner().invoke(app, _commands(run_dir)["score"] + ["--width", str(width)]).stdout
    assert "Part 2 of" not in compact                              # the default: what fits, in one table


@pytest.mark.parametrize("width", WIDTHS)
def test_score_says_what_its_columns_are_and_which_way_is_better(run_dir, width):
    """`stability score`'s table named B, Pk, WD... without a word on them, where `run`'s says
    each one's title and direction from the catalogue (the same legend now)."""
    text = CliRunner().invoke(app, _commands(run_dir)["score"] + ["--width", str(width)]).stdout
    flat = " ".join(text.split())
    assert "Columns: " in flat
    for said in ("WD = WindowDiff (lower is better)", "B = boundary similarity (higher is better)"):
        assert said in flat, said
    assert all(len(line.rstrip()) <= width for line in text.splitlines())


def test_parts_repeat_the_key_columns_and_each_fits():
    # widths 9 + 4 + 4 + 4: the whole table takes 34 characters, (segmenter, a, b) 27, (segmenter, a) 20
    section = Section("t", ["segmenter", "a", "b", "c"], [["x" * 9, "1.00", "2.00", "3.00"]])
    assert parts(section, [0, 1, 2, 3], 34) == [[0, 1, 2, 3]]
    assert parts(section, [0, 1, 2, 3], 33) == [[0, 1, 2], [0, 3]]
    assert parts(section, [0, 1, 2, 3], 20) == [[0, 1], [0, 2], [0, 3]]
    assert parts(section, [0, 1, 2, 3], 5) == [[0, 1], [0, 2], [0, 3]]  # a column too wide still gets a part
    assert parts(section, [0, 2], 20) == [[0, 2]]
    unnamed = Section("t", ["segmenter", "a", "b", "c"], [["x" * 9, "1.00", "2.00", "3.00"]], keys=0)
    assert parts(unnamed, [0, 1, 2, 3], 20) == [[0, 1], [2, 3]]
    with pytest.raises(ValueError, match="keys"):
        Section("t", ["a", "b"], [["1", "2"]], keys=3)


def test_fit_drops_the_declared_columns_first():
    # widths 9 + 4 + 4 + 4 (+ 3 a column + 1) = 34 characters
    section = Section("t", ["segmenter", "a", "b", "c"], [["x" * 9, "1.00", "2.00", "3.00"]], drop_order=(3, 2))
    assert table_width([9, 4, 4, 4]) == 34
    assert fit(section, 34) == ([0, 1, 2, 3], [])
    assert fit(section, 33) == ([0, 1, 2], ["c"])
    assert fit(section, 20) == ([0, 1], ["c", "b"])
    assert fit(section, 10) == ([0, 1], ["c", "b"])  # never below the columns that must stay


def test_a_header_wraps_only_when_the_table_needs_its_room():
    """Headers wrap at their spaces so that a narrow terminal keeps the numbers; a table with room
    to spare wrapped them all the same (``stability [95%`` over ``CI]`` in a table 66 wide at 80)."""
    from stability.reporting import render
    from stability.reporting.model import Report

    section = Section("t", ["segmenter", "stability [95% CI]", "gap"], [["c99", "0.94 [0.81, 1.00]", "0.91"]])
    wide = render(Report("r", [section]), "table", width=80)
    assert "┃ segmenter ┃ stability [95% CI] ┃  gap ┃" in wide
    # one cell short of the room: the header wraps, the table keeps the width it had
    narrow = render(Report("r", [section]), "table", width=table_width([9, 17, 4]))
    assert "stability [95%" in narrow and "stability [95% CI]" not in narrow
    assert max(len(line) for line in narrow.splitlines() if line.startswith("┃")) == table_width([9, 17, 4])


def test_colour_only_when_asked(run_dir):
    from stability.summary import load_results
    from stability.reporting import render

    result = load_results(run_dir / "out" / "results.jsonl")
    plain = render(result, "table", width=120)
    coloured = render(result, "table", width=120, color=True)
    assert "\x1b[" not in plain  # piped: no escape codes
    assert "\x1b[1m" in coloured and "\x1b[33mcontent-blind" in coloured  # bold result, yellow flag
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain  # the same text otherwise


def _in_a_terminal(args: list[str], width: int) -> str:
    """Run the installed ``stability`` in a pseudo-terminal ``width`` columns wide (as a user's
    shell would: no COLUMNS, no --width) and return what the terminal received, colours removed."""
    import fcntl
    import os
    import pty
    import shutil
    import struct
    import subprocess
    import sys
    import termios

    exe = shutil.which("stability", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("the stability command is not installed next to this interpreter")
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, width, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    process = subprocess.Popen([exe, *args], stdin=follower, stdout=follower, stderr=follower, env=env, close_fds=True)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=120) == 0, b"".join(chunks).decode(errors="replace")
    text = b"".join(chunks).decode("utf-8", errors="replace").replace("\r\n", "\n")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07", "", text)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", ["report", "report --documents", "segmenters"])
def test_a_real_terminal_of_that_width(run_dir, command, width):
    text = _in_a_terminal(_commands(run_dir)[command], width)
    assert_fits(text, width, prose_last=command == "segmenters")
    if command == "report":  # the summary table grows with the terminal (the others may need less room)
        assert max(len(line.rstrip()) for line in text.splitlines()) > width - 25


@pytest.mark.parametrize("width", (20, 30, 40))
@pytest.mark.parametrize("command", ["run", "report --documents", "score"])
def test_too_narrow_a_terminal_gets_tables_past_its_edge_never_cut_cells(run_dir, command, width):
    """Below the key columns plus the widest other one, a table runs past the terminal's edge:
    its cells stay whole (they were cut with an ellipsis before), and the notes still wrap."""
    result = CliRunner().invoke(app, _commands(run_dir)[command] + ["--width", str(width)])
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert rows and all(line.split("│")[1].strip() for line in rows)      # no row wrapped
    if command == "run":
        assert re.search(r"\d\.\d\d \[\d\.\d\d, \d\.\d\d\]", result.stdout)  # the headline's interval, whole
        assert any(len(line.rstrip()) > width for line in rows)


#: A grid of configurations whose labels (texttiling,cutoff_policy=LC,similarity_method=...,w=10)
#: are longer than the other columns of an 80-column table together.
LONG_LABELS = "texttiling,cutoff_policy=LC,similarity_method=block_comparison,grid={w=[10,20],k=[4,6]}"


@pytest.mark.parametrize("width", WIDTHS)
def test_long_configuration_labels_fold_at_their_commas_instead_of_splitting_the_table(run_dir, width):
    """A grid's labels repeat every fixed parameter: at 80 (and 100) columns the 67-character
    label pushed the summary table into two parts, the headline and the flags apart, and left out
    the other columns. The label now folds at its commas (continuation lines indented) as far as
    the table needs; each label reads whole from its cell's lines."""
    args = ["run", "-s", LONG_LABELS, "-s", "c99", "--corpus", str(run_dir / "corpus.jsonl"), "--restarts", "2",
            "--no-progress", "--width", str(width)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = result.stdout.split("Stability test")[1].split("Means over documents")[0]
    assert "part 1 of" not in summary and "Part 2" not in summary
    assert_fits(result.stdout, width)
    header = next(line for line in summary.splitlines() if line.startswith("┃") and "segmenter" in line)
    assert "flags" in header and "[95% CI]" in summary
    labels, current = [], ""
    for line in summary.splitlines():
        if line.startswith("│"):
            cell = line.split("│")[1].rstrip()[1:]
            if cell.startswith("  ") and current:
                current += cell.strip()
            else:
                labels.append(current)
                current = cell.strip()
    labels = [label for label in labels + [current] if label]
    expected = [f"texttiling,cutoff_policy=LC,similarity_method=block_comparison,w={w},k={k}"
                for w in (10, 20) for k in (4, 6)] + ["c99"]
    assert labels == expected
    assert max(len(line) for line in summary.splitlines()) <= width


@pytest.mark.parametrize("width", (80, 100))
def test_the_result_line_of_a_grid_wraps_between_entries_and_quotes_labels_in_lists(run_dir, width):
    """A grid of configurations makes the result line several lines long: it broke anywhere, a
    headline on one line and its interval on the next, a line could start with '>', and in a list
    of labels ('a,b=1, a,b=2: content-blind') the commas between labels could not be told from
    the commas inside them. Now every 'label mean [low, high]' stays on one line and a label with
    a comma is quoted in lists."""
    args = ["run", "-s", LONG_LABELS.replace("cutoff_policy=LC,similarity_method=block_comparison,", ""),
            "-s", "even,grid={segment_length=[3,5]}", "-s", "c99", "--corpus", str(run_dir / "corpus.jsonl"),
            "--restarts", "2", "--no-progress", "--width", str(width)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    first = result.stdout.split("\n\n")[0]
    lines = first.splitlines()
    assert len(lines) > 1 and all(len(line) <= width for line in lines)
    assert not any(line.startswith(">") or line.startswith("=") for line in lines)
    whole = " ".join(lines)
    entries = re.findall(r"'?[\w,=]+'? -?\d\.\d\d \[-?\d\.\d\d, -?\d\.\d\d\]", whole)  # quoted: a comma
    assert len(entries) == 5, whole  # four TextTiling configurations and C99
    for entry in entries:
        assert any(entry in line for line in lines), entry
    assert "'even,segment_length=3', 'even,segment_length=5': content-blind" in whole


@pytest.fixture(scope="module")
def wide_cells_dir(tmp_path_factory) -> Path:
    """A run whose labels hold characters a terminal gives two cells (CJK, an emoji) and whose
    even baseline places a boundary every 3 units (a long boundary:confidence cell a document)."""
    folder = tmp_path_factory.mktemp("cells")
    write_jsonl(topical_corpus(520, 3, prefix="article-"), folder / "corpus.jsonl")
    (folder / "run.toml").write_text(
        f'[corpus]\npath = "{(folder / "corpus.jsonl").as_posix()}"\n'
        '[segmenters."日本語の分割器テスト"]\nsegmenter = "even"\nsegment_length = 3\n'
        '[segmenters."c99,好"]\nsegmenter = "c99"\n[segmenters."émoji🙂"]\nsegmenter = "texttiling_nltk"\n'
        '[run]\nn_restarts = 3\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(folder / "run.toml"), "--no-progress", "--out", str(folder / "out")])
    assert result.exit_code == 0, result.output
    return folder


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", [[], ["--documents"], ["--documents", "--columns", "all"]],
                         ids=["summary", "documents", "documents, all columns"])
def test_wide_characters_and_long_cells_fit_the_width(wide_cells_dir, args, width):
    """Widths were counted in characters, not terminal cells: a CJK label or an emoji made rich
    cut labels and flags with an ellipsis at every width; and the per-document table was laid
    out as wide as its boundary:confidence cells even when that column was left out (131
    columns at --width 80)."""
    from rich.cells import cell_len

    text = CliRunner().invoke(app, ["report", str(wide_cells_dir / "out"), "--width", str(width), *args]).stdout
    assert "…" not in text
    assert max(cell_len(line.rstrip()) for line in text.splitlines()) <= width
    for label in ("日本語の分割器テスト", "émoji🙂"):
        assert label in text


def test_a_report_file_says_how_to_see_the_columns_it_left_out(tmp_path, monkeypatch):
    """report.txt of a run (--out, [output] formats = ["table"]) is 120 columns wide; a column left
    out for that width was noted "(wider terminal, --width, or another report format)": advice
    about a terminal, inside a file. The file names the command that shows them, with the width
    they need; the terminal keeps its words."""
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "run.toml"
    config.write_text('[corpus]\ndemo = {n_documents = 3}\n[segmenters.even]\n[segmenters.c99]\n[segmenters.texttiling]\n'
                      '[run]\nn_restarts = 2\n[output]\ndir = "out"\nformats = ["table"]\n', encoding="utf-8")
    runner = CliRunner()
    ran = runner.invoke(app, ["run", str(config), "--no-progress", "--metrics", "pk,wd,b,s,ghd,f1", "--width", "80"])
    assert ran.exit_code == 0, ran.output
    # the terminal's note: the terminal's advice
    assert re.search(r"Left out for width 80: .* \(wider terminal, --width, or another report format\)\.",
                     " ".join(ran.stdout.split()))
    text = " ".join((tmp_path / "out" / "report.txt").read_text(encoding="utf-8").split())
    note = re.search(r"Left out for width 120: (.*) \((stability report out --metrics \S+ --width \d+) shows them, "
                     r"as does another --report-format\)\.", text)
    assert note and "terminal" not in text, text
    # the command the file names shows every column it left out
    shown = runner.invoke(app, shlex.split(note.group(2))[1:])
    assert shown.exit_code == 0 and "Left out" not in shown.stdout, shown.output
    header = next(line for line in shown.stdout.splitlines() if "segmenter" in line)
    assert all(f" {column} " in header for column in note.group(1).split(", ")), header
    # `report --output FILE` writes a table to a file too: the same words
    runner.invoke(app, ["report", "out", "--width", "80", "--output", "again.txt"])
    again = " ".join((tmp_path / "again.txt").read_text(encoding="utf-8").split())
    assert "Left out for width 80: " in again and "(stability report out --width " in again and "terminal" not in again
    # with the options that shaped it: the reference metrics chosen
    runner.invoke(app, ["report", "out", "--width", "80", "--metrics", "pk,wd", "--output", "again.txt"])
    again = " ".join((tmp_path / "again.txt").read_text(encoding="utf-8").split())
    assert "(stability report out --metrics pk,windowdiff --width " in again, again


def _left_out_notes(text: str) -> list[tuple[list[str], list[str]]]:
    """The notes of a report written to a file on columns left out for width: the columns, and the
    command (its arguments after ``stability``) said to show them."""
    found = re.findall(r"Left out for width \d+: (.*?) \((stability report .*?) shows them, as does another "
                       r"--report-format\)\.", " ".join(text.split()))
    return [(columns.split(", "), shlex.split(command)[1:]) for columns, command in found]


def test_the_command_a_report_file_names_shows_what_it_left_out_with_documents_and_metrics(tmp_path, monkeypatch):
    """A report file rendered with the per-document table ([output] documents = true, report
    --documents) or a choice of metrics (run --metrics, report --metrics) named 'stability report
    out --width N' under the tables it cut: that command prints no per-document table, and every
    metric, so it did not show what the note said it shows. The command named carries the
    options that shaped the file."""
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "run.toml"
    config.write_text('[corpus]\ndemo = {n_documents = 3}\n[segmenters.even]\n[segmenters.texttiling]\n'
                      '[run]\nn_restarts = 2\n[output]\ndir = "out"\nformats = ["table"]\ndocuments = true\n',
                      encoding="utf-8")
    runner = CliRunner()
    ran = runner.invoke(app, ["run", str(config), "--no-progress", "--metrics", "pk,b"])
    assert ran.exit_code == 0, ran.output
    runner.invoke(app, ["report", "out", "--documents", "--metrics", "wd", "--width", "80", "--output", "again.txt"])
    for written in (tmp_path / "out" / "report.txt", tmp_path / "again.txt"):
        notes = _left_out_notes(written.read_text(encoding="utf-8"))
        assert any(columns != ["docs"] for columns, _ in notes), (written, notes)  # a per-document table was cut
        for columns, command in notes:
            shown = runner.invoke(app, command)
            assert shown.exit_code == 0, (command, shown.output)
            headers = [line for line in shown.stdout.splitlines() if "┃" in line]
            assert all(any(f" {column} " in line for line in headers) for column in columns), (written, command, columns)


#: Built-in segmenters needing no optional extra.
CORE_SEGMENTERS = ("c99", "u00", "texttiling", "texttiling_nltk", "embedding", "cluster", "even", "none", "all",
                   "random")


@pytest.mark.parametrize("width", WIDTHS)
def test_listings_wrap_their_prose_to_the_terminal_not_to_a_fixed_width(width):
    """`stability segmenters` and `stability config` wrapped descriptions and meanings at fixed
    widths (32, 24 and 40 cells) whatever the terminal: at 80 columns the segmenters table was
    one cell too wide and printed in two parts, at 100 every [corpus] key's meaning was in a part
    of its own, away from its type and flag, and at 120 a third of the line stayed empty while
    each description took two or three lines. The prose now takes the room the other columns
    leave: one table at each width, each no wider than the terminal, fewer lines when wider."""
    # the segmenters every install has (those of an optional extra not installed widen the status
    # column with "not installed", and their descriptions hold longer words)
    listing = CliRunner().invoke(app, ["segmenters", *CORE_SEGMENTERS, "--width", str(width)]).stdout
    assert max(map(len, listing.splitlines())) <= width
    assert "part 1 of" not in listing.split("Parameters and their defaults")[0]
    row = next(line for line in listing.splitlines() if line.startswith("│ c99 "))
    if width >= 100:  # room for the description to be wider than its old 32 cells
        assert len(row.split("│")[-2].strip()) > 32, row
    config = CliRunner().invoke(app, ["config", "--width", str(width)]).stdout
    assert max(map(len, config.splitlines())) <= width
    if width >= 100:
        assert "(part 1 of" not in config, config[:2000]
    lengths = {w: len(CliRunner().invoke(app, ["segmenters", *CORE_SEGMENTERS, "--width", str(w)]).stdout.splitlines())
               for w in (width, 200)}
    assert lengths[200] < lengths[width]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_parameter_s_default_and_meaning_are_read_together_under_its_segmenter(width):
    """`COLUMNS=80 stability segmenters` printed the table segmenter | parameter | default |
    meaning in two parts: the defaults of every parameter, then their meanings some 150 lines
    further down; and at every width the meaning of C99's tokenizer, stopwords and stem (one
    numpydoc entry) took its seven lines on each of the three rows. Each segmenter's name now
    heads its parameters (no column repeating it), so that a parameter's default and meaning
    share its row at 80, 100 and 120 columns, in one table; a meaning documented for several
    parameters is said on the first, the others pointing to it."""
    from stability.registry import describe_segmenters

    result = CliRunner(env={"COLUMNS": str(width)}).invoke(app, ["segmenters", *CORE_SEGMENTERS])
    assert result.exit_code == 0, result.output
    listing = result.stdout
    assert "part 1 of" not in listing and "Part 2" not in listing
    assert max(map(len, listing.splitlines())) <= width
    listed = listed_parameters(listing)  # one group per segmenter, each parameter's meaning on its row
    statuses = describe_segmenters(list(CORE_SEGMENTERS))
    assert {name: list(group) for name, group in listed.items()} == \
        {name: list(status.params) for name, status in statuses.items() if status.params}
    assert listed["c99"]["n_segments"] == ["None", "Known number of segments `K` (clamped to `1 .. n`): exactly `K-1` splits."]
    for name, shared in (("c99", ("stopwords", "stem")), ("u00", ("stopwords", "stem"))):
        assert listed[name]["tokenizer"][1].startswith("Preprocessing (`Preprocessor`)")
        assert [listed[name][key] for key in shared] == [["None", "See `tokenizer`."], ["True", "See `tokenizer`."]]
    assert listed["embedding"]["std_coeff"] == ["1.2", "See `mask_size`."]
    assert [listed["embedding"][key][1] for key in ("smoothing_width", "min_distance")] == ["See `window`."] * 2
    assert listing.count("Preprocessing (`Preprocessor`)") == 2  # once for c99, once for u00
    # at 80 columns the meaning has a readable room, not a sliver beside a repeated name
    meanings = [line.split("│")[3] for line in listing.split("Parameters and their defaults")[1].splitlines()
                if line.startswith("│")]
    assert min(map(len, meanings)) >= 30


def test_the_segmenters_every_install_has_keep_their_fast_path_column_at_80_columns():
    """At 80 columns the segmenters table left out its fast path column (4 cells and padding) to
    keep each description 32 cells wide where 31 were left: the description reads as well at 30
    (as a parameter's meaning). Only a description's longest word (langchain's
    RecursiveCharacterTextSplitter, of an optional extra) still leaves no room for it."""
    result = CliRunner(env={"COLUMNS": "80"}).invoke(app, ["segmenters", *CORE_SEGMENTERS])
    assert result.exit_code == 0, result.output
    listing = result.stdout.split("Parameters and their defaults")[0]
    assert "Left out" not in listing and max(map(len, listing.splitlines())) <= 80
    header = [line for line in listing.splitlines() if line.startswith("┃")]
    titles = zip(*([cell.strip() for cell in line.split("┃")[1:-1]] for line in header))  # a title wraps
    assert [" ".join(words).strip() for words in titles] == ["name", "origin", "fast path", "status", "description"]
    row = next(line for line in listing.splitlines() if line.startswith("│ c99 "))
    assert [cell.strip() for cell in row.split("│")[1:5]] == ["c99", "built-in", "yes", "ok"]


def _config_listing(width: int) -> str:
    result = CliRunner(env={"COLUMNS": str(width)}).invoke(app, ["config"])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("width", WIDTHS)
def test_a_config_key_s_type_default_flag_and_meaning_are_read_on_its_rows(width):
    """`COLUMNS=80 stability config` printed [corpus] and [run] in two parts, each key's type,
    default and flag, then its meaning 30 to 100 lines further down (the key, type, default and
    flag columns, `format`'s nine values wrapped in the type, left the meaning less than the 20
    cells it was given at the least); at 100 and 120 the tables were whole but the meanings of
    [corpus] and [run] 27 to 44 cells wide. Where the tables are too narrow for the meaning to
    read at its 60 cells, each flag now stands under its key, in every table alike: at each width
    a key's type, default, flag and meaning are on its rows, in one part, and the room a wider
    terminal gives goes to the meaning: at least 30, 45 and 60 cells wide at 80, 100 and 120
    columns."""
    from stability.cli import run_option_keys
    from stability.configkeys import reference

    listing = _config_listing(width)
    assert "part 1 of" not in listing and "Part 2" not in listing
    assert max(map(len, listing.splitlines())) <= width
    expected: dict[str, dict[str, list[str]]] = {}
    first: dict[tuple[str, str], str] = {}  # a meaning shared by keys is said on the first of its table
    for row in reference(run_option_keys()):
        table = row.table or "top of the file"
        meaning = first.setdefault((table, row.meaning), row.key)
        expected.setdefault(table, {})[row.key] = [" ".join(row.type.split()), row.default, row.flag or "",
                                                   " ".join(row.meaning.split()) if meaning == row.key
                                                   else f"See `{meaning}`."]
    assert listed_keys(listing) == expected
    headers = [line for line in listing.splitlines() if line.startswith("┃ key ")]
    assert len(headers) == len(expected) and len({line.count("┃") for line in headers}) == 1  # one layout
    assert min(len(line.split("┃")[-2]) - 2 for line in headers) >= {80: 30, 100: 45, 120: 60}[width]  # the meaning's room
    if width == 80:
        assert "│ n_restarts         │ int" in listing and "│   --restarts       │" in listing


def test_the_config_listing_is_shorter_on_a_wider_terminal():
    """`stability config` was 324 lines at 80 columns, 360 at 100 and 273 at 120: at 80 the
    meanings of [corpus] and [run] went to a part of their own, 58 cells wide, at 100 they shared
    the line with a 14-cell type and a 15-cell flag column in 33 cells. The listing is now shorter
    at each wider width."""
    lengths = [len(_config_listing(width).splitlines()) for width in WIDTHS]
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == len(lengths), lengths


def test_prose_in_a_part_of_its_own_takes_that_part_s_width():
    """A table too wide even with its prose at its narrowest prints in parts; the prose, in a
    part with the key column only, is wrapped to that part's room, not to its narrowest."""
    from stability.reporting import Report, render

    meaning = " ".join(["word"] * 60)
    section = Section("keys", ["key", "type", "flag", "meaning"],
                      [["a_long_key_name", "x" * 30, "--a-long-flag-name", meaning]], align="LLLl", prose={3: 40})
    text = render(Report("r", [section]), "table", width=60)
    last = text.split("Part 3 of 3 of the table above")[1]
    prose = [line.split("│")[2].strip() for line in last.splitlines() if "word" in line]
    # a part of the key (15 cells) and the prose leaves it 60 - 15 - 7 (borders, padding) = 38
    # cells; at its narrowest (half of 40) it took 20
    assert max(map(len, prose)) > 30 and " ".join(prose) == meaning
    assert max(map(len, text.splitlines())) <= 60


@pytest.mark.parametrize("prose", [{3: 10}, {0: 10}, {1: 0}, {1: True}, {5: 10}])
def test_prose_is_declared_on_left_aligned_wrapped_columns_with_a_width(prose):
    from stability.exceptions import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="prose must be a mapping of column indices"):
        Section("t", ["a", "b", "c", "d"], [["1", "2", "3", "4"]], align="Llrr", prose=prose)


def test_a_label_narrower_than_its_column_s_header_is_not_folded_and_the_next_key_is():
    """folded() counted a folded label as narrowing its column by what the label lost, though the
    column stayed as wide as its header (``segmenter``): ``c99,n=3`` was folded for nothing, and
    the next key column, whose folding the table needed, was left whole: 74 cells at 70."""
    from rich.cells import cell_len

    from stability.reporting import Report, render

    section = Section("t", ["segmenter", "configuration", "score"],
                      [["c99,n=3", "langchain_recursive,chunk_size=300,chunk_overlap=0", "0.51"]], keys=2, align="LLr")
    text = render(Report("r", [section]), "table", width=70)
    assert max(map(cell_len, text.splitlines())) <= 70, text
    assert "│ c99,n=3   │ langchain_recursive,chunk_size=300, │" in text, text


def test_a_narrow_table_s_title_takes_the_terminal_s_width_not_the_table_s(tmp_path):
    """rich wrapped a table's title to the table's width: `score --metrics f1` at 80 columns
    printed "Reference metrics: 2" over "documents" above a table 22 cells wide."""
    ref, hyp = tmp_path / "r.jsonl", tmp_path / "h.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3], "n_units": 6}\n{"id": "b", "boundaries": [2], "n_units": 6}\n')
    hyp.write_text('{"id": "a", "boundaries": [3], "n_units": 6}\n{"id": "b", "boundaries": [4], "n_units": 6}\n')
    for width in WIDTHS:
        out = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--metrics", "f1", "--width", str(width)])
        assert out.exit_code == 0, out.output
        assert out.stdout.splitlines()[0] == "Reference metrics: 2 documents"
    section = Section("a title much longer than the table under it", ["x"], [["1"]])
    from stability.reporting import Report, render
    assert render(Report("r", [section]), "table", width=30).splitlines()[:2] == [
        "a title much longer than the", "table under it"]  # wrapped at the terminal's width


def _two_formats(folder: Path) -> Path:
    """A folder of pages, each written as Markdown and as HTML: the reader warns, on one long line
    of stderr (about 400 characters), that each is read twice."""
    pages = folder / "my pages"
    pages.mkdir()
    for name in ("page-a", "page-b"):
        (pages / f"{name}.md").write_text("# Cats\n\nCats purr and sleep.\n\n# Dogs\n\nDogs bark and run.\n")
        (pages / f"{name}.html").write_text("<h1>Cats</h1><p>Cats purr.</p><h1>Dogs</h1><p>Dogs bark.</p>")
    return pages


@pytest.mark.parametrize("given", ["COLUMNS", "--width"])
@pytest.mark.parametrize("width", WIDTHS)
def test_messages_on_stderr_wrap_to_the_width_of_the_report(tmp_path, monkeypatch, width, given):
    """A warning, and where the results went, were one line each of any length: at 80 columns the
    warning on a folder of pages in two formats ran five times past the edge of a terminal. They
    wrap to the report's width (the terminal's, or --width), never inside a path (this one has
    blanks), an option or a command, and say the same words as unwrapped."""
    monkeypatch.setattr("stability.cli._on_terminal", lambda stream: True)  # CliRunner's stderr is no terminal
    pages, out = _two_formats(tmp_path), tmp_path / "the results of a run with a long name" / "out"
    args = ["run", "-c", str(pages), "-s", "even", "-r", "2", "--no-progress", "--out", str(out)]
    env = {"_TYPER_FORCE_DISABLE_TERMINAL": "1"}
    result = CliRunner(env={**env, "COLUMNS": str(width)} if given == "COLUMNS" else {**env, "COLUMNS": "1000"}).invoke(
        app, args if given == "COLUMNS" else [*args, "--width", str(width)])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert all(len(line) <= width or line.strip() == str(out) for line in lines), result.stderr  # a path wider: alone
    warning = next(i for i, line in enumerate(lines) if line.startswith("warning:"))
    assert len(lines) > 3 and lines[warning + 1].startswith("  ")  # a message's lines after its first are indented
    assert any(line.endswith(f"results written to {out}") or line.strip() == str(out) for line in lines), result.stderr
    assert any("--corpus-format" in line.split() for line in lines), result.stderr
    assert any(f"{pages}:" in line for line in lines), result.stderr  # the folder of the reader's warning, whole
    monkeypatch.setattr("stability.cli._on_terminal", lambda stream: False)
    wide = CliRunner(env={**env, "COLUMNS": str(width)}).invoke(app, [*args, "--overwrite", "--width", str(width)])
    messages = [line for line in wide.stderr.splitlines()]
    assert [re.sub(r"\n  ", " ", message) for message in re.split(r"\n(?! )", result.stderr.strip())] == messages


def test_messages_on_stderr_stay_whole_lines_in_a_log(tmp_path):
    """stderr a pipe or a file (CliRunner's): one line a message, whatever the width, as a log is
    searched and a script reads an error."""
    pages = _two_formats(tmp_path)
    result = CliRunner(env={"COLUMNS": "80"}).invoke(app, ["run", "-c", str(pages), "-s", "even", "-r", "2", "--no-progress",
                                                          "--width", "80"])
    assert result.exit_code == 0, result.output
    assert len(result.stderr.splitlines()) == 1 and len(result.stderr) > 300, result.stderr


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("command", ["segmenters", "config"])
def test_a_code_span_in_a_meaning_is_never_cut_at_a_line_end(command, width):
    """The meanings of `stability segmenters` and `stability config` were wrapped at any blank,
    inside a code span too: at 80 columns C99's std_coeff read `mean + c *` over `std`. A span
    narrower than its column keeps to one line (each line holds its spans whole: an even number
    of backticks)."""
    result = CliRunner(env={"COLUMNS": str(width), "_TYPER_FORCE_DISABLE_TERMINAL": "1"}).invoke(app, [command])
    assert result.exit_code == 0, result.output
    lines, cut, closing = result.stdout.splitlines(), [], set()
    for at, line in enumerate(lines):
        for k, cell in enumerate(line.split("│")):
            if cell.count("`") % 2 and (at, k) not in closing:  # a span left open: only when wider than its cell
                closing.add((at + 1, k))
                rest = lines[at + 1].split("│")[k].strip()
                span = cell.strip()[cell.strip().rindex("`"):] + " " + rest[:rest.index("`") + 1]
                if len(span) <= len(cell) - 2:
                    cut.append(span)
    assert cut == [], cut
