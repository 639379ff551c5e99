"""Running the study: the experiment files, the corpora, the cached runs and the analysis.

A study reads one or several TOML experiment files (:mod:`stability.config`). A file describes
one corpus (a ``[corpus]`` table, named after the file) or several (``[corpus.NAME]`` tables,
each what a ``[corpus]`` table holds: a path with its format and reader options, or ``demo``);
its ``[segmenters]``, ``[run]``, ``[metrics]`` and ``[output]`` tables apply to each of its
corpora. Every corpus is read first (so a bad path fails before hours of computing), then run
through :func:`stability.evaluate` with its results cached as JSON lines and resumed, then
analysed (:func:`stability.study.analysis.analyze`); :func:`stability.study.decision.decide`
chooses the headline across corpora.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..checks import check_folder, check_int, counted, first_few
from ..config import STUDY_CORPUS_KEYS, Experiment, _corpus_keys, _in_file, _validate, missing_corpus
from ..config import read_toml as _read_toml  # one reading of a TOML file for run and validate
from ..corpus import Document
from ..exceptions import InvalidParameterError, warn
from ..settings import min_bootstrap
from ..status import PhaseCallback, Status
from .analysis import MIN_CONFIGURATIONS, Study, analyze
from .decision import Decision, decide

__all__ = ["QUICK_STRIDE", "MIN_BOOTSTRAP", "StudyOptions", "CorpusSpec", "StudyPlan", "StudyRun", "load_corpora", "plan_study",
           "quick_subset", "resolve_options", "run_study"]

#: ``--quick`` keeps every ``QUICK_STRIDE``-th document of each corpus, in corpus order (indices
#: 0, 4, 8, ...).
QUICK_STRIDE = 4
#: Cache directory when neither ``--out`` nor the first file's ``[output] dir`` says one.
DEFAULT_OUT = "results/validation"
#: The report's name when none is given: ``validation.md``, ``validation/``, ``validation-discussion.md``.
REPORT_NAME = "validation"
#: The key of a ``[corpus.NAME]`` table marking a held-out corpus (:attr:`CorpusSpec.held_out`).
HELD_OUT, = STUDY_CORPUS_KEYS
#: The fewest bootstrap resamples a study accepts, as a run's ``n_bootstrap`` is bounded
#: (:func:`stability.settings.min_bootstrap`) at the level of a study's intervals (0.95,
#: :func:`~stability.study.analysis.analyze`'s): 40. A run warns under it; a study refuses fewer.
MIN_BOOTSTRAP = min_bootstrap(0.95)


@dataclass(frozen=True)
class StudyOptions:
    """Everything ``stability validate`` was told; :meth:`command` prints it back.

    ``out`` and ``docs`` are filled in by :func:`run_study` when not given (the first file's
    ``[output] dir``, with ``-quick``, ``-limit<N>`` and ``-restarts<N>`` appended for those
    options, so that a small try never shares a folder with the whole study; the report goes
    beside the cache), so
    the printed command names every option the report depends on. ``name`` names the report:
    ``<name>.md``, its plots under ``<name>/`` and the hand-written ``<name>-discussion.md`` it
    appends, so that several studies can share one ``docs`` folder. ``comparison`` adds the
    section on the second number of a comparison (:mod:`stability.study.comparison`).
    """

    configs: tuple[str, ...]
    quick: bool = False
    out: str | None = None
    docs: str | None = None
    jobs: int | None = None
    limit: int | None = None
    restarts: int | None = None
    bootstrap: int = 1000
    corpora: tuple[str, ...] = ()
    progress: bool | None = None
    n_orders: int = 200
    n_splits: int = 200
    name: str = REPORT_NAME
    comparison: bool = False

    @property
    def report_file(self) -> str:
        """The report's file name, ``<name>.md``; its plots go under the folder ``<name>``."""
        return f"{self.name}.md"

    @property
    def discussion_file(self) -> str:
        """The hand-written discussion appended to the report, ``<name>-discussion.md``."""
        return f"{self.name}-discussion.md"

    def command(self) -> str:
        """The ``stability validate`` command line that gives these options.

        Examples
        --------
        >>> StudyOptions(("configs/validation.toml",), quick=True, out="r", docs="docs", restarts=5).command()
        'stability validate configs/validation.toml --quick --out r --docs docs --restarts 5 --bootstrap 1000'
        """
        words = ["stability", "validate", *self.configs]
        flags: list[tuple[str, Any]] = [("--quick", self.quick), ("--out", self.out), ("--docs", self.docs),
                                        ("--jobs", self.jobs), ("--limit", self.limit),
                                        ("--restarts", self.restarts), ("--bootstrap", self.bootstrap),
                                        ("--comparison", self.comparison)]
        for flag, value in flags:
            if value is True:
                words.append(flag)
            elif value is not None and value is not False:
                words += [flag, str(value)]
        for name in self.corpora:
            words += ["--corpus", name]
        if self.name != REPORT_NAME:
            words += ["--name", self.name]
        if self.progress is not None:
            words.append("--progress" if self.progress else "--no-progress")
        return " ".join(shlex.quote(w) for w in words)


@dataclass(frozen=True)
class CorpusSpec:
    """One corpus of the study: its name, its validated experiment, the file it comes from and
    whether it is held out (``held_out = true`` in its ``[corpus.NAME]`` table: a corpus on which
    the headline was not chosen, reported apart as a check)."""

    name: str
    experiment: Experiment
    config: str
    held_out: bool = False
    #: The table of ``config`` the corpus is read from, as messages name it.
    table: str = "[corpus]"


@dataclass
class StudyRun:
    """A finished study: one :class:`~stability.study.analysis.Study` per corpus, the headline
    decision and the options that produced them."""

    studies: list[Study]
    decision: Decision
    options: StudyOptions
    corpora: list[CorpusSpec] = field(default_factory=list)
    #: Whether each corpus has a folder of its own (cache and plots): the config files define
    #: several, whether or not ``--corpus`` selected some (None: when the study has several).
    folders: bool | None = None

    @property
    def per_corpus(self) -> bool:
        """Whether each corpus's cache and plots are in a folder named after it."""
        return len(self.studies) > 1 if self.folders is None else self.folders

    def warnings(self) -> list[str]:
        """What the study warns about once its report is written, a line each, named by corpus:
        its failures (:func:`stability.results.failure_lines`), and a corpus of fewer documents
        than its rank agreement needs to settle (:attr:`Study.few_documents`)."""
        from ..results import failure_lines

        said = []
        for study in self.studies:
            said += [f"{study.name}: {line}" for line in failure_lines(study.result.failures)]
            if study.few_documents:
                said.append(f"{study.name}: {counted(len(study.documents), 'document')}, fewer than "
                            f"{study.settle_at}: its rank agreement and the rule's pick are a first look, not a "
                            "conclusion (see the report)")
        return said


# ----------------------------------------------------------------------------------------------
# experiment files
# ----------------------------------------------------------------------------------------------
def _named_corpora(corpus: Any, source: str) -> dict[str, Mapping[str, Any]] | None:
    """The ``[corpus.NAME]`` tables of a file, or None when its ``[corpus]`` is one corpus."""
    if not isinstance(corpus, Mapping) or not corpus:
        return None
    known = set(_corpus_keys())
    if any(key in known for key in corpus):
        beside = sorted(name for name, value in corpus.items() if isinstance(value, Mapping) and name not in known)
        if beside:
            raise InvalidParameterError(
                f"{source}: [corpus] holds corpus options ({', '.join(sorted(k for k in corpus if k in known))}) and "
                f"[corpus.NAME] tables ({', '.join(beside)}); expected one corpus ([corpus] and its options) or "
                "several ([corpus.NAME] tables, each with its options), not both")
        return None
    tables = {name: table for name, table in corpus.items() if isinstance(table, Mapping)}
    if len(tables) != len(corpus):
        loose = sorted(set(corpus) - set(tables))
        raise InvalidParameterError(f"{source}: [corpus] must hold corpus options or [corpus.NAME] tables; "
                                    f"received {loose} beside named corpora")
    return tables


def load_corpora(configs: Sequence[str | os.PathLike]) -> list[CorpusSpec]:
    """The corpora of one or several experiment files, in file order.

    A file with ``[corpus.NAME]`` tables gives one corpus per table, named ``NAME``; a file with a
    plain ``[corpus]`` table gives one corpus named after the file (``choi-validation``). Names
    must be unique across the files. ``held_out = true`` in a ``[corpus.NAME]`` table marks a
    corpus the headline was not chosen on; the report shows its agreement apart.
    """
    if not configs:
        raise InvalidParameterError.make("configs", "at least one experiment file", list(configs))
    specs: list[CorpusSpec] = []
    for config in configs:
        path = Path(config)
        data = _read_toml(path)
        named = _named_corpora(data.get("corpus"), str(path))
        if named is None:
            specs.append(CorpusSpec(path.stem, _validate(data, str(path), path.resolve().parent), str(config)))
            continue
        for name, table in named.items():
            # the corpus's keys are said in its table, [corpus.NAME]; the file's other tables as they are
            experiment = _validate(data | {"corpus": table}, str(path), path.resolve().parent, f"[corpus.{name}]", STUDY_CORPUS_KEYS)
            held = table.get(HELD_OUT, False)
            if not isinstance(held, bool):
                raise _in_file(InvalidParameterError.make(f"{path} [corpus.{name}] {HELD_OUT}", "true or false", held))
            specs.append(CorpusSpec(str(name), experiment, str(config), held, f"[corpus.{name}]"))
    for spec in specs:
        if spec.experiment.missing:  # a study compares the configurations it is given: no defaults
            tables = " and no ".join(f"[{t}]" for t in spec.experiment.missing)
            raise InvalidParameterError(
                f"{spec.experiment.source} has no {tables} table; a validation study runs the segmenter "
                "configurations its file names ([segmenters.NAME] tables) on the corpora it names")
    for spec in specs:
        labels = list(spec.experiment.segmenters)
        if len(labels) < MIN_CONFIGURATIONS:  # refused before any corpus is read or run
            raise InvalidParameterError(
                f"{spec.experiment.source}: a validation study ranks at least {MIN_CONFIGURATIONS} segmenter "
                f"configurations against the references ([segmenters.NAME] tables); received {len(labels)}: {labels}")
    for spec in specs:  # a name is a folder of the cache and of the plots: never a path
        if not spec.name or spec.name.startswith(".") or Path(spec.name).name != spec.name or "\\" in spec.name:
            raise InvalidParameterError(f"{spec.config}: corpus name {spec.name!r}: expected a name usable as a folder "
                                        "of the study's cache and plots (no '/', '\\' or leading '.')")
    names = [s.name for s in specs]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise InvalidParameterError.make("configs", "corpora with distinct names", repeated)
    return specs


def _select(specs: list[CorpusSpec], names: Sequence[str]) -> list[CorpusSpec]:
    if not names:
        return specs
    known = [s.name for s in specs]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InvalidParameterError.make("corpus", f"corpora of the config files ({', '.join(known)})", unknown)
    return [s for s in specs if s.name in names]


# ----------------------------------------------------------------------------------------------
# documents and runs
# ----------------------------------------------------------------------------------------------
def quick_subset(documents: Sequence[Any], stride: int = QUICK_STRIDE) -> list[Any]:
    """Every ``stride``-th document in corpus order (indices 0, stride, 2 stride, ...).

    Examples
    --------
    >>> quick_subset(list(range(10)))
    [0, 4, 8]
    """
    check_int(stride, "stride", low=1)
    return list(documents)[::stride]


@dataclass
class _Prepared:
    """A corpus ready to run: its documents (those with references, then --quick and --limit),
    how many it has, how many of them have no references, its segmenters built."""

    spec: CorpusSpec
    documents: list[Document]
    available: int
    segmenters: dict[str, Any]
    unjudged: int = 0


def _prepare(spec: CorpusSpec, options: StudyOptions, status: Status) -> _Prepared:
    """Read the documents and build the segmenters of a corpus; an error names the corpus."""
    where = f"{spec.config} (corpus {spec.name!r})"
    status("reading the corpus", spec.name)
    segmenters = spec.experiment.build_segmenters()  # its errors name the file and [segmenters.NAME]
    try:
        documents = list(spec.experiment.documents())
    except InvalidParameterError as exc:
        raise InvalidParameterError(f"{where}: {exc}") from exc
    except OSError as exc:  # a missing corpus path: which corpus of which config
        said = missing_corpus(exc, spec.experiment, spec.config, spec.table)
        if said is not None:
            raise said from None
        if not exc.strerror:
            raise
        raise type(exc)(exc.errno, f"{where}: {exc.strerror}", exc.filename) from exc
    available = len(documents)
    if not documents:
        raise InvalidParameterError(f"{where}: the corpus has no documents")
    if not any(d.references for d in documents):
        raise InvalidParameterError(f"{where}: the documents have no references; the validation study compares with them")
    unjudged = [d.id for d in documents if not d.references]
    if unjudged:  # kept, their stability means and the reference means would cover different documents
        from ..readers import CorpusWarning

        shown = first_few(unjudged)
        warn(f"{where}: {len(unjudged)} document(s) without references left out of the study ({shown}): its "
             "rankings compare stability and reference metrics over the same documents", CorpusWarning)
        documents = [d for d in documents if d.references]
    if options.quick:  # --quick and --limit choose among the documents the study can use
        documents = quick_subset(documents)
    if options.limit is not None:
        documents = documents[:options.limit]
    return _Prepared(spec, documents, available, segmenters, len(unjudged))


def _check_distinct(prepared: Sequence[_Prepared]) -> None:
    """Refuse two corpora holding the same documents (the same units and references, whatever their
    ids and formats: one file under two tables, a JSONL copy of a Choi folder): the summary across
    corpora and the rule's pick would count that evidence twice. Documents in both of two
    corpora that differ otherwise are said, and studied in each."""
    def key(doc: Document) -> tuple[Any, ...]:
        return doc.units, tuple(tuple(ref.boundaries) for ref in doc.references)

    contents = [{key(doc) for doc in corpus.documents} for corpus in prepared]
    for i, first in enumerate(prepared):
        for j in range(i + 1, len(prepared)):
            shared = len(contents[i] & contents[j])
            if not shared:
                continue
            a, b = first.spec, prepared[j].spec
            names = f"{a.config}: {a.table} and {b.table}" if a.config == b.config else \
                f"{a.config} {a.table} and {b.config} {b.table}"
            if contents[i] == contents[j]:
                raise InvalidParameterError(
                    f"{names} hold the same {shared} documents (the same units and references): the study would "
                    "count them twice in its summary across corpora and in the rule's pick; remove one of the tables")
            from ..readers import CorpusWarning

            warn(f"{names} share {shared} documents (the same units and references): each corpus's numbers include "
                 "them, so the two are not independent evidence", CorpusWarning)


def _run_settings(spec: CorpusSpec, options: StudyOptions) -> dict[str, Any]:
    run = {k: v for k, v in spec.experiment.run.items() if k not in ("output", "resume", "overwrite", "progress")}
    if run.get("backend") == "dask":
        raise InvalidParameterError(f"{spec.config}: run the validation study with a local backend (loky, threading)")
    run.pop("scheduler", None)
    if options.jobs is not None:
        run["n_jobs"] = options.jobs
    if options.restarts is not None:
        run["n_restarts"] = options.restarts
    return run


def _resolved(options: StudyOptions, specs: Sequence[CorpusSpec]) -> StudyOptions:
    check_int(options.limit, "limit", low=1, none=True)
    check_int(options.restarts, "restarts", low=1, none=True)
    check_int(options.jobs, "jobs", none=True)
    if check_int(options.bootstrap, "bootstrap") < MIN_BOOTSTRAP:
        raise InvalidParameterError.make(
            "bootstrap", f"at least {MIN_BOOTSTRAP} (a 95% percentile interval leaves out 2.5% of the resamples at "
            f"each end: one resample each takes {MIN_BOOTSTRAP})", options.bootstrap)
    name = options.name
    if not isinstance(name, str) or not name or name.startswith(".") or Path(name).name != name or "\\" in name:
        raise InvalidParameterError.make("name", "a file name without folders (e.g. 'validation-dialogue')", name)
    out = options.out
    if out is None:
        base = specs[0].experiment.output.get("dir", DEFAULT_OUT)
        # a smaller study gets its own folder: the whole one would refuse to resume from it
        out = base + ("-quick" if options.quick else "") + (f"-limit{options.limit}" if options.limit else "") + (
            f"-restarts{options.restarts}" if options.restarts else "")
    check_folder(out, "out", parameter="out")  # a file where a folder goes is said now, not after the study
    if options.docs is not None:
        check_folder(options.docs, "docs", parameter="docs")
    return replace(options, out=Path(out).as_posix(), docs=Path(options.docs or out).as_posix())


@dataclass(frozen=True)
class StudyPlan:
    """What a study runs, from one reading of its experiment files (:func:`plan_study`).

    Attributes
    ----------
    options : StudyOptions
        The options checked, with the results and report folders filled in.
    corpora : tuple of CorpusSpec
        The corpora of the files that ``options.corpora`` selects, in file order.
    folders : bool
        Whether each corpus has a folder of its own (cache and plots): the files define several,
        whether or not ``options.corpora`` selects some.
    """

    options: StudyOptions
    corpora: tuple[CorpusSpec, ...]
    folders: bool


def plan_study(options: StudyOptions) -> StudyPlan:
    """Read the experiment files of ``options`` once and check everything the study depends on
    before it runs: the corpora, the options, the folders (:func:`run_study` runs the plan, so a
    file edited meanwhile cannot give a study mixing two versions of it)."""
    defined = load_corpora(options.configs)
    specs = _select(defined, options.corpora)
    return StudyPlan(_resolved(options, specs), tuple(specs), len(defined) > 1)


def resolve_options(options: StudyOptions) -> StudyOptions:
    """``options`` checked, with the results and report folders filled in as :func:`run_study`
    fills them (the options of :func:`plan_study`)."""
    return plan_study(options).options


def _run_corpus(corpus: _Prepared, cache: Path, options: StudyOptions, status: Status) -> Study:
    from ..runner import evaluate
    from ..store import ResumeRefusedError

    spec = corpus.spec
    run = _run_settings(spec, options)
    cache.mkdir(parents=True, exist_ok=True)
    experiment = spec.experiment
    status.stop()  # the restarts bar takes the terminal
    try:
        result = evaluate(corpus.segmenters, corpus.documents, output=cache / "results.jsonl", resume=True,
                          metrics=experiment.metric_options(), progress=options.progress, **run)
    except ResumeRefusedError as refused:  # the study has no overwrite: say how to start it afresh
        raise InvalidParameterError(
            f"the study's results cache {cache.as_posix()} of corpus {spec.name!r} cannot be reused: {refused.reason}; "
            f"{refused.keep}, or give the study another results folder (out=) or remove that one to run it afresh"
        ) from None
    metrics = experiment.metrics.get("names")
    study = analyze(result, name=spec.name, specs=experiment.segmenters, metric_names=metrics,
                    n_bootstrap=options.bootstrap, seed=int(run.get("seed", 0)), n_orders=options.n_orders,
                    n_splits=options.n_splits,
                    on_phase=lambda phase, detail: status(phase, f"{spec.name}, {detail}"))
    study.settings.update({"config": spec.config, "cache": cache.as_posix(), "n_documents": len(corpus.documents),
                           "n_available": corpus.available, "n_unjudged": corpus.unjudged})
    return study


def run_study(options: StudyOptions | StudyPlan, on_phase: PhaseCallback | None = None) -> StudyRun:
    """Run (or resume) the validation study of ``options.configs`` and analyse it.

    ``options`` may be a :class:`StudyPlan` (:func:`plan_study`): the study then runs the corpora
    it read, without reading the experiment files again.

    Every corpus is read and its segmenters built before any is run. The results of a corpus are cached in
    ``<out>/results.jsonl`` when the config files define one corpus, ``<out>/<name>/results.jsonl`` when
    they define several (also when ``options.corpora`` selects one of them); a rerun resumes from them (only missing (configuration, document) pairs are
    computed), so with the same seed it reproduces the report exactly.

    While it reads and analyses (minutes on a large corpus, with nothing else to show), a spinner
    names the phase and the corpus on stderr when ``options.progress`` says so (default: on a
    terminal), and ``on_phase(phase, detail)`` is called as each phase starts ("reading the
    corpus", then :data:`~stability.study.analysis.ANALYSIS_PHASES` for each corpus).
    """
    plan = options if isinstance(options, StudyPlan) else plan_study(options)
    resolved, folders = plan.options, plan.folders  # folders: --corpus NAME reuses <out>/NAME
    status = Status(resolved.progress, on_phase)
    try:
        prepared = [_prepare(spec, resolved, status) for spec in plan.corpora]
        _check_distinct(prepared)
        assert resolved.out is not None  # _resolved always fills it in
        root = Path(resolved.out)
        studies = [_run_corpus(p, root / p.spec.name if folders else root, resolved, status) for p in prepared]
    finally:
        status.stop()
    return StudyRun(studies, decide(studies), resolved, list(plan.corpora), folders)
