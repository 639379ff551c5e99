"""The Examples sections of the docstrings (numpydoc examples) run and give what they show.

Every module of the ``stability`` and ``segmenters`` packages is collected (no list to keep up to
date); modules whose optional dependency is missing are skipped.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import segmenters
import stability


def _modules() -> list[str]:
    names = []
    for package in (stability, segmenters):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
            names.append(info.name)
    return sorted(names)


MODULES = _modules()


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # an optional extra that is not installed
        pytest.skip(f"{name}: {exc}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_the_core_modules_have_examples():
    """The modules users call first show how (the collection above would pass on no example)."""
    for name in ("stability.checks", "stability.stats", "stability.segmentation", "stability.runner",
                 "stability.metrics.windows", "segmenters.c99"):
        tests = doctest.DocTestFinder().find(importlib.import_module(name))
        assert sum(len(t.examples) for t in tests) > 0, name
