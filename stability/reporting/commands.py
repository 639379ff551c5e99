"""Reports of the commands that do not run the stability test: ``stability score`` (reference
metrics of existing segmentations, a :class:`~stability.scoring.ScoreResult`) and
``stability segmenters`` (the available segmenters, from
:func:`~stability.registry.describe_segmenters`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..catalogue import measure
from ..exceptions import InvalidParameterError
from .model import Report, Section, number

__all__ = ["score_report", "segmenters_report"]


def _title_of(name: str) -> str:
    try:
        return measure(name).short
    except InvalidParameterError:
        return name


def score_report(result: Any, digits: int = 4) -> Report:
    """Per-document reference metrics, then their mean and standard deviation over documents."""
    keys = list(result.mean)
    rows = [[doc] + [number(values.get(k, math.nan), digits) for k in keys] for doc, values in result.documents.items()]
    rows.append(["mean"] + [number(result.mean[k], digits) for k in keys])
    rows.append(["std"] + [number(result.std[k], digits) for k in keys])
    raw = [[doc] + [values.get(k, math.nan) for k in keys] for doc, values in result.documents.items()]
    raw += [["mean"] + [result.mean[k] for k in keys], ["std"] + [result.std[k] for k in keys]]
    data = (["document"] + keys, [[row[0]] + ["" if math.isnan(v) else repr(float(v)) for v in row[1:]] for row in raw])
    section = Section(f"Reference metrics: {len(result.documents)} document{'' if len(result.documents) == 1 else 's'}",
                      ["document"] + [_title_of(k) for k in keys], rows, data=data)
    return Report("Reference metrics", [section], payload=result.to_dict())


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"<{type(value).__name__} of {len(value)}>" if hasattr(value, "__len__") else text[:limit]


def _origin(status: Any) -> str:
    info = status.info
    if not info.distribution or info.origin == "built-in":
        return info.origin
    return f"{info.origin} ({info.distribution} {info.version})"


def segmenters_report(statuses: Mapping[str, Any]) -> Report:
    """One row per available segmenter: origin, default parameters, fast path, load status."""
    header = ["name", "origin", "parameters (defaults)", "fast path", "status"]
    rows, payload = [], []
    for name, status in statuses.items():
        params = ", ".join(f"{k}={_short(v)}" for k, v in (status.params or {}).items())
        state = "ok" if status.ok else f"failed to load: {status.error}"
        rows.append([name, _origin(status), params, "yes" if status.fast_path else "no", state])
        payload.append({"name": name, "origin": status.info.origin, "target": status.info.target,
                        "distribution": status.info.distribution, "version": status.info.version,
                        "parameters": {k: _short(v) for k, v in (status.params or {}).items()},
                        "fast_path": status.fast_path, "deterministic": status.deterministic,
                        "description": status.description, "error": status.error})
    section = Section("Segmenters (use with --segmenter NAME, or module:attribute)", header, rows, align="Lllll")
    return Report("Segmenters", [section], payload={"segmenters": payload})
