"""Harness overhead and parallel speedup (issue: harness core, "Done means").

A content-dependent segmenter costing about 1 ms per call on 70-unit documents is evaluated by
``stability.evaluate`` (100 restarts, shuffle control and determinism check on: 202 calls per
document) and, for comparison, called on exactly the same inputs by a plain Python loop. Prints
the ratio evaluate / loop at n_jobs=1 (target: at most 1.03), the speedup of n_jobs=2 over
n_jobs=1 (target: at least 1.7 on the 2-core machine), the serial fraction (the main process's
CPU time at n_jobs=2 over the CPU time of the whole n_jobs=1 run) with the 16-core speedup
Amdahl's law gives from it (target: at least 13x), and what the harness adds per call, part by
part (:func:`harness_profile`).

Run: ``python benchmarks/harness_overhead.py [--docs 20] [--restarts 100]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from stability import Document, evaluate
from stability.permutations import Stream, doc_key, restart_order
from stability.segmentation import Segmentation


def make_documents(n_docs: int, n_units: int = 70, seed: int = 0) -> list[tuple[str, tuple[str, ...]]]:
    rng = np.random.default_rng(seed)
    docs = []
    for d in range(n_docs):
        units = []
        for topic in range(7):
            for _ in range(n_units // 7):
                words = rng.integers(0, 30, size=12)
                units.append(" ".join(f"w{topic}_{w}" for w in words))
        docs.append((f"bench{d}", tuple(units)))
    return docs


class OneMillisecond:
    """Lexical cohesion over adjacent windows, repeated to cost about 1 ms per 70-unit call."""

    def __init__(self, repeats: int = 1) -> None:
        self.repeats = repeats

    def __call__(self, units):
        for _ in range(self.repeats):
            sets = [set(u.split()) for u in units]
            sims = []
            for g in range(1, len(units)):
                left = set().union(*sets[max(0, g - 3):g])
                right = set().union(*sets[g:g + 3])
                sims.append(len(left & right) / (len(left | right) or 1))
        cutoff = float(np.mean(sims)) - float(np.std(sims)) / 2
        return [g for g in range(1, len(units)) if sims[g - 1] < cutoff
                and (g == 1 or sims[g - 1] <= sims[g - 2]) and (g == len(units) - 1 or sims[g - 1] <= sims[g])]


def calibrate(segmenter: OneMillisecond, units) -> None:
    start = time.perf_counter()
    for _ in range(50):
        segmenter(units)
    per_call = (time.perf_counter() - start) / 50
    segmenter.repeats = max(1, round(1e-3 / per_call))


def plain_loop(segmenter, docs, n_restarts: int, seed: int, clock=time.perf_counter) -> float:
    """The same segmenter calls as evaluate makes, inputs prepared outside the timing (``clock``:
    wall time by default; ``time.process_time`` for CPU time, steadier on a busy machine)."""
    inputs = []
    for doc_id, units in docs:
        b0 = segmenter(list(units))
        labels = Segmentation(b0, len(units)).label_array()
        inputs.append(list(units))
        inputs.append(list(units))
        for stream in (Stream.WITHIN, Stream.SHUFFLE):
            for r in range(n_restarts):
                order = restart_order(seed, doc_key(doc_id), stream, r, labels)
                inputs.append([units[i] for i in order])
    start = clock()
    for units in inputs:
        segmenter(units)
    return clock() - start


def timed_evaluate(segmenter, docs, n_restarts: int, seed: int, n_jobs: int) -> float:
    return evaluate_times(segmenter, docs, n_restarts, seed, n_jobs)[0]


def evaluate_times(segmenter, docs, n_restarts: int, seed: int, n_jobs: int) -> tuple[float, float]:
    """Wall time of ``evaluate`` and the CPU time of this (the main) process during it: with
    n_jobs=1 all the work, with more the part the worker processes do not take."""
    documents = [{"id": d, "units": u} for d, u in docs]
    cpu, start = time.process_time(), time.perf_counter()
    evaluate({"seg": segmenter}, documents, n_restarts=n_restarts, seed=seed, n_jobs=n_jobs, progress=False)
    return time.perf_counter() - start, time.process_time() - cpu


def amdahl(serial: float, cores: int) -> float:
    """Speedup on ``cores`` cores of work whose fraction ``serial`` does not run in parallel."""
    return 1.0 / (serial + (1.0 - serial) / cores)


def karp_flatt(speedup: float, cores: int) -> float:
    """The serial fraction a measured ``speedup`` on ``cores`` cores implies (Karp and Flatt
    1990): ``(1/S - 1/p) / (1 - 1/p)``; it also counts parallel overheads (IPC, imbalance)."""
    return (1.0 / speedup - 1.0 / cores) / (1.0 - 1.0 / cores)


def harness_profile(segmenter, docs, n_restarts: int, seed: int, repeat: int = 5) -> dict[str, float]:
    """What the harness adds per segmenter call at n_jobs=1, part by part (microseconds per call,
    best of ``repeat``), timed directly on the same inputs as ``evaluate``: restart orders,
    reordering the units, output checks, the guarded call, and the results (matching, chance
    level, bootstrap interval) of every (document, stream)."""
    from stability.tasks import checked as _checked
    from stability.isolation import Guarded
    from stability.outcome import Finished, stability_result
    from stability.permutations import restart_orders
    from stability.segmenter import apply_order
    from stability.settings import Settings

    settings = Settings(n_restarts=n_restarts, seed=seed)
    inputs = []
    for doc_id, units in docs:
        b0 = tuple(segmenter(list(units)))
        labels = Segmentation(b0, len(units)).label_array()
        inputs.append((doc_id, units, b0, labels))
    calls = len(docs) * (2 + 2 * n_restarts)
    guarded = Guarded(lambda units: None, None)

    def per_call(work) -> float:
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
        return best / calls * 1e6

    def orders():
        return [restart_orders(seed, doc_key(d), s, range(n_restarts), labels) for d, _, _, labels in inputs
                for s in (Stream.WITHIN, Stream.SHUFFLE)]

    every = orders()
    outputs = [[tuple(segmenter(apply_order(u, o))) for o in every[2 * k]] for k, (_, u, _, _) in enumerate(inputs)]
    finished = [Finished("seg", {}, Document(d, u), doc_key(d), b0, b0, {Stream.WITHIN: out, Stream.SHUFFLE: out}, False)
                for (d, u, b0, _), out in zip(inputs, outputs)]
    return {
        "orders": per_call(orders),
        "reorder": per_call(lambda: [apply_order(u, o) for (_, u, _, _), k in zip(inputs, range(len(inputs)))
                                     for o in every[2 * k] + every[2 * k + 1]]),
        "checks": per_call(lambda: [_checked(b, len(u)) for (_, u, _, _), out in zip(inputs, outputs) for b in out * 2]),
        "guard": per_call(lambda: [guarded(u) for _, u, _, _ in inputs for _ in range(2 + 2 * n_restarts)]),
        "results": per_call(lambda: [stability_result(settings, f) for f in finished]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=20)
    parser.add_argument("--restarts", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5, help="best of this many interleaved runs")
    args = parser.parse_args()
    docs = make_documents(args.docs)
    segmenter = OneMillisecond()
    calibrate(segmenter, list(docs[0][1]))
    calls = args.docs * (2 + 2 * args.restarts)
    # warm the loky workers so their start-up (about 0.4 s, once per session) is not counted
    timed_evaluate(segmenter, docs[:2], 5, 0, 2)
    loops, ones, twos, cpu_one, main_two = [], [], [], [], []
    for _ in range(args.repeat):  # interleaved, so a burst of load elsewhere hits all three alike
        loops.append(plain_loop(segmenter, docs, args.restarts, 0))
        for n_jobs, walls, cpus in ((1, ones, cpu_one), (2, twos, main_two)):
            wall, cpu = evaluate_times(segmenter, docs, args.restarts, 0, n_jobs)
            walls.append(wall)
            cpus.append(cpu)
    loop, one, two = min(loops), min(ones), min(twos)
    print(f"segmenter: {loop / calls * 1e3:.3f} ms per call; {args.docs} documents x 70 units, {calls} calls per run")
    print(f"plain loop             {loop:8.3f} s")
    print(f"evaluate n_jobs=1      {one:8.3f} s   overhead ratio {one / loop:.3f}  (target <= 1.03)")
    print(f"evaluate n_jobs=2      {two:8.3f} s   speedup over n_jobs=1 {one / two:.2f}x  (target >= 1.7)")
    serial = min(main_two) / min(cpu_one)
    print(f"serial fraction        {serial:8.2%}     main-process CPU at n_jobs=2 / CPU of the n_jobs=1 run; "
          f"Amdahl at 16 cores: {amdahl(serial, 16):.1f}x (target >= 13x)")
    kf = karp_flatt(one / two, 2)
    print(f"Karp-Flatt fraction    {kf:8.2%}     from the 2-job speedup; at 16 cores: {amdahl(max(kf, 0.0), 16):.1f}x")
    parts = harness_profile(segmenter, docs, args.restarts, 0)
    print("harness per call (us): " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
