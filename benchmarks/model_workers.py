"""A segmenter holding a model, run with two worker processes: sent once to each worker, against
with every batch of work, as before; with loky's workers (a file each worker reads once,
``stability.isolation.ship_once``) or a local Dask cluster's (a future each worker fetches once,
``stability.engine._ship_segmenter``).

Workload: an even segmenter holding ``--mb`` megabytes of weights (what an embedding model
weighs), ``--docs`` demo documents, ``--restarts`` restarts with the shuffle control.

``--backend loky`` (the default), three runs: one job (in this process: the segmenter is never
pickled), two jobs as the harness runs them, and two jobs with the threshold of ``ship_once`` set
past the model's size, which sends the segmenter with every batch of work (what a run did
before). Each two-job run first warms the worker pool up on one document.

``--backend dask``: one job in this process, then on a local cluster of two single-thread
workers (``stability.config.started_local_cluster``, warmed up on one document with ``even``, so that the
model's shipping is timed) the run with every task carrying the segmenter (the threshold set past
the model's size: what a dask run did before), then as the harness runs it.

Prints the wall times, how many times the segmenter was unpickled (in this process: the pickling
check, once a run, warm-up included; then in the workers), and the ratio of the old way's time to
the new one's. Results must be identical in all runs.

Run: ``python benchmarks/model_workers.py [--backend loky] [--mb 100] [--docs 500] [--restarts 5]``
(about half a minute on 2 cores); ``--backend dask --mb 100 --docs 100`` about a minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stability import evaluate, isolation  # noqa: E402
from stability.demo import demo_corpus  # noqa: E402


class Model:
    """An even segmenter with ``mb`` megabytes of weights; each unpickling leaves a file in ``log``
    named after the process that read it."""

    def __init__(self, mb: int, log: str) -> None:
        self.log = log
        self.weights = bytes(mb << 20)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        tempfile.mkstemp(dir=self.log, prefix=f"{os.getpid()}-")

    def __call__(self, units: list[str]) -> list[int]:
        return list(range(3, len(units), 3))


def timed(segmenter: Model, docs: list, restarts: int, jobs: int, backend: str | None = None,
          warm_up: object = None) -> tuple[float, list[float]]:
    warm = segmenter if warm_up is None else warm_up
    evaluate({"model": warm}, docs[:1], n_restarts=2, n_jobs=jobs, backend=backend, progress=False)  # the pool up
    start = time.perf_counter()
    run = evaluate({"model": segmenter}, docs, n_restarts=restarts, n_jobs=jobs, backend=backend,
                   shuffle_control=True, progress=False)
    if run.failures:
        raise RuntimeError(f"benchmark run failed: {run.failures[0]}")
    return time.perf_counter() - start, [r.to_dict() for r in run.documents["model"]]


def _reads(log: str) -> tuple[int, int]:
    """How many times the segmenter was unpickled: in this process, in others (the workers)."""
    names = os.listdir(log)
    here = sum(name.startswith(f"{os.getpid()}-") for name in names)
    return here, len(names) - here


def _row(label: str, threshold: int, run: Callable[[Model], tuple[float, list]], mb: int) -> tuple:
    with tempfile.TemporaryDirectory() as log:
        isolation.SHIP_ONCE_BYTES, saved = threshold, isolation.SHIP_ONCE_BYTES
        try:
            seconds, results = run(Model(mb, log))
        finally:
            isolation.SHIP_ONCE_BYTES = saved
        return label, seconds, _reads(log), results


def loky_rows(args: argparse.Namespace, docs: list) -> list[tuple]:
    rows = []
    for label, jobs, threshold in [("1 job", 1, isolation.SHIP_ONCE_BYTES),
                                   ("2 jobs, sent once a worker", 2, isolation.SHIP_ONCE_BYTES),
                                   ("2 jobs, sent with every batch (before)", 2, 1 << 62)]:
        rows.append(_row(label, threshold, lambda model: timed(model, docs, args.restarts, jobs), args.mb))
    return rows


def dask_rows(args: argparse.Namespace, docs: list) -> list[tuple]:
    from distributed import Client

    from stability.config import started_local_cluster

    rows = [_row("1 job", isolation.SHIP_ONCE_BYTES, lambda model: timed(model, docs, args.restarts, 1), args.mb)]
    with started_local_cluster(2) as cluster, Client(cluster):
        for label, threshold in [("2 workers, sent with every task (before)", 1 << 62),
                                 ("2 workers, sent once a worker", isolation.SHIP_ONCE_BYTES)]:
            rows.append(_row(label, threshold, lambda model: timed(model, docs, args.restarts, 2, "dask", "even"),
                             args.mb))
    return [rows[0], rows[2], rows[1]]  # as loky's: now, then before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["loky", "dask"], default="loky")
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--docs", type=int, default=500)
    parser.add_argument("--restarts", type=int, default=5)
    args = parser.parse_args()
    docs = demo_corpus(n_documents=args.docs)
    rows = (dask_rows if args.backend == "dask" else loky_rows)(args, docs)
    assert all(row[3] == rows[0][3] for row in rows), "the runs must give the same results"
    print(f"{args.backend}: {args.mb} MB model, {args.docs} documents, {args.restarts} restarts (shuffle control on); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for label, seconds, (here, workers), _ in rows:
        print(f"  {label:<42} {seconds:7.2f} s   segmenter unpickled {here} time(s) here, {workers} in workers")
    print(f"before / now with 2 {'workers' if args.backend == 'dask' else 'jobs'}: {rows[2][1] / rows[1][1]:.1f} times")


if __name__ == "__main__":
    main()
