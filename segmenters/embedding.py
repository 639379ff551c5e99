"""Embedding segmenter: cosine similarities of unit embeddings, scored as C99 or as TextTiling.

Every unit becomes a vector through a pluggable encoder ``embed(units: list[str]) -> array``
(one row per unit). The vectors are L2-normalised (a zero vector stays zero: its similarities are
0) and the boundaries come from one of two scorings (``method``):

``"c99"`` (default)
    The cosine similarity matrix goes through C99's rank transform and divisive clustering
    (:mod:`segmenters.c99`, mask ``mask_size``), as in Choi, Wiemer-Hastings & Moore (2001),
    "Latent semantic analysis for text segmentation" (EMNLP), where the lexical vectors of C99
    are replaced by LSA vectors. With ``n_segments = K``: exactly ``K - 1`` splits. Automatic
    stop: the gains are smoothed as in C99 and the splits are kept up to the **last** smoothed
    gain above ``mean + std_coeff * std`` (:func:`last_above`), not Choi's leading run, which is
    empty on most of Choi's documents with LSA similarities (measured: Pk 0.44 against 0.15 on
    a 50-document subset).
``"depth"``
    TextTiling-style depth scoring over embeddings (Hearst 1997; Solbiati et al. 2021 with
    sentence embeddings): the score of the gap before unit ``g`` is the cosine of the summed unit
    vectors of the ``window`` units before and the ``window`` units after it (fewer at the
    edges); scores are smoothed by a moving average of ``2 * smoothing_width + 1`` gaps (the
    average is taken over the gaps that exist, at the edges); the depth of a gap is
    ``(left peak - score) + (right peak - score)``, each peak reached by climbing while the score
    does not decrease. Boundaries are the local maxima of the depth (at least as deep as both
    neighbours, deeper than one) above ``mean - std / 2`` of all depths (Hearst's ``HC``), taken
    deepest first and skipping any closer than ``min_distance`` units to one already taken or to
    the document's start or end (ties: the earlier gap). With ``n_segments = K``, the ``K - 1`` deepest gaps are taken in the same
    order, and if the distance rule leaves fewer, the remaining gaps fill in by depth.

**Default encoder: LSA learnt on the document** (:class:`LSAEncoder`, numpy only, offline):
terms from :class:`segmenters.preprocessing.Preprocessor`, TF-IDF weights (``1 + ln tf`` times
``ln((1 + n) / (1 + df)) + 1``, units as documents, rows L2-normalised) over the terms found in at
least two units, then a truncated SVD: unit ``i`` is row ``i`` of ``U_k S_k`` (``k`` at most the
numerical rank; exact up to 500 distinct units or kept terms, randomized and seeded beyond, see
:func:`top_singular`). Choi et al. learnt
their space on a large corpus; here each document is its own training corpus, so nothing is
downloaded and nothing leaks from other documents.

**Other encoders.** Any callable works, e.g. a sentence-transformers model (weights are
downloaded once by that library; not used in the tests)::

    from sentence_transformers import SentenceTransformer
    model = SentenceTransformer("all-MiniLM-L6-v2")
    segmenter = Embedding(embed=lambda units: model.encode(list(units)))

    # or model2vec's static embeddings (fast on CPU)
    from model2vec import StaticModel
    static = StaticModel.from_pretrained("minishlab/potion-base-8M")
    segmenter = Embedding(embed=static.encode, method="depth")

**Fast restart path.** :meth:`Embedding.prepare` embeds the units once;
:meth:`Embedding.segment_prepared` reorders the rows and scores them. :class:`LSAEncoder` is built to
make this exact: it learns its space on the distinct texts, sorted (and the vocabulary sorted), so the
vector of a unit depends on the set of units, never on their order, bit for bit; the plain call on
permuted units therefore gives the same boundaries. For another encoder the fast path is exact when
the encoder embeds each unit independently of the others and of its position, bit for bit (batched
neural encoders can differ in the last bits with the batch's make-up: the fast path then gives the
boundaries of the unpermuted embeddings, which is what the stability test means to measure).

"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from stability.checks import check_choice, check_int
from stability.exceptions import InvalidParameterError, InvalidTypeError
from stability.segmenter import Segmenter

from .c99 import C99, GAIN_KERNEL, c99_split_sequence, rank_matrix
from .preprocessing import Preprocessor

__all__ = ["Embedding", "EmbeddedSegmenter", "LSAEncoder", "encoder", "unit_vectors", "cosine_similarities", "gap_scores", "depth_scores", "pick_boundaries", "last_above", "top_singular"]

METHODS = ("c99", "depth")
#: Largest smaller side of the TF-IDF matrix decomposed exactly (see :func:`top_singular`).
EXACT_SVD_MAX = 500
#: Decimals the cosine similarities are rounded to (see :func:`cosine_similarities`).
SIMILARITY_DECIMALS = 12
#: Norm under which an LSA vector is rounding noise and set to 0 (TF-IDF rows have norm 1).
OFF_AXES_NORM = 1e-10


@dataclass(frozen=True)
class LSAEncoder:
    """LSA learnt on the units given: TF-IDF over terms in >= 2 units, then a truncated SVD.

    Parameters
    ----------
    n_components : int, default 10
        Dimensions kept (at most the rank of the TF-IDF matrix).
    max_terms : int, default 5000
        Vocabulary cap: the terms found in the most units (ties: alphabetical).
    tokenizer, stopwords, stem :
        Preprocessing (:class:`segmenters.preprocessing.Preprocessor`); ``tokenizer="choi"`` for
        pre-tokenized corpora such as Choi's, ``tokenizer="unicode"`` and ``stem="<language>"``
        for text not in English.

    Examples
    --------
    >>> vectors = LSAEncoder(n_components=2)(["cats and dogs", "dogs and cats", "stock markets",
    ...                                        "markets fell", "cats"])
    >>> vectors.shape
    (5, 2)
    """

    n_components: int = 10
    max_terms: int = 5000
    tokenizer: str = "words"
    stopwords: tuple[str, ...] | str | None = None
    stem: bool | str = True
    _preprocessor: Preprocessor = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_int(self.n_components, "n_components", low=1)
        check_int(self.max_terms, "max_terms", low=1)
        if self.stopwords is not None and not isinstance(self.stopwords, str):
            object.__setattr__(self, "stopwords", tuple(self.stopwords))
        preprocessor = Preprocessor(tokenizer=self.tokenizer, stopwords=self.stopwords, stem=self.stem)
        object.__setattr__(self, "_preprocessor", preprocessor)

    def tfidf(self, units: Sequence[str]) -> np.ndarray:
        """The L2-normalised TF-IDF matrix (units x kept terms, terms sorted), in the given order."""
        return self._tfidf(list(units), np.ones(len(units)))

    def _tfidf(self, texts: list[str], multiplicity: np.ndarray) -> np.ndarray:
        """TF-IDF rows of distinct ``texts``, each standing for ``multiplicity`` units."""
        terms = [self._preprocessor.terms(text) for text in texts]
        n = float(multiplicity.sum())
        doc_freq: dict[str, float] = {}
        for unit_terms, weight in zip(terms, multiplicity.tolist()):
            for term in set(unit_terms):
                doc_freq[term] = doc_freq.get(term, 0.0) + weight
        shared = sorted((-df, term) for term, df in doc_freq.items() if df >= 2)[: self.max_terms]
        column = {term: j for j, term in enumerate(sorted(term for _, term in shared))}
        counts = np.zeros((len(texts), len(column)))
        for i, unit_terms in enumerate(terms):
            for term in unit_terms:
                if term in column:
                    counts[i, column[term]] += 1.0
        df = np.array([doc_freq[term] for term in column], dtype=np.float64)
        present = counts > 0
        weights = np.zeros_like(counts)
        np.log(counts, out=weights, where=present)
        weights[present] += 1.0  # 1 + ln tf
        return _normalise_rows(weights * (np.log((1.0 + n) / (1.0 + df)) + 1.0))

    def __call__(self, units: Sequence[str]) -> np.ndarray:
        units = list(units)
        # The space is learnt on the distinct texts, sorted, each weighted by its multiplicity
        # (same singular vectors as the full matrix): it never depends on the order of the units,
        # and equal units get equal vectors, bit for bit.
        texts = sorted(set(units))
        row_of = {text: r for r, text in enumerate(texts)}
        rows = np.array([row_of[unit] for unit in units], dtype=np.intp)
        multiplicity = np.bincount(rows, minlength=len(texts)).astype(np.float64)
        matrix = self._tfidf(texts, multiplicity)
        if matrix.size == 0:
            return np.zeros((len(units), 1))
        singular, basis = top_singular(matrix * np.sqrt(multiplicity)[:, None], self.n_components)
        rank = int(np.count_nonzero(singular > singular[0] * max(matrix.shape) * np.finfo(float).eps))
        k = max(1, min(self.n_components, rank))
        projected = matrix @ basis[:k].T  # projection on the first k axes: rows of U_k S_k
        # A unit whose terms all lie off the kept axes projects to 0 up to rounding (rows of the
        # TF-IDF matrix have norm 1): set it to exactly 0, or normalising it would give it a
        # direction drawn from the BLAS kernel's rounding noise, different from CPU to CPU.
        projected[np.einsum("ij,ij->i", projected, projected) < OFF_AXES_NORM**2] = 0.0
        return projected[rows]


def top_singular(matrix: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Singular values and right singular vectors (rows) of ``matrix``, at least the top ``k``.

    Exact (``numpy.linalg.svd``) when the smaller side is at most ``EXACT_SVD_MAX``; otherwise
    the randomized range finder of Halko, Martinsson & Tropp (2011) with ``k + 10`` probes, 4
    power iterations and a fixed seed, which costs ``O(m V k)`` instead of ``O(m V min(m, V))``
    and is deterministic for a given matrix.
    """
    if min(matrix.shape) <= EXACT_SVD_MAX:
        _, singular, basis = np.linalg.svd(matrix, full_matrices=False)
        return singular, basis
    probes = np.random.default_rng(0).standard_normal((matrix.shape[1], k + 10))
    sample, _ = np.linalg.qr(matrix @ probes)
    for _ in range(4):
        back, _ = np.linalg.qr(matrix.T @ sample)
        sample, _ = np.linalg.qr(matrix @ back)
    _, singular, basis = np.linalg.svd(sample.T @ matrix, full_matrices=False)
    return singular, basis


def cosine_similarities(vectors: np.ndarray) -> np.ndarray:
    """``vectors @ vectors.T`` for rows of norm 1 or 0, rounded to ``SIMILARITY_DECIMALS``.

    The products carry rounding errors that depend on the BLAS kernel the CPU selects. C99's rank
    transform compares strictly and the cluster segmenter picks seeds and classes by argmin and
    argmax, so equal similarities (0 between units of disjoint vocabularies) would be ordered by
    that noise and the boundaries would differ between machines; rounded, they compare equal.
    """
    return np.round(vectors @ vectors.T, SIMILARITY_DECIMALS)


def _normalise_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
    out = np.zeros_like(matrix)
    np.divide(matrix, norms[:, None], out=out, where=norms[:, None] > 0)
    return out


def unit_vectors(embed: Callable[[list[str]], object], units: Sequence[str]) -> np.ndarray:
    """Call the encoder and check its output: a finite ``len(units) x d`` array, rows normalised."""
    vectors = np.asarray(embed(list(units)), dtype=np.float64)
    if vectors.ndim != 2 or vectors.shape[0] != len(units):
        raise InvalidParameterError.make(
            "embed", f"an encoder returning one row per unit ({len(units)} x d)", f"shape {vectors.shape}"
        )
    if not np.isfinite(vectors).all():
        raise InvalidParameterError.make("embed", "an encoder returning finite numbers", "NaN or infinity")
    return _normalise_rows(vectors)


def gap_scores(vectors: np.ndarray, window: int) -> np.ndarray:
    """Cosine of the summed vectors of the ``window`` units before and after each gap ``1..n-1``."""
    n = vectors.shape[0]
    prefix = np.zeros((n + 1, vectors.shape[1]))
    np.cumsum(vectors, axis=0, out=prefix[1:])
    gaps = np.arange(1, n)
    left = prefix[gaps] - prefix[np.maximum(0, gaps - window)]
    right = prefix[np.minimum(n, gaps + window)] - prefix[gaps]
    norms = np.sqrt(np.einsum("ij,ij->i", left, left) * np.einsum("ij,ij->i", right, right))
    dots = np.einsum("ij,ij->i", left, right)
    scores = np.zeros(n - 1)
    np.divide(dots, norms, out=scores, where=norms > 0)
    return scores


def last_above(gains: Sequence[float], std_coeff: float) -> int:
    """Number of splits kept: up to the *last* smoothed gain above ``mean + std_coeff * std``.

    The gains are smoothed as in C99 (:func:`segmenters.c99.choi_stop`). Choi keeps the leading
    run above the threshold instead; with continuous similarities (embeddings have few ties) the
    first gains are often small and that run is empty.
    """
    values = np.asarray(gains, dtype=np.float64)
    if values.size == 0:
        return 0
    weights = np.convolve(np.ones(values.size), GAIN_KERNEL)[3 : 3 + values.size]
    smoothed = np.convolve(values, GAIN_KERNEL)[3 : 3 + values.size] / weights
    above = np.flatnonzero(smoothed > smoothed.mean() + std_coeff * smoothed.std())
    return int(above[-1]) + 1 if above.size else 0


def _smooth(scores: np.ndarray, width: int) -> np.ndarray:
    if width == 0 or scores.size == 0:
        return scores
    kernel = np.ones(2 * width + 1)
    # the centred part of the full convolution: one value per gap, also when the gaps are fewer
    # than the kernel (mode="same" then returns as many values as the kernel has)
    total = np.convolve(scores, kernel)[width:width + scores.size]
    count = np.convolve(np.ones(scores.size), kernel)[width:width + scores.size]
    return total / count


def depth_scores(scores: np.ndarray) -> np.ndarray:
    """Depth of every gap: climb each side while the score does not decrease, add both rises."""
    n = scores.size
    if n == 0:
        return scores
    index = np.arange(n)
    # climbing left from i stops at the last j <= i with j == 0 or scores[j-1] < scores[j]
    stop_left = np.r_[True, scores[:-1] < scores[1:]]
    peak_left = scores[np.maximum.accumulate(np.where(stop_left, index, 0))]
    stop_right = np.r_[scores[1:] < scores[:-1], True]
    reach_right = np.minimum.accumulate(np.where(stop_right, index, n - 1)[::-1])[::-1]
    return (peak_left - scores) + (scores[reach_right] - scores)


def pick_boundaries(depth: np.ndarray, n_boundaries: int | None, min_distance: int) -> list[int]:
    """Gaps (as boundaries ``1..n-1``) chosen from the depths, by the rules of the module docstring."""
    ranked = np.lexsort((np.arange(depth.size), -depth)).tolist()  # deepest first, ties: earlier gap
    candidates = ranked
    if n_boundaries is None:
        left = np.r_[-np.inf, depth[:-1]]
        right = np.r_[depth[1:], -np.inf]
        peak = (depth >= left) & (depth >= right) & ((depth > left) | (depth > right)) & (depth > 0)
        cutoff = depth.mean() - depth.std() / 2.0
        candidates = [g for g in ranked if peak[g] and depth[g] > cutoff]
    chosen: list[int] = []
    for gap in candidates:
        if n_boundaries is not None and len(chosen) == n_boundaries:
            break
        # the document's start and end count as boundaries taken: no segment shorter than min_distance there
        edges = min(gap + 1, depth.size - gap) >= min_distance
        if edges and all(abs(gap - other) >= min_distance for other in chosen):
            chosen.append(gap)
    if n_boundaries is not None and len(chosen) < n_boundaries:
        taken = set(chosen)
        chosen += [g for g in ranked if g not in taken][: n_boundaries - len(chosen)]
    return sorted(g + 1 for g in chosen)


@dataclass(frozen=True)
class EmbeddingState:
    """Per-document work of the fast path: the normalised unit vectors in the original order."""

    vectors: np.ndarray


class EmbeddedSegmenter(Segmenter):
    """Base of the segmenters working on normalised unit vectors from an encoder ``self.embed``.

    Subclasses implement ``_segment_vectors(vectors)``; this class gives the plain call and the
    fast restart path (the encoder runs once per document, restarts reorder the rows).
    """

    embed: Callable[[list[str]], object]
    #: The unit vectors depend only on the encoder: configurations with equal encoders (e.g. two
    #: equal ``LSAEncoder``) share them (an unhashable encoder is never shared).
    prepare_params = ("embed",)

    def unit_terms(self, units: Sequence[str]) -> list[list[str]] | None:
        """The terms the default encoder (:class:`LSAEncoder`) weighs in each unit; ``None`` for
        another encoder, whose view of the units is its own."""
        if not isinstance(self.embed, LSAEncoder):
            return None
        return [self.embed._preprocessor.terms(unit) for unit in units]

    def stopword_use(self, units: Sequence[str]) -> tuple[str, int, int] | None:
        """Language of the default encoder's stopword list, tokens of ``units`` in it, tokens (see
        :meth:`segmenters.preprocessing.Preprocessor.stopword_use`); ``None`` for another encoder."""
        if not isinstance(self.embed, LSAEncoder):
            return None
        return self.embed._preprocessor.stopword_use(units)

    def prepare(self, units: Sequence[str]) -> EmbeddingState:
        """Normalised unit vectors (the encoder is called once per document)."""
        if len(units) == 0:
            return EmbeddingState(np.zeros((0, 1)))
        return EmbeddingState(unit_vectors(self.embed, units))

    def segment_prepared(self, prepared: EmbeddingState, order: np.ndarray) -> list[int]:
        """Boundaries of the units reordered by ``order`` (same as the plain call)."""
        return self._segment_vectors(prepared.vectors[np.asarray(order, dtype=np.intp)])

    def segment(self, units: Sequence[str]) -> list[int]:
        return self._segment_vectors(self.prepare(units).vectors)

    def _segment_vectors(self, vectors: np.ndarray) -> list[int]:
        raise NotImplementedError


def encoder(embed: Callable[[list[str]], object] | Mapping[str, Any] | None,
            **defaults: Any) -> Callable[[list[str]], object]:
    """The encoder a segmenter embeds its units with, from its ``embed`` parameter.

    Parameters
    ----------
    embed : callable, mapping or None
        A callable ``list[str] -> array`` is the encoder itself; ``None`` is an
        :class:`LSAEncoder` of ``defaults``; a mapping of :class:`LSAEncoder`'s keys is an
        LSAEncoder of those keys over ``defaults``: what a config's table
        (``embed = {tokenizer = "unicode", stopwords = [], stem = false}``) or ``-s`` gives, the
        way to set the default encoder's preprocessing for text not in English without Python.
    **defaults :
        The segmenter's own defaults of the LSAEncoder (``n_components=5`` for ``cluster``).

    Examples
    --------
    >>> encoder({"tokenizer": "unicode", "stem": False}, n_components=5)
    LSAEncoder(n_components=5, max_terms=5000, tokenizer='unicode', stopwords=None, stem=False)
    """
    if embed is None:
        return LSAEncoder(**defaults)
    if isinstance(embed, Mapping):
        keys = [f.name for f in fields(LSAEncoder) if f.init]
        unknown = [key for key in embed if key not in keys]
        if unknown:
            raise InvalidParameterError.make(
                "embed", f"a callable or a table of the default LSAEncoder's keys ({', '.join(keys)}), "
                f"without {', '.join(map(repr, unknown))}", dict(embed))
        return LSAEncoder(**{**defaults, **embed})
    if not callable(embed):
        raise InvalidTypeError.make("embed", "None, a callable list[str] -> array or a table of LSAEncoder's keys", embed)
    return embed


class Embedding(EmbeddedSegmenter):
    """Segmenter over unit embeddings (default: LSA learnt on the document), C99 or depth scoring.

    Parameters
    ----------
    n_segments : int, optional
        Known number of segments ``K`` (clamped to ``1 .. n``). By default the number is chosen
        by the method's automatic rule.
    method : {"c99", "depth"}, default "c99"
        C99's rank transform and divisive clustering, or TextTiling-style depth scoring (see the
        module docstring).
    embed : callable or mapping, optional
        ``embed(units: list[str]) -> array`` of one row per unit, or a table of :class:`LSAEncoder`'s
        keys (``{"tokenizer": "unicode", "stopwords": [], "stem": False}`` for Chinese text:
        :func:`encoder`). Default: :class:`LSAEncoder`.
    mask_size, std_coeff :
        C99's rank mask (odd) and automatic-stop coefficient (``method="c99"``).
    window, smoothing_width, min_distance :
        Units per side of a gap, smoothing half-width, and the least distance between two
        boundaries (``method="depth"``).

    Notes
    -----
    Measured on Choi's 3-11 set (all 400 documents, ``benchmarks/choi_pk.py``, word-level Pk as in
    Choi's evaluation, sentence-level in brackets; ``embed=LSAEncoder(tokenizer="choi")``, other
    parameters at their defaults): ``method="c99"`` 0.161 (0.191) automatic and 0.152 (0.176)
    with the known count; ``method="depth"`` 0.180 (0.200) automatic and 0.188 (0.204) with the
    known count. For comparison, C99 on term counts gives 0.129 and 0.126 in the same run: an LSA
    space learnt on a single 70-sentence document is weaker than the lexical vectors (Choi et al.
    2001 learnt theirs on a large corpus); a real encoder can be passed as ``embed``. The defaults
    (10 LSA dimensions, ``window=5``, the last-above stop) were chosen on 50 of these documents
    (every eighth), so the figures are slightly optimistic.

    Examples
    --------
    >>> units = ["the cat sat on the mat", "a cat and a mat", "cats like mats",
    ...          "stock markets fell", "markets and stocks", "the stock market crashed"]
    >>> Embedding(n_segments=2, embed=LSAEncoder(n_components=2))(units)
    [3]
    """

    name = "embedding"

    def __init__(
        self,
        n_segments: int | None = None,
        method: str = "c99",
        embed: Callable[[list[str]], object] | Mapping[str, Any] | None = None,
        mask_size: int = 11,
        std_coeff: float = 1.2,
        window: int = 5,
        smoothing_width: int = 1,
        min_distance: int = 2,
    ) -> None:
        check_choice(method, "method", METHODS)
        embed = encoder(embed)
        check_int(window, "window", low=1)
        check_int(smoothing_width, "smoothing_width", low=0)
        check_int(min_distance, "min_distance", low=1)
        C99(n_segments=n_segments, mask_size=mask_size, std_coeff=std_coeff)  # checks these three
        self.n_segments = n_segments
        self.method = method
        self.embed = embed
        self.mask_size = mask_size
        self.std_coeff = std_coeff
        self.window = window
        self.smoothing_width = smoothing_width
        self.min_distance = min_distance

    def _segment_vectors(self, vectors: np.ndarray) -> list[int]:
        n = vectors.shape[0]
        if n <= 1:
            return []
        if self.method == "c99":
            return self._segment_c99(vectors)
        depth = depth_scores(_smooth(gap_scores(vectors, self.window), self.smoothing_width))
        wanted = None if self.n_segments is None else min(int(self.n_segments), n) - 1
        return pick_boundaries(depth, wanted, self.min_distance)

    def _segment_c99(self, vectors: np.ndarray) -> list[int]:
        n = vectors.shape[0]
        if self.n_segments is None and n <= 2:
            return []
        similarity = cosine_similarities(vectors)
        np.fill_diagonal(similarity, np.where(vectors.any(axis=1), 1.0, 0.0))
        rank = rank_matrix(similarity, self.mask_size)
        if self.n_segments is not None:
            return sorted(c99_split_sequence(rank, min(int(self.n_segments), n) - 1)[0])
        boundaries, gains = c99_split_sequence(rank, n - 1)
        return sorted(boundaries[: last_above(gains, self.std_coeff)])
