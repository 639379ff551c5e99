"""Every key of an experiment file, with its type, default and meaning, read from the declarations.

Nothing here is written twice: the ``[run]`` keys are the fields of :class:`stability.Settings`
(their defaults, and their meaning from its docstring), the ``[corpus]`` options are the keywords
of :func:`stability.readers.read_corpus` and ``[corpus.demo]`` those of
:func:`stability.demo.demo_corpus` (from their docstrings), the ``[metrics]`` options those of the
metric functions they feed, and the keys :mod:`stability.config` reads itself are declared there
(:data:`stability.config.OWN_KEYS`). ``stability config`` prints :func:`reference` in any report format
(``stability config run --seed`` the keys :func:`select` picks by name);
``docs/config.md`` is :func:`markdown` of it, and a test fails when a key is accepted but undocumented
or the page is stale.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ConfigKey", "reference", "select", "selectors", "markdown"]


@dataclass(frozen=True)
class ConfigKey:
    """One key of an experiment file: its table (``""``: the top of the file), type, default,
    meaning, and the ``stability run`` flag that overrides it (``None``: none)."""

    table: str
    key: str
    type: str
    default: str
    meaning: str
    flag: str | None = None


def parameters(doc: str | None, sections: tuple[str, ...] = ("Parameters",)) -> dict[str, tuple[str, str]]:
    """``name -> (spec, description)`` of a numpydoc docstring's "Parameters" section (or of the
    ``sections`` named, e.g. "Attributes" too); ``a, b : int`` gives both names the same entry,
    ``**keywords`` is ``keywords``.

    Examples
    --------
    >>> parameters('''Title.
    ...
    ...     Parameters
    ...     ----------
    ...     n : int, default 3
    ...         How many.
    ...     a, b : str
    ...         Two
    ...         names.
    ...     ''')
    {'n': ('int, default 3', 'How many.'), 'a': ('str', 'Two names.'), 'b': ('str', 'Two names.')}
    """
    lines = inspect.cleandoc(doc or "").splitlines()
    found: dict[str, tuple[str, str]] = {}
    inside, spec = False, ""
    names: list[str] = []
    text: list[str] = []

    def close() -> None:
        for name in names:
            found[name] = (spec, " ".join(text))

    for i, line in enumerate(lines):
        if i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"}:  # a section's title, underlined
            close()
            names, inside = [], line.strip() in sections
            continue
        if not inside or set(line.strip()) == {"-"}:
            continue
        if line and not line[0].isspace():
            close()
            head, _, spec = line.partition(":")
            names, spec, text = [n.strip().lstrip("*") for n in head.split(",")], spec.strip(), []
        elif line.strip():
            text.append(line.strip())
    close()
    return found


def _split(spec: str) -> tuple[str, str]:
    """A numpydoc type spec -> (type, default): ``"int, default 3"`` -> ``("int", "3")``."""
    kind, _, default = spec.partition(", default ")
    kind = re.sub(r",? ?optional$", "", kind).strip()
    return kind or "see meaning", default.strip() or "-"


def _plain(text: str) -> str:
    """A docstring's sentence as a reader sees it: Sphinx roles and double backticks become single
    backticks.

    >>> _plain("see :func:`~stability.readers.read_wiki`, e.g. ``levels=1``")
    'see `read_wiki`, e.g. `levels=1`'
    """
    text = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`", r"`\1`", text)
    return re.sub(r"``(.+?)``", r"`\1`", text)


def _toml(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    return f"\"{value}\"" if isinstance(value, str) else str(value)


def _documented(table: str, keys: tuple[str, ...], docs: Mapping[str, tuple[str, str]],
                defaults: Mapping[str, Any] | None = None) -> list[ConfigKey]:
    rows = []
    for key in keys:
        spec, meaning = docs.get(key, ("", ""))
        kind, default = _split(spec)
        meaning = _plain(meaning)
        if defaults is not None and key in defaults:
            default = _toml(defaults[key])
        rows.append(ConfigKey(table, key, kind, default, meaning))
    return rows


def _reader_parameters(doc: str | None) -> dict[str, tuple[str, str]]:
    """:func:`parameters` of ``read_corpus``, where an entry only sends the reader to one format's
    reader ("CSV only (see :func:`read_csv`)") replaced by that reader's own entry, said for that
    format (each option is described once, where it is read)."""
    from . import readers

    found = parameters(doc)
    for name, (spec, text) in found.items():
        sent = re.fullmatch(r"(.+?) only \(see :func:`(?:~?[\w.]+\.)?(read_\w+)`\)\.", text.strip())
        if not spec and sent:
            own = parameters(getattr(readers, sent.group(2)).__doc__).get(name)
            if own is not None:
                found[name] = (own[0], f"{sent.group(1)} only: {own[1][:1].lower()}{own[1][1:]}")
    return found


def reference(flags: Mapping[tuple[str, str], str] | None = None,
              names: Sequence[str] | None = None) -> list[ConfigKey]:
    """Every key an experiment file accepts, table by table, in the order the tables are read (or
    those ``names`` picks, :func:`select`).

    ``flags`` maps ``(table, key)`` to the command-line flag overriding it (the command line
    supplies it; the library does not know its flags).
    """
    from .config import OWN_KEYS, _corpus_keys, _demo_keys, _tables
    from .demo import demo_corpus
    from .metrics import compute_all, multi_reference_metrics
    from .readers import read_corpus
    from .settings import Settings

    own = [ConfigKey(table, key, *entry) for (table, key), entry in OWN_KEYS.items()]
    rows = [row for row in own if row.table == ""]
    rows += [row for row in own if row.table == "[corpus]"]
    reader = tuple(k for k in _corpus_keys() if ("[corpus]", k) not in OWN_KEYS)
    rows += _documented("[corpus]", reader, _reader_parameters(read_corpus.__doc__))
    demo_defaults = {p.name: p.default for p in inspect.signature(demo_corpus).parameters.values()}
    rows += _documented("[corpus.demo]", _demo_keys(), parameters(demo_corpus.__doc__), demo_defaults)
    rows += [row for row in own if row.table == "[corpus.NAME]"]
    rows += [row for row in own if row.table == "[segmenters.NAME]"]
    run_defaults = {f.name: f.default for f in dataclasses.fields(Settings)}
    rows += _documented("[run]", Settings.names(table="run"), parameters(Settings.__doc__), run_defaults)
    rows += [row for row in own if row.table == "[run]"]
    metric_docs = {**parameters(multi_reference_metrics.__doc__), **parameters(compute_all.__doc__)}
    rows += [row for row in own if row.table == "[metrics]" and row.key == "enabled"]
    metric_keys = tuple(k for k in _tables()["[metrics]"] if ("[metrics]", k) not in OWN_KEYS)
    rows += _documented("[metrics]", metric_keys, metric_docs)
    rows += [row for row in own if row.table == "[metrics]" and row.key != "enabled"]
    rows += [row for row in own if row.table == "[output]"]
    flags = flags or {}
    rows = [dataclasses.replace(row, flag=flags.get((row.table, row.key))) for row in rows]
    return rows if names is None else select(rows, names)


def _path(table: str) -> str:
    """A table as a name: ``"[corpus.demo]"`` -> ``"corpus.demo"`` (the top of the file: ``""``)."""
    return table.removeprefix("[").removesuffix("]")


def _tables_of(row: ConfigKey) -> list[str]:
    """The names of the tables ``row`` is in: its own and those it is nested in
    (``[corpus.demo]``: ``corpus.demo`` and ``corpus``; the top of the file: none)."""
    parts = _path(row.table).split(".") if row.table else []
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def selectors(rows: Sequence[ConfigKey]) -> dict[str, list[str]]:
    """The names :func:`select` takes for ``rows``, by kind, in the order of the rows: ``table``
    (a table, nested ones by their dotted name: ``corpus.demo``), ``key``, ``flag`` (the
    ``stability run`` flag a row carries) and ``table.key``.

    >>> rows = [ConfigKey("[corpus]", "path", "str", "-", "", "--corpus"),
    ...         ConfigKey("[corpus.demo]", "seed", "int", "0", "")]
    >>> selectors(rows)
    {'table': ['corpus', 'corpus.demo'], 'key': ['path', 'seed'], 'flag': ['--corpus'],
     'table.key': ['corpus.path', 'corpus.demo.seed']}
    """
    found: dict[str, dict[str, None]] = {"table": {}, "key": {}, "flag": {}, "table.key": {}}
    for row in rows:
        found["table"].update(dict.fromkeys(_tables_of(row)))
        found["key"][row.key] = None
        if row.flag:
            found["flag"][row.flag] = None
        if row.table:
            found["table.key"][f"{_path(row.table)}.{row.key}"] = None
    return {kind: list(names) for kind, names in found.items()}


def _picks(row: ConfigKey, name: str) -> bool:
    """Whether ``name`` names ``row``: its table or one its table is nested in (``[run]`` as the
    listing titles it: a table only), its key, its flag, or ``table.key``."""
    if name.startswith("[") and name.endswith("]"):
        return _path(name) in _tables_of(row)
    return (name in _tables_of(row) or name in (row.key, row.flag)
            or bool(row.table) and name == f"{_path(row.table)}.{row.key}")


def select(rows: Sequence[ConfigKey], names: Sequence[str]) -> list[ConfigKey]:
    """The rows of :func:`reference` that ``names`` name, in the reference's order: each name a
    table (``run``, or ``[run]`` as the listing titles it; ``corpus`` holds ``corpus.demo``), a
    key (``tolerance``: in every table that has one), a run flag (``--restarts``) or
    ``table.key`` (``run.n_restarts``); no name: every row.

    Raises
    ------
    InvalidParameterError
        A name that names no row, with the closest name and every name accepted.

    Examples
    --------
    >>> rows = reference({("[run]", "n_restarts"): "--restarts"})
    >>> [(row.table, row.key) for row in select(rows, ["--restarts", "corpus.demo.seed"])]
    [('[corpus.demo]', 'seed'), ('[run]', 'n_restarts')]
    >>> [row.key for row in select(rows, ["tolerance"])]
    ['tolerance', 'tolerance']
    >>> select(rows, ["n_restart"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: unknown config table, key or flag 'n_restart'; did you mean 'n_restarts'? ...
    """
    from .checks import did_you_mean
    from .exceptions import InvalidParameterError

    for name in names:
        if not any(_picks(row, name) for row in rows):
            accepted = selectors(rows)
            hint = did_you_mean(_path(name), [n for kind in accepted.values() for n in kind])
            example = next(iter(accepted["table.key"]), "")
            # the tables named, the keys and flags pointed to: listed, they made a line of 1,200 characters
            raise InvalidParameterError(
                f"unknown config table, key or flag {name!r}{hint or '.'} Accepted: a table "
                f"({', '.join(accepted['table'])}), one of the {len(accepted['key'])} keys or "
                f"{len(accepted['flag'])} run flags of the listing (which shows them all without a name), or table.key "
                f"({example}, ...)")
    return [row for row in rows if not names or any(_picks(row, name) for name in names)]


def markdown(rows: list[ConfigKey]) -> str:
    """The reference as a Markdown page (``docs/config.md``): a heading and a paragraph, then
    exactly what ``stability config --report-format md`` prints (one table per config table)."""
    from .reporting import render
    from .reporting.commands import config_report

    intro = ["# Experiment file keys", "",
             "Every key a `stability run` config accepts, and the key a `stability validate` config's",
             "`[corpus.NAME]` tables add, generated from the declarations by",
             "`stability.configkeys`, so it lists exactly what is accepted; the tables below are what",
             "`stability config --report-format md` prints. A flag given on the command line overrides the",
             "file's value. A misspelled key, or a key in the wrong table, is refused with the file, the",
             "table and the key it meant.", "", "## Keys by table", ""]
    return "\n".join(intro) + "\n" + render(config_report(rows), "md")
