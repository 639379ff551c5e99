"""Parameter grids in a segmenter's table (``grid = { w = [10, 20] }``) or ``--segmenter`` value:
one configuration per combination, the same results as writing each table by hand."""

from __future__ import annotations

import csv
import io
import re

import pytest
from typer.testing import CliRunner

from stability import InvalidParameterError
from stability.cli import app
from stability.config import load_config, run_experiment, with_overrides

CORPUS = "[corpus]\ndemo = { n_documents = 3, n_segments = 4 }\n[run]\nn_restarts = 3\n[metrics]\nenabled = false\n"


def _write(tmp_path, text, name="exp.toml"):
    path = tmp_path / name
    path.write_text(CORPUS + text, encoding="utf-8")
    return path


def test_a_grid_makes_one_configuration_per_combination_in_order(tmp_path):
    path = _write(tmp_path, '[segmenters.tt]\nsegmenter = "texttiling"\nk = 10\n'
                            'grid = { w = [10, 20], smoothing_rounds = [1, 2] }\n[segmenters.c99]\n')
    experiment = load_config(path)
    assert list(experiment.segmenters) == ["tt,w=10,smoothing_rounds=1", "tt,w=10,smoothing_rounds=2",
                                           "tt,w=20,smoothing_rounds=1", "tt,w=20,smoothing_rounds=2", "c99"]
    assert experiment.segmenters["tt,w=20,smoothing_rounds=1"] == {
        "segmenter": "texttiling", "k": 10, "w": 20, "smoothing_rounds": 1}
    assert experiment.segmenters["c99"] == {}


def test_a_grid_gives_the_results_of_the_tables_written_by_hand(tmp_path):
    grid = load_config(_write(tmp_path, '[segmenters.texttiling]\ngrid = { w = [6, 12] }\n', "grid.toml"))
    by_hand = load_config(_write(tmp_path, '[segmenters."texttiling,w=6"]\nsegmenter = "texttiling"\nw = 6\n'
                                           '[segmenters."texttiling,w=12"]\nsegmenter = "texttiling"\nw = 12\n',
                                 "hand.toml"))
    a, b = run_experiment(grid, progress=False), run_experiment(by_hand, progress=False)
    assert list(a.summary) == list(b.summary) == ["texttiling,w=6", "texttiling,w=12"]
    for label in a.summary:
        assert [r.f1 for r in a.documents[label]] == [r.f1 for r in b.documents[label]]
        assert [r.segmentation.boundaries for r in a.documents[label]] == [r.segmentation.boundaries for r in b.documents[label]]
    # the two points are different configurations, not one run twice
    assert [r.segmentation.boundaries for r in a.documents["texttiling,w=6"]] != [r.segmentation.boundaries for r in a.documents["texttiling,w=12"]]


def test_the_command_line_takes_a_grid_as_an_inline_table(tmp_path):
    result = CliRunner().invoke(app, ["run", "-s", "texttiling,k=10,grid={w=[6, 12]}", "-s", "even",
                                      "--restarts", "2", "--no-progress", "--report-format", "csv"])
    assert result.exit_code == 0, result.output
    rows = {row[0] for row in csv.reader(io.StringIO(result.stdout))}
    assert {"texttiling,k=10,w=6", "texttiling,k=10,w=12", "even"} <= rows


@pytest.mark.parametrize("option, fragment", [
    ("fixed_chars,grid={chunk_size=[300,600}", "the value of 'grid', {chunk_size=[300,600}, is not a valid TOML table "
                                               "(Unclosed array): write arrays as [10, 20]"),
    ("fixed_chars,grid={chunk_size=[300,600]", "is not a valid TOML table (Unclosed inline table): "),
    ("langchain_recursive,separators=[a,b]", "the value of 'separators', [a,b], is not a valid TOML array "
                                             "(Invalid value): write arrays as [10, 20] or [\"a\", \"b\"]"),
])
def test_a_mistyped_grid_or_array_on_the_command_line_says_it_is_not_valid_toml(option, fragment):
    """A bracket left open in `-s 'fixed_chars,grid={chunk_size=[300,600}'` was read as a string,
    and the error said the grid must be a table, showing the string, not what was wrong with it."""
    result = CliRunner().invoke(app, ["run", "-s", option, "--restarts", "2", "--no-progress"])
    assert result.exit_code == 1
    assert f"error: --segmenter '{option}': " in result.stderr and fragment in result.stderr, result.stderr


@pytest.mark.parametrize("table, message", [
    ('grid = [10, 20]', r"grid must be a table of parameter -> list of values"),
    ('grid = {}', r"grid must be a table"),
    ('grid = { w = 10 }', r"grid w must be a non-empty list of values to try .*received 10"),
    ('grid = { w = [] }', r"grid w must be a non-empty list"),
    ('grid = { w = [10, 20, 10] }', r"grid w lists 10 twice"),
    ('w = 5\ngrid = { w = [10, 20] }', r"sets 'w' both as a parameter \(5\) and in its grid \(\[10, 20\]\)"),
    ('grid = { segmenter = ["c99", "u00"] }', r"grid varies 'segmenter'"),
])
def test_a_malformed_grid_is_refused_naming_its_table(tmp_path, table, message):
    path = _write(tmp_path, f'[segmenters.tt]\nsegmenter = "texttiling"\n{table}\n')
    with pytest.raises(InvalidParameterError, match=r"exp.toml: \[segmenters.tt\] " + message):
        load_config(path)


def test_a_grid_point_named_twice_is_refused_naming_both_tables(tmp_path):
    path = _write(tmp_path, '[segmenters.tt]\nsegmenter = "texttiling"\ngrid = { w = [10, 20] }\n'
                            '[segmenters."tt,w=20"]\nsegmenter = "texttiling"\nw = 20\n')
    with pytest.raises(InvalidParameterError, match=r"\[segmenters.tt,w=20\] makes the configuration 'tt,w=20', "
                                                    r"which .*\[segmenters.tt\] already names"):
        load_config(path)


def test_an_unknown_grid_parameter_names_the_table_and_the_point(tmp_path):
    path = _write(tmp_path, '[segmenters.tt]\nsegmenter = "texttiling"\ngrid = { wx = [10, 20] }\n')
    with pytest.raises(InvalidParameterError, match=r"exp.toml: \[segmenters.tt\] \(grid point 'tt,wx=10'\): "
                                                    r".*no parameter 'wx'; did you mean 'w'"):
        run_experiment(load_config(path), progress=False)
    flagged = with_overrides(load_config(path), segmenters=["texttiling,grid={wx=[1]}"])
    with pytest.raises(InvalidParameterError, match=r"--segmenter 'texttiling' \(grid point 'texttiling,wx=1'\)"):
        run_experiment(flagged, progress=False)


def test_string_values_label_as_the_command_line_would_read_them(tmp_path):
    path = _write(tmp_path, '[segmenters.c99]\ngrid = { n_segments = ["reference", 4], similarity = ["a b"] }\n')
    assert list(load_config(path).segmenters) == ['c99,n_segments=reference,similarity="a b"',
                                                  'c99,n_segments=4,similarity="a b"']


def test_the_readme_grid_example_varies_parameters_that_change_the_boundaries():
    """The README's example grid is what a reader copies to tune TextTiling: each of its points
    must segment differently. It varied smoothing_rounds, which TextTiling accepts and ignores
    (as nltk does), so its six configurations were three, each twice."""
    import re
    from pathlib import Path

    try:
        import tomllib
    except ImportError:  # Python 3.10: the backport pyproject.toml installs there
        import tomli as tomllib

    from stability import get_segmenter
    from stability.config import expand_grid
    from stability.demo import demo_corpus

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    example = re.search(r"\(`(grid = \{[^`]*\})` in `\[segmenters\.texttiling\]`", readme)
    assert example, "the README's grid example for texttiling was not found"
    grid = tomllib.loads(example.group(1))
    points = expand_grid("texttiling", grid, "README")
    documents = demo_corpus(n_documents=4)
    outputs = {label: tuple(tuple(get_segmenter("texttiling", **{k: v for k, v in spec.items() if k != "segmenter"})(
        doc.units)) for doc in documents) for label, spec in points.items()}
    assert len(points) == 6 and len(set(outputs.values())) == len(points), outputs


def test_grid_from_python_labels_and_segments_as_the_command_line_does():
    """stability.grid: the grids of configs and -s, from Python (before it, a Python user built
    the points by hand, labelled otherwise than the command line and the results files)."""
    from stability import evaluate, get_segmenter, grid
    from stability.config import _expand_grids, segmenter_option
    from stability.demo import demo_corpus

    points = grid("texttiling", {"w": [10, 20], "k": range(4, 7, 2)}, cutoff_policy="LC")
    expanded, _ = _expand_grids(dict([segmenter_option("texttiling,cutoff_policy=LC,grid={w=[10,20],k=[4,6]}")]),
                                lambda label: label)
    assert list(points) == list(expanded)
    assert all(points[label].get_params() == get_segmenter("texttiling", **{k: v for k, v in spec.items()
                                                                             if k != "segmenter"}).get_params()
               for label, spec in expanded.items())
    documents = demo_corpus(n_documents=2)
    ours = evaluate(points, documents, n_restarts=3, progress=False)
    by_hand = evaluate({label: get_segmenter("texttiling", **{k: v for k, v in spec.items() if k != "segmenter"})
                        for label, spec in expanded.items()}, documents, n_restarts=3, progress=False)
    assert [[r.f1 for r in ours.documents[label]] for label in points] == \
           [[r.f1 for r in by_hand.documents[label]] for label in points]


def test_grid_from_python_refuses_what_a_config_grid_refuses():
    from stability import InvalidTypeError, grid

    with pytest.raises(InvalidParameterError, match="grid point 'fixed_chars,chunk_size=0': chunk_size must be"):
        grid("fixed_chars", {"chunk_size": [0, 100]})
    with pytest.raises(InvalidParameterError, match="has no parameter 'chunk_sizes'; did you mean 'chunk_size'"):
        grid("fixed_chars", {"chunk_sizes": [100]})
    with pytest.raises(InvalidParameterError, match="sets 'chunk_size' both as a parameter"):
        grid("fixed_chars", {"chunk_size": [100]}, chunk_size=200)
    with pytest.raises(InvalidParameterError, match="lists 100 twice"):
        grid("fixed_chars", {"chunk_size": [100, 100]})
    with pytest.raises(InvalidTypeError, match="values must be a mapping"):
        grid("fixed_chars", [100, 200])


def test_html_lets_a_grid_label_break_after_its_commas(tmp_path):
    """A grid label repeats every fixed parameter; unbroken, it widened the HTML table's sticky
    first column to its whole length."""
    from stability.reporting import render

    experiment = with_overrides(load_config(_write(tmp_path, "")), segmenters=["texttiling,k=10,grid={w=[6,12]}"])
    page = render(run_experiment(experiment, progress=False), "html")
    # the cell's text, its break opportunities kept (a punctuation mark is glued to the character
    # before it in a span since f2615c7, so that no line starts with it)
    cells = [re.sub(r"<(?!wbr>)[^>]*>", "", cell) for cell in re.findall(r'<th scope="row" class="l">(.*?)</th>', page)]
    assert "texttiling,<wbr>k=10,<wbr>w=6" in cells


def test_the_chunkers_config_runs_the_readme_choice_of_a_chunker_and_its_size(tmp_path):
    """The README's way of choosing a chunker and its size (two chunkers on a grid of sizes, topic
    segmenters as a yardstick, the layout control, the reference metrics that can rank the
    chunkers) was a command line only: a RAG user looking in configs/ for a file to copy found none.
    configs/chunkers.toml holds it, on the demo corpus; --corpus points it at one's documents."""
    from pathlib import Path

    from stability.demo import demo_corpus
    from stability.readers import write_jsonl

    path = Path(__file__).resolve().parents[1] / "configs" / "chunkers.toml"
    experiment = load_config(path)
    assert list(experiment.build_segmenters()) == [
        *(f"langchain_recursive,chunk_size={size}" for size in (250, 500, 1000)),
        *(f"semchunk,chunk_size={size}" for size in (40, 80, 160)), "c99", "u00"]
    assert experiment.run["layout_control"] is True and experiment.metrics["names"] == [
        "f1_1", "f1_1_corrected", "boundary_similarity", "pk"]
    write_jsonl(demo_corpus()[:2], tmp_path / "mine.jsonl")
    mine = with_overrides(experiment, corpus=str(tmp_path / "mine.jsonl"), n_restarts=2, out=str(tmp_path / "out"))
    result = run_experiment(mine, progress=False)
    assert result.summary["semchunk,chunk_size=80"].layout_only and not result.summary["c99"].layout_only
    assert "f1_1" in result.summary["c99"].reference
    assert "f1_1_corrected" in result.summary["c99"].reference  # how much of a small chunk size's F1 is chance
