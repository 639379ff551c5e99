"""The report of a corpus run (:class:`~stability.results.CorpusResult`) as a :class:`Report`.

Layout follows Lamprier et al. (2007), Tables 1-3: one row per segmenter, each score as
"mean (std)" over documents; reference metrics sit beside the stability scores when the documents
have references. Every column comes from the catalogue (:mod:`stability.catalogue`); the first
stability column is the headline score (:data:`~stability.catalogue.HEADLINE`), chosen by the
validation study (``docs/validation.md``): the raw F1 of the paper rewards segmenters that ignore
the content, so it is not the headline.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..catalogue import HEADLINE, MULTI_REFERENCE, REFERENCE, STABILITY, Measure
from ..results import CorpusResult, StabilityResult, Stat, _jsonable
from ..summary import correlations
from .model import Report, Section, mean_std, number

__all__ = ["HEADLINE_NOTE", "corpus_report", "summary_section", "document_section", "headline_stat", "clean"]

#: Why the headline is the headline, printed under the summary in every format.
HEADLINE_NOTE = (
    "Headline: stability (shuffle-corrected) = (F1 - shuffle F1) / (1 - shuffle F1): the stability F1 "
    "corrected by the shuffle control, 0 for segmenters that ignore the content. In the validation study on "
    "Choi's 3-11 set (docs/validation.md) it ranked segmenters closest to the reference metrics, while the raw "
    "F1 ranked content-blind segmenters (no, all, evenly spaced or random boundaries: F1 = 1) first. Per "
    "document it is unbounded below when the shuffle control is almost perfectly stable: read it with the gap."
)

#: What the stability test is, for formats with room for a paragraph (HTML).
INTRODUCTION = (
    "Stability test of Lamprier et al. (2007): units are permuted within the segments a segmenter found, the "
    "document is segmented again, and the boundaries found again are counted. Scores are \"mean (std)\" over "
    "documents. content-blind: the shuffle control (units permuted across the whole document) is as stable as "
    "the real test, so the score carries no evidence about the content."
)

STRIPS_NOTE = ("Blue bars: initial boundaries, height = share of restarts that found them again; grey: boundaries "
               "that appeared only after permutation; red ticks: reference boundaries.")


def _stability_measures(compact: bool) -> list[Measure]:
    """Reported stability scores, headline first (the compact selection when ``compact``)."""
    return [m for m in STABILITY.values() if m.report and (m.compact or not compact)]


def _reference_measures(result: CorpusResult, compact: bool = False) -> list[Measure]:
    present = {k for s in result.summary.values() for k in s.reference}
    return [m for table in (REFERENCE, MULTI_REFERENCE) for m in table.values()
            if m.report and m.name in present and (m.compact or not compact)]


def flags(content_blind: bool | None, deterministic: bool | None, failed: int = 0) -> str:
    """The warnings of a segmenter or document, comma-separated."""
    words = ["content-blind"] if content_blind else []
    words += ["non-deterministic"] if deterministic is False else []
    words += [f"{failed} failed"] if failed else []
    return ", ".join(words)


def headline_stat(result: CorpusResult, label: str) -> Stat:
    """Mean, std and bootstrap interval over documents of the headline score of one segmenter
    (documents run without the shuffle control are left out)."""
    return result.summary[label].macro[HEADLINE.name]


def _title(result: CorpusResult) -> str:
    n_docs = result.settings.get("n_documents", max((s.n_documents for s in result.summary.values()), default=0))
    restarts = result.settings.get("n_restarts", "?")
    return (f"Stability test: {n_docs} document{'' if n_docs == 1 else 's'}, {restarts} restarts, seed "
            f"{result.settings.get('seed', '?')} - mean (std) over documents - headline: {HEADLINE.title}")


def _headline_title(compact: bool) -> str:
    """The headline's column title: the long title, or three short lines in the compact table
    (its title and note name it in full)."""
    return "stab.\n(shuf.-\ncorr.)" if compact else HEADLINE.title


def _interval(stat: Stat | None, digits: int) -> str:
    return f"[{number(stat.ci[0], digits)}, {number(stat.ci[1], digits)}]" if stat and stat.n else "n/a"


def summary_section(result: CorpusResult, compact: bool = False, digits: int = 2) -> Section:
    """Per-segmenter summary, every score as "mean (std)"; the headline is the first stability column."""
    scores, refs = _stability_measures(compact), _reference_measures(result, compact)
    header = ["segmenter", "docs"] + [_headline_title(compact) if m is HEADLINE else m.short for m in scores]
    header += ["F1 95% CI", "flags"] + [m.short for m in refs]
    rows = []
    for label, s in result.summary.items():
        row = [label, str(s.n_documents)] + [mean_std(s.macro.get(m.name), m.digits or digits) for m in scores]
        row += [_interval(s.macro.get("f1"), digits), flags(s.content_blind, s.deterministic, s.n_failed)]
        rows.append(row + [mean_std(s.reference.get(m.name), digits) for m in refs])
    align = "LL" + "r" * len(scores) + "RL" + "r" * len(refs)
    return Section(_title(result), header, rows, notes=(HEADLINE_NOTE,), align=align, data=_summary_data(result))


def _raw(x: Any) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else repr(float(x))


def _summary_data(result: CorpusResult) -> tuple[list[str], list[list[Any]]]:
    """The summary with raw numbers (mean, std, CI bounds per score), as CSV writes it."""
    scores = [m.name for m in STABILITY.values() if m.report] + ["self_agreement_f1"]
    refs = [m.name for m in _reference_measures(result)]
    header = ["segmenter", "params", "n_documents", "n_failed", "content_blind", "deterministic"]
    header += [f"{key}_{part}" for key in scores for part in ("mean", "std", "ci_low", "ci_high")]
    header += ["micro_precision", "micro_recall", "micro_f1"] + [f"ref_{k}_{p}" for k in refs for p in ("mean", "std")]
    rows = []
    for label, s in result.summary.items():
        row: list[Any] = [label, json.dumps(_jsonable(s.params), sort_keys=True), s.n_documents, s.n_failed,
                          s.content_blind, s.deterministic]
        for key in scores:
            st = s.macro[key]
            row += [_raw(st.mean), _raw(st.std), _raw(st.ci[0]), _raw(st.ci[1])]
        row += [_raw(s.micro["precision"]), _raw(s.micro["recall"]), _raw(s.micro["f1"])]
        for key in refs:
            st = s.reference.get(key)
            row += [_raw(st.mean), _raw(st.std)] if st else ["", ""]
        rows.append(row)
    return header, rows


def _document_cells(r: StabilityResult, scores: list[Measure], refs: list[Measure], digits: int) -> list[str]:
    cells = [r.segmenter, str(r.document), str(r.segmentation.n_units)]
    for m in scores:
        cells.append(number(m.value(r), 0 if m.digits is not None else digits))  # counts are whole per document
        if m.name == "f1":
            cells += [number(r.f1_ci[0], digits), number(r.f1_ci[1], digits)]
    cells.append(flags(r.content_blind, r.deterministic))
    cells += [number(r.reference_metrics.get(m.name), digits) for m in refs]
    cells.append(" ".join(f"{b}:{number(c, 2)}" for b, c in r.boundary_confidence.items()))
    return cells


def _document_table(result: CorpusResult, digits: int) -> tuple[list[str], list[list[str]], str]:
    scores, refs = _stability_measures(False), _reference_measures(result)
    header = ["segmenter", "document", "units"]
    for m in scores:
        header += [m.short] + (["F1 low", "F1 high"] if m.name == "f1" else [])
    header += ["flags"] + [m.short for m in refs] + ["boundary:confidence"]
    rows = [_document_cells(r, scores, refs, digits) for docs in result.documents.values() for r in docs]
    align = "LLr" + "r" * (len(scores) + 2) + "L" + "r" * len(refs) + "l"
    return header, rows, align


def document_section(result: CorpusResult, digits: int = 3) -> Section:
    """Per-document table (headline and gap included), with each boundary and its confidence."""
    header, rows, align = _document_table(result, digits)
    raw_header, raw_rows, _ = _document_table(result, 6)
    return Section("Per document", header, rows, align=align, data=(raw_header, raw_rows), detail=True)


def _correlation_section(result: CorpusResult, compact: bool) -> Section | None:
    corr = correlations(result.documents)
    if not corr:
        return None
    refs = [m for m in _reference_measures(result, compact) if m.ranked]
    header = ["stability score", "over"] + [m.short for m in refs]
    rows = [[score, over] + [number(taus.get(m.name), 2) for m in refs]
            for over in ("segmenters", "documents") for score, taus in corr.get(over, {}).items()]
    return Section("Kendall tau between stability and reference metrics (positive = agreement)", header, rows,
                   align="LL" + "r" * len(refs))


def _failure_section(result: CorpusResult) -> Section | None:
    if not result.failures:
        return None
    rows = [[f.segmenter, f.document, str(f.restart), f.error] for f in result.failures]
    return Section("Failures", ["segmenter", "document", "restart", "error"], rows, align="LLrl")


def clean(value: Any) -> Any:
    """``value`` with NaN floats replaced by None, recursively (strict JSON)."""
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _payload(result: CorpusResult) -> dict[str, Any]:
    data = result.to_dict()
    data["headline"] = {"score": HEADLINE.name, "title": HEADLINE.title, "note": HEADLINE_NOTE,
                        "summary": {label: headline_stat(result, label).to_dict() for label in result.summary}}
    data["correlations"] = clean(correlations(result.documents))
    data["report_version"] = 1
    return data


def corpus_report(result: CorpusResult, *, compact: bool = False, figures: bool = False,
                  max_strips: int = 20) -> Report:
    """The report of a run: summary, correlations, plots and strips (with ``figures``), the
    per-document table (a detail block), failures, settings."""
    from .figures import figure_sections

    blocks = [summary_section(result, compact), _correlation_section(result, compact)]
    blocks += figure_sections(result, max_strips, STRIPS_NOTE) if figures else []
    blocks += [document_section(result), _failure_section(result)]
    settings = json.dumps(clean(result.settings), indent=1, default=str)
    blocks.append(Section("Settings", text=settings))
    return Report("Stability report", [b for b in blocks if b is not None], lead=(INTRODUCTION,),
                  payload=_payload(result))
