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


@pytest.fixture
def typed_module(tmp_path, monkeypatch):
    """A plugin module of segmenters whose parameters are told by a default, an annotation, both, or neither."""
    (tmp_path / "stability_fake_typed_mod.py").write_text(textwrap.dedent(
        """
        from __future__ import annotations

        from typing import Callable, Optional


        class ByDefault:
            def __init__(self, k=4, ratio=0.5, flag=False, name="x", model=None):
                self.k, self.ratio, self.flag, self.name, self.model = k, ratio, flag, name, model

            def __call__(self, units):
                return list(range(self.k, len(units), self.k))


        def annotated(units, k: int = 4, scale: float | None = None, keep: Optional[bool] = None,
                      mode: str | int = "words", encode: Callable[[str], list] | None = None,
                      sizes: list[int] | int = 4):
            return list(range(k, len(units), k))
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield "stability_fake_typed_mod"
    sys.modules.pop("stability_fake_typed_mod", None)


@pytest.mark.filterwarnings("ignore:segmenter .* cannot name it")  # the fixture's other entry points
def test_a_value_of_the_wrong_type_is_refused_before_the_run_naming_what_was_expected(spec_plugin, typed_module):
    from stability.exceptions import InvalidParameterError
    from stability.config import segmenter_option

    # -s every_k,k=abc: the plugin's own TypeError (range() of a str) failed every document
    label, table = segmenter_option("every_k,k=abc")
    with pytest.raises(InvalidParameterError) as caught:
        get_segmenter("every_k", **{key: value for key, value in table.items() if key != "segmenter"})
    assert str(caught.value) == ("segmenter 'every_k': parameter 'k' must be a number (its default 4); "
                                 "received str 'abc'")
    assert caught.value.parameter == "k"
    by_default = f"{typed_module}:ByDefault"
    with pytest.raises(InvalidParameterError, match=r"parameter 'flag' must be true or false \(its default False\); "
                                                    r"received str 'no'"):
        get_segmenter(by_default, flag="no")  # a string 'no' is true
    with pytest.raises(InvalidParameterError, match=r"parameter 'ratio' must be a number \(its default 0.5\); received list"):
        get_segmenter(by_default, ratio=[1])
    # what a default cannot rule out is left to the segmenter: any number for a number, an integer
    # for a flag, None for anything, anything for a string or None default
    get_segmenter(by_default, k=2.5, ratio=1, flag=1, name=3, model="m")
    get_segmenter(by_default, k=None)
    # an annotation of simple types says more
    annotated = f"{typed_module}:annotated"
    with pytest.raises(InvalidParameterError, match=r"^segmenter '[\w:]+': parameter 'k' must be an integer \(its "
                                                    r"annotation int\); received float 2.5$"):
        get_segmenter(annotated, k=2.5)
    with pytest.raises(InvalidParameterError, match=r"parameter 'scale' must be a number \(its annotation float \| None\)"):
        get_segmenter(annotated, scale="big")
    with pytest.raises(InvalidParameterError, match=r"parameter 'keep' must be true or false \(its annotation "
                                                    r"Optional\[bool\]\); received int 1"):
        get_segmenter(annotated, keep=1)
    import numpy as np

    get_segmenter(annotated, k=np.int64(3), scale=None, keep=True, mode=5, encode=len, sizes=[1, 2])
    get_segmenter(annotated, scale=np.float32(2.0), mode="chars")
    # a grid names its point
    from stability import grid

    with pytest.raises(InvalidParameterError, match=r"grid point 'every_k,k=abc': segmenter 'every_k': parameter 'k'"):
        grid("every_k", {"k": [3, "abc"]})


def test_a_segmenter_told_the_reference_count_that_cannot_take_the_units_is_refused_as_with_a_number():
    # with n_segments=2 it was refused before the run; with "reference" every document failed
    from stability.exceptions import InvalidTypeError

    class NoUnits:
        def __init__(self, n_segments=None):
            self.n_segments = n_segments

        def __call__(self):
            return []

    for n_segments in (2, "reference"):
        with pytest.raises(InvalidTypeError, match=r"segmenter 'NoUnits' must take one argument, the units of a "
                                                   r"document \(units -> boundaries\); its signature is \(\)"):
            get_segmenter(NoUnits, n_segments=n_segments)


def test_one_check_says_why_a_function_given_parameters_cannot_be_called_with_the_units():
    # given k, a function of keywords only was refused as "bad parameters {'k': 3}: too many positional
    # arguments" (a third look at its signature); it now says what the units-alone check says
    from stability.exceptions import InvalidParameterError, InvalidTypeError

    def only_keywords(*, k=2):
        return []

    for params in ({}, {"k": 3}):
        with pytest.raises(InvalidTypeError, match=r"^segmenter 'only_keywords' must take one argument, the units of a "
                                                   r"document \(units -> boundaries\); its signature is \(\*, k=2\)$"):
            get_segmenter(only_keywords, **params)

    # a parameter without a default is said first, with how to give it, whatever else is wrong
    def needs_k(units, k, /, *, depth):
        return []

    with pytest.raises(InvalidParameterError, match=r"^segmenter 'needs_k' needs parameter 'depth', which has no default"):
        get_segmenter(needs_k)
    with pytest.raises(InvalidTypeError, match=r"its signature is \(units, k, /, \*, depth\)$"):
        get_segmenter(needs_k, depth=1)
