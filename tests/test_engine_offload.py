"""With several jobs the engine computes each finished pair's result in a worker process
(stability.outcome.score_task); the result must be the one computed in-process, bit for bit."""

from __future__ import annotations

import json

from conftest import cohesion_segmenter, topical_document
from stability.corpus import Document
from stability.engine import Engine, Pair, Progress, _finished
from stability.outcome import stability_result
from stability.permutations import doc_key
from stability.settings import Settings


def _pairs():
    docs = [Document(f"d{k}", tuple(topical_document(k)[0])) for k in range(3)]
    return [Pair("cohesion", cohesion_segmenter, doc, doc_key(doc.id)) for doc in docs]


def _record(result) -> str:
    return json.dumps(result.to_dict(), sort_keys=True)


def test_results_come_from_the_workers_and_equal_the_in_process_ones():
    settings = Settings(n_restarts=6, seed=3, shuffle_control=True, n_jobs=2, progress=False)
    pairs = _pairs()
    engine = Engine(settings, Progress(False))
    ready_when_done = []
    engine.run(pairs, lambda i: ready_when_done.append((i, pairs[i].result is not None)))
    assert engine.offload
    assert sorted(ready_when_done) == [(0, True), (1, True), (2, True)]  # result there before on_done
    for pair in pairs:
        assert _record(engine.result(pair)) == _record(stability_result(settings, _finished(pair)))


def test_one_job_computes_results_in_process_on_demand():
    settings = Settings(n_restarts=6, seed=3, shuffle_control=True, n_jobs=1, progress=False)
    pairs = _pairs()
    engine = Engine(settings, Progress(False))
    engine.run(pairs)
    assert not engine.offload and all(pair.result is None for pair in pairs)
    parallel = Engine(Settings.build(settings, n_jobs=2), Progress(False))
    other = _pairs()
    parallel.run(other)
    assert [_record(engine.result(p)) for p in pairs] == [_record(parallel.result(p)) for p in other]


def test_a_result_whose_worker_died_is_computed_in_process():
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    settings = Settings(n_restarts=6, seed=3, n_jobs=2, progress=False)
    pairs = _pairs()[:1]
    engine = Engine(settings, Progress(False))
    engine.run(pairs)
    expected = _record(engine.result(pairs[0]))
    pairs[0].result = None
    died = Future()
    died.set_exception(BrokenProcessPool("a worker died"))  # as loky reports a dead worker
    done = []
    engine._collect(pairs, {died: (settings, [(0, _finished(pairs[0]))])}, done.append, wait=True)
    assert done == [0] and _record(pairs[0].result) == expected
