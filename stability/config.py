"""TOML experiment files: their keys are the keyword arguments they feed.

An experiment file has five tables::

    [corpus]                 # read_corpus(path, **options), or the built-in demo corpus
    path = "../data/choi/1/3-11"     # a path or a list of paths (relative to this file)
    format = "choi"
    # demo = { n_documents = 12 }    # instead of path: demo_corpus(**demo)

    [segmenters.c99]         # label -> get_segmenter(segmenter or label, **params)
    [segmenters.even6]
    segmenter = "even"
    n_segments = 6
    [segmenters.c99_told]    # told each document's count: its first reference's segments
    segmenter = "c99"
    n_segments = "reference"
    [segmenters.texttiling]  # a grid: one configuration per combination of the listed values,
    cutoff_policy = "LC"     # labelled texttiling,w=10,k=6 and so on
    grid = { w = [10, 20, 30], k = [6, 10] }

    [run]                    # stability.Settings(**run), plus "scheduler" for a Dask cluster
    n_restarts = 100
    seed = 0
    # resume = true          # continue the results in [output] dir (overwrite = true: replace them)

    [metrics]                # Settings(metrics=...): reference-metric options; enabled = false skips them
    k = "lamprier"
    names = ["pk", "windowdiff", "f1"]   # which metrics to compute (default: all)

    [output]                 # where the results and reports go
    dir = "results/demo"
    formats = ["md", "json", "html"]

**A config runs code.** Registered segmenters are code already installed; a ``"module:attribute"``
segmenter (here or with ``--segmenter``) imports that module and calls that attribute with the
table's parameters. Such specs, outside the registered names and ``stability.segmenters`` entry
points, are refused unless the file says ``allow_plugins = true`` (top level) or the command line
gives ``--allow-plugins``; the check runs before anything is imported. Only run configs you trust.

Every key, with its type, default, meaning and command-line flag: ``stability config`` (or
``docs/config.md``), generated from the declarations by :mod:`stability.configkeys`.

Unknown keys are errors that suggest the closest valid key, or the table that takes them. A relative ``[corpus] path`` is
resolved against the directory of the config file; ``[output] dir`` against the current
directory (where the user runs the command).
"""

from __future__ import annotations

import difflib
import inspect
import itertools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .checks import and_joined, check_bool, check_folder, check_int
from .corpus import Document
from .exceptions import (ClusterError, InvalidParameterError, InvalidTypeError, MissingDependencyError, StabilityError,
                         UnknownSegmenterError, warn)
from .userwords import without_none
from .reporting import format_aliases, formats_available
from .settings import METRIC_OPTIONS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["Experiment", "load_config", "read_toml", "default_experiment", "with_overrides", "run_experiment"]


def _keywords(function: Any, exclude: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(
        p.name
        for p in inspect.signature(function).parameters.values()
        if p.kind is p.KEYWORD_ONLY or (p.default is not p.empty and p.kind is p.POSITIONAL_OR_KEYWORD)
        if p.name not in exclude
    )


def _run_keys() -> tuple[str, ...]:
    """The ``[run]`` keys: the fields of :class:`~stability.settings.Settings` read from that
    table, plus the Dask scheduler address."""
    from .settings import Settings

    return Settings.names(table="run") + ("scheduler",)


def _corpus_keys() -> tuple[str, ...]:
    from .readers import read_corpus

    return ("path", "demo") + _keywords(read_corpus)


def _demo_keys() -> tuple[str, ...]:
    from .demo import demo_corpus

    return _keywords(demo_corpus)


#: The reports a run with ``[output] dir`` writes when the file names no ``formats``.
DEFAULT_FORMATS = ("md", "json")

#: The keys this module reads itself, (table, key) -> (type, default, meaning); the other keys are
#: keyword arguments of the library, documented where they are declared (``stability.configkeys``
#: lists them all: ``stability config``).
OWN_KEYS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("", "allow_plugins"): ("bool", "false", "Run module:attribute segmenters outside the registered names "
                            "and entry points (they import and run code: only configs you trust)."),
    ("[corpus]", "path"): ("str or list of str", "-", "The corpus file or folder, or several (read in order, "
                           "document ids prefixed by their folder); relative to the config file. "
                           "Without path or demo the file needs --corpus."),
    ("[corpus]", "demo"): ("true or table", "-", "Instead of path: the built-in demo corpus "
                           "(demo_corpus(**demo), keys in [corpus.demo]); takes limit but no reader option."),
    ("[corpus.NAME]", "held_out"): ("bool", "false", "`stability validate` only, in a file of several corpora, "
                                    "each a [corpus.NAME] table of the [corpus] keys: a corpus the headline was "
                                    "not chosen on; the study's report shows its agreement apart."),
    ("[segmenters.NAME]", "segmenter"): ("str", "NAME", "A registered segmenter (`stability segmenters`) or "
                                         "module:attribute (needs allow_plugins); the table's other keys are its "
                                         "parameters, n_segments = \"reference\" gives it each document's "
                                         "reference count."),
    ("[segmenters.NAME]", "grid"): ("table of lists", "-", "Parameter values to try together: one configuration "
                                    "per combination, labelled NAME,key=value,... (e.g. grid = { w = [10, 20] }); "
                                    "with --segmenter, NAME,grid={w=[10,20]}."),
    ("[run]", "scheduler"): ("str", "-", "Dask scheduler address (with backend = \"dask\"; without it a "
                             "local cluster of n_jobs single-thread workers is started)."),
    ("[metrics]", "enabled"): ("bool", "true", "false: compute no reference metric."),
    ("[metrics]", "names"): ("list of str", "all", "The reference metrics to compute, and the ones the run's "
                             "reports show, in that order (names or aliases of stability/catalogue.py, e.g. "
                             "[\"f1_1\", \"b\", \"pk\"]; --metrics picks what one report prints)."),
    ("[output]", "dir"): ("str", "-", "Folder of results.jsonl and the reports, relative to the current "
                          "directory; holding results already, it needs resume or overwrite in [run]."),
    ("[output]", "formats"): ("str or list of str", json.dumps(list(DEFAULT_FORMATS)),
                              "Reports written into dir, report.<format>: table, md, csv, json, html."),
    ("[output]", "documents"): ("bool", "the format's", "Per-document tables in the reports written "
                                "(Markdown and HTML have them unless false; CSV writes documents.csv)."),
}
#: The [metrics] keys: ``enabled``, then the run's metric options (:data:`stability.settings.METRIC_OPTIONS`).
METRIC_KEYS = ("enabled", *METRIC_OPTIONS)
#: The [corpus] keys the demo corpus takes besides ``demo``: limit counts documents of any corpus.
DEMO_TAKES = ("limit",)
OUTPUT_KEYS = tuple(key for table, key in OWN_KEYS if table == "[output]")
#: The keys a study's [corpus.NAME] table holds besides the [corpus] keys (``held_out``).
STUDY_CORPUS_KEYS = tuple(key for table, key in OWN_KEYS if table == "[corpus.NAME]")
TOP_KEYS = ("corpus", "segmenters", "run", "metrics", "output", "allow_plugins")

#: What ``stability run`` does with no config: the built-in demo corpus and these segmenters.
DEFAULT_SEGMENTERS = ("c99", "u00", "texttiling", "even", "none")


def _tables() -> dict[str, tuple[str, ...]]:
    """Every table of an experiment file -> its keys (``""``: the top level)."""
    return {"": TOP_KEYS, "[corpus]": _corpus_keys(), "[corpus.demo]": _demo_keys(), "[run]": _run_keys(),
            "[metrics]": METRIC_KEYS, "[output]": OUTPUT_KEYS, "[corpus.NAME]": STUDY_CORPUS_KEYS}


def _elsewhere(key: str, where: str) -> tuple[str, str] | None:
    """Where ``key``, unknown in ``where``, belongs: a hint naming the table that takes it, and
    the same said beside a misspelling of this table's key."""
    if where != "the file (top level)" and key in TOP_KEYS and key != "allow_plugins":
        return f"[{key}] is a table of its own, not a key of {where}", f"[{key}] is a table of its own"
    for table, keys in _tables().items():
        if table != where and key in keys:
            if table == "":
                return "it belongs at the top of the file", f"{key!r} is a key of the top of the file"
            study = " of a `stability validate` config" if table == "[corpus.NAME]" else ""  # run has none
            return f"it belongs in {table}{study}", f"{key!r} is a key of {table}{study}"
    return None


def _check_keys(table: Mapping[str, Any], valid: tuple[str, ...], where: str, source: str) -> None:
    for key in table:
        if key not in valid:
            elsewhere = _elsewhere(key, where) if where.startswith(("[", "the file")) else None
            close = difflib.get_close_matches(key, valid, n=1, cutoff=0.6)
            if elsewhere and close:  # [output] format: formats misspelt, or [corpus]'s format? Both said
                hint = f"; did you mean {close[0]!r}? ({elsewhere[1]}.)"
            else:
                hint = f": {elsewhere[0]}." if elsewhere else f"; did you mean {close[0]!r}?" if close else "."
            raise InvalidParameterError(
                f"{source}: unknown key {key!r} in {where}{hint} Valid keys: {', '.join(valid)}"
            )


def _in_file(error: InvalidParameterError | InvalidTypeError) -> InvalidParameterError | InvalidTypeError:
    """``error``, whose message already names the file, table and key, without its library
    keyword: a front end says a keyword as its flag, and these words are the file's own."""
    return type(error)(str(error))


def segmenter_option(text: str) -> tuple[str, dict[str, Any]]:
    """A ``--segmenter`` value: ``NAME`` or ``NAME,key=value,...`` -> (label, its table as in a
    config's ``[segmenters.LABEL]``), the label being the text itself (but a grid); each value is read as a TOML value (``5``, ``0.5``, ``true``),
    else kept as a string (``n_segments=reference``). An unquoted value with a backslash is refused
    (``separator=\\n`` would be a backslash and an ``n``): quoted, ``separator="\\n"`` is a newline.
    So is an unquoted value starting with ``[`` or ``{`` that is not a valid TOML array or table (a
    grid or a list mistyped: ``grid={w=[10,20}``), with TOML's reason; quoted, it is a string.

    Examples
    --------
    >>> segmenter_option("c99")
    ('c99', {})
    >>> segmenter_option("c99,mask_size=5,n_segments=reference")
    ('c99,mask_size=5,n_segments=reference', {'segmenter': 'c99', 'mask_size': 5, 'n_segments': 'reference'})

    A comma inside a quoted string or a TOML array does not separate parameters:

    >>> segmenter_option('langchain_recursive,separators=[". ", ", "],chunk_size=300')[1]
    {'segmenter': 'langchain_recursive', 'separators': ['. ', ', '], 'chunk_size': 300}

    A grid (values to try, :func:`expand_grid`) is left out of the label its configurations
    extend:

    >>> segmenter_option("texttiling,k=10,grid={w=[10,20]}")
    ('texttiling,k=10', {'segmenter': 'texttiling', 'k': 10, 'grid': {'w': [10, 20]}})
    """
    name, *pairs = (part.strip() for part in _top_level_split(text))
    if "=" in name:  # no segmenter's name holds '=' (register refuses it): parameters not set off by a comma
        head = re.match(r"[^\s;=]+", name)
        rest = name[head.end():].lstrip(" \t;") if head else ""
        said = f" ({','.join([head.group(), rest, *pairs])!r}?)" if head and re.match(r"\w+\s*=", rest) else ""
        raise InvalidParameterError(f"--segmenter '{text}': a comma sets the parameters off the segmenter's name and "
                                    f"each other, NAME,key=value,...{said}")
    if not pairs and name == text:
        return text, {}
    spec: dict[str, Any] = {"segmenter": name}
    for pair in pairs:
        key, equals, raw = (part.strip() for part in pair.partition("="))
        if name and key and not equals:  # 'c99,mask_size' or 'c99,mask_size 5'
            raise InvalidParameterError(f"--segmenter '{text}': {pair!r} has no value; give each parameter as "
                                        f"key=value ({name},{key.split()[0]}=VALUE)")
        if not name or not key or not equals:
            raise InvalidParameterError.make("--segmenter", "NAME or NAME,key=value,... (e.g. c99,mask_size=5)", text)
        if key in spec:  # the name is the segmenter: 'c99,segmenter=even' would run even under c99's label
            raise InvalidParameterError(
                f"--segmenter '{text}': {key!r} is given twice; expected each parameter once"
                if key != "segmenter" else
                f"--segmenter '{text}': the segmenter is named first ({name!r}); 'segmenter' is not a parameter")
        spec[key] = _option_value(text, key, raw)
    if GRID_KEY in spec:  # its configurations are labelled by the rest and each grid value
        return ",".join([name, *(pair for pair in pairs if pair.partition("=")[0].strip() != GRID_KEY)]), spec
    return text, spec


def _option_value(text: str, key: str, raw: str) -> Any:
    """The value ``raw`` of the parameter ``key`` of the ``--segmenter`` value ``text``: read as a
    TOML value, else kept as a string (:func:`segmenter_option` says which are refused)."""
    try:
        return tomllib.loads(f"value = {raw}")["value"]
    except tomllib.TOMLDecodeError as exc:
        if raw[:1] in "[{" and raw:  # an array or a table (a grid) mistyped: never meant as a string
            reason = re.sub(r"\s*\((at line \d+, column \d+|at end of document)\)", "", str(exc))
            raise InvalidParameterError(
                f"--segmenter '{text}': the value of {key!r}, {raw}, is not a valid TOML "
                f"{'array' if raw[0] == '[' else 'table'} ({reason}): write arrays as [10, 20] or [\"a\", \"b\"] "
                "and tables as {w=[10, 20]}, strings quoted, brackets and braces closed") from None
        if "\\" in raw:  # separator=\n would be a backslash and an n, never a newline
            raise InvalidParameterError(
                f"--segmenter '{text}': the value of {key!r}, {raw}, holds a backslash and is not quoted, so the "
                "backslash would be kept as a character, not read as an escape; quote it as a TOML string: "
                f"{key}=\"{raw}\" for escapes such as \\n (a newline), or {key}='{raw}' for the characters "
                "as typed") from None
        return raw


#: The key of a segmenter's table that lists values to try (a grid); it is never a parameter.
GRID_KEY = "grid"


def _label_value(value: Any) -> str:
    """A grid value as its configuration's label shows it: as ``--segmenter`` would read it back
    (a plain word unquoted, ``n_segments=reference``; other strings quoted; TOML's true/false)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return value if re.fullmatch(r"[A-Za-z_][\w.:-]*", value) and value not in ("true", "false") else json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_label_value(v) for v in value) + "]"
    return str(value)


def grid_label(base: str, params: Mapping[str, Any]) -> str:
    """``base,key=value,...``: how a configuration with these parameters is labelled (a grid point,
    or the fixed parameters of :func:`stability.grid`), as ``--segmenter`` would spell it."""
    return ",".join([base, *(f"{key}={_label_value(value)}" for key, value in params.items())])


def expand_grid(label: str, spec: Mapping[str, Any], where: str) -> dict[str, dict[str, Any]]:
    """A segmenter's table with its ``grid`` expanded: one table per combination of the grid's
    values (the first key varying slowest), labelled ``label,key=value,...``; a table without a
    grid is returned as it is. ``where`` names the table in errors.

    Examples
    --------
    >>> expand_grid("tt", {"segmenter": "texttiling", "k": 10, "grid": {"w": [10, 20]}}, "[segmenters.tt]")
    {'tt,w=10': {'segmenter': 'texttiling', 'k': 10, 'w': 10}, 'tt,w=20': {'segmenter': 'texttiling', 'k': 10, 'w': 20}}
    >>> list(expand_grid("c99", {"grid": {"mask_size": [5, 9], "n_segments": ["reference", 6]}}, "[segmenters.c99]"))
    ['c99,mask_size=5,n_segments=reference', 'c99,mask_size=5,n_segments=6', 'c99,mask_size=9,n_segments=reference', 'c99,mask_size=9,n_segments=6']
    """
    if GRID_KEY not in spec:
        return {label: dict(spec)}
    grid = spec[GRID_KEY]
    example = "e.g. grid = { w = [10, 20] }"
    if not isinstance(grid, Mapping) or not grid:
        raise InvalidParameterError(
            f"{where} grid must be a table of parameter -> list of values to try ({example}); received {grid!r}")
    fixed = {k: v for k, v in spec.items() if k != GRID_KEY}
    for key, values in grid.items():
        if key == "segmenter":
            raise InvalidParameterError(f"{where} grid varies 'segmenter': a grid varies one segmenter's "
                                        "parameters; give each segmenter a table of its own")
        if key in fixed:
            raise InvalidParameterError(f"{where} sets {key!r} both as a parameter ({fixed[key]!r}) and in its grid "
                                        f"({values!r}); keep one")
        if not isinstance(values, list) or not values:
            raise InvalidParameterError(
                f"{where} grid {key} must be a non-empty list of values to try ({example}); received {values!r}")
        shown = [_label_value(v) for v in values]
        repeated = sorted({v for v in shown if shown.count(v) > 1})
        if repeated:
            raise InvalidParameterError(f"{where} grid {key} lists {repeated[0]} twice; each value once")
    points = {}
    for combination in itertools.product(*grid.values()):
        point = dict(zip(grid, combination))
        name = grid_label(label, point)
        points[name] = {"segmenter": fixed.get("segmenter", label), **{k: v for k, v in fixed.items() if k != "segmenter"},
                        **point}
    return points


def _expand_grids(tables: Mapping[str, Mapping[str, Any]], where: Callable[[str], str]) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Every table's grid expanded (:func:`expand_grid`): the configurations by label, and each
    grid point's label -> its table's label. A label made twice is an error naming both tables."""
    expanded: dict[str, dict[str, Any]] = {}
    origins: dict[str, str] = {}
    for label, spec in tables.items():
        for name, point in expand_grid(label, spec, where(label)).items():
            if name in expanded:
                first = origins.get(name, name)
                raise InvalidParameterError(
                    f"{where(label)} makes the configuration {name!r}, which {where(first)} already names; rename one")
            expanded[name] = point
            if name != label:
                origins[name] = label
    return expanded, origins


def _top_level_split(text: str) -> list[str]:
    """``text`` cut at the commas outside quoted strings and brackets (TOML strings and arrays)."""
    parts, start, depth, quote, i = [], 0, 0, "", 0
    while i < len(text):
        char = text[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 1  # an escaped character, a quote included
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth <= 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    return [*parts, text[start:]]


def _table(data: Mapping[str, Any], key: str, source: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise InvalidParameterError(f"{source}: [{key}] must be a table; received {type(value).__name__} {value!r}")
    return dict(value)


#: The source name of the built-in experiment (no file).
DEFAULTS_SOURCE = "<defaults>"


@dataclass(frozen=True)
class Experiment:
    """A validated experiment: what to read, which segmenters, how to run, where to write."""

    corpus: dict[str, Any]
    segmenters: dict[str, dict[str, Any]]
    run: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    output: dict[str, Any] = field(default_factory=dict)
    source: str = DEFAULTS_SOURCE
    allow_plugins: bool = False
    #: Tables the experiment still lacks (a file without ``[corpus]`` or ``[segmenters]``): the
    #: command line may supply them (``--corpus``, ``--segmenter``); :func:`run_experiment` refuses
    #: to run with any left, rather than silently running the demo corpus or default segmenters.
    missing: tuple[str, ...] = ()
    #: The command-line flag the segmenters came from (:func:`with_overrides`), or ``None`` for
    #: the file's ``[segmenters]`` tables: errors about a segmenter's parameters name it.
    segmenters_flag: str | None = None
    #: A grid point's label -> the label of the table (or ``--segmenter`` value) whose grid made
    #: it (:func:`expand_grid`): errors about its parameters name that table.
    grid_origins: dict[str, str] = field(default_factory=dict)

    def documents(self) -> Iterator[Document]:
        """The corpus as a lazy stream of documents."""
        if "demo" in self.corpus:
            from .demo import demo_corpus

            demo = self.corpus["demo"]
            docs = demo_corpus(**(demo if isinstance(demo, Mapping) else {}))
            return iter(docs[:self.corpus["limit"]] if "limit" in self.corpus else docs)
        from .readers import read_corpus

        options = {k: v for k, v in self.corpus.items() if k != "path"}
        paths = self.corpus["path"]
        if isinstance(paths, (str, os.PathLike)):
            return read_corpus(paths, **options)
        roots = [Path(p) for p in paths]
        parent = Path(os.path.commonpath([str(p.resolve()) for p in roots]))
        limit = check_int(options.pop("limit", None), "limit", low=0, none=True)  # of the corpus, not of each path
        # every path opened now (it exists, its format, the options it takes), as one path is: a
        # mistake in the last path was said only once the documents of the others were segmented
        readers = [(root, read_corpus(root, **options, limit=limit)) for root in roots]
        return _chained(readers, parent, limit)

    def reading(self) -> dict[str, Any] | None:
        """How the corpus is read, as the run record keeps it (the ``reader`` of its provenance,
        :data:`stability.store.READER`): ``paths``, the corpus paths made absolute, and
        ``options``, the :func:`stability.readers.read_corpus` options of ``[corpus]`` and the
        command line (``unit``, ``splitter``, ``format``...), so that references given after the
        run (``stability report RUN -R``, :func:`stability.scoring.add_references`) are read into
        the run's units without being told them again; and ``formats``, the format each path was
        read in (given, else detected; a list of them for a folder of pages read each in its own
        format, Markdown beside HTML; ``None`` for standard input, or a path that is no longer
        there). ``limit`` is left out (it counts the documents run, not how one is read), and so
        is a value JSON cannot hold (a callable splitter of an experiment built in Python).
        ``None`` for the demo corpus, which reads no file."""
        from .readers import detect_formats
        from .readers.dispatch import STDIN

        if "demo" in self.corpus or "path" not in self.corpus:
            return None
        paths = self.corpus_paths()
        keys = set(_corpus_keys()) - {"path", "demo", "limit"}
        options = {key: value for key, value in self.corpus.items() if key in keys and _json_value(value)}
        text = {key: options[key] for key in ("encoding", "encoding_errors") if key in options}

        def format_of(path: Any) -> str | list[str] | None:
            if "format" in options:
                return _lookup_format(options["format"])
            if str(path) == STDIN:
                return None
            try:
                found = detect_formats(path, **text)
            except (StabilityError, OSError):  # read_corpus said why, or the corpus went since
                return None
            return found[0] if len(found) == 1 else list(found)

        return {"paths": [str(Path(p).absolute()) if str(p) != STDIN else STDIN for p in paths],
                "formats": [format_of(p) for p in paths], "options": options}

    def corpus_paths(self) -> list[Any]:
        """The ``[corpus] path`` as a list: the one path given, or the several (none for the demo
        corpus)."""
        paths = self.corpus.get("path")
        return [paths] if isinstance(paths, (str, os.PathLike)) else list(paths or ())

    def build_segmenters(self) -> dict[str, Any]:
        """``label -> segmenter`` for :func:`stability.evaluate`."""
        from .registry import get_segmenter

        self._check_targets()
        built = {}
        for label, spec in self.segmenters.items():
            params = {k: v for k, v in spec.items() if k != "segmenter"}
            try:
                built[label] = get_segmenter(spec.get("segmenter", label), **params)
            except (InvalidParameterError, InvalidTypeError, UnknownSegmenterError, MissingDependencyError) as exc:  # say where they came from
                table = self.grid_origins.get(label, label)
                where = f"{self.segmenters_flag} {table!r}" if self.segmenters_flag else f"{self.source}: [segmenters.{table}]"
                if table != label:
                    where += f" (grid point {label!r})"
                # the segmenter's own type check says what the registry's wrapping adds ("segmenter 'c99':
                # bad parameters {...}:") once `where` is said, as its value checks do; and neither a file
                # nor --segmenter can write None: that choice is left out, as for the settings
                own = exc.__cause__ if isinstance(exc.__cause__, InvalidTypeError) else exc
                raise type(exc)(f"{where}: {without_none(str(own))}") from exc
        return built

    def _check_targets(self) -> None:
        """Refuse, before any segmenter is imported, a ``segmenter`` that is not a name, and a
        module:attribute one the experiment does not allow (``allow_plugins``)."""
        from .registry import PLUGIN_CODE, is_plugin

        for label, spec in self.segmenters.items():
            target = spec.get("segmenter", label)
            if not isinstance(target, str):
                raise _in_file(InvalidParameterError.make(f"{self.source}: [segmenters.{label}] segmenter", "a string", target))
            if is_plugin(target) and not self.allow_plugins:
                # a segmenter of the command line (--segmenter) or of the built-in experiment comes from no file
                where = "" if self.segmenters_flag or self.source == DEFAULTS_SOURCE else f"{self.source}: "
                what = "is" if target == label else f"is {target!r},"
                raise InvalidParameterError(
                    f"{where}segmenter {label!r} {what} {PLUGIN_CODE}; "
                    "it runs only with --allow-plugins or allow_plugins = true at the top of a config file")

    def metric_options(self) -> dict[str, Any] | bool:
        if self.metrics.get("enabled", True) is False:
            return False
        return {k: v for k, v in self.metrics.items() if k != "enabled"}


def _chained(readers: list[tuple[Path, Iterator[Document]]], parent: Path, limit: int | None) -> Iterator[Document]:
    """The documents of several corpus paths (``readers``: each path and its reader, opened), in
    order, each id prefixed by its folder's path below ``parent`` (a file's ids are its own), the
    first ``limit`` of them all; every reader is closed when the stream ends or is closed."""
    left = limit
    try:
        for root, documents in readers:
            if left == 0:
                return
            prefix = os.path.relpath(root.resolve(), parent).replace(os.sep, "/")
            for doc in documents if left is None else itertools.islice(documents, left):
                doc_id = doc.id if prefix in ("", ".") or root.is_file() else f"{prefix}/{doc.id}"
                yield replace(doc, id=doc_id)
                left = None if left is None else left - 1
            _close(documents)  # the file being read, when the limit stopped it early
    finally:
        for _, documents in readers:
            _close(documents)


def _lookup_format(name: str) -> str:
    """The format table's name of the format ``name`` (an alias, any case: ``srt`` is ``subtitles``)."""
    from .readers.dispatch import _lookup

    return _lookup(name).name


def _json_value(value: Any) -> bool:
    """Whether the run record (JSON) can hold ``value`` as it is."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def _close(documents: Iterator[Document]) -> None:
    """Close the reader ``documents`` (a generator: the file it is reading) once it is no longer read."""
    close = getattr(documents, "close", None)
    if close is not None:
        close()


def _validate(data: Mapping[str, Any], source: str, base: Path | None, corpus_table: str = "[corpus]",
              corpus_extra: tuple[str, ...] = ()) -> Experiment:
    """The experiment of ``data``, read from the file ``source``. ``corpus_table`` is how messages
    name the table of ``data["corpus"]`` (``[corpus.NAME]``: one corpus of a study's file), which
    may also hold the caller's own keys ``corpus_extra`` (checked as its keys, then left out).
    The tables are checked in the file's order: a file's first mistake is the one said."""
    _check_keys(data, TOP_KEYS, "the file (top level)", source)
    corpus = _corpus_table(data, source, base, corpus_table, corpus_extra)
    segmenters, origins = _segmenter_tables(data, source)
    allow = data.get("allow_plugins", False)
    if not isinstance(allow, bool):
        raise _in_file(InvalidParameterError.make(f"{source}: top-level allow_plugins", "true or false", allow))
    run = _run_table(data, source)
    metrics = _metrics_table(data, source)
    output = _output_table(data, source)
    missing = tuple(t for t in ("corpus", "segmenters") if source != DEFAULTS_SOURCE and t not in data)
    return Experiment(corpus, segmenters, run, metrics, output, source, allow, missing, grid_origins=origins)


@contextmanager
def _said_in_file() -> Iterator[None]:
    """A library check's refusal inside, said in the file's words (:func:`_in_file`)."""
    try:
        yield
    except (InvalidParameterError, InvalidTypeError) as exc:
        raise _in_file(exc) from None


def _corpus_table(data: Mapping[str, Any], source: str, base: Path | None, corpus_table: str,
                  corpus_extra: tuple[str, ...]) -> dict[str, Any]:
    """The ``[corpus]`` table of ``data``, checked: the demo corpus (also when the file names no
    path), or its path(s) resolved against ``base``; ``corpus_extra`` left out (:func:`_validate`)."""
    corpus = _table(data, "corpus", source)
    named = [key for key, value in corpus.items() if isinstance(value, Mapping) and key not in _corpus_keys()]
    if named and corpus_table == "[corpus]":
        raise InvalidParameterError(
            f"{source}: [corpus.{named[0]}] names one of several corpora, which `stability validate` reads "
            "(one study over every corpus); `stability run` reads a file with a single [corpus] table")
    _check_keys(corpus, _corpus_keys() + corpus_extra, corpus_table, source)
    corpus = {key: value for key, value in corpus.items() if key not in corpus_extra}
    if "demo" in corpus and "path" in corpus:
        raise InvalidParameterError(f"{source}: {corpus_table} takes either 'path' or 'demo', not both")
    if "path" in corpus:
        corpus["path"] = _corpus_path(corpus["path"], source, base, corpus_table)
    else:
        corpus["demo"] = _demo_table(corpus, source, corpus_table)
    if "limit" in corpus:  # the command line refuses --limit 0: a run of no document is a mistake
        with _said_in_file():
            check_int(corpus["limit"], f"{source}: {corpus_table} limit", low=1)
    return corpus


def _demo_table(corpus: Mapping[str, Any], source: str, corpus_table: str) -> dict[str, Any]:
    """The options of the demo corpus of ``corpus``, a table without a path (``demo = true`` or
    no ``demo``: none), checked."""
    demo_table = f"{corpus_table[:-1]}.demo]"
    demo = corpus.get("demo", True)
    if isinstance(demo, Mapping):
        _check_keys(demo, _demo_keys(), demo_table, source)
        from .demo import check_demo_options

        with _said_in_file():  # said now, as the file's keys, not once the run reads the corpus
            check_demo_options(f"{source}: {demo_table} ", **demo)
    elif demo is not True:
        raise InvalidParameterError(f"{source}: {corpus_table} demo must be true or a table; received {demo!r}")
    extra = set(corpus) - {"demo", *DEMO_TAKES}
    if extra:
        raise InvalidParameterError(f"{source}: {corpus_table} reader options {sorted(extra)} need 'path', not 'demo'")
    return {} if demo is True else demo


def _corpus_path(paths: Any, source: str, base: Path | None, corpus_table: str) -> str | list[str]:
    """The ``path`` of a corpus table, one path or a list of them, each resolved against ``base``
    (the config file's folder) unless absolute."""
    listed = [paths] if isinstance(paths, str) else paths
    if not isinstance(listed, list) or not listed or not all(isinstance(p, str) and p.strip() for p in listed):
        raise InvalidParameterError(f"{source}: {corpus_table} path must be a string or a list of strings; received {paths!r}")
    resolved = [str((base / p) if base is not None and not Path(p).is_absolute() else Path(p)) for p in listed]
    return resolved[0] if isinstance(paths, str) else resolved


def _segmenter_tables(data: Mapping[str, Any], source: str) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The ``[segmenters.NAME]`` tables of ``data`` with their grids expanded, and the grid
    points' origins (:func:`_expand_grids`); :data:`DEFAULT_SEGMENTERS` when the file has no
    ``[segmenters]`` at all."""
    segmenters: dict[str, dict[str, Any]] = {}
    for label, spec in _table(data, "segmenters", source).items():
        if not isinstance(spec, Mapping):
            raise InvalidParameterError(
                f"{source}: [segmenters.{label}] must be a table of parameters; received {spec!r}"
            )
        segmenters[label] = dict(spec)
    segmenters, origins = _expand_grids(segmenters, lambda label: f"{source}: [segmenters.{label}]")
    if "segmenters" in data and not segmenters:
        raise InvalidParameterError(
            f"{source}: [segmenters] names no segmenter; add a table for each, e.g. [segmenters.c99] "
            "(nothing falls back to the default segmenters)")
    if not segmenters:
        segmenters = {name: {} for name in DEFAULT_SEGMENTERS}
    return segmenters, origins


def _run_table(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The ``[run]`` table of ``data``: its keys checked, and its ``scheduler`` (the settings
    themselves are checked as the run builds them)."""
    run = _table(data, "run", source)
    _check_keys(run, _run_keys(), "[run]", source)
    scheduler = run.get("scheduler")
    if scheduler is not None and not isinstance(scheduler, str):
        raise _in_file(InvalidTypeError.make(f"{source}: [run] scheduler", "a string (a Dask scheduler address)", scheduler))
    return run


def _metrics_table(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The ``[metrics]`` table of ``data``, checked; its ``names`` as the catalogue's."""
    metrics = _table(data, "metrics", source)
    _check_keys(metrics, METRIC_KEYS, "[metrics]", source)
    from .settings import _check_metric_names

    with _said_in_file():
        if "enabled" in metrics:
            check_bool(metrics["enabled"], f"{source}: [metrics] enabled")
        if "names" in metrics:
            metrics["names"] = _check_metric_names(metrics["names"], f"{source}: [metrics] names")
    return metrics


def _output_table(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The ``[output]`` table of ``data``, checked, with its ``formats`` as a list of format
    names (aliases read, :data:`DEFAULT_FORMATS` when it names none)."""
    output = _table(data, "output", source)
    _check_keys(output, OUTPUT_KEYS, "[output]", source)
    out_dir = output.get("dir")
    if out_dir is not None and (not isinstance(out_dir, str) or not out_dir.strip()):
        raise _in_file(InvalidParameterError.make(f"{source}: [output] dir", "a non-empty string (a folder path)", out_dir))
    if out_dir is not None:
        check_folder(out_dir, f"{source}: [output] dir")
    documents = output.get("documents")
    if documents is not None and not isinstance(documents, bool):
        raise _in_file(InvalidTypeError.make(f"{source}: [output] documents", "true or false", documents))
    formats = output.get("formats", list(DEFAULT_FORMATS))
    if isinstance(formats, str):
        formats = [formats]
    if not isinstance(formats, list):
        raise _in_file(InvalidTypeError.make(f"{source}: [output] formats", "a format name or a list of them", formats))
    known, aliases = formats_available(), format_aliases()
    formats = [aliases.get(fmt, fmt) if isinstance(fmt, str) else fmt for fmt in formats]  # markdown: md
    for fmt in formats:
        if fmt not in known:
            close = difflib.get_close_matches(fmt, known, n=1, cutoff=0.6) if isinstance(fmt, str) else []
            raise InvalidParameterError(f"{source}: [output] formats must be among {', '.join(known)}; received {fmt!r}"
                                        + (f"; did you mean {close[0]!r}?" if close else ""))
    output["formats"] = list(formats)
    return output


def missing_corpus(exc: OSError, experiment: Experiment, config: str | os.PathLike,
                   table: str = "[corpus]") -> InvalidParameterError | None:
    """``exc`` said as the key of ``config`` that named the missing path, when it is one of the
    corpus paths of ``experiment`` (read from ``config``), else ``None``: the reader names only
    the path, resolved from the config file's folder, so that a path written relative to the
    current directory read as a mistake elsewhere. ``table``: the corpus's table
    (``[corpus.NAME]`` in a study's file)."""
    listed = experiment.corpus_paths()
    given = {str(p) for p in listed} | {str(Path(p).resolve()) for p in listed}  # as given, or resolved (a '..')
    if not isinstance(exc, FileNotFoundError) or exc.filename is None or str(exc.filename) not in given:
        return None
    return InvalidParameterError(
        f"{config}: {table} path: {exc.strerror}: {str(exc.filename)!r} (a relative path is read from the config "
        f"file's folder, {Path(config).parent.resolve()}); correct it there")


def load_config(path: str | os.PathLike) -> Experiment:
    """Read and validate an experiment file (see the module docstring for its tables).

    Relative paths in ``[corpus] path`` are resolved against the file's directory;
    ``[output] dir`` against the current directory.
    """
    path = Path(path)
    return _validate(read_toml(path), str(path), path.resolve().parent)


def read_toml(path: Path) -> dict[str, Any]:
    """The tables of the TOML file ``path`` (an experiment, or a study's), or an
    :class:`InvalidParameterError` naming the file and what is wrong: a file that cannot be read,
    text that is not UTF-8, or TOML that does not parse, with the line it stops at quoted. A
    byte-order mark, as some Windows editors write one, is skipped."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidParameterError(f"cannot read config {str(path)!r}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        utf16 = raw[:2] in (b"\xff\xfe", b"\xfe\xff")
        raise InvalidParameterError(
            f"{path}: not UTF-8 text ({'a UTF-16 byte-order mark' if utf16 else f'byte {raw[exc.start]:#04x}'} "
            f"at byte {exc.start}); a TOML file is UTF-8: save it as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidParameterError(f"{path}: not valid TOML: {exc}{_toml_line(exc, text)}") from None


def _toml_line(exc: Exception, text: str) -> str:
    """The line a TOML error is at, quoted, for a message that would name only its number
    (tomllib's "Cannot overwrite a value (at line 27, column 11)" names no key), or ``""``.

    >>> _toml_line(ValueError("Cannot overwrite a value (at line 2, column 1)"), "n_jobs = 2\\nn_jobs = 3\\n")
    ": 'n_jobs = 3'"
    """
    found = re.search(r"\(at line (\d+), column \d+\)$", str(exc))
    lines = text.splitlines()
    if found is None or not 1 <= int(found[1]) <= len(lines) or not lines[int(found[1]) - 1].strip():
        return ""
    return f": {lines[int(found[1]) - 1].strip()!r}"


def default_experiment() -> Experiment:
    """The built-in experiment: the demo corpus and :data:`DEFAULT_SEGMENTERS`."""
    return _validate({}, DEFAULTS_SOURCE, None)


def _check_replaced(experiment: Experiment, given: Mapping[str, Any]) -> None:
    """A file's [run] value that a flag replaces is still checked: a mistake in the file is said
    even when this command line hides it (the next run without the flag would fail on it)."""
    import warnings

    from .settings import Settings

    replaced = [key for key in given if key in experiment.run and key in Settings.names()]
    try:  # a mistake of the flags' own comes first, said as a flag when the run is built
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for key in replaced:
                Settings.check(key, given[key])
    except (InvalidParameterError, InvalidTypeError):
        return
    for key in replaced:
        try:
            Settings.check(key, experiment.run[key], f"{experiment.source}: [run] {key}")
        except (InvalidParameterError, InvalidTypeError) as exc:
            raise type(exc)(without_none(str(exc))) from None


def _warn_kept_format(corpus: str, options: Mapping[str, Any], source: str) -> None:
    """Warn when a file's ``[corpus] format``, kept for the corpus ``--corpus`` gives instead of its
    path, is not the format that corpus is detected as: it may be read as something it is not
    (a JSON file read as plain text lines)."""
    from .readers import detect_format

    try:
        detected = detect_format(corpus, encoding=options.get("encoding", "utf-8"),
                                 encoding_errors=options.get("encoding_errors", "strict"))
    except (StabilityError, OSError, ValueError):
        return  # reading it says what is wrong, with the format kept
    if detected != options["format"]:
        from .settings import SettingsWarning

        warn(f"--corpus {corpus}: read in the format {options['format']!r} of {source}'s [corpus], whose path it "
             f"replaces, though it looks like {detected!r}; pass --corpus-format {detected} to read it so",
             SettingsWarning)


def with_overrides(
    experiment: Experiment,
    *,
    segmenters: list[str] | None = None,
    corpus: str | None = None,
    format: str | None = None,
    out: str | None = None,
    reader: dict[str, Any] | None = None,
    allow_plugins: bool | None = None,
    **run: Any,
) -> Experiment:
    """A copy of ``experiment`` with command-line overrides (``None`` keeps the file's value).

    ``format`` and ``reader`` (other :func:`stability.readers.read_corpus` options such as
    ``encoding``, ``levels`` or ``unit``) apply to a corpus path; ``run`` keys are
    :func:`stability.evaluate` arguments.
    """
    updated = experiment if allow_plugins is None else replace(experiment, allow_plugins=allow_plugins)
    if segmenters:
        tables, origins = _expand_grids(dict(segmenter_option(text) for text in segmenters),
                                        lambda label: f"--segmenter {label!r}")
        updated = replace(updated, segmenters=tables, grid_origins=origins,
                          missing=tuple(t for t in updated.missing if t != "segmenters"), segmenters_flag="--segmenter")
    updated = _with_corpus(updated, corpus, format, reader or {})
    if out is not None:
        if not out.strip():
            raise InvalidParameterError.make("out", "a folder path", out)  # the CLI says --out
        check_folder(out, "out", parameter="out")
        updated = replace(updated, output={**updated.output, "dir": out})
    given = {k: v for k, v in run.items() if v is not None}
    for flag, other in (("resume", "overwrite"), ("overwrite", "resume")):  # they exclude each other: the
        if given.get(flag) and other not in given and updated.run.get(other):  # flag wins over the file's
            given[other] = False  # (overwrite = true there, --resume as an interrupted run advises)
    _check_keys(given, _run_keys(), "run overrides", updated.source)
    _check_replaced(updated, given)
    if given:
        updated = replace(updated, run={**updated.run, **given})
    return updated


def _with_corpus(experiment: Experiment, corpus: str | None, format: str | None,
                 reader: Mapping[str, Any]) -> Experiment:
    """``experiment`` reading the corpus path ``corpus`` (``None``: its own) in ``format`` with the
    ``reader`` options, those not ``None`` (:func:`with_overrides`): a path replaces the demo corpus,
    or the file's path keeping its other options (a format kept that the path does not look like
    is warned about); options need a path."""
    if corpus is not None:
        if not corpus.strip():
            raise InvalidParameterError.make("corpus", "a file or folder path", corpus)  # the CLI says --corpus
        kept = {} if "demo" in experiment.corpus else {k: v for k, v in experiment.corpus.items() if k != "path"}
        kept["path"] = corpus
        if format is None and "format" in kept:
            _warn_kept_format(corpus, kept, experiment.source)
        experiment = replace(experiment, corpus=kept, missing=tuple(t for t in experiment.missing if t != "corpus"))
    given = {k: v for k, v in {"format": format, **reader}.items() if v is not None}
    if not given:
        return experiment
    named = sorted(set(given) - set(DEMO_TAKES)) if "demo" in experiment.corpus else []
    if named:
        raise InvalidParameterError(
            f"the corpus option{'s' if len(named) > 1 else ''} {' and '.join(f'{k}=' for k in named)} "
            f"need{'' if len(named) > 1 else 's'} a corpus path (the demo corpus reads no file); give --corpus too")
    _check_keys(given, _corpus_keys(), "corpus overrides", experiment.source)
    return replace(experiment, corpus={**experiment.corpus, **given})


def run_experiment(experiment: Experiment, *, progress: bool | None = None,
                   on_results: Callable[[Any], None] | None = None,
                   provenance: Mapping[str, Any] | None = None, metrics: Sequence[str] | None = None) -> Any:
    """Run an experiment: read the corpus, evaluate, write the outputs; returns the CorpusResult.

    With ``[output] dir``, the run streams ``results.jsonl`` there and writes ``report.<format>``
    for each requested format. A folder that already holds results is an error unless the run
    says ``resume = true`` (continue it) or ``overwrite = true`` (replace it). ``on_results`` is
    called with the CorpusResult once every pair has finished, before the reports are written.
    ``provenance`` (e.g. the command line) is kept in the run record (:func:`stability.evaluate`).
    ``metrics`` (names or aliases, ``--metrics``) are the reference metrics the written reports show
    (by default those of ``[metrics] names``, else the catalogue's reported ones); a name the
    catalogue does not know is refused before the run.
    """
    from .catalogue import reference_measures
    from .settings import Settings
    from .store import READER, SHOWN_METRICS, results_file

    _refuse_missing_tables(experiment)
    run = dict(experiment.run)
    scheduler = run.pop("scheduler", None)
    if progress is not None:
        run["progress"] = progress
    out_dir = experiment.output.get("dir")
    output = None if out_dir is None else results_file(out_dir, "[output] dir", folder=True)
    _check_resume(run, out_dir, experiment.source)
    segmenters = experiment.build_segmenters()
    _check_told_counts(segmenters, experiment)
    documents = experiment.documents()
    # checked here, once: a setting the run refuses is said before a Dask cluster is started or joined
    settings = Settings.build(None, metrics=experiment.metric_options(), **run)
    shown = None if metrics is None else [m.name for m in reference_measures(metrics)]
    if shown is not None:  # the reports' metrics: a name the catalogue does not know, before the run
        _check_report_metrics(shown, experiment)
    kept = {**(provenance or {}), READER: experiment.reading()}
    if shown is not None:  # shown again by a report rendered from the saved run
        kept[SHOWN_METRICS] = shown

    def call() -> Any:
        return _evaluate_to(output, segmenters, documents, settings, kept)

    if run.get("backend") == "dask":
        result = _with_dask(call, scheduler, settings.effective_jobs())
    else:
        if scheduler is not None:
            raise InvalidParameterError("scheduler is only used with backend='dask'", parameter="scheduler")
        result = call()
    if on_results is not None:
        on_results(result)
    if out_dir is not None:
        _write_run_reports(result, out_dir, experiment.output, metrics, replaced=bool(run.get("overwrite")))
    return result


def _refuse_missing_tables(experiment: Experiment) -> None:
    """Refuse an experiment whose file lacks ``[corpus]`` or ``[segmenters]`` and whose command
    line gave neither (:attr:`Experiment.missing`), in :func:`with_overrides`' keywords, which
    the command line says as its flags."""
    if experiment.missing:
        raise InvalidParameterError(
            f"{experiment.source} has no {' and no '.join(f'[{t}]' for t in experiment.missing)} table; add "
            f"{'them' if len(experiment.missing) > 1 else 'it'} or give "
            f"{' and '.join(f'{t}=' for t in experiment.missing)}"
            + (" (the demo corpus is [corpus] demo = true)" if "corpus" in experiment.missing else ""))


def _check_resume(run: Mapping[str, Any], out_dir: str | None, source: str) -> None:
    """Refuse ``resume`` without a results folder (nothing to continue: said rather than a fresh
    run in memory), and ``retry_failed`` without ``resume``."""
    where = "" if source == DEFAULTS_SOURCE else f"{source}: [run] "
    if out_dir is None and run.get("resume"):
        raise InvalidParameterError(f"{where}resume needs the folder of the run it continues ([output] dir, --out)",
                                    parameter="resume")
    if run.get("retry_failed") and not run.get("resume"):
        raise InvalidParameterError(f"{where}retry_failed needs resume: it runs again the failures recorded by "
                                    "the run it resumes", parameter="retry_failed")


def _check_told_counts(segmenters: Mapping[str, Any], experiment: Experiment) -> None:
    """:func:`stability.runner.check_reference_counts` on the experiment's corpus, before anything
    runs, for the segmenters told each document's reference count. A stream is checked as a list
    is in evaluate: read again up to its first document with a reference (its first, in a corpus
    with references), never held in memory; standard input cannot be read twice: its documents
    fail one by one, as an iterator's do."""
    from .readers.dispatch import STDIN
    from .runner import check_reference_counts, told_reference_count

    told = told_reference_count(segmenters)
    if told and not any(str(p) == STDIN for p in experiment.corpus_paths()):
        check_reference_counts(experiment.documents(), told)


def _evaluate_to(output: Path | None, segmenters: Mapping[str, Any], documents: Iterator[Document], settings: Any,
                 provenance: Mapping[str, Any]) -> Any:
    """:func:`stability.evaluate` into the results file ``output``. A run stopped (interrupted, an
    error) after changing that file removes the reports beside it: they describe what it held
    before (a replaced run's, or a resume's superseded pairs); `stability report` renders them
    from the file."""
    from .reporting.model import spelling
    from .runner import evaluate
    from .store import ResultsWarning

    before = _file_state(output)
    try:
        return evaluate(segmenters, documents, settings, output=output, provenance=provenance)
    except BaseException:
        if output is not None and _file_state(output) != before:
            removed = _remove_reports(output.parent, keep=())
            if removed:
                warn(f"{output.parent}: {and_joined(removed)} removed: they described what {output.name} held "
                     f"before this run changed it; `{spelling().say('report_again', out=str(output.parent))}` "
                     "renders them from it", ResultsWarning)
        raise


def _write_run_reports(result: Any, out_dir: str, output: Mapping[str, Any], metrics: Sequence[str] | None,
                       replaced: bool) -> None:
    """Write the reports of ``[output]`` (``output``) into ``out_dir``; ``replaced``: the run
    overwrote an earlier one, whose reports in formats this run does not write would stay. A
    metric named but not computed (no references): the error stands, the reports are written all
    the same with the metrics that were, so nothing computed is lost."""
    from .reporting import with_computed_metrics, write_reports
    from .reporting.model import spelling

    formats, documents_table = output.get("formats", []), output.get("documents")
    if replaced:
        _remove_reports(Path(out_dir), keep=formats)
    with_computed_metrics(
        lambda shown: write_reports(result, out_dir, formats, documents_table, metrics=shown), metrics,
        f"the reports in {out_dir} were written with the reference metrics the run computed, not those named; "
        f"`{spelling().say('report_again', out=str(out_dir))}` renders them again")


def _file_state(path: Path | None) -> tuple[int, bytes, bytes] | None:
    """What tells that a run changed its results file ``path`` (``None`` when it is not there):
    its size and its first and last 64 KiB. Not its modification time, which a resume's truncation
    of the file to the length it had already changes."""
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            head = file.read(1 << 16)
            file.seek(max(0, size - (1 << 16)))
            return size, head, file.read(1 << 16)
    except OSError:
        return None


def _remove_reports(folder: Path, keep: Sequence[str]) -> list[str]:
    """Remove the ``report.<extension>`` and ``documents.<extension>`` files of ``folder`` in
    the formats not in ``keep`` (those are written again): what an overwritten run wrote. Returns
    the names of the files removed."""
    from .reporting import format_module, formats_available

    kept = {format_module(name).EXTENSION for name in keep}
    removed = []
    for name in formats_available():
        extension = format_module(name).EXTENSION
        if extension not in kept:
            for stem in ("report", "documents"):
                file = folder / f"{stem}.{extension}"
                if file.exists():
                    file.unlink()
                    removed.append(file.name)
    return removed


def _check_report_metrics(shown: list[str], experiment: Experiment) -> None:
    """Refuse, before the run, report metrics (``--metrics``) the experiment will not compute:
    ``[metrics] enabled = false``, or a name outside ``[metrics] names``."""
    options = experiment.metric_options()
    if not isinstance(options, dict):  # False: [metrics] enabled = false
        raise InvalidParameterError(f"metrics {','.join(shown)}: {experiment.source} computes no reference metric "
                                    "([metrics] enabled = false); remove metrics=, or enable the metrics there",
                                    parameter="metrics")
    computed: list[str] | None = options.get("names")
    if computed is None:  # every metric is computed
        return
    left = [name for name in shown if name not in computed]
    if left:
        raise InvalidParameterError(f"metrics {','.join(left)}: not among the metrics {experiment.source} computes "
                                    f"([metrics] names: {', '.join(computed)}); add {'it' if len(left) == 1 else 'them'} "
                                    "there, or name others", parameter="metrics")


def local_cluster(n_workers: int) -> Any:
    """The Dask cluster a run with the dask backend and no scheduler starts on this machine.

    ``n_workers`` single-thread worker processes (a run gives its ``n_jobs``), on 127.0.0.1,
    without a dashboard. A task whose worker dies is given up by the scheduler at once
    (``allowed_failures=0``, Dask retries it on three more workers by default): the run itself
    runs a lost task again alone and records a segmenter that kills its worker as a crash
    (:mod:`stability.engine`), so Dask's retries only killed three more workers per crash.
    """
    from distributed import LocalCluster

    return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, scheduler_kwargs={"allowed_failures": 0})


#: Dask settings in force while the run's own cluster (:func:`local_cluster`) runs. Dask closes
#: the nanny of a worker that has not come back ``lost-worker-timeout`` after it left (15 s by
#: default, meant for a remote job that is gone): on a loaded machine a worker its nanny restarts
#: after a segmenter killed it can take that long, and the cluster then lost that worker for good
#: (seen in this project's tests, a cluster left with none). A worker that never comes back is the
#: run's own error after :data:`stability.engine.DASK_NO_WORKER_WAIT` seconds without any.
LOCAL_CLUSTER_DASK_CONFIG = {"distributed.deploy.lost-worker-timeout": "10 minutes"}


@contextmanager
def started_local_cluster(n_workers: int) -> Iterator[Any]:
    """:func:`local_cluster` of ``n_workers``, started and closed, with
    :data:`LOCAL_CLUSTER_DASK_CONFIG` in force while it runs."""
    import dask

    with dask.config.set(LOCAL_CLUSTER_DASK_CONFIG), local_cluster(n_workers) as cluster:
        yield cluster


def _with_dask(call: Any, scheduler: str | None, n_workers: int) -> Any:
    """Run ``call`` with the dask backend on a cluster (``scheduler``) or a local one of
    ``n_workers`` workers (:func:`local_cluster`)."""
    from .engine import import_distributed

    Client = import_distributed().Client
    if scheduler:
        _reach(scheduler)
        client = Client(scheduler)
        try:
            return call()
        finally:
            _close_quietly(client)
    with started_local_cluster(n_workers) as cluster, Client(cluster):
        return call()


def _close_quietly(client: Any) -> None:
    """Close ``client``; one still trying to reconnect to a scheduler that is gone (the run's
    error said so) without the traceback Dask logs when its reconnecting is cut short."""
    import logging

    log = logging.getLogger("distributed.client")
    disabled = log.disabled
    log.disabled = disabled or client.status == "connecting"
    try:
        client.close()
    finally:
        log.disabled = disabled


#: Seconds a scheduler that accepted the connection has to answer as one (its handshake takes
#: milliseconds) before the address is said not to be a Dask scheduler's.
_HANDSHAKE_WAIT = 10.0


def _reach(scheduler: str) -> None:
    """Refuse, before a run starts, a ``scheduler`` address that is malformed or where no Dask
    scheduler answers, with an error naming it and what to check.

    Of a tcp or tls address (tcp is the scheduler's default); others (inproc, ucx) are left to Dask.
    A tls address is reached with the client's certificates of Dask's configuration, and one
    without them is refused before connecting (Dask's client failed with a TypeError on a
    missing ``ssl_context``).
    Dask's own connection waited for ever on an address that accepts connections but is not a
    scheduler's (its dashboard's, 8787, the port next to it): it reads the scheduler's handshake
    without a time limit. A port where nothing listens, or a host not found, took Dask's connect
    timeout (30 s by default) and ended with its bare message.
    """
    import asyncio
    import threading

    import dask.config
    from dask.utils import parse_timedelta
    from distributed.comm import connect, parse_address
    from distributed.comm.addressing import parse_host_port
    from distributed.security import Security

    try:
        scheme, where = parse_address(scheduler)  # a bare host:port is tcp's
        if scheme not in ("tcp", "tls"):  # inproc is in this process, ucx needs its own setup
            return
        parse_host_port(where)
    except ValueError as exc:
        raise InvalidParameterError(f"scheduler {scheduler!r}: {exc}; give the address the scheduler prints when it "
                                    "starts ('Scheduler at: tcp://HOST:PORT', port 8786 by default)",
                                    parameter="scheduler") from None
    security = Security().get_connection_args("client")  # what the client reads from Dask's configuration
    if scheme == "tls" and security.get("ssl_context") is None:
        raise ClusterError(f"{scheduler} is a TLS address, and Dask's configuration gives this client no certificate: "
                           "set distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and "
                           "distributed.comm.tls.client.key to the files your cluster's clients use (in a Dask "
                           "configuration file, or DASK_DISTRIBUTED__COMM__TLS__CA_FILE and the like), or give the "
                           "scheduler's tcp:// address if it has one; nothing was run")
    wait = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds")

    async def probe() -> None:
        comm = await asyncio.wait_for(connect(scheduler, timeout=wait, **security), wait + _HANDSHAKE_WAIT)
        await comm.close()

    failed: list[BaseException] = []

    def reach() -> None:
        try:
            asyncio.run(probe())
        except BaseException as exc:  # noqa: BLE001 - raised again below, in the caller's thread
            failed.append(exc)

    # its own event loop, whatever runs in this thread (a notebook's); a daemon thread, and joined
    # alone, so that Ctrl-C ends the wait at once (an executor's exit waited for the connect timeout)
    thread = threading.Thread(target=reach, name="stability-reach-scheduler", daemon=True)
    thread.start()
    thread.join()
    if not failed:
        return
    if isinstance(failed[0], asyncio.TimeoutError):
        raise ClusterError(f"{scheduler} accepted the connection but did not answer as a Dask scheduler within "
                           f"{wait + _HANDSHAKE_WAIT:.0f} s: is it the scheduler's port (8786 by default), not its "
                           "dashboard's (8787) or another service's?") from None
    if isinstance(failed[0], OSError):
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler} ({failed[0]}): check that it is running "
                           "and that this is the address it printed when it started ('Scheduler at: tcp://HOST:PORT'), "
                           "and that no firewall stands between") from None
    raise failed[0]
