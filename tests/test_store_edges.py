"""Results folders as users leave them: lines of another run, a recorded crash retried, a
refused resume, an overwritten run's reports (each went wrong without a word before; see the
docstrings)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stability.cli import app
from stability.exceptions import CorpusFormatError
from stability.store import read_run

TESTS = Path(__file__).resolve().parent
BASE = ["run", "--limit", "3", "-r", "3", "--jobs", "1", "--no-progress"]


def _run(tmp_path: Path, folder: str, *args: str) -> Path:
    result = CliRunner().invoke(app, BASE + ["--out", str(tmp_path / folder), *args])
    assert result.exit_code == 0, result.output
    return tmp_path / folder / "results.jsonl"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("store")
    mine = _run(root, "mine", "-s", "c99", "-s", "even")
    other = _run(root, "other", "-s", "c99", "-s", "u00", "-s", "even", "--seed", "3")
    return mine.read_text(encoding="utf-8").splitlines(), other.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("stray, expected", [
    (lambda other: [other[1]], r"a record computed with seed 3, where the run's is 0"),
    (lambda other: [other[2]], r"a record of segmenter 'u00', which the run above it does not run \('c99', 'even'\)"),
    (lambda other: [other[0]], r"a run record that contradicts the file's first \(seed: 0 in the first, 3 here"),
])
def test_lines_of_another_run_are_refused_naming_the_line(runs, tmp_path, stray, expected):
    """A result line of another run (other seed, another segmenter) or its header appended to a
    results file was read as this run's: the report mixed seeds, and a resume kept it."""
    mine, other = runs
    path = tmp_path / "results.jsonl"
    path.write_text("\n".join(mine[:4] + stray(other) + mine[4:]) + "\n", encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=rf"results\.jsonl:5: {expected}.*another run's results file"):
        read_run(path)
    path.write_text("\n".join(mine) + "\n", encoding="utf-8")
    assert len(read_run(path).entries) == 6  # the file as written: read


def test_a_damaged_last_line_followed_by_blank_lines_is_dropped(runs, tmp_path):
    mine, _ = runs
    path = tmp_path / "results.jsonl"
    path.write_text("\n".join(mine[:-1] + [mine[-1][:30]]) + "\n\n\n", encoding="utf-8")
    with pytest.warns(Warning, match=r"results\.jsonl:7: invalid last line left out"):
        assert len(read_run(path).entries) == 5  # was an error: 'the other lines hold finished results'


def _cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "stability.cli", "run", str(folder / "crash.toml"), "--no-progress",
                           *args], env=env, cwd=folder, capture_output=True, text=True, timeout=300)


def test_a_recorded_crash_is_retried_in_a_worker_and_a_refused_resume_keeps_the_marker(tmp_path):
    """`--resume --retry-failed` ran a recorded crash again in-process: the run died every time
    (exit 13, no word). And a resume refused for its settings removed the marker naming the pair
    that killed the run, so the next resume died again on it."""
    with open(tmp_path / "corpus.jsonl", "w", encoding="utf-8") as file:
        for doc in ("ok1", "bad", "ok2"):
            file.write(json.dumps({"id": doc, "units": [f"{doc} {i}" for i in range(12)]}) + "\n")
    (tmp_path / "crash.toml").write_text(
        'allow_plugins = true\n[corpus]\npath = "corpus.jsonl"\n[segmenters.crash]\nsegmenter = "faults:Fault"\n'
        'kind = "os_exit"\nmarker = "bad"\n[segmenters.even]\n[run]\nn_restarts = 3\n[output]\ndir = "out"\n',
        encoding="utf-8")
    marker = tmp_path / "out" / "results.jsonl.running"
    assert _cli(tmp_path).returncode == 13 and marker.exists()  # in-process: the segmenter kills the run
    refused = _cli(tmp_path, "--resume", "-r", "4")
    assert refused.returncode == 1 and "different settings" in refused.stderr
    assert marker.exists()  # the refused resume left the folder as it was
    assert _cli(tmp_path, "--resume").returncode == 3  # the marker's pair ran in a worker: a recorded crash
    retried = _cli(tmp_path, "--resume", "--retry-failed")
    assert retried.returncode == 3, retried.stderr  # run again in a worker, recorded again: the run lives
    assert "the worker process running the segmenter died" in retried.stderr
    assert not marker.exists()


def test_overwrite_removes_the_replaced_runs_reports(tmp_path):
    """The overwritten run's report.html, report.csv, report.txt and documents.csv stayed beside
    the new run's results, describing another run."""
    config = tmp_path / "fmt.toml"
    config.write_text('[corpus]\ndemo = true\nlimit = 3\n[segmenters.even]\n[run]\nn_restarts = 2\n[output]\n'
                      f'dir = "{(tmp_path / "out").as_posix()}"\nformats = ["table", "md", "csv", "json", "html"]\n',
                      encoding="utf-8")
    assert CliRunner().invoke(app, ["run", str(config), "--no-progress"]).exit_code == 0
    result = CliRunner().invoke(app, ["run", "-s", "none", "--limit", "2", "-r", "2", "--out", str(tmp_path / "out"),
                                      "--overwrite", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.json", "report.md", "results.jsonl"]
