"""Shared pieces of the typer commands: one-line errors, output helpers, the content root and corpus."""

from __future__ import annotations

import functools
import json
import os
import sys

import typer

from floorcall.commands.render import Style
from floorcall.core.errors import FloorError


def guarded(function):
    """Turn a FloorError into one line on stderr and its exit code (never a traceback)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except FloorError as exc:
            typer.echo(f"floor: {exc.message}", err=True)
            raise typer.Exit(exc.exit_code) from None

    return wrapper


# `-h` as well as `--help`, on every command and group.
HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

# Two or three examples at the end of each command's --help ("\b" keeps click from rewrapping them).
EXAMPLES = {
    "lookup": ['floor lookup "tossed one big chip in, said nothing"', "floor oot raise", "floor lookup 53-B --json"],
    "walk": ["floor walk overchip-facing-bet", "floor walk overchip-facing-bet --answer declared=silent",
             "floor walk dealer-exposed-holecard -a which-card=second-card --house none",
             "floor walk overchip-facing-bet -a declared=silent --log --table 12 --seat 4 --player \"Ann Lee\""],
    "rule": ["floor rule 44", "floor rule 35-E", 'floor rule "rp 10 h" --json'],
    "rules": ["floor rules --source dttf", 'floor rules --section "Bets and Raises"'],
    "sources": ["floor sources", "floor sources --json"],
    "situations": ["floor situations", "floor situations --tag showdown"],
    "check": ["floor check", "floor check rulings/fouled-deck.yaml", "floor check --format github"],
    "new": ["floor new chip-knocked-over"],
    "raise": ['floor calc raise --blinds 100/200 --actions "bet 600, raise 1600, allin 1700"',
              "floor calc raise --blinds 100/200 --preflop --actions \"raise 600\""],
    "chips": ["floor calc chips --facing 1100 --min-raise 600 --chips 1000,100,100,100,100,100"],
    "pot": ["floor calc pot --pot 1500 --call 400", "floor calc pot --blinds 100/200 --dead-sb"],
    "penalty": ["floor calc penalty --players 8 --rounds 1"],
    "h4h": ["floor calc h4h --level-left 12:00 --hands 3"],
    "balance": ["floor calc balance --tables 9,7,8,5", "floor calc balance --tables 9,6 --of 5"],
    "chip-race": ["floor calc chip-race --stacks 1:3,2:1,3:0 --denomination 25 --next 100"],
    "build": ["floor site build", "floor site build --out /tmp/rulebook"],
    "serve": ["floor site serve", "floor site serve --port 8080"],
    "stats": ["floor quiz stats", "floor quiz stats --name Ana --json"],
    "quiz": ["floor quiz", "floor quiz --topic betting --count 5", "floor quiz --name Ana --new 10",
             "floor quiz --exam --name Ana --report exam-ana.html"],
    "calc": ["floor calc chips --facing 600 --min-raise 600 --chips 5000", "floor calc penalty --players 8 --rounds 1"],
    "site": ["floor site build", "floor site serve"],
    "config": ["floor config", "floor config set house none", "FLOORCALL_HOUSE=none floor walk fouled-deck"],
    "log": ["floor log", "floor log --player \"Ann Lee\" --all", "floor log --since 2026-03-14 --json"],
    "log-show": ["floor log show 17", "floor log show 17 --json"],
    "log-correct": ["floor log correct 17 --seat 5", "floor log correct 17 --penalty none --note \"warning withdrawn\""],
    "log-export": ["floor log export --csv rulings.csv", "floor log export --csv friday.csv --event \"Friday NLH\""],
    "log-report": ["floor log report --out tonight.html", "floor log report --event \"Friday NLH\" --out friday.html"],
    "player-penalty": ["floor penalty \"Ann Lee\"", "floor penalty \"Ann Lee\" --event \"Friday NLH\" --players 8"],
    "import": ['floor import "2024 Poker TDA Rules PDF Longform Vers 1.0 FINAL.pdf"', "floor import rules-2026.docx --json",
               "floor import --remove 2026"],
    "editions": ["floor editions list", "floor editions diff 2024 2026"],
    "list": ["floor editions list", "floor editions list --json"],
    "diff": ["floor editions diff 2024 2026", "floor editions diff 2022 2024 --json"],
    "floor": ['floor "tossed one big chip in, said nothing"', "floor walk overchip-facing-bet", "floor rule 44",
              "floor help walk"],
}


def epilog(name: str) -> str | None:
    lines = EXAMPLES.get(name)
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines) if lines else None


def command(typer_app: typer.Typer, *names, **options):
    """`typer_app.command(...)` with `guarded` error handling, `-h`, and examples in the help."""

    def decorate(function):
        name = names[0] if names else function.__name__.replace("_", "-")
        options.setdefault("epilog", epilog(name))
        options.setdefault("context_settings", HELP_OPTIONS)
        return typer_app.command(*names, **options)(guarded(function))

    return decorate


# The global --root option, set by the app's callback before any command runs.
state: dict = {"root": None}


def content_root():
    from floorcall.content.paths import find_root

    return find_root(state["root"])


def corpus() -> dict:
    """The compiled corpus of the content root (from its cache when current), warning of left-out files."""
    from floorcall.content import corpus as corpus_module

    data = corpus_module.load(content_root())
    corpus_module.warn_if_skipped(data)
    return data


def style_for_stdout() -> Style:
    return Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))


def emit_json(value) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2))
