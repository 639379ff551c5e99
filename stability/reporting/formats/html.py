"""A single self-contained HTML page: tables, notes and inline SVG figures."""

from __future__ import annotations

import dataclasses
import html
import itertools
import re
from collections.abc import Mapping, Sequence

from ..model import Report, Section

NAME = "html"
EXTENSION = "html"
ALIASES = ("htm",)
ORDER = 4
DETAILS = True
FIGURES = True
DESCRIPTION = "a self-contained page with plots"

#: The share of a table's box that the columns naming a row may take when they stay in view as the
#: table scrolls (:data:`STICKY_KEYS`): on a phone (a box of 327 pixels) the segmenter and parameter
#: columns of stability segmenters took 84% of it, and no value column could be seen beside them.
#: The rest, two columns of numbers on a phone, is the values': the box of a long cell
#: (:data:`LONG_CELL`), at least 24em wide (8em in a prose column, whose long words break), is
#: never wider than that rest less its cell's padding and border (7 pixels; ``cqw`` in
#: :data:`STYLE`: a percentage of the table's box), so that it can be read whole beside the columns
#: kept in view: at 375 pixels an error naming a model's path, one word of 150 characters, made
#: its column 458 pixels wide beside the 247 the segmenter column left, cut on every line.
KEYS_IN_VIEW = 0.6

STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;overflow-wrap:break-word} .result{font-size:1.15em}
.scroll{overflow-x:auto;max-width:100%;container-type:inline-size} table{border-collapse:separate;border-spacing:0;margin:1em 0;font-size:12px}
th,td{border-bottom:1px solid #ccc;border-left:1px solid #e4e4e4;padding:2px 3px;text-align:right} th.l,td.l{text-align:left}
th.group{text-align:center;background:#eef2f7} th.group.blank{background:#fff}
th.group>span{display:inline-block;position:sticky;left:0;right:0;max-width:calc(VALUES_ROOM - 8px)}
tbody tr>:first-child,tfoot tr>:first-child,thead tr:last-child th:first-child{position:sticky;left:0;background:#fff;z-index:1}
tbody th{font-weight:normal} tfoot tr:first-child>*{border-top:2px solid #888}
.figure{display:inline-block;margin:0.5em;max-width:100%} svg{max-width:100%;height:auto}
.strip .caption{font-size:12px}
@media screen and (max-width:600px){.figure>svg.plot.scatter{display:none} .figure>svg.narrow{display:inline}} summary{cursor:pointer;font-weight:bold;margin:0.6em 0}
pre{background:#f6f6f6;padding:1em;white-space:pre-wrap;overflow-wrap:anywhere}
td .long{line-height:1.25;max-height:calc(4.5*1.25em);overflow-y:auto;min-width:24em;min-width:min(24em,calc(VALUES_ROOM - 7px));text-align:left} td .prose{min-width:min(8em,calc(VALUES_ROOM - 7px));overflow-wrap:anywhere} td.word{white-space:nowrap}
.key{max-width:min(30vw,24em);overflow-wrap:break-word}
.opt,.glue{white-space:nowrap} mark{white-space:nowrap;padding:0 2px;border-radius:2px;print-color-adjust:exact} mark.yellow{background:#ffe58f} mark.red{background:#ffc9c9;color:#7a0000}
@media print{body{margin:0} .scroll,td .long{overflow:visible;max-height:none;min-width:0} table{font-size:9px}
details::details-content{content-visibility:visible;display:block} summary{list-style:none;cursor:auto}
tr,.figure,.strip{break-inside:avoid} h2,summary{break-after:avoid}
@page wide{size:landscape} .wide{page:wide} .wide>.scroll:has(+.parts){display:none} .wide>.parts{display:block}
mark{white-space:normal}} .parts{display:none}""".replace("VALUES_ROOM", f"{round(100 * (1 - KEYS_IN_VIEW))}cqw")

#: A table of more columns prints on a landscape page (the named page ``wide`` of :data:`STYLE`),
#: with its heading and notes: at print type a column takes 25 to 70 pixels, and a portrait page
#: has about 720 for its content (A4 with the browser's margins). A table wider than its page made
#: the browser shrink the whole report, or, past the most it shrinks, cut the table's right part.
PORTRAIT_COLUMNS = 16

#: A table of more columns than a landscape page holds (about 980 pixels: Letter) prints in parts
#: of at most this many, one under the other, each starting with the columns that name a row and
#: holding whole column groups where they fit, as the terminal prints a table wider than itself.
#: Its whole copy, which scrolls on screen, is not printed; the parts are printed only.
LANDSCAPE_COLUMNS = 22

#: A cell longer than this (a document's list of boundaries, a long error) scrolls inside a box of
#: four and a half lines (:data:`STYLE`, ``td .long``), so that one row does not grow a screen tall:
#: a text of four lines shows whole, a longer one shows half of its fifth line cut, the sign that
#: it scrolls. The box sets its line height: at the browser's own (about 1.17) a box 4.5em tall
#: cut the bottom of a fourth line and scrolled two pixels.
LONG_CELL = 80

#: A hyphen before a letter, after which a browser breaks a line inside a word (``--allow-`` over
#: ``plugins``; not before a digit: a negative number stays whole).
_HYPHEN = re.compile("[-\u2010\u2013](?=[^\\d\\s.])")
#: A blank: a value holding one is more than one word.
_BLANK = re.compile(r"\s")

#: Keeps every column naming a row in view when a wide table scrolls (CSS alone keeps the first:
#: the others' offsets depend on the widths the browser gives the columns before them). The widths
#: are read from the header rows, all before any cell is styled: reading after a write forces a
#: layout, and one per row made a table of a thousand rows take minutes to open. They are read
#: again when the window's size changes (a browser fires resize at most once a frame), and the
#: tables whose offsets changed are restyled: a long label's column is at most 30% of the window,
#: and offsets measured when the page opened left a gap after it and put the next key column over
#: the one after that. The columns after the first are kept in view only while they end within
#: :data:`KEYS_IN_VIEW` of the table's box; the others scroll with the numbers.
STICKY_KEYS = """<script>
(function () {
  var tables = [].slice.call(document.querySelectorAll(".scroll>table[data-keys]")), placed = [];
  function place() {
    var offsets = tables.map(function (table) {
      var head = table.querySelector("thead tr:last-child").children, room = table.parentElement.clientWidth * KEYS_IN_VIEW,
          rights = [head[0].getBoundingClientRect().width], lefts = [0];
      for (var i = 1; i < +table.dataset.keys; i++) {
        rights.push(rights[i - 1] + head[i].getBoundingClientRect().width);
        if (rights[i] > room) break;
        lefts.push(rights[i - 1]);
      }
      return lefts;
    });
    tables.forEach(function (table, t) {
      if (placed[t] === offsets[t].join()) return;
      placed[t] = offsets[t].join();
      table.querySelectorAll("thead tr:last-child, tbody tr, tfoot tr").forEach(function (row) {
        for (var i = 0; i < +table.dataset.keys; i++) {
          var style = row.children[i].style, kept = i < offsets[t].length;
          style.position = kept ? "sticky" : ""; style.left = kept ? offsets[t][i] + "px" : "";
          style.background = kept ? "#fff" : ""; style.zIndex = kept ? 1 : "";
        }
      });
    });
  }
  place();
  window.addEventListener("resize", place);  // fired at most once a frame
})();
</script>""".replace("KEYS_IN_VIEW", str(KEYS_IN_VIEW))


#: A run of right-to-left text (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms)
#: and the spaces inside it.
_RTL_CHARS = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff"
_RTL_RUN = re.compile(f"[{_RTL_CHARS}](?:[{_RTL_CHARS}\\s]*[{_RTL_CHARS}])?")


def _isolated(escaped: str) -> str:
    """Escaped text with each right-to-left run in a ``bdi``: an Arabic label followed by its
    numbers (``تقسيم 0.53 [0.52, 0.54] > مقسم 0.46``) was laid out as one right-to-left run, the
    ranking reversed and its brackets broken."""
    return _RTL_RUN.sub(lambda match: f"<bdi>{match.group(0)}</bdi>", escaped)


#: A command-line option in escaped prose (``-s``, ``--layout-control``): a word of its own, after a
#: blank, a bracket or a quote (``&#x27;``), not a word's hyphen (``shuf.-corr.``) nor a number's sign;
#: at most 40 characters kept together (a longer hyphenated word may still break to fit a phone).
_OPTION = re.compile(r"(?<![^\s(\[;])--?[A-Za-z][\w-]{0,39}")


def _prose(text: str) -> str:
    """A paragraph of ours (a note, the introduction), escaped, each right-to-left run of the labels
    it names isolated (:func:`_isolated`: the ranking of chunkers read in the wrong order beside
    Arabic labels), and each command-line option it names in a ``span`` kept on one line: a
    browser breaks a line after a hyphen before a letter, and the command of "To reproduce" read
    ``-`` at the end of a line and ``s langchain_recursive`` on the next, ``--`` over ``restarts``.
    The text, copied, is unchanged.

    >>> _prose("run -s c99 --layout-control; shuf.-corr. is F1 - C")
    'run <span class="opt">-s</span> c99 <span class="opt">--layout-control</span>; shuf.-corr. is F1 - C'
    """
    return _OPTION.sub(lambda match: f'<span class="opt">{match.group(0)}</span>', _isolated(html.escape(text)))


#: A run of punctuation marks in a key cell and the character before it (an escaped one,
#: ``&amp;``), which stay on one line: a label breaks after its commas (``<wbr>``), and anywhere in
#: a part wider than its line, where Chromium put the comma after ``chunk_size=300`` at the start
#: of the next line of a key cell at 400 pixels. A right-to-left letter is left alone (a ``span``
#: would cut the run that :func:`_isolated` isolates whole).
_GLUED = re.compile(rf"(&#?\w+;|[^\s&,{_RTL_CHARS}])([,;:=.)\]}}!?]+)?|,")
#: The same in the result line (at 375 pixels a comma after a plugin's long name started a line),
#: only for a label's commas (followed by a word): the line's own punctuation is followed by blanks.
_GLUED_COMMAS = re.compile(rf"(&#?\w+;|[^\s&,{_RTL_CHARS}])(,(?=\S))?|,")


def _folded(text: str, glued: re.Pattern[str] = _GLUED) -> str:
    """``text`` (a key cell; the result line with :data:`_GLUED_COMMAS`) escaped, breaking after
    its commas, never before the punctuation ``glued`` keeps with the character before it, its
    right-to-left runs isolated."""
    return _isolated(glued.sub(_glued, html.escape(text)))


def _glued(match: re.Match[str]) -> str:
    before, marks = match.group(1), match.group(2)
    if before is None:  # a comma after a blank or a right-to-left letter (or one glued() leaves)
        return ",<wbr>"
    if marks is None:  # a character (or an escaped one, never cut) without a mark kept with it
        return before
    return f'<span class="glue">{before}{marks}</span>' + ("<wbr>" if marks.endswith(",") else "")


def _marked(value: object, highlight: Mapping[str, str]) -> str:
    """``value`` escaped, each of its comma-separated parts holding a word of ``highlight`` (a flag,
    ``2 failed``) in a ``mark`` of that word's colour, as a terminal colours it."""
    text = str(value)
    if not any(word in text for word in highlight):  # most cells (numbers): nothing to mark
        return html.escape(text)
    parts = []
    for part in text.split(", "):
        style = next((style for word, style in highlight.items() if word in part), None)
        parts.append(f'<mark class="{html.escape(style)}">{html.escape(part)}</mark>' if style else html.escape(part))
    return ", ".join(parts)


def _cell(value: object, css: str, key: bool, highlight: Mapping[str, str], prose: bool = False) -> str:
    """A body cell; a ``key`` one (naming its row) is a row header, its text never marked. A long
    cell scrolls in a box at least 24em wide (a document's list of boundaries, in a table of many
    columns, is not squeezed to a word a line), a long one of a ``prose`` column
    (:attr:`Section.prose`) in a box as wide as the room the other columns leave: two such boxes
    in a row (a key's type and meaning in stability config) made a table wider than its page. A
    value of one hyphenated word outside prose (a flag, ``built-in``) keeps to one line."""
    tag, scope = ("th", ' scope="row"') if key else ("td", "")
    value = str(value)
    if key:  # after each comma (a grid's label, texttiling,w=10,k=5), else anywhere past its width: a
        # column that stays in view must leave room for the numbers scrolling under it
        text = _folded(value)
        return f'<{tag}{scope}{css}><div class="key">{text}</div></{tag}>' if len(value) > 24 else \
            f"<{tag}{scope}{css}>{text}</{tag}>"
    text = _marked(value, highlight)
    one_word = len(value) <= LONG_CELL and not _BLANK.search(value)
    if one_word and not prose and _HYPHEN.search(value) and "<mark" not in text:  # a mark keeps its word whole
        css = css.replace(' class="', ' class="word ', 1) if css else ' class="word"'
    inner = f'<div class="long{" prose" if prose else ""}">{text}</div>' if len(value) > LONG_CELL else text
    return f"<{tag}{scope}{css}>{inner}</{tag}>"


def table(section: Section, columns: Sequence[int] | None = None) -> str:
    """One table (of the ``columns`` given, by index; default: all); left-aligned columns get
    ``class="l"``; column groups become a header row above the column titles (a group cut by
    ``columns`` spans the columns of it shown); a long cell scrolls in a box of its own."""
    shown = range(len(section.header)) if columns is None else columns
    classes = [' class="l"' if a in "lL" else "" for a in section.alignment()]
    group_of = [g for g, (_, span) in enumerate(section.groups) for _ in range(span)]
    spans = [(section.groups[g][0], len(list(run))) for g, run in itertools.groupby(shown, group_of.__getitem__)] \
        if section.groups else []
    # a group's title (th.group>span in STYLE) stays in view as its table scrolls, and wraps at the room the key
    # columns leave: centred on its columns, the title of a group wider than a phone's screen (stability test, 12
    # columns) stood past the box's edge, cut or out of view, and one longer than the box ran past it on one line
    groups = "".join(f'<th scope="colgroup" colspan="{span}" class="group{"" if title else " blank"}">'
                     f"{f'<span>{html.escape(title)}</span>' if title else ''}</th>" for title, span in spans if span)
    head = (f"<tr>{groups}</tr>" if groups else "") + "<tr>" + "".join(  # a long title breaks after a colon
        f'<th scope="col"{classes[i]}>{html.escape(section.header[i]).replace(":", ":<wbr>")}</th>' for i in shown) + "</tr>"

    def rows(table_rows: Sequence[Sequence[object]], highlight: Mapping[str, str]) -> str:
        return "".join("<tr>" + "".join(_cell(row[i], classes[i], i < section.keys, highlight, i in section.prose)
                                        for i in shown) + "</tr>"
                       for row in table_rows)

    # one tbody per group of rows (Section.row_groups), headed by its title across the columns shown
    body = "".join("<tbody>" + (f'<tr><th scope="rowgroup" colspan="{len(shown)}" class="l">'
                                f"<b>{_isolated(html.escape(title))}</b></th></tr>" if title else "")
                   + rows(grouped, section.highlight) + "</tbody>" for title, grouped in section.grouped())
    foot = rows(section.footer, {})  # summary rows (a mean over the rows) in the table's foot, not highlighted
    keys = f' data-keys="{section.keys}"' if section.keys > 1 else ""
    foot = f"<tfoot>{foot}</tfoot>" if foot else ""
    return f"<table{keys}><thead>{head}</thead>{body}{foot}</table>"


def _print_parts(section: Section) -> list[list[int]]:
    """The columns (by index) of each part a table too wide for a landscape page prints in: the
    columns naming a row, then whole column groups while the part has at most
    :data:`LANDSCAPE_COLUMNS` (a larger group is cut into runs that fit); one part, all the
    columns, for a table that fits."""
    width = len(section.header)
    if width <= LANDSCAPE_COLUMNS:
        return [list(range(width))]
    keys, room = list(range(section.keys)), max(1, LANDSCAPE_COLUMNS - section.keys)
    starts = list(itertools.accumulate(span for _, span in section.groups)) if section.groups else list(range(1, width + 1))
    runs, start = [], 0
    for end in starts:  # each group's columns, less the keys; cut into runs of at most room
        columns = [i for i in range(start, end) if i >= section.keys]
        runs += [columns[i:i + room] for i in range(0, len(columns), room)]
        start = end
    parts: list[list[int]] = []
    for run in (run for run in runs if run):
        if parts and len(parts[-1]) + len(run) <= LANDSCAPE_COLUMNS:
            parts[-1] += run
        else:
            parts.append(keys + run)
    return parts


def _block(section: Section, details: bool, page: bool = True) -> str:
    if section.detail and not details:
        return ""
    if not page and section.text and not section.is_table:  # in a notebook's output: folded
        section = dataclasses.replace(section, collapsed=True)
    level = "h2" if page else "h4"  # a fragment sits under the headings of the page holding it
    title = _isolated(html.escape(section.title))
    heading = f"<summary>{title}</summary>" if section.collapsed else f"<{level}>{title}</{level}>"
    parts = [heading]
    wide = page and not section.collapsed and len(section.header) > PORTRAIT_COLUMNS
    if section.is_table:  # scrolling in its box; on paper, a table too wide for the page in parts
        parts.append(f'<div class="scroll">{table(section)}</div>')
        pieces = _print_parts(section) if wide else []
        if len(pieces) > 1:
            parts.append('<div class="parts">' + "".join(table(section, columns) for columns in pieces) + "</div>")
    parts += [f'<div class="figure">{f}</div>' for f in section.figures if f.startswith("<svg")]
    parts += [f for f in section.figures if not f.startswith("<svg")]
    if section.text:
        parts.append(f"<pre>{html.escape(section.text)}</pre>")
    parts += [f"<p>{_prose(note)}</p>" for note in [section.legend_line(), *section.notes] if note]
    if section.collapsed:
        return f"<details>{''.join(parts)}</details>"
    return f'<div class="wide">{"".join(parts)}</div>' if wide else "".join(parts)  # heading, table, notes


def render(report: Report, *, details: bool = True, page: bool = True) -> str:
    """The page: title, lead paragraphs, then every block in order.

    ``page=False`` gives the same content as a fragment to put in another page (a notebook's
    output, :meth:`stability.CorpusResult._repr_html_`): one ``div`` without the page's head,
    style sheet and script, which would restyle the page around it; preformatted text blocks
    (the settings) are folded.
    """
    # the result line breaks between its entries, or after a label's commas, not inside a number
    lead = (f'<p class="result"><b>{_folded(report.result, _GLUED_COMMAS)}</b></p>'
            if report.result else "")
    lead += "".join(f"<p>{_prose(p)}</p>" for p in report.lead)
    blocks = "\n".join(b for b in (_block(s, details, page) for s in report.sections) if b)
    if not page:
        return f'<div class="stability-report">\n<h3>{html.escape(report.title)}</h3>\n{lead}\n{blocks}\n</div>'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(report.title.lower())}</title>
<style>
{STYLE}
</style></head><body>
<h1>{html.escape(report.title)}</h1>
{lead}
{blocks}
{STICKY_KEYS if 'data-keys="' in blocks else ""}
</body></html>
"""
