"""Built-in segmenters for the stability harness.

Each module holds one family of segmenters. They depend on :mod:`stability`'s protocol
(:class:`stability.segmenter.Segmenter`), never the reverse; the harness finds them through the
``stability.segmenters`` entry-point group declared in ``pyproject.toml``, exactly as it finds
third-party plugins.

=================  ==========================================  =================================
name               class                                       module
=================  ==========================================  =================================
``none``, ``all``  :class:`~segmenters.baselines.NoBoundaries`,  :mod:`segmenters.baselines`
                   :class:`~segmenters.baselines.AllBoundaries`
``even``           :class:`~segmenters.baselines.Even`           :mod:`segmenters.baselines`
``random``         :class:`~segmenters.baselines.RandomBoundaries` :mod:`segmenters.baselines`
``texttiling``     :class:`~segmenters.texttiling.TextTiling`    :mod:`segmenters.texttiling`
``texttiling_nltk`` :class:`~segmenters.texttiling.TextTilingNLTK` :mod:`segmenters.texttiling`
``c99``            :class:`~segmenters.c99.C99`                  :mod:`segmenters.c99`
``u00``            :class:`~segmenters.u00.U00`                  :mod:`segmenters.u00`
=================  ==========================================  =================================

Shared text preprocessing (tokenization, lower-casing, the project's stopword list, Porter
stemming) is in :mod:`segmenters.preprocessing` and :mod:`segmenters.stopwords`. ``texttiling``,
``c99`` and ``u00`` offer the fast restart path (``prepare`` / ``segment_prepared``).
"""
