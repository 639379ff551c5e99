"""The catalogue covers every metric function and every score a result carries, and everything
that lists scores or metrics reads it (in the spirit of scikit-learn's registry-driven tests)."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from typer.testing import CliRunner

from stability import catalogue, metrics
from stability.cli import app
from stability.catalogue import HEADLINE, MULTI_REFERENCE, REFERENCE, STABILITY, Measure, measure, oriented
from stability.exceptions import InvalidParameterError, InvalidTypeError
from stability.results import StabilityResult
from stability.segmentation import Segmentation

#: Public functions of stability.metrics that are not metrics of a hypothesis (helpers, sets).
NOT_METRICS = {
    "compute_all", "reference_metrics", "multi_reference_metrics",  # loops over the catalogue
    "expected_windowdiff",  # the expectation NWin divides by, not a score of a hypothesis
    "expected_f1",  # the chance level chance_corrected_f1 corrects by, not a score of a hypothesis
    "general_reference",  # WiSeBE's merged reference, a segmentation
    "boundary_edit_counts",  # the edit operations behind B and S
}

#: Numbers a StabilityResult carries that are not scores of their own (and why).
NOT_SCORES = {
    "precision_std", "recall_std", "f1_std",  # spread over restarts of STP, STR, F1
    "chance_precision", "chance_recall",  # components of chance_f1
    "content_margin",  # a setting
    "n_restarts", "seed", "tolerance",  # settings
    "n_units",  # the document's size
}


def _metric_functions() -> set[str]:
    return {name for name in metrics.__all__
            if inspect.isfunction(getattr(metrics, name)) and not name.startswith("_")} - NOT_METRICS


def test_every_metric_function_is_catalogued():
    catalogued = {m.function for table in (REFERENCE, MULTI_REFERENCE) for m in table.values()}
    missing = _metric_functions() - catalogued
    assert not missing, f"metric functions with no catalogue entry: {sorted(missing)}"


def _numeric_members(cls: type) -> set[str]:
    fields = {f.name for f in dataclasses.fields(cls) if f.type in ("float", "int")}
    properties = {name for name, member in inspect.getmembers(cls) if isinstance(member, property)
                  and inspect.signature(member.fget).return_annotation in ("float", "int")}
    return fields | properties


def test_every_score_a_result_carries_is_catalogued():
    carried = _numeric_members(StabilityResult) - NOT_SCORES
    assert carried, "the introspection found nothing: the test would pass vacuously"
    assert carried <= set(STABILITY), f"scores with no catalogue entry: {sorted(carried - set(STABILITY))}"


def test_compute_all_returns_every_catalogued_metric():
    ref, hyp = Segmentation.from_masses([3, 4, 2]), Segmentation.from_masses([2, 6, 1])
    assert list(metrics.compute_all(ref, hyp)) == list(REFERENCE)
    refs = [Segmentation.from_masses(m) for m in ([3, 4, 2], [3, 5, 1])]
    assert list(metrics.multi_reference_metrics(refs, hyp)) == list(MULTI_REFERENCE)


def test_compute_all_equals_the_metric_functions():
    # each catalogued value equals a direct call of the function it names, with the same options
    ref, hyp = Segmentation.from_masses([3, 4, 2]), Segmentation.from_masses([2, 6, 1])
    values = metrics.compute_all(ref, hyp, k=2)
    assert values["pk"] == metrics.pk(ref, hyp, 2)
    assert values["pr_error"] == metrics.pr_error(ref, hyp, 3)  # window of k+1 units
    assert values["boundary_similarity"] == metrics.boundary_similarity(ref, hyp)
    assert values["f1"] == metrics.boundary_prf(ref, hyp, 0).f1
    assert values["window_k"] == 2


@pytest.mark.parametrize("m", [*STABILITY.values(), *REFERENCE.values(), *MULTI_REFERENCE.values()],
                         ids=lambda m: f"{m.kind}:{m.name}")
def test_measures_are_complete(m: Measure):
    assert m.short and m.title and m.description
    assert m.kind in catalogue.KINDS and m.direction in catalogue.DIRECTIONS
    if m.kind in ("parameter", "agreement"):
        assert m.direction is None, "parameters and descriptions of the references are never ranked"
    if m.correlate:
        assert m.kind == "stability" and m.ranked


def test_a_measure_is_declared_whole_exactly_when_its_values_are_whole():
    """The reports print a ``whole`` measure's values without decimals (the window k, GHD at its
    integer costs, counts): over random pairs of segmentations, a measure declared whole never
    takes a fractional value, and every other reference metric does take one (else it would print
    as ``2.0000``, which ``stability score`` did for k)."""
    rng = np.random.default_rng(7)
    seen: dict[str, list[float]] = {}
    for _ in range(40):
        n = int(rng.integers(8, 40))
        draw = lambda: Segmentation(sorted(rng.choice(np.arange(1, n), int(rng.integers(1, 5)), replace=False)), n)  # noqa: E731
        refs, hyp = [draw(), draw()], draw()
        values = {**metrics.compute_all(refs[0], hyp), **metrics.multi_reference_metrics(refs, hyp)}
        for name, value in values.items():
            seen.setdefault(name, []).append(float(value))
    for m in [*REFERENCE.values(), *MULTI_REFERENCE.values()]:
        finite = [v for v in seen[m.name] if np.isfinite(v)]
        whole = all(v == round(v) for v in finite)
        assert whole == m.whole, f"{m.name}: declared whole={m.whole}, values {finite[:6]}"
        if m.whole:
            assert m.places(4) == 0 and m.places(4, statistic=True) == (4 if m.digits is None else m.digits)
    assert STABILITY["n_boundaries"].whole and STABILITY["n_boundaries"].places(2, statistic=True) == 1


def test_every_kind_has_a_column_prefix_and_no_two_measures_share_a_column():
    from stability.comparison import STABILITY_X_AGREEMENT

    assert set(catalogue.COLUMN_PREFIXES) == set(catalogue.KINDS)
    measures = [*STABILITY.values(), *REFERENCE.values(), *MULTI_REFERENCE.values(), STABILITY_X_AGREEMENT]
    names = [m.column(s) for m in measures for s in (None, *catalogue.STATISTICS)]
    assert len(names) == len(set(names))
    assert REFERENCE["f1"].column() == "ref_f1" != STABILITY["f1"].column() == "f1"
    with pytest.raises(InvalidParameterError, match="statistic must be None or one of mean, std, ci_low, ci_high"):
        REFERENCE["pk"].column("median")


def test_error_metrics_are_lower_is_better():
    for name in ("pk", "windowdiff", "windowdiff_corrected", "nwin", "tnwin", "pr_error", "ghd"):
        assert REFERENCE[name].direction == "lower"
    assert oriented("pk", [0.25]).tolist() == [-0.25]
    assert oriented("boundary_similarity", [0.25]).tolist() == [0.25]
    with pytest.raises(InvalidParameterError, match="window_k"):
        oriented("window_k", [2])


def test_names_aliases_and_suggestions():
    assert measure("wd") is REFERENCE["windowdiff"]
    assert measure("b") is REFERENCE["boundary_similarity"]
    assert catalogue.stability_measure("f1") is STABILITY["f1"]
    assert measure("f1") is REFERENCE["f1"]
    with pytest.raises(InvalidParameterError, match="did you mean 'windowdiff'"):
        measure("windowdif")


def test_reference_measures_read_a_comma_separated_string_or_a_sequence():
    wanted = [REFERENCE["pk"], REFERENCE["windowdiff"]]
    assert catalogue.reference_measures("pk, wd,pk") == wanted == catalogue.reference_measures(["pk", "wd", "pk"])
    with pytest.raises(InvalidParameterError, match="metrics must be one or more metric names"):
        catalogue.reference_measures(" , ")
    with pytest.raises(InvalidTypeError, match="metrics must be .*; received int 5"):
        catalogue.reference_measures(5)


@pytest.mark.parametrize("name,opening", [("nope", "unknown reference metric 'nope'. Known: precision, "),
                                          ("windowdif", "unknown reference metric 'windowdif'; did you mean "
                                                        "'windowdiff'? Known: precision, ")])
def test_an_unknown_metric_is_one_sentence_then_the_known_ones(name, opening):
    with pytest.raises(InvalidParameterError) as caught:
        catalogue.reference_measure(name)
    assert str(caught.value).startswith(opening)


def test_render_reads_a_metrics_string_as_the_command_line_does():
    # it used to read "pk" letter by letter: "unknown reference metric 'p'"
    from stability import evaluate
    from stability.demo import demo_corpus
    from stability.reporting import render

    result = evaluate({"even": "even"}, demo_corpus(n_documents=2), n_restarts=3, progress=False)
    assert render(result, "table", metrics="pk, wd") == render(result, "table", metrics=["pk", "wd"])
    only_pk = render(result, "table", metrics="pk")
    assert only_pk == render(result, "table", metrics=["pk"]) and "WD = WindowDiff" not in only_pk
    with pytest.raises(InvalidParameterError, match="unknown reference metric 'nope'"):
        render(result, "table", metrics="pk,nope")


def test_headline_is_a_correlated_stability_score():
    assert HEADLINE.kind == "stability" and HEADLINE.correlate and HEADLINE.direction == "higher"
    assert list(STABILITY)[0] == HEADLINE.name


def test_stability_values_read_the_result():
    even = lambda units: list(range(3, len(units), 3))  # noqa: E731
    from stability import stability_test

    result = stability_test(even, ["w"] * 12, n_restarts=5)
    values = {name: m.value(result) for name, m in STABILITY.items()}
    assert values["f1"] == 1.0 and values["n_boundaries"] == 3
    assert values["shuffle_corrected"] == 0.0  # content-blind: the shuffle control is as stable
    assert np.isfinite(values["shuffle_gap"])


def test_f1_within_one_unit_is_within_one_unit_whatever_the_tolerance():
    """F1(±1), "boundary F1 within one unit", was computed at max(1, tolerance): with a report
    tolerance of 3 it was F1 within 3 units under the ±1 title. Hand count: reference {3},
    hypothesis {6} of 9 units are 3 units apart, so they match within 3 (F1 = 1) but not within 1
    (P = R = F1 = 0)."""
    from stability.metrics import compute_all

    ref, hyp = Segmentation([3], 9), Segmentation([6], 9)
    scores = compute_all(ref, hyp, tolerance=3)
    assert scores["f1"] == 1.0 and scores["f1_1"] == 0.0
    assert compute_all(ref, Segmentation([4], 9), tolerance=0)["f1_1"] == 1.0  # 1 unit apart


@pytest.mark.parametrize("names", [{"pk": 1, "wd": 2}, {"b": True}, b"pk"])
def test_a_table_of_metrics_is_refused_not_read_as_its_keys(names):
    """reference_measures({"pk": 1, "wd": 2}) returned Pk and WindowDiff: a mapping given from
    Python was read as the list of its keys (an experiment file's table is refused before this).
    Bytes were refused with the message for a list of non-strings."""
    from stability.catalogue import reference_measures
    from stability.exceptions import InvalidTypeError

    with pytest.raises(InvalidTypeError, match="metrics must be a sequence of metric names or one comma-separated "
                                               "string; received"):
        reference_measures(names)


def test_the_titles_p_and_r_are_aliases_as_wd_b_and_s_are(tmp_path):
    """The reports title boundary precision and recall ``P`` and ``R``, as they title WindowDiff
    ``WD`` and boundary similarity ``B``; ``wd`` and ``b`` were accepted, ``p`` and ``r`` refused
    ("unknown reference metric 'p'; did you mean 'pk'?")."""
    assert catalogue.reference_measures("p,r") == [REFERENCE["precision"], REFERENCE["recall"]]
    assert measure("p") is REFERENCE["precision"] and measure("r") is REFERENCE["recall"]
    for m in (*REFERENCE.values(), *MULTI_REFERENCE.values()):  # an alias is the lowered title or an identifier
        assert all(alias.isidentifier() and alias.islower() for alias in m.aliases), m.name
    for m in (REFERENCE["precision"], REFERENCE["recall"], REFERENCE["windowdiff"], REFERENCE["boundary_similarity"]):
        assert m.short.lower() in m.aliases
    ref = tmp_path / "ref.jsonl"
    ref.write_text('{"id": "a", "boundaries": [3, 7], "n_units": 10}\n', encoding="utf-8")
    hyp = tmp_path / "hyp.jsonl"
    hyp.write_text('{"id": "a", "boundaries": [3], "n_units": 10}\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["score", "-R", str(ref), "-H", str(hyp), "--metrics", "p,r",
                                      "--report-format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "document,ref_precision,ref_recall"  # 1 of 1, 1 of 2: by hand
    assert result.stdout.splitlines()[1] == "a,1.0,0.5"


def test_an_unknown_metric_lists_the_aliases_too():
    """The "Known:" list of an unknown metric left out the aliases (``wd``, ``b``...) that
    ``--metrics`` takes; ``compute_all`` and ``[metrics] names`` listed them."""
    with pytest.raises(InvalidParameterError) as caught:
        catalogue.reference_measure("nope")
    said = str(caught.value)
    assert said.endswith("(or an alias: p = precision, r = recall, cf1 = f1_corrected, cf1_1 = f1_1_corrected, "
                         "wd = windowdiff, wd_corrected = "
                         "windowdiff_corrected, b = boundary_similarity, s = segmentation_similarity)")
    with pytest.raises(InvalidParameterError) as caught:  # a table without aliases says none
        catalogue.stability_measure("nope")
    assert "alias" not in str(caught.value)


@pytest.mark.parametrize("typed,name", [("CovN", "cov_n"), ("covn", "cov_n"), ("kappa", "fleiss_kappa"),
                                        ("Pr_err", "pr_error"), ("gap", None)])
def test_a_reports_title_typed_as_a_name_is_told_the_name(typed, name):
    """A report titles Bouchekif's coverage ``CovN`` and Fleiss' kappa ``kappa``; typed as a
    metric (``--metrics CovN``, a config's ``[metrics] names``) they got no suggestion, since
    difflib finds ``CovN`` too far from ``cov_n`` and nothing near ``kappa``. ``gap`` titles a
    stability score, not a reference metric: not suggested for ``--metrics``."""
    from stability.settings import Settings

    with pytest.raises(InvalidParameterError) as caught:
        catalogue.reference_measure(typed)
    said = f"did you mean {name!r} (titled " if name else "did you mean"
    assert (said in str(caught.value)) is (name is not None)
    with pytest.raises(InvalidParameterError) as caught:
        Settings(metrics={"names": [typed]})
    assert (said in str(caught.value)) is (name is not None)
    if name is None:
        with pytest.raises(InvalidParameterError, match="did you mean 'shuffle_gap' \\(titled 'gap' in reports\\)"):
            catalogue.stability_measure(typed)


def _reads(option: str, values: tuple) -> set[str]:
    """The reference entries (single and multi) whose value changes with ``option`` of the
    MetricContext, all else held, on seeded random documents of 30 units with two references."""
    rng = np.random.default_rng(7)
    changed = set()
    for _ in range(40):
        ref, other, hyp = (Segmentation(sorted(rng.choice(np.arange(1, 30), size=int(rng.integers(1, 12)),
                                                         replace=False).tolist()), 30) for _ in range(3))
        for m in (*REFERENCE.values(), *MULTI_REFERENCE.values()):
            got = [m.value(catalogue.MetricContext(ref, hyp, **{"k": 3, "tolerance": 0, option: v},
                                                   references=(ref, other))) for v in values]
            if not np.allclose(got[:1], got[1:], equal_nan=True, rtol=0, atol=0):
                changed.add(m.name)
    return changed


def test_the_window_and_tolerance_notes_name_exactly_the_entries_that_read_them():
    """WINDOWED and TOLERANT (which reports read to say at which window k, and within which
    tolerance, the shown metrics were computed) list exactly the entries whose value moves with
    the context's k and tolerance, that is the entries declaring ``uses=("k",)`` and
    ``uses=("tolerance",)``: an entry wired to either but not declaring it would be shown
    without the note that says how it was computed (window_k declares the window itself)."""
    assert _reads("k", (2, 5)) == set(catalogue.WINDOWED)
    assert _reads("tolerance", (0, 2)) == set(catalogue.TOLERANT)


def test_windowed_and_tolerant_are_the_entries_declaring_them_in_catalogue_order():
    """The two lists are read off each measure's ``uses`` (one declaration per metric, no list
    kept beside the catalogue), in report order; a ``uses`` naming no option of the context is
    refused when the measure is declared."""
    entries = [*REFERENCE.values(), *MULTI_REFERENCE.values()]
    assert catalogue.WINDOWED == tuple(m.name for m in entries if "k" in m.uses)
    assert catalogue.TOLERANT == tuple(m.name for m in entries if "tolerance" in m.uses)
    assert REFERENCE["pk"].uses == ("k",) and REFERENCE["f1_1"].uses == ()  # F1(±1): one unit, its own
    with pytest.raises(InvalidParameterError, match="uses of 'x' must be a tuple drawn from"):
        catalogue.Measure("x", "x", "x", "reference", "higher", lambda c: 0.0, uses=("window",))
