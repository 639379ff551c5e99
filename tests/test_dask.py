"""The same run on a local Dask cluster (joblib's dask backend) gives bit-identical results."""

from __future__ import annotations

import pytest

from conftest import cohesion_segmenter, topical_document
from stability import Document, evaluate
from stability.config import default_experiment, run_experiment, with_overrides

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def test_dask_backend_matches_loky_and_sequential(client):
    docs = [Document(f"d{i}", tuple(topical_document(i)[0])) for i in range(3)]
    sequential = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=10, progress=False)
    on_dask = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=10, n_jobs=2, backend="dask", progress=False)
    assert on_dask.to_dict()["documents"] == sequential.to_dict()["documents"]


def test_experiment_connects_to_a_scheduler_address(client):
    exp = with_overrides(default_experiment(), segmenters=["even"], n_restarts=3, n_jobs=2,
                         backend="dask", scheduler=client.scheduler.address)
    result = run_experiment(exp, progress=False)
    assert result.summary["even"].n_documents == 12 and result.settings["backend"] == "dask"
