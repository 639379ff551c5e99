"""SIGINT / SIGTERM during `stability run`: workers gone at once, finished pairs on disk, a true message."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from stability.cli import _saved
from stability.store import read_run

TESTS = Path(__file__).resolve().parent


def descendants(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def write_corpus(path: Path, n: int = 60) -> None:
    lines = [json.dumps({"id": f"d{i:02d}", "units": [f"u{i} {j}" for j in range(12)]}) for i in range(n)]
    path.write_text("\n".join(lines) + "\n")


def start(tmp_path: Path, jobs: int, out: Path | None, segmenter: str = "faults:slow", *options: str,
          env: dict[str, str] | None = None) -> subprocess.Popen:
    corpus = tmp_path / "corpus.jsonl"
    write_corpus(corpus)
    command = [sys.executable, "-m", "stability.cli", "run", "-s", segmenter, "--allow-plugins", "-c", str(corpus),
               "-r", "3", "-j", str(jobs), "--no-progress", *options] + ([] if out is None else ["--out", str(out)])
    env = {**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(condition, process: subprocess.Popen, limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and process.poll() is None and not condition():
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()


@pytest.mark.parametrize("signum,jobs", [(signal.SIGINT, 2), (signal.SIGTERM, 2), (signal.SIGTERM, 1), (signal.SIGHUP, 2)])
def test_an_interrupted_run_stops_its_workers_and_says_what_is_saved(tmp_path, signum, jobs):
    out = tmp_path / "out"
    results = out / "results.jsonl"
    process = start(tmp_path, jobs, out)
    try:
        wait_for(lambda: results.exists() and results.read_bytes().count(b"\n") >= 3, process)
        workers = descendants(process.pid)
        assert jobs == 1 or workers  # loky workers are running
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=15)
    finally:
        process.kill()
    assert process.returncode == 128 + signum  # 130, 143; 129 for the hang-up of a closed ssh session
    assert not (out / "results.jsonl.lock").exists() and not (out / "results.jsonl.running").exists()  # a clean stop
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]
    finished = len(read_run(results).entries)
    assert 2 <= finished < 60
    # our message is on its own line (loky's resource tracker, a separate process, may warn after it)
    assert (f"interrupted: {finished} finished (segmenter, document) pair(s) are in {results}; "
            "rerun with --resume to continue") in stderr.splitlines()
    assert "Traceback" not in stderr


def test_an_interrupted_dask_run_has_stored_the_pairs_it_finished(tmp_path):
    """On a Dask cluster, the pairs finished in an arbitrary order (Dask's among tasks submitted
    together): most waited behind an unfinished earlier pair to be stored in corpus order, and
    Ctrl-C at 79% of the restarts left 1 pair of 24 in the results file. Tasks now run in the
    order they are submitted, so pairs finish, and are stored, in corpus order, as with loky; and
    the pairs finished behind one still running are written as the run stops (tests/test_pairs_ahead.py).
    What may still be missing: pairs whose calls were all made but whose restarts had not come back
    to the client (a worker task holds several pairs' restarts)."""
    pytest.importorskip("distributed")
    out, calls = tmp_path / "out", tmp_path / "calls"
    results = out / "results.jsonl"
    # a local cluster of two workers; each pair makes 8 calls: 2 first (every pair's before any restart), then 3
    # restarts of the test and 3 of the shuffle control; interrupted once about 20 pairs have made theirs
    process = start(tmp_path, 2, out, "faults:logged", "--backend", "dask", env={"STABILITY_TEST_CALLS": str(calls)})
    try:
        wait_for(lambda: calls.exists() and calls.read_bytes().count(b"\n") >= 2 * 60 + 6 * 20, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    made = calls.read_text().split()
    finished = {f"d{marker[1:]:0>2}" for marker in set(made) if made.count(marker) == 8}
    stored = {doc for _, doc in read_run(results).entries}
    assert stored <= finished and len(finished) >= 15
    # at most the pairs on the workers (a task running and one queued on each) finished after the first unfinished one
    assert len(finished - stored) <= 4, (sorted(finished - stored), sorted(stored))


def test_an_interrupted_run_without_output_says_nothing_was_saved(tmp_path):
    process = start(tmp_path, 2, None)
    try:
        wait_for(lambda: len(descendants(process.pid)) >= 2, process)
        time.sleep(1)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=15)
    finally:
        process.kill()
    assert process.returncode == 130
    # our message is on its own line (loky's resource tracker, a separate process, may warn after it)
    assert any(line.startswith("interrupted: nothing was saved (no output directory") for line in stderr.splitlines())


def test_the_message_counts_what_is_on_disk(tmp_path):
    assert _saved(str(tmp_path)) == f"no (segmenter, document) pair was finished, {tmp_path / 'results.jsonl'} holds no results"
    (tmp_path / "results.jsonl").write_text('{"type": "run", "vers')  # a header cut mid-line
    assert _saved(str(tmp_path)).startswith("no (segmenter, document) pair was finished")


def test_the_cli_keeps_failures_on_resume_unless_retry_failed(tmp_path):
    from typer.testing import CliRunner

    from stability.cli import app

    out, log = tmp_path / "out", tmp_path / "calls.log"
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps({"id": m, "units": [f"{m} {j}" for j in range(12)]}) for m in ("a", "bad")) + "\n")
    config = tmp_path / "exp.toml"
    config.write_text(f'allow_plugins = true\n[corpus]\npath = "{corpus}"\n[segmenters.fault]\nsegmenter = "faults:Fault"\n'
                      f'kind = "sys_exit"\nlog = "{log}"\n[run]\nn_restarts = 2\n[output]\ndir = "{out}"\n')
    runner = CliRunner()
    first = runner.invoke(app, ["run", str(config), "--no-progress"])
    assert first.exit_code == 3 and "SystemExit raised by the segmenter" in first.stderr
    calls = log.read_text().count("call")
    again = runner.invoke(app, ["run", str(config), "--no-progress", "--resume"])
    assert again.exit_code == 3 and log.read_text().count("call") == calls
    retried = runner.invoke(app, ["run", str(config), "--no-progress", "--resume", "--retry-failed"])
    assert retried.exit_code == 3 and log.read_text().count("call") > calls


def test_the_worker_teardown_drops_only_the_manager_threads_key_error(monkeypatch):
    # joblib 1.6: a task submitted just before an interrupt makes loky's manager thread die with
    # KeyError while shutdown(kill_workers=True) kills the workers (seen about once in 20 runs
    # under load); that traceback is dropped, every other thread exception still reaches the hook
    from stability.isolation import _teardown_race_ignored

    seen = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append((args.thread.name, args.exc_type)))

    def raise_in(name, exc):
        def target():
            raise exc
        thread = threading.Thread(target=target, name=name)
        thread.start()
        thread.join()

    with _teardown_race_ignored():
        raise_in("ExecutorManagerThread", KeyError(72))
        raise_in("ExecutorManagerThread", RuntimeError("another failure"))
        raise_in("QueueFeederThread", KeyError(3))
    raise_in("ExecutorManagerThread", KeyError(4))
    assert seen == [("ExecutorManagerThread", RuntimeError), ("QueueFeederThread", KeyError),
                    ("ExecutorManagerThread", KeyError)]


def test_an_interrupt_while_the_reports_are_written_says_the_results_are_complete(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import stability.reporting
    from stability.cli import app

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(stability.reporting, "write_reports", interrupted)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", "-s", "even", "-s", "none", "-r", "2", "--no-progress", "--out", str(out)])
    assert result.exit_code == 130
    finished = len(read_run(out / "results.jsonl").entries)
    assert finished == 2 * 12  # the demo corpus: every pair finished
    assert result.stderr.splitlines() == [
        f"interrupted: the results are complete ({finished} finished (segmenter, document) pair(s) in "
        f"{out / 'results.jsonl'}); write the reports with `stability report {out}`"]
    assert "--resume" not in result.stderr


def test_a_second_interrupt_while_the_pairs_are_counted_keeps_the_message(tmp_path, monkeypatch):
    # an impatient second Ctrl-C (or a CI runner's second SIGTERM) came while the message counted the
    # finished pairs: the process ended with no message at all; now the count alone is left out
    from typer.testing import CliRunner

    import stability.reporting
    import stability.store
    from stability.cli import app

    real_scan = stability.store._scan

    def interrupted(*args, **kwargs):
        def again(*args, **kwargs):  # the second interrupt, while the results file is read to count
            raise KeyboardInterrupt
        monkeypatch.setattr(stability.store, "_scan", again)
        raise KeyboardInterrupt

    monkeypatch.setattr(stability.reporting, "write_reports", interrupted)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", "-s", "even", "-r", "2", "--no-progress", "--out", str(out)])
    assert result.exit_code == 130
    assert result.stderr.splitlines() == [
        f"interrupted: the finished (segmenter, document) pairs are in {out / 'results.jsonl'}; write the reports "
        f"with `stability report {out}`"]
    monkeypatch.setattr(stability.store, "_scan", real_scan)
    assert len(read_run(out / "results.jsonl").entries) == 12


def test_the_message_counts_the_pairs_without_reading_every_result_back(tmp_path, monkeypatch):
    # it read the whole file back (every record checked, about 2 s for 4,000 pairs) before saying
    # anything after a Ctrl-C, a window in which a second Ctrl-C lost the message
    from stability import evaluate
    from stability.results import StabilityResult

    evaluate({"even": "even", "none": "none"}, [["a"] * 12, ["b"] * 15], n_restarts=2, progress=False,
             output=tmp_path / "results.jsonl")

    def read_back(*args, **kwargs):
        raise AssertionError("a result was read back")

    monkeypatch.setattr(StabilityResult, "from_dict", read_back)
    assert _saved(str(tmp_path)).startswith("4 finished (segmenter, document) pair(s) are in")


def test_an_interrupt_before_the_command_starts_its_work_is_said(monkeypatch, capsys):
    """A Ctrl-C while `run` imported its modules, before its own handling began, exited 130
    without a word (typer's silent exit); seen once in 30 interrupts at 0.25-0.6 s."""
    import stability.cli as cli

    def interrupted_early(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_errors", interrupted_early)
    monkeypatch.setattr(cli, "_INTERRUPT_SAID", False)
    monkeypatch.setattr(cli, "_ARGV", cli._ARGV)  # main() sets it: restored after the test (reports print it)
    monkeypatch.setattr(sys, "argv", ["stability", "run", "-s", "even", "--no-progress"])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 130
    assert capsys.readouterr().err.splitlines() == ["interrupted: nothing was computed yet"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_segmenter_that_catches_everything_does_not_swallow_the_interrupt(tmp_path, signum):
    """A segmenter calling its model inside a bare `except:` caught the KeyboardInterrupt that
    Ctrl-C or SIGTERM raise in its call and returned: the run went on to its end and exited 0."""
    out = tmp_path / "out"
    results = out / "results.jsonl"
    process = start(tmp_path, 1, out, "faults:swallowing")
    try:
        wait_for(lambda: results.exists() and results.read_bytes().count(b"\n") >= 3, process)
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=15)
    finally:
        process.kill()
    assert process.returncode == 128 + signum, stderr
    finished = len(read_run(results).entries)
    assert 1 <= finished < 60
    assert (f"interrupted: {finished} finished (segmenter, document) pair(s) are in {results}; "
            "rerun with --resume to continue") in stderr.splitlines()


#: A sitecustomize for the test below: the import of ``stability.cli`` (numpy, typer, rich: what a
#: real start-up spends its 0.3 s on) announces itself in a file, then takes a minute, so that the
#: signal surely lands in it. Test code only; the package has no such hook.
SLOW_IMPORT = '''
import os, sys, time

class SlowCommandLine:
    def find_spec(self, name, path=None, target=None):
        if name == "stability.cli":
            open(os.environ["STABILITY_TEST_IMPORTING"], "w").close()
            time.sleep(60)
        return None

sys.meta_path.insert(0, SlowCommandLine())
'''


def _launchers() -> list[list[str]]:
    """``python -m stability`` and, where installed beside this Python, the ``stability`` script."""
    script = Path(sys.executable).with_name("stability")
    return [[sys.executable, "-m", "stability"]] + ([[str(script)]] if script.is_file() else [])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=lambda signum: signal.Signals(signum).name)
@pytest.mark.parametrize("launcher", _launchers(), ids=lambda command: "script" if len(command) == 1 else "module")
def test_an_interrupt_while_the_command_line_is_imported_ends_as_any_other(tmp_path, launcher, signum):
    """A Ctrl-C in the first 0.3 s of any command, while `import stability` loaded numpy and the
    command line, printed Python's KeyboardInterrupt traceback: the console script imported
    stability.cli (and the package's __init__ everything) before the tool's interrupt handling
    began. It now ends as other interrupts do: one line, exit code 130 (143 for SIGTERM)."""
    (tmp_path / "sitecustomize.py").write_text(SLOW_IMPORT)
    importing = tmp_path / "importing"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
           "STABILITY_TEST_IMPORTING": str(importing)}
    process = subprocess.Popen([*launcher, "segmenters"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        wait_for(importing.exists, process, limit=60)
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=15)
    finally:
        process.kill()
    assert "Traceback" not in stderr, stderr
    assert process.returncode == 128 + signum, stderr
    assert stderr.splitlines() == ["interrupted: nothing was computed yet"] and stdout == ""


def test_importing_the_package_loads_none_of_its_modules_until_a_name_is_used():
    """What lets the entry point set up its interrupt handling first: ``import stability`` runs
    no module of the package (nor numpy); every public name still imports, from its module, on
    first use (``from stability import evaluate``), as do submodules read as attributes."""
    code = ("import sys, stability, stability._entry\n"
            "print(sorted(m for m in sys.modules if m == 'numpy' or m.startswith('stability.')))\n"
            "from stability import evaluate, Segmentation\n"
            "import stability.runner, stability.segmentation\n"
            "print(evaluate is stability.runner.evaluate, Segmentation is stability.segmentation.Segmentation)\n"
            "print(stability.metrics.pk.__module__.startswith('stability.metrics'))\n"
            "missing = [n for n in stability.__all__ if getattr(stability, n, None) is None]\n"
            "print(missing, set(stability.__all__) <= set(dir(stability)))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["['stability._entry']", "True True", "True", "[] True"]
    import stability

    with pytest.raises(AttributeError, match="module 'stability' has no attribute 'evalute'"):
        stability.evalute  # noqa: B018


def test_what_type_checkers_see_of_the_package_is_what_it_imports_on_first_use():
    """The package's names are listed twice: imported under TYPE_CHECKING (what mypy and editors
    read) and in ``_EXPORTS`` (what ``__getattr__`` imports). Both lists, and ``__all__``, must name
    the same things from the same modules, or a name would type-check and fail at run time."""
    import ast

    import stability

    tree = ast.parse(Path(stability.__file__).read_text(encoding="utf-8"))
    guarded = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    seen = {alias.name: node.module for node in guarded.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert seen == {name: module for name, module in stability._EXPORTS.items()}
    assert sorted(set(stability.__all__) - {"__version__"}) == sorted(stability._EXPORTS)


def test_an_interrupt_before_an_overwriting_run_writes_says_the_pairs_there_are_an_earlier_runs(tmp_path, monkeypatch):
    # a Ctrl-C while an --overwrite run was still reading its corpus said "12 finished (segmenter,
    # document) pair(s) are in out/results.jsonl; rerun with --resume to continue", as if this
    # run had computed them; a resume would have continued the earlier run
    from typer.testing import CliRunner

    import stability.config
    from stability.cli import app

    out = tmp_path / "out"
    args = ["run", "-s", "even", "-r", "2", "--no-progress", "--out", str(out)]
    assert CliRunner().invoke(app, args).exit_code == 0

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(stability.config, "run_experiment", interrupted)
    result = CliRunner().invoke(app, [*args, "--overwrite"])
    assert result.exit_code == 130
    assert result.stderr.splitlines() == [
        f"interrupted: this run had not written to {out / 'results.jsonl'} yet: it holds an earlier run's 12 "
        "finished (segmenter, document) pair(s), unchanged"]


def test_pairs_finished_behind_a_running_one_are_kept_at_an_interrupt_and_resume_reuses_them(tmp_path):
    """The results file is written in corpus order: a pair finished while an earlier one still ran
    waited to be stored, and an interruption lost it (with 2 workers and a slow first document,
    every pair). Now they are written at the interruption, marked with their place, and --resume
    computes only the others, to the same results as a run never interrupted. Through the command
    line, with loky's worker processes scoring the results: a pair whose restarts are all back while
    its result was still being computed in a worker is scored at the interruption (with only the
    pairs whose result had come back, most of those the slow first document held back were lost)."""
    from stability import load_results

    out, calls, hold = tmp_path / "out", tmp_path / "calls", tmp_path / "hold"
    results = out / "results.jsonl"
    hold.touch()  # the first document's calls wait
    process = start(tmp_path, 2, out, "faults:held_first", env={"STABILITY_TEST_CALLS": str(calls),
                                                                 "STABILITY_TEST_HOLD": str(hold)})

    def done_behind() -> set[str]:  # documents after d00 whose pairs made every call (8, see above)
        made = calls.read_text().split() if calls.exists() else []
        return {marker for marker in set(made) if made.count(marker) == 8 and marker != "u0"}

    try:
        wait_for(lambda: len(done_behind()) >= 6, process)
        assert len(done_behind()) >= 6
        time.sleep(1)  # their results are scored, in a worker, and handed back
        finished = done_behind()
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
        hold.unlink()
    assert process.returncode == 130, stderr
    run = read_run(results)
    stored = {doc for _, doc in run.entries}
    assert "d00" not in stored
    # before: nothing stored at all; now every pair finished, but those whose restarts were still
    # coming back in a task with others' (a worker task holds several pairs' restarts)
    done = {f"d{marker[1:]:0>2}" for marker in finished}
    assert len(done & stored) >= len(done) - 4 and len(stored) >= 6, (sorted(done), sorted(stored))
    assert all(entry.document_index == int(doc[1:]) for (_, doc), entry in run.entries.items())  # each with its place
    assert f"interrupted: {len(stored)} finished (segmenter, document) pair(s) are in {results}" in stderr

    before = calls.read_text().split()
    process = start(tmp_path, 2, out, "faults:held_first", "--resume", env={"STABILITY_TEST_CALLS": str(calls)})
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    again = calls.read_text().split()[len(before):]
    assert not {f"d{marker[1:]:0>2}" for marker in again} & stored  # the pairs kept were not computed again
    whole = tmp_path / "whole"
    process = start(tmp_path, 2, whole, "faults:held_first", env={"STABILITY_TEST_CALLS": str(tmp_path / "calls2")})
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    resumed, fresh = load_results(out), load_results(whole / "results.jsonl")
    assert [r.document for r in resumed.documents["faults:held_first"]] == [f"d{i:02d}" for i in range(60)]
    assert [r.to_dict() for r in resumed.documents["faults:held_first"]] == \
        [r.to_dict() for r in fresh.documents["faults:held_first"]]
