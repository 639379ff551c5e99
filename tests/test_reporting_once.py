"""Summaries and correlations are computed once per run, whatever the number of report formats."""

from __future__ import annotations

import stability.summary
from stability import evaluate
from stability.reporting import formats_available, render


def test_correlations_are_computed_once_for_every_format(monkeypatch):
    docs = [{"id": f"d{i}", "units": ["u"] * (9 + i), "references": [[3, 6]]} for i in range(4)]
    result = evaluate({"even": "even", "none": "none"}, docs, n_restarts=3, progress=False)
    calls = []
    original = stability.summary.correlations

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(stability.summary, "correlations", counted)
    rendered = {fmt: render(result, fmt) for fmt in formats_available()}
    assert len(calls) == 1
    assert repr(result.correlations()) == repr(original(result.documents))  # the cached table (NaN != NaN: repr)
    assert "Kendall" in rendered["table"] and '"correlations"' in rendered["json"]


def test_the_per_document_blocks_are_built_only_for_the_formats_showing_them(monkeypatch):
    """The terminal table, CSV's report and JSON built the per-document table and threw it away: on
    10,000 documents it was 85% of the terminal table's time."""
    import stability.reporting.corpus as corpus

    docs = [{"id": f"d{i}", "units": ["u"] * (9 + i), "references": [[3, 6]]} for i in range(4)]
    result = evaluate({"even": "even"}, docs, n_restarts=3, progress=False)
    built = []
    for name in ("document_section", "segment_section"):
        original = getattr(corpus, name)
        monkeypatch.setattr(corpus, name, lambda *a, _f=original, _n=name, **k: built.append(_n) or _f(*a, **k))
    for fmt in ("table", "csv", "json"):
        render(result, fmt)
    assert built == []
    assert "Per document" in render(result, "table", documents=True) and "d3" in render(result, "csv", documents=True)
    assert "### Per document" in render(result, "md") and "Per document" in render(result, "html")
    assert built == ["document_section", "segment_section"] * 4
