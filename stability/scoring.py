"""Reference metrics on existing segmentations, with no segmenter involved (``stability score``).

Segmentations are read from files, paired by document id, and scored with
:func:`stability.metrics.compute_all` (plus :func:`~stability.metrics.multi_reference_metrics`
when a document has several references).

A segmentation file is either

* bare segmentations, one JSON object per line (``.jsonl``) or a JSON array of them (``.json``):
  ``{"id": ..., "boundaries": [...], "n_units": N}`` or ``{"id": ..., "masses": [...]}``
  (several annotators: ``"references": [[...], ...]`` with ``n_units``), or
* any corpus :func:`stability.readers.read_corpus` reads (Choi files, JSON lines with units, CSV
  label columns...), whose reference segmentations are used.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .exceptions import CorpusFormatError, InvalidParameterError, InvalidTypeError, StabilityError
from .readers.common import naming_document
from .segmentation import Segmentation

__all__ = ["read_segmentations", "score_files", "ScoreResult"]


@dataclass(frozen=True)
class _Entry:
    id: str
    segmentations: tuple[Segmentation, ...]
    times: Any = None


def _file_records(path: Path, encoding: str, errors: str) -> Iterator[tuple[int, Any]]:
    """``(line, object)`` of a JSON file read as the corpus reader reads it: JSON lines, or an
    array of objects (pretty-printed or not), in the same encoding (a UTF-8 byte-order mark
    skipped)."""
    from .readers.common import check_encoding, iter_lines
    from .readers.jsonl import _records

    yield from _records(path, iter_lines(path, check_encoding(encoding, errors), errors))


def _holds_units(record: dict[str, Any]) -> bool:
    """Whether a JSON record has units (under ``units`` or one of its aliases): a corpus document,
    not a bare segmentation."""
    from .readers.jsonl import KEY_ALIASES

    return "units" in record or any(key == "units" and alias in record for alias, key in KEY_ALIASES.items())


def _bare_records(path: Path, encoding: str = "utf-8", errors: str = "strict") -> Iterator[tuple[int, Any]] | None:
    """The records of a file of bare segmentations (JSON lines or a JSON array of objects
    without units), or None when the file is something else (a corpus, which the corpus
    reader reads and, if it is broken, reports)."""
    if path.suffix.lower() not in (".jsonl", ".json") or not path.is_file():
        return None
    records = _file_records(path, encoding, errors)
    try:
        first = next(records)
    except (StopIteration, CorpusFormatError, UnicodeDecodeError):
        records.close()
        return None  # the corpus reader says what is wrong with the file
    if not isinstance(first[1], dict) or _holds_units(first[1]):
        records.close()
        return None
    return itertools.chain([first], records)


def _parse_bare(path: Path, records: Iterable[tuple[int, Any]]) -> Iterator[_Entry]:
    for number, record in records:
        doc_id = str(record.get("id", number))
        try:
            if "masses" in record:
                segs = (Segmentation.from_masses(record["masses"]),)
            elif "boundaries" in record or "references" in record:
                if "n_units" not in record:
                    raise CorpusFormatError("'boundaries' needs 'n_units' (the number of units)", path=str(path), line=number)
                lists = [record["boundaries"]] if "boundaries" in record else record["references"]
                segs = tuple(Segmentation(b, record["n_units"]) for b in lists)
            else:
                raise CorpusFormatError(
                    "expected 'boundaries' with 'n_units', 'masses', or 'references' with 'n_units'",
                    path=str(path), line=number,
                )
        except CorpusFormatError:
            raise
        except StabilityError as exc:
            raise CorpusFormatError(naming_document(doc_id, exc), path=str(path), line=number) from None
        yield _Entry(doc_id, segs, record.get("times"))


#: The path that means standard input (``stability score -H -``), and how messages name it.
STDIN, STDIN_NAME = "-", "<stdin>"


def _stdin_records(encoding: str, errors: str) -> Iterator[tuple[int, Any]]:
    """Bare segmentations piped on standard input: JSON lines or a JSON array (a corpus, whose
    format is told by its files, is given as a file)."""
    from .readers.common import check_encoding
    from .readers.jsonl import _records

    stream = getattr(sys.stdin, "buffer", None)
    try:
        text = stream.read().decode(check_encoding(encoding, errors), errors) if stream else sys.stdin.read()
    except UnicodeDecodeError as exc:
        raise CorpusFormatError(f"not {encoding} text ({exc.reason} at byte {exc.start})", path=STDIN_NAME) from None
    for number, record in _records(Path(STDIN_NAME), iter(text.splitlines())):
        if not isinstance(record, dict) or _holds_units(record):
            raise CorpusFormatError("standard input takes segmentations ('boundaries' with 'n_units', 'masses' or "
                                    "'references'), not a corpus: give the corpus as a file", path=STDIN_NAME, line=number)
        yield number, record


def read_segmentations(path: str | os.PathLike, **reader_options: Any) -> Iterator[_Entry]:
    """Segmentations in a file, or piped on standard input when ``path`` is ``"-"``, by document
    id (see the module docstring for the formats)."""
    if str(path) == STDIN:
        options = reader_options.get("encoding", "utf-8"), reader_options.get("encoding_errors", "strict")
        yield from _parse_bare(Path(STDIN_NAME), _stdin_records(*options))
        return
    path = Path(path)
    records = _bare_records(
        path, reader_options.get("encoding", "utf-8"), reader_options.get("encoding_errors", "strict")
    )
    if records is not None:
        yield from _parse_bare(path, records)
        return
    from .readers import read_corpus

    for doc in read_corpus(path, **reader_options):
        if not doc.references:
            raise CorpusFormatError(f"document {doc.id!r} has no segmentation to score", path=str(path))
        yield _Entry(doc.id, doc.references, doc.times)


def _by_id(entries: Iterable[_Entry], path: str | os.PathLike) -> dict[str, _Entry]:
    """Entries by document id; an id given twice is an error naming the repeated ids."""
    found: dict[str, _Entry] = {}
    repeated: list[str] = []
    for entry in entries:
        if entry.id in found and entry.id not in repeated:
            repeated.append(entry.id)
        found[entry.id] = entry
    if repeated:
        raise CorpusFormatError(f"document ids must be unique; repeated: {', '.join(map(repr, repeated[:10]))}"
                                + (f" and {len(repeated) - 10} more" if len(repeated) > 10 else ""), path=str(path))
    return found


@dataclass(frozen=True)
class ScoreResult:
    """Metrics per document (paired by id) and their mean and standard deviation; ``window`` is
    the window asked for (``None``: the default, Lamprier et al.'s eq. 5; a policy name; an int)."""

    documents: dict[str, dict[str, float]]
    mean: dict[str, float] = field(default_factory=dict)
    std: dict[str, float] = field(default_factory=dict)
    window: Any = None

    def _repr_html_(self) -> str:
        """The report, as a notebook shows it (:func:`stability.reporting.notebook_html`)."""
        from .reporting import notebook_html

        return notebook_html(self)

    def to_dict(self) -> dict[str, Any]:
        """Strict JSON: NaN (not computed) and infinities (NWin / TNWin when their expectation is
        0, see :func:`~stability.metrics.nwin`) become None, as in the run reports."""
        def clean(d: dict[str, float]) -> dict[str, float | None]:
            return {k: (v if np.isfinite(v) else None) for k, v in d.items()}

        return {"mean": clean(self.mean), "std": clean(self.std),
                "documents": {k: clean(v) for k, v in self.documents.items()},
                "window": "lamprier" if self.window is None else self.window}


def score_files(
    reference: str | os.PathLike,
    hypothesis: str | os.PathLike,
    *,
    k: Any = None,
    tolerance: int = 0,
    gamma: float = 0.85,
    window_limit: int = 3,
    **reader_options: Any,
) -> ScoreResult:
    """Score every hypothesis segmentation against the reference(s) of the same document id.

    Every hypothesis must have a reference (an error names the missing ids); references without
    a hypothesis are an error too, so a partial file is never scored silently. Either path (not
    both) may be ``"-"``: segmentations piped on standard input.
    """
    from .metrics import compute_all, multi_reference_metrics

    if str(reference) == str(hypothesis) == STDIN:
        raise InvalidParameterError("reference and hypothesis cannot both be read from standard input ('-'): "
                                    "give one of them as a file")
    references = _by_id(read_segmentations(reference, **reader_options), reference)
    hypotheses = _by_id(read_segmentations(hypothesis, **reader_options), hypothesis)
    missing = sorted(set(hypotheses) - set(references))
    unmatched = sorted(set(references) - set(hypotheses))
    if missing or unmatched:
        parts = []
        if missing:
            parts.append(f"hypotheses without a reference: {missing[:5]}")
        if unmatched:
            parts.append(f"references without a hypothesis: {unmatched[:5]}")
        raise InvalidParameterError(f"documents must pair up by id; {'; '.join(parts)}")
    documents: dict[str, dict[str, float]] = {}
    for doc_id, hyp in hypotheses.items():
        ref = references[doc_id]
        if len(hyp.segmentations) > 1:
            raise InvalidParameterError(
                f"document {doc_id!r}: the hypothesis file gives {len(hyp.segmentations)} segmentations; score "
                "compares one hypothesis per document with its reference(s) (put each hypothesis in a file of its own)")
        h = hyp.segmentations[0]
        if h.n_units != ref.segmentations[0].n_units:
            raise InvalidParameterError(
                f"document {doc_id!r}: the hypothesis covers {h.n_units} units, the reference {ref.segmentations[0].n_units}"
            )
        try:
            values = compute_all(ref.segmentations[0], h, k=k, tolerance=tolerance, gamma=gamma, times=ref.times)
            if len(ref.segmentations) >= 2:
                values.update(multi_reference_metrics(ref.segmentations, h, window_limit=window_limit,
                                                      tolerance=tolerance))
        except (InvalidParameterError, InvalidTypeError) as exc:  # a window too wide for this document
            raise type(exc)(f"{exc} (document {doc_id!r})", parameter=exc.parameter) from None
        documents[doc_id] = {key: float(v) for key, v in values.items()}
    keys = list(dict.fromkeys(k for d in documents.values() for k in d))
    mean, std = {}, {}
    for key in keys:
        x = np.array([d.get(key, np.nan) for d in documents.values()], dtype=float)
        x = x[~np.isnan(x)]
        mean[key] = float(x.mean()) if x.size else float("nan")
        with np.errstate(invalid="ignore"):  # an infinite NWin has no spread: NaN, without a warning
            std[key] = float(x.std(ddof=1)) if x.size > 1 else float("nan")  # no spread from one value
    return ScoreResult(documents, mean, std, window=k)
