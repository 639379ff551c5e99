"""A run with worker processes leaves the process's one reusable loky pool to joblib in a state
joblib's own loky backend can use (scikit-learn's ``n_jobs``, ``Parallel(backend="loky")``), and
the other way round. Each case runs in a fresh interpreter: the pool is per process, and the
order of the tests would decide who made it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

DOCS = '[["a b"] * 12, ["c d"] * 14, ["e f"] * 9]'


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("order", ["stability first", "joblib first"])
def test_joblib_loky_runs_before_and_after_a_run_with_workers(order):
    stability_run = f"evaluate({{'even': 'even'}}, {DOCS}, n_restarts=3, n_jobs=2, progress=False)"
    joblib_run = "print(Parallel(n_jobs=2, backend='loky')(delayed(abs)(i) for i in range(-3, 0)))"
    first, second = (stability_run, joblib_run) if order == "stability first" else (joblib_run, stability_run)
    done = run(f"""
        from joblib import Parallel, delayed
        from stability import evaluate
        {first}
        {second}
        {first}
        """)
    # before: AttributeError: '_ReusablePoolExecutor' object has no attribute '_temp_folder_manager'
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "[3, 2, 1]"
