"""Reports of a run with thousands of failures, and of a large run without any, in every format.

Two runs are written once through the public API (:func:`stability.evaluate`, results file):

1. **failing**: ``--documents`` small documents (default 5,000), the built-in ``even`` and
   :func:`flaky`, a plugin-style segmenter (``module:attribute``) raising on about 80% of them,
   with errors of realistic length, a quarter of them on three lines (a tokenizer's);
2. **clean**: ``--clean-documents`` documents (default 10,000), ``even`` and :func:`starts`, a
   content-aware segmenter that never fails.

For each run and each report format (the terminal table at 80 and 120 columns, Markdown, HTML,
CSV, JSON) a fresh process loads the results file, as ``stability report OUT --report-format F``
does, and renders the report once: load time, render time and the process's peak RSS, the best of
``--repeat`` such processes. With ``--against REV`` the same processes also run the code of REV
(its ``stability/`` and ``segmenters/`` taken from git) and each row gives REV's load and render
times and their ratios REV / now;
the two outputs are compared byte for byte (a terminal table whose Failures table lists its first
rows since then is said to differ, with its line counts). Last, ``stability run`` of the failing
corpus end to end (evaluation, the report printed at 120 columns, results written), wall time and
peak RSS.

Usage::

    python benchmarks/reporting_failures.py [--documents 5000] [--clean-documents 10000] [--repeat 2]
                                            [--against 5fae504]

No timing is asserted anywhere in the test suite.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: (name, format, width): what is rendered, in this order.
RENDERS = (("table 80", "table", 80), ("table 120", "table", 120), ("md", "md", None), ("html", "html", None),
           ("csv", "csv", None), ("json", "json", None))
WORDS = "the of and a to in is was that for on as with by at from his her it an were are which this be".split()


def flaky(units):
    """Fails on about 80% of documents (by the letters of their units), four kinds of error."""
    n, key = len(units), sum(len(u) for u in units)
    if key % 10 >= 8:
        return list(range(3, n, 4))
    kind = key % 4
    if kind == 0:
        raise ValueError(f"cannot segment a document of {n} units: the model's context window holds 512 tokens "
                         f"and this one needs {key * 3} after tokenisation (truncation is off)")
    if kind == 1:
        raise RuntimeError(f"tokenizer returned {key % 7} empty spans at unit {n // 2}\n"
                           f"  while reading unit {n // 2}: {units[n // 2][:40]!r}\n"
                           "  hint: set strip_whitespace=True or clean the corpus first")
    if kind == 2:
        raise KeyError(f"unit_{n}")
    raise ZeroDivisionError("division by zero")


def starts(units):
    """A boundary before each unit starting with 'the': content-aware, never fails."""
    return [i for i, u in enumerate(units) if i and u.startswith("the")]


def corpus(n: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    return [{"id": f"doc{i:05d}", "units": [" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))
                                            for _ in range(rng.randint(8, 20))]} for i in range(n)]


def peak_mb() -> float:
    """This process's peak resident memory (Linux's VmHWM): ``ru_maxrss`` of a process started by
    another begins at that one's peak (vfork and exec keep it), so a small parent starts them all."""
    status = Path("/proc/self/status").read_text(encoding="ascii")
    return int(status.split("VmHWM:")[1].split()[0]) / 1024  # kilobytes


#: Runs ``stability.cli`` as ``python -m stability.cli`` does, writing its peak memory at exit to
#: the file named by the first argument.
END_TO_END = ("import atexit, runpy, sys\n"
              "from benchmarks.reporting_failures import peak_mb\n"
              "atexit.register(lambda path=sys.argv.pop(1): open(path, 'w').write(str(peak_mb())))\n"
              "runpy.run_module('stability.cli', run_name='__main__', alter_sys=True)\n")


def build(kind: str, n: int, path: str) -> None:
    """In a fresh process (the parent stays small): the run ``kind`` of ``n`` documents, written to ``path``."""
    from stability import evaluate

    segmenters = {"even": "even", "flaky": flaky} if kind == "failing" else {"even": "even", "starts": starts}
    started = time.perf_counter()
    result = evaluate(segmenters, corpus(n), n_restarts=3, output=path, progress=False)
    print(f"{kind}: {n} documents, {len(result.failures)} failures, evaluated in {time.perf_counter() - started:.1f} s")


def child(results: str, fmt: str, width: str, out: str) -> None:
    """In a fresh process (the code on its path): load, render once (as the command does); one JSON line."""
    from stability.reporting import render
    from stability.summary import load_results

    started = time.perf_counter()
    result = load_results(results)
    load = time.perf_counter() - started
    started = time.perf_counter()
    text = render(result, fmt, **({"width": int(width)} if width != "-" else {}))
    render_s = time.perf_counter() - started
    Path(out).write_text(text, encoding="utf-8")
    print(json.dumps({"load_s": load, "render_s": render_s, "peak_mb": peak_mb()}))


def code_of(revision: str, folder: Path) -> Path:
    """The ``stability`` and ``segmenters`` packages of ``revision``, extracted into ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "stability", "segmenters"],
                             check=True, capture_output=True).stdout
    folder.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def environment(code: Path | None) -> dict[str, str]:
    """The environment of a child running ``code`` (None: this checkout), with this folder's module importable."""
    path = ([str(code)] if code else []) + [str(ROOT)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def measure(results: Path, fmt: str, width: int | None, repeat: int, code: Path | None, out: Path) -> dict:
    """The best of ``repeat`` fresh processes: load and render times, peak RSS (the largest)."""
    runs = []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-m", "benchmarks.reporting_failures", "--child", str(results), fmt,
                               str(width or "-"), str(out)],
                              check=True, capture_output=True, text=True, env=environment(code), cwd=code or ROOT)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {"load_s": min(r["load_s"] for r in runs), "render_s": min(r["render_s"] for r in runs),
            "peak_mb": max(r["peak_mb"] for r in runs)}


def end_to_end(corpus_path: Path, out: Path, code: Path | None) -> dict:
    peak = out.with_suffix(".peak")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", END_TO_END, str(peak), "run", "-s", "even",
                           "-s", "benchmarks.reporting_failures:flaky", "--allow-plugins", "--corpus", str(corpus_path),
                           "--restarts", "3", "--out", str(out), "--no-progress", "--width", "120"],
                          capture_output=True, text=True, env=environment(code), cwd=code or tempfile.gettempdir())
    if done.returncode != 3:  # 3: the run completed, some segmenter failed
        raise RuntimeError(f"stability run exited with {done.returncode}: {done.stderr[-2000:]}")
    return {"wall_s": time.perf_counter() - started, "peak_mb": float(peak.read_text()), "lines": done.stdout.count("\n")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=5000, help="documents of the failing run")
    parser.add_argument("--clean-documents", type=int, default=10000, help="documents of the run without failures")
    parser.add_argument("--repeat", type=int, default=2, help="processes rendering a format, the best one timed")
    parser.add_argument("--against", metavar="REV", help="a git revision whose code is timed too (ratios REV / now)")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--build", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    if args.build:
        build(args.build[0], int(args.build[1]), args.build[2])
        return
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        previous = code_of(args.against, root / "previous") if args.against else None
        runs = {}
        for name, n in (("failing", args.documents), ("clean", args.clean_documents)):
            runs[name] = root / f"{name}.jsonl"
            subprocess.run([sys.executable, "-m", "benchmarks.reporting_failures", "--build", name, str(n),
                            str(runs[name])], check=True, env=environment(None), cwd=ROOT)
        print(f"\nbest of {args.repeat} fresh processes, each loading the results file (load_results) and "
              f"rendering once; peak RSS of the process"
              + (f"; ratio = {args.against} / now" if previous else ""))
        print(f"{'run':8} {'format':10} {'load s':>7} {'render s':>9} {'peak MB':>8} {'lines':>7}"
              + (f" {'then load':>9} {'ratio':>6} {'then s':>8} {'ratio':>7} {'then MB':>8} {'output':>24}"
                 if previous else ""))
        for name, results in runs.items():
            for label, fmt, width in RENDERS:
                now_text, then_text = root / "now.out", root / "then.out"
                now = measure(results, fmt, width, args.repeat, None, now_text)
                lines = now_text.read_text(encoding="utf-8").count("\n")
                row = f"{name:8} {label:10} {now['load_s']:7.2f} {now['render_s']:9.3f} {now['peak_mb']:8.0f} {lines:7d}"
                if previous:
                    then = measure(results, fmt, width, args.repeat, previous, then_text)
                    same = now_text.read_bytes() == then_text.read_bytes()
                    said = "identical" if same else \
                        f"differs ({then_text.read_text(encoding='utf-8').count(chr(10))} lines then)"
                    row += (f" {then['load_s']:9.2f} {then['load_s'] / now['load_s']:5.1f}x"
                            f" {then['render_s']:8.3f} {then['render_s'] / max(now['render_s'], 1e-9):6.1f}x"
                            f" {then['peak_mb']:8.0f} {said:>24}")
                print(row, flush=True)
        corpus_path = root / "failing-corpus.jsonl"
        corpus_path.write_text("".join(json.dumps(d) + "\n" for d in corpus(args.documents)), encoding="utf-8")
        now = end_to_end(corpus_path, root / "run-now", None)
        line = (f"\nstability run (failing corpus, end to end, report printed at 120 columns): {now['wall_s']:.1f} s, "
                f"peak RSS {now['peak_mb']:.0f} MB, {now['lines']} lines printed")
        if previous:
            then = end_to_end(corpus_path, root / "run-then", previous)
            line += (f"; {args.against}: {then['wall_s']:.1f} s ({then['wall_s'] / now['wall_s']:.2f}x), "
                     f"peak RSS {then['peak_mb']:.0f} MB, {then['lines']} lines printed")
        print(line)


if __name__ == "__main__":
    # this folder holds a segmenters.py that would hide the project's segmenters package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    main()
