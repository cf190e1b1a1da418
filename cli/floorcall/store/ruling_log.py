"""The ruling log: every ruling a floorperson saves, kept in SQLite, never edited.

For the interactive session (the `s` key and the precedent line), these calls are all it needs:

    from floorcall.engines.ruling_facts import make_facts
    from floorcall.store import ruling_log

    path = ruling_log.log_location(db_option)             # --db > FLOORCALL_DB > $XDG_DATA_HOME/floorcall/rulings.sqlite3
    line = ruling_log.precedent_line(path, ruling)        # one line, when the walk reaches a ruling
    defaults = ruling_log.remembered_facts(path, name)    # last event/table/seats/players tonight: prompt defaults
    facts = make_facts(table="12", seats=["4"], players=["Ann Lee"], penalty="warning", note=None,
                       event=defaults.event or None, floorperson=os.environ.get("FLOORCALL_NAME"))
    ladder = ruling_log.ladder_before_save(path, ruling, facts)   # not None: show ladder.lines before saving
    record_id = ruling_log.save_ruling(path, ruling, facts, content_root)

`ruling` is the walk engine's `Ruling`; every fact left empty at a prompt is passed as None. Each
call raises `FloorError` (one line) for bad facts or a file it cannot use. `record_ruling` does the
last two in one open of the file and also returns the precedent against the earlier records (what
`floor walk --log` prints).

What is saved is never lost:
- one record is one BEGIN IMMEDIATE transaction in WAL mode with synchronous=FULL: two floor
  staff saving at once on one machine both get their record, and a process killed mid-save loses
  at most the record being saved;
- records are never changed or deleted (triggers refuse it): a correction is a new record that
  supersedes the old one, and both stay; a record can be superseded once, so corrections form a chain;
- a damaged, foreign or newer-format file is refused with one line and left byte-for-byte as it
  was (see `store.sqlite_file`); an older format is migrated forward on open.

Formats: 1 is the first layout; 2 added the folded free-text column that `floor log --text`
searches, and an index by event. Both steps run on a new file, so the upgrade path of an old file
is the one every new file takes.

The commands use only `open_log`, `Query` and the functions below, never SQL: a shared server
database for a large series can be added behind `RulingLog` without touching them.
"""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from functools import cached_property
from itertools import zip_longest
from pathlib import Path
from typing import Protocol

from floorcall.core.errors import FloorError
from floorcall.engines.penalty_ladder import Entry, Ladder, build_ladder
from floorcall.engines.precedent import NO_PENALTY, Earlier, Precedent, precedent
from floorcall.engines.ruling_facts import (
    Facts,
    Penalty,
    Window,
    check_name,
    check_penalty_for_house,
    local_time,
    name_key,
    night_start,
    path_key,
    penalty_from_row,
    search_text,
    tonight,
)
from floorcall.store.log_location import DATA_ENV, DB_ENV, DB_NAME, default_log_path, log_location  # noqa: F401
from floorcall.store.sqlite_file import FileKind, SqliteFile, writable

# Marks the file as ours (PRAGMA application_id): "FCRL". A SQLite file from another program is refused.
APPLICATION_ID = 0x4643524C
KEY_SEPARATOR = "\x1f"  # between player keys in one column: a character no name can hold
MAX_NAMED_PLAYERS = 500  # above this many, reading every penalty beats a long IN (…) list
UNDECIDED = "undecided"  # precedent before the penalty is chosen: earlier penalties are compared with each other

_NEVER_UPDATED = ("CREATE TRIGGER records_never_updated BEFORE UPDATE ON records "
                  "BEGIN SELECT RAISE(ABORT, 'ruling log records are never edited: save a correction'); END")
_NEVER_DELETED = ("CREATE TRIGGER records_never_deleted BEFORE DELETE ON records "
                  "BEGIN SELECT RAISE(ABORT, 'ruling log records are never deleted'); END")

FORMAT_1 = (
    """CREATE TABLE records (
        id INTEGER PRIMARY KEY,
        uid TEXT NOT NULL UNIQUE,              -- stays the same when logs from several machines are merged
        recorded_at TEXT NOT NULL,             -- UTC, ISO 8601
        event TEXT NOT NULL,
        event_key TEXT NOT NULL,
        floorperson TEXT NOT NULL,
        floorperson_key TEXT NOT NULL,
        situation TEXT NOT NULL,
        title TEXT NOT NULL,
        path TEXT NOT NULL,                    -- JSON: [{question, answer, ask, label}]
        path_key TEXT NOT NULL,                -- 'declared=silent;stage=flop'
        outcome TEXT NOT NULL,
        ruling TEXT NOT NULL,                  -- the ruling as announced
        house TEXT NOT NULL CHECK (house IN ('dttf', 'none')),
        cites TEXT NOT NULL,                   -- JSON: rule ids, primary first
        table_name TEXT NOT NULL,
        table_key TEXT NOT NULL,
        players TEXT NOT NULL,                 -- JSON: [{name, seat}]
        player_keys TEXT NOT NULL,             -- folded names between separators, for matching
        penalty_kind TEXT NOT NULL,            -- '' for no penalty
        penalty_count INTEGER,
        penalty_player TEXT NOT NULL,
        penalty_player_key TEXT NOT NULL,
        note TEXT NOT NULL,
        supersedes INTEGER REFERENCES records (id),
        version TEXT NOT NULL,                 -- the Floorcall that produced the ruling
        fingerprint TEXT NOT NULL              -- the content that produced it
    )""",
    "CREATE INDEX records_by_time ON records (recorded_at)",
    "CREATE INDEX records_by_situation ON records (situation, path_key)",
    "CREATE INDEX records_by_penalised ON records (penalty_player_key) WHERE penalty_kind != ''",
    # A record is superseded at most once: two corrections of the same record would fork its history.
    "CREATE UNIQUE INDEX records_superseded_once ON records (supersedes) WHERE supersedes IS NOT NULL",
    _NEVER_UPDATED,
    _NEVER_DELETED,
)


def _format_1(conn: sqlite3.Connection) -> None:
    for statement in FORMAT_1:
        conn.execute(statement)


def _search_of(event, floorperson, situation, title, outcome, ruling, table, players_json, penalty_kind, penalty_count,
               note, path_json) -> str:
    players = " ".join(p.get("name") or "" for p in json.loads(players_json))
    labels = " ".join(step.get("label", "") for step in json.loads(path_json))
    penalty = Penalty(penalty_kind, penalty_count).text if penalty_kind else ""
    return search_text(event, floorperson, situation, title, outcome, ruling, table, players, penalty, note, labels)


def _format_2(conn: sqlite3.Connection) -> None:
    """The free-text column, filled for the records already there (the one edit a record ever gets),
    and an index for the ladder's per-event reads."""
    conn.execute("ALTER TABLE records ADD COLUMN search TEXT NOT NULL DEFAULT ''")
    conn.execute("CREATE INDEX records_by_event ON records (event_key)")
    conn.execute("DROP TRIGGER records_never_updated")
    rows = conn.execute("SELECT id, event, floorperson, situation, title, outcome, ruling, table_name, players, "
                        "penalty_kind, penalty_count, note, path FROM records").fetchall()
    for record_id, *fields in rows:
        conn.execute("UPDATE records SET search = ? WHERE id = ?", (_search_of(*fields), record_id))
    conn.execute(_NEVER_UPDATED)


KIND = FileKind(
    name="the ruling log",
    application_id=APPLICATION_ID,
    migrations=(_format_1, _format_2),
    safe="rulings saved before this one are safe",
    elsewhere="use --db PATH (or FLOORCALL_DB) for another file",
    wal=True,
)
SCHEMA_VERSION = KIND.version

COLUMNS = ("r.id, r.uid, r.recorded_at, r.event, r.floorperson, r.situation, r.title, r.path, r.outcome, r.ruling, "
           "r.house, r.cites, r.table_name, r.players, r.penalty_kind, r.penalty_count, r.penalty_player, r.note, "
           "r.supersedes, s.id, r.version, r.fingerprint, r.path_key")
FROM = "FROM records r LEFT JOIN records s ON s.supersedes = r.id"


# ---------------------------------------------------------------- where the log lives


# ---------------------------------------------------------------- records


@dataclass
class LogRecord:
    id: int
    uid: str
    recorded_at: str  # UTC ISO 8601
    event: str
    floorperson: str
    situation: str
    title: str
    path_json: str = field(repr=False)  # the JSON columns are decoded when first used: a listing needs only players
    outcome: str
    ruling: str
    house: str
    cites_json: str = field(repr=False)
    table: str
    players_json: str = field(repr=False)
    penalty: Penalty | None
    penalty_player: str
    note: str
    supersedes: int | None
    superseded_by: int | None
    version: str
    fingerprint: str
    path_key: str  # 'declared=silent;stage=flop'

    @cached_property
    def path(self) -> list[dict]:
        """[{question, answer, ask, label}]"""
        return json.loads(self.path_json)

    @cached_property
    def cites(self) -> list[str]:
        return json.loads(self.cites_json)

    @cached_property
    def players(self) -> list[dict]:
        """[{"name": str | None, "seat": int | None}], seats and players paired by position."""
        return json.loads(self.players_json)

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.players if p.get("name")]

    @property
    def seats(self) -> list[int]:
        return [p["seat"] for p in self.players if p.get("seat")]

    def when(self, tz: tzinfo | None = None) -> datetime:
        return local_time(self.recorded_at, tz)

    def facts(self) -> Facts:
        return Facts(event=self.event, floorperson=self.floorperson, table=self.table, seats=tuple(self.seats),
                     players=tuple(self.names), penalty=self.penalty, note=self.note, supersedes=self.supersedes)

    def as_json(self) -> dict:
        return {
            "id": self.id, "uid": self.uid, "recorded_at": self.recorded_at, "event": self.event,
            "floorperson": self.floorperson, "situation": self.situation, "title": self.title, "path": self.path,
            "outcome": self.outcome, "ruling": self.ruling, "house": self.house, "cites": self.cites,
            "table": self.table, "players": self.players,
            "penalty": self.penalty.as_json() if self.penalty else None, "penalty_player": self.penalty_player,
            "note": self.note, "supersedes": self.supersedes, "superseded_by": self.superseded_by,
            "version": self.version, "fingerprint": self.fingerprint,
        }


def _record(row: tuple) -> LogRecord:
    (rid, uid, at, event, floorperson, situation, title, path, outcome, ruling, house, cites, table, players,
     kind, count, penalised, note, supersedes, superseded_by, version, fingerprint, key) = row
    return LogRecord(rid, uid, at, event, floorperson, situation, title, path, outcome, ruling, house, cites, table, players,
                     penalty_from_row(kind, count), penalised, note, supersedes, superseded_by, version, fingerprint, key)


@dataclass(frozen=True)
class Draft:
    """A record about to be saved (the store adds the id, uid and time)."""

    situation: str
    title: str
    path: list[dict]
    outcome: str
    ruling: str
    house: str
    cites: list[str]
    facts: Facts
    version: str
    fingerprint: str


def draft_of(ruling, facts: Facts, version: str, fingerprint: str) -> Draft:
    """A walk engine `Ruling` and its facts as a record to save."""
    check_penalty_for_house(facts.penalty, ruling.house)
    path = [{"question": s.question, "answer": s.answer, "ask": s.ask, "label": s.label} for s in ruling.path]
    return Draft(ruling.situation, ruling.title, path, ruling.outcome, ruling.ruling, ruling.house, list(ruling.cites),
                 facts, version, fingerprint)


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def same_scope(at: str, event_key: str, other_at: str, other_event_key: str) -> bool:
    """Two records in one ladder scope: the same event, or — both without an event — the same night."""
    if event_key or other_event_key:
        return event_key == other_event_key
    return night_start(local_time(at)) == night_start(local_time(other_at))


@dataclass(frozen=True)
class Query:
    """Which records to list. Text filters compare folded text (case and accents do not matter)."""

    since: datetime | None = None
    event: str | None = None  # the whole name
    player: str | None = None  # part of a name
    table: str | None = None
    situation: str | None = None
    text: tuple[str, ...] = ()  # every word must appear
    floorperson: str | None = None
    current_only: bool = False  # leave out superseded records
    newest_first: bool = False
    limit: int | None = None


class RulingLog(Protocol):
    """What the commands ask of a ruling log; a server database would implement the same."""

    def save(self, draft: Draft) -> int: ...
    def get(self, record_id: int) -> LogRecord | None: ...
    def find(self, query: Query) -> list[LogRecord]: ...
    def precedents(self, situation: str) -> list[Earlier]: ...
    def all_precedents(self) -> list[Earlier]: ...
    def penalties(self, player: str, *, event: str | None = None, since: datetime | None = None) -> list[LogRecord]: ...
    def named(self, player: str, *, event: str | None = None, since: datetime | None = None) -> list[LogRecord]: ...
    def events(self) -> list[str]: ...
    def situations(self) -> set[str]: ...
    def count(self) -> int: ...
    def close(self) -> None: ...
    def __enter__(self) -> RulingLog: ...
    def __exit__(self, *exc) -> None: ...
    @property
    def path(self) -> Path: ...


class SqliteRulingLog:
    """The ruling log in one SQLite file on this machine."""

    def __init__(self, path: str | os.PathLike, readonly: bool = False, quick_check: bool = True,
                 clock: Callable[[], datetime] | None = None):
        self.file = SqliteFile(path, KIND, readonly=readonly, quick_check=quick_check)
        self.path = self.file.path
        self.clock = clock or (lambda: datetime.now(UTC))  # tests and benches may set the time

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> SqliteRulingLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------ writing

    def save(self, draft: Draft) -> int:
        """Save one record in its own transaction; returns its id."""
        facts = draft.facts
        players = [{"name": name, "seat": seat} for name, seat in zip_longest(facts.players, facts.seats)]
        players_json = json.dumps(players, ensure_ascii=False)
        path_json = json.dumps(draft.path, ensure_ascii=False)
        penalty = facts.penalty
        values = {
            "uid": uuid.uuid4().hex, "event": facts.event, "event_key": name_key(facts.event),
            "floorperson": facts.floorperson, "floorperson_key": name_key(facts.floorperson),
            "situation": draft.situation, "title": draft.title, "path": path_json, "path_key": path_key(draft.path),
            "outcome": draft.outcome, "ruling": draft.ruling, "house": draft.house,
            "cites": json.dumps(draft.cites), "table_name": facts.table, "table_key": name_key(facts.table),
            "players": players_json,
            "player_keys": KEY_SEPARATOR + KEY_SEPARATOR.join(name_key(n) for n in facts.players) + KEY_SEPARATOR,
            "penalty_kind": penalty.kind if penalty else "", "penalty_count": penalty.count if penalty else None,
            "penalty_player": facts.penalised, "penalty_player_key": name_key(facts.penalised),
            "note": facts.note, "supersedes": facts.supersedes, "version": draft.version, "fingerprint": draft.fingerprint,
            "search": _search_of(facts.event, facts.floorperson, draft.situation, draft.title, draft.outcome, draft.ruling,
                                 facts.table, players_json, penalty.kind if penalty else "",
                                 penalty.count if penalty else None, facts.note, path_json),
        }

        def work(conn: sqlite3.Connection) -> int:
            old = facts.supersedes
            if old is not None:
                if conn.execute("SELECT 1 FROM records WHERE id = ?", (old,)).fetchone() is None:
                    raise FloorError(f"there is no record #{old} to correct in {self.path} — see `floor log --all`", exit_code=1)
                later = conn.execute("SELECT id FROM records WHERE supersedes = ?", (old,)).fetchone()
                if later:
                    raise FloorError(f"record #{old} was already corrected by #{later[0]} — correct #{later[0]} instead")
            # The time is taken under the write lock, so times follow ids.
            row = dict(values, recorded_at=_stamp(self.clock()))
            names = ", ".join(row)
            cursor = conn.execute(f"INSERT INTO records ({names}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))
            return int(cursor.lastrowid or 0)

        return self.file.transaction("save this ruling", work)

    # ------------------------------------------------------------ reading

    def get(self, record_id: int) -> LogRecord | None:
        rows = self.file.read("read the log", f"SELECT {COLUMNS} {FROM} WHERE r.id = ?", (record_id,))
        return _record(rows[0]) if rows else None

    def find(self, query: Query) -> list[LogRecord]:
        where, args = [], []
        if query.since is not None:
            where.append("r.recorded_at >= ?")
            args.append(_stamp(query.since))
        for column, value in (("r.event_key", query.event), ("r.table_key", query.table),
                              ("r.floorperson_key", query.floorperson)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(name_key(value))
        if query.situation is not None:
            where.append("r.situation = ?")
            args.append(query.situation)
        if query.player is not None:
            where.append("r.player_keys LIKE ? ESCAPE '\\'")
            args.append(_like(name_key(query.player)))
        for word in query.text:
            where.append("r.search LIKE ? ESCAPE '\\'")
            args.append(_like(search_text(word)))
        if query.current_only:
            where.append("s.id IS NULL")
        sql = f"SELECT {COLUMNS} {FROM}" + (" WHERE " + " AND ".join(where) if where else "")
        sql += " ORDER BY r.id" + (" DESC" if query.newest_first else "")
        if query.limit is not None:
            sql += f" LIMIT {int(query.limit)}"
        return [_record(row) for row in self.file.read("read the log", sql, args)]

    def _earlier(self, where: str, args: tuple) -> list[Earlier]:
        rows = self.file.read("read the log", "SELECT r.id, r.recorded_at, r.situation, r.path_key, r.outcome, r.house, "
                              f"r.penalty_kind, r.penalty_count, r.fingerprint, s.id, r.penalty_player_key, r.event_key {FROM} "
                              f"{where} ORDER BY r.id", args)
        penalised = sorted({row[10] for row in rows if row[6]})
        given = self._penalties_given(penalised) if penalised else {}
        return [Earlier(rid, at, situation, key, outcome, house, Penalty(kind, count).text if kind else NO_PENALTY,
                        fingerprint, superseded is not None,
                        bool(kind) and any(pid < rid and same_scope(at, event, p_at, p_event)
                                           for pid, p_at, p_event in given.get(player, ())))
                for rid, at, situation, key, outcome, house, kind, count, fingerprint, superseded, player, event in rows]

    def _penalties_given(self, players: list[str]) -> dict[str, list[tuple[int, str, str]]]:
        """The players' current penalties as {player key: [(id, time, event key)]}: what makes a later one a repeat."""
        some = len(players) <= MAX_NAMED_PLAYERS
        only = f" AND r.penalty_player_key IN ({', '.join('?' * len(players))})" if some else ""
        rows = self.file.read("read the log", f"SELECT r.id, r.recorded_at, r.event_key, r.penalty_player_key {FROM} "
                              f"WHERE r.penalty_kind != '' AND s.id IS NULL{only} ORDER BY r.id", players if some else ())
        given: dict[str, list[tuple[int, str, str]]] = {}
        for rid, at, event, player in rows:
            given.setdefault(player, []).append((rid, at, event))
        return given

    def precedents(self, situation: str) -> list[Earlier]:
        return self._earlier("WHERE r.situation = ?", (situation,))

    def all_precedents(self) -> list[Earlier]:
        return self._earlier("", ())

    def penalties(self, player: str, *, event: str | None = None, since: datetime | None = None) -> list[LogRecord]:
        """The player's current penalty records in scope (an event, or from a time on)."""
        where, args = ["r.penalty_kind != ''", "r.penalty_player_key = ?", "s.id IS NULL"], [name_key(player)]
        return self._in_scope(where, args, event, since)

    def named(self, player: str, *, event: str | None = None, since: datetime | None = None) -> list[LogRecord]:
        """Current records that name the player (with or without a penalty) in scope."""
        key = name_key(player)
        where, args = ["r.player_keys LIKE ? ESCAPE '\\'", "s.id IS NULL"], [_like(KEY_SEPARATOR + key + KEY_SEPARATOR)]
        return self._in_scope(where, args, event, since)

    def _in_scope(self, where: list[str], args: list[str], event: str | None, since: datetime | None) -> list[LogRecord]:
        """Records matching `where`, narrowed to one event or else to those from a time on."""
        if event is not None:
            where.append("r.event_key = ?")
            args.append(name_key(event))
        elif since is not None:
            where.append("r.recorded_at >= ?")
            args.append(_stamp(since))
        rows = self.file.read("read the log", f"SELECT {COLUMNS} {FROM} WHERE {' AND '.join(where)} ORDER BY r.id", args)
        return [_record(row) for row in rows]

    def events(self) -> list[str]:
        rows = self.file.read("read the log", "SELECT event, max(id) FROM records WHERE event != '' GROUP BY event_key ORDER BY 2 DESC")
        return [event for event, _ in rows]

    def situations(self) -> set[str]:
        return {row[0] for row in self.file.read("read the log", "SELECT DISTINCT situation FROM records")}

    def count(self) -> int:
        return self.file.read("read the log", "SELECT count(*) FROM records")[0][0]


def open_log(location: str | os.PathLike, readonly: bool = False) -> RulingLog:
    """The ruling log at `location` (a file path; see `log_location`). The one place that picks the
    kind of store: a server log would be chosen here, by its address."""
    return SqliteRulingLog(location, readonly=readonly)


def open_for_reading(location: str | os.PathLike) -> RulingLog | None:
    """The log to read, or None when nothing has been saved there yet. A writable file is opened for
    writing so an older format is upgraded; a read-only one is only read."""
    path = Path(location).expanduser()
    if path.is_dir():
        raise FloorError(f"the ruling log {path} is a folder — give a file path with --db")
    if not path.exists():
        return None
    can_write = writable(path) and writable(path.parent)
    return SqliteRulingLog(path, readonly=not can_write)


# ---------------------------------------------------------------- what the session and the commands call


def save_ruling(db_path: str | os.PathLike, ruling, facts: Facts, content_root: str | os.PathLike) -> int:
    """Save `ruling` (a walk engine Ruling) with `facts`; returns the new record's id."""
    return record_ruling(db_path, ruling, facts, content_root).id


@dataclass
class Saved:
    """A saved ruling and what the table was shown with it."""

    id: int
    precedent: Precedent  # against the records before this one
    ladder: Ladder | None  # the player's ladder before this penalty, when there was one on record


def record_ruling(db_path: str | os.PathLike, ruling, facts: Facts, content_root: str | os.PathLike,
                  players: int | None = None, tz: tzinfo | None = None) -> Saved:
    """Save `ruling` with `facts`, reading first (in the same open file) the precedent and, for a
    player who already has a penalty on record, the ladder."""
    from floorcall import __version__
    from floorcall.content.fingerprint import content_fingerprint

    fingerprint = content_fingerprint(Path(content_root))
    draft = draft_of(ruling, facts, __version__, fingerprint)
    with open_log(db_path) as log:
        ladder = None
        if facts.penalty is not None and facts.players:
            ladder = _ladder(log, facts.players[0], player_scope(facts.event or None, None), ruling.house, players, tz)
            ladder = ladder if ladder.entries else None
        found = _precedent(log, ruling, facts.penalty, ladder is not None, fingerprint, tz)
        return Saved(log.save(draft), found, ladder)


def correct_record(db_path: str | os.PathLike, record_id: int, changes: Facts, given: set[str]) -> tuple[LogRecord, int]:
    """Save a correction of record `record_id`: its ruling with the facts named in `given` replaced by
    `changes`' (the others kept); returns (the old record, the new id)."""
    with open_log(db_path) as log:
        old = log.get(record_id)
        if old is None:
            raise FloorError(f"there is no record #{record_id} in {log.path} — see `floor log --all`", exit_code=1)
        keep = old.facts()
        merged = Facts(**{name: getattr(changes if name in given else keep, name)
                          for name in ("event", "floorperson", "table", "seats", "players", "penalty", "note")},
                       supersedes=record_id)
        if merged.penalty is not None and not merged.players:
            raise FloorError("--penalty needs --player NAME: the corrected record names no player")
        if all(getattr(merged, n) == getattr(keep, n) for n in ("event", "table", "seats", "players", "penalty", "note")):
            raise FloorError(f"nothing to correct: the facts given are those of #{record_id} already — "
                             "give the ones that change (--table, --seat, --player, --penalty, --note, --event)")
        check_penalty_for_house(merged.penalty, old.house)
        draft = Draft(old.situation, old.title, old.path, old.outcome, old.ruling, old.house, old.cites, merged,
                      old.version, old.fingerprint)
        return old, log.save(draft)


def _precedent(log: RulingLog | None, ruling, penalty: Penalty | None | str, repeat: bool, fingerprint: str,
               tz: tzinfo | None) -> Precedent:
    earlier = log.precedents(ruling.situation) if log is not None else []
    given = None if penalty == UNDECIDED else (penalty.text if isinstance(penalty, Penalty) else NO_PENALTY)
    return precedent(earlier, ruling.situation, path_key(ruling.path), ruling.outcome, ruling.house, given, fingerprint, tz,
                     repeat)


def precedent_for(db_path: str | os.PathLike, ruling, penalty: Penalty | None | str = UNDECIDED,
                  fingerprint: str = "", tz: tzinfo | None = None, repeat: bool = False) -> Precedent:
    """The precedent for `ruling` in the log; `penalty` the one given (None: no penalty), or UNDECIDED;
    `repeat` when it goes to a player who already has a penalty this event (`ladder_before_save` is not None)."""
    log = open_for_reading(db_path)
    if log is None:
        return _precedent(None, ruling, penalty, repeat, fingerprint, tz)
    with log:
        return _precedent(log, ruling, penalty, repeat, fingerprint, tz)


def precedent_line(db_path: str | os.PathLike, ruling) -> str:
    """One line: how this situation was ruled before in the log, with a consistency flag."""
    return precedent_for(db_path, ruling).line


@dataclass(frozen=True)
class PlayerScope:
    label: str
    event: str | None = None
    since: datetime | None = None


def player_scope(event: str | None, window: Window | None) -> PlayerScope:
    """The ladder's scope: the event when one is named, else a span of time (tonight by default)."""
    if event is not None:
        return PlayerScope(f"event '{event}'", event=event)
    window = window or tonight()
    return PlayerScope(window.label, since=window.start)


def ladder_for(db_path: str | os.PathLike, player: str, *, event: str | None = None, window: Window | None = None,
               house: str | None = None, players: int | None = None, tz: tzinfo | None = None) -> Ladder:
    """The player's penalties in scope and the next step, under `house` (default: the rules in force at
    the player's latest ruling in scope, else the house rules)."""
    player = check_name(player, "PLAYER")
    scope = player_scope(event, window)
    log = open_for_reading(db_path)
    if log is None:
        return _ladder(None, player, scope, house, players, tz)
    with log:
        return _ladder(log, player, scope, house, players, tz)


def _ladder(log: RulingLog | None, player: str, scope: PlayerScope, house: str | None, players: int | None,
            tz: tzinfo | None) -> Ladder:
    records = log.penalties(player, event=scope.event, since=scope.since) if log is not None else []
    named = log.named(player, event=scope.event, since=scope.since) if log is not None else []
    latest = max(named + records, key=lambda r: r.id, default=None)
    house = house or (latest.house if latest else "dttf")
    shown_name = records[-1].penalty_player if records else player
    label = scope.label
    if scope.event is not None and latest is not None and latest.event:
        label = f"event '{latest.event}'"  # as it was logged, not as it was typed
    key = name_key(player)
    entries = []
    for r in records:
        assert r.penalty is not None  # penalties() returns penalised records only
        seat = next((p.get("seat") for p in r.players if p.get("name") and name_key(p["name"]) == key), None)
        entries.append(Entry(r.id, f"{r.when(tz):%Y-%m-%d %H:%M}", r.event, r.table, seat, r.situation, r.title,
                             r.penalty, r.house))
    penalised_ids = {r.id for r in records}
    without = sum(1 for r in named if r.id not in penalised_ids)
    return build_ladder(shown_name, entries, house, label, players, without)


def ladder_before_save(db_path: str | os.PathLike, ruling, facts: Facts, players: int | None = None) -> Ladder | None:
    """The ladder to show before saving a penalty, when the player already has one on record (else None)."""
    if facts.penalty is None or not facts.players:
        return None
    ladder = ladder_for(db_path, facts.players[0], event=facts.event or None, house=ruling.house, players=players)
    return ladder if ladder.entries else None


def remembered_facts(db_path: str | os.PathLike, floorperson: str | None = None) -> Facts:
    """The where and who of this floorperson's last ruling tonight (any floorperson's without a name): the
    defaults of the next save. Never its penalty or note."""
    log = open_for_reading(db_path)
    if log is None:
        return Facts()
    with log:
        found = log.find(Query(since=tonight().start, floorperson=floorperson or None, newest_first=True, limit=1))
    return found[0].facts().remembered() if found else Facts()
