"""TOML experiments, report rendering, rank correlations, and the HTML report in a real browser."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from conftest import cohesion_segmenter, topical_document
from stability.comparison import STABILITY_X_AGREEMENT
from stability.catalogue import HEADLINE
from stability import CorpusFormatError, Document, InvalidParameterError, InvalidTypeError, evaluate
from stability.config import default_experiment, load_config, run_experiment, with_overrides
from stability.readers import write_choi
from stability.reporting import render
from stability.stats import kendall_tau
from stability.study import load_corpora
from stability.summary import correlations, load_results


def small_corpus(n=3):
    docs = []
    for i in range(n):
        units, reference = topical_document(300 + i, n_topics=4)
        docs.append(Document(f"d{i}", tuple(units), references=(tuple(reference),)))
    return docs


@pytest.fixture(scope="module")
def result():
    return evaluate({"lex": cohesion_segmenter, "even": "even", "none": "none"}, small_corpus(), n_restarts=6, progress=False)


# -- configs ---------------------------------------------------------------------------------
def test_default_experiment_is_the_demo():
    exp = default_experiment()
    assert "demo" in exp.corpus and list(exp.segmenters) == ["c99", "u00", "texttiling", "even", "none"]
    assert len(list(exp.documents())) == 12


def test_config_keys_feed_keyword_arguments(tmp_path):
    write_choi(small_corpus(), tmp_path / "data")
    config = tmp_path / "exp.toml"
    config.write_text(
        'allow_plugins = true\n[corpus]\npath = "data"\nformat = "choi"\n'
        '[segmenters.lex]\nsegmenter = "conftest:cohesion_segmenter"\nwindow = 2\n'
        '[segmenters.even3]\nsegmenter = "even"\nn_segments = 3\n'
        '[run]\nn_restarts = 3\nseed = 5\n'
        '[metrics]\nk = "segeval"\n'
        f'[output]\ndir = "{tmp_path / "out"}"\nformats = ["md", "csv"]\n'
    )
    exp = load_config(config)
    assert exp.corpus["path"] == str(tmp_path / "data")  # relative to the config file
    segs = exp.build_segmenters()
    assert segs["even3"].n_segments == 3 and segs["lex"].keywords == {"window": 2}
    res = run_experiment(exp, progress=False)
    assert res.settings["seed"] == 5 and res.settings["metrics"] == {"k": "segeval"}
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"results.jsonl", "report.md", "report.csv", "documents.csv"}
    assert len(res.documents["lex"]) == 3
    assert "; chosen by segeval (segeval's convention)" in (tmp_path / "out" / "report.md").read_text()  # the k used


def test_run_experiment_refuses_an_unknown_report_metric_before_the_run(tmp_path):
    """run_experiment(metrics=...) chooses the metrics of the reports it writes, once every pair has
    run: an unknown name (a typo) was refused only then, after the whole run, and no report was
    written; it is refused before the corpus is segmented now, as --metrics is on the command line."""
    exp = with_overrides(default_experiment(), segmenters=["even"], n_restarts=2, out=str(tmp_path / "out"))
    with pytest.raises(InvalidParameterError, match=r"unknown reference metric 'pq'"):
        run_experiment(exp, progress=False, metrics=["f1_1", "pq"])
    assert not (tmp_path / "out").exists()  # nothing ran: no results file


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[run]\nn_restart = 3\n", "unknown key 'n_restart' in [run]; did you mean 'n_restarts'?"),
        ("[corpus]\npaht = 'x'\n", "unknown key 'paht' in [corpus]; did you mean 'path'?"),
        ("[segmenter.c99]\n", "unknown key 'segmenter' in the file (top level); did you mean 'segmenters'?"),
        ("[output]\nformats = ['pdf']\n", "formats must be among table, md, csv, json, html; received 'pdf'"),
        ("[output]\nformats = ['mdd']\n", "[output] formats must be among table, md, csv, json, html; received 'mdd'; "
                                         "did you mean 'md'?"),
        ("[output]\nformats = ['md', 3]\n", "[output] formats must be among table, md, csv, json, html; received 3"),
        ("[corpus]\npath = 'x'\ndemo = true\n", "either 'path' or 'demo'"),
        ("[corpus]\nfoo = 1\n", "unknown key 'foo' in [corpus]. Valid keys: path, demo,"),
        ("[corpus.wiki]\npath = 'x'\n", "[corpus.wiki] names one of several corpora, which `stability validate` reads"),
        ("[corpus\n", "not valid TOML"),
        # wrong types are refused when the file is read, naming its table and key
        ("[output]\ndir = 5\n", "[output] dir must be a non-empty string (a folder path); received 5"),
        ("[output]\ndir = ['a']\n", "[output] dir must be a non-empty string (a folder path); received ['a']"),
        ("[output]\nformats = 5\n", "[output] formats must be a format name or a list of them; received int 5"),
        ("[output]\ndocuments = 'yes'\n", "[output] documents must be true or false; received str 'yes'"),
        ("[run]\nscheduler = 5\n", "[run] scheduler must be a string (a Dask scheduler address); received int 5"),
        ("[metrics]\nenabled = 'no'\n", "[metrics] enabled must be true or false; received str 'no'"),
        ("[metrics]\nnames = ['foo']\n", "[metrics] names must be a list drawn from agreement_ratio,"),
        ("[corpus]\npath = 'x'\nlimit = 0\n", "[corpus] limit must be an integer >= 1; received 0"),
        ("[corpus]\npath = 'x'\nlimit = '3'\n", "[corpus] limit must be an integer; received str '3'"),
    ],
)
def test_config_errors_name_the_file_and_suggest(tmp_path, text, fragment):
    error = _load_error(tmp_path, text, (InvalidParameterError, InvalidTypeError))
    assert fragment in str(error) and "bad.toml" in str(error)
    assert error.parameter is None  # already in the file's words: nothing for the command line to translate


def _load_error(tmp_path, text, errors):
    """The error ``load_config`` raises for a file ``bad.toml`` holding ``text``."""
    config = tmp_path / "bad.toml"
    config.write_text(text)
    with pytest.raises(errors) as info:
        load_config(config)
    return info.value


def test_several_corpus_paths_get_distinct_ids(tmp_path):
    write_choi(small_corpus(2), tmp_path / "a" / "set")
    write_choi(small_corpus(2), tmp_path / "b" / "set")
    exp = with_overrides(default_experiment(), segmenters=["even"])
    exp = type(exp)(corpus={"path": [str(tmp_path / "a" / "set"), str(tmp_path / "b" / "set")]},
                    segmenters=exp.segmenters)
    ids = [d.id for d in exp.documents()]
    assert len(ids) == 4 and len(set(ids)) == 4 and ids[0].startswith("a/set/")


def test_the_limit_counts_the_documents_of_the_whole_corpus(tmp_path):
    # the corpus is the chain of its paths: --limit N (or [corpus] limit) reads N documents in all,
    # not N from each path
    write_choi(small_corpus(2), tmp_path / "a" / "set")
    write_choi(small_corpus(2), tmp_path / "b" / "set")
    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\npath = ["a/set", "b/set"]\nlimit = 3\n[segmenters.even]\n')
    ids = [d.id for d in load_config(config).documents()]
    assert ids == ["a/set/d0.ref", "a/set/d1.ref", "b/set/d0.ref"]
    for limit, expected in ((1, 1), (2, 2), (4, 4), (9, 4)):  # the command line's --limit, over the file's
        assert len(list(with_overrides(load_config(config), reader={"limit": limit}).documents())) == expected
    with pytest.raises(InvalidTypeError, match="limit must be None or an integer; received str 'x'"):
        with_overrides(load_config(config), reader={"limit": "x"}).documents()
    study = tmp_path / "study.toml"  # `stability validate`: a [corpus.NAME] table reads the same way
    study.write_text('[corpus.both]\npath = ["a/set", "b/set"]\nlimit = 3\n[segmenters.even]\n[segmenters.none]\n'
                     '[segmenters.all]\n')  # a study ranks at least 3 configurations
    assert len(list(load_corpora([study])[0].experiment.documents())) == 3


def test_a_missing_path_of_several_is_said_before_any_document_is_read(tmp_path):
    # the paths were opened one after the other as the run read them: a mistyped last path was
    # said after the documents of the others had been segmented (448 pairs of Choi's 3-11 set)
    write_choi(small_corpus(2), tmp_path / "a" / "set")
    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\npath = ["a/set", "b/sett"]\n[segmenters.even]\n')
    with pytest.raises(FileNotFoundError, match="no such corpus file or directory: .*b/sett"):
        load_config(config).documents()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "notes.bin").write_bytes(b"\x00\x01")
    config.write_text('[corpus]\npath = ["a/set", "b"]\nformat = "choi"\n[segmenters.even]\n')
    with pytest.raises(CorpusFormatError, match="b"):  # no file of the format in a later path
        load_config(config).documents()


def test_overrides_win_over_the_file():
    exp = with_overrides(default_experiment(), segmenters=["even"], n_restarts=7, seed=None)
    assert exp.segmenters == {"even": {}} and exp.run == {"n_restarts": 7}
    with pytest.raises(InvalidParameterError, match="give --corpus"):
        with_overrides(default_experiment(), format="choi")


def test_a_bad_file_value_is_said_even_when_a_flag_replaces_it(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text('[corpus]\ndemo = true\n[segmenters.even]\n[run]\nn_restarts = "abc"\nseed = 3\n')
    with pytest.raises(InvalidTypeError, match=r"bad.toml: \[run\] n_restarts must be an integer; received str 'abc'"):
        with_overrides(load_config(config), n_restarts=5)
    assert with_overrides(load_config(config), seed=4).run["seed"] == 4  # a good value is simply replaced


# -- reports ---------------------------------------------------------------------------------
def test_every_format_renders_and_json_is_complete(result):
    data = json.loads(render(result, "json"))
    assert set(data["documents"]) == {"lex", "even", "none"} and len(data["documents"]["lex"]) == 3
    assert data["documents"]["lex"][0]["reference_metrics"]["pk"] >= 0
    assert data["summary"]["even"]["content_blind"] is True
    md = render(result, "md")
    assert md.count("### ") == 4 and "| lex | 3 |" in md  # summary, correlations, per document, by segment length
    for fmt in ("table", "md", "csv", "json", "html"):
        assert render(result, fmt)
    with pytest.raises(InvalidParameterError, match="format must be one of"):
        render(result, "pdf")


def test_csv_carries_raw_numbers(result):
    rows = list(csv.DictReader(io.StringIO(render(result, "csv"))))
    lex = next(r for r in rows if r["segmenter"] == "lex")
    assert float(lex["f1_mean"]) == pytest.approx(result.summary["lex"].macro["f1"].mean)
    assert float(lex["ref_pk_mean"]) == pytest.approx(np.mean([r.reference_metrics["pk"] for r in result.documents["lex"]]))
    per_doc = list(csv.DictReader(io.StringIO(render(result, "csv", documents=True))))
    assert len(per_doc) == 9 and "boundary_confidence" in per_doc[0]


def test_load_results_rebuilds_the_same_summary(result, tmp_path):
    path = tmp_path / "report.json"
    path.write_text(render(result, "json"))
    again = load_results(path)
    assert again.to_dict()["summary"] == result.to_dict()["summary"]


def test_kendall_tau_by_hand_and_with_ties():
    # x = 1,2,3,4 ; y = 1,3,2,4: pairs (12 C)(13 C)(14 C)(23 D)(24 C)(34 C) -> (5-1)/6
    assert kendall_tau([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(4 / 6)
    # tau-b with a tie in y: x = 1,2,3 ; y = 1,1,2 -> C=2, D=0, n0=3, n1=0, n2=1 -> 2/sqrt(3*2)
    assert kendall_tau([1, 2, 3], [1, 1, 2]) == pytest.approx(2 / np.sqrt(6))
    assert np.isnan(kendall_tau([1, 1], [1, 2])) and np.isnan(kendall_tau([1], [2]))


def test_correlations_orient_error_metrics(result):
    corr = correlations(result.documents)
    # over segmenters: lex is less stable than the blind baselines but better on the reference,
    # so raw F1 disagrees with Pk while the shuffle gap agrees
    assert corr["segmenters"]["shuffle_gap"]["pk"] > 0
    assert corr["segmenters"]["f1"]["pk"] < 0


def _chromium(page_text: str, tmp_path, measures: dict[str, str], setup: str = "", window: str = "1280,900") -> dict:
    """Load a page in headless Chromium at a ``window`` (1280 x 900), run ``setup`` (statements, which
    may ``await``), then evaluate each JavaScript expression of ``measures``; returns their values
    (the page writes them as JSON into its title, which --dump-dom prints)."""
    fields = ",".join(f"{json.dumps(name)}:({expression})" for name, expression in measures.items())
    probe = f"<script>window.addEventListener('load',async()=>{{{setup};document.title=JSON.stringify({{{fields}}})}});</script>"
    page = tmp_path / "report.html"
    page.write_text(page_text.replace("</body>", probe + "</body>"), encoding="utf-8")
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={window}", "--hide-scrollbars",
               "--virtual-time-budget=5000", "--dump-dom", page.as_uri()]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=120).stdout
    title = dom.split("<title>", 1)[1].split("</title>", 1)[0]
    return json.loads(title.replace("&quot;", '"'))


needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


def _count(selector: str) -> str:
    return f"document.querySelectorAll('{selector}').length"


@needs_chromium
def test_html_report_renders_tables_and_plots_in_headless_chromium(result, tmp_path):
    seen = _chromium(render(result, "html"), tmp_path, {
        "tables": _count("table"), "plots": _count("svg.plot"), "scatter": _count("svg.scatter"),
        "drawn": "[...document.querySelectorAll('svg.plot')].filter(e=>e.getBoundingClientRect().width>100).length",
        "points": _count("svg.scatter circle"), "bars": _count("svg.strip rect"), "strips": _count("svg.strip"),
        "folded": _count("details")}, setup="document.querySelectorAll('details').forEach(d=>d.open=true)")
    assert seen["tables"] >= 3 and seen["folded"] == 3  # one folded block of strips per segmenter
    assert seen["scatter"] >= 2 and seen["strips"] == 9 and seen["drawn"] == seen["plots"]
    assert seen["points"] >= 9 and seen["bars"] > 0  # every document is a point; lex/even have bars


@needs_chromium
def test_html_report_of_eight_segmenters_fits_1280_pixels(tmp_path):
    names = ["c99", "u00", "texttiling", "texttiling_nltk", "even", "none", "all", "random"]
    res = evaluate({n: n for n in names}, small_corpus(), n_restarts=2, progress=False)
    page = render(res, "html")
    assert f'<th scope="col">{STABILITY_X_AGREEMENT.short}</th>' in page  # four segmenters compared: the comparison column too
    seen = _chromium(page, tmp_path, {
        "scroll": "document.documentElement.scrollWidth", "window": "window.innerWidth",
        "result": "document.querySelector('.result').getBoundingClientRect().top",
        "table": "document.querySelector('table').getBoundingClientRect().top",
        "sticky": "getComputedStyle(document.querySelector('tbody tr>:first-child')).position"})
    assert seen["window"] == 1280
    assert seen["scroll"] <= 1280, seen  # no horizontal overflow of the page
    assert seen["result"] < seen["table"] and seen["result"] < 900  # the ranked result above the fold
    assert seen["sticky"] == "sticky"  # the first column stays in view when a wide table scrolls


#: The per-document table of a page: the one whose header names the document.
_PER_DOCUMENT = "[...document.querySelectorAll('table')].find(t=>[...t.querySelectorAll('th')].some(h=>h.textContent==='document'))"


@needs_chromium
def test_html_keeps_rows_named_titles_whole_and_strips_scaled(result, tmp_path):
    """Scrolled to its right end, the per-document table still shows each row's segmenter and
    document; every plot title starts inside its figure; at a phone's width the boundary strips
    scale down instead of being cropped."""
    page = render(result, "html", documents=True)
    seen = _chromium(page, tmp_path, {
        "segmenter": f"{_PER_DOCUMENT}.querySelector('tbody tr>:nth-child(1)').getBoundingClientRect().left",
        "document": f"{_PER_DOCUMENT}.querySelector('tbody tr>:nth-child(2)').getBoundingClientRect().left",
        "first": f"{_PER_DOCUMENT}.querySelector('tbody tr>:nth-child(1)').getBoundingClientRect().width",
        "box": f"{_PER_DOCUMENT}.parentElement.getBoundingClientRect().left",
        "scrolled": f"{_PER_DOCUMENT}.parentElement.scrollLeft",
        "titles": "[...document.querySelectorAll('svg.plot text:first-of-type')].map(t=>t.getBBox().x)",
        "tall": f"Math.max(...[...{_PER_DOCUMENT}.querySelectorAll('tbody tr')].map(r=>r.getBoundingClientRect().height))"},
        setup=f"document.querySelectorAll('details').forEach(d=>d.open=true);{_PER_DOCUMENT}.parentElement.scrollLeft=1e6")
    assert seen["scrolled"] > 0                                    # the table is wider than the page
    assert abs(seen["segmenter"] - seen["box"]) < 2                # both key columns stay at the left edge
    assert abs(seen["document"] - (seen["box"] + seen["first"])) < 2
    assert seen["titles"] and min(seen["titles"]) >= 0             # no title cut at the figure's left edge
    assert seen["tall"] < 120                                      # a long list of boundaries scrolls in its cell
    phone = _chromium(page, tmp_path, {  # headless Chromium's narrowest window is 500 pixels
        "body": "document.body.getBoundingClientRect().width",
        "strips": "[...document.querySelectorAll('svg.strip')].map(s=>s.getBoundingClientRect().width)",
        "axis": "[...document.querySelectorAll('svg.strip')].map(s=>s.querySelector('line').getBoundingClientRect().right"
                " <= s.getBoundingClientRect().right + 1)"},
        setup="document.querySelectorAll('details').forEach(d=>d.open=true)", window="400,900")
    assert phone["body"] < 640 and phone["strips"] and max(phone["strips"]) <= phone["body"]  # 640 wide when drawn
    assert all(phone["axis"])                                      # scaled with the figure, not cropped


def test_html_groups_the_summary_columns(result):
    page = render(result, "html")
    summary = page.split("<table>", 1)[1].split("</thead>", 1)[0]
    groups = re.findall(r'<th scope="colgroup" colspan="(\d+)" class="group[^"]*">(?:<span>)?([^<]*)(?:</span>)?</th>', summary)
    assert [g[1] for g in groups] == ["", "stability test", "controls", "reference"]
    assert len(re.findall(r"<th[ >]", summary)) - len(groups) == sum(int(n) for n, _ in groups)  # spans cover every column
    titles = re.findall(r"<th scope=\"col\"(?: class=\"l\")?>([^<]*)</th>", summary.split("</tr>", 1)[1])
    spans = [int(n) for n, _ in groups]
    controls = titles[sum(spans[:2]):sum(spans[:3])]
    assert controls == ["chance", "corrected", "shuffle F1", "gap", "flags"]
    assert titles[sum(spans[:3]):][:2] == ["P", "R"]  # reference P/R apart from the stability STP/STR
    assert f'<p class="result"><b>{HEADLINE.title} [95% CI]: lex ' in page


def test_metrics_to_compute_are_chosen_by_name():
    res = evaluate("even", small_corpus(1), n_restarts=2, progress=False, metrics={"names": ["pk", "windowdiff"]})
    assert set(res.documents["even"][0].reference_metrics) == {"pk", "windowdiff"}
    with pytest.raises(InvalidParameterError, match="metrics names must be a list drawn from"):
        evaluate("even", small_corpus(1), n_restarts=2, progress=False, metrics={"names": ["pkk"]})
    none = evaluate("even", small_corpus(1), n_restarts=2, progress=False, metrics=False)
    assert none.documents["even"][0].reference_metrics == {}


def test_metrics_a_run_names_are_the_ones_its_reports_show(tmp_path):
    """The README's way to compare chunkers by the headings, `[metrics] names = ["f1_1", "b", "pk"]`:
    the alias `b` was refused (`--metrics` takes it), and boundary F1 within one unit, which the
    catalogue leaves out of the default tables, appeared in no report of the run (terminal, Markdown,
    CSV rows), only in JSON. The names now pick the reports' metrics, in their order."""
    config = tmp_path / "rag.toml"
    config.write_text('[corpus]\ndemo = true\n[segmenters.even]\n[metrics]\nnames = ["f1_1", "b", "pk"]\n')
    assert load_config(config).metric_options() == {"names": ["f1_1", "boundary_similarity", "pk"]}
    res = evaluate("even", small_corpus(2), n_restarts=2, progress=False, metrics={"names": ["f1_1", "b", "pk"]})
    header = next(line for line in render(res, "md").splitlines() if line.startswith("| segmenter | docs |"))
    refs = header.split("| flags |")[1]
    assert [cell.strip() for cell in refs.strip(" |").split("|")] == ["F1(±1)", "B", "Pk"]
    table = render(res, "table", width=200)
    assert "F1(±1)" in table and " WD " not in table
    row = res.to_rows("segmenters")[0]
    assert "ref_f1_1_mean" in row and "ref_windowdiff_mean" not in row
    # asked for on the command line, --metrics still decides what is printed
    assert "F1(±1)" not in render(res, "table", width=200, metrics=["pk"])


@pytest.mark.parametrize("level, said", [(95, "received 95 (a fraction: 0.95 for 95%)"),
                                         (99.5, "received 99.5 (a fraction: 0.995 for 99.5%)"),
                                         (100, "received 100\n"), (0, "received 0\n")])
def test_a_confidence_level_written_as_a_percentage_says_the_fraction(tmp_path, level, said):
    # reports print "95% CI": [run] confidence = 95 said only "must be a number > 0 and < 1"
    from typer.testing import CliRunner
    from stability.cli import app

    config = tmp_path / "exp.toml"
    config.write_text(f"[corpus]\ndemo = {{ n_documents = 2 }}\n[segmenters.even]\n[run]\nconfidence = {level}\n")
    result = CliRunner().invoke(app, ["run", str(config), "--no-progress"])
    assert result.exit_code == 1
    assert result.stderr == f"error: {config}: [run] confidence must be a number > 0 and < 1; {said}" + (
        "\n" if not said.endswith("\n") else ""), result.stderr


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[run]\nk = 'nltk'\n", "unknown key 'k' in [run]: it belongs in [metrics]"),
        ("[run]\nnames = ['pk']\n", "unknown key 'names' in [run]: it belongs in [metrics]"),
        ("[run]\nlimit = 2\n", "unknown key 'limit' in [run]: it belongs in [corpus]"),
        ("[run]\ndir = 'out'\n", "unknown key 'dir' in [run]: it belongs in [output]"),
        ("[output]\nresume = true\n", "unknown key 'resume' in [output]: it belongs in [run]"),
        ("[metrics]\nn_restarts = 3\n", "unknown key 'n_restarts' in [metrics]: it belongs in [run]"),
        ("n_restarts = 3\n", "unknown key 'n_restarts' in the file (top level): it belongs in [run]"),
        ("[corpus]\nn_restarts = 3\n", "unknown key 'n_restarts' in [corpus]: it belongs in [run]"),
        ("[run]\nallow_plugins = true\n", "unknown key 'allow_plugins' in [run]: it belongs at the top of the file"),
        ("[run]\nmetrics = false\n", "unknown key 'metrics' in [run]: [metrics] is a table of its own"),
        ("[run]\nn_documents = 3\n", "unknown key 'n_documents' in [run]: it belongs in [corpus.demo]"),
        # a key of another table that is also one letter from a key of this one: both are said,
        # the misspelling first (a user writing [output] format meant formats far more often)
        ("[corpus]\ndemo = true\nheld_out = true\n",
         "unknown key 'held_out' in [corpus]: it belongs in [corpus.NAME] of a `stability validate` config."),
        ("[output]\nformat = 'md'\n", "unknown key 'format' in [output]; did you mean 'formats'? "
                                       "('format' is a key of [corpus].)"),
    ],
)
def test_a_key_in_the_wrong_table_names_its_table(tmp_path, text, fragment):
    error = _load_error(tmp_path, text, InvalidParameterError)
    assert fragment in str(error) and "bad.toml" in str(error)


@pytest.mark.parametrize("documents, shown", [(None, True), (True, True), (False, False)])
def test_output_documents_false_leaves_the_per_document_tables_out(tmp_path, documents, shown):
    config = tmp_path / "exp.toml"
    line = "" if documents is None else f"documents = {str(documents).lower()}\n"
    config.write_text('[corpus]\ndemo = { n_documents = 2 }\n[segmenters.even]\n[run]\nn_restarts = 3\n'
                      f'[output]\ndir = "{tmp_path / "out"}"\nformats = ["md", "html"]\n{line}')
    run_experiment(load_config(config), progress=False)
    assert ("Per document" in (tmp_path / "out" / "report.md").read_text()) is shown
    assert ("<h2>Per document<" in (tmp_path / "out" / "report.html").read_text()) is shown


def test_a_choice_that_may_be_left_out_does_not_offer_python_none(tmp_path):
    """`[run] backend = "x"` was told to be "one of None, 'loky', ...": TOML has no None."""
    from typer.testing import CliRunner

    from stability.cli import app

    path = tmp_path / "exp.toml"
    path.write_text('[corpus]\ndemo = true\n[segmenters.none]\nsegmenter = "none"\n[run]\nbackend = "x"\n')
    result = CliRunner().invoke(app, ["run", str(path), "--no-progress"])
    assert result.exit_code != 0
    assert re.search(r"\[run\] backend must be one of 'loky', .*'dask' \(or None: leave it out\); received 'x'",
                     " ".join(result.output.split())), result.output


def test_a_message_about_a_config_value_says_its_partner_as_a_key_too(tmp_path):
    """`[run] ci_score = "headline"` without ci_width said "[run] ci_score and --ci-width go
    together": half in the file's words, half in the command line's."""
    from typer.testing import CliRunner

    from stability.cli import app

    path = tmp_path / "exp.toml"
    path.write_text('[corpus]\ndemo = true\n[segmenters.none]\nsegmenter = "none"\n[run]\nci_score = "headline"\n')
    said = " ".join(CliRunner().invoke(app, ["run", str(path), "--no-progress"]).output.split())
    assert "[run] ci_score and [run] ci_width go together" in said, said
    flags = " ".join(CliRunner().invoke(app, ["run", "--ci-score", "headline", "--no-progress"]).output.split())
    assert "--ci-score and --ci-width go together" in flags, flags
    table = tmp_path / "levels.toml"
    (tmp_path / "a.jsonl").write_text('{"id": "a", "units": ["x", "y", "z"], "boundaries": [1]}\n')
    table.write_text('[corpus]\npath = "a.jsonl"\nlevels = [1]\n[segmenters.none]\nsegmenter = "none"\n')
    hint = " ".join(CliRunner().invoke(app, ["run", str(table), "--no-progress"]).output.split())
    assert "[corpus] levels applies only to format" in hint and "pass [corpus] format if the detection" in hint, hint


def test_a_boolean_flag_can_turn_off_what_the_config_turns_on(tmp_path):
    """`layout_control = true` in a file could not be turned off from the command line (the flag
    only turned it on); --no-layout-control does, and without either flag the file decides."""
    import json

    from typer.testing import CliRunner

    from stability.cli import app

    path = tmp_path / "exp.toml"
    path.write_text('[corpus]\ndemo = true\nlimit = 2\n[segmenters.none]\nsegmenter = "none"\n'
                    '[run]\nlayout_control = true\nn_restarts = 2\n')

    def has_layout(*flags):
        result = CliRunner().invoke(app, ["run", str(path), *flags, "--no-progress", "--report-format", "json"])
        assert result.exit_code == 0, result.output
        return "layout" in json.loads(result.stdout)["documents"]["none"][0]

    assert has_layout() and not has_layout("--no-layout-control") and has_layout("--layout-control")
