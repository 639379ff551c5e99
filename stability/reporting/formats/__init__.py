"""Report formats: one module each, found by :func:`stability.reporting.formats_available`.

A format module declares

* ``NAME`` -- what users type (``--report-format NAME``, ``[output] formats``);
* ``EXTENSION`` -- the file extension of ``report.<EXTENSION>`` in an output directory;
* ``render(report, *, details=False, **options) -> str`` -- the text of a
  :class:`~stability.reporting.model.Report`; ``details`` asks for the per-item tables;

and optionally ``ALIASES`` (other names users type, ``markdown`` for ``md``), ``ORDER`` (its place in lists of formats), ``DETAILS`` (whether details are shown
by default), ``COMPACT`` (whether it wants the compact selection of columns), ``FIGURES``
(whether it draws figures) and ``DESCRIPTION`` (one line for ``--help``). Adding a format is
adding one module here; nothing else lists them.
"""
