"""Measured speedup of ``evaluate`` over this machine's cores (the 16-core rows of
benchmarks/RESULTS.md that a 2-core machine could only project with Amdahl's law).

Three workloads, each run at ``n_jobs`` = 1, 2, 4, ... up to the machine's core count (loky, the
default backend), every run's results checked identical to the 1-job run's:

* ``harness``: benchmarks/harness_overhead.py's segmenter (lexical cohesion tuned to about 1 ms a
  call) on synthetic 70-unit documents (``--docs``, default 64), 100 restarts with the shuffle
  control and determinism check: the harness's own share beside a cheap segmenter;
* ``texttiling``: TextTiling on Choi's 3-11 set (all 400 documents, or ``--choi`` of them), 100
  restarts with the shuffle control: benchmarks/RESULTS.md's "Choi 3-11 study" row;
* ``c99``: C99 (default settings) on every 5th of those documents, 100 restarts with the shuffle
  control: the segmenter that takes most of the validation study's time.

First, what the machine itself gives: n independent processes doing the same CPU-bound work
(:func:`machine_ceiling`), the ceiling of any parallel run there. Then, printed per workload and core count: wall time (best of ``--repeat``), speedup over one job,
parallel efficiency (speedup / jobs), and the Karp-Flatt serial fraction the speedup implies
(Karp and Flatt 1990); last, beside the measured 16-job speedup, what Amdahl's law projects from
the main process's CPU share at 2 jobs (RESULTS.md's method), so the projection can be checked.
Each pool of workers is started and warmed before it is timed (as a long run pays it once).

Run: ``python benchmarks/cores.py [--choi 400] [--docs 64] [--repeat 1] [--max-jobs N] [--workloads ...]``
(on 16 cores about 3 minutes; the Choi workloads are skipped without ../shared/data/choi).
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

import numpy as np  # noqa: E402

from benchmarks import harness_overhead as ho  # noqa: E402
from stability import evaluate  # noqa: E402


def job_counts(cores: int) -> list[int]:
    """1, 2, 4, ... up to ``cores``, ``cores`` itself included."""
    counts = [1]
    while counts[-1] * 2 <= cores:
        counts.append(counts[-1] * 2)
    if counts[-1] != cores:
        counts.append(cores)
    return counts


def _busy(rounds: int) -> float:
    """``rounds`` rounds of pure-Python and numpy work (about 2 ms each); returns its CPU time."""
    start = time.process_time()
    total, rng = 0, np.random.default_rng(0)
    for _ in range(rounds):
        total += sum(i * i for i in range(40_000))
        np.sort(rng.random(20_000))
    return time.process_time() - start


def machine_ceiling(counts: list[int], work: int = 1500) -> dict[int, float]:
    """What this machine gives ``n`` independent processes each doing the same work, as a
    speedup: ``n * t1 / tn``, with ``t1`` one process's wall time alone. The harness cannot beat
    it (shared cores, hyperthreads, turbo clocks and memory are in it)."""
    from concurrent.futures import ProcessPoolExecutor

    ceiling, one = {}, None
    for n in sorted({1, *counts}):
        with ProcessPoolExecutor(n) as pool:
            list(pool.map(_busy, [1] * n))  # start and warm the processes
            start = time.perf_counter()
            list(pool.map(_busy, [work] * n))
            wall = time.perf_counter() - start
        one = wall if one is None else one
        ceiling[n] = n * one / wall
    return ceiling


def _outcome(out) -> list:
    if out.failures:
        raise RuntimeError(f"benchmark run failed: {out.failures[0]}")
    return [(name, r.document, r.restart_boundaries, r.shuffle.restart_boundaries)
            for name, results in sorted(out.documents.items()) for r in results]


def timed(segmenters: dict, documents: list[dict], n_jobs: int, repeat: int) -> tuple[float, float, list]:
    """Best wall time of ``repeat`` runs, the main process's CPU time in it, and the results."""
    evaluate(segmenters, documents[:n_jobs], n_restarts=3, seed=0, n_jobs=n_jobs, progress=False)  # warm the pool
    best, cpu, outcome = float("inf"), 0.0, None
    for _ in range(repeat):
        start_cpu, start = time.process_time(), time.perf_counter()
        out = evaluate(segmenters, documents, n_restarts=100, seed=0, n_jobs=n_jobs, progress=False)
        wall = time.perf_counter() - start
        if wall < best:
            best, cpu = wall, time.process_time() - start_cpu
        outcome = _outcome(out)
    return best, cpu, outcome


def workloads(n_docs: int, n_choi: int) -> dict[str, tuple[dict, list[dict]]]:
    segmenter = ho.OneMillisecond()
    docs = ho.make_documents(n_docs)
    ho.calibrate(segmenter, list(docs[0][1]))
    out = {"harness": ({"seg": segmenter}, [{"id": d, "units": u} for d, u in docs])}
    from benchmarks.choi_pk import CHOI, load_corpus

    if CHOI.is_dir():
        from segmenters.c99 import C99
        from segmenters.texttiling import TextTiling

        choi = [{"id": f"d{i}", "units": u} for i, (_, u, _) in enumerate(load_corpus(None))][:n_choi]
        out["texttiling"] = ({"tt": TextTiling()}, choi)
        out["c99"] = ({"c99": C99()}, choi[::5])
    else:
        print(f"Choi workloads skipped: {CHOI} not found", file=sys.stderr)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=64, help="synthetic documents of the harness workload")
    parser.add_argument("--choi", type=int, default=400, help="Choi 3-11 documents of the TextTiling workload")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many timed runs per core count")
    parser.add_argument("--max-jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--jobs", help="comma-separated job counts instead of 1, 2, 4, ... --max-jobs "
                                       "(speedups are then over the first)")
    parser.add_argument("--workloads", default="harness,texttiling,c99",
                        help="comma-separated, of harness, texttiling, c99 (empty: the machine's ceiling alone)")
    args = parser.parse_args()
    counts = [int(n) for n in args.jobs.split(",")] if args.jobs else job_counts(args.max_jobs)
    print(f"{os.cpu_count()} cores; n_jobs {counts}; Python {sys.version.split()[0]}")
    ceiling = machine_ceiling(counts)
    print("machine: n independent processes of the same CPU-bound work (Python loops and numpy sorts) "
          "give n * t1 / tn = " + ", ".join(f"{ceiling[n]:.1f}x at {n}" for n in counts), flush=True)
    print(f"{'workload':<11} {'docs':>5} {'jobs':>4} {'wall s':>8} {'speedup':>8} {'efficiency':>10} "
          f"{'Karp-Flatt':>10} {'main CPU s':>10}")
    summary = []
    wanted = {w.strip() for w in args.workloads.split(",") if w.strip()}
    unknown = wanted - {"harness", "texttiling", "c99"}
    if unknown:
        parser.error(f"--workloads: unknown {', '.join(sorted(unknown))}; expected harness, texttiling, c99")
    for name, (segmenters, documents) in workloads(args.docs, args.choi).items():
        if name not in wanted:
            continue
        walls, cpus, first = {}, {}, None
        for n_jobs in counts:
            wall, cpu, outcome = timed(segmenters, documents, n_jobs, args.repeat)
            if first is None:
                first = outcome
            elif outcome != first:
                raise SystemExit(f"{name}: results at n_jobs={n_jobs} differ from n_jobs=1")
            walls[n_jobs], cpus[n_jobs] = wall, cpu
            speedup = walls[counts[0]] / wall
            kf = f"{ho.karp_flatt(speedup, n_jobs):.1%}" if counts[0] == 1 and n_jobs > 1 else "-"
            print(f"{name:<11} {len(documents):>5} {n_jobs:>4} {wall:>8.2f} {speedup:>7.2f}x {speedup * counts[0] / n_jobs:>10.0%} "
                  f"{kf:>10} {cpu:>10.2f}", flush=True)
        top = counts[-1]
        if counts[:2] == [1, 2]:
            serial = cpus[2] / cpus[1]
            summary.append(f"{name}: measured {walls[1] / walls[top]:.1f}x at {top} jobs; Amdahl from the main "
                           f"process's CPU share at 2 jobs ({serial:.1%}) projects {ho.amdahl(serial, top):.1f}x; "
                           f"independent processes: {ceiling[top]:.1f}x; identical results at every core count")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
