"""The package is typed (PEP 561): a user's type checker reads its annotations.

Without the ``py.typed`` marker mypy skips an installed package ("module is installed, but
missing library stubs or py.typed marker") and every name from it is ``Any``.
``tests/typing/user_code.py`` is a user's script over the public API; ``mypy --strict`` must
accept it, the package found the way a user's mypy finds an installed one.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: tomli is a dependency there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
USER_CODE = Path(__file__).resolve().parent / "typing" / "user_code.py"

#: Seconds mypy may take on the user script (about 7 s with a cold cache on one core).
MYPY_TIMEOUT = 300


def test_every_package_ships_its_py_typed_marker():
    """setuptools before 69 copies ``py.typed`` into the wheel only when package-data names it
    (a wheel built with setuptools 65 had none before this was declared)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    packages = [pattern.rstrip("*") for pattern in config["packages"]["find"]["include"]]
    assert packages == ["stability", "segmenters"]
    for package in packages:
        assert (ROOT / package / "py.typed").is_file(), package
        assert "py.typed" in config.get("package-data", {}).get(package, []), package


def test_a_users_strict_mypy_accepts_the_public_api_and_its_documented_types(tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it comes with pip install -e '.[dev]')")
    # The checkout on PYTHONPATH is on the sys.path mypy asks the interpreter for: mypy treats
    # it as installed packages (read only with py.typed, their own errors not reported), while
    # the folder it runs in holds the user's code alone.
    path = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file=", "--cache-dir", str(tmp_path / "cache"),
         USER_CODE.name],
        cwd=USER_CODE.parent, env={**os.environ, "PYTHONPATH": os.pathsep.join(path)},
        capture_output=True, text=True, timeout=MYPY_TIMEOUT,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "error" not in completed.stdout, completed.stdout


def test_the_package_and_the_segmenters_type_check(tmp_path):
    """``mypy`` from the repository root (pyproject's [tool.mypy]: ``stability`` and
    ``segmenters``, default checks, for the Python running it) finds nothing; only three modules
    were checked before, and the rest had 143 errors, among them annotations that said less than
    the code did (``Sequence[float]`` where numpy arrays pass) and values that could be None
    unchecked. (Checked as Python 3.10 from 3.13, numpy 2.5's stubs, which need 3.12, rejected
    ``max()`` without arguments: each Python checks as itself.)"""
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it comes with pip install -e '.[dev]')")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["stability", "segmenters"]
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=MYPY_TIMEOUT,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_every_source_compiles_without_a_warning():
    """A docstring held ``\\ `` (an invalid escape sequence): Python compiles it with a
    DeprecationWarning today (a SyntaxWarning from 3.12, an error in a later version), shown to
    whoever imports the module with warnings on. Every module of the package, the segmenters,
    the benchmarks and the tests compiles with warnings turned into errors."""
    import warnings

    sources = [p for folder in ("stability", "segmenters", "benchmarks", "tests") for p in (ROOT / folder).rglob("*.py")]
    assert len(sources) > 100
    for path in sources:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
