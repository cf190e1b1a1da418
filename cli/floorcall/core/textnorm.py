"""Turning text into search terms: the same steps for situations, rules and queries.

Kept deliberately simple (lowercase, split, a tiny suffix stemmer, a phrase table) so the site's
JavaScript port in site/static/search.js gives the same terms; tests compare the two.
"""

from __future__ import annotations

import re
import unicodedata

# Words that carry no meaning at the table. "no", "not", "if", "after", "before" stay: they decide rulings.
STOPWORDS = frozenset(
    "a an the of to is was are were be been being and or in on at it its he his him she her they them their "
    "i me my we our you your what when where which who whom whose how did does do doing done for with that "
    "this these those there then than so but as by from into about up out just can could would should will "
    "shall may might must has have had get got gets am any some all guy player going "
    # contractions once the apostrophe is gone (he'd -> hed); negations stay, they decide rulings
    "hed hes shes ive youre theyre thats theres whats lets".split()
)
# Undoubling after a stripped suffix (chopped -> chopp -> chop) except where the double is the word (call, pass, buzz).
KEEP_DOUBLE = frozenset("lsz")
SUFFIXES = ("ing", "ed", "es", "s", "e")
MIN_STEM = 3
MAX_PHRASE = 6


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.lower().replace("’", "'").replace("&", " and ")


def words(text: str) -> list[str]:
    # Apostrophes vanish inside words (they'll -> theyll, opponent's -> opponents) before splitting.
    return re.findall(r"[a-z0-9]+", fold(text).replace("'", ""))


def stem(word: str) -> str:
    if word.isdigit():
        return word
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) > MIN_STEM and word[-1] == word[-2] and word[-1] not in KEEP_DOUBLE:
                word = word[:-1]
            break
    return word


def compile_phrases(table: dict[str, str]) -> dict[str, list[str]]:
    """The synonym table with both sides as stemmed terms; keys are space-joined stems."""
    compiled = {}
    for phrase, replacement in table.items():
        key = " ".join(stem(w) for w in words(phrase))
        compiled[key] = [stem(w) for w in words(replacement)]
    return compiled


def terms(text: str, phrases: dict[str, list[str]]) -> list[str]:
    """Search terms of `text`: stemmed words, phrase synonyms applied (longest first), stopwords dropped."""
    stems = [stem(w) for w in words(text)]
    out: list[str] = []
    i = 0
    while i < len(stems):
        for size in range(min(MAX_PHRASE, len(stems) - i), 0, -1):
            key = " ".join(stems[i:i + size])
            if key in phrases:
                out.extend(phrases[key])
                i += size
                break
        else:
            out.append(stems[i])
            i += 1
    return [t for t in out if t not in STOP_STEMS]


STOP_STEMS = frozenset(stem(w) for w in STOPWORDS)
