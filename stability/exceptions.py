"""Errors raised by the stability toolkit.

Every error is a subclass of :class:`StabilityError` and of the built-in exception a caller would
naturally catch (``ValueError`` for bad values, ``TypeError`` for bad types, ``LookupError`` for an
unknown name), so ``except ValueError`` keeps working for code that does not know this package.

Messages follow one pattern: they name the parameter (or the segmenter, document and restart), say
what was expected, and show what was received.

Every warning is a :class:`StabilityWarning` (one category filters them all), emitted by
:func:`warn` at the line of the caller's code that led to it.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import Any

__all__ = [
    "StabilityError",
    "InvalidSegmentationError",
    "InvalidParameterError",
    "InvalidTypeError",
    "UnknownSegmenterError",
    "SegmenterError",
    "SegmenterOutputError",
    "CorpusFormatError",
    "ClusterError",
    "MissingDependencyError",
    "RunInterrupted",
    "StabilityWarning",
    "warn",
]


def _short_repr(value: Any, limit: int = 80) -> str:
    """``repr`` of ``value`` cut to ``limit`` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class StabilityError(Exception):
    """Base class of every error raised on purpose by this package.

    Examples
    --------
    >>> from stability import Segmentation, get_segmenter
    >>> for mistake in (lambda: Segmentation.from_boundaries([0, 3], 5), lambda: get_segmenter(3)):
    ...     try:
    ...         mistake()
    ...     except StabilityError as error:  # any of them, whatever its kind
    ...         print(type(error).__name__)
    InvalidSegmentationError
    InvalidTypeError
    """


class InvalidSegmentationError(StabilityError, ValueError):
    """A segmentation (boundaries, masses, gap string or labels) is malformed.

    Examples
    --------
    >>> from stability import Segmentation
    >>> Segmentation.from_boundaries([0, 3], n_units=5)
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidSegmentationError: boundaries must lie in 1..4 for a document of 5 units (a boundary b starts a segment at unit b); received 0 in [0, 3]; 0 starts the first segment, not a boundary: leave it out
    """


class _ParameterError(StabilityError):
    """An error about one parameter, which it names in :attr:`parameter` (the keyword argument, or
    ``None``) so that a front end can say it in its own words: the command line names its flag
    (``--ci-width`` for ``ci_width``), a config file its key. Hints inside a message name other
    keywords as ``keyword=`` (``pass format= ...``), the one spelling a front end translates."""

    def __init__(self, message: str = "", *, parameter: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter


class InvalidParameterError(_ParameterError, ValueError):
    """A parameter has a value outside what the function accepts.

    Examples
    --------
    >>> error = InvalidParameterError.make("ci_width", "None or a number > 0", 5)
    >>> str(error), error.parameter
    ('ci_width must be None or a number > 0; received 5', 'ci_width')
    """

    @classmethod
    def make(cls, name: str, expected: str, received: Any) -> "InvalidParameterError":
        """Build the standard message ``name must be <expected>; received <value>``."""
        return cls(f"{name} must be {expected}; received {_short_repr(received)}", parameter=name)


class InvalidTypeError(_ParameterError, TypeError):
    """A parameter has the wrong type.

    Examples
    --------
    >>> from stability import evaluate
    >>> evaluate({"c99": "c99", "mine": 3}, [["a b", "c d"]])
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidTypeError: segmenters['mine'] must be a callable, a registered name or a 'module:attribute' string; received int 3
    """

    @classmethod
    def make(cls, name: str, expected: str, received: Any) -> "InvalidTypeError":
        """Build the standard message ``name must be <expected>; received <type> <value>``."""
        return cls(
            f"{name} must be {expected}; received {type(received).__name__} {_short_repr(received)}", parameter=name
        )


class UnknownSegmenterError(StabilityError, LookupError):
    """A segmenter name that is neither registered nor an importable ``module:attribute``.

    Examples
    --------
    >>> from stability import get_segmenter
    >>> get_segmenter("c9")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stability.exceptions.UnknownSegmenterError: unknown segmenter 'c9'. Did you mean 'c99'? Known segmenters: ...
    """


def call_place(restart: int | None, stream: str | None) -> str:
    """Which call of a pair failed, in words: the initial segmentation, a restart of a permutation
    stream, or the batched restarts of a stream (no single restart failed).

    Examples
    --------
    >>> call_place(None, None), call_place(3, "shuffle"), call_place(None, "within")
    ('initial segmentation', 'restart 3 of the shuffle stream', 'the batched restarts of the within stream')
    """
    if restart is None:
        return "initial segmentation" if stream is None else f"the batched restarts of the {stream} stream"
    return f"restart {restart}" + ("" if stream is None else f" of the {stream} stream")


def call_and_seed(restart: int | None, stream: str | None, seed: int | None) -> str:
    """:func:`call_place` and the seed of the run (left out when unknown): what reproduces the call.

    >>> call_and_seed(None, None, 0), call_and_seed(2, "within", None)
    ('initial segmentation, seed 0', 'restart 2 of the within stream')
    """
    return call_place(restart, stream) + ("" if seed is None else f", seed {seed}")


def failure_place(segmenter: str, document: str | None, restart: int | None, stream: str | None,
                  seed: int | None) -> str:
    """Where a segmenter failed, as every message about it says it (the :class:`SegmenterError`
    raised, a :class:`~stability.results.Failure` stored or shown, the command line's warning): the
    segmenter, the document (left out when it has no id: ``None`` or ``""``, a document given to
    :func:`stability.stability_test` without ``doc_id``), the call (:func:`call_place`) and the seed.

    >>> failure_place("mine", "d1", 3, "shuffle", 0)
    "segmenter 'mine', document 'd1', restart 3 of the shuffle stream, seed 0"
    >>> failure_place("mine", "", None, None, None)
    "segmenter 'mine', initial segmentation"
    """
    where = f"segmenter {segmenter!r}" + (f", document {document!r}" if document else "")
    return f"{where}, {call_and_seed(restart, stream, seed)}"


class SegmenterError(StabilityError, RuntimeError):
    """A segmenter raised while segmenting a document.

    The message names the segmenter, the document, the call (the initial segmentation, or the
    restart of permutation ``stream``: ``"within"``, ``"shuffle"`` or ``"layout"``; ``restart``
    ``None`` with a stream when a batched call failed and no single restart did) and the seed, so
    the failing call can be reproduced alone, in the words of the run's
    :class:`~stability.results.Failure` (:func:`failure_place`); ``reason`` is what went wrong,
    without that place. ``traceback`` is the segmenter's own traceback when it
    raised (``""`` for an invalid output), shown after the message: the line of the segmenter that
    failed, which the traceback of this exception, raised by the library, does not reach.

    :func:`stability.stability_test` raises it; :func:`stability.evaluate` records a
    :class:`~stability.results.Failure` and goes on (``raise_on_error=True`` raises it instead).

    Examples
    --------
    >>> from stability import stability_test
    >>> def needs_a_model(units):
    ...     raise RuntimeError("model not loaded")
    >>> try:
    ...     stability_test(needs_a_model, ["a b", "c d", "e f"], n_restarts=2, doc_id="doc1")
    ... except SegmenterError as error:
    ...     print(error.segmenter, error.document, error.restart, error.reason)
    needs_a_model doc1 None RuntimeError: model not loaded
    """

    def __init__(
        self,
        message: str,
        *,
        segmenter: str = "",
        document: str | None = None,
        restart: int | None = None,
        seed: int | None = None,
        stream: str | None = None,
        traceback: str = "",
    ) -> None:
        self.segmenter = segmenter
        self.traceback = traceback
        self.document = document
        self.restart = restart
        self.seed = seed
        self.stream = stream
        self.reason = message  # what went wrong, without where
        super().__init__(f"{failure_place(segmenter, document, restart, stream, seed)}: {message}"
                         + (f"\n{traceback}" if traceback else ""))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its fields (joblib's workers, Dask and multiprocessing send exceptions
        pickled): an exception is rebuilt from its ``args``, here the whole message, which
        ``__init__`` read as the reason of a failure of segmenter ``''`` and lost every field."""
        fields = {"segmenter": self.segmenter, "document": self.document, "restart": self.restart,
                  "seed": self.seed, "stream": self.stream, "traceback": self.traceback}
        return _rebuild_segmenter_error, (type(self), self.reason, fields), self.__dict__


def _rebuild_segmenter_error(cls: type[SegmenterError], reason: str, fields: dict[str, Any]) -> SegmenterError:
    """A :class:`SegmenterError` unpickled (:meth:`SegmenterError.__reduce__`)."""
    return cls(reason, **fields)


class SegmenterOutputError(SegmenterError, ValueError):
    """A segmenter returned something that is not a valid list of boundaries.

    Examples
    --------
    >>> from stability import stability_test
    >>> def sizes(units):  # segment sizes, where boundaries are expected
    ...     return [len(units)]
    >>> try:
    ...     stability_test(sizes, ["a b", "c d", "e f"], n_restarts=2, doc_id="doc1")
    ... except SegmenterOutputError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    segmenter 'sizes', document 'doc1', initial segmentation, seed 0: returned invalid boundaries: boundaries must lie in 1..2 for a document of 3 units ...; received 3 in [3]; ... segment sizes? ...
    """


class CorpusFormatError(StabilityError, ValueError):
    """A corpus file does not follow its format; the message names the file and the line.

    Examples
    --------
    >>> import os, tempfile
    >>> from stability import read_corpus
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "docs.jsonl")
    ...     with open(path, "w") as file:
    ...         print('{"id": "a", "units": ["one", "two"]}', file=file)
    ...         print('{"id": "b", "units": ', file=file)  # cut short
    ...     try:
    ...         documents = list(read_corpus(path))
    ...     except CorpusFormatError as error:
    ...         print(os.path.basename(error.path), error.line)
    docs.jsonl 2
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.reason = message  # what is wrong, without the file and line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + message)


class ClusterError(StabilityError, RuntimeError):
    """The Dask cluster of a run cannot run its tasks: its scheduler cannot be reached or stopped
    mid-run, or it has had no worker for too long.

    Examples
    --------
    A run on a cluster (``backend="dask"``) that loses it raises one; with ``output=`` the pairs
    finished are in the results file, and ``resume=True`` continues:

    >>> issubclass(ClusterError, RuntimeError)  # caught by code that knows nothing of stability
    True
    """


class MissingDependencyError(StabilityError, ImportError):
    """An optional package that a segmenter, splitter or method needs is not installed; the
    message names the package and the extra that installs it.

    Examples
    --------
    Code that falls back when an extra is missing catches it as any ``ImportError``:

    >>> from stability import get_segmenter
    >>> try:
    ...     segmenter = get_segmenter("semchunk", chunk_size=50)  # the ``chunkers`` extra
    ... except ImportError:
    ...     segmenter = get_segmenter("fixed_chars", chunk_size=300)
    >>> callable(segmenter)
    True
    """


class RunInterrupted(KeyboardInterrupt):
    """A corpus run (:func:`stability.evaluate`) stopped by an interrupt: Ctrl-C or SIGINT (a
    notebook's interrupt button), or SIGTERM. What had finished is kept in :attr:`result`.

    It is a ``KeyboardInterrupt``, so it stops a script or a notebook cell as any interrupt does
    (and is not caught by ``except Exception``); catch it to go on with the partial result.

    Attributes
    ----------
    finished : int
        The (segmenter, document) pairs finished before the interrupt, results and failures.
    result : CorpusResult
        Those pairs as a :class:`~stability.results.CorpusResult` (its summaries computed when it
        is first read), as :func:`~stability.store.load_results` reads them from an interrupted
        run's results file.

    Examples
    --------
    >>> stop = RunInterrupted("interrupted", lambda: "the partial result", finished=2)
    >>> isinstance(stop, KeyboardInterrupt), stop.finished, stop.result
    (True, 2, 'the partial result')
    """

    def __init__(self, message: str, build: Callable[[], Any], finished: int) -> None:
        super().__init__(message)
        self.finished = finished
        self._build = build
        self._result: Any = None

    @property
    def result(self) -> Any:
        if self._result is None:
            self._result = self._build()
        return self._result

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its result, built then (its builder, a closure over the run, does not pickle,
        and an exception is rebuilt from its ``args``, which lack the builder and ``finished``)."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("_build", "_result")}
        return _rebuild_interrupted, (str(self), self.result, self.finished), state


def _rebuild_interrupted(message: str, result: Any, finished: int) -> RunInterrupted:
    """A :class:`RunInterrupted` unpickled (:meth:`RunInterrupted.__reduce__`), holding ``result``."""
    return RunInterrupted(message, lambda: result, finished)


class StabilityWarning(UserWarning):
    """Base class of every warning of this package (:class:`~stability.SettingsWarning`,
    :class:`~stability.CorpusWarning`, :class:`~stability.ResultsWarning`,
    :class:`~stability.SegmenterWarning`):
    ``warnings.filterwarnings("ignore", category=StabilityWarning)`` silences them all.

    Examples
    --------
    >>> import warnings
    >>> from stability import Settings
    >>> with warnings.catch_warnings():
    ...     warnings.filterwarnings("error", category=StabilityWarning)  # a warning stops the script
    ...     try:
    ...         Settings(ci_width=0.1, min_restarts=3)
    ...     except StabilityWarning as warning:
    ...         print(type(warning).__name__)
    SettingsWarning
    """


def _own(frame: Any) -> bool:
    """Whether ``frame`` runs this package's code: a function of one of its modules, or one that
    ``dataclasses`` wrote for a class of it (``Settings.__init__``, whose file is ``<string>``)."""
    name = frame.f_globals.get("__name__") or ""
    return name == __package__ or name.startswith(f"{__package__}.")


def warn(message: str, category: type[StabilityWarning]) -> None:
    """Emit ``message`` as a warning of ``category`` at the first frame outside this package: the
    line of the user's script or notebook cell (or of the command line's framework) that called
    into it, whatever the depth of the calls inside, as Python 3.12's ``skip_file_prefixes`` does.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("something was adjusted", StabilityWarning)
    >>> caught[0].category.__name__, str(caught[0].message)
    ('StabilityWarning', 'something was adjusted')
    """
    level, frame = 2, sys._getframe(1)
    while frame.f_back is not None and _own(frame):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
