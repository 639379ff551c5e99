"""Library cases found by using the Python API as a user would: two aborted a whole run part-way
(losing every result held in memory), the others misread or misreported input. Each test fails
on the code before its fix (see the docstrings)."""

from __future__ import annotations

import functools
import importlib.util
import random
import re
import warnings

import numpy as np
import pytest

from stability import Segmentation, evaluate, get_segmenter, register, unregister
from stability.exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError
from stability.metrics import compute_all, cov_d, cov_n
from stability.reporting import render
from stability.settings import SettingsWarning

UNITS = [f"s{i} word{i % 4}" for i in range(8)]


def test_a_zero_length_unit_in_times_no_longer_aborts_the_run():
    """A zero-length caption cue (an SRT cue from 8.0 to 8.0) alone in a segment made CovD raise
    after every segmenter call was done, losing the run ("every segment must last > 0")."""
    times = [(i, i + 1) for i in range(8)]
    times[4] = (4, 4)
    run = evaluate({"iso": lambda u: [4, 5], "even": "even"},
                   [{"id": "talk", "units": UNITS, "references": [[4]], "times": times}], n_restarts=3, progress=False)
    # by hand: the zero-length segment [4, 5) weighs nothing; [0, 4) and [5, 8) match the reference's
    # halves by duration 4/4 and 3/3 -> CovD 1; by count, 2 of 3 hypothesis segments covered -> CovN 2*1*(2/3)/(5/3)
    reference = run.summary["iso"].reference
    assert reference["cov_d"].mean == 1.0 and reference["cov_n"].mean == pytest.approx(0.8)


def test_a_zero_length_segment_is_covered_by_the_same_units_only():
    times = [(i, i + 1) for i in range(8)]
    times[4] = (4, 4)
    same = Segmentation([4, 5], 8)
    assert cov_n(same, same, times=times) == 1.0  # 0/0 for the same units: covered
    assert cov_n(Segmentation([4], 8), same, times=times) == pytest.approx(0.8)
    assert np.isnan(cov_d(same, same, times=[(0, 0)] * 8))  # no duration at all: nothing to measure


def test_a_window_longer_than_a_short_document_gives_nan_there_with_a_warning():
    """metrics={"k": 4} with a 3-unit document aborted the run at that document ("k must be an
    integer in 1..2"), naming neither the document nor the setting."""
    docs = [{"id": "a", "units": UNITS * 2, "references": [[3, 7]]}, {"id": "short", "units": UNITS[:3],
                                                                       "references": [[1]]}]
    with pytest.warns(SettingsWarning, match=r"metrics k = 4 is longer than the 1 document\(s\) 'short' \(3 units\) "
                                             r"can hold .*their window metrics are NaN, left out of the means"):
        run = evaluate({"e": lambda u: [1]}, docs, n_restarts=3, progress=False, metrics={"k": 4})
    a, short = run.documents["e"]
    assert np.isnan(short.reference_metrics["pk"]) and np.isnan(short.reference_metrics["window_k"])
    assert not np.isnan(short.reference_metrics["f1"])  # the other metrics are computed
    assert run.summary["e"].reference["pk"].mean == a.reference_metrics["pk"]  # the mean leaves NaN out


def test_compute_all_computes_the_metrics_named_and_checks_k_on_one_unit_documents():
    ref, hyp = Segmentation([1], 3), Segmentation([2], 3)
    assert compute_all(ref, hyp, names=["pk"]) == {"pk": 1.0}  # by hand: k = 1, both windows disagree
    values = compute_all(ref, hyp, k=4, long_window="nan", names=["pk", "f1", "window_k"])
    assert np.isnan(values["pk"]) and np.isnan(values["window_k"]) and values["f1"] == 0.0
    with pytest.raises(InvalidParameterError, match=r"k must be an integer in 1\.\.2"):
        compute_all(ref, hyp, k=4)
    with pytest.raises(InvalidParameterError, match="k must be an integer >= 1 or one of 'lamprier', 'nltk', 'segeval'; received 'bogus'"):
        compute_all(Segmentation([], 1), Segmentation([], 1), k="bogus")  # was NaN without a word
    with pytest.raises(InvalidParameterError, match="names must be reference metric names"):
        compute_all(ref, hyp, names=["pkk"])


@pytest.mark.parametrize("metrics, reason", [
    ({"names": ["pk"]}, "the run computed only pk"),
    (False, "the run computed no reference metric"),
])
def test_a_report_asking_for_a_metric_the_run_left_out_says_so(metrics, reason):
    """The reason given was "it needs references, and no document scored has any" (it has)."""
    run = evaluate({"e": lambda u: [4]}, [{"id": "a", "units": UNITS * 3, "references": [[5, 10, 15]]}],
                   n_restarts=3, progress=False, metrics=metrics)
    with pytest.raises(InvalidParameterError, match=f"metrics boundary_similarity was not computed: {reason}"):
        render(run, "md", metrics=["b"])


def test_register_does_not_replace_a_built_in_segmenter_by_mistake():
    """register("c99", ...) replaced C99 for the whole process without a word."""
    with pytest.raises(InvalidParameterError, match=r"name 'c99' is a built-in segmenter \(segmenters\.c99:C99\); "
                                                    "choose another name, or pass overwrite=True"):
        register("c99", lambda units: [])
    assert type(get_segmenter("c99")).__name__ == "C99"
    register("c99", lambda units: [], overwrite=True)
    try:
        assert get_segmenter("c99")(["a", "b", "c"]) == []
    finally:
        unregister("c99")
    assert type(get_segmenter("c99")).__name__ == "C99"


def test_parameters_given_to_a_built_instance_are_said_to_be_too_late():
    class Every:
        def __init__(self, k=3):
            self.k = k

        def __call__(self, units):
            return list(range(self.k, len(units), self.k))

    with pytest.raises(InvalidParameterError, match=r"is an instance already built .*build it with them, Every\(k=\.\.\.\)"):
        get_segmenter(Every(), k=5)  # was "has no parameter 'k'. Its parameters: none"
    assert get_segmenter(functools.partial(lambda units, k=2: [k]), k=3)(list("abcdef")) == [3]


@pytest.mark.parametrize("masses", [[2**62, 2**62], [2**63], np.array([2**62, 2**62])])
def test_segment_sizes_past_int64_are_refused(masses):
    """They wrapped around to a negative number of units (or raised a bare OverflowError)."""
    with pytest.raises(InvalidSegmentationError, match=r"masses must add up to at most 2\*\*62 units"):
        Segmentation.from_masses(masses)


def test_gaps_as_a_list_of_numpy_integers():
    assert Segmentation.from_gaps(list(np.array([0, 1, 0]))) == Segmentation([2], 4)


@pytest.mark.parametrize("units, params", [
    (["cats chase mice", "stocks fell sharply", "cats and mice"], {"n_segments": 3}),
    (["cats chase mice", "stocks fell sharply", "cats and mice", "markets and stocks"], {"smoothing_width": 2}),
])
def test_embedding_depth_boundaries_stay_inside_short_documents(units, params):
    """With fewer gaps than the smoothing kernel, mode="same" returned as many scores as the
    kernel: boundaries [1, 3] for 3 units, [2, 4] for 4, [7] for 6."""
    found = get_segmenter("embedding", method="depth", **params)(units)
    assert all(1 <= b < len(units) for b in found) and found == sorted(set(found))


def test_embedding_depth_leaves_no_one_unit_segment_at_the_document_ends():
    """The edge gaps counted as local maxima (the outside treated as -inf): 22 of 40 clean
    three-topic documents got a boundary at 1 or n - 1."""
    vocabularies = ["apple banana cherry grape lemon mango melon peach plum kiwi".split(),
                    "stock bond market price trade share yield fund asset rate".split(),
                    "rain snow storm cloud wind frost hail fog sun sky".split()]
    segmenter = get_segmenter("embedding", method="depth")
    for seed in range(10):
        rng = random.Random(seed)
        units = [" ".join(rng.sample(words, 4)) for words in vocabularies for _ in range(8)]
        found = segmenter(units)
        assert 1 not in found and 23 not in found, (seed, found)


@pytest.mark.skipif(importlib.util.find_spec("chonkie") is None, reason="needs the chonkie extra")
def test_chonkie_word_offsets_that_drift_are_not_trusted():
    """chonkie's word tokenizer drops a character of each double space, so its start_index
    drifts: boundary 2 was lost ([1, 3]; the chunks' own texts place it)."""
    units = ["one  two  three  four  five  six  seven  eight  nine  ten  eleven  twelve",
             "alpha beta gamma", "delta epsilon zeta", "eta theta iota"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert get_segmenter("chonkie_recursive", chunk_size=3, tokenizer="word")(units) == [1, 2, 3]
        assert get_segmenter("chonkie_recursive", chunk_size=1, tokenizer="word")(["eta  eps", "beta  eta"]) == []


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_segmenter_that_catches_the_timeout_fails_by_it(n_jobs):
    """A segmenter calling its model inside a bare `except:` caught the timer's exception after
    the timeout and returned its fallback, which was scored as its result (F1 1.0, no failure)."""
    import faults
    from stability import evaluate
    from stability.demo import demo_corpus

    run = evaluate({"swallowing": faults.swallowing_slow}, demo_corpus(n_documents=2), n_restarts=2, timeout=0.3,
                   n_jobs=n_jobs, progress=False)
    assert len(run.failures) == 2 and {f.kind for f in run.failures} == {"timeout"}
    assert all("the segmenter caught the timer's interrupt" in f.error for f in run.failures), run.failures


def test_a_plugin_named_like_a_built_in_segmenter_does_not_replace_it(monkeypatch):
    """A plugin declaring an entry point 'c99' replaced the built-in C99 for every run, or not,
    depending on the order the installed packages were listed in, without a word (register()
    refuses such a name)."""
    from types import SimpleNamespace

    from stability import registry
    from stability.segmenter import SegmenterWarning

    def ep(name, value, dist):
        return SimpleNamespace(name=name, value=value, dist=SimpleNamespace(metadata={"Name": dist}, version="1"))

    for order in (1, -1):
        declared = [ep("c99", "probe_plugin:fake_c99", "probe-plugin"),
                    ep("c99", "segmenters.c99:C99", registry.DISTRIBUTION),
                    ep("mine", "one:seg", "one"), ep("mine", "two:seg", "two")][::order]
        monkeypatch.setattr(registry.metadata, "entry_points", lambda group: [e for e in declared])
        monkeypatch.setattr(registry, "_CLASHES_SAID", set())
        with pytest.warns(SegmenterWarning) as said:
            found = registry._entry_points()
        assert found["c99"].value == "segmenters.c99:C99"
        assert found["mine"].value == ("one:seg" if order == 1 else "two:seg")  # the first found, said
        messages = sorted(str(w.message) for w in said)
        assert messages[0] == ("segmenter 'c99' is declared by several installed packages: the built-in one is used, "
                               "not probe-plugin (probe_plugin:fake_c99); give the plugin's entry point another name")
        assert messages[1].startswith("segmenter 'mine' is declared by several installed packages: ")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            registry._entry_points()  # said once a process


def test_a_segmenter_holding_a_model_goes_to_each_worker_once(tmp_path):
    """With --jobs 2 the segmenter was pickled into every task: one holding a 100 MB model was
    sent and read some 140 times over 500 short documents (25 s, against 2 s with one job). A
    big one now goes to each worker process once, through a file removed after the run."""
    import os
    import tempfile

    import faults
    from stability import evaluate
    from stability.demo import demo_corpus

    log = tmp_path / "received"
    log.mkdir()
    before = {name for name in os.listdir(tempfile.gettempdir()) if name.startswith("stability-segmenters-")}
    docs = demo_corpus(n_documents=20)
    run = evaluate({"model": faults.Model(mb=2, log=str(log))}, docs, n_restarts=4, n_jobs=2, progress=False)
    received = len(os.listdir(log))
    assert 1 <= received <= 3, received  # the parent's pickling check, then once in each of the two workers
    alone = evaluate({"model": faults.Model(mb=2)}, docs, n_restarts=4, n_jobs=1, progress=False)
    assert [r.f1 for r in run.documents["model"]] == [r.f1 for r in alone.documents["model"]]
    after = {name for name in os.listdir(tempfile.gettempdir()) if name.startswith("stability-segmenters-")}
    assert after <= before  # the run's folder is gone


def test_a_segmenter_holding_a_model_is_pickled_once_a_run(tmp_path):
    """With two jobs a segmenter holding a model was pickled twice as a run began: once by the
    check that it reaches the workers, once to write the file they read it from. For a model of
    1 GB, one pickle too many: the check's pickle is the one sent."""
    import faults
    from stability import evaluate
    from stability.demo import demo_corpus

    docs = demo_corpus(n_documents=6)
    model = faults.Model(mb=2, log=str(tmp_path))
    faults.Model.pickles = 0
    run = evaluate({"model": model}, docs, n_restarts=3, n_jobs=2, progress=False)
    assert faults.Model.pickles == 1
    assert faults.unpickled(tmp_path)[0] == 1  # the check reads it back here, as a worker would
    alone = evaluate({"model": model}, docs, n_restarts=3, n_jobs=1, progress=False)  # in-process: no pickle
    assert run.to_dict()["documents"] == alone.to_dict()["documents"]


def test_a_segmenter_that_does_not_pickle_is_still_said_before_the_run():
    """The check whose pickle is now sent still names a segmenter that cannot reach the workers."""
    import threading

    import faults
    from stability import evaluate
    from stability.demo import demo_corpus

    model = faults.Model(mb=2)
    model.lock = threading.Lock()
    run = evaluate({"model": model}, demo_corpus(n_documents=2), n_restarts=2, n_jobs=2, progress=False)
    assert [f.error for f in run.failures] == [
        "the segmenter cannot be sent to the worker processes (backend loky, n_jobs 2): pickling it fails with "
        "TypeError: cannot pickle '_thread.lock' object; run it in this process (n_jobs = 1 without a backend) "
        "or in threads (backend = 'threading'), or make it picklable"] * 2


class _Drifting:
    """A segmenter that is not deterministic but looks it on two calls in a row: its answers, call
    after call (documents of 3 units or more), are [1], [1], [2], [2], [1], then [1] on."""

    def __init__(self):
        self.calls = 0

    def __call__(self, units):
        if len(units) < 3:
            return []
        self.calls += 1
        return [2] if self.calls in (3, 4) else [1]


def test_the_pickling_check_does_not_blame_pickling_for_a_segmenter_changing_its_mind():
    """check_segmenter's `picklable` said "its pickled copy returned [2], the segmenter [1]:
    worker processes would score other boundaries" of a segmenter whose own later calls change
    (the helper met it on 1 of 3 runs of a random segmenter)."""
    from stability import check_segmenter

    report = check_segmenter(_Drifting(), checks=["picklable"], raise_on_failure=False)
    (outcome,) = report.results
    assert outcome.status == "failed"
    assert "a third call of the segmenter returned [1], the first two [2]" in outcome.message
    assert "it is not deterministic: declare deterministic = False" in outcome.message
    assert "worker processes would score other boundaries" not in outcome.message


def test_parameters_a_class_hides_are_said_when_it_is_built(monkeypatch):
    """A class keeping `k` as `self._k` was built with k = 4 and recorded with no parameters, so
    a resume of a run made with k = 3 reused its results without a word (the README's
    precondition, which nothing pointed out)."""
    from stability import registry
    from stability.segmenter import SegmenterWarning
    from test_check_segmenter import RenamesItsParameter as _KeepsItsOwn, StoresItsParameter as _Readable

    monkeypatch.setattr(registry, "_HIDDEN_SAID", set())
    with pytest.warns(SegmenterWarning, match=r"segmenter 'mine' \(RenamesItsParameter\): parameter\(s\) k cannot be read back "
                                              r"from it .* a resume cannot tell results of other values"):
        register("mine", _KeepsItsOwn)
        try:
            get_segmenter("mine", k=4)
        finally:
            unregister("mine")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register("mine", _KeepsItsOwn)
        register("readable", _Readable)
        try:
            get_segmenter("mine", k=3)  # said once a class
            get_segmenter("readable", k=4)
            get_segmenter("mine")  # nothing given, nothing hidden
        finally:
            unregister("mine")
            unregister("readable")


def test_a_worker_keeps_shipped_segmenters_within_a_byte_budget(tmp_path, monkeypatch):
    """A worker keeps the segmenters it read (no pickle with every task), but not past
    SHIPPED_KEPT_BYTES: a grid of configurations, each with its own copy of a large model, would
    otherwise hold them all in every worker. The one read last is kept whatever its size."""
    import pickle

    from stability import isolation

    monkeypatch.setattr(isolation, "_RECEIVED", type(isolation._RECEIVED)())
    paths = []
    for k in range(3):
        paths.append(tmp_path / f"{k}.pickle")
        paths[-1].write_bytes(pickle.dumps(bytes(1000 + k)))
    size = paths[0].stat().st_size
    monkeypatch.setattr(isolation, "SHIPPED_KEPT_BYTES", 2 * size + 10)
    for k in range(3):
        assert isolation._received(str(paths[k]), str(k)) == bytes(1000 + k)
    assert list(isolation._RECEIVED) == ["1", "2"]  # the oldest made room
    paths[1].unlink()
    assert isolation._received(str(paths[1]), "1") == bytes(1001)  # kept: not read again
    monkeypatch.setattr(isolation, "SHIPPED_KEPT_BYTES", 1)
    isolation._received(str(paths[2]), "2")
    assert list(isolation._RECEIVED) == ["2"]  # over budget alone, the last read stays


@pytest.mark.parametrize("keyword, value, named", [
    ("on_result", 5, "on_result must be a callable"),
    ("output", 5, "output must be a path"),
])
def test_a_run_argument_of_the_wrong_type_is_refused_before_any_segmenter_runs(keyword, value, named):
    """Found late, an ``on_result`` that cannot be called ended the run after its first pair with
    ``TypeError: 'int' object is not callable``, and an ``output`` of an int with pathlib's error."""
    from stability.exceptions import InvalidTypeError

    calls = []

    def counting(units):
        calls.append(1)
        return [2]

    with pytest.raises(InvalidTypeError, match=named):
        evaluate({"c": counting}, [["a"] * 6], n_restarts=2, progress=False, **{keyword: value})
    assert calls == []


def test_stability_test_takes_a_numeric_doc_id_for_a_document_as_for_a_list_of_units():
    """``doc_id=5`` worked with a list of units (its str() keyed the streams) and failed with a
    Document ('Document.id must be a string', naming no argument the caller gave)."""
    from stability import Document, stability_test

    units = [f"unit {i}." for i in range(12)]
    every = lambda units: list(range(3, len(units), 3))  # noqa: E731
    from_list = stability_test(every, units, doc_id=5, n_restarts=3)
    from_doc = stability_test(every, Document("other", tuple(units)), doc_id=5, n_restarts=3)
    assert from_doc.document == from_list.document == "5"
    assert from_doc == from_list


@pytest.mark.parametrize("segmenter, hint", [
    (lambda units: [int(i % 4 == 3) for i in range(len(units) - 1)], "Segmentation.from_gaps(mask)"),
    (lambda units: np.arange(len(units) - 1) % 4 == 3, "Segmentation.from_gaps(mask)"),
    (lambda units: [i // 4 for i in range(len(units))], "Segmentation.from_labels(labels)"),
    # a flag per unit (does it start a segment?) and nltk's boundary string had no hint
    (lambda units: [int(i % 4 == 0) for i in range(len(units))], "one per unit: a mask of the units that start"),
    (lambda units: np.arange(len(units)) % 4 == 0, "[i for i, start in enumerate(mask) if start and i > 0]"),
    (lambda units: "".join("1" if i % 4 == 3 else "0" for i in range(len(units) - 1)),
     "a boundary string (nltk, segeval)? a segmenter returns boundaries (the units where a segment starts); "
     "return Segmentation.from_gaps(string)"),
])
def test_a_segmenter_returning_one_value_per_gap_or_unit_is_told_what_to_return(segmenter, hint):
    """A 0/1 mask of the gaps, or per-unit labels, read as boundaries gave only '0 is repeated in
    [0, 0, 0, ...]' (of the sorted values, not those returned), as if the values were the mistake;
    so did a 0/1 flag per unit, and a boundary string only 'must be a sequence of integers'."""
    from stability import SegmenterOutputError, stability_test

    with pytest.raises(SegmenterOutputError, match=re.escape(hint)):
        stability_test(segmenter, [f"unit {i}." for i in range(13)], n_restarts=2)


@pytest.mark.parametrize("returned", [5, None, "one unit"])
def test_a_splitter_returning_no_list_of_strings_is_named(returned):
    """A splitter returning a number gave ``TypeError: 'int' object is not iterable`` from inside
    the corpus reader; one returning a string made each character a unit."""
    from stability import stability_test
    from stability.exceptions import InvalidTypeError

    splitter = lambda text: returned  # noqa: E731
    with pytest.raises(InvalidTypeError, match=r"the splitter must return a list of strings, one per unit, for documents\[0\]"):
        evaluate({"n": "none"}, ["A text. Of two sentences."], splitter=splitter, n_restarts=2, progress=False)
    with pytest.raises(InvalidTypeError, match="the splitter must return a list of strings, one per unit, for units"):
        stability_test("none", "A text. Of two sentences.", splitter=splitter, n_restarts=2)


def test_a_splitter_returning_a_number_names_the_file_it_was_cutting(tmp_path):
    from stability import read_corpus
    from stability.exceptions import InvalidTypeError

    (tmp_path / "a.txt").write_text("A text. Of two sentences.\n")
    with pytest.raises(InvalidTypeError, match=r"the splitter must return a list of strings, one per unit, for .*a\.txt"):
        list(read_corpus(tmp_path / "a.txt", splitter=lambda text: 5))


def test_units_as_a_one_dimensional_array_are_read_as_a_list_of_them():
    # df["sentence"].values is a numpy array, no Sequence: refused before ('units must be a
    # sequence of strings ... received ndarray'); its values become Python's own strings
    import numpy as np

    from stability import Document, grid, stability_test

    units = ["bread oven rye.", "oven rye crust.", "goal match fans.", "match fans stadium."] * 3
    array = np.array(units)
    assert stability_test("even", array, n_restarts=2).to_dict() == stability_test("even", units, n_restarts=2).to_dict()
    on_arrays = evaluate({"even": "even"}, [array], n_restarts=2, progress=False)
    assert on_arrays.to_dict()["documents"] == evaluate({"even": "even"}, [units], n_restarts=2,
                                                        progress=False).to_dict()["documents"]
    doc = Document("x", array)
    assert doc.units == tuple(units) and type(doc.units[0]) is str
    with pytest.raises(InvalidTypeError, match="units must be a sequence of strings"):
        stability_test("even", np.array([units[:2], units[2:4]]), n_restarts=2)  # two dimensions: no list of units
    # a grid's values as an array, as a list (refused before: 'must be a non-empty list')
    assert list(grid("texttiling", {"w": np.array([10, 20])})) == list(grid("texttiling", {"w": [10, 20]}))


@pytest.mark.parametrize("setting", ["resume", "overwrite"])
def test_resume_or_overwrite_without_output_is_refused(setting):
    # it ran a fresh run in memory without a word, as if it had continued (or replaced) one
    with pytest.raises(InvalidParameterError, match=f"{setting}=True needs output="):
        evaluate({"even": "even"}, [["a"] * 12], n_restarts=2, progress=False, **{setting: True})


def test_a_corpus_result_round_trips_through_to_dict_and_from_dict():
    # to_dict had no way back in memory (AttributeError: from_dict): only a file and load_results
    import json

    from stability import Document
    from stability.results import CorpusResult

    docs = [Document(f"d{i}", UNITS * 2, references=([4, 9],)) for i in range(3)]
    run = evaluate({"even": "even", "bad": lambda units: "not boundaries", "c99": "c99"}, docs, n_restarts=4,
                   progress=False)
    assert run.failures and run.documents["c99"][0].reference_metrics
    back = CorpusResult.from_dict(json.loads(json.dumps(run.to_dict())))
    assert json.dumps(back.to_dict(), sort_keys=True) == json.dumps(run.to_dict(), sort_keys=True)
    assert render(back, "json") == render(run, "json")
    with pytest.raises(InvalidParameterError, match=r"data must be a CorpusResult's to_dict\(\); received list"):
        CorpusResult.from_dict([])
    with pytest.raises(InvalidParameterError, match="invalid run settings .*n_restarts"):
        CorpusResult.from_dict({"settings": {"n_restarts": 0}})


def test_compute_all_takes_the_aliases_every_other_metric_list_takes():
    """``--metrics wd,b`` and ``[metrics] names = ["wd", "b"]`` take the catalogue's aliases, but
    ``compute_all(names=["wd", "b"])`` refused them; they now stand for their names, the keys of
    the result being the names (as in every report)."""
    ref, hyp = Segmentation([3, 7], 9), Segmentation([2, 8], 9)
    values = compute_all(ref, hyp, names=["wd", "b", "pk", "windowdiff"])
    assert values == {"windowdiff": compute_all(ref, hyp)["windowdiff"], "pk": compute_all(ref, hyp)["pk"],
                      "boundary_similarity": 0.5}
    assert list(values) == ["windowdiff", "boundary_similarity", "pk"]
    with pytest.raises(InvalidParameterError, match=r"names must be reference metric names .*\(or an alias: .*wd = windowdiff"):
        compute_all(ref, hyp, names=["wisebe"])  # against several references: multi_reference_metrics


def test_documents_too_short_for_the_window_are_named_once_whatever_the_blocks():
    # the warning was said per block of documents (64 by default), each naming its own few: a corpus
    # of many blocks repeated it, and its list of documents came in pieces
    docs = [{"id": f"s{i}", "units": UNITS[:3], "references": [[1]]} for i in range(3)]
    docs.insert(1, {"id": "a", "units": UNITS * 2, "references": [[3, 7]]})
    with pytest.warns(SettingsWarning) as caught:
        evaluate({"e": lambda u: [1]}, docs, n_restarts=2, progress=False, metrics={"k": 4}, block_size=1)
    said = [str(w.message) for w in caught if "is longer than" in str(w.message)]
    assert len(said) == 1 and said[0].startswith(
        "metrics k = 4 is longer than the 3 document(s) 's0' (3 units), 's1' (3 units), 's2' (3 units) can hold")
