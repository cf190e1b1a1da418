"""`floor log …`, `floor penalty NAME` and the `--log` of `floor walk`: the ruling log at the table.

The store (`store.ruling_log`) keeps the records; the engines check the facts (`ruling_facts`),
judge precedent (`precedent`) and climb the ladder (`penalty_ladder`); `publish.ruling_report`
writes the report and the CSV. This module only parses options, calls them and prints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from floorcall.commands import completion
from floorcall.commands.support import HELP_OPTIONS, command, emit_json, epilog, guarded
from floorcall.core.errors import FloorError

if TYPE_CHECKING:
    from floorcall.engines.ruling_facts import Facts

log_app = typer.Typer(
    context_settings=HELP_OPTIONS, epilog=epilog("log"),
    help="The ruling log: tonight's rulings, one record, corrections, the CSV export and the end-of-night report.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode=None,
)

NAME_ENV = "FLOORCALL_NAME"  # the floorperson's name, kept with every ruling they save
EXIT_NOT_FOUND = 1
DB_HELP = "The ruling log (default: FLOORCALL_DB, else $XDG_DATA_HOME/floorcall/rulings.sqlite3)."
COLUMN_PLAYERS = 18  # the listing's player column; longer names are cut with …
COLUMN_SITUATION = 44  # the longest situation ids are about this long


def _location(db: Optional[str], ctx: typer.Context | None = None) -> Path:
    from floorcall.store.ruling_log import log_location

    if db is None and ctx is not None and ctx.obj:
        db = ctx.obj.get("db")
    return log_location(db)


def _floorperson() -> str | None:
    value = os.environ.get(NAME_ENV)
    return value if value is not None and value.strip() else None


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _where(table: str, seats: list[int]) -> str:
    seat = ",".join(str(s) for s in seats)
    return " ".join(x for x in (f"t{table}" if table else "", f"s{seat}" if seat else "") if x) or "—"


# ---------------------------------------------------------------- floor walk … --log


@dataclass
class WalkLog:
    """A `floor walk --log` that has passed its checks, waiting for the ruling."""

    db: Path
    facts: Facts
    players_at_table: int | None
    content_root: Path

    def save(self, ruling) -> dict:
        """Show the ladder first when the player already has a penalty, then save; returns what to print."""
        from floorcall.store import ruling_log

        saved = ruling_log.record_ruling(self.db, ruling, self.facts, self.content_root, self.players_at_table)
        ladder, precedent, record_id = saved.ladder, saved.precedent, saved.id
        lines = (ladder.lines if ladder is not None else []) + [precedent.line]
        facts = self.facts
        parts = [f"{ruling.situation} → {ruling.outcome}"]
        seats = ",".join(str(seat) for seat in facts.seats)
        where = " ".join(x for x in (f"table {facts.table}" if facts.table else "", f"seat {seats}" if seats else "") if x)
        if where:
            parts.append(where)
        if facts.players:
            parts.append(", ".join(facts.players))
        if facts.penalty:
            parts.append(f"{facts.penalty.text} for {facts.penalised}")
        if facts.supersedes:
            parts.append(f"corrects #{facts.supersedes}")
        lines.append(f"Logged #{record_id}: " + " · ".join(parts) + f"  (floor log show {record_id})")
        return {"id": record_id, "db": str(self.db), "facts": facts.as_json(), "precedent": precedent.as_json(),
                "ladder": ladder.as_json() if ladder is not None else None, "lines": lines}


def prepare_walk_log(enabled: bool, *, house: str, db: Optional[str], table: Optional[str], seats: Optional[list[str]],
                     players: Optional[list[str]], penalty: Optional[str], note: Optional[str], event: Optional[str],
                     supersedes: Optional[str], players_at_table: Optional[str]) -> WalkLog | None:
    """Check every log option before the walk runs, so a bad flag never follows a printed ruling."""
    given = [name for name, value in (("--table", table), ("--seat", seats), ("--player", players), ("--penalty", penalty),
                                      ("--note", note), ("--event", event), ("--supersedes", supersedes),
                                      ("--players", players_at_table)) if value is not None]
    if not enabled:
        if given:
            raise FloorError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} saved with the ruling: add --log")
        return None
    from floorcall.commands.support import content_root
    from floorcall.engines.calc import MAX_SEATS, MIN_SEATS, parse_count
    from floorcall.engines.ruling_facts import check_penalty_for_house, make_facts
    from floorcall.store import ruling_log

    facts = make_facts(event=event, floorperson=_floorperson(), table=table, seats=seats, players=players,
                       penalty=penalty, note=note, supersedes=supersedes)
    check_penalty_for_house(facts.penalty, house)
    count = parse_count(players_at_table, "--players", low=MIN_SEATS, high=MAX_SEATS) if players_at_table is not None else None
    path = _location(db)
    if facts.supersedes is not None:
        log = ruling_log.open_for_reading(path)
        old = log.get(facts.supersedes) if log is not None else None
        if log is not None:
            log.close()
        if old is None:
            raise FloorError(f"--supersedes {facts.supersedes}: there is no record #{facts.supersedes} in {path}", EXIT_NOT_FOUND)
        if old.superseded_by is not None:
            raise FloorError(f"--supersedes {old.id}: record #{old.id} was already corrected by #{old.superseded_by} — "
                             f"correct #{old.superseded_by} instead")
    return WalkLog(path, facts, count, content_root())


# ---------------------------------------------------------------- floor log


def _situation_filter(situation: str, known_in_log: set[str]) -> str:
    from floorcall.core.problems import did_you_mean
    from floorcall.engines.ruling_facts import shown

    wanted = situation.strip()
    if not wanted:
        raise FloorError("--situation is empty — give a situation id, e.g. --situation overchip-facing-bet")
    if wanted in known_in_log:
        return wanted
    from floorcall.commands.support import corpus

    known = set(corpus()["situations"]) | known_in_log
    if wanted in known:
        return wanted
    hint = did_you_mean(wanted, known)
    raise FloorError(f"no situation '{shown(wanted)}'" + (f" — {hint}" if hint else " — see `floor situations`"), EXIT_NOT_FOUND)


def _listing_lines(records, label: str, path: Path) -> list[str]:
    from floorcall.engines.ruling_facts import name_key

    penalties = sum(1 for r in records if r.penalty and r.superseded_by is None)
    lines = [f"{len(records)} ruling{'s' if len(records) != 1 else ''} {label}"
             + (f", {penalties} penalt{'ies' if penalties != 1 else 'y'}" if penalties else "") + f" — {path}"]
    days = {f"{r.when():%Y-%m-%d}" for r in records}
    stamp = "%H:%M" if len(days) <= 1 else "%Y-%m-%d %H:%M"
    for r in records:
        players = ", ".join(r.names) or "—"
        outcome = _cut(f"{r.situation} → {r.outcome}", COLUMN_SITUATION + 12)
        penalty = ""
        if r.penalty:
            whose = "" if len(r.names) <= 1 or name_key(r.penalty_player) == name_key(r.names[0]) else f" ({r.penalty_player})"
            penalty = r.penalty.text + whose
        extra = []
        if r.supersedes:
            extra.append(f"corrects #{r.supersedes}")
        if r.superseded_by:
            extra.append(f"[corrected by #{r.superseded_by}]")
        if r.note:
            extra.append(f"“{_cut(r.note, 40)}”")
        line = (f"#{r.id:<5} {r.when():{stamp}}  {_cut(_where(r.table, r.seats), 10):<10} {_cut(players, COLUMN_PLAYERS):<{COLUMN_PLAYERS}} "
                f"{outcome:<{COLUMN_SITUATION + 12}} {penalty}")
        lines.append((line.rstrip() + ("  " + "  ".join(extra) if extra else "")).rstrip())
    return lines


@log_app.callback(invoke_without_command=True)
@guarded
def log(
    ctx: typer.Context,
    player: Optional[str] = typer.Option(None, "--player", "-p", help="Only rulings naming this player (part of the name will do)."),
    table: Optional[str] = typer.Option(None, "--table", "-t", help="Only rulings at this table."),
    situation: Optional[str] = typer.Option(None, "--situation", "-s", help="Only rulings on this situation id.",
                                            autocompletion=completion.situations),
    since: Optional[str] = typer.Option(None, "--since", help="From a time on: YYYY-MM-DD, 'YYYY-MM-DD HH:MM', today, yesterday, 7d, all (default: tonight, since 06:00)."),
    event: Optional[str] = typer.Option(None, "--event", "-e", help="Only this event (the whole of it, whatever the date)."),
    text: Optional[str] = typer.Option(None, "--text", "-q", help="Free text: every word must appear (note, names, ruling, answers…)."),
    all_records: bool = typer.Option(False, "--all", help="The whole log, not only tonight."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
):
    """List tonight's rulings (or --all, --since, --event), with filters; `floor log show ID` for one."""
    ctx.obj = {"db": db}
    if ctx.invoked_subcommand is not None:
        return
    from floorcall.engines.ruling_facts import check_name, clean_line, parse_since, tonight
    from floorcall.store.ruling_log import Query, open_for_reading

    if since is not None and all_records:
        raise FloorError("--since and --all both say where the list starts — give one")
    window = parse_since(since) if since is not None else None
    if window is not None and window.start is None:  # --since all is --all
        window, all_records = None, True
    words = tuple(clean_line(text, "--text", 200, '"slow roll"', what="the words to find").split()) if text is not None else ()
    query_player = check_name(player, "--player") if player is not None else None
    query_table = clean_line(table, "--table", 20, "12", what="the table's number or name") if table is not None else None
    query_event = clean_line(event, "--event", 80, '"Friday NLH"', what="the event's name") if event is not None else None
    if window is None and not all_records and query_event is None:
        window = tonight()
    label = window.label if window is not None else (f"in event '{query_event}'" if query_event else "in the whole log")
    if window is not None and query_event:
        label += f", event '{query_event}'"
    path = _location(db)
    store = open_for_reading(path)
    if store is None:
        if as_json:
            emit_json([])
            return
        typer.echo(f"No ruling log yet at {path} — save a ruling with `floor walk SITUATION --answer Q=A --log`.")
        return
    with store:
        query_situation = None
        if situation is not None:
            query_situation = _situation_filter(situation, store.situations())
        records = store.find(Query(since=window.start if window else None, event=query_event, player=query_player,
                                   table=query_table, situation=query_situation, text=words))
        events = store.events() if not records else []
    if as_json:
        emit_json([r.as_json() for r in records])
        return
    if not records:
        hint = f" (events in this log: {', '.join(events[:5])})" if query_event and events else ""
        more = " — `floor log --all` lists every ruling" if window is not None and window.start is not None else ""
        typer.echo(f"No rulings {label} match{hint}{more}.")
        return
    for line in _listing_lines(records, label, path):
        typer.echo(line)


@command(log_app, "show", epilog=epilog("log-show"))
def show(
    ctx: typer.Context,
    record_id: str = typer.Argument(..., metavar="ID", help="The record's number, e.g. 17 (see `floor log`)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
):
    """Show one record in full: the ruling, the answers, the facts, corrections and its precedent."""
    from floorcall.engines.precedent import precedent
    from floorcall.engines.ruling_facts import check_record_id
    from floorcall.store.ruling_log import open_for_reading

    wanted = check_record_id(record_id)
    path = _location(db, ctx)
    store = open_for_reading(path)
    if store is None:
        raise FloorError(f"no ruling log yet at {path}", EXIT_NOT_FOUND)
    with store:
        record = store.get(wanted)
        if record is None:
            total = store.count()
            raise FloorError(f"there is no record #{wanted} in {path}" + (f" (records run from #1 to #{total})" if total else ""),
                             EXIT_NOT_FOUND)
        situation_records = store.precedents(record.situation)
    own = next(e for e in situation_records if e.id == record.id)
    found = precedent([e for e in situation_records if e.id < record.id], record.situation, record.path_key,
                      record.outcome, record.house, own.penalty, record.fingerprint, repeat=own.repeat)
    if as_json:
        emit_json(record.as_json() | {"precedent": found.as_json()})
        return
    house = "house rules (DTTF)" if record.house == "dttf" else "TDA 2024 (no house rules)"
    lines = [f"#{record.id}  {record.when():%Y-%m-%d %H:%M}" + (f"  {record.event}" if record.event else "")
             + (f"  (floor: {record.floorperson})" if record.floorperson else "")]
    if record.superseded_by:
        lines.append(f"CORRECTED by #{record.superseded_by} — that record is the current one; this one stays as it was.")
    lines.append(f"Situation: {record.title}  [{record.situation}]")
    for step in record.path:
        lines.append(f"  {step.get('ask', step['question'])} → {step.get('label', step['answer'])}")
    lines.append(f"Ruling ({house}): {record.ruling}  [outcome {record.outcome}]")
    lines.append("Rules cited: " + ", ".join(record.cites))
    where = ", ".join(x for x in (f"table {record.table}" if record.table else "",) if x)
    people = ", ".join(f"{p.get('name') or '(not named)'}" + (f" (seat {p['seat']})" if p.get("seat") else "")
                       for p in record.players)
    if where or people:
        lines.append("At: " + " · ".join(x for x in (where, people) if x))
    if record.penalty:
        lines.append(f"Penalty: {record.penalty.text} — {record.penalty_player}")
    if record.note:
        lines.append(f"Note: {record.note}")
    if record.supersedes:
        lines.append(f"Corrects: #{record.supersedes}")
    lines.append(f"Recorded by Floorcall {record.version}, content {record.fingerprint}")
    lines.append(found.line.replace("Precedent:", "Precedent then:", 1))
    for line in lines:
        typer.echo(line)


@command(log_app, "correct", epilog=epilog("log-correct"))
def correct(
    ctx: typer.Context,
    record_id: str = typer.Argument(..., metavar="ID", help="The record to correct (it stays; the correction supersedes it)."),
    table: Optional[str] = typer.Option(None, "--table", help="The right table."),
    seat: Optional[list[str]] = typer.Option(None, "--seat", help="The right seat(s), repeatable (replaces them all)."),
    player: Optional[list[str]] = typer.Option(None, "--player", help="The right player(s), repeatable (replaces them all; the first is the one penalised)."),
    penalty: Optional[str] = typer.Option(None, "--penalty", help="The right penalty: warning, N hands, N rounds, N minutes (DTTF), dq, or none."),
    note: Optional[str] = typer.Option(None, "--note", help="The right note (one line)."),
    event: Optional[str] = typer.Option(None, "--event", help="The right event."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
):
    """Correct a record's facts: a new record supersedes it and both stay (a wrong ruling: walk it again with --log --supersedes ID)."""
    from floorcall.engines.ruling_facts import check_record_id, make_facts
    from floorcall.store.ruling_log import correct_record, open_for_reading

    wanted = check_record_id(record_id)
    changes = make_facts(event=event, table=table, seats=seat, players=player, penalty=penalty, note=note,
                         penalty_needs_player=False)
    given = {name for name, value in (("event", event), ("table", table), ("seats", seat), ("players", player),
                                      ("penalty", penalty), ("note", note)) if value is not None}
    if penalty is not None and player is None:
        given.discard("players")  # the penalty goes to the record's own first player
    if not given:
        raise FloorError("give the facts that change: --table, --seat, --player, --penalty, --note or --event")
    path = _location(db, ctx)
    if open_for_reading(path) is None:
        raise FloorError(f"no ruling log yet at {path}", EXIT_NOT_FOUND)
    old, new_id = correct_record(path, wanted, changes, given)
    if as_json:
        emit_json({"id": new_id, "supersedes": old.id})
        return
    typer.echo(f"Logged #{new_id}: corrects #{old.id} ({old.situation} → {old.outcome}); #{old.id} stays in the log, "
               f"marked as corrected  (floor log show {new_id})")


@command(log_app, "export", epilog=epilog("log-export"))
def export(
    ctx: typer.Context,
    csv_file: Path = typer.Option(..., "--csv", help="The CSV file to write (an existing file is replaced only if it is a Floorcall export)."),
    event: Optional[str] = typer.Option(None, "--event", "-e", help="Only this event."),
    since: Optional[str] = typer.Option(None, "--since", help="From a time on (default: the whole log)."),
    db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
):
    """Export the log to CSV: every record, corrections and corrected records alike, one row each."""
    from floorcall.engines.ruling_facts import clean_line, parse_since
    from floorcall.publish.ruling_report import write_csv
    from floorcall.store.ruling_log import Query, open_for_reading

    window = parse_since(since) if since is not None else None
    query_event = clean_line(event, "--event", 80, '"Friday NLH"', what="the event's name") if event is not None else None
    path = _location(db, ctx)
    store = open_for_reading(path)
    if store is None:
        raise FloorError(f"no ruling log yet at {path} — nothing to export", EXIT_NOT_FOUND)
    with store:
        records = store.find(Query(since=window.start if window else None, event=query_event))
    written = write_csv(csv_file, records)
    typer.echo(f"Wrote {len(records)} record{'s' if len(records) != 1 else ''} to {written}")


def _site_base(site: Optional[str], out: Path) -> tuple[str, Path | None]:
    """The report's links: a URL as given, or a site folder as a path relative to the report (file:// works)."""
    import re

    from floorcall.commands.support import content_root

    if site is not None and re.match(r"^https?://", site.strip(), re.I):
        return site.strip(), None
    if site is not None and not site.strip():
        raise FloorError("--site is empty — give the rulebook site's folder or its https:// address")
    if site is not None:
        folder = Path(site).expanduser().resolve()
    else:
        from floorcall.commands.site_cmd import _out

        folder = _out(None, content_root())
    report_folder = out.expanduser().resolve().parent
    return Path(os.path.relpath(folder, report_folder)).as_posix(), folder


@command(log_app, "report", epilog=epilog("log-report"))
def report(
    ctx: typer.Context,
    out: Path = typer.Option(..., "--out", "-o", help="The HTML file to write (replaced only if it is a Floorcall report)."),
    event: Optional[str] = typer.Option(None, "--event", "-e", help="The event to report (default: tonight)."),
    since: Optional[str] = typer.Option(None, "--since", help="From a time on, instead of tonight or an event."),
    site: Optional[str] = typer.Option(None, "--site", help="The rulebook site the links point to: its folder or https:// address (default: the `floor site build` folder)."),
    db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
):
    """Write the end-of-night report: every ruling with links to its rules, penalties per player, consistency flags."""
    from floorcall.commands.support import content_root, corpus
    from floorcall.engines.ruling_facts import clean_line, parse_since, tonight
    from floorcall.publish.ruling_report import write_report
    from floorcall.store.ruling_log import Query, open_for_reading

    if event is not None and since is not None:
        raise FloorError("--event and --since both choose the rulings — give one")
    query_event = clean_line(event, "--event", 80, '"Friday NLH"', what="the event's name") if event is not None else None
    window = parse_since(since) if since is not None else (tonight() if query_event is None else None)
    base, folder = _site_base(site, out)
    path = _location(db, ctx)
    store = open_for_reading(path)
    if store is None:
        raise FloorError(f"no ruling log yet at {path} — nothing to report", EXIT_NOT_FOUND)
    with store:
        records = store.find(Query(since=window.start if window else None, event=query_event))
        everything = store.all_precedents()
        events = store.events() if not records and query_event else []
    if not records and query_event:
        hint = f" — events in this log: {', '.join(events[:5])}" if events else ""
        raise FloorError(f"no rulings in event '{query_event}'{hint}", EXIT_NOT_FOUND)
    data = corpus()
    logged_event = next((r.event for r in records if r.event), query_event)
    label = window.label if window is not None else ""
    scope = f"event '{logged_event}'" if query_event else label
    title = f"Ruling log — {logged_event}" if query_event else f"Ruling log — {label}"
    written = write_report(out, content_root(), records, everything, data["rules"], data["situations"], title=title,
                           scope=scope, site_base=base)
    typer.echo(f"Wrote the report of {len(records)} ruling{'s' if len(records) != 1 else ''}, {scope}, to {written}")
    if folder is not None and not (folder / "index.html").exists():
        typer.echo(f"note: its links point to {folder}, which holds no site yet — run `floor site build --out {folder}`")


# ---------------------------------------------------------------- floor penalty NAME


def penalty(
    player: str = typer.Argument(..., metavar="PLAYER", help='The player\'s name, e.g. "Ann Lee" (case and accents do not matter).'),
    event: Optional[str] = typer.Option(None, "--event", "-e", help="The event (default: tonight's rulings)."),
    since: Optional[str] = typer.Option(None, "--since", help="From a time on, instead of tonight."),
    house: Optional[str] = typer.Option(None, "--house", help="dttf or none (default: the rules in force at the player's last ruling, else dttf)."),
    players: Optional[str] = typer.Option(None, "--players", help="Players at the table now, for the penalty's length in hands."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    db: Optional[str] = typer.Option(None, "--db", help=DB_HELP),
):
    """A player's warnings and penalties this event and the next step on TDA 71's ladder (under the house's scale)."""
    from floorcall.engines.calc import MAX_SEATS, MIN_SEATS, parse_count
    from floorcall.engines.ruling_facts import clean_line, parse_since
    from floorcall.engines.walk import HOUSE_MODES
    from floorcall.store.ruling_log import ladder_for

    if house is not None and house not in HOUSE_MODES:
        raise FloorError(f"unknown house mode '{house}' — use one of: {', '.join(HOUSE_MODES)}")
    if event is not None and since is not None:
        raise FloorError("--event and --since both choose the rulings — give one")
    query_event = clean_line(event, "--event", 80, '"Friday NLH"', what="the event's name") if event is not None else None
    window = parse_since(since) if since is not None else None
    count = parse_count(players, "--players", low=MIN_SEATS, high=MAX_SEATS) if players is not None else None
    ladder = ladder_for(_location(db), player, event=query_event, window=window, house=house, players=count)
    if as_json:
        emit_json(ladder.as_json())
        return
    for line in ladder.lines:
        typer.echo(line)


def register(app: typer.Typer) -> None:
    """Add `floor log …` and `floor penalty` to the app."""
    app.add_typer(log_app, name="log")
    command(app, "penalty", epilog=epilog("player-penalty"))(penalty)
