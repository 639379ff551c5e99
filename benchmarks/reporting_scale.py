"""Reporting cost at corpus scale: N small documents through ``stability run -s even -r 3``.

Two measurements, each in a fresh process so peak memory is its own:

1. **in-process phases**: :func:`stability.evaluate` (evaluation, results file written) then
   every report format rendered (:func:`stability.reporting.render`); wall time of each phase and
   the peak resident memory after each (``ru_maxrss``, a running maximum).
2. **end to end**: the ``stability run`` command with a config asking for every report format in
   ``[output] formats`` (the reports written to the output folder, the table on stdout); wall
   time and the peak resident memory of that process.

Usage::

    python benchmarks/reporting_scale.py [--documents 5000] [--units 12]

The issue's target: peak memory under 250 MB and reporting time no more than evaluation time.
No timing is asserted anywhere in the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FORMATS = ("table", "md", "csv", "json", "html")


def write_corpus(path: Path, n_documents: int, n_units: int) -> None:
    """Small documents with one reference each (so the correlation table is exercised)."""
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n_documents):
            units = [f"w{i % 97} u{j}" for j in range(n_units + i % 5)]
            reference = sorted({2 + i % 3, n_units // 2})
            handle.write(json.dumps({"id": f"doc{i:05d}", "units": units, "references": [reference]}) + "\n")


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # kilobytes on Linux


def phases(corpus: Path, out: Path) -> None:
    """Child process: evaluation, then every format; prints one JSON line."""
    from stability import evaluate
    from stability.readers import read_corpus
    from stability.reporting import render

    started = time.perf_counter()
    result = evaluate({"even": "even"}, read_corpus(corpus), n_restarts=3, output=out / "results.jsonl",
                      progress=False)
    evaluation = time.perf_counter() - started
    evaluation_peak = peak_mb()
    started = time.perf_counter()
    sizes = {fmt: len(render(result, fmt)) for fmt in FORMATS}
    sizes["documents.csv"] = len(render(result, "csv", documents=True))
    reporting = time.perf_counter() - started
    print(json.dumps({"evaluation_s": evaluation, "reporting_s": reporting, "evaluation_peak_mb": evaluation_peak,
                      "peak_mb": peak_mb(), "report_chars": sizes}))


def end_to_end(corpus: Path, out: Path) -> dict[str, float]:
    config = out / "exp.toml"
    config.write_text(f'[corpus]\npath = "{corpus}"\nformat = "jsonl"\n'
                      f'[output]\ndir = "{out / "cli"}"\nformats = {json.dumps(list(FORMATS))}\n')
    before = peak_mb(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "stability.cli", "run", str(config), "-s", "even", "-r", "3", "--no-progress"],
                   check=True, stdout=subprocess.DEVNULL)
    return {"wall_s": time.perf_counter() - started, "peak_mb": max(before, peak_mb(resource.RUSAGE_CHILDREN))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=5000)
    parser.add_argument("--units", type=int, default=12)
    parser.add_argument("--phases", nargs=2, metavar=("CORPUS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phases:
        phases(Path(args.phases[0]), Path(args.phases[1]))
        return
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        corpus = root / "corpus.jsonl"
        write_corpus(corpus, args.documents, args.units)
        (root / "api").mkdir()
        child = subprocess.run([sys.executable, __file__, "--phases", str(corpus), str(root / "api")],
                               check=True, capture_output=True, text=True)
        measured = json.loads(child.stdout.strip().splitlines()[-1])
        cli = end_to_end(corpus, root)
    print(f"{args.documents} documents of ~{args.units} units, segmenter 'even', 3 restarts, formats {', '.join(FORMATS)}")
    print(f"  evaluation            {measured['evaluation_s']:7.1f} s   peak RSS {measured['evaluation_peak_mb']:6.0f} MB")
    print(f"  reporting (all fmts)  {measured['reporting_s']:7.1f} s   peak RSS {measured['peak_mb']:6.0f} MB"
          f"   reporting / evaluation = {measured['reporting_s'] / measured['evaluation_s']:.2f}")
    print(f"  stability run (CLI)   {cli['wall_s']:7.1f} s   peak RSS {cli['peak_mb']:6.0f} MB (end to end, reports written)")


if __name__ == "__main__":
    # this folder holds a segmenters.py that would hide the project's segmenters package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    main()
