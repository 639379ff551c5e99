"""Contract test over every registered segmenter (built-ins and whatever plugins are installed).

The rules are those of :mod:`stability.contract`, the checks an author runs on their own segmenter
with :func:`stability.check_segmenter`, run here through :func:`stability.contract.parametrize_with_checks`
as a plugin's tests run them (one test per segmenter and check, ``c99-fast_path``): every check of :data:`stability.contract.CHECKS` on every
name in :func:`stability.available_segmenters` (valid output on 1 and 2 units, empty and blank
units, non-ASCII text, random and long documents; determinism; parameters; ``n_segments``
honoured; the fast and batched restart paths identical to the plain call; the prepared state
read-only; picklable for worker processes). Hypothesis then draws more documents and orders for
the fast and batched paths, compared as the checks compare them (the public
:func:`stability.contract.restart_paths_problem`, for a plugin's property tests too).
"""

from __future__ import annotations

import numpy as np
import pytest

import os

from conftest import installed_segmenters, missing_segmenters
from stability import check_segmenter, get_segmenter
from stability.contract import CHECKS, parametrize_with_checks, restart_paths_problem
from stability.segmenter import has_batch_path, has_fast_path

#: Registered names whose package is not installed (an adapter's extra left out).
MISSING = missing_segmenters()
#: Every registered name that can be made: all of them where the dev extra is installed.
NAMES = installed_segmenters()


def test_there_are_registered_segmenters():
    assert {"none", "all", "even", "random", "texttiling", "texttiling_nltk", "c99", "u00"} <= set(NAMES)


@pytest.mark.skipif(os.environ.get("STABILITY_TEST_EXTRAS") == "some",
                    reason="STABILITY_TEST_EXTRAS=some: the run installs only some extras (.ci/run at the floors)")
def test_every_registered_segmenter_can_be_made():
    """The dev extra installs every adapter's package, so that each is held to the contract: one
    missing is a failure, not a skip (unless the run says it installs only some extras)."""
    assert not MISSING, MISSING


@parametrize_with_checks(NAMES)
def test_every_registered_segmenter_keeps_the_contract(segmenter, check):
    """Through the helper a plugin's tests use (one test per registered name and check, ``c99-fast_path``):
    a failed check fails with the report, one that does not apply is skipped saying why."""
    check(segmenter)


def test_the_contract_test_covers_every_registered_segmenter_and_check():
    """The registry drives the cases: one per (registered name, check) of CHECKS, none left out."""
    [mark] = test_every_registered_segmenter_keeps_the_contract.pytestmark
    ids = [param.id for param in mark.args[1]]
    assert ids == [f"{name}-{check.name}" for name in NAMES for check in CHECKS]
    assert len(set(ids)) == len(NAMES) * len(CHECKS)


def test_the_checks_that_apply_are_not_vacuous():
    """Each check passes (not only skips) on at least one registered segmenter."""
    passed = {r.name for name in NAMES for r in check_segmenter(
        get_segmenter(name), checks=["n_segments", "fast_path", "batch_path", "prepared_state", "prepare_params",
                                     "unit_terms"],
        raise_on_failure=False).results if r.status == "passed"}
    assert passed == {"n_segments", "fast_path", "batch_path", "prepared_state", "prepare_params", "unit_terms"}


# Property test (hypothesis): any document, any order, for every segmenter with a fast path.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_FAST = [name for name in NAMES if has_fast_path(get_segmenter(name))]
_WORD = st.sampled_from(["bank", "river", "loan", "music", "band", "the", "caf\u00e9", "42", "-", "x'y", ""])
_UNIT = st.lists(_WORD, max_size=30).map(" ".join)


def _orders(seed, n_units, count):
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(n_units) for _ in range(count)])


@settings(max_examples=40, deadline=None)
@given(units=st.lists(_UNIT, min_size=1, max_size=40), seed=st.integers(0, 2**32 - 1))
def test_fast_path_property(units, seed):
    orders = _orders(seed, len(units), 1)
    for name in _FAST:
        problem = restart_paths_problem(get_segmenter(name), units, orders)
        assert problem is None, f"{name}: {problem}"


_BATCH = [name for name in NAMES if has_batch_path(get_segmenter(name))]


@settings(max_examples=30, deadline=None)
@given(
    units=st.lists(_UNIT, min_size=1, max_size=40),
    seed=st.integers(0, 2**32 - 1),
    n_orders=st.integers(1, 6),
)
def test_batch_path_property(units, seed, n_orders):
    orders = _orders(seed, len(units), n_orders)
    for name in _BATCH:
        problem = restart_paths_problem(get_segmenter(name), units, orders)
        assert problem is None, f"{name}: {problem}"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("units, problem", [
    ("One sentence. Another one.", r"units must be a sequence of strings, one per unit .*received str"),
    (["One sentence.", 3], r"units\[1\] must be a string; received int 3"),
    (iter(["One sentence.", "Another one."]), r"units must be a sequence of strings.*received list_iterator"),
])
def test_a_segmenter_called_on_a_text_not_units_says_so(name, units, problem):
    """Called directly, a registered segmenter read a string as one unit per character
    (get_segmenter("all")("abc def") gave [1, 2, 3, 4, 5, 6]) and failed on other units deep inside
    (AttributeError, TypeError, "has no len()"); the harness never did (Document checks its units)."""
    from stability.exceptions import InvalidTypeError

    segmenter = get_segmenter(name)
    with pytest.raises(InvalidTypeError, match=problem):
        segmenter(units)


def test_restart_paths_problem_says_where_a_restart_path_parts_from_the_plain_call():
    """The comparison the property tests above rely on finds each kind of mismatch (else they could not fail)."""
    from stability.exceptions import InvalidParameterError

    class Paths:
        def __init__(self, fast=None, batch=None):
            self.fast, self.batch = fast, batch

        def __call__(self, units):
            return [1] if len(units) > 1 else []

        def prepare(self, units):
            return len(units)

        def segment_prepared(self, state, order):
            return self.fast if self.fast is not None else self(range(state))

        def segment_batch(self, state, orders):
            return [self.batch if self.batch is not None else self.segment_prepared(state, o) for o in orders]

    units, orders = ["a", "b", "c"], np.array([[2, 0, 1], [1, 2, 0]])
    assert restart_paths_problem(Paths(), units, orders) is None
    assert restart_paths_problem(Paths(fast=[2]), units, orders) == (
        "order [2, 0, 1]: segment_prepared(prepare(units), order) returned [2], the segmenter on the reordered units [1]")
    assert restart_paths_problem(Paths(batch=[]), units, orders) == (
        "order 0 of 2 ([2, 0, 1]): segment_batch returned [], segment_prepared [1]")
    with pytest.raises(InvalidParameterError, match=r"orders must be a 2-D array whose rows are permutations of range\(3\)"):
        restart_paths_problem(Paths(), units, np.array([2, 0, 1]))
    with pytest.raises(InvalidParameterError, match="has no fast restart path"):
        restart_paths_problem(get_segmenter("even"), units, orders)
