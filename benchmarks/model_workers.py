"""A segmenter holding a model, run with two worker processes: sent once to each worker (a file
it reads once, ``stability.isolation.ship_once``) against with every batch of work, as before.

Workload: an even segmenter holding ``--mb`` megabytes of weights (what an embedding model
weighs), ``--docs`` demo documents, ``--restarts`` restarts with the shuffle control. Three runs:
one job (in this process: the segmenter is never pickled), two jobs as the harness runs them, and
two jobs with the threshold of ``ship_once`` set past the model's size, which sends the segmenter
with every batch of work (what a run did before). Each two-job run first warms the worker pool
up on one document. Prints the wall times, how many times the segmenter was unpickled (with
two jobs: the main process's pickling check once a run, warm-up included, then the workers), and
the ratio of the old way's time to the new one's. Results must be identical in all three.

Run: ``python benchmarks/model_workers.py [--mb 100] [--docs 500] [--restarts 5]`` (about half
a minute on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stability import evaluate, isolation  # noqa: E402
from stability.demo import demo_corpus  # noqa: E402


class Model:
    """An even segmenter with ``mb`` megabytes of weights; each unpickling leaves a file in ``log``."""

    def __init__(self, mb: int, log: str) -> None:
        self.log = log
        self.weights = bytes(mb << 20)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        tempfile.mkstemp(dir=self.log, prefix=f"{os.getpid()}-")

    def __call__(self, units: list[str]) -> list[int]:
        return list(range(3, len(units), 3))


def timed(segmenter: Model, docs: list, restarts: int, jobs: int) -> tuple[float, list[float]]:
    evaluate({"model": segmenter}, docs[:1], n_restarts=2, n_jobs=jobs, progress=False)  # the pool up
    start = time.perf_counter()
    run = evaluate({"model": segmenter}, docs, n_restarts=restarts, n_jobs=jobs, progress=False)
    return time.perf_counter() - start, [r.f1 for r in run.documents["model"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--docs", type=int, default=500)
    parser.add_argument("--restarts", type=int, default=5)
    args = parser.parse_args()
    docs = demo_corpus(n_documents=args.docs)
    rows = []
    for label, jobs, threshold in [("1 job", 1, isolation.SHIP_ONCE_BYTES),
                                   ("2 jobs, sent once a worker", 2, isolation.SHIP_ONCE_BYTES),
                                   ("2 jobs, sent with every batch (before)", 2, 1 << 62)]:
        with tempfile.TemporaryDirectory() as log:
            isolation.SHIP_ONCE_BYTES, saved = threshold, isolation.SHIP_ONCE_BYTES
            try:
                seconds, f1 = timed(Model(args.mb, log), docs, args.restarts, jobs)
            finally:
                isolation.SHIP_ONCE_BYTES = saved
            rows.append((label, seconds, len(os.listdir(log)), f1))
    assert all(row[3] == rows[0][3] for row in rows), "the three runs must give the same results"
    print(f"{args.mb} MB model, {args.docs} documents, {args.restarts} restarts (shuffle control on)")
    for label, seconds, reads, _ in rows:
        print(f"  {label:<40} {seconds:7.2f} s   segmenter unpickled {reads} time(s)")
    print(f"before / now with 2 jobs: {rows[2][1] / rows[1][1]:.1f} times")


if __name__ == "__main__":
    main()
