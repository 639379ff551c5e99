"""The settings of a stability run: one frozen object, every field declared and checked once.

:class:`Settings` is what :func:`stability.stability_test` and :func:`stability.evaluate` read;
both take one (``settings=``) or the keywords that build one, and the ``[run]`` table of an
experiment file (:mod:`stability.config`) accepts exactly its fields. Each field declares its
check (from :mod:`stability.checks`), whether it is *recorded* (it changes the results, so it is
written in the results file and must match to resume), and which config table it comes from.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import partial
from typing import Any

from .checks import check_bool, check_choice, check_int, check_real, did_you_mean
from .exceptions import InvalidParameterError, InvalidTypeError, StabilityWarning, warn
from .permutations import Stream, check_seed

__all__ = ["Settings", "SettingsWarning", "BACKENDS", "METRIC_OPTIONS", "max_jobs"]


class SettingsWarning(StabilityWarning):
    """A setting was adjusted (e.g. ``n_jobs`` capped; the message says from what to what), or a
    run goes without one its segmenters need (the layout control for text chunkers).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     settings = Settings(ci_width=0.1, min_restarts=3)  # too few restarts for a 95% interval
    >>> caught[0].category.__name__, str(caught[0].message)[:60]
    ('SettingsWarning', 'min_restarts=3: a bootstrap interval over 3 restart(s) holds')
    """

#: joblib backends a run accepts (``None``: loky when ``n_jobs != 1``, else in-process).
#: The backends a run accepts (``None``: loky). joblib's ``multiprocessing`` backend is not one: it
#: returns no result before all are done, and a run writes each result as it comes.
BACKENDS = (None, "loky", "threading", "sequential", "dask")
#: What adaptive stopping can watch (``ci_score``): each stream's F1, or the document's headline.
CI_SCORES = ("f1", "headline")

#: Keys of the ``metrics`` mapping (options of :func:`stability.metrics.compute_all`, plus ``names``).
METRIC_OPTIONS = ("k", "tolerance", "gamma", "window_limit", "names")


#: ``n_jobs`` above this many workers per core is capped (more only adds processes and memory).
JOBS_PER_CORE = 4


def max_jobs() -> int:
    """The most workers a run starts: :data:`JOBS_PER_CORE` per core."""
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def _check_jobs(value: Any, name: str) -> int:
    jobs = check_int(value, name)
    if jobs == 0:
        raise InvalidParameterError.make(name, "a non-zero integer (-1: all cores)", value)
    if abs(jobs) > max_jobs():
        capped = max_jobs() if jobs > 0 else -1
        warn(f"{name}={jobs} is beyond {max_jobs()} workers ({JOBS_PER_CORE} per core on "
             f"{os.cpu_count() or 1} cores); using {name}={capped}", SettingsWarning)
        return capped
    cores = os.cpu_count() or 1
    if jobs < -1 and cores + 1 + jobs < 1:  # joblib's -k: all cores but k - 1
        warn(f"{name}={jobs} means all {cores} cores but {-jobs - 1}, none left; using {name}=1",
             SettingsWarning)
        return 1
    return jobs


def _check_seed(value: Any, name: str) -> int:
    return check_seed(value)


def _check_optional_bool(value: Any, name: str) -> bool | None:
    return None if value is None else check_bool(value, name)


def _check_metric_names(names: Any, name: str = "metrics names") -> list[str]:
    """The metrics' catalogue names, an alias (``b``, ``wd``, as ``--metrics`` takes them) read as
    the name it stands for; an error names the first string that is neither, with the closest
    spelling (as ``--metrics`` does)."""
    from .catalogue import aliases_said, reference_spellings

    spelled = reference_spellings()
    if isinstance(names, str) or not isinstance(names, (list, tuple)) or not all(
        isinstance(n, str) and n in spelled for n in names
    ):
        error = InvalidParameterError.make(
            name, f"a list drawn from {', '.join(sorted(set(spelled.values())))} (or an alias: "
            f"{aliases_said(spelled)})", names)
        unknown = [n for n in names if isinstance(n, str) and n not in spelled] if isinstance(names, (list, tuple)) else []
        if unknown:
            raise InvalidParameterError(f"{error}; unknown: {unknown[0]!r}{_not_a_reference_metric(unknown[0])}",
                                        parameter=name)
        raise error
    return list(dict.fromkeys(spelled[n] for n in names))


def _not_a_reference_metric(name: str) -> str:
    """What an error says of ``name``, not a reference metric: that it is a stability score
    (``shuffle_f1``, ``STP``), which every run computes and no list of metrics chooses, else the
    closest reference metric (:func:`~stability.catalogue.reference_suggestion`)."""
    from .catalogue import STABILITY, reference_suggestion

    folded = name.strip().casefold()
    score = next((m for m in STABILITY.values() if folded in (m.name.casefold(), m.short.casefold())), None)
    if score is None:
        return reference_suggestion(name)
    return (f", a stability score ({score.short}), which every run computes: the names choose among the reference "
            "metrics, computed against the documents' references")


def _check_metrics(value: Any, name: str) -> dict[str, Any] | None:
    """``True`` (default options) -> ``{}``; ``False``/``None`` (skip) -> ``None``; the metrics to
    compute, named as :func:`stability.reporting.render` and ``--metrics`` take them (a list of
    names or aliases, or one comma-separated string) -> ``{"names": [...]}``; a mapping of
    :data:`METRIC_OPTIONS` -> a checked copy."""
    if value is True:
        return {}
    if value is False or value is None:
        return None
    if isinstance(value, str):  # split at commas, never read letter by letter
        value = [part.strip() for part in value.split(",") if part.strip()] or value
    if isinstance(value, (list, tuple)):
        return {"names": _check_metric_names(value, name)}
    if not isinstance(value, Mapping):
        raise InvalidParameterError.make(
            name, "True, False, the reference metrics to compute (a list of names, e.g. ['pk', 'wd']) or a "
                  "mapping of metric options", value)
    unknown = sorted(set(value) - set(METRIC_OPTIONS))
    if unknown:
        raise InvalidParameterError.make(
            name, f"True, False or a mapping with keys {', '.join(METRIC_OPTIONS)}", dict(value)
        )
    options = dict(value)
    if "names" in options:
        options["names"] = _check_metric_names(options["names"])
    return {key: _METRIC_OPTION_CHECKS[key](v) if key in _METRIC_OPTION_CHECKS else v for key, v in options.items()}


def _check_window(k: Any) -> Any:
    """The window ``k`` of the metrics: None, a convention's name, or a window of at least 1 unit
    (a document's own number of units bounds it when its metrics are computed)."""
    from .metrics._common import check_window

    return check_window(k, "metrics k")


#: The checks of the metric options a run stores (the metric functions check them again per document).
_METRIC_OPTION_CHECKS: dict[str, Callable[[Any], Any]] = {
    "k": _check_window,
    "tolerance": partial(check_int, name="metrics tolerance", low=0),
    "gamma": partial(check_real, name="metrics gamma", low=0.0, high=1.0),
    "window_limit": partial(check_int, name="metrics window_limit", low=0),
}


def _setting(default: Any, check: Callable[[Any, str], Any], *, recorded: bool = False, table: str = "run",
             quiet_default: bool = False) -> Any:
    """A settings field: its default, its check, whether it is recorded, its config table.

    ``quiet_default``: a recorded field written only when it differs from its default (a field
    added after results files existed: files written before it, and runs leaving it off, record
    the same settings, so they stay valid and resumable).
    """
    metadata = {"check": check, "recorded": recorded, "table": table, "quiet_default": quiet_default}
    return field(default=default, metadata=metadata)


#: The longest ``timeout``, in seconds (about 31 years): the call's ``SIGALRM`` timer holds no more than
#: about 9.2e9 s (Python counts it in int64 nanoseconds), less on a platform with a 32-bit ``time_t``.
MAX_TIMEOUT = 10**9

def _check_level(value: Any, name: str) -> float:
    """A confidence level, in (0, 1); one written as a percentage (``95``) is refused saying the
    fraction it means."""
    try:
        return check_real(value, name, low=0, high=1, low_open=True, high_open=True)
    except InvalidParameterError as exc:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 1 < value < 100:
            raise InvalidParameterError(f"{exc} (a fraction: {value / 100:g} for {value:g}%)", parameter=exc.parameter) from None
        raise


#: Upper bound of ``n_bootstrap * n_restarts`` (the bootstrap's index array per document).
MAX_BOOTSTRAP_CELLS = 2**26


def min_bootstrap(confidence: float) -> int:
    """The fewest bootstrap resamples (``n_bootstrap``) for a percentile interval at ``confidence``:
    it leaves out ``(1 - confidence) / 2`` of the resamples at each end, one resample each from
    ``2 / (1 - confidence)`` on (40 at 0.95, 200 at 0.99). With fewer its ends lie among the smallest
    and largest resamples whatever the level, so it is no interval at that level.
    A run (:class:`Settings`) warns under it; ``stability validate`` refuses fewer
    (:data:`stability.study.run.MIN_BOOTSTRAP`).

    >>> min_bootstrap(0.95), min_bootstrap(0.99), min_bootstrap(0.9), min_bootstrap(0.5)
    (40, 200, 20, 4)
    """
    return math.ceil(round(2 / (1 - confidence), 6))  # 2 / (1 - 0.95) is 40.000000000000036 in floats


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Settings of the stability test and of corpus runs, built by keyword and checked once.

    Parameters
    ----------
    n_restarts : int, default 100
        Restarts per document (the paper's 100); the maximum when ``ci_width`` is set.
    seed : int, default 0
        Run seed. Restart ``r`` of document ``doc_id`` always gets the same permutation.
    tolerance : int, default 0
        Near-miss window in units for matching ``Br`` to ``B0`` (one-to-one); 0 = exact, as in
        the paper.
    ci_width : float, optional
        Adaptive stopping: after ``min_restarts``, every ``check_every`` restarts, stop once the
        ``confidence`` bootstrap interval of ``ci_score`` is at most this wide (in (0, 1]).
    ci_score : {"f1", "headline"}, default "f1"
        What adaptive stopping watches: each stream's F1 (each stream stops on its own), or the
        document's headline (:func:`stability.scores.headline_interval`: the test and the shuffle
        control stop together, once the headline, the number reports show, is that precise;
        needs the shuffle control).
    min_restarts : int, default 20
        Restarts before the first adaptive-stopping check.
    check_every : int, default 10
        Restarts between two adaptive-stopping checks.
    shuffle_control : bool, default True
        Also run the shuffle control (restarts permute the whole document) and set
        ``content_blind``.
    layout_control : bool, default False
        Also run the layout control (restarts keep every unit's layout and redistribute the
        document's words at random across units, see :func:`stability.permutations.layout_units`)
        and set ``layout_only``: a segmenter whose boundaries survive it looks only at the layout
        (unit lengths, line breaks, sentence ends), as size-based chunkers do. Off by default (it costs as many
        restarts as the test itself); recorded in results files only when on.
    determinism_check : bool, default True
        Segment the unpermuted document a second time and set ``deterministic``.
    content_margin : float, default 0.05
        ``content_blind`` is set when the shuffle control's F1 is at least ``f1 - content_margin``,
        ``layout_only`` when the layout control's is at least ``1 - content_margin``.
    confidence : float, default 0.95
        Level of the bootstrap confidence intervals.
    n_bootstrap : int, default 1000
        Bootstrap resamples. Fewer than ``2 / (1 - confidence)`` (40 at 0.95, 200 at 0.99)
        warn: the percentile intervals' ends are then the extreme resamples.
    metrics : bool, list of str or mapping, default True
        For documents with references, compute the reference metrics of every initial
        segmentation (:func:`stability.metrics.compute_all` against the first reference, plus
        :func:`stability.metrics.multi_reference_metrics` when there are several). A list names
        the metrics to compute, as :func:`stability.reporting.render` takes them (names or
        aliases, ``["pk", "wd"]``, or one string ``"pk,wd"``): ``{"names": [...]}``. A mapping
        gives their options (``k``, ``tolerance``, ``gamma``, ``window_limit``) and optionally
        ``names``, the metrics to keep (default: all); ``False`` skips them. Stored checked:
        ``None`` (skipped) or the options (``{}`` for the defaults). In an experiment file this
        is the ``[metrics]`` table.
    n_jobs : int, default 1
        Worker processes (joblib; -1 = all cores). Results do not depend on it. More than 4 per
        core is capped there, with a :class:`SettingsWarning`.
    backend : str, optional
        joblib backend (``"loky"`` by default when ``n_jobs != 1``, ``"threading"`` for
        segmenters that release the GIL, ``"dask"`` inside a ``distributed.Client``,
        ``"sequential"``). Results do not depend on it.
    progress : bool or None, default None
        Progress of restarts on stderr (``None``: for corpus runs, only when stderr is a
        terminal, a bar, or a notebook's, one line rewritten in place; for
        :func:`~stability.stability_test`, none); ``True`` elsewhere (a CI log): a line every 10 s.
    on_error : {"record", "raise"}, default "record"
        Corpus runs: a segmenter failing on a document is recorded in ``failures`` (and the
        results file) and the run goes on; ``"raise"`` raises at the end of the run, after
        writing every result.
    block_size : int, default 64
        Corpus runs: documents read from the corpus at a time (the corpus is consumed lazily).
    resume : bool, default False
        Corpus runs: reuse the results already in the results file (computed with the same
        settings, segmenter parameters and documents) and compute only the missing ones: those of
        a segmenter added to the run, and again those of a segmenter whose code changed since (a
        plugin's or wrapped library's version, a local module's file).
    overwrite : bool, default False
        Corpus runs: replace an existing results file. Without ``resume`` or ``overwrite``, an
        existing results file is an error.
    retry_failed : bool, default False
        With ``resume``: run again the (segmenter, document) pairs recorded as failures (by
        default they are kept as failures and not retried).
    timeout : float, optional
        Seconds one segmenter call may take (default ``None``: no limit; at most 10**9, about 31
        years). A call running longer is stopped and the (segmenter, document) pair is recorded as a ``"timeout"`` failure. It
        is enforced with a ``SIGALRM`` timer in the process running the call (see
        :mod:`stability.isolation`): in-process from the main thread (``n_jobs=1``) or in loky
        workers; the threading and dask backends refuse it, and so does a run in
        this process started from another thread (:func:`~stability.evaluate` and
        :func:`~stability.stability_test` say so before any call).

    Examples
    --------
    >>> s = Settings(n_restarts=10, seed=3)
    >>> s.n_restarts, s.tolerance
    (10, 0)
    >>> Settings.build(s, seed=4).seed
    4
    >>> Settings(n_restart=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: Settings.__init__() got an unexpected keyword argument 'n_restart'...
    >>> Settings.build(n_restart=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: unknown setting 'n_restart'; did you mean 'n_restarts'? (valid settings: n_restarts, seed, ...)
    """

    n_restarts: int = _setting(100, partial(check_int, low=1), recorded=True)
    seed: int = _setting(0, _check_seed, recorded=True)
    tolerance: int = _setting(0, partial(check_int, low=0), recorded=True)
    ci_width: float | None = _setting(None, partial(check_real, low=0, high=1, low_open=True, none=True), recorded=True)
    ci_score: str = _setting("f1", partial(check_choice, choices=CI_SCORES), recorded=True, quiet_default=True)
    min_restarts: int = _setting(20, partial(check_int, low=1), recorded=True)
    check_every: int = _setting(10, partial(check_int, low=1), recorded=True)
    shuffle_control: bool = _setting(True, check_bool, recorded=True)
    layout_control: bool = _setting(False, check_bool, recorded=True, quiet_default=True)
    determinism_check: bool = _setting(True, check_bool, recorded=True)
    content_margin: float = _setting(0.05, partial(check_real, low=0, high=1, high_open=True), recorded=True)
    confidence: float = _setting(0.95, _check_level, recorded=True)
    n_bootstrap: int = _setting(1000, partial(check_int, low=1), recorded=True)
    metrics: Any = _setting(True, _check_metrics, table="metrics")
    n_jobs: int = _setting(1, _check_jobs)
    backend: str | None = _setting(None, partial(check_choice, choices=BACKENDS))
    progress: bool | None = _setting(None, _check_optional_bool)
    on_error: str = _setting("record", partial(check_choice, choices=("record", "raise")))
    block_size: int = _setting(64, partial(check_int, low=1))
    resume: bool = _setting(False, check_bool)
    overwrite: bool = _setting(False, check_bool)
    retry_failed: bool = _setting(False, check_bool)
    timeout: float | None = _setting(None, partial(check_real, low=0, low_open=True, high=MAX_TIMEOUT, none=True))

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, f.metadata["check"](getattr(self, f.name), f.name))
        if self.ci_score != "f1" and self.ci_width is None:
            raise InvalidParameterError(f"ci_score and ci_width go together (ci_score chooses what adaptive stopping "
                                        f"watches); received ci_score = {self.ci_score!r} without ci_width",
                                        parameter="ci_score and ci_width")
        if self.ci_score == "headline" and not self.shuffle_control:
            raise InvalidParameterError("ci_score 'headline' needs the shuffle control (the headline is defined "
                                        "against it); received shuffle_control = False", parameter="ci_score")
        if self.resume and self.overwrite:
            raise InvalidParameterError("resume and overwrite exclude each other; received both", parameter="resume and overwrite")
        if self.n_bootstrap * self.n_restarts > MAX_BOOTSTRAP_CELLS:
            # the bootstrap of one document holds n_bootstrap x n_restarts indices at once: bound it, so
            # settings read from an untrusted results file or config cannot ask for gigabytes
            raise InvalidParameterError.make(
                "n_bootstrap x n_restarts", f"at most {MAX_BOOTSTRAP_CELLS:,} (about 0.5 GiB of bootstrap indices)",
                f"{self.n_bootstrap} x {self.n_restarts}")
        fewest = min_bootstrap(self.confidence)
        if self.n_bootstrap < fewest:
            warn(f"n_bootstrap={self.n_bootstrap}: a {self.confidence:g} percentile interval leaves out "
                 f"{(1 - self.confidence) / 2:.3g} of the resamples at each end, one resample each from {fewest} on; "
                 f"from {self.n_bootstrap} its ends lie among the extreme resamples, so the intervals reported cannot "
                 f"be read as {self.confidence:g} ones; use n_bootstrap={fewest} or more", SettingsWarning)
        if self.ci_width is not None:
            self._warn_first_check()
        if self.timeout is not None and self.backend in ("threading", "dask"):
            raise InvalidParameterError(
                f"timeout cannot be used with the {self.backend} backend, whose calls do not run in a main thread, "
                f"where a call can be timed out (received {self.timeout}): leave timeout out, or choose another "
                "backend", parameter="timeout")

    def _warn_first_check(self) -> None:
        """Warn when adaptive stopping's first check comes after too few restarts for its interval
        to reach ``confidence`` (:func:`stability.stats.percentile_coverage_bound`): it could stop
        a document on an interval that is not one."""
        from .stats import percentile_coverage_bound

        first = min(self.min_restarts, self.n_restarts)
        if percentile_coverage_bound(first) >= self.confidence:
            return
        enough = next(n for n in range(2, 10_000) if percentile_coverage_bound(n) >= self.confidence)
        # the setting that puts the first check there: n_restarts when it is under min_restarts (a
        # `--restarts 5` run was told "min_restarts=5", a value nobody gave, and to raise it)
        name = "min_restarts" if self.min_restarts <= self.n_restarts else "n_restarts"
        said = f"{name}={first}" + ("" if name == "min_restarts" else
                                    f" (under min_restarts={self.min_restarts}, the first check comes at the last restart)")
        warn(f"{said}: a bootstrap interval over {first} restart(s) holds the value at most "
             f"{percentile_coverage_bound(first):.1%} of the time, below the confidence {self.confidence:g}, so "
             f"adaptive stopping may stop a document on an interval that is not one; use {name}={enough} or more"
             # both too low: said at once, not one after the other as each is raised
             + (f", and n_restarts={enough} or more" if name == "min_restarts" and self.n_restarts < enough else ""),
             SettingsWarning)

    # -- building --------------------------------------------------------------------------------
    @classmethod
    def check(cls, name: str, value: Any, said: str | None = None) -> Any:
        """``value`` checked as setting ``name`` is on its own (its partners unchecked), the error
        saying it as ``said`` (default ``name``)."""
        field_ = next(f for f in fields(cls) if f.name == name)
        return field_.metadata["check"](value, said or name)

    @classmethod
    def names(cls, table: str | None = None) -> tuple[str, ...]:
        """Field names, in declaration order (only those of config ``table`` when given)."""
        return tuple(f.name for f in fields(cls) if table is None or f.metadata["table"] == table)

    @classmethod
    def build(cls, settings: "Settings | None" = None, **keywords: Any) -> "Settings":
        """``settings`` (default: the defaults) with ``keywords`` replaced; an unknown keyword is
        an error suggesting the closest setting and listing the valid ones."""
        valid = cls.names()
        for key in keywords:
            if key not in valid:
                raise InvalidParameterError(
                    f"unknown setting {key!r}{did_you_mean(key, valid)} (valid settings: {', '.join(valid)})"
                )
        if settings is None:
            return cls(**keywords)
        if not isinstance(settings, cls):
            raise InvalidTypeError.make("settings", "a stability.Settings (or None)", settings)
        return replace(settings, **keywords) if keywords else settings

    # -- what the engine reads -------------------------------------------------------------------
    @property
    def streams(self) -> tuple[Stream, ...]:
        """Permutation streams run for every document."""
        controls = ((Stream.SHUFFLE,) if self.shuffle_control else ()) + ((Stream.LAYOUT,) if self.layout_control else ())
        return (Stream.WITHIN, *controls)

    def first_round(self) -> int:
        """Restarts of the first round (all of them without adaptive stopping)."""
        return self.n_restarts if self.ci_width is None else min(self.min_restarts, self.n_restarts)

    def restart_budget(self) -> int:
        """The most restarts one document can take, all streams together."""
        return self.n_restarts * len(self.streams)

    def effective_jobs(self) -> int:
        """``n_jobs`` with negative values counted from the number of cores (-1: all)."""
        if self.n_jobs < 0:
            return max(1, (os.cpu_count() or 1) + 1 + self.n_jobs)
        return self.n_jobs

    def to_dict(self) -> dict[str, Any]:
        """The recorded settings (those that change the results), in declaration order (a
        ``quiet_default`` field only when it is not at its default)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.metadata["recorded"]
                and not (f.metadata["quiet_default"] and getattr(self, f.name) == f.default)}
