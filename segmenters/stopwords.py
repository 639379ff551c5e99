"""The project's own English stopword list.

nltk's ``stopwords`` corpus cannot be downloaded at run time, and Choi's 327-word list belongs to
his distribution, so the project ships a list composed for it: English function words grouped by
word class (articles and determiners, pronouns and their forms, prepositions, conjunctions,
auxiliary and modal verbs with their inflections, frequent adverbs and quantifiers, the fragments
that contractions leave after tokenization) plus a few reporting and discourse words that carry no
topic (``said``, ``yes``, ``also``...). It is written in lower case.

Results are comparable with nltk's TextTiling default only when the *same* list is given to both:
pass ``stopwords=[...]`` explicitly for such comparisons.
"""

from __future__ import annotations

__all__ = ["ENGLISH_STOPWORDS", "english_stopwords"]

_GROUPS = {
    "articles_determiners": """
        a an the this that these those some any no every each either neither other another such
        what which whose whatever whichever all both half several many much more most few fewer
        less least enough own same
    """,
    "personal_pronouns": """
        i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
        himself she her hers herself it its itself they them their theirs themselves one ones
        oneself who whom whoever someone somebody something anyone anybody anything everyone
        everybody everything nobody nothing none
    """,
    "prepositions": """
        about above across after against along amid among amongst around as at before behind below
        beneath beside besides between beyond by despite down during except for from in inside
        into like near of off on onto out outside over past per since than through throughout till
        to toward towards under underneath unlike until up upon via with within without
    """,
    "conjunctions": """
        and but or nor so yet if unless because although though whereas while whether whenever
        wherever once lest
    """,
    "auxiliaries_modals": """
        be am is are was were been being have has had having do does did doing done can could may
        might must shall should will would ought need
    """,
    "adverbs_wh": """
        how when where why here there then now thus hence therefore however also too very just only
        even still already again ever never always often sometimes perhaps rather quite almost
        else instead indeed really well away back ago anyway somewhat soon together
    """,
    "negation_response": "not no yes nor oh ok okay",
    "reporting_discourse": "said says say saying told tell asked mr mrs ms dr",
    "contractions": """
        don't doesn't didn't isn't aren't wasn't weren't hasn't haven't hadn't won't wouldn't can't
        cannot couldn't shouldn't mustn't mightn't needn't shan't i'm i've i'll i'd you're you've
        you'll you'd he's he'll he'd she's she'll she'd it's it'll we're we've we'll we'd they're
        they've they'll they'd that's there's here's what's who's let's
    """,
    # What the contractions above become when a tokenizer splits at the apostrophe
    # ("don't" -> "don", "t"; pre-tokenized corpora give "n't", "'s").
    "contraction_fragments": "s t d ll m re ve n't 's 'm 're 've 'll 'd don doesn didn isn aren wasn weren hasn haven hadn won wouldn couldn shouldn mustn mightn needn shan",
}

#: The project's English stopword list (a frozenset of lower-case words).
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    word for group in _GROUPS.values() for word in group.split()
)


def english_stopwords() -> list[str]:
    """The project's English stopword list, sorted (a fresh list each call)."""
    return sorted(ENGLISH_STOPWORDS)
