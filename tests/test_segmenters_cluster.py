"""Clustering segmenter after ClassStruggle's outline (segmenters/cluster.py)."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import segmenters.cluster as cluster_module
from segmenters.cluster import Cluster, _adjust_count, _pairs, evolve_classes, gap_cohesion, initial_classes
from segmenters.embedding import LSAEncoder
from stability.exceptions import InvalidTypeError, StabilityError

from conftest import topical_document


def test_docstring_says_it_is_not_the_authors_code():
    assert "not the authors' code" in cluster_module.__doc__
    assert "not the authors' code" in Cluster.__doc__


# Two pairs of similar units: {0, 1} and {2, 3}, and unit 4 alone.
SIM = np.array(
    [
        [1.0, 0.9, 0.1, 0.0, 0.0],
        [0.9, 1.0, 0.0, 0.2, 0.0],
        [0.1, 0.0, 1.0, 0.8, 0.0],
        [0.0, 0.2, 0.8, 1.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 1.0],
    ]
)


def test_initial_classes_by_hand():
    # row sums 2.0, 2.1, 1.9, 2.0, 1.0: the first seed is unit 1; least similar to it: units 0..4
    # have 0.9, -, 0.0, 0.2, 0.0 -> unit 2 (earlier of the ties 2 and 4); then the closest
    # similarities to {1, 2} are 0.9, -, -, 0.8, 0.0 -> unit 4
    assert initial_classes(SIM, 3).tolist() == [0, 0, 1, 1, 2]
    assert initial_classes(SIM, 1).tolist() == [0, 0, 0, 0, 0]
    assert initial_classes(SIM, 99).tolist() == initial_classes(SIM, 5).tolist()


def test_pairs_and_cohesion_by_hand():
    first, second, weight = _pairs(SIM, proximity=0.5, layout=0.0)  # radius ceil(1.5) = 2
    assert sorted(zip(first.tolist(), second.tolist())) == sorted(
        [(i, i + d) for d in (1, 2) for i in range(5 - d)] + [(i + d, i) for d in (1, 2) for i in range(5 - d)]
    )
    w1, w2 = np.exp(-2.0), np.exp(-4.0)
    # gap 1 (between units 0 and 1) is straddled by (0,1) and (0,2): 0.9 w1 + 0.1 w2
    # gap 2: (1,2), (0,2), (1,3): 0 + 0.1 w2 + 0.2 w2; gap 3: (2,3), (1,3), (2,4): 0.8 w1 + 0.2 w2
    # gap 4: (3,4), (2,4): 0
    expected = [0.9 * w1 + 0.1 * w2, 0.3 * w2, 0.8 * w1 + 0.2 * w2, 0.0]
    np.testing.assert_allclose(gap_cohesion(5, (first, second, weight)), expected)


def test_evolution_moves_units_to_the_class_around_them():
    # classes 0 0 1 0 0 on five identical units: unit 2 is surrounded by class 0 and joins it
    pairs = _pairs(np.ones((5, 5)), proximity=1.0, layout=0.0)
    assert evolve_classes(np.array([0, 0, 1, 0, 0]), pairs, 10).tolist() == [0, 0, 0, 0, 0]
    assert evolve_classes(np.array([0, 0, 1, 0, 0]), pairs, 0).tolist() == [0, 0, 1, 0, 0]
    # with no similarity and no layout nothing pulls a unit: classes stay
    pairs = _pairs(np.eye(5), proximity=1.0, layout=0.0)
    assert evolve_classes(np.array([0, 1, 0, 1, 0]), pairs, 10).tolist() == [0, 1, 0, 1, 0]


def test_adjust_count_by_hand():
    cohesion = np.array([0.5, 0.1, 0.9, 0.1, 0.3])  # gaps 1..5
    assert _adjust_count([1, 2, 3], cohesion, 1) == [2]  # remove 3 (0.9), then 1 (0.5)
    assert _adjust_count([3], cohesion, 3) == [2, 3, 4]  # add 2 and 4 (0.1; the earlier first)
    assert _adjust_count([], cohesion, 5) == [1, 2, 3, 4, 5]


def test_planted_topics():
    for seed in range(5):
        units, boundaries = topical_document(seed)
        assert Cluster(n_segments=len(boundaries) + 1)(units) == boundaries
        assert Cluster()(units) == boundaries


_WORDS = st.sampled_from(["river", "bank", "loan", "money", "music", "band", "the", "caf\u00e9", ""])


@settings(max_examples=30, deadline=None)
@given(
    units=st.lists(st.lists(_WORDS, max_size=8).map(" ".join), min_size=1, max_size=30),
    seed=st.integers(0, 2**32 - 1),
    k=st.sampled_from([None, 1, 3, 6]),
)
def test_fast_path_and_count(units, seed, k):
    order = np.random.default_rng(seed).permutation(len(units))
    segmenter = Cluster(n_segments=k, proximity=1.0)
    expected = segmenter([units[i] for i in order])
    assert segmenter.segment_prepared(segmenter.prepare(units), order) == expected
    if k is not None:
        assert len(expected) == min(k, len(units)) - 1


def test_custom_encoder_and_parameters_exposed():
    units, boundaries = topical_document(1)
    seg = Cluster(embed=LSAEncoder(n_components=8, stem=False), proximity=2.5)
    assert seg(units) == boundaries
    assert seg.get_params()["proximity"] == 2.5 and seg.get_params()["embed"].n_components == 8


@pytest.mark.parametrize(
    "params, name",
    [
        ({"n_segments": 0}, "n_segments"),
        ({"n_classes": 1.5}, "n_classes"),
        ({"segment_length": 0.5}, "segment_length"),
        ({"proximity": 0}, "proximity"),
        ({"layout": -1}, "layout"),
        ({"layout": float("nan")}, "layout"),
        ({"max_iter": -1}, "max_iter"),
    ],
)
def test_bad_parameters(params, name):
    with pytest.raises(StabilityError, match=name):
        Cluster(**params)
    with pytest.raises(InvalidTypeError, match="embed"):
        Cluster(embed=3)


def test_boundaries_do_not_depend_on_rounding_noise():
    # as for the embedding segmenter: similarities equal up to the BLAS kernel's last bits (0
    # between disjoint vocabularies: most pairs with 8 topics in 5 dimensions) must not decide
    # seeds or classes by that noise
    for seed in range(5):
        units, boundaries = topical_document(seed, n_topics=8)
        for noise in range(3):
            rng = np.random.default_rng(noise)

            def noisy(texts):  # units off the kept axes are exactly 0 (test_lsa_zero_rows...)
                vectors = LSAEncoder(n_components=5)(texts)
                return vectors + rng.normal(scale=1e-14, size=vectors.shape) * vectors.any(axis=1)[:, None]

            for k in (None, len(boundaries) + 1):
                assert Cluster(n_segments=k, embed=noisy)(units) == Cluster(n_segments=k)(units), (seed, noise, k)
