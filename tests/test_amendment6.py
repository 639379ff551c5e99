"""benchmarks/validity/amendment6.py (Amendment 6 of docs/validation-protocol.md): a configuration's
agreement with the other content-dependent segmenters, weighted by their headline, and the
candidates built from it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validity"))
from amendment6 import agreement, combine, f1_within_one


@pytest.mark.parametrize("first, second, expected", [
    ((3, 7), (3, 7), 1.0),        # the same boundaries
    ((3, 7), (4, 9), 0.5),        # 4 matches 3 within one unit, 9 matches nothing: 2 * 1 / 4
    ((1, 2), (2, 3), 1.0),        # one-to-one within one unit: 1-2 and 2-3
    ((5,), (), 0.0),              # a voter that places nothing
    ((), (), 0.0),                # both empty: no credit
    ((2, 4, 6), (3,), 0.5),       # 3 matches one of them: 2 * 1 / 4
])
def test_boundary_f1_within_one_unit_by_hand(first, second, expected):
    assert f1_within_one(first, second) == pytest.approx(expected)


def test_agreement_is_weighted_by_the_voters_headline_and_leaves_the_configuration_out():
    boundaries = {
        "c": {"d1": (3, 7), "d2": ()},
        "v1": {"d1": (3, 7), "d2": (5,)},    # F1 1 with c on d1
        "v2": {"d1": (4, 9), "d2": (5,)},    # F1 1/2 with c on d1
        "blind": {"d1": (10,), "d2": (1,)},  # weight 0: never counts
    }
    weights = {"c": 0.9, "v1": 0.6, "v2": 0.2, "blind": 0.0}
    # d1: (0.6 * 1 + 0.2 * 0.5) / 0.8 = 0.875; d2: c places nothing, 0; mean 0.4375
    assert agreement(boundaries, weights, "c") == pytest.approx(0.4375)
    # a configuration that is not a voter (told the reference count) is scored against all voters
    boundaries["known"] = {"d1": (3,), "d2": (5,)}
    # d1: against c (3, 7), v1 and v2 (3 matches 4) F1 2/3 each: 2/3; d2: c places nothing there,
    # F1 0 with its full weight, v1 and v2 (5,) F1 1: (0.9 * 0 + 0.6 + 0.2) / 1.7
    assert agreement(boundaries, weights, "known") == pytest.approx((2 / 3 + 0.8 / 1.7) / 2)


def test_agreement_without_a_positive_voter_is_zero():
    boundaries = {"c": {"d": (2,)}, "v": {"d": (2,)}}
    assert agreement(boundaries, {"c": 0.5, "v": 0.0}, "c") == 0.0


@pytest.mark.parametrize("t, a, expected", [
    (0.5, 0.8, {"T": 0.5, "gated_A": 0.8, "T_x_A": 0.4, "harmonic": 0.8 / 1.3}),
    (0.0, 0.8, {"T": 0.0, "gated_A": 0.0, "T_x_A": 0.0, "harmonic": 0.0}),    # content-blind: 0
    (-0.1, 0.8, {"T": -0.1, "gated_A": 0.0, "T_x_A": 0.0, "harmonic": 0.0}),
    (0.5, 0.0, {"T": 0.5, "gated_A": 0.0, "T_x_A": 0.0, "harmonic": 0.0}),
])
def test_the_candidates_by_hand(t, a, expected):
    assert combine(t, a) == pytest.approx(expected)


@given(t=st.floats(-1, 1), a=st.floats(0, 1))
def test_no_candidate_credits_a_configuration_without_a_positive_headline(t, a):
    values = combine(t, a)
    if t <= 0:
        assert values["gated_A"] == values["T_x_A"] == values["harmonic"] == 0.0
    else:
        assert 0 <= values["T_x_A"] <= min(t, a) + 1e-12
        assert min(t, a) - 1e-12 <= values["harmonic"] <= max(t, a) + 1e-12 or a == 0
