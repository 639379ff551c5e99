"""The stability test on one document: scores, controls, reproducibility, stopping, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from conftest import cohesion_segmenter, topical_document
from stability import (
    InvalidParameterError,
    SegmenterError,
    SegmenterOutputError,
    get_segmenter,
    stability_test,
)
from stability.permutations import Stream, doc_key, restart_order, within_segment_order
from stability.scores import chance_scores, f1_score, restart_precision_recall
from stability.segmentation import Segmentation


def even(units):
    return list(range(4, len(units), 4))


# --------------------------------------------------------------------------------------------
# scores
# --------------------------------------------------------------------------------------------
def test_precision_recall_by_hand():
    # B0 = {3, 7}; restarts {3, 7}, {3}, {3, 5, 8}, {}:
    # P = 2/2, 1/1, 1/3, 0 (empty vs non-empty) ; R = 2/2, 1/2, 1/2, 0/2
    counts = restart_precision_recall([3, 7], [(3, 7), (3,), (3, 5, 8), ()])
    assert counts.precision.tolist() == [1.0, 1.0, 1 / 3, 0.0]
    assert counts.recall.tolist() == [1.0, 0.5, 0.5, 0.0]
    stp, st_r = np.mean([1, 1, 1 / 3, 0]), np.mean([1, 0.5, 0.5, 0])
    # eq. 11: F1 of the averages, not the average of per-restart F1
    assert f1_score(stp, st_r) == pytest.approx(2 * stp * st_r / (stp + st_r))


def test_zero_division_rule():
    # both empty -> 1.0 ; one empty -> 0.0
    both = restart_precision_recall([], [()])
    assert both.precision.tolist() == [1.0] and both.recall.tolist() == [1.0]
    extra = restart_precision_recall([], [(2,)])
    assert extra.precision.tolist() == [0.0] and extra.recall.tolist() == [0.0]
    assert f1_score(0.0, 0.0) == 0.0


def test_tolerance_matching_is_one_to_one():
    # B0 = {5}; restart {4, 6}: with tolerance 1 only one of them matches.
    counts = restart_precision_recall([5], [(4, 6)], tolerance=1)
    assert counts.matched.tolist() == [1]
    assert counts.precision.tolist() == [0.5] and counts.recall.tolist() == [1.0]


@pytest.mark.parametrize("n_units, initial, counts", [(30, [4, 9, 17, 25], [4, 2, 6, 0]), (12, [], [0, 3]), (20, [1, 2, 3], [19])])
def test_chance_level_matches_simulation(n_units, initial, counts):
    """The closed form of chance_scores against Monte-Carlo draws of random boundaries."""
    exp_p, exp_r, chance = chance_scores(initial, np.array(counts), n_units)
    rng = np.random.default_rng(123)
    sims_p, sims_r = [], []
    for _ in range(4000):
        restarts = [tuple(sorted((rng.choice(n_units - 1, size=m, replace=False) + 1).tolist())) for m in counts]
        c = restart_precision_recall(initial, restarts)
        sims_p.append(c.precision.mean())
        sims_r.append(c.recall.mean())
    assert exp_p == pytest.approx(np.mean(sims_p), abs=0.01)
    assert exp_r == pytest.approx(np.mean(sims_r), abs=0.01)
    assert chance == pytest.approx(f1_score(np.mean(sims_p), np.mean(sims_r)), abs=0.01)


def test_chance_level_by_hand_for_one_boundary_and_for_none():
    # B0 = {2, 5} over 9 units (8 gaps), restarts of one boundary: one gap drawn of 8 lands on B0
    # with probability 2/8, so E[P] = 2/8 and E[R] = E[X] / 2 = 1/8; F1 = 2 (1/4)(1/8) / (3/8) = 1/6
    assert chance_scores([2, 5], np.array([1, 1]), 9) == pytest.approx((0.25, 0.125, 1 / 6))
    # B0 empty, restarts of 0, 0 and 3 boundaries: the empty restarts score P = R = 1 (both sets
    # empty), the third P = R = 0 (one side empty), so E[P] = E[R] = 2/3 and F1 = 2/3
    assert chance_scores([], np.array([0, 0, 3]), 9) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    # no restart: nothing to expect (it was (1, 1, 1), a perfect chance level that made any
    # corrected score undefined or negative); NaN as restart_f1 and boundary_confidence give
    assert all(np.isnan(chance_scores([2, 5], np.array([], dtype=np.int64), 9)))
    assert all(np.isnan(chance_scores([], [], 1)))
    # the same with a tolerance (nothing to reach), without a 0/0 warning for the empty restarts
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert chance_scores([], np.array([0, 0, 3]), 9, tolerance=1) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    # B0 = {4} (one boundary), restarts of 2 of the 8 gaps: E[P] = 1/8, E[R] = E[X] / 1 = 2/8,
    # F1 = 2 (1/8)(1/4) / (3/8) = 1/6
    assert chance_scores([4], np.array([2]), 9) == pytest.approx((0.125, 0.25, 1 / 6))
    # one unit, no gap: every set is empty and the chance level is 1 (the docstring's rule)
    assert chance_scores([], np.array([0, 0]), 1) == (1.0, 1.0, 1.0)


def test_chance_level_with_tolerance_is_higher():
    exact = chance_scores([5, 10, 15], np.array([3, 3]), 20)[2]
    tolerant = chance_scores([5, 10, 15], np.array([3, 3]), 20, tolerance=1)[2]
    assert tolerant > exact + 0.1


# --------------------------------------------------------------------------------------------
# permutations
# --------------------------------------------------------------------------------------------
def test_within_segment_permutations_keep_segments_and_cover_all_orders():
    labels = Segmentation([3], 5).label_array()
    seen = set()
    for r in range(300):
        order = restart_order(0, 7, Stream.WITHIN, r, labels)
        assert sorted(order[:3].tolist()) == [0, 1, 2] and sorted(order[3:].tolist()) == [3, 4]
        seen.add(tuple(order.tolist()))
    assert len(seen) == 3 * 2 * 1 * 2  # every within-segment order occurs


def test_permutations_are_keyed_not_sequential():
    labels = np.zeros(20, dtype=np.int64)
    a = restart_order(5, doc_key("d1"), Stream.WITHIN, 17, labels)
    b = restart_order(5, doc_key("d1"), Stream.WITHIN, 17, labels)
    c = restart_order(5, doc_key("d2"), Stream.WITHIN, 17, labels)
    d = restart_order(5, doc_key("d1"), Stream.SHUFFLE, 17, labels)
    assert a.tolist() == b.tolist() and a.tolist() != c.tolist() and a.tolist() != d.tolist()
    assert within_segment_order(labels, np.random.default_rng(0)).shape == (20,)


# --------------------------------------------------------------------------------------------
# the test and its controls
# --------------------------------------------------------------------------------------------
def test_even_spacing_is_perfectly_stable_and_flagged_content_blind():
    units, _ = topical_document(0)
    result = stability_test(even, units, n_restarts=30)
    assert result.f1 == 1.0 and result.precision == 1.0 and result.recall == 1.0
    assert result.f1_ci == (1.0, 1.0)
    assert result.shuffle.f1 == 1.0
    assert result.content_blind is True
    assert result.deterministic is True
    assert all(v == 1.0 for v in result.boundary_confidence.values())
    assert result.spurious_boundaries == {}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lexical_cohesion_is_stable_on_topical_documents_and_not_flagged(seed):
    units, reference = topical_document(seed)
    result = stability_test(cohesion_segmenter, units, n_restarts=40, seed=seed)
    assert result.f1 >= 0.85
    assert result.shuffle.f1 <= result.f1 - 0.5  # much less stable once the topics are destroyed
    assert result.content_blind is False
    assert result.corrected_f1 > 0.8
    assert result.chance_f1 < 0.2
    assert result.deterministic is True
    assert set(reference) <= set(result.segmentation.boundaries) | {1}


def test_unseeded_random_segmenter_is_flagged_nondeterministic():
    units, _ = topical_document(0)
    result = stability_test(get_segmenter("random", seed=None, rate=0.3), units, n_restarts=10)
    assert result.deterministic is False
    assert result.self_agreement_f1 < 1.0
    seeded = stability_test(get_segmenter("random", seed=3, rate=0.3), units, n_restarts=10)
    assert seeded.deterministic is True and seeded.content_blind is True


def test_per_restart_arrays_and_spread():
    units, _ = topical_document(4)
    result = stability_test(cohesion_segmenter, units, n_restarts=25)
    assert result.n_restarts == 25 == len(result.restart_precision) == len(result.restart_boundaries)
    assert result.precision == pytest.approx(result.restart_precision.mean())
    assert result.recall == pytest.approx(result.restart_recall.mean())
    assert result.f1 == pytest.approx(f1_score(result.precision, result.recall))
    assert result.precision_std == pytest.approx(result.restart_precision.std())
    low, high = result.f1_ci
    assert low <= result.f1 <= high


def test_boundary_confidence_and_spurious_boundaries_count_restarts():
    # A segmenter whose second boundary depends on which unit comes first: under within-segment
    # permutations of the first segment (5 units), "u0" stays first in 1/5 of the orders.
    def picky(units):
        return [5, 8] if units[0] == "u0" else [5, 9]

    units = [f"u{i}" for i in range(12)]
    result = stability_test(picky, units, n_restarts=200, shuffle_control=False)
    labels = Segmentation([5, 8], 12).label_array()
    firsts = [restart_order(0, doc_key(None), Stream.WITHIN, r, labels)[0] for r in range(200)]
    expected = np.mean([f == 0 for f in firsts])  # computed from the same keyed permutations
    assert result.boundary_confidence == {5: 1.0, 8: pytest.approx(expected)}
    assert result.spurious_boundaries == {9: pytest.approx(1 - expected)}
    assert 0.1 < expected < 0.3


def test_boundary_confidence_and_spurious_boundaries_with_a_tolerance():
    from stability.scores import boundary_confidence, spurious_boundaries

    # B0 = {5, 10}, tolerance 1, matched one to one left to right (hand):
    #   (4, 10)    -> 5~4, 10~10
    #   (6, 9, 12) -> 5~6, 10~9; 12 unmatched
    #   (5,)       -> 5~5; 10 missed
    #   (4, 6)     -> 5~4; 6 unmatched (5 is taken, 10 is 4 away)
    # so 5 comes back 4 times in 4, 10 twice; 12 and 6 are spurious once each
    restarts = [(4, 10), (6, 9, 12), (5,), (4, 6)]
    assert boundary_confidence([5, 10], restarts, tolerance=1) == {5: 1.0, 10: 0.5}
    assert spurious_boundaries([5, 10], restarts, tolerance=1) == {6: 0.25, 12: 0.25}
    # exact matching of the same restarts: 5 comes back once, 10 once
    assert boundary_confidence([5, 10], restarts) == {5: 0.25, 10: 0.25}
    assert spurious_boundaries([5, 10], restarts) == {4: 0.5, 6: 0.5, 9: 0.25, 12: 0.25}


def test_tolerance_forgives_near_misses():
    def jittery(units):  # boundary at 10, or 11 when the unit at 0 is not the original first
        return [10] if units[0] == "u0" else [11]

    units = [f"u{i}" for i in range(20)]
    exact = stability_test(jittery, units, n_restarts=50, shuffle_control=False)
    tolerant = stability_test(jittery, units, n_restarts=50, tolerance=1, shuffle_control=False)
    assert exact.f1 < 0.5
    assert tolerant.f1 == 1.0


def test_adaptive_stopping_is_deterministic_and_stops_early():
    units, _ = topical_document(1)
    fixed = stability_test(even, units, n_restarts=100, ci_width=0.05, min_restarts=20, check_every=10)
    assert fixed.n_restarts == 20 and fixed.stopped_early

    def noisy(units):  # content-dependent but unstable
        return sorted({sum(map(ord, units[0])) % (len(units) - 1) + 1, 3})

    a = stability_test(noisy, units, n_restarts=80, ci_width=0.05, min_restarts=20, check_every=10, seed=2)
    b = stability_test(noisy, units, n_restarts=80, ci_width=0.05, min_restarts=20, check_every=10, seed=2, n_jobs=2)
    assert a.n_restarts == 80 and not a.stopped_early  # the interval never gets 0.05 narrow
    assert a.to_dict() == b.to_dict()
    c = stability_test(noisy, units, n_restarts=80, ci_width=0.15, min_restarts=20, check_every=10, seed=2)
    assert 20 < c.n_restarts < 80 and c.stopped_early
    # it stopped on the check's interval (its own draws); the one reported is drawn afresh
    (low, high), before = _check_interval(c), _check_interval(c, c.n_restarts - 10)
    assert high - low <= 0.15 < before[1] - before[0]  # and not at the check before


def _check_interval(result, n_restarts=None):
    """The interval of the within stream's F1 an adaptive-stopping check computes from the first
    ``n_restarts`` restarts of ``result`` (default all)."""
    from stability.outcome import f1_samples
    from stability.stats import percentile_interval

    counts = restart_precision_recall(result.segmentation.boundaries, result.restart_boundaries[:n_restarts])
    return percentile_interval(f1_samples(result.seed, doc_key(result.document), Stream.WITHIN, counts, 1000,
                                          check=True), 0.95)


def test_adaptive_stopping_on_the_headline_stops_both_streams_together():
    units, _ = topical_document(1)
    options = dict(n_restarts=80, min_restarts=20, check_every=10, seed=2, ci_score="headline")
    blind = stability_test(even, units, ci_width=0.05, **options)  # headline interval [0, 0]: stops at once
    assert (blind.n_restarts, blind.shuffle.n_restarts, blind.stopped_early) == (20, 20, True)

    def noisy(units):  # content-dependent but unstable
        return sorted({sum(map(ord, units[0])) % (len(units) - 1) + 1, 3})

    runs = [stability_test(noisy, units, ci_width=width, n_jobs=jobs, **options)
            for width, jobs in ((0.01, 1), (0.3, 1), (0.3, 2))]
    assert runs[0].n_restarts == runs[0].shuffle.n_restarts == 80 and not runs[0].stopped_early
    headline = runs[1]
    assert 20 < headline.n_restarts == headline.shuffle.n_restarts < 80 and headline.stopped_early
    assert headline.to_dict() == runs[2].to_dict()  # the decision depends on the seed only, not on the workers
    # watching F1 instead, the run stops at 20 restarts with the headline still far less precise:
    # F1's interval narrows before the headline's, which divides by 1 - C
    on_f1 = stability_test(noisy, units, ci_width=0.3, **{**options, "ci_score": "f1"})
    assert on_f1.n_restarts == 20 and on_f1.f1_ci[1] - on_f1.f1_ci[0] <= 0.3
    assert on_f1.headline_ci[1] - on_f1.headline_ci[0] > 0.3 >= headline.headline_ci[1] - headline.headline_ci[0]


def test_one_restart_gives_no_interval_and_adaptive_stopping_does_not_stop_on_it():
    """With --min-restarts 1, adaptive stopping stopped every document after one restart: the
    bootstrap of a single restart draws it every time, a 0-wide "95% interval", so a noisy
    segmenter (F1 about 0.4) looked precise to 0.05. One restart, like one document
    (stability.results.Stat), gives no interval: NaN, and the checks go on."""
    import math

    units, _ = topical_document(1)

    def noisy(units):  # content-dependent but unstable
        return sorted({sum(map(ord, units[0])) % (len(units) - 1) + 1, 3})

    one = stability_test(noisy, units, n_restarts=1, seed=2)
    assert all(math.isnan(x) for x in (*one.f1_ci, *one.shuffle.f1_ci, *one.headline_ci))
    for score in ("f1", "headline"):
        run = stability_test(noisy, units, n_restarts=40, ci_width=0.05, ci_score=score, min_restarts=1,
                             check_every=10, seed=2)
        assert run.n_restarts > 1, score
    # two restarts are a sample: two that agree still give their point, as before
    two = stability_test(even, units, n_restarts=2, seed=2)
    assert two.f1_ci == (1.0, 1.0)


def test_adaptive_stopping_settings_are_checked():
    units = ["a b"] * 10
    with pytest.raises(InvalidParameterError, match="ci_score and ci_width go together"):
        stability_test(even, units, n_restarts=5, ci_score="headline")
    with pytest.raises(InvalidParameterError, match="needs the shuffle control"):
        stability_test(even, units, n_restarts=5, ci_width=0.1, ci_score="headline", shuffle_control=False)
    with pytest.raises(InvalidParameterError, match="did you mean 'headline'"):
        stability_test(even, units, n_restarts=5, ci_width=0.1, ci_score="headlines")


def test_results_identical_for_any_jobs_backend_and_chunking():
    units, _ = topical_document(3)
    reference = stability_test(cohesion_segmenter, units, n_restarts=30, seed=11, doc_id="doc").to_dict()
    for n_jobs, backend in [(2, "loky"), (2, "threading"), (1, "sequential"), (-1, None)]:
        other = stability_test(cohesion_segmenter, units, n_restarts=30, seed=11, doc_id="doc", n_jobs=n_jobs, backend=backend)
        assert other.to_dict() == reference, (n_jobs, backend)
    different_seed = stability_test(cohesion_segmenter, units, n_restarts=30, seed=12, doc_id="doc")
    assert different_seed.to_dict()["restart_boundaries"] != reference["restart_boundaries"] or different_seed.f1 == 1.0


def test_unsorted_output_is_sorted_silently():
    result = stability_test(lambda u: [6, 2], ["x"] * 8, n_restarts=3)
    assert result.segmentation.boundaries == (2, 6)


@pytest.mark.parametrize(
    "bad, fragment",
    [([0], "must lie in 1..7"), ([2, 2], "repeated"), (["2"], "must be an integer"), ([1.0], "must be an integer")],
)
def test_invalid_output_names_segmenter_document_and_seed(bad, fragment):
    def broken(units):
        return bad

    with pytest.raises(SegmenterOutputError, match=fragment) as info:
        stability_test(broken, ["x"] * 8, n_restarts=3, seed=4, doc_id="d7")
    message = str(info.value)
    assert "segmenter 'broken'" in message and "document 'd7'" in message and "seed 4" in message
    assert "initial segmentation" in message


def test_a_segmentation_of_the_document_is_a_valid_output():
    # it used to fail: "boundaries must be a sequence of integers ...; received Segmentation"
    def as_segmentation(units):
        return Segmentation.from_boundaries(cohesion_segmenter(units), len(units))

    units, _ = topical_document(3)
    plain = stability_test(cohesion_segmenter, units, n_restarts=10, seed=2).to_dict()
    other = stability_test(as_segmentation, units, n_restarts=10, seed=2).to_dict()
    assert {**other, "segmenter": "cohesion_segmenter"} == plain
    with pytest.raises(SegmenterOutputError, match=r"a Segmentation of 9 units for a document of 8 units"):
        stability_test(lambda units: Segmentation([3, 7], 9), ["x"] * 8, n_restarts=3)


def test_a_generator_output_is_refused_saying_what_a_sequence_is():
    with pytest.raises(SegmenterOutputError, match=r"boundaries must be a sequence of integers \(a list, tuple or "
                                                   r"array\); received generator"):
        stability_test(lambda units: (b for b in (3, 6)), ["x"] * 8, n_restarts=3)


def test_failure_in_a_restart_names_the_restart():
    def fragile(units):
        if units[0] != "u0":
            raise RuntimeError("cannot cope")
        return [3]

    with pytest.raises(SegmenterError, match="cannot cope") as info:
        stability_test(fragile, [f"u{i}" for i in range(8)], n_restarts=50, seed=9)
    assert info.value.restart is not None and info.value.seed == 9
    assert f"restart {info.value.restart}" in str(info.value)


def test_fast_path_is_used_and_agrees_with_plain_calls():
    class Counting:
        def __init__(self):
            self.prepared = 0

        def __call__(self, units):
            return cohesion_segmenter(units)

        def prepare(self, units):
            self.prepared += 1
            return list(units)

        def segment_prepared(self, state, order):
            return cohesion_segmenter([state[i] for i in order])

    units, _ = topical_document(2)
    fast = Counting()
    a = stability_test(fast, units, n_restarts=20)
    b = stability_test(cohesion_segmenter, units, n_restarts=20)
    assert fast.prepared >= 1
    assert a.restart_boundaries == b.restart_boundaries and a.f1 == b.f1


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"n_restarts": 0}, "n_restarts must be an integer >= 1; received 0"),
        ({"seed": -1}, "seed must be an integer >= 0; received -1"),
        ({"tolerance": -2}, "tolerance must be an integer >= 0"),
        ({"ci_width": 2.0}, "ci_width must be None or a number > 0 and <= 1"),
        ({"n_jobs": 0}, "n_jobs must be a non-zero integer"),
    ],
)
def test_parameter_errors(kwargs, fragment):
    with pytest.raises(InvalidParameterError, match=fragment):
        stability_test(even, ["a"] * 10, **kwargs)


def test_single_unit_document():
    result = stability_test(lambda u: [], ["only"], n_restarts=5)
    assert result.f1 == 1.0 and result.chance_f1 == 1.0 and np.isnan(result.corrected_f1)


def test_result_round_trips_through_json():
    import json

    from stability import StabilityResult

    units, _ = topical_document(5)
    result = stability_test(cohesion_segmenter, units, n_restarts=10, tolerance=1, doc_id="x")
    again = StabilityResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again == result
    assert again.segmentation == result.segmentation and again.shuffle == result.shuffle
