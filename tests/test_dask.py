"""The same run on a local Dask cluster (backend "dask") gives bit-identical results; documents are scattered once."""

from __future__ import annotations

import pickle
import re
import threading

import pytest
from faults import Fault, corpus

from conftest import cohesion_segmenter, topical_document
from stability import Document, evaluate
from stability.config import default_experiment, local_cluster, run_experiment, started_local_cluster, with_overrides

distributed = pytest.importorskip("distributed")


def test_dask_backend_without_a_client_names_what_is_missing():
    from stability import InvalidParameterError

    docs = [Document("d0", tuple(topical_document(0)[0]))]
    current = distributed.client._get_global_client()
    if current is not None:
        pytest.skip("a Dask client is active in this process (this test runs before the fixture's)")
    with pytest.raises(InvalidParameterError, match="distributed.Client"):
        evaluate({"lex": cohesion_segmenter}, docs, n_restarts=3, n_jobs=2, backend="dask", progress=False)


@pytest.fixture(scope="module")
def client():
    # the cluster a run starts on this machine without --scheduler, of two workers
    with started_local_cluster(2) as cluster, distributed.Client(cluster) as c:
        yield c


def test_dask_backend_matches_loky_and_sequential(client):
    docs = [Document(f"d{i}", tuple(topical_document(i)[0])) for i in range(3)]
    sequential = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=10, progress=False)
    on_dask = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=10, n_jobs=2, backend="dask", progress=False)
    assert on_dask.to_dict()["documents"] == sequential.to_dict()["documents"]


def test_each_document_is_scattered_once_for_all_its_segmenters_chunks_and_rounds(client, monkeypatch):
    sent = []
    submit = distributed.Client.submit

    def spy(self, function, *args, **kwargs):
        if function is pickle.loads:  # a document's units, shipped as one pickle
            sent.append(pickle.loads(args[0]))
        return submit(self, function, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "submit", spy)
    docs = [Document(f"d{i}", tuple(topical_document(i)[0])) for i in range(3)]
    # adaptive stopping with a width never reached: 4 rounds of 10 restarts, several chunks each
    settings = dict(n_restarts=40, ci_width=1e-9, min_restarts=10, check_every=10, shuffle_control=True, progress=False)
    # two segmenters: a document is shipped once for both, not once a pair
    segmenters = {"lex": cohesion_segmenter, "even": "even"}
    on_dask = evaluate(segmenters, docs, n_jobs=4, backend="dask", **settings)
    sequential = evaluate(segmenters, docs, **settings)
    assert on_dask.to_dict()["documents"] == sequential.to_dict()["documents"]
    assert on_dask.documents["lex"][0].n_restarts == 40
    assert [sum(item == doc.units for item in sent if isinstance(item, tuple)) for doc in docs] == [1, 1, 1]


def test_a_one_worker_cluster_runs_the_tasks_too(client):
    # joblib's dask backend ran the tasks in this process on a one-worker cluster, where the
    # scattered units were futures: every pair failed
    docs = [Document(f"d{i}", tuple(topical_document(i)[0])) for i in range(2)]
    sequential = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=6, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster, distributed.Client(cluster):
        alone = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=6, n_jobs=2, backend="dask", progress=False)
    assert not alone.failures
    assert alone.to_dict()["documents"] == sequential.to_dict()["documents"]


def test_a_worker_restarted_slowly_is_not_given_up_by_the_runs_own_cluster():
    """Dask closes the nanny of a worker not back after distributed.deploy.lost-worker-timeout (15 s
    by default); a worker killed by a segmenter and restarted by its nanny on a loaded machine took
    that long, and the run's cluster lost it for good (in CI: a two-worker cluster left with none, a
    ClusterError after 120 s, the next tests waiting for workers too). A timeout of 0 s stands for
    the slow restart here: the run's cluster sets its own, and the worker comes back."""
    import os
    import time

    import dask

    with dask.config.set({"distributed.deploy.lost-worker-timeout": "0s"}), started_local_cluster(2) as cluster, \
            distributed.Client(cluster, set_as_default=False) as own:
        own.wait_for_workers(2)
        first = sorted(own.scheduler_info()["workers"])[0]
        own.submit(os._exit, 13, workers=[first], pure=False)  # given up at once: allowed_failures=0
        deadline = time.monotonic() + 90  # a hang detector, not a measure of speed
        while first in own.scheduler_info()["workers"] and time.monotonic() < deadline:
            time.sleep(0.1)
        while len(own.scheduler_info()["workers"]) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert first not in own.scheduler_info()["workers"]  # it died
        assert len(own.scheduler_info()["workers"]) == 2 and len(cluster.workers) == 2


def test_a_run_without_a_scheduler_starts_one_worker_a_job_and_gives_up_a_lost_task_at_once(monkeypatch):
    # the local cluster had two workers whatever --jobs said, and Dask ran a task whose worker
    # died on three more workers before the run's own rerun alone: four dead workers a crash
    import stability.config as config

    seen = []

    def spy(n_workers):
        cluster = local_cluster(n_workers)
        seen.append((len(cluster.workers), cluster.scheduler.allowed_failures))
        return cluster

    monkeypatch.setattr(config, "local_cluster", spy)
    exp = with_overrides(default_experiment(), segmenters=["even"], n_restarts=2, n_jobs=3, backend="dask")
    result = run_experiment(exp, progress=False)
    assert seen == [(3, 0)]
    assert result.summary["even"].n_documents == 12


def test_experiment_connects_to_a_scheduler_address(client):
    exp = with_overrides(default_experiment(), segmenters=["even"], n_restarts=3, n_jobs=2,
                         backend="dask", scheduler=client.scheduler.address)
    result = run_experiment(exp, progress=False)
    assert result.summary["even"].n_documents == 12 and result.settings["backend"] == "dask"


@pytest.mark.parametrize("when", ["initial", "restart"])
def test_a_segmenter_that_kills_its_worker_is_a_crash_failure_and_the_rest_is_kept(client, when):
    # the dead worker held the document's units: tasks needing them were cancelled, the run died
    # with "cannot unpack non-iterable FutureCancelledError"
    docs = corpus("a", "bad", "c")
    settings = dict(n_restarts=4, n_bootstrap=50, progress=False)
    expected = evaluate({"fault": Fault("raise", marker="none")}, docs, **settings)
    result = evaluate({"fault": Fault("os_exit", when=when)}, docs, n_jobs=2, backend="dask", **settings)
    [failure] = result.failures
    assert (failure.document, failure.kind) == ("bad", "crash")
    assert "worker process running the segmenter died" in failure.error
    assert (failure.restart, failure.stream) == ((None, None) if when == "initial" else (0, "within"))
    def scored(r):  # less the parameters: each Fault records its own kind
        return {key: value for key, value in r.to_dict().items() if key != "params"}

    assert [scored(r) for r in result.documents["fault"]] == [
        scored(r) for r in expected.documents["fault"] if r.document != "bad"]



def test_a_task_the_workers_cannot_load_is_one_clear_error():
    """Workers without a plugin segmenter's module fail to deserialize the task graph: Dask raises
    a RuntimeError caused by the ImportError (seen with an external scheduler and workers started
    without the module), which becomes one error naming the module and what to do."""
    from stability.engine import _raise_unloadable
    from stability.exceptions import UnknownSegmenterError

    try:
        try:
            raise ModuleNotFoundError("No module named 'plug'")
        except ModuleNotFoundError as missing:
            raise RuntimeError("Error during deserialization of the task graph") from missing
    except RuntimeError as exc:
        with pytest.raises(UnknownSegmenterError, match=r"cannot load the run's tasks \(No module named 'plug'\): "
                                                        r"every segmenter's module must be importable on the cluster"):
            _raise_unloadable(exc)
    assert _raise_unloadable(ValueError("a segmenter's own error")) is None  # anything else: left to the caller


def test_a_segmenter_the_workers_cannot_load_stops_the_run_before_any_task(client, tmp_path, monkeypatch):
    """A plugin importable here but not on the workers failed the run at its first task, after
    the built-in segmenters' tasks had started, and their pairs with it; now the run stops before
    any task, naming the segmenter, the import error and what to install."""
    from stability import UnknownSegmenterError

    (tmp_path / "plug_here_only.py").write_text("def segment(units):\n    return []\n")
    monkeypatch.syspath_prepend(str(tmp_path))  # here; the workers, started before, do not see it
    from plug_here_only import segment  # type: ignore[import-not-found]

    submitted = []
    submit = distributed.Client.submit
    monkeypatch.setattr(distributed.Client, "submit", lambda self, function, *args, **kwargs: (
        submitted.append(function), submit(self, function, *args, **kwargs))[1])
    docs = [Document(f"d{i}", tuple(topical_document(i)[0])) for i in range(2)]
    with pytest.raises(UnknownSegmenterError, match=r"segmenter 'plug' cannot be loaded on the Dask cluster "
                                                    r"\(ModuleNotFoundError: No module named 'plug_here_only', on \d "
                                                    r"workers? of \d, .*install the package that provides it"):
        evaluate({"even": "even", "plug": segment}, docs, n_restarts=3, n_jobs=2, backend="dask", progress=False)
    assert set(submitted) <= {pickle.loads}  # the documents' units were shipped, no segmenter's task ran


def test_a_refused_setting_is_said_before_a_cluster_starts(monkeypatch):
    from stability import InvalidParameterError

    def no_cluster(*args, **kwargs):
        raise AssertionError("a cluster was started")

    monkeypatch.setattr(distributed, "LocalCluster", no_cluster)
    experiment = with_overrides(default_experiment(), backend="dask", timeout=3.0, n_restarts=2)
    with pytest.raises(InvalidParameterError, match="timeout cannot be used with the dask backend"):
        run_experiment(experiment, progress=False)


def test_a_cluster_left_without_workers_is_an_error_not_a_wait_forever(monkeypatch, capfd):
    """Under heavy load, a worker killed over and over by a segmenter was not restarted by its
    nanny: the local cluster had no worker left and the run waited for ever (seen in this suite).
    Now a cluster without any worker for DASK_NO_WORKER_WAIT seconds stops the run with an error
    that says the results so far are kept."""
    from stability import ClusterError
    from stability import engine

    import time

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        future = client.submit(sum, [1, 2], pure=False)
        assert list(engine._completed(client, [future])) == [future]  # with a worker: as as_completed
        monkeypatch.setattr(engine, "DASK_NO_WORKER_WAIT", 0.5)
        monkeypatch.setattr(engine, "_DASK_WORKER_CHECK", 0.1)
        cluster.scale(0)
        while client.scheduler_info()["workers"]:
            time.sleep(0.05)
        waiting = client.submit(sum, [3, 4], pure=False)
        with pytest.raises(ClusterError, match=r"the Dask cluster has had no worker for \d+ s \(1 task\(s\) waiting\).*"
                                               r"the results finished so far are kept, resume=True goes on"):
            list(engine._completed(client, [waiting]))
        # the wait is said once, as it begins (it was silent for its 120 s); Dask's own warnings of a
        # loaded machine ("Event loop was unresponsive...") may come between: not stability's to say
        address = client.scheduler.address
        assert _said(capfd) == [
            f"stability: the Dask scheduler at {address} has no worker; waiting up to 0.5 s for one to join "
            f"(start one with: dask worker {address})"]


def test_a_run_on_a_cluster_no_worker_joined_says_it_waits_then_stops(monkeypatch, capfd):
    """A first worker was waited for 120 s without a word; now the wait is said at once, and a
    cluster no worker joins stops the run before any task."""
    from stability import ClusterError
    from stability import engine

    monkeypatch.setattr(engine, "DASK_NO_WORKER_WAIT", 0.5)
    docs = [Document("d0", tuple(topical_document(0)[0]))]
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        address = client.scheduler.address
        with pytest.raises(ClusterError, match=rf"no worker joined the Dask scheduler at {address} in 0.5 s: start "
                                               r"workers \(dask worker ADDRESS\), then run again; nothing was run"):
            evaluate({"even": "even"}, docs, n_restarts=3, n_jobs=2, backend="dask", progress=False)
    assert _said(capfd) == [
        f"stability: the Dask scheduler at {address} has no worker; waiting up to 0.5 s for one to join "
        f"(start one with: dask worker {address})"]


#: A line of Dask's logging (distributed.admin.log-format: time, logger, level, message).
_DASK_LOG = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ - (distributed|tornado)[.\w]* - [A-Z]+ - ")


def _said(capfd):
    """The lines written to stderr, less those of Dask's logging: the warnings a loaded machine
    makes it log in this process (``Event loop was unresponsive in Scheduler for 3.2s``) are not
    stability's to say, and came between the lines these tests compare."""
    return [line for line in capfd.readouterr().err.splitlines() if not _DASK_LOG.match(line)]


def _where(index):
    import time

    time.sleep(0.05)  # long enough for the scheduler to hand the tasks in flight to every idle worker
    return index, distributed.get_worker().address


def test_tasks_go_out_in_order_a_few_at_a_time_and_to_workers_that_join_mid_round(monkeypatch):
    """Tasks are handed out a few a worker thread at a time, the first first (all at once, pairs
    finished out of corpus order and Ctrl-C lost them), counting the threads again as the run
    goes: a worker that joins mid-round gets tasks too.

    What is checked is what the run hands out (the tasks in flight: submitted, their results not
    yet read) and where they ran, not tasks of a fifth of a second overlapping on the clock, which
    a loaded machine's scheduling delays could keep apart; the threads are counted at every
    top-up (_DASK_WORKER_CHECK 0), not after 2 s that the run's tasks had to outlast."""
    from stability import engine

    monkeypatch.setattr(engine, "_DASK_WORKER_CHECK", 0.0)
    submitted, consumed, in_flight = [], [0], []
    submit = distributed.Client.submit

    def spy(self, function, *args, **kwargs):
        submitted.append(args[0] if function is _where else None)
        in_flight.append(len(submitted) - consumed[0])  # submitted, their results not yet read
        return submit(self, function, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "submit", spy)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        drained = engine._drain_dask(_where, [(i,) for i in range(30)], 1)
        first = []
        for _ in range(2):
            first.append(next(drained)[0])
            consumed[0] += 1
        assert first == [0, 1]  # one thread: two in flight, the first first
        assert max(in_flight) == engine._DASK_IN_FLIGHT and len(client.who_has()) <= 2 * engine._DASK_IN_FLIGHT
        cluster.scale(3)
        client.wait_for_workers(3)
        rest = []
        for result in drained:
            rest.append(result)
            consumed[0] += 1
    assert submitted == list(range(30))  # the first first
    assert sorted(i for i, _ in rest) == list(range(2, 30))
    # the three threads counted again: up to two tasks each in flight (two in all, counted at the start,
    # would run on two workers at most), and each of the three workers ran some
    assert max(in_flight) == 3 * engine._DASK_IN_FLIGHT
    assert len({address for _, address in rest}) == 3


def test_a_task_run_alone_ships_its_units_again_when_the_cluster_lost_them(client):
    """A worker killed by a segmenter while it made another document's units again (the worker
    that held them had died too) left the cluster without those units for good: the healthy
    document's task, run alone, failed, and the document was recorded as a crash (seen in CI on a
    loaded machine, the cluster down to one worker). A cancelled future stands for such units."""
    from types import SimpleNamespace

    from stability import get_segmenter
    from stability.engine import _dask_alone, _scatter_units
    from stability.isolation import Guarded
    from stability.tasks import initial_task

    units = tuple(f"unit {i}" for i in range(12))
    [shipped] = _scatter_units([SimpleNamespace(doc=Document("x", units))]).values()
    lost = shipped.future
    client.cancel(lost)
    assert lost.status == "cancelled"
    got = _dask_alone(initial_task, (0, Guarded(get_segmenter("even"), None), shipped, False), 2)
    assert got == (0, (10,), None, None, None)
    assert shipped.future is not lost and shipped.future.status == "finished"  # what later tasks carry


def test_a_run_that_ends_keeps_the_units_another_run_shipped(client):
    """Two Dask runs of one process at once (two threads, a notebook): the first to end cleared
    every run's pickles, and a document of the other whose units the cluster then lost was a crash
    again, not shipped again. Each shipment now keeps its own pickle, for as long as its run does."""
    from types import SimpleNamespace

    from stability import get_segmenter
    from stability.engine import _dask_alone, _scatter_units
    from stability.isolation import Guarded
    from stability.tasks import initial_task

    units = tuple(f"unit {i}" for i in range(12))
    [theirs] = _scatter_units([SimpleNamespace(doc=Document("x", units))]).values()  # the run still going
    docs = [Document(f"d{i}", tuple(topical_document(i)[0])) for i in range(2)]
    evaluate({"lex": cohesion_segmenter}, docs, n_restarts=3, n_jobs=2, backend="dask", progress=False)
    client.cancel(theirs.future)
    got = _dask_alone(initial_task, (0, Guarded(get_segmenter("even"), None), theirs, False), 2)
    assert got == (0, (10,), None, None, None)


def test_a_segmenter_holding_a_model_goes_to_each_worker_once(client, tmp_path):
    """With the dask backend a segmenter holding a model travelled with every task (through the
    scheduler, read there and in a worker each time), where loky's workers read it once: it is
    now shipped once, the pickle of the pickling check the task's argument, and read once in
    each worker, whose tasks carry its future."""
    import faults
    from stability.demo import demo_corpus

    docs = demo_corpus(n_documents=10)
    model = faults.Model(mb=2, log=str(tmp_path))
    settings = dict(n_restarts=6, shuffle_control=True, progress=False)
    faults.Model.pickles = 0
    on_dask = evaluate({"model": model}, docs, n_jobs=2, backend="dask", **settings)
    here, workers = faults.unpickled(tmp_path)
    assert faults.Model.pickles == 1  # the check's pickle is the one sent
    assert here == 1  # the check reads it back (this process also runs the local cluster's scheduler)
    assert 1 <= workers <= 2  # at most once in each of the two workers
    sequential = evaluate({"model": model}, docs, **settings)
    assert on_dask.to_dict()["documents"] == sequential.to_dict()["documents"]


def test_a_worker_killed_with_a_shipped_segmenter_makes_it_again(client):
    """The worker holding a shipped segmenter (its future's value) dies, killed by the segmenter
    itself: the cluster makes it again from its pickle for the other tasks, which keep their
    results, and the document that kills the worker is a crash as with a small segmenter."""
    fault = Fault("os_exit", when="restart")
    fault.weights = bytes(2 << 20)  # a model: shipped once
    docs = corpus("a", "bad", "c")
    settings = dict(n_restarts=4, n_bootstrap=50, progress=False)
    expected = evaluate({"fault": Fault("raise", marker="none")}, docs, **settings)
    result = evaluate({"fault": fault}, docs, n_jobs=2, backend="dask", **settings)
    [failure] = result.failures
    assert (failure.document, failure.kind, failure.restart, failure.stream) == ("bad", "crash", 0, "within")

    def scored(r):  # less the parameters: each Fault records its own kind
        return {key: value for key, value in r.to_dict().items() if key != "params"}

    assert [scored(r) for r in result.documents["fault"]] == [
        scored(r) for r in expected.documents["fault"] if r.document != "bad"]


def test_a_task_run_alone_ships_its_segmenter_again_when_the_cluster_lost_it(client):
    """As a document's units: a shipped segmenter the cluster gave up on (a cancelled future
    stands for it) is shipped again for a task run alone, where it sits in each chunk of restarts."""
    from stability import get_segmenter
    from stability.engine import _dask_alone, _ship_segmenter
    from stability.isolation import Guarded
    from stability.permutations import Stream
    from stability.segmenter import pickled
    from stability.tasks import restart_task

    units = tuple(f"unit {i}" for i in range(12))
    guarded = Guarded(get_segmenter("even", n_segments=3), None)
    shipped = _ship_segmenter(pickled(guarded.segmenter)[0], guarded)
    lost = shipped.future
    client.cancel(lost)
    assert lost.status == "cancelled"
    chunk = (0, Stream.WITHIN, shipped, (4, 8), 7, 0, range(0, 2))
    got = _dask_alone(restart_task, (units, [chunk]), 2)
    assert got == restart_task(units, [(*chunk[:2], guarded, *chunk[3:])])
    assert shipped.future is not lost and shipped.future.status == "finished"  # what later tasks carry


#: Several rounds of restarts after the first segmentations (adaptive stopping with a width never
#: reached), for runs whose later tasks need what the first ones had to ship again.
_ROUNDS = dict(n_restarts=12, ci_width=1e-9, min_restarts=6, check_every=3, n_bootstrap=50, shuffle_control=True,
               progress=False)


def test_units_shipped_again_are_the_ones_every_later_task_carries(client, tmp_path):
    """The worker making a document's units dies while making them, so the cluster gives them up
    (allowed_failures=0): the first task of the document run alone ships them again, but every
    later task (the document's other tasks run alone, its rounds of restarts) still carried the
    future of the lost ones, failed at once and, no longer known as a lost shipment, was recorded
    as a crash. Now each carries the units shipped again, and the run is the run without faults."""
    import faults

    once = tmp_path / "died"
    docs = corpus("a", "b", "c")
    units = docs[1].units
    docs[1] = Document("b", (faults.LoadKillsUnit(units[0], str(once)), *units[1:]))
    segmenter = Fault("raise", marker="none")
    sequential = evaluate({"even": segmenter}, docs, **_ROUNDS)
    on_dask = evaluate({"even": segmenter}, docs, n_jobs=2, backend="dask", **_ROUNDS)
    assert once.exists()  # a worker died making b's units
    assert not on_dask.failures
    assert on_dask.to_dict()["documents"] == sequential.to_dict()["documents"]


def test_a_segmenter_shipped_again_is_the_one_every_later_task_carries(client, tmp_path):
    """As a document's units: the worker making a shipped segmenter (a model) dies while making it;
    every task needed it, and only the first run alone carried it shipped again, the others were
    recorded as crashes of every document."""
    import faults

    once = tmp_path / "died"
    model = faults.LoadKills(once=str(once))
    docs = corpus("a", "b", "c")
    sequential = evaluate({"model": model}, docs, **_ROUNDS)
    on_dask = evaluate({"model": model}, docs, n_jobs=2, backend="dask", **_ROUNDS)
    assert once.exists()  # a worker died making the segmenter
    assert not on_dask.failures
    assert on_dask.to_dict()["documents"] == sequential.to_dict()["documents"]


def test_a_shipment_lost_each_time_is_shipped_again_a_few_times_in_all_not_for_each_task(client):
    """A shipment the cluster gives up on each time it is made (a model that cannot load there
    kills each worker making it; a cancelled future stands for it here) is shipped again
    _DASK_RESHIPS times in all, however many tasks need it, each of them then a crash: shipped
    again that many times for each task, it would kill as many workers for each."""
    from stability import get_segmenter
    from stability.engine import _DASK_RESHIPS, _dask_alone, _Shipped
    from stability.isolation import Guarded, WorkerCrash
    from stability.tasks import initial_task

    sent = []

    def made_and_lost():
        future = client.submit(sum, [0], pure=False)
        client.cancel(future)
        sent.append(future)
        return future

    shipped = _Shipped(made_and_lost(), made_and_lost)  # a document's units, say
    segmenter = Guarded(get_segmenter("even"), None)
    for i in range(3):
        with pytest.raises(WorkerCrash, match="the worker process running the segmenter died"):
            _dask_alone(initial_task, (i, segmenter, shipped, False), 2)
    assert len(sent) == 1 + _DASK_RESHIPS


def test_a_shipment_is_shipped_again_a_few_times_in_a_row_and_again_once_it_was_made():
    """The bound on shipping again is on losses in a row: a shipment seen made since (a later
    round) can be shipped again when a worker dies while making it again."""
    from stability.engine import _DASK_RESHIPS, _Shipped

    class Future:  # as distributed.Future: status, done()
        def __init__(self, status):
            self.status = status

        def done(self):
            return self.status != "pending"

    sent = []

    def again():
        sent.append(Future("error"))  # the worker making it died
        return sent[-1]

    shipped = _Shipped(Future("cancelled"), again)
    for _ in range(_DASK_RESHIPS + 2):
        shipped.current()
    assert len(sent) == _DASK_RESHIPS and shipped.future is sent[-1] and not shipped.ships_again()
    shipped.future.status = "finished"  # made at last (a later try)
    assert shipped.current() is sent[-1]
    lost = shipped.future
    lost.status = "error"  # lost again
    assert shipped.ships_again()
    assert shipped.current() is sent[-1] is not lost
    assert len(sent) == _DASK_RESHIPS + 1
    pending = _Shipped(Future("pending"), again)
    assert not pending.ships_again() and pending.current() is pending.future  # not ended: left to the cluster


def test_a_task_run_alone_is_tried_a_bounded_number_of_times_whatever_its_shipments_say(client):
    """A shipment made again, then lost with the worker running the task each time, starts its
    count of losses in a row anew each time: the tries of a task run alone are bounded all the
    same (_DASK_RESHIPS per shipment), after which the task is a crash, not a loop."""
    from stability import get_segmenter
    from stability.engine import _DASK_RESHIPS, _dask_alone, _Shipped
    from stability.isolation import Guarded, WorkerCrash
    from stability.tasks import initial_task

    class Cycling(_Shipped):  # says it will ship again, every time
        tries = 0

        def ships_again(self):
            return True

        def current(self):
            Cycling.tries += 1
            if Cycling.tries > 50:  # the unbounded loop: fail rather than hang
                raise AssertionError("tried without end")
            future = client.submit(sum, [0], pure=False)
            client.cancel(future)
            return future

    shipped = Cycling(None, lambda: None)
    with pytest.raises(WorkerCrash, match="the worker process running the segmenter died"):
        _dask_alone(initial_task, (0, Guarded(get_segmenter("even"), None), shipped, False), 2)
    assert Cycling.tries == _DASK_RESHIPS + 1


def _within(seconds, call):
    """``call()`` in a thread: what it raised or returned, or a failure (not a hang) when it runs
    past ``seconds``."""
    import threading

    outcome = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: it hangs"
    return outcome


#: Set when a call of :func:`_until_closed` has begun, and by the test once the scheduler is closed
#: (the workers are threads of the test's process).
_BEGUN, _CLOSED = threading.Event(), threading.Event()


def _until_closed(units):
    """An even segmenter whose calls are under way until the scheduler is closed: each says it has
    begun, then waits for the close (at most a minute)."""
    _BEGUN.set()
    _CLOSED.wait(60)
    return list(range(3, len(units), 3))


def test_a_scheduler_gone_mid_run_is_an_error_not_a_wait_forever():
    """The scheduler stopped (killed, its machine gone) while tasks ran: Dask cancelled every
    future, the run took them for tasks lost with a worker and ran them again alone on a
    scheduler that was gone: the run hung (seen with `dask scheduler` killed mid-run, the client
    closed after its 30 s of reconnecting, its cached list of workers not empty), or failed with
    Dask's "No global client found" (here). Now it stops with an error naming the scheduler and
    saying the results so far are kept."""
    from types import SimpleNamespace

    from stability import ClusterError
    from stability import engine
    from stability.isolation import Guarded
    from stability.tasks import initial_task

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster, timeout=3):
        address = cluster.scheduler.address
        [units] = engine._scatter_units([SimpleNamespace(doc=Document("x", tuple(f"unit {i}" for i in range(12))))]).values()
        slow = Guarded(_until_closed, None)  # under way when the scheduler stops
        drained = engine._drain_dask(initial_task, [(i, slow, units, False) for i in range(4)], 2)
        _BEGUN.clear()
        _CLOSED.clear()

        def close_soon():  # once a task is under way, however long a loaded machine takes to start it
            _BEGUN.wait(60)
            try:
                cluster.sync(cluster.scheduler.close)
            finally:
                _CLOSED.set()

        threading.Thread(target=close_soon, daemon=True).start()
        outcome = _within(60, lambda: list(drained))
    assert isinstance(outcome.get("error"), ClusterError), outcome
    assert str(outcome["error"]).startswith(f"lost the connection to the Dask scheduler at {address}: ")
    assert "the results finished so far are kept, resume=True goes on" in str(outcome["error"])


def _scheduler_run(address):
    experiment = with_overrides(default_experiment(), segmenters=["even"], n_restarts=2, n_jobs=2, backend="dask",
                                scheduler=address)
    return lambda: run_experiment(experiment, progress=False)


def test_a_scheduler_address_without_a_port_is_refused_before_connecting(monkeypatch):
    # `--scheduler 8786` ended in Dask's ValueError and a traceback
    from stability import InvalidParameterError

    monkeypatch.setattr(distributed, "Client", None)  # nothing may connect
    with pytest.raises(InvalidParameterError, match=r"scheduler '8786': missing port number in address '8786'; give "
                                                    r"the address the scheduler prints when it starts"):
        _scheduler_run("8786")()


def test_an_address_that_is_no_scheduler_is_an_error_not_a_wait_forever(monkeypatch):
    """A port that accepts connections but never answers as a scheduler (the dashboard's, 8787,
    next to the scheduler's 8786): Dask's client waited for its handshake for ever."""
    import socket

    import dask.config

    from stability import ClusterError
    import stability.config as config

    monkeypatch.setattr(config, "_HANDSHAKE_WAIT", 1.0, raising=False)
    with socket.socket() as listening, dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        address = "tcp://127.0.0.1:%d" % listening.getsockname()[1]
        outcome = _within(60, _scheduler_run(address))
    assert isinstance(outcome.get("error"), ClusterError), outcome
    assert str(outcome["error"]).startswith(f"{address} accepted the connection but did not answer as a Dask "
                                            "scheduler within 3 s: is it the scheduler's port")


def test_an_address_where_nothing_listens_is_an_error_naming_what_to_check():
    # Dask's bare OSError, "Timed out trying to connect to ... after 30 s", said nothing more
    import socket

    import dask.config

    from stability import ClusterError

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        address = "tcp://127.0.0.1:%d" % free.getsockname()[1]
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(ClusterError, match=rf"cannot reach the Dask scheduler at {address} \(.*\): check that it "
                                               r"is running and that this is the address it printed"):
            _scheduler_run(address)()


def test_a_run_that_lost_its_scheduler_ends_with_its_error_alone(caplog):
    # closing the client while it still tried to reconnect logged Dask's traceback of the cut
    # reconnection (two screens of it) above the run's one-line error
    import time

    import stability.config as config
    from stability import ClusterError

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        address = cluster.scheduler.address

        def run():  # the run's client (not the module's: another cluster's) loses its scheduler
            [client] = [c for c in list(distributed.Client._instances) if getattr(c.scheduler, "address", None) == address]
            cluster.sync(cluster.scheduler.close)
            deadline = time.monotonic() + 30
            while client.status != "connecting" and time.monotonic() < deadline:
                time.sleep(0.01)
            assert client.status == "connecting"
            raise ClusterError("lost the connection to the Dask scheduler")

        with pytest.raises(ClusterError):
            config._with_dask(run, address, 1)
    assert not [r for r in caplog.records if r.name == "distributed.client" and r.levelno >= 40]


def test_a_tls_address_without_certificates_is_refused_naming_the_settings(monkeypatch):
    # `--scheduler tls://host:8786` without Dask's TLS settings ended in Dask's TypeError ("TLS
    # expects a `ssl_context` argument of type ssl.SSLContext") and a traceback
    from stability import ClusterError

    monkeypatch.setattr(distributed, "Client", None)  # nothing may connect
    with pytest.raises(ClusterError, match=r"tls://127.0.0.1:8786 is a TLS address, and Dask's configuration gives this "
                                           r"client no certificate: set distributed.comm.tls.ca-file.*nothing was run"):
        _scheduler_run("tls://127.0.0.1:8786")()


def test_a_tls_address_where_nothing_listens_is_an_error_naming_what_to_check(tmp_path):
    # with the certificates set, Dask's bare OSError after its connect timeout, and a traceback
    import shutil
    import socket
    import subprocess

    import dask.config

    from stability import ClusterError

    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        address = "tls://127.0.0.1:%d" % free.getsockname()[1]
    tls = {"distributed.comm.tls.ca-file": str(cert), "distributed.comm.tls.client.cert": str(cert),
           "distributed.comm.tls.client.key": str(key), "distributed.comm.timeouts.connect": "1s"}
    with dask.config.set(tls):
        with pytest.raises(ClusterError, match=rf"cannot reach the Dask scheduler at {address} \(.*\): check that it "
                                               r"is running and that this is the address it printed"):
            _scheduler_run(address)()


def test_an_interrupt_on_a_cluster_the_run_did_not_start_names_the_workers_left_running_its_tasks(tmp_path, capfd):
    # Dask cannot stop a task already running: after Ctrl-C on a segmenter that hangs, the
    # worker's thread stayed busy for ever, and the next run on that cluster (a resume) waited
    # on it without a word
    import signal

    from stability import RunInterrupted

    calls = tmp_path / "calls"

    def interrupt_once_it_runs():
        while not calls.exists():
            threading.Event().wait(0.05)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster, distributed.Client(cluster.scheduler.address):
        [worker] = cluster.scheduler.workers
        interrupter = threading.Thread(target=interrupt_once_it_runs, daemon=True)
        interrupter.start()
        with pytest.raises(RunInterrupted):
            evaluate({"hangs": Fault("hang", log=str(calls))}, corpus("bad"), n_restarts=2, n_jobs=1, backend="dask",
                     progress=False)
        interrupter.join()
    err = capfd.readouterr().err
    assert f"the run stopped with tasks on the Dask worker {worker}" in err, err
    assert "Dask cannot stop a task already running" in err and "restart_workers" in err, err


def test_an_interrupt_while_the_scheduler_is_reached_ends_the_wait(monkeypatch):
    # Ctrl-C while a run waited on a --scheduler address took effect only once Dask's connect
    # timeout (30 s) or the handshake's ran out: the check waited for its thread to end
    import signal
    import socket

    import dask.config

    import stability.config as config

    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop

    returned, cut = threading.Event(), threading.Event()
    with socket.socket() as listening, dask.config.set({"distributed.comm.timeouts.connect": "600s"}):
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        address = "tcp://127.0.0.1:%d" % listening.getsockname()[1]

        def interrupt_once_connected():
            connection, _ = listening.accept()  # the check connected, and waits for a handshake that never comes
            with connection:
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
                if not returned.wait(60):  # still waiting: ended here, not to hang the test for 10 minutes
                    cut.set()

        helper = threading.Thread(target=interrupt_once_connected, daemon=True)
        previous = signal.signal(signal.SIGINT, stop)
        try:
            helper.start()
            with pytest.raises(Stop):
                config._reach(address)
        finally:
            returned.set()
            signal.signal(signal.SIGINT, previous)
        helper.join()
    assert not cut.is_set(), "the interrupt took effect only once the connection was cut"
