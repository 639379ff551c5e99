"""U00 / TextSeg (Utiyama & Isahara 2001): the maximum-probability segmentation.

Following ``shared/specs/segmenters.md`` section 3. Each segment has its own unigram model with a
Laplace estimate ``P(w|S_i) = (f_i(w) + 1) / (n_i + k)`` (``f_i(w)``: count of term ``w`` in the
segment, ``n_i``: terms in the segment, ``k``: distinct terms of the whole document); the prior
``P(S) = N^-m`` for ``m`` segments and ``N`` terms in the document. In negative natural log, a
segment covering units ``g .. h-1`` costs

    c(g, h) = n_gh * ln(n_gh + k) - sum_w f(w) * ln(f(w) + 1) + ln N

and the best segmentation is the minimum-cost path from node 0 to node ``n`` (automatic), or the
minimum-cost path with exactly ``K`` edges (known number of segments ``K``). Ties go to the
smallest start ``g`` (Utiyama updates with a strict ``<``, ``g`` ascending).

Costs are computed fast (the original C code is ``O(n^2 V)``): for a start ``g``, the
within-segment occurrence number of every later token is its running count in the document minus
the count of its term before unit ``g``; the cost increment of an occurrence ``f`` is
``f ln(f+1) - (f-1) ln f``; one cumulative sum sampled at unit ends gives ``sum f ln(f+1)`` for every
end ``h`` at once. ``O(n N)`` time; the automatic mode keeps ``O(N)`` memory (the dynamic program
runs alongside), the known-count mode stores the ``n x (n+1)`` cost matrix.

On Choi's 3-11 set (``benchmarks/choi_pk.py``, word-level Pk as in Choi's evaluation; Choi's
tokenization, the project's stopwords, Porter stemming) this gives 0.109 automatic and 0.104 with
the known count (Utiyama & Isahara report 0.098 and 0.088 with Choi's stoplist).

Documents without any term (``N = 0``) get no boundaries in the automatic mode, and boundaries
``1 .. K-1`` with a known count (all segmentations cost the same; the tie rule decides). The fast restart path reuses the terms of
each unit (computed once per document); the costs depend only on term counts, so the results are
identical to the plain call on the permuted units. The batched restart path
(:meth:`U00.segment_batch`) computes the cost rows of many orders of a short document together.

**Long documents.** ``U00(max_segment_length=L)`` computes only the costs of segments of at most
``L`` units (near-linear time; the known-count mode keeps an ``n x L`` band of costs); the exact
known-count mode refuses documents whose ``n x (n+1)`` cost matrix would exceed 2 GiB.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from stability.checks import check_int
from stability.exceptions import InvalidParameterError
from stability.segmenter import Segmenter

from .preprocessing import EncodedUnits, Preprocessor, ragged_take, stopwords_param

__all__ = ["U00", "segment_costs", "u00_boundaries", "u00_batch"]

_BATCH_CELLS = 1 << 20  # tokens (automatic) or cost cells (known count) of one batch of orders
_BATCH_MAX_UNITS = 400  # longer documents: the batch would scan every token per start, not half
_COLUMN_BLOCK = 256  # columns of the cost matrix per step of the known-count dynamic program
_ROW_BLOCK = 64  # starts whose cost rows are computed together (their tokens' search stays in cache)
_ROW_BLOCK_CELLS = 1 << 20  # and at most this many token cells


def _running_counts(ids: np.ndarray) -> np.ndarray:
    """For every token, how many tokens of its term occur up to and including it."""
    if ids.size == 0:
        return np.zeros(0, dtype=np.intp)
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    group_start = np.r_[0, np.flatnonzero(np.diff(sorted_ids)) + 1]
    starts = np.repeat(group_start, np.diff(np.r_[group_start, ids.size]))
    run = np.empty(ids.size, dtype=np.intp)
    run[order] = np.arange(ids.size) - starts + 1
    return run


def _increments(run: np.ndarray) -> np.ndarray:
    """``increment[f] = f ln(f+1) - (f-1) ln f`` for ``f = 0 .. max(run)`` (``increment[0] = 0``)."""
    max_f = int(run.max())
    f = np.arange(max_f + 1, dtype=np.float64)
    increment = np.zeros(max_f + 1)
    increment[1:] = f[1:] * np.log(f[1:] + 1) - (f[1:] - 1) * np.log(f[1:])
    return increment


def _cost_rows(encoded: EncodedUnits, max_length: int | None = None):
    """Yield ``(g, costs)`` where ``costs[j] = c(g, g+1+j)`` for every end ``h = g+1 .. n``
    (only ``h <= g + max_length`` when a maximum segment length is given).

    Rows are computed a block of starts at a time: a token's occurrence number from start ``g``
    is the number of tokens of its term in the block up to it less those before unit ``g`` (a table
    of term counts per start of the block); each row's running sum of increments is its own
    sequential cumulative sum (zeros past its last token), and every other operation is
    elementwise, so the values are those of one start at a time, bit for bit.
    """
    ids, offsets = encoded.ids, encoded.offsets
    n = encoded.n_units
    k = encoded.n_types
    log_total = np.log(ids.size)
    increment = _increments(_running_counts(ids))
    last_of = np.minimum(n, np.arange(n) + (n if max_length is None else max_length))
    window = offsets[last_of] - offsets[:n]  # tokens from unit g to the last unit in reach
    g0 = 0
    while g0 < n:
        g1 = min(n, g0 + _ROW_BLOCK, g0 + max(1, _ROW_BLOCK_CELLS // max(1, int(window[g0]))))
        lo, hi = int(offsets[g0]), int(offsets[last_of[g1 - 1]])
        width = max(1, int(window[g0:g1].max()))
        start = (offsets[g0:g1] - lo)[:, None]
        token = start + np.arange(width)[None, :]  # a row's tokens, then others up to the width
        # the block's tokens by term, then position; each term numbered within the block
        order = np.argsort(ids[lo:hi], kind="stable")
        sorted_ids = ids[lo:hi][order]
        first = np.flatnonzero(np.r_[True, sorted_ids[1:] != sorted_ids[:-1]]) if hi > lo else order
        size = np.diff(np.r_[first, hi - lo])
        # past the block's tokens, padding of a term of its own (number first.size) that no
        # start has seen and each token counts as its 0th: occurrence 0, increment 0
        padded = max(hi - lo, int(token[-1, -1]) + 1)
        term = np.full(padded, first.size, dtype=np.intp)
        term[order] = np.repeat(np.arange(first.size), size)
        upto = np.zeros(padded, dtype=np.intp)  # tokens of its term in the block up to the token
        upto[order] = np.arange(hi - lo) - np.repeat(first, size) + 1
        # tokens of each term in the block before each start of the block (and 0 of the padding)
        n_starts, n_terms = g1 - g0, first.size + 1
        unit = np.repeat(np.arange(n_starts), encoded.lengths[g0:g1])
        per_unit = np.bincount(unit * n_terms + term[: unit.size], minlength=n_starts * n_terms)
        before = np.zeros((n_starts, n_terms), dtype=np.intp)
        np.cumsum(per_unit.reshape(n_starts, n_terms)[:-1], axis=0, out=before[1:])
        # tokens of the term from the row's start up to and including the token; past the row's
        # last token the values are never read (the ends stop there)
        term_cell = term[token]
        term_cell += (np.arange(n_starts) * n_terms)[:, None]  # the row's cell of the table
        occurrence = upto[token] - before.ravel()[term_cell]
        cumulative = np.zeros((n_starts, width + 1))
        np.cumsum(increment[occurrence], axis=1, out=cumulative[:, 1:])
        length = last_of[g0:g1] - np.arange(g0, g1)  # ends g+1 .. last
        end = np.minimum(np.arange(g0, g1)[:, None] + 1 + np.arange(int(length.max()))[None, :], n)
        ends = offsets[end] - offsets[g0:g1, None]
        sizes = ends.astype(np.float64)
        rows = sizes * np.log(sizes + k) - np.take_along_axis(cumulative, ends, axis=1) + log_total
        for g, row, size in zip(range(g0, g1), rows, length.tolist()):
            yield g, row[:size]
        g0 = g1


def _batch_cost_rows(encoded: EncodedUnits, orders: np.ndarray):
    """:func:`_cost_rows` for every row of ``orders`` at once: yield ``(g, costs)`` with
    ``costs[r, j] = c(g, g+1+j)`` of the units in the order ``orders[r]``.

    The same elementwise operations on the same values: tokens before unit ``g`` get a zero
    increment, and ``0.0 + x == x``, so each running sum is the per-order one bit for bit.
    """
    n_orders, n = orders.shape
    k = encoded.n_types
    total = encoded.ids.size
    log_total = np.log(total)
    flat, _ = ragged_take(encoded.ids, encoded.offsets, orders.ravel())
    ids = flat.reshape(n_orders, total)
    offsets = np.zeros((n_orders, n + 1), dtype=np.intp)
    np.cumsum(encoded.lengths[orders], axis=1, out=offsets[:, 1:])
    row_key = np.arange(n_orders, dtype=np.intp)[:, None] * k
    keyed = ids + row_key  # term ids made distinct per order
    run = _running_counts(keyed.ravel()).reshape(n_orders, total)
    increment = _increments(run)  # the largest term count: the same in every order
    unit_of = np.repeat(np.tile(np.arange(n), n_orders), encoded.lengths[orders].ravel()).reshape(n_orders, total)
    before = np.zeros(n_orders * k, dtype=np.intp)
    cumulative = np.zeros((n_orders, total + 1))
    rows = np.arange(n_orders)[:, None]
    for g in range(n):
        if g > 0:
            np.add.at(before, keyed[unit_of == g - 1], 1)
        occurrence = np.where(unit_of >= g, run - before[keyed], 0)
        np.cumsum(increment[occurrence], axis=1, out=cumulative[:, 1:])
        ends = offsets[:, g + 1 :]
        sizes = (ends - offsets[:, g : g + 1]).astype(np.float64)
        yield g, sizes * np.log(sizes + k) - cumulative[rows, ends] + log_total


def segment_costs(encoded: EncodedUnits) -> np.ndarray:
    """The full cost matrix ``C[g, h]`` (``inf`` where ``h <= g``), shape ``(n, n+1)``."""
    n = encoded.n_units
    costs = np.full((n, n + 1), np.inf)
    if encoded.ids.size == 0:
        return costs
    for g, row in _cost_rows(encoded):
        costs[g, g + 1 :] = row
    return costs


def _backtrack(previous: np.ndarray, n: int) -> list[int]:
    boundaries = []
    node = n
    while node > 0:
        node = int(previous[node])
        if node > 0:
            boundaries.append(node)
    return sorted(boundaries)


def u00_boundaries(
    encoded: EncodedUnits, n_segments: int | None = None, max_length: int | None = None
) -> list[int]:
    """Minimum-cost segmentation of encoded units (automatic or exactly ``n_segments``), with
    segments of at most ``max_length`` units when given (see :class:`U00`)."""
    n = encoded.n_units
    if n < 2:
        return []
    if encoded.ids.size == 0:
        if n_segments is None:
            return []
        # No term at all: every segmentation costs the same, and the tie rule (smallest start
        # at every layer) puts the K-1 boundaries at 1 .. K-1.
        return list(range(1, min(max(int(n_segments), 1), n)))
    if n_segments is None:
        return _backtrack(_automatic_pointers(_cost_rows(encoded, max_length), (), n), n)
    segments = min(max(int(n_segments), 1), n)
    if segments == 1:
        return []
    if max_length is not None:
        return _known_count_band(encoded, segments, max_length)
    _check_exact_size(n)
    return _known_count_path(segment_costs(encoded), segments, n)


def _known_count_band(encoded: EncodedUnits, segments: int, max_length: int) -> list[int]:
    """:func:`_known_count_path` over segments of at most ``max_length`` units: the costs are kept
    as an ``n x max_length`` band; the same sums and the same tie rule (smallest start)."""
    n = encoded.n_units
    width = min(max_length, n)
    if segments * width < n:
        raise InvalidParameterError(
            f"U00 cannot cover {n} units with n_segments={segments} segments of at most "
            f"max_segment_length={max_length} units; raise max_segment_length or n_segments"
        )
    band = np.full((n, width), np.inf)  # band[g, t] = c(g, g+1+t)
    for g, row in _cost_rows(encoded, width):
        band[g, : row.size] = row
    node = np.arange(n + 1)[:, None]
    start = node - width + np.arange(width)[None, :]  # candidate starts g, increasing
    usable = (start >= 0) & (start < node)
    start = np.clip(start, 0, n - 1)
    edge = np.where(usable, band[start, np.clip(node - 1 - start, 0, width - 1)], np.inf)
    best = np.full(n + 1, np.inf)
    best[1 : width + 1] = band[0, :width]  # one segment: 0 -> h
    pointers = []
    for used in range(2, segments + 1):
        # only nodes reachable with `used` segments that can still reach n with the rest; the
        # candidates of such a node are such nodes of the previous layer, so nothing else matters
        lo, hi = max(0, n - (segments - used) * width), min(n, used * width)
        rows = np.arange(hi - lo + 1)
        total = best[start[lo : hi + 1]] + edge[lo : hi + 1]
        column = np.argmin(total, axis=1)  # first minimum: the smallest start on ties
        arg = np.zeros(n + 1, dtype=np.intp)
        arg[lo : hi + 1] = start[lo + rows, column]
        best = np.full(n + 1, np.inf)
        best[lo : hi + 1] = total[rows, column]
        pointers.append(arg)
    return _follow(pointers, n)


#: Memory (bytes) the exact known-count mode's cost matrix may take before it refuses.
EXACT_MEMORY_LIMIT = 2 * 1024**3


def _check_exact_size(n_units: int) -> None:
    """Refuse the exact known-count mode where its ``n x (n+1)`` float64 cost matrix exceeds
    :data:`EXACT_MEMORY_LIMIT`."""
    need = 8 * n_units * (n_units + 1)
    if need > EXACT_MEMORY_LIMIT:
        raise InvalidParameterError(
            f"U00's exact known-count mode on {n_units} units would need about {need / 2**30:.1f} GiB "
            f"for its cost matrix (limit {EXACT_MEMORY_LIMIT / 2**30:.1f} GiB, about 16,000 units); use "
            f"the long-document mode, e.g. U00(max_segment_length=200) (-s u00,max_segment_length=200 on the "
            f"command line, max_segment_length = 200 in the segmenter's table of a config), for near-linear cost"
        )


def u00_batch(encoded: EncodedUnits, orders: np.ndarray, n_segments: int | None = None) -> list[list[int]]:
    """:func:`u00_boundaries` of the units in every order of ``orders`` (rows), computed together."""
    orders = np.asarray(orders, dtype=np.intp)
    n_orders, n = orders.shape
    if n < 2 or encoded.ids.size == 0 or (n_segments is not None and min(int(n_segments), n) <= 1):
        return [u00_boundaries(encoded.reorder(order), n_segments) for order in orders]
    if n_segments is None:
        pointers = _automatic_pointers(_batch_cost_rows(encoded, orders), (n_orders,), n)
        return [_backtrack(previous, n) for previous in pointers]
    costs = np.full((n_orders, n, n + 1), np.inf)
    for g, rows in _batch_cost_rows(encoded, orders):
        costs[:, g, g + 1 :] = rows
    return [_known_count_path(matrix, min(int(n_segments), n), n) for matrix in costs]


def _automatic_pointers(cost_rows, lead: tuple[int, ...], n: int) -> np.ndarray:
    """Predecessor of every node on the minimum-cost path (one path per leading index)."""
    best = np.full(lead + (n + 1,), np.inf)
    best[..., 0] = 0.0
    previous = np.zeros(lead + (n + 1,), dtype=np.intp)
    for g, row in cost_rows:
        ends = slice(g + 1, g + 1 + row.shape[-1])
        candidate = best[..., g : g + 1] + row
        tail = best[..., ends]
        better = candidate < tail
        tail[better] = candidate[better]
        previous[..., ends][better] = g
    return previous


def _known_count_path(costs: np.ndarray, segments: int, n: int) -> list[int]:
    """Boundaries of the minimum-cost path with exactly ``segments`` edges (``segments >= 2``)."""
    best = costs[0].copy()  # one segment: 0 -> h
    pointers = []
    for _ in range(segments - 1):
        arg = np.zeros(n + 1, dtype=np.intp)
        new_best = np.empty(n + 1)
        # total[g, h] = best path to g, then edge g -> h; only g < h can be finite, so columns
        # are taken in blocks with the rows above them (same values, half the work, less memory)
        for h0 in range(0, n + 1, _COLUMN_BLOCK):
            h1 = min(h0 + _COLUMN_BLOCK, n + 1)
            rows = max(1, min(h1 - 1, n))
            total = best[:rows, None] + costs[:rows, h0:h1]
            block_arg = np.argmin(total, axis=0)  # first minimum: the smallest g on ties
            arg[h0:h1] = block_arg
            new_best[h0:h1] = total[block_arg, np.arange(h1 - h0)]
        best = new_best
        pointers.append(arg)
    return _follow(pointers, n)


def _follow(pointers: list[np.ndarray], n: int) -> list[int]:
    """Boundaries of the path ending at node ``n``, one predecessor array per layer."""
    boundaries = []
    node = n
    for arg in reversed(pointers):
        node = int(arg[node])
        boundaries.append(node)
    return sorted(boundaries)


class U00(Segmenter):
    """U00 / TextSeg (Utiyama & Isahara 2001).

    Parameters
    ----------
    n_segments : int, optional
        Known number of segments (clamped to ``1 .. n``); by default the number of segments is
        part of the optimisation (prior ``N^-m``).
    tokenizer, stopwords, stem :
        Preprocessing (:class:`segmenters.preprocessing.Preprocessor`); ``stopwords=None`` is the
        project's English list. Utiyama's experiments used Choi's stoplist and Porter stemming
        (``stem=True``). For another language give its stopwords and ``stem="german"`` (any
        Snowball language) or ``stem=False``, and ``tokenizer="unicode"`` for Chinese, Japanese or
        scripts with combining marks.
    max_segment_length : int, optional
        **Long-document mode**: segments of at most this many units. Only the costs ``c(g, h)``
        with ``h - g <= max_segment_length`` are computed (the same values as the exact mode), so
        time is ``O(n L t)`` for ``L = max_segment_length`` and ``t`` terms per unit instead of
        ``O(n N)``, and the known-count mode keeps an ``n x L`` band of costs instead of the
        ``n x (n+1)`` matrix. With a known count, ``n_segments * max_segment_length`` must cover
        the document. ``None`` (default) is the exact algorithm; its known-count mode refuses
        documents whose cost matrix would exceed 2 GiB (about 16,000 units) with an
        :class:`~stability.exceptions.InvalidParameterError` naming this option.
        Choose it well above the longest expected segment. Effect on Choi's 3-11 set (all 400
        documents, word-level Pk as in ``benchmarks/choi_pk.py``; segments of 3-11 sentences):
        automatic 0.109 exact, 0.103 / 0.108 / 0.109 with ``max_segment_length`` 11 / 20 / 30;
        known count 0.104 exact, 0.098 / 0.102 / 0.104. On 20,000 synthetic units
        ``max_segment_length=200`` takes about 3-5 s on the loaded 2-core machine (exact automatic
        mode: 23 s), most of it tokenizing and stemming.

    Examples
    --------
    >>> units = ["the cat sat on the mat", "a cat and a mat", "cats like mats",
    ...          "stock markets fell", "markets and stocks", "the stock market crashed"]
    >>> U00(n_segments=2)(units)
    [3]
    >>> U00(n_segments=2, max_segment_length=4)(units)
    [3]
    """

    name = "u00"
    #: The encoded units depend only on the preprocessing: the automatic and known-count modes
    #: (and any ``max_segment_length``) share them.
    prepare_params = ("tokenizer", "stopwords", "stem")

    def __init__(
        self,
        n_segments: int | None = None,
        tokenizer: str = "words",
        stopwords: Iterable[str] | str | None = None,
        stem: bool | str = True,
        max_segment_length: int | None = None,
    ) -> None:
        check_int(n_segments, "n_segments", low=1, none=True)
        check_int(max_segment_length, "max_segment_length", low=1, none=True)
        self.n_segments = n_segments
        self.max_segment_length = max_segment_length
        self.tokenizer = tokenizer
        self.stopwords = stopwords_param(stopwords)
        self.stem = stem
        self._preprocessor = Preprocessor(tokenizer=tokenizer, stopwords=self.stopwords, stem=stem)

    def unit_terms(self, units: Sequence[str]) -> list[list[str]]:
        """The terms U00 counts in each unit (tokenized, without stopwords, stemmed)."""
        return [self._preprocessor.terms(unit) for unit in units]

    def stopword_use(self, units: Sequence[str]) -> tuple[str, int, int] | None:
        """Language of its stopword list, tokens of ``units`` in it, tokens (see
        :meth:`segmenters.preprocessing.Preprocessor.stopword_use`)."""
        return self._preprocessor.stopword_use(units)

    def prepare(self, units: Sequence[str]) -> EncodedUnits:
        """Term ids of every unit (computed once per document)."""
        return self._preprocessor.encode(units)

    def segment_prepared(self, prepared: EncodedUnits, order: np.ndarray) -> list[int]:
        """Boundaries of the units reordered by ``order`` (same as the plain call)."""
        encoded = prepared.reorder(np.asarray(order, dtype=np.intp))
        return u00_boundaries(encoded, self.n_segments, self.max_segment_length)

    def segment_batch(self, prepared: EncodedUnits, orders: np.ndarray) -> list[list[int]]:
        """Boundaries for every row of ``orders`` (the batched restart path): the cost rows of a
        group of orders are computed together, with results identical to
        :meth:`segment_prepared`. Long documents (every order's cost rows would span many
        tokens) and the long-document mode run order by order."""
        orders = np.asarray(orders, dtype=np.intp)
        n = orders.shape[1]
        if n > _BATCH_MAX_UNITS or self.max_segment_length is not None:
            return [self.segment_prepared(prepared, order) for order in orders]
        cells = max(prepared.ids.size, 1) if self.n_segments is None else n * (n + 1)
        step = max(1, _BATCH_CELLS // max(cells, 1))
        out: list[list[int]] = []
        for lo in range(0, orders.shape[0], step):
            out.extend(u00_batch(prepared, orders[lo : lo + step], self.n_segments))
        return out

    def segment(self, units: Sequence[str]) -> list[int]:
        return u00_boundaries(self.prepare(units), self.n_segments, self.max_segment_length)
