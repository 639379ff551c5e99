"""Benchmark: stability.metrics against nltk and segeval on the same segmentations.

Run ``python benchmarks/metrics.py`` (``--quick`` skips the slowest peer calls, segeval's
window_diff and B/S at 100,000 units). Each library gets its native input built beforehand:
nltk a gap string, segeval a tuple of masses, stability a ``Segmentation`` (a second column
times stability from raw masses, ``Segmentation.from_masses`` conversion included). Times are CPU seconds
(``time.process_time``), the minimum over repeats (repeats continue until 0.3 s is spent, at most
5); ratios are peer time / stability time, so 10x means stability is ten times faster.

Targets (issue 3): pk and windowdiff >= 10x nltk 3.10 and >= 1000x segeval's window_diff at
100,000 units / 200 boundaries; ghd >= 20x nltk at 2,000 x 2,000 boundaries. nltk's ghd refuses
gap strings longer than 10,000 since 3.10.4; its cap is lifted here to compare.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))

import segeval  # noqa: E402
from nltk.metrics.segmentation import ghd as nltk_ghd  # noqa: E402
from nltk.metrics.segmentation import pk as nltk_pk  # noqa: E402
from nltk.metrics.segmentation import windowdiff as nltk_windowdiff  # noqa: E402

from stability import metrics  # noqa: E402
from stability.segmentation import Segmentation  # noqa: E402

sys.modules[nltk_ghd.__module__].MAX_GHD_INPUT_LEN = 10**12


def cpu_time(fn: Callable[[], object], budget: float = 0.3, max_repeats: int = 5) -> float:
    best, spent, runs = float("inf"), 0.0, 0
    while runs < max_repeats and (runs == 0 or spent < budget):
        t0 = time.process_time()
        fn()
        dt = time.process_time() - t0
        best, spent, runs = min(best, dt), spent + dt, runs + 1
    return best


def random_segmentation(rng: np.random.Generator, n: int, m: int) -> Segmentation:
    return Segmentation(np.sort(rng.choice(np.arange(1, n), m, replace=False)).tolist(), n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip segeval window_diff and B/S at 100,000 units")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    rows = []
    for n, m in ((10_000, 200), (100_000, 200), (100_000, 2_000)):
        ref, hyp = random_segmentation(rng, n, m), random_segmentation(rng, n, m)
        ref_s, hyp_s = ref.gaps, hyp.gaps
        ref_m, hyp_m = ref.masses, hyp.masses
        M = Segmentation.from_masses
        k = metrics.window_size(ref, "segeval")
        slow_ok = not (args.quick and n >= 100_000)
        size = f"{n:,} units / {m:,} bnd (k={k})"

        # sanity: identical values before timing
        assert metrics.pk(ref, hyp, k) == nltk_pk(ref_s, hyp_s, k)
        assert metrics.windowdiff(ref, hyp, k) == nltk_windowdiff(ref_s, hyp_s, k)
        assert metrics.ghd(ref, hyp) == nltk_ghd(ref_s, hyp_s)

        def add(name, ours, ours_masses, peers):
            t_ours = cpu_time(ours)
            t_masses = cpu_time(ours_masses)
            cells = []
            for peer_name, peer in peers:
                if peer is None:
                    cells.append(f"{peer_name}: skipped")
                    continue
                t_peer = cpu_time(peer, budget=0.3, max_repeats=3)
                cells.append(f"{peer_name} {t_peer:.4f}s ({t_peer / t_ours:,.0f}x)")
            rows.append((size, name, f"{t_ours:.5f}s", f"{t_masses:.5f}s", "; ".join(cells)))

        add("pk", lambda: metrics.pk(ref, hyp, k), lambda: metrics.pk(M(ref_m), M(hyp_m), k), [
            ("nltk", lambda: nltk_pk(ref_s, hyp_s, k)),
            ("segeval", lambda: segeval.pk(hyp_m, ref_m, window_size=k)),
        ])
        add("windowdiff", lambda: metrics.windowdiff(ref, hyp, k), lambda: metrics.windowdiff(M(ref_m), M(hyp_m), k), [
            ("nltk", lambda: nltk_windowdiff(ref_s, hyp_s, k)),
            ("segeval", (lambda: segeval.window_diff(hyp_m, ref_m, window_size=k)) if slow_ok else None),
        ])
        add("ghd", lambda: metrics.ghd(ref, hyp), lambda: metrics.ghd(M(ref_m), M(hyp_m)), [
            ("nltk", lambda: nltk_ghd(ref_s, hyp_s)),
        ])
        add("boundary_similarity", lambda: metrics.boundary_similarity(ref, hyp),
            lambda: metrics.boundary_similarity(M(ref_m), M(hyp_m)), [
                ("segeval", (lambda: segeval.boundary_similarity(hyp_m, ref_m)) if slow_ok else None),
            ])
        add("segmentation_similarity", lambda: metrics.segmentation_similarity(ref, hyp),
            lambda: metrics.segmentation_similarity(M(ref_m), M(hyp_m)), [
                ("segeval", (lambda: segeval.segmentation_similarity(hyp_m, ref_m)) if slow_ok else None),
            ])
        for name in ("windowdiff_corrected", "nwin", "tnwin", "pr_error", "boundary_prf", "cov_n", "cov_d"):
            fn = getattr(metrics, name)
            add(name, lambda fn=fn: fn(ref, hyp), lambda fn=fn: fn(M(ref_m), M(hyp_m)), [])
        add("compute_all", lambda: metrics.compute_all(ref, hyp), lambda: metrics.compute_all(M(ref_m), M(hyp_m)), [])
        refs = [ref, hyp, random_segmentation(rng, n, m)]
        add("multi_reference_metrics", lambda: metrics.multi_reference_metrics(refs, hyp),
            lambda: metrics.multi_reference_metrics([M(r.masses) for r in refs], M(hyp_m)), [])

    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    header = ("size", "metric", "stability", "from masses")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)) + "  peers (time, peer/stability)")
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[4])


if __name__ == "__main__":
    main()
