"""The headline stability score chosen in docs/validation-protocol.md (issue 11): the count-aware
shuffle correction with no credit for documents without boundaries. Reference values are hand
computations (comments)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stability.exceptions import InvalidParameterError, InvalidTypeError
from stability.runner import stability_test
from stability.stats import f1_score
from stability.scores import (
    RestartCounts,
    chance_scores,
    headline_document,
    restart_f1,
    restart_precision_recall,
    shuffle_corrected_f1,
)


def counts(matched, predicted, initial):
    return RestartCounts(np.array(matched), np.array(predicted), initial)


# ---------------------------------------------------------------------------------------------
# hand-computed values
# ---------------------------------------------------------------------------------------------
def test_restart_f1_by_hand():
    # P = (1 + 1/3) / 2 = 2/3, R = (1/2 + 1/2) / 2 = 1/2, F1 = 2 (2/3)(1/2) / (2/3 + 1/2) = 4/7
    assert restart_f1(counts([1, 1], [1, 3], 2)) == pytest.approx(4 / 7)
    assert math.isnan(restart_f1(counts([], [], 2)))


def test_headline_document_by_hand():
    within = counts([2, 1], [2, 2], 2)   # P = R = 0.75, F = 0.75
    shuffle = counts([1, 0], [2, 2], 2)  # P = R = 0.25, S = 0.25
    # 20 units, 19 gaps: chance P = 2/19, R = 2/19, chance F1 = 2/19 < S, so C = S
    assert headline_document(within, shuffle, 20) == pytest.approx((0.75 - 0.25) / 0.75)
    # 4 units, 3 gaps: chance F1 = 2/3 > S, so C = 2/3: (0.75 - 2/3) / (1/3) = 0.25
    assert headline_document(within, shuffle, 4) == pytest.approx(0.25)


def test_headline_document_corrects_by_the_chance_f1():
    # 5 units, 4 gaps, B0 of 2 boundaries, restarts of 3: within P = 2/3, R = 1, F = 0.8; the
    # shuffle control matches none (S = 0); chance P = 2/4, R = 3/4, chance F1 = 0.6 = C, so the
    # headline is (0.8 - 0.6) / 0.4 = 0.5 (hand; the chance precision or recall would give 0.6 or 0.2)
    within, shuffle = counts([2, 2], [3, 3], 2), counts([0, 0], [3, 3], 2)
    assert headline_document(within, shuffle, 5) == pytest.approx(0.5)
    # a one-unit document is accepted: no boundary, no credit
    assert headline_document(counts([0], [0], 0), counts([0], [0], 0), 1) == 0.0


def test_every_gap_a_boundary_scores_zero():
    # 3 units, 2 gaps, both boundaries, found again every time: F = 1 but chance F1 = 1 too
    within = counts([2, 2], [2, 2], 2)
    shuffle = counts([1, 0], [2, 2], 2)
    assert headline_document(within, shuffle, 3) == 0.0


def test_no_boundary_document_gets_no_credit():
    # F = 1 by the zero rule, S < 1 (the shuffled text gets boundaries): today's score gives 1.
    within, shuffle = counts([0, 0], [0, 0], 0), counts([0, 0], [2, 0], 0)
    assert restart_f1(within) == 1.0 and restart_f1(shuffle) < 1.0
    assert shuffle_corrected_f1(restart_f1(within), restart_f1(shuffle)) == 1.0
    assert headline_document(within, shuffle, 10) == 0.0


def test_one_no_credit_rule_for_no_boundary_and_term_blind():
    # the two rules that give no credit whatever the restarts live in one function
    # (scores.no_credit) that every form of the headline reads: from counts, from F1 values and
    # the interval. A stable document (F = 1, S = 0) scores 1 but 0 once term-blind; NaN (no
    # shuffle control) still wins over both rules.
    from stability.scores import count_corrected_f1, headline_interval, no_credit

    within, shuffle = counts([2, 2], [2, 2], 2), counts([0, 0], [2, 2], 2)
    assert headline_document(within, shuffle, 40) > 0.9
    assert headline_document(within, shuffle, 40, term_blind=True) == 0.0
    assert count_corrected_f1(1.0, 0.0, 0.05, 2) == 1.0
    assert count_corrected_f1(1.0, 0.0, 0.05, 2, term_blind=True) == 0.0
    assert math.isnan(count_corrected_f1(1.0, float("nan"), 0.05, 2, term_blind=True))
    ones, zeros = np.ones(4), np.zeros(4)
    assert headline_interval(ones, zeros, 0.05, 2) == (1.0, 1.0)
    assert headline_interval(ones, zeros, 0.05, 2, term_blind=True) == (0.0, 0.0)
    assert [no_credit(0), no_credit(2), no_credit(2, True), no_credit(0, True)] == [True, False, True, True]


def test_content_blind_segmenter_scores_zero():
    # the shuffle control reproduces the boundaries: S = 1
    within, shuffle = counts([3, 3], [3, 3], 3), counts([3, 3], [3, 3], 3)
    assert headline_document(within, shuffle, 30) == 0.0


def test_no_restart_is_nan():
    assert math.isnan(headline_document(counts([], [], 2), counts([1], [2], 2), 10))


def test_a_missing_side_is_nan_before_any_other_rule():
    # NaN (a stream without restarts) wins over the rules that return 0: S = 1 (content-blind)
    # and a document without boundaries (no credit); mutation testing found neither order tested
    from stability.scores import count_corrected_f1

    assert math.isnan(shuffle_corrected_f1(float("nan"), 1.0))
    assert math.isnan(count_corrected_f1(float("nan"), 0.4, 0.1, 0))
    assert math.isnan(count_corrected_f1(0.8, float("nan"), 0.1, 0))


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameterError, match="shuffle"):
        headline_document(counts([1], [1], 1), counts([1], [1], 2), 10)
    for bad in (0, 2.5, True):
        with pytest.raises((InvalidParameterError, InvalidTypeError), match="n_units"):
            headline_document(counts([1], [1], 1), counts([1], [1], 1), bad)


# ---------------------------------------------------------------------------------------------
# against the stability test itself
# ---------------------------------------------------------------------------------------------
def _blocks(units):
    """A segmenter that cuts where the first word changes (content-based, deterministic)."""
    return [i for i in range(1, len(units)) if units[i].split()[0] != units[i - 1].split()[0]]


def test_headline_from_a_stability_result_matches_its_shuffle_corrected_score():
    units = [f"{w} x{i % 3}" for w in ("apple", "pear", "plum") for i in range(4)]
    result = stability_test(_blocks, units, n_restarts=20, seed=1)
    within = restart_precision_recall(result.segmentation.boundaries, result.restart_boundaries)
    shuffle = restart_precision_recall(result.segmentation.boundaries, result.shuffle.restart_boundaries)
    assert result.n_boundaries > 0
    chance = chance_scores(result.segmentation.boundaries, within.predicted, len(units))[2]
    assert result.shuffle_f1 >= chance  # so the count-aware baseline is the shuffle control
    assert headline_document(within, shuffle, len(units)) == pytest.approx(result.shuffle_corrected)


# ---------------------------------------------------------------------------------------------
# invariants
# ---------------------------------------------------------------------------------------------
@st.composite
def restart_counts(draw, initial=None):
    m0 = draw(st.integers(0, 6)) if initial is None else initial
    n = draw(st.integers(1, 8))
    predicted = draw(st.lists(st.integers(0, 8), min_size=n, max_size=n))
    matched = [draw(st.integers(0, min(m0, p))) for p in predicted]
    return counts(matched, predicted, m0)


@st.composite
def document_pair(draw):
    within = draw(restart_counts())
    return within, draw(restart_counts(initial=within.initial))


@settings(max_examples=300, deadline=None)
@given(document_pair(), st.integers(1, 30))
def test_headline_invariants(pair, extra):
    within, shuffle = pair
    n_units = max(within.initial, *within.predicted, *shuffle.predicted) + extra + 1  # room for every set
    value = headline_document(within, shuffle, n_units)
    assert value <= 1.0 + 1e-12
    assert headline_document(within, within, n_units) <= 0.0   # as stable as its own shuffle: no credit
    # never above the plain shuffle correction: the count-aware baseline is at least S
    if within.initial > 0:
        plain = shuffle_corrected_f1(restart_f1(within), restart_f1(shuffle))
        assert value <= plain + 1e-12
    else:
        assert value == 0.0
    # a shuffle control that reproduces every boundary (S = 1) leaves nothing
    perfect = counts([within.initial] * 3, [within.initial] * 3, within.initial)
    assert headline_document(within, perfect, n_units) == 0.0


# ---------------------------------------------------------------------------------------------
# the per-document interval over restarts (StabilityResult.headline_ci)
# ---------------------------------------------------------------------------------------------
def test_headline_interval_is_the_bootstrap_of_the_point_estimate():
    from stability.scores import count_corrected_f1, headline_interval
    from stability.stats import bootstrap_f1_samples, percentile_interval

    wp, wr = np.array([1.0, 0.5, 1.0, 0.0, 1.0]), np.array([1.0, 0.5, 0.5, 0.0, 1.0])
    sp, sr = np.array([0.0, 1.0, 0.0, 0.5]), np.array([0.0, 0.5, 0.0, 0.5])
    f = bootstrap_f1_samples(wp, wr, np.random.default_rng(7), 300)
    s = bootstrap_f1_samples(sp, sr, np.random.default_rng(8), 300)
    low, high = headline_interval(f, s, 0.2, 2, 0.9)
    # the same replicates, one at a time, through the scalar definition
    assert (low, high) == pytest.approx(percentile_interval([count_corrected_f1(a, b, 0.2, 2) for a, b in zip(f, s)], 0.9))
    assert low < count_corrected_f1(f1_score(wp.mean(), wr.mean()), f1_score(sp.mean(), sr.mean()), 0.2, 2) < high


def test_headline_interval_edge_cases():
    from stability.scores import headline_interval

    ones, zeros = np.ones(4), np.zeros(4)
    assert headline_interval(ones, ones, 0.1, 3) == (0.0, 0.0)  # S = 1: content-blind
    assert headline_interval(ones, zeros, 0.1, 0) == (0.0, 0.0)  # no boundary: no credit
    # one replicate is an interval of one point: (0.9 - 0.2) / (1 - 0.2) = 0.875 (hand)
    assert headline_interval(np.array([0.9]), np.array([0.2]), 0.1, 2) == pytest.approx((0.875, 0.875))
    # the default confidence is 0.95
    f, s = np.linspace(0.5, 1.0, 41), np.linspace(0.0, 0.4, 41)[::-1]
    assert headline_interval(f, s, 0.1, 2) == headline_interval(f, s, 0.1, 2, confidence=0.95)
    assert headline_interval(f, s, 0.1, 2) != headline_interval(f, s, 0.1, 2, confidence=0.5)
    assert headline_interval(ones, zeros, 0.2, 3) == (1.0, 1.0)  # every restart agrees
    assert all(math.isnan(x) for x in headline_interval(ones, np.full(4, np.nan), 0.1, 3))  # no shuffle restart


def test_the_f1_interval_is_unchanged_by_sharing_its_replicates():
    # bootstrap_f1 = percentile of bootstrap_f1_samples, draw for draw (the intervals of older runs hold)
    from stability.stats import bootstrap_f1, bootstrap_f1_samples, percentile_interval

    p, r = np.array([1.0, 0.5, 0.0, 1.0]), np.array([0.5, 0.5, 0.0, 1.0])
    samples = bootstrap_f1_samples(p, r, np.random.default_rng(3), 200)
    assert bootstrap_f1(p, r, np.random.default_rng(3), 0.9, 200) == percentile_interval(samples, 0.9)
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 4, size=(200, 4))
    expected = [f1_score(p[i].mean(), r[i].mean()) for i in idx]
    assert samples == pytest.approx(expected)


def test_a_run_reports_the_interval_that_the_study_recomputes(tmp_path):
    from stability.runner import evaluate
    from stability.corpus import Document
    from stability.study.sensitivity import interval_at

    docs = [Document(f"d{k}", [f"{w} x{(i + k) % 3}" for w in ("apple", "pear", "plum", "fig") for i in range(3 + k)])
            for k in range(3)]
    run = evaluate({"blocks": _blocks, "even": "even"}, docs, n_restarts=12, seed=3, n_bootstrap=200)
    for r in run.documents["blocks"]:
        low, high = r.headline_ci
        assert low <= high
        assert r.headline_ci == interval_at(r, confidence=0.95, n_bootstrap=200)  # same generator, same draws
    assert all(r.headline_ci == (0.0, 0.0) for r in run.documents["even"])  # content-blind
    plain = stability_test(_blocks, docs[0].units, n_restarts=12, shuffle_control=False)
    assert all(math.isnan(x) for x in plain.headline_ci)


def test_results_written_before_the_interval_get_the_one_the_run_would_have_stored(tmp_path):
    import json

    from stability.corpus import Document
    from stability.runner import evaluate
    from stability.store import load_results

    docs = [Document(f"d{k}", [f"{w} x{(i + k) % 3}" for w in ("apple", "pear", "plum") for i in range(4)])
            for k in range(2)]
    path = tmp_path / "results.jsonl"
    fresh = evaluate({"blocks": _blocks}, docs, n_restarts=15, seed=5, n_bootstrap=300, output=path)
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines[1:]]
    for record in records:
        del record["result"]["headline_ci"]
    old = [lines[0]] + [json.dumps(record) for record in records]
    assert all("headline_ci" not in line for line in old[1:])
    path.write_text("\n".join(old) + "\n", encoding="utf-8")
    loaded = load_results(path)
    for before, after in zip(fresh.documents["blocks"], loaded.documents["blocks"]):
        assert after.headline_ci == before.headline_ci and not math.isnan(after.headline_ci[0])


def test_a_results_repr_shows_the_headline():
    # it showed shuffle_corrected, the headline before count_corrected
    from stability.catalogue import HEADLINE

    result = stability_test(lambda units: [3, 6], ["w"] * 9, n_restarts=3)
    text = repr(result)
    assert f", {HEADLINE.name}={HEADLINE.value(result):.3f}, " in text and "shuffle_corrected" not in text
