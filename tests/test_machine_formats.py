"""What the machine formats (CSV, JSON) give a program reading them: every row the tables show,
the same numbers, strict JSON, cells pandas reads as they are."""

from __future__ import annotations

import csv
import io

from typer.testing import CliRunner

from stability.cli import app
from stability.registry import describe_segmenters


def _csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_segmenters_csv_has_every_parameter_not_only_the_first_table():
    result = CliRunner().invoke(app, ["segmenters", "--report-format", "csv"])
    assert result.exit_code == 0, result.output
    rows = _csv(result.stdout)
    statuses = describe_segmenters()
    pairs = {(row["name"], row["parameter"]) for row in rows}
    for name, status in statuses.items():  # each default, whole (tables elide long ones)
        for key, value in (status.params or {}).items():
            assert (name, key) in pairs
            assert [row["default"] for row in rows if (row["name"], row["parameter"]) == (name, key)] == [repr(value)]
    assert {row["name"] for row in rows} == set(statuses)  # a segmenter without parameters too
    assert [row["parameter"] for row in rows if row["name"] == "none"] == [""]
