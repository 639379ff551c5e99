"""stability.bulk: loading a results file and writing the JSON report run with the cyclic garbage
collector paused, and leave it as they found it (enabled, or paused by the caller), errors too."""

from __future__ import annotations

import gc

import pytest

from stability import evaluate
from stability.exceptions import CorpusFormatError
from stability.reporting import render
from stability.store import load_results


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("bulk") / "results.jsonl"
    evaluate({"even": "even"}, [[f"u{i}" for i in range(8)]] * 3, n_restarts=2, progress=False, output=out)
    return out


def _seen(monkeypatch, module, name):
    """Record whether the collector runs each time ``module.name`` is called."""
    seen = []
    original = getattr(module, name)

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, spy)
    return seen


def test_loading_a_results_file_pauses_the_collector_then_enables_it(results, monkeypatch):
    import stability.store

    seen = _seen(monkeypatch, stability.store, "check_fields")
    assert gc.isenabled()
    load_results(results)
    assert seen and not any(seen)
    assert gc.isenabled()


def test_the_json_report_is_written_with_the_collector_paused(results, monkeypatch):
    import stability.reporting.formats.json as json_format

    seen = _seen(monkeypatch, json_format, "indented")
    result = load_results(results)
    text = render(result, "json")
    assert seen == [False] and text.startswith("{") and gc.isenabled()


def test_the_collector_is_enabled_again_after_an_error_and_left_paused_if_it_was(results, tmp_path):
    bad = tmp_path / "results.jsonl"
    bad.write_text(results.read_text().splitlines()[0] + "\n{oops\n{}\n")
    with pytest.raises(CorpusFormatError):
        load_results(bad)
    assert gc.isenabled()
    gc.disable()
    try:
        load_results(results)
        assert not gc.isenabled()
    finally:
        gc.enable()
