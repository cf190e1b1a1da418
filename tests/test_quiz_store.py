"""Quiz progress in SQLite: where it lives, Leitner cards, one transaction per answer, and files it must never harm."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from floorcall.core.errors import FloorError
from floorcall.engines.quiz import Card, Item
from floorcall.store import quiz_store
from floorcall.store.quiz_store import APPLICATION_ID, ProgressStore, check_name, default_db_path

ITEM = Item("scenario:overchip:call", "scenario", "betting", ("betting", "chips"), ("tda-2024", "wpa"), "Facts?",
            ("It is a call.", "A raise.", "A fold."), 0, "Why.", ("tda-2024:44",))
OTHER = Item("rule:tda-2024:44:governs", "rule", "betting", ("betting",), ("tda-2024",), "Which rule?",
             ("TDA 2024 Rule 44", "TDA 2024 Rule 45", "TDA 2024 Rule 46"), 0, "Why.", ("tda-2024:44",))


@pytest.mark.parametrize(
    "xdg, expected",
    [
        ("/data/xdg", Path("/data/xdg/floorcall/quiz-progress.sqlite3")),
        ("relative/ignored", Path("/home/t/.local/share/floorcall/quiz-progress.sqlite3")),
        (None, Path("/home/t/.local/share/floorcall/quiz-progress.sqlite3")),
    ],
)
def test_default_db_path(monkeypatch, xdg, expected):
    """XDG_DATA_HOME is respected when absolute (the XDG spec ignores a relative one); else ~/.local/share."""
    monkeypatch.setenv("HOME", "/home/t")
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    assert default_db_path() == expected


@pytest.mark.parametrize(
    "name, cleaned",
    [("Ana", "Ana"), ("  Ana   Lopez ", "Ana Lopez")],
)
def test_check_name(name, cleaned):
    """Names are trimmed and inner spaces collapsed."""
    assert check_name(name) == cleaned


@pytest.mark.parametrize(
    "name, message",
    [("   ", "--name is empty — give the trainee's name, e.g. --name Ana"),
     ("x" * 81, "--name must be at most 80 printable characters")],
)
def test_bad_names(name, message):
    """An empty or overlong name is refused."""
    with pytest.raises(FloorError) as caught:
        check_name(name)
    assert caught.value.message == message


def test_new_database_and_leitner_cards(tmp_path):
    """The folder and file are created; sessions count up; each answer moves the item's box and is kept."""
    path = tmp_path / "deep" / "er" / "progress.sqlite3"
    with ProgressStore(path) as store:
        assert store.begin_session("Ana") == 1
        assert store.record("Ana", 1, ITEM, 0) == Card(2, 1, 1, 1)
        assert store.record("ana", 1, OTHER, 2) == Card(1, 1, 1, 0)  # names match case-insensitively
        assert store.begin_session("ANA") == 2
        assert store.record("Ana", 2, ITEM, 0) == Card(3, 2, 2, 2)
        assert store.record("Ana", 2, ITEM, 1) == Card(1, 2, 3, 2)
    with ProgressStore(path, readonly=True) as store:
        assert store.session("Ana") == 2
        assert store.cards("Ana") == {ITEM.id: Card(1, 2, 3, 2), OTHER.id: Card(1, 1, 1, 0)}
        assert [(a["session"], a["item"], a["chosen"], a["correct"]) for a in store.answers("Ana")] == [
            (1, ITEM.id, 0, True), (1, OTHER.id, 2, False), (2, ITEM.id, 0, True), (2, ITEM.id, 1, False)]
        assert [(p["name"], p["sessions"], p["answers"], p["right"]) for p in store.people()] == [("Ana", 2, 4, 2)]
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("SELECT topic, sources, mode FROM answers LIMIT 1").fetchone() == ("betting", "tda-2024,wpa", "practice")


def test_each_answer_is_committed_at_once(tmp_path):
    """Another connection sees an answer as soon as record() returns: nothing waits for the end of the quiz."""
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path)
    session = store.begin_session("Bo")
    store.record("Bo", session, ITEM, 0)
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 1
    store.conn = None  # simulate the process dying without closing: the committed answer must already be on disk
    assert sqlite3.connect(path).execute("SELECT item, correct FROM answers").fetchall() == [(ITEM.id, 1)]


def test_failed_write_leaves_nothing_half_done(tmp_path, monkeypatch):
    """If saving an answer fails half-way, neither the answer nor the card changes."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record("Cy", store.begin_session("Cy"), ITEM, 0)
        monkeypatch.setattr(quiz_store, "next_box", lambda card, correct: 9)  # violates the box CHECK after the insert
        with pytest.raises(FloorError) as caught:
            store.record("Cy", 1, ITEM, 1)
        assert caught.value.message.startswith(f"could not save this answer in the progress database {path} (CHECK constraint failed")
        assert store.cards("Cy") == {ITEM.id: Card(2, 1, 1, 1)}
        assert len(store.answers("Cy")) == 1


def _bytes(path: Path) -> bytes:
    return path.read_bytes()


def test_corrupt_database_is_refused_and_untouched(tmp_path):
    """A file that is not SQLite is reported as damaged and left byte for byte as it was."""
    path = tmp_path / "p.sqlite3"
    path.write_bytes(b"my notes, not a database\n" * 200)
    before = _bytes(path)
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert caught.value.message == (
        f"the progress database {path} is damaged (file is not a database); Floorcall left it untouched — "
        f"keep a copy (`sqlite3 {path} .recover` may rescue it) and use --db PATH for new progress")
    assert _bytes(path) == before


def test_damaged_pages_are_refused_and_untouched(tmp_path):
    """A real progress database with a scribbled-over page fails the integrity check and is not written to."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        session = store.begin_session("Ana")
        for n in range(200):
            store.record("Ana", session, Item(f"i{n}", "rule", "betting", ("betting",), ("tda-2024",), "Q", ("A", "B", "C"), 0, "W", ("x",)), 0)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 4 * page
    data[2 * page: 2 * page + 12] = b"\xff" * 12  # the b-tree page header of the third page: an impossible page type
    path.write_bytes(bytes(data))
    before = _bytes(path)
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert " is damaged (" in caught.value.message and "left it untouched" in caught.value.message
    assert _bytes(path) == before


def test_foreign_sqlite_is_refused(tmp_path):
    """Another program's SQLite file is not taken over."""
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    before = _bytes(path)
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert caught.value.message == (f"{path} is not a Floorcall progress database (it holds other data); it was left untouched — "
                                    "use --db PATH to keep progress elsewhere")
    assert _bytes(path) == before


def test_newer_format_is_refused(tmp_path):
    """A database written by a newer Floorcall is not downgraded."""
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert caught.value.message == (f"the progress database {path} was written by a newer Floorcall (format 99); "
                                    "it was left untouched — update Floorcall to use it")


def test_locked_database_is_reported_and_saved_answers_survive(tmp_path):
    """While another program holds the write lock, saving waits, then says so; earlier answers stay."""
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path, timeout=0.2)
    session = store.begin_session("Ana")
    store.record("Ana", session, ITEM, 0)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(FloorError) as caught:
        store.record("Ana", session, OTHER, 0)
    assert caught.value.message == (f"the progress database {path} is locked by another program (another `floor quiz`?): "
                                    "could not save this answer after waiting 0.2 s — answers saved before this one are safe; try again")
    blocker.execute("ROLLBACK")
    assert store.cards("Ana") == {ITEM.id: Card(2, 1, 1, 1)}
    store.record("Ana", session, OTHER, 0)  # and it works again once the lock is gone
    assert len(store.answers("Ana")) == 2


def test_read_only_file_is_reported_before_the_quiz(tmp_path, monkeypatch):
    """A read-only database is refused for writing up front, and stats can still read it."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record("Ana", store.begin_session("Ana"), ITEM, 0)
    monkeypatch.setattr(quiz_store, "_writable", lambda p: Path(p) != path)  # as root, chmod alone would not stop us
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert caught.value.message == (f"the progress database {path} is read-only: answers cannot be saved (what is saved is safe) — "
                                    "make it writable, or use --db PATH for another file; `floor quiz stats` can still read it")
    with ProgressStore(path, readonly=True) as store:
        assert store.cards("Ana") == {ITEM.id: Card(2, 1, 1, 1)}


def test_read_only_folder_is_reported(tmp_path, monkeypatch):
    """SQLite needs the folder writable for its journal; that is said plainly."""
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    monkeypatch.setattr(quiz_store, "_writable", lambda p: Path(p) != tmp_path)
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert caught.value.message == (f"the folder {tmp_path} is read-only, and SQLite needs it to save safely — "
                                    "make it writable, or use --db PATH in another folder")


def test_read_only_connection_refuses_writes(tmp_path):
    """A store opened read-only never writes."""
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    with ProgressStore(path, readonly=True) as store, pytest.raises(FloorError) as caught:
        store.record("Ana", 1, ITEM, 0)
    assert caught.value.message == f"the progress database {path} was opened read-only: could not save this answer"


@pytest.mark.parametrize(
    "error, message",
    [
        (sqlite3.OperationalError("attempt to write a readonly database"),
         "the progress database {p} is read-only: could not save this answer — answers saved before this one are safe; make it writable or use --db PATH"),
        (sqlite3.OperationalError("database is locked"),
         "the progress database {p} is locked by another program (another `floor quiz`?): could not save this answer after waiting 5 s — "
         "answers saved before this one are safe; try again"),
        (sqlite3.DatabaseError("database disk image is malformed"),
         "the progress database {p} is damaged (database disk image is malformed); Floorcall left it untouched — keep a copy "
         "(`sqlite3 {p} .recover` may rescue it) and use --db PATH for new progress"),
        (sqlite3.OperationalError("disk I/O error"),
         "could not save this answer in the progress database {p} (disk I/O error) — answers saved before this one are safe"),
    ],
)
def test_sqlite_errors_become_one_clear_line(tmp_path, error, message):
    """Each SQLite failure reads as what happened to the file and what is safe."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        assert store._explain(error, "save this answer").message == message.format(p=path)


@pytest.mark.parametrize(
    "setup, message",
    [
        ("missing", "no quiz progress saved yet at {p} — take a quiz with --name NAME first"),
        ("folder", "the progress database {p} is a folder — give a file path with --db"),
    ],
)
def test_opening_problems(tmp_path, setup, message):
    """Reading a missing file, or a folder given as --db, is a clear error."""
    path = tmp_path / "p.sqlite3"
    if setup == "folder":
        path.mkdir()
    with pytest.raises(FloorError) as caught:
        ProgressStore(path, readonly=True)
    assert caught.value.message == message.format(p=path)


def test_empty_file_is_adopted(tmp_path):
    """A zero-byte file (nothing saved) becomes a progress database."""
    path = tmp_path / "p.sqlite3"
    path.touch()
    with ProgressStore(path) as store:
        assert store.begin_session("Ana") == 1
