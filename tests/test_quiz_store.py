"""Quiz progress in SQLite: where it lives, FSRS cards, one transaction per answer, exams, the Leitner migration, and files it must never harm."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from floorcall.core.errors import FloorError
from floorcall.engines import schedule
from floorcall.engines.quiz import Item
from floorcall.store import quiz_store, sqlite_file
from floorcall.store.quiz_store import APPLICATION_ID, SCHEMA_VERSION, ProgressStore, check_name, default_db_path

T0 = datetime(2025, 1, 6, 19, 0, tzinfo=UTC)

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


def _counts(cards: dict) -> dict:
    return {item: (card.seen, card.right) for item, card in cards.items()}


def test_new_database_and_fsrs_cards(tmp_path):
    """The folder and file are created; sessions count up; each answer moves the item's FSRS card and is kept with its rating."""
    path = tmp_path / "deep" / "er" / "progress.sqlite3"
    with ProgressStore(path) as store:
        assert store.begin_session("Ana") == 1
        first = store.record("Ana", 1, ITEM, 0, when=T0)
        assert first == schedule.review(None, schedule.GOOD, T0)
        assert (first.due, first.seen, first.right) == (T0 + timedelta(minutes=10), 1, 1)
        wrong = store.record("ana", 1, OTHER, 2, when=T0)  # names match case-insensitively
        assert (wrong.due, wrong.right) == (T0 + timedelta(minutes=1), 0)
        assert store.begin_session("ANA") == 2
        easy = store.record("Ana", 2, ITEM, 0, said=schedule.EASY, when=T0 + timedelta(minutes=15))
        assert (easy.state, easy.due) == (schedule.REVIEW, T0 + timedelta(days=4, minutes=15))
        guessed = store.record("Ana", 2, ITEM, 0, said=schedule.AGAIN, when=T0 + timedelta(days=1))  # right, but a guess
        assert guessed.state == schedule.RELEARNING and (guessed.seen, guessed.right) == (3, 3)
    with ProgressStore(path, readonly=True) as store:
        assert store.session("Ana") == 2
        assert store.cards("Ana") == {ITEM.id: guessed, OTHER.id: wrong}
        assert [(a["session"], a["item"], a["chosen"], a["correct"], a["rating"], a["rated"]) for a in store.answers("Ana")] == [
            (1, ITEM.id, 0, True, 3, "derived"), (1, OTHER.id, 2, False, 1, "derived"),
            (2, ITEM.id, 0, True, 4, "said"), (2, ITEM.id, 0, True, 1, "said")]
        assert [(p["name"], p["sessions"], p["answers"], p["right"]) for p in store.people()] == [("Ana", 2, 4, 3)]
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    assert raw.execute("SELECT topic, sources, mode, kind, picked FROM answers LIMIT 1").fetchone() == (
        "betting", "tda-2024,wpa", "practice", "scenario", "1")


SELECT = Item("select:misdeal:1", "select-all", "dealing", ("dealing",), ("tda-2024",), "Which are misdeals?",
              ("Fact one.", "Fact two.", "Fact three.", "Fact four."), 0, "Why.", ("tda-2024:35-A",), answer_set=(0, 2))


@pytest.mark.parametrize("chosen, correct, picked", [((0, 2), True, "1+3"), ((2, 0), True, "1+3"), ((0,), False, "1"),
                                                     ((0, 1, 2), False, "1+2+3")])
def test_select_all_answers_are_kept_whole(tmp_path, chosen, correct, picked):
    """A select-all answer is right only with every right choice and no other; all its choices are saved."""
    with ProgressStore(tmp_path / "p.sqlite3") as store:
        card = store.record("Ana", store.begin_session("Ana"), SELECT, chosen, when=T0)
        assert card.right == int(correct)
        assert store.answers("Ana")[0]["picked"] == picked and store.answers("Ana")[0]["correct"] is correct


def test_each_answer_is_committed_at_once(tmp_path):
    """Another connection sees an answer as soon as record() returns: nothing waits for the end of the quiz."""
    path = tmp_path / "p.sqlite3"
    store = ProgressStore(path)
    session = store.begin_session("Bo")
    store.record("Bo", session, ITEM, 0)
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 1
    store.file.conn = None  # simulate the process dying without closing: the committed answer must already be on disk
    assert sqlite3.connect(path).execute("SELECT item, correct FROM answers").fetchall() == [(ITEM.id, 1)]


def test_failed_write_leaves_nothing_half_done(tmp_path, monkeypatch):
    """If saving an answer fails half-way, neither the answer nor the card changes."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record("Cy", store.begin_session("Cy"), ITEM, 0)
        before = store.cards("Cy")
        broken = schedule.Card(9, None, 1.0, 1.0, T0, T0)  # violates the state CHECK after the answer's insert
        monkeypatch.setattr(schedule, "review", lambda card, rating, when=None: broken)
        with pytest.raises(FloorError) as caught:
            store.record("Cy", 1, ITEM, 1)
        assert caught.value.message.startswith(f"could not save this answer in the progress database {path} (CHECK constraint failed")
        assert store.cards("Cy") == before
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
        f"keep a copy (`sqlite3 {path} .recover` may rescue it) and use --db PATH for another file")
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
    assert caught.value.message == (f"{path} is not the progress database (it holds other data); it was left untouched — "
                                    "use --db PATH for another file")
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
    assert _counts(store.cards("Ana")) == {ITEM.id: (1, 1)}
    store.record("Ana", session, OTHER, 0)  # and it works again once the lock is gone
    assert len(store.answers("Ana")) == 2


def test_read_only_file_is_reported_before_the_quiz(tmp_path, monkeypatch):
    """A read-only database is refused for writing up front, and stats can still read it."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        store.record("Ana", store.begin_session("Ana"), ITEM, 0)
    monkeypatch.setattr(sqlite_file, "writable", lambda p: Path(p) != path)  # as root, chmod alone would not stop us
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert caught.value.message == (f"the progress database {path} is read-only: nothing can be saved (what is saved is safe) — "
                                    "make it writable, or use --db PATH for another file")
    with ProgressStore(path, readonly=True) as store:
        assert _counts(store.cards("Ana")) == {ITEM.id: (1, 1)}


def test_read_only_folder_is_reported(tmp_path, monkeypatch):
    """SQLite needs the folder writable for its journal; that is said plainly."""
    path = tmp_path / "p.sqlite3"
    ProgressStore(path).close()
    monkeypatch.setattr(sqlite_file, "writable", lambda p: Path(p) != tmp_path)
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert caught.value.message == (f"the folder {tmp_path} is read-only, and SQLite needs it to save safely — "
                                    "make it writable, or use --db PATH for another file in another folder")


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
         "the progress database {p} is read-only: could not save this answer — answers saved before this one are safe; make it writable or use --db PATH for another file"),
        (sqlite3.OperationalError("database is locked"),
         "the progress database {p} is locked by another program (another `floor quiz`?): could not save this answer after waiting 5 s — "
         "answers saved before this one are safe; try again"),
        (sqlite3.DatabaseError("database disk image is malformed"),
         "the progress database {p} is damaged (database disk image is malformed); Floorcall left it untouched — keep a copy "
         "(`sqlite3 {p} .recover` may rescue it) and use --db PATH for another file"),
        (sqlite3.OperationalError("disk I/O error"),
         "could not save this answer in the progress database {p} (disk I/O error) — answers saved before this one are safe; "
         "free some space or use --db PATH for another file"),
    ],
)
def test_sqlite_errors_become_one_clear_line(tmp_path, error, message):
    """Each SQLite failure reads as what happened to the file and what is safe."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        assert store.file.explain(error, "save this answer").message == message.format(p=path)


@pytest.mark.parametrize(
    "setup, message",
    [
        ("missing", "there is no progress database at {p} yet — take a quiz with --name NAME first"),
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


# ---------------------------------------------------------------- exams


def test_an_exam_is_saved_before_its_first_question_and_taken_up_again(tmp_path):
    """start_exam records the paper and the clock; answers given to it come back with open_exam; finishing closes it."""
    path = tmp_path / "p.sqlite3"
    with ProgressStore(path) as store:
        exam = store.start_exam("Ana", 7, [ITEM.id, OTHER.id, SELECT.id], 100, 90.0, T0)
        store.record("Ana", store.begin_session("Ana"), SELECT, (0, 2), mode="exam", exam=exam)
    with ProgressStore(path) as store:
        found = store.open_exam("ana")
        assert (found["id"], found["seed"], found["items"], found["minutes"], found["pass_mark"]) == (exam, 7, [ITEM.id, OTHER.id, SELECT.id], 100, 90.0)
        assert (found["started"], found["deadline"], found["answered"]) == (T0, T0 + timedelta(minutes=100), {SELECT.id: "1+3"})
        store.finish_exam(exam, "done", 1, 3)
        assert store.open_exam("Ana") is None
        assert [(e["status"], e["score"], e["total"]) for e in store.exams("Ana")] == [("done", 1, 3)]


# ---------------------------------------------------------------- carrying a Leitner database forward

LEITNER_SCHEMA = [  # what Floorcall wrote before FSRS (format 1)
    "CREATE TABLE people (name TEXT PRIMARY KEY COLLATE NOCASE, sessions INTEGER NOT NULL DEFAULT 0, created TEXT NOT NULL)",
    "CREATE TABLE cards (name TEXT NOT NULL COLLATE NOCASE, item TEXT NOT NULL, box INTEGER NOT NULL CHECK (box BETWEEN 1 AND 5), "
    "last_session INTEGER NOT NULL, seen_count INTEGER NOT NULL, correct_count INTEGER NOT NULL, updated TEXT NOT NULL, "
    "PRIMARY KEY (name, item))",
    "CREATE TABLE answers (id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, session INTEGER NOT NULL, item TEXT NOT NULL, "
    "topic TEXT NOT NULL, sources TEXT NOT NULL, chosen INTEGER NOT NULL, answer INTEGER NOT NULL, correct INTEGER NOT NULL, "
    "mode TEXT NOT NULL, answered TEXT NOT NULL)",
    "CREATE INDEX answers_by_name ON answers (name, session)",
]
# (name, session, item, correct, minutes after T0)
LEITNER_ANSWERS = [("Ana", 1, ITEM.id, 1, 0), ("Ana", 1, OTHER.id, 0, 2), ("Ana", 2, ITEM.id, 1, 60 * 24 * 2),
                   ("Ana", 2, OTHER.id, 1, 60 * 24 * 2 + 3), ("Bo", 1, ITEM.id, 0, 5)]
LEITNER_CARDS = [("Ana", ITEM.id, 3, 2, 2, 2), ("Ana", OTHER.id, 2, 2, 2, 1), ("Bo", ITEM.id, 1, 1, 1, 0),
                 ("Bo", "rule:gone:governs", 4, 1, 5, 5)]  # the last has no answers on record


def _leitner_db(path: Path) -> Path:
    with sqlite3.connect(path) as conn:
        for statement in LEITNER_SCHEMA:
            conn.execute(statement)
        conn.executemany("INSERT INTO people VALUES (?, ?, ?)", [("Ana", 2, T0.isoformat()), ("Bo", 1, T0.isoformat())])
        conn.executemany("INSERT INTO answers (name, session, item, topic, sources, chosen, answer, correct, mode, answered) "
                         "VALUES (?, ?, ?, 'betting', 'tda-2024', ?, 0, ?, 'practice', ?)",
                         [(n, s, i, 0 if c else 1, c, (T0 + timedelta(minutes=m)).isoformat(timespec="seconds"))
                          for n, s, i, c, m in LEITNER_ANSWERS])
        conn.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(n, i, box, last, seen, right, T0.isoformat()) for n, i, box, last, seen, right in LEITNER_CARDS])
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("PRAGMA user_version = 1")
    return path


def _replayed(name: str, item: str):
    return schedule.replay([(T0 + timedelta(minutes=m), schedule.GOOD if c else schedule.AGAIN)
                            for n, _s, i, c, m in LEITNER_ANSWERS if n == name and i == item])


def test_leitner_database_is_carried_forward_losing_nothing(tmp_path):
    """Format 1 opens as format 2: each card replayed through FSRS from its answers, tallies kept, the Leitner table and every answer kept."""
    path = _leitner_db(tmp_path / "p.sqlite3")
    with ProgressStore(path) as store:
        cards = store.cards("Ana")
        for item, seen, right in ((ITEM.id, 2, 2), (OTHER.id, 2, 1)):
            expected = _replayed("Ana", item)
            assert (cards[item].state, cards[item].due, cards[item].stability) == (expected.state, expected.due, expected.stability)
            assert (cards[item].seen, cards[item].right) == (seen, right)
        gone = store.cards("Bo")["rule:gone:governs"]  # nothing to replay: due at once, its tallies kept
        assert (gone.due, gone.seen, gone.right, gone.stability) == (T0, 5, 5, None)
        assert [(a["item"], a["correct"], a["rating"], a["rated"], a["picked"]) for a in store.answers("Ana")] == [
            (ITEM.id, True, 3, "migrated", "1"), (OTHER.id, False, 1, "migrated", "2"),
            (ITEM.id, True, 3, "migrated", "1"), (OTHER.id, True, 3, "migrated", "1")]
        assert store.session("Ana") == 2
        store.record("Ana", 3, ITEM, 0)  # and it takes new answers
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 2
    assert raw.execute("SELECT name, item, box, last_session, seen_count, correct_count FROM cards_leitner ORDER BY rowid").fetchall() == \
        [row[:6] for row in LEITNER_CARDS]
    assert raw.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == len(LEITNER_ANSWERS) + 1


def test_a_failed_migration_changes_nothing(tmp_path, monkeypatch):
    """If carrying the data forward fails half-way, the transaction is rolled back: the file is still format 1, byte for byte."""
    path = _leitner_db(tmp_path / "p.sqlite3")
    before = path.read_bytes()

    def fail(*args):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(quiz_store, "_card_row", fail)
    with pytest.raises(FloorError) as caught:
        ProgressStore(path)
    assert "(disk I/O error)" in caught.value.message
    assert path.read_bytes() == before


def test_a_leitner_database_read_only_is_replayed_in_memory(tmp_path):
    """`floor quiz stats` on a format-1 file it may not write: the same FSRS cards, worked out without touching the file."""
    path = _leitner_db(tmp_path / "p.sqlite3")
    before = path.read_bytes()
    with ProgressStore(path, readonly=True) as store:
        assert store.cards("Ana")[ITEM.id].due == _replayed("Ana", ITEM.id).due
        assert len(store.answers("Ana")) == 4 and store.exams("Ana") == []
    assert path.read_bytes() == before
