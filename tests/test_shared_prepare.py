"""Prepared state shared across configurations (issue 15, "share work across configurations").

Configurations of one segmenter class that agree on the parameters their ``prepare`` reads
(``prepare_params``) are prepared once per document when the engine runs them together; results
must be those of unshared runs, bit for bit.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import _word, topical_document
from segmenters.c99 import C99
from segmenters.embedding import Embedding, LSAEncoder
from segmenters.u00 import U00
from stability import evaluate
from stability.exceptions import InvalidParameterError
from stability.segmenter import Segmenter, prepare_key


class CountingC99(C99):
    """C99 counting the engine's ``prepare`` calls (the plain call prepares without counting)."""

    calls: list[tuple[str, ...]] = []

    def prepare(self, units):
        CountingC99.calls.append(tuple(units))
        return super().prepare(units)

    def segment(self, units):
        return self.segment_prepared(C99.prepare(self, units), np.arange(len(units)))


def _unshared(segmenter):
    """The same configuration with its ``prepare_params`` declaration hidden (never shared)."""
    segmenter.prepare_params = None
    return segmenter


#: Half of every topic's vocabulary (conftest.topical_document), as stopwords: a configuration
#: with these has another similarity matrix, so it must not share the others' state.
STOPWORDS = [_word(topic, i) for topic in range(40) for i in range(12)]


def _configurations(make_c99=C99):
    return {
        "c99_m11": make_c99(),
        "c99_m5": make_c99(mask_size=5),
        "c99_c0.5": make_c99(std_coeff=0.5),
        "c99_known": make_c99(n_segments=4),
        "c99_stop": make_c99(stopwords=STOPWORDS),  # another prepare key
        "u00": U00(),
        "u00_known": U00(n_segments=4),
        "emb_c99": Embedding(embed=LSAEncoder(n_components=4)),
        "emb_depth": Embedding(method="depth", embed=LSAEncoder(n_components=4)),  # equal encoder: shared
        "even": "even",
    }


DOCS = [{"id": f"d{seed}", "units": topical_document(seed)[0]} for seed in range(3)]
RUN = dict(n_restarts=8, seed=5, shuffle_control=True, progress=False)


def _records(out):
    assert not out.failures
    return [json.dumps(r.to_dict(), sort_keys=True) for results in out.documents.values() for r in results]


def test_prepare_key_reads_the_declared_parameters_only():
    assert prepare_key(C99()) == prepare_key(C99(mask_size=5, std_coeff=2.5, n_segments=3))
    assert prepare_key(C99()) != prepare_key(C99(stem=False))
    assert prepare_key(C99(stopwords=["a", "b"])) == prepare_key(C99(stopwords=("a", "b")))  # lists made hashable
    assert prepare_key(U00()) == prepare_key(U00(n_segments=4, max_segment_length=30))
    assert prepare_key(C99()) != prepare_key(U00())  # never across classes
    assert prepare_key(Embedding(method="depth")) == prepare_key(Embedding(mask_size=5))  # equal LSAEncoders
    assert prepare_key(Embedding()) != prepare_key(Embedding(embed=LSAEncoder(n_components=3)))
    assert prepare_key(Embedding(embed=lambda texts: [[1.0]] * len(texts))) is not None  # hashable: by identity
    assert prepare_key(CountingC99()) != prepare_key(C99())  # nor with a subclass
    assert prepare_key(_unshared(C99())) is None
    assert prepare_key(lambda units: []) is None  # no fast path


def test_a_declaration_naming_no_parameter_is_refused():
    class Wrong(Segmenter):
        prepare_params = ("size", "colour")

        def __init__(self, size=1):
            self.size = size

        def prepare(self, units):
            return len(units)

        def segment_prepared(self, state, order):
            return []

    with pytest.raises(InvalidParameterError, match=r"Wrong.prepare_params must be .*\['colour'\]"):
        prepare_key(Wrong())


def test_shared_and_unshared_runs_are_identical():
    shared = evaluate(_configurations(), DOCS, n_jobs=1, **RUN)
    unshared = {label: _unshared(s) if not isinstance(s, str) else s for label, s in _configurations().items()}
    assert _records(shared) == _records(evaluate(unshared, DOCS, n_jobs=1, **RUN))


def test_shared_runs_are_identical_in_worker_processes():
    one = evaluate(_configurations(), DOCS[:2], n_jobs=1, **RUN)
    assert _records(one) == _records(evaluate(_configurations(), DOCS[:2], n_jobs=2, **RUN))


def test_prepare_is_called_once_per_document_and_key():
    CountingC99.calls.clear()
    evaluate(_configurations(CountingC99), DOCS, n_jobs=1, **RUN)
    # 5 CountingC99 configurations, 2 prepare keys (default and other stopwords), 2 streams: shared,
    # one call per (document, key), whatever the number of configurations and streams
    assert len(CountingC99.calls) == len(DOCS) * 2
    assert sorted(set(CountingC99.calls)) == sorted(tuple(d["units"]) for d in DOCS)
    CountingC99.calls.clear()
    unshared = {label: _unshared(s) for label, s in _configurations(CountingC99).items() if label.startswith("c99")}
    evaluate(unshared, DOCS, n_jobs=1, **RUN)
    assert len(CountingC99.calls) == len(DOCS) * 5  # one per (document, configuration): its streams share


def test_each_chunk_of_a_shared_task_is_announced_in_process():
    """In-process, the engine tells ``on_call`` which pair, stream and restarts run next (the
    store's crash marker); a task of shared chunks announces each chunk before running it."""
    from stability.corpus import Document
    from stability.engine import Engine, Pair, Progress
    from stability.permutations import doc_key
    from stability.settings import Settings

    doc = Document("d", tuple(DOCS[0]["units"]))
    pairs = [Pair(label, C99(mask_size=m), doc, doc_key("d")) for label, m in (("m11", 11), ("m5", 5))]
    calls = []
    engine = Engine(Settings(n_restarts=4, shuffle_control=True, n_jobs=1), Progress(False),
                    on_call=lambda *call: calls.append(call))
    engine.run(pairs)
    every = range(0, 4)
    assert calls == [(0, None, None), (1, None, None), (0, "within", every), (0, "shuffle", every),
                     (1, "within", every), (1, "shuffle", every)]
