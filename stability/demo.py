"""A built-in demo corpus with known topic boundaries that needs no download and no data files.

Choi (2000) built his benchmark by concatenating the first sentences of randomly chosen Brown
corpus excerpts. :func:`demo_corpus` does the same with prose every Python installation carries:
the docstrings of standard-library modules. Each *topic* is one module (its module docstring and
the docstrings of its public classes and functions, split into sentences); each document
concatenates ``n_segments`` runs of 3 to 11 consecutive sentences from distinct modules, and the
junctions are the reference boundaries.

The corpus is a pure function of ``seed`` and the parameters **for a given Python version**:
docstrings change between Python releases, so the text (not the procedure) may differ across
versions. Modules that cannot be imported on a platform are skipped.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import warnings
from typing import Any

import numpy as np

from .corpus import Document
from .checks import check_int
from .exceptions import InvalidParameterError

__all__ = ["TOPIC_MODULES", "demo_corpus", "topic_sentences"]

#: Standard-library modules whose docstrings give at least a dozen prose sentences.
TOPIC_MODULES = (
    "argparse", "calendar", "codecs", "collections", "configparser", "contextlib", "csv",
    "dataclasses", "difflib", "doctest", "filecmp", "fnmatch", "ftplib", "functools", "getopt",
    "gzip", "hashlib", "http.client", "imaplib", "inspect", "io", "ipaddress", "itertools", "json",
    "linecache", "locale", "logging", "mimetypes", "numbers", "optparse", "os", "pathlib",
    "plistlib", "pydoc", "quopri", "re", "sched", "shelve", "shutil", "signal", "smtplib",
    "socket", "statistics", "subprocess", "tarfile", "tempfile", "textwrap", "threading", "time",
    "timeit", "tokenize", "traceback", "typing", "urllib.parse", "uuid", "wave", "weakref",
    "xml.dom.minidom", "zipfile",
)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_MIN_WORDS, _MAX_WORDS = 6, 60


@functools.lru_cache(maxsize=None)
def topic_sentences(module_name: str) -> tuple[str, ...]:
    """Prose sentences from a module's docstrings (code examples and fragments left out)."""
    with warnings.catch_warnings():  # importing and reading docstrings may emit deprecations
        warnings.simplefilter("ignore")
        module = importlib.import_module(module_name)
        docs = [inspect.getdoc(module) or ""]
        for name, obj in sorted(vars(module).items()):
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isclass(obj) or inspect.isfunction(obj):
                docs.append(inspect.getdoc(obj) or "")
    text = re.sub(r"\s+", " ", " ".join(docs))
    return tuple(
        s for s in _SENTENCE_END.split(text)
        if _MIN_WORDS <= len(s.split()) <= _MAX_WORDS and ">>>" not in s
    )


@functools.lru_cache(maxsize=1)
def _topics() -> tuple[tuple[str, tuple[str, ...]], ...]:
    topics = []
    for name in TOPIC_MODULES:
        try:
            sentences = topic_sentences(name)
        except ImportError:  # e.g. a Python built without a module: the corpus uses the others
            continue
        if len(sentences) >= 11:
            topics.append((name, sentences))
    return tuple(topics)


#: The most documents :func:`demo_corpus` makes (it builds them all at once, in memory).
MAX_DOCUMENTS = 10_000
#: The longest segment, in sentences: every topic has at least this many (see :func:`_topics`).
MAX_LENGTH = 11


def check_demo_options(where: str = "", **options: Any) -> dict[str, Any]:
    """The keywords of :func:`demo_corpus`, checked, with the defaults of those left out; an
    error names a keyword as ``where`` followed by its name (``"demo.toml: [corpus.demo] "``, say).

    Examples
    --------
    >>> check_demo_options(n_documents=2)
    {'n_documents': 2, 'n_segments': 6, 'min_length': 3, 'max_length': 11, 'seed': 0}
    >>> check_demo_options("[corpus.demo] ", seed=-1)
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: [corpus.demo] seed must be an integer >= 0; received -1
    """
    try:
        bound = inspect.signature(demo_corpus).bind(**options)
    except TypeError:
        unknown = sorted(set(options) - set(inspect.signature(demo_corpus).parameters))
        raise InvalidParameterError.make(f"{where}keywords", "keywords of demo_corpus", unknown) from None
    bound.apply_defaults()
    values = dict(bound.arguments)
    check_int(values["n_documents"], f"{where}n_documents", low=1, high=MAX_DOCUMENTS)
    check_int(values["n_segments"], f"{where}n_segments", low=1, high=len(_topics()))
    check_int(values["min_length"], f"{where}min_length", low=1, high=MAX_LENGTH)
    check_int(values["max_length"], f"{where}max_length", low=values["min_length"], high=MAX_LENGTH)
    check_int(values["seed"], f"{where}seed", low=0)
    return values


def demo_corpus(
    n_documents: int = 12,
    n_segments: int = 6,
    min_length: int = 3,
    max_length: int = 11,
    seed: int = 0,
) -> list[Document]:
    """Choi-style documents built from standard-library docstrings, with reference boundaries.

    Parameters
    ----------
    n_documents : int, default 12
        Number of documents (at most 10,000).
    n_segments : int, default 6
        Topics per document (each from a different module; at most the number of modules that
        give a topic, about 60).
    min_length, max_length : int, default 3 and 11
        Segment lengths in sentences, drawn uniformly (Choi's 3-11 set; at most 11).
    seed : int, default 0
        Seed of the generator (a non-negative integer).

    Returns
    -------
    list of Document
        Ids ``demo-00``, ``demo-01``...; one reference each; ``meta["topics"]`` names the modules.

    Examples
    --------
    >>> docs = demo_corpus(n_documents=2, n_segments=3)
    >>> [len(d.references[0].boundaries) for d in docs]
    [2, 2]
    """
    check_demo_options(n_documents=n_documents, n_segments=n_segments, min_length=min_length,
                       max_length=max_length, seed=seed)
    topics = _topics()
    rng = np.random.default_rng(seed)
    documents = []
    for d in range(n_documents):
        chosen = rng.choice(len(topics), size=n_segments, replace=False)
        units: list[str] = []
        boundaries: list[int] = []
        names = []
        for t in chosen.tolist():
            name, sentences = topics[t]
            length = int(rng.integers(min_length, max_length + 1))
            start = int(rng.integers(0, len(sentences) - length + 1))
            if units:
                boundaries.append(len(units))
            units.extend(sentences[start : start + length])
            names.append(name)
        documents.append(
            Document(id=f"demo-{d:02d}", units=tuple(units), references=(tuple(boundaries),), meta={"topics": names})
        )
    return documents
