"""The `floor` command: parse options, call one library function, format its answer.

Every command is thin; the work is in the library modules. Errors are `FloorError`s, printed by
`entry.main` as one line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from floorcall.commands import completion
from floorcall.commands.support import HELP_OPTIONS, content_root, corpus, emit_json, epilog, state, style_for_stdout
from floorcall.commands.support import command as cli_command
from floorcall.core.errors import EXIT_NOT_FOUND, FloorError, shown

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



def command(*names, **options):
    return cli_command(app, *names, **options)




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
    parts: dict[str, int] = {}
    for rule in data["rules"].values():
        tally = parts if rule.get("parent") else counts
        tally[rule["source"]] = tally.get(rule["source"], 0) + 1
    listing = [dict(s, rules=counts.get(s["id"], 0), parts=parts.get(s["id"], 0)) for s in data["sources"]]
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
        typer.echo(f"   rules: {s['rules']}" + (f" ({s['parts']} lettered parts)" if s["parts"] else ""))
    if imported:
        from floorcall.commands.editions_cmd import listing_line

        typer.echo(style("Imported editions (your copies; floor import --remove YEAR takes one out):", "bold"))
        for entry in imported:
            typer.echo("   " + listing_line(entry).replace("\n", "\n   "))


@command("rules")
def list_rules(
    source: Optional[str] = typer.Option(None, "--source", "-s", help="dttf, tda-2024, tda-2019 or wpa."),
    section: Optional[str] = typer.Option(None, "--section", help="Only sections containing this text."),
    parts: bool = typer.Option(False, "--parts", help="Also list each rule's lettered parts (35-A … 35-E)."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON array."),
):
    """List rules, optionally of one source or section."""
    from floorcall.content.rulebook import normalise_source, rules_in_order

    source_id = normalise_source(source) if source else None
    data = corpus()
    selected = [r for r in rules_in_order(data, source_id, section) if parts or not r.get("parent")]
    if section and not selected:
        raise FloorError(f"no section matching '{shown(section)}'" + (f" in {source_id}" if source_id else ""), EXIT_NOT_FOUND)
    if as_json:
        keys = ("id", "source", "number", "title", "section", "quote", "summary", "keywords", "games")
        emit_json([{k: r.get(k) for k in keys} | ({"parts": r["parts"]} if r.get("parts") else {})
                   | ({"parent": r["parent"], "topic": r.get("topic")} if r.get("parent") else {}) for r in selected])
        return
    from floorcall.commands.render import rule_label

    for rule in selected:
        topic = f" ({rule['topic']})" if rule.get("topic") else ""
        typer.echo(f"{rule['id']:<42} {rule_label(rule)} — {rule['title']}{topic}")


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
    output_format: str = typer.Option("text", "--format", help="text (path:line: CODE message), json, or github (annotations for a CI log)."),
):
    """Validate the rulebook and rulings; print `path:line: CODE message — hint` per problem."""
    if output_format not in CHECK_FORMATS:
        raise FloorError(f"--format takes {', '.join(CHECK_FORMATS)}, not '{shown(output_format)}'")
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
    if output_format == "json":
        payload = {"problems": [{"path": p.path, "line": p.line, "code": p.code, "message": p.message, "hint": p.hint} for p in problems]}
        emit_json(payload | ({"figures": corpus_figures(raw)} if stats else {}))
        raise typer.Exit(1 if problems else 0)
    for problem in problems:
        typer.echo(_github_annotation(problem) if output_format == "github" else str(problem))
    if stats:
        figures = corpus_figures(raw)
        typer.echo(", ".join(f"{k}: {v}" for k, v in figures.items()))
    if problems:
        typer.echo(f"{len(problems)} problem(s)", err=True)
        raise typer.Exit(1)
    parts = sum(1 for _path, rule in raw.rules if rule.get("parent"))
    typer.echo(f"ok: {len(raw.rules) - parts} rules" + (f" ({parts} parts)" if parts else "") + f", {len(raw.trees)} situations checked")


CHECK_FORMATS = ("text", "json", "github")


def _github_annotation(problem) -> str:
    """A GitHub Actions error annotation: shown on the file and line in a pull request."""
    def escape(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    message = problem.message + (f" — {problem.hint}" if problem.hint else "")
    return f"::error file={escape(problem.path)},line={problem.line},title={problem.code}::{escape(message)}"


@command()
def new(situation_id: str = typer.Argument(..., metavar="SITUATION-ID", help="The new situation's id: lowercase words joined by hyphens.")):
    """Write a skeleton tree rulings/SITUATION-ID.yaml that passes `floor check`; then replace its TODOs."""
    from floorcall.content.check import SLUG
    from floorcall.content.schema import skeleton

    if not SLUG.match(situation_id):
        raise FloorError(f"'{shown(situation_id)}' is not lowercase words joined by hyphens, e.g. chip-knocked-over")
    path = content_root() / "rulings" / f"{situation_id}.yaml"
    if path.exists():
        raise FloorError(f"{path} already exists — choose another id, or edit that file")
    path.write_text(skeleton(situation_id), encoding="utf-8")
    typer.echo(f"wrote {path} — replace each TODO, then run `floor check {path}`")


# ---------------------------------------------------------------- rulings

@command()
def situations(
    tag: Optional[str] = typer.Option(None, "--tag", "-t", help="Only situations with this tag.", autocompletion=completion.tags),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
):
    """List the situations (decision trees)."""
    from floorcall.commands.rule_cmd import run_situations

    raise typer.Exit(run_situations(content_root(), tag, as_json))


@command()
def walk(
    situation_id: str = typer.Argument(..., metavar="SITUATION", help="A situation id (see `floor situations`).",
                                       autocompletion=completion.situations),
    answer: Optional[list[str]] = typer.Option(None, "--answer", "-a", help="QUESTION=ANSWER, repeatable: walk without prompts. "
                                               "Also the table's numbers for the ruling's arithmetic, e.g. -a facing=1100.",
                                               autocompletion=completion.answers),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (with --answer, or when piped)."),
    house: Optional[str] = typer.Option(None, "--house", help="dttf: the league's house rules govern; none: pure TDA 2024 "
                                        "(default: FLOORCALL_HOUSE, the config file, else dttf)."),
    full: bool = typer.Option(False, "--full", help="Show everything: every cite's words, 2019 notes, where facts were sourced."),
    log: bool = typer.Option(False, "--log", help="Save the ruling in the ruling log (needs --answer); prints the precedent and one line."),
    table: Optional[str] = typer.Option(None, "--table", help="With --log: the table, e.g. 12."),
    seat: Optional[list[str]] = typer.Option(None, "--seat", help="With --log: a seat, repeatable (paired with --player in order)."),
    player: Optional[list[str]] = typer.Option(None, "--player", help='With --log: a player, repeatable; the first is the one penalised, e.g. "Ann Lee".'),
    penalty: Optional[str] = typer.Option(None, "--penalty", help="With --log: warning, N hands, N rounds, N minutes (DTTF deal-out), dq."),
    note: Optional[str] = typer.Option(None, "--note", help="With --log: one line on what happened."),
    event: Optional[str] = typer.Option(None, "--event", help='With --log: the event, e.g. "Friday NLH" (default: the configured event).'),
    supersedes: Optional[str] = typer.Option(None, "--supersedes", help="With --log: this ruling corrects record ID (which stays)."),
    players_at_table: Optional[str] = typer.Option(None, "--players", help="With --log and --penalty: players at the table, for the ladder's hand count."),
    db: Optional[str] = typer.Option(None, "--db", help="The ruling log (default: FLOORCALL_DB, the config file, else $XDG_DATA_HOME/floorcall/rulings.sqlite3)."),
    edition: Optional[str] = typer.Option(None, "--edition", metavar="YEAR", help="Cite rules in an imported edition's numbers, e.g. 2026."),
):
    """Walk a situation to its ruling: interactively, or with --answer (and --log to save it)."""
    from floorcall.commands.config import house as configured_house
    from floorcall.commands.log_cmd import prepare_walk_log
    from floorcall.commands.walk_cmd import run_walk_command

    # Every log flag is checked before the walk runs (a stray --table without --log is an error too).
    logger = prepare_walk_log(log, house=configured_house(house), db=db, table=table, seats=seat, players=player,
                              penalty=penalty, note=note, event=event, supersedes=supersedes, players_at_table=players_at_table)
    if logger is not None and answer is None:
        raise FloorError("--log saves a walk given with --answer QUESTION=ANSWER (an interactive walk saves with its s key)")
    raise typer.Exit(run_walk_command(content_root(), situation_id, answer, as_json, house, full, style_for_stdout(),
                                      on_ruling=logger.save if logger else None, db=db, edition=edition))


# ---------------------------------------------------------------- config

config_app = typer.Typer(help="Show or set your settings: the house in force, your name, tonight's event, the log's database.",
                         invoke_without_command=True, context_settings=HELP_OPTIONS,
                         epilog=epilog("config"))


@config_app.callback(invoke_without_command=True)
def config_show(ctx: typer.Context, as_json: bool = typer.Option(False, "--json", help="Print JSON.")):
    """Show each setting, its value and where it comes from (option > environment > file > default)."""
    if ctx.invoked_subcommand:
        return
    from floorcall.commands import config

    try:
        values = {key: config.effective(key) for key in config.SETTINGS}
    except FloorError as exc:
        typer.echo(f"floor: {exc.message}", err=True)
        raise typer.Exit(exc.exit_code) from None
    if as_json:
        emit_json({"file": str(config.config_path()), "settings": {k: {"value": v, "from": src} for k, (v, src) in values.items()}})
        return
    typer.echo(f"config file: {config.config_path()}" + ("" if config.config_path().exists() else " (none yet)"))
    for key, (value, source) in values.items():
        typer.echo(f"  {key:<6} = {value or '(not set)':<20} from {source}")


@cli_command(config_app, "set")
def config_set(key: str = typer.Argument(..., help="house, name, event or db."),
               value: str = typer.Argument(..., help="The new value (house: dttf or none).")):
    """Set one setting in the config file; every other line of the file is kept as it was."""
    from floorcall.commands import config

    path = config.set_value(key, value)
    typer.echo(f"{key} = {value}  (written to {path})")


app.add_typer(config_app, name="config")


# ---------------------------------------------------------------- lookup

@command()
def lookup(
    query: list[str] = typer.Argument(..., help="What happened, in a few words."),
    limit: int = typer.Option(5, "--limit", "-n", min=1, max=50, help="How many results."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    house: Optional[str] = typer.Option(None, "--house", help="dttf or none, for a walk started from the results (default: the configured house)."),
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

from floorcall.commands import log_cmd  # noqa: E402

log_cmd.register(app)
from floorcall.commands.editions_cmd import editions_app, import_document  # noqa: E402

command("import")(import_document)
app.add_typer(editions_app, name="editions")
