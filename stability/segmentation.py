"""One convention for segmentations, and every conversion to and from it.

A document has ``n`` units ``0 .. n-1``. A segmentation is the sorted set of **boundaries** ``b``
with ``1 <= b <= n-1``; ``b`` means "a new segment starts at unit ``b``" (a Python slice cut
point, equal to Lamprier et al.'s ``b`` with 1-based units).

The other encodings met in the field convert losslessly:

============  =====================================  =========================
encoding      example for boundaries ``(3, 7)``       who uses it
============  =====================================  =========================
masses        ``(3, 4, 2)`` (segment sizes, sum n)    segeval's default
gap string    ``"00100010"`` (one char per gap)       nltk, segeval ``'nltk'``
labels        ``(0, 0, 0, 1, 1, 1, 1, 2, 2)``         per-unit segment ids
============  =====================================  =========================

:func:`as_segmentation` is the single validation entry point used by every public function that
accepts a segmentation (it refuses bare sequences, whose meaning it would have to guess);
:func:`check_boundaries` validates a bare boundary list against a known number of units (the
harness uses it on every segmenter output).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set as AbstractSet
from typing import Any, Union

import numpy as np

from .checks import array_as_list, check_int
from .exceptions import InvalidSegmentationError, InvalidTypeError, _short_repr

__all__ = [
    "Segmentation",
    "SegmentationLike",
    "as_segmentation",
    "check_boundaries",
    "check_int",
    "check_n_units",
]


def check_n_units(n_units: Any, name: str = "n_units") -> int:
    """Validate a number of units (an integer >= 1) and return it as an int."""
    return check_int(n_units, name, low=1)


def as_sizes(values: Any, n_units: int) -> list[int] | None:
    """``values`` as segment sizes (segeval's masses) when they can only be read so: positive
    integers summing to the document's ``n_units`` (a list, a tuple or a one-dimensional array),
    else ``None``. What the hints of a boundary list that is not one test: a bare list of integers
    is read as boundaries, never guessed to be sizes.

    >>> as_sizes([3, 3, 3], 9), as_sizes([3, 3], 9), as_sizes([0, 9], 9)
    ([3, 3, 3], None, None)
    """
    values = array_as_list(values)
    if not isinstance(values, (list, tuple)) or not values or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 1 for v in values):
        return None
    return [int(v) for v in values] if sum(int(v) for v in values) == n_units else None


def check_boundaries(
    boundaries: Any, n_units: int, name: str = "boundaries", *, sort: bool = False
) -> tuple[int, ...]:
    """Validate boundaries for a document of ``n_units`` units and return them as a tuple.

    Parameters
    ----------
    boundaries : iterable of int
        Segment starts, each in ``1 .. n_units-1``, without duplicates.
    n_units : int
        Number of units in the document.
    name : str
        Name used in error messages.
    sort : bool, default False
        If true, unsorted input is sorted silently; otherwise it is an error.

    Returns
    -------
    tuple of int
        The boundaries, sorted.

    Raises
    ------
    InvalidTypeError
        If an element is not an integer (bools and floats are refused).
    InvalidSegmentationError
        If an element is out of range, repeated, or (with ``sort=False``) out of order.

    Examples
    --------
    >>> check_boundaries([3, 7], 9)
    (3, 7)
    >>> check_boundaries(np.array([7, 3]), 9, sort=True)
    (3, 7)
    """
    values = _int_list(boundaries, name)
    if not values:
        return ()
    ordered = sorted(values) if sort else values
    _check_sorted_in_range(ordered, n_units, name, values, any_order=sort)
    return tuple(ordered)


_INT = {int}
#: The most units a segmentation may have (:data:`stability.metrics.MAX_UNITS`; int64 sums stay exact below it).
_MAX_UNITS = 2**62


def _int_list(boundaries: Any, name: str) -> list[int]:
    """The elements of a sequence (or 1-D integer array) as Python ints.

    Unordered or one-shot containers (sets, dicts, generators) are refused: their order, or
    whether they can be read twice, is not defined, so reading them would be a silent guess.
    """
    if type(boundaries) in (list, tuple) and set(map(type, boundaries)) <= _INT:
        return list(boundaries)  # the common case first, checked without per-element calls
    if isinstance(boundaries, np.ndarray):
        if boundaries.ndim != 1:
            raise InvalidTypeError.make(name, "a one-dimensional sequence of integers", boundaries)
        if boundaries.size and not np.issubdtype(boundaries.dtype, np.integer):
            raise InvalidTypeError.make(name, "a sequence of integers", boundaries)
        return [int(v) for v in boundaries.tolist()]
    if isinstance(boundaries, (str, bytes)) or not isinstance(boundaries, Sequence):
        raise InvalidTypeError.make(name, "a sequence of integers (a list, tuple or array)", boundaries)
    return [check_int(v, f"{name}[{i}]") for i, v in enumerate(boundaries)]


#: What a document of one unit requires of its boundaries ("must lie in 1..0 ... of 1 units" said it badly).
_ONE_UNIT = "must be empty for a document of 1 unit, which has no place for a boundary"


def _refuse_unordered(values: Any, name: str, expected: str) -> None:
    """Refuse a set or a mapping where the order of the values is the segmentation: iterating one
    gives an order of its own (a set of sizes ``{4, 3}`` reads as ``3, 4``), a silent guess."""
    if isinstance(values, (AbstractSet, Mapping)):
        raise InvalidTypeError.make(name, f"{expected} (a set or a mapping has no order of its own)", values)


def _check_sorted_in_range(values: list[int], n_units: int, name: str, given: list[int] | None = None, *,
                           any_order: bool = False) -> None:
    """Sorted, distinct and within ``1 .. n_units-1``, or an error naming the first offender in
    the values as ``given`` (before a silent sort: what the caller or segmenter returned).
    ``any_order``: the values were sorted here, so the error asks for distinct values only (a
    segmenter returning ``[7, 3, 3]`` was told they "must be sorted", though any order is read)."""
    quoted = values if given is None else given  # made text in an error only (checked on every restart's output)
    if n_units == 1 and values:  # no range to be sorted in: "sorted, distinct integers in 1..0" said nothing
        raise InvalidSegmentationError(f"{name} {_ONE_UNIT} (a boundary b starts a segment at unit b); received "
                                       f"{values[0]} in {_short_repr(quoted)}")
    for previous, current in zip(values, values[1:]):
        if current <= previous:
            problem = "repeated" if current == previous else "not sorted"
            raise InvalidSegmentationError(
                f"{name} must be {'distinct integers, in any order,' if any_order else 'sorted, distinct integers'} "
                f"in 1..{n_units - 1}; {current} is {problem} in "
                f"{_short_repr(quoted)}")
    lo, hi = values[0], values[-1]
    if lo < 1 or hi > n_units - 1:
        bad = lo if lo < 1 else hi
        # the two conventions that write a segmentation's ends too: segment starts from 0, segment ends up to n
        end = {0: "0 starts the first segment, not a boundary: leave it out",
               n_units: f"{n_units} ends the last segment (exclusive segment ends, as ruptures writes its "
                        "breakpoints, are the boundaries and then the number of units): leave it out"}
        raise InvalidSegmentationError(
            f"{name} must lie in 1..{n_units - 1} for a document of {n_units} units (a boundary b starts a segment "
            f"at unit b); received {bad} in {_short_repr(quoted)}" + (f"; {end[bad]}" if bad in end else "")
        )


class Segmentation:
    """An immutable segmentation of ``n_units`` units.

    Parameters
    ----------
    boundaries : iterable of int
        Sorted, distinct segment starts in ``1 .. n_units-1``.
    n_units : int
        Number of units (``>= 1``).

    Examples
    --------
    >>> s = Segmentation([3, 7], 9)
    >>> s.masses
    (3, 4, 2)
    >>> s.gaps
    '00100010'
    >>> Segmentation.from_masses([3, 4, 2]) == s
    True
    >>> s.labels
    (0, 0, 0, 1, 1, 1, 1, 2, 2)
    """

    __slots__ = ("_boundaries", "_n_units")
    _boundaries: tuple[int, ...]
    _n_units: int

    def __init__(self, boundaries: Iterable[int], n_units: int) -> None:
        n = check_n_units(n_units)
        object.__setattr__(self, "_n_units", n)
        object.__setattr__(self, "_boundaries", check_boundaries(boundaries, n))

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    def from_boundaries(cls, boundaries: Iterable[int], n_units: int) -> "Segmentation":
        """Build from boundaries (segment starts); same as the constructor."""
        return cls(boundaries, n_units)

    @classmethod
    def from_masses(cls, masses: Iterable[int], name: str = "masses") -> "Segmentation":
        """Build from segment sizes (positive integers summing to the number of units)."""
        if isinstance(masses, (str, bytes)) or not isinstance(masses, Iterable):
            raise InvalidTypeError.make(name, "a sequence of positive integers", masses)
        _refuse_unordered(masses, name, "a sequence of positive integers, in document order")
        if isinstance(masses, np.ndarray) and masses.ndim == 1 and np.issubdtype(masses.dtype, np.integer):
            sizes = masses.astype(np.int64, copy=False)
        elif isinstance(masses, (list, tuple)) and all(type(m) is int and abs(m) <= _MAX_UNITS for m in masses):
            sizes = np.asarray(masses, dtype=np.int64)  # the common case, checked vectorised
        else:
            checked = [check_int(m, f"{name}[{i}]") for i, m in enumerate(masses)]
            if any(abs(m) > _MAX_UNITS for m in checked):  # beyond what int64 sums safely
                raise InvalidSegmentationError(f"{name} must add up to at most 2**62 units; received {_short_repr(checked)}")
            sizes = np.asarray(checked, dtype=np.int64)
        if sizes.size == 0:
            raise InvalidSegmentationError(f"{name} must hold at least one segment size; received []")
        bad = np.flatnonzero(sizes < 1)
        if bad.size:
            i = int(bad[0])
            raise InvalidSegmentationError(
                f"{name} must be positive segment sizes; {name}[{i}] is {int(sizes[i])} in {_short_repr(sizes.tolist())}"
            )
        # sizes that add up past int64 would wrap around to a negative number of units
        if float(sizes.astype(np.float64).sum()) > _MAX_UNITS:
            raise InvalidSegmentationError(
                f"{name} must add up to at most 2**62 units; received {_short_repr(sizes.tolist())}")
        starts = np.cumsum(sizes)
        return cls._trusted(tuple(starts[:-1].tolist()), int(starts[-1]))

    @classmethod
    def _trusted(cls, boundaries: tuple[int, ...], n_units: int) -> "Segmentation":
        """Build without validation, from values already known to be valid."""
        seg = object.__new__(cls)
        object.__setattr__(seg, "_n_units", n_units)
        object.__setattr__(seg, "_boundaries", boundaries)
        return seg

    @classmethod
    def from_gaps(
        cls, gaps: Union[str, Sequence[Any]], boundary: Any = "1", name: str = "gaps"
    ) -> "Segmentation":
        """Build from an nltk/segeval boundary string: one element per **gap** (length ``n-1``).

        ``gaps[g] == boundary`` marks a boundary between units ``g`` and ``g+1``, i.e. ``b = g+1``.
        Every element must be either ``boundary`` or the matching "no boundary" symbol (``"0"``
        for strings, ``0`` for integer sequences), so a per-unit string or a stray character is
        caught rather than silently misread. A sequence of integers is read with ``1`` and ``0``
        under the default ``boundary="1"`` (nltk's ``boundary=1`` lists), and so is a boolean mask
        (``True`` a boundary), so ``from_gaps([0, 0, 1, 0])``, ``from_gaps(np.array([False, False,
        True, False]))`` and ``from_gaps("0010")`` are the same segmentation.
        """
        if isinstance(gaps, str):
            items: Sequence[Any] = gaps
            blank: Any = "0"
            boundary = str(boundary)
        elif isinstance(gaps, (Sequence, np.ndarray)):
            items = list(np.asarray(gaps).tolist()) if isinstance(gaps, np.ndarray) else list(gaps)
            if boundary == "1" and items and all(isinstance(item, (int, np.integer, np.bool_)) for item in items):
                boundary = 1  # the default, for integer or boolean gaps: 1 and 0 (True and False), not '1' and '0'
            blank = 0 if not isinstance(boundary, str) else "0"
        else:
            raise InvalidTypeError.make(name, "a string or sequence with one element per gap", gaps)
        found = []
        for g, item in enumerate(items):
            if item == boundary:
                found.append(g + 1)
            elif item != blank:
                raise InvalidSegmentationError(
                    f"{name} must contain only {boundary!r} (boundary) and {blank!r} (no boundary), "
                    f"one element per gap between units; element {g} is {item!r}"
                )
        return cls(found, len(items) + 1)

    @classmethod
    def from_labels(cls, labels: Iterable[Any], name: str = "labels") -> "Segmentation":
        """Build from per-unit segment labels: a change of label starts a new segment.

        Labels may be any comparable values; ``(0, 0, 1, 1, 0)`` has three segments.
        """
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise InvalidTypeError.make(name, "a sequence with one label per unit", labels)
        _refuse_unordered(labels, name, "a sequence with one label per unit, in document order")
        values = list(labels)
        if not values:
            raise InvalidSegmentationError(f"{name} must hold one label per unit; received []")
        missing = next((i for i, v in enumerate(values) if isinstance(v, (float, np.floating)) and v != v), None)
        if missing is not None:  # NaN differs from itself: every NaN would start a segment of its own
            raise InvalidSegmentationError(
                f"{name} must label every unit; {name}[{missing}] is NaN (a missing label) in {_short_repr(values)}")
        found = [i for i in range(1, len(values)) if values[i] != values[i - 1]]
        return cls(found, len(values))

    # -- views --------------------------------------------------------------------------------
    @property
    def n_units(self) -> int:
        """Number of units in the document."""
        return self._n_units

    @property
    def boundaries(self) -> tuple[int, ...]:
        """Sorted segment starts, each in ``1 .. n_units-1``."""
        return self._boundaries

    @property
    def n_boundaries(self) -> int:
        """Number of boundaries."""
        return len(self._boundaries)

    @property
    def n_segments(self) -> int:
        """Number of segments (boundaries + 1)."""
        return len(self._boundaries) + 1

    @property
    def masses(self) -> tuple[int, ...]:
        """Segment sizes, in order; they sum to ``n_units``."""
        cuts = (0, *self._boundaries, self._n_units)
        return tuple(b - a for a, b in zip(cuts, cuts[1:]))

    @property
    def gaps(self) -> str:
        """nltk/segeval boundary string: ``'1'`` at each gap that is a boundary, length ``n-1``."""
        chars = ["0"] * (self._n_units - 1)
        for b in self._boundaries:
            chars[b - 1] = "1"
        return "".join(chars)

    @property
    def labels(self) -> tuple[int, ...]:
        """Segment index of each unit (``0`` for the first segment)."""
        return tuple(self.label_array().tolist())

    @property
    def segments(self) -> tuple[tuple[int, int], ...]:
        """``(start, stop)`` slice bounds of every segment."""
        cuts = (0, *self._boundaries, self._n_units)
        return tuple(zip(cuts, cuts[1:]))

    def label_array(self) -> np.ndarray:
        """Segment index of each unit as an ``int64`` array (vectorised)."""
        labels = np.zeros(self._n_units, dtype=np.int64)
        if self._boundaries:
            labels[list(self._boundaries)] = 1
            np.cumsum(labels, out=labels)
        return labels

    def boundary_array(self) -> np.ndarray:
        """Boundaries as an ``int64`` array."""
        return np.asarray(self._boundaries, dtype=np.int64)

    # -- protocol -----------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Segmentation):
            return NotImplemented
        return self._n_units == other._n_units and self._boundaries == other._boundaries

    def __hash__(self) -> int:
        return hash((self._n_units, self._boundaries))

    def __repr__(self) -> str:
        return f"Segmentation(boundaries={list(self._boundaries)}, n_units={self._n_units})"

    def __len__(self) -> int:
        return len(self._boundaries)

    def __iter__(self):
        return iter(self._boundaries)

    def __contains__(self, item: object) -> bool:
        return item in self._boundaries

    def __reduce__(self):
        return (Segmentation, (self._boundaries, self._n_units))


SegmentationLike = Union[Segmentation, Sequence[int], np.ndarray]


def as_segmentation(value: Any, name: str = "segmentation", n_units: int | None = None) -> Segmentation:
    """Check that ``value`` is a :class:`Segmentation`: the one entry point for public APIs.

    A bare sequence is refused, never guessed at: ``[3, 7]`` reads as boundaries in this project
    and as segment masses in segeval, and the two readings give different numbers without any
    error. The message names the explicit constructors: :meth:`Segmentation.from_boundaries`
    (segment starts, the project's convention), :meth:`Segmentation.from_masses` (segment sizes,
    segeval's default) and :meth:`Segmentation.from_gaps` (nltk / segeval boundary strings).

    Parameters
    ----------
    value : Segmentation
        The segmentation, returned as is.
    name : str
        Parameter name used in error messages (``"reference"``, ``"references[2]"``...).
    n_units : int, optional
        If given, the segmentation must cover exactly this many units.

    Raises
    ------
    InvalidTypeError
        If ``value`` is not a :class:`Segmentation` (a list, array, string...).
    InvalidSegmentationError
        If it does not cover ``n_units`` units.

    Examples
    --------
    >>> as_segmentation(Segmentation.from_masses([3, 4, 2]), "reference").boundaries
    (3, 7)
    >>> as_segmentation([3, 7], "reference")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidTypeError: reference must be a Segmentation; received list [3, 7]. ...
    """
    if not isinstance(value, Segmentation):
        # the ambiguity is said of a sequence only: None or a number was told "a bare sequence is ambiguous"
        bare = isinstance(value, (Sequence, np.ndarray))
        raise InvalidTypeError(
            f"{name} must be a Segmentation; received {type(value).__name__} {_short_repr(value)}. "
            f"{'A bare sequence is ambiguous: build it' if bare else 'Build one'} with "
            "Segmentation.from_boundaries(boundaries, n_units) (segment starts), Segmentation.from_masses(masses) "
            "(segment sizes) or Segmentation.from_gaps(string) (an nltk/segeval boundary string)",
            parameter=name)
    if n_units is not None and value.n_units != n_units:
        raise InvalidSegmentationError(
            f"{name} must cover {n_units} units; received a segmentation of {value.n_units} units"
        )
    return value
