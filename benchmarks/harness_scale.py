"""The harness's own work on long documents (meeting transcripts of 5,000-20,000 utterances).

A segmenter that costs next to nothing (a boundary every 10 units after an offset read from the
first unit) is evaluated on one synthetic document of 2,000, 5,000 and 20,000 units, 100 restarts
plus the shuffle control, one job, the results file written; so what is timed is the harness:
restart orders, reordering the units, output checks, matching, chance level, bootstrap intervals,
per-boundary confidence, writing results.jsonl and reading it back (``load_results``). Printed:
the time of each size (per 1,000 units, to see the growth), the size of results.jsonl per pair,
and the parts made faster for long documents, each timed against its previous code path on the
20,000-unit document (best of repeats, CPU time) with the ratio; their outputs are checked equal
(tests/test_scale_paths.py checks them too). Last, the chance level with a tolerance
(``expected_matches``) on that document with 2,000 boundaries: its previous full table of
states against the window of states in reach, time and peak memory (tracemalloc), values
checked identical to the bit.

Run: ``python benchmarks/harness_scale.py [--restarts 100] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from collections import Counter
from itertools import chain
from operator import itemgetter
from pathlib import Path

import numpy as np

from stability import evaluate, load_results
from stability.matching import expected_matches
from stability.permutations import within_segment_order
from stability.scores import spurious_boundaries
from stability.segmenter import apply_order, unit_table


def make_units(n: int, seed: int = 0) -> list[str]:
    words = np.random.default_rng(seed).integers(0, 500, size=(n, 8))
    return [" ".join(f"w{w}" for w in row) for row in words]


def every10(units):
    """A boundary every 10 units from an offset the first unit decides (content-dependent, cheap)."""
    return list(range(len(units[0]) % 10 + 1, len(units), 10))


def best(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


# the previous code paths, as they were
def old_within_order(labels, rng):
    return np.lexsort((rng.random(labels.shape[0]), labels))


def old_spurious(initial, restarts):
    base = set(initial)
    counts = Counter(x for x in chain.from_iterable(restarts) if x not in base)
    return {pos: counts[pos] / len(restarts) for pos in sorted(counts)}


def old_gather(units, order):
    return list(itemgetter(*order.tolist())(units))


def old_int_check(values):
    return all(type(v) is int for v in values)


def new_int_check(values):  # stability.segmentation._int_list's check now
    return set(map(type, values)) <= {int}


def old_expected_matches(reference, n_gaps, tolerance, sizes):
    """The chance level's programme with a table of every state (references + 1 rows)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    top = int(sizes.max())
    ref = np.asarray(reference, dtype=np.int64)
    prob = np.zeros((ref.size + 1, top + 1))
    prob[0, 0] = 1.0
    gain = np.zeros_like(prob)
    k = np.arange(1, top + 1, dtype=float)
    gaps = np.arange(1, n_gaps + 1)
    firsts = np.searchsorted(ref, gaps - tolerance).tolist()
    lasts = np.searchsorted(ref, gaps + tolerance, side="right").tolist()
    low = 0
    for gap, first, last in zip(range(1, n_gaps + 1), firsts, lasts):
        if first > low:
            prob[first] += prob[low:first].sum(axis=0)
            gain[first] += gain[low:first].sum(axis=0)
            prob[low:first] = gain[low:first] = 0.0
            low = first
        p, e = prob[first:last + 1], gain[first:last + 1]
        drawn_p = p[:, :-1] * (k / gap)
        drawn_e = e[:, :-1] * (k / gap)
        drawn_e[:-1] += drawn_p[:-1]
        p[:, 1:] *= (gap - k) / gap
        e[:, 1:] *= (gap - k) / gap
        p[1:, 1:] += drawn_p[:-1]
        p[-1, 1:] += drawn_p[-1]
        e[1:, 1:] += drawn_e[:-1]
        e[-1, 1:] += drawn_e[-1]
    return gain[:, sizes].sum(axis=0) / prob[:, sizes].sum(axis=0)


def peak_mb(work) -> float:
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def end_to_end(n: int, restarts: int, repeat: int) -> tuple[float, float, int]:
    docs = [{"id": f"doc{n}", "units": make_units(n)}]
    runs, loads, size = [], [], 0
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "results.jsonl"
            start = time.perf_counter()
            evaluate({"every10": every10}, docs, n_restarts=restarts, seed=0, n_jobs=1, progress=False, output=out)
            runs.append(time.perf_counter() - start)
            start = time.perf_counter()
            load_results(out)
            loads.append(time.perf_counter() - start)
            size = out.stat().st_size
    return min(runs), min(loads), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"evaluate, 1 document x {args.restarts} restarts + shuffle control, n_jobs=1 (best of {args.repeat}):")
    for n in (2_000, 5_000, 20_000):
        run, load, size = end_to_end(n, args.restarts, args.repeat)
        print(f"  {n:6d} units: evaluate {run:6.3f} s ({run / n * 1e6:5.1f} us/unit), load_results {load:6.3f} s, "
              f"results.jsonl {size / 1e6:5.2f} MB per pair ({size / n:5.1f} bytes/unit)")

    n, rng = 20_000, np.random.default_rng(1)
    units = tuple(make_units(n))
    labels = np.repeat(np.arange(n // 10), 10)
    initial = tuple(range(5, n, 10))
    restarts = [tuple(sorted(set(rng.integers(1, n, 2_000).tolist()))) for _ in range(args.restarts)]
    orders = [rng.permutation(n) for _ in range(args.restarts)]
    table = unit_table(units)
    outputs = [list(r) for r in restarts]
    parts = {
        "within-segment order (lexsort -> argsort + 16-bit radix)": (
            lambda: [old_within_order(labels, np.random.default_rng(r)) for r in range(args.restarts)],
            lambda: [within_segment_order(labels, np.random.default_rng(r)) for r in range(args.restarts)]),
        "reorder the units (itemgetter -> object-array gather)": (
            lambda: [old_gather(units, o) for o in orders], lambda: [apply_order(table, o) for o in orders]),
        "spurious boundaries (Counter -> numpy unique)": (
            lambda: old_spurious(initial, restarts), lambda: spurious_boundaries(initial, restarts)),
        "integer check of an output (all(type) -> set(map(type)))": (
            lambda: [old_int_check(b) for b in outputs], lambda: [new_int_check(b) for b in outputs]),
    }
    print(f"\nparts, {n} units, 2,000 boundaries, {args.restarts} restarts (CPU time, best of {args.repeat}):")
    for name, (old, new) in parts.items():
        assert old() == new() if "order" not in name else all(np.array_equal(a, b) for a, b in zip(old(), new()))
        before, after = best(old, args.repeat), best(new, args.repeat)
        print(f"  {name:58s} {before * 1e3:7.1f} ms -> {after * 1e3:7.1f} ms  {before / after:4.1f}x")

    chance = (list(initial), n - 1, 2, [1990, 2000])
    assert old_expected_matches(*chance).tobytes() == expected_matches(*chance).tobytes()
    before, after = best(lambda: old_expected_matches(*chance), args.repeat), best(lambda: expected_matches(*chance), args.repeat)
    print(f"\nchance level with tolerance 2, {n} units, 2,000 boundaries (full table -> states in reach; identical):")
    print(f"  time {before:6.2f} s -> {after:6.2f} s  {before / after:4.1f}x;  peak memory "
          f"{peak_mb(lambda: old_expected_matches(*chance)):6.1f} MB -> {peak_mb(lambda: expected_matches(*chance)):6.1f} MB")


if __name__ == "__main__":
    main()
