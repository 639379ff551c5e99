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
from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from itertools import repeat
from typing import Any

import numpy as np

__all__ = ["check_fields"]


#: The types a ``float`` and an ``int`` field accept (a bool is neither).
_NUMBER_TYPES = {float: (float, int, np.floating, np.integer), int: (int, np.integer)}


def _number_type(kind: type, accepted: tuple[type, ...]) -> bool:
    """Whether values of type ``kind`` belong in a number field accepting ``accepted``."""
    return issubclass(kind, accepted) and not issubclass(kind, bool)


def _is_float_vector(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype.kind == "f"


@lru_cache(maxsize=None)
def _by_type(hint: Any, kind: type) -> bool | None:
    """Whether a value of type ``kind`` has type ``hint`` when its type alone says so, else
    ``None`` (an array's dimensions, a container's items decide). Found once per annotation and
    type: the fields of a results file's thousands of records hold values of a few types each."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        verdicts = {_by_type(arg, kind) for arg in args}
        return True if True in verdicts else None if None in verdicts else False
    if hint is type(None):
        return kind is type(None)
    if hint in _NUMBER_TYPES:
        return _number_type(kind, _NUMBER_TYPES[hint])
    if hint is np.ndarray or origin in (tuple, dict):
        return None if issubclass(kind, origin or hint) else False
    return issubclass(kind, origin or hint)  # a class


def _all_of(hint: Any) -> Callable[[Iterable[Any]], bool]:
    """A function telling whether every item of a collection has type ``hint``, judging the
    items by their types where the types say (hundreds of numbers of one or two types)."""
    check, verdict = _checker(hint), partial(_by_type, hint)

    def conform(items: Iterable[Any]) -> bool:
        verdicts = set(map(verdict, set(map(type, items))))
        return False not in verdicts and (None not in verdicts or all(map(check, items)))
    return conform


@lru_cache(maxsize=None)
def _checker(hint: Any) -> Callable[[Any], bool]:
    """A function telling whether a value has type ``hint`` (the annotations used by the results
    dataclasses), built once per annotation: a results file holds thousands of records of a few
    annotations, with lists of hundreds of items in each."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        alternatives = tuple(_checker(arg) for arg in args)
        return lambda value: any(check(value) for check in alternatives)
    if hint is np.ndarray:
        return _is_float_vector
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            items = _all_of(args[0])
            return lambda value: isinstance(value, tuple) and items(value)
        checks = tuple(_checker(arg) for arg in args)
        return lambda value: (isinstance(value, tuple) and len(value) == len(checks)
                              and all(check(v) for check, v in zip(checks, value)))
    if origin is dict:
        keys, items = _all_of(args[0]), _all_of(args[1])
        return lambda value: isinstance(value, dict) and keys(value) and items(value.values())

    def decided(value: Any) -> bool:  # by its type
        kind: type = type(value)  # annotated: mypy does not see type[Any] as hashable for the cache
        return bool(_by_type(hint, kind))
    return decided


def _conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` has type ``hint``."""
    return _checker(hint)(value)


@lru_cache(maxsize=None)
def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """(name, annotation) of each field of dataclass ``cls``, in order."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


@lru_cache(maxsize=None)
def _names(cls: type) -> tuple[str, ...]:
    """The names of :func:`_fields`, in order."""
    return tuple(name for name, _ in _fields(cls))


def _is_record(kind: type) -> bool:
    """Whether values of type ``kind`` are dataclass instances (whose fields are checked in turn)."""
    return dataclasses.is_dataclass(kind) and not issubclass(kind, type)


@lru_cache(maxsize=4096)
def _reading(cls: type, kinds: tuple[type, ...]) -> tuple[tuple[tuple[int, Callable[[Any], bool]], ...],
                                                         tuple[int, ...]] | None:
    """How to check a record of dataclass ``cls`` whose fields hold values of types ``kinds``:
    ``None`` when a type refuses its field; else the fields whose values must still be checked
    (position, checker) and the positions of those holding a record. Found once per set of
    types: the records of a results file share a few."""
    verdicts = [_by_type(hint, kind) for (_, hint), kind in zip(_fields(cls), kinds)]
    if False in verdicts:
        return None
    return (tuple((i, _checker(hint)) for i, ((_, hint), verdict) in enumerate(zip(_fields(cls), verdicts))
                  if verdict is None),
            tuple(i for i, kind in enumerate(kinds) if _is_record(kind)))


def _all_conform(obj: Any) -> bool:
    """Whether every field of dataclass ``obj`` (and of its dataclass fields) has its declared
    type: :func:`check_fields`'s verdict, read once per set of types, then value by value only
    where the types do not say."""
    cls: type = type(obj)
    values = tuple(map(getattr, repeat(obj), _names(cls)))
    reading = _reading(cls, tuple(map(type, values)))
    if reading is None:
        return False
    checked, records = reading
    return all(check(values[i]) for i, check in checked) and all(_all_conform(values[i]) for i in records)


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
    if _all_conform(obj):
        return
    cls: type = type(obj)  # annotated: mypy does not see type[Any] as hashable for the cache
    for name, hint in _fields(cls):  # the fields in order: the first wrong one is named
        value = getattr(obj, name)
        if not _conforms(value, hint):
            shown = getattr(hint, "__name__", str(hint))
            raise TypeError(f"field {name!r} must be {shown}; received {type(value).__name__} {value!r:.60}")
        if _is_record(type(value)):
            check_fields(value)
