"""One benchmark command (issue 15): ``python -m benchmarks [--full] [--out PATH]``.

Runs the measurements of the benchmark scripts of this folder against the issue's targets and
prints one table (what was compared, the measured time or ratio, the target, pass/fail), then
writes it with the machine, date, load average and versions to ``benchmarks/RESULTS.md``.

Quick by default (a few minutes: subsets of Choi's 3-11 set, fewer restarts, the 20,000-unit
calls once each); ``--full`` runs the whole Choi set and the slow exact-mode calls. Timings on a
shared machine are noisy: the load average is recorded beside them. Rows whose target is a
speed on another machine (16 cores) or a run this command does not make say so; timings are
never asserted by the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass
class Row:
    """One line of the table."""

    what: str
    measured: str
    target: str
    ok: bool | None  # None: no target to pass or fail
    note: str = ""

    @property
    def verdict(self) -> str:
        return {True: "pass", False: "FAIL", None: "-"}[self.ok]


CHECKS = []
NOTES_MARKER = "<!-- notes: kept when the command rewrites this file -->"


def check(function):
    """Register a measurement: ``function(full) -> list[Row]``."""
    CHECKS.append(function)
    return function


def _choi(count: int | None):
    """Choi 3-11 documents as (units, boundaries): every ``400/count``-th one (all when None)."""
    from benchmarks.choi_pk import CHOI, load_corpus

    if not CHOI.is_dir():
        return []
    docs = [(units, bounds) for _, units, bounds in load_corpus(None)]
    if count is None or count >= len(docs):
        return docs
    return docs[:: max(1, len(docs) // count)][:count]


def _choi_documents(count: int | None) -> list[dict]:
    """:func:`_choi`'s documents as ``evaluate`` inputs (ids ``d0``, ``d1``...; empty without data)."""
    return [{"id": f"d{i}", "units": u} for i, (u, _) in enumerate(_choi(count))]


def _child(code: str, timeout: float = 600) -> dict:
    """Run ``code`` in a fresh interpreter (cold caches, its own peak memory); it prints a JSON
    object on its last line."""
    prelude = (
        "import json, resource, sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from benchmarks.segmenters import synthetic_document\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


_ONE_CALL = """
units, _ = synthetic_document({n}, seed=1)
from stability import get_segmenter
segmenter = get_segmenter({name!r}, **{params!r})
start = time.perf_counter()
try:
    segmenter(units)
    error = None
except Exception as exc:
    error = f"{{type(exc).__name__}}: {{exc}}"
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({{"seconds": seconds, "peak": peak, "error": error}}))
"""


def one_call(name: str, params: dict, n: int) -> dict:
    """Time and peak resident memory of one call on a synthetic ``n``-unit document (cold)."""
    return _child(_ONE_CALL.format(n=n, name=name, params=params))


# ----------------------------------------------------------------------------------------------
# measurements
# ----------------------------------------------------------------------------------------------
@check
def long_documents(full: bool) -> list[Row]:
    """One call on 20,000 units: C99 and U00 in their long-document modes, the exact modes."""
    n = 20_000
    rows = []
    c99 = one_call("c99", {"band": 20}, n)
    rows.append(Row(f"C99 band=20, one call, {n:,} units (time)", f"{c99['seconds']:.2f} s", "<= 5 s",
                    c99["error"] is None and c99["seconds"] <= 5, "cold: includes tokenizing and stemming"))
    rows.append(Row(f"C99 band=20, one call, {n:,} units (peak RSS)", f"{c99['peak'] / 2**30:.2f} GiB",
                    "<= 1 GB", c99["peak"] <= 1e9, "whole process, Python and numpy included"))
    exact = one_call("c99", {}, n)
    refused = exact["error"] is not None and "band" in exact["error"]
    rows.append(Row(f"C99 exact mode, {n:,} units", "refused in " f"{exact['seconds']:.1f} s" if refused
                    else f"ran {exact['seconds']:.1f} s", "clear error naming the long mode, no OOM", refused,
                    (exact["error"] or "")[:90]))
    u00 = one_call("u00", {"max_segment_length": 200}, n)
    rows.append(Row(f"U00 max_segment_length=200, one call, {n:,} units", f"{u00['seconds']:.2f} s", "<= 5 s",
                    u00["error"] is None and u00["seconds"] <= 5, "cold: includes tokenizing and stemming"))
    known = one_call("u00", {"max_segment_length": 200, "n_segments": 200}, n)
    rows.append(Row(f"U00 max_segment_length=200, n_segments=200, {n:,} units", f"{known['seconds']:.2f} s",
                    "<= 5 s", known["error"] is None and known["seconds"] <= 5, "known count: banded dynamic program"))
    tt = one_call("texttiling", {}, n)
    rows.append(Row(f"TextTiling, one call, {n:,} units", f"{tt['seconds']:.2f} s", "keep (1.0 s)",
                    tt["seconds"] <= 1.5, "pass within 1.5x of the issue's figure"))
    if full:
        u00_exact = one_call("u00", {}, n)
        rows.append(Row(f"U00 exact automatic, one call, {n:,} units", f"{u00_exact['seconds']:.1f} s",
                        "- (long mode is the target)", None))
    return rows


@check
def long_mode_pk(full: bool) -> list[Row]:
    """Effect of the long-document modes on Choi 3-11 word-level Pk (benchmarks/choi_pk.py)."""
    from benchmarks.choi_pk import word_pk
    from segmenters.c99 import C99
    from segmenters.u00 import U00

    docs = _choi(None if full else 100)
    if not docs:
        return [Row("long-mode Pk on Choi 3-11", "skipped: data not found", "-", None)]
    pairs = [
        ("C99 automatic, band=20", lambda k: C99(tokenizer="choi"), lambda k: C99(tokenizer="choi", band=20)),
        ("C99 known K, band=20", lambda k: C99(tokenizer="choi", n_segments=k),
         lambda k: C99(tokenizer="choi", n_segments=k, band=20)),
        ("U00 automatic, max_segment_length=20", lambda k: U00(tokenizer="choi"),
         lambda k: U00(tokenizer="choi", max_segment_length=20)),
        ("U00 known K, max_segment_length=20", lambda k: U00(tokenizer="choi", n_segments=k),
         lambda k: U00(tokenizer="choi", n_segments=k, max_segment_length=20)),
    ]
    rows = []
    for label, exact, long in pairs:
        values = []
        for make in (exact, long):
            values.append(float(np.mean([word_pk(u, b, sorted(make(len(b) + 1)(u))) for u, b in docs])))
        delta = values[1] - values[0]
        rows.append(Row(f"{label}: Choi 3-11 Pk ({len(docs)} docs)", f"{values[1]:.4f} vs exact {values[0]:.4f}",
                        "|diff| <= 0.01", abs(delta) <= 0.01, f"diff {delta:+.4f}"))
    return rows


class _NoBatch:
    """A segmenter seen without its batched path (the per-restart path, for comparison)."""

    def __init__(self, segmenter) -> None:
        self.segmenter = segmenter
        self.name = segmenter.name

    def __call__(self, units):
        return self.segmenter(units)

    def prepare(self, units):
        return self.segmenter.prepare(units)

    def segment_prepared(self, state, order):
        return self.segmenter.segment_prepared(state, order)


@check
def batched_restarts(full: bool) -> list[Row]:
    """Restart rounds through ``segment_batch`` against the per-restart path, in the engine."""
    from segmenters.c99 import C99
    from segmenters.texttiling import TextTiling
    from segmenters.u00 import U00
    from stability import evaluate

    docs = _choi(40 if full else 12)
    if not docs:
        return [Row("batched restarts", "skipped: Choi data not found", "-", None)]
    documents = [{"id": f"d{i}", "units": u} for i, (u, _) in enumerate(docs)]
    rows = []
    segmenters = (("C99", C99(tokenizer="choi")), ("U00", U00(tokenizer="choi")), ("TextTiling", TextTiling()))
    for label, segmenter in segmenters:
        seconds, results = [], []
        for candidate in (_NoBatch(segmenter), segmenter):
            start = time.perf_counter()
            out = evaluate({label: candidate}, documents, n_restarts=100, seed=0, n_jobs=1, progress=False)
            seconds.append(time.perf_counter() - start)
            results.append([(r.restart_boundaries, r.shuffle.restart_boundaries) for r in _results(out)])
        same = results[0] == results[1]
        rows.append(Row(f"{label} study, batched vs per-restart ({len(docs)} Choi docs x 100 restarts + shuffle, 1 job)",
                        f"{seconds[0] / seconds[1]:.2f}x ({seconds[0]:.1f} s -> {seconds[1]:.1f} s)",
                        "faster, bit-identical", same and seconds[1] < seconds[0],
                        "identical" if same else "RESULTS DIFFER"))
    return rows


def _results(out):
    """Every StabilityResult of an ``evaluate`` output (a CorpusResult), failures refused."""
    if out.failures:
        raise RuntimeError(f"benchmark run failed: {out.failures[0]}")
    return [result for results in out.documents.values() for result in results]


def _validation_configurations(shared: bool) -> dict:
    """The 16 configurations of configs/choi-validation.toml; ``shared=False`` hides their
    ``prepare_params`` so that every (configuration, stream) prepares its own state."""
    from stability.config import load_config

    built = load_config(ROOT / "configs" / "choi-validation.toml").build_segmenters()
    if not shared:
        for segmenter in built.values():
            if getattr(segmenter, "prepare_params", None) is not None:
                segmenter.prepare_params = None
    return built


@check
def shared_prepare(full: bool) -> list[Row]:
    """The 16 validation configurations with prepared state shared across them, or not."""
    from stability import evaluate

    documents = _choi_documents(12 if full else 3)
    if not documents:
        return [Row("16 configurations, shared vs unshared prepare", "skipped: Choi data not found", "-", None)]
    seconds: dict[bool, list[float]] = {False: [], True: []}
    records = {}
    for _ in range(3 if full else 2):  # interleaved, best of
        for shared in (False, True):
            configurations = _validation_configurations(shared)
            start = time.process_time()  # one job, in-process: CPU time, steadier on a busy machine
            out = evaluate(configurations, documents, n_restarts=100, seed=0, shuffle_control=True,
                           n_jobs=1, progress=False)
            seconds[shared].append(time.process_time() - start)
            records[shared] = [r.to_dict() for r in _results(out)]
    same = json.dumps(records[False], sort_keys=True) == json.dumps(records[True], sort_keys=True)
    unshared, shared_s = min(seconds[False]), min(seconds[True])
    return [Row(f"16 configurations, shared vs unshared prepare ({len(documents)} Choi docs x 100 restarts + shuffle, 1 job)",
                f"{unshared / shared_s:.2f}x ({unshared:.1f} s -> {shared_s:.1f} s CPU)", "faster, bit-identical",
                same and shared_s < unshared, "identical" if same else "RESULTS DIFFER")]


@check
def validation_study(full: bool) -> list[Row]:
    """The 16-configuration Choi 3-11 validation study on 2 cores: with ``--full`` the whole
    ``stability validate configs/choi-validation.toml`` (analysis included); quick, its restarts
    on every 20th document, scaled to 400."""
    import subprocess
    import sys
    import tempfile

    from stability import evaluate

    if full:
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "stability", "validate", str(ROOT / "configs" / "choi-validation.toml"),
                                   "--jobs", "2", "--out", out, "--no-progress"], cwd=ROOT, capture_output=True, text=True)
            seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(f"stability validate failed: {done.stderr[-500:]}")
        note = "the whole command: restarts and analysis"
    else:
        documents = _choi_documents(20)
        if not documents:
            return [Row("validation study", "skipped: Choi data not found", "-", None)]
        evaluate({"even": "even"}, documents[:2], n_restarts=5, n_jobs=2, progress=False)  # warm workers
        start = time.perf_counter()
        _results(evaluate(_validation_configurations(True), documents, n_restarts=100, seed=0, shuffle_control=True,
                          n_jobs=2, progress=False))
        measured = time.perf_counter() - start
        seconds = measured * 400 / len(documents)
        note = (f"restarts only, measured on {len(documents)} docs: {measured:.1f} s, scaled to 400 "
                "(the study's analysis adds about 1-2 min: --full runs the whole command)")
    return [Row("whole 16-configuration validation study (configs/choi-validation.toml), 2 jobs",
                f"{seconds / 60:.1f} min", "<= 5 min", seconds <= 300, note)]


@check
def bootstrap_rank_correlations(full: bool) -> list[Row]:
    """The study's bootstraps of rank correlations across configurations (1,000 resamples of the
    configurations' means): every replicate at once, against one call a replicate."""
    from stability.stats import kendall_tau, kendall_tau_rows, spearman_rho, spearman_rho_rows

    rng = np.random.default_rng(0)
    rows = []
    for name, one, together in (("Kendall tau-b", kendall_tau, kendall_tau_rows),
                                ("Spearman rho", spearman_rho, spearman_rho_rows)):
        for n in (16, 48):
            x = rng.normal(size=(1000, n)).round(2)  # rounded: ties, as means of bounded scores have
            y = rng.normal(size=(1000, n)).round(2)
            loop, batched = [], []
            for _ in range(3 if full else 1):
                start = time.perf_counter()
                each = np.array([one(a, b) for a, b in zip(x, y)])
                loop.append(time.perf_counter() - start)
                start = time.perf_counter()
                whole = together(x, y)
                batched.append(time.perf_counter() - start)
            same = np.array_equal(each, whole, equal_nan=True)
            rows.append(Row(f"1,000 bootstrap {name} of {n} configurations: {together.__name__} vs a "
                            f"{one.__name__} call each",
                            f"{min(loop) / min(batched):.0f}x ({min(loop) * 1e3:.0f} ms -> {min(batched) * 1e3:.1f} ms)",
                            "faster, bit-identical", same and min(batched) < min(loop),
                            "identical" if same else "RESULTS DIFFER"))
    return rows


@check
def choi_study(full: bool) -> list[Row]:
    """The Choi 3-11 study with TextTiling, 100 restarts and the shuffle control, 2 jobs."""
    from segmenters.texttiling import TextTiling
    from stability import evaluate

    docs = _choi(None if full else 40)
    if not docs:
        return [Row("Choi study", "skipped: data not found", "-", None)]
    documents = [{"id": f"d{i}", "units": u} for i, (u, _) in enumerate(docs)]
    # start the two worker processes first: paid once by a 400-document run, it would be
    # multiplied by the scaling below
    evaluate({"tt": TextTiling()}, documents[:2], n_restarts=5, seed=0, n_jobs=2, progress=False)
    start = time.perf_counter()
    evaluate({"tt": TextTiling()}, documents, n_restarts=100, seed=0, n_jobs=2, progress=False)
    seconds = time.perf_counter() - start
    scaled = seconds * 400 / len(docs)
    note = "" if len(docs) == 400 else f"measured on {len(docs)} docs: {seconds:.1f} s, scaled to 400"
    return [Row("Choi 3-11 study, TextTiling, 400 docs x 100 restarts + shuffle, n_jobs=2",
                f"{scaled:.0f} s", "<= 30 s", scaled <= 30, note)]


@check
def choi_study_serial(full: bool) -> list[Row]:
    """The TextTiling Choi study's serial fraction and the 16-core speedup it allows (Amdahl)."""
    from benchmarks import harness_overhead as ho
    from segmenters.texttiling import TextTiling
    from stability import evaluate

    documents = _choi_documents(100 if full else 40)
    if not documents:
        return [Row("Choi study, serial fraction", "skipped: data not found", "-", None)]
    evaluate({"tt": TextTiling()}, documents[:2], n_restarts=5, seed=0, n_jobs=2, progress=False)  # warm workers
    cpu = {}
    for n_jobs in (1, 2):  # with 2 jobs: the main process's CPU time, what the workers do not take
        start = time.process_time()
        evaluate({"tt": TextTiling()}, documents, n_restarts=100, seed=0, n_jobs=n_jobs, progress=False)
        cpu[n_jobs] = time.process_time() - start
    serial = cpu[2] / cpu[1]
    return [Row(f"Choi 3-11 study, TextTiling: speedup n_jobs=16 over 1, Amdahl's law ({len(documents)} docs)",
                f"{ho.amdahl(serial, 16):.1f}x", ">= 13x", ho.amdahl(serial, 16) >= 13,
                f"projected (no 16-core machine): serial fraction {serial:.2%} = main-process CPU at n_jobs=2 "
                f"{cpu[2]:.2f} s / CPU of the n_jobs=1 run {cpu[1]:.1f} s")]


@check
def dask_workers(full: bool) -> list[Row]:
    """benchmarks/dask_workers.py: the same evaluate on a local Dask cluster of 1, then 2 workers."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return [Row("Dask, 2 workers over 1", "skipped: pip install -e '.[dask]'", "-", None)]
    from benchmarks import dask_workers

    n_docs, n_units, restarts = (8, 200, 100) if full else (8, 100, 50)
    got = dask_workers.measure(n_docs, n_units, restarts)
    return [Row(f"Dask LocalCluster, 2 single-thread workers over 1 (C99, {n_docs} synthetic docs x {n_units} units, "
                f"{restarts} restarts + shuffle)", f"{got['ratio']:.2f}x ({got['one']:.1f} s -> {got['two']:.1f} s)",
                "faster, bit-identical", got["identical"] and got["ratio"] > 1,
                f"{'identical' if got['identical'] else 'RESULTS DIFFER'}; busiest worker's CPU time "
                f"{got['cpu_ratio']:.2f}x less (the work divides; wall time also depends on the load)")]


@check
def metrics_at_a_million(full: bool) -> list[Row]:
    """Reference metrics at 1,000,000 units (benchmarks/metrics.py's protocol: CPU time, best of)."""
    from nltk.metrics.segmentation import pk as nltk_pk
    from nltk.metrics.segmentation import windowdiff as nltk_windowdiff

    from benchmarks.metrics import cpu_time, random_segmentation
    from stability import metrics

    rng = np.random.default_rng(0)
    n = 1_000_000
    ref, hyp = random_segmentation(rng, n, 2000), random_segmentation(rng, n, 2000)
    k = metrics.window_size(ref, "segeval")
    rows = []
    for name, ours, peer, target in (
        ("pk", lambda: metrics.pk(ref, hyp, k), lambda: nltk_pk(ref.gaps, hyp.gaps, k), 18),
        ("windowdiff", lambda: metrics.windowdiff(ref, hyp, k), lambda: nltk_windowdiff(ref.gaps, hyp.gaps, k), 22),
    ):
        t_ours, t_peer = cpu_time(ours), cpu_time(peer, max_repeats=3)
        rows.append(Row(f"{name} at 1e6 units vs nltk", f"{t_peer / t_ours:.0f}x ({t_ours * 1e3:.2f} ms)",
                        f">= {target}x (keep)", t_peer / t_ours >= target))
    for name in ("ghd", "boundary_similarity", "boundary_prf"):
        function = getattr(metrics, name)
        seconds = cpu_time(lambda: function(ref, hyp))
        rows.append(Row(f"{name} at 1e6 units", f"{seconds * 1e3:.2f} ms", "in the table", None))
    return rows


@check
def harness_overhead(full: bool) -> list[Row]:
    """benchmarks/harness_overhead.py: evaluate against a plain loop of the same calls."""
    from benchmarks import harness_overhead as ho

    n_docs, restarts, repeat = (20, 100, 5) if full else (8, 100, 3)
    docs = ho.make_documents(n_docs)
    segmenter = ho.OneMillisecond()
    ho.calibrate(segmenter, list(docs[0][1]))
    ho.timed_evaluate(segmenter, docs[:2], 5, 0, 2)  # warm the workers
    loops, loop_cpus, runs = [], [], {1: [], 2: []}
    for _ in range(repeat):  # interleaved, best of
        loops.append(ho.plain_loop(segmenter, docs, restarts, 0))
        loop_cpus.append(ho.plain_loop(segmenter, docs, restarts, 0, clock=time.process_time))
        for n_jobs in (1, 2):
            runs[n_jobs].append(ho.evaluate_times(segmenter, docs, restarts, 0, n_jobs))
    loop = min(loops)
    cpu_ratio = min(cpu for _, cpu in runs[1]) / min(loop_cpus)
    one, two = (min(wall for wall, _ in runs[n]) for n in (1, 2))
    serial = min(cpu for _, cpu in runs[2]) / min(cpu for _, cpu in runs[1])
    kf = ho.karp_flatt(one / two, 2)
    parts = ho.harness_profile(segmenter, docs, restarts, 0)
    per_call = loop / (n_docs * (2 + 2 * restarts)) * 1e6
    size = f"{n_docs} docs x {restarts} restarts"
    profile = ", ".join(f"{k} {v:.1f}" for k, v in parts.items())
    return [
        Row(f"harness overhead, evaluate / plain loop ({size})", f"{one / loop:.3f}", "<= 1.03", one / loop <= 1.03,
            f"CPU-time ratio {cpu_ratio:.3f}; segmenter {per_call / 1e3:.2f} ms/call; harness per call "
            f"(us, CPU): {profile}"),
        Row(f"speedup n_jobs=2 over 1 ({size})", f"{one / two:.2f}x", ">= 1.7", one / two >= 1.7),
        Row("serial fraction: main-process CPU at n_jobs=2 / CPU of the n_jobs=1 run", f"{serial:.1%}",
            "-", None, f"Karp-Flatt fraction from the 2-job speedup: {kf:.1%}"),
        Row("speedup n_jobs=16 over 1, Amdahl's law from the serial fraction", f"{ho.amdahl(serial, 16):.1f}x",
            ">= 13x", ho.amdahl(serial, 16) >= 13,
            f"projected (no 16-core machine); from the Karp-Flatt fraction: {ho.amdahl(max(kf, 0.0), 16):.1f}x"),
    ]


# ----------------------------------------------------------------------------------------------
# report
# ----------------------------------------------------------------------------------------------
def _versions() -> str:
    import joblib
    import nltk

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    return (f"Python {platform.python_version()}, numpy {np.__version__}, nltk {nltk.__version__}, "
            f"joblib {joblib.__version__}; commit {commit.stdout.strip() or 'unknown'}")


def _machine() -> str:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores{', ' + model if model else ''}"


def _table(rows: list[Row]) -> list[str]:
    lines = ["| what | measured | target | result | note |", "|---|---|---|---|---|"]
    lines += [f"| {r.what} | {r.measured} | {r.target} | {r.verdict} | {r.note} |" for r in rows]
    return lines


def _print(rows: list[Row]) -> None:
    widths = [max(len(getattr(r, f)) for r in rows) for f in ("what", "measured", "target")]
    for r in rows:
        print(f"{r.what:<{widths[0]}}  {r.measured:>{widths[1]}}  {r.target:<{widths[2]}}  {r.verdict:<4}  {r.note}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="whole Choi set, slow exact-mode calls")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md", help="where to write the report")
    parser.add_argument("--only", nargs="*", default=None, help="run only these measurements (by function name)")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    started = datetime.now(timezone.utc)
    rows: list[Row] = []
    for function in CHECKS:
        if args.only is not None and function.__name__ not in args.only:
            continue
        print(f"-- {function.__name__}: {function.__doc__.splitlines()[0]}", file=sys.stderr, flush=True)
        rows.extend(function(args.full))
    load_after = os.getloadavg()
    _print(rows)
    header = [
        "# Benchmark results (issue 15)",
        "",
        f"Produced by `python -m benchmarks{' --full' if args.full else ''}` on {started:%Y-%m-%d %H:%M} UTC.",
        "",
        f"* Machine: {_machine()}.",
        f"* Load average (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in load_before)} before, "
        f"{', '.join(f'{x:.1f}' for x in load_after)} after. A load above the core count means the "
        "timings below are slowed by other work and noisy; rerun on a quiet machine to compare.",
        f"* Versions: {_versions()}.",
        f"* Mode: {'full' if args.full else 'quick (subsets; see the notes)'}.",
        "",
    ]
    notes = ""
    if args.out.is_file():  # hand-written notes below the marker survive a rerun
        previous = args.out.read_text(encoding="utf-8")
        if NOTES_MARKER in previous:
            notes = previous[previous.index(NOTES_MARKER):]
    args.out.write_text("\n".join(header + _table(rows)) + "\n\n" + notes, encoding="utf-8")
    print(f"\nwritten: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
