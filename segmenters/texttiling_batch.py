"""TextTiling's batched restart path: many orders of one document at once.

:meth:`segmenters.texttiling.TextTiling.segment_batch` runs here. Every order of a document has
the same units, hence the same number of non-empty units, tokens, pseudosentences, gaps and word
ticks: each step of :meth:`~segmenters.texttiling.TextTiling.segment_prepared` becomes one array
operation over a stack with one row per order, doing the same arithmetic element by element, so
the boundaries are identical order by order (tests/test_contract.py holds it for every batch).

What changes is how a step is computed, never its values:

* **Block comparison from same-type token pairs.** A block's squared norm is its number of
  tokens plus twice its same-type token pairs, and the dot product of two blocks is the number
  of same-type pairs with one token in each. The pairs of a document do not depend on the order
  (only their pseudosentences do), so they are listed once. The gaps for which a pair lies across
  the two blocks (or inside one) form a range, since blocks move right with the gap: every pair
  adds its three ranges to difference arrays, whose running sums are every gap's integer sums
  (exactly the per-order values, then the same float operations).
* **Vocabulary introduction**: first and last pseudosentence of every type by a grouped
  minimum / maximum over the stack.
* **The punctuation check** (a paragraph break 100 characters into the punctuation-free text)
  reads the start of the last break from the lengths, without building the text: the last
  separator, moved back over the trailing spaces of the unit before it unless that unit is
  nothing but spaces (then the previous break already took them).
* **nltk's greedy choice** of boundaries goes rank by rank over all orders at once; the
  100-character rule separator by separator; the nearest kept break by one search over all
  orders' breaks laid end to end.

Documents with more same-type pairs than ``_BATCH_CELLS`` (long ones: the pairs grow with the
square of a term's frequency) run order by order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .preprocessing import ragged_take
from .texttiling import (
    MIN_PARAGRAPH,
    SEPARATOR,
    TextTilingState,
    _block_windows,
    _cosine,
    _cutoff,
    _depth_scores,
    _introduction_scores,
    _offsets,
    _smooth,
)

__all__ = ["batch_boundaries"]

_BATCH_CELLS = 4_000_000  # entries of the largest array of one order x orders of one group
_SEP = len(SEPARATOR)
_NEAR = 3  # nltk: no boundary within 3 gaps of an accepted one


@dataclass(frozen=True)
class _Static:
    """What every order of the document shares (computed once per batch)."""

    unit: np.ndarray  # unit of every kept (non-stop) token
    rank: np.ndarray  # its index among its unit's tokens, stopwords included
    pair_first: np.ndarray  # every pair of kept tokens of the same type (indices of kept tokens)
    pair_second: np.ndarray
    by_type: np.ndarray  # kept tokens grouped by type
    type_starts: np.ndarray  # where each type's group starts in ``by_type``
    clean_length: np.ndarray  # per unit: length of its punctuation-free text
    trailing: np.ndarray  # per unit: spaces and tabs ending it
    ticks: np.ndarray  # per unit: its word ticks, then its length (where its separator starts) when
    # the separator ticks (``TextTilingState.separator_ticks``)
    tick_offsets: np.ndarray


def _same_type_pairs(types: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kept tokens grouped by type, where each group starts, and every same-type pair."""
    by_type = np.argsort(types, kind="stable")
    grouped = types[by_type]
    if types.size == 0:  # only stopwords
        nothing = np.zeros(0, dtype=np.intp)
        return by_type, nothing, nothing, nothing
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    ends = np.r_[starts[1:], types.size]
    later = np.repeat(ends, ends - starts) - np.arange(types.size) - 1  # same-type tokens after each
    first = np.repeat(np.arange(types.size), later)
    second = first + 1 + np.arange(first.size) - np.repeat(_offsets(later)[:-1], later)
    return by_type, starts, by_type[first], by_type[second]


def _pair_count(types: np.ndarray) -> int:
    counts = np.bincount(types) if types.size else np.zeros(0, np.int64)
    return int((counts * (counts - 1) // 2).sum())


def _static(st: TextTilingState, types: np.ndarray, keep: np.ndarray) -> _Static:
    token_unit = np.repeat(np.arange(st.n_units), np.diff(st.token_offsets))
    rank = np.arange(st.token_ids.size) - st.token_offsets[token_unit]
    by_type, starts, first, second = _same_type_pairs(types)
    clean_length = np.fromiter(map(len, st.cleaned), dtype=np.intp, count=st.n_units)
    stripped = np.fromiter((len(c.rstrip(" \t")) for c in st.cleaned), dtype=np.intp, count=st.n_units)
    word_counts = np.diff(st.word_offsets)
    extra = int(st.separator_ticks)
    tick_offsets = _offsets(word_counts + extra)
    ticks = np.empty(int(tick_offsets[-1]), dtype=np.intp)
    if extra:
        ticks[tick_offsets[1:] - 1] = st.lengths
    word_unit = np.repeat(np.arange(st.n_units), word_counts)
    ticks[np.arange(st.word_ends.size) + word_unit * extra] = st.word_ends
    return _Static(token_unit[keep], rank[keep], first, second, by_type, starts,
                   clean_length, clean_length - stripped, ticks, tick_offsets)


@dataclass(frozen=True)
class _Layout:
    """Where the non-empty units of every order sit in its joined text."""

    positions: np.ndarray  # (orders, m): position of each non-empty unit in the order
    units: np.ndarray  # (orders, m): which unit
    unit_start: np.ndarray  # (orders, m): its first character
    text_length: np.ndarray  # (orders,)

    @property
    def separators(self) -> np.ndarray:
        return self.unit_start[:, 1:] - _SEP


def _layout(st: TextTilingState, orders: np.ndarray, m: int) -> _Layout:
    positions = np.nonzero(st.nonempty[orders])[1].reshape(len(orders), m)
    units = np.take_along_axis(orders, positions, axis=1)
    lengths = st.lengths[units]
    unit_start = np.zeros(units.shape, dtype=np.intp)
    np.cumsum(lengths[:, :-1] + _SEP, axis=1, out=unit_start[:, 1:])
    return _Layout(positions, units, unit_start, unit_start[:, -1] + lengths[:, -1])


def batch_boundaries(segmenter, st: TextTilingState, orders: np.ndarray) -> list[list[int]]:
    """Boundaries of every row of ``orders``, identical to ``segmenter.segment_prepared`` row by
    row (``segmenter`` is the :class:`~segmenters.texttiling.TextTiling` with the parameters)."""
    orders = np.asarray(orders, dtype=np.intp)
    m = int(st.nonempty.sum())
    n_ps = -(-st.token_ids.size // segmenter.w)
    n_gaps = max(n_ps - 1, 0)
    if m < 2 or n_gaps == 0 or n_gaps < segmenter.smoothing_width + 1 or len(orders) == 0:
        return [[] for _ in range(len(orders))]  # what segment_prepared returns for every order
    keep = ~st.is_stop[st.token_ids]
    types = st.token_ids[keep]
    pairs = _pair_count(types) if segmenter.similarity_method == "block_comparison" else 0
    largest = max(pairs, st.token_ids.size + st.word_ends.size + m)
    if largest > _BATCH_CELLS:
        return [segmenter.segment_prepared(st, order) for order in orders]
    static = _static(st, types, keep)
    step = max(1, _BATCH_CELLS // largest)
    out: list[list[int]] = []
    for lo in range(0, len(orders), step):
        out.extend(_group(segmenter, st, static, orders[lo : lo + step], m, n_ps))
    return out


def _group(segmenter, st: TextTilingState, static: _Static, orders: np.ndarray, m: int, n_ps: int) -> list[list[int]]:
    layout = _layout(st, orders, m)
    text_ok = _break_after_100(static, layout.units)
    ps = _pseudosentences(st, static, layout.units, segmenter.w)
    if segmenter.similarity_method == "block_comparison":
        scores = _block_comparison(ps, static, n_ps, segmenter.k)
    else:
        scores = _vocabulary_introduction(ps, static, n_ps, segmenter.w)
    window = segmenter.smoothing_width + 1
    smoothed = np.stack([_smooth(row, window) for row in scores])
    flags = _choose(_depth_scores(smoothed), segmenter.cutoff_policy)
    rows, boundaries = _boundaries(flags, layout, _ticks(static, layout, st.separator_ticks), segmenter.w)
    found = np.unique(rows * (st.n_units + 1) + boundaries)
    row_of = found // (st.n_units + 1)
    per_row = np.split(found % (st.n_units + 1), np.cumsum(np.bincount(row_of, minlength=len(orders)))[:-1])
    return [b.tolist() if ok else [] for b, ok in zip(per_row, text_ok.tolist())]


def _break_after_100(static: _Static, units: np.ndarray) -> np.ndarray:
    """Per order: whether nltk's punctuation-free text has a paragraph break at least 100
    characters in (the last break's start; see the module docstring)."""
    m = units.shape[1]
    last_separator = static.clean_length[units[:, :-1]].sum(axis=1) + _SEP * (m - 2)
    before = units[:, -2]
    spaces_only = static.trailing[before] == static.clean_length[before]
    taken = spaces_only & (m > 2)  # the previous break's match ends at the last separator
    start = np.where(taken, last_separator, last_separator - static.trailing[before])
    return start >= MIN_PARAGRAPH


def _pseudosentences(st: TextTilingState, static: _Static, units: np.ndarray, w: int) -> np.ndarray:
    """Pseudosentence of every kept token, per order (columns: kept tokens in the original order)."""
    counts = np.diff(st.token_offsets)[units]
    starts = np.zeros(units.shape, dtype=np.intp)
    np.cumsum(counts[:, :-1], axis=1, out=starts[:, 1:])
    start_of_unit = np.zeros((len(units), st.n_units), dtype=np.intp)
    np.put_along_axis(start_of_unit, units, starts, axis=1)
    return (start_of_unit[:, static.unit] + static.rank) // w


def _per_row_counts(rows: np.ndarray, cells: np.ndarray, width: int, n_rows: int | None = None) -> np.ndarray:
    """``counts[r, c]``: how often ``cells`` holds ``c`` on row ``r``: ``cells`` is 2-D with one
    row per order (``rows``: ``arange``), or 1-D with ``rows`` giving each cell's row."""
    n_rows = len(rows) if n_rows is None else n_rows
    flat = ((rows[:, None] if cells.ndim == 2 else rows) * width + cells).ravel()
    return np.bincount(flat, minlength=n_rows * width).reshape(n_rows, width)


def _block_comparison(ps: np.ndarray, static: _Static, n_ps: int, k: int) -> np.ndarray:
    rows = np.arange(len(ps))
    gap, lo, hi = _block_windows(n_ps, k)
    first, second = ps[:, static.pair_first], ps[:, static.pair_second]
    a, b = np.minimum(first, second), np.maximum(first, second)
    # lo and hi grow with the gap: the gaps whose left block starts at or before pseudosentence
    # p end at last_lo[p], those whose right block reaches p start at first_hi[p]
    last_lo = np.searchsorted(lo, np.arange(n_ps), side="right") - 1
    first_hi = np.searchsorted(hi, np.arange(n_ps), side="left")
    dot = _gap_ranges(rows, np.maximum(a, first_hi[b]), np.minimum(b - 1, last_lo[a]), n_ps - 1)
    left = _gap_ranges(rows, b, last_lo[a], n_ps - 1)  # pairs inside the left block
    right = _gap_ranges(rows, first_hi[b], a - 1, n_ps - 1)  # pairs inside the right block
    tokens = np.zeros((len(ps), n_ps + 1), dtype=np.int64)
    np.cumsum(_per_row_counts(rows, ps, n_ps), axis=1, out=tokens[:, 1:])
    norm_left = tokens[:, gap + 1] - tokens[:, lo] + 2 * left
    norm_right = tokens[:, hi + 1] - tokens[:, gap + 1] + 2 * right
    return _cosine(dot, norm_left, norm_right)


def _gap_ranges(rows: np.ndarray, start: np.ndarray, stop: np.ndarray, n_gaps: int) -> np.ndarray:
    """``counts[r, g]``: how many of row ``r``'s ranges ``start..stop`` (inclusive; empty when
    ``stop < start``) hold gap ``g``; integer counts through a difference array."""
    some = stop >= start
    row = np.broadcast_to(rows[:, None], start.shape)[some]
    width = n_gaps + 1
    delta = _per_row_counts(row, start[some], width, len(rows)) - _per_row_counts(row, stop[some] + 1, width, len(rows))
    return np.cumsum(delta, axis=1)[:, :n_gaps]


def _vocabulary_introduction(ps: np.ndarray, static: _Static, n_ps: int, w: int) -> np.ndarray:
    rows = np.arange(len(ps))
    new_left = np.zeros((len(ps), n_ps), dtype=np.int64)
    new_right = np.zeros((len(ps), n_ps), dtype=np.int64)
    if static.type_starts.size:
        grouped = ps[:, static.by_type]  # pseudosentences grow with the position: min is the first
        new_left += _per_row_counts(rows, np.minimum.reduceat(grouped, static.type_starts, axis=1), n_ps)
        new_right += _per_row_counts(rows, np.maximum.reduceat(grouped, static.type_starts, axis=1), n_ps)
    return _introduction_scores(new_left, new_right, w)


def _choose(depth: np.ndarray, policy: str) -> np.ndarray:
    """nltk's greedy choice for every order: deepest first (ties: larger gap), none within 3 of
    an accepted one; rank by rank over the stack."""
    n_rows, n = depth.shape
    candidate = depth > np.asarray(_cutoff(depth, policy))[:, None]  # 2-D depth: one cutoff a row
    key = np.where(candidate, depth, -np.inf)
    ranked = np.lexsort((np.broadcast_to(np.arange(n), depth.shape), key), axis=-1)[:, ::-1]
    count = candidate.sum(axis=1)
    taken = np.zeros((n_rows, n + 2 * _NEAR), dtype=bool)
    rows = np.arange(n_rows)
    around = np.arange(2 * _NEAR + 1)
    for rank in range(int(count.max(initial=0))):
        gap = ranked[:, rank]
        near = taken[rows[:, None], gap[:, None] + around].any(axis=1)
        accept = (rank < count) & ~near
        taken[rows[accept], gap[accept] + _NEAR] = True
    return taken[:, _NEAR:-_NEAR]


def _ticks(static: _Static, layout: _Layout, separator_ticks: bool) -> np.ndarray:
    """Per order, where nltk's whitespace-word counter ticks in the joined text (sorted): each
    unit's word ticks, then (``separator_ticks``) the first newline of its separator (none after
    the last unit)."""
    flat, offsets = ragged_take(static.ticks, static.tick_offsets, layout.units.ravel())
    shift = np.repeat(layout.unit_start.ravel(), np.diff(offsets))
    ticks = (flat + shift).reshape(len(layout.units), -1)
    return ticks[:, :-1] if separator_ticks else ticks


def _kept_breaks(separators: np.ndarray) -> np.ndarray:
    """nltk's 100-character rule per order: which separators are kept paragraph breaks."""
    kept = np.zeros(separators.shape, dtype=bool)
    last: np.ndarray = np.zeros(len(separators), dtype=np.intp)
    for j in range(separators.shape[1]):
        kept[:, j] = separators[:, j] - last >= MIN_PARAGRAPH
        last = np.where(kept[:, j], separators[:, j], last)
    return kept


def _boundaries(flags: np.ndarray, layout: _Layout, ticks: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
    """(order, unit) of every boundary: each chosen gap fires at nltk's word count and goes to
    the nearest kept break (a break at 0 gives none; gaps firing at the text's end none either)."""
    n_rows, n_gaps = flags.shape
    g = np.arange(n_gaps)
    needed = np.maximum(g * w, w) + 1  # the word count that makes gap g fire
    reachable = needed <= ticks.shape[1]
    fire = np.full(flags.shape, np.iinfo(np.intp).max // 2, dtype=np.intp)
    fire[:, reachable] = ticks[:, needed[reachable] - 1]
    chars = np.maximum.accumulate(fire - g, axis=1) + g + 1  # one gap per character at most
    rows, gaps = np.nonzero(flags & (chars < layout.text_length[:, None]))
    chars = chars[rows, gaps]
    # every order's kept breaks (0 first) laid end to end, each order shifted past the previous
    separators = layout.separators
    shift = (np.arange(n_rows) * (int(layout.text_length.max()) + 1))[:, None]
    kept = np.concatenate([np.ones((n_rows, 1), dtype=bool), _kept_breaks(separators)], axis=1)
    values = (np.concatenate([np.zeros((n_rows, 1), dtype=np.intp), separators], axis=1) + shift)[kept]
    index = np.broadcast_to(np.arange(-1, separators.shape[1]), kept.shape)[kept]
    end = np.cumsum(kept.sum(axis=1))[rows]
    at = np.searchsorted(values, chars + shift[rows, 0], side="left")
    above = np.minimum(at, end - 1)
    nearer_above = values[above] - chars - shift[rows, 0] < chars + shift[rows, 0] - values[at - 1]
    chosen = np.where(at >= end, end - 1, np.where(nearer_above, above, at - 1))
    separator = index[chosen]
    real = separator >= 0
    return rows[real], layout.positions[rows[real], separator[real] + 1]
