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
from functools import lru_cache
from typing import Any

import numpy as np

__all__ = ["check_fields"]


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _conforms(value: Any, hint: Any) -> bool:
    """Whether ``value`` has type ``hint`` (the annotations used by the results dataclasses)."""
    if hint is Any:
        return True
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, arg) for arg in args)
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
            return all(_conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(_conforms(v, a) for v, a in zip(value, args))
    if origin is dict:
        return isinstance(value, dict) and all(_conforms(k, args[0]) and _conforms(v, args[1]) for k, v in value.items())
    if dataclasses.is_dataclass(hint):
        return isinstance(value, hint)
    return isinstance(value, origin or hint)


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
    for f in dataclasses.fields(obj):
        value, hint = getattr(obj, f.name), _hints(type(obj))[f.name]
        if not _conforms(value, hint):
            shown = getattr(hint, "__name__", str(hint))
            raise TypeError(f"field {f.name!r} must be {shown}; received {type(value).__name__} {value!r:.60}")
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            check_fields(value)
