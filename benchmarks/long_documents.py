"""One long document through the segmenters' stability test: the work that grows with the document.

A synthetic topical document (topics of 3-11 units, each drawing 8 words a unit from its own 25
pseudo-words, like the tests' ``topical_document``) of ``--units`` units is evaluated with C99
(``band=20``), TextTiling, U00 (``max_segment_length=40``) and the two baselines, ``--restarts``
restarts plus the shuffle control, one job, the results file written to ``--out``. Prints the
time of the run; time the whole command from outside to compare two commits, and compare their
``results.jsonl`` (all but the first line, which names the command) byte for byte.

Run: ``python benchmarks/long_documents.py --units 5000 --restarts 20 --out DIR [--segmenters c99,u00]``

The script imports ``stability`` and ``segmenters`` as installed (or from ``PYTHONPATH``), so the
same file measures another checkout: ``cd OTHER && PYTHONPATH=. python THIS/benchmarks/long_documents.py ...``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

# run as a script, this folder comes first on the path, and its segmenters.py would stand in for
# the segmenters package the registry loads
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from stability import evaluate  # noqa: E402
from stability.registry import get_segmenter  # noqa: E402

SEGMENTERS = {
    "c99": ("c99", {"band": 20}),
    "texttiling": ("texttiling", {}),
    "u00": ("u00", {"max_segment_length": 40}),
    "even": ("even", {}),
    "none": ("none", {}),
}


def pseudo_word(topic: int, index: int) -> str:
    """A word of letters only, distinct per (topic, index): the digits of both spelt a-j."""
    return "".join(chr(97 + int(digit)) for digit in f"{topic:02d}{index:02d}")


def topical_units(n_units: int, seed: int = 0) -> tuple[list[str], list[int]]:
    """``n_units`` units in topics of 3-11 units (no topic twice in a row) and their boundaries."""
    rng = np.random.default_rng(seed)
    units: list[str] = []
    boundaries: list[int] = []
    topic = -1
    while len(units) < n_units:
        topic = (topic + 1 + int(rng.integers(0, 39))) % 40
        if units:
            boundaries.append(len(units))
        for _ in range(int(rng.integers(3, 12))):
            units.append(" ".join(pseudo_word(topic, i) for i in rng.integers(0, 25, size=8).tolist()))
    return units[:n_units], [b for b in boundaries if b < n_units]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=5000)
    parser.add_argument("--restarts", type=int, default=20)
    parser.add_argument("--segmenters", default=",".join(SEGMENTERS))
    parser.add_argument("--out", type=Path, required=True, help="folder for results.jsonl")
    args = parser.parse_args()
    units, boundaries = topical_units(args.units)
    segmenters = {}
    for label in args.segmenters.split(","):
        name, params = SEGMENTERS[label]
        segmenters[label] = get_segmenter(name, **params)
    args.out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with warnings.catch_warnings():  # pseudo-words hold no English stopword: said, and expected
        warnings.simplefilter("ignore")
        evaluate(segmenters, [{"id": "long", "units": units, "references": [boundaries]}],
                 output=args.out / "results.jsonl", overwrite=True, n_restarts=args.restarts, seed=0,
                 n_jobs=1, progress=False)
    print(f"{args.units} units, {args.restarts} restarts + shuffle, {args.segmenters}: "
          f"{time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
