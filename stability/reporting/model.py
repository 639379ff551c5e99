"""The document model every report format renders, and the number formatting they share.

A command's result (a corpus run, ``stability score``, ``stability segmenters``) becomes one
:class:`Report`: a title, lead paragraphs, and an ordered list of :class:`Section` blocks. A
section is a table (title, header, rows, notes, column alignment), optionally with the raw values
a machine format writes instead of the formatted cells, or a block of figures or preformatted text
that only formats able to show them render. Format modules (:mod:`stability.reporting.formats`)
know nothing of runs or scores: they render reports.

Examples
--------
>>> print(markdown_table(["segmenter", "F1"], [["c99", "0.94"]], align="lr"))
| segmenter | F1 |
|---|---:|
| c99 | 0.94 |
"""

from __future__ import annotations

import re

import contextlib
import contextvars
import dataclasses
import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..exceptions import InvalidParameterError

__all__ = ["Section", "Report", "brief", "brief_selection", "clock", "markdown_table", "number", "mean_std", "raw",
           "Spelling", "PYTHON", "COMMAND_LINE", "spelling", "spelled"]

#: Column alignment letters: left / right; upper case: never wrapped in the terminal.
ALIGNMENTS = "lrLR"


@dataclass(frozen=True)
class Section:
    """One block of a report.

    Attributes
    ----------
    title : str
        Heading of the block.
    header, rows : sequence of str, sequence of sequence of str
        The table, formatted for reading (empty for a block without a table).
    notes : sequence of str
        Sentences printed under the table (legends, caveats).
    align : str
        One letter per column (:data:`ALIGNMENTS`); default: first column left, the rest right.
    data : (header, rows), optional
        The same table with raw values (full-precision numbers), written by machine formats (CSV).
    detail : bool
        A per-item table (per document), shown when the reader asks for details (``documents``).
    figures : sequence of str
        SVG fragments (rendered by formats that draw: HTML).
    text : str
        Preformatted text (settings), rendered by formats that carry it (HTML).
    drop_order : sequence of int
        Columns a narrow terminal may leave out, first to go first (the others always stay).
    legend : mapping of str to str
        Column title -> what it means, printed under the table for the columns shown.
    groups : sequence of (str, int)
        Titles over runs of adjacent columns (title, number of columns), for formats that can
        show grouped headers (HTML); the spans add up to the number of columns.
    collapsed : bool
        Shown folded (a block the reader opens), where the format can fold.
    highlight : mapping of str to str
        Words to colour in the cells (word -> rich style, e.g. ``{"content-blind": "yellow"}``),
        where the output supports colour (a terminal; HTML marks them).
    keys : int
        The leading columns that name a row (segmenter, document): a terminal too narrow for the
        whole table prints it in parts, each starting with these columns.
    footer : sequence of sequence of str
        Rows summarising ``rows`` (a mean and a standard deviation over them), each starting with
        its label in the key columns: set apart from the rows, so that a label is never read as
        one of theirs (under a rule in the terminal, in the table's foot in HTML, in bold in
        Markdown); machine formats leave them out (CSV writes ``data``).
    markup : sequence of int
        Columns whose cells are Markdown written by the project (a docstring's meaning of a key,
        with its ``code`` spans): Markdown shows them as written (:func:`md_source`), the other
        formats as text.
    prose : mapping of int to int
        Columns of running text (a segmenter's description, a key's meaning), each with the width
        it reads best at in a terminal. Their cells hold the text whole, on one line; the terminal
        table wraps them at their spaces to the room the other columns leave
        (:func:`stability.reporting.formats.table.flowed`), the other formats show them whole. Their
        alignment is ``l`` (left, wrapped).
    row_groups : sequence of (str, int)
        Titles over runs of adjacent rows (title, number of rows), the spans adding up to the
        number of rows: the rows of one thing (a segmenter's parameters), its name said once above
        them rather than in a column on every row. The title stands in the first column, the one
        naming a row (``keys`` is 1): the terminal prints it on a row of its own, the group's rows
        indented under it, and a rule between groups; Markdown prints it in bold on a row of its
        own, HTML as a ``tbody``'s heading. A machine format cannot show a title over rows: such a
        section carries ``data``, in which every row says its group (CSV writes it).
    under : mapping of int to int
        Columns a terminal prints under another column's cell (column -> the column it goes
        under) where the table is too narrow for them side by side, its prose left narrower than
        it reads best at: a key's ``stability run`` flag under the key, the room of its column
        going to the meaning (:func:`stability.reporting.formats.table.stacked`). The cell stands
        on lines of its own, indented, under the other's text, its header likewise. Decided for
        all the tables of a report that have such columns together, so that a listing keeps one
        layout; the other formats show every column. Neither column may be prose or left out for
        width (``drop_order``), nor a column moved have one under it; a column moved is not a key
        column.
    brief_rows : int, optional
        The most rows a brief output shows, a terminal table or a notebook's output (a run
        failing on thousands of documents printed a row each of its Failures, thousands of lines
        over the report, and a notebook's cell grew as long): the rows :func:`brief_selection`
        chooses, then a note counting them and saying where they all are (:func:`brief`); the
        other formats show every row.
    brief_by : int, optional
        A column whose values share the brief rows (the segmenter of a failure): each value gets
        rows, in turn, however many rows another has before its first (:func:`brief_selection`);
        default: the first rows.
    all_rows_in : str
        Where a library user finds every row of a table cut to :attr:`brief_rows`
        (``"the result's .failures"``), named in the note under it in a notebook
        (:func:`stability.reporting.notebook_html`).
    """

    title: str
    header: Sequence[str] = ()
    rows: Sequence[Sequence[str]] = ()
    notes: Sequence[str] = ()
    align: str = ""
    data: tuple[Sequence[str], Sequence[Sequence[Any]]] | None = None
    detail: bool = False
    figures: Sequence[str] = ()
    text: str = ""
    drop_order: Sequence[int] = ()
    legend: Mapping[str, str] = field(default_factory=dict)
    groups: Sequence[tuple[str, int]] = ()
    collapsed: bool = False
    highlight: Mapping[str, str] = field(default_factory=dict)
    keys: int = 1
    footer: Sequence[Sequence[str]] = ()
    markup: Sequence[int] = ()
    prose: Mapping[int, int] = field(default_factory=dict)
    row_groups: Sequence[tuple[str, int]] = ()
    under: Mapping[int, int] = field(default_factory=dict)
    brief_rows: int | None = None
    brief_by: int | None = None
    all_rows_in: str = ""

    def __post_init__(self) -> None:
        if self.align and (len(self.align) != len(self.header) or set(self.align) - set(ALIGNMENTS)):
            raise InvalidParameterError.make(
                "align", f"one of the letters {ALIGNMENTS!r} per column ({len(self.header)})", self.align)
        if not 0 <= self.keys <= max(len(self.header), 1):
            raise InvalidParameterError.make("keys", f"a number of leading columns from 0 to {len(self.header)}",
                                             self.keys)
        if any(len(row) != len(self.header) for row in self.footer):
            raise InvalidParameterError.make("footer", f"rows of {len(self.header)} cells, one a column",
                                             [len(row) for row in self.footer])
        letters = self.alignment()
        if any(not (isinstance(i, int) and 0 <= i < len(self.header) and letters[i] == "l") for i in self.prose) or \
                any(not isinstance(w, int) or isinstance(w, bool) or w < 1 for w in self.prose.values()):
            raise InvalidParameterError.make(
                "prose", "a mapping of column indices (of left-aligned, wrapped columns: align 'l') to a width >= 1",
                dict(self.prose))
        if self.brief_rows is not None and (not isinstance(self.brief_rows, int) or
                                            isinstance(self.brief_rows, bool) or self.brief_rows < 1):
            raise InvalidParameterError.make("brief_rows", "None or a number of rows >= 1", self.brief_rows)
        if self.brief_by is not None and (not isinstance(self.brief_by, int) or isinstance(self.brief_by, bool)
                                          or not 0 <= self.brief_by < len(self.header)):
            raise InvalidParameterError.make("brief_by", f"None or a column index from 0 to {len(self.header) - 1}",
                                             self.brief_by)
        if self.groups and sum(span for _, span in self.groups) != len(self.header):
            raise InvalidParameterError.make("groups", f"spans adding up to {len(self.header)} columns",
                                             list(self.groups))
        if self.row_groups and (sum(span for _, span in self.row_groups) != len(self.rows)
                                or any(span < 1 for _, span in self.row_groups)):
            raise InvalidParameterError.make("row_groups", f"spans of at least one row adding up to {len(self.rows)} rows",
                                             list(self.row_groups))
        if self.row_groups and (self.keys != 1 or self.data is None):
            raise InvalidParameterError.make(
                "row_groups", "a section whose first column alone names its rows (keys=1: the titles stand in it, "
                "and HTML keeps only it in view) and with data (the rows as a machine format writes them, each "
                "saying its group)",
                f"keys={self.keys}, data={'given' if self.data is not None else None}")
        columns = range(len(self.header))
        if any(not (isinstance(j, int) and isinstance(i, int) and j in columns and i in columns and j != i
                    and j >= self.keys and i not in self.under and not {i, j} & {*self.prose, *self.drop_order})
               for j, i in self.under.items()):
            raise InvalidParameterError.make(
                "under", f"a mapping of column indices (0 to {len(self.header) - 1}) to the column each is printed "
                "under: neither of them prose nor in drop_order, the column moved not a key column, the one it goes "
                "under not moved itself", dict(self.under))

    def grouped(self, rows: Sequence[Sequence[Any]] | None = None) -> list[tuple[str, Sequence[Sequence[Any]]]]:
        """``rows`` (default: the section's) in their :attr:`row_groups`, each with its title; one
        group titled ``""`` holding them all for a section without groups.

        >>> Section("t", ["parameter", "default"], [["w", "20"], ["k", "10"], ["n", "3"]], data=([], []),
        ...         row_groups=[("texttiling", 2), ("even", 1)]).grouped()
        [('texttiling', [['w', '20'], ['k', '10']]), ('even', [['n', '3']])]
        """
        rows = self.rows if rows is None else rows
        if not self.row_groups:
            return [("", rows)]
        starts = [0, *itertools.accumulate(span for _, span in self.row_groups)]
        return [(title, rows[start:end]) for (title, _), start, end in zip(self.row_groups, starts, starts[1:])]

    @property
    def is_table(self) -> bool:
        return bool(self.header)

    def legend_line(self, shown: Sequence[str] | None = None) -> str:
        """``"A = meaning, B (note)."`` for the columns ``shown`` (default: all) that have one (a
        meaning in brackets follows the title); a header of several lines (a column printed under
        another's, :attr:`under`) is each line's title."""
        titles = [line.strip() for t in (self.header if shown is None else shown) for line in str(t).splitlines()]
        parts = [f"{t} {self.legend[t]}" if self.legend[t].startswith("(") else f"{t} = {self.legend[t]}"
                 for t in titles if t in self.legend]
        return f"Columns: {', '.join(parts)}." if parts else ""

    def alignment(self) -> str:
        """The alignment letters, with the default filled in."""
        return self.align or ("L" + "r" * (len(self.header) - 1) if self.header else "")


def brief_selection(section: Section) -> list[int]:
    """The rows (their indices, in the table's order) that a brief output shows of ``section``:
    every row when it has at most :attr:`~Section.brief_rows`; else, without
    :attr:`~Section.brief_by`, the first ``brief_rows``; with it, the rows shared among the values
    of that column (the segmenters of the Failures table): each value in turn, in the order the
    rows first name them, takes its next row, until ``brief_rows`` are taken, so that a
    segmenter failing once is shown beside one failing on thousands of documents. Each value gets
    at least its first row: with more values than ``brief_rows``, one row each is shown (a grid of
    50 segmenters, each failing: 50 rows, as many as the summary's). The rows shown keep the
    table's order, each value's its own (document order).

    >>> s = Section("Failures", ["segmenter", "document"], [["a", "d1"], ["a", "d2"], ["a", "d3"], ["b", "d3"]],
    ...             brief_rows=2, brief_by=0)
    >>> brief_selection(s), brief_selection(dataclasses.replace(s, brief_by=None))
    ([0, 3], [0, 1])
    >>> brief_selection(dataclasses.replace(s, brief_rows=1))  # two segmenters: one row each
    [0, 3]
    """
    total, cap = len(section.rows), section.brief_rows
    if cap is None or total <= cap:
        return list(range(total))
    if section.brief_by is None:
        return list(range(cap))
    rows_of: dict[str, list[int]] = {}
    for i, row in enumerate(section.rows):
        rows_of.setdefault(str(row[section.brief_by]), []).append(i)
    cap = max(cap, len(rows_of))
    shown: list[int] = []
    depth = 0
    while len(shown) < cap:  # each value's next row, in turn (cap <= total: it ends)
        shown += [rows[depth] for rows in rows_of.values() if depth < len(rows)][:cap - len(shown)]
        depth += 1
    return sorted(shown)


def only_rows(section: Section, indices: Sequence[int]) -> Section:
    """``section`` with the rows of ``indices`` only (in increasing order), its row groups cut to
    them (a group without any left out, the others counting theirs); its ``data`` (the rows a
    machine format writes, never a brief output's) left whole.

    >>> s = Section("t", ["a"], [["x"], ["y"], ["z"]], keys=1, data=(["g", "a"], []),
    ...             row_groups=[("one", 2), ("two", 1)])
    >>> cut = only_rows(s, [1, 2])
    >>> cut.rows, list(cut.row_groups)
    ([['y'], ['z']], [('one', 1), ('two', 1)])
    """
    starts = [0, *itertools.accumulate(span for _, span in section.row_groups)]
    groups = [(title, sum(start <= i < end for i in indices))
              for (title, _), start, end in zip(section.row_groups, starts, starts[1:])]
    return dataclasses.replace(section, rows=[section.rows[i] for i in indices],
                               row_groups=[(title, span) for title, span in groups if span])


def brief(section: Section, lists_all: str) -> Section:
    """``section`` as a brief output (the terminal, a notebook) shows it: the rows of
    :func:`brief_selection`, and a note saying which they are, of how many, and (``lists_all``)
    what lists them all; ``section`` itself when it has no more than
    :attr:`~Section.brief_rows`.

    >>> s = Section("Failures", ["segmenter", "document"], [["a", "d1"], ["a", "d2"], ["a", "d3"], ["b", "d3"]],
    ...             brief_rows=2, brief_by=0)
    >>> print(brief(s, "md lists them all").notes[-1])
    2 of 4 rows are shown, shared among the segmenters: each one's first rows (md lists them all).
    >>> print(brief(dataclasses.replace(s, brief_by=None), "md lists them all").notes[-1])
    The first 2 of 4 rows are shown (md lists them all).
    """
    shown = brief_selection(section)
    total = len(section.rows)
    if len(shown) == total:
        return section
    which = f"The first {len(shown)} of {total} rows are shown"
    by = section.brief_by
    if by is not None and len({str(row[by]) for row in section.rows}) > 1:  # of one value: its first rows
        which = f"{len(shown)} of {total} rows are shown, shared among the {section.header[by]}s: each one's first rows"
    return dataclasses.replace(only_rows(section, shown), notes=[*section.notes, f"{which} ({lists_all})."])


@dataclass(frozen=True)
class Report:
    """A rendered command result: title, result line, lead paragraphs, blocks, JSON payload.

    ``result`` is the one-line answer shown above everything else (a run's ranked headline);
    ``payload`` is what the JSON format writes (the complete, machine-readable result), or a
    function of no argument returning it, called only when JSON is written (:meth:`json_payload`;
    a large run's payload costs more than its terminal table); without one JSON carries the
    tables themselves. ``data`` is the whole result as one table with raw values
    (header, rows), for a report whose sections split one table (CSV writes it instead of the
    first section).
    """

    title: str
    sections: Sequence[Section] = ()
    lead: Sequence[str] = ()
    payload: Any = None
    result: str = ""
    data: Any = None

    def json_payload(self) -> Any:
        """The payload, computed now when it was given as a function."""
        return self.payload() if callable(self.payload) else self.payload

    def tables(self, details: bool) -> list[Section]:
        """The table blocks to show: the per-item ones only when ``details`` is true."""
        return [s for s in self.sections if s.is_table and (details or not s.detail)]


def raw(value: Any, whole: bool = False) -> str:
    """A value as CSV writes it: at full precision (``repr``), a ``whole`` measure's value as an
    integer (``3``, not ``3.0``), empty when not computed (``None``, NaN).

    >>> raw(0.25), raw(3.0), raw(3.0, whole=True), raw(float("nan")), raw(None)
    ('0.25', '3.0', '3', '', '')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    value = float(value)
    return str(int(value)) if whole and value.is_integer() else repr(value)


def number(x: Any, digits: int = 3, *, zero_sign: bool = False) -> str:
    """A number with ``digits`` decimals, ``n/a`` for None and NaN; a value that rounds to zero
    shows no sign unless ``zero_sign`` (``-0.000``: below zero, as the study reports print it).

    >>> number(0.12345), number(float("nan")), number(2, 0), number(-0.0004), number(-0.0004, zero_sign=True)
    ('0.123', 'n/a', '2', '0.000', '-0.000')
    """
    if x is None:
        return "n/a"
    x = float(x)
    if math.isnan(x):
        return "n/a"
    return f"{x if zero_sign else round(x, digits) + 0.0:.{digits}f}"


def clock(seconds: float) -> str:
    """A time in seconds as a transcript's reader says it: ``m:ss``, or ``h:mm:ss`` from an hour
    (whole seconds, rounded toward zero: the second the boundary falls in), a negative time with
    its sign.

    >>> clock(0.0), clock(751.9), clock(3725.0), clock(-61.5)
    ('0:00', '12:31', '1:02:05', '-1:01')
    """
    whole = int(seconds)
    if whole < 0:
        return "-" + clock(-whole)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def mean_std(stat: Any, digits: int = 2) -> str:
    """``"mean (std)"`` of a :class:`~stability.results.Stat` (``n/a`` when it has no values)."""
    if stat is None or stat.n == 0:
        return "n/a"
    return f"{number(stat.mean, digits)} ({number(stat.std, digits)})"


def md_text(text: str) -> str:
    """Markdown text in which raw HTML shows as text: ``&`` and ``<`` as entities (no tag or entity
    can start without them; ``>`` stays readable, as in ``a > b``).

    >>> md_text("c99 0.8 > tt 0.2 <b>&")
    'c99 0.8 > tt 0.2 &lt;b>&amp;'
    """
    return str(text).replace("&", "&amp;").replace("<", "&lt;")


#: A line end in Markdown: ``\n``, ``\r\n`` or a lone ``\r``.
_LINE_END = re.compile(r"\r\n?|\n")


def _cell_line(markdown: str) -> str:
    """Markdown made a table cell: ``|`` escaped, on one line (a line ends at ``\\n``, ``\\r\\n`` or a
    lone ``\\r`` in Markdown: a ``\\r`` left in a cell ended its row there).

    >>> _cell_line("a|b\\r\\nc\\rd")
    'a\\\\|b c d'
    """
    return _LINE_END.sub(" ", markdown.replace("|", "\\|"))


def _md_escape(text: str) -> str:
    """A Markdown cell of text: raw HTML shown as text (:func:`md_text`), on one line (:func:`_cell_line`)."""
    return _cell_line(md_text(text))


#: A Markdown code span: a run of backticks, what it holds, the same run closing it.
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def md_source(text: str) -> str:
    """A Markdown cell written in Markdown (:attr:`Section.markup`): its code spans kept as code,
    raw HTML outside them shown as text (:func:`md_text`; inside a code span an entity would show
    as written), ``|`` escaped, one line.

    >>> print(md_source("see `read_wiki`: report.<format>, `<v Alice>` or `a|b`"))
    see `read_wiki`: report.&lt;format>, `<v Alice>` or `a\\|b`
    """
    parts, start = [], 0
    for span in _CODE_SPAN.finditer(text):
        parts += [md_text(text[start:span.start()]), span.group(0)]
        start = span.end()
    parts.append(md_text(text[start:]))
    return _cell_line("".join(parts))


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]], align: str = "",
                   markup: Sequence[int] = ()) -> str:
    """A GitHub-flavoured Markdown table (``|`` in cells escaped); ``align`` as in :class:`Section`
    (default: first column left, the others right); the columns ``markup`` hold Markdown
    (:func:`md_source`), the others text."""
    letters = align or "l" + "r" * (len(header) - 1)
    lines = ["| " + " | ".join(_md_escape(h) for h in header) + " |",
             "|" + "|".join("---" if a in "lL" else "---:" for a in letters) + "|"]
    lines += ["| " + " | ".join(md_source(str(c)) if i in markup else _md_escape(c) for i, c in enumerate(row)) + " |"
              for row in rows]
    return "\n".join(lines)


def reader_flag(key: str) -> str:
    """The command-line flag of a corpus reader's option: ``--time-unit`` for ``time_unit``,
    ``--corpus-format`` for ``format``."""
    return "--corpus-format" if key == "format" else "--" + key.replace("_", "-")


@dataclass(frozen=True)
class Spelling:
    """How a report's notes name what would show more of it, in the words of whoever asked for it:
    a command line's flags, or the keyword arguments of :func:`stability.reporting.render` and
    :func:`stability.evaluate` for a caller in Python (a notebook), who has no ``--width`` to give.
    Each note reads the spelling in force (:func:`spelling`), as does a message of the library that
    names a call to make next (a report to render again); the two are :data:`PYTHON` (the
    default) and :data:`COMMAND_LINE`, which the ``stability`` command puts in force while it runs
    (:func:`spelled`). An error naming a keyword says ``keyword=`` instead, which the command line
    rewrites as its flag (:mod:`stability.userwords`)."""

    #: What shows the columns a table left out for width ``{needed}`` (the width they need).
    wider: str
    #: The formats that list every row of a table cut to its first rows.
    every_row: str
    #: What shows every column of the summary table, and the per-document table.
    all_columns: str
    documents: str
    #: The reference metrics ``{names}`` shown (comma-separated catalogue names or aliases).
    metrics: str
    layout_control: str
    #: What adds references to a finished run (a file ``{file}`` of them), and so the Kendall tau table.
    add_references: str
    #: What runs a segmenter by its registered name (the list of ``stability segmenters``).
    by_name: str
    #: How a segmenter's parameters are given, a sequence among them, and a grid of values to try
    #: (the note under the parameters table of the list of segmenters).
    parameters: str
    #: What lists segmenter ``{name}`` with its parameters and what they mean: a registered name,
    #: and a ``module:attribute`` (which the command line imports only when told it may).
    describe: str
    describe_plugin: str
    #: What renders the reports of the run whose output folder is ``{out}`` again.
    report_again: str

    def say(self, field_name: str, **values: str) -> str:
        """The spelling ``field_name`` with its ``values`` filled in.

        >>> PYTHON.say("metrics", names="pk,wd"), COMMAND_LINE.say("metrics", names="pk,wd")
        ('metrics="pk,wd"', '--metrics pk,wd')
        """
        return str(getattr(self, field_name)).format(**values)


PYTHON = Spelling(
    wider="render(..., width={needed}) shows them, as does another format",
    every_row='stability.reporting.render(result, "html") or "md"',
    all_columns="compact=False", documents="documents=True", metrics='metrics="{names}"',
    layout_control="layout_control=True", add_references='stability.scoring.add_references(result, "{file}")',
    by_name="get_segmenter(NAME)",
    parameters='A parameter is given by keyword (stability.get_segmenter("NAME", key=[1, 2])), a parameter\'s '
               'values to try as a grid with stability.grid("NAME", {"key": [1, 2]})',
    describe='stability.reporting.render(stability.registry.describe_segmenters(["{name}"]))',
    describe_plugin='stability.reporting.render(stability.registry.describe_segmenters(["{name}"]))',
    report_again='stability.reporting.render(stability.store.load_results("{out}"))')
COMMAND_LINE = Spelling(
    wider="wider terminal, --width, or another report format",
    every_row="--report-format md or html",
    all_columns="--columns all", documents="--documents", metrics="--metrics {names}",
    layout_control="--layout-control", add_references="stability report OUT --references {file}",
    by_name="--segmenter NAME",
    parameters="A sequence is given as a TOML array (-s 'NAME,key=[1, 2]'), a parameter's values to try as a grid "
               "(-s 'NAME,grid={key=[1, 2]}')",
    describe="stability segmenters {name}", describe_plugin="stability segmenters {name} --allow-plugins",
    report_again="stability report {out}")

_SPELLING: contextvars.ContextVar[Spelling] = contextvars.ContextVar("stability_report_spelling", default=PYTHON)


def spelling() -> Spelling:
    """The :class:`Spelling` the notes of the reports rendered now use."""
    return _SPELLING.get()


@contextlib.contextmanager
def spelled(words: Spelling) -> Iterator[None]:
    """Reports rendered inside this block name their options as ``words`` does, then as before.

    >>> with spelled(COMMAND_LINE):
    ...     print(spelling().documents)
    --documents
    >>> print(spelling().documents)
    documents=True
    """
    token = _SPELLING.set(words)
    try:
        yield
    finally:
        _SPELLING.reset(token)
