"""stability.shapes: the type check of records read back from results files.

The checker is built once per annotation (with a shortcut for tuples of numbers); these tests hold
it to the plain reading of each annotation, value by value, on every field annotation of the
results dataclasses."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stability.results import Failure, RestartScores, StabilityResult
from stability.shapes import _conforms, check_fields

HINTS = sorted({hint for cls in (StabilityResult, RestartScores, Failure)
                for hint in typing.get_type_hints(cls).values()}, key=repr)


def plain(value: Any, hint: Any) -> bool:
    """The annotation read value by value: the definition the checker must agree with."""
    if hint is Any:
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(plain(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (float, int, np.floating, np.integer)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if hint is np.ndarray:
        return isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind == "f"
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(plain(v, args[0]) for v in value)
        return len(value) == len(args) and all(plain(v, a) for v, a in zip(value, args))
    if origin is dict:
        return isinstance(value, dict) and all(plain(k, args[0]) and plain(v, args[1]) for k, v in value.items())
    if dataclasses.is_dataclass(hint):
        return isinstance(value, hint)
    return isinstance(value, origin or hint)


atoms = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=3),
                  st.integers(-5, 5).map(np.int64), st.floats(-1, 1).map(np.float64), st.just(np.bool_(True)),
                  st.just(np.zeros(2)), st.just(np.zeros((2, 2))), st.just(np.arange(3)))
values = st.recursive(atoms, lambda inner: st.one_of(st.lists(inner, max_size=4).map(tuple), st.lists(inner, max_size=3),
                                                      st.dictionaries(st.text(max_size=3), inner, max_size=3)),
                      max_leaves=10)


@pytest.mark.parametrize("hint", HINTS, ids=repr)
@given(value=values)
def test_the_checker_agrees_with_the_annotation_read_value_by_value(hint, value):
    assert _conforms(value, hint) is plain(value, hint)


@pytest.mark.parametrize("bad", [(1, True), (1, "2"), (1, 2.0), [1, 2], (1, None)])
def test_a_tuple_of_ints_refuses_any_other_item(bad):
    assert _conforms((1, 2, 3), tuple[int, ...]) and not _conforms(bad, tuple[int, ...])


def test_a_record_with_a_flag_among_its_boundaries_is_refused():
    result = StabilityResult.from_dict({**_record(), "boundaries": [2, 4]})
    check_fields(result)
    spoiled = dataclasses.replace(result, restart_boundaries=((2, 4), (2, True)))
    with pytest.raises(TypeError, match="restart_boundaries"):
        check_fields(spoiled)


def _record() -> dict[str, Any]:
    from stability import stability_test

    return stability_test("even", [f"u{i}" for i in range(8)], n_restarts=2, n_bootstrap=5).to_dict()
