"""Reading a folder as users assemble them: files of another kind beside the corpus, files with
nothing to segment, links, and files whose format only their content tells. Each case was found
reading such folders, and each read wrongly without a word before (see the test docstrings)."""

import json
import os
import warnings

import pytest

from stability.exceptions import CorpusFormatError
from stability.readers import CorpusWarning, detect_format, detect_formats, read_corpus

WIKI = "========,1,preface.\nFirst sentence.\nSecond sentence.\n========,2,History.\nThird one.\nFourth one.\n"
UNITS = [f"Sentence number {i}." for i in range(8)]


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def quietly(documents):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CorpusWarning)
        return list(documents)


def test_a_readme_does_not_decide_the_format_of_a_folder(tmp_path):
    """Wiki-50 articles have no extension; a README.md beside them decided the format (markdown),
    and only the README was read, without a warning (one document instead of three). The same
    with text files: a README.md left them out."""
    for name in ("10037144", "1057453", "2"):
        write(tmp_path / "wiki" / name, WIKI)
    write(tmp_path / "wiki" / "README.md", "# Wiki-50\n\nTest set.\n")
    assert detect_format(tmp_path / "wiki") == "wiki"
    with pytest.warns(CorpusWarning, match=r"README\.md: no '========,<level>,<title>\.' header line"):
        assert [d.id for d in read_corpus(tmp_path / "wiki")] == ["2", "1057453", "10037144", "README.md"]
    assert [d.id for d in quietly(read_corpus(tmp_path / "wiki", pattern="[0-9]*"))] == ["2", "1057453", "10037144"]
    write(tmp_path / "text" / "doc1.txt", "One. Two.\n")
    write(tmp_path / "text" / "doc2.txt", "Three. Four.\n")
    write(tmp_path / "text" / "readme.MD", "# About\n\nThese are notes.\n")
    assert detect_format(tmp_path / "text") == "text"
    assert [d.id for d in quietly(read_corpus(tmp_path / "text"))] == ["doc1.txt", "doc2.txt"]


def test_files_another_format_recognises_are_named_when_left_out(tmp_path):
    """Files without an extension (or ``.txt``) that another format recognises by their content
    are named when the folder is read in the format of its other files; READMEs, notes and
    binary files beside a corpus are not (Choi's benchmark folder holds a README and tables)."""
    write(tmp_path / "a.json", json.dumps({"id": "a", "units": UNITS}))
    write(tmp_path / "10037144", WIKI)
    write(tmp_path / "old.txt", "==========\nOne.\n==========\n")
    write(tmp_path / "notes.txt", "Table 1 of the paper.\n")
    write(tmp_path / "README", "==========\nAbout this corpus.\n==========\n")
    write(tmp_path / "logo", "\x00\x01binary")
    with pytest.warns(CorpusWarning, match=r"2 other file\(s\) not read \('10037144', 'old\.txt'\): the corpus "
                      r"is read as format 'jsonl' detected from the '\.json' files"):
        assert [d.id for d in read_corpus(tmp_path)] == ["a"]


def json_lines(tmp_path, name):
    docs = [{"id": f"d{k}", "units": UNITS, "boundaries": [3, 5]} for k in range(2)]
    return write(tmp_path / name, "".join(json.dumps(d) + "\n" for d in docs))


@pytest.mark.parametrize("name", ["corpus.ndjson", "corpus", "corpus.txt"])
def test_json_lines_are_read_as_json_whatever_the_file_is_called(tmp_path, name):
    """A ``.ndjson`` or extension-less file of JSON lines was read as plain text: one document of
    the raw JSON cut into sentences, the references lost, exit 0."""
    file = json_lines(tmp_path, name)
    assert detect_format(file) == "jsonl"
    docs = quietly(read_corpus(file))
    assert [(d.id, d.n_units, d.references[0].boundaries) for d in docs] == [("d0", 8, (3, 5)), ("d1", 8, (3, 5))]


def test_a_pretty_printed_json_array_without_extension_is_json(tmp_path):
    docs = [{"id": "a", "units": UNITS, "segments": [3, 5]}]
    file = write(tmp_path / "export", json.dumps(docs, indent=2))
    assert detect_format(file) == "jsonl"
    assert [d.references[0].boundaries for d in quietly(read_corpus(file))] == [(3,)]


@pytest.mark.parametrize("text", ["[Music] Welcome back. Today we talk.\n", "{braces} are fine in prose.\n",
                                  "[\n1, 2] were cited.\n"])
def test_text_that_only_starts_like_json_stays_text(tmp_path, text):
    """Text opening as JSON does; '[\\n1, 2]\\n' whole is a JSON array (as on standard input), refused
    by the JSON reader rather than read as text: see test_readers_stdin.py."""
    file = write(tmp_path / "talk", text)
    assert detect_format(file) == "text"


def test_a_folder_of_extensionless_json_is_json(tmp_path):
    json_lines(tmp_path, "part1")
    assert detect_format(tmp_path) == "jsonl"


EMPTY_CASES = {
    "srt": ("a.srt", "1\n00:00:00,000 --> 00:00:02,000\nHello there.\n\n2\n00:00:02,000 --> 00:00:04,000\nBye now.\n",
            "b.srt", "", "expected at least one cue with text"),
    "vtt": ("a.vtt", "WEBVTT\n\n00:00.000 --> 00:02.000\nHello there.\n\n00:02.000 --> 00:04.000\nBye now.\n",
            "b.vtt", "WEBVTT\n", "expected at least one cue with text"),
    "whisper": ("a.json", json.dumps({"text": "Hi. Bye.", "language": "en", "segments": [
        {"start": 0.0, "end": 1.0, "text": " Hi."}, {"start": 1.0, "end": 2.0, "text": " Bye."}]}),
                "b.json", json.dumps({"text": "", "segments": [], "language": "en"}),
                "expected at least one Whisper segment with text; segments is empty"),
    "wiki": ("a", WIKI, "b", "========,1,preface.\n", "expected at least one sentence line"),
    "json array": ("a.json", json.dumps([{"id": "a", "units": UNITS}]), "b.json", "[]",
                   "the array is empty"),
    "csv": ("a.csv", "text,label\nOne.,1\nTwo.,2\n", "b.csv", "text,label\n",
            "expected at least one data row after the header"),
}


@pytest.mark.parametrize("case", EMPTY_CASES, ids=list(EMPTY_CASES))
def test_a_file_with_nothing_to_segment_is_left_out_of_a_folder(tmp_path, case):
    """The README promises that one empty page does not stop a run; an empty caption file, the
    Whisper output of a silent recording, an empty wiki article, an empty JSON array and a CSV
    with a header only stopped it (an error for the whole folder)."""
    good, good_text, empty, empty_text, reason = EMPTY_CASES[case]
    write(tmp_path / good, good_text)
    write(tmp_path / empty, empty_text)
    with pytest.warns(CorpusWarning, match=rf"1 file\(s\) without text to segment left out of the corpus: {empty} "
                                           rf"\(.*{reason}"):
        docs = list(read_corpus(tmp_path, "wiki" if case == "wiki" else None))
    assert len(docs) == 1 and docs[0].n_units >= 2
    with pytest.raises(CorpusFormatError, match=reason):  # given alone, it is still an error
        quietly(read_corpus(tmp_path / empty, "wiki" if case == "wiki" else None))


def test_a_file_linked_twice_is_read_once(tmp_path):
    """A symbolic link to a file already in the corpus made a second document of the same text
    (directories reached twice were already read once)."""
    write(tmp_path / "real" / "a.txt", "One. Two. Three.\n")
    write(tmp_path / "real" / "c.txt", "Four. Five.\n")
    (tmp_path / "other").mkdir()
    os.symlink(os.path.join("..", "real", "a.txt"), tmp_path / "other" / "b.txt")
    with pytest.warns(CorpusWarning, match=r"1 file\(s\) reached again through a symbolic link read once, under the "
                                           r"first name: 'real/a\.txt' \(the file 'other/b\.txt' is\)"):
        assert [d.id for d in read_corpus(tmp_path)] == ["other/b.txt", "real/c.txt"]


@pytest.mark.parametrize("text, units, boundaries, line", [
    ("==========\na .\nb .\n==========\nc .\nd .\n==========\n\n", ("a .", "b .", "c .", "d ."), (2,), "line 8"),
    ("\n \n==========\na .\nb .\n==========\nc .\nd .\n==========\n", ("a .", "b .", "c .", "d ."), (2,), "lines 1, 2"),
    ("==========\na .\n\nb .\n==========\nc .\n==========\n", ("a .", "", "b .", "c ."), (3,), None),
])
def test_choi_blank_lines_outside_the_separators_make_no_segment(tmp_path, text, units, boundaries, line):
    """A trailing empty line after the last separator became an empty unit in a segment of its
    own, adding a reference boundary; blank lines inside a segment are still kept (Choi's set 4)."""
    file = write(tmp_path / "doc.ref", text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc, = read_corpus(file)
    assert (doc.units, doc.references[0].boundaries) == (units, boundaries)
    said = [str(w.message) for w in caught if "before the first or after the last" in str(w.message)]
    assert said == ([f"{file}: {line}: blank, before the first or after the last '==========' separator: dropped "
                     f"(not a segment of empty units)"] if line else [])


@pytest.mark.parametrize("opening, closing", [("+++", "+++"), ("---", "---"), ("---", "...")])
def test_markdown_front_matter_toml_and_yaml(tmp_path, opening, closing):
    """Hugo's and Zola's TOML front matter (``+++``) was a unit and made a reference segment."""
    file = write(tmp_path / "page.md", f'{opening}\ntitle = "Install guide"\ndate = 2024-01-01\n{closing}\n\n'
                                       "# A\n\np1.\n\n# B\n\np2.\n")
    doc, = quietly(read_corpus(file))
    assert doc.units == ("p1.", "p2.") and doc.references[0].boundaries == (1,)


def test_a_stray_quote_in_a_long_csv_is_reported_where_it_opens(tmp_path):
    """A quote never closed swallowed the rows after it up to the csv module's field limit, and
    the error named a line thousands of rows later, as 'field larger than field limit'."""
    rows = ["text,label"] + [f"row {i} text here,{i // 100}" for i in range(9000)]
    rows[11] = '"Hello, she said to row ten,0'
    file = write(tmp_path / "stray.csv", "\n".join(rows) + "\n")
    with pytest.raises(CorpusFormatError, match=r"stray\.csv:12: malformed CSV: a cell of the row starting here runs "
                                                r"on past line \d+ .*expected a closing double quote; most likely a cell "
                                                r"starts with a stray '\"'"):
        list(read_corpus(file))


def test_a_folder_is_listed_once_and_read_as_listed(tmp_path, monkeypatch):
    """A folder whose format was detected was listed three times: to detect the format, to name
    the files of another format left out, and to read it. A file saved in the folder meanwhile was
    read, although the format had been detected without it: the corpus mixed two states of the
    folder. Now it is listed once; the reader reads the files detection saw."""
    corpus = tmp_path / "choi"
    for name in ("a.ref", "b.ref"):
        write(corpus / name, "==========\nOne.\nTwo.\n==========\nThree.\n==========\n")
    scandir, listings = os.scandir, []

    class Then:  # the listing os.walk asked for, then a file saved in the folder once it is done
        def __init__(self, entries):
            self.entries = entries

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.entries.close()
            write(corpus / "c.ref", "==========\nSaved later.\n==========\n")

        def __iter__(self):
            return self

        def __next__(self):
            return next(self.entries)

        def close(self):
            self.entries.close()

    def listing(path=".", *args):
        if os.path.realpath(path) != os.path.realpath(corpus):
            return scandir(path, *args)
        listings.append(path)
        return Then(scandir(path, *args))

    monkeypatch.setattr(os, "scandir", listing)
    assert [d.id for d in read_corpus(corpus)] == ["a.ref", "b.ref"]
    assert len(listings) == 1
    listings.clear()
    assert [d.id for d in read_corpus(corpus)] == ["a.ref", "b.ref", "c.ref"]  # listed again: a new call
    assert len(listings) == 1


def _docs_site(folder):
    """A product-docs folder as a RAG user has one: Markdown and HTML pages side by side, with
    notes, a README and an image beside them."""
    write(folder / "guide.md", "Intro.\n\n# Install\n\nRun pip.\n\n# Use\n\nCall it. Then wait.\n")
    write(folder / "faq.html", "<h1>FAQ</h1><p>Ask.</p><h2>More</h2><p>Answer <em>it</em>.</p>")
    write(folder / "sub" / "api.htm", "<main><h1>A</h1><p>x.</p><h1>B</h1><p>y.</p></main>")
    write(folder / "10-intro.md", "# Intro\n\nHi *there*.\n\n# Two\n\nThere.\n")
    write(folder / "notes.txt", "To do: check the FAQ.\n")
    write(folder / "README", "These are the product's pages.\n")
    (folder / "logo.png").write_bytes(b"\x89PNG\x00\x01")
    return folder


def test_a_folder_of_markdown_and_html_pages_reads_each_page_in_its_own_format(tmp_path):
    """A folder holding ``.md`` and ``.html`` pages was read as Markdown only, the HTML pages left
    out with a warning: half the pages lost unless the user split the folder. They are one corpus,
    each file read by its own format's reader (units and references as that reader gives them
    for the file alone), ids unchanged, in the folder's natural order, said once; notes, the
    README and the image beside them are not read, and not named."""
    from stability.readers import read_html, read_markdown

    site = _docs_site(tmp_path / "site")
    with pytest.warns(CorpusWarning) as caught:
        docs = list(read_corpus(site))
    said = [str(w.message) for w in caught]
    assert said == [f"{site}: pages of 2 formats, 2 markdown ('10-intro.md', 'guide.md') and 2 html ('faq.html', "
                    "'sub/api.htm'): each file is read in its own format, one corpus (a document's meta['format'] "
                    "names it); pass format= to read one of them only"]
    assert [(d.id, d.meta["format"]) for d in docs] == [
        ("10-intro.md", "markdown"), ("faq.html", "html"), ("guide.md", "markdown"), ("sub/api.htm", "html")]
    alone = {"10-intro.md": read_markdown, "guide.md": read_markdown, "faq.html": read_html, "sub/api.htm": read_html}
    for doc in docs:
        own = next(alone[doc.id](site / doc.id))
        assert (doc.units, doc.references, doc.meta["titles"]) == (own.units, own.references, own.meta["titles"])
    assert detect_formats(site) == ("markdown", "html") and detect_format(site) == "markdown"


def test_a_folder_of_pages_takes_each_option_where_it_applies(tmp_path):
    """Options of both formats apply to both; ``markup`` (Markdown's only) to the Markdown pages;
    one neither takes is refused, naming the formats; ``limit`` counts the corpus's documents."""
    site = _docs_site(tmp_path / "site")
    with pytest.warns(CorpusWarning, match="pages of 2 formats"):  # said when the corpus is opened
        docs = list(read_corpus(site, unit="sentence", splitter="rules", markup="text", levels=1))
    assert [d.units for d in docs] == [("Hi there.", "There."), ("Ask.", "Answer it."),
                                       ("Intro.", "Run pip.", "Call it.", "Then wait."), ("x.", "y.")]
    assert [d.references[0].boundaries for d in docs] == [(1,), (), (1, 2), (1,)]
    with pytest.warns(CorpusWarning, match="pages of 2 formats"):
        assert [d.id for d in read_corpus(site, limit=3)] == ["10-intro.md", "faq.html", "guide.md"]
    with pytest.raises(Exception, match=r"text_column applies only to format 'csv'; the corpus is read as formats "
                                        r"'markdown' and 'html' detected"):
        read_corpus(site, text_column="text")


def test_a_page_in_both_formats_under_one_name_is_named(tmp_path):
    """A page written in both formats (``guide.md`` beside the ``guide.html`` rendered from it, a
    site's source and output in one folder) is two documents of one text: the warning names it.
    Pages a pattern selects are those counted."""
    site = _docs_site(tmp_path / "site")
    write(site / "guide.html", "<h1>Install</h1><p>Run pip.</p>")
    with pytest.warns(CorpusWarning) as caught:
        assert [d.id for d in read_corpus(site, pattern="g*")] == ["guide.html", "guide.md"]
    assert [str(w.message) for w in caught] == [
        f"{site}: pages of 2 formats, 1 markdown ('guide.md') and 1 html ('guide.html'): each file is read in its own "
        "format, one corpus (a document's meta['format'] names it); 1 page(s) written in two formats under one name "
        "are read twice ('guide.md' and 'guide.html'); pass format= to read one of them only"]


def test_a_format_or_pattern_given_reads_a_folder_of_pages_in_one_format(tmp_path):
    """``format=`` reads that format's files only, as before; ``pattern=`` selecting the HTML pages
    read them as Markdown (the format detected from the folder's ``.md`` files), their tags as text:
    the pages a pattern selects decide the format."""
    site = _docs_site(tmp_path / "site")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        assert [d.id for d in read_corpus(site, "html")] == ["faq.html", "sub/api.htm"]
        assert [d.id for d in read_corpus(site, "markdown")] == ["10-intro.md", "guide.md"]
        html = list(read_corpus(site, pattern="*.htm*"))
    assert [(d.id, d.meta["format"]) for d in html] == [("faq.html", "html"), ("sub/api.htm", "html")]
    assert html[0].units == ("Ask.", "Answer it.")


@pytest.mark.parametrize("extension, reader", [(".html", "html"), (".md", "markdown")])
def test_a_folder_of_one_kind_of_page_is_read_as_before(tmp_path, extension, reader):
    """The validation corpora are folders of HTML pages, or of Markdown, with images and notes
    beside them: one format, no word about the others, the same documents as that reader gives."""
    from stability import readers

    page = ("<h1>A</h1><p>One.</p><h1>B</h1><p>Two.</p>" if extension == ".html" else "# A\n\nOne.\n\n# B\n\nTwo.\n")
    for name in ("ch1", "ch2", "sub/ch10"):
        write(tmp_path / "book" / (name + extension), page)
    write(tmp_path / "book" / "notes.txt", "A note.\n")
    (tmp_path / "book" / "img.png").write_bytes(b"\x89PNG\x00\x01")
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        docs = list(read_corpus(tmp_path / "book"))
    own = list(getattr(readers, f"read_{reader}")(tmp_path / "book"))
    assert [(d.id, d.units, d.references, d.meta["format"]) for d in docs] == [
        (d.id, d.units, d.references, reader) for d in own]
    assert [d.id for d in docs] == [f"ch1{extension}", f"ch2{extension}", f"sub/ch10{extension}"]


def test_a_run_of_a_folder_of_pages_records_both_formats_for_its_references(tmp_path):
    """The run's record (``provenance[reader]``) named one format for a folder of Markdown and HTML
    pages, so references given after the run as HTML pages elsewhere were read without its options
    (``unit='sentence'``): their units were not the run's."""
    from stability.config import load_config
    from stability.scoring import _reading
    from stability.store import READER

    site = _docs_site(tmp_path / "site")
    cfg = write(tmp_path / "run.toml", f"[corpus]\npath = {str(site)!r}\nunit = \"sentence\"\n[segmenters.even]\n")
    record = load_config(cfg).reading()
    assert record is not None and record["formats"] == [["markdown", "html"]]
    write(tmp_path / "refs" / "faq.html", "<h1>FAQ</h1><p>Ask.</p><h2>More</h2><p>Answer it.</p>")
    assert _reading(str(tmp_path / "refs"), {"provenance": {READER: record}}, {}) == {"unit": "sentence"}


def test_json_settings_beside_pages_do_not_decide_the_format(tmp_path):
    """A Docusaurus docs folder holds a ``_category_.json`` (the sidebar's label) in every folder of
    its Markdown pages; the ``.json`` files decided the format, and reading stopped on the first
    ("expected a 'units' list of strings"), the pages named as left out. JSON files none of which
    holds a document are settings beside the pages: not read, not named. JSON documents beside
    pages still decide the format, as before, the pages named as left out."""
    docs = tmp_path / "docs"
    write(docs / "intro.md", "# Intro\n\nHello there.\n\n## Next\n\nMore.\n")
    write(docs / "tutorial" / "step.md", "# Step\n\nDo it.\n\n## Two\n\nDone.\n")
    write(docs / "tutorial" / "_category_.json", json.dumps({"label": "Tutorial", "position": 2}))
    write(docs / "versions.json", json.dumps(["2.0", "1.0"]))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        assert detect_format(docs) == "markdown"
        assert [d.id for d in read_corpus(docs)] == ["intro.md", "tutorial/step.md"]
    write(docs / "corpus.json", json.dumps({"id": "a", "units": UNITS}))
    assert detect_format(docs) == "jsonl"
    with pytest.warns(CorpusWarning, match=r"2 other file\(s\) not read \('intro\.md', 'tutorial/step\.md'\)"):
        read_corpus(docs)


def test_a_folder_of_pages_trains_one_sentence_splitter_on_every_page(tmp_path, monkeypatch):
    """A folder of Markdown and HTML pages is one corpus, but each format trained its own sentence
    splitter on its own pages (Punkt learns abbreviations from the text), so the same sentence
    could be split one way in a ``.md`` page and another in an ``.html`` one. One splitter is now
    trained once, on the paragraphs of every page (each read in its own format, code left out),
    and splits them all; documents still name it by its name."""
    from stability import splitters

    built: list[list[str]] = []

    def build(corpus):
        built.append(sorted(corpus or []))
        return lambda text: text.split(". ")

    monkeypatch.setitem(splitters.SPLITTERS, "recording",
                        splitters.SplitterSpec("recording", build, True, "records what it learns from"))
    site = _docs_site(tmp_path / "site")
    write(site / "guide.md", "Intro.\n\n# Install\n\nRun pip.\n\n```\ncode\n```\n\n# Use\n\nCall it. Then wait.\n")
    with pytest.warns(CorpusWarning, match="pages of 2 formats"):
        docs = list(read_corpus(site, unit="sentence", splitter="recording", markup="text"))
    assert built == [sorted(["Hi there.", "There.", "Ask.", "Answer it.", "Intro.", "Run pip.",
                             "Call it. Then wait.", "x.", "y."])]
    assert {d.meta["splitter"] for d in docs} == {"recording"}
    assert docs[2].units == ("Intro.", "Run pip.", "code", "Call it", "Then wait.")


def _jekyll_site(folder):
    """A site's source as its repository holds it: pages (Hugo's ``_index.md`` among them) beside
    the generator's templates, its build output and the packages it installs."""
    write(folder / "index.md", "# Home\n\nWelcome.\n")
    write(folder / "guide" / "_index.md", "# Guide\n\nRead on.\n")
    write(folder / "_layouts" / "default.html", "<html><body><p>{{ content }}</p></body></html>")
    write(folder / "_includes" / "footer.html", "<p>Edit this page on GitHub.</p>")
    write(folder / "_site" / "index.html", "<h1>Home</h1><p>Welcome.</p>")
    write(folder / "docs" / "_build" / "html" / "api.html", "<h1>API</h1><p>Calls.</p>")
    write(folder / "node_modules" / "pkg" / "README.md", "# pkg\n\nA dependency.\n")
    write(folder / "mkdocs.yml", "site_name: Demo\n")
    write(folder / "site" / "index.html", "<h1>Home</h1><p>Welcome.</p>")
    return folder


def test_a_folder_of_pages_skips_templates_build_output_and_dependencies(tmp_path):
    """A Jekyll, Hugo, MkDocs or Sphinx site's folder read as its pages: ``_layouts/*.html`` and
    ``_includes/*.html`` (templates), ``_site/``, ``_build/`` and MkDocs's ``site/`` (the pages
    built again, each a second document) and ``node_modules/`` were read as pages, named only
    among the HTML pages of a mixed folder. Those folders are left out, said once; Hugo's
    ``_index.md`` pages are read. A folder named ``site`` is build output only beside
    ``mkdocs.yml``; and a folder given itself is read whatever its name."""
    site = _jekyll_site(tmp_path / "repo")
    with pytest.warns(CorpusWarning) as caught:
        docs = list(read_corpus(site))
    assert [d.id for d in docs] == ["guide/_index.md", "index.md"]
    assert [str(w.message) for w in caught] == [
        f"{site}: 6 folder(s) of a site's templates, build output or installed packages not read ('_includes', "
        "'_layouts', '_site', 'docs/_build', 'node_modules', ...): give such a folder as the corpus to "
        "read its files"]
    assert detect_formats(site) == ("markdown",)
    (site / "mkdocs.yml").unlink()
    with pytest.warns(CorpusWarning) as caught:
        assert [d.id for d in read_corpus(site, format="html")] == ["site/index.html"]
    assert "5 folder(s)" in str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        assert [d.id for d in read_corpus(site / "_site")] == ["index.html"]
        assert [d.id for d in read_corpus(site / "docs" / "_build" / "html")] == ["api.html"]


def test_asciidoc_sources_are_named_with_what_to_do(tmp_path):
    """An AsciiDoc project's ``.adoc`` pages are read by no reader: beside Markdown pages they were
    left out without a word, and a folder of them only was refused with a list of every format's
    markers and ``pass format=``, which reads them wrongly. Both now say which files are sources
    no reader reads, and how to read them: build the HTML and give its folder. (reStructuredText
    sources were named so too, until the rst reader read them: tests/test_readers_rst.py.)"""
    docs = tmp_path / "docs"
    write(docs / "index.adoc", "= Title\n\nHello there.\n")
    write(docs / "api" / "calls.adoc", "= Calls\n\nCall it.\n")
    with pytest.raises(CorpusFormatError, match=r"2 AsciiDoc file\(s\) \('api/calls.adoc', 'index.adoc'\), "
                                                r"which no reader reads: build the HTML pages \(asciidoctor\) and give "
                                                r"their folder"):
        read_corpus(docs)
    write(docs / "notes.md", "# Notes\n\nRead me.\n")
    with pytest.warns(CorpusWarning) as caught:
        assert [d.id for d in read_corpus(docs)] == ["notes.md"]
    assert [str(w.message) for w in caught] == [
        f"{docs}: 2 AsciiDoc file(s) not read ('api/calls.adoc', 'index.adoc'), which no reader reads: build "
        "the HTML pages (asciidoctor) and give their folder"]


def test_pages_of_one_format_without_text_leave_the_others_read(tmp_path):
    """In a folder of Markdown and HTML pages, each format's pages are read by its own reader: when
    none of one format's pages had text (an empty ``.html`` page, a theme's template beside 70
    Markdown pages) that reader's "none of its files has any" stopped the whole corpus. They are
    left out with the warning a page without text gets; the error stays for a folder none of
    whose pages, of either format, has text."""
    site = tmp_path / "docs"
    write(site / "guide.md", "# Install\n\nRun pip.\n")
    write(site / "theme" / "main.html", '{% extends "base.html" %}\n')
    write(site / "empty.html", "<h1>Soon</h1>\n")
    with pytest.warns(CorpusWarning) as caught:
        assert [d.id for d in read_corpus(site)] == ["guide.md"]
    assert str(caught[-1].message) == (
        f"{site}: 2 file(s) without text to segment left out of the corpus: empty.html (expected some text besides "
        "headings; the file has none); theme/main.html (expected a page; this is a template, its first line opening "
        "a '{%' tag)")
    write(site / "guide.md", "# Install\n")
    with pytest.warns(CorpusWarning, match="pages of 2 formats"), \
            pytest.raises(CorpusFormatError, match=r"none of its 3 file\(s\) has any: empty.html .*; guide.md .*; "
                                                   r"theme/main.html"):
        list(read_corpus(site))
