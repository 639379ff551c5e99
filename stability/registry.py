"""Finding segmenters by name: registered names, entry-point plugins and ``module:attribute``.

Resolution order for :func:`get_segmenter`:

1. a callable is used as is (keyword parameters bind to it, see below);
2. a name registered at run time with :func:`register`;
3. a name published under the entry-point group ``stability.segmenters`` by an installed
   distribution (the built-ins are published this way by this package's ``pyproject.toml``);
4. a ``"module:attribute"`` string, imported on demand.

Whatever is found is a *factory*: a class is instantiated with the parameters; any other callable
is the segmenter itself, and parameters, if any, are bound with :func:`functools.partial`.
Entry points are only scanned, never imported, until a name is asked for, so a plugin that fails
to import breaks nothing but itself. :func:`describe_segmenters` loads every available name and
reports, per name, its origin (built-in / plugin / registered), distribution and version, default
parameters, and the error if it failed to load, without ever raising: this is what
``stability segmenters`` prints.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import inspect
import numbers
import os
import re
import sys
import threading
import types
import typing
from dataclasses import dataclass
from importlib import metadata
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np

from .checks import array_as_list, did_you_mean
from .exceptions import (InvalidParameterError, InvalidTypeError, MissingDependencyError, UnknownSegmenterError,
                         _short_repr, warn)

__all__ = [
    "ENTRY_POINT_GROUP",
    "REFERENCE_COUNT",
    "ReferenceCountSegmenter",
    "SegmenterInfo",
    "SegmenterStatus",
    "available_segmenters",
    "describe_segmenters",
    "factory_params",
    "get_segmenter",
    "grid",
    "load_segmenter_factory",
    "parameter_meanings",
    "register",
    "required_parameters",
    "segmenter_code",
    "unregister",
]

ENTRY_POINT_GROUP = "stability.segmenters"
DISTRIBUTION = "stability-harness"

_REGISTERED: dict[str, Callable[..., Any]] = {}
_REGISTRY_LOCK = threading.Lock()


@dataclass(frozen=True)
class SegmenterInfo:
    """Where a segmenter name comes from (found without importing it)."""

    name: str
    target: str
    origin: str  # "built-in", "plugin" or "registered"
    distribution: str | None = None
    version: str | None = None


def register(name: str, factory: Callable[..., Any], *, overwrite: bool = False) -> None:
    """Register ``factory`` (a segmenter class or function) under ``name`` for this process.

    Parameters
    ----------
    name : str
        The name :func:`get_segmenter` (and the command line's ``-s``, a config's ``segmenter``)
        will know it by: non-empty, without ``:`` (which marks a ``module:attribute``), ``,`` or
        ``=`` (which give parameters: ``-s NAME,key=value``), nor blanks around it.
    factory : callable
        A segmenter class (instantiated with the parameters given to :func:`get_segmenter`) or a
        function ``units -> boundaries`` (parameters bound with :func:`functools.partial`).
    overwrite : bool, default False
        Replace a name already registered in this process, or shadow a segmenter an entry point
        publishes under it (a built-in such as ``c99``, or a plugin's) for this process
        (otherwise an error).

    Raises
    ------
    InvalidParameterError
        If ``name`` is not such a string, or is already taken without ``overwrite``.
    InvalidTypeError
        If ``factory`` is not callable.

    Examples
    --------
    >>> register("halves", lambda units: [len(units) // 2] if len(units) > 1 else [])
    >>> get_segmenter("halves")(["a", "b", "c", "d"])
    [2]
    >>> unregister("halves")
    """
    if not isinstance(name, str) or _unnameable(name):
        raise InvalidParameterError.make("name", "a non-empty string without ':', ',' or '=' (the command line's "
                                         "-s NAME,key=value names it) nor blanks around it", name)
    if not callable(factory):
        raise InvalidTypeError.make("factory", "a callable (segmenter class or function)", factory)
    with _REGISTRY_LOCK:  # the check and the write as one step: two threads never both take a name
        if name in _REGISTERED and not overwrite:
            raise InvalidParameterError(
                f"name {name!r} is already registered; pass overwrite=True to replace it"
            )
        published = None if overwrite or name in _REGISTERED else _entry_points().get(name)
        if published is not None:  # a built-in replaced by mistake would change every run of this process
            origin, dist_name, _ = _origin(published)
            raise InvalidParameterError(
                f"name {name!r} is a {origin} segmenter{'' if origin == 'built-in' else f' of {dist_name}'} "
                f"({published.value}); choose another name, or pass overwrite=True to shadow it in this process"
            )
        _REGISTERED[name] = factory


def _unnameable(name: str) -> str | None:
    """Why ``name`` cannot be named as a segmenter (``-s NAME,key=value``, a config's ``segmenter``),
    or None: ``:`` marks a ``module:attribute``, ``,`` and ``=`` the parameters, and the blanks
    around a name are dropped."""
    if not name:
        return "it is empty"
    if name != name.strip():
        return "it has blanks around it"
    marks = [mark for mark in ":,=" if mark in name]
    if marks:
        return f"it holds {' and '.join(map(repr, marks))}, which a spec reads as {' and '.join(_MARKS[m] for m in marks)}"
    return None


_MARKS = {":": "a module:attribute", ",": "the start of its parameters", "=": "a parameter's value"}


def unregister(name: str) -> None:
    """Remove a name registered with :func:`register` (no error if absent).

    Parameters
    ----------
    name : str
        The name given to :func:`register`; names published by entry points are not affected.

    Examples
    --------
    >>> register("thirds", lambda units: list(range(3, len(units), 3)))
    >>> "thirds" in available_segmenters()
    True
    >>> unregister("thirds")
    >>> "thirds" in available_segmenters()
    False
    """
    with _REGISTRY_LOCK:
        _REGISTERED.pop(name, None)


_CLASHES_SAID: set[str] = set()  # names whose clash of entry points was already warned about


def _entry_points() -> dict[str, metadata.EntryPoint]:
    """The entry point of each segmenter name. A built-in name stays the built-in's: a plugin
    declaring it is ignored; of two plugins declaring one name, the first found is used. Either
    way a warning says so once a process (before, which one won depended on the order the
    installed packages were listed in, without a word)."""
    declared: dict[str, list[metadata.EntryPoint]] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        declared.setdefault(ep.name, []).append(ep)
    found: dict[str, metadata.EntryPoint] = {}
    for name, eps in declared.items():
        _warn_unnameable(name, eps[0])
        # the origin reads the package's metadata: only for a name several packages declare
        builtin = [ep for ep in eps if _origin(ep)[0] == "built-in"] if len(eps) > 1 else []
        found[name] = (builtin or eps)[0]
        others = [ep for ep in eps if ep is not found[name] and ep.value != found[name].value]
        if others and name not in _CLASHES_SAID:
            _CLASHES_SAID.add(name)
            from .segmenter import SegmenterWarning

            ignored = ", ".join(f"{_origin(ep)[1] or '?'} ({ep.value})" for ep in others)
            kept = "the built-in one" if builtin else f"{_origin(found[name])[1] or '?'}'s ({found[name].value})"
            warn(f"segmenter {name!r} is declared by several installed packages: {kept} is used, not {ignored}; "
                 f"give the plugin's entry point another name", SegmenterWarning)
    return found


def _warn_unnameable(name: str, ep: metadata.EntryPoint) -> None:
    """Warn, once a process, about an entry point whose name the command line and configs cannot
    give (:func:`_unnameable`); from Python, ``get_segmenter(name)`` still finds it."""
    why = _unnameable(name)
    if why is None or name in _UNNAMEABLE_SAID:
        return
    _UNNAMEABLE_SAID.add(name)
    from .segmenter import SegmenterWarning

    dist_name = _origin(ep)[1]
    named, _ = _declaration(ep.value, dist_name, _origin(ep)[2])
    warn(f"segmenter {name!r}{named}: {why}, so the command line (-s) and configs cannot name it; give the entry "
         f"point a name without ':', ',' or '=' in the [project.entry-points.\"{ENTRY_POINT_GROUP}\"] table of "
         f"{dist_name or 'its package'}'s pyproject.toml and reinstall it", SegmenterWarning)


_UNNAMEABLE_SAID: set[str] = set()  # entry-point names already warned about


def _origin(ep: metadata.EntryPoint) -> tuple[str, str | None, str | None]:
    dist = getattr(ep, "dist", None)
    dist_name = dist.metadata["Name"] if dist is not None else None
    version = dist.version if dist is not None else None
    origin = "built-in" if dist_name == DISTRIBUTION else "plugin"
    return origin, dist_name, version


def available_segmenters() -> dict[str, SegmenterInfo]:
    """Every segmenter name that can be resolved, without importing any of them.

    Returns
    -------
    dict
        Name -> :class:`SegmenterInfo`: what it points to, where it comes from (``built-in``, a
        plugin's distribution, or ``registered`` in this process) and the version.

    Examples
    --------
    >>> info = available_segmenters()["c99"]
    >>> info.target, info.origin
    ('segmenters.c99:C99', 'built-in')
    """
    infos: dict[str, SegmenterInfo] = {}
    for name, ep in sorted(_entry_points().items()):
        origin, dist_name, version = _origin(ep)
        infos[name] = SegmenterInfo(name, ep.value, origin, dist_name, version)
    for name, factory in sorted(_REGISTERED.items()):
        target = f"{getattr(factory, '__module__', '?')}:{getattr(factory, '__qualname__', repr(factory))}"
        infos[name] = SegmenterInfo(name, target, "registered")
    return infos


def _path_hint(module_name: str, exc: ImportError) -> str:
    """Why a module that is in the current directory was not found, when that is the reason: the
    current directory is not on ``sys.path`` (console scripts such as ``stability`` leave it out,
    ``python -m`` puts it in)."""
    top = module_name.partition(".")[0]
    if not isinstance(exc, ModuleNotFoundError) or exc.name != top:
        return ""  # the module was found; something it imports was not
    here = os.getcwd()
    if any(os.path.abspath(entry or here) == here for entry in sys.path if isinstance(entry, str)):
        return ""
    found = next((name for name in (f"{top}.py", f"{top}{os.sep}") if os.path.exists(os.path.join(here, name))), None)
    if found is None:
        return ""
    return (f"; .{os.sep}{found} exists, but the current directory is not on the import path (the `stability` "
            "command does not add it): run with PYTHONPATH=. or with python -m stability")


def _resolve_target(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise UnknownSegmenterError(
            f"segmenter {target!r} must look like 'module:attribute'"
        )
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownSegmenterError(
            f"segmenter {target!r}: cannot import module {module_name!r} ({exc})"
            f"{_submodule_hint(module_name, exc) or _path_hint(module_name, exc)}"
        ) from exc
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            public = [name for name in dir(obj) if not name.startswith("_")]
            raise UnknownSegmenterError(
                f"segmenter {target!r}: module {module_name!r} has no attribute {attribute!r}"
                f"{did_you_mean(part, public)}"
            ) from None
    return obj


def _submodule_hint(module_name: str, exc: ImportError) -> str:
    """``; did you mean 'pkg.segs'?`` when ``module_name`` is a misspelt module of a package that
    imports (``pkg.seg`` for ``pkg.segs``); nothing is imported to tell but the package."""
    parent, _, child = module_name.rpartition(".")
    if not parent or not isinstance(exc, ModuleNotFoundError) or exc.name != module_name:
        return ""
    path = getattr(sys.modules.get(parent), "__path__", None)
    if path is None:
        return ""
    import pkgutil

    hint = did_you_mean(child, [info.name for info in pkgutil.iter_modules(path)])
    return hint.replace("'", f"'{parent}.", 1) if hint else ""


#: What a ``module:attribute`` outside the registered names is, in the refusals of the plugin
#: gate (a config without ``allow_plugins``, the command line without ``--allow-plugins``).
PLUGIN_CODE = "code outside the registered segmenters (module:attribute)"


def is_plugin(spec: str) -> bool:
    """Whether ``spec`` is a ``"module:attribute"`` outside the registered names and entry points
    (code that :func:`get_segmenter` would import); nothing is imported to tell.

    Examples
    --------
    >>> is_plugin("even"), is_plugin("subprocess:Popen")
    (False, True)
    """
    return ":" in spec and spec not in _REGISTERED and spec not in _entry_points()


def _callable_factory(spec: str, found: Any) -> Callable[..., Any]:
    """``found`` (what the name ``spec`` led to), refused at once if it cannot be a segmenter."""
    if not callable(found):
        raise InvalidTypeError(
            f"segmenter {spec!r} must be a callable (a function, or a Segmenter class or instance); "
            f"received {type(found).__name__} {_short_repr(found)}", parameter="segmenter")
    return found


def _declaration(target: str, dist_name: str | None, version: str | None) -> tuple[str, str]:
    """`` (the entry point 'mod:Seg' of pkg 1.0)`` and how to correct a declaration that is wrong."""
    package = f"{dist_name} {version}" if dist_name else "its package"
    fix = (f"correct the entry point in the [project.entry-points.\"{ENTRY_POINT_GROUP}\"] table of "
           f"{dist_name or 'the package'}'s pyproject.toml and reinstall it (pip install -e . in its folder), "
           f"or uninstall it (pip uninstall {dist_name or 'PACKAGE'})")
    return f" (the entry point {target!r} of {package})", fix


def _entry_point_failure(target: str, dist_name: str | None, version: str | None, exc: BaseException) -> str:
    """Why the entry point ``target`` (``module:attribute``) of the package ``dist_name`` failed to
    load, and what to do: a module or attribute it names that is not there is the package's
    declaration to correct, a module its code imports that is not installed a dependency to install."""
    named, fix = _declaration(target, dist_name, version)
    said = f"{type(exc).__name__}: {exc}{named}"
    module = target.partition(":")[0]
    if isinstance(exc, ModuleNotFoundError) and exc.name and (module + ".").startswith(exc.name + "."):
        return f"{said}; {fix}"  # the module the entry point names
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return (f"{said}: its module {module!r} imports {exc.name!r}, which is not installed: install it (or the "
                f"extra of {dist_name or 'the package'} that brings it)")
    if isinstance(exc, AttributeError) and module in sys.modules:  # imported, without the attribute named
        attribute = target.partition(":")[2].strip().partition(".")[0]
        return f"{said}{did_you_mean(attribute, [n for n in dir(sys.modules[module]) if not n.startswith('_')])}; {fix}"
    return (f"{said}: importing it raised; run python -c \"import {module}\" to see where, and fix it or uninstall "
            f"{dist_name or 'the package'}")


def _find_factory(spec: str) -> Callable[..., Any]:
    if spec in _REGISTERED:
        return _REGISTERED[spec]
    entry_points = _entry_points()
    if spec in entry_points:
        try:
            found = entry_points[spec].load()
        except Exception as exc:  # a broken plugin: say which one, why, and what to do
            _, dist_name, version = _origin(entry_points[spec])
            raise UnknownSegmenterError(f"segmenter {spec!r} failed to load: "
                                        f"{_entry_point_failure(entry_points[spec].value, dist_name, version, exc)}"
                                        ) from exc
        try:
            return _callable_factory(spec, found)
        except InvalidTypeError as exc:  # the package declares something that is no segmenter
            named, fix = _declaration(entry_points[spec].value, *_origin(entry_points[spec])[1:])
            what = ("a module, not a segmenter class or function in it ('module:attribute')" if inspect.ismodule(found)
                    else "no segmenter class or function")
            raise InvalidTypeError(f"{exc}{named}: it names {what}; {fix}", parameter="segmenter") from None
    if ":" in spec:
        return _callable_factory(spec, _resolve_target(spec))
    known = sorted(set(entry_points) | set(_REGISTERED))
    name = spec.split(",", 1)[0].strip()
    if "," in spec and name in known:  # a label or a -s value ('c99,mask_size=9') given from Python
        raise UnknownSegmenterError(
            f"unknown segmenter {spec!r}: 'NAME,key=value' is the command line's spelling (-s, and a grid's labels); "
            f"from Python give the parameters as keywords, get_segmenter({name!r}, key=value, ...) (and "
            f"stability.grid({name!r}, {{key: [values]}}) for several values)")
    close = difflib.get_close_matches(spec, known, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise UnknownSegmenterError(
        f"unknown segmenter {spec!r}.{hint} Known segmenters: {', '.join(known) or '(none)'}; "
        "or give a 'module:attribute' string."
    )


def _own_parameters(factory: Callable[..., Any]) -> list[inspect.Parameter] | None:
    """The parameters a segmenter factory takes: a class's ``__init__`` ones, a function's after its
    input (the units); None when Python cannot tell (builtins)."""
    try:
        parameters = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):  # no signature available (builtins)
        return None
    if not inspect.isclass(factory) and parameters and parameters[0].kind in (
            inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
        parameters = parameters[1:]  # a function's first argument is its input (the units), not a parameter
    return parameters


def required_parameters(factory: Any) -> tuple[str, ...]:
    """The parameters of a segmenter class or function that have no default, which
    :func:`get_segmenter` must be given (``stability segmenters`` marks them "required").

    Examples
    --------
    >>> def every(units, k, start=0):
    ...     return list(range(start + k, len(units), k))
    >>> required_parameters(every)
    ('k',)
    """
    built = not (inspect.isclass(factory) or inspect.isroutine(factory) or isinstance(factory, functools.partial))
    parameters = None if built else _own_parameters(factory)  # a built object's were given to its constructor
    return tuple(p.name for p in parameters or () if p.default is p.empty
                 and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def _check_call(segmenter: Any, params: dict[str, Any] | None, label: str) -> None:
    """The call a run makes of a segmenter, checked against its signature before any document:
    a class built with ``params``, a function called with a document's units and ``params``, an
    object already built (``params`` None: it cannot be given any) called with the units. What
    fails is said once, the parameter before the units: one without a default that is not given,
    with how to give it (a class's own TypeError named neither the command line's nor the config's
    spelling); else a function or object that cannot take the units alone (``f()``, ``f(a, b, /)``),
    with its signature, where a run would record the same TypeError as a failure on every document.
    Anything else a class's constructor, called next, says."""
    missing = [name for name in required_parameters(segmenter) if name not in params] if params is not None else []
    if missing:
        one = len(missing) == 1
        keywords = ", ".join(f"{name}=..." for name in missing)
        named = ":" in label or label in _REGISTERED or label in _entry_points()  # not a callable given from Python
        ways = (f"as -s '{label},{','.join(f'{name}=VALUE' for name in missing)}' on the command line, as "
                f"{' and '.join(f'{name} = VALUE' for name in missing)} in its config table, or as "
                f"get_segmenter({label!r}, {keywords}) from Python") if named else f"as get_segmenter(..., {keywords})"
        raise InvalidParameterError(
            f"segmenter {label!r} needs {'parameter' if one else 'parameters'} {', '.join(map(repr, missing))}, "
            f"which {'has' if one else 'have'} no default: give {'it' if one else 'them'} {ways}")
    if inspect.isclass(segmenter):
        return
    try:
        signature = inspect.signature(segmenter)
    except (TypeError, ValueError):  # no signature available (builtins): let the call decide
        return
    try:
        signature.bind(None, **(params or {}))
    except TypeError:
        raise InvalidTypeError(
            f"segmenter {label!r} must take one argument, the units of a document (units -> boundaries); "
            f"its signature is {signature}", parameter="segmenter") from None


def _check_parameter_names(factory: Callable[..., Any], params: dict[str, Any], label: str) -> None:
    """A parameter the segmenter does not take is an error naming the closest one it does take; one
    it needs (no default) and is not given is an error saying how to give it."""
    parameters = _own_parameters(factory)
    if parameters is None:  # let the call decide
        return
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        _check_call(factory, params, label)
        return _check_parameter_types(factory, parameters, params, label)
    accepted = [p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    # an object (not a class, function or partial): built already, its parameters set by its constructor
    built = not (inspect.isclass(factory) or inspect.isroutine(factory) or isinstance(factory, functools.partial))
    unknown = [name for name in params if name not in accepted]
    if unknown and built:
        cls = type(factory)
        raise InvalidParameterError(
            f"segmenter {label!r} is an instance already built ({_short_repr(factory)}), which takes no "
            f"parameters ({unknown[0]!r} given): build it with them, {cls.__name__}({unknown[0]}=...), or give "
            f"its class, '{cls.__module__}:{cls.__qualname__}', with the parameters")
    if unknown:
        name = unknown[0]
        first = next(iter(inspect.signature(factory).parameters), None) if inspect.isroutine(factory) else None
        why = (f" ({name!r} is its first argument, the units it is called with: a function named as a segmenter is "
               "the segmenter itself; one that builds a segmenter is named by its class instead)"
               if name == first and name != "units" else "")
        hint = getattr(factory, "parameter_hints", {}).get(name)  # Segmenter.parameter_hints
        raise InvalidParameterError(
            f"segmenter {label!r} has no parameter {name!r}{f': {hint}.' if hint else did_you_mean(name, accepted) or '.'} "
            f"Its parameters: {', '.join(accepted) or 'none'}{why}")
    _check_call(factory, params, label)
    _check_parameter_types(factory, parameters, params, label)


#: What a value of each simple type may be, and how a message says it: an annotation naming one
#: of these, or a default of one of them, is what :func:`_check_parameter_types` reads.
_KINDS: dict[type, tuple[tuple[type, ...], str]] = {
    bool: ((bool, np.bool_), "true or false"),
    int: ((numbers.Integral,), "an integer"),
    float: ((numbers.Real,), "a number"),
    str: ((str,), "a string"),
    type(None): ((type(None),), "None"),
}


def _annotated_kinds(hint: Any) -> list[type] | None:
    """The simple types an annotation allows (``int``, ``float | None``, ``Optional[bool]``), or None
    for any other annotation (a class, ``Callable``, ``list[str]``, ``Literal``): nothing to check."""
    if hint in _KINDS:
        return [hint]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        kinds = [_annotated_kinds(arg) for arg in typing.get_args(hint)]
        return None if any(k is None for k in kinds) else [kind for k in kinds for kind in k or ()]
    return None


def _check_parameter_types(factory: Callable[..., Any], parameters: list[inspect.Parameter],
                           params: dict[str, Any], label: str) -> None:
    """Refuse, before any document is segmented, a value whose type the parameter's annotation
    (``k: int``) or, without one, its default (``k=4``) rules out: ``-s everyk,k=abc`` made every
    document fail with the segmenter's own ``TypeError``. A default tells only so much: a number
    accepts any number (a default ``0`` may take ``0.5``), true or false any integer, and None
    always (it often means "off"); a default of another type, or None, and an annotation of another
    kind (a class, ``Callable``) check nothing. Built-ins check their own parameters."""
    if (getattr(factory, "__module__", None) or "").partition(".")[0] in _OWN_PACKAGES:
        return  # a built-in checks its parameters itself, ranges included, and says so in its words
    target = factory.__init__ if inspect.isclass(factory) else factory  # type: ignore[misc]
    try:
        hints = typing.get_type_hints(target)
    except Exception:  # noqa: BLE001 - a name only TYPE_CHECKING imports, say: its parameters are not checked
        hints = {}
    for parameter in parameters:
        if parameter.name not in params:
            continue
        value = params[parameter.name]
        if parameter.name in hints:  # the annotation says it all, or nothing simple enough to check
            kinds = _annotated_kinds(hints[parameter.name])
            if kinds is None:
                continue
            accepted = tuple(t for kind in kinds for t in _KINDS[kind][0])
            expected = " or ".join(dict.fromkeys(_KINDS[kind][1] for kind in kinds if kind is not type(None))) or "None"
            source = f"annotation {inspect.formatannotation(hints[parameter.name])}"
        elif parameter.annotation is not parameter.empty:  # one Python cannot resolve here
            continue
        elif isinstance(parameter.default, (bool, np.bool_)):  # an integer too: Python reads its truth
            accepted, expected = (*_KINDS[bool][0], numbers.Integral, type(None)), _KINDS[bool][1]
            source = f"default {parameter.default!r}"
        elif isinstance(parameter.default, numbers.Real):
            accepted, expected = (numbers.Real, type(None)), _KINDS[float][1]
            source = f"default {parameter.default!r}"
        else:
            continue
        if not isinstance(value, accepted):
            raise InvalidParameterError(
                f"segmenter {label!r}: parameter {parameter.name!r} must be {expected} (its {source}); "
                f"received {type(value).__name__} {_short_repr(value)}", parameter=parameter.name)


_HIDDEN_SAID: set[tuple[Any, tuple[str, ...]]] = set()  # (class, parameters) already warned about


def _instantiate(factory: Callable[..., Any], params: dict[str, Any], label: str) -> Any:
    _check_parameter_names(factory, params, label)
    if inspect.isclass(factory):
        try:
            made = factory(**params)
        except TypeError as exc:
            raise InvalidParameterError(f"segmenter {label!r}: bad parameters {params!r}: {exc}") from exc
        _warn_hidden(made, params, label)
        _check_call(made, None, label)  # what it built is called with the units alone
        return made
    return functools.partial(factory, **params) if params else factory


def _warn_hidden(segmenter: Any, params: dict[str, Any], label: str) -> None:
    """Warn, once a class and parameters, when parameters given to a class cannot be read back
    from the object it made (:func:`~stability.segmenter.segmenter_params`): reports would not
    show them and a resume would take results of other values for this run's (a class keeping
    ``k`` as ``self._k`` resumed a run made with another ``k`` without a word)."""
    from .segmenter import SegmenterWarning, segmenter_params

    try:
        readable = segmenter_params(segmenter)
    except Exception:  # noqa: BLE001 - the contract's parameters check says what is wrong with it
        return
    hidden = tuple(name for name in params if name not in readable)
    key = (type(segmenter), hidden)
    if not hidden or key in _HIDDEN_SAID:
        return
    _HIDDEN_SAID.add(key)
    warn(f"segmenter {label!r} ({type(segmenter).__qualname__}): parameter(s) {', '.join(hidden)} cannot be read back "
         "from it (not stored under their own names, no get_params()), so reports do not show them and a resume "
         "cannot tell results of other values from this run's; store each as self.<name>, or subclass "
         "stability.Segmenter", SegmenterWarning)


#: The value of ``n_segments`` meaning "the number of segments of each document's first reference".
REFERENCE_COUNT = "reference"


class ReferenceCountSegmenter:
    """A segmenter built with ``n_segments="reference"``: on every document, the segmenter built
    with ``n_segments`` = the number of segments of that document's first reference.

    The harness resolves it per document (:func:`stability.segmenter.for_document`); its
    parameters, recorded in the results, keep ``n_segments="reference"``. A document without
    references is a failure of that document, with a message saying why.
    """

    def __init__(self, factory: Callable[..., Any], params: dict[str, Any], label: str) -> None:
        self._factory = factory
        self._params = dict(params)
        self._label = label
        try:
            self._probe = _instantiate(factory, {**self._params, "n_segments": 1}, label)
        except InvalidParameterError as exc:
            takes = _own_parameters(factory)
            if takes is None or any(p.name == "n_segments" or p.kind is p.VAR_KEYWORD for p in takes):
                raise  # another parameter is wrong (one it needs, one misspelt): the note would mislead
            raise InvalidParameterError(
                f"{exc} (n_segments={REFERENCE_COUNT!r} needs a segmenter with an n_segments parameter)"
            ) from exc

    @property
    def name(self) -> str:
        from .segmenter import segmenter_name

        return segmenter_name(self._probe)

    @property
    def deterministic(self) -> Any:
        return getattr(self._probe, "deterministic", None)

    def get_params(self) -> dict[str, Any]:
        """The segmenter's parameters, with ``n_segments="reference"``."""
        from .segmenter import segmenter_params

        return {**segmenter_params(self._probe), "n_segments": REFERENCE_COUNT}

    def parameter_defaults(self) -> dict[str, Any]:
        """The defaults of the segmenter's parameters (:func:`stability.segmenter.parameter_defaults`)."""
        from .segmenter import parameter_defaults

        return parameter_defaults(self._probe)

    def segmenter_code(self) -> dict[str, str]:
        """Where the segmenter's code comes from (:func:`segmenter_code`), not this wrapper's."""
        return segmenter_code(self._probe)

    def for_document(self, document: Any) -> Callable[..., Any]:
        """The segmenter told the number of segments of ``document``'s first reference."""
        references = getattr(document, "references", ())
        if not references:
            raise InvalidParameterError(
                f"document {getattr(document, 'id', None)!r} has no reference segmentation, and segmenter "
                f"{self._label!r} takes n_segments={REFERENCE_COUNT!r} from the document's first reference"
            )
        return _instantiate(self._factory, {**self._params, "n_segments": references[0].n_segments}, self._label)

    def __call__(self, units: Any) -> Any:
        raise InvalidParameterError(
            f"segmenter {self._label!r} has n_segments={REFERENCE_COUNT!r}, which is resolved per document: "
            "run it with stability_test or evaluate on Documents with references, or call .for_document(document)"
        )

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{self.name}({args})"


def get_segmenter(spec: Any, **params: Any) -> Callable[..., Any]:
    """Turn a callable, a registered name or a ``"module:attribute"`` string into a segmenter.

    Parameters
    ----------
    spec : callable or str
        The segmenter, its registered name (see :func:`available_segmenters`), or an importable
        ``"module:attribute"``.
    **params
        Keyword parameters: passed to a segmenter class, or bound to a function.
        ``n_segments="reference"`` (:data:`REFERENCE_COUNT`) gives every document the number of
        segments of its first reference (see :class:`ReferenceCountSegmenter`).

    Returns
    -------
    callable
        A segmenter: ``units -> boundaries``.

    Raises
    ------
    UnknownSegmenterError
        If the name is unknown (the message lists the known names) or fails to import.
    InvalidTypeError
        If ``spec`` is neither a callable nor a string, or a ``"module:attribute"`` (or a plugin's
        entry point) names something that is not callable (the message names it), or the segmenter
        cannot be called with the units alone (``f(units, k)`` without ``k``: the message gives its
        signature).
    InvalidParameterError
        If the parameters do not fit the segmenter.

    Examples
    --------
    >>> seg = get_segmenter("even", n_segments=3)
    >>> list(seg(["u"] * 9))
    [3, 6]
    >>> get_segmenter("even", n_segments="reference").get_params()
    {'n_segments': 'reference', 'segment_length': 10}
    >>> get_segmenter("math:pi")
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidTypeError: segmenter 'math:pi' must be a callable (a function, or a Segmenter class or instance); received float 3.141592653589793
    """
    if isinstance(spec, str):
        factory, label = _find_factory(spec), spec
    elif callable(spec):
        factory = spec
        label = spec.__name__ if inspect.isclass(spec) else getattr(spec, "__name__", type(spec).__name__)
    else:
        raise InvalidTypeError.make(
            "segmenter", "a callable, a registered name or a 'module:attribute' string", spec
        )
    n_segments = params.get("n_segments")
    if isinstance(n_segments, str) and n_segments == REFERENCE_COUNT:
        return ReferenceCountSegmenter(factory, params, label)
    try:
        made = _instantiate(factory, params, label)
    except (InvalidParameterError, InvalidTypeError) as exc:
        # the segmenter's own check, which _instantiate wraps when the class raised a TypeError
        own = exc.__cause__ if isinstance(exc.__cause__, (InvalidParameterError, InvalidTypeError)) else exc
        if not isinstance(n_segments, str) or own.parameter != "n_segments":
            raise
        # a string other than "reference" (a typo of it) was refused as "must be an integer" alone
        hint = (f" (n_segments={REFERENCE_COUNT!r} gives each document the number of segments of its reference)"
                f"{did_you_mean(n_segments, [REFERENCE_COUNT])}")
        said = type(own)(f"{own}{hint}", parameter="n_segments")
        if own is exc:
            raise said from None
        raise type(exc)(f"{exc}{hint}", parameter=exc.parameter) from said
    return made


@dataclass(frozen=True)
class SegmenterStatus:
    """One available segmenter after trying to load it (see :func:`describe_segmenters`)."""

    info: SegmenterInfo
    params: dict[str, Any] | None = None  # default parameters; None if it failed to load
    error: str | None = None  # "ExceptionType: message" if it failed to load
    fast_path: bool = False  # offers prepare / segment_prepared
    deterministic: bool | None = None
    description: str | None = None  # first line of the factory's docstring
    meanings: dict[str, str] | None = None  # parameter -> its documentation (parameter_meanings)
    #: How to install the optional package it needs, when that is all that keeps it from loading
    #: (its parameters and description are then read from its class).
    missing: str | None = None
    #: The parameters without a default, which must be given (:func:`required_parameters`); ``params``
    #: shows them as None.
    required: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def ok(self) -> bool:
        return self.error is None


def grid(segmenter: str, values: Mapping[str, Any], **params: Any) -> dict[str, Callable[..., Any]]:
    """One segmenter per combination of ``values``, labelled as ``--segmenter`` and a config's
    ``grid`` label them (:func:`stability.config.expand_grid`), for :func:`stability.evaluate`.

    Parameters
    ----------
    segmenter : str
        A registered name or ``"module:attribute"`` (as :func:`get_segmenter`).
    values : mapping
        Parameter -> the values to try (a list, tuple, range or one-dimensional array); the first
        parameter varies slowest.
    **params
        Parameters shared by every point; they are part of the labels, as in
        ``-s NAME,key=value,grid={...}``.

    Returns
    -------
    dict
        ``label -> segmenter``, e.g. ``"langchain_recursive,chunk_size=200"``.

    Raises
    ------
    InvalidParameterError
        If ``values`` is empty, lists a value twice, or a parameter both in ``values`` and in
        ``params``, or a point's parameters do not fit the segmenter (naming the point).

    Examples
    --------
    >>> list(grid("texttiling", {"w": [10, 20], "k": (6, 10)}))
    ['texttiling,w=10,k=6', 'texttiling,w=10,k=10', 'texttiling,w=20,k=6', 'texttiling,w=20,k=10']
    >>> list(grid("c99", {"mask_size": range(5, 10, 4)}, n_segments="reference"))
    ['c99,n_segments=reference,mask_size=5', 'c99,n_segments=reference,mask_size=9']
    """
    from .config import GRID_KEY, expand_grid, grid_label

    if not isinstance(segmenter, str):
        raise InvalidTypeError.make("segmenter", "a registered name or 'module:attribute'", segmenter)
    if not isinstance(values, Mapping):
        raise InvalidTypeError.make("values", "a mapping parameter -> values to try, e.g. {'chunk_size': [200, 400]}",
                                    values)
    table = {key: list(v) if isinstance(v, (tuple, range)) else array_as_list(v) for key, v in values.items()}
    points = expand_grid(grid_label(segmenter, params), {"segmenter": segmenter, **params, GRID_KEY: table}, f"grid({segmenter!r}):")
    segmenters = {}
    for name, point in points.items():
        spec = {key: value for key, value in point.items() if key != "segmenter"}
        try:
            segmenters[name] = get_segmenter(segmenter, **spec)
        except InvalidParameterError as error:
            raise type(error)(f"grid point {name!r}: {error}") from None
    return segmenters


def load_segmenter_factory(name: str) -> Callable[..., Any]:
    """The factory (class or function) behind a registered or entry-point name."""
    if not isinstance(name, str):
        raise InvalidTypeError.make("name", "a segmenter name", name)
    return _find_factory(name)


def factory_params(factory: Any) -> dict[str, Any]:
    """Default keyword parameters of a segmenter factory.

    A class is instantiated with no arguments and asked for ``get_params()`` (falling back on its
    ``__init__`` defaults); a function reports the defaults of its keyword parameters (everything
    after the units); an object with ``get_params`` reports them.
    """
    from .segmenter import segmenter_params

    if inspect.isclass(factory):
        try:
            instance = factory()
        except (TypeError, MissingDependencyError):  # needs arguments, or a package not installed
            instance = None
        if instance is not None:
            return segmenter_params(instance)
        target = factory.__init__
        skip = 1  # self
    else:
        get_params = getattr(factory, "get_params", None)
        if callable(get_params):
            return dict(get_params())
        if isinstance(factory, functools.partial):
            return dict(factory.keywords)
        target = factory
        skip = 1  # the units
    try:
        parameters = list(inspect.signature(target).parameters.values())[skip:]
    except (TypeError, ValueError):
        return {}
    return {
        p.name: (None if p.default is inspect.Parameter.empty else p.default)
        for p in parameters
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    }


#: A parameter documented as another class's: ``As :class:`ChonkieRecursive`.``
_AS_OTHER = re.compile(r"As :class:`~?(?:[\w.]+\.)?(\w+)`\.?")


def parameter_meanings(factory: Any) -> dict[str, str]:
    """``parameter -> meaning`` of a segmenter factory, from the numpydoc "Parameters" section of
    its docstring (:func:`stability.configkeys.parameters`): a class's own, then its bases' for
    what it leaves out; an entry that only says ``As :class:`Other`.`` is ``Other``'s entry (a
    class of the same module). Parameters not documented are left out.

    Examples
    --------
    >>> from segmenters.chunkers import ChonkieSentence
    >>> parameter_meanings(ChonkieSentence)["chunk_size"]
    'Maximum tokens per chunk: characters with ``tokenizer="character"`` (the default), words with ``"word"``.'
    """
    from .configkeys import parameters

    owners = inspect.getmro(factory) if inspect.isclass(factory) else (factory,)
    meanings: dict[str, str] = {}
    for owner in owners:
        doc = vars(owner).get("__doc__") if inspect.isclass(owner) else getattr(owner, "__doc__", None)
        for name, (_, text) in parameters(doc if isinstance(doc, str) else None).items():
            meanings.setdefault(name, text)
    module = sys.modules.get(getattr(factory, "__module__", "") or "")
    for name, text in meanings.items():
        other = _AS_OTHER.fullmatch(text.strip())
        source = getattr(module, other.group(1), None) if other else None
        if inspect.isclass(source) and source is not factory:
            meanings[name] = parameter_meanings(source).get(name, text)
    return meanings


def describe_segmenters(names: Any = None) -> dict[str, SegmenterStatus]:
    """Load every available segmenter (or those named) and report on each; never raises.

    A plugin that fails to import, or whose default construction fails, is reported with its
    error and does not hide the others. One that only lacks an optional package (an adapter whose
    extra is not installed) is described from its class all the same, with ``missing`` saying how
    to install it.

    Examples
    --------
    >>> status = describe_segmenters(["even"])["even"]
    >>> status.info.origin, status.params
    ('built-in', {'n_segments': None, 'segment_length': 10})
    """
    from .segmenter import has_fast_path

    infos = available_segmenters()
    wanted = list(infos) if names is None else list(names)
    report: dict[str, SegmenterStatus] = {}
    for name in wanted:
        info = infos.get(name) or SegmenterInfo(str(name), str(name), "unknown")
        try:
            factory = load_segmenter_factory(name)
            params = factory_params(factory)
            meanings = {key: text for key, text in parameter_meanings(factory).items() if key in params}
            instance: Any = factory
            missing: str | None = None
            if inspect.isclass(factory):
                try:
                    instance = factory()
                except TypeError:  # needs arguments: describe the class itself
                    instance = factory
                except MissingDependencyError as exc:  # an extra not installed: the class itself too
                    missing = str(exc)
        except Exception as exc:  # report, never raise: one broken plugin must not hide the rest
            cause = exc.__cause__ if isinstance(exc, UnknownSegmenterError) and exc.__cause__ else exc
            said = f"{type(cause).__name__}: {cause}"
            if cause is not exc and info.origin in ("plugin", "built-in"):  # an entry point that does not load
                said = _entry_point_failure(info.target, info.distribution, info.version, cause)
            report[name] = SegmenterStatus(info, None, said)
            continue
        deterministic = getattr(instance, "deterministic", None)
        own_doc = vars(factory).get("__doc__") if inspect.isclass(factory) else getattr(factory, "__doc__", None)
        doc = inspect.cleandoc(own_doc) if isinstance(own_doc, str) else ""  # not a base class's
        report[name] = SegmenterStatus(
            info,
            params,
            None if missing is None else f"{MissingDependencyError.__name__}: {missing}",
            has_fast_path(instance),
            deterministic if isinstance(deterministic, bool) else None,
            doc.strip().splitlines()[0] if doc.strip() else None,
            meanings,
            missing,
            required_parameters(factory),
        )
    return report


def segmenter_code(segmenter: Any) -> dict[str, str]:
    """Where the code a segmenter runs comes from, beyond stability itself (whose version a run
    record keeps): ``{distribution: version}`` for the installed package its class or function is
    defined in (a plugin; installed editable, ``pip install -e``, with its module's file digest
    beside, since an edit there makes no new version) and for the library an adapter wraps (its
    ``package`` attribute, e.g. a chunker's), and ``{module: "file sha256:<12 hex digits>"}`` for a module no package installed
    (a local ``mysegs.py``), so that an edit of it shows; for a segmenter defined in the script being
    run (``__main__``), ``{"__main__.<name>": "source sha256:..."}``, the digest of its own source,
    so that editing the rest of the script does not count. ``{}`` for stability's own
    segmenters with nothing wrapped, and for code with no file (a notebook cell). An object may
    say what it runs with a ``segmenter_code()`` method (one resolved per document does).

    A run keeps these in its record (``provenance["segmenter_code"]``, per segmenter label) and a
    resume under other code computes that segmenter's pairs again (a resume under another version of
    stability only warns: :meth:`stability.store.ResultsStore._recomputed`).

    Examples
    --------
    >>> segmenter_code(get_segmenter("c99"))
    {}
    """
    own = getattr(segmenter, "segmenter_code", None)
    if callable(own) and not inspect.isclass(segmenter):
        return dict(own())
    found = segmenter.func if isinstance(segmenter, functools.partial) else segmenter
    code = found if inspect.isroutine(found) or inspect.isclass(found) else type(found)
    modules = [getattr(code, "__module__", None), getattr(segmenter, "package", None)]
    versions: dict[str, str] = {}
    for module, defines in zip(modules, (code, None)):
        if not isinstance(module, str) or not module:
            continue
        top = module.partition(".")[0]
        if top not in _OWN_PACKAGES and top not in sys.stdlib_module_names:  # both in the record already
            versions.update(_module_code(module, _distributions(), defines))
    return versions


@functools.lru_cache(maxsize=4)
def _editables(path: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``(project folder, distribution)`` of each editable install (``pip install -e``) seen from
    the import path ``path`` (the cache's key), its folder read from the ``direct_url.json`` pip
    writes. A build backend that installs a project editable through a path file (hatchling, PDM,
    flit) lists none of its modules in its records, so :func:`importlib.metadata.packages_distributions`
    does not name its package: the module is found in that folder instead. Read once per import
    path, as :func:`_distributions`."""
    del path
    import json
    from urllib.parse import unquote, urlparse

    found = []
    for dist in metadata.distributions():
        try:
            direct = json.loads(dist.read_text("direct_url.json") or "null")
        except ValueError:  # a damaged file: that install tells nothing
            continue
        info = direct.get("dir_info") if isinstance(direct, dict) else None
        url = direct.get("url") if isinstance(direct, dict) else None
        if isinstance(info, dict) and info.get("editable") is True and isinstance(url, str) and url.startswith("file://"):
            found.append((os.path.abspath(unquote(urlparse(url).path)), dist.metadata["Name"] or ""))
    return tuple(found)


def _editable_holding(module: str, path: str) -> list[str]:
    """The editable installs (:func:`_editables`) whose project holds ``module`` at ``path``: the
    top-level package's folder (or ``.py`` file) at the project's root or under ``src/`` (not any
    file of the project: its tests or scripts are no part of the package)."""
    top = module.partition(".")[0]
    return list(dict.fromkeys(name for folder, name in _editables(tuple(sys.path)) for layout in ("", "src")
                              if name and _under(path, os.path.join(folder, layout, top))))


def _under(path: str, stem: str) -> bool:
    """Whether the file ``path`` is the module ``stem.py`` or lies in the package folder ``stem``."""
    path, stem = os.path.abspath(path), os.path.abspath(stem)
    return path == stem + ".py" or path.startswith(stem + os.sep)


def _normalized(name: str) -> str:
    """A distribution's name as packaging compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _holds(name: str, path: str) -> bool:
    """Whether the installed distribution ``name`` lists the file ``path`` among its files."""
    try:
        files = metadata.distribution(name).files or ()
    except metadata.PackageNotFoundError:
        return False
    path = os.path.realpath(path)
    return any(os.path.realpath(str(file.locate())) == path for file in files)


#: The packages of stability's own distribution (``pyproject.toml``'s packages.find): their code's
#: version is stability's.
_OWN_PACKAGES = frozenset({"stability", "segmenters"})


@functools.lru_cache(maxsize=4)
def _installed(path: tuple[str, ...]) -> Mapping[str, list[str]]:
    return metadata.packages_distributions()


def _distributions() -> Mapping[str, list[str]]:
    """:func:`importlib.metadata.packages_distributions`, read once per ``sys.path`` (it reads every
    installed package's record, a fifth of a second: once a run made every test's run slower; the
    code a process has imported does not change with what is installed after)."""
    return _installed(tuple(sys.path))


def _module_code(module: str, distributions: Mapping[str, list[str]], code: Any = None) -> dict[str, str]:
    """:func:`segmenter_code` of one module: its package's version, or its file's digest (of the
    script being run, ``__main__``: the digest of ``code``'s own source, :func:`_source_code`)."""
    names = list(dict.fromkeys(distributions.get(module.partition(".")[0], ())))
    if DISTRIBUTION in names:
        return {}
    path = getattr(sys.modules.get(module), "__file__", None)
    if len(names) > 1 and isinstance(path, str):  # a namespace package (acme.*) several packages share
        names = [name for name in names if _holds(name, path)] or names
    editable = _editable_holding(module, path) if isinstance(path, str) else []
    for name in names or editable:
        try:
            code = {name: metadata.version(name)}
        except metadata.PackageNotFoundError:  # listed by a stale record: try the next
            continue
        if isinstance(path, str) and any(_normalized(name) == _normalized(n) for _, n in _editables(tuple(sys.path))):
            code.update(_file_code(module, path))  # an editable install runs its files as edited: no new version
        return code
    if not isinstance(path, str):  # not imported, or no file (a notebook's __main__, a built-in module)
        return {}
    if module == "__main__" and code is not None:  # the script run: the segmenter's own source, not the script's
        return _source_code(code, path)
    return _file_code(module, path)


def _source_code(code: Any, path: str) -> dict[str, str]:
    """``{"__main__.<name>": "source sha256:<12 hex digits>"}`` of a segmenter defined in the script
    being run (``__main__``): the digest of its own source (:func:`inspect.getsource`), as
    joblib.Memory tells a function's edit, so that editing the rest of the script (its reporting, a
    typo) does not make a resume compute every pair of it again. An edit of a helper the segmenter
    calls in that script does not show: define the segmenter in a module of its own to have the
    whole file watched. The file's digest (:func:`_file_code`) when the source cannot be read."""
    import hashlib

    try:
        source = inspect.getsource(code)
    except (OSError, TypeError):  # no source to read (a class made at run time): the whole file
        return _file_code("__main__", path)
    name = getattr(code, "__qualname__", getattr(code, "__name__", "?"))
    return {f"__main__.{name}": f"source sha256:{hashlib.sha256(source.encode()).hexdigest()[:12]}"}


def _file_code(module: str, path: str) -> dict[str, str]:
    """``{module: "file sha256:<12 hex digits>"}`` of a module's file, ``{}`` when it cannot be read."""
    try:
        status = os.stat(path)
        digest = _file_digest(path, status.st_size, status.st_mtime_ns)
    except OSError:  # a module loaded from a file since removed: nothing to tell an edit by
        return {}
    return {module: f"file sha256:{digest}"}


@functools.lru_cache(maxsize=256)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """The first 12 hex digits of the SHA-256 of the file ``path``, read once per (path, size,
    modification time), the cache's key: a loop of runs in one process does not read and hash a
    local module again for each, and a file edited in between (another size or time) is read again."""
    import hashlib

    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:12]
