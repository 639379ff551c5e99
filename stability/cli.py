"""The ``stability`` command line: parse, call one library function, render.

Data goes to stdout, messages to stderr. Exit codes (:data:`EXIT_CODES`): 0 success, 1 an error
of ours (one line, no traceback unless ``--debug``), 2 a usage error, 3 a run that completed but in
which some segmenter failed on some document (the failures are in the report and on stderr).

One vocabulary across commands: ``--corpus-format`` is the format of the input corpus,
``--report-format`` the format of what is printed, ``--out`` always a directory, ``--output``
always a file, ``--metrics`` the reference metrics shown (catalogue names or aliases). Older
spellings (``--format``/``-f``, ``--report``, ``--k``) still work, hidden from ``--help``.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import shlex
import warnings
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

import typer

from . import __version__, completion
from ._entry import NOTHING_YET
from .readers import FORMATS
from .reporting.formats.table import message_lines, unbroken
from .settings import BACKENDS, CI_SCORES

completion.use_bash_script()

if TYPE_CHECKING:
    from .userwords import Words

#: Exit codes of every command.
EXIT_CODES = {0: "success", 1: "an error (one line on stderr), a value the run refuses included",
              2: "a usage error the parser finds (an unknown option, a missing or ill-typed value)",
              3: "the run completed but some segmenter failed on some document"}
EPILOG = "Exit codes: " + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES.items()) + "."

app = typer.Typer(
    name="stability",
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Evaluate text segmenters without references (stability test), beside the reference metrics.",
    epilog=EPILOG,
)


class _Refused(typer.BadParameter):
    """A value the parser refuses, said in the words of the check that refused it (which name the
    option), without click's ``Invalid value for '--x':`` before them."""

    def format_message(self) -> str:
        return self.message


def choice_option(flags: str | tuple[str, ...], choices: Iterable[str | None] | Callable[[], Iterable[str | None]], *,
                  metavar: str | None = None, aliases: Callable[[], Mapping[str, str]] | None = None,
                  **option: Any) -> Any:
    """The ``typer.Option`` of an option taking one of ``choices``, checked as the parser reads it
    by the one rule of choices, :func:`stability.checks.check_choice`: a value outside them is a
    usage error (exit 2) listing them and naming the closest spelling (``--columns some``: ``did
    you mean 'compact'?``), in the words the library's own refusals use (``--unit``, a config
    file's keys); the shell completes them.

    Parameters
    ----------
    flags : str or tuple of str
        The option's flag (``--columns``), which the message names, or its flags (``("--format", "-f")``),
        the first named.
    choices : iterable of str or None, or a callable returning them
        The values accepted, read from their declaration (e.g. :data:`stability.settings.BACKENDS`;
        ``None``, a setting left out, is not typed); a callable is asked each time (the report
        formats: a format module added after this module was imported counts).
    metavar : str, optional
        What ``--help`` shows after the flag (default: the choices, ``<compact|all>``).
    aliases : callable, optional
        Other spellings accepted, each read as its choice (``markdown`` for the report format ``md``).
    **option
        The other keywords of ``typer.Option`` (``help``, ``hidden``, ``rich_help_panel``...).
    """
    from .checks import check_choice
    from .exceptions import InvalidParameterError

    declared = (flags,) if isinstance(flags, str) else flags
    flag = declared[0]
    def accepted() -> tuple[str, ...]:
        return tuple(choice for choice in (choices() if callable(choices) else choices) if choice is not None)

    def check(value: Optional[str]) -> Optional[str]:
        if value is None:
            return None
        if aliases is not None:
            value = aliases().get(value, value)
        try:
            return check_choice(value, flag, accepted())
        except InvalidParameterError as exc:
            raise _Refused(str(exc)) from None

    def complete(incomplete: str) -> list[str]:
        return [choice for choice in accepted() if choice.startswith(incomplete)]

    setattr(check, "choices", accepted)  # what option_choices reads
    option.setdefault("autocompletion", complete)
    return typer.Option(*declared, callback=check, metavar=metavar or f"<{'|'.join(accepted())}>", **option)


def option_choices(param: Any) -> tuple[str, ...]:
    """The values a command's option (a click parameter) takes when declared by
    :func:`choice_option`; ``()`` for any other."""
    import inspect

    callback = getattr(param, "callback", None)
    accepted = getattr(inspect.unwrap(callback), "choices", None) if callback is not None else None
    return accepted() if accepted is not None else ()


def _report_formats() -> tuple[str, ...]:
    """The report formats the reporting package provides (``--report-format`` and its older spellings)."""
    from .reporting import formats_available

    return formats_available()


def _report_format_aliases() -> dict[str, str]:
    from .reporting import format_aliases

    return format_aliases()


def _format_names() -> str:
    return ", ".join(_report_formats())


def _metric_list(value: Optional[str]) -> Optional[list[str]]:
    """``pk,wd,b`` as catalogue names (aliases accepted); unknown names are a usage error."""
    if value is None:
        return None
    from .catalogue import reference_measure
    from .exceptions import InvalidParameterError

    try:
        names = [reference_measure(name.strip()).name for name in value.split(",") if name.strip()]
    except InvalidParameterError as exc:
        raise typer.BadParameter(str(exc)) from None
    if not names:  # an empty value (an unset shell variable, say) would show no metric at all
        raise typer.BadParameter(f"expected one or more metric names or aliases, e.g. pk,wd,b; received {value!r}")
    return names


class Columns(str, Enum):
    compact = "compact"
    all = "all"


#: The panels of ``--help`` (each its own table, so that at 80 columns a long flag of one, such as
#: ``--no-layout-control``, does not squeeze the help of forty options into one narrow column).
SEGMENTERS_PANEL, CORPUS_PANEL, TEST_PANEL = "Segmenters", "Corpus", "Stability test"
CONTROLS_PANEL, EXECUTION_PANEL = "Adaptive stopping and controls", "Execution"
RESULTS_PANEL, REPORT_PANEL = "Results folder", "Report"

#: The options every printing command shares (the report format's names come from stability.reporting).
ReportFormatOption = Annotated[Optional[str], choice_option(
    "--report-format", _report_formats, aliases=_report_format_aliases, metavar="<format>", autocompletion=completion.report_format_values, rich_help_panel=REPORT_PANEL, help=f"Report format: {_format_names()} (default table).")]
def _min_width() -> int:
    from .reporting.formats.table import MIN_WIDTH

    return MIN_WIDTH


WidthOption = Annotated[Optional[int], typer.Option(
    "--width", min=_min_width(), rich_help_panel=REPORT_PANEL, help="Terminal width for the table format, and for messages on stderr on a terminal (default: detected; set it for files and CI).")]
ColumnsOption = Annotated[Optional[str], choice_option(
    "--columns", [member.value for member in Columns], rich_help_panel=REPORT_PANEL, help="compact: what fits the terminal (the table's default); all: every column.")]
MetricsOption = Annotated[Optional[str], typer.Option(
    "--metrics", callback=_metric_list, autocompletion=completion.metric_values, rich_help_panel=REPORT_PANEL, help="Reference metrics to show, comma-separated names or aliases (e.g. pk,wd,b).")]
DocumentsOption = Annotated[bool, typer.Option(
    "--documents", rich_help_panel=REPORT_PANEL, help="The per-document table: after the segmenters' in the terminal table; instead of them in CSV (one table a file; a run's --out has both, report.csv and documents.csv). Markdown and HTML always have it.")]
#: The help of ``--progress/--no-progress`` (``run`` and ``validate``); the plain line's interval is
#: :data:`stability.engine.LINE_EVERY` (not imported here: the engine would load joblib for ``--help``).
PROGRESS_HELP = ("Progress on stderr: a bar on a terminal (the default there); --progress elsewhere (a CI log) prints "
                 "a plain line every 10 s.")
#: The corpus reader's options `run` reads its corpus with, and `report -R` its references (a
#: transcript read with --unit sentence has its references read so too).
CorpusFormatOption = Annotated[Optional[str], typer.Option("--corpus-format", metavar="<format>", autocompletion=completion.corpus_format_values, help=f"Corpus format: {', '.join(FORMATS)} (default: detected).", rich_help_panel=CORPUS_PANEL)]
PatternOption = Annotated[Optional[str], typer.Option("--pattern", help="Corpus folders: the glob of the files to read, e.g. '*.ref' (default: the format's).", rich_help_panel=CORPUS_PANEL)]
EncodingOption = Annotated[Optional[str], typer.Option("--encoding", help="Text encoding of the corpus files (default utf-8, strict).", rich_help_panel=CORPUS_PANEL)]
LevelsOption = Annotated[Optional[str], typer.Option("--levels", help="Wiki, Markdown and HTML corpora: header or heading levels that count as boundaries, e.g. '1,2' or '1-2'.", rich_help_panel=CORPUS_PANEL)]
UnitOption = Annotated[Optional[str], typer.Option("--unit", metavar="<unit>", help="Plain-text corpora: sentence, paragraph or line; Markdown and HTML corpora: paragraph or sentence; caption corpora (.vtt, .srt): cue or sentence (the sentences of each speaker turn); Whisper JSON: segment or sentence (likewise); CSV/TSV: row or sentence (likewise).", rich_help_panel=CORPUS_PANEL)]
SplitterOption = Annotated[Optional[str], typer.Option("--splitter", metavar="<splitter>", help="Plain-text, Markdown, HTML, caption, Whisper JSON and CSV/TSV corpora cut into sentences: auto (Punkt trained on the corpus when large enough, else rules), rules, punkt, punkt_untrained, pysbd (extra sbd).", rich_help_panel=CORPUS_PANEL)]
SpeakersOption = Annotated[Optional[str], typer.Option("--speakers", help="Caption corpora (.vtt, .srt) and CSV/TSV ones with a speaker column: the speakers' names (WebVTT voices, <v Alice>; the speaker column's) kept in the documents' meta only (meta, the default) or also before the text they introduce, 'Alice: Hello.' (prefix).", rich_help_panel=CORPUS_PANEL)]
TimeUnitOption = Annotated[Optional[str], typer.Option("--time-unit", help="CSV/TSV corpora: the unit of the start and end columns, s or ms (default: seconds, except Whisper's TSV output, header start/end/text with integer times, read in milliseconds with a note).", rich_help_panel=CORPUS_PANEL)]
#: Hidden spelling of --report-format kept from earlier releases.
OldReportOption = Annotated[Optional[str], choice_option(
    "--report", _report_formats, aliases=_report_format_aliases, hidden=True)]


def _print_report(result: object, report_format: Optional[str], *, width: Optional[int] = None,
                  columns: Optional[str] = None, metrics: Optional[str | Sequence[str]] = None,
                  documents: Optional[bool] = None, output: Optional[Path] = None,
                  rerun: Optional[str] = None) -> None:
    """Render ``result`` with the reporting package; print it, or write it to ``output`` (then a
    table's note on columns left out for width names ``rerun``, the command rendering it again)."""
    from .reporting import render, write_whole
    from .status import colored

    styled = output is None and colored(sys.stdout)  # a terminal's, FORCE_COLOR's, never NO_COLOR's
    options: dict[str, Any] = {"width": width, "color": styled} if (report_format or "table") == "table" else {}
    if options and output is not None and rerun is not None:
        options["rerun"] = rerun
    text = render(result, report_format or "table", documents=documents, metrics=metrics,
                  compact=None if columns is None else columns == Columns.compact.value, **options)
    if output is None:
        # one line end, never a blank line after the report; click would strip FORCE_COLOR's styles off a pipe
        typer.echo(text, nl=not text.endswith("\n"), color=True if styled else None)
    else:
        write_whole(output, text)
        _err(f"report written to {unbroken(output)}")


#: ``--backend``: the backends a run accepts (:data:`stability.settings.BACKENDS`, ``None`` left out),
#: named in its help: in a metavar (``<loky|threading|...>``) rich cut ``sequential`` in two at 80 columns.
BACKEND_CHOICES = tuple(name for name in BACKENDS if name)


#: The running command's ``--width`` (set by :func:`_errors`), which its messages wrap to too.
_WIDTH: contextvars.ContextVar[int | None] = contextvars.ContextVar("width", default=None)


def _err(message: str) -> None:
    """A message on stderr, wrapped to :func:`_message_width` at its blanks (never inside a path
    :func:`~stability.reporting.formats.table.unbroken` marks, an option or a command in backticks)."""
    width = _message_width(sys.stderr)
    typer.echo(message_lines(message if width is None else _paths_kept(message), width), err=True)


def _paths_kept(message: str) -> str:
    """``message`` with each path it names that holds blanks and exists (a corpus folder named in a
    reader's warning: ``my pages: pages of 2 formats``) kept whole by :func:`_err`'s wrapping."""
    words = message.split(" ")
    i = 0
    while i < len(words):
        if "/" in words[i] or os.sep in words[i]:  # the longest run of words from here that is a path
            end = next((j for j in range(min(len(words), i + 8), i + 1, -1)
                        if os.path.exists(" ".join(words[i:j]).rstrip(":;,.)'\""))), i + 1)
            words[i:end] = [unbroken(" ".join(words[i:end]))]
        i += 1
    return " ".join(words)


def _message_width(stream: Any) -> int | None:
    """The width of a message on ``stream`` (stderr; stdout for validate's result line) on a terminal (:func:`_on_terminal`): the running
    command's ``--width``, else the terminal's as the report's table detects it (``COLUMNS``, else
    the terminal's size), so that a warning at 80 columns no longer runs past the edge. ``None``
    (not wrapped) where stderr is a pipe or a file: a message stays one line there, for a log's
    grep and a script reading the error (:data:`EXIT_CODES`)."""
    if not _on_terminal(stream):
        return None
    if _WIDTH.get() is not None:
        return _WIDTH.get()
    from rich.console import Console

    return Console(file=stream).width


def _on_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal."""
    return bool(stream.isatty())


def _finished(out_dir: str) -> int:
    """The (segmenter, document) pairs the results file in ``out_dir`` holds (0 if none can be read)."""
    from .exceptions import StabilityError
    from .store import RESULTS_FILE, count_pairs

    try:
        return count_pairs(Path(out_dir) / RESULTS_FILE)
    except (StabilityError, OSError):
        return 0


def _saved(out_dir: str | None, complete: bool = False, wrote: bool = True) -> str:
    """What an interrupted run left on disk, in words (``complete``: every pair had finished, the
    interrupt came while the reports were written; ``wrote`` false: the run had not written to
    its results file yet, whose pairs are an earlier run's). A second interrupt while the pairs are
    counted (an impatient Ctrl-C, a CI runner's second SIGTERM) leaves the count out, not the
    message."""
    from .isolation import interruptible
    from .store import RESULTS_FILE

    if out_dir is None:
        return "nothing was saved (no output directory; give --out to keep results and resume)"
    path = unbroken(Path(out_dir) / RESULTS_FILE)
    write = f"write the reports with `stability report {shlex.quote(out_dir)}`"
    try:
        with interruptible():
            finished = _finished(out_dir)
    except KeyboardInterrupt:
        return (f"the finished (segmenter, document) pairs are in {path}; "
                + (write if complete else "rerun with --resume to continue"))
    if finished == 0:
        return f"no (segmenter, document) pair was finished, {path} holds no results"
    if complete:
        return f"the results are complete ({finished} finished (segmenter, document) pair(s) in {path}); {write}"
    if not wrote:  # an --overwrite run stopped before it replaced the file: nothing there is its own
        return (f"this run had not written to {path} yet: it holds an earlier run's {finished} finished "
                "(segmenter, document) pair(s), unchanged")
    return f"{finished} finished (segmenter, document) pair(s) are in {path}; rerun with --resume to continue"


def _study_saved(out: str | None) -> str:
    """What an interrupted validation study left in its results folder ``out`` (one results
    file, or one a corpus), in words."""
    from .store import RESULTS_FILE

    if out is None:
        return "nothing was computed yet"
    files = [Path(out) / RESULTS_FILE, *sorted(Path(out).glob(f"*/{RESULTS_FILE}"))]
    finished = sum(_finished(str(file.parent)) for file in files if file.is_file())
    if finished == 0:
        return f"no (configuration, document) pair was finished; nothing is cached in {unbroken(out)}"
    return (f"{finished} finished (configuration, document) pair(s) are cached in {unbroken(out)}; rerun the same command to "
            "continue (the study resumes from them)")


def _warning_printer(ctx: typer.Context) -> Callable[..., None]:
    """Warnings during a command: one ``warning:`` line on stderr, without the source line, in
    the user's words (``--jobs 64 is beyond ...``)."""
    words: list[Words] = []  # built at the first warning (it reads the config files), then kept

    def show(message: Warning | str, *args: object, **kwargs: object) -> None:
        if not words:
            words.append(_words(ctx))
        _err(f"warning: {words[0].say(str(message))}")

    return show


def _words(ctx: typer.Context) -> "Words":
    """How the running command says the library's keywords: the flags it declares (each
    parameter's Python name is the library keyword it feeds, ``--out`` aside: evaluate's ``output=``;
    ``old_<name>`` is a hidden older spelling of the same), except a value read from its config file(s), said as the file's table
    and key unless the flag was typed too."""
    from .userwords import Words, config_keys

    flags, typed = {}, set()
    for param in ctx.command.params:
        if param.name is None:
            continue
        if param.param_type_name == "option" and not getattr(param, "hidden", False):
            flags[param.name] = max(param.opts, key=len)
        source = ctx.get_parameter_source(param.name)
        if source is not None and source.name == "COMMANDLINE":
            typed.add(param.name.removeprefix("old_"))
    if "out" in flags:  # --out gives the folder of the results file, evaluate's output=
        flags["output"] = flags["out"]
    config = ctx.params.get("config")
    paths = [] if config is None else list(config) if isinstance(config, (list, tuple)) else [config]
    keys = {key: where for key, where in config_keys(paths).items() if key not in typed}
    import inspect

    from .readers import read_corpus

    # the reader's keywords this command has no flag for: a command reading a config file says them
    # as its corpus table's keys, another leaves hints naming them out
    flagless = frozenset(inspect.signature(read_corpus).parameters) - set(flags) - set(keys)
    table = "[corpus.NAME]" if ctx.command.name == "validate" else "[corpus]"
    settable = dict.fromkeys(flagless, table) if "config" in ctx.params else {}
    # a resume refused says how to start afresh (output=, overwrite=): a command without the flag
    # (validate, which always resumes its cache) leaves that out
    unsaid = flagless - set(settable) | ({"output", "resume", "overwrite"} - set(flags) - set(keys))
    return Words({name: flag for name, flag in flags.items() if name in typed or name not in keys}, keys,
                 frozenset(unsaid), settable)


def _os_message(exc: OSError) -> str:
    """An operating-system error as a user reads it: what failed and on which path, without
    Python's ``[Errno 2]``."""
    names = " -> ".join(repr(str(name)) for name in (exc.filename, exc.filename2) if name is not None)
    if not exc.strerror:
        return str(exc)
    return f"{exc.strerror}: {names}" if names else exc.strerror


#: What an OSError says when a folder cannot be made or written by this user where it is (not a
#: full disk or an I/O error, which another folder on the same disk would meet too).
_FOLDER_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.ENOENT, errno.ENOTDIR, errno.EROFS})


def _about_folder(exc: OSError, folder: str | None) -> bool:
    """Whether ``exc`` is a folder that cannot be made or written (:data:`_FOLDER_ERRNOS`) on
    ``folder``, on a folder above it (made with it) or on a file in it."""
    if folder is None or exc.errno not in _FOLDER_ERRNOS or not isinstance(exc.filename, (str, os.PathLike)):
        return False
    failed, mine = Path(os.path.abspath(exc.filename)), Path(os.path.abspath(folder))
    return failed == mine or failed in mine.parents or mine in failed.parents


def _results_stamp(out_dir: str | None) -> tuple[int, int, int] | None:
    """The results file of ``out_dir`` as the file system knows it (inode, size, modification
    time), or ``None`` when there is none: a run that wrote to it changed it."""
    from .store import RESULTS_FILE

    if out_dir is None:
        return None
    try:
        status = (Path(out_dir) / RESULTS_FILE).stat()
    except OSError:
        return None
    return status.st_ino, status.st_size, status.st_mtime_ns


def _kept(exc: BaseException, out_dir: str | None, complete: bool, wrote: bool = True) -> str:
    """For an error that stopped a run from outside the segmenters (a corpus file gone or
    malformed, a report that could not be written): what the run's results file keeps, as a clause
    to append, or ``""`` (no results, the error is the results file's own and says so, or the run
    had not written to it: ``wrote`` false, the pairs there are an earlier run's)."""
    from .exceptions import CorpusFormatError
    from .store import ResultsWriteError

    if (out_dir is None or not wrote or isinstance(exc, ResultsWriteError)
            or not isinstance(exc, (OSError, CorpusFormatError))):
        return ""
    return f"; {_saved(out_dir, complete)}" if _finished(out_dir) else ""


@contextlib.contextmanager
def _errors(debug: bool, ctx: typer.Context, out_dir: Callable[[], str | None] = lambda: None,
            complete: Callable[[], bool] = lambda: False,
            saved: Callable[[], str] | None = None, wrote: Callable[[], bool] = lambda: True) -> Iterator[None]:
    """Our errors become one message on stderr (one line, wrapped on a terminal: :func:`_err`) and exit code 1 (a traceback with --debug); an
    interrupt (SIGINT: 130, SIGTERM: 143, SIGHUP: 129), or an error of a file or the corpus during a run
    (``wrote()``: the run had written to its results file), says what ``out_dir()`` holds
    (complete results when ``complete()``: every pair had finished), or what ``saved()`` says (a
    study's folders). Reports rendered inside name their options as flags (``--width``), not as
    the keyword arguments of ``render`` (:data:`~stability.reporting.model.COMMAND_LINE`)."""
    import signal

    from .exceptions import StabilityError
    from .isolation import interrupted, interruptible
    from .reporting.model import COMMAND_LINE, spelled

    width = _WIDTH.set(given if isinstance(given := ctx.params.get("width"), int) else None)
    try:
        with interruptible(), warnings.catch_warnings(), spelled(COMMAND_LINE):
            warnings.showwarning = _warning_printer(ctx)
            yield
    except (StabilityError, OSError) as exc:
        if debug:
            raise
        message = str(exc) if isinstance(exc, StabilityError) else _os_message(exc)
        message = message.splitlines()[0] if message else type(exc).__name__
        if isinstance(exc, OSError) and _about_folder(exc, out_dir()):
            message = (f"the results folder {out_dir()!r} cannot be made or written: {message}; give --out (or "
                       "[output] dir) a folder this user can write")
        _err(f"error: {_words(ctx).say(message, getattr(exc, 'parameter', None))}{_kept(exc, out_dir(), complete(), wrote())}")
        raise typer.Exit(code=1) from None
    except KeyboardInterrupt:
        global _INTERRUPT_SAID
        code = 128 + (interrupted() or signal.SIGINT)  # 130 SIGINT, 143 SIGTERM, 129 SIGHUP; read before _saved listens
        _err(f"interrupted: {saved() if saved is not None else _saved(out_dir(), complete(), wrote())}")
        _INTERRUPT_SAID = True
        raise typer.Exit(code=code) from None
    finally:
        _WIDTH.reset(width)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"stability {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: Annotated[
        Optional[bool], typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = None,
) -> None:
    """Evaluate text segmenters without references, beside the reference metrics."""


Debug = Annotated[bool, typer.Option("--debug", help="Show tracebacks.")]


@app.command()
def run(
    ctx: typer.Context,
    config: Annotated[Optional[Path], typer.Argument(help="TOML experiment file (default: the built-in demo).", callback=lambda v: v and _experiment_file(v))] = None,
    segmenters: Annotated[Optional[list[str]], typer.Option("--segmenter", "-s", metavar="<spec>", autocompletion=completion.segmenter_values, help="Segmenter name or module:attribute, with parameters as NAME,key=value,... (e.g. c99,mask_size=5; values to try as a grid, texttiling,grid={w=[10,20]}; repeatable); replaces the config's. A module:attribute imports and runs that code (needs --allow-plugins).", rich_help_panel=SEGMENTERS_PANEL)] = None,
    allow_plugins: Annotated[bool, typer.Option("--allow-plugins", help="Allow module:attribute segmenters outside the registered ones (they run arbitrary code: only for code and configs you trust).", rich_help_panel=SEGMENTERS_PANEL)] = False,
    corpus: Annotated[Optional[str], typer.Option("--corpus", "-c", metavar="<path>", help="Corpus path (file or directory; - reads one file's content from stdin).", rich_help_panel=CORPUS_PANEL)] = None,
    format: CorpusFormatOption = None,
    old_format: Annotated[Optional[str], typer.Option("--format", "-f", hidden=True)] = None,
    pattern: PatternOption = None,
    encoding: EncodingOption = None,
    levels: LevelsOption = None,
    unit: UnitOption = None,
    code: Annotated[Optional[str], typer.Option("--code", help="Markdown and HTML corpora: code blocks (fenced or indented; <pre>) kept as units (keep, the default) or removed (drop).", rich_help_panel=CORPUS_PANEL)] = None,
    markup: Annotated[Optional[str], typer.Option("--markup", help="Markdown corpora: units as written (keep, the default) or as the text a reader sees, without links' targets, emphasis, quote and list markers or inline HTML (text).", rich_help_panel=CORPUS_PANEL)] = None,
    where: Annotated[Optional[str], typer.Option("--where", help="JSON corpora: keep the documents whose keys have these values, e.g. 'set=test' (several: 'set=test,lang=en').", rich_help_panel=CORPUS_PANEL)] = None,
    splitter: SplitterOption = None,
    speakers: SpeakersOption = None,
    time_unit: TimeUnitOption = None,
    blank_lines: Annotated[Optional[str], typer.Option("--blank-lines", help="Choi corpora: whitespace-only lines are kept as empty units (keep, the default: Choi's own files count them) or dropped (drop).", rich_help_panel=CORPUS_PANEL)] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Read only the first N documents of the corpus (files in natural order).", rich_help_panel=CORPUS_PANEL)] = None,
    n_restarts: Annotated[Optional[int], typer.Option("--restarts", "-r", min=1, help="Restarts per document (maximum with --ci-width).", rich_help_panel=TEST_PANEL)] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", min=0, help="Run seed.", rich_help_panel=TEST_PANEL)] = None,
    n_jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="Parallel workers (-1: all cores, -2: all but one, and so on).", rich_help_panel=EXECUTION_PANEL)] = None,
    backend: Annotated[Optional[str], choice_option("--backend", BACKEND_CHOICES, metavar="<backend>", help=f"joblib backend: {', '.join(BACKEND_CHOICES)}.", rich_help_panel=EXECUTION_PANEL)] = None,
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address (with --backend dask).", rich_help_panel=EXECUTION_PANEL)] = None,
    tolerance: Annotated[Optional[int], typer.Option("--tolerance", min=0, help="Near-miss window (units).", rich_help_panel=TEST_PANEL)] = None,
    ci_width: Annotated[Optional[float], typer.Option("--ci-width", help="Adaptive stopping: stop when the F1 interval (or, with --ci-score headline, the headline's) is this narrow.", rich_help_panel=CONTROLS_PANEL)] = None,
    ci_score: Annotated[Optional[str], choice_option("--ci-score", CI_SCORES, metavar="<score>", help="What --ci-width watches: f1 (each stream on its own, the default) or headline (the test and the shuffle control stop together once the headline's interval is that narrow).", rich_help_panel=CONTROLS_PANEL)] = None,
    layout_control: Annotated[Optional[bool], typer.Option("--layout-control/--no-layout-control", help="Also run the layout control (words redistributed across units that keep their lengths) and flag layout-only segmenters (--no-layout-control: not, whatever the config says).", show_default=False, rich_help_panel=CONTROLS_PANEL)] = None,
    timeout: Annotated[Optional[float], typer.Option("--timeout", help="Seconds one segmenter call may take; a longer call is stopped and recorded as a timeout failure of its document (default: no limit).", rich_help_panel=TEST_PANEL)] = None,
    out: Annotated[Optional[str], typer.Option("--out", "-o", metavar="<dir>", help="Output directory (results.jsonl + reports).", rich_help_panel=RESULTS_PANEL)] = None,
    resume: Annotated[Optional[bool], typer.Option("--resume/--no-resume", help="Continue an interrupted run in --out.", show_default=False, rich_help_panel=RESULTS_PANEL)] = None,
    retry_failed: Annotated[Optional[bool], typer.Option("--retry-failed/--no-retry-failed", help="With --resume: run again the (segmenter, document) pairs recorded as failures (by default they are kept).", show_default=False, rich_help_panel=RESULTS_PANEL)] = None,
    overwrite: Annotated[Optional[bool], typer.Option("--overwrite/--no-overwrite", help="Replace the results already in --out (without it or --resume, existing results are an error).", show_default=False, rich_help_panel=RESULTS_PANEL)] = None,
    progress: Annotated[Optional[bool], typer.Option("--progress/--no-progress", help=PROGRESS_HELP, rich_help_panel=EXECUTION_PANEL)] = None,
    report_format: ReportFormatOption = None,
    old_report: OldReportOption = None,
    columns: ColumnsOption = None,
    metrics: MetricsOption = None,
    width: WidthOption = None,
    documents: DocumentsOption = False,
    debug: Debug = False,
) -> None:
    """Run the stability test (and reference metrics when references exist); print a report.

    A config file and a module:attribute segmenter run code: use only those you trust.
    Exit code 3 when the run completed but some segmenter failed on some document.
    """
    from .config import default_experiment, load_config, run_experiment, with_overrides
    from .isolation import printing_to_stderr

    saved: dict[str, Any] = {"dir": None, "complete": False, "stamp": None}
    # an error before the run wrote to --out (a corpus path mistyped) says nothing of the pairs an
    # earlier run left there: "N finished pairs ...; rerun with --resume" read as this run's
    with _errors(debug, ctx, lambda: saved["dir"], lambda: saved["complete"],
                 wrote=lambda: _results_stamp(saved["dir"]) != saved["stamp"]):
        experiment = load_config(config) if config is not None else default_experiment()
        experiment = with_overrides(
            experiment, segmenters=segmenters, corpus=corpus, format=format or old_format, out=out,
            reader={"encoding": encoding, "levels": levels, "unit": unit, "splitter": splitter, "pattern": pattern, "where": where,
                    "blank_lines": blank_lines, "code": code, "markup": markup, "speakers": speakers,
                    "time_unit": time_unit, "limit": limit},
            n_restarts=n_restarts, seed=seed, n_jobs=n_jobs, backend=backend,
            scheduler=scheduler, tolerance=tolerance, ci_width=ci_width, ci_score=ci_score,
            layout_control=layout_control,
            resume=resume, overwrite=overwrite, retry_failed=retry_failed, timeout=timeout,
            allow_plugins=allow_plugins or None,
        )
        saved["dir"] = experiment.output.get("dir")
        saved["stamp"] = _results_stamp(saved["dir"])
        if resume and "dir" not in experiment.output:
            raise typer.BadParameter("--resume needs an output directory (--out or [output] dir)")
        if experiment.run.get("resume") and saved["dir"] is not None and saved["stamp"] is None:
            from .store import RESULTS_FILE  # a folder mistyped would be computed again from scratch, silently

            _err(f"warning: nothing to resume: {unbroken(Path(saved['dir']) / RESULTS_FILE)} does not exist, so this run starts "
                 "from the beginning; to continue an earlier run, give its folder to --out")
        with printing_to_stderr(), _corpus_of(config if corpus is None else None, experiment):
            result = run_experiment(experiment, progress=progress, on_results=lambda _: saved.update(complete=True),
                                    provenance=_command(), metrics=metrics)
        _print_run_report(result, report_format or old_report, width=width, columns=columns, metrics=metrics,
                          documents=documents or None)
        from .results import failure_lines

        for line in failure_lines(result.failures):
            _err(f"warning: {line}")
        if "dir" in experiment.output:
            _err(f"results written to {unbroken(experiment.output['dir'])}")
    if result.failures:
        raise typer.Exit(code=3)


@contextlib.contextmanager
def _corpus_of(config: Optional[Path], experiment: Any) -> Iterator[None]:
    """A corpus path of ``config``'s ``[corpus]`` that does not exist, said as the config's: the
    error named only the path, resolved from the config file's folder, so that a path written
    relative to the current directory read as a mistake of the command line."""
    from .config import missing_corpus

    try:
        yield
    except FileNotFoundError as exc:
        said = missing_corpus(exc, experiment, config) if config is not None else None
        if said is None:
            raise
        raise type(said)(f"{said}, or give the corpus with --corpus") from None


def _print_run_report(result: Any, report_format: Optional[str], *, metrics: Optional[str | list[str]],
                      **options: Any) -> None:
    """Print a run's report (the one report.md and report.html in ``--out`` hold, and ``report`` renders).
    A metric named but not computed (a corpus without references) is an error after the run: the
    report is printed all the same with the metrics the run computed, then the error is raised, as
    :func:`stability.config.run_experiment` writes the reports of ``--out`` before it
    (:func:`stability.reporting.with_computed_metrics`); a run without ``--out`` kept its results
    nowhere else."""
    from .reporting import with_computed_metrics

    with_computed_metrics(lambda shown: _print_report(result, report_format, metrics=shown, **options), metrics,
                          "the report above shows the reference metrics the run computed, not those named")


def _experiment_file(path: Path, command: str = "run") -> Path:
    """``path`` as the experiment file of ``run`` or ``validate``: a file that exists, which no
    corpus reader claims by its extension. A corpus given there (``stability run doc.txt``) was
    parsed as TOML (``not valid TOML: Expected '='``) or refused as a directory, and a segmenter's
    parameter after a space (``-s c99 mask_size=5``) as a missing file, without a word of the way
    to give them."""
    from .readers.formats import FORMAT_TABLE

    value = str(path)
    corpus = (f"a corpus goes after --corpus/-c: stability run -c {shlex.quote(value)} -s NAME" if command == "run" else
              "a corpus goes in the [corpus] table of one (e.g. configs/validation.toml; stability config corpus "
              "lists its keys)")
    if path.is_dir():
        raise typer.BadParameter(f"{value!r} is a directory, not a TOML experiment file; {corpus}")
    if not path.exists():
        name, equals, _ = path.name.partition("=")
        if equals and os.sep not in value and name.isidentifier():
            raise typer.BadParameter(f"file {value!r} does not exist; a segmenter's parameters follow its name after "
                                     f"a comma, without a space: -s NAME,{value}")
        raise typer.BadParameter(f"file {value!r} does not exist.")
    suffix = path.suffix.lower()
    read_as = next((name for name, row in FORMAT_TABLE.items() if suffix in (*row.extensions, *row.weak_extensions)),
                   None)
    if read_as is not None:
        raise typer.BadParameter(f"{value!r} is a corpus file ({read_as} format, from its extension {suffix!r}), "
                                 f"not a TOML experiment file; {corpus}")
    return path


def _experiment_files(paths: list[Path]) -> list[Path]:
    return [_experiment_file(path, "validate") for path in paths]


def _saved_run(path: Path) -> Any:
    """The run saved at ``path`` (:func:`stability.store.load_results`); a file that is no run's at
    all (a corpus, another JSON file: refused at its first line) is said with what ``report`` reads."""
    from .exceptions import CorpusFormatError
    from .summary import load_results

    try:
        return load_results(path)
    except CorpusFormatError as exc:
        if exc.line not in (None, 1):
            raise
        raise CorpusFormatError(f"{exc.reason}; stability report reads what a run saved with --out DIR: DIR, "
                                "DIR/results.jsonl or DIR/report.json", path=exc.path, line=exc.line) from None


def _existing_or_dash(value: str) -> str:
    """A path that exists, or ``-`` (standard input). (typer's ``allow_dash`` misses ``-`` once it
    has made it a ``Path``.)"""
    if value != "-" and not Path(value).exists():
        raise typer.BadParameter(f"path {value!r} does not exist.")
    return value


def _one_path(ctx: typer.Context, param: typer.CallbackParam, values: list[str]) -> list[str]:
    """The one path of a score option: given twice, click would keep the last without a word, and
    ``-H a.jsonl -H b.jsonl`` (comparing two systems) would score only ``b.jsonl``."""
    if len(values) > 1:
        raise typer.BadParameter(f"given {len(values)} times ({', '.join(map(repr, values))}); score takes one file "
                                 "or folder here: to compare systems, run score once per hypothesis file")
    return [_existing_or_dash(value) for value in values]


@app.command()
def score(
    ctx: typer.Context,
    reference: Annotated[list[str], typer.Option("--reference", "-R", metavar="<path>", callback=_one_path, help="Reference segmentations (file or directory; - reads them from stdin).")],
    hypothesis: Annotated[list[str], typer.Option("--hypothesis", "-H", metavar="<path>", callback=_one_path, help="Hypothesis segmentations (file or directory; - reads them from stdin); one system a command.")],
    k: Annotated[Optional[str], typer.Option("--window", "-k", metavar="<k>", help="Window k of Pk/WindowDiff: an integer or lamprier / nltk / segeval.")] = None,
    old_k: Annotated[Optional[str], typer.Option("--k", hidden=True)] = None,
    tolerance: Annotated[int, typer.Option("--tolerance", min=0, help="Boundary-matching tolerance for P/R/F1.")] = 0,
    coder: Annotated[Optional[str], typer.Option("--coder", metavar="<name>", help="The coder whose segmentations are the hypotheses, in a segeval dataset of several coders; left out of the references too.")] = None,
    width: WidthOption = None,
    report_format: ReportFormatOption = None,
    old_report: OldReportOption = None,
    metrics: MetricsOption = None,
    columns: ColumnsOption = None,
    debug: Debug = False,
) -> None:
    """Reference metrics of existing segmentations (no segmenter involved), paired by document id.

    Each file holds one JSON object per line (.jsonl) or a JSON array of them (.json):
    {"id": "doc1", "boundaries": [3, 7], "n_units": 10} (new segments start at units 3 and 7 of 10;
    nltk's boundary string "001000100", a character per gap, gives the same),
    {"id": "doc1", "masses": [3, 4, 3]} (segment sizes) or {"id": "doc1", "labels": [0, 0, 0, 1, 1]} (a
    segment label per unit); several annotators of a reference:
    "references": [[3, 7], [4]] with "n_units". Or a CSV / TSV of them, a document a row, its
    columns named as those keys but labels (id,boundaries,n_units then a,"3 7",10). Or segeval's dataset JSON, {"segmentation_type":
    "linear", "items": {"doc1": {"coder1": [3, 4, 3], ...}}} (--coder picks a hypothesis coder).
    Or any corpus run reads, whose references are used (Choi files, JSON with "units", CSV label
    columns...). A hypothesis may give a pipeline's chunk texts, {"id": "doc1", "chunks": ["...",
    ...]}, against such a corpus: each chunk start is placed on its units.
    """
    from .scoring import score_files, window_from_text

    with _errors(debug, ctx):
        k = k if k is not None else old_k
        result = score_files(reference[0], hypothesis[0], k=None if k is None else window_from_text(k), tolerance=tolerance,
                             coder=coder)
        _print_report(result, report_format or old_report, width=width, columns=columns, metrics=metrics)


@app.command()
def segmenters(
    ctx: typer.Context,
    names: Annotated[Optional[list[str]], typer.Argument(help="Only these segmenters (e.g. semchunk langchain_recursive; default: every one).", show_default=False, autocompletion=completion.segmenter_names)] = None,
    report_format: ReportFormatOption = None,
    old_report: OldReportOption = None,
    width: WidthOption = None,
    allow_plugins: Annotated[bool, typer.Option("--allow-plugins", help="Describe module:attribute segmenters outside the registered ones (describing one imports it, which runs its code: only code you trust).")] = False,
    debug: Debug = False,
) -> None:
    """List the available segmenters (or those named) with their parameters and origin."""
    from .exceptions import InvalidParameterError
    from .isolation import printing_to_stderr
    from .registry import PLUGIN_CODE, describe_segmenters, is_plugin
    from .reporting.commands import segmenter_load_problems, unknown_segmenter_errors

    with _errors(debug, ctx):
        outside = [name for name in names or () if is_plugin(name)]
        if outside and not allow_plugins:  # the gate of run and of configs: describing it imports it
            raise InvalidParameterError(f"segmenter {outside[0]!r} is {PLUGIN_CODE}; describing it imports it, "
                                        "which runs its code: only with --allow-plugins")
        with printing_to_stderr():  # what a plugin prints when imported stays out of the report
            statuses = describe_segmenters(names or None)
        unknown = unknown_segmenter_errors(statuses)
        for message in unknown:
            _err(f"error: {message}")
        if unknown:
            raise typer.Exit(code=1)
        _print_report(statuses, report_format or old_report, width=width)
        for line in segmenter_load_problems(statuses, named=bool(names)):
            _err(line)
        if names and not all(status.ok for status in statuses.values()):  # one asked for by name
            raise typer.Exit(code=1)


#: Options of ``run`` that choose what is printed, not what is run: no config key.
RUN_DISPLAY_OPTIONS = ("config", "report_format", "old_report", "columns", "metrics", "width", "documents", "debug",
                       "old_format", "help")
#: Options of ``run`` named otherwise than their config key (the Python name is the key elsewhere).
RUN_OPTION_KEYS = {"corpus": ("[corpus]", "path"), "format": ("[corpus]", "format"), "out": ("[output]", "dir"),
                   "segmenters": ("[segmenters.NAME]", "segmenter"), "allow_plugins": ("", "allow_plugins")}


def run_option_keys() -> dict[tuple[str, str], str]:
    """``(table, key) -> --flag`` for the options of ``stability run`` that set a config key
    (a ``[run]`` or ``[corpus]`` key when not in :data:`RUN_OPTION_KEYS`)."""
    from .config import _tables

    command = typer.main.get_command(app).commands["run"]  # type: ignore[attr-defined]
    tables = _tables()
    found: dict[tuple[str, str], str] = {}
    for param in command.params:
        name = param.name or ""
        if name in RUN_DISPLAY_OPTIONS or not param.opts[0].startswith("--"):
            continue
        table = next((t for t in ("[run]", "[corpus]") if name in tables[t]), "")  # "": no table
        found[RUN_OPTION_KEYS.get(name, (table, name))] = param.opts[0]
    return found


def _own_option_typo(ctx: typer.Context, names: list[str]) -> None:
    """``stability config`` takes ``run``'s flags as names (``--restarts``): one closer to an
    option of ``config`` itself than to any of them (``--widht``) is the typo of that option,
    refused as click refuses an unknown option (exit 2). (A callback of the argument would do
    it at parsing, but typer 0.16 fails on a list argument's callback when no value is given.)"""
    import difflib

    own = [opt for param in ctx.command.params if param.param_type_name == "option"
           and not getattr(param, "hidden", False) for opt in param.opts if opt.startswith("--")]
    flags = list(run_option_keys().values())
    for name in names:
        if name.startswith("-") and name not in flags:
            close = difflib.get_close_matches(name, own + flags, n=1)
            if close and close[0] in own:  # click's NoSuchOption, from typer's own copy of click if it has one
                raise sys.modules[typer.BadParameter.__module__].NoSuchOption(name, possibilities=close, ctx=ctx)


@app.command("config", context_settings={"ignore_unknown_options": True})  # run's flags are names here
def config_keys(
    ctx: typer.Context,
    names: Annotated[Optional[list[str]], typer.Argument(help="Only these keys: a table (run; corpus, with corpus.demo), a key (n_restarts), a run flag (--restarts) or table.key (run.n_restarts); default: every key.", show_default=False, autocompletion=completion.config_names)] = None,
    report_format: ReportFormatOption = None,
    width: WidthOption = None,
    debug: Debug = False,
) -> None:
    """List every key of an experiment file (or those named): its table, type, default, run flag and meaning."""
    from .configkeys import reference
    from .reporting.commands import config_report

    _own_option_typo(ctx, names or [])
    with _errors(debug, ctx):
        _print_report(config_report(reference(run_option_keys(), names or None)), report_format, width=width)


@app.command()
def report(
    ctx: typer.Context,
    results: Annotated[Path, typer.Argument(exists=True, dir_okay=True, help="results.jsonl, report.json, or an output directory.")],
    report_format: ReportFormatOption = None,
    old_format: Annotated[Optional[str], choice_option(("--format", "-f"), _report_formats, aliases=_report_format_aliases,
                                                                 hidden=True)] = None,
    documents: DocumentsOption = False,
    output: Annotated[Optional[Path], typer.Option("--output", dir_okay=False, help="Write to this file instead of stdout.")] = None,
    old_output: Annotated[Optional[Path], typer.Option("-o", hidden=True, dir_okay=False)] = None,
    metrics: MetricsOption = None,
    width: WidthOption = None,
    columns: ColumnsOption = None,
    references: Annotated[Optional[str], typer.Option("--references", "-R", metavar="<path>", callback=lambda v: v and _existing_or_dash(v), help="References given after the run (a file or folder as score -R reads them, paired by document id): the report adds their metrics and the rank agreement with the stability scores, from the boundaries the run placed (nothing is segmented again). A corpus is read as the run read its own, which its record keeps (a transcript the run cut into sentences: sentences); corpus options given here replace those, with a warning.")] = None,
    format: CorpusFormatOption = None,
    pattern: PatternOption = None,
    encoding: EncodingOption = None,
    levels: LevelsOption = None,
    unit: UnitOption = None,
    splitter: SplitterOption = None,
    speakers: SpeakersOption = None,
    time_unit: TimeUnitOption = None,
    debug: Debug = False,
) -> None:
    """Render a saved run in another format (with --references: scored against references given after it ran)."""
    from .reporting import reader_flag, report_command

    given = {"format": format, "pattern": pattern, "encoding": encoding, "levels": levels, "unit": unit,
             "splitter": splitter, "speakers": speakers, "time_unit": time_unit}
    reader = {key: value for key, value in given.items() if value is not None}
    with _errors(debug, ctx):
        if reader and references is None:
            raise typer.BadParameter(f"{', '.join(reader_flag(key) for key in reader)}: the options of the corpus --references "
                                     f"reads; give --references too")
        result = _saved_run(results)
        if references is not None:
            from .scoring import add_references

            result = add_references(result, references, **reader)
        _print_report(result, report_format or old_format, width=width, columns=columns, metrics=metrics,
                      documents=documents or None, output=output or old_output,
                      rerun=report_command(results, documents=documents, metrics=metrics, references=references,
                                           reader=reader))


@app.command()
def validate(
    ctx: typer.Context,
    config: Annotated[list[Path], typer.Argument(help="TOML experiment file(s) over documents with references: one \\[corpus] or several \\[corpus.NAME] tables each (e.g. configs/validation.toml).", callback=_experiment_files)],
    quick: Annotated[bool, typer.Option("--quick", help="Every 4th document of each corpus, in corpus order.")] = False,
    out: Annotated[Optional[str], typer.Option("--out", "-o", metavar="<dir>", help="Results cache directory (default: the first config's \\[output] dir, with '-quick', '-limitN', '-restartsN' appended for those options; one folder per corpus when there are several); the run resumes from it.")] = None,
    docs: Annotated[Optional[Path], typer.Option("--docs", help="Where the report NAME.md and its plots NAME/*.svg go (NAME: --name, default validation; default folder: the results directory).")] = None,
    name: Annotated[str, typer.Option("--name", help="The report's name: NAME.md, its plots under NAME/, and NAME-discussion.md appended when it sits in --docs.")] = "validation",
    n_jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="Parallel workers (default: the config's n_jobs).")] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Only the first N documents with references of each corpus (after --quick).")] = None,
    n_restarts: Annotated[Optional[int], typer.Option("--restarts", "-r", min=1, help="Override the configs' restarts.")] = None,
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="Bootstrap resamples of documents per interval (at least 40).")] = 1000,
    corpus: Annotated[Optional[list[str]], typer.Option("--corpus", "-c", metavar="<name>", help="Only this corpus of the config files (repeatable; default: all).")] = None,
    progress: Annotated[Optional[bool], typer.Option("--progress/--no-progress", help=PROGRESS_HELP)] = None,
    comparison: Annotated[bool, typer.Option("--comparison", help="Also rank the configurations by the second number of a comparison, stability x agreement with the other segmenters, against B and boundary F1 within one unit (a section of the report).")] = False,
    debug: Debug = False,
) -> None:
    """Validation study: rank agreement between stability scores and reference metrics over a family of segmenters, on one corpus or several."""
    import time

    from .isolation import printing_to_stderr
    from .status import Status
    from .study import StudyOptions, plan_study, run_study, write_report

    folder: dict[str, str | None] = {"out": None}
    with _errors(debug, ctx, saved=lambda: _study_saved(folder["out"])):
        started = time.perf_counter()
        plan = plan_study(StudyOptions(
            tuple(str(c) for c in config), quick=quick, out=out, docs=None if docs is None else str(docs), jobs=n_jobs,
            limit=limit, restarts=n_restarts, bootstrap=bootstrap, corpora=tuple(corpus or ()), progress=progress,
            name=name, comparison=comparison))
        folder["out"] = plan.options.out
        with printing_to_stderr():  # stdout: the result line alone, whatever the segmenters print
            run = run_study(plan)  # the files as plan_study read them: each read once
        assert run.options.docs is not None  # run_study fills it in
        target = Path(run.options.docs)
        discussion = target / run.options.discussion_file
        status = Status(progress)
        status("writing the report and plots", str(target))
        try:
            path = write_report(run, target, discussion=discussion if discussion.is_file() else None)
        finally:
            status.stop()
        for line in run.warnings():
            _err(f"warning: {line}")
        _err(f"results cached in {unbroken(run.options.out)}; report written to {unbroken(path)} "
             f"(plots in {unbroken(path.parent / run.options.name)}); {time.perf_counter() - started:.0f} s")
        from .catalogue import HEADLINE

        picks = f"headline score in use: {HEADLINE.name}; this study's rule picks: {run.decision.headline}"
        typer.echo(message_lines(picks, _message_width(sys.stdout)))  # one line in a pipe, as a script reads it
    if any(study.result.failures for study in run.studies):
        raise typer.Exit(code=3)  # as `run`: the study completed, but some segmenter failed on some document


def _flowing(doc: str | None) -> str | None:
    """A command's docstring as ``--help`` shows it: each paragraph on one line, for the
    terminal to wrap (rich keeps a docstring's line ends, which at 80 columns made ragged lines)."""
    import inspect

    return doc and "\n\n".join(" ".join(part.split()) for part in inspect.cleandoc(doc).split("\n\n"))


def _plain_metavars(params: list[Any]) -> list[Any]:
    """``params`` with the value each shows in ``--help`` said plainly: nothing after a flag
    (typer showed ``--debug <bool>``, ``--help -h <bool>``, read as a value to give: ``--debug
    true`` then took ``true`` for the config file) and ``<int>`` for a bounded integer (``<int
    range> [x>=1]``: the bound is said after it all the same). A metavar declared is kept. (Read
    by attribute: recent typers bring their own copy of click's classes.)"""
    for param in params:
        if getattr(param, "param_type_name", None) != "option" or param.metavar is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif param.nargs == 1:
            described = getattr(param, "type_descriptor", None)  # typer >= 0.29; before, click's types
            if described is not None and getattr(described, "is_ranged", False):
                param.metavar = f"<{described.ranged_type_name}>"
            elif type(getattr(param, "type", None)).__name__ in ("IntRange", "FloatRange"):
                param.metavar = f"<{type(param.type).__name__.removesuffix('Range').lower()}>"
    return params


class _Group(typer.core.TyperGroup):
    """The ``stability`` group: its options shown as :func:`_plain_metavars` says."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_metavars(super().get_params(ctx))


app.info.cls = _Group


class _Command(typer.core.TyperCommand):
    """A command whose typo suggestions name only the flags its ``--help`` shows: a hidden older
    spelling (``--report``, ``--format``, ``--k``) still works, but is never suggested. Its options
    are shown as :func:`_plain_metavars` says."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_metavars(super().get_params(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except Exception as exc:  # click's NoSuchOption (typer's own copy of click in recent typers)
            possibilities = getattr(exc, "possibilities", None)
            if possibilities:
                hidden = {flag for param in self.params if getattr(param, "hidden", False)
                          for flag in (*param.opts, *param.secondary_opts)}
                setattr(exc, "possibilities", [flag for flag in possibilities if flag not in hidden] or None)
            raise


for _info in app.registered_commands:
    _info.help = _info.help or _flowing(_info.callback.__doc__ if _info.callback else None)
    _info.cls = _Command


#: The arguments of this process's command line, set by :func:`main` (the console script and
#: ``python -m stability``); ``None`` when the app is invoked otherwise (typer's test runner), where
#: ``sys.argv`` is not the command that ran.
_ARGV: list[str] | None = None


def _command() -> dict[str, str] | None:
    """The command line that ran, and the folder it ran in, for the run record."""
    if _ARGV is None:
        return None
    return {"command": shlex.join(["stability", *_ARGV]), "cwd": os.getcwd()}


#: Whether an interrupted command has said what it saved (typer exits 130 silently otherwise).
_INTERRUPT_SAID = False


def main() -> None:
    """Console-script entry point."""
    global _ARGV
    _ARGV = list(sys.argv[1:])
    if os.environ.get("_STABILITY_COMPLETE") == "complete_bash":  # the hook of --install-completion
        completion.complete_bash(lambda: app(prog_name="stability"))
        return
    try:
        app(prog_name="stability")
    except KeyboardInterrupt:  # while the commands are built, before a command runs: nothing to save
        _err(NOTHING_YET)
        sys.exit(130)  # 128 + SIGINT, as after a run interrupted
    except SystemExit as exc:  # typer's own silent exit 130 for a Ctrl-C before the command's work began
        if exc.code == 130 and not _INTERRUPT_SAID:
            _err(NOTHING_YET)
        raise


if __name__ == "__main__":  # pragma: no cover
    main()
