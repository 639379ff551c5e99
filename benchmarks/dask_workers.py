"""What a second Dask worker gives: the same ``evaluate`` on a local cluster of one, then two
single-thread worker processes on 127.0.0.1 (issue 15, "Beyond one machine").

Workload: C99 on synthetic documents (``benchmarks/segmenters.py``'s generator: sentences of 8-20
words, topics of 10-40 sentences; by default 6 documents of 100 units), 50 restarts with the
shuffle control, ``backend="dask"`` and
``n_jobs=2`` on both clusters (the same chunks of restarts, so the same work and the same results).
Each cluster is started and warmed up first (a small run imports the segmenters in its workers:
not timed); then the best of ``--repeat`` timed runs. Results must be identical on both clusters.

Run: ``python benchmarks/dask_workers.py [--docs 6] [--units 100] [--restarts 50] [--repeat 2]``
(about a minute on a quiet 2-core machine, cluster start-ups included). ``python -m benchmarks`` runs it as one row of its table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# benchmarks/segmenters.py would shadow the ``segmenters`` package: keep this folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(_HERE.parent) not in sys.path:
    sys.path.insert(0, str(_HERE.parent))

from benchmarks.segmenters import synthetic_document  # noqa: E402
from stability import Document, evaluate  # noqa: E402


def documents(n_docs: int, n_units: int) -> list[Document]:
    return [Document(f"synthetic{i}", tuple(synthetic_document(n_units, seed=i)[0])) for i in range(n_docs)]


def _run(docs: list[Document], n_restarts: int) -> tuple[float, list]:
    start = time.perf_counter()
    out = evaluate({"c99": "c99"}, docs, n_restarts=n_restarts, shuffle_control=True, seed=0,
                   n_jobs=2, backend="dask", progress=False)
    seconds = time.perf_counter() - start
    if out.failures:
        raise RuntimeError(f"benchmark run failed: {out.failures[0]}")
    return seconds, [(r.restart_boundaries, r.shuffle.restart_boundaries) for r in out.documents["c99"]]


def time_workers(n_workers: int, docs: list[Document], n_restarts: int, repeat: int) -> tuple[float, list]:
    """Best time of ``evaluate`` on a fresh local cluster of ``n_workers`` single-thread processes."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster, Client(cluster):
        _run(docs[:2], 5)  # warm-up: the workers import numpy, nltk and the segmenters
        runs = [_run(docs, n_restarts) for _ in range(repeat)]
    return min(seconds for seconds, _ in runs), runs[0][1]


def measure(n_docs: int = 6, n_units: int = 100, n_restarts: int = 50, repeat: int = 2) -> dict:
    """Seconds with 1 and 2 workers, their ratio, whether the results are identical, the load."""
    docs = documents(n_docs, n_units)
    load = os.getloadavg()
    one, first = time_workers(1, docs, n_restarts, repeat)
    two, second = time_workers(2, docs, n_restarts, repeat)
    return {"one": one, "two": two, "ratio": one / two, "identical": first == second,
            "load": (load, os.getloadavg())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=6)
    parser.add_argument("--units", type=int, default=100)
    parser.add_argument("--restarts", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    got = measure(args.docs, args.units, args.restarts, args.repeat)
    print(f"C99, {args.docs} synthetic documents of {args.units} units, {args.restarts} restarts + shuffle")
    print(f"1 worker: {got['one']:.2f} s   2 workers: {got['two']:.2f} s   ratio {got['ratio']:.2f}x   "
          f"identical results: {got['identical']}")
    print(f"load average before / after: {got['load'][0]} / {got['load'][1]} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
