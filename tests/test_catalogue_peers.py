"""Every reference metric of the catalogue against its peer's definition, on fuzzed inputs.

The catalogue's entries are computed as reports compute them (``measure.value(MetricContext)``, so
the wiring of each entry is checked too, not only the metric function) and compared with nltk
3.10 (Pk, WindowDiff, GHD) and segeval 2.0.11 (B, S, the numerator of Lamprier's corrected
WindowDiff) run inside the test, on segmentations Hypothesis draws (2 to 80 units, sparse and dense
boundary sets, any window k). ``../shared/specs/metrics-peers.md`` records how the peers encode their
inputs: nltk takes gap strings (reference first), segeval masses (hypothesis first). An entry
without a peer installed says why, so a new entry has to be placed in one list or the other.
"""

from __future__ import annotations

import sys

import segeval
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics.segmentation import ghd as nltk_ghd
from nltk.metrics.segmentation import pk as nltk_pk
from nltk.metrics.segmentation import windowdiff as nltk_windowdiff

from stability import Segmentation
from stability.catalogue import MULTI_REFERENCE, REFERENCE, MetricContext

assert sys.modules[nltk_pk.__module__].__name__ == "nltk.metrics.segmentation"


def _segeval_wd_corrected(ref: Segmentation, hyp: Segmentation, k: int) -> float:
    """Lamprier et al. (2007) eq. 4: segeval's ``lamprier_et_al_2007_fix`` counts the same windows
    (its numerator) but divides by ``n + k + 1`` where eq. 4 divides by ``n + k - 2``, the number
    of its windows (tests/test_metrics_windows.py shows both denominators)."""
    numerator, _ = segeval.window_diff(hyp.masses, ref.masses, window_size=k, lamprier_et_al_2007_fix=True,
                                       return_parts=True)
    return float(numerator) / (ref.n_units + k - 2)


#: catalogue name -> the peer's value for (reference, hypothesis, window k), with the catalogue's
#: default options (no tolerance, nltk's GHD costs 2, 2, 1, segeval's n_t = 2).
PEERS = {
    "pk": lambda ref, hyp, k: nltk_pk(ref.gaps, hyp.gaps, k),
    "windowdiff": lambda ref, hyp, k: nltk_windowdiff(ref.gaps, hyp.gaps, k),
    "windowdiff_corrected": _segeval_wd_corrected,
    "ghd": lambda ref, hyp, k: nltk_ghd(ref.gaps, hyp.gaps),
    "boundary_similarity": lambda ref, hyp, k: float(segeval.boundary_similarity(hyp.masses, ref.masses)),
    "segmentation_similarity": lambda ref, hyp, k: float(segeval.segmentation_similarity(hyp.masses, ref.masses)),
}

#: Entries no installed peer defines, with where they are checked instead.
NO_PEER = {
    "precision": "nltk has no boundary P/R; segeval's come from boundary edits (test_metrics_boundary: a "
                 "maximum matching found by augmenting paths)",
    "recall": "as precision",
    "f1": "as precision",
    "f1_1": "as precision, within one unit",
    "f1_corrected": "no peer has it (test_metrics_chance: every placement enumerated)",
    "f1_1_corrected": "as f1_corrected",
    "nwin": "Lamprier et al. 2007 only (test_metrics_windows: the paper's Figure 3)",
    "tnwin": "as nwin",
    "pr_error": "Georgescul et al. 2006 only (test_metrics_windows: the paper's values)",
    "cov_n": "Bouchekif et al. only",
    "cov_d": "as cov_n",
    "window_k": "a parameter, not a metric",
    "wisebe": "WiSeBE's paper only (test_metrics_multi)",
    "wisebe_f1": "as wisebe",
    "wisebe_precision": "as wisebe",
    "wisebe_recall": "as wisebe",
    "agreement_ratio": "as wisebe",
    "fleiss_kappa": "a property of the references (test_metrics_multi: by hand)",
    "fleiss_kappa_boundaries": "as fleiss_kappa",
    "mean_f1": "the mean of f1 over references",
    "n_references": "a count",
}


def test_every_reference_metric_has_a_peer_or_says_why_not():
    entries = set(REFERENCE) | set(MULTI_REFERENCE)
    assert set(PEERS) | set(NO_PEER) == entries, "place each catalogue entry in PEERS or NO_PEER"
    assert not set(PEERS) & set(NO_PEER)


@st.composite
def pairs(draw):
    n = draw(st.integers(2, 80))
    # sparse sets, and one flag per gap (about half the gaps: dense segmentations, every gap too)
    gaps = st.one_of(st.sets(st.integers(1, n - 1)).map(sorted),
                     st.lists(st.booleans(), min_size=n - 1, max_size=n - 1).map(
                         lambda flags: [g + 1 for g, flag in enumerate(flags) if flag]))
    ref, hyp = Segmentation(draw(gaps), n), Segmentation(draw(gaps), n)
    return ref, hyp, draw(st.integers(1, n - 1))


@settings(max_examples=400)
@given(pairs())
def test_catalogue_entries_equal_their_peers(case):
    ref, hyp, k = case
    context = MetricContext(ref, hyp, k=k)
    for name, peer in PEERS.items():
        if name in ("boundary_similarity", "segmentation_similarity") and ref.n_boundaries + hyp.n_boundaries == 0:
            continue  # segeval divides 0 by 0 there (test_metrics_boundary: ours is 1 by the zero rule)
        ours = REFERENCE[name].value(context)
        assert ours == peer(ref, hyp, k), (name, ref.gaps, hyp.gaps, k)
