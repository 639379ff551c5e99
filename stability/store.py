"""The results file of a corpus run (``results.jsonl``): the one module that writes and reads it.

Format (JSON lines, UTF-8, one complete record per line):

* a header ``{"type": "run", "settings": {...}, "corpus": {...} | null, "provenance": {...}}``. ``settings`` holds the
  recorded :class:`~stability.settings.Settings`, the segmenter labels, ``format_version``
  (:data:`FORMAT_VERSION`), the reference-metric options and every segmenter's parameters;
  ``corpus`` is the corpus fingerprint (:func:`corpus_fingerprint`) when the corpus was known in
  full before the run (a list of documents), else ``null``; ``provenance`` (:func:`provenance`) what
  else it takes to reproduce the run: the versions of stability, Python and numpy that computed it
  and, from the command line, the command and the folder it ran in, (:data:`READER`) how a
  corpus read from files was read, and (:data:`SEGMENTER_CODE`) where each segmenter's code comes
  from beyond stability (not compared on resume: a resume under other versions of stability, Python
  or numpy warns, since its results then come from two versions; another reading of the corpus gives
  other documents, which the document hashes refuse). A segmenter whose code changed is another
  segmenter: a resume computes its pairs again and writes a header naming its code of now, and the
  readers leave out its records above that header;
* then one ``{"type": "result", "document_hash": ..., "result": {...}}`` or
  ``{"type": "failure", "document_hash": ..., "failure": {...}}`` per finished (segmenter, document)
  pair, written as soon as it is known (in corpus order), unbuffered, and fsynced at least once a
  second. ``document_hash`` is :func:`document_hash` of the document it was computed on. A pair that
  finished while an earlier pair was still running waits for it, so that a complete file is in corpus
  order whatever the completion order; when the run is interrupted (or stops on an error) the pairs
  still waiting are written too, each with ``"document_index"``: the 0-based place of its document in
  the corpus (:meth:`ResultsStore.add`, ``ahead``). Records without it are in corpus order among
  themselves; the readers put the records ahead back in their place (:func:`read_run`), and a resume
  reuses them and computes only the pairs missing.

Reading (:func:`iter_records`, :func:`read_run`, :func:`load_results`): a damaged *last* line
(a run killed while writing, a full disk) is reported with a :class:`ResultsWarning` naming the
file and line and left out; a damaged line anywhere else is a
:class:`~stability.exceptions.CorpusFormatError` naming the file and line. A file written by a
newer format version is refused. When a pair has several records (a failure retried on resume),
the last one counts; so does the last header (a resume that adds segmenters writes one, and so
does one that computes again the pairs of a segmenter whose code changed: the records of that
segmenter above it are left out, :func:`_superseded`).

Writing (:class:`ResultsStore`): an existing file is an error unless ``resume`` or
``overwrite``; a lock file (``results.jsonl.lock``) keeps a second run out; on resume, a damaged
last line is dropped and the file truncated back to its last complete line before anything is
appended, and the file must have been written with the same settings, segmenter parameters and
documents. A resume may add segmenters (only their pairs are computed, the file's are reused;
restarts are drawn per document, stream and restart, whatever the other segmenters): it appends a
header listing them all, with this run's command, so that running that command afresh computes the
whole file again. A resume also appends a header when a segmenter's code changed (its pairs are
computed again: :meth:`ResultsStore._recomputed`), naming its code of now. Leaving out a segmenter
of the file is refused. A file that cannot be written
(a full disk, a folder made read-only) is a :class:`ResultsWriteError` naming the file and how
many pairs it keeps; a resume, once it can be written, drops a line the failure cut and goes on.

In-process runs (``n_jobs=1`` without a backend) have no worker process to contain a segmenter
that ends the process (``os._exit``, a segfault, the OOM killer). Before each call the store writes
a marker, ``results.jsonl.running``, naming the segmenter, document, stream and restarts; a normal
end, an error or an interrupt removes it. A marker left behind means the process died during that
call. Resuming warns and runs that pair again in a worker process (``ResultsStore.contained``),
where a crash is contained and recorded as the pair's ``"crash"`` failure, so the run goes on
instead of dying on the same document again; if the death came from elsewhere (``kill -9``, a
power cut) the pair's result is simply computed, identical to an uninterrupted run.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import socket
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .bulk import collector_paused
from .checks import check_folder, counted
from .corpus import Document
from .exceptions import CorpusFormatError, InvalidParameterError, InvalidTypeError, StabilityError, StabilityWarning, warn
from .results import CorpusResult, Failure, StabilityResult, _jsonable, map_floats
from .shapes import check_fields

__all__ = [
    "FORMAT_VERSION",
    "RESULTS_FILE",
    "results_file",
    "ResultsWarning",
    "ResultsStore",
    "ResultsLockedError",
    "ResultsWriteError",
    "run_header",
    "provenance",
    "READER",
    "SHOWN_METRICS",
    "document_hash",
    "corpus_fingerprint",
    "iter_records",
    "read_run",
    "count_pairs",
    "load_results",
]

#: Version of the results-file format written here; files of a newer version are refused.
FORMAT_VERSION = 1

#: Name of the results file in an output folder.
RESULTS_FILE = "results.jsonl"


def results_file(output: str | os.PathLike, name: str = "output", *, folder: bool = False) -> Path:
    """The results file an output path names: the path itself, or :data:`RESULTS_FILE` in it when
    it is a folder, as a run's ``--out`` (one that exists, or a path ending in a separator, or any
    path with ``folder=True``). Refused here, before a run, with the error the command line gives
    for ``--out``: an empty path, a NUL character, and a path under a file (it could never be
    written, and would fail only once the run had computed its first result).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> results_file(folder) == folder / "results.jsonl" == results_file(f"{folder}/new/").parent.parent / RESULTS_FILE
    True
    >>> results_file(folder / "mine.jsonl").name
    'mine.jsonl'
    >>> results_file("")
    Traceback (most recent call last):
    ...
    stability.exceptions.InvalidParameterError: output must be a results file or a folder path; received ''
    """
    said = "a folder" if folder else "a results file or a folder"
    text = os.fspath(output)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if not text.strip():
        raise InvalidParameterError(f"{name} must be {said} path; received {text!r}", parameter=name)
    path = Path(text)
    if not folder and path.is_file():  # a results file to resume or replace
        return path
    check_folder(text, name, parameter=name, what=said)
    if folder or path.is_dir() or text.endswith(("/", os.sep)):
        return path / RESULTS_FILE
    return path


_PAYLOAD = {"result": "result", "failure": "failure"}
_SYNC_EVERY = 1.0  # seconds between two fsyncs of the results file
#: How a refused resume starts afresh instead, said with the keywords of :func:`stability.evaluate`
#: (a command line says them as its flags, ``--out`` and ``--overwrite``: :mod:`stability.userwords`).
_AFRESH = "start afresh with output= another path, or with overwrite=True (instead of resume=True) to replace its results"


class ResumeRefusedError(InvalidParameterError):
    """A resume the results file cannot continue (:meth:`ResultsStore._refuse`): ``reason``, what
    differs, and ``keep``, what to keep the same to resume, so that a front end with its own way of
    starting afresh (a validation study's cache) can say it instead of :data:`_AFRESH`."""

    def __init__(self, message: str = "", *, parameter: str | None = None, reason: str = "", keep: str = "") -> None:
        super().__init__(message, parameter=parameter)
        self.reason, self.keep = reason, keep


class ResultsWarning(StabilityWarning):
    """A results file had a damaged last line (left out, and cut off before a resume).

    Examples
    --------
    >>> import tempfile, warnings
    >>> from stability import evaluate, load_results
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "run.jsonl"
    ...     run = evaluate({"even": "even"}, [["a b", "c d", "e f"]], n_restarts=2, progress=False, output=path)
    ...     with path.open("a") as file:
    ...         _ = file.write('{"segmenter": "ev')  # a line a kill cut short
    ...     with warnings.catch_warnings(record=True) as caught:
    ...         warnings.simplefilter("always")
    ...         back = load_results(path)
    >>> caught[0].category.__name__, back.documents == run.documents
    ('ResultsWarning', True)
    """


# ----------------------------------------------------------------------------------------------
# fingerprints
# ----------------------------------------------------------------------------------------------
def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def document_hash(doc: Document) -> str:
    """Content hash of a document: its id, units, references and unit times."""
    payload = [doc.id, list(doc.units), [list(r.boundaries) for r in doc.references],
               None if doc.times is None else [list(t) for t in doc.times]]
    return _sha(json.dumps(payload, ensure_ascii=False, separators=(",", ":")))


def corpus_fingerprint(docs: Iterable[Document]) -> dict[str, Any]:
    """``{"n_documents", "ids", "content"}``: hashes of the ordered ids and of every document's
    :func:`document_hash`."""
    docs = list(docs)
    return {
        "n_documents": len(docs),
        "ids": _sha(json.dumps([d.id for d in docs], ensure_ascii=False)),
        "content": _sha("".join(document_hash(d) for d in docs)),
    }


#: The keys of :func:`provenance` that name versions (a resume under others warns), and how
#: reports name each.
VERSIONS = {"stability": "stability", "python": "Python", "numpy": "numpy"}
VERSION_KEYS = tuple(VERSIONS)
#: The key of :func:`provenance` under which a run keeps, per segmenter label, where the code of
#: each segmenter comes from beyond stability (:func:`stability.registry.segmenter_code`: a
#: plugin's package and version, a wrapped library's, a local module's file digest); a resume
#: under others computes that segmenter's pairs again (:meth:`ResultsStore._recomputed`), and the
#: reports' reproduce note names them.
SEGMENTER_CODE = "segmenter_code"


def provenance(**extra: Any) -> dict[str, Any]:
    """What a run record keeps beside its settings to reproduce the run: the versions of
    stability, Python and numpy computing it, then ``extra`` (``command`` and ``cwd`` from the
    command line), its ``None`` values left out.

    >>> sorted(provenance(command="stability run"))
    ['command', 'numpy', 'python', 'stability']
    """
    import platform

    import numpy

    from . import __version__

    versions = {"stability": __version__, "python": platform.python_version(), "numpy": numpy.__version__}
    return {**versions, **{k: v for k, v in extra.items() if v is not None}}


_current = provenance  # for the methods whose parameter is named ``provenance``

#: The key of :func:`provenance` under which a run of a corpus read from files
#: (:func:`stability.run_experiment`, ``stability run``) keeps how it was read:
#: ``{"paths": [...], "options": {...}}`` (:meth:`stability.config.Experiment.reading`). References
#: given after the run are read with those options by default
#: (:func:`stability.scoring.add_references`); a record written before it was kept has none.
READER = "reader"
#: The key of :func:`provenance` under which ``stability run --metrics`` (:func:`stability.run_experiment`'s
#: ``metrics``) keeps the reference metrics its reports showed, by catalogue name: a report rendered
#: from the saved run later (``stability report``, :func:`stability.reporting.render`) shows those
#: again unless told others.
SHOWN_METRICS = "shown_metrics"


def _short(value: Any, width: int = 60) -> str:
    """A recorded setting as a message shows it: its JSON, cut at ``width`` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[:width - 3] + "..."


#: How the results file spells an infinite value (a normalised WindowDiff whose expected value is
#: 0, for one): JSON has no infinity, and these are the strings Python's ``float`` reads back, as
#: every float of a record is read (``results._from_json_float``). NaN is already ``null`` there.
_INFINITIES = {math.inf: "Infinity", -math.inf: "-Infinity"}


def _strict(value: Any) -> Any:
    """``value`` with its infinite floats spelled as strings, so the line is strict JSON (other
    programs, ``jq`` or a browser's ``JSON.parse``, refuse a bare ``Infinity``)."""
    return map_floats(value, lambda x: _INFINITIES.get(x, x))


# ----------------------------------------------------------------------------------------------
# reading
# ----------------------------------------------------------------------------------------------
@dataclass
class _Scan:
    """The records of a results file and where its last complete, valid line ends."""

    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    end: int = 0  # byte offset just after the last good line
    needs_newline: bool = False  # the last good line lacks its newline
    dropped: str | None = None  # why the last line was left out


def _parse(raw: bytes, path: Path, number: int) -> dict[str, Any]:
    """One line as a record, or a CorpusFormatError naming the file and line."""
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise CorpusFormatError("not UTF-8 text", path=str(path), line=number) from None
    except json.JSONDecodeError as exc:
        raise CorpusFormatError(f"not a JSON record ({exc.msg})", path=str(path), line=number) from None
    kind = record.get("type") if isinstance(record, dict) else type(record).__name__
    if kind not in ("run", "result", "failure"):
        raise CorpusFormatError(
            f"expected a record with type 'run', 'result' or 'failure'; received {kind!r}", path=str(path), line=number
        )
    payload = record.get("settings", {}) if kind == "run" else record.get(_PAYLOAD[kind])
    if not isinstance(payload, dict):
        raise CorpusFormatError(f"the {kind!r} record has no {_PAYLOAD.get(kind, 'settings')!r} object",
                                path=str(path), line=number)
    return record


def _check_version(record: dict[str, Any], path: Path, number: int) -> None:
    version = record.get("settings", {}).get("format_version", FORMAT_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT_VERSION:
        raise CorpusFormatError(
            f"written in results format {version!r}, newer than this version of stability reads "
            f"(up to {FORMAT_VERSION}); upgrade stability to read it",
            path=str(path), line=number,
        )


def _scan(path: Path) -> _Scan:
    data = path.read_bytes()
    scan = _Scan()
    position = number = 0
    while position < len(data):
        newline = data.find(b"\n", position)
        stop = len(data) if newline < 0 else newline + 1
        raw, position, number = data[position:stop], stop, number + 1
        if not raw.strip():
            continue
        try:
            record = _parse(raw, path, number)
        except CorpusFormatError as exc:
            if data[stop:].strip():  # a line with content after it (blank lines after the last do not count)
                if number == 1:
                    raise
                raise CorpusFormatError(
                    f"{exc.reason}; the other lines hold finished results: remove or repair this "
                    "one to read them (a resume then computes its pair again)", path=str(path), line=number) from None
            what = "incomplete" if newline < 0 else "invalid"
            scan.dropped = f"{path}:{number}: {what} last line left out ({exc.reason})"
            break
        if record["type"] == "run":
            _check_version(record, path, number)
        scan.records.append((number, record))
        scan.end, scan.needs_newline = stop, newline < 0
    return scan


def _holds_results(path: Path) -> bool:
    """Whether a results file holds anything but run records: a result, a failure, or a line that
    is neither (a line cut by a kill, another file's), read only as far as the first such line."""
    with path.open("rb") as handle:
        for raw in handle:
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except ValueError:
                return True
            if not isinstance(record, dict) or record.get("type") != "run":
                return True
    return False


def iter_records(path: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, record)`` of a results file, each record with a ``type``: ``run``,
    ``result`` or ``failure``, in the order of the file: a record written ahead of corpus order (by
    an interrupted run) carries ``document_index``; :func:`read_run` puts it back in its place.

    A damaged last line (cut by an interruption) is left out with a :class:`ResultsWarning`
    naming the file and line; any other malformed line is a
    :class:`~stability.exceptions.CorpusFormatError` naming the file and line.
    """
    scan = _scan(Path(path))
    if scan.dropped:
        warn(scan.dropped, ResultsWarning)
    yield from scan.records


@dataclass
class Entry:
    """What a results file holds for one (segmenter, document) pair."""

    value: StabilityResult | Failure
    document_hash: str | None
    #: the place of the document in the corpus, for a record written ahead of corpus order (an
    #: interrupted run's pair that finished behind one still running), else ``None``
    document_index: int | None = None


@dataclass
class RunRecords:
    """A results file read back: its header and, per (segmenter, document), the last record."""

    settings: dict[str, Any]
    corpus: dict[str, Any] | None
    entries: dict[tuple[str, str], Entry]
    header: bool = False  # a run record was read
    #: document -> its place in the corpus, of the documents with a record written ahead of corpus order
    ahead: dict[str, int] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)  # empty in files written before it was kept


def _entry(record: dict[str, Any], path: Path, number: int) -> Entry:
    try:
        if record["type"] == "result":
            value: StabilityResult | Failure = StabilityResult.from_dict(record["result"])
        else:
            value = Failure.from_dict(record["failure"])
        check_fields(value)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, StabilityError) as exc:
        kind = record["type"]
        raise CorpusFormatError(f"malformed {kind} record ({type(exc).__name__}: {exc})",
                                path=str(path), line=number) from None
    index = record.get("document_index")
    if index is not None and (not isinstance(index, int) or isinstance(index, bool) or index < 0):
        raise CorpusFormatError(f"malformed {record['type']} record (document_index must be an integer >= 0; "
                                f"received {index!r:.40})", path=str(path), line=number)
    return Entry(value, record.get("document_hash"), index)


def _records(scan: _Scan, path: Path) -> RunRecords:
    run = RunRecords({}, None, {})
    first: dict[str, Any] | None = None  # the settings of the file's first run record
    for number, record in scan.records:
        if record["type"] == "run":
            settings = record.get("settings", {})
            first = settings if first is None else _same_run(first, settings, path, number)
            run.settings, run.corpus = settings, record.get("corpus")
            provenance = _provenance_of(record)
            if run.header and (stale := _superseded(run.provenance, provenance)):
                run.entries = {key: entry for key, entry in run.entries.items() if key[0] not in stale}
            run.provenance, run.header = provenance, True
            continue
        entry = _entry(record, path, number)
        _of_the_run(entry.value, run.settings, path, number)
        key = (entry.value.segmenter, entry.value.document or "")
        if entry.document_index is not None:
            run.ahead[key[1]] = entry.document_index
        run.entries[key] = entry
    if run.ahead:
        run.entries = _in_corpus_order(run.entries, run.ahead)
    return run


def _in_corpus_order(entries: dict[tuple[str, str], Entry], ahead: Mapping[str, int]) -> dict[tuple[str, str], Entry]:
    """``entries`` (in the order of their first records) with the documents written ahead of corpus
    order (``ahead``: document -> its place in the corpus) put back in their place.

    The other documents are in corpus order in the file, and every document before one of them has
    a record (each run writes the pairs it computes in corpus order, past those the file holds), so
    they take the places the documents ahead leave free, in the order of the file. A stable sort keeps
    the order of a document's pairs."""
    place: dict[str, int] = {}
    taken = set(ahead.values())
    free = 0
    for _, doc in entries:
        if doc in place:
            continue
        if doc in ahead:
            place[doc] = ahead[doc]
            continue
        while free in taken:
            free += 1
        place[doc] = free
        free += 1
    return dict(sorted(entries.items(), key=lambda item: place[item[0][1]]))


def _another_run(path: Path, number: int, what: str) -> CorpusFormatError:
    return CorpusFormatError(f"{what}: a line of another run's results file? Remove it (and the lines of that run), "
                             "or keep each run in its own output folder", path=str(path), line=number)


def _same_run(first: dict[str, Any], settings: Any, path: Path, number: int) -> dict[str, Any]:
    """A later run record (a resume adding segmenters writes one) may only add segmenters: the
    same settings as the first, the first's segmenters with their parameters."""
    if not isinstance(settings, dict):
        raise _another_run(path, number, "a run record without settings")
    kept = ("segmenters", "segmenter_params")
    changed = sorted(k for k in set(first) | set(settings) if k not in kept and first.get(k) != settings.get(k))
    labels, now = first.get("segmenters") or [], settings.get("segmenters") or []
    params, now_params = first.get("segmenter_params") or {}, settings.get("segmenter_params") or {}
    dropped = [label for label in labels if label not in now or params.get(label) != now_params.get(label)]
    if changed or dropped:
        said = "; ".join([f"{k}: {_short(first.get(k))} in the first, {_short(settings.get(k))} here" for k in changed]
                         + ([f"segmenter(s) {', '.join(map(repr, dropped))} left out or changed"] if dropped else []))
        raise _another_run(path, number, f"a run record that contradicts the file's first ({said})")
    return first


def _of_the_run(value: StabilityResult | Failure, settings: dict[str, Any], path: Path, number: int) -> None:
    """A result or failure must come from the run whose record is above it: one of its
    segmenters, its seed, at most its restarts."""
    labels = settings.get("segmenters")
    if isinstance(labels, list) and value.segmenter not in labels:
        raise _another_run(path, number, f"a record of segmenter {value.segmenter!r}, which the run above it does "
                                         f"not run ({', '.join(map(repr, labels))})")
    seed = settings.get("seed")
    if isinstance(seed, int) and value.seed is not None and value.seed != seed:
        raise _another_run(path, number, f"a record computed with seed {value.seed}, where the run's is {seed}")
    restarts, done = settings.get("n_restarts"), getattr(value, "n_restarts", None)
    if isinstance(restarts, int) and isinstance(done, int) and done > restarts:
        raise _another_run(path, number, f"a record of {done} restarts, where the run draws at most {restarts}")


def read_run(path: str | os.PathLike) -> RunRecords:
    """The header and the per-pair records of a results file (see :func:`iter_records`): of a pair,
    the last record; of a segmenter, none above a header where its code changed (:func:`_superseded`)."""
    path = Path(path)
    scan = _scan(path)
    if scan.dropped:
        warn(scan.dropped, ResultsWarning)
    return _records(scan, path)


def count_pairs(path: str | os.PathLike) -> int:
    """How many (segmenter, document) pairs a results file holds, results and failures: its lines
    parsed, none read back into a result (a quick count for messages; :func:`read_run` checks
    every record). A damaged last line is left out without a warning, and so are the records of a
    segmenter above a header where its code changed (:func:`_superseded`), as :func:`read_run` does.

    Raises
    ------
    CorpusFormatError
        If a line before the last is damaged (see :func:`iter_records`).
    OSError
        If the file cannot be read.
    """
    pairs: set[tuple[Any, str]] = set()
    provenance: dict[str, Any] | None = None  # of the last run record
    for _, record in _scan(Path(path)).records:
        if record["type"] == "run":
            now = _provenance_of(record)
            if provenance is not None and (stale := _superseded(provenance, now)):
                pairs = {pair for pair in pairs if pair[0] not in stale}
            provenance = now
        else:
            payload = record[_PAYLOAD[record["type"]]]
            pairs.add((payload.get("segmenter"), payload.get("document") or ""))
    return len(pairs)


def _from_report(path: Path) -> CorpusResult | None:
    """A JSON report (``report.json``) read back, or ``None`` when ``path`` is a results file."""
    raw = path.read_bytes()
    stripped = raw.decode("utf-8", "replace").lstrip()  # bytes a crash damaged: the results file's reader says
    if not (stripped.startswith("{") and '"summary"' in stripped[:2000] and "\n{" not in stripped.strip()):
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CorpusFormatError(f"not a JSON report: not UTF-8 (byte {raw[exc.start]:#04x} at byte {exc.start})",
                                path=str(path)) from None
    except json.JSONDecodeError as exc:
        raise CorpusFormatError(f"not a JSON report ({exc.msg})", path=str(path), line=exc.lineno) from None
    return corpus_result_from_data(data, path)


def corpus_result_from_data(data: Any, path: Path | None = None) -> CorpusResult:
    """The :class:`CorpusResult` whose ``documents``, ``failures`` and ``settings`` ``data`` holds
    (a JSON report read, :meth:`CorpusResult.to_dict`), its summaries recomputed as
    :func:`load_results` recomputes them. Malformed data is a :class:`CorpusFormatError` naming
    ``path``, or, given no path (``CorpusResult.from_dict``), an :class:`InvalidParameterError`
    naming ``data``."""
    def malformed(problem: str) -> Exception:
        if path is None:
            return InvalidParameterError(f"data must be a CorpusResult's to_dict(); {problem}", parameter="data")
        return CorpusFormatError(f"malformed JSON report ({problem})", path=str(path))

    if not isinstance(data, Mapping):
        raise malformed(f"received {type(data).__name__}")
    try:
        documents = {label: [StabilityResult.from_dict(r) for r in rows] for label, rows in data.get("documents", {}).items()}
        failures = [Failure.from_dict(f) for f in data.get("failures", [])]
        for value in [*failures, *(r for rows in documents.values() for r in rows)]:
            check_fields(value)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError, StabilityError) as exc:
        raise malformed(f"{type(exc).__name__}: {exc}") from None
    return _corpus_result(documents, failures, data.get("settings", {}), path)


#: Settings a header records beside :meth:`Settings.to_dict` (options of what is computed, not of
#: the restarts): :func:`run_header` writes them, :func:`load_results` checks them.
_OPTION_SETTINGS = ("metrics",)


def _corpus_result(documents: dict[str, list[StabilityResult]], failures: list[Failure],
                   settings: Mapping[str, Any], path: Path | None) -> CorpusResult:
    """Summaries recomputed with the run's recorded settings, checked as any settings are (an
    error names ``path``, or ``data`` of :meth:`CorpusResult.from_dict` without one)."""
    from .settings import Settings
    from .summary import summarize

    recorded = {k: settings[k] for k in (*Settings().to_dict(), *_OPTION_SETTINGS) if k in settings}
    try:
        s = Settings(**recorded)
    except StabilityError as exc:
        if path is None:
            raise InvalidParameterError(f"data must be a CorpusResult's to_dict(); invalid run settings ({exc})",
                                        parameter="data") from None
        raise CorpusFormatError(f"invalid run settings ({exc})", path=str(path)) from None
    documents = {label: [_with_headline_interval(r, s.confidence, s.n_bootstrap) for r in rows]
                 for label, rows in documents.items()}
    summary = summarize(documents, failures, seed=s.seed, confidence=s.confidence, n_bootstrap=s.n_bootstrap,
                        content_margin=s.content_margin, params=settings.get("segmenter_params"))
    # the recorded settings as checked (``metrics = true`` is ``{}``), so readers see one form
    return CorpusResult(documents, summary, failures, {**settings, **{k: getattr(s, k) for k in recorded}})


def load_results(path: str | os.PathLike) -> CorpusResult:
    """Read a run back: its results file (``results.jsonl``) or its JSON report.

    Summaries are recomputed from the per-document results with the run's settings, so a file
    cut by an interruption gives the summary of what was completed; a file whose run still holds
    its lock (a run in progress) is read with a :class:`ResultsWarning` saying so.

    Parameters
    ----------
    path : str or path-like
        The results file a run wrote (``evaluate(..., output=...)``, ``stability run --out``:
        ``results.jsonl`` in that folder), the JSON report of a run (``report.json``), or a run's
        output folder (its results file, else its JSON report: what ``stability report`` reads).

    Returns
    -------
    CorpusResult
        The per-document results, their summaries and the failures, as :func:`stability.evaluate`
        returned them.

    Raises
    ------
    InvalidParameterError
        If ``path`` is neither a file nor a folder holding one of them.
    InvalidTypeError
        If ``path`` is not a str or path-like.
    CorpusFormatError
        If the file is not a results file or a JSON report (the message names the file and line).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from stability import evaluate
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.jsonl"
    >>> run = evaluate({"even": "even"}, [["a"] * 12], n_restarts=3, progress=False, output=path)
    >>> load_results(path).documents["even"][0].f1
    1.0
    """
    if not isinstance(path, (str, os.PathLike)):  # pathlib's TypeError named no parameter
        raise InvalidTypeError.make("path", "a results file, a JSON report or a run's folder (a str or path)", path)
    with collector_paused():  # millions of small objects, none in a cycle (see stability.bulk)
        return _load_results(Path(path))


def _load_results(path: Path) -> CorpusResult:
    if path.is_dir():
        found = [path / name for name in (RESULTS_FILE, "report.json") if (path / name).is_file()]
        if not found:
            raise InvalidParameterError(f"{path} holds neither {RESULTS_FILE} nor report.json: not the output folder "
                                        "of a run")
        path = found[0]
    if not path.is_file():
        raise InvalidParameterError(f"results file {str(path)!r} does not exist")
    report = _from_report(path)
    if report is not None:
        return report
    scan = _scan(path)
    run = _records(scan, path)
    lock = _Lock(path)
    if lock.busy():
        warn(f"{path}: a run ({lock.owner()}) holds its lock and may still be writing it; what is read covers "
             f"the {len(run.entries)} (segmenter, document) pair(s) finished so far", ResultsWarning)
    if not run.header:
        raise CorpusFormatError(
            "not a results file: expected the run record ({\"type\": \"run\", ...}) that a run writes first; "
            + ("the file is empty or blank" if not path.read_bytes().strip() else "found none"),
            path=str(path),
        )
    if scan.dropped:  # said once the file is known for a results file: of another file, only the error shows
        warn(scan.dropped, ResultsWarning)
    labels = run.settings.get("segmenters", []) if isinstance(run.settings, Mapping) else None
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise CorpusFormatError("the run header must hold settings with a list of segmenter labels; "
                                f"received {labels!r:.60}", path=str(path), line=1)
    documents: dict[str, list[StabilityResult]] = {label: [] for label in labels}
    failures: list[Failure] = []
    for entry in run.entries.values():
        if isinstance(entry.value, StabilityResult):
            documents.setdefault(entry.value.segmenter, []).append(entry.value)
        else:
            failures.append(entry.value)
    # what the run's own report says beside its settings: the documents reached (a cut file: those
    # completed); how it ran (results.EXECUTION_SETTINGS) is not recorded, as it does not change a result
    settings = {**run.settings, "n_documents": len(dict.fromkeys(doc for _, doc in run.entries))}
    if run.provenance:
        settings["provenance"] = run.provenance
    return _corpus_result(documents, failures, settings, path)


def _with_headline_interval(result: StabilityResult, confidence: float, n_bootstrap: int) -> StabilityResult:
    """``result`` from a file written before results carried ``headline_ci``: with the interval
    the run would have stored, recomputed from its restarts (same draws)."""
    if result.shuffle is None or not all(math.isnan(x) for x in result.headline_ci):
        return result
    from .outcome import stored_headline_interval

    return replace(result, headline_ci=stored_headline_interval(result, confidence, n_bootstrap))


# ----------------------------------------------------------------------------------------------
# writing
# ----------------------------------------------------------------------------------------------
def _marker_call(info: Any) -> tuple[str, str, str] | None:
    """(segmenter, document, which call) named by a ``.running`` marker, or None when it is not
    one this module wrote."""
    if not isinstance(info, dict) or not all(isinstance(info.get(k), str) for k in ("segmenter", "document")):
        return None
    stream, restarts = info.get("stream"), info.get("restarts")
    if stream is None and restarts is None:
        return info["segmenter"], info["document"], "its initial segmentation"
    if (isinstance(stream, str) and isinstance(restarts, list) and len(restarts) == 2
            and all(isinstance(r, int) and not isinstance(r, bool) and r >= 0 for r in restarts)):
        return info["segmenter"], info["document"], f"restarts {restarts[0]}-{restarts[1] - 1} of the {stream} stream"
    return None


class ResultsLockedError(StabilityError, RuntimeError):
    """Another run holds the lock of a results file."""


class ResultsWriteError(StabilityError, OSError):
    """The results file, its lock or its marker could not be written (a full disk, a folder made
    read-only, a quota, an I/O error).

    An ``OSError`` with the operating system's ``errno``, ``strerror`` and ``filename``, whose
    message also says what the results file keeps and how to continue.

    Parameters
    ----------
    message : str
        The whole message: the file, the reason, what is kept, what to do.
    cause : OSError
        The operating system's error (its ``errno`` and ``strerror`` are this error's).
    filename : str
        The file that could not be written.
    """

    def __init__(self, message: str, cause: OSError, filename: str) -> None:
        super().__init__(cause.errno, cause.strerror or str(cause), filename)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _reason(exc: OSError) -> str:
    """An operating-system error's reason, without Python's ``[Errno N]``."""
    return exc.strerror or str(exc) or type(exc).__name__


class _Lock:
    """``<results file>.lock``, created exclusively; it names the process holding it, and a lock
    left by a dead process of this host is taken over with a warning."""

    def __init__(self, target: Path) -> None:
        self.target = target
        self.path = target.with_name(target.name + ".lock")
        self.held = False

    def acquire(self) -> None:
        for attempt in (0, 1):
            try:
                descriptor = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if attempt == 0 and self._stale():
                    continue
                raise self.locked() from None
            self.held = True  # from here, whatever happens, release() removes it
            try:
                with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                    handle.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))
            except BaseException as exc:
                # a lock naming no owner would keep every later run out, as if one were running
                self.release()
                if isinstance(exc, OSError):
                    raise ResultsWriteError(
                        f"cannot write the lock file {self.path}: {_reason(exc)}; the run did not start and "
                        f"{self.target} is as it was", exc, str(self.path)) from exc
                raise
            return

    def locked(self) -> ResultsLockedError:
        """The error saying that another run holds the lock."""
        return ResultsLockedError(
            f"{self.path} exists: another run ({self.owner()}) is writing {self.target}; wait for it to "
            "end, or delete the lock file if no run is using that folder")

    def busy(self) -> bool:
        """Whether the lock is there and not known to be left by an ended process (nothing removed)."""
        return self.path.exists() and not self._ended()

    def _info(self) -> dict[str, Any]:
        try:
            info = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return info if isinstance(info, dict) else {}

    def owner(self) -> str:
        info = self._info()
        return f"pid {info.get('pid', '?')} on {info.get('host', '?')}"

    def _ended(self) -> int | None:
        """The process of this host that wrote the lock, when it has ended (else ``None``)."""
        info = self._info()
        pid = info.get("pid")
        if info.get("host") != socket.gethostname() or not isinstance(pid, int) or pid <= 0:
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            return None
        return None

    def _stale(self) -> bool:
        pid = self._ended()
        if pid is None:
            return False
        warn(f"{self.path}: removed a lock left by process {pid}, which has ended", ResultsWarning)
        self.path.unlink(missing_ok=True)
        return True

    def release(self) -> None:
        if self.held:
            self.path.unlink(missing_ok=True)
            self.held = False


class ResultsStore:
    """The results file of one run, open for writing (a context manager).

    Parameters
    ----------
    path : path
        The results file.
    settings : dict
        The header's ``settings`` (see the module docstring).
    corpus : dict, optional
        :func:`corpus_fingerprint` of the corpus when it is known in full before the run.
    resume, overwrite, retry_failed : bool
        As in :class:`~stability.settings.Settings`.
    provenance : dict, optional
        The header's ``provenance`` (default: :func:`provenance` of this process); on resume the
        file's own is kept, but for the :data:`SEGMENTER_CODE` of the segmenters added or computed
        again (their code changed), which is this one's.
    defaults : dict, optional
        ``label -> {parameter: default}`` of the run's segmenters
        (:func:`stability.segmenter.parameter_defaults`, as JSON): a resume accepts results
        stored without a parameter a segmenter has gained since when its value is its default.
    """

    def __init__(self, path: str | os.PathLike, settings: dict[str, Any], *, corpus: dict[str, Any] | None = None,
                 resume: bool = False, overwrite: bool = False, retry_failed: bool = False,
                 provenance: dict[str, Any] | None = None, defaults: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.path = Path(path)
        self.settings = settings
        self.defaults = dict(defaults or {})
        self.corpus = corpus
        #: the header's ``provenance``: this run's, or on resume the one the file was started with
        self.provenance = _current() if provenance is None else provenance
        self._own = self.provenance  # this process's, whatever the file's
        self.resume, self.overwrite, self.retry_failed = resume, overwrite, retry_failed
        self.completed: dict[tuple[str, str], Entry] = {}
        #: the segmenters whose code changed since the file's results (:meth:`_recomputed`): computed again
        self._recompute: set[str] = set()
        self._header_due = False  # a resume's header (segmenters added or computed again), due before its first record
        self._seen: dict[str, int] = {}  # the documents of the run so far -> their place in the corpus
        #: documents the file holds records of in corpus order (not only records written ahead of it),
        #: in the order they were written
        self._recorded: dict[str, None] = {}
        self._ahead: dict[str, int] = {}  # documents with records written ahead of corpus order -> their place
        self._handle: Any = None  # unbuffered: a failed write leaves nothing pending to write again
        #: the (segmenter, document) pairs the file holds, read on resume or written by this run
        self._pairs: set[tuple[str, str]] = set()
        self._lock = _Lock(self.path)
        self._synced = 0.0
        self._marker = self.path.with_name(self.path.name + ".running")
        self._marker_handle: Any = None  # the marker, open while this run writes it (rewritten in place)
        self._marker_length = 0  # the longest marker written: a shorter one is padded to it
        #: pairs to run alone in a worker process, where a crash is contained: the one that was running
        #: when a previous in-process run died, and with ``retry_failed`` the pairs whose recorded
        #: failure is a crash (in-process, it would kill the run)
        self.contained: set[tuple[str, str]] = set()
        self._failed_open = False  # a refused resume leaves the folder as it was, its marker included

    def __enter__(self) -> "ResultsStore":
        self.open()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- opening -----------------------------------------------------------------------------
    def open(self) -> None:
        """Create (or, with ``resume``, continue) the file, holding its lock."""
        if str(self.path) in ("", ".") or self.path.is_dir():
            raise InvalidParameterError.make("output", "a results file path (not a folder)", str(self.path))
        if self.path.exists() and not (self.resume or self.overwrite):
            if self._lock.busy():  # a run is writing it: its marker names a call in progress, not a death
                raise self._lock.locked()
            if self._read_marker() is None and not _holds_results(self.path):
                # a run that stopped before its first result (its corpus failed to read, say): there
                # is nothing to keep, and refusing would only send the user to --overwrite
                warn(f"{self.path}: replaced; it held no result (a run that stopped before its first one)",
                     ResultsWarning)
                self.overwrite = True
        if self.path.exists() and not (self.resume or self.overwrite):
            raise InvalidParameterError(
                f"results file {str(self.path)!r} already exists{self._crash_note()}; resume it (resume=True) "
                "or replace it (overwrite=True)"
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock.acquire()
        try:
            if self.resume and self.path.exists() and self.path.stat().st_size > 0:
                self._continue()
            else:
                self._handle = self.path.open("wb", buffering=0)
                self._write(self._header())
        except BaseException:
            self._failed_open = True
            self.close()
            raise

    def _continue(self) -> None:
        scan = _scan(self.path)
        if scan.dropped:
            warn(f"{scan.dropped}; cut off before resuming", ResultsWarning)
        run = _records(scan, self.path)
        added = self._check(run) if scan.records else []
        recomputed = self._recomputed(run, added)
        self.completed = run.entries  # all of them, to check the corpus by, even those computed again
        self._recompute = set(recomputed)
        if self.retry_failed:
            self.contained = {key for key, entry in run.entries.items()
                              if isinstance(entry.value, Failure) and entry.value.kind == "crash"}
        self._pairs = {key for key in run.entries if key[0] not in self._recompute}
        self._recorded = dict.fromkeys(doc for _, doc in run.entries if doc not in run.ahead)
        self._ahead = run.ahead
        os.truncate(self.path, scan.end)
        self._handle = self.path.open("ab", buffering=0)
        if scan.needs_newline:
            self._append(b"\n", self.path)
        if not any(record["type"] == "run" for _, record in scan.records):
            self._write(self._header())
            self._take_marker()
            return
        if run.provenance:
            self._check_versions(run.provenance)
            self.provenance = run.provenance
        if added or recomputed:
            # the last run record of a file is its header: this one lists the segmenters added, and
            # the command of this run (run afresh, it computes every pair of the file again)
            self.corpus = self.corpus or run.corpus
            if added:
                place = ("command", "cwd")
                self.provenance = {**{k: v for k, v in self.provenance.items() if k not in place},
                                   **{k: v for k, v in self._own.items() if k in place}}
            # where the added segmenters come from, and the code of now of those computed again
            own = self._own.get(SEGMENTER_CODE) or {}
            renewed = {*added, *recomputed}
            code = {**{label: v for label, v in (self.provenance.get(SEGMENTER_CODE) or {}).items()
                       if label not in renewed},
                    **{label: v for label, v in own.items() if label in renewed}}
            self.provenance = {k: v for k, v in self.provenance.items() if k != SEGMENTER_CODE}
            if code:
                self.provenance[SEGMENTER_CODE] = code
            # written with the first record of this resume (:meth:`add`): a resume refused while it runs
            # (another corpus, found as its documents come) leaves the file as it was
            self._header_due = True
            if added:
                warn(f"{self.path}: segmenter(s) {', '.join(map(repr, added))} added to the run it holds; the "
                     "results of the others are reused", ResultsWarning)
        self._take_marker()

    def _header(self) -> dict[str, Any]:
        return {"type": "run", "settings": self.settings, "corpus": self.corpus, "provenance": self.provenance}

    def _recomputed(self, run: RunRecords, added: list[str]) -> dict[str, list[str]]:
        """The segmenters of the file whose code changed since their results were computed (a
        plugin's package version, a wrapped library's version, a local module's file digest:
        :data:`SEGMENTER_CODE` of the file's last header and of this run differ), each with what
        changed. Their pairs are computed again, not reused (:meth:`reuse`; their records still
        check that the corpus is the same), with a :class:`ResultsWarning` naming the segmenter, the
        code then and now and how many pairs; the header the resume writes names the code of now
        (:func:`_superseded`: the readers then leave out the records above it, even those the resume
        does not get to compute again). As joblib.Memory or a build tool does when a function's code
        changes: the results of one label are never of two segmenters. The others are reused."""
        if not run.header:
            return {}
        changed = {label: said for label, said in _code_changes(run.provenance.get(SEGMENTER_CODE),
                                                                   self._own.get(SEGMENTER_CODE)).items()
                   if label not in added}
        for label, said in changed.items():
            n = sum(1 for key in run.entries if key[0] == label)
            warn(f"{self.path}: the code of segmenter {label!r} changed since its results were computed "
                 f"({'; '.join(said)}): its {n} (segmenter, document) pair(s) there are computed again, not reused, "
                 "and the run record names the code of now", ResultsWarning)
        return changed

    def _check_versions(self, recorded: dict[str, Any]) -> None:
        """Warn when the file was started under other versions of stability, Python or numpy than
        this resume runs. Unlike a segmenter's code (:meth:`_recomputed`), such a change does not
        make the resume compute anything again: it concerns every segmenter of the file at once
        (computing them all again is a fresh run, which the user can start with ``overwrite``), and
        it is not the code of a segmenter measured. The record keeps the first versions, and the
        warning says so."""
        changed = [f"{key} {recorded[key]} (now {self.provenance.get(key)})" for key in VERSION_KEYS
                   if key in recorded and recorded[key] != self.provenance.get(key)]
        if changed:
            warn(f"{self.path}: its results were computed with {', '.join(changed)}; the results this "
                 "resume adds come from the versions of now, and the report records the first ones",
                 ResultsWarning)

    def _read_marker(self) -> Any:
        try:
            return json.loads(self._marker.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            return f"unreadable ({type(exc).__name__})"

    def _crash_note(self) -> str:
        found = _marker_call(self._read_marker())
        if found is None:
            return ""
        return (f" and its run died while segmenter {found[0]!r} was running on document {found[1]!r} "
                "(resuming runs that pair again in a worker process)")

    def _take_marker(self) -> None:
        """A marker left by a run that died during an in-process call: that pair is ``contained``,
        run again where its death can be contained (see the module docstring)."""
        info = self._read_marker()
        if info is None:
            return
        found = _marker_call(info)
        if found is None:
            warn(f"{self._marker}: not a marker this program wrote ({str(info)[:80]}); removed",
                 ResultsWarning)
        elif found[:2] not in self.completed or found[:2] in self.contained:
            self.contained.add(found[:2])
            warn(f"{self.path}: the previous run died during {found[2]} of segmenter {found[0]!r} on "
                 f"document {found[1]!r}; that pair runs again in a worker process, where a crash is "
                 "recorded as its failure", ResultsWarning)
        self._marker.unlink(missing_ok=True)

    def _refuse(self, why: str, keep: str) -> ResumeRefusedError:
        """A resume refused for ``why``: what to ``keep`` to resume, or how to start afresh (:data:`_AFRESH`)."""
        return ResumeRefusedError(f"cannot resume {self.path}: {why}; {keep}, or {_AFRESH}", reason=why, keep=keep)

    def _check(self, run: RunRecords) -> list[str]:
        """The file must come from the same settings, segmenter parameters and corpus; the run may
        add segmenters (:meth:`_added`), which are returned."""
        current = json.loads(json.dumps(self.settings))
        params = current.pop("segmenter_params", {})
        previous = {k: v for k, v in run.settings.items() if k != "segmenter_params"}
        added = self._added(run)
        before, now = previous.get("segmenters"), current.get("segmenters")
        reordered = isinstance(before, list) and isinstance(now, list) and sorted(map(str, before)) == sorted(map(str, now))
        if added or reordered:  # the same segmenters in another order compute the same results
            previous["segmenters"] = now
        if previous != current:
            changed = sorted(k for k in set(previous) | set(current) if previous.get(k) != current.get(k))
            said = "; ".join(f"{k}: {_short(previous.get(k))} then, {_short(current.get(k))} now" for k in changed)
            raise self._refuse(f"it was written with different settings ({said})",
                               "resume with the same settings")
        if run.corpus and self.corpus and run.corpus != self.corpus:
            raise self._refuse(
                f"it was computed on another corpus ({counted(run.corpus.get('n_documents'), 'document')}, fingerprint "
                f"{run.corpus.get('content')}; now {counted(self.corpus['n_documents'], 'document')}, {self.corpus['content']})",
                "resume on the same corpus")
        for entry in run.entries.values():
            value = entry.value
            if isinstance(value, StabilityResult) and value.segmenter in params:
                stored, defaults = _jsonable(value.params), self.defaults.get(value.segmenter, {})
                if not _same_params(stored, params[value.segmenter], defaults):
                    raise self._refuse(
                        f"results of segmenter {value.segmenter!r} were computed with parameters "
                        f"{stored}, now {params[value.segmenter]} "
                        f"({_params_changed(stored, params[value.segmenter], defaults)})",
                        "resume with the same parameters")
        return added

    def _added(self, run: RunRecords) -> list[str]:
        """The segmenters this run adds to those the file was written for (its other settings
        checked as always): the file's results are reused and only the new segmenters' pairs are
        computed. A segmenter of the file left out of the run is refused: its results would stay in
        the file, read back beside the others."""
        before, now = run.settings.get("segmenters"), self.settings.get("segmenters")
        if not (isinstance(before, list) and isinstance(now, list)) or before == now:
            return []
        dropped = [label for label in before if label not in now]
        if dropped:
            raise self._refuse(
                f"it holds results of segmenter(s) {', '.join(map(repr, dropped))}, which this run leaves out",
                "keep them in the run (their results are reused, not computed again)")
        return [label for label in now if label not in before]

    # -- during the run ------------------------------------------------------------------------
    def reuse(self, label: str, doc_id: str, doc_hash: str) -> StabilityResult | Failure | None:
        """What the file already holds for (``label``, document), if it can be reused: a result,
        or a recorded failure (unless ``retry_failed``), of a segmenter whose code has not changed
        (:meth:`_recomputed`). A record computed on a different document with the same id is an
        error."""
        place = self._seen.setdefault(doc_id, len(self._seen))
        entry = self.completed.get((label, doc_id))
        if entry is None:
            self._check_order(doc_id)
            return None
        if self._ahead.get(doc_id, place) != place:
            raise self._refuse(
                f"its results of document {doc_id!r} were computed as document {self._ahead[doc_id] + 1} of the corpus, "
                f"which has it as document {place + 1}: another corpus, or these documents in another order",
                "resume on the same corpus in the same order")
        if entry.document_hash is not None and entry.document_hash != doc_hash:
            raise self._refuse(
                f"document {doc_id!r} differs from the one its results were computed on (another corpus, or the "
                "document changed)", "resume on the same corpus")
        if label in self._recompute or (isinstance(entry.value, Failure) and self.retry_failed):
            return None
        return entry.value

    def _check_order(self, doc_id: str) -> None:
        """A document the file has no record of may only come after every document it has: records
        are written in corpus order, so an earlier new document means another corpus (or the same
        documents in another order), refused before anything of it is computed or appended."""
        if doc_id in self._recorded or not self._recorded:
            return
        waiting = [doc for doc in self._recorded if doc not in self._seen]
        self._recorded = {}  # checked once: past this document, every new one is
        if waiting:
            raise self._refuse(
                f"this corpus has document {doc_id!r}, of which the file holds no result, before "
                f"{len(waiting)} document(s) of which it does (e.g. {waiting[0]!r}): its results were computed on "
                "another corpus, or on these documents in another order",
                "resume on the same corpus in the same order")

    def add(self, value: StabilityResult | Failure, doc_hash: str, ahead: int | None = None) -> None:
        """Append the record of one finished pair (flushed at once, fsynced about every second).

        ``ahead``: the place of its document in the corpus (0-based), for a pair written before a
        pair that precedes it in corpus order (a run interrupted while that one was running); the
        readers put it back in its place (see the module docstring)."""
        kind = "result" if isinstance(value, StabilityResult) else "failure"
        record: dict[str, Any] = {"type": kind, "document_hash": doc_hash}
        if ahead is not None:
            record["document_index"] = ahead
        record[kind] = value.to_dict()
        if self._header_due:
            self._write(self._header())
            self._header_due = False
        self._write(record, (value.segmenter, value.document or ""))

    def running(self, label: str, doc_id: str, doc_hash: str, stream: str | None, restarts: range | None) -> None:
        """Name the in-process call about to run (the ``.running`` marker; see the module docstring)."""
        info = {"segmenter": label, "document": doc_id, "document_hash": doc_hash, "stream": stream,
                "restarts": None if restarts is None else [restarts.start, restarts.stop]}
        data = json.dumps(info).encode("utf-8")
        # One file, written over from its start: a write and a rename per call cost about 0.5 ms on
        # ext4 (a rename over a file flushes it), 3 times a pair. Spaces pad a marker shorter than
        # one before it (JSON allows them after the value); a marker is one small write, so a
        # process that dies leaves the last one whole.
        try:
            if self._marker_handle is not None and os.fstat(self._marker_handle.fileno()).st_nlink == 0:
                # removed under the run: opened again by its name, which fails if its folder went with it
                # (the results file's too: the error then says so), as a new file each call did
                self._marker_handle.close()
                self._marker_handle = None
            if self._marker_handle is None:
                self._marker_handle = self._marker.open("wb", buffering=0)
                self._marker_length = 0
            self._marker_handle.seek(0)
            view = memoryview(data.ljust(self._marker_length))
            while view:
                view = view[self._marker_handle.write(view):]
        except OSError as exc:
            raise self._write_error(exc, self._marker) from exc
        self._marker_length = max(self._marker_length, len(data))

    def _write_error(self, exc: OSError, where: Path) -> ResultsWriteError:
        """``exc``, met writing ``where``, said with what the results file keeps and how to go on."""
        n = len(self._pairs)
        kept = (f"the {n} (segmenter, document) pair(s) finished before it are in {self.path}" if n else
                f"no (segmenter, document) pair had finished, {self.path} holds no results")
        if self._deleted():
            return ResultsWriteError(
                f"cannot write {where}: {_reason(exc)}; {self.path} itself was deleted during the run (its folder "
                "removed?), and the results it held with it: run again", exc, str(where))
        return ResultsWriteError(
            f"cannot write {where}: {_reason(exc)}; {kept}; once it can be written again, resume the run "
            "(resume=True) to compute the rest (a line the failure cut is dropped then)", exc, str(where))

    def _deleted(self) -> bool:
        """Whether the open results file has been deleted (no name links to it any more)."""
        try:
            return self._handle is not None and os.fstat(self._handle.fileno()).st_nlink == 0
        except (OSError, ValueError):  # a closed handle: nothing to tell
            return False

    def finish(self) -> None:
        """At the end of the corpus: results of documents that were not in it are an error."""
        stale = sorted({doc for _, doc in self.completed} - set(self._seen))
        if stale:
            raise self._refuse(
                f"it holds results of {len(stale)} document(s) that are not in this corpus (e.g. {stale[0]!r}): "
                "a corpus cut shorter (a smaller limit) or another corpus",
                "resume with the whole corpus it was computed on")

    def _write(self, record: dict[str, Any], pair: tuple[str, str] | None = None) -> None:
        """Append one record (of ``pair``, counted once its line is written), fsynced about every second."""
        self._append((json.dumps(_strict(record), allow_nan=False) + "\n").encode("utf-8"), self.path)
        if pair is not None:
            self._pairs.add(pair)
        now = time.monotonic()
        if now - self._synced >= _SYNC_EVERY:
            self._sync()
            self._synced = now

    def _append(self, data: bytes, where: Path) -> None:
        """Write ``data`` at the end of the file, all of it (a write may take only part)."""
        view = memoryview(data)
        try:
            while view:
                view = view[self._handle.write(view):]
        except OSError as exc:
            raise self._write_error(exc, where) from exc

    def _sync(self) -> None:
        try:
            os.fsync(self._handle.fileno())
        except OSError as exc:  # a delayed write failing (a full disk, an I/O error) shows here
            raise self._write_error(exc, self.path) from exc

    def close(self) -> None:
        """Fsync and close the file; release the lock."""
        try:
            if self._handle is not None and not self._handle.closed:
                try:
                    self._sync()
                finally:
                    self._handle.close()
        finally:
            handle, self._marker_handle = self._marker_handle, None
            try:
                if handle is not None:
                    handle.close()
            finally:
                if self._lock.held and not self._failed_open:  # ours: so is the marker (ours, or a dead run's)
                    self._marker.unlink(missing_ok=True)
                self._lock.release()


#: A parameter absent on one side of :func:`_changed_params`.
_ABSENT = object()


def _changed_params(stored: Mapping[str, Any], now: Mapping[str, Any],
                    defaults: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """The parameters that differ between results stored with ``stored`` and a segmenter with
    ``now``, as (name, then, now), :data:`_ABSENT` where a side has none: a parameter the
    segmenter gained since counts at its default then (a parameter is added with a default that
    keeps what the segmenter did)."""
    changed = []
    for key in sorted(set(stored) | set(now)):
        before, after = stored.get(key, defaults.get(key, _ABSENT)), now.get(key, _ABSENT)
        if before is _ABSENT or after is _ABSENT or before != after:
            changed.append((key, before, after))
    return changed


def _same_params(stored: Mapping[str, Any], now: Mapping[str, Any], defaults: Mapping[str, Any]) -> bool:
    """Whether results stored with parameters ``stored`` are those of a segmenter with ``now``
    (:func:`_changed_params` finds none)."""
    return not _changed_params(stored, now, defaults)


def _params_changed(stored: Mapping[str, Any], now: Mapping[str, Any], defaults: Mapping[str, Any]) -> str:
    """The parameters :func:`_changed_params` finds, as the settings refused on resume are said
    (``mask_size: 11 then, 9 now``): in a C99's seven parameters the one that changed was left to
    be found by comparing two dicts. One since dropped is ``absent`` now."""
    def shown(value: Any) -> str:
        return "absent" if value is _ABSENT else _short(value)

    return "; ".join(f"{key}: {shown(before)} then, {shown(after)} now"
                     for key, before, after in _changed_params(stored, now, defaults))


def _code_changes(before: Any, now: Any) -> dict[str, list[str]]:
    """What changed between two :data:`SEGMENTER_CODE` records, for the segmenters of the first,
    per label, said as changed settings are: ``{"mine": ["mypkg: 1.0 then, 1.1 now"]}`` (``not
    used`` for a package on one side only). A label only the second names tells nothing: a
    segmenter added since, or one of a file written before its code was kept, where a resume that
    added segmenters recorded only theirs. A first record without the key tells nothing either:
    ``{}``. It lists only segmenters with code from outside stability."""
    if not isinstance(before, dict):
        return {}
    now = now if isinstance(now, dict) else {}
    changed: dict[str, list[str]] = {}
    for label in before:
        was, is_ = before[label], now.get(label)
        was, is_ = was if isinstance(was, dict) else {}, is_ if isinstance(is_, dict) else {}
        for source in dict.fromkeys([*was, *is_]):
            if was.get(source) != is_.get(source):
                changed.setdefault(str(label), []).append(
                    f"{source}: {was.get(source, 'not used')} then, {is_.get(source, 'not used')} now")
    return changed


def _provenance_of(record: Mapping[str, Any]) -> dict[str, Any]:
    """A run record's ``provenance`` (a copy; ``{}`` when it has none or it is not a mapping)."""
    kept = record.get("provenance")
    return dict(kept) if isinstance(kept, dict) else {}


def _superseded(before: Mapping[str, Any], now: Mapping[str, Any]) -> set[str]:
    """The segmenter labels whose records a later run record (header) ``now`` supersedes, after
    ``before``: those whose code changed between them (:func:`_code_changes` of their
    :data:`SEGMENTER_CODE`). A resume that finds a segmenter's code changed computes its pairs
    again and writes a header naming the new code, so the records of that segmenter above the
    header are another segmenter's: not read back, whether or not the resume got to recompute them."""
    return set(_code_changes(before.get(SEGMENTER_CODE), now.get(SEGMENTER_CODE)))


def run_header(settings: Any, segmenters: Mapping[str, Any]) -> dict[str, Any]:
    """The header's ``settings`` of a run: the recorded settings, the segmenter labels, the format
    version, the reference-metric options and every segmenter's parameters."""
    from .segmenter import segmenter_params

    return {
        **settings.to_dict(),
        "segmenters": list(segmenters),
        "format_version": FORMAT_VERSION,
        **{name: getattr(settings, name) for name in _OPTION_SETTINGS},
        "segmenter_params": {label: _jsonable(segmenter_params(s)) for label, s in segmenters.items()},
    }
