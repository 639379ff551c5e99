"""pyproject.toml's dependency floors and .ci/floors.txt, the versions .ci/run tests them at,
name the same packages and the same versions (a floor raised in one and not the other would
leave the floors untested or .ci/run testing versions pyproject no longer allows)."""

from __future__ import annotations

import re
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def _floors() -> dict[str, str]:
    """``{package: floor}`` of pyproject's dependencies (those for every Python)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    floors = {}
    for requirement in project["dependencies"]:
        if ";" in requirement:  # a backport for some Pythons only (tomli)
            continue
        name, floor = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", requirement).groups()
        floors[name.lower()] = floor
    return floors


def _pinned() -> dict[str, str]:
    lines = (ROOT / ".ci" / "floors.txt").read_text(encoding="utf-8").splitlines()
    pins = [line.split("#")[0].strip() for line in lines]
    return {name.lower(): version for name, version in (pin.split("==") for pin in pins if pin)}


def test_every_floor_is_pinned_at_a_release_of_that_floor():
    floors, pinned = _floors(), _pinned()
    assert set(floors) == set(pinned)
    for name, floor in floors.items():
        assert pinned[name] == floor or pinned[name].startswith(floor + "."), (name, floor, pinned[name])


def test_ci_installs_the_pins_as_constraints():
    assert "-c .ci/floors.txt" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
