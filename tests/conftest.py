"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

os.environ.setdefault("_TYPER_FORCE_DISABLE_TERMINAL", "1")

# Property and fuzz tests draw the same examples on every run by default, so the suite (and CI)
# gives the same answer for the same code; STABILITY_HYPOTHESIS=explore draws new examples each
# run (and keeps failing ones in the local example database) to look for new failures. No
# deadline: how long an example takes is a timing, which no test asserts (a loaded CI machine made
# a 230 ms example of the insertion probe fail the suite).
settings.register_profile("repeatable", derandomize=True, print_blob=True, deadline=None)
settings.register_profile("explore", derandomize=False, print_blob=True, deadline=None)
settings.load_profile(os.environ.get("STABILITY_HYPOTHESIS", "repeatable"))

SHARED = Path(__file__).resolve().parents[2] / "shared"


def pytest_collection_modifyitems(config, items):
    """The long fuzz runs (marked ``slow_fuzz``) run only when ``-m`` names them; otherwise they
    are skipped before their fixtures are set up."""
    if "slow_fuzz" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="the long fuzz runs with -m slow_fuzz")
    for item in items:
        if item.get_closest_marker("slow_fuzz") is not None:
            item.add_marker(skip)


@functools.cache
def missing_segmenters() -> dict[str, str]:
    """``{name: how to install it}`` of the registered segmenters whose optional package is not
    installed (:attr:`~stability.registry.SegmenterStatus.missing`): none where the dev extra is
    installed (tests/test_contract.py fails otherwise, unless ``STABILITY_TEST_EXTRAS=some`` says
    the run installs only some extras, as .ci/run's run at the dependencies' floors, which cannot
    install chonkie)."""
    from stability.registry import describe_segmenters

    return {name: status.missing for name, status in describe_segmenters().items() if status.missing}


def installed_segmenters() -> list[str]:
    """The registered segmenter names that can be made here: every one with the dev extra."""
    from stability import available_segmenters

    missing = missing_segmenters()
    return [name for name in sorted(available_segmenters()) if name not in missing]


@pytest.fixture
def shared_dir() -> Path:
    """``../shared`` beside the checkout; tests using it skip cleanly when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not available")
    return SHARED


def _word(topic: int, index: int) -> str:
    """A pseudo-word made of letters only (tokenizers that keep alphabetic words see it)."""
    value, letters = topic * 1000 + index, []
    while True:
        value, digit = divmod(value, 26)
        letters.append(chr(97 + digit))
        if value == 0:
            break
    return "zq" + "".join(letters) + "x"


def topical_document(seed: int, n_topics: int = 5, vocab: int = 25, words: int = 8, lengths=(5, 10)):
    """A clean topical document: every topic draws its words from its own vocabulary.

    Returns ``(units, boundaries)``.
    """
    rng = np.random.default_rng(seed)
    units, boundaries = [], []
    topics = rng.choice(40, size=n_topics, replace=False)
    for t in topics.tolist():
        length = int(rng.integers(lengths[0], lengths[1] + 1))
        if units:
            boundaries.append(len(units))
        for _ in range(length):
            ids = rng.integers(0, vocab, size=words)
            units.append(" ".join(_word(t, i) for i in ids.tolist()))
    return units, boundaries


def cohesion_segmenter(units, window: int = 3):
    """A small lexical-cohesion segmenter (TextTiling-like), written for the tests.

    For every gap, the cosine similarity of the word counts of the ``window`` units before and
    after it; a gap is a boundary when its similarity is a strict local minimum below
    ``mean - std / 2`` of all similarities.
    """
    n = len(units)
    if n < 2:
        return []
    vocabulary: dict[str, int] = {}
    rows = [[vocabulary.setdefault(w, len(vocabulary)) for w in u.lower().split()] for u in units]
    counts = np.zeros((n, max(len(vocabulary), 1)))
    for i, row in enumerate(rows):
        np.add.at(counts[i], row, 1)
    prefix = np.vstack([np.zeros(counts.shape[1]), np.cumsum(counts, axis=0)])
    sims = np.empty(n - 1)
    for g in range(1, n):
        left = prefix[g] - prefix[max(0, g - window)]
        right = prefix[min(n, g + window)] - prefix[g]
        norm = np.linalg.norm(left) * np.linalg.norm(right)
        sims[g - 1] = left @ right / norm if norm > 0 else 0.0
    cutoff = sims.mean() - sims.std() / 2
    out = []
    for g in range(1, n):
        s = sims[g - 1]
        left_ok = g == 1 or s < sims[g - 2]
        right_ok = g == n - 1 or s < sims[g]
        if s < cutoff and left_ok and right_ok:
            out.append(g)
    return out


def listed_parameters(listing: str) -> dict[str, dict[str, list[str]]]:
    """The parameters table of ``stability segmenters``' terminal output, read back:
    ``segmenter -> parameter -> [default, meaning]``, each segmenter's name read from the row that
    heads its parameters (unindented), each meaning joined from its lines. Fails on a parameter
    row whose meaning does not start on it, and on a table not of these three columns."""
    table = listing.split("Parameters and their defaults", 1)[1]
    lines = [line for line in table.splitlines() if line.startswith(("│", "┃"))]
    assert [cell.strip() for cell in lines[0].split("┃")[1:-1]] == ["parameter", "default", "meaning"], lines[0]
    groups: dict[str, dict[str, list[str]]] = {}
    group, key = None, None
    for line in lines[1:]:
        first, default, meaning = line.split("│")[1:-1]
        if first.strip() and not first.startswith("   "):  # a segmenter's name, heading its rows
            assert first.strip() not in groups and not default.strip() and not meaning.strip(), line
            group = groups[first.strip()] = {}
        elif first.strip():  # a parameter, indented under it
            key = first.strip()
            assert group is not None and meaning.strip(), line  # its meaning starts on its row
            group[key] = [default.strip(), meaning.strip()]
        else:  # its meaning, continued
            assert group is not None and key is not None, line
            group[key][1] += " " + meaning.strip()
    return groups


def listed_keys(listing: str) -> dict[str, dict[str, list[str]]]:
    """The tables of ``stability config``'s terminal output, read back: ``table title -> key ->
    [type, default, flag, meaning]``, each cell's lines joined by spaces, the flag read from its
    own column or from under its key (indented; the header ``key`` over ``flag``). Fails on a key
    whose type, default or meaning does not start on its row, a line under a key that is not its
    flag, and a table title seen twice (a table printed in parts)."""
    lines = listing.splitlines()
    tables: dict[str, dict[str, list[str]]] = {}
    header: list[list[str]] = []
    table: dict[str, list[str]] = {}
    key = None
    for n, line in enumerate(lines):
        if line.startswith("┏"):
            title = lines[n - 1].strip()
            assert title not in tables, title
            table, header, key = tables.setdefault(title, {}), [], None
        elif line.startswith("┃"):
            header.append([cell.strip() for cell in line.split("┃")[1:-1]])
        elif line.startswith("│"):
            titles = [" ".join(" ".join(column).split()) for column in zip(*header)]
            assert titles in (["key", "type", "default", "flag", "meaning"], ["key flag", "type", "default", "meaning"]), titles
            cells = dict(zip(titles, line.split("│")[1:-1]))
            first = cells.pop("key", None) or cells.pop("key flag")
            if first.strip() and not first.startswith("   "):  # a key, its type, default and meaning on its row
                key = first.strip()
                assert key not in table and all(cells[t].strip() for t in ("type", "default", "meaning")), line
                table[key] = [cells["type"].strip(), cells["default"].strip(), cells.get("flag", "").strip(),
                              cells["meaning"].strip()]
                continue
            assert key is not None, line
            if first.strip():  # its flag, under it
                assert titles[0] == "key flag" and not table[key][2], line
                table[key][2] = first.strip()
            for i, title in enumerate(("type", "default", "flag", "meaning")):
                if cells.get(title, "").strip():  # a cell's next line
                    table[key][i] = f"{table[key][i]} {cells[title].strip()}".strip()
    return tables
