"""Metric conventions a user of nltk or segeval knows (issue 13): the default window k against
nltk's and segeval's, run in the test; the (reference, hypothesis) order against segeval's
(hypothesis, reference): refused when the call says so by its keyword names, documented in every
docstring otherwise."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import segeval
from nltk.metrics.segmentation import pk as nltk_pk
from nltk.metrics.segmentation import windowdiff as nltk_windowdiff

from stability import Segmentation
from stability import metrics
from stability.exceptions import InvalidTypeError
from stability.metrics import boundary_prf, boundary_similarity, pk, segmentation_similarity, windowdiff


def _random_pairs(count: int, seed: int) -> list[tuple[Segmentation, Segmentation]]:
    """Documents of 10-300 units with 1-11 reference boundaries, and a random hypothesis."""
    rng = np.random.default_rng(seed)
    pairs = []
    for _ in range(count):
        n = int(rng.integers(10, 300))
        ref = sorted(rng.choice(np.arange(1, n), size=int(rng.integers(1, 12)), replace=False).tolist())
        hyp = sorted(rng.choice(np.arange(1, n), size=int(rng.integers(0, 12)), replace=False).tolist())
        pairs.append((Segmentation(ref, n), Segmentation(hyp, n)))
    return pairs


PAIRS = _random_pairs(200, seed=13)


def test_the_default_window_is_lamprier_not_nltk_on_random_documents():
    """The docstrings say the default k is Lamprier's round(n / (2 (m + 1))), not nltk's
    round((n - 1) / (2 m)), and that they differ on most documents: nltk, run here, agrees."""
    differ = 0
    for ref, hyp in PAIRS:
        n, m = ref.n_units, ref.n_boundaries
        lamprier = min(max(round(n / (2 * (m + 1))), 1), n - 1)  # clamped into 1..n-1, as documented
        # our default equals nltk's Pk computed at Lamprier's window...
        assert pk(ref, hyp) == nltk_pk(ref.gaps, hyp.gaps, k=lamprier)
        assert windowdiff(ref, hyp) == nltk_windowdiff(ref.gaps, hyp.gaps, lamprier)
        # ...and k="nltk" equals nltk's own default (where nltk's rule gives a valid window: it
        # gives 0 on dense references), which is another window on most documents
        nltk_k = round((n - 1) / (2 * m))
        if nltk_k >= 1:
            assert pk(ref, hyp, k="nltk") == nltk_pk(ref.gaps, hyp.gaps)
        differ += lamprier != nltk_k
    assert differ > len(PAIRS) // 2, differ  # "on most documents" (164 of these 200)


def test_k_segeval_is_segevals_default_on_random_documents():
    for ref, hyp in PAIRS[:60]:
        assert pk(ref, hyp, k="segeval") == float(segeval.pk(hyp.masses, ref.masses))
        assert windowdiff(ref, hyp, k="segeval") == float(segeval.window_diff(hyp.masses, ref.masses))


def test_segevals_order_gives_another_number_when_ported_as_is():
    """Not detectable from positions (both are Segmentations), hence documented: segeval reads its
    default window from its second argument, these functions from their first."""
    ref, hyp = Segmentation.from_masses([2, 2, 2, 2, 2, 2]), Segmentation.from_masses([6, 6])
    expected = float(segeval.pk(hyp.masses, ref.masses))  # segeval: (hypothesis, reference), k from ref = 2
    # k = max(2, round(12 / 12)) = 2: windows 0..9, 8 of 10 disagree (units i, i+2 split by ref only)
    assert pk(ref, hyp, k="segeval") == expected == pytest.approx(8 / 10)
    # segeval's order in our function: the window comes from hyp, max(2, round(12 / 4)) = 3
    assert pk(hyp, ref, k="segeval") == pytest.approx(6 / 9) != expected


def _reference_first() -> list[str]:
    return [name for name in metrics.__all__ if inspect.isfunction(getattr(metrics, name))
            and list(inspect.signature(getattr(metrics, name)).parameters)[:2] == ["reference", "hypothesis"]]


FUNCTIONS = _reference_first()


def test_the_introspection_finds_the_asymmetric_metrics():
    assert {"pk", "windowdiff", "windowdiff_corrected", "nwin", "tnwin", "pr_error", "ghd", "boundary_prf",
            "boundary_similarity", "cov_n", "cov_d", "compute_all"} <= set(FUNCTIONS)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_docstring_states_the_order_next_to_segeval_or_nltk(name):
    doc = inspect.getdoc(getattr(metrics, name))
    words = doc.split("Parameters", 1)[1].split("\n\n", 1)[0] if "Parameters" in doc else doc
    assert "reference first" in words.lower() or "reference, hypothesis" in words, name
    assert any(peer in doc for peer in ("segeval", "nltk", "pyannote")), name


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize(("keyword", "says"), [
    ("hypothesis_segmentation", "segeval's first argument"),
    ("reference_segmentation", "segeval's second argument"),
    ("window_size", "here it is k="),
    ("boundary", "Segmentation.from_gaps"),
])
def test_segeval_and_nltk_keywords_are_refused_with_the_order(name, keyword, says):
    ref, hyp = Segmentation([3, 7], 9), Segmentation([2, 8], 9)
    with pytest.raises(InvalidTypeError, match=r"takes? \(reference, hypothesis\)") as caught:
        getattr(metrics, name)(ref, hyp, **{keyword: ref})
    assert says in str(caught.value) and "segeval takes (hypothesis, reference)" in str(caught.value)
    assert caught.value.parameter == keyword


def test_a_ported_segeval_call_by_keyword_is_refused():
    ref, hyp = Segmentation([3, 7], 9), Segmentation([2, 8], 9)
    with pytest.raises(InvalidTypeError, match="pk\\(\\) has no keyword 'hypothesis_segmentation'"):
        pk(hypothesis_segmentation=hyp, reference_segmentation=ref)
    assert pk(hypothesis=hyp, reference=ref) == pk(ref, hyp)  # our own keywords, in any order


def test_what_the_docstrings_say_about_swapping():
    """Symmetric metrics give the same value swapped; precision and recall trade places."""
    for ref, hyp in PAIRS[:50]:
        assert boundary_similarity(ref, hyp) == pytest.approx(boundary_similarity(hyp, ref))
        assert segmentation_similarity(ref, hyp) == pytest.approx(segmentation_similarity(hyp, ref))
        assert pk(ref, hyp, 3) == pk(hyp, ref, 3)
        forward, backward = boundary_prf(ref, hyp), boundary_prf(hyp, ref)
        assert (forward.precision, forward.recall) == (backward.recall, backward.precision)


@pytest.mark.parametrize(("args", "says"), [
    ([], "Window metrics (Pk, WindowDiff and their variants) at k = 2; chosen by lamprier (Lamprier et al. 2007, eq. 5, the default)."),
    (["--window", "nltk"], "Window metrics (Pk, WindowDiff and their variants) at k = 2; chosen by nltk (nltk's convention)."),
    (["--window", "3"], "Window metrics (Pk, WindowDiff and their variants) at k = 3, as given."),
])
def test_stability_score_says_which_window_convention(tmp_path, args, says):
    import json

    from typer.testing import CliRunner

    from stability.cli import app

    ref, hyp = tmp_path / "ref.jsonl", tmp_path / "hyp.jsonl"
    # masses [3, 4, 2]: n = 9, m = 2: Lamprier round(9 / 6) = 2, nltk round(8 / 4) = 2
    ref.write_text('{"id": "a", "masses": [3, 4, 2]}\n', encoding="utf-8")
    hyp.write_text('{"id": "a", "masses": [2, 6, 1]}\n', encoding="utf-8")
    runner = CliRunner(env={"COLUMNS": "200", "_TYPER_FORCE_DISABLE_TERMINAL": "1"})
    base = ["score", "-R", str(ref), "-H", str(hyp), "--width", "200", *args]
    table = runner.invoke(app, base)
    assert table.exit_code == 0, table.output
    assert says in table.stdout
    data = json.loads(runner.invoke(app, [*base, "--report-format", "json"]).stdout)
    assert data["window"] == ({"nltk": "nltk", "3": 3}.get(args[-1]) if args else "lamprier")
