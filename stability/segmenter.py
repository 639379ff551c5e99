"""The segmenter contract.

A segmenter is any callable ``segment(units: list[str]) -> boundaries`` returning the
boundaries of the document (segment starts in ``1 .. len(units)-1``; see
:mod:`stability.segmentation`), or a :class:`~stability.segmentation.Segmentation` of
``len(units)`` units. Nothing else is required: a plain function is a segmenter. For type
checkers, :class:`SegmenterFunction` is that callable and :data:`SegmenterOutput` what it returns.

Two optional extras are understood by the harness:

* **Parameters.** ``get_params()`` returns the keyword arguments the segmenter was built with, so
  reports can print them. :class:`Segmenter` provides it from the ``__init__`` signature.
* **Fast restart path.** The stability test segments the same units many times in different
  orders. A segmenter may expose ``prepare(units) -> state`` (per-unit work done once per
  document, e.g. tokenizing) and ``segment_prepared(state, order) -> boundaries``, where ``order``
  is an integer array and the call must return exactly what ``segment([units[i] for i in order])``
  returns. The harness then calls ``prepare`` once per task of restarts (the chunks of one
  pair's streams), and hands the state to every restart of the task.
* **Shared prepared state.** A segmenter that declares ``prepare_params`` (the names of the
  parameters its ``prepare`` reads, see :attr:`Segmenter.prepare_params`) lets the harness prepare
  a document once for several configurations: when it runs configurations of the same class whose
  values of those parameters are equal on the same document in one task (TextTiling's ``w`` and
  ``k``, C99's mask size and threshold...), ``prepare`` is called once and the one state is handed
  to every configuration's ``segment_prepared`` / ``segment_batch``. The state is then shared:
  those methods must treat it as read-only (:func:`prepare_key`).
* **Batched restarts.** On top of the fast restart path, ``segment_batch(state, orders) ->
  list of boundaries`` segments many orders of one document at once (``orders`` is a 2-D integer
  array, one order per row; ``state`` comes from ``prepare``), e.g. with array operations over a
  stack of permuted matrices. Item ``r`` of the result must be exactly what
  ``segment_prepared(state, orders[r])`` returns. The harness hands it every restart of a chunk
  (see :func:`has_batch_path`); a segmenter without it is called restart by restart.
* **Per-document parameters.** ``for_document(document) -> segmenter`` returns the segmenter to
  run on one :class:`~stability.corpus.Document` (it may read the document's references). The
  harness calls it once per document before anything else (see :func:`for_document`). The results
  record the parameters of the segmenter as given (``params``) and, per document, those the
  resolved one took that differ from them (``resolved_params``, :func:`resolved_params`). This is how
  ``get_segmenter("c99", n_segments="reference")`` gives every document its reference's count, and
  how a chunker left without ``unit_separator`` joins each document's units as its reader says.

* **The terms it sees.** ``unit_terms(units) -> list of term lists`` (one list per unit, or
  ``None`` when the segmenter cannot say) gives the terms a lexical segmenter compares (C99, U00,
  TextTiling: after tokenizing, stopwords and stemming). The harness calls it once per document and
  segmenter, before the run, and warns (:class:`SegmenterWarning`) when most units share no term
  with any other unit (:func:`unit_terms_problem`): the segmenter then sees little of the
  content, typically text in a language or script its preprocessing was not set for. Where next
  to none do (under :data:`TERM_BLIND_LINKED`), the document's result is marked term-blind and its
  headline is 0 (:attr:`stability.results.StabilityResult.term_blind`). A segmenter of your own
  gets this check by telling its terms the same way.
* **The stopwords it drops.** ``stopword_use(units) -> (language, stopword tokens, tokens)`` (or
  ``None``) says which language its stopword list is for (``None`` for a list of the user's
  words) and how many of the document's tokens are in it. The harness warns when an English list
  holds too few of a long document's words (:func:`stopwords_problem`): the text is likely in
  another language, whose function words the segmenter then keeps as terms.

Output order: boundaries may be returned in any order; the harness sorts them (documented, no
warning). Repeated or out-of-range boundaries and non-integers are errors, and so is a
Segmentation of another number of units. Outputs are sequences (a list, tuple or 1-D integer
array): a generator or a set is refused, from ``segment`` and ``segment_prepared`` as from
``segment_batch`` (whose result is a sequence of outputs, one per order), with the same message.

:func:`stability.check_segmenter` runs these rules on a segmenter (:mod:`stability.contract`).
"""

from __future__ import annotations

import functools
import inspect
import pickle
from collections import Counter
from operator import itemgetter
from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, TypeAlias, Union, runtime_checkable

import numpy as np

from .checks import check_units
from .exceptions import InvalidParameterError, InvalidTypeError, StabilityWarning, _short_repr
from .segmentation import Segmentation

__all__ = [
    "Segmenter",
    "SegmenterFunction",
    "SegmenterOutput",
    "FastRestartSegmenter",
    "has_fast_path",
    "has_batch_path",
    "BatchRestartSegmenter",
    "segmenter_name",
    "segmenter_params",
    "parameter_defaults",
    "apply_order",
    "unit_table",
    "for_document",
    "resolved_params",
    "prepare_key",
    "SegmenterWarning",
    "LINKED_UNITS_MIN",
    "TERM_BLIND_LINKED",
    "unit_links",
    "unit_terms_problem",
    "STOPWORD_SHARE_MIN",
    "STOPWORD_TOKENS_MIN",
    "stopwords_problem",
    "pickling_problem",
]


#: What a segmenter returns for a document of ``n`` units: its boundaries (distinct integers in
#: ``1 .. n-1``, in any order) as a sequence or a 1-D integer array, or a Segmentation of the
#: ``n`` units (the output rules at the top of this module).
SegmenterOutput: TypeAlias = Union[Sequence[int], np.ndarray, Segmentation]


@runtime_checkable
class SegmenterFunction(Protocol):
    """Structural type of a segmenter: ``units -> boundaries``.

    The harness calls it with one document's units as a list of strings, so a function taking
    ``list[str]`` or ``Sequence[str]`` fits, returning any :data:`SegmenterOutput`.

    Examples
    --------
    >>> def every_third(units: list[str]) -> list[int]:
    ...     return list(range(3, len(units), 3))
    >>> segmenter: SegmenterFunction = every_third  # what a type checker accepts as a segmenter
    >>> isinstance(every_third, SegmenterFunction), segmenter(["u"] * 7)
    (True, [3, 6])
    """

    def __call__(self, units: list[str]) -> SegmenterOutput: ...


@runtime_checkable
class FastRestartSegmenter(Protocol):
    """Structural type of a segmenter offering the "prepare once, segment many orders" path."""

    def __call__(self, units: list[str]) -> SegmenterOutput: ...

    def prepare(self, units: Sequence[str]) -> Any: ...

    def segment_prepared(self, prepared: Any, order: np.ndarray) -> SegmenterOutput: ...


@runtime_checkable
class BatchRestartSegmenter(FastRestartSegmenter, Protocol):
    """Structural type of a segmenter that also segments a batch of orders at once."""

    def segment_batch(self, prepared: Any, orders: np.ndarray) -> Sequence[SegmenterOutput]: ...


class Segmenter:
    """Optional base class for segmenters with parameters.

    Subclasses implement :meth:`segment`; calling the object calls it. Keyword arguments of
    ``__init__`` must be stored under attributes of the same name (as in scikit-learn), which
    gives :meth:`get_params` and a readable ``repr`` for free.

    Examples
    --------
    >>> class EveryK(Segmenter):
    ...     def __init__(self, k=3):
    ...         self.k = k
    ...     def segment(self, units):
    ...         return list(range(self.k, len(units), self.k))
    >>> EveryK(k=2)(["a", "b", "c", "d", "e"])
    [2, 4]
    >>> EveryK(k=2).get_params()
    {'k': 2}
    """

    #: Whether repeated calls on the same units give the same boundaries.
    deterministic: bool = True

    #: Whether the boundaries follow the units' lengths rather than their words (a text chunker,
    #: :class:`segmenters.chunkers.ChunkerSegmenter`). Permuting units within segments keeps every
    #: segment's length, so such a segmenter looks stable whatever the topics; only the layout
    #: control tells (``layout_control``), and :func:`stability.evaluate` warns when a run of one
    #: goes without it.
    length_based: bool = False

    #: Names of the parameters (keys of :meth:`get_params`) that ``prepare`` depends on, for a
    #: segmenter with the fast restart path. Its prepared state must depend on nothing else (not
    #: on the other parameters, not on the order of the units), and ``segment_prepared`` /
    #: ``segment_batch`` must never modify it: configurations of one class that agree on these
    #: parameters then share one state per document (see :func:`prepare_key`). ``None`` (the
    #: default): not declared, the state is never shared. ``()``: ``prepare`` reads no parameter.
    prepare_params: tuple[str, ...] | None = None

    #: What to say of a parameter name the segmenter does not take but a user may well give: the
    #: name a wrapped library gives one of its parameters (``{"capacity": "... is 'chunk_size'
    #: here"}``), or one it lacks. The error for such a name (:func:`stability.registry.get_segmenter`)
    #: says this instead of the closest name it takes, before listing those it takes.
    parameter_hints: Mapping[str, str] = MappingProxyType({})

    def segment(self, units: Sequence[str]) -> SegmenterOutput:
        """Return the boundaries of ``units``."""
        raise NotImplementedError(f"{type(self).__name__} must implement segment(units)")

    def __call__(self, units: Sequence[str]) -> SegmenterOutput:
        check_units(units)  # a string given directly would be segmented one character a unit
        return self.segment(units)

    @classmethod
    def _param_names(cls) -> tuple[str, ...]:
        return _init_parameters(cls)  # type: ignore[arg-type]  # mypy: a class is Hashable

    def get_params(self) -> dict[str, Any]:
        """Keyword arguments this segmenter was built with, by name.

        Raises
        ------
        AttributeError
            If a parameter of ``__init__`` is not stored under an attribute of its name (the
            message names it and the convention).
        """
        params = {}
        for name in self._param_names():
            try:
                params[name] = getattr(self, name)
            except AttributeError:
                raise AttributeError(
                    f"{type(self).__name__}.get_params: the __init__ parameter {name!r} must be stored as "
                    f"self.{name} (a Segmenter keeps each keyword argument of __init__ under an attribute of "
                    f"the same name, which get_params, repr and the results read); {type(self).__name__} "
                    f"has no attribute {name!r}") from None
        return params

    def __repr__(self) -> str:
        names = self._param_names()
        args = ", ".join(f"{k}={getattr(self, k)!r}" if hasattr(self, k) else f"{k}=<not stored>" for k in names)
        return f"{type(self).__name__}({args})"


@functools.lru_cache(maxsize=None)
def _init_parameters(cls: type[Any]) -> tuple[str, ...]:
    """The keyword parameters of ``cls.__init__``, read once per class (``inspect.signature``
    costs tens of microseconds, and the engine asks for every pair)."""
    signature = inspect.signature(cls.__init__)
    return tuple(
        p.name
        for p in signature.parameters.values()
        if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    )


def has_fast_path(segmenter: Any) -> bool:
    """Whether ``segmenter`` offers ``prepare`` and ``segment_prepared``."""
    return callable(getattr(segmenter, "prepare", None)) and callable(
        getattr(segmenter, "segment_prepared", None)
    )


def has_batch_path(segmenter: Any) -> bool:
    """Whether ``segmenter`` offers ``segment_batch`` on top of the fast restart path."""
    return has_fast_path(segmenter) and callable(getattr(segmenter, "segment_batch", None))


def _frozen(value: Any) -> Any:
    """``value`` with its lists, tuples and sets made hashable (for :func:`prepare_key`)."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(_frozen(v) for v in value)
    return value


def prepare_key(segmenter: Any) -> Hashable | None:
    """What a segmenter's prepared state depends on: its class and the values of its
    :attr:`Segmenter.prepare_params`; ``None`` when it cannot be shared (no fast path, nothing
    declared, or a declared value that is not hashable).

    Two segmenters with equal keys give the same ``prepare(units)`` for the same units, so the
    harness prepares a document once for both.

    Examples
    --------
    >>> from segmenters.c99 import C99
    >>> prepare_key(C99(mask_size=11)) == prepare_key(C99(mask_size=5, std_coeff=0.5))
    True
    >>> prepare_key(C99()) == prepare_key(C99(stem=False))
    False
    >>> prepare_key(lambda units: []) is None
    True
    """
    names = getattr(segmenter, "prepare_params", None)
    if names is None or not has_fast_path(segmenter):
        return None
    params = segmenter_params(segmenter)
    unknown = [name for name in names if name not in params]
    if unknown:
        raise InvalidParameterError.make(
            f"{type(segmenter).__name__}.prepare_params", f"names among its parameters {sorted(params)}", unknown)
    key = (type(segmenter), tuple((name, _frozen(params[name])) for name in names))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def segmenter_name(segmenter: Any) -> str:
    """A short human-readable name for any segmenter callable."""
    name = getattr(segmenter, "name", None)
    if isinstance(name, str) and name:
        return name
    if isinstance(segmenter, functools.partial):
        return segmenter_name(segmenter.func)
    if inspect.isfunction(segmenter) or inspect.isbuiltin(segmenter) or inspect.ismethod(segmenter):
        return segmenter.__name__
    return type(segmenter).__name__


def segmenter_params(segmenter: Any) -> dict[str, Any]:
    """Parameters of a segmenter, as reports and the results file record them.

    ``get_params()`` if it offers one; a :func:`functools.partial`'s keywords; for an object of a
    class without ``get_params`` whose ``__init__`` stores each keyword parameter under its own
    name (the convention of :class:`Segmenter` and scikit-learn), those attributes; else ``{}``
    (a plain function, or a class that keeps its parameters under other names).

    Examples
    --------
    >>> class Every:
    ...     def __init__(self, k=3):
    ...         self.k = k
    ...     def __call__(self, units):
    ...         return list(range(self.k, len(units), self.k))
    >>> segmenter_params(Every(k=4)), segmenter_params(lambda units: [])
    ({'k': 4}, {})
    """
    get_params = getattr(segmenter, "get_params", None)
    if callable(get_params):
        return dict(get_params())
    if isinstance(segmenter, functools.partial):
        return dict(segmenter.keywords)
    names = stored_init_parameters(segmenter)
    return {name: getattr(segmenter, name) for name in names} if names else {}


def parameter_defaults(segmenter: Any) -> dict[str, Any]:
    """The defaults of the keyword parameters of the ``__init__`` of ``segmenter``'s class
    (``{}`` for a function, a partial or a class without such defaults); an object may give its
    own with a ``parameter_defaults()`` method (a segmenter resolved per document does). A
    resume reads them to accept results written before a parameter was added to a segmenter:
    a parameter missing from the stored ones whose value now is its default.

    Examples
    --------
    >>> class Every:
    ...     def __init__(self, k=3, start=0):
    ...         self.k, self.start = k, start
    >>> parameter_defaults(Every(k=4)), parameter_defaults(lambda units: [])
    ({'k': 3, 'start': 0}, {})
    """
    own = getattr(segmenter, "parameter_defaults", None)
    if callable(own) and not inspect.isclass(segmenter):
        return dict(own())
    if inspect.isroutine(segmenter) or inspect.isclass(segmenter) or isinstance(segmenter, functools.partial):
        return {}
    cls = type(segmenter)
    if cls.__init__ is object.__init__:
        return {}
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):  # no signature (a class written in C)
        return {}
    return {p.name: p.default for p in signature.parameters.values()
            if p.name != "self" and p.default is not p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}


def stored_init_parameters(segmenter: Any) -> tuple[str, ...] | None:
    """The keyword parameters of the ``__init__`` of ``segmenter``'s class when every one is
    stored under an attribute of its name; ``None`` when it has none, or one is not stored so
    (or ``segmenter`` is a function or a class, not an object built by one)."""
    if inspect.isroutine(segmenter) or inspect.isclass(segmenter):
        return None
    cls = type(segmenter)
    if cls.__init__ is object.__init__:
        return None
    try:
        names = _init_parameters(cls)  # type: ignore[arg-type]  # mypy: a class is Hashable
    except (TypeError, ValueError):  # no signature (a class written in C)
        return None
    if not names or not all(hasattr(segmenter, name) for name in names):
        return None
    return names


def apply_order(units: Sequence[str] | np.ndarray, order: np.ndarray) -> list[str]:
    """The document ``units`` reordered by ``order`` (``[units[i] for i in order]``); ``units``
    may be a one-dimensional object array of them (:func:`unit_table`), faster to gather from."""
    if isinstance(units, np.ndarray):
        return units[order].tolist()
    indices = order.tolist()
    if len(indices) < 2:
        return [units[i] for i in indices]
    return list(itemgetter(*indices)(units))  # one C-level gather


def unit_table(units: Sequence[str]) -> np.ndarray:
    """``units`` as a one-dimensional object array (the same string objects), from which
    :func:`apply_order` gathers a long document's reordered units faster than from a list."""
    table = np.empty(len(units), dtype=object)
    table[:] = units
    return table


def for_document(segmenter: Any, document: Any) -> Any:
    """The segmenter to run on ``document``: ``segmenter.for_document(document)`` when it offers
    that method (per-document parameters), else ``segmenter`` itself."""
    resolve = getattr(segmenter, "for_document", None)
    return resolve(document) if callable(resolve) else segmenter


def resolved_params(segmenter: Any, resolved: Any) -> dict[str, Any]:
    """The parameters of ``resolved`` (``for_document(segmenter, document)``) whose value differs
    from ``segmenter``'s: what the segmenter took on that document and its recorded parameters do
    not say (``{}`` when it ran as given).

    Examples
    --------
    >>> class Joined:
    ...     def __init__(self, sep=None):
    ...         self.sep = sep
    ...     def __call__(self, units):
    ...         return []
    ...     def for_document(self, document):
    ...         return self if self.sep is not None else Joined(document.meta.get("sep", "\\n"))
    >>> from stability import Document
    >>> given = Joined()
    >>> resolved_params(given, for_document(given, Document("d", ["a", "b"], meta={"sep": " "})))
    {'sep': ' '}
    >>> resolved_params(Joined(" "), for_document(Joined(" "), Document("d", ["a", "b"])))
    {}
    """
    if resolved is segmenter:
        return {}
    given, taken = segmenter_params(segmenter), segmenter_params(resolved)
    return {name: value for name, value in taken.items() if name not in given or given[name] != value}


class SegmenterWarning(StabilityWarning):
    """A segmenter will see little of a document (see :func:`unit_terms_problem`).

    Examples
    --------
    >>> import warnings
    >>> from stability import stability_test
    >>> units = ["alpha one", "beta two", "gamma three", "delta four", "epsilon five", "zeta six"]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = stability_test("c99", units, n_restarts=2)
    >>> caught[0].category.__name__, result.term_blind is not None  # no two units share a term
    ('SegmenterWarning', True)
    """


#: The share of a document's non-empty units that must share a term with another unit, as the
#: segmenter sees them (:func:`unit_terms_problem`). In English text nearly all do (see
#: ``tests/test_languages.py``); in a language the preprocessing was not set for (Chinese read as
#: words between spaces, Russian by TextTiling's ``a-z`` letters) nearly none.
LINKED_UNITS_MIN = 0.5

#: Below this share of linked units (see :data:`LINKED_UNITS_MIN`) the segmenter sees next to no
#: term of the document: the results mark it term-blind there and credit no stability
#: (:attr:`stability.results.StabilityResult.term_blind`). Between the two it sees little and is
#: only warned about: on Wiki-50's shortest article (10 sentences) TextTiling links 4 units, and
#: short utterances of a dialogue often share no word with another; read in a language its
#: preprocessing was not set for (the Chinese and Russian documents of tests/test_languages.py)
#: a segmenter links none.
TERM_BLIND_LINKED = 0.1


def unit_links(segmenter: Any, units: Sequence[str]) -> tuple[int, int, int] | None:
    """``(linked, non-empty, bare)``: how many of the non-empty units of ``units`` share a term
    with another unit, as ``segmenter`` reads them (its ``unit_terms``), how many there are, and
    how many have no term at all; ``None`` for a segmenter that does not tell its terms (no
    ``unit_terms``, or it returns ``None``) and for fewer than two non-empty units.

    >>> class Words:
    ...     def unit_terms(self, units):
    ...         return [unit.split() for unit in units]
    >>> unit_links(Words(), ["bread oven", "oven baker", "goal match", ""])
    (2, 3, 0)
    """
    unit_terms = getattr(segmenter, "unit_terms", None)
    if not callable(unit_terms):
        return None
    terms = unit_terms(units)
    if terms is None:
        return None
    if isinstance(terms, (str, bytes)) or not isinstance(terms, Sequence) or len(terms) != len(units):
        # zip would pair the wrong units with the terms, and the document could be scored 0 as term-blind
        raise InvalidTypeError(f"unit_terms returned {_short_repr(terms)} for {len(units)} units: expected one list "
                               "of terms per unit, or None (check_segmenter's unit_terms check says more)")
    filled = [set(unit_terms_of) for unit, unit_terms_of in zip(units, terms) if unit.strip()]
    if len(filled) < 2:
        return None
    units_with = Counter(term for found in filled for term in found)
    linked = sum(1 for found in filled if any(units_with[term] > 1 for term in found))
    return linked, len(filled), sum(1 for found in filled if not found)


def _links_problem(links: tuple[int, int, int] | None) -> str | None:
    """:func:`unit_terms_problem`'s sentence for the counts of :func:`unit_links`."""
    if links is None or links[0] >= LINKED_UNITS_MIN * links[1]:
        return None
    linked, filled, bare = links
    said = f"{filled - linked} of {filled} non-empty units share no term with another unit"
    return said + (f" ({bare} {'has' if bare == 1 else 'have'} no term)" if bare else "")


def unit_terms_problem(segmenter: Any, units: Sequence[str]) -> str | None:
    """Why ``segmenter`` can see little of ``units``, in words, or ``None``.

    Reads the segmenter's ``unit_terms(units)`` (the terms it compares in each unit; segmenters
    without it, or returning ``None``, are not judged). A unit is *linked* when one of its terms is
    also in another unit; when fewer than :data:`LINKED_UNITS_MIN` of the non-empty units (at
    least two) are linked, the sentence says how many are not and how many have no term at all.

    Examples
    --------
    >>> class Words:
    ...     def unit_terms(self, units):
    ...         return [unit.split() for unit in units]
    >>> unit_terms_problem(Words(), ["bread oven", "oven baker", "goal match", "match fans"]) is None
    True
    >>> unit_terms_problem(Words(), ["面包师每天来到面包店", "他揉面团", "", "球队比赛"])
    '3 of 3 non-empty units share no term with another unit'
    """
    return _links_problem(unit_links(segmenter, units))


#: The least share of a document's tokens that an English stopword list holds before
#: :func:`stopwords_problem` speaks, and the least number of tokens it judges. Measured with the
#: project's list (nltk's English list gives about the same): whole English documents hold 0.33 to
#: 0.55 (Choi's sets, Wiki-50, Elements, the demo corpus; no document under 0.33) and 200-token
#: stretches of them at least 0.18 (100-token ones 0.13); the project's own reports, tables and
#: code 0.20 to 0.35. German text written for the test holds 0.03 to 0.045 (``in``, ``am``,
#: ``an``, ``so``), French 0.01, Spanish 0.02, Dutch 0.045, Danish and Portuguese 0.095. English
#: written as notes (clinical shorthand: 0.06) is the one English text found under the line.
STOPWORD_SHARE_MIN = 0.12
STOPWORD_TOKENS_MIN = 200


def stopwords_problem(segmenter: Any, units: Sequence[str]) -> str | None:
    """Why the English stopword list of ``segmenter`` looks wrong for ``units``, in words, or ``None``.

    Reads the segmenter's ``stopword_use(units)``; judged only when its list is English and the
    document has at least :data:`STOPWORD_TOKENS_MIN` tokens: under :data:`STOPWORD_SHARE_MIN` of
    them in the list, the sentence says how many are.

    Examples
    --------
    >>> class Default:
    ...     def stopword_use(self, units):
    ...         tokens = " ".join(units).lower().split()
    ...         return "english", sum(t in {"the", "of", "in", "am"} for t in tokens), len(tokens)
    >>> stopwords_problem(Default(), ["the end of the day in town"] * 40) is None
    True
    >>> stopwords_problem(Default(), ["am Morgen backt der Bäcker frisches Brot für die Kunden"] * 30)
    '30 of the 300 words of the document (10%) are in its English stopword list'
    """
    use = getattr(segmenter, "stopword_use", None)
    if not callable(use):
        return None
    found = use(units)
    if found is None:
        return None
    language, stop, tokens = found
    if language != "english" or tokens < STOPWORD_TOKENS_MIN or stop >= STOPWORD_SHARE_MIN * tokens:
        return None
    return f"{stop} of the {tokens} words of the document ({stop / tokens:.0%}) are in its English stopword list"


def terms_problem(segmenter: Any, units: Sequence[str]) -> tuple[str, str, bool] | None:
    """What :func:`unit_terms_problem`, then :func:`stopwords_problem`, find in ``units``:
    ``("terms", sentence, blind)``, ``("stopwords", sentence, False)`` or ``None``; ``blind``:
    fewer than :data:`TERM_BLIND_LINKED` of the units are linked (the results mark the document
    term-blind). Run by the engine's worker processes with each pair's first segmentation (the
    main process only warns), since it reads every unit of every document.

    >>> class Words:
    ...     def unit_terms(self, units):
    ...         return [unit.split() for unit in units]
    >>> terms_problem(Words(), ["goal match", "oven baker"])
    ('terms', '2 of 2 non-empty units share no term with another unit', True)
    >>> terms_problem(Words(), ["goal match", "match fans", "oven baker", "bread rye", "hall"])[2]
    False
    """
    links = unit_links(segmenter, units)
    problem = _links_problem(links)
    if links is not None and problem is not None:
        return "terms", problem, links[0] < TERM_BLIND_LINKED * links[1]
    problem = stopwords_problem(segmenter, units)
    return None if problem is None else ("stopwords", problem, False)


def pickling_problem(segmenter: Any) -> str | None:
    """Why ``segmenter`` cannot be sent to worker processes, or ``None`` when it can.

    Worker processes (joblib's ``loky`` backend, a Dask cluster) receive
    every segmenter pickled, by loky's pickler (cloudpickle, which also carries functions defined
    in a script or a notebook); what it cannot carry (an open file, a lock, a database connection
    held as an attribute) cannot reach a worker. The segmenter is pickled as loky pickles a task
    and read back as a worker reads it.

    Parameters
    ----------
    segmenter : callable
        Any segmenter.

    Returns
    -------
    str or None
        ``"ExceptionType: message"`` of the first error, or ``None``.

    Examples
    --------
    >>> import threading
    >>> pickling_problem(lambda units: [])
    >>> class Locked:
    ...     def __init__(self):
    ...         self.lock = threading.Lock()
    ...     def __call__(self, units):
    ...         return []
    >>> pickling_problem(Locked())
    "TypeError: cannot pickle '_thread.lock' object"
    """
    return pickled(segmenter)[1]


def pickled(segmenter: Any) -> tuple[bytes | None, str | None]:
    """The pickle of ``segmenter`` that worker processes receive, and why there is none: the
    check of :func:`pickling_problem`, whose pickle the engine then sends to the workers, so that
    a segmenter holding a large model is pickled once a run, not once to check and once to send.

    Parameters
    ----------
    segmenter : callable
        Any segmenter.

    Returns
    -------
    tuple of (bytes or None, str or None)
        ``(the pickle, None)`` when it is pickled and read back, else ``(None, "ExceptionType:
        message")`` of the first error.

    Examples
    --------
    >>> data, problem = pickled(len)
    >>> pickle.loads(data) is len, problem
    (True, None)
    """
    from joblib.externals.loky.backend.reduction import dumps

    try:
        data = dumps(segmenter)
        pickle.loads(data)
    except Exception as exc:  # noqa: BLE001 - any error here is the answer, given as text
        return None, f"{type(exc).__name__}: {exc}"
    return data, None
