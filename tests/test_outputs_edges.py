"""What other programs read of a run (CSV, JSON, load_results), cases found by feeding the
outputs to pandas and jq as users do (each was wrong before; see the docstrings)."""

from __future__ import annotations

import math

import pytest

from stability import evaluate, load_results
from stability.demo import demo_corpus


class Breaks:
    """Segments evenly, or raises on every document when ``limit`` is below 10."""

    def __init__(self, limit=30):
        self.limit = limit

    def __call__(self, units):
        if self.limit < 10:
            raise RuntimeError("model not loaded")
        return list(range(4, len(units), 4))


def test_a_configuration_that_failed_everywhere_has_no_micro_scores_and_keeps_its_parameters(tmp_path):
    """It had micro precision, recall and F1 of 1.0 (nothing predicted, nothing to find), so a
    pipeline sorting by micro_f1 put the segmenter that always crashed first; and its parameters
    were {}, so a grid lost its param_limit column in report.csv and to_rows."""
    output = tmp_path / "results.jsonl"
    run = evaluate({"breaks,limit=1": Breaks(limit=1), "breaks,limit=30": Breaks(limit=30)}, demo_corpus(n_documents=2),
                   n_restarts=3, output=output, progress=False)
    for result in (run, load_results(output)):
        failed = result.summary["breaks,limit=1"]
        assert failed.n_documents == 0 and failed.n_failed == 2
        assert all(math.isnan(value) for value in failed.micro.values()), failed.micro
        assert failed.params == {"limit": 1}
        rows = {row["segmenter"]: row for row in result.to_rows("segmenters")}
        assert rows["breaks,limit=1"]["param_limit"] == 1 and rows["breaks,limit=30"]["param_limit"] == 30
        assert result.summary["breaks,limit=30"].micro["f1"] == pytest.approx(1.0)  # by hand: even boundaries


def test_load_results_reads_a_run_folder_as_stability_report_does(tmp_path):
    """`load_results('runs/x')` said "results file 'runs/x' does not exist" of the folder
    `stability report runs/x` reads."""
    from stability.exceptions import InvalidParameterError

    evaluate({"even": "even"}, demo_corpus(n_documents=2), n_restarts=3, output=tmp_path / "results.jsonl",
             progress=False)
    assert load_results(tmp_path).documents["even"][0].f1 == load_results(tmp_path / "results.jsonl").documents["even"][0].f1
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidParameterError, match="holds neither results.jsonl nor report.json"):
        load_results(tmp_path / "empty")


def test_report_csv_carries_the_count_marks_and_the_layout_interval(tmp_path):
    """report.csv (and to_rows) had no column for the `few boundaries` / `many boundaries` flags
    that every other format shows, and layout_f1 had a mean and std but no interval, unlike every
    other score."""
    import csv
    import io

    from stability import get_segmenter
    from stability.reporting import render

    run = evaluate({"c99": "c99", "u00": "u00", "tt": get_segmenter("texttiling", w=4, k=3),
                    "c99s": get_segmenter("c99", std_coeff=3)}, demo_corpus(n_documents=4), n_restarts=6,
                   layout_control=True, progress=False)
    rows = {row["segmenter"]: row for row in csv.DictReader(io.StringIO(render(run, "csv")))}
    assert {label: row["count_mark"] for label, row in rows.items()} == {
        "c99": "", "u00": "", "tt": "many boundaries", "c99s": "few boundaries"}
    assert "few boundaries" in render(run, "md")  # the same marks as the Markdown report's flags
    low, high, mean = (float(rows["c99"][f"layout_f1_{part}"]) for part in ("ci_low", "ci_high", "mean"))
    assert low <= mean <= high


def test_markdown_shows_ids_and_labels_as_written(tmp_path):
    """A document `a *c* _d_` was set in italics in the Markdown report (`|` and `<` were already
    escaped, `*`, `_` and backticks were not)."""
    from markdown_it import MarkdownIt

    from stability import Document
    from stability.reporting import render

    doc = demo_corpus(n_documents=1)[0]
    run = evaluate({"c99 `fast`": "c99", "texttiling_nltk": "texttiling_nltk"},
                   [Document("a *c* _d_", doc.units, references=doc.references)], n_restarts=2, progress=False)
    shown = MarkdownIt("commonmark").enable("table").render(render(run, "md"))
    tables = [part.split("</table>")[0] for part in shown.split("<table>")[1:]]
    result = shown.split("</strong>")[0]  # the result line, naming the segmenters
    assert tables and all("<em>" not in text and "<code>" not in text for text in [result, *tables])
    assert any("a *c* _d_" in text for text in tables) and "c99 `fast`" in result
    assert all("texttiling_nltk" in text for text in [result, tables[0]])


def test_a_label_with_a_space_is_quoted_and_never_cut_by_the_result_line():
    """A label holding a space (`c99 "fast"`, `fails sometimes`) was written bare in the result
    line, which a terminal then wrapped inside it (`... c99` / `"fast" 0.84 [0.71, 0.96]`); a label
    with a comma was quoted in the lists but not in the ranking or the failures."""
    from stability.reporting import render

    run = evaluate({'c99 "fast"': "c99", "u00,n_segments=3": "u00", "even spaced": "even"},
                   demo_corpus(n_documents=2), n_restarts=2, progress=False)
    first = render(run, "md").splitlines()[0]
    assert """'c99 "fast"' """ in first and "'u00,n_segments=3' " in first and "'even spaced': content-blind" in first
    for width in range(40, 121):
        lines = render(run, "table", width=width).split("\n\n")[0].splitlines()  # the result line, wrapped
        assert not any(line.startswith(('"fast"', "spaced", "[0", "[1")) for line in lines), (width, lines)


def test_a_run_where_every_call_failed_shows_no_empty_sections():
    """Every document failed: the HTML report showed a "Plots" heading with nothing under it, a
    "Boundary confidence per document" legend without strips, an empty per-document table, and
    its note sent the reader to a Kendall tau table "below" that no report of a run without
    references has."""
    from stability.reporting import render

    run = evaluate({"breaks": Breaks(limit=1)}, demo_corpus(n_documents=2), n_restarts=2, progress=False)
    page = render(run, "html")
    for empty in ("<h2>Plots</h2>", "Boundary confidence per document", "<h2>Per document</h2>", "Kendall tau below"):
        assert empty not in page, empty
    assert "<h2>Failures</h2>" in page and "failed on every document" in page
    assert "Kendall tau below" in render(evaluate({"c99": "c99"}, demo_corpus(n_documents=2), n_restarts=2,
                                                  progress=False), "md")  # the demo has references


def test_full_tables_say_what_their_columns_are():
    """The terminal's compact table explained each of its columns; the full tables of Markdown and
    HTML, which have more (STP, STR, chance, corrected, NWin, TNWin, Pr_err, CovN, CovD), explained
    none, nor which direction of Pk and WD is better."""
    from stability.reporting import render

    run = evaluate({"c99": "c99", "even": "even"}, demo_corpus(n_documents=2), n_restarts=2, progress=False)
    for fmt in ("md", "html"):
        text = render(run, fmt)
        for said in ("STP = stability precision (higher is better)", "corrected = chance-corrected F1",
                     "Pk (lower is better)", "CovD = segment coverage (duration)"):
            assert said in text, (fmt, said)


def test_the_failures_come_right_after_the_summary_that_counts_them():
    """The result line says "failed on 1 of 2 documents", but the Failures table came after the
    plots, every strip and the per-document table (about 900 rows down in a 300-document report)."""
    from stability.reporting import render

    class Once:
        def __call__(self, units):
            if units[0] == first:
                raise RuntimeError("model not loaded")
            return list(range(4, len(units), 4))

    docs = demo_corpus(n_documents=2)
    first = docs[0].units[0]
    run = evaluate({"once": Once(), "c99": "c99"}, docs, n_restarts=2, progress=False)
    for fmt, heading in (("md", "### {}"), ("html", "<h2>{}</h2>")):
        text = render(run, fmt)
        at = {name: text.index(heading.format(name)) for name in ("Failures", "Per document")}
        assert text.index("Stability test: 2 documents") < at["Failures"] < at["Per document"], fmt


def test_plot_legends_tell_a_grid_s_configurations_apart():
    """Legends cut names at the edge of the plot, about 22 characters: a grid's configurations,
    which differ at the end of their labels, all read `c99,std_coeff=1.2,mask_si`."""
    import re

    from stability.plots import svg_lines

    names = [f"c99,std_coeff={c},mask_size={m}" for c in ("1.2", "2.5") for m in (9, 11)]
    svg = svg_lines({name: [0.1, 0.2, 0.3] for name in names}, title="t", x_label="x", y_label="y")
    shown = re.findall(r'font-size="11">([^<]*)<title>([^<]*)</title>', svg)
    assert [full for _, full in shown] == names
    assert len({text for text, _ in shown}) == 4 and all(len(text) <= 26 for text, _ in shown)


def test_the_result_line_counts_wide_characters_as_a_terminal_does():
    """With CJK labels, the result line was wrapped by characters, not terminal cells: its lines
    overflowed and the terminal wrapped them again, inside a label (`'中文分割器` / `第二号配置' 0.41`) or
    between a label and its score."""
    from rich.cells import cell_len

    from stability.reporting import render

    labels = ["中文分割器 第一号配置", "中文分割器 第二号配置", "テキスト分割 タイリング"]
    run = evaluate(dict(zip(labels, ["c99", "u00", "texttiling"])), demo_corpus(n_documents=2), n_restarts=2,
                   progress=False)
    for width in range(40, 101, 5):
        lines = render(run, "table", width=width).split("\n\n")[0].splitlines()
        assert all(cell_len(line) <= width for line in lines), (width, lines)
        assert all(line.count("'") % 2 == 0 for line in lines[1:]), (width, lines)  # no label cut in two
        assert not any(line.rstrip().endswith("'") for line in lines), (width, lines)  # nor from its score


def test_document_ids_pair_whatever_their_unicode_form():
    """A file named on macOS holds `élève.txt` decomposed (NFD); references typed elsewhere hold it
    composed (NFC): `stability report -R` and `stability score` said no document paired, showing
    the two ids alike."""
    import unicodedata

    from stability import Document
    from stability.scoring import add_references, score_segmentations

    nfd, nfc = unicodedata.normalize("NFD", "élève.txt"), unicodedata.normalize("NFC", "élève.txt")
    assert nfd != nfc
    doc = demo_corpus(n_documents=1)[0]
    run = evaluate({"c99": "c99"}, [Document(nfd, doc.units)], n_restarts=2, progress=False)
    scored = add_references(run, {nfc: doc.references[0]})
    assert scored.documents["c99"][0].reference_metrics and scored.documents["c99"][0].document == nfd
    result = score_segmentations({nfc: doc.references[0]}, {nfd: doc.references[0]})
    assert list(result.documents) == [nfd] and result.documents[nfd]["f1"] == 1.0


def test_markdown_notes_show_the_labels_they_name_as_written():
    """The tables and the result line escaped a label's Markdown (`*`, backticks, `_` at a word's
    edge), the notes under them only its asterisks: a notebook's function `__main__:chunk` was
    named in bold as `main:chunk` by the notes on layout-only configurations (the ranking by cF1,
    a boundary at every gap), and `mine `v2`` set in code."""
    from markdown_it import MarkdownIt

    from segmenters.chunkers import FixedChars
    from stability.reporting import render

    docs = demo_corpus(n_documents=3)
    labels = {"__main__:chunk": FixedChars(chunk_size=5), "mine `v2`": FixedChars(chunk_size=300)}
    run = evaluate(labels, docs, n_restarts=2, layout_control=True, metrics={"names": ["cf1_1"]}, progress=False)
    text = render(run, "md")
    notes = [line for line in text.splitlines() if line.startswith("*") and not line.startswith("**")]
    named = [note for note in notes if ":chunk" in note or "v2" in note]
    assert any("configurations rank" in note for note in named) and any("every gap" in note for note in named)
    for note in named:
        shown = MarkdownIt("commonmark").render(note)
        assert shown.count("<em>") == 1 and "<strong>" not in shown and "<code>" not in shown, shown
    page = MarkdownIt("commonmark").enable("table").render(text)
    assert "__main__:chunk (chunk_size=5) 0.00" in page and "'mine `v2`' (chunk_size=300)" in page
