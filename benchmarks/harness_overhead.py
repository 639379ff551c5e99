"""Harness overhead and parallel speedup (issue: harness core, "Done means").

A content-dependent segmenter costing about 1 ms per call on 70-unit documents is evaluated by
``stability.evaluate`` (100 restarts, shuffle control and determinism check on: 202 calls per
document) and, for comparison, called on exactly the same inputs by a plain Python loop. Prints
the ratio evaluate / loop at n_jobs=1 (target: at most 1.05) and the speedup of n_jobs=2 over
n_jobs=1 (target: at least 1.5 on the 2-core machine).

Run: ``python benchmarks/harness_overhead.py [--docs 20] [--restarts 100]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from stability import evaluate
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


def plain_loop(segmenter, docs, n_restarts: int, seed: int) -> float:
    """The same segmenter calls as evaluate makes, inputs prepared outside the timing."""
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
    start = time.perf_counter()
    for units in inputs:
        segmenter(units)
    return time.perf_counter() - start


def timed_evaluate(segmenter, docs, n_restarts: int, seed: int, n_jobs: int) -> float:
    documents = [{"id": d, "units": u} for d, u in docs]
    start = time.perf_counter()
    evaluate({"seg": segmenter}, documents, n_restarts=n_restarts, seed=seed, n_jobs=n_jobs, progress=False)
    return time.perf_counter() - start


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
    loops, ones, twos = [], [], []
    for _ in range(args.repeat):  # interleaved, so a burst of load elsewhere hits all three alike
        loops.append(plain_loop(segmenter, docs, args.restarts, 0))
        ones.append(timed_evaluate(segmenter, docs, args.restarts, 0, 1))
        twos.append(timed_evaluate(segmenter, docs, args.restarts, 0, 2))
    loop, one, two = min(loops), min(ones), min(twos)
    print(f"segmenter: {loop / calls * 1e3:.3f} ms per call; {args.docs} documents x 70 units, {calls} calls per run")
    print(f"plain loop             {loop:8.3f} s")
    print(f"evaluate n_jobs=1      {one:8.3f} s   overhead ratio {one / loop:.3f}  (target <= 1.05)")
    print(f"evaluate n_jobs=2      {two:8.3f} s   speedup over n_jobs=1 {one / two:.2f}x  (target >= 1.5)")


if __name__ == "__main__":
    main()
