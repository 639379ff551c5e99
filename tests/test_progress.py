"""The restarts bar gives context (issue 13): the phase, restarts per second, pairs finished."""

from __future__ import annotations

import stability.runner as runner
from stability import evaluate
from stability.engine import Progress


class Recording(Progress):
    """The bar's calls, recorded (the real bar draws only on a terminal)."""

    def __init__(self, show, description="restarts"):
        super().__init__(False, description)
        self.calls = []
        Recording.last = self

    def phase(self, name):
        self.calls.append(("phase", name))

    def add_pairs(self, amount):
        super().add_pairs(amount)
        self.calls.append(("pairs", tuple(self._pairs)))

    def pair_done(self):
        super().pair_done()
        self.calls.append(("done", tuple(self._pairs)))


def test_a_run_names_its_phases_and_counts_pairs(monkeypatch):
    monkeypatch.setattr(runner, "Progress", Recording)
    docs = [["a"] * 12, ["b"] * 15, ["c"] * 9]
    evaluate({"even": "even", "none": "none"}, docs, n_restarts=3, block_size=2)
    calls = Recording.last.calls
    phases = [name for kind, name in calls if kind == "phase"]
    assert phases == ["first segmentations (4)", None, "first segmentations (2)", None]  # two blocks
    assert [c for c in calls if c[0] == "pairs"] == [("pairs", (0, 4)), ("pairs", (4, 6))]
    assert calls[-1] == ("done", (6, 6))


def test_the_bar_shows_phase_rate_and_pairs_on_a_terminal(monkeypatch):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # elsewhere --progress prints plain lines
    bar = Progress(True, "restarts")
    try:
        bar.add_total(100)
        bar.add_pairs(4)
        bar.phase("first segmentations (4)")
        task = bar._bar.tasks[0]
        assert task.description == "first segmentations (4)" and task.fields["pairs"] == "pairs 0/4"
        bar.phase(None)
        bar.pair_done()
        for _ in range(3):
            bar.advance(10)
        task = bar._bar.tasks[0]
        assert task.description == "restarts" and task.fields["pairs"] == "pairs 1/4"
        assert task.completed == 30 and task.fields["rate"].endswith("/s")
    finally:
        bar.close()


def test_plain_progress_lines_keep_coming_while_nothing_advances(monkeypatch, capsys):
    # --progress in a CI log printed a line only when restarts advanced: a corpus read before the first
    # document (Punkt trained on 4,000 files: 40 s) or one long segmenter call was silent, which CI
    # services with a no-output timeout (CircleCI's 10 minutes) take for a hung job and kill
    import sys
    import time

    from stability import engine

    monkeypatch.setattr(engine, "LINE_EVERY", 0.05)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    bar = Progress(True, "restarts")
    seen = ""
    try:
        bar.add_total(10)
        deadline = time.monotonic() + 30  # a generous wait for an event, never a measured time
        while time.monotonic() < deadline and "restarts 0/10 (0%)" not in seen:
            time.sleep(0.01)
            seen += capsys.readouterr().err
    finally:
        bar.close()
    assert "restarts 0/10 (0%)" in seen  # printed while nothing advanced
    assert capsys.readouterr().err.splitlines()[-1].endswith(", done")
