"""The results file (stability.store): crash-safe writing, resume checks, reading, versioning."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import warnings

import pytest

from conftest import cohesion_segmenter, topical_document
from stability import CorpusFormatError, Document, InvalidParameterError, evaluate
from stability.store import ResultsLockedError, ResultsWarning, load_results, read_run


def corpus(n=4, offset=0):
    docs = []
    for i in range(n):
        units, reference = topical_document(100 + i + offset)
        docs.append(Document(f"doc{i}", tuple(units), references=(tuple(reference),)))
    return docs


def run(out, docs=None, segmenters=None, **keywords):
    keywords = {"n_restarts": 4, "progress": False, **keywords}
    return evaluate(segmenters or {"lex": cohesion_segmenter}, corpus() if docs is None else docs, output=out, **keywords)


class Counting:
    """A segmenter counting the documents it is first called on (its initial segmentations)."""

    def __init__(self):
        self.documents = []

    def __call__(self, units):
        if units not in self.documents:
            self.documents.append(list(units))
        return cohesion_segmenter(units)


# ----------------------------------------------------------------------------------------------
# damaged last line (issue 12, defect 1)
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("damage", ["cut", "invalid"])
def test_resume_drops_a_damaged_last_line_and_never_appends_onto_it(tmp_path, damage):
    full = tmp_path / "full.jsonl"
    run(full)
    intact = full.read_bytes()
    lines = intact.decode().splitlines(keepends=True)
    out = tmp_path / "run.jsonl"
    # after the header and two results: the third cut mid-line, or a complete line that is not JSON
    tail = lines[3][:50] if damage == "cut" else '{"type": "result", oops}\n'
    out.write_text("".join(lines[:3]) + tail)
    with pytest.warns(ResultsWarning, match=rf"run.jsonl:4: {'incomplete' if damage == 'cut' else 'invalid'} last line"):
        run(out, resume=True)
    # the damaged line was cut off before appending: the file is byte for byte the uninterrupted one
    assert out.read_bytes() == intact


def test_a_last_line_without_its_newline_is_kept_and_completed(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out)
    intact = out.read_bytes()
    out.write_bytes(intact[:-1])  # the last record is complete but lost its newline
    run(out, resume=True)
    assert out.read_bytes() == intact


def test_a_damaged_line_before_the_last_is_an_error_naming_file_and_line(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out)
    lines = out.read_text().splitlines(keepends=True)
    lines[2] = "{oops\n"
    out.write_text("".join(lines))
    before = out.read_bytes()
    with pytest.raises(CorpusFormatError, match=r"run.jsonl:3: not a JSON record"):
        run(out, resume=True)
    with pytest.raises(CorpusFormatError, match=r"run.jsonl:3: not a JSON record"):
        load_results(out)
    assert out.read_bytes() == before  # refused, untouched


def test_a_malformed_record_is_one_line_naming_file_and_line(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out)
    lines = out.read_text().splitlines(keepends=True)
    lines[1] = json.dumps({"type": "result", "result": {"segmenter": "lex"}}) + "\n"
    out.write_text("".join(lines))
    with pytest.raises(CorpusFormatError, match=r"run.jsonl:2: malformed result record \(KeyError"):
        load_results(out)


def test_a_file_without_a_run_record_is_not_a_results_file(tmp_path):
    # it used to load as a run of 0 documents (an empty report, exit 0)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(CorpusFormatError, match=r"empty.jsonl: not a results file: expected the run record .* "
                                                r"the file is empty or blank"):
        load_results(empty)
    broken = tmp_path / "results.jsonl"
    broken.write_text("{bad json\n")  # no record: the error alone, without "invalid last line left out"
    with warnings.catch_warnings(), pytest.raises(CorpusFormatError, match=r"results.jsonl: not a results file: .* found none"):
        warnings.simplefilter("error", ResultsWarning)
        load_results(broken)
    out = tmp_path / "run.jsonl"
    run(out)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[1:]))  # results without their header
    with pytest.raises(CorpusFormatError, match="not a results file"):
        load_results(out)
    out.write_text(lines[0])  # a header and no results yet: a run of 0 documents
    assert load_results(out).documents == {"lex": []}


# ----------------------------------------------------------------------------------------------
# versioning
# ----------------------------------------------------------------------------------------------
def test_a_newer_format_version_is_refused_with_a_clear_message(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out)
    lines = out.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    assert header["settings"]["format_version"] == 1
    header["settings"]["format_version"] = 99
    out.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    with pytest.raises(CorpusFormatError, match=r"run.jsonl:1: written in results format 99, newer than .* \(up to 1\)"):
        load_results(out)
    with pytest.raises(CorpusFormatError, match="newer"):
        run(out, resume=True)


# ----------------------------------------------------------------------------------------------
# written as soon as known, in corpus order
# ----------------------------------------------------------------------------------------------
def test_each_result_is_on_disk_before_the_next_one_is_delivered(tmp_path):
    out = tmp_path / "run.jsonl"
    on_disk = []

    def seen(result):
        records = [json.loads(line) for line in out.read_text().splitlines()[1:]]
        on_disk.append((result.document, [r["result"]["document"] for r in records]))

    run(out, on_result=seen, block_size=64)
    # one block of 4 documents: every result was written (and flushed) before the next was known
    assert on_disk == [("doc0", ["doc0"]), ("doc1", ["doc0", "doc1"]), ("doc2", ["doc0", "doc1", "doc2"]),
                       ("doc3", ["doc0", "doc1", "doc2", "doc3"])]


def test_results_file_is_byte_identical_for_any_jobs_and_backend(tmp_path):
    docs = corpus(5)
    run(tmp_path / "a.jsonl", docs, {"lex": cohesion_segmenter, "even": "even"})
    run(tmp_path / "b.jsonl", docs, {"lex": cohesion_segmenter, "even": "even"}, n_jobs=3, backend="threading",
        block_size=2)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


# ----------------------------------------------------------------------------------------------
# a different corpus (issue 12, defect 2)
# ----------------------------------------------------------------------------------------------
def test_resume_refuses_another_corpus_given_as_a_list(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out, corpus(3))
    header = json.loads(out.read_text().splitlines()[0])
    assert header["corpus"]["n_documents"] == 3 and len(header["corpus"]["content"]) == 32
    with pytest.raises(InvalidParameterError, match=r"cannot resume .*run.jsonl: it was computed on another corpus"):
        run(out, corpus(3, offset=10), resume=True)
    with pytest.raises(InvalidParameterError, match=r"another corpus \(3 documents, fingerprint \w+; now 1 document, "):
        run(out, corpus(1), resume=True)


def test_resume_refuses_a_changed_document_in_a_streamed_corpus(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out, iter(corpus(3)))
    assert json.loads(out.read_text().splitlines()[0])["corpus"] is None  # not known before the run
    before = out.read_bytes()
    with pytest.raises(InvalidParameterError, match=r"document 'doc0' differs from the one its results were computed on"):
        run(out, iter(corpus(3, offset=10)), resume=True)
    assert out.read_bytes() == before  # refused before anything was appended


def test_resume_refuses_results_of_documents_absent_from_the_corpus(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out, iter(corpus(3)))
    with pytest.raises(InvalidParameterError, match=r"1 document\(s\) that are not in this corpus \(e.g. 'doc2'\)"):
        run(out, iter(corpus(2)), resume=True)


def renamed(docs, prefix):
    return [Document(f"{prefix}{i}", d.units, d.references) for i, d in enumerate(docs)]


@pytest.mark.parametrize("case", ["other ids", "reordered"])
def test_resume_refuses_a_streamed_corpus_with_new_documents_before_computing_them(tmp_path, case):
    # the documents of a streamed corpus are only known as they come: a corpus whose first
    # document the file has no result of, while it holds others, was run to the end, appended to
    # the file and only then refused (the folder then mixed two corpora)
    out = tmp_path / "run.jsonl"
    first = corpus(3)
    run(out, iter(first[:2]), segmenters={"lex": Counting()})  # the code of the resumes below: reused
    before = out.read_bytes()
    other = renamed(corpus(3, offset=10), "new") if case == "other ids" else [first[2], first[0], first[1]]
    counting = Counting()
    with pytest.raises(InvalidParameterError, match=r"cannot resume .*run.jsonl: this corpus has document "
                       r"'(new0|doc2)', of which the file holds no result, before 2 document\(s\) of which it does "
                       r"\(e.g. 'doc0'\).*another corpus, or on these documents in another order"):
        run(out, iter(other), segmenters={"lex": counting}, resume=True)
    assert counting.documents == [] and out.read_bytes() == before  # nothing computed, nothing appended
    longer = run(out, iter(first), segmenters={"lex": counting}, resume=True)  # the same corpus, longer: fine
    assert [r.document for r in longer.documents["lex"]] == ["doc0", "doc1", "doc2"]
    assert list(first[2].units) in counting.documents and list(first[0].units) not in counting.documents


# ----------------------------------------------------------------------------------------------
# failures: deduplicated, not retried unless asked (issue 12, defect 7)
# ----------------------------------------------------------------------------------------------
BROKEN = {"on": True}


def sometimes(units):
    if units[0].startswith("BAD") and BROKEN["on"]:
        raise ValueError("broken today")
    return cohesion_segmenter(units)


def test_recorded_failures_are_kept_once_and_not_retried_unless_asked(tmp_path):
    docs = corpus(3)
    docs.insert(1, Document("bad", ("BAD unit",) + docs[0].units[1:]))
    out = tmp_path / "run.jsonl"
    BROKEN["on"] = True
    first = run(out, docs, {"s": sometimes})
    assert [f.document for f in first.failures] == ["bad"]
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:3]) + "\n")  # interrupted after the failure record
    for _ in range(2):  # two resumes: the failure is reused, never appended again
        again = run(out, docs, {"s": sometimes}, resume=True)
        assert [f.document for f in again.failures] == ["bad"]
        assert [r.document for r in again.documents["s"]] == ["doc0", "doc1", "doc2"]
    kinds = [json.loads(line)["type"] for line in out.read_text().splitlines()]
    assert kinds == ["run", "result", "failure", "result", "result"]
    assert len(load_results(out).failures) == 1
    assert load_results(out).settings["n_documents"] == 4  # doc0, bad (it failed), doc1, doc2

    BROKEN["on"] = False  # fixed: retry_failed runs the pair again and its result replaces the failure
    retried = run(out, docs, {"s": sometimes}, resume=True, retry_failed=True)
    assert retried.failures == [] and [r.document for r in retried.documents["s"]][1] == "bad"
    loaded = load_results(out)
    assert loaded.failures == [] and [r.document for r in loaded.documents["s"]] == ["doc0", "bad", "doc1", "doc2"]
    BROKEN["on"] = True


# ----------------------------------------------------------------------------------------------
# existing results and concurrent runs (issue 12, defect 6)
# ----------------------------------------------------------------------------------------------
def test_an_existing_results_file_needs_resume_or_overwrite(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out, corpus(2))
    with pytest.raises(InvalidParameterError, match=r"already exists; resume it \(resume=True\) or replace it \(overwrite=True\)"):
        run(out, corpus(2))
    with pytest.raises(InvalidParameterError, match="resume and overwrite exclude each other"):
        run(out, corpus(2), resume=True, overwrite=True)
    replaced = run(out, corpus(1), overwrite=True)
    assert len(out.read_text().splitlines()) == 2 and len(replaced.documents["lex"]) == 1


def test_a_lock_file_keeps_a_second_run_out(tmp_path):
    import socket

    out = tmp_path / "run.jsonl"
    lock = tmp_path / "run.jsonl.lock"
    lock.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))  # a live run holds it
    with pytest.raises(ResultsLockedError, match=rf"run.jsonl.lock exists: another run \(pid {os.getpid()} on .*\)"):
        run(out, corpus(1))
    assert not out.exists()
    # a lock left by a process that has ended is taken over, with a warning
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock.write_text(json.dumps({"pid": int(ended.stdout), "host": socket.gethostname()}))
    with pytest.warns(ResultsWarning, match="removed a lock left by process"):
        run(out, corpus(1))
    assert not lock.exists() and out.exists()  # released at the end of the run


def test_the_lock_is_released_when_the_run_fails(tmp_path):
    out = tmp_path / "run.jsonl"

    def interrupted(units):  # a real Ctrl-C during the run (a KeyboardInterrupt the segmenter
        os.kill(os.getpid(), signal.SIGINT)  # raises itself is only its failure, see test_faults)
        time.sleep(5)

    with pytest.raises(KeyboardInterrupt):
        run(out, corpus(2), {"k": interrupted})
    assert not (tmp_path / "run.jsonl.lock").exists()
    assert read_run(out).entries == {}  # the header is on disk, nothing else


def test_the_cli_refuses_an_existing_results_folder_unless_resume_or_overwrite(tmp_path):
    from typer.testing import CliRunner

    from stability.cli import app
    from stability.readers import write_jsonl

    corpus_path = tmp_path / "corpus.jsonl"
    write_jsonl(corpus(3), corpus_path)
    cli = CliRunner(env={"COLUMNS": "200", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    out = tmp_path / "out"
    args = ["run", "-s", "even", "--corpus", str(corpus_path), "--restarts", "2", "--out", str(out), "--no-progress"]
    assert cli.invoke(app, args).exit_code == 0
    first = (out / "results.jsonl").read_bytes()
    again = cli.invoke(app, args)  # today's CLI silently replaced the results here
    assert again.exit_code == 1
    assert "already exists; resume it (--resume) or replace it (--overwrite)" in again.stderr
    assert (out / "results.jsonl").read_bytes() == first
    assert cli.invoke(app, args + ["--resume"]).exit_code == 0
    assert (out / "results.jsonl").read_bytes() == first  # nothing was missing
    assert cli.invoke(app, args + ["--overwrite"]).exit_code == 0
    (out / "results.jsonl.lock").write_text(json.dumps({"pid": os.getpid(), "host": __import__("socket").gethostname()}))
    locked = cli.invoke(app, args + ["--overwrite"])
    assert locked.exit_code == 1 and "results.jsonl.lock exists: another run" in locked.stderr


def test_settings_read_from_a_results_file_are_checked(tmp_path):
    out = tmp_path / "run.jsonl"
    run(out, corpus(1))
    lines = out.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["settings"]["n_bootstrap"] = "many"
    out.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    with pytest.raises(CorpusFormatError, match=r"run.jsonl: invalid run settings \(n_bootstrap must be an integer"):
        load_results(out)


KILLED_RUN = """
import sys, time
from stability import evaluate
from stability.demo import demo_corpus

def slow(units):
    time.sleep(0.01)
    try:  # once a few lines are out, slow down: the kill comes mid-run even when this test is slowed by other work
        with open(sys.argv[1], "rb") as written:
            if written.read().count(b"\\n") >= 4:
                time.sleep(1)
    except FileNotFoundError:  # not written yet
        pass
    return list(range(4, len(units), 4))

evaluate({"slow": slow}, demo_corpus(n_documents=30), n_restarts=3, output=sys.argv[1], progress=False)
"""


def fast(units):
    return list(range(4, len(units), 4))


# the killed run's segmenter is defined in `python -c`, a module with no file, of which the run
# record keeps nothing (stability.registry.segmenter_code); this one, as if defined there too, so
# that the two records are the same bytes (from this file, the record would keep its digest)
fast.__module__ = "stability_test_module_without_a_file"


def test_a_run_killed_mid_write_resumes_to_the_same_bytes(tmp_path):
    import signal
    import time

    from stability.demo import demo_corpus

    docs = demo_corpus(n_documents=30)
    whole = tmp_path / "whole.jsonl"
    evaluate({"slow": fast}, docs, n_restarts=3, output=whole, progress=False)
    out = tmp_path / "killed.jsonl"
    # the killed run imports the package this test imported (a venv's editable install may point
    # at another copy, whose demo corpus differs: "computed on another corpus")
    import stability

    path = os.pathsep.join([os.path.dirname(os.path.dirname(stability.__file__)), os.environ.get("PYTHONPATH", "")])
    process = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(out)], env={**os.environ, "PYTHONPATH": path})
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            if out.exists() and out.read_bytes().count(b"\n") >= 4:
                break
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)  # no clean-up: the lock stays, a line may be cut
    finally:
        process.wait()
    written = out.read_bytes().count(b"\n") - 1
    assert 3 <= written < 30 and (tmp_path / "killed.jsonl.lock").exists()
    with pytest.warns(ResultsWarning, match="removed a lock left by process"):
        resumed = evaluate({"slow": fast}, docs, n_restarts=3, output=out, resume=True, progress=False)
    assert out.read_bytes() == whole.read_bytes()
    assert len(resumed.documents["slow"]) == 30


def test_the_run_record_keeps_the_versions_and_a_resume_under_others_warns(tmp_path):
    from stability.store import provenance

    out = tmp_path / "run.jsonl"
    result = run(out, iter(corpus(3)[:2]), provenance={"command": "by hand"})
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    # and where the test's segmenter comes from (a module of the tests: its file's digest)
    code = header["provenance"].pop("segmenter_code")
    assert list(code) == ["lex"] and next(iter(code["lex"].values())).startswith("file sha256:")
    assert header["provenance"] == {**provenance(), "command": "by hand"}
    assert result.settings["provenance"] == {**header["provenance"], "segmenter_code": code}
    assert load_results(out).settings["provenance"] == result.settings["provenance"]
    header["provenance"].update(numpy="1.0.0", stability="0.0.1")  # as if computed by older versions
    out.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.warns(ResultsWarning, match=r"run.jsonl: its results were computed with stability 0.0.1 \(now "
                      r"[^)]+\), numpy 1.0.0 \(now [^)]+\); the results this resume adds"):
        resumed = run(out, iter(corpus(3)), resume=True)
    assert resumed.settings["provenance"]["numpy"] == "1.0.0"  # the file's, kept
    assert json.loads(out.read_text().splitlines()[0])["provenance"]["numpy"] == "1.0.0"


# ----------------------------------------------------------------------------------------------
# a segmenter added on resume
# ----------------------------------------------------------------------------------------------
def test_a_resume_may_add_a_segmenter_and_computes_only_its_pairs(tmp_path):
    from stability import get_segmenter

    out, docs = tmp_path / "run.jsonl", corpus(3)
    first = Counting()
    run(out, docs, {"lex": first})
    assert first.documents
    again, added = Counting(), get_segmenter("even", n_segments=3)
    with pytest.warns(ResultsWarning, match=r"segmenter\(s\) 'ev' added to the run it holds"):
        both = run(out, docs, {"lex": again, "ev": added}, resume=True)
    assert again.documents == []  # the file's results were reused, not computed again
    fresh = run(tmp_path / "fresh.jsonl", docs, {"lex": cohesion_segmenter, "ev": added})
    assert both.to_dict()["documents"] == fresh.to_dict()["documents"]
    # the file now reads back as the two-segmenter run, and resumes as one without a warning
    loaded = load_results(out)
    assert list(loaded.documents) == ["lex", "ev"] and loaded.to_dict()["documents"] == fresh.to_dict()["documents"]
    headers = [json.loads(line) for line in out.read_text().splitlines() if '"type": "run"' in line]
    assert [h["settings"]["segmenters"] for h in headers] == [["lex"], ["lex", "ev"]]
    assert headers[1]["corpus"] == headers[0]["corpus"] and headers[1]["provenance"]["stability"]
    before = out.read_bytes()
    run(out, docs, {"lex": again, "ev": added}, resume=True)
    assert out.read_bytes() == before


def test_a_resume_leaving_out_a_segmenter_of_the_file_is_refused(tmp_path):
    from stability import get_segmenter

    out, docs = tmp_path / "run.jsonl", corpus(2)
    run(out, docs, {"lex": cohesion_segmenter, "ev": get_segmenter("even", n_segments=3)})
    before = out.read_bytes()
    with pytest.raises(InvalidParameterError, match=r"holds results of segmenter\(s\) 'ev', which this run leaves out; "
                                                    r"keep them in the run"):
        run(out, docs, {"lex": cohesion_segmenter}, resume=True)
    with pytest.raises(InvalidParameterError, match=r"different settings \(n_restarts: 4 then, 5 now\)"):
        run(out, docs, {"lex": cohesion_segmenter, "ev": get_segmenter("even"), "x": cohesion_segmenter},
            resume=True, n_restarts=5)  # adding one does not let another setting change
    assert out.read_bytes() == before


def test_the_cli_resumes_with_an_added_segmenter_and_its_command_reproduces_the_file(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from stability import cli
    from stability.cli import app

    out = tmp_path / "out"
    base = ["run", "-r", "3", "--limit", "2", "--no-progress", "--out", str(out)]
    assert CliRunner().invoke(app, [*base, "-s", "even"]).exit_code == 0
    monkeypatch.setattr(cli, "_ARGV", [*base, "-s", "even", "-s", "none", "--resume"])  # as main() sets it
    resumed = CliRunner().invoke(app, cli._ARGV)
    assert resumed.exit_code == 0, resumed.output
    header = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()
              if '"type": "run"' in line][-1]
    assert "-s none --resume" in header["provenance"]["command"]
    fresh = CliRunner().invoke(app, [*base[:-1], str(tmp_path / "fresh"), "-s", "even", "-s", "none"])
    assert fresh.exit_code == 0
    assert (load_results(out / "results.jsonl").to_dict()["documents"]
            == load_results(tmp_path / "fresh" / "results.jsonl").to_dict()["documents"])


# ----------------------------------------------------------------------------------------------
# strict JSON
# ----------------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("error::RuntimeWarning")  # its summary printed numpy's warning
def test_an_infinite_metric_is_written_as_strict_json_and_read_back_infinite(tmp_path, monkeypatch):
    """NWin is infinite when its expected value is 0 and WindowDiff is not (stability.metrics.
    windows); the results file spelled it as a bare ``Infinity``, which jq and JSON.parse refuse."""
    import math

    import stability.metrics

    real = stability.metrics.compute_all
    monkeypatch.setattr(stability.metrics, "compute_all",
                        lambda *a, **k: {**real(*a, **k), "nwin": math.inf, "tnwin": -math.inf})
    out = tmp_path / "run.jsonl"
    run(out, metrics={"names": ["boundary_similarity", "nwin", "tnwin"]})

    def refuse(constant):
        raise ValueError(f"not strict JSON: {constant}")

    lines = out.read_text().splitlines()
    records = [json.loads(line, parse_constant=refuse) for line in lines]
    assert records[1]["result"]["reference_metrics"]["nwin"] == "Infinity"
    assert records[1]["result"]["reference_metrics"]["tnwin"] == "-Infinity"
    loaded = load_results(out)
    first = next(iter(loaded.documents.values()))[0]
    assert first.reference_metrics["nwin"] == math.inf and first.reference_metrics["tnwin"] == -math.inf
    assert 0 <= first.reference_metrics["boundary_similarity"] <= 1  # finite ones as computed


def test_a_results_file_a_run_left_without_any_result_does_not_block_the_next_run(tmp_path):
    # a corpus that failed to read before the first result left the file with its run record
    # alone, and the next run was refused ("already exists; resume it or replace it") though the
    # file held nothing to keep; a file holding a result is still refused
    out = tmp_path / "run.jsonl"

    def broken():
        yield from corpus(1)
        raise CorpusFormatError("a line that is not JSON", path="corpus.jsonl", line=2)

    with pytest.raises(CorpusFormatError):
        evaluate({"lex": cohesion_segmenter}, broken(), n_restarts=2, output=out, progress=False)
    assert [json.loads(line)["type"] for line in out.read_text().splitlines()] == ["run"]
    with pytest.warns(ResultsWarning, match="replaced; it held no result"):
        first = evaluate({"lex": cohesion_segmenter}, corpus(2), n_restarts=2, output=out, progress=False)
    assert len(first.documents["lex"]) == 2
    with pytest.raises(InvalidParameterError, match="already exists"):
        evaluate({"lex": cohesion_segmenter}, corpus(2), n_restarts=2, output=out, progress=False)


# ----------------------------------------------------------------------------------------------
# a run read back equals the run (api6)
# ----------------------------------------------------------------------------------------------
def fails_on_odd_lengths(units):
    """A segmenter failing on some documents: cohesion's boundaries, or an error on an odd length."""
    if len(units) % 2:
        raise ValueError("an odd number of units")
    return cohesion_segmenter(units)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_run_read_back_from_its_results_file_equals_the_run(tmp_path, n_jobs):
    """``load_results(path) == run`` was False for a run ``evaluate(..., output=path)`` wrote: the
    run's settings hold how it was executed (``n_jobs``, ``backend``), which the file does not keep
    as they change no number; equality leaves them out, and only them. The run has several
    segmenters, failures and documents with and without references."""
    import dataclasses

    from stability.results import EXECUTION_SETTINGS

    docs = [d if i % 2 else Document(d.id, d.units) for i, d in enumerate(corpus(5))]
    written = run(tmp_path / "run.jsonl", docs, {"lex": cohesion_segmenter, "odd": fails_on_odd_lengths, "even": "even"},
                  n_jobs=n_jobs)
    assert written.failures and any(r.reference_metrics for r in written.documents["lex"])
    assert {k: written.settings[k] for k in EXECUTION_SETTINGS} == {"n_jobs": n_jobs, "backend": None}
    loaded = load_results(tmp_path / "run.jsonl")
    assert not set(EXECUTION_SETTINGS) & set(loaded.settings)
    assert loaded == written and written == loaded
    # what equality still compares: the settings that change the numbers, the results, the failures
    assert dataclasses.replace(loaded, settings={**loaded.settings, "seed": 1}) != written
    assert dataclasses.replace(loaded, failures=loaded.failures[1:]) != written
    assert loaded != loaded.to_dict()


def test_output_takes_a_folder_as_the_command_lines_out_does(tmp_path, monkeypatch):
    """``evaluate(output=folder)`` was refused ("a results file path (not a folder)") while
    ``stability run --out`` takes only a folder and ``load_results`` reads one: a folder that
    exists, or a path ending in ``/``, holds the run as ``results.jsonl``, as ``--out`` writes
    it, resumed the same way; what cannot be a results file is refused before the run with the
    words ``--out`` gets for it (one declaration, ``stability.store.results_file``)."""
    from typer.testing import CliRunner

    from stability.cli import app

    first = run(tmp_path, corpus(2))
    assert (tmp_path / "results.jsonl").is_file() and load_results(tmp_path) == first
    assert run(tmp_path, corpus(2), resume=True) == first
    fresh = tmp_path / "new" / "run"
    assert run(f"{fresh}/", corpus(1)) == load_results(fresh / "results.jsonl")
    monkeypatch.chdir(tmp_path)
    assert run(".", corpus(1), overwrite=True) == load_results(tmp_path)
    (tmp_path / "notes.txt").write_text("")
    for out, said in [("", "must be a results file or a folder path; received ''"),
                      ("notes.txt/run", "must be a results file or a folder; received 'notes.txt/run', under "
                                        "'notes.txt', which is a file")]:
        with pytest.raises(InvalidParameterError, match=re.escape(f"output {said}")):
            run(out, corpus(1))
        cli = CliRunner().invoke(app, ["run", "-s", "even", "--restarts", "2", "--out", out])
        assert cli.exit_code != 0 and f"--out {said.replace('a results file or ', '')}" in cli.output, cli.output


def test_a_run_stopped_after_changing_its_results_file_leaves_no_report_of_what_it_held_before(tmp_path, monkeypatch):
    """``--overwrite`` stopped (interrupted, or by a failure with ``on_error = "raise"``; a resume
    computing again a segmenter whose code changed alike) left the folder's ``report.md`` and
    ``report.json`` of the run it replaced beside a ``results.jsonl`` that no longer holds it:
    opening the report showed superseded results as the folder's. A run that stops after changing
    the results file removes the reports beside it (``stability report`` renders them again from
    the file); one that stops before changing it leaves them."""
    from typer.testing import CliRunner

    from stability.cli import app

    (tmp_path / "failing.py").write_text("def seg(units):\n    raise ValueError('no model')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "raise.toml"
    config.write_text('allow_plugins = true\n[corpus]\ndemo = true\n[segmenters.failing]\nsegmenter = "failing:seg"\n'
                      '[run]\nn_restarts = 2\non_error = "raise"\n')
    out = tmp_path / "out"
    base = ["--restarts", "2", "--out", str(out), "--report-format", "md"]
    done = CliRunner().invoke(app, ["run", "-s", "even", *base])
    assert done.exit_code == 0 and {p.name for p in out.iterdir()} == {"results.jsonl", "report.md", "report.json"}
    refused = CliRunner().invoke(app, ["run", str(config), *base])  # not replaced (no --overwrite): reports kept
    assert "already exists" in refused.stderr and (out / "report.md").is_file(), refused.output
    stopped = CliRunner().invoke(app, ["run", str(config), *base, "--overwrite"])
    assert stopped.exit_code != 0 and "no model" in stopped.stderr, stopped.output
    assert {p.name for p in out.iterdir()} == {"results.jsonl"}
    # said, with the command that renders them again (it was silent)
    said = " ".join(stopped.stderr.split())
    assert f"report.md and report.json removed: they described what results.jsonl held before this run changed it; " \
           f"`stability report {out}` renders them from it" in said, stopped.stderr
    assert list(load_results(out).documents) == ["failing"]
    # a resume that stops having written nothing (every pair reused, the failures not retried; the
    # file cut to the length it had, which changes its modification time) leaves the reports
    recorded = tmp_path / "record.toml"
    recorded.write_text(config.read_text().replace('on_error = "raise"', 'on_error = "record"'))
    assert CliRunner().invoke(app, ["run", str(recorded), *base, "--overwrite"]).exit_code == 3
    assert (out / "report.md").is_file()
    again = CliRunner().invoke(app, ["run", str(config), *base, "--resume"])
    assert again.exit_code != 0 and "no model" in again.stderr and (out / "report.md").is_file(), again.output
