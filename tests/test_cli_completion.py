"""Shell completion of option values (stability.completion), through the hook the shell calls:
the command run with ``_STABILITY_COMPLETE`` set, as ``stability --install-completion`` installs it."""

from __future__ import annotations

import contextlib
import io
import os
import re
import warnings

import pytest
from test_plugin_specs import spec_plugin  # noqa: F401 - a fixture: entry points named 'every,k', 'pkg:every', 'every_k'

from stability.catalogue import MULTI_REFERENCE, REFERENCE
from stability.cli import main
from stability.readers import FORMATS
from stability.registry import available_segmenters, factory_params, load_segmenter_factory
from stability.reporting import formats_available


def bash_split(line: str) -> list[str]:
    """``COMP_WORDS`` as bash makes them for ``line``: words cut at spaces, and at ``=`` and ``:``
    (in its default COMP_WORDBREAKS), each such character a word of its own; ``--metrics=`` is
    ``--metrics``, ``=`` (checked in an interactive bash 5 through a pseudo-terminal)."""
    return [token for chunk in line.split(" ") for token in ([t for t in re.split(r"([=:])", chunk) if t] or [""])]


def complete(line: str) -> list[str]:
    """What completing ``line`` offers, through the hook as bash calls it (``stability``'s entry
    point with bash's COMP_WORDS): each candidate shown as the last word of the line would become
    (bash replaces only the text after the last ``=`` or ``:`` of that word)."""
    words = bash_split(line)
    env = {"_STABILITY_COMPLETE": "complete_bash", "COMP_WORDS": "\n".join(words), "COMP_CWORD": str(len(words) - 1)}
    saved = {k: os.environ.get(k) for k in env}
    out = io.StringIO()
    try:
        os.environ.update(env)
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as done:
            main()
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    assert done.value.code in (0, None), out.getvalue()
    last = line.split(" ")[-1]
    kept = last[:max(last.rfind("="), last.rfind(":")) + 1]
    return [kept + candidate for candidate in out.getvalue().split()]


def test_bash_cuts_words_at_equals_signs_and_the_candidates_are_cut_likewise():
    """``-s c99,mask_size=5,<TAB>`` completed nothing in bash, which passes ``c99,mask_size``,
    ``=``, ``5,`` and replaces only ``5,``: the hook read ``5,`` as the value (an unknown
    segmenter), and a full candidate would have been inserted after ``=`` again."""
    assert bash_split("stability run -s c99,mask_size=5,") == ["stability", "run", "-s", "c99,mask_size", "=", "5,"]
    offered = complete("stability run -s c99,mask_size=5,")
    assert "c99,mask_size=5,std_coeff=" in offered and "c99,mask_size=5,mask_size=" not in offered
    assert complete("stability run --metrics=pk,b") == ["--metrics=pk,boundary_similarity", "--metrics=pk,b"]
    assert "--metrics=pk" in complete("stability run --metrics=")
    assert complete("stability run --corpus-format=ch") == ["--corpus-format=chen", "--corpus-format=choi"]
    # an earlier value holding '=' is read whole: the next option's values still complete
    assert complete("stability run -s c99,mask_size=5 --metrics pk,wd_c") == ["pk,wd_corrected"]


def test_segmenter_names_complete_from_the_registry():
    names = list(available_segmenters())
    assert complete("stability run -s ") == names
    assert complete("stability run --segmenter c") == [n for n in names if n.startswith("c")]
    assert "c99" in complete("stability run -s c") and "u00" not in complete("stability run -s c")
    assert complete("stability segmenters sem") == [n for n in names if n.startswith("sem")]


def test_only_names_a_spec_can_give_complete_after_s_and_completing_says_nothing_else(spec_plugin, capsys):  # noqa: F811
    """An entry point named 'every,k' or 'pkg:every' cannot be given to -s (a spec reads the
    comma as its parameters, the colon as a module:attribute): -s offered them, and the registry's
    warning about them went to the shell's stderr, in the middle of the command line being typed.
    ``stability segmenters NAME`` describes them under those names: it offers them, quietly."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert complete("stability run -s every") == ["every_k"]
        assert complete("stability run -s pkg") == []
        assert "c99,mask_size=" in complete("stability run -s c99,")
        assert complete("stability segmenters every") == ["every,k", "every_k"]
        assert complete("stability segmenters pkg") == ["pkg:every"]
    assert [str(w.message) for w in caught] == []
    assert capsys.readouterr().err == ""


def test_after_a_comma_the_named_segmenters_parameters_complete():
    params = list(factory_params(load_segmenter_factory("c99")))
    assert complete("stability run -s c99,") == [f"c99,{p}=" for p in [*params, "grid"]]
    assert complete("stability run -s c99,mask") == ["c99,mask_size="]
    # a parameter already given is not offered again; the ones before stay as typed
    offered = complete("stability run -s c99,mask_size=5,")
    assert "c99,mask_size=5,mask_size=" not in offered and "c99,mask_size=5,std_coeff=" in offered
    assert complete("stability run -s nosuchsegmenter,") == []


def test_metric_names_and_aliases_complete_the_last_of_a_comma_list():
    every = [n for t in (REFERENCE, MULTI_REFERENCE) for m in t.values() for n in (m.name, *m.aliases)]
    assert complete("stability run --metrics ") == every
    assert complete("stability report x --metrics pk,b") == ["pk,boundary_similarity", "pk,b"]
    assert "pk,pk" not in complete("stability run --metrics pk,")
    # a metric given under an alias is not offered again under its name, nor the other way round
    offered = complete("stability run --metrics wd,")
    assert "wd,windowdiff" not in offered and "wd,pk" in offered
    assert not [o for o in complete("stability run --metrics boundary_similarity,") if o.endswith(",b")]


@pytest.mark.parametrize("line, expected", [
    ("stability run --corpus-format ", sorted(FORMATS)),
    ("stability run --corpus-format c", sorted(f for f in FORMATS if f.startswith("c"))),
    ("stability run --report-format ", list(formats_available())),
    ("stability score --report-format h", ["html"]),
    ("stability segmenters --report-format m", ["md"]),
])
def test_formats_complete_from_their_declarations(line, expected):
    assert complete(line) == expected
    assert expected  # a declaration listing nothing would make this test vacuous


def test_a_module_attribute_segmenter_is_not_imported_to_complete_its_parameters(tmp_path, monkeypatch):
    """``-s pkg.mod:Thing,<TAB>`` imported ``pkg.mod`` and instantiated ``Thing`` to list its
    parameters, running code that ``stability run`` imports only with --allow-plugins."""
    (tmp_path / "completion_plugin_probe.py").write_text(
        "import pathlib\npathlib.Path(__file__).with_name('imported').write_text('yes')\n"
        "class Seg:\n    def __init__(self, k=3):\n        self.k = k\n    def __call__(self, units):\n        return []\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert complete("stability run -s completion_plugin_probe:Seg,") == []
    assert not (tmp_path / "imported").exists()


def test_a_grid_is_one_value_and_its_parameters_count_as_given():
    # the commas inside a grid's braces cut the value: w (in the grid) was offered again, and
    # inside the braces the segmenter's parameters were offered as if after a comma of -s
    offered = complete("stability run -s texttiling,grid={w=[10,20]},")
    assert "texttiling,grid={w=[10,20]},k=" in offered
    assert not [o for o in offered if o.endswith(",w=") or o.endswith(",grid=")]
    assert complete("stability run -s texttiling,grid={w=[10,") == []


def test_completion_in_an_interactive_bash(tmp_path):
    """The hook as a user meets it: bash (interactive, through a pseudo-terminal) with the script
    ``stability --show-completion bash`` prints; a tab after ``c99,mask_size=5,std`` gives the line
    ``...,std_coeff=``, not nothing, and after ``--metrics=pk,wd_c`` the metric's full name. A
    candidate ending in ``=`` or ``,`` is not followed by a space (typer's hook added one: the
    value typed next, ``Z`` here, was cut off from its parameter); another one is."""
    import select
    import shutil
    import subprocess
    import sys
    import time

    pty = pytest.importorskip("pty")
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    bin_dir = os.path.dirname(sys.executable)
    if not os.path.exists(os.path.join(bin_dir, "stability")):
        pytest.skip("the stability console script is not installed beside this Python")
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    script = subprocess.run([os.path.join(bin_dir, "stability"), "--show-completion", "bash"], env=env,
                            capture_output=True, text=True, check=True).stdout
    rc = tmp_path / "bashrc"
    rc.write_text(f'export PATH="{bin_dir}:$PATH"\n{script}\nPS1="$ "\n')
    for typed, expected in ((b"stability run -s c99,mask_size=5,std", b"c99,mask_size=5,std_coeff=Z"),
                            (b"stability run --metrics=pk,wd_c", b"--metrics=pk,wd_corrected Z"),
                            (b"stability run -s c99,mask_s", b"c99,mask_size=Z"),
                            (b"stability run --corpus-format che", b"--corpus-format chen Z")):
        pid, fd = pty.fork()
        if pid == 0:  # the child: an interactive bash reading only our rc file
            os.execvp("bash", ["bash", "--noprofile", "--rcfile", str(rc), "-i"])
        screen = b""
        try:
            os.write(fd, typed + b"\t")
            deadline = time.monotonic() + 60
            while expected.rstrip(b"Z") not in screen and time.monotonic() < deadline:
                if select.select([fd], [], [], 0.5)[0]:
                    try:
                        screen += os.read(fd, 4096)
                    except OSError:
                        break
            os.write(fd, b"Z")
            while expected not in screen and time.monotonic() < deadline:
                if select.select([fd], [], [], 0.5)[0]:
                    try:
                        screen += os.read(fd, 4096)
                    except OSError:
                        break
        finally:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        assert expected in screen, screen[-300:]


def test_config_names_complete_from_the_reference():
    """``stability config NAME...``: tables, keys and table.key, from the same declarations."""
    from stability.configkeys import reference, selectors

    names = selectors(reference())
    assert complete("stability config run.n") == [n for n in names["table.key"] if n.startswith("run.n")]
    assert complete("stability config run.n") == ["run.n_restarts", "run.n_bootstrap", "run.n_jobs"]
    offered = complete("stability config co")
    assert offered[:2] == ["corpus", "corpus.demo"] and "confidence" in offered and "corpus.demo.seed" in offered
    assert complete("stability config run run.se") == ["run.seed"]
