"""The `floor` command: parse options, call one library function, format its answer.

Every command is thin; the work is in the library modules. Errors are `FloorError`s, printed by
`entry.main` as one line on stderr.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer

from floorcall.commands import completion
from floorcall.commands.support import HELP_OPTIONS, content_root, corpus, emit_json, epilog, state, style_for_stdout
from floorcall.commands.support import command as cli_command
from floorcall.core.errors import FloorError

app = typer.Typer(
    context_settings=HELP_OPTIONS, epilog=epilog("floor"),
    name="floor",
    help="Floorcall: floor rulings for poker tournaments, with the rules cited. "
    "`floor WORDS…` looks a situation up; `floor walk ID` walks it to a ruling.",
    add_completion=True,  # --install-completion / --show-completion for bash, zsh and fish
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

INTERACTIVE_ENV = "FLOORCALL_INTERACTIVE"  # 1: prompt even when stdin is not a terminal (tests, scripts with expect)


def command(*names, **options):
    return cli_command(app, *names, **options)


def interactive_input() -> bool:
    return os.environ.get(INTERACTIVE_ENV) == "1" or sys.stdin.isatty()
EXIT_PENDING = 3  # `walk --answer`: the walk stopped at an unanswered question


def _show_version(value: bool):
    if value:
        from floorcall import __version__

        typer.echo(f"floor {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    root: Optional[Path] = typer.Option(None, "--root", help="Content folder (default: FLOORCALL_ROOT, a checkout above the working folder, or the installed data)."),
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."),
):
    state["root"] = root


# ---------------------------------------------------------------- rulebook

@command()
def sources(as_json: bool = typer.Option(False, "--json", help="Print JSON.")):
    """List the source documents, their precedence and rule counts."""
    data = corpus()
    counts: dict[str, int] = {}
    for rule in data["rules"].values():
        counts[rule["source"]] = counts.get(rule["source"], 0) + 1
    listing = [dict(s, rules=counts.get(s["id"], 0)) for s in data["sources"]]
    from floorcall.commands.editions_cmd import imported_listing

    imported = imported_listing(data)  # the director's own copies (floor import): none unless imported
    if as_json:
        emit_json(listing + [dict(e, role="imported") for e in imported])
        return
    style = style_for_stdout()
    for s in listing:
        typer.echo(style(f"{s['precedence']}. {s['short']} [{s['id']}] — {s['title']}", "bold"))
        typer.echo(f"   edition: {s['edition']}" + (f", {s['date']}" if s.get("date") else ""))
        typer.echo(f"   role: {s['role']} — {s['note']}")
        typer.echo(f"   from: {s['origin']}")
        typer.echo(f"   rules: {s['rules']}")
    if imported:
        from floorcall.commands.editions_cmd import listing_line

        typer.echo(style("Imported editions (your copies; floor import --remove YEAR takes one out):", "bold"))
        for entry in imported:
            typer.echo("   " + listing_line(entry).replace("\n", "\n   "))


@command("rules")
def list_rules(
    source: Optional[str] = typer.Option(None, "--source", "-s", help="dttf, tda-2024, tda-2019 or wpa."),
    section: Optional[str] = typer.Option(None, "--section", help="Only sections containing this text."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array."),
):
    """List rules, optionally of one source or section."""
    from floorcall.content.rulebook import normalise_source, rules_in_order

    source_id = normalise_source(source) if source else None
    data = corpus()
    selected = rules_in_order(data, source_id, section)
    if section and not selected:
        raise FloorError(f"no section matching '{section}'" + (f" in {source_id}" if source_id else ""))
    if as_json:
        keys = ("id", "source", "number", "title", "section", "quote", "summary", "keywords", "games")
        emit_json([{k: r.get(k) for k in keys} for r in selected])
        return
    from floorcall.commands.render import rule_label

    for rule in selected:
        typer.echo(f"{rule['id']:<42} {rule_label(rule)} — {rule['title']}")


@command()
def rule(
    rule_id: str = typer.Argument(..., metavar="ID", help="tda-2024:44, 'tda 44', 44, 35-E, rp-5, tda-2019:rp-5, dttf:no-chopping or a title word.",
                                  autocompletion=completion.rules),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    edition: Optional[str] = typer.Option(None, "--edition", metavar="YEAR", help="Label it in an imported edition's numbers, e.g. 2026."),
):
    """Show one rule: its words, our summary and how it relates to the other sources."""
    from floorcall.commands.editions_cmd import edition_rule, imported_part, in_edition, render_edition_rule
    from floorcall.commands.render import render_rule
    from floorcall.content.rulebook import resolve_rule_id

    data = corpus()
    other = edition_rule(data, rule_id)  # tda-2026:45, a rule of an imported edition, with its 2024 counterpart
    if other is not None:
        if as_json:
            emit_json(other)
        else:
            typer.echo(render_edition_rule(other, data, style_for_stdout()))
        return
    data = in_edition(data, edition)
    found = imported_part(data, rule_id) or data["rules"][resolve_rule_id(data["rules"], rule_id)]
    if as_json:
        emit_json(found)
        return
    typer.echo(render_rule(found, data["rules"], style_for_stdout()))


@command()
def check(
    paths: Optional[list[Path]] = typer.Argument(None, help="Tree files to check (default: all content, with coverage)."),
    stats: bool = typer.Option(False, "--stats", help="Also print corpus figures (coverage per source as cited/uncovered/total)."),
):
    """Validate the rulebook and rulings; print `path:line: CODE message — hint` per problem."""
    from floorcall.content.check import check_all, corpus_figures
    from floorcall.content.reader import read_all, relpath

    root = content_root()
    extra, only = [], None
    if paths:
        only = set()
        for path in paths:
            if not path.exists():
                raise FloorError(f"no such file: {path}")
            resolved = path.resolve()
            only.add(relpath(resolved, root))
            if resolved.parent != (root / "rulings").resolve():
                extra.append(resolved)
    raw = read_all(root)
    if extra:
        from floorcall.content.reader import read_trees

        read_trees(raw, extra)
    problems = check_all(raw, only)
    for problem in problems:
        typer.echo(str(problem))
    if stats:
        figures = corpus_figures(raw)
        typer.echo(", ".join(f"{k}: {v}" for k, v in figures.items()))
    if problems:
        typer.echo(f"{len(problems)} problem(s)", err=True)
        raise typer.Exit(1)
    parts = sum(1 for _path, rule in raw.rules if rule.get("parent"))
    typer.echo(f"ok: {len(raw.rules) - parts} rules" + (f" ({parts} parts)" if parts else "") + f", {len(raw.trees)} situations checked")


# ---------------------------------------------------------------- rulings

@command()
def situations(
    tag: Optional[str] = typer.Option(None, "--tag", "-t", help="Only situations with this tag.", autocompletion=completion.tags),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
):
    """List the situations (decision trees)."""
    data = corpus()
    listing = [s for s in data["situations"].values() if tag is None or tag in s.get("tags", [])]
    if tag and not listing:
        tags = sorted({t for s in data["situations"].values() for t in s.get("tags", [])})
        raise FloorError(f"no situation tagged '{tag}' — tags: {', '.join(tags)}")
    listing.sort(key=lambda s: s["id"])
    if as_json:
        emit_json([{"id": s["id"], "title": s["title"], "tags": s.get("tags", []), "cites": s["cites"]} for s in listing])
        return
    for s in listing:
        typer.echo(f"{s['id']:<44} {s['title']}  [{', '.join(s['cites'][:2])}]")


@command()
def walk(
    situation_id: str = typer.Argument(..., metavar="SITUATION", help="A situation id (see `floor situations`).",
                                       autocompletion=completion.situations),
    answer: Optional[list[str]] = typer.Option(None, "--answer", "-a", help="QUESTION=ANSWER, repeatable: walk without prompts.",
                                               autocompletion=completion.answers),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (with --answer, or when piped)."),
    house: str = typer.Option("dttf", "--house", help="dttf: the league's house rules govern; none: pure TDA 2024."),
    full: bool = typer.Option(False, "--full", help="Also show where each fact was sourced."),
    edition: Optional[str] = typer.Option(None, "--edition", metavar="YEAR", help="Cite rules in an imported edition's numbers, e.g. 2026."),
):
    """Walk a situation to its ruling: interactively, or with --answer."""
    from floorcall.commands.editions_cmd import in_edition
    from floorcall.engines.walk import HOUSE_MODES, get_situation

    if house not in HOUSE_MODES:
        raise FloorError(f"unknown house mode '{house}' — use one of: {', '.join(HOUSE_MODES)}")
    data = in_edition(corpus(), edition)
    situation = get_situation(data, situation_id)
    interactive = answer is None and not as_json and interactive_input()
    if interactive:
        from floorcall.commands.interactive import run_walk

        raise typer.Exit(run_walk(data, situation, house, style_for_stdout(), full=full))
    finish_walk(data, situation, answer or [], as_json, house, full)


def finish_walk(data: dict, situation: dict, answer_pairs: list[str], as_json: bool, house: str, full: bool = False) -> None:
    from floorcall.commands.render import render_question, render_ruling
    from floorcall.engines.walk import Pending, advance, parse_answer_options

    result = advance(situation, parse_answer_options(answer_pairs), house)
    if as_json:
        from floorcall.commands.editions_cmd import cited_json

        cited = None if isinstance(result, Pending) else cited_json(data, result.cites)
        emit_json(result.as_json() | ({"pending": True} if isinstance(result, Pending) else {})
                  | ({"cited": cited} if cited is not None else {}) | ({"edition": data["edition"]} if data.get("edition") else {}))
    elif isinstance(result, Pending):
        typer.echo(render_question(result))
        typer.echo(f"answer with --answer {result.question}=<{'|'.join(a for a, _ in result.answers)}>")
    else:
        typer.echo(render_ruling(result, data["rules"], style_for_stdout(), data["situations"], full))
    if isinstance(result, Pending):
        raise typer.Exit(EXIT_PENDING)


# ---------------------------------------------------------------- lookup

@command()
def lookup(
    query: list[str] = typer.Argument(..., help="What happened, in a few words."),
    limit: int = typer.Option(5, "--limit", "-n", min=1, max=50, help="How many results."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    house: str = typer.Option("dttf", "--house", help="dttf or none, for a walk started from the results."),
):
    """Find the situation for a few hurried words; at a terminal, type a number to walk it."""
    from floorcall.commands.lookup_cmd import run_lookup

    raise typer.Exit(run_lookup(content_root(), " ".join(query), limit, as_json, house))


# ---------------------------------------------------------------- sub-commands

from floorcall.commands.calc_cmd import calc_app  # noqa: E402  (registered after the main commands: help order)

app.add_typer(calc_app, name="calc")

from floorcall.commands.quiz_cmd import quiz_app  # noqa: E402

app.add_typer(quiz_app, name="quiz")

from floorcall.commands.site_cmd import site_app  # noqa: E402

app.add_typer(site_app, name="site")

from floorcall.commands.editions_cmd import editions_app, import_document  # noqa: E402

command("import")(import_document)
app.add_typer(editions_app, name="editions")
