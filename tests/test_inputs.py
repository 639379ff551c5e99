"""Hardened inputs: jobs capped, empty paths refused, markup never interpreted, duplicate ids named."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from typer.testing import CliRunner

from stability import Settings, evaluate, read_corpus
from stability.cli import app
from stability.exceptions import CorpusFormatError, InvalidParameterError, StabilityError
from stability.scoring import score_files
from stability.settings import SettingsWarning, max_jobs


def test_jobs_beyond_the_cap_are_capped_with_a_warning():
    assert max_jobs() == 4 * (os.cpu_count() or 1)
    with pytest.warns(SettingsWarning, match=rf"n_jobs=1000 is beyond {max_jobs()} workers .*using n_jobs={max_jobs()}"):
        assert Settings(n_jobs=1000).n_jobs == max_jobs()
    with pytest.warns(SettingsWarning, match="using n_jobs=-1"):
        assert Settings(n_jobs=-1000).n_jobs == -1
    assert Settings(n_jobs=max_jobs()).n_jobs == max_jobs()  # at the cap: unchanged, no warning


def test_negative_jobs_that_leave_no_core_become_one_worker_with_a_warning(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert Settings(n_jobs=-2).n_jobs == -2                    # joblib: both cores but one
    with pytest.warns(SettingsWarning, match=r"n_jobs=-5 means all 2 cores but 4, none left; using n_jobs=1"):
        assert Settings(n_jobs=-5).n_jobs == 1
    with pytest.warns(SettingsWarning, match="using n_jobs=1"):
        assert Settings(n_jobs=-3).n_jobs == 1


def test_the_cli_says_jobs_were_capped_and_finishes(tmp_path):
    result = CliRunner().invoke(app, ["run", "-s", "even", "-r", "2", "-j", "1000", "--no-progress", "--report", "json"])
    assert result.exit_code == 0, result.output
    assert f"warning: --jobs 1000 is beyond {max_jobs()} workers" in result.stderr  # the flag typed
    assert json.loads(result.stdout)["settings"]["n_jobs"] == max_jobs()


@pytest.mark.parametrize("option", ["--out", "--corpus"])
@pytest.mark.parametrize("value", ["", "  "])
def test_empty_paths_are_refused(tmp_path, option, value):
    result = CliRunner().invoke(app, ["run", "-s", "even", "-r", "2", option, value, "--no-progress"])
    assert result.exit_code == 1
    assert "must be a" in result.stderr and "path" in result.stderr
    assert not any(tmp_path.iterdir())


def test_an_empty_corpus_path_in_a_config_is_refused(tmp_path):
    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\npath = ""\n')
    result = CliRunner().invoke(app, ["run", str(config)])
    assert result.exit_code == 1 and "[corpus] path must be a string or a list of strings" in result.stderr


MARKUP = ["[/red]", "[bold]x[/bold]", "[link=http://x]y", "\\[z]"]


def test_markup_in_labels_ids_and_errors_is_printed_verbatim(tmp_path):
    def fails(units):
        raise ValueError("[/red] broke")

    segmenters = {label: "even" for label in MARKUP} | {"[red]bad": fails}
    docs = [{"id": doc_id, "units": ["u"] * 9} for doc_id in MARKUP]
    result = evaluate(segmenters, docs, n_restarts=2, progress=True)
    from stability.reporting import render

    table = render(result, "table", documents=True)
    for text in MARKUP + ["[red]bad", "[/red] broke"]:
        assert text in table


def test_score_refuses_duplicate_ids_and_names_them(tmp_path):
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    lines = [{"id": i, "boundaries": [2], "n_units": 4} for i in ("a", "b", "a", "c", "b")]
    ref.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    hyp.write_text("\n".join(json.dumps(line) for line in lines[:3]) + "\n")
    with pytest.raises(CorpusFormatError, match=rf"{ref}: document ids must be unique; repeated: 'a', 'b'"):
        score_files(ref, hyp)
    result = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(hyp)])
    assert result.exit_code == 1 and "repeated: 'a', 'b'" in result.stderr


def test_score_prints_markup_ids_verbatim(tmp_path):
    ref = tmp_path / "ref.jsonl"
    ref.write_text("\n".join(json.dumps({"id": i, "boundaries": [2], "n_units": 4}) for i in MARKUP) + "\n")
    result = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(ref)], terminal_width=200)
    assert result.exit_code == 0, result.output
    for text in MARKUP:
        assert text in result.stdout


def test_the_segmenters_table_escapes_markup(monkeypatch):
    from stability.registry import register, unregister

    register("[/red]odd", lambda units: [])
    try:
        result = CliRunner().invoke(app, ["segmenters"], terminal_width=200)
    finally:
        unregister("[/red]odd")
    assert result.exit_code == 0, result.output
    assert "[/red]odd" in result.stdout


FORMULAS = ["=1+2", "+SUM(A1)", "-2+3", "@cmd", "\tx"]


def _formula_free(text: str) -> None:
    import csv
    import io

    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                float(cell)  # only numbers may start so


def test_csv_cells_that_look_like_formulas_are_neutralised():
    segmenters = {label: "even" for label in FORMULAS}
    docs = [{"id": doc_id, "units": ["u"] * 9} for doc_id in FORMULAS]
    result = evaluate(segmenters, docs, n_restarts=2, progress=False)
    from stability.reporting import render

    for documents in (False, True):
        text = render(result, "csv", documents=documents)
        _formula_free(text)
        assert "'=1+2" in text and "'@cmd" in text


def test_score_csv_is_neutralised(tmp_path):
    ref = tmp_path / "ref.jsonl"
    ref.write_text("\n".join(json.dumps({"id": i, "boundaries": [2], "n_units": 4}) for i in FORMULAS) + "\n")
    result = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(ref), "--report", "csv"])
    assert result.exit_code == 0
    _formula_free(result.stdout)
    assert "'-2+3" in result.stdout


def test_markdown_shows_raw_html_as_text():
    evil = "<img src=x onerror=alert(1)>|&"
    result = evaluate({evil: "even"}, [{"id": evil, "units": ["u"] * 9}], n_restarts=2, progress=False)
    from stability.reporting import render

    text = render(result, "md", documents=True)
    assert "<img" not in text
    assert "&lt;img src=x onerror=alert(1)>\\|&amp;" in text  # no tag can open without "<"


def test_a_bad_document_is_named_once(tmp_path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"id": "a", "units": ["x", "y", "z"], "boundaries": [7]}\n', encoding="utf-8")
    with pytest.raises(CorpusFormatError) as caught:
        list(read_corpus(corpus))
    assert str(caught.value).count("document 'a'") == 1, caught.value
    assert "references[0] must lie in 1..2" in str(caught.value)


def test_score_refuses_several_hypotheses_for_one_document_and_has_no_std_of_one(tmp_path):
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "references": [[3, 6], [3, 7]], "n_units": 10}\n', encoding="utf-8")
    two = tmp_path / "two.jsonl"
    two.write_text('{"id": "a", "references": [[3, 8], [1, 2]], "n_units": 10}\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="document 'a': the hypothesis file gives 2 segmentations"):
        score_files(ref, two)  # only the first was scored, silently
    one = tmp_path / "one.jsonl"
    one.write_text('{"id": "a", "boundaries": [3, 8], "n_units": 10}\n', encoding="utf-8")
    result = score_files(ref, one)
    assert result.mean["pk"] == result.documents["a"]["pk"] and all(np.isnan(v) for v in result.std.values())


def test_reports_say_which_reference_the_single_reference_metrics_use(tmp_path):
    from stability.reporting import render
    from stability.reporting.corpus import FIRST_REFERENCE_NOTE

    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "references": [[3, 6], [3, 7]], "n_units": 10}\n', encoding="utf-8")
    single = tmp_path / "single.jsonl"
    single.write_text('{"id": "a", "boundaries": [3, 6], "n_units": 10}\n', encoding="utf-8")
    hyp = tmp_path / "hyp.jsonl"
    hyp.write_text('{"id": "a", "boundaries": [3, 8], "n_units": 10}\n', encoding="utf-8")
    assert FIRST_REFERENCE_NOTE in render(score_files(ref, hyp), "md")
    assert FIRST_REFERENCE_NOTE not in render(score_files(single, hyp), "md")
    units = [f"u{i}" for i in range(10)]
    run = evaluate({"even": "even"}, [{"id": "a", "units": units, "references": [[3, 6], [3, 7]]}], n_restarts=2,
                   progress=False)
    assert FIRST_REFERENCE_NOTE in render(run, "md")


@pytest.mark.parametrize("indent", [None, 2])
def test_score_reads_a_json_array_of_bare_segmentations(tmp_path, indent):
    records = {"ref": [{"id": "a", "boundaries": [3, 7], "n_units": 10}, {"id": "b", "masses": [2, 2]}],
               "hyp": [{"id": "a", "boundaries": [4, 7], "n_units": 10}, {"id": "b", "boundaries": [1], "n_units": 4}]}
    for name, docs in records.items():
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
        (tmp_path / f"{name}.json").write_text(json.dumps(docs, indent=indent), encoding="utf-8")
    as_lines = score_files(tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl")
    as_array = score_files(tmp_path / "ref.json", tmp_path / "hyp.json")  # was refused: "expected a 'units' list"
    # the same numbers, NaN where a metric is undefined (the chance-corrected F1 of 'b' at one unit) in both
    assert json.dumps(as_array.documents, sort_keys=True) == json.dumps(as_lines.documents, sort_keys=True)
    assert set(as_array.documents) == {"a", "b"}
    result = CliRunner().invoke(app, ["score", "-R", str(tmp_path / "ref.json"), "-H", str(tmp_path / "hyp.jsonl")])
    assert result.exit_code == 0, result.output


def test_score_reads_bare_segment_sizes_under_every_key_the_corpus_reader_takes(tmp_path):
    """The corpus reader takes segment sizes as 'segments' or 'masses' (REFERENCE_KEYS); bare
    segmentations took 'masses' only ("expected 'boundaries' with 'n_units', 'masses'...")."""
    (tmp_path / "ref.jsonl").write_text('{"id": "a", "segments": [3, 4, 3]}\n', encoding="utf-8")
    (tmp_path / "hyp.jsonl").write_text('{"id": "a", "masses": [3, 7]}\n', encoding="utf-8")
    scored = score_files(tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl")
    assert scored.documents["a"]["recall"] == 0.5 and scored.documents["a"]["precision"] == 1.0  # boundary 3 of 3, 7
    # one list per annotator, as the corpus reader takes them; an error names the key written
    (tmp_path / "ref2.jsonl").write_text('{"id": "a", "segments": [[3, 7], [3, 4, 3]]}\n', encoding="utf-8")
    assert score_files(tmp_path / "ref2.jsonl", tmp_path / "hyp.jsonl").documents["a"]["f1"] == 1.0  # vs the first
    (tmp_path / "bad.jsonl").write_text('{"id": "a", "segments": [[3, 7], [3, "x"]]}\n', encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r"segments\[1\]\[1\]"):
        score_files(tmp_path / "bad.jsonl", tmp_path / "hyp.jsonl")
    (tmp_path / "odd.jsonl").write_text('{"id": "a", "segments": [[3, 7], [3, 4]]}\n', encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r"the lists of 'segments' add up to different numbers of units \(10, 7\)"):
        score_files(tmp_path / "odd.jsonl", tmp_path / "hyp.jsonl")
    (tmp_path / "two.jsonl").write_text('{"id": "a", "segments": [5, 5], "masses": [5, 5]}\n', encoding="utf-8")
    with pytest.raises(CorpusFormatError, match="expected its segmentation in one key; received 'segments' and 'masses'"):
        score_files(tmp_path / "two.jsonl", tmp_path / "hyp.jsonl")


def test_score_pairs_the_documents_of_json_arrays_dumped_on_one_line(tmp_path):
    # json.dump writes a list on one line: every segmentation without an id got the id "1" and
    # the second was refused as a repeated id; each now gets "1.<k>", the same in both files
    (tmp_path / "ref.json").write_text(json.dumps([{"boundaries": [2], "n_units": 5}, {"boundaries": [1, 3], "n_units": 4}]))
    (tmp_path / "hyp.json").write_text(json.dumps([{"boundaries": [2], "n_units": 5}, {"boundaries": [1], "n_units": 4}]))
    scored = score_files(tmp_path / "ref.json", tmp_path / "hyp.json")
    assert sorted(scored.documents) == ["1.1", "1.2"]
    assert scored.documents["1.1"]["f1"] == 1.0 and scored.documents["1.2"]["recall"] == 0.5  # by hand


def test_score_reads_a_jsonl_corpus_whose_units_are_utterances(tmp_path):
    """``utterances`` is read as ``units`` by the corpus reader: such a file is a corpus, not bare
    segmentations (it was refused with "expected 'boundaries' with 'n_units'...")."""
    ref = tmp_path / "dialogues.jsonl"
    ref.write_text('{"id": "a", "utterances": ["hi", "hello", "rain?", "yes"], "segments": [2, 2]}\n', encoding="utf-8")
    hyp = tmp_path / "hyp.jsonl"
    hyp.write_text('{"id": "a", "boundaries": [2], "n_units": 4}\n', encoding="utf-8")
    assert score_files(ref, hyp).documents["a"]["f1"] == 1.0


@pytest.mark.parametrize("record, message", [
    ({"id": "a", "masses": [3, 4], "n_units": 10},
     r"ref\.jsonl:1: document 'a': 'masses' add up to 7 units, but 'n_units' is 10; expected them to agree"),
    ({"id": "a", "boundaries": [3], "masses": [5, 5], "n_units": 10},
     r"ref\.jsonl:1: document 'a': expected its segmentation in one key; received 'boundaries' and 'masses'"),
    ({"id": None, "boundaries": [3], "n_units": 10}, r"ref\.jsonl:1: 'id' must be a string or an integer; received None"),
    ({"id": True, "boundaries": [3], "n_units": 10}, r"'id' must be a string or an integer; received True"),
    # an empty list of references was an IndexError deep in the scoring, naming neither file nor line
    ({"id": "a", "references": [], "n_units": 10},
     r"ref\.jsonl:1: document 'a': expected 'references' to be a non-empty list of boundary lists; received \[\]"),
    ({"id": "a", "references": "ab", "n_units": 10}, r"ref\.jsonl:1: document 'a': expected 'references' to be a "),
])
def test_score_refuses_bare_segmentations_that_contradict_themselves(tmp_path, record, message):
    """Conflicting keys were scored silently: 'masses' won over 'boundaries', 'n_units' was
    ignored beside 'masses' (scored as 7 units), and a null id became the id 'None'."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text(json.dumps(record) + "\n", encoding="utf-8")
    hyp.write_text('{"id": "a", "boundaries": [5], "n_units": 10}\n', encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=message):
        score_files(ref, hyp)
    ref.write_text('{"id": "a", "masses": [5, 5], "n_units": 10}\n', encoding="utf-8")  # agreeing: read
    assert score_files(ref, hyp).documents["a"]["f1"] == 1.0


@pytest.mark.parametrize("record, message", [
    ({"id": "a", "boundary": [3], "n_units": 10},
     r"ref\.jsonl:1: expected 'references' or 'boundaries' with 'n_units' .*; received the keys 'id', 'boundary', "
     r"'n_units'; did you mean 'boundaries'\?$"),
    ({"id": "a", "n_units": 10}, r"ref\.jsonl:1: expected 'references' .* 'labels' \(a segment label per unit\) or 'chunks' "
     r"\(chunk texts, against a corpus\); received the keys 'id', 'n_units'$"),
    ({"id": "a", "chunk": ["x"]}, r"received the keys 'id', 'chunk'; did you mean 'chunks'\?$"),
])
def test_score_names_the_keys_of_a_segmentation_it_cannot_read(tmp_path, record, message):
    """A key misspelled (``boundary``) was refused with the keys expected only: neither the keys
    the line had nor the one it meant."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text(json.dumps(record) + "\n", encoding="utf-8")
    hyp.write_text('{"id": "a", "boundaries": [5], "n_units": 10}\n', encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=message):
        score_files(ref, hyp)


def test_score_help_says_what_the_files_hold():
    result = CliRunner().invoke(app, ["score", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for text in ('"boundaries": [3, 7]', '"n_units": 10', '"masses"', "JSON array"):
        assert text in result.stdout


@pytest.mark.parametrize("name", ["hyp.ndjson", "hyp", "hyp.txt"])
def test_score_tells_bare_segmentations_by_their_content(tmp_path, name):
    """Standard input was told by its content, files only by a .jsonl or .json name: the same
    lines in ``hyp.ndjson`` or ``hyp`` went to the corpus reader, which refused them with "expected
    a 'units' list of strings"."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / name
    ref.write_text('{"id": "a", "boundaries": [3, 7], "n_units": 10}\n', encoding="utf-8")
    hyp.write_text('{"id": "a", "boundaries": [3], "n_units": 10}\n', encoding="utf-8")
    assert score_files(ref, hyp).documents["a"]["recall"] == 0.5  # by hand: 1 of the 2 reference boundaries
    assert score_files(hyp, ref).documents["a"]["precision"] == 0.5
    result = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "json"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_score_reads_bare_segmentations_saved_with_a_byte_order_mark(tmp_path, suffix):
    """Windows editors and Excel save UTF-8 with a byte-order mark, which the corpus readers skip;
    bare segmentations were then read as a corpus and refused ("expected a 'units' list")."""
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3, 7], "n_units": 10}\n', encoding="utf-8")
    hyp = tmp_path / f"hyp{suffix}"
    hyp.write_text('{"id": "a", "masses": [3, 4, 3]}\r\n', encoding="utf-8-sig")
    assert score_files(ref, hyp).documents["a"]["f1"] == 1.0
    for file in (ref, hyp):  # the encoding given is that of both files
        file.write_text(file.read_text(encoding="utf-8-sig"), encoding="utf-16")
    assert score_files(ref, hyp, encoding="utf-16").documents["a"]["f1"] == 1.0


@pytest.mark.parametrize("text", ["[3, 7]\n", "[3, 7]\n[2]\n", '{"id": "a", "units": ["x"]}\n[4, 6]\n'])
def test_bare_numbers_in_a_corpus_are_refused_naming_where_a_segmentation_goes(tmp_path, text):
    """DESIGN: a bare list of ints is never read two ways; refused, the message names
    Segmentation.from_boundaries / from_masses (it said only "expected a JSON object")."""
    path = tmp_path / "corpus.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CorpusFormatError) as caught:
        list(read_corpus(path))
    said = str(caught.value)
    assert "expected a JSON object with 'units'" in said
    assert "Segmentation.from_boundaries or Segmentation.from_masses" in said and "'segments'" in said


def test_score_says_a_hypothesis_of_one_unit_in_the_singular(tmp_path):
    """'the hypothesis covers 1 units' before."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "boundaries": [5], "n_units": 10}\n', encoding="utf-8")
    hyp.write_text('{"id": "a", "boundaries": [], "n_units": 1}\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"^document 'a': the hypothesis covers 1 unit \("):
        score_files(ref, hyp)


def test_score_names_where_a_hypothesis_and_its_reference_of_other_lengths_come_from(tmp_path):
    """"document 'b': the hypothesis covers 7 units, the reference 6" named neither file (nor the
    line, nor which unit counts were whose), so with several files the user could not tell which
    to fix; the places are the files and lines, or the arguments of score_segmentations."""
    from stability import Document, Segmentation
    from stability.scoring import score_segmentations

    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "boundaries": [2], "n_units": 4}\n{"id": "b", "masses": [2, 4]}\n', encoding="utf-8")
    hyp.write_text('{"id": "a", "boundaries": [2], "n_units": 4}\n{"id": "b", "boundaries": [3], "n_units": 7}\n',
                   encoding="utf-8")
    expected = (f"document 'b': the hypothesis covers 7 units ({hyp}:2), the reference 6 units ({ref}:2); "
                "expected a hypothesis of the units its reference segments")
    with pytest.raises(InvalidParameterError) as caught:
        score_files(ref, hyp)
    assert str(caught.value) == expected
    corpus = tmp_path / "corpus.jsonl"  # a corpus as the reference: its document's line
    corpus.write_text('{"id": "a", "units": ["u", "v", "w", "x"], "boundaries": [2]}\n\n'
                      '{"id": "b", "units": ["u"], "boundaries": []}\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError) as caught:
        score_files(corpus, hyp)
    assert f"the hypothesis covers 7 units ({hyp}:2), the reference 1 unit ({corpus}:3);" in str(caught.value)
    with pytest.raises(InvalidParameterError, match=r"^document 'b': the hypothesis covers 7 units "
                                                    r"\(hypotheses\['b'\]\), the reference 6 units \(references\['b'\]\); "):
        score_segmentations({"b": Segmentation([2], 6)}, {"b": Segmentation([3], 7)})
    with pytest.raises(InvalidParameterError, match=r"the reference 6 units \(references\[0\]\)"):
        score_segmentations([Document("b", ["u"] * 6, references=[[2]])], {"b": Segmentation([3], 7)})


@pytest.mark.parametrize("options, message", [
    ({"k": 0}, "k must be an integer >= 1; received 0"),
    ({"k": "nltkk"}, "k must be an integer >= 1 or one of 'lamprier', 'nltk', 'segeval'; received 'nltkk'"),
    ({"tolerance": -2}, "tolerance must be an integer >= 0; received -2"),
    ({"tolerance": 1.5}, "tolerance must be an integer; received float 1.5"),
    ({"gamma": 2.0}, "gamma must be"),
    ({"window_limit": -1}, "window_limit must be an integer >= 0; received -1"),
])
def test_score_refuses_an_option_wrong_for_every_document_without_naming_one(options, message):
    """An option that no document can take (``k=0``, a negative tolerance) is refused once, as
    the option: it was refused while scoring the first document, and the error ended with
    ``(document 'a')``, as if that document were what was wrong. A window too wide for one
    document is still refused naming that document."""
    from stability import Segmentation
    from stability.scoring import score_segmentations

    refs = {"a": Segmentation([3], 10), "b": Segmentation([4], 30)}
    hyps = {"a": Segmentation([4], 10), "b": Segmentation([5], 30)}
    with pytest.raises(StabilityError) as caught:
        score_segmentations(refs, hyps, **options)
    assert message in str(caught.value) and "document" not in str(caught.value)
    with pytest.raises(InvalidParameterError, match=r"k must be an integer in 1\.\.9 .*received 20 \(document 'a'\)"):
        score_segmentations(refs, hyps, k=20)


def test_score_command_refuses_a_window_of_zero_as_the_option(tmp_path):
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3], "n_units": 10}\n')
    result = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(ref), "--window", "0"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: --window must be an integer >= 1; received 0"


def test_score_reports_say_the_tolerance_of_boundary_precision_recall_and_f1(tmp_path):
    """``--tolerance 2`` changes P, R and F1(ref) (here F1 0.5 -> 1.0: boundary 8 is one unit
    from 7) but no report said so: the tables looked the same as with exact matching and the JSON
    kept the window only. Every format now says it, and the JSON carries it; exact matching (the
    default) adds nothing to read."""
    import json as json_module

    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3, 7], "n_units": 10}\n')
    hyp.write_text('{"id": "a", "boundaries": [3, 8], "n_units": 10}\n')
    runner = CliRunner()
    note = "P, R, F1(ref) and cF1(ref) match boundaries within 2 units (tolerance 2"
    for fmt in ("table", "md", "html"):
        result = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--tolerance", "2",
                                     "--report-format", fmt, "--width", "200", "--columns", "all"])
        assert result.exit_code == 0, result.output
        assert note in result.stdout, fmt
        exact = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", fmt, "--width", "200"])
        assert "match boundaries within" not in exact.stdout
    data = json_module.loads(runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--tolerance", "2",
                                                 "--report-format", "json"]).stdout)
    assert data["tolerance"] == 2 and data["documents"]["a"]["f1"] == 1.0
    # only the metrics the tolerance changes, and only those shown
    only_pk = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--tolerance", "2", "--metrics", "pk,f1"])
    assert "F1(ref) matches boundaries within 2 units (tolerance 2" in " ".join(only_pk.stdout.split())
    pk = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--tolerance", "2", "--metrics", "pk"])
    assert "within 2 units" not in pk.stdout


def test_score_says_which_means_are_over_fewer_documents_than_the_table(tmp_path):
    """A one-unit document has no window metric (n/a): the mean Pk is over the other documents,
    while the note under the table said every mean was "over the 3 documents" (the mean Pk 0.9
    here is that of 0.8 and 1.0, two documents). The note now names the columns whose mean and
    std are over fewer, and how many."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "zero", "boundaries": [], "n_units": 10}\n{"id": "one", "boundaries": [], "n_units": 1}\n'
                   '{"id": "two", "masses": [1, 1]}\n')
    hyp.write_text('{"id": "zero", "boundaries": [4], "n_units": 10}\n{"id": "one", "masses": [1]}\n'
                   '{"id": "two", "boundaries": [], "n_units": 2}\n')
    runner = CliRunner()
    result = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "md",
                                 "--metrics", "f1,pk,wd,window_k"])
    assert result.exit_code == 0, result.output
    assert "| **mean** | 0.3333 | 0.9000 | 0.9000 | 3.0 |" in result.stdout
    assert ("Pk, WD and k are n/a on 1 of the 3 documents: their mean and std are over the other 2."
            in result.stdout)
    every = runner.invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--report-format", "md", "--metrics", "f1,b"])
    assert "n/a on" not in every.stdout


def test_score_says_a_folder_of_bare_segmentations_is_read_as_a_corpus(tmp_path):
    """``-H DIR`` reads a folder as a corpus (documents with units). A folder holding the bare
    segmentation file itself failed with "document 'a': expected a 'units' list of strings; the
    key is missing", which sent the user to add units to a file that needs none; the error now
    says what the folder holds and to give the file itself."""
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3], "n_units": 10}\n')
    folder = tmp_path / "hyps"
    folder.mkdir()
    (folder / "hyp.jsonl").write_text('{"id": "a", "masses": [4, 6]}\n')
    result = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(folder)])
    assert result.exit_code == 1
    message = " ".join(result.stderr.split())
    assert f"{folder}: a folder is read as a corpus (documents with their units)" in message
    assert f"{folder / 'hyp.jsonl'} holds bare segmentations" in message and "give that file itself" in message
    assert "'units' list" not in message
    (folder / "hyp.jsonl").rename(tmp_path / "hyp.jsonl")  # the file itself is read
    assert CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(tmp_path / "hyp.jsonl")]).exit_code == 0


def test_the_window_note_is_said_only_under_a_window_metric(tmp_path):
    """``--metrics f1`` shows no metric computed at a window, yet ``score`` and the run reports
    said which window k the window metrics used; the note now comes with Pk, WD, their variants
    or k, and only then."""
    from stability import Document, evaluate
    from stability.reporting import render

    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3], "n_units": 10}\n')
    runner = CliRunner()
    for metrics, said in (("f1,b", False), ("f1,pk", True), ("pr_error", True), ("window_k", True)):
        result = runner.invoke(app, ["score", "-R", str(ref), "-H", str(ref), "--report-format", "md",
                                     "--metrics", metrics])
        assert result.exit_code == 0, result.output
        assert ("Window metrics (Pk, WindowDiff and their variants) at k" in result.stdout) is said, metrics
    run = evaluate({"even": "even"}, [Document("a", ["x"] * 12, references=([5],))], n_restarts=2, progress=False)
    assert "Window metrics" not in render(run, "md", metrics=["f1", "b"])
    assert "Window metrics" in render(run, "md", metrics=["f1", "wd"])


def test_a_run_report_says_the_window_k_used_as_score_does():
    """The run reports said "at k = lamprier (Lamprier et al. 2007, eq. 5, the default)", the rule
    and not the window, and "k = 2 units" for a k given, where ``score`` said "at k = 2; as given":
    both now give the k used (its range over the documents) and how it was chosen, in one
    sentence. By hand, Lamprier's eq. 5 (half the mean reference segment length, rounded): 12
    units in 2 segments give k = 3, 12 units in 4 give k = round(1.5) = 2."""
    from stability import Document, evaluate
    from stability.reporting import render

    docs = [Document("a", ["x"] * 12, references=([6],)), Document("b", ["x"] * 12, references=([3, 6, 9],))]
    said = render(evaluate({"even": "even"}, docs, n_restarts=2, progress=False), "md", metrics=["wd"])
    assert ("Window metrics (Pk, WindowDiff and their variants) at k = 2 to 3 (each document's in the JSON "
            "report); chosen by lamprier (Lamprier et al. 2007, eq. 5, the default).") in said
    given = evaluate({"even": "even"}, docs, n_restarts=2, progress=False, metrics={"k": 4})
    assert "Window metrics (Pk, WindowDiff and their variants) at k = 4, as given." in render(given, "md", metrics=["wd"])


@pytest.mark.parametrize("references", [{}, []])
def test_score_segmentations_refuses_no_document_as_evaluate_does(references):
    """``score_segmentations({}, {})`` returned a result of 0 documents, whose means were empty,
    while ``stability score`` refuses an empty file and ``evaluate(seg, [])`` an empty corpus."""
    from stability.scoring import score_segmentations

    with pytest.raises(InvalidParameterError, match=r"^hypotheses must be a mapping document id -> Segmentation of "
                                                    r"at least one document; received \{\}$") as caught:
        score_segmentations(references, {})
    assert caught.value.parameter == "hypotheses"
    with pytest.raises(InvalidParameterError, match="documents must be a corpus of at least one document"):
        evaluate({"even": "even"}, [], progress=False)  # the wording it follows


@pytest.mark.parametrize("text, line", [("[]\n", ":1"), ("\n  [ ]\n", ":2"), ("", "")])
def test_score_says_a_json_file_of_no_object_holds_no_segmentation(tmp_path, monkeypatch, text, line):
    """An empty JSON array given as segmentations went to the corpus reader, which refused it
    asking for "at least one document (a JSON object with 'units')": units that scoring does not
    need. Such a file, or an empty one, or standard input holding either, holds no segmentation."""
    import io
    import sys

    ref, empty = tmp_path / "ref.jsonl", tmp_path / "empty.json"
    ref.write_text('{"id": "a", "boundaries": [3], "n_units": 10}\n', encoding="utf-8")
    empty.write_text(text, encoding="utf-8")
    for args in ((empty, ref), (ref, empty)):
        with pytest.raises(CorpusFormatError) as caught:
            score_files(*args)
        assert str(caught.value).startswith(f"{empty}{line}: the file holds no segmentation: expected at least one "
                                            "JSON object holding ")
        assert "'boundaries' with 'n_units'" in str(caught.value) and "'masses'" in str(caught.value)
        assert "'units'" not in str(caught.value)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    with pytest.raises(CorpusFormatError, match=rf"^<stdin>{line}: standard input holds no segmentation: "):
        score_files("-", ref)
    folder = tmp_path / "corpus"  # in a folder read as a corpus, the empty file is left out as before
    folder.mkdir()
    (folder / "a.json").write_text(text, encoding="utf-8")
    (folder / "b.jsonl").write_text(json.dumps({"id": "a", "units": ["u"] * 10, "boundaries": [3]}) + "\n",
                                    encoding="utf-8")
    with pytest.warns(UserWarning, match="left out of the corpus: a.json"):
        assert score_files(folder, ref).documents["a"]["f1"] == 1.0


def test_score_reads_labels_as_reference_or_hypothesis_as_csv_label_columns_give_them(tmp_path):
    """``"labels"`` (one segment label per unit) could not be scored: bare, it was refused ("expected
    'boundaries' with 'n_units'..."); beside units, the corpus reader kept it in meta with a warning
    and score then said the document "has no segmentation to score". CSV label columns could."""
    import warnings

    labels = ["intro", "intro", "body", "body", "body", "end"]  # boundaries 2 and 5, by hand
    bare, corpus, csv, hyp = (tmp_path / name for name in ("bare.jsonl", "corpus.jsonl", "ref.csv", "hyp.jsonl"))
    bare.write_text(json.dumps({"id": "a", "labels": labels}) + "\n", encoding="utf-8")
    corpus.write_text(json.dumps({"id": "a", "units": list("uvwxyz"), "labels": labels}) + "\n", encoding="utf-8")
    csv.write_text("document,text,label\n" + "".join(f"a,{u},{x}\n" for u, x in zip("uvwxyz", labels)), encoding="utf-8")
    hyp.write_text('{"id": "a", "boundaries": [2, 4], "n_units": 6}\n', encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from_csv = score_files(csv, hyp).documents["a"]
        assert score_files(bare, hyp).documents["a"] == score_files(corpus, hyp).documents["a"] == from_csv
        assert from_csv["precision"] == from_csv["recall"] == 0.5  # 2 found of (2, 5); (2, 4) placed
        assert score_files(hyp, bare).documents["a"]["precision"] == 0.5  # as the hypothesis too
    # one list per annotator; what contradicts itself is refused naming the key
    (tmp_path / "two.jsonl").write_text(json.dumps({"id": "a", "labels": [labels, [0] * 6], "n_units": 6}) + "\n")
    assert score_files(tmp_path / "two.jsonl", hyp).documents["a"]["n_references"] == 2
    for record, message in (({"id": "a", "labels": labels, "n_units": 7}, "'labels' label 6 units, but 'n_units' is 7"),
                            ({"id": "a", "labels": [labels, [0] * 5]},
                             r"the lists of 'labels' label different numbers of units \(6, 5\)"),
                            ({"id": "a", "labels": [0, None]}, r"labels\[1\] is None")):
        (tmp_path / "bad.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
        with pytest.raises(CorpusFormatError, match=rf"bad\.jsonl:1: document 'a': .*{message}"):
            score_files(tmp_path / "bad.jsonl", hyp)


def test_units_check_takes_string_subclasses_and_names_the_first_unit_that_is_not_text():
    # every segmenter call of every restart checks its units: the check gathers the types present
    # first, and only on a non-string walks the units to name the first one
    from stability.checks import check_units
    from stability.exceptions import InvalidTypeError

    class Line(str):
        pass

    check_units([Line("a"), "b", Line("c")] * 1000)
    units: list = ["a"] * 500 + [b"bytes", 3]
    with pytest.raises(InvalidTypeError, match=r"units\[500\] must be a string; received bytes"):
        check_units(units)


def _segeval_dataset(tmp_path, name, items):
    """A segeval dataset file written by segeval itself (``output_linear_mass_json``)."""
    from segeval.data import Dataset
    from segeval.data.jsonutils import output_linear_mass_json

    path = tmp_path / name
    output_linear_mass_json(str(path), Dataset({item: {coder: tuple(m) for coder, m in coders.items()}
                                                for item, coders in items.items()}))
    return path


def test_score_reads_segeval_datasets_and_gives_segevals_numbers(tmp_path):
    """A segeval user's files (its dataset JSON, items -> coders -> masses) were refused ("expected
    'references' or 'boundaries'... received the keys 'items', 'segmentation_type'")."""
    import segeval

    ref = _segeval_dataset(tmp_path, "ref.json", {"a": {"ann1": [3, 4, 3], "ann2": [3, 7]}, "b": {"ann1": [2, 2, 4]}})
    hyp = _segeval_dataset(tmp_path, "hyp.json", {"a": {"sys": [3, 7]}, "b": {"sys": [4, 4]}})
    scored = score_files(ref, hyp)
    for item, (first, mine) in {"a": ((3, 4, 3), (3, 7)), "b": ((2, 2, 4), (4, 4))}.items():
        # B and S as segeval 2.0.11 computes them (the first coder is the reference of single-reference metrics)
        assert scored.documents[item]["boundary_similarity"] == pytest.approx(float(segeval.boundary_similarity(mine, first)))
        assert scored.documents[item]["segmentation_similarity"] == pytest.approx(float(segeval.segmentation_similarity(mine, first)))
    assert scored.documents["a"]["n_references"] == 2 and "n_references" not in scored.documents["b"]  # two coders of a


def test_score_scores_one_coder_of_a_segeval_dataset_against_the_others(tmp_path):
    import segeval

    items = {"a": {"1": [2, 3, 3], "2": [2, 6], "3": [5, 3]}}
    data = _segeval_dataset(tmp_path, "data.json", items)
    result = CliRunner().invoke(app, ["score", "-R", str(data), "-H", str(data), "--report-format", "json"])
    assert result.exit_code == 1 and "choose one of its coders, '1', '2', '3': --coder" in result.stderr
    result = CliRunner().invoke(app, ["score", "-R", str(data), "-H", str(data), "--coder", "3",
                                      "--report-format", "json"])
    assert result.exit_code == 0, result.output
    scored = json.loads(result.stdout)["documents"]["a"]
    # coder 3 against coder 1, the first of the others (not against itself: B would be 1)
    assert scored["boundary_similarity"] == pytest.approx(float(segeval.boundary_similarity((5, 3), (2, 3, 3))))
    assert scored["boundary_similarity"] < 1
    with pytest.raises(InvalidParameterError, match=r"item 'a' \(.*data.json:1\) has no coder '9'; its coders: '1', '2', '3'"):
        score_files(data, data, coder="9")
    only = _segeval_dataset(tmp_path, "only.json", {"a": {"3": [5, 3]}})
    with pytest.raises(InvalidParameterError, match="its only reference is coder '3', the hypothesis"):
        score_files(only, data, coder="3")
    bare = tmp_path / "hyp.jsonl"
    bare.write_text('{"id": "a", "masses": [5, 3]}\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="a coder .'3'. is chosen in a segeval dataset, and this hypothesis is not"):
        score_files(data, bare, coder="3")


@pytest.mark.parametrize("dataset, message", [
    ({"segmentation_type": "nested", "items": {"a": {"1": [3]}}}, "'segmentation_type' must be 'linear'"),
    ({"segmentation_type": "linear", "items": {}}, "'items' must be an object item -> {coder: \\[masses\\]} of at least one"),
    ({"segmentation_type": "linear", "items": {"a": [3, 4]}}, "item 'a' of the segeval dataset: expected an object coder"),
    ({"segmentation_type": "linear", "items": {"a": {"1": [3, 4], "2": [3]}}},
     r"item 'a' of the segeval dataset: its coders' masses add up to different numbers of units \('1': 7, '2': 3\)"),
    ({"segmentation_type": "linear", "items": {"a": {"1": [3, 0]}}}, "item 'a' of the segeval dataset: "),
])
def test_score_refuses_a_broken_segeval_dataset_naming_the_item(tmp_path, dataset, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(dataset), encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=message):
        score_files(path, path)


def test_score_places_a_pipelines_chunk_texts_on_the_reference_corpus_units(tmp_path):
    """Chunks exported from a RAG pipeline ({"id", "chunks": [texts]}) were refused ("expected
    'references' or 'boundaries'..."); they are placed on the reference document's units by the
    rule a chunker run by the harness follows (ChunkerSegmenter: a chunk start snaps to the nearer
    end of its unit), whitespace changed and overlaps allowed."""
    from segmenters.chunkers import ChunkerSegmenter

    corpus = tmp_path / "corpus.jsonl"
    units = ["Rain is coming.", "Bring a coat.", "The match ended.", "Our team won.", "Fans cheered."]
    corpus.write_text(json.dumps({"id": "d", "units": units, "references": [[2]]}) + "\n", encoding="utf-8")
    chunks = ["Rain is coming.  Bring a coat. The match", "match ended.\nOur team won.", "Fans cheered."]
    hyp = tmp_path / "chunks.jsonl"
    hyp.write_text(json.dumps({"id": "d", "chunks": chunks}) + "\n", encoding="utf-8")
    scored = score_files(corpus, hyp)
    # by hand: the second chunk starts at 'match', 3 characters into unit 2 of 13: boundary 2; the third at unit 4
    assert ChunkerSegmenter(lambda text: chunks).segment(units) == [2, 4]
    assert (scored.documents["d"]["precision"], scored.documents["d"]["recall"]) == (0.5, 1.0)
    result = CliRunner().invoke(app, ["score", "-R", str(corpus), "-H", str(hyp), "--report-format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["documents"]["d"]["precision"] == 0.5


@pytest.mark.parametrize("reference, record, message", [
    ('{"id": "d", "masses": [2, 3]}', {"id": "d", "chunks": ["a b"]},
     r"document 'd': the hypothesis gives chunk texts \(.*chunks.jsonl:1\), .* the reference \(.*ref.jsonl:1\) has no "
     "units: give as reference the corpus"),
    (None, {"id": "d", "chunks": ["Rain", "zzz"]}, r"document 'd' \(.*chunks.jsonl:1\): chunker output: chunk 1 'zzz' not found"),
    (None, {"id": "d", "chunks": "Rain is coming."}, "document 'd': expected 'chunks' to be a list of the chunk texts"),
    (None, {"id": "d", "chunks": ["Rain"], "boundaries": [2], "n_units": 5},
     "document 'd': expected its segmentation in one key; received 'chunks' and 'boundaries'"),
])
def test_score_says_what_is_wrong_with_chunk_texts(tmp_path, reference, record, message):
    ref = tmp_path / "ref.jsonl"
    units = ["Rain is coming.", "Bring a coat.", "The match ended.", "Our team won.", "Fans cheered."]
    ref.write_text((reference or json.dumps({"id": "d", "units": units, "references": [[2]]})) + "\n", encoding="utf-8")
    hyp = tmp_path / "chunks.jsonl"
    hyp.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(StabilityError, match=message):
        score_files(ref, hyp)


def test_score_segmentations_places_chunk_texts_on_the_documents_units():
    """score_segmentations took Segmentations only: a notebook holding a pipeline's chunks and the
    annotated Documents scores them as `stability score` scores a file's "chunks"."""
    from stability import Document, Segmentation
    from stability.scoring import score_segmentations

    units = ("Rain is coming.", "Bring a coat.", "The match ended.", "Our team won.", "Fans cheered.")
    doc = Document("d", units, references=([2],))
    chunks = ["Rain is coming.  Bring a coat. The match", "match ended.\nOur team won.", "Fans cheered."]
    scored = score_segmentations([doc], {"d": chunks})
    assert scored.documents == score_segmentations([doc], {"d": Segmentation([2, 4], 5)}).documents  # by hand: [2, 4]
    with pytest.raises(InvalidParameterError, match="the reference .* has no units"):
        score_segmentations({"d": Segmentation([2], 5)}, {"d": chunks})


def test_score_reads_nltk_gap_strings_and_gives_nltks_numbers(tmp_path):
    """An nltk user's segmentations, boundary strings of a character per gap ("001000100": units 3
    and 7 of 10 start segments), were refused ("boundaries must be a sequence of integers; received
    str"); they are read as Segmentation.from_gaps reads them, n_units from their length."""
    import segeval
    from nltk.metrics.segmentation import pk, windowdiff

    ref_gaps = {"a": "001000100", "b": "0001000010010"}
    hyp_gaps = {"a": "010000100", "b": "0000000010000"}
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text("".join(json.dumps({"id": d, "boundaries": g}) + "\n" for d, g in ref_gaps.items()))
    hyp.write_text("".join(json.dumps({"id": d, "boundaries": g, "n_units": len(g) + 1}) + "\n"
                           for d, g in hyp_gaps.items()))
    scored = score_files(ref, hyp, k=3)
    for doc, r in ref_gaps.items():
        h = hyp_gaps[doc]
        # nltk 3.x on gap strings with an explicit k (metrics-peers.md section 2: the gap encoding agrees)
        assert scored.documents[doc]["pk"] == pytest.approx(pk(r, h, k=3))
        assert scored.documents[doc]["windowdiff"] == pytest.approx(windowdiff(r, h, 3))
        # segeval 2.0.11 reads the same strings as one character per gap (convert_nltk_to_masses)
        masses = [segeval.convert_nltk_to_masses(s) for s in (h, r)]
        assert scored.documents[doc]["boundary_similarity"] == pytest.approx(float(segeval.boundary_similarity(*masses)))
    # several annotators, and the per-unit string nltk is sometimes given (one character too many)
    ref.write_text('{"id": "a", "references": ["001000100", "000100100"]}\n')
    hyp.write_text('{"id": "a", "boundaries": [3, 7], "n_units": 10}\n')
    assert score_files(ref, hyp).documents["a"]["n_references"] == 2
    hyp.write_text('{"id": "a", "boundaries": "0010001000", "n_units": 10}\n')
    with pytest.raises(CorpusFormatError, match=r"hyp.jsonl:1: document 'a': 'boundaries' is a gap string of 10 "
                       r"characters.*so 11 units, but 'n_units' is 10.*one too long: drop its last character"):
        score_files(ref, hyp)


def test_score_reads_a_table_of_segmentations_a_document_a_row(tmp_path):
    """A CSV of boundaries per document (id, boundaries, n_units), as another tool or a
    spreadsheet exports them, was read as a corpus and refused ("expected a text column"); a TSV
    of masses too. A table of a boundary a row is refused saying how to write it."""
    ref, hyp = tmp_path / "ref.csv", tmp_path / "hyp.tsv"
    ref.write_text('id,boundaries,n_units\na,"[3, 7]",10\nb,"2,5",10\nc,4,8\nd,,6\n')
    hyp.write_text("doc_id\tmasses\na\t3 5 2\nb\t[5, 5]\nc\t4 4\nd\t6\n")
    jsonl = tmp_path / "ref.jsonl"
    jsonl.write_text('{"id": "a", "boundaries": [3, 7], "n_units": 10}\n{"id": "b", "boundaries": [2, 5], "n_units": 10}\n'
                     '{"id": "c", "boundaries": [4], "n_units": 8}\n{"id": "d", "boundaries": [], "n_units": 6}\n')
    def scored(path):  # NaN is not NaN: compared as None, the files named aside
        return {k: v for k, v in score_files(path, hyp).to_dict().items() if k != "reference"}

    assert scored(ref) == scored(jsonl)
    gaps = tmp_path / "gaps.csv"
    gaps.write_text("id,boundaries\na,001000100\nb,010010000\nc,0001000\nd,00000\n")
    assert scored(gaps) == scored(jsonl)
    ones, one = tmp_path / "ones.csv", tmp_path / "one.jsonl"  # 11 of 20 units, not a gap string of 2 characters
    ones.write_text("id,boundaries,n_units\ne,11,20\n")
    one.write_text('{"id": "e", "boundaries": [11], "n_units": 20}\n')
    assert score_files(ones, one).documents["e"]["f1"] == 1.0
    long = tmp_path / "long.csv"
    long.write_text("doc_id,boundary\na,3\na,7\n")
    with pytest.raises(CorpusFormatError, match=r"long.csv:1: a table without a text column is read as segmentations, a document a row, under a column named .references. or .boundaries. or .segments. or .masses. .*"
                       r"whose 'boundary' is none of these \(a boundary a row: put each document's on one row"):
        score_files(long, hyp)
    empty = tmp_path / "empty.csv"
    empty.write_text("id,boundaries,n_units\n")
    with pytest.raises(CorpusFormatError, match=r"empty.csv: the file holds no segmentation: its header \(id, "
                       r"boundaries, n_units\) has no row under it"):
        score_files(empty, hyp)
    bad = tmp_path / "bad.csv"
    bad.write_text("id,boundaries,n_units\na,3 x,10\n")
    with pytest.raises(CorpusFormatError, match=r"bad.csv:2: column 'boundaries': expected a list of integers"):
        score_files(bad, hyp)


def test_score_reads_a_documents_id_under_the_names_tools_give_it(tmp_path):
    """``{"doc_id": "d1", "boundaries": ...}`` (the id as another tool names it) was paired as
    document '1', its line, and the error listed '1' and '2' without saying why."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "d1", "boundaries": [3, 7], "n_units": 10}\n{"id": "d2", "masses": [2, 3, 5]}\n')
    hyp.write_text('{"doc_id": "d1", "boundaries": [3, 8], "n_units": 10}\n{"document": "d2", "masses": [5, 5]}\n')
    assert set(score_files(ref, hyp).documents) == {"d1", "d2"}
    hyp.write_text('{"boundaries": [3, 8], "n_units": 10}\n{"masses": [5, 5]}\n')
    with pytest.raises(InvalidParameterError, match=r"hypotheses without a reference: \['1', '2'\].*the records of "
                       r".*hyp.jsonl have no id \('id' or 'dial_id' or 'document' or 'doc_id'.*named by its line"):
        score_files(ref, hyp)
    hyp.write_text('{"doc_id": [1], "boundaries": [3, 8], "n_units": 10}\n')
    with pytest.raises(CorpusFormatError, match=r"hyp.jsonl:1: 'doc_id' must be a string or an integer"):
        score_files(ref, hyp)


def test_score_says_how_to_give_chunks_exported_a_chunk_a_line(tmp_path):
    """A pipeline's export of a chunk a line (``{"doc_id": "d1", "chunk_id": 0, "text": ...}``)
    was refused with "did you mean 'chunks'?", which renaming 'text' to 'chunks' did not fix."""
    hyp = tmp_path / "chunks.jsonl"
    hyp.write_text('{"doc_id": "d1", "chunk_id": 0, "page_content": "Rain falls."}\n'
                   '{"doc_id": "d1", "chunk_id": 1, "page_content": "Sun shines."}\n')
    with pytest.raises(CorpusFormatError, match=r"chunks.jsonl:1: document 'd1': this record holds one text "
                       r"\('page_content'\), as a pipeline exports a chunk a line; chunks are read a document a line, "
                       r"\{\"id\": \"d1\", \"chunks\": \[\"first chunk\""):
        score_files(hyp, hyp)


@pytest.mark.parametrize("boundaries, hint", [
    ([0, 3, 7], "received 0 in [0, 3, 7]; 0 starts the first segment, not a boundary: leave it out"),
    ([3, 7, 10], "received 10 in [3, 7, 10]; 10 ends the last segment (exclusive segment ends, as ruptures writes"),
])
def test_score_says_to_leave_out_a_segmentations_start_and_end(tmp_path, boundaries, hint):
    """Segment starts written from 0, or segment ends up to n (ruptures' breakpoints), were refused
    as out of 1..n-1 without saying that the 0 or the n is the one to leave out."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text('{"id": "d", "boundaries": [3, 7], "n_units": 10}\n')
    hyp.write_text(json.dumps({"id": "d", "boundaries": boundaries, "n_units": 10}) + "\n")
    with pytest.raises(CorpusFormatError) as caught:
        score_files(ref, hyp)
    assert hint in str(caught.value)


def test_score_pairing_errors_count_the_ids_and_say_when_none_pair(tmp_path):
    """Ids that all differ (a file extension kept on one side) were listed five a side, as if five
    documents were missing of each: how many, and that none paired, went unsaid."""
    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    ref.write_text("".join(json.dumps({"id": f"doc{i}.txt", "boundaries": [3], "n_units": 10}) + "\n" for i in range(8)))
    hyp.write_text("".join(json.dumps({"id": f"doc{i}", "boundaries": [3], "n_units": 10}) + "\n" for i in range(8)))
    with pytest.raises(InvalidParameterError, match=r"hypotheses without a reference: \['doc0', 'doc1', 'doc2', 'doc3', "
                       r"'doc4'\] and 3 more, of 8; .* no document id is in both \(.*compare 'doc0' and 'doc0.txt'\)"):
        score_files(ref, hyp)
    hyp.write_text("".join(json.dumps({"id": f"doc{i}.txt", "boundaries": [3], "n_units": 10}) + "\n" for i in range(1)))
    with pytest.raises(InvalidParameterError) as caught:
        score_files(ref, hyp)
    assert str(caught.value).endswith("references without a hypothesis: ['doc1.txt', 'doc2.txt', 'doc3.txt', "
                                      "'doc4.txt', 'doc5.txt'] and 2 more, of 8")
