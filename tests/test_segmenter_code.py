"""Where a run's segmenters come from is in its record: a plugin's package and version, a wrapped
library's, a local module's file digest (``provenance["segmenter_code"]``); a resume under other
versions warns, and the reproduce note names them."""

from __future__ import annotations

import importlib
import json
import sys
import textwrap

import pytest

from stability import evaluate, get_segmenter
from stability.store import ResultsWarning
from stability.registry import segmenter_code
from stability.reporting.corpus import reproduce_note

MODULE = "stability_code_test_plugin"
SOURCE = textwrap.dedent("""
    def every_third(units):
        return list(range(3, len(units), 3))
    """)
DOCS = [["a b", "c d", "e f", "g h", "i j", "k l", "m n"], ["o p", "q r", "s t", "u v", "w x", "y z"]]


def _distribution(folder, version):
    """A distribution 'fake-code-plugin' ``version`` providing MODULE (a dist-info whose
    top_level.txt names it, as an installed wheel's does)."""
    for old in folder.glob("fake_code_plugin-*.dist-info"):
        for f in old.iterdir():
            f.unlink()
        old.rmdir()
    dist = folder / f"fake_code_plugin-{version}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fake-code-plugin\nVersion: {version}\n")
    (dist / "top_level.txt").write_text(f"{MODULE}\n")
    importlib.invalidate_caches()


@pytest.fixture
def module(tmp_path, monkeypatch):
    (tmp_path / f"{MODULE}.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield tmp_path
    sys.modules.pop(MODULE, None)


def _header(path):
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_a_plugin_package_and_version_are_recorded_and_a_resume_after_an_upgrade_warns(module, tmp_path):
    _distribution(module, "1.0")
    seg = get_segmenter(f"{MODULE}:every_third")
    assert segmenter_code(seg) == {"fake-code-plugin": "1.0"}
    out = tmp_path / "run" / "results.jsonl"
    result = evaluate({"mine": seg, "even": "even"}, DOCS, output=out, n_restarts=3, progress=False,
                      provenance={"command": "stability run"})
    recorded = _header(out)["provenance"]["segmenter_code"]
    assert recorded == {"mine": {"fake-code-plugin": "1.0"}}  # the built-in 'even' adds nothing
    assert "fake-code-plugin 1.0 (mine)" in reproduce_note(result)[0]

    _distribution(module, "1.1")
    with pytest.warns(ResultsWarning, match=r"segmenter 'mine' from fake-code-plugin 1\.0 \(now 1\.1\)"):
        resumed = evaluate({"mine": seg, "even": "even"}, DOCS, output=out, n_restarts=3, progress=False, resume=True)
    # the record keeps the versions the file was started with, as for stability's own
    assert resumed.settings["provenance"]["segmenter_code"] == {"mine": {"fake-code-plugin": "1.0"}}


def test_a_local_module_is_recorded_by_its_file_digest_and_an_edit_warns_on_resume(module, tmp_path):
    seg = get_segmenter(f"{MODULE}:every_third")
    (found,) = segmenter_code(seg).items()
    assert found[0] == MODULE and found[1].startswith("file sha256:") and len(found[1]) == len("file sha256:") + 12
    out = tmp_path / "results.jsonl"
    evaluate({"mine": seg}, DOCS, output=out, n_restarts=3, progress=False)
    (module / f"{MODULE}.py").write_text(SOURCE + "\n# tuned\n")
    with pytest.warns(ResultsWarning, match=rf"segmenter 'mine' from {MODULE} file sha256:\w+ \(now file sha256:\w+\)"):
        evaluate({"mine": seg}, DOCS, output=out, n_restarts=3, progress=False, resume=True)


def test_a_segmenter_added_on_resume_has_its_code_recorded(module, tmp_path):
    out = tmp_path / "results.jsonl"
    evaluate({"even": "even"}, DOCS, output=out, n_restarts=3, progress=False)
    assert "segmenter_code" not in _header(out)["provenance"]  # built-in segmenters: the record as before
    with pytest.warns(ResultsWarning, match="added"):
        evaluate({"even": "even", "mine": f"{MODULE}:every_third"}, DOCS, output=out, n_restarts=3, progress=False,
                 resume=True)
    last_header = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()
                   if json.loads(line)["type"] == "run"][-1]
    assert set(last_header["provenance"]["segmenter_code"]) == {"mine"}


def test_builtin_segmenters_record_nothing_and_wrappers_record_what_they_wrap(module):
    assert segmenter_code(get_segmenter("c99")) == {}
    assert segmenter_code(get_segmenter("c99", n_segments="reference")) == {}
    _distribution(module, "2.0")
    wrapped = get_segmenter(f"{MODULE}:every_third")
    import functools

    assert segmenter_code(functools.partial(wrapped)) == {"fake-code-plugin": "2.0"}


def test_a_chunker_adapter_records_the_library_it_wraps():
    pytest.importorskip("langchain_text_splitters")
    from importlib.metadata import version

    assert segmenter_code(get_segmenter("langchain_recursive")) == {
        "langchain-text-splitters": version("langchain-text-splitters")}
