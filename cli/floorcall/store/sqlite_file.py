"""One of Floorcall's SQLite files, opened safely: checked, migrated forward, written in transactions.

The rules every stored file follows (the quiz store grew them first; this is the shared form):
- a file that is damaged, another program's (PRAGMA application_id), or from a newer Floorcall
  (PRAGMA user_version) is refused with one line and left byte-for-byte as it was: it is first
  inspected over a read-only connection, and nothing here deletes, truncates or recreates a file;
- the schema is a list of migrations; a new file runs them all and an older one the rest, each
  run inside one BEGIN IMMEDIATE transaction that re-reads the version, so two processes opening
  the same old file at once upgrade it once;
- every write is one BEGIN IMMEDIATE transaction: it takes the write lock before reading, so two
  writers never interleave, and a process killed mid-write leaves the last committed state;
- a locked file is waited for (`LOCK_TIMEOUT_SECONDS`), then reported in one line.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from floorcall.core.errors import FloorError

# Long enough to ride out another floor process committing (milliseconds each), short enough that a
# stuck lock is reported while the floorperson is still looking at the screen.
LOCK_TIMEOUT_SECONDS = 5.0

MAX_DETAIL = 160  # of SQLite's own words in a message: enough to name the fault, short enough for one line

Migration = Callable[[sqlite3.Connection], None]


@dataclass(frozen=True)
class FileKind:
    """What a stored file is, for the checks and the messages."""

    name: str  # "the ruling log"
    application_id: int
    migrations: Sequence[Migration]  # migrations[i] takes the file from version i to i + 1
    safe: str  # "rulings saved before this one are safe"
    elsewhere: str = "use --db PATH for another file"
    wal: bool = False  # WAL journal: readers never wait for a writer (set once; it stays with the file)
    synchronous_full: bool = True  # each commit reaches the disk before it returns
    # Sets up a new file at the current version in one step, for a store whose early formats were
    # made before this module (the quiz's format 1): migrations then only carry old files forward.
    create: Migration | None = None
    read_older: bool = False  # a read-only open of an older format is allowed (the store reads it as it is)
    missing_hint: str = ""  # said after "there is no … yet" when a file to read does not exist
    holder: str = "another `floor`"  # who most likely holds a lock on this kind of file

    @property
    def version(self) -> int:
        return len(self.migrations)


def writable(path: Path) -> bool:
    return os.access(path, os.W_OK)


class SqliteFile:
    """One open file of a `FileKind`. Use as a context manager, or call `close()`."""

    def __init__(self, path: str | os.PathLike, kind: FileKind, readonly: bool = False,
                 timeout: float = LOCK_TIMEOUT_SECONDS, quick_check: bool = True):
        self.path = Path(path).expanduser()
        self.kind = kind
        self.readonly = readonly
        self.timeout = timeout
        self.conn: sqlite3.Connection | None = None
        self.version = 0
        try:
            self._open(quick_check)
        except PermissionError as exc:  # a folder on the way we may not enter (stat itself fails)
            raise FloorError(f"cannot reach {kind.name} {self.path}: {exc.strerror or 'permission denied'} — "
                             f"{kind.elsewhere}") from None

    # ------------------------------------------------------------ opening

    def _open(self, quick_check: bool) -> None:
        path, kind = self.path, self.kind
        if path.is_dir():
            raise FloorError(f"{kind.name} {path} is a folder — give a file path with --db")
        if self.readonly:
            if not path.exists():
                raise FloorError(f"there is no {kind.name.removeprefix('the ')} at {path} yet"
                                 + (f" — {kind.missing_hint}" if kind.missing_hint else ""))
        else:
            self._check_writable(path)
        try:
            if path.exists() and path.stat().st_size > 0:
                self._inspect(quick_check)  # read-only: a file we refuse is never opened for writing
            if self.readonly:
                self.conn = self._connect(readonly=True)
                self.version = self.connection.execute("PRAGMA user_version").fetchone()[0]
                if self.version < kind.version and not kind.read_older:
                    raise FloorError(f"{kind.name} {path} is in an older format ({self.version}) and is read-only here, so it "
                                     "cannot be upgraded — make it writable once (any `floor` command that saves upgrades it)")
            else:
                self.conn = self._connect(readonly=False)
                self._migrate()
                self._settle()
        except sqlite3.Error as exc:
            self.close()
            raise self.explain(exc, "open it") from None
        except BaseException:
            self.close()
            raise

    def _connect(self, readonly: bool) -> sqlite3.Connection:
        if readonly:
            uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
            return sqlite3.connect(uri, uri=True, timeout=self.timeout, isolation_level=None)
        return sqlite3.connect(str(self.path), timeout=self.timeout, isolation_level=None)

    def _check_writable(self, path: Path) -> None:
        folder, kind = path.parent, self.kind
        if path.exists():
            if not writable(path):
                raise FloorError(f"{kind.name} {path} is read-only: nothing can be saved (what is saved is safe) — "
                                 f"make it writable, or {kind.elsewhere}")
            if not writable(folder):
                raise FloorError(f"the folder {folder} is read-only, and SQLite needs it to save safely — "
                                 f"make it writable, or {kind.elsewhere} in another folder")
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FloorError(f"cannot create the folder {folder} for {kind.name} ({exc.strerror or exc}) — {kind.elsewhere}") from None
        if not writable(folder):
            raise FloorError(f"the folder {folder} is read-only: {kind.name} cannot be saved there — {kind.elsewhere}")

    def _inspect(self, quick_check: bool) -> None:
        """Refuse a file that is not ours, newer than this Floorcall, or damaged — over a read-only connection."""
        kind = self.kind
        probe = self._connect(readonly=True)
        try:
            # Reading the header first: a file that is not SQLite fails here, before anything else.
            app_id = probe.execute("PRAGMA application_id").fetchone()[0]
            version = probe.execute("PRAGMA user_version").fetchone()[0]
            tables = probe.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
            if not tables and not app_id:
                return  # an empty SQLite file: ours to set up
            if app_id != kind.application_id:
                raise FloorError(f"{self.path} is not {kind.name} (it holds other data); it was left untouched — {kind.elsewhere}")
            if version > kind.version:
                raise FloorError(f"{kind.name} {self.path} was written by a newer Floorcall (format {version}); it was left "
                                 "untouched — update Floorcall to use it")
            if quick_check:
                check = probe.execute("PRAGMA quick_check").fetchall()
                if check != [("ok",)]:
                    first = " ".join(str(check[0][0]).split())  # quick_check reports over several lines
                    raise sqlite3.DatabaseError(f"database disk image is malformed ({first[:MAX_DETAIL]})")
        finally:
            probe.close()

    @property
    def connection(self) -> sqlite3.Connection:
        if self.conn is None:
            raise FloorError(f"{self.kind.name} {self.path} is closed")
        return self.conn

    def _migrate(self) -> None:
        conn, kind = self.connection, self.kind
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == kind.version:
            self.version = version
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read under the write lock: another process may have set up or upgraded the file meanwhile.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            if app_id not in (0, kind.application_id) or version > kind.version:
                raise FloorError(f"{self.path} changed while it was opened and is not {kind.name} this Floorcall can use; "
                                 "it was left untouched")
            if version == 0 and kind.create is not None:
                kind.create(conn)
            else:
                for step in range(version, kind.version):
                    kind.migrations[step](conn)
            conn.execute(f"PRAGMA application_id = {kind.application_id}")
            conn.execute(f"PRAGMA user_version = {kind.version}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.version = kind.version

    def _settle(self) -> None:
        conn = self.connection
        if self.kind.wal and conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            conn.execute("PRAGMA journal_mode = WAL")  # persistent: set once, by whoever opens the file first
        conn.execute(f"PRAGMA synchronous = {'FULL' if self.kind.synchronous_full else 'NORMAL'}")

    # ------------------------------------------------------------ errors

    def explain(self, exc: sqlite3.Error, doing: str) -> FloorError:
        """One clear line for what went wrong with the file; never a traceback."""
        detail = " ".join(str(exc).split())[:MAX_DETAIL] or type(exc).__name__
        text = detail.lower()
        kind = self.kind
        where = f"{kind.name} {self.path}"
        if "locked" in text or "busy" in text:
            return FloorError(f"{where} is locked by another program ({kind.holder}?): could not {doing} after "
                              f"waiting {self.timeout:g} s — {kind.safe}; try again")
        if "readonly" in text or "read-only" in text:
            return FloorError(f"{where} is read-only: could not {doing} — {kind.safe}; make it writable or {kind.elsewhere}")
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return FloorError(f"{where} is damaged ({detail}); Floorcall left it untouched — keep a copy "
                              f"(`sqlite3 {self.path} .recover` may rescue it) and {kind.elsewhere}")
        if "unable to open" in text:
            return FloorError(f"cannot open {where} ({detail}) — check the path and its folder, or {kind.elsewhere}")
        if "disk" in text and ("full" in text or "i/o" in text):
            return FloorError(f"could not {doing} in {where} ({detail}) — {kind.safe}; free some space or {kind.elsewhere}")
        return FloorError(f"could not {doing} in {where} ({detail}) — {kind.safe}")

    # ------------------------------------------------------------ use

    def read(self, doing: str, sql: str, args: Sequence = ()) -> list[tuple]:
        try:
            return self.connection.execute(sql, tuple(args)).fetchall()
        except sqlite3.Error as exc:
            raise self.explain(exc, doing) from None

    def transaction(self, doing: str, work: Callable[[sqlite3.Connection], object]):
        """Run `work(conn)` in one BEGIN IMMEDIATE transaction; commit, or roll back on any failure."""
        if self.readonly:
            raise FloorError(f"{self.kind.name} {self.path} was opened read-only: could not {doing}")
        conn = self.connection
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
            raise self.explain(exc, doing) from None

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            finally:
                self.conn = None

    def __enter__(self) -> SqliteFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
