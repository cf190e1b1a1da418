"""Quiz progress per person, in SQLite: one FSRS card per person and item, every answer, and each exam.

What a trainee has saved is never lost:
- every answer is written and committed in its own transaction the moment it is given, so a quiz
  or an exam killed mid-way (even with SIGKILL) keeps every answer before the kill, and an exam
  can be taken up again where it stopped, on the same clock;
- a database that is damaged, not ours, or from a newer Floorcall is refused with a message and
  left exactly as it was: nothing here deletes, truncates or recreates a file;
- a database from before FSRS (format 1, Leitner boxes) is carried forward in one transaction:
  its answers are replayed through FSRS at the times they were given, the Leitner table is kept
  beside the new one (as `cards_leitner`), and nothing is dropped; if anything fails, nothing changes;
- a locked database is waited for (`LOCK_TIMEOUT_SECONDS`), then reported; a read-only one is
  reported before the quiz starts, and `floor quiz stats` reads it without needing to write (a
  format-1 file read-only is replayed in memory, not on disk).

The scheduling (`schedule.review`, `schedule.replay`) is the engine's; this module only stores it.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from floorcall.core.errors import FloorError
from floorcall.engines.quiz import Item
from floorcall.engines.schedule import AGAIN, GOOD, Card, iso, parse_time, rating_for
from floorcall.store.sqlite_file import LOCK_TIMEOUT_SECONDS, FileKind, SqliteFile

DATA_ENV = "XDG_DATA_HOME"
DB_NAME = "quiz-progress.sqlite3"
# Marks the file as ours (PRAGMA application_id): "FCQZ". A SQLite file from another program is refused.
APPLICATION_ID = 0x46435A51
# 1: Leitner boxes counted in sessions. 2: FSRS cards, ratings, exams.
SCHEMA_VERSION = 2
LEITNER_VERSION = 1
MAX_NAME = 80
EXAM_STATES = ("open", "done", "timed-out", "abandoned")

SCHEMA = """
CREATE TABLE IF NOT EXISTS people (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    sessions INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cards (
    name TEXT NOT NULL COLLATE NOCASE,
    item TEXT NOT NULL,
    state INTEGER NOT NULL CHECK (state BETWEEN 1 AND 3),
    step INTEGER,
    stability REAL,
    difficulty REAL,
    due TEXT NOT NULL,
    last_review TEXT,
    seen_count INTEGER NOT NULL,
    correct_count INTEGER NOT NULL,
    introduced TEXT NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (name, item)
);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL COLLATE NOCASE,
    session INTEGER NOT NULL,
    item TEXT NOT NULL,
    topic TEXT NOT NULL,
    sources TEXT NOT NULL,
    chosen INTEGER NOT NULL,
    answer INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    mode TEXT NOT NULL,
    answered TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    rating INTEGER CHECK (rating BETWEEN 1 AND 4),
    rated TEXT NOT NULL DEFAULT 'derived',
    picked TEXT NOT NULL DEFAULT '',
    exam INTEGER
);
CREATE INDEX IF NOT EXISTS answers_by_name ON answers (name, session);
CREATE TABLE IF NOT EXISTS exams (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL COLLATE NOCASE,
    seed INTEGER NOT NULL,
    items TEXT NOT NULL,
    minutes REAL NOT NULL,
    pass_mark REAL NOT NULL,
    started TEXT NOT NULL,
    deadline TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'done', 'timed-out', 'abandoned')),
    finished TEXT,
    score INTEGER,
    total INTEGER
);
CREATE INDEX IF NOT EXISTS exams_by_name ON exams (name, status);
"""

# Format 1 to 2, after the old cards table is renamed `cards_leitner` (kept, never dropped).
ANSWER_COLUMNS_ADDED = (
    "ALTER TABLE answers ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE answers ADD COLUMN rating INTEGER CHECK (rating BETWEEN 1 AND 4)",
    "ALTER TABLE answers ADD COLUMN rated TEXT NOT NULL DEFAULT 'derived'",
    "ALTER TABLE answers ADD COLUMN picked TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE answers ADD COLUMN exam INTEGER",
)


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def default_db_path() -> Path:
    """$XDG_DATA_HOME/floorcall/quiz-progress.sqlite3 (~/.local/share when XDG_DATA_HOME is unset or relative)."""
    base = os.environ.get(DATA_ENV, "")
    if not base or not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "floorcall" / DB_NAME


def check_name(name: str) -> str:
    cleaned = " ".join(str(name).split())
    if not cleaned:
        raise FloorError("--name is empty — give the trainee's name, e.g. --name Ana")
    if len(cleaned) > MAX_NAME or any(ord(c) < 32 for c in cleaned):
        raise FloorError(f"--name must be at most {MAX_NAME} printable characters")
    return cleaned


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _create(conn: sqlite3.Connection) -> None:
    """A new file, made at format 2 in one step (statement by statement: executescript() would COMMIT)."""
    for statement in _statements(SCHEMA):
        conn.execute(statement)


def _format_1_is_never_made(_conn: sqlite3.Connection) -> None:
    raise FloorError("a new progress database is made at the current format, never at format 1")


def _leitner_to_fsrs(conn: sqlite3.Connection) -> None:
    """Format 1 (Leitner) to 2 (FSRS), inside the opening transaction: each card replayed from its answers,
    the old cards table kept as `cards_leitner`, nothing dropped."""
    carried = leitner_cards(conn)
    conn.execute("ALTER TABLE cards RENAME TO cards_leitner")
    for statement in ANSWER_COLUMNS_ADDED:
        conn.execute(statement)
    for statement in _statements(SCHEMA):
        conn.execute(statement)
    conn.execute("UPDATE answers SET rating = CASE WHEN correct THEN ? ELSE ? END, rated = 'migrated', "
                 "picked = CAST(chosen + 1 AS TEXT)", (GOOD, AGAIN))
    now = _now()
    for (name, item), card in carried.items():
        conn.execute(CARD_UPSERT, _card_row(name, item, card, now))


KIND = FileKind(
    name="the progress database",
    application_id=APPLICATION_ID,
    migrations=(_format_1_is_never_made, _leitner_to_fsrs),
    safe="answers saved before this one are safe",
    elsewhere="use --db PATH for another file",
    create=_create,
    read_older=True,  # `floor quiz stats` reads a format-1 file it may not write, replaying it in memory
    missing_hint="take a quiz with --name NAME first",
    holder="another `floor quiz`",
)
assert KIND.version == SCHEMA_VERSION


class ProgressStore:
    """One open progress database. Use as a context manager, or call `close()`."""

    def __init__(self, path: str | os.PathLike, readonly: bool = False, timeout: float = LOCK_TIMEOUT_SECONDS):
        self.file = SqliteFile(path, KIND, readonly=readonly, timeout=timeout)
        self.path = self.file.path
        self.readonly = readonly
        # The file's format once opened: 1 only when read-only and not yet carried forward; an empty
        # file read-only counts as current (nothing saved, nothing to replay).
        self.version = self.file.version or SCHEMA_VERSION

    def _connection(self) -> sqlite3.Connection:
        return self.file.connection

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> ProgressStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------ reading

    def _tables_exist(self) -> bool:
        return self._connection().execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cards'").fetchone() is not None

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            if not self._tables_exist():
                return []
        except sqlite3.Error as exc:
            raise self.file.explain(exc, "read progress") from None
        return self.file.read("read progress", sql, args)

    def session(self, name: str) -> int:
        """The number of the person's latest session (0 before the first)."""
        rows = self._read("SELECT sessions FROM people WHERE name = ?", (check_name(name),))
        return rows[0][0] if rows else 0

    def cards(self, name: str) -> dict[str, Card]:
        """The person's FSRS card per item (replayed in memory from a format-1 file opened read-only)."""
        name = check_name(name)
        if self.version == LEITNER_VERSION:
            try:
                carried = leitner_cards(self._connection()) if self._tables_exist() else {}
            except sqlite3.Error as exc:
                raise self.file.explain(exc, "read progress") from None
            return {item: card for (who, item), card in carried.items() if who.lower() == name.lower()}
        rows = self._read(f"SELECT {CARD_FIELDS} FROM cards WHERE name = ?", (name,))
        return {row[0]: _card_from_row(row) for row in rows}

    def people(self) -> list[dict]:
        rows = self._read(
            "SELECT p.name, p.sessions, COUNT(a.id), COALESCE(SUM(a.correct), 0), MAX(a.answered) "
            "FROM people p LEFT JOIN answers a ON a.name = p.name GROUP BY p.name ORDER BY p.name COLLATE NOCASE"
        )
        return [{"name": n, "sessions": s, "answers": a, "right": r, "last": last} for n, s, a, r, last in rows]

    def answers(self, name: str) -> list[dict]:
        extra = ", rating, rated, picked, exam" if self.version >= SCHEMA_VERSION else ""
        rows = self._read(
            f"SELECT session, item, chosen, answer, correct, mode, answered{extra} FROM answers WHERE name = ? ORDER BY id",
            (check_name(name),),
        )
        keys = ("session", "item", "chosen", "answer", "correct", "mode", "answered") + (
            ("rating", "rated", "picked", "exam") if extra else ())
        found = [dict(zip(keys, row, strict=True)) for row in rows]
        for row in found:
            row["correct"] = bool(row["correct"])
        return found

    def exams(self, name: str) -> list[dict]:
        """The person's exams, oldest first."""
        if self.version < SCHEMA_VERSION:
            return []
        rows = self._read(f"SELECT {EXAM_FIELDS} FROM exams WHERE name = ? ORDER BY id", (check_name(name),))
        return [_exam_from_row(row) for row in rows]

    def open_exam(self, name: str) -> dict | None:
        """The person's unfinished exam, with the answers already given to it, or None."""
        if self.version < SCHEMA_VERSION:
            return None
        rows = self._read(f"SELECT {EXAM_FIELDS} FROM exams WHERE name = ? AND status = 'open' ORDER BY id DESC LIMIT 1",
                          (check_name(name),))
        if not rows:
            return None
        exam = _exam_from_row(rows[0])
        exam["answered"] = dict(self._read("SELECT item, picked FROM answers WHERE exam = ? ORDER BY id", (exam["id"],)))
        return exam

    # ------------------------------------------------------------ writing

    def _write(self, doing: str, work):
        return self.file.transaction(doing, work)

    def begin_session(self, name: str) -> int:
        """Start a new session for `name` (created on first use); returns its number."""
        name = check_name(name)

        def work(conn):
            conn.execute("INSERT INTO people (name, sessions, created) VALUES (?, 0, ?) ON CONFLICT (name) DO NOTHING", (name, _now()))
            conn.execute("UPDATE people SET sessions = sessions + 1 WHERE name = ?", (name,))
            return conn.execute("SELECT sessions FROM people WHERE name = ?", (name,)).fetchone()[0]

        return self._write("start a session", work)

    def record(self, name: str, session: int, item: Item, chosen, mode: str = "practice", said: int | None = None,
               when: datetime | None = None, exam: int | None = None) -> Card:
        """Save one answer (an index, or a tuple of indexes for select-all) and move the item's FSRS card,
        in one committed transaction. `said` is the trainee's own rating, if any; else it is derived."""
        from floorcall.engines.schedule import review

        name = check_name(name)
        correct = item.is_right(chosen)
        rating = rating_for(correct, said)
        picked = [chosen] if isinstance(chosen, int) else sorted(set(chosen))
        when = (when or datetime.now(UTC)).astimezone(UTC)

        def work(conn):
            row = conn.execute(f"SELECT {CARD_FIELDS} FROM cards WHERE name = ? AND item = ?", (name, item.id)).fetchone()
            card = review(_card_from_row(row) if row else None, rating, when)
            if row:  # our own tallies: a rating of 'again' on a right answer (a guess) still counts as right here
                card.right = _card_from_row(row).right + int(correct)
            else:
                card.right = int(correct)
            stamp = when.isoformat(timespec="seconds")
            conn.execute(
                "INSERT INTO answers (name, session, item, topic, sources, chosen, answer, correct, mode, answered, "
                "kind, rating, rated, picked, exam) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name, session, item.id, item.topic, ",".join(item.sources), picked[0] if picked else -1, item.answer,
                 int(correct), mode, stamp, item.kind, rating, "said" if said is not None else "derived",
                 "+".join(str(i + 1) for i in picked), exam),
            )
            conn.execute(CARD_UPSERT, _card_row(name, item.id, card, stamp))
            return card

        return self._write("save this answer", work)

    def start_exam(self, name: str, seed: int, item_ids: list[str], minutes: float, pass_mark: float,
                   started: datetime) -> int:
        """Record a new exam (its paper, clock and pass mark) before its first question is shown."""
        from floorcall.engines.exam import deadline

        name = check_name(name)

        def work(conn):
            conn.execute("INSERT INTO people (name, sessions, created) VALUES (?, 0, ?) ON CONFLICT (name) DO NOTHING", (name, _now()))
            cursor = conn.execute(
                "INSERT INTO exams (name, seed, items, minutes, pass_mark, started, deadline, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'open')",
                (name, seed, json.dumps(item_ids), minutes, pass_mark, iso(started), iso(deadline(started, minutes))),
            )
            return cursor.lastrowid

        return self._write("start the exam", work)

    def finish_exam(self, exam_id: int, status: str, score: int, total: int) -> None:
        if status not in EXAM_STATES:
            raise ValueError(status)

        def work(conn):
            conn.execute("UPDATE exams SET status = ?, finished = ?, score = ?, total = ? WHERE id = ?",
                         (status, _now(), score, total, exam_id))

        self._write("close the exam", work)


# ---------------------------------------------------------------- rows


CARD_FIELDS = "item, state, step, stability, difficulty, due, last_review, seen_count, correct_count, introduced"
CARD_UPSERT = (
    "INSERT INTO cards (name, item, state, step, stability, difficulty, due, last_review, seen_count, correct_count, introduced, updated) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name, item) DO UPDATE SET state = excluded.state, "
    "step = excluded.step, stability = excluded.stability, difficulty = excluded.difficulty, due = excluded.due, "
    "last_review = excluded.last_review, seen_count = excluded.seen_count, correct_count = excluded.correct_count, "
    "updated = excluded.updated"
)
EXAM_FIELDS = "id, name, seed, items, minutes, pass_mark, started, deadline, status, finished, score, total"


def _card_row(name: str, item: str, card: Card, updated: str) -> tuple:
    return (name, item, card.state, card.step, card.stability, card.difficulty, iso(card.due), iso(card.last_review),
            card.seen, card.right, iso(card.introduced or card.due), updated)


def _card_from_row(row) -> Card:
    _item, state, step, stability, difficulty, due, last, seen, right, introduced = row
    due_time = parse_time(due)
    assert due_time is not None  # the column is NOT NULL
    return Card(state, step, stability, difficulty, due_time, parse_time(last), seen, right, parse_time(introduced))


def _exam_from_row(row) -> dict:
    keys = EXAM_FIELDS.split(", ")
    exam = dict(zip(keys, row, strict=True))
    exam["items"] = json.loads(exam["items"])
    for key in ("started", "deadline", "finished"):
        exam[key] = parse_time(exam[key])
    return exam


def leitner_cards(conn: sqlite3.Connection) -> dict[tuple[str, str], Card]:
    """A format-1 database's cards carried into FSRS: each person's answers to each item replayed at the
    times they were given (right as 'good', wrong as 'again'); the Leitner tallies are kept. A card
    with no answers on record (it cannot be replayed) is due at once, as its box's next review would be."""
    from floorcall.engines.schedule import LEARNING, replay

    history: dict[tuple[str, str], list[tuple[datetime, int]]] = {}
    for name, item, correct, answered in conn.execute("SELECT name, item, correct, answered FROM answers ORDER BY id"):
        when = parse_time(answered)
        if when is not None:
            history.setdefault((name.lower(), item), []).append((when, GOOD if correct else AGAIN))
    carried = {}
    for name, item, seen, right, updated in conn.execute("SELECT name, item, seen_count, correct_count, updated FROM cards"):
        card = replay(history.get((name.lower(), item), []))
        if card is None:
            moment = parse_time(updated) or datetime.now(UTC)
            card = Card(LEARNING, 0, None, None, moment, None, introduced=moment)
        card.seen, card.right = seen, right
        carried[(name, item)] = card
    return carried
