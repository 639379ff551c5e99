"""One validation template for parameters: integers, reals, booleans and choices.

Every public function of the project validates its input once, at the boundary, and says what it
expected and what it received (``name must be <expected>; received <value>``). These helpers are
that template; modules, segmenters and readers use them instead of writing their own checks, so a
boolean is never read as an integer, a string ``"no"`` never as ``True``, and every message has the
same shape.

Examples
--------
>>> check_int(3, "n_restarts", low=1)
3
>>> check_int(True, "n_restarts")
Traceback (most recent call last):
...
stability.exceptions.InvalidTypeError: n_restarts must be an integer; received bool True
>>> check_real(0.5, "ci_width", low=0, high=1, low_open=True)
0.5
>>> check_choice("raise", "on_error", ("record", "raise"))
'raise'
"""

from __future__ import annotations

import difflib
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .exceptions import InvalidParameterError, InvalidTypeError, _short_repr

__all__ = ["check_int", "check_real", "check_bool", "check_choice", "check_folder", "check_units", "array_as_list", "did_you_mean",
           "counted", "first_few", "and_joined", "lone_surrogate", "listed"]


def _bounds(low: float | None, high: float | None, low_open: bool = False, high_open: bool = False) -> str:
    parts = []
    if low is not None:
        parts.append(f"{'>' if low_open else '>='} {low}")
    if high is not None:
        parts.append(f"{'<' if high_open else '<='} {high}")
    return " and ".join(parts)


def check_int(value: Any, name: str, *, low: int | None = None, high: int | None = None,
              none: bool = False) -> Any:
    """Return ``value`` as a Python int within ``[low, high]`` (``None`` too when ``none``).

    Booleans, floats and strings are refused with :class:`~stability.exceptions.InvalidTypeError`;
    an integer out of range with :class:`~stability.exceptions.InvalidParameterError`.
    """
    prefix = "None or " if none else ""
    if value is None and none:
        return None
    if isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError.make(name, f"{prefix}an integer", value)
    try:
        number = operator.index(value)
    except TypeError:
        raise InvalidTypeError.make(name, f"{prefix}an integer", value) from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise InvalidParameterError.make(name, f"{prefix}an integer {_bounds(low, high)}", value)
    return number


def check_real(value: Any, name: str, *, low: float | None = None, high: float | None = None,
               low_open: bool = False, high_open: bool = False, none: bool = False) -> Any:
    """Return ``value`` as a finite float within its bounds (open bounds with ``low_open`` /
    ``high_open``; ``None`` too when ``none``); booleans and strings are refused."""
    prefix = "None or " if none else ""
    if value is None and none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError.make(name, f"{prefix}a real number", value)
    try:
        x = float(value)
    except OverflowError:  # an int beyond float64
        raise InvalidParameterError.make(name, f"{prefix}a finite number", value) from None
    if not math.isfinite(x):
        raise InvalidParameterError.make(name, f"{prefix}a finite number", value)
    too_low = low is not None and (x < low or (low_open and x == low))
    too_high = high is not None and (x > high or (high_open and x == high))
    if too_low or too_high:
        raise InvalidParameterError.make(name, f"{prefix}a number {_bounds(low, high, low_open, high_open)}", value)
    return x


def check_bool(value: Any, name: str) -> bool:
    """Return ``value`` if it is a boolean (``numpy.bool_`` included); anything else, the strings
    ``"no"`` or ``"false"`` and the integers 0 and 1 included, is refused."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InvalidTypeError.make(name, "true or false", value)


def check_folder(path: Any, name: str, *, parameter: str | None = None, what: str = "a folder") -> Any:
    """``path``, a folder to write into, when it is one or can be made: not a file, nor under a
    file (it could never hold what a run writes, and would fail only once the run is done).
    ``parameter``: the keyword the message is about, for a front end to say as its flag (``None``
    when ``name`` already says the file and key); ``what``: what the message says ``name`` must be.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> (folder / "notes.txt").write_text("")
    0
    >>> check_folder(folder / "notes.txt" / "results", "out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: out must be a folder; received '.../notes.txt/results', under '.../notes.txt', which is a file
    """
    from pathlib import Path

    if "\0" in str(path):  # no file system names a folder so (os.stat raised ValueError)
        raise InvalidParameterError(f"{name} must be {what} path without a NUL character; received {str(path)!r}",
                                    parameter=parameter)
    for part in (Path(path), *Path(path).parents):
        if part.exists():
            if part.is_dir():
                return path
            where = "which is a file" if part == Path(path) else f"under {str(part)!r}, which is a file"
            raise InvalidParameterError(f"{name} must be {what}; received {str(path)!r}, {where}",
                                        parameter=parameter)
    return path


def listed(value: Any) -> bool:
    """Whether ``value`` gives a list of names (globs, columns, metrics) when iterated: an iterable
    that is neither text (``str``, ``bytes``) nor a mapping, whose keys are no list someone wrote
    (an experiment file's ``pattern = {"*.jsonl" = 1}`` is a mistake, not one glob).

    >>> [listed(v) for v in (["a", "b"], ("a",), "ab", b"ab", {"a": 1}, 3)]
    [True, True, False, False, False, False]
    """
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping))


#: What a document's units must be: a string given instead would be read one unit per character.
UNITS_EXPECTED = ("a sequence of strings, one per unit (cut a raw text with a sentence splitter, "
                  "stability.splitters.get_splitter)")


def array_as_list(units: Any) -> Any:
    """``units`` (or any values) as a list when it is a one-dimensional array (a numpy array, a
    pandas Series: ``df["sentence"].values``), which is no :class:`~collections.abc.Sequence`;
    anything else as it is, for the checks to judge (:func:`check_units`). The values become
    Python's own (``tolist``): ``'One.'``, not ``np.str_('One.')``; ``10``, not ``np.int64(10)``.

    >>> import numpy as np
    >>> array_as_list(np.array(["One.", "Two."]))
    ['One.', 'Two.']
    >>> array_as_list("One. Two.")
    'One. Two.'
    """
    if getattr(units, "ndim", None) == 1 and callable(getattr(units, "tolist", None)):
        return units.tolist()
    return units


def check_units(units: Any, name: str = "units") -> None:
    """Refuse ``units`` unless it is a sequence of strings; a string is refused, not read one unit
    per character.

    >>> check_units(["One.", "Two."])
    >>> check_units("One. Two.")
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidTypeError: units must be a sequence of strings, one per unit (cut a raw text with a sentence splitter, stability.splitters.get_splitter); received str 'One. Two.'
    """
    if isinstance(units, (str, bytes)) or not isinstance(units, Sequence):
        raise InvalidTypeError.make(name, UNITS_EXPECTED, units)
    # the types present, gathered at C speed (this runs on every segmenter call of every restart)
    if all(issubclass(kind, str) for kind in set(map(type, units))):
        return
    for i, unit in enumerate(units):
        if not isinstance(unit, str):
            raise InvalidTypeError.make(f"{name}[{i}]", "a string", unit)


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(text: str) -> str | None:
    """What is wrong with ``text`` when it holds a lone surrogate, else ``None``.

    A lone surrogate is half of a character (as a tool counting UTF-16 code units leaves when it
    cuts a text inside an emoji, or a JSON escape such as ``"\\ud83d"`` gives): no text can be
    written or hashed with one, so the readers refuse such a unit or id, and so does
    :class:`~stability.Document`. The message goes after ``<name> must be text; ``.

    >>> lone_surrogate("caf\\u00e9 \\U0001F600") is None
    True
    >>> print(lone_surrogate("ab\\ud83d"))
    it holds the lone surrogate '\\ud83d' at character 2, half of a character (as a text cut inside an emoji leaves): 'ab\\ud83d'
    """
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return (f"it holds the lone surrogate {found.group()!r} at character {found.start()}, half of a character "
            f"(as a text cut inside an emoji leaves): {_short_repr(text)}")


def counted(n: Any, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1, for messages and titles.

    >>> counted(1, "document"), counted(3, "restart")
    ('1 document', '3 restarts')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def first_few(values: Sequence[Any], limit: int = 5, form: Callable[[Any], str] = repr) -> str:
    """The first ``limit`` of ``values`` for a message, each as ``form`` gives it, joined by commas,
    ``...`` after them when there are more.

    >>> first_few(["a", "b", "c"], 2), first_few([3, 4], form=str)
    ("'a', 'b', ...", '3, 4')
    """
    return ", ".join(form(value) for value in values[:limit]) + (", ..." if len(values) > limit else "")


def and_joined(words: Sequence[str]) -> str:
    """``words`` as a sentence lists them: ``a``, ``a and b``, ``a, b and c``.

    >>> and_joined(["P"]), and_joined(["P", "R", "F1(ref)"])
    ('P', 'P, R and F1(ref)')
    """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def did_you_mean(value: Any, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest choice, or ``""``: first the one choice spelt the
    same but for case (a report's title typed as a name: ``Pk``, ``WD``), which difflib, comparing
    characters as they are, found too far off to name.

    >>> did_you_mean("WD", ["pk", "wd", "b"]), did_you_mean("pkk", ["pk", "wd"]), did_you_mean("zz", ["pk"])
    ("; did you mean 'wd'?", "; did you mean 'pk'?", '')
    """
    names = [str(c) for c in choices]
    same = [name for name in names if name.casefold() == str(value).casefold()]
    if len(same) == 1:
        return f"; did you mean {same[0]!r}?"
    close = difflib.get_close_matches(str(value), names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def check_choice(value: Any, name: str, choices: Iterable[Any]) -> Any:
    """Return ``value`` if it is one of ``choices``; otherwise an error listing them, with the
    closest one suggested."""
    options = tuple(choices)
    if isinstance(value, str) or not isinstance(value, (list, dict, set)):
        if value in options:
            return value
    listed = ", ".join(repr(c) for c in options if c is not None)
    if None in options:  # a config file cannot write None: the setting is then left out
        listed += " (or None: leave it out)"
    error = InvalidParameterError.make(name, f"one of {listed}", value)
    raise InvalidParameterError(str(error) + did_you_mean(value, [c for c in options if isinstance(c, str)]), parameter=name)
