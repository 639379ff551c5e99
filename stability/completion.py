"""Values a shell completes after the command line's options, read from their declarations.

``stability --install-completion`` installs the shell's hook; with it, ``stability run -s c<TAB>``
offers the registered segmenters starting with ``c``, ``-s c99,m<TAB>`` their parameters
(``c99,mask_size=``), ``--metrics pk,w<TAB>`` the reference metrics, ``stability config r<TAB>``
the config tables and keys (``run``, ``run.n_restarts``...), and ``--corpus-format`` and
``--report-format`` their formats. Each function takes what has been typed of the value and
returns the candidates, in order; none imports a segmenter's module except to list the
parameters of the registered one named before a comma. A value is completed quietly: what the
registry warns about (an entry point ``-s`` cannot name, two packages declaring one name) and what
a plugin prints when imported stay out of the shell, whose candidates are the command's stdout and
whose prompt its stderr would break into.

Examples
--------
>>> segmenter_values("c9")
['c99']
>>> segmenter_values("c99,mask_size=5,std")
['c99,mask_size=5,std_coeff=']
>>> metric_values("pk,b")
['pk,boundary_similarity', 'pk,b']
>>> [f for f in corpus_format_values("c")]
['chen', 'choi', 'csv']
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["segmenter_values", "segmenter_names", "config_names", "metric_values", "corpus_format_values", "report_format_values",
           "bash_words", "complete_bash", "BASH_SCRIPT", "use_bash_script"]


_Completer = TypeVar("_Completer", bound=Callable[..., list[str]])


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    """No warning shown and nothing printed (a plugin imported to list its parameters may print)."""
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def _quiet(complete: _Completer) -> _Completer:
    """``complete`` run :func:`_silenced`: the shell shows only the candidates it returns."""
    @functools.wraps(complete)
    def quietly(incomplete: str) -> list[str]:
        with _silenced():
            return complete(incomplete)

    return quietly  # type: ignore[return-value]


def _starting(candidates: list[str], incomplete: str) -> list[str]:
    return [c for c in dict.fromkeys(candidates) if c.startswith(incomplete)]


@_quiet
def segmenter_values(incomplete: str) -> list[str]:
    """Registered segmenter names starting with ``incomplete`` that a ``-s`` spec can give (not an
    entry point named with ``:``, ``,`` or ``=``, which the registry warns about); after ``NAME,``, the parameters
    of ``NAME`` not yet given, as ``NAME,...,parameter=``, and ``grid=`` (none for an unknown name or one that
    fails to load: completion never raises; none for a ``module:attribute`` outside the registered
    names, whose code ``stability run`` imports only with ``--allow-plugins``)."""
    from .registry import _unnameable, factory_params, is_plugin, load_segmenter_factory

    name, comma, rest = incomplete.partition(",")
    if not comma:
        return [n for n in segmenter_names(incomplete) if _unnameable(n) is None]
    if is_plugin(name):
        return []
    try:
        params = factory_params(load_segmenter_factory(name))
    except Exception:  # noqa: BLE001 - a shell's completion shows nothing rather than a traceback
        return []
    from .config import _top_level_split

    *given, typing = _top_level_split(rest)  # a comma inside a grid's braces or a list is no separator
    if typing.count("{") > typing.count("}") or typing.count("[") > typing.count("]"):
        return []  # inside a grid or a list: its own keys and values, not the segmenter's parameters
    done = {part.partition("=")[0].strip() for part in given}
    for part in given:  # a grid's parameters are given too
        key, _, value = part.partition("=")
        if key.strip() == "grid":
            done |= set(re.findall(r"([A-Za-z_]\w*)\s*=", value))
    head = ",".join([name, *given, ""])
    return [f"{head}{p}=" for p in [*params, "grid"] if p not in done and p.startswith(typing)]


@_quiet
def segmenter_names(incomplete: str) -> list[str]:
    """Registered segmenter names starting with ``incomplete`` (``stability segmenters NAME...``,
    which describes an entry point under any name, ``pkg:seg`` and ``a,b`` too)."""
    from .registry import available_segmenters

    return _starting(list(available_segmenters()), incomplete)


@_quiet
def config_names(incomplete: str) -> list[str]:
    """Config tables, keys and ``table.key`` names starting with ``incomplete`` (``stability config
    NAME...``; a run flag, typed with its ``-``, completes as the command's options do)."""
    from .configkeys import reference, selectors

    names = selectors(reference())
    return _starting([*names["table"], *names["key"], *names["table.key"]], incomplete)


@_quiet
def metric_values(incomplete: str) -> list[str]:
    """Reference metric names and aliases completing the last of the comma-separated names
    typed (``--metrics pk,w`` gives ``pk,wd``, ``pk,windowdiff``...), the metrics given (under
    any of their names) left out."""
    from .catalogue import MULTI_REFERENCE, REFERENCE

    given, comma, typing = incomplete.rpartition(",")
    head = given + comma
    measures = [m for table in (REFERENCE, MULTI_REFERENCE) for m in table.values()]
    typed = set(given.split(",")) if given else set()
    return [head + n for m in measures if typed.isdisjoint((m.name, *m.aliases))
            for n in (m.name, *m.aliases) if n.startswith(typing)]


@_quiet
def corpus_format_values(incomplete: str) -> list[str]:
    """The corpus formats the readers declare, starting with ``incomplete``."""
    from .readers import FORMATS

    return _starting(sorted(FORMATS), incomplete)


@_quiet
def report_format_values(incomplete: str) -> list[str]:
    """The report formats the reporting package provides, starting with ``incomplete``."""
    from .reporting import formats_available

    return _starting(list(formats_available()), incomplete)


#: Characters at which bash splits the command line into words for completion (they are in its
#: default ``COMP_WORDBREAKS``) and which this command's values hold: ``c99,mask_size=5``,
#: ``--metrics=pk``, ``mypkg.seg:segment``.
BASH_BREAKS = ("=", ":")


def bash_words(words: list[str], cword: int) -> tuple[list[str], int]:
    """The words of a command line as typed, from bash's ``COMP_WORDS``, which cut them at
    :data:`BASH_BREAKS`; and how many leading characters of the word being completed (the last
    one returned) bash does not replace with the candidate, which are to be cut from the front of
    every candidate.

    Bash makes ``-s c99,mask_size=5,std`` the words ``-s``, ``c99,mask_size``, ``=``, ``5,std``
    and replaces only ``5,std``; ``--metrics=`` is ``--metrics``, ``=`` (the word completed is the
    ``=``; bash replaces the empty text after it). A break character alone in a word is glued to
    its neighbours again (bash leaves no space around it), except to an empty word being
    completed after a space.

    >>> bash_words(["stability", "run", "-s", "c99,mask_size", "=", "5,std"], 5)
    (['stability', 'run', '-s', 'c99,mask_size=5,std'], 14)
    >>> bash_words(["stability", "run", "--metrics", "="], 3)
    (['stability', 'run', '--metrics='], 10)
    >>> bash_words(["stability", "run", "-s", "c99", ""], 4)
    (['stability', 'run', '-s', 'c99', ''], 0)
    """
    typed = [*words[:cword], words[cword] if cword < len(words) else ""]
    merged: list[str] = []
    glue = False
    for i, word in enumerate(typed):
        if word in BASH_BREAKS and merged:
            merged[-1] += word
            glue = True
        elif glue and (word or i < cword):
            merged[-1] += word
            glue = False
        else:
            merged.append(word)
            glue = False
    replaced = "" if typed[-1] in BASH_BREAKS else typed[-1]
    return merged, len(merged[-1]) - len(replaced)


def complete_bash(run: Callable[[], Any]) -> None:
    """Run the command's bash completion (``run``, with ``COMP_WORDS`` and ``COMP_CWORD`` set by
    the hook ``--install-completion`` installs) on the words as typed (:func:`bash_words`), and
    print the candidates cut to the part bash replaces; without that, ``-s c99,mask_size=5,<TAB>``
    completed nothing and ``--metrics=<TAB>`` offered the command's arguments."""
    import os
    import shlex

    text = os.environ.get("COMP_WORDS", "")
    try:
        words = shlex.split(text)
    except ValueError:  # an open quote: as the shell gave it
        words = text.split()
    merged, cut = bash_words(words, int(os.environ.get("COMP_CWORD", len(words))))
    os.environ["COMP_WORDS"] = shlex.join(merged)
    os.environ["COMP_CWORD"] = str(len(merged) - 1)
    captured = io.StringIO()
    try:
        with contextlib.redirect_stdout(captured):
            run()
    finally:
        prefix = merged[-1][:cut]
        lines = captured.getvalue().splitlines()
        print("\n".join(line[cut:] if cut and line.startswith(prefix) else line for line in lines))


#: The bash hook that ``stability --show-completion bash`` prints and ``--install-completion``
#: installs (typer's placeholders). Beside typer's own it tells bash not to add a space after the
#: one candidate when that candidate ends in ``=`` or ``,``: the value goes on there
#: (``-s c99,mask_size=`` then the size, ``--metrics pk,`` then the next metric).
BASH_SCRIPT = r"""
%(complete_func)s() {
    local IFS=$'\n'
    COMPREPLY=( $(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD="$COMP_CWORD" %(autocomplete_var)s=complete_bash "$1") )
    case "${#COMPREPLY[@]}:${COMPREPLY[0]}" in
        1:*= | 1:*,) compopt -o nospace ;;
    esac
    return 0
}

complete -o default -F %(complete_func)s %(prog_name)s
"""


def use_bash_script() -> None:
    """Make :data:`BASH_SCRIPT` the bash hook typer prints and installs (typer keeps its scripts
    in a table of its completion module; a typer without that table keeps its own, and the test
    of the hook in an interactive bash says so)."""
    from typer import _completion_shared

    scripts = getattr(_completion_shared, "_completion_scripts", None)
    if isinstance(scripts, dict):
        scripts["bash"] = BASH_SCRIPT
