"""Seeded permutations of a document's units, identical whatever the scheduling.

Every random stream of the harness is keyed, not drawn in dispatch order: the generator for
restart ``r`` of stream ``s`` of document ``d`` under run seed ``seed`` is

    ``numpy.random.default_rng(SeedSequence(seed, spawn_key=(doc_key(d), s, r)))``

so a restart's permutation is the same whether it runs first or last, in this process or a
worker, alone or in a chunk. The layout control (:func:`layout_units`) draws from the same keyed
generators (stream :attr:`Stream.LAYOUT`). ``doc_key`` is the first 8 bytes of the SHA-256 of the document id
(Python's ``hash`` is salted per process and would break this).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import IntEnum

import numpy as np

from .checks import check_int
from .exceptions import InvalidParameterError
from .stats import derived_rng, derived_rngs, doc_key

__all__ = [
    "Stream",
    "check_seed",
    "doc_key",
    "stream_rng",
    "within_segment_order",
    "shuffle_order",
    "restart_order",
    "restart_orders",
    "layout_units",
]


class Stream(IntEnum):
    """The independent random streams of one document."""

    WITHIN = 0  #: permutations within the segments of B0 (the stability test)
    SHUFFLE = 1  #: permutations across the whole document (shuffle control)
    BOOTSTRAP = 2  #: bootstrap resampling of restarts (confidence intervals)
    CHANCE = 3  #: Monte-Carlo chance level (only with a tolerance)
    LAYOUT = 4  #: words redistributed across units, the layout kept (layout control)


def check_seed(seed: object) -> int:
    """Validate a run seed: a non-negative integer."""
    return check_int(seed, "seed", low=0)


def stream_rng(seed: int, key: int, stream: Stream, index: int) -> np.random.Generator:
    """The generator of item ``index`` (a restart, or 0) of ``stream`` for document ``key``
    (:func:`stability.stats.derived_rng`)."""
    return derived_rng(seed, key, int(stream), index)


def within_segment_order(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random order of the units that keeps every unit inside its segment.

    ``labels`` are the (non-decreasing) segment indices of the units. Sorting by label, then by
    an independent uniform key, permutes each segment uniformly and independently in one
    vectorised ``lexsort``.

    Examples
    --------
    >>> labels = np.array([0, 0, 0, 1, 1])
    >>> order = within_segment_order(labels, np.random.default_rng(0))
    >>> sorted(order[:3].tolist()), sorted(order[3:].tolist())
    ([0, 1, 2], [3, 4])
    """
    return np.lexsort((rng.random(labels.shape[0]), labels))


def shuffle_order(n_units: int, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random order of all ``n_units`` units (the shuffle control)."""
    return rng.permutation(n_units)


def restart_order(
    seed: int, key: int, stream: Stream, restart: int, labels: np.ndarray
) -> np.ndarray:
    """The unit order of one restart of ``stream`` (``WITHIN`` or ``SHUFFLE``)."""
    return _order(stream, labels, stream_rng(seed, key, stream, restart))


def restart_orders(
    seed: int, key: int, stream: Stream, restarts: Sequence[int], labels: np.ndarray
) -> list[np.ndarray]:
    """``[restart_order(seed, key, stream, r, labels) for r in restarts]``, the generators
    seeded together (:func:`stability.stats.derived_rngs`): the same orders, cheaper."""
    return [_order(stream, labels, rng) for rng in derived_rngs(seed, (key, int(stream)), restarts)]


def _order(stream: Stream, labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if stream == Stream.WITHIN:
        return within_segment_order(labels, rng)
    if stream == Stream.SHUFFLE:
        return shuffle_order(labels.shape[0], rng)
    raise InvalidParameterError.make("stream", "Stream.WITHIN or Stream.SHUFFLE", stream)


_TOKENS = re.compile(r"\S+")


def layout_units(units: Sequence[str], rng: np.random.Generator) -> list[str]:
    """The units with the document's words redistributed at random, the layout kept (layout control).

    Words are whitespace tokens. Every word is swapped with a word drawn uniformly among the
    document's words **of the same number of characters** (a uniform permutation within each
    length class, across the whole document), and put back in place of the old one, the
    whitespace around it untouched. So every unit keeps exactly its number of words, its
    length in characters and its whitespace (line breaks included), while which words it holds
    is random: the content is destroyed, the layout is not. (A length-blind redistribution would
    keep the number of words per unit but only roughly the number of characters, which moves the
    boundaries of a character-counting splitter by itself.) A word whose length no other word of
    the document has stays where it is.

    Examples
    --------
    >>> units = ["the cat sat", "a dog ran  far", "on mats"]
    >>> new = layout_units(units, np.random.default_rng(1))
    >>> [len(u) for u in new] == [len(u) for u in units]
    True
    >>> [len(u.split()) for u in new] == [len(u.split()) for u in units]
    True
    >>> sorted(" ".join(new).split()) == sorted(" ".join(units).split())
    True
    """
    spans = [[m.span() for m in _TOKENS.finditer(unit)] for unit in units]
    words = [unit[a:b] for unit, unit_spans in zip(units, spans) for a, b in unit_spans]
    lengths = np.fromiter((len(w) for w in words), dtype=np.intp, count=len(words))
    # within each length class, a uniform permutation: sort by (length, uniform key)
    by_length = np.lexsort((rng.random(lengths.size), lengths))
    target = np.empty_like(by_length)
    target[np.argsort(lengths, kind="stable")] = by_length
    new_words = iter([words[i] for i in target])
    out = []
    for unit, unit_spans in zip(units, spans):
        pieces, last = [], 0
        for a, b in unit_spans:
            pieces += [unit[last:a], next(new_words)]
            last = b
        out.append("".join(pieces) + unit[last:])
    return out
