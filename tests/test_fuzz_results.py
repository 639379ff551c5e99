"""Fuzz: a mutated results.jsonl either loads and renders in every format, or is refused with
one of the project's errors (the CLI prints it as one line naming the file and line); never
another exception. A few hundred examples by default; more with ``--hypothesis-profile=fuzz``
style settings (``STABILITY_FUZZ_EXAMPLES``)."""

from __future__ import annotations

import functools
import json
import os
import tempfile
import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from stability import StabilityError, evaluate
from stability.cli import app
from stability.reporting import formats_available, render
from stability.store import load_results

EXAMPLES = int(os.environ.get("STABILITY_FUZZ_EXAMPLES", "300"))


@functools.lru_cache(maxsize=1)
def base_lines() -> tuple[str, ...]:
    """A small run with results, one failure and references (so every report section exists)."""
    def fails(units):
        raise ValueError("no")

    docs = [{"id": f"d{i}", "units": [f"u{j}" for j in range(9 + i)], "references": [[3, 6]]} for i in range(3)]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "results.jsonl"
        evaluate({"even": "even", "none": "none", "bad": fails}, docs, n_restarts=3, n_bootstrap=40,
                 output=out, progress=False)
        return tuple(out.read_text(encoding="utf-8").splitlines(keepends=True))


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.sampled_from([2**63, -2**64, 10**30]),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                      max_leaves=8)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, prefix + (key,))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _paths(child, prefix + (index,))


def _replace(node, path, value):
    if not path:
        return value
    node[path[0]] = _replace(node[path[0]], path[1:], value)
    return node


@st.composite
def mutated(draw) -> str:
    lines = list(base_lines())
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["value", "value", "value", "cut", "byte", "drop", "copy", "blank"]))
        line = lines[index]
        if not line:
            kind = "drop"
        try:
            record = json.loads(line)
        except ValueError:  # a line mutated before: cut it instead
            kind, record = ("cut" if line else "drop"), None
        if kind == "value":
            path = draw(st.sampled_from(list(_paths(record))))
            lines[index] = json.dumps(_replace(record, path, draw(values))) + "\n"
        elif kind == "cut":
            lines[index] = line[: draw(st.integers(0, len(line) - 1))]
        elif kind == "byte":
            at = draw(st.integers(0, len(line) - 1))
            lines[index] = line[:at] + draw(st.characters()) + line[at + 1:]
        elif kind == "drop":
            del lines[index]
        elif kind == "copy":
            lines.insert(index, line)
        else:
            lines[index] = "\n"
        if not lines:
            break
    return "".join(lines)


def _load_and_render(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = load_results(path)
    for fmt in formats_available():
        assert isinstance(render(result, fmt), str)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated())
def test_mutated_results_files_load_and_render_or_fail_cleanly(text):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            _load_and_render(path)
        except StabilityError:
            pass


def test_the_cli_reports_a_damaged_file_in_one_line_naming_file_and_line(tmp_path):
    lines = list(base_lines())
    record = json.loads(lines[2])
    record["result"]["restart_precision"] = "oops"
    lines[2] = json.dumps(record) + "\n"
    path = tmp_path / "results.jsonl"
    path.write_text("".join(lines))
    result = CliRunner().invoke(app, ["report", str(path)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"error: {path}:3: ")
    assert "Traceback" not in result.output


def test_the_base_file_loads():
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.jsonl"
        path.write_text("".join(base_lines()))
        result = load_results(path)
        assert len(result.failures) == 3 and len(result.documents["even"]) == 3
        _load_and_render(path)


def test_a_header_with_metrics_true_loads_as_the_default_options(tmp_path):
    # found by the fuzz test above: "metrics": true is a valid setting (the default options), and a
    # report read it as a mapping
    lines = list(base_lines())
    header = json.loads(lines[0])
    header["settings"]["metrics"] = True
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    result = load_results(path)
    assert result.settings["metrics"] == {}
    for fmt in formats_available():
        assert isinstance(render(result, fmt), str)
