"""benchmarks/validity/amendment7.py: the held-out check of Amendment 7 of
docs/validation-protocol.md, read from the studies' caches."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validity"))
import amendment7
from amendment6_pools import reading

from stability import evaluate, get_segmenter
from test_reporting import topical_corpus


def test_it_counts_the_readings_where_the_comparison_beats_the_headline(tmp_path, monkeypatch, capsys):
    segmenters = {"c99_m11_c1.2": "c99", "u00": "u00", "tt_w20_k10": get_segmenter("texttiling", w=20, k=5),
                  "tt_w10_k5": get_segmenter("texttiling", w=10, k=3), "none": "none"}
    folder = tmp_path / "results" / amendment7.NEW[0]
    evaluate(segmenters, topical_corpus(700, 4, n_topics=5), n_restarts=3, progress=False,
             metrics={"names": ["f1_1", "boundary_similarity"]}, output=folder / "results.jsonl")
    monkeypatch.setattr(amendment7, "ROOT", tmp_path)
    amendment7.main()
    out = capsys.readouterr().out
    values = reading(folder)
    row = next(line for line in out.splitlines() if line.startswith(f"| {amendment7.NEW[0]} |"))
    assert row.split(" | ")[1] == f"{values['headline']:+.3f}"
    assert f"| {amendment7.NEW[1]} | missing |" in out            # a reading without its cache is named
    above = int(values["all voters"] > values["headline"])
    assert f"above the headline on {above} of 1 readings" in out
    assert f"minus headline {values['all voters'] - values['headline']:+.3f}" in out
