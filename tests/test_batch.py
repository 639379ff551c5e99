"""The batched restart path (``segment_batch``): used by the engine, identical results, failures.

The per-segmenter equality (batch == fast path, order by order) is in tests/test_contract.py for
every registered segmenter that offers it; here: the engine's use of it.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import cohesion_segmenter, installed_segmenters, topical_document
from stability import SegmenterError, get_segmenter, stability_test
from stability.segmenter import has_batch_path


class Batched:
    """A segmenter with the fast and batched paths, counting how each is used."""

    def __init__(self, fail_batch: bool = False, fail_unit: str | None = None):
        self.batches = 0
        self.fail_batch = fail_batch
        self.fail_unit = fail_unit

    def __call__(self, units):
        if self.fail_unit is not None and units and units[0] == self.fail_unit:
            raise RuntimeError("cannot cope")
        return cohesion_segmenter(units)

    def prepare(self, units):
        return list(units)

    def segment_prepared(self, state, order):
        return self([state[i] for i in order])

    def segment_batch(self, state, orders):
        self.batches += 1
        if self.fail_batch:
            raise RuntimeError("batch broke")
        return [self.segment_prepared(state, order) for order in orders]


def test_builtin_lexical_segmenters_offer_the_batch_path():
    # the contract's batch tests must not be vacuous
    offering = {name for name in installed_segmenters() if has_batch_path(get_segmenter(name))}
    assert {"c99", "u00", "texttiling"} <= offering


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_engine_uses_the_batch_path_with_identical_results(n_jobs):
    units, _ = topical_document(3)
    batched = Batched()
    a = stability_test(batched, units, n_restarts=24, shuffle_control=True, n_jobs=n_jobs, backend="threading")
    b = stability_test(cohesion_segmenter, units, n_restarts=24, shuffle_control=True)
    assert batched.batches >= 2  # at least one chunk per stream
    assert a.restart_boundaries == b.restart_boundaries and a.f1 == b.f1
    assert a.shuffle.restart_boundaries == b.shuffle.restart_boundaries


def test_a_failing_batch_is_rerun_per_restart_and_still_reported():
    units, _ = topical_document(4)
    with pytest.raises(SegmenterError, match="batch broke") as info:
        stability_test(Batched(fail_batch=True), units, n_restarts=10)
    assert info.value.restart is None  # every single restart worked: the batch itself failed


def test_a_failure_in_the_batch_names_its_restart():
    units = [f"u{i} word{i % 3}" for i in range(8)]

    class Fragile(Batched):
        def __call__(self, units):
            if not units[0].startswith("u0 "):
                raise RuntimeError("cannot cope")
            return [3]

    with pytest.raises(SegmenterError, match="cannot cope") as info:
        stability_test(Fragile(), units, n_restarts=30, seed=9)
    assert info.value.restart is not None
    assert f"restart {info.value.restart}" in str(info.value)


def test_wrong_number_of_batch_results_is_an_invalid_output():
    class Short(Batched):
        def segment_batch(self, state, orders):
            return [self.segment_prepared(state, order) for order in orders[:-1]]

        def segment_prepared(self, state, order):  # the per-restart path works
            return cohesion_segmenter([state[i] for i in order])

    units, _ = topical_document(5)
    with pytest.raises(SegmenterError, match="segment_batch returned"):
        stability_test(Short(), units, n_restarts=10)


@pytest.mark.parametrize("name", ["c99", "u00", "texttiling"])
def test_builtin_batch_matches_plain_calls_in_a_study(name):
    units, _ = topical_document(6, n_topics=4)
    segmenter = get_segmenter(name)

    def plain(u):
        return segmenter(u)

    a = stability_test(segmenter, units, n_restarts=12, shuffle_control=True, seed=3)
    b = stability_test(plain, units, n_restarts=12, shuffle_control=True, seed=3)
    assert a.restart_boundaries == b.restart_boundaries
    assert a.shuffle.restart_boundaries == b.shuffle.restart_boundaries
    assert np.array_equal(a.restart_precision, b.restart_precision)


def scores(result):
    """A result as a dict, less the segmenter's name and parameters (a class storing its __init__
    parameters under their names has them recorded; a function has none)."""
    return {key: value for key, value in result.to_dict().items() if key not in ("segmenter", "params")}


class _Outputs(Batched):
    """A batched segmenter whose outputs take another form (``form(boundaries, n_units)``), and whose
    ``segment_batch`` returns them as ``container(outputs)``."""

    def __init__(self, form=lambda b, n: b, container=list):
        super().__init__()
        self.form, self.container = form, container

    def segment_prepared(self, state, order):
        return self.form(cohesion_segmenter([state[i] for i in order]), len(order))

    def segment_batch(self, state, orders):
        self.batches += 1
        return self.container(self.segment_prepared(state, order) for order in orders)


def test_a_generator_of_outputs_from_segment_batch_is_refused_as_one_from_segment():
    # segment_batch's generator used to be read (list(...)), while segment's generator is refused
    units, _ = topical_document(5)
    with pytest.raises(SegmenterError, match=r"returned invalid boundaries: segment_batch's result must be a "
                                             r"sequence of boundaries, one per order \(a list, tuple or array\); "
                                             r"received generator"):
        stability_test(_Outputs(container=iter), units, n_restarts=10)
    assert scores(stability_test(_Outputs(container=tuple), units, n_restarts=10, seed=1)) == \
        scores(stability_test(cohesion_segmenter, units, n_restarts=10, seed=1))


def test_segmentations_are_valid_outputs_of_every_path():
    from stability.segmentation import Segmentation

    units, _ = topical_document(5)
    segmenter = _Outputs(form=Segmentation)
    assert scores(stability_test(segmenter, units, n_restarts=10, seed=1)) == \
        scores(stability_test(cohesion_segmenter, units, n_restarts=10, seed=1))
    assert segmenter.batches > 0
