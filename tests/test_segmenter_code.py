"""Where a run's segmenters come from is in its record: a plugin's package and version, a wrapped
library's, a local module's file digest (``provenance["segmenter_code"]``); a resume under other
code computes that segmenter's pairs again (not reused), and the reproduce note names them."""

from __future__ import annotations

import importlib
import json
import re
import sys
import textwrap
import warnings

import pytest

from stability import evaluate, get_segmenter, load_results
from stability.store import ResultsWarning, count_pairs, read_run
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


def test_a_plugin_package_and_version_are_recorded_and_a_resume_after_an_upgrade_computes_its_pairs_again(
        module, tmp_path):
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
    calls = []

    def counted(units):
        calls.append(1)
        return seg(units)

    counted.__module__ = seg.__module__  # the same code, its calls counted
    with pytest.warns(ResultsWarning, match=r"the code of segmenter 'mine' changed since its results were computed "
                                            r"\(fake-code-plugin: 1\.0 then, 1\.1 now\): its 2 \(segmenter, document\) "
                                            r"pair\(s\) there are computed again"):
        resumed = evaluate({"mine": counted, "even": "even"}, DOCS, output=out, n_restarts=3, progress=False,
                           resume=True)
    assert calls  # 'mine' computed again, not reused
    # the last header names the code of now, for every result read back; the command is the file's
    headers = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if '"type": "run"' in line]
    assert len(headers) == 2 and headers[-1]["provenance"]["segmenter_code"] == {"mine": {"fake-code-plugin": "1.1"}}
    assert headers[-1]["provenance"]["command"] == "stability run"
    assert resumed.settings["provenance"]["segmenter_code"] == {"mine": {"fake-code-plugin": "1.1"}}
    loaded = load_results(out)
    assert loaded.settings["provenance"]["segmenter_code"] == {"mine": {"fake-code-plugin": "1.1"}}
    assert [r.document for r in loaded.documents["mine"]] == ["0", "1"]
    assert count_pairs(out) == 4
    # resumed again under the same code: everything reused
    calls.clear()
    evaluate({"mine": counted, "even": "even"}, DOCS, output=out, n_restarts=3, progress=False, resume=True)
    assert not calls


def test_a_resume_stopped_before_it_computed_again_a_changed_segmenter_leaves_out_its_old_records(module, tmp_path):
    """Once a resume has written the header naming a segmenter's new code, the records of that
    segmenter above it are another segmenter's: read back, they would pass for the new code's. A
    resume stopped before it computed them all again leaves them out of what is read, and the next
    resume computes the rest."""
    _distribution(module, "1.0")
    seg = get_segmenter(f"{MODULE}:every_third")
    out = tmp_path / "results.jsonl"
    docs = DOCS + [["x y"] * 8]
    evaluate({"mine": seg, "even": "even"}, docs, output=out, n_restarts=3, progress=False)
    _distribution(module, "1.1")

    def stop(result):
        raise RuntimeError("stop")

    with pytest.warns(ResultsWarning, match="its 3 .* computed again"), pytest.raises(RuntimeError, match="stop"):
        evaluate({"mine": seg, "even": "even"}, docs, output=out, n_restarts=3, progress=False, resume=True,
                 on_result=stop)
    loaded = load_results(out)
    assert [r.document for r in loaded.documents["mine"]] == ["0"]  # the one computed again, not the two old ones
    assert [r.document for r in loaded.documents["even"]] == ["0", "1", "2"]
    assert count_pairs(out) == 4 and len(read_run(out).entries) == 4
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResultsWarning)  # the code is the last header's now: nothing to warn about
        resumed = evaluate({"mine": seg, "even": "even"}, docs, output=out, n_restarts=3, progress=False, resume=True)
    assert [r.document for r in resumed.documents["mine"]] == ["0", "1", "2"]


def test_a_local_module_is_recorded_by_its_file_digest_and_an_edit_makes_a_resume_compute_it_again(module, tmp_path):
    seg = get_segmenter(f"{MODULE}:every_third")
    (found,) = segmenter_code(seg).items()
    assert found[0] == MODULE and found[1].startswith("file sha256:") and len(found[1]) == len("file sha256:") + 12
    out = tmp_path / "results.jsonl"
    evaluate({"mine": seg}, DOCS, output=out, n_restarts=3, progress=False)
    (module / f"{MODULE}.py").write_text(SOURCE + "\n# tuned\n")
    with pytest.warns(ResultsWarning, match=rf"segmenter 'mine' changed since its results were computed \({MODULE}: "
                                            r"file sha256:\w+ then, file sha256:\w+ now\): its 2 "):
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


def test_a_local_module_edited_between_runs_has_its_pairs_computed_again_on_resume_and_the_other_reused(tmp_path):
    """Through the command line, each run a process of its own (as a user edits a module between
    runs): ``--resume`` after an edit of one local module computes its segmenter's pairs again,
    reuses those of the unchanged module beside it (calls counted), and leaves a results file equal
    to a fresh run's with the edited module, its last header naming the code of now."""
    import os
    import subprocess

    (tmp_path / "edited_seg.py").write_text(CALLS_LOGGED.format(name="edited", step=3))
    (tmp_path / "steady_seg.py").write_text(CALLS_LOGGED.format(name="steady", step=2))
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"d{i}", "units": [f"u{i} {j}" for j in range(9 + i)]}) + "\n"
                              for i in range(3)))
    log = tmp_path / "calls.log"
    env = {**os.environ, "STABILITY_TEST_CALLS": str(log),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}

    def run(out, *options):
        log.write_text("")
        done = subprocess.run([sys.executable, "-m", "stability.cli", "run", "-s", "edited_seg:cut", "-s",
                               "steady_seg:cut", "--allow-plugins", "-c", str(corpus), "-r", "3", "-j", "1",
                               "--no-progress", "--out", str(out), *options],
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        calls = log.read_text().split()
        return done.stderr, calls.count("edited"), calls.count("steady")

    out = tmp_path / "out"
    _, edited, steady = run(out)
    assert edited > 0 and steady > 0
    (tmp_path / "edited_seg.py").write_text(CALLS_LOGGED.format(name="edited", step=4))
    said, edited, steady = run(out, "--resume")
    assert re.search(r"the code of segmenter 'edited_seg:cut' changed since its results were computed \(edited_seg: "
                     r"file sha256:\w+ then, file sha256:\w+ now\): its 3 \(segmenter, document\) pair\(s\) there are "
                     r"computed again", " ".join(said.split())), said
    assert edited > 0 and steady == 0  # the edited module's pairs computed again, the other's reused

    fresh = tmp_path / "fresh"
    run(fresh)
    resumed, whole = load_results(out), load_results(fresh)
    assert resumed.to_dict()["documents"] == whole.to_dict()["documents"]
    assert [list(r.segmentation.boundaries) for r in resumed.documents["edited_seg:cut"]] == [[4, 8]] * 3  # the edit's step
    code = resumed.settings["provenance"]["segmenter_code"]
    assert code == whole.settings["provenance"]["segmenter_code"] and set(code) == {"edited_seg:cut", "steady_seg:cut"}


#: A local module whose segmenter cuts every ``step`` units, logging each call (its ``name``) to the
#: file ``$STABILITY_TEST_CALLS`` (the runs are other processes).
CALLS_LOGGED = textwrap.dedent("""
    import os


    def cut(units):
        with open(os.environ["STABILITY_TEST_CALLS"], "a") as log:
            log.write("{name}\\n")
        return list(range({step}, len(units), {step}))
    """)


def test_a_resume_refused_while_it_runs_leaves_the_file_as_it_was_even_when_a_segmenter_code_changed(module, tmp_path):
    """The header naming the code of now is written with the resume's first record, not as the file
    is opened: a resume refused once its documents come (another corpus, streamed) must
    not leave a header that supersedes the file's records."""
    from stability import InvalidParameterError

    _distribution(module, "1.0")
    seg = get_segmenter(f"{MODULE}:every_third")
    out = tmp_path / "results.jsonl"
    evaluate({"mine": seg}, DOCS, output=out, n_restarts=3, progress=False)
    before = out.read_bytes()
    _distribution(module, "1.1")
    with pytest.warns(ResultsWarning, match="computed again"), \
            pytest.raises(InvalidParameterError, match="cannot resume .*another corpus"):
        evaluate({"mine": seg}, iter([["z"] * 9, *DOCS]), output=out, n_restarts=3, progress=False, resume=True)
    assert out.read_bytes() == before


def test_a_local_module_is_read_once_per_version_of_its_file(module, monkeypatch):
    """Its digest is kept by (path, size, modification time): a loop of runs in one process does not
    read the module again for each, and an edit in between (same size, a new time; or another size,
    the time put back) gives the new digest."""
    import os

    from stability import registry

    reads = []

    def counted_open(file, *args, **keywords):
        if str(file).endswith(f"{MODULE}.py"):
            reads.append(file)
        return open(file, *args, **keywords)

    monkeypatch.setattr(registry, "open", counted_open, raising=False)  # the module's, before the builtin
    seg = get_segmenter(f"{MODULE}:every_third")
    path = module / f"{MODULE}.py"
    first = segmenter_code(seg)
    assert segmenter_code(seg) == first and len(reads) == 1

    status = path.stat()
    path.write_text(SOURCE.replace("3", "4"))  # the same size
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 10**9))
    edited = segmenter_code(seg)
    assert edited != first and len(reads) == 2
    assert segmenter_code(seg) == edited and len(reads) == 2

    status = path.stat()
    path.write_text(SOURCE.replace("3", "5") + "\n")  # another size, at the time of the edit before
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    again = segmenter_code(seg)
    assert again not in (first, edited) and len(reads) == 3


def test_an_editable_install_is_named_by_its_package_and_its_file_digest(tmp_path, monkeypatch):
    """An editable install (pip install -e) by a build backend that lists none of its modules (no
    top_level.txt, a record of its path file only: hatchling, PDM) was recorded as a local module
    (its file digest), without its package: direct_url.json names the project's folder, where its
    package is found (flat or src layout). An edit there changes no version, so the file's digest is
    kept beside it. A module elsewhere in the project (its tests, a script) is no part of it."""
    from stability import registry

    project = tmp_path / "project"
    (project / "src" / "editable_seg_pkg").mkdir(parents=True)
    (project / "src" / "editable_seg_pkg" / "__init__.py").write_text(
        "def halves(units):\n    return [len(units) // 2] if len(units) > 1 else []\n")
    (project / "tests").mkdir()
    (project / "tests" / "editable_seg_script.py").write_text("def f(units):\n    return []\n")
    dist = tmp_path / "site" / "editable_seg-0.3.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: editable-seg\nVersion: 0.3\n")
    (dist / "direct_url.json").write_text(json.dumps({"url": project.as_uri(), "dir_info": {"editable": True}}))
    for folder in (tmp_path / "site", project / "src", project / "tests"):
        monkeypatch.syspath_prepend(str(folder))
    importlib.invalidate_caches()
    try:
        code = segmenter_code(get_segmenter("editable_seg_pkg:halves"))
        assert code.pop("editable-seg") == "0.3"
        assert list(code) == ["editable_seg_pkg"] and code["editable_seg_pkg"].startswith("file sha256:")
        script = segmenter_code(get_segmenter("editable_seg_script:f"))
        assert list(script) == ["editable_seg_script"]
    finally:
        sys.modules.pop("editable_seg_pkg", None)
        sys.modules.pop("editable_seg_script", None)
        registry._installed.cache_clear()
        registry._editables.cache_clear()


#: A script defining its segmenter and running it with a results file (``{step}``: where it cuts;
#: ``{title}``: a line of the script outside the segmenter); each call is logged to
#: ``$STABILITY_TEST_CALLS``.
SCRIPT = textwrap.dedent("""
    import os
    import sys

    from stability import evaluate


    def cut(units):
        with open(os.environ["STABILITY_TEST_CALLS"], "a") as log:
            log.write("call\\n")
        return list(range({step}, len(units), {step}))


    DOCS = [[f"u{{i}} {{j}}" for j in range(9 + i)] for i in range(3)]
    result = evaluate({{"cut": cut}}, DOCS, n_restarts=3, seed=0, output=sys.argv[1], resume=True, n_jobs=1)
    print({title!r}, result.settings["provenance"]["segmenter_code"])
    """)


def test_a_segmenter_defined_in_the_script_run_is_computed_again_after_an_edit_of_its_source_not_of_the_script(
        tmp_path):
    """A segmenter defined in the script being run (``__main__``) is told by its own source, as
    joblib.Memory tells a function: an edit of the rest of the script (its printing) reuses every
    pair on resume, an edit of the segmenter computes its pairs again (calls counted; each run a
    process of its own, as a user edits the script between runs)."""
    import os
    import subprocess

    script, out, log = tmp_path / "evaluate_mine.py", tmp_path / "results.jsonl", tmp_path / "calls.log"
    env = {**os.environ, "STABILITY_TEST_CALLS": str(log)}

    def run(step, title):
        script.write_text(SCRIPT.format(step=step, title=title))
        log.write_text("")
        done = subprocess.run([sys.executable, str(script), str(out)], env=env, capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done, len(log.read_text().split())

    first, calls = run(3, "first")
    assert calls > 0 and "'cut': {'__main__.cut': 'source sha256:" in first.stdout
    edited_elsewhere, calls = run(3, "the title changed")
    assert calls == 0, edited_elsewhere.stderr  # the script changed, its segmenter did not: every pair reused
    assert "computed again" not in edited_elsewhere.stderr
    edited_segmenter, calls = run(4, "the title changed")
    assert calls > 0 and "'cut' changed since its results were computed" in " ".join(edited_segmenter.stderr.split())
    resumed = load_results(out)
    assert [list(r.segmentation.boundaries) for r in resumed.documents["cut"]] == [[4, 8]] * 3
