"""Building the static rulebook site: every page and asset from the compiled corpus, in one folder.

The site works opened straight from disk (file://): classic scripts only, data shipped as scripts
(`window.FLOOR_INDEX = …`), relative links everywhere. Over http it installs (web manifest) and
works offline (a service worker that saves every file, each checked against its digest, and says
when the copy is complete). Nothing it loads comes from elsewhere: a Content-Security-Policy meta
tag on every page says so to the browser.

A lettered part of a TDA rule (tda-2024:35-E) is read on its rule's page, at an anchor
(rules/tda-2024/35.html#E); its own address (rules/tda-2024/35-E.html) forwards there. When the
corpus carries a rule's official words (`full_text`, from `floor import` and the user's own copy),
they show with their edition, version and file.

Rendering is escape-by-default: jinja2 autoescape + StrictUndefined, Markdown through markdown-it
with raw HTML off, and one helper (`markdown`) that marks its output safe. `build_site` is the only
function that writes; everything else computes.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import itertools
import json
import math
import os
import random
import re
import shutil
import struct
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from floorcall.core.errors import FloorError

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'")
# A folder is only ever replaced when it holds this marker (or is empty): `--out ~` must not wipe a home folder.
MARKER = ".floorcall-site"
INDEX_SCRIPT = "static/search-index.js"
LABELS_SCRIPT = "static/search-labels.js"
# Short trees' rulings for the first result: loaded after the index, so the first results need not wait.
PREVIEWS_SCRIPT = "static/search-previews.js"
QUIZ_SCRIPT = "static/quiz-data.js"
QUIZ_REST_SCRIPT = "static/quiz-rest.js"
# Generated from Python data, never copied from site/static.
GENERATED_STATIC = {INDEX_SCRIPT, LABELS_SCRIPT, PREVIEWS_SCRIPT, QUIZ_SCRIPT, QUIZ_REST_SCRIPT, "static/icon-192.png", "static/icon-512.png",
                    "static/icon-maskable-512.png"}
THEME_COLOR = "#0d5c3a"
# The dark theme's header: no brighter than the page around it (a bright bar glares in a dim room).
THEME_COLOR_DARK = "#131d18"
BACKGROUND_DARK = "#121416"
OFFLINE_PAGE = "offline.html"
# Quiz: the first questions ship in one small file the page loads at once (QUIZ_SCRIPT); the rest,
# with the exam papers, loads behind them (QUIZ_REST_SCRIPT). STARTER_PER_TOPIC items of every topic
# make the first file: enough that a new session starts on a topic of its own.
STARTER_PER_TOPIC = 2
# Games a hold'em player needs; a rule only for the others is grouped apart in Hold'em mode.
HOLDEM_GAMES = frozenset({"all", "holdem", "limit", "pot-limit", "no-limit"})
CITED_RULES_TAIL = re.compile(r"\s*Rules?: [^\n]*\[[^\]\n]+\]\.?\s*$")
QUIZ_CHOICES = 4  # the right ruling and up to three others
SEARCH_LIMIT = 8  # situations shown for a query in the browser (the CLI prints 5; the order is the same)
SEARCH_RULE_LIMIT = 5
# As you type, the last word is completed from the known words it begins (search.js `complete`):
# from two letters ("ex" is already telling), trying the shortest few candidates.
PREFIX_MIN_LENGTH = 2
PREFIX_CANDIDATES = 12
MAX_STATIC_BYTES = 2_000_000  # a stray big file in site/static is a mistake, not an asset


@dataclass
class SiteReport:
    out_dir: Path
    pages: int = 0
    files: int = 0
    total_bytes: int = 0
    index_bytes: int = 0
    index_gzip_bytes: int = 0
    labels_gzip_bytes: int = 0  # the result list's labels, loaded beside the index on the home page
    quiz_items: int = 0
    quiz_source: str = ""
    seconds: float = 0.0
    counts: dict = field(default_factory=dict)

    def summary(self) -> str:
        return (f"built {self.pages} pages, {self.files} files, {self.total_bytes / 1024:.0f} KB in {self.out_dir} "
                f"({self.seconds:.2f} s); search index {self.index_bytes / 1024:.1f} KB, "
                f"{self.index_gzip_bytes / 1024:.1f} KB gzipped (+ labels {self.labels_gzip_bytes / 1024:.1f} KB); quiz: {self.quiz_items} items from the {self.quiz_source}")


# ---------------------------------------------------------------- addresses (relative to the site root)

# A lettered part of a TDA rule (35-E, RP-10-H): its words sit on its rule's page, under an anchor.
PART_NUMBER = re.compile(r"^((?:RP-)?\d+)-([A-Z])$")


def _part_of(rule_id: str) -> tuple[str, str] | None:
    """('rules/tda-2024/35.html', 'E') for tda-2024:35-E; None for a whole rule."""
    source, _, number = rule_id.partition(":")
    match = PART_NUMBER.match(number) if source.startswith("tda-") else None
    return (f"rules/{source}/{match.group(1)}.html", match.group(2)) if match else None


def rule_path(rule_id: str) -> str:
    """Where a rule is read: tda-2024:44 -> rules/tda-2024/44.html; a part, tda-2024:35-E ->
    rules/tda-2024/35.html#E (an anchor on its rule's page). site.js `rulePath` says the same."""
    part = _part_of(rule_id)
    return f"{part[0]}#{part[1]}" if part else rule_file(rule_id)


def rule_file(rule_id: str) -> str:
    """The permanent file of a rule id: its page, or for a part a small page that forwards to the anchor."""
    source, _, number = rule_id.partition(":")
    return f"rules/{source}/{number}.html"


def situation_path(situation_id: str) -> str:
    return f"situations/{situation_id}.html"


def source_path(source_id: str) -> str:
    return f"rules/{source_id}/index.html"


def root_prefix(page_path: str) -> str:
    """'../' once per folder level, so every link works from file:// at any depth."""
    return "../" * page_path.count("/")


# ---------------------------------------------------------------- rendering helpers

def make_environment(templates: Path):
    from jinja2 import Environment, FileSystemLoader, StrictUndefined
    from markdown_it import MarkdownIt
    from markupsafe import Markup

    md = MarkdownIt("commonmark", {"html": False}).disable("image")  # an image would be a request

    def markdown(text) -> Markup:
        """The one place rendered Markdown is marked safe: markdown-it escapes raw HTML itself."""
        return Markup(md.render(str(text or "")))

    env = Environment(loader=FileSystemLoader(str(templates)), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["markdown"] = markdown
    env.globals.update(rule_path=rule_path, situation_path=situation_path, source_path=source_path, csp=CSP,
                       theme_color=THEME_COLOR, theme_color_dark=THEME_COLOR_DARK)
    return env


def _holdem_relevant(rule: dict) -> bool:
    return bool(set(rule.get("games") or ["all"]) & HOLDEM_GAMES)


def _short_cite(rule: dict) -> str:
    """A citation for the print card: DTTF labels name only a section, so they take the title."""
    from floorcall.core.labels import rule_label

    return f"DTTF: {rule['title']}" if rule["source"] == "dttf" else rule_label(rule)


def _quote_label(rule: dict) -> str:
    from floorcall.core.labels import QUOTE_LABELS

    return QUOTE_LABELS.get(rule.get("quote", ""), "the rulebook's words")


# ---------------------------------------------------------------- the search index

# Numbers in the packed postings are written as base-32 digits: a terminal digit from the first half
# of this alphabet, preceded by continuation digits from the second half (no separators needed).
PACK_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"


def _pack_number(n: int) -> str:
    digits = [n % 32]
    n //= 32
    while n:
        digits.append(n % 32)
        n //= 32
    return "".join(PACK_ALPHABET[32 + d] for d in reversed(digits[1:])) + PACK_ALPHABET[digits[0]]


def _unpack_numbers(text: str) -> list[int]:
    out, pending = [], 0
    for char in text:
        value = PACK_ALPHABET.index(char)
        if value >= 32:
            pending = pending * 32 + value - 32
        else:
            out.append(pending * 32 + value)
            pending = 0
    return out


def _pack_postings(postings: dict, counts: list[Counter], derived: list[Counter] | None = None) -> dict:
    """Postings as (doc delta, term frequency) per term, packed to stay small once gzipped.

    search.js recomputes each BM25 value from these (lookup_index's formula), so what ships is
    small repeating integers: the field-weighted tf x 10 (a code into `tf_table`, most frequent
    first) and the gap to the previous document. `derived` is the part of each tf that search.js
    counts itself (from the titles and aliases it has anyway): only the rest ships, and a posting
    made of nothing else does not ship at all. `unpack_values` proves the packing loses nothing.
    """
    terms_in_order = list(postings)
    tf10s = []
    docs = []
    for term in terms_in_order:
        previous, gaps = 0, []
        for doc, _value in postings[term]:
            tf10 = round(counts[doc][term] * 10)
            if abs(tf10 - counts[doc][term] * 10) > 1e-6:
                raise FloorError(f"field weight of '{term}' is not a multiple of 0.1 — the site index cannot pack it")
            rest = tf10 - (derived[doc][term] if derived else 0)
            if rest:
                tf10s.append(rest)
                gaps.append(_pack_number(doc - previous))
                previous = doc
        docs.append("".join(gaps))
    table = [tf for tf, _n in Counter(tf10s).most_common()]
    code = {tf: n for n, tf in enumerate(table)}
    return {"terms": " ".join(terms_in_order), "docs": " ".join(docs),
            "tfs": "".join(_pack_number(code[tf]) for tf in tf10s), "tf_table": table}


def name_counts(names: list[list[str]], name_fields: dict, phrases) -> list[Counter]:
    """Per situation, tf x 10 of its title and aliases fields: what search.js counts from `names` itself."""
    from floorcall.core.textnorm import terms

    out = []
    for doc_names in names:
        counts: Counter = Counter()
        for text, weight in ((doc_names[0] if doc_names else "", name_fields["title"]),
                             (name_fields["joiner"].join(doc_names[1:]), name_fields["aliases"])):
            for term in terms(text, phrases):
                counts[term] += weight
        out.append(counts)
    return out


def unpack_values(packed: dict, n_docs: int, derived: list[Counter] | None = None) -> dict[str, list]:
    """The BM25 values search.js computes from a packed index (the Python mirror of its `expand`)."""
    from floorcall.content.index import BM25_B, BM25_K1

    tf10s = iter([packed["tf_table"][c] for c in _unpack_numbers(packed["tfs"])])
    terms = packed["terms"].split(" ") if packed["terms"] else []  # no situations at all: no terms
    extra: dict[str, dict[int, int]] = {}
    for doc, counts in enumerate(derived or []):
        for term, tf10 in counts.items():
            extra.setdefault(term, {})[doc] = tf10
    lists = []
    tf10_lengths = [0] * n_docs
    for term, gaps in zip(terms, packed["docs"].split(" ") if terms else [], strict=True):
        merged, doc = dict(extra.get(term, {})), 0
        for gap in _unpack_numbers(gaps):
            doc += gap
            merged[doc] = merged.get(doc, 0) + next(tf10s)
        pairs = sorted(merged.items())
        for doc, tf10 in pairs:
            tf10_lengths[doc] += tf10
        lists.append(pairs)
    lengths = [n / 10 for n in tf10_lengths]
    average = sum(lengths) / n_docs if n_docs else 1.0
    values = {}
    for term, pairs in zip(terms, lists, strict=True):
        frequency = len(pairs)
        idf = math.log(1 + (n_docs - frequency + 0.5) / (frequency + 0.5))
        out = []
        for doc, tf10 in pairs:
            tf = tf10 / 10
            norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths[doc] / average)
            out.append([doc, round(idf * tf * (BM25_K1 + 1) / (tf + norm), 4)])
        values[term] = out
    return values


# Planes that hold combining marks: the BMP, the SMP and plane 14. Planes 2-3 are CJK ideographs,
# 4-13 unassigned and 15-16 private use, all combining class 0; skipping them saves ~0.2 s a build.
COMBINING_PLANES = (range(0x0000, 0x20000), range(0xE0000, 0xF0000))


@functools.lru_cache(maxsize=1)
def _combining_class() -> str:
    """A regex character class of every code point unicodedata.combining() flags (textnorm.fold drops them)."""
    import unicodedata

    ranges: list[tuple[int, int]] = []
    start: int | None = None  # None until the first combining mark
    previous = -1
    for cp in itertools.chain(*COMBINING_PLANES):
        if unicodedata.combining(chr(cp)):
            if start is None:
                start = cp
            elif cp != previous + 1:
                ranges.append((start, previous))
                start = cp
            previous = cp
    assert start is not None  # every Unicode version has combining marks
    ranges.append((start, previous))
    return "".join(f"\\u{{{a:x}}}" if a == b else f"\\u{{{a:x}}}-\\u{{{b:x}}}" for a, b in ranges)


# The situation fields search.js rebuilds from `names` (title first, then the aliases) rather than
# receiving their counts: lookup_index.situation_fields must keep making them this way (checked).
NAME_FIELDS = ("title", "aliases")
ALIAS_JOINER = " . "


def search_index(corpus: dict) -> dict:
    """Everything search.js needs to rank exactly like lookup.rank (and nothing it can work out itself)."""
    from floorcall.content import index as lookup_index
    from floorcall.content import rulebook
    from floorcall.core import textnorm
    from floorcall.engines import lookup

    index = dict(corpus["index"])
    for key in ("situation_postings", "rule_postings"):  # plain [[doc, value], …] even if a cache packed them
        index[key] = {term: [[doc, value] for doc, value in lookup.postings_of(index[key], term)] for term in index[key]}
    rules = corpus["rules"]
    phrases = index["phrases"]
    names = index["situation_names"]
    situations = [corpus["situations"][s] for s in index["situations"]]
    fields = [lookup_index.situation_fields(s, rules) for s in situations]
    for doc_fields, doc_names in zip(fields, names, strict=True):
        if [doc_fields["title"], doc_fields["aliases"]] != [doc_names[0], ALIAS_JOINER.join(doc_names[1:])]:
            raise FloorError("lookup_index no longer makes the title and aliases fields from the situation names — update sitegen.NAME_FIELDS")
    name_fields = {"title": round(lookup_index.SITUATION_FIELDS["title"] * 10),
                   "aliases": round(lookup_index.SITUATION_FIELDS["aliases"] * 10), "joiner": ALIAS_JOINER}
    derived = name_counts(names, name_fields, phrases)
    situation_counts = lookup_index.weighted_counts(fields, lookup_index.SITUATION_FIELDS, phrases)
    rule_counts = lookup_index.weighted_counts([lookup_index.rule_fields(rules[r]) for r in index["rules"]],
                                   lookup_index.RULE_FIELDS, phrases)
    packed_situations = _pack_postings(index["situation_postings"], situation_counts, derived)
    packed_rules = _pack_postings(index["rule_postings"], rule_counts)
    # The packed form must give back the index's own numbers, or the browser would rank differently.
    if unpack_values(packed_situations, len(situations), derived) != index["situation_postings"] \
            or unpack_values(packed_rules, len(index["rules"])) != index["rule_postings"]:
        raise FloorError("the site's packed postings do not reproduce the lookup index — lookup_index changed its formula; update sitegen")
    return {
        "version": 2,
        "constants": {
            "bm25_k1": lookup_index.BM25_K1, "bm25_b": lookup_index.BM25_B,
            "typo_min_length": lookup.TYPO_MIN_LENGTH, "typo_long_word": lookup.TYPO_LONG_WORD,
            "typo_max_edits": lookup.TYPO_MAX_EDITS, "typo_max_edits_long": lookup.TYPO_MAX_EDITS_LONG,
            "typo_weight": lookup.TYPO_WEIGHT, "typo_max_length_gap": lookup.TYPO_MAX_LENGTH_GAP,
            "fuzz_weight": lookup.FUZZ_WEIGHT, "fuzz_floor": lookup.FUZZ_FLOOR,
            "relative_cutoff": lookup.RELATIVE_CUTOFF, "max_query_chars": lookup.MAX_QUERY_CHARS,
            "max_query_terms": lookup.MAX_QUERY_TERMS, "suffixes": list(textnorm.SUFFIXES),
            "keep_double": "".join(sorted(textnorm.KEEP_DOUBLE)), "min_stem": textnorm.MIN_STEM,
            "max_phrase": textnorm.MAX_PHRASE, "limit": SEARCH_LIMIT, "rule_limit": SEARCH_RULE_LIMIT,
            "pack_alphabet": PACK_ALPHABET, "name_fields": name_fields,
            "confident_score": lookup.CONFIDENT_SCORE, "confident_coverage": lookup.CONFIDENT_COVERAGE,
            "reference_situations": lookup.REFERENCE_SITUATIONS, "source_aliases": rulebook.SOURCE_ALIASES,
            "prefix_min_length": PREFIX_MIN_LENGTH, "prefix_candidates": PREFIX_CANDIDATES,
        },
        "stop": sorted(textnorm.STOP_STEMS),
        "combining": _combining_class(),
        "phrases": phrases,
        "situations": index["situations"],
        "names": names,
        "situation_postings": packed_situations,
        "rules": index["rules"],
        "rule_postings": packed_rules,
        "out_of_scope": index.get("out_of_scope", []),
        "citing": _pack_citing(index),
    }


def _pack_citing(index: dict) -> dict[str, str]:
    """For a rule-number query: rule number -> the first situations citing it (as many as a lookup shows)."""
    from floorcall.engines.lookup import REFERENCE_SITUATIONS

    rule_number = {rid: n for n, rid in enumerate(index["rules"])}
    doc = {sid: n for n, sid in enumerate(index["situations"])}
    return {str(rule_number[rid]): "".join(_pack_number(doc[sid]) for sid in sids[:REFERENCE_SITUATIONS] if sid in doc)
            for rid, sids in index.get("citing", {}).items() if rid in rule_number}


def search_labels(corpus: dict) -> dict:
    """What the result list shows beside the ranker's ids: each situation's primary rule, each rule's label."""
    from floorcall.core.labels import rule_label

    index = corpus["index"]
    rules = corpus["rules"]
    rule_number = {rid: n for n, rid in enumerate(index["rules"])}
    return {
        "primary": [rule_number.get((corpus["situations"][s].get("cites") or [None])[0], -1) for s in index["situations"]],
        "rule_labels": [f"{rule_label(rules[r])} — {rules[r]['title']}" for r in index["rules"]],
    }


def search_previews(corpus: dict) -> list:
    """Per situation (in the index's order), its preview: what a short tree rules, at a glance."""
    return [preview(corpus["situations"][s]) for s in corpus["index"]["situations"]]


def preview(situation: dict) -> dict | None:
    """A short tree at a glance, under the house rules: {"r": ruling} when it asks nothing;
    {"q", "ask", "a": [[answer id, label, ruling], …]} when one question decides it (each answer
    then opens the page on its ruling); None for a longer tree."""
    questions = situation.get("questions") or {}
    outcomes = situation["outcomes"]
    start = situation["start"]
    if start not in questions:
        return {"r": outcomes[start]["ruling"]}
    question = questions[start]
    answers = question["answers"]
    if any(a["next"] not in outcomes for a in answers.values()):
        return None
    return {"q": start, "ask": question["ask"], "a": [[aid, a["label"], outcomes[a["next"]]["ruling"]] for aid, a in answers.items()]}


def script_json(value) -> str:
    """JSON that can sit in a script: it never closes the script or starts a comment (jinja2's |tojson escapes)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def data_script(name: str, value) -> str:
    """A classic script assigning `window.NAME`: loads from file://, where fetch() cannot."""
    return f"window.{name} = {script_json(value)};\n"


# ---------------------------------------------------------------- the quiz

# Exams the site offers: each is the paper `floor quiz --exam --seed N` gives, questions and choice order alike.
SITE_EXAM_SEEDS = tuple(range(1, 13))


def quiz_items(corpus: dict, seed: int = 0) -> tuple[list[dict], str, list[dict]]:
    """Quiz items in the site's shape, from the quiz engine when it exists, else from the trees' scenarios;
    and the exam papers (empty without the engine)."""
    try:
        from floorcall.engines import quiz as engine
    except ImportError as exc:
        if getattr(exc, "name", None) not in (None, "floorcall.engines.quiz"):
            raise  # quiz.py exists but one of its own imports failed: that is a bug to see
        raw, origin, papers = scenario_quiz(corpus, seed), "trees' scenarios", []
    else:
        generated = engine.generate_items(corpus, seed)
        raw, origin = engine.export_for_site(corpus, items=generated), "quiz engine"
        papers = exam_papers(generated)
    items = [normalise_quiz_item(item, corpus["rules"], n) for n, item in enumerate(raw)]
    return items, origin, papers


def exam_papers(items: list) -> list[dict]:
    """Each site exam as {seed, items: [[item number, choice order], …]}: the CLI's paper for that seed."""
    from floorcall.engines.exam import compose

    number = {item.id: n for n, item in enumerate(items)}
    by_id = {item.id: item for item in items}
    papers = []
    for seed in SITE_EXAM_SEEDS:
        paper = compose(items, seed)
        rows = [[number[q.id], [by_id[q.id].choices.index(c) for c in q.choices]] for q in paper]
        papers.append({"seed": seed, "items": rows})
    return papers


def _choice_text(choice) -> str:
    if isinstance(choice, dict):
        for key in ("label", "text", "ruling", "choice"):
            if choice.get(key):
                return str(choice[key])
        raise FloorError(f"quiz choice has no text: {choice!r}")
    return str(choice)


def normalise_quiz_item(item: dict, rules: dict, position: int) -> dict:
    """{id, topic, prompt, choices[str], answer index, explanation, cites[[label, path]]}; a malformed item is an error."""
    from floorcall.core.labels import rule_label

    choices = item.get("choices") or []
    texts = [_choice_text(c) for c in choices]
    answer = item.get("answer_index", item.get("answer"))  # the engine's 0-based index, or an id/text
    if isinstance(answer, bool) or answer is None:
        index = None
    elif isinstance(answer, int):
        index = answer
    else:
        ids = [str(c.get("id")) if isinstance(c, dict) else None for c in choices]
        index = ids.index(str(answer)) if str(answer) in ids else (texts.index(str(answer)) if str(answer) in texts else None)
    if len(texts) < 2 or index is None or not 0 <= index < len(texts):
        raise FloorError(f"quiz item {item.get('id', position)!r} needs 2+ choices and an answer among them")
    cites = []
    for rid in item.get("cites") or []:
        rule = rules.get(rid)
        cites.append([f"{rule_label(rule)} — {rule['title']}" if rule else rid, rule_path(rid) if rule else ""])
    answers = [int(n) - 1 for n in item.get("answer_numbers") or []] or [index]
    if any(not 0 <= n < len(texts) for n in answers):
        raise FloorError(f"quiz item {item.get('id', position)!r} needs 2+ choices and an answer among them")
    normalised = {
        "id": str(item.get("id") or f"q{position}"),
        "kind": str(item.get("kind") or "scenario"),
        "topic": str(item.get("topic") or "general"),
        "prompt": str(item.get("prompt") or ""),
        "choices": texts,
        "answer": index,
        "answers": answers,
        "walk": str(item.get("walk") or ""),
        "link": str(item.get("link") or ""),
        "draws": list(item.get("draws_on") or [str(item.get("ref") or item.get("id") or position)]),
        # The engine ends explanations with "Rules: <label> [id]; …." for the terminal; the page links them instead.
        "explanation": CITED_RULES_TAIL.sub("", str(item.get("explanation") or "")),
        "cites": cites,
        # what the item is about (its situation, or its rule): the quiz never serves a run of one
        "ref": str(item.get("ref") or str(item.get("id") or position).rsplit(":", 1)[0]),
    }
    from floorcall.core.labels import full_text_label
    from floorcall.engines.editions import full_text_for

    primary = full_text_for(rules.get((item.get("cites") or [""])[0]))
    if primary:  # only with an imported copy: the governing rule's own words, marked with where they are from
        normalised["words"] = [primary["text"], full_text_label(primary)]
    return normalised


SENTENCE_END = re.compile(r"(?<=[.!?]) ")


def quiz_payload(items: list[dict], papers: list[dict] | None = None) -> dict:
    """The quiz for the page, its text stored once: choices, prompt lines, explanation sentences and
    walk commands are numbers into one shared table (the same facts are asked four ways, the same
    rulings recur as wrong answers: the file is a third of its size this way), citations are rule
    ids into one table of [label, page], and each item is a row of `fields`. quiz.js puts them back
    together exactly. Also the exam's
    rules (length, time, pass mark) and its papers."""
    from floorcall.engines.exam import EXAM_COUNT, EXAM_MINUTES, EXAM_PASS

    table: dict[str, int] = {}

    def number(text: str) -> int:
        return table.setdefault(text, len(table))

    rules: dict[str, list[str]] = {}
    packed = []
    for item in items:
        cite_ids = []
        for label, path in item["cites"]:
            rid = _rule_id_of(path) or label
            rules.setdefault(rid, [label, path])
            cite_ids.append(rid)
        packed.append(dict(
            item,
            prompt=[number(line) for line in item["prompt"].split("\n")],
            choices=[number(c) for c in item["choices"]],
            explanation=[number(part) for part in SENTENCE_END.split(item["explanation"])] if item["explanation"] else [],
            cites=cite_ids, walk=number(item["walk"]), link=number(item["link"]),
        ))
    fields = list(dict.fromkeys(key for row in packed for key in row))  # `words` only on items with an imported copy
    return {"texts": list(table), "rules": rules, "fields": fields, "items": [[row.get(f) for f in fields] for row in packed],
            "exam": {"count": EXAM_COUNT, "minutes": EXAM_MINUTES, "pass": EXAM_PASS, "papers": papers or []}}


def _rule_id_of(path: str) -> str:
    """rules/tda-2024/44.html -> tda-2024:44 (the inverse of rule_path)."""
    parts = path.split("/")
    return f"{parts[1]}:{parts[2].removesuffix('.html')}" if len(parts) == 3 and parts[0] == "rules" else ""


def quiz_files(items: list[dict], papers: list[dict] | None = None) -> dict[str, str]:
    """The quiz as two scripts. The first (QUIZ_SCRIPT) is small: a few items of every topic, each
    about a different situation, so the first question shows at once. The second (QUIZ_REST_SCRIPT),
    loaded behind that question, holds every other item and the exam papers. Together they are
    exactly quiz_payload's one payload, split: the starter items come first, so the shared text
    table and the rule table the first file needs are the start of the whole table, the second file
    carries on the numbering, and quiz.js joins them by appending."""
    by_topic: dict[str, list[dict]] = {}
    for item in items:
        by_topic.setdefault(item["topic"], []).append(item)
    starter: list[dict] = []
    for topic in sorted(by_topic):
        listed = by_topic[topic]
        rng = random.Random(f"starter:{topic}")  # the same first items every build: the file stays cacheable
        first: dict[str, dict] = {}  # situation (or rule) -> its item: one per situation while they last
        for item in rng.sample(listed, len(listed)):
            if len(first) < STARTER_PER_TOPIC:
                first.setdefault(item["ref"], item)
        starter += first.values()
    chosen = {item["id"] for item in starter}
    ordered = starter + [item for item in items if item["id"] not in chosen]
    position = {item["id"]: n for n, item in enumerate(ordered)}
    renumbered = [dict(paper, items=[[position[items[n]["id"]], order] for n, order in paper["items"]]) for paper in papers or []]
    whole = quiz_payload(ordered, renumbered)
    first = quiz_payload(starter)  # packed the same way, so its tables are the start of the whole one's
    texts, rule_ids = len(first["texts"]), list(whole["rules"])[:len(first["rules"])]
    exam = dict(whole["exam"], papers=[])  # the papers come with the rest: an exam needs every item
    head = {"texts": whole["texts"][:texts], "rules": {rid: whole["rules"][rid] for rid in rule_ids}, "fields": whole["fields"],
            "items": whole["items"][:len(starter)], "exam": exam, "total": len(items), "rest": QUIZ_REST_SCRIPT}
    rest = {"texts": whole["texts"][texts:], "rules": {rid: v for rid, v in whole["rules"].items() if rid not in head["rules"]},
            "items": whole["items"][len(starter):], "papers": whole["exam"]["papers"]}
    return {QUIZ_SCRIPT: data_script("FLOOR_QUIZ", head), QUIZ_REST_SCRIPT: data_script("FLOOR_QUIZ_REST", rest)}


def scenario_quiz(corpus: dict, seed: int = 0) -> list[dict]:
    """Until the quiz engine lands: each scenario with facts asks for its tree's ruling among the others."""
    by_tag: dict[str, list[str]] = {}
    for situation in corpus["situations"].values():
        for outcome in situation["outcomes"].values():
            by_tag.setdefault((situation.get("tags") or ["general"])[0], []).append(outcome["ruling"])
    items = []
    for sid in sorted(corpus["situations"]):
        situation = corpus["situations"][sid]
        topic = (situation.get("tags") or ["general"])[0]
        for number, scenario in enumerate(situation.get("scenarios") or [], 1):
            facts = scenario.get("facts")
            outcome = situation["outcomes"].get(scenario.get("expect"))
            if not facts or outcome is None:
                continue
            rng = random.Random(f"{seed}:{sid}:{number}")
            right = outcome["ruling"]
            others = list(dict.fromkeys(o["ruling"] for o in situation["outcomes"].values() if o["ruling"] != right))
            if len(others) < QUIZ_CHOICES - 1:  # too few in the tree: borrow from the same topic
                pool = sorted(set(by_tag.get(topic, [])) - set(others) - {right})
                others += rng.sample(pool, min(len(pool), QUIZ_CHOICES - 1 - len(others)))
            choices = [right] + rng.sample(others, min(len(others), QUIZ_CHOICES - 1))
            rng.shuffle(choices)
            explanation = " ".join(x for x in (outcome.get("why", ""), outcome.get("house", "")) if x)
            items.append({
                "id": f"{sid}:{number}", "topic": topic, "ref": sid,
                "prompt": f"{situation['title']}.\n{facts}\nWhat is the ruling?",
                "choices": choices, "answer": choices.index(right),
                "explanation": explanation, "cites": list(outcome.get("cite") or []),
            })
    return items


# ---------------------------------------------------------------- page data

def governing_words(rule: dict) -> dict:
    """The words a ruling screen shows for its governing rule, chosen as the CLI's first screen
    (render.render_first_screen) chooses them: the director's imported copy when there is one; the
    quote when the source we quote holds it whole; an opening that ends its sentence followed by our
    summary of the rest (the deciding clause often comes later); else our summary, marked as ours."""
    from floorcall.core.labels import full_text_label
    from floorcall.engines.editions import full_text_for

    official = full_text_for(rule)
    if official:
        return {"kind": "official", "text": official["text"], "note": "The rulebook’s words, from " + full_text_label(official)}
    text = rule.get("text") or ""
    label = _quote_label(rule)[:1].upper() + _quote_label(rule)[1:]
    if rule.get("quote") == "full" and text and not text.rstrip().endswith("…"):
        return {"kind": "quote", "text": text, "note": label}
    if rule.get("quote") == "opening" and text and not text.rstrip().endswith("…"):
        return {"kind": "quote", "text": text, "note": label, "summary": rule.get("summary", "")}
    return {"kind": "summary", "text": rule.get("summary", ""), "note": "In our words (not the rulebook’s text)"}


def _rule_view(rule: dict, governs: bool = False) -> dict:
    """A cited rule as walk.js shows it; the words only for a rule that governs some ruling (cited first)."""
    from floorcall.core.labels import rule_heading, rule_label

    view = {"id": rule["id"], "label": rule_label(rule), "title": rule["title"], "heading": rule_heading(rule),
            "path": rule_path(rule["id"]), "summary": rule.get("summary", ""), "source": rule["source"]}
    if governs:
        view["words"] = governing_words(rule)
    return view


def _walk_data(situation: dict, rules: dict, situations: dict | None = None) -> dict:
    """What walk.js needs: the questions, each outcome under both house modes (with the CLI's one
    line on house vs TDA), the cited rules with the words to show, and the neighbouring situations."""
    from floorcall.engines.walk import house_line, rule_for_house

    outcomes = {}
    cited = []
    governing = set()
    for oid in situation["outcomes"]:
        modes = {}
        for house in ("dttf", "none"):
            ruling = rule_for_house(situation, oid, house)
            data = ruling.as_json()
            modes[house] = {k: data[k] for k in ("ruling", "why", "cites", "house_note", "other_position", "note_2019", "calc", "sourcing")}
            modes[house]["house_line"] = house_line(ruling)
            cited += data["cites"] + list((data["other_position"] or {}).get("cite") or [])
            governing.update(data["cites"][:1])
        outcomes[oid] = modes
    return {
        "id": situation["id"],
        "title": situation["title"],
        "start": situation["start"],
        "questions": {qid: {"ask": q["ask"], "help": q.get("help", ""),
                            "answers": [[aid, a["label"], a["next"]] for aid, a in q["answers"].items()]}
                      for qid, q in (situation.get("questions") or {}).items()},
        "outcomes": outcomes,
        "rules": {rid: _rule_view(rules[rid], rid in governing)
                  for rid in dict.fromkeys(cited) if rid in rules},
        "siblings": siblings(situation, situations or {}),
    }


def siblings(situation: dict, situations: dict) -> list[dict]:
    """The neighbouring situations a floorperson may have meant instead ("not this? see …")."""
    return [{"id": sid, "title": situations[sid]["title"], "path": situation_path(sid)}
            for sid in situation.get("siblings") or [] if sid in situations]


def _card(situation: dict) -> dict:
    """The one-page print card: questions numbered in walking order (breadth first), outcomes lettered."""
    questions = situation.get("questions") or {}
    order, queue, seen = [], [situation["start"]], set()
    while queue:
        node = queue.pop(0)
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        if node in questions:
            queue += [a["next"] for a in questions[node]["answers"].values()]
    question_ids = [n for n in order if n in questions]
    outcome_ids = [n for n in order if n not in questions]
    numbers = {qid: n for n, qid in enumerate(question_ids, 1)}
    letters = {oid: (chr(ord("A") + n) if n < 26 else f"R{n + 1}") for n, oid in enumerate(outcome_ids)}
    names = {**{qid: f"Q{n}" for qid, n in numbers.items()}, **{oid: f"Ruling {letter}" for oid, letter in letters.items()}}
    return {
        "questions": [{"id": qid, "number": numbers[qid], "ask": questions[qid]["ask"],
                       "answers": [(a["label"], names[a["next"]]) for a in questions[qid]["answers"].values()]}
                      for qid in question_ids],
        "outcomes": [{"id": oid, "name": names[oid]} for oid in outcome_ids],
    }


def _sections(rules_in_source: list[dict]) -> list[tuple[str, list[dict]]]:
    groups: dict[str, list[dict]] = {}
    for rule in rules_in_source:
        groups.setdefault(rule["section"], []).append(rule)
    return list(groups.items())


def _conflicts(corpus: dict) -> tuple[list[dict], list[dict]]:
    """DTTF-vs-TDA 2024 conflicts and every other conflict, each pair in order of precedence (house first)."""
    rules = corpus["rules"]
    precedence = {s["id"]: s.get("precedence", 99) for s in corpus["sources"]}
    main: list[dict] = []
    other: list[dict] = []
    for rule in rules.values():
        for relation in rule.get("relations") or []:
            if relation.get("type") != "conflicts" or relation.get("to") not in rules:
                continue
            a, b = sorted((rule, rules[relation["to"]]), key=lambda r: precedence.get(r["source"], 99))
            entry = {"house": a, "other": b, "note": relation.get("note", "")}
            (main if a["source"] == "dttf" and b["source"] == "tda-2024" else other).append(entry)
    return main, other


def _edition_changes(corpus: dict) -> dict:
    rules = corpus["rules"]
    changed: list[dict] = []
    unchanged: list[dict] = []
    successors: set[str] = set()
    for rule in rules.values():
        for relation in rule.get("relations") or []:
            if relation.get("type") == "supersedes" and relation.get("to") in rules:
                entry = {"new": rule, "old": rules[relation["to"]], "note": relation.get("note", ""),
                         "changed": bool(relation.get("changed"))}
                (changed if entry["changed"] else unchanged).append(entry)
                successors.add(rule["id"])
    new_only = [r for r in rules.values() if r["source"] == "tda-2024" and r["number"].startswith("RP")
                and r["id"] not in successors]
    return {"changed": changed, "unchanged": unchanged, "new": new_only}


def _citing(corpus: dict) -> dict[str, list[dict]]:
    citing: dict[str, list[dict]] = {}
    for situation in sorted(corpus["situations"].values(), key=lambda s: s["title"].lower()):
        for rid in situation.get("cites") or []:
            citing.setdefault(rid, []).append(situation)
    return citing


# ---------------------------------------------------------------- icons (drawn here: no binary files in the repo)

# A maskable icon may be cut to any shape inside the middle 80 %: the chip then fills 67 % of it.
MASKABLE_SCALE = 0.78


@functools.cache
def _png(size: int, scale: float = 1.0) -> bytes:
    """A poker chip on felt: rings and edge notches, drawn pixel by pixel (no imaging library needed)."""
    felt, white, red = bytes((13, 92, 58)), bytes((245, 245, 240)), bytes((196, 40, 40))
    centre, half = (size - 1) / 2, size / 2 * scale
    # Ring radii as squared pixel distances: only the notched edge needs an angle.
    edge, notches, inner, core = ((f * half) ** 2 for f in (0.86, 0.70, 0.64, 0.40))
    rows = []
    for y in range(size):
        dy = y - centre
        row = [b"\0"]
        for x in range(size):
            dx = x - centre
            d2 = dx * dx + dy * dy
            if d2 > edge:
                row.append(felt)
            elif d2 > notches:
                row.append(white if (math.degrees(math.atan2(dy, dx)) + 360) % 45 < 22.5 else red)
            elif d2 > inner or d2 < core:
                row.append(white)
            else:
                row.append(red)
        rows.append(b"".join(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def manifest(name: str = "Floorcall") -> str:
    return json.dumps({
        # A stable identity wherever the site is hosted (resolved against the origin, never a page).
        "id": "floorcall",
        "name": "Floorcall — poker floor rulings",
        "short_name": name,
        "description": "Floor rulings for poker tournaments, with the rules cited. Works offline.",
        "start_url": "index.html",
        "scope": "./",
        "display": "standalone",
        "background_color": THEME_COLOR,
        "theme_color": THEME_COLOR,
        # The dark variant (Chromium reads user_preferences; every page also says it in its theme-color meta).
        "user_preferences": {"color_scheme_dark": {"theme_color": THEME_COLOR_DARK, "background_color": BACKGROUND_DARK}},
        "icons": [
            {"src": "static/icon-192.png", "sizes": "192x192", "type": "image/png"},
            {"src": "static/icon-512.png", "sizes": "512x512", "type": "image/png"},
            {"src": "static/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": "static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
        ],
        "shortcuts": [
            {"name": "Search", "url": "index.html"},
            {"name": "Quiz", "url": "quiz/index.html"},
        ],
    }, indent=2) + "\n"


# ---------------------------------------------------------------- the build

def render_site(corpus: dict, root: Path, quiz: tuple[list[dict], str, list[dict]] | None = None) -> tuple[dict[str, bytes], dict]:
    """Every file of the site as {relative path: bytes}, and facts for the report. Writes nothing."""
    from floorcall.content.rulebook import rules_in_order
    from floorcall.core.labels import rule_label
    from floorcall.engines.walk import house_line, rule_for_house

    templates = root / "site" / "templates"
    static = root / "site" / "static"
    if not templates.is_dir():
        raise FloorError(f"no site templates in {templates} — is this a Floorcall checkout?")
    env = make_environment(templates)
    env.filters["label"] = rule_label
    env.filters["short_cite"] = _short_cite
    env.globals["quote_label"] = _quote_label
    env.globals["holdem_relevant"] = _holdem_relevant
    from floorcall.core.labels import full_text_label
    from floorcall.engines.editions import full_text_for

    env.globals["full_text_for"] = full_text_for  # the user's imported copy (floor import), or None
    env.globals["full_text_label"] = full_text_label
    rules = corpus["rules"]
    sources = corpus["sources"]
    env.globals["house_line"] = house_line
    for rule in rules.values():  # the address of a part is an anchor on its rule's page: both must agree
        if bool(_part_of(rule["id"])) != bool(rule.get("parent") in rules):
            raise FloorError(f"rule '{rule['id'][:80]}' is numbered like a part but has no rule it belongs to (or the reverse) — run `floor check`")
    situations = sorted(corpus["situations"].values(), key=lambda s: s["title"].lower())
    by_source = {s["id"]: rules_in_order(corpus, s["id"]) for s in sources}
    citing = _citing(corpus)
    precedence = {s["id"]: s.get("precedence", 99) for s in sources}
    files: dict[str, bytes] = {}

    def page(path: str, template: str, **context) -> None:
        context.setdefault("title", "Floorcall")
        context.setdefault("description", DESCRIPTION)
        html = env.get_template(template).render(root=root_prefix(path), page_path=path, sources=sources, **context)
        files[path] = html.encode("utf-8")

    tags: dict[str, list[dict]] = {}
    for situation in situations:
        tags.setdefault((situation.get("tags") or ["general"])[0], []).append(situation)
    conflicts, other_conflicts = _conflicts(corpus)
    editions = _edition_changes(corpus)
    items, quiz_origin, papers = quiz if quiz is not None else quiz_items(corpus)

    page("index.html", "home.html", title="Floorcall", situation_count=len(situations),
         counts={s["id"]: len(by_source[s["id"]]) for s in sources}, conflicts=len(conflicts),
         quiz_count=len(items))
    page(OFFLINE_PAGE, "offline.html", title="Not saved for offline")
    page("situations/index.html", "situations.html", title="All situations", tags=sorted(tags.items()),
         situation_count=len(situations))
    for situation in situations:
        rulings = {oid: rule_for_house(situation, oid, "dttf") for oid in situation["outcomes"]}
        page(situation_path(situation["id"]), "situation.html", title=situation["title"], situation=situation,
             rulings=rulings, rules=rules, walk=_walk_data(situation, rules, corpus["situations"]),
             card=_card(situation), siblings=siblings(situation, corpus["situations"]),
             description=_situation_description(situation))
    page("rules/index.html", "sources.html", title="The rulebook", by_source=by_source)
    for source in sources:
        listed = by_source[source["id"]]
        whole = [r for r in listed if not r.get("parent")]  # parts are read on their rule's page
        page(source_path(source["id"]), "source.html", title=source["title"], source=source,
             sections=_sections(whole), others=[r for r in whole if not _holdem_relevant(r)], total=len(listed), rules=rules)
        for position, rule in enumerate(whole):
            previous = whole[position - 1] if position else None
            following = whole[position + 1] if position + 1 < len(whole) else None
            related = [(r, rules.get(r["to"])) for r in rule.get("related") or []]
            # Both positions, the one that takes precedence (the house, then TDA 2024…) first.
            positions = [tuple(sorted((rule, other), key=lambda x: precedence.get(x["source"], 99))) + (r.get("note", ""),)
                         for r, other in related if r["type"] == "conflicts" and other is not None]
            parts = [rules[p] for p in rule.get("parts") or [] if p in rules]
            page(rule_file(rule["id"]), "rule.html", title=f"{rule_label(rule)} — {rule['title']}", rule=rule,
                 source=source, related=related, positions=positions, citing=citing.get(rule["id"], []),
                 parts=parts, part_citing={p["id"]: citing.get(p["id"], []) for p in parts},
                 previous=previous, following=following, rules=rules, description=_rule_description(rule))
        for part in (r for r in listed if r.get("parent")):
            page(rule_file(part["id"]), "part.html", title=f"{rule_label(part)} — {part['title']}", rule=part,
                 parent=rules[part["parent"]], source=source, description=_rule_description(part))
    page("compare/dttf-vs-tda-2024.html", "compare_conflicts.html", title="DTTF house rules vs TDA 2024",
         conflicts=conflicts, other_conflicts=other_conflicts, citing=citing)
    page("compare/tda-2019-to-2024.html", "compare_editions.html", title="TDA Recommended Procedures: 2019 to 2024",
         editions=editions)
    topics = sorted({item["topic"] for item in items})
    from floorcall.engines.exam import EXAM_COUNT, EXAM_MINUTES, EXAM_PASS

    page("quiz/index.html", "quiz.html", title="Quiz", quiz_count=len(items), topics=topics, quiz_origin=quiz_origin,
         exam_count=EXAM_COUNT, exam_minutes=EXAM_MINUTES, exam_pass=f"{EXAM_PASS:g}")

    index = search_index(corpus)
    files[INDEX_SCRIPT] = data_script("FLOOR_INDEX", index).encode("utf-8")
    files[LABELS_SCRIPT] = data_script("FLOOR_LABELS", search_labels(corpus)).encode("utf-8")
    files[PREVIEWS_SCRIPT] = data_script("FLOOR_PREVIEWS", search_previews(corpus)).encode("utf-8")
    for quiz_path, text in quiz_files(items, papers).items():
        files[quiz_path] = text.encode("utf-8")
    files["static/icon-192.png"] = _png(192)
    files["static/icon-512.png"] = _png(512)
    files["static/icon-maskable-512.png"] = _png(512, MASKABLE_SCALE)
    files["manifest.webmanifest"] = manifest().encode("utf-8")
    for path in sorted(static.rglob("*")):
        relative = "static/" + path.relative_to(static).as_posix()
        if _linked(path, static):
            continue  # never follow or publish a symlink: it could point anywhere on the machine
        if path.is_file() and not path.name.startswith(".") and relative not in GENERATED_STATIC:
            if path.stat().st_size > MAX_STATIC_BYTES:
                raise FloorError(f"{path} is over {MAX_STATIC_BYTES // 1_000_000} MB — not a site asset")
            files[relative] = path.read_bytes()
    # The service worker last: it lists (and is versioned by) every other file.
    precache = sorted(files)
    digest = hashlib.sha256()
    for name in precache:
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    # Each file with a digest of its bytes: the worker checks what it downloads against it, and an
    # update copies the files that did not change from the previous copy instead of fetching them.
    digests = [[name, hashlib.sha256(files[name]).hexdigest()[:16]] for name in precache]
    sw = env.get_template("sw.js").render(version=digest.hexdigest()[:16], files=digests, offline_page=OFFLINE_PAGE,
                                          core=[OFFLINE_PAGE, "index.html", "static/style.css", "static/site.js"])
    files["sw.js"] = sw.encode("utf-8")
    facts = {"quiz_items": len(items), "quiz_source": quiz_origin, "index_bytes": len(files[INDEX_SCRIPT]),
             "index_gzip_bytes": len(gzip.compress(files[INDEX_SCRIPT], 9, mtime=0)),
             "labels_gzip_bytes": len(gzip.compress(files[LABELS_SCRIPT], 9, mtime=0)),
             "counts": {"situations": len(situations), "rules": len(rules), "sources": len(sources),
                        "conflicts": len(conflicts), "edition_changes": len(editions["changed"]),
                        "full_text": sum(1 for r in rules.values() if r.get("full_text"))}}
    return files, facts


DESCRIPTION = "Poker tournament floor rulings at the table: find the situation, answer what happened, get the ruling with the rules cited."


def _situation_description(situation: dict) -> str:
    return f"{situation['title']}: the floor ruling, step by step, with the TDA 2024 and house rules cited."


def _rule_description(rule: dict) -> str:
    from floorcall.core.labels import rule_heading

    summary = " ".join(str(rule.get("summary", "")).split())
    return f"{rule_heading(rule)}. {summary[:140]}{'…' if len(summary) > 140 else ''}"


def _linked(path: Path, top: Path) -> bool:
    """True when `path` or a folder between it and `top` is a symlink."""
    while path != top and path != path.parent:
        if path.is_symlink():
            return True
        path = path.parent
    return False


def _replaceable(folder: Path) -> bool:
    return not folder.exists() or (folder.is_dir() and ((folder / MARKER).exists() or not any(folder.iterdir())))


def safe_relative(path: str) -> bool:
    """A site file's path stays inside the site: relative, no '..', no empty or hidden-dot parts.
    Ids become paths (rules/<source>/<number>.html), so a crafted id must never climb out."""
    parts = path.split("/")
    return not path.startswith("/") and "\\" not in path and all(part and part not in (".", "..") for part in parts)


def _remove_leftovers(out_dir: Path) -> None:
    """Staging and retired folders that a killed build left beside `out_dir` (their process is gone)."""
    for leftover in out_dir.parent.glob(f".{out_dir.name}.*-*"):
        kind, _, pid = leftover.name.rpartition("-")
        if not (kind.endswith((".building", ".old")) and pid.isdigit()) or not leftover.is_dir() or leftover.is_symlink():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(leftover, ignore_errors=True)
        except (PermissionError, OverflowError, ValueError):
            pass


def _write(files: dict[str, bytes], out_dir: Path) -> None:
    unsafe = [path for path in files if not safe_relative(path)]
    if unsafe:
        raise FloorError(f"refusing to write '{unsafe[0][:80]}' outside the site folder — run `floor check`")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(out_dir)
    staging = out_dir.parent / f".{out_dir.name}.building-{os.getpid()}"
    if staging.exists():
        shutil.rmtree(staging)
    for path, data in files.items():
        target = staging / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    (staging / MARKER).write_text("Built by `floor site build`; this whole folder is replaced on the next build.\n")
    # Swap the finished folder in: a reader sees the old site or the new one, never half of each.
    retired = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    if out_dir.exists():
        os.replace(out_dir, retired)
    os.replace(staging, out_dir)
    shutil.rmtree(retired, ignore_errors=True)


def build_site(corpus: dict, out_dir: Path, root: Path | None = None, quiz: tuple[list[dict], str, list[dict]] | None = None) -> SiteReport:
    """Render the site and put it in `out_dir`, replacing a previous build there (and nothing else)."""
    started = time.perf_counter()
    out_dir = Path(out_dir).resolve()
    root = Path(root or corpus["root"])
    if not _replaceable(out_dir):
        raise FloorError(f"{out_dir} is not empty and holds no Floorcall site ({MARKER} missing) — choose another --out")
    files, facts = render_site(corpus, root, quiz)
    try:
        _write(files, out_dir)
    except OSError as exc:
        raise FloorError(f"cannot write the site to {out_dir}: {exc.strerror or exc}") from None
    pages = sum(1 for p in files if p.endswith(".html"))
    return SiteReport(out_dir=out_dir, pages=pages, files=len(files), total_bytes=sum(len(d) for d in files.values()),
                      index_bytes=facts["index_bytes"], index_gzip_bytes=facts["index_gzip_bytes"],
                      labels_gzip_bytes=facts["labels_gzip_bytes"],
                      quiz_items=facts["quiz_items"], quiz_source=facts["quiz_source"],
                      seconds=time.perf_counter() - started, counts=facts["counts"])
