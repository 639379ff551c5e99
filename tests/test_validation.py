"""The validation study (issue 6, now :mod:`stability.study`): rank-correlation machinery,
bootstrap, running means, and the study end to end on a handful of Choi documents (skipped without
``../shared/data/choi``). The multi-corpus report is tested in tests/test_study.py."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from stability.cli import app
from stability.exceptions import InvalidParameterError
from stability.plots import svg_lines, svg_scatter
from stability.stats import average_ranks, kendall_tau, spearman_rho
from stability.study import (
    QUICK_STRIDE,
    StudyOptions,
    configuration_correlations,
    document_correlations,
    quick_subset,
    resampled_kendall_tau,
    resampled_spearman_rho,
    running_means,
    run_study,
    settling,
)

ROOT = Path(__file__).resolve().parents[1]
CHOI = Path(__file__).resolve().parents[2] / "shared" / "data" / "choi"
CONFIG = ROOT / "configs" / "choi-validation.toml"
needs_choi = pytest.mark.skipif(not (CHOI / "1" / "3-11").is_dir(), reason="needs ../shared/data/choi")


# ---------------------------------------------------------------------------------------------
# ranks and correlations, by hand
# ---------------------------------------------------------------------------------------------
def test_average_ranks_share_ties():
    # sorted: 5 (rank 1), 10 (rank 2), 20, 20 (ranks 3 and 4 -> 3.5 each)
    assert average_ranks([10, 20, 20, 5]).tolist() == [2.0, 3.5, 3.5, 1.0]
    assert average_ranks([7, 7, 7]).tolist() == [2.0, 2.0, 2.0]


def test_spearman_without_ties_matches_the_textbook_formula():
    # rho = 1 - 6 sum d^2 / (n (n^2 - 1)); ranks differ by d = (0, 1, 1, 0): 1 - 6*2/60 = 0.8
    assert spearman_rho([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert spearman_rho([1, 2, 3], [30, 20, 10]) == pytest.approx(-1.0)


def test_spearman_with_ties_is_pearson_of_average_ranks():
    # x ranks (1, 2.5, 2.5, 4), y ranks (1.5, 1.5, 3, 4); centred: (-1.5, 0, 0, 1.5) and
    # (-1, -1, 0.5, 1.5); Pearson = (1.5 + 2.25) / sqrt(4.5 * 4.5) = 3.75 / 4.5
    assert spearman_rho([1, 2, 2, 3], [1, 1, 2, 3]) == pytest.approx(3.75 / 4.5)


def test_spearman_drops_nan_pairs_and_constant_side_is_nan():
    assert spearman_rho([1, 2, float("nan"), 4], [1, 3, 0, 4]) == pytest.approx(1.0)
    assert math.isnan(spearman_rho([1, 1, 1], [1, 2, 3]))
    with pytest.raises(InvalidParameterError):
        spearman_rho([1, 2], [1, 2, 3])


def test_kendall_tau_b_with_ties_by_hand():
    # pairs of x=(1,2,2,3), y=(1,1,2,3): (1,2) tied in y, (2,3) tied in x, the 4 others concordant:
    # tau_b = 4 / sqrt((6 - 1) (6 - 1)) = 0.8
    assert kendall_tau([1, 2, 2, 3], [1, 1, 2, 3]) == pytest.approx(0.8)
    weights = np.ones((1, 4))
    assert resampled_kendall_tau([1, 2, 2, 3], [1, 1, 2, 3], np.arange(4), weights)[0] == pytest.approx(0.8)


def test_resampled_tau_equals_tau_of_the_explicit_resample():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, 36).astype(float)
    y = rng.integers(0, 3, 36) + 0.3 * x
    x[5] = np.nan
    groups = np.repeat(np.arange(12), 3)  # 12 documents x 3 configurations
    draws = rng.integers(0, 12, size=(25, 12))
    weights = np.zeros((25, 12))
    np.add.at(weights, (np.arange(25)[:, None], draws), 1.0)
    fast = resampled_kendall_tau(x, y, groups, weights)
    for b, d in enumerate(draws):
        rows = np.concatenate([np.flatnonzero(groups == g) for g in d])
        assert fast[b] == pytest.approx(kendall_tau(x[rows], y[rows]), abs=1e-12)


def test_resampled_rho_equals_rho_of_the_explicit_resample():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 5, 30).astype(float)
    y = rng.integers(0, 3, 30) + 0.5 * x
    y[7] = np.nan
    groups = np.repeat(np.arange(10), 3)
    draws = rng.integers(0, 10, size=(30, 10))
    weights = np.zeros((30, 10))
    np.add.at(weights, (np.arange(30)[:, None], draws), 1.0)
    fast = resampled_spearman_rho(x, y, groups, weights, batch=7)
    for b, d in enumerate(draws):
        rows = np.concatenate([np.flatnonzero(groups == g) for g in d])
        assert fast[b] == pytest.approx(spearman_rho(x[rows], y[rows]), abs=1e-12)
    assert resampled_spearman_rho(x, y, groups, np.ones((1, 10)))[0] == pytest.approx(spearman_rho(x, y))


# ---------------------------------------------------------------------------------------------
# the ranking machinery on a constructed case
# ---------------------------------------------------------------------------------------------
def _constructed(n_docs: int = 40, seed: int = 0):
    """5 configurations: stability means increase with the configuration index; WindowDiff means
    decrease (better), so the oriented rankings agree perfectly."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(0.1, 0.9, 5)
    stability = quality + rng.normal(0, 0.05, size=(n_docs, 5))
    windowdiff = (1 - quality) + rng.normal(0, 0.05, size=(n_docs, 5))
    return stability, windowdiff


def test_perfect_agreement_after_orientation():
    stability, windowdiff = _constructed()
    agree = configuration_correlations(stability, -windowdiff, n_bootstrap=200, seed=1)
    assert agree["kendall"].estimate == pytest.approx(1.0)
    assert agree["spearman"].estimate == pytest.approx(1.0)
    assert agree["kendall"].n == 5
    # without orientation WindowDiff ranks the configurations in reverse
    reverse = configuration_correlations(stability, windowdiff, n_bootstrap=50, seed=1)
    assert reverse["kendall"].estimate == pytest.approx(-1.0)


def test_one_swap_between_two_configurations():
    stability, windowdiff = _constructed()
    swapped = stability.copy()
    swapped[:, [1, 2]] = swapped[:, [2, 1]]  # one discordant pair among 10: tau = (9 - 1) / 10
    agree = configuration_correlations(swapped, -windowdiff, n_bootstrap=200, seed=1)
    assert agree["kendall"].estimate == pytest.approx(0.8)
    # ranks (1, 3, 2, 4, 5) vs (1..5): d^2 = 2 -> rho = 1 - 6*2/(5*24) = 0.9
    assert agree["spearman"].estimate == pytest.approx(0.9)


def test_undefined_configuration_is_left_out():
    stability, windowdiff = _constructed()
    stability[:, 0] = np.nan  # e.g. a chance-corrected score undefined for "none"
    agree = configuration_correlations(stability, -windowdiff, n_bootstrap=50, seed=1)
    assert agree["kendall"].n == 4
    assert agree["kendall"].estimate == pytest.approx(1.0)


def test_bootstrap_interval_contains_estimate_and_is_reproducible():
    rng = np.random.default_rng(5)
    quality = np.linspace(0, 1, 8)
    stability = quality + rng.normal(0, 0.6, size=(30, 8))
    reference = quality + rng.normal(0, 0.6, size=(30, 8))
    first = configuration_correlations(stability, reference, n_bootstrap=300, seed=7)
    again = configuration_correlations(stability, reference, n_bootstrap=300, seed=7)
    other = configuration_correlations(stability, reference, n_bootstrap=300, seed=8)
    stream = configuration_correlations(stability, reference, n_bootstrap=300, seed=7, stream=("across", "all"))
    for stat in ("kendall", "spearman"):
        c = first[stat]
        assert c.ci[0] <= c.estimate <= c.ci[1]
        assert c.ci[0] < c.ci[1]
        assert again[stat].ci == c.ci and np.array_equal(again[stat].samples, c.samples)
        # another seed or another named stream draws other resamples (tau-b over 8 configurations
        # takes few values, so the percentile bounds may coincide; the replicates do not)
        assert not np.array_equal(other[stat].samples, c.samples)
        assert not np.array_equal(stream[stat].samples, c.samples)


def test_document_correlations_views():
    rng = np.random.default_rng(2)
    quality = rng.uniform(0, 1, size=(50, 3))
    stability = quality + rng.normal(0, 0.1, size=quality.shape)
    noise = rng.uniform(0, 1, size=quality.shape)
    good = document_correlations(stability, quality, n_bootstrap=100, seed=0)
    bad = document_correlations(stability, noise, n_bootstrap=100, seed=0)
    assert good["pooled"]["kendall"].n == 150
    assert good["pooled"]["kendall"].estimate == pytest.approx(kendall_tau(stability.ravel(), quality.ravel()))
    assert good["pooled"]["spearman"].estimate == pytest.approx(spearman_rho(stability.ravel(), quality.ravel()))
    per = good["within"]["kendall"]["per_configuration"]
    assert [c.estimate for c in per] == pytest.approx([kendall_tau(stability[:, j], quality[:, j]) for j in range(3)])
    assert good["within"]["kendall"]["mean"].estimate == pytest.approx(np.mean([c.estimate for c in per]))
    for view in (good["pooled"]["kendall"], good["within"]["spearman"]["mean"]):
        assert view.ci[0] <= view.estimate <= view.ci[1]
    assert good["within"]["kendall"]["mean"].estimate > 0.6
    assert abs(bad["within"]["kendall"]["mean"].estimate) < 0.2


# ---------------------------------------------------------------------------------------------
# running means (section 7)
# ---------------------------------------------------------------------------------------------
def test_running_means_skip_nan():
    assert running_means([1.0, 0.0, float("nan"), 0.5]).tolist() == [1.0, 0.5, 0.5, 0.5]


def test_settling_counts_documents():
    constant = settling([0.4] * 50, tolerance=0.01, at=30, n_orders=5)
    assert constant["n_corpus_order"] == 1 and constant["n_median"] == 1
    assert constant["deviation_at"] == pytest.approx(0.0, abs=1e-12)
    # nine 1s then 1s and 0s: the final mean is 0.55; the running mean first stays within 0.02 of it late
    values = [1.0] * 10 + [0.0, 1.0] * 45
    result = settling(values, tolerance=0.02, at=30, n_orders=20, seed=0)
    run = running_means(values)
    n = int(result["n_corpus_order"])
    assert abs(run[n - 1:] - result["final"]).max() <= 0.02 and abs(run[n - 2] - result["final"]) > 0.02
    assert result == settling(values, tolerance=0.02, at=30, n_orders=20, seed=0)


def test_quick_subset_and_svg_helpers():
    assert quick_subset(list(range(10))) == [0, 4, 8]
    assert QUICK_STRIDE == 4
    with pytest.raises(InvalidParameterError):
        quick_subset([1, 2], stride=0)
    svg = svg_scatter([(0.1, 0.5, "a", "p1"), (0.3, float("nan"), "a", "skip"), (0.2, 0.7, "b", "p2")],
                      title="t", x_label="x", y_label="y", labels=True)
    assert svg.startswith("<svg") and svg.count("<circle") == 2 + 2 and "skip" not in svg
    many = svg_scatter([(i / 10, i / 20, "ab"[i % 2], "") for i in range(10)], title="t", x_label="x", y_label="y")
    assert many.count("<path") == 2 and many.count("h0") == 10
    lines = svg_lines({"a": [1.0, 0.5, 0.25], "b": [0.0, 0.1, 0.2]}, title="t", x_label="x", y_label="y", marker=2)
    assert lines.count("<polyline") == 2 and "stroke-dasharray" in lines


# ---------------------------------------------------------------------------------------------
# the study end to end on Choi
# ---------------------------------------------------------------------------------------------
@needs_choi
def test_quick_subset_of_choi_is_100_documents_in_proportion():
    from stability.config import load_config

    docs = quick_subset(list(load_config(CONFIG).documents()))
    assert len(docs) == 100
    sets = [d.id.split("/")[0] for d in docs]
    assert (sets.count("1"), sets.count("2"), sets.count("3")) == (13, 12, 75)
    assert docs[0].id == "1/3-11/0.ref" and docs[1].id == "1/3-11/4.ref"


@needs_choi
def test_study_end_to_end_on_a_handful_of_choi_documents(tmp_path):
    runner = CliRunner()
    args = ["validate", str(CONFIG), "--quick", "--limit", "4", "--restarts", "3", "--jobs", "1",
            "--bootstrap", "60", "--no-progress"]
    first = runner.invoke(app, args + ["--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    report = (tmp_path / "a" / "validation.md").read_text(encoding="utf-8")
    for section in ("Table 1", "Table 2", "Table 3", "Kendall tau-b", "Spearman rho", "This study's rule picks",
                    "settle after about 30 documents", "The ceiling of a reference-free score"):
        assert section in report
    svgs = sorted(p.name for p in (tmp_path / "a" / "validation").glob("*.svg"))
    assert "configurations_f1.svg" in svgs and "running_f1.svg" in svgs and "documents_shuffle_gap.svg" in svgs
    assert f"--out {(tmp_path / 'a').as_posix()}" in report and "--restarts 3" in report
    # same seed from scratch (identical but for the cache folder it names), and resumed from the
    # cache: identical report
    second = runner.invoke(app, args + ["--out", str(tmp_path / "b")])
    assert second.exit_code == 0, second.output
    other = (tmp_path / "b" / "validation.md").read_text(encoding="utf-8")
    assert other.replace((tmp_path / "b").as_posix(), "OUT") == report.replace((tmp_path / "a").as_posix(), "OUT")
    resumed = runner.invoke(app, args + ["--out", str(tmp_path / "a")])
    assert resumed.exit_code == 0, resumed.output
    assert (tmp_path / "a" / "validation.md").read_text(encoding="utf-8") == report

    from stability.study import analyze
    from stability.summary import load_results

    study = analyze(load_results(tmp_path / "a" / "results.jsonl"), n_bootstrap=60, n_orders=20)
    assert len(study.labels) >= 12 and len(study.documents) == 4
    for baseline in ("none", "all", "even_known", "random"):
        assert study.content_blind[baseline] is True, baseline
        assert study.means["stability"]["f1"][baseline] == 1.0
        assert study.means["stability"]["shuffle_gap"][baseline] == 0.0
    for content in ("c99_m11_c1.2", "u00", "u00_known"):
        assert study.content_blind[content] is False, content
    # the baselines are never content-aware (a poor content-based configuration may be flagged too)
    assert not set(study.content_aware) & {"none", "all", "even_known", "random"}
    assert {"c99_m11_c1.2", "u00", "u00_known"} <= set(study.content_aware)
    assert study.best() in study.scores
    assert study.families["tt_w20_k10"] == "tt_w20_k10"  # no config given to analyze: the label


@needs_choi
def test_changed_parameters_do_not_reuse_the_cache(tmp_path):
    def config(mask: int) -> Path:
        path = tmp_path / f"c{mask}.toml"
        path.write_text(
            f'[corpus]\npath = "{(CHOI / "1" / "3-11").as_posix()}"\nformat = "choi"\nlimit = 2\n'
            f'[segmenters.none]\n[segmenters.even]\nn_segments = 10\n[segmenters.c99]\nmask_size = {mask}\n'
            '[run]\nn_restarts = 2\n', encoding="utf-8")
        return path

    def options(mask: int) -> StudyOptions:
        return StudyOptions((str(config(mask)),), out=str(tmp_path / "cache"), bootstrap=40, n_orders=2)

    run_study(options(11))
    with pytest.raises(InvalidParameterError, match=r"the study.s results cache .*cache of corpus .* cannot be reused: .*computed with parameters .* resume with the same parameters, or give the study another results folder \(out=\) or remove that one to run it afresh"):
        run_study(options(5))
