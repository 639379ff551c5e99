"""Reports of a run: terminal table, Markdown, CSV, JSON and a self-contained HTML page.

Every format is rendered from one :class:`~stability.results.CorpusResult`; the JSON report is
complete (every per-document result, summaries, correlations, failures) and is the source the
others can be rebuilt from (``stability report results.json --format md``).

Layout follows Lamprier et al. (2007), Tables 1-3: one row per segmenter, each score as
"mean (std)" over documents; reference metrics sit beside the stability scores when the
documents have references. The first stability column is the headline score (:data:`HEADLINE`),
chosen by the validation study (``docs/validation.md``): the raw F1 of the paper rewards
segmenters that ignore the content, so it is not the headline.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
from collections.abc import Iterable, Sequence
from typing import Any


from .exceptions import InvalidParameterError
from .results import CorpusResult, Stat, StabilityResult
from .plots import svg_scatter
from .catalogue import HEADLINE as CATALOGUE_HEADLINE
from .catalogue import MULTI_REFERENCE, REFERENCE, STABILITY

__all__ = [
    "FORMATS",
    "HEADLINE",
    "HEADLINE_NOTE",
    "headline_stat",
    "STABILITY_COLUMNS",
    "REFERENCE_COLUMNS",
    "summary_rows",
    "document_rows",
    "render",
    "to_table",
    "to_markdown",
    "to_csv",
    "to_json",
    "to_html",
]

FORMATS = ("table", "md", "csv", "json", "html")

#: (score key, column title) of the headline stability score, the first stability column
#: (:data:`stability.catalogue.HEADLINE`).
HEADLINE = (CATALOGUE_HEADLINE.name, CATALOGUE_HEADLINE.title)

#: Why that score is the headline, printed in every report.
HEADLINE_NOTE = (
    "Headline: stability (shuffle-corrected) = (F1 - shuffle F1) / (1 - shuffle F1): the stability F1 "
    "corrected by the shuffle control, 0 for segmenters that ignore the content. In the validation study on "
    "Choi's 3-11 set (docs/validation.md) it ranked segmenters closest to the reference metrics, while the raw "
    "F1 ranked content-blind segmenters (no, all, evenly spaced or random boundaries: F1 = 1) first. Per "
    "document it is unbounded below when the shuffle control is almost perfectly stable: read it with the gap."
)

#: (key in SegmenterSummary.macro, column title) of the stability part, in report order (the
#: catalogue's reported stability scores after the headline).
STABILITY_COLUMNS = tuple((m.name, m.short) for m in STABILITY.values() if m.report and m is not CATALOGUE_HEADLINE)

#: (reference metric key, column title); shown when present.
REFERENCE_COLUMNS = tuple((m.name, m.short) for table in (REFERENCE, MULTI_REFERENCE)
                          for m in table.values() if m.report)


def _num(x: Any, digits: int = 3) -> str:
    if x is None:
        return "n/a"
    x = float(x)
    return "n/a" if math.isnan(x) else f"{x:.{digits}f}"


def _mean_std(stat: Stat | None, digits: int = 2) -> str:
    if stat is None or stat.n == 0:
        return "n/a"
    return f"{_num(stat.mean, digits)} ({_num(stat.std, digits)})"


def _flags(content_blind: bool | None, deterministic: bool | None, failed: int = 0) -> str:
    flags = []
    if content_blind:
        flags.append("content-blind")
    if deterministic is False:
        flags.append("non-deterministic")
    if failed:
        flags.append(f"{failed} failed")
    return ", ".join(flags)


def _params(params: dict[str, Any]) -> str:
    shown = {k: v for k, v in params.items() if not isinstance(v, (list, tuple, set, frozenset, dict))}
    return ", ".join(f"{k}={v}" for k, v in shown.items())


#: The narrower selection used by the terminal table (the catalogue's ``compact`` measures).
COMPACT_STABILITY = tuple(m.name for m in STABILITY.values() if m.compact)
COMPACT_REFERENCE = tuple(m.name for table in (REFERENCE, MULTI_REFERENCE) for m in table.values() if m.compact)


def _reference_keys(result: CorpusResult, compact: bool = False) -> list[tuple[str, str]]:
    present = {k for s in result.summary.values() for k in s.reference}
    return [(k, title) for k, title in REFERENCE_COLUMNS if k in present and (not compact or k in COMPACT_REFERENCE)]


def headline_stat(result: CorpusResult, label: str) -> Stat:
    """Mean, std and bootstrap interval over documents of the headline score of one segmenter
    (documents run without the shuffle control are left out)."""
    return result.summary[label].macro[HEADLINE[0]]


def summary_rows(result: CorpusResult, digits: int = 2, compact: bool = False) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the per-segmenter summary, every score as "mean (std)"; the headline
    score (:data:`HEADLINE`) is the first stability column."""
    ref_keys = _reference_keys(result, compact)
    columns = [(k, t) for k, t in STABILITY_COLUMNS if not compact or k in COMPACT_STABILITY]
    header = ["segmenter", "docs", HEADLINE[1]] + [t for _, t in columns] + ["F1 95% CI", "flags"]
    header += [t for _, t in ref_keys]
    rows = []
    for label, s in result.summary.items():
        f1 = s.macro.get("f1")
        ci = f"[{_num(f1.ci[0], digits)}, {_num(f1.ci[1], digits)}]" if f1 and f1.n else "n/a"
        row = [label, str(s.n_documents), _mean_std(headline_stat(result, label), digits)]
        row += [_mean_std(s.macro.get(k), STABILITY[k].digits or digits) for k, _ in columns]
        row += [ci, _flags(s.content_blind, s.deterministic, s.n_failed)]
        row += [_mean_std(s.reference.get(k), digits) for k, _ in ref_keys]
        rows.append(row)
    return header, rows


def _boundary_list(r: StabilityResult) -> str:
    return " ".join(f"{b}:{_num(c, 2)}" for b, c in r.boundary_confidence.items())


def document_rows(result: CorpusResult, digits: int = 3) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the per-document table, with each boundary and its confidence."""
    ref_keys = _reference_keys(result)
    header = ["segmenter", "document", "units", "bounds", "STP", "STR", "F1", "F1 low", "F1 high",
              "chance", "corrected", "shuffle F1", "flags"] + [t for _, t in ref_keys] + ["boundary:confidence"]
    rows = []
    for label, docs in result.documents.items():
        for r in docs:
            row = [label, str(r.document), str(r.segmentation.n_units), str(r.n_boundaries),
                   _num(r.precision, digits), _num(r.recall, digits), _num(r.f1, digits),
                   _num(r.f1_ci[0], digits), _num(r.f1_ci[1], digits), _num(r.chance_f1, digits),
                   _num(r.corrected_f1, digits), _num(r.shuffle_f1, digits),
                   _flags(r.content_blind, r.deterministic)]
            row += [_num(r.reference_metrics.get(k), digits) for k, _ in ref_keys]
            row.append(_boundary_list(r))
            rows.append(row)
    return header, rows


def _correlation_rows(result: CorpusResult, compact: bool = False) -> tuple[list[str], list[list[str]]]:
    corr = result.correlations()
    if not corr:
        return [], []
    ref_keys = _reference_keys(result, compact)
    header = ["stability score", "over"] + [t for _, t in ref_keys]
    rows = []
    for over in ("segmenters", "documents"):
        for score, taus in corr.get(over, {}).items():
            rows.append([score, over] + [_num(taus.get(k), 2) for k, _ in ref_keys])
    return header, rows


# ---------------------------------------------------------------------------------------------
def to_table(result: CorpusResult, *, documents: bool = False, width: int | None = None) -> str:
    """The summary (and optionally per-document) table as rich renders it for a terminal."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(record=True, width=width or 160, file=io.StringIO(), force_terminal=False, color_system=None)
    for number, (title, (header, rows)) in enumerate(_sections(result, documents, compact=True)):
        table = Table(title=title, show_lines=False, title_justify="left")
        for i, name in enumerate(header):
            headline = name == HEADLINE[1]
            table.add_column("stab.\n(shuf.-\ncorr.)" if headline else name,  # narrow: see the title and note
                             justify="left" if i < 2 or name == "flags" else "right",
                             no_wrap=i == 0 or name in ("flags", "F1 95% CI"))
        for row in rows:
            table.add_row(*map(escape, row))  # labels, ids and errors are text, not markup
        console.print(table)
        if number == 0:
            console.print(HEADLINE_NOTE)
    return console.export_text()


def _sections(result: CorpusResult, documents: bool, compact: bool = False) -> list[tuple[str, tuple[list[str], list[list[str]]]]]:
    n_docs = result.settings.get("n_documents", max((s.n_documents for s in result.summary.values()), default=0))
    restarts = result.settings.get("n_restarts", "?")
    sections = [(f"Stability test: {n_docs} document{'' if n_docs == 1 else 's'}, {restarts} restarts, seed {result.settings.get('seed', '?')} "
                 f"- mean (std) over documents - headline: {HEADLINE[1]}", summary_rows(result, compact=compact))]
    corr = _correlation_rows(result, compact)
    if corr[0]:
        sections.append(("Kendall tau between stability and reference metrics (positive = agreement)", corr))
    if documents:
        sections.append(("Per document", document_rows(result)))
    if result.failures:
        sections.append(("Failures", (["segmenter", "document", "restart", "error"],
                                      [[f.segmenter, f.document, str(f.restart), f.error] for f in result.failures])))
    return sections


def md_cell(text: str) -> str:
    """A table cell: pipes escaped, and raw HTML shown as text (``&``, ``<``, ``>`` as entities)."""
    return html.escape(text, quote=False).replace("|", "\\|")


def to_markdown(result: CorpusResult, *, documents: bool = True) -> str:
    """GitHub-flavoured Markdown tables."""
    out = []
    for number, (title, (header, rows)) in enumerate(_sections(result, documents)):
        out.append(f"### {title}\n")
        out.append("| " + " | ".join(md_cell(h) for h in header) + " |")
        out.append("|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|")
        for row in rows:
            out.append("| " + " | ".join(md_cell(c) for c in row) + " |")
        out.append("")
        if number == 0:
            out.append(f"*{HEADLINE_NOTE}*")
            out.append("")
    return "\n".join(out)


def csv_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet will not run: text starting with ``=``, ``+``, ``-``, ``@``,
    a tab or a carriage return (a formula) gets a leading ``'``; numbers are kept.

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-0.25"), csv_cell("c99")
    ("'=HYPERLINK(1)", '-0.25', 'c99')
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        try:
            float(value)
        except ValueError:
            return "'" + value
    return value


class _SafeWriter:
    """``csv.writer`` whose every cell goes through :func:`csv_cell`."""

    def __init__(self, buffer: io.StringIO) -> None:
        self._writer = csv.writer(buffer, lineterminator="\n")

    def writerow(self, row: Sequence[Any]) -> None:
        self._writer.writerow([csv_cell(c) for c in row])

    def writerows(self, rows: Iterable[Sequence[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(buffer: io.StringIO) -> _SafeWriter:
    """The CSV writer of every CSV output (cells neutralised by :func:`csv_cell`)."""
    return _SafeWriter(buffer)


def to_csv(result: CorpusResult, *, documents: bool = False) -> str:
    """CSV of the summary with raw numbers (mean, std, CI bounds per score), or per document."""
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    if documents:
        header, rows = document_rows(result, digits=6)
        writer.writerow(header)
        writer.writerows(rows)
        return buffer.getvalue()
    score_keys = [k for k, _ in STABILITY_COLUMNS]
    ref_keys = [k for k, _ in _reference_keys(result)]
    header = ["segmenter", "params", "n_documents", "n_failed", "content_blind", "deterministic"]
    header += [f"{HEADLINE[0]}_mean", f"{HEADLINE[0]}_std", f"{HEADLINE[0]}_ci_low", f"{HEADLINE[0]}_ci_high"]
    for key in score_keys + ["self_agreement_f1"]:
        header += [f"{key}_mean", f"{key}_std", f"{key}_ci_low", f"{key}_ci_high"]
    header += ["micro_precision", "micro_recall", "micro_f1"]
    for key in ref_keys:
        header += [f"ref_{key}_mean", f"ref_{key}_std"]
    writer.writerow(header)
    for label, s in result.summary.items():
        row: list[Any] = [label, json.dumps(_jsonable(s.params), sort_keys=True), s.n_documents, s.n_failed,
                          s.content_blind, s.deterministic]
        headline = headline_stat(result, label)
        row += [_raw(headline.mean), _raw(headline.std), _raw(headline.ci[0]), _raw(headline.ci[1])]
        for key in score_keys + ["self_agreement_f1"]:
            st = s.macro[key]
            row += [_raw(st.mean), _raw(st.std), _raw(st.ci[0]), _raw(st.ci[1])]
        row += [_raw(s.micro["precision"]), _raw(s.micro["recall"]), _raw(s.micro["f1"])]
        for key in ref_keys:
            st = s.reference.get(key)
            row += [_raw(st.mean), _raw(st.std)] if st else ["", ""]
        writer.writerow(row)
    return buffer.getvalue()


def _raw(x: float) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else repr(float(x))


def _jsonable(value: Any) -> Any:
    from .results import _jsonable as convert

    return convert(value)


def to_json(result: CorpusResult) -> str:
    """The complete run as JSON: settings, summaries, correlations, every document, failures."""
    data = result.to_dict()
    data["headline"] = {"score": HEADLINE[0], "title": HEADLINE[1], "note": HEADLINE_NOTE,
                        "summary": {label: headline_stat(result, label).to_dict() for label in result.summary}}
    data["correlations"] = _clean(result.correlations())
    data["report_version"] = 1
    return json.dumps(_clean(data), indent=1, sort_keys=False, allow_nan=False)


def _clean(value: Any) -> Any:
    """JSON-safe: non-finite floats (NaN, and infinities read from a damaged file) become null."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# ---------------------------------------------------------------------------------------------
# HTML with inline SVG plots (no plotting dependency)
# ---------------------------------------------------------------------------------------------
def _scatter(points: list[tuple[float, float, str, str]], x_label: str, y_label: str, title: str) -> str:
    """An inline scatter plot with a tooltip per point ("" when no point is defined)."""
    if not any(not (math.isnan(x) or math.isnan(y)) for x, y, _, _ in points):
        return ""
    return svg_scatter(points, title=title, x_label=x_label, y_label=y_label, tooltips=True,
                       width=420, height=300, css_class="plot scatter")


def _svg_strip(r: StabilityResult, reference: Sequence[int] | None) -> str:
    """One document: the initial boundaries as bars whose height is their confidence, spurious
    restart boundaries in grey, reference boundaries as red ticks below the axis."""
    n = r.segmentation.n_units
    w, h, m = 640, 70, 10
    scale = (w - 2 * m) / max(n, 1)
    parts = [f'<svg class="plot strip" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img">',
             f'<title>{html.escape(str(r.document))}: boundary confidence</title>',
             f'<line x1="{m}" y1="{h - 20}" x2="{w - m}" y2="{h - 20}" stroke="#999"/>']
    top = 8
    span = h - 20 - top
    for pos, freq in r.spurious_boundaries.items():
        x = m + pos * scale
        parts.append(f'<rect x="{x - 1:.1f}" y="{h - 20 - span * freq:.1f}" width="2" height="{span * freq:.1f}" fill="#bbb">'
                     f'<title>spurious {pos}: {freq:.2f}</title></rect>')
    for b, conf in r.boundary_confidence.items():
        x = m + b * scale
        c = 0.0 if math.isnan(conf) else conf
        parts.append(f'<rect x="{x - 2:.1f}" y="{h - 20 - span * c:.1f}" width="4" height="{max(span * c, 1):.1f}" fill="#1f77b4">'
                     f'<title>boundary {b}: confidence {c:.2f}</title></rect>')
    for b in reference or ():
        x = m + b * scale
        parts.append(f'<line x1="{x:.1f}" y1="{h - 18}" x2="{x:.1f}" y2="{h - 6}" stroke="#d62728" stroke-width="2">'
                     f'<title>reference {b}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def _html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def to_html(result: CorpusResult, *, max_strips: int = 20) -> str:
    """A single self-contained HTML page: tables, and SVG plots drawn without any plotting library.

    Plots: per-segmenter summary (stability F1 vs shuffle-control F1), stability vs each of the
    main reference metrics per document, and per-document boundary-confidence strips against the
    first reference (when the documents have one); ``max_strips`` strips per segmenter.
    """
    sections = []
    for title, (header, rows) in _sections(result, documents=False):
        sections.append(f"<h2>{html.escape(title)}</h2>{_html_table(header, rows)}")
    plots = []
    summary_points = [(s.macro["shuffle_f1"].mean, s.macro["f1"].mean, label, f"{label}: F1 {s.macro['f1'].mean:.3f}")
                      for label, s in result.summary.items()]
    plots.append(_scatter(summary_points, "shuffle-control F1", "stability F1",
                          "Per segmenter: real test vs shuffle control"))
    for key, title in (("pk", "Pk"), ("windowdiff", "WindowDiff"), ("f1", "boundary F1 (ref)")):
        pts = [(r.reference_metrics.get(key, float("nan")), getattr(r, HEADLINE[0]), label,
                f"{label} / {r.document}: F1 {r.f1:.3f}, shuffle F1 {r.shuffle_f1:.3f}")
               for label, docs in result.documents.items() for r in docs if r.reference_metrics]
        if pts:
            arrow = " (lower is better)" if REFERENCE[key].direction == "lower" else ""
            plots.append(_scatter(pts, title + arrow, HEADLINE[1], f"Per document: {HEADLINE[1]} vs {title}"))
    plot_html = "".join(f'<div class="figure">{p}</div>' for p in plots if p)
    strips = []
    for label, docs in result.documents.items():
        for r in docs[:max_strips]:
            ref = r.references[0] if r.references else None
            strips.append(f"<div class='strip'><div class='caption'>{html.escape(label)} - {html.escape(str(r.document))} "
                          f"(F1 {_num(r.f1, 2)})</div>{_svg_strip(r, ref)}</div>")
    doc_header, doc_rows = document_rows(result)
    settings = html.escape(json.dumps(_clean(result.settings), indent=1, default=str))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>stability report</title>
<style>
body{{font-family:system-ui,sans-serif;margin:2em;color:#222}} table{{border-collapse:collapse;margin:1em 0;font-size:13px}}
th,td{{border:1px solid #ccc;padding:3px 6px;text-align:right}} th:first-child,td:first-child,td:nth-child(2){{text-align:left}}
.figure{{display:inline-block;margin:0.5em}} .strip .caption{{font-size:12px}} pre{{background:#f6f6f6;padding:1em}}
</style></head><body>
<h1>Stability report</h1>
<p><b>{html.escape(HEADLINE_NOTE)}</b></p>
<p>Stability test of Lamprier et al. (2007): units are permuted within the segments a segmenter found, the
document is segmented again, and the boundaries found again are counted. Scores are "mean (std)" over documents.
<b>content-blind</b>: the shuffle control (units permuted across the whole document) is as stable as the real
test, so the score carries no evidence about the content.</p>
{''.join(sections)}
<h2>Plots</h2>{plot_html}
<h2>Boundary confidence per document</h2>
<p>Blue bars: initial boundaries, height = share of restarts that found them again; grey: boundaries that appeared
only after permutation; red ticks: reference boundaries.</p>
{''.join(strips)}
<h2>Per document</h2>{_html_table(doc_header, doc_rows)}
<h2>Settings</h2><pre>{settings}</pre>
</body></html>
"""


def render(result: CorpusResult, format: str, **options: Any) -> str:
    """Render ``result`` in one of :data:`FORMATS`."""
    renderers = {"table": to_table, "md": to_markdown, "csv": to_csv, "json": to_json, "html": to_html}
    if format not in renderers:
        raise InvalidParameterError.make("format", f"one of {', '.join(FORMATS)}", format)
    return renderers[format](result, **options)
