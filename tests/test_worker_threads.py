"""Worker processes share the machine's cores among their numerical libraries' threads
(stability.isolation.worker_threads), unless the user set the thread counts."""

from __future__ import annotations

import os

import pytest

from stability import evaluate
from stability.isolation import THREAD_VARIABLES, run_pool, worker_threads


def _seen(_: int) -> dict[str, str | None]:
    return {name: os.environ.get(name) for name in THREAD_VARIABLES}


def _in_workers(n_jobs: int) -> list[dict[str, str | None]]:
    return list(run_pool(_seen, [(i,) for i in range(2 * n_jobs)], n_jobs, lambda task, crash: None))


@pytest.fixture
def unset(monkeypatch):
    """No thread count set in this process's environment (a test may set one)."""
    for name in THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_each_worker_gets_its_share_of_the_cores(unset):
    share = str(max(1, (os.cpu_count() or 1) // 2))
    for seen in _in_workers(2):
        assert seen == dict.fromkeys(THREAD_VARIABLES, share)


def test_a_thread_count_the_user_set_is_kept(unset):
    unset.setenv("OPENBLAS_NUM_THREADS", "7")
    for seen in _in_workers(2):
        assert seen["OPENBLAS_NUM_THREADS"] == "7"
        assert seen["OMP_NUM_THREADS"] == str(max(1, (os.cpu_count() or 1) // 2))


def test_the_share_is_the_cores_divided_by_the_jobs_and_at_least_one():
    assert worker_threads(16, cores=16, environ={}) == dict.fromkeys(THREAD_VARIABLES, "1")
    assert worker_threads(3, cores=16, environ={})["MKL_NUM_THREADS"] == "5"
    assert worker_threads(64, cores=16, environ={})["OMP_NUM_THREADS"] == "1"
    assert worker_threads(2, cores=16, environ=dict.fromkeys(THREAD_VARIABLES, "1")) == {}


class _Threads:
    """A segmenter that reports, as its one boundary, the OpenBLAS thread count it runs with."""

    def __call__(self, units):
        return [int(os.environ.get("OPENBLAS_NUM_THREADS", "0")) % (len(units) - 1) + 1]


def test_a_segmenter_run_by_evaluate_in_workers_sees_its_share(unset):
    units = [f"unit {i}" for i in range(40)]
    out = evaluate({"threads": _Threads()}, [{"id": "a", "units": units}], n_restarts=2, seed=0, n_jobs=2,
                   progress=False)
    share = max(1, (os.cpu_count() or 1) // 2)
    assert out.documents["threads"][0].segmentation.boundaries == (share % 39 + 1,)
