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
from urllib.parse import quote

from floorcall.core.errors import FloorError
from floorcall.engines.quiz import Item
from floorcall.engines.schedule import AGAIN, GOOD, Card, iso, parse_time, rating_for

DATA_ENV = "XDG_DATA_HOME"
DB_NAME = "quiz-progress.sqlite3"
# Marks the file as ours (PRAGMA application_id): "FCQZ". A SQLite file from another program is refused.
APPLICATION_ID = 0x46435A51
# 1: Leitner boxes counted in sessions. 2: FSRS cards, ratings, exams.
SCHEMA_VERSION = 2
LEITNER_VERSION = 1
# Long enough to ride out another `floor quiz` committing an answer (milliseconds), short enough
# that a stuck lock is reported while the trainee is still looking at the screen.
LOCK_TIMEOUT_SECONDS = 5.0
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


def _writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


class ProgressStore:
    """One open progress database. Use as a context manager, or call `close()`."""

    def __init__(self, path: str | os.PathLike, readonly: bool = False, timeout: float = LOCK_TIMEOUT_SECONDS):
        self.path = Path(path).expanduser()
        self.readonly = readonly
        self.timeout = timeout
        self.conn: sqlite3.Connection | None = None
        self.version = SCHEMA_VERSION  # the file's format once opened (1 only when read-only and not yet carried forward)
        try:
            self._open()
        except PermissionError as exc:  # a folder on the way we may not enter (stat itself fails)
            raise FloorError(f"cannot reach the progress database {self.path}: {exc.strerror or 'permission denied'} "
                             "— use --db PATH somewhere you can write") from None

    # ------------------------------------------------------------ opening

    def _open(self) -> None:
        path = self.path
        if path.is_dir():
            raise FloorError(f"the progress database {path} is a folder — give a file path with --db")
        if self.readonly:
            if not path.exists():
                raise FloorError(f"no quiz progress saved yet at {path} — take a quiz with --name NAME first")
        else:
            self._check_writable(path)
        try:
            if self.readonly:
                uri = f"file:{quote(str(path.resolve()))}?mode=ro"
                self.conn = sqlite3.connect(uri, uri=True, timeout=self.timeout, isolation_level=None)
            else:
                self.conn = sqlite3.connect(str(path), timeout=self.timeout, isolation_level=None)
            self._verify_or_create(self.conn)
        except sqlite3.Error as exc:
            self.close()
            raise self._explain(exc, "open it") from None
        except FloorError:
            self.close()
            raise

    def _check_writable(self, path: Path) -> None:
        folder = path.parent
        if path.exists():
            if not _writable(path):
                raise FloorError(f"the progress database {path} is read-only: answers cannot be saved (what is saved is safe) — "
                                 "make it writable, or use --db PATH for another file; `floor quiz stats` can still read it")
            if not _writable(folder):
                raise FloorError(f"the folder {folder} is read-only, and SQLite needs it to save safely — "
                                 "make it writable, or use --db PATH in another folder")
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FloorError(f"cannot create the folder {folder} for quiz progress ({exc.strerror or exc}) — use --db PATH") from None
        if not _writable(folder):
            raise FloorError(f"the folder {folder} is read-only: quiz progress cannot be saved there — use --db PATH")

    def _verify_or_create(self, conn: sqlite3.Connection) -> None:
        # Reading the header first: a file that is not SQLite fails here, before anything is written.
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables or app_id:
            if app_id != APPLICATION_ID:
                raise FloorError(f"{self.path} is not a Floorcall progress database (it holds other data); it was left untouched — "
                                 "use --db PATH to keep progress elsewhere")
            if version > SCHEMA_VERSION:
                raise FloorError(f"the progress database {self.path} was written by a newer Floorcall (format {version}); "
                                 "it was left untouched — update Floorcall to use it")
            check = conn.execute("PRAGMA quick_check").fetchall()
            if check != [("ok",)]:
                raise sqlite3.DatabaseError(f"database disk image is malformed ({check[0][0]})")
            self.version = version
            if version == LEITNER_VERSION and not self.readonly:
                self._migrate_from_leitner(conn)
            return
        if self.readonly:
            return  # an empty file: nothing saved yet, nothing to create
        conn.execute("BEGIN IMMEDIATE")
        try:
            # One statement at a time: executescript() would COMMIT before running the script.
            for statement in _statements(SCHEMA):
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.version = SCHEMA_VERSION

    def _migrate_from_leitner(self, conn: sqlite3.Connection) -> None:
        """Format 1 (Leitner) to 2 (FSRS), all in one transaction: each card is replayed from its answers."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] != LEITNER_VERSION:
                conn.execute("ROLLBACK")  # another process migrated it while we waited for the lock
                self.version = SCHEMA_VERSION
                return
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
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.version = SCHEMA_VERSION

    def _explain(self, exc: sqlite3.Error, doing: str) -> FloorError:
        """One clear line for what went wrong with the file; never a traceback."""
        detail = str(exc).strip() or type(exc).__name__
        text = detail.lower()
        where = f"the progress database {self.path}"
        if "locked" in text or "busy" in text:
            return FloorError(f"{where} is locked by another program (another `floor quiz`?): could not {doing} after "
                              f"waiting {self.timeout:g} s — answers saved before this one are safe; try again")
        if "readonly" in text or "read-only" in text:
            return FloorError(f"{where} is read-only: could not {doing} — answers saved before this one are safe; "
                              "make it writable or use --db PATH")
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return FloorError(f"{where} is damaged ({detail}); Floorcall left it untouched — keep a copy "
                              f"(`sqlite3 {self.path} .recover` may rescue it) and use --db PATH for new progress")
        if "unable to open" in text:
            return FloorError(f"cannot open {where} ({detail}) — check the path and its folder, or use --db PATH")
        return FloorError(f"could not {doing} in {where} ({detail}) — answers saved before this one are safe")

    def _connection(self) -> sqlite3.Connection:
        """The open connection: a store is opened by __init__ and not used after close()."""
        assert self.conn is not None, f"the progress store for {self.path} was used after close()"
        return self.conn

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            finally:
                self.conn = None

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
            return self._connection().execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise self._explain(exc, "read progress") from None

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
                raise self._explain(exc, "read progress") from None
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
        if self.readonly:
            raise FloorError(f"the progress database {self.path} was opened read-only: could not {doing}")
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE")  # take the write lock now, not half-way through
            try:
                result = work(conn)
                conn.execute("COMMIT")
                return result
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise self._explain(exc, doing) from None

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
