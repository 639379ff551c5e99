"""Embedding segmenter (segmenters/embedding.py): LSA encoder, depth scoring, C99 scoring."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segmenters.embedding import (
    Embedding,
    LSAEncoder,
    depth_scores,
    gap_scores,
    last_above,
    pick_boundaries,
    top_singular,
)
from stability.exceptions import InvalidParameterError, InvalidTypeError, StabilityError

from conftest import topical_document


def test_tfidf_by_hand():
    # Units as documents, no stopwords, no stemming. Terms in >= 2 units: "cat" (units 0, 1, 2)
    # and "dog" (units 0, 2); "fish" is in one unit only and is dropped.
    # idf = ln((1 + 3) / (1 + df)) + 1: cat ln(4/4) + 1 = 1, dog ln(4/3) + 1.
    # tf weight 1 + ln(count): unit 0 "cat cat dog" -> cat 1 + ln 2, dog 1.
    encoder = LSAEncoder(stopwords=[], stem=False)
    matrix = encoder.tfidf(["cat cat dog", "cat fish", "dog cat"])
    idf_dog = np.log(4 / 3) + 1
    row0 = np.array([1 + np.log(2), idf_dog])
    expected = np.array([row0 / np.linalg.norm(row0), [1.0, 0.0], np.array([1, idf_dog]) / np.hypot(1, idf_dog)])
    np.testing.assert_allclose(matrix, expected, rtol=1e-12)


def test_lsa_without_truncation_keeps_the_tfidf_cosines():
    # U S V^T = X with orthonormal V: rows of U S have the dot products of the rows of X.
    units = ["river bank water", "bank loan money", "water river fish", "money market loan", "fish boat"]
    encoder = LSAEncoder(n_components=50, stopwords=[], stem=False)
    tfidf = encoder.tfidf(units)
    vectors = encoder(units)
    np.testing.assert_allclose(vectors @ vectors.T, tfidf @ tfidf.T, atol=1e-12)


_WORDS = st.sampled_from(["river", "bank", "loan", "money", "music", "band", "the", "caf\u00e9", ""])


@settings(max_examples=40, deadline=None)
@given(units=st.lists(st.lists(_WORDS, max_size=8).map(" ".join), min_size=1, max_size=25), seed=st.integers(0, 2**32 - 1))
def test_lsa_vectors_do_not_depend_on_the_order(units, seed):
    """Property: the vector of a unit is the same, bit for bit, whatever the order of the units."""
    order = np.random.default_rng(seed).permutation(len(units))
    encoder = LSAEncoder(n_components=4)
    assert np.array_equal(encoder([units[i] for i in order]), encoder(units)[order])


@settings(max_examples=30, deadline=None)
@given(
    units=st.lists(st.lists(_WORDS, max_size=8).map(" ".join), min_size=1, max_size=30),
    seed=st.integers(0, 2**32 - 1),
    method=st.sampled_from(["c99", "depth"]),
    k=st.sampled_from([None, 2, 4]),
)
def test_fast_path_identical_for_both_methods(units, seed, method, k):
    order = np.random.default_rng(seed).permutation(len(units))
    segmenter = Embedding(method=method, n_segments=k, window=2)
    expected = segmenter([units[i] for i in order])
    assert segmenter.segment_prepared(segmenter.prepare(units), order) == expected


def test_randomized_svd_finds_the_top_singular_triplets():
    # A 600 x 700 matrix with known singular values 2^-i: the randomized path (smaller side above
    # EXACT_SVD_MAX = 500) must give the top ones and their right singular vectors (up to sign).
    rng = np.random.default_rng(5)
    left, _ = np.linalg.qr(rng.standard_normal((600, 40)))
    right, _ = np.linalg.qr(rng.standard_normal((700, 40)))
    values = 2.0 ** -np.arange(40)
    matrix = (left * values) @ right.T
    singular, basis = top_singular(matrix, 10)
    np.testing.assert_allclose(singular[:10], values[:10], rtol=1e-9)
    np.testing.assert_allclose(np.abs(np.einsum("ij,ji->i", basis[:10], right[:, :10])), 1.0, atol=1e-9)
    again, _ = top_singular(matrix.copy(), 10)
    assert np.array_equal(singular, again)  # seeded: the same matrix gives the same bits


def test_lsa_on_a_long_document_does_not_depend_on_the_order():
    # 700 distinct units: the randomized decomposition, learnt on the sorted distinct texts
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in range(900)]
    units = [" ".join(rng.choice(words, size=12).tolist()) for _ in range(700)]
    order = rng.permutation(700)
    encoder = LSAEncoder(stem=False, stopwords=[])
    assert np.array_equal(encoder([units[i] for i in order]), encoder(units)[order])


def test_depth_scores_by_hand():
    # gap 1: left peak 0.9, right climb 0.5 -> 0.8: (0.9-0.5)+(0.8-0.5) = 0.7
    # gap 3: left climb 0.2 -> 0.8, right 0.7: 0.6 + 0.5 = 1.1; the others sit on peaks: 0
    np.testing.assert_allclose(depth_scores(np.array([0.9, 0.5, 0.8, 0.2, 0.7])), [0, 0.7, 0, 1.1, 0])
    # a plateau is climbed through
    np.testing.assert_allclose(depth_scores(np.array([0.9, 0.9, 0.3, 0.3, 1.0])), [0, 0, 1.3, 1.3, 0])


def test_pick_boundaries_by_hand():
    depth = np.array([0, 0.7, 0, 1.1, 0])
    # local maxima at gaps 1 and 3, both above mean - std/2 = 0.36 - 0.229; gap g is boundary g+1
    assert pick_boundaries(depth, None, 2) == [2, 4]
    # gap 3 leaves the last segment 2 units (< 3), gap 1 the first: the document's ends count as taken
    assert pick_boundaries(depth, None, 3) == []
    assert pick_boundaries(np.array([0, 0.7, 0, 1.1, 0, 0]), None, 3) == [4]  # gap 1 too close to gap 3
    # known count 3: gaps 3 and 1, then the distance rule refuses 0, 2, 4; filling by depth
    # (ties: earlier gap) adds gap 0
    assert pick_boundaries(depth, 3, 2) == [1, 2, 4]
    assert pick_boundaries(np.zeros(4), None, 1) == []  # no peak


def test_gap_scores_by_hand():
    vectors = np.array([[1.0, 0], [1, 0], [0, 1], [0, 1]])
    # window 1: cosines of neighbours; window 2, gap 2: (2, 0) against (0, 2) -> 0
    np.testing.assert_allclose(gap_scores(vectors, 1), [1, 0, 1])
    # window 2, gap 1: [1,0] vs [1,0]+[0,1] -> 1/sqrt(2); gap 3: [1,0]+[0,1] vs [0,1]
    np.testing.assert_allclose(gap_scores(vectors, 2), [2**-0.5, 0, 2**-0.5])


def test_last_above_by_hand():
    # gains [0, 0, 1, 0, 0, 0, 0, 0] smoothed with [1,2,4,8,4,2,1] renormalised at the edges:
    # 2/15, 4/19, 8/21, 4/22, 2/22, 1/21, 0, 0; mean 0.1306, std 0.1195, threshold 0.274:
    # only index 2 is above, so 3 splits are kept
    gains = [0, 0, 1, 0, 0, 0, 0, 0]
    kernel = np.array([1, 2, 4, 8, 4, 2, 1.0])
    smoothed = []
    for i in range(8):
        weights = [kernel[j - i + 3] for j in range(8) if abs(j - i) <= 3]
        values = [gains[j] * kernel[j - i + 3] for j in range(8) if abs(j - i) <= 3]
        smoothed.append(sum(values) / sum(weights))
    smoothed = np.array(smoothed)
    above = np.flatnonzero(smoothed > smoothed.mean() + 1.2 * smoothed.std())
    assert last_above(gains, 1.2) == above[-1] + 1 == 3
    assert last_above([], 1.2) == 0


def test_planted_topics_are_found_with_the_known_count():
    for seed in range(5):
        units, boundaries = topical_document(seed)
        assert Embedding(n_segments=len(boundaries) + 1)(units) == boundaries
        found = Embedding(method="depth", n_segments=len(boundaries) + 1)(units)
        assert all(abs(a - b) <= 1 for a, b in zip(found, boundaries)), (found, boundaries)


def test_planted_topics_automatic_c99_finds_every_boundary():
    for seed in range(5):
        units, boundaries = topical_document(seed)
        assert set(boundaries) <= set(Embedding()(units))


def test_custom_encoder():
    def bag_of_words(units):
        vocabulary = sorted({w for u in units for w in u.split()})
        return np.array([[u.split().count(w) for w in vocabulary] for u in units], dtype=float)

    units, boundaries = topical_document(3)
    assert Embedding(embed=bag_of_words, n_segments=len(boundaries) + 1)(units) == boundaries


@pytest.mark.parametrize(
    "embed, message",
    [
        (lambda units: np.ones((len(units), 2, 2)), "one row per unit"),
        (lambda units: np.ones((len(units) + 1, 2)), "one row per unit"),
        (lambda units: np.full((len(units), 2), np.nan), "finite"),
    ],
)
def test_bad_encoder_output(embed, message):
    with pytest.raises(InvalidParameterError, match=f"embed must be .*{message}"):
        Embedding(embed=embed)(["a b", "c d", "e f"])


@pytest.mark.parametrize(
    "params, name",
    [
        ({"method": "cosine"}, "method"),
        ({"window": 0}, "window"),
        ({"smoothing_width": -1}, "smoothing_width"),
        ({"min_distance": 0}, "min_distance"),
        ({"n_segments": 0}, "n_segments"),
        ({"mask_size": 4}, "mask_size"),
    ],
)
def test_bad_parameters(params, name):
    with pytest.raises(StabilityError, match=name):
        Embedding(**params)
    with pytest.raises(InvalidTypeError, match="embed"):
        Embedding(embed="lsa")
    with pytest.raises(InvalidParameterError, match="n_components"):
        LSAEncoder(n_components=0)


def test_boundaries_do_not_depend_on_rounding_noise():
    # BLAS kernels differ by CPU in the last bits of a product: units of disjoint topics have
    # similarity 0 up to about 1e-17, and C99's strict rank comparison must not see that noise
    # (it moved a planted boundary by one unit on some CPUs before the similarities were rounded)
    for seed in range(5):
        units, boundaries = topical_document(seed)
        for noise in range(3):
            rng = np.random.default_rng(noise)

            def noisy(texts):
                vectors = LSAEncoder()(texts)
                return vectors + rng.normal(scale=1e-14, size=vectors.shape)

            assert Embedding(n_segments=len(boundaries) + 1, embed=noisy)(units) == boundaries, (seed, noise)


def test_lsa_zero_rows_for_units_off_the_kept_axes():
    # 8 topics with disjoint vocabularies in 5 dimensions: the units of the topics left out project
    # to 0 up to rounding; they are exactly 0 (normalising ~1e-16 would give them a direction
    # drawn from the BLAS kernel's noise), and the other rows are far from 0
    for seed in range(5):
        units, _ = topical_document(seed, n_topics=8)
        norms = np.linalg.norm(LSAEncoder(n_components=5)(units), axis=1)
        assert (norms == 0).sum() >= 10 and norms[norms > 0].min() > 0.1, seed


_KERNELS_SCRIPT = """
import json, sys
sys.path[:0] = sys.argv[1:]
from conftest import topical_document
from segmenters.cluster import Cluster
from segmenters.embedding import Embedding
documents = [topical_document(seed, n_topics=n)[0] for seed in range(6) for n in (5, 8)]
print(json.dumps([[Embedding()(units), Embedding(method="depth")(units), Cluster()(units), Cluster(n_segments=5)(units)]
                  for units in documents]))
"""


def _openblas_kernels() -> bool:
    """Whether numpy's BLAS is OpenBLAS choosing its kernel at run time on an x86-64 CPU with AVX2."""
    import platform
    from pathlib import Path

    try:
        blas = np.show_config(mode="dicts").get("Build Dependencies", {}).get("blas", {})
    except TypeError:  # numpy < 1.26 prints its configuration and cannot return it: cannot tell
        return False
    cpu = Path("/proc/cpuinfo")
    return ("DYNAMIC_ARCH" in str(blas.get("openblas configuration", "")) and platform.machine() == "x86_64"
            and cpu.exists() and " avx2" in cpu.read_text())


@pytest.mark.skipif(not _openblas_kernels(), reason="needs OpenBLAS with run-time kernels on an x86-64 CPU with AVX2")
def test_the_same_boundaries_whatever_blas_kernel_the_cpu_gets():
    # OpenBLAS picks its kernels by CPU; OPENBLAS_CORETYPE forces one, so two kernels stand for two
    # machines. The LSA segmenters used to differ (rows off the kept axes normalised from rounding
    # noise, ties in similarities broken by it), which failed tests on some CPUs.
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parent
    outputs = set()
    for kernel in ("Prescott", "Haswell"):
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
        done = subprocess.run([sys.executable, "-c", _KERNELS_SCRIPT, str(tests.parent), str(tests)],
                              capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1
