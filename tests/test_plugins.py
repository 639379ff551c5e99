"""Plugin discovery: entry points (from a throwaway ``*.dist-info`` on ``sys.path``, no install),
``module:attribute`` strings, plain callables, and failures reported by name."""

from __future__ import annotations

import importlib
import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from stability import available_segmenters, get_segmenter, register
from stability.exceptions import InvalidParameterError, InvalidTypeError, UnknownSegmenterError
from stability.registry import describe_segmenters, factory_params, unregister

PLUGIN_MODULE = "stability_fake_plugin_mod"


@pytest.fixture
def fake_plugin(tmp_path, monkeypatch):
    """A distribution 'fake-stability-plugin' 1.2 with a working and a broken entry point."""
    (tmp_path / f"{PLUGIN_MODULE}.py").write_text(textwrap.dedent(
        """
        from stability.segmenter import Segmenter

        IMPORTED = True
        NOT_CALLABLE = 42

        class EveryOther(Segmenter):
            name = "every_other"

            def __init__(self, step=2):
                self.step = step

            def segment(self, units):
                return list(range(self.step, len(units), self.step))

        def halves(units, minimum=2):
            return [len(units) // 2] if len(units) >= minimum else []

        class NeedsArguments(Segmenter):
            def __init__(self, width, depth=3):
                self.width = width
                self.depth = depth

            def segment(self, units):
                return []

        class ExplodesOnConstruction(Segmenter):
            def __init__(self):
                raise RuntimeError("no model file")
        """
    ))
    (tmp_path / f"{PLUGIN_MODULE}_dep.py").write_text("import stability_no_such_dependency.sub\n")
    (tmp_path / f"{PLUGIN_MODULE}_raises.py").write_text("raise RuntimeError('no config file')\n")
    dist = tmp_path / "fake_stability_plugin-1.2.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-stability-plugin\nVersion: 1.2\n")
    (dist / "entry_points.txt").write_text(textwrap.dedent(
        f"""
        [stability.segmenters]
        fake_every_other = {PLUGIN_MODULE}:EveryOther
        fake_halves = {PLUGIN_MODULE}:halves
        fake_broken = stability_fake_missing_module:Nope
        fake_bad_attribute = {PLUGIN_MODULE}:DoesNotExist
        fake_needs_arguments = {PLUGIN_MODULE}:NeedsArguments
        fake_explodes = {PLUGIN_MODULE}:ExplodesOnConstruction
        fake_not_callable = {PLUGIN_MODULE}:NOT_CALLABLE
        fake_misspelt = {PLUGIN_MODULE}:EveryOthr
        fake_whole_module = {PLUGIN_MODULE}
        fake_needs_dependency = {PLUGIN_MODULE}_dep:Seg
        fake_raises_on_import = {PLUGIN_MODULE}_raises:Seg
        """
    ))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield tmp_path
    sys.modules.pop(PLUGIN_MODULE, None)


def test_plugin_is_discovered_lazily_with_its_provenance(fake_plugin):
    infos = available_segmenters()
    info = infos["fake_every_other"]
    assert info.origin == "plugin"
    assert info.distribution == "fake-stability-plugin"
    assert info.version == "1.2"
    assert info.target == f"{PLUGIN_MODULE}:EveryOther"
    assert infos["c99"].origin == "built-in"
    # listing did not import anything
    assert PLUGIN_MODULE not in sys.modules


def test_plugin_segmenter_loads_and_takes_parameters(fake_plugin):
    seg = get_segmenter("fake_every_other", step=3)
    assert seg(["u"] * 10) == [3, 6, 9]
    assert seg.get_params() == {"step": 3}
    halves = get_segmenter("fake_halves", minimum=5)
    assert halves(["u"] * 4) == [] and halves(["u"] * 6) == [3]


def test_broken_plugin_is_reported_by_name_and_breaks_nothing_else(fake_plugin):
    with pytest.raises(UnknownSegmenterError, match="fake_broken"):
        get_segmenter("fake_broken")
    with pytest.raises(UnknownSegmenterError, match="fake_bad_attribute"):
        get_segmenter("fake_bad_attribute")
    report = describe_segmenters()
    assert not report["fake_broken"].ok
    assert "ModuleNotFoundError" in report["fake_broken"].error
    assert "stability_fake_missing_module" in report["fake_broken"].error
    assert not report["fake_bad_attribute"].ok
    assert report["fake_every_other"].ok and report["fake_every_other"].params == {"step": 2}
    assert report["fake_halves"].params == {"minimum": 2}
    # a class that needs arguments is fine (its signature is shown); one that raises is reported
    assert report["fake_needs_arguments"].ok
    assert report["fake_needs_arguments"].params == {"width": None, "depth": 3}
    assert not report["fake_explodes"].ok and "no model file" in report["fake_explodes"].error
    for name in ("c99", "u00", "texttiling", "texttiling_nltk", "none", "all", "even", "random"):
        assert report[name].ok, report[name].error
        assert report[name].info.origin == "built-in"
    assert report["c99"].fast_path and report["c99"].params["mask_size"] == 11
    assert report["c99"].description.startswith("C99 (Choi 2000)")
    assert report["fake_halves"].description is None  # no docstring
    assert report["fake_every_other"].description is None  # not Segmenter's docstring
    assert get_segmenter("c99", n_segments=2)(["a b", "c d", "e f"])  # still works


def test_module_attribute_strings():
    seg = get_segmenter("segmenters.c99:C99", n_segments=2)
    assert seg.get_params()["n_segments"] == 2
    with pytest.raises(UnknownSegmenterError, match="cannot import"):
        get_segmenter("stability_no_such_module:thing")
    with pytest.raises(UnknownSegmenterError, match="no attribute"):
        get_segmenter("segmenters.c99:NoSuchClass")


def test_a_name_leading_to_a_non_callable_is_refused_at_once_naming_it(fake_plugin):
    # it used to be returned as the segmenter (42), and refused later as "segmenter must be ...; received int 42"
    for spec in (f"{PLUGIN_MODULE}:NOT_CALLABLE", "fake_not_callable"):
        with pytest.raises(InvalidTypeError, match=rf"segmenter '{spec}' must be a callable .*Segmenter.*; received int 42"):
            get_segmenter(spec)
    with pytest.raises(InvalidTypeError, match="'math:pi' must be a callable"):
        get_segmenter("math:pi", n_segments=2)
    report = describe_segmenters(["fake_not_callable"])["fake_not_callable"]
    assert not report.ok and "InvalidTypeError" in report.error and "received int 42" in report.error
    # an entry point's says which package declares it and what to do (it did not)
    fix = ('; correct the entry point in the [project.entry-points."stability.segmenters"] table of '
           "fake-stability-plugin's pyproject.toml and reinstall it (pip install -e . in its folder), "
           "or uninstall it (pip uninstall fake-stability-plugin)")
    with pytest.raises(InvalidTypeError) as caught:
        get_segmenter("fake_not_callable")
    assert str(caught.value).endswith(f"received int 42 (the entry point '{PLUGIN_MODULE}:NOT_CALLABLE' of "
                                      f"fake-stability-plugin 1.2): it names no segmenter class or function{fix}")
    with pytest.raises(InvalidTypeError) as caught:
        get_segmenter("fake_whole_module")
    assert str(caught.value).endswith(f"(the entry point '{PLUGIN_MODULE}' of fake-stability-plugin 1.2): it names a "
                                      f"module, not a segmenter class or function in it ('module:attribute'){fix}")


@pytest.fixture
def cwd_off_the_path(tmp_path, monkeypatch):
    """The current directory, a fresh one, left off ``sys.path`` (as the ``stability`` console
    script leaves it), with ``myseg.py``, a package ``mypkg/`` and ``brokenseg.py`` in it; a
    ``brokenseg.py`` that imports a missing module is on the path, in another folder."""
    (tmp_path / "myseg.py").write_text("def fn(units):\n    return []\n")
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("")
    (tmp_path / "brokenseg.py").write_text("")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "brokenseg.py").write_text("import stability_no_such_dependency\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "lib")] + [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    importlib.invalidate_caches()
    return tmp_path


def test_a_module_in_the_current_directory_off_the_import_path_gets_a_hint(cwd_off_the_path):
    hint = "the current directory is not on the import path (the `stability` command does not add it): " \
           "run with PYTHONPATH=. or with python -m stability"
    with pytest.raises(UnknownSegmenterError) as caught:
        get_segmenter("myseg:fn")
    assert str(caught.value) == f"segmenter 'myseg:fn': cannot import module 'myseg' (No module named 'myseg'); " \
                                f"./myseg.py exists, but {hint}"
    with pytest.raises(UnknownSegmenterError, match=r"'mypkg'\); \./mypkg/ exists, but the current directory"):
        get_segmenter("mypkg.seg:segment")
    # no hint for a module found whose own import fails, nor for one that is not here
    with pytest.raises(UnknownSegmenterError, match=r"\(No module named 'stability_no_such_dependency'\)$"):
        get_segmenter("brokenseg:x")
    with pytest.raises(UnknownSegmenterError, match=r"\(No module named 'stability_no_such_module'\)$"):
        get_segmenter("stability_no_such_module:x")
    sys.path.insert(0, str(cwd_off_the_path))  # as python -m stability puts it
    assert get_segmenter("myseg:fn")(["a", "b"]) == []
    for name in ("myseg", "brokenseg"):
        sys.modules.pop(name, None)


def test_a_misspelt_module_or_attribute_is_named_with_the_closest_one():
    with pytest.raises(UnknownSegmenterError, match=r"module 'segmenters\.c99' has no attribute 'c99'; did you mean 'C99'\?$"):
        get_segmenter("segmenters.c99:c99")
    with pytest.raises(UnknownSegmenterError, match=r"cannot import module 'segmenters\.c9' \(No module named "
                                                    r"'segmenters\.c9'\); did you mean 'segmenters\.c99'\?$"):
        get_segmenter("segmenters.c9:C99")
    with pytest.raises(UnknownSegmenterError, match=r"\(No module named 'stability_no_such_package'\)$"):
        get_segmenter("stability_no_such_package.c99:C99")  # no package to look into: no guess


def test_plain_callables_and_bound_parameters():
    def every(units, step=2):
        return list(range(step, len(units), step))

    assert get_segmenter(every)(["u"] * 5) == [2, 4]
    assert get_segmenter(every, step=4)(["u"] * 9) == [4, 8]
    with pytest.raises(InvalidParameterError):
        get_segmenter(every, stride=4)
    assert factory_params(every) == {"step": 2}


def test_an_unknown_parameter_is_one_sentence_listing_the_parameters_without_the_input():
    def every(units, step=2, *, offset=0):
        return list(range(step + offset, len(units), step))

    with pytest.raises(InvalidParameterError) as caught:
        get_segmenter(every, k=3)
    assert str(caught.value) == "segmenter 'every' has no parameter 'k'. Its parameters: step, offset"
    with pytest.raises(InvalidParameterError, match=r"has no parameter 'units'\. Its parameters: step, offset$"):
        get_segmenter(every, units=["a"])  # the input is not a parameter
    with pytest.raises(InvalidParameterError, match=r"has no parameter 'k'\. Its parameters: none$"):
        get_segmenter(lambda units: [], k=3)
    with pytest.raises(InvalidParameterError, match=r"'stp'; did you mean 'step'\? Its parameters: step, offset$"):
        get_segmenter(every, stp=3)
    with pytest.raises(InvalidParameterError, match=r"Its parameters: n_segments, mask_size, "):
        get_segmenter("c99", k=3)  # a class: every parameter of its __init__


def test_parameters_given_to_a_built_instance_name_its_class():
    """An instance (a plugin's ``module:instance``) takes no parameters; the message used to say it
    has none ("Its parameters: none"), although its get_params lists them."""
    from stability import Segmenter

    class Every(Segmenter):
        def __init__(self, step=2):
            self.step = step

        def segment(self, units):
            return list(range(self.step, len(units), self.step))

    with pytest.raises(InvalidParameterError) as caught:
        get_segmenter(Every(step=3), step=4)
    message = str(caught.value)
    assert "is an instance already built (Every(step=3))" in message and "'step' given" in message
    assert f"'{Every.__module__}:{Every.__qualname__}'" in message and "Its parameters: none" not in message
    assert get_segmenter(Every, step=4).get_params() == {"step": 4}


def test_a_parameter_not_stored_under_its_name_is_named_by_get_params_and_repr_never_fails():
    from stability import Segmenter, stability_test

    class Private(Segmenter):
        def __init__(self, step=2):
            self._step = step  # breaks the convention: get_params reads self.step

        def segment(self, units):
            return list(range(self._step, len(units), self._step))

    assert repr(Private()) == "Private(step=<not stored>)"  # used to raise AttributeError
    with pytest.raises(AttributeError, match=r"the __init__ parameter 'step' must be stored as self\.step"):
        Private().get_params()
    with pytest.raises(AttributeError, match=r"must be stored as self\.step"):
        stability_test(Private(), ["u"] * 6, n_restarts=2)


def test_two_threads_registering_one_name_cannot_both_succeed(monkeypatch):
    """register checked the name and wrote it in two steps: two threads could both pass the check,
    and the second silently replaced the first's segmenter."""
    import threading

    from stability import registry

    barrier = threading.Barrier(2, timeout=1)

    class Racing(dict):
        def __contains__(self, key):  # both threads check the name before either writes it
            found = super().__contains__(key)
            try:
                barrier.wait()
            except threading.BrokenBarrierError:  # the other thread is held by the lock
                pass
            return found

    monkeypatch.setattr(registry, "_REGISTERED", Racing())
    outcomes = []

    def attempt(factory):
        try:
            register("test_race", factory)
            outcomes.append("registered")
        except InvalidParameterError:
            outcomes.append("refused")

    threads = [threading.Thread(target=attempt, args=(lambda units, i=i: [],)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "registered"]


def test_registered_names_and_unknown_names():
    register("test_plugin_third", lambda units: [1] if len(units) > 1 else [])
    try:
        assert available_segmenters()["test_plugin_third"].origin == "registered"
        assert get_segmenter("test_plugin_third")(["a", "b"]) == [1]
        assert describe_segmenters(["test_plugin_third"])["test_plugin_third"].ok
    finally:
        unregister("test_plugin_third")
    with pytest.raises(UnknownSegmenterError, match="Did you mean 'c99'"):
        get_segmenter("c98")
    assert not describe_segmenters(["c98"])["c98"].ok


def test_a_parameter_without_default_is_named_with_how_to_give_it_and_listed_as_required(fake_plugin):
    """A plugin class whose constructor needs a value (a model path) was refused with Python's
    TypeError ("bad parameters {}: ...__init__() missing 1 required positional argument") and
    listed by ``stability segmenters`` with a default of None, which it does not have."""
    with pytest.raises(InvalidParameterError) as caught:
        get_segmenter("fake_needs_arguments")
    assert str(caught.value) == (
        "segmenter 'fake_needs_arguments' needs parameter 'width', which has no default: give it as "
        "-s 'fake_needs_arguments,width=VALUE' on the command line, as width = VALUE in its config table, "
        "or as get_segmenter('fake_needs_arguments', width=...) from Python")
    assert get_segmenter("fake_needs_arguments", width=3).get_params() == {"width": 3, "depth": 3}
    with pytest.raises(InvalidParameterError, match=r"no parameter 'widht'; did you mean 'width'\?"):
        get_segmenter("fake_needs_arguments", widht=3)  # a misspelling is named first, not as a missing 'width'

    def every(units, k, *, start):
        return list(range(start + k, len(units), k))

    with pytest.raises(InvalidParameterError, match=r"^segmenter 'every' needs parameters 'k', 'start', which have "
                                                    r"no default: give them as get_segmenter\(\.\.\., k=\.\.\., start=\.\.\.\)$"):
        get_segmenter(every)  # a function was returned as is, to fail on every document of a run
    assert get_segmenter(every, k=2, start=0)(["u"] * 5) == [2, 4]

    status = describe_segmenters(["fake_needs_arguments"])["fake_needs_arguments"]
    assert status.ok and status.required == ("width",)
    from stability.reporting import render

    assert "| width | (required) |" in render({"x": status}, "md")
    data = json.loads(render({"x": status}, "json"))["segmenters"][0]
    assert data["parameters"] == {"width": "(required)", "depth": "3"} and data["required"] == ["width"]


def test_an_entry_point_that_does_not_load_names_its_package_and_what_to_do(fake_plugin):
    """It said which target failed and Python's error, not which package declares it nor what to do;
    ``stability segmenters`` said only Python's error."""
    fix = ('correct the entry point in the [project.entry-points."stability.segmenters"] table of '
           "fake-stability-plugin's pyproject.toml and reinstall it (pip install -e . in its folder), "
           "or uninstall it (pip uninstall fake-stability-plugin)")
    expected = {
        "fake_broken": "ModuleNotFoundError: No module named 'stability_fake_missing_module' (the entry point "
                       f"'stability_fake_missing_module:Nope' of fake-stability-plugin 1.2); {fix}",
        "fake_bad_attribute": f"AttributeError: module '{PLUGIN_MODULE}' has no attribute 'DoesNotExist' (the entry "
                              f"point '{PLUGIN_MODULE}:DoesNotExist' of fake-stability-plugin 1.2); {fix}",
        "fake_misspelt": f"AttributeError: module '{PLUGIN_MODULE}' has no attribute 'EveryOthr' (the entry "
                         f"point '{PLUGIN_MODULE}:EveryOthr' of fake-stability-plugin 1.2); did you mean 'EveryOther'?; "
                         f"{fix}",
        "fake_needs_dependency": f"ModuleNotFoundError: No module named 'stability_no_such_dependency' (the entry point "
                                 f"'{PLUGIN_MODULE}_dep:Seg' of fake-stability-plugin 1.2): its module "
                                 f"'{PLUGIN_MODULE}_dep' imports 'stability_no_such_dependency', which is not "
                                 "installed: install it (or the extra of fake-stability-plugin that brings it)",
        "fake_raises_on_import": f"RuntimeError: no config file (the entry point '{PLUGIN_MODULE}_raises:Seg' of "
                                 f"fake-stability-plugin 1.2): importing it raised; run python -c \"import "
                                 f"{PLUGIN_MODULE}_raises\" to see where, and fix it or uninstall fake-stability-plugin",
    }
    for name, said in expected.items():
        with pytest.raises(UnknownSegmenterError) as caught:
            get_segmenter(name)
        assert str(caught.value) == f"segmenter {name!r} failed to load: {said}"
        assert describe_segmenters([name])[name].error == said


def test_a_plugin_holds_its_segmenters_to_the_contract_with_one_test_per_check(fake_plugin):
    """A plugin's test suite had check_segmenter on one object at a time: nothing listed the
    segmenters its package publishes, nor made each check a test of its own."""
    from stability.contract import CHECKS, parametrize_with_checks, published_segmenters

    ours = published_segmenters("Fake_Stability.Plugin")  # compared as packaging compares names
    assert "fake_every_other" in ours and "fake_broken" in ours and "c99" not in ours
    with pytest.raises(InvalidParameterError, match=r"no installed package named 'fake-stability-plgin' publishes a "
                                                    r"segmenter: install it .*; packages publishing segmenters here: "
                                                    r".*fake-stability-plugin"):
        published_segmenters("fake-stability-plgin")

    NeedsArguments = importlib.import_module(PLUGIN_MODULE).NeedsArguments
    mark = parametrize_with_checks({"fake_needs_arguments": NeedsArguments(width=2)},
                                   distribution="fake-stability-plugin")
    cases = {param.id: param.values for param in mark.args[1]}
    assert len(cases) == len(ours) * len(CHECKS)
    segmenter, check = cases["fake_needs_arguments-valid_output"]
    assert isinstance(segmenter, NeedsArguments)  # the object given replaces the name, which needs a width
    segmenter, check = cases["fake_every_other-deterministic"]
    assert segmenter == "fake_every_other" and check(segmenter).status == "passed"
    segmenter, check = cases["fake_broken-valid_output"]
    with pytest.raises(pytest.fail.Exception, match="^UnknownSegmenterError: .*fake-stability-plugin 1.2"):
        check(segmenter)  # fails its tests (at run time, not collection) with the reason
    segmenter, check = cases["fake_halves-fast_path"]
    with pytest.raises(pytest.skip.Exception, match="^fast_path: no fast restart path"):
        check(segmenter)
    [param] = parametrize_with_checks([lambda units: [0]], checks=["valid_output"]).args[1]
    with pytest.raises(pytest.fail.Exception, match="FAILED +valid_output +on the document of 1 empty unit"):
        param.values[1](param.values[0])
    with pytest.raises(InvalidParameterError, match="no segmenter to check"):
        parametrize_with_checks()
    twins = parametrize_with_checks([lambda units: [], lambda units: [1]], checks=["valid_output"]).args[1]
    lambda_ = "test_a_plugin_holds_its_segmenters_to_the_contract_with_one_test_per_check.<locals>.<lambda>"
    assert [param.id for param in twins] == [f"{lambda_}-valid_output", f"{lambda_}#2-valid_output"]  # none lost
    with pytest.raises(InvalidParameterError, match="checks"):
        parametrize_with_checks(["even"], checks=["determinstic"])


def test_a_plugin_test_file_runs_every_check_as_a_test(fake_plugin):
    """The README's test file of a plugin, run by pytest as its author runs it."""
    (fake_plugin / "test_mine.py").write_text(textwrap.dedent(
        """
        from stability.contract import parametrize_with_checks

        @parametrize_with_checks({"fake_needs_arguments": __import__("stability_fake_plugin_mod").NeedsArguments(width=2)},
                                 distribution="fake-stability-plugin", checks=["valid_output", "fast_path"])
        def test_contract(segmenter, check):
            check(segmenter)
        """))
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(fake_plugin), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rN", "test_mine.py"],
                          cwd=fake_plugin, env=env, capture_output=True, text=True, timeout=300)
    summary = done.stdout.strip().splitlines()[-1]
    # 11 entry points, 2 checks: the 8 that fail to load or to build fail both; fast_path skips on the others
    assert re.match(r"16 failed, 3 passed, 3 skipped", summary), done.stdout[-3000:]
    assert "fake_broken-valid_output" in done.stdout and "fake_every_other-valid_output" not in done.stdout
    broken = re.search(r"test_contract\[fake_broken-valid_output\] _+\n(.*?)\n[_=]{5}", done.stdout, re.S).group(1)
    assert broken.strip().startswith("UnknownSegmenterError: segmenter 'fake_broken' failed to load")
    assert "registry.py" not in broken  # the reason, not the harness's traceback (kept for a plugin's own error)


def test_n_segments_reference_blames_n_segments_only_when_the_segmenter_lacks_it():
    """A segmenter with n_segments and a parameter it needs, given n_segments='reference' without
    that parameter, was told 'n_segments='reference' needs a segmenter with an n_segments parameter'."""
    class Needs:
        def __init__(self, model_path, n_segments=None):
            self.model_path, self.n_segments = model_path, n_segments

        def __call__(self, units):
            return []

    with pytest.raises(InvalidParameterError) as caught:
        get_segmenter(Needs, n_segments="reference")
    assert "needs parameter 'model_path'" in str(caught.value) and "needs a segmenter with" not in str(caught.value)
    with pytest.raises(InvalidParameterError, match=r"has no parameter 'n_segments'.*\(n_segments='reference' needs a "
                                                    r"segmenter with an n_segments parameter\)$"):
        get_segmenter(lambda units, k=2: [], n_segments="reference")
    assert get_segmenter(Needs, model_path="m", n_segments="reference").get_params()["n_segments"] == "reference"


def _divides_by_zero(units):
    return len(units) / 0


def _raises_in_a_helper(units):
    return _divides_by_zero(units)


def test_a_failing_segmenter_s_traceback_is_kept_where_the_readme_says(tmp_path):
    """The README tells a segmenter's author where the traceback of a failure is: the record's
    ``traceback`` in results.jsonl, and ``Failure.traceback``; it names the segmenter's own frame."""
    from stability import evaluate

    result = evaluate({"bad": _raises_in_a_helper}, [["a b", "c d", "e f"]], n_restarts=2,
                      output=tmp_path / "results.jsonl")
    [failure] = result.failures
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    [kept] = [record["failure"]["traceback"] for record in records if record["type"] == "failure"]
    for traceback in (failure.traceback, kept):
        assert "in _divides_by_zero\n" in traceback and __file__ in traceback
        assert traceback.rstrip().endswith("ZeroDivisionError: division by zero")
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "is the `traceback` of its record in `results.jsonl`, and of\nits `Failure` in `result.failures`" in readme
