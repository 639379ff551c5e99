"""The report of a corpus run (:class:`~stability.results.CorpusResult`) as a :class:`Report`.

Layout follows Lamprier et al. (2007), Tables 1-3: one row per segmenter, each score as
"mean (std)" over documents; reference metrics sit beside the stability scores when the documents
have references. Every column comes from the catalogue (:mod:`stability.catalogue`); the first
stability column is the headline score (:data:`~stability.catalogue.HEADLINE`), chosen by the
pre-registered protocol of ``docs/validation-protocol.md`` and checked by the validation study
(``docs/validation.md``): the raw F1 of the paper rewards segmenters that ignore the content, so it
is not the headline.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Sequence
from typing import Any

from ..catalogue import HEADLINE, MULTI_REFERENCE, REFERENCE, STABILITY, STATISTICS, Measure, reference_measure
from ..checks import and_joined, counted
from ..comparison import COMPARISON_BRIEF, COMPARISON_NOTE, STABILITY_X_AGREEMENT
from ..exceptions import InvalidParameterError
from ..segmenter import TERM_BLIND_LINKED
from ..results import TERM_BLIND_SHARE, CorpusResult, Failure, StabilityResult, Stat, _json_float, _jsonable, map_floats
from ..stats import percentile_coverage_bound
from ..summary import COUNT_MARKS, count_marks, ranked_counts
from .model import Report, Section, clock, mean_std, number, raw, reader_flag, spelling

__all__ = ["HEADLINE_NOTE", "corpus_report", "summary_section", "document_section", "headline_stat", "clean"]

#: Why the headline is the headline, printed under the summary in every format.
HEADLINE_NOTE = (
    "Headline: stability = (F1 - C) / (1 - C) with C = max(shuffle-control F1, chance F1): how much more "
    "stable the boundaries are under permutations within their segments than once the document's arrangement "
    "is destroyed, or than boundaries placed at random in the same numbers; about 0 for segmenters that ignore the "
    "content, 0 for documents without boundaries and for documents the segmenter was term-blind on. Evidence (docs/validation*.md): "
    "across segmenter configurations it ranks in fair agreement with boundary similarity B on concatenations "
    "of unrelated texts (Kendall tau 0.79 on Choi's, 0.72 on task dialogues), on clinical textbook chapters "
    "(0.68) and on novels split into chapters (0.67), only moderately on Wikipedia articles and meeting "
    "transcripts (about 0.5) and poorly on open-domain chit-chat (0.38); on technical documentation it depends "
    "on the project and on which headings count (0.02 to 0.53 over eleven readings of six projects, below 0.3 "
    "on four): the references also reward the number "
    "of boundaries and penalise missed ones, which the stability test cannot see, and it overrates "
    "segmenters placing many boundaries in long documents (meeting transcripts, novels). "
    "Use it to compare segmenters over a corpus (per document it is noisy: the per-document table gives each "
    "value's interval over its restarts), and check it on a few annotated documents of your own (Kendall tau "
    "below)."
)

#: The same in brief, under the compact table a terminal shows (the full note is in every other
#: table and format).
HEADLINE_BRIEF = (
    "Headline: stability = (F1 - C) / (1 - C) with C = max(shuffle-control F1, chance F1): 0 for segmenters that "
    "ignore the content, for documents without boundaries and for documents it was term-blind on. How well it ranks segmenters depends on the kind of "
    "text (docs/validity.md): fairly on concatenated texts, clinical chapters and novels, moderately on Wikipedia "
    "articles and meetings, poorly on chit-chat, from not at all to moderately on technical documentation. Compare "
    "segmenters over a corpus, not documents, and check the ranking on a few annotated documents (Kendall tau below)."
)

def _headline_note(note: str, result: CorpusResult) -> str:
    """``note`` (:data:`HEADLINE_NOTE`, :data:`HEADLINE_BRIEF`) as this run's report says it: it
    points to the Kendall tau table below only when there is one (the documents have references)."""
    if result.correlations():
        return note
    # plain text, as every note: a terminal prints a code span's backticks as they are; in the caller's words
    return note.replace("(Kendall tau below)", f"({spelling().say('add_references', file='FILE')} adds a Kendall tau table)")


def no_shuffle_note(result: CorpusResult) -> tuple[str, ...]:
    """Why the headline, its shuffle-corrected predecessor and the gap are n/a: the run had no
    shuffle control, against which they are defined (a table of n/a said nothing of it)."""
    if result.settings.get("shuffle_control", True):
        return ()
    return ("n/a: this run had no shuffle control (shuffle_control = false), against which the headline and the "
            "gap are defined; run it with the shuffle control for them (F1 and the chance-corrected F1 of the full "
            "tables do not need it).",)


#: What the content-blind flag means, in the introduction of HTML reports and under a summary that shows it.
CONTENT_BLIND_MEANING = ("the shuffle control (units permuted across the whole document) is as stable as the real "
                         "test, so the score carries no evidence about the content")

#: What the stability test is, for formats with room for a paragraph (HTML).
INTRODUCTION = (
    "Stability test of Lamprier et al. (2007): units are permuted within the segments a segmenter found, the "
    "document is segmented again, and the boundaries found again are counted. Scores are \"mean (std)\" over "
    f"documents. content-blind: {CONTENT_BLIND_MEANING}."
)


def flag_notes(result: CorpusResult) -> list[str]:
    """What the content-blind and non-deterministic flags mean, naming the segmenters flagged, for
    each one some segmenter of ``result`` has (a terminal or Markdown report showed the flags
    without a word of what they mean; layout-only, term-blind and the count marks have notes of
    their own)."""
    blind = [label for label, s in result.summary.items() if s.content_blind]
    unstable = [label for label, s in result.summary.items() if s.deterministic is False]
    notes = []
    if blind:
        # flagged content-blind only with the shuffle control, so the headline was computed (NaN: not far)
        means = {label: headline_stat(result, label).mean for label in blind}
        far = {label: mean for label, mean in means.items() if abs(mean) >= FAR_FROM_ZERO}
        far_said = "" if not far else (
            "; here far from 0 (" + ", ".join(f"{label_list([label])} {mean:.2f}" for label, mean in far.items())
            + "): with a shuffle F1 near 1 the ratio divides by 1 - C, near 0, which stretches a small gap either way, "
            "so that value carries no evidence either")
        notes.append(f"content-blind ({label_list(blind)}): {CONTENT_BLIND_MEANING}, as for a rule that ignores the "
                     f"words (even spacing, no boundaries); its headline is about 0 or below, and the ranking sets it "
                     f"apart{far_said}.")
    if unstable:
        notes.append(f"non-deterministic ({label_list(unstable)}): two calls on the same document returned different "
                     "boundaries, so boundaries that do not come back after a permutation need not be the permutation's "
                     "doing: the test is not valid for it (give it a fixed random seed).")
    return notes

def layout_note() -> str:
    """What the layout-only flag means, under the summary of runs with the layout control; the
    options showing the layout-control F1 in the words of the caller
    (:func:`~stability.reporting.model.spelling`)."""
    said = spelling()
    return ("layout-only: the output does not change under the layout control (the document's words redistributed "
            "at random across units that keep their number of words and characters; F1 against the initial "
            "segmentation at least 1 - margin), so the boundaries come from the layout (unit lengths), not from "
            f"the content; the layout-control F1 is the column layout F1 of the full tables ({said.all_columns}, "
            f"Markdown, HTML, CSV), per document with {said.documents}.")


#: What to do with layout-only configurations (text chunkers), said when the run has one: by references if it has them.
#: The reference metric that ranks layout-only configurations in the report (:func:`_layout_choice_note`):
#: boundary F1 within one unit corrected for chance, which a size placing more boundaries does not
#: raise by their number alone, as it raises F1.
LAYOUT_CHOICE_METRIC = "cf1_1"


LAYOUT_ONLY_ADVICE = ("The headline cannot rank layout-only configurations (chunkers, chunk sizes) against one "
                      "another: their boundaries follow the units' lengths, not the topics. Compare them by the "
                      "reference metrics ")
#: The reference metrics it advises, as render's metrics= and --metrics take them.
LAYOUT_ONLY_METRICS = ("f1_1", LAYOUT_CHOICE_METRIC, "b", "pk")


def layout_only_by(references: bool) -> str:
    """How :data:`LAYOUT_ONLY_ADVICE` goes on: with the run's ``references``, the metrics to show;
    without, how to add some, in the words of the caller (:func:`~stability.reporting.model.spelling`)."""
    said = spelling()
    if references:
        return ("(for Markdown and HTML, how well their boundaries meet the headings: "
                f"{', '.join(reference_measure(name).short for name in LAYOUT_ONLY_METRICS)} with "
                f"{said.say('metrics', names=','.join(LAYOUT_ONLY_METRICS))}), minding that more boundaries meet "
                "more headings by chance (bounds).")
    return f"of a few annotated documents ({said.say('add_references', file='annotated.jsonl')}, or pages with headings)."


def _layout_note(result: CorpusResult) -> list[str]:
    summaries = result.summary.values()
    if not any(s.layout_only is not None for s in summaries):
        return []
    if not any(s.layout_only for s in summaries):
        return [layout_note()]
    return [layout_note(), LAYOUT_ONLY_ADVICE + layout_only_by(any(s.reference for s in summaries)),
            *_layout_choice_note(result), *_whole_chunk_note(result)]


def _sizes_unsaid(label: str, params: dict[str, Any]) -> str:
    """``" (chunk_size=500)"``: a chunker's size and overlap that its label does not say (a config's
    ``[segmenters.langchain_recursive]`` table with ``chunk_size = 500``, a label of the user's own),
    so that a ranking of sizes shows them; ``""`` when the label says them, or there are none."""
    unsaid = [f"{key}={params[key]}" for key in ("chunk_size", "chunk_overlap")
              if params.get(key) and f"{key}=" not in label]
    return f" ({', '.join(unsaid)})" if unsaid else ""


def _layout_choice_note(result: CorpusResult) -> list[str]:
    """The layout-only configurations (chunkers, chunk sizes) in order of :data:`LAYOUT_CHOICE_METRIC`
    against the references, each with its interval over documents, and whether the first is ahead of
    the second beyond them: the choice among them that the headline cannot make. None without two of
    them holding that metric."""
    measure = reference_measure(LAYOUT_CHOICE_METRIC)
    stats = {label: s.reference[measure.name] for label, s in result.summary.items()
             if s.layout_only and measure.name in s.reference and not math.isnan(s.reference[measure.name].mean)}
    if len(stats) < 2:
        return []
    ranked = sorted(stats, key=lambda label: -measure.sign * stats[label].mean)
    shown = ranked[:5]
    listed = ", ".join(f"{shown_label(label)}{_sizes_unsaid(label, result.summary[label].params)} "
                       f"{number(stats[label].mean, 2)}{' ' + _interval(stats[label], 2) if stats[label].n > 1 else ''}"
                       for label in shown)
    more = f" and {len(ranked) - len(shown)} more" if len(ranked) > len(shown) else ""
    first, second = stats[ranked[0]], stats[ranked[1]]
    apart = (first.ci[0] > second.ci[1]) if measure.sign > 0 else (first.ci[1] < second.ci[0])
    instead = "more pages, or choose between them on other grounds"
    # one document has no interval (NaN bounds): never apart, and no intervals that could overlap
    sure = ((f"the first is ahead of the second beyond both intervals (over {counted(first.n, 'document')})"
             if apart else f"the first two's intervals (over {counted(first.n, 'document')}) overlap, so these "
             f"documents do not tell them apart: {instead}") if min(first.n, second.n) > 1
            else f"one document gives no interval, so it does not tell them apart: {instead}")
    return [f"By {measure.short} against the references, the layout-only configurations rank: {listed}{more}. "
            f"{sure[0].upper()}{sure[1:]}. The references (for Markdown and HTML, the headings) stand for where the "
            "topic changes: this ranks how well each one's cuts meet them, not retrieval quality."]


def _whole_chunk_note(result: CorpusResult) -> list[str]:
    """The layout-only configurations whose chunk size did not fit the documents, and on how many:
    no boundary on a document of two units or more (a chunk larger than the document), or one at
    every gap of a document of three units or more (chunks no larger than a unit, so every unit its
    own chunk and the boundaries the units' own); typically a size given in the wrong unit
    (characters for a chunker counting words, or the reverse)."""
    whole, every = [], []
    for label, s in result.summary.items():
        if not s.layout_only:
            continue
        runs = result.documents.get(label, ())
        sized = [r for r in runs if r.segmentation.n_units >= 2]
        empty = sum(1 for r in sized if not r.segmentation.boundaries)
        if empty:
            whole.append((label, f"{shown_label(label)} on {empty} of {counted(len(sized), 'document')}"))
        split = [r for r in runs if r.segmentation.n_units >= 3]
        full = sum(1 for r in split if len(r.segmentation.boundaries) == r.segmentation.n_units - 1)
        if full:
            every.append((label, f"{shown_label(label)} on {full} of {counted(len(split), 'document')}"))
    if not whole and not every:
        return []
    from ..registry import available_segmenters

    # a label names its segmenter where it starts with a registered name or a module:attribute (the
    # command line's and a grid's labels); a config's or a Python dict's own label does not
    registered = available_segmenters()

    def check(named: list[tuple[str, str]], against: str) -> str:
        names = sorted({name for name in (label.split(",")[0] for label, _ in named)
                        if name in registered or ":" in name})
        look = "; ".join(spelling().say("describe_plugin" if ":" in name else "describe", name=name) for name in names)
        return f"check what the chunk size counts (characters, words or tokens{': ' + look if look else ''}) against {against}."

    notes = []
    if whole:
        notes.append(f"No boundary: {'; '.join(text for _, text in whole)}. A single chunk held each of those documents "
                     "whole, so they score 0 and say nothing of where it cuts: " + check(whole, "the documents' lengths"))
    if every:
        notes.append(f"A boundary at every gap: {'; '.join(text for _, text in every)}. Each unit of those documents "
                     "was a chunk of its own or more (a chunk size no larger than a unit), so the boundaries are the "
                     "units' own and say nothing of where it cuts: " + check(every, "the units' lengths"))
    return notes


def term_blind_counts(result: CorpusResult) -> str:
    """The segmenters of ``result`` that saw next to no shared term on some documents, and on how
    many (``u00 on 4 of 4 documents; c99 on 1 of 4 documents``); empty when none did."""
    return "; ".join(f"{shown_label(label)} on {round(s.term_blind_share * s.n_documents)} of "
                     f"{counted(s.n_documents, 'document')}" for label, s in result.summary.items()
                     if s.term_blind_share > 0)


def term_blind_meaning(counts: str) -> str:
    """What the term-blind flag means, for every report that shows it (the run's
    :func:`term_blind_note`, the validation study's configurations), ``counts``
    (:func:`term_blind_counts`) inside its parenthesis; the sentence that says when a segmenter is
    flagged is the caller's."""
    return ("the segmenter saw next to no term shared between the units of a document (fewer than "
            f"{TERM_BLIND_LINKED:.0%} of them share a term with another unit, as it reads them; {counts}), so its boundaries there cannot follow the "
            "topics: they can follow the units' lengths, which the shuffle control does not see, so its headline "
            "there is 0 (no stability credit, as for a content-blind segmenter)")


def term_blind_note(result: CorpusResult) -> list[str]:
    """What the term-blind flag means, with the segmenters that saw next to no shared term on some
    documents and on how many, when the run has one (:attr:`~stability.StabilityResult.term_blind`)."""
    counts = term_blind_counts(result)
    if not counts:
        return []
    said = spelling()
    return [f"term-blind: {term_blind_meaning(counts)}. A segmenter is flagged term-blind, and left out of the "
            f"ranking, when more than {TERM_BLIND_SHARE:.0%} of its documents are; the per-document table ({said.documents}) "
            "names them. Set its preprocessing for the documents' language (README, 'Documents not in English'); "
            f"the layout control ({said.layout_control}) measures how much the boundaries follow the units' lengths."]


STRIPS_NOTE = ("Blue bars: initial boundaries, height = share of restarts that found them again; grey: boundaries "
               "that appeared only after permutation; red ticks: reference boundaries.")


def _stability_measures(compact: bool) -> list[Measure]:
    """Reported stability scores, headline first (the compact selection when ``compact``)."""
    return [m for m in STABILITY.values() if m.report and (m.compact or not compact)]


def selected_measures(present: Any, compact: bool = False, metrics: Sequence[str] | None = None,
                      options: Any = ()) -> list[Measure]:
    """The reference metrics to show among those ``present``: the ones named in ``metrics`` (names
    or aliases from the catalogue, in that order), else the catalogue's reported ones (its compact
    selection when ``compact``). A named metric that was not computed is an error saying why
    (``options``: the run's metric settings, :attr:`stability.Settings.metrics`, ``None`` when it
    computed none, when the run left it out)."""
    if metrics is not None:
        chosen = list(dict.fromkeys(reference_measure(name) for name in metrics))
        _check_computed([m for m in chosen if m.name not in present], options)
        return chosen
    return [m for table in (REFERENCE, MULTI_REFERENCE) for m in table.values()
            if m.report and m.name in present and (m.compact or not compact)]


def _check_computed(missing: list[Measure], options: Any = ()) -> None:
    """Refuse metrics asked for but absent from the results (rather than a report without them),
    saying why: the run computed no reference metric or others (``options``, its metric
    settings), or there were no references for them."""
    if not missing:
        return
    verb = "was" if len(missing) == 1 else "were"
    said = ", ".join(m.name for m in missing)
    if options is None:
        raise InvalidParameterError(f"metrics {said} {verb} not computed: the run computed no reference metric "
                                    "(metrics=False, [metrics] enabled = false)", parameter="metrics")
    named = options.get("names") if isinstance(options, dict) else None
    if named is not None and any(m.name not in named for m in missing):
        raise InvalidParameterError(f"metrics {said} {verb} not computed: the run computed only {', '.join(named)} "
                                    "(its metrics names, [metrics] names)", parameter="metrics")
    groups = [([m.name for m in missing if m.name in MULTI_REFERENCE],
               "several references per document, and no document scored has more than one"),
              ([m.name for m in missing if m.name not in MULTI_REFERENCE], "references, and no document scored has any")]
    groups = [(names, why) for names, why in groups if names]
    reasons = [f"{', '.join(names) if len(groups) > 1 else 'they' if len(names) > 1 else 'it'} "
               f"need{'s' if len(names) == 1 else ''} {why}" for names, why in groups]
    raise InvalidParameterError(f"metrics {', '.join(m.name for m in missing)} {verb} not computed: {'; '.join(reasons)}",
                                parameter="metrics")


def _reference_measures(result: CorpusResult, compact: bool = False,
                        metrics: Sequence[str] | None = None) -> list[Measure]:
    """The reference metrics a report of ``result`` shows: ``metrics`` when given, else those its
    run's reports showed (``stability run --metrics``, :data:`~stability.store.SHOWN_METRICS`), else
    those the run was told to compute (``[metrics] names``, ``metrics={"names": [...]}``) that it
    has, in that order, else the catalogue's reported ones (:func:`selected_measures`)."""
    from ..store import SHOWN_METRICS

    present = {k for s in result.summary.values() for k in s.reference}
    shown = (result.settings.get("provenance") or {}).get(SHOWN_METRICS)
    if metrics is None and shown:
        metrics = [name for name in shown if name in present] or None
    named = (result.settings.get("metrics") or {}).get("names")
    if metrics is None and named:
        metrics = [name for name in named if name in present]
    return selected_measures(present, compact, metrics, result.settings.get("metrics", ()))


#: How flags are coloured in a terminal.
FLAG_STYLES = {"content-blind": "yellow", "layout-only": "yellow", "term-blind": "yellow", **{mark.name: "yellow" for mark in COUNT_MARKS},
               "non-deterministic": "red", "failed": "red"}


def flags(content_blind: bool | None, deterministic: bool | None, failed: int = 0,
          layout_only: bool | None = None, marks: Sequence[str] = (), term_blind: bool = False) -> str:
    """The warnings of a segmenter or document, comma-separated (``marks``: the names of the
    :data:`~stability.summary.COUNT_MARKS` the segmenter gets, from :func:`marks_of`)."""
    words = ["content-blind"] if content_blind else []
    words += ["layout-only"] if layout_only else []
    words += ["term-blind"] if term_blind else []
    words += list(marks)
    words += ["non-deterministic"] if deterministic is False else []
    words += [f"{failed} failed"] if failed else []
    return ", ".join(words)


def marks_of(result: CorpusResult) -> dict[str, list[str]]:
    """label -> the names of the count marks it gets (:func:`stability.summary.count_marks`)."""
    marked = count_marks(result.summary)
    return {label: [mark.name for mark in COUNT_MARKS if label in marked[mark.key]] for label in result.summary}


def shown_label(label: str) -> str:
    """A segmenter's label in a list of labels: quoted when it holds a comma (a configuration's
    parameters, ``'c99,mask_size=5'``) or a space, so that the list's own commas and spaces
    separate the labels (and a terminal wraps the line between them, never inside one)."""
    return f"'{label}'" if "," in label or any(char.isspace() for char in label) else label


def label_list(labels: Iterable[str]) -> str:
    """Labels joined by commas (:func:`shown_label`): ``even, 'c99,mask_size=5'``."""
    return ", ".join(shown_label(label) for label in labels)


def count_marks_notes(result: CorpusResult, digits: int = 1) -> list[str]:
    """A sentence under a summary for each count mark some segmenter gets (none: [])."""
    marked = count_marks(result.summary)
    notes = []
    for mark in COUNT_MARKS:
        if marked[mark.key]:
            median = next(iter(marked[mark.key].values()))[1]
            each = ", ".join(f"{shown_label(label)} {number(mean, digits)}"
                             for label, (mean, _) in marked[mark.key].items())
            notes.append(f"{mark.name}: boundaries a document {mark.rule} the median of the content-aware "
                         f"segmenters ({number(median, digits)}): {each}. {mark.why}; check it against a few "
                         "annotated documents.")
    return notes


#: How far from 0 a content-blind segmenter's headline must be for the flag's note to say why it
#: is not about 0 (a shuffle F1 near 1 makes ``1 - C`` small, and the ratio stretches a small gap).
FAR_FROM_ZERO = 0.1


def headline_stat(result: CorpusResult, label: str) -> Stat:
    """Mean, std and bootstrap interval over documents of the headline score of one segmenter
    (documents run without the shuffle control are left out)."""
    return result.summary[label].macro[HEADLINE.name]


def _title(result: CorpusResult, compact: bool = False) -> str:
    n_docs = result.settings.get("n_documents", max((s.n_documents for s in result.summary.values()), default=0))
    n_restarts = result.settings.get("n_restarts", "?")
    restarts = counted(n_restarts, "restart")
    if result.settings.get("ci_width") is not None:  # adaptive stopping: what the documents actually ran
        ran = [r.n_restarts for docs in result.documents.values() for r in docs] or [0]
        watched = "headline" if result.settings.get("ci_score") == "headline" else "F1"
        restarts = (f"{min(ran)} to {max(ran)} restarts (adaptive stopping at a {watched} interval of "
                    f"{result.settings['ci_width']:g})")
    run = (f"Stability test: {counted(n_docs, 'document')}, {restarts}, seed "
           f"{result.settings.get('seed', '?')}")
    return run if compact else f"{run} - mean (std) over documents - headline: {HEADLINE.title}"


def _confidence(result: CorpusResult) -> str:
    """The run's confidence level of its intervals, as ``95%``."""
    return f"{100 * float(result.settings.get('confidence', 0.95)):g}%"


def ci_title(result: CorpusResult) -> str:
    """``[95% CI]``, with the run's confidence level."""
    return f"[{_confidence(result)} CI]"


def few_documents_note(result: CorpusResult) -> list[str]:
    """What the intervals over documents are worth when a segmenter's headline or F1 was computed on
    so few documents that its percentile interval cannot reach the run's confidence level
    (:func:`stability.stats.percentile_coverage_bound`); nothing otherwise."""
    level = float(result.settings.get("confidence", 0.95))
    counts = [s.macro[name].n for s in result.summary.values() for name in (HEADLINE.name, "f1") if name in s.macro]
    n = min((c for c in counts if c >= 2), default=0)
    if not n or percentile_coverage_bound(n) >= level:
        return []
    return [f"Intervals over documents: a percentile bootstrap interval over {counted(n, 'document')} holds the mean "
            f"at most {percentile_coverage_bound(n):.0%} of the time (it lies between the lowest and the highest "
            f"document's value), not {_confidence(result)}: compare segmenters over more documents."]


def unfinished(result: CorpusResult) -> dict[str, tuple[int, int]]:
    """The segmenters run on fewer documents than the run holds (a run stopped before it finished,
    or a resume that recomputed a segmenter whose code changed and stopped): ``label -> (documents it
    was run on, documents of the run)``, a document it failed on counted as run (the failures are
    said apart). Empty when every segmenter was run on every document, as a finished run's were."""
    run_on = {label: {str(r.document) for r in rows} for label, rows in result.documents.items()}
    for failure in result.failures:
        run_on.setdefault(failure.segmenter, set()).add(str(failure.document))
    every = set().union(*run_on.values()) if run_on else set()
    return {label: (len(run_on.get(label, ())), len(every)) for label in result.summary
            if len(run_on.get(label, ())) < len(every)}


def unfinished_note(result: CorpusResult) -> list[str]:
    """What a ranking of segmenters run on different documents is worth, and how to finish the run
    (:func:`unfinished`); nothing when every segmenter was run on every document."""
    short = unfinished(result)
    if not short:
        return []
    which = ", ".join(f"{shown_label(label)} on {n} of {total}" for label, (n, total) in short.items())
    origin = result.settings.get("provenance")
    command = origin.get("command") if isinstance(origin, dict) else None
    where = ""
    if isinstance(command, str):
        # the run's own command, continuing (an --overwrite would start it again), in its folder:
        # its paths are relative to it (elsewhere, --resume found nothing to resume and started afresh)
        finish = command.replace(" --overwrite", "") + ("" if " --resume" in command else " --resume")
        where = f" (in {origin['cwd']})" if isinstance(origin, dict) and isinstance(origin.get("cwd"), str) else ""
    else:
        finish = "evaluate(..., output=..., resume=True), or stability run ... --out DIR --resume"
    # a run still writing its file (stability report while it runs: load_results warns) reads alike
    return [f"Not every segmenter was run on every document ({which}): the run stopped before it finished "
            f"(or is still running), so the ranking compares segmenters over different documents. To finish "
            f"it{where}: {finish}."]


def _interval(stat: Stat | None, digits: int) -> str:
    """``[low, high]``, or n/a without an interval (fewer than two documents)."""
    return f"[{number(stat.ci[0], digits)}, {number(stat.ci[1], digits)}]" if stat and stat.n > 1 else "n/a"


def summary_section(result: CorpusResult, compact: bool = False, digits: int = 2,
                    metrics: Sequence[str] | None = None) -> Section:
    """Per-segmenter summary. Full: every score as "mean (std)", the headline the first stability
    column. Compact (terminal): the headline with its interval, the gap, the flags and the compact
    (or chosen) reference metrics, the latter dropped first on a narrow terminal."""
    refs = _reference_measures(result, compact, metrics)
    if compact:
        return _compact_summary(result, refs, digits, metrics)
    tests, controls = _full_columns(result)
    header = ["segmenter", "docs"] + [HEADLINE.title if m is HEADLINE else m.short for m in tests]
    header += [f"F1 {_confidence(result)} CI"]
    compared = comparison_of(result)
    header += [STABILITY_X_AGREEMENT.short] if compared else []
    header += [m.short for m in controls] + ["flags"] + [m.short for m in refs]
    rows, marked = [], marks_of(result)
    for label, s in result.summary.items():
        row = [label, str(s.n_documents)] + [mean_std(s.macro.get(m.name), m.places(digits, statistic=True)) for m in tests]
        row += [_interval(s.macro.get("f1"), digits)] + ([number(compared[label], digits)] if compared else [])
        row += [mean_std(s.macro.get(m.name), digits) for m in controls]
        row += [flags(s.content_blind, s.deterministic, s.n_failed, s.layout_only, marked[label], s.term_blind)]
        rows.append(row + [mean_std(s.reference.get(m.name), m.places(digits, statistic=True)) for m in refs])
    align = "LL" + "r" * len(tests) + "R" + "r" * bool(compared) + "r" * len(controls) + "L" + "r" * len(refs)
    groups = (("", 2), ("stability test", len(tests) + 1), *((("comparison", 1),) if compared else ()),
              ("controls", len(controls) + 1), ("reference", len(refs)))
    notes = (*unfinished_note(result), *few_documents_note(result), *count_marks_notes(result), *_window_note(result, refs),
             *_run_tolerance_note(result, refs), *_reference_notes(result), *flag_notes(result), *_layout_note(result), *term_blind_note(result), *no_shuffle_note(result),
             _headline_note(HEADLINE_NOTE, result),
             *_comparison_note(compared), *reproduce_note(result))
    explained = [m for m in tests if m is not HEADLINE] + ([STABILITY_X_AGREEMENT] if compared else []) + controls
    return Section(_title(result), header, rows, notes=notes, align=align, legend=legend(explained + refs),
                   data=_summary_data(result, metrics), groups=groups, highlight=FLAG_STYLES)


#: The stability scores that come from the controls (chance level, shuffle control), grouped apart.
CONTROLS = ("chance_f1", "corrected_f1", "shuffle_f1", "shuffle_gap")


def _split_controls(measures: list[Measure]) -> tuple[list[Measure], list[Measure]]:
    return [m for m in measures if m.name not in CONTROLS], [m for m in measures if m.name in CONTROLS]


def _full_columns(result: CorpusResult) -> tuple[list[Measure], list[Measure]]:
    """The stability scores of the full tables, (test, controls): the controls end with the
    layout-control F1 when the run has that control (the number its layout-only flag is read from)."""
    tests, controls = _split_controls(_stability_measures(False))
    return tests, controls + ([STABILITY["layout_f1"]] if _layout_note(result) else [])


def _compact_summary(result: CorpusResult, refs: list[Measure], digits: int, metrics: Sequence[str] | None) -> Section:
    gap, bounds = STABILITY["shuffle_gap"], STABILITY["n_boundaries"]
    compared = comparison_of(result)
    extra = [STABILITY_X_AGREEMENT.short] if compared else []
    # bounds: the boundaries a document, which the few / many boundaries flags and a grid of chunk sizes turn on
    header = ["segmenter", "docs", bounds.short, f"{HEADLINE.short} {ci_title(result)}", gap.short, *extra, "flags"]
    header += [m.short for m in refs]
    rows, marked = [], marks_of(result)
    for label, s in result.summary.items():
        head = s.macro[HEADLINE.name]
        row = [label, str(s.n_documents), number(s.macro[bounds.name].mean, bounds.places(digits, statistic=True)),
               f"{number(head.mean, digits)} {_interval(head, digits)}",
               number(s.macro[gap.name].mean, digits), *([number(compared[label], digits)] if compared else []),
               flags(s.content_blind, s.deterministic, s.n_failed, s.layout_only, marked[label], s.term_blind)]
        rows.append(row + [number(s.reference[m.name].mean, m.places(digits, statistic=True)) if m.name in s.reference
                           else "n/a" for m in refs])
    flags_at = 5 + len(extra)
    first_ref, scores = flags_at + 1, tuple(range(flags_at - 1, 3, -1))  # gap (and the comparison)
    if refs and any(s.layout_only for s in result.summary.values()):
        # what the layout-only advice compares such configurations by goes last: the first reference
        # metric and bounds; the gap says nothing of them
        drop = (1, *scores, *range(len(header) - 1, first_ref, -1), 2, first_ref)
    else:
        drop = (1, 2, *range(len(header) - 1, flags_at, -1), *scores)
    return Section(_title(result, compact=True), header, rows,
                   notes=("Means over documents.", *unfinished_note(result), *few_documents_note(result), *count_marks_notes(result), *_window_note(result, refs),
                          *_run_tolerance_note(result, refs), *_reference_notes(result), *flag_notes(result), *_layout_note(result), *term_blind_note(result),
                          *no_shuffle_note(result), _headline_note(HEADLINE_BRIEF, result),
                          *_comparison_note(compared, brief=True), *reproduce_note(result)),
                   align="LRrRr" + "r" * len(extra) + "L" + "r" * len(refs), data=_summary_data(result, metrics),
                   drop_order=drop, highlight=FLAG_STYLES,
                   legend=legend([bounds, gap, *([STABILITY_X_AGREEMENT] if compared else []), *refs]))


def reproduce_note(result: CorpusResult) -> list[str]:
    """How to reproduce the run, when its record holds the command line that ran it (the
    ``provenance`` of :mod:`stability.store`): the command, its folder and the versions; then,
    when references were given after it ran (:func:`stability.scoring.add_references`), where
    from and for how many documents, which the run's command does not reproduce."""
    from ..scoring import ADDED_REFERENCES

    notes = []
    origin = result.settings.get("provenance")
    if isinstance(origin, dict) and isinstance(origin.get("command"), str):
        from ..store import SEGMENTER_CODE, VERSIONS

        versions = ", ".join([f"{name} {origin[key]}" for key, name in VERSIONS.items() if key in origin]
                             + _code_versions(origin.get(SEGMENTER_CODE)))
        where = f" in {origin['cwd']}" if isinstance(origin.get("cwd"), str) else ""
        unstable = [label for label, s in result.summary.items() if s.deterministic is False]
        same = (f"not bit for bit: {label_list(unstable)} gave different outputs on the same input (non-deterministic)"
                if unstable else "the same numbers for any --jobs and backend")
        notes.append(f"To reproduce: {origin['command']} (run{where}; computed with {versions}; {same}).")
    added = result.settings.get(ADDED_REFERENCES)
    if isinstance(added, dict):
        source = added.get("source")
        options = added.get("options") or {}
        flags = "".join(f" {reader_flag(key)} {value}" for key, value in options.items())
        given = "add_references" if source == "given to add_references" else f"stability report with -R {source}{flags}"
        notes.append(f"The reference columns use references given after the run ({given}) for "
                     f"{counted(added.get('documents'), 'document')}; the other documents keep the run's, if any.")
    return notes


def _code_versions(code: Any) -> list[str]:
    """The packages (and local modules) the segmenters came from, as the reproduce note names them:
    ``mypkg 1.2 (mine)``, each once with the segmenters using it."""
    users: dict[str, list[str]] = {}
    for label, sources in (code if isinstance(code, dict) else {}).items():
        for source, version in (sources if isinstance(sources, dict) else {}).items():
            users.setdefault(f"{source} {version}", []).append(str(label))
    return [f"{source} ({label_list(labels)})" for source, labels in users.items()]


def _comparison_note(compared: dict[str, float | None] | None, brief: bool = False) -> list[str]:
    return [COMPARISON_BRIEF if brief else COMPARISON_NOTE] if compared else []


#: How each window policy of the reports' window metrics chooses k.
WINDOW_POLICIES = {"lamprier": "Lamprier et al. 2007, eq. 5, the default", "nltk": "nltk's convention",
                   "segeval": "segeval's convention"}


def window_convention(policy: Any) -> str:
    """How a run's or a score's window ``k`` was chosen, in words (``None``: the default)."""
    policy = policy or "lamprier"
    return f"{policy} ({WINDOW_POLICIES[policy]})" if policy in WINDOW_POLICIES else f"{policy} units"


def _window_note(result: CorpusResult, refs: Sequence[Measure]) -> list[str]:
    """Which window k the window metrics used (the run's [metrics] k), when a window was used
    and a metric computed at it is shown (:data:`~stability.catalogue.WINDOWED`)."""
    from ..catalogue import WINDOWED

    if not any(m.name in WINDOWED for m in refs):
        return []
    ks = [r.reference_metrics.get("window_k", math.nan) for results in result.documents.values() for r in results]
    return window_sentence(ks, (result.settings.get("metrics") or {}).get("k"), "the JSON report")


def window_sentence(ks: Iterable[float], policy: Any, where: str) -> list[str]:
    """The note under a report showing window metrics: the k they used, over the documents' ``ks``
    (NaN where no window was used: none at all, no note), and how it was chosen (``policy``: an
    int as given, or a convention's name, ``None`` the default); ``where`` names the report giving
    each document's k. The one sentence of ``run``'s and ``score``'s reports.

    >>> window_sentence([2.0, 5.0, float("nan")], None, "the JSON report")  # doctest: +NORMALIZE_WHITESPACE
    ["Window metrics (Pk, WindowDiff and their variants) at k = 2 to 5 (each document's in the
      JSON report); chosen by lamprier (Lamprier et al. 2007, eq. 5, the default)."]
    >>> window_sentence([3.0], 3, "the JSON report")
    ['Window metrics (Pk, WindowDiff and their variants) at k = 3, as given.']
    """
    values = sorted({int(k) for k in ks if not math.isnan(k)})
    if not values:
        return []
    span = str(values[0]) if len(values) == 1 else f"{values[0]} to {values[-1]} (each document's in {where})"
    how = ", as given" if isinstance(policy, int) else f"; chosen by {window_convention(policy)}"
    return [f"Window metrics (Pk, WindowDiff and their variants) at k = {span}{how}."]


def tolerance_note(tolerance: int, measures: Sequence[Measure]) -> list[str]:
    """Which of the shown ``measures`` matched boundaries within ``tolerance`` units, and how far
    (:data:`~stability.catalogue.TOLERANT`; nothing when exact, or none of them is shown): a
    run's ``[metrics] tolerance``, a score's ``--tolerance``."""
    from ..catalogue import TOLERANT

    shown = [m.short for m in measures if m.name in TOLERANT]
    if not tolerance or not shown:
        return []
    return [f"{and_joined(shown)} {'matches' if len(shown) == 1 else 'match'} boundaries within {counted(tolerance, 'unit')} "
            f"(tolerance {tolerance}; a reference boundary is matched once at most)."]


def _run_tolerance_note(result: CorpusResult, refs: Sequence[Measure]) -> list[str]:
    """:func:`tolerance_note` of a run's reference metrics (its ``[metrics] tolerance``)."""
    return tolerance_note((result.settings.get("metrics") or {}).get("tolerance", 0), refs)


#: Said under a table whose documents have several references (a run's or a score's).
FIRST_REFERENCE_NOTE = ("Several references per document: the single-reference metrics (F1(ref), Pk, WD, B and "
                        "the others) compare with each document's first reference; the multi-reference ones "
                        "(WiSeBE, kappa, mean F1, ...) use all of them.")


def first_reference_note(metric_names: Iterable[str]) -> list[str]:
    """:data:`FIRST_REFERENCE_NOTE` when multi-reference metrics were computed, i.e. some document
    has several references."""
    return [FIRST_REFERENCE_NOTE] if any(name in MULTI_REFERENCE for name in metric_names) else []


def _reference_notes(result: CorpusResult) -> list[str]:
    return [*first_reference_note({name for s in result.summary.values() for name in s.reference}),
            *_coverage_note(result)]


def _coverage_note(result: CorpusResult) -> list[str]:
    """When only some documents have references (a few annotated after the run, say): the
    reference columns and their rank agreement are over those documents alone."""
    # each document counted once, whichever segmenters gave it a result (one that failed on some
    # documents has fewer rows: counted apart, its rows would tell of another corpus)
    annotated: dict[str, bool] = {}
    for rows in result.documents.values():
        for r in rows:
            annotated[str(r.document)] = annotated.get(str(r.document), False) or bool(r.references)
    n, total = sum(annotated.values()), len(annotated)
    if not 0 < n < total:
        return []
    return [f"References: {n} of {total} documents have one; the reference columns are means over those "
            "documents alone, the stability columns over every document, and the Kendall tau compares "
            "the two over those documents."]


def legend(measures: Sequence[Measure]) -> dict[str, str]:
    """Column title -> long title and direction, from the catalogue."""
    def meaning(m: Measure) -> str:
        better = f"{m.direction} is better" if m.direction else ""
        if m.title == m.short:  # nothing to spell out: only the direction, in brackets after the title
            return f"({better})" if better else m.title
        return f"{m.title} ({better})" if better else m.title

    return {m.short: meaning(m) for m in measures}


def comparison_of(result: CorpusResult) -> dict[str, float | None] | None:
    """label -> :data:`~stability.comparison.STABILITY_X_AGREEMENT`, or None when no segmenter of
    the run has one (too few segmenters compared): reports then leave the column out."""
    values = result.comparison()
    return values if any(v is not None for v in values.values()) else None


def varied_params(result: CorpusResult) -> list[str]:
    """The parameters that tell a run's configurations apart, sorted: those two configurations
    of one segmenter give different values (a grid's parameters, ``n_segments`` beside an
    automatic stop...; configurations with the same parameter names are taken as one segmenter's,
    so that two segmenters' different defaults of a same-named parameter, C99's and TextTiling's
    ``stem``, make no column). The summary gives each a column ``param_<name>`` (empty where a
    configuration has no such parameter or holds ``None``; a list or dict as JSON in CSV), to sort
    or plot the configurations of a grid by it, as the ``params`` cell (every parameter, as JSON)
    does not allow."""
    values: dict[tuple[frozenset[str], str], set[str]] = {}
    for s in result.summary.values():
        params = _jsonable(s.params)
        for name, value in params.items():
            values.setdefault((frozenset(params), name), set()).add(json.dumps(value, sort_keys=True))
    return sorted({name for (_, name), seen in values.items() if len(seen) > 1})


def summary_table(result: CorpusResult, metrics: Sequence[str] | None = None) -> tuple[list[str], list[list[Any]]]:
    """The summary with its values as Python holds them (mean, std and CI bounds per score, the
    micro scores, reference means and stds; ``None`` where not computed; ``params`` a dict, and a
    ``param_<name>`` column for each parameter the configurations vary, :func:`varied_params`;
    ``count_mark``: the count marks the segmenter gets, ``few boundaries`` or ``many boundaries``;
    ``resolved_params``, when a parameter was resolved per document, the values it took): the
    one declaration of the table that CSV writes (:func:`_summary_data`) and that
    :meth:`~stability.CorpusResult.to_rows` gives with ``level="segmenters"``; ``metrics``: the
    reference metrics of its columns, as for every report (default: those the run computed)."""
    scores = [m for m in STABILITY.values() if m.report] + [STABILITY["self_agreement_f1"]]
    refs = _reference_measures(result, metrics=metrics)
    varied = varied_params(result)
    header = ["segmenter", "params", *(f"param_{name}" for name in varied)]
    header += ["n_documents", "n_failed", "content_blind", "deterministic", "count_mark"]
    header += [m.column(part) for m in scores for part in STATISTICS]
    header += ["micro_precision", "micro_recall", "micro_f1"] + [m.column(p) for m in refs for p in ("mean", "std")]
    layout = bool(_layout_note(result))  # columns of the layout control, last, only when it ran
    header += ["layout_only", *(STABILITY["layout_f1"].column(part) for part in STATISTICS)] if layout else []
    # the terms check's columns, only when some document was term-blind (as in files written before it existed)
    terms = any(s.term_blind_share > 0 for s in result.summary.values())
    header += ["term_blind", "term_blind_share"] if terms else []
    # what parameters resolved per document took (a chunker's unit_separator left to the readers, whose
    # params cell says null), only when some segmenter was (SegmenterSummary.resolved_params)
    resolved = any(s.resolved_params for s in result.summary.values())
    header += ["resolved_params"] if resolved else []
    compared = comparison_of(result)  # the comparison score, last, only when the run has one
    header += [STABILITY_X_AGREEMENT.column()] if compared else []
    rows = []
    marks = marks_of(result)
    for label, s in result.summary.items():
        params = _jsonable(s.params)
        row: list[Any] = [label, params, *(params.get(name) for name in varied)]
        row += [s.n_documents, s.n_failed, s.content_blind, s.deterministic, ", ".join(marks[label]) or None]
        for m in scores:
            st = s.macro[m.name]
            row += [_json_float(st.mean), _json_float(st.std), _json_float(st.ci[0]), _json_float(st.ci[1])]
        row += [_json_float(s.micro["precision"]), _json_float(s.micro["recall"]), _json_float(s.micro["f1"])]
        for m in refs:
            ref = s.reference.get(m.name)
            row += [_json_float(ref.mean), _json_float(ref.std)] if ref else [None, None]
        if layout:
            lay = s.macro.get("layout_f1")
            row += [s.layout_only] + ([_json_float(lay.mean), _json_float(lay.std), _json_float(lay.ci[0]),
                                       _json_float(lay.ci[1])] if lay else [None] * 4)
        if terms:
            row += [s.term_blind, s.term_blind_share]
        if resolved:
            row.append(s.resolved_params or None)
        if compared:
            row.append(_json_float(compared[label]))
        rows.append(row)
    return header, rows


def _summary_data(result: CorpusResult, metrics: Sequence[str] | None = None) -> tuple[list[str], list[list[Any]]]:
    """The summary with raw numbers, as CSV writes it (:func:`summary_table`, each float at full
    precision, the parameters as JSON, an empty cell where not computed)."""
    header, rows = summary_table(result, metrics)
    return header, [[json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else raw(v) if isinstance(v, float) or v is None
                     else v for v in row] for row in rows]


def _document_cells(r: StabilityResult, scores: list[Measure], refs: list[Measure], digits: int | None,
                    full: bool, timed: bool = False) -> list[str]:
    """One row of the per-document table; ``digits=None``: raw values (full precision, empty when
    missing), as CSV writes them. ``timed``: a last cell with the boundaries' times (clock times;
    raw: seconds)."""
    show = raw if digits is None else lambda x: number(x, digits)
    cells = [r.segmenter, str(r.document)] + ([str(r.segmentation.n_units)] if full else [])
    for m in scores:
        # a whole measure (a count) without decimals, in CSV too; the others as the table's numbers
        value = number(m.value(r), m.places(digits or 0)) if m.whole else show(m.value(r))
        bounds = [show(x) for x in getattr(r, m.interval)] if m.interval else []
        if full:
            cells += [value] + bounds
        else:  # compact: the headline's interval in its cell
            cells.append(f"{value} [{bounds[0]}, {bounds[1]}]" if m is HEADLINE else value)
    cells.append(flags(r.content_blind, r.deterministic, layout_only=r.layout_only, term_blind=r.term_blind is not None))
    cells += [raw(r.reference_metrics.get(m.name), m.whole) if digits is None else number(r.reference_metrics.get(m.name),
              m.places(digits)) for m in refs]
    cells.append(" ".join(f"{b}:{number(c, 2) if digits is not None else show(c)}"
                          for b, c in r.boundary_confidence.items()))
    if timed:
        times = r.boundary_times or ()
        cells.append(" ".join(clock(t) if digits is not None else show(t) for t in times))
    return cells


def _timed(result: CorpusResult) -> bool:
    """Whether some document of ``result`` has times (a transcript): the per-document table then
    gives each boundary's time."""
    return any(r.boundary_times is not None for docs in result.documents.values() for r in docs)


#: The per-document scores of the compact table, in order.
COMPACT_DOCUMENT = (HEADLINE.name, "shuffle_gap", "f1", "n_boundaries")


def _document_table(result: CorpusResult, digits: int | None, compact: bool = False,
                    metrics: Sequence[str] | None = None) -> tuple[list[str], list[list[str]], str]:
    """The per-document table: titles and formatted cells, or (``digits=None``) the columns and raw
    values CSV writes, each measure named by its catalogue column (:meth:`Measure.column`)."""
    scores = [STABILITY[n] for n in COMPACT_DOCUMENT] if compact else sum(_full_columns(result), [])
    refs = _reference_measures(result, compact, metrics)
    machine = digits is None  # CSV's columns
    # CSV's columns are snake_case names, as CorpusResult.to_rows gives them; the titles are for reading
    header = ["segmenter", "document"] + ([] if compact else ["n_units" if machine else "units"])
    for m in scores:
        if compact:
            header.append(f"{m.short} {ci_title(result)}" if m is HEADLINE else m.short)
        elif machine:  # a document's interval over its restarts: the columns of an interval over documents
            header += [m.column()] + ([m.column("ci_low"), m.column("ci_high")] if m.interval else [])
        else:
            header += [m.short] + ([f"{m.short} low", f"{m.short} high"] if m.interval else [])
    timed = _timed(result)
    header += ["flags"] + [m.column() if machine else m.short for m in refs]
    header += ["boundary_confidence" if machine else "boundary:confidence"]
    header += (["boundary_times" if machine else "boundary times"]) if timed else []
    rows = [_document_cells(r, scores, refs, digits, not compact, timed)
            for docs in result.documents.values() for r in docs]
    align = "LL" + "r" * (len(header) - 4 - len(refs) - timed) + "L" + "r" * len(refs) + "l" * (1 + timed)
    return header, rows, align


def document_section(result: CorpusResult, digits: int = 3, compact: bool = False,
                     metrics: Sequence[str] | None = None) -> Section:
    """Per-document table (headline and gap included), with each boundary and its confidence;
    compact: the headline, gap, F1, boundary count, flags and compact reference metrics."""
    header, rows, align = _document_table(result, digits, compact, metrics)
    raw_header, raw_rows, _ = _document_table(result, None, False, metrics)
    n_refs = len(_reference_measures(result, compact, metrics))
    timed = _timed(result)
    last = len(header) - 1 - timed  # boundary:confidence, then the boundary times (kept longer)
    drop = (tuple(range(last, len(header))) + tuple(range(last - 1, last - 1 - n_refs, -1)) + (5, 4)
            if compact else ())
    shown = [STABILITY[n] for n in COMPACT_DOCUMENT] if compact else []
    tests, controls = _full_columns(result)
    test_columns = sum(3 if m.interval else 1 for m in tests)  # a score with an interval: value, low, high
    groups = () if compact else (("", 3), ("stability test", test_columns), ("controls", len(controls) + 1),
                                 ("reference", n_refs), ("", 1 + timed))
    note = (f"Per document, the interval of {HEADLINE.short} is over the document's restarts (bootstrap, test and "
            "shuffle-control restarts resampled): how far other restarts could move the value; more restarts "
            "narrow it.")
    return Section("Per document", header, rows, notes=(note,), align=align, data=(raw_header, raw_rows), detail=True,
                   drop_order=drop, legend=legend(shown + _reference_measures(result, compact, metrics)),
                   groups=groups, highlight=FLAG_STYLES, keys=2)


#: Fewer items than this and a rank correlation is flagged rather than read.
MIN_RANKED = 5


def correlation_counts(result: CorpusResult) -> dict[str, int]:
    """How many items each rank correlation ranks: segmenters, and (segmenter, document) pairs."""
    return {"segmenters": sum(1 for docs in result.documents.values() if docs),
            "documents": sum(1 for docs in result.documents.values() for r in docs if r.reference_metrics)}


def _correlation_section(result: CorpusResult, compact: bool, metrics: Sequence[str] | None) -> Section | None:
    corr = result.correlations()
    if not corr:
        return None
    counts = correlation_counts(result)
    ranked = ranked_counts(result.documents)  # per score: a score undefined on some items ranks fewer
    refs = [m for m in _reference_measures(result, compact, metrics) if m.ranked]
    header = ["stability score", "over", "n"] + [m.short for m in refs]
    rows, notes = [], []
    for over in ("segmenters", "documents"):
        marked = False  # the note explains the mark: said only under a table that has one (not one all n/a)
        for score, taus in corr.get(over, {}).items():
            n = ranked.get(over, {}).get(score, counts[over])
            few = n < MIN_RANKED
            cells = [number(taus.get(m.name), 2) for m in refs]
            marked = marked or (few and any(c != "n/a" for c in cells))
            rows.append([score, over, str(n)] + [f"({c})!" if few and c != "n/a" else c for c in cells])
        if marked:
            items = "(segmenter, document) pairs" if over == "documents" else over
            notes.append(f"(...)!: fewer than {MIN_RANKED} {items} ranked (n; a score undefined on some of "
                         "them ranks fewer): with so few items a rank correlation of +-1 arises by chance alone "
                         "(1 time in 3 with 3 items); do not read it.")
    layout = sum(1 for s in result.summary.values() if s.layout_only)
    if layout:  # what the summary's advice (check the ranking: Kendall tau below) then gets
        notes.append(f"{layout} of the {counted(counts['segmenters'], 'segmenter')} ranked are layout-only, which the "
                     "headline cannot rank (see the summary): these taus count how it orders them too, so they do not "
                     "say how well it ranks topic segmenters (a run without them does).")
    return Section("Kendall tau between stability and reference metrics (positive = agreement)", header, rows,
                   notes=notes, align="LLr" + "r" * len(refs),
                   drop_order=tuple(range(len(header) - 1, 3, -1)) if compact else (),
                   legend={"n": "items ranked", **legend(refs)}, keys=3)


def segment_section(result: CorpusResult, digits: int = 2) -> Section | None:
    """Stability and reference coverage by segment length (:mod:`stability.segments`), a detail
    block: does a segmenter miss the short segments?"""
    from ..segments import LENGTH_CLASSES, segment_analysis

    analysis = segment_analysis(result)
    if not any(g.reference_segments for groups in analysis.values() for g in groups.values()):
        return None
    rows = [[label, group, str(g.reference_segments), number(g.found, digits), str(g.segments),
             number(g.stability, digits)]
            for label, groups in analysis.items() for group, g in ((c, groups[c]) for c in LENGTH_CLASSES)]
    header = ["segmenter", "length", "ref. segments", "found (±1)", "segments", "stability"]
    notes = ("Segments grouped by length against the mean segment length of their own segmentation "
             "(short: under half the mean, long: over 1.5 times). found: share of the reference segments of the "
             "group whose start is a boundary of the initial segmentation, within one unit; stability: mean share "
             "of restarts finding again the boundaries that start the segmenter's own segments of the group.",)
    return Section("By segment length", header, rows, notes=notes, align="LLrrrr", detail=True, keys=2)


#: The most failures a terminal report and a notebook's output list (:attr:`Section.brief_rows`),
#: shared among the segmenters that failed, each at least its first (:func:`_failure_section`): the
#: warnings after a run sum them all up by error (:func:`~stability.results.failure_lines`), the
#: summary counts them for each segmenter, the other formats, the result's ``failures`` and the
#: results file list them all.
FAILURE_ROWS = 10


def _failure_section(result: CorpusResult) -> Section | None:
    """The Failures table, a row a failure in the run's order (by document). A terminal and a
    notebook show :data:`FAILURE_ROWS` of them, shared among the segmenters
    (:func:`~stability.reporting.model.brief_selection`): each segmenter in turn its next failure,
    so that one failing on thousands of documents does not hide another's one failure; with more
    segmenters failing than that, each shows its first."""
    if not result.failures:
        return None
    rows = [[f.segmenter, f.document, failed_at(f), f.error] for f in result.failures]
    # the error wraps beside the document it names (in parts, its own part showed no document)
    return Section("Failures", ["segmenter", "document", "restart", "error"], rows, align="LLll", keys=2,
                   prose={3: 60}, brief_rows=FAILURE_ROWS, brief_by=0,
                   all_rows_in="the result's .failures")


def failed_at(failure: Failure) -> str:
    """Where a failure happened, for the Failures table: ``initial`` (the initial segmentation),
    else the stream and its restart (``within 0``, ``shuffle 3``); a stream alone when its batch
    failed but no single restart did."""
    if failure.restart is None:
        return "initial" if failure.stream is None else failure.stream
    return str(failure.restart) if failure.stream is None else f"{failure.stream} {failure.restart}"


def ranked_line(result: CorpusResult, digits: int = 2) -> str:
    """The result in one line: segmenters by decreasing headline (mean [95% CI]), then those that
    failed on some documents, those run on fewer documents than the run holds (:func:`unfinished`,
    one run on none said so alone), those without any result (failed on every document), the
    content-blind, layout-only and term-blind ones, whose stability says nothing about the content,
    and those placing few or many boundaries, whose headline may be too high
    (:func:`count_marks_notes`).

    Examples: ``u00 0.86 [0.84, 0.92] > c99 0.74 [0.70, 0.79]; even, none: content-blind``; two
    segmenters whose printed values are the same are joined by ``=``, not ``>``.
    """
    empty = [label for label, s in result.summary.items() if s.n_documents == 0]
    blind = [label for label, s in result.summary.items() if s.content_blind and label not in empty]
    layout = [label for label, s in result.summary.items() if s.layout_only and label not in blind + empty]
    terms = [label for label, s in result.summary.items() if s.term_blind and label not in blind + layout + empty]
    ranked = [(s.macro[HEADLINE.name], label) for label, s in result.summary.items()
              if label not in empty + blind + layout + terms]
    ranked.sort(key=lambda item: -item[0].mean if item[0].n and not math.isnan(item[0].mean) else math.inf)
    chain = ""
    for i, (stat, label) in enumerate(ranked):  # "=" where the printed values are the same
        shown = number(stat.mean, digits)
        if i:
            chain += " = " if shown == number(ranked[i - 1][0].mean, digits) else " > "
        chain += f"{shown_label(label)} {shown} {_interval(stat, digits)}"
    parts = [chain]
    parts += [f"{shown_label(label)}: failed on {s.n_failed} of {counted(s.n_failed + s.n_documents, 'document')}"
              for label, s in result.summary.items() if s.n_failed and s.n_documents]
    short = unfinished(result)
    parts += [f"{shown_label(label)}: run on {n} of {counted(total, 'document')}" for label, (n, total) in short.items()]
    failed = [label for label in empty if result.summary[label].n_failed]
    if failed:
        parts.append(f"{label_list(failed)}: failed on every document")
    unrun = [label for label in empty if label not in failed and label not in short]  # short: run on 0 of N, said
    if unrun:
        parts.append(f"{label_list(unrun)}: no result")
    if blind:
        parts.append(f"{label_list(blind)}: content-blind")
    if layout:
        parts.append(f"{label_list(layout)}: layout-only")
    if terms:
        parts.append(f"{label_list(terms)}: term-blind")
    marked = count_marks(result.summary)
    parts += [f"{label_list(marked[mark.key])}: {mark.name}" for mark in COUNT_MARKS if marked[mark.key]]
    return f"{HEADLINE.title} {ci_title(result)}: " + "; ".join(p for p in parts if p)


def clean(value: Any) -> Any:
    """``value`` with non-finite floats (NaN; an infinite NWin, see ``stability.metrics.nwin``)
    replaced by None, recursively (strict JSON)."""
    return map_floats(value, lambda x: x if math.isfinite(x) else None)


def _payload(result: CorpusResult) -> dict[str, Any]:
    data = clean(result.to_dict())
    scores = sum(_full_columns(result), [])  # each document's scores, as its row of the per-document table
    for label, records in data["documents"].items():
        for record, r in zip(records, result.documents[label]):
            record["scores"] = clean({m.name: m.value(r) for m in scores})
    data["headline"] = {"score": HEADLINE.name, "title": HEADLINE.title, "note": HEADLINE_NOTE,
                        "summary": {label: headline_stat(result, label).to_dict() for label in result.summary},
                        **{key: {label: {"boundaries": mean, "median": median}
                                 for label, (mean, median) in marked.items()}
                           for key, marked in count_marks(result.summary).items()}}
    data["comparison"] = {"score": STABILITY_X_AGREEMENT.name, "title": STABILITY_X_AGREEMENT.title,
                          "note": COMPARISON_NOTE, "summary": clean(result.comparison())}
    data["correlations"] = clean(result.correlations())
    data["correlations_n"] = correlation_counts(result)
    data["unfinished"] = {label: {"run_on": n, "documents": total} for label, (n, total) in unfinished(result).items()}
    data["report_version"] = 1
    return data


def corpus_report(result: CorpusResult, *, compact: bool = False, figures: bool = False, max_strips: int = 20,
                  metrics: Sequence[str] | None = None, details: bool = True) -> Report:
    """The report of a run: the ranked headline, summary, failures, correlations, plots and strips
    (with ``figures``), the per-document and per-segment-length tables (detail blocks, left out
    when not ``details``), settings. ``metrics`` names the reference metrics to show (catalogue
    names or aliases; default: the catalogue's choice)."""
    from .figures import figure_sections

    # the failures next to the summary that counts them, not after a thousand rows of documents
    blocks = [summary_section(result, compact, metrics=metrics), _failure_section(result),
              _correlation_section(result, compact, metrics)]
    scored = any(result.documents.values())  # else every call failed: no plot or table of results to show
    blocks += figure_sections(result, max_strips, STRIPS_NOTE) if figures and scored else []
    if details:  # built only to be shown: 20,000 rows of documents cost most of a terminal table's time
        blocks += [document_section(result, compact=compact, metrics=metrics) if scored else None,
                   segment_section(result)]
    settings = json.dumps(clean(result.settings), indent=1, default=str, ensure_ascii=False)  # labels as written
    blocks.append(Section("Settings", text=settings))
    return Report("Stability report", [b for b in blocks if b is not None], lead=(INTRODUCTION,),
                  payload=functools.partial(_payload, result), result=ranked_line(result))
