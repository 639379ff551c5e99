"""Documents: the unit of work of the harness."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .checks import check_real, check_units, array_as_list, lone_surrogate
from .exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError, _short_repr
from .segmentation import Segmentation, as_sizes, check_boundaries

__all__ = ["Document", "as_document", "as_documents"]


#: How many units a document's ``repr`` shows, and at most how many characters of each.
REPR_UNITS, REPR_UNIT = 2, 40


@dataclass(frozen=True, repr=False, init=False)
class Document:
    """A document: an id, its units, and optionally reference segmentations and unit times.

    Parameters
    ----------
    id : str
        Unique identifier; it also keys the document's random streams.
    units : iterable of str
        The units (sentences, paragraphs, utterances...), at least one; kept as a tuple. A unit
        (or an ``id``) holding a lone surrogate, half of a character, is refused.
    references : iterable of Segmentation or of boundaries
        Zero, one or several reference segmentations (one per annotator), each a
        :class:`~stability.Segmentation` or its boundaries; kept as a tuple of Segmentation.
    times : iterable of (float, float), optional
        Start and end time of every unit, for duration-weighted metrics; kept as a tuple.
    meta : mapping, optional
        Anything else about the document, not compared by ``==``: the readers put the
        ``format``, the ``source`` file, the ``line`` where the document starts, ``notes`` (what
        they repaired or dropped) and format-specific keys such as section ``titles`` (see
        :mod:`stability.readers`).

    Examples
    --------
    >>> doc = Document("d1", ("One.", "Two.", "Three."), references=([2],), meta={"source": "d1.txt"})
    >>> doc.n_units, doc.references[0].boundaries, doc.meta["source"]
    (3, (2,), 'd1.txt')
    >>> doc == Document("d1", ("One.", "Two.", "Three."), references=([2],))
    True
    """

    id: str
    units: tuple[str, ...]
    references: tuple[Segmentation, ...] = ()
    times: tuple[tuple[float, float], ...] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __init__(
        self,
        id: str,
        units: Iterable[str],
        references: Iterable[Segmentation | Iterable[int]] = (),
        times: Iterable[Sequence[float]] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        # Written out (not generated) so that type checkers accept what it accepts, lists
        # included, while the fields above keep the types a Document holds.
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "references", references)
        object.__setattr__(self, "times", times)
        object.__setattr__(self, "meta", {} if meta is None else meta)
        self._check()

    def _check(self) -> None:
        """Check the fields and store them in their kept types (tuples, Segmentation)."""
        if not isinstance(self.id, str):
            raise InvalidTypeError.make("Document.id", "a string", self.id)
        if (problem := lone_surrogate(self.id)) is not None:  # results files and hashes cannot hold it
            raise InvalidParameterError(f"Document.id must be text; {problem}", parameter="id")
        units = array_as_list(self.units)  # an array's values as Python's own strings
        if isinstance(units, Iterable) and not isinstance(units, (str, bytes)):
            units = tuple(units)  # any iterable of strings; check_units refuses the rest
        check_units(units, f"document {self.id!r} units")
        for i, unit in enumerate(units):
            if (problem := lone_surrogate(unit)) is not None:
                raise InvalidParameterError(f"document {self.id!r} units[{i}] must be text; {problem}", parameter="units")
        if not units:
            raise InvalidParameterError(f"document {self.id!r} must have at least one unit; it has none")
        object.__setattr__(self, "units", units)
        if isinstance(self.references, (str, bytes, Segmentation)) or not isinstance(self.references, Iterable):
            raise InvalidTypeError.make(
                f"document {self.id!r} references", "a sequence of reference segmentations, one per annotator "
                "(one reference: references=([3, 7],))", self.references)
        refs = []
        for j, ref in enumerate(self.references):
            if isinstance(ref, (int, np.integer)) and not isinstance(ref, bool):
                raise InvalidTypeError.make(
                    f"document {self.id!r} references", "a sequence of reference segmentations, one per annotator; "
                    "a flat list of boundaries is one reference: wrap it, references=([3, 7],)", self.references)
            name = f"document {self.id!r} references[{j}]"
            if isinstance(ref, Segmentation):
                if ref.n_units != len(units):
                    raise InvalidParameterError(
                        f"{name} must cover the document's {len(units)} units; it covers {ref.n_units}"
                    )
                refs.append(ref)
            else:
                try:
                    refs.append(Segmentation(check_boundaries(ref, len(units), name), len(units)))
                except InvalidSegmentationError as exc:
                    raise InvalidSegmentationError(f"{exc}{_sizes_hint(ref, len(units))}") from None
        object.__setattr__(self, "references", tuple(refs))
        if self.times is not None:
            times = tuple(_time_pair(pair, f"document {self.id!r} times[{i}]") for i, pair in enumerate(self.times))
            if len(times) != len(units):
                raise InvalidParameterError(
                    f"document {self.id!r} times must have one (start, end) pair per unit "
                    f"({len(units)}); received {len(times)}"
                )
            object.__setattr__(self, "times", times)
        if not isinstance(self.meta, Mapping):
            raise InvalidTypeError.make(f"document {self.id!r} meta", "a mapping (a dict of anything else about "
                                        "the document)", self.meta)

    @property
    def n_units(self) -> int:
        return len(self.units)

    def __repr__(self) -> str:
        """The id, the size and the first units cut short, the references (never every unit: a
        list of documents left as a notebook cell's value stays readable)."""
        shown = ", ".join(repr(u if len(u) <= REPR_UNIT else u[:REPR_UNIT - 3] + "...") for u in self.units[:REPR_UNITS])
        more = f", ... {self.n_units - REPR_UNITS} more" if self.n_units > REPR_UNITS else "," * (self.n_units == 1)
        times = "" if self.times is None else f", times=<{self.n_units} (start, end) pairs>"
        return (f"Document(id={self.id!r}, n_units={self.n_units}, units=({shown}{more}), "
                f"references={self.references!r}{times})")


def _sizes_hint(values: Any, n_units: int) -> str:
    """What to give instead, when invalid boundaries are segment sizes (:func:`as_sizes`), else
    nothing."""
    sizes = as_sizes(values, n_units)
    if sizes is None:
        return ""
    return (f"; its values sum to the document's {n_units} units: segment sizes? a reference given as a list is "
            f"its boundaries (the units where a segment starts); give Segmentation.from_masses({sizes!r})")


def _time_pair(pair: Any, name: str) -> tuple[float, float]:
    """A unit's ``(start, end)`` times as floats, or an error naming the unit."""
    expected = "a (start, end) pair of numbers"
    if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable):
        raise InvalidTypeError.make(name, expected, pair)
    values = tuple(pair)
    if len(values) != 2:
        raise InvalidParameterError.make(name, expected, pair)
    return check_real(values[0], f"{name} start"), check_real(values[1], f"{name} end")


def split_text(split: Callable[[str], Any], text: str, name: str) -> tuple[str, ...]:
    """The units a sentence splitter cuts ``text`` (the document ``name``) into, refused with the
    splitter named when it returns something other than a sequence of strings (a lone string, a
    number, ``None``), where ``tuple()`` of it failed with Python's own error, or read a string's
    characters as units."""
    units = split(text)
    if isinstance(units, (str, bytes)) or not isinstance(units, Iterable):
        raise InvalidTypeError(f"the splitter must return a list of strings, one per unit, for {name}; received "
                               f"{type(units).__name__} {_short_repr(units)}", parameter="splitter")
    return tuple(units)


#: The keys of a document given as a mapping.
DOCUMENT_KEYS = frozenset({"id", "units", "references", "times", "meta"})


def as_document(value: Any, index: int = 0, split: Callable[[str], list[str]] | None = None) -> Document:
    """Accept a :class:`Document`, a mapping with ``id``/``units`` keys, a bare list of units, or,
    when ``split`` (a sentence splitter, see :mod:`stability.splitters`) is given, a raw string."""
    if isinstance(value, Document):
        return value
    if isinstance(value, str):
        if split is None:
            # a list of strings given as documents: raw texts, or, as often, one document's units
            one = ", and one document given as its units goes in a list, documents=[units]" if index == 0 else ""
            raise InvalidTypeError.make(
                f"documents[{index}]", f"a list of units; a raw string needs a splitter (splitter='auto'){one}",
                value)
        return Document(id=str(index), units=split_text(split, value, f"documents[{index}]"))
    if isinstance(value, Mapping):
        unknown = set(value) - DOCUMENT_KEYS
        if unknown:
            from .readers.jsonl import REFERENCE_KEYS  # a file's keys of a reference ("boundaries", "segments"...)

            given = sorted(str(key) for key in unknown & set(REFERENCE_KEYS))
            hint = (f" ({', '.join(map(repr, given))}: a file's spelling of a reference; here references is a list of "
                    "them, each its boundaries or a Segmentation, Segmentation.from_masses(sizes) for segment "
                    "sizes)") if given else ""
            raise InvalidParameterError(
                f"document {index}: unknown keys {sorted(unknown, key=str)}; expected id, units, references, times, "
                f"meta{hint}")
        if "units" not in value:
            raise InvalidParameterError(f"document {index} has no 'units'")
        return Document(
            id=str(value.get("id", index)),
            units=value["units"],  # Document checks and converts both
            references=value.get("references", ()),
            times=value.get("times"),
            meta=dict(value.get("meta", {})),
        )
    value = array_as_list(value)
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        return Document(id=str(index), units=tuple(value))
    raise InvalidTypeError.make(f"documents[{index}]", "a Document, a mapping or a list of units", value)


#: What ``documents`` must be, as its errors say it.
DOCUMENTS_EXPECTED = "an iterable of documents (Document objects, mappings or lists of units)"


def as_documents(values: Iterable[Any], split: Callable[[str], list[str]] | None = None) -> Iterable[Document]:
    """Lazily validate a stream of documents (raw strings cut by ``split``); duplicate ids are an error.

    A mapping is refused: iterating it gives its keys, each of which was then read as a document
    (``{"a": units}`` gave "documents[0] must be a list of units; a raw string needs a splitter;
    received str 'a'"), whether it held documents by id or was one document's ``id``/``units``.
    """
    if isinstance(values, (str, bytes, Document)) or not isinstance(values, Iterable):
        error = InvalidTypeError.make("documents", DOCUMENTS_EXPECTED, values)
        hints = ["a file or a folder is read with read_corpus(path)"] if isinstance(values, (str, os.PathLike)) else []
        if isinstance(values, str):
            hints.append("one raw text goes in a list, [text], with splitter='auto'")
        if hints:
            raise InvalidTypeError(f"{error}: {'; '.join(hints)}", parameter="documents")
        raise error
    if isinstance(values, Mapping):
        keys = [str(key) for key in values]
        if keys and set(keys) <= DOCUMENT_KEYS:
            hint = "it looks like one document: give a list of them, documents=[{...}]"
        else:
            hint = ("documents by id: give them as a list, [Document(id, units) for id, units in "
                    "documents.items()] (stability.Document)")
        raise InvalidTypeError(f"documents must be {DOCUMENTS_EXPECTED}, not a mapping, whose iteration gives its "
                               f"keys; received {type(values).__name__} with keys {_short_repr(keys)}: {hint}",
                               parameter="documents")
    return _validated(values, split)


def _validated(values: Iterable[Any], split: Callable[[str], list[str]] | None) -> Iterator[Document]:
    seen: set[str] = set()
    for index, value in enumerate(values):
        doc = as_document(value, index, split)
        if doc.id in seen:
            raise InvalidParameterError(f"document id {doc.id!r} appears twice; ids must be unique")
        seen.add(doc.id)
        yield doc
