"""`stability validate` cases found by running studies as users would (each recomputed,
misreported, misplaced or mixed something before; see the docstrings)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from stability.cli import app
from stability.exceptions import InvalidParameterError
from stability.readers import CorpusWarning
from stability.study import StudyOptions, load_corpora, run_study
from test_study import TWO_CORPORA

ARGS = ["--jobs", "1", "--limit", "3", "--restarts", "2", "--bootstrap", "40", "--no-progress"]


def _pairs(path) -> int:
    return sum(json.loads(line).get("type") == "result" for line in open(path, encoding="utf-8"))


def test_selecting_one_corpus_reuses_its_folder_of_the_cache(tmp_path):
    """With --corpus NAME, the corpus was computed again into <out>/results.jsonl (its cache is
    <out>/NAME), and the next --corpus OTHER was refused as 'computed on another corpus'."""
    config = tmp_path / "multi.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    out, docs = tmp_path / "cache", tmp_path / "docs"
    base = ["validate", str(config), "--out", str(out), "--docs", str(docs), *ARGS]
    assert CliRunner().invoke(app, base).exit_code == 0
    before = (out / "alpha" / "results.jsonl").read_bytes()
    for name in ("alpha", "beta"):
        result = CliRunner().invoke(app, base + ["--corpus", name])
        assert result.exit_code == 0, result.output
    assert not (out / "results.jsonl").exists()
    assert (out / "alpha" / "results.jsonl").read_bytes() == before  # nothing computed again
    assert (docs / "validation" / "beta").is_dir()  # the plots keep the layout of several corpora


@pytest.mark.parametrize("name", ["../escaped", "x/../../esc", "./a", ".hidden", ""])
def test_a_corpus_name_that_is_not_a_folder_name_is_refused(tmp_path, name):
    """Names were used as folder names as they were: '../escaped' wrote the cache outside --out."""
    config = tmp_path / "study.toml"
    config.write_text(TWO_CORPORA.replace("[corpus.alpha]", f"[corpus.{json.dumps(name)}]"), encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=f"corpus name {name!r}: expected a name usable as a folder"):
        load_corpora([config])


def test_a_corpus_table_with_both_options_and_named_corpora_says_so(tmp_path):
    config = tmp_path / "mix.toml"
    config.write_text('[corpus]\npath = "x.jsonl"\n[corpus.x]\ndemo = true\n[segmenters.even]\n[segmenters.none]\n'
                      '[segmenters.c99]\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"\[corpus\] holds corpus options \(path\) and \[corpus\.NAME\] "
                                                    r"tables \(x\); expected one corpus"):
        load_corpora([config])


def test_documents_without_references_are_left_out_of_the_study_with_a_warning(tmp_path):
    """They were kept: the stability means covered 4 documents, the reference means 3."""
    topics = ["cats purr and chase mice", "stars shine in distant galaxies", "rivers flow to the sea"]
    units = [f"{topics[i // 4]} sentence {i} about {topics[i // 4].split()[0]}." for i in range(12)]
    corpus = tmp_path / "partial.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"d{k}", "units": units, **({} if k == 1 else {"boundaries": [4, 8]})})
                              + "\n" for k in range(4)), encoding="utf-8")
    config = tmp_path / "partial.toml"
    config.write_text(f'[corpus]\npath = "{corpus.as_posix()}"\n[segmenters.even]\nn_segments = 3\n[segmenters.none]\n'
                      '[segmenters.tt]\nsegmenter = "texttiling"\nw = 3\nk = 2\n[segmenters.c99]\n[run]\nn_restarts = 2\n',
                      encoding="utf-8")
    with pytest.warns(CorpusWarning, match=r"1 document\(s\) without references left out of the study \('d1'\)"):
        run = run_study(StudyOptions((str(config),), out=str(tmp_path / "o"), jobs=1, bootstrap=40, progress=False))
    assert run.studies[0].documents == ["d0", "d2", "d3"]


def test_plot_links_survive_a_corpus_name_with_spaces_and_brackets(tmp_path):
    """`![...](validation/Choi 3-11 (set 1)/...svg)` ends the link at the space: no plot shown."""
    config = tmp_path / "sp.toml"
    config.write_text(TWO_CORPORA.replace("[corpus.alpha]", '[corpus."Choi 3-11 (set 1)"]'), encoding="utf-8")
    assert CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "c"), "--docs", str(tmp_path / "d"),
                                    *ARGS]).exit_code == 0
    text = (tmp_path / "d" / "validation.md").read_text(encoding="utf-8")
    assert "](validation/Choi%203-11%20%28set%201%29/" in text and "](validation/Choi 3-11" not in text
    from markdown_it import MarkdownIt  # the test extra's CommonMark parser

    images = [t for block in MarkdownIt().parse(text) for t in (block.children or []) if t.type == "image"]
    assert sum("set%201" in image.attrs["src"] for image in images) >= 2


def test_an_interrupted_study_says_what_is_cached(tmp_path):
    """It said 'nothing was saved (no output directory...)' while its folders held results."""
    config = tmp_path / "slow.toml"
    config.write_text(TWO_CORPORA.replace("n_documents = 5", "n_documents = 40"), encoding="utf-8")
    out = tmp_path / "cache"
    process = subprocess.Popen([sys.executable, "-m", "stability.cli", "validate", str(config), "--out", str(out),
                                "--jobs", "1", "--restarts", "200", "--bootstrap", "40", "--no-progress"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        results = out / "alpha" / "results.jsonl"
        while time.monotonic() < deadline and process.poll() is None and not (
                results.exists() and results.read_bytes().count(b"\n") >= 4):
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    cached = _pairs(results)
    assert cached >= 3
    assert (f"interrupted: {cached} finished (configuration, document) pair(s) are cached in {out.as_posix()}; rerun "
            "the same command to continue (the study resumes from them)") in stderr.splitlines()


def _tiny(tmp_path) -> str:
    """A [corpus.tiny] table: documents of one unit, which no segmenter can split."""
    corpus = tmp_path / "tiny.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"t{k}", "units": [f"one short sentence {k}."], "boundaries": []}) + "\n"
                              for k in range(4)), encoding="utf-8")
    return f'[corpus.tiny]\npath = "{corpus.as_posix()}"\n'


def test_a_corpus_nothing_can_rank_is_said_in_the_report_beside_the_others(tmp_path):
    """A corpus on which no score has a defined correlation (documents of one unit: no
    configuration places a boundary) stopped a multi-corpus study after its run with 'no stability
    score has a defined correlation with the references', naming neither the corpus nor the cause,
    and no report; alone, it was blamed on content-blind segmenters beside c99 and TextTiling."""
    config = tmp_path / "mixed.toml"
    config.write_text(_tiny(tmp_path) + TWO_CORPORA.replace("[corpus.beta]", "[corpus.gamma]"), encoding="utf-8")
    docs = tmp_path / "docs"
    result = CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "c"), "--docs", str(docs), *ARGS])
    assert result.exit_code == 0, result.output
    text = (docs / "validation.md").read_text(encoding="utf-8")
    assert ("- No stability score has a defined correlation with the references on this corpus: no configuration "
            "placed a boundary on any of its documents (are they long enough to split?)") in text
    assert text.count("- Best candidate on this corpus:") == 2  # alpha and gamma
    alone = tmp_path / "alone.toml"
    alone.write_text(_tiny(tmp_path) + TWO_CORPORA.split("[segmenters.c99]", 1)[1].join(["[segmenters.c99]", ""]),
                     encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(alone), "--out", str(tmp_path / "c2"), *ARGS])
    assert result.exit_code == 1
    assert ("error: no stability score has a defined correlation with the references on any corpus, so nothing can "
            "be ranked ('tiny': no configuration placed a boundary on any of its documents") in result.stderr


def test_a_small_study_says_what_its_report_cannot_claim(tmp_path):
    """Read by a user who tried a study on a few documents with few restarts: the report promised
    a hand-written interpretation at its end that was not there, said the restart check's
    `covered` share was expected above 95% while an interval over 1 restart holds nothing, and
    said a configuration's value settles, over 3 documents."""
    config = tmp_path / "small.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    docs = tmp_path / "docs"
    args = [arg if arg != "2" else "5" for arg in ARGS]  # 5 restarts: the check compares 2 with 5
    assert CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "c"), "--docs", str(docs),
                                    *args]).exit_code == 0
    text = (docs / "validation.md").read_text(encoding="utf-8")
    assert ("A hand-written interpretation in `validation-discussion.md` beside this file (no numbers, which change "
            "with the data) would be appended at the end; there is none now.") in text
    assert "## Interpretation" not in text and "appended verbatim" not in text
    assert ("with 2 restarts such an interval lies between the lowest and the highest restart's value, so it holds a "
            "value at most 50.0% of the time, below the 0.95 level: run at least 12 restarts") in text
    assert "a share above that level is expected" not in text
    assert "a mean over documents and settles as documents are added (after about 30: the warning above)" in text
    (docs / "validation-discussion.md").write_text("Our reading.\n", encoding="utf-8")
    assert CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "c"), "--docs", str(docs),
                                    *args]).exit_code == 0
    text = (docs / "validation.md").read_text(encoding="utf-8")
    assert "(`validation-discussion.md` beside this file, appended verbatim) quotes no numbers" in text
    assert text.rstrip().endswith("## Interpretation\n\nOur reading.")


def test_a_small_try_gets_its_own_cache_folder_and_limit_counts_documents_with_references(tmp_path, monkeypatch):
    """`--limit 3 --restarts 2` wrote into the whole study's default folder, so running the
    whole study next was refused ('computed on another corpus'); and --limit cut the corpus before
    the documents without references were left out, so `--limit 3` studied 2 documents, and the
    report said '2 of 4 documents' without saying why."""
    monkeypatch.chdir(tmp_path)
    topics = ["cats purr and chase mice", "stars shine in distant galaxies", "rivers flow to the sea"]
    units = [f"{topics[i // 4]} sentence {i} about {topics[i // 4].split()[0]}." for i in range(12)]
    (tmp_path / "partial.jsonl").write_text(
        "".join(json.dumps({"id": f"d{k}", "units": units, **({} if k == 1 else {"boundaries": [4, 8]})}) + "\n"
                for k in range(5)), encoding="utf-8")
    (tmp_path / "partial.toml").write_text(
        '[corpus]\npath = "partial.jsonl"\n[segmenters.even]\nn_segments = 3\n[segmenters.none]\n'
        '[segmenters.tt]\nsegmenter = "texttiling"\nw = 3\nk = 2\n[segmenters.c99]\n[run]\nn_restarts = 2\n'
        '[output]\ndir = "res"\n', encoding="utf-8")
    with pytest.warns(CorpusWarning, match=r"1 document\(s\) without references left out"):
        run = run_study(StudyOptions(("partial.toml",), jobs=1, bootstrap=40, progress=False, limit=3, restarts=2))
    assert run.options.out == "res-limit3-restarts2" and (tmp_path / "res-limit3-restarts2").is_dir()
    assert run.studies[0].documents == ["d0", "d2", "d3"]
    from stability.study.render import render_markdown

    text = render_markdown(run)
    assert "`partial` (partial.toml): 3 of 5 documents (1 without references left out)," in text
    assert "`--limit 3` keeps only the first 3 documents of each corpus (of those with references)." in text
    with pytest.warns(CorpusWarning):
        whole = run_study(StudyOptions(("partial.toml",), jobs=1, bootstrap=40, progress=False))
    assert whole.options.out == "res" and whole.studies[0].documents == ["d0", "d2", "d3", "d4"]


def test_the_comparison_section_names_the_protocol_where_the_report_cannot_link_it(tmp_path):
    """Outside the project's docs/ the decision section named the stability project's
    `docs/validation-protocol.md`, but the --comparison section still said 'Amendment 6 of
    validation-protocol.md', a file the user does not have."""
    config = tmp_path / "cmp.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    docs = tmp_path / "docs"
    assert CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "c"), "--docs", str(docs),
                                    "--comparison", *ARGS]).exit_code == 0
    text = (docs / "validation.md").read_text(encoding="utf-8")
    assert "chosen by Amendment 6 of the stability project's `docs/validation-protocol.md` and shown beside" in text
    assert "Amendment 6 of validation-protocol.md" not in text


def test_validate_reads_each_config_file_once(tmp_path, monkeypatch):
    """`validate` read its files twice: once to check the options and name the cache folder, once
    more to run; a file saved between the two gave a study mixing both versions (here: the cache
    folder chosen from the first, the corpora run from the second)."""
    import stability.study.run as study_run

    config = tmp_path / "multi.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    reads = []
    read_toml = study_run._read_toml

    def read_then_edit(path):
        reads.append(path)
        data = read_toml(path)
        config.write_text(TWO_CORPORA.replace("[corpus.alpha]", "[corpus.gamma]"), encoding="utf-8")  # saved now
        return data

    monkeypatch.setattr(study_run, "_read_toml", read_then_edit)
    out = tmp_path / "cache"
    result = CliRunner().invoke(app, ["validate", str(config), "--out", str(out), *ARGS])
    assert result.exit_code == 0, result.output
    assert sorted(p.parent.name for p in out.glob("*/results.jsonl")) == ["alpha", "beta"]
    assert reads == [config]
