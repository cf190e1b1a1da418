"""Quiz progress per person, in SQLite: one Leitner card per person and item, and every answer.

What a trainee has saved is never lost:
- every answer is written and committed in its own transaction the moment it is given, so a quiz
  killed mid-way keeps every answer before the kill;
- a database that is damaged, not ours, or from a newer Floorcall is refused with a message and
  left exactly as it was: nothing here deletes, truncates or recreates a file;
- a locked database is waited for (`LOCK_TIMEOUT_SECONDS`), then reported; a read-only one is
  reported before the quiz starts, and `floor quiz stats` reads it without needing to write.

The Leitner arithmetic (`next_box`, `is_due`) is the quiz engine's; this module only stores it.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from floorcall.core.errors import FloorError
from floorcall.engines.quiz import Card, Item, next_box

DATA_ENV = "XDG_DATA_HOME"
DB_NAME = "quiz-progress.sqlite3"
# Marks the file as ours (PRAGMA application_id): "FCQZ". A SQLite file from another program is refused.
APPLICATION_ID = 0x46435A51
SCHEMA_VERSION = 1
# Long enough to ride out another `floor quiz` committing an answer (milliseconds), short enough
# that a stuck lock is reported while the trainee is still looking at the screen.
LOCK_TIMEOUT_SECONDS = 5.0
MAX_NAME = 80

SCHEMA = """
CREATE TABLE IF NOT EXISTS people (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    sessions INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS cards (
    name TEXT NOT NULL COLLATE NOCASE,
    item TEXT NOT NULL,
    box INTEGER NOT NULL CHECK (box BETWEEN 1 AND 5),
    last_session INTEGER NOT NULL,
    seen_count INTEGER NOT NULL,
    correct_count INTEGER NOT NULL,
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
    answered TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_by_name ON answers (name, session);
"""


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
            return
        if self.readonly:
            return  # an empty file: nothing saved yet, nothing to create
        conn.execute("BEGIN IMMEDIATE")
        try:
            # One statement at a time: executescript() would COMMIT before running the script.
            for statement in (s.strip() for s in SCHEMA.split(";")):
                if statement:
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

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
        rows = self._read("SELECT item, box, last_session, seen_count, correct_count FROM cards WHERE name = ?", (check_name(name),))
        return {item: Card(box, last, seen, right) for item, box, last, seen, right in rows}

    def people(self) -> list[dict]:
        rows = self._read(
            "SELECT p.name, p.sessions, COUNT(a.id), COALESCE(SUM(a.correct), 0), MAX(a.answered) "
            "FROM people p LEFT JOIN answers a ON a.name = p.name GROUP BY p.name ORDER BY p.name COLLATE NOCASE"
        )
        return [{"name": n, "sessions": s, "answers": a, "right": r, "last": last} for n, s, a, r, last in rows]

    def answers(self, name: str) -> list[dict]:
        rows = self._read(
            "SELECT session, item, chosen, answer, correct, mode, answered FROM answers WHERE name = ? ORDER BY id",
            (check_name(name),),
        )
        return [{"session": s, "item": i, "chosen": c, "answer": a, "correct": bool(k), "mode": m, "answered": t}
                for s, i, c, a, k, m, t in rows]

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

    def record(self, name: str, session: int, item: Item, chosen: int, mode: str = "practice") -> Card:
        """Save one answer and move the item's Leitner card, in one committed transaction."""
        name = check_name(name)
        correct = chosen == item.answer

        def work(conn):
            row = conn.execute("SELECT box, last_session, seen_count, correct_count FROM cards WHERE name = ? AND item = ?",
                               (name, item.id)).fetchone()
            card = Card(*row) if row else None
            box = next_box(card, correct)
            seen = (card.seen if card else 0) + 1
            right = (card.right if card else 0) + int(correct)
            now = _now()
            conn.execute(
                "INSERT INTO answers (name, session, item, topic, sources, chosen, answer, correct, mode, answered) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name, session, item.id, item.topic, ",".join(item.sources), chosen, item.answer, int(correct), mode, now),
            )
            conn.execute(
                "INSERT INTO cards (name, item, box, last_session, seen_count, correct_count, updated) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (name, item) DO UPDATE SET box = excluded.box, last_session = excluded.last_session, "
                "seen_count = excluded.seen_count, correct_count = excluded.correct_count, updated = excluded.updated",
                (name, item.id, box, session, seen, right, now),
            )
            return Card(box, session, seen, right)

        return self._write("save this answer", work)
