"""Seeded permutations of a document's units, identical whatever the scheduling.

Every random stream of the harness is keyed, not drawn in dispatch order: the generator for
restart ``r`` of stream ``s`` of document ``d`` under run seed ``seed`` is

    ``numpy.random.default_rng(SeedSequence(seed, spawn_key=(doc_key(d), s, r)))``

so a restart's permutation is the same whether it runs first or last, in this process or a
worker, alone or in a chunk. ``doc_key`` is the first 8 bytes of the SHA-256 of the document id
(Python's ``hash`` is salted per process and would break this).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from .checks import check_int
from .exceptions import InvalidParameterError
from .stats import derived_rng, doc_key

__all__ = [
    "Stream",
    "check_seed",
    "doc_key",
    "stream_rng",
    "within_segment_order",
    "shuffle_order",
    "restart_order",
]


class Stream(IntEnum):
    """The independent random streams of one document."""

    WITHIN = 0  #: permutations within the segments of B0 (the stability test)
    SHUFFLE = 1  #: permutations across the whole document (shuffle control)
    BOOTSTRAP = 2  #: bootstrap resampling of restarts (confidence intervals)
    CHANCE = 3  #: Monte-Carlo chance level (only with a tolerance)


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
    rng = stream_rng(seed, key, stream, restart)
    if stream == Stream.WITHIN:
        return within_segment_order(labels, rng)
    if stream == Stream.SHUFFLE:
        return shuffle_order(labels.shape[0], rng)
    raise InvalidParameterError.make("stream", "Stream.WITHIN or Stream.SHUFFLE", stream)
