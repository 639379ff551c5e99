"""benchmarks/validity/amendment6_pools.py: the adopted comparison score with the voters restricted
to a pool (an exploration after Amendment 6 of docs/validation-protocol.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validity"))
from amendment6_pools import POOLS, mean_tau, reading

from stability import evaluate, get_segmenter
from stability.comparison import stability_x_agreement
from stability.stats import kendall_tau
from test_reporting import topical_corpus


def test_mean_tau_leaves_out_configurations_without_a_value():
    refs = {k: {"boundary_similarity": b, "f1_1": f} for k, b, f in
            (("a", 0.1, 0.3), ("b", 0.2, 0.1), ("c", 0.3, 0.2), ("d", 0.9, 0.9))}
    values = {"a": 0.1, "b": 0.2, "c": 0.3, "d": float("nan")}
    expected = (kendall_tau([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]) + kendall_tau([0.1, 0.2, 0.3], [0.3, 0.1, 0.2])) / 2
    assert mean_tau(values, refs) == pytest.approx(expected)


def test_the_pool_of_all_voters_is_the_librarys_score(tmp_path):
    segmenters = {"c99_m11_c1.2": "c99", "u00": "u00", "tt_w20_k10": get_segmenter("texttiling", w=20, k=5),
                  "c99_known": get_segmenter("c99", n_segments="reference"), "none": "none"}
    result = evaluate(segmenters, topical_corpus(700, 4, n_topics=5), n_restarts=3, progress=False,
                      metrics={"names": ["f1_1", "boundary_similarity"]}, output=tmp_path / "results.jsonl")
    values = reading(tmp_path)
    library = stability_x_agreement(result.documents)
    refs = {k: {m: float(np.nanmean([r.reference_metrics[m] for r in docs])) for m in ("boundary_similarity", "f1_1")}
            for k, docs in result.documents.items()}
    assert values["all voters"] == pytest.approx(mean_tau({k: np.nan if v is None else v for k, v in library.items()},
                                                          refs))
    assert set(values) == {"headline", *POOLS}
