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
