"""One Settings object, declared once: built by keyword, checked once, read by the API and configs."""

from __future__ import annotations

import dataclasses
import inspect
import re

import numpy as np
import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from conftest import cohesion_segmenter, topical_document
from stability import Document, InvalidParameterError, InvalidTypeError, evaluate, stability_test
from stability.config import _run_keys, load_config, run_experiment
from stability.settings import Settings


def documented_parameters() -> list[str]:
    """Names in the numpydoc ``Parameters`` section of Settings (``name : type`` lines)."""
    # cleandoc: Python 3.13 strips a docstring's common indentation when compiling, earlier ones keep it
    section = inspect.cleandoc(Settings.__doc__).split("Parameters\n----------\n")[1].split("\nExamples")[0]
    return re.findall(r"^(\w+) :", section, flags=re.M)


def test_every_field_is_documented_once_in_declaration_order():
    assert documented_parameters() == [f.name for f in dataclasses.fields(Settings)]


def test_settings_are_keyword_only_and_frozen():
    with pytest.raises(TypeError):
        Settings(100, 0)  # positional: refused, so reordering fields can never swap two settings
    s = Settings(n_restarts=7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.n_restarts = 8


@pytest.mark.parametrize("call", [
    lambda: evaluate("even", [["a"] * 5], n_restart=3),
    lambda: stability_test("even", ["a"] * 5, n_restart=3),
])
def test_unknown_keywords_suggest_the_closest_and_list_the_valid_ones(call):
    with pytest.raises(InvalidParameterError, match=r"unknown setting 'n_restart'; did you mean 'n_restarts'\? "
                                                    r"\(valid settings: n_restarts, seed, .*retry_failed, timeout\)"):
        call()


def test_a_settings_object_and_keywords_give_the_same_run():
    docs = [Document(f"d{i}", tuple(topical_document(10 + i)[0])) for i in range(2)]
    given_object = evaluate({"lex": cohesion_segmenter}, docs, Settings(n_restarts=5, seed=2), progress=False)
    by_keyword = evaluate({"lex": cohesion_segmenter}, docs, n_restarts=5, seed=2, progress=False)
    assert given_object.to_dict() == by_keyword.to_dict()
    overridden = evaluate({"lex": cohesion_segmenter}, docs, Settings(n_restarts=5, seed=9), seed=2, progress=False)
    assert overridden.to_dict() == by_keyword.to_dict()
    alone = stability_test(cohesion_segmenter, docs[1], Settings(n_restarts=5, seed=2))
    assert {**alone.to_dict(), "segmenter": "lex"} == by_keyword.documents["lex"][1].to_dict()
    with pytest.raises(InvalidTypeError, match="settings must be a stability.Settings"):
        stability_test(cohesion_segmenter, docs[1], {"n_restarts": 5})


def test_config_run_keys_are_the_settings_fields():
    assert _run_keys() == tuple(f.name for f in dataclasses.fields(Settings) if f.name != "metrics") + ("scheduler",)


@pytest.mark.parametrize("text, error, fragment", [
    ('[run]\nshuffle_control = "no"\n', InvalidTypeError, "shuffle_control must be true or false; received str 'no'"),
    ("[run]\nn_jobs = 0\n", InvalidParameterError, "n_jobs must be a non-zero integer"),
    ('[run]\nbackend = "lokky"\n', InvalidParameterError, "backend must be one of .*did you mean 'loky'"),
    ("[run]\nmetrics = false\n", InvalidParameterError, r"unknown key 'metrics' in \[run\]"),
])
def test_config_values_go_through_the_same_checks(tmp_path, text, error, fragment):
    config = tmp_path / "exp.toml"
    config.write_text('[corpus]\ndemo = { n_documents = 2 }\n[segmenters.even]\n' + text)
    with pytest.raises(error, match=fragment):
        run_experiment(load_config(config), progress=False)


INT_FIELDS = ("n_restarts", "min_restarts", "check_every", "n_bootstrap")


@hypothesis_settings(max_examples=60, deadline=None)  # up to 60,000: within the bootstrap bound with 1000 resamples
@given(name=st.sampled_from(INT_FIELDS), value=st.integers(min_value=1, max_value=60_000),
       as_numpy=st.booleans())
def test_integer_settings_are_stored_as_python_ints(name, value, as_numpy):
    given_value = np.int64(value) if as_numpy else value
    s = Settings(**{name: given_value})
    assert type(s.to_dict()[name]) is int and s.to_dict()[name] == value


@given(name=st.sampled_from(INT_FIELDS + ("seed", "tolerance")), value=st.booleans() | st.floats() | st.text())
def test_integer_settings_refuse_booleans_floats_and_strings(name, value):
    with pytest.raises(InvalidTypeError, match=rf"{name} must be an integer"):
        Settings(**{name: value})


@given(value=st.integers() | st.text() | st.none())
def test_boolean_settings_take_only_booleans(value):
    with pytest.raises(InvalidTypeError, match="determinism_check must be true or false"):
        Settings(determinism_check=value)


def test_recorded_settings_are_those_that_change_results():
    recorded = Settings().to_dict()
    assert list(recorded) == ["n_restarts", "seed", "tolerance", "ci_width", "min_restarts", "check_every",
                              "shuffle_control", "determinism_check", "content_margin", "confidence", "n_bootstrap"]
    # execution settings are not recorded: resuming with other n_jobs or backend is allowed
    assert Settings(n_jobs=4, backend="threading").to_dict() == recorded


def test_metric_options_are_checked_and_normalised():
    assert Settings().metrics == {} and Settings(metrics=False).metrics is None
    assert Settings(metrics={"names": ("pk",)}).metrics == {"names": ["pk"]}
    with pytest.raises(InvalidParameterError, match="metrics must be True, False or a mapping with keys"):
        Settings(metrics={"kk": 2})
    with pytest.raises(InvalidParameterError, match="metrics names must be a list drawn from"):
        Settings(metrics={"names": ["nope"]})
    # the name not known is named, with the closest spelling, as --metrics does: before, a config's
    # `[metrics] names = ["pk", "wdd"]` was told only the whole list it gave
    with pytest.raises(InvalidParameterError, match=r"received \['pk', 'wdd'\]; unknown: 'wdd'; did you mean 'wd'\?$"):
        Settings(metrics={"names": ["pk", "wdd"]})


def test_settings_from_an_untrusted_source_are_bounded():
    # issue 12: a results file asked for 22 GiB of bootstrap indices; the product of resamples and
    # restarts is bounded (2**26 cells, 0.5 GiB of int64), whatever the source of the settings
    Settings(n_restarts=1000, n_bootstrap=10_000)  # 10**7 cells: fine
    with pytest.raises(InvalidParameterError, match="n_bootstrap x n_restarts"):
        Settings(n_restarts=100_000, n_bootstrap=100_000)


@pytest.mark.parametrize("seed", [np.random.default_rng(0), np.random.SeedSequence(1), np.random.RandomState(2)])
def test_a_numpy_random_state_as_seed_says_how_to_draw_an_integer(seed):
    """scikit-learn users pass a Generator as their random state; it was refused as any other
    non-integer, without saying why the seed must be an integer or how to get one."""
    with pytest.raises(InvalidTypeError, match=r"seed must be an integer >= 0 \(it is recorded with the results.*"
                                               r"int\(rng\.integers\(2\*\*32\)\)\); received " + type(seed).__name__):
        stability_test(lambda units: [], ["a", "b"], seed=seed)


def test_adaptive_stopping_warns_when_its_first_check_comes_too_early_for_its_confidence():
    """A percentile interval over n restarts holds the value at most 1 - 2^(1-n) of the time
    (stability.stats.percentile_coverage_bound): 75% over 3, 93.75% over 5, 96.875% over 6. A first
    check after fewer restarts than the confidence needs could stop on an interval that is not one."""
    import warnings

    from stability import Settings, SettingsWarning

    with pytest.warns(SettingsWarning, match=r"min_restarts=3: .* at most 75.0% .* use min_restarts=6 or more"):
        Settings(ci_width=0.1, min_restarts=3)
    with pytest.warns(SettingsWarning, match=r"min_restarts=5: .*use min_restarts=8 or more"):  # 0.99 needs 8
        Settings(ci_width=0.1, min_restarts=5, n_restarts=50, confidence=0.99)
    # the first check is at n_restarts when smaller: the warning names that setting, not min_restarts=4 (never given)
    with pytest.warns(SettingsWarning, match=r"^n_restarts=4 \(under min_restarts=20, the first check comes at the last "
                                             r"restart\): .* use n_restarts=6 or more$"):
        Settings(ci_width=0.1, min_restarts=20, n_restarts=4)
    # both too low: both said at once (raising min_restarts alone was then told about n_restarts)
    with pytest.warns(SettingsWarning, match=r"^min_restarts=3: .* use min_restarts=6 or more, and n_restarts=6 or more$"):
        Settings(ci_width=0.1, min_restarts=3, n_restarts=4)
    with pytest.warns(SettingsWarning, match=r"use min_restarts=6 or more$"):  # n_restarts enough: min_restarts only
        Settings(ci_width=0.1, min_restarts=3, n_restarts=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Settings(ci_width=0.1, min_restarts=6)  # 96.9% >= 95%
        Settings(min_restarts=1)  # no adaptive stopping: nothing stops on an interval


def test_too_few_bootstrap_resamples_warn_naming_the_key_and_value(tmp_path):
    """``n_bootstrap = 5`` was taken by ``run`` without a word (``validate`` refuses fewer than
    40): a percentile interval at level c leaves out (1 - c) / 2 of the resamples at each end,
    which needs 2 / (1 - c) of them to leave one out (hand computation: 2 / 0.05 = 40, 2 / 0.01 =
    200); with fewer, the interval's ends are drawn from the extreme resamples themselves. A run warns (as R's boot.ci does of "extreme order statistics used as endpoints") rather than
    refuses, so results files recorded so stay readable; the bound is declared once,
    ``settings.min_bootstrap``, and validate's ``MIN_BOOTSTRAP`` reads it."""
    import warnings

    from typer.testing import CliRunner

    from stability import SettingsWarning
    from stability.cli import app
    from stability.settings import min_bootstrap
    from stability.study.run import MIN_BOOTSTRAP

    assert (min_bootstrap(0.95), min_bootstrap(0.99)) == (40, 200) and MIN_BOOTSTRAP == 40
    with pytest.warns(SettingsWarning, match=r"^n_bootstrap=39: a 0.95 percentile interval .* use n_bootstrap=40 or more$"):
        Settings(n_bootstrap=39)
    with pytest.warns(SettingsWarning, match=r"^n_bootstrap=100: a 0.99 .* use n_bootstrap=200 or more$"):
        Settings(n_bootstrap=100, confidence=0.99)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Settings(n_bootstrap=40), Settings(n_bootstrap=200, confidence=0.99)
    config = tmp_path / "few.toml"
    config.write_text("[corpus]\ndemo = true\n[segmenters.even]\n[run]\nn_restarts = 2\nn_bootstrap = 5\n")
    ran = CliRunner().invoke(app, ["run", str(config)])
    assert ran.exit_code == 0, ran.output
    assert "warning: [run] n_bootstrap = 5: a 0.95 percentile interval" in ran.stderr
    assert ran.stderr.count("n_bootstrap = 5") == 1 and "use [run] n_bootstrap = 40 or more" in ran.stderr
