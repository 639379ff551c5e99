"""Values a shell completes after the command line's options, read from their declarations.

``stability --install-completion`` installs the shell's hook; with it, ``stability run -s c<TAB>``
offers the registered segmenters starting with ``c``, ``-s c99,m<TAB>`` their parameters
(``c99,mask_size=``), ``--metrics pk,w<TAB>`` the reference metrics, and ``--corpus-format`` and
``--report-format`` their formats. Each function takes what has been typed of the value and
returns the candidates, in order; none imports a segmenter's module except to list the
parameters of the registered one named before a comma.

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

import re

__all__ = ["segmenter_values", "segmenter_names", "metric_values", "corpus_format_values", "report_format_values"]


def _starting(candidates: list[str], incomplete: str) -> list[str]:
    return [c for c in dict.fromkeys(candidates) if c.startswith(incomplete)]


def segmenter_values(incomplete: str) -> list[str]:
    """Registered segmenter names starting with ``incomplete``; after ``NAME,``, the parameters
    of ``NAME`` not yet given, as ``NAME,...,parameter=``, and ``grid=`` (none for an unknown name or one that
    fails to load: completion never raises; none for a ``module:attribute`` outside the registered
    names, whose code ``stability run`` imports only with ``--allow-plugins``)."""
    from .registry import factory_params, is_plugin, load_segmenter_factory

    name, comma, rest = incomplete.partition(",")
    if not comma:
        return segmenter_names(incomplete)
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


def segmenter_names(incomplete: str) -> list[str]:
    """Registered segmenter names starting with ``incomplete`` (``stability segmenters NAME...``)."""
    from .registry import available_segmenters

    return _starting(list(available_segmenters()), incomplete)


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


def corpus_format_values(incomplete: str) -> list[str]:
    """The corpus formats the readers declare, starting with ``incomplete``."""
    from .readers import FORMATS

    return _starting(sorted(FORMATS), incomplete)


def report_format_values(incomplete: str) -> list[str]:
    """The report formats the reporting package provides, starting with ``incomplete``."""
    from .reporting import formats_available

    return _starting(list(formats_available()), incomplete)
