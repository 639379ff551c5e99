"""Reports of the commands that do not run the stability test: ``stability score`` (reference
metrics of existing segmentations, a :class:`~stability.scoring.ScoreResult`) and
``stability segmenters`` (the available segmenters, from
:func:`~stability.registry.describe_segmenters`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..catalogue import reference_measure
from ..checks import and_joined, counted
from .corpus import first_reference_note, legend, tolerance_note
from .model import Report, Section, number, raw, spelling

__all__ = ["score_report", "segmenters_report", "unknown_segmenter_errors", "segmenter_load_problems"]


def _score_keys(result: Any, compact: bool, metrics: Sequence[str] | None) -> list[str]:
    """Every metric computed (full), or the compact / chosen selection from the catalogue."""
    if compact or metrics is not None:
        from .corpus import selected_measures

        return [m.name for m in selected_measures(set(result.mean), compact, metrics)]
    return list(result.mean)


def _window_note(result: Any, measures: Sequence[Any]) -> list[str]:
    """Which window k the shown window metrics used (none shown: nothing to say)."""
    from ..catalogue import WINDOWED
    from .corpus import window_sentence

    if not any(m.name in WINDOWED for m in measures):
        return []
    ks = [v.get("window_k", math.nan) for v in result.documents.values()]
    return window_sentence(ks, getattr(result, "window", None), "the JSON or CSV report")


def _fewer_note(result: Any, measures: Sequence[Any]) -> list[str]:
    """The shown metrics n/a on some documents (a window metric on a one-unit document), whose
    mean and std are then over the others: one sentence per number of documents left out."""
    n = len(result.documents)
    missing: dict[int, list[str]] = {}
    for m in measures:
        absent = sum(1 for values in result.documents.values() if math.isnan(values.get(m.name, math.nan)))
        if 0 < absent < n:
            missing.setdefault(absent, []).append(m.short)
    notes = []
    for absent, shorts in missing.items():
        notes.append(f"{and_joined(shorts)} {'is' if len(shorts) == 1 else 'are'} n/a on {absent} of the "
                     f"{counted(n, 'document')}: their mean and std are over the other {n - absent}.")
    return notes


def score_report(result: Any, digits: int = 4, compact: bool = False, metrics: Sequence[str] | None = None) -> Report:
    """Per-document reference metrics, then their mean and standard deviation over documents in the
    table's footer (the raw table, written as CSV, holds the documents only); each metric with the
    decimals its catalogue entry declares (:meth:`~stability.catalogue.Measure.places`: the window
    k a whole number); ``compact``: the catalogue's compact metrics; ``metrics``: the metrics named
    (or aliased)."""
    measures = [reference_measure(key) for key in _score_keys(result, compact, metrics)]
    keys = [m.name for m in measures]
    rows = [[doc] + [number(values.get(m.name, math.nan), m.places(digits)) for m in measures]
            for doc, values in result.documents.items()]
    footer = [[label] + [number(stats[m.name], m.places(digits, statistic=True)) for m in measures]
              for label, stats in (("mean", result.mean), ("std", result.std))]
    # the machine-readable table holds documents only (a mean row would be read as a document),
    # its columns named as the catalogue spells them (ref_pk); JSON carries the mean and std apart
    data = (["document"] + [m.column() for m in measures],
            [[doc] + [raw(values.get(m.name, math.nan), m.whole) for m in measures]
             for doc, values in result.documents.items()])
    n = len(result.documents)
    summary = (f"The rows mean and std at the foot of the table: the mean and the standard deviation (n - 1) over "
               f"the {counted(n, 'document')}.")
    section = Section(f"Reference metrics: {counted(n, 'document')}", ["document"] + [m.short for m in measures],
                      rows, notes=[*_sources_note(result), *_window_note(result, measures),
                                   *tolerance_note(getattr(result, "tolerance", 0), measures),
                                   *first_reference_note(result.mean), *([summary] if n else []),
                                   *_fewer_note(result, measures)],
                      data=data, footer=footer if n else (), legend=legend(measures),
                      drop_order=tuple(range(len(keys), 0, -1))[:-1] if compact else ())  # all columns: in parts
    return Report("Reference metrics", [section], payload=result.to_dict())


def _sources_note(result: Any) -> list[str]:
    """The files a score's segmentations came from (none: segmentations held in Python)."""
    from ..readers.dispatch import STDIN_NAME

    sources = getattr(result, "sources", None) or {}
    if not sources:
        return []
    said = {key: "standard input" if path == STDIN_NAME else path for key, path in sources.items()}
    return [f"Hypotheses from {said['hypothesis']}, scored against the references of {said['reference']}."]


def _short(value: object, limit: int = 32) -> str:
    """A parameter's default in a table cell: its repr; when that is long, a collection as its type
    and size, an object as its type with its arguments elided (JSON carries the whole repr).

    >>> _short(0.5), _short(list(range(40))), _short(ValueError("x" * 40))
    ('0.5', '<list of 40>', 'ValueError(...)')
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"<{type(value).__name__} of {len(value)}>" if hasattr(value, "__len__") else f"{type(value).__name__}(...)"


def _origin(status: Any) -> str:
    info = status.info
    if not info.distribution or info.origin == "built-in":
        return info.origin
    return f"{info.origin} ({info.distribution} {info.version})"


def segmenters_report(statuses: Mapping[str, Any]) -> Report:
    """The available segmenters (origin, fast path, load status, description), then one row per
    default parameter, grouped by segmenter (its name said once, above its parameters: the room of
    a column repeating it goes to the meaning), a meaning shared by parameters documented together
    said on the first of them (:func:`_said_once`): two narrow tables rather than one whose rows
    wrap. As one table (CSV): a row per segmenter and parameter (one with empty parameter cells
    for a segmenter without any), each default's whole repr, its whole meaning, and the load
    error."""
    rows, raw, parameters, groups, parameter_data, notes, payload, flat = [], [], [], [], [], [], [], []
    for name, status in statuses.items():
        row = [name, _origin(status), "yes" if status.fast_path else "no", _load_status(status),
               _plain_description(name, status.description)]
        raw.append(row)
        rows.append(row)
        if status.missing:
            notes.append(status.missing)
        elif not status.ok:
            notes.append(f"{name} failed to load: {status.error}")
        meanings = {key: _plain_meaning(text) for key, text in (status.meanings or {}).items()}
        shown = _said_once(meanings, list(status.params or {}), _first_sentence)
        # a parameter without a default is not one whose default is None: it must be given
        required = set(status.required)
        defaults = {key: (REQUIRED, REQUIRED) if key in required else (_short(value), repr(value))
                    for key, value in (status.params or {}).items()}
        parameters += [[key, short, shown[key]] for key, (short, _) in defaults.items()]
        parameter_data += [[name, key, whole, meanings.get(key, "")] for key, (_, whole) in defaults.items()]
        groups += [(name, len(status.params))] if status.params else []
        flat += [[*row, key, whole, meanings.get(key, ""), status.error or ""] for key, (_, whole) in defaults.items()]
        flat += [] if status.params else [[*row, "", "", "", status.error or ""]]
        payload.append({"name": name, "origin": status.info.origin, "target": status.info.target,
                        "distribution": status.info.distribution, "version": status.info.version,
                        "parameters": {k: whole for k, (_, whole) in defaults.items()},
                        "required": [key for key in defaults if key in required],
                        "meanings": {k: meanings[k] for k in (status.params or {}) if k in meanings},
                        "fast_path": status.fast_path, "deterministic": status.deterministic,
                        "description": status.description, "error": status.error, "missing": status.missing})
    header = ["name", "origin", "fast path", "status", "description"]
    parameter_header = ["parameter", "default", "meaning"]
    # a description reads best at 30 cells, as a meaning: at 32 the fast path column was left out at 80 columns
    # for one cell (it still is where a description's longest word leaves no room: RecursiveCharacterTextSplitter)
    sections = [Section(f"Segmenters (use with {spelling().by_name}, or module:attribute)", header, rows, notes=notes,
                        align="Lllll", data=(header, raw), drop_order=(2,), prose={4: 30})]
    if parameters:  # those listed take none (`none`, `all`, a name that failed to load): no table of no rows
        sections.append(Section("Parameters and their defaults", parameter_header, parameters, align="Lll", keys=1,
                                notes=(f"{PARAMETER_NOTE} {spelling().parameters}.",), prose={2: 30}, row_groups=groups,
                                data=(["segmenter", *parameter_header], parameter_data)))
    flat_header = [*header, *parameter_header, "error"]
    return Report("Segmenters", sections, payload={"segmenters": payload}, data=(flat_header, flat))


def unknown_segmenter_errors(statuses: Mapping[str, Any]) -> list[str]:
    """The errors of ``stability segmenters`` for the names of ``statuses`` (from
    :func:`~stability.registry.describe_segmenters`) neither registered nor importable, one a
    name (``[]`` when there is none): the command says them with no table of failures. A name
    with parameters whose segmenter is known (``c99,mask_size=5``, a ``--segmenter`` spec) is told
    where parameters go, rather than the registry's advice for Python."""
    from ..exceptions import UnknownSegmenterError
    from ..registry import available_segmenters

    unknown = [status for status in statuses.values() if status.info.origin == "unknown" and not status.ok]
    known = set(available_segmenters()) if unknown else set()
    errors = []
    for status in unknown:
        why = str(status.error)
        plain = why.removeprefix(f"{UnknownSegmenterError.__name__}: ")  # it names the segmenter
        head = status.name.partition(",")[0].strip()
        if head != status.name and head in known:  # a -s spec: the error spoke of Python's keywords
            plain = (f"segmenter {status.name!r}: this command takes names, without parameters; "
                     f"stability segmenters {head} lists those of {head!r}, and run -s {status.name} sets them")
        errors.append(plain if plain != why else f"segmenter {status.name!r}: {why}")
    return errors


def segmenter_load_problems(statuses: Mapping[str, Any], named: bool) -> list[str]:
    """What ``stability segmenters`` says after its table of ``statuses``: ``error:`` for each
    segmenter that did not load when the command ``named`` them, else ``warning:`` (an optional
    package not installed is then left to the table's note, which says how to install it)."""
    said = []
    for name, status in statuses.items():
        if status.missing and named:
            said.append(f"error: {status.missing}")
        elif not status.ok and not status.missing:
            said.append(f"{'error' if named else 'warning'}: segmenter {name!r} failed to load: {status.error}")
    return said


#: The default cell of a parameter without a default (it must be given: ``Spelling.parameters``).
REQUIRED = "(required)"


def _load_status(status: Any) -> str:
    """``ok``, ``not installed`` (an optional package it needs is missing) or ``failed``."""
    return "ok" if status.ok else "not installed" if status.missing else "failed"


#: The note under the parameters table, before how the parameters are given (``Spelling.parameters``).
PARAMETER_NOTE = ("meaning: the first sentence of the parameter's documentation (the segmenter's docstring), said "
                  "once for parameters documented together; all of it, for each parameter, in the JSON and CSV "
                  "reports.")


def _plain_meaning(text: str) -> str:
    """A parameter's documentation as a reader sees it: Sphinx roles, literal quotes and bold
    marks left out.

    >>> _plain_meaning("**Long-document mode**: see :class:`~segmenters.c99.C99`, ``band=50``")
    'Long-document mode: see `C99`, `band=50`'
    """
    from ..configkeys import _plain

    return _plain(text).replace("**", "")


def _said_once(meanings: Mapping[str, str], keys: Sequence[str],
               shorten: Callable[[str], str] = lambda text: text) -> dict[str, str]:
    """The meaning of each of ``keys`` as a listing shows it: its text (shortened by ``shorten``: the
    parameters table shows the first sentence, :func:`_first_sentence`), or ``See `first`.`` for
    a key documented together with one listed before it (``tokenizer, stopwords, stem : ...`` in
    numpydoc, a config's ``encoding`` and ``encoding_errors``: the same text), whose row says it;
    an undocumented key's is empty.

    >>> _said_once({"a": "Both. In full.", "b": "Both. In full.", "c": "Other."}, ["a", "b", "c", "d"],
    ...            _first_sentence)
    {'a': 'Both.', 'b': 'See `a`.', 'c': 'Other.', 'd': ''}
    """
    first: dict[str, str] = {}  # a meaning -> the first key it was shown for
    shown = {}
    for key in keys:
        text = meanings.get(key, "")
        shown[key] = f"See `{first[text]}`." if text in first else shorten(text)
        if text:
            first.setdefault(text, key)
    return shown


def _first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to a full stop followed by a space and a capital).

    >>> _first_sentence("Maximum words per chunk. Each start is a boundary.")
    'Maximum words per chunk.'
    >>> _first_sentence("Known number (e.g. 3): splits.")
    'Known number (e.g. 3): splits.'
    >>> _first_sentence("At j = 1 .. K-1. Else none.")
    'At j = 1 .. K-1.'
    """
    match = re.search(r"(?<=[^.][.!?])\s+(?=[A-Z`(])", text)
    return text[:match.start()] if match else text


def _plain_description(name: str, description: str | None) -> str:
    """The first line of a segmenter's docstring as a reader sees it: without its own name in
    front and without reStructuredText's literal quotes.

    >>> _plain_description("none", "``none``: one segment, no boundaries (``B = []``).")
    'one segment, no boundaries (B = []).'
    """
    text = (description or "").replace("``", "")
    return text[len(name) + 2:] if text.startswith(f"{name}: ") else text


def config_report(rows: Sequence[Any]) -> Report:
    """Every key of an experiment file (:func:`stability.configkeys.reference`): one table per
    config table, with each key's type, default, the ``stability run`` flag overriding it and its
    meaning. In a terminal the meaning reads best at 60 cells and the type at 12 (``format``'s nine
    values wrap in the type column rather than take the meaning's room); where a table is too
    narrow for that, each flag is printed under its key in every table
    (:attr:`~.model.Section.under`), so that at 80 columns each keeps a key's type, default, flag
    and meaning on its rows, in one part, the meaning 30 cells wide or more."""
    header = ["key", "type", "default", "flag", "meaning"]
    cells = [[row.key, row.type, row.default, row.flag or "", row.meaning] for row in rows]
    sections = []
    for table in dict.fromkeys(row.table for row in rows):
        raw = [c for row, c in zip(rows, cells) if row.table == table]
        shown = _said_once({key: meaning for key, *_, meaning in raw}, [key for key, *_ in raw])
        said = [[*c[:4], shown[c[0]]] for c in raw]  # a meaning shared by keys said on the first (CSV: all)
        sections.append(Section(table or "top of the file", header, said, align="Lllll", data=(header, raw), keys=1,
                                markup=(4,),  # the meaning: its docstring's Markdown (`detect_format`)
                                prose={1: 12, 4: 60}, under={3: 0}))
    payload = [{"table": row.table, "key": row.key, "type": row.type, "default": row.default, "flag": row.flag,
                "meaning": row.meaning} for row in rows]
    flat = (["table", *header], [[row.table, *c] for row, c in zip(rows, cells)])
    return Report("Experiment file keys", sections, payload={"keys": payload}, data=flat)
