"""check_segmenter catches each kind of broken segmenter an author may write, by the check that
names the rule, saying what was wrong and on which document; well-behaved segmenters pass.

The segmenters are written here as an author would write them (a function, a class with
parameters, a class with the fast and batched restart paths), each broken in one way.
"""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from stability import (
    InvalidParameterError,
    InvalidTypeError,
    Segmentation,
    Segmenter,
    SegmenterContractError,
    check_segmenter,
    get_segmenter,
)
from stability.contract import CHECKS, check_documents


def every_four(units):
    return list(range(4, len(units), 4))


class Lengths(Segmenter):
    """A boundary where a unit's length jumps, with both restart paths (correct)."""

    prepare_params = ()

    def __init__(self, jump=15):
        self.jump = jump

    def _cut(self, lengths):
        return [i for i in range(1, len(lengths)) if abs(lengths[i] - lengths[i - 1]) > self.jump]

    def segment(self, units):
        return self._cut([len(u) for u in units])

    def prepare(self, units):
        return np.array([len(u) for u in units])

    def segment_prepared(self, state, order):
        return self._cut(state[order].tolist())

    def segment_batch(self, state, orders):
        return [self.segment_prepared(state, order) for order in orders]


class FastPathDisagrees(Lengths):
    def segment_prepared(self, state, order):
        return self._cut(state.tolist())  # forgets to reorder

    def segment_batch(self, state, orders):
        return [self.segment_prepared(state, order) for order in orders]


class BatchDropsBoundaries(Lengths):
    def segment_batch(self, state, orders):
        return [self.segment_prepared(state, order)[:1] for order in orders]


class ModifiesItsState(Lengths):
    def segment_prepared(self, state, order):
        state[0] += 1
        return super().segment_prepared(state, order)


class DeclaresAnUnknownPrepareParameter(Lengths):
    prepare_params = ("window",)


class KeepsALock(Segmenter):
    def __init__(self, k=4):
        self.k = k
        self.lock = threading.Lock()

    def segment(self, units):
        return list(range(self.k, len(units), self.k))


class RenamesItsParameter:
    """No get_params, and k kept as self.step: runs cannot record k."""

    def __init__(self, k=4):
        self.step = k

    def __call__(self, units):
        return list(range(self.step, len(units), self.step))


class StoresItsParameter:
    """No get_params, but k kept as self.k (the convention): its parameters are read."""

    def __init__(self, k=4):
        self.k = k

    def __call__(self, units):
        return list(range(self.k, len(units), self.k))


class HidesAParameter(Segmenter):
    """get_params leaves out the parameter that changes the output."""

    def __init__(self, k=4):
        self.k = k
        self._step = k

    def get_params(self):
        return {}

    def segment(self, units):
        return list(range(self._step, len(units), self._step))


class IgnoresNSegments(Segmenter):
    def __init__(self, n_segments=None):
        self.n_segments = n_segments

    def segment(self, units):
        return list(range(3, len(units), 3))


class CountsItsCalls:
    """Stateful: its output depends on how many documents it segmented before."""

    def __init__(self):
        self.calls = 0

    def __call__(self, units):
        self.calls += 1
        return [1] if len(units) > 1 and self.calls % 2 else []


def coin(units):
    return sorted(random.sample(range(1, len(units)), 1)) if len(units) > 2 else []


class DeclaredRandom(Segmenter):
    deterministic = False

    def segment(self, units):
        return sorted(random.sample(range(1, len(units)), 1)) if len(units) > 2 else []


def odd_fails(units):
    if len(units) % 2:
        raise ValueError("odd number of units")
    return every_four(units)


BROKEN = {
    # name: (segmenter, the check that fails, what its message says)
    "segment sizes": (lambda units: [len(units)], "valid_output", "segment sizes?"),
    # the first document failed has one unit, where no boundary has a place
    "out of range": (lambda units: [len(units) + 3], "valid_output", "must be empty for a document of 1 unit"),
    "a boundary at 0": (lambda units: [0, *every_four(units)], "valid_output", "received 0 in [0"),
    "a boundary at n": (lambda units: [*every_four(units), len(units)], "valid_output",
                        "must be empty for a document of 1 unit"),
    "floats": (lambda units: [b + 0.5 for b in every_four(units)], "valid_output", "must be an integer; received float"),
    "a float array": (lambda units: np.array(every_four(units), dtype=float), "valid_output",
                      "must be a sequence of integers; received ndarray"),
    "None": (lambda units: None, "valid_output", "received NoneType None"),
    "repeated": (lambda units: every_four(units) * 2, "valid_output", "is repeated"),
    "chunk texts": (lambda units: ["\n".join(units)], "valid_output", "ChunkerSegmenter(chunker)"),
    "raises sometimes": (odd_fails, "valid_output", "raised ValueError: odd number of units"),
    "non-deterministic": (coin, "deterministic", "declare deterministic = False"),
    "stateful": (CountsItsCalls(), "deterministic", "the first call returned"),
    "parameter renamed": (RenamesItsParameter(k=3), "parameters", "k is not stored under its own name (self.k = k)"),
    "parameter hidden": (HidesAParameter(k=3), "parameters", "get_params() returns [], but HidesAParameter.__init__ "
                                                             "takes ['k']"),
    "n_segments ignored": (IgnoresNSegments(), "n_segments", "with n_segments=2 it returned 0 boundaries []"),
    "fast path disagrees": (FastPathDisagrees(), "fast_path", "segment_prepared(prepare(units), order) returned"),
    "batch drops boundaries": (BatchDropsBoundaries(), "batch_path", "segment_batch returned"),
    "state modified": (ModifiesItsState(), "prepared_state", "must be read-only"),
    "unknown prepare parameter": (DeclaresAnUnknownPrepareParameter(), "prepare_params", "['window']"),
    "holds a lock": (KeepsALock(), "picklable", "cannot pickle '_thread.lock' object"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_each_broken_segmenter_fails_the_check_of_its_rule_saying_what_and_where(kind):
    segmenter, check, said = BROKEN[kind]
    report = check_segmenter(segmenter, raise_on_failure=False)
    failed = {r.name: r.message for r in report.failures}
    assert check in failed, str(report)
    assert said in failed[check], failed[check]
    if check not in ("parameters", "prepare_params", "picklable"):  # about the object, not a document
        assert "on the " in failed[check] and "document" in failed[check], failed[check]


@pytest.mark.parametrize("segmenter", [
    every_four,
    lambda units: np.arange(3, len(units), 3),                                  # a numpy array
    lambda units: list(reversed(every_four(units))),                            # unsorted: sorted by the harness
    lambda units: Segmentation.from_masses([len(units)]),                       # sizes, said as such
    Lengths(jump=10),
    StoresItsParameter(k=5),
    get_segmenter("even", n_segments=3),
], ids=["function", "array", "unsorted", "segmentation", "both paths", "class without get_params", "built-in"])
def test_well_behaved_segmenters_pass(segmenter):
    report = check_segmenter(segmenter)
    assert report.ok and {r.status for r in report.results} <= {"passed", "skipped"}


def test_a_class_that_stores_its_parameters_is_reported_with_them():
    report = check_segmenter(StoresItsParameter(k=5), checks=["parameters"])
    assert report.results[0].message.startswith("parameters {'k': 5} (those of __init__)")
    assert report.segmenter == "StoresItsParameter(k=5)"


def test_a_declared_non_deterministic_segmenter_skips_the_determinism_check():
    [result] = check_segmenter(DeclaredRandom(), checks=["deterministic"]).results
    assert result.status == "skipped" and "deterministic = False" in result.message


def test_a_failure_raises_with_the_whole_report():
    with pytest.raises(SegmenterContractError) as caught:
        check_segmenter(FastPathDisagrees())
    text = str(caught.value)
    assert text.splitlines()[0] == "check_segmenter(FastPathDisagrees(jump=15)): 7 passed, 1 failed, 2 skipped"
    assert "  FAILED   fast_path " in text and "  passed   batch_path " in text
    assert isinstance(caught.value, AssertionError)  # a test calling it fails, with the report


def test_every_check_is_reported_in_order():
    report = check_segmenter(every_four)
    assert [r.name for r in report.results] == [c.name for c in CHECKS]


def test_checks_can_be_chosen_by_name_and_an_unknown_name_is_refused_naming_them():
    assert [r.name for r in check_segmenter(every_four, checks=["picklable"]).results] == ["picklable"]
    with pytest.raises(InvalidParameterError, match="checks must be names among valid_output, deterministic"):
        check_segmenter(every_four, checks=["determinism"])


def test_your_documents_are_checked_first_and_named():
    units = ["a short unit"] * 5
    report = check_segmenter(odd_fails, documents=[units], raise_on_failure=False)
    assert report.failures[0].message.startswith("on the document 0 you gave (5 units): raised ValueError")
    with pytest.raises(InvalidTypeError, match=r"documents\[0\] must be a non-empty sequence of strings"):
        check_segmenter(every_four, documents=[[]])
    with pytest.raises(InvalidTypeError, match="documents must be a sequence of documents"):
        check_segmenter(every_four, documents="one text")


def test_names_and_module_attribute_specs_are_resolved():
    assert check_segmenter("even").ok
    assert check_segmenter("test_check_segmenter:every_four", checks=["valid_output"]).ok


def test_a_reference_count_segmenter_is_refused_with_what_to_check_instead():
    with pytest.raises(InvalidParameterError, match="built with an integer n_segments"):
        check_segmenter(get_segmenter("even", n_segments="reference"))


def test_the_check_documents_are_fixed_and_include_short_empty_and_long_ones():
    documents = check_documents()
    assert documents == check_documents()
    sizes = [len(units) for _, units in documents]
    assert min(sizes) == 1 and max(sizes) == 500
    assert [""] in [units for _, units in documents] and ["", ""] in [units for _, units in documents]


def test_the_readme_example_shows_what_check_segmenter_prints():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")

    class EveryK(Segmenter):
        def __init__(self, k=4):
            self.k = k

        def segment(self, units):
            return list(range(self.k, len(units), self.k))

    first, second = str(check_segmenter(EveryK(k=4))).splitlines()[:2]
    assert f"# {first}\n# {second}\n" in readme
    message = check_segmenter(lambda units: [len(units)], raise_on_failure=False).failures[0].message
    assert message.startswith("on the document of 1 empty unit: returned invalid boundaries: ") and "segment sizes?" in message
    assert '# "on the document of 1 empty unit: returned invalid boundaries: ... segment sizes? ..."' in readme


class ListMinded(Segmenter):
    """A fast path and unit_terms written for the list of units the plain call gets."""

    def segment(self, units):
        return [len(units) // 2] if len(units) > 1 else []

    def prepare(self, units):
        return units.copy()  # a list method

    def segment_prepared(self, state, order):
        return self.segment([state[i] for i in order])

    def unit_terms(self, units):
        return [unit.split() for unit in units.copy()]


def test_what_passes_the_checks_runs_the_units_are_a_list_in_a_run_as_in_the_checks():
    """The checks give prepare a list, as the plain call gets; a run gave it the document's tuple
    (unit_terms too), so this segmenter passed every check and failed on every document of a run
    with "AttributeError: 'tuple' object has no attribute 'copy'"."""
    from stability import evaluate

    assert check_segmenter(ListMinded()).ok
    documents = [[f"unit {i} of {d}" for i in range(6)] for d in range(3)]
    for backend in (None, "threading"):
        result = evaluate({"mine": ListMinded()}, documents, n_restarts=3, backend=backend)
        assert not result.failures, [failure.error for failure in result.failures]


class EveryThird(Segmenter):
    def __init__(self, k=3):
        self.k = k

    def segment(self, units):
        return list(range(self.k, len(units), self.k))


def make_every_third(k=3):
    """A factory function, as some packages expose them: named as the segmenter, it is called with the units."""
    return EveryThird(k=k)


def test_a_factory_function_named_as_the_segmenter_is_told_to_name_the_class():
    """It failed on every document with "must be a sequence of integers; received EveryThird
    EveryThird(k=[...the units...])", which did not say why."""
    [failure] = check_segmenter(make_every_third, checks=["valid_output"], raise_on_failure=False).failures
    assert failure.message.split(" (and on")[0].endswith(
        "; it returned a callable (a segmenter?): a function named as a segmenter is the segmenter itself, called "
        "with the units; one that builds a segmenter is not called with its parameters: name the segmenter's class "
        "instead (module:attribute, or the entry point), or a segmenter object built already")
    # its parameter was said not to exist ("Its parameters: none"), without why
    with pytest.raises(InvalidParameterError, match=r"has no parameter 'k'\. Its parameters: none \('k' is its first "
                                                    r"argument, the units it is called with: .* named by its class"):
        get_segmenter(make_every_third, k=4)


class WrongTerms(Segmenter):
    """unit_terms that drops the last unit's terms."""

    def segment(self, units):
        return []

    def unit_terms(self, units):
        return [unit.split() for unit in units][:-1]


class TermsRaise(Segmenter):
    def segment(self, units):
        return []

    def unit_terms(self, units):
        raise LookupError("no vocabulary loaded")


class StopwordsRaise(Segmenter):
    def segment(self, units):
        return []

    def stopword_use(self, units):
        raise LookupError("no stopword list")


def test_the_terms_a_segmenter_reports_are_checked_as_a_run_reads_them():
    """A run reads unit_terms (and stopword_use) on every document: one that raised failed every
    document of a run, and one of the wrong length judged other units than it named (a document
    can be scored 0 as term-blind), while every check passed."""
    def message(segmenter):
        [failure] = check_segmenter(segmenter, checks=["unit_terms"], raise_on_failure=False).failures
        return failure.message

    assert message(WrongTerms()).startswith(
        "on the document of 1 empty unit: unit_terms returned [] for 1 unit: expected one list of terms per unit, "
        "or None (a run would judge the wrong units, and could score the document 0 as term-blind)")
    assert message(TermsRaise()).startswith("on the document of 1 empty unit: unit_terms raised LookupError: no "
                                            "vocabulary loaded (a run fails on every such document)")
    assert "reading its terms as a run does raised LookupError: no stopword list" in message(StopwordsRaise())
    assert check_segmenter(every_four, checks=["unit_terms"]).results[0].status == "skipped"
    assert check_segmenter("c99", checks=["unit_terms"]).ok
    from stability import evaluate  # what the check foresees

    result = evaluate({"raises": TermsRaise()}, [["a b", "b c", "c d"]], n_restarts=2)
    assert [failure.error for failure in result.failures] == ["LookupError: no vocabulary loaded"]
    # a run refuses terms of the wrong length (it judged other units than they were for, without a word)
    wrong = evaluate({"wrong": WrongTerms()}, [["a b", "b c", "c d"]], n_restarts=2)
    assert [failure.error.split(":")[0] for failure in wrong.failures] == ["InvalidTypeError"]
    assert "unit_terms returned [['a', 'b'], ['b', 'c']] for 3 units: expected one list of terms per unit" in \
        wrong.failures[0].error
