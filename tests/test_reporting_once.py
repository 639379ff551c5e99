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
