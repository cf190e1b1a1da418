"""Ranking situations (and rules) for a few hurried words. Pure: index + query in, results out.

Score = BM25 over field-weighted terms (see lookup_index) with typo expansion of unknown words
against the vocabulary, plus a small whole-string term: rapidfuzz token_set_ratio of the query
against the situation's title and aliases (tech-notes: this pair ranked best, ~90 % top-1).
"""

from __future__ import annotations

from floorcall.content.index import postings_of
from floorcall.core.textnorm import terms

# A misspelt word is read as the known term within one edit (a letter swapped with its neighbour,
# dropped, doubled or mistyped), two for long words: the usual spell-checker bound. Swaps count
# as one edit ("brun" is "burn", not "run"), which the plain ratio scorers count as two.
TYPO_MIN_LENGTH = 4
TYPO_LONG_WORD = 7
TYPO_MAX_EDITS = 1
TYPO_MAX_EDITS_LONG = 2
# Typos rarely change a word's length by more than one ("bout" is not "bounty").
TYPO_MAX_LENGTH_GAP = 1
# A typo-expanded term is weaker evidence than a word typed right.
TYPO_WEIGHT = 0.7
# Weight of the whole-string similarity beside BM25 (normalised to the best BM25 score).
FUZZ_WEIGHT = 0.3
# Below this token_set_ratio the whole-string term says nothing: short common words score high everywhere.
FUZZ_FLOOR = 55
# A result must reach this share of the best score to be shown (drops the long tail of one-word hits).
RELATIVE_CUTOFF = 0.25
# A 'did you mean' names only situations at least this similar (WRatio); else none is better than noise.
SUGGESTION_CUTOFF = 60
MAX_QUERY_CHARS = 500  # the floor types a few words; a pasted essay is cut, not refused
MAX_QUERY_TERMS = 40
# Confidence. A match is weak when the best situation scores below this (BM25 + fuzz; a query
# naming a situation well scores 8-30) or holds less than this share of the query's weight
# (IDF of its terms, unknown words counted at the rarest IDF): measured on the dev set, both
# of our blind sets and bench/lookup-out-of-scope.yaml (bench/confidence_bench.py).
CONFIDENT_SCORE = 5.0
CONFIDENT_COVERAGE = 0.25
# A rule-number query lists the situations that cite the rule, up to this many.
REFERENCE_SITUATIONS = 5


class Hit:
    """One ranked situation or rule. (Plain classes: dataclasses would cost the lookup ~7 ms of imports.)"""

    __slots__ = ("id", "score")

    def __init__(self, id: str, score: float):
        self.id = id
        self.score = score

    def __eq__(self, other):
        return isinstance(other, Hit) and (self.id, self.score) == (other.id, other.score)

    def __repr__(self):
        return f"Hit({self.id!r}, {self.score})"


class LookupResult:
    __slots__ = ("query", "situations", "rules", "unknown_words", "expansions", "confident", "reference", "why_weak")

    def __init__(self, query: str, situations: list[Hit], rules: list[Hit], unknown_words: list[str], expansions: dict[str, str],
                 confident: bool = True, reference: str | None = None, why_weak: str = ""):
        self.query = query
        self.situations = situations
        self.rules = rules
        self.unknown_words = unknown_words
        self.expansions = expansions
        self.confident = confident  # False: no situation fits well; show the closest rules instead
        self.reference = reference  # the rule or part the query names, when it is a rule number
        self.why_weak = why_weak


def clean_query(query: str) -> str:
    """Control characters out, whitespace folded, length capped."""
    printable = "".join(c if c.isprintable() else " " for c in query)
    return " ".join(printable.split())[:MAX_QUERY_CHARS]


def query_terms(index: dict, query: str) -> tuple[dict[str, float], list[str], dict[str, str]]:
    """Weighted query terms, the words not in the vocabulary, and typo expansions made."""
    vocabulary = index["situation_postings"]
    weights: dict[str, float] = {}
    unknown: list[str] = []
    expansions: dict[str, str] = {}
    for term in terms(query, index["phrases"])[:MAX_QUERY_TERMS]:
        if term in vocabulary or term in index["rule_postings"]:
            weights[term] = max(weights.get(term, 0), 1.0)
            continue
        fixed = _closest_term(term, vocabulary) if len(term) >= TYPO_MIN_LENGTH and not term.isdigit() else None
        if fixed:
            expansions[term] = fixed
            weights[fixed] = max(weights.get(fixed, 0), TYPO_WEIGHT)
        else:
            unknown.append(term)
    return weights, unknown, expansions


def _closest_term(term: str, vocabulary: dict) -> str | None:
    """The known term a typo most likely stands for: fewest edits, then (typos seldom hit the
    first letter or the length) same first letter, same length, the commoner term, alphabetical."""
    from rapidfuzz.distance import OSA

    limit = TYPO_MAX_EDITS_LONG if len(term) >= TYPO_LONG_WORD else TYPO_MAX_EDITS
    best, best_key = None, None
    for word, postings in vocabulary.items():
        if abs(len(word) - len(term)) > TYPO_MAX_LENGTH_GAP:
            continue
        edits = OSA.distance(term, word, score_cutoff=limit)
        if edits > limit:
            continue
        key = (edits, word[0] != term[0], len(word) != len(term), -_frequency(postings), word)
        if best_key is None or key < best_key:
            best, best_key = word, key
    return best


def _frequency(postings) -> int:
    """How many documents hold a term, from plain or packed postings."""
    return len(postings) // 8 if isinstance(postings, bytes) else len(postings)


def _bm25(postings: dict, weights: dict[str, float], size: int) -> list[float]:
    scores = [0.0] * size
    for term, weight in weights.items():
        for doc, value in postings_of(postings, term):
            scores[doc] += weight * value
    return scores


def rank(index: dict, query: str, limit: int = 5, rule_limit: int = 3) -> LookupResult:
    text = clean_query(query)
    from floorcall.content.rulebook import rule_reference

    reference = rule_reference(index["rules"], text)
    if reference is not None:
        return _reference_result(index, text, reference, limit)
    weights, unknown, expansions = query_terms(index, text)
    names = index["situation_names"]
    scores = _bm25(index["situation_postings"], weights, len(index["situations"]))
    best = max(scores, default=0.0)
    if text:
        from rapidfuzz import fuzz, utils

        processed = utils.default_process(text)
        for doc, doc_names in enumerate(names):
            similarity = max((fuzz.token_set_ratio(processed, utils.default_process(n)) for n in doc_names), default=0)
            if similarity >= FUZZ_FLOOR and (scores[doc] > 0 or similarity >= 90):
                scores[doc] += FUZZ_WEIGHT * max(best, 1.0) * similarity / 100
    situations = _top(index["situations"], scores, limit)
    rule_scores = _bm25(index["rule_postings"], weights, len(index["rules"]))
    rules = _top(index["rules"], rule_scores, rule_limit)
    why_weak = _weakness(index, text, weights, unknown, situations)
    return LookupResult(text, situations, rules, unknown, expansions, confident=not why_weak, why_weak=why_weak)


def _reference_result(index: dict, text: str, reference: str, limit: int) -> LookupResult:
    """A rule-number query: that rule first, then the situations that cite it (primary cites first)."""
    citing = index.get("citing", {}).get(reference, [])[:min(limit, REFERENCE_SITUATIONS)]
    positions = {sid: d for d, sid in enumerate(index["situations"])}
    situations = [Hit(sid, 1.0) for sid in citing if sid in positions]
    return LookupResult(text, situations, [Hit(reference, 1.0)], [], {}, confident=True, reference=reference)


def _weakness(index: dict, text: str, weights: dict[str, float], unknown: list[str], situations: list[Hit]) -> str:
    """Why no situation fits well ('' when one does): out of scope, too weak, or too little matched."""
    query = terms(text, index["phrases"])
    for marker in index.get("out_of_scope", []):
        size = len(marker)
        if any(query[i:i + size] == marker for i in range(len(query) - size + 1)):
            return f"'{' '.join(marker)}' is outside what these rules decide"
    if not situations:
        return "no situation matches"
    top = situations[0]
    if top.score < CONFIDENT_SCORE:
        return "the best match is weak"
    if _coverage(index, top.id, weights, unknown) < CONFIDENT_COVERAGE:
        return "the best match explains little of the query"
    return ""


def _coverage(index: dict, situation_id: str, weights: dict[str, float], unknown: list[str]) -> float:
    """Share of the query's weight (IDF × term weight) that the situation's own terms hold."""
    import math

    doc = index["situations"].index(situation_id)
    size = len(index["situations"])
    rarest = math.log(1 + (size - 0.5) / 1.5)  # an unknown word weighs like a term found once
    total, held = rarest * len(unknown), 0.0
    for term, weight in weights.items():
        postings = postings_of(index["situation_postings"], term)
        idf = math.log(1 + (size - len(postings) + 0.5) / (len(postings) + 0.5)) if postings else rarest
        total += idf * weight
        if any(d == doc for d, _value in postings):
            held += idf * weight
    return held / total if total else 0.0


def _top(ids: list[str], scores: list[float], limit: int) -> list[Hit]:
    best = max(scores, default=0.0)
    if best <= 0:
        return []
    order = sorted(range(len(ids)), key=lambda d: (-scores[d], ids[d]))
    return [Hit(ids[d], round(scores[d], 3)) for d in order[:limit] if scores[d] >= RELATIVE_CUTOFF * best]


def suggestions(index: dict, query: str, count: int = 3) -> list[str]:
    """For a miss: the situation names closest to the query as typed."""
    from rapidfuzz import fuzz, process, utils

    flat: dict[str, str] = {}  # situation name -> situation id
    for doc, doc_names in enumerate(index["situation_names"]):
        for name in doc_names:
            flat.setdefault(name, index["situations"][doc])
    found = process.extract(clean_query(query), flat.keys(), scorer=fuzz.WRatio, processor=utils.default_process, limit=count, score_cutoff=SUGGESTION_CUTOFF)
    return [name for name, _score, _key in found]
