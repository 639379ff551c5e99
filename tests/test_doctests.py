"""The Examples sections of the docstrings (numpydoc examples) run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "stability.segmentation",
    "stability.segmenter",
    "stability.registry",
    "stability.matching",
    "stability.permutations",
    "stability.runner",
    "stability.demo",
    "stability.summary",
    "stability.readers",
    "stability.scores",
    "stability.validation",
    "stability.metrics",
    "stability.metrics._common",
    "stability.metrics.windows",
    "stability.metrics.boundary",
    "stability.metrics.similarity",
    "stability.metrics.coverage",
    "stability.metrics.multi",
    "stability.metrics.report",
    "segmenters.c99",
    "segmenters.u00",
    "segmenters.texttiling",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0
