"""Chen's format (X.text + X.segmenttitles) and the real Wikipedia corpora read without options."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from stability import CorpusFormatError, CorpusWarning
from stability.readers import detect_format, read_chen, read_corpus


def pair(folder: Path, text: str, titles: str, stem: str = "c") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.text").write_text(text)
    (folder / f"{stem}.segmenttitles").write_text(titles)
    return folder


TEXT = "p one\np two\np three\np four\np five\nq one\nq two\n"
TITLES = "7,1,TOP-LEVEL SEGMENT\n7,2,history, early\n7,3,history, early\n7,4,uses\n7,5,history, early\n8,1,x\n8,2,x\n"


def test_chen_documents_boundaries_and_titles(tmp_path):
    folder = pair(tmp_path, TEXT, TITLES)
    first, second = read_chen(folder)
    assert first.id == "7" and first.units == ("p one", "p two", "p three", "p four", "p five")
    # titles by paragraph: T h h u h -> a new segment at each change, also when 'history' comes back
    assert first.references[0].boundaries == (1, 3, 4)
    assert first.meta["titles"] == ("TOP-LEVEL SEGMENT", "history, early", "uses", "history, early")
    assert first.meta["line"] == 1 and first.meta["source"] == str(folder / "c.text")
    assert second.id == "8" and second.references[0].boundaries == () and second.meta["line"] == 6


@pytest.mark.parametrize("given", ["c.text", "c.segmenttitles", "."])
def test_chen_is_read_and_detected_from_either_file_or_the_folder(tmp_path, given):
    pair(tmp_path, TEXT, TITLES)
    path = tmp_path / given
    assert detect_format(path) == "chen"
    assert [d.id for d in read_corpus(path)] == ["7", "8"]
    assert [d.id for d in read_corpus(path, "chen", limit=1)] == ["7"]


@pytest.mark.parametrize(
    "text, titles, bad, line, expected",
    [
        ("a\nb\n", "1,1,t\n", "c.segmenttitles", 2, "expected as many lines as 'c.text'; this file ends at line 1"),
        ("a\n", "1,1,t\n1,2,t\n", "c.text", 2, "expected as many lines as 'c.segmenttitles'"),
        ("a\nb\n", "1,1,t\n1;2;t\n", "c.segmenttitles", 2, "expected 'doc,paragraph,title'"),
        ("a\nb\n", "1,1,t\n1,x,t\n", "c.segmenttitles", 2, "integer paragraph number"),
        ("a\nb\nc\n", "1,1,t\n2,1,t\n1,2,t\n", "c.segmenttitles", 3, "lines of document '1' resume"),
        ("a\nb\n", "1,1,t\n1,3,t\n", "c.segmenttitles", 2, "expected paragraph 2 after paragraph 1; received 3"),
        ("a\nb\n", "1,1,t\n2,1,t\n", None, None, None),
    ],
)
def test_chen_errors_name_file_and_line(tmp_path, text, titles, bad, line, expected):
    pair(tmp_path, text, titles)
    if expected is None:
        assert len(list(read_chen(tmp_path))) == 2
        return
    with pytest.raises(CorpusFormatError, match=expected) as info:
        list(read_corpus(tmp_path))
    assert str(info.value).startswith(f"{tmp_path / bad}:{line}: ")
    assert "[format 'chen' detected from the '.segmenttitles' files" in str(info.value)


def test_chen_missing_partner_empty_pair_and_blank_paragraph(tmp_path):
    (tmp_path / "lone.segmenttitles").write_text("1,1,t\n")
    with pytest.raises(CorpusFormatError, match="expected 'lone.text' beside this file"):
        list(read_chen(tmp_path / "lone.segmenttitles"))
    pair(tmp_path / "empty", "", "")
    with pytest.raises(CorpusFormatError, match="at least one paragraph"):
        list(read_chen(tmp_path / "empty"))
    pair(tmp_path / "blank", "a\n  \n", "1,1,t\n1,2,u\n")
    with pytest.warns(CorpusWarning, match=r"c\.text:2: blank paragraph kept as an empty unit"):
        (doc,) = read_chen(tmp_path / "blank")
    assert doc.units == ("a", "") and doc.references[0].boundaries == (1,)
    pair(tmp_path / "dup", "a\nb\n", "1,1,t\n1,2,t\n", stem="x")
    pair(tmp_path / "dup", "a\n", "1,1,t\n", stem="y")
    with pytest.raises(CorpusFormatError, match="id '1' was already used"):
        list(read_chen(tmp_path / "dup"))


# ---------------------------------------------------------------------------------------------
# the real corpora (../shared/data/elements, ../shared/data/wiki50), read with no option
# ---------------------------------------------------------------------------------------------
def test_real_elements(shared_dir):
    folder = shared_dir / "data" / "elements"
    assert detect_format(folder) == "chen"
    with warnings.catch_warnings():
        warnings.simplefilter("error", CorpusWarning)
        docs = list(read_corpus(folder))
    # shared/data/README.md: 118 documents, about 24 paragraphs and 6.7 boundaries each, one with none
    assert len(docs) == 118
    assert round(sum(d.n_units for d in docs) / 118, 1) == 23.8
    counts = [d.references[0].n_boundaries for d in docs]
    assert round(sum(counts) / 118, 2) == 6.71 and counts.count(0) == 1
    # checked against the raw files, parsed here by hand: a boundary where the title changes
    titles = [line.split(",", 2) for line in (folder / "wikielements.segmenttitles").read_text().splitlines()]
    paragraphs = (folder / "wikielements.text").read_text(encoding="utf-8").splitlines()
    first = [(t[2], p) for t, p in zip(titles, paragraphs) if t[0] == "1"]
    expected = [i for i in range(1, len(first)) if first[i][0] != first[i - 1][0]]
    assert docs[0].id == "1" and docs[0].units == tuple(p.strip() for _, p in first)
    # argon's paragraphs 1-18: TOP, characteristics x2, history, applications x6, occurrence x2,
    # compounds x2, isotopes x2, potential hazards, further reading -> starts of segments 2..9
    assert list(docs[0].references[0].boundaries) == expected == [1, 3, 4, 10, 12, 14, 16, 17]


def test_real_wiki50(shared_dir):
    folder = shared_dir / "data" / "wiki50"
    assert all(not p.suffix for p in folder.iterdir())  # extension-less files: detected by content
    assert detect_format(folder) == "wiki"
    docs = list(read_corpus(folder))
    assert len(docs) == 50 and all(len(d.references) == 1 for d in docs)
    # default: every header level is a boundary (6.68 per document); the usual setting, levels
    # 1-2, gives 3.48 (shared/data/README.md: "about 3.5", "all levels gives about 6.7")
    assert sum(d.references[0].n_boundaries for d in docs) == 334
    top = list(read_corpus(folder, levels="1-2"))
    assert sum(d.references[0].n_boundaries for d in top) == 174
    # one document checked by hand against its raw file: sections with sentences, by level
    doc = next(d for d in docs if d.id == "10037144")
    lines = (folder / "10037144").read_text(encoding="utf-8").splitlines()
    sentences = [x for x in lines if x.strip() and not x.startswith("========") and not x.startswith("***LIST***")]
    assert doc.units == tuple(s.strip() for s in sentences)
    assert doc.meta["titles"][:3] == ("preface", "Education", "Government work")
    assert doc.references[0].boundaries[:2] == (3, 8)  # 3 preface sentence lines, then 5 in Education
