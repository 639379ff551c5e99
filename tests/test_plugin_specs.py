"""What can be told of a segmenter spec before a run: an entry point whose name the command line
cannot give, and a parameter value of the wrong type (checked against the parameter's default or
annotation, where there is one)."""

from __future__ import annotations

import importlib
import sys
import textwrap
import warnings

import pytest

from stability import available_segmenters, get_segmenter, registry
from stability.segmenter import SegmenterWarning

MODULE = "stability_fake_spec_mod"


@pytest.fixture
def spec_plugin(tmp_path, monkeypatch):
    """A distribution 'fake-spec-plugin' 0.4 with entry points named 'every,k', 'pkg:every' and
    'every_k' (the only one the command line can name; the format of entry_points.txt cannot give a
    name holding '=')."""
    (tmp_path / f"{MODULE}.py").write_text(textwrap.dedent(
        """
        class EveryK:
            def __init__(self, k=4, start=0.0, skip_first=False, label=None):
                self.k, self.start, self.skip_first, self.label = k, start, skip_first, label

            def __call__(self, units):
                return list(range(self.k, len(units), self.k))
        """))
    dist = tmp_path / "fake_spec_plugin-0.4.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-spec-plugin\nVersion: 0.4\n")
    (dist / "entry_points.txt").write_text(
        "[stability.segmenters]\n" + "".join(f"{name} = {MODULE}:EveryK\n" for name in ("every,k", "pkg:every", "every_k")))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_UNNAMEABLE_SAID", set())
    importlib.invalidate_caches()
    yield
    sys.modules.pop(MODULE, None)


def test_an_entry_point_the_command_line_cannot_name_is_warned_about_once(spec_plugin):
    with pytest.warns(SegmenterWarning) as caught:
        names = available_segmenters()
    said = [str(w.message) for w in caught if "cannot name it" in str(w.message)]
    assert len(said) == 2
    entry = f"(the entry point '{MODULE}:EveryK' of fake-spec-plugin 0.4)"
    assert (f"segmenter 'every,k' {entry}: it holds ',', which a spec reads as the start of its parameters, so the "
            "command line (-s) and configs cannot name it; give the entry point a name without ':', ',' or '=' in the "
            "[project.entry-points.\"stability.segmenters\"] table of fake-spec-plugin's pyproject.toml and reinstall it"
            ) in said
    assert any(s.startswith(f"segmenter 'pkg:every' {entry}: it holds ':', which a spec reads as a module:attribute")
               for s in said)
    assert "every_k" in names and "every,k" in names  # still there: from Python, get_segmenter finds it
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        available_segmenters()  # once a process
        assert get_segmenter("every,k", k=2)(["u"] * 5) == [2, 4]
