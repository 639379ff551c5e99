"""Hypothesis property tests over every metric: optimum on identity, documented ranges,
symmetry where the metric is symmetric, the same value whichever constructor built the input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stability.metrics import (
    boundary_prf,
    boundary_similarity,
    compute_all,
    cov_d,
    cov_n,
    expected_windowdiff,
    fleiss_kappa,
    ghd,
    multi_reference_metrics,
    nwin,
    pk,
    pr_error,
    segmentation_similarity,
    tnwin,
    windowdiff,
    windowdiff_corrected,
    wisebe,
)
from stability.segmentation import Segmentation

SETTINGS = settings(max_examples=100, deadline=None)


@st.composite
def segmentations(draw, n_units):
    flags = draw(st.lists(st.booleans(), min_size=n_units - 1, max_size=n_units - 1))
    return Segmentation([g + 1 for g, f in enumerate(flags) if f], n_units)


@st.composite
def pairs(draw, min_units=2, max_units=40):
    n = draw(st.integers(min_units, max_units))
    return draw(segmentations(n)), draw(segmentations(n))


@st.composite
def pairs_with_k(draw):
    ref, hyp = draw(pairs())
    k = draw(st.integers(1, ref.n_units - 1))
    return ref, hyp, k


@st.composite
def reference_sets(draw):
    n = draw(st.integers(2, 40))
    m = draw(st.integers(2, 4))
    return [draw(segmentations(n)) for _ in range(m)], draw(segmentations(n))


@SETTINGS
@given(pairs_with_k())
def test_identity_gives_the_optimum(data):
    ref, _, k = data
    assert pk(ref, ref, k) == 0.0
    assert windowdiff(ref, ref, k) == 0.0 and windowdiff(ref, ref, k, weighted=True) == 0.0
    assert windowdiff_corrected(ref, ref, k) == 0.0
    assert nwin(ref, ref, k) == 0.0 and tnwin(ref, ref, k) == 0.0
    assert pr_error(ref, ref, k + 1) == 0.0
    assert ghd(ref, ref) == 0.0
    assert boundary_similarity(ref, ref) == 1.0 and segmentation_similarity(ref, ref) == 1.0
    assert tuple(boundary_prf(ref, ref)) == (1.0, 1.0, 1.0)
    assert cov_n(ref, ref) == 1.0 and cov_d(ref, ref) == 1.0
    assert wisebe([ref, ref], ref) == 1.0 and fleiss_kappa([ref, ref]) == 1.0


@SETTINGS
@given(pairs_with_k())
def test_values_lie_in_their_documented_ranges(data):
    ref, hyp, k = data
    for value in (pk(ref, hyp, k), windowdiff(ref, hyp, k), windowdiff_corrected(ref, hyp, k),
                  pr_error(ref, hyp, k + 1), boundary_similarity(ref, hyp), segmentation_similarity(ref, hyp),
                  cov_n(ref, hyp), cov_d(ref, hyp), *boundary_prf(ref, hyp, 2)):
        assert isinstance(value, float) and 0.0 <= value <= 1.0
    assert 0.0 <= windowdiff(ref, hyp, k, weighted=True) <= k
    assert 0.0 <= windowdiff_corrected(ref, hyp, k, weighted=True) <= k
    assert ghd(ref, hyp) >= 0.0
    # GHD never exceeds deleting every hypothesis boundary and inserting every reference one
    assert ghd(ref, hyp) <= 2.0 * (ref.n_boundaries + hyp.n_boundaries)
    e = expected_windowdiff(ref.n_units, ref.n_boundaries, hyp.n_boundaries, k)
    assert 0.0 <= e <= k
    assert 0.0 <= expected_windowdiff(ref.n_units, ref.n_boundaries, hyp.n_boundaries, k, weighted=False) <= 1.0
    value = nwin(ref, hyp, k)
    assert value >= 0.0 and (math.isfinite(value) or e == 0.0)


@SETTINGS
@given(pairs_with_k())
def test_symmetric_metrics_are_symmetric(data):
    ref, hyp, k = data
    assert pk(ref, hyp, k) == pk(hyp, ref, k)
    assert windowdiff(ref, hyp, k) == windowdiff(hyp, ref, k)
    assert windowdiff(ref, hyp, k, weighted=True) == windowdiff(hyp, ref, k, weighted=True)
    assert windowdiff_corrected(ref, hyp, k) == windowdiff_corrected(hyp, ref, k)
    assert expected_windowdiff(ref.n_units, ref.n_boundaries, hyp.n_boundaries, k) == pytest.approx(
        expected_windowdiff(ref.n_units, hyp.n_boundaries, ref.n_boundaries, k), abs=1e-12
    )
    assert ghd(ref, hyp) == ghd(hyp, ref)  # equal insertion and deletion costs
    assert ghd(ref, hyp, 1.0, 3.0) == ghd(hyp, ref, 3.0, 1.0)
    assert boundary_similarity(ref, hyp) == boundary_similarity(hyp, ref)
    assert segmentation_similarity(ref, hyp) == segmentation_similarity(hyp, ref)
    assert cov_n(ref, hyp) == cov_n(hyp, ref) and cov_d(ref, hyp) == cov_d(hyp, ref)
    forward, backward = boundary_prf(ref, hyp, 1), boundary_prf(hyp, ref, 1)
    assert (forward.precision, forward.recall, forward.f1) == (backward.recall, backward.precision, backward.f1)
    # Pr_error is not symmetric (misses are conditioned on reference windows) - by design


@SETTINGS
@given(pairs())
def test_constructors_give_the_same_values(data):
    ref, hyp = data
    from_masses = compute_all(Segmentation.from_masses(ref.masses), Segmentation.from_masses(hyp.masses))
    from_gaps = compute_all(Segmentation.from_gaps(ref.gaps), Segmentation.from_gaps(hyp.gaps))
    from_arrays = compute_all(Segmentation.from_boundaries(ref.boundary_array(), ref.n_units),
                              Segmentation.from_masses(np.array(hyp.masses, dtype=np.int32)))
    # a chance-corrected F1 is NaN when every placement matches (no boundary on either side)
    spelled = [{key: "nan" if v != v else v for key, v in d.items()}
               for d in (compute_all(ref, hyp), from_masses, from_gaps, from_arrays)]
    assert spelled[0] == spelled[1] == spelled[2] == spelled[3]


@SETTINGS
@given(reference_sets())
def test_multi_reference_ranges_and_forms(data):
    refs, cand = data
    scores = multi_reference_metrics(refs, cand)
    for key in ("wisebe", "wisebe_f1", "wisebe_precision", "wisebe_recall", "agreement_ratio", "mean_f1"):
        assert 0.0 <= scores[key] <= 1.0
    assert scores["wisebe"] <= scores["wisebe_f1"]
    for key in ("fleiss_kappa", "fleiss_kappa_boundaries"):
        assert -1.0 - 1e-12 <= scores[key] <= 1.0 + 1e-12
    assert scores == multi_reference_metrics([Segmentation.from_masses(r.masses) for r in refs],
                                             Segmentation.from_gaps(cand.gaps))
    # references are a set: their order does not matter
    assert scores == pytest.approx(multi_reference_metrics(refs[::-1], cand))


@SETTINGS
@given(pairs(), st.integers(0, 5))
def test_boundary_prf_monotone_in_tolerance(data, tol):
    ref, hyp = data
    assert boundary_prf(ref, hyp, tol).matches <= boundary_prf(ref, hyp, tol + 1).matches
