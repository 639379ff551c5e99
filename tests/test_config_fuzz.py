"""Fuzz of what a user types: experiment files and the options of ``run``, ``score``, ``report``
and ``validate``.

Whatever the values, a command either works or exits with code 1 or 2 and one clear line (``error:
...`` of ours, or the parser's ``Invalid value``), never a traceback or the name of a Python
exception, and a value of the wrong type is never run as if it were right (a float where an integer
goes, a boolean where a number goes, a string of digits taken as a number).

The first part holds one deterministic test per defect the fuzzing found (each failed before its
fix); the second the hypothesis tests that look for more: experiment files drawn from the keys
``stability config`` declares (:func:`stability.configkeys.reference`), ``--segmenter`` values for
every registered segmenter with its parameters (:func:`stability.registry.factory_params`), and odd
option values. The default run draws a few examples of each; ``pytest -m slow_fuzz`` runs the
``slow_fuzz`` variants with many more (``STABILITY_FUZZ_EXAMPLES`` sets how many).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import topical_document
from stability import Document
from stability.cli import app
from stability.readers import write_jsonl

#: Examples per test in the default run (a study, ``validate``, takes about a second each: fewer).
DEFAULT_EXAMPLES, DEFAULT_STUDIES = 10, 3
SLOW_EXAMPLES = int(os.environ.get("STABILITY_FUZZ_EXAMPLES", "300"))

#: What must never reach a user: a traceback, or the name of an exception the code did not mean to
#: raise (our own errors say what was wrong in words, never their class).
LEAK = re.compile(r"Traceback|\b(?:[A-Z][A-Za-z]*Error|[A-Z][A-Za-z]*Exception|KeyError|RecursionError|"
                  r"StopIteration|AssertionError)\b|object is not (?:iterable|callable|subscriptable)|"
                  r"unhashable type|not supported between instances|unsupported operand|positional argument|"
                  r"unexpected keyword argument|invalid literal for|object has no attribute|index out of range|"
                  r"division by zero|math domain error|cannot convert float|out of range for")


# ---------------------------------------------------------------------------------------------
# the corpus, the runner, the contract
# ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Three short documents with references (9 to 12 units each)."""
    docs = []
    for i in range(3):
        units, reference = topical_document(300 + i, n_topics=3, lengths=(3, 4))
        docs.append(Document(f"d{i}", tuple(units), references=(tuple(reference),)))
    path = tmp_path_factory.mktemp("fuzzcorpus") / "corpus.jsonl"
    write_jsonl(docs, path)
    return path


@pytest.fixture(scope="module")
def saved_run(corpus, tmp_path_factory) -> Path:
    """The output folder of a finished run of two segmenters over :func:`corpus`."""
    out = tmp_path_factory.mktemp("fuzzrun") / "out"
    result = invoke(["run", "--corpus", str(corpus), "-s", "even", "-s", "c99", "-r", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


RUNNER = CliRunner(env={"COLUMNS": "120", "_TYPER_FORCE_DISABLE_TERMINAL": "1", "NO_COLOR": "1"})


def invoke(args: list[str]) -> Any:
    return RUNNER.invoke(app, args, catch_exceptions=True)


def refused(path: Path) -> str:
    """The stderr of ``stability run PATH``, which must stop with exit 1 (a bad config)."""
    result = invoke(["run", str(path)])
    assert result.exit_code == 1, result.output
    return result.stderr


@contextlib.contextmanager
def elsewhere() -> Iterator[Path]:
    """A fresh empty working directory (relative output folders land there)."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            yield Path(folder)
        finally:
            os.chdir(before)


def check_outcome(result: Any, *, names: tuple[str, ...] = (), must_fail: bool = False,
                  failures: bool = False) -> None:
    """The contract: exit 0 (or 3 when ``failures`` are expected), or 1 with one ``error:`` line
    naming one of ``names`` (a key or an option), or 2 with the parser's message; never a
    traceback or an exception's name. ``must_fail``: the input holds a value of the wrong type,
    which must not run."""
    stderr = result.stderr
    exception = result.exception
    assert exception is None or isinstance(exception, SystemExit), (
        f"uncaught {type(exception).__name__}: {exception}\n{stderr}")
    assert not LEAK.search(stderr), f"an exception leaks to the user:\n{stderr}"
    code = result.exit_code
    if code == 0:
        assert not must_fail, f"a value of the wrong type was accepted:\n{stderr}"
        return
    if code == 3:
        assert failures, f"a segmenter failed on documents (a parameter not checked when it was built?):\n{stderr}"
        return
    assert code in (1, 2), f"exit code {code}:\n{stderr}"
    if code == 2:
        assert re.search(r"Invalid value|No such option|Missing|requires an argument|Error", stderr), stderr
        return
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("warning:")]
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1, f"not one error line:\n{stderr}"
    if names:
        line = errors[0].lower()
        assert any(name.lower() in line for name in names), f"the error names none of {names}:\n{stderr}"


# ---------------------------------------------------------------------------------------------
# regressions: one test per defect found
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, said", [
    ("-1", "[corpus.demo] seed must be an integer >= 0; received -1"),  # numpy's ValueError, a traceback
    ("1.5", "[corpus.demo] seed must be an integer; received float 1.5"),  # numpy's TypeError
    ('"7"', "[corpus.demo] seed must be an integer; received str '7'"),
    ("true", "[corpus.demo] seed must be an integer; received bool True"),  # ran as seed 1
])
def test_demo_seed_is_checked_as_the_files_key(tmp_path, value, said):
    # with [run] seed beside it: the message names the demo table's key, not the run's
    path = tmp_path / "demo.toml"
    path.write_text(f"[corpus]\ndemo = {{ n_documents = 2, seed = {value} }}\n[segmenters.even]\n[run]\nn_restarts = 2\n"
                    "seed = 3\n")
    assert refused(path) == f"error: {path}: {said}\n"


@pytest.mark.parametrize("key, value, expected", [
    ("n_documents", 10**400, "an integer >= 1 and <= 10000"),  # built every document in memory: a hang
    ("n_documents", 10_001, "an integer >= 1 and <= 10000"),
    ("min_length", 10**24, "an integer >= 1 and <= 11"),  # was said as max_length's fault
    ("n_segments", 0, "an integer >= 1 and <= "),
])
def test_demo_sizes_are_bounded_when_the_file_is_read(tmp_path, key, value, expected):
    from stability import InvalidParameterError
    from stability.config import load_config

    path = tmp_path / "demo.toml"
    path.write_text(f"[corpus]\ndemo = {{ {key} = {value} }}\n[segmenters.even]\n")
    with pytest.raises(InvalidParameterError, match=re.escape(f"{path}: [corpus.demo] {key} must be {expected}")):
        load_config(path)


@pytest.mark.parametrize("tolerance", [2**63 - 1, 2**62 + 5, 10**30])
def test_a_tolerance_beyond_int64_gives_the_chance_of_the_widest_one(tolerance):
    # 2**63 - 1 overflowed gaps + tolerance in int64 and found no expected match (0.0 instead of
    # 1.0: a wrong chance F1, so a wrong headline, in silence); 10**30 was an OverflowError
    from stability.matching import expected_matches

    widest = expected_matches([3, 7], 10, 10, [1, 2, 5]).tolist()
    assert widest == [1.0, 2.0, 2.0]  # any gap is within 10 of both references
    assert expected_matches([3, 7], 10, tolerance, [1, 2, 5]).tolist() == widest


def test_run_with_a_huge_tolerance(corpus):
    widest = invoke(["run", "--corpus", str(corpus), "-s", "c99", "-r", "2", "--tolerance", "1000",
                     "--report-format", "json"])
    huge = invoke(["run", "--corpus", str(corpus), "-s", "c99", "-r", "2", "--tolerance", str(10**30),
                   "--report-format", "json"])
    assert widest.exit_code == 0 and huge.exit_code == 0, huge.output  # was an OverflowError traceback
    assert json.loads(huge.stdout)["summary"] == json.loads(widest.stdout)["summary"]


def test_a_block_beyond_sys_maxsize_documents_reads_the_whole_corpus(corpus, tmp_path):
    # [run] block_size = 10**400 was islice's ValueError (a traceback)
    path = tmp_path / "blocks.toml"
    results = []
    for size in (10**400, 64):
        path.write_text(f"[corpus]\npath = {toml_string(str(corpus))}\n[segmenters.even]\n[run]\nn_restarts = 2\n"
                        f"block_size = {size}\n")
        results.append(invoke(["run", str(path), "--report-format", "json"]))
    assert [r.exit_code for r in results] == [0, 0], results[0].output
    assert json.loads(results[0].stdout)["summary"] == json.loads(results[1].stdout)["summary"]


@pytest.mark.parametrize("value", ["1e10", "1e300"])
def test_a_timeout_beyond_what_a_timer_holds_is_refused(corpus, value):
    # every call failed with "OverflowError: timestamp out of range for platform time_t" (exit 3)
    result = invoke(["run", "--corpus", str(corpus), "-s", "even", "-r", "2", "--timeout", value])
    assert result.exit_code == 1, result.output
    assert result.stderr == f"error: --timeout must be a number > 0 and <= 1000000000; received {float(value)!r}\n"


def test_the_longest_timeout_runs(corpus):
    assert invoke(["run", "--corpus", str(corpus), "-s", "even", "-r", "2", "--timeout", "1e9"]).exit_code == 0


@pytest.mark.parametrize("value, expected", [
    ("²", "an integer >= 1 or one of 'lamprier', 'nltk', 'segeval'; received '²'"),  # str.isdigit, then int(): ValueError
    ("--5", "an integer >= 1 or one of 'lamprier', 'nltk', 'segeval'; received '--5'"),  # lstrip("-") took both signs
    pytest.param("1" * 5000, "an integer of at most 4300 digits; received '1111",  # int()'s digit limit: ValueError
                 marks=pytest.mark.skipif(not hasattr(sys, "get_int_max_str_digits"), reason="no digit limit")),
])
def test_score_window_typed_otherwise_than_a_number_or_policy(corpus, value, expected):
    result = invoke(["score", "-R", str(corpus), "-H", str(corpus), "--window", value])
    assert result.exit_code == 1 and result.exception is not None and isinstance(result.exception, SystemExit)
    assert result.stderr.startswith(f"error: --window must be {expected}"), result.stderr


@pytest.mark.parametrize("seed", ["{a = 1}", '"x"', "-1", "2.5"])
def test_random_segmenter_seed_is_checked_when_built(corpus, seed):
    # numpy refused it at the first call: exit 3, "TypeError: SeedSequence expects int ..." per document
    result = invoke(["run", "--corpus", str(corpus), "-r", "2", "-s", f"random,seed={seed}"])
    assert result.exit_code == 1, result.output
    assert re.search(r"seed must be (None or )?an integer", result.stderr) and "Error" not in result.stderr


@pytest.mark.parametrize("name", ["c99", "u00", "texttiling", "texttiling_nltk"])
@pytest.mark.parametrize("value, received", [("29", "int 29"), ("{a = 1}", "dict {'a': 1}")])
def test_stopwords_neither_words_nor_a_name(corpus, name, value, received):
    # 29 was "'int' object is not iterable"; a table was read as the list of its keys, in silence
    result = invoke(["run", "--corpus", str(corpus), "-r", "2", "-s", f"{name},stopwords={value}"])
    assert result.exit_code == 1, result.output
    assert result.stderr.endswith("stopwords must be a list of words, 'nltk:<language>' (nltk's list for that "
                                  f"language) or None; received {received}\n"), result.stderr


@pytest.mark.parametrize("name", ["c99", "u00", "texttiling", "texttiling_nltk"])
def test_stopwords_given_as_an_iterator_are_read_once(name):
    # the recorded list read the iterator, and the segmenter's own stopword set was then empty
    from stability.registry import get_segmenter

    segmenter = get_segmenter(name, stopwords=iter(["zqax", "zqbx"]))
    assert segmenter.get_params()["stopwords"] == ["zqax", "zqbx"]
    assert segmenter.unit_terms(["zqax zqcx zqbx zqdx"]) == [segmenter.unit_terms(["zqcx zqdx"])[0]]


@pytest.mark.parametrize("line, said", [
    # a table as a [corpus] key's value was taken for a [corpus.NAME] of a study: the key was said as
    # a flag nobody typed (--where, --corpus-format), and the where table's key as "[corpus.where] id = "
    ('where = {id = "zz"}', "[corpus] where 'id=zz' kept none of the 3 document(s) read from "),
    ("format = {}", "[corpus] format must be one of choi, wiki, jsonl, csv, chen, subtitles, markdown, rst, html, text; "
                    "received {}"),
    ("encoding = {}", "[corpus] encoding must be a codec name such as "),
])
def test_a_table_given_to_a_corpus_key_is_said_as_that_key(corpus, tmp_path, line, said):
    path = tmp_path / "corpus.toml"
    path.write_text(f"[corpus]\npath = {toml_string(str(corpus))}\n{line}\n[segmenters.even]\n[run]\nn_restarts = 2\n")
    stderr = refused(path)
    assert stderr.startswith(f"error: {path}: {said}"), stderr


def test_a_segmenter_label_is_quoted_as_typed(corpus):
    # "seed=" in the label was taken for a hint naming the run's seed: --segmenter 'random,--seed -1'
    result = invoke(["run", "--corpus", str(corpus), "-r", "2", "-s", "random,seed=-1"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("error: --segmenter 'random,seed=-1': seed must be "), result.stderr


def test_words_leave_quoted_values_alone():
    from stability.userwords import Words

    words = Words({"seed": "--seed", "format": "--corpus-format"})
    assert words.say("where 'seed=3' kept none; pass format= to choose") == \
        "where 'seed=3' kept none; pass --corpus-format to choose"
    assert words.say("nltk's seed= list") == "nltk's --seed list"  # an apostrophe opens no quote


def test_validate_says_its_bootstrap_as_the_flag(corpus, tmp_path):
    # "error: bootstrap must be at least 40 ...": the library's keyword, not the option typed
    result = invoke(["validate", str(_study_config(corpus, tmp_path)), "--out", str(tmp_path / "out"),
                     "--bootstrap", "0"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("error: --bootstrap must be at least 40"), result.stderr


@pytest.mark.parametrize("name, key", [
    ("texttiling", "w"), ("texttiling", "k"), ("texttiling_nltk", "w"), ("texttiling_nltk", "k"),
    ("fixed_chars", "chunk_size"), ("semchunk", "chunk_size"), ("chonkie_recursive", "chunk_size"),
    ("chonkie_sentence", "chunk_size"), ("semantic_text_splitter", "chunk_size"),
    ("langchain_recursive", "chunk_size"), ("llamaindex_sentence", "chunk_size"),
])
def test_sizes_beyond_a_machine_integer_are_refused_when_built(name, key):
    # accepted, then every call failed: "OverflowError: Python int too large to convert to C long"
    # (texttiling w=2**63), "int too big to convert" (chonkie), "failed to extract enum
    # PyChunkCapacity" (semantic-text-splitter), at exit 3
    from stability import InvalidParameterError, MissingDependencyError
    from stability.registry import get_segmenter

    try:
        get_segmenter(name)
    except MissingDependencyError:
        pytest.skip(f"{name}'s extra is not installed")
    assert get_segmenter(name, **{key: 2**31 - 1}).get_params()[key] == 2**31 - 1
    with pytest.raises(InvalidParameterError, match=re.escape(f"{key} must be an integer >= 1 and <= 2147483647")):
        get_segmenter(name, **{key: 2**63})


def test_cluster_proximity_near_the_largest_float(corpus):
    # 3 * 1e308 is inf, whose ceiling is no integer: "OverflowError: cannot convert float infinity to
    # integer" at every call (exit 3); a proximity beyond the document weighs every pair alike
    huge = invoke(["run", "--corpus", str(corpus), "-r", "2", "-s", "cluster,proximity=1e308", "--report-format", "json"])
    wide = invoke(["run", "--corpus", str(corpus), "-r", "2", "-s", "cluster,proximity=1e300", "--report-format", "json"])
    assert huge.exit_code == 0 and wide.exit_code == 0, huge.stderr
    assert [d["boundaries"] for d in json.loads(huge.stdout)["documents"]["cluster,proximity=1e308"]] == \
        [d["boundaries"] for d in json.loads(wide.stdout)["documents"]["cluster,proximity=1e300"]]


@pytest.mark.parametrize("key, table, expected", [
    ("pattern", '{"*.jsonl" = 1}', "a glob string or a sequence of glob strings; received dict {'*.jsonl': 1}"),
    ("label_columns", "{label = 1}", "a column name or a sequence of column names; received dict {'label': 1}"),
])
def test_a_table_where_a_list_goes_is_refused(tmp_path, key, table, expected):
    # the table's keys were read as the list: pattern = {"*.jsonl" = 1} read the folder's .jsonl files
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.jsonl").write_text('{"id": "a", "units": ["x y", "z w", "u v"], "label": [0, 0, 1]}\n')
    (folder / "b.csv").write_text("text,label\nx y,0\nz w,0\nu v,1\n")
    path = tmp_path / "lists.toml"
    where = folder if key == "pattern" else folder / "b.csv"
    path.write_text(f"[corpus]\npath = {toml_string(str(where))}\n{key} = {table}\n[segmenters.even]\n"
                    "[run]\nn_restarts = 2\n")
    assert refused(path) == f"error: {path}: [corpus] {key} must be {expected}\n"


@pytest.mark.parametrize("line, said", [
    # os.stat's and codecs.lookup's "ValueError: embedded null byte/character", a traceback
    ('[output]\ndir = "a\\u0000b"', "[output] dir must be a folder path without a NUL character; received 'a\\x00b'"),
    ('[corpus]\nencoding = "utf\\u00008"', "[corpus] encoding must be a codec name known to Python"),
    ('[corpus]\nencoding_errors = "str\\u0000ict"', "[corpus] encoding_errors must be an error handler name"),
])
def test_a_nul_character_in_a_name(corpus, tmp_path, line, said):
    table, key = line.split("\n")
    corpus_line = f"path = {toml_string(str(corpus))}"
    text = (f"[corpus]\n{corpus_line}\n{key}\n" if table == "[corpus]" else f"[corpus]\n{corpus_line}\n{line}\n")
    path = tmp_path / "nul.toml"
    path.write_text(text + "[segmenters.even]\n[run]\nn_restarts = 2\n")
    with elsewhere():
        result = invoke(["run", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert result.stderr.startswith(f"error: {path}: {said}"), result.stderr


# ---------------------------------------------------------------------------------------------
# TOML, written by hand (tomli_w is not a dependency)
# ---------------------------------------------------------------------------------------------
def toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_string(key)


def toml_string(text: str) -> str:
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out) + '"'


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


def toml_document(data: dict[str, Any]) -> str:
    """``data`` as TOML: top-level scalars first, then one ``[table]`` per table (sub-tables
    inline, or as ``[table.sub]`` for the segmenters)."""
    lines = [f"{toml_key(k)} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for name, table in data.items():
        if not isinstance(table, dict):
            continue
        if name == "segmenters" and table and all(isinstance(v, dict) for v in table.values()):
            for label, spec in table.items():
                lines.append(f"[segmenters.{toml_key(label)}]")
                lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in spec.items()]
            continue
        lines.append(f"[{toml_key(name)}]")
        lines += [f"{toml_key(k)} = {toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def test_toml_emitter_round_trips():
    from stability.config import tomllib  # tomli before Python 3.11

    data = {"allow_plugins": False, "corpus": {"path": 'a"b\\c\n\x7f', "demo": {"n": 1}},
            "segmenters": {"c99,x": {"k": [1, 2.5, "é"]}}, "run": {"x": float("inf"), "y": -0.0, "z": 10**40}}
    assert tomllib.loads(toml_document(data)) == data


# ---------------------------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------------------------
HUGE = st.sampled_from([10**400, -(10**400), 2**63, 2**64, -(2**63) - 1, 2**53 + 1])
TEXT = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["", " ", "3", "0", "-1", "2.5", "true", "none", "None", "reference", "é", "日本", "\U0001F600",
                     "x" * 10_000, "\t\n", "NaN", "1e400", "../..", "a,b", "{w=[1]}"]),
)
SCALARS = st.one_of(
    st.booleans(), st.integers(-3, 12), HUGE,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 2.0, 0.5, 1e-300, 1e308, float("nan"), float("inf"), -float("inf")]),
    TEXT,
)
ODD = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=2)),
    max_leaves=4,
)


def conforms(kind: str, value: Any) -> bool:
    """Whether ``value`` has a type that ``kind`` (a config key's declared type) allows; values of
    a wrong type must be refused."""
    is_int = isinstance(value, int) and not isinstance(value, bool)
    is_real = is_int or (isinstance(value, float) and math.isfinite(value))
    strings = isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return is_int
    if kind == "float":
        return is_real
    if kind in ("str", "str or callable"):
        return isinstance(value, str)
    if kind.startswith("{"):
        return isinstance(value, str)
    if kind.startswith("int or {"):
        return is_int or isinstance(value, str)
    if kind in ("str or list of str", "str or sequence of str"):
        return isinstance(value, str) or strings
    if kind == "list of str":
        return strings
    if kind == "bool or None":
        return isinstance(value, bool)
    if kind == "mapping or str":
        return isinstance(value, (dict, str))
    if kind == "true or table":
        return value is True or isinstance(value, dict)
    if kind == "table of lists":
        return isinstance(value, dict)
    return True  # "see meaning": no declared type to hold it to


def choices(kind: str) -> list[str]:
    """The names a ``{"a", "b"}`` type lists."""
    return re.findall(r'"([^"]*)"', kind) if "{" in kind else []


def safe_path(value: Any) -> bool:
    """A value a fuzzed path or folder may take: anything but a string reaching outside the
    example's own folder (a run must not write, or read a whole disk, elsewhere)."""
    if not isinstance(value, str):
        return True
    return not (value.startswith(("/", "~", "\\")) or ".." in value or ":" in value)


def values_for(kind: str) -> st.SearchStrategy:
    """Values for a key of type ``kind``: odd ones of any type, and some of its own."""
    own: list[st.SearchStrategy] = [ODD]
    if choices(kind):
        names = choices(kind)
        own.append(st.sampled_from(names + [n.upper() for n in names] + [f" {n}" for n in names]))
    if "int" in kind:
        own.append(st.one_of(st.integers(-2, 6), HUGE))
    if kind == "float":
        own.append(st.floats(-0.5, 1.5))
    if "bool" in kind or "true" in kind:
        own.append(st.booleans())
    return st.one_of(*own)


#: Keys left out of the draw: a fuzzed value of these starts processes or clusters (n_jobs,
#: backend: loky, dask), reads or writes outside the example (checked by ``safe_path``), or is the
#: corpus itself.
UNSAFE_VALUES = {"n_jobs": lambda v: not (isinstance(v, int) and not isinstance(v, bool) and v not in (1, 0) and abs(v) < 10**6),
                 "backend": lambda v: v not in ("dask", "loky", "multiprocessing", "DASK"),
                 "path": safe_path, "dir": safe_path}


def mutated(key: str, how: int) -> str:
    """``key`` misspelled the way a hand can: another case, a space, a look-alike letter."""
    if how == 0:
        return key.upper() if key != key.upper() else key.lower() + "x"
    if how == 1:
        return key + " "
    if how == 2:
        return key.replace("e", "е", 1) if "e" in key else key + "_"  # a Cyrillic e
    return key[:1].upper() + key[1:] if key[:1].islower() else "_" + key


def declared_keys() -> list[Any]:
    from stability.cli import run_option_keys
    from stability.configkeys import reference

    return reference(run_option_keys())


@st.composite
def experiments(draw, corpus: Path) -> tuple[dict[str, Any], tuple[str, ...], bool]:
    """A runnable experiment with one to three declared keys given odd values (or misspelt).

    Returns the file's data, the words its error must name (the keys and tables touched) and
    whether it must fail (a value of the wrong type, or a misspelt key)."""
    data: dict[str, Any] = {"corpus": {"path": str(corpus)}, "segmenters": {"even": {}},
                            "run": {"n_restarts": 2, "n_bootstrap": 50}}
    rows = declared_keys()
    names: list[str] = []
    must_fail = False
    for row in draw(st.lists(st.sampled_from(rows), min_size=1, max_size=3, unique_by=lambda r: (r.table, r.key))):
        check = UNSAFE_VALUES.get(row.key, lambda v: True)
        value = draw(values_for(row.type).filter(check))
        key = row.key
        if draw(st.integers(0, 9)) == 0:
            key = mutated(key, draw(st.integers(0, 3)))
            must_fail = must_fail or key != row.key
        must_fail = must_fail or not conforms(row.type, value)
        table = row.table.strip("[]")
        names += [key, row.key, table.split(".")[-1] or key]
        if row.flag:
            names.append(row.flag)
        if table == "":
            data[key] = value
        elif table == "corpus.demo":
            data["corpus"] = {**{k: v for k, v in data["corpus"].items() if k != "path"},
                              "demo": {**data["corpus"].get("demo", {}), key: value}}
            data["run"]["n_restarts"] = 2
        elif table == "segmenters.NAME":
            data["segmenters"]["even"][key] = value
        elif table == "corpus" and key == "demo":
            data["corpus"] = {k: v for k, v in data["corpus"].items() if k != "path"}
            data["corpus"]["demo"] = value
        else:
            data.setdefault(table, {})[key] = value
    return data, tuple(names), must_fail


def run_file(data: dict[str, Any], folder: Path) -> Any:
    """``stability run`` on ``data`` written as an experiment file in ``folder``."""
    path = folder / "experiment.toml"
    path.write_text(toml_document(data), encoding="utf-8")
    return invoke(["run", str(path)])


def _fuzz_config(corpus: Path, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(drawn=experiments(corpus))
    def check(drawn):
        data, names, must_fail = drawn
        with elsewhere() as folder:
            result = run_file(data, folder)
        note = toml_document(data)
        try:  # a tiny timeout stops every call: a run of timeouts, exit 3
            check_outcome(result, names=names, must_fail=must_fail, failures="timeout" in data.get("run", {}))
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n--- the file:\n{note[:2000]}") from None

    check()


def test_config_fuzz(corpus):
    _fuzz_config(corpus, DEFAULT_EXAMPLES)


@pytest.mark.slow_fuzz
def test_config_fuzz_long(corpus):
    _fuzz_config(corpus, SLOW_EXAMPLES)


# ---------------------------------------------------------------------------------------------
# --segmenter NAME,key=value,... for every registered segmenter
# ---------------------------------------------------------------------------------------------
def segmenter_parameters() -> dict[str, dict[str, Any]]:
    """Every available segmenter -> its parameters' defaults."""
    from stability.registry import _find_factory, available_segmenters, factory_params

    found = {}
    for name in available_segmenters():
        try:
            found[name] = factory_params(_find_factory(name))
        except Exception:  # an extra that fails to load is the registry's business, not this fuzz's
            continue
    return found


def parameter_conforms(default: Any, key: str, value: Any) -> bool:
    """Whether ``value`` has a type the parameter (known by its default) takes; ``True`` when the
    default says nothing (``None``, an object)."""
    if key == "n_segments" and value == "reference":
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and math.isfinite(value))
    if isinstance(default, str):
        return isinstance(value, str)
    return True


def spelled(value: Any, bare: bool) -> tuple[str, Any]:
    """The text typed for ``value`` after ``key=``, and the value ``--segmenter`` reads back from it:
    TOML (a number, a quoted string, an array, a table) or, for a plain word when ``bare``, the word
    itself (``--segmenter`` keeps it as a string)."""
    if bare and isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", value) and value not in (
            "true", "false", "nan", "inf"):
        return value, value
    return toml_value(value), value


@st.composite
def segmenter_specs(draw, parameters: dict[str, dict[str, Any]]) -> tuple[str, tuple[str, ...], bool, bool]:
    """A ``--segmenter`` value with odd parameter values: the text, the words its error must name,
    whether it must fail (a value of the wrong type, an unknown key) and whether it is a grid."""
    name = draw(st.sampled_from(sorted(parameters)))
    defaults = parameters[name]
    keys = draw(st.lists(st.sampled_from(sorted(defaults)), max_size=3, unique=True)) if defaults else []
    parts, must_fail, names = [name], False, [name]
    for key in keys:
        value = draw(st.one_of(ODD, st.just(defaults[key]) if isinstance(defaults[key], (int, float, str)) else ODD,
                               st.integers(-2, 40)))
        text, value = spelled(value, draw(st.booleans()))
        parts.append(f"{key}={text}")
        names.append(key)
        must_fail = must_fail or not parameter_conforms(defaults[key], key, value)
    if draw(st.integers(0, 9)) == 0:  # a parameter the segmenter does not take
        key = draw(st.sampled_from(["windoww", "N_SEGMENTS", "chunk size", "seed ", "é"]))
        parts.append(f"{key}=3")
        names.append(key.strip())
        must_fail = must_fail or key not in defaults
    grid = False
    if defaults and draw(st.integers(0, 4)) == 0:
        key = draw(st.sampled_from(sorted(set(defaults) - set(keys)) or sorted(defaults)))
        values = draw(st.lists(st.one_of(ODD, st.integers(1, 30)), min_size=0, max_size=3))
        parts.append(f"grid={{{toml_key(key)} = {toml_value(values)}}}")
        names += [key, "grid"]
        grid = True
        must_fail = must_fail or not values or not all(parameter_conforms(defaults[key], key, v) for v in values)
    return ",".join(parts), tuple(names), must_fail, grid


def _fuzz_segmenters(corpus: Path, examples: int) -> None:
    parameters = segmenter_parameters()

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(drawn=segmenter_specs(parameters))
    def check(drawn):
        text, names, must_fail, _ = drawn
        with elsewhere():
            result = invoke(["run", "--corpus", str(corpus), "-s", text, "-r", "2", "--no-progress"])
        try:
            check_outcome(result, names=names + ("--segmenter",), must_fail=must_fail)
            if "--segmenter '" in result.stderr or '--segmenter "' in result.stderr:
                from stability.config import segmenter_option

                label = segmenter_option(text)[0]
                assert f"--segmenter {label!r}" in result.stderr, f"the label is not quoted as typed: {result.stderr}"
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n--- -s {text[:2000]}") from None

    check()


def test_segmenter_fuzz(corpus):
    _fuzz_segmenters(corpus, DEFAULT_EXAMPLES)


@pytest.mark.slow_fuzz
def test_segmenter_fuzz_long(corpus):
    _fuzz_segmenters(corpus, SLOW_EXAMPLES)


# ---------------------------------------------------------------------------------------------
# odd option values of run, score, report and validate
# ---------------------------------------------------------------------------------------------
#: What a user may type after an option: numbers of every size and spelling, words, nothing.
TYPED = st.one_of(
    st.sampled_from(["0", "1", "2", "-1", "-0", "+3", "1.5", "1e3", "1e400", "-1e400", "nan", "inf", "-inf", "",
                     " ", "3 ", "0x10", "1_000", "٣", "²", "true", "none", "all", "compact", "x" * 5000, "1" * 5000,
                     "9223372036854775808", "-9223372036854775809", "1e-300", "0.0", "5e-324", "é", "a,b", ",",
                     "pk,,wd", "PK", "b", "f1,f1", "headline", "f1", "lamprier", "nltk", "md", "html", "csv",
                     "json", "table", "threading", "sequential", "--", "-"]),
    st.integers(-(10**30), 10**30).map(str),
    st.floats().map(repr),
    st.text(max_size=6),
)

#: The options each command takes a value for (values that start worker processes are left out of
#: --jobs: a fuzz example must stay fast).
OPTIONS = {
    "run": ["--restarts", "--seed", "--tolerance", "--ci-width", "--ci-score", "--limit", "--timeout", "--width",
            "--columns", "--metrics", "--report-format", "--backend", "--levels", "--unit", "--code", "--markup",
            "--where", "--splitter", "--speakers", "--time-unit", "--blank-lines", "--encoding", "--pattern",
            "--corpus-format", "--jobs"],
    "score": ["--window", "--tolerance", "--width", "--columns", "--metrics", "--report-format"],
    "report": ["--width", "--columns", "--metrics", "--report-format"],
    "validate": ["--limit", "--restarts", "--bootstrap", "--jobs", "--name", "--corpus"],
}
FLAGS = {"run": ["--documents", "--layout-control", "--no-layout-control"], "report": ["--documents"],
         "score": [], "validate": ["--quick", "--comparison"]}


def _safe_option(option: str, value: str) -> bool:
    if "\0" in value:  # no shell passes a NUL character in an argument
        return False
    if option == "--jobs":  # 1, or anything refused: never worker processes
        try:
            jobs = int(value)
        except ValueError:
            return True
        return jobs in (0, 1)
    if option == "--backend":
        return value not in ("loky", "dask", "multiprocessing")
    if option == "--name":
        return safe_path(value)
    return True


@st.composite
def command_lines(draw, command: str) -> tuple[list[str], tuple[str, ...]]:
    """Options of ``command`` with odd values; the options drawn (the words an error names)."""
    options = draw(st.lists(st.sampled_from(OPTIONS[command]), min_size=1, max_size=3, unique=True))
    args: list[str] = []
    for option in options:
        value = draw(TYPED.filter(lambda v, o=option: _safe_option(o, v)))
        args += [option, value]
    args += draw(st.lists(st.sampled_from(FLAGS[command]), max_size=1)) if FLAGS[command] else []
    return args, tuple(options)


def _study_config(corpus: Path, folder: Path) -> Path:
    path = folder / "study.toml"
    path.write_text(f"[corpus]\npath = {toml_string(str(corpus))}\n[segmenters.c99]\n[segmenters.u00]\n"
                    "[segmenters.even]\nsegment_length = 3\n[run]\nn_restarts = 2\n", encoding="utf-8")
    return path


def option_example(command: str, corpus: Path, saved: Path | None, drawn: tuple[list[str], tuple[str, ...]]) -> None:
    """One command line of :func:`command_lines`, checked against the contract."""
    args, options = drawn
    with elsewhere() as folder:
        if command == "run":
            line = ["run", "--corpus", str(corpus), "-s", "even", "-s", "c99", "-r", "2", *args]
            if "--restarts" in options:
                line[line.index("-r"):line.index("-r") + 2] = []
        elif command == "score":
            line = ["score", "-R", str(corpus), "-H", str(corpus), *args]
        elif command == "report":
            line = ["report", str(saved), *args]
        else:
            line = ["validate", str(_study_config(corpus, folder)), "--out", "out", "--bootstrap", "40", *args]
            if "--bootstrap" in options:
                line[line.index("--bootstrap"):line.index("--bootstrap") + 2] = []
        result = invoke(line)
    try:
        check_outcome(result, names=options, failures="--timeout" in options or command == "validate")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n--- {' '.join(line)[:2000]}") from None


def _fuzz_options(command: str, corpus: Path, saved: Path | None, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(drawn=command_lines(command))
    def check(drawn):
        option_example(command, corpus, saved, drawn)

    check()


@pytest.mark.parametrize("command", ["run", "score", "report", "validate"])
def test_option_fuzz(command, corpus, saved_run):
    _fuzz_options(command, corpus, saved_run, DEFAULT_STUDIES if command == "validate" else DEFAULT_EXAMPLES)


@pytest.mark.slow_fuzz
@pytest.mark.parametrize("command", ["run", "score", "report", "validate"])
def test_option_fuzz_long(command, corpus, saved_run):
    _fuzz_options(command, corpus, saved_run, SLOW_EXAMPLES)
