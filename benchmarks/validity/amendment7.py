"""Amendment 7 of docs/validation-protocol.md: the sixth documentation project (the Node.js API
reference), a held-out check of the headline and of the adopted ``×agreement`` number.

Usage (from the repository root, with the project installed, after the studies' caches exist)::

    python benchmarks/validity/amendment7.py

Prints, for the two Node.js readings and then for every cached reading of Amendment 6 beside them,
the mean of Kendall tau-b against B and boundary F1 within one unit of the headline and of the
score of each pool of voters of ``amendment6_pools.py`` ("all voters" is the adopted score), then
on how many readings the adopted score is above the headline. Nothing is chosen on it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from amendment6_pools import POOLS, READINGS, ROOT, reading  # noqa: E402

NEW = ("validation-docs-node/node", "validation-docs-node/node_sections")


def main() -> None:
    columns = ["headline", *POOLS]
    print("| reading | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    rows = {}
    for name in (*NEW, *READINGS):
        folder = ROOT / "results" / name
        if not (folder / "results.jsonl").is_file():
            print(f"| {name} | missing |" + " |" * (len(columns) - 1))
            continue
        rows[name] = reading(folder)
        print(f"| {name} | " + " | ".join(f"{rows[name][c]:+.3f}" for c in columns) + " |")
    if not rows:
        return
    print("| mean | " + " | ".join(f"{np.mean([r[c] for r in rows.values()]):+.3f}" for c in columns) + " |")
    above = [name for name, r in rows.items() if r["all voters"] > r["headline"]]
    print(f"\n×agreement above the headline on {len(above)} of {len(rows)} readings")
    for name in NEW:
        if name in rows:
            gain = rows[name]["all voters"] - rows[name]["headline"]
            print(f"{name}: ×agreement minus headline {gain:+.3f}")


if __name__ == "__main__":
    main()
