"""The package as a user installs it: a wheel built from the checkout, installed on its own (not
the editable install the tests otherwise import), runs the main job, the worker processes and the
registered segmenters. A module or a file left out of the packaging would pass every other test
and fail here."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What the build reads: the packaging of pyproject.toml and the two packages it ships.
SOURCES = ("pyproject.toml", "README.md", "stability", "segmenters")


def _missing_backend() -> str:
    """What keeps this environment from building a wheel offline, or ''."""
    if importlib.util.find_spec("setuptools") is None:
        return "setuptools (the build backend) is not installed"
    from importlib.metadata import version

    major, minor = (int(part) for part in version("setuptools").split(".")[:2])
    if (major, minor) < (70, 1) and importlib.util.find_spec("wheel") is None:
        return "setuptools before 70.1 builds wheels with the wheel package, which is not installed"
    return ""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The folder the wheel is installed in (``pip install --target``), built offline from a copy
    of the sources (building in the checkout would leave a build/ folder in it)."""
    missing = _missing_backend()
    if missing:
        pytest.skip(f"{missing}; the wheel is built offline, with what is installed")
    work = tmp_path_factory.mktemp("wheel")
    source, wheels, target = work / "source", work / "wheels", work / "installed"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels), str(source)],
                   check=True, capture_output=True, timeout=300)
    [wheel] = wheels.glob("*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    return target


def _python(installed: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python args`` with the installed wheel first on the path (its dependencies come from
    this environment), run away from the checkout."""
    path = os.pathsep.join([str(installed), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])
    return subprocess.run([sys.executable, *args], cwd=cwd, env={**os.environ, "PYTHONPATH": path},
                          capture_output=True, text=True, timeout=600)


def test_the_wheel_holds_every_module_of_the_two_packages(installed):
    for package in ("stability", "segmenters"):
        shipped = {p.relative_to(installed).as_posix() for p in (installed / package).rglob("*.py")}
        tracked = {p.relative_to(ROOT).as_posix() for p in (ROOT / package).rglob("*.py")
                   if "__pycache__" not in p.parts}
        assert tracked <= shipped, sorted(tracked - shipped)
        assert (installed / package / "py.typed").is_file(), package


#: Runs ``stability ARGS`` as the console script does, then writes to the file named first which
#: modules of the two packages were loaded from elsewhere than the installed wheel (this
#: environment's editable install would otherwise supply a module the wheel lacks).
RUN_AND_TRACE = """
import json, runpy, sys
from pathlib import Path
record, target = Path(sys.argv[1]), Path(sys.argv[2])
sys.argv = ["stability", *sys.argv[3:]]
try:
    runpy.run_module("stability", run_name="__main__")
    code = 0
except SystemExit as exc:
    code = exc.code
loaded = [getattr(m, "__file__", None) for n, m in list(sys.modules.items()) if n.split(".")[0] in ("stability", "segmenters")]
elsewhere = [f for f in loaded if f and not Path(f).is_relative_to(target)]
record.write_text(json.dumps({"code": code, "modules": len(loaded), "elsewhere": elsewhere}))
"""


def test_the_installed_wheel_runs_the_main_job_with_worker_processes(installed, tmp_path):
    record = tmp_path / "record.json"
    run = _python(installed, "-c", RUN_AND_TRACE, str(record), str(installed), "run", "-s", "c99", "-s", "even",
                  "--restarts", "4", "--limit", "4", "--jobs", "2", "--report-format", "json", "--no-progress",
                  cwd=tmp_path)
    traced = json.loads(record.read_text())
    assert traced["code"] in (0, None), run.stderr
    assert traced["modules"] > 20 and traced["elsewhere"] == [], traced
    summary = json.loads(run.stdout)["summary"]
    assert set(summary) == {"c99", "even"} and summary["even"]["content_blind"] is True


def test_the_installed_wheel_registers_the_same_segmenters(installed, tmp_path):
    """The wheel's own metadata declares every segmenter (this environment's editable install
    declares them too, so the names listed alone would not tell)."""
    from stability import available_segmenters

    script = ("import importlib.metadata as m, json; d = m.distribution('stability-harness'); "
              "print(json.dumps([str(d.locate_file('')), sorted(e.name for e in d.entry_points "
              "if e.group == 'stability.segmenters')]))")
    declared = _python(installed, "-c", script, cwd=tmp_path)
    assert declared.returncode == 0, declared.stderr
    location, names = json.loads(declared.stdout)
    assert Path(location) == installed
    assert set(names) == set(available_segmenters())
    listed = _python(installed, "-m", "stability", "segmenters", "--report-format", "json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert {entry["name"] for entry in json.loads(listed.stdout)["segmenters"]} == set(names)
