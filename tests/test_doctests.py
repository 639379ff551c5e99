"""The Examples sections of the docstrings (numpydoc examples) run and give what they show.

Every module of the ``stability`` and ``segmenters`` packages is collected (no list to keep up to
date); modules whose optional dependency is missing are skipped.
"""

from __future__ import annotations

import dataclasses
import doctest
import re
import inspect
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


def test_the_terminal_table_s_examples_break_their_lines_where_they_show():
    """The examples above compare with NORMALIZE_WHITESPACE, under which a line break and a space
    are the same: ``flowed``'s example showed a meaning on one line at 30 columns (``room for 30 -
    (1 + 7) = 22 cells``, the key column counted one cell wide, not its header's four) where the
    code gives two lines, and passed. Where a function's work is to break lines, the examples show
    the breaks exactly."""
    from stability.reporting.formats import table

    assert doctest.testmod(table, optionflags=0).failed == 0


def test_the_core_modules_have_examples():
    """The modules users call first show how (the collection above would pass on no example)."""
    for name in ("stability.checks", "stability.stats", "stability.segmentation", "stability.runner",
                 "stability.metrics.windows", "segmenters.c99"):
        tests = doctest.DocTestFinder().find(importlib.import_module(name))
        assert sum(len(t.examples) for t in tests) > 0, name


def _documented(obj) -> set[str]:
    """The names a numpydoc docstring's Parameters (or Attributes) section gives an entry
    (``encoding, encoding_errors : str`` names two)."""
    from stability.configkeys import parameters

    return set(parameters(inspect.getdoc(obj), sections=("Parameters", "Attributes")))


#: The public classes built by users (the result classes are built by the library).
BUILT_BY_USERS = ("Document", "Segmentation", "Settings")


@pytest.mark.parametrize("name", [n for n in stability.__all__ if inspect.isfunction(getattr(stability, n))]
                         + list(BUILT_BY_USERS))
def test_public_callables_document_every_parameter(name):
    obj = getattr(stability, name)
    wanted = [p.name for p in inspect.signature(obj).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert [p for p in wanted if p not in _documented(obj)] == [], f"{name}: parameters without an entry"


def test_every_warning_category_and_the_pair_of_register_are_exported():
    """A user filters a warning by its category (``filterwarnings("error", category=...)``) and
    undoes a ``register``: SettingsWarning and unregister were only in their submodules, beside
    ResultsWarning, CorpusWarning and register at the top."""
    warning_classes = set()
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        warning_classes |= {obj for obj in vars(module).values() if inspect.isclass(obj)
                            and issubclass(obj, Warning) and obj.__module__.startswith("stability")}
    exported = {getattr(stability, name) for name in stability.__all__}
    assert sorted(c.__name__ for c in warning_classes - exported) == []
    assert {"register", "unregister"} <= set(stability.__all__)


#: Public names that are type aliases: no docstring of their own to hold examples (the module's
#: docstring, :mod:`stability.segmenter`, says what they are).
TYPE_ALIASES = ("SegmenterOutput",)


@pytest.mark.parametrize("name", [n for n in stability.__all__ if n != "__version__"])
def test_every_public_name_has_an_examples_section_that_runs(name):
    """Every name of ``stability.__all__`` shows how it is used, in a numpydoc ``Examples`` section
    of its own docstring (not one inherited from a base class), which the collection above runs:
    the result classes a notebook user meets first (CorpusResult, StabilityResult,
    SegmenterSummary, Stat, Failure), ``available_segmenters``, ``unregister`` and the errors and
    warnings had none."""
    obj = getattr(stability, name)
    if name in TYPE_ALIASES:
        assert not inspect.isclass(obj) and not inspect.isfunction(obj)
        return
    own = obj.__doc__ or ""
    assert re.search(r"^\s*Examples\n\s*--------\n", own, re.MULTILINE), f"{name}: no Examples section"
    tests = doctest.DocTestFinder(recurse=False).find(obj, name)
    assert sum(len(t.examples) for t in tests) > 0, f"{name}: an Examples section without an example"


@pytest.mark.parametrize("name", [n for n in stability.__all__ if dataclasses.is_dataclass(getattr(stability, n))])
def test_public_result_classes_document_every_field(name):
    """``help(result.summary["c99"])`` in a notebook should say what each attribute holds, in a
    numpydoc Attributes section (of the class or a base class): SegmenterSummary, Stat and
    Failure said it in prose, with some fields (``n_failed``, ``seed``, ``traceback``) not at all."""
    cls = getattr(stability, name)
    documented = set().union(*(_documented(base) for base in cls.__mro__ if dataclasses.is_dataclass(base)))
    assert [f.name for f in dataclasses.fields(cls) if f.name not in documented] == [], name
