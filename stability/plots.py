"""Plots as SVG, written by hand: no plotting dependency, text that diffs, pages that stay
self-contained. Used by the HTML report (:mod:`stability.report`) and the validation study
(:mod:`stability.study`).
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

from .exceptions import InvalidParameterError

__all__ = ["PALETTE", "svg_scatter", "svg_lines"]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
            "#7f7f7f", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd")


def _axis_range(values: Sequence[float], pad: float = 0.04) -> tuple[float, float]:
    v = [x for x in values if not math.isnan(x)]
    if not v:
        return 0.0, 1.0
    low, high = min(v), max(v)
    if high == low:
        return low - 0.5, high + 0.5
    span = high - low
    return low - pad * span, high + pad * span


def _frame(w: int, h: int, m: int, title: str, x_label: str, y_label: str, xr: tuple[float, float],
           yr: tuple[float, float], legend_width: int, css_class: str | None = None) -> list[str]:
    x0, x1 = xr
    y0, y1 = yr

    def sx(x: float) -> float:
        return m + (x - x0) / (x1 - x0) * (w - 2 * m)

    def sy(y: float) -> float:
        return h - m - (y - y0) / (y1 - y0) * (h - 2 * m)

    css = f' class="{html.escape(css_class)}"' if css_class else ""
    parts = [f'<svg{css} xmlns="http://www.w3.org/2000/svg" width="{w + legend_width}" height="{h}" '
             f'viewBox="0 0 {w + legend_width} {h}" font-family="sans-serif" role="img">',
             f'<title>{html.escape(title)}</title>',
             f'<rect width="{w + legend_width}" height="{h}" fill="white"/>',
             f'<text x="{w / 2:.0f}" y="18" text-anchor="middle" font-size="14">{html.escape(title)}</text>',
             f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="#444"/>',
             f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="#444"/>',
             f'<text x="{w / 2:.0f}" y="{h - 10}" text-anchor="middle" font-size="12">{html.escape(x_label)}</text>',
             f'<text x="14" y="{h / 2:.0f}" text-anchor="middle" font-size="12" '
             f'transform="rotate(-90 14 {h / 2:.0f})">{html.escape(y_label)}</text>']
    for i in range(5):
        xv = x0 + (x1 - x0) * i / 4
        yv = y0 + (y1 - y0) * i / 4
        parts.append(f'<line x1="{sx(xv):.1f}" y1="{h - m}" x2="{sx(xv):.1f}" y2="{h - m + 4}" stroke="#444"/>'
                     f'<text x="{sx(xv):.1f}" y="{h - m + 16}" text-anchor="middle" font-size="10">{_tick(xv)}</text>')
        parts.append(f'<line x1="{m - 4}" y1="{sy(yv):.1f}" x2="{m}" y2="{sy(yv):.1f}" stroke="#444"/>'
                     f'<text x="{m - 6}" y="{sy(yv) + 3:.1f}" text-anchor="end" font-size="10">{_tick(yv)}</text>')
    return parts


def _tick(value: float) -> str:
    if abs(value) >= 10:
        return f"{value:.0f}"
    return f"{value:.2f}"


def svg_scatter(points: Sequence[tuple[float, float, str, str]], *, title: str, x_label: str, y_label: str,
                labels: bool = False, tooltips: bool = False, width: int = 560, height: int = 400,
                radius: float = 4.0, opacity: float = 0.8, css_class: str | None = None) -> str:
    """A scatter plot as an SVG document (standalone, or inline in HTML).

    Parameters
    ----------
    points : sequence of (x, y, series, text)
        Points with NaN coordinates are skipped; ``series`` picks the colour (legend on the right).
        ``text`` is written beside the point when ``labels`` is true (few points), shown on hover
        when ``tooltips`` is true (one ``circle`` element a point), else unused (many points are
        drawn compactly, one path per series).
    css_class : str, optional
        ``class`` attribute of the ``svg`` element (for pages that style or find their plots).
    """
    pts = [(float(x), float(y), s, t) for x, y, s, t in points if not (math.isnan(float(x)) or math.isnan(float(y)))]
    if not pts:
        raise InvalidParameterError("svg_scatter needs at least one point with defined coordinates")
    series = list(dict.fromkeys(p[2] for p in pts))
    m, legend = 55, 150
    xr, yr = _axis_range([p[0] for p in pts]), _axis_range([p[1] for p in pts])
    parts = _frame(width, height, m, title, x_label, y_label, xr, yr, legend, css_class)

    def sx(x: float) -> float:
        return m + (x - xr[0]) / (xr[1] - xr[0]) * (width - 2 * m)

    def sy(y: float) -> float:
        return height - m - (y - yr[0]) / (yr[1] - yr[0]) * (height - 2 * m)

    if tooltips:
        for x, y, s, text in pts:
            color = PALETTE[series.index(s) % len(PALETTE)]
            parts.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="{radius}" fill="{color}" fill-opacity="{opacity}">'
                         f'<title>{html.escape(text)}</title></circle>')
    elif labels:
        for x, y, s, text in pts:
            color = PALETTE[series.index(s) % len(PALETTE)]
            parts.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="{radius}" fill="{color}" fill-opacity="{opacity}"/>'
                         f'<text x="{sx(x) + radius + 2:.1f}" y="{sy(y) + 3:.1f}" font-size="9" fill="#333">{html.escape(text)}</text>')
    else:
        # many points: one path per series, each point a zero-length segment drawn as a round dot
        # (about 12 bytes a point instead of 60 for a circle element)
        for i, name in enumerate(series):
            dots = "".join(f"M{sx(x):.0f} {sy(y):.0f}h0" for x, y, s, _ in pts if s == name)
            parts.append(f'<path d="{dots}" stroke="{PALETTE[i % len(PALETTE)]}" stroke-width="{2 * radius}" '
                         f'stroke-linecap="round" stroke-opacity="{opacity}" fill="none"/>')
    for i, s in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        parts.append(f'<circle cx="{width + 10}" cy="{m + 16 * i}" r="5" fill="{color}"/>'
                     f'<text x="{width + 20}" y="{m + 16 * i + 4}" font-size="11">{html.escape(s)}</text>')
    parts.append("</svg>\n")
    return "\n".join(parts)


def svg_lines(series: Mapping[str, Sequence[float]], *, title: str, x_label: str, y_label: str,
              marker: float | None = None, width: int = 640, height: int = 400, css_class: str | None = None) -> str:
    """Line plot as a standalone SVG document: one polyline per series, ``x = 1 .. len(values)``.

    ``marker`` draws a dashed vertical line at that ``x`` (e.g. the paper's 30 documents).
    """
    if not series:
        raise InvalidParameterError("svg_lines needs at least one series")
    lengths = [len(v) for v in series.values()]
    all_values = [float(v) for values in series.values() for v in values]
    m, legend = 55, 150
    xr = (1.0, float(max(max(lengths), 2)))
    yr = _axis_range(all_values)
    parts = _frame(width, height, m, title, x_label, y_label, xr, yr, legend, css_class)

    def sx(x: float) -> float:
        return m + (x - xr[0]) / (xr[1] - xr[0]) * (width - 2 * m)

    def sy(y: float) -> float:
        return height - m - (y - yr[0]) / (yr[1] - yr[0]) * (height - 2 * m)

    if marker is not None and xr[0] <= marker <= xr[1]:
        parts.append(f'<line x1="{sx(marker):.1f}" y1="{m}" x2="{sx(marker):.1f}" y2="{height - m}" '
                     f'stroke="#888" stroke-dasharray="4 3"/>')
    for i, (name, values) in enumerate(series.items()):
        color = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{sx(j + 1):.1f},{sy(float(v)):.1f}" for j, v in enumerate(values) if not math.isnan(float(v)))
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="1.3"/>')
        parts.append(f'<line x1="{width + 4}" y1="{m + 16 * i}" x2="{width + 16}" y2="{m + 16 * i}" stroke="{color}" stroke-width="2"/>'
                     f'<text x="{width + 20}" y="{m + 16 * i + 4}" font-size="11">{html.escape(name)}</text>')
    parts.append("</svg>\n")
    return "\n".join(parts)
