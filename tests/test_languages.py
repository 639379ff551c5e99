"""Documents not in English: stemmers per language, the ``unicode`` tokenizer, stopword lists and
the warning when units carry almost no terms (the texts are written for these tests)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest

from segmenters.c99 import C99
from segmenters.preprocessing import Preprocessor, stemmer_languages
from segmenters.texttiling import TextTiling
from segmenters.u00 import U00
from stability import SegmenterWarning, check_segmenter, evaluate, stability_test
from stability.demo import demo_corpus
from stability.exceptions import InvalidParameterError
from stability.segmenter import STOPWORD_SHARE_MIN, stopwords_problem, unit_terms_problem

# --------------------------------------------------------------------------- stemming


def test_stem_names_a_snowball_language():
    # Before, any true value meant Porter: stem="german" left "häuser" whole (Porter knows no
    # umlaut) and stemmed "bäckerei" as English. The expected stems are nltk's German Snowball
    # stemmer, run here as the independent reference.
    from nltk.stem.snowball import SnowballStemmer

    german = SnowballStemmer("german")
    words = ["häuser", "bäckerei", "gewitter", "stunden"]
    assert Preprocessor(stopwords=[], stem="german").terms(" ".join(words)) == [german.stem(w) for w in words]
    assert Preprocessor(stopwords=[], stem="german").terms("Häuser") == ["haus"]  # Snowball's German rules by hand: -er, umlaut folded
    assert Preprocessor(stopwords=[], stem=True).terms("Häuser") == ["häuser"]  # Porter: no English suffix


def test_stem_default_is_still_porter_original_algorithm():
    from nltk.stem.porter import PorterStemmer

    porter = PorterStemmer(mode=PorterStemmer.ORIGINAL_ALGORITHM)
    words = ["running", "generalizations", "markets", "conditional"]
    assert Preprocessor(stopwords=[]).terms(" ".join(words)) == [porter.stem(w) for w in words]
    assert Preprocessor(stopwords=[], stem=False).terms("running markets") == ["running", "markets"]


def test_stem_refuses_an_unknown_language_naming_the_parameter():
    with pytest.raises(InvalidParameterError, match=r"stem must be .*'german'.*; received 'deutsch'"):
        C99(stem="deutsch")
    with pytest.raises(InvalidParameterError, match="received 1"):
        U00(stem=1)
    assert "russian" in stemmer_languages() and "arabic" in stemmer_languages()


def test_segmenters_take_a_stemmer_language():
    # Segmenters built with a language stem their terms with it (through their preprocessor).
    c99 = C99(stem="russian")
    assert c99.get_params()["stem"] == "russian"
    assert c99._preprocessor.terms("хлебом хлеба") == ["хлеб", "хлеб"]


# --------------------------------------------------------------------------- the unicode tokenizer


def test_words_tokenizer_cuts_words_at_combining_marks_and_keeps_a_chinese_clause_whole():
    # What "words" (the default, unchanged) does, and why "unicode" exists: a Devanagari vowel
    # sign (category Mc/Mn) ends a "word", a Chinese clause is one "word".
    words = Preprocessor(stopwords=[], stem=False)
    assert words.tokens("राजधानी") == ["र", "जध", "न"]
    assert words.tokens("面包师每天早上来到面包店") == ["面包师每天早上来到面包店"]


def test_unicode_tokenizer_keeps_combining_marks_in_their_word():
    p = Preprocessor(tokenizer="unicode", stopwords=[], stem=False)
    # Hindi "the capital New Delhi": three words, each with its vowel signs and virama.
    assert p.tokens("राजधानी नई दिल्ली") == ["राजधानी", "नई", "दिल्ली"]
    # Arabic with its vowel marks (harakat): two words.
    assert p.tokens("مُحَمَّدٌ رَسُولُ") == ["مُحَمَّدٌ", "رَسُولُ"]
    # Thai written with spaces between words: each word whole (a vowel sign inside it).
    assert p.tokens("ภาษา ไทย") == ["ภาษา", "ไทย"]


def test_unicode_tokenizer_reads_decomposed_accents_as_the_composed_letter():
    import unicodedata

    p = Preprocessor(tokenizer="unicode", stopwords=[], stem=False)
    decomposed = unicodedata.normalize("NFD", "Der Bäcker formt Brötchen")
    assert decomposed != "Der Bäcker formt Brötchen"
    assert p.tokens(decomposed) == ["der", "bäcker", "formt", "brötchen"]


def test_unicode_tokenizer_gives_chinese_and_japanese_runs_their_character_bigrams():
    p = Preprocessor(tokenizer="unicode", stopwords=[], stem=False)
    # By hand: overlapping pairs of the run; punctuation ends a run; a lone character is a term.
    assert p.tokens("天气预报，雨。") == ["天气", "气预", "预报", "雨"]
    # Latin letters next to Han characters are a word of their own.
    assert p.tokens("iPhone手机") == ["iphone", "手机"]
    # Katakana with its prolonged sound mark (U+30FC) and Hiragana are part of the run.
    assert p.tokens("サッカーを見る") == ["サッ", "ッカ", "カー", "ーを", "を見", "見る"]


def test_unicode_tokenizer_agrees_with_words_on_english():
    from stability.demo import demo_corpus

    words, unicode = Preprocessor(), Preprocessor(tokenizer="unicode")
    for document in demo_corpus(n_documents=3):
        for unit in document.units:
            assert unicode.terms(unit) == words.terms(unit)


def test_c99_finds_chinese_topics_with_the_unicode_tokenizer():
    # Two topics written for this test (bread at a bakery, then a football match), three
    # sentences each. With "words" every sentence is one or two clause-long "words" that no other
    # sentence shares: C99 sees no similarity at all and places no boundary.
    units = [
        "面包师每天早上四点来到面包店。", "面包师用面粉和水揉面团，面团要发酵两个小时。",
        "面包店里都是新鲜面包的香味。", "星期六足球队和联赛第一名的球队比赛。",
        "足球队的前锋踢进了第一个球。", "下半场球队靠点球扳平了比分，球迷很高兴。",
    ]
    assert C99(stopwords=[])(units) == []
    assert C99(tokenizer="unicode", stopwords=[], stem=False)(units) == [3]
    assert U00(n_segments=2, tokenizer="unicode", stopwords=[], stem=False)(units) == [3]


# --------------------------------------------------------------------------- TextTiling's tokenizer

#: Written for these tests: a Russian document of two topics, ten sentences each (a bakery's day,
#: then a football match), long enough for TextTiling's default blocks; and a few Russian function
#: words.
RUSSIAN_LONG = [
    "Пекарь приходит в пекарню каждое утро в четыре часа, когда город ещё спит.",
    "Сначала пекарь взвешивает муку, воду, соль и дрожжи для нового теста.",
    "Потом он долго месит тесто руками, пока тесто не станет гладким и мягким.",
    "Тесто два часа стоит в тёплом углу пекарни и медленно поднимается.",
    "Тем временем пекарь растапливает большую печь сухими дровами.",
    "Из поднявшегося теста пекарь делает круглые караваи хлеба и сладкие булки.",
    "В горячей печи хлеб за час покрывается тёмной хрустящей коркой.",
    "Запах свежего хлеба из пекарни разносится по всей улице.",
    "В шесть часов пекарня открывается, и первые покупатели берут тёплый хлеб и булки.",
    "Вечером пекарь замешивает закваску, чтобы утром снова печь хлеб.",
    "В субботу футбольная команда нашего города играла дома против лидера чемпионата.",
    "Стадион был полон, и болельщики команды пели песни с первой минуты матча.",
    "На десятой минуте молодой нападающий команды забил первый гол после навеса с фланга.",
    "Гости отвечали длинными передачами вперёд, но защитники команды играли надёжно.",
    "Перед перерывом лидер сравнял счёт с пенальти, и болельщики освистали судью.",
    "Во втором тайме тренер выпустил двух свежих полузащитников.",
    "На восьмидесятой минуте капитан команды головой забил второй гол после углового.",
    "После финального свистка болельщики долго аплодировали футболистам на стадионе.",
    "Тренер похвалил игроков за характер, но напомнил, что чемпионат ещё длинный.",
    "В следующем матче команда сыграет на выезде с соперником из столицы.",
]
RUSSIAN_STOPWORDS = "в и с по для что как он она они это его её их из к у о за от до но же а то не ни бы ли уже так все всё когда пока тем на".split()


def test_texttiling_reads_russian_with_the_unicode_tokenizer():
    # Before, TextTiling read only a-z (as nltk): no Russian word at all, so no boundary on any
    # Russian text. With tokenizer="unicode" (and nothing else changed) it finds the topic change.
    assert TextTiling(stopwords=RUSSIAN_STOPWORDS)(RUSSIAN_LONG) == []
    unicode = TextTiling(tokenizer="unicode", stopwords=RUSSIAN_STOPWORDS)
    assert unicode(RUSSIAN_LONG) == [10]
    assert TextTiling(tokenizer="unicode", stopwords=RUSSIAN_STOPWORDS, stem="russian")(RUSSIAN_LONG) == [10]
    # The terms the engine's warning reads are those TextTiling compares: the unicode tokens
    # without the stopwords (the preprocessing of C99 with the same keys), stemmed when asked.
    reference = Preprocessor(tokenizer="unicode", stopwords=RUSSIAN_STOPWORDS, stem=False)
    assert unicode.unit_terms(RUSSIAN_LONG) == [reference.terms(unit) for unit in RUSSIAN_LONG]
    assert TextTiling(tokenizer="unicode", stopwords=[], stem="russian").unit_terms(["Хлебом хлеба"]) == [["хлеб", "хлеб"]]
    assert TextTiling().unit_terms(["Хлебом хлеба"]) == [[]]
    assert unit_terms_problem(TextTiling(), RUSSIAN_LONG).startswith("20 of 20 non-empty units share no term")
    assert unit_terms_problem(unicode, RUSSIAN_LONG) is None


@pytest.mark.parametrize("params", [
    {"tokenizer": "unicode", "stopwords": RUSSIAN_STOPWORDS, "stem": "russian"},
    {"tokenizer": "unicode", "stopwords": [], "w": 6, "k": 3},
    {"tokenizer": "words", "similarity_method": "vocabulary_introduction", "w": 8},
    {"stem": True, "w": 10, "k": 4},
])
def test_texttiling_restart_paths_agree_with_other_tokenizers(params):
    # The plain call, the restart path and the batched path give the same boundaries (the
    # contract's checks, on its documents and on these, Chinese read as character pairs).
    documents = [RUSSIAN_LONG, [unit.upper() for unit in RUSSIAN_LONG], CHINESE[0] * 3 + CHINESE[1] * 3]
    check_segmenter(TextTiling(**params), documents=documents, checks=["fast_path", "batch_path", "prepared_state"])


# --------------------------------------------------------------------------- stopword lists

NLTK_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "nltk_data"


def _fresh_nltk_stopwords(monkeypatch, path):
    """nltk's stopword corpus as if never loaded, searched on ``path`` only."""
    import nltk
    from nltk.corpus.reader import WordListCorpusReader
    from nltk.corpus.util import LazyCorpusLoader

    monkeypatch.setattr(nltk.data, "path", [str(path)])
    monkeypatch.setattr(nltk.corpus, "stopwords",
                        LazyCorpusLoader("stopwords", WordListCorpusReader, r"(?!README|\.).*", encoding="utf8"))


@pytest.mark.skipif(not (NLTK_DATA / "corpora" / "stopwords" / "german").exists(), reason="../shared nltk data absent")
def test_stopwords_name_an_nltk_list(monkeypatch):
    # Before, a string was refused: a German user had to paste the list into the config.
    _fresh_nltk_stopwords(monkeypatch, NLTK_DATA)
    german = (NLTK_DATA / "corpora" / "stopwords" / "german").read_text(encoding="utf-8").split()
    c99 = C99(stopwords="nltk:german", stem=False)
    assert c99.get_params()["stopwords"] == "nltk:german"  # recorded by name, not as letters
    assert c99._preprocessor.stopwords == frozenset(german)
    assert c99._preprocessor.terms("Der Teig und das Brot") == ["teig", "brot"]
    with pytest.raises(InvalidParameterError, match=r"stopwords must be 'nltk:' and one of .*german.*; received 'nltk:klingon'"):
        U00(stopwords="nltk:klingon")


def test_stopwords_from_nltk_say_how_to_download_them(monkeypatch, tmp_path):
    _fresh_nltk_stopwords(monkeypatch, tmp_path)  # nothing installed there
    with pytest.raises(InvalidParameterError, match=r"stopwords='nltk:german' .* not installed: .*nltk.downloader stopwords"):
        C99(stopwords="nltk:german")


def test_a_single_string_of_stopwords_is_still_refused():
    with pytest.raises(InvalidParameterError, match=r"stopwords must be a list of words, 'nltk:<language>' .*; received 'der'"):
        Preprocessor(stopwords="der")


# --------------------------------------------------------------------------- the warning

#: Written for these tests: two Chinese documents of two topics each (bread, football; trains,
#: weather), three sentences a topic, and one Russian document (bread, football).
CHINESE = [
    ["面包师每天早上四点来到面包店。", "面包师用面粉和水揉面团，面团要发酵两个小时。", "面包店里都是新鲜面包的香味。",
     "星期六足球队和联赛第一名的球队比赛。", "足球队的前锋踢进了第一个球。", "下半场球队靠点球扳平了比分，球迷很高兴。"],
    ["每天有几千列火车在车站之间行驶。", "高速列车从北京到上海只要四个半小时。", "火车晚点的时候，乘客赶不上换乘的列车。",
     "气象台预报周末会有强烈的雷雨。", "下午可能会下冰雹和大雨。", "下雨以后气温会下降十度。"],
]
RUSSIAN = ["Пекарь приходит в пекарню в четыре часа.", "Пекарь замешивает тесто для хлеба.",
           "Вся пекарня пахнет свежим хлебом.", "Футбольная команда играла в субботу.",
           "Нападающий команды забил первый гол.", "Болельщики команды праздновали ничью."]


def _segmenter_warnings(caught):
    return [str(w.message) for w in caught if issubclass(w.category, SegmenterWarning)]


def test_a_segmenter_that_sees_no_shared_term_is_warned_about_once():
    # Before, C99 on Chinese text read with the default tokenizer placed no boundary, scored 0 and
    # said nothing: every sentence is one or two clause-long "words" no other sentence shares.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate({"c99": "c99", "tt": "texttiling"}, CHINESE, n_restarts=2, progress=False)
    said = _segmenter_warnings(caught)
    assert len(said) == 2  # once per segmenter, not once per document
    assert said[0].startswith("c99 on document '0': 6 of 6 non-empty units share no term with another unit "
                              "(the same on 1 more document(s): '1'), ")
    assert "tokenizer, stopwords, stem" in said[0]
    # TextTiling keeps only the letters a-z, as nltk does: no unit has a term.
    assert said[1].startswith("tt on document '0': 6 of 6 non-empty units share no term with another unit (6 have no term)")


def test_one_unit_without_a_term_is_said_in_the_singular():
    # "2 of 2 non-empty units share no term with another unit (1 have no term)"
    from stability.segmenter import unit_terms_problem

    said = unit_terms_problem(C99(), ["One.", "A baker bakes bread."])
    assert said == "2 of 2 non-empty units share no term with another unit (1 has no term)"


def test_a_corpus_of_several_languages_names_each_problem_of_a_segmenter():
    """The one warning a segmenter got went to the first document with a problem: in a corpus of
    German then Chinese documents, C99's English stopwords on the German one, and nothing said of
    the Chinese ones, on which it sees no shared term (U00 then scored 1.00 there, first, unflagged)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate({"c99": "c99"}, [GERMAN, GERMAN[::-1], *CHINESE], n_restarts=2, progress=False)
    said = _segmenter_warnings(caught)
    assert len(said) == 2, said
    assert said[0].startswith("c99 on document '0': 8 of the 237 words of the document (3%) are in its English "
                              "stopword list (English prose: a third to a half) (the same on 1 more document(s): '1')")
    assert said[1].startswith("c99 on document '2': 6 of 6 non-empty units share no term with another unit (the same "
                              "on 1 more document(s): '3')")
    assert "the layout control does" in said[1] and "the results mark the document term-blind, with a headline of 0" in said[1]


def test_texttiling_on_russian_is_warned_about_and_c99_set_for_the_language_is_not():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        stability_test("texttiling", RUSSIAN, n_restarts=2)
        stability_test(C99(stem="russian"), RUSSIAN, n_restarts=2)
        evaluate({"c99": C99(tokenizer="unicode", stopwords=[], stem=False)}, CHINESE, n_restarts=2, progress=False)
        stability_test(TextTiling(tokenizer="unicode", stopwords=[]), RUSSIAN, n_restarts=2)
    said = _segmenter_warnings(caught)
    assert len(said) == 1 and said[0].startswith("texttiling: 6 of 6 non-empty units")


def test_english_documents_are_not_warned_about():
    # The demo corpus. Run by hand when this warning was added: none either on Choi's sets 1-2
    # (3-11), Elements and Wiki-50 but one 10-unit article of it (TextTiling, 6 units without a
    # shared term: true of that short article).
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate({name: name for name in ("c99", "u00", "texttiling", "embedding", "cluster")},
                 demo_corpus(n_documents=4), n_restarts=2, progress=False)
    assert _segmenter_warnings(caught) == []


#: Written for these tests: a German document of two topics (a bakery's day, a football match).
GERMAN = [
    "Der Bäcker beginnt seine Arbeit jeden Morgen um vier Uhr.",
    "Zuerst wiegt er Mehl, Wasser, Salz und Hefe ab und knetet daraus einen glatten Teig.",
    "Der Teig muss danach zwei Stunden an einem warmen Ort ruhen, damit er aufgeht.",
    "Inzwischen heizt der Bäcker den großen Ofen an, der mit Holz befeuert wird.",
    "Wenn der Teig sein Volumen verdoppelt hat, formt er daraus Brote und Brötchen.",
    "Im heißen Ofen bekommen die Brote in einer knappen Stunde ihre dunkle, knusprige Kruste.",
    "Der Duft von frischem Brot zieht dann durch die ganze Gasse.",
    "Um sechs Uhr öffnet die Bäckerei, und die ersten Kunden stehen schon vor der Tür.",
    "Am Nachmittag ist meistens alles verkauft, und der Bäcker bereitet den Sauerteig für den nächsten Tag vor.",
    "Die Mannschaft aus der Hauptstadt gewann am Samstag ihr Heimspiel gegen den Tabellenführer.",
    "Vor ausverkauftem Stadion traf der junge Stürmer schon nach zehn Minuten zur Führung.",
    "Die Gäste antworteten mit langen Bällen in die Spitze, doch die Verteidigung der Mannschaft stand sicher.",
    "Kurz vor der Pause glich der Tabellenführer durch einen umstrittenen Elfmeter aus.",
    "In der zweiten Halbzeit drückte die Mannschaft auf das zweite Tor.",
    "Der Trainer brachte zwei frische Spieler für das Mittelfeld.",
    "In der achtzigsten Minute köpfte der Kapitän nach einer Ecke den Ball zum Siegtreffer ins Netz.",
    "Nach dem Abpfiff feierten die Fans ihre Mannschaft noch lange im Stadion.",
    "Der Trainer lobte die Moral seiner Spieler, warnte aber vor zu großer Euphorie.",
]
#: German function words, written for these tests.
GERMAN_STOPWORDS = ("der die das den dem des ein eine einer einen einem und oder aber doch mit von vor nach zu zum "
                    "in im an am auf aus um für durch er sie es ihr ihre sein seine seiner daraus damit dann danach "
                    "noch schon sehr zwei alles ist hat muss wird wenn gegen ins").split()


def test_german_read_with_english_stopwords_is_warned_about_once_per_segmenter():
    # Before, nothing warned: with the English default list German units keep their function
    # words (der, die, und) as terms, so they share terms and the units' check saw no problem.
    segmenters = {"c99": "c99", "u00": "u00", "tt": "texttiling", "tt_unicode": TextTiling(tokenizer="unicode")}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate(segmenters, [GERMAN, GERMAN[::-1]], n_restarts=2, progress=False)
    said = _segmenter_warnings(caught)
    assert [message.split(" ", 1)[0] for message in said] == list(segmenters)  # once each
    assert all(" are in its English stopword list (English prose: a third to a half)" in m for m in said)
    assert 'stopwords="nltk:german"' in said[0] and 'stem="german"' in said[0]
    # Counted by hand (237 words between spaces), of which am (twice), an (twice) and in (four
    # times) are English stopwords.
    assert said[0].startswith("c99 on document '0': 8 of the 237 words of the document (3%) are in")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate({"c99": C99(stopwords=GERMAN_STOPWORDS, stem="german"),
                  "tt": TextTiling(tokenizer="unicode", stopwords=GERMAN_STOPWORDS, stem="german")},
                 [GERMAN], n_restarts=2, progress=False)
    assert _segmenter_warnings(caught) == []


def test_stopwords_problem_judges_only_long_documents_and_english_lists():
    assert stopwords_problem(C99(), GERMAN[:8]) is None  # 103 words: too few to judge
    assert stopwords_problem(C99(stopwords=GERMAN_STOPWORDS), GERMAN) is None  # the user's own list
    assert stopwords_problem(C99(stopwords=[]), GERMAN) is None
    # TextTiling's a-z reading drops the other letters (bäcker is bcker): the same 237 words
    assert stopwords_problem(TextTiling(), GERMAN).startswith("8 of the 237 words")


@pytest.mark.parametrize("corpus", ["wiki50", "elements", "choi"])
def test_english_corpora_hold_their_share_of_english_stopwords(corpus):
    # Every document of the English corpora of ../shared: none near the line of the warning.
    from stability.readers import read_corpus

    path = {"wiki50": ("wiki50", "wiki"), "elements": ("elements", "chen"), "choi": ("choi/1/3-11", "choi")}[corpus]
    folder = NLTK_DATA.parents[1] / "data" / path[0]
    if not folder.exists():
        pytest.skip("../shared data absent")
    for document in read_corpus(folder, format=path[1]):
        for segmenter in (C99(), TextTiling()):
            language, stop, tokens = segmenter.stopword_use(document.units)
            assert stop >= 2.5 * STOPWORD_SHARE_MIN * tokens, (document.id, stop, tokens)


class _TermsInWorkers:
    """A segmenter whose units share no term; reading them in the main process is an error (the
    engine's workers read them, with the first segmentation)."""

    def __init__(self) -> None:
        self.main = os.getpid()

    def __call__(self, units):
        return [len(units) // 2]

    def unit_terms(self, units):
        if os.getpid() == self.main:
            raise RuntimeError("unit terms read in the main process")
        return [[f"term{i}"] for i in range(len(units))]


def test_with_several_jobs_the_units_are_judged_in_the_workers_and_the_first_document_named():
    # Before, the main process read every unit of every document (about 1.4 ms a Choi document,
    # a third of its work in a TextTiling run on 16 cores) before handing the pairs out.
    documents = [{"id": f"doc{i}", "units": [f"unit {i} {j}" for j in range(12)]} for i in range(6)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = evaluate({"odd": _TermsInWorkers()}, documents, n_restarts=2, n_jobs=2, progress=False)
    assert not out.failures
    said = _segmenter_warnings(caught)
    assert len(said) == 1 and said[0].startswith("odd on document 'doc0': 12 of 12 non-empty units share no term")


def test_the_turkish_capital_dotted_i_reads_as_i():
    """`str.lower` makes `İ` an `i` and a combining dot: the default tokenizer read `İstanbul` as
    the words `i` and `stanbul` (the `i` then dropped as an English stopword), and no tokenizer
    matched it with `istanbul`."""
    from segmenters.preprocessing import Preprocessor

    for tokenizer in ("words", "unicode"):
        assert Preprocessor(tokenizer=tokenizer).tokens("İstanbul istanbul") == ["istanbul", "istanbul"], tokenizer


# --------------------------------------------------------------------------- term-blind results

#: Written for these tests (by a helper following "Documents not in English"): a Chinese document
#: of four topics, eight sentences each (bread, football, astronomy, trains).
CHINESE_FOUR = [
    "面包师每天早上三点起床。", "他用面粉、水、盐和酵母揉面团。", "面团需要发酵两个小时。", "好面包需要时间和耐心。",
    "在烤箱里，面包烤出金黄的外皮。", "面包师用手指敲面包的外皮！", "面包声音空洞就说明烤好了。", "他把面包卖给附近的顾客。",
    "球队星期六对阵联赛第一名。", "教练整个星期都在训练球员。", "守门员在训练中扑出每一个点球。", "球迷们已经在买体育场的门票。",
    "比赛中，前锋在第十分钟打进第一个进球。", "裁判为什么判了点球？", "守门员稳稳地接住了球。", "最后球队以两球优势获胜。",
    "天文学家晚上用大望远镜观测星星。", "她测量遥远星系的光。", "有些星星离我们几百万光年。", "望远镜在智利的一座高山上。",
    "二十世纪天文学家发现了许多新行星。", "今天人们知道其他恒星周围有几千颗行星。", "其中一些行星可能有水。", "天文学家寻找可能有生命的行星。",
    "去上海的火车八点从中央火车站出发。", "旅客们带着行李在站台上等车。", "列车员在火车上检查车票。", "旅程大约需要四个小时。",
    "铁路从十九世纪起连接各大城市。", "王先生每个星期坐火车去上班。", "他在火车上看报纸，喝咖啡。", "到了上海火车站，他下车换乘电车。",
]


def _term_blind_run():
    from stability.corpus import Document

    doc = Document("zh", CHINESE_FOUR, references=[(8, 16, 24)])
    set_for_chinese = C99(tokenizer="unicode", stopwords=[], stem=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SegmenterWarning)
        return evaluate({"u00": "u00", "c99": set_for_chinese}, [doc], n_restarts=10, progress=False)


def test_a_segmenter_that_sees_no_shared_term_is_flagged_in_the_results_and_not_ranked():
    """U00 with its defaults reads each Chinese sentence as one or two clause-long words that no
    other sentence shares: its boundaries follow the sentences' lengths, which the shuffle control
    does not see. Before, its headline of 1.00 ranked it first, unflagged, in every report (finding
    none of the topic changes: F1 against the reference 0); only a warning on stderr said why. Its
    headline there is now 0, as a content-blind segmenter's."""
    from stability.reporting.corpus import ranked_line, summary_table
    from stability.scores import count_corrected_f1

    result = _term_blind_run()
    u00, c99 = result.documents["u00"][0], result.documents["c99"][0]
    # what made it look best: its stability beyond the shuffle control and chance, finding nothing
    assert count_corrected_f1(u00.f1, u00.shuffle_f1, u00.chance_f1, u00.n_boundaries) == 1.0
    assert u00.reference_metrics["f1"] == 0.0
    assert u00.count_corrected == 0.0 and u00.headline_ci == (0.0, 0.0) and c99.count_corrected > 0.9
    assert u00.term_blind == "32 of 32 non-empty units share no term with another unit"
    assert repr(u00).endswith("content_blind=False, term_blind=True)") and "term_blind" not in repr(c99)
    assert c99.term_blind is None
    summary = result.summary["u00"]
    assert summary.term_blind and summary.term_blind_share == 1.0 and not result.summary["c99"].term_blind
    line = ranked_line(result)
    assert line.endswith(": c99 0.92 n/a; u00: term-blind"), line
    assert result.comparison()["u00"] is None  # no score of agreement, and no vote
    header, rows = summary_table(result)
    assert [dict(zip(header, row))["term_blind"] for row in rows] == [True, False]


def test_the_term_blind_flag_survives_the_results_file_and_shows_in_every_report(tmp_path):
    from stability import load_results
    from stability.reporting import render, write_reports

    result = _term_blind_run()
    write_reports(result, tmp_path, ["json"])
    again = load_results(tmp_path / "report.json")
    assert again.documents["u00"][0].term_blind == result.documents["u00"][0].term_blind
    assert again.summary["u00"].term_blind and "term_blind" not in again.documents["c99"][0].to_dict()
    for format in ("md", "table", "html"):
        text = render(again, format, documents=True)
        assert "term-blind: the segmenter saw next to no term shared between the units" in text, format
        assert "u00 on 1 of 1 document" in text, format
        assert text.count("term-blind") >= 4, format  # the note, the summary's and the document's flags, the ranking


def test_a_document_a_segmenter_is_term_blind_on_gets_no_credit_in_a_corpus_it_mostly_reads():
    """One German document (which U00 reads, its terms shared) and one Chinese (which it cannot):
    U00 is term-blind on half of the documents, not most, so it is ranked, with no stability
    credited for the Chinese one (its 1.00 there made its mean the best before)."""
    from stability.corpus import Document
    from stability.reporting.corpus import ranked_line
    from stability.study.sensitivity import headline_at

    docs = [Document("de", GERMAN), Document("zh", CHINESE_FOUR)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SegmenterWarning)
        result = evaluate({"u00": "u00"}, docs, n_restarts=10, progress=False)
    german, chinese = result.documents["u00"]
    assert german.term_blind is None and chinese.term_blind is not None
    assert chinese.count_corrected == 0.0 == headline_at(chinese)
    summary = result.summary["u00"]
    assert summary.term_blind_share == 0.5 and not summary.term_blind
    assert summary.macro["count_corrected"].mean == pytest.approx(german.count_corrected / 2)
    assert ranked_line(result).split(": ", 1)[1].startswith("u00 ")


def test_the_validation_study_says_what_term_blind_means_and_that_such_a_configuration_has_no_vote(tmp_path):
    """`stability validate` on annotated Chinese documents flagged U00 with its defaults
    `term-blind` in its tables, but explained only `content-blind` under them, and its
    ×agreement section said every configuration not told the reference count votes, where
    term-blind ones (and layout-only ones) have no vote (`stability.comparison.is_voter`)."""
    import json

    from typer.testing import CliRunner

    from stability.cli import app

    blocks = [CHINESE_FOUR[i:i + 8] for i in range(0, 32, 8)]
    with open(tmp_path / "zh.jsonl", "w", encoding="utf-8") as out:
        for n, order in enumerate([(0, 1, 2, 3), (1, 3, 0, 2), (2, 0, 3, 1)]):
            doc = {"id": f"zh{n}", "units": [u for b in order for u in blocks[b]], "boundaries": [8, 16, 24]}
            out.write(json.dumps(doc, ensure_ascii=False) + "\n")
    config = tmp_path / "zh.toml"
    config.write_text('[corpus.zh]\npath = "zh.jsonl"\n[segmenters.u00]\n'
                      '[segmenters.c99_zh]\nsegmenter = "c99"\ntokenizer = "unicode"\nstopwords = []\nstem = false\n'
                      '[segmenters.u00_zh]\nsegmenter = "u00"\ntokenizer = "unicode"\nstopwords = []\nstem = false\n'
                      '[segmenters.none]\n[run]\nn_restarts = 3\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(config), "--out", str(tmp_path / "cache"), "--docs",
                                      str(tmp_path / "docs"), "--bootstrap", "40", "--comparison", "--no-progress"])
    assert result.exit_code == 0, result.output
    report = (tmp_path / "docs" / "validation.md").read_text(encoding="utf-8")
    assert "| u00 | u00 | (defaults) | term-blind |" in report
    assert ("`term-blind`: the segmenter saw next to no term shared between the units of a document (fewer than 10% "
            "of them share a term with another unit, as it reads them; u00 on 3 of 3 documents), so its boundaries "
            "there cannot follow the topics") in report
    assert "A configuration is flagged term-blind when more than 50% of its documents are" in report
    assert "not told the reference count nor flagged layout-only or term-blind" in report


def test_embedding_and_cluster_take_their_encoders_preprocessing_as_a_table(tmp_path):
    """`embedding` and `cluster` read text through their LSA encoder, whose preprocessing is
    English by default: on Chinese text both were term-blind, and nothing a config or `-s` can
    write set it (`embed` took a Python callable only; `tokenizer` is not theirs), while the
    term-blind note told the user to set it. A table of LSAEncoder's keys now builds the encoder."""
    from typer.testing import CliRunner

    from segmenters.cluster import Cluster
    from segmenters.embedding import Embedding, LSAEncoder
    from stability import load_results
    from stability.cli import app
    from stability.corpus import Document
    from stability.readers import write_jsonl

    set_for_chinese = {"tokenizer": "unicode", "stopwords": [], "stem": False}
    assert Cluster(embed=set_for_chinese).embed == LSAEncoder(n_components=5, **set_for_chinese)
    assert Embedding(embed=set_for_chinese).embed == LSAEncoder(**set_for_chinese)
    assert Embedding().embed == LSAEncoder() and Cluster().embed == LSAEncoder(n_components=5)
    with pytest.raises(InvalidParameterError, match="table of the default LSAEncoder's keys .*without 'tokeniser'"):
        Embedding(embed={"tokeniser": "unicode"})

    write_jsonl([Document("zh", CHINESE_FOUR, references=[(8, 16, 24)])], tmp_path / "zh.jsonl")
    table = '{ tokenizer = "unicode", stopwords = [], stem = false }'
    config = tmp_path / "zh.toml"
    config.write_text(f'[corpus]\npath = "zh.jsonl"\n[segmenters.embedding]\n[segmenters.cluster]\n'
                      f'[segmenters.embedding_zh]\nsegmenter = "embedding"\nembed = {table}\n'
                      f'[segmenters.cluster_zh]\nsegmenter = "cluster"\nembed = {table}\n'
                      '[run]\nn_restarts = 5\n', encoding="utf-8")
    run = CliRunner().invoke(app, ["run", str(config), "--out", str(tmp_path / "out"), "--no-progress"])
    assert run.exit_code == 0, run.output
    result = load_results(tmp_path / "out")
    assert {label: s.term_blind for label, s in result.summary.items()} == {
        "embedding": True, "cluster": True, "embedding_zh": False, "cluster_zh": False}
    assert result.summary["embedding_zh"].reference["pk"].mean < result.summary["embedding"].reference["pk"].mean
    again = CliRunner().invoke(app, ["run", str(config), "--out", str(tmp_path / "out"), "--resume", "--no-progress"])
    assert again.exit_code == 0, again.output  # the table's encoder is recorded as the same parameters


class _Words:
    """A segmenter comparing the words of its units (a boundary before each unit sharing no word
    with the one before), telling its terms as the built-in ones do."""

    def unit_terms(self, units):
        return [unit.split() for unit in units]

    def __call__(self, units):
        terms = self.unit_terms(units)
        return [i for i in range(1, len(units)) if not set(terms[i]) & set(terms[i - 1])]


def test_a_segmenter_that_sees_little_is_warned_about_and_one_that_sees_next_to_nothing_is_term_blind():
    """Short English text with little repetition (Wiki-50's shortest article: TextTiling links 4
    of 10 sentences; short utterances of a dialogue) is only warned about: the segmenter sees
    little, not nothing, and keeps its headline. Term-blind (headline 0) is for next to no link:
    under TERM_BLIND_LINKED of the units, as in a language the preprocessing cannot read."""
    from stability.corpus import Document
    from stability.segmenter import TERM_BLIND_LINKED, unit_links

    little = ["oven bread", "bread rye", "goal match", "match fans", "storm", "rain", "snow", "ice", "hail", "fog"]
    nothing = ["oven", "rye", "goal", "fans", "storm", "rain", "snow", "ice", "hail", "fog"]
    assert unit_links(_Words(), little) == (4, 10, 0) and unit_links(_Words(), nothing) == (0, 10, 0)
    assert 0 < TERM_BLIND_LINKED < 0.4
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate({"words": _Words()}, [Document("little", little), Document("nothing", nothing)],
                          n_restarts=4, progress=False)
    said = _segmenter_warnings(caught)
    assert len(said) == 1 and said[0].startswith("words on document 'little': 6 of 10 non-empty units share no term "
                                                 "with another unit (the same on 1 more document(s): 'nothing')")
    seen, blind = result.documents["words"]
    assert seen.term_blind is None and blind.term_blind == "10 of 10 non-empty units share no term with another unit"
    assert blind.count_corrected == 0.0


class _LongerWords(_Words):
    """Blind to the content, not to the layout: a boundary before each unit longer than the one
    before; its units share no word, so it is term-blind, and its boundaries move with the order
    of the units' lengths."""

    def __call__(self, units):
        return [i for i in range(1, len(units)) if len(units[i]) > len(units[i - 1])]


def test_adaptive_stopping_on_the_headline_stops_at_the_first_check_where_the_segmenter_is_term_blind():
    """Its headline there is 0 whatever the restarts; adaptive stopping on the headline judged the
    raw interval from the restarts and ran up to n_restarts for nothing."""
    from stability.corpus import Document

    units = ["x" * (1 + (7 * i) % 11) + str(i) for i in range(40)]  # no two alike: no word shared
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SegmenterWarning)
        result = evaluate({"longer": _LongerWords()}, [Document("d", units)], n_restarts=60, ci_width=0.01,
                          ci_score="headline", min_restarts=10, check_every=10, progress=False)
    (doc,) = result.documents["longer"]
    assert doc.term_blind is not None and doc.count_corrected == 0.0
    assert doc.n_restarts == 10 and doc.stopped_early


def test_a_term_blind_document_has_no_credit_whatever_its_restarts_one_included():
    """Its headline is 0 and its interval (0, 0) over a single restart too, as the engine, a
    result read back and the study give them: when scores.no_credit became the one home of the
    rule, the interval fell behind the (nan, nan) of a single restart (whose bootstrap replicates
    are NaN), and adaptive stopping on the headline with min_restarts=1 no longer stopped at its
    first check (6 restarts, not 1). A document without boundaries follows the same rule (its
    interval over one restart was (nan, nan) before the rule had one home)."""
    import math

    from stability.outcome import stored_headline_interval
    from stability.scores import headline_interval

    nan = np.full(1, np.nan)  # the replicates of one restart
    assert headline_interval(nan, nan, 0.1, 3, term_blind=True) == (0.0, 0.0)
    assert all(math.isnan(x) for x in headline_interval(nan, nan, 0.1, 3))  # credited: no interval from one
    assert headline_interval(nan, nan, 0.1, 0) == (0.0, 0.0)  # no boundary: the same rule, its headline is 0
    units = ["x" * (1 + (7 * i) % 11) + str(i) for i in range(40)]  # no two alike: no word shared
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SegmenterWarning)
        one = stability_test(_LongerWords(), units, n_restarts=1)
        adaptive = stability_test(_LongerWords(), units, n_restarts=30, ci_width=0.01, ci_score="headline",
                                  min_restarts=1, check_every=5)
    assert one.term_blind is not None and one.count_corrected == 0.0 and one.headline_ci == (0.0, 0.0)
    assert stored_headline_interval(one, 0.95, 200) == (0.0, 0.0)
    assert adaptive.n_restarts == 1 and adaptive.stopped_early and adaptive.headline_ci == (0.0, 0.0)


# --------------------------------------------------------------------------- term-blind on resume

#: German (read with English stopwords: warned about) and Chinese (term-blind) documents: a run of
#: U00 and C99 with their defaults says both kinds of warning and marks two of three documents.
def _mixed_languages():
    from stability.corpus import Document

    return [Document("de", GERMAN), Document("zh", CHINESE_FOUR), Document("zh2", CHINESE_FOUR[::-1])]


def _evaluate_to(output, **keywords):
    """The run of U00 and C99 on :func:`_mixed_languages`, its results in ``output``, and the
    SegmenterWarnings it said, whole."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate({"u00": "u00", "c99": "c99"}, _mixed_languages(), n_restarts=4, progress=False,
                          output=output, **keywords)
    return result, _segmenter_warnings(caught)


def test_a_resume_with_nothing_left_to_compute_says_the_warnings_of_the_run(tmp_path):
    """`stability run --out DIR --resume` of a run that had finished said no SegmenterWarning,
    while its report said U00 was term-blind on two documents: the warnings were said only by the
    engine, after the first segmentations, and a resume reused every pair. The terms check is now
    made again on the pairs a resume reuses (it reads the segmenter's terms, not its boundaries),
    and the same warnings said."""
    fresh, said = _evaluate_to(tmp_path / "results.jsonl")
    assert [line.split(":")[0] for line in said] == ["u00 on document 'de'", "c99 on document 'de'",
                                                     "u00 on document 'zh'", "c99 on document 'zh'"]
    resumed, again = _evaluate_to(tmp_path / "results.jsonl", resume=True)
    assert again == said
    assert resumed.summary["u00"].term_blind_share == fresh.summary["u00"].term_blind_share == 2 / 3
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 1 + 6  # nothing written again


def _as_written_before_the_mark(path, keep):
    """The results file at ``path`` as a run of a version without the term-blind mark wrote it,
    cut after its first ``keep`` records (an interrupted run): no ``term_blind`` key, and the
    headline interval of a document whose stability is credited."""
    import json
    from dataclasses import replace

    from stability.outcome import stored_headline_interval
    from stability.results import StabilityResult

    header, *records = path.read_text(encoding="utf-8").splitlines()
    lines = [header]
    for line in records[:keep]:
        record = json.loads(line)
        result = StabilityResult.from_dict(record["result"])
        unmarked = replace(result, term_blind=None)
        unmarked = replace(unmarked, headline_ci=stored_headline_interval(unmarked, 0.95, 1000))
        record["result"] = unmarked.to_dict()
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_resume_marks_the_results_written_before_the_term_blind_mark_existed(tmp_path):
    """A results file written before the mark existed has no ``term_blind`` key, which read the
    same as "not term-blind": resuming it beside new results counted only the new ones (U00
    term-blind on 1 of 3 documents, not 2, and its headline on the first credited). The resume
    checks the terms of the results it reuses again, marks those the check finds term-blind as
    a fresh run marks them, and writes them again, so the file read back says it too."""
    import json

    from stability import load_results
    from stability.reporting import render

    fresh, _ = _evaluate_to(tmp_path / "fresh.jsonl")
    path = tmp_path / "results.jsonl"
    _evaluate_to(path)
    _as_written_before_the_mark(path, keep=4)  # U00 and C99 on 'de' and 'zh'
    before = load_results(path)
    assert before.documents["u00"][1].term_blind is None and before.documents["u00"][1].count_corrected > 0
    assert before.summary["u00"].term_blind_share == 0
    resumed, said = _evaluate_to(path, resume=True)
    assert resumed.summary["u00"].term_blind_share == 2 / 3 and resumed.summary["c99"].term_blind_share == 2 / 3
    zh = resumed.documents["u00"][1]
    assert zh.term_blind == fresh.documents["u00"][1].term_blind and zh.headline_ci == (0.0, 0.0)
    assert len(said) == 4
    def scores(result):
        report = json.loads(render(result, "json"))
        return {key: report[key] for key in ("summary", "documents", "failures")}

    for result in (resumed, load_results(path)):  # as the fresh run's, but for how it ran
        assert scores(result) == scores(fresh)
    assert len(path.read_text().splitlines()) == 1 + 4 + 2 + 2  # the two marked again, then 'zh2'
    _, again = _evaluate_to(path, resume=True)
    assert again == said and len(path.read_text().splitlines()) == 9  # marked once


def test_a_resume_unmarks_a_result_marked_under_an_older_threshold(tmp_path):
    """A result marked term-blind by an older rule (under half of the units linked, before the
    10% rule) that the check no longer finds term-blind: the resume's mark follows its check, as
    its warnings do, so the report reads as a fresh run's (it kept the stored mark: the German
    document's U00 headline 0 beside a warning that did not call it term-blind)."""
    import json
    from dataclasses import replace

    from stability import load_results
    from stability.outcome import stored_headline_interval
    from stability.reporting import render
    from stability.results import StabilityResult

    fresh, _ = _evaluate_to(tmp_path / "fresh.jsonl")
    path = tmp_path / "results.jsonl"
    _evaluate_to(path)
    header, *records = path.read_text(encoding="utf-8").splitlines()
    marked = []
    for line in records:
        record = json.loads(line)
        result = StabilityResult.from_dict(record["result"])
        if result.document == "de":  # as the older threshold marked it
            result = replace(result, term_blind="older rule")
            result = replace(result, headline_ci=stored_headline_interval(result, 0.95, 1000))
            record["result"] = result.to_dict()
        marked.append(json.dumps(record))
    path.write_text("\n".join([header, *marked]) + "\n", encoding="utf-8")
    assert load_results(path).documents["u00"][0].count_corrected == 0.0
    resumed, _ = _evaluate_to(path, resume=True)

    def scores(result):
        report = json.loads(render(result, "json"))
        return {key: report[key] for key in ("summary", "documents", "failures")}

    de = resumed.documents["u00"][0]
    assert de.term_blind is None and de.count_corrected == fresh.documents["u00"][0].count_corrected != 0
    for result in (resumed, load_results(path)):
        assert scores(result) == scores(fresh)


class _FailsOnceShuffled(_Words):
    """:class:`_Words`, failing on a unit order whose first unit is not the document's: in the
    shuffle control, after its first segmentations and the terms check."""

    def __call__(self, units):
        if units[0] != "oven":
            raise RuntimeError("not the first unit")
        return super().__call__(units)


def test_a_resume_warns_about_a_pair_that_failed_after_its_terms_were_checked(tmp_path):
    """A fresh run checks the terms of a pair that fails in its restarts, and warns about them;
    the resume, which keeps its failure, says so too. A failure before the first segmentation
    is not checked, by either."""
    from stability.corpus import Document

    nothing = ["oven", "rye", "goal", "fans", "storm", "rain", "snow", "ice", "hail", "fog"]
    docs = [Document("a", nothing), Document("b", ["bread", *nothing[1:]])]  # 'b' fails at once

    def run(**keywords):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = evaluate({"words": _FailsOnceShuffled()}, docs, n_restarts=4, progress=False,
                              output=tmp_path / "results.jsonl", **keywords)
        return result, _segmenter_warnings(caught)

    fresh, said = run()
    assert [(f.document, f.stream) for f in fresh.failures] == [("a", "shuffle"), ("b", None)]
    assert len(said) == 1 and said[0].startswith("words on document 'a': 10 of 10 non-empty units share no term")
    resumed, again = run(resume=True)
    assert again == said and len(resumed.failures) == 2


class _FailsShuffledUntil(_Words):
    """:class:`_Words`, failing in the shuffle control of the document whose first unit is
    ``oven`` until the file ``fixed`` exists (a failure that ``--retry-failed`` then computes)."""

    def __init__(self, fixed):
        self.fixed = fixed

    def __call__(self, units):
        if units[0] == "oven" and units[1] != "rye" and not os.path.exists(self.fixed):
            raise RuntimeError("not fixed yet")
        return super().__call__(units)


def _unlinked_documents():
    """Three documents of ten words, no word shared between units (term-blind for :class:`_Words`)."""
    from stability.corpus import Document

    nothing = ["oven", "rye", "goal", "fans", "storm", "rain", "snow", "ice", "hail", "fog"]
    return [Document(name, [first, *nothing[1:]]) for name, first in (("a", "oven"), ("b", "bake"), ("c", "cook"))]


def _recorded(segmenters, docs, path, **keywords):
    """The run of ``segmenters`` on ``docs`` with 3 restarts into ``path``, and the
    SegmenterWarnings it said."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(segmenters, docs, n_restarts=3, progress=False, output=path, **keywords)
    return result, _segmenter_warnings(caught)


@pytest.mark.parametrize("crash", [False, True])
def test_a_resume_retrying_a_failure_names_the_documents_in_corpus_order(tmp_path, crash):
    """With --retry-failed, the retried pair is computed again and the pairs after it reused: the
    resume warned about the reused ones first, so it named document 'b' (with 'a' and 'c' as the
    same on more documents) where the fresh run named 'a'. The findings are now said in corpus
    order, of the pairs reused and of those computed again alike (a recorded crash, computed
    again alone in a worker process, too)."""
    import json

    docs = _unlinked_documents()
    path, fixed = tmp_path / "results.jsonl", tmp_path / "fixed"

    def run(**keywords):
        return _recorded({"words": _FailsShuffledUntil(str(fixed))}, docs, path, **keywords)

    fresh, said = run()
    assert [(f.document, f.stream) for f in fresh.failures] == [("a", "shuffle")]
    assert len(said) == 1 and said[0].startswith("words on document 'a': 10 of 10 non-empty units share no term "
                                                 "with another unit (the same on 2 more document(s): 'b', 'c')")
    if crash:  # as a failure recorded when the segmenter ended its worker process
        header, *records = path.read_text(encoding="utf-8").splitlines()
        failure = json.loads(records[0])
        failure["failure"]["kind"] = "crash"
        path.write_text("\n".join([header, json.dumps(failure), *records[1:]]) + "\n", encoding="utf-8")
    fixed.touch()
    resumed, again = run(resume=True, retry_failed=True)
    assert not resumed.failures and again == said


class _TermsBreakAfter(_Words):
    """:class:`_Words` whose ``unit_terms`` raises once the file ``broken`` exists (a resume on a
    machine where the segmenter's preprocessing data is missing, say)."""

    def __init__(self, broken):
        self.broken = broken

    def unit_terms(self, units):
        if os.path.exists(self.broken):
            raise LookupError("stopword list missing")
        return super().unit_terms(units)


def test_a_resume_that_cannot_read_the_terms_again_says_so_once_per_segmenter(tmp_path):
    """The check a resume makes again on the pairs it reuses failing on every document said one
    warning a pair: a corpus of a thousand documents, a thousand warnings for one cause. It is now
    said once per segmenter, as the check's findings are, naming the first document and counting
    the others; the stored results are reused as the file holds them."""
    docs = _unlinked_documents()
    path, broken = tmp_path / "results.jsonl", tmp_path / "broken"

    def run(**keywords):
        return _recorded({"words": _TermsBreakAfter(str(broken)), "more": _TermsBreakAfter(str(broken))},
                         docs, path, **keywords)

    fresh, _ = run()
    broken.touch()
    resumed, said = run(resume=True)
    assert len(said) == 2, said
    assert said[0].startswith("words on document 'a': its terms could not be read again to check what a fresh run "
                              "checks (LookupError: stopword list missing) (the same on 2 more document(s): 'b', 'c')")
    assert said[1].startswith("more on document 'a': its terms could not be read again")
    assert resumed.to_dict()["documents"] == fresh.to_dict()["documents"]
