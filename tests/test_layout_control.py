"""The layout control: words redistributed across units that keep their layout, and the
``layout_only`` flag it sets (issue 14, item 2)."""

from __future__ import annotations

import importlib.util
import json
import re
from itertools import islice

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import topical_document
from stability import Document, Settings, evaluate, stability_test
from stability.catalogue import STABILITY
from stability.demo import demo_corpus
from stability.permutations import Stream, layout_units, stream_rng
from stability.readers import write_jsonl
from stability.reporting.corpus import ranked_line
from segmenters.chunkers import FixedChars
from stability.results import StabilityResult
from stability.store import load_results

#: Segmenters whose boundaries follow the layout only, and segmenters that read the content.
LAYOUT_ONLY = ("fixed_chars", "even", "none")
CONTENT = ("texttiling", "c99", "u00", "embedding")
#: A cheap run: the flag needs the layout control only.
CHEAP = {"n_restarts": 3, "layout_control": True, "shuffle_control": False, "determinism_check": False,
         "metrics": False}

_tokens = st.text(alphabet="abcdeABß.,!", min_size=1, max_size=6)
_spaces = st.sampled_from([" ", "  ", "\n", "\t ", " \n\n"])


@st.composite
def _units(draw):
    """Units of words and varied whitespace, leading and trailing whitespace included."""
    units = []
    for _ in range(draw(st.integers(0, 8))):
        words = draw(st.lists(_tokens, max_size=7))
        glue = [draw(_spaces) for _ in range(len(words) + 1)]
        edges = (draw(st.sampled_from(["", " ", "\n"])), draw(st.sampled_from(["", " ", "\n"])))
        units.append(edges[0] + "".join(g + w for g, w in zip(glue, words)).strip(" \n\t") + edges[1])
    return units


def _layout(text: str) -> str:
    """Each letter and digit as ``x``: what the layout control must keep (lengths, whitespace,
    punctuation)."""
    return re.sub(r"\w", "x", text)


def _capitals_kept(new: str, old: str) -> bool:
    """Every capital stays a capital, and every lower case letter lower case (but for a letter
    whose upper case is two letters, as ß, which stays as it is)."""
    return all(a.isupper() == b.isupper() for a, b in zip(new, old) if len(a.upper()) == 1)


def _words(units) -> list[str]:
    return sorted(w.lower() for u in units for w in re.findall(r"\w+", u))


@settings(max_examples=200, deadline=None)
@given(_units(), st.integers(0, 2**32 - 1))
def test_layout_units_keep_the_layout_and_the_words(units, seed):
    new = layout_units(units, np.random.default_rng(seed))
    assert len(new) == len(units)
    assert [len(u.split()) for u in new] == [len(u.split()) for u in units]  # tokens per unit, exactly
    assert [_layout(u) for u in new] == [_layout(u) for u in units]  # characters and whitespace, exactly
    assert all(_capitals_kept(a, b) for a, b in zip(new, units))
    assert _words(new) == _words(units)  # the same words, moved
    assert new == layout_units(units, np.random.default_rng(seed))  # a function of the generator


def test_layout_units_move_words_across_units():
    # 40 units of distinct 4-letter words: the chance that every word stays in its own unit is nil
    units = [" ".join(f"w{i:02d}{j}" for j in range(5)) for i in range(40)]
    new = layout_units(units, stream_rng(0, 1, Stream.LAYOUT, 0))
    moved = sum(w[1:3] != f"{i:02d}" for i, u in enumerate(new) for w in u.split())
    assert moved > 150  # of 200 words, about 195 leave their unit when drawn uniformly


def test_the_layout_stream_is_keyed_like_the_others():
    # restart r of the layout stream is the same whatever ran before it
    units = demo_corpus()[0].units
    first = layout_units(units, stream_rng(5, 7, Stream.LAYOUT, 3))
    layout_units(units, stream_rng(5, 7, Stream.LAYOUT, 2))
    assert layout_units(units, stream_rng(5, 7, Stream.LAYOUT, 3)) == first
    assert layout_units(units, stream_rng(5, 7, Stream.LAYOUT, 4)) != first


def _flags(result, labels):
    return {label: [r.layout_only for r in result.documents[label]] for label in labels}


def _check_flags(result):
    for label in LAYOUT_ONLY:
        assert result.summary[label].layout_only is True, label
        assert result.summary[label].layout_only_share == 1.0, label
    for label in CONTENT:
        assert result.summary[label].layout_only is False, label
        assert not any(_flags(result, [label])[label]), label


def test_flags_on_the_demo_corpus():
    result = evaluate([*LAYOUT_ONLY, *CONTENT], demo_corpus(), **CHEAP)
    _check_flags(result)
    assert ranked_line(result).endswith("fixed_chars, even, none: layout-only")
    # fixed_chars is not stable under the test itself (F1 < 1: snapping depends on the units'
    # order) yet its output never changes under the layout control
    fixed = result.summary["fixed_chars"].macro
    assert fixed["f1"].mean < 0.9 and fixed["layout_f1"].mean == 1.0


def test_flags_on_choi(shared_dir):
    from stability.readers import read_corpus

    folder = shared_dir / "data" / "choi" / "1" / "3-11"
    if not folder.is_dir():
        pytest.skip("Choi's 3-11 set is not available")
    docs = list(islice(read_corpus(folder, format="choi"), 3))
    _check_flags(evaluate([*LAYOUT_ONLY, *CONTENT], docs, **CHEAP))


@pytest.mark.skipif(importlib.util.find_spec("langchain_text_splitters") is None,
                    reason="langchain-text-splitters is not installed")
def test_langchain_recursive_is_layout_only():
    from segmenters.chunkers import LangchainRecursive

    result = evaluate({"lc": LangchainRecursive(chunk_size=400)}, demo_corpus()[:4], **CHEAP)
    assert result.summary["lc"].layout_only is True


@pytest.mark.skipif(importlib.util.find_spec("chonkie") is None, reason="chonkie is not installed")
def test_a_sentence_packing_chunker_is_layout_only():
    """It cuts at sentence ends, which the layout control keeps in place (it was not flagged when
    the punctuation moved with the words)."""
    result = evaluate(["chonkie_sentence"], demo_corpus()[:4], **CHEAP)
    assert result.summary["chonkie_sentence"].layout_only is True


def test_bit_identical_for_any_n_jobs():
    docs = demo_corpus()[:3]
    runs = [evaluate(["texttiling", "fixed_chars"], docs, n_restarts=4, layout_control=True, n_jobs=jobs)
            for jobs in (1, 2)]
    first, second = (run.to_dict() for run in runs)
    assert first["documents"] == second["documents"] and first["summary"] == second["summary"]
    one = runs[0].documents["texttiling"][0]
    assert one.layout.scope == "layout" and one.layout.n_restarts == 4
    assert one.layout.restart_boundaries != one.restart_boundaries  # the control ran, on other documents


def test_layout_scores_round_trip_and_older_results_load():
    units = demo_corpus()[0].units
    result = stability_test("fixed_chars", units, n_restarts=3, layout_control=True)
    assert result.layout_only is True and result.layout_f1 == 1.0
    data = json.loads(json.dumps(result.to_dict()))
    assert StabilityResult.from_dict(data) == result
    assert StabilityResult.from_dict(data).layout == result.layout
    # a result without the control: no layout keys at all (files and golden reports unchanged)
    plain = stability_test("fixed_chars", units, n_restarts=3)
    assert plain.layout is None and plain.layout_only is None and np.isnan(plain.layout_f1)
    assert "layout" not in plain.to_dict() and "layout_only" not in plain.to_dict()
    assert StabilityResult.from_dict(plain.to_dict()) == plain


def test_the_setting_is_recorded_only_when_on():
    assert "layout_control" not in Settings().to_dict()
    assert Settings(layout_control=True).to_dict()["layout_control"] is True
    assert Settings().streams == (Stream.WITHIN, Stream.SHUFFLE)
    assert Settings(layout_control=True, shuffle_control=False).streams == (Stream.WITHIN, Stream.LAYOUT)
    assert Settings(layout_control=True).restart_budget() == 300


def test_summaries_leave_out_a_control_that_did_not_run():
    docs = demo_corpus()[:2]
    plain = evaluate(["even"], docs, n_restarts=2, metrics=False)
    assert "layout_f1" not in plain.summary["even"].macro and plain.summary["even"].layout_only is None
    assert "layout_only" not in plain.summary["even"].to_dict()
    with_layout = evaluate(["even"], docs, n_restarts=2, metrics=False, layout_control=True)
    assert with_layout.summary["even"].macro["layout_f1"].mean == 1.0
    assert with_layout.summary["even"].to_dict()["layout_only"] is True
    assert STABILITY["layout_f1"].present(with_layout.documents["even"])
    assert not STABILITY["layout_f1"].present(plain.documents["even"])


def test_results_file_keeps_the_layout_control(tmp_path):
    out = tmp_path / "results.jsonl"
    result = evaluate(["fixed_chars", "c99"], demo_corpus()[:2], output=out, **CHEAP)
    loaded = load_results(out)
    assert loaded.settings["layout_control"] is True
    assert loaded.documents == result.documents
    assert loaded.summary["fixed_chars"].layout_only is True and loaded.summary["c99"].layout_only is False


@pytest.fixture
def corpus_file(tmp_path):
    docs = [Document(f"d{i}", tuple(topical_document(300 + i, n_topics=4)[0])) for i in range(2)]
    write_jsonl(docs, tmp_path / "corpus.jsonl")
    return tmp_path / "corpus.jsonl"


def test_cli_layout_control_flags_a_size_based_splitter(corpus_file):
    from typer.testing import CliRunner

    from stability.cli import app

    runner = CliRunner(env={"COLUMNS": "200", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    args = ["run", "-s", "fixed_chars", "-s", "c99", "--corpus", str(corpus_file), "--restarts", "2", "--no-progress"]
    result = runner.invoke(app, [*args, "--layout-control"])
    assert result.exit_code == 0, result.output
    rows = {name: [line for line in result.stdout.splitlines() if f"│ {name} " in line][0] for name in ("fixed_chars", "c99")}
    assert "layout-only" in rows["fixed_chars"] and "layout-only" not in rows["c99"]
    plain = runner.invoke(app, args)
    assert plain.exit_code == 0 and "layout-only" not in plain.stdout


def test_a_report_with_layout_only_chunkers_says_how_to_compare_them():
    """A RAG user's grid of chunk sizes came back all layout-only, the result line ranking none of
    them, and the report said why but not what to compare them by (the README's answer: the
    reference metrics, the headings of Markdown and HTML pages). It says so now, and points to
    annotations where the corpus has no references; a run without a layout-only segmenter does
    not say it."""
    from stability.reporting import render
    from stability.reporting.model import COMMAND_LINE, spelled

    docs = demo_corpus()[:2]  # with references
    chunkers = evaluate(["fixed_chars", "c99"], docs, n_restarts=2, layout_control=True, progress=False)
    text = render(chunkers, "table", width=200)
    # rendered from Python, the advice names render's keyword; on the command line, the flag
    assert "The headline cannot rank layout-only configurations" in text and 'with metrics="f1_1,cf1_1,b,pk")' in text
    with spelled(COMMAND_LINE):
        assert "with --metrics f1_1,cf1_1,b,pk)" in render(chunkers, "md")
    bare = [Document(d.id, d.units) for d in docs]
    unannotated = evaluate(["fixed_chars", "c99"], bare, n_restarts=2, layout_control=True, progress=False)
    assert ('of a few annotated documents (stability.scoring.add_references(result, "annotated.jsonl")'
            in render(unannotated, "md"))
    with spelled(COMMAND_LINE):
        assert ("of a few annotated documents (stability report OUT --references annotated.jsonl"
                in render(unannotated, "md"))
    topics = evaluate(["c99"], docs, n_restarts=2, layout_control=True, progress=False)
    assert "cannot rank layout-only" not in render(topics, "md")


class _KnownUnitsOnly:
    """Fails on any unit it was not built with: the within and shuffle streams only reorder the
    units, the layout stream rewrites them."""

    def __init__(self, units):
        self.units = set(units)

    def __call__(self, units):
        if not set(units) <= self.units:
            raise ValueError("unknown unit")
        return [len(units) // 2]


def test_a_failure_under_the_layout_control_names_its_stream():
    doc = demo_corpus()[0]
    result = evaluate({"known": _KnownUnitsOnly(doc.units)}, [doc], n_restarts=3, layout_control=True, metrics=False)
    (failure,) = result.failures
    assert failure.stream == "layout" and failure.restart == 0 and "unknown unit" in failure.error


@pytest.mark.filterwarnings("ignore:.*by the units' lengths:stability.SettingsWarning")  # run without the layout control on purpose
def test_csv_summary_has_the_layout_columns_only_when_the_control_ran():
    import csv
    import io

    from stability.reporting import render

    docs = demo_corpus()[:2]
    for layout_control in (True, False):
        result = evaluate(["fixed_chars", "c99"], docs, n_restarts=2, metrics=False, layout_control=layout_control)
        rows = list(csv.DictReader(io.StringIO(render(result, "csv"))))
        by_label = {row["segmenter"]: row for row in rows if row.get("segmenter") in ("fixed_chars", "c99")}
        if layout_control:
            assert by_label["fixed_chars"]["layout_only"] == "True" and by_label["c99"]["layout_only"] == "False"
            assert float(by_label["fixed_chars"]["layout_f1_mean"]) == 1.0
        else:
            assert "layout_only" not in rows[0]


@pytest.mark.filterwarnings("ignore:.*by the units' lengths:stability.SettingsWarning")  # run without the layout control on purpose
def test_the_full_tables_show_the_layout_f1_only_when_the_control_ran():
    """The number the layout-only flag is read from was only in the JSON and the CSV summary: the
    Markdown and HTML tables, `--columns all` and the per-document table left it out, so a
    chunker just under the threshold could not be told from one far below it."""
    from stability.reporting import render

    docs = demo_corpus()[:2]
    for layout_control in (True, False):
        result = evaluate(["fixed_chars", "c99"], docs, n_restarts=2, metrics=False, layout_control=layout_control)
        md, per_document = render(result, "md"), render(result, "md", documents=True)
        html = render(result, "html")
        if layout_control:
            header = next(line for line in md.splitlines() if line.startswith("| segmenter"))
            cells = header.split(" | ")
            row = next(line for line in md.splitlines() if line.startswith("| fixed_chars")).split(" | ")
            assert row[cells.index("layout F1")] == "1.00 (0.00)"
            assert "layout F1" in html and "layout F1" in per_document.split("Per document")[1]
        else:
            assert "layout F1" not in md + per_document + html


def test_a_run_of_text_chunkers_without_the_layout_control_warns():
    """A RAG user comparing chunkers with a topic segmenter, without --layout-control, got the
    chunkers ranked first (fixed_chars above C99 on the demo corpus) and not a word in the report
    or on stderr that their stability comes from the units' lengths. The run now warns, naming them;
    with the layout control, or without any chunker, it does not."""
    import warnings

    from typer.testing import CliRunner

    from stability import SettingsWarning
    from stability.cli import app

    documents = demo_corpus(n_documents=2)
    with pytest.warns(SettingsWarning, match=r"'fixed_chars,chunk_size=300' places its boundaries by the units' "
                                             r"lengths \(a text chunker\).*\(layout_control=True\)"):
        evaluate({"fixed_chars,chunk_size=300": "fixed_chars", "c99": "c99"}, documents, n_restarts=2, progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SettingsWarning)
        evaluate({"fixed_chars": "fixed_chars"}, documents, n_restarts=2, progress=False, layout_control=True)
        evaluate({"c99": "c99", "even": "even"}, documents, n_restarts=2, progress=False)
    result = CliRunner().invoke(app, ["run", "-s", "fixed_chars,grid={chunk_size=[300,600]}", "-s", "c99",
                                      "--limit", "2", "--restarts", "2", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert ("warning: 'fixed_chars,chunk_size=300', 'fixed_chars,chunk_size=600' place their boundaries by the "
            "units' lengths (text chunkers)") in result.stderr
    assert result.stderr.rstrip().endswith("flag them layout-only (--layout-control)")


def test_a_narrow_report_of_layout_only_chunkers_keeps_what_it_advises_comparing_them_by():
    """A RAG user's grid of chunk sizes, read in an 80-column terminal: every configuration came
    back layout-only and the report's advice was to compare them by the reference metrics, minding
    the boundaries a document (bounds), yet the summary had dropped bounds and every reference
    metric to fit the long labels, and kept the gap, which says nothing of a layout-only
    configuration. With a layout-only configuration and references, the gap goes first and the first
    reference metric and bounds last; a run without one keeps the usual order."""
    from stability.reporting import render

    docs = demo_corpus()[:3]  # with references
    labels = {f"fixed_chars,chunk_size={size}": FixedChars(chunk_size=size) for size in (150, 300)}
    result = evaluate({**labels, "c99": "c99"}, docs, n_restarts=2, layout_control=True, metrics={"names": ["f1_1", "b", "pk"]},
                      progress=False)
    text = render(result, "table", width=80)
    header = next(line for line in text.splitlines() if "┃ segmenter" in line)
    assert "F1(±1)" in header and "bounds" in header and " gap " not in header, text
    left = re.search(r"Left out for width 80: (.*?) \(", " ".join(text.split()))
    assert left is not None and "gap" in left.group(1).split(", ")
    topics = evaluate(["c99", "u00"], docs, n_restarts=2, layout_control=True, metrics={"names": ["f1_1", "b", "pk"]},
                      progress=False)
    header = next(line for line in render(topics, "table", width=60).splitlines() if "┃ segmenter" in line)
    assert " gap " in header  # no layout-only configuration: references and bounds go before the gap


def test_a_chunk_larger_than_the_documents_is_named_with_what_its_size_counts():
    """A RAG user gave semchunk chunk_size=1000 thinking of characters (it counts words): one chunk
    held each document, no boundary anywhere, and the report showed only a low score, a bounds of 0
    in a column narrow terminals drop, and the flags content-blind and layout-only, none saying why.
    It names such layout-only configurations now, on how many documents they placed no boundary,
    and where to read what their chunk_size counts; a configuration placing boundaries, and a
    topic segmenter, are not named."""
    from stability.reporting import render

    docs = demo_corpus()[:3]
    segmenters = {"fixed_chars,chunk_size=100000": FixedChars(chunk_size=100000),
                  "fixed_chars,chunk_size=300": FixedChars(chunk_size=300), "c99": "c99"}
    result = evaluate(segmenters, docs, n_restarts=2, layout_control=True, progress=False)
    for fmt in ("table", "md"):
        text = " ".join((render(result, fmt, width=120) if fmt == "table" else render(result, fmt)).split())
        note = re.search(r"No boundary: (.*?)\. ", text)
        assert note is not None, text
        assert "'fixed_chars,chunk_size=100000' on 3 of 3 documents" in note.group(1)
        assert "chunk_size=300" not in note.group(1) and "c99" not in note.group(1)
        assert 'stability.reporting.render(stability.registry.describe_segmenters(["fixed_chars"]))' in text
    fine = evaluate({"fixed_chars,chunk_size=300": FixedChars(chunk_size=300)}, docs, n_restarts=2, layout_control=True,
                    progress=False)
    assert "No boundary:" not in render(fine, "md")
    # a label of the user's own (a config table's, a dict key) is no segmenter name to look up
    mine = evaluate({"mine": FixedChars(chunk_size=100000)}, docs, n_restarts=2, layout_control=True, progress=False)
    text = " ".join(render(mine, "md").split())
    assert "No boundary: mine on 3 of 3 documents" in text and "describe_segmenters" not in text
    assert "(characters, words or tokens) against" in text


def test_the_kendall_tau_of_a_run_with_layout_only_configurations_says_what_it_ranks():
    """A RAG user's grid of chunk sizes beside C99, with references: the summary said the headline
    cannot rank layout-only configurations and pointed to "the ranking on a few annotated documents
    (Kendall tau below)", and the tau table ranked those same configurations by the headline
    without a word. It says now how many of the segmenters ranked are layout-only and what the
    taus then measure; a run without a layout-only configuration does not say it."""
    from stability.reporting import render

    docs = demo_corpus()[:3]
    segmenters = {f"fixed_chars,chunk_size={size}": FixedChars(chunk_size=size) for size in (150, 300, 600)}
    result = evaluate({**segmenters, "c99": "c99", "u00": "u00"}, docs, n_restarts=2, layout_control=True,
                      progress=False)
    text = " ".join(render(result, "md").split())
    tau = text[text.index("Kendall tau between"):]
    assert "3 of the 5 segmenters ranked are layout-only" in tau, tau
    topics = evaluate(["c99", "u00"], docs, n_restarts=2, layout_control=True, progress=False)
    assert "layout-only" not in " ".join(render(topics, "md").split()).split("Kendall tau between")[1]


def test_a_chunk_smaller_than_the_units_is_named_with_what_its_size_counts():
    """The other way round from a chunk larger than the documents: a RAG user gave semchunk
    chunk_size=3 (words) or langchain chunk_size=20 (characters) meaning a model's hundreds of
    tokens, and every unit became a chunk of its own: a boundary at every gap of every document,
    the report flagged it content-blind and layout-only and showed a boundary F1 against the
    headings of 0.48, as if the chunker found half the sections, with no word saying that the
    boundaries were simply the units'. It names such layout-only configurations now, on how many
    documents, and where to read what their chunk_size counts; a configuration leaving some gaps,
    and a topic segmenter, are not named."""
    from stability.reporting import render

    docs = demo_corpus()[:3]
    segmenters = {"fixed_chars,chunk_size=5": FixedChars(chunk_size=5),
                  "fixed_chars,chunk_size=300": FixedChars(chunk_size=300), "c99": "c99"}
    result = evaluate(segmenters, docs, n_restarts=2, layout_control=True, progress=False)
    tiny = result.documents["fixed_chars,chunk_size=5"]
    assert all(len(r.segmentation.boundaries) == r.segmentation.n_units - 1 for r in tiny)  # the premise
    for fmt in ("table", "md"):
        text = " ".join((render(result, fmt, width=120) if fmt == "table" else render(result, fmt)).split())
        note = re.search(r"A boundary at every gap: (.*?)\. ", text)
        assert note is not None, text
        assert "'fixed_chars,chunk_size=5' on 3 of 3 documents" in note.group(1)
        assert "chunk_size=300" not in note.group(1) and "c99" not in note.group(1)
        assert "against the units' lengths" in text
        assert "No boundary:" not in text
    fine = evaluate({"fixed_chars,chunk_size=300": FixedChars(chunk_size=300)}, docs, n_restarts=2, layout_control=True,
                    progress=False)
    assert "every gap" not in render(fine, "md")


def test_a_run_of_chunk_sizes_with_references_names_the_best_by_chance_corrected_f1_and_how_sure():
    """A RAG user's question is which chunker and size to take. The report said the headline cannot
    rank layout-only configurations and to compare them by the reference metrics, and left the
    reading to the user (at 80 columns the chance-corrected F1 that the README advises was left
    out). With cf1_1 computed it now names the layout-only configurations in order of it, with each
    one's interval over documents, says whether the first is ahead of the second beyond their
    intervals, and that the headings stand for topic changes, not for retrieval quality."""
    from stability.reporting import render

    docs = demo_corpus()[:6]
    sizes = {f"fixed_chars,chunk_size={size}": FixedChars(chunk_size=size) for size in (100, 400, 800)}
    result = evaluate({**sizes, "c99": "c99"}, docs, n_restarts=2, layout_control=True,
                      metrics={"names": ["f1_1", "cf1_1"]}, progress=False)
    ranked = sorted(sizes, key=lambda label: -result.summary[label].reference["f1_1_corrected"].mean)
    for fmt in ("table", "md"):
        text = " ".join((render(result, fmt, width=80) if fmt == "table" else render(result, fmt)).split())
        note = re.search(r"By cF1\(±1\) against the references, the layout-only configurations rank: (.*?)\. ", text)
        assert note is not None, text
        order = [re.search(re.escape(label), note.group(1)).start() for label in ranked]
        assert order == sorted(order)  # in order of the metric
        best = result.summary[ranked[0]].reference["f1_1_corrected"]
        assert f"{ranked[0]}' {best.mean:.2f} [{best.ci[0]:.2f}, {best.ci[1]:.2f}]" in note.group(1)
        assert "c99" not in note.group(1)  # a topic segmenter is not among them
        second = result.summary[ranked[1]].reference["f1_1_corrected"]
        said = "ahead of the second beyond both intervals" if best.ci[0] > second.ci[1] else "do not tell them apart"
        assert said in text
        assert "not retrieval quality" in text
    # a label that does not say the size (a config's table named after the chunker, or the user's
    # own name) has the ranking say it
    own = evaluate({"fixed_chars": FixedChars(chunk_size=400, chunk_overlap=50), "mine": FixedChars(chunk_size=800),
                    "fixed_chars,chunk_size=100": FixedChars(chunk_size=100)}, docs, n_restarts=2, layout_control=True,
                   metrics={"names": ["cf1_1"]}, progress=False)
    text = " ".join(render(own, "md").split())
    assert "fixed_chars (chunk_size=400, chunk_overlap=50) 0" in text and "mine (chunk_size=800) -0" in text
    assert "'fixed_chars,chunk_size=100' 0" in text  # said by its label: not twice
    # without the chance-corrected F1 computed, no ranking (F1 alone rewards many boundaries)
    plain = evaluate(sizes, docs, n_restarts=2, layout_control=True, metrics={"names": ["f1_1"]}, progress=False)
    assert "layout-only configurations rank" not in " ".join(render(plain, "md").split())


def test_the_ranking_of_chunk_sizes_prints_no_negative_zero_and_no_nan_interval():
    """Seen in a terminal report of six Markdown pages: a chunker cutting at every gap has a
    chance-corrected F1 of 0 up to rounding (its F1 is its chance level), a mean such as -1e-17, and
    the ranking printed it "-0.00 [-0.00, -0.00]" where the summary table beside it printed 0.00.
    On a single page there is no interval: the ranking printed "[nan, nan]" and said the two
    intervals "overlap". It prints the numbers as the tables do now, and says one document gives no
    interval."""
    from stability.reporting import render
    from stability.results import Stat

    docs = demo_corpus()[:3]
    sizes = {f"fixed_chars,chunk_size={size}": FixedChars(chunk_size=size) for size in (5, 300)}
    result = evaluate(sizes, docs, n_restarts=2, layout_control=True, metrics={"names": ["cf1_1"]}, progress=False)
    # the every-gap chunker's mean as the pages gave it (a float sum a hair below 0)
    result.summary["fixed_chars,chunk_size=5"].reference["f1_1_corrected"] = Stat(-1.1e-17, 1.9e-17, (-3.3e-17, -0.0), 3)
    for fmt in ("table", "md"):
        text = " ".join((render(result, fmt, width=100) if fmt == "table" else render(result, fmt)).split())
        note = re.search(r"configurations rank: (.*?)\. The", text)
        assert note is not None, text
        assert "'fixed_chars,chunk_size=5' 0.00 [0.00, 0.00]" in note.group(1), note.group(1)
        assert "-0.00" not in note.group(1)
    one = evaluate(sizes, docs[:1], n_restarts=2, layout_control=True, metrics={"names": ["cf1_1"]}, progress=False)
    text = " ".join(render(one, "md").split())
    note = text[text.index("configurations rank:"):text.index("not retrieval quality")]
    assert "nan" not in note and "n/a" not in note and "overlap" not in note, note
    assert "One document gives no interval, so it does not tell them apart" in note, note
