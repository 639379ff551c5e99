"""Checking that a record read back from a file has the types its dataclass declares.

Results files and JSON reports are data from outside: a damaged or hand-edited record may hold
a list where a label belongs, or a string where a flag belongs. :func:`check_fields` compares
every field of a loaded :class:`~stability.results.StabilityResult` or
:class:`~stability.results.Failure` with its annotation (the single declaration of its type),
so the reader can refuse the record, naming the file and line, before anything renders it.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

__all__ = ["check_fields"]


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


#: The types a ``float`` and an ``int`` field accept (a bool is neither).
_NUMBER_TYPES = {float: (float, int, np.floating, np.integer), int: (int, np.integer)}


def _number_type(kind: type, accepted: tuple[type, ...]) -> bool:
    """Whether values of type ``kind`` belong in a number field accepting ``accepted``."""
    return issubclass(kind, accepted) and not issubclass(kind, bool)


def _is_float_vector(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind == "f"


@lru_cache(maxsize=None)
def _checker(hint: Any) -> Callable[[Any], bool]:
    """A function telling whether a value has type ``hint`` (the annotations used by the results
    dataclasses), built once per annotation: a results file holds thousands of records of a few
    annotations, with lists of hundreds of items in each."""
    if hint is Any:
        return lambda value: True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        alternatives = tuple(_checker(arg) for arg in args)
        return lambda value: any(check(value) for check in alternatives)
    if hint is type(None):
        return lambda value: value is None
    if hint in _NUMBER_TYPES:
        accepted = _NUMBER_TYPES[hint]
        return lambda value: _number_type(type(value), accepted)
    if hint is np.ndarray:
        return _is_float_vector
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] in _NUMBER_TYPES:  # hundreds of items of one or two types: judge the types
                numbers = _NUMBER_TYPES[args[0]]
                return lambda value: (isinstance(value, tuple)
                                      and all(_number_type(t, numbers) for t in set(map(type, value))))
            item = _checker(args[0])
            return lambda value: isinstance(value, tuple) and all(map(item, value))
        items = tuple(_checker(arg) for arg in args)
        return lambda value: (isinstance(value, tuple) and len(value) == len(items)
                              and all(check(v) for check, v in zip(items, value)))
    if origin is dict:
        key, item = _checker(args[0]), _checker(args[1])
        return lambda value: isinstance(value, dict) and all(key(k) and item(v) for k, v in value.items())
    kind: Any = hint if dataclasses.is_dataclass(hint) else (origin or hint)  # a class (or union of classes)
    return lambda value: isinstance(value, kind)


def _conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` has type ``hint``."""
    return _checker(hint)(value)


def check_fields(obj: Any) -> None:
    """Raise ``TypeError`` naming the first field of dataclass ``obj`` (and of its dataclass
    fields) whose value does not have its declared type.

    Examples
    --------
    >>> from stability.results import Failure
    >>> check_fields(Failure("even", "d1", "ValueError: no"))
    >>> check_fields(Failure(["even"], "d1", "ValueError: no"))
    Traceback (most recent call last):
    ...
    TypeError: field 'segmenter' must be str; received list ['even']
    """
    cls: type = type(obj)  # annotated: mypy does not see type[Any] as hashable for the cache
    for f in dataclasses.fields(obj):
        value, hint = getattr(obj, f.name), _hints(cls)[f.name]
        if not _conforms(value, hint):
            shown = getattr(hint, "__name__", str(hint))
            raise TypeError(f"field {f.name!r} must be {shown}; received {type(value).__name__} {value!r:.60}")
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            check_fields(value)
