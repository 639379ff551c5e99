"""A plugin in a namespace package several installed packages share (``acme.segs`` beside
``acme.other``): its record names the package holding its module, not the first of the namespace."""

from __future__ import annotations

import importlib
import sys

import pytest

from stability import get_segmenter
from stability.registry import _installed, segmenter_code

NAMESPACE = "stability_fake_ns"


@pytest.fixture
def namespace(tmp_path, monkeypatch):
    """``stability_fake_ns`` (no __init__.py) holding ``other`` of 'fake-ns-other' 9.0 and ``segs``
    of 'fake-ns-segs' 0.3, each listed in its dist-info's RECORD as pip writes it."""
    (tmp_path / NAMESPACE).mkdir()
    for module, dist, version in (("other", "fake_ns_other", "9.0"), ("segs", "fake_ns_segs", "0.3")):
        (tmp_path / NAMESPACE / f"{module}.py").write_text("def halves(units):\n    return [len(units) // 2]\n")
        info = tmp_path / f"{dist}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist.replace('_', '-')}\nVersion: {version}\n")
        (info / "RECORD").write_text(f"{NAMESPACE}/{module}.py,,\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    _installed.cache_clear()
    yield
    for name in [name for name in sys.modules if name.startswith(NAMESPACE)]:
        sys.modules.pop(name)
    _installed.cache_clear()


def test_a_plugin_in_a_shared_namespace_is_recorded_with_its_own_package(namespace):
    assert segmenter_code(get_segmenter(f"{NAMESPACE}.segs:halves")) == {"fake-ns-segs": "0.3"}
    assert segmenter_code(get_segmenter(f"{NAMESPACE}.other:halves")) == {"fake-ns-other": "9.0"}
