"""benchmarks/validity/copy_pages.py: which pages of a documentation book a held-out check reads."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "validity"))
from copy_pages import main, selected


def _page(path: Path, paragraphs: int, headings: int) -> None:
    """A page of ``paragraphs`` paragraphs under a title, with a heading before each of the last
    ``headings`` ones (each such heading is a reference boundary)."""
    body = ["<h1>Title</h1>"]
    for i in range(paragraphs):
        if i >= paragraphs - headings:
            body.append(f"<h2>Part {i}</h2>")
        body.append(f"<p>Paragraph {i} about something.</p>")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("<html><body><main>" + "".join(body) + "</main></body></html>", encoding="utf-8")


def test_pages_are_kept_by_their_units_and_boundaries(tmp_path, monkeypatch, capsys):
    book = tmp_path / "book"
    _page(book / "kept.html", 25, 2)
    _page(book / "nested" / "also.html", 40, 1)
    _page(book / "short.html", 19, 2)             # under 20 units
    _page(book / "long.html", 401, 3)             # over 400 units
    _page(book / "flat.html", 30, 0)              # no boundary: nothing to rank against
    _page(book / "print.html", 60, 5)             # the whole book again
    (book / "headings.html").write_text("<main><h1>A</h1><h2>B</h2></main>", encoding="utf-8")  # no unit
    kept = selected(book, 20, 400)
    assert [(p.relative_to(book).as_posix(), units, bounds) for p, units, bounds in kept] == [
        ("kept.html", 25, 2), ("nested/also.html", 40, 1)]

    monkeypatch.setattr(sys, "argv", ["copy_pages.py", str(book), str(tmp_path / "out")])
    main()
    copied = sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.html"))
    assert copied == ["kept.html", "nested/also.html"]
    assert capsys.readouterr().out.startswith("2 pages copied to ")
    assert (tmp_path / "out" / "kept.html").read_bytes() == (book / "kept.html").read_bytes()


def test_markdown_pages_are_read_with_the_markdown_reader(tmp_path, monkeypatch, capsys):
    docs = tmp_path / "api"
    docs.mkdir()
    sections = "".join(f"## Part {i}\n\nParagraph {i} about something.\n\n" for i in range(3))
    (docs / "kept.md").write_text("# Title\n\n" + "Intro paragraph.\n\n" * 20 + sections, encoding="utf-8")
    (docs / "code.md").write_text("# Title\n\n```js\nx()\n```\n\n## Part\n\n```js\ny()\n```\n", encoding="utf-8")  # code only
    (docs / "kept.html").write_text("<main><h1>T</h1>" + "<p>x</p>" * 30 + "<h2>B</h2><p>y</p></main>",
                                    encoding="utf-8")  # another format: not read
    kept = selected(docs, 20, 400, "markdown")
    assert [(p.name, units, bounds) for p, units, bounds in kept] == [("kept.md", 23, 3)]

    monkeypatch.setattr(sys, "argv", ["copy_pages.py", str(docs), str(tmp_path / "out"), "--format", "markdown"])
    main()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["kept.md"]
    assert capsys.readouterr().out.startswith("1 pages copied to ")
