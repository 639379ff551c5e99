"""The benchmark and reproduction scripts (``python -m benchmarks`` runs those with a target).

A regular package, not a namespace one: pysbd (the ``sbd`` extra, which ``dev`` installs) ships
a top-level package named ``benchmarks`` of its own, and a regular package found anywhere on
``sys.path`` wins over a folder without ``__init__.py``, so ``python -m benchmarks`` and the
scripts' ``from benchmarks...`` imports reached pysbd's instead.
"""
