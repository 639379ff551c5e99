"""Built-in segmenters for the stability harness.

Each module holds one family of segmenters. They depend on :mod:`stability`'s protocol
(:class:`stability.segmenter.Segmenter`), never the reverse; the harness finds them through the
``stability.segmenters`` entry-point group declared in ``pyproject.toml``.
"""
