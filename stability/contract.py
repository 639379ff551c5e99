"""The segmenter contract as checks: run them on your own segmenter with :func:`check_segmenter`.

The harness needs little from a segmenter (a callable ``units -> boundaries``, see
:mod:`stability.segmenter`), but what it relies on it relies on at every restart: an output it can
read, the same boundaries for the same units, a fast or batched restart path identical to the
plain call, parameters it can record, an object it can pickle to worker processes. A segmenter
that breaks one of these is not always refused by a run: a fast path that disagrees with the
plain call, a batch that drops boundaries or a prepared state modified by the restarts give
wrong scores without any error. :data:`CHECKS` declares each rule once, with the documents it
is checked on (:func:`check_documents`); :func:`check_segmenter` runs them on one segmenter and
says, for each, what was wrong and on which document. The project's own contract test
(``tests/test_contract.py``) runs the same checks over every registered segmenter, and
:func:`parametrize_with_checks` lets a plugin's tests run them over the segmenters its package
publishes, each check a test of its own.

Examples
--------
>>> from stability import check_segmenter
>>> def halves(units):
...     return [len(units) // 2] if len(units) > 1 else []
>>> check_segmenter(halves).ok
True
>>> def sizes(units):                      # segment sizes, not boundaries
...     return [len(units)]
>>> check_segmenter(sizes, raise_on_failure=False).failures[0].name
'valid_output'
"""

from __future__ import annotations

import functools
import inspect
import itertools
import pickle
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .exceptions import InvalidParameterError, InvalidTypeError, StabilityError, _short_repr
from .results import _jsonable
from .segmenter import (
    has_batch_path,
    has_fast_path,
    pickling_problem,
    prepare_key,
    segmenter_params,
    stored_init_parameters,
)

__all__ = [
    "CHECKS",
    "Check",
    "CheckResult",
    "ContractCase",
    "ContractReport",
    "SegmenterContractError",
    "check_documents",
    "check_segmenter",
    "parametrize_with_checks",
    "published_segmenters",
    "restart_paths_problem",
]


class SegmenterContractError(StabilityError, AssertionError):
    """A segmenter breaks the segmenter contract; the message names each failed check and why.

    Examples
    --------
    >>> def sizes(units):  # segment sizes, not boundaries
    ...     return [len(units)]
    >>> try:
    ...     check_segmenter(sizes, checks=["valid_output"])
    ... except SegmenterContractError as error:
    ...     print(str(error))  # doctest: +ELLIPSIS
    check_segmenter(sizes): 0 passed, 1 failed, 0 skipped
      FAILED   valid_output  on the document of 1 empty unit: returned invalid boundaries: ...
    """


class _Skip(Exception):
    """A check that does not apply to this segmenter (the reason is the message)."""


class _Broken(Exception):
    """A check failed (the message says what was wrong and where)."""


class _Unsteady(_Broken):
    """The segmenter gave other boundaries for the same units on a later call: its own doing."""


@dataclass(frozen=True)
class Check:
    """One rule of the segmenter contract.

    Attributes
    ----------
    name : str
        Its name (``check_segmenter(..., checks=[name])``).
    rule : str
        What a segmenter must do, in one sentence.
    run : callable
        ``run(segmenter, documents)``: returns what was checked, raises ``_Broken`` with what
        was wrong and where, or ``_Skip`` with why the rule does not apply.
    """

    name: str
    rule: str
    run: Callable[[Any, list[tuple[str, list[str]]]], str]


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check: ``status`` is ``"passed"``, ``"failed"`` or ``"skipped"``, and
    ``message`` says what was checked, what was wrong and where, or why it does not apply."""

    name: str
    status: str
    message: str


@dataclass(frozen=True)
class ContractReport:
    """Every check run on one segmenter (see :func:`check_segmenter`)."""

    segmenter: str
    results: tuple[CheckResult, ...]

    @property
    def ok(self) -> bool:
        """Whether no check failed."""
        return not self.failures

    @property
    def failures(self) -> list[CheckResult]:
        """The failed checks, in the order of :data:`CHECKS`."""
        return [r for r in self.results if r.status == "failed"]

    def __str__(self) -> str:
        counts = {s: sum(r.status == s for r in self.results) for s in ("passed", "failed", "skipped")}
        lines = [f"check_segmenter({self.segmenter}): " + ", ".join(f"{n} {s}" for s, n in counts.items())]
        width = max(len(r.name) for r in self.results) if self.results else 0
        lines += [f"  {r.status.upper() if r.status == 'failed' else r.status:<7}  {r.name:<{width}}  {r.message}"
                  for r in self.results]
        return "\n".join(lines)


# -- the documents ---------------------------------------------------------------------------------
_WORDS = (
    "river bank water fish boat stream money loan credit market stock price music band guitar "
    "song drum stage caf\u00e9 na\u00efve \u00fcber stra\u00dfe \u65e5\u672c\u8a9e \u4e2d\u6587 "
    "\u0645\u0631\u062d\u0628\u0627 \U0001f600 the of and a to in is"
).split()

#: Units of the size of a long document of the check (paragraphs of a long report or a book chapter).
LONG_DOCUMENT_UNITS = 500


def _topical_document(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` units drawn from three vocabularies in turn (7 units each), some empty or blank."""
    units = []
    for i in range(n):
        r = rng.random()
        if r < 0.08:
            units.append("")
        elif r < 0.12:
            units.append(" \n\t ")
        else:
            topic = (i // 7) % 3
            pool = _WORDS[topic * 6 : topic * 6 + 6] + _WORDS[18:]
            units.append(" ".join(pool[int(rng.integers(0, len(pool)))] for _ in range(int(rng.integers(1, 25)))))
    return units


@functools.lru_cache(maxsize=None)
def _documents() -> tuple[tuple[str, tuple[str, ...]], ...]:
    fixed = [
        ("document of 1 empty unit", [""]),
        ("document of 1 blank unit", ["   "]),
        ("document of 1 unit", ["one single unit about rivers and banks"]),
        ("document of 2 empty units", ["", ""]),
        ("document of 2 units", ["first unit", "second unit"]),
        ("document of 3 units of Japanese, Arabic and accented text",
         ["\u65e5\u672c\u8a9e\u306e\u6587", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629", "caf\u00e9 \u00fcber na\u00efve"]),
        ("document of 8 identical units", ["same same same"] * 8),
    ]
    drawn = []
    for seed in range(14):
        rng = np.random.default_rng(seed)
        n = int(rng.choice([1, 2, 3, 5, 12, 40, 90]))
        drawn.append((f"random document {seed} ({n} units, some empty or blank)", _topical_document(rng, n)))
    long = (f"long document ({LONG_DOCUMENT_UNITS} units)",
            _topical_document(np.random.default_rng(1000), LONG_DOCUMENT_UNITS))
    return tuple((label, tuple(units)) for label, units in [*fixed, *drawn, long])


def check_documents() -> list[tuple[str, list[str]]]:
    """The documents the checks run on, as ``(label, units)``: one and two units (empty, blank,
    text), non-ASCII text, identical units, 14 random documents of 1 to 90 units drawn from three
    vocabularies in turn (some units empty or blank) and one of :data:`LONG_DOCUMENT_UNITS` units.

    The same documents on every call (fixed seeds); each list is a fresh copy.
    """
    return [(label, list(units)) for label, units in _documents()]


# -- helpers ----------------------------------------------------------------------------------------
def _output(raw: Any, n_units: int) -> tuple[int, ...]:
    """The boundaries the harness reads from a segmenter's output (its own check, same message)."""
    from .tasks import InvalidOutput, checked

    try:
        return checked(raw, n_units)
    except InvalidOutput as exc:
        raise _Broken(str(exc)) from None


def _call(function: Callable, *args: Any) -> Any:
    """``function(*args)``; an error it raises is the finding, naming the method (``prepare``...)
    when ``function`` is not the segmenter's call itself."""
    try:
        return function(*args)
    except Exception as exc:  # noqa: BLE001 - the segmenter's own error is the finding
        from .tasks import text_hint

        method = getattr(function, "__name__", "") if inspect.ismethod(function) else ""
        raise _Broken(f"{method + ' ' if method in _METHODS else ''}raised {type(exc).__name__}: {exc}"
                      f"{text_hint(exc)}") from None


_METHODS = ("prepare", "segment_prepared", "segment_batch", "unit_terms")


def _segment(segmenter: Any, units: list[str]) -> tuple[int, ...]:
    return _output(_call(segmenter, list(units)), len(units))


def _differ(first: str, a: Sequence[int], second: str, b: Sequence[int]) -> str:
    """Two outputs that should be equal, said by what differs: a long list cut short would hide it."""
    if len(a) + len(b) <= 12:
        return f"{first} returned {list(a)}, {second} {list(b)}"
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    return (f"{first} returned {len(a)} boundaries, {second} {len(b)}; only in the first: {_short_repr(only_a)}, "
            f"only in the second: {_short_repr(only_b)}")


def _on(label: str, problem: str) -> str:
    return f"on the {label}: {problem}"


def _each(documents: list[tuple[str, list[str]]], check: Callable[[str, list[str]], None]) -> None:
    """``check(label, units)`` on every document; the first problem, and how many documents had one."""
    problems: list[_Broken] = []
    for label, units in documents:
        try:
            check(label, units)
        except _Broken as exc:
            problems.append(exc)
    if problems:
        more = f" (and on {len(problems) - 1} more of the {len(documents)} documents)" if len(problems) > 1 else ""
        raise type(problems[0])(f"{problems[0]}{more}")  # of the first problem's kind


def _params(segmenter: Any) -> dict[str, Any]:
    """The segmenter's parameters, or a skip when reading them fails (the parameters check says why)."""
    try:
        return segmenter_params(segmenter)
    except Exception as exc:  # noqa: BLE001
        raise _Skip(f"its parameters cannot be read (see the parameters check): {type(exc).__name__}") from None


def _same_output(segmenter: Any, other: Any, what: str) -> Callable[[str, list[str]], None]:
    """A check of one document: ``other`` (a copy of ``segmenter``) returns what ``segmenter``
    does; documents where ``segmenter`` fails or changes its mind are left to the checks of those."""
    def one(label: str, units: list[str]) -> None:
        try:
            mine, again = _segment(segmenter, units), _segment(segmenter, units)
        except _Broken:
            return
        if mine != again:
            return
        theirs = _segment(other, units)
        if theirs != mine:
            third = _segment(segmenter, units)
            if third != mine:  # it changes its mind itself, only less often: not the copy's doing
                raise _Unsteady(_on(label, _differ("a third call of the segmenter", third, "the first two", mine)
                                  + " (it is not deterministic: declare deterministic = False, or fix its seed)"))
            raise _Broken(_on(label, _differ(what, theirs, "the segmenter", mine)))
    return one


def _rebuildable(segmenter: Any) -> bool:
    """Whether ``segmenter`` is an object built by a class from its keyword parameters."""
    return not (inspect.isroutine(segmenter) or inspect.isclass(segmenter) or isinstance(segmenter, functools.partial)
                or type(segmenter).__init__ is object.__init__)


def _declared_random(segmenter: Any) -> bool:
    return getattr(segmenter, "deterministic", True) is False


# -- the checks -------------------------------------------------------------------------------------
def _check_valid_output(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    def one(label: str, units: list[str]) -> None:
        try:
            _segment(segmenter, units)
        except _Broken as exc:
            raise _Broken(_on(label, str(exc))) from None

    _each(documents, one)
    sizes = sorted(len(units) for _, units in documents)
    return f"valid boundaries on {len(documents)} documents of {sizes[0]} to {sizes[-1]} units"


def _check_deterministic(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    if _declared_random(segmenter):
        raise _Skip("declares itself non-deterministic (deterministic = False): runs flag it, and the "
                    "stability test is not valid for it")
    first = {}
    for label, units in documents:
        try:
            first[label] = _segment(segmenter, units)
        except _Broken:
            continue  # valid_output reports it
    if not first:
        raise _Skip("no document gave valid boundaries (see valid_output)")
    problems = []
    for label, units in reversed(documents):  # other calls in between: state kept across calls shows
        if label not in first:
            continue
        try:
            again = _segment(segmenter, units)
        except _Broken as exc:
            problems.append(_on(label, f"the first call succeeded, the second {exc}"))
            continue
        if again != first[label]:
            problems.append(_on(label, _differ("the first call", first[label], "the second", again)))
    if problems:
        more = f" (and on {len(problems) - 1} more of {len(first)} documents)" if len(problems) > 1 else ""
        raise _Broken(f"{problems[-1]}{more}: runs flag it non-deterministic and the stability test is not valid "
                      "for it; seed its randomness from the units, or declare deterministic = False")
    return f"the same boundaries from two calls on each of {len(first)} documents"


def _check_parameters(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    try:
        params = segmenter_params(segmenter)
    except Exception as exc:  # noqa: BLE001 - a get_params that raises is the finding
        raise _Broken(f"get_params() raised {type(exc).__name__}: {exc}") from None
    if not isinstance(params, dict):
        raise _Broken(f"get_params() must return a dict; received {type(params).__name__}")
    if not all(isinstance(k, str) for k in params):
        raise _Broken(f"get_params() must return a dict keyed by parameter names; received {_short_repr(params)}")
    try:
        repr(segmenter)
    except Exception as exc:  # noqa: BLE001
        raise _Broken(f"repr() raised {type(exc).__name__}: {exc}") from None
    if not _rebuildable(segmenter):
        return f"parameters {_short_repr(params)} (a function: bound keywords only)"
    cls = type(segmenter)
    try:
        signature = list(inspect.signature(cls.__init__).parameters.values())[1:]
    except (TypeError, ValueError):
        return f"parameters {_short_repr(params)} (no signature to compare them with)"
    names = [p.name for p in signature if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if not callable(getattr(segmenter, "get_params", None)) and names and stored_init_parameters(segmenter) is None:
        missing = [n for n in names if not hasattr(segmenter, n)]
        raise _Broken(f"{cls.__name__}.__init__ takes {', '.join(names)}, but {', '.join(missing)} is not stored "
                      f"under its own name (self.{missing[0]} = {missing[0]}) and there is no get_params(): runs record "
                      "no parameters for it, so reports do not show them and a resume cannot tell results computed "
                      "with other values; store them so, derive from stability.Segmenter, or add get_params()")
    if list(params) != names:
        raise _Broken(f"get_params() returns {list(params)}, but {cls.__name__}.__init__ takes {names}: "
                      "they must be the same names, in the same order")
    try:
        clone = cls(**params)
    except Exception as exc:  # noqa: BLE001
        raise _Broken(f"{cls.__name__}(**get_params()) raised {type(exc).__name__}: {exc}: a run rebuilds "
                      "nothing, but the recorded parameters must be the ones that build it") from None
    if _jsonable(segmenter_params(clone)) != _jsonable(params):
        raise _Broken(f"{cls.__name__}(**get_params()) has parameters {_short_repr(segmenter_params(clone))}, not "
                      f"{_short_repr(params)}")
    if not _declared_random(segmenter):
        try:
            _each(documents[:12], _same_output(segmenter, clone, f"{cls.__name__}(**get_params())"))
        except _Broken as exc:
            raise _Broken(f"{exc}: get_params() must give every parameter that changes the output") from None
    return f"parameters {_short_repr(params)} (those of __init__) rebuild a segmenter with the same output"


def _check_n_segments(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    params = _params(segmenter)
    if "n_segments" not in params or not _rebuildable(segmenter):
        raise _Skip("no n_segments parameter")
    cls = type(segmenter)

    def one(label: str, units: list[str]) -> None:
        for k in (1, 2, 3, 7):
            out = _segment(cls(**{**params, "n_segments": k}), units)
            wanted = min(k, len(units)) - 1
            if len(out) != wanted:
                raise _Broken(_on(label, f"with n_segments={k} it returned {len(out)} boundaries "
                                         f"{_short_repr(list(out))}; n_segments=k means min(k, number of units) "
                                         f"segments, {wanted} {'boundary' if wanted == 1 else 'boundaries'} here "
                                         "(n_segments = \"reference\" relies on it)"))

    _each(documents[:-1], one)
    return "n_segments = 1, 2, 3, 7 give that many segments (at most one per unit)"


def _orders(rng: np.random.Generator, n_units: int, count: int) -> np.ndarray:
    return np.stack([rng.permutation(n_units) for _ in range(count)])


def _fast_path_mismatch(segmenter: Any, units: list[str], state: Any, order: np.ndarray) -> str | None:
    """How ``segment_prepared(state, order)`` differs from the plain call on the reordered units."""
    plain = _segment(segmenter, [units[i] for i in order])
    fast = _output(_call(segmenter.segment_prepared, state, order), len(units))
    if fast == plain:
        return None
    return (f"order {_short_repr(order.tolist(), 40)}: "
            + _differ("segment_prepared(prepare(units), order)", fast, "the segmenter on the reordered units", plain))


def _check_fast_path(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    if not has_fast_path(segmenter):
        raise _Skip("no fast restart path (prepare and segment_prepared)")
    rng = np.random.default_rng(99)

    def one(label: str, units: list[str]) -> None:
        state = _call(segmenter.prepare, list(units))
        for order in _orders(rng, len(units), 4):
            problem = _fast_path_mismatch(segmenter, units, state, order)
            if problem is not None:
                raise _Broken(_on(label, f"{problem}; they must be equal, as every restart uses the fast path"))

    _each(documents, one)
    return "segment_prepared(prepare(units), order) equals the segmenter on the reordered units (4 orders a document)"


def _batch_mismatch(segmenter: Any, units: list[str], orders: np.ndarray) -> str | None:
    """How ``segment_batch(state, orders)`` differs from ``segment_prepared`` order by order."""
    from .tasks import InvalidOutput, batch_outputs

    state = _call(segmenter.prepare, list(units))
    expected = [_output(_call(segmenter.segment_prepared, state, order), len(units)) for order in orders]
    try:
        got = batch_outputs(segmenter, state, list(orders), len(units))
    except InvalidOutput as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001
        return f"segment_batch raised {type(exc).__name__}: {exc}"
    for r, (mine, theirs) in enumerate(zip(got, expected)):
        if mine != theirs:
            return (f"order {r} of {len(orders)} ({_short_repr(orders[r].tolist(), 40)}): "
                    + _differ("segment_batch", mine, "segment_prepared", theirs))
    return None


def _check_batch_path(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    if not has_batch_path(segmenter):
        raise _Skip("no batched restart path (segment_batch)")
    rng = np.random.default_rng(7)
    params = _params(segmenter)
    counts: list[int | None] = [None]
    if "n_segments" in params and _rebuildable(segmenter):
        counts += [1, 2, 4]

    def one(label: str, units: list[str]) -> None:
        for k in counts:
            seg = segmenter if k is None else type(segmenter)(**{**params, "n_segments": k})
            problem = _batch_mismatch(seg, units, _orders(rng, len(units), 5))
            if problem is not None:
                known = "" if k is None else f" (with n_segments={k})"
                raise _Broken(_on(label, f"{problem}{known}; item r of segment_batch(state, orders) must be "
                                         "segment_prepared(state, orders[r])"))

    _each(documents, one)
    return "segment_batch(state, orders) equals segment_prepared order by order (5 orders a document)"


def restart_paths_problem(segmenter: Any, units: Sequence[str], orders: Any) -> str | None:
    """How a segmenter's restart paths differ from its plain call on ``units`` reordered by each
    row of ``orders`` (a 2-D array, one permutation of the unit indices a row), as the checks
    ``fast_path`` and ``batch_path`` compare them: ``segment_prepared(prepare(units), order)``
    with the segmenter on the reordered units, then, when it has one, ``segment_batch(state,
    orders)`` with ``segment_prepared`` row by row. ``None`` when they agree. For a property test
    of your own (hypothesis drawing the units and the orders), beside the fixed documents and
    orders of :func:`check_segmenter`.

    Raises
    ------
    InvalidParameterError
        If the segmenter has no fast restart path (``prepare`` and ``segment_prepared``), or a
        row of ``orders`` is not a permutation of ``range(len(units))``.

    Examples
    --------
    >>> import numpy as np
    >>> from stability import get_segmenter
    >>> restart_paths_problem(get_segmenter("c99"), ["river bank", "bank loan", "music band"], np.array([[2, 0, 1]]))
    """
    n = len(units)
    table = np.asarray(orders)
    if table.ndim != 2 or any(sorted(row.tolist()) != list(range(n)) for row in table):
        raise InvalidParameterError.make("orders", f"a 2-D array whose rows are permutations of range({n})", orders)
    if not has_fast_path(segmenter):
        raise InvalidParameterError(f"restart_paths_problem: {_name(segmenter)} has no fast restart path (prepare "
                                    "and segment_prepared): its restarts are plain calls", parameter="segmenter")
    try:
        state = _call(segmenter.prepare, list(units))
        for order in table:
            if (problem := _fast_path_mismatch(segmenter, list(units), state, order)) is not None:
                return problem
        return _batch_mismatch(segmenter, list(units), table) if has_batch_path(segmenter) else None
    except _Broken as exc:
        return str(exc)


def _check_prepared_state(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    if not has_fast_path(segmenter):
        raise _Skip("no fast restart path (prepare and segment_prepared)")
    rng = np.random.default_rng(11)

    def one(label: str, units: list[str]) -> None:
        state = _call(segmenter.prepare, list(units))
        try:
            before = pickle.dumps(state)
        except Exception as exc:  # noqa: BLE001
            raise _Skip(f"its prepared state cannot be pickled to be compared ({type(exc).__name__}: {exc})") from None
        orders = _orders(rng, len(units), 3)
        for order in orders:
            _call(segmenter.segment_prepared, state, order)
        if has_batch_path(segmenter):
            _call(segmenter.segment_batch, state, orders)
        if pickle.dumps(state) != before:
            raise _Broken(_on(label, "segment_prepared or segment_batch modified the state prepare returned; one "
                                     "state serves every restart of a chunk (and several configurations, with "
                                     "prepare_params), so it must be read-only"))

    _each(documents, one)
    return "the prepared state is the same after the restarts"


def _check_prepare_params(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    declared = getattr(segmenter, "prepare_params", None)
    if declared is None or not has_fast_path(segmenter):
        raise _Skip("declares no prepare_params (its prepared state is never shared)")
    try:
        key = prepare_key(segmenter)
    except (InvalidParameterError, InvalidTypeError) as exc:
        raise _Broken(str(exc)) from None
    if key is None:
        return f"prepare_params {list(declared)}: a value is not hashable, so its state is not shared"
    return f"prepare_params {list(declared)} are parameters"


def _check_picklable(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    problem = pickling_problem(segmenter)
    if problem is not None:
        raise _Broken(f"it cannot be pickled to worker processes ({problem}): with --jobs 2 or more (backend loky "
                      "or dask) each of its documents fails; it runs with n_jobs = 1 or the threading "
                      "backend")
    from joblib.externals.loky.backend.reduction import dumps

    copy = pickle.loads(dumps(segmenter))
    if not _declared_random(segmenter):
        try:
            _each(documents[:12], _same_output(segmenter, copy, "its pickled copy"))
        except _Unsteady:
            raise
        except _Broken as exc:
            raise _Broken(f"{exc}: worker processes would score other boundaries") from None
    return "pickled as worker processes receive it, the copy segments alike"


def _check_unit_terms(segmenter: Any, documents: list[tuple[str, list[str]]]) -> str:
    from .segmenter import terms_problem

    unit_terms = getattr(segmenter, "unit_terms", None)
    if not callable(unit_terms) and not callable(getattr(segmenter, "stopword_use", None)):
        raise _Skip("tells no terms (unit_terms, stopword_use): a run does not judge what it sees of a document")

    def one(label: str, units: list[str]) -> None:
        if callable(unit_terms):
            try:
                terms = _call(unit_terms, list(units))
            except _Broken as exc:
                raise _Broken(_on(label, f"{exc} (a run fails on every such document)")) from None
            if terms is not None and (isinstance(terms, (str, bytes)) or not isinstance(terms, Sequence)
                                      or len(terms) != len(units)):
                raise _Broken(_on(label, f"unit_terms returned {_short_repr(terms)} for {len(units)} "
                                         f"unit{'' if len(units) == 1 else 's'}: expected "
                                         "one list of terms per unit, or None (a run would judge the wrong units, "
                                         "and could score the document 0 as term-blind)"))
        try:
            terms_problem(segmenter, list(units))  # what a run does with them, once per document
        except Exception as exc:  # noqa: BLE001 - the segmenter's own methods raised: every document of a run fails
            raise _Broken(_on(label, f"reading its terms as a run does raised {type(exc).__name__}: {exc} (a run "
                                     "fails on every such document)")) from None

    _each(documents, one)
    return f"its terms (unit_terms, stopword_use) read as a run reads them on each of {len(documents)} documents"


#: The rules of the segmenter contract, in the order they are checked and reported.
CHECKS: tuple[Check, ...] = (
    Check("valid_output", "returns boundaries the harness reads (a sequence of distinct integers in 1..n-1, in any "
          "order, or a Segmentation of the units) on short, empty, non-ASCII and long documents",
          _check_valid_output),
    Check("deterministic", "gives the same boundaries for the same units, whatever was segmented in between "
          "(unless it declares deterministic = False)", _check_deterministic),
    Check("parameters", "exposes its parameters (get_params(), or each __init__ parameter stored under its own "
          "name), and those parameters rebuild a segmenter with the same output", _check_parameters),
    Check("n_segments", "with an n_segments parameter, n_segments = k gives min(k, n) segments", _check_n_segments),
    Check("fast_path", "segment_prepared(prepare(units), order) returns what the segmenter returns on the "
          "reordered units", _check_fast_path),
    Check("batch_path", "item r of segment_batch(state, orders) is segment_prepared(state, orders[r])",
          _check_batch_path),
    Check("prepared_state", "segment_prepared and segment_batch leave the prepared state as prepare made it",
          _check_prepared_state),
    Check("prepare_params", "the declared prepare_params are parameters of the segmenter", _check_prepare_params),
    Check("picklable", "can be pickled to worker processes, and the copy segments alike", _check_picklable),
    Check("unit_terms", "unit_terms(units), if it has one, gives one list of terms per unit (or None), and what a "
          "run reads of its terms raises nothing", _check_unit_terms),
)

_BY_NAME = {check.name: check for check in CHECKS}


def _name(segmenter: Any) -> str:
    """How the report names the segmenter: a function by its name, an object by its repr when its
    class has one, else by its class and parameters."""
    if inspect.isroutine(segmenter):
        return getattr(segmenter, "__qualname__", repr(segmenter))
    if type(segmenter).__repr__ is not object.__repr__:
        try:
            return repr(segmenter)
        except Exception:  # noqa: BLE001 - the parameters check says why
            return type(segmenter).__name__
    try:
        params = segmenter_params(segmenter)
    except Exception:  # noqa: BLE001
        params = {}
    return f"{type(segmenter).__name__}({', '.join(f'{k}={v!r}' for k, v in params.items())})"


def _run_check(check: Check, segmenter: Any, documents: list[tuple[str, list[str]]]) -> CheckResult:
    try:
        message = check.run(segmenter, documents)
    except _Skip as exc:
        return CheckResult(check.name, "skipped", str(exc))
    except _Broken as exc:
        return CheckResult(check.name, "failed", str(exc))
    except Exception as exc:  # noqa: BLE001 - the segmenter's code, reached where no check expected it
        return CheckResult(check.name, "failed", f"the check stopped on {type(exc).__name__}: {exc}")
    return CheckResult(check.name, "passed", message)


def check_segmenter(
    segmenter: Any,
    *,
    checks: Sequence[str] | None = None,
    documents: Sequence[Sequence[str]] | None = None,
    raise_on_failure: bool = True,
) -> ContractReport:
    """Run the checks of the segmenter contract (:data:`CHECKS`) on your segmenter.

    Each check says what it verified, or what was wrong and on which document, or why it does not
    apply (no fast path, no ``n_segments``...). The checks run on :func:`check_documents` (and on
    ``documents``); they call the segmenter a few thousand times in all, so a segmenter that takes
    a second a call takes an hour: pass ``checks`` to run some of them.

    Parameters
    ----------
    segmenter : callable or str
        The segmenter (a function ``units -> boundaries``, an object of a segmenter class), or
        anything :func:`stability.get_segmenter` resolves: a registered name, a
        ``"module:attribute"`` (imported: it runs that module's code).
    checks : sequence of str, optional
        The names of the checks to run (default: all of :data:`CHECKS`, in their order).
    documents : sequence of sequences of str, optional
        More documents, each a sequence of units (e.g. a few of your corpus), checked first.
    raise_on_failure : bool, default True
        Raise :class:`SegmenterContractError` when a check fails (a test then fails with the
        report as its message); otherwise return the report.

    Returns
    -------
    ContractReport
        One :class:`CheckResult` per check; ``print(report)`` shows them, ``report.ok`` whether
        none failed.

    Raises
    ------
    SegmenterContractError
        If a check fails and ``raise_on_failure``: the message is the report.
    InvalidParameterError
        If ``checks`` names no check, or ``segmenter`` is built with ``n_segments="reference"``
        (a different segmenter per document: check it built with an integer).
    InvalidTypeError
        If ``checks`` is not a name or a list of names, or ``documents`` is not a sequence of
        sequences of strings with at least one unit each.
    UnknownSegmenterError
        If a name or ``"module:attribute"`` cannot be resolved.

    Examples
    --------
    >>> from stability import Segmenter, check_segmenter
    >>> class EveryK(Segmenter):
    ...     def __init__(self, k=3):
    ...         self.k = k
    ...     def segment(self, units):
    ...         return list(range(self.k, len(units), self.k))
    >>> report = check_segmenter(EveryK(k=4))
    >>> report.ok, [r.name for r in report.results if r.status == "skipped"]
    (True, ['n_segments', 'fast_path', 'batch_path', 'prepared_state', 'prepare_params', 'unit_terms'])
    """
    from .registry import ReferenceCountSegmenter, get_segmenter

    if isinstance(segmenter, ReferenceCountSegmenter):
        raise InvalidParameterError(
            "check_segmenter: a segmenter built with n_segments='reference' is a different segmenter on each "
            "document; check it built with an integer n_segments (the same class and other parameters)",
            parameter="segmenter")
    if isinstance(segmenter, str) or not callable(segmenter):
        segmenter = get_segmenter(segmenter)
    if checks is None:
        chosen = list(CHECKS)
    else:
        if isinstance(checks, str):
            checks = [checks]
        # an int was "'int' object is not iterable", a list in the list "unhashable type: 'list'"
        if not isinstance(checks, Iterable):
            raise InvalidTypeError.make("checks", f"a list of names among {', '.join(_BY_NAME)}", checks)
        checks = list(checks)
        if not all(isinstance(name, str) for name in checks):
            raise InvalidTypeError.make("checks", f"a list of names among {', '.join(_BY_NAME)}", checks)
        unknown = [name for name in checks if name not in _BY_NAME]
        if unknown or not checks:
            raise InvalidParameterError.make("checks", f"names among {', '.join(_BY_NAME)}", list(checks))
        chosen = [_BY_NAME[name] for name in checks]
    given = []
    if documents is not None:
        if isinstance(documents, (str, bytes)) or not isinstance(documents, Sequence):
            raise InvalidTypeError.make("documents", "a sequence of documents, each a sequence of units", documents)
        for i, units in enumerate(documents):
            if (isinstance(units, (str, bytes)) or not isinstance(units, Sequence) or not units
                    or not all(isinstance(u, str) for u in units)):
                raise InvalidTypeError.make(f"documents[{i}]", "a non-empty sequence of strings (the units)", units)
            given.append((f"document {i} you gave ({len(units)} units)", list(units)))
    docs = given + check_documents()
    name = _name(segmenter)
    report = ContractReport(name, tuple(_run_check(check, segmenter, docs) for check in chosen))
    if raise_on_failure and not report.ok:
        raise SegmenterContractError(str(report))
    return report


def _distribution_key(name: str) -> str:
    """A distribution's name as packaging compares them (PEP 503): ``My_Pkg`` is ``my-pkg``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def published_segmenters(distribution: str) -> list[str]:
    """The segmenter names an installed distribution publishes under the entry-point group
    ``stability.segmenters`` (nothing is imported to tell).

    Raises
    ------
    InvalidParameterError
        If it publishes none: it is not installed in this environment, or its entry points are in
        another group (the message lists the distributions that do publish segmenters).

    Examples
    --------
    >>> "c99" in published_segmenters("stability-harness")
    True
    """
    from .registry import ENTRY_POINT_GROUP, available_segmenters

    if not isinstance(distribution, str) or not distribution.strip():
        raise InvalidTypeError.make("distribution", "the name of an installed package (its pyproject's name)",
                                    distribution)
    infos = available_segmenters().values()
    names = [info.name for info in infos
             if info.distribution and _distribution_key(info.distribution) == _distribution_key(distribution)]
    if not names:
        publishers = sorted({info.distribution for info in infos if info.distribution})
        raise InvalidParameterError(
            f"no installed package named {distribution!r} publishes a segmenter: install it in this environment "
            f"(pip install -e . in its folder) and declare its segmenters in the "
            f"[project.entry-points.\"{ENTRY_POINT_GROUP}\"] table of its pyproject.toml; packages publishing "
            f"segmenters here: {', '.join(publishers) or 'none'}", parameter="distribution")
    return names


@dataclass(frozen=True)
class ContractCase:
    """One check of the contract, for :func:`parametrize_with_checks`: ``case(segmenter)`` runs it
    (a name is resolved first, as a run resolves it); the test fails with what was wrong, and no
    traceback of the harness (``pytest.fail``), when the check fails or the segmenter cannot be
    loaded or built, and is skipped (``pytest.skip``) with why when the check does not apply."""

    check: str
    documents: tuple[tuple[str, ...], ...] = ()

    def __call__(self, segmenter: Any) -> CheckResult:
        import pytest

        try:
            report = check_segmenter(segmenter, checks=[self.check], documents=list(self.documents) or None,
                                     raise_on_failure=False)
        except StabilityError as exc:  # a name that does not load, a class that needs a parameter
            unusable = f"{type(exc).__name__}: {exc}"
        else:
            unusable = ""
        if unusable:  # outside the except clause: the reason alone, not a chain of the harness's exceptions
            pytest.fail(unusable, pytrace=False)
        [result] = report.results
        if result.status == "failed":
            pytest.fail(str(report), pytrace=False)
        if result.status == "skipped":
            pytest.skip(f"{result.name}: {result.message}")  # the test id names the segmenter: like skips group
        return result

    def __repr__(self) -> str:
        return self.check


def parametrize_with_checks(
    segmenters: Sequence[Any] | Mapping[str, Any] = (),
    *,
    distribution: str | None = None,
    checks: Sequence[str] | None = None,
    documents: Sequence[Sequence[str]] | None = None,
) -> Any:
    """A pytest decorator giving a test one case per segmenter and check of the contract
    (:data:`CHECKS`), so that a plugin's test suite holds its segmenters to the rules the project
    holds its own to, each failure reported as its own test (``everyk-deterministic``).

    The test takes two arguments, ``segmenter`` and ``check``, and calls ``check(segmenter)``::

        from stability.contract import parametrize_with_checks

        @parametrize_with_checks(distribution="mypkg")
        def test_contract(segmenter, check):
            check(segmenter)

    Parameters
    ----------
    segmenters : sequence or mapping, optional
        Segmenters to check: names (resolved when the test runs, so that one which fails to load
        fails its tests with the reason), ``"module:attribute"`` strings or segmenter objects; a
        mapping gives each a label (the test ids), and replaces a name of ``distribution`` with the
        same label (a class that needs a parameter: ``{"mine": Mine(model_path=...)}``).
    distribution : str, optional
        An installed package: every segmenter it publishes under the entry-point group
        ``stability.segmenters``, by name (:func:`published_segmenters`; an error if none).
    checks : sequence of str, optional
        The checks to run (default: all of :data:`CHECKS`).
    documents : sequence of sequences of str, optional
        More documents to check on (:func:`check_segmenter`'s ``documents``).

    Returns
    -------
    pytest.MarkDecorator
        ``pytest.mark.parametrize("segmenter, check", ...)``.

    Raises
    ------
    InvalidParameterError
        If neither gives a segmenter, ``distribution`` publishes none, or ``checks`` names no check.

    Examples
    --------
    >>> def halves(units):
    ...     return [len(units) // 2] if len(units) > 1 else []
    >>> mark = parametrize_with_checks({"halves": halves}, checks=["valid_output", "deterministic"])
    >>> [param.id for param in mark.args[1]]
    ['halves-valid_output', 'halves-deterministic']
    >>> segmenter, check = mark.args[1][0].values
    >>> check(segmenter).status
    'passed'
    """
    import pytest

    if isinstance(segmenters, Mapping):
        given = {str(label): segmenter for label, segmenter in segmenters.items()}
    elif isinstance(segmenters, (str, bytes)) or not isinstance(segmenters, Sequence):
        raise InvalidTypeError.make("segmenters", "a list of segmenters (names or objects) or a mapping "
                                    "label -> segmenter", segmenters)
    else:
        given = {}
        for segmenter in segmenters:  # two lambdas are both '<lambda>': the second is '<lambda>#2', never lost
            label = segmenter if isinstance(segmenter, str) else _name(segmenter)
            labels = itertools.chain([label], (f"{label}#{n}" for n in itertools.count(2)))
            given[next(name for name in labels if name not in given)] = segmenter
    labelled = {name: name for name in published_segmenters(distribution)} if distribution is not None else {}
    labelled.update(given)
    if not labelled:
        raise InvalidParameterError("parametrize_with_checks: no segmenter to check; give segmenters, or the "
                                    "distribution whose segmenters to check", parameter="segmenters")
    names = [check.name for check in CHECKS] if checks is None else list(checks)
    unknown = [name for name in names if name not in _BY_NAME]
    if unknown or not names:
        raise InvalidParameterError.make("checks", f"names among {', '.join(_BY_NAME)}", names)
    extra = tuple(tuple(units) for units in documents or ())
    return pytest.mark.parametrize(("segmenter", "check"), [
        pytest.param(segmenter, ContractCase(name, extra), id=f"{label}-{name}")
        for label, segmenter in labelled.items() for name in names])
