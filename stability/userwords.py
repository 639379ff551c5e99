"""Errors in the user's words: library keywords said as the command line's flags or config keys.

The library's messages name keyword arguments: the parameter at fault opens the message
(``ci_width must be ...``, carried by :attr:`InvalidParameterError.parameter
<stability.exceptions.InvalidParameterError>`) and hints name other keywords as ``keyword=``
(``pass format= if the detection is wrong``). A user who typed a command knows neither: the
command line says ``--ci-width`` and ``--corpus-format``, and a value that came from a config file
is said as its table and key (``demo.toml: [run] ci_width``).

:class:`Words` is that one mapping, built from what the command declares (its click parameters,
whose Python names are the library's keywords) and from the keys of the config files it read;
:meth:`Words.say` rewrites a message with it. Nothing here lists flags by hand.

Examples
--------
>>> words = Words({"ci_width": "--ci-width", "format": "--corpus-format"})
>>> words.say("ci_width must be None or a number > 0 and <= 1; received 5.0", "ci_width")
'--ci-width must be a number > 0 and <= 1; received 5.0'
>>> words.say("cannot detect the format; pass format= (one of choi, text)")
'cannot detect the format; pass --corpus-format (one of choi, text)'
>>> keys = Words({}, {"n_jobs": ("[run]", "demo.toml")})
>>> keys.say("n_jobs must be a non-zero integer (-1: all cores); received 0", "n_jobs")
'demo.toml: [run] n_jobs must be a non-zero integer (-1: all cores); received 0'
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["Words", "config_keys", "without_none"]

#: A hint naming a keyword: ``name=``, with ``True``/``False`` or the start of a value after it (a
#: closing bracket or a comma after it is not a value).
_HINT = re.compile(r"\b([A-Za-z_]\w*)=(True\b|False\b)?(?=([^\s)\],;]?))")
#: A value a message quotes (a repr, a label as the user typed it): its ``key=`` is the user's own
#: text, never a hint (``--segmenter 'random,seed=-1'``). A quote after a letter is an apostrophe.
_QUOTED = re.compile(r"""(?<!\w)'(?:[^'\\\n]|\\.)*'(?!\w)|(?<!\w)"(?:[^"\\\n]|\\.)*"(?!\w)""")
#: What a command line or a TOML file cannot say: "None or" (leave the option out instead).
_NONE_OR = re.compile(r"(must be )None(?: \([^)]*\))? or ")

#: Config tables whose keys are keyword arguments of the library (``[corpus]``: read_corpus,
#: ``[run]``: Settings, ``[metrics]``: the metric options).
KEYWORD_TABLES = ("run", "corpus", "metrics")


def _hints(message: str) -> Iterator[re.Match[str]]:
    """The ``keyword=`` hints of ``message``, outside the values it quotes."""
    quoted = [m.span() for m in _QUOTED.finditer(message)]
    return (m for m in _HINT.finditer(message) if not any(a <= m.start() < b for a, b in quoted))


def _replace_hints(message: str, replace: Callable[[re.Match[str]], str]) -> str:
    """``message`` with each of its :func:`_hints` replaced by ``replace(match)``."""
    out, at = [], 0
    for match in _hints(message):
        out += [message[at:match.start()], replace(match)]
        at = match.end()
    return "".join(out) + message[at:]


def without_none(message: str) -> str:
    """``message`` without its "None or" choice, which a command line or a TOML file cannot say
    (they leave the option out instead).

    >>> without_none("ci_width must be None or a number > 0; received 3.0")
    'ci_width must be a number > 0; received 3.0'
    """
    return _NONE_OR.sub(r"\1", message, count=1)


def config_keys(paths: Iterable[str | Path]) -> dict[str, tuple[str, str]]:
    """``key -> (table, file)`` for the keyword tables of TOML config files (the first file that
    sets a key wins; ``[corpus.NAME]`` sub-tables count as ``[corpus.NAME]``). A file that cannot
    be read adds nothing: its own error is reported where it is read."""
    from .config import _corpus_keys

    corpus_keys = frozenset(_corpus_keys())
    found: dict[str, tuple[str, str]] = {}
    for path in paths:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        for table in KEYWORD_TABLES:
            value = data.get(table)
            if not isinstance(value, Mapping):
                continue
            # a [corpus] with a key of its own is one corpus (as `stability validate` reads it): a
            # table there is that key's value (where = {set = "test"}), not a [corpus.NAME]
            named = table == "corpus" and not any(key in corpus_keys for key in value)
            for key, item in value.items():
                if isinstance(item, Mapping) and named:  # [corpus.NAME] of a study config
                    for sub in item:
                        found.setdefault(sub, (f"[corpus.{key}]", str(path)))
                else:
                    found.setdefault(key, (f"[{table}]", str(path)))
    return found


@dataclass(frozen=True)
class Words:
    """How one command says library keywords: ``flags`` (keyword -> ``--flag``) for what the
    user gave or can give on the command line, ``keys`` (keyword -> (table, file)) for values
    read from a config file. A keyword in both is said as the flag."""

    flags: Mapping[str, str]
    keys: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: Keywords the command can say neither way (``format=`` for ``stability score``, which
    #: detects the format): a hint naming one is left out, with its clause.
    unsaid: frozenset[str] = frozenset()
    #: Keywords without a flag that a config file of the command can set (keyword -> table): a
    #: hint names them as that key (``[corpus] delimiter``).
    settable: Mapping[str, str] = field(default_factory=dict)

    def _subject(self, parameter: str) -> tuple[str, str]:
        """``(prefix, words)`` for the parameter opening a message; each keyword in it (e.g.
        ``n_bootstrap x n_restarts``) is said in the user's words."""
        prefix = ""
        table_of_file = self._file_table(parameter)

        def word(name: str) -> str:
            nonlocal prefix
            table = self._as_key(name, table_of_file)
            if table is None:
                return self.flags.get(name, name)
            if name in self.keys:
                prefix = f"{self.keys[name][1]}: "
            return f"{table} {name}"

        def one(match: re.Match[str]) -> str:
            # "metrics window_limit" is the key of the [metrics] table, not the --metrics flag and a key
            table, name = match.group(1), match.group(2)
            if table is not None and self.keys.get(name, ("",))[0] == f"[{table}]":
                return word(name)
            return (f"{word(table)} " if table else "") + word(name)

        said = re.sub(rf"(?:\b({'|'.join(KEYWORD_TABLES)}) )?([A-Za-z_]\w*)", one, parameter)
        return prefix, said

    def _file_table(self, parameter: str | None) -> str | None:
        """The config table of a message's subject when it comes from a config file (one table):
        the message then says its other keywords as keys of that table, not as flags
        ("[run] ci_score and [run] ci_width", "[corpus] levels ...; set [corpus] format")."""
        if not parameter:
            return None
        tables = {self.keys[n][0] for n in re.findall(r"[A-Za-z_]\w*", parameter) if n in self.keys}
        return next(iter(tables)) if len(tables) == 1 else None

    def _as_key(self, name: str, file_table: str | None) -> str | None:
        """The config table ``name`` is said under, ``None`` when it is said as its flag (a
        keyword in both is said as the flag) or as itself; a keyword of a message about a config
        value (``file_table``, :meth:`_file_table`) that only a flag sets is said in that table."""
        if name in self.flags:
            return file_table if file_table and name not in self.keys else None
        return self.keys[name][0] if name in self.keys else None

    def _hint(self, match: re.Match[str], table: str | None = None) -> str:
        name, boolean, following = match.groups()
        key_table = self._as_key(name, table)
        if key_table is None and name not in self.flags:
            key_table = self.settable.get(name)
        if key_table is not None:
            value = {"True": "true", "False": "false"}.get(boolean or "", "")
            return f"{key_table} {name} = {value}" if (boolean or following) else f"{key_table} {name}"
        if name in self.flags:
            flag = self.flags[name]
            if boolean is not None:
                return flag
            return f"{flag} " if following else flag
        return match.group(0)

    def _drop_unsaid(self, message: str) -> str:
        """``message`` without the clauses of hints naming an :attr:`unsaid` keyword."""
        while True:
            hint = next((m for m in _hints(message) if m.group(1) in self.unsaid), None)
            if hint is None:
                return message
            start, end = _clause(message, hint.start())
            message = message[:start] + message[end:]

    def say(self, message: str, parameter: str | None = None) -> str:
        """``message`` in the user's words: the opening ``parameter`` (when given and the message
        starts with it) and every ``keyword=`` hint (left out with its clause when the command
        cannot say the keyword)."""
        message = self._drop_unsaid(message) if self.unsaid else message
        table = self._file_table(parameter) if parameter and message.startswith(parameter) else None
        hint = functools.partial(self._hint, table=table)
        if parameter and message.startswith(parameter):
            prefix, said = self._subject(parameter)
            if said != parameter:
                rest = without_none(message[len(parameter):])
                return prefix + said + _replace_hints(rest, hint)
        return _replace_hints(message, hint)


def _clause(message: str, at: int) -> tuple[int, int]:
    """``(start, end)`` of what to cut for the hint at ``at``: its clause, from the delimiter
    before it (``;``, ``,``, ``:`` or an opening bracket, brackets nested within skipped) to the
    one after it, or the whole bracket when the hint is all it holds.

    >>> text = "bad header [detected; pass format= to override]"
    >>> start, end = _clause(text, text.index("format="))
    >>> text[:start] + text[end:]
    'bad header [detected]'
    """
    depth, start = 0, -1
    for i in range(at - 1, -1, -1):
        ch = message[i]
        if ch in ")]":
            depth += 1
        elif ch in "([" and depth:
            depth -= 1
        elif ch in "([;,:" and not depth:
            start = i
            break
    depth, end = 0, len(message)
    for i in range(at, len(message)):
        ch = message[i]
        if ch == "[" and not depth:  # "[format ... detected ...]" closes a message: not the hint's
            end = len(message[:i].rstrip())
            break
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        elif ch in ")];," and not depth:
            end = i
            break
    opening = message[start] if start >= 0 else ""
    if opening in "([" and opening and end < len(message) and message[end] in ")]":
        return len(message[:start].rstrip()), end + 1  # "found none (pass pattern= ...)": the bracket goes
    if opening in ";,:" and opening:
        return start, end  # "...; pass format= to override]": from the delimiter, the closing kept
    end = end + 1 if end < len(message) and message[end] in ";," else end  # first of a list, or the message
    return start + 1, len(message) - len(message[end:].lstrip())
