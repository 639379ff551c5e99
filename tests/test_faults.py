"""Faulty segmenters: every fault is one per-document failure, the run goes on, the rest is kept.

The fault-injection segmenters are in tests/faults.py. Contained in-process (any ``n_jobs``):
exceptions, SystemExit, KeyboardInterrupt and other BaseExceptions raised by the segmenter,
invalid outputs, timeouts. Contained only in worker processes (loky, ``n_jobs >= 2`` or
``backend="loky"``): a segmenter that kills its process (``os._exit``, a segfault, SIGKILL);
in-process, such a run dies, and resuming records the pair named by the store's marker as a crash.
"""

from __future__ import annotations

import json
import threading

import pytest
from faults import ACTIONS, GARBAGE, Fault, corpus

from stability import InvalidParameterError, InvalidTypeError, Settings, evaluate, stability_test
from stability.store import read_run

MARKERS = ("a", "bad", "c", "d")
SETTINGS = {"n_restarts": 6, "progress": False, "n_bootstrap": 50}
CONTAINED_IN_PROCESS = ("raise", "sys_exit", "keyboard_interrupt", "base_exception")
CRASHES = ("os_exit", "segfault", "sigkill")
PROCESS_MODES = [{"n_jobs": 2}, {"n_jobs": 1, "backend": "loky"}, {"n_jobs": 3}]


def run(segmenter, **settings):
    return evaluate({"fault": segmenter}, corpus(*MARKERS), **{**SETTINGS, **settings})


def scored(result):
    """A document's result as a dict, less the parameters (each Fault records its own kind)."""
    return {key: value for key, value in result.to_dict().items() if key != "params"}


def healthy():
    return {r.document: scored(r) for r in run(Fault("raise", marker="none")).documents["fault"]}


def check_isolated(result, kind: str, expected):
    """One failure, on document 'bad', of ``kind``; every other document's result as in a healthy run."""
    assert [(f.segmenter, f.document, f.kind) for f in result.failures] == [("fault", "bad", kind)]
    kept = {r.document: scored(r) for r in result.documents["fault"]}
    assert kept == {doc: value for doc, value in expected.items() if doc != "bad"}


def records(result):
    return [f.to_dict() for f in result.failures]


@pytest.fixture(scope="module")
def expected():
    return healthy()


@pytest.mark.parametrize("kind", CONTAINED_IN_PROCESS)
@pytest.mark.parametrize("when", ["initial", "restart"])
def test_escapes_are_failures_with_identical_records_for_any_jobs(kind, when, expected):
    one = run(Fault(kind, when=when), n_jobs=1)
    two = run(Fault(kind, when=when), n_jobs=2)
    check_isolated(one, "exception", expected)
    check_isolated(two, "exception", expected)
    assert records(one) == records(two)
    failure = one.failures[0]
    if when == "initial":
        assert failure.restart is None and failure.stream is None
    else:  # restart 0 of the within stream permutes the units (12 units in 4 segments of 3)
        assert (failure.restart, failure.stream) == (0, "within")
        assert "restart 0 of the within stream" in failure.message()
    name = {"sys_exit": "SystemExit", "keyboard_interrupt": "KeyboardInterrupt", "base_exception": "_Custom",
            "raise": "ValueError"}[kind]
    assert name in failure.error


@pytest.mark.parametrize("kind", sorted(GARBAGE))
def test_garbage_outputs_are_output_failures(kind, expected):
    one, two = run(Fault(kind), n_jobs=1), run(Fault(kind), n_jobs=2)
    check_isolated(one, "output", expected)
    assert records(one) == records(two)
    assert "invalid boundaries" in one.failures[0].error


@pytest.mark.parametrize("kind,when", [("os_exit", "initial"), ("os_exit", "restart"), ("segfault", "initial"),
                                       ("sigkill", "restart")])
def test_a_segmenter_that_kills_its_worker_is_a_crash_failure(kind, when, expected):
    modes = PROCESS_MODES if kind == "os_exit" else PROCESS_MODES[:1]  # one kind in every mode: enough
    results = [run(Fault(kind, when=when), **mode) for mode in modes]
    for result in results:
        check_isolated(result, "crash", expected)
        assert "worker process running the segmenter died" in result.failures[0].error
    assert all(records(result) == records(results[0]) for result in results)
    failure = results[0].failures[0]
    assert (failure.restart, failure.stream) == ((None, None) if when == "initial" else (0, "within"))


def test_the_pool_recovers_after_a_crash(expected):
    run(Fault("os_exit"), n_jobs=2)
    assert not run(Fault("raise", marker="none"), n_jobs=2).failures  # the next run has live workers


@pytest.mark.parametrize("mode", [{"n_jobs": 1}, {"n_jobs": 2}])
@pytest.mark.parametrize("when", ["initial", "restart"])
def test_a_hanging_call_is_a_timeout_failure(mode, when, expected):
    result = run(Fault("hang", when=when), timeout=0.5, **mode)
    check_isolated(result, "timeout", expected)
    failure = result.failures[0]
    assert failure.error == "the call exceeded the timeout of 0.5 s"
    assert (failure.restart, failure.stream) == ((None, None) if when == "initial" else (0, "within"))


def test_timeout_records_are_identical_for_jobs_1_and_2():
    assert records(run(Fault("hang"), timeout=0.3, n_jobs=1)) == records(run(Fault("hang"), timeout=0.3, n_jobs=2))


def test_a_timeout_does_not_affect_healthy_results(expected):
    assert {r.document: scored(r) for r in run(Fault("hang", marker="none"), timeout=30).documents["fault"]} == expected


@pytest.mark.parametrize("value", [0, -1, True, "5", float("inf")])
def test_timeout_is_checked(value):
    with pytest.raises((InvalidParameterError, InvalidTypeError), match="timeout"):
        Settings(timeout=value)


@pytest.mark.parametrize("backend", ["threading", "dask"])
def test_timeout_is_refused_where_it_cannot_be_enforced(backend):
    with pytest.raises(InvalidParameterError, match=f"timeout.*{backend}"):
        Settings(timeout=1, backend=backend, n_jobs=2)


def in_a_thread(function):
    """What ``function()`` returns or raises, called from a thread other than the main thread."""
    outcome = {}

    def target():
        try:
            outcome["value"] = function()
        except Exception as exc:  # handed back to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@pytest.mark.parametrize("mode", [{"n_jobs": 1}, {"n_jobs": 1, "backend": "sequential"}])
def test_an_in_process_timeout_outside_the_main_thread_is_refused_up_front(mode):
    # it used to record every (segmenter, document) pair as a "timeout" failure
    with pytest.raises(InvalidParameterError, match="timeout must be None .* other than the main thread.*backend='loky'"):
        in_a_thread(lambda: run(Fault("raise", marker="none"), timeout=5, **mode))
    with pytest.raises(InvalidParameterError, match="main thread"):
        in_a_thread(lambda: stability_test(Fault("raise", marker="none"), ["a"] * 12, timeout=5, n_restarts=2))


def test_a_timeout_in_worker_processes_works_from_any_thread(expected):
    result = in_a_thread(lambda: run(Fault("hang"), timeout=0.5, n_jobs=1, backend="loky"))
    check_isolated(result, "timeout", expected)


@pytest.mark.parametrize("kind,mode", [("os_exit", {"n_jobs": 2}), ("sys_exit", {"n_jobs": 1}),
                                       ("hang", {"n_jobs": 1, "timeout": 0.3})])
def test_resume_keeps_recorded_failures_unless_asked(tmp_path, kind, mode):
    out, log = tmp_path / "results.jsonl", tmp_path / "calls.log"
    fault = Fault(kind, log=str(log))
    first = run(fault, output=out, **mode)
    calls = log.read_text().count("call")
    assert calls >= 1 and [f.document for f in first.failures] == ["bad"]
    again = run(fault, output=out, resume=True, **mode)
    assert log.read_text().count("call") == calls  # not retried
    assert records(again) == records(first)
    assert len(read_run(out).entries) == len(MARKERS)
    retried = run(fault, output=out, resume=True, retry_failed=True, **mode)
    assert log.read_text().count("call") > calls
    assert records(retried) == records(first)
    failures = [json.loads(line) for line in out.read_text().splitlines() if '"failure"' in line]
    assert failures and all(f["failure"]["document"] == "bad" for f in failures)


def test_every_fault_kind_is_exercised():
    assert set(CONTAINED_IN_PROCESS) | set(CRASHES) | {"hang"} == set(ACTIONS)


def _die_in_process(tmp_path, when):
    """Run Fault('os_exit') in-process (n_jobs=1, no backend) into a results file: the process dies."""
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "results.jsonl"
    script = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
              "from faults import Fault, corpus\nfrom stability import evaluate\n"
              f"evaluate({{'fault': Fault('os_exit', when={when!r})}}, corpus{MARKERS!r}, output={str(out)!r}, "
              f"n_jobs=1, **{SETTINGS!r})\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 13, done.stderr  # Fault's os._exit(13): nothing could be caught
    return out


@pytest.mark.parametrize("when", ["initial", "restart"])
def test_an_in_process_crash_is_contained_on_resume_and_not_retried(tmp_path, when, expected):
    out = _die_in_process(tmp_path, when)
    marker = out.with_name("results.jsonl.running")
    assert json.loads(marker.read_text())["document"] == "bad"  # left behind by the dead run
    with pytest.raises(InvalidParameterError, match="died while segmenter 'fault' was running on document 'bad'"):
        run(Fault("os_exit", when=when), output=out)  # neither resume nor overwrite: the message says why
    where = "its initial segmentation" if when == "initial" else "restarts 0-5 of the within stream"
    with pytest.warns(UserWarning, match=f"previous run died during {where} of segmenter 'fault' on document 'bad'"):
        result = run(Fault("os_exit", when=when), output=out, resume=True)
    # 'bad' ran again in a worker process: its crash is the failure a loky run records, the rest goes on
    check_isolated(result, "crash", expected)
    assert records(result) == records(run(Fault("os_exit", when=when), n_jobs=1, backend="loky"))
    assert not marker.exists()
    before = out.read_bytes()
    again = run(Fault("os_exit", when=when), output=out, resume=True)  # recorded: not retried (it would die)
    assert out.read_bytes() == before and records(again) == records(result)


def test_a_finished_or_failed_in_process_run_leaves_no_marker(tmp_path):
    for name, segmenter in (("ok", Fault("raise", marker="none")), ("raises", Fault("raise"))):
        out = tmp_path / name / "results.jsonl"
        run(segmenter, output=out, n_jobs=1)
        assert out.exists() and not out.with_name("results.jsonl.running").exists()


def test_the_marker_is_one_file_rewritten_in_place_and_names_each_call(tmp_path):
    """In-process, every call reads the marker as the call in progress, after longer and shorter
    document ids (a shorter marker is padded with spaces), and the marker stays one file for the
    whole run: it was written aside and renamed over the previous one before every call, which
    costs about 0.5 ms on ext4, three times a pair (15% of a run of 4,000 documents with `even`)."""
    import os

    from stability import Document

    out = tmp_path / "results.jsonl"
    marker = out.with_name("results.jsonl.running")
    seen = []

    def reads_the_marker(units):
        info = json.loads(marker.read_text(encoding="utf-8"))
        seen.append((info["document"], units[0], os.stat(marker).st_ino))
        return [3, 6]

    ids = ["a-much-longer-document-id", "b", "c-medium-id"]
    docs = [Document(doc_id, [doc_id] + [f"{doc_id} {i}" for i in range(9)]) for doc_id in ids]
    evaluate({"reader": reads_the_marker}, docs, output=out, n_jobs=1, **SETTINGS)
    assert {document for document, _, _ in seen} == set(ids)
    # the document named is the one segmented (a restart permutes its units: any unit names it)
    assert all(first.split()[0] == document for document, first, _ in seen)
    assert len({inode for _, _, inode in seen}) == 1
    assert not marker.exists()


def test_a_marker_removed_under_the_run_is_written_again_by_its_name(tmp_path):
    """A marker deleted during the run (by a cleaner, by hand) comes back at the next call, as a new
    file each call did: the open handle kept writing to the deleted file, so a later crash left no
    marker, and a run whose whole folder was removed went on writing into deleted files
    (test_environment's deleted-folder test)."""
    out = tmp_path / "results.jsonl"
    marker = out.with_name("results.jsonl.running")
    seen = []

    def removes_the_marker(units):
        seen.append(marker.exists())
        if len(seen) == 1:  # once, at the first call (a marker names a task, which may call several times)
            marker.unlink()
        return [3, 6]

    docs = corpus("a", "b")
    evaluate({"remover": removes_the_marker}, docs, output=out, n_jobs=1, **SETTINGS)
    assert seen[0] and True in seen[1:]
    assert not marker.exists()


def test_a_marker_we_did_not_write_is_removed_with_a_warning(tmp_path, expected):
    out = tmp_path / "results.jsonl"
    run(Fault("raise", marker="none"), output=out, n_jobs=1)
    out.with_name("results.jsonl.running").write_text('{"segmenter": 3}')
    with pytest.warns(UserWarning, match="not a marker this program wrote"):
        resumed = run(Fault("raise", marker="none"), output=out, resume=True)
    assert not resumed.failures and not out.with_name("results.jsonl.running").exists()


def _refusing_pool(real, accept: int):
    """A pool that takes ``accept`` tasks, then refuses the rest as loky's does once a worker died."""
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    class Pool:
        taken = 0

        def submit(self, function, *args):
            if self.taken == accept:
                raise TerminatedWorkerError("A worker process managed by the executor was unexpectedly "
                                            "terminated. The exit codes of the workers are {EXIT(13)}")
            self.taken += 1
            return real.submit(function, *args)
    return Pool()


def test_a_task_refused_by_a_pool_that_just_died_goes_to_a_new_pool(monkeypatch):
    # seen once in a full test run: another task's worker died between fetching the pool and
    # submitting to it, and the pool refused the next task (which never ran) with
    # TerminatedWorkerError; the run stopped there instead of going on with a new pool
    from stability import isolation

    real = isolation._executor
    pools = iter([_refusing_pool(real(2), accept=1)])
    monkeypatch.setattr(isolation, "_executor", lambda n_jobs: next(pools, None) or real(n_jobs))
    crashes = []
    results = list(isolation.run_pool(pow, [(i, 2) for i in range(6)], 2, lambda *a: crashes.append(a)))
    assert sorted(results) == [i * i for i in range(6)] and not crashes


def test_a_submission_gives_up_after_as_many_dead_pools_as_it_allows(monkeypatch):
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    from stability import isolation

    real = isolation._executor
    fetched = []

    def dead(n_jobs):
        fetched.append(n_jobs)
        return _refusing_pool(real(n_jobs), accept=0)
    monkeypatch.setattr(isolation, "_executor", dead)
    with pytest.raises(TerminatedWorkerError):
        isolation.submit(pow, (2, 2), 2)
    assert len(fetched) == isolation.SUBMIT_ATTEMPTS


def test_a_failure_message_says_where_it_happened():
    from stability.results import Failure

    def where(restart, stream):
        return Failure("s", "d", "boom", restart, 0, stream=stream).message().split(", seed")[0]

    assert where(None, None) == "segmenter 's', document 'd', initial segmentation"
    assert where(3, "shuffle") == "segmenter 's', document 'd', restart 3 of the shuffle stream"
    assert where(None, "within") == "segmenter 's', document 'd', the batched restarts of the within stream"


def test_the_raised_error_says_which_call_failed_as_the_failure_does():
    """stability_test (and evaluate with on_error="raise") raise a failure's SegmenterError: a
    failed batch of restarts, or a restart of the shuffle stream, used to read "initial
    segmentation" / a bare "restart 0"."""
    from stability import Segmenter, stability_test
    from stability.exceptions import SegmenterError

    class ShortBatch(Segmenter):
        def segment(self, units):
            return [3]

        def prepare(self, units):
            return None

        def segment_prepared(self, state, order):
            return [3]

        def segment_batch(self, state, orders):
            return [[3]]  # one result for several orders

    with pytest.raises(SegmenterError) as info:
        stability_test(ShortBatch(), ["u"] * 8, n_restarts=3, doc_id="d")
    assert "the batched restarts of the within stream" in str(info.value)
    assert "initial segmentation" not in str(info.value)
    assert info.value.stream == "within" and info.value.restart is None

    calls = []

    def fails_on_the_shuffle(units):
        calls.append(1)
        if len(calls) > 3:  # the initial call, the determinism check, the within restart
            raise RuntimeError("boom")
        return [4]

    with pytest.raises(SegmenterError) as info:
        stability_test(fails_on_the_shuffle, [f"u{i}" for i in range(8)], n_restarts=1, doc_id="d")
    assert "restart 0 of the shuffle stream" in str(info.value), str(info.value)


class _HoldsALock:
    """A segmenter keeping a lock as an attribute: it runs in this process, but cannot be pickled
    to worker processes."""

    def __init__(self):
        self.lock = threading.Lock()

    def __call__(self, units):
        return [len(units) // 2] if len(units) > 1 else []


@pytest.mark.parametrize("mode", [{"n_jobs": 2}, {"n_jobs": 1, "backend": "loky"}])
def test_a_segmenter_that_cannot_be_pickled_to_the_workers_fails_alone_saying_why(mode, expected):
    # before: the run stopped at its first task with loky's bare "PicklingError: Could not pickle the
    # task to send it to the workers", a traceback naming neither the segmenter nor the way out,
    # and the other segmenters' results were lost with it
    result = evaluate({"locked": _HoldsALock(), "fault": Fault("raise", marker="none")}, corpus(*MARKERS),
                      **{**SETTINGS, **mode})
    assert {r.document: scored(r) for r in result.documents["fault"]} == expected
    assert [(f.segmenter, f.document, f.restart) for f in result.failures] == [("locked", m, None) for m in MARKERS]
    error = result.failures[0].error
    assert "cannot be sent to the worker processes" in error
    assert "TypeError: cannot pickle '_thread.lock' object" in error
    assert "n_jobs = 1 without a backend" in error and "threading" in error


@pytest.mark.parametrize("mode", [{"n_jobs": 1}, {"n_jobs": 2, "backend": "threading"}])
def test_a_segmenter_that_cannot_be_pickled_runs_where_nothing_is_pickled(mode):
    result = evaluate({"locked": _HoldsALock()}, corpus(*MARKERS), **{**SETTINGS, **mode})
    assert not result.failures and len(result.documents["locked"]) == len(MARKERS)


def test_segment_sizes_returned_as_boundaries_are_told_to_use_from_masses():
    # A segmenter returning sizes (segeval's masses) instead of segment starts: on 10 units the sizes
    # [2, 3, 5] are also valid boundaries, which no check can tell apart (they are read as
    # boundaries, the one convention); [4, 3, 3] (3 repeated) and [10] (out of range) are invalid,
    # and before this the error said only that, not what the values look like.
    from stability import Segmentation

    units = [f"unit {i}" for i in range(10)]
    outputs = {"repeated": [4, 3, 3], "one_segment": [10], "array": __import__("numpy").array([4, 3, 3]),
               "not_sizes": [4, 4, 13]}
    result = evaluate({name: (lambda out: lambda units: out)(out) for name, out in outputs.items()}, [units],
                      **SETTINGS)
    errors = {f.segmenter: f.error for f in result.failures}
    for name in ("repeated", "one_segment", "array"):
        assert "sum to the document's 10 units: segment sizes?" in errors[name], errors[name]
        assert "Segmentation.from_masses(sizes)" in errors[name]
    assert "segment sizes" not in errors["not_sizes"]
    fixed = evaluate({"sizes": lambda units: Segmentation.from_masses([4, 3, 3])}, [units], **SETTINGS)
    assert not fixed.failures and fixed.documents["sizes"][0].segmentation.boundaries == (4, 7)


def _submissions(monkeypatch) -> list[str]:
    """The names of the functions handed to the worker processes from now on, in order."""
    from stability import isolation

    submitted: list[str] = []
    real = isolation.submit
    monkeypatch.setattr(isolation, "submit", lambda function, task, n_jobs: (
        submitted.append(function.__name__), real(function, task, n_jobs))[1])
    return submitted


def test_a_worker_killed_in_a_batch_of_first_segmentations_fails_its_document_alone(monkeypatch):
    """With several jobs the first segmentations of a few pairs go in one task (about four tasks
    a job): 24 documents and 2 jobs make 8 tasks of 3. A segmenter that kills its worker on one
    document is a crash failure of that document; the others of its batch are kept."""
    from stability import tasks

    markers = [f"m{i:02d}" for i in range(24)]
    markers[10] = "bad"
    submitted = _submissions(monkeypatch)
    crashed = evaluate({"fault": Fault("os_exit")}, corpus(*markers), **{**SETTINGS, "n_jobs": 2})
    healthy_run = evaluate({"fault": Fault("raise", marker="none")}, corpus(*markers), **{**SETTINGS, "n_jobs": 1})
    assert [(f.document, f.kind, f.restart) for f in crashed.failures] == [("bad", "crash", None)]
    kept = {r.document: scored(r) for r in crashed.documents["fault"]}
    assert kept == {r.document: scored(r) for r in healthy_run.documents["fault"] if r.document != "bad"}
    # 8 batches in the pool; those in flight when the worker died (at most 2 x 2 jobs) ran again
    # alone; the one holding "bad" killed its worker again, so each of its 3 pairs ran alone
    assert 8 + 1 <= submitted.count(tasks.initial_batch.__name__) <= 8 + 4
    assert submitted.count(tasks.initial_task.__name__) == 3


def test_a_worker_killed_in_a_batch_of_restart_tasks_fails_its_document_alone(monkeypatch):
    """With several jobs and many documents, the restarts of a few documents go in one task (at
    most eight, about four tasks a job): 40 documents and 2 jobs make 8 tasks of 5. A segmenter
    that kills its worker on one document's first restart is a crash failure of that restart;
    the other documents, of its batch too, are kept as a healthy run gives them."""
    from stability import tasks

    markers = [f"m{i:02d}" for i in range(40)]
    markers[17] = "bad"
    submitted = _submissions(monkeypatch)
    crashed = evaluate({"fault": Fault("os_exit", when="restart")}, corpus(*markers), **{**SETTINGS, "n_jobs": 2})
    healthy_run = evaluate({"fault": Fault("raise", marker="none")}, corpus(*markers), **{**SETTINGS, "n_jobs": 1})
    assert [(f.document, f.kind, f.stream, f.restart) for f in crashed.failures] == [("bad", "crash", "within", 0)]
    kept = {r.document: scored(r) for r in crashed.documents["fault"]}
    assert kept == {r.document: scored(r) for r in healthy_run.documents["fault"] if r.document != "bad"}
    # 8 batches in the pool; those in flight when the worker died ran again alone; the one holding
    # "bad" killed its worker again, so each of its 5 documents' tasks ran alone, then bad's restarts
    assert 8 + 1 <= submitted.count(tasks.restart_batch.__name__) <= 8 + 4
    assert submitted.count(tasks.restart_task.__name__) >= 5
