"""Adaptive stopping on the headline (``ci_score = "headline"``) against a fixed number of restarts.

What a user would otherwise run: a fixed 100 restarts per document (the paper's setting). This
script measures, on Choi's 3-11 documents (``../shared/data/choi``; it exits with a message when
they are absent) and the segmenters given:

* with 100 fixed restarts: the width of each document's headline interval (``headline_ci``)
  and the segmenter calls (test + shuffle control);
* with adaptive stopping at ``ci_width = W``, watching F1 (the default) and watching the headline:
  the calls, the share of documents whose final headline interval is at most ``W`` wide, and how
  far each configuration's corpus headline moves from the fixed run's.

It prints one line per segmenter and mode, with the ratio of segmenter calls to the fixed run.
No timing is asserted anywhere; calls are counted, not timed.

Run: ``python benchmarks/adaptive_headline.py [--docs 40] [--width 0.1] [--segmenters c99 texttiling]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# benchmarks/segmenters.py is named like the package of the built-in segmenters: keep this
# folder off the import path, or the registry's "segmenters.c99" would look in that file.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import numpy as np  # noqa: E402

from stability import evaluate, get_segmenter  # noqa: E402
from stability.readers import read_corpus  # noqa: E402

CHOI = Path(__file__).resolve().parents[2] / "shared" / "data" / "choi" / "1" / "3-11"


def _calls(run, label: str) -> int:
    return sum(r.n_restarts + r.shuffle.n_restarts for r in run.documents[label])


def _widths(run, label: str) -> np.ndarray:
    return np.array([r.headline_ci[1] - r.headline_ci[0] for r in run.documents[label]])


def _headline(run, label: str) -> float:
    return float(np.mean([r.count_corrected for r in run.documents[label]]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=40, help="Choi 3-11 documents (set 1), first N")
    parser.add_argument("--width", type=float, default=0.1, help="ci_width of the adaptive runs")
    parser.add_argument("--restarts", type=int, default=100, help="fixed restarts, and the adaptive maximum")
    parser.add_argument("--segmenters", nargs="+", default=["c99", "texttiling"])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if not CHOI.is_dir():
        print(f"Choi's corpus is not at {CHOI}: nothing to measure.")
        return 0
    docs = list(read_corpus(CHOI, format="choi"))[: args.docs]
    segmenters = {name: get_segmenter(name) for name in args.segmenters}
    common = dict(n_restarts=args.restarts, seed=0, n_jobs=args.jobs, progress=False)
    fixed = evaluate(segmenters, docs, **common)
    adaptive = {score: evaluate(segmenters, docs, ci_width=args.width, ci_score=score, **common)
                for score in ("f1", "headline")}
    print(f"{len(docs)} Choi 3-11 documents, {args.restarts} fixed restarts against adaptive stopping at "
          f"ci_width {args.width:g} (min 20, every 10); calls = test + shuffle-control restarts")
    print(f"{'segmenter':<12} {'run':<18} {'calls':>7} {'ratio':>6} {'headline':>9} {'moved':>6} "
          f"{'interval <= W':>14} {'median width':>13}")
    for label in segmenters:
        base = _calls(fixed, label)
        rows = [("fixed", fixed)] + [(f"adaptive, {score}", run) for score, run in adaptive.items()]
        for name, run in rows:
            widths = _widths(run, label)
            print(f"{label:<12} {name:<18} {_calls(run, label):>7} {_calls(run, label) / base:>6.2f} "
                  f"{_headline(run, label):>9.3f} {abs(_headline(run, label) - _headline(fixed, label)):>6.3f} "
                  f"{np.mean(widths <= args.width + 1e-12):>14.0%} {np.median(widths):>13.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
