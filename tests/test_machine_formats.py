"""What the machine formats (CSV, JSON) give a program reading them: every row the tables show,
the same numbers, strict JSON, cells pandas reads as they are."""

from __future__ import annotations

import csv
import io
import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stability import evaluate, get_segmenter
from stability.catalogue import HEADLINE, STABILITY
from stability.cli import app
from stability.registry import describe_segmenters
from stability.reporting import render
from test_reporting import topical_corpus


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_segmenters_csv_has_every_parameter_not_only_the_first_table():
    result = CliRunner().invoke(app, ["segmenters", "--report-format", "csv"])
    assert result.exit_code == 0, result.output
    rows = _csv(result.stdout)
    statuses = describe_segmenters()
    pairs = {(row["name"], row["parameter"]) for row in rows}
    for name, status in statuses.items():  # each default, whole (tables elide long ones)
        for key, value in (status.params or {}).items():
            assert (name, key) in pairs
            assert [row["default"] for row in rows if (row["name"], row["parameter"]) == (name, key)] == [repr(value)]
    assert {row["name"] for row in rows} == set(statuses)  # a segmenter without parameters too
    assert [row["parameter"] for row in rows if row["name"] == "none"] == [""]


@pytest.fixture(scope="module")
def corpus_result():
    """Two segmenters over three documents with references: ``none`` has no boundaries (its
    chance-corrected F1 is undefined: NaN)."""
    return evaluate({"c99": "c99", "none": "none"}, topical_corpus(700, 3), n_restarts=3, progress=False)


def test_documents_csv_has_the_json_numbers_at_full_precision(corpus_result):
    documents = {(d["segmenter"], d["document"]): d
                 for docs in json.loads(render(corpus_result, "json"))["documents"].values() for d in docs}
    rows = _csv(render(corpus_result, "csv", documents=True))
    assert len(rows) == len(documents) == 6
    for row in rows:
        doc = documents[(row["segmenter"], row["document"])]
        assert float(row["f1"]) == doc["f1"] and [float(row["f1_ci_low"]), float(row["f1_ci_high"])] == doc["f1_ci"]
        assert float(row["chance_f1"]) == doc["chance_f1"] and float(row["ref_pk"]) == doc["reference_metrics"]["pk"]
        # undefined: an empty cell, as in the summary CSV (not the text "n/a")
        assert row["corrected_f1"] == ("" if doc["corrected_f1"] is None else repr(doc["corrected_f1"]))
        confidence = {int(b): float(c) for b, c in (pair.split(":") for pair in row["boundary_confidence"].split())}
        assert confidence == {int(b): c for b, c in doc["boundary_confidence"].items()}
    assert {row["corrected_f1"] for row in rows if row["segmenter"] == "none"} == {""}


#: The columns of the CSV reports that are not measures of the catalogue.
NOT_MEASURES = {"segmenter", "params", "n_documents", "n_failed", "content_blind", "deterministic", "count_mark",
                "micro_precision", "micro_recall", "micro_f1", "layout_only",  # report.csv
                "term_blind", "term_blind_share",  # report.csv, when some document was term-blind
                "document", "n_units", "flags", "boundary_confidence", "boundary_times"}  # documents.csv, score


def test_every_csv_names_a_measure_by_its_catalogue_column(corpus_result, tmp_path):
    """The three CSV reports named Pk three ways: ``ref_pk_mean`` (report.csv), ``Pk`` (documents.csv,
    the table's title) and ``pk`` (``stability score``). Each column of a measure is now its
    catalogue column (Measure.column: the name, ``ref_`` for what is computed against references,
    a statistic's suffix), and the same metric has the same root in all three."""
    from stability.catalogue import MULTI_REFERENCE, REFERENCE, STATISTICS
    from stability.comparison import STABILITY_X_AGREEMENT

    measures = [*STABILITY.values(), *REFERENCE.values(), *MULTI_REFERENCE.values(), STABILITY_X_AGREEMENT]
    columns = {m.column(statistic): (m, statistic) for m in measures for statistic in (None, *STATISTICS)}
    assert len(columns) == len(measures) * (1 + len(STATISTICS))  # no two measures share a column

    def measured(header: list[str]) -> dict[str, tuple]:
        strays = [c for c in header if c not in columns and c not in NOT_MEASURES]
        assert not strays, f"columns that are neither a catalogue column nor declared apart: {strays}"
        return {c: columns[c] for c in header if c in columns}

    summary = measured(next(csv.reader(io.StringIO(render(corpus_result, "csv")))))
    documents = measured(next(csv.reader(io.StringIO(render(corpus_result, "csv", documents=True)))))
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "masses": [3, 4, 2]}\n')
    hyp.write_text('{"id": "a", "masses": [2, 6, 1]}\n')
    scored = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "csv"])
    assert scored.exit_code == 0, scored.output
    score = measured(next(csv.reader(io.StringIO(scored.stdout))))
    pk = REFERENCE["pk"]
    assert summary["ref_pk_mean"] == (pk, "mean") and summary["ref_pk_std"] == (pk, "std")
    assert documents["ref_pk"] == score["ref_pk"] == (pk, None)
    # every reported stability score with its four statistics; a document's interval over restarts
    assert {m.column(s) for m in STABILITY.values() if m.report for s in STATISTICS} <= set(summary)
    assert {(HEADLINE, "ci_low"), (HEADLINE, "ci_high"), (STABILITY["f1"], "ci_low")} <= set(documents.values())
    # the score CSV holds the reference metrics, each under its column, none under a stability score's
    assert set(score) == {m.column() for m in REFERENCE.values()}


def test_a_whole_measure_is_an_integer_in_every_csv(corpus_result, tmp_path):
    """A document's window k, GHD or count was written ``3.0`` in documents.csv and in the score
    CSV, while the tables showed ``3``: the catalogue declares them whole (Measure.whole), and CSV
    now writes their per-document values as integers (a mean stays a float)."""
    from stability.catalogue import MULTI_REFERENCE, REFERENCE

    whole = {m.column() for m in [*STABILITY.values(), *REFERENCE.values(), *MULTI_REFERENCE.values()] if m.whole}
    documents = _csv(render(corpus_result, "csv", documents=True, metrics=["pk", "window_k", "ghd"]))
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "masses": [3, 4, 2]}\n{"id": "b", "masses": [5, 5]}\n')
    hyp.write_text('{"id": "a", "masses": [2, 6, 1]}\n{"id": "b", "masses": [4, 6]}\n')
    scored = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "csv",
                                      "--metrics", "pk,window_k,ghd"])
    assert scored.exit_code == 0, scored.output
    for rows in (documents, _csv(scored.stdout)):
        columns = [c for c in rows[0] if c in whole]
        assert {"ref_window_k", "ref_ghd"} <= set(columns), columns
        for row in rows:
            assert all(row[c].isdigit() for c in columns), {c: row[c] for c in columns}
        assert all("." in row["ref_pk"] for row in rows)  # not whole: as before


def test_json_documents_carry_the_scores_of_the_per_document_table(corpus_result):
    """The per-document table shows the headline, the shuffle-corrected score and the gap; the
    JSON record of each document has them too (not only the inputs to recompute them)."""
    data = json.loads(render(corpus_result, "json"))
    rows = {(row["segmenter"], row["document"]): row for row in _csv(render(corpus_result, "csv", documents=True))}
    for label, records in data["documents"].items():
        for record, r in zip(records, corpus_result.documents[label]):
            row = rows[(label, record["document"])]
            for m in (HEADLINE, STABILITY["shuffle_corrected"], STABILITY["shuffle_gap"], STABILITY["shuffle_f1"]):
                assert record["scores"][m.name] == m.value(r)
                assert float(row[m.column()]) == record["scores"][m.name]
            assert record["scores"]["corrected_f1"] == (None if label == "none" else r.corrected_f1)


def test_csv_keeps_dashes_and_flags_as_they_are_but_still_guards_formulas():
    """The ``'`` guard is for text a spreadsheet would run; on a dash placeholder or a flag it only
    corrupts the value a program reads (``'--restarts``)."""
    result = CliRunner().invoke(app, ["config", "--report-format", "csv"])
    assert result.exit_code == 0, result.output
    rows = _csv(result.stdout)
    restarts = next(row for row in rows if row["key"] == "n_restarts")
    assert restarts["flag"] == "--restarts"
    assert {row["default"] for row in rows if row["key"] in ("path", "format")} == {"-"}
    assert not [row for row in rows if any(value.startswith("'") for value in row.values())]
    from stability.reporting.formats.csv import cell

    for formula in ("=1+2", "-2+3", "-cmd|' /C calc'!A0", "--x+1", "@SUM(A1)", "+1-", "-A1:A2"):
        assert cell(formula) == "'" + formula


def test_markdown_notes_render_as_one_emphasis_each(corpus_result):
    """A note holding an asterisk (the headline's ``docs/validation*.md``) ended its italics there
    and left a stray ``*`` at its end."""
    from markdown_it import MarkdownIt  # CommonMark, as rich renders Markdown

    text = render(corpus_result, "md")
    page = MarkdownIt("commonmark").enable("table").render(text)
    assert page.count("<table>") == text.count("### ")
    notes = [line for line in text.splitlines() if line.startswith("*") and not line.startswith("**")]
    assert notes and len(re.findall(r"<p><em>", page)) == len(notes)
    assert "docs/validation*.md): across" in page and not re.search(r"\*</p>", page)


def test_every_report_file_ends_with_a_line_end(corpus_result, tmp_path):
    from stability.reporting import formats_available, write_reports

    for path in write_reports(corpus_result, tmp_path, formats_available()):
        assert path.read_text(encoding="utf-8").endswith("\n"), path.name


def test_a_terminal_table_written_to_a_file_is_the_same_whatever_the_terminal(corpus_result, tmp_path, monkeypatch):
    # report.txt followed the COLUMNS of the terminal that ran the command (80 when none):
    # columns were left out, and two runs of one command wrote two files
    from stability.reporting import FILE_WIDTH, write_reports

    texts = []
    for columns in ("60", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        folder = tmp_path / columns
        folder.mkdir()
        (path,) = write_reports(corpus_result, folder, ["table"])
        texts.append(path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1] == render(corpus_result, "table", width=FILE_WIDTH)
    assert max(len(line) for line in texts[0].splitlines()) <= FILE_WIDTH


CHATTY = '''
def segment(units):
    print("segmenting", len(units))
    return [len(units) // 2]
'''


@pytest.mark.parametrize("jobs", ["1", "2"])  # in this process; in loky workers
def test_what_a_segmenter_prints_goes_to_stderr_not_into_the_report(tmp_path, jobs):
    import os
    import subprocess
    import sys

    from stability.readers import write_jsonl

    (tmp_path / "chatty.py").write_text(CHATTY)
    write_jsonl(topical_corpus(710, 2), tmp_path / "corpus.jsonl")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-m", "stability", "run", "-s", "chatty:segment", "--allow-plugins",
                             "--corpus", str(tmp_path / "corpus.jsonl"), "-r", "2", "-j", jobs, "--no-progress",
                             "--report-format", "json"], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["summary"]["chatty:segment"]["n_documents"] == 2
    assert "segmenting" in result.stderr


def test_a_grid_parameter_has_a_column_of_its_own_in_the_summary_csv_and_rows():
    """A user tuning a chunker sorts or plots the grid by its parameter: each parameter whose
    value tells configurations apart gets a ``param_<name>`` column (empty where a configuration
    has no such parameter or holds None); parameters all configurations share stay in ``params``."""
    from stability import grid

    result = evaluate({**grid("texttiling", {"w": [10, 20]}), "c99": "c99",
                       "c99,n_segments=4": get_segmenter("c99", n_segments=4), "none": "none"},
                      topical_corpus(710, 2), n_restarts=2, progress=False)
    rows = {row["segmenter"]: row for row in _csv(render(result, "csv"))}
    header = list(next(iter(rows.values())))
    # the grid's w, and n_segments (None beside 4); k, mask_size... are the same wherever they occur,
    # and stem or tokenizer differ only between segmenters (C99's default and TextTiling's)
    assert header[:5] == ["segmenter", "params", "param_n_segments", "param_w", "n_documents"]
    assert [rows[k]["param_w"] for k in ("texttiling,w=10", "texttiling,w=20", "c99", "none")] == ["10", "20", "", ""]
    assert [rows[k]["param_n_segments"] for k in ("c99", "c99,n_segments=4", "texttiling,w=10")] == ["", "4", ""]
    assert json.loads(rows["texttiling,w=20"]["params"])["w"] == 20  # every parameter stays in params
    python_rows = {row["segmenter"]: row for row in result.to_rows("segmenters")}
    assert python_rows["texttiling,w=20"]["param_w"] == 20 and python_rows["none"]["param_w"] is None
    assert python_rows["c99,n_segments=4"]["param_n_segments"] == 4


def test_a_run_whose_configurations_share_every_parameter_has_no_parameter_column(corpus_result):
    assert not [key for key in _csv(render(corpus_result, "csv"))[0] if key.startswith("param_")]


def test_json_report_is_written_without_a_list_of_every_piece():
    """The JSON report of a large run (here 20,000 small records, 2.3 MB of text) takes about
    its own size while it is written: json.dumps with an indent held a list of every piece, 110 MB
    for the 15 MB report of a run of 4,000 documents. The text is json.dumps's, to the byte."""
    import tracemalloc

    from stability.reporting.model import Report

    payload = {"documents": [{"id": f"d{i:05d}", "f1": i / 7, "boundaries": [i, i + 3], "flag": None}
                             for i in range(20_000)]}
    report = Report("big", payload=payload)
    tracemalloc.start()
    try:
        text = render(report, "json")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert text == json.dumps(payload, indent=1, allow_nan=False) + "\n"
    # tracemalloc sees 2.5 times the text with the encoder's pieces of a few bytes, 3.9 times with
    # pieces of a line (formats.json.indented): as it traces StringIO's growing buffer, for the
    # same peak RSS (twice the text, for a report of 89 MB either way); a list of pieces was 50 times
    assert peak < 4 * len(text)


class _Label(str):
    """A str subclass, as an enum's member of str may be: written as its text."""


_atoms = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-3, 3).map(float),
                   st.floats(allow_nan=True, allow_infinity=True), st.floats(-1, 1).map(np.float64),
                   st.text(max_size=6), st.text(max_size=3).map(_Label),
                   st.sampled_from([np.int64(3), np.bool_(True), {1, 2}, "\x00", "a\"\\\n\u00e9\U0001f600"]))
_keys = st.one_of(st.text(max_size=4), st.integers(-3, 3), st.floats(-1, 1), st.booleans(), st.none(), st.just((1,)))
_data = st.recursive(_atoms, lambda inner: st.one_of(st.lists(inner, max_size=4), st.lists(inner, max_size=3).map(tuple),
                                                     st.dictionaries(_keys, inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=4), inner, max_size=4)),
                     max_leaves=25)


def _outcome(write, data):
    try:
        return write(data)
    except (ValueError, TypeError) as exc:
        return type(exc), str(exc)


@settings(max_examples=400)
@given(data=_data)
def test_the_json_report_is_the_indenting_encoders_text_to_the_byte(data):
    """``indented`` writes what ``json.dumps(data, indent=1, allow_nan=False)`` does, or raises
    its error: numbers of every kind, strings needing escapes, keys of other types, containers
    empty or nested, a NaN, types JSON has no form for."""
    from stability.reporting.formats.json import indented

    assert _outcome(indented, data) == _outcome(lambda d: json.dumps(d, indent=1, allow_nan=False), data)


def test_a_cycle_in_the_json_payload_is_the_encoders_error():
    from stability.reporting.formats.json import indented

    cycle: list = [1, {"a": []}]
    cycle[1]["a"].append(cycle)
    with pytest.raises(ValueError, match="Circular reference detected"):
        indented(cycle)


def _floats_mapped(value, leaf):
    """map_floats read plainly: each value in a call of its own."""
    if isinstance(value, dict):
        return {k: _floats_mapped(v, leaf) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_floats_mapped(v, leaf) for v in value]
    return leaf(value) if isinstance(value, float) else value


@settings(max_examples=200)
@given(data=_data)
def test_map_floats_is_its_plain_reading(data):
    from stability.results import map_floats

    def leaf(x):
        return ("float", repr(x))  # tells a float mapped from one left as it was
    assert map_floats(data, leaf) == _floats_mapped(data, leaf)
