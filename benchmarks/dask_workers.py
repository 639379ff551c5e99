"""What a second Dask worker gives: the same ``evaluate`` on a local cluster of one, then two
single-thread worker processes on 127.0.0.1 (issue 15, "Beyond one machine").

Workload: C99 on synthetic documents (``benchmarks/segmenters.py``'s generator: sentences of 8-20
words, topics of 10-40 sentences; by default 6 documents of 100 units), 50 restarts with the
shuffle control, ``backend="dask"`` and
``n_jobs=2`` on both clusters (the same chunks of restarts, so the same work and the same results).
Each cluster is started and every worker warmed up first (it imports and runs the segmenter
once: not timed); then the best of ``--repeat`` timed runs. Results must be identical on both clusters.
Beside the wall times, the CPU seconds of the busiest worker: their ratio says how evenly the work
divides between the workers, which a machine busy with other work does not change (its wall
times do).

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


def _warm_up(units: tuple[str, ...]) -> None:
    """Run in each worker before the timing: imports the segmenter and runs it once."""
    from stability import get_segmenter

    get_segmenter("c99")(list(units))


def _cpu_seconds() -> float:
    return time.process_time()


def time_workers(n_workers: int, docs: list[Document], n_restarts: int, repeat: int) -> dict:
    """Best wall time of ``evaluate`` on a fresh local cluster of ``n_workers`` single-thread
    processes, with the CPU time of its busiest worker in that run, and the results."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        client.run(_warm_up, docs[0].units)  # on every worker: imports, caches (not timed)
        runs = []
        for _ in range(repeat):
            before = client.run(_cpu_seconds)
            seconds, results = _run(docs, n_restarts)
            after = client.run(_cpu_seconds)
            runs.append((seconds, max(after[w] - before[w] for w in before), results))
    seconds, busiest, results = min(runs, key=lambda run: run[0])
    return {"seconds": seconds, "busiest_cpu": busiest, "results": results}


def measure(n_docs: int = 6, n_units: int = 100, n_restarts: int = 50, repeat: int = 2) -> dict:
    """1 and 2 workers: wall times and their ratio; the busiest worker's CPU seconds and their
    ratio (how evenly the work divides, whatever else the machine runs); identical results; load."""
    docs = documents(n_docs, n_units)
    load = os.getloadavg()
    one = time_workers(1, docs, n_restarts, repeat)
    two = time_workers(2, docs, n_restarts, repeat)
    return {"one": one["seconds"], "two": two["seconds"], "ratio": one["seconds"] / two["seconds"],
            "cpu_ratio": one["busiest_cpu"] / two["busiest_cpu"], "identical": one["results"] == two["results"],
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
          f"(busiest worker's CPU time: {got['cpu_ratio']:.2f}x less)   identical results: {got['identical']}")
    print(f"load average before / after: {got['load'][0]} / {got['load'][1]} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
