"""The reporting package: formats discovered from their modules, every command in every format."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from stability import InvalidParameterError, InvalidTypeError, MissingDependencyError, evaluate, get_segmenter
from stability.catalogue import HEADLINE, STABILITY
from stability.cli import app
from stability.config import load_config
from stability.plots import nice_ticks, svg_scatter
from stability.registry import describe_segmenters
from stability.reporting import formats as formats_package
from stability.reporting import format_module, formats_available, markdown_table, render
from stability.reporting.corpus import FAILURE_ROWS
from stability.scoring import score_files
from stability.summary import few_boundaries, many_boundaries

from conftest import topical_document
from stability import Document

BUILT_IN = ("table", "md", "csv", "json", "html")


def topical_corpus(seed: int, n: int, n_topics: int = 4, prefix: str = "d") -> list[Document]:
    """``n`` generated documents with one reference each (conftest.topical_document)."""
    docs = []
    for i in range(n):
        units, reference = topical_document(seed + i, n_topics=n_topics)
        docs.append(Document(f"{prefix}{i}", tuple(units), references=(tuple(reference),)))
    return docs


@pytest.fixture(scope="module")
def corpus_result():
    return evaluate({"even": "even", "none": "none"}, topical_corpus(400, 2, 3), n_restarts=3, progress=False)


@pytest.fixture(scope="module")
def score_result(tmp_path_factory):
    folder = tmp_path_factory.mktemp("score")
    (folder / "ref.jsonl").write_text('{"id": "a", "masses": [3, 4, 2]}\n{"id": "b", "boundaries": [5], "n_units": 10}\n')
    (folder / "hyp.jsonl").write_text('{"id": "a", "masses": [2, 6, 1]}\n{"id": "b", "boundaries": [5], "n_units": 10}\n')
    return score_files(folder / "ref.jsonl", folder / "hyp.jsonl", k=2)


@pytest.mark.parametrize("fmt, options, error, fragment", [
    # these raised TypeError from inside the format, or were read as true, or drew a cut table
    ("table", {"width": "80"}, InvalidTypeError, "width must be None or an integer; received str '80'"),
    ("table", {"width": 5}, InvalidParameterError, "width must be None or an integer >= 20; received 5"),
    ("table", {"color": "no"}, InvalidTypeError, "color must be true or false"),
    ("md", {"documents": "yes"}, InvalidTypeError, "documents must be true or false; received str 'yes'"),
    ("md", {"compact": 1}, InvalidTypeError, "compact must be true or false"),
    ("md", {"max_strips": -1}, InvalidParameterError, "max_strips must be an integer >= 0"),
    ("md", {"width": 80}, InvalidParameterError, "format 'md' has no option 'width'. Its options: none"),
    ("table", {"widht": 80}, InvalidParameterError, "format 'table' has no option 'widht'; did you mean 'width'?"),
])
def test_render_checks_its_options_and_names_them(corpus_result, fmt, options, error, fragment):
    with pytest.raises(error, match=re.escape(fragment)):
        render(corpus_result, fmt, **options)


def test_formats_are_discovered_from_their_modules():
    assert formats_available() == BUILT_IN
    for name in BUILT_IN:
        module = format_module(name)
        assert module.NAME == name and callable(module.render) and module.EXTENSION
    with pytest.raises(InvalidParameterError, match="format must be one of table, md, csv, json, html"):
        format_module("pdf")


THROWAWAY = '''
NAME = "shout"
EXTENSION = "txt"
ORDER = 50

def render(report, *, details=False):
    return "\\n".join(s.title.upper() for s in report.tables(details))
'''


@pytest.fixture
def throwaway_format(tmp_path, monkeypatch):
    """A format that exists only as one module in a folder added to the formats package."""
    folder = tmp_path / "extra_formats"
    folder.mkdir()
    (folder / "shout.py").write_text(textwrap.dedent(THROWAWAY))
    monkeypatch.setattr(formats_package, "__path__", [*formats_package.__path__, str(folder)])
    yield "shout"
    import sys

    sys.modules.pop(f"{formats_package.__name__}.shout", None)


def test_a_new_format_is_one_module(throwaway_format, corpus_result, score_result, tmp_path):
    assert formats_available() == BUILT_IN + ("shout",)  # ORDER 50: after the built-in ones
    assert render(corpus_result, "shout").startswith("STABILITY TEST: 2 DOCUMENTS")
    assert render(score_result, "shout") == "REFERENCE METRICS: 2 DOCUMENTS"
    config = tmp_path / "exp.toml"
    config.write_text("[corpus]\ndemo = true\n[output]\nformats = ['shout']\n")
    assert load_config(config).output["formats"] == ["shout"]  # config validation sees it
    result = CliRunner().invoke(app, ["segmenters", "--report", "shout"])  # and the CLI
    assert result.exit_code == 0 and result.stdout.startswith("SEGMENTERS (USE WITH")
    bad = CliRunner().invoke(app, ["segmenters", "--report", "pdf"])
    assert bad.exit_code == 2 and "shout" in bad.output


@pytest.mark.parametrize("fmt", BUILT_IN)
def test_every_command_reaches_every_format(fmt, corpus_result, score_result):
    for result in (corpus_result, score_result, describe_segmenters()):
        assert render(result, fmt).strip()


def test_score_report_in_every_format_carries_the_numbers(score_result):
    # metrics-peers.md section 2.3: masses [3,4,2] vs [2,6,1] at k=2 -> pk = 3/7 = 0.4286
    assert "| a | " in render(score_result, "md") and "0.4286" in render(score_result, "md")
    rows = {r["document"]: r for r in csv.DictReader(io.StringIO(render(score_result, "csv")))}
    assert float(rows["a"]["ref_pk"]) == pytest.approx(3 / 7)
    assert list(rows) == ["a", "b"]  # documents only: a "mean" row would be read as a document
    payload = json.loads(render(score_result, "json"))
    assert payload["documents"]["b"]["pk"] == 0.0 and payload["mean"]["pk"] == pytest.approx(3 / 14)
    page = render(score_result, "html")
    assert page.startswith("<!DOCTYPE html>") and "<td>0.4286</td>" in page


def test_segmenters_report_lists_builtins_in_every_format():
    statuses = describe_segmenters()
    data = json.loads(render(statuses, "json"))["segmenters"]
    assert {"c99", "even", "none"} <= {s["name"] for s in data}
    assert "| even | built-in |" in render(statuses, "md")
    assert "<th scope=\"row\" class=\"l\">c99</th>" in render(statuses, "html")


def test_segmenters_without_parameters_get_no_empty_table_of_parameters():
    """``stability segmenters none all`` (or a name mistyped) printed the parameters table with
    its header, no row, and its note on meanings."""
    statuses = describe_segmenters(["none", "all"])
    for fmt in ("table", "md", "html"):
        assert "Parameters and their defaults" not in render(statuses, fmt), fmt
    assert "Parameters and their defaults" in render(describe_segmenters(["none", "c99"]), "md")
    rows = list(csv.DictReader(io.StringIO(render(statuses, "csv"))))  # one table: the columns stay
    assert [row["name"] for row in rows] == ["none", "all"] and rows[0]["parameter"] == ""


def test_a_long_default_is_elided_in_tables_and_whole_in_json():
    statuses = describe_segmenters()
    embed = repr(statuses["embedding"].params["embed"])
    assert len(embed) > 32                                   # an encoder's repr: longer than a cell
    data = {s["name"]: s for s in json.loads(render(statuses, "json"))["segmenters"]}
    assert data["embedding"]["parameters"]["embed"] == embed
    table = render(statuses, "md").split("| **embedding** |", 1)[1].split("| **", 1)[0]  # its group's rows
    md_rows = [line for line in table.splitlines() if line.startswith("| embed |")]
    assert [row.split(" | ")[:2] for row in md_rows] == [["| embed", "LSAEncoder(...)"]]  # it was cut mid-word before


def test_parameters_are_grouped_by_segmenter_and_a_shared_meaning_said_once_except_in_machine_formats():
    """Markdown and HTML, as the terminal, name each segmenter once above its parameters and say
    the meaning of C99's tokenizer, stopwords and stem (documented together) on tokenizer's row
    only: each of them printed it whole three times. CSV and JSON keep a row (an entry) per
    parameter, its segmenter and its whole meaning."""
    statuses = describe_segmenters(["c99", "even"])
    meaning = statuses["c99"].meanings["tokenizer"]
    assert statuses["c99"].meanings["stopwords"] == statuses["c99"].meanings["stem"] == meaning  # one numpydoc entry
    md = render(statuses, "md").split("### Parameters and their defaults", 1)[1]
    lines = [line for line in md.splitlines() if line.startswith("| ")]
    assert lines[0] == "| parameter | default | meaning |"
    assert lines[1] == "| **c99** |  |  |" and lines.count("| **even** |  |  |") == 1
    assert "| stopwords | None | See \\`tokenizer\\`. |" in lines and "| stem | True | See \\`tokenizer\\`. |" in lines
    assert md.count("Preprocessing (\\`Preprocessor\\`)") == 1
    page = render(statuses, "html")
    assert '<tbody><tr><th scope="rowgroup" colspan="3" class="l"><b>c99</b></th></tr>' in page
    assert '<th scope="row" class="l">stem</th><td class="l">True</td><td class="l">See `tokenizer`.</td>' in page
    assert page.count("Preprocessing (`Preprocessor`)") == 1
    rows = {(row["name"], row["parameter"]): row for row in csv.DictReader(io.StringIO(render(statuses, "csv")))}
    plain = rows[("c99", "tokenizer")]["meaning"]
    assert plain.startswith("Preprocessing (`Preprocessor`)") and len(plain) > 200  # whole, not a first sentence
    assert rows[("c99", "stopwords")]["meaning"] == rows[("c99", "stem")]["meaning"] == plain
    assert rows[("even", "n_segments")]["meaning"].startswith("Number of segments")
    data = {s["name"]: s for s in json.loads(render(statuses, "json"))["segmenters"]}
    assert data["c99"]["meanings"]["stopwords"] == data["c99"]["meanings"]["stem"] == plain


def test_row_groups_are_checked_and_rendered_by_every_format():
    """A section's row groups (Section.row_groups): spans adding up to its rows, a single key
    column to hold their titles, and data saying each row's group for the machine formats."""
    from stability.reporting import Report, Section

    data = (["segmenter", "parameter", "default"], [["texttiling", "w", "20"], ["texttiling", "k", "10"], ["even", "n", "3"]])
    rows = [row[1:] for row in data[1]]
    for spans, keys, carried, what in (([("texttiling", 2)], 1, data, "adding up to 3 rows"),
                                     ([("texttiling", 3), ("even", 0)], 1, data, "spans of at least one row"),
                                     ([("texttiling", 2), ("even", 1)], 2, data, "keys=1"),
                                     ([("texttiling", 2), ("even", 1)], 1, None, "and with data")):
        with pytest.raises(InvalidParameterError, match=re.escape(what)):
            Section("t", ["parameter", "default"], rows, keys=keys, data=carried, row_groups=spans)
    section = Section("Parameters", ["parameter", "default"], rows, align="Ll", data=data,
                      row_groups=[("texttiling", 2), ("even", 1)])
    report = Report("r", [section])
    text = render(report, "table", width=40)
    assert "│ texttiling │         │\n│   w        │ 20      │\n│   k        │ 10      │\n├" in text, text
    assert "┤\n│ even       │         │\n│   n        │ 3       │\n└" in text, text
    assert "| **texttiling** |  |\n| w | 20 |\n| k | 10 |\n| **even** |  |\n| n | 3 |" in render(report, "md")
    assert render(report, "html").count("<tbody>") == 2
    assert list(csv.reader(io.StringIO(render(report, "csv")))) == [data[0], *data[1]]
    assert json.loads(render(report, "json"))["sections"][0]["row_groups"] == [["texttiling", 2], ["even", 1]]


def test_columns_under_others_are_checked_and_stacked_in_every_table_alike():
    """Section.under: a column the terminal prints under another's (a key's flag under the key)
    where a table would leave its prose narrower than it reads best at, and then in every table of
    the report that has such a column, so that a listing keeps one layout; the other formats, and a
    terminal with the room, keep every column."""
    from stability.reporting import Report, Section
    from stability.reporting.formats.table import stacked

    header = ["key", "type", "flag", "meaning"]
    rows = [["seed", "int", "--seed", "The seed of the run: restart r of a document always gets the same permutation."],
            ["block_size", "int", "", "Documents read at a time."]]
    expected = "a mapping of column indices (0 to 3) to the column each is printed under"
    for under, extra in (({2: 3}, {}), ({0: 2}, {}), ({2: 0, 0: 1}, {"keys": 0}), ({2: 0}, {"drop_order": (2,)}),
                         ({4: 0}, {}), ({2: 2}, {})):
        with pytest.raises(InvalidParameterError, match=re.escape(expected)):
            Section("t", header, rows, align="LLLl", prose={3: 40}, under=under, **extra)
    long = Section("[run]", header, rows, align="LLLl", prose={3: 40}, under={2: 0}, legend={"flag": "(its option)"})
    short = Section("[output]", header, [["dir", "str", "--out", "Folder."]], align="LLLl", prose={3: 40}, under={2: 0})
    report = Report("keys", [long, short])
    narrow, wide = render(report, "table", width=60), render(report, "table", width=120)
    for text, flags in ((narrow, ["│   --seed ", "│   --out "]), (wide, ["│ --seed │", "│ --out │"])):
        assert all(flag in text for flag in flags), text  # both tables alike, though [output] fits side by side
        assert text.count("Columns: flag (its option).") == 1, text
        assert max(map(len, text.splitlines())) <= (60 if text is narrow else 120)
    assert re.findall(r"┃ (key|  flag) +┃ (?:type)? +┃", narrow) == ["key", "  flag"] * 2, narrow  # the header likewise
    assert "│ block_size │ int  │ Documents" in narrow  # an empty flag adds no line
    assert "| key | type | flag | meaning |\n|---|---|---|---|\n| seed | int | --seed |" in render(report, "md")
    assert render(report, "html").count('<td class="word l">--out</td><td class="l">Folder.</td>') == 1
    grouped = stacked(Section("t", header, rows, align="LLLl", prose={3: 40}, under={2: 0},
                              groups=[("name", 1), ("value", 3)], markup=(3,)))
    assert (grouped.groups, grouped.markup, grouped.prose, grouped.align) == ([("name", 1), ("value", 2)], [2], {2: 40}, "LLl")


def test_per_document_table_has_the_headline_and_the_gap(corpus_result):
    rows = list(csv.DictReader(io.StringIO(render(corpus_result, "csv", documents=True))))
    gap = STABILITY["shuffle_gap"].column()
    for row, r in zip(rows, [r for docs in corpus_result.documents.values() for r in docs]):
        assert float(row[HEADLINE.column()]) == pytest.approx(HEADLINE.value(r))
        assert float(row[gap]) == pytest.approx(r.f1 - r.shuffle_f1)


def test_markdown_table_escapes_pipes_and_aligns():
    # hand-written expectation: one left and one right column, the pipe in a cell escaped
    assert markdown_table(["a", "b"], [["x|y", "1"]], align="lr") == "| a | b |\n|---|---:|\n| x\\|y | 1 |"


def test_results_have_short_reprs_and_rows(corpus_result):
    text = repr(corpus_result)
    assert text.startswith(f"CorpusResult(2 segmenters x 2 documents, 0 failures; {HEADLINE.name}: even 0.000")
    def fails_on_one_unit(units):
        if len(units) == 1:
            raise ValueError("too short")
        return []

    single = evaluate({"f": fails_on_one_unit}, [["a"] * 6, ["x"]], n_restarts=2, progress=False)
    assert repr(single).startswith("CorpusResult(1 segmenter x 1 document, 1 failure;")  # not "1 segmenters"
    one = corpus_result.documents["even"][0]
    assert len(repr(one)) < 300 and "array" not in repr(one) and "n_boundaries=" in repr(one)
    assert repr(one.shuffle).startswith("RestartScores(scope='shuffle'")
    rows = corpus_result.to_rows()
    assert len(rows) == 4 and rows[0]["segmenter"] == "even" and rows[0]["document"] == "d0"
    assert rows[0]["f1"] == one.f1 and rows[0]["ref_f1"] == one.reference_metrics["f1"]  # no name clash
    assert set(STABILITY) <= set(rows[0])
    # the documents' rows hold what documents.csv holds (its flags as booleans): the intervals over
    # restarts and each boundary's confidence, which a data frame of them lacked
    documents_csv = next(csv.reader(io.StringIO(render(corpus_result, "csv", documents=True))))
    assert set(documents_csv) - {"flags"} <= set(rows[0]), set(documents_csv) - set(rows[0])
    assert (rows[0]["count_corrected_ci_low"], rows[0]["count_corrected_ci_high"]) == one.headline_ci
    assert (rows[0]["f1_ci_low"], rows[0]["f1_ci_high"]) == one.f1_ci
    assert rows[0]["boundary_confidence"] == one.boundary_confidence and "boundary_times" not in rows[0]
    timed = [Document("t", tuple(f"u{i}" for i in range(9)), times=[(2.0 * i, 2.0 * i + 1) for i in range(9)]),
             Document("plain", tuple(f"u{i}" for i in range(9)))]
    run = evaluate({"thirds": lambda units: [3, 6]}, timed, n_restarts=2, progress=False)
    assert [r["boundary_times"] for r in run.to_rows()] == [[6.0, 12.0], None]  # the units' starts, in seconds
    means = {r["segmenter"]: r for r in corpus_result.to_rows("segmenters")}
    assert means["even"]["ref_pk_mean"] == pytest.approx(sum(r.reference_metrics["pk"] for r in corpus_result.documents["even"]) / 2)
    # the segmenters' rows are report.csv's table, with Python values (not a second declaration of it)
    table = list(csv.reader(io.StringIO(render(corpus_result, "csv"))))
    assert [list(row) for row in corpus_result.to_rows("segmenters")][0] == table[0]
    for record, line in zip(corpus_result.to_rows("segmenters"), table[1:]):
        assert isinstance(record["params"], dict) and record["f1_ci_low"] <= record["f1_mean"] <= record["f1_ci_high"]
        assert [("" if v is None else json.dumps(v, sort_keys=True) if isinstance(v, dict) else str(v))
                for v in record.values()] == line
    with pytest.raises(InvalidParameterError, match="level must be one of"):
        corpus_result.to_rows("documentz")


def test_to_frame_needs_pandas_or_gives_a_frame(corpus_result, monkeypatch):
    try:
        import pandas  # noqa: F401
    except ImportError:
        pass
    else:
        assert corpus_result.to_frame().shape[0] == 4
    # without pandas: the project's error for a missing optional package (it was a bare ImportError)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(MissingDependencyError, match="to_rows"):
        corpus_result.to_frame()


def _ticks(svg: str) -> list[float]:
    return [float(v) for v in re.findall(r'font-size="10">(-?[\d.]+)</text>', svg)]


@given(st.floats(-50, 50), st.floats(0.001, 100))
def test_nice_ticks_are_round_and_cover_the_range(low, span):
    ticks = nice_ticks(low, low + span)
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** np.floor(np.log10(step) + 1e-9)
    assert round(mantissa, 6) in (1, 2, 2.5, 5)
    assert ticks[0] <= low + 1e-9 * step and ticks[-1] >= low + span - 1e-9 * step and 2 <= len(ticks) <= 7
    assert np.allclose(np.diff(ticks), step)


def test_scatter_has_round_ticks_a_diagonal_and_shows_coincident_points():
    points = [(0.03, 0.91, "c99", "c99"), (1.0, 1.0, "even", "even"), (1.0, 1.0, "none", "none")]
    svg = svg_scatter(points, title="t", x_label="x", y_label="y", labels=True, tooltips=True, diagonal=True)
    assert _ticks(svg) and all(round(v / 0.2, 9).is_integer() for v in _ticks(svg))  # 0, 0.2, ... 1
    assert 'class="diagonal"' in svg
    centres = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="4.0"', svg)
    assert len(centres) == 3 and len(set(centres)) == 3  # even and none no longer hide each other
    assert ">even, none</text>" in svg  # one label naming both


def _shows_mark(run, label: str, mark: str, rule: str, boundaries: float, median: float) -> None:
    """The mark as users see it: the result line, the flags column, the note and the JSON payload."""
    table = render(run, "table", width=200)
    assert f"{label}: {mark}" in table.splitlines()[0]  # the result line
    assert re.search(rf"│ {label}\s.*{mark}", table)
    assert f"{mark}: boundaries a document {rule} the median" in " ".join(table.split())
    marks = json.loads(render(run, "json"))["headline"]
    assert marks[mark.replace(" ", "_")] == {label: {"boundaries": boundaries, "median": median}}


def test_a_segmenter_placing_far_fewer_boundaries_is_marked():
    # C99 told to find 2 segments places 1 boundary; the others place about n_topics - 1 = 5 or more.
    docs = topical_corpus(410, 3, n_topics=6)
    run = evaluate({"c99": "c99", "u00": "u00", "two": get_segmenter("c99", n_segments=2), "even": "even"}, docs, n_restarts=4,
                   progress=False)
    (label, (mean, median)), = few_boundaries(run.summary).items()
    assert label == "two" and mean == 1.0 and median > 2 * mean  # `even` is content-blind: not compared
    _shows_mark(run, "two", "few boundaries", "under 0.5 times", 1.0, median)
    # with a single other content-aware segmenter nothing is marked: it may be the one placing too many
    pair = evaluate({"two": get_segmenter("c99", n_segments=2), "c99": "c99", "even": "even"}, docs, n_restarts=2,
                    progress=False)
    assert few_boundaries(pair.summary) == {} and "few boundaries" not in render(pair, "table", width=200)


def test_a_segmenter_placing_far_more_boundaries_is_marked():
    # C99 told to find 24 segments places 23 boundaries; the others place about n_topics - 1 = 5.
    docs = topical_corpus(410, 3, n_topics=6)
    run = evaluate({"c99": "c99", "u00": "u00", "dense": get_segmenter("c99", n_segments=24), "none": "none"}, docs,
                   n_restarts=4, progress=False)
    (label, (mean, median)), = many_boundaries(run.summary).items()
    assert label == "dense" and mean == 23.0 and mean > 2 * median  # `none` is content-blind: not compared
    assert few_boundaries(run.summary) == {}  # one outlier does not make the two others look sparse
    _shows_mark(run, "dense", "many boundaries", "over 2 times", 23.0, median)
    assert "few boundaries" not in render(run, "table", width=200)


def test_the_title_of_an_adaptive_run_gives_the_restarts_actually_run():
    docs = topical_corpus(420, 3, n_topics=4)
    run = evaluate({"c99": "c99", "even": "even"}, docs, n_restarts=60, ci_width=0.2, ci_score="headline",
                   min_restarts=10, check_every=10, progress=False)
    ran = [r.n_restarts for rs in run.documents.values() for r in rs]
    assert min(ran) == 10  # `even` is content-blind: its headline interval is [0, 0] at once
    title = " ".join(render(run, "table", width=300).split())
    assert f"10 to {max(ran)} restarts (adaptive stopping at a headline interval of 0.2)" in title
    fixed = evaluate({"even": "even"}, docs, n_restarts=5, progress=False)
    assert "Stability test: 3 documents, 5 restarts, seed 0" in render(fixed, "table", width=300)


def always_fails(units):
    raise RuntimeError("boom")


def test_a_segmenter_failing_on_every_document_is_listed_apart_from_the_ranking():
    run = evaluate({"fails": always_fails, "c99": "c99", "even": "even"}, topical_corpus(430, 2, 3), n_restarts=3,
                   progress=False)
    assert run.summary["fails"].n_documents == 0 and run.summary["fails"].n_failed == 2
    html = render(run, "html")
    for text in (" ".join(render(run, "table", width=300).split()), render(run, "md"), html):
        head = text[text.index("stability (count-aware"):]
        line = head[:head.index("content-blind") + len("content-blind")]
        assert "fails n/a" not in line and "> fails" not in line
        assert "; fails: failed on every document; even: content-blind" in line
        assert line.count(" [") == 2  # the title's [95% CI], then c99 alone, ranked with its interval


def test_segmenters_with_the_same_printed_headline_are_joined_by_equals():
    """The ranked line said "c99 0.91 > again 0.91" for two identical segmenters."""
    from stability.reporting.corpus import ranked_line

    run = evaluate({"c99": "c99", "again": "c99", "u00": "u00"}, topical_corpus(431, 2, 3), n_restarts=3, progress=False)
    line = ranked_line(run)
    c99, again = run.summary["c99"].macro[HEADLINE.name].mean, run.summary["again"].macro[HEADLINE.name].mean
    assert c99 == again
    assert re.search(r"(c99|again) [-0-9.]+ \[[^]]*\] = (again|c99) ", line), line
    assert line.count(" = ") == 1 and line.count(" > ") == 1, line


def test_the_failures_table_says_initial_or_the_stream_and_restart():
    from faults import Fault, corpus

    docs = corpus("bad", "good", "late")
    run = evaluate({"early": Fault("raise"), "later": Fault("raise", marker="late", when="restart")}, docs,
                   n_restarts=3, progress=False)
    early, later = run.failures
    assert (early.restart, early.stream, later.restart, later.stream) == (None, None, 0, "within")
    text = render(run, "md")
    assert "| early | bad | initial | ValueError: bad document |" in text
    assert "| later | late | within 0 | ValueError: bad document |" in text
    assert "None" not in text[text.index("### Failures"):]


def fails_on_long(units):
    if len(units) > 9:
        raise ValueError(f"too long: {len(units)} units")
    return [3, 6]


@pytest.mark.parametrize("n_failed", [FAILURE_ROWS, FAILURE_ROWS + 15])
def test_a_terminal_report_lists_the_first_few_failures_and_says_where_the_rest_are(n_failed):
    """A segmenter failing on 5,000 documents printed a Failures row each in the terminal (and in
    report.txt), 12,000 lines under the summary; the other formats list them all."""
    docs = [{"id": f"doc{i:02d}", "units": ["u"] * (10 + i)} for i in range(n_failed)] + \
        [{"id": "short", "units": ["u"] * 9}]
    run = evaluate({"fails": fails_on_long}, docs, n_restarts=2, progress=False)
    assert len(run.failures) == n_failed
    table = render(run, "table", width=100)
    failures = table[table.index("Failures"):]
    shown = min(n_failed, FAILURE_ROWS)
    assert [f"doc{i:02d}" in failures for i in range(n_failed)] == [i < shown for i in range(n_failed)]
    cut = (f"The first {FAILURE_ROWS} of {n_failed} rows are shown (stability.reporting.render(result, \"html\") or "
           '"md" lists them all).')  # in Python's words; the command's, --report-format md or html
    assert (cut in " ".join(table.split())) == (n_failed > FAILURE_ROWS)
    written = render(run, "table", width=100, rerun="stability report out")
    assert ("(stability report out --report-format md lists them all)" in written) == (n_failed > FAILURE_ROWS)
    for text in (render(run, "md"), render(run, "html"), render(run, "json")):
        assert all(f"too long: {10 + i} units" in text for i in range(n_failed))


def test_an_interval_over_one_document_is_not_shown():
    docs = topical_corpus(440, 2, 3)
    one = evaluate({"c99": "c99"}, docs[:1], n_restarts=3, progress=False)
    stat = one.summary["c99"].macro[HEADLINE.name]
    assert stat.n == 1 and np.isnan(stat.ci).all() and np.isnan(stat.std)  # no spread from one value
    macro = json.loads(render(one, "json"))["summary"]["c99"]["macro"][HEADLINE.name]
    assert macro["ci"] == [None, None] and macro["std"] is None
    assert f"{stat.mean:.2f} (n/a)" in render(one, "table", width=300, compact=False)
    line = render(one, "md").splitlines()[0]
    assert line == f"**{HEADLINE.title} [95% CI]: c99 {stat.mean:.2f} n/a**"
    assert "[n/a" not in render(one, "md") and "[n/a" not in render(one, "table", width=300)
    two = evaluate({"c99": "c99"}, docs, n_restarts=3, progress=False)  # two documents: an interval
    low, high = two.summary["c99"].macro[HEADLINE.name].ci
    assert f"c99 {two.summary['c99'].macro[HEADLINE.name].mean:.2f} [{low:.2f}, {high:.2f}]" in render(two, "md")


def test_a_boundary_never_found_again_is_drawn_and_long_titles_fit():
    from types import SimpleNamespace

    from stability.plots import _title_text
    from stability.reporting.figures import svg_strip

    r = SimpleNamespace(segmentation=SimpleNamespace(n_units=20), document="d", spurious_boundaries={},
                        boundary_confidence={5: 0.0, 12: 0.5}, boundary_times=None)
    strip = svg_strip(r, [5])
    assert 'viewBox="0 0 640 70"' in strip                       # it scales with the page
    assert strip.count("<rect") == 2 and "confidence 0.00 (never found again)" in strip
    assert 'stroke="#1f77b4"' in strip                            # a hollow marker, not a bar of height 0
    assert "textLength" not in _title_text("short", 570)
    long = _title_text("Per document: " + "x" * 80, 570)
    assert 'textLength="560"' in long and 'x="285"' in long       # squeezed into the whole figure, centred


def test_the_ranked_line_names_its_interval_and_a_segmenter_failing_on_some_documents():
    # at a glance a partial failure was only in the flags column and the failures table, and the
    # bracketed interval did not say what it was
    from stability.reporting.corpus import ranked_line

    def sometimes(units):
        if "alpha" in units[0]:
            raise ValueError("boom")
        return [len(units) // 2]

    docs = topical_corpus(432, 3, 3)
    docs = [Document("first", ("alpha " + docs[0].units[0], *docs[0].units[1:])), *docs[1:]]
    run = evaluate({"sometimes": sometimes, "c99": "c99"}, docs, n_restarts=3, progress=False, confidence=0.9)
    line = ranked_line(run)
    assert line.startswith(f"{HEADLINE.title} [90% CI]: ")
    assert "; sometimes: failed on 1 of 3 documents" in line, line


def test_intervals_over_too_few_documents_say_they_cannot_reach_their_level():
    """A run on 3 documents printed `c99 0.94 [0.81, 1.00]` under "95% CI" and nothing more: a
    percentile interval over 3 documents holds the mean at most 75% of the time
    (stability.stats.percentile_coverage_bound). The summary tables now say so; with 6 documents
    the bound (96.9%) is above the level and nothing is said."""
    from stability import evaluate

    def blocks(units):
        return [i for i in range(1, len(units)) if units[i].split()[0] != units[i - 1].split()[0]]

    docs = [Document(f"d{k}", [f"{w} x{(i + k) % 3}" for w in ("apple", "pear", "plum") for i in range(3 + k)])
            for k in range(6)]
    few = evaluate({"blocks": blocks}, docs[:3], n_restarts=4, n_bootstrap=50, progress=False)
    enough = evaluate({"blocks": blocks}, docs, n_restarts=4, n_bootstrap=50, progress=False)
    said = "a percentile bootstrap interval over 3 documents holds the mean at most 75% of the time"
    assert [s.macro[HEADLINE.name].n for s in few.summary.values()] == [3]
    for fmt, options in (("table", {"width": 400}), ("md", {})):
        assert said in " ".join(render(few, fmt, **options).split()), fmt
        assert "holds the mean at most" not in render(enough, fmt, **options), fmt
    assert said in " ".join(render(few, "table", width=400, compact=False).split())  # the full table too
    # without the shuffle control there is no headline, but the F1 column's interval is over 3 documents too
    plain = evaluate({"blocks": blocks}, docs[:3], n_restarts=4, n_bootstrap=50, progress=False, shuffle_control=False)
    assert said in " ".join(render(plain, "md").split())


def test_a_run_without_the_shuffle_control_says_why_its_headline_is_n_a():
    """`shuffle_control = false`: the headline and the gap were n/a in every table, with no word of
    why (the headline's note still explained it as if it had been computed)."""
    docs = topical_corpus(420, 2, 3)
    plain = evaluate("even", docs, n_restarts=2, progress=False, shuffle_control=False)
    said = "n/a: this run had no shuffle control (shuffle_control = false), against which the headline and the gap"
    for fmt, options in (("table", {"width": 400}), ("table", {"width": 400, "compact": False}), ("md", {}),
                         ("html", {})):
        assert said in " ".join(render(plain, fmt, **options).split()), (fmt, options)
    assert "no shuffle control" not in render(evaluate("even", docs, n_restarts=2, progress=False), "md")


def test_a_transcript_s_boundaries_are_given_as_times_in_every_format():
    """A transcript's user thinks in "2:05", not "unit 5": before, every report gave boundaries as
    unit indices only. Each unit of the document starts 25 s after the one before (unit 5 at
    125 s = 2:05); the document without times gets no time."""
    units, reference = topical_document(0, n_topics=3)
    times = tuple((25.0 * k, 25.0 * k + 20) for k in range(len(units)))
    talk = Document("talk", tuple(units), references=(tuple(reference),), times=times)
    plain = Document("plain", tuple(units), references=(tuple(reference),))
    result = evaluate({"even": get_segmenter("even", segment_length=5)}, [talk, plain], n_restarts=2)
    timed, untimed = result.documents["even"]
    assert timed.segmentation.boundaries[:2] == (5, 10)
    assert timed.boundary_times[:2] == (125.0, 250.0) and untimed.boundary_times is None
    data = json.loads(render(result, "json"))["documents"]["even"]
    assert data[0]["boundary_times"][:2] == [125.0, 250.0] and "boundary_times" not in data[1]
    assert type(timed).from_dict(timed.to_dict()).boundary_times == timed.boundary_times
    md = render(result, "md", documents=True)
    header = next(line for line in md.splitlines() if line.startswith("| segmenter | document | units"))
    assert header.endswith("| boundary:confidence | boundary times |")
    row = next(line for line in md.splitlines() if line.startswith("| even | talk |"))
    assert row.split("|")[-2].strip().startswith("2:05 4:10")
    assert next(line for line in md.splitlines() if line.startswith("| even | plain |")).endswith("|  |")
    rows = list(csv.DictReader(io.StringIO(render(result, "csv", documents=True))))
    assert [r["boundary_times"].split()[:2] for r in rows if r.get("document") == "talk"] == [["125.0", "250.0"]]
    assert "<title>boundary 5 at 2:05: confidence" in render(result, "html")


def test_clock_gives_a_negative_time_with_its_sign():
    """Documents may have negative unit times (a recording whose zero is after its start); a
    boundary at -61.5 s is said -1:01. Before, divmod of the negative seconds gave '-1:58:59'."""
    from stability.reporting.model import clock

    assert clock(-61.5) == "-1:01" and clock(-3725.0) == "-1:02:05" and clock(-0.4) == "0:00"


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_a_markdown_cell_stays_on_its_row_whatever_its_line_ends(end):
    """A cell holding a lone carriage return (an error message or a label read from a file with
    old Mac line ends) ended its Markdown row there: CommonMark ends a line at \\r as at \\n."""
    from stability.reporting import Report, Section, render

    text = render(Report("r", [Section("t", ["segmenter", "error"], [["x", f"first{end}second"]], align="Ll")]), "md")
    rows = [line for line in re.split(r"\r\n?|\n", text) if line.startswith("| x ")]
    assert rows == ["| x | first second |"], repr(text)


def _failure_rows(text: str) -> list[tuple[str, str]]:
    """The (segmenter, document) of each row of a terminal report's Failures table."""
    table = text[text.index("Failures"):]
    table = table[:table.index("\n\n")] if "\n\n" in table else table
    cells = [[c.strip() for c in line.split("│")[1:3]] for line in table.splitlines() if line.startswith("│")]
    return [(segmenter, document) for segmenter, document in cells if document and document != "document"]


def _few_and_many(n_rare: int = 1):
    """A run in which ``many`` (``faults:unreadable``, given as a plugin is) fails on each of 21
    documents and ``rare`` (and ``rare2``...: ``n_rare`` segmenters) on the last one only: in
    corpus order, the Failures table lists many's 21 rows before any rare one."""
    from faults import Fault, document

    docs = [document(f"d{i:02d}") for i in range(20)] + [document("late")]
    rare = {f"rare{i + 1 if i else ''}": Fault("raise", marker="late") for i in range(n_rare)}
    return evaluate({"many": "faults:unreadable", **rare}, docs, n_restarts=2, progress=False)


def test_the_failures_a_terminal_lists_come_from_every_segmenter_that_failed():
    """The first 10 rows of the Failures table were all of the segmenter failing most, hiding
    another segmenter's failure; the rows shown are now shared among the segmenters in turn, each
    segmenter's in document order, and the note says so."""
    run = _few_and_many()
    assert [f.segmenter for f in run.failures] == ["many"] * 21 + ["rare"]
    text = render(run, "table", width=120)
    rows = _failure_rows(text)
    assert len(rows) == FAILURE_ROWS
    assert rows == [("many", f"d{i:02d}") for i in range(FAILURE_ROWS - 1)] + [("rare", "late")], rows
    assert (f"{FAILURE_ROWS} of 22 rows are shown, shared among the segmenters: each one's first rows "
            '(stability.reporting.render(result, "html") or "md" lists them all).') in " ".join(text.split())
    for whole in (render(run, "md"), render(run, "html")):  # the other formats list every failure
        assert whole.count("no model for") == 21 and whole.count("bad document") == 1


def test_with_more_failing_segmenters_than_the_cap_each_shows_its_first_failure():
    run = _few_and_many(n_rare=FAILURE_ROWS + 2)
    labels = ["many"] + [f"rare{i + 1 if i else ''}" for i in range(FAILURE_ROWS + 2)]
    rows = _failure_rows(render(run, "table", width=120))
    assert rows == [("many", "d00")] + [(label, "late") for label in labels[1:]], rows
    assert f"{FAILURE_ROWS + 3} of {21 + FAILURE_ROWS + 2} rows are shown" in render(run, "table", width=120)


def test_a_notebook_shows_as_many_failures_as_the_terminal_and_says_where_they_all_are():
    """A plugin failing on 4,000 documents made a notebook's output a row each: the notebook now
    shows the rows the terminal shows, and names the result's ``failures`` and the report
    listing them all."""
    import html

    run = _few_and_many()
    shown = run._repr_html_()
    failures = shown[shown.index("<h4>Failures</h4>"):].split("\n")[0]  # a block a line
    body = failures[failures.index("<tbody>"):failures.index("</table>")]
    assert body.count("<tr>") == FAILURE_ROWS
    assert body.count("no model for") == FAILURE_ROWS - 1 and body.count("bad document") == 1
    note = html.unescape(re.sub("<[^>]+>", "", failures[failures.index("</table>"):]))
    assert f"{FAILURE_ROWS} of 22 rows are shown, shared among the segmenters: each one's first rows" in note
    assert "the result's .failures holds them all" in note and 'stability.reporting.render(result, "html")' in note
    cells = re.findall(r'<th scope="row" class="l">([^<]*)</th><th scope="row" class="l">([^<]*)</th>', body)
    assert cells == _failure_rows(render(run, "table", width=120))  # the terminal's rows: one rule
    # what the note names holds them all
    assert [(f.segmenter, f.document) for f in run.failures] == \
        [("many", f"d{i:02d}") for i in range(20)] + [("many", "late"), ("rare", "late")]
    assert render(run, "html").count("no model for") == 21


def test_without_references_the_headline_note_names_the_command_adding_them_in_plain_text():
    """A run without references points to ``stability report OUT --references FILE`` for the
    Kendall tau table; its note said "`stability report` -R", which a terminal printed with its
    backticks, the option outside them. Rendered from Python, it names the function doing it."""
    from stability.reporting.model import COMMAND_LINE, spelled

    docs = [Document(d.id, d.units) for d in topical_corpus(400, 2, 3)]
    run = evaluate({"even": "even", "none": "none"}, docs, n_restarts=3, progress=False)
    for text in (render(run, "table", width=120), render(run, "md")):
        text = " ".join(text.split())
        assert '(stability.scoring.add_references(result, "FILE") adds a Kendall tau table)' in text
        assert "`" not in text and "--references" not in text
    with spelled(COMMAND_LINE):
        for text in (render(run, "table", width=120), render(run, "md")):
            text = " ".join(text.split())
            assert "(stability report OUT --references FILE adds a Kendall tau table)" in text
            assert "`" not in text


def test_the_terminal_and_markdown_reports_say_what_content_blind_and_non_deterministic_mean():
    """The terminal and Markdown reports showed the flags content-blind and non-deterministic
    without a word of what they mean (layout-only, term-blind and the count marks each had a note;
    only the HTML introduction explained content-blind). Each flag a run has gets one note naming
    the segmenters flagged; a run without them gets none."""
    import random

    from stability import evaluate
    from stability.demo import demo_corpus
    from stability.reporting import render

    rng = random.Random(0)

    def coin(units):  # a new boundary at every call: not reproducible
        return [rng.randrange(1, len(units))] if len(units) > 2 else []

    docs = demo_corpus(n_documents=3)
    result = evaluate({"coin": coin, "even": "even", "c99": "c99"}, docs, n_restarts=3, progress=False)
    assert result.summary["coin"].deterministic is False and result.summary["even"].content_blind
    for fmt in ("table", "md"):
        text = " ".join(render(result, fmt, **({"width": 200} if fmt == "table" else {})).split())
        assert "content-blind (coin, even): the shuffle control (units permuted across the whole document) is as stable" in text
        assert "non-deterministic (coin): two calls on the same document returned different boundaries" in text
        assert text.count("content-blind (") == 1
    clean = " ".join(render(evaluate({"c99": "c99"}, docs, n_restarts=3, progress=False), "table", width=200).split())
    assert "content-blind (" not in clean and "non-deterministic (" not in clean


def test_a_content_blind_segmenter_whose_headline_is_far_from_0_has_the_flag_note_say_why():
    """A length-based chunker cutting at nearly every gap (langchain, 100 characters) never changes
    its output under the within-segment permutations (F1 1) while the shuffle control moves a few of
    its boundaries (shuffle F1 about 0.96): flagged content-blind, its headline is about 0.67, and
    the note must not say "about 0 or below" alone (measured on the demo corpus, 5 restarts)."""
    pytest.importorskip("langchain_text_splitters")
    from stability import evaluate, get_segmenter
    from stability.demo import demo_corpus
    from stability.reporting.corpus import FAR_FROM_ZERO, flag_notes

    label = "chunks of 100"
    result = evaluate({label: get_segmenter("langchain_recursive", chunk_size=100), "even": "even"},
                      demo_corpus()[:4], n_restarts=5, seed=0)
    summary = result.summary[label]
    assert summary.content_blind and summary.macro["count_corrected"].mean >= FAR_FROM_ZERO
    note = " ".join(flag_notes(result))
    mean = f"{summary.macro['count_corrected'].mean:.2f}"
    assert f"content-blind ('{label}', even):" in note
    assert f"here far from 0 ('{label}' {mean}): with a shuffle F1 near 1 the ratio divides by 1 - C" in note
    assert "even 0.00" not in note  # a headline about 0 is not listed
