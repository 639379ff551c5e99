"""The HTML report as a reader gets it: in a real browser (headless Chromium, skipped without it),
on a phone's width, printed, and with hostile strings in its labels."""

from __future__ import annotations

import pytest

from stability import evaluate
from stability.reporting import render
from test_config_report import _chromium, needs_chromium, small_corpus

#: Counts the layout reads (``getBoundingClientRect``) of the page's own scripts: put in its head.
COUNT_READS = ("<script>var reads=0,read=Element.prototype.getBoundingClientRect;"
               "Element.prototype.getBoundingClientRect=function(){reads++;return read.call(this)}</script>")


@pytest.fixture(scope="module")
def blind_result():
    return evaluate({"even": "even", "none": "none"}, small_corpus(8), n_restarts=2, progress=False)


@needs_chromium
def test_sticky_columns_are_measured_once_per_column_not_per_row(blind_result, tmp_path):
    """Measuring each row's key cells after styling the previous row forced a layout per row: a
    per-document table of 1,500 rows took a minute and a half to open."""
    page = render(blind_result, "html", documents=True).replace("<head>", "<head>" + COUNT_READS, 1)
    seen = _chromium(page, tmp_path, {
        "reads": "reads", "keys": "[...document.querySelectorAll('table[data-keys]')].reduce((n,t)=>n+ +t.dataset.keys,0)",
        "rows": "document.querySelectorAll('table[data-keys] tbody tr').length",
        "sticky": "[...document.querySelectorAll('table[data-keys] tbody td:nth-child(2)')].every(c=>c.style.position==='sticky')"})
    assert seen["rows"] > 16 and seen["keys"] >= 2 and seen["sticky"]
    assert seen["reads"] <= seen["keys"], seen  # at most one read a key column
