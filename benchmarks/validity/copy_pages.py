"""Copy the pages of a documentation project that a held-out check reads (issue 11).

Usage (from the repository root)::

    python benchmarks/validity/copy_pages.py SOURCE DEST [--format markdown] [--min-units 20] [--max-units 400]

Reads every ``*.html`` page (``--format html``, the default) or ``*.md`` page (``--format
markdown``) under ``SOURCE`` with the library's reader of that format as the check does (code
dropped, every heading level a boundary), leaves out an mdBook's whole-book and contents pages
(``print.html``, ``toc.html``, ``404.html``), and copies to ``DEST``, keeping the relative
paths, the pages with ``--min-units`` to ``--max-units`` units and at least one heading boundary:
a page without a boundary has no reference to rank against, and a few very long pages (a grammar
summary of thousands of lines) would take most of the run. Prints how many pages were kept and
their mean units and boundaries. Pages with no text besides headings and code are not read.
The selection looks at the pages' sizes and references only,
never at a segmenter.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# benchmarks/ holds a module named like the library's segmenters package: keep it off the path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

from stability.exceptions import CorpusFormatError  # noqa: E402
from stability.readers import CorpusWarning  # noqa: E402
from stability.readers.html import read_html  # noqa: E402
from stability.readers.markdown import read_markdown  # noqa: E402

#: Pages of an mdBook that repeat or list the others.
BOOK_PAGES = ("print.html", "toc.html", "404.html")


#: Each format: the pattern of its pages and the library's reader.
READERS = {"html": ("*.html", read_html), "markdown": ("*.md", read_markdown)}


def selected(source: Path, min_units: int, max_units: int, form: str = "html") -> list[tuple[Path, int, int]]:
    """``(page, units, boundaries)`` of every page the check reads, in path order."""
    pattern, read = READERS[form]
    kept = []
    for page in sorted(p for p in source.rglob(pattern) if p.name not in BOOK_PAGES):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", CorpusWarning)
                [document] = list(read(page, code="drop"))
        except CorpusFormatError:  # headings and code only: no unit to segment
            continue
        units = len(document.units)
        boundaries = len(document.references[0].boundaries) if document.references else 0
        if min_units <= units <= max_units and boundaries >= 1:
            kept.append((page, units, boundaries))
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--format", choices=sorted(READERS), default="html")
    parser.add_argument("--min-units", type=int, default=20)
    parser.add_argument("--max-units", type=int, default=400)
    args = parser.parse_args()
    kept = selected(args.source, args.min_units, args.max_units, args.format)
    for page, _, _ in kept:
        target = args.dest / page.relative_to(args.source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, target)
    n = len(kept)
    print(f"{n} pages copied to {args.dest}: {sum(u for _, u, _ in kept) / n:.1f} units and "
          f"{sum(b for _, _, b in kept) / n:.1f} boundaries a page")


if __name__ == "__main__":
    main()
