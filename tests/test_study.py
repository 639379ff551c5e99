"""The study package (issues 10 and 11): the analysis functions on hand-checked cases, the
cross-corpus decision, and the multi-corpus report on two tiny demo corpora."""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from typer.testing import CliRunner

from stability.catalogue import STABILITY
from stability.cli import app
from stability.exceptions import InvalidParameterError
from stability.stats import kendall_tau
from stability.study import (
    RULE,
    StudyOptions,
    analyze,
    candidate_scores,
    ceiling,
    decide,
    family,
    load_corpora,
    reference_agreement,
    run_study,
)

TWO_CORPORA = """
[corpus.alpha]
demo = { n_documents = 5, seed = 0 }
[corpus.beta]
demo = { n_documents = 5, seed = 1, n_segments = 4 }
held_out = true

[segmenters.c99]
[segmenters.tt]
segmenter = "texttiling"
w = 10
k = 3
[segmenters.none]
[segmenters.c99ish]
segmenter = "even"
n_segments = "reference"

[run]
n_restarts = 3
seed = 0

[metrics]
names = ["f1", "windowdiff", "boundary_similarity", "n_references"]

[output]
dir = "ignored-because-out-is-given"
"""


# ---------------------------------------------------------------------------------------------
# hand-checked analysis functions
# ---------------------------------------------------------------------------------------------
def test_candidates_are_the_catalogue_correlate_scores():
    assert list(candidate_scores()) == [name for name, m in STABILITY.items() if m.correlate]


def test_ceiling_by_hand():
    # B = (0.2, 0.3, 0.4, 0.1), configuration 1 content-blind -> ideal (0.2, low, 0.4, 0.1).
    # Pairs (i, j): (0,1) B says 1 better, ideal says 0: discordant; (0,2) concordant; (0,3)
    # concordant; (1,2) concordant; (1,3) B says 1 better, ideal says 3: discordant; (2,3)
    # concordant. tau-b = (4 - 2) / 6
    b = [0.2, 0.3, 0.4, 0.1]
    blind = [False, True, False, False]
    assert ceiling(b, blind, "boundary_similarity") == pytest.approx(1 / 3)
    # the same as "B with content-blind configurations set to 0" (no content-aware B is 0)
    assert ceiling(b, blind, "boundary_similarity") == pytest.approx(kendall_tau(np.where(blind, 0.0, b), b))
    # WindowDiff (lower is better) (0.3, 0.1, 0.2), configuration 1 blind: oriented (-0.3, -0.1, -0.2),
    # ideal (-0.3, low, -0.2): (0,1) discordant, (0,2) concordant, (1,2) discordant -> (1 - 2) / 3
    assert ceiling([0.3, 0.1, 0.2], [False, True, False], "windowdiff") == pytest.approx(-1 / 3)
    # no content-blind configuration: the metric itself, tau 1
    assert ceiling([0.3, 0.1, 0.2], [False, False, False], "wd") == pytest.approx(1.0)
    assert math.isnan(ceiling([0.3, 0.1], [True, True], "windowdiff"))
    with pytest.raises(InvalidParameterError, match="blind"):
        ceiling([0.3, 0.1], [True], "windowdiff")


def test_reference_agreement_by_hand():
    # WD (0.1, 0.2, 0.3) oriented: configuration 0 best, then 1, then 2; B (0.9, 0.5, 0.7): 0, 2, 1.
    # Pairs: (0,1) concordant, (0,2) concordant, (1,2) discordant -> (2 - 1) / 3
    tau = reference_agreement({"windowdiff": [0.1, 0.2, 0.3], "boundary_similarity": [0.9, 0.5, 0.7],
                               "pk": [0.1, 0.2, 0.3]})
    assert tau[("windowdiff", "boundary_similarity")] == pytest.approx(1 / 3)
    assert tau[("windowdiff", "pk")] == pytest.approx(1.0)
    assert tau[("boundary_similarity", "pk")] == pytest.approx(1 / 3)
    assert len(tau) == 3


def test_family_comes_from_the_config_not_the_label():
    specs = {"c99ish": {"segmenter": "even", "n_segments": 4}, "tt": {"segmenter": "texttiling"}, "none": {}}
    assert family("c99ish", specs) == "even"
    assert family("tt", specs) == "texttiling"
    assert family("none", specs) == "none"
    assert family("random", {}) == "random"


def _stub(name: str, values: dict[str, float]) -> SimpleNamespace:
    scores = dict.fromkeys(["shuffle_corrected", "f1", "gap"])
    return SimpleNamespace(name=name, scores=scores, agreement=lambda subset, stat: values, content_aware=["c99"],
                           why_undefined=lambda: "the stub's reason")


def test_decision_rule_by_hand():
    a = _stub("a", {"shuffle_corrected": 0.8, "f1": 0.9, "gap": 0.5})
    b = _stub("b", {"shuffle_corrected": 0.4, "f1": 0.1, "gap": float("nan")})
    d = decide([a, b])
    # means over corpora: 0.6, 0.5 and 0.5 (gap: undefined on b, so its mean is a's value)
    assert d.average == pytest.approx({"shuffle_corrected": 0.6, "f1": 0.5, "gap": 0.5})
    assert d.headline == "shuffle_corrected"
    assert d.worst["f1"] == ("b", pytest.approx(0.1)) and d.worst["gap"] == ("a", 0.5)
    # a tie goes to the candidate listed first (catalogue order)
    tie = decide([_stub("a", {"shuffle_corrected": 0.5, "f1": 0.5, "gap": 0.7}),
                  _stub("b", {"shuffle_corrected": 0.5, "f1": 0.5, "gap": 0.3})])
    assert tie.headline == "shuffle_corrected"
    with pytest.raises(InvalidParameterError, match=r"on any corpus, so nothing can be ranked \('a': the stub's reason\)"):
        decide([_stub("a", dict.fromkeys(["shuffle_corrected", "f1", "gap"], float("nan")))])
    assert "highest average" in RULE


# ---------------------------------------------------------------------------------------------
# config files
# ---------------------------------------------------------------------------------------------
def test_named_corpora_and_several_files(tmp_path):
    multi = tmp_path / "multi.toml"
    multi.write_text(TWO_CORPORA, encoding="utf-8")
    single = tmp_path / "gamma.toml"
    single.write_text("[corpus]\ndemo = { n_documents = 3 }\n[segmenters.none]\n[segmenters.all]\n[segmenters.c99]\n",
                      encoding="utf-8")
    specs = load_corpora([multi, single])
    assert [s.name for s in specs] == ["alpha", "beta", "gamma"]
    assert specs[1].experiment.corpus == {"demo": {"n_documents": 5, "seed": 1, "n_segments": 4}}
    assert specs[1].experiment.segmenters["tt"] == {"segmenter": "texttiling", "w": 10, "k": 3}
    with pytest.raises(InvalidParameterError, match="distinct names"):
        load_corpora([multi, multi])
    mixed = tmp_path / "mixed.toml"
    mixed.write_text('[corpus]\nx = 1\n[corpus.a]\ndemo = true\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"\[corpus.NAME\] tables"):
        load_corpora([mixed])
    bare = tmp_path / "bare.toml"
    bare.write_text('[corpus.a]\ndemo = true\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"bare.toml has no \[segmenters\] table"):
        load_corpora([bare])  # refused, not run with the default segmenters of `stability run`
    typo = tmp_path / "typo.toml"
    typo.write_text('[corpus.a]\npaht = "x"\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"typo.toml: unknown key 'paht' in \[corpus.a\]; did you mean 'path'"):
        load_corpora([typo])


def test_unknown_corpus_and_corpus_without_references(tmp_path):
    config = tmp_path / "multi.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    with pytest.raises(InvalidParameterError, match="corpus must be corpora of the config files"):
        run_study(StudyOptions((str(config),), corpora=("gamma",), out=str(tmp_path / "o")))
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "d.txt").write_text("One. Two. Three. Four.\n", encoding="utf-8")
    plain = tmp_path / "plain.toml"
    plain.write_text(f'[corpus]\npath = "{bare.as_posix()}"\n[segmenters.none]\n[segmenters.all]\n'
                     '[segmenters.even]\nn_segments = 2\n', encoding="utf-8")
    with pytest.raises(InvalidParameterError, match=r"corpus 'plain'.*no references"):
        run_study(StudyOptions((str(plain),), out=str(tmp_path / "o2")))


def test_two_corpora_of_the_same_documents_are_refused_and_shared_documents_said(tmp_path, monkeypatch):
    # the same documents under two [corpus.NAME] tables (the same file twice, or a JSONL copy of
    # a Choi folder) were studied as two corpora: counted twice in the summary across corpora
    # and in the rule's pick, with nothing said
    import stability.study.run as study_run

    twice = TWO_CORPORA.replace("seed = 1, n_segments = 4", "seed = 0")
    computed = []
    monkeypatch.setattr(study_run, "_run_corpus", lambda *a: computed.append(a))  # refused before any run
    with pytest.raises(InvalidParameterError, match=r"study.toml: \[corpus.alpha\] and \[corpus.beta\] hold the same 5 documents"):
        run_study(StudyOptions((str(_write(tmp_path, twice)),), out=str(tmp_path / "o")))
    assert not computed
    # other documents: two corpora, studied as such (a corpus read twice with other references, as
    # configs/validation-docs-reference.toml reads its HTML with other levels, is two as well)
    other = twice.replace('demo = { n_documents = 5, seed = 0 }\n[corpus.beta]\ndemo = { n_documents = 5, seed = 0 }',
                          'demo = { n_documents = 5, seed = 0 }\n[corpus.beta]\ndemo = { n_documents = 5, seed = 0, '
                          'n_segments = 4 }')
    monkeypatch.setattr(study_run, "decide", lambda studies: None)
    run_study(StudyOptions((str(_write(tmp_path, other)),), out=str(tmp_path / "o")))
    assert len(computed) == 2
    # some documents in both: said, the study goes on
    some = twice.replace("[corpus.beta]\ndemo = { n_documents = 5, seed = 0 }",
                         "[corpus.beta]\ndemo = { n_documents = 8, seed = 0 }")
    with pytest.warns(UserWarning, match=r"study.toml: \[corpus.alpha\] and \[corpus.beta\] share 5 documents"):
        run_study(StudyOptions((str(_write(tmp_path, some)),), out=str(tmp_path / "o")))


def test_reproduce_command_names_every_option():
    options = StudyOptions(("a.toml", "b c.toml"), quick=True, out="r", docs="d", jobs=2, limit=5, restarts=7,
                           bootstrap=30, corpora=("x", "y"), progress=False, name="other", comparison=True)
    words = shlex.split(options.command())
    assert words == ["stability", "validate", "a.toml", "b c.toml", "--quick", "--out", "r", "--docs", "d",
                     "--jobs", "2", "--limit", "5", "--restarts", "7", "--bootstrap", "30", "--comparison",
                     "--corpus", "x", "--corpus", "y", "--name", "other", "--no-progress"]
    assert "--name" not in StudyOptions(("a.toml",)).command()  # the default name is not printed
    assert "--comparison" not in StudyOptions(("a.toml",)).command()


# ---------------------------------------------------------------------------------------------
# the multi-corpus report on two tiny corpora
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def two_corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("study")
    config = root / "multi.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    args = ["validate", str(config), "--out", str(root / "cache"), "--docs", str(root / "docs"), "--jobs", "1",
            "--limit", "4", "--restarts", "2", "--bootstrap", "40", "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return root, args, (root / "docs" / "validation.md").read_text(encoding="utf-8")


def test_report_has_a_section_per_corpus_and_the_summary(two_corpora):
    root, _, report = two_corpora
    for heading in ("## Summary across corpora", "### Each candidate score against each reference metric",
                    "### Agreement among the reference metrics", "### The ceiling of a reference-free score",
                    "### Headline decision", "## Corpus `alpha`", "## Corpus `beta`", RULE):
        assert heading in report, heading
    assert "Choi" not in report  # no Choi-only sentence for other corpora
    assert "4 of 5 documents" in report
    for name in ("alpha", "beta"):
        assert (root / "cache" / name / "results.jsonl").is_file()
        assert (root / "docs" / "validation" / name / "running_shuffle_corrected.svg").is_file()
        assert f"](validation/{name}/configurations_f1.svg)" in report
    # families from the config: "c99ish" is the even baseline, "tt" TextTiling
    # (told each document's count: beta's documents have 4 segments, alpha's 6)
    assert "| c99ish | even | n_segments=reference | content-blind |" in report
    assert "| tt | texttiling | w=10, k=3 |" in report


def test_report_reproduce_block_is_the_command_and_reruns_identically(two_corpora):
    root, args, report = two_corpora
    block = report.split("```bash\n", 1)[1].split("\n```", 1)[0]
    assert shlex.split(block) == ["stability"] + args[:1] + [Path(args[1]).as_posix()] + [
        a if not a.startswith(str(root)) else Path(a).as_posix() for a in args[2:]]
    again = CliRunner().invoke(app, args)  # resumed from the cache
    assert again.exit_code == 0, again.output
    assert (root / "docs" / "validation.md").read_text(encoding="utf-8") == report


def test_the_comparison_section_only_when_asked(two_corpora):
    root, args, report = two_corpora
    title = "### The second number of a comparison"
    assert title not in report
    asked = CliRunner().invoke(app, args + ["--comparison", "--name", "compared"])
    assert asked.exit_code == 0, asked.output
    text = (root / "docs" / "compared.md").read_text(encoding="utf-8")
    section = text.split(title, 1)[1].split("\n### ", 1)[0]
    assert "| alpha | selection |" in section and "| beta | held out |" in section
    assert "--comparison" in text.split("```bash\n", 1)[1].split("\n```", 1)[0]
    # everything else is the default report's
    summary = "## Summary across corpora"
    assert text.split(title, 1)[0].split(summary, 1)[1] == report.split("### On documents", 1)[0].split(summary, 1)[1]


def test_a_named_report_shares_the_docs_folder(two_corpora):
    root, args, report = two_corpora
    docs = root / "docs"
    (docs / "dialogue-discussion.md").write_text("Read me with the tables.\n", encoding="utf-8")
    named = CliRunner().invoke(app, args + ["--name", "dialogue"])  # the same cache, another report
    assert named.exit_code == 0, named.output
    text = (docs / "dialogue.md").read_text(encoding="utf-8")
    assert "--name dialogue" in text.split("```bash\n", 1)[1].split("\n```", 1)[0]
    assert "](dialogue/alpha/configurations_f1.svg)" in text and (docs / "dialogue" / "alpha").is_dir()
    assert text.rstrip().endswith("## Interpretation\n\nRead me with the tables.")
    assert "`dialogue-discussion.md` beside this file" in text
    assert (docs / "validation.md").read_text(encoding="utf-8") == report  # the default report untouched
    for bad in ("", "../up", "a/b", ".hidden"):
        refused = CliRunner().invoke(app, args + ["--name", bad])
        assert refused.exit_code == 1 and "name must be a file name without folders" in refused.stderr, bad


def test_summary_numbers_match_each_corpus(two_corpora, tmp_path):
    root, _, _ = two_corpora
    from stability.summary import load_results

    result = load_results(root / "cache" / "alpha" / "results.jsonl")
    specs = load_corpora([root / "multi.toml"])[0].experiment.segmenters
    study = analyze(result, name="alpha", specs=specs, metric_names=["f1", "windowdiff", "boundary_similarity",
                                                                     "n_references"], n_bootstrap=40, n_orders=5)
    # n_references has no direction: never correlated
    assert list(study.metrics) == ["f1", "windowdiff", "boundary_similarity"]
    assert study.content_blind["none"] is True and study.content_blind["c99ish"] is True
    b = [study.means["reference"]["boundary_similarity"][label] for label in study.labels]
    blind = [bool(study.content_blind[label]) for label in study.labels]
    assert study.ceilings["boundary_similarity"] == pytest.approx(ceiling(b, blind, "boundary_similarity"))
    s = [study.means["stability"]["shuffle_corrected"][label] for label in study.labels]
    assert study.across["all"]["shuffle_corrected"]["boundary_similarity"]["kendall"].estimate == pytest.approx(
        kendall_tau(s, b))
    wd = [-study.means["reference"]["windowdiff"][label] for label in study.labels]
    assert study.across["all"]["f1"]["windowdiff"]["kendall"].estimate == pytest.approx(
        kendall_tau([study.means["stability"]["f1"][label] for label in study.labels], wd))
    assert study.families == {"c99": "c99", "tt": "texttiling", "none": "none", "c99ish": "even"}
    # n_segments = "reference": alpha's demo documents have 6 segments, so 5 boundaries each
    assert study.means["stability"]["n_boundaries"]["c99ish"] == 5.0


def test_validation_alias_still_imports():
    import stability.study
    import stability.validation

    assert stability.validation.run_study is stability.study.run_study


# ---------------------------------------------------------------------------------------------
# phases of the study's long computations (issue 13: progress for the analysis)
# ---------------------------------------------------------------------------------------------
def test_the_study_reports_its_phases(tmp_path):
    from stability.study import ANALYSIS_PHASES

    config = tmp_path / "multi.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    seen: list[tuple[str, str]] = []
    options = StudyOptions((str(config),), out=str(tmp_path / "cache"), jobs=1, limit=3, restarts=2, bootstrap=40,
                           progress=False, n_orders=5)
    run_study(options, on_phase=lambda phase, detail: seen.append((phase, detail)))
    for corpus in ("alpha", "beta"):
        phases = [phase for phase, detail in seen if detail.startswith(corpus)]
        assert phases == ["reading the corpus", *ANALYSIS_PHASES]
    details = dict(seen[2:2 + len(ANALYSIS_PHASES)])  # alpha's analysis (both corpora are read first)
    assert details["score matrices"] == "alpha, 4 configurations x 3 documents"
    assert details["correlations across configurations"] == "alpha, 5 scores x 3 metrics, 40 resamples"


def test_piped_validate_shows_no_spinner(two_corpora):
    root, args, _ = two_corpora
    # the same command without --no-progress: stderr is not a terminal, so no spinner and no bar
    result = CliRunner().invoke(app, [a for a in args if a != "--no-progress"])
    assert result.exit_code == 0, result.output
    spinner = set("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏") | {"\x1b"}
    assert not spinner & set(result.stderr) and not spinner & set(result.stdout)
    assert "analysis" not in result.stderr and "correlations" not in result.stderr
    lines = result.stderr.splitlines()  # the corpora's warnings (4 documents each: too few), then the summary line
    assert [line.split(":")[:2] for line in lines[:-1]] == [["warning", " alpha"], ["warning", " beta"]]
    assert lines[-1].startswith("results cached in ")


def test_a_status_draws_only_where_asked(capsys):
    from stability.status import Status

    seen = []
    status = Status(show=None, on_phase=lambda phase, detail: seen.append(phase))  # stderr captured: no terminal
    status("phase one", "3 documents")
    status.stop()
    assert seen == ["phase one"] and capsys.readouterr().err == ""


# ---------------------------------------------------------------------------------------------
# the headline from half of the restarts; the headline against B and F1 within one unit
# ---------------------------------------------------------------------------------------------
def _restarts(initial, within, shuffle, n_units=9, tolerance=0):
    """The attributes of a StabilityResult that the half-restarts comparison reads."""
    return SimpleNamespace(segmentation=SimpleNamespace(boundaries=initial, n_units=n_units),
                           restart_boundaries=within, n_restarts=len(within), tolerance=tolerance, seed=0, document="d", term_blind=None,
                           shuffle=None if shuffle is None else SimpleNamespace(restart_boundaries=shuffle,
                                                                                n_restarts=len(shuffle)))


def test_headline_from_half_of_the_restarts_by_hand():
    from stability.study.sensitivity import headline_at

    # B0 = {3} in 9 units (8 gaps); chance F1 of one boundary against one: E[P] = E[R] = 1/8.
    r = _restarts((3,), [(3,), (3,), (5,), (3,)], [(1,), (3,), (6,), (7,)])
    # first 2 restarts: F = 1, S = 0.5 (P = R = (0 + 1) / 2), C = max(0.5, 1/8): (1 - 0.5) / 0.5 = 1
    assert headline_at(r, 2) == pytest.approx(1.0)
    # all 4: F = 0.75, S = 0.25, C = 0.25: (0.75 - 0.25) / 0.75 = 2/3
    assert headline_at(r) == pytest.approx(2 / 3)
    assert math.isnan(headline_at(_restarts((3,), [(3,)], None)))


def test_restart_sensitivity_by_hand_and_when_undefined():
    from stability.study.sensitivity import restart_sensitivity, undefined_because

    moving = _restarts((3,), [(3,), (3,), (5,), (3,)], [(1,), (3,), (6,), (7,)])  # 1 -> 2/3
    steady = _restarts((3,), [(3,)] * 4, [(1,)] * 4)  # F = 1, S = 0: 1 at both
    blind = _restarts((2, 4), [(2, 4)] * 4, [(2, 4)] * 4)  # S = 1: 0 at both
    # the first two restarts agree perfectly (interval [1, 1]); all four give F = 0.5, S = 0, C = 1/8
    escaping = _restarts((3,), [(3,), (3,), (5,), (5,)], [(1,)] * 4)
    run = SimpleNamespace(documents={"a": [moving, steady, escaping], "b": [blind]})
    sens = restart_sensitivity(run, ["a", "b"])
    assert (sens.half, sens.full) == (2, 4)
    assert sens.configuration["a"] == pytest.approx((1.0, (2 / 3 + 1 + 0.375 / 0.875) / 3))
    assert sens.configuration_move()["b"] == 0.0
    assert sens.document_move["a"] == pytest.approx([1 / 3, 0.0, 1 - 0.375 / 0.875])
    assert sorted(sens.pooled_moves(["a"]).tolist()) == pytest.approx([0.0, 1 / 3, 1 - 0.375 / 0.875])
    # from two restarts: `moving` resamples S in {0, 0.5, 1}, the headline in {1, 0}: [0, 1] covers 2/3;
    # `steady` and `blind` are degenerate and exact; `escaping`'s [1, 1] misses 0.43
    assert sens.covered["a"].tolist() == [1.0, 1.0, 0.0] and sens.covered["b"].tolist() == [1.0]
    assert sens.coverage() == 0.75 and sens.coverage(["b"]) == 1.0
    # undefined: no shuffle control, matching within a tolerance, different restart counts, one restart,
    # three (half of them is one: its interval is a point, which covers little but itself)
    for documents, why in (({"a": [_restarts((3,), [(3,)] * 4, None)]}, "the shuffle control was not run"),
                           ({"a": [_restarts((3,), [(3,)] * 4, [(1,)] * 4, tolerance=1)]}, "within a tolerance"),
                           ({"a": [moving, _restarts((3,), [(3,)] * 3, [(1,)] * 3)]}, "different numbers of restarts"),
                           ({"a": [_restarts((3,), [(3,)], [(1,)])]}, "half of the 1 restart is 0"),
                           ({"a": [_restarts((3,), [(3,), (5,), (3,)], [(1,)] * 3)]}, "half of the 3 restarts is 1")):
        assert restart_sensitivity(SimpleNamespace(documents=documents), ["a"]) is None
        assert why in undefined_because(SimpleNamespace(documents=documents), ["a"])
    assert undefined_because(run, ["a", "b"]) is None


def test_study_compares_half_and_all_restarts_and_reports_it(two_corpora):
    from stability.catalogue import HEADLINE
    from stability.study.decision import PLACEMENT, placement_agreement
    from stability.study.sensitivity import headline_at
    from stability.summary import load_results

    root, _, report = two_corpora
    result = load_results(root / "cache" / "alpha" / "results.jsonl")
    # with every restart the recomputed headline is the catalogue's
    for docs in result.documents.values():
        for r in docs:
            assert headline_at(r) == pytest.approx(HEADLINE.value(r), nan_ok=True)
    specs = load_corpora([root / "multi.toml"])[0].experiment.segmenters
    study = analyze(result, name="alpha", specs=specs, metric_names=["f1", "boundary_similarity"],
                    n_bootstrap=20, n_orders=5)
    # two restarts: half of them is one, whose interval is a single point: n/a, with the reason
    assert study.sensitivity is None
    section = report.split("### Does the headline depend on the number of restarts?")[1].split("###")[0]
    assert "| alpha | n/a |" in section and "| beta | n/a |" in section and "%" not in section
    assert ("n/a on `alpha`, `beta`: half of the 2 restarts is 1, and an interval over fewer than 2 restarts "
            "is a single point.") in section
    (placement,) = placement_agreement([study], HEADLINE.name)
    # the run computed B, not F1 within one unit: only B is compared
    assert list(placement.tau) == ["boundary_similarity"] and "f1_1" in PLACEMENT
    assert placement.mean == study.across["all"][HEADLINE.name]["boundary_similarity"]["kendall"].estimate
    assert placement.ceiling_mean == study.ceilings["boundary_similarity"]
    # its replicates are B's own (one metric: the mean over metrics is B's tau, resample by resample)
    b = study.across["all"][HEADLINE.name]["boundary_similarity"]["kendall"].samples
    assert placement.samples.size == 20 and np.allclose(placement.samples, b, equal_nan=True)
    # the headline on half of the documents against B on the other half, as the report shows it
    assert study.halves.half == len(study.documents) // 2 and study.halves.n_splits == study.settings["n_splits"]
    section = report.split("### On documents whose references it did not see")[1].split("###")[0]
    assert (f"| alpha | {study.halves.half} | {study.halves.mean('score', PLACEMENT):+.2f} | "
            f"{study.halves.mean('ideal', PLACEMENT):+.2f} |") in section
    for heading in ("### The headline against B and boundary F1 within one unit",
                    "### Does the headline depend on the number of restarts?",
                    "| alpha | selection |", "| beta | held out |", "; over selection corpora (1): ",
                    "; over held out (1): ", "- Largest disagreements of the headline with boundary similarity (rank ",
                    "### Configurations marked for their number of boundaries"):
        assert heading in report, heading
    # the section lists exactly what the reports mark, with the ranks the study computes
    from stability.study.render import _marked
    from stability.summary import COUNT_MARKS, count_marks

    section = report.split("### Configurations marked for their number of boundaries")[1].split("###")[0]
    for mark in COUNT_MARKS:
        assert [label for label, _, _ in _marked(study, mark.key)] == list(count_marks(result.summary)[mark.key])
        for label, mean, ranks in _marked(study, mark.key):
            i = study.labels.index(label)
            assert ranks["boundary_similarity"] == (study.ranks("boundary_similarity", reference=True)[i],
                                                    study.ranks(HEADLINE.name)[i])
            assert f"| {mark.name} | {study.name} | `{label}` |" in section


def test_held_out_corpora_are_read_from_their_tables(tmp_path):
    specs = load_corpora([_write(tmp_path, TWO_CORPORA)])
    assert [(s.name, s.held_out) for s in specs] == [("alpha", False), ("beta", True)]
    # the key is the study's, not a reader option: the experiment never sees it
    assert "held_out" not in specs[1].experiment.corpus
    bad = TWO_CORPORA.replace("held_out = true", 'held_out = "yes"')
    with pytest.raises(InvalidParameterError, match=r"\[corpus\.beta\] held_out.*true or false.*'yes'"):
        load_corpora([_write(tmp_path, bad)])
    # the command line says it as the file wrote it (not [--corpus.beta], not the table twice)
    result = CliRunner().invoke(app, ["validate", str(_write(tmp_path, bad)), "--no-progress"])
    assert result.exit_code == 1, result.output
    assert f"error: {tmp_path / 'study.toml'} [corpus.beta] held_out must be true or false; received 'yes'" in result.stderr


@pytest.mark.parametrize("old, new, said", [
    # a key of the corpus table is said in that table, with the study's own key among the choices
    ("held_out = true", "heldout = true", "study.toml: unknown key 'heldout' in [corpus.beta]; did you mean 'held_out'?"),
    ("held_out = true", "limt = 3", "study.toml: unknown key 'limt' in [corpus.beta]; did you mean 'limit'?"),
    ("held_out = true", "[corpus.beta.x]", "study.toml: unknown key 'x' in [corpus.beta]"),
    ("held_out = true", "limit = 0", "study.toml: [corpus.beta] limit must be an integer >= 1; received 0"),
    ("seed = 1, n_segments = 4", "seed = -1", "study.toml: [corpus.beta.demo] seed must be an integer >= 0"),
    ("demo = { n_documents = 5, seed = 1, n_segments = 4 }", "path = 3", "study.toml: [corpus.beta] path must be a string or a list of strings"),
    # the segmenters are the file's, not a corpus's: said once, with the file, as `stability run` says them
    ("w = 10", "ww = 10", "study.toml: [segmenters.tt]: segmenter 'texttiling' has no parameter 'ww'; did you mean 'w'?"),
    ("w = 10", 'w = "10"', "study.toml: [segmenters.tt]: w must be an integer; received str '10'"),
])
def test_a_mistake_in_a_study_config_names_the_file_and_the_key_path(tmp_path, old, new, said):
    # it said "unknown key 'heldout' in [corpus]", with no 'held_out' to suggest, and a
    # segmenter's parameter as "study.toml (corpus 'alpha'): study.toml [corpus.alpha]: [segmenters.tt]"
    config = _write(tmp_path, TWO_CORPORA.replace(old, new, 1))
    result = CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "out"), "--no-progress"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"error: {tmp_path / said}"), result.stderr
    assert result.stderr.count("study.toml") == 1, result.stderr


def _write(folder: Path, text: str) -> Path:
    path = folder / "study.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_ranks_and_largest_disagreements_by_hand():
    from stability.catalogue import REFERENCE
    from stability.study import Study

    labels = ["a", "b", "c", "d"]
    fake = SimpleNamespace(labels=labels, metrics={"windowdiff": REFERENCE["windowdiff"]},
                           scores={"count_corrected": STABILITY["count_corrected"]},
                           means={"reference": {"windowdiff": dict(zip(labels, [0.1, 0.2, 0.3, 0.3]))},
                                  "stability": {"count_corrected": dict(zip(labels, [0.2, 0.9, 0.5, float("nan")]))}})
    fake.ranks = lambda name, reference=False: Study.ranks(fake, name, reference=reference)
    # WindowDiff: lower is better -> a 1, b 2, c and d tie for 3-4 (3.5); the score: b 1, c 2, a 3, d undefined
    assert Study.ranks(fake, "windowdiff", reference=True).tolist() == [1.0, 2.0, 3.5, 3.5]
    assert Study.ranks(fake, "count_corrected")[:3].tolist() == [3.0, 1.0, 2.0]
    # |rank differences|: a 2, b 1, c 1.5, d undefined (left out)
    assert Study.disagreements(fake, "count_corrected", "windowdiff") == [("a", 1.0, 3.0), ("c", 3.5, 2.0),
                                                                         ("b", 2.0, 1.0)]
    assert Study.disagreements(fake, "count_corrected", "windowdiff", n=1) == [("a", 1.0, 3.0)]


def test_the_ceiling_table_explains_a_headline_above_it():
    from stability.study.render import _ceiling_table

    def study(own_b: float) -> SimpleNamespace:
        kendall = {"kendall": SimpleNamespace(estimate=own_b)}
        return SimpleNamespace(name="tiny", labels=["a", "none"], content_blind={"none": True},
                               metrics={"boundary_similarity": SimpleNamespace(title="boundary similarity")},
                               across={"all": {"h": {"boundary_similarity": kendall}}},
                               ceilings={"boundary_similarity": 0.88})
    below = "\n".join(_ceiling_table(SimpleNamespace(studies=[study(0.5)]), "h"))
    above = "\n".join(_ceiling_table(SimpleNamespace(studies=[study(1.0)]), "h"))
    assert "| tiny | boundary similarity | 1 | +0.88 | +1.00 | +0.12 |" in above
    assert "above the ceiling on 1 row:" in above and "counts a tie as neither" in above
    assert "above the ceiling" not in below      # committed reports, none above it, are unchanged


# ---------------------------------------------------------------------------------------------
# tiny runs: what is not defined says n/a, never 0 or nan
# ---------------------------------------------------------------------------------------------
def test_no_deviation_after_30_documents_with_fewer_documents():
    from stability.study import settling

    few = settling([0.1, 0.9, 0.5], at=30, n_orders=5)
    assert math.isnan(few["deviation_at"]) and math.isnan(few["deviation_at_p90"])  # was 0: the final mean
    assert few["final"] == pytest.approx(0.5) and not math.isnan(few["n_median"])
    values = [0.0, 1.0] * 15  # 30 documents: after 30 of them the running mean is the final mean
    assert math.isnan(settling(values, at=30, n_orders=5)["deviation_at"])
    assert settling(values + [1.0], at=30, n_orders=5)["deviation_at"] == pytest.approx(abs(0.5 - 16 / 31))
    # 31 documents, one undefined: 30 defined values, the same (it read 0.000 in a committed report)
    assert math.isnan(settling(values + [float("nan")], at=30, n_orders=5)["deviation_at_p90"])


def test_the_settling_section_and_plots_of_a_corpus_under_30_documents(two_corpora):
    root, _, report = two_corpora
    section = report.split("## Corpus `alpha`")[1].split("### Does the score settle")[1].split("### Verdict")[0]
    assert "The corpus has fewer than 30 documents: `dev@30` is n/a." in section
    assert "0.000" not in section and "max dev@30 |" in section
    summary = section.split("Over the content-aware configurations:")[1]
    assert all(row.endswith("| n/a | n/a |") for row in summary.strip().splitlines()[2:])
    # no dashed line at 30 documents on an axis of 4, and no caption naming it
    assert "dashed line" not in report
    assert "stroke-dasharray" not in (root / "docs" / "validation" / "alpha" / "running_f1.svg").read_text()


def test_validate_needs_40_bootstrap_resamples(two_corpora, tmp_path):
    root, args, _ = two_corpora
    at = args.index("--bootstrap") + 1
    for few in ("1", "0", "39"):
        refused = CliRunner().invoke(app, args[:at] + [few] + args[at + 1:])
        assert refused.exit_code == 1, refused.output
        assert f"bootstrap must be at least 40 (a 95% percentile interval leaves out 2.5% of the resamples at each " \
               f"end: one resample each takes 40); received {few}" in refused.stderr
    from stability.study.run import MIN_BOOTSTRAP

    assert MIN_BOOTSTRAP == 40
    options = StudyOptions((str(root / "multi.toml"),), out=str(tmp_path), bootstrap=39, progress=False)
    with pytest.raises(InvalidParameterError, match="bootstrap must be at least 40"):
        run_study(options)


def test_undefined_intervals_are_left_out_not_nan(two_corpora):
    from stability.study.correlations import Correlation
    from stability.study.render import _corr, _documents, _verdict
    from stability.summary import load_results

    assert _corr(Correlation(0.4, (float("nan"), float("nan")), 3)) == "+0.40"
    assert _corr(Correlation(0.4, (0.1, 0.5), 3)) == "+0.40 [+0.10, +0.50]"
    assert _corr(Correlation(float("nan"), (float("nan"), float("nan")), 0)) == "n/a"
    # a study whose intervals no resample defines (e.g. one resample, undefined): left out, never "+nan"
    root, _, _ = two_corpora
    study = analyze(load_results(root / "cache" / "alpha" / "results.jsonl"), name="alpha", n_bootstrap=40,
                    n_orders=5)
    nan = (float("nan"), float("nan"))
    for by_metric in study.per_document.values():
        for views in by_metric.values():
            views["pooled"]["kendall"] = Correlation(0.25, nan, 4)
    study.agreement_interval = lambda subset="all", statistic="kendall": dict.fromkeys(study.scores, nan)
    study.difference_interval = lambda first, second, subset="all", statistic="kendall": nan
    text = "\n".join(_documents(study) + _verdict(study))
    assert "nan" not in text and "| pooled | +0.25 | +0.25 |" in text
    assert "not a clear advantage (no resample defines the interval)" in text


def test_one_document_has_no_interval_over_documents_and_few_documents_are_no_conclusion(tmp_path):
    """A study over one document printed every bootstrap interval as the point itself
    (``+0.48 [+0.48, +0.48]``) and called each difference of scores "a clear advantage"; over few
    documents it said nothing about the sample being too small for a conclusion."""
    config = tmp_path / "multi.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")
    args = ["validate", str(config), "--corpus", "alpha", "--out", str(tmp_path / "cache"), "--docs",
            str(tmp_path / "docs"), "--jobs", "1", "--limit", "1", "--restarts", "2", "--bootstrap", "40",
            "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = (tmp_path / "docs" / "validation.md").read_text(encoding="utf-8")
    import re

    assert not re.search(r"\[([+-]\d\.\d\d), \1\]", report), "a zero-width interval over one document"
    assert not re.search(r", a clear advantage", report)
    assert "not a clear advantage (one document: no interval over documents)" in report
    assert report.count("**Too few documents for a conclusion:** `alpha` (1 document).") == 2  # summary and section
    assert "warning: alpha: 1 document, fewer than 30: its rank agreement and the rule's pick are a first look, " \
           "not a conclusion (see the report)" in result.stderr


def test_the_study_s_warnings_are_its_own_lines_the_command_prints():
    """validate printed warnings it built itself from each corpus's study; StudyRun.warnings holds
    them (the command prints each after 'warning: ', as the test above reads on stderr)."""
    from stability.study.run import StudyRun

    few = SimpleNamespace(name="alpha", result=SimpleNamespace(failures=[]), few_documents=True,
                          documents=[1, 2], settle_at=30)
    enough = SimpleNamespace(name="beta", result=SimpleNamespace(failures=[]), few_documents=False,
                             documents=list(range(30)), settle_at=30)
    run = StudyRun(studies=[few, enough], decision=None, options=None)  # type: ignore[arg-type]
    assert run.warnings() == ["alpha: 2 documents, fewer than 30: its rank agreement and the rule's pick are a first "
                              "look, not a conclusion (see the report)"]


def test_enough_documents_give_no_few_documents_warning(two_corpora):
    _, _, report = two_corpora
    assert "`alpha` (4 documents), `beta` (4 documents)." in report  # 4 documents each: warned
    study = SimpleNamespace(documents=list(range(30)), settings={"settle_at": 30})
    from stability.study.analysis import Study

    study.settle_at = Study.settle_at.fget(study)
    assert study.settle_at == 30 and Study.few_documents.fget(study) is False
    study.documents = list(range(29))
    assert Study.few_documents.fget(study) is True


@pytest.mark.parametrize("tables", ["[segmenters.c99]\n", "[segmenters.c99]\n[segmenters.u00]\n"])
def test_fewer_than_three_configurations_are_refused_before_the_run(tmp_path, tables):
    """Refused once the whole corpus had been run, as 'result must be a run with at least 3
    segmenter configurations with results; received [...]', naming no file."""
    config = tmp_path / "few.toml"
    config.write_text("[corpus]\ndemo = { n_documents = 3 }\n" + tables + "[run]\nn_restarts = 2\n", encoding="utf-8")
    out = tmp_path / "cache"
    result = CliRunner().invoke(app, ["validate", str(config), "--out", str(out), "--no-progress"])
    assert result.exit_code == 1, result.output
    n = tables.count("[segmenters.")
    assert (f"few.toml: a validation study ranks at least 3 segmenter configurations against the references "
            f"([segmenters.NAME] tables); received {n}:") in result.stderr
    assert not out.exists()  # nothing was run


def test_all_configurations_content_blind_names_the_corpus_and_what_to_add(tmp_path):
    config = tmp_path / "blind.toml"
    config.write_text("[corpus]\ndemo = { n_documents = 3 }\n[segmenters.none]\n[segmenters.all]\n"
                      "[segmenters.even_known]\nsegmenter = \"even\"\nn_segments = \"reference\"\n"
                      "[run]\nn_restarts = 2\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "cache"), "--no-progress",
                                      "--bootstrap", "40"])
    assert result.exit_code == 1, result.output
    assert ("so nothing can be ranked ('blind': every configuration was flagged content-blind by the shuffle control, "
            "so every stability score is the same (documents of a median of ") in result.stderr
    assert "compare segmenters that read the content, such as texttiling, c99 or u00)" in result.stderr


def test_a_study_with_failed_segmenter_calls_exits_3_like_run(tmp_path):
    """A configuration failing on a document (tests/faults.py: raises on the 'bad' document);
    `validate` listed the failure on stderr and wrote the report but exited 0, where every
    command's exit code 3 says that a run completed with failures."""
    corpus = tmp_path / "mixed.jsonl"
    units = [f"Sentence {i} about {'cats' if i < 6 else 'stars'} and more {'cats' if i < 6 else 'stars'}." for i in range(12)]
    corpus.write_text("\n".join([
        json.dumps({"id": "a", "units": units, "segments": [6, 6]}),
        json.dumps({"id": "b", "units": units[::-1], "boundaries": [6]}),
        json.dumps({"id": "c", "units": [f"bad {i}" for i in range(12)], "boundaries": [6]}),  # 'fault' fails here
    ]) + "\n", encoding="utf-8")
    config = tmp_path / "mixed.toml"
    config.write_text(f'allow_plugins = true\n[corpus]\npath = "{corpus.as_posix()}"\n[segmenters.c99]\n'
                      '[segmenters.none]\n[segmenters.fault]\nsegmenter = "faults:Fault"\nkind = "raise"\n'
                      '[run]\nn_restarts = 2\n', encoding="utf-8")
    args = ["validate", str(config), "--out", str(tmp_path / "cache"), "--docs", str(tmp_path / "docs"),
            "--bootstrap", "40", "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3, result.output
    assert "warning: mixed: segmenter 'fault', document 'c'" in result.stderr
    assert (tmp_path / "docs" / "validation.md").is_file()  # the report is written all the same


def test_the_protocol_is_linked_only_where_the_report_sits_beside_it(two_corpora, tmp_path):
    """A report written into a user's folder linked to validation-protocol.md beside it, which is
    not there (only the project's docs/ holds it)."""
    root, args, report = two_corpora
    assert "](validation-protocol.md)" not in report
    assert "chosen by the protocol written before the numbers in the stability project's " \
           "`docs/validation-protocol.md` (selection corpora" in report
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "validation-protocol.md").write_text("# protocol\n", encoding="utf-8")
    at = args.index("--docs") + 1
    result = CliRunner().invoke(app, args[:at] + [str(docs)] + args[at + 1:])
    assert result.exit_code == 0, result.output
    beside = (docs / "validation.md").read_text(encoding="utf-8")
    assert "the numbers in [validation-protocol.md](validation-protocol.md) (selection corpora" in beside


def test_a_configuration_added_to_a_study_reuses_the_cache(tmp_path):
    # a user adds a configuration to a study that has run: only its pairs are computed, and the
    # report is the one a run from scratch gives
    config = tmp_path / "study.toml"
    config.write_text(TWO_CORPORA, encoding="utf-8")

    def validate(cache, docs):
        args = ["validate", str(config), "--out", str(tmp_path / cache), "--docs", str(tmp_path / docs),
                "--jobs", "1", "--limit", "3", "--restarts", "2", "--bootstrap", "40", "--no-progress"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        return result

    validate("cache", "before")
    config.write_text(TWO_CORPORA.replace("[segmenters.none]", "[segmenters.u00]\n[segmenters.none]"), encoding="utf-8")
    again = validate("cache", "after")
    assert "'u00' added to the run it holds" in again.output
    validate("fresh", "fresh")
    for name in ("alpha", "beta"):
        lines = (tmp_path / "cache" / name / "results.jsonl").read_text().splitlines()
        assert sum('"type": "run"' in line for line in lines) == 2
    assert "u00" in (tmp_path / "after" / "validation.md").read_text(encoding="utf-8")
    assert ((tmp_path / "after" / "validation.md").read_text(encoding="utf-8").replace("/after", "/fresh")
            .replace("/cache", "/fresh") == (tmp_path / "fresh" / "validation.md").read_text(encoding="utf-8"))


def test_a_full_disk_while_the_study_report_is_written_leaves_the_previous_report_whole(two_corpora, monkeypatch):
    # it left a cut validation.md (a committed report, in docs/) and said "No space left on device" alone
    import errno
    import os
    import pathlib

    root, args, _ = two_corpora
    before = (root / "docs" / "validation.md").read_text(encoding="utf-8")  # other tests rewrite it
    real_write_text = pathlib.Path.write_text

    def write_text(self, text, *rest, **keywords):
        if self.name.startswith("validation.md"):
            real_write_text(self, text[:len(text) // 2], *rest, **keywords)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write_text(self, text, *rest, **keywords)

    monkeypatch.setattr(pathlib.Path, "write_text", write_text)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert f"error: No space left on device: '{root / 'docs' / 'validation.md'}'" in result.stderr
    assert (root / "docs" / "validation.md").read_text(encoding="utf-8") == before
    assert not (root / "docs" / "validation.md.tmp").exists()


def test_the_placement_table_titles_a_reference_the_configs_leave_out_as_the_catalogue_and_says_so(two_corpora):
    """TWO_CORPORA's [metrics] names leave out f1_1: the table's column read `vs f1_1` (the key, not
    the title F1(±1) the other tables use), and its n/a and a mean over B alone went unexplained."""
    *_, report = two_corpora
    section = report.split("### The headline against B and boundary F1 within one unit", 1)[1].split("\n### ", 1)[0]
    assert "| vs B | vs F1(±1) |" in section and "f1_1 |" not in section, section
    assert "F1(±1) is not computed on `alpha`, `beta` (add `f1_1` to the config's `[metrics] names`)" in section, section


@pytest.mark.parametrize("width", [60, 72])
def test_the_result_line_of_validate_wraps_on_a_terminal_and_stays_one_line_in_a_pipe(two_corpora, monkeypatch, width):
    """``headline score in use: ...; this study's rule picks: ...`` is 80 characters here, 82 when
    the rule picks shuffle_corrected: an 80-column terminal cut a score's name in two at its edge.
    On a terminal it wraps at a blank, to the terminal's width; in a pipe it stays the one line a
    script reads."""
    root, args, _ = two_corpora
    runner = CliRunner(env={"COLUMNS": str(width)})
    piped = runner.invoke(app, args)
    monkeypatch.setattr("stability.cli._on_terminal", lambda stream: True)
    shown = runner.invoke(app, args)
    assert piped.exit_code == shown.exit_code == 0, shown.output
    assert len(piped.stdout.splitlines()) == 1 and len(piped.stdout.rstrip("\n")) > width, piped.stdout
    assert len(shown.stdout.splitlines()) == 2 and max(map(len, shown.stdout.splitlines())) <= width, shown.stdout
    assert " ".join(shown.stdout.split()) == piped.stdout.strip()


def test_markdown_columns_of_words_are_left_aligned_and_numbers_right(two_corpora):
    """Every column but the first was right-aligned: a configuration's segmenter, parameters and
    flags, a corpus named in a cell, stood against the right edge of their column."""
    *_, report = two_corpora
    assert "| configuration | segmenter | parameters | flags |\n|---|---|---|---|\n" in report
    summary = report.split("### Each candidate score against each reference metric", 1)[1]
    assert "| corpus | stability score | F1(ref) | WD | B | mean |\n|---|---|---:|---:|---:|---:|\n" in summary, summary[:1500]
