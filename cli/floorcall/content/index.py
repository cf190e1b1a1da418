"""Building the lookup index at compile time: BM25 postings over situations and rules.

A situation's text is its title, aliases, tags, questions, answers and rulings, plus the titles and
keywords of the rules it cites; each field has a weight (an alias is stronger evidence than a
word in a ruling). Rules get their own postings, for the "rules below" part of a lookup.
"""

from __future__ import annotations

import math
from collections import Counter

from floorcall.core.textnorm import compile_phrases, terms

# Field weights: what a floorperson types matches titles and aliases first; rule words and
# question text add recall without outranking a situation named for the query.
SITUATION_FIELDS = {
    "title": 3.0,
    "aliases": 3.0,
    "tags": 0.5,
    "questions": 0.6,
    "rulings": 0.4,
    "rule_titles": 1.0,
    "rule_keywords": 1.2,
}
RULE_FIELDS = {"title": 3.0, "keywords": 2.0, "summary": 1.0, "text": 0.5}
# BM25 constants: the usual defaults; b below 0.75 because long trees are long for a reason.
BM25_K1 = 1.2
BM25_B = 0.5


def situation_fields(situation: dict, rules: dict) -> dict[str, str]:
    questions = situation.get("questions") or {}
    outcomes = situation.get("outcomes") or {}
    cited = [rules[c] for c in situation.get("cites", []) if c in rules]
    return {
        "title": situation.get("title", ""),
        "aliases": " . ".join(situation.get("aliases") or []),
        "tags": " ".join(situation.get("tags") or []),
        "questions": " . ".join(
            [q.get("ask", "") for q in questions.values()]
            + [a.get("label", "") for q in questions.values() for a in (q.get("answers") or {}).values()]
        ),
        "rulings": " . ".join(o.get("ruling", "") for o in outcomes.values()),
        "rule_titles": " . ".join(r.get("title", "") for r in cited),
        "rule_keywords": " . ".join(k for r in cited for k in r.get("keywords") or []),
    }


def rule_fields(rule: dict) -> dict[str, str]:
    return {
        "title": rule.get("title", ""),
        "keywords": " . ".join(rule.get("keywords") or []),
        "summary": rule.get("summary", ""),
        "text": rule.get("text") or "",
    }


def weighted_counts(documents: list[dict[str, str]], weights: dict[str, float], phrases) -> list[Counter]:
    """Field-weighted term frequencies per document (the site ships these; BM25 is computed from them)."""
    weighted: list[Counter] = []
    for fields in documents:
        counts: Counter = Counter()
        for name, text in fields.items():
            for term in terms(text, phrases):
                # Counter's stub says int counts; these are float field weights, which Counter adds just the same.
                counts[term] += weights[name]  # type: ignore[assignment]
        weighted.append(counts)
    return weighted


def _postings(documents: list[dict[str, str]], weights: dict[str, float], phrases) -> dict:
    """BM25 with field-weighted term frequencies, precomputed to one number per (term, doc)."""
    weighted = weighted_counts(documents, weights, phrases)
    lengths = [sum(c.values()) for c in weighted]
    average = (sum(lengths) / len(lengths)) if lengths else 1.0
    n_docs = len(weighted)
    frequency: Counter = Counter(t for c in weighted for t in c)
    postings: dict[str, list] = {}
    for doc, counts in enumerate(weighted):
        norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths[doc] / average)
        for term, tf in counts.items():
            idf = math.log(1 + (n_docs - frequency[term] + 0.5) / (frequency[term] + 0.5))
            postings.setdefault(term, []).append([doc, round(idf * tf * (BM25_K1 + 1) / (tf + norm), 4)])
    return postings


def build_index(corpus: dict, synonyms: dict[str, str], out_of_scope: list[str] | None = None) -> dict:
    phrases = compile_phrases(synonyms)
    rules = corpus["rules"]
    situation_ids = list(corpus["situations"])
    rule_ids = list(rules)
    situations = [corpus["situations"][s] for s in situation_ids]
    return {
        "phrases": phrases,
        "situations": situation_ids,
        "situation_names": [[s.get("title", "")] + list(s.get("aliases") or []) for s in situations],
        "situation_postings": _postings([situation_fields(s, rules) for s in situations], SITUATION_FIELDS, phrases),
        "rules": rule_ids,
        "rule_postings": _postings([rule_fields(rules[r]) for r in rule_ids], RULE_FIELDS, phrases),
        # each out-of-scope phrase as its search terms, matched as a run in the query's terms
        "out_of_scope": [terms(p, phrases) for p in out_of_scope or [] if terms(p, phrases)],
        # situations by the rules they cite (a part counts for its rule), for a rule-number query
        "citing": _citing(corpus),
    }


def _citing(corpus: dict) -> dict[str, list[str]]:
    """rule id -> situations citing it (or one of its parts), those that cite it first ahead."""
    rules = corpus["rules"]
    first_cited_at: dict[str, dict[str, int]] = {}
    for sid, situation in corpus["situations"].items():
        for position, rid in enumerate(situation.get("cites", [])):
            for key in {rid, rules.get(rid, {}).get("parent") or rid}:
                seen = first_cited_at.setdefault(key, {})
                seen[sid] = min(position, seen.get(sid, position))
    return {rid: sorted(where, key=lambda sid: (where[sid], sid)) for rid, where in first_cited_at.items()}


# Packed postings keep values as integers in 1/10000ths: exactly the 4-decimal values the index holds.
POSTING_SCALE = 10_000


def pack_postings(pairs: list) -> bytes:
    from array import array

    flat = array("I")
    for doc, value in pairs:
        flat.append(doc)
        flat.append(round(value * POSTING_SCALE))
    return flat.tobytes()


def postings_of(postings: dict, term: str) -> list:
    """[(doc, value), …] for a term, from plain lists or packed bytes."""
    found = postings.get(term, ())
    if isinstance(found, bytes):
        from array import array

        flat = array("I")
        flat.frombytes(found)
        return [(flat[i], flat[i + 1] / POSTING_SCALE) for i in range(0, len(flat), 2)]
    return found
