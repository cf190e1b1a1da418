"""Finding rules: exact ids and the loose forms people type (`tda 44`, `44`, `rp-5`, a title fragment)."""

from __future__ import annotations

import re

from floorcall.core.errors import EXIT_NOT_FOUND, FloorError, shown

SOURCE_ALIASES = {
    "tda": "tda-2024", "tda2024": "tda-2024", "tda-2024": "tda-2024", "2024": "tda-2024",
    "tda2019": "tda-2019", "tda-2019": "tda-2019", "2019": "tda-2019", "rp2019": "tda-2019", "rp-2019": "tda-2019",
    "dttf": "dttf", "house": "dttf", "wpa": "wpa",
}
SOURCE_IDS = ("dttf", "tda-2024", "tda-2019", "wpa")
# When a whole title names rules in several sources, `floor rule` shows the current TDA edition.
TITLE_PREFERENCE = ("tda-2024", "dttf", "tda-2019", "wpa")


def normalise_source(name: str) -> str:
    key = name.strip().lower().replace(" ", "").replace("_", "-")
    if key in SOURCE_ALIASES:
        return SOURCE_ALIASES[key]
    raise FloorError(f"unknown source '{shown(name)}' — use one of: {', '.join(SOURCE_IDS)}")


# '44', 'rule 44', 'rp5', 'RP-5', 'rp 5', and with a part letter: '35-E', '35 e', 'rule 35e', 'rp 10 h'.
NUMBER_FORM = re.compile(r"(?:rule\s*)?(rp)?\s*-?\s*(\d{1,4})\s*-?\s*([a-h])?")


def _number_form(text: str) -> str | None:
    """'44' -> '44'; 'rp5', 'RP-5', 'rp 5' -> 'RP-5'; '35 e' -> '35-E'; anything else None."""
    match = NUMBER_FORM.fullmatch(text.strip().lower())
    if not match:
        return None
    number = str(int(match.group(2)))
    number = f"RP-{number}" if match.group(1) else number
    return f"{number}-{match.group(3).upper()}" if match.group(3) else number


# What a rule reference may start with in a lookup: a source name, then the number.
REFERENCE_PREFIX = re.compile(r"^(tda[ -]?2024|tda[ -]?2019|rp[ -]?2019|2019|2024|tda|dttf|wpa)\b[\s:]*")


def rule_reference(rule_ids, query: str) -> str | None:
    """The rule or part a query names when it is only a reference (`44`, `tda 53`, `53-B`,
    `rule 35e`, `rp 10 h`, `2019 rp-5`), else None. Never guesses: no titles, no fuzz."""
    text = " ".join(query.lower().split())
    source = "tda-2024"
    match = REFERENCE_PREFIX.match(text)
    if match:
        source = normalise_source(match.group(1).replace(" ", ""))
        text = text[match.end():]
    number = _number_form(text)
    if number is None:
        return None
    for candidate in [f"{source}:{number}"] + ([f"tda-2019:{number}"] if not match and number.startswith("RP") else []):
        if candidate in rule_ids:
            return candidate
    return None


def resolve_rule_id(rules: dict, query: str) -> str:
    """The rule id meant by `query`, or FloorError naming the closest ids."""
    text = " ".join(query.split())
    if not text:
        raise FloorError("give a rule id, e.g. tda-2024:44, 'tda 44', rp-5 or a title word")
    if text in rules:
        return text
    lowered = text.lower()
    for rid in rules:  # case-insensitive exact id (tda-2024:rp-5)
        if rid.lower() == lowered:
            return rid
    source, rest = None, lowered
    match = re.match(r"^([a-z0-9-]+?)\s*[: ]\s*(.+)$", lowered)
    if match:
        try:
            source, rest = normalise_source(match.group(1)), match.group(2)
        except FloorError:
            source, rest = None, lowered
    number = _number_form(rest)
    if number is not None:
        for candidate_source in [source] if source else ["tda-2024", "tda-2019"]:
            rid = f"{candidate_source}:{number}"
            if rid in rules:
                return rid
    if source in ("dttf", "wpa") or (source is None and "-" in rest):
        slug = re.sub(r"[^a-z0-9]+", "-", rest).strip("-")
        for candidate_source in [source] if source else ["dttf", "wpa"]:
            rid = f"{candidate_source}:{slug}"
            if rid in rules:
                return rid
    words = rest.split()
    matches = [rid for rid, rule in rules.items()
               if (source is None or rule["source"] == source)
               and all(w in rule["title"].lower() for w in words)]
    if len(matches) == 1:
        return matches[0]
    exact = [rid for rid in matches if rules[rid]["title"].lower().rstrip(".") == rest.rstrip(".")]
    if exact:  # a whole title: the default edition first, then the house
        return min(exact, key=lambda rid: TITLE_PREFERENCE.index(rules[rid]["source"]))
    if matches:
        listed = ", ".join(matches[:6]) + (" …" if len(matches) > 6 else "")
        raise FloorError(f"'{shown(query)}' matches {len(matches)} rules: {listed} — give the id")
    raise FloorError(f"no rule '{shown(query)}'" + _closest(rules, text), EXIT_NOT_FOUND)


def _closest(rules: dict, text: str) -> str:
    from rapidfuzz import fuzz, process, utils

    choices = {rid: f"{rid} {rule['title']}" for rid, rule in rules.items()}
    best = process.extract(text, choices, scorer=fuzz.WRatio, processor=utils.default_process, limit=3)
    names = [key for _choice, score, key in best if score >= 50]
    return f" — closest: {', '.join(names)}" if names else " — try `floor rules` to list them"


def rules_in_order(corpus: dict, source: str | None = None, section: str | None = None) -> list[dict]:
    order = {s["id"]: i for i, s in enumerate(corpus["sources"])}
    selected = [r for r in corpus["rules"].values()
                if (source is None or r["source"] == source)
                and (section is None or section.lower() in r["section"].lower())]
    # Rules keep file order within a source (which is the source's own order).
    positions = {rid: i for i, rid in enumerate(corpus["rules"])}
    return sorted(selected, key=lambda r: (order.get(r["source"], 99), positions[r["id"]]))
