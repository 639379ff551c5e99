"""Built-in segmenters for the stability harness.

Each module holds one family of segmenters. They depend on :mod:`stability`'s protocol
(:class:`stability.segmenter.Segmenter`), never the reverse; the harness finds them through the
``stability.segmenters`` entry-point group declared in ``pyproject.toml``, exactly as it finds
third-party plugins.

* ``none``, ``all``, ``even``, ``random``: :mod:`segmenters.baselines` (content-blind baselines);
* ``texttiling`` (numpy, nltk's boundaries) and ``texttiling_nltk`` (nltk's tokenizer itself):
  :mod:`segmenters.texttiling`;
* ``c99``: :mod:`segmenters.c99` (Choi 2000);
* ``u00``: :mod:`segmenters.u00` (Utiyama & Isahara 2001, TextSeg).

Shared text preprocessing (tokenization, lower-casing, the project's stopword list, Porter
stemming) is in :mod:`segmenters.preprocessing` and :mod:`segmenters.stopwords`. ``texttiling``,
``c99`` and ``u00`` offer the fast restart path (``prepare`` / ``segment_prepared``).
"""
