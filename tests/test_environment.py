"""Failures of the environment a run meets on shared machines and CI: a full disk while the
results file, its lock or the reports are written, a run already writing the folder, a corpus file
gone mid-run. Each is an error naming the file, nothing finished is lost, and a resume completes
the run to the results of one that was never stopped.

A full disk is simulated (tests cannot mount a small filesystem): the file's writes take part of
the bytes, then fail with ``ENOSPC``, as a write to a full disk does.
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import socket

import pytest
from faults import Removing, corpus
from typer.testing import CliRunner

from stability import evaluate
from stability.cli import app
from stability.store import ResultsLockedError, ResultsWriteError, read_run

SETTINGS = {"n_restarts": 3, "progress": False, "n_bootstrap": 50}
MARKERS = ("a", "b", "c", "d")


def even(units):
    return list(range(3, len(units), 3))


def run(out, **settings):
    return evaluate({"even": even}, corpus(*MARKERS), output=out, **{**SETTINGS, **settings})


def clean_records(tmp_path):
    """The records of the same run never stopped (the header left out: its provenance differs)."""
    out = tmp_path / "clean" / "results.jsonl"
    run(out)
    return out.read_text().splitlines()[1:]


class FullDisk:
    """A file object over ``real`` that takes ``budget`` more bytes, then fails with ENOSPC."""

    def __init__(self, real, budget: int) -> None:
        self.real, self.budget = real, budget

    def write(self, data):
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        if len(raw) > self.budget:
            taken, self.budget = raw[:self.budget], 0
            os.write(self.real.fileno(), taken)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.budget -= len(raw)
        os.write(self.real.fileno(), raw)
        return len(data)

    def __getattr__(self, name):  # flush, fileno, close, closed: the real file's
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def fill_disk_after(monkeypatch, name: str, budget: int) -> None:
    """Files called ``name`` opened from now on take ``budget`` bytes, then the disk is full."""
    real_open = pathlib.Path.open

    def opened(self, mode="r", *args, **kwargs):
        handle = real_open(self, mode, *args, **kwargs)
        if self.name == name and ("w" in mode or "a" in mode):
            return FullDisk(handle, budget)
        return handle

    monkeypatch.setattr(pathlib.Path, "open", opened)


def test_a_full_disk_while_results_are_written_names_the_file_and_a_resume_completes_the_run(tmp_path, monkeypatch):
    # before: a bare "[Errno 28] No space left on device" naming no file, saying nothing of what was kept
    expected = clean_records(tmp_path)
    out = tmp_path / "out" / "results.jsonl"
    sizing = tmp_path / "sizing.jsonl"
    run(sizing)
    header = len(sizing.read_text().splitlines()[0]) + 1  # the same run's header: as long as this one's
    fill_disk_after(monkeypatch, "results.jsonl", header + len(expected[0]) + 1 + len(expected[1]) // 2)
    with pytest.raises(ResultsWriteError) as info:
        run(out)
    error = info.value
    assert isinstance(error, OSError) and error.errno == errno.ENOSPC and error.filename == str(out)
    assert str(error).startswith(f"cannot write {out}: No space left on device; the 1 (segmenter, document) "
                                 f"pair(s) finished before it are in {out}; once it can be written again, "
                                 "resume the run (resume=True)")
    lines = out.read_text().split("\n")
    assert lines[1] == expected[0] and lines[2] == expected[1][:len(expected[1]) // 2]  # the cut line
    assert not (tmp_path / "out" / "results.jsonl.lock").exists()
    monkeypatch.undo()  # room again
    with pytest.warns(UserWarning, match="incomplete last line left out"):
        resumed = run(out, resume=True)
    assert out.read_text().splitlines()[1:] == expected
    assert [r.document for r in resumed.documents["even"]] == list(MARKERS)
    assert sorted(os.listdir(tmp_path / "out")) == ["results.jsonl"]


def test_a_write_failing_at_fsync_names_the_file_and_counts_what_was_written(tmp_path, monkeypatch):
    # a delayed write (NFS, a quota, a disk error) fails at fsync, not at write; before: a bare OSError
    import stability.store as store

    expected = clean_records(tmp_path)
    out = tmp_path / "results.jsonl"
    calls = []

    def fsync(descriptor):
        calls.append(descriptor)
        if len(calls) == 3:  # the header's, the first pair's, then the second pair's
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(store, "_SYNC_EVERY", 0.0)
    monkeypatch.setattr(store.os, "fsync", fsync)
    with pytest.raises(ResultsWriteError, match=rf"cannot write {out}: Input/output error; the 2 \(segmenter, "
                       "document\\) pair\\(s\\) finished before it are in"):
        run(out)
    monkeypatch.undo()
    run(out, resume=True)
    assert out.read_text().splitlines()[1:] == expected


def test_a_lock_that_cannot_be_written_is_not_left_behind(tmp_path, monkeypatch):
    # before: a full disk at the start left an empty lock file, and every later run, with room
    # again, was refused with "another run (pid ? on ?) is writing" until someone deleted it
    out = tmp_path / "results.jsonl"
    real_fdopen = os.fdopen

    def fdopen(descriptor, *args, **kwargs):  # the lock's owner is written through os.fdopen
        handle = real_fdopen(descriptor, *args, **kwargs)
        is_lock = os.path.basename(os.readlink(f"/proc/self/fd/{descriptor}")) == "results.jsonl.lock"
        return FullDisk(handle, 0) if is_lock else handle

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc to tell the lock's descriptor")
    monkeypatch.setattr(os, "fdopen", fdopen)
    with pytest.raises(OSError, match=rf"cannot write the lock file {out}.lock: No space left on device; "
                       "the run did not start"):
        run(out)
    assert not (tmp_path / "results.jsonl.lock").exists() and not out.exists()
    monkeypatch.undo()
    assert not run(out).failures  # room again: the run starts


def test_a_folder_a_live_run_is_writing_is_said_to_be_locked_not_dead(tmp_path):
    # before: "already exists and its run died while segmenter ... was running on document ...",
    # read from the live run's marker, while that run was well
    out = tmp_path / "results.jsonl"
    run(out)
    (tmp_path / "results.jsonl.lock").write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    (tmp_path / "results.jsonl.running").write_text(json.dumps(
        {"segmenter": "even", "document": "c", "document_hash": "0", "stream": None, "restarts": None}))
    with pytest.raises(ResultsLockedError, match=rf"results.jsonl.lock exists: another run \(pid {os.getpid()} on "):
        run(out)
    assert (tmp_path / "results.jsonl.running").exists()  # the live run's, left alone


def test_a_results_file_deleted_mid_run_is_not_said_to_keep_its_results(tmp_path):
    # a cleaner removing the output folder mid-run (in-process, the next marker write fails):
    # before, the error said what <the deleted file> held and to resume it
    folder = tmp_path / "out"
    out = folder / "results.jsonl"
    with pytest.raises(ResultsWriteError, match=rf"No such file or directory; {out} itself was deleted during "
                       "the run .*: run again$"):
        evaluate({"even": Removing(str(folder), marker="c ")}, corpus(*MARKERS), output=out, n_jobs=1, **SETTINGS)


def cli_corpus(tmp_path, n=4):
    folder = tmp_path / "corpus"
    folder.mkdir()
    for doc in corpus(*MARKERS[:n]):
        (folder / f"{doc.id}.txt").write_text("\n".join(doc.units) + "\n")
    return folder


def test_a_full_disk_while_the_reports_are_written_keeps_the_old_report_and_says_the_results_are_complete(
        tmp_path, monkeypatch):
    # before: a cut report.json was left in place of the report, and the error, "No space left on
    # device", named no file and did not say that the results were complete
    folder, out = cli_corpus(tmp_path), tmp_path / "out"
    args = ["run", "-s", "even", "-c", str(folder), "--corpus-format", "text", "--unit", "line", "-r", "2",
            "--no-progress", "--out", str(out)]
    cli = CliRunner()
    assert cli.invoke(app, args).exit_code == 0
    before = (out / "report.json").read_text()
    real_write_text = pathlib.Path.write_text

    def write_text(self, text, *args, **kwargs):
        if self.name.startswith("report.json"):
            real_write_text(self, text[:len(text) // 2], *args, **kwargs)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write_text(self, text, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "write_text", write_text)
    result = cli.invoke(app, args + ["--overwrite"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: No space left on device: '{out / 'report.json'}'; the results are complete (4 finished "
        f"(segmenter, document) pair(s) in {out / 'results.jsonl'}); write the reports with `stability report {out}`"]
    assert (out / "report.json").read_text() == before  # the previous report, whole
    assert sorted(os.listdir(out)) == ["report.json", "report.md", "results.jsonl"]


def test_a_corpus_file_gone_mid_run_is_named_with_what_is_kept_and_a_resume_completes_the_run(tmp_path):
    # before: "error: No such file or directory: '.../c.txt'" alone, as if the run were lost
    folder, out = cli_corpus(tmp_path), tmp_path / "out"
    gone = folder / "c.txt"
    kept = gone.read_text()
    config = tmp_path / "exp.toml"
    config.write_text(f'allow_plugins = true\n[corpus]\npath = "{folder}"\nformat = "text"\nunit = "line"\n'
                      f'[segmenters.even]\nsegmenter = "faults:Removing"\npath = "{gone}"\n'
                      f'[run]\nn_restarts = 2\nblock_size = 1\n[output]\ndir = "{out}"\n')
    cli = CliRunner()
    result = cli.invoke(app, ["run", str(config), "--no-progress"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: No such file or directory: '{gone}'; 2 finished (segmenter, document) pair(s) are in "
        f"{out / 'results.jsonl'}; rerun with --resume to continue"]
    gone.write_text(kept)
    assert cli.invoke(app, ["run", str(config), "--no-progress", "--resume"]).exit_code == 0
    assert [doc for _, doc in read_run(out / "results.jsonl").entries] == [f"{m}.txt" for m in MARKERS]


def test_an_error_before_the_run_writes_says_nothing_of_an_earlier_runs_pairs(tmp_path):
    # a corpus path mistyped on a folder holding an earlier run's results: the error said "4
    # finished (segmenter, document) pair(s) are in .../results.jsonl; rerun with --resume to
    # continue", as if this run had computed them (a resume would continue the earlier run)
    folder, out = cli_corpus(tmp_path), tmp_path / "out"
    args = ["run", "-s", "even", "--corpus-format", "text", "--unit", "line", "-r", "2", "--no-progress",
            "--out", str(out)]
    cli = CliRunner()
    assert cli.invoke(app, args + ["-c", str(folder)]).exit_code == 0
    missing = tmp_path / "corpsu"
    for again in (["--overwrite"], ["--resume"]):
        result = cli.invoke(app, args + ["-c", str(missing), *again])
        assert result.exit_code == 1
        assert result.stderr.splitlines() == [f"error: no such corpus file or directory: '{missing}'"], again


def test_a_report_written_whole_keeps_a_symbolic_link_and_the_permissions_of_the_file(tmp_path):
    # the temporary file renamed over the report (b63395c) replaced a link given as --output with a
    # plain file, and gave the report the default permissions instead of the old file's
    from stability.reporting import write_whole

    real = tmp_path / "published" / "report.md"
    real.parent.mkdir()
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "report.md"
    link.symlink_to(real)
    write_whole(link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n" and (real.stat().st_mode & 0o777) == 0o640
    assert sorted(os.listdir(real.parent)) == ["report.md"] and sorted(os.listdir(tmp_path)) == ["published", "report.md"]


def test_reading_the_results_of_a_run_in_progress_says_so(tmp_path):
    # `stability report` on a folder a run was still writing printed its partial results as if
    # they were the run's, with nothing to tell them apart
    from stability.store import load_results

    out = tmp_path / "results.jsonl"
    run(out)
    (tmp_path / "results.jsonl.lock").write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
    with pytest.warns(UserWarning, match=rf"a run \(pid {os.getpid()} on .*\) holds its lock and may still be "
                      "writing it; what is read covers the 4 .* pair\\(s\\) finished so far"):
        assert len(load_results(out).documents["even"]) == 4
