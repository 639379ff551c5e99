"""Pairs that finished behind a pair still running survive an interrupt: they are written ahead
of corpus order (marked with their document's place), read back in corpus order, and a resume
computes only the pairs missing, giving what an uninterrupted run gives."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from stability import Document, RunInterrupted, evaluate, load_results
from stability.store import read_run

N_DOCS, SLOW = 5, "d1"


def even_thirds(units):
    return list(range(3, len(units), 3))


def letters() -> list[Document]:
    return [Document(f"d{i}", tuple(f"d{i} unit {j}" for j in range(12))) for i in range(N_DOCS)]


def blocking(units):
    """Like :func:`even_thirds`, but a restart of ``SLOW`` (its units permuted) waits until every
    call of the other documents is made (each logged as a line of ``calls`` in the folder
    ``$STABILITY_TEST_AHEAD``: the workers may be other processes), gives their results a second
    to reach the run, then interrupts the run with a real SIGINT (Ctrl-C) sent to the process whose
    id is in ``pid`` there (once), and blocks: that pair is still running when the run stops."""
    folder = Path(os.environ["STABILITY_TEST_AHEAD"])
    if not units[0].startswith(f"{SLOW} "):
        with (folder / "calls").open("a") as log:
            log.write("call\n")
    elif list(units) != [f"{SLOW} unit {j}" for j in range(len(units))]:
        target, deadline = int((folder / "target").read_text()), time.monotonic() + 30
        while time.monotonic() < deadline and (folder / "calls").read_text().count("\n") < target:
            time.sleep(0.01)
        time.sleep(1.0)
        try:  # once: the pair's restarts and its shuffle control are tasks of their own
            os.close(os.open(folder / "sent", os.O_CREAT | os.O_EXCL))
            os.kill(int((folder / "pid").read_text()), signal.SIGINT)
        except FileExistsError:
            pass
        time.sleep(3.0)
    return even_thirds(units)


def calls_per_pair() -> int:
    counted = []
    evaluate({"c": lambda units: counted.append(1) or even_thirds(units)}, letters()[:1], n_restarts=3,
             progress=False)
    return len(counted)


@pytest.mark.parametrize("backend", ["threading", "dask"])
def test_pairs_finished_behind_a_running_one_are_kept_and_resumed(tmp_path, monkeypatch, backend):
    folder = tmp_path / "calls"
    folder.mkdir()
    (folder / "calls").write_text("")
    (folder / "target").write_text(str(calls_per_pair() * (N_DOCS - 1)))
    (folder / "pid").write_text(str(os.getpid()))
    monkeypatch.setenv("STABILITY_TEST_AHEAD", str(folder))
    if backend == "dask":  # a cluster of two worker processes, as a run without --scheduler starts
        distributed = pytest.importorskip("distributed")
        from stability.config import local_cluster

        cluster = local_cluster(2)
        client = distributed.Client(cluster)
    output = tmp_path / "results.jsonl"
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            evaluate({"b": blocking}, letters(), n_restarts=3, n_jobs=2, backend=backend, progress=False,
                     output=output)
    finally:
        if backend == "dask":
            client.close()
            cluster.close()
    assert isinstance(caught.value, RunInterrupted)
    # d0 finished before d1 and is in corpus order; d2, d3, d4 finished behind d1 and are kept, marked
    records = [json.loads(line) for line in output.read_text().splitlines()[1:]]
    assert [(r["result"]["document"], r.get("document_index")) for r in records] == [
        ("d0", None), ("d2", 2), ("d3", 3), ("d4", 4)]
    assert [r.document for r in caught.value.result.documents["b"]] == ["d0", "d2", "d3", "d4"]
    assert [r.document for r in load_results(output).documents["b"]] == ["d0", "d2", "d3", "d4"]
    assert list(read_run(output).entries) == [("b", "d0"), ("b", "d2"), ("b", "d3"), ("b", "d4")]

    # the resume computes d1 alone, and the whole equals an uninterrupted run
    computed = []

    def counting(units):
        computed.append(units[0].split()[0])
        return even_thirds(units)

    resumed = evaluate({"b": counting}, letters(), n_restarts=3, progress=False, output=output, resume=True)
    assert set(computed) == {SLOW}
    whole = evaluate({"b": even_thirds}, letters(), n_restarts=3, progress=False, output=tmp_path / "whole.jsonl")
    expected = whole.to_dict()["documents"]
    assert resumed.to_dict()["documents"] == expected
    assert load_results(output).to_dict()["documents"] == expected
    assert [r.document for r in load_results(output).documents["b"]] == [f"d{i}" for i in range(N_DOCS)]
    assert load_results(output).to_dict()["summary"] == load_results(tmp_path / "whole.jsonl").to_dict()["summary"]


def test_a_record_ahead_at_another_place_is_refused_on_resume(tmp_path):
    output = tmp_path / "results.jsonl"
    evaluate({"b": even_thirds}, letters(), n_restarts=3, progress=False, output=output)
    lines = output.read_text().splitlines()
    # as an interrupted run writes it: d2 ahead of d1, at its place 2; then the corpus reordered
    ahead = json.loads(lines[3])
    ahead["document_index"] = 2
    output.write_text("\n".join([lines[0], lines[1], json.dumps(ahead)]) + "\n")
    assert [r.document for r in load_results(output).documents["b"]] == ["d0", "d2"]
    docs = letters()
    reordered = [docs[0], docs[2], docs[1], docs[3], docs[4]]
    from stability import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="document 3 of the corpus, which has it as document 2"):
        evaluate({"b": even_thirds}, iter(reordered), n_restarts=3, progress=False, output=output, resume=True)


def test_a_record_ahead_cut_by_a_kill_is_dropped_and_its_pair_computed_again(tmp_path):
    output = tmp_path / "results.jsonl"
    whole = evaluate({"b": even_thirds}, letters(), n_restarts=3, progress=False, output=tmp_path / "whole.jsonl")
    lines = (tmp_path / "whole.jsonl").read_text().splitlines()
    ahead = [json.loads(line) for line in lines[3:5]]
    for record, place in zip(ahead, (2, 3)):
        record["document_index"] = place
    # d0, then d2 written ahead of d1, then d3 ahead and cut in the middle of its line by a kill
    cut = json.dumps(ahead[1])
    output.write_text("\n".join([lines[0], lines[1], json.dumps(ahead[0]), cut[: len(cut) // 2]]))
    from stability.store import ResultsWarning

    with pytest.warns(ResultsWarning, match="incomplete last line left out"):
        assert [r.document for r in load_results(output).documents["b"]] == ["d0", "d2"]
    computed = []

    def counting(units):
        computed.append(units[0].split()[0])
        return even_thirds(units)

    with pytest.warns(ResultsWarning, match="cut off before resuming"):
        resumed = evaluate({"b": counting}, letters(), n_restarts=3, progress=False, output=output, resume=True)
    assert set(computed) == {"d1", "d3", "d4"}
    assert resumed.to_dict()["documents"] == whole.to_dict()["documents"]
    assert load_results(output).to_dict()["documents"] == whole.to_dict()["documents"]


def test_an_on_result_that_raises_stops_the_run_with_its_own_error_and_each_pair_stored_once(tmp_path):
    """A run stopped inside the emission of a pair (here ``on_result`` raising; in CI, SIGTERM
    landing there) emitted that pair again as one finished behind, whose restarts were gone: a
    KeyError replaced the caller's error (or the interrupt's exit). The pair is stored once, and a
    resume completes the run."""
    docs = [["a b"] * 12, ["c d"] * 14, ["e f"] * 9]
    out = tmp_path / "results.jsonl"

    def stop(result):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        evaluate({"even": "even"}, docs, n_restarts=3, progress=False, output=out, on_result=stop)
    assert [key for key in read_run(out).entries] == [("even", "0")]
    assert sum(1 for line in out.read_text().splitlines() if '"result"' in line) == 1
    resumed = evaluate({"even": "even"}, docs, n_restarts=3, progress=False, output=out, resume=True)
    assert [r.document for r in resumed.documents["even"]] == ["0", "1", "2"]


def _stopped_behind_the_first(monkeypatch, stop: BaseException) -> None:
    """Make every run stop on ``stop`` while its first pair is still running and the others have
    finished behind it (as a slow first document under several workers leaves them): each block's
    pairs run, the first one's end is held back and marked unfinished, then ``stop`` is raised."""
    from stability import runner

    real = runner._CorpusRun._run

    def run(self, pairs, digests, on_done, checked, slot_of):
        real(self, pairs, digests, lambda i: None if i == 0 else on_done(i), checked, slot_of)
        pairs[0].complete = False
        raise stop

    monkeypatch.setattr(runner._CorpusRun, "_run", run)


def _failing(monkeypatch, where: str, document: str, error: BaseException) -> None:
    """Make keeping the pair of ``document`` fail with ``error``: its scoring (``"score"``,
    ``Engine.result``) or the write of its record (``"write"``, the results file's ``_append``)."""
    from stability import engine, store

    if where == "score":
        real_result = engine.Engine.result

        def result(self, pair):
            if pair.doc.id == document:
                raise error
            return real_result(self, pair)

        monkeypatch.setattr(engine.Engine, "result", result)
    else:
        real_append = store.ResultsStore._append

        class Failing:
            """The results file's handle, whose write of the record of ``document`` fails."""

            def __init__(self, real):
                self.real = real

            def write(self, data):
                if f'"document": "{document}"'.encode() in bytes(data):
                    raise error
                return self.real.write(data)

            def __getattr__(self, name):
                return getattr(self.real, name)

        def append(self, data, path):
            if not isinstance(self._handle, Failing):
                self._handle = Failing(self._handle)
            real_append(self, data, path)

        monkeypatch.setattr(store.ResultsStore, "_append", append)


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), RuntimeError("the caller's own error")],
                         ids=["interrupt", "error"])
@pytest.mark.parametrize("fault", ["score", "write", "interrupt"])
def test_a_failure_to_keep_the_pairs_behind_does_not_replace_what_stopped_the_run(tmp_path, monkeypatch, stop, fault):
    """A run stopping with pairs finished behind a running one writes them before it re-raises; a
    failure while writing them (a pair's result that cannot be computed, a full disk, a second
    Ctrl-C) took the place of the error or interrupt that stopped the run, which was only chained
    as its context. Now the run ends with what stopped it, the failure said in a note and a
    warning, and every pair that can be written is: a pair that cannot be scored is left out and
    the others kept; a full disk keeps nothing after it; a second Ctrl-C stops the saving and ends
    the run as an interruption (never turned into an error ``except Exception`` would catch)."""
    import errno

    from stability.store import ResultsWarning

    output = tmp_path / "results.jsonl"
    _stopped_behind_the_first(monkeypatch, stop)
    error = {"score": ValueError("cannot score"), "write": OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)),
             "interrupt": KeyboardInterrupt()}[fault]
    _failing(monkeypatch, "score" if fault == "score" else "write", "d2", error)
    ends_as = KeyboardInterrupt if isinstance(stop, KeyboardInterrupt) or fault == "interrupt" else RuntimeError
    why = {"score": r"1 could not be scored and is left out: segmenter 'b' on document 'd2' \(ValueError: cannot score\)",
           "write": r"the last 3 not kept: .*results\.jsonl could not be written \(No space left on device\)",
           "interrupt": "the last 3 not kept: saving them was interrupted"}[fault]
    with pytest.warns(ResultsWarning, match=why), pytest.raises(ends_as) as caught:
        evaluate({"b": even_thirds}, letters(), n_restarts=3, progress=False, output=output)
    notes = "\n".join(getattr(caught.value, "__notes__", []))
    assert "4 (segmenter, document) pair(s) had finished behind one still running" in notes
    if ends_as is RuntimeError:
        assert caught.value is stop
    else:
        assert isinstance(caught.value, RunInterrupted)  # evaluate's interrupt, the note carried over
        if not isinstance(stop, KeyboardInterrupt):
            assert "the run had stopped on RuntimeError: the caller's own error" in notes
    kept = {"score": ["d1", "d3", "d4"], "write": ["d1"], "interrupt": ["d1"]}[fault]
    assert [doc for _, doc in read_run(output).entries] == kept

    # the resume computes the rest, giving an uninterrupted run's results
    monkeypatch.undo()
    resumed = evaluate({"b": even_thirds}, letters(), n_restarts=3, progress=False, output=output, resume=True)
    whole = evaluate({"b": even_thirds}, letters(), n_restarts=3, progress=False, output=tmp_path / "whole.jsonl")
    assert resumed.to_dict()["documents"] == whole.to_dict()["documents"]
