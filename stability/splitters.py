"""Sentence splitters: turn raw text into units, selectable by name or given as a callable.

A splitter is any callable ``text -> list[str]`` returning the sentences of ``text`` in order,
stripped and non-empty. :func:`get_splitter` resolves a name from the registry below (or passes a
callable through); :func:`stability.readers.read_text` takes the same value as its ``splitter``
option, so a config selects one with ``[corpus] splitter = "rules"``.

=================  ==========================================================================
name               what it does
=================  ==========================================================================
``auto``           the default: ``punkt`` when the corpus has at least
                   :data:`PUNKT_MIN_CHARACTERS` characters of text, ``rules`` otherwise
``punkt``          nltk's Punkt trained on the corpus itself (:class:`nltk.PunktTrainer`, no
                   download), its learnt abbreviations completed with :data:`ABBREVIATIONS`
``rules``          abbreviation-aware rules, no training: a ``.``, ``!`` or ``?`` followed by
                   space ends a sentence unless the next word starts in lower case, or the word
                   before the dot is a title (``Dr.``, ``Mr.``...), a common non-final
                   abbreviation (``e.g.``, ``vs.``...), a capital initial (``J.``) or a day
                   of a German date (``3. Oktober``: :data:`ORDINAL_MONTHS`)
``punkt_untrained`` nltk's Punkt with no parameters (the readers' default before the registry):
                   it knows no abbreviation and splits after ``Dr.``
``pysbd``          pySBD's rule-based English splitter; needs the ``sbd`` extra
                   (``pip install 'stability-harness[sbd]'``)
=================  ==========================================================================

Every built-in splitter also ends a sentence at the stops of other scripts (:data:`SCRIPT_ENDS`:
Chinese and Japanese ``。！？``, written without a space after them, Arabic ``؟``, Devanagari
``।``), which Punkt and the rules would not see (:func:`split_script_ends`).

Splitters that learn from the corpus (``auto``, ``punkt``) are built from the corpus text by
:func:`get_splitter` (``corpus=``); :func:`~stability.readers.read_text` reads the files once to
train them, then again to split.

Examples
--------
>>> split = get_splitter("auto")
>>> split("Dr. Smith went to Washington D.C. yesterday. He arrived at 5 p.m. on Monday.")
['Dr. Smith went to Washington D.C. yesterday.', 'He arrived at 5 p.m. on Monday.']
>>> get_splitter("rule")
Traceback (most recent call last):
...
stability.exceptions.InvalidParameterError: splitter must be a callable text -> list[str] or one of 'auto', 'punkt', 'rules', 'punkt_untrained', 'pysbd'; received 'rule'; did you mean 'rules'?
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Callable, Union

from .checks import did_you_mean
from .exceptions import InvalidParameterError, MissingDependencyError, _short_repr

__all__ = [
    "ABBREVIATIONS",
    "NON_FINAL",
    "NUMBER_PREFIXES",
    "ORDINAL_MONTHS",
    "TITLES",
    "PUNKT_MIN_CHARACTERS",
    "SCRIPT_ENDS",
    "SPLITTERS",
    "Splitter",
    "SplitterSpec",
    "available_splitters",
    "check_splitter",
    "ends_sentence",
    "get_splitter",
    "register_splitter",
    "split_script_ends",
]

Splitter = Callable[[str], list[str]]
SplitterOption = Union[str, Splitter, None]

#: Corpus size (characters of text) from which ``auto`` trains Punkt on the corpus. Punkt learns
#: abbreviations, collocations and sentence starters from counts of periods, so a few paragraphs
#: teach it little; below this size ``auto`` uses the rules. Measured on Wiki-50 (its 384 sections
#: joined into paragraphs and split again; sentence-end F1 against its one-sentence-per-line
#: files, themselves machine-split): Punkt trained on 5,000 to 386,000 characters of it scores
#: 0.975-0.978, the rules 0.978, untrained Punkt 0.974, pySBD 0.951. The measurement does not
#: separate the sizes; 50,000 characters (about 400 sentences) is a conservative floor.
PUNKT_MIN_CHARACTERS = 50_000

#: Abbreviations that rarely end a sentence (lower case, without the final dot). Titles come
#: before a name, the others before more of the sentence; number prefixes (``No. 5``, ``pp. 3``)
#: before a number. ``punkt`` adds them all to the abbreviations it learns.
TITLES = frozenset(
    "dr mr mrs ms mme mlle messrs prof rev hon gen col lt sgt capt cmdr adm gov sen rep pres st mt sr jr".split()
)
NON_FINAL = frozenset("e.g i.e cf viz vs approx ca a.m p.m".split())
NUMBER_PREFIXES = frozenset("no nos vol pp fig figs eq ch sec art".split())
ABBREVIATIONS = TITLES | NON_FINAL | NUMBER_PREFIXES
#: Months that follow a day written as an ordinal with a dot (``am 3. Oktober``), lower case: the
#: German names, capitalised as every German noun, so that the lower-case rule does not keep the
#: date whole (languages that write them in lower case, such as Danish ``3. oktober``, need no
#: list). English never writes a day so, and its sentences rarely begin with a month after a
#: number: on Wiki-50, Choi's sets and this project's documentation the rules split the same.
#: Other German ordinals (``im 20. Jahrhundert``) still end a sentence in the rules.
ORDINAL_MONTHS = frozenset(
    "januar jänner februar feber märz april mai juni juli august september oktober november dezember".split()
)

#: What closes a sentence after its stop: English quotes ” ’, German “ ‘ and « ‹ (»so!«), and » ›,
#: brackets. French sets its closing guillemet after a space (« Prêt ! » Puis...): :data:`_GUILLEMET`.
_CLOSING = "\"'\u201d\u2019)]\u201c\u2018\u00ab\u2039\u00bb\u203a"
_OPENING = "\"'\u201c\u2018(["
_GUILLEMET = "(?:[ \u00a0\u202f]?[\u00bb\u203a])?"
# a word, its final '.', '!' or '?' run, closing quotes or brackets, then space and the next character
_CANDIDATE = re.compile(
    rf"(?P<word>\S*?)(?P<end>[.!?]+){_GUILLEMET}[{re.escape(_CLOSING)}]*(?=\s+(?P<next>\S)(?P<rest>\S*))")
#: Sentence ends of other scripts, which need no space after them: the full-width stops of Chinese
#: and Japanese (written with none), the Arabic question mark and the Devanagari danda. None of
#: them abbreviates. One closed by a quote or a bracket ends a sentence only before a space or
#: the end of the text (「行こう！」と言った。 is one sentence).
SCRIPT_ENDS = "\u3002\uff01\uff1f\uff61\u061f\u0964\u0965"  # 。！？｡ ؟ । ॥
_CLOSING_WIDE = re.escape(_CLOSING + "\u300d\u300f\uff09\u3015\u3011\u300b\u3009")  # 」』）〕】》〉
_SCRIPT_END = re.compile(rf"[{SCRIPT_ENDS}]+(?![{_CLOSING_WIDE}])|[{SCRIPT_ENDS}]+[{_CLOSING_WIDE}]+(?=\s|$)")
#: What ends a sentence at the end of a text: the stops the rules split at, an ellipsis and
#: :data:`SCRIPT_ENDS`, closing quotes or brackets allowed after them (see :func:`ends_sentence`).
_FINAL = re.compile(rf"[.!?\u2026{SCRIPT_ENDS}]{_GUILLEMET}[{_CLOSING_WIDE}]*$")


@dataclass(frozen=True)
class SplitterSpec:
    """A named splitter: ``build(corpus)`` returns the callable; ``corpus`` is the text it may learn from.

    ``trains`` says whether ``build`` reads the corpus (so a reader gathers the text first).
    """

    name: str
    build: Callable[[Iterable[str] | None], Splitter]
    trains: bool
    description: str


# ---------------------------------------------------------------------------------------------
# rules
# ---------------------------------------------------------------------------------------------
def _ends_sentence(word: str, terminator: str, following: str, next_word: str) -> bool:
    """Whether ``word`` followed by ``terminator`` ends a sentence before ``next_word``, whose
    first character is ``following``."""
    if following.islower():
        return False
    if terminator != ".":
        return True  # '!', '?', an ellipsis
    core = word.lstrip(_OPENING).lower()
    if core in TITLES or core in NON_FINAL or (core in NUMBER_PREFIXES and following.isdigit()):
        return False
    if core.isdigit() and len(core) <= 2 and next_word.rstrip(_CLOSING + ".,;:").lower() in ORDINAL_MONTHS:
        return False  # a German date: am 3. Oktober
    return not (len(core) == 1 and core.isalpha())  # a capital initial: "J. Smith"


def split_rules(text: str) -> list[str]:
    """Split ``text`` at sentence ends with the abbreviation-aware rules (see the module docstring).

    Examples
    --------
    >>> split_rules('He said "Stop!" Then Prof. J. Doe left, e.g. Mr. Lee. It was 3.5 km away.')
    ['He said "Stop!"', 'Then Prof. J. Doe left, e.g. Mr. Lee.', 'It was 3.5 km away.']
    >>> split_rules("Am 3. Oktober 1990 kam die Einheit. Es war ein Mittwoch.")
    ['Am 3. Oktober 1990 kam die Einheit.', 'Es war ein Mittwoch.']
    """
    sentences, start = [], 0
    for match in _CANDIDATE.finditer(text):
        if _ends_sentence(match["word"], match["end"], match["next"], match["next"] + match["rest"]):
            sentences.append(text[start : match.end()].strip())
            start = match.end()
    sentences.append(text[start:].strip())
    return split_script_ends(sentences)


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends as a sentence does: with ``.``, ``!``, ``?``, an ellipsis or a stop of
    :data:`SCRIPT_ENDS`, closing quotes or brackets allowed after it (trailing spaces ignored).

    A splitter returns its last piece whether or not it ends a sentence, and text without
    punctuation (automatic captions, some speech-to-text output) is one piece that does not.

    Examples
    --------
    >>> [ends_sentence(t) for t in ['He said "Stop!"', "(so it went.)", "見た。", "and then we", "Wait, "]]
    [True, True, True, False, False]
    """
    return _FINAL.search(text.rstrip()) is not None


def split_script_ends(sentences: Iterable[str]) -> list[str]:
    """Split every sentence after the sentence ends of other scripts (:data:`SCRIPT_ENDS`).

    Every built-in splitter ends with it: nltk's Punkt and the rules look for ``.``, ``!`` and
    ``?`` followed by a space, so a Chinese or Japanese paragraph would otherwise be one unit.

    Examples
    --------
    >>> split_script_ends(["今天天气很好。我们去公园散步。", "「行こう！」と言った。Yes.", "كيف حالك؟ بخير."])
    ['今天天气很好。', '我们去公园散步。', '「行こう！」と言った。', 'Yes.', 'كيف حالك؟', 'بخير.']
    """
    pieces = []
    for sentence in sentences:
        start = 0
        for match in _SCRIPT_END.finditer(sentence):
            pieces.append(sentence[start : match.end()])
            start = match.end()
        pieces.append(sentence[start:])
    return _clean(pieces)


# ---------------------------------------------------------------------------------------------
# Punkt
# ---------------------------------------------------------------------------------------------
def _trained(corpus: Iterable[str] | None) -> tuple[Splitter, int]:
    """Punkt trained on ``corpus`` (read once, one text at a time) and the characters it read."""
    from nltk.tokenize.punkt import PunktSentenceTokenizer, PunktTrainer

    trainer = PunktTrainer()
    total = 0
    for text in corpus or ():
        trainer.train(text, finalize=False)
        total += len(text)
    trainer.finalize_training()
    params = trainer.get_params()
    params.abbrev_types.update(ABBREVIATIONS)
    tokenizer = PunktSentenceTokenizer(params)
    return (lambda text: split_script_ends(join_lowercase_starts(_clean(tokenizer.tokenize(text))))), total


def train_punkt(corpus: Iterable[str]) -> Splitter:
    """Punkt trained on ``corpus`` (an iterable of texts), with :data:`ABBREVIATIONS` added.

    Pieces that start in lower case are joined to the one before (:func:`join_lowercase_starts`).
    """
    return _trained(corpus)[0]


def _clean(sentences: Iterable[str]) -> list[str]:
    """The sentences stripped, blank ones dropped: what every splitter returns."""
    return [s.strip() for s in sentences if s.strip()]


def join_lowercase_starts(sentences: list[str]) -> list[str]:
    """Join each piece that starts with a lower-case letter to the piece before it.

    A sentence of English prose does not start in lower case; when Punkt splits after an
    abbreviation it has not learnt (``D.C. yesterday``), the next piece does.

    Examples
    --------
    >>> join_lowercase_starts(["He met Dr.", "Smith in Washington D.C.", "yesterday.", "Bye."])
    ['He met Dr.', 'Smith in Washington D.C. yesterday.', 'Bye.']
    """
    joined: list[str] = []
    for sentence in sentences:
        if joined and sentence[:1].islower():
            joined[-1] = f"{joined[-1]} {sentence}"
        else:
            joined.append(sentence)
    return joined


def _build_auto(corpus: Iterable[str] | None) -> Splitter:
    split, total = _trained(corpus)  # streams the corpus: its text is never held in memory
    return split if total >= PUNKT_MIN_CHARACTERS else split_rules


def _build_punkt(corpus: Iterable[str] | None) -> Splitter:
    return train_punkt(corpus or ())


def _build_untrained(corpus: Iterable[str] | None) -> Splitter:
    from nltk.tokenize.punkt import PunktSentenceTokenizer

    tokenizer = PunktSentenceTokenizer()
    return lambda text: split_script_ends(tokenizer.tokenize(text))


def _build_pysbd(corpus: Iterable[str] | None) -> Splitter:
    try:
        import pysbd
    except ImportError:
        raise MissingDependencyError(
            "the 'pysbd' splitter needs the optional package pysbd; install the sbd extra: "
            "pip install 'stability-harness[sbd]'"
        ) from None
    segmenter = pysbd.Segmenter(language="en", clean=False)
    return lambda text: split_script_ends(segmenter.segment(text))


#: The registry: name -> :class:`SplitterSpec`. Add entries with :func:`register_splitter`.
SPLITTERS: dict[str, SplitterSpec] = {}


def register_splitter(
    name: str, build: Callable[[Iterable[str] | None], Splitter], *, trains: bool = False, description: str = ""
) -> None:
    """Register ``build`` under ``name`` (``build(corpus_or_None) -> splitter``)."""
    if not isinstance(name, str) or not name:
        raise InvalidParameterError.make("name", "a non-empty string", name)
    if name in SPLITTERS:
        raise InvalidParameterError(f"a splitter named {name!r} is already registered")
    SPLITTERS[name] = SplitterSpec(name, build, trains, description)


register_splitter("auto", _build_auto, trains=True, description="punkt on large corpora, rules otherwise")
register_splitter("punkt", _build_punkt, trains=True, description="Punkt trained on the corpus")
register_splitter("rules", lambda corpus: split_rules, description="abbreviation-aware rules")
register_splitter("punkt_untrained", _build_untrained, description="nltk Punkt without parameters")
register_splitter("pysbd", _build_pysbd, description="pySBD (extra 'sbd')")


def available_splitters() -> list[str]:
    """The registered splitter names, in registration order."""
    return list(SPLITTERS)


def check_splitter(splitter: SplitterOption) -> SplitterSpec | Splitter:
    """Resolve ``splitter`` (``None`` means ``"auto"``) to its spec, or return a callable as is."""
    if splitter is None:
        splitter = "auto"
    if callable(splitter) or isinstance(splitter, SplitterSpec):
        return splitter
    if isinstance(splitter, str) and splitter in SPLITTERS:
        return SPLITTERS[splitter]
    names = available_splitters()
    hint = did_you_mean(splitter, names) if isinstance(splitter, str) else ""
    expected = "a callable text -> list[str] or one of " + ", ".join(repr(n) for n in names)
    raise InvalidParameterError(f"splitter must be {expected}; received {_short_repr(splitter)}{hint}", parameter="splitter")


def get_splitter(splitter: SplitterOption = None, corpus: Iterable[str] | None = None) -> Splitter:
    """The splitter callable for ``splitter`` (a name, a callable, or ``None`` for ``"auto"``).

    Parameters
    ----------
    splitter : str, callable or None
        A registered name (see :func:`available_splitters`) or a callable ``text -> list[str]``.
    corpus : iterable of str, optional
        The text a training splitter (``auto``, ``punkt``) learns from; without it ``auto`` uses
        the rules and ``punkt`` learns nothing but :data:`ABBREVIATIONS`.

    Raises
    ------
    InvalidParameterError
        An unknown name (with the closest registered name, if any).
    ImportError
        ``pysbd`` without its optional package (the message names the ``sbd`` extra).
    """
    resolved = check_splitter(splitter)
    if isinstance(resolved, SplitterSpec):
        return resolved.build(corpus if resolved.trains else None)
    return resolved

