"""The README runs as written (issue 13): every ```python block, and every ``stability`` /
``python -m stability`` command of its ```bash / ```console blocks, with this environment's
executables, in a temporary copy of what the commands read.

A command is not run when it installs something or is not a ``stability`` command (``pip
install``, ``python3 -m venv``, ``pytest``). One that reads ``../shared`` (by name, or through a
config file it names) is skipped when that folder is absent, and it is a slow one in any case
(minutes to hours): those run only with ``-m slow_readme``. The README's placeholders (``my_texts/``,
``my_talks/``, ``mypkg.seg:segment``, ``ref.jsonl``, ``hyp.jsonl``) are made here, in the temporary folder.
Lines that start a service in the background (``dask scheduler ... &``, ``dask worker ... &``) are
started as written, once, by the command that needs them (``--scheduler``), and stopped after the
module.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import SHARED

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BIN = Path(sys.executable).parent

#: Exit codes the README documents for a command, when not 0 (none today).
EXPECTED_CODES: dict[str, int] = {}


def _blocks(*languages: str) -> list[str]:
    pattern = r"^```(?:" + "|".join(languages) + r")\n(.*?)^```"
    return re.findall(pattern, README, flags=re.S | re.M)


@dataclass(frozen=True)
class Command:
    line: str
    argv: tuple[str, ...]  # empty: not run (see skip)
    skip: str = ""
    shared: bool = False  # reads ../shared
    service: bool = False  # a background service (a line ending in "&")

    @property
    def id(self) -> str:
        return self.line.split("#")[0].strip()[:70]


def _reads_shared(words: list[str]) -> bool:
    """The command names ../shared, or a file of the checkout that does (a config)."""
    for word in words:
        if "../shared" in word:
            return True
        path = ROOT / word
        if word.endswith(".toml") and path.is_file() and "shared/" in path.read_text(encoding="utf-8"):
            return True
    return False


def _command(line: str) -> Command:
    words = shlex.split(line, comments=True)
    if words[-1:] == ["&"] and words[0] == ".venv/bin/dask":
        return Command(line, (str(BIN / "dask"), *words[1:-1]), skip="a service, started by the command using it",
                       service=True)
    if words[:1] in (["stability"], [".venv/bin/stability"]):
        argv = (str(BIN / "stability"), *words[1:])
    elif words[:3] in (["python", "-m", "stability"], [".venv/bin/python", "-m", "stability"]):
        argv = (sys.executable, "-m", "stability", *words[3:])
    else:
        return Command(line, (), skip="installs something or is not a stability command")
    return Command(line, argv, shared=_reads_shared(words))


def readme_commands() -> list[Command]:
    lines = [line.strip() for block in _blocks("bash", "console") for line in block.splitlines()]
    return [_command(line.removeprefix("$ ")) for line in lines if line and not line.startswith("#")]


COMMANDS = readme_commands()


def _texts(folder: Path) -> None:
    """``my_texts/``: three plain-text documents of several topics (sentences of the demo corpus)."""
    from stability.demo import demo_corpus

    (folder / "my_texts").mkdir()
    for doc in demo_corpus(n_documents=3, seed=5):
        (folder / "my_texts" / f"{doc.id}.txt").write_text(" ".join(doc.units), encoding="utf-8")


def _talks(folder: Path) -> None:
    """``my_talks/``: three transcripts as WebVTT captions (a demo document's sentence a cue, two
    seconds each), each with its chapters track (a chapter per reference segment)."""
    import html

    from stability.demo import demo_corpus

    def stamp(seconds: int) -> str:
        return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.000"

    def vtt(cues: list[tuple[int, int, str]]) -> str:
        return "WEBVTT\n\n" + "\n".join(f"{stamp(a)} --> {stamp(b)}\n{text}\n" for a, b, text in cues)

    (folder / "my_talks").mkdir()
    for doc in demo_corpus(n_documents=3, seed=5):
        name = doc.id.replace("/", "-")
        cues = [(2 * i, 2 * i + 2, f"<v Speaker {i % 2 + 1}>{html.escape(' '.join(unit.split()), quote=False)}") for i, unit in enumerate(doc.units)]
        chapters = [(2 * start, 2 * end, f"Chapter {j + 1}") for j, (start, end) in enumerate(doc.references[0].segments)]
        (folder / "my_talks" / f"{name}.vtt").write_text(vtt(cues), encoding="utf-8")
        (folder / "my_talks" / f"{name}.chapters.vtt").write_text(vtt(chapters), encoding="utf-8")


def _plugin(folder: Path) -> None:
    """``mypkg.seg:segment``: a segmenter in a package of the user's (on PYTHONPATH)."""
    (folder / "mypkg").mkdir()
    (folder / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "mypkg" / "seg.py").write_text(
        "def segment(units):\n    return [len(units) // 2] if len(units) > 1 else []\n", encoding="utf-8")


def _segmentations(folder: Path) -> None:
    """``ref.jsonl`` and ``hyp.jsonl``: two documents' reference and hypothesis segmentations."""
    (folder / "ref.jsonl").write_text('{"id": "a", "masses": [3, 4, 2]}\n{"id": "b", "masses": [5, 5]}\n',
                                      encoding="utf-8")
    (folder / "hyp.jsonl").write_text('{"id": "a", "masses": [2, 6, 1]}\n{"id": "b", "masses": [4, 6]}\n',
                                      encoding="utf-8")


#: What the README's placeholders stand for, made in the workspace.
PLACEHOLDERS = {"my_texts/": _texts, "my_talks/": _talks, "mypkg.seg:segment": _plugin, "ref.jsonl": _segmentations}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A checkout-like folder: ``configs/`` copied, ``../shared`` linked when it exists, the
    placeholders made. The commands run there in README order (a report reads an earlier run)."""
    root = tmp_path_factory.mktemp("readme")
    checkout = root / "checkout"
    checkout.mkdir()
    shutil.copytree(ROOT / "configs", checkout / "configs")
    if SHARED.is_dir():
        (root / "shared").symlink_to(SHARED, target_is_directory=True)
    for placeholder, make in PLACEHOLDERS.items():
        if any(placeholder in c.line for c in COMMANDS):
            make(checkout)
    return checkout


def test_readme_commands_are_found():
    run = [c.id for c in COMMANDS if c.argv]
    assert len(run) >= 10 and any("python -m stability" in c for c in run), run
    assert any(c.skip and "pip install" in c.line for c in COMMANDS)


def _marks(command: Command) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow_readme] if command.shared else []


@pytest.fixture(scope="module")
def services(workspace):
    """The README's background services (a Dask scheduler and its workers), as written; the
    scheduler's address must answer before the command needing them runs."""
    import socket
    import time

    pytest.importorskip("distributed")
    started = [subprocess.Popen(c.argv, cwd=workspace, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for c in COMMANDS if c.service]
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", 8786), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the README's Dask scheduler did not start"
                time.sleep(0.2)
        time.sleep(3)  # the workers register with the scheduler
        yield started
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.wait(timeout=30)


@pytest.mark.parametrize("command", [pytest.param(c, id=c.id, marks=_marks(c)) for c in COMMANDS])
def test_readme_command_runs_as_written(command, workspace, request):
    if command.skip:
        pytest.skip(command.skip)
    if "--scheduler" in command.argv:
        request.getfixturevalue("services")
    if command.shared:
        if not SHARED.is_dir():
            pytest.skip("reads ../shared, which is not available")
        if "slow_readme" not in (request.config.getoption("markexpr") or ""):
            pytest.skip("reads ../shared (minutes or more): runs with -m slow_readme")
    env = {**os.environ, "PYTHONPATH": str(workspace), "COLUMNS": "120"}
    # the commands reading ../shared run whole studies (the README gives their duration): hours at most
    done = subprocess.run(command.argv, cwd=workspace, env=env, capture_output=True, text=True,
                          timeout=3 * 3600 if command.shared else 600)
    expected = EXPECTED_CODES.get(command.id, 0)
    assert done.returncode == expected, f"{command.line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def test_readme_python_blocks_run_as_written(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = _blocks("python")
    assert len(blocks) >= 2
    for number, block in enumerate(blocks):
        namespace: dict = {}
        exec(compile(block, f"README.md python block {number + 1}", "exec"), namespace)
        if "CorpusResult(" in block:  # the "From Python" block shows what it prints
            assert repr(namespace["corpus"]).startswith("CorpusResult(2 segmenters x 4 documents")
            assert "| Pk | WD | B |" in capsys.readouterr().out
