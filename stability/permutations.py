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
from .exceptions import InvalidParameterError, InvalidTypeError
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
    """The independent random streams of one document. A stream's number seeds its draws, so it
    never changes; 3, the Monte-Carlo chance level's before it was computed exactly, is not reused."""

    WITHIN = 0  #: permutations within the segments of B0 (the stability test)
    SHUFFLE = 1  #: permutations across the whole document (shuffle control)
    BOOTSTRAP = 2  #: bootstrap resampling of restarts (confidence intervals)
    LAYOUT = 4  #: words redistributed across units, the layout kept (layout control)


def check_seed(seed: object) -> int:
    """Validate a run seed: a non-negative integer.

    A numpy ``Generator``, ``RandomState`` or ``SeedSequence`` is refused with a message saying how
    to draw an integer from it: the seed is recorded with the results, so that every permutation
    can be derived again from it (``SeedSequence(seed, spawn_key=...)``).

    Examples
    --------
    >>> check_seed(np.random.default_rng(0))
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidTypeError: seed must be an integer >= 0 (it is recorded with the results to reproduce the run; draw one from a numpy Generator with int(rng.integers(2**32))); received Generator Generator(PCG64)
    """
    if isinstance(seed, (np.random.Generator, np.random.RandomState, np.random.SeedSequence, np.random.BitGenerator)):
        shown = re.sub(r" at 0x[0-9a-fA-F]+", "", repr(seed)).replace("\n", "").replace("    ", "")
        raise InvalidTypeError(
            "seed must be an integer >= 0 (it is recorded with the results to reproduce the run; draw one from a "
            f"numpy Generator with int(rng.integers(2**32))); received {type(seed).__name__} {shown}", parameter="seed")
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
    keys = rng.random(int(labels.shape[0]))  # int: numpy's stubs type random(Any) as a float
    if (labels.shape[0] > 1 and labels.dtype.kind in "iu" and labels.min() >= 0
            and labels.max() < 65536):
        # the same order as the lexsort, faster on long documents: without a tie among the keys
        # (a draw of 53 random bits: almost never) the unstable sort's order of the keys is the
        # only one, and a stable sort by 16-bit labels (a radix sort) keeps it within each segment
        by_key = np.argsort(keys)
        ordered = keys[by_key]
        if not (ordered[1:] == ordered[:-1]).any():
            return by_key[np.argsort(labels.astype(np.uint16)[by_key], kind="stable")]
    return np.lexsort((keys, labels))


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


#: What the layout control redistributes: runs of letters and digits. Punctuation and whitespace
#: stay in place.
_WORDS = re.compile(r"\w+")


def _cased(word: str, like: str) -> str:
    """``word`` with the case of ``like`` character by character (same length); a character whose
    case change is not one character (``ß``) is left as it is, so the length never changes."""
    if word.isascii() and like.isascii():  # the common shapes at once (ASCII: one character each way)
        if like == like.lower():
            return word.lower()
        if like[0].isupper() and like[1:] == like[1:].lower():
            return word[0].upper() + word[1:].lower()
    out = []
    for c, model in zip(word, like):
        changed = c.upper() if model.isupper() else c.lower()
        out.append(changed if len(changed) == 1 else c)
    return "".join(out)


def layout_units(units: Sequence[str], rng: np.random.Generator) -> list[str]:
    r"""The units with the document's words redistributed at random, the layout kept (layout control).

    Words are runs of letters and digits. Every word is swapped with a word drawn uniformly among
    the document's words **of the same number of characters** (a uniform permutation within each
    length class, across the whole document) and takes the case of the word it replaces; the
    punctuation and whitespace around it stay in place. So every unit keeps exactly its length in
    characters, its whitespace (line breaks included), its punctuation (every sentence end) and its
    capitals, while which words it holds is random: the content is destroyed, the layout is not. A
    splitter that counts characters, words or sentences sees the same document; one that reads the
    words does not. (A length-blind redistribution would keep the number of words per unit but only
    roughly the number of characters, which moves the boundaries of a character-counting splitter by
    itself; moving the punctuation with the words would move the sentence ends a sentence-packing
    chunker cuts at.) A word whose length no other word of the document has stays where it is.

    Examples
    --------
    >>> units = ["The cat sat.", "A dog ran,  far!", "On mats"]
    >>> new = layout_units(units, np.random.default_rng(1))
    >>> [len(u) for u in new] == [len(u) for u in units]
    True
    >>> [re.sub(r"\w", "x", u) for u in new] == [re.sub(r"\w", "x", u) for u in units]
    True
    >>> [u[0].isupper() for u in new]
    [True, True, True]
    >>> sorted(w.lower() for u in new for w in _WORDS.findall(u)) == sorted(
    ...     w.lower() for u in units for w in _WORDS.findall(u))
    True
    """
    spans = [[m.span() for m in _WORDS.finditer(unit)] for unit in units]
    words = [unit[a:b] for unit, unit_spans in zip(units, spans) for a, b in unit_spans]
    lengths = np.fromiter((len(w) for w in words), dtype=np.intp, count=len(words))
    # within each length class, a uniform permutation: sort by (length, uniform key)
    by_length = np.lexsort((rng.random(lengths.size), lengths))
    target = np.empty_like(by_length)
    target[np.argsort(lengths, kind="stable")] = by_length
    new_words = iter([_cased(words[i], old) for i, old in zip(target, words)])
    out = []
    for unit, unit_spans in zip(units, spans):
        pieces, last = [], 0
        for a, b in unit_spans:
            pieces += [unit[last:a], next(new_words)]
            last = b
        out.append("".join(pieces) + unit[last:])
    return out
