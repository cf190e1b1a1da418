"""`floor lookup` at the edge: argument parsing for the fast path, printing, and the jump into a walk.

Imports nothing heavy: no typer, yaml (only on a cache rebuild), jinja2 or markdown-it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from floorcall.core.errors import FloorError, shown

DEFAULT_LIMIT = 5
MAX_LIMIT = 50
EXIT_NO_MATCH = 1
EXIT_USAGE = 2


class LookupArgs:
    """What `floor lookup` was asked, parsed exactly as the typer command parses it (a parity test holds them together)."""

    __slots__ = ("words", "limit", "as_json", "house")

    def __init__(self, words: list[str], limit: int, as_json: bool, house: str | None):
        self.words, self.limit, self.as_json, self.house = words, limit, as_json, house

    def as_tuple(self) -> tuple:
        return (" ".join(self.words), self.limit, self.as_json, self.house)


def parse_lookup_args(args: list[str]) -> LookupArgs | None:
    """`lookup` options read as click reads them (commands.fastpath.parse); None when typer should
    read them instead (an unknown option, a missing value): typer then says what is wrong."""
    from floorcall.commands.fastpath import LOOKUP_SPEC, parse

    values = parse(LOOKUP_SPEC, args)
    if values is None:
        return None
    limit = parse_limit(values["limit"]) if "limit" in values else DEFAULT_LIMIT
    return LookupArgs(values["query"], limit, values.get("as_json", False), values.get("house"))


def parse_limit(value: str) -> int:
    """--limit as a whole number 1..MAX_LIMIT; ASCII digits only ('²' is a digit to str.isdigit, not to int)."""
    if not (value.isascii() and value.isdigit() and len(value) <= 3 and 1 <= int(value) <= MAX_LIMIT):
        raise FloorError(f"--limit takes a whole number from 1 to {MAX_LIMIT}, not '{shown(value)}'", EXIT_USAGE)
    return int(value)


def run_lookup_from_args(args: list[str]) -> int | None:
    """Parse `lookup` arguments the way the typer command would, then run it (None: typer's to read)."""
    parsed = parse_lookup_args(args)
    if parsed is None:
        return None
    from floorcall.content.paths import find_root

    root = find_root(None)
    if parsed.words and args and args[0] == parsed.words[0]:
        _refuse_command_typo(root, parsed.words[0])
    return run_lookup(root, " ".join(parsed.words), parsed.limit, parsed.as_json, parsed.house)


def _refuse_command_typo(root: Path, word: str) -> None:
    """`floor quizz` is a mistyped command, not a lookup for 'quizz' — unless the rulings use the word."""
    from floorcall.commands.entry import COMMAND_TYPOS, closest_command

    command = closest_command(word)
    if command is None:
        return
    if word.lower() not in COMMAND_TYPOS:  # a near miss of a command name may still be a word of the rulings
        from floorcall.content import corpus as corpus_module
        from floorcall.core.textnorm import stem

        if stem(word.lower()) in corpus_module.load_lookup(root)["index"]["situation_postings"]:
            return
    raise FloorError(f"unknown command '{shown(word)}' — did you mean `floor {command}`? "
                     f"(to look the word up: floor lookup {shown(word)})", EXIT_USAGE)


def run_lookup(root: Path, query: str, limit: int, as_json: bool, house: str | None) -> int:
    from floorcall.commands.config import house as configured_house
    from floorcall.content import corpus as corpus_module
    from floorcall.engines.lookup import clean_query, rank

    house = configured_house(house)
    if not clean_query(query):
        raise FloorError('give a few words about what happened, e.g. floor lookup "tossed one big chip in"')
    corpus = corpus_module.load_lookup(root)
    corpus_module.warn_if_skipped(corpus)
    index = corpus["index"]
    result = rank(index, query, limit)
    situations = corpus["situations"]
    rules = corpus["rules"]
    if as_json:
        import json

        payload = {
            "query": result.query,
            "confident": result.confident,
            "results": [{"id": h.id, "title": situations[h.id]["title"], "score": h.score, "cites": situations[h.id]["cites"]}
                        for h in result.situations],
            "rules": [{"id": h.id, "title": rules[h.id]["title"], "score": h.score} for h in result.rules],
        }
        if result.reference:
            payload["reference"] = result.reference
        if not result.confident:
            payload["why_not_confident"] = result.why_weak
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        if not result.situations and not result.rules:
            _miss(index, query, result)
        return 0 if result.situations or result.rules else EXIT_NO_MATCH
    if not result.situations and not result.rules:
        _miss(index, query, result)
        return EXIT_NO_MATCH
    from floorcall.commands.render import Style

    tty = sys.stdout.isatty() or os.environ.get("FLOORCALL_INTERACTIVE") == "1"
    style = Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    if result.reference or not result.confident:
        _show_rules_first(root, result, style, tty)
        if not result.situations or not tty:
            return 0
    elif not tty:
        for hit in result.situations:
            situation = situations[hit.id]
            primary = situation["cites"][0] if situation["cites"] else ""
            sys.stdout.write(f"{hit.id}\t{situation['title']}\t{primary}\n")
        return 0
    if result.confident and not result.reference:
        _print_list(root, result, style)
        if result.rules:
            print(style("Rules:", "dim") + " " + "; ".join(f"{h.id} {rules[h.id]['title']}" for h in result.rules))
    if not (sys.stdin.isatty() or os.environ.get("FLOORCALL_INTERACTIVE") == "1"):
        return 0
    return _offer_walk(root, result, house, style)


def _show_rules_first(root: Path, result, style, tty: bool) -> None:
    """A rule-number query shows that rule; a weak match says so and shows the closest rules,
    each with our summary, then (numbered, for a walk) the situations it might still be."""
    from floorcall.commands.render import render_rule, rule_heading, wrap
    from floorcall.content import corpus as corpus_module

    corpus = corpus_module.load(root)  # the rule texts and summaries are in the full corpus only
    rules, situations = corpus["rules"], corpus["situations"]
    if result.reference:
        print(render_rule(rules[result.reference], rules, style))
        if result.situations:
            print("\n" + style("Situations that cite it:", "dim"))
    else:
        print(style("No situation fits well — the closest rules:", "yellow", "bold") + style(f"  ({result.why_weak})", "dim"))
        for hit in result.rules:
            rule = rules[hit.id]
            print(f"  {style(rule_heading(rule), 'bold')}  [{hit.id}]")
            print(wrap(rule.get("summary", ""), "    "))
        if result.situations:
            print(style("Situations it might still be:", "dim"))
    for number, hit in enumerate(result.situations, 1):
        prefix = f"{number:>2}. " if tty else "  "
        print(f"{prefix}{situations[hit.id]['title']}  [{hit.id}]")


def _offer_walk(root: Path, result, house: str, style) -> int:
    """At a terminal: pick a number to walk it; the walk can come back to this list (l) or start a
    new lookup (n). Returns the exit code."""
    from floorcall.commands.interactive import NEW_LOOKUP, TO_LIST, read_line, run_walk
    from floorcall.content import corpus as corpus_module

    while True:
        count = len(result.situations)
        try:
            choice = read_line(f"Walk which? [1-{count}, n new lookup, Enter to stop] ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            print()
            return 0
        if not choice or choice in ("q", "quit"):
            return 0
        if choice in ("n", "new"):
            result = _new_lookup(root, style)
            if result is None:
                return 0
            continue
        if choice.isascii() and choice.isdigit() and len(choice) < 3 and 1 <= int(choice) <= count:
            corpus = corpus_module.load(root)  # the full trees and rule texts, only now that a walk is wanted
            situation = corpus["situations"][result.situations[int(choice) - 1].id]
            print()
            outcome = run_walk(corpus, situation, house, style, from_lookup=True)
            if outcome == TO_LIST:
                _print_list(root, result, style)
                continue
            if outcome == NEW_LOOKUP:
                result = _new_lookup(root, style)
                if result is None:
                    return 0
                continue
            return outcome
        print(f"Type a number from 1 to {count}, n, or Enter.")


def lookup_from_prompt(root: Path, house: str, style) -> int:
    """A walk's `n`: ask for words, show the list, walk from it."""
    result = _new_lookup(root, style)
    return 0 if result is None else _offer_walk(root, result, house, style)


def _new_lookup(root: Path, style):
    """Ask for new words, rank them and show the list; None when the user leaves."""
    from floorcall.commands.interactive import read_line
    from floorcall.content import corpus as corpus_module
    from floorcall.engines.lookup import clean_query, rank

    while True:
        try:
            query = read_line("What happened? ")
        except (EOFError, KeyboardInterrupt):
            print()
            return None
        if not clean_query(query):
            return None
        result = rank(corpus_module.load_lookup(root)["index"], query, DEFAULT_LIMIT)
        if result.situations:
            _print_list(root, result, style)
            return result
        print("Nothing fits those words; try others (Enter to stop).")


def _print_list(root: Path, result, style) -> None:
    from floorcall.commands.render import rule_label
    from floorcall.content import corpus as corpus_module

    corpus = corpus_module.load_lookup(root)
    situations, rules = corpus["situations"], corpus["rules"]
    if not result.confident:
        print(style("No situation fits well — these are the closest:", "yellow"))
    for number, hit in enumerate(result.situations, 1):
        situation = situations[hit.id]
        primary = rules.get(situation["cites"][0]) if situation["cites"] else None
        print(f"{number:>2}. {style(situation['title'], 'bold')}  {style('[' + hit.id + ']', 'dim')}")
        if primary:
            print(f"    {rule_label(primary)} — {primary['title']}")


def _miss(index: dict, query: str, result) -> None:
    from floorcall.engines.lookup import suggestions

    close = suggestions(index, query)
    unknown = f" (unknown words: {', '.join(result.unknown_words[:5])})" if result.unknown_words else ""
    hint = f" — did you mean: {'; '.join(close)}?" if close else ""
    sys.stderr.write(f"floor: no situation matches '{result.query[:60]}'{unknown}{hint}\n")
