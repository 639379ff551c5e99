"""C99 (Choi 2000): divisive clustering of a rank-transformed similarity matrix.

The algorithm follows ``shared/specs/segmenters.md`` section 2:

1. each unit becomes a vector of term counts (see :mod:`segmenters.preprocessing`);
2. cosine similarity between every pair of units (0 when a unit has no term; the diagonal is 1,
   or 0 for a unit without terms);
3. rank transform with an ``s x s`` mask (``s = mask_size``, Choi: 11): the share of the other
   cells of the mask, clipped at the matrix edges, whose similarity is *strictly* lower;
4. divisive clustering: repeatedly split one region at its best *local* split (the point that
   maximises the inside density of the two halves); among regions, split the one whose split gives
   the highest global inside density;
5. automatic stop (Choi's gradient rule: smooth the density gains with ``[1,2,4,8,4,2,1]``,
   keep the leading run of gains above ``mean + std_coeff * std``) or a known number of segments.

**Tie rule** (ties are frequent: equal ranks give equal densities). Two candidate values within a
relative tolerance of ``1e-9`` of the best are equal; among equal local splits the *largest* split
point wins, among equal regions the *last* region in the text wins. This is what Choi's Java does
under exact ties (it scans from high to low with a strict ``>``). A local split whose density is
not positive stays at the region start; when no region's split beats a tiny positive global
density (every rank is 0, e.g. identical units), the first splittable region is split. Documents
of one or two units get no boundaries in the automatic mode.

On Choi's 3-11 set (``benchmarks/choi_pk.py``, word-level Pk as in Choi's evaluation) this gives
0.129 automatic and 0.126 with the known count (published: 0.13 and 0.12).

Numerics: term counts are integers, so the dot products of the similarity matrix are computed
exactly (float64 sums of integers), which makes every similarity value independent of the order of
the units. The fast restart path (:meth:`C99.prepare` / :meth:`C99.segment_prepared`) therefore
only re-indexes the similarity matrix computed once per document, with results identical to the
plain call on the permuted units. Rank counts use ``s*s - 1`` vectorized shifted comparisons, inside
sums use 2-D prefix sums built in place; memory is ``O(n^2)``, 17 bytes a cell at the peak: the
similarity matrix (float64), the reordered copy the counts compare, set in a frame of NaN so that
each neighbour is one fixed offset in contiguous memory (float64, written straight from the
similarity matrix, no reordered copy before it), and the counts (a byte a cell); then the
similarity matrix, the counts and the prefix sums (float64). Every other temporary is a band of
rows of a fixed size (:func:`exact_memory`). The batched
restart path (:meth:`C99.segment_batch`) stacks the permuted matrices of many restarts and runs
the rank transform, the prefix sums and the divisive clustering on the stack at once. The
clustering first finds every region's best local split (the regions form a tree known in advance:
a region's best split depends on the region alone), a level of the tree at a time, then takes its
steps, each one pass over the open regions of every table of the stack.

**Long documents.** The exact mode refuses documents whose estimated peak memory exceeds 2 GiB
(about 10,900 units); ``C99(band=W)`` keeps only a diagonal band of the similarity and rank
matrices (exact values there) and reads region sums from ``O(n W)`` tables: near-linear time
and memory, its effect on Pk documented in :class:`C99`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from stability.checks import check_int, check_real
from stability.exceptions import InvalidParameterError
from stability.segmenter import Segmenter

from .preprocessing import EncodedUnits, Preprocessor, stopwords_param

__all__ = [
    "C99",
    "cosine_similarity_matrix",
    "rank_matrix",
    "c99_split_sequence",
    "choi_stop",
    "banded_similarity",
    "banded_rank",
    "exact_memory",
    "EXACT_MEMORY_LIMIT",
]

#: Relative tolerance under which two densities are considered equal (tie rule).
TIE_TOLERANCE = 1e-9
#: Choi's smoothing kernel for the density gains.
GAIN_KERNEL = np.array([1.0, 2.0, 4.0, 8.0, 4.0, 2.0, 1.0])
_MAX_DENSE_CELLS = 1 << 23  # elements of one dense count block used for the Gram matrix
_BAND_CELLS = 1 << 20  # cells of a band of rows of an n x n temporary (cosine, rank counts, ranks)
_RARE_DOC_FREQ = 48  # terms in at most this many units: pairs added one by one
_PAIR_BATCH = 1 << 20  # unit pairs generated at once for those terms
_DENSITY_FLOOR = 1e-12  # "a tiny positive number" a new global density must beat
_BATCH_CELLS = 1 << 21  # similarity cells stacked at once by the batched restart path (~40 MB)
_SMALL = 48  # open region counts up to this size are compared in plain Python (same arithmetic, faster)
_STACKED_STEPS = 512  # a stack of tables of documents up to this size steps all its tables at once


def cosine_similarity_matrix(encoded: EncodedUnits) -> np.ndarray:
    """Cosine similarity of the units' term-count vectors (``n x n`` float64).

    Dot products are sums of products of integer counts, computed in float64 (exact below 2**53),
    so each value depends only on the two units involved, never on their positions.
    """
    n = encoded.n_units
    if n == 0 or encoded.ids.size == 0:
        return np.zeros((n, n), dtype=np.float64)
    unit_of = np.repeat(np.arange(n, dtype=np.intp), encoded.lengths)
    pair = unit_of.astype(np.int64) * encoded.n_types + encoded.ids
    keys, counts = np.unique(pair, return_counts=True)
    key_unit = keys // encoded.n_types
    key_type = keys % encoded.n_types
    counts_f = counts.astype(np.float64)
    sq_norm = np.bincount(key_unit, weights=counts_f * counts_f, minlength=n)
    # Only terms present in at least two units contribute off the diagonal. Terms in few units
    # add their pairs directly; frequent terms go through a dense matrix product.
    doc_freq = np.bincount(key_type, minlength=encoded.n_types)
    gram = None
    shared = np.flatnonzero(doc_freq > _RARE_DOC_FREQ)
    if shared.size:
        remap = np.full(encoded.n_types, -1, dtype=np.intp)
        remap[shared] = np.arange(shared.size)
        sel = remap[key_type] >= 0
        s_unit, s_col, s_cnt = key_unit[sel], remap[key_type[sel]], counts_f[sel]
        width = max(1, _MAX_DENSE_CELLS // max(n, 1))
        rows = width
        for lo in range(0, shared.size, width):
            hi = min(lo + width, shared.size)
            in_block = (s_col >= lo) & (s_col < hi)
            block: np.ndarray = np.zeros((n, hi - lo), dtype=np.float64)
            block[s_unit[in_block], s_col[in_block] - lo] = s_cnt[in_block]
            if gram is None:
                gram = block @ block.T
            else:  # accumulate a band of rows at a time (no second n x n temporary)
                for r0 in range(0, n, rows):
                    gram[r0 : r0 + rows] += block[r0 : r0 + rows] @ block.T
    if gram is None:
        gram = np.zeros((n, n), dtype=np.float64)
    rare = (doc_freq >= 2) & (doc_freq <= _RARE_DOC_FREQ)
    if rare.any():
        sel = rare[key_type]
        r_type, r_unit, r_cnt = key_type[sel], key_unit[sel], counts_f[sel]
        order = np.argsort(r_type, kind="stable")
        r_type, r_unit, r_cnt = r_type[order], r_unit[order], r_cnt[order]
        group_start = np.r_[0, np.flatnonzero(np.diff(r_type)) + 1]
        group_size = np.diff(np.r_[group_start, r_type.size])
        pairs = group_size * group_size
        # every ordered pair (p, q) of entries of the same term, a batch of terms at a time
        cumulative = np.cumsum(pairs)
        g0 = 0
        while g0 < group_start.size:
            done = int(cumulative[g0 - 1]) if g0 else 0
            g1 = max(g0 + 1, int(np.searchsorted(cumulative, done + _PAIR_BATCH, side="right")))
            sizes, starts, counts_ = group_size[g0:g1], group_start[g0:g1], pairs[g0:g1]
            first = np.repeat(starts, counts_)
            size = np.repeat(sizes, counts_)
            local = np.arange(first.size) - np.repeat(np.cumsum(counts_) - counts_, counts_)
            p = first + local // size
            q = first + local % size
            keep = p != q
            p, q = p[keep], q[keep]
            np.add.at(gram, (r_unit[p], r_unit[q]), r_cnt[p] * r_cnt[q])
            g0 = g1
    # cosine, in place, a block of rows at a time (no n x n denominator in memory)
    rows = max(1, _BAND_CELLS // max(n, 1))
    for r0 in range(0, n, rows):
        r1 = min(r0 + rows, n)
        denominator = np.sqrt(np.outer(sq_norm[r0:r1], sq_norm))
        block = gram[r0:r1]
        np.divide(block, denominator, out=block, where=denominator > 0)
        block[denominator <= 0] = 0.0
    np.fill_diagonal(gram, np.where(sq_norm > 0, 1.0, 0.0))
    return gram


def _framed(similarity: np.ndarray, r: int, order: np.ndarray | None = None) -> np.ndarray:
    """``similarity`` (one ``n x n`` matrix or a stack ``(..., n, n)``) set in a frame of NaN ``r``
    cells wide; with ``order`` (shape ``(..., n)``), the one matrix ``similarity`` reordered by each
    row of ``order`` instead, copied straight into the frame a band of rows at a time (no reordered
    ``n x n`` copy beside it)."""
    n = similarity.shape[-1]
    lead = similarity.shape[:-2] if order is None else order.shape[:-1]
    side = n + 2 * r
    framed = np.full(lead + (side, side), np.nan)
    if order is None:
        framed[..., r : r + n, r : r + n] = similarity
        return framed
    rows = max(1, _BAND_CELLS // max(n, 1))
    for index in np.ndindex(lead):
        o = order[index]
        for r0 in range(0, n, rows):
            r1 = min(r0 + rows, n)
            framed[index + (slice(r + r0, r + r1), slice(r, r + n))] = similarity[o[r0:r1, None], o[None, :]]
    return framed


def _count_lower(framed: np.ndarray, n: int, mask_size: int) -> np.ndarray:
    """Number of cells of each cell's clipped mask whose value is strictly lower (uint8, or
    uint16 for a mask of more than 256 cells), for the matrices of :func:`_framed` (frame
    ``mask_size // 2`` wide).

    NaN is never lower, so the frame counts as the clipped part of a mask, and every neighbour is
    a fixed offset in the flattened stack: each comparison is one pass over contiguous memory, a
    chunk of :data:`_BAND_CELLS` cells at a time (the comparison's booleans take no ``n x n``).
    """
    r = mask_size // 2
    side = n + 2 * r
    lead = framed.shape[:-2]
    flat = framed.reshape(-1)
    count: np.ndarray = np.zeros(flat.size, dtype=np.uint8 if mask_size * mask_size - 1 <= 255 else np.uint16)
    # cells whose whole mask lies inside the flattened stack: from the first cell of the first
    # matrix to the last of the last (a frame row and column on either side, at least r wide)
    lo, hi = r * side + r, flat.size - r * side - r
    lower = np.empty(min(_BAND_CELLS, max(hi - lo, 0)), dtype=bool)
    shifts = [dy * side + dx for dy in range(-r, r + 1) for dx in range(-r, r + 1) if dy or dx]
    for c0 in range(lo, hi, _BAND_CELLS):
        c1 = min(c0 + _BAND_CELLS, hi)
        centre, out, counted = flat[c0:c1], lower[: c1 - c0], count[c0:c1]
        for shift in shifts:
            np.less(flat[c0 + shift : c1 + shift], centre, out=out)
            counted += out
    return count.reshape(lead + (side, side))[..., r : r + n, r : r + n]


def _rank_counts(sim: np.ndarray, mask_size: int) -> np.ndarray:
    """:func:`_count_lower` of ``sim``, one ``n x n`` matrix or a stack ``(..., n, n)`` of them."""
    return _count_lower(_framed(sim, mask_size // 2), sim.shape[-1], mask_size)


def _rank_denominator(n: int, mask_size: int) -> np.ndarray:
    r = mask_size // 2
    idx = np.arange(n)
    span = np.minimum(n - 1, idx + r) - np.maximum(0, idx - r) + 1
    return np.outer(span, span).astype(np.float64) - 1.0


def rank_matrix(sim: np.ndarray, mask_size: int = 11) -> np.ndarray:
    """Choi's rank transform: share of the other mask cells with a strictly lower value.

    The mask is ``mask_size x mask_size`` centred on the cell, clipped at the matrix edges; the
    denominator is the number of cells of the clipped mask minus one (the centre), and the rank is
    0 where that is 0.
    """
    n = sim.shape[0]
    rank = np.zeros((n, n), dtype=np.float64)
    if n == 0:
        return rank
    denominator = _rank_denominator(n, mask_size)
    np.divide(_rank_counts(sim, mask_size), denominator, out=rank, where=denominator > 0)
    return rank


def _prefix_sums(rank: np.ndarray) -> np.ndarray:
    """``P[i, j] = rank[:i, :j].sum()`` with a leading zero row and column."""
    n = rank.shape[0]
    prefix = np.zeros((n + 1, n + 1), dtype=np.float64)
    prefix[1:, 1:] = rank
    _accumulate_2d(prefix)
    return prefix


def _accumulate_2d(prefix: np.ndarray) -> None:
    np.cumsum(prefix, axis=-2, out=prefix)
    np.cumsum(prefix, axis=-1, out=prefix)


def _rank_prefix_sums(sim: np.ndarray, mask_size: int, order: np.ndarray | None = None) -> np.ndarray:
    """Prefix sums of the rank matrix, built in place (no separate rank matrix in memory).

    ``sim`` may be a stack ``(..., n, n)``; so is the result, ``(..., n+1, n+1)``. With ``order``
    (shape ``(..., n)``), the prefix sums of ``sim`` reordered by each row of ``order`` (see
    :func:`_framed`). At the peak, beside ``sim``: the framed copy (8 bytes a cell) and the counts
    (1), then the counts and the prefix sums (8).
    """
    n = sim.shape[-1]
    r = mask_size // 2
    idx = np.arange(n)
    span = (np.minimum(n - 1, idx + r) - np.maximum(0, idx - r) + 1).astype(np.float64)
    framed = _framed(sim, r, order)
    counts = _count_lower(framed, n, mask_size)
    del framed  # before the prefix sums take its place
    prefix = np.zeros(counts.shape[:-2] + (n + 1, n + 1), dtype=np.float64)
    rows = max(1, _BAND_CELLS // max(n, 1))
    for r0 in range(0, n, rows):  # rank = counts / (cells - 1), a band of rows at a time
        r1 = min(r0 + rows, n)
        denominator = np.outer(span[r0:r1], span) - 1.0
        np.divide(
            counts[..., r0:r1, :], denominator, out=prefix[..., 1 + r0 : 1 + r1, 1:], where=denominator > 0
        )
    del counts
    _accumulate_2d(prefix)
    return prefix


# ----------------------------------------------------------------------------------------------
# long-document mode: the similarity and rank matrices restricted to a diagonal band
# ----------------------------------------------------------------------------------------------
def banded_similarity(encoded: EncodedUnits, reach: int) -> np.ndarray:
    """The cosine similarities ``sim[i, i+d]`` for ``|d| <= reach``, stored at ``[i, reach + d]``
    (shape ``n x (2 reach + 1)``; NaN where ``i + d`` is outside the document).

    The values are those of :func:`cosine_similarity_matrix` bit for bit (exact integer dot
    products, the same cosine formula); time and memory are ``O(n reach)`` plus the pairs of
    occurrences of a term at most ``reach`` units apart.
    """
    n = encoded.n_units
    band = np.full((n, 2 * reach + 1), np.nan)
    if n == 0:
        return band
    unit_of = np.repeat(np.arange(n, dtype=np.intp), encoded.lengths)
    keys, counts = np.unique(unit_of.astype(np.int64) * max(encoded.n_types, 1) + encoded.ids, return_counts=True)
    key_unit = (keys // max(encoded.n_types, 1)).astype(np.intp)
    key_type = keys % max(encoded.n_types, 1)
    weight = counts.astype(np.float64)
    sq_norm = np.bincount(key_unit, weights=weight * weight, minlength=n)
    by_term = np.lexsort((key_unit, key_type))  # entries of a term together, in text order
    unit_s, type_s, weight_s = key_unit[by_term], key_type[by_term], weight[by_term]
    gram: np.ndarray = np.zeros(n * (reach + 1))  # gram[i, d] = dot(unit i, unit i + d), d = 1 .. reach
    for step in range(1, min(reach, n - 1) + 1):
        # entry p paired with the entry `step` places later for the same term (distinct units)
        same = (type_s[step:] == type_s[:-step]) & (unit_s[step:] - unit_s[:-step] <= reach)
        if not same.any():
            break  # later entries of a term are further still
        first, second = np.flatnonzero(same), np.flatnonzero(same) + step
        cell = unit_s[first] * (reach + 1) + (unit_s[second] - unit_s[first])
        gram += np.bincount(cell, weights=weight_s[first] * weight_s[second], minlength=gram.size)
    gram = gram.reshape(n, reach + 1)
    rows = np.arange(n)[:, None]
    cols = rows + np.arange(reach + 1)[None, :]
    inside = cols < n
    denominator = np.sqrt(sq_norm[:, None] * sq_norm[np.minimum(cols, n - 1)])
    upper = np.zeros((n, reach + 1))
    np.divide(gram, denominator, out=upper, where=denominator > 0)
    upper[:, 0] = np.where(sq_norm > 0, 1.0, 0.0)
    band[:, reach:][inside] = upper[inside]
    for d in range(1, min(reach, n - 1) + 1):  # the lower half mirrors the upper one (symmetric)
        band[d:, reach - d] = upper[: n - d, d]
    return band


def banded_rank(band_sim: np.ndarray, band: int, mask_size: int) -> np.ndarray:
    """Choi's rank of the cells ``(i, i+d)``, ``|d| <= band``, stored at ``[i, band + d]``
    (0 outside the document); ``band_sim`` needs ``reach >= band + 2 * (mask_size // 2)``.

    Each value equals the exact :func:`rank_matrix` value of its cell bit for bit (its whole
    clipped mask lies inside the similarity band; NaN neighbours, outside the document, are never
    lower, exactly as clipped cells are not counted).
    """
    n, width = band_sim.shape
    reach = (width - 1) // 2
    r = mask_size // 2
    centre = band_sim[:, reach - band : reach + band + 1]
    count = np.zeros((n, 2 * band + 1), dtype=np.uint16)
    for dy in range(-r, r + 1):
        ys, yd = slice(max(0, -dy), n - max(0, dy)), slice(max(0, dy), n - max(0, -dy))
        for dx in range(-r, r + 1):
            if (dy == 0 and dx == 0) or abs(dy) >= n or abs(dx) >= n:
                continue
            lo = reach - band + dx - dy  # neighbour (i+dy, j+dx) sits at offset d + dx - dy
            count[ys] += band_sim[yd, lo : lo + 2 * band + 1] < centre[ys]
    idx = np.arange(n)
    span = (np.minimum(n - 1, idx + r) - np.maximum(0, idx - r) + 1).astype(np.float64)
    cols = idx[:, None] + np.arange(-band, band + 1)[None, :]
    valid = (cols >= 0) & (cols < n)
    denominator = span[:, None] * span[np.clip(cols, 0, n - 1)] - 1.0
    rank = np.zeros((n, 2 * band + 1))
    np.divide(count, denominator, out=rank, where=valid & (denominator > 0))
    return rank


class _BandInside:
    """Inside sums of regions of a rank matrix that is 0 outside a diagonal band (long mode).

    With ``D[e]`` the sum over ``0..e-1`` squared and ``E(a, e)`` the sum over rows ``< a`` and
    columns ``a..e-1`` (non-zero only within ``band`` of ``a``), a region's sum is
    ``D[b+1] - D[a] - 2 E(a, b+1)`` (the rank matrix is symmetric). ``O(n band)`` memory.
    """

    def __init__(self, rank: np.ndarray, band: int) -> None:
        n = rank.shape[0]
        self.n, self.band = n, band
        step = 2.0 * rank[:, :band].sum(axis=1) + rank[:, band]
        self.cumulative = np.concatenate([[0.0], np.cumsum(step)])
        below = np.zeros((n, band + 1))  # below[j, m]: rank[j, j-band .. j-band+m-1] summed
        np.cumsum(rank[:, :band], axis=1, out=below[:, 1:])
        rows = np.arange(n)[:, None] + np.arange(band)[None, :]  # column a+u, rows j-band .. a-1
        column = np.where(rows < n, below[np.minimum(rows, n - 1), band - np.arange(band)[None, :]], 0.0)
        self.cross = np.zeros((n, band + 1))  # cross[a, t] = E(a, a+t)
        np.cumsum(column, axis=1, out=self.cross[:, 1:])
        self.rows = 1

    def region(self, a: int, b: int) -> float:
        c = self.cumulative
        return float(c[b + 1] - c[a] - 2.0 * self.cross[a, min(b + 1 - a, self.band)])

    def halves(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        j = np.arange(a + 1, b + 1)
        zeros = np.zeros(j.size, dtype=np.intp)
        return self.halves_at(zeros, zeros + a, j, zeros + b)

    def root_sums(self) -> np.ndarray:
        """:meth:`region` of ``0 .. n-1``, as an array of one table's value."""
        return np.array([self.region(0, self.n - 1)])

    def halves_at(self, row: np.ndarray, a: np.ndarray, j: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Inside sums of ``a[t]..j[t]-1`` and ``j[t]..b[t]``, elementwise (``row``: always table 0)."""
        c, cross, band = self.cumulative, self.cross, self.band
        left = c[j] - c[a] - 2.0 * cross[a, np.minimum(j - a, band)]
        right = c[b + 1] - c[j] - 2.0 * cross[j, np.minimum(b + 1 - j, band)]
        return left, right


class _PrefixInside:
    """Inside sums of regions of full rank matrices, from their 2-D prefix sums (exact mode):
    one ``(n+1) x (n+1)`` table, or a stack ``(rows, n+1, n+1)`` of them (the batched path)."""

    def __init__(self, prefix: np.ndarray) -> None:
        self.prefix = prefix
        self.n = prefix.shape[-1] - 1
        self._stack = prefix if prefix.ndim == 3 else prefix[None]
        self.rows = self._stack.shape[0]
        idx = np.arange(self.n + 1)
        self._diag = self._stack[:, idx, idx]

    def region(self, a: int, b: int) -> float:
        """Sum of the rank matrix over ``a..b`` x ``a..b`` (inclusive; one table)."""
        p = self.prefix
        return float(p[b + 1, b + 1] - p[a, b + 1] - p[b + 1, a] + p[a, a])

    def halves(self, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        """Inside sums of ``a..i`` and ``i+1..b`` for every split point ``i = a .. b-1`` (one table)."""
        j = np.arange(a + 1, b + 1)  # j = i + 1, first unit of the right half
        zeros = np.zeros(j.size, dtype=np.intp)
        return self.halves_at(zeros, zeros + a, j, zeros + b)

    def root_sums(self) -> np.ndarray:
        """:meth:`region` of ``0 .. n-1`` of every table of the stack."""
        p, n = self._stack, self.n
        return p[:, n, n] - p[:, 0, n] - p[:, n, 0] + p[:, 0, 0]

    def halves_at(self, row: np.ndarray, a: np.ndarray, j: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Inside sums of ``a[t]..j[t]-1`` and ``j[t]..b[t]`` of table ``row[t]``, elementwise."""
        p, diag = self._stack, self._diag
        diag_j = diag[row, j]
        left = diag_j - p[row, a, j] - p[row, j, a] + diag[row, a]
        right = diag[row, b + 1] - p[row, j, b + 1] - p[row, b + 1, j] + diag_j
        return left, right


@dataclass
class _SplitTree:
    """Every region's best local split, found before the divisive clustering starts.

    A region's best split depends on the region alone, never on when it is split, so the regions
    the clustering will meet form a tree known in advance (root: the whole document, children: the
    two halves of a region's best split, down to single units or a depth). It is built a level at a
    time, each level in one pass of array operations over all its regions (and over every table
    of a stack). Node ``r`` (``r < rows``) is the root of table ``r``; a child is ``-1`` for a single
    unit or one below the depth searched.
    """

    point: np.ndarray  # last unit of the left half
    gain_sum: np.ndarray  # change of the total inside sum when the region is split
    gain_area: np.ndarray  # change of the total inside area
    left: np.ndarray  # node of the left half
    right: np.ndarray  # node of the right half
    root_sum: np.ndarray  # per table: the inside sum of the whole document


def _split_tree(inside, depth: int) -> _SplitTree:
    """The best local split of every region up to ``depth`` splits below the root.

    Per region ``a..b``, as Choi's local search: the split ``i`` maximising the inside density
    ``(s(a, i) + s(i+1, b)) / ((i-a+1)^2 + (b-i)^2)``, ties (within :data:`TIE_TOLERANCE`) to the
    largest ``i``, and ``i = a`` when no density is positive.
    """
    n, n_rows = inside.n, inside.rows
    row = np.arange(n_rows)
    a = np.zeros(n_rows, dtype=np.intp)
    b = np.full(n_rows, n - 1, dtype=np.intp)
    root_sum = inside.root_sums()
    s = root_sum
    levels: list[tuple[np.ndarray, ...]] = []
    first_id = 0
    for _ in range(depth):
        if not row.size:
            break
        count = row.size
        span = b - a
        offset = np.zeros(count, dtype=np.intp)
        np.cumsum(span[:-1], out=offset[1:])
        region = np.repeat(np.arange(count), span)
        t = np.arange(region.size) - offset[region]  # split i = a + t
        left, right = inside.halves_at(row[region], a[region], a[region] + 1 + t, b[region])
        density = (left + right) / ((t + 1) ** 2 + (span[region] - t) ** 2)
        best = np.maximum.reduceat(density, offset)
        floor = best - TIE_TOLERANCE * np.abs(best)
        last = np.maximum.reduceat(np.where(density >= floor[region], t, -1), offset)
        k = np.where(best > 0.0, last, 0)
        point = a + k
        inside_left, inside_right = left[offset + k], right[offset + k]
        gain_sum = inside_left + inside_right - s
        gain_area = ((point - a + 1) ** 2 + (b - point) ** 2 - (b - a + 1) ** 2).astype(np.float64)
        has_left, has_right = point > a, b > point + 1
        n_left = int(has_left.sum())
        next_id = first_id + count
        left_id = np.full(count, -1, dtype=np.intp)
        left_id[has_left] = next_id + np.arange(n_left)
        right_id = np.full(count, -1, dtype=np.intp)
        right_id[has_right] = next_id + n_left + np.arange(int(has_right.sum()))
        levels.append((point, gain_sum, gain_area, left_id, right_id))
        first_id = next_id
        row = np.concatenate([row[has_left], row[has_right]])
        a, b = np.concatenate([a[has_left], point[has_right] + 1]), np.concatenate([point[has_left], b[has_right]])
        s = np.concatenate([inside_left[has_left], inside_right[has_right]])
    point, gain_sum, gain_area, left_id, right_id = (np.concatenate(parts) for parts in zip(*levels))
    left_id[left_id >= first_id] = -1  # the level below the depth searched
    right_id[right_id >= first_id] = -1
    return _SplitTree(point, gain_sum, gain_area, left_id, right_id, root_sum)


def _pick_region_small(open_regions: dict[int, tuple[float, float]], total_sum: float, total_area: float) -> int:
    """The global choice of :func:`_split_sequence` in plain Python (same arithmetic)."""
    starts = sorted(open_regions)
    densities = [(total_sum + open_regions[a][0]) / (total_area + open_regions[a][1]) for a in starts]
    positive = [d for d in densities if d > _DENSITY_FLOOR]
    if not positive:
        return starts[0]  # nothing beats the floor: the first splittable region
    best = max(positive)
    floor = best - TIE_TOLERANCE * abs(best)
    return max(a for a, d in zip(starts, densities) if d > _DENSITY_FLOOR and d >= floor)


class _OpenRegions:
    """The splittable regions and the gains of their cached splits, in compact arrays (no scan
    over every unit per step: a removed region's slot takes the last one)."""

    def __init__(self, n: int) -> None:
        self.start = np.zeros(n, dtype=np.intp)
        self.gain_sum = np.zeros(n)
        self.gain_area = np.zeros(n)
        self.slot: dict[int, int] = {}

    def add(self, a: int, gain_sum: float, gain_area: float) -> None:
        k = len(self.slot)
        self.start[k], self.gain_sum[k], self.gain_area[k] = a, gain_sum, gain_area
        self.slot[a] = k

    def remove(self, a: int) -> None:
        k = self.slot.pop(a)
        last = len(self.slot)
        if k != last:
            for array in (self.start, self.gain_sum, self.gain_area):
                array[k] = array[last]
            self.slot[int(self.start[k])] = k

    def pick(self, total_sum: float, total_area: float) -> int:
        """The region to split: best new global density, ties to the last region in the text;
        the first region when none beats the floor.

        One pass over the ``m`` open regions a step: ``O(n m)`` for a document, the super-linear
        part of the long-document mode (``m`` about ``n / 5`` on average on topical documents).
        Skipping blocks of 64 regions by a bound ``(total_sum + max gain_sum) / (total_area +
        min gain_area)`` was tried (2026-11-28) and skips almost nothing (98.7% of the regions
        still scanned at 20,000 units): the densities differ by ``O(1 / total_area)``, as much as
        the bound's slack. Region ``k`` reaches density ``mu`` exactly when ``gain_sum[k] - mu *
        gain_area[k] >= mu * total_area - total_sum``: a block's maximum of that key at the ``mu0``
        of its last scan, plus ``(mu - mu0)`` times its extreme ``-gain_area``, bounds it at any
        ``mu`` and stays tight as the densities move slowly. Measured offline (8,000 units, the
        tie floor as ``mu``, a relative margin of 1e-9 for rounding): 11% of the regions scanned
        with blocks of 16, 27% with 64, 52% with 256. Not done yet: the bounds must also cover
        removed regions and the floats' rounding, and a test must show the same choice, ties
        included."""
        m = len(self.slot)
        if m <= _SMALL:
            gains = zip(self.gain_sum[:m].tolist(), self.gain_area[:m].tolist())
            return _pick_region_small(dict(zip(self.start[:m].tolist(), gains)), total_sum, total_area)
        starts = self.start[:m]
        density = (total_sum + self.gain_sum[:m]) / (total_area + self.gain_area[:m])
        best = float(density.max())  # the best positive density, when there is one
        if not best > _DENSITY_FLOOR:
            return int(starts.min())
        floor = best - TIE_TOLERANCE * abs(best)  # as _is_best on the positive densities
        chosen = density >= floor
        if floor <= _DENSITY_FLOOR:
            chosen &= density > _DENSITY_FLOOR
        return int(starts[chosen].max())


def c99_split_sequence(rank: np.ndarray, n_splits: int) -> tuple[list[int], list[float]]:
    """Run ``n_splits`` steps of Choi's divisive clustering on a rank matrix.

    Returns the boundaries in the order they were found and the density gain of each step.
    """
    return _split_sequence(_PrefixInside(_prefix_sums(rank)), n_splits)[0]


def _split_sequence(inside, n_splits: int) -> list[tuple[list[int], list[float]]]:
    """:func:`c99_split_sequence` for every table of ``inside`` (:class:`_PrefixInside`, or in the
    long-document mode :class:`_BandInside`): per table, the boundaries in the order found and
    the density gain of each step.

    Each step splits the open region whose best split gives the highest new global density
    ``(total sum + gain) / (total area + gain in area)``, ties (within :data:`TIE_TOLERANCE`) to
    the last region in the text; when none beats :data:`_DENSITY_FLOOR`, the first region.
    """
    n = inside.n
    n_splits = max(0, min(n_splits, n - 1))
    if n_splits == 0:
        return [([], []) for _ in range(inside.rows)]
    tree = _split_tree(inside, n_splits)
    if inside.rows > 1 and n <= _STACKED_STEPS:
        return _stacked_steps(tree, n, n_splits)
    return [_compact_steps(tree, row, n, n_splits) for row in range(inside.rows)]


def _compact_steps(tree: _SplitTree, row: int, n: int, n_splits: int) -> tuple[list[int], list[float]]:
    """The steps of :func:`_split_sequence` on one table, the open regions in compact arrays."""
    # the tree as Python lists: a step reads a few of its values, one by one
    point_of, left_of, right_of = tree.point.tolist(), tree.left.tolist(), tree.right.tolist()
    gain_sum_of, gain_area_of = tree.gain_sum.tolist(), tree.gain_area.tolist()
    regions = _OpenRegions(n)
    node_at = {0: row}  # open region's first unit -> its node
    regions.add(0, gain_sum_of[row], gain_area_of[row])
    total_sum = float(tree.root_sum[row])
    total_area = float(n * n)
    boundaries: list[int] = []
    gains: list[float] = []
    for _ in range(n_splits):
        a = regions.pick(total_sum, total_area)
        regions.remove(a)
        node = node_at.pop(a)
        old_density = total_sum / total_area
        total_sum += gain_sum_of[node]
        total_area += gain_area_of[node]
        gains.append(total_sum / total_area - old_density)
        point = point_of[node]
        boundaries.append(point + 1)
        for start, child in ((a, left_of[node]), (point + 1, right_of[node])):
            if child >= 0:
                node_at[start] = child
                regions.add(start, gain_sum_of[child], gain_area_of[child])
    return boundaries, gains


def _stacked_steps(tree: _SplitTree, n: int, n_splits: int) -> list[tuple[list[int], list[float]]]:
    """The steps of :func:`_split_sequence` on every table of a stack at once: one slot per
    region start and table, each step one pass of array operations over all of them (the same
    arithmetic as :func:`_compact_steps`, elementwise)."""
    n_rows = tree.root_sum.size
    rows = np.arange(n_rows)
    node_at = np.full((n_rows, n), -1, dtype=np.intp)
    gain_sum = np.zeros((n_rows, n))
    gain_area = np.zeros((n_rows, n))

    def place(r: np.ndarray, start: np.ndarray, node: np.ndarray) -> None:
        node_at[r, start] = node
        present = node >= 0
        gain_sum[r, start] = np.where(present, tree.gain_sum[node], 0.0)
        gain_area[r, start] = np.where(present, tree.gain_area[node], 0.0)

    place(rows, np.zeros(n_rows, dtype=np.intp), rows)
    total_sum = tree.root_sum.astype(np.float64)
    total_area = np.full(n_rows, float(n * n))
    boundaries = np.empty((n_rows, n_splits), dtype=np.intp)
    gains = np.empty((n_rows, n_splits))
    for step in range(n_splits):
        is_open = node_at >= 0
        density = np.where(is_open, (total_sum[:, None] + gain_sum) / (total_area[:, None] + gain_area), -np.inf)
        best = density.max(axis=1)
        floor = best - TIE_TOLERANCE * np.abs(best)
        chosen = (density >= floor[:, None]) & (density > _DENSITY_FLOOR)
        last = n - 1 - np.argmax(chosen[:, ::-1], axis=1)  # ties: the last region in the text
        a = np.where(best > _DENSITY_FLOOR, last, np.argmax(is_open, axis=1))
        node = node_at[rows, a]
        old_density = total_sum / total_area
        total_sum = total_sum + gain_sum[rows, a]
        total_area = total_area + gain_area[rows, a]
        gains[:, step] = total_sum / total_area - old_density
        point = tree.point[node]
        boundaries[:, step] = point + 1
        place(rows, a, tree.left[node])
        right = tree.right[node]
        has_right = right >= 0
        place(rows[has_right], point[has_right] + 1, right[has_right])
    return list(zip(boundaries.tolist(), gains.tolist()))


def choi_stop(gains: Sequence[float], std_coeff: float = 1.2) -> int:
    """Number of leading splits kept by Choi's automatic stop.

    The gains are smoothed with ``[1, 2, 4, 8, 4, 2, 1]`` (weights renormalised where the kernel
    overhangs the ends); the threshold is ``mean + std_coeff * std`` (population std) of the
    smoothed gains; the result is the length of the leading run strictly above it.
    """
    values = np.asarray(gains, dtype=np.float64)
    if values.size == 0:
        return 0
    smoothed = np.convolve(values, GAIN_KERNEL, mode="full")[3 : 3 + values.size]
    weights = np.convolve(np.ones(values.size), GAIN_KERNEL, mode="full")[3 : 3 + values.size]
    smoothed = smoothed / weights
    threshold = smoothed.mean() + std_coeff * smoothed.std()
    above = smoothed > threshold
    if above.all():
        return int(values.size)
    return int(np.argmin(above))


@dataclass(frozen=True)
class C99State:
    """Per-document work of the fast path: the similarity matrix in the original order (exact
    mode), or the encoded units (long-document mode: the band is recomputed for each order)."""

    similarity: np.ndarray | None
    encoded: EncodedUnits | None = None


#: Peak memory (bytes) the exact mode may need before it refuses (see :func:`exact_memory`).
EXACT_MEMORY_LIMIT = 2 * 1024**3


#: Bytes a cell of the ``n x n`` matrices at the exact mode's peak (see :func:`exact_memory`).
_EXACT_BYTES_PER_CELL = 17
#: Bytes beside them: the bands of rows of the temporaries, the dense blocks of the Gram matrix.
_EXACT_OVERHEAD = 2 * 8 * _MAX_DENSE_CELLS


def exact_memory(n_units: int) -> int:
    """Peak memory of one exact C99 call on ``n_units`` units, in bytes, an upper bound:
    ``17 n^2 + 128 MiB``.

    The ``n^2`` term is the similarity matrix (8 bytes a cell, kept for the restarts), the
    reordered copy the rank counts compare (8) and the counts (1); the prefix sums (8) replace the
    copy. The constant bounds what does not grow with ``n^2``: row bands of :data:`_BAND_CELLS`
    cells of the comparisons, ranks and cosine denominators (16 MiB measured), or, while the
    similarity matrix alone is in memory, the dense term-count block of the Gram matrix and its
    product (up to 64 MiB each). Memory proportional to the text (its tokens) comes on top.
    ``benchmarks/c99_memory.py`` measures it: 17.3 bytes a cell at 8,000 units (tracemalloc and
    peak resident set size agree within 2%); 26-34 before 2026-11-28, when the counts compared a
    reordered copy of a reordered copy, and the ranks' bands were ``n^2`` up to 2,900 units.
    """
    return _EXACT_BYTES_PER_CELL * n_units * n_units + _EXACT_OVERHEAD


def _exact_limit_units() -> int:
    """The most units :func:`exact_memory` allows under :data:`EXACT_MEMORY_LIMIT`."""
    return math.isqrt(max(0, EXACT_MEMORY_LIMIT - _EXACT_OVERHEAD) // _EXACT_BYTES_PER_CELL)


def _check_odd_positive(value, name: str) -> None:
    if check_int(value, name, low=1) % 2 == 0:
        raise InvalidParameterError.make(name, "an odd integer >= 1", value)


class C99(Segmenter):
    """C99 (Choi 2000), automatic stop or a known number of segments.

    Parameters
    ----------
    n_segments : int, optional
        Known number of segments ``K`` (clamped to ``1 .. n``): exactly ``K-1`` splits. By default
        the number is chosen by Choi's automatic stop.
    mask_size : int, default 11
        Side of the rank mask (odd). Choi: 11.
    std_coeff : float, default 1.2
        ``c`` of the automatic stop threshold ``mean + c * std``.
    tokenizer, stopwords, stem :
        Preprocessing (:class:`segmenters.preprocessing.Preprocessor`): ``stopwords=None`` is the
        project's English list and ``stem=True`` Porter's English stemmer; for another language
        give its stopwords and ``stem="german"`` (any Snowball language) or ``stem=False``, and
        ``tokenizer="unicode"`` for Chinese, Japanese or scripts with combining marks. Use
        ``tokenizer="choi"`` on pre-tokenized corpora such as Choi's.
    band : int, optional
        **Long-document mode**: keep only the cells of the rank matrix within ``band`` units of
        the diagonal (similarities within ``band + mask_size - 1``), all others count as 0. Those
        cells have exactly their exact-mode ranks; the divisive clustering is unchanged and reads
        region sums from ``O(n band)`` tables. Time and memory are ``O(n band)`` (plus the split
        sequence), instead of ``O(n^2)``. ``None`` (default) is the exact algorithm, which refuses
        documents whose peak memory (:func:`exact_memory`, ``17 n^2`` bytes + 128 MiB) exceeds
        :data:`EXACT_MEMORY_LIMIT` (2 GiB: about 10,900 units) with an
        :class:`~stability.exceptions.InvalidParameterError` naming this option. Choose a band
        a few times the longest expected segment. Effect on Choi's 3-11 set (all 400 documents,
        word-level Pk as in ``benchmarks/choi_pk.py``; segments of 3-11 sentences, documents of
        about 70): automatic 0.129 exact, 0.120 / 0.128 / 0.131 with ``band`` 10 / 20 / 30; known
        count 0.126 exact, 0.113 / 0.121 / 0.125 (a narrow band acts as a locality prior, which
        helps on this set). On 20,000 synthetic units ``band=20`` takes about 4-9 s on the loaded
        2-core machine, most of it tokenizing and stemming, with a peak under 0.3 GB
        (``python -m benchmarks``); the exact mode would need 6.9 GB.

    Examples
    --------
    >>> units = ["the cat sat on the mat", "a cat and a mat", "cats like mats",
    ...          "stock markets fell", "markets and stocks", "the stock market crashed"]
    >>> C99(n_segments=2)(units)
    [3]
    >>> C99(n_segments=2, band=3)(units)
    [3]
    """

    name = "c99"
    #: The similarity matrix (or the encoded units) depends only on these: configurations that
    #: differ in ``n_segments``, ``mask_size`` or ``std_coeff`` share it.
    prepare_params = ("tokenizer", "stopwords", "stem", "band")

    def __init__(
        self,
        n_segments: int | None = None,
        mask_size: int = 11,
        std_coeff: float = 1.2,
        tokenizer: str = "words",
        stopwords: Iterable[str] | str | None = None,
        stem: bool | str = True,
        band: int | None = None,
    ) -> None:
        check_int(n_segments, "n_segments", low=1, none=True)
        _check_odd_positive(mask_size, "mask_size")
        check_real(std_coeff, "std_coeff")
        check_int(band, "band", low=1, none=True)
        self.n_segments = n_segments
        self.mask_size = mask_size
        self.std_coeff = std_coeff
        self.tokenizer = tokenizer
        self.stopwords = stopwords_param(stopwords)
        self.stem = stem
        self.band = band
        self._preprocessor = Preprocessor(tokenizer=tokenizer, stopwords=self.stopwords, stem=stem)

    def unit_terms(self, units: Sequence[str]) -> list[list[str]]:
        """The terms C99 compares in each unit (tokenized, without stopwords, stemmed)."""
        return [self._preprocessor.terms(unit) for unit in units]

    def stopword_use(self, units: Sequence[str]) -> tuple[str, int, int] | None:
        """Language of its stopword list, tokens of ``units`` in it, tokens (see
        :meth:`segmenters.preprocessing.Preprocessor.stopword_use`)."""
        return self._preprocessor.stopword_use(units)

    def prepare(self, units: Sequence[str]) -> C99State:
        """Similarity matrix of the units (computed once per document), or in the long-document
        mode their encoded terms."""
        if self.band is not None:
            return C99State(None, self._preprocessor.encode(units))
        _check_exact_size(len(units))
        return C99State(cosine_similarity_matrix(self._preprocessor.encode(units)))

    def segment_prepared(self, prepared: C99State, order: np.ndarray) -> list[int]:
        """Boundaries of the units reordered by ``order`` (same as the plain call)."""
        order = np.asarray(order, dtype=np.intp)
        if prepared.similarity is None:
            assert prepared.encoded is not None  # prepare() sets one of the two
            return self._segment_band(prepared.encoded.reorder(order))
        if self._trivial(order.size):
            return []
        prefix = _rank_prefix_sums(prepared.similarity, self.mask_size, order)
        return self._segment_inside(_PrefixInside(prefix))[0]

    def segment_batch(self, prepared: C99State, orders: np.ndarray) -> list[list[int]]:
        """Boundaries for every row of ``orders`` (the batched restart path).

        The permuted similarity matrices of a group of orders are stacked and rank-transformed and
        summed in one pass of array operations, and clustered together (:func:`_split_sequence`). Item
        ``r`` equals ``segment_prepared(prepared, orders[r])`` bit for bit (same elementwise
        operations, sequential cumulative sums). The long-document mode runs order by order.
        """
        orders = np.asarray(orders, dtype=np.intp)
        n = orders.shape[1]
        if n <= 2 or prepared.similarity is None:
            return [self.segment_prepared(prepared, order) for order in orders]
        step = max(1, _BATCH_CELLS // (n * n))
        out: list[list[int]] = []
        for lo in range(0, orders.shape[0], step):
            prefix = _rank_prefix_sums(prepared.similarity, self.mask_size, orders[lo : lo + step])
            out.extend(self._segment_inside(_PrefixInside(prefix)))
        return out

    def segment(self, units: Sequence[str]) -> list[int]:
        return self.segment_prepared(self.prepare(units), np.arange(len(units)))

    def _trivial(self, n: int) -> bool:
        """Documents with no boundary to find: one unit, or two in the automatic mode."""
        return n <= 1 or (self.n_segments is None and n <= 2)

    def _segment_band(self, encoded: EncodedUnits) -> list[int]:
        n = encoded.n_units
        if self._trivial(n):
            return []
        # encoded units come from prepare() with a band ("band" is one of the prepare_params)
        assert self.band is not None
        band = min(self.band, n - 1)
        reach = band + 2 * (self.mask_size // 2)
        rank = banded_rank(banded_similarity(encoded, reach), band, self.mask_size)
        return self._segment_inside(_BandInside(rank, band))[0]

    def _segment_inside(self, inside) -> list[list[int]]:
        """Boundaries from the inside sums of the rank matrix, one list per table of ``inside``
        (``n > 2``, or a known count)."""
        n = inside.n
        if self.n_segments is not None:
            k = min(int(self.n_segments), n)
            return [sorted(boundaries) for boundaries, _ in _split_sequence(inside, k - 1)]
        return [
            sorted(boundaries[: choi_stop(gains, self.std_coeff)]) for boundaries, gains in _split_sequence(inside, n - 1)
        ]


def _check_exact_size(n_units: int) -> None:
    """Refuse the exact mode where its estimated memory exceeds :data:`EXACT_MEMORY_LIMIT`."""
    need = exact_memory(n_units)
    if need > EXACT_MEMORY_LIMIT:
        limit_units = _exact_limit_units()
        raise InvalidParameterError(
            f"C99's exact mode on {n_units} units would need about {need / 2**30:.1f} GiB "
            f"(limit {EXACT_MEMORY_LIMIT / 2**30:.1f} GiB, about {limit_units} units); use the "
            f"long-document mode, e.g. C99(band=100) (-s c99,band=100 on the command line, band = 100 in "
            f"the segmenter's table of a config), for near-linear cost"
        )
