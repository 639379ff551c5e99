"""Sentence splitters: the registry, the defaults that need no download, and the text reader's hook."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings, strategies as st

from stability import InvalidParameterError
from stability.config import _corpus_keys
from stability.readers import read_corpus, read_text
from stability.splitters import (
    ABBREVIATIONS,
    PUNKT_MIN_CHARACTERS,
    available_splitters,
    ends_sentence,
    get_splitter,
    join_lowercase_starts,
    register_splitter,
    split_rules,
    SPLITTERS,
)

# issue 14: untrained Punkt gives ['Dr.', 'Smith went to Washington D.C.', 'yesterday.',
# 'He arrived at 5 p.m.', 'on Monday.']; the right answer is its two sentences.
EXAMPLE = "Dr. Smith went to Washington D.C. yesterday. He arrived at 5 p.m. on Monday."
SENTENCES = ["Dr. Smith went to Washington D.C. yesterday.", "He arrived at 5 p.m. on Monday."]


WORDS = (
    "river stone market garden window letter morning evening harbour village teacher doctor "
    "bright quiet heavy small green early late open warm cold found carried watched painted "
    "opened closed visited crossed"
).split()


def large_corpus(n_paragraphs: int = 300, seed: int = 0) -> list[str]:
    """Paragraphs of random sentences over a small vocabulary, more than PUNKT_MIN_CHARACTERS in all.

    Every word appears inside sentences as well as before their final period, as in real text
    (a word seen only before periods is what Punkt takes for an abbreviation).
    """
    import random

    rng = random.Random(seed)
    paragraphs = []
    for _ in range(n_paragraphs):
        sentences = []
        for _ in range(4):
            words = [rng.choice(WORDS) for _ in range(rng.randint(6, 12))]
            sentences.append(" ".join([words[0].capitalize()] + words[1:]) + ".")
        paragraphs.append(" ".join(sentences))
    return paragraphs


def test_the_default_splits_the_abbreviation_example_into_its_two_sentences():
    assert get_splitter()(EXAMPLE) == SENTENCES
    assert get_splitter("auto")(EXAMPLE) == SENTENCES
    assert split_rules(EXAMPLE) == SENTENCES


def test_the_default_trains_punkt_on_a_large_corpus_and_still_splits_the_example(tmp_path):
    corpus = large_corpus()
    assert sum(map(len, corpus)) >= PUNKT_MIN_CHARACTERS
    split = get_splitter("auto", corpus=corpus)
    assert split is not split_rules  # trained Punkt, not the rules
    assert split(EXAMPLE) == SENTENCES
    assert all(len(split(paragraph)) == 4 for paragraph in corpus)
    # the text reader trains on the files it reads, then splits each of them
    (tmp_path / "big.txt").write_text("\n\n".join(corpus))
    (tmp_path / "example.txt").write_text(EXAMPLE + "\n")
    docs = {d.id: d for d in read_text(tmp_path)}
    assert list(docs["example.txt"].units) == SENTENCES
    assert docs["big.txt"].n_units == 4 * len(corpus)
    assert docs["example.txt"].meta["splitter"] == "auto"


def test_below_the_threshold_auto_uses_the_rules():
    assert get_splitter("auto", corpus=["Short text. Very short."]) is split_rules


@pytest.mark.parametrize(
    "text, expected",
    [
        ("It rains. It pours.", ["It rains.", "It pours."]),
        ("Is it? Yes! Good.", ["Is it?", "Yes!", "Good."]),
        ("Mr. and Mrs. Lee met Prof. Ito.", ["Mr. and Mrs. Lee met Prof. Ito."]),
        ("See e.g. Smith. Then stop.", ["See e.g. Smith.", "Then stop."]),
        ("J. R. R. Tolkien wrote it. Yes.", ["J. R. R. Tolkien wrote it.", "Yes."]),
        ("It cost 3.50 dollars. Cheap.", ["It cost 3.50 dollars.", "Cheap."]),
        ('He said "Go." She went.', ['He said "Go."', "She went."]),
        ("Wait... What?", ["Wait...", "What?"]),
        ("He lives in the U.S. He likes it.", ["He lives in the U.S.", "He likes it."]),
        ("See No. 5 and pp. 3. The answer was no. Then fig. 2.", ["See No. 5 and pp. 3.", "The answer was no.", "Then fig. 2."]),
        ("Tabs\tend here.\tNext one.", ["Tabs\tend here.", "Next one."]),
        ("no final dot", ["no final dot"]),
        ("   ", []),
    ],
)
def test_rules(text, expected):
    assert split_rules(text) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab. !?\"'()DrM\n") + list("。！？」؟।")), max_size=80))
def test_splitters_lose_no_text(text):
    # every character but whitespace comes back, in order, and no sentence is blank
    for split in (split_rules, get_splitter("punkt_untrained"), get_splitter("punkt", corpus=[text])):
        sentences = split(text)
        assert "".join(sentences).replace(" ", "").replace("\n", "") == "".join(text.split())
        assert all(s.strip() == s and s for s in sentences)


def test_join_lowercase_starts():
    assert join_lowercase_starts(["A.", "b c.", "D."]) == ["A. b c.", "D."]
    assert join_lowercase_starts([]) == []


def test_registry_and_unknown_names():
    assert available_splitters()[:3] == ["auto", "punkt", "rules"]
    assert {"dr", "mr", "e.g", "p.m"} <= ABBREVIATIONS
    with pytest.raises(InvalidParameterError, match=r"one of 'auto'.*received 'punk'; did you mean 'punkt'\?"):
        get_splitter("punk")
    with pytest.raises(InvalidParameterError, match="splitter must be a callable"):
        get_splitter(3)
    with pytest.raises(InvalidParameterError, match="already registered"):
        register_splitter("rules", lambda corpus: split_rules)


def test_a_registered_splitter_is_selectable_by_name(tmp_path, monkeypatch):
    monkeypatch.setitem(SPLITTERS, "semicolons", SPLITTERS["rules"].__class__(
        "semicolons", lambda corpus: lambda text: text.split(";"), False, "test"
    ))
    (tmp_path / "a.txt").write_text("one;two;three\n")
    assert next(read_corpus(tmp_path, splitter="semicolons")).units == ("one", "two", "three")


def test_pysbd_missing_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pysbd", None)  # import pysbd now raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'stability-harness\[sbd\]'"):
        get_splitter("pysbd")


def test_pysbd_splits_the_example():
    pytest.importorskip("pysbd")
    assert get_splitter("pysbd")(EXAMPLE) == SENTENCES


def test_read_corpus_takes_a_splitter_by_name_or_callable(tmp_path):
    file = tmp_path / "t.txt"
    file.write_text(EXAMPLE + "\n")
    assert "splitter" in _corpus_keys()  # configs get [corpus] splitter = "..." from the signature
    assert list(next(read_corpus(file, splitter="rules")).units) == SENTENCES
    assert next(read_corpus(file, splitter="punkt_untrained")).n_units == 5

    def by_comma(text):
        return text.split(",")

    doc = next(read_corpus(file, splitter=lambda text: text.split(" He ")))
    assert doc.units == ("Dr. Smith went to Washington D.C. yesterday.", "arrived at 5 p.m. on Monday.")
    assert next(read_corpus(file, splitter=by_comma)).meta["splitter"].endswith("by_comma")
    with pytest.raises(InvalidParameterError, match="splitter applies only to unit='sentence'"):
        read_corpus(file, unit="paragraph", splitter="rules")
    with pytest.raises(InvalidParameterError, match="did you mean 'rules'"):
        read_corpus(file, splitter="rulez")
    csv_file = tmp_path / "c.csv"
    csv_file.write_text("text\nx\n")
    with pytest.raises(InvalidParameterError, match="splitter applies only to unit='sentence'; received unit='row'"):
        read_corpus(csv_file, splitter="rules")  # CSV rows are cut into sentences with unit='sentence' only
    assert next(read_corpus(csv_file, unit="sentence", splitter="rules")).meta["splitter"] == "rules"
    with pytest.raises(InvalidParameterError, match="splitter applies only to format 'jsonl', 'csv', 'subtitles', "
                                                    "'markdown', 'rst', 'html' or 'text'"):
        read_corpus(tmp_path / "c.csv", "choi", splitter="rules")
    with pytest.raises(TypeError, match="must return a list of strings"):
        list(read_corpus(file, splitter=lambda text: text))


def test_a_config_selects_the_splitter(tmp_path):
    from stability.config import load_config

    (tmp_path / "t.txt").write_text(EXAMPLE + "\n")
    config = tmp_path / "c.toml"
    config.write_text('[corpus]\npath = "t.txt"\nsplitter = "punkt_untrained"\n')
    assert next(load_config(config).documents()).n_units == 5
    config.write_text('[corpus]\npath = "t.txt"\n')
    assert list(next(load_config(config).documents()).units) == SENTENCES


def test_punkt_learns_the_corpus_own_abbreviations():
    # 'Univ.' is in no list: the rules split after it, Punkt trained on a corpus that uses it does not
    corpus = [p.replace(" ", " near the Univ. Paris ", 1) for p in large_corpus()]
    text = "She studied at the Univ. Paris campus. Then she left."
    assert split_rules(text) == ["She studied at the Univ.", "Paris campus.", "Then she left."]
    assert get_splitter("auto", corpus=corpus)(text) == ["She studied at the Univ. Paris campus.", "Then she left."]


# ---------------------------------------------------------------------------------------------
# raw text straight into the harness (issue 14 item 1)
# ---------------------------------------------------------------------------------------------
RAW = "Dr. Smith went to Washington D.C. yesterday. He arrived at 5 p.m. on Monday."


def test_stability_test_takes_raw_text_with_a_splitter():
    from stability import stability_test

    seen = []

    def record(units):
        seen.append(list(units))
        return []

    stability_test(record, RAW, splitter="auto", n_restarts=2, shuffle_control=False)
    assert seen[0] == ["Dr. Smith went to Washington D.C. yesterday.", "He arrived at 5 p.m. on Monday."]


def test_raw_text_without_a_splitter_is_refused():
    from stability import InvalidTypeError, evaluate, stability_test

    with pytest.raises(InvalidTypeError, match="splitter="):
        stability_test("even", RAW)
    with pytest.raises(InvalidTypeError, match="needs a splitter"):
        evaluate({"even": "even"}, [RAW], n_restarts=2)


def test_evaluate_takes_raw_documents_with_a_splitter():
    from stability import evaluate

    result = evaluate({"none": "none"}, [RAW, "One. Two. Three."], splitter="rules", n_restarts=2)
    units = [r.segmentation.n_units for r in result.documents["none"]]
    assert units == [2, 3]


def test_cli_splitter_option(tmp_path):
    from typer.testing import CliRunner

    from stability.cli import app

    (tmp_path / "doc.txt").write_text(RAW + " " + "Stocks fell. Bonds rose. Markets closed. " * 3, encoding="utf-8")
    result = CliRunner().invoke(app, ["run", "-s", "none", "--corpus", str(tmp_path / "doc.txt"), "--corpus-format",
                                      "text", "--splitter", "rules", "-r", "2", "--report-format", "json"])
    assert result.exit_code == 0, result.output
    assert '"n_units": 11' in result.stdout  # 2 sentences of RAW + 3 x 3
    bad = CliRunner().invoke(app, ["run", "-s", "none", "--corpus", str(tmp_path / "doc.txt"), "--splitter", "rulez"])
    assert bad.exit_code == 1 and "did you mean 'rules'" in bad.output


CHINESE = "今天天气很好。我们去公园散步！公园里有人吗？有很多人。"
CHINESE_SENTENCES = ["今天天气很好。", "我们去公园散步！", "公园里有人吗？", "有很多人。"]


@pytest.mark.parametrize("name", ["auto", "rules", "punkt", "punkt_untrained"])
@pytest.mark.parametrize(
    "text, expected",
    [
        (CHINESE, CHINESE_SENTENCES),  # no space after a full-width stop: the paragraph was one unit
        ("「行こう！」と言った。雨が降った。", ["「行こう！」と言った。", "雨が降った。"]),  # a quoted '！' goes on
        ("كيف حالك؟ أنا بخير. شكرا.", ["كيف حالك؟", "أنا بخير.", "شكرا."]),
        ("मैं घर गया। वह आई।", ["मैं घर गया।", "वह आई।"]),
    ],
)
def test_every_built_in_splitter_ends_sentences_of_other_scripts(name, text, expected):
    assert get_splitter(name)(text) == expected


def test_a_large_chinese_corpus_is_split_into_sentences_by_trained_punkt(tmp_path):
    paragraph = CHINESE * 20
    (tmp_path / "zh.txt").write_text("\n\n".join([paragraph] * 100), encoding="utf-8")
    assert len(paragraph) * 100 >= PUNKT_MIN_CHARACTERS  # auto trains Punkt, which splits at '. ' only
    (doc,) = read_text(tmp_path)
    assert doc.n_units == 100 * 20 * 4 and doc.units[:4] == tuple(CHINESE_SENTENCES)


def test_rules_keep_a_german_date_whole():
    # Before, the rules (the default below 50,000 characters) cut "Am 3." from "Oktober 1990 ...":
    # a dot after a number followed by a capital ends an English sentence. Written for this test.
    text = ("Am 3. Oktober 1990 trat die DDR der Bundesrepublik bei. Der 9. November, 1. Mai und "
            "24. Dezember sind andere Tage. Das Haus hat die Nummer 3. Der Garten ist groß.")
    assert split_rules(text) == ["Am 3. Oktober 1990 trat die DDR der Bundesrepublik bei.",
                                 "Der 9. November, 1. Mai und 24. Dezember sind andere Tage.",
                                 "Das Haus hat die Nummer 3.", "Der Garten ist groß."]
    # English sentences ending in a number still end there (Wiki-50 has them: "on May 26. The");
    # the price: a sentence ending in a number before one starting with a German month name that
    # English shares (April, August...) is kept whole ("12. April").
    english = "He won on May 26. The team lost 3. Smith left in 1943. August came, and 12. April rain."
    assert split_rules(english) == ["He won on May 26.", "The team lost 3.", "Smith left in 1943.",
                                    "August came, and 12. April rain."]


@pytest.mark.parametrize("name", ["rules", "punkt", "punkt_untrained"])
def test_a_number_and_a_dot_before_a_lower_case_word_never_ends_a_sentence(name):
    # A German, Danish or Czech ordinal before a lower-case word ("am 3. oktober", "den 3.
    # oktober", "3. října"): no built-in splitter ends a sentence there.
    text = "Der Laden hat am 3. oktober zu. Det skete den 3. oktober. Stalo se 3. října v Praze."
    split = get_splitter(name, corpus=[text])
    assert split(text) == ["Der Laden hat am 3. oktober zu.", "Det skete den 3. oktober.", "Stalo se 3. října v Praze."]


@pytest.mark.parametrize("text, expected", [
    # German „…“: the closing quote (U+201C) was not one, so the sentence end after "!“" was missed
    ("Der Bäcker rief: „Das Brot ist fertig!“ Dann ging er nach Hause.",
     ["Der Bäcker rief: „Das Brot ist fertig!“", "Dann ging er nach Hause."]),
    ("Er sagte: »Gut so!« Und schlief.", ["Er sagte: »Gut so!«", "Und schlief."]),
    # French « … » with its spaces: the closing guillemet started the next sentence ("» Puis il...")
    ("Il a crié : « Le pain est prêt ! » Puis il est rentré.",
     ["Il a crié : « Le pain est prêt ! »", "Puis il est rentré."]),
    ("Elle a dit\u00a0: «\u00a0oui.\u00a0» Ensuite rien.", ["Elle a dit\u00a0: «\u00a0oui.\u00a0»", "Ensuite rien."]),
    ("He said “Go!” Then he left.", ["He said “Go!”", "Then he left."]),  # English, as before
])
def test_the_rules_keep_german_and_french_closing_quotes_with_their_sentence(text, expected):
    assert split_rules(text) == expected
    assert ends_sentence(expected[0])
