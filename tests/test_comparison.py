"""stability.comparison: the headline times agreement with the other segmenters of a run
(Amendment 6 of docs/validation-protocol.md), and how reports show it."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stability import evaluate, get_segmenter
from stability.comparison import (COMPARISON_BRIEF, COMPARISON_NOTE, MIN_OTHER_VOTERS, STABILITY_X_AGREEMENT, boundary_agreement,
                                  is_voter, stability_x_agreement)
from stability.catalogue import HEADLINE
from stability.matching import count_matches
from stability.reporting import render
from test_reporting import topical_corpus


@pytest.fixture(scope="module")
def run():
    segmenters = {"c99": "c99", "u00": "u00", "tt": get_segmenter("texttiling", w=10, k=5),
                  "known": get_segmenter("c99", n_segments="reference"), "even": "even", "none": "none"}
    return evaluate(segmenters, topical_corpus(500, 4, n_topics=5), n_restarts=6, progress=False)


@pytest.mark.parametrize("first, second, expected", [
    ((3, 7), (3, 7), 1.0),
    ((3, 7), (4, 9), 0.5),      # 3-4 within one unit; 7 and 9 are two apart: 2 * 1 / 4
    ((1, 2), (2, 3), 1.0),      # matched one to one: 1-2, 2-3
    ((2, 4, 6), (3,), 0.5),     # 3 matches one of the three: 2 * 1 / 4
    ((5,), (), 0.0),
    ((), (), 0.0),              # nothing on either side: no credit
])
def test_boundary_agreement_by_hand(first, second, expected):
    assert boundary_agreement(first, second) == pytest.approx(expected)


@given(st.lists(st.integers(1, 40), unique=True, max_size=12), st.lists(st.integers(1, 40), unique=True, max_size=12))
def test_boundary_agreement_is_a_symmetric_f1(first, second):
    first, second = sorted(first), sorted(second)
    value = boundary_agreement(first, second)
    assert value == pytest.approx(boundary_agreement(second, first))
    assert 0.0 <= value <= 1.0
    if first:
        assert boundary_agreement(first, first) == 1.0
    assert value == pytest.approx(0.0 if not first + second else
                                  2 * count_matches(first, second, 1) / (len(first) + len(second)))


def test_the_score_follows_its_definition(run):
    documents = run.documents
    headline = {label: float(np.mean([HEADLINE.value(r) for r in docs])) for label, docs in documents.items()}
    voters = {label: max(t, 0.0) for label, t in headline.items() if label != "known"}
    assert {label for label, docs in documents.items() if is_voter(docs)} == set(voters)
    values = stability_x_agreement(documents)
    for label, docs in documents.items():
        per_document = []
        for i, r in enumerate(docs):
            others = {v: w for v, w in voters.items() if v != label and w > 0}
            if not r.segmentation.boundaries:
                per_document.append(0.0)
                continue
            total = sum(w * boundary_agreement(r.segmentation.boundaries,
                                               documents[v][i].segmentation.boundaries) for v, w in others.items())
            per_document.append(total / sum(others.values()))
        assert values[label] == pytest.approx(max(headline[label], 0.0) * np.mean(per_document), abs=1e-12)
    assert values["even"] == values["none"] == 0.0  # content-blind: no headline, no score
    assert all(0.0 <= v <= max(headline[k], 0.0) for k, v in values.items())


def test_a_segmenter_told_the_reference_count_gets_a_score_but_no_vote(run):
    values = stability_x_agreement(run.documents)
    assert values["known"] is not None and values["known"] > 0
    without = stability_x_agreement({k: v for k, v in run.documents.items() if k != "known"})
    assert all(without[k] == pytest.approx(values[k], abs=1e-15) for k in without)


def test_a_segmenter_without_a_boundary_scores_zero(run):
    # `none` has two voters of positive headline besides itself, and no boundary anywhere
    values = stability_x_agreement({k: run.documents[k] for k in ("c99", "u00", "tt", "none")})
    assert values["none"] == 0.0 and values["c99"] > 0


def test_too_few_other_segmenters_give_no_score(run):
    pair = {k: run.documents[k] for k in ("c99", "u00", "none")}
    assert MIN_OTHER_VOTERS == 2
    # c99 and u00 each have one other voter of positive headline; none has two (and scores 0)
    assert stability_x_agreement(pair) == {"c99": None, "u00": None, "none": 0.0}
    three = {k: run.documents[k] for k in ("c99", "u00", "tt")}
    assert all(v is not None for v in stability_x_agreement(three).values())


def test_reports_show_the_score_when_segmenters_are_compared(run):
    values = run.comparison()
    table = render(run, "table", width=160)
    # the terminal's compact table gives the note in brief; the other formats in full
    assert STABILITY_X_AGREEMENT.short in table and COMPARISON_BRIEF.split(":")[0] in " ".join(table.split())
    assert COMPARISON_NOTE[:120] not in " ".join(table.split()) and COMPARISON_NOTE in render(run, "md")
    payload = json.loads(render(run, "json"))
    assert payload["comparison"]["score"] == STABILITY_X_AGREEMENT.name
    assert payload["comparison"]["summary"] == pytest.approx(values)
    rows = list(csv.DictReader(io.StringIO(render(run, "csv"))))
    by_label = {row["segmenter"]: row[STABILITY_X_AGREEMENT.name] for row in rows if row.get("segmenter") in values}
    assert {k: float(v) for k, v in by_label.items()} == pytest.approx(values)
    assert STABILITY_X_AGREEMENT.short in render(run, "md")


def test_reports_leave_the_score_out_for_a_single_segmenter():
    single = evaluate({"c99": "c99", "none": "none"}, topical_corpus(520, 2, n_topics=5), n_restarts=3, progress=False)
    assert all(v is None for v in single.comparison().values())
    for fmt in ("table", "md", "csv", "html"):
        assert STABILITY_X_AGREEMENT.short not in render(single, fmt) and STABILITY_X_AGREEMENT.name not in render(single, fmt)
    assert json.loads(render(single, "json"))["comparison"]["summary"] == {"c99": None, "none": None}


def test_the_headlines_can_be_given(run):
    documents = run.documents
    default = {label: float(np.mean([HEADLINE.value(r) for r in docs])) for label, docs in documents.items()}
    assert stability_x_agreement(documents, default) == stability_x_agreement(documents)
    # a voter with no positive headline loses its vote: the others' scores change, its own is 0
    silenced = {**default, "u00": 0.0}
    changed = stability_x_agreement(documents, silenced)
    assert changed["u00"] == 0.0 and changed["c99"] != stability_x_agreement(documents)["c99"]


def _loop_score(boundaries, headlines, voters):
    """The definition, written as loops: ``boundaries[label][doc]`` (a missing key: no result)."""
    weights = {v: max(headlines[v], 0.0) for v in voters}
    out = {}
    for label, own_docs in boundaries.items():
        others = sum(1 for v, w in weights.items() if v != label and w > 0)
        if others < MIN_OTHER_VOTERS:
            out[label] = None
            continue
        values = []
        for doc, own in own_docs.items():
            pairs = [(w, boundary_agreement(own, boundaries[v][doc])) for v, w in weights.items()
                     if v != label and w > 0 and doc in boundaries[v]]
            total = sum(w for w, _ in pairs)
            values.append(sum(w * f for w, f in pairs) / total if own and total > 0 else 0.0)
        out[label] = max(headlines[label], 0.0) * float(np.mean(values))
    return out


@given(st.data())
def test_the_vectorised_score_is_the_definition(data):
    from types import SimpleNamespace

    n_seg = data.draw(st.integers(2, 5))
    n_docs = data.draw(st.integers(1, 4))
    labels = [f"s{i}" for i in range(n_seg)]
    boundaries, documents = {}, {}
    for i, label in enumerate(labels):
        docs = data.draw(st.lists(st.sampled_from(range(n_docs)), min_size=1, max_size=n_docs, unique=True))
        boundaries[label] = {f"d{d}": tuple(sorted(data.draw(st.sets(st.integers(1, 12), max_size=5)))) for d in docs}
        known = data.draw(st.booleans()) if i else False
        documents[label] = [SimpleNamespace(document=doc, segmentation=SimpleNamespace(boundaries=b), term_blind=None,
                                            params={"n_segments": "reference"} if known else {})
                            for doc, b in boundaries[label].items()]
    headlines = {label: data.draw(st.floats(-0.5, 1.0)) for label in labels}
    voters = [label for label in labels if is_voter(documents[label])]
    fast = stability_x_agreement(documents, headlines)
    slow = _loop_score(boundaries, headlines, voters)
    assert fast.keys() == slow.keys()
    for label in labels:
        assert (fast[label] is None) == (slow[label] is None), label
        if slow[label] is not None:
            assert fast[label] == pytest.approx(slow[label], abs=1e-12), label


def test_a_tiny_voter_beside_a_large_one_still_counts():
    """The weighted mean's divisor was the total weight less the segmenter's own: on a document where
    the only other voter present weighs 1.18e-38 beside the segmenter's 1.0, the subtraction gave 0
    and the document 0.0. By the definition (hand computation): "a" and "b" both put a boundary
    after unit 3 of d0, "c" (a third voter, needed for MIN_OTHER_VOTERS) has no result on d0. For
    "a", d0's mean agreement is b's alone, 1.0, so a's score is its headline 1.0 times 1.0. For "b",
    only "a" is present: 1.18e-38 times 1.0. Found by Hypothesis on Python 3.10."""
    from types import SimpleNamespace

    def docs(name, boundaries):
        return [SimpleNamespace(document=name, segmentation=SimpleNamespace(boundaries=boundaries), params={},
                                term_blind=None)]

    documents = {"a": docs("d0", (3,)), "b": docs("d0", (3,)), "c": docs("d1", (5,))}
    values = stability_x_agreement(documents, {"a": 1.0, "b": 1.18e-38, "c": 0.5})
    assert values["a"] == pytest.approx(1.0, rel=1e-12)
    assert values["b"] == pytest.approx(1.18e-38, rel=1e-12)
    assert values["c"] == 0.0   # nobody else on d1


@pytest.mark.filterwarnings("ignore:.*by the units' lengths:stability.SettingsWarning")  # run without the layout control on purpose
def test_a_layout_only_segmenter_gets_no_vote_and_no_score():
    """Text chunkers flagged layout-only by the layout control have a high headline for a reason
    that has nothing to do with topics; as voters they outweighed the topic segmenters and the
    consensus became the chunkers' (on the Node.js docs six chunkers gave every chunker a higher
    score than u00 and c99). They lose their vote, and get no score (their headline would carry it)."""
    docs = topical_corpus(540, 3, n_topics=5)
    segmenters = {"c99": "c99", "u00": "u00", "tt": get_segmenter("texttiling", w=10, k=5),
                  "chars": get_segmenter("fixed_chars", chunk_size=120),
                  "chars2": get_segmenter("fixed_chars", chunk_size=160)}
    both = evaluate(segmenters, docs, n_restarts=4, layout_control=True, progress=False)
    assert {label for label, s in both.summary.items() if s.layout_only} == {"chars", "chars2"}
    assert not is_voter(both.documents["chars"]) and is_voter(both.documents["c99"])
    values = stability_x_agreement(both.documents)
    topics = stability_x_agreement({k: both.documents[k] for k in ("c99", "u00", "tt")})
    assert all(values[k] == pytest.approx(topics[k], abs=1e-15) for k in topics)
    assert values["chars"] is None and values["chars2"] is None
    # without the layout control nothing marks them: they vote, as any segmenter
    plain = evaluate(segmenters, docs, n_restarts=4, progress=False)
    assert is_voter(plain.documents["chars"]) and stability_x_agreement(plain.documents)["chars"] is not None


@given(st.data())
def test_the_score_does_not_depend_on_the_order_of_the_segmenters(data):
    """`stability run -s a -s b -s c` and `-s c -s b -s a` printed ×agreement values differing in
    the last bits (the JSON report showed 0.06303712221854409 and 0.0630371222185441 for TextTiling
    on the demo corpus): the weighted sums over the voters, and over the documents, were taken in
    the order the segmenters were given. The same run in any order gives the same bits."""
    from types import SimpleNamespace

    n_seg = data.draw(st.integers(3, 6))
    labels = [f"s{i}" for i in range(n_seg)]
    documents, headlines = {}, {}
    for label in labels:
        docs = data.draw(st.lists(st.sampled_from(range(4)), min_size=1, max_size=4, unique=True))
        documents[label] = [SimpleNamespace(document=f"d{d}", params={}, term_blind=None, segmentation=SimpleNamespace(
            boundaries=tuple(sorted(data.draw(st.sets(st.integers(1, 12), min_size=1, max_size=5))))))
            for d in sorted(docs)]
        headlines[label] = data.draw(st.floats(0.01, 1.0))
    order = data.draw(st.permutations(labels))
    given_order = stability_x_agreement(documents, headlines)
    other_order = stability_x_agreement({label: documents[label] for label in order}, headlines)
    assert list(other_order) == order  # still in the order given
    assert {label: other_order[label] for label in labels} == given_order  # bit for bit
