"""Reports of every command, in every format.

A command's result becomes a :class:`~stability.reporting.model.Report` (a corpus run through
:func:`~stability.reporting.corpus.corpus_report`, ``stability score`` and ``stability segmenters``
through :mod:`stability.reporting.commands`), and one module per format in
:mod:`stability.reporting.formats` renders it. The list of formats is discovered from that
package (:func:`formats_available`); the CLI, the configuration files and the error messages read
it, so a new format is one new module.

Examples
--------
>>> formats_available()
('table', 'md', 'csv', 'json', 'html')
>>> format_module("table").EXTENSION
'txt'
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
import shlex
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from ..checks import check_bool, check_int, did_you_mean
from ..exceptions import InvalidParameterError, InvalidTypeError, _short_repr
from . import formats as _formats_package
from .model import PYTHON, Report, Section, brief, markdown_table, mean_std, number, reader_flag

__all__ = ["Report", "Section", "markdown_table", "number", "mean_std", "formats_available", "format_module",
           "format_aliases", "format_name", "report_of", "render", "write_reports", "write_whole", "notebook_html", "report_command",
           "with_computed_metrics"]

#: What a format module must declare.
REQUIRED = ("NAME", "EXTENSION", "render")


def _format_modules() -> dict[str, ModuleType]:
    found = []
    for info in pkgutil.iter_modules(_formats_package.__path__):
        module = importlib.import_module(f"{_formats_package.__name__}.{info.name}")
        missing = [attr for attr in REQUIRED if not hasattr(module, attr)]
        if missing:
            raise InvalidParameterError(f"report format module {module.__name__} lacks {', '.join(missing)}")
        found.append(module)
    names = [m.NAME for m in found] + [alias for m in found for alias in getattr(m, "ALIASES", ())]
    if len(set(names)) < len(names):
        raise InvalidParameterError(f"report format names and aliases must differ; declared: {', '.join(names)}")
    found.sort(key=lambda m: (getattr(m, "ORDER", 100), m.NAME))
    return {m.NAME: m for m in found}


def formats_available() -> tuple[str, ...]:
    """The names of the report formats, in their declared order."""
    return tuple(_format_modules())


def format_aliases() -> dict[str, str]:
    """The other names a report format answers to (``markdown`` for ``md``), each declared by its
    format module (``ALIASES``): alias -> name.

    >>> format_aliases()["markdown"]
    'md'
    """
    return {alias: module.NAME for module in _format_modules().values() for alias in getattr(module, "ALIASES", ())}


def format_name(name: str) -> str:
    """The name of the report format called ``name`` (a name of :func:`formats_available` or an
    alias, :func:`format_aliases`).

    >>> format_name("markdown"), format_name("md")
    ('md', 'md')
    """
    modules, aliases = _format_modules(), format_aliases()
    if isinstance(name, str) and name in modules:
        return name
    if isinstance(name, str) and name in aliases:
        return aliases[name]
    error = InvalidParameterError.make("format", f"one of {', '.join(modules)}", name)
    raise InvalidParameterError(str(error) + did_you_mean(name, [*modules, *aliases]), parameter="format")


def format_module(name: str) -> ModuleType:
    """The module rendering the format called ``name`` (or one of its aliases)."""
    return _format_modules()[format_name(name)]


def report_of(result: Any, *, compact: bool = False, figures: bool = False, max_strips: int = 20,
              metrics: str | Sequence[str] | None = None, details: bool = True) -> Report:
    """The :class:`Report` of a command's result: a :class:`~stability.results.CorpusResult`, a
    :class:`~stability.scoring.ScoreResult`, the mapping of
    :func:`~stability.registry.describe_segmenters`, or a report (returned as is). ``metrics``
    names the reference metrics to show (catalogue names or aliases, as a sequence or one
    comma-separated string such as ``"pk,wd"``). ``details`` false: a run's report leaves out its
    per-item blocks (:attr:`Section.detail`: per document, per segment length), for a format that
    will not show them (:meth:`Report.tables`; its JSON writes the payload, not the tables); on a
    large corpus their rows cost more than the rest of the report."""
    from ..catalogue import reference_measures
    from ..registry import SegmenterStatus
    from ..results import CorpusResult
    from ..scoring import ScoreResult
    from .commands import score_report, segmenters_report
    from .corpus import corpus_report

    if isinstance(result, Report):
        return result
    if metrics is not None:  # a string is split at commas, never read letter by letter
        metrics = [m.name for m in reference_measures(metrics)]
    if isinstance(result, CorpusResult):
        return corpus_report(result, compact=compact, figures=figures, max_strips=max_strips, metrics=metrics,
                             details=details)
    if isinstance(result, ScoreResult):
        return score_report(result, compact=compact, metrics=metrics)
    if isinstance(result, Mapping) and all(isinstance(v, SegmenterStatus) for v in result.values()):
        return segmenters_report(result)
    raise InvalidTypeError(f"result must be a CorpusResult, ScoreResult, segmenter statuses or a Report; received "
                           f"{type(result).__name__} {_short_repr(result)}{_result_hint(result)}", parameter="result")


def _result_hint(result: Any) -> str:
    """How to get a report's result from what was given instead: a saved run's path, the plain
    data of :meth:`~stability.results.CorpusResult.to_dict`, one document's result."""
    from ..results import StabilityResult

    if isinstance(result, (str, os.PathLike)):
        return ": a saved run? render(stability.load_results(path)) renders it"
    if isinstance(result, Mapping) and {"settings", "documents"} <= set(result):
        return ": a result's to_dict()? render(CorpusResult.from_dict(data)) renders it"
    if isinstance(result, StabilityResult):
        return (": one document's result (stability_test); evaluate(...) gives the CorpusResult of a corpus, "
                "which renders")
    return ""


def render(result: Any, format: str = "table", *, documents: bool | None = None, compact: bool | None = None,
           metrics: str | Sequence[str] | None = None, max_strips: int = 20, **options: Any) -> str:
    """Render a command's result in one of :func:`formats_available`.

    ``documents`` asks for the per-document tables (default: the format's choice: Markdown and
    HTML show them, the terminal table and CSV do not); ``compact`` picks the narrow selection of
    columns (default: the terminal table only); ``metrics`` names the reference metrics to show
    (catalogue names or aliases, e.g. ``["pk", "wd", "b"]`` or ``"pk,wd,b"``); other ``options`` go to the format
    (``width`` of the terminal table).
    """
    module = format_module(format)
    documents = None if documents is None else check_bool(documents, "documents")
    compact = None if compact is None else check_bool(compact, "compact")
    max_strips = check_int(max_strips, "max_strips", low=0)
    accepted = [name for name in inspect.signature(module.render).parameters if name not in ("report", "details")]
    for name in options:
        if name not in accepted:
            raise InvalidParameterError(f"format {format!r} has no option {name!r}{did_you_mean(name, accepted) or '.'} "
                                        f"Its options: {', '.join(accepted) or 'none'}", parameter=name)
    details = getattr(module, "DETAILS", False) if documents is None else documents
    report = report_of(result, compact=getattr(module, "COMPACT", False) if compact is None else compact,
                       figures=getattr(module, "FIGURES", False), max_strips=max_strips, metrics=metrics, details=details)
    return module.render(report, details=details, **options)


#: What the note under a table cut to its brief rows in a notebook (:func:`notebook_html`) says
#: lists them all, after what the section names (:attr:`Section.all_rows_in`): Python's words.
NOTEBOOK_LISTS_ALL = f"{PYTHON.every_row} lists them all"


def notebook_html(result: Any) -> str:
    """What a notebook (Jupyter, VS Code, Colab) shows for a command's result, its ``_repr_html_``:
    the compact report the terminal prints (the ranked result line, the summary table and its
    notes; no per-document table, no figures; a table's rows cut as the terminal cuts them,
    :attr:`Section.brief_rows`, with a note naming what holds them all), as an HTML fragment of
    the HTML format (``page=False``) that leaves the notebook's own styles alone."""
    report = report_of(result, compact=True, details=False)
    sections = [brief(s, f"{s.all_rows_in} holds them all; {NOTEBOOK_LISTS_ALL}" if s.all_rows_in else
                      NOTEBOOK_LISTS_ALL) for s in report.sections]
    return format_module("html").render(dataclasses.replace(report, sections=sections), details=False, page=False)


def report_command(source: str | os.PathLike, *, documents: bool = False, metrics: str | Sequence[str] | None = None,
                   references: str | None = None, reader: dict[str, str] | None = None) -> str:
    """The ``stability report`` command rendering a saved run (``source``: its folder or file) as a
    report was rendered: with its per-document tables (``documents``), its choice of reference
    metrics (names, or one comma-separated string) and the references given after the run, read with
    the corpus options ``reader`` (``{"unit": "sentence"}`` gives ``--unit sentence``); what a
    report written to a file names under a table cut for width, so that the command shows the
    tables and columns the note is about.

    >>> print(report_command("my out", documents=True, metrics=["pk", "wd"]))
    stability report 'my out' --documents --metrics pk,wd
    """
    words = ["stability", "report", str(source)]
    if documents:
        words.append("--documents")
    if metrics is not None:
        words += ["--metrics", metrics if isinstance(metrics, str) else ",".join(metrics)]
    if references is not None:
        words += ["--references", references]
    for key, value in (reader or {}).items():
        words += [reader_flag(key), value]
    return shlex.join(words)


Shown = TypeVar("Shown")
Named = TypeVar("Named")


def with_computed_metrics(report: Callable[[Named | None], Shown], metrics: Named | None, warning: str) -> Shown:
    """``report(metrics)``: a run's report (written to files, or printed) with the reference metrics
    named. One of them not computed (a corpus without references: :func:`render`'s
    :class:`~stability.exceptions.InvalidParameterError` of parameter ``metrics``) is an error
    after the run, which must not lose what it computed: ``report(None)`` gives the report with the
    metrics the run computed, ``warning`` (a :class:`~stability.store.ResultsWarning`) says so, and
    the error is raised. Any other error is raised as it is. What ``stability run`` does with the
    reports of ``--out`` (:func:`stability.config.run_experiment`) and with the one it prints.

    >>> from stability import evaluate
    >>> run = evaluate({"even": "even"}, [["a"] * 12], n_restarts=2, progress=False)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as said:
    ...     warnings.simplefilter("always")
    ...     try:
    ...         with_computed_metrics(lambda shown: render(run, "md", metrics=shown), ["pk"], "shown without pk")
    ...     except Exception as exc:
    ...         print(type(exc).__name__, "|", said[0].message)
    InvalidParameterError | shown without pk
    """
    from ..exceptions import InvalidParameterError, warn
    from ..store import ResultsWarning

    try:
        return report(metrics)
    except InvalidParameterError as exc:
        if metrics is None or exc.parameter != "metrics":
            raise
        report(None)
        warn(warning, ResultsWarning)
        raise


#: The width of a terminal table written to a file: the same file whatever terminal ran the command.
FILE_WIDTH = 120


def write_reports(result: Any, directory: str | os.PathLike, formats: Any, documents: bool | None = None,
                  metrics: Sequence[str] | None = None) -> list[Path]:
    """Write ``report.<extension>`` for each format into ``directory``; formats holding one table
    (``SEPARATE_DETAILS``, CSV) write the per-document table to ``documents.<extension>`` too. A
    terminal table is :data:`FILE_WIDTH` columns wide (a column left out for width is said with the
    ``stability report DIRECTORY ... --width N`` that shows it, :func:`report_command`); ``metrics`` chooses the reference metrics
    shown, as :func:`render`'s. Each file is written whole or not at all
    (:func:`write_whole`): a full disk or an interrupt never leaves a cut report in its place."""
    written = []
    for name in formats:
        module = format_module(name)
        separate = getattr(module, "SEPARATE_DETAILS", False)
        accepted = inspect.signature(module.render).parameters
        options: dict[str, Any] = {"width": FILE_WIDTH} if "width" in accepted else {}
        if "rerun" in accepted:  # a note on columns left out names the command showing them, not a terminal
            details = getattr(module, "DETAILS", False) if documents is None else documents
            options["rerun"] = report_command(directory, documents=details, metrics=metrics)
        texts = {"report": render(result, name, documents=None if separate else documents, metrics=metrics, **options)}
        if separate:
            texts["documents"] = render(result, name, documents=True, metrics=metrics)
        for stem, text in texts.items():
            path = Path(directory) / f"{stem}.{module.EXTENSION}"
            write_whole(path, text)
            written.append(path)
    return written


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8) through a temporary file beside it, renamed over ``path``
    once complete: ``path`` is the new text or, if anything fails, what it was before. A symbolic
    link is written through (the file it names is replaced, the link kept), and an existing file
    keeps its permissions.

    Raises
    ------
    OSError
        The operating system's error (a full disk, a read-only folder), naming ``path``; the
        temporary file is removed.
    """
    target = Path(os.path.realpath(path))
    partial = target.with_name(target.name + ".tmp")
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    try:
        partial.write_text(text, encoding="utf-8")
        if mode is not None:
            os.chmod(partial, mode)
        os.replace(partial, target)
    except BaseException as exc:
        partial.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
