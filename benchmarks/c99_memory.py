"""Peak memory of C99's exact mode, in bytes per cell of the ``n x n`` similarity matrix.

For each ``--units`` n, a fresh Python process builds a synthetic topical document of n units
(:func:`benchmarks.long_documents.topical_units`) and measures two calls:

* ``plain``: ``C99()(units)`` (similarity matrix, rank counts, prefix sums, clustering);
* ``restart``: ``C99().segment_prepared(state, order)`` on a random order, plus the similarity
  matrix of ``prepare`` kept beside it (what every restart of a stability test costs);

each two ways: the tracemalloc peak above the memory traced before the call (numpy reports its
buffers to tracemalloc), and, in a separate process, the growth of the peak resident set size
over the call (``VmHWM`` reset before it, Linux; ``ru_maxrss`` elsewhere, where a ``restart``
row can read low: ``prepare``'s own peak came first). Prints both divided by ``n^2`` beside
:func:`segmenters.c99.exact_memory`'s estimate, which must stay above every measured value.

Run: ``python benchmarks/c99_memory.py [--units 1000 2000 4000 8000]``
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import json, resource, sys, tracemalloc
import numpy as np
sys.path.insert(0, {root!r})
from benchmarks.long_documents import topical_units
from segmenters.c99 import C99

n, call, way = {n}, {call!r}, {way!r}
units = topical_units(n)[0]
c99 = C99()
c99(units[:50])  # load every module and warm numpy up before measuring
state = c99.prepare(units) if call == "restart" else None
order = np.random.default_rng(1).permutation(n)

def run():
    if call == "plain":
        return c99(units)
    return c99.segment_prepared(state, order)

if way == "tracemalloc":
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    run()
    peak = tracemalloc.get_traced_memory()[1] - before
else:
    def high_water():  # peak resident set size since the last reset, in bytes
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    try:  # Linux: reset the peak to the current size (else prepare's peak would hide the call's)
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    with open("/proc/self/statm") as f:
        before = int(f.read().split()[1]) * resource.getpagesize()
    run()
    peak = high_water() - before
if call == "restart":  # the similarity matrix kept for the restarts is part of their cost
    peak += state.similarity.nbytes
print(json.dumps(peak))
"""


def measure(n: int, call: str, way: str) -> int:
    """Peak bytes of one call, measured in a fresh process."""
    code = _CHILD.format(root=str(ROOT), n=n, call=call, way=way)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from segmenters.c99 import exact_memory

    print(f"{'n':>6} {'call':>8} {'tracemalloc':>12} {'ru_maxrss':>10} {'estimate':>9}   (bytes / n^2)")
    for n in args.units:
        cells = n * n
        for call in ("plain", "restart"):
            traced = measure(n, call, "tracemalloc") / cells
            rss = measure(n, call, "rss") / cells
            estimate = exact_memory(n) / cells
            flag = "" if estimate >= max(traced, rss) else "  ESTIMATE BELOW THE PEAK"
            print(f"{n:>6} {call:>8} {traced:>12.2f} {rss:>10.2f} {estimate:>9.2f}{flag}", flush=True)


if __name__ == "__main__":
    main()
