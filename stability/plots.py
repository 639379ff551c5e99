"""Plots as SVG, written by hand: no plotting dependency, text that diffs, pages that stay
self-contained. Used by the HTML report (:mod:`stability.reporting`) and the validation study
(:mod:`stability.study`).
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

from .exceptions import InvalidParameterError

__all__ = ["PALETTE", "svg_scatter", "svg_lines", "nice_ticks"]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
            "#7f7f7f", "#bcbd22", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd")


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]``: the smallest step of 1, 2, 2.5 or 5 times a power
    of ten that needs at most ``count + 2`` ticks, the first at or below ``low`` and the last at or
    above ``high``.

    >>> nice_ticks(0.02, 0.93)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(-0.04, 1.04)
    [-0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25]
    >>> nice_ticks(3, 3)
    [2.0, 2.5, 3.0, 3.5, 4.0]
    >>> nice_ticks(0.7777777777777777, 0.7777777777777778)  # equal but for rounding: as one value
    [-0.5, 0.0, 0.5, 1.0, 1.5, 2.0]
    """
    if _one_value(low, high):
        low, high = low - 1.0, high + 1.0
    power = 10.0 ** (math.floor(math.log10((high - low) / max(count - 1, 1))) - 1)
    while True:
        for multiple in (1, 2, 2.5, 5):
            step = multiple * power
            first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
            if last - first + 1 <= count + 2:
                return [round(i * step, 10) + 0.0 for i in range(first, last + 1)]
        power *= 10


def _one_value(low: float, high: float) -> bool:
    """Whether ``[low, high]`` is too narrow for distinct ticks (ticks are rounded to 10 decimals,
    and a float holds about 16 significant digits): equal values, or equal but for rounding, as
    two means of the same scores summed in another order."""
    return high - low <= 1e-9 * max(1.0, abs(low), abs(high))


def _axis_range(values: Sequence[float]) -> list[float]:
    """Round ticks spanning the defined ``values`` (0 to 1 when none is defined)."""
    v = [x for x in values if not math.isnan(x)]
    if not v:
        return nice_ticks(0.0, 1.0)
    low, high = min(v), max(v)
    if _one_value(low, high):
        return nice_ticks(low - 0.5, high + 0.5)
    return nice_ticks(low, high)


def _frame(w: int, h: int, m: int, title: str, x_label: str, y_label: str, x_ticks: Sequence[float],
           y_ticks: Sequence[float], legend_width: int, css_class: str | None = None, below: int = 0) -> list[str]:
    """The figure's opening, title, axes and ticks. ``below`` rows of legend under the plot (a
    narrow figure) add to its height, and its title, wrapped into lines rather than squeezed, moves
    the plot down: the caller then closes the group (``</g>``) holding the plot and legend."""
    x0, x1 = x_ticks[0], x_ticks[-1]
    y0, y1 = y_ticks[0], y_ticks[-1]

    def sx(x: float) -> float:
        return m + (x - x0) / (x1 - x0) * (w - 2 * m)

    def sy(y: float) -> float:
        return h - m - (y - y0) / (y1 - y0) * (h - 2 * m)

    css = f' class="{html.escape(css_class)}"' if css_class else ""
    lines = _title_lines(title, w + legend_width) if below else [title]
    top = 18 * (len(lines) - 1)  # the title's lines after the first
    height = top + h + (16 * below + 4 if below else 0)
    parts = [f'<svg{css} xmlns="http://www.w3.org/2000/svg" width="{w + legend_width}" height="{height}" '
             f'viewBox="0 0 {w + legend_width} {height}" font-family="sans-serif" role="img">',
             f'<title>{html.escape(title)}</title>',
             f'<rect width="{w + legend_width}" height="{height}" fill="white"/>',
             _title_text(title, w + legend_width) if not below else
             "".join(f'<text x="{(w + legend_width) / 2:.0f}" y="{18 + 18 * i}" text-anchor="middle" font-size="14">'
                     f"{html.escape(line)}</text>" for i, line in enumerate(lines)),
             *([f'<g transform="translate(0 {top})">'] if below else []),
             f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="#444"/>',
             f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="#444"/>',
             f'<text x="{w / 2:.0f}" y="{h - 10}" text-anchor="middle" font-size="12">{html.escape(x_label)}</text>',
             f'<text x="14" y="{h / 2:.0f}" text-anchor="middle" font-size="12" '
             f'transform="rotate(-90 14 {h / 2:.0f})">{html.escape(y_label)}</text>']
    for xv in x_ticks:
        parts.append(f'<line x1="{sx(xv):.1f}" y1="{h - m}" x2="{sx(xv):.1f}" y2="{h - m + 4}" stroke="#444"/>'
                     f'<text x="{sx(xv):.1f}" y="{h - m + 16}" text-anchor="middle" font-size="10">{_tick(xv)}</text>')
    for yv in y_ticks:
        parts.append(f'<line x1="{m - 4}" y1="{sy(yv):.1f}" x2="{m}" y2="{sy(yv):.1f}" stroke="#444"/>'
                     f'<text x="{m - 6}" y="{sy(yv) + 3:.1f}" text-anchor="end" font-size="10">{_tick(yv)}</text>')
    return parts


#: Roughly the mean width of a character of the sans-serif titles, as a share of the font size.
_CHAR_WIDTH = 0.6


def _title_text(title: str, width: int, size: int = 14) -> str:
    """The title, centred on the whole figure; one that would not fit is squeezed into it
    (``textLength``) rather than cut at the figure's left edge."""
    fit = f' textLength="{width - 10}" lengthAdjust="spacingAndGlyphs"' if _CHAR_WIDTH * size * len(title) > width - 10 else ""
    return f'<text x="{width / 2:.0f}" y="18" text-anchor="middle" font-size="{size}"{fit}>{html.escape(title)}</text>'


def _title_lines(title: str, width: int, size: int = 14) -> list[str]:
    """The title in lines of whole words, each fitting ``width`` (a word longer than a line stands
    alone on its line, squeezed by nothing): a narrow figure's title squeezed into one line
    (:func:`_title_text`) showed its letters at a third of their width.

    >>> _title_lines("Per document: stability (count-aware shuffle correction) vs Pk", 330)
    ['Per document: stability (count-aware', 'shuffle correction) vs Pk']
    """
    room = int((width - 10) / (_CHAR_WIDTH * size))
    lines: list[str] = []
    for word in title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _tick(value: float) -> str:
    """The shortest exact label of a round tick value (``0``, ``0.25``, ``10``)."""
    return f"{value:.6g}"


def _coincident(positions: Sequence[tuple[float, float]], radius: float) -> list[list[int]]:
    """Indices of the points drawn at the same place (closer than ``radius``), group by group."""
    groups: dict[tuple[int, int], list[int]] = {}
    for i, (x, y) in enumerate(positions):
        groups.setdefault((round(x / radius), round(y / radius)), []).append(i)
    return list(groups.values())


def _dodged(positions: Sequence[tuple[float, float]], groups: list[list[int]], radius: float) -> list[tuple[float, float]]:
    """Positions with coincident points spread on a small circle around their place, so each shows."""
    out = list(positions)
    for members in groups:
        for k, i in enumerate(members if len(members) > 1 else ()):
            angle = 2 * math.pi * k / len(members)
            out[i] = (positions[i][0] + 1.6 * radius * math.cos(angle), positions[i][1] + 1.6 * radius * math.sin(angle))
    return out


def _scales(width: int, height: int, m: int, x_ticks: Sequence[float], y_ticks: Sequence[float]):
    def sx(x: float) -> float:
        return m + (x - x_ticks[0]) / (x_ticks[-1] - x_ticks[0]) * (width - 2 * m)

    def sy(y: float) -> float:
        return height - m - (y - y_ticks[0]) / (y_ticks[-1] - y_ticks[0]) * (height - 2 * m)

    return sx, sy


def _circles(pts: list[tuple[float, float, str, str]], places: list[tuple[float, float]], series: list[str], *,
             labels: bool, tooltips: bool, radius: float, opacity: float, middle: float, right: float) -> list[str]:
    """One circle a point, coincident ones spread around their place; the text as tooltip and/or
    as a label (one label per place, naming every point there; to the left of points right of
    ``middle``, so that labels stay inside the plot; one longer than the room between its point and
    the figure's edge, 0 or ``right``, shortened as a legend entry is, whole in its tooltip: a long
    segmenter label ran past the figure's left edge, cut)."""
    groups = _coincident(places, radius)
    positions = _dodged(places, groups, radius)
    parts = []
    for (x, y), (_, _, s, text) in zip(positions, pts):
        color = PALETTE[series.index(s) % len(PALETTE)]
        tip = f"<title>{html.escape(text)}</title>" if tooltips else ""
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius}" fill="{color}" fill-opacity="{opacity}" '
                     f'stroke="white" stroke-width="0.8">{tip}</circle>')
    for members in groups if labels else ():
        x, y = places[members[0]]
        text = ", ".join(pts[i][3] for i in members)
        shift = radius * (2.6 if len(members) > 1 else 1) + 2
        side, anchor = (-1, "end") if x > middle else (1, "start")
        room = x - shift - 2 if side < 0 else right - x - shift - 2
        parts.append(f'<text x="{x + side * shift:.1f}" y="{y + 3:.1f}" font-size="9" fill="#333" '
                     f'text-anchor="{anchor}">{_shortened(text, room, 9)}</text>')
    return parts


def svg_scatter(points: Sequence[tuple[float, float, str, str]], *, title: str, x_label: str, y_label: str,
                labels: bool = False, tooltips: bool = False, diagonal: bool = False, width: int = 560,
                height: int = 400, radius: float = 4.0, opacity: float = 0.8, css_class: str | None = None,
                legend_below: bool = False) -> str:
    """A scatter plot as an SVG document (standalone, or inline in HTML), with round axis ticks.

    Parameters
    ----------
    points : sequence of (x, y, series, text)
        Points with NaN coordinates are skipped; ``series`` picks the colour (legend on the right).
        ``text`` is written beside the point when ``labels`` is true (few points) and/or shown on
        hover when ``tooltips`` is true (one ``circle`` element a point, coincident points spread
        around their place so each shows); with neither, many points are drawn compactly, one path
        per series.
    diagonal : bool
        Both axes on one range, with the line ``y = x`` (e.g. a test against its control).
    css_class : str, optional
        ``class`` attribute of the ``svg`` element (for pages that style or find their plots).
    legend_below : bool
        The legend under the plot, one series a line, and the title wrapped, for a figure about
        as wide as a phone's screen (``width`` about 330): a legend on the right took a quarter of
        the width, and the figure shrunk to a phone's width showed its text at 5 to 8 pixels.
    """
    pts = [(float(x), float(y), s, t) for x, y, s, t in points if not (math.isnan(float(x)) or math.isnan(float(y)))]
    if not pts:
        raise InvalidParameterError("svg_scatter needs at least one point with defined coordinates")
    series = list(dict.fromkeys(p[2] for p in pts))
    m, legend = 55, 0 if legend_below else 150
    xr, yr = _axis_range([p[0] for p in pts]), _axis_range([p[1] for p in pts])
    if diagonal:
        xr = yr = _axis_range([p[0] for p in pts] + [p[1] for p in pts])
    parts = _frame(width, height, m, title, x_label, y_label, xr, yr, legend, css_class, len(series) if legend_below else 0)
    sx, sy = _scales(width, height, m, xr, yr)
    if diagonal:
        parts.append(f'<line class="diagonal" x1="{sx(xr[0]):.1f}" y1="{sy(xr[0]):.1f}" x2="{sx(xr[-1]):.1f}" '
                     f'y2="{sy(xr[-1]):.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    if labels or tooltips:
        parts += _circles(pts, [(sx(x), sy(y)) for x, y, _, _ in pts], series, labels=labels, tooltips=tooltips,
                          radius=radius, opacity=opacity, middle=width / 2, right=width + legend)
    else:
        # many points: one path per series, each point a zero-length segment drawn as a round dot
        # (about 12 bytes a point instead of 60 for a circle element)
        for i, name in enumerate(series):
            dots = "".join(f"M{sx(x):.0f} {sy(y):.0f}h0" for x, y, s, _ in pts if s == name)
            parts.append(f'<path d="{dots}" stroke="{PALETTE[i % len(PALETTE)]}" stroke-width="{2 * radius}" '
                         f'stroke-linecap="round" stroke-opacity="{opacity}" fill="none"/>')
    for i, s in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        x, y = (m, height + 6 + 16 * i) if legend_below else (width + 10, m + 16 * i)
        room = width - m - 12 if legend_below else LEGEND_ROOM
        parts.append(f'<circle cx="{x}" cy="{y}" r="5" fill="{color}"/>' + _legend_text(s, x + 10, y + 4, room))
    parts.append("</g></svg>\n" if legend_below else "</svg>\n")
    return "\n".join(parts)


#: The room, in pixels, of a name in the legend on the right (150 pixels less its marker's 20); a
#: longer name is shortened in its middle (:func:`_legend_text`). Cut at 26 characters, a name of
#: capitals or of 23 characters and more ran past the figure's edge.
LEGEND_ROOM = 130

#: A character's width as a share of the font size, by kind (DejaVu Sans, Debian's sans-serif,
#: rounded up): narrow punctuation and letters, wide capitals and signs, the rest.
_NARROW, _WIDE = frozenset(",.;:!|'ilj()[]{} tfr"), frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZmw=+<>%@&~")


def _text_width(text: str, size: float) -> float:
    """About how many pixels ``text`` takes at ``size`` pixels (never much less than it takes)."""
    return size * sum(0.4 if c in _NARROW else 0.84 if c in _WIDE else 0.64 for c in text)


def _shortened(text: str, room: float, size: float) -> str:
    """``text`` escaped, or when wider than ``room`` pixels at ``size`` its start and end around an
    ellipsis, followed by the whole text as a tooltip (``title``). The end, where a grid's
    configurations differ (``c99,std_coeff=1.2,mask_size=9`` and ``...=11``), keeps four fifths of
    the room: cut at the end, they read alike."""
    if _text_width(text, size) <= room:
        return html.escape(text)
    head, tail, left = "", "", room - _text_width("\u2026", size)
    for c in reversed(text):  # the end first, up to two thirds of the room
        if _text_width(c + tail, size) > 0.8 * left:
            break
        tail = c + tail
    for c in text:
        if _text_width(head + c + tail, size) > left:
            break
        head += c
    return f"{html.escape(head)}\u2026{html.escape(tail)}<title>{html.escape(text)}</title>"


def _legend_text(name: str, x: float, y: float, room: float = LEGEND_ROOM) -> str:
    """A legend entry: the name, or when wider than ``room`` pixels its start and end around an
    ellipsis, the whole name as its tooltip (:func:`_shortened`).

    >>> print(_legend_text("c99,std_coeff=1.2,mask_size=11", 0, 0))
    <text x="0" y="0" font-size="11">c99…2,mask_size=11<title>c99,std_coeff=1.2,mask_size=11</title></text>
    """
    return f'<text x="{x}" y="{y}" font-size="11">{_shortened(name, room, 11)}</text>'


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
    xr = [x for x in nice_ticks(1.0, float(max(max(lengths), 2))) if x >= 0] or [0.0, 1.0]
    yr = _axis_range(all_values)
    parts = _frame(width, height, m, title, x_label, y_label, xr, yr, legend, css_class)
    sx, sy = _scales(width, height, m, xr, yr)
    if marker is not None and xr[0] <= marker <= xr[-1]:
        parts.append(f'<line x1="{sx(marker):.1f}" y1="{m}" x2="{sx(marker):.1f}" y2="{height - m}" '
                     f'stroke="#888" stroke-dasharray="4 3"/>')
    for i, (name, values) in enumerate(series.items()):
        color = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{sx(j + 1):.1f},{sy(float(v)):.1f}" for j, v in enumerate(values) if not math.isnan(float(v)))
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="1.3"/>')
        parts.append(f'<line x1="{width + 4}" y1="{m + 16 * i}" x2="{width + 16}" y2="{m + 16 * i}" stroke="{color}" stroke-width="2"/>'
                     + _legend_text(name, width + 20, m + 16 * i + 4))
    parts.append("</svg>\n")
    return "\n".join(parts)
