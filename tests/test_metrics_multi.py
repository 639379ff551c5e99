"""CovN / CovD, WiSeBE, Fleiss' kappa and the report dictionaries.

Reference values: Bouchekif et al.'s Figure 1 coverages, brute-force transcriptions of the
definitions (segment by segment, position by position), nltk's AnnotationTask.pi (multi-pi =
Fleiss' kappa) run inside the tests, and hand computations in comments.
"""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest
from nltk.metrics.agreement import AnnotationTask

from stability.exceptions import InvalidParameterError, InvalidSegmentationError, InvalidTypeError
from stability.catalogue import MULTI_REFERENCE, REFERENCE
from stability.metrics import (
    boundary_prf,
    boundary_similarity,
    chance_corrected_f1,
    compute_all,
    cov_d,
    cov_n,
    fleiss_kappa,
    ghd,
    multi_reference_metrics,
    nwin,
    pk,
    pr_error,
    reference_metrics,
    segmentation_similarity,
    tnwin,
    windowdiff,
    windowdiff_corrected,
    wisebe,
)
from stability.segmentation import Segmentation

#: The hand cases below write segmentations as segment masses (segeval's encoding), explicitly.
M = Segmentation.from_masses


def random_segmentation(rng: random.Random, n: int, density: float | None = None) -> Segmentation:
    p = rng.random() if density is None else density
    return Segmentation([b for b in range(1, n) if rng.random() < p], n)


# --------------------------------------------------------------------------- CovN / CovD


def _coverage_brute_force(ref: Segmentation, hyp: Segmentation, gamma: float, weights=None):
    """Definition of Bouchekif et al., segment by segment (O(|R| |H| n))."""
    n = ref.n_units
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)

    def size(seg):
        return float(w[seg[0]:seg[1]].sum())

    def overlap(a, b):
        lo, hi = max(a[0], b[0]), min(a[1], b[1])
        return float(w[lo:hi].sum()) if hi > lo else 0.0

    def judge(side, other):
        flags = []
        for s in side:
            best = None
            for j, o in enumerate(other):
                ov = overlap(s, o)
                if ov <= 0:
                    continue
                harm = 2 * ov / (size(s) + size(o))
                key = (ov, harm, -j)
                if best is None or key > best[0]:
                    best = (key, harm)
            flags.append(best[1] > gamma)
        return flags

    fr, fh = judge(ref.segments, hyp.segments), judge(hyp.segments, ref.segments)
    rn, pn = sum(fr) / len(fr), sum(fh) / len(fh)
    dr = [size(s) for s in ref.segments]
    dh = [size(s) for s in hyp.segments]
    rd = sum(d for d, f in zip(dr, fr) if f) / sum(dr)
    pd = sum(d for d, f in zip(dh, fh) if f) / sum(dh)

    def hm(a, b):
        return 0.0 if a + b == 0 else 2 * a * b / (a + b)

    return hm(rn, pn), hm(rd, pd), (rn, pn, rd, pd)


def test_coverage_equals_brute_force_definition():
    rng = random.Random(21)
    for _ in range(300):
        n = rng.randint(1, 60)
        ref = random_segmentation(rng, n, rng.random() * 0.4)
        hyp = random_segmentation(rng, n, rng.random() * 0.4)
        gamma = rng.choice([0.85, 0.6, 0.3])
        weights = [rng.choice([0.5, 1.0, 2.0, 3.25]) for _ in range(n)] if rng.random() < 0.5 else None
        times = None
        if weights is not None:
            ends = np.cumsum(weights) + np.arange(n) * 0.1  # pauses between units do not count
            times = np.column_stack((ends - np.asarray(weights), ends))
        cn, cd, (rn, pn, rd, pd) = _coverage_brute_force(ref, hyp, gamma, weights)
        parts_n = cov_n(ref, hyp, gamma, times=times, return_parts=True)
        parts_d = cov_d(ref, hyp, gamma, times=times, return_parts=True)
        assert (parts_n.recall, parts_n.precision) == pytest.approx((rn, pn))
        assert (parts_d.recall, parts_d.precision) == pytest.approx((rd, pd))
        assert parts_n.value == pytest.approx(cn) and parts_d.value == pytest.approx(cd)


def test_coverage_figure_1_values():
    # Bouchekif et al. Figure 1: a reference segment wholly inside a hypothesis segment 45% of
    # whose duration it covers: Cov R->H = 100%, H->R = 45%, harmonic 2 * 0.45 / 1.45 = 62%.
    # Reference [0,5) [5,14) [14,30); hypothesis [0,3) [3,23) [23,30): R_2 (9 units) in H_2 (20).
    parts = cov_n(M([5, 9, 16]), M([3, 20, 7]), return_parts=True)
    assert parts.reference_coverage[1] == pytest.approx(2 * 9 / 29)
    assert round(parts.reference_coverage[1], 2) == 0.62
    # the reverse: a 19-unit hypothesis segment inside a 50-unit reference one, 38% -> 55%
    parts = cov_n(M([50]), M([19, 31]), return_parts=True)
    assert parts.hypothesis_coverage[0] == pytest.approx(2 * 19 / 69)
    assert round(parts.hypothesis_coverage[0], 2) == 0.55


def test_coverage_threshold_is_strict():
    # R_1 = [0, 20) best covered by H_2 = [3, 23): 2 * 17 / (20 + 20) = 0.85 exactly
    ref, hyp = M([20, 23]), M([3, 20, 20])
    # (R_2 = [20, 43) is covered by H_3 = [23, 43) at 2 * 20 / 43 = 0.93 either way)
    parts = cov_n(ref, hyp, 0.85, return_parts=True)
    assert parts.reference_coverage[0] == 0.85 and parts.correct_reference == 1
    assert cov_n(ref, hyp, 0.84, return_parts=True).correct_reference == 2


def test_coverage_times_and_validation():
    ref, hyp = M([10, 30]), M([12, 28])
    # constant unit durations give the unit-count result
    times = np.column_stack((np.arange(40) * 2.0, np.arange(40) * 2.0 + 1.5))
    assert cov_d(ref, hyp, times=times) == cov_d(ref, hyp)
    # R = [0,10) [10,40), H = [0,12) [12,40); unit 11 (in R_2 and H_1) lasts 100 instead of 1:
    # d(H_1) = 111, d(R_2) = 129, and H_1 is now best covered by R_2 (overlap 101 > 10),
    # with harmonic coverage 2 * 101 / (111 + 129); R_1 keeps H_1: 2 * 10 / (10 + 111)
    dur = np.ones(40)
    dur[11] = 100.0
    ends = np.cumsum(dur)
    parts = cov_d(ref, hyp, times=np.column_stack((ends - dur, ends)), return_parts=True)
    assert parts.hypothesis_coverage[0] == pytest.approx(2 * 101 / (111 + 129))
    assert parts.reference_coverage[0] == pytest.approx(2 * 10 / (10 + 111))
    with pytest.raises(InvalidParameterError, match="shape"):
        cov_n(ref, hyp, times=np.zeros((39, 2)))
    with pytest.raises(InvalidParameterError, match="end >= start"):
        cov_n(ref, hyp, times=np.column_stack((np.ones(40), np.zeros(40))))
    # times giving the document no duration: nothing to measure (it was an error, which aborted a run)
    assert np.isnan(cov_n(ref, hyp, times=np.zeros((40, 2)))) and np.isnan(cov_d(ref, hyp, times=np.zeros((40, 2))))
    with pytest.raises(InvalidParameterError, match="gamma"):
        cov_n(ref, hyp, 1.5)
    # the error names the first unit whose end comes before its start (unit 2), not unit 0,
    # which lasts no time and is allowed
    backwards = np.column_stack((np.arange(40.0), np.arange(40.0) + 1.0))
    backwards[0, 1], backwards[2, 1] = 0.0, 1.5
    with pytest.raises(InvalidParameterError, match=r"end >= start for every unit; unit 2 has start=2\.0, end=1\.5$"):
        cov_n(ref, hyp, times=backwards)


# --------------------------------------------------------------------------- Fleiss' kappa


def test_fleiss_kappa_equals_nltk_multi_pi():
    rng = random.Random(22)
    for _ in range(60):
        n = rng.randint(3, 50)
        refs = [random_segmentation(rng, n, rng.random() * 0.5) for _ in range(rng.randint(2, 5))]
        data = [(f"r{c}", g, int(g + 1 in r.boundaries)) for c, r in enumerate(refs) for g in range(n - 1)]
        if len({label for _, _, label in data}) < 2:
            continue  # nltk divides by zero when a single category is used
        assert fleiss_kappa(refs) == pytest.approx(AnnotationTask(data).pi(), abs=1e-12)
        marked = sorted({b - 1 for r in refs for b in r.boundaries})
        sub = [t for t in data if t[1] in marked]
        if len({label for _, _, label in sub}) == 2:
            assert fleiss_kappa(refs, positions="boundaries") == pytest.approx(AnnotationTask(sub).pi(), abs=1e-12)


def test_fleiss_kappa_parts_by_hand():
    # 8 gaps, raters {3} and {3, 6} (gaps 2 and 5): gap 2 agreed, gap 5 split, 6 gaps agreed empty.
    # Observed P = (7 * 1 + 1 * 0) / 8 = 7/8; boundary share p = 3 votes / (8 gaps * 2 raters) =
    # 3/16; chance P_e = p^2 + (1 - p)^2 = (9 + 169) / 256; kappa = (7/8 - 178/256) / (1 - 178/256)
    # = 46/78 (hand, as in the docstring; the parts were untested before mutation testing)
    parts = fleiss_kappa([Segmentation([3], 9), Segmentation([3, 6], 9)], return_parts=True)
    assert (parts.n_items, parts.n_raters) == (8, 2)
    assert parts.observed == 7 / 8 and parts.boundary_share == 3 / 16
    assert parts.expected == pytest.approx(178 / 256) and parts.value == pytest.approx(46 / 78)


def test_fleiss_kappa_degenerate_cases():
    assert fleiss_kappa([M([9]), M([9]), M([9])]) == 1.0  # nobody marks anything: perfect agreement
    assert fleiss_kappa([M([3, 6]), M([3, 6])]) == 1.0
    assert fleiss_kappa([M([1]), M([1])]) == 1.0  # no gap
    # two raters who always disagree on every marked gap, "boundaries" only: P = 0, p = 1/2
    assert fleiss_kappa([M([3, 6]), M([4, 5])], positions="boundaries") == pytest.approx(-1.0)
    with pytest.raises(InvalidParameterError, match="at least 2"):
        fleiss_kappa([M([3, 6])])
    with pytest.raises(InvalidSegmentationError, match="same number of units"):
        fleiss_kappa([M([3, 6]), M([3, 5])])
    with pytest.raises(InvalidParameterError, match="positions"):
        fleiss_kappa([M([3, 6]), M([3, 6])], positions="gaps")


# --------------------------------------------------------------------------- WiSeBE


def _wisebe_brute_force(refs, cand, limit):
    """Position-by-position transcription of WiSeBE (eq. 4-13) with the tool's window scan."""
    n = refs[0].n_units
    m = len(refs)
    d = [sum(1 for r in refs if b in r.boundaries) for b in range(n)]  # index = boundary b
    pb = sum(x for x in d if x >= 2)
    ha = m * sum(1 for x in d if x != 0)
    ar = pb / ha if ha else 1.0
    windows, current, last = [], [], None
    for b in range(1, n):
        if d[b]:
            if current and b - last > limit:
                windows.append((current[0], current[-1]))
                current = []
            current.append(b)
            last = b
    if current:
        windows.append((current[0], current[-1]))
    inside = [c for c in cand.boundaries if any(lo <= c <= hi for lo, hi in windows)]
    hit = [w for w in windows if any(w[0] <= c <= w[1] for c in cand.boundaries)]
    if not cand.boundaries and not windows:
        p = r = 1.0
    else:
        p = len(inside) / len(cand.boundaries) if cand.boundaries else 0.0
        r = len(hit) / len(windows) if windows else 0.0
    f1 = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return f1 * ar, f1, p, r, ar, windows


def test_wisebe_equals_brute_force():
    rng = random.Random(23)
    for _ in range(300):
        n = rng.randint(2, 80)
        refs = [random_segmentation(rng, n, rng.random() * 0.3) for _ in range(rng.randint(2, 4))]
        cand = random_segmentation(rng, n, rng.random() * 0.3)
        limit = rng.choice([0, 1, 3, 6])
        value, f1, p, r, ar, windows = _wisebe_brute_force(refs, cand, limit)
        parts = wisebe(refs, cand, limit, return_parts=True)
        assert parts.windows == tuple(windows)
        assert (parts.precision, parts.recall, parts.agreement_ratio) == pytest.approx((p, r, ar))
        assert parts.f1 == pytest.approx(f1) and parts.value == pytest.approx(value)


def test_wisebe_hand_example():
    # refs {5, 20}, {6, 20}, {5, 30} over 40 units: d = 2 at 5 and 20, 1 at 6 and 30.
    # AR = (2 + 2) / (3 * 4) = 1/3; windows (limit 3): [5, 6], [20, 20], [30, 30].
    # candidate {6, 12, 30}: 6 and 30 inside (P = 2/3), windows hit 2 of 3 (R = 2/3), F1 = 2/3.
    refs = [Segmentation([5, 20], 40), Segmentation([6, 20], 40), Segmentation([5, 30], 40)]
    parts = wisebe(refs, Segmentation([6, 12, 30], 40), return_parts=True)
    assert parts.windows == ((5, 6), (20, 20), (30, 30))
    assert parts.agreement_ratio == pytest.approx(1 / 3)
    assert (parts.precision, parts.recall, parts.f1) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    assert parts.value == pytest.approx(2 / 9)
    # identical references: AR = 1, WiSeBE = F1 of the candidate against the windows
    same = [Segmentation([5, 20], 40)] * 3
    assert wisebe(same, Segmentation([5, 20], 40)) == 1.0
    # no reference boundary anywhere: AR = 1 by convention; an empty candidate is perfect
    assert wisebe([M([40]), M([40])], M([40])) == 1.0 and wisebe([M([40]), M([40])], M([20, 20])) == 0.0
    with pytest.raises(InvalidSegmentationError, match="candidate"):
        wisebe(refs, M([39]))
    with pytest.raises(InvalidParameterError, match="window_limit"):
        wisebe(refs, M([40]), -1)


# --------------------------------------------------------------------------- report dictionaries


def test_compute_all_matches_the_individual_functions():
    rng = random.Random(24)
    for _ in range(30):
        n = rng.randint(2, 80)
        ref, hyp = random_segmentation(rng, n), random_segmentation(rng, n)
        scores = compute_all(ref, hyp, tolerance=1)
        assert tuple(scores) == tuple(REFERENCE)
        k = scores["window_k"]
        prf = boundary_prf(ref, hyp, 1)
        expected = {
            "precision": prf.precision, "recall": prf.recall, "f1": prf.f1, "f1_1": prf.f1,  # tolerance 1 here
            "f1_corrected": chance_corrected_f1(ref, hyp, 1), "f1_1_corrected": chance_corrected_f1(ref, hyp, 1),
            "pk": pk(ref, hyp), "windowdiff": windowdiff(ref, hyp), "windowdiff_corrected": windowdiff_corrected(ref, hyp),
            "nwin": nwin(ref, hyp), "tnwin": tnwin(ref, hyp), "pr_error": pr_error(ref, hyp),
            "ghd": ghd(ref, hyp), "boundary_similarity": boundary_similarity(ref, hyp),
            "segmentation_similarity": segmentation_similarity(ref, hyp),
            "cov_n": cov_n(ref, hyp), "cov_d": cov_d(ref, hyp), "window_k": k,
        }
        # NaN (a chance-corrected F1 both sides empty) equals NaN here
        assert {key: "nan" if v != v else v for key, v in scores.items()} == {
            key: "nan" if v != v else v for key, v in expected.items()}
        assert all(isinstance(v, float) for key, v in scores.items() if key != "window_k")
    assert reference_metrics is compute_all
    one = compute_all(M([1]), M([1]))
    assert math.isnan(one["pk"]) and math.isnan(one["window_k"]) and one["boundary_similarity"] == 1.0


def test_every_entry_point_names_the_bare_argument_it_refuses():
    ref, hyp = Segmentation([3, 7], 9), Segmentation([2, 8], 9)
    calls = [
        ("reference", lambda: compute_all([3, 7], hyp)),
        ("hypothesis", lambda: compute_all(ref, (2, 8))),
        ("references[1]", lambda: multi_reference_metrics([ref, [3, 7]], hyp)),
        ("hypothesis", lambda: multi_reference_metrics([ref, ref], np.array([2, 8]))),
        ("references[0]", lambda: fleiss_kappa([[3, 4, 2], ref])),
        ("candidate", lambda: wisebe([ref, ref], [2, 8])),
    ]
    for name, call in calls:
        with pytest.raises(InvalidTypeError, match=rf"^{re.escape(name)} must be a Segmentation; "
                           r"received .*from_boundaries.*from_masses.*from_gaps"):
            call()
    with pytest.raises(InvalidTypeError, match="^references must be a sequence of Segmentation"):
        fleiss_kappa(ref)


def test_multi_reference_metrics_keys_and_values():
    refs = [Segmentation([5, 20], 40), Segmentation([6, 20], 40), Segmentation([5, 30], 40)]
    hyp = Segmentation([6, 12, 30], 40)
    scores = multi_reference_metrics(refs, hyp)
    assert tuple(scores) == tuple(MULTI_REFERENCE)
    assert scores["wisebe"] == pytest.approx(2 / 9)
    assert scores["fleiss_kappa"] == fleiss_kappa(refs)
    # per-reference F1: {5,20}: 0, {6,20}: P 1/3 R 1/2 -> 0.4, {5,30}: 0.4
    assert scores["mean_f1"] == pytest.approx((0.0 + 0.4 + 0.4) / 3)
    assert scores["n_references"] == 3
