"""A single self-contained HTML page: tables, notes and inline SVG figures."""

from __future__ import annotations

import html

from ..model import Report, Section

NAME = "html"
EXTENSION = "html"
ORDER = 4
DETAILS = True
FIGURES = True
DESCRIPTION = "a self-contained page with plots"

STYLE = """body{font-family:system-ui,sans-serif;margin:2em;color:#222} table{border-collapse:collapse;margin:1em 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right} th.l,td.l{text-align:left}
.figure{display:inline-block;margin:0.5em} .strip .caption{font-size:12px} pre{background:#f6f6f6;padding:1em}"""


def table(section: Section) -> str:
    """One table; left-aligned columns get ``class="l"``."""
    classes = [' class="l"' if a in "lL" else "" for a in section.alignment()]
    head = "".join(f"<th{c}>{html.escape(h)}</th>" for h, c in zip(section.header, classes))
    body = "".join("<tr>" + "".join(f"<td{c}>{html.escape(str(v))}</td>" for v, c in zip(row, classes)) + "</tr>"
                   for row in section.rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _block(section: Section, details: bool) -> str:
    if section.detail and not details:
        return ""
    parts = [f"<h2>{html.escape(section.title)}</h2>"]
    if section.is_table:
        parts.append(table(section))
    parts += [f'<div class="figure">{f}</div>' for f in section.figures if f.startswith("<svg")]
    parts += [f for f in section.figures if not f.startswith("<svg")]
    if section.text:
        parts.append(f"<pre>{html.escape(section.text)}</pre>")
    parts += [f"<p>{html.escape(note)}</p>" for note in [section.legend_line(), *section.notes] if note]
    return "".join(parts)


def render(report: Report, *, details: bool = True) -> str:
    """The page: title, lead paragraphs, then every block in order."""
    lead = f'<p class="result"><b>{html.escape(report.result)}</b></p>' if report.result else ""
    lead += "".join(f"<p>{html.escape(p)}</p>" for p in report.lead)
    blocks = "\n".join(b for b in (_block(s, details) for s in report.sections) if b)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(report.title.lower())}</title>
<style>
{STYLE}
</style></head><body>
<h1>{html.escape(report.title)}</h1>
{lead}
{blocks}
</body></html>
"""
