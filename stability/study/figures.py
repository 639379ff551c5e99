"""The study's SVG plots, drawn with :mod:`stability.plots`: each candidate score against the
first reference metric per configuration and per document, and the running means (section 7).
Points are coloured by segmenter family (from the config, :func:`~stability.study.analysis.family`)."""

from __future__ import annotations

import math
from pathlib import Path

from ..plots import svg_lines, svg_scatter
from ..reporting import write_whole
from .analysis import Study, primary_metric, score_matrix

__all__ = ["write_plots"]


def _defined(points: list[tuple[float, float, str, str]]) -> bool:
    return any(not (math.isnan(x) or math.isnan(y)) for x, y, _, _ in points)


def _axis(study: Study) -> tuple[str, str]:
    """The reference metric on the x axis (WindowDiff when computed, as in the paper) and its label."""
    metric = primary_metric(study.metrics)
    m = study.metrics[metric]
    return metric, m.title + (" (lower is better)" if m.direction == "lower" else "")


def _configuration_plots(study: Study) -> dict[str, tuple[str, str]]:
    metric, x_label = _axis(study)
    out = {}
    for s, measure in study.scores.items():
        points = [(study.means["reference"][metric][label], study.means["stability"][s][label],
                   study.families[label] + (" (content-blind)" if study.content_blind.get(label) else ""), label)
                  for label in study.labels]
        title = f"Per configuration: {measure.title} vs {study.metrics[metric].title}"
        if _defined(points):
            out[f"configurations_{s}.svg"] = (title, svg_scatter(points, title=title, x_label=f"mean {x_label}",
                                                                 y_label=f"mean {measure.title}", labels=True))
    return out


def _document_plots(study: Study) -> dict[str, tuple[str, str]]:
    metric, x_label = _axis(study)
    out: dict[str, tuple[str, str]] = {}
    if not study.content_aware:
        return out
    _, xs = score_matrix(study.result, metric, reference=True, labels=study.content_aware)
    for s, measure in study.scores.items():
        _, ys = score_matrix(study.result, s, labels=study.content_aware)
        points = [(xs[i, j], ys[i, j], study.families[label], "") for j, label in enumerate(study.content_aware)
                  for i in range(xs.shape[0])]
        title = f"Per document: {measure.title} vs {study.metrics[metric].title}"
        if _defined(points):
            out[f"documents_{s}.svg"] = (title + " (content-aware configurations)",
                                         svg_scatter(points, title=title, x_label=x_label, y_label=measure.title,
                                                     radius=2.0, opacity=0.35))
    return out


def _running_plots(study: Study) -> dict[str, tuple[str, str]]:
    at = study.settings["settle_at"]
    marked = len(study.documents) >= at  # the dashed line only where the axis reaches it
    out = {}
    for key, series in study.running.items():
        name = key[4:] if key.startswith("ref:") else key
        title = (study.metrics[name] if key.startswith("ref:") else study.scores[name]).title
        rounded = {label: [round(float(v), 4) for v in values] for label, values in series.items()}
        svg = svg_lines(rounded, title=f"Running mean of {title} vs number of documents",
                        x_label="documents (corpus order)", y_label=f"running mean {title}",
                        marker=float(at) if marked else None)
        out[f"running_{name}.svg"] = (f"Running mean of {title} vs number of documents"
                                      + (f" (dashed line: {at} documents)" if marked else ""), svg)
    return out


def write_plots(study: Study, directory: Path, folder: Path) -> dict[str, str]:
    """Write the plots of one corpus into ``directory / folder``; returns ``{relative path: caption}``
    (paths relative to ``directory``, as the report links them)."""
    (directory / folder).mkdir(parents=True, exist_ok=True)
    captions = {}
    for name, (caption, svg) in {**_configuration_plots(study), **_document_plots(study),
                                 **_running_plots(study)}.items():
        write_whole(directory / folder / name, svg)
        captions[(folder / name).as_posix()] = caption
    return captions
