"""Every key of an experiment file, with its type, default and meaning, read from the declarations.

Nothing here is written twice: the ``[run]`` keys are the fields of :class:`stability.Settings`
(their defaults, and their meaning from its docstring), the ``[corpus]`` options are the keywords
of :func:`stability.readers.read_corpus` and ``[corpus.demo]`` those of
:func:`stability.demo.demo_corpus` (from their docstrings), the ``[metrics]`` options those of the
metric functions they feed, and the keys :mod:`stability.config` reads itself are declared there
(:data:`stability.config.OWN_KEYS`). ``stability config`` prints :func:`reference` in any report format;
``docs/config.md`` is :func:`markdown` of it, and a test fails when a key is accepted but undocumented
or the page is stale.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ConfigKey", "reference", "markdown"]


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


def reference(flags: Mapping[tuple[str, str], str] | None = None) -> list[ConfigKey]:
    """Every key an experiment file accepts, table by table, in the order the tables are read.

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
    return [dataclasses.replace(row, flag=flags.get((row.table, row.key))) for row in rows]


def markdown(rows: list[ConfigKey]) -> str:
    """The reference as a Markdown page (``docs/config.md``): a heading and a paragraph, then
    exactly what ``stability config --report-format md`` prints (one table per config table)."""
    from .reporting import render
    from .reporting.commands import config_report

    intro = ["# Experiment file keys", "",
             "Every key a `stability run` config accepts, generated from the declarations by",
             "`stability.configkeys`, so it lists exactly what is accepted; the tables below are what",
             "`stability config --report-format md` prints. A flag given on the command line overrides the",
             "file's value. A misspelled key, or a key in the wrong table, is refused with the file, the",
             "table and the key it meant.", "", "## Keys by table", ""]
    return "\n".join(intro) + "\n" + render(config_report(rows), "md")
