"""Run the Examples sections of stability.metrics' docstrings (numpydoc examples must run)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "stability.metrics",
    "stability.metrics._common",
    "stability.metrics.windows",
    "stability.metrics.boundary",
    "stability.metrics.similarity",
    "stability.metrics.coverage",
    "stability.metrics.multi",
    "stability.metrics.report",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0
