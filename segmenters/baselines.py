"""Trivial baselines used in the literature (Choi 2000; ``shared/specs/segmenters.md`` section 6).

They ignore the content of the units, which makes them the natural test of the harness's
controls: every one of them is perfectly "stable" under within-segment permutations and must be
flagged ``content_blind``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from stability.checks import check_int, check_real
from stability.segmenter import Segmenter

__all__ = ["NoBoundaries", "AllBoundaries", "Even", "RandomBoundaries"]


def _positive_int_or_none(value, name: str) -> None:
    check_int(value, name, low=1, none=True)


class NoBoundaries(Segmenter):
    """``none``: one segment, no boundaries (``B = []``)."""

    name = "none"

    def segment(self, units: Sequence[str]) -> list[int]:
        return []


class AllBoundaries(Segmenter):
    """``all``: every unit its own segment (``B = [1 .. n-1]``)."""

    name = "all"

    def segment(self, units: Sequence[str]) -> list[int]:
        return list(range(1, len(units)))


class Even(Segmenter):
    """``even``: regularly spaced boundaries.

    Parameters
    ----------
    n_segments : int, optional
        Number of segments ``K`` (clamped to ``1 .. n``); boundaries at ``floor(j * n / K)`` for
        ``j = 1 .. K-1``, so segment lengths differ by at most one.
    segment_length : int, optional
        Used when ``n_segments`` is not given: a boundary every ``segment_length`` units
        (Solbiati's "even" baseline uses 30). Default 10.
    """

    name = "even"

    def __init__(self, n_segments: int | None = None, segment_length: int = 10) -> None:
        _positive_int_or_none(n_segments, "n_segments")
        check_int(segment_length, "segment_length", low=1)  # used whenever n_segments is not given
        self.n_segments = n_segments
        self.segment_length = segment_length

    def segment(self, units: Sequence[str]) -> list[int]:
        n = len(units)
        if self.n_segments is None:
            return list(range(self.segment_length, n, self.segment_length))
        k = min(max(int(self.n_segments), 1), max(n, 1))
        return [(j * n) // k for j in range(1, k)]


class RandomBoundaries(Segmenter):
    """``random``: boundaries drawn at random, ignoring the content.

    Parameters
    ----------
    n_segments : int, optional
        If given, ``n_segments - 1`` distinct gaps drawn uniformly without replacement.
    rate : float, default 0.1
        Otherwise each gap is a boundary independently with this probability (Choi used 0.5).
    seed : int or None, default 0
        Seed of the generator (a non-negative integer), re-created on every call, so the output depends only on the
        number of units. ``None`` draws fresh entropy on every call: a non-deterministic
        segmenter, which the harness's determinism check flags.
    """

    name = "random"

    def __init__(self, n_segments: int | None = None, rate: float = 0.1, seed: int | None = 0) -> None:
        _positive_int_or_none(n_segments, "n_segments")
        check_real(rate, "rate", low=0.0, high=1.0)
        check_int(seed, "seed", low=0, none=True)  # numpy's own refusal came only at the first call
        self.n_segments = n_segments
        self.rate = rate
        self.seed = seed

    @property
    def deterministic(self) -> bool:  # type: ignore[override]
        return self.seed is not None

    def segment(self, units: Sequence[str]) -> list[int]:
        n = len(units)
        if n < 2:
            return []
        rng = np.random.default_rng(self.seed)
        gaps = np.arange(1, n)
        if self.n_segments is not None:
            count = min(int(self.n_segments) - 1, n - 1)
            chosen = rng.choice(gaps, size=count, replace=False)
        else:
            chosen = gaps[rng.random(n - 1) < self.rate]
        return sorted(int(b) for b in chosen)
