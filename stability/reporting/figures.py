"""The figures of a run's report, drawn as inline SVG (no plotting dependency): the real test
against the shuffle control per segmenter, the headline against the main reference metrics per
document, and per-document boundary-confidence strips.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from ..catalogue import HEADLINE, REFERENCE
from ..plots import svg_scatter
from ..results import CorpusResult, StabilityResult
from .model import Section, clock, number

__all__ = ["figure_sections", "svg_strip"]

#: Reference metrics plotted against the headline, per document.
PLOTTED = ("pk", "windowdiff", "f1")


#: Above this many points a scatter plot has no tooltip a point: drawn compactly, one path a
#: series (a page of 300 documents x 5 segmenters weighed 0.9 MB, mostly tooltips).
MAX_TOOLTIPS = 500


#: The width of a scatter plot drawn for a phone (:func:`_scatter`), about a phone's screen less
#: the page's margins (375 - 2 x 24 pixels, less the figure's margins), so that its text shows at about its own size.
NARROW_WIDTH = 310


def _scatter(points: list[tuple[float, float, str, str]], x_label: str, y_label: str, title: str,
             **options: bool) -> str:
    """An inline scatter plot, with a tooltip per point up to :data:`MAX_TOOLTIPS` points ("" when
    no point is defined), followed by the same plot drawn for a phone (class ``narrow``:
    :data:`NARROW_WIDTH` wide, its legend under it, no tooltip, which a finger cannot show),
    hidden (``display="none"``) unless the page's style sheet shows it on a narrow screen (and
    hides the other): the plot of 570 pixels shrunk to a phone's width showed its text at 5 to 8
    pixels. A notebook's output, without the page's style sheet, shows the wide one only."""
    defined = sum(1 for x, y, _, _ in points if not (math.isnan(x) or math.isnan(y)))
    if not defined:
        return ""
    wide = svg_scatter(points, title=title, x_label=x_label, y_label=y_label, tooltips=defined <= MAX_TOOLTIPS,
                       width=420, height=300, css_class="plot scatter", **options)
    narrow = svg_scatter(points, title=title, x_label=x_label, y_label=y_label, width=NARROW_WIDTH, height=300,
                         css_class="narrow scatter", legend_below=True, **options)
    return wide + narrow.replace("<svg ", '<svg display="none" ', 1)


def svg_strip(r: StabilityResult, reference: Sequence[int] | None) -> str:
    """One document: the initial boundaries as bars whose height is their confidence (a hollow
    square for one never found again), spurious restart boundaries in grey, reference boundaries
    as red ticks below the axis; it scales to the page (``viewBox``)."""
    n = r.segmentation.n_units
    w, h, m = 640, 70, 10
    scale = (w - 2 * m) / max(n, 1)
    parts = [f'<svg class="plot strip" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}" role="img">',
             f'<title>{html.escape(str(r.document))}: boundary confidence</title>',
             f'<line x1="{m}" y1="{h - 20}" x2="{w - m}" y2="{h - 20}" stroke="#999"/>']
    span = h - 20 - 8
    for pos, freq in r.spurious_boundaries.items():
        x = m + pos * scale
        parts.append(f'<rect x="{x - 1:.1f}" y="{h - 20 - span * freq:.1f}" width="2" height="{span * freq:.1f}" fill="#bbb">'
                     f'<title>spurious {pos}: {freq:.2f}</title></rect>')
    at = {} if r.boundary_times is None else dict(zip(r.segmentation.boundaries, r.boundary_times))
    for b, conf in r.boundary_confidence.items():
        x = m + b * scale
        c = 0.0 if math.isnan(conf) else conf
        name = f"boundary {b}" + (f" at {clock(at[b])}" if b in at else "")
        if c > 0:
            parts.append(f'<rect x="{x - 2:.1f}" y="{h - 20 - span * c:.1f}" width="4" height="{span * c:.1f}" fill="#1f77b4">'
                         f'<title>{name}: confidence {c:.2f}</title></rect>')
        else:  # never found again: a hollow marker on the axis, which a bar of height 0 would hide
            parts.append(f'<rect x="{x - 3:.1f}" y="{h - 26}" width="6" height="6" fill="white" stroke="#1f77b4" '
                         f'stroke-width="1.5"><title>{name}: confidence 0.00 (never found again)</title></rect>')
    for b in reference or ():
        x = m + b * scale
        parts.append(f'<line x1="{x:.1f}" y1="{h - 18}" x2="{x:.1f}" y2="{h - 6}" stroke="#d62728" stroke-width="2">'
                     f'<title>reference {b}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def _plots(result: CorpusResult) -> list[str]:
    plots = [_scatter([(s.macro["shuffle_f1"].mean, s.macro["f1"].mean, label, label) for label, s in result.summary.items()],
                      "shuffle-control F1 (on the diagonal: content-blind)", "stability F1",
                      "Per segmenter: real test vs shuffle control", diagonal=True, labels=True)]
    for key in PLOTTED:
        m = REFERENCE[key]
        pts = [(r.reference_metrics.get(key, float("nan")), HEADLINE.value(r), label,
                f"{label} / {r.document}: F1 {r.f1:.3f}, shuffle F1 {r.shuffle_f1:.3f}")
               for label, docs in result.documents.items() for r in docs if r.reference_metrics]
        if pts:
            arrow = " (lower is better)" if m.direction == "lower" else ""
            plots.append(_scatter(pts, m.title + arrow, HEADLINE.title, f"Per document: {HEADLINE.title} vs {m.title}"))
    return [p for p in plots if p]


def _strips(docs: list[StabilityResult], max_strips: int) -> list[str]:
    strips = []
    for r in docs[:max_strips]:
        ref = r.references[0] if r.references else None
        strips.append(f"<div class='strip'><div class='caption'>{html.escape(r.segmenter)} - {html.escape(str(r.document))} "
                      f"(F1 {number(r.f1, 2)})</div>{svg_strip(r, ref)}</div>")
    return strips


def figure_sections(result: CorpusResult, max_strips: int, strips_note: str) -> list[Section]:
    """The plots, then the strips (``max_strips`` per segmenter) in one folded block per segmenter."""
    blocks = [Section("Plots", figures=_plots(result)), Section("Boundary confidence per document", notes=(strips_note,))]
    blocks += [Section(f"{label}: {min(len(docs), max_strips)} of {len(docs)} documents",
                       figures=_strips(docs, max_strips), collapsed=True)
               for label, docs in result.documents.items() if docs]
    return blocks
