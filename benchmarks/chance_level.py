"""The chance level with a tolerance: exact (``stability.matching.expected_matches``) against the
200-draw Monte-Carlo estimate the library made before (re-implemented here as the comparison).

    .venv/bin/python benchmarks/chance_level.py

For documents of a few sizes (gaps ``G``, ``m0`` reference boundaries placed at random, restart
counts around ``m0``), prints the time of each, their ratio, and how far the estimate falls from
the exact expectation (the noise that reached the headline through ``1 - C``). Timings on a
shared machine are noisy; nothing here is asserted by the tests.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stability.matching import count_matches, expected_matches  # noqa: E402

CASES = [(100, 8, 1), (300, 15, 1), (1000, 40, 1), (1000, 40, 2), (1000, 40, 5), (5000, 100, 2)]  # (gaps, m0, tolerance)


def monte_carlo(reference: list[int], gaps: int, tolerance: int, sizes: list[int], rng: np.random.Generator,
                draws: int = 200) -> np.ndarray:
    """The earlier estimate: ``draws`` random placements per count, matched one to one."""
    return np.array([np.mean([count_matches(reference, np.sort(rng.choice(gaps, m, replace=False) + 1).tolist(), tolerance)
                              for _ in range(draws)]) for m in sizes])


def timed(call):
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def main() -> None:
    rng = np.random.default_rng(0)
    print(f"{'G':>6} {'m0':>4} {'tol':>3} {'exact':>9} {'200 draws':>10} {'ratio':>7} {'max |error| of the estimate':>28}")
    for gaps, m0, tolerance in CASES:
        reference = sorted(rng.choice(np.arange(1, gaps + 1), m0, replace=False).tolist())
        sizes = [max(1, m0 + d) for d in (-3, -1, 0, 1, 3)]
        exact, t_exact = timed(lambda: expected_matches(reference, gaps, tolerance, sizes))
        estimate, t_mc = timed(lambda: monte_carlo(reference, gaps, tolerance, sizes, rng))
        error = float(np.max(np.abs(estimate - exact) / np.array(sizes)))  # on E[P] = E[X] / m
        print(f"{gaps:>6} {m0:>4} {tolerance:>3} {t_exact * 1e3:>7.1f}ms {t_mc * 1e3:>8.1f}ms "
              f"{t_mc / t_exact:>6.1f}x {error:>28.4f}")


if __name__ == "__main__":
    main()
