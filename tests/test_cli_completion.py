"""Shell completion of option values (stability.completion), through the hook the shell calls:
the command run with ``_STABILITY_COMPLETE`` set, as ``stability --install-completion`` installs it."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stability.catalogue import MULTI_REFERENCE, REFERENCE
from stability.cli import app
from stability.readers import FORMATS
from stability.registry import available_segmenters, factory_params, load_segmenter_factory
from stability.reporting import formats_available


def complete(line: str) -> list[str]:
    """What bash's hook prints for ``line`` (the word being completed is its last, possibly empty)."""
    words = line.split(" ")
    result = CliRunner().invoke(app, [], prog_name="stability", env={
        "_STABILITY_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)})
    assert result.exit_code == 0, result.output
    return result.stdout.split()


def test_segmenter_names_complete_from_the_registry():
    names = list(available_segmenters())
    assert complete("stability run -s ") == names
    assert complete("stability run --segmenter c") == [n for n in names if n.startswith("c")]
    assert "c99" in complete("stability run -s c") and "u00" not in complete("stability run -s c")
    assert complete("stability segmenters sem") == [n for n in names if n.startswith("sem")]


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
