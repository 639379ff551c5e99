"""Built-in lexical segmenters: preprocessing, C99, U00 (reference values name their source)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from segmenters.c99 import (
    C99,
    _prefix_sums,
    c99_split_sequence,
    choi_stop,
    cosine_similarity_matrix,
    rank_matrix,
)
from segmenters.preprocessing import Preprocessor, ragged_take
from segmenters.stopwords import ENGLISH_STOPWORDS, english_stopwords
from segmenters.u00 import U00, segment_costs, u00_boundaries
from stability.exceptions import InvalidParameterError

SHARED = Path(__file__).resolve().parents[2] / "shared"
NLTK_STOPWORDS = SHARED / "data" / "nltk_data" / "corpora" / "stopwords" / "english"

LETTERS = "abcdefgh"


def topical_units(seed: int, n_topics: int = 4, per_topic=(4, 9), words=(4, 10)):
    """Units whose words come from one small vocabulary per topic (letters only)."""
    rng = np.random.default_rng(seed)
    units, bounds = [], []
    for t in range(n_topics):
        vocab = [f"{LETTERS[t]}{LETTERS[j % 8]}{LETTERS[(j * 3) % 8]}x" for j in range(12)]
        for _ in range(int(rng.integers(*per_topic))):
            units.append(" ".join(vocab[int(rng.integers(0, 12))] for _ in range(int(rng.integers(*words)))))
        bounds.append(len(units))
    return units, bounds[:-1]


# --------------------------------------------------------------------------- preprocessing


def test_project_stopwords_are_lowercase_words():
    words = english_stopwords()
    assert words == sorted(ENGLISH_STOPWORDS)
    assert all(w == w.lower() and w.strip() == w and w for w in words)
    assert {"the", "and", "of", "said", "is"} <= ENGLISH_STOPWORDS
    assert not {"river", "market", "music"} & ENGLISH_STOPWORDS


def test_preprocessor_words_tokenizer_stopwords_and_stemming():
    p = Preprocessor()
    # Porter (original algorithm) on "running" -> "run", "markets" -> "market"; "the"/"are" stopwords.
    assert p.terms("The markets are RUNNING, well-known caf\u00e9s 42!") == ["market", "run", "well-known", "caf\u00e9"]
    assert Preprocessor(stem=False).terms("The markets") == ["markets"]
    assert Preprocessor(stopwords=[], stem=False).terms("The markets") == ["the", "markets"]


def test_preprocessor_choi_tokenizer_keeps_only_letter_and_hyphen_tokens():
    # Choi's rule: whitespace tokens made only of letters or '-'.
    p = Preprocessor(tokenizer="choi", stopwords=[], stem=False)
    assert p.terms("Santa Barbara -- `` The 1958 U.S. re-entry , n't") == ["santa", "barbara", "--", "the", "re-entry"]


def test_preprocessor_rejects_bad_parameters():
    with pytest.raises(InvalidParameterError):
        Preprocessor(tokenizer="spacy")
    with pytest.raises(InvalidParameterError):
        Preprocessor(stopwords="the")


def test_encode_and_reorder_match_encoding_the_permuted_units():
    units = ["cats chase mice", "", "mice eat cheese", "dogs chase cats"]
    p = Preprocessor()
    enc = p.encode(units)
    order = np.array([3, 1, 0, 2])
    re_enc = enc.reorder(order)
    direct = p.encode([units[i] for i in order])
    # ids differ (numbered by first appearance) but must be the same terms: renumber both by
    # first appearance and compare, unit by unit
    def canonical(ids):
        seen = {}
        return [seen.setdefault(int(i), len(seen)) for i in ids]

    assert re_enc.lengths.tolist() == direct.lengths.tolist() == [len(p.terms(units[i])) for i in order]
    assert canonical(re_enc.ids) == canonical(direct.ids)
    assert re_enc.n_types == direct.n_types


def test_ragged_take():
    flat = np.array([1, 2, 3, 4, 5, 6])
    offsets = np.array([0, 2, 2, 5, 6])  # rows [1,2], [], [3,4,5], [6]
    out, off = ragged_take(flat, offsets, np.array([2, 0, 1, 3, 0]))
    assert out.tolist() == [3, 4, 5, 1, 2, 6, 1, 2]
    assert off.tolist() == [0, 3, 5, 5, 6, 8]


# --------------------------------------------------------------------------- C99


def _cosine(a, b):
    ca, cb = Counter(a), Counter(b)
    if not ca or not cb:
        return 0.0
    dot = sum(ca[w] * cb[w] for w in ca)
    return dot / math.sqrt(sum(v * v for v in ca.values()) * sum(v * v for v in cb.values()))


def test_similarity_matrix_matches_direct_cosine():
    units, _ = topical_units(1)
    units += ["", "zzz"]
    p = Preprocessor()
    terms = [p.terms(u) for u in units]
    sim = cosine_similarity_matrix(p.encode(units))
    n = len(units)
    for i in range(n):
        for j in range(n):
            expected = (1.0 if terms[i] else 0.0) if i == j else _cosine(terms[i], terms[j])
            assert sim[i, j] == pytest.approx(expected, abs=1e-12)


def test_similarity_matrix_values_do_not_depend_on_unit_order():
    # exact integer dot products: permuting the units permutes the matrix, bit for bit
    units, _ = topical_units(2, n_topics=6)
    p = Preprocessor()
    sim = cosine_similarity_matrix(p.encode(units))
    order = np.random.default_rng(0).permutation(len(units))
    permuted = cosine_similarity_matrix(p.encode([units[i] for i in order]))
    assert np.array_equal(permuted, sim[np.ix_(order, order)])


def test_similarity_matrix_same_through_every_computation_path(monkeypatch):
    # Frequent terms go through dense blocks, rare ones through pair lists in batches; with exact
    # integer sums every split of the work must give the same matrix, bit for bit.
    import segmenters.c99 as c99_module

    units, _ = topical_units(8, n_topics=5, per_topic=(8, 12))
    encoded = Preprocessor().encode(units)
    reference = cosine_similarity_matrix(encoded)
    for dense_cells, rare_limit, batch in ((10**9, 10**9, 1 << 20), (40, 1, 5), (300, 3, 2), (1 << 23, 1, 1)):
        monkeypatch.setattr(c99_module, "_MAX_DENSE_CELLS", dense_cells)
        monkeypatch.setattr(c99_module, "_RARE_DOC_FREQ", rare_limit)
        monkeypatch.setattr(c99_module, "_PAIR_BATCH", batch)
        assert np.array_equal(cosine_similarity_matrix(encoded), reference)


def test_rank_prefix_sums_equal_prefix_sums_of_the_rank_matrix(monkeypatch):
    import segmenters.c99 as c99_module

    units, _ = topical_units(9, n_topics=5)
    sim = cosine_similarity_matrix(Preprocessor().encode(units))
    expected = _prefix_sums(rank_matrix(sim, 11))
    monkeypatch.setattr(c99_module, "_BAND_CELLS", 50)  # several row bands
    assert np.array_equal(c99_module._rank_prefix_sums(sim, 11), expected)


def test_rank_matrix_matches_the_definition():
    # Spec section 2.3: strictly lower cells of the clipped mask / (cells - 1). Ties are frequent
    # here (values from a set of 4), which is the point.
    rng = np.random.default_rng(3)
    n = 14
    a = rng.integers(0, 4, size=(n, n)) / 4
    sim = (a + a.T) / 2
    for mask in (1, 3, 11, 17, 29):  # 17: counts above 255; 29: a mask wider than the matrix
        r = mask // 2
        got = rank_matrix(sim, mask)
        for i in range(n):
            for j in range(n):
                rows = range(max(0, i - r), min(n - 1, i + r) + 1)
                cols = range(max(0, j - r), min(n - 1, j + r) + 1)
                lower = sum(sim[y, x] < sim[i, j] for y in rows for x in cols)
                cells = len(rows) * len(cols) - 1
                assert got[i, j] == pytest.approx(lower / cells if cells > 0 else 0.0)


@pytest.mark.parametrize("mask", [1, 3, 11, 17])
def test_rank_counts_of_a_stack_are_each_matrix_alone(mask):
    # the batched path counts a stack of matrices in one pass over their flattened frames: no
    # mask may reach into a neighbouring matrix of the stack
    import segmenters.c99 as c99_module

    rng = np.random.default_rng(4)
    stack = rng.integers(0, 3, size=(3, 9, 9)) / 2
    stack = np.minimum(stack, stack.transpose(0, 2, 1))
    together = c99_module._rank_counts(stack, mask)
    for matrix, counted in zip(stack, together):
        assert np.array_equal(counted, c99_module._rank_counts(matrix, mask))


def test_prefix_sums():
    rank = np.random.default_rng(0).random((7, 7))
    p = _prefix_sums(rank)
    assert p[3, 5] == pytest.approx(rank[:3, :5].sum())
    assert p[7, 7] == pytest.approx(rank.sum())


def _reference_c99(rank, n_splits):
    """Straightforward loop version of spec section 2.5 (tie rule with relative tolerance)."""
    n = len(rank)

    def s(a, b):
        return rank[a : b + 1, a : b + 1].sum()

    def local(a, b):
        values = [(s(a, i) + s(i + 1, b)) / ((i - a + 1) ** 2 + (b - i) ** 2) for i in range(a, b)]
        best = max(values)
        if best <= 0:
            return a
        return max(i for i, v in zip(range(a, b), values) if v >= best - 1e-9 * abs(best))

    regions = [(0, n - 1)]
    total, area, out = s(0, n - 1), n * n, []
    for _ in range(n_splits):
        options = []
        for idx, (a, b) in enumerate(regions):
            if b > a:
                i = local(a, b)
                new_total = total - s(a, b) + s(a, i) + s(i + 1, b)
                new_area = area - (b - a + 1) ** 2 + (i - a + 1) ** 2 + (b - i) ** 2
                options.append((new_total / new_area, idx, i, new_total, new_area))
        positive = [o for o in options if o[0] > 1e-12]
        if positive:
            best = max(o[0] for o in positive)
            choice = [o for o in positive if o[0] >= best - 1e-9 * abs(best)][-1]
        else:
            choice = options[0]
        _, idx, i, total, area = choice
        a, b = regions[idx]
        regions[idx : idx + 1] = [(a, i), (i + 1, b)]
        out.append(i + 1)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_c99_split_sequence_matches_loop_reference(seed):
    units, bounds = topical_units(seed, n_topics=5)
    rank = rank_matrix(cosine_similarity_matrix(Preprocessor().encode(units)))
    n = len(units)
    got, gains = c99_split_sequence(rank, n - 1)
    assert got == _reference_c99(rank, n - 1)
    assert len(gains) == n - 1


def test_c99_small_region_python_path_equals_the_numpy_path(monkeypatch):
    # Small regions and few open regions are handled in plain Python for speed; it must be the
    # same arithmetic: identical boundaries *and* gains whichever path runs.
    import segmenters.c99 as c99_module

    for seed in range(5):
        units, _ = topical_units(40 + seed, n_topics=7, per_topic=(4, 12))
        rank = rank_matrix(cosine_similarity_matrix(Preprocessor().encode(units)))
        results = []
        for small in (-1, 4, 10**9):
            monkeypatch.setattr(c99_module, "_SMALL", small)
            results.append(c99_split_sequence(rank, len(units) - 1))
        assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("n_splits", [1, 3, None])
def test_c99_stacked_tables_step_together_as_one_at_a_time(monkeypatch, n_splits):
    # The batched restart path runs the divisive clustering of a stack of rank matrices at once
    # (one slot per region start and table); it must give each table's boundaries *and* gains
    # bit for bit as the clustering of that table alone, ties included (matrices of ones, zeros
    # and identical blocks have exact ties everywhere).
    import segmenters.c99 as c99_module

    units, _ = topical_units(7, n_topics=6, per_topic=(3, 9))
    n = len(units)
    similarity = cosine_similarity_matrix(Preprocessor().encode(units))
    orders = [np.random.default_rng(s).permutation(n) for s in range(9)]
    ranks = [rank_matrix(similarity[np.ix_(order, order)]) for order in orders]
    ranks += [np.ones((n, n)), np.zeros((n, n)), np.kron(np.eye(n // 3 + 1), np.ones((3, 3)))[:n, :n]]
    k = n - 1 if n_splits is None else n_splits
    alone = [c99_split_sequence(rank, k) for rank in ranks]
    stack = c99_module._PrefixInside(np.stack([c99_module._prefix_sums(rank) for rank in ranks]))
    assert c99_module._split_sequence(stack, k) == alone
    monkeypatch.setattr(c99_module, "_STACKED_STEPS", 0)  # the same stack, one table at a time
    assert c99_module._split_sequence(stack, k) == alone


def test_c99_tie_rule_by_hand():
    # Rank matrix of ones (n=4): every split has density 1 -> tie -> the largest split point
    # (i=2, boundary 3); then only [0..2] is splittable -> boundary 2.
    assert c99_split_sequence(np.ones((4, 4)), 2)[0] == [3, 2]
    # Two identical blocks of ones (n=6): first split between them (density 1 vs at most 0.7);
    # then both regions tie globally (density 1) -> the last region, at its largest split point
    # (boundary 5). Regions are now [0..2], [3..4], [5]; splitting [0..2] at 1 or [3..4] at 3
    # both keep the density at 1 (sums and areas 14-4 and 14-2) -> the last one: boundary 4.
    block = np.zeros((6, 6))
    block[:3, :3] = 1
    block[3:, 3:] = 1
    assert c99_split_sequence(block, 4)[0] == [3, 5, 4, 2]
    # All ranks 0: nothing beats the floor -> split the first region at its start.
    assert c99_split_sequence(np.zeros((5, 5)), 3)[0] == [1, 2, 3]


def test_choi_stop_matches_a_direct_computation():
    gains = np.array([0.09, 0.08, 0.07, 0.01, 0.005, 0.004, 0.003, 0.002, 0.002, 0.001, 0.001, 0.0])
    kernel = [1, 2, 4, 8, 4, 2, 1]
    smoothed = []
    for i in range(len(gains)):
        num = den = 0.0
        for d in range(-3, 4):
            if 0 <= i + d < len(gains):
                num += kernel[d + 3] * gains[i + d]
                den += kernel[d + 3]
        smoothed.append(num / den)
    smoothed = np.array(smoothed)
    threshold = smoothed.mean() + 1.2 * smoothed.std()
    expected = 0
    while expected < len(smoothed) and smoothed[expected] > threshold:
        expected += 1
    assert choi_stop(gains, 1.2) == expected
    assert expected > 0  # the example does keep a leading run
    assert choi_stop([], 1.2) == 0


def test_c99_finds_clean_topics_with_known_count():
    units, bounds = topical_units(11, n_topics=4, per_topic=(6, 9))
    assert C99(n_segments=len(bounds) + 1)(units) == bounds


def test_c99_automatic_on_clean_topics():
    units, bounds = topical_units(12, n_topics=5, per_topic=(7, 10))
    found = C99()(units)
    assert set(found) & set(bounds)
    assert all(1 <= b < len(units) for b in found)


def test_c99_small_documents_and_identical_units():
    assert C99()([]) == [] and C99()(["a"]) == [] and C99()(["a b", "c d"]) == []
    assert C99(n_segments=2)(["alpha beta", "gamma delta"]) == [1]
    # identical units: every rank is 0, densities never beat the floor (spec 2.5)
    assert C99(n_segments=3)(["same words here"] * 6) == [1, 2]
    assert C99()(["same words here"] * 6) == []


def test_c99_parameters_are_checked_and_exposed():
    with pytest.raises(InvalidParameterError):
        C99(mask_size=4)
    with pytest.raises(InvalidParameterError):
        C99(n_segments=0)
    assert C99(n_segments=3, stopwords=["x"]).get_params() == {
        "n_segments": 3, "mask_size": 11, "std_coeff": 1.2, "tokenizer": "words",
        "stopwords": ["x"], "stem": True, "band": None,
    }


# --------------------------------------------------------------------------- U00


def _u00_cost(terms, g, h, k, total):
    counts = Counter(w for unit in terms[g:h] for w in unit)
    size = sum(counts.values())
    return size * math.log(size + k) - sum(f * math.log(f + 1) for f in counts.values()) + math.log(total)


@pytest.mark.parametrize("seed", range(4))
def test_u00_costs_match_the_formula(seed):
    units, _ = topical_units(seed, n_topics=3)
    units.insert(2, "")
    p = Preprocessor()
    terms = [p.terms(u) for u in units]
    total = sum(map(len, terms))
    k = len({w for t in terms for w in t})
    costs = segment_costs(p.encode(units))
    n = len(units)
    for g in range(n):
        for h in range(g + 1, n + 1):
            assert costs[g, h] == pytest.approx(_u00_cost(terms, g, h, k, total), rel=1e-12, abs=1e-9)
        assert np.all(np.isinf(costs[g, : g + 1]))


def test_u00_dynamic_programs_find_the_exhaustive_optimum():
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(60):
        n = int(rng.integers(2, 8))
        units = [" ".join("w" + LETTERS[int(rng.integers(0, 5))] for _ in range(int(rng.integers(0, 5)))) for _ in range(n)]
        encoded = Preprocessor(stopwords=[], stem=False).encode(units)
        if encoded.ids.size == 0:
            assert u00_boundaries(encoded) == []
            continue
        costs = segment_costs(encoded)

        def cost(bs):
            nodes = [0, *bs, n]
            return sum(costs[a, b] for a, b in zip(nodes, nodes[1:]))

        every = [list(c) for m in range(n) for c in itertools.combinations(range(1, n), m)]
        best = min(cost(b) for b in every)
        assert cost(u00_boundaries(encoded)) == pytest.approx(best, abs=1e-9)
        for segments in range(1, n + 1):
            got = u00_boundaries(encoded, segments)
            assert len(got) == segments - 1
            best_k = min(cost(b) for b in every if len(b) == segments - 1)
            assert cost(got) == pytest.approx(best_k, abs=1e-9)
        checked += 1
    assert checked > 40


def test_u00_finds_clean_topics():
    units, bounds = topical_units(21, n_topics=4, per_topic=(6, 9))
    assert U00(n_segments=len(bounds) + 1)(units) == bounds
    assert U00()(units) == bounds


def test_u00_edge_cases():
    assert U00()([]) == [] and U00()(["only"]) == []
    assert U00()(["", "", ""]) == []  # N = 0: no boundaries
    assert U00(n_segments=3)(["", "", "", "12"]) == [1, 2]  # N = 0, known count: the tie rule
    assert U00(n_segments=5)(["a b", "c d"]) == [1]  # K clamped to n
    with pytest.raises(InvalidParameterError):
        U00(n_segments=0)


def test_nltk_stopword_list_is_accepted_by_lexical_segmenters():
    if not NLTK_STOPWORDS.is_file():
        pytest.skip("../shared nltk stopwords not available")
    words = NLTK_STOPWORDS.read_text(encoding="utf-8").split()
    units, bounds = topical_units(31, n_topics=3, per_topic=(6, 8))
    assert C99(n_segments=3, stopwords=words)(units) == bounds
    assert U00(n_segments=3, stopwords=words)(units) == bounds


# --------------------------------------------------------------------------- fast restart path


def _long_messy_units(seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    units, _ = topical_units(seed, n_topics=int(rng.integers(3, 7)), per_topic=(3, 12), words=(3, 25))
    filler = ["the", "of", "and", "caf\u00e9", "\u65e5\u672c", "42", "don't", "well-known", ",", ""]
    for i in range(len(units)):
        if rng.random() < 0.3:
            units[i] += " " + " ".join(filler[int(rng.integers(0, len(filler)))] for _ in range(5))
        if rng.random() < 0.05:
            units[i] = ""
    return units


@pytest.mark.parametrize(
    "segmenter",
    [C99(), C99(n_segments=4), C99(mask_size=3), U00(), U00(n_segments=4)]
    + [__import__("segmenters.texttiling", fromlist=["TextTiling"]).TextTiling(**p) for p in ({}, {"w": 5, "k": 3})],
    ids=repr,
)
def test_fast_path_identical_to_plain_call_on_random_documents(segmenter):
    rng = np.random.default_rng(7)
    non_empty = 0
    for seed in range(10):
        units = _long_messy_units(seed)
        state = segmenter.prepare(units)
        for _ in range(5):
            order = rng.permutation(len(units))
            fast = segmenter.segment_prepared(state, order)
            assert fast == segmenter([units[i] for i in order])
            non_empty += bool(fast)
    assert non_empty >= 10  # the comparison is not between empty outputs only
