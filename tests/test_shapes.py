"""stability.shapes: the type check of records read back from results files.

The checker is built once per annotation, judges a value by its type where the type says
(``_by_type``: found once per annotation and type) and a record by its fields' types once per set of
types; these tests hold it to the plain reading of each annotation, value by value, on every field
annotation of the results dataclasses, and a refused record to the message naming its first wrong
field in order."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stability.results import Failure, RestartScores, StabilityResult
from stability.shapes import _by_type, _conforms, check_fields

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


@pytest.mark.parametrize("hint", HINTS, ids=repr)
@given(value=values)
def test_a_verdict_by_type_alone_is_the_annotations(hint, value):
    assert _by_type(hint, type(value)) in (None, plain(value, hint))


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


def _spoiled(record: Any, **fields: Any) -> Any:
    """A copy of dataclass ``record`` with ``fields`` set, as a damaged file's record may hold
    them (no check on the way)."""
    copy = dataclasses.replace(record)
    for name, value in fields.items():
        object.__setattr__(copy, name, value)
    return copy


RESULT = StabilityResult.from_dict(_record())
FAILURE = Failure("even", "d1", "ValueError: no", restart=2, seed=0, stream="within")


@pytest.mark.parametrize("record, name", [pytest.param(record, f.name, id=f"{type(record).__name__}.{f.name}")
                                          for record in (RESULT, RESULT.shuffle, FAILURE)
                                          for f in dataclasses.fields(record)])
def test_every_field_of_a_wrong_type_is_named(record, name):
    hint = typing.get_type_hints(type(record))[name]
    shown = getattr(hint, "__name__", str(hint))
    spoiled = _spoiled(record, **{name: ["x"]})
    with pytest.raises(TypeError) as refused:
        check_fields(spoiled if record is not RESULT.shuffle else _spoiled(RESULT, shuffle=spoiled))
    assert str(refused.value) == f"field {name!r} must be {shown}; received list ['x']"


@pytest.mark.parametrize("fields, named", [
    ({"document": 5, "seed": "0"}, "field 'document' must be str | None; received int 5"),
    # the first field's type passes, one of its items does not: still named before a later field
    ({"restart_boundaries": ((2, 4), (2, True)), "stopped_early": None},
     "field 'restart_boundaries' must be tuple; received tuple ((2, 4), (2, True))"),
    ({"f1_ci": (0.5,), "references": [[1]]}, "field 'f1_ci' must be tuple; received tuple (0.5,)"),
    # a field of the shuffle control comes before the fields after ``shuffle``, after those before it
    ({"shuffle": "shuffle.f1", "stopped_early": None}, "field 'f1' must be float; received str '1'"),
    ({"shuffle": "shuffle.f1", "seed": True}, "field 'seed' must be int; received bool True"),
])
def test_the_first_wrong_field_in_order_is_named(fields, named):
    if fields.get("shuffle") == "shuffle.f1":
        fields["shuffle"] = _spoiled(RESULT.shuffle, f1="1")
    with pytest.raises(TypeError) as refused:
        check_fields(_spoiled(RESULT, **fields))
    assert str(refused.value) == named
    check_fields(RESULT)  # the types of a refused record are not remembered as accepted
    check_fields(FAILURE)


def test_a_results_file_with_a_wrong_field_is_refused_naming_line_and_field(tmp_path):
    from stability import evaluate
    from stability.exceptions import CorpusFormatError
    from stability.store import load_results

    out = tmp_path / "results.jsonl"
    evaluate({"even": "even"}, [[f"u{i}" for i in range(8)]] * 3, n_restarts=2, progress=False, output=out)
    load_results(out)
    lines = out.read_text().splitlines(keepends=True)
    record = json.loads(lines[2])
    record["result"]["deterministic"] = "yes"
    lines[2] = json.dumps(record) + "\n"
    out.write_text("".join(lines))
    with pytest.raises(CorpusFormatError) as refused:
        load_results(out)
    assert str(refused.value) == (f"{out}:3: malformed result record (TypeError: field 'deterministic' must be "
                                  "bool | None; received str 'yes')")
